/* sudoku/wings.c -- xy-wing, xyz-wing and the unique rectangle (type 1).
 *
 * xy-wing: a pivot with candidates {a,b} sees a pincer {a,c} and a pincer
 *   {b,c}.  Whatever the pivot holds, one pincer is c, so a cell that sees
 *   both pincers cannot be c.
 * xyz-wing: a pivot {a,b,z} sees pincers {a,z} and {b,z}: one of the three
 *   is z, so a cell that sees all three cannot be z.
 * unique rectangle, type 1: four empty cells on two rows, two columns and
 *   two boxes; three hold exactly {a,b}; if the fourth held a or b too the
 *   four could swap a and b and the puzzle would have two solutions, so the
 *   fourth loses a and b.  Only for puzzles known to be unique (the caller
 *   says so through opts.assume_unique).
 * Searches are plain loops over cells and peers: n^2 * peers^2 at most, a
 * few thousand steps at 9x9. */
#include "solvers/sudoku/logic_internal.h"

static const uint16_t *peers_of(const sudoku_logic_t *st, int c) {
    return st->peers + (size_t)c * (size_t)st->npeers;
}

static void add_cell_cands(const sudoku_logic_t *st, sudoku_logic_step_t *s, int c) {
    sl_add(s, SUDOKU_ITEM_CELL, c, 0);
    for (uint32_t m = st->cand[c]; m; m &= m - 1)
        sl_add(s, SUDOKU_ITEM_CAND, c, sl_ctz(m) + 1);
}

int sudoku__logic_xy_wing(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    int np = st->npeers;
    for (int p = 0; p < st->nn; p++) {
        uint32_t pm = st->cand[p];
        if (sl_popcount(pm) != 2) continue;
        const uint16_t *pp = peers_of(st, p);
        for (int i = 0; i < np; i++) {
            int x = pp[i];
            uint32_t xm = st->cand[x];
            /* x = {a, c}: shares exactly one digit with the pivot */
            if (sl_popcount(xm) != 2 || sl_popcount(xm & pm) != 1) continue;
            uint32_t b = pm & ~xm, c = xm & ~pm;
            for (int j = 0; j < np; j++) {
                int y = pp[j];
                if (y == x || st->cand[y] != (b | c)) continue;
                int d = sl_ctz(c) + 1, any = 0;
                sl_step_begin(s, SUDOKU_TECH_XY_WING);
                const uint16_t *xp = peers_of(st, x);
                for (int k = 0; k < np; k++) {
                    int t = xp[k];
                    if (t != p && t != y && sl_sees(st, t, y)) any |= sl_add_elim(st, s, t, d);
                }
                if (!any) continue;
                s->digit = (uint8_t)d;
                add_cell_cands(st, s, p);
                add_cell_cands(st, s, x);
                add_cell_cands(st, s, y);
                return 1;
            }
        }
    }
    return 0;
}

int sudoku__logic_xyz_wing(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    int np = st->npeers;
    for (int p = 0; p < st->nn; p++) {
        uint32_t pm = st->cand[p];
        if (sl_popcount(pm) != 3) continue;
        const uint16_t *pp = peers_of(st, p);
        for (int i = 0; i < np; i++) {
            int x = pp[i];
            uint32_t xm = st->cand[x];
            if (sl_popcount(xm) != 2 || (xm & ~pm)) continue;
            for (int j = i + 1; j < np; j++) {
                int y = pp[j];
                uint32_t ym = st->cand[y];
                if (sl_popcount(ym) != 2 || (ym & ~pm) || (xm | ym) != pm) continue;
                uint32_t z = xm & ym;
                if (sl_popcount(z) != 1) continue;
                int d = sl_ctz(z) + 1, any = 0;
                sl_step_begin(s, SUDOKU_TECH_XYZ_WING);
                for (int k = 0; k < np; k++) {
                    int t = pp[k];
                    if (t != x && t != y && sl_sees(st, t, x) && sl_sees(st, t, y))
                        any |= sl_add_elim(st, s, t, d);
                }
                if (!any) continue;
                s->digit = (uint8_t)d;
                add_cell_cands(st, s, p);
                add_cell_cands(st, s, x);
                add_cell_cands(st, s, y);
                return 1;
            }
        }
    }
    return 0;
}

int sudoku__logic_unique_rect(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    int n = st->n;
    for (int r1 = 0; r1 < n; r1++)
        for (int r2 = r1 + 1; r2 < n; r2++) {
            int same_band = r1 / st->br == r2 / st->br;
            for (int c1 = 0; c1 < n; c1++)
                for (int c2 = c1 + 1; c2 < n; c2++) {
                    int cells[4] = {r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2};
                    if (same_band == (c1 / st->bc == c2 / st->bc)) continue; /* not two boxes */
                    /* three corners hold exactly the pair, so one of the first two does */
                    uint32_t m = st->cand[cells[0]];
                    if (sl_popcount(m) != 2) m = st->cand[cells[1]];
                    if (sl_popcount(m) != 2) continue;
                    int exact = 0, odd = -1;
                    for (int i = 0; i < 4; i++) {
                        uint32_t cm = st->cand[cells[i]];
                        if (cm == m)
                            exact++;
                        else if ((cm & m) == m)
                            odd = cells[i];
                    }
                    if (exact != 3 || odd < 0) continue;
                    sl_step_begin(s, SUDOKU_TECH_UNIQUE_RECTANGLE);
                    for (uint32_t q = m; q; q &= q - 1)
                        sl_add_elim(st, s, odd, sl_ctz(q) + 1);
                    s->digits = m;
                    for (int i = 0; i < 4; i++)
                        sl_add(s, SUDOKU_ITEM_CELL, cells[i], 0);
                    for (int i = 0; i < 4; i++)
                        for (uint32_t q = m; q; q &= q - 1)
                            sl_add(s, SUDOKU_ITEM_CAND, cells[i], sl_ctz(q) + 1);
                    return 1;
                }
        }
    return 0;
}
