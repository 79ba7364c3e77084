/* nqueens/count.h -- the counting engine behind nqueens.h and board.h
 * (internal to solvers/nqueens/).
 *
 * Counts the completions of partial boards (nqueens_sub_t: fixed queens in
 * some rows, the other rows free), several boards at a time, and sums them
 * with each board's weight.  See count.c for the search.
 *
 * Nothing here allocates, keeps global state or does I/O. */
#ifndef PUZZLED_NQUEENS_COUNT_H
#define PUZZLED_NQUEENS_COUNT_H

#include <stdint.h>

#include "solvers/nqueens/nqueens.h"
#include "solvers/search.h"

/* A source of boards: writes the next one into *out and returns 1, returns
 * 0 when there are no more, or -1 when it looked a while without finding
 * one (the engine then counts the call as a board taken, so that it polls,
 * and asks again).  Every board it yields must be valid
 * (nqueens__sub_check() == 0): the engine does not check again. */
typedef int (*nqueens__next_fn)(void *ctx, nqueens_sub_t *out);

/* Sums weight x completions over every board `next` yields.  A completion
 * puts one queen in each free row, on a square no queen attacks and, when
 * allowed != NULL, on a bit of allowed[row] (allowed has n entries; fixed
 * rows ignore it).  On success returns 0 and adds the sum to *count; on
 * SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET leaves *count untouched.
 * Either way adds the work done to *stats (nodes = queens placed, max_depth
 * = most queens on a board at once). */
int nqueens__count_boards(nqueens__next_fn next, void *ctx, const uint32_t *allowed,
                          const search_ctl_t *ctl, uint64_t *count, search_stats_t *stats);

/* Writes into mask[0..n-1], for each free row of board b, the squares no
 * fixed queen attacks (column or diagonal, from above or below), cut to
 * allowed[row] when allowed != NULL; fixed rows get 0.  Returns the number
 * of free rows.  b must be valid. */
int nqueens__free_masks(const nqueens_sub_t *b, const uint32_t *allowed, uint32_t *mask);

/* 0 if `sub` is a board the engine accepts: n in 1..NQUEENS_COUNT_MAX_N,
 * weight 1, 2, 4 or 8, every fixed column below n and no two fixed queens
 * attacking each other; else SEARCH_EINVAL. */
int nqueens__sub_check(const nqueens_sub_t *sub);

#endif
