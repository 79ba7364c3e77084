/* sudoku/fish.c -- fish: x-wing (2), swordfish (3), jellyfish (4), basic
 * and finned (sashimi included).
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
 * 4).
 *
 * Finned fish (finned x-wing, swordfish, jellyfish; sashimi ones too): k
 * base lines whose places of d lie in k cover lines except for some fins
 * (base cells outside the cover).  Either no fin holds d, and the fish
 * stands (the cover lines lose d outside the base), or a fin does, and
 * every cell that sees it loses d: so the cover cells outside the base
 * lines that see EVERY fin lose d.  On a classic grid that means the fins
 * share one box and the eliminations are in that box.  A sashimi fish is
 * the same proof when a base line keeps one place or none once its fins
 * are taken away (it would be no fish without them); the API names it
 * from the step's cells.  A base line with no place outside its fins
 * stays sound: without a true fin it would have no place at all.  The
 * search takes the k-subsets of base lines whose union of places can still
 * leave fins in one box, then the covers: on a classic grid only those
 * that leave the fins in one stack of columns (rows) and one band of base
 * lines (a cover cell outside the base sees a fin only through its box);
 * on other grids each k-subset of a union of at most k + SL_FIN_COLS
 * lines.  Trying every k-subset of the union on a classic grid too made
 * grading top1465 6.5 times slower; with the box pruning it is ~1.4x the
 * engine without finned fish (bench_logic -G; docs/grading.md has the
 * figures).  Mutant fish (boxes as base or
 * cover) are not looked for: the chains find what they would. */
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
    int finned; /* 0 basic fish, 1 finned (the union may pass k lines) */
} fish_t;

/* The most columns (rows) the fins of a finned fish may add to its cover:
 * fins that share a box on a 9x9 grid span 3 at most. */
#define SL_FIN_COLS 3

static const sudoku_tech_t fish_tech[5] = {0, 0, SUDOKU_TECH_X_WING, SUDOKU_TECH_SWORDFISH,
                                           SUDOKU_TECH_JELLYFISH};

static const sudoku_tech_t finned_tech[5] = {
    0, 0, SUDOKU_TECH_FINNED_X_WING, SUDOKU_TECH_FINNED_SWORDFISH, SUDOKU_TECH_FINNED_JELLYFISH};

/* The fish on the picked base lines with cover `cover` (k lines of their
 * union): 1 with the step filled when it removes something.  A basic fish
 * has no fins (its union is the cover), so every cover cell outside the
 * base "sees every fin"; a finned one needs fins. */
static int fish_found(fish_t *f, uint32_t cover) {
    sudoku_logic_t *st = f->st;
    int n = st->n, cover_kind = 1 - f->base, any = 0, fins[SL_MAX_N * 4], nf = 0;
    uint32_t bases = 0;
    if (f->finned && st->m->classic) { /* fins' lines in one band (finned_stacks: one stack) */
        int h = f->base == 0 ? st->m->shape.box_rows : st->m->shape.box_cols, band = -1;
        for (int i = 0; i < f->k; i++) {
            if (!(f->mask[f->pick[i]] & ~cover)) continue;
            if (band >= 0 && f->line[f->pick[i]] / h != band) return 0;
            band = f->line[f->pick[i]] / h;
        }
    }
    for (int i = 0; i < f->k; i++) {
        int u = f->lines[f->base * n + f->line[f->pick[i]]];
        bases |= (uint32_t)1 << f->line[f->pick[i]];
        for (uint32_t p = f->mask[f->pick[i]] & ~cover; p; p &= p - 1)
            fins[nf++] = sl_ucells(st, u)[sl_ctz(p)];
    }
    if (f->finned && nf == 0) return 0; /* a basic fish: found before this */
    sl_step_begin(f->s, (f->finned ? finned_tech : fish_tech)[f->k]);
    for (uint32_t q = cover; q; q &= q - 1) {
        int u = f->lines[cover_kind * n + sl_ctz(q)];
        for (uint32_t p = *sl_pos(st, u, f->d) & ~bases; p; p &= p - 1) {
            int c = sl_ucells(st, u)[sl_ctz(p)];
            if (sl_sees_all(st, c, fins, nf)) any |= sl_add_elim(st, f->s, c, f->d);
        }
    }
    if (!any) return 0;
    f->s->digit = (uint8_t)f->d;
    f->s->size = (uint8_t)f->k;
    f->s->unit[0] = (int16_t)f->lines[f->base * n + f->line[f->pick[0]]];
    f->s->unit[1] = (int16_t)f->lines[cover_kind * n + sl_ctz(cover)];
    for (int i = 0; i < f->k; i++) {
        int u = f->lines[f->base * n + f->line[f->pick[i]]];
        for (uint32_t p = f->mask[f->pick[i]]; p; p &= p - 1) {
            int c = sl_ucells(st, u)[sl_ctz(p)];
            sl_add(f->s, SUDOKU_ITEM_CELL, c, 0);
            if (!f->finned) sl_add(f->s, SUDOKU_ITEM_CAND, c, f->d); /* basic: every base cell */
        }
    }
    for (int i = 0; i < nf; i++)
        sl_add(f->s, SUDOKU_ITEM_CAND, fins[i], f->d);
    return 1;
}

