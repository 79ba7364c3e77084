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
 * Units as data: the state reads its model (sudoku/model.h) -- a classic
 * shape's model numbers rows, columns and boxes as this engine always did,
 * so a classic grid's steps, and so its grades, are what they were.  What
 * each technique needs of a unit, and what it is kept from on a variant, is
 * in logic.h; the scans go through units in `scan` order (boxes and the
 * other non-lines, then rows, then columns).
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
    {"full-house", 1.0, SUDOKU_GRADE_EASY},
    {"naked-single", 1.2, SUDOKU_GRADE_EASY},
    {"hidden-single", 1.5, SUDOKU_GRADE_EASY},
    {"cage-combination", 1.6, SUDOKU_GRADE_EASY},
    {"consecutive", 1.7, SUDOKU_GRADE_EASY},
    {"pair-relation", 1.8, SUDOKU_GRADE_EASY},
    {"thermo", 1.9, SUDOKU_GRADE_EASY},
    {"pointing", 2.0, SUDOKU_GRADE_MEDIUM},
    {"arrow", 2.1, SUDOKU_GRADE_MEDIUM},
    {"claiming", 2.2, SUDOKU_GRADE_MEDIUM},
    {"cage-locked", 2.3, SUDOKU_GRADE_MEDIUM},
    {"naked-pair", 2.4, SUDOKU_GRADE_MEDIUM},
    {"hidden-pair", 2.6, SUDOKU_GRADE_MEDIUM},
    {"innies-outies", 2.8, SUDOKU_GRADE_MEDIUM},
    {"naked-triple", 3.0, SUDOKU_GRADE_HARD},
    {"cage-splitting", 3.1, SUDOKU_GRADE_HARD},
    {"x-wing", 3.2, SUDOKU_GRADE_HARD},
    {"hidden-triple", 3.4, SUDOKU_GRADE_HARD},
    {"finned-x-wing", 3.5, SUDOKU_GRADE_HARD},
    {"xy-wing", 3.6, SUDOKU_GRADE_HARD},
    {"xyz-wing", 3.8, SUDOKU_GRADE_HARD},
    {"naked-quad", 4.0, SUDOKU_GRADE_EXPERT},
    {"swordfish", 4.2, SUDOKU_GRADE_EXPERT},
    {"finned-swordfish", 4.3, SUDOKU_GRADE_EXPERT},
    {"hidden-quad", 4.4, SUDOKU_GRADE_EXPERT},
    {"unique-rectangle", 4.6, SUDOKU_GRADE_EXPERT},
    {"jellyfish", 4.8, SUDOKU_GRADE_EXPERT},
    {"finned-jellyfish", 4.9, SUDOKU_GRADE_EXPERT},
    {"simple-colouring", 5.0, SUDOKU_GRADE_EXPERT},
    {"bug-plus-1", 5.1, SUDOKU_GRADE_EXPERT},
    {"x-chain", 5.2, SUDOKU_GRADE_EXPERT},
    {"xy-chain", 6.0, SUDOKU_GRADE_EXTREME},
    {"als-xz", 6.2, SUDOKU_GRADE_EXTREME},
    {"als-xy-wing", 6.5, SUDOKU_GRADE_EXTREME},
    {"aic", 7.0, SUDOKU_GRADE_EXTREME},
    {"grouped-aic", 7.3, SUDOKU_GRADE_EXTREME},
    {"cell-forcing-chain", 8.2, SUDOKU_GRADE_EXTREME},
    {"unit-forcing-chain", 8.4, SUDOKU_GRADE_EXTREME},
    {"dynamic-forcing-chain", 9.0, SUDOKU_GRADE_EXTREME},
    {"constraint", 10.0, SUDOKU_GRADE_BEYOND}, /* a machine step: see logic.h */
    {"trial", 10.0, SUDOKU_GRADE_BEYOND},
    {"nested-forcing-chain", 10.8, SUDOKU_GRADE_BEYOND},
    {"guess", 11.0, SUDOKU_GRADE_BEYOND},
};

static const char *const level_names[SUDOKU_GRADE_COUNT] = {"easy",   "medium",  "hard",
                                                            "expert", "extreme", "beyond-logic"};
static const double level_lo[SUDOKU_GRADE_COUNT + 1] = {0.0, 2.0, 3.0, 4.0, 6.0, 10.0, 1e9};

/* The most tenths a step of technique t adds to its base weight: chains
 * by length (chains.c: x 7, xy 9, aic 29), trial by depth (trial.c: 0.5 at
 * depth 1).  Kept in step with them: the generator's tests check every
 * grade they see against sudoku_grade_rating_possible(). */
static int tech_extra_tenths(int t) {
    switch (t) {
    case SUDOKU_TECH_X_CHAIN: return 7;
    case SUDOKU_TECH_XY_CHAIN: return 9;
    case SUDOKU_TECH_AIC: return 29;
    case SUDOKU_TECH_GROUPED_AIC: return 26;
    case SUDOKU_TECH_TRIAL: return 5;
    default: return 0;
    }
}

/* Whether technique t reads line rules (lines.c): never on the puzzles
 * the generators make, so not a rating they can reach. */
static int tech_reads_lines(int t) {
    return t == SUDOKU_TECH_CAGE_COMBINATION || t == SUDOKU_TECH_PAIR_RELATION ||
           t == SUDOKU_TECH_THERMO || t == SUDOKU_TECH_ARROW || t == SUDOKU_TECH_CAGE_LOCKED ||
           t == SUDOKU_TECH_INNIES_OUTIES || t == SUDOKU_TECH_CAGE_SPLITTING ||
           t == SUDOKU_TECH_CONSTRAINT;
}

/* Whether technique t reads killer cages with a total, and nothing else
 * of the line rules: the techniques a Killer's grade can use. */
static int tech_reads_cages(int t) {
    return t == SUDOKU_TECH_CAGE_COMBINATION || t == SUDOKU_TECH_CAGE_LOCKED ||
           t == SUDOKU_TECH_INNIES_OUTIES || t == SUDOKU_TECH_CAGE_SPLITTING;
}

