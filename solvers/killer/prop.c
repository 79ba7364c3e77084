/* killer/prop.c -- the propagation of the "advanced" Killer Sudoku method:
 * the rules that shrink the candidate masks of a killer__adv_t to a
 * fixpoint, and the trail that undoes them.  killer/adv.c builds the
 * state and searches; killer/internal.h describes the state they share.
 * The measurements behind this design are in docs/killer-tuning.md.
 *
 * Constraints ("cons")
 * --------------------
 * Every cage is a con: cells, a target sum, distinct values.  Before the
 * search the 45 rule adds more (killer/derive.c): innie, outie and mixed
 * sets of up to DERIVED_MAX cells over runs of rows, columns and boxes, a
 * mixed set's `-` cells entering mirrored (con_neg: n + 1 - v), so every
 * con is a plain sum.  A derived con's cells may repeat a value unless
 * they are pairwise peers, so a con is `distinct` only when every pair
 * shares a unit or a cage.
 *
 * How a con propagates (prop_con): con_open() gathers its open cells, then
 * one propagator by its kind, prop_<kind> below (prop_tabled, prop_bounds,
 * prop_sum); after bounds and sum, prop_small.
 *   tabled  distinct cons whose table of value combinations (sets of k
 *           value indices as uint64 masks whose symbols add to the sum;
 *           killer__combos) fits KILLER_COMBO_CAP.  The table is a sparse
 *           set: combos[0..live) are still possible, the rest were removed
 *           by swapping them behind `live`, so undoing is restoring live
 *           (trailed), never copying the table.  A combo stays live if it
 *           holds the decided values, every open cell meets the rest of
 *           it, the open cells together cover that rest and (<= SMALL_OPEN
 *           + 1 open cells) a perfect matching exists.  Open cells shrink
 *           to the supported values (with <= SMALL_OPEN + 1 open cells the
 *           values of some matching: exact); the intersection of live
 *           combos is what the cage must hold (con_claim_ot): a required
 *           value with one place in the cage goes there, and leaves every
 *           other cell of each unit that contains the whole cage
 *           (cage/unit claiming) and every cell outside the cage that sees
 *           all of its places in it (cage pointing; peer bitsets, grids of
 *           up to 128 cells; derived cons up to POINT_DERIVED_MAX cells).
 *           Conversely the hidden-single scan of a unit notices a value
 *           whose every place in the unit lies in one cage, and keeps only
 *           that cage's combos that contain it.  A tabled con's own changes
 *           do not requeue it (killer__propagate() holds its inq flag up while it
 *           runs): its result is (close to) a fixpoint.
 *   bounds  distinct cons over the cap (big cages on big grids): the rest
 *           of the sum must lie between the sums of the `open` smallest
 *           and largest available symbols, per cell and value; with
 *           symbols ascending by index that is one window of values for
 *           every cell.
 *   sum     non-distinct (derived) cons: classify() splits the cells into
 *           peer groups (greedy cliques); a group of k open cells adds up
 *           to between the k smallest and the k largest symbols of its
 *           candidates' union, and a value stays at a cell only if the
 *           bounds of the whole con still admit the sum.  With symbols
 *           ascending by index this is one window of values per group.
 *           Groups rather than per-cell bounds, which would let the two
 *           cells of an innie pair in one row both be 1.  A mixed con sees
 *           its mirrored cells' masks mirrored (mirror_mask; a group never
 *           mixes signs) and recounts the rest of its sum (cdyn's counts
 *           every cell as itself).
 *   small   a non-tabled con with <= SMALL_OPEN open cells is then solved
 *           exactly: a depth-first walk (depth <= SMALL_OPEN) over the
 *           open cells' candidates finds, for each cell, the values that
 *           belong to some complete assignment (distinct where the cells
 *           are peers, sum met), and removes the others.
 * Plus the Sudoku rules: a decided cell's value leaves its peers (row,
 * column, box, diagonals, cage), hidden singles per unit, and locked
 * candidates between boxes and lines (pointing and claiming); a value
 * whose places in a unit all lie in one cage leaves the cage's other cells
 * (and its tabled con keeps only combos holding it).
 *
 * Order (killer__propagate()): decided cells' peers, then cages (cq), then unit
 * scans, and the derived cons (dq) only when all of those are done.  A
 * derived con has up to DERIVED_MAX cells and is woken by each change of
 * any of them; run eagerly, derived cons were most of the con runs and
 * seldom changed anything, so they wait for the cheap fixpoint.
 *
 * Thread-safety: everything is in the state it is given; nothing is shared. */
#include <string.h>

#include "solvers/killer/derive.h"

#define DERIVED_MAX KILLER__DERIVED_MAX /* largest derived con (killer/derive.h) */
_Static_assert(DERIVED_MAX <= 32, "prop_con keeps a sum con's groups in a uint32_t");
_Static_assert(KILLER__MIXED_MAX <= DERIVED_MAX, "prop_con sizes its group arrays by DERIVED_MAX");
#define POINT_DERIVED_MAX 5    /* derived cons up to this size point too (con_claim_ot) */
#define SMALL_OPEN        3    /* cons with this few open cells are solved exactly */
#define SORT_MAX_N        16   /* tabled cons with 2..SORT_MAX_OPEN open cells restrict */
#define SORT_MAX_OPEN     3    /* fewest values first up to this n (see prop_con) */
#define CONFLICT_GROWTH   1.05 /* the conflict weight increment grows so (bump()) */

/* === Changes and trail ================================================== */

static void trail(killer__adv_t *a, uint32_t key, uint64_t old) {
    assert(a->tlen < a->tcap);
    a->tkey[a->tlen] = key;
    a->told[a->tlen] = old;
    a->tlen++;
}

/* A cell got decided to value bit m: its cons learn it (killer__condyn_t).
 * sign -1 reverts that (undo). */
static void cons_decide(killer__adv_t *a, int cell, uint64_t m, long sign) {
    const uint16_t *cc = a->cell_cons;
    const uint8_t *pos = a->cell_cons_pos;
    killer__condyn_t *cd = a->cdyn;
    long sv = sign * a->m.sym[killer__ctz(m) + 1];
    uint64_t dm = (uint64_t)sign * m;
    uint32_t i, end = a->cell_cons_off[cell + 1];
    for (i = a->cell_cons_off[cell]; i < end; i++) {
        killer__condyn_t *d = &cd[cc[i]];
        d->open ^= (uint64_t)1 << pos[i];
        d->dec += dm;
        d->rem -= sv; /* (a mirrored con recounts its rest: prop_con) */
    }
}

/* Pops the trail down to mark.  A cell entry whose newer mask (the current
 * one: later entries are already undone) is a single value undecides it. */
void killer__undo(killer__adv_t *a, uint32_t mark) {
    while (a->tlen > mark) {
        uint32_t k = a->tkey[--a->tlen];
        if (k < (uint32_t)a->nc) {
            uint64_t cur = a->cand[k];
            if (cur != 0 && (cur & (cur - 1)) == 0) cons_decide(a, (int)k, cur, -1);
            a->cand[k] = a->told[a->tlen];
        } else
            a->live[k - (uint32_t)a->nc] = (uint32_t)a->told[a->tlen];
    }
}

