/* sudoku/als.c -- almost locked sets: ALS-XZ and ALS-XY-wing.
 *
 * An almost locked set (ALS) is N empty cells of one unit whose candidates
 * together are N+1 digits.  The cells of a unit hold distinct digits, so
 * the set holds all of those digits but one: take one digit away (it
 * cannot be anywhere in the set) and the other N are locked in it.  That
 * holds in every unit of every model, exact or not (a unit never repeats
 * a digit), so every unit is read.  A bivalue cell is an ALS of one cell.
 *
 * A digit x is a restricted common candidate (RCC) of two sets A and B with
 * no cell in common when both have it and every cell of A that has x sees
 * every cell of B that has x: x is then in A or in B, never in both.
 *
 * ALS-XZ: A and B with an RCC x.  One of them lacks x, so it holds all its
 *   other digits; every other digit z of both is then in A or in B, and a
 *   cell that sees every z of A and of B cannot be z.
 *   Doubly linked (two RCCs x1, x2): each set lacks x1 or x2 (lacking
 *   another digit it would hold both, and the other set neither, one digit
 *   too few for its cells), so every other digit d of A is in A: a cell
 *   that sees all the d of A cannot be d (cells of B included), the same
 *   for B; and x1 (x2) is in exactly one of them, so a cell that sees all
 *   the x1 of both cannot be x1.  Three RCCs cannot happen (each set would
 *   hold two of the three), so such a pair is skipped.
 * ALS-XY-wing: a pivot C shares an RCC x with A and an RCC y with B,
 *   x != y.  C lacks at most one digit, so it holds x (then A lacks it) or
 *   y (then B lacks it): A or B is locked without its RCC, so a digit z of
 *   both A and B, z != x, y, is in A or in B, and a cell seeing every z of
 *   both cannot be z.  The three sets have no cell in common.
 * Every rule ends the same way: a digit is in one cell of a group, so it
 * leaves every other cell that sees the whole group (als_group_elims).
 * "Sees" is any shared unit; pair and line rules only ever take candidates
 * away, which the argument does not mind: the steps are sound on every
 * model, with or without a unique solution.
 *
 * Search: the sets first, smallest first (every unit by number for one
 * cell, then two, ... up to ALS_MAX_CELLS = 4); cells with more
 * candidates than a set of that size may have are left out before the
 * combinations (what keeps 16x16 and 25x25 grids cheap), and a set found
 * again in a later unit (two cells of a row and a box) is kept once, in
 * its first unit.  At most ALS_MAX sets, in that order (the rest are not
 * looked at; top1465 needs 276 at most).  Then the fewest cells in all
 * win, ties going to the first found:
 *   ALS-XZ    pairs (a, b), a before b in the list;
 *   ALS-XY-wing  the RCC graph (every pair with an RCC, at most
 *             ALS_MAX_EDGES edges, the rest dropped), then each set in list
 *             order as the pivot and its partners' pairs in list order.
 * The list grows by size, so a search that has found something goes on
 * only through smaller combinations, and stops where none can be.
 * RCCs are found one set a against all later ones: ok[c] marks, for the
 * peers of a's cells, the digits of a that c has and whose every place in
 * a it sees (als_sees_mark); a's RCCs with b are then the common digits no
 * cell of b has outside its ok.
 * Cap on work: one unit per combination tried while listing, per pair of
 * sets compared, per pair of partners; past the budget the search stops
 * with the best so far (as the chains do).  Deterministic: no clock, fixed
 * orders.  Memory: the set list and the graph on the stack (about 9 KiB
 * for ALS-XZ, 28 KiB for ALS-XY-wing), the sees marks in st->facc (nn
 * words, the forcing chains' scratch: a model's frame may have more cells
 * than n * n, up to SUDOKU_MODEL_MAX_CELLS). */
#include "solvers/sudoku/logic_internal.h"

#define ALS_MAX_CELLS 4
#define ALS_MAX       384
#define ALS_MAX_EDGES 1536

typedef struct als_s {
    uint64_t bloom;  /* bit c % 64 for each cell c: most sets without a common cell differ here */
    uint32_t digits; /* the union of the cells' candidates: size + 1 digits */
    uint16_t cell[ALS_MAX_CELLS];
    uint8_t size;
} als_t;

typedef struct als_search_s {
    sudoku_logic_t *st;
    uint64_t budget, spent;
    int count;
    als_t list[ALS_MAX];
} als_search_t;

