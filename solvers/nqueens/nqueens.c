/* nqueens.c -- N-Queens counting with 8-fold symmetry, first solution, check.
 *
 * Representation
 * --------------
 * A row is a bitboard: bit c stands for column c.  Entering row y the search
 * holds three attack words built from the queens of rows 0..y-1:
 *
 *     cols  columns already taken
 *     ld    diagonals running down-right: a queen at column c attacks c+1 in
 *           the next row, so the word is shifted left once per row
 *     rd    diagonals running down-left: shifted right once per row
 *
 *         col: 0 1 2 3 4
 *     row y    . . Q . .        queen at bit 2
 *     row y+1  . x x x .        cols | ld<<1 | rd>>1 = bits 1, 2, 3
 *
 * and the free squares of row y are allowed[y] & ~(cols | ld | rd).  Bits at
 * and above n drift out of the board and are cut off by allowed[]; uint32_t is
 * wide enough for counting (n <= 27), nqueens_first() uses uint64_t (n <= 64).
 *
 * Symmetry classes (the counting model of nqueens.h)
 * ---------------------------------------------------
 * D4 (4 rotations, 4 reflections) acts on the solutions.  For n >= 2 no
 * solution is fixed by a reflection (a left-right mirror would need every
 * queen on the middle column; a diagonal mirror would make the permutation an
 * involution, whose 2-cycles put two queens on one anti-diagonal), so an orbit
 * has 8, 4 (180-degree symmetric) or 2 (90-degree symmetric) members.  Two
 * corner queens always attack each other, so a solution has at most one.
 *
 *   CORNER  queen at (0,0), bound = r1, the column of the row-1 queen.  Such
 *           an orbit has 8 members, two of them with a queen at (0,0): the
 *           board and its transpose, which swap r1 and c1 (the row of the
 *           column-1 queen); r1 == c1 would put (1,r1) and (r1,1) on one
 *           anti-diagonal.  We keep r1 < c1: r1 in 2..n-2, column 1 banned in
 *           rows 2..r1-1.  Each completion weighs 8.
 *
 *   SIDE    no corner queen, bound = c0, the column of the row-0 queen, with
 *           1 <= c0 < n-1-c0.  Columns 0 and n-1 are banned in rows y < c0
 *           and y > n-1-c0, and the row n-1 queen must lie in [c0, n-1-c0]:
 *           every edge queen is then at least c0 from its nearest corner, so
 *           the enumerated set E holds exactly the boards whose top queen is
 *           a closest-to-a-corner edge queen, in the left half.  An element of
 *           D4 maps s into E iff it carries one of the closest edge queens
 *           (with its corner) to (row 0, column c0); D4 acts simply on (edge,
 *           corner) pairs, so there are m such elements, where
 *               m = 1 + [bottom queen in column c0 or n-1-c0]
 *                     + [queen of row c0 in column 0 or n-1]
 *                     + [queen of row n-1-c0 in column 0 or n-1].
 *           m is constant on an orbit O, and counting pairs (g, s) gives
 *           |O & E| = |O| * m / 8; weighing each board of E by 8/m therefore
 *           sums to |O| per orbit.
 *
 *   PLAIN   symmetry off, and n <= 3 where the classes are empty or
 *           degenerate: every completion weighs 1.
 *
 * Weights are 8, 8/m and 1; counted in thirds (NQUEENS_UNIT) they are the
 * integers 24, 24/m and 3.  All class constraints are folded into a per-row
 * allowed[] mask computed once per subproblem, so the hot loop does not know
 * about classes at all; only a successful leaf asks for its weight.
 *
 * The search
 * ----------
 * Iterative, with an explicit stack of per-row frames (avail, cols, ld, rd)
 * indexed by row: no recursion, and count_plan() needs well under 1 KiB of
 * the worker's stack whatever n is.  The current row lives in locals; a frame
 * is stored only when the search descends.  Rows are filled top to bottom.
 *
 * The counting loop is bound by mispredicted branches (whether a row has run
 * out, whether a queen leaves the rows below any room), so the tuning moves
 * decisions out of branches.  Cycles for n = 16 on one thread, as each step
 * went in (gcc 12 -O2, AMD EPYC):
 *
 *     plain loop, last row tested in place             7.3 G   (n=17 11.9 s)
 *     next two rows checked before a push,
 *       last three rows in closed form (last_three)     6.4 G
 *     viable(): look-ahead over three rows for the
 *       whole row at once, no per-queen branch          5.7 G   (n=17  9.3 s)
 *
 * Tried and dropped: other row orders (bottom row first, rows alternately
 * from both ends, the constrained rows first: 1.4 to 2.4 times the nodes at
 * n = 14, since neighbouring rows prune each other most); the three-row
 * look-ahead as a test per queen (6.2 G: fewer instructions, more
 * mispredictions); a fourth look-ahead row (6.2 G: more work than it saves).
 *
 * Thread-safety: no globals are written; every function is reentrant.  A
 * search reads its search_ctl_t and writes only its own search_stats_t. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/board.h"

/* Units a SIDE leaf adds for m = 1..4 (index 0 unused). */
static const uint8_t side_units[5] = {0, 24, 12, 8, 6};