/* Whether a fact noted at search level `level` (serial `ser` = lser[level]
 * then) still holds for a state that only shrank since: its frame is still
 * on the stack (see killer__adv_t lser). */
static inline int level_valid(const killer__adv_t *a, uint32_t level, uint64_t ser) {
    return level <= a->level && a->lser[level] == ser;
}

void killer__enqueue_con(killer__adv_t *a, uint32_t ci) {
    if (!a->inq[ci]) {
        a->inq[ci] = 1;
        if (ci < a->first_derived)
            a->cq[a->cqlen++] = ci;
        else
            a->dq[a->dqlen++] = ci;
    }
}

/* Sets cand[cell] = m (a strict subset of the current mask).  Returns -1
 * when m is empty. */
int killer__set_mask(killer__adv_t *a, int cell, uint64_t m) {
    uint64_t old = a->cand[cell];
    uint32_t i;
    assert((m & ~old) == 0 && m != old);
    trail(a, (uint32_t)cell, old);
    a->cand[cell] = m;
    {
        uint64_t gone = old & ~m; /* mostly one value (peer eliminations) */
        a->res->stats.propagations +=
            (gone & (gone - 1)) == 0 ? 1u : (uint64_t)killer__popcount(gone);
    }
    if (m == 0) return -1;
    /* Branch-free queueing: whether a cell gets decided, a unit
     * or a con is already queued is data-dependent and mispredicted often;
     * the entry is written anyway and the length advances only when it is
     * new (sq, ulist and cq have one spare slot for that store). */
    {
        uint32_t single = (m & (m - 1)) == 0;
        a->decided += single;
        a->sq[a->sqlen] = (uint16_t)cell;
        a->sqlen += single;
        if (single) cons_decide(a, cell, m, 1);
    }
    /* locals: the uint8_t stores below may alias anything, so the fields
     * would be reloaded on every iteration */
    {
        const uint8_t *cu = a->m.cell_units[cell];
        uint8_t *udirty = a->udirty, *ulist = a->ulist;
        uint32_t ulen = a->ulen, nu = a->m.cell_nunits[cell];
        for (i = 0; i < nu; i++) {
            int u = cu[i];
            ulist[ulen] = (uint8_t)u;
            ulen += 1u - udirty[u];
            udirty[u] = 1;
        }
        a->ulen = ulen;
    }
    {
        /* a cell's cons ascend by index: its cage (if any) first, to cq,
         * then derived cons, to dq */
        const uint16_t *cc = a->cell_cons;
        uint8_t *inq = a->inq;
        uint32_t *dq = a->dq;
        uint32_t dqlen = a->dqlen, end = a->cell_cons_off[cell + 1];
        i = a->cell_cons_off[cell];
        if (a->m.cell_cage[cell] >= 0) {
            uint32_t ci = cc[i++];
            assert(ci < a->first_derived);
            a->cq[a->cqlen] = ci;
            a->cqlen += 1u - inq[ci];
            inq[ci] = 1;
        }
        for (; i < end; i++) {
            uint32_t ci = cc[i];
            dq[dqlen] = ci;
            dqlen += 1u - inq[ci];
            inq[ci] = 1;
        }
        a->dqlen = dqlen;
    }
    return 0;
}

static inline int restrict_to(killer__adv_t *a, int cell, uint64_t keep) {
    uint64_t m = a->cand[cell];
    return (m & ~keep) != 0 ? killer__set_mask(a, cell, m & keep) : 0;
}

/* restrict_to for a caller that holds *m == cand[cell] (prop_con's oc[]:
 * only killer__set_mask on that very cell changes it), and keeps it so. */
static inline int restrict_keep(killer__adv_t *a, int cell, uint64_t *m, uint64_t keep) {
    uint64_t nm = *m & keep;
    if (nm == *m) return 0;
    *m = nm;
    return killer__set_mask(a, cell, nm);
}

/* Removes combos of tabled con ci that lack any value of `need`. */
int killer__con_require(killer__adv_t *a, uint32_t ci, uint64_t need) {
    const killer__con_t *c = &a->cons[ci];
    uint64_t *cb = a->combos + c->combo_off;
    uint32_t live = a->live[ci], i = 0, old = live;
    while (i < live) {
        if ((cb[i] & need) != need) {
            uint64_t t = cb[i];
            cb[i] = cb[--live];
            cb[live] = t;
        } else
            i++;
    }
    if (live == old) return 0;
    trail(a, (uint32_t)a->nc + ci, old);
    a->live[ci] = live;
    a->res->stats.propagations += old - live;
    killer__enqueue_con(a, ci);
    return live == 0 ? -1 : 0;
}

/* Removes combo `combo` from the live ones of tabled con ci (the second
 * side of a combo choice). */
int killer__con_drop(killer__adv_t *a, uint32_t ci, uint64_t combo) {
    const killer__con_t *c = &a->cons[ci];
    uint64_t *cb = a->combos + c->combo_off;
    uint32_t live = a->live[ci], i;
    for (i = 0; i < live && cb[i] != combo; i++) {
    }
    if (i == live) return 0;
    cb[i] = cb[live - 1];
    cb[live - 1] = combo;
    trail(a, (uint32_t)a->nc + ci, live);
    a->live[ci] = live - 1;
    a->res->stats.propagations++;
    killer__enqueue_con(a, ci);
    return live == 1 ? -1 : 0;
}

/* === Con propagation ==================================================== */

/* Exact supports of 2 or 3 open cells (cand[i] without the decided values
 * for distinct cons): support[i] gets every value cell i takes in some
 * assignment that meets the sum rem and keeps peers (peer[i][j], j < i)
 * distinct.  Loops over the first m - 1 cells; the last cell's value is
 * then fixed by the sum: for symbols 1..n (ident) it is computed, else
 * looked up among its candidates.  Replaced a recursion that compared each
 * value with every earlier peer (10% of the instructions on sigh-tarek-41;
 * the same supports, so the same search). */
typedef struct small_s {
    int m, n, ident;
    uint64_t cand[SMALL_OPEN];
    uint64_t support[SMALL_OPEN];
    uint8_t peer[SMALL_OPEN][SMALL_OPEN];
    long rem;
    const long *sym;
} small_t;

/* The value of the last cell among `x` with symbol `need`, as a bit, or 0. */
static inline uint64_t small_last(const small_t *s, uint64_t x, long need) {
    if (s->ident) return need >= 1 && need <= s->n ? x & KILLER__BIT(need) : 0;
    for (; x != 0; x &= x - 1)
        if (s->sym[killer__ctz(x) + 1] == need) return x & -x;
    return 0;
}

_Static_assert(SMALL_OPEN == 3, "small_supports handles 2 or 3 open cells");

