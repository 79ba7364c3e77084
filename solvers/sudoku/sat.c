/* sudoku/sat.c -- conflict-driven clause learning over exactly-one groups.
 *
 * Propagation (propagate())
 * -------------------------
 * The trail holds the literals made true, in order; qhead is the first one
 * not yet propagated.  Propagating a true literal l:
 *   1. at most one: every group containing l has its other literals made
 *      false (reason: the binary clause -l | -m, stored as R_BIN | l).  A
 *      second true literal in the group is a conflict.
 *   2. at least one: every group containing -l (now false) is checked.
 *      Each group keeps gmask[g], bit j set while its j-th literal is not
 *      false, updated by assign() and backtrack() (eagerly, so masks always
 *      describe the whole trail).  An empty mask is a conflict (the group's
 *      clause is all false); a single bit names the last candidate, made
 *      true with reason R_GROUP | g unless it is already.
 *   Step 1 walks only the set bits of the masks, so a group whose other
 *   literals are all false costs one test.  Groups have at most 64
 *   literals (SUDOKU__SAT_GROUP_MAX).
 *   3. learned clauses watching -l: the usual two watched literals with a
 *      blocker literal per watch.
 *
 * Reasons: a uint32_t per variable, tagged in its top two bits:
 *   00 clause   offset of a clause in the arena (its implied literal first)
 *   01 group    R_GROUP | g: the group's clause, all of whose other
 *               literals are false
 *   10 binary   R_BIN | l: the true literal l shares a group with it
 *   11 none     decisions and level-0 facts (R_NONE: all bits set)
 *   11 external R_EXT | offset of a record in the external propagator's
 *               stack (sudoku__sat_ext_t): its explanation, implied
 *               literal first, read like a clause
 * Conflict analysis (analyze()) walks the literals of a reason, whatever
 * its kind (FOR_REASON, reason_lits()): first-UIP learning, VSIDS bumps of
 * every variable met, then minimisation (a depth-first walk with an
 * explicit stack, "poison" marks so that each variable is explored once per
 * conflict) and shrinking (Fleury and Biere: the literals of one level
 * replaced by that level's block UIP when the reasons allow), LBD.
 *
 * Decisions: the unassigned variable of highest VSIDS activity (a binary
 * heap), in its saved phase, or always true (phase_saving 0: place a value),
 * or, with cfg.target, along the target phases: the longest assignment
 * without a conflict since the last rephase (CaDiCaL's stable mode), which
 * finds models where they are rare.  Restarts when the recent LBD average
 * exceeds the long one by a margin (glucose), or on the Luby sequence.
 *
 * Working with a caller (sudoku/cdcl.c): sudoku__sat_solve() returns at a
 * model, at the end, at a stop, and with cfg.yield after every restart, at
 * the root, where the caller may add clauses (sudoku__sat_add()) and read
 * the export buffer (learned clauses of at most cfg.export_size literals,
 * copied there as they are learned) before calling again.
 *
 * Clause arena (uint32_t words): [size][flags: lbd | LEARNT | DELETED | USED]
 * [pos: where the last search for a replacement watch stopped, 2..size-1;
 * the new offset during compaction][literals].  Watches live in a pool
 * of per-literal lists (begin, length, capacity); a list that outgrows its
 * slot moves to the pool's end, and when the pool is full every list is laid
 * out again from the arena (each live clause watches its first two
 * literals).  Reduction (every reduce_interval conflicts, or when the arena
 * is full) keeps clauses of LBD <= 2, clauses that were reasons or conflicts
 * since the last reduction, and locked ones (a current reason); of the
 * others it deletes reduce_pct % with the largest LBD, then compacts the
 * arena.  Clauses added as part of the problem (models excluded) are never
 * deleted.
 *
 * Bounds: levels <= variables (each decision assigns one), trail <= nvars,
 * learned clause <= nvars literals; the minimisation stack holds each
 * variable at most once (seen[] marks it before the push).  Arena size is
 * fixed; sizing of the watch pool: a clause takes >= 5 words, so at most
 * cap/5 clauses and 2*cap/5 watches; a fresh layout gives each non-empty
 * list half its size again plus 1 (at most twice its size), <= 0.8*cap
 * entries, and the pool has cap + 64, so a fresh layout always leaves room
 * to grow.
 *
 * Thread-safety: see sat.h. */
#include "solvers/sudoku/sat.h"

#include <assert.h>
#include <string.h>

#define R_TAG   0xC0000000u
#define R_GROUP 0x40000000u
#define R_BIN   0x80000000u
#define R_EXT   0xC0000000u /* with an offset below 0x3FFFFFFF; R_NONE is not one */
#define R_NONE  0xFFFFFFFFu

#define C_HDR     3u
#define C_LBD     0xFFFFu
#define C_LEARNT  0x10000u
#define C_DELETED 0x20000u
#define C_USED    0x40000u

#define LBD_BUCKETS 64
#define POLL_TICKS  40000u /* propagated literals between polls of ctl (~1-3 ms) */
#define NO_LIT      0xFFFFFFFFu

/* A conflict: a clause, a group or two true literals of one group. */
typedef struct confl_s {
    uint32_t reason; /* R_* tagged as for reasons; R_BIN | a with b below */
    uint32_t b;
} confl_t;

/* A frame of redundant()'s walk: a variable, its reason's literals, the
 * next one to look at. */
typedef struct dfs_s {
    const uint32_t *lits;
    uint32_t len, i, v, one;
} dfs_t;

void sudoku__sat_config_init(sudoku__sat_config_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->luby = 0;
    cfg->restart_unit = 100;
    cfg->restart_min = 50;
    cfg->restart_margin = 1.25;
    cfg->phase = 1;
    cfg->var_decay = 0.95;
    cfg->reduce_first = 2000;
    cfg->reduce_inc = 300;
    cfg->random_freq = 0;
    cfg->shrink = 1;
    cfg->minimise = 1;
    cfg->reduce_pct = 50;
    cfg->phase_saving = 1;
    cfg->yield = 0;
    cfg->target = 0;
    cfg->rephase_interval = 10000;
    cfg->export_size = 0;
    cfg->keep_lbd = 0xFFFF;
}

/* === Layout ============================================================= */

#define AL(x) (((x) + 15u) & ~(size_t)15u)

static size_t wpool_entries(uint32_t nvars, size_t arena_words) {
    (void)nvars;
    return arena_words + 64;
}

/* The block's layout, in one place for sudoku__sat_bytes() and
 * sudoku__sat_init(): with s == NULL only counts, else also points s's
 * arrays into base.  Returns the bytes. */
