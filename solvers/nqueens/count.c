/* nqueens/count.c -- the counting engine: completions of partial boards,
 * three boards at a time, without data-dependent branches.
 *
 * Boards
 * ------
 * A board (nqueens_sub_t) has a fixed queen in some rows; the others are
 * free.  Everything the fixed queens attack, above and below, is folded into
 * one mask per free row, so the search walks only the free rows, top-down,
 * and a fixed row between two free ones costs nothing: the diagonal words
 * shift by the row distance instead of by one.  Bit c of a word is column c
 * (n <= 27, so 32 bits hold a row; bits at and above n are cut by the masks).
 *
 * Levels
 * ------
 * Free row number t (1-based) is level t, one 64-byte record per level,
 * frame fields (f) and constants (k) interleaved:
 *
 *     | avail m1 | cols m2 | ld g1 | rd g2 | ret - | leaf | pad |
 *         f   k     f   k    f  k    f  k    f
 *
 *   frame      the search state entering level t: the squares of row t
 *              still to try, the columns taken, the down-right (ld) and
 *              down-left (rd) diagonals projected onto row t, and ret, the
 *              level to resume when t runs out: t-1 if t-1 has squares left,
 *              else t-1's own ret (level 0 ends the board).
 *   constants  masks of levels t+1 and t+2, the row distance g1 from t to
 *              t+1 and g2 from t+1 to t+2; leaf = weight + 2^40 on the
 *              board's last level, 0 elsewhere.
 *
 * (Interleaving keeps gcc from packing the four frame stores into one
 * vector store through eight shuffles.)  A level is named by its byte
 * offset from the first lane's level 0, so every lane's levels are one add
 * from one base register: lane i's level k is at ZERO(i) + 64 k, and ret
 * holds such offsets too.
 *
 * Level 0 is never entered; level m+1 (m free rows) only receives the frames
 * the steps at m write.
 *
 * One step
 * --------
 * A step takes the lowest square of level t and writes the child's frame
 * into level t+1.  It moves down if both the next and the next-but-one free
 * row keep a square (a two-row look-ahead); else it stays on t if t has
 * squares left, or jumps to ret.  At the last level m2 = 0, so it never
 * moves down, and each step there is one solution: one accumulator gains
 * `leaf`, whose low 40 bits sum the weights and whose high bits count the
 * solutions (a chunk of steps is far from either limit).
 * Pops never cost a step of their own: ret jumps straight to the nearest
 * level with work.
 *
 * The step has no branch on the data: t is selected arithmetically (with
 * masks built from the sign of 0 - x, not from compare-and-set, which gcc
 * schedules worse) and the state is reloaded from the frame at t every
 * time.  N-Queens search trees defeat branch predictors; here the price is
 * a dependency chain (load the frame, a dozen ALU operations, select t,
 * load again) of ~16 cycles for ~40 instructions.  So three boards
 * ("lanes") are stepped in turn: their chains are independent and fill
 * each other's gaps.  Measurements and the designs tried before this one:
 * docs/nqueens-tuning.md.
 *
 * Polling
 * -------
 * Every POLL_ROUNDS steps or so, counting a board taken from the source as
 * LOAD_STEPS steps (its set-up is O(n)), and a refill gives up after
 * REFILL_MAX boards that need no search: however the boards come, the time
 * between two polls stays bounded.
 *
 * Invariants
 * ----------
 *   - frame t holds a state reachable by the search; avail of the level the
 *     search stands on is non-empty (a level is entered only with a square,
 *     and left for ret once its last square is taken);
 *   - ret < t; ret is a level of the same lane with squares left, or its
 *     level 0;
 *   - every step places exactly one queen: stats->nodes counts steps.
 *
 * Thread-safety: reentrant; all state is on the caller's stack (~6 KB). */
#include <stdint.h>
#include <string.h>

#include "solvers/nqueens/count.h"