/* sudoku_grade_rating_possible(), with the cage techniques counted when
 * cages is 1. */
static int rating_possible(double lo, double hi, int cages) {
    if (lo <= 0.0 && hi > 0.0) return 1; /* a full grid: nothing to do, rating 0 */
    for (int t = 0; t < SUDOKU_TECH_COUNT; t++)
        for (int k = 0;
             k <= tech_extra_tenths(t) && (!tech_reads_lines(t) || (cages && tech_reads_cages(t)));
             k++) {
            int bin = (int)(techs[t].weight * 10.0 + 0.5) + k; /* as the grade bins it */
            double w = bin / 10.0, cap = w >= 10.0 ? 0.99 : 0.099;
            if (w < hi && lo < w + cap) return 1;
        }
    return 0;
}

int sudoku_grade_rating_possible(double lo, double hi) { return rating_possible(lo, hi, 0); }

int sudoku_grade_rating_possible_cages(double lo, double hi) { return rating_possible(lo, hi, 1); }

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
    case SUDOKU_GRADE_EXTREME: return SUDOKU_TECH_DYNAMIC_FORCING_CHAIN;
    default: return SUDOKU_TECH_TRIAL;
    }
}

/* === State === */

/* Where each array of the block goes: the struct, the geometry, the
 * position, the chain, colouring and trial scratch, a second struct and
 * position for depth-1 trials, the step record. */
typedef struct sl_plan_s {
    size_t ucell, ulen, cu, ci, ncu, sees, umem, ovl_start, ovl_unit, ovl_mask, allowed, scan;
    size_t value, cand, pos, placed;
    size_t seen, parent, queue, next, gkey, gmask;
    size_t colour, cid, comp;
    size_t tcand, tq, tdone, facc, fmemo, fstamp, fres, dbits;
    size_t sub, svalue, scand, spos, splaced, step;
    size_t lkind, lgrid, lo, hi, lmark, lqueue, innies, total;
} sl_plan_t;

static void sl_plan(sl_plan_t *l, int n, int nn, int nunits, int K, int sw, int maxnext,
                    int nlines) {
    size_t at = 0, un = (size_t)nunits * (size_t)n, nodes = (size_t)nn * (size_t)n;
#define SL_ALIGN(x) (((x) + 15u) & ~(size_t)15u)
#define SL_PUT(f, bytes)                                                                           \
    do {                                                                                           \
        l->f = at;                                                                                 \
        at = SL_ALIGN(at + (bytes));                                                               \
    } while (0)
    at = SL_ALIGN(sizeof(struct sudoku_logic_s));
    SL_PUT(ucell, un * 2);
    SL_PUT(ulen, (size_t)nunits);
    SL_PUT(cu, (size_t)nn * (size_t)K * 2);
    SL_PUT(ci, (size_t)nn * (size_t)K);
    SL_PUT(ncu, (size_t)nn);
    SL_PUT(sees, (size_t)nn * (size_t)sw * 8);
    SL_PUT(umem, (size_t)nunits * (size_t)sw * 8);
    SL_PUT(ovl_start, ((size_t)nunits + 1) * 4);
    SL_PUT(ovl_unit, un * (size_t)(K - 1) * 2); /* a unit's cells' other units */
    SL_PUT(ovl_mask, un * (size_t)(K - 1) * 4);
    SL_PUT(allowed, (size_t)nn * 4);
    SL_PUT(scan, (size_t)nunits * 2);
    SL_PUT(value, (size_t)nn);
    SL_PUT(cand, (size_t)nn * 4);
    SL_PUT(pos, un * 4);
    SL_PUT(placed, (size_t)nunits * 4);
    /* chain states: the candidates' and as many groups' (chains.c) */
    SL_PUT(seen, 4 * nodes * 4);
    SL_PUT(parent, 4 * nodes * 4);
    SL_PUT(queue, 4 * nodes * 4);
    SL_PUT(next, (size_t)maxnext * 4);
    SL_PUT(gkey, nodes * 8);
    SL_PUT(gmask, nodes * 4);
    SL_PUT(colour, (size_t)nn);
    SL_PUT(cid, (size_t)nn * 2);
    SL_PUT(comp, (size_t)nn * 2);
    SL_PUT(tcand, (size_t)nn * 4);
    SL_PUT(tq, (size_t)nn * 2);
    SL_PUT(tdone, (size_t)nn);
    SL_PUT(facc, (size_t)nn * 4);
    SL_PUT(fmemo, sl_forcing_memo(n, nn) ? nodes * (size_t)nn * 4 : 0);
    SL_PUT(fstamp, nodes * 4);
    SL_PUT(fres, nodes);
    SL_PUT(dbits, (size_t)n * (size_t)sw * 8);
    SL_PUT(sub, sizeof(struct sudoku_logic_s));
    SL_PUT(svalue, (size_t)nn);
    SL_PUT(scand, (size_t)nn * 4);
    SL_PUT(spos, un * 4);
    SL_PUT(splaced, (size_t)nunits * 4);
    SL_PUT(step, sizeof(sudoku_logic_step_t));
    SL_PUT(lkind, (size_t)nlines);
    SL_PUT(lgrid, (size_t)nn);
    SL_PUT(lo, (size_t)nn);
    SL_PUT(hi, (size_t)nn);
    SL_PUT(lmark, (size_t)nlines);
    SL_PUT(lqueue, (size_t)nlines * 2);
    SL_PUT(innies, nlines > 0 ? SL_INNIES_CAP(nunits) * sizeof(sl_innie_t) : 0);
#undef SL_PUT
#undef SL_ALIGN
    l->total = at;
}

/* The overlap lists (logic_internal.h), after the unit lists.  st->seen
 * (4 n nn words, zero, more than the units) holds each other unit's mask
 * while unit u's cells are read, and is zero again after. */
