/* search.h -- the contract every puzzled solver shares.
 *
 * A search is told *when to stop* through a search_ctl_t and reports *what it
 * did* through a search_stats_t.  The caller owns both; a solver only reads the
 * control block and only writes the statistics.
 *
 *   search_ctl_t   deadline (CLOCK_MONOTONIC, ns), cancel flag (set by another
 *                  thread, e.g. when the HTTP client goes away), node budget.
 *   search_stats_t nodes (placements tried), backtracks, propagations and the
 *                  deepest level reached.  Solvers add to it, never reset it,
 *                  so parallel parts can be summed by the caller.
 *
 * Solvers return 0 or one of the SEARCH_* codes below; they poll the control
 * block through search_should_stop() every SEARCH_POLL_MASK+1 nodes, so the
 * cost of a clock read is amortised over thousands of nodes.
 *
 *   search_allocator_t  the allocator hooks a caller may give a solver
 *                  (NULL: malloc / free); tests use them to inject failures.
 *
 * Thread-safety: a search_ctl_t may be shared by many concurrent searches (the
 * cancel flag is atomic); a search_stats_t belongs to one search at a time. */
#ifndef PUZZLED_SEARCH_H
#define PUZZLED_SEARCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* Result codes shared by all solvers.  0 means "ran to completion" (the whole
 * space was searched, or the requested number of solutions was found). */
#define SEARCH_OK        0
#define SEARCH_TIMEOUT   (-1) /* the deadline passed */
#define SEARCH_CANCELLED (-2) /* the cancel flag was raised */
#define SEARCH_BUDGET    (-3) /* the node budget or a memory cap ran out */
#define SEARCH_EINVAL    (-4) /* the input breaks the solver's preconditions */
#define SEARCH_ENOMEM    (-5) /* an allocation before the search failed */
#define SEARCH_TURN      (-6) /* a turn's time ran out; the caller's state says where to go on */

/* The code's name ("SEARCH_TIMEOUT", "SUDOKU_ECONFLICT", ...) and a short
 * sentence, for logs and problem details; any solver's code, "SEARCH_UNKNOWN"
 * for others.  Static strings, from the tables below. */
const char *search_code_name(int code);
const char *search_code_str(int code);

/* A block of codes names itself in a table defined at the start of a line
 * of its puzzle's main .c, "const search_code_t <puzzle>_codes[] = {",
 * rows SEARCH_CODE(CODE, "sentence"), ended by {0, NULL, NULL}; the
 * Makefile lists every such table of SOLVER_SRC in search_code_tables[]
 * (NULL-terminated). */
typedef struct search_code_s {
    int code;
    const char *name;
    const char *str;
} search_code_t;
#define SEARCH_CODE(c, s)                                                                          \
    { c, #c, s }
extern const search_code_t *const search_code_tables[];

#define SEARCH_POLL_MASK 0x3fffu /* poll the clock every 16384 nodes */

/* Allocator hooks, one type for every solver's options (killer_opts_t,
 * sudoku_opts_t, xcover_opts_t, ...): a NULL pointer, or NULL in both
 * functions, means malloc / free; setting one function without the other
 * is an error (search_allocator_ok).  alloc returns NULL on failure.  The
 * struct and ud belong to the caller and must outlive the solve; hooks
 * shared by concurrent solves must be thread-safe. */
typedef void *(*search_alloc_fn)(void *ud, size_t size);
typedef void (*search_free_fn)(void *ud, void *ptr);
typedef struct search_allocator_s {
    search_alloc_fn alloc;
    search_free_fn dealloc;
    void *ud; /* passed to both */
} search_allocator_t;

typedef struct search_ctl_s {
    int64_t deadline_ns;      /* CLOCK_MONOTONIC ns; 0 = no deadline */
    uint64_t node_budget;     /* 0 = unlimited */
    const atomic_int *cancel; /* nonzero = stop; NULL = never */
    /* NULL, or a counter that search_should_stop() advances by
     * SEARCH_POLL_MASK + 1 at each poll: a running search's work as another
     * thread can watch it (a job's live progress), summed over every search
     * sharing this block.  Approximate (whole poll intervals), monotone. */
    atomic_uint_fast64_t *progress;
    /* NULL, or the allocator a search under this block uses for its
     * working memory when its options name none (search_allocator_of):
     * the server's charges a memory budget, so that a search that would
     * pass it fails with SEARCH_ENOMEM instead of taking the machine. */
    const search_allocator_t *alloc;
} search_ctl_t;

typedef struct search_stats_s {
    uint64_t nodes;        /* placements / choices tried */
    uint64_t backtracks;   /* choices undone */
    uint64_t propagations; /* values removed or forced by inference */
    uint32_t max_depth;    /* deepest search level reached */
} search_stats_t;

/* Whether a is usable: NULL, or both hooks set, or neither. */
static inline int search_allocator_ok(const search_allocator_t *a) {
    return a == NULL || (a->alloc == NULL) == (a->dealloc == NULL);
}

/* The allocator a search uses: its options' own if they name one (even a
 * half-set one, which search_allocator_ok() then refuses), else the control
 * block's, else NULL (malloc / free). */
static inline const search_allocator_t *search_allocator_of(const search_allocator_t *own,
                                                            const search_ctl_t *ctl) {
    if (own != NULL && (own->alloc != NULL || own->dealloc != NULL)) return own;
    return ctl != NULL && ctl->alloc != NULL ? ctl->alloc : own;
}

/* Allocates / frees through a (NULL or unset: malloc / free). */
static inline void *search_alloc(const search_allocator_t *a, size_t size) {
    return a != NULL && a->alloc != NULL ? a->alloc(a->ud, size) : malloc(size);
}
static inline void search_free(const search_allocator_t *a, void *ptr) {
    if (ptr == NULL) return;
    if (a != NULL && a->dealloc != NULL)
        a->dealloc(a->ud, ptr);
    else
        free(ptr);
}

/* Monotonic clock in nanoseconds. */
static inline int64_t search_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Returns 0 to go on, or SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET.
 * Cheap enough to call at every node: the clock is read only when the low
 * bits of `nodes` are zero.  `ctl` may be NULL (no limits). */
static inline int search_should_stop(const search_ctl_t *ctl, uint64_t nodes) {
    if (ctl == NULL || (nodes & SEARCH_POLL_MASK) != 0) return 0;
    if (ctl->progress != NULL)
        atomic_fetch_add_explicit(ctl->progress, SEARCH_POLL_MASK + 1, memory_order_relaxed);
    if (ctl->cancel != NULL && atomic_load_explicit(ctl->cancel, memory_order_relaxed))
        return SEARCH_CANCELLED;
    if (ctl->node_budget != 0 && nodes >= ctl->node_budget) return SEARCH_BUDGET;
    if (ctl->deadline_ns != 0 && search_now_ns() >= ctl->deadline_ns) return SEARCH_TIMEOUT;
    return 0;
}

/* Same checks, unconditionally (for coarse loops and before a search starts). */
static inline int search_check_now(const search_ctl_t *ctl, uint64_t nodes) {
    if (ctl == NULL) return 0;
    if (ctl->cancel != NULL && atomic_load_explicit(ctl->cancel, memory_order_relaxed))
        return SEARCH_CANCELLED;
    if (ctl->node_budget != 0 && nodes >= ctl->node_budget) return SEARCH_BUDGET;
    if (ctl->deadline_ns != 0 && search_now_ns() >= ctl->deadline_ns) return SEARCH_TIMEOUT;
    return 0;
}

#endif