static void small_supports(small_t *s) {
    const long *sym = s->sym;
    for (uint64_t x0 = s->cand[0]; x0 != 0; x0 &= x0 - 1) {
        uint64_t b0 = x0 & -x0;
        long r0 = s->rem - sym[killer__ctz(x0) + 1];
        uint64_t c1 = s->cand[1] & ~(s->peer[1][0] ? b0 : 0);
        if (s->m == 2) {
            uint64_t b1 = small_last(s, c1, r0);
            if (b1 != 0) {
                s->support[0] |= b0;
                s->support[1] |= b1;
            }
            continue;
        }
        uint64_t c2 = s->cand[2] & ~(s->peer[2][0] ? b0 : 0);
        for (; c1 != 0; c1 &= c1 - 1) {
            uint64_t b1 = c1 & -c1;
            uint64_t b2 =
                small_last(s, c2 & ~(s->peer[2][1] ? b1 : 0), r0 - sym[killer__ctz(c1) + 1]);
            if (b2 != 0) {
                s->support[0] |= b0;
                s->support[1] |= b1;
                s->support[2] |= b2;
            }
        }
    }
}

/* Perfect matchings of m <= SMALL_OPEN open cells (masks cd) onto the
 * values r (|r| == m): ORs into sup[i] the values cell i takes in some
 * matching and returns whether one exists.
 * Round 3: straight-line over the 2 or 6 assignments of r's values (e0 <
 * e1 < e2) instead of loops over the candidates: which loop runs how often
 * was data-dependent and mispredicted; the supports are the same. */
static int match3(const uint64_t *cd, uint64_t r, uint64_t *sup) {
    uint64_t e0 = r & -r, rr = r ^ e0, e1 = rr & -rr, e2 = rr ^ e1;
    uint64_t t00 = (cd[0] & e0) != 0, t01 = (cd[0] & e1) != 0, t02 = (cd[0] & e2) != 0;
    uint64_t t10 = (cd[1] & e0) != 0, t11 = (cd[1] & e1) != 0, t12 = (cd[1] & e2) != 0;
    uint64_t t20 = (cd[2] & e0) != 0, t21 = (cd[2] & e1) != 0, t22 = (cd[2] & e2) != 0;
    /* pXYZ: cell 0 takes eX, cell 1 eY, cell 2 eZ */
    uint64_t p012 = t00 & t11 & t22, p021 = t00 & t12 & t21, p102 = t01 & t10 & t22;
    uint64_t p120 = t01 & t12 & t20, p201 = t02 & t10 & t21, p210 = t02 & t11 & t20;
    sup[0] |= (e0 & -(p012 | p021)) | (e1 & -(p102 | p120)) | (e2 & -(p201 | p210));
    sup[1] |= (e0 & -(p102 | p201)) | (e1 & -(p012 | p210)) | (e2 & -(p021 | p120));
    sup[2] |= (e0 & -(p120 | p210)) | (e1 & -(p021 | p201)) | (e2 & -(p012 | p102));
    return (int)(p012 | p021 | p102 | p120 | p201 | p210);
}

static int match_small(const uint64_t *cd, uint64_t r, int m, uint64_t *sup) {
    if (m == 1) {
        if ((cd[0] & r) == 0) return 0;
        sup[0] |= r;
        return 1;
    }
    if (m == 2) {
        uint64_t e0 = r & -r, e1 = r ^ e0;
        uint64_t p01 = ((cd[0] & e0) != 0) & ((cd[1] & e1) != 0);
        uint64_t p10 = ((cd[0] & e1) != 0) & ((cd[1] & e0) != 0);
        sup[0] |= (e0 & -p01) | (e1 & -p10);
        sup[1] |= (e1 & -p01) | (e0 & -p10);
        return (int)(p01 | p10);
    }
    return match3(cd, r, sup);
}

/* match_small for four cells: cell 0 takes each of its values in r in
 * turn and match3 matches the other three onto the rest.  need[0] holds
 * the values cell 0 could still add to sup[0]; the walk stops once every
 * cell's were found (at once when the caller's sup already holds them). */
static int match4(const uint64_t *cd, uint64_t r, uint64_t *sup) {
    uint64_t c0 = cd[0] & r;
    int found = 0;
    if (c0 == 0 || (cd[1] & r) == 0 || (cd[2] & r) == 0 || (cd[3] & r) == 0) return 0;
    for (uint64_t x0 = c0; x0 != 0; x0 &= x0 - 1) {
        uint64_t b0 = x0 & -x0;
        uint64_t f = (uint64_t)match3(cd + 1, r & ~b0, sup + 1);
        sup[0] |= b0 & -f;
        found |= (int)f;
    }
    return found;
}

int killer__are_peers(const killer__adv_t *a, int x, int y) {
    int i, j;
    if (a->m.cell_cage[x] >= 0 && a->m.cell_cage[x] == a->m.cell_cage[y]) return 1;
    for (i = 0; i < a->m.cell_nunits[x]; i++)
        for (j = 0; j < a->m.cell_nunits[y]; j++)
            if (a->m.cell_units[x][i] == a->m.cell_units[y][j]) return 1;
    return 0;
}

/* Cage pointing: each value of vals (required by con c, with two or more
 * places among its m open cells open[]) leaves every cell outside the con
 * that sees all of its places in the con: by peer bitsets on grids of up
 * to 128 cells (cages and derived cons of up to POINT_DERIVED_MAX cells:
 * the bigger ones cost more than they save), else (cages only) the units
 * holding every place.  0 or -1. */
static int con_point(killer__adv_t *a, const killer__con_t *c, const int *open, int m,
                     uint64_t vals) {
    int i, j;
    if (a->pbits != NULL && (c->cage >= 0 || c->ncells <= POINT_DERIVED_MAX))
        for (uint64_t x = vals; x != 0; x &= x - 1) {
            uint64_t bit = x & -x, w0 = ~c->pexcl[0], w1 = ~c->pexcl[1];
            int any = 0;
            for (i = 0; i < m && (w0 | w1) != 0; i++)
                if (a->cand[open[i]] & bit) {
                    any = 1;
                    w0 &= a->pbits[2 * open[i]];
                    w1 &= a->pbits[2 * open[i] + 1];
                }
            if (!any) continue; /* (placed as a single by con_claim_ot) */
            for (; w0 != 0; w0 &= w0 - 1)
                if (restrict_to(a, killer__ctz(w0), ~bit) != 0) return -1;
            for (; w1 != 0; w1 &= w1 - 1)
                if (restrict_to(a, 64 + killer__ctz(w1), ~bit) != 0) return -1;
        }
    else if (c->cage >= 0)
        for (uint64_t x = vals; x != 0; x &= x - 1) {
            uint64_t bit = x & -x;
            uint8_t un[5];
            int nu = -1, k, l;
            for (i = 0; i < m && nu != 0; i++) {
                const uint8_t *cu = a->m.cell_units[open[i]];
                int cn = a->m.cell_nunits[open[i]];
                if ((a->cand[open[i]] & bit) == 0) continue;
                if (nu < 0) {
                    for (nu = 0; nu < cn; nu++)
                        un[nu] = cu[nu];
                    continue;
                }
                for (k = 0, l = 0; k < nu; k++) {
                    int in = 0;
                    for (j = 0; j < cn; j++)
                        in |= cu[j] == un[k];
                    if (in) un[l++] = un[k];
                }
                nu = l;
            }
            for (k = 0; k < nu; k++) {
                const uint16_t *uc = a->m.unit_cells[un[k]];
                int whole = 0;
                for (j = 0; j < c->nunits_in; j++)
                    whole |= c->units_in[j] == un[k];
                if (whole) continue;
                for (j = 0; j < a->n; j++)
                    if (a->m.cell_cage[uc[j]] != c->cage && restrict_to(a, uc[j], ~bit) != 0)
                        return -1;
            }
        }
    return 0;
}