static void sl_overlaps(sudoku_logic_t *st, unsigned char *mem, const sl_plan_t *l) {
    uint32_t *start = (uint32_t *)(void *)(mem + l->ovl_start);
    uint32_t *mask = (uint32_t *)(void *)(mem + l->ovl_mask);
    uint16_t *unit = (uint16_t *)(void *)(mem + l->ovl_unit);
    uint32_t *acc = (uint32_t *)(void *)(mem + l->seen), k = 0;
    for (int u = 0; u < st->nunits; u++) {
        uint32_t first = k;
        start[u] = k;
        for (int j = 0; j < st->ulen[u]; j++) {
            int c = sl_ucells(st, u)[j];
            for (int i = 0; i < st->ncu[c]; i++) {
                int v = sl_units(st, c)[i];
                if (v == u) continue;
                if (acc[v] == 0) { /* a new unit: insert it in number order */
                    uint32_t at = k++;
                    for (; at > first && unit[at - 1] > v; at--)
                        unit[at] = unit[at - 1];
                    unit[at] = (uint16_t)v;
                }
                acc[v] |= (uint32_t)1 << j;
            }
        }
        uint32_t w = first;
        for (uint32_t i = first; i < k; i++) { /* keep two or more cells */
            uint32_t x = acc[unit[i]];
            acc[unit[i]] = 0;
            if (sl_popcount(x) < 2) continue;
            unit[w] = unit[i];
            mask[w++] = x;
        }
        k = w;
    }
    start[st->nunits] = k;
    st->ovl_start = start;
    st->ovl_unit = unit;
    st->ovl_mask = mask;
}

/* The geometry of model m into the block (see logic_internal.h). */
static void sl_geometry(sudoku_logic_t *st, unsigned char *mem, const sl_plan_t *l) {
    const sudoku_model_t *m = st->m;
    uint16_t *ucell = (uint16_t *)(void *)(mem + l->ucell), *cu = (uint16_t *)(void *)(mem + l->cu);
    uint8_t *ulen = mem + l->ulen, *ci = mem + l->ci, *ncu = mem + l->ncu;
    uint64_t *sees = (uint64_t *)(void *)(mem + l->sees);
    uint64_t *umem = (uint64_t *)(void *)(mem + l->umem);
    uint32_t *allowed = (uint32_t *)(void *)(mem + l->allowed);
    uint16_t *scan = (uint16_t *)(void *)(mem + l->scan);
    int n = st->n, u, c, k = 0;
    for (u = 0; u < m->nunits; u++) {
        uint32_t a = m->unit_start[u];
        ulen[u] = (uint8_t)(m->unit_start[u + 1] - a);
        for (int j = 0; j < ulen[u]; j++) {
            int cell = m->unit_cells[a + (uint32_t)j];
            ucell[(size_t)u * (size_t)n + (size_t)j] = (uint16_t)cell;
            umem[(size_t)u * (size_t)st->sw + ((unsigned)cell >> 6)] |= (uint64_t)1 << (cell & 63);
            cu[(size_t)cell * (size_t)st->K + ncu[cell]] = (uint16_t)u;
            ci[(size_t)cell * (size_t)st->K + ncu[cell]] = (uint8_t)j;
            ncu[cell]++;
        }
    }
    for (c = 0; c < st->nn; c++) {
        allowed[c] = (uint32_t)m->allowed[c];
        for (uint32_t j = m->peer_start[c]; j < m->peer_start[c + 1]; j++)
            sees[(size_t)c * (size_t)st->sw + (m->peers[j] >> 6)] |= (uint64_t)1
                                                                     << (m->peers[j] & 63);
    }
    /* scan order: the non-lines, then rows, then columns, each by number */
    for (u = 0; u < m->nunits; u++)
        if (m->unit_kind[u] != SUDOKU_UNIT_ROW && m->unit_kind[u] != SUDOKU_UNIT_COL)
            scan[k++] = (uint16_t)u;
    st->lines_end[0] = k;
    for (u = 0; u < m->nunits; u++)
        if (m->unit_kind[u] == SUDOKU_UNIT_ROW) scan[k++] = (uint16_t)u;
    st->lines_end[1] = k;
    for (u = 0; u < m->nunits; u++)
        if (m->unit_kind[u] == SUDOKU_UNIT_COL) scan[k++] = (uint16_t)u;
    st->nscan = k;
    st->ucell = ucell;
    st->ulen = ulen;
    st->cu = cu;
    st->ci = ci;
    st->ncu = ncu;
    st->sees = sees;
    st->umem = umem;
    st->allowed = allowed;
    st->pstart = m->peer_start;
    st->peers = m->peers;
    st->all_exact = 1;
    for (u = 0; u < m->nunits; u++)
        if (ulen[u] != n) st->all_exact = 0;
    st->scan = scan;
    sl_overlaps(st, mem, l);
}

/* Points a state's position arrays at the block. */
static void sl_position(sudoku_logic_t *st, unsigned char *mem, size_t value, size_t cand,
                        size_t pos, size_t placed) {
    st->value = mem + value;
    st->cand = (uint32_t *)(void *)(mem + cand);
    st->pos = (uint32_t *)(void *)(mem + pos);
    st->placed = (uint32_t *)(void *)(mem + placed);
}

sudoku_logic_t *sudoku_logic_new_model(const sudoku_model_t *m) {
    return sudoku_logic_new_model_alloc(m, NULL);
}

