/* sudoku/forcing.c -- forcing chains.  (Stub: the search lands in its own
 * commit.) */
#include "solvers/sudoku/logic_internal.h"

int sudoku__logic_forcing(sudoku_logic_t *st, int kind, int depth, uint64_t budget,
                          uint64_t *work, sudoku_logic_step_t *step) {
    (void)st, (void)kind, (void)depth, (void)budget, (void)work, (void)step;
    return 0;
}
