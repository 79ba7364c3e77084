/* killer/adv.c -- the "advanced" Killer Sudoku method: its constraints
 * (cages, and the 45 rule's sums: killer/derive.c) set up as a killer__adv_t,
 * and fewest-candidates search over it.  The propagation is in
 * killer/prop.c, which describes the constraints and how each propagates;
 * the state the two share is in killer/internal.h.
 * The measurements behind this design, and the designs tried and not
 * kept, are in docs/killer-tuning.md: read it before changing the search
 * or the propagators.
 *
 * Cages first (killer__solve_adv()): the root is propagated once with
 * the cages alone.  If that decides every cell or fails, it is the
 * answer, without the 45-rule set-up that is most of an easy puzzle's
 * time (most ordinary killers end there).  Else the full state is built
 * from scratch and searches exactly as before.
 *
 * Search: binary branching as in sudoku/prop.c (choose()): a cage with
 * exactly two live combos first (the largest conflict weight over its open
 * cells): keep one combo, and when that subtree is done drop it; else the
 * undecided cell with the fewest candidates (ties: the larger conflict
 * weight, see bump() in prop.c): its first value, then without it.  After
 * each side, propagate.  Frames hold (trail mark, decided count, choice); each frame
 * decides a cell or takes a cage from two live combos to one, so depth <=
 * ncells + ncages.  A node is one choice.  Two-combo cages first, because
 * one choice then settles a cage's value set, which cell choices take a
 * cell at a time.
 *
 * Value order (killer_opts_t values, first_value()): the lowest value or
 * the highest.  With max_solutions 1 and no split, killer__solve_adv()
 * builds one state per order (adv_open) and runs them in turns
 * (adv_run pauses at a node limit, between nodes, where the state is a
 * propagated fixpoint): the first answer of either ends the solve.  On a
 * hard puzzle one order is often ten times better than the other, and
 * neither is better in general; the turns cost about twice the better one.
 *
 * Split (killer_opts_t.split_depth d > 0, for parallel callers): after the
 * root propagation split_descend() follows split_index through the top d
 * levels of this binary tree -- the same choices the search makes, bit
 * d-1-l of the index at level l: 0 takes the value or combo, 1 removes
 * it -- without pushing frames, and the search runs below that node only.
 * The 2^d indices partition the solutions (a grid solved above level d
 * belongs to the index whose remaining bits are 0).  Descent choices are
 * not counted as nodes; each item repeats the root set-up, which is cheap
 * next to a hard search.
 *
 * Thread-safety: all state lives in the two arenas of each solve state
 * (one per value order when auto takes turns); nothing is shared. */
#include <string.h>

#include "solvers/killer/derive.h"

#define COMBO_BUDGET ((uint64_t)KILLER_COMBO_CAP * 64) /* enumeration steps per table */
/* The clock and the cancel flag are read every POLL_MASK + 1 nodes, not
 * every SEARCH_POLL_MASK + 1 (search.h): a node here costs 5 us on a 9x9
 * and up to ~0.5 ms on a 25x25 (more under the sanitizers), so 16384 nodes
 * overshot a 100 ms deadline by 0.7 s on 16x16 killers; a clock read is
 * ~20 ns. */
#define POLL_MASK  15u
#define ADV_PAUSED 1 /* adv_run(): the node limit came first; call again */

/* A search choice (choose()): what < nc assigns cell `what` the value
 * bit `bits` or removes it; what = nc + ci keeps only combo `bits` of
 * cage con ci (which has two live) or removes it. */
typedef struct choice_s {
    uint64_t bits;
    uint32_t what;
} choice_t;

typedef struct killer__frame_s {
    choice_t ch;
    uint32_t mark, decided;
} frame_t;

/* === Setup: cons, 45 rule, peers, tables ================================ */

/* The tables of every unit for scan_unit(): cage groups (cells of one cage
 * form a group, in order of first appearance; an uncaged cell is a group
 * of its own) and the intersections locked() works on.  Unit order
 * (killer__model_init): a row meets its boxes in runs of box_cols cells, a
 * column in runs of box_rows, and a box lists its cells row by row. */