sudoku_logic_t *sudoku_logic_new_model_alloc(const sudoku_model_t *m,
                                             const search_allocator_t *alloc) {
    sl_plan_t l;
    unsigned char *mem;
    sudoku_logic_t *st;
    int K = 1, maxpeers = 0, c;
    if (m == NULL || m->n > SUDOKU_LOGIC_MAX_N) return NULL;
    for (c = 0; c < m->ncells; c++) {
        int k = (int)(m->cell_start[c + 1] - m->cell_start[c]);
        int p = (int)(m->peer_start[c + 1] - m->peer_start[c]);
        if (k > K) K = k;
        if (p > maxpeers) maxpeers = p;
    }
    sl_plan(&l, m->n, m->ncells, m->nunits, K, (m->ncells + 63) / 64, maxpeers + m->n + K + 4,
            m->nlines);
    if (!search_allocator_ok(alloc)) return NULL;
    mem = search_alloc(alloc, l.total);
    if (mem == NULL) return NULL;
    memset(mem, 0, l.innies); /* the 45 rule's table, last, is filled when first read */
    st = (sudoku_logic_t *)(void *)mem;
    if (alloc != NULL) st->alloc = *alloc;
    st->m = m;
    st->n = m->n;
    st->nn = m->ncells;
    st->nunits = m->nunits;
    st->K = K;
    st->sw = (m->ncells + 63) / 64;
    st->all = m->n == 32 ? 0xffffffffu : ((uint32_t)1 << m->n) - 1;
    st->pairs = m->npairs > 0;
    st->ur = m->npairs == 0 && m->nrules == 0;
    st->lines = m->nrules > 0;
    st->lkind = (const int8_t *)(void *)(mem + l.lkind);
    sudoku__logic_line_kinds(m, (int8_t *)(void *)(mem + l.lkind));
    st->lgrid = mem + l.lgrid;
    st->lo = mem + l.lo;
    st->hi = mem + l.hi;
    st->lmark = mem + l.lmark;
    st->lqueue = (uint16_t *)(void *)(mem + l.lqueue);
    sl_geometry(st, mem, &l);
    sl_position(st, mem, l.value, l.cand, l.pos, l.placed);
    st->innies = (sl_innie_t *)(void *)(mem + l.innies);
    st->ninnies = -1; /* built at the first look (sudoku__logic_innies) */
    st->nnodes = (uint32_t)(st->nn * st->n);
    st->ngcap = st->nnodes;
    st->seen = (uint32_t *)(void *)(mem + l.seen);
    st->parent = (int32_t *)(void *)(mem + l.parent);
    st->queue = (int32_t *)(void *)(mem + l.queue);
    st->next = (int32_t *)(void *)(mem + l.next);
    st->gkey = (uint64_t *)(void *)(mem + l.gkey);
    st->gmask = (uint32_t *)(void *)(mem + l.gmask);
    st->maxnext = maxpeers + m->n + K + 4;
    st->colour = (int8_t *)(void *)(mem + l.colour);
    st->cid = (int16_t *)(void *)(mem + l.cid);
    st->comp = (uint16_t *)(void *)(mem + l.comp);
    st->tcand = (uint32_t *)(void *)(mem + l.tcand);
    st->tq = (uint16_t *)(void *)(mem + l.tq);
    st->tdone = mem + l.tdone;
    st->facc = (uint32_t *)(void *)(mem + l.facc);
    st->fmemo = sl_forcing_memo(st->n, st->nn) ? (uint32_t *)(void *)(mem + l.fmemo) : NULL;
    st->fstamp = (uint32_t *)(void *)(mem + l.fstamp);
    st->fres = (int8_t *)(void *)(mem + l.fres);
    st->dbits = (uint64_t *)(void *)(mem + l.dbits);
    st->sub = (sudoku_logic_t *)(void *)(mem + l.sub);
    *st->sub = *st; /* the geometry and the scratch; its own position: */
    sl_position(st->sub, mem, l.svalue, l.scand, l.spos, l.splaced);
    st->sub->sub = NULL;
    st->step = (sudoku_logic_step_t *)(void *)(mem + l.step);
    return st;
}

sudoku_logic_t *sudoku_logic_new(const sudoku_shape_t *shape) {
    return sudoku_logic_new_alloc(shape, NULL);
}

sudoku_logic_t *sudoku_logic_new_alloc(const sudoku_shape_t *shape,
                                       const search_allocator_t *alloc) {
    sudoku_model_t *m = NULL;
    sudoku_logic_t *st;
    if (shape == NULL || sudoku_shape_check(shape) != 0 || shape->n > SUDOKU_LOGIC_MAX_N)
        return NULL;
    if (sudoku_model_classic(shape, alloc, &m) != 0) return NULL;
    st = sudoku_logic_new_model_alloc(m, alloc);
    if (st == NULL) {
        sudoku_model_free(m);
        return NULL;
    }
    st->own = m;
    return st;
}

void sudoku_logic_free(sudoku_logic_t *st) {
    search_allocator_t a;
    if (st == NULL) return;
    a = st->alloc;
    sudoku_model_free(st->own);
    search_free(&a, st);
}

const sudoku_model_t *sudoku_logic_model(const sudoku_logic_t *st) { return st->m; }

void sudoku__logic_copy(sudoku_logic_t *dst, const sudoku_logic_t *src) {
    size_t un = (size_t)src->nunits * (size_t)src->n;
    memcpy(dst->value, src->value, (size_t)src->nn);
    memcpy(dst->cand, src->cand, (size_t)src->nn * sizeof *src->cand);
    memcpy(dst->pos, src->pos, un * sizeof *src->pos);
    memcpy(dst->placed, src->placed, (size_t)src->nunits * sizeof *src->placed);
    dst->empty = src->empty;
}

int sudoku_logic_n(const sudoku_logic_t *st) { return st->n; }
int sudoku_logic_empty(const sudoku_logic_t *st) { return st->empty; }
uint32_t sudoku_logic_cand(const sudoku_logic_t *st, int cell) { return st->cand[cell]; }
void sudoku_logic_grid(const sudoku_logic_t *st, uint8_t *grid) {
    memcpy(grid, st->value, (size_t)st->nn);
}

