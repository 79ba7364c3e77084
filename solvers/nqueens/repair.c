/* nqueens/repair.c -- min-conflicts repair for N-Queens, up to 10^7 queens.
 *
 * State (n queens, one per row; d = r - c + n - 1, a = r + c)
 * -----------------------------------------------------------
 *     cols[r]     column of row r's queen (the caller's output array)
 *     ccnt[c]     queens in column c          uint16   2 B/queen
 *     dcnt[d]     queens on diagonal d        uint16   4 B/queen (2n-1 lines)
 *     acnt[a]     queens on anti-diagonal a   uint16   4 B/queen
 *     colx[c]     XOR of the rows of column c's queens   4 B/queen
 *     list[]      conflicted-queen list (below)          4 B/queen
 *     inlist, infree   one bit per row / column          0.25 B/queen
 *     freecol[]   free-column hints, min(n/8, 65536) entries
 * 18.25 bytes per queen of scratch, 22.25 with cols: 223 MB at n = 10^7.
 * A queen's conflicts are ccnt + dcnt + acnt - 3 (each line counts the queen
 * itself), `total` is the number of attacking pairs, sum of C(k, 2) over
 * lines, kept exact at every move in O(1).
 *
 * Why uint16 counters are safe: a line with k queens holds C(k, 2) pairs, so
 * k <= 65535 while total < C(65536, 2).  Moves never raise total; the start
 * and the perturbations check the bound (TOTAL_LIMIT) before adding, so
 * no counter can wrap.  That halves the counters (the diagonals dominate) and
 * keeps the bytes per queen under the 24 we aimed for.
 *
 * The start (opts->start; every one keeps the fixed queens and the board a
 * permutation of the free columns):
 *   constructed (the default): the classical conflict-free permutation
 *     (even columns, then odd ones, with the fixes for n mod 6 = 2, 3:
 *     Hoffman, Loessi and Moore 1969), written row by row.  Its columns rise
 *     by two per row, so every counter it touches is touched in order: at
 *     10^7 queens memory access is the whole cost, and the other starts'
 *     random draws cost a cache miss each (figures in
 *     docs/nqueens-tuning.md).  A fixed queen takes its column from the row
 *     that had it, which gets the fixed row's column in exchange; then
 *     NQUEENS_REPAIR_SWAPS random transpositions of free rows, drawn from the
 *     seed, make every run its own board: a few dozen conflicts to repair.
 *   greedy (Sosic and Gu's QS4 idea): each free row in turn keeps the first
 *     of up to INIT_TRIES random free columns whose diagonals are empty,
 *     else the least crowded; only the last rows, where the pool of columns
 *     runs dry, conflict (about 2,000 pairs at 10^7).
 *   random: a uniformly random permutation, about 2n/3 attacking pairs.
 *
 * "A most-conflicted queen" in O(1) amortised: list[] holds a *superset of a
 * vertex cover* of the conflict graph -- every attacking pair has at least
 * one listed member.  The start lists every conflicted queen (the
 * constructed one only the rows it moved, the others could not conflict;
 * greedy each queen that met earlier ones on a diagonal); a move lists the
 * moved queen while it conflicts (all its new pairs contain it), and the one other queen of a
 * column that it turns from 1 to 2 queens (found in O(1) as colx[c] ^ r:
 * this is what lets the partner move too, the row-move version of a swap).
 * Entries whose queen no longer conflicts are dropped lazily when drawn.  A
 * step draws PICK_SAMPLES random entries and takes the most conflicted of
 * them (the issue allows "the maximum count among a sample"); a full bucket
 * structure by conflict count was rejected: a move changes the count of
 * every queen on six lines, which we cannot enumerate without a per-line
 * index (more bytes per queen than the whole budget).
 *
 * "A least-conflicted square": for n <= FULL_SCAN_N the whole row is scanned
 * (exact, O(n)).  Above, a row scan would make a step O(n); the candidates
 * are the queen's own square, the free columns (freecol[] hints: columns a
 * move emptied; on a near-permutation board these are the only squares that
 * can be conflict-free) and MOVE_SAMPLES random columns.  Either way the
 * queen's current square is a candidate, so the chosen square never has more
 * conflicts than the current one: total never rises on a move.  Ties are
 * broken uniformly at random (reservoir sampling).
 *
 * Plateaus: if STALL_LIMIT moves pass without a new lowest total, one listed
 * conflicted queen goes to a random square of its row.  That perturbation is
 * the only step that may raise total; it is counted in `restarts` and flagged
 * in the trace.
 *
 * Deadline and cancel flag: checked before anything else, between 8 MiB
 * slices of zeroing the counters, every 65536 rows of a pass of the start in
 * row order (4096 of one that draws at random), and in the repair loop by work (nqueens/poll.h): a
 * move costs a row scan up to FULL_SCAN_N, so polling every SEARCH_POLL_MASK + 1 moves meant 16,384
 * row scans (~0.1 s at n = 4096) between two reads of the clock. At 10^7 queens the set-up is
 * nearly all the work, so checking only in the repair loop would overshoot short deadlines by all
 * of it. Randomness: a splitmix64 state on the stack, seeded from opts->seed. Thread-safety:
 * reentrant; all state is in the caller's scratch. */
