/* killer/lcg.c -- the "learning" Killer method: clause learning over the
 * cells' values and the cages' value sets (sudoku/sat.c, the engine of
 * the Sudoku cdcl method), with the cages and the 45 rule's sums as
 * propagators that explain what they remove (killer/lcg_prop.c): lazy
 * clause generation, as in Chuffed or CP-SAT, on the model of killer/lcg.h.
 *
 * Why: the advanced search (killer/adv.c) rediscovers every dead end in
 * every subtree; here each conflict is analysed down to the cage and cell
 * facts that caused it, and the nogood stays.  Cells and units are the
 * engine's exactly-one groups as in a Sudoku; each cage of 2+ cells adds
 * one y literal per value and a group per value, so "which values does
 * this cage use" can be decided, propagated and learned like any cell
 * value; the sums stay propagators, never a blown-up CNF (the tuning notes
 * measured a CNF of the sums: slower, docs/killer-tuning.md).  Measured
 * there too (issue 37): on random 16x16 killers it solves most of what the
 * advanced search does not; on the hard 9x9s it needs about as many
 * conflicts as advanced needs nodes, each dearer, so auto keeps advanced
 * below 16x16.  Each experiment, kept or not, is listed there.
 *
 * Set-up (lcg_open()): the model and killer__derive()'s equations in a
 * scratch block, sizes counted, then one arena: the propagators' tables,
 * the engine's group table, the explanation records and the engine with
 * its learned-clause arena (its size from opts->mem_cap).  Then the givens
 * are fixed at the root (each propagated, the propagators included).
 *
 * Search: the engine's (VSIDS, restarts, clause-database reduction).  Each
 * model is a solution: checked, recorded, then excluded by a clause over
 * its decisions (sudoku__sat_block(): the decisions propagate to exactly
 * that model), and the search goes on with everything it learned, so a
 * uniqueness proof costs what the refutation of the rest costs, nothing is
 * searched twice.  exhausted = the engine proved no model is left.
 *
 * Limits: the engine polls ctl every ~40,000 propagation ticks (the
 * propagators add their work to the ticks); node_budget counts decisions;
 * a learned clause that does not fit the arena even after a reduction ends
 * the search with SEARCH_BUDGET.
 *
 * Thread-safety: all state is in the arena of one solve. */
#include <string.h>

#include "solvers/killer/derive.h"
#include "solvers/killer/lcg.h"

#define MIN_ARENA_WORDS ((size_t)1 << 16)
#define MAX_ARENA_WORDS ((size_t)1 << 28)
#define WORDS_PER_VAR   256u /* learned-clause arena: words per variable, before the cap */
#define REC_PER_VAR     32u  /* explanation records: words per variable, at most */
#define REC_CAP_SHARE   64u  /* ... and at most mem_cap / this bytes (see lcg_size) */
#define COMBO_BUDGET    ((uint64_t)KILLER_COMBO_CAP * 64)

/* What lcg_open() counts before the arena. */
typedef struct plan_s {
    killer__model_t *m;
    killer__eqs_t eqs;
    uint32_t *nco;   /* per equation: table size (tabled) */
    uint8_t *tabled; /* per equation: 1 a table con, 0 a sum con */
    uint32_t ncombo, ngroups, ycages, nglits, ngrp_sat;
    void *scratch;
} plan_t;

/* Do cells a and b share a unit or a cage? */
static int peers(const killer__model_t *m, int a, int b) {
    int i, j;
    if (m->cell_cage[a] >= 0 && m->cell_cage[a] == m->cell_cage[b]) return 1;
    for (i = 0; i < m->cell_nunits[a]; i++)
        for (j = 0; j < m->cell_nunits[b]; j++)
            if (m->cell_units[a][i] == m->cell_units[b][j]) return 1;
    return 0;
}

/* Boxes are units of their own unless they are rows or columns. */
static int boxes_count(const killer_puzzle_t *pz) {
    return pz->shape.box_rows > 1 && pz->shape.box_cols > 1;
}

