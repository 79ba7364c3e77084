/* nqueens.h -- N-Queens: exact counting, cut into independent weighted
 * subproblems for parallel (and distributed) counting; the lexicographically
 * first solution; O(n) verification.
 *
 * Counting model
 * --------------
 * Every solution has exactly one queen on each border line -- row 0, row
 * n-1, column 0, column n-1 (a corner queen stands on two) -- so the
 * solutions fall into classes by where their border queens stand.  A
 * subproblem is a partial board: one such border placement, plus queens in
 * the first few free rows below row 0 ("pre-placed"), with a weight; the
 * count is the sum over subproblems of weight x completions, and a
 * completion is any way to fill the free rows.  With symmetry, one border
 * placement of each class under the eight symmetries of the square is kept,
 * weighted by the size of its class (8, 4 or 2); without, every border
 * placement, weighted 1.  Pre-placing cuts a class into many small,
 * independent pieces: the pool's work items, or a cluster's.
 *
 * Column c of a row is bit c of a bitboard; n <= NQUEENS_COUNT_MAX_N for
 * counting (counts up to n = 27 fit in 64 bits).
 *
 * Nothing here allocates, keeps global state or does I/O: every function is
 * reentrant and writes only to caller-provided memory. */
#ifndef PUZZLED_NQUEENS_H
#define PUZZLED_NQUEENS_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"

#define NQUEENS_COUNT_MAX_N 27   /* counts are exact up to here */
#define NQUEENS_SOLVE_MAX_N 64   /* bitboard backtracking works up to here */
#define NQUEENS_FREE        0xff /* nqueens_sub_t.cols[] of a row without a queen */

/* One subproblem: weight x the completions of the partial board cols[]
 * (cols[r] = the column of row r's fixed queen, or NQUEENS_FREE; entries at
 * and past n are unused).  Plain data, self-contained: copy it to any thread
 * or machine. */
typedef struct nqueens_sub_s {
    uint8_t n;
    uint8_t weight; /* 1, 2, 4 or 8 */
    uint8_t cols[NQUEENS_COUNT_MAX_N];
} nqueens_sub_t;

/* Writes into out[0..cap-1] the subproblems of an n-board: its border
 * placements (one per symmetry class with symmetry != 0, all of them
 * without) each extended by `preplace` more queens (clamped to 0..n) in the
 * first free rows, every consistent way; and stores their number in *count.
 * Returns 0; -1 if n is outside 1..NQUEENS_COUNT_MAX_N or count is NULL; -2
 * if more than cap subproblems exist (*count then holds the number needed,
 * so a caller may size a buffer with cap = 0 first).  The order is fixed
 * (deterministic); n = 2 and 3 have none. */
int nqueens_split(int n, int preplace, int symmetry, nqueens_sub_t *out, size_t cap, size_t *count);

/* The number of subproblems nqueens_split(n, preplace, symmetry) yields,
 * from a table (n <= NQUEENS_COUNT_MAX_N, preplace 0 or 1; checked against
 * the enumeration by the tests), so that a caller can size and describe a
 * split without walking it.  Returns 0, or -1 for other arguments. */
int nqueens_split_size(int n, int preplace, int symmetry, size_t *count);

/* Counts slice `slice` of `nslices` of the split nqueens_split(n, preplace,
 * symmetry), preplace 0 or 1: every subproblem falls in exactly one slice
 * (its place in a fixed order of border placements and pre-placed columns,
 * modulo nslices), so counting every slice, in any order and anywhere, is
 * counting the split, and a slice needs no list of subproblems: it finds
 * its own, O(n^(4 + preplace) / nslices) work on top of counting them.
 * Adds weight x completions to *count and the number of its subproblems to
 * *nsubs.  Returns 0; SEARCH_EINVAL for arguments out of range;
 * SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET when ctl stopped it
 * (*count and *nsubs then untouched).  Adds its work to *stats (may be
 * NULL). */
int nqueens_count_slice(int n, int preplace, int symmetry, uint64_t slice, uint64_t nslices,
                        const search_ctl_t *ctl, uint64_t *count, size_t *nsubs,
                        search_stats_t *stats);

/* Adds weight x completions of `sub` to *count and its work to *stats (may
 * be NULL).  Returns 0; SEARCH_EINVAL if sub is not a board (n out of
 * range, a weight other than 1, 2, 4, 8, a column >= n, two fixed queens
 * attacking each other) or count is NULL; SEARCH_TIMEOUT / SEARCH_CANCELLED
 * / SEARCH_BUDGET when ctl stopped it (*count then untouched). */
int nqueens_count_sub(const nqueens_sub_t *sub, const search_ctl_t *ctl, uint64_t *count,
                      search_stats_t *stats);

/* The same for subs[0..k-1] at once (faster than one by one: the engine
 * interleaves several boards); all are checked before any is counted. */
int nqueens_count_subs(const nqueens_sub_t *subs, size_t k, const search_ctl_t *ctl,
                       uint64_t *count, search_stats_t *stats);

/* Counts all solutions for n on the calling thread, with or without
 * symmetry.  Returns 0 and sets *count, or SEARCH_EINVAL (n out of range,
 * count NULL) or a stop code (*count untouched). */
int nqueens_count(int n, int symmetry, const search_ctl_t *ctl, uint64_t *count,
                  search_stats_t *stats);

/* Counts the boards that keep the queens of rows 0..depth-1 at cols[0..depth-1]
 * and put row y's queen on a bit of allowed[y] (bits >= n are ignored), by
 * the same engine as nqueens_count_sub().  This is the
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
