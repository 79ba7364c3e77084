/* nqueens/xc.h -- N-Queens as exact cover with secondary items (Knuth's
 * classic example of them), used to cross-check the bitboard solver of
 * nqueens.h.
 *
 * Model for side n (1 <= n <= NQUEENS_XC_MAX_N):
 *   primary items    row r            r            (0..n-1)
 *                    column c         n + c        (n..2n-1)
 *   secondary items  diagonal r+c     2n + r + c   (2n-1 of them)
 *                    anti r-c+n-1     4n-1 + r-c+n-1 (2n-1 of them)
 *   option r*n + c   = queen on (r, c): {row r, column c, diagonal, anti}
 * Rows and columns must each hold exactly one queen, a diagonal at most one.
 *
 * Nothing here does I/O or keeps global state. */
#ifndef PUZZLED_NQUEENS_XC_H
#define PUZZLED_NQUEENS_XC_H

#include <stdint.h>

#include "solvers/search.h"
#include "solvers/xcover/xcover.h"

#define NQUEENS_XC_MAX_N                                                                           \
    32 /* far beyond what exact cover counts in reasonable time                                    \
          (n = 16 already takes minutes); first solutions to 32 */

/* Builds the problem for side n.  Returns 0 and sets *out (free with
 * xcover_problem_free), SEARCH_EINVAL for n outside 1..NQUEENS_XC_MAX_N or a
 * NULL out, SEARCH_ENOMEM. */
int nqueens_xc_problem_new(int n, xcover_problem_t **out);

/* Counts the solutions for side n with the given engine.  Returns 0 and
 * sets *count; SEARCH_EINVAL (bad n or engine); SEARCH_TIMEOUT /
 * SEARCH_CANCELLED / SEARCH_BUDGET (then *count is the partial number
 * found so far, not a count); SEARCH_ENOMEM.  Adds to *stats if not NULL. */
int nqueens_xc_count(int n, xcover_engine_t engine, const search_ctl_t *ctl, uint64_t *count,
                     search_stats_t *stats);

/* The first solution in exact-cover search order (not necessarily the
 * lexicographic first of nqueens_first()): writes cols[0..n-1], cols[r] =
 * column of the queen in row r.  Returns 0; 1 if n has no solution (2, 3);
 * SEARCH_EINVAL; SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET (cols
 * undefined); SEARCH_ENOMEM.  Adds to *stats if not NULL. */
int nqueens_xc_first(int n, xcover_engine_t engine, const search_ctl_t *ctl, int *cols,
                     search_stats_t *stats);

#endif