static int unit_used(const killer_puzzle_t *pz, int u) {
    int n = pz->shape.n;
    return u < 2 * n || u >= 3 * n || boxes_count(pz);
}

/* Splits the cells of sum equation e into peer groups (greedy cliques of
 * cells with the same sign), reordering them group by group; writes the
 * groups' starts to gb[0..ngroups] and returns ngroups. */
static int group_cells(const killer__model_t *m, uint16_t *cells, uint8_t *neg, int k,
                       uint8_t *gb) {
    uint8_t grp[KILLER_MAX_N], ng = 0;
    uint16_t tc[KILLER_MAX_N];
    uint8_t tn[KILLER_MAX_N];
    int i, j, g, at = 0;
    for (i = 0; i < k; i++) {
        for (g = 0; g < ng; g++) {
            int ok = 1;
            for (j = 0; j < i && ok; j++)
                if (grp[j] == g && (neg[j] != neg[i] || !peers(m, cells[i], cells[j]))) ok = 0;
            if (ok) break;
        }
        grp[i] = (uint8_t)g;
        if (g == ng) ng++;
    }
    for (g = 0; g < ng; g++) {
        gb[g] = (uint8_t)at;
        for (i = 0; i < k; i++)
            if (grp[i] == g) {
                tc[at] = cells[i];
                tn[at++] = neg[i];
            }
    }
    gb[ng] = (uint8_t)k;
    memcpy(cells, tc, (size_t)k * sizeof *cells);
    memcpy(neg, tn, (size_t)k);
    return ng;
}

/* Classifies every equation: distinct or not, table size; counts. */
static void plan_cons(plan_t *p, uint64_t full) {
    const killer__model_t *m = p->m;
    uint32_t e, total = 0;
    uint8_t gb[KILLER_MAX_N + 1];
    for (e = 0; e < p->eqs.neq; e++) {
        const killer__eq_t *q = &p->eqs.eq[e];
        uint16_t *cells = p->eqs.cells + q->off;
        uint32_t cnt = 0;
        int i, j, dist = !q->mirror;
        for (i = 0; i < q->k && dist; i++)
            for (j = 0; j < i && dist; j++)
                if (!peers(m, cells[i], cells[j])) dist = 0;
        p->tabled[e] = 0;
        p->nco[e] = 0;
        if (dist &&
            killer__combos(m->sym, full, q->k, q->sum, NULL, KILLER_COMBO_CAP, &cnt,
                           COMBO_BUDGET) == 0 &&
            total + cnt <= KILLER_COMBO_TOTAL_CAP) {
            p->tabled[e] = 1; /* an empty table is a conflict at the root */
            p->nco[e] = cnt;
            total += cnt;
        } else {
            p->ngroups += (uint32_t)group_cells(m, cells, p->eqs.neg + q->off, q->k, gb) + 1;
        }
        if (q->cage >= 0 && q->k >= 2) p->ycages++;
    }
    p->ncombo = total;
}

/* The units (used ones) that hold every cell of cells[0..k): writes them
 * to out and returns how many (at most 5). */
static int units_holding(const killer__model_t *m, const killer_puzzle_t *pz, const uint16_t *cells,
                         int k, int *out) {
    int cnt = 0, u, i, j;
    for (u = 0; u < m->cell_nunits[cells[0]]; u++) {
        int unit = m->cell_units[cells[0]][u], all = unit_used(pz, unit);
        for (i = 1; i < k && all; i++) {
            int in = 0;
            for (j = 0; j < m->cell_nunits[cells[i]]; j++)
                in |= m->cell_units[cells[i]][j] == unit;
            all = in;
        }
        if (all) out[cnt++] = unit;
    }
    return cnt;
}

