/* sudoku/logic.c -- the human-style solver's state, the basic techniques
 * (singles, locked candidates, naked and hidden subsets), the step loop
 * and the grade.  The pattern techniques live in fish.c and wings.c, the
 * chains in chains.c, trial and guess in trial.c; logic_internal.h draws
 * the state.
 *
 * Why one step at a time, always restarting from the easiest technique:
 * that is what makes a grade mean "the hardest thing a person must do" --
 * a swordfish found while a hidden single was available would inflate the
 * grade.  The cost is a rescan per step; the scans are bitmask loops over
 * units (3n x n words), a few microseconds a step at 9x9.  Keeping queues
 * of pending singles was rejected: the hint endpoint needs the same
 * easiest-first order from an arbitrary position anyway, and the scans are
 * not where grading spends its time on hard puzzles (the chains are).
 *
 * Deduction from candidates, not from the solution: no technique looks at
 * opts->solution except trial (to choose which candidate to refute, which
 * only orders the search: the refutation itself is a proof) and guess
 * (which says that it guesses).  The tests check every step of every path
 * against the solution. */
#include <stdlib.h>

#include "solvers/sudoku/logic_internal.h"

/* === Techniques: names, weights, levels === */

static const struct {
    const char *name;
    double weight;
    uint8_t level;
} techs[SUDOKU_TECH_COUNT] = {
    {"full-house", 1.0, SUDOKU_GRADE_EASY},    {"naked-single", 1.2, SUDOKU_GRADE_EASY},
    {"hidden-single", 1.5, SUDOKU_GRADE_EASY}, {"pointing", 2.0, SUDOKU_GRADE_MEDIUM},
    {"claiming", 2.2, SUDOKU_GRADE_MEDIUM},    {"naked-pair", 2.4, SUDOKU_GRADE_MEDIUM},
    {"hidden-pair", 2.6, SUDOKU_GRADE_MEDIUM}, {"naked-triple", 3.0, SUDOKU_GRADE_HARD},
    {"x-wing", 3.2, SUDOKU_GRADE_HARD},        {"hidden-triple", 3.4, SUDOKU_GRADE_HARD},
    {"xy-wing", 3.6, SUDOKU_GRADE_HARD},       {"xyz-wing", 3.8, SUDOKU_GRADE_HARD},
    {"naked-quad", 4.0, SUDOKU_GRADE_EXPERT},  {"swordfish", 4.2, SUDOKU_GRADE_EXPERT},
    {"hidden-quad", 4.4, SUDOKU_GRADE_EXPERT}, {"unique-rectangle", 4.6, SUDOKU_GRADE_EXPERT},
    {"jellyfish", 4.8, SUDOKU_GRADE_EXPERT},   {"simple-colouring", 5.0, SUDOKU_GRADE_EXPERT},
    {"x-chain", 5.2, SUDOKU_GRADE_EXPERT},     {"xy-chain", 6.0, SUDOKU_GRADE_EXTREME},
    {"aic", 7.0, SUDOKU_GRADE_EXTREME},        {"trial", 10.0, SUDOKU_GRADE_BEYOND},
    {"guess", 11.0, SUDOKU_GRADE_BEYOND},
};

static const char *const level_names[SUDOKU_GRADE_COUNT] = {"easy",   "medium",  "hard",
                                                            "expert", "extreme", "beyond-logic"};
static const double level_lo[SUDOKU_GRADE_COUNT + 1] = {0.0, 2.0, 3.0, 4.0, 6.0, 10.0, 1e9};

const char *sudoku_tech_name(sudoku_tech_t t) {
    return (unsigned)t < SUDOKU_TECH_COUNT ? techs[t].name : NULL;
}

int sudoku_tech_parse(const char *name, sudoku_tech_t *out) {
    for (int t = 0; t < SUDOKU_TECH_COUNT; t++)
        if (strcmp(name, techs[t].name) == 0) {
            *out = (sudoku_tech_t)t;
            return 0;
        }
    return SEARCH_EINVAL;
}

double sudoku_tech_weight(sudoku_tech_t t) {
    return (unsigned)t < SUDOKU_TECH_COUNT ? techs[t].weight : 0.0;
}

sudoku_grade_level_t sudoku_tech_level(sudoku_tech_t t) {
    return (unsigned)t < SUDOKU_TECH_COUNT ? (sudoku_grade_level_t)techs[t].level
                                           : SUDOKU_GRADE_BEYOND;
}

const char *sudoku_grade_level_name(sudoku_grade_level_t l) {
    return (unsigned)l < SUDOKU_GRADE_COUNT ? level_names[l] : NULL;
}

