/* sudoku9.h -- a specialised solver for classic 9x9 Sudoku (3x3 boxes).
 *
 * Same grid model and solution contract as sudoku_solve() (sudoku.h): 81
 * bytes row-major, 0 = empty, 1..9 = a digit; up to max_solutions solutions
 * are written to a caller buffer, solution k at solutions + 81*k.  It is the
 * "fast" method: bitsets per digit and band of three rows, table-driven
 * propagation (naked singles, hidden singles, locked candidates inside a
 * band and a stack, minirow and minicolumn triads) and guesses on a digit's
 * last two placements in a band or stack, or on two-candidate cells, with
 * vector instructions (SSE2, or AVX2 where the CPU has it, chosen at load
 * time).  See sudoku9.c for the design, docs/sudoku9-tuning.md for the
 * measurements.
 *
 * No allocation, no global state: every call is reentrant and uses about
 * 33 KiB of stack.  Concurrent calls may share one search_ctl_t. */
#ifndef PUZZLED_SUDOKU9_H
#define PUZZLED_SUDOKU9_H

#include <stdint.h>

#include "solvers/search.h"

#define SUDOKU9_CELLS 81

typedef struct sudoku9_result_s {
    int code;                 /* what sudoku9_solve() returned */
    uint32_t solutions_found; /* solutions written (valid even when stopped early) */
    int exhausted;            /* 1: nothing is left to search, so solutions_found is
                                 the exact count (also set when the last solution
                                 allowed is found with no choice left open) */
    int no_guess;             /* 1: a solution was reached by inference alone */
    uint64_t guesses;         /* choices made: cells where a digit was tried with
                                 another candidate left open (tdoku's guess count) */
    search_stats_t stats;     /* nodes = branches tried (a guess or the alternative left
                                 after one failed), backtracks = branches abandoned,
                                 propagations = digits placed by inference (in
                                 propagations that reached a fixpoint; those that
                                 met a contradiction are not counted),
                                 max_depth = deepest stack of open choices */
} sudoku9_result_t;

/* Solves `puzzle` (81 bytes, not modified) and fills *res (zeroed first).
 *
 *   max_solutions  1..SUDOKU_MAX_SOLUTIONS (10000): stop after this many;
 *                  2 is the uniqueness check.
 *   solutions      NULL (count only) or max_solutions*81 bytes.
 *   ctl            deadline / cancel flag / node budget; NULL = none.  Checked
 *                  once before the search, the budget before every node, the
 *                  clock and flag every SEARCH_POLL_MASK+1 nodes.
 *
 * Returns (and stores in res->code), with the same meanings as sudoku_solve():
 *   0                  max_solutions found, or the space exhausted (givens
 *                      that agree but admit no solution end here with 0).
 *   SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET   stopped by ctl; the
 *                      solutions found before are valid and counted.
 *   SEARCH_EINVAL      puzzle or res NULL, a value > 9, max_solutions out of
 *                      range (res untouched when res is NULL).
 *   SUDOKU_ECONFLICT   two givens share a row, column or box; no search. */
int sudoku9_solve(const uint8_t puzzle[SUDOKU9_CELLS], uint32_t max_solutions, uint8_t *solutions,
                  const search_ctl_t *ctl, sudoku9_result_t *res);

/* Builds of the solver.  sudoku9.c is compiled more than once, and
 * sudoku9_solve() runs the fastest build this CPU supports, chosen once when
 * the program is loaded.  All builds give the same results (same solutions,
 * counts and statistics); the tests and bench9 reach each one directly. */
typedef enum sudoku9_impl_e {
    SUDOKU9_IMPL_AUTO = 0, /* what sudoku9_solve() runs (sudoku9_impl_auto()) */
    SUDOKU9_IMPL_PORTABLE, /* the build's baseline: SSE2 on x86-64, which every x86-64 has */
    SUDOKU9_IMPL_SCALAR,   /* plain C without vector code: what non-x86 builds run */
    SUDOKU9_IMPL_AVX2      /* x86-64 with AVX2, BMI1, BMI2, POPCNT (x86-64-v3 class) */
} sudoku9_impl_t;

/* 1 when this program and CPU can run impl, else 0. */
int sudoku9_impl_supported(sudoku9_impl_t impl);

/* The build sudoku9_solve() runs (never SUDOKU9_IMPL_AUTO). */
sudoku9_impl_t sudoku9_impl_auto(void);

/* "auto", "portable", "scalar", "avx2" (static strings). */
const char *sudoku9_impl_name(sudoku9_impl_t impl);

/* sudoku9_solve() through the given build.  Returns SEARCH_EINVAL (and sets
 * res->code) when impl is unknown or not supported here. */
int sudoku9_solve_impl(sudoku9_impl_t impl, const uint8_t puzzle[SUDOKU9_CELLS],
                       uint32_t max_solutions, uint8_t *solutions, const search_ctl_t *ctl,
                       sudoku9_result_t *res);

#endif
