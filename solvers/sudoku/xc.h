/* sudoku/xc.h -- Sudoku as exact cover (xcover.h), for every shape of
 * sudoku.h (4 <= N <= 64, any box_rows x box_cols == N).
 *
 * Model: N^3 options, one per (cell, value); 4 N^2 primary items.
 *
 *   item                      index
 *   cell (r,c) filled         r*N + c
 *   row r has value v         N^2   + r*N + (v-1)
 *   column c has value v      2 N^2 + c*N + (v-1)
 *   box b has value v         3 N^2 + b*N + (v-1)
 *
 *   option (cell i = r*N+c, value v) = i*N + (v-1), items in the order
 *   cell, row, column, box.
 *
 * The problem depends on the shape only, never on the puzzle: givens are
 * options forced before the search (the same mechanism as a subtree
 * prefix).  So one problem per shape serves every puzzle of that shape, on
 * any number of threads at once (xcover problems are immutable).
 *
 * Solutions are reported as grids of sudoku.h (N*N bytes, 1..N).
 *
 * A model of sudoku/model.h (frame of C cells) has C*N options, option
 * (cell, value) = cell*N + value-1 as above, and items:
 *   primary    one per live cell, then (unit, value) for each unit of N
 *              cells (exactly once), in unit order
 *   secondary  (unit, value) for each shorter unit (at most once); 2(N-1)
 *              per non-consecutive pair: (a = w, b = w+1) and (a = w+1,
 *              b = w) may not both be chosen; one "dead" item last
 * A hole's options and the values parity forbids are made of the dead item
 * alone, so the search never chooses them.  Consecutive marks ("these two
 * differ by exactly 1") are not an exact-cover constraint: a model with
 * one answers SUDOKU_EMETHOD.
 * Nothing here does I/O or keeps global state. */
#ifndef PUZZLED_SUDOKU_XC_H
#define PUZZLED_SUDOKU_XC_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"
#include "solvers/sudoku/model.h"
#include "solvers/sudoku/sudoku.h"
#include "solvers/xcover/xcover.h"

/* Option of (cell, value 1..n) and back. */
static inline uint32_t sudoku_xc_option(const sudoku_shape_t *s, int cell, int value) {
    return (uint32_t)cell * (uint32_t)s->n + (uint32_t)(value - 1);
}
static inline void sudoku_xc_decode(const sudoku_shape_t *s, uint32_t option, int *cell,
                                    int *value) {
    *cell = (int)(option / (uint32_t)s->n);
    *value = (int)(option % (uint32_t)s->n) + 1;
}

/* Builds the exact-cover problem of `shape` (the layout above).  Returns 0
 * and sets *out (free with xcover_problem_free), SEARCH_EINVAL for a bad
 * shape or NULL out, SEARCH_ENOMEM.  `alloc` may be NULL (malloc/free). */
int sudoku_xc_problem_new(const sudoku_shape_t *shape, const search_allocator_t *alloc,
                          xcover_problem_t **out);

/* The exact-cover problem of model m (the layout above).  Returns 0 and
 * sets *out, SEARCH_EINVAL, SUDOKU_EMETHOD (consecutive marks),
 * XCOVER_ELIMIT (more options, items or entries than xcover takes: a big
 * grid with many pair rules), SEARCH_ENOMEM. */
int sudoku_xc_problem_new_model(const sudoku_model_t *m, const search_allocator_t *alloc,
                                xcover_problem_t **out);

/* Writes the options of the givens of `puzzle` (nonzero cells, in cell
 * order) to options[0..], which must hold n*n entries, and their number to
 * *count.  Returns 0, or SEARCH_EINVAL (bad shape, a value > n). */
int sudoku_xc_givens(const sudoku_shape_t *shape, const uint8_t *puzzle, uint32_t *options,
                     size_t *count);

/* Writes into grid (n*n bytes) the values the options place (cells no
 * option names become 0).  Returns 0; SEARCH_EINVAL for a bad shape, an
 * option >= n^3 or two options on one cell (grid then undefined). */
