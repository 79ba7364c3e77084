/* sudoku/fish.c -- basic fish: x-wing (2), swordfish (3), jellyfish (4).
 *
 * For a digit d, k base lines (rows, say) in which d has between 2 and k
 * places, all of them inside the same k cover lines (columns): d must sit
 * once in each base row, so it takes one place in each of the k columns,
 * and the rest of those columns loses d.  The same with columns as base.
 *
 * Lines are the rows and columns of one grid (the model's grid_units; a
 * variant with overlapping grids looks at each grid in turn, a Clueless
 * layout's tenth grid too).  With the pos[] layout (logic_internal.h) a
 * row's positions ARE a column mask of its grid and a column's a row mask,
 * so the union of k base masks is the cover set directly.  The reasoning
 * needs the base lines to hold d exactly once (they have n cells) and the
 * cover lines at most once, which every unit does: extra units of a
 * variant do not change it.  Lines are chosen by a depth-first search over
 * k-subsets in index order, pruned when the union passes k bits (depth <=
 * 4).  Finned and mutant fish are not looked for: the chains find what they
 * would. */
#include "solvers/sudoku/logic_internal.h"

typedef struct fish_s {
    sudoku_logic_t *st;
    sudoku_logic_step_t *s;
    const int16_t *lines; /* the grid's rows (n) then columns (n): unit numbers */
    int k, d, base;       /* base = 0 rows, 1 columns */
    int m;                /* candidate base lines */
    int line[SL_MAX_N];   /* their indices */
    uint32_t mask[SL_MAX_N];
    int pick[4];
} fish_t;

static const sudoku_tech_t fish_tech[5] = {0, 0, SUDOKU_TECH_X_WING, SUDOKU_TECH_SWORDFISH,
                                           SUDOKU_TECH_JELLYFISH};

static int fish_found(fish_t *f, uint32_t cover) {
    sudoku_logic_t *st = f->st;
    int n = st->n, cover_kind = 1 - f->base, any = 0;
    uint32_t bases = 0;
    for (int i = 0; i < f->k; i++)
        bases |= (uint32_t)1 << f->line[f->pick[i]];
    sl_step_begin(f->s, fish_tech[f->k]);
    for (uint32_t q = cover; q; q &= q - 1) {
        int u = f->lines[cover_kind * n + sl_ctz(q)];
        for (uint32_t p = *sl_pos(st, u, f->d) & ~bases; p; p &= p - 1)
            any |= sl_add_elim(st, f->s, sl_ucells(st, u)[sl_ctz(p)], f->d);
    }
    if (!any) return 0;
    f->s->digit = (uint8_t)f->d;
    f->s->size = (uint8_t)f->k;
    f->s->unit[0] = (int16_t)f->lines[f->base * n + f->line[f->pick[0]]];
    f->s->unit[1] = (int16_t)f->lines[cover_kind * n + sl_ctz(cover)];
    for (int i = 0; i < f->k; i++) {
        int u = f->lines[f->base * n + f->line[f->pick[i]]];
        for (uint32_t p = *sl_pos(st, u, f->d); p; p &= p - 1) {
            int c = sl_ucells(st, u)[sl_ctz(p)];
            sl_add(f->s, SUDOKU_ITEM_CELL, c, 0);
            sl_add(f->s, SUDOKU_ITEM_CAND, c, f->d);
        }
    }
    return 1;
}

static int fish_dfs(fish_t *f, int depth, int from, uint32_t uni) {
    if (depth == f->k) return sl_popcount(uni) == f->k ? fish_found(f, uni) : 0;
    for (int i = from; i <= f->m - (f->k - depth); i++) {
        uint32_t u2 = uni | f->mask[i];
        if (sl_popcount(u2) > f->k) continue;
        f->pick[depth] = i;
        if (fish_dfs(f, depth + 1, i + 1, u2)) return 1;
    }
    return 0;
}

int sudoku__logic_fish(sudoku_logic_t *st, int size, sudoku_logic_step_t *step) {
    fish_t f;
    int n = st->n;
    f.st = st;
    f.s = step;
    f.k = size;
    for (int d = 1; d <= n; d++)
        for (int g = 0; g < st->m->nline_grids; g++) {
            f.lines = st->m->grid_units + (size_t)g * 2 * (size_t)n;
            for (int base = 0; base < 2; base++) {
                f.d = d;
                f.base = base;
                f.m = 0;
                for (int i = 0; i < n; i++) {
                    uint32_t p = *sl_pos(st, f.lines[base * n + i], d);
                    int pc = sl_popcount(p);
                    if (pc >= 2 && pc <= size) {
                        f.line[f.m] = i;
                        f.mask[f.m++] = p;
                    }
                }
                if (f.m >= size && fish_dfs(&f, 0, 0, 0)) return 1;
            }
        }
    return 0;
}
