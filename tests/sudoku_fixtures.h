/* sudoku_fixtures.h -- the Sudoku fixtures of tests/fixtures/sudoku_<n>.txt,
 * for the suites that check solvers against them (test_sudoku.c,
 * test_cdcl.c).  A line is "puzzle:count:solution": cells as '.', '1'-'9',
 * 'A'-'Z' up to 35x35, comma-separated numbers above; count exact, or "K+"
 * for at least K; the solution (the only one, or one of them) when count > 0.
 * $SUDOKU_FIXTURES overrides the folder.  Loading check-asserts the format. */
#ifndef PUZZLED_TESTS_SUDOKU_FIXTURES_H
#define PUZZLED_TESTS_SUDOKU_FIXTURES_H

#include <stdint.h>

#define FIX_MAX 16

typedef struct fix_s {
    int n, line;
    long count;                 /* exact count, or K for "K+" */
    int at_least;               /* 1 for "K+" */
    uint8_t *puzzle, *solution; /* solution all zero when the line has none */
} fix_t;

typedef struct fixset_s {
    int n, nfix;
    char path[512];
    fix_t fix[FIX_MAX];
} fixset_t;

/* Reads every line of sudoku_<n>.txt into fs (at least 3, at most FIX_MAX). */
void fixset_load(fixset_t *fs, int n);
void fixset_free(fixset_t *fs);

#endif
