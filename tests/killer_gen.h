/* killer_gen.h -- Killer puzzles made for the tests from valid grids
 * (tests/test_killer.c, tests/test_killer_lcg.c): a Sudoku grid by
 * relabelling and shuffling the pattern grid, a Killer-X grid by solving an
 * empty X grid and relabelling, then a random partition into cages of
 * distinct values whose sums come from the grid.  Deterministic from the
 * seed.  Failures inside are check assertions. */
#ifndef PUZZLED_TESTS_KILLER_GEN_H
#define PUZZLED_TESTS_KILLER_GEN_H

#include <stdint.h>

#include "solvers/killer/killer.h"

#define MAXN 25
#define MAXC (MAXN * MAXN)

typedef struct gen_s {
    killer_puzzle_t pz;
    killer_cage_t cages[MAXC];
    killer_cell_t cells[MAXC];
    long symbols[MAXN];
    uint8_t grid[MAXC]; /* the grid the cages came from */
    uint8_t givens[MAXC];
} gen_t;

/* The next value of the linear congruential stream *s (15 bits). */
unsigned kg_rnd(unsigned *s);

/* A valid Sudoku grid for shape (br x bc boxes), shuffled. */
void kg_make_grid(int n, int br, int bc, unsigned *seed, uint8_t *g);

/* Random cages of 1..maxk cells over g->grid, grown from the first free
 * cell to random free neighbours whose values are not yet in the cage;
 * keep_pct of them kept (100 = the grid is covered).  Sets g->pz.cages. */
void kg_make_cages(gen_t *g, int maxk, int keep_pct, unsigned *seed);

/* Zeroes g and sets its shape. */
void kg_gen_init(gen_t *g, int n, int br, int bc);

/* g->grid := a Killer-X grid (g->pz.diagonals set, no cages yet). */
void kg_make_x_grid(gen_t *g, unsigned *seed);

/* Grids of cmp_grid_len cells, for qsort and bsearch. */
extern int cmp_grid_len;
int cmp_grid(const void *x, const void *y);

#endif