#define CORNER_UNITS 24 /* weight 8 */
#define PLAIN_UNITS  3  /* weight 1 */

/* === Subproblem plans === */

/* Everything count_plan() needs for one subproblem, derived from and checked
 * against an nqueens_sub_t. */
typedef struct plan_s {
    int n;
    int start;             /* first free row (= sub->depth) */
    int klass;             /* nqueens_class_t */
    int bound;             /* CORNER: r1; SIDE: c0 */
    uint32_t cols, ld, rd; /* attacks on row `start` from the prefix */
    uint32_t allowed[NQUEENS_COUNT_MAX_N];
    uint32_t prefix_cols[NQUEENS_COUNT_MAX_N + 1]; /* cols entering row y <= start */
} plan_t;

static uint32_t full_mask(int n) { return ((uint32_t)1 << n) - 1; }

/* Fills allowed[0..n-1] for a class root.  Returns 0, or -1 if the class or
 * its bound does not fit n. */
static int class_masks(int n, int klass, int bound, uint32_t *allowed) {
    const uint32_t full = full_mask(n);
    for (int y = 0; y < n; y++)
        allowed[y] = full;
    switch (klass) {
    case NQUEENS_PLAIN: return 0;
    case NQUEENS_CORNER:
        if (n < 4 || bound < 2 || bound > n - 2) return -1;
        allowed[0] = 1u;
        allowed[1] = (uint32_t)1 << bound;
        for (int y = 2; y < bound; y++)
            allowed[y] &= ~(uint32_t)2;
        return 0;
    case NQUEENS_SIDE: {
        if (n < 4 || bound < 1 || bound >= n - 1 - bound) return -1;
        const uint32_t edges = 1u | ((uint32_t)1 << (n - 1));
        allowed[0] = (uint32_t)1 << bound;
        for (int y = 1; y < n - 1; y++)
            if (y < bound || y > n - 1 - bound) allowed[y] &= ~edges;
        /* bits bound..n-1-bound */
        allowed[n - 1] = full_mask(n - bound) & ~full_mask(bound);
        return 0;
    }
    default: return -1;
    }
}

/* Checks `sub` and turns it into a plan.  Returns 0, or SEARCH_EINVAL if the
 * subproblem could not have come from nqueens_split() for its n and class: a
 * bad size or class, a column out of range, an attacked or banned square. */
static int plan_init(plan_t *p, const nqueens_sub_t *sub) {
    const int n = sub->n;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || sub->depth > n) return SEARCH_EINVAL;
    if (class_masks(n, sub->klass, sub->bound, p->allowed) != 0) return SEARCH_EINVAL;
    p->n = n;
    p->start = sub->depth;
    p->klass = sub->klass;
    p->bound = sub->bound;
    uint32_t c = 0, l = 0, r = 0;
    for (int y = 0; y < sub->depth; y++) {
        if (sub->cols[y] >= n) return SEARCH_EINVAL;
        const uint32_t bit = (uint32_t)1 << sub->cols[y];
        if ((bit & p->allowed[y] & ~(c | l | r)) == 0) return SEARCH_EINVAL;
        p->prefix_cols[y] = c;
        c |= bit;
        l = (l | bit) << 1;
        r = (r | bit) >> 1;
    }
    p->prefix_cols[sub->depth] = c;
    p->cols = c;
    p->ld = l;
    p->rd = r;
    return 0;
}