int sudoku_grade_level_parse(const char *name, sudoku_grade_level_t *out) {
    for (int l = 0; l < SUDOKU_GRADE_COUNT; l++)
        if (strcmp(name, level_names[l]) == 0) {
            *out = (sudoku_grade_level_t)l;
            return 0;
        }
    return SEARCH_EINVAL;
}

sudoku_grade_level_t sudoku_grade_level_of(double rating) {
    int l = 0;
    while (l + 1 < SUDOKU_GRADE_COUNT && rating >= level_lo[l + 1])
        l++;
    return (sudoku_grade_level_t)l;
}

void sudoku_grade_level_band(sudoku_grade_level_t l, double *lo, double *hi) {
    if ((unsigned)l >= SUDOKU_GRADE_COUNT) l = SUDOKU_GRADE_BEYOND;
    *lo = level_lo[l];
    *hi = level_lo[l + 1];
}

sudoku_tech_t sudoku_grade_level_top(sudoku_grade_level_t l) {
    switch (l) {
    case SUDOKU_GRADE_EASY: return SUDOKU_TECH_HIDDEN_SINGLE;
    case SUDOKU_GRADE_MEDIUM: return SUDOKU_TECH_HIDDEN_PAIR;
    case SUDOKU_GRADE_HARD: return SUDOKU_TECH_XYZ_WING;
    case SUDOKU_GRADE_EXPERT: return SUDOKU_TECH_X_CHAIN;
    case SUDOKU_GRADE_EXTREME: return SUDOKU_TECH_AIC;
    default: return SUDOKU_TECH_TRIAL;
    }
}

/* === State === */

/* Bytes of the block: the struct, then peers, chain scratch, trial scratch
 * and a second struct for depth-1 trials. */
static size_t sl_layout(int n, int npeers, size_t off[5]) {
    size_t nn = (size_t)n * (size_t)n, nodes = nn * (size_t)n, at;
#define SL_ALIGN(x) (((x) + 15u) & ~(size_t)15u)
    at = SL_ALIGN(sizeof(struct sudoku_logic_s));
    off[0] = at; /* peers */
    at = SL_ALIGN(at + nn * (size_t)npeers * sizeof(uint16_t));
    off[1] = at; /* seen, parent, queue */
    at = SL_ALIGN(at + 2 * nodes * (sizeof(uint32_t) + 2 * sizeof(int32_t)));
    off[2] = at; /* tcand, tq, tdone */
    at = SL_ALIGN(at + nn * (sizeof(uint32_t) + sizeof(uint16_t) + 1));
    off[3] = at; /* sub state */
    at = SL_ALIGN(at + sizeof(struct sudoku_logic_s));
    off[4] = at; /* step record */
    at = SL_ALIGN(at + sizeof(sudoku_logic_step_t));
#undef SL_ALIGN
    return at;
}

static void sl_geometry(sudoku_logic_t *st, int n, int br, int bc) {
    int per_row = n / bc;
    st->n = n;
    st->nn = n * n;
    st->br = br;
    st->bc = bc;
    st->all = n == 32 ? 0xffffffffu : ((uint32_t)1 << n) - 1;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int cell = r * n + c, b = (r / br) * per_row + c / bc;
            int k = (r % br) * bc + c % bc;
            st->cu[cell][0] = (uint8_t)r;
            st->cu[cell][1] = (uint8_t)c;
            st->cu[cell][2] = (uint8_t)b;
            st->ci[cell][0] = (uint8_t)c;
            st->ci[cell][1] = (uint8_t)r;
            st->ci[cell][2] = (uint8_t)k;
            st->unit_cell[r][c] = (uint16_t)cell;
            st->unit_cell[n + c][r] = (uint16_t)cell;
            st->unit_cell[2 * n + b][k] = (uint16_t)cell;
        }
}

sudoku_logic_t *sudoku_logic_new(const sudoku_shape_t *shape) {
    size_t off[5], total;
    int n, npeers;
    if (shape == NULL || sudoku_shape_check(shape) != 0 || shape->n > SUDOKU_LOGIC_MAX_N)
        return NULL;
    n = shape->n;
    npeers = 2 * (n - 1) + (n - shape->box_rows - shape->box_cols + 1);
    total = sl_layout(n, npeers, off);
    unsigned char *mem = calloc(1, total);
    if (mem == NULL) return NULL;
    sudoku_logic_t *st = (sudoku_logic_t *)mem;
    sl_geometry(st, n, shape->box_rows, shape->box_cols);
    st->npeers = npeers;
    st->peers = (uint16_t *)(mem + off[0]);
    for (int c = 0; c < st->nn; c++) {
        int k = 0;
        for (int p = 0; p < st->nn; p++)
            if (sl_sees(st, c, p)) st->peers[c * npeers + k++] = (uint16_t)p;
    }
    st->nnodes = (uint32_t)(st->nn * n);
    st->seen = (uint32_t *)(mem + off[1]);
    st->parent = (int32_t *)(st->seen + 2 * st->nnodes);
    st->queue = st->parent + 2 * st->nnodes;
    st->tcand = (uint32_t *)(mem + off[2]);
    st->tq = (uint16_t *)(st->tcand + st->nn);
    st->tdone = (uint8_t *)(st->tq + st->nn);
    st->sub = (sudoku_logic_t *)(mem + off[3]);
    st->step = (sudoku_logic_step_t *)(mem + off[4]);
    return st;
}