/* The engine's groups (see killer/lcg.h): sizes. */
static void plan_groups(plan_t *p, const killer_puzzle_t *pz) {
    uint32_t n = (uint32_t)pz->shape.n, nc = n * n, u, nu = 0, e;
    for (u = 0; u < (uint32_t)p->m->nunits; u++)
        nu += (uint32_t)unit_used(pz, (int)u);
    p->ngrp_sat = nc + nu * n;
    p->nglits = nc * n + nu * n * n;
    for (e = 0; e < p->eqs.neq; e++) {
        const killer__eq_t *q = &p->eqs.eq[e];
        if (q->cage >= 0 && q->k >= 2) {
            int units[5], h = units_holding(p->m, pz, p->eqs.cells + q->off, q->k, units);
            p->ngrp_sat += n * (1u + (uint32_t)h);
            p->nglits += n * ((uint32_t)q->k + 1) + (uint32_t)h * n * (n - (uint32_t)q->k + 1);
        }
    }
}

/* Fills the engine's group table: cells, units, cage values. */
static void build_groups(const killer__lcg_t *L, const plan_t *p, const killer_puzzle_t *pz,
                         uint32_t *gstart, uint32_t *glits) {
    uint32_t n = (uint32_t)L->n, g = 0, k = 0, i, v, u, ci;
    for (i = 0; i < (uint32_t)L->nc; i++) {
        gstart[g++] = k;
        for (v = 1; v <= n; v++)
            glits[k++] = killer__lcg_x(L, (int)i, (int)v);
    }
    for (u = 0; u < (uint32_t)p->m->nunits; u++) {
        if (!unit_used(pz, (int)u)) continue;
        for (v = 1; v <= n; v++) {
            gstart[g++] = k;
            for (i = 0; i < n; i++)
                glits[k++] = killer__lcg_x(L, p->m->unit_cells[u][i], (int)v);
        }
    }
    for (ci = 0; ci < L->ncons; ci++) {
        const killer__lcg_con_t *c = &L->cons[ci];
        const uint16_t *cells = L->ccell + c->off;
        uint32_t j;
        int units[5], nu, a;
        if (c->ybase < 0) continue;
        for (v = 1; v <= n; v++) {
            gstart[g++] = k;
            for (j = 0; j < c->k; j++)
                glits[k++] = killer__lcg_x(L, cells[j], (int)v);
            glits[k++] = 2u * ((uint32_t)c->ybase + v - 1u) + 1u;
        }
        /* a unit holding the cage: v is in the cage (y) or in one of the
         * unit's other cells */
        nu = units_holding(p->m, pz, cells, c->k, units);
        for (a = 0; a < nu; a++)
            for (v = 1; v <= n; v++) {
                gstart[g++] = k;
                for (i = 0; i < n; i++) {
                    int x = p->m->unit_cells[units[a]][i];
                    if (p->m->cell_cage[x] != p->m->cell_cage[cells[0]])
                        glits[k++] = killer__lcg_x(L, x, (int)v);
                }
                glits[k++] = 2u * ((uint32_t)c->ybase + v - 1u);
            }
    }
    gstart[g] = k;
    assert(g == p->ngrp_sat && k == p->nglits);
}

/* === Set-up ============================================================= */

/* A solve's state: the propagators' state, the engine, and its arena. */
typedef struct lcg_run_s {
    killer__lcg_t *L;
    sudoku__sat_t *s;
    char *mem;
    size_t bytes;
} lcg_run_t;

/* The scratch block: the model, killer__derive()'s equations and their
 * classification.  Returns 0 or SEARCH_ENOMEM (nothing to free then). */