static size_t carve(sudoku__sat_t *s, char *base, uint32_t nvars, uint32_t ngroups, uint32_t nglits,
                    size_t arena_words) {
    size_t nl = 2 * (size_t)nvars, nv = nvars, off = 0;
#define CARVE(field, bytes)                                                                        \
    do {                                                                                           \
        if (s != NULL) s->field = (void *)(base + off);                                            \
        off += AL(bytes);                                                                          \
    } while (0)
    CARVE(ostart, (nl + 1) * 4);
    CARVE(occ, (size_t)nglits * 4);
    CARVE(gmask, (size_t)ngroups * 8);
    CARVE(val, nl);
    CARVE(level, nv * 4);
    CARVE(reason, nv * 4);
    CARVE(trail, nv * 4);
    CARVE(lim, (nv + 1) * 4);
    CARVE(act, nv * 8);
    CARVE(heap, nv * 4);
    CARVE(hpos, nv * 4);
    CARVE(phase, nv);
    CARVE(tphase, nv);
    CARVE(seen, nv);
    CARVE(learnt, (nv + 1) * 4);
    CARVE(dfs, nv * sizeof(dfs_t));
    CARVE(toclear, nv * 4);
    CARVE(lvlstamp, (nv + 1) * 4);
    CARVE(tpos, nv * 4);
    CARVE(smark, nv);
    CARVE(slist, nv * 4);
    CARVE(keys, nv * 8);
    CARVE(xbuf, (size_t)SUDOKU__SAT_XRECS * SUDOKU__SAT_XWORDS * 4);
    CARVE(arena, arena_words * 4);
    CARVE(wpool, wpool_entries(nvars, arena_words) * sizeof(sudoku__sat_watch_t));
    CARVE(wl, nl * 12);
#undef CARVE
    return off;
}

size_t sudoku__sat_bytes(uint32_t nvars, uint32_t ngroups, uint32_t nglits, size_t arena_words) {
    return carve(NULL, NULL, nvars, ngroups, nglits, arena_words);
}

/* === Heap of variables by activity ===================================== */

static void heap_up(sudoku__sat_t *s, uint32_t i) {
    uint32_t v = s->heap[i];
    double a = s->act[v];
    while (i > 0) {
        uint32_t parent = (i - 1) / 2, pv = s->heap[parent];
        if (s->act[pv] >= a) break;
        s->heap[i] = pv;
        s->hpos[pv] = i;
        i = parent;
    }
    s->heap[i] = v;
    s->hpos[v] = i;
}

static void heap_down(sudoku__sat_t *s, uint32_t i) {
    uint32_t v = s->heap[i], n = s->nheap;
    double a = s->act[v];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && s->act[s->heap[c + 1]] > s->act[s->heap[c]]) c++;
        if (s->act[s->heap[c]] <= a) break;
        s->heap[i] = s->heap[c];
        s->hpos[s->heap[i]] = i;
        i = c;
    }
    s->heap[i] = v;
    s->hpos[v] = i;
}

static void heap_insert(sudoku__sat_t *s, uint32_t v) {
    if (s->hpos[v] != UINT32_MAX) return;
    s->heap[s->nheap] = v;
    s->hpos[v] = s->nheap;
    heap_up(s, s->nheap++);
}

static uint32_t heap_pop(sudoku__sat_t *s) {
    uint32_t v = s->heap[0];
    s->hpos[v] = UINT32_MAX;
    if (--s->nheap > 0) {
        s->heap[0] = s->heap[s->nheap];
        s->hpos[s->heap[0]] = 0;
        heap_down(s, 0);
    }
    return v;
}

static void bump(sudoku__sat_t *s, uint32_t v) {
    if ((s->act[v] += s->var_inc) > 1e100) {
        uint32_t i;
        for (i = 0; i < s->nvars; i++)
            s->act[i] *= 1e-100;
        s->var_inc *= 1e-100;
    }
    if (s->hpos[v] != UINT32_MAX) heap_up(s, s->hpos[v]);
}

static uint64_t rnd(sudoku__sat_t *s) {
    uint64_t x = s->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    s->rng = x;
    return x * 0x2545F4914F6CDD1Du;
}

/* === Init =============================================================== */

void sudoku__sat_init(sudoku__sat_t *s, void *mem, uint32_t nvars, uint32_t ngroups,
                      const uint32_t *gstart, const uint32_t *glits, size_t arena_words,
                      const sudoku__sat_config_t *cfg) {
    uint32_t nl = 2 * nvars, g, i, nglits = gstart[ngroups];
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->nvars = nvars;
    s->nlits = nl;
    s->ngroups = ngroups;
    s->gstart = gstart;
    s->glits = glits;
    carve(s, mem, nvars, ngroups, nglits, arena_words);
    s->arena_cap = arena_words < 0x3FFFFFFFu ? arena_words : 0x3FFFFFFFu;
    s->wpool_cap = wpool_entries(nvars, arena_words);

    /* occurrence lists: counting sort of the group table by literal */
    memset(s->ostart, 0, ((size_t)nl + 1) * 4);
    for (i = 0; i < nglits; i++)
        s->ostart[glits[i] + 1]++;
    for (i = 0; i < nl; i++)
        s->ostart[i + 1] += s->ostart[i];
    for (g = 0; g < ngroups; g++) {
        uint32_t size = gstart[g + 1] - gstart[g];
        assert(size >= 1 && size <= SUDOKU__SAT_GROUP_MAX);
        for (i = 0; i < size; i++)
            s->occ[s->ostart[glits[gstart[g] + i]]++] = g << 6 | i;
        s->gmask[g] = size == 64 ? ~(uint64_t)0 : ((uint64_t)1 << size) - 1;
    }
    for (i = nl; i > 0; i--) /* the fill advanced each start to the next's */
        s->ostart[i] = s->ostart[i - 1];
    s->ostart[0] = 0;

    memset(s->val, 0, nl);
    memset(s->seen, 0, nvars);
    memset(s->smark, 0, nvars);
    memset(s->tphase, 2, nvars);
    s->next_rephase = cfg->rephase_interval;
    memset(s->lvlstamp, 0, ((size_t)nvars + 1) * 4);
    s->rng = cfg->seed ? cfg->seed * 0x9E3779B97F4A7C15u + 1 : 0x853C49E6748FEA9Bu;
    for (i = 0; i < nvars; i++) {
        s->reason[i] = R_NONE;
        s->level[i] = 0;
        s->phase[i] = (uint8_t)(cfg->phase != 0);
        s->act[i] = cfg->seed ? (double)(rnd(s) >> 11) * 0x1p-53 * 1e-3 : 0.0;
        s->hpos[i] = UINT32_MAX;
    }
    s->var_inc = 1.0;
    for (i = 0; i < nvars; i++)
        heap_insert(s, i);
    memset(s->wl, 0, (size_t)nl * 12);
    s->reduce_interval = cfg->reduce_first;
    s->next_reduce = cfg->reduce_first;
    s->luby_index = 0;
    s->restart_at = 0;
    s->next_poll = POLL_TICKS;
}

