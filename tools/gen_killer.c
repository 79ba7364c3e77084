/* gen_killer.c -- writes Killer Sudoku fixtures for tests/test_killer.c.
 *
 *   gen_killer SEED COUNT N BR BC MAXK KEEP_PCT GIVEN_PCT DIAG [SYMBOLS]
 *
 * Makes COUNT puzzles: a valid grid (the shuffled pattern grid; with DIAG=1
 * the first X grid the advanced solver finds, relabelled), a random
 * partition into cages of 1..MAXK cells with distinct values (KEEP_PCT of
 * them kept), GIVEN_PCT of the cells as givens, and counts the solutions
 * with BOTH methods (they must agree; up to 1000).  SYMBOLS is an optional
 * comma list of n values.  One line per puzzle on stdout:
 *
 *   N BRxBC D | SYMBOLS | GIVENS | CAGES | COUNT | SOLUTION
 *
 * D 0/1 diagonals; SYMBOLS "-" or a comma list (value of index 1..n);
 * GIVENS "-" or n*n comma-separated indices (0 empty); CAGES
 * "sum:r,c r,c;sum:r,c" (0-based); COUNT the exact number of solutions;
 * SOLUTION n*n comma-separated indices when COUNT is 1, else "-".
 * Build: make build/tools/gen_killer (make test builds it too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/killer/killer.h"

static unsigned rnd(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static void shuffle(int *a, int k, unsigned *seed) {
    int i;
    for (i = k - 1; i > 0; i--) {
        int j = (int)(rnd(seed) % (unsigned)(i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

int main(int argc, char **argv) {
    unsigned seed;
    int count, n, br, bc, maxk, keep, gpct, diag, p, i;
    long symbols[KILLER_MAX_N];
    if (argc < 10) {
        fprintf(stderr,
                "usage: gen_killer SEED COUNT N BR BC MAXK KEEP_PCT GIVEN_PCT DIAG [SYMBOLS]\n");
        return 2;
    }
    seed = (unsigned)atoi(argv[1]);
    count = atoi(argv[2]), n = atoi(argv[3]), br = atoi(argv[4]), bc = atoi(argv[5]);
    maxk = atoi(argv[6]), keep = atoi(argv[7]), gpct = atoi(argv[8]), diag = atoi(argv[9]);
    if (argc > 10) {
        char *s = argv[10];
        for (i = 0; i < n; i++)
            symbols[i] = strtol(s, &s, 10), s += (*s == ',');
    }
    for (p = 0; p < count; p++) {
        static killer_cage_t cages[KILLER_MAX_N * KILLER_MAX_N];
        static killer_cell_t cells[KILLER_MAX_N * KILLER_MAX_N];
        static uint8_t grid[KILLER_MAX_N * KILLER_MAX_N], givens[KILLER_MAX_N * KILLER_MAX_N],
            sol[1001 * 256];
        int perm[KILLER_MAX_N], used[KILLER_MAX_N * KILLER_MAX_N], nca = 0, ncl = 0, mi, r, c;
        uint32_t cnt[2];
        killer_puzzle_t pz;
        killer_opts_t o;
        killer_result_t res;
        memset(&pz, 0, sizeof pz);
        if (sudoku_shape_init(&pz.shape, n, br, bc) != 0) return 2;
        if (argc > 10) pz.symbols = symbols;
        pz.diagonals = diag;
        for (i = 0; i < n; i++)
            perm[i] = i;
        shuffle(perm, n, &seed);
        if (diag) {
            killer_opts_init(&o);
            o.solutions = grid;
            pz.cages = cages;
            if (killer_solve(&pz, &o, &res) != 0 || res.solutions_found != 1) return 1;
            for (i = 0; i < n * n; i++)
                grid[i] = (uint8_t)(perm[grid[i] - 1] + 1);
        } else {
            int rows[KILLER_MAX_N], bands[KILLER_MAX_N];
            for (i = 0; i < n / br; i++)
                bands[i] = i;
            shuffle(bands, n / br, &seed);
            for (i = 0; i < n; i++)
                rows[i] = bands[i / br] * br + (i % br + (int)(rnd(&seed) % 1)) % br;
            for (r = 0; r < n; r++)
                for (c = 0; c < n; c++) {
                    int rr = rows[r];
                    grid[r * n + c] = (uint8_t)(perm[(rr % br * bc + rr / br + c) % n] + 1);
                }
        }
        memset(used, 0, sizeof used);
        for (i = 0; i < n * n; i++) {
            int target = 1 + (int)(rnd(&seed) % (unsigned)maxk), k = 1, t, j;
            uint64_t vals;
            if (used[i]) continue;
            cages[nca].cells = cells + ncl;
            cells[ncl].r = i / n, cells[ncl].c = i % n;
            used[i] = 1;
            vals = (uint64_t)1 << grid[i];
            for (t = 0; k < target && t < 40; t++) {
                killer_cell_t f = cells[ncl + (int)(rnd(&seed) % (unsigned)k)];
                int d = (int)(rnd(&seed) % 4);
                r = f.r + (d == 0) - (d == 1), c = f.c + (d == 2) - (d == 3);
                if (r < 0 || r >= n || c < 0 || c >= n || used[r * n + c]) continue;
                if (vals & ((uint64_t)1 << grid[r * n + c])) continue;
                used[r * n + c] = 1;
                vals |= (uint64_t)1 << grid[r * n + c];
                cells[ncl + k].r = r, cells[ncl + k].c = c;
                k++;
            }
            cages[nca].ncells = k;
            cages[nca].sum = 0;
            for (j = 0; j < k; j++)
                cages[nca].sum += killer_symbol(&pz, grid[cells[ncl + j].r * n + cells[ncl + j].c]);
            ncl += k;
            if ((int)(rnd(&seed) % 100) < keep)
                nca++;
            else
                ncl -= k;
        }
        pz.cages = cages;
        pz.ncages = nca;
        for (i = 0; i < n * n; i++)
            givens[i] = (int)(rnd(&seed) % 100) < gpct ? grid[i] : 0;
        pz.givens = gpct > 0 ? givens : NULL;
        if (killer_validate(&pz, NULL) != 0) return 1;
        for (mi = 0; mi < 2; mi++) {
            killer_opts_init(&o);
            o.method = mi ? KILLER_METHOD_BACKTRACKING : KILLER_METHOD_ADVANCED;
            o.max_solutions = 1000;
            o.solutions = sol;
            if (killer_solve(&pz, &o, &res) != 0 || !res.exhausted) return 1;
            for (i = 0; i < (int)res.solutions_found; i++)
                if (killer_check_solution(&pz, sol + (size_t)i * n * n) != 1) return 1;
            cnt[mi] = res.solutions_found;
        }
        if (cnt[0] != cnt[1]) return 1;
        printf("%d %dx%d %d | ", n, br, bc, diag);
        if (pz.symbols == NULL)
            printf("-");
        else
            for (i = 0; i < n; i++)
                printf(i ? ",%ld" : "%ld", symbols[i]);
        printf(" | ");
        if (pz.givens == NULL)
            printf("-");
        else
            for (i = 0; i < n * n; i++)
                printf(i ? ",%d" : "%d", givens[i]);
        printf(" | ");
        for (i = 0; i < nca; i++) {
            int j;
            printf(i ? ";%ld:" : "%ld:", cages[i].sum);
            for (j = 0; j < cages[i].ncells; j++)
                printf(j ? " %d,%d" : "%d,%d", cages[i].cells[j].r, cages[i].cells[j].c);
        }
        printf(" | %u | ", cnt[0]);
        if (cnt[0] != 1)
            printf("-");
        else
            for (i = 0; i < n * n; i++)
                printf(i ? ",%d" : "%d", sol[i]);
        printf("\n");
    }
    return 0;
}