/* Units of a complete board; cs[y] holds the columns taken by rows 0..y-1,
 * for y = 0..n (so row y's queen is cs[y+1] ^ cs[y]). */
static uint64_t leaf_units(const plan_t *p, const uint32_t *cs) {
    if (p->klass == NQUEENS_CORNER) return CORNER_UNITS;
    if (p->klass != NQUEENS_SIDE) return PLAIN_UNITS;
    const int n = p->n, c0 = p->bound, c1 = n - 1 - c0;
    const uint32_t edges = 1u | ((uint32_t)1 << (n - 1));
    const uint32_t near = ((uint32_t)1 << c0) | ((uint32_t)1 << c1);
    int m = 1;
    m += ((cs[n] ^ cs[n - 1]) & near) != 0;
    m += ((cs[c0 + 1] ^ cs[c0]) & edges) != 0;
    m += ((cs[c1 + 1] ^ cs[c1]) & edges) != 0;
    return side_units[m];
}

/* === Counting === */

/* One row of the explicit stack: the squares of the row still to try and the
 * attacks entering it.  Sixteen bytes, so a push is one vector store. */
typedef struct frame_s {
    uint32_t avail, cols, ld, rd;
} frame_t;

/* What the closed-form tail needs: the board mask and the last three rows'
 * allowed masks. */
typedef struct tail_s {
    uint32_t full, m3, m2, m1;
} tail_t;

/* The last two rows in closed form.  (c, l, r) are the attacks entering row
 * n-2; n-2 queens are down, so exactly two columns lo < hi are free and the
 * only candidates are (row n-2, row n-1) = (lo, hi) and (hi, lo).  Both need
 * hi != lo+1, the one diagonal the two new queens could share.  Returns the
 * number of solutions (0..2) and in *placed the queens row n-2 takes. */
static inline unsigned last_two(const tail_t *t, uint32_t c, uint32_t l, uint32_t r,
                                unsigned *placed) {
    const uint32_t f = t->full & ~c, lo = f & -f, hi = f ^ lo;
    const uint32_t a2 = t->m2 & ~(l | r), a1 = t->m1 & ~(l << 1 | r >> 1);
    const unsigned apart = hi != lo << 1;
    const unsigned lo2 = (a2 & lo) != 0, hi2 = (a2 & hi) != 0;
    *placed = lo2 + hi2;
    return (apart & lo2 & ((a1 & hi) != 0)) + (apart & hi2 & ((a1 & lo) != 0));
}

/* The last three rows, branch-free: each of the three free columns f0, f1, f2
 * is tried in row n-3 and the other two go to last_two(); a3 (the free squares
 * of row n-3) masks the tries that are not legal.  Returns the number of
 * solutions and in *placed the queens rows n-3 and n-2 take.  ~50 ALU
 * operations replace three levels of the most mispredicted branches. */
static inline unsigned last_three(const tail_t *t, uint32_t a3, uint32_t c, uint32_t l, uint32_t r,
                                  unsigned *placed) {
    const uint32_t f = t->full & ~c, f0 = f & -f, g = f ^ f0, f1 = g & -g, f2 = g ^ f1;
    const unsigned v0 = -(unsigned)((a3 & f0) != 0), v1 = -(unsigned)((a3 & f1) != 0),
                   v2 = -(unsigned)((a3 & f2) != 0);
    unsigned p0, p1, p2;
    const unsigned s0 = last_two(t, c | f0, (l | f0) << 1, (r | f0) >> 1, &p0);
    const unsigned s1 = last_two(t, c | f1, (l | f1) << 1, (r | f1) >> 1, &p1);
    const unsigned s2 = last_two(t, c | f2, (l | f2) << 1, (r | f2) >> 1, &p2);
    *placed = (v0 & (1 + p0)) + (v1 & (1 + p1)) + (v2 & (1 + p2));
    return (v0 & s0) + (v1 & s1) + (v2 & s2);
}