#define LANES 3
/* levels 0..m+1 for m <= NQUEENS_COUNT_MAX_N free rows */
#define LEVELS (NQUEENS_COUNT_MAX_N + 2)
/* Rounds between two polls of ctl: LANES * POLL_ROUNDS <= SEARCH_POLL_MASK+1
 * steps, the interval search.h promises. */
#define POLL_ROUNDS ((SEARCH_POLL_MASK + 1) / 4)

typedef struct level_s {
    uint32_t avail, m1;
    uint32_t cols, m2;
    uint32_t ld, g1;
    uint32_t rd, g2;
    int32_t ret; /* a byte offset, like t */
    uint32_t pad0;
    uint64_t leaf;
    uint32_t pad[4];
} level_t;

_Static_assert(sizeof(level_t) == 64, "OFF() and the layout comment count 64 bytes a level");

#define LEAF_SHIFT 40
#define OFF(k)     ((long)(k) * (long)sizeof(level_t)) /* level k's offset */
#define IDX(o)     ((long)(o) / (long)sizeof(level_t))

typedef struct lane_s {
    level_t lv[LEVELS];
    int m;     /* free rows of the current board */
    int fixed; /* its fixed queens */
    char pad[64 - 2 * sizeof(int)];
} lane_t;

_Static_assert(sizeof(lane_t) % 64 == 0, "the lanes' levels lie at the same offsets mod 64");

/* Offsets are from the first lane's level 0, so that all lanes share one
 * base address: lane i's level k is at ZERO(i) + OFF(k). */
#define ZERO(i) ((long)(i) * (long)sizeof(lane_t))

/* What one run adds up (shared by the lanes). */
typedef struct tally_s {
    uint64_t sum;    /* weighted completions */
    uint64_t leaves; /* completions found */
    uint64_t steps;  /* queens placed */
    uint32_t deep;   /* most queens on one board */
} tally_t;

/* === Boards === */

int nqueens__sub_check(const nqueens_sub_t *sub) {
    if (sub == NULL || sub->n < 1 || sub->n > NQUEENS_COUNT_MAX_N) return SEARCH_EINVAL;
    if (sub->weight != 1 && sub->weight != 2 && sub->weight != 4 && sub->weight != 8)
        return SEARCH_EINVAL;
    const int n = sub->n;
    for (int r = 0; r < n; r++) {
        const int c = sub->cols[r];
        if (c == NQUEENS_FREE) continue;
        if (c >= n) return SEARCH_EINVAL;
        for (int r2 = r + 1; r2 < n; r2++) {
            const int c2 = sub->cols[r2];
            if (c2 == NQUEENS_FREE) continue;
            if (c2 == c || c2 - c == r2 - r || c - c2 == r2 - r) return SEARCH_EINVAL;
        }
    }
    return 0;
}

int nqueens__free_masks(const nqueens_sub_t *b, const uint32_t *allowed, uint32_t *mask) {
    const int n = b->n;
    const uint32_t full = ((uint32_t)1 << n) - 1;
    uint32_t cfix = 0, l = 0, r = 0;
    int m = 0;
    /* diagonals swept down, then up; columns collected on the way down */
    for (int y = 0; y < n; y++) {
        mask[y] = l | r;
        if (b->cols[y] != NQUEENS_FREE) {
            const uint32_t bit = (uint32_t)1 << b->cols[y];
            cfix |= bit;
            l |= bit;
            r |= bit;
        }
        l <<= 1;
        r >>= 1;
    }
    l = r = 0;
    for (int y = n - 1; y >= 0; y--) {
        const uint32_t hit = mask[y] | l | r;
        if (b->cols[y] != NQUEENS_FREE) {
            const uint32_t bit = (uint32_t)1 << b->cols[y];
            l |= bit;
            r |= bit;
            mask[y] = 0;
        } else {
            mask[y] = full & ~cfix & ~hit & (allowed != NULL ? allowed[y] : full);
            m++;
        }
        l <<= 1;
        r >>= 1;
    }
    return m;
}