static void unit_tables(killer__adv_t *a) {
    int n = a->n, br = a->m.pz->shape.box_rows, bc = a->m.pz->shape.box_cols, u, i, j;
    for (u = 0; u < a->nunits; u++) {
        const uint16_t *uc = a->m.unit_cells[u];
        int ng = 0, kind = u < 3 * n ? u / n : 3, len = kind == 0 ? bc : br;
        for (i = 0; i < n; i++) {
            int cg = a->m.cell_cage[uc[i]];
            for (j = 0; j < i && cg >= 0; j++)
                if (a->m.cell_cage[uc[j]] == cg) break;
            if (cg >= 0 && j < i) {
                a->ugrp_of[u][i] = a->ugrp_of[u][j];
                continue;
            }
            a->ugrp_cage[u][ng] = (int16_t)cg;
            a->ugrp_of[u][i] = (uint8_t)ng++;
        }
        a->ugrp_n[u] = (uint8_t)ng;
        a->useg_n[u][0] = (uint8_t)(kind == 2 ? br : kind < 2 ? n / len : 0);
        a->useg_n[u][1] = (uint8_t)(kind == 2 ? bc : 0);
        for (i = 0; i < n; i++) {
            const uint8_t *cu = a->m.cell_units[uc[i]];
            int s0 = KILLER__USEG_NONE, s1 = KILLER__USEG_NONE;
            if (kind == 2) {
                s0 = i / bc;
                s1 = i % bc;
                a->useg_unit[u][0][s0] = cu[0];
                a->useg_unit[u][1][s1] = cu[1];
            } else if (kind < 2) {
                s0 = i / len;
                a->useg_unit[u][0][s0] = cu[2];
            }
            a->useg[u][i][0] = (uint8_t)s0;
            a->useg[u][i][1] = (uint8_t)s1;
        }
    }
}

/* Fills distinct / nunits_in / inpos of every con, and the unit tables. */
static void classify(killer__adv_t *a) {
    int ci, i, j, u;
    unit_tables(a);

    for (ci = 0; ci < a->ncons; ci++) {
        killer__con_t *c = &a->cons[ci];
        const uint16_t *cells = a->con_cells + c->cells_off;
        int first = cells[0];
        c->distinct = !c->mirror;
        if (c->cage < 0)
            for (i = 0; i < c->ncells && c->distinct; i++)
                for (j = 0; j < i && c->distinct; j++)
                    if (!killer__are_peers(a, cells[i], cells[j])) c->distinct = 0;
        c->ngroups = 0;
        if (!c->distinct) /* greedy partition into cliques of peers */
            for (i = 0; i < c->ncells; i++) {
                int g;
                for (g = 0; g < c->ngroups; g++) {
                    int all = 1;
                    for (j = 0; j < i && all; j++)
                        if (a->con_grp[c->cells_off + j] == g &&
                            (a->con_neg[c->cells_off + j] != a->con_neg[c->cells_off + i] ||
                             !killer__are_peers(a, cells[i], cells[j])))
                            all = 0;
                    if (all) break;
                }
                a->con_grp[c->cells_off + i] = (uint8_t)g;
                if (g == c->ngroups) c->ngroups++;
            }
        c->nunits_in = 0;
        for (u = 0; u < a->m.cell_nunits[first]; u++) {
            int unit = a->m.cell_units[first][u], all = 1;
            for (i = 1; i < c->ncells && all; i++) {
                int k, in = 0;
                for (k = 0; k < a->m.cell_nunits[cells[i]]; k++)
                    if (a->m.cell_units[cells[i]][k] == unit) in = 1;
                all = in;
            }
            if (all) c->units_in[c->nunits_in++] = (uint8_t)unit;
        }
        c->inpos[0] = c->inpos[1] = 0;
        for (u = 0; u < c->nunits_in && u < 2; u++)
            for (i = 0; i < a->n; i++)
                for (j = 0; j < c->ncells; j++)
                    if (a->m.unit_cells[c->units_in[u]][i] == cells[j])
                        c->inpos[u] |= (uint64_t)1 << i;
    }
}

/* === Solve ============================================================== */

/* The cell the search branches on: fewest candidates; among equals the
 * larger conflict weight (see bump()).  -1 when every cell is decided. */
static int branch_cell(const killer__adv_t *a) {
    int best = -1, bc = 65, i;
    double bs = -1.0;
    for (i = 0; i < a->nc; i++) {
        uint64_t x = a->cand[i];
        if (x & (x - 1)) {
            int pc = killer__popcount(x);
            double sc = a->score[i];
            if (pc < bc || (pc == bc && sc > bs)) {
                bs = sc;
                bc = pc;
                best = i;
            }
        }
    }
    return best;
}

/* The value bit of candidates m (two or more) the search tries first: the
 * lowest, or the highest with KILLER_VALUES_DESCENDING. */
static inline uint64_t first_value(const killer__adv_t *a, uint64_t m) {
    return a->opts->values == KILLER_VALUES_DESCENDING ? (uint64_t)1 << killer__msb(m)
                                                       : m & (~m + 1);
}