/* What a search adds up besides units. */
typedef struct tally_s {
    uint64_t nodes;  /* queens placed */
    uint64_t leaves; /* solutions found */
    int deep;        /* most queens on the board at once */
} tally_t;

/* Searches rows y0..n-1 square by square, for n - y0 <= 3, and returns the
 * units of every completion.  cs[0..y0] must hold the columns taken entering
 * each row; cs[y0+1..n] are overwritten.  Used where speed does not matter:
 * subproblems that leave at most three rows, and the weights of the SIDE
 * solutions that last_three() has counted. */
static uint64_t small_tail(const plan_t *p, uint32_t *cs, int y0, uint32_t c, uint32_t l,
                           uint32_t r, tally_t *t) {
    frame_t stk[3];
    const int n = p->n;
    uint64_t u = 0;
    int y = y0;
    if (y0 == n) { /* the prefix is a whole board, already checked */
        t->deep = n;
        return leaf_units(p, cs);
    }
    uint32_t avail = p->allowed[y] & ~(c | l | r);
    for (;;) {
        if (avail) {
            const uint32_t bit = avail & -avail;
            avail ^= bit;
            t->nodes++;
            if (y + 1 > t->deep) t->deep = y + 1;
            cs[y + 1] = c | bit;
            if (y == n - 1) {
                t->leaves++;
                u += leaf_units(p, cs);
                continue;
            }
            stk[y - y0] = (frame_t){avail, c, l, r};
            c |= bit;
            l = (l | bit) << 1;
            r = (r | bit) >> 1;
            ++y;
            avail = p->allowed[y] & ~(c | l | r);
        } else {
            if (y == y0) break;
            --y;
            avail = stk[y - y0].avail;
            c = stk[y - y0].cols;
            l = stk[y - y0].ld;
            r = stk[y - y0].rd;
        }
    }
    return u;
}

/* Bits lo..hi of a word (none if lo > hi), for -3 <= lo and hi <= 31. */
static inline uint32_t bit_range(int lo, int hi) {
    lo = lo < 0 ? 0 : lo;
    return (0xffffffffu >> (31 - hi)) & (0xffffffffu << lo);
}

/* The squares x at which a queen would empty `a`, the free squares of the
 * row k below: that happens iff a lies within {x-k, x, x+k}, i.e. x is in
 * [max a - k, min a + k] and a holds no square 1..k-1 columns from x.  An
 * empty `a` is left to the caller.  (Bit 28, above every board square, keeps
 * ctz defined and the range's top <= 31.) */
static inline uint32_t killers(uint32_t a, int k) {
    const int lo = __builtin_ctz(a | 1u << 28), hi = 31 - __builtin_clz(a | 1u);
    uint32_t near = 0;
    for (int d = 1; d < k; d++)
        near |= a << d | a >> d;
    return bit_range(hi - k, lo + k) & ~near;
}

/* The squares of `avail` whose queen leaves a free square in each of the
 * next three rows; a1..a3 are those rows' free squares before this row's
 * queen goes down.  Computed for the whole row at once and without
 * branches, it replaces a data-dependent test per placement: the tree's
 * dead ends are its least predictable branches. */
static inline uint32_t viable(uint32_t avail, uint32_t a1, uint32_t a2, uint32_t a3) {
    const uint32_t none = -(uint32_t)((a1 == 0) | (a2 == 0) | (a3 == 0));
    return avail & ~(killers(a1, 1) | killers(a2, 2) | killers(a3, 3) | none);
}

/* Free squares of row y + k before the queens of rows y.. go down, given
 * the attacks (c, l, r) entering row y. */
#define AHEAD(k) (allowed[y + (k)] & ~(c | l << (k) | r >> (k)))

/* Counts the completions of a plan.
 *
 * Rows start..n-4 are searched with the explicit stack; a placement in row
 * n-4 hands the last three rows to last_three().  A row's candidates are
 * filtered by viable() when the search enters it, so every placement in rows
 * above n-4 is pushed, and the loop's only data-dependent branch is the end
 * of a row.
 *
 * Work is counted in placements: stats->nodes gets every queen put down (the
 * closed-form rows as if they had been searched square by square; squares
 * viable() removes are never placed) and stats->backtracks every placement
 * taken back, i.e. all but the last queen of each solution.  The control
 * block is polled through search_check_now() each time the count of stacked
 * rows' placements, which starts at stats->nodes, reaches a multiple of
 * SEARCH_POLL_MASK+1, so one node budget covers everything summed into one
 * stats block. */