static int plan_open(plan_t *p, const killer_puzzle_t *pz, const killer_opts_t *opts,
                     char **block) {
    uint32_t maxeqs, maxcells;
    size_t scratch, bytes;
    char *at;
    memset(p, 0, sizeof *p);
    killer__derive_size(pz, &maxeqs, &maxcells, &scratch);
    bytes = KILLER__ALIGN(sizeof(killer__model_t)) +
            KILLER__ALIGN((size_t)maxeqs * sizeof(killer__eq_t)) +
            KILLER__ALIGN((size_t)maxcells * sizeof(uint16_t)) + KILLER__ALIGN(maxcells) +
            KILLER__ALIGN((size_t)maxeqs * sizeof(uint32_t)) + KILLER__ALIGN(maxeqs) + scratch;
    at = *block = killer__alloc(opts, bytes);
    if (at == NULL) return SEARCH_ENOMEM;
    p->m = (killer__model_t *)(void *)at;
    at += KILLER__ALIGN(sizeof(killer__model_t));
    p->eqs.eq = (killer__eq_t *)(void *)at;
    at += KILLER__ALIGN((size_t)maxeqs * sizeof(killer__eq_t));
    p->eqs.cells = (uint16_t *)(void *)at;
    at += KILLER__ALIGN((size_t)maxcells * sizeof(uint16_t));
    p->eqs.neg = (uint8_t *)at;
    at += KILLER__ALIGN(maxcells);
    p->nco = (uint32_t *)(void *)at;
    at += KILLER__ALIGN((size_t)maxeqs * sizeof(uint32_t));
    p->tabled = (uint8_t *)at;
    at += KILLER__ALIGN(maxeqs);
    p->scratch = at;
    killer__model_init(p->m, pz);
    (void)killer__derive(p->m, &p->eqs, p->scratch, 1);
    plan_cons(p, p->m->full);
    plan_groups(p, pz);
    return 0;
}

/* Copies the planned cons into the arena's arrays: cells, groups, tables,
 * each cell's cons, the y blocks. */
static void fill_cons(killer__lcg_t *L, const plan_t *p) {
    uint32_t ci, off = 0, coff = 0, goff = 0, yb = L->nx, nyb = 0;
    int i;
    uint8_t gb[KILLER_MAX_N + 1];
    for (ci = 0; ci < L->ncons; ci++) {
        const killer__eq_t *q = &p->eqs.eq[ci];
        killer__lcg_con_t *c = &L->cons[ci];
        c->sum = q->sum;
        c->k = q->k;
        c->off = off;
        c->derived = q->cage < 0;
        c->ybase = -1;
        memcpy(L->ccell + off, p->eqs.cells + q->off, (size_t)q->k * sizeof(uint16_t));
        memcpy(L->cneg + off, p->eqs.neg + q->off, q->k);
        if (q->cage >= 0 && q->k >= 2) {
            c->ybase = (int32_t)yb;
            L->ycon[nyb++] = ci;
            yb += (uint32_t)L->n;
        }
        c->tabled = p->tabled[ci];
        if (c->tabled) {
            uint32_t cnt;
            c->combo_off = coff;
            c->ncombo = p->nco[ci];
            (void)killer__combos(L->w, L->full, q->k, q->sum, L->combos + coff, c->ncombo, &cnt,
                                 COMBO_BUDGET);
            L->nlive[ci] = c->ncombo;
            coff += c->ncombo;
        } else {
            /* plan_cons() reordered the cells by group: count them again */
            int ng = group_cells(p->m, L->ccell + off, L->cneg + off, q->k, gb);
            c->goff = goff;
            c->ngroups = (uint8_t)ng;
            for (i = 0; i <= ng; i++)
                L->gbeg[goff + (uint32_t)i] = gb[i];
            goff += (uint32_t)ng + 1;
        }
        off += q->k;
    }
    /* each cell's cons, in con order (cages first) */
    for (ci = 0; ci < L->ncons; ci++)
        for (i = 0; i < L->cons[ci].k; i++)
            L->cell_cons_off[L->ccell[L->cons[ci].off + (uint32_t)i] + 1]++;
    for (i = 0; i < L->nc; i++)
        L->cell_cons_off[i + 1] += L->cell_cons_off[i];
    memset(L->cq, 0, (size_t)L->nc * sizeof(uint32_t)); /* fill cursors (cq has >= nc) */
    for (ci = 0; ci < L->ncons; ci++)
        for (i = 0; i < L->cons[ci].k; i++) {
            int x = L->ccell[L->cons[ci].off + (uint32_t)i];
            L->cell_cons[L->cell_cons_off[x] + L->cq[x]++] = ci;
        }
}