void sudoku_logic_free(sudoku_logic_t *st) { free(st); }

int sudoku_logic_n(const sudoku_logic_t *st) { return st->n; }
int sudoku_logic_empty(const sudoku_logic_t *st) { return st->empty; }
uint32_t sudoku_logic_cand(const sudoku_logic_t *st, int cell) { return st->cand[cell]; }
void sudoku_logic_grid(const sudoku_logic_t *st, uint8_t *grid) {
    memcpy(grid, st->value, (size_t)st->nn);
}

void sudoku__logic_place(sudoku_logic_t *st, int c, int d) {
    uint32_t old = st->cand[c], b = SL_BIT(d);
    const uint16_t *pp = st->peers + (size_t)c * (size_t)st->npeers;
    st->value[c] = (uint8_t)d;
    st->cand[c] = 0;
    st->empty--;
    for (int k = 0; k < 3; k++) {
        int u = k * st->n + st->cu[c][k];
        uint32_t keep = ~((uint32_t)1 << st->ci[c][k]);
        for (uint32_t m = old; m; m &= m - 1)
            st->pos[u][sl_ctz(m)] &= keep;
        st->placed[u] |= b;
    }
    for (int i = 0; i < st->npeers; i++)
        if (st->cand[pp[i]] & b) sl_elim(st, pp[i], d);
}

int sudoku_logic_load(sudoku_logic_t *st, const uint8_t *grid) {
    int n = st->n;
    uint32_t upos = n == 32 ? 0xffffffffu : ((uint32_t)1 << n) - 1;
    for (int c = 0; c < st->nn; c++)
        if (grid[c] > n) return SEARCH_EINVAL;
    memset(st->value, 0, sizeof st->value);
    for (int c = 0; c < st->nn; c++)
        st->cand[c] = st->all;
    for (int u = 0; u < 3 * n; u++) {
        st->placed[u] = 0;
        for (int d = 0; d < n; d++)
            st->pos[u][d] = upos;
    }
    st->empty = st->nn;
    for (int c = 0; c < st->nn; c++) {
        int d = grid[c];
        if (d == 0) continue;
        if (!(st->cand[c] & SL_BIT(d))) return SUDOKU_ECONFLICT;
        sudoku__logic_place(st, c, d);
    }
    return 0;
}

int sudoku_logic_restrict(sudoku_logic_t *st, int cell, uint32_t mask) {
    if (cell < 0 || cell >= st->nn || st->value[cell]) return SEARCH_EINVAL;
    for (uint32_t m = st->cand[cell] & ~mask; m; m &= m - 1)
        sl_elim(st, cell, sl_ctz(m) + 1);
    return st->cand[cell] ? 0 : SUDOKU_LOGIC_ECONTRA;
}

int sudoku_logic_check(const sudoku_logic_t *st) {
    for (int c = 0; c < st->nn; c++)
        if (!st->value[c] && st->cand[c] == 0) return SUDOKU_LOGIC_ECONTRA;
    for (int u = 0; u < 3 * st->n; u++)
        for (uint32_t m = st->all & ~st->placed[u]; m; m &= m - 1)
            if (st->pos[u][sl_ctz(m)] == 0) return SUDOKU_LOGIC_ECONTRA;
    return 0;
}

void sudoku_logic_opts_init(sudoku_logic_opts_t *opts) {
    memset(opts, 0, sizeof *opts);
    opts->max_tech = SUDOKU_TECH_GUESS;
}

/* === Singles === */

/* Units in the order people scan them: boxes, rows, columns. */
static int sl_scan_unit(const sudoku_logic_t *st, int i) {
    int n = st->n;
    return i < n ? 2 * n + i : i - n;
}

/* The step of a single: digit d placed in cell c, proved by that cell and
 * candidate (and unit u, or -1 for a naked single).  Returns 1. */