/* === Assignment ========================================================= */

/* Makes lit true at the current level; the literal it falsifies leaves the
 * free counts of its groups at once. */
static inline void assign(sudoku__sat_t *s, uint32_t lit, uint32_t reason) {
    uint32_t v = lit >> 1, f = lit ^ 1, k, e = s->ostart[f + 1];
    s->val[lit] = 1;
    s->val[f] = -1;
    s->level[v] = s->nlevel;
    s->reason[v] = reason;
    s->tpos[v] = s->ntrail;
    s->trail[s->ntrail++] = lit;
    for (k = s->ostart[f]; k < e; k++) {
        uint32_t o = s->occ[k];
        s->gmask[o >> 6] &= ~((uint64_t)1 << (o & 63));
    }
}

static void backtrack(sudoku__sat_t *s, uint32_t lvl) {
    uint32_t i, stop;
    if (s->nlevel <= lvl) return;
    stop = s->lim[lvl];
    for (i = s->ntrail; i-- > stop;) {
        uint32_t lit = s->trail[i], v = lit >> 1, f = lit ^ 1, k, e = s->ostart[f + 1];
        for (k = s->ostart[f]; k < e; k++) {
            uint32_t o = s->occ[k];
            s->gmask[o >> 6] |= (uint64_t)1 << (o & 63);
        }
        s->val[lit] = 0;
        s->val[f] = 0;
        s->phase[v] = (uint8_t)((lit & 1) == 0);
        heap_insert(s, v);
    }
    s->ntrail = stop;
    s->qhead = stop;
    s->nlevel = lvl;
    if (s->ext != NULL) {
        sudoku__sat_ext_t *x = s->ext;
        x->len = x->lvl[lvl];
        if (x->head > stop) {
            x->undo(x->ud, s->trail + stop, x->head - stop);
            x->head = stop;
        }
    }
}

/* === Clauses and watches ================================================ */

static inline uint32_t *clause_lits(sudoku__sat_t *s, uint32_t cref) {
    return s->arena + cref + C_HDR;
}

/* Lays every watch list out again from the arena's live clauses. */
static void rebuild_watches(sudoku__sat_t *s) {
    size_t c = 0, pos = 0;
    uint32_t l, *wl = s->wl;
    for (l = 0; l < s->nlits; l++)
        wl[3 * l + 1] = 0;
    while (c < s->arena_len) {
        uint32_t size = s->arena[c], *lits = s->arena + c + C_HDR;
        if (!(s->arena[c + 1] & C_DELETED)) {
            wl[3 * lits[0] + 1]++;
            wl[3 * lits[1] + 1]++;
        }
        c += C_HDR + size;
    }
    for (l = 0; l < s->nlits; l++) {
        uint32_t *h = wl + 3 * l;
        h[0] = (uint32_t)pos;
        h[2] = h[1] ? h[1] + h[1] / 2 + 1 : 0;
        pos += h[2];
        h[1] = 0;
    }
    assert(pos <= s->wpool_cap);
    s->wpool_len = pos;
    c = 0;
    while (c < s->arena_len) {
        uint32_t size = s->arena[c], *lits = s->arena + c + C_HDR;
        if (!(s->arena[c + 1] & C_DELETED)) {
            uint32_t *h0 = wl + 3 * lits[0], *h1 = wl + 3 * lits[1];
            sudoku__sat_watch_t *w = s->wpool + h0[0] + h0[1]++;
            w->cref = (uint32_t)c;
            w->blocker = lits[1];
            w = s->wpool + h1[0] + h1[1]++;
            w->cref = (uint32_t)c;
            w->blocker = lits[0];
        }
        c += C_HDR + size;
    }
}

/* Moves lit's full list to the pool's end with twice the room.  Returns 0,
 * or -1 when the pool has no room (the caller rebuilds). */
static int watch_grow(sudoku__sat_t *s, uint32_t lit) {
    uint32_t *h = s->wl + 3 * (size_t)lit;
    size_t ncap = 2 * (size_t)h[2] + 4;
    if (s->wpool_len + ncap > s->wpool_cap) return -1;
    memcpy(s->wpool + s->wpool_len, s->wpool + h[0], h[1] * sizeof(sudoku__sat_watch_t));
    h[0] = (uint32_t)s->wpool_len;
    h[2] = (uint32_t)ncap;
    s->wpool_len += ncap;
    return 0;
}

/* Appends a watch to lit's list.  Returns 0, or -1 when the list must move
 * and the pool has no room (the caller rebuilds). */
static inline int watch_push(sudoku__sat_t *s, uint32_t lit, uint32_t cref, uint32_t blocker) {
    uint32_t *h = s->wl + 3 * (size_t)lit;
    sudoku__sat_watch_t *w;
    if (h[1] == h[2] && watch_grow(s, lit) != 0) return -1;
    w = s->wpool + h[0] + h[1]++;
    w->cref = cref;
    w->blocker = blocker;
    return 0;
}

static void watch_clause(sudoku__sat_t *s, uint32_t cref) {
    uint32_t *lits = clause_lits(s, cref);
    if (watch_push(s, lits[0], cref, lits[1]) != 0 || watch_push(s, lits[1], cref, lits[0]) != 0)
        rebuild_watches(s); /* the clause is in the arena: the layout includes it */
}

static int locked(const sudoku__sat_t *s, uint32_t cref) {
    uint32_t l0 = s->arena[cref + C_HDR];
    return s->val[l0] == 1 && s->reason[l0 >> 1] == cref;
}

/* Moves the live clauses down over the deleted ones, fixing the reasons
 * that point at moved clauses, then lays the watches out again. */
static void compact(sudoku__sat_t *s) {
    size_t c = 0, pos = 0;
    uint32_t i;
    while (c < s->arena_len) {
        uint32_t size = s->arena[c];
        if (!(s->arena[c + 1] & C_DELETED)) {
            s->arena[c + 2] = (uint32_t)pos;
            pos += C_HDR + size;
        }
        c += C_HDR + size;
    }
    for (i = 0; i < s->ntrail; i++) {
        uint32_t v = s->trail[i] >> 1, r = s->reason[v];
        if ((r & R_TAG) == 0) s->reason[v] = s->arena[r + 2];
    }
    c = 0;
    while (c < s->arena_len) {
        uint32_t size = s->arena[c];
        if (!(s->arena[c + 1] & C_DELETED)) {
            size_t to = s->arena[c + 2];
            if (to != c) memmove(s->arena + to, s->arena + c, (C_HDR + size) * sizeof(uint32_t));
            s->arena[to + 2] = 2;
        }
        c += C_HDR + size;
    }
    s->arena_len = pos;
    s->arena_wasted = 0;
    rebuild_watches(s);
}

