/* pentomino.c -- the pentomino tiling of an R x C board as exact cover,
 * shared by the exact-cover tests and benchmark (Knuth's favourite check:
 * 6x10 has 2,339 tilings up to symmetry, 9,356 in all). */
#include "tests/pentomino.h"

#include <stdlib.h>
#include <string.h>

static const int pento_cells[12][5][2] = {
    {{0, 1}, {0, 2}, {1, 0}, {1, 1}, {2, 1}}, /* F */
    {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}, /* I */
    {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}}, /* L */
    {{0, 1}, {1, 1}, {2, 0}, {2, 1}, {3, 0}}, /* N */
    {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}}, /* P */
    {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {2, 1}}, /* T */
    {{0, 0}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}, /* U */
    {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}}, /* V */
    {{0, 0}, {1, 0}, {1, 1}, {2, 1}, {2, 2}}, /* W */
    {{0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 1}}, /* X */
    {{0, 1}, {1, 0}, {1, 1}, {2, 1}, {3, 1}}, /* Y */
    {{0, 0}, {0, 1}, {1, 1}, {2, 1}, {2, 2}}, /* Z */
};
#define PENTO_X 9

static int cmp_cell(const void *a, const void *b) {
    const int *x = a, *y = b;
    return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

/* The pentomino problem on an R x C board: items = 12 pieces, then cell
 * r*C + c at 12 + r*C + c; one option per placement of each distinct
 * orientation.  With quarter != 0 the X piece's centre is kept in the
 * top-left quarter (R and C even: no centre on a mirror axis), which picks
 * one board of every 4-element symmetry orbit. */
xcover_problem_t *pentomino_problem(int R, int C, int quarter) {
    uint32_t *start = malloc(4096 * sizeof *start), *items = malloc(6 * 4096 * sizeof *items);
    uint32_t no = 0, ne = 0;
    xcover_spec_t spec;
    xcover_problem_t *p = NULL;
    int pc, t, j, k;

    if (start == NULL || items == NULL) goto done;
    for (pc = 0; pc < 12; pc++) {
        int seen[8][5][2], nseen = 0;
        for (t = 0; t < 8; t++) {
            int cs[5][2], mr = 99, mc = 99, dup = 0, r0, c0;
            for (j = 0; j < 5; j++) {
                int r = pento_cells[pc][j][0], c = pento_cells[pc][j][1];
                for (k = 0; k < (t & 3); k++) { /* rotate a quarter turn */
                    int tmp = r;
                    r = c;
                    c = -tmp;
                }
                if (t & 4) c = -c; /* mirror */
                cs[j][0] = r;
                cs[j][1] = c;
                if (r < mr) mr = r;
                if (c < mc) mc = c;
            }
            for (j = 0; j < 5; j++)
                cs[j][0] -= mr, cs[j][1] -= mc;
            qsort(cs, 5, sizeof cs[0], cmp_cell);
            for (k = 0; k < nseen; k++)
                dup |= memcmp(seen[k], cs, sizeof cs) == 0;
            if (dup) continue;
            memcpy(seen[nseen++], cs, sizeof cs);
            for (r0 = 0; r0 < R; r0++) {
                for (c0 = 0; c0 < C; c0++) {
                    int fits = 1;
                    for (j = 0; j < 5; j++)
                        fits &= cs[j][0] + r0 < R && cs[j][1] + c0 < C;
                    if (!fits) continue;
                    if (quarter && pc == PENTO_X && (r0 + 1 >= R / 2 || c0 + 1 >= C / 2)) continue;
                    if (no >= 4095) goto done; /* boards up to 6x10 need ~2,000 */
                    start[no++] = ne;
                    items[ne++] = (uint32_t)pc;
                    for (j = 0; j < 5; j++)
                        items[ne++] = 12 + (uint32_t)((cs[j][0] + r0) * C + cs[j][1] + c0);
                }
            }
        }
    }
    start[no] = ne;
    spec.nprimary = 12 + (uint32_t)(R * C);
    spec.nsecondary = 0;
    spec.noptions = no;
    spec.option_start = start;
    spec.items = items;
    if (xcover_problem_new(&spec, NULL, &p, NULL) != 0) p = NULL;
done:
    free(start);
    free(items);
    return p;
}
