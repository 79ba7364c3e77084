/* sudoku/wings.c -- xy-wing, xyz-wing, the unique rectangle (type 1) and
 * BUG+1.
 *
 * xy-wing: a pivot with candidates {a,b} sees a pincer {a,c} and a pincer
 *   {b,c}.  Whatever the pivot holds, one pincer is c, so a cell that sees
 *   both pincers cannot be c.
 * xyz-wing: a pivot {a,b,z} sees pincers {a,z} and {b,z}: one of the three
 *   is z, so a cell that sees all three cannot be z.
 * "Sees" is any shared unit, so the wings work on every variant as they
 *   are.
 * unique rectangle, type 1: four empty cells on two rows and two columns
 *   of one grid; three hold exactly {a,b}; if the fourth held a or b too,
 *   the four could swap a and b and the puzzle would have two solutions, so
 *   the fourth loses a and b.  Only for puzzles known to be unique (the
 *   caller says so through opts.assume_unique).  The swap keeps every unit
 *   valid only when each unit holds none of the corners or two side by side
 *   (the same row or column of the rectangle): on a classic grid, when the
 *   corners lie in two boxes; on a variant the check is made on the
 *   corners' units (a diagonal or window through one corner rules the
 *   rectangle out).  Parity cannot break it (the corners may hold both
 *   digits), pair rules can (the corners' neighbours would see different
 *   differences), so a model with pair rules never looks (st->ur).
 * BUG+1 (bivalue universal grave plus one): every empty cell has two
 *   candidates but one, t, which has three, and once a digit x leaves t
 *   every candidate appears exactly twice in each unit where it appears at
 *   all.  Such a grave has no solution or several (each unit's two places
 *   of a digit can be swapped around a cycle), so a unique puzzle needs x
 *   in t: x is placed.  Only for puzzles known to be unique, and only on
 *   the classic shapes without pair or line rules (the swap argument is
 *   the rows, columns and boxes'; a variant's extra units are not
 *   checked).
 * Searches are plain loops over cells and peers: n^2 * peers^2 at most, a
 * few thousand steps at 9x9. */
#include "solvers/sudoku/logic_internal.h"

static void add_cell_cands(const sudoku_logic_t *st, sudoku_logic_step_t *s, int c) {
    sl_add(s, SUDOKU_ITEM_CELL, c, 0);
    for (uint32_t m = st->cand[c]; m; m &= m - 1)
        sl_add(s, SUDOKU_ITEM_CAND, c, sl_ctz(m) + 1);
}