void sudoku__logic_place(sudoku_logic_t *st, int c, int d) {
    uint32_t old = st->cand[c], b = SL_BIT(d);
    const uint16_t *u = sl_units(st, c), *pp;
    int np;
    st->value[c] = (uint8_t)d;
    st->cand[c] = 0;
    st->empty--;
    for (int j = 0; j < st->ncu[c]; j++) {
        uint32_t keep = ~((uint32_t)1 << sl_index(st, c, j));
        for (uint32_t m = old; m; m &= m - 1)
            *sl_pos(st, u[j], sl_ctz(m) + 1) &= keep;
        st->placed[u[j]] |= b;
    }
    pp = sl_peers(st, c, &np);
    for (int i = 0; i < np; i++)
        if (st->cand[pp[i]] & b) sl_elim(st, pp[i], d);
    if (st->pairs) /* a pair partner keeps what its rule allows next to d */
        for (uint32_t k = st->m->pair_start[c]; k < st->m->pair_start[c + 1]; k++) {
            int o = (int)(st->m->pair_adj[k] >> 8);
            uint32_t gone = st->cand[o] & ~sl_pair_keep(st, (int)(st->m->pair_adj[k] & 0xff), b);
            for (; gone; gone &= gone - 1)
                sl_elim(st, o, sl_ctz(gone) + 1);
        }
}

/* Empties the position: every live cell gets its allowed digits, and pos
 * says where they are. */
static void sl_clear(sudoku_logic_t *st) {
    int n = st->n, u, c;
    memset(st->value, 0, (size_t)st->nn);
    memset(st->placed, 0, (size_t)st->nunits * sizeof *st->placed);
    st->empty = 0;
    for (c = 0; c < st->nn; c++) {
        st->cand[c] = st->allowed[c];
        st->empty += sl_live(st, c);
    }
    if (st->m->classic) { /* every digit in every cell: each unit full */
        uint32_t upos = n == 32 ? 0xffffffffu : ((uint32_t)1 << n) - 1;
        for (u = 0; u < st->nunits * n; u++)
            st->pos[u] = upos;
        return;
    }
    memset(st->pos, 0, (size_t)st->nunits * (size_t)n * sizeof *st->pos);
    for (u = 0; u < st->nunits; u++)
        for (int k = 0; k < st->ulen[u]; k++)
            for (uint32_t m = st->cand[sl_ucells(st, u)[k]]; m; m &= m - 1)
                *sl_pos(st, u, sl_ctz(m) + 1) |= (uint32_t)1 << k;
}

int sudoku_logic_load(sudoku_logic_t *st, const uint8_t *grid) {
    for (int c = 0; c < st->nn; c++)
        if (grid[c] > st->n || (grid[c] != 0 && !sl_live(st, c))) return SEARCH_EINVAL;
    sl_clear(st);
    for (int c = 0; c < st->nn; c++) {
        int d = grid[c];
        if (d == 0) continue;
        if (!(st->cand[c] & SL_BIT(d))) return SUDOKU_ECONFLICT;
        sudoku__logic_place(st, c, d);
    }
    return 0;
}

int sudoku_logic_restrict(sudoku_logic_t *st, int cell, uint32_t mask) {
    if (cell < 0 || cell >= st->nn || st->value[cell] || !sl_live(st, cell)) return SEARCH_EINVAL;
    for (uint32_t m = st->cand[cell] & ~mask; m; m &= m - 1)
        sl_elim(st, cell, sl_ctz(m) + 1);
    return st->cand[cell] ? 0 : SUDOKU_LOGIC_ECONTRA;
}

int sudoku_logic_check(const sudoku_logic_t *st) {
    for (int c = 0; c < st->nn; c++)
        if (sl_live(st, c) && !st->value[c] && st->cand[c] == 0) return SUDOKU_LOGIC_ECONTRA;
    for (int u = 0; u < st->nunits; u++) {
        if (!sl_exact(st, u)) continue;
        for (uint32_t m = st->all & ~st->placed[u]; m; m &= m - 1)
            if (*sl_pos(st, u, sl_ctz(m) + 1) == 0) return SUDOKU_LOGIC_ECONTRA;
    }
    return 0;
}

void sudoku_logic_opts_init(sudoku_logic_opts_t *opts) {
    memset(opts, 0, sizeof *opts);
    opts->max_tech = SUDOKU_TECH_GUESS;
}

/* === Singles === */

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
    for (int i = 0; i < st->nscan; i++) {
        int u = st->scan[i];
        uint32_t miss = st->all & ~st->placed[u];
        if (!sl_exact(st, u) || sl_popcount(miss) != 1) continue;
        int d = sl_ctz(miss) + 1;
        uint32_t p = *sl_pos(st, u, d);
        if (p == 0) continue; /* a contradiction; sudoku_logic_check reports it */
        return single_step(s, SUDOKU_TECH_FULL_HOUSE, u, sl_ucells(st, u)[sl_ctz(p)], d);
    }
    return 0;
}

static int find_naked_single(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    for (int c = 0; c < st->nn; c++) {
        uint32_t m = st->cand[c];
        if (m & (m - 1)) continue;
        if (m == 0) {
            if (!st->value[c] && sl_live(st, c)) return -1; /* no candidate left */
            continue;
        }
        return single_step(s, SUDOKU_TECH_NAKED_SINGLE, -1, c, sl_ctz(m) + 1);
    }
    return 0;
}

static int find_hidden_single(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    for (int i = 0; i < st->nscan; i++) {
        int u = st->scan[i];
        if (!sl_exact(st, u)) continue;
        for (uint32_t miss = st->all & ~st->placed[u]; miss; miss &= miss - 1) {
            int d = sl_ctz(miss) + 1;
            uint32_t p = *sl_pos(st, u, d);
            if (p == 0) return -1; /* no place left for d */
            if (p & (p - 1)) continue;
            return single_step(s, SUDOKU_TECH_HIDDEN_SINGLE, u, sl_ucells(st, u)[sl_ctz(p)], d);
        }
    }
    return 0;
}

/* === Pair rules === */

/* A cell's candidates rule out digits of its pair partners: the easiest
 * such cell first (reading order), all its partners' eliminations in one
 * step.  Placed digits do theirs when they are placed. */
