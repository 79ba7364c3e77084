/* sudoku/als.c -- almost locked sets: ALS-XZ and ALS-XY-wing.  (Stub: the
 * search lands in its own commit.) */
#include "solvers/sudoku/logic_internal.h"

int sudoku__logic_als_xz(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                         sudoku_logic_step_t *step) {
    (void)st, (void)budget, (void)work, (void)step;
    return 0;
}

int sudoku__logic_als_xy_wing(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                              sudoku_logic_step_t *step) {
    (void)st, (void)budget, (void)work, (void)step;
    return 0;
}