/* Whether learned clause c (flags f) may go at a reduction: not glue (LBD
 * <= 2), not used since the last reduction unless its LBD exceeds
 * keep_lbd, not a current reason. */
static int candidate(const sudoku__sat_t *s, uint32_t c, uint32_t f) {
    uint32_t lbd = f & C_LBD;
    if (lbd <= 2) return 0;
    if ((f & C_USED) && lbd <= s->cfg.keep_lbd) return 0;
    return !locked(s, c);
}

/* Deletes reduce_pct % of the learned clauses that are candidates, the
 * largest LBD first; then compacts. */
static void reduce(sudoku__sat_t *s) {
    uint32_t cnt[LBD_BUCKETS], cut, left;
    size_t c, ncand = 0;
    memset(cnt, 0, sizeof cnt);
    for (c = 0; c < s->arena_len; c += C_HDR + s->arena[c]) {
        uint32_t f = s->arena[c + 1], lbd = f & C_LBD;
        if (!(f & C_LEARNT) || (f & C_DELETED)) continue;
        if (!candidate(s, (uint32_t)c, f)) continue;
        cnt[lbd < LBD_BUCKETS ? lbd : LBD_BUCKETS - 1]++;
        ncand++;
    }
    /* delete whole buckets from the top while they fit in half, then
     * `left` clauses of bucket `cut` (oldest first) */
    left = (uint32_t)(ncand * s->cfg.reduce_pct / 100);
    for (cut = LBD_BUCKETS - 1; cut > 2 && cnt[cut] <= left; cut--)
        left -= cnt[cut];
    for (c = 0; c < s->arena_len; c += C_HDR + s->arena[c]) {
        uint32_t f = s->arena[c + 1], lbd = f & C_LBD, b;
        if (!(f & C_LEARNT) || (f & C_DELETED)) continue;
        if (!candidate(s, (uint32_t)c, f)) {
            s->arena[c + 1] = f & ~C_USED;
            continue;
        }
        b = lbd < LBD_BUCKETS ? lbd : LBD_BUCKETS - 1;
        if (b > cut || (b == cut && left > 0)) {
            if (b == cut) left--;
            s->arena[c + 1] = f | C_DELETED;
            s->nlearnt--;
            s->stats.deleted++;
        }
    }
    s->stats.reductions++;
    compact(s);
}

/* Appends a clause (lits[0] and lits[1] become its watches).  Returns its
 * offset, or NO_LIT when the arena has no room even after a reduction. */
static uint32_t add_clause(sudoku__sat_t *s, const uint32_t *lits, uint32_t size, uint32_t flags) {
    uint32_t cref;
    if (s->arena_len + C_HDR + size > s->arena_cap) {
        reduce(s);
        if (s->arena_len + C_HDR + size > s->arena_cap) return NO_LIT;
    }
    cref = (uint32_t)s->arena_len;
    s->arena[cref] = size;
    s->arena[cref + 1] = flags;
    s->arena[cref + 2] = 2;
    memcpy(s->arena + cref + C_HDR, lits, size * sizeof(uint32_t));
    s->arena_len += C_HDR + size;
    watch_clause(s, cref);
    return cref;
}

/* === Propagation ======================================================== */

/* Propagates the trail to a fixpoint.  Returns 1 and fills *cf on a
 * conflict, else 0. */
static int propagate(sudoku__sat_t *s, confl_t *cf) {
    const uint32_t *gstart = s->gstart, *glits = s->glits;
    int8_t *val = s->val;
    while (s->qhead < s->ntrail) {
        uint32_t l = s->trail[s->qhead++], f = l ^ 1, k, e;
        s->ticks++;
        /* 1. at most one true literal in l's groups */
        e = s->ostart[l + 1];
        for (k = s->ostart[l]; k < e; k++) {
            uint32_t o = s->occ[k], g = o >> 6;
            uint64_t live = s->gmask[g] & ~((uint64_t)1 << (o & 63));
            const uint32_t *gl = glits + gstart[g];
            for (; live != 0; live &= live - 1) {
                uint32_t m = gl[__builtin_ctzll(live)];
                if (val[m] > 0) {
                    cf->reason = R_BIN | l;
                    cf->b = m;
                    return 1;
                }
                assign(s, m ^ 1, R_BIN | l);
                s->stats.propagations++;
            }
        }
        /* 2. at least one literal in the groups of the falsified f */
        e = s->ostart[f + 1];
        for (k = s->ostart[f]; k < e; k++) {
            uint32_t g = s->occ[k] >> 6, r;
            uint64_t live = s->gmask[g];
            if (live & (live - 1)) continue;
            if (live == 0) {
                cf->reason = R_GROUP | g;
                cf->b = NO_LIT;
                return 1;
            }
            r = glits[gstart[g] + __builtin_ctzll(live)];
            if (val[r] == 0) {
                assign(s, r, R_GROUP | g);
                s->stats.propagations++;
            }
        }
        /* 3. learned clauses watching f */
        if (s->wl[3 * (f) + 1] > 0) {
            sudoku__sat_watch_t *ws;
            uint32_t i, j, n;
        restart_list:
            ws = s->wpool + s->wl[3 * (f)];
            n = s->wl[3 * (f) + 1];
            for (i = j = 0; i < n;) {
                sudoku__sat_watch_t w = ws[i++];
                uint32_t *lits, first, size, q, t;
                if (val[w.blocker] > 0) {
                    ws[j++] = w;
                    continue;
                }
                /* the next clause read is likely not cached: 9% of
                 * propagate's cycles waited on that load (prefetching it
                 * measured 1-2% faster) */
                if (i < n) __builtin_prefetch(s->arena + ws[i].cref);
                lits = clause_lits(s, w.cref);
                if (lits[0] == f) {
                    lits[0] = lits[1];
                    lits[1] = f;
                }
                first = lits[0];
                if (first != w.blocker && val[first] > 0) {
                    w.blocker = first;
                    ws[j++] = w;
                    continue;
                }
                /* a replacement watch: the scan starts where the last one
                 * stopped (Gent's circular search; long clauses) */
                size = s->arena[w.cref];
                q = s->arena[w.cref + 2]; /* in 2 .. size-1 */
                for (t = q; t < size && val[lits[t]] < 0; t++)
                    ;
                if (t == size)
                    for (t = 2; t < q && val[lits[t]] < 0; t++)
                        ;
                if (t < size && val[lits[t]] >= 0) {
                    s->arena[w.cref + 2] = t;
                    lits[1] = lits[t];
                    lits[t] = f;
                    if (watch_push(s, lits[1], w.cref, first) != 0) {
                        /* no room: keep what is left, lay every list out
                         * again (this clause now watches lits[1]) and go
                         * over f's list from the start */
                        memmove(ws + j, ws + i, (n - i) * sizeof *ws);
                        s->wl[3 * f + 1] = j + (n - i);
                        rebuild_watches(s);
                        goto restart_list;
                    }
                    continue;
                }
                ws[j++] = w;
                if (val[first] < 0) {
                    memmove(ws + j, ws + i, (n - i) * sizeof *ws);
                    s->wl[3 * (f) + 1] = j + (n - i);
                    cf->reason = w.cref;
                    cf->b = NO_LIT;
                    return 1;
                }
                assign(s, first, w.cref);
                s->stats.propagations++;
            }
            s->wl[3 * (f) + 1] = j;
        }
    }
    return 0;
}