/* The values every live combo of tabled con ci holds (beyond the decided
 * `dec`) must be placed: one with a single place among the open cells goes
 * there, and all of them leave the rest of each unit containing the con. */
/* once / twice: the values of one / two or more open cells (the caller
 * may have them at hand: con_claim_ot). */
static int con_claim_ot(killer__adv_t *a, uint32_t ci, const int *open, int m, uint64_t req,
                        uint64_t once, uint64_t twice) {
    const killer__con_t *c = &a->cons[ci];
    const uint16_t *cells = a->con_cells + c->cells_off;
    int i, j;
    uint64_t single;
    if ((req & ~once) != 0) return -1;
    single = req & ~twice;
    for (i = 0; i < m && single != 0; i++) {
        uint64_t x = a->cand[open[i]] & single;
        if (x != 0) {
            if ((x & (x - 1)) != 0) return -1; /* two required values with one place */
            single &= ~x;
            if (a->cand[open[i]] != x && killer__set_mask(a, open[i], x) != 0) return -1;
        }
    }
    if (con_point(a, c, open, m, req & twice) != 0) return -1;
    /* the other cells of each unit containing the con, in unit order: by
     * the positions classify() noted (a con of two or more cells lies in
     * at most two units: a line or a diagonal, and a box), which replaced
     * marking the con's cells in a->stamp on every call.  Nothing to do
     * when the values were removed under a frame that still stands. */
    if (c->nunits_in == 0) return 0;
    if (level_valid(a, c->claim_level, c->claim_ser)) {
        if ((req & ~c->claim_req) == 0) return 0;
        req |= c->claim_req; /* already gone: restrict_to finds nothing */
    }
    for (j = 0; j < c->nunits_in; j++) {
        const uint16_t *uc = a->m.unit_cells[c->units_in[j]];
        uint64_t out;
        if (j < 2)
            out = a->full & ~c->inpos[j];
        else {
            assert(c->ncells == 1);
            for (i = 0, out = a->full; i < a->n; i++)
                if (uc[i] == cells[0]) out &= ~((uint64_t)1 << i);
        }
        for (; out != 0; out &= out - 1)
            if (restrict_to(a, uc[killer__ctz(out)], ~req) != 0) return -1;
    }
    {
        killer__con_t *cw = &a->cons[ci];
        cw->claim_req = req;
        cw->claim_level = a->level;
        cw->claim_ser = a->lser[a->level];
    }
    return 0;
}

/* The values whose symbols lie in [lo, hi], for ascending symbols
 * (a->sym_sorted): two binary searches, or plain arithmetic for 1..n. */
static uint64_t sym_window(const killer__adv_t *a, long lo, long hi) {
    const long *sym = a->m.sym;
    int n = a->n, first, last;
    if (a->sym_ident) {
        first = lo < 1 ? 1 : (int)lo;
        last = hi > n ? n : (int)hi;
    } else {
        int l = 1, h = n + 1; /* first v with sym[v] >= lo */
        while (l < h) {
            int mid = (l + h) / 2;
            if (sym[mid] >= lo)
                h = mid;
            else
                l = mid + 1;
        }
        first = l;
        l = 0, h = n; /* last v with sym[v] <= hi */
        while (l < h) {
            int mid = (l + h + 1) / 2;
            if (sym[mid] <= hi)
                l = mid;
            else
                h = mid - 1;
        }
        last = l;
    }
    if (first > last) return 0;
    return (((uint64_t)1 << last) - 1) & ~(((uint64_t)1 << (first - 1)) - 1);
}

/* The mask of value n + 1 - v for each value v of x (symbols 1..n): a
 * mirrored cell of a sum con is seen through it (derive_region). */
static inline uint64_t mirror_mask(const killer__adv_t *a, uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    x = __builtin_bswap64(x);
    return x >> (64 - a->n);
}

/* Notes that sum or bounds con ci changed nothing with m open cells and
 * group-union sum gsum, valid while the current frame stands (killer__con_t fix_*). */
static void note_fixpoint(killer__adv_t *a, uint32_t ci, int m, uint64_t gsum) {
    killer__con_t *cw = &a->cons[ci];
    cw->fix_level = a->level;
    cw->fix_ser = a->lser[a->level];
    cw->fix_m = (uint8_t)m;
    cw->fix_gsum = gsum;
}
/* restrict_keep for a con cell that may be mirrored: *m and keep are in
 * the con's view. */
static inline int restrict_view(killer__adv_t *a, int cell, uint64_t *m, uint64_t keep, int neg) {
    uint64_t nm = *m & keep;
    if (nm == *m) return 0;
    *m = nm;
    return killer__set_mask(a, cell, neg ? mirror_mask(a, nm) : nm);
}

/* A con's open cells as its propagators see them, gathered by con_open()
 * at the start of each run.  oc[i] is the mask of cell open[i] seen by the
 * con (mirrored when on[i]); a propagator that restricts open[i] keeps
 * oc[i] up to date (restrict_keep, restrict_view, as only killer__set_mask
 * on that very cell changes it), so prop_small needs no second gathering. */
typedef struct conview_s {
    int m;          /* open cells */
    int mir;        /* the con has mirrored cells (con_t mirror): on[] is set */
    long rem;       /* the rest of the sum, over the open cells */
    uint64_t dec;   /* distinct cons: the decided values' OR (see killer__condyn_t) */
    uint64_t uni;   /* distinct cons: the values of the open cells */
    uint64_t twice; /* distinct cons: values of two or more open cells */
    uint64_t gsum;  /* bounds and sum cons: the fixpoint key (con_t fix_gsum) */
    uint32_t tlen0; /* the trail's length on entry: did the run change anything */
    int open[KILLER_MAX_N];
    uint64_t oc[KILLER_MAX_N];
    int og[KILLER_MAX_N];     /* sum cons: the peer group of open[i] */
    uint8_t on[KILLER_MAX_N]; /* mir: open[i] enters mirrored */
    uint64_t gu[DERIVED_MAX]; /* sum cons: per group, the union of its open cells' masks */
    uint8_t gk[DERIVED_MAX];  /* ... and how many they are */
} conview_t;

#define PROP_EXACT 1 /* prop_bounds, prop_sum: go on with prop_small */

/* Gathers con ci's open cells into *cv, walking the open positions
 * (killer__condyn_t) rather than testing every cell. */