int sudoku_xc_to_grid(const sudoku_shape_t *shape, const uint32_t *options, size_t count,
                      uint8_t *grid);

typedef struct sudoku_xc_opts_s {
    xcover_engine_t engine;          /* default dlx */
    uint32_t max_solutions;          /* 1..SUDOKU_MAX_SOLUTIONS (default 1; 2 = uniqueness) */
    uint8_t *solutions;              /* NULL (count only) or max_solutions*n*n bytes:
                                        solution k at solutions + k*n*n */
    const search_ctl_t *ctl;         /* NULL = no limits */
    const xcover_problem_t *problem; /* NULL: built for this solve and freed; else from
                                        sudoku_xc_problem_new() for the SAME shape (or
                                        _new_model() for the same model) */
    const sudoku_model_t *model;     /* NULL: the shape's grid; else the solve is of this
                                        model (the shape argument is then ignored, the
                                        puzzle and solutions are frame-sized) */
    const uint32_t *prefix;          /* options forced after the givens: a root of */
    size_t prefix_len;               /* sudoku_xc_split() for a parallel subtree */
    const search_allocator_t *alloc; /* NULL = malloc/free */
} sudoku_xc_opts_t;

/* Defaults: dlx, max_solutions 1, nothing else. */
void sudoku_xc_opts_init(sudoku_xc_opts_t *opts);

typedef struct sudoku_xc_result_s {
    int code;                 /* what sudoku_xc_solve() returned */
    uint32_t solutions_found; /* grids written (valid even when stopped early) */
    int exhausted;            /* 1: the space was searched to the end, so
                                 solutions_found is the exact count */
    search_stats_t stats;     /* nodes = placements tried by the search (givens and
                                 prefix not counted), backtracks = placements undone,
                                 propagations = options forced (givens + prefix),
                                 max_depth = deepest level below them */
    size_t mem_bytes;         /* working memory (plus the problem if built here) */
} sudoku_xc_result_t;

/* Solves `puzzle` (n*n bytes, not modified) by exact cover and fills *res
 * (zeroed first).  In the spirit of sudoku_solve(); returns (and stores in
 * res->code):
 *   0                  max_solutions found or the space exhausted (givens
 *                      that agree but admit no solution: 0 solutions,
 *                      exhausted; so does a prefix that conflicts)
 *   SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET  stopped by ctl; the
 *                      grids found before are valid and counted
 *   SEARCH_EINVAL      bad shape, a value > n, bad options (engine,
 *                      max_solutions, a prefix option out of range or a
 *                      prefix longer than n^3, a problem of another shape)
 *   SUDOKU_ECONFLICT   the givens break a rule (no search is made)
 *   SEARCH_ENOMEM
 * Thread-safety: reentrant; many solves may share one problem and one ctl. */
int sudoku_xc_solve(const sudoku_shape_t *shape, const uint8_t *puzzle,
                    const sudoku_xc_opts_t *opts, sudoku_xc_result_t *res);

/* Subtree roots of the puzzle for a parallel solve: xcover_split() of the
 * shape's problem with the givens as base (o->base is ignored; see xcover.h
 * for the roots' layout, depth, target, the sizing call with cap = 0 and
 * the return codes).  Solve root k with sudoku_xc_solve() and prefix = root
 * k (xcover_root_len() entries): the solutions of all roots in order are
 * those of the plain solve, their counts add up to its count.  Returns
 * SUDOKU_ECONFLICT for givens that break a rule, SEARCH_EINVAL for a bad
 * shape / value / problem. */
int sudoku_xc_split(const sudoku_shape_t *shape, const uint8_t *puzzle,
                    const xcover_problem_t *problem, const xcover_split_opts_t *o, uint32_t *roots,
                    size_t cap, xcover_split_info_t *info);

/* The same for a puzzle of model m and its problem (_new_model). */
int sudoku_xc_split_model(const sudoku_model_t *m, const uint8_t *puzzle,
                          const xcover_problem_t *problem, const xcover_split_opts_t *o,
                          uint32_t *roots, size_t cap, xcover_split_info_t *info);

#endif