int sudoku__logic_xy_wing(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    for (int p = 0; p < st->nn; p++) {
        uint32_t pm = st->cand[p];
        int np;
        if (sl_popcount(pm) != 2) continue;
        const uint16_t *pp = sl_peers(st, p, &np);
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
                int nx;
                const uint16_t *xp = sl_peers(st, x, &nx);
                for (int k = 0; k < nx; k++) {
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
    for (int p = 0; p < st->nn; p++) {
        uint32_t pm = st->cand[p];
        int np;
        if (sl_popcount(pm) != 3) continue;
        const uint16_t *pp = sl_peers(st, p, &np);
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

/* Whether swapping two digits over the rectangle's corners keeps every
 * unit valid: each unit of a corner holds exactly two corners, side by
 * side (c[0]-c[1] and c[2]-c[3] share a row, c[0]-c[2] and c[1]-c[3] a
 * column). */
static int rect_swappable(const sudoku_logic_t *st, const int *cells) {
    for (int i = 0; i < 4; i++) {
        const uint16_t *cu = sl_units(st, cells[i]);
        for (int j = 0; j < st->ncu[cells[i]]; j++) {
            int in = 0, mask = 0;
            for (int k = 0; k < 4; k++)
                if (sl_in_unit(st, cells[k], cu[j])) {
                    in++;
                    mask |= 1 << k;
                }
            /* side by side: {0,1}, {2,3}, {0,2}, {1,3}; not a diagonal pair */
            if (in != 2 || mask == 0x9 || mask == 0x6) return 0;
        }
    }
    return 1;
}

int sudoku__logic_unique_rect(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    const sudoku_model_t *m = st->m;
    int n = st->n, br = m->shape.box_rows, bc = m->classic ? m->shape.box_cols : 1;
    for (int g = 0; g < m->nline_grids; g++) {
        const int16_t *rows = m->grid_units + (size_t)g * 2 * (size_t)n;
        for (int r1 = 0; r1 < n; r1++)
            for (int r2 = r1 + 1; r2 < n; r2++) {
                const uint16_t *a = sl_ucells(st, rows[r1]), *b = sl_ucells(st, rows[r2]);
                int band = m->classic ? r1 / br == r2 / br : -1;
                for (int c1 = 0; c1 < n; c1++)
                    for (int c2 = c1 + 1; c2 < n; c2++) {
                        /* a classic grid's rectangle lies in two boxes, or is no use
                         * (what rect_swappable() finds, without reading a cell) */
                        if (band == (c1 / bc == c2 / bc)) continue;
                        /* three corners hold exactly the pair, so one of the first two does */
                        uint32_t pm = st->cand[a[c1]];
                        if (sl_popcount(pm) != 2) pm = st->cand[a[c2]];
                        if (sl_popcount(pm) != 2) continue;
                        int cells[4] = {a[c1], a[c2], b[c1], b[c2]};
                        int exact = 0, odd = -1;
                        for (int i = 0; i < 4; i++) {
                            uint32_t cm = st->cand[cells[i]];
                            if (cm == pm)
                                exact++;
                            else if ((cm & pm) == pm)
                                odd = cells[i];
                        }
                        if (exact != 3 || odd < 0 || (!m->classic && !rect_swappable(st, cells)))
                            continue;
                        sl_step_begin(s, SUDOKU_TECH_UNIQUE_RECTANGLE);
                        for (uint32_t q = pm; q; q &= q - 1)
                            sl_add_elim(st, s, odd, sl_ctz(q) + 1);
                        s->digits = pm;
                        for (int i = 0; i < 4; i++)
                            sl_add(s, SUDOKU_ITEM_CELL, cells[i], 0);
                        for (int i = 0; i < 4; i++)
                            for (uint32_t q = pm; q; q &= q - 1)
                                sl_add(s, SUDOKU_ITEM_CAND, cells[i], sl_ctz(q) + 1);
                        return 1;
                    }
            }
    }
    return 0;
}

/* Whether, with digit x taken out of cell t, every digit has 0 or 2 places
 * in every unit. */
static int bug_grave_without(const sudoku_logic_t *st, int t, int x) {
    for (int u = 0; u < st->nunits; u++)
        for (int d = 1; d <= st->n; d++) {
            int k = sl_popcount(*sl_pos(st, u, d));
            if (d == x && sl_in_unit(st, t, u)) k--;
            if (k != 0 && k != 2) return 0;
        }
    return 1;
}

int sudoku__logic_bug(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    int t = -1;
    for (int c = 0; c < st->nn; c++) {
        if (st->value[c] || !sl_live(st, c)) continue;
        int k = sl_popcount(st->cand[c]);
        if (k == 2) continue;
        if (k != 3 || t >= 0) return 0; /* a single, a fourth candidate, a second trivalue */
        t = c;
    }
    if (t < 0) return 0; /* a pure grave: the puzzle is not unique, nothing to say */
    for (uint32_t q = st->cand[t]; q; q &= q - 1) {
        int x = sl_ctz(q) + 1;
        if (!bug_grave_without(st, t, x)) continue;
        sl_step_begin(s, SUDOKU_TECH_BUG_PLUS_1);
        s->digit = (uint8_t)x;
        sl_add(s, SUDOKU_ITEM_PLACE, t, x);
        add_cell_cands(st, s, t);
        return 1;
    }
    return 0;
}
