/* sudoku/cdcl.h -- the "cdcl" method: a grid encoded for the clause-learning
 * engine of sudoku/sat.h, solved, and its models decoded.  Internal to the
 * sudoku module; sudoku_solve() dispatches here.
 *
 * Encoding (sudoku/cdcl.c has the details): x(cell, v) for every cell and
 * value, exactly one per cell and per unit and value (a slack literal for
 * units shorter than n), a model's holes, parity and pair rules as clauses
 * at the root.  Givens are fixed at the root.
 *
 * Enumeration: each model found is recorded and excluded, and the search
 * goes on with everything learned, until max_solutions are found or none
 * is left (exhausted).  With opts->exchange the solve is one member of a
 * portfolio (sudoku/exchange.h). */
#ifndef PUZZLED_SUDOKU_CDCL_H
#define PUZZLED_SUDOKU_CDCL_H

#include "solvers/sudoku/internal.h"

/* Runs the cdcl method on run (options, limits, result as every method);
 * returns 0 or a SEARCH_* code. */
int sudoku__solve_cdcl(sudoku__run_t *run);

/* What auto runs from 16x16 up and on variants (no trace): propagation at
 * `level` (subsets on big classic grids) for at most
 * SUDOKU__AUTO_PROP_NODES nodes, then, if that did not finish, cdcl from
 * scratch on what is left of the limits.  res->method says which answered;
 * the stats add both. */
#define SUDOKU__AUTO_PROP_NODES 256
int sudoku__solve_auto_big(sudoku__run_t *run, sudoku_level_t level);

#endif