#include <stdint.h>
#include <string.h>

#include "solvers/nqueens/bits.h"
#include "solvers/nqueens/poll.h"
#include "solvers/nqueens/repair.h"

#define PICK_SAMPLES 4             /* list entries drawn to find a most-conflicted queen */
#define MOVE_SAMPLES 6             /* random squares per move above FULL_SCAN_N */
#define FREE_SCAN    64            /* free-column hints looked at per move */
#define FREE_CAP     65536         /* free-column hint capacity */
#define FULL_SCAN_N  4096          /* rows up to this size are scanned whole */
#define STALL_LIMIT  256           /* moves without a new best before a perturbation */
#define TOTAL_LIMIT  2147450880ull /* C(65536, 2): total stays below */

typedef struct rep_s {
    int n;
    int *cols;
    const int *fixed;
    uint16_t *ccnt, *dcnt, *acnt;
    int32_t *colx, *list, *freecol;
    uint64_t *inlist, *infree;
    size_t nlist, nfree, freecap;
    uint64_t total;
    uint64_t rng;
} rep_t;

/* === Randomness === */

static inline uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in 0..m-1 for 1 <= m < 2^32 (Lemire's multiply-shift). */
static inline uint32_t rng_below(uint64_t *s, uint32_t m) {
    return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)m) >> 32);
}

/* === Scratch === */

static size_t list_ints(int n) {
    /* the list area also hosts nqueens_board_check()'s scratch */
    const size_t chk = (nqueens_board_scratch(n) + 3) / 4;
    return chk > (size_t)n ? chk : (size_t)n;
}

/* Free-column hints: none when rows are scanned whole, else n/8 up to
 * FREE_CAP (a full hint list is harmless: a hint is only a candidate). */
static size_t free_cap(int n) {
    if (n <= FULL_SCAN_N) return 0;
    return (size_t)n / 8 < FREE_CAP ? (size_t)n / 8 : FREE_CAP;
}

static size_t layout(int n, rep_t *p, void *scratch) {
    const size_t nn = (size_t)n, lines = 2 * nn - 1, bw = NQB_WORDS(nn);
    const size_t li = list_ints(n), fc = free_cap(n);
    const size_t bytes64 = 2 * bw * 8, bytes32 = (nn + li + fc) * 4;
    const size_t bytes16 = (nn + 2 * lines) * 2;
    if (p != NULL) {
        unsigned char *b = scratch;
        p->inlist = (uint64_t *)b;
        p->infree = p->inlist + bw;
        p->list = (int32_t *)(b + bytes64);
        p->colx = p->list + li;
        p->freecol = p->colx + nn;
        p->ccnt = (uint16_t *)(b + bytes64 + bytes32);
        p->dcnt = p->ccnt + nn;
        p->acnt = p->dcnt + lines;
        p->freecap = fc;
    }
    return bytes64 + bytes32 + bytes16;
}