static int single_step(sudoku_logic_step_t *s, sudoku_tech_t t, int u, int c, int d) {
    sl_step_begin(s, t);
    s->digit = (uint8_t)d;
    if (u >= 0) s->unit[0] = (int16_t)u;
    sl_add(s, SUDOKU_ITEM_PLACE, c, d);
    sl_add(s, SUDOKU_ITEM_CELL, c, 0);
    sl_add(s, SUDOKU_ITEM_CAND, c, d);
    return 1;
}

static int find_full_house(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    for (int i = 0; i < 3 * st->n; i++) {
        int u = sl_scan_unit(st, i);
        uint32_t miss = st->all & ~st->placed[u];
        if (sl_popcount(miss) != 1) continue;
        int d = sl_ctz(miss) + 1;
        uint32_t p = st->pos[u][d - 1];
        if (p == 0) continue; /* a contradiction; sudoku_logic_check reports it */
        return single_step(s, SUDOKU_TECH_FULL_HOUSE, u, st->unit_cell[u][sl_ctz(p)], d);
    }
    return 0;
}

static int find_naked_single(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    for (int c = 0; c < st->nn; c++) {
        uint32_t m = st->cand[c];
        if (m & (m - 1)) continue;
        if (m == 0) {
            if (!st->value[c]) return -1; /* no candidate left */
            continue;
        }
        return single_step(s, SUDOKU_TECH_NAKED_SINGLE, -1, c, sl_ctz(m) + 1);
    }
    return 0;
}

static int find_hidden_single(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    for (int i = 0; i < 3 * st->n; i++) {
        int u = sl_scan_unit(st, i);
        for (uint32_t miss = st->all & ~st->placed[u]; miss; miss &= miss - 1) {
            int d = sl_ctz(miss) + 1;
            uint32_t p = st->pos[u][d - 1];
            if (p == 0) return -1; /* no place left for d */
            if (p & (p - 1)) continue;
            return single_step(s, SUDOKU_TECH_HIDDEN_SINGLE, u, st->unit_cell[u][sl_ctz(p)], d);
        }
    }
    return 0;
}

/* === Locked candidates === */

/* Adds the digit's cells of unit u as proof. */
static void add_digit_cells(const sudoku_logic_t *st, sudoku_logic_step_t *s, int u, int d) {
    for (uint32_t p = st->pos[u][d - 1]; p; p &= p - 1) {
        int c = st->unit_cell[u][sl_ctz(p)];
        sl_add(s, SUDOKU_ITEM_CELL, c, 0);
        sl_add(s, SUDOKU_ITEM_CAND, c, d);
    }
}

/* In unit `from`, digit d only in cells that unit `to` also holds: d leaves
 * the rest of `to`.  Returns 1 with the step when something goes. */
static int locked_step(sudoku_logic_t *st, sudoku_logic_step_t *s, sudoku_tech_t t, int from,
                       int to, int d) {
    int n = st->n, any = 0;
    /* d's places in `from` all lie in `to`; `to` has more only if some go */
    if (sl_popcount(st->pos[to][d - 1]) == sl_popcount(st->pos[from][d - 1])) return 0;
    sl_step_begin(s, t);
    for (int k = 0; k < n; k++) {
        int c = st->unit_cell[to][k];
        int inside = 0;
        for (int j = 0; j < 3; j++)
            if (j * n + st->cu[c][j] == from) inside = 1;
        if (!inside) any |= sl_add_elim(st, s, c, d);
    }
    if (!any) return 0;
    s->digit = (uint8_t)d;
    s->unit[0] = (int16_t)from;
    s->unit[1] = (int16_t)to;
    add_digit_cells(st, s, from, d);
    return 1;
}

static int find_pointing(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    int n = st->n;
    for (int b = 0; b < n; b++) {
        int u = 2 * n + b;
        for (uint32_t miss = st->all & ~st->placed[u]; miss; miss &= miss - 1) {
            int d = sl_ctz(miss) + 1;
            uint32_t p = st->pos[u][d - 1], rows = 0, cols = 0;
            if (sl_popcount(p) < 2) continue;
            for (uint32_t q = p; q; q &= q - 1) {
                int k = sl_ctz(q);
                rows |= (uint32_t)1 << (k / st->bc);
                cols |= (uint32_t)1 << (k % st->bc);
            }
            int c0 = st->unit_cell[u][sl_ctz(p)];
            if (sl_popcount(rows) == 1 && st->bc < n &&
                locked_step(st, s, SUDOKU_TECH_POINTING, u, sl_row(st, c0), d))
                return 1;
            if (sl_popcount(cols) == 1 && st->br < n &&
                locked_step(st, s, SUDOKU_TECH_POINTING, u, sl_col(st, c0), d))
                return 1;
        }
    }
    return 0;
}