static void con_open(killer__adv_t *a, uint32_t ci, conview_t *cv) {
    const killer__con_t *c = &a->cons[ci];
    const uint16_t *cells = a->con_cells + c->cells_off;
    const long *sym = a->m.sym;
    const uint64_t *cand = a->cand;
    int *open = cv->open, m = 0, g;
    uint64_t *oc = cv->oc, dec = 0, uni = 0, twice = 0;
    long rem;
    const int mir = c->mirror;      /* (a local: not reloaded after each call) */
    uint64_t op = a->cdyn[ci].open; /* open positions, in cell order */

    cv->mir = mir;
    cv->gsum = 0;
    cv->tlen0 = a->tlen;
    rem = a->cdyn[ci].rem;
    if (c->distinct) {
        dec = a->cdyn[ci].dec; /* the decided values' OR (see killer__condyn_t) */
        assert(killer__popcount(dec) + killer__popcount(op) == c->ncells);
        for (; op != 0; op &= op - 1) {
            int cell = cells[killer__ctz(op)];
            uint64_t x = cand[cell];
            assert((x & (x - 1)) != 0);
            oc[m] = x;
            open[m++] = cell;
            twice |= uni & x;
            uni |= x;
        }
    } else {
        const uint8_t *grp = a->con_grp + c->cells_off, *neg = a->con_neg + c->cells_off;
        static const uint64_t gu0[DERIVED_MAX];
        uint64_t *gu = cv->gu;
        uint8_t *gk = cv->gk, *on = cv->on;
        int *og = cv->og;
        memcpy(gu, gu0,
               sizeof cv->gu); /* fixed size: a few stores, no loop (a memset was a rep stos) */
        memset(gk, 0, sizeof cv->gk);
        if (mir) { /* the mirrored cells' masks seen mirrored; the rest of the
                    * sum counted here (cdyn's counts every cell as itself) */
            uint64_t q,
                dp = (c->ncells == 64 ? ~(uint64_t)0 : ((uint64_t)1 << c->ncells) - 1) & ~op;
            int i2 = 0;
            for (q = op; q != 0; q &= q - 1)
                on[i2++] = neg[killer__ctz(q)];
            for (rem = c->sum; dp != 0; dp &= dp - 1) {
                int p = killer__ctz(dp);
                long v = sym[killer__ctz(cand[cells[p]]) + 1];
                rem -= neg[p] ? a->n + 1 - v : v;
            }
        }
        for (; op != 0; op &= op - 1) {
            int p = killer__ctz(op);
            uint64_t x = cand[cells[p]];
            g = grp[p];
            if (mir && on[m]) x = mirror_mask(a, x);
            oc[m] = x;
            og[m] = g;
            open[m++] = cells[p];
            gu[g] |= x; /* (uni: only for distinct cons) */
            gk[g]++;
        }
    }
    cv->m = m;
    cv->rem = rem;
    cv->dec = dec;
    cv->uni = uni;
    cv->twice = twice;
}

/* tabled (file head): keeps the live combos that fit the open cells,
 * restricts the cells to what the live combos support and claims the
 * values every live combo holds (con_claim_ot).  Exact with up to
 * SMALL_OPEN + 1 open cells (a matching per combo), so no prop_small. */
static int prop_tabled(killer__adv_t *a, uint32_t ci, conview_t *cv) {
    const killer__con_t *c = &a->cons[ci];
    const int m = cv->m;
    const uint64_t dec = cv->dec, uni = cv->uni;
    uint64_t twice = cv->twice, *oc = cv->oc;
    int *open = cv->open, i, j;
    uint64_t *cb = a->combos + c->combo_off;
    uint32_t live = a->live[ci], old = live, k = 0;
    uint64_t allowed = 0, req = a->full, cellsup[SMALL_OPEN + 1], u2 = 0;
    if (m <= SMALL_OPEN + 1)
        for (i = 0; i < m; i++)
            cellsup[i] = 0;
    /* A combo r (its values beyond dec) stays if r lies in uni -- then
     * the open cells cover it (the test of the cover went) -- and meets
     * every open cell. */
    while (k < live) {
        uint64_t x = cb[k], r = x & ~dec;
        int ok = (x & dec) == dec && (r & ~uni) == 0;
        if (ok && m <= SMALL_OPEN + 1) { /* exact: a matching must exist */
            u2 |= x;
            ok = m == 4 ? match4(oc, r, cellsup) : match_small(oc, r, m, cellsup);
        } else if (ok) { /* branch-free: (oc & r) - 1 has bit 63 set iff oc & r == 0 (n <= 36)
                          */
            uint64_t miss = 0;
            for (i = 0; i < m; i++)
                miss |= (oc[i] & r) - 1;
            ok = (miss >> 63) == 0;
        }
        if (ok) {
            allowed |= r;
            req &= x;
            k++;
        } else {
            cb[k] = cb[--live];
            cb[live] = x;
        }
    }
    if (live != old) {
        trail(a, (uint32_t)a->nc + ci, old);
        a->live[ci] = live;
        a->res->stats.propagations += old - live;
    }
    if (live == 0) return -1;
    {
        uint64_t once = uni;
        int moved = 1; /* masks may have changed: recount once / twice */
        if (m <= SMALL_OPEN + 1) {
            int ord[SMALL_OPEN + 1], pc[SMALL_OPEN + 1];
            for (i = 0; i < m; i++)
                ord[i] = i;
            if (m > 1 && m <= SORT_MAX_OPEN && a->n <= SORT_MAX_N) {
                /* the order of the layered walk these matchings replaced
                 * (same supports, so the same search): fewest values in
                 * the union of the combos that passed the first test
                 * first, stable */
                uint64_t u = uni & ~dec & u2;
                for (i = 0; i < m; i++) {
                    int p = killer__popcount(oc[i] & u);
                    for (j = i; j > 0 && pc[j - 1] > p; j--) {
                        pc[j] = pc[j - 1];
                        ord[j] = ord[j - 1];
                    }
                    pc[j] = p;
                    ord[j] = i;
                }
            }
            for (i = 0; i < m; i++)
                if (restrict_keep(a, open[ord[i]], &oc[ord[i]], cellsup[ord[i]]) != 0) return -1;
        } else if ((uni & ~allowed) != 0) { /* else every cell lies in allowed */
            for (i = 0; i < m; i++)
                if (restrict_keep(a, open[i], &oc[i], allowed) != 0) return -1;
        } else
            moved = 0; /* the head's once / twice hold */
        req &= ~dec;
        if (req == 0) return 0;
        if (moved)
            for (i = 0, once = twice = 0; i < m; i++) {
                twice |= once & oc[i];
                once |= oc[i];
            }
        return con_claim_ot(a, ci, open, m, req, once, twice);
    }
}

/* bounds (file head): a distinct con without a table.  Returns -1, 0 when
 * its last no-op state still holds (nothing to do), or PROP_EXACT. */