/* The next choice: a cage with exactly two live combos and open cells,
 * the one whose open cells carry the largest conflict weight, split on
 * its combos (the first: the one holding the first value, in the value
 * order, of the two combos' difference); when there is none, the cell
 * branch_cell() names, split on its first value.  A combo choice settles
 * a cage's value set at once where a cell choice would take one cell at
 * a time; each cage is chosen at most once on a path (its live count is
 * 1 below), so a path has at most ncells + ncages choices (the stack's
 * size: a rule that chose cages with more live combos would need more).
 * The other rules measured: docs/killer-tuning.md, "Combo choices". */
static choice_t choose(const killer__adv_t *a) {
    choice_t ch;
    uint32_t ci, best = UINT32_MAX;
    double bw = -1.0;
    for (ci = 0; ci < a->first_derived; ci++) {
        uint64_t o = a->cdyn[ci].open;
        const uint16_t *cells;
        double w = 0.0;
        if (a->live[ci] != 2 || o == 0 || !a->cons[ci].tabled) continue;
        cells = a->con_cells + a->cons[ci].cells_off;
        for (; o != 0; o &= o - 1)
            w += a->score[cells[killer__ctz(o)]];
        if (w > bw) {
            bw = w;
            best = ci;
        }
    }
    if (best != UINT32_MAX) {
        const uint64_t *cb = a->combos + a->cons[best].combo_off;
        uint64_t v = first_value(a, cb[0] ^ cb[1]);
        ch.what = (uint32_t)a->nc + best;
        ch.bits = (cb[0] & v) != 0 ? cb[0] : cb[1];
    } else {
        int cell = branch_cell(a);
        assert(cell >= 0);
        ch.what = (uint32_t)cell;
        ch.bits = first_value(a, a->cand[cell]);
    }
    return ch;
}

/* Takes choice ch (take: the value or the combo; else the other side:
 * without it) and propagates.  Returns 0, or -1 on a conflict with the
 * queues cleared. */
static int apply_choice(killer__adv_t *a, choice_t ch, int take) {
    int bad;
    if (ch.what < (uint32_t)a->nc) {
        int cell = (int)ch.what;
        bad = killer__set_mask(a, cell, take ? ch.bits : a->cand[cell] & ~ch.bits);
    } else {
        uint32_t ci = ch.what - (uint32_t)a->nc;
        bad = take ? killer__con_require(a, ci, ch.bits) : killer__con_drop(a, ci, ch.bits);
    }
    if (bad == 0 && killer__propagate(a) == 0) return 0;
    killer__clear_queues(a);
    return -1;
}

/* Walks from the propagated root to the root of subtree `index` of
 * 2^depth (killer_opts_t.split_depth/split_index): at level l the choice
 * the search would make (choose(); the weights are still those of the
 * root, since nothing has failed on this path), and bit depth-1-l of index
 * picks the side: 0 takes the value or combo, 1 removes it.  No frames
 * are pushed, so the search below never backtracks above the
 * subtree root.  Returns 1 when the subtree root is consistent, 0 when the
 * subtree is empty: a side failed, or the grid was solved at level l and
 * the lower bits of index are not all 0 (that solution belongs to the one
 * index whose lower bits are 0, so the subtrees partition the solutions;
 * that index says so in res->split_span). */
static int split_descend(killer__adv_t *a, uint32_t depth, uint32_t index) {
    uint32_t l;
    for (l = 0; l < depth; l++) {
        uint32_t rest = depth - l;
        if (a->decided == (uint32_t)a->nc) {
            if (index & ((1u << rest) - 1)) return 0;
            a->res->split_span = 1u << rest; /* the indices up to the next 1 bit are empty */
            return 1;
        }
        if (apply_choice(a, choose(a), !((index >> (rest - 1)) & 1u)) != 0) return 0;
    }
    return 1;
}

/* Frees a solve state: both arenas (mem2 is NULL until adv_tables). */
static void adv_close(killer__adv_t *a) {
    const killer_opts_t *opts = a->opts;
    char *mem1 = a->mem1; /* holds a */
    killer__free(opts, a->mem2);
    killer__free(opts, mem1);
}

/* What adv_open()'s steps hand on to each other. */
typedef struct setup_s {
    uint32_t maxcons, maxcells; /* killer__derive_size(): the bounds */
    size_t scratch;             /* ... and killer__derive()'s scratch bytes */
    size_t bytes1;              /* the first arena (adv_alloc) */
    uint32_t ncells;            /* cells over all cons (killer__derive) */
    uint32_t *tabsz;            /* per con: its table's size, 0 untabled */
    uint32_t total_combo;       /* all tables' sizes */
} setup_t;

/* The first arena, zeroed: the state and every array the model bounds
 * (cons, their cells, peers, queues, the search stack).  Returns the
 * state, or NULL when out of memory. */