static int count_plan(const plan_t *p, const search_ctl_t *ctl, uint64_t *units,
                      search_stats_t *stats) {
    const int n = p->n, start = p->start, t4 = n - 4;
    const uint32_t *allowed = p->allowed;
    /* Units per solution, or 0 when they depend on the board (SIDE). */
    const uint64_t w = p->klass == NQUEENS_SIDE     ? 0
                       : p->klass == NQUEENS_CORNER ? CORNER_UNITS
                                                    : PLAIN_UNITS;
    frame_t stk[NQUEENS_COUNT_MAX_N];
    uint32_t cs[NQUEENS_COUNT_MAX_N + 1]; /* columns taken entering row y */
    const uint64_t base = stats->nodes;
    uint64_t nodes = base, sum = 0;
    tally_t tail = {0, 0, start}; /* the closed-form rows' share */
    uint32_t c = p->cols, l = p->ld, r = p->rd;
    int rc = 0;

    memcpy(cs, p->prefix_cols, sizeof(uint32_t) * (size_t)(start + 1));
    if (start > t4) { /* at most three rows left (and every n <= 3) */
        sum = small_tail(p, cs, start, c, l, r, &tail);
        goto done;
    }

    const tail_t tl = {full_mask(n), allowed[n - 3], allowed[n - 2], allowed[n - 1]};
    /* A row's frame is written only when the search descends from it, so
     * the deepest written frame tells how deep the search went. */
    for (int k = start; k <= t4; k++)
        stk[k].avail = UINT32_MAX;
    int y = start;
    uint32_t avail = viable(AHEAD(0), AHEAD(1), AHEAD(2), AHEAD(3));
    for (;;) {
        while (avail) {
            const uint32_t bit = avail & -avail;
            avail ^= bit;
            ++nodes;
            if ((nodes & SEARCH_POLL_MASK) == 0 &&
                (rc = search_check_now(ctl, nodes + tail.nodes)) != 0)
                goto done;
            const uint32_t nc = c | bit, nl = (l | bit) << 1, nr = (r | bit) >> 1;
            const uint32_t next = allowed[y + 1] & ~(nc | nl | nr);
            if (y == t4) {
                unsigned placed;
                const unsigned k = last_three(&tl, next, nc, nl, nr, &placed);
                tail.nodes += placed + k;
                if (k != 0) {
                    tail.leaves += k;
                    if (w == 0) { /* weigh each SIDE board: rare, so re-search */
                        tally_t again = {0, 0, 0};
                        cs[t4] = c;
                        cs[n - 3] = nc;
                        sum += small_tail(p, cs, n - 3, nc, nl, nr, &again);
                    }
                }
                continue;
            }
            stk[y] = (frame_t){avail, c, l, r};
            cs[y] = c;
            c = nc;
            l = nl;
            r = nr;
            ++y;
            avail = viable(next, AHEAD(1), AHEAD(2), AHEAD(3));
        }
        if (y == start) break;
        --y;
        avail = stk[y].avail;
        c = stk[y].cols;
        l = stk[y].ld;
        r = stk[y].rd;
    }
done:
    if (start <= t4) {
        sum += w * tail.leaves;
        /* A pushed row k means a queen went into row k+1 as well (viable()
         * left it a square), so k+2 queens were down. */
        int k = t4;
        while (k >= start && stk[k].avail == UINT32_MAX)
            k--;
        if (k >= start)
            tail.deep = k + 2;
        else if (nodes != base)
            tail.deep = start + 1;
        if (tail.nodes != 0) tail.deep = n - 2;
        if (tail.leaves != 0) tail.deep = n;
    }
    *units += sum;
    stats->nodes = nodes + tail.nodes;
    stats->backtracks += nodes + tail.nodes - base - tail.leaves;
    if ((uint32_t)tail.deep > stats->max_depth) stats->max_depth = (uint32_t)tail.deep;
    return rc;
}

#undef AHEAD

