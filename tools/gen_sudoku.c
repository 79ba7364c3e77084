/* gen_sudoku.c -- makes the Sudoku fixture lines in tests/fixtures/.
 *
 * A standalone tool, not linked into the server or the test runner; it was
 * run once and its output committed (tests/fixtures/sudoku_<n>.txt say with
 * which arguments).  Build it with `make build/tools/gen_sudoku` (make test
 * builds it too):
 *
 *   ./gen_sudoku KIND N SEED PERCENT [COUNT [BUDGET]]
 *
 * KIND   unique      a puzzle with exactly one solution
 *        multi       a unique puzzle with clues removed until it has 2..100
 *                    solutions (counted exactly)
 *        unsolvable  a unique puzzle plus one wrong given that breaks no
 *                    rule, so it has no solution
 * N      side (4..64) with the default box
 * SEED   any integer; the output depends only on the arguments
 * PERCENT  stop removing clues when this share of cells is given (0 = go
 *        until no clue can be removed without losing uniqueness: minimal)
 * COUNT  lines to print (default 1), seeds SEED, SEED+1, ...
 * BUDGET node budget of each uniqueness check while removing clues (default
 *        20000); a small budget keeps only clues whose removal leaves a
 *        puzzle the propagation method proves unique quickly, so the
 *        puzzles stay easy (the fixtures for N >= 16 use 50-200)
 *
 * Method: a valid grid from the pattern v(r,c) = (bc*(r%br) + r/br + c) % n,
 * then random permutations of rows within bands, of bands, of columns within
 * stacks, of stacks, and of the symbols (each keeps every rule).  Clues are
 * removed in random order; a removal stays only if the propagation solver
 * with max_solutions = 2 still finds exactly one solution within a node
 * budget (a removal whose check runs out of budget is undone, so hardness
 * stays bounded).
 *
 * Output: `puzzle:count:solution` in the fixture encoding (N <= 35: one
 * character a cell, '.' empty, 1-9 then A-Z for 10..35; N > 35: numbers
 * separated by commas, 0 empty).  unsolvable lines have an empty solution;
 * multi lines carry the first solution the propagation method finds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/sudoku/sudoku.h"

static uint64_t rng_state;

static uint64_t rng_next(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int rng_below(int k) { return (int)(rng_next() % (uint64_t)k); }

static void shuffle(int *a, int k) {
    int i;
    for (i = k - 1; i > 0; i--) {
        int j = rng_below(i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static void make_grid(const sudoku_shape_t *s, uint8_t *grid) {
    int n = s->n, br = s->box_rows, bc = s->box_cols, r, c, i;
    int rowmap[SUDOKU_MAX_N], colmap[SUDOKU_MAX_N], sym[SUDOKU_MAX_N];
    int bands[SUDOKU_MAX_N], stacks[SUDOKU_MAX_N], inner[SUDOKU_MAX_N];
    /* rows: n/br = bc bands of br rows each */
    for (i = 0; i < bc; i++)
        bands[i] = i;
    shuffle(bands, bc);
    for (i = 0; i < bc; i++) {
        int j;
        for (j = 0; j < br; j++)
            inner[j] = j;
        shuffle(inner, br);
        for (j = 0; j < br; j++)
            rowmap[i * br + j] = bands[i] * br + inner[j];
    }
    /* columns: n/bc = br stacks of bc columns each */
    for (i = 0; i < br; i++)
        stacks[i] = i;
    shuffle(stacks, br);
    for (i = 0; i < br; i++) {
        int j;
        for (j = 0; j < bc; j++)
            inner[j] = j;
        shuffle(inner, bc);
        for (j = 0; j < bc; j++)
            colmap[i * bc + j] = stacks[i] * bc + inner[j];
    }
    for (i = 0; i < n; i++)
        sym[i] = i + 1;
    shuffle(sym, n);
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++) {
            int rr = rowmap[r], cc = colmap[c];
            grid[r * n + c] = (uint8_t)sym[(bc * (rr % br) + rr / br + cc) % n];
        }
}

/* Solutions of puzzle, up to max (returns -1 if the budget ran out). */
static long count_solutions(const sudoku_shape_t *s, const uint8_t *puzzle, uint32_t max,
                            uint64_t budget, uint8_t *first) {
    sudoku_opts_t o;
    sudoku_result_t r;
    search_ctl_t ctl = {.node_budget = budget};
    static uint8_t sols[2 * SUDOKU_MAX_N * SUDOKU_MAX_N];
    sudoku_opts_init(&o);
    o.method = SUDOKU_METHOD_PROPAGATION;
    o.max_solutions = max;
    o.ctl = &ctl;
    o.solutions = (max <= 2) ? sols : NULL;
    if (sudoku_solve(s, puzzle, &o, &r) != 0) return -1;
    if (first != NULL && max <= 2 && r.solutions_found > 0)
        memcpy(first, sols, (size_t)s->n * (size_t)s->n);
    return (long)r.solutions_found;
}