/* Fills lane `z` (level 0 at offset `zero`) with board `b`.  Returns the
 * offset of its level 1, where the search starts, or 0 when the board needs
 * no search: then its weighted count is added to t->sum at once (a full
 * board counts 1; an empty first level 0). */
static long lane_load(lane_t *z, long zero, const nqueens_sub_t *b, const uint32_t *allowed,
                      tally_t *t) {
    const int n = b->n;
    uint32_t rowmask[NQUEENS_COUNT_MAX_N];
    int rows[NQUEENS_COUNT_MAX_N];
    const int m = nqueens__free_masks(b, allowed, rowmask), fixed = n - m;
    uint32_t cfix = 0;
    for (int y = 0, k = 0; y < n; y++) {
        if (b->cols[y] != NQUEENS_FREE)
            cfix |= (uint32_t)1 << b->cols[y];
        else
            rows[k++] = y;
    }
    if (m == 0) {
        t->sum += b->weight;
        if ((uint32_t)n > t->deep) t->deep = (uint32_t)n;
        return 0;
    }

    level_t *lv = z->lv;
    uint32_t mask[NQUEENS_COUNT_MAX_N + 3];
    int dist[NQUEENS_COUNT_MAX_N + 3];
    for (int k = 1; k <= m; k++) {
        const int y = rows[k - 1];
        mask[k] = rowmask[y];
        dist[k] = k < m ? rows[k] - y : 1;
    }
    for (int k = 1; k <= m; k++) {
        level_t *v = &lv[k];
        v->m1 = k < m ? mask[k + 1] : 0;
        /* on m-1 the next-but-one row is beyond the board: look at row m
         * again, which keeps the look-ahead exact; on m, never move down */
        v->m2 = k + 2 <= m ? mask[k + 2] : k + 1 == m ? mask[m] : 0;
        v->g1 = (uint32_t)dist[k];
        v->g2 = k + 2 <= m ? (uint32_t)dist[k + 1] : 0;
        v->leaf = k == m ? b->weight | (uint64_t)1 << LEAF_SHIFT : 0;
        v->ret = -1; /* "never written": see lane_depth() */
    }
    lv[m + 1].ret = -1;
    z->m = m;
    z->fixed = fixed;
    lv[1].avail = mask[1];
    lv[1].cols = cfix;
    lv[1].ld = lv[1].rd = 0;
    lv[1].ret = (int32_t)zero;
    if (mask[1] == 0) { /* nothing to place in the first free row */
        if ((uint32_t)fixed > t->deep) t->deep = (uint32_t)fixed;
        return 0;
    }
    return zero + OFF(1);
}

/* Most queens the finished board in `z` had down at once: every step at
 * level k writes frame k+1, so the highest frame written is one above the
 * deepest level stepped on, and a step on level k puts down queen k. */
static void lane_depth(const lane_t *z, tally_t *t) {
    int k = z->m + 1;
    while (k > 1 && z->lv[k].ret == -1)
        k--;
    const uint32_t deep = (uint32_t)(z->fixed + (k > 1 ? k - 1 : 0));
    if (deep > t->deep) t->deep = deep;
}

/* Keeps the compiler from turning an arithmetic select back into a branch
 * (gcc does, and the branch mispredicts): x passes through unchanged, but
 * the optimiser can no longer see how it was computed. */
#define OPAQUE(x) __asm__("" : "+r"(x))

/* All ones if x != 0, else 0, for x < 2^32: the sign bit of 0 - x. */
#define NZMASK(x) (-(long)((0 - (uint64_t)(x)) >> 63))

/* One step of the search at level offset t (from base, the first lane's
 * level 0); adds to *acc and returns the next level's offset. */