int nqueens_count_sub(const nqueens_sub_t *sub, const search_ctl_t *ctl, uint64_t *units,
                      search_stats_t *stats) {
    plan_t plan;
    search_stats_t local = {0};
    if (sub == NULL || units == NULL) return SEARCH_EINVAL;
    if (stats == NULL) stats = &local;
    int rc = plan_init(&plan, sub);
    if (rc != 0) return rc;
    if ((rc = search_check_now(ctl, stats->nodes)) != 0) return rc;
    return count_plan(&plan, ctl, units, stats);
}

/* Masked counting reuses count_plan(): a PLAIN plan whose allowed[] comes
 * from the caller instead of a symmetry class.  count_plan() already takes
 * every row's squares from allowed[] (the look-ahead and the closed-form
 * last rows included), so nothing else changes. */
int nqueens_count_masked(int n, int depth, const uint8_t *cols, const uint32_t *allowed,
                         const search_ctl_t *ctl, uint64_t *count, search_stats_t *stats) {
    plan_t plan;
    search_stats_t local = {0};
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || depth < 0 || depth > n || allowed == NULL ||
        count == NULL || (depth > 0 && cols == NULL))
        return SEARCH_EINVAL;
    if (stats == NULL) stats = &local;
    const uint32_t full = full_mask(n);
    plan.n = n;
    plan.start = depth;
    plan.klass = NQUEENS_PLAIN;
    plan.bound = 0;
    for (int y = 0; y < n; y++)
        plan.allowed[y] = allowed[y] & full;
    uint32_t c = 0, l = 0, r = 0;
    for (int y = 0; y < depth; y++) {
        if (cols[y] >= n) return SEARCH_EINVAL;
        const uint32_t bit = (uint32_t)1 << cols[y];
        if ((bit & plan.allowed[y] & ~(c | l | r)) == 0) return SEARCH_EINVAL;
        plan.prefix_cols[y] = c;
        c |= bit;
        l = (l | bit) << 1;
        r = (r | bit) >> 1;
    }
    plan.prefix_cols[depth] = c;
    plan.cols = c;
    plan.ld = l;
    plan.rd = r;
    int rc = search_check_now(ctl, stats->nodes);
    if (rc != 0) return rc;
    uint64_t units = 0;
    if ((rc = count_plan(&plan, ctl, &units, stats)) == 0) *count = nqueens_units_to_count(units);
    return rc;
}

/* === Splitting === */

/* Appends to out[] every extension of the class root (klass, bound) to
 * `depth` rows, in ascending-column DFS order; *total counts all of them,
 * including those beyond cap. */
static void extend_root(int n, int klass, int bound, int depth, nqueens_sub_t *out, size_t cap,
                        size_t *total) {
    uint32_t allowed[NQUEENS_COUNT_MAX_N];
    frame_t stk[NQUEENS_COUNT_MAX_N];
    uint8_t col[NQUEENS_COUNT_MAX_N];
    if (class_masks(n, klass, bound, allowed) != 0) return;

    int y = 0;
    uint32_t c = 0, l = 0, r = 0, avail = allowed[0];
    for (;;) {
        if (avail) {
            const uint32_t bit = avail & -avail;
            avail ^= bit;
            col[y] = (uint8_t)__builtin_ctz(bit);
            if (y + 1 == depth) {
                if (*total < cap) {
                    nqueens_sub_t *s = &out[*total];
                    memset(s, 0, sizeof *s);
                    s->n = (uint8_t)n;
                    s->depth = (uint8_t)depth;
                    s->klass = (uint8_t)klass;
                    s->bound = (uint8_t)bound;
                    memcpy(s->cols, col, (size_t)depth);
                }
                ++*total;
                continue;
            }
            stk[y] = (frame_t){avail, c, l, r};
            c |= bit;
            l = (l | bit) << 1;
            r = (r | bit) >> 1;
            ++y;
            avail = allowed[y] & ~(c | l | r);
        } else {
            if (y == 0) return;
            --y;
            avail = stk[y].avail;
            c = stk[y].cols;
            l = stk[y].ld;
            r = stk[y].rd;
        }
    }
}

