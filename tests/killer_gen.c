/* killer_gen.c -- generated Killer puzzles for the test suites (see
 * killer_gen.h): valid grids, random cages, Killer-X grids. */
#include "tests/killer_gen.h"

#include <check.h>
#include <string.h>

unsigned kg_rnd(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

/* A valid Sudoku grid for shape (br x bc boxes), shuffled. */
void kg_make_grid(int n, int br, int bc, unsigned *seed, uint8_t *g) {
    int perm[MAXN], rows[MAXN], cols[MAXN], i, j, r, c, bands = n / br, stacks = n / bc;
    int bandp[MAXN], stackp[MAXN];
    for (i = 0; i < n; i++)
        perm[i] = i;
    for (i = n - 1; i > 0; i--) {
        j = (int)(kg_rnd(seed) % (unsigned)(i + 1));
        r = perm[i], perm[i] = perm[j], perm[j] = r;
    }
    for (i = 0; i < bands; i++)
        bandp[i] = i;
    for (i = 0; i < stacks; i++)
        stackp[i] = i;
    for (i = bands - 1; i > 0; i--) {
        j = (int)(kg_rnd(seed) % (unsigned)(i + 1));
        r = bandp[i], bandp[i] = bandp[j], bandp[j] = r;
    }
    for (i = stacks - 1; i > 0; i--) {
        j = (int)(kg_rnd(seed) % (unsigned)(i + 1));
        r = stackp[i], stackp[i] = stackp[j], stackp[j] = r;
    }
    for (i = 0; i < n; i++)
        cols[i] = stackp[i / bc] * bc + i % bc;
    /* rotate rows inside each band by a random amount */
    for (i = 0; i < bands; i++) {
        int k = (int)(kg_rnd(seed) % (unsigned)br);
        for (j = 0; j < br; j++)
            rows[i * br + j] = bandp[i] * br + (j + k) % br;
    }
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++) {
            int rr = rows[r], cc = cols[c];
            int v = (rr % br * bc + rr / br + cc) % n; /* pattern: valid for br x bc boxes */
            g[r * n + c] = (uint8_t)(perm[v] + 1);
        }
}

/* Random cages of 1..maxk cells, grown from the first free cell to random
 * free neighbours whose values are not yet in the cage.  keep_pct of the
 * cages are kept (100 = the grid is covered). */
void kg_make_cages(gen_t *g, int maxk, int keep_pct, unsigned *seed) {
    int n = g->pz.shape.n, nc = n * n, used[MAXC], i, nca = 0, ncl = 0;
    memset(used, 0, sizeof used);
    for (i = 0; i < nc; i++) {
        int target, k = 1, tries;
        uint64_t vals;
        if (used[i]) continue;
        target = 1 + (int)(kg_rnd(seed) % (unsigned)maxk);
        g->cages[nca].cells = g->cells + ncl;
        g->cells[ncl].r = i / n;
        g->cells[ncl].c = i % n;
        used[i] = 1;
        vals = (uint64_t)1 << g->grid[i];
        for (tries = 0; k < target && tries < 40; tries++) {
            killer_cell_t from = g->cells[ncl + (int)(kg_rnd(seed) % (unsigned)k)];
            int d = (int)(kg_rnd(seed) % 4), r = from.r + (d == 0) - (d == 1),
                c = from.c + (d == 2) - (d == 3);
            if (r < 0 || r >= n || c < 0 || c >= n || used[r * n + c]) continue;
            if (vals & ((uint64_t)1 << g->grid[r * n + c])) continue;
            used[r * n + c] = 1;
            vals |= (uint64_t)1 << g->grid[r * n + c];
            g->cells[ncl + k].r = r;
            g->cells[ncl + k].c = c;
            k++;
        }
        g->cages[nca].ncells = k;
        g->cages[nca].sum = 0;
        for (int j = 0; j < k; j++)
            g->cages[nca].sum +=
                killer_symbol(&g->pz, g->grid[g->cells[ncl + j].r * n + g->cells[ncl + j].c]);
        ncl += k;
        if ((int)(kg_rnd(seed) % 100) < keep_pct)
            nca++; /* else the slot is reused */
        else
            ncl -= k;
    }
    g->pz.cages = g->cages;
    g->pz.ncages = nca;
}

void kg_gen_init(gen_t *g, int n, int br, int bc) {
    memset(g, 0, sizeof *g);
    ck_assert_int_eq(sudoku_shape_init(&g->pz.shape, n, br, bc), 0);
}

int cmp_grid_len;
int cmp_grid(const void *x, const void *y) { return memcmp(x, y, (size_t)cmp_grid_len); }

/* A Killer-X grid: solve the empty X grid, relabel the values at random. */
void kg_make_x_grid(gen_t *g, unsigned *seed) {
    int n = g->pz.shape.n, i, perm[MAXN];
    killer_opts_t o;
    killer_result_t r;
    uint8_t grid[MAXC];
    g->pz.diagonals = 1;
    g->pz.cages = g->cages;
    g->pz.ncages = 0;
    killer_opts_init(&o);
    o.solutions = grid;
    ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
    for (i = 0; i < n; i++)
        perm[i] = i + 1;
    for (i = n - 1; i > 0; i--) {
        int j = (int)(kg_rnd(seed) % (unsigned)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (i = 0; i < n * n; i++)
        g->grid[i] = (uint8_t)perm[grid[i] - 1];
}