static int prop_bounds(killer__adv_t *a, uint32_t ci, conview_t *cv) {
    const killer__con_t *c = &a->cons[ci];
    const long *sym = a->m.sym;
    const int m = cv->m;
    const uint64_t dec = cv->dec, uni = cv->uni;
    const long rem = cv->rem;
    uint64_t *oc = cv->oc;
    int *open = cv->open, i, j;
    uint64_t avail = uni & ~dec;
    long lo, hi;
    /* known fixpoint, as for sum cons below: a function of rem, the
     * open cells and their union */
    cv->gsum = uni;
    if (m > SMALL_OPEN && c->fix_m == m && c->fix_gsum == uni &&
        level_valid(a, c->fix_level, c->fix_ser))
        return 0;
    if (killer__sum_bounds(sym, avail, m, &lo, &hi) != 0 || rem < lo || rem > hi) return -1;
    if (a->sym_sorted && m > 1) {
        /* One window for every cell: with the other m - 1 cells on the
         * rest of avail, v fits iff the m - 1 smallest / largest of
         * avail without v bracket rem - v.  When v is among the m - 1
         * smallest, those are the m smallest less v and the low side
         * holds (lo <= rem, checked above); else they are the m - 1
         * smallest, so v <= rem - lo1.  Hence v <= max(s, rem - lo1),
         * s the (m-1)-th smallest symbol of avail, and mirrored for the
         * high side.  The same values as testing each one (values
         * decided in the con leave too, as there). */
        uint64_t x = avail, y = avail;
        long lo1 = 0, hi1 = 0, s = 0, t = 0, wlo, whi;
        for (j = 0; j < m - 1; j++) {
            uint64_t hb = (uint64_t)1 << (63 - __builtin_clzll(y));
            s = sym[killer__ctz(x) + 1];
            lo1 += s;
            x &= x - 1;
            t = sym[killer__ctz(hb) + 1];
            hi1 += t;
            y &= ~hb;
        }
        whi = rem - lo1 > s ? rem - lo1 : s;
        wlo = rem - hi1 < t ? rem - hi1 : t;
        {
            uint64_t win = sym_window(a, wlo, whi) & ~dec;
            for (i = 0; i < m; i++)
                if (restrict_keep(a, open[i], &oc[i], win) != 0) return -1;
        }
    } else {
        for (i = 0; i < m; i++) {
            uint64_t x = oc[i] & ~dec, keep = 0;
            for (uint64_t r = x; r != 0; r &= r - 1) {
                uint64_t bit = r & -r;
                int v = killer__ctz(r) + 1;
                if (m == 1 ? rem == sym[v]
                           : (killer__sum_bounds(sym, avail & ~bit, m - 1, &lo, &hi) == 0 &&
                              rem - sym[v] >= lo && rem - sym[v] <= hi))
                    keep |= bit;
            }
            if (restrict_keep(a, open[i], &oc[i], keep) != 0) return -1;
        }
    }
    return PROP_EXACT;
}

/* prop_sum's restriction when the symbols do not ascend by index (no
 * windows; never a mirrored con, which needs symbols 1..n): each value of
 * each open cell is tested against the con's bounds lo..hi, of which its
 * group holds glo / ghi.  0 or -1.  Out of line: inlined, it cost the
 * sorted path 0.2% of its instructions (callgrind, sigh-tarek). */
__attribute__((cold, noinline)) static int sum_unsorted(killer__adv_t *a, conview_t *cv, long lo,
                                                        long hi, const long *glo, const long *ghi) {
    const long *sym = a->m.sym;
    const long rem = cv->rem;
    int i, g;
    assert(!cv->mir);
    for (i = 0; i < cv->m; i++) {
        long olo, ohi;
        uint64_t x = cv->oc[i], keep = 0;
        g = cv->og[i];
        olo = lo - glo[g];
        ohi = hi - ghi[g];
        for (; x != 0; x &= x - 1) {
            uint64_t bit = x & -x;
            long sv = sym[killer__ctz(x) + 1], l2 = 0, h2 = 0;
            if (cv->gk[g] > 1 &&
                killer__sum_bounds(sym, cv->gu[g] & ~bit, cv->gk[g] - 1, &l2, &h2) != 0)
                continue;
            if (rem - sv >= olo + l2 && rem - sv <= ohi + h2) keep |= bit;
        }
        if (restrict_keep(a, cv->open[i], &cv->oc[i], keep) != 0) return -1;
    }
    return 0;
}

/* sum (file head): a non-distinct con, by its peer groups.  Returns -1, 0
 * when nothing is left to do (a known or a new fixpoint), or PROP_EXACT. */
static int prop_sum(killer__adv_t *a, uint32_t ci, conview_t *cv) {
    const killer__con_t *c = &a->cons[ci];
    const long *sym = a->m.sym;
    const int m = cv->m, mir = cv->mir;
    const long rem = cv->rem;
    const uint64_t *gu = cv->gu;
    const uint8_t *gk = cv->gk, *on = cv->on;
    const int *og = cv->og;
    uint64_t *oc = cv->oc, gsum = 0;
    int *open = cv->open, i, g;
    /* peer groups (classify): the open cells of a group take distinct
     * values, so a group of k open cells adds up to between the sums of
     * the k smallest and k largest values of their candidates' union --
     * much tighter than per-cell minima and maxima, which would let the
     * two cells of an innie pair in one row both be 1. */
    long lo = 0, hi = 0, glo[DERIVED_MAX], ghi[DERIVED_MAX];
    /* With symbols ascending by index (a->sym_sorted), when a cell of
     * group g takes v the group's bounds become, with sk / tk the k-th
     * smallest / largest symbol of its union: glo - sk + v if v is
     * above sk (else unchanged), ghi - tk + v if v is below tk.  So v
     * fits iff tk - (hi - rem) <= v <= sk + (rem - lo): one window per
     * group. */
    uint64_t win[DERIVED_MAX];
    long sk[DERIVED_MAX], tk[DERIVED_MAX];
    const int sorted = a->sym_sorted, ng = c->ngroups; /* not reloaded after each call */
    killer__grpc_t *grpc = a->grpc + c->cells_off;
    /* Known fixpoint (killer__con_t fix_*): all of the below is a function of
     * rem, the open cells and the group unions gu[]; with the same
     * open cells (m: cells only get decided) and gu[g] subsets of the
     * recorded ones, equal sums mean equal unions, the same windows,
     * and masks already inside them.  With SMALL_OPEN or fewer open
     * cells the exact step below depends on every mask: no shortcut. */
    for (g = 0; g < ng; g++)
        gsum += gu[g];
    cv->gsum = gsum;
    if (m > SMALL_OPEN && c->fix_m == m && c->fix_gsum == gsum &&
        level_valid(a, c->fix_level, c->fix_ser))
        return 0;
    for (g = 0; g < ng; g++) {
        glo[g] = ghi[g] = 0;
        if (gk[g] == 0) continue;
        /* an open cell has two values or more, so only groups of 3+
         * open cells can have too few */
        if (sorted) {
            killer__grpc_t *gc = &grpc[g];
            if (gc->u != gu[g] || gc->k != gk[g]) {
                uint64_t x = gu[g], y = gu[g];
                long l = 0, h = 0;
                int t;
                if (gk[g] > 2 && killer__popcount(gu[g]) < gk[g]) return -1;
                for (t = 0; t < gk[g] - 1; t++) {
                    uint64_t hb = (uint64_t)1 << (63 - __builtin_clzll(y));
                    l += sym[killer__ctz(x) + 1];
                    x &= x - 1;
                    h += sym[killer__ctz(hb) + 1];
                    y &= ~hb;
                }
                gc->u = gu[g];
                gc->k = gk[g];
                gc->sk = sym[killer__ctz(x) + 1];
                gc->tk = sym[64 - __builtin_clzll(y)];
                gc->lo = l + gc->sk;
                gc->hi = h + gc->tk;
                gc->s1 = sym[killer__ctz(gu[g]) + 1];
                gc->t1 = sym[64 - __builtin_clzll(gu[g])];
            }
            sk[g] = gc->sk;
            tk[g] = gc->tk;
            glo[g] = gc->lo;
            ghi[g] = gc->hi;
        } else if ((gk[g] > 2 && killer__popcount(gu[g]) < gk[g]) ||
                   killer__sum_bounds(sym, gu[g], gk[g], &glo[g], &ghi[g]) != 0)
            return -1;
        lo += glo[g];
        hi += ghi[g];
    }
    if (rem < lo || rem > hi) return -1;
    if (sorted) {
        /* only the groups whose union leaves the window (its smallest or
         * largest symbol outside) have cells to restrict */
        uint32_t out = 0;
        for (g = 0; g < ng; g++)
            if (gk[g] != 0) {
                long wlo = tk[g] - (hi - rem), whi = sk[g] + (rem - lo);
                if (grpc[g].s1 < wlo || grpc[g].t1 > whi) {
                    win[g] = sym_window(a, wlo, whi);
                    out |= 1u << g;
                }
            }
        if (out != 0) {
            for (i = 0; i < m; i++)
                if (((out >> og[i]) & 1u) &&
                    (mir ? restrict_view(a, open[i], &oc[i], win[og[i]], on[i])
                         : restrict_keep(a, open[i], &oc[i], win[og[i]])) != 0)
                    return -1;
        } else if (m > SMALL_OPEN) { /* changed nothing, no exact step: a fixpoint (below) */
            note_fixpoint(a, ci, m, gsum);
            return 0;
        }
    } else if (sum_unsorted(a, cv, lo, hi, glo, ghi) != 0)
        return -1;
    return PROP_EXACT;
}