static int clamp_depth(int depth, int lo, int hi) {
    if (depth > hi) depth = hi;
    if (depth < lo) depth = lo;
    return depth;
}

int nqueens_split(int n, int depth, int symmetry, nqueens_sub_t *out, size_t cap, size_t *count) {
    size_t total = 0;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || count == NULL || (out == NULL && cap != 0)) return -1;
    if (!symmetry || n < 4) {
        /* n = 1 has no n-1 rows to leave open: its one subproblem is the board */
        extend_root(n, NQUEENS_PLAIN, 0, clamp_depth(depth, 1, n > 1 ? n - 1 : 1), out, cap,
                    &total);
    } else {
        const int d_corner = clamp_depth(depth, 2, n - 1);
        const int d_side = clamp_depth(depth, 1, n - 1);
        for (int r1 = 2; r1 <= n - 2; r1++)
            extend_root(n, NQUEENS_CORNER, r1, d_corner, out, cap, &total);
        for (int c0 = 1; c0 < n - 1 - c0; c0++)
            extend_root(n, NQUEENS_SIDE, c0, d_side, out, cap, &total);
    }
    *count = total;
    return total > cap ? -2 : 0;
}

/* Roots at their minimum depth: at most n-3 CORNER plus n/2 SIDE, or n PLAIN. */
#define ROOTS_MAX (2 * NQUEENS_COUNT_MAX_N)

int nqueens_count(int n, int symmetry, const search_ctl_t *ctl, uint64_t *count,
                  search_stats_t *stats) {
    nqueens_sub_t roots[ROOTS_MAX];
    search_stats_t local = {0};
    size_t nroots = 0;
    uint64_t units = 0;
    int rc;

    if (count == NULL) return SEARCH_EINVAL;
    if (nqueens_split(n, 1, symmetry, roots, ROOTS_MAX, &nroots) != 0) return SEARCH_EINVAL;
    if ((rc = search_check_now(ctl, 0)) != 0) goto out;
    for (size_t i = 0; i < nroots; i++)
        if ((rc = nqueens_count_sub(&roots[i], ctl, &units, &local)) != 0) goto out;
    *count = nqueens_units_to_count(units);
out:
    if (stats != NULL) {
        stats->nodes += local.nodes;
        stats->backtracks += local.backtracks;
        if (local.max_depth > stats->max_depth) stats->max_depth = local.max_depth;
    }
    return rc;
}

/* === First solution === */

/* Backtracking in ascending-column order, so the first solution reached is
 * the lexicographically first.  The empty board's first solution is its
 * first completion, so the search lives once, in nqueens/board.c.  Its cost
 * jumps around with n: 10^7 to 10^8 placements for n = 28..33 (under a
 * second), but n = 34 and every n from 36 to 64 ran past a 2 s deadline, so
 * callers should pass one (method=auto hands big boards to minconflicts). */
int nqueens_first(int n, const search_ctl_t *ctl, int *cols, search_stats_t *stats) {
    if (n < 1 || n > NQUEENS_SOLVE_MAX_N || cols == NULL) return SEARCH_EINVAL;
    return nqueens_complete_first(n, NULL, ctl, cols, stats, NULL);
}

/* === Verification === */

size_t nqueens_verify_scratch(int n) {
    /* columns, then 2n-1 diagonals (r - c + n - 1), then 2n-1 anti-diagonals */
    return n < 1 ? 0 : 5 * (size_t)n - 2;
}

int nqueens_verify(int n, const int *cols, unsigned char *scratch) {
    if (n < 1 || cols == NULL || scratch == NULL) return 0;
    const size_t nn = (size_t)n;
    unsigned char *used_col = scratch;
    unsigned char *used_diag = scratch + nn;
    unsigned char *used_anti = used_diag + 2 * nn - 1;
    memset(scratch, 0, nqueens_verify_scratch(n));
    for (size_t y = 0; y < nn; y++) {
        const int x = cols[y];
        if (x < 0 || x >= n) return 0;
        const size_t c = (size_t)x;
        const size_t d = y + nn - 1 - c, a = y + c;
        if (used_col[c] | used_diag[d] | used_anti[a]) return 0;
        used_col[c] = used_diag[d] = used_anti[a] = 1;
    }
    return 1;
}