static int find_consecutive(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    const sudoku_model_t *m = st->m;
    if (!st->pairs) return 0;
    for (int c = 0; c < st->nn; c++) {
        int any = 0;
        if (st->value[c] || st->cand[c] == 0) continue;
        sl_step_begin(s, SUDOKU_TECH_CONSECUTIVE);
        for (uint32_t k = m->pair_start[c]; k < m->pair_start[c + 1]; k++) {
            int o = (int)(m->pair_adj[k] >> 8);
            uint32_t gone =
                st->cand[o] & ~sl_pair_keep(st, (int)(m->pair_adj[k] & 0xff), st->cand[c]);
            for (; gone; gone &= gone - 1)
                any |= sl_add_elim(st, s, o, sl_ctz(gone) + 1);
        }
        if (!any) continue;
        sl_add(s, SUDOKU_ITEM_CELL, c, 0);
        for (uint32_t mk = st->cand[c]; mk; mk &= mk - 1)
            sl_add(s, SUDOKU_ITEM_CAND, c, sl_ctz(mk) + 1);
        return 1;
    }
    return 0;
}

/* === Locked candidates === */

/* Adds the digit's cells of unit u as proof. */
static void add_digit_cells(const sudoku_logic_t *st, sudoku_logic_step_t *s, int u, int d) {
    for (uint32_t p = *sl_pos(st, u, d); p; p &= p - 1) {
        int c = sl_ucells(st, u)[sl_ctz(p)];
        sl_add(s, SUDOKU_ITEM_CELL, c, 0);
        sl_add(s, SUDOKU_ITEM_CAND, c, d);
    }
}

/* In unit `from`, digit d only in cells that unit `to` also holds: d leaves
 * the rest of `to`.  Returns 1 with the step when something goes. */
static int locked_step(sudoku_logic_t *st, sudoku_logic_step_t *s, sudoku_tech_t t, int from,
                       int to, int d) {
    int any = 0;
    /* d's places in `from` all lie in `to`; `to` has more only if some go */
    if (sl_popcount(*sl_pos(st, to, d)) == sl_popcount(*sl_pos(st, from, d))) return 0;
    sl_step_begin(s, t);
    for (int k = 0; k < st->ulen[to]; k++) {
        int c = sl_ucells(st, to)[k];
        if (!sl_in_unit(st, c, from)) any |= sl_add_elim(st, s, c, d);
    }
    if (!any) return 0;
    s->digit = (uint8_t)d;
    s->unit[0] = (int16_t)from;
    s->unit[1] = (int16_t)to;
    add_digit_cells(st, s, from, d);
    return 1;
}

/* Locked candidates from the exact units scan[lo..hi): digit d with two or
 * more places in `from`, all inside another unit `to` (the overlaps of
 * `from`, by number: on a classic grid a box's row before its column). */
static int find_locked(sudoku_logic_t *st, sudoku_logic_step_t *s, sudoku_tech_t t, int lo,
                       int hi) {
    for (int i = lo; i < hi; i++) {
        int from = st->scan[i];
        uint32_t o0 = st->ovl_start[from], o1 = st->ovl_start[from + 1];
        if (!sl_exact(st, from) || o0 == o1) continue;
        for (uint32_t miss = st->all & ~st->placed[from]; miss; miss &= miss - 1) {
            int d = sl_ctz(miss) + 1;
            uint32_t p = *sl_pos(st, from, d);
            if (sl_popcount(p) < 2) continue;
            for (uint32_t k = o0; k < o1; k++)
                if ((p & ~st->ovl_mask[k]) == 0 && locked_step(st, s, t, from, st->ovl_unit[k], d))
                    return 1;
        }
    }
    return 0;
}

static int find_pointing(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    return find_locked(st, s, SUDOKU_TECH_POINTING, 0, st->lines_end[0]);
}

