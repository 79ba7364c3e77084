/* nqueens.h -- N-Queens: exact counting by bitboard search with the board's
 * 8-fold symmetry, split into independent subproblems for parallel counting;
 * the lexicographically first solution; O(n) verification.
 *
 * Counting model
 * --------------
 * A count is cut into subproblems: each fixes the queens of the first `depth`
 * rows (a prefix) and carries a symmetry class that says which completions it
 * may enumerate and with what weight.  Summing nqueens_count_sub() over every
 * subproblem nqueens_split() produces, in any order and on any threads, gives
 * the total in units of NQUEENS_UNIT; nqueens_units_to_count() converts.
 * (Weights are multiples of 8/m for m in 1..4, so one third is the smallest
 * unit that keeps every weight an integer.)
 *
 * Column c of a row is bit c of a bitboard; n <= NQUEENS_COUNT_MAX_N for
 * counting (counts up to n = 27 fit in 64 bits with the unit factor).
 *
 * Nothing here allocates, keeps global state or does I/O: every function is
 * reentrant and writes only to caller-provided memory. */
#ifndef PUZZLED_NQUEENS_H
#define PUZZLED_NQUEENS_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"

#define NQUEENS_COUNT_MAX_N 27 /* counts are exact up to here */
#define NQUEENS_SOLVE_MAX_N 64 /* bitboard backtracking works up to here */
#define NQUEENS_UNIT        3  /* nqueens_count_sub() counts in thirds */

/* How a subproblem's completions are counted. */
typedef enum nqueens_class_e {
    NQUEENS_PLAIN = 0,  /* every completion counts 1 (symmetry off) */
    NQUEENS_CORNER = 1, /* queen at (0,0); one board per symmetry class */
    NQUEENS_SIDE = 2    /* no corner queen; weight 8/m per board */
} nqueens_class_t;

/* One subproblem: rows 0..depth-1 hold queens at cols[0..depth-1]. `bound` is
 * the class parameter (CORNER: column of the row-1 queen; SIDE: column of the
 * row-0 queen; PLAIN: unused).  Plain data: copy it freely. */
typedef struct nqueens_sub_s {
    uint8_t n;
    uint8_t depth;
    uint8_t klass; /* nqueens_class_t */
    uint8_t bound;
    uint8_t cols[NQUEENS_COUNT_MAX_N];
} nqueens_sub_t;

/* Writes into out[0..cap-1] the subproblems whose queens fill the first
 * `depth` rows (depth is clamped to 1..n-1 and raised to what the symmetry
 * classes need), and stores their number in *count.  With symmetry = 0 every
 * subproblem is NQUEENS_PLAIN.  Returns 0; -1 if n is outside
 * 1..NQUEENS_COUNT_MAX_N; -2 if more than cap subproblems exist (*count then
 * holds the number needed, so a caller may size a buffer with cap = 0 first).
 * Subproblems are produced in a fixed order (deterministic). */
int nqueens_split(int n, int depth, int symmetry, nqueens_sub_t *out, size_t cap, size_t *count);

/* Counts the completions of one subproblem, adding its weighted count (in
 * units of NQUEENS_UNIT) to *units and its work to *stats.  Returns 0, or
 * SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET when `ctl` stopped it
 * (*units then holds a partial figure: do not use it as a count). */
int nqueens_count_sub(const nqueens_sub_t *sub, const search_ctl_t *ctl, uint64_t *units,
                      search_stats_t *stats);

/* Converts a sum of units into a count of solutions. */
static inline uint64_t nqueens_units_to_count(uint64_t units) { return units / NQUEENS_UNIT; }

/* Counts all solutions for n on the calling thread (split + sum), with or
 * without symmetry.  Returns 0 and sets *count, or a SEARCH_* code. */
int nqueens_count(int n, int symmetry, const search_ctl_t *ctl, uint64_t *count,
                  search_stats_t *stats);

/* Counts the boards that keep the queens of rows 0..depth-1 at cols[0..depth-1]
 * and put row y's queen on a bit of allowed[y] (bits >= n are ignored), by
 * the same search as nqueens_count_sub() with symmetry off.  This is the
 * counter behind partial boards (solvers/nqueens/board.h): a placed queen
 * becomes a one-bit row and the squares it attacks leave the other rows.
 * Sets *count and returns 0; SEARCH_EINVAL if n is outside
 * 1..NQUEENS_COUNT_MAX_N, depth outside 0..n, or the prefix has a column out
 * of range, off its mask or attacked by an earlier prefix queen;
 * SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET if stopped (*count
 * untouched).  Adds its work to *stats (may be NULL). */
int nqueens_count_masked(int n, int depth, const uint8_t *cols, const uint32_t *allowed,
                         const search_ctl_t *ctl, uint64_t *count, search_stats_t *stats);

/* The first solution in row-major, ascending-column backtracking order.
 * Writes cols[0..n-1] (cols[r] = column of the queen in row r) and returns 0;
 * returns 1 if n has no solution (n = 2, 3); SEARCH_EINVAL if n is outside
 * 1..NQUEENS_SOLVE_MAX_N; SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET if
 * stopped (cols then undefined). */
int nqueens_first(int n, const search_ctl_t *ctl, int *cols, search_stats_t *stats);

/* Checks in O(n) that cols[0..n-1] places n non-attacking queens.  `scratch`
 * must hold nqueens_verify_scratch(n) bytes.  Returns 1 if valid, 0 if not. */
size_t nqueens_verify_scratch(int n);
int nqueens_verify(int n, const int *cols, unsigned char *scratch);

#endif
