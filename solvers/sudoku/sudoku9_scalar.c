/* sudoku9_scalar.c -- sudoku9.c built without any vector code (plain C, as a
 * non-x86 compiler builds it), so that the tests run that path on every
 * machine (SUDOKU9_IMPL_SCALAR; see "Builds" in sudoku9.c). */
#define S9_VARIANT 1
#include "solvers/sudoku/sudoku9.c"