/* small (file head): a non-tabled con left with SMALL_OPEN or fewer open
 * cells (after what prop_bounds or prop_sum decided) is solved exactly.
 * Tabled cons get their exact step per combo in prop_tabled (match_small,
 * match4): this walk, run for them too, cost half the run time. */
static int prop_small(killer__adv_t *a, uint32_t ci, conview_t *cv) {
    const killer__con_t *c = &a->cons[ci];
    const long *sym = a->m.sym;
    const int mir = cv->mir;
    uint64_t dec = cv->dec, *oc = cv->oc;
    long rem = cv->rem;
    int *open = cv->open, m = cv->m, i, j;
    uint8_t *on = cv->on;
    /* oc[] holds the open cells' masks after the restrictions (only
     * killer__set_mask on that very cell changed it), so the cells decided by
     * them and the rest of the sum follow without re-reading the con */
    for (i = 0, j = 0; i < m; i++) {
        uint64_t x = oc[i];
        if (x & (x - 1)) {
            if (j == SMALL_OPEN) {
                if (a->tlen == cv->tlen0) note_fixpoint(a, ci, m, cv->gsum); /* changed nothing */
                return 0;
            }
            oc[j] = x;
            if (mir) on[j] = on[i];
            open[j++] = open[i];
        } else {
            rem -= sym[killer__ctz(x) + 1];
            dec |= x;
        }
    }
    m = j;
    if (m >= 2) {
        small_t s;
        s.m = m;
        s.n = a->n;
        s.ident = a->sym_ident;
        s.rem = rem;
        s.sym = sym;
        for (i = 0; i < m; i++) {
            s.cand[i] = oc[i] & (c->distinct ? ~dec : a->full);
            s.support[i] = 0;
            for (j = 0; j < i; j++)
                s.peer[i][j] = (uint8_t)(c->distinct || ((!mir || on[i] == on[j]) &&
                                                         killer__are_peers(a, open[i], open[j])));
        }
        small_supports(&s);
        for (i = 0; i < m; i++)
            if ((mir ? restrict_view(a, open[i], &oc[i], s.support[i], on[i])
                     : restrict_to(a, open[i], s.support[i])) != 0)
                return -1;
    }
    return 0;
}

/* Runs con ci: its open cells, then its propagator (file head).  Returns 0,
 * or -1 on a contradiction. */
static int prop_con(killer__adv_t *a, uint32_t ci) {
    const killer__con_t *c = &a->cons[ci];
    conview_t cv;
    int rc;
    con_open(a, ci, &cv);
    if (cv.m == 0) return cv.rem == 0 ? 0 : -1;
    if (c->tabled) return prop_tabled(a, ci, &cv);
    rc = c->distinct ? prop_bounds(a, ci, &cv) : prop_sum(a, ci, &cv);
    return rc == PROP_EXACT ? prop_small(a, ci, &cv) : rc;
}

/* === Units: hidden singles, values confined to one cage ================= */

/* The per-unit ORs scan_unit() needs besides once / twice: gm[g] the
 * values of cage group g, seg[k][s] those of the unit's s-th intersection
 * with the units of kind k (see unit_tables()); slot KILLER__USEG_NONE collects
 * what no intersection wants. */
typedef struct unit_or_s {
    uint64_t gm[KILLER_MAX_N + 3]; /* + 3: unit_or_clear's pieces */
    uint64_t seg[2][KILLER_MAX_N + 4];
} unit_or_t;

/* Round 4: by 32-byte pieces from a constant.  The loops of single
 * stores these replaced became rep stos, whose stores scan_unit's first
 * loads could not forward from (a stall per call on AMD). */
static void unit_or_clear(const killer__adv_t *a, int u, unit_or_t *o) {
    static const uint64_t z[4];
    int g;
    for (g = 0; g < a->ugrp_n[u]; g += 4)
        memcpy(o->gm + g, z, sizeof z);
    for (g = 0; g < a->useg_n[u][0]; g += 4)
        memcpy(o->seg[0] + g, z, sizeof z);
    for (g = 0; g < a->useg_n[u][1]; g += 4)
        memcpy(o->seg[1] + g, z, sizeof z);
}

/* Locked candidates: a value whose places in a row or column all lie in
 * one box leaves the rest of that box (claiming), and one whose places in
 * a box all lie in one row or column leaves the rest of that line
 * (pointing).  u is a row, column or box; decv its decided values; o its
 * intersections' values: one in exactly one intersection (once & ~twice)
 * is locked there.  This replaced a 64-bit set of intersections per
 * value, built value by value. */
static int locked(killer__adv_t *a, int u, uint64_t decv, const unit_or_t *o) {
    int n = a->n, k, s, kind = u / n; /* 0 row, 1 column, 2 box */
    uint64_t vals = a->full & ~decv;
    for (k = 0; k < 2; k++) {
        const uint64_t *seg = o->seg[k];
        int ns = a->useg_n[u][k];
        uint64_t once = 0, twice = 0;
        for (s = 0; s < ns; s++) {
            uint64_t x = seg[s] & vals;
            twice |= once & x;
            once |= x;
        }
        for (uint64_t x = once & ~twice; x != 0; x &= x - 1) {
            uint64_t bit = x & -x;
            int other, j;
            for (s = 0; (seg[s] & bit) == 0; s++) {
            }
            other = a->useg_unit[u][k][s];
            for (j = 0; j < n; j++) {
                int q = a->m.unit_cells[other][j];
                if ((a->cand[q] & bit) == 0) continue;
                if (a->m.cell_units[q][kind] == (uint8_t)u) continue; /* inside u */
                if (killer__set_mask(a, q, a->cand[q] & ~bit) != 0) return -1;
            }
        }
    }
    return 0;
}