static inline long step(char *base, long t, uint64_t *acc) {
    level_t *s = (level_t *)(base + t);
    const uint32_t avail = s->avail, bit = avail & -avail, rem = avail ^ bit;
    const uint32_t c = s->cols | bit, l = s->ld | bit, r = s->rd | bit;
    const uint32_t nl = l << s->g1, nr = r >> s->g1;
    const uint32_t next = s->m1 & ~(c | nl | nr);
    const uint32_t next2 = s->m2 & ~(c | nl << s->g2 | nr >> s->g2);
    long mrem = NZMASK(rem);
    OPAQUE(mrem);
    const long ret = s->ret;
    const long stay = ret ^ ((ret ^ t) & mrem);
    long mdown = NZMASK(next) & NZMASK(next2);
    OPAQUE(mdown);
    level_t *d = s + 1;
    s->avail = rem;
    d->avail = next;
    d->cols = c;
    d->ld = nl;
    d->rd = nr;
    d->ret = (int32_t)stay;
    *acc += s->leaf;
    long nt = stay ^ ((stay ^ (t + (long)sizeof(level_t))) & mdown);
    OPAQUE(nt);
    return nt;
}

/* === Lanes sharing work === */

/* Moves about half of the squares left on the shallowest open level of the
 * live lane `from` (standing on level tf) to the idle lane `to`, which then
 * searches them under the same fixed queens and weight.  The open levels
 * are tf and its ret chain; one with at least two squares is needed (from
 * keeps one, so its chain stays valid).  zto and zfrom are the lanes' level
 * 0 offsets.  Returns the offset `to` starts on, or 0 if there was nothing
 * to share. */
static long lane_share(lane_t *to, long zto, lane_t *from, long zfrom, long tf) {
    long s = 0;
    for (long k = IDX(tf - zfrom); k != 0; k = IDX(from->lv[k].ret - zfrom))
        if ((from->lv[k].avail & (from->lv[k].avail - 1)) != 0) s = k;
    if (s == 0) return 0;
    uint32_t rest = from->lv[s].avail, give = 0;
    for (int i = 0; rest != 0; i++) { /* every other square, lowest first */
        const uint32_t bit = rest & -rest;
        rest ^= bit;
        if (i & 1) give |= bit;
    }
    /* levels 1..m+1 hold all the lane's state; deeper frames are rewritten
     * before they are read */
    memcpy(to->lv, from->lv, sizeof(level_t) * (size_t)(from->m + 2));
    to->m = from->m;
    to->fixed = from->fixed;
    from->lv[s].avail ^= give;
    to->lv[s].avail = give;
    to->lv[s].ret = (int32_t)zto;
    return zto + OFF(s);
}

/* === The run === */

typedef struct run_s {
    nqueens__next_fn next;
    void *ctx;
    const uint32_t *allowed;
    int exhausted;
    uint64_t loads; /* boards taken from the source */
} run_t;

/* Boards one refill() takes at most before it lets the run poll: a source
 * of boards that need no search (a full board, a dead first row) would
 * otherwise keep the run from its poll for as long as it lasts. */
#define REFILL_MAX 64
/* What loading a board weighs against a step in the poll interval: its
 * masks and levels are O(n) work, a few dozen steps' worth at n = 27. */
#define LOAD_STEPS 32

/* Loads boards into lane z (level 0 at `zero`) until one needs a search;
 * returns its start offset, or 0 when the source is exhausted or REFILL_MAX
 * boards went by without one. */
static long refill(run_t *run, lane_t *z, long zero, tally_t *t) {
    nqueens_sub_t b;
    for (int k = 0; k < REFILL_MAX && !run->exhausted; k++) {
        const int got = run->next(run->ctx, &b);
        if (got == 0) {
            run->exhausted = 1;
            break;
        }
        run->loads++;
        if (got < 0) continue; /* nothing yet: counts as a board taken */
        const long start = lane_load(z, zero, &b, run->allowed, t);
        if (start != 0) return start;
    }
    return 0;
}

/* Rounds a partly idle run steps before its idle lanes look for work again:
 * a live lane opens new levels as it goes down. */
#define SHARE_ROUNDS 64