static int find_claiming(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    int n = st->n;
    for (int u = 0; u < 2 * n; u++) {
        int along = u < n ? st->bc : st->br; /* line cells per box */
        if (along == n) continue;            /* the box is this line */
        for (uint32_t miss = st->all & ~st->placed[u]; miss; miss &= miss - 1) {
            int d = sl_ctz(miss) + 1;
            uint32_t p = st->pos[u][d - 1], segs = 0;
            if (sl_popcount(p) < 2) continue;
            for (uint32_t q = p; q; q &= q - 1)
                segs |= (uint32_t)1 << (sl_ctz(q) / along);
            if (sl_popcount(segs) != 1) continue;
            int c0 = st->unit_cell[u][sl_ctz(p)];
            if (locked_step(st, s, SUDOKU_TECH_CLAIMING, u, sl_box(st, c0), d)) return 1;
        }
    }
    return 0;
}

/* === Naked and hidden subsets === */

typedef struct subset_s {
    int k; /* size wanted */
    int m; /* entries */
    uint32_t mask[SL_MAX_N];
    int id[SL_MAX_N]; /* cell (naked) or digit (hidden) */
    int pick[4];
} subset_t;

/* Depth-first over k-combinations in index order whose union of masks has
 * at most k bits; calls found() on each with exactly k.  Depth <= 4. */
static int subset_dfs(subset_t *ss, int depth, int from, uint32_t uni,
                      int (*found)(void *ctx, subset_t *ss, uint32_t uni), void *ctx) {
    if (depth == ss->k) return sl_popcount(uni) == ss->k ? found(ctx, ss, uni) : 0;
    for (int i = from; i <= ss->m - (ss->k - depth); i++) {
        uint32_t u2 = uni | ss->mask[i];
        if (sl_popcount(u2) > ss->k) continue;
        ss->pick[depth] = i;
        if (subset_dfs(ss, depth + 1, i + 1, u2, found, ctx)) return 1;
    }
    return 0;
}

typedef struct subset_ctx_s {
    sudoku_logic_t *st;
    sudoku_logic_step_t *s;
    int u;
    sudoku_tech_t tech;
} subset_ctx_t;

static int naked_found(void *vctx, subset_t *ss, uint32_t uni) {
    subset_ctx_t *x = vctx;
    sudoku_logic_t *st = x->st;
    int cells[4], any = 0, n = st->n;
    for (int i = 0; i < ss->k; i++)
        cells[i] = ss->id[ss->pick[i]];
    sl_step_begin(x->s, x->tech);
    /* every unit that holds all k cells loses the digits elsewhere */
    for (int kind = 0; kind < 3; kind++) {
        int common = 1;
        for (int i = 1; i < ss->k; i++)
            if (st->cu[cells[i]][kind] != st->cu[cells[0]][kind]) common = 0;
        if (!common) continue;
        int u = kind * n + st->cu[cells[0]][kind];
        for (int j = 0; j < n; j++) {
            int c = st->unit_cell[u][j], mine = 0;
            for (int i = 0; i < ss->k; i++)
                if (cells[i] == c) mine = 1;
            if (mine || !(st->cand[c] & uni)) continue;
            for (uint32_t m = st->cand[c] & uni; m; m &= m - 1) {
                int d = sl_ctz(m) + 1, dup = 0;
                for (int t = 0; t < x->s->nitems; t++)
                    if (x->s->items[t].cell == c && x->s->items[t].value == d) dup = 1;
                if (!dup) any |= sl_add_elim(st, x->s, c, d);
            }
        }
    }
    if (!any) return 0;
    x->s->digits = uni;
    x->s->size = (uint8_t)ss->k;
    x->s->unit[0] = (int16_t)x->u;
    for (int i = 0; i < ss->k; i++) {
        sl_add(x->s, SUDOKU_ITEM_CELL, cells[i], 0);
        for (uint32_t m = st->cand[cells[i]]; m; m &= m - 1)
            sl_add(x->s, SUDOKU_ITEM_CAND, cells[i], sl_ctz(m) + 1);
    }
    return 1;
}