size_t nqueens_repair_scratch(int n) {
    if (n < NQUEENS_REPAIR_MIN_N || n > NQUEENS_REPAIR_MAX_N) return 0;
    return layout(n, NULL, NULL);
}

/* === Board state === */

static inline int is_fixed(const rep_t *p, int r) { return p->fixed != NULL && p->fixed[r] >= 0; }

/* Conflicts of the queen of row r. */
static inline uint32_t conflicts(const rep_t *p, int r) {
    const int c = p->cols[r], n = p->n;
    return (uint32_t)p->ccnt[c] + p->dcnt[r - c + n - 1] + p->acnt[r + c] - 3;
}

/* Conflicts a queen of row r would have at column c (it is elsewhere). */
static inline uint32_t cost_at(const rep_t *p, int r, int c) {
    return (uint32_t)p->ccnt[c] + p->dcnt[r - c + p->n - 1] + p->acnt[r + c];
}

static inline void list_add(rep_t *p, int r) {
    if (nqb_get(p->inlist, (size_t)r) || is_fixed(p, r)) return;
    nqb_set(p->inlist, (size_t)r);
    p->list[p->nlist++] = r;
}

static inline void list_remove_at(rep_t *p, size_t i) {
    nqb_clear(p->inlist, (size_t)p->list[i]);
    p->list[i] = p->list[--p->nlist];
}

static inline void free_add(rep_t *p, int c) {
    if (p->nfree >= p->freecap || nqb_get(p->infree, (size_t)c)) return;
    nqb_set(p->infree, (size_t)c);
    p->freecol[p->nfree++] = c;
}

/* Moves row r's queen to column c2, which gives it `now` conflicts. */
static void move_queen(rep_t *p, int r, int c2, uint32_t now) {
    const int n = p->n, c = p->cols[r];
    p->total = p->total - conflicts(p, r) + now;
    p->ccnt[c]--;
    p->colx[c] ^= r;
    p->dcnt[r - c + n - 1]--;
    p->acnt[r + c]--;
    if (p->ccnt[c] == 0 && p->freecap != 0) free_add(p, c);
    if (p->ccnt[c2] == 1) list_add(p, p->colx[c2]); /* its lone queen now conflicts */
    p->ccnt[c2]++;
    p->colx[c2] ^= r;
    p->dcnt[r - c2 + n - 1]++;
    p->acnt[r + c2]++;
    p->cols[r] = c2;
}

/* Draws up to PICK_SAMPLES live entries of the list and returns the index of
 * the most conflicted one (dropping dead entries met on the way), or -1 if
 * the list has no conflicted queen left. */
static long pick(rep_t *p, int samples, uint32_t *conf) {
    long best = -1;
    uint32_t bc = 0;
    int live = 0;
    while (live < samples && p->nlist > 0) {
        const size_t i = rng_below(&p->rng, (uint32_t)p->nlist);
        const uint32_t k = conflicts(p, p->list[i]);
        if (k == 0) {
            list_remove_at(p, i);
            if (best == (long)p->nlist) best = (long)i; /* the best entry moved to i */
            continue;
        }
        live++;
        if (k > bc) {
            bc = k;
            best = (long)i;
        }
    }
    *conf = bc;
    return best;
}

/* Rebuilds the list from every conflicted movable queen.  The invariant
 * makes this unreachable; it is kept as a cheap safety net. */
static void list_rebuild(rep_t *p) {
    for (int r = 0; r < p->n; r++)
        if (conflicts(p, r) != 0) list_add(p, r);
}

/* Candidate bookkeeping for a least-conflicted square. */
typedef struct choice_s {
    uint32_t best, ties;
    int col;
} choice_t;

static inline void consider(rep_t *p, choice_t *ch, int r, int c) {
    if (c == p->cols[r]) return;
    const uint32_t v = cost_at(p, r, c);
    if (v < ch->best) {
        ch->best = v;
        ch->col = c;
        ch->ties = 1;
    } else if (v == ch->best && rng_below(&p->rng, ++ch->ties) == 0) {
        ch->col = c;
    }
}

