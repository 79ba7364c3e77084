/* nqueens/poll.h -- polling the search_ctl_t by work done, not by nodes
 * (internal to solvers/nqueens/).
 *
 * search_should_stop() reads the clock every SEARCH_POLL_MASK + 1 nodes,
 * which bounds the time between two polls only when a node costs O(1).  In
 * mrv a node scans the lines of the board (O(n): 16,384 nodes at n = 65,536
 * were 50 s between two reads of the clock), in min-conflicts a move up to
 * FULL_SCAN_N scans a row, and set-up passes walk n rows.  So these solvers
 * count *units* of work instead -- about one square, line counter or array
 * entry looked at each, a few nanoseconds -- and poll once
 * NQUEENS__POLL_UNITS of them have piled up: about every millisecond whatever n is,
 * and never more often than a clock read is worth.
 *
 * The poll reports the nodes done since the previous one to ctl->progress
 * (search.h's live work counter) and checks cancel flag, node budget (in
 * nodes, as search.h defines it) and deadline with search_check_now().
 *
 * Header-only; the state lives on the solver's stack. */
#ifndef PUZZLED_NQUEENS_POLL_H
#define PUZZLED_NQUEENS_POLL_H

#include <stdint.h>

#include "solvers/search.h"

/* Units between two polls: 2^18, about a millisecond of the searches above
 * (measured: mrv at n = 1000 does ~4.5 ns a unit). */
#define NQUEENS__POLL_UNITS ((uint64_t)1 << 18)

/* Units of a node that costs O(1) (a bitboard placement): such a search
 * polls every SEARCH_POLL_MASK + 1 nodes, as search_should_stop() does. */
#define NQUEENS__NODE_UNITS (NQUEENS__POLL_UNITS / (SEARCH_POLL_MASK + 1))

typedef struct nqueens__poll_s {
    uint64_t units; /* work since the last poll */
    uint64_t nodes; /* nodes at the last poll (what progress has been told) */
} nqueens__poll_t;

static inline void nqueens__poll_init(nqueens__poll_t *p, uint64_t nodes) {
    p->units = 0;
    p->nodes = nodes;
}

/* Adds `units` of work; once NQUEENS__POLL_UNITS have piled up, polls ctl
 * (NULL: never stops) with the solver's node count `nodes`.  Returns 0 to go
 * on, or SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET. */
static inline int nqueens__poll(nqueens__poll_t *p, const search_ctl_t *ctl, uint64_t units,
                                uint64_t nodes) {
    p->units += units;
    if (p->units < NQUEENS__POLL_UNITS) return 0;
    p->units = 0;
    if (ctl == NULL) return 0;
    if (ctl->progress != NULL && nodes > p->nodes)
        atomic_fetch_add_explicit(ctl->progress, nodes - p->nodes, memory_order_relaxed);
    p->nodes = nodes;
    return search_check_now(ctl, nodes);
}

#endif
