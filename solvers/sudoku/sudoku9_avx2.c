/* sudoku9_avx2.c -- sudoku9.c built again for x86-64 CPUs with AVX2, BMI1,
 * BMI2 and POPCNT: the Makefile compiles this file with -mavx2 -mbmi -mbmi2
 * -mpopcnt, and sudoku9_solve() runs this build when the CPU has them (see
 * "Builds" in sudoku9.c).  Without those flags (a non-x86 compiler, or the
 * one-command fuzz build) it is the same code without AVX2, never chosen by
 * the dispatch. */
#define S9_VARIANT 2
#include "solvers/sudoku/sudoku9.c"