static void choose_square(rep_t *p, int r, uint32_t cur, choice_t *ch) {
    const int n = p->n;
    ch->best = cur;
    ch->ties = 1;
    ch->col = p->cols[r];
    if (n <= FULL_SCAN_N) {
        for (int c = 0; c < n; c++)
            consider(p, ch, r, c);
        return;
    }
    size_t i = 0;
    for (int seen = 0; i < p->nfree && seen < FREE_SCAN;) {
        const int c = p->freecol[i];
        if (p->ccnt[c] != 0) { /* no longer free: drop the hint */
            nqb_clear(p->infree, (size_t)c);
            p->freecol[i] = p->freecol[--p->nfree];
            continue;
        }
        consider(p, ch, r, c);
        i++;
        seen++;
    }
    for (int s = 0; s < MOVE_SAMPLES; s++)
        consider(p, ch, r, (int)rng_below(&p->rng, (uint32_t)n));
}

/* === The start === */

/* How often the set-up polls ctl (see "Deadline" above): every
 * START_POLL + 1 rows of a pass in row order, RANDOM_POLL + 1 rows of a
 * pass of random draws (a cache miss or more each at large n), and after
 * each SCRATCH_SLICE bytes of zeroing. */
#define START_POLL    0xffffu
#define RANDOM_POLL   0xfffu
#define SCRATCH_SLICE ((size_t)8 << 20)

/* Writes the classical solution into cols[0..n-1], n >= 4: in 1-based
 * columns, the even ones 2, 4, ... then the odd ones 1, 3, ...; for n mod 6
 * = 2 the odd ones run 3, 1, 7, 9, ..., 5; for n mod 6 = 3 the even ones run
 * 4, 6, ..., 2 and the odd ones 5, 7, ..., 1, 3. */
static void classic(int n, int *cols) {
    const int m6 = n % 6;
    int r = 0;
    for (int c = m6 == 3 ? 4 : 2; c <= n; c += 2)
        cols[r++] = c - 1;
    if (m6 == 3) cols[r++] = 1;
    if (m6 == 2) {
        cols[r++] = 2;
        cols[r++] = 0;
        for (int c = 7; c <= n; c += 2)
            cols[r++] = c - 1;
        cols[r++] = 4;
    } else {
        for (int c = m6 == 3 ? 5 : 1; c <= n; c += 2)
            cols[r++] = c - 1;
        if (m6 == 3) {
            cols[r++] = 0;
            cols[r++] = 2;
        }
    }
}

/* Exchanges the columns of rows r1 and r2 (the board is a permutation and
 * the counters not built yet: only cols and colx change). */
static void exchange(rep_t *p, int r1, int r2) {
    const int c1 = p->cols[r1], c2 = p->cols[r2];
    p->cols[r1] = c2;
    p->cols[r2] = c1;
    p->colx[c2] = r1;
    p->colx[c1] = r2;
}

/* Polls ctl after every mask + 1 rows of a pass (START_POLL for passes in
 * row order, RANDOM_POLL for those that miss the cache at every row). */
static inline int start_poll(const search_ctl_t *ctl, int r, unsigned mask, uint64_t nodes) {
    return ((unsigned)r & mask) == mask ? search_check_now(ctl, nodes) : 0;
}

/* The counters of a permutation in cols/colx: one queen per column, the
 * diagonals with the pairs they hold added to total as they fill; then the
 * list: every conflicted row when `rows` is NULL, else those of rows[0..k-1]
 * (the only ones that can conflict). */