#define AL KILLER__ALIGN

/* The arena's sizes (lcg_size()). */
typedef struct sizes_s {
    uint32_t nvars, ncons, maxq;
    size_t ncells, recw, fixed, words;
} sizes_t;

/* Sizes the arena for plan p under opts->mem_cap: returns 0, or
 * SEARCH_BUDGET when the cap leaves the engine less than a minimal
 * learned-clause arena. */
static int lcg_size(const plan_t *p, const killer_puzzle_t *pz, const killer_opts_t *opts,
                    sizes_t *z) {
    size_t cap = opts->mem_cap ? opts->mem_cap : KILLER_DEFAULT_MEM_CAP, want;
    uint32_t n = (uint32_t)pz->shape.n, nc = n * n;
    z->ncons = p->eqs.neq;
    z->ncells = p->eqs.ncells;
    z->nvars = nc * n + p->ycages * n;
    z->maxq = z->ncons > nc ? z->ncons : nc;
    /* the records: a reserve for a conflict clause (nvars + 2), as much
     * again at least, up to REC_PER_VAR words a variable as the cap allows;
     * an explanation that does not fit is dropped (sudoku__sat_ext_t) */
    z->recw = cap / REC_CAP_SHARE;
    if (z->recw > (size_t)z->nvars * (REC_PER_VAR + 1) + 2)
        z->recw = (size_t)z->nvars * (REC_PER_VAR + 1) + 2;
    if (z->recw < 2 * ((size_t)z->nvars + 2)) z->recw = 2 * ((size_t)z->nvars + 2);
    z->fixed =
        AL(sizeof(killer__lcg_t)) + AL(sizeof(sudoku__sat_t)) +
        AL((size_t)z->ncons * sizeof(killer__lcg_con_t)) + AL(z->ncells * sizeof(uint16_t)) +
        AL(z->ncells) + AL((size_t)p->ngroups + 1) + AL((size_t)p->ncombo * sizeof(uint64_t)) +
        AL(((size_t)nc + 1) * 4) + AL(z->ncells * 4) + AL((size_t)p->ycages * 4 + 4) +
        AL((size_t)nc * 8) + 2 * AL((size_t)z->ncons * 8) + 2 * AL((size_t)z->maxq * 4) +
        AL(((size_t)z->nvars + 1) * 4) + AL((size_t)z->nvars * 8) + AL((size_t)p->ncombo * 4 + 4) +
        AL((size_t)z->ncons * 4) + AL(((size_t)p->ncombo + 1) * sizeof(killer__lcg_ctrail_t)) +
        AL(((size_t)p->ngrp_sat + 1) * 4) + AL((size_t)p->nglits * 4) + AL(z->recw * 4) +
        AL(((size_t)z->nvars + 1) * sizeof(size_t)) +
        sudoku__sat_bytes(z->nvars, p->ngrp_sat, p->nglits, 0);
    /* each arena word costs 4 bytes plus 8 of watch pool (sat.c); the
     * arena holds the learned clauses (reduced as it fills) and a clause
     * excluding each solution found (never reduced: room for all of them,
     * a decision at most per cell and per cage) */
    z->words = cap > z->fixed + 64 ? (cap - z->fixed - 64) / 12 : 0;
    want = (size_t)z->nvars * WORDS_PER_VAR + (size_t)opts->max_solutions * (nc + p->ycages + 3);
    if (z->words > want) z->words = want;
    if (z->words < MIN_ARENA_WORDS && cap > z->fixed + 64 + MIN_ARENA_WORDS * 12)
        z->words = MIN_ARENA_WORDS;
    if (z->words < MIN_ARENA_WORDS) return SEARCH_BUDGET;
    if (z->words > MAX_ARENA_WORDS) z->words = MAX_ARENA_WORDS;
    return 0;
}