/* Whether a unit before u (by number) holds every cell of the set: it was
 * listed there. */
static int als_listed_before(const sudoku_logic_t *st, int u, const uint16_t *cell, int size) {
    const uint16_t *cu = sl_units(st, cell[0]);
    for (int j = 0; j < st->ncu[cell[0]]; j++) {
        int v = cu[j], all = 1;
        if (v >= u) continue;
        for (int i = 1; i < size && all; i++)
            all = sl_in_unit(st, cell[i], v);
        if (all) return 1;
    }
    return 0;
}

/* Lists the sets of `size` cells of unit u.  Returns 1 when the budget ran
 * out. */
static int als_list_unit(als_search_t *as, int u, int size) {
    const sudoku_logic_t *st = as->st;
    const uint16_t *uc = sl_ucells(st, u);
    uint16_t cells[SL_MAX_N], pick[ALS_MAX_CELLS];
    uint32_t acc[ALS_MAX_CELLS + 1];
    int idx[ALS_MAX_CELLS], m = 0, depth = 0;
    for (int k = 0; k < st->ulen[u]; k++) {
        uint32_t cm = st->cand[uc[k]];
        if (cm != 0 && sl_popcount(cm) <= size + 1) cells[m++] = uc[k];
    }
    if (m < size) return 0;
    /* combinations idx[0] < idx[1] < ... < idx[size-1] of cells[0..m),
     * acc[k] = the candidates of the first k; a union past size + 1
     * digits is cut at once */
    acc[0] = 0;
    idx[0] = 0;
    while (depth >= 0) {
        if (idx[depth] > m - (size - depth)) {
            if (--depth >= 0) idx[depth]++;
            continue;
        }
        if (++as->spent > as->budget) return 1;
        uint32_t a = acc[depth] | st->cand[cells[idx[depth]]];
        if (sl_popcount(a) > size + 1) {
            idx[depth]++;
            continue;
        }
        if (depth + 1 < size) {
            acc[depth + 1] = a;
            idx[depth + 1] = idx[depth] + 1;
            depth++;
            continue;
        }
        if (sl_popcount(a) == size + 1) {
            for (int i = 0; i < size; i++)
                pick[i] = cells[idx[i]];
            if (!als_listed_before(st, u, pick, size)) {
                if (as->count == ALS_MAX) return 0;
                als_t *s = &as->list[as->count++];
                s->digits = a;
                s->bloom = 0;
                for (int i = 0; i < size; i++)
                    s->bloom |= (uint64_t)1 << (pick[i] & 63);
                s->size = (uint8_t)size;
                memcpy(s->cell, pick, (size_t)size * sizeof pick[0]);
            }
        }
        idx[depth]++;
    }
    return 0;
}

/* Fills as->list, smallest sets first.  Returns 1 when the budget ran out. */
static int als_list(als_search_t *as, sudoku_logic_t *st, uint64_t budget) {
    as->st = st;
    as->budget = budget;
    as->spent = 0;
    as->count = 0;
    for (int size = 1; size <= ALS_MAX_CELLS; size++)
        for (int u = 0; u < st->nunits && as->count < ALS_MAX; u++)
            if (als_list_unit(as, u, size)) return 1;
    return 0;
}

/* Whether two sets share a cell. */
static int als_overlap(const als_t *a, const als_t *b) {
    if (!(a->bloom & b->bloom)) return 0;
    for (int i = 0; i < a->size; i++)
        for (int j = 0; j < b->size; j++)
            if (a->cell[i] == b->cell[j]) return 1;
    return 0;
}

/* The candidates as bitsets (st->dbits): row d-1 = the cells with d. */
static void als_dbits(sudoku_logic_t *st) {
    size_t sw = (size_t)st->sw;
    memset(st->dbits, 0, (size_t)st->n * sw * sizeof st->dbits[0]);
    for (int c = 0; c < st->nn; c++)
        for (uint32_t m = st->cand[c]; m; m &= m - 1)
            st->dbits[(size_t)sl_ctz(m) * sw + ((unsigned)c >> 6)] |= (uint64_t)1 << (c & 63);
}

/* acc = the cells with candidate d that see every one of g[0..k) (k >= 1):
 * the rows of the sees matrix and of d ANDed, sw words.  A cell does not
 * see itself, so g's cells are never in it.  Returns whether any is. */