static int start_counters(rep_t *p, const int *rows, int k, const search_ctl_t *ctl,
                          uint64_t nodes) {
    const int n = p->n;
    int rc;
    for (int c = 0; c < n; c++)
        p->ccnt[c] = 1;
    for (int r = 0; r < n; r++) {
        const int c = p->cols[r];
        p->total += p->dcnt[r - c + n - 1]++;
        p->total += p->acnt[r + c]++;
        if ((rc = start_poll(ctl, r, START_POLL, nodes)) != 0) return rc;
    }
    if (p->total >= TOTAL_LIMIT) return SEARCH_BUDGET;
    p->nlist = 0;
    if (rows == NULL) {
        for (int r = 0; r < n; r++) {
            if (conflicts(p, r) != 0) list_add(p, r);
            if ((rc = start_poll(ctl, r, START_POLL, nodes)) != 0) return rc;
        }
    } else {
        for (int i = 0; i < k; i++)
            if (conflicts(p, rows[i]) != 0) list_add(p, rows[i]);
    }
    return 0;
}

/* start=constructed: the classical solution, the fixed queens exchanged
 * in, NQUEENS_REPAIR_SWAPS seeded transpositions of free rows. */
static int start_constructed(rep_t *p, const search_ctl_t *ctl, uint64_t nodes) {
    const int n = p->n;
    int rc, moved = 0, nfree = 0;
    classic(n, p->cols);
    for (int r = 0; r < n; r++) {
        p->colx[p->cols[r]] = r;
        if ((rc = start_poll(ctl, r, START_POLL, nodes)) != 0) return rc;
    }
    /* fixed queens take their columns; a fixed row met later that was
     * handed a column simply exchanges again (two fixed queens never share
     * a column: checked before) */
    if (p->fixed != NULL)
        for (int r = 0; r < n; r++) {
            if (!is_fixed(p, r)) {
                nfree++;
                continue;
            }
            if (p->cols[r] != p->fixed[r]) exchange(p, r, p->colx[p->fixed[r]]);
            moved = 1;
        }
    else
        nfree = n;
    int swapped[2 * NQUEENS_REPAIR_SWAPS];
    int nswapped = 0;
    for (int k = 0; k < NQUEENS_REPAIR_SWAPS && nfree >= 2; k++) {
        /* a few draws find two free rows unless nearly all are fixed; then
         * the swap is skipped (such boards have little room to vary) */
        int r1 = -1, r2 = -1;
        for (int tries = 0; tries < 64 && r2 < 0; tries++) {
            const int r = (int)rng_below(&p->rng, (uint32_t)n);
            if (is_fixed(p, r) || r == r1) continue;
            if (r1 < 0)
                r1 = r;
            else
                r2 = r;
        }
        if (r2 < 0) continue;
        exchange(p, r1, r2);
        swapped[nswapped++] = r1;
        swapped[nswapped++] = r2;
    }
    /* Only moved rows can conflict: the classical board has no pair.  With
     * fixed queens every row is looked at (a fixed queen's partner may be
     * any row, and fixed queens are never listed themselves). */
    return start_counters(p, moved ? NULL : swapped, nswapped, ctl, nodes);
}

/* The columns no fixed queen holds, into pool (p->list); their number.
 * Marks the fixed queens' columns in ccnt (zeroed here first). */
static size_t free_columns(rep_t *p, int32_t *pool) {
    const int n = p->n;
    size_t m = 0;
    memset(p->ccnt, 0, (size_t)n * sizeof *p->ccnt);
    for (int r = 0; p->fixed != NULL && r < n; r++)
        if (is_fixed(p, r)) p->ccnt[p->fixed[r]] = 1;
    for (int c = 0; c < n; c++)
        if (p->ccnt[c] == 0) pool[m++] = c;
    return m;
}

/* start=random: the free columns dealt to the free rows in a uniformly
 * random order (Fisher-Yates, from the seed): about 2n/3 attacking pairs. */
static int start_random(rep_t *p, const search_ctl_t *ctl, uint64_t nodes) {
    const int n = p->n;
    int32_t *pool = p->list;
    const size_t m = free_columns(p, pool);
    size_t k = 0;
    int rc;
    for (int r = 0; r < n; r++) {
        int c;
        if (is_fixed(p, r)) {
            c = p->fixed[r];
        } else {
            const size_t j = k + rng_below(&p->rng, (uint32_t)(m - k));
            c = pool[j];
            pool[j] = pool[k];
            pool[k++] = c;
        }
        p->cols[r] = c;
        p->colx[c] = r;
        if ((rc = start_poll(ctl, r, RANDOM_POLL, nodes)) != 0) return rc;
    }
    return start_counters(p, NULL, 0, ctl, nodes);
}

