/* nqueens/repair.h -- N-Queens by incremental repair (method=minconflicts).
 *
 * Start from a board with one queen a row (nqueens_repair_start_t: the
 * classical solution slightly disturbed, a greedy permutation or a random
 * one), then repeatedly take a most-conflicted queen and move it within its row to a
 * least-conflicted square, until no two queens attack each other.  Moves never raise the number of
 * attacking pairs; only a perturbation (counted in `restarts`) may. Placed queens (`fixed`, as in
 * solvers/nqueens/board.h) are never moved. Reproducible: the same n, fixed and seed give the same
 * board and trace.
 *
 * Memory: the caller passes nqueens_repair_scratch(n) bytes, about 18 bytes
 * per queen (plus the caller's 4-byte cols[]): 180 MB + 40 MB at n = 10^7.
 * The solver allocates nothing.
 *
 * Nothing here allocates, keeps global state or does I/O. */
#ifndef PUZZLED_NQUEENS_REPAIR_H
#define PUZZLED_NQUEENS_REPAIR_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/nqueens/board.h"
#include "solvers/search.h"

#define NQUEENS_REPAIR_MIN_N 4        /* n = 2, 3 have no solution, 1 is trivial */
#define NQUEENS_REPAIR_MAX_N 10000000 /* 10^7 */
/* The constructed start is a conflict-free board (the classical
 * construction, fixed queens exchanged in) disturbed by this many random
 * transpositions of free rows, drawn from the seed: on an empty board
 * initial_conflicts is then at most 8 * NQUEENS_REPAIR_SWAPS^2. */
#define NQUEENS_REPAIR_SWAPS 16

/* Where the repair starts (nqueens_repair_opts_t.start).  Every start
 * keeps the placed queens and is drawn from the seed. */
typedef enum nqueens_repair_start_e {
    /* the classical solution (Hoffman, Loessi and Moore), the placed queens
     * exchanged in, then NQUEENS_REPAIR_SWAPS random transpositions: a few
     * dozen conflicts, written in row order, by far the fastest at large n;
     * the boards of different seeds differ only around the transpositions */
    NQUEENS_START_CONSTRUCTED = 0,
    /* each free row in turn takes the least crowded of up to 34 random free
     * columns (Sosic and Gu's QS4 start): a permutation whose last rows
     * conflict, a few thousand pairs at 10^7; boards far apart by seed */
    NQUEENS_START_GREEDY = 1,
    /* a uniformly random permutation of the free columns: about 2n/3
     * attacking pairs, all of them for the repair to remove */
    NQUEENS_START_RANDOM = 2
} nqueens_repair_start_t;

typedef struct nqueens_repair_opts_s {
    uint64_t seed;      /* PRNG seed (splitmix64); any value */
    uint64_t max_steps; /* moves before giving up with SEARCH_TIMEOUT; 0 = no limit */
    /* Optional trace: trace[i] = attacking pairs after move i, for
     * i < trace_cap; restart[i] = 1 if move i was a perturbation (the only
     * moves after which the count may rise), else 0.  restart may be NULL. */
    uint32_t *trace;
    uint8_t *restart;
    size_t trace_cap;
    nqueens_repair_start_t start; /* 0 = NQUEENS_START_CONSTRUCTED */
} nqueens_repair_opts_t;

typedef struct nqueens_repair_result_s {
    uint64_t steps;             /* moves made (perturbations included) */
    uint64_t initial_conflicts; /* attacking pairs of the start board */
    uint64_t conflicts;         /* attacking pairs at the end (0 on success) */
    uint64_t restarts;          /* perturbations made to leave a plateau */
    size_t trace_len;           /* entries written to trace (min(steps, trace_cap)) */
} nqueens_repair_result_t;

/* Bytes of scratch for nqueens_repair(n) (uint64_t-aligned, as malloc's);
 * 0 if n is outside NQUEENS_REPAIR_MIN_N..NQUEENS_REPAIR_MAX_N. */
size_t nqueens_repair_scratch(int n);

/* Solves n queens by min-conflicts, completing `fixed` (NULL = empty board)
 * without moving its queens.  Writes the board into cols[0..n-1] and returns 0.
 * Failures: SEARCH_EINVAL (n out of range, NULL cols/scratch/opts/res, restart
 * without trace); NQUEENS_ERANGE / NQUEENS_EATTACK (with *bad);
 * SEARCH_TIMEOUT when max_steps moves or the deadline ran out, SEARCH_CANCELLED,
 * SEARCH_BUDGET for the ctl node budget (counted in moves) -- cols then holds
 * the current, conflicting board and *res the figures so far.  A placement
 * that admits no completion is not detected: it runs into max_steps or the
 * deadline, so pass one of them.  stats->nodes += moves. */
int nqueens_repair(int n, const int *fixed, const nqueens_repair_opts_t *opts,
                   const search_ctl_t *ctl, int *cols, void *scratch, nqueens_repair_result_t *res,
                   search_stats_t *stats, nqueens_pair_t *bad);

#endif
