/* killer/adv.c -- the "advanced" Killer Sudoku method: propagation over
 * candidate masks with sum constraints, and fewest-candidates search.
 * The measurements behind this design, and the designs tried and not
 * kept, are in docs/killer-tuning.md: read it before changing the search
 * or the propagators.
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
 * How a con propagates (prop_con):
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
 * State and undo
 * --------------
 *   cand[ncells]  uint64 candidate masks (value v = bit v-1)
 *   live[ncons]   uint32 live combos per tabled con
 *   cdyn[ncons]   open positions, decided values, rest of the sum per con:
 *                 derived from cand (killer__set_mask on deciding, undo on the
 *                 entry that decided), not trailed
 *   trail         key[] (uint32: cell, or ncells + con) / old[] (uint64)
 * Every trail entry removes at least one candidate bit or one live combo
 * from the state on the current path, and undo pops exactly the entries of
 * abandoned branches, so the trail holds at most ncells*n + (all combos)
 * entries: that is its size, allocated before the search.
 *   level, lser   frames on the stack, and a serial (never reused) per
 *                 frame: undo only restores the marks of popped frames, so
 *                 while the frame a fact was noted under stands, masks and
 *                 live sets only shrank since and the fact holds
 *                 (level_valid(): killer__con_t fix_*, a sum or bounds con's last
 *                 no-op state; claim_*, values claiming already removed).
 *                 Anything else that grows the state must give the current
 *                 frame a new serial.
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
 * weight, see bump()): its first value, then without it.  After each side,
 * propagate.  Frames hold (trail mark, decided count, choice); each frame
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

#define DERIVED_MAX KILLER__DERIVED_MAX /* largest derived con (killer/derive.h) */
_Static_assert(DERIVED_MAX <= 32, "prop_con keeps a sum con's groups in a uint32_t");
_Static_assert(KILLER__MIXED_MAX <= DERIVED_MAX, "prop_con sizes its group arrays by DERIVED_MAX");
#define POINT_DERIVED_MAX 5 /* derived cons up to this size point too (con_claim_ot) */
#define SMALL_OPEN        3 /* cons with this few open cells are solved exactly */
#define COMBO_BUDGET      ((uint64_t)KILLER_COMBO_CAP * 64) /* enumeration steps per table */
#define SORT_MAX_N        16   /* tabled cons with 2..SORT_MAX_OPEN open cells restrict */
#define SORT_MAX_OPEN     3    /* fewest values first up to this n (see prop_con) */
#define CONFLICT_GROWTH   1.05 /* the conflict weight increment grows so (bump()) */
/* The clock and the cancel flag are read every POLL_MASK + 1 nodes, not
 * every SEARCH_POLL_MASK + 1 (search.h): a node here costs 5 us on a 9x9
 * and up to ~0.5 ms on a 25x25 (more under the sanitizers), so 16384 nodes
 * overshot a 100 ms deadline by 0.7 s on 16x16 killers; a clock read is
 * ~20 ns. */
#define POLL_MASK  15u
#define ADV_PAUSED 1 /* adv_run(): the node limit came first; call again */

typedef struct killer__con_s {
    long sum;
    uint32_t cells_off; /* into con_cells */
    uint32_t combo_off; /* into combos (tabled) */
    uint32_t ncombo;    /* table size (tabled) */
    int16_t cage;       /* cage index, or -1 for a derived con */
    uint8_t ncells;
    uint8_t distinct;
    uint8_t tabled;
    uint8_t ngroups;   /* non-distinct: peer groups of its cells (con_grp) */
    uint8_t mirror;    /* some cell enters mirrored (con_neg; derive_region) */
    uint8_t nunits_in; /* units containing every cell */
    uint8_t units_in[5];
    uint64_t inpos[2]; /* positions of its cells in units_in[0..1] (con_claim) */
    uint64_t pexcl[2]; /* killer__adv_t pbits: its cells and those of units_in (con_claim_ot) */
    /* sum and bounds cons: a state where the con changed nothing, valid while
     * the search level it was noted at still stands (level_valid(): masks only
     * shrank since): its number of open cells and the sum of its groups'
     * unions (see prop_con) */
    uint64_t fix_gsum; /* (a bounds con: the union of its open cells) */
    uint64_t fix_ser;  /* lser[fix_level] when noted */
    uint32_t fix_level;
    uint8_t fix_m;
    /* tabled cons: values con_claim_ot() has removed from the rest of the
     * units containing the con, valid as fix_* (level_valid()) */
    uint32_t claim_level;
    uint64_t claim_req, claim_ser;
} killer__con_t;