static killer__adv_t *adv_alloc(const killer_puzzle_t *pz, const killer_opts_t *opts,
                                killer_result_t *res, setup_t *su) {
    int n = pz->shape.n, nc = n * n, i;
    uint32_t maxcons, maxcells;
    size_t bytes1, maxdepth;
    char *mem1, *at;
    killer__adv_t *a;

    killer__derive_size(pz, &su->maxcons, &su->maxcells, &su->scratch);
    maxcons = su->maxcons;
    maxcells = su->maxcells;
    maxdepth = (size_t)nc + (size_t)pz->ncages; /* frames on a path (choose()) */

    bytes1 = KILLER__ALIGN(sizeof(killer__adv_t)) + KILLER__ALIGN(maxcons * sizeof(killer__con_t)) +
             KILLER__ALIGN(maxcells) + KILLER__ALIGN(maxcons * sizeof(killer__condyn_t)) +
             KILLER__ALIGN(maxcells * sizeof(uint16_t)) +
             KILLER__ALIGN(((size_t)nc + 1) * sizeof(uint32_t)) +
             KILLER__ALIGN(maxcells * sizeof(uint16_t)) + KILLER__ALIGN(maxcells) +
             KILLER__ALIGN(((size_t)nc + 1) * sizeof(uint32_t)) + KILLER__ALIGN(maxcells) +
             KILLER__ALIGN((size_t)nc * 6 * n * sizeof(uint16_t)) +
             KILLER__ALIGN((size_t)nc * 2 * sizeof(uint64_t)) +
             KILLER__ALIGN((size_t)nc * sizeof(uint64_t)) +
             KILLER__ALIGN((maxcons + 1) * sizeof(uint32_t)) * 3 + KILLER__ALIGN(maxcons) +
             KILLER__ALIGN(((size_t)nc + 1) * sizeof(uint16_t)) +
             2 * KILLER__ALIGN(KILLER__MAX_UNITS + 1) + 2 * KILLER__ALIGN(nc) +
             KILLER__ALIGN(maxdepth * sizeof(frame_t)) +
             KILLER__ALIGN((size_t)nc * sizeof(double)) +
             KILLER__ALIGN((maxcons + 1) * sizeof(uint32_t)) +
             KILLER__ALIGN((maxdepth + 1) * sizeof(uint64_t));
    mem1 = killer__alloc(opts, bytes1);
    if (mem1 == NULL) return NULL;
    memset(mem1, 0, bytes1);
    su->bytes1 = bytes1;
    at = mem1;
#define TAKE(ptr, type, count)                                                                     \
    do {                                                                                           \
        ptr = (type *)(void *)at;                                                                  \
        at += KILLER__ALIGN((size_t)(count) * sizeof(type));                                       \
    } while (0)
    TAKE(a, killer__adv_t, 1);
    killer__model_init(&a->m, pz);
    a->opts = opts;
    a->res = res;
    a->n = n;
    a->nc = nc;
    a->full = a->m.full;
    a->nunits = a->m.nunits;
    a->inc = 1.0;
    a->sym_sorted = 1;
    a->sym_ident = 1;
    for (i = 1; i <= n; i++)
        if (a->m.sym[i] != i) a->sym_ident = 0;
    for (i = 2; i <= n; i++)
        if (a->m.sym[i] <= a->m.sym[i - 1]) a->sym_sorted = 0;
    TAKE(a->cons, killer__con_t, maxcons);
    TAKE(a->con_cells, uint16_t, maxcells);
    TAKE(a->con_grp, uint8_t, maxcells);
    TAKE(a->con_neg, uint8_t, maxcells);
    TAKE(a->cell_cons_off, uint32_t, nc + 1);
    TAKE(a->cell_cons, uint16_t, maxcells);
    TAKE(a->cell_cons_pos, uint8_t, maxcells);
    TAKE(a->cdyn, killer__condyn_t, maxcons);
    TAKE(a->peer_off, uint32_t, nc + 1);
    TAKE(a->peers, uint16_t, (size_t)nc * 6 * n);
    TAKE(a->pbits, uint64_t, 2 * nc);
    if (nc > 128) a->pbits = NULL;
    TAKE(a->cand, uint64_t, nc);
    TAKE(a->live, uint32_t, maxcons);
    TAKE(a->cq, uint32_t, maxcons + 1); /* + 1: killer__set_mask's unconditional store */
    TAKE(a->dq, uint32_t, maxcons + 1);
    TAKE(su->tabsz, uint32_t, maxcons);
    TAKE(a->inq, uint8_t, maxcons);
    TAKE(a->sq, uint16_t, nc + 1);
    TAKE(a->udirty, uint8_t, KILLER__MAX_UNITS);
    TAKE(a->ulist, uint8_t, KILLER__MAX_UNITS + 1);
    TAKE(a->stamp, uint8_t, nc);
    TAKE(a->grid, uint8_t, nc);
    TAKE(a->stack, frame_t, maxdepth);
    TAKE(a->score, double, nc);
    TAKE(a->lser, uint64_t, maxdepth + 1);
    a->lser[0] = a->nser = 1; /* fix_ser 0: nothing noted */
#undef TAKE
    assert((size_t)(at - mem1) <= bytes1);
    a->pz = pz;
    a->mem1 = mem1;
    return a;
}