static int hidden_found(void *vctx, subset_t *ss, uint32_t uni) {
    subset_ctx_t *x = vctx;
    sudoku_logic_t *st = x->st;
    uint32_t digits = 0;
    int any = 0;
    for (int i = 0; i < ss->k; i++)
        digits |= SL_BIT(ss->id[ss->pick[i]]);
    sl_step_begin(x->s, x->tech);
    for (uint32_t q = uni; q; q &= q - 1) {
        int c = st->unit_cell[x->u][sl_ctz(q)];
        for (uint32_t m = st->cand[c] & ~digits; m; m &= m - 1)
            any |= sl_add_elim(st, x->s, c, sl_ctz(m) + 1);
    }
    if (!any) return 0;
    x->s->digits = digits;
    x->s->size = (uint8_t)ss->k;
    x->s->unit[0] = (int16_t)x->u;
    for (uint32_t q = uni; q; q &= q - 1) {
        int c = st->unit_cell[x->u][sl_ctz(q)];
        sl_add(x->s, SUDOKU_ITEM_CELL, c, 0);
        for (uint32_t m = st->cand[c] & digits; m; m &= m - 1)
            sl_add(x->s, SUDOKU_ITEM_CAND, c, sl_ctz(m) + 1);
    }
    return 1;
}

static int find_subset(sudoku_logic_t *st, sudoku_logic_step_t *s, int k, int hidden) {
    static const sudoku_tech_t naked_t[5] = {0, 0, SUDOKU_TECH_NAKED_PAIR, SUDOKU_TECH_NAKED_TRIPLE,
                                             SUDOKU_TECH_NAKED_QUAD};
    static const sudoku_tech_t hidden_t[5] = {0, 0, SUDOKU_TECH_HIDDEN_PAIR,
                                              SUDOKU_TECH_HIDDEN_TRIPLE, SUDOKU_TECH_HIDDEN_QUAD};
    subset_t ss;
    subset_ctx_t ctx = {st, s, 0, hidden ? hidden_t[k] : naked_t[k]};
    int n = st->n;
    ss.k = k;
    for (int i = 0; i < 3 * n; i++) {
        int u = sl_scan_unit(st, i), open = n - sl_popcount(st->placed[u]);
        if (open <= k) continue; /* nothing else in the unit to remove from */
        ss.m = 0;
        if (!hidden) {
            for (int j = 0; j < n; j++) {
                int c = st->unit_cell[u][j], pc = sl_popcount(st->cand[c]);
                if (pc >= 2 && pc <= k) {
                    ss.mask[ss.m] = st->cand[c];
                    ss.id[ss.m++] = c;
                }
            }
        } else {
            for (uint32_t miss = st->all & ~st->placed[u]; miss; miss &= miss - 1) {
                int d = sl_ctz(miss) + 1, pc = sl_popcount(st->pos[u][d - 1]);
                if (pc >= 2 && pc <= k) {
                    ss.mask[ss.m] = st->pos[u][d - 1];
                    ss.id[ss.m++] = d;
                }
            }
        }
        if (ss.m < k) continue;
        ctx.u = u;
        if (subset_dfs(&ss, 0, 0, 0, hidden ? hidden_found : naked_found, &ctx)) return 1;
    }
    return 0;
}

/* === The step loop === */

static int find(sudoku_logic_t *st, sudoku_tech_t t, const sudoku_logic_opts_t *o, uint64_t budget,
                uint64_t *work, sudoku_logic_step_t *s) {
    switch (t) {
    case SUDOKU_TECH_FULL_HOUSE: return find_full_house(st, s);
    case SUDOKU_TECH_NAKED_SINGLE: return find_naked_single(st, s);
    case SUDOKU_TECH_HIDDEN_SINGLE: return find_hidden_single(st, s);
    case SUDOKU_TECH_POINTING: return find_pointing(st, s);
    case SUDOKU_TECH_CLAIMING: return find_claiming(st, s);
    case SUDOKU_TECH_NAKED_PAIR: return find_subset(st, s, 2, 0);
    case SUDOKU_TECH_HIDDEN_PAIR: return find_subset(st, s, 2, 1);
    case SUDOKU_TECH_NAKED_TRIPLE: return find_subset(st, s, 3, 0);
    case SUDOKU_TECH_X_WING: return sudoku__logic_fish(st, 2, s);
    case SUDOKU_TECH_HIDDEN_TRIPLE: return find_subset(st, s, 3, 1);
    case SUDOKU_TECH_XY_WING: return sudoku__logic_xy_wing(st, s);
    case SUDOKU_TECH_XYZ_WING: return sudoku__logic_xyz_wing(st, s);
    case SUDOKU_TECH_NAKED_QUAD: return find_subset(st, s, 4, 0);
    case SUDOKU_TECH_SWORDFISH: return sudoku__logic_fish(st, 3, s);
    case SUDOKU_TECH_HIDDEN_QUAD: return find_subset(st, s, 4, 1);
    case SUDOKU_TECH_UNIQUE_RECTANGLE:
        return o != NULL && o->assume_unique ? sudoku__logic_unique_rect(st, s) : 0;
    case SUDOKU_TECH_JELLYFISH: return sudoku__logic_fish(st, 4, s);
    case SUDOKU_TECH_SIMPLE_COLOURING: return sudoku__logic_colouring(st, s);
    case SUDOKU_TECH_X_CHAIN: return sudoku__logic_x_chain(st, budget, work, s);
    case SUDOKU_TECH_XY_CHAIN: return sudoku__logic_xy_chain(st, budget, work, s);
    case SUDOKU_TECH_AIC: return sudoku__logic_aic(st, budget, work, s);
    case SUDOKU_TECH_TRIAL:
        return o != NULL && o->solution != NULL ? sudoku__logic_trial(st, o, work, s) : 0;
    default: return 0;
    }
}