static void remove_clues(const sudoku_shape_t *s, uint8_t *puzzle, int percent, uint64_t budget) {
    int nn = s->n * s->n, i, given = nn, order[SUDOKU_MAX_N * SUDOKU_MAX_N];
    int target = nn * percent / 100;
    for (i = 0; i < nn; i++)
        order[i] = i;
    shuffle(order, nn);
    for (i = 0; i < nn && given > target; i++) {
        int cell = order[i], v = puzzle[cell];
        puzzle[cell] = 0;
        if (count_solutions(s, puzzle, 2, budget, NULL) == 1)
            given--;
        else
            puzzle[cell] = (uint8_t)v;
    }
}

static void put_grid(const sudoku_shape_t *s, const uint8_t *g) {
    int nn = s->n * s->n, i;
    for (i = 0; i < nn; i++) {
        if (s->n <= 35) {
            int v = g[i];
            putchar(v == 0 ? '.' : v <= 9 ? '0' + v : 'A' + v - 10);
        } else {
            printf(i ? ",%d" : "%d", g[i]);
        }
    }
}

int main(int argc, char **argv) {
    static uint8_t grid[SUDOKU_MAX_N * SUDOKU_MAX_N], puzzle[SUDOKU_MAX_N * SUDOKU_MAX_N];
    static uint8_t sol[SUDOKU_MAX_N * SUDOKU_MAX_N];
    sudoku_shape_t shape;
    int n, percent, count = 1, k;
    uint64_t budget = 20000;
    long seed;
    const char *kind;

    if (argc < 5) {
        fprintf(stderr, "usage: %s unique|multi|unsolvable N SEED PERCENT [COUNT [BUDGET]]\n",
                argv[0]);
        return 2;
    }
    kind = argv[1];
    n = atoi(argv[2]);
    seed = atol(argv[3]);
    percent = atoi(argv[4]);
    if (argc > 5) count = atoi(argv[5]);
    if (argc > 6) budget = (uint64_t)atol(argv[6]);
    if (sudoku_shape_init(&shape, n, 0, 0) != 0) {
        fprintf(stderr, "bad N\n");
        return 2;
    }
    for (k = 0; k < count; k++) {
        int nn = n * n;
        long found;
        rng_state = (uint64_t)(seed + k) * 1000003u + (uint64_t)n;
        make_grid(&shape, grid);
        if (sudoku_is_complete(&shape, grid) != 1) {
            fprintf(stderr, "internal: pattern grid is not valid\n");
            return 1;
        }
        memcpy(puzzle, grid, (size_t)nn);
        remove_clues(&shape, puzzle, percent, budget);
        memcpy(sol, grid, (size_t)nn);
        found = 1;
        if (strcmp(kind, "multi") == 0) {
            int order[SUDOKU_MAX_N * SUDOKU_MAX_N], i;
            for (i = 0; i < nn; i++)
                order[i] = i;
            shuffle(order, nn);
            for (i = 0, found = 1; i < nn && found < 2; i++) {
                int v = puzzle[order[i]];
                if (v == 0) continue;
                puzzle[order[i]] = 0;
                found = count_solutions(&shape, puzzle, 101, 2000000, NULL);
                if (found < 0 || found > 100) {
                    puzzle[order[i]] = (uint8_t)v;
                    found = 1;
                }
            }
            if (found < 2 || count_solutions(&shape, puzzle, 2, 0, sol) != 2) {
                fprintf(stderr, "could not make a multi-solution puzzle\n");
                return 1;
            }
        } else if (strcmp(kind, "unsolvable") == 0) {
            int i, placed = 0;
            for (i = 0; i < nn && !placed; i++) {
                int cell = (int)((uint64_t)(i + rng_below(nn)) % (uint64_t)nn), v;
                if (puzzle[cell] != 0) continue;
                for (v = 1; v <= n && !placed; v++) {
                    size_t nconf = 0;
                    if (v == grid[cell]) continue;
                    puzzle[cell] = (uint8_t)v;
                    sudoku_find_conflicts(&shape, puzzle, NULL, 0, &nconf);
                    if (nconf == 0 && count_solutions(&shape, puzzle, 2, 0, NULL) == 0)
                        placed = 1;
                    else
                        puzzle[cell] = 0;
                }
            }
            if (!placed) {
                fprintf(stderr, "could not make an unsolvable puzzle\n");
                return 1;
            }
            found = 0;
        } else if (strcmp(kind, "unique") != 0) {
            fprintf(stderr, "unknown kind %s\n", kind);
            return 2;
        }
        put_grid(&shape, puzzle);
        printf(":%ld:", found);
        if (found > 0) put_grid(&shape, sol);
        putchar('\n');
    }
    return 0;
}