static int als_see_all(const sudoku_logic_t *st, const int *g, int k, int d, uint64_t *acc) {
    size_t sw = (size_t)st->sw;
    const uint64_t *dr = st->dbits + (size_t)(d - 1) * sw;
    uint64_t any = 0;
    for (size_t w = 0; w < sw; w++) {
        uint64_t x = dr[w];
        for (int i = 0; i < k && x; i++)
            x &= st->sees[(size_t)g[i] * sw + w];
        acc[w] = x;
        any |= x;
    }
    return any != 0;
}

/* RCCs against one set a at a time: ok[c] = the digits x of a that cell c
 * has and for which c sees every cell of a with x; 0 elsewhere.  Then the
 * RCCs of a and a set b without a common cell are the common digits that
 * no cell of b has outside ok (als_rcc), a few loads per pair where
 * comparing cell with cell took a sees test per two cells. */
typedef struct als_sees_s {
    uint32_t *ok; /* st->facc: nn words (a model's frame may pass n * n cells) */
} als_sees_t;

/* Sets (on = 1) or clears (on = 0) ok for set a: only peers of a's cells
 * are touched, so clearing is the same walk. */
static void als_sees_mark(const sudoku_logic_t *st, als_sees_t *sv, const als_t *a, int on) {
    uint64_t acc[SUDOKU_MODEL_MAX_CELLS / 64];
    for (uint32_t m = a->digits; m; m &= m - 1) {
        uint32_t bit = m & (~m + 1);
        int g[ALS_MAX_CELLS], k = 0;
        for (int i = 0; i < a->size; i++)
            if (st->cand[a->cell[i]] & bit) g[k++] = a->cell[i];
        if (!als_see_all(st, g, k, sl_ctz(bit) + 1, acc)) continue;
        for (int w = 0; w < st->sw; w++)
            for (uint64_t x = acc[w]; x; x &= x - 1) {
                int p = w * 64 + __builtin_ctzll(x);
                sv->ok[p] = on ? sv->ok[p] | bit : 0;
            }
    }
}

/* The RCCs of the marked set a and b (no common cell). */
static uint32_t als_rcc(const sudoku_logic_t *st, const als_sees_t *sv, const als_t *a,
                        const als_t *b) {
    uint32_t bad = 0;
    for (int j = 0; j < b->size; j++)
        bad |= st->cand[b->cell[j]] & ~sv->ok[b->cell[j]];
    return a->digits & b->digits & ~bad;
}

/* Digit d is in one of the cells of sets[0..nsets) that have it (the
 * group): removes it from every other cell that sees the whole group.
 * Adds the eliminations to s when s != NULL (once each: two groups may
 * reach one cell); returns how many there are. */
static int als_group_elims(const sudoku_logic_t *st, const als_t *const *sets, int nsets, int d,
                           sudoku_logic_step_t *s) {
    uint64_t acc[SUDOKU_MODEL_MAX_CELLS / 64];
    int g[3 * ALS_MAX_CELLS], k = 0, count = 0;
    uint32_t bit = SL_BIT(d);
    for (int i = 0; i < nsets; i++)
        for (int j = 0; j < sets[i]->size; j++)
            if (st->cand[sets[i]->cell[j]] & bit) g[k++] = sets[i]->cell[j];
    if (k == 0 || !als_see_all(st, g, k, d, acc)) return 0;
    for (int w = 0; w < st->sw; w++) {
        if (s == NULL) {
            count += __builtin_popcountll(acc[w]);
            continue;
        }
        for (uint64_t x = acc[w]; x; x &= x - 1) {
            int p = w * 64 + __builtin_ctzll(x), dup = 0;
            for (int t = 0; t < s->nitems && !dup; t++)
                dup = s->items[t].kind == SUDOKU_ITEM_ELIM && s->items[t].cell == p &&
                      s->items[t].value == d;
            if (dup || !sl_add_elim(st, s, p, d)) continue;
            count++;
        }
    }
    return count;
}

/* ALS-XZ eliminations of a and b with RCCs rcc (one or two digits). */
static int als_xz_elims(const sudoku_logic_t *st, const als_t *a, const als_t *b, uint32_t rcc,
                        sudoku_logic_step_t *s) {
    const als_t *both[2] = {a, b};
    int count = 0;
    if (sl_popcount(rcc) == 1) {
        for (uint32_t m = (a->digits & b->digits) & ~rcc; m; m &= m - 1)
            count += als_group_elims(st, both, 2, sl_ctz(m) + 1, s);
        return count;
    }
    /* doubly linked, digit by digit: each RCC over both sets, then each
     * set's other digits over that set alone */
    for (uint32_t m = a->digits | b->digits; m; m &= m - 1) {
        int d = sl_ctz(m) + 1;
        if (rcc & SL_BIT(d)) {
            count += als_group_elims(st, both, 2, d, s);
            continue;
        }
        if (a->digits & SL_BIT(d)) count += als_group_elims(st, both, 1, d, s);
        if (b->digits & SL_BIT(d)) count += als_group_elims(st, both + 1, 1, d, s);
    }
    return count;
}