static int find_claiming(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    return find_locked(st, s, SUDOKU_TECH_CLAIMING, st->lines_end[0], st->nscan);
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
    int cells[4], any = 0;
    const uint16_t *cu;
    for (int i = 0; i < ss->k; i++)
        cells[i] = ss->id[ss->pick[i]];
    sl_step_begin(x->s, x->tech);
    /* every unit that holds all k cells loses the digits elsewhere */
    cu = sl_units(st, cells[0]);
    for (int j = 0; j < st->ncu[cells[0]]; j++) {
        int u = cu[j], common = 1;
        for (int i = 1; i < ss->k && common; i++)
            common = sl_in_unit(st, cells[i], u);
        if (!common) continue;
        for (int k = 0; k < st->ulen[u]; k++) {
            int c = sl_ucells(st, u)[k], mine = 0;
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
        int c = sl_ucells(st, x->u)[sl_ctz(q)];
        for (uint32_t m = st->cand[c] & ~digits; m; m &= m - 1)
            any |= sl_add_elim(st, x->s, c, sl_ctz(m) + 1);
    }
    if (!any) return 0;
    x->s->digits = digits;
    x->s->size = (uint8_t)ss->k;
    x->s->unit[0] = (int16_t)x->u;
    for (uint32_t q = uni; q; q &= q - 1) {
        int c = sl_ucells(st, x->u)[sl_ctz(q)];
        sl_add(x->s, SUDOKU_ITEM_CELL, c, 0);
        for (uint32_t m = st->cand[c] & digits; m; m &= m - 1)
            sl_add(x->s, SUDOKU_ITEM_CAND, c, sl_ctz(m) + 1);
    }
    return 1;
}

/* Empty cells of unit u. */
static int open_cells(const sudoku_logic_t *st, int u) {
    int open = 0;
    if (sl_exact(st, u)) return st->n - sl_popcount(st->placed[u]);
    for (int k = 0; k < st->ulen[u]; k++)
        open += st->value[sl_ucells(st, u)[k]] == 0;
    return open;
}

static int find_subset(sudoku_logic_t *st, sudoku_logic_step_t *s, int k, int hidden) {
    static const sudoku_tech_t naked_t[5] = {0, 0, SUDOKU_TECH_NAKED_PAIR, SUDOKU_TECH_NAKED_TRIPLE,
                                             SUDOKU_TECH_NAKED_QUAD};
    static const sudoku_tech_t hidden_t[5] = {0, 0, SUDOKU_TECH_HIDDEN_PAIR,
                                              SUDOKU_TECH_HIDDEN_TRIPLE, SUDOKU_TECH_HIDDEN_QUAD};
    subset_t ss;
    subset_ctx_t ctx = {st, s, 0, hidden ? hidden_t[k] : naked_t[k]};
    ss.k = k;
    for (int i = 0; i < st->nscan; i++) {
        int u = st->scan[i];
        if (hidden && !sl_exact(st, u)) continue; /* a digit need not be in a shorter unit */
        if (open_cells(st, u) <= k) continue;     /* nothing else in the unit to remove from */
        ss.m = 0;
        if (!hidden) {
            for (int j = 0; j < st->ulen[u]; j++) {
                int c = sl_ucells(st, u)[j], pc = sl_popcount(st->cand[c]);
                if (pc >= 2 && pc <= k) {
                    ss.mask[ss.m] = st->cand[c];
                    ss.id[ss.m++] = c;
                }
            }
        } else {
            for (uint32_t miss = st->all & ~st->placed[u]; miss; miss &= miss - 1) {
                int d = sl_ctz(miss) + 1, pc = sl_popcount(*sl_pos(st, u, d));
                if (pc >= 2 && pc <= k) {
                    ss.mask[ss.m] = *sl_pos(st, u, d);
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
    case SUDOKU_TECH_CAGE_COMBINATION:
        return st->lines ? sudoku__logic_cage_combination(st, work, s) : 0;
    case SUDOKU_TECH_CONSECUTIVE: return find_consecutive(st, s);
    case SUDOKU_TECH_PAIR_RELATION: return st->lines ? sudoku__logic_pair_relation(st, s) : 0;
    case SUDOKU_TECH_THERMO: return st->lines ? sudoku__logic_thermo(st, s) : 0;
    case SUDOKU_TECH_POINTING: return find_pointing(st, s);
    case SUDOKU_TECH_ARROW: return st->lines ? sudoku__logic_arrow(st, work, s) : 0;
    case SUDOKU_TECH_CLAIMING: return find_claiming(st, s);
    case SUDOKU_TECH_CAGE_LOCKED: return st->lines ? sudoku__logic_cage_locked(st, work, s) : 0;
    case SUDOKU_TECH_NAKED_PAIR: return find_subset(st, s, 2, 0);
    case SUDOKU_TECH_HIDDEN_PAIR: return find_subset(st, s, 2, 1);
    case SUDOKU_TECH_INNIES_OUTIES: return st->lines ? sudoku__logic_innies(st, work, s) : 0;
    case SUDOKU_TECH_CAGE_SPLITTING: return st->lines ? sudoku__logic_cage_split(st, work, s) : 0;
    case SUDOKU_TECH_NAKED_TRIPLE: return find_subset(st, s, 3, 0);
    case SUDOKU_TECH_X_WING: return sudoku__logic_fish(st, 2, 0, s);
    case SUDOKU_TECH_FINNED_X_WING: return sudoku__logic_fish(st, 2, 1, s);
    case SUDOKU_TECH_HIDDEN_TRIPLE: return find_subset(st, s, 3, 1);
    case SUDOKU_TECH_XY_WING: return sudoku__logic_xy_wing(st, s);
    case SUDOKU_TECH_XYZ_WING: return sudoku__logic_xyz_wing(st, s);
    case SUDOKU_TECH_NAKED_QUAD: return find_subset(st, s, 4, 0);
    case SUDOKU_TECH_SWORDFISH: return sudoku__logic_fish(st, 3, 0, s);
    case SUDOKU_TECH_FINNED_SWORDFISH: return sudoku__logic_fish(st, 3, 1, s);
    case SUDOKU_TECH_HIDDEN_QUAD: return find_subset(st, s, 4, 1);
    case SUDOKU_TECH_UNIQUE_RECTANGLE:
        return o != NULL && o->assume_unique && st->ur ? sudoku__logic_unique_rect(st, s) : 0;
    case SUDOKU_TECH_JELLYFISH: return sudoku__logic_fish(st, 4, 0, s);
    case SUDOKU_TECH_FINNED_JELLYFISH: return sudoku__logic_fish(st, 4, 1, s);
    case SUDOKU_TECH_SIMPLE_COLOURING: return sudoku__logic_colouring(st, s);
    case SUDOKU_TECH_BUG_PLUS_1:
        return o != NULL && o->assume_unique && st->ur && st->m->classic ? sudoku__logic_bug(st, s)
                                                                         : 0;
    case SUDOKU_TECH_X_CHAIN: return sudoku__logic_x_chain(st, budget, work, s);
    case SUDOKU_TECH_XY_CHAIN: return sudoku__logic_xy_chain(st, budget, work, s);
    case SUDOKU_TECH_ALS_XZ: return sudoku__logic_als_xz(st, budget, work, s);
    case SUDOKU_TECH_ALS_XY_WING: return sudoku__logic_als_xy_wing(st, budget, work, s);
    case SUDOKU_TECH_AIC: return sudoku__logic_aic(st, budget, work, s);
    case SUDOKU_TECH_GROUPED_AIC: return sudoku__logic_grouped_aic(st, budget, work, s);
    case SUDOKU_TECH_CELL_FORCING_CHAIN: return sudoku__logic_forcing(st, 0, 0, budget, work, s);
    case SUDOKU_TECH_UNIT_FORCING_CHAIN: return sudoku__logic_forcing(st, 1, 0, budget, work, s);
    case SUDOKU_TECH_DYNAMIC_FORCING_CHAIN:
        return st->sub != NULL ? sudoku__logic_forcing(st, 2, 1, budget, work, s) : 0;
    case SUDOKU_TECH_CONSTRAINT:
        return st->lines ? sudoku__logic_constraint(st, budget, work, s) : 0;
    case SUDOKU_TECH_TRIAL:
        return o != NULL && o->solution != NULL ? sudoku__logic_trial(st, o, work, s) : 0;
    case SUDOKU_TECH_NESTED_FORCING_CHAIN:
        return o != NULL && o->solution != NULL
                   ? sudoku__logic_nested(st, o, budget * SUDOKU_LOGIC_NESTED_BUDGET, work, s)
                   : 0;
    case SUDOKU_TECH_GUESS:
        return o != NULL && o->solution != NULL ? sudoku__logic_guess(st, o, s) : 0;
    default: return 0;
    }
}

int sudoku_logic_next(sudoku_logic_t *st, const sudoku_logic_opts_t *opts,
                      sudoku_logic_step_t *step, uint64_t *work) {
    uint64_t dummy = 0, budget;
    sudoku_tech_t max = opts != NULL ? opts->max_tech : SUDOKU_TECH_GUESS;
    if (work == NULL) work = &dummy;
    if (st->empty == 0) return 0;
    sudoku__logic_forcing_moved(st);
    budget = opts != NULL && opts->chain_budget ? opts->chain_budget : SUDOKU_LOGIC_CHAIN_BUDGET;
    for (int t = 0; t <= (int)max && t < SUDOKU_TECH_COUNT; t++) {
        if (t >= SUDOKU_TECH_X_CHAIN && opts != NULL && opts->ctl != NULL) {
            int rc = search_check_now(opts->ctl, 0);
            if (rc != 0) return rc;
        }
        int f = find(st, (sudoku_tech_t)t, opts, budget, work, step);
        if (f != 0) return f > 0 ? 1 : SUDOKU_LOGIC_ECONTRA;
    }
    return 0;
}

int sudoku_logic_step_wrong(const sudoku_logic_step_t *step, const uint8_t *solution) {
    int bad = 0;
    for (int i = 0; i < step->nitems; i++) {
        const sudoku_logic_item_t *it = &step->items[i];
        if (it->kind == SUDOKU_ITEM_ELIM && solution[it->cell] == it->value) bad++;
        if (it->kind == SUDOKU_ITEM_PLACE && solution[it->cell] != it->value) bad++;
    }
    return bad;
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
    /* the line techniques read lines where a person does (lines.c); the
     * machine step is left out: its enumerations are too dear per trial */
    static const sudoku_tech_t order[] = {
        SUDOKU_TECH_FULL_HOUSE,       SUDOKU_TECH_NAKED_SINGLE, SUDOKU_TECH_HIDDEN_SINGLE,
        SUDOKU_TECH_CAGE_COMBINATION, SUDOKU_TECH_CONSECUTIVE,  SUDOKU_TECH_PAIR_RELATION,
        SUDOKU_TECH_THERMO,           SUDOKU_TECH_POINTING,     SUDOKU_TECH_ARROW,
        SUDOKU_TECH_CLAIMING,         SUDOKU_TECH_CAGE_LOCKED,  SUDOKU_TECH_NAKED_PAIR,
        SUDOKU_TECH_HIDDEN_PAIR,      SUDOKU_TECH_INNIES_OUTIES};
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
    g->solved_by_logic = g->solved && g->counts[SUDOKU_TECH_TRIAL] == 0 &&
                         g->counts[SUDOKU_TECH_NESTED_FORCING_CHAIN] == 0 &&
                         g->counts[SUDOKU_TECH_GUESS] == 0;
    g->rating = sl_rating(hist, top);
    g->level = sudoku_grade_level_of(g->rating);
    return rc;
}

static int sl_singles(sudoku_logic_t *st, const uint8_t *puzzle, int hidden) {
    int nq = 0, rc;
    uint64_t work = 0;
    for (int c = 0; c < st->nn; c++) {
        if (puzzle[c] > st->n) return SEARCH_EINVAL;
        if (!sl_live(st, c)) { /* a hole: decided, no digit */
            if (puzzle[c]) return SEARCH_EINVAL;
            st->tcand[c] = 0;
            st->tdone[c] = 1;
        } else if (puzzle[c]) {
            if (!(st->allowed[c] & SL_BIT(puzzle[c]))) return SUDOKU_LOGIC_ECONTRA;
            st->tcand[c] = SL_BIT(puzzle[c]);
            st->tdone[c] = 1;
            st->tq[nq++] = (uint16_t)c;
        } else {
            st->tcand[c] = st->allowed[c];
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
    int rc = sudoku_logic_singles(st, puzzle, NULL);
    if (rc < 0) return rc;
    /* the state from the propagation's candidates, without replaying it */
    memset(st->value, 0, (size_t)st->nn);
    memset(st->placed, 0, (size_t)st->nunits * sizeof *st->placed);
    memset(st->pos, 0, (size_t)st->nunits * (size_t)st->n * sizeof *st->pos);
    st->empty = 0;
    for (int c = 0; c < st->nn; c++) {
        uint32_t m = st->tcand[c];
        const uint16_t *u = sl_units(st, c);
        if (!sl_live(st, c)) {
            st->cand[c] = 0;
            continue;
        }
        if (st->tdone[c]) {
            st->value[c] = (uint8_t)(sl_ctz(m) + 1);
            st->cand[c] = 0;
            for (int j = 0; j < st->ncu[c]; j++)
                st->placed[u[j]] |= m;
            continue;
        }
        st->cand[c] = m;
        st->empty++;
        for (int j = 0; j < st->ncu[c]; j++) {
            uint32_t bit = (uint32_t)1 << sl_index(st, c, j);
            for (uint32_t k = m; k; k &= k - 1)
                *sl_pos(st, u[j], sl_ctz(k) + 1) |= bit;
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