/* === start=greedy === */

/* The next row after `r` without a fixed queen (n if none). */
static int next_free_row(const rep_t *p, int r) {
    do
        r++;
    while (r < p->n && is_fixed(p, r));
    return r;
}

/* Software pipeline of the greedy start.  At n = 10^7 the counters are
 * 200 MB and every draw is a chain of two cache misses (pool[j], then the two
 * diagonals of the column found there).  So each row's first PF_DRAWS draws
 * are made PF_AHEAD rows early: pool[j] is prefetched then, and PF_AHEAD/2
 * rows early the diagonals of the column it holds; the row then finds its
 * draws in cache and evaluates them all, and only if none has free diagonals
 * draws more, TRY_BATCH at a time so their misses overlap.  The pool may
 * change in between (a swap at position j): the row reads whatever pool[j]
 * holds by its turn, as random as any draw, since j stays in the unused part.
 * Measured at n = 10^7 (seconds for the whole solve, same run):
 *     one draw at a time, no prefetch           1.75
 *     1 draw ahead                              1.75 .. 1.97 (56% of rows retry)
 *     2 / 3 / 4 draws ahead                     1.58 / 1.36 / 1.20
 *     6 draws ahead, 16 rows ahead (this)       1.05   (8: 1.08, 32 rows: 1.11)
 * More draws also lower the initial conflicts (4616 -> 1986). */
#define INIT_TRIES 34 /* pool draws per row, at most */
#define TRY_BATCH  4  /* retries drawn together */
#define PF_AHEAD   16
#define PF_DRAWS   6 /* draws per row made ahead */

typedef struct draw_s {
    int row;
    size_t j[PF_DRAWS];
} draw_t;

/* Makes the draws of free row number kk (row `row`) and prefetches them. */
static inline void draw_ahead(rep_t *p, draw_t *d, int row, size_t kk, size_t m) {
    d->row = row;
    for (int b = 0; b < PF_DRAWS; b++) {
        d->j[b] = kk + rng_below(&p->rng, (uint32_t)(m - kk));
        __builtin_prefetch(&p->list[d->j[b]]);
    }
}

/* The least crowded of free row r's draws (the PF_DRAWS made ahead, then
 * up to INIT_TRIES in all while none has empty diagonals): its pool index
 * in *bj, its diagonal queens returned.  k: the pool's consumed part. */
static uint32_t greedy_pick(rep_t *p, const draw_t *d, int r, size_t k, size_t m, size_t *bj) {
    const int n = p->n;
    const int32_t *pool = p->list;
    uint32_t bc = UINT32_MAX;
    for (int b = 0; b < PF_DRAWS; b++) { /* the draws made ahead: cache hits */
        const size_t j = d->j[b];
        const uint32_t v = (uint32_t)p->dcnt[r - pool[j] + n - 1] + p->acnt[r + pool[j]];
        if (v < bc) {
            bc = v;
            *bj = j;
        }
    }
    /* Retries in batches of TRY_BATCH independent draws: their misses
     * overlap instead of queueing behind one another. */
    for (int t = PF_DRAWS; bc != 0 && t < INIT_TRIES; t += TRY_BATCH) {
        size_t js[TRY_BATCH];
        uint32_t vs[TRY_BATCH];
        for (int b = 0; b < TRY_BATCH; b++)
            js[b] = k + rng_below(&p->rng, (uint32_t)(m - k));
        for (int b = 0; b < TRY_BATCH; b++) {
            const int c = pool[js[b]];
            vs[b] = (uint32_t)p->dcnt[r - c + n - 1] + p->acnt[r + c];
        }
        for (int b = 0; b < TRY_BATCH; b++)
            if (vs[b] < bc) {
                bc = vs[b];
                *bj = js[b];
            }
    }
    return bc;
}