/* Each k-subset of the union `uni` (ascending bits) as the cover. */
static int finned_covers(fish_t *f, uint32_t uni, int need, uint32_t cover) {
    if (need == 0) return fish_found(f, cover);
    for (uint32_t q = uni; q && sl_popcount(q) >= need; q &= q - 1) {
        uint32_t b = q & (~q + 1);
        if (finned_covers(f, q & ~b, need - 1, cover | b)) return 1;
    }
    return 0;
}

/* On a classic grid the fins share a box (a cover cell outside the base
 * lines can see a fin only through a box), so their columns (rows) lie in
 * one stack (band) of w lines: the cover holds the union's lines outside
 * that stack and the rest of it comes from inside.  This cuts the covers
 * tried from C(|union|, k) to a handful, which is what keeps the finned
 * jellyfish affordable on every step that reaches it. */
static int finned_stacks(fish_t *f, uint32_t uni) {
    const sudoku_model_t *m = f->st->m;
    int w = f->base == 0 ? m->shape.box_cols : m->shape.box_rows;
    for (int g = 0; g * w < f->st->n; g++) {
        uint32_t stack = (((uint32_t)1 << w) - 1) << (g * w), must = uni & ~stack;
        int need = f->k - sl_popcount(must);
        if (need < 0 || sl_popcount(uni & stack) <= need) continue; /* no fin left here */
        if (finned_covers(f, uni & stack, need, must)) return 1;
    }
    return 0;
}

/* Whether a union of base places can still make a finned fish: on a
 * classic grid some stack holds all but k of its lines (finned_stacks), on
 * other grids it spans at most k + SL_FIN_COLS lines. */
static int finned_fits(const fish_t *f, uint32_t uni) {
    const sudoku_model_t *m = f->st->m;
    if (!m->classic) return sl_popcount(uni) <= f->k + SL_FIN_COLS;
    int w = f->base == 0 ? m->shape.box_cols : m->shape.box_rows;
    for (int g = 0; g * w < f->st->n; g++)
        if (sl_popcount(uni & ~((((uint32_t)1 << w) - 1) << (g * w))) <= f->k) return 1;
    return 0;
}

static int fish_dfs(fish_t *f, int depth, int from, uint32_t uni) {
    if (depth == f->k) {
        if (!f->finned) return sl_popcount(uni) == f->k ? fish_found(f, uni) : 0;
        if (sl_popcount(uni) <= f->k) return 0;
        return f->st->m->classic ? finned_stacks(f, uni) : finned_covers(f, uni, f->k, 0);
    }
    for (int i = from; i <= f->m - (f->k - depth); i++) {
        uint32_t u2 = uni | f->mask[i];
        if (f->finned ? !finned_fits(f, u2) : sl_popcount(u2) > f->k) continue;
        f->pick[depth] = i;
        if (fish_dfs(f, depth + 1, i + 1, u2)) return 1;
    }
    return 0;
}

int sudoku__logic_fish(sudoku_logic_t *st, int size, int finned, sudoku_logic_step_t *step) {
    fish_t f;
    int n = st->n, most = finned ? size + SL_FIN_COLS : size;
    f.st = st;
    f.s = step;
    f.k = size;
    f.finned = finned;
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
                    if (pc >= 2 && pc <= most) {
                        f.line[f.m] = i;
                        f.mask[f.m++] = p;
                    }
                }
                if (f.m >= size && fish_dfs(&f, 0, 0, 0)) return 1;
            }
        }
    return 0;
}