int sudoku_logic_next(sudoku_logic_t *st, const sudoku_logic_opts_t *opts,
                      sudoku_logic_step_t *step, uint64_t *work) {
    uint64_t dummy = 0, budget;
    sudoku_tech_t max = opts != NULL ? opts->max_tech : SUDOKU_TECH_GUESS;
    if (work == NULL) work = &dummy;
    if (st->empty == 0) return 0;
    budget = opts != NULL && opts->chain_budget ? opts->chain_budget : SUDOKU_LOGIC_CHAIN_BUDGET;
    for (int t = 0; t <= (int)max && t < SUDOKU_TECH_GUESS; t++) {
        if (t >= SUDOKU_TECH_X_CHAIN && opts != NULL && opts->ctl != NULL) {
            int rc = search_check_now(opts->ctl, 0);
            if (rc != 0) return rc;
        }
        int f = find(st, (sudoku_tech_t)t, opts, budget, work, step);
        if (f != 0) return f > 0 ? 1 : SUDOKU_LOGIC_ECONTRA;
    }
    return 0;
}

int sudoku_logic_apply(sudoku_logic_t *st, const sudoku_logic_step_t *step) {
    int bad = 0;
    for (int i = 0; i < step->nitems; i++) {
        const sudoku_logic_item_t *it = &step->items[i];
        if (it->kind == SUDOKU_ITEM_PLACE) {
            if (st->value[it->cell] == 0) {
                if (!(st->cand[it->cell] & SL_BIT(it->value))) bad = 1;
                sudoku__logic_place(st, it->cell, it->value);
            } else if (st->value[it->cell] != it->value) {
                bad = 1;
            }
        } else if (it->kind == SUDOKU_ITEM_ELIM) {
            sl_elim(st, it->cell, it->value);
            if (!st->value[it->cell] && st->cand[it->cell] == 0) bad = 1;
        }
    }
    return bad ? SUDOKU_LOGIC_ECONTRA : 0;
}

/* The medium-or-easier run of depth-1 trials: every step applied at once. */
int sudoku__logic_run_basic(sudoku_logic_t *st, uint64_t *work) {
    static const sudoku_tech_t order[] = {SUDOKU_TECH_FULL_HOUSE,    SUDOKU_TECH_NAKED_SINGLE,
                                          SUDOKU_TECH_HIDDEN_SINGLE, SUDOKU_TECH_POINTING,
                                          SUDOKU_TECH_CLAIMING,      SUDOKU_TECH_NAKED_PAIR,
                                          SUDOKU_TECH_HIDDEN_PAIR};
    for (;;) {
        sudoku_logic_step_t step; /* 4 KiB: on the stack, not allocated per trial */
        int found = 0;
        if (st->empty == 0) return 1;
        for (size_t i = 0; i < sizeof order / sizeof order[0] && !found; i++)
            found = find(st, order[i], NULL, 0, work, &step);
        if (found < 0) return -1;
        if (!found) return 0;
        (*work)++;
        if (sudoku_logic_apply(st, &step) != 0) return -1;
    }
}

/* Histogram of step weights in tenths, for the rating. */
#define SL_WBINS 128

static double sl_rating(const uint32_t *hist, int top) {
    double wmax = top / 10.0, e = 0.0, cap;
    if (top == 0) return 0.0;
    for (int i = 1; i <= top; i++) {
        double r = (i / 10.0) / wmax;
        e += hist[i] * (r * r) * (r * r);
    }
    cap = wmax >= 10.0 ? 0.99 : 0.099;
    e = e > 1.0 ? e - 1.0 : 0.0;
    return wmax + cap * e / (e + 8.0);
}