/* start=greedy (Sosic and Gu's QS4 idea): the columns no fixed queen holds
 * form a pool; each free row, in order, keeps the first of its draws from
 * the pool whose two diagonals are empty, else the least crowded one.  The
 * board is a permutation and only the last rows, where the pool runs dry,
 * conflict.  Builds the counters as it goes; lists each queen that
 * conflicted with the queens placed before it. */
static int start_greedy(rep_t *p, const search_ctl_t *ctl, uint64_t nodes) {
    const int n = p->n;
    int32_t *pool = p->list; /* consumed slots become list entries */
    draw_t ring[PF_AHEAD];
    const size_t m = free_columns(p, pool);
    size_t k = 0;
    for (int r = 0; p->fixed != NULL && r < n; r++)
        if (is_fixed(p, r)) {
            const int c = p->fixed[r];
            p->cols[r] = c;
            p->colx[c] = r;
            p->dcnt[r - c + n - 1] = 1;
            p->acnt[r + c] = 1;
        }
    p->nlist = 0;
    int ra = -1; /* row of the latest draw made ahead */
    for (size_t kk = 0; kk < m && kk < PF_AHEAD; kk++) {
        ra = next_free_row(p, ra);
        draw_ahead(p, &ring[kk], ra, kk, m);
    }
    for (int r = next_free_row(p, -1); r < n; r = next_free_row(p, r)) {
        size_t bj = 0;
        const uint32_t bc = greedy_pick(p, &ring[k % PF_AHEAD], r, k, m, &bj);
        if (k + PF_AHEAD < m) { /* draw for PF_AHEAD rows ahead */
            ra = next_free_row(p, ra);
            draw_ahead(p, &ring[(k + PF_AHEAD) % PF_AHEAD], ra, k + PF_AHEAD, m);
        }
        if (k + PF_AHEAD / 2 < m) { /* lines of the draws half way ahead */
            const draw_t *d = &ring[(k + PF_AHEAD / 2) % PF_AHEAD];
            for (int b = 0; b < PF_DRAWS; b++) {
                const int c = pool[d->j[b]];
                __builtin_prefetch(&p->dcnt[d->row - c + n - 1]);
                __builtin_prefetch(&p->acnt[d->row + c]);
            }
        }
        const int c = pool[bj];
        pool[bj] = pool[k];
        pool[k++] = c;
        if (p->total + bc >= TOTAL_LIMIT) return SEARCH_BUDGET;
        const int rc = start_poll(ctl, (int)k, RANDOM_POLL, nodes);
        if (rc != 0) return rc;
        p->total += bc;
        p->cols[r] = c;
        p->ccnt[c] = 1;
        p->colx[c] = r;
        p->dcnt[r - c + n - 1]++;
        p->acnt[r + c]++;
        if (bc != 0) pool[p->nlist++] = r; /* nlist < k: a consumed slot */
    }
    for (size_t i = 0; i < p->nlist; i++)
        nqb_set(p->inlist, (size_t)p->list[i]);
    return 0;
}

/* === The repair loop === */

