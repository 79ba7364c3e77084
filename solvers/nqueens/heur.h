/* nqueens/heur.h -- N-Queens by heuristic backtracking (method=mrv), and the
 * choice of method for method=auto.
 *
 * nqueens_mrv() fills the most constrained empty row first (fewest free
 * squares) with its least constraining square first (the one that takes the
 * fewest free squares from the other empty rows).  It works on multi-word
 * bitsets, so any n up to NQUEENS_MRV_MAX_N, and completes partial boards
 * (see solvers/nqueens/board.h for `fixed` and its error codes).  It is
 * deterministic: the same input gives the same board.
 *
 * Nothing here allocates, keeps global state or does I/O. */
#ifndef PUZZLED_NQUEENS_HEUR_H
#define PUZZLED_NQUEENS_HEUR_H

#include <stddef.h>

#include "solvers/nqueens/board.h"
#include "solvers/search.h"

#define NQUEENS_MRV_MAX_N 65536 /* O(n^2) per board: 0.05 s at n <= 1000, 0.6 s at 2000 */

/* Bytes of scratch nqueens_mrv() needs (about 41 bytes per row), aligned for
 * uint64_t as malloc's memory is.  0 if n is out of range. */
size_t nqueens_mrv_scratch(int n);

/* Places n queens completing `fixed` (NULL = empty board), writes
 * cols[0..n-1] and returns 0; 1 if no completion exists (the whole tree was
 * searched); NQUEENS_ERANGE / NQUEENS_EATTACK (with *bad); SEARCH_EINVAL (n
 * outside 1..NQUEENS_MRV_MAX_N, NULL buffers); SEARCH_TIMEOUT /
 * SEARCH_CANCELLED / SEARCH_BUDGET when `ctl` stops it.  cols is written on
 * every path but holds a board only on 0.  stats: nodes = queens placed,
 * backtracks = queens taken back, max_depth = most queens down at once. */
int nqueens_mrv(int n, const int *fixed, const search_ctl_t *ctl, int *cols, void *scratch,
                search_stats_t *stats, nqueens_pair_t *bad);

/* === method=auto === */

typedef enum nqueens_method_e {
    NQUEENS_METHOD_BACKTRACK = 0,   /* nqueens_first / nqueens_complete_first */
    NQUEENS_METHOD_MRV = 1,         /* nqueens_mrv */
    NQUEENS_METHOD_MINCONFLICTS = 2 /* nqueens_repair */
} nqueens_method_t;

/* Empty boards up to this size go to backtracking (nqueens_first: the
 * lexicographically first board, <= 0.02 s measured for every n <= 29; n = 30
 * took 0.34 s, 34 and 36 ran past 2 s), larger empty boards to minconflicts. */
#define NQUEENS_AUTO_BACKTRACK_MAX 29
/* Boards with placed queens go to mrv up to this size (complete, so it can
 * answer "no completion"; slowest n <= 1000 measured 0.05 s, n = 2000 0.6 s),
 * to minconflicts above (which cannot prove there is none: give it a deadline). */
#define NQUEENS_AUTO_MRV_MAX 1000

/* The method auto uses for an n-board, with placed queens (has_fixed != 0) or
 * without.  Why minconflicts and not mrv for large empty boards: measured in
 * bench/bench_nqueens_board.c (auto section), minconflicts takes 0.2 ms at
 * n = 1000 where mrv takes 24 ms, and mrv grows as n^2 per board. */
nqueens_method_t nqueens_auto_method(int n, int has_fixed);

#endif