/* The bounds of one peer group of a sum con as a function of its open
 * cells' union u and their number k (prop_con, ascending symbols): the
 * sums of the k smallest / largest symbols of u, the k-th smallest /
 * largest symbol and the smallest / largest.  One entry per group, at the con's cells_off + group;
 * k == 0: empty.  A pure function, so valid in any state: a con rerun
 * after a change in one group finds the other groups here. */
typedef struct killer__grpc_s {
    uint64_t u;
    long lo, hi, sk, tk, s1, t1;
    int k;
} killer__grpc_t;

/* Per con, kept by killer__set_mask() and killer__undo() (round 4): the positions of its
 * open cells, the arithmetic sum of its decided cells' value bits (for a
 * distinct con their OR: peers never stay decided to one value once the
 * decided-cell queue is empty, and prop_con runs only then) and the rest
 * of its sum.  prop_con's head walks the open positions instead of testing
 * every cell (that test was its worst-predicted branch). */
typedef struct killer__condyn_s {
    uint64_t open, dec;
    long rem;
} killer__condyn_t;

/* A search choice (choose()): what < nc assigns cell `what` the value
 * bit `bits` or removes it; what = nc + ci keeps only combo `bits` of
 * cage con ci (which has two live) or removes it. */
typedef struct choice_s {
    uint64_t bits;
    uint32_t what;
} choice_t;

typedef struct frame_s {
    choice_t ch;
    uint32_t mark, decided;
} frame_t;