int nqueens_repair(int n, const int *fixed, const nqueens_repair_opts_t *opts,
                   const search_ctl_t *ctl, int *cols, void *scratch, nqueens_repair_result_t *res,
                   search_stats_t *stats, nqueens_pair_t *bad) {
    rep_t p;
    search_stats_t local = {0};
    int rc;
    if (n < NQUEENS_REPAIR_MIN_N || n > NQUEENS_REPAIR_MAX_N || cols == NULL || scratch == NULL ||
        opts == NULL || res == NULL || (opts->trace == NULL && opts->restart != NULL) ||
        (int)opts->start < (int)NQUEENS_START_CONSTRUCTED ||
        (int)opts->start > (int)NQUEENS_START_RANDOM)
        return SEARCH_EINVAL;
    (void)layout(n, &p, scratch);
    if ((rc = nqueens_board_check(n, fixed, p.list, bad)) != 0) return rc;
    if (stats == NULL) stats = &local;
    if ((rc = search_check_now(ctl, stats->nodes)) != 0) return rc;

    /* The diagonal counters and the bit sets start at zero; the rest is
     * written before it is read.  Zeroed in slices, polling between them:
     * at 10^7 queens the first touch of 80 MB takes ~100 ms. */
    memset(p.inlist, 0, 2 * sizeof(uint64_t) * NQB_WORDS((size_t)n));
    const size_t lines = 2 * (size_t)n - 1;
    char *diag = (char *)p.dcnt;
    const size_t dbytes = 2 * lines * sizeof *p.dcnt;
    for (size_t off = 0; off < dbytes; off += SCRATCH_SLICE) {
        memset(diag + off, 0, dbytes - off < SCRATCH_SLICE ? dbytes - off : SCRATCH_SLICE);
        if ((rc = search_check_now(ctl, stats->nodes)) != 0) return rc;
    }
    p.n = n;
    p.cols = cols;
    p.fixed = fixed;
    p.nlist = p.nfree = 0;
    p.total = 0;
    p.rng = opts->seed;
    memset(res, 0, sizeof *res);
    rc = opts->start == NQUEENS_START_GREEDY   ? start_greedy(&p, ctl, stats->nodes)
         : opts->start == NQUEENS_START_RANDOM ? start_random(&p, ctl, stats->nodes)
                                               : start_constructed(&p, ctl, stats->nodes);
    if (rc != 0) return rc;
    res->initial_conflicts = p.total;

    const uint64_t base = stats->nodes;
    const size_t tcap = opts->trace != NULL ? opts->trace_cap : 0;
    /* a move: the samples drawn, then a whole row or the sampled squares */
    const uint64_t move_units =
        PICK_SAMPLES + (n <= FULL_SCAN_N ? (uint64_t)n : FREE_SCAN + MOVE_SAMPLES);
    uint64_t steps = 0, restarts = 0, best_total = p.total, stall = 0;
    nqueens__poll_t pl;
    nqueens__poll_init(&pl, base);
    rc = 0;
    while (p.total > 0) {
        if (opts->max_steps != 0 && steps >= opts->max_steps) {
            rc = SEARCH_TIMEOUT;
            break;
        }
        if ((rc = nqueens__poll(&pl, ctl, move_units, base + steps)) != 0) break;
        uint32_t cur;
        long i = pick(&p, PICK_SAMPLES, &cur);
        if (i < 0) {
            list_rebuild(&p);
            if ((i = pick(&p, PICK_SAMPLES, &cur)) < 0) break; /* unreachable */
        }
        const int r = p.list[i];
        int perturbed = 0;
        if (stall >= STALL_LIMIT) {
            /* leave the plateau: a random other square of the row */
            int c2 = (int)rng_below(&p.rng, (uint32_t)(n - 1));
            if (c2 >= cols[r]) c2++;
            const uint32_t v = cost_at(&p, r, c2);
            if (p.total - cur + v < TOTAL_LIMIT) {
                move_queen(&p, r, c2, v);
                perturbed = 1;
                restarts++;
            }
            best_total = p.total;
            stall = 0;
        } else {
            choice_t ch;
            choose_square(&p, r, cur, &ch);
            if (ch.col != cols[r]) move_queen(&p, r, ch.col, ch.best);
            if (p.total < best_total) {
                best_total = p.total;
                stall = 0;
            } else {
                stall++;
            }
        }
        if (conflicts(&p, r) == 0 && p.list[i] == r) list_remove_at(&p, (size_t)i);
        if (steps < tcap) {
            opts->trace[steps] = (uint32_t)p.total;
            if (opts->restart != NULL) opts->restart[steps] = (uint8_t)perturbed;
        }
        steps++;
    }
    if (rc == 0 && p.total != 0) rc = SEARCH_BUDGET;
    res->steps = steps;
    res->restarts = restarts;
    res->conflicts = p.total;
    res->trace_len = steps < tcap ? (size_t)steps : tcap;
    stats->nodes = base + steps;
    stats->backtracks += restarts;
    if ((uint32_t)n > stats->max_depth) stats->max_depth = (uint32_t)n;
    return rc;
}