/* The step's parts: the sets' cells in order; digit = the one value
 * removed, 0 when several. */
static void als_step_cells(sudoku_logic_step_t *s, const als_t *const *sets, int nsets) {
    int d = -1;
    for (int i = 0; i < s->nitems; i++)
        if (s->items[i].kind == SUDOKU_ITEM_ELIM)
            d = d < 0 || d == s->items[i].value ? s->items[i].value : 0;
    s->digit = (uint8_t)(d > 0 ? d : 0);
    for (int i = 0; i < nsets; i++) {
        s->parts[i] = sets[i]->size;
        for (int j = 0; j < sets[i]->size; j++)
            sl_add(s, SUDOKU_ITEM_CELL, sets[i]->cell[j], 0);
    }
}

int sudoku__logic_als_xz(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                         sudoku_logic_step_t *step) {
    als_search_t as;
    als_sees_t sv;
    int best = 2 * ALS_MAX_CELLS + 1, ba = -1, bb = -1;
    uint32_t brcc = 0;
    if (als_list(&as, st, budget)) goto out;
    als_dbits(st);
    sv.ok = st->facc;
    memset(sv.ok, 0, (size_t)st->nn * sizeof sv.ok[0]);
    /* the list grows by size: b after a is no smaller, so a pair as big
     * as the best ends a's run, and a set half the best ends the search */
    for (int i = 0; i < as.count && 2 * as.list[i].size < best; i++) {
        const als_t *a = &as.list[i];
        int stop = 0;
        als_sees_mark(st, &sv, a, 1);
        for (int j = i + 1; j < as.count && a->size + as.list[j].size < best; j++) {
            const als_t *b = &as.list[j];
            if (++as.spent > as.budget) {
                stop = 1;
                break;
            }
            if (sl_popcount(a->digits & b->digits) < 2 || als_overlap(a, b)) continue;
            uint32_t rcc = als_rcc(st, &sv, a, b);
            int nr = sl_popcount(rcc);
            if (nr == 0 || nr > 2 || als_xz_elims(st, a, b, rcc, NULL) == 0) continue;
            best = a->size + b->size;
            ba = i, bb = j, brcc = rcc;
        }
        als_sees_mark(st, &sv, a, 0);
        if (stop) break;
    }
out:
    *work += as.spent;
    if (ba < 0) return 0;
    {
        const als_t *sets[2] = {&as.list[ba], &as.list[bb]};
        sl_step_begin(step, SUDOKU_TECH_ALS_XZ);
        als_xz_elims(st, sets[0], sets[1], brcc, step);
        step->digits = brcc;
        als_step_cells(step, sets, 2);
        return 1;
    }
}

/* The RCC graph of ALS-XY-wing: an edge for every two sets with an RCC,
 * i < j, in (i, j) order (edges of set i from off[i], while a == i), and
 * their numbers again in order of j (those of set j: rev[roff[j] ..
 * roff[j+1])). */
typedef struct als_graph_s {
    int nedge;
    uint16_t a[ALS_MAX_EDGES], b[ALS_MAX_EDGES], rev[ALS_MAX_EDGES];
    uint32_t rcc[ALS_MAX_EDGES];
    uint16_t off[ALS_MAX + 1], roff[ALS_MAX + 1];
} als_graph_t;

