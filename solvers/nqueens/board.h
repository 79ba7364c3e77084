/* nqueens/board.h -- N-Queens on a partly placed board: validation,
 * analysis, the first completion, counting completions (cut into prefixes
 * for parallel counting) and paged enumeration of solutions in lexicographic
 * order.
 *
 * A partial board is `fixed[0..n-1]`: fixed[r] is the column of row r's
 * placed queen, or -1 for an empty row.  fixed == NULL means an empty board.
 * Every function checks it first and fails with
 *   NQUEENS_ERANGE   some fixed[r] is < -1 or >= n  (bad->r1 = r, r2 = -1)
 *   NQUEENS_EATTACK  two placed queens attack each other; bad gets the pair
 *                    with the smallest r2, and for it the smallest r1 < r2
 * (range errors are reported before attacks, the first bad row).  `bad` may be
 * NULL.  Other failures are SEARCH_* codes (solvers/search.h).
 *
 * Solutions and completions are compared as the vectors cols[0..n-1]:
 * "lexicographic" is row-major, ascending-column backtracking order.
 *
 * Nothing here allocates, keeps global state or does I/O; buffers are the
 * caller's and every function is reentrant. */
#ifndef PUZZLED_NQUEENS_BOARD_H
#define PUZZLED_NQUEENS_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/nqueens/nqueens.h"
#include "solvers/search.h"

#define NQUEENS_ERANGE   (-64) /* a placed column outside -1..n-1 */
#define NQUEENS_EATTACK  (-65) /* two placed queens attack each other */
#define NQUEENS_ENOSPACE (-66) /* a caller buffer is too small (count says how big) */

#define NQUEENS_ANALYZE_MAX_N  4096 /* analysis writes n * n bits of candidates */
#define NQUEENS_ENUM_MAX_N     64   /* enumeration and first completion: one word per row */
#define NQUEENS_ENUM_MAX_LIMIT 1000 /* solutions per enumeration page */

/* Two attacking queens, rows r1 < r2 (r2 = -1 for a range error at r1). */
typedef struct nqueens_pair_s {
    int r1, r2;
} nqueens_pair_t;

/* === Validation === */

/* Bytes of scratch nqueens_board_check() and nqueens_board_analyze() need:
 * three line bitsets, about 5n/8 bytes.  The memory must be aligned for
 * uint64_t (malloc's is).  0 if n < 1. */
size_t nqueens_board_scratch(int n);

/* Checks a partial board in O(n).  Returns 0, NQUEENS_ERANGE or
 * NQUEENS_EATTACK (see above), SEARCH_EINVAL if n < 1 or scratch is NULL.
 * Reads fixed, writes only *bad and scratch. */
int nqueens_board_check(int n, const int *fixed, void *scratch, nqueens_pair_t *bad);

/* === Analysis === */

typedef struct nqueens_analysis_s {
    int placed;    /* rows with a queen */
    int next_row;  /* where a search goes next, -1 if every row is placed */
    size_t npairs; /* attacking pairs in all (pairs[] holds the first pair_cap) */
} nqueens_analysis_t;

/* Words per row of the candidate bitsets: NQB_WORDS(n). */
static inline size_t nqueens_row_words(int n) { return n < 1 ? 0 : ((size_t)n + 63) / 64; }

/* Analyses a partial board, n <= NQUEENS_ANALYZE_MAX_N:
 *   cand    n rows of nqueens_row_words(n) words; row r, bit c set iff row r
 *           is empty and no placed queen attacks (r, c); placed rows are all 0
 *   ncand   n ints: the number of candidates of each row (0 if placed)
 *   pairs   every attacking pair (r1 < r2), ordered by (r1, r2), up to
 *           pair_cap of them; out->npairs counts all (O(placed^2) time)
 *   next_row  the first empty row without candidates if there is one (it
 *           ends a fruitless branch at once), else the first empty row
 * Attacking queens are reported, not an error; range errors are.  Returns 0,
 * NQUEENS_ERANGE, or SEARCH_EINVAL (n out of range, NULL buffer; pairs may be
 * NULL when pair_cap is 0).  scratch: nqueens_board_scratch(n) bytes. */
int nqueens_board_analyze(int n, const int *fixed, uint64_t *cand, int *ncand,
                          nqueens_pair_t *pairs, size_t pair_cap, nqueens_analysis_t *out,
                          void *scratch, nqueens_pair_t *bad);

/* === First completion === */

/* The lexicographically first completion, by bitboard backtracking with a
 * two-row look-ahead (the search of nqueens_first() with placed rows fixed),
 * n <= NQUEENS_ENUM_MAX_N.  Writes cols[0..n-1] and returns 0; 1 if there is
 * no completion; NQUEENS_ERANGE / NQUEENS_EATTACK; SEARCH_EINVAL; SEARCH_TIMEOUT
 * / SEARCH_CANCELLED / SEARCH_BUDGET if stopped (cols then undefined). Like
 * nqueens_first() it can take very long from n ~ 34 on: pass a deadline. */