/* The cons: cages first (con index == cage index), then the 45 rule if
 * rule45 (killer/derive.c), written straight into con_cells / con_neg;
 * then what classify() notes of each.  Returns 0 or SEARCH_ENOMEM. */
static int adv_cons(killer__adv_t *a, setup_t *su, int rule45) {
    const size_t eqbytes = KILLER__ALIGN((size_t)su->maxcons * sizeof(killer__eq_t));
    char *hmem = killer__alloc(a->opts, eqbytes + su->scratch);
    killer__eqs_t eqs;
    uint32_t ci;
    if (hmem == NULL) return SEARCH_ENOMEM;
    eqs.eq = (killer__eq_t *)(void *)hmem;
    eqs.cells = a->con_cells;
    eqs.neg = a->con_neg;
    a->res->derived = killer__derive(&a->m, &eqs, hmem + eqbytes, rule45);
    for (ci = 0; ci < eqs.neq; ci++) {
        killer__con_t *c = &a->cons[ci];
        c->sum = eqs.eq[ci].sum;
        c->cells_off = eqs.eq[ci].off;
        c->ncells = eqs.eq[ci].k;
        c->cage = eqs.eq[ci].cage;
        c->mirror = eqs.eq[ci].mirror;
    }
    a->ncons = (int)eqs.neq;
    su->ncells = eqs.ncells;
    a->first_derived = (uint32_t)a->pz->ncages;
    killer__free(a->opts, hmem);
    classify(a);
    return 0;
}

/* Each cell's cons (cell_cons_off / cell_cons / cell_cons_pos). */
static void adv_cell_cons(killer__adv_t *a) {
    int nc = a->nc, i, j;
    uint32_t ci;
    for (ci = 0; ci < (uint32_t)a->ncons; ci++)
        for (j = 0; j < a->cons[ci].ncells; j++)
            a->cell_cons_off[a->con_cells[a->cons[ci].cells_off + j] + 1]++;
    for (i = 0; i < nc; i++)
        a->cell_cons_off[i + 1] += a->cell_cons_off[i];
    for (i = 0; i < nc; i++)
        a->sq[i] = 0; /* fill cursors */
    for (ci = 0; ci < (uint32_t)a->ncons; ci++)
        for (j = 0; j < a->cons[ci].ncells; j++) {
            int x = a->con_cells[a->cons[ci].cells_off + j];
            a->cell_cons_pos[a->cell_cons_off[x] + a->sq[x]] = (uint8_t)j;
            a->cell_cons[a->cell_cons_off[x] + a->sq[x]++] = (uint16_t)ci;
        }
}

/* Each cell's peers: its units and its cage, each cell once; on grids of
 * up to 128 cells also as bitsets (pbits), and each con's cells and units
 * (pexcl) for cage pointing. */
static void adv_peers(killer__adv_t *a) {
    const killer_puzzle_t *pz = a->pz;
    int n = a->n, nc = a->nc, i, j;
    uint32_t ci, p;
    /* peers: units and the cage, each once */
    p = 0;
    for (i = 0; i < nc; i++) {
        int cg = a->m.cell_cage[i];
        a->peer_off[i] = p;
        a->stamp[i] = 1;
        for (j = 0; j < a->m.cell_nunits[i]; j++) {
            const uint16_t *uc = a->m.unit_cells[a->m.cell_units[i][j]];
            int k;
            for (k = 0; k < n; k++)
                if (!a->stamp[uc[k]]) {
                    a->stamp[uc[k]] = 1;
                    a->peers[p++] = uc[k];
                }
        }
        if (cg >= 0)
            for (j = 0; j < pz->cages[cg].ncells; j++) {
                int x = pz->cages[cg].cells[j].r * n + pz->cages[cg].cells[j].c;
                if (!a->stamp[x]) {
                    a->stamp[x] = 1;
                    a->peers[p++] = (uint16_t)x;
                }
            }
        a->stamp[i] = 0;
        for (j = (int)a->peer_off[i]; j < (int)p; j++)
            a->stamp[a->peers[j]] = 0;
    }
    a->peer_off[nc] = p;
    if (a->pbits != NULL) {
        for (i = 0; i < nc; i++)
            for (p = a->peer_off[i]; p < a->peer_off[i + 1]; p++)
                a->pbits[2 * i + (a->peers[p] >> 6)] |= (uint64_t)1 << (a->peers[p] & 63);
        for (ci = 0; ci < (uint32_t)a->ncons; ci++) {
            killer__con_t *c = &a->cons[ci];
            for (j = 0; j < c->ncells; j++) {
                int x = a->con_cells[c->cells_off + j];
                c->pexcl[x >> 6] |= (uint64_t)1 << (x & 63);
            }
            for (j = 0; j < c->nunits_in; j++) {
                int k;
                for (k = 0; k < n; k++) {
                    int x = a->m.unit_cells[c->units_in[j]][k];
                    c->pexcl[x >> 6] |= (uint64_t)1 << (x & 63);
                }
            }
        }
    }
}