/* === Conflict analysis ================================================== */

/* Runs the body (the trailing arguments) with q bound to each literal of reason r (false literals),
 * except those of variable `skip` (the implied one; NO_LIT for none).
 * For a binary conflict, r = R_BIN | a and b is the second true literal. */
#define FOR_REASON(s, r, b, skip, ...)                                                             \
    do {                                                                                           \
        uint32_t r_ = (r);                                                                         \
        if ((r_ & R_TAG) == R_BIN) {                                                               \
            uint32_t q = (r_ & ~R_TAG) ^ 1;                                                        \
            if ((q >> 1) != (skip)) {                                                              \
                __VA_ARGS__                                                                        \
            }                                                                                      \
            if ((b) != NO_LIT && ((b) >> 1) != (skip)) {                                           \
                q = (b) ^ 1;                                                                       \
                __VA_ARGS__                                                                        \
            }                                                                                      \
        } else if ((r_ & R_TAG) == R_GROUP) {                                                      \
            uint32_t g_ = r_ & ~R_TAG, j_;                                                         \
            for (j_ = (s)->gstart[g_]; j_ < (s)->gstart[g_ + 1]; j_++) {                           \
                uint32_t q = (s)->glits[j_];                                                       \
                if ((q >> 1) == (skip)) continue;                                                  \
                __VA_ARGS__                                                                        \
            }                                                                                      \
        } else if ((r_ & R_TAG) == R_EXT) {                                                        \
            const uint32_t *x_ = (s)->ext->rec + (r_ & ~R_TAG), n_ = x_[0];                        \
            uint32_t j_;                                                                           \
            for (j_ = 1; j_ <= n_; j_++) {                                                         \
                uint32_t q = x_[j_];                                                               \
                if ((q >> 1) == (skip)) continue;                                                  \
                __VA_ARGS__                                                                        \
            }                                                                                      \
        } else {                                                                                   \
            uint32_t *cl_ = clause_lits((s), r_), n_ = (s)->arena[r_], j_;                         \
            (s)->arena[r_ + 1] |= C_USED;                                                          \
            for (j_ = 0; j_ < n_; j_++) {                                                          \
                uint32_t q = cl_[j_];                                                              \
                if ((q >> 1) == (skip)) continue;                                                  \
                __VA_ARGS__                                                                        \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static inline uint32_t abstract_level(uint32_t lvl) { return 1u << (lvl & 31); }

/* The literals of reason r, by index (the implied variable's own among
 * them: callers skip it). */
static inline uint32_t reason_len(const sudoku__sat_t *s, uint32_t r) {
    if ((r & R_TAG) == R_BIN) return 1;
    if ((r & R_TAG) == R_GROUP) return s->gstart[(r & ~R_TAG) + 1] - s->gstart[r & ~R_TAG];
    if ((r & R_TAG) == R_EXT) return s->ext->rec[r & ~R_TAG];
    return s->arena[r];
}
static inline uint32_t reason_at(const sudoku__sat_t *s, uint32_t r, uint32_t i) {
    if ((r & R_TAG) == R_BIN) return (r & ~R_TAG) ^ 1;
    if ((r & R_TAG) == R_GROUP) return s->glits[s->gstart[r & ~R_TAG] + i];
    if ((r & R_TAG) == R_EXT) return s->ext->rec[(r & ~R_TAG) + 1 + i];
    return s->arena[r + C_HDR + i];
}

/* The literals of reason r of variable v as an array (a binary reason's one
 * literal is written to *one).  They include v's own literal, which
 * callers skip. */
static inline const uint32_t *reason_lits(const sudoku__sat_t *s, uint32_t r, uint32_t *one,
                                          uint32_t *len) {
    if ((r & R_TAG) == R_BIN) {
        *one = (r & ~R_TAG) ^ 1;
        *len = 1;
        return one;
    }
    if ((r & R_TAG) == R_GROUP) {
        uint32_t g = r & ~R_TAG;
        *len = s->gstart[g + 1] - s->gstart[g];
        return s->glits + s->gstart[g];
    }
    if ((r & R_TAG) == R_EXT) {
        const uint32_t *x = s->ext->rec + (r & ~R_TAG);
        *len = x[0];
        return x + 1;
    }
    *len = s->arena[r];
    return s->arena + r + C_HDR;
}

/* Is the false literal p of the learned clause implied by its other
 * literals through reasons?  A depth-first walk with an explicit stack of
 * frames (s->dfs, one per variable at most: the implication graph has no
 * cycle).  seen[] during analysis: 1 = in the clause or proven implied,
 * 2 = proven not implied ("poison"); a walk that fails poisons the
 * variables on its stack, one that completes a variable marks it 1, so each
 * variable is explored at most once per conflict.  Marked variables go to
 * toclear[]. */
static int redundant(sudoku__sat_t *s, uint32_t p, uint32_t levels, uint32_t *ntoclear) {
    dfs_t *st = s->dfs;
    uint32_t sp = 1, k;
    st[0].v = p >> 1;
    st[0].i = 0;
    st[0].lits = reason_lits(s, s->reason[p >> 1], &st[0].one, &st[0].len);
    while (sp > 0) {
        dfs_t *top = st + sp - 1;
        uint32_t q, u;
        if (top->i == top->len) {
            sp--;
            if (sp > 0) {
                s->seen[top->v] = 1;
                s->toclear[(*ntoclear)++] = top->v << 1;
            }
            continue;
        }
        q = top->lits[top->i++];
        u = q >> 1;
        if (u == top->v || s->level[u] == 0 || s->seen[u] == 1) continue;
        if (s->seen[u] == 2 || s->reason[u] == R_NONE || !(abstract_level(s->level[u]) & levels)) {
            for (k = 1; k < sp; k++) {
                s->seen[st[k].v] = 2;
                s->toclear[(*ntoclear)++] = st[k].v << 1;
            }
            return 0;
        }
        top = st + sp++;
        top->v = u;
        top->i = 0;
        top->lits = reason_lits(s, s->reason[u], &top->one, &top->len);
    }
    return 1;
}

/* Sorts key[0..k) descending, in place: insertion for the usual few dozen
 * keys, heapsort beyond (no allocation: the C library's qsort may call
 * malloc). */
static void sort_desc(uint64_t *key, uint32_t k) {
    uint32_t i, j, end;
    if (k <= 64) {
        for (i = 1; i < k; i++) {
            uint64_t x = key[i];
            for (j = i; j > 0 && key[j - 1] < x; j--)
                key[j] = key[j - 1];
            key[j] = x;
        }
        return;
    }
    /* a min-heap, so that popping the minimum to the end leaves descending */
    for (end = k; end > 0; end--) {
        uint64_t x;
        if (end == k) {
            for (i = k / 2; i-- > 0;) {
                uint32_t c = i;
                x = key[c];
                for (;;) {
                    uint32_t l = 2 * c + 1;
                    if (l >= k) break;
                    if (l + 1 < k && key[l + 1] < key[l]) l++;
                    if (key[l] >= x) break;
                    key[c] = key[l];
                    c = l;
                }
                key[c] = x;
            }
        }
        /* move the minimum to position end-1 and restore the heap on [0, end-1) */
        x = key[end - 1];
        key[end - 1] = key[0];
        i = 0;
        for (;;) {
            uint32_t l = 2 * i + 1;
            if (l >= end - 1) break;
            if (l + 1 < end - 1 && key[l + 1] < key[l]) l++;
            if (key[l] >= x) break;
            key[i] = key[l];
            i = l;
        }
        if (end - 1 > 0) key[i] = x;
    }
}

/* Shrinking one block: the nb >= 2 literals of level L in the learned
 * clause (keys: level << 32 | trail position, descending).  Resolves them
 * back along the trail, through reasons whose other literals are of level
 * L, of level 0, in the clause or implied by it (redundant()), until one
 * literal of level L is left: the block's UIP, which implies them all.
 * Returns that true literal, or NO_LIT when a reason leaves the block. */
static uint32_t shrink_block(sudoku__sat_t *s, const uint64_t *blk, uint32_t nb, uint32_t L,
                             uint32_t levels, uint32_t *ntoclear) {
    uint32_t open = nb, ns = 0, t = (uint32_t)blk[0], uip = NO_LIT, j;
    for (j = 0; j < nb; j++) {
        uint32_t v = s->trail[(uint32_t)blk[j]] >> 1;
        s->smark[v] = 1;
        s->slist[ns++] = v;
    }
    for (;; t--) {
        uint32_t lit = s->trail[t], v = lit >> 1, r, len, x;
        if (!s->smark[v]) continue;
        if (open == 1) {
            uip = lit;
            break;
        }
        /* not a decision: the level's decision comes first on the trail,
         * and by then it is the only marked literal left */
        r = s->reason[v];
        len = reason_len(s, r);
        for (x = 0; x < len; x++) {
            uint32_t q = reason_at(s, r, x), u = q >> 1, lv = s->level[u];
            if (u == v || lv == 0) continue;
            if (lv == L) {
                if (!s->smark[u]) {
                    s->smark[u] = 1;
                    s->slist[ns++] = u;
                    open++;
                }
                continue;
            }
            if (s->seen[u] == 1) continue;
            if (s->seen[u] == 2 || s->reason[u] == R_NONE || !(abstract_level(lv) & levels))
                goto done;
            if (!redundant(s, q, levels, ntoclear)) {
                s->seen[u] = 2;
                s->toclear[(*ntoclear)++] = u << 1;
                goto done;
            }
            s->seen[u] = 1;
            s->toclear[(*ntoclear)++] = u << 1;
        }
        open--;
    }
    if (!s->seen[uip >> 1]) {
        s->seen[uip >> 1] = 1;
        s->toclear[(*ntoclear)++] = uip & ~1u;
    }
done:
    for (j = 0; j < ns; j++)
        s->smark[s->slist[j]] = 0;
    return uip;
}

/* Shrinks learnt[1..nl) block by block (after minimisation; seen[] = 1 on
 * its literals) and returns the new size. */
static uint32_t shrink(sudoku__sat_t *s, uint32_t nl, uint32_t levels, uint32_t *ntoclear) {
    uint64_t *key = s->keys;
    uint32_t k = nl - 1, i, j, out = 1;
    if (k < 2) return nl;
    for (i = 0; i < k; i++) {
        uint32_t v = s->learnt[1 + i] >> 1;
        key[i] = (uint64_t)s->level[v] << 32 | s->tpos[v];
    }
    sort_desc(key, k);
    for (i = 0; i < k;) {
        uint32_t L = (uint32_t)(key[i] >> 32), b = i, uip = NO_LIT;
        while (i < k && (uint32_t)(key[i] >> 32) == L)
            i++;
        if (i - b >= 2) uip = shrink_block(s, key + b, i - b, L, levels, ntoclear);
        if (uip != NO_LIT) {
            s->learnt[out++] = uip ^ 1;
            s->stats.shrunk += i - b - 1;
        } else {
            for (j = b; j < i; j++)
                s->learnt[out++] = s->trail[(uint32_t)key[j]] ^ 1;
        }
    }
    return out;
}

/* First-UIP learning from conflict *cf.  Writes the clause to learnt[]
 * (asserting literal first, a literal of the backjump level second) and
 * returns its size; *bt and *lbd receive the backjump level and LBD. */
static uint32_t analyze(sudoku__sat_t *s, const confl_t *cf, uint32_t *bt, uint32_t *lbd) {
    uint32_t pathc = 0, p = NO_LIT, nl = 1, idx = s->ntrail, r = cf->reason, b = cf->b;
    uint32_t i, j, levels, ntoclear, maxi, stamp;
    do {
        uint32_t skip = p == NO_LIT ? NO_LIT : p >> 1;
        FOR_REASON(s, r, b, skip, {
            uint32_t u = q >> 1;
            if (!s->seen[u] && s->level[u] > 0) {
                s->seen[u] = 1;
                bump(s, u);
                if (s->level[u] >= s->nlevel)
                    pathc++;
                else
                    s->learnt[nl++] = q;
            }
        });
        b = NO_LIT;
        while (!s->seen[s->trail[--idx] >> 1])
            ;
        p = s->trail[idx];
        s->seen[p >> 1] = 0;
        r = s->reason[p >> 1];
        pathc--;
    } while (pathc > 0);
    s->learnt[0] = p ^ 1;

    /* minimisation: drop literals implied by the others */
    levels = 0;
    for (i = 1; i < nl; i++)
        levels |= abstract_level(s->level[s->learnt[i] >> 1]);
    ntoclear = 0;
    for (i = 1; i < nl; i++)
        s->toclear[ntoclear++] = s->learnt[i];
    for (i = j = 1; i < nl; i++) {
        uint32_t q = s->learnt[i];
        if (s->reason[q >> 1] == R_NONE || !s->cfg.minimise || !redundant(s, q, levels, &ntoclear))
            s->learnt[j++] = q;
    }
    s->stats.minimised += nl - j;
    nl = j;
    if (s->cfg.shrink) nl = shrink(s, nl, levels, &ntoclear);
    for (i = 0; i < ntoclear; i++)
        s->seen[s->toclear[i] >> 1] = 0;

    /* backjump level: the highest among the rest, moved to position 1 */
    *bt = 0;
    maxi = 1;
    for (i = 1; i < nl; i++) {
        uint32_t lv = s->level[s->learnt[i] >> 1];
        if (lv > *bt) {
            *bt = lv;
            maxi = i;
        }
    }
    if (nl > 1) {
        uint32_t t = s->learnt[1];
        s->learnt[1] = s->learnt[maxi];
        s->learnt[maxi] = t;
    }
    /* LBD: distinct levels */
    stamp = ++s->stamp;
    *lbd = 0;
    for (i = 0; i < nl; i++) {
        uint32_t lv = s->level[s->learnt[i] >> 1];
        if (s->lvlstamp[lv] != stamp) {
            s->lvlstamp[lv] = stamp;
            (*lbd)++;
        }
    }
    s->var_inc /= s->cfg.var_decay;
    return nl;
}

/* === Search ============================================================= */

static uint64_t luby(uint64_t i) {
    uint64_t size = 1, seq = 0;
    while (size < i + 1) {
        seq++;
        size = 2 * size + 1;
    }
    while (size - 1 != i) {
        size = (size - 1) >> 1;
        seq--;
        i = i % size;
    }
    return (uint64_t)1 << seq;
}

static void schedule_restart(sudoku__sat_t *s) {
    s->conflicts_since_restart = 0;
    if (s->cfg.luby)
        s->restart_at = s->stats.conflicts + luby(s->luby_index++) * s->cfg.restart_unit;
}

/* Target phases (as CaDiCaL's stable mode): the longest assignment
 * without a conflict since the last rephase is remembered, and decisions
 * follow it, so the search returns to the most consistent region it has
 * seen.  Called at a conflict: the levels below the conflicting one held. */
static void update_target(sudoku__sat_t *s) {
    uint32_t ok = s->lim[s->nlevel - 1], i;
    if (ok <= s->target_len) return;
    for (i = 0; i < ok; i++) {
        uint32_t l = s->trail[i];
        s->tphase[l >> 1] = (uint8_t)((l & 1) == 0);
    }
    s->target_len = ok;
}

static inline int decide_phase(sudoku__sat_t *s, uint32_t v) {
    if (s->cfg.target && s->tphase[v] != 2) return s->tphase[v];
    return s->cfg.phase_saving ? s->phase[v] : s->cfg.phase;
}

/* Forgets the target (every rephase_interval conflicts). */
static void rephase(sudoku__sat_t *s) {
    memset(s->tphase, 2, s->nvars);
    s->target_len = 0;
    s->stats.rephases++;
}

static int restart_due(const sudoku__sat_t *s) {
    if (s->cfg.luby) return s->stats.conflicts >= s->restart_at;
    return s->conflicts_since_restart >= s->cfg.restart_min &&
           s->ema_fast > s->cfg.restart_margin * s->ema_slow;
}

static void update_ema(sudoku__sat_t *s, uint32_t lbd) {
    double n = (double)s->stats.conflicts, af = 0.03, as = 1e-4;
    if (1.0 / n > af) af = 1.0 / n;
    if (1.0 / n > as) as = 1.0 / n;
    s->ema_fast += af * ((double)lbd - s->ema_fast);
    s->ema_slow += as * ((double)lbd - s->ema_slow);
}

static uint32_t pick(sudoku__sat_t *s) {
    if (s->cfg.random_freq && s->nheap > 0 && rnd(s) % s->cfg.random_freq == 0) {
        uint32_t v = s->heap[rnd(s) % s->nheap];
        if (s->val[2 * v] == 0) return v;
    }
    while (s->nheap > 0) {
        uint32_t v = heap_pop(s);
        if (s->val[2 * v] == 0) return v;
    }
    return NO_LIT;
}

/* propagate(), then the external propagator (if any) at each fixpoint,
 * until neither has anything new.  Returns 1 and fills *cf on a conflict
 * (an external one as R_EXT | its record; none is recorded at level 0),
 * else 0. */
static int propagate_all(sudoku__sat_t *s, confl_t *cf) {
    for (;;) {
        if (propagate(s, cf)) return 1;
        if (s->ext == NULL) return 0;
        if (s->ext->propagate(s->ext->ud, s) < 0) {
            cf->reason = s->ext->confl == UINT32_MAX ? R_NONE : R_EXT | s->ext->confl;
            cf->b = NO_LIT;
            return 1;
        }
        if (s->qhead == s->ntrail) return 0;
    }
}

/* An external conflict clause need not hold a literal of the current
 * level (a propagator may notice late).  Analysis needs one: this goes
 * back to the highest level among its literals and returns it (0: the
 * clause is false at the root). */
static uint32_t ext_conflict_level(sudoku__sat_t *s, uint32_t reason) {
    const uint32_t *x = s->ext->rec + (reason & ~R_TAG);
    uint32_t i, ml = 0;
    for (i = 1; i <= x[0]; i++)
        if (s->level[x[i] >> 1] > ml) ml = s->level[x[i] >> 1];
    if (ml < s->nlevel) backtrack(s, ml); /* the record stays readable: nothing writes it */
    return ml;
}

int sudoku__sat_fix(sudoku__sat_t *s, uint32_t lit) {
    confl_t cf;
    if (s->unsat) return -1;
    if (s->val[lit] < 0) {
        s->unsat = 1;
        return -1;
    }
    if (s->val[lit] == 0) assign(s, lit, R_NONE);
    if (propagate_all(s, &cf)) {
        s->unsat = 1;
        return -1;
    }
    return 0;
}

static int poll(sudoku__sat_t *s, const search_ctl_t *ctl) {
    s->next_poll = s->ticks + POLL_TICKS;
    if (ctl == NULL) return 0;
    if (ctl->progress != NULL)
        atomic_fetch_add_explicit(ctl->progress, SEARCH_POLL_MASK + 1, memory_order_relaxed);
    return search_check_now(ctl, s->stats.decisions);
}

int sudoku__sat_solve(sudoku__sat_t *s, const search_ctl_t *ctl) {
    confl_t cf;
    int rc;
    if (s->unsat) return SUDOKU__SAT_UNSAT;
    if (s->restart_at == 0) schedule_restart(s);
    for (;;) {
        if (propagate_all(s, &cf)) {
            uint32_t bt, lbd, size;
            s->stats.conflicts++;
            s->conflicts_since_restart++;
            if (cf.reason != R_NONE && (cf.reason & R_TAG) == R_EXT &&
                ext_conflict_level(s, cf.reason) == 0) {
                s->unsat = 1;
                return SUDOKU__SAT_UNSAT;
            }
            if (s->nlevel == 0) {
                s->unsat = 1;
                return SUDOKU__SAT_UNSAT;
            }
            if (s->cfg.target) update_target(s);
            size = analyze(s, &cf, &bt, &lbd);
            backtrack(s, bt);
            s->stats.learned++;
            s->stats.learned_lits += size;
            if (size <= s->cfg.export_size && s->xlen < SUDOKU__SAT_XRECS) {
                uint32_t *rec = s->xbuf + (size_t)s->xlen++ * SUDOKU__SAT_XWORDS;
                rec[0] = size | (lbd < 255 ? lbd : 255) << 8;
                rec[1] = 0;
                memcpy(rec + 2, s->learnt, size * sizeof(uint32_t));
                s->stats.exported++;
            }
            if (size == 1) {
                assign(s, s->learnt[0], R_NONE);
            } else {
                uint32_t cref = add_clause(s, s->learnt, size, C_LEARNT | (lbd & C_LBD));
                if (cref == NO_LIT) return SEARCH_BUDGET;
                s->nlearnt++;
                assign(s, s->learnt[0], cref);
            }
            update_ema(s, lbd);
            continue;
        }
        if (s->ticks >= s->next_poll && (rc = poll(s, ctl)) != 0) return rc;
        if (restart_due(s)) {
            backtrack(s, 0);
            s->stats.restarts++;
            schedule_restart(s);
            if (s->cfg.yield) return SUDOKU__SAT_YIELD;
        }
        if (s->cfg.target && s->stats.conflicts >= s->next_rephase) {
            rephase(s);
            s->next_rephase = s->stats.conflicts + s->cfg.rephase_interval;
        }
        if (s->stats.conflicts >= s->next_reduce) {
            s->reduce_interval += s->cfg.reduce_inc;
            s->next_reduce = s->stats.conflicts + s->reduce_interval;
            reduce(s);
        }
        {
            uint32_t v = pick(s), lit;
            if (v == NO_LIT) return SUDOKU__SAT_SAT;
            if (ctl != NULL && ctl->node_budget != 0 && s->stats.decisions >= ctl->node_budget) {
                heap_insert(s, v);
                return SEARCH_BUDGET;
            }
            s->stats.decisions++;
            if (s->ext != NULL) s->ext->lvl[s->nlevel] = s->ext->len;
            s->lim[s->nlevel++] = s->ntrail;
            if (s->nlevel > s->stats.max_level) s->stats.max_level = s->nlevel;
            lit = decide_phase(s, v) ? 2 * v : 2 * v + 1;
            assign(s, lit, R_NONE);
        }
    }
}

int sudoku__sat_add(sudoku__sat_t *s, const uint32_t *lits, uint32_t size, uint32_t lbd,
                    int learnt) {
    uint32_t i, k = 0;
    assert(s->nlevel == 0);
    if (s->unsat) return -1;
    for (i = 0; i < size; i++) {
        if (s->val[lits[i]] > 0) return 0;
        if (s->val[lits[i]] == 0) s->learnt[k++] = lits[i];
    }
    if (k == 0) {
        s->unsat = 1;
        return -1;
    }
    if (k == 1) {
        assign(s, s->learnt[0], R_NONE);
    } else {
        uint32_t flags = learnt ? C_LEARNT | (lbd < k ? lbd : k) : 0;
        if (add_clause(s, s->learnt, k, flags) == NO_LIT) return SEARCH_BUDGET;
        if (learnt) s->nlearnt++;
    }
    if (learnt) s->stats.imported++;
    return 0;
}

void sudoku__sat_root(sudoku__sat_t *s) { backtrack(s, 0); }

int sudoku__sat_block(sudoku__sat_t *s) {
    uint32_t k = s->nlevel, i, cref;
    if (k == 0) {
        s->unsat = 1;
        return SUDOKU__SAT_UNSAT;
    }
    /* the negated decisions, latest first: the clause asserts its first
     * literal at level k - 1, the level of its second */
    for (i = 0; i < k; i++)
        s->learnt[i] = s->trail[s->lim[k - 1 - i]] ^ 1;
    if (k == 1) {
        backtrack(s, 0);
        assign(s, s->learnt[0], R_NONE);
        return 0;
    }
    cref = add_clause(s, s->learnt, k, 0);
    if (cref == NO_LIT) return SEARCH_BUDGET;
    backtrack(s, k - 1);
    assign(s, clause_lits(s, cref)[0], cref);
    return 0;
}

/* === External propagators =============================================== */

void sudoku__sat_attach(sudoku__sat_t *s, sudoku__sat_ext_t *x) {
    assert(x->cap < 0x3FFFFFFFu && x->reserve < x->cap);
    x->head = 0;
    x->len = 0;
    x->confl = UINT32_MAX;
    x->skipped = 0;
    x->lvl[0] = 0;
    s->ext = x;
}

int sudoku__sat_imply(sudoku__sat_t *s, uint32_t lit, const uint32_t *expl, uint32_t n) {
    sudoku__sat_ext_t *x = s->ext;
    uint32_t off;
#ifndef NDEBUG
    for (off = 0; off < n; off++)
        assert(s->val[expl[off]] < 0);
#endif
    if (s->val[lit] > 0) return 0;
    if (s->val[lit] < 0) {
        if (s->nlevel == 0) {
            x->confl = UINT32_MAX;
            return -1;
        }
        off = (uint32_t)x->len;
        assert(x->len + n + 2 <= x->cap);
        x->rec[off] = n + 1;
        x->rec[off + 1] = lit;
        memcpy(x->rec + off + 2, expl, n * sizeof(uint32_t));
        x->confl = off; /* above len: the next record overwrites it */
        return -1;
    }
    s->stats.propagations++;
    if (s->nlevel == 0) {
        assign(s, lit, R_NONE);
        return 0;
    }
    if (x->len + n + 2 > x->cap - x->reserve) {
        x->skipped++;
        return 1;
    }
    off = (uint32_t)x->len;
    x->rec[off] = n + 1;
    x->rec[off + 1] = lit;
    memcpy(x->rec + off + 2, expl, n * sizeof(uint32_t));
    x->len += n + 2;
    assign(s, lit, R_EXT | off);
    return 0;
}

void sudoku__sat_conflict(sudoku__sat_t *s, const uint32_t *lits, uint32_t n) {
    sudoku__sat_ext_t *x = s->ext;
    uint32_t off = (uint32_t)x->len;
#ifndef NDEBUG
    uint32_t i;
    for (i = 0; i < n; i++)
        assert(s->val[lits[i]] < 0);
#endif
    if (s->nlevel == 0) {
        x->confl = UINT32_MAX;
        return;
    }
    assert(x->len + n + 1 <= x->cap);
    x->rec[off] = n;
    memcpy(x->rec + off + 1, lits, n * sizeof(uint32_t));
    x->confl = off;
}