/* Hidden singles of unit u, values confined to one cage, locked
 * candidates.  One pass over the cells gathers once / twice and the ORs of
 * every cage group and intersection (unit_or_t); a hidden single changes
 * masks, and the ORs are then gathered again. */
static int scan_unit(killer__adv_t *a, int u) {
    const uint16_t *uc = a->m.unit_cells[u];
    const uint64_t *cand = a->cand;
    const uint8_t *gof = a->ugrp_of[u];
    const uint8_t(*sid)[2] = a->useg[u];
    uint64_t once = 0, twice = 0, decv = 0, single;
    unit_or_t o;
    int n = a->n, i;

    unit_or_clear(a, u, &o);
    for (i = 0; i < n; i++) {
        uint64_t x = cand[uc[i]];
        twice |= once & x;
        once |= x;
        if ((x & (x - 1)) == 0) decv |= x;
        o.gm[gof[i]] |= x;
        o.seg[0][sid[i][0]] |= x;
        o.seg[1][sid[i][1]] |= x;
    }
    if (once != a->full) return -1;
    single = once & ~twice & ~decv;
    if (single != 0) {
        for (; single != 0; single &= single - 1) {
            uint64_t bit = single & -single;
            for (i = 0; i < n; i++)
                if (cand[uc[i]] & bit) {
                    if (killer__set_mask(a, uc[i], bit) != 0) return -1;
                    break;
                }
        }
        unit_or_clear(a, u, &o);
        for (i = 0; i < n; i++) {
            uint64_t x = cand[uc[i]];
            o.gm[gof[i]] |= x;
            o.seg[0][sid[i][0]] |= x;
            o.seg[1][sid[i][1]] |= x;
        }
    }
    /* values of the unit whose places all lie in one cage: once / twice
     * over the unit's cage groups (an uncaged cell is a group of its own
     * and "bad"), rather than an owner per value updated value by value */
    {
        const int16_t *gcage = a->ugrp_cage[u];
        uint64_t bad = 0, owned;
        int ng = a->ugrp_n[u], g;
        once = twice = 0;
        for (g = 0; g < ng; g++) {
            uint64_t x = o.gm[g] & ~decv;
            if (gcage[g] < 0) bad |= x;
            twice |= once & x;
            once |= x;
        }
        for (owned = once & ~twice & ~bad; owned != 0; owned &= owned - 1) {
            uint64_t bit = owned & -owned;
            for (g = 0; (o.gm[g] & bit) == 0; g++) {
            }
            if (a->cons[gcage[g]].tabled && killer__con_require(a, (uint32_t)gcage[g], bit) != 0)
                return -1;
            /* the value lies in the cage inside u, so the cage's cells
             * outside u cannot take it */
            {
                const killer_cage_t *cg = &a->m.pz->cages[gcage[g]];
                int k;
                for (k = 0; k < cg->ncells; k++) {
                    int q = cg->cells[k].r * n + cg->cells[k].c, in = 0, t;
                    for (t = 0; t < a->m.cell_nunits[q]; t++)
                        in |= a->m.cell_units[q][t] == u;
                    if (!in && restrict_to(a, q, ~bit) != 0) return -1;
                }
            }
        }
    }
    if (u < 3 * n) return locked(a, u, decv, &o);
    return 0;
}

/* === Propagation loop =================================================== */

void killer__clear_queues(killer__adv_t *a) {
    uint32_t i;
    for (i = 0; i < a->cqlen; i++)
        a->inq[a->cq[i]] = 0;
    for (i = 0; i < a->dqlen; i++)
        a->inq[a->dq[i]] = 0;
    a->dqlen = 0;
    for (i = 0; i < a->ulen; i++)
        a->udirty[a->ulist[i]] = 0;
    a->cqlen = a->ulen = a->sqlen = 0;
}

/* Conflict weights for branching: the cells of whatever failed gain
 * a->inc, which grows by CONFLICT_GROWTH a conflict so that recent
 * conflicts count more (the decay of VSIDS / dom-wdeg); all weights are
 * scaled down together before they could overflow. */
static void bump(killer__adv_t *a, const uint16_t *cells, int k) {
    int i;
    for (i = 0; i < k; i++)
        a->score[cells[i]] += a->inc;
}

static void conflict_done(killer__adv_t *a) {
    int i;
    a->inc *= CONFLICT_GROWTH;
    if (a->inc > 1e100) {
        for (i = 0; i < a->nc; i++)
            a->score[i] *= 1e-100;
        a->inc *= 1e-100;
    }
}

/* Runs con ci, just taken off its queue; on a conflict bumps its cells. */
static inline int run_con(killer__adv_t *a, uint32_t ci) {
    int bad, tab = a->cons[ci].tabled;
    /* a tabled con's own changes do not requeue it: its flag stays up
     * while it runs (cheaper than a test per con in killer__set_mask); any other
     * con may requeue itself */
    a->inq[ci] = (uint8_t)tab;
    bad = prop_con(a, ci);
    if (tab) a->inq[ci] = 0;
    if (bad != 0) bump(a, a->con_cells + a->cons[ci].cells_off, a->cons[ci].ncells);
    return bad;
}

int killer__propagate(killer__adv_t *a) {
    for (;;) {
        if (a->sqlen > 0) {
            int cell = a->sq[--a->sqlen];
            uint64_t *cand = a->cand, bit = cand[cell];
            const uint16_t *peers = a->peers;
            uint32_t p, end = a->peer_off[cell + 1], nh = 0,
                        h; /* locals: killer__set_mask calls force reloads */
            uint16_t hit[6 * KILLER_MAX_N];
            /* the peers that hold the value, gathered branch-free first
             * (which do is data-dependent: a mispredicted branch per peer),
             * then set in peer order as before; killer__set_mask(q) changes only
             * cand[q], so the gathered list is what the single loop saw */
            for (p = a->peer_off[cell]; p < end; p++) {
                uint16_t q = peers[p];
                hit[nh] = q;
                nh += (cand[q] & bit) != 0;
            }
            for (h = 0; h < nh; h++) {
                int q = hit[h];
                if (killer__set_mask(a, q, cand[q] & ~bit) != 0) {
                    a->score[q] += a->inc;
                    a->score[cell] += a->inc;
                    goto fail;
                }
            }
            continue;
        }
        if (a->cqlen > 0) {
            if (run_con(a, a->cq[--a->cqlen]) != 0) goto fail;
            continue;
        }
        if (a->ulen > 0) {
            int u = a->ulist[--a->ulen];
            a->udirty[u] = 0;
            if (scan_unit(a, u) != 0) {
                bump(a, a->m.unit_cells[u], a->n);
                goto fail;
            }
            continue;
        }
        if (a->dqlen > 0) {
            if (run_con(a, a->dq[--a->dqlen]) != 0) goto fail;
            continue;
        }
        return 0;
    }
fail:
    conflict_done(a);
    killer__clear_queues(a);
    return -1;
}