int nqueens__count_boards(nqueens__next_fn next, void *ctx, const uint32_t *allowed,
                          const search_ctl_t *ctl, uint64_t *count, search_stats_t *stats) {
    lane_t z[LANES];
    char *zb = (char *)z;
    long t[LANES];
    int busy[LANES] = {0}; /* the lane holds a board not yet accounted */
    run_t run = {next, ctx, allowed, 0, 0};
    tally_t tl = {0, 0, 0, 0};
    uint64_t acc; /* per chunk: weights + leaves << LEAF_SHIFT */
    const uint64_t base = stats->nodes;
    uint64_t polled = 0;      /* tl.steps at the last poll */
    uint64_t polled_work = 0; /* work (steps and loads) at the last poll */
    int rc = search_check_now(ctl, base);
    if (rc != 0) return rc;
    for (int i = 0; i < LANES; i++)
        t[i] = ZERO(i);

    for (;;) {
        /* every idle lane takes the next board, or shares a live lane's */
        int live = 0;
        for (int i = 0; i < LANES; i++) {
            if (t[i] == ZERO(i)) {
                if (busy[i]) lane_depth(&z[i], &tl);
                long st = refill(&run, &z[i], ZERO(i), &tl);
                for (int j = 0; j < LANES && st == 0; j++)
                    if (t[j] != ZERO(j)) st = lane_share(&z[i], ZERO(i), &z[j], ZERO(j), t[j]);
                busy[i] = st != 0;
                t[i] = st != 0 ? st : ZERO(i);
            }
            live += t[i] != ZERO(i);
        }
        if (live == 0 && run.exhausted) break;

        long t0 = t[0], t1 = t[1], t2 = t[2];
        acc = 0;
        if (live == 0) {            /* REFILL_MAX boards without a search: poll, go on */
        } else if (live == LANES) { /* until a lane finishes or a poll is due */
            uint64_t rounds = 0;
            do {
                t0 = step(zb, t0, &acc);
                t1 = step(zb, t1, &acc);
                t2 = step(zb, t2, &acc);
                rounds++;
            } while ((t0 != ZERO(0)) & (t1 != ZERO(1)) & (t2 != ZERO(2)) && rounds < POLL_ROUNDS);
            tl.steps += LANES * rounds;
        } else { /* nothing to share yet: the live lanes step for a while */
            for (int r = 0; r < SHARE_ROUNDS; r++) {
                tl.steps += (uint64_t)((t0 != ZERO(0)) + (t1 != ZERO(1)) + (t2 != ZERO(2)));
                if (t0 != ZERO(0)) t0 = step(zb, t0, &acc);
                if (t1 != ZERO(1)) t1 = step(zb, t1, &acc);
                if (t2 != ZERO(2)) t2 = step(zb, t2, &acc);
            }
        }
        t[0] = t0, t[1] = t1, t[2] = t2;
        tl.sum += acc & (((uint64_t)1 << LEAF_SHIFT) - 1);
        tl.leaves += acc >> LEAF_SHIFT;
        const uint64_t work = tl.steps + LOAD_STEPS * run.loads;
        if (work - polled_work >= POLL_ROUNDS) {
            /* the live work counter another thread may watch (search.h) */
            if (ctl != NULL && ctl->progress != NULL)
                atomic_fetch_add_explicit(ctl->progress, tl.steps - polled, memory_order_relaxed);
            polled = tl.steps;
            polled_work = work;
            if ((rc = search_check_now(ctl, base + tl.steps)) != 0) break;
        }
    }
    if (ctl != NULL && ctl->progress != NULL)
        atomic_fetch_add_explicit(ctl->progress, tl.steps - polled, memory_order_relaxed);
    stats->nodes = base + tl.steps;
    /* every queen put down is taken back, but the last of each solution */
    stats->backtracks += tl.steps - tl.leaves;
    if (tl.deep > stats->max_depth) stats->max_depth = tl.deep;
    if (rc == 0) *count += tl.sum;
    return rc;
}