typedef struct killer__adv_s {
    killer__model_t m;
    const killer_opts_t *opts;
    killer_result_t *res;
    int n, nc, ncons, nunits;
    uint64_t full;
    /* constraints */
    killer__con_t *cons;
    uint16_t *con_cells;
    uint8_t *con_grp;        /* per con cell: its peer group (non-distinct cons) */
    uint8_t *con_neg;        /* per con cell: 1 = enters mirrored, n + 1 - v (derive_region) */
    uint32_t *cell_cons_off; /* nc + 1 */
    uint16_t *cell_cons;
    uint8_t *cell_cons_pos; /* per cell_cons entry: the cell's position in that con */
    killer__condyn_t *cdyn; /* per con (see killer__condyn_t) */
    uint32_t *peer_off;     /* nc + 1 */
    uint16_t *peers;
    uint64_t *pbits; /* nc <= 128: the peers of cell i as a bitset at [2i], [2i + 1], else NULL */
    uint64_t *combos;
    killer__grpc_t *grpc; /* per con cell (see killer__grpc_t) */
    /* state */
    uint64_t *cand;
    uint32_t *live;
    uint32_t *tkey;
    uint64_t *told;
    uint32_t tlen, tcap;
    uint32_t decided;
    uint16_t *sq; /* decided cells whose value has to leave their peers */
    uint32_t sqlen;
    uint32_t *cq; /* cages to propagate; inq[] flags */
    uint32_t cqlen;
    uint32_t *dq; /* derived cons to propagate (after cq and the units); inq[] */
    uint32_t dqlen;
    uint32_t first_derived; /* cons [0, first_derived) are the cages */
    uint8_t *inq;
    uint8_t *udirty; /* units to scan for hidden singles */
    uint8_t *ulist;
    uint32_t ulen;
    uint8_t *stamp; /* scratch per cell */
    double *score;  /* conflict weight per cell (branching) */
    int sym_sorted; /* symbols ascend with their index (1..n, or sorted) */
    int sym_ident;  /* symbols are 1..n */
    double inc;
    frame_t *stack;
    uint8_t *grid;
    /* per unit (unit_tables(), for scan_unit): ugrp_n cage groups, the
     * group of each position and the cage of each group (-1: one uncaged
     * cell); useg_n[k] intersections with the units of kind k, the one of
     * each position (USEG_NONE: none) and the unit each one lies in */
    uint8_t ugrp_n[KILLER__MAX_UNITS];
    uint8_t ugrp_of[KILLER__MAX_UNITS][KILLER_MAX_N];
    int16_t ugrp_cage[KILLER__MAX_UNITS][KILLER_MAX_N];
    uint8_t useg_n[KILLER__MAX_UNITS][2];
    uint8_t useg[KILLER__MAX_UNITS][KILLER_MAX_N][2];
    uint8_t useg_unit[KILLER__MAX_UNITS][2][KILLER_MAX_N];
    /* search levels for killer__con_t fix_*: level = frames on the stack, lser[l]
     * a serial (from nser, never reused) of the frame at level l (lser[0]:
     * the root).  Undo only ever restores a popped frame's mark, so while
     * the frame a fact was noted under stands, masks and live counts only
     * shrank since.  Anything that grows them other than popping a frame
     * must give the current frame a new serial. */
    uint64_t *lser;
    uint64_t nser;
    uint32_t level;
    /* the search between adv_run() calls: frames on the stack, whether the
     * state is consistent, and the two arenas that hold everything */
    const killer_puzzle_t *pz;
    uint32_t depth;
    int ok;
    char *mem1, *mem2;
} killer__adv_t;

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
static void killer__undo(killer__adv_t *a, uint32_t mark) {
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

static void killer__enqueue_con(killer__adv_t *a, uint32_t ci) {
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
static int killer__set_mask(killer__adv_t *a, int cell, uint64_t m) {
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
    /* Branch-free queueing (round 3): whether a cell gets decided, a unit
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
static int killer__con_require(killer__adv_t *a, uint32_t ci, uint64_t need) {
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
static int killer__con_drop(killer__adv_t *a, uint32_t ci, uint64_t combo) {
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

static int killer__are_peers(const killer__adv_t *a, int x, int y) {
    int i, j;
    if (a->m.cell_cage[x] >= 0 && a->m.cell_cage[x] == a->m.cell_cage[y]) return 1;
    for (i = 0; i < a->m.cell_nunits[x]; i++)
        for (j = 0; j < a->m.cell_nunits[y]; j++)
            if (a->m.cell_units[x][i] == a->m.cell_units[y][j]) return 1;
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
    /* cage pointing: a required value leaves every cell outside the con
     * that sees all of its places in the con: by peer bitsets on grids of
     * up to 128 cells (cages and derived cons of up to POINT_DERIVED_MAX
     * cells: the bigger ones cost more than they save), else (cages only)
     * the units holding every place */
    if (a->pbits != NULL && (c->cage >= 0 || c->ncells <= POINT_DERIVED_MAX))
        for (uint64_t x = req & twice; x != 0; x &= x - 1) {
            uint64_t bit = x & -x, w0 = ~c->pexcl[0], w1 = ~c->pexcl[1];
            int any = 0;
            for (i = 0; i < m && (w0 | w1) != 0; i++)
                if (a->cand[open[i]] & bit) {
                    any = 1;
                    w0 &= a->pbits[2 * open[i]];
                    w1 &= a->pbits[2 * open[i] + 1];
                }
            if (!any) continue; /* (placed by the singles above) */
            for (; w0 != 0; w0 &= w0 - 1)
                if (restrict_to(a, killer__ctz(w0), ~bit) != 0) return -1;
            for (; w1 != 0; w1 &= w1 - 1)
                if (restrict_to(a, 64 + killer__ctz(w1), ~bit) != 0) return -1;
        }
    else if (c->cage >= 0)
        for (uint64_t x = req & twice; x != 0; x &= x - 1) {
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

static int prop_con(killer__adv_t *a, uint32_t ci) {
    const killer__con_t *c = &a->cons[ci];
    const uint16_t *cells = a->con_cells + c->cells_off;
    const long *sym = a->m.sym;
    const uint64_t *cand = a->cand;
    int open[KILLER_MAX_N], m = 0, i, j;
    uint64_t dec = 0, uni = 0, oc[KILLER_MAX_N]; /* oc[i]: mask of open[i] on entry */
    uint64_t twice = 0; /* distinct cons: values of two or more open cells */
    long rem = c->sum;
    /* non-distinct cons: the peer groups of the open cells (see below) */
    uint64_t gu[DERIVED_MAX], gsum = 0;
    uint8_t gk[DERIVED_MAX];
    int og[KILLER_MAX_N], g;
    uint8_t on[KILLER_MAX_N];  /* mir: open[i] enters mirrored */
    const int mir = c->mirror; /* (a local: not reloaded after each call) */
    uint32_t tlen0 = a->tlen;

    uint64_t op = a->cdyn[ci].open; /* open positions, in cell order */
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
        memcpy(gu, gu0,
               sizeof gu); /* fixed size: a few stores, no loop (a memset was a rep stos) */
        memset(gk, 0, sizeof gk);
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
    if (m == 0) return rem == 0 ? 0 : -1;

    if (c->tabled) {
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
                    if (restrict_keep(a, open[ord[i]], &oc[ord[i]], cellsup[ord[i]]) != 0)
                        return -1;
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
    } else if (c->distinct) {
        uint64_t avail = uni & ~dec;
        long lo, hi;
        /* known fixpoint, as for sum cons below: a function of rem, the
         * open cells and their union */
        gsum = uni;
        if (m > SMALL_OPEN && c->fix_m == m && c->fix_gsum == gsum &&
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
    } else {
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
        } else {
            for (i = 0; i < m; i++) {
                long olo, ohi;
                uint64_t x = oc[i], keep = 0;
                g = og[i];
                olo = lo - glo[g];
                ohi = hi - ghi[g];
                for (; x != 0; x &= x - 1) {
                    uint64_t bit = x & -x;
                    long sv = sym[killer__ctz(x) + 1], l2 = 0, h2 = 0;
                    if (gk[g] > 1 &&
                        killer__sum_bounds(sym, gu[g] & ~bit, gk[g] - 1, &l2, &h2) != 0)
                        continue;
                    if (rem - sv >= olo + l2 && rem - sv <= ohi + h2) keep |= bit;
                }
                assert(!c->mirror); /* mirrored cons need symbols 1..n */
                if (restrict_keep(a, open[i], &oc[i], keep) != 0) return -1;
            }
        }
    }

    /* few open cells: exact supports.  Tabled cons did this per combo
     * above (match_small, match4); the candidate walk below cost half the run time
     * when it also ran for them (callgrind, sigh-tarek-37). */
    if (c->tabled) return 0;
    /* oc[] holds the open cells' masks after the restrictions (only
     * killer__set_mask on that very cell changed it), so the cells decided by
     * them and the rest of the sum follow without re-reading the con */
    for (i = 0, j = 0; i < m; i++) {
        uint64_t x = oc[i];
        if (x & (x - 1)) {
            if (j == SMALL_OPEN) {
                if (a->tlen == tlen0) note_fixpoint(a, ci, m, gsum); /* changed nothing */
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

/* === Units: hidden singles, values confined to one cage ================= */

/* The per-unit ORs scan_unit() needs besides once / twice: gm[g] the
 * values of cage group g, seg[k][s] those of the unit's s-th intersection
 * with the units of kind k (see unit_tables()); slot USEG_NONE collects
 * what no intersection wants. */
#define USEG_NONE KILLER_MAX_N
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
             * outside u cannot take it (round 5) */
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

static void killer__clear_queues(killer__adv_t *a) {
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

static int killer__propagate(killer__adv_t *a) {
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
            int s0 = USEG_NONE, s1 = USEG_NONE;
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

/* Builds a solve state for pz under opts, results into res: the model,
 * the cons (with the 45-rule ones if rule45), the root propagation and
 * the split descent.  Returns 0 with *out set (free it with adv_close()),
 * or SEARCH_ENOMEM. */
static int adv_open(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res,
                    int rule45, killer__adv_t **out) {
    int n = pz->shape.n, nc = n * n, i, j, rc = 0;
    uint32_t maxcons, maxcells, total_combo = 0, ci, p;
    size_t bytes1, bytes2, scratch, maxdepth;
    char *mem1 = NULL, *mem2 = NULL, *hmem = NULL, *at;
    killer__adv_t *a;
    killer__eqs_t eqs;
    uint32_t *tabsz;

    killer__derive_size(pz, &maxcons, &maxcells, &scratch);
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
    if (mem1 == NULL) return SEARCH_ENOMEM;
    memset(mem1, 0, bytes1);
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
    TAKE(tabsz, uint32_t, maxcons);
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

    /* cons: cages first (con index == cage index), then the 45 rule
     * (killer/derive.c), written straight into con_cells / con_neg */
    hmem = killer__alloc(opts, KILLER__ALIGN((size_t)maxcons * sizeof(killer__eq_t)) + scratch);
    if (hmem == NULL) {
        rc = SEARCH_ENOMEM;
        goto out;
    }
    eqs.eq = (killer__eq_t *)(void *)hmem;
    eqs.cells = a->con_cells;
    eqs.neg = a->con_neg;
    res->derived = killer__derive(
        &a->m, &eqs, hmem + KILLER__ALIGN((size_t)maxcons * sizeof(killer__eq_t)), rule45);
    for (ci = 0; ci < eqs.neq; ci++) {
        killer__con_t *c = &a->cons[ci];
        c->sum = eqs.eq[ci].sum;
        c->cells_off = eqs.eq[ci].off;
        c->ncells = eqs.eq[ci].k;
        c->cage = eqs.eq[ci].cage;
        c->mirror = eqs.eq[ci].mirror;
    }
    a->ncons = (int)eqs.neq;
    a->first_derived = (uint32_t)pz->ncages;
    killer__free(opts, hmem);
    hmem = NULL;
    classify(a);

    /* cell -> cons */
    for (ci = 0; ci < eqs.neq; ci++)
        for (j = 0; j < a->cons[ci].ncells; j++)
            a->cell_cons_off[a->con_cells[a->cons[ci].cells_off + j] + 1]++;
    for (i = 0; i < nc; i++)
        a->cell_cons_off[i + 1] += a->cell_cons_off[i];
    for (i = 0; i < nc; i++)
        a->sq[i] = 0; /* fill cursors */
    for (ci = 0; ci < eqs.neq; ci++)
        for (j = 0; j < a->cons[ci].ncells; j++) {
            int x = a->con_cells[a->cons[ci].cells_off + j];
            a->cell_cons_pos[a->cell_cons_off[x] + a->sq[x]] = (uint8_t)j;
            a->cell_cons[a->cell_cons_off[x] + a->sq[x]++] = (uint16_t)ci;
        }
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
        for (ci = 0; ci < eqs.neq; ci++) {
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

    /* combination tables: sizes first (with the caps), then fill */
    for (ci = 0; ci < eqs.neq; ci++) {
        killer__con_t *c = &a->cons[ci];
        uint32_t cnt = 0;
        tabsz[ci] = 0;
        if (!c->distinct) continue;
        for (j = 0; j < (int)ci; j++) /* same (size, sum) as an earlier tabled con */
            if (a->cons[j].distinct && a->cons[j].ncells == c->ncells && a->cons[j].sum == c->sum)
                break;
        if (j < (int)ci) {
            if (a->cons[j].tabled && total_combo + tabsz[j] <= KILLER_COMBO_TOTAL_CAP) {
                c->tabled = 1;
                tabsz[ci] = tabsz[j];
                total_combo += tabsz[j];
            }
        } else if (killer__combos(a->m.sym, a->full, c->ncells, c->sum, NULL, KILLER_COMBO_CAP,
                                  &cnt, COMBO_BUDGET) == 0 &&
                   total_combo + cnt <= KILLER_COMBO_TOTAL_CAP) {
            c->tabled = 1;
            tabsz[ci] = cnt;
            total_combo += cnt;
        }
        if (!c->tabled && c->cage >= 0) res->bounds_cages++;
    }
    a->tcap = (uint32_t)nc * (uint32_t)n + total_combo + 16;
    bytes2 = KILLER__ALIGN((size_t)total_combo * sizeof(uint64_t)) +
             KILLER__ALIGN((size_t)a->tcap * 4) + KILLER__ALIGN((size_t)a->tcap * 8) +
             KILLER__ALIGN((size_t)eqs.ncells * sizeof(killer__grpc_t));
    mem2 = killer__alloc(opts, bytes2);
    if (mem2 == NULL) {
        rc = SEARCH_ENOMEM;
        goto out;
    }
    res->mem_peak = bytes1 + bytes2;
    a->combos = (uint64_t *)(void *)mem2;
    a->tkey = (uint32_t *)(void *)(mem2 + KILLER__ALIGN((size_t)total_combo * sizeof(uint64_t)));
    a->told = (uint64_t *)(void *)(mem2 + KILLER__ALIGN((size_t)total_combo * sizeof(uint64_t)) +
                                   KILLER__ALIGN((size_t)a->tcap * 4));
    a->grpc =
        (killer__grpc_t *)(void *)(mem2 + KILLER__ALIGN((size_t)total_combo * sizeof(uint64_t)) +
                                   KILLER__ALIGN((size_t)a->tcap * 4) +
                                   KILLER__ALIGN((size_t)a->tcap * 8));
    memset(a->grpc, 0, (size_t)eqs.ncells * sizeof(killer__grpc_t));
    {
        uint32_t off = 0, cnt;
        for (ci = 0; ci < eqs.neq; ci++) {
            killer__con_t *c = &a->cons[ci];
            if (!c->tabled) continue;
            c->combo_off = off;
            c->ncombo = tabsz[ci];
            (void)killer__combos(a->m.sym, a->full, c->ncells, c->sum, a->combos + off, tabsz[ci],
                                 &cnt, COMBO_BUDGET);
            a->live[ci] = tabsz[ci];
            off += tabsz[ci];
        }
    }

    /* initial state: all candidates, givens through killer__set_mask, everything queued */
    for (i = 0; i < nc; i++)
        a->cand[i] = a->full;
    for (ci = 0; ci < eqs.neq; ci++) {
        int k = a->cons[ci].ncells;
        a->cdyn[ci].open = k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
        a->cdyn[ci].dec = 0;
        a->cdyn[ci].rem = a->cons[ci].sum;
    }
    for (ci = 0; ci < eqs.neq; ci++)
        killer__enqueue_con(a, ci);
    for (i = 0; i < a->nunits; i++) {
        a->udirty[i] = 1;
        a->ulist[a->ulen++] = (uint8_t)i;
    }
    {
        int ok = 1;
        if (pz->givens != NULL)
            for (i = 0; i < nc && ok; i++)
                if (pz->givens[i] != 0 && a->cand[i] != KILLER__BIT(pz->givens[i]))
                    ok = (a->cand[i] & KILLER__BIT(pz->givens[i])) &&
                         killer__set_mask(a, i, KILLER__BIT(pz->givens[i])) == 0;
        if (!ok) {
            killer__clear_queues(a);
        } else
            ok = killer__propagate(a) == 0;
        if (ok && opts->split_depth > 0)
            ok = split_descend(a, opts->split_depth, opts->split_index);
        a->ok = ok;
    }
    a->pz = pz;
    a->mem1 = mem1;
    a->mem2 = mem2;
    *out = a;
    return 0;
out:
    killer__free(opts, hmem);
    killer__free(opts, mem2);
    killer__free(opts, mem1);
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

static void adv_close(killer__adv_t *a) {
    const killer_opts_t *opts = a->opts;
    char *mem1 = a->mem1; /* holds a */
    killer__free(opts, a->mem2);
    killer__free(opts, mem1);
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