/* Lays the propagators' state out from at (zeroed) and fills what does
 * not depend on the cons: the symbols and their order.  Returns where the
 * engine's group table goes (*gstart, *glits) and the engine's block. */
static char *lcg_carve(lcg_run_t *r, const plan_t *p, const sizes_t *z, int n, char *at,
                       uint32_t **gstart, uint32_t **glits) {
    killer__lcg_t *L;
    int i, nc = n * n;
#define TAKE(ptr, type, count)                                                                     \
    do {                                                                                           \
        ptr = (type *)(void *)at;                                                                  \
        at += AL((size_t)(count) * sizeof(type));                                                  \
    } while (0)
    TAKE(L, killer__lcg_t, 1);
    TAKE(r->s, sudoku__sat_t, 1);
    r->L = L;
    L->s = r->s;
    L->n = n;
    L->nc = nc;
    L->nx = (uint32_t)(nc * n);
    L->nvars = z->nvars;
    L->full = p->m->full;
    L->ncons = z->ncons;
    for (i = 0; i <= n; i++)
        L->w[i] = p->m->sym[i];
    for (i = 0; i < n; i++) { /* value indices by ascending symbol */
        int j = i;
        while (j > 0 && L->w[L->ord[j - 1]] > L->w[i + 1]) {
            L->ord[j] = L->ord[j - 1];
            j--;
        }
        L->ord[j] = (uint8_t)(i + 1);
    }
    TAKE(L->cons, killer__lcg_con_t, z->ncons);
    TAKE(L->ccell, uint16_t, z->ncells);
    TAKE(L->cneg, uint8_t, z->ncells);
    TAKE(L->gbeg, uint8_t, p->ngroups + 1);
    TAKE(L->combos, uint64_t, p->ncombo);
    TAKE(L->cell_cons_off, uint32_t, nc + 1);
    TAKE(L->cell_cons, uint32_t, z->ncells);
    TAKE(L->ycon, uint32_t, p->ycages + 1);
    TAKE(L->dom, uint64_t, nc);
    TAKE(L->ypos, uint64_t, z->ncons);
    TAKE(L->yneg, uint64_t, z->ncons);
    TAKE(L->cq, uint32_t, z->maxq);
    TAKE(L->dq, uint32_t, z->maxq);
    TAKE(L->buf, uint32_t, z->nvars + 1);
    TAKE(L->lstamp, uint32_t, 2 * (size_t)z->nvars);
    TAKE(L->pend, uint32_t, p->ncombo + 1);
    TAKE(L->nlive, uint32_t, z->ncons);
    TAKE(L->ctrail, killer__lcg_ctrail_t, p->ncombo + 1);
    TAKE(*gstart, uint32_t, p->ngrp_sat + 1);
    TAKE(*glits, uint32_t, p->nglits);
    TAKE(L->ext.rec, uint32_t, z->recw);
    TAKE(L->ext.lvl, size_t, z->nvars + 1);
#undef TAKE
    return at;
}

/* Builds the state of a solve: returns 0 with r filled (free r->mem),
 * SEARCH_ENOMEM, or SEARCH_BUDGET when opts->mem_cap leaves the engine
 * too small an arena. */