/* Which distinct cons get a table of combinations: sizes first, with the
 * caps (a con with the (size, sum) of an earlier one shares its fate). */
static void adv_table_sizes(killer__adv_t *a, setup_t *su) {
    uint32_t ci;
    int j;
    su->total_combo = 0;
    for (ci = 0; ci < (uint32_t)a->ncons; ci++) {
        killer__con_t *c = &a->cons[ci];
        uint32_t cnt = 0;
        su->tabsz[ci] = 0;
        if (!c->distinct) continue;
        for (j = 0; j < (int)ci; j++) /* same (size, sum) as an earlier tabled con */
            if (a->cons[j].distinct && a->cons[j].ncells == c->ncells && a->cons[j].sum == c->sum)
                break;
        if (j < (int)ci) {
            if (a->cons[j].tabled && su->total_combo + su->tabsz[j] <= KILLER_COMBO_TOTAL_CAP) {
                c->tabled = 1;
                su->tabsz[ci] = su->tabsz[j];
                su->total_combo += su->tabsz[j];
            }
        } else if (killer__combos(a->m.sym, a->full, c->ncells, c->sum, NULL, KILLER_COMBO_CAP,
                                  &cnt, COMBO_BUDGET) == 0 &&
                   su->total_combo + cnt <= KILLER_COMBO_TOTAL_CAP) {
            c->tabled = 1;
            su->tabsz[ci] = cnt;
            su->total_combo += cnt;
        }
        if (!c->tabled && c->cage >= 0) a->res->bounds_cages++;
    }
}

/* The second arena: the tables, filled, the trail and the group caches.
 * Returns 0 or SEARCH_ENOMEM. */
static int adv_tables(killer__adv_t *a, setup_t *su) {
    int n = a->n, nc = a->nc;
    size_t bytes2;
    char *mem2;
    uint32_t ci;
    a->tcap = (uint32_t)nc * (uint32_t)n + su->total_combo + 16;
    bytes2 = KILLER__ALIGN((size_t)su->total_combo * sizeof(uint64_t)) +
             KILLER__ALIGN((size_t)a->tcap * 4) + KILLER__ALIGN((size_t)a->tcap * 8) +
             KILLER__ALIGN((size_t)su->ncells * sizeof(killer__grpc_t));
    mem2 = killer__alloc(a->opts, bytes2);
    if (mem2 == NULL) return SEARCH_ENOMEM;
    a->mem2 = mem2;
    a->res->mem_peak = su->bytes1 + bytes2;
    a->combos = (uint64_t *)(void *)mem2;
    a->tkey =
        (uint32_t *)(void *)(mem2 + KILLER__ALIGN((size_t)su->total_combo * sizeof(uint64_t)));
    a->told =
        (uint64_t *)(void *)(mem2 + KILLER__ALIGN((size_t)su->total_combo * sizeof(uint64_t)) +
                             KILLER__ALIGN((size_t)a->tcap * 4));
    a->grpc = (killer__grpc_t *)(void *)(mem2 +
                                         KILLER__ALIGN((size_t)su->total_combo * sizeof(uint64_t)) +
                                         KILLER__ALIGN((size_t)a->tcap * 4) +
                                         KILLER__ALIGN((size_t)a->tcap * 8));
    memset(a->grpc, 0, (size_t)su->ncells * sizeof(killer__grpc_t));
    {
        uint32_t off = 0, cnt;
        for (ci = 0; ci < (uint32_t)a->ncons; ci++) {
            killer__con_t *c = &a->cons[ci];
            if (!c->tabled) continue;
            c->combo_off = off;
            c->ncombo = su->tabsz[ci];
            (void)killer__combos(a->m.sym, a->full, c->ncells, c->sum, a->combos + off,
                                 su->tabsz[ci], &cnt, COMBO_BUDGET);
            a->live[ci] = su->tabsz[ci];
            off += su->tabsz[ci];
        }
    }
    return 0;
}

/* The root: all candidates, the givens through killer__set_mask, every con
 * and unit queued, propagated; then the split descent.  Sets a->ok. */