int nqueens_complete_first(int n, const int *fixed, const search_ctl_t *ctl, int *cols,
                           search_stats_t *stats, nqueens_pair_t *bad);

/* === Counting completions (n <= NQUEENS_COUNT_MAX_N) === */

/* A count is cut into prefixes: the columns of rows 0..depth-1 (depth bytes,
 * one per row), in every way consistent with the placed queens and with one
 * another.  Each prefix's completions are counted on their own, in any order
 * and on any thread, and they sum to the board's.  No symmetry is used
 * (placed queens break it).  Prefixes are plain bytes: depth of them, not a
 * board, so a split of tens of thousands stays small. */

/* Writes the prefixes of `depth` rows (clamped to 0..n) in lexicographic
 * order into out (depth bytes each, room for cap of them) and their number
 * into *count.  Returns 0; NQUEENS_ENOSPACE if more than cap exist: the walk
 * stops at the first one too many, so *count = cap + 1 and the work is
 * O((cap + 1) * n * depth) whatever the board; NQUEENS_ERANGE /
 * NQUEENS_EATTACK; SEARCH_EINVAL if n is outside 1..NQUEENS_COUNT_MAX_N or
 * count is NULL; SEARCH_TIMEOUT / SEARCH_CANCELLED when ctl stops the walk.
 * out may be NULL: the prefixes are then only counted (up to cap + 1).
 * Depth 0 has one prefix, the empty one. */
int nqueens_complete_prefixes(int n, const int *fixed, int depth, uint8_t *out, size_t cap,
                              size_t *count, const search_ctl_t *ctl, nqueens_pair_t *bad);

/* How deep to cut a count: the smallest depth whose prefixes number at least
 * `want` (or the board's last row), unless they are more than `max`: then
 * the depth above it, the deepest with at most max (want <= max; want 0
 * gives depth 0).  Sets *depth and *count (its prefixes; 0 when the board
 * has no completion that deep).  Work O(max * n * depth^2), whatever n and
 * the board.  Returns 0 or the codes of nqueens_complete_prefixes(). */
int nqueens_complete_plan(int n, const int *fixed, size_t want, size_t max, const search_ctl_t *ctl,
                          int *depth, size_t *count, nqueens_pair_t *bad);

/* Adds to *count the completions of `fixed` whose first depth rows are
 * prefix[0..depth-1], and the work to *stats (may be NULL).  Returns 0;
 * NQUEENS_ERANGE / NQUEENS_EATTACK; SEARCH_EINVAL for n out of range or a
 * prefix no split could produce; SEARCH_TIMEOUT / SEARCH_CANCELLED /
 * SEARCH_BUDGET (*count untouched). */
int nqueens_complete_count_prefix(int n, const int *fixed, int depth, const uint8_t *prefix,
                                  const search_ctl_t *ctl, uint64_t *count, search_stats_t *stats);

/* Counts the completions on the calling thread.  Returns 0 and sets *count,
 * or the codes above. */
int nqueens_complete_count(int n, const int *fixed, const search_ctl_t *ctl, uint64_t *count,
                           search_stats_t *stats, nqueens_pair_t *bad);

/* === Enumeration === */

/* Number of solutions of the empty n-board (OEIS A000170) for n <= 27.
 * Returns 0 and sets *total, or SEARCH_EINVAL for other n. */
int nqueens_total(int n, uint64_t *total);

/* Writes the solutions (completions of `fixed`, NULL for all) with
 * lexicographic rank offset .. offset+limit-1 into out[k*n .. k*n+n-1] and
 * their number into *written (< limit only at the end of the list).
 * n <= NQUEENS_ENUM_MAX_N, 1 <= limit <= NQUEENS_ENUM_MAX_LIMIT.
 * For n <= NQUEENS_COUNT_MAX_N the `offset` skipped solutions are not
 * enumerated: whole subtrees are counted (nqueens_count_masked()) and
 * stepped over, so a page costs about as much as counting the solutions
 * before it, and much less than listing them.  Larger n list and drop them.
 * Returns 0; SEARCH_EINVAL; NQUEENS_ERANGE / NQUEENS_EATTACK; SEARCH_TIMEOUT /
 * SEARCH_CANCELLED / SEARCH_BUDGET if stopped (*written then holds the
 * solutions written so far, which are correct). */
int nqueens_enumerate(int n, const int *fixed, uint64_t offset, int limit, const search_ctl_t *ctl,
                      int *out, int *written, search_stats_t *stats, nqueens_pair_t *bad);

#endif