static int lcg_open(const killer_puzzle_t *pz, const killer_opts_t *opts, lcg_run_t *r) {
    plan_t p;
    sizes_t z;
    char *block = NULL, *at;
    int rc, nc = pz->shape.n * pz->shape.n, i;
    killer__lcg_t *L;
    sudoku__sat_config_t cfg;
    uint32_t *gstart, *glits;

    memset(r, 0, sizeof *r);
    if ((rc = plan_open(&p, pz, opts, &block)) != 0) return rc;
    if ((rc = lcg_size(&p, pz, opts, &z)) != 0) goto out;
    r->bytes = z.fixed + sudoku__sat_bytes(z.nvars, p.ngrp_sat, p.nglits, z.words) -
               sudoku__sat_bytes(z.nvars, p.ngrp_sat, p.nglits, 0);
    r->mem = killer__alloc(opts, r->bytes);
    if (r->mem == NULL) {
        rc = SEARCH_ENOMEM;
        goto out;
    }
    memset(r->mem, 0, z.fixed - sudoku__sat_bytes(z.nvars, p.ngrp_sat, p.nglits, 0));
    at = lcg_carve(r, &p, &z, pz->shape.n, r->mem, &gstart, &glits);
    L = r->L;
    fill_cons(L, &p);
    for (i = 0; i < nc; i++)
        L->dom[i] = L->full;
    build_groups(L, &p, pz, gstart, glits);

    sudoku__sat_config_init(&cfg);
    sudoku__sat_init(r->s, at, z.nvars, p.ngrp_sat, gstart, glits, z.words, &cfg);
    L->ext.propagate = killer__lcg_propagate;
    L->ext.undo = killer__lcg_undo;
    L->ext.ud = L;
    L->ext.cap = z.recw;
    L->ext.reserve = (size_t)z.nvars + 2;
    sudoku__sat_attach(r->s, &L->ext);
    killer__lcg_queue_all(L);
    if (pz->givens != NULL)
        for (i = 0; i < nc; i++)
            if (pz->givens[i] != 0 &&
                sudoku__sat_fix(r->s, killer__lcg_x(L, i, pz->givens[i])) != 0)
                break;
out:
    killer__free(opts, block);
    return rc;
}
#undef AL

/* === Search ============================================================= */

static void lcg_grid(const killer__lcg_t *L, uint8_t *g) {
    int i, v;
    for (i = 0; i < L->nc; i++) {
        g[i] = 0;
        for (v = 1; v <= L->n; v++)
            if (L->s->val[killer__lcg_x(L, i, v)] > 0) {
                g[i] = (uint8_t)v;
                break;
            }
    }
}

int killer__solve_lcg(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res) {
    lcg_run_t r;
    uint8_t grid[KILLER__MAX_CELLS];
    int rc = lcg_open(pz, opts, &r);
    if (rc != 0) return rc;
    for (;;) {
        rc = sudoku__sat_solve(r.s, opts->ctl);
        if (rc == SUDOKU__SAT_UNSAT) {
            res->exhausted = 1;
            rc = 0;
            break;
        }
        if (rc != SUDOKU__SAT_SAT) break;
        lcg_grid(r.L, grid);
        assert(killer_check_solution(pz, grid) == 1);
        if (opts->solutions != NULL)
            memcpy(opts->solutions + (size_t)res->solutions_found * (size_t)r.L->nc, grid,
                   (size_t)r.L->nc);
        res->solutions_found++;
        rc = sudoku__sat_block(r.s);
        if (rc == SUDOKU__SAT_UNSAT) { /* the model was forced: no other */
            res->exhausted = 1;
            rc = 0;
            break;
        }
        if (res->solutions_found >= opts->max_solutions) {
            rc = 0; /* a full arena after the last one changes nothing */
            break;
        }
        if (rc != 0) break;
    }
    res->stats.nodes = r.s->stats.decisions;
    res->stats.backtracks = r.s->stats.conflicts;
    res->stats.propagations = r.s->stats.propagations;
    res->stats.max_depth = r.s->stats.max_level;
    res->mem_peak = r.bytes;
    res->learning.conflicts = r.s->stats.conflicts;
    res->learning.learned = r.s->stats.learned;
    res->learning.learned_lits = r.s->stats.learned_lits;
    res->learning.restarts = r.s->stats.restarts;
    res->learning.dropped = r.L->ext.skipped;
    killer__free(opts, r.mem);
    return rc;
}