static void adv_root(killer__adv_t *a) {
    int nc = a->nc, i;
    uint32_t ci;
    for (i = 0; i < nc; i++)
        a->cand[i] = a->full;
    for (ci = 0; ci < (uint32_t)a->ncons; ci++) {
        int k = a->cons[ci].ncells;
        a->cdyn[ci].open = k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
        a->cdyn[ci].dec = 0;
        a->cdyn[ci].rem = a->cons[ci].sum;
    }
    for (ci = 0; ci < (uint32_t)a->ncons; ci++)
        killer__enqueue_con(a, ci);
    for (i = 0; i < a->nunits; i++) {
        a->udirty[i] = 1;
        a->ulist[a->ulen++] = (uint8_t)i;
    }
    {
        int ok = 1;
        if (a->pz->givens != NULL)
            for (i = 0; i < nc && ok; i++)
                if (a->pz->givens[i] != 0 && a->cand[i] != KILLER__BIT(a->pz->givens[i]))
                    ok = (a->cand[i] & KILLER__BIT(a->pz->givens[i])) &&
                         killer__set_mask(a, i, KILLER__BIT(a->pz->givens[i])) == 0;
        if (!ok) {
            killer__clear_queues(a);
        } else
            ok = killer__propagate(a) == 0;
        if (ok && a->opts->split_depth > 0)
            ok = split_descend(a, a->opts->split_depth, a->opts->split_index);
        a->ok = ok;
    }
}

/* Builds a solve state for pz under opts, results into res: the model,
 * the cons (with the 45-rule ones if rule45), the root propagation and
 * the split descent.  Returns 0 with *out set (free it with adv_close()),
 * or SEARCH_ENOMEM. */
static int adv_open(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res,
                    int rule45, killer__adv_t **out) {
    setup_t su;
    killer__adv_t *a = adv_alloc(pz, opts, res, &su);
    int rc;
    if (a == NULL) return SEARCH_ENOMEM;
    if ((rc = adv_cons(a, &su, rule45)) != 0) goto fail;
    adv_cell_cons(a);
    adv_peers(a);
    adv_table_sizes(a, &su);
    if ((rc = adv_tables(a, &su)) != 0) goto fail;
    adv_root(a);
    *out = a;
    return 0;
fail:
    adv_close(a);
    return rc;
}

/* Searches on from where the last call stopped until the search ends
 * (0, or SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET) or, before a
 * node that would make res->stats.nodes exceed pause_at, pauses
 * (ADV_PAUSED) at a consistent state that the next call takes up. */
static int adv_run(killer__adv_t *a, uint64_t pause_at) {
    const killer_puzzle_t *pz = a->pz;
    const killer_opts_t *opts = a->opts;
    killer_result_t *res = a->res;
    uint32_t depth = a->depth;
    int ok = a->ok, nc = a->nc, i, rc = 0;
    (void)pz; /* the solution check is an assert */
    for (;;) {
        if (ok) {
            if (a->decided == (uint32_t)nc) {
                for (i = 0; i < nc; i++)
                    a->grid[i] = (uint8_t)(killer__ctz(a->cand[i]) + 1);
                assert(killer_check_solution(pz, a->grid) == 1);
                if (opts->solutions != NULL)
                    memcpy(opts->solutions + (size_t)res->solutions_found * nc, a->grid,
                           (size_t)nc);
                res->solutions_found++;
                if (res->solutions_found >= opts->max_solutions) {
                    /* nothing left to search when no choice is open */
                    res->exhausted = depth == 0;
                    goto out;
                }
                ok = 0;
                continue;
            }
            if (res->stats.nodes >= pause_at) {
                rc = ADV_PAUSED;
                goto out;
            }
            {
                frame_t *f;
                res->stats.nodes++;
                if ((res->stats.nodes & POLL_MASK) == 0 &&
                    (rc = search_check_now(opts->ctl, res->stats.nodes)) != 0)
                    goto out;
                if (opts->ctl != NULL && opts->ctl->node_budget != 0 &&
                    res->stats.nodes > opts->ctl->node_budget) {
                    rc = SEARCH_BUDGET;
                    goto out;
                }
                f = &a->stack[depth++];
                a->level = depth;
                a->lser[depth] = ++a->nser;
                if (depth > res->stats.max_depth) res->stats.max_depth = depth;
                f->mark = a->tlen;
                f->decided = a->decided;
                f->ch = choose(a);
                ok = apply_choice(a, f->ch, 1) == 0;
            }
            continue;
        }
        if (depth == 0) {
            res->exhausted = 1;
            break;
        }
        {
            frame_t *f = &a->stack[--depth];
            a->level = depth;
            killer__undo(a, f->mark);
            a->decided = f->decided;
            res->stats.backtracks++;
            ok = apply_choice(a, f->ch, 0) == 0;
        }
    }
out:
    a->depth = depth;
    a->ok = ok;
    return rc;
}