int sudoku_logic_grade(sudoku_logic_t *st, const sudoku_logic_opts_t *opts, sudoku_grade_t *g) {
    sudoku_logic_opts_t def;
    uint32_t hist[SL_WBINS];
    int top = 0, rc = 0;
    double hardest_w = -1.0;
    sudoku_logic_step_t *step = st->step;
    if (opts == NULL) {
        sudoku_logic_opts_init(&def);
        opts = &def;
    }
    memset(g, 0, sizeof *g);
    memset(hist, 0, sizeof hist);
    for (;;) {
        int f;
        if (opts->ctl != NULL && (g->steps & 15) == 0 && (rc = search_check_now(opts->ctl, 0)))
            break;
        f = sudoku_logic_next(st, opts, step, &g->work);
        if (f <= 0) {
            rc = f;
            break;
        }
        if (opts->on_step != NULL && (rc = opts->on_step(opts->ud, st, step)) != 0) break;
        int bin = (int)(step->weight * 10.0 + 0.5);
        if (bin >= SL_WBINS) bin = SL_WBINS - 1;
        hist[bin]++;
        if (bin > top) top = bin;
        if (step->weight > hardest_w) {
            hardest_w = step->weight;
            g->hardest = (sudoku_tech_t)step->tech;
        }
        g->counts[step->tech]++;
        g->steps++;
        if ((rc = sudoku_logic_apply(st, step)) != 0) break;
    }
    g->code = rc;
    g->solved = st->empty == 0;
    g->solved_by_logic =
        g->solved && g->counts[SUDOKU_TECH_TRIAL] == 0 && g->counts[SUDOKU_TECH_GUESS] == 0;
    g->rating = sl_rating(hist, top);
    g->level = sudoku_grade_level_of(g->rating);
    return rc;
}

static int sl_singles(sudoku_logic_t *st, const uint8_t *puzzle, int hidden) {
    int nq = 0, rc;
    uint64_t work = 0;
    for (int c = 0; c < st->nn; c++) {
        if (puzzle[c] > st->n) return SEARCH_EINVAL;
        if (puzzle[c]) {
            st->tcand[c] = SL_BIT(puzzle[c]);
            st->tdone[c] = 1;
            st->tq[nq++] = (uint16_t)c;
        } else {
            st->tcand[c] = st->all;
            st->tdone[c] = 0;
        }
    }
    rc = sudoku__logic_propagate(st, nq, hidden, &work);
    return rc == 1 ? 1 : rc == 0 ? 0 : SUDOKU_LOGIC_ECONTRA;
}

int sudoku_logic_singles(sudoku_logic_t *st, const uint8_t *puzzle, uint8_t *out) {
    int rc = sl_singles(st, puzzle, 1);
    if (out != NULL && rc >= 0)
        for (int c = 0; c < st->nn; c++) {
            uint32_t m = st->tcand[c];
            out[c] = (m && !(m & (m - 1))) ? (uint8_t)(sl_ctz(m) + 1) : 0;
        }
    return rc;
}

int sudoku_logic_naked(sudoku_logic_t *st, const uint8_t *puzzle) {
    return sl_singles(st, puzzle, 0);
}

int sudoku_logic_load_singles(sudoku_logic_t *st, const uint8_t *puzzle) {
    int rc = sudoku_logic_singles(st, puzzle, NULL), n = st->n;
    if (rc < 0) return rc;
    /* the state from the propagation's candidates, without replaying it */
    memset(st->value, 0, sizeof st->value);
    memset(st->placed, 0, sizeof st->placed);
    memset(st->pos, 0, sizeof st->pos);
    st->empty = 0;
    for (int c = 0; c < st->nn; c++) {
        uint32_t m = st->tcand[c];
        if (st->tdone[c]) {
            st->value[c] = (uint8_t)(sl_ctz(m) + 1);
            st->cand[c] = 0;
            for (int k = 0; k < 3; k++)
                st->placed[k * n + st->cu[c][k]] |= m;
            continue;
        }
        st->cand[c] = m;
        st->empty++;
        for (int k = 0; k < 3; k++) {
            int u = k * n + st->cu[c][k];
            uint32_t bit = (uint32_t)1 << st->ci[c][k];
            for (; m; m &= m - 1)
                st->pos[u][sl_ctz(m)] |= bit;
            m = st->cand[c];
        }
    }
    return rc;
}

/* === Result codes === */

/* The codes of logic.h by name and sentence, for search_code_name() and
 * search_code_str() (the Makefile lists this table with every puzzle's). */
const search_code_t sudoku_logic_codes[] = {
    SEARCH_CODE(SUDOKU_LOGIC_ECONTRA,
                "the candidates contradict (a cell or a digit has no place left)"),
    {0, NULL, NULL}};