/* Fills g from as->list.  Returns 1 when the budget ran out. */
static int als_graph(als_search_t *as, als_sees_t *sv, als_graph_t *g) {
    const sudoku_logic_t *st = as->st;
    int L = as->count;
    g->nedge = 0;
    memset(sv->ok, 0, (size_t)st->nn * sizeof sv->ok[0]);
    for (int i = 0; i < L; i++) {
        const als_t *x = &as->list[i];
        int stop = 0;
        g->off[i] = (uint16_t)g->nedge;
        als_sees_mark(st, sv, x, 1);
        for (int j = i + 1; j < L && g->nedge < ALS_MAX_EDGES; j++) {
            const als_t *y = &as->list[j];
            uint32_t rcc;
            if (++as->spent > as->budget) {
                stop = 1;
                break;
            }
            if (!(x->digits & y->digits) || als_overlap(x, y) || !(rcc = als_rcc(st, sv, x, y)))
                continue;
            g->a[g->nedge] = (uint16_t)i;
            g->b[g->nedge] = (uint16_t)j;
            g->rcc[g->nedge++] = rcc;
        }
        als_sees_mark(st, sv, x, 0);
        if (stop) return 1;
    }
    g->off[L] = (uint16_t)g->nedge;
    /* counting sort by b: roff[j] = the end of j's run, then its start */
    memset(g->roff, 0, sizeof g->roff);
    for (int e = 0; e < g->nedge; e++)
        g->roff[g->b[e]]++;
    for (int j = 1; j <= L; j++)
        g->roff[j] = (uint16_t)(g->roff[j] + g->roff[j - 1]);
    for (int e = g->nedge - 1; e >= 0; e--)
        g->rev[--g->roff[g->b[e]]] = (uint16_t)e;
    return 0;
}

/* The first (x, y) of ALS-XY-wing for pivot partners a and b that removes
 * something: *x, *y set, returns 1; else 0. */
static int als_wing_digits(const sudoku_logic_t *st, const als_t *a, const als_t *b, uint32_t ra,
                           uint32_t rb, uint32_t *x, uint32_t *y) {
    const als_t *both[2] = {a, b};
    uint32_t common = a->digits & b->digits;
    for (uint32_t mx = ra; mx; mx &= mx - 1)
        for (uint32_t my = rb & ~(mx & (~mx + 1)); my; my &= my - 1) {
            uint32_t bx = mx & (~mx + 1), by = my & (~my + 1);
            for (uint32_t mz = common & ~(bx | by); mz; mz &= mz - 1)
                if (als_group_elims(st, both, 2, sl_ctz(mz) + 1, NULL) > 0) {
                    *x = bx;
                    *y = by;
                    return 1;
                }
        }
    return 0;
}

int sudoku__logic_als_xy_wing(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                              sudoku_logic_step_t *step) {
    als_search_t as;
    als_graph_t g;
    als_sees_t sv;
    uint16_t part[ALS_MAX];
    uint32_t prcc[ALS_MAX];
    int best = 3 * ALS_MAX_CELLS + 1, bc = -1, ba = -1, bb = -1;
    uint32_t bx = 0, by = 0;
    sv.ok = st->facc;
    if (als_list(&as, st, budget)) goto out;
    als_dbits(st);
    if (als_graph(&as, &sv, &g)) goto out;
    for (int c = 0; c < as.count; c++) {
        const als_t *pc = &as.list[c];
        int np = 0;
        /* the list grows by size: a pivot this big and two single cells are no
         * better than the best */
        if (pc->size + 2 >= best) break;
        /* partners in list order: the sets before c, then after */
        for (int r = g.roff[c]; r < g.roff[c + 1]; r++) {
            part[np] = g.a[g.rev[r]];
            prcc[np++] = g.rcc[g.rev[r]];
        }
        for (int e = g.off[c]; e < g.off[c + 1]; e++) {
            part[np] = g.b[e];
            prcc[np++] = g.rcc[e];
        }
        for (int i = 0; i < np; i++) {
            const als_t *a = &as.list[part[i]];
            if (pc->size + a->size + 1 >= best) continue;
            for (int k = i + 1; k < np; k++) {
                const als_t *b = &as.list[part[k]];
                uint32_t x, y;
                if (++as.spent > as.budget) goto out;
                if (pc->size + a->size + b->size >= best || !(a->digits & b->digits) ||
                    als_overlap(a, b) || !als_wing_digits(st, a, b, prcc[i], prcc[k], &x, &y))
                    continue;
                best = pc->size + a->size + b->size;
                bc = c, ba = part[i], bb = part[k], bx = x, by = y;
            }
        }
    }
out:
    *work += as.spent;
    if (bc < 0) return 0;
    {
        const als_t *sets[3] = {&as.list[ba], &as.list[bb], &as.list[bc]};
        sl_step_begin(step, SUDOKU_TECH_ALS_XY_WING);
        for (uint32_t mz = (sets[0]->digits & sets[1]->digits) & ~(bx | by); mz; mz &= mz - 1)
            als_group_elims(st, sets, 2, sl_ctz(mz) + 1, step);
        step->digits = bx | by;
        als_step_cells(step, sets, 3);
        return 1;
    }
}