/* Adds what solve state r did to the total t (interleaved orders). */
static void adv_add_stats(killer_result_t *t, const killer_result_t *r) {
    t->stats.nodes += r->stats.nodes;
    t->stats.backtracks += r->stats.backtracks;
    t->stats.propagations += r->stats.propagations;
    if (r->stats.max_depth > t->stats.max_depth) t->stats.max_depth = r->stats.max_depth;
    t->mem_peak += r->mem_peak;
}

/* The solve with every con: one value order, or both in turns. */
static int solve_full(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res) {
    killer_opts_t o[2];
    killer_result_t r[2];
    search_ctl_t ctl;
    killer__adv_t *st[2] = {NULL, NULL};
    uint64_t budget = opts->ctl != NULL ? opts->ctl->node_budget : 0;
    int rc, k = 0;

    if (opts->values != KILLER_VALUES_AUTO || opts->max_solutions != 1 || opts->split_depth != 0) {
        killer_opts_t one = *opts;
        if (one.values == KILLER_VALUES_AUTO) one.values = KILLER_VALUES_ASCENDING;
        rc = adv_open(pz, &one, res, 1, &st[0]);
        if (rc != 0) return rc;
        res->value_orders = 1;
        rc = adv_run(st[0], UINT64_MAX);
        adv_close(st[0]);
        return rc;
    }
    /* both orders in turns of opts->interleave nodes (killer.h); the
     * budget counts both, so the states run without one */
    for (k = 0; k < 2; k++) {
        o[k] = *opts;
        o[k].values = k == 0 ? KILLER_VALUES_ASCENDING : KILLER_VALUES_DESCENDING;
        r[k] = *res;
    }
    if (opts->ctl != NULL) {
        ctl = *opts->ctl;
        ctl.node_budget = 0;
        o[0].ctl = o[1].ctl = &ctl;
    }
    for (k = 0;; k ^= 1) {
        uint64_t slice = opts->interleave ? opts->interleave : KILLER_INTERLEAVE_NODES;
        uint64_t used = r[0].stats.nodes + r[1].stats.nodes;
        if (budget != 0 && budget - used < slice) slice = budget - used;
        if (st[k] == NULL && (rc = adv_open(pz, &o[k], &r[k], 1, &st[k])) != 0) break;
        rc = adv_run(st[k], r[k].stats.nodes + slice);
        if (rc != ADV_PAUSED) break;
        if (budget != 0 && r[0].stats.nodes + r[1].stats.nodes >= budget) {
            rc = SEARCH_BUDGET;
            break;
        }
    }
    /* the state that ended the solve answers; the other adds its work */
    *res = r[k];
    adv_add_stats(res, &r[k ^ 1]);
    res->value_orders = st[1] != NULL ? 2 : 1;
    for (k = 0; k < 2; k++)
        if (st[k] != NULL) adv_close(st[k]);
    return rc;
}

/* Most ordinary killers fall to the cages and the Sudoku rules at the
 * root, and for those the 45-rule set-up (killer__derive(), classify(),
 * the tables) is most of the time: janko's 9x9 ones, 187 of 243, end
 * there, and their median went from 0.42 to 0.07 ms.  So the root is
 * tried with the cages alone first.  When it decides every cell or fails, that is the answer
 * (propagation only removes values no solution has, so a full grid is
 * the only solution and a failure means none); otherwise the state goes
 * and solve_full() starts over with every con, making the same search as
 * without this step.  A split item (split_depth d > 0) takes the root
 * unsplit: a grid settled there belongs to index 0, whose split_span then
 * covers all 2^d (as split_descend() does for a grid solved above level
 * d), and every other index is empty. */
int killer__solve_adv(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res) {
    killer_opts_t one = *opts;
    killer_result_t r0 = *res;
    killer__adv_t *st;
    int rc;
    if (one.values == KILLER_VALUES_AUTO) one.values = KILLER_VALUES_ASCENDING;
    one.split_depth = 0;
    rc = adv_open(pz, &one, &r0, 0, &st);
    if (rc != 0) return rc;
    if (!st->ok || st->decided == (uint32_t)st->nc) {
        if (st->ok && opts->split_depth > 0) {
            if (opts->split_index != 0)
                st->ok = 0;
            else
                r0.split_span = 1u << opts->split_depth;
        }
        rc = adv_run(st, UINT64_MAX);
        adv_close(st);
        *res = r0;
        res->value_orders = 1;
        return rc;
    }
    adv_close(st);
    rc = solve_full(pz, opts, res);
    res->stats.propagations += r0.stats.propagations;
    return rc;
}
