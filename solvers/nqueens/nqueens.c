/* nqueens.c -- N-Queens counting: border placements, symmetry, the split
 * into subproblems; the first solution; verification.
 *
 * Border placements
 * -----------------
 * A border placement is where a solution's queens stand on the four border
 * lines, coded (a, b, c, d):
 *
 *         col 0          col n-1
 *     row 0   . . a . . . .        a   column of the row-0 queen
 *             . . . . . . d        b   column of the row-(n-1) queen
 *             c . . . . . .        c   row of the column-0 queen
 *             . . . . . . .        d   row of the column-(n-1) queen
 *     row n-1 . . . . b . .
 *
 * A corner queen stands on two lines (a = 0 iff c = 0, and so on for each
 * corner), so a placement has three or four queens, and at most one corner
 * queen: two corners share a line or a diagonal.  A placement is kept when
 * its queens are consistent and attack no one; its board has those queens
 * fixed and every other row free, and a completion of that board is exactly
 * a solution with this border placement (no other queen can reach a border
 * line: its row or column is taken).
 *
 * Symmetry
 * --------
 * The eight symmetries of the square map border lines onto border lines,
 * hence placements onto placements and the completions of one onto those of
 * the other: every member of a class has as many completions.  So the count
 * is the sum over classes of (class size) x (completions of one member).  The
 * size is the number of distinct images, 8, 4 or 2 for n >= 2: no reflection
 * fixes a placement (a left-right mirror swaps the column-0 and column-(n-1)
 * queens, which would then share a row; a diagonal mirror maps (0, a) to
 * (a, 0), on one anti-diagonal with it unless a = 0, and then the queens
 * (n-1, b), (b, n-1) likewise force b = n-1, a second corner), so only the
 * 180- and 90-degree rotations can.  n = 1 is the one class of size 1.
 *
 * A class is emitted when the enumeration (a, b, c, d ascending) meets its
 * member with the smallest code.  The member *searched* is another choice:
 * all have the same count, not the same cost, since the search fills rows
 * top-down.  We take the member whose bottom queen is nearest a corner (as
 * NQueensFAF's solver does), and among those the one with the side queens
 * lowest: 37% fewer nodes than the smallest code at n = 16, and 6% more
 * than the cheapest member of each class (docs/nqueens-tuning.md).
 *
 * Without symmetry every placement is emitted with weight 1: the same
 * engine, a different path, and a check of the symmetry argument.
 *
 * Pre-placement
 * -------------
 * nqueens_split() goes on to fill the first `preplace` free rows, every
 * consistent way, each a subproblem of its own: the classes' sizes vary
 * widely, their pieces much less, and a cluster can take any piece.
 *
 * Thread-safety: no globals are written; every function is reentrant.  A
 * search reads its search_ctl_t and writes only its own search_stats_t. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "solvers/nqueens/board.h"
#include "solvers/nqueens/count.h"
#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/walk.h"

/* === Border placements === */

typedef struct border_s {
    int a, b, c, d; /* see the file comment */
} border_t;

/* The queens of a placement, corners once: returns how many (3 or 4). */
static int border_queens(int n, border_t t, int *rs, int *cs) {
    const int r[4] = {0, n - 1, t.c, t.d}, c[4] = {t.a, t.b, 0, n - 1};
    int k = 0;
    for (int i = 0; i < 4; i++) {
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= rs[j] == r[i] && cs[j] == c[i];
        if (!seen) {
            rs[k] = r[i];
            cs[k++] = c[i];
        }
    }
    return k;
}

/* 1 if t is a placement: every index on the board, corners consistent, no
 * two queens attacking each other. */
static int border_ok(int n, border_t t) {
    const int e = n - 1;
    int rs[4], cs[4];
    if ((t.a == 0) != (t.c == 0) || (t.a == e) != (t.d == 0) || (t.b == 0) != (t.c == e) ||
        (t.b == e) != (t.d == e))
        return 0;
    const int k = border_queens(n, t, rs, cs);
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            if (rs[i] == rs[j] || cs[i] == cs[j] || rs[i] - cs[i] == rs[j] - cs[j] ||
                rs[i] + cs[i] == rs[j] + cs[j])
                return 0;
    return 1;
}

/* The image of t under symmetry g (0 = identity, 1-3 rotations by 90, 180,
 * 270 degrees, 4-7 the mirrors). */
static border_t border_map(int n, border_t t, int g) {
    const int e = n - 1;
    int rs[4], cs[4];
    border_t o = {0, 0, 0, 0};
    const int k = border_queens(n, t, rs, cs);
    for (int i = 0; i < k; i++) {
        const int r = rs[i], c = cs[i];
        int r2, c2;
        switch (g) {
        case 0: r2 = r, c2 = c; break;
        case 1: r2 = c, c2 = e - r; break;
        case 2: r2 = e - r, c2 = e - c; break;
        case 3: r2 = e - c, c2 = r; break;
        case 4: r2 = r, c2 = e - c; break;
        case 5: r2 = e - r, c2 = c; break;
        case 6: r2 = c, c2 = r; break;
        default: r2 = e - c, c2 = e - r; break;
        }
        if (r2 == 0) o.a = c2;
        if (r2 == e) o.b = c2;
        if (c2 == 0) o.c = r2;
        if (c2 == e) o.d = r2;
    }
    return o;
}

static int border_code(border_t t) { return ((t.a * 32 + t.b) * 32 + t.c) * 32 + t.d; }

/* For a placement t: 0 if some image has a smaller code (its class is
 * emitted elsewhere); else the class size, with *pick the member to search
 * (see "Symmetry" above). */
static int border_class(int n, border_t t, border_t *pick) {
    int codes[8], distinct = 0, best = -1;
    const int own = border_code(t);
    for (int g = 0; g < 8; g++) {
        const border_t u = border_map(n, t, g);
        const int code = border_code(u);
        if (code < own) return 0;
        int seen = 0;
        for (int i = 0; i < distinct; i++)
            seen |= codes[i] == code;
        if (!seen) codes[distinct++] = code;
        /* bottom queen nearest a corner; then the side queens low; then
         * the bottom queen on the right */
        const int near = u.b < n - 1 - u.b ? u.b : n - 1 - u.b;
        const int score = (near * 2 * n + (2 * n - u.c - u.d)) * 2 + (u.b < n - 1 - u.b);
        if (best < 0 || score < best) {
            best = score;
            *pick = u;
        }
    }
    return distinct;
}

/* The board of placement t: its queens fixed, every other row free. */
static void border_board(int n, border_t t, int weight, nqueens_sub_t *out) {
    memset(out, 0, sizeof *out);
    out->n = (uint8_t)n;
    out->weight = (uint8_t)weight;
    memset(out->cols, NQUEENS_FREE, (size_t)n);
    out->cols[0] = (uint8_t)t.a;
    out->cols[n - 1] = (uint8_t)t.b;
    out->cols[t.c] = 0;
    out->cols[t.d] = (uint8_t)(n - 1);
}

/* Iterator over the boards of every placement (symmetry = 0) or class. */
typedef struct borders_s {
    int n, symmetry;
    int code; /* the next placement to consider, as a + n (b + n (c + n d)) */
} borders_t;

static void borders_init(borders_t *it, int n, int symmetry) {
    it->n = n;
    it->symmetry = symmetry;
    it->code = 0;
}

static int borders_next(borders_t *it, nqueens_sub_t *out) {
    const int n = it->n, end = n * n * n * n;
    while (it->code < end) {
        const int k = it->code++;
        const border_t t = {k / (n * n * n), k / (n * n) % n, k / n % n, k % n};
        if (!border_ok(n, t)) continue;
        if (!it->symmetry) {
            border_board(n, t, 1, out);
            return 1;
        }
        border_t pick = t;
        const int size = border_class(n, t, &pick);
        if (size != 0) {
            border_board(n, pick, size, out);
            return 1;
        }
    }
    return 0;
}

/* === Pre-placement === */

/* Iterator over the ways to fill the first k free rows of a board (the
 * board itself when k = 0), each on a square no other queen attacks and on
 * allowed[row] when allowed != NULL. */
typedef struct preplace_s {
    nqueens_sub_t base;
    int k;                              /* rows to fill */
    int state;                          /* 0 not started, 1 walking, 2 done */
    int rows[NQUEENS_COUNT_MAX_N];      /* the free rows, top-down */
    uint32_t mask[NQUEENS_COUNT_MAX_N]; /* per free row (index as rows[]) */
    uint8_t path[NQUEENS_COUNT_MAX_N];  /* column chosen in rows[i] */
    nqw_t w;
} preplace_t;

static void preplace_init(preplace_t *p, const nqueens_sub_t *base, int k,
                          const uint32_t *allowed) {
    uint32_t rowmask[NQUEENS_COUNT_MAX_N];
    const int m = nqueens__free_masks(base, allowed, rowmask);
    p->base = *base;
    p->k = k < 0 ? 0 : k > m ? m : k;
    p->state = 0;
    for (int y = 0, i = 0; y < base->n; y++)
        if (base->cols[y] == NQUEENS_FREE) {
            p->rows[i] = y;
            p->mask[i++] = rowmask[y];
        }
}

static int preplace_next(preplace_t *p, nqueens_sub_t *out) {
    nqw_t *w = &p->w;
    if (p->state == 2) return 0;
    if (p->k == 0) {
        p->state = 2;
        *out = p->base;
        return 1;
    }
    if (p->state == 0) {
        nqw_init(w, p->mask[0]);
        p->state = 1;
    }
    for (;;) {
        if (w->avail == 0) {
            if (!nqw_up(w)) break;
            continue;
        }
        const int i = w->depth;
        const uint64_t bit = nqw_take(w);
        p->path[i] = (uint8_t)__builtin_ctzll(bit);
        if (i + 1 == p->k) {
            *out = p->base;
            for (int j = 0; j < p->k; j++)
                out->cols[p->rows[j]] = p->path[j];
            return 1;
        }
        const nqw_row_t below = nqw_below(w, bit, (unsigned)(p->rows[i + 1] - p->rows[i]));
        const uint64_t avail = p->mask[i + 1] & ~nqw_attacked(below);
        if (avail != 0) nqw_down(w, below, avail);
    }
    p->state = 2;
    return 0;
}

/* The subproblems of nqueens_split(): each border board, pre-placed. */
typedef struct subs_s {
    borders_t borders;
    preplace_t pre;
    int preplace;
    int open; /* pre holds a border board not yet exhausted */
} subs_t;

static void subs_init(subs_t *s, int n, int preplace, int symmetry) {
    borders_init(&s->borders, n, symmetry);
    s->preplace = preplace;
    s->open = 0;
}

static int subs_next(void *ctx, nqueens_sub_t *out) {
    subs_t *s = ctx;
    for (;;) {
        if (s->open && preplace_next(&s->pre, out)) return 1;
        nqueens_sub_t board;
        if (!borders_next(&s->borders, &board)) return 0;
        preplace_init(&s->pre, &board, s->preplace, NULL);
        s->open = 1;
    }
}

/* === Splitting and counting === */

int nqueens_split(int n, int preplace, int symmetry, nqueens_sub_t *out, size_t cap,
                  size_t *count) {
    subs_t s;
    nqueens_sub_t sub;
    size_t total = 0;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || count == NULL || (out == NULL && cap != 0)) return -1;
    subs_init(&s, n, preplace, symmetry);
    while (subs_next(&s, &sub)) {
        if (total < cap) out[total] = sub;
        total++;
    }
    *count = total;
    return total > cap ? -2 : 0;
}

/* === Sizes and slices of the split === */

/* nqueens_split(n, preplace, symmetry)'s number of subproblems, n = 0..27
 * (0 for n = 0), generated with nqueens_split() and checked against it by
 * tests/test_nqueens.c. */
static const uint32_t split_sizes[2][2][NQUEENS_COUNT_MAX_N + 1] = {
    {/* preplace 0, without symmetry */
     {0,     1,     0,      0,      10,     34,     108,    252,   582,   1134,
      2104,  3544,  5730,   8730,   12900,  18324,  25438,  34342, 45552, 59184,
      75834, 95634, 119260, 146860, 179190, 216414, 259368, 308232},
     /* preplace 0, with symmetry */
     {0,    1,    0,    0,    2,    5,    16,   34,    78,    147,   272,   452,   730,   1105,
      1632, 2310, 3206, 4319, 5728, 7432, 9522, 11997, 14960, 18410, 22462, 27115, 32496, 38604}},
    {/* preplace 1, without symmetry */
     {0,      1,       0,       0,       2,       18,      78,      330,    1114,   3020,
      7242,   15182,   29494,   52760,   89666,   144362,  224142,  335108, 487738, 690470,
      957542, 1300112, 1736754, 2281730, 2958526, 3784892, 4789802, 5994878},
     /* preplace 1, with symmetry */
     {0,      1,      0,      0,      1,      3,      9,      38,    133,   357,
      883,    1845,   3635,   6489,   11109,  17861,  27849,  41597, 60703, 85877,
      119303, 161905, 216545, 284389, 369069, 472021, 597739, 747957}}};

int nqueens_split_size(int n, int preplace, int symmetry, size_t *count) {
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || preplace < 0 || preplace > 1 || count == NULL)
        return -1;
    *count = split_sizes[preplace][symmetry != 0][n];
    return 0;
}

/* A slice: the virtual indices v = first, first + step, ... below end,
 * where v = code * n^preplace + piece names the border placement `code`
 * (a + n (b + n (c + n d)) read the other way round: a n^3 + b n^2 + c n + d,
 * as borders_next() counts) and, with preplace 1, the column `piece` of the
 * first free row of its board.  Most v name nothing (an inconsistent
 * placement, a class emitted at another member, an attacked square). */
typedef struct slice_s {
    int n, preplace, symmetry;
    uint64_t next, step, end;
    size_t found; /* subproblems yielded */
} slice_t;

/* Indices one call of slice_next() looks at before it gives the engine a
 * chance to poll (nqueens__next_fn's -1). */
#define SLICE_LOOK 256

/* The subproblem of virtual index v into *out: 1, or 0 if v names none. */
static int slice_board(const slice_t *s, uint64_t v, nqueens_sub_t *out) {
    const int n = s->n;
    const uint64_t per = s->preplace ? (uint64_t)n : 1, code = v / per;
    const border_t t = {(int)(code / ((uint64_t)n * n * n)), (int)(code / ((uint64_t)n * n) % n),
                        (int)(code / (uint64_t)n % n), (int)(code % (uint64_t)n)};
    if (!border_ok(n, t)) return 0;
    border_t pick = t;
    int size = 1;
    if (s->symmetry && (size = border_class(n, t, &pick)) == 0) return 0;
    border_board(n, pick, size, out);
    if (s->preplace == 0) return 1;
    /* the first free row takes column `piece` if no border queen attacks it
     * (nqueens_split()'s pre-placement; a board without a free row has one
     * piece, its own, as preplace_init() clamps) */
    uint32_t mask[NQUEENS_COUNT_MAX_N];
    const int piece = (int)(v % per);
    if (nqueens__free_masks(out, NULL, mask) == 0) return piece == 0;
    for (int y = 0; y < n; y++)
        if (out->cols[y] == NQUEENS_FREE) {
            if (!(mask[y] >> piece & 1)) return 0;
            out->cols[y] = (uint8_t)piece;
            return 1;
        }
    return 0;
}

static int slice_next(void *ctx, nqueens_sub_t *out) {
    slice_t *s = ctx;
    for (int k = 0; k < SLICE_LOOK; k++) {
        if (s->next >= s->end) return 0;
        const uint64_t v = s->next;
        s->next += s->step;
        if (slice_board(s, v, out)) {
            s->found++;
            return 1;
        }
    }
    return -1;
}

int nqueens_count_slice(int n, int preplace, int symmetry, uint64_t slice, uint64_t nslices,
                        const search_ctl_t *ctl, uint64_t *count, size_t *nsubs,
                        search_stats_t *stats) {
    search_stats_t local = {0};
    uint64_t sum = 0;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || preplace < 0 || preplace > 1 || nslices == 0 ||
        slice >= nslices || count == NULL || nsubs == NULL)
        return SEARCH_EINVAL;
    const uint64_t nn = (uint64_t)n;
    slice_t s = {
        n, preplace, symmetry != 0, slice, nslices, nn * nn * nn * nn * (preplace ? nn : 1), 0};
    const int rc =
        nqueens__count_boards(slice_next, &s, NULL, ctl, &sum, stats != NULL ? stats : &local);
    if (rc == 0) {
        *count += sum;
        *nsubs += s.found;
    }
    return rc;
}

/* A source over an array of boards. */
typedef struct array_src_s {
    const nqueens_sub_t *subs;
    size_t k, i;
} array_src_t;

static int array_next(void *ctx, nqueens_sub_t *out) {
    array_src_t *a = ctx;
    if (a->i >= a->k) return 0;
    *out = a->subs[a->i++];
    return 1;
}

int nqueens_count_subs(const nqueens_sub_t *subs, size_t k, const search_ctl_t *ctl,
                       uint64_t *count, search_stats_t *stats) {
    search_stats_t local = {0};
    if (count == NULL || (subs == NULL && k != 0)) return SEARCH_EINVAL;
    for (size_t i = 0; i < k; i++)
        if (nqueens__sub_check(&subs[i]) != 0) return SEARCH_EINVAL;
    array_src_t src = {subs, k, 0};
    return nqueens__count_boards(array_next, &src, NULL, ctl, count,
                                 stats != NULL ? stats : &local);
}

int nqueens_count_sub(const nqueens_sub_t *sub, const search_ctl_t *ctl, uint64_t *count,
                      search_stats_t *stats) {
    if (sub == NULL) return SEARCH_EINVAL;
    return nqueens_count_subs(sub, 1, ctl, count, stats);
}

int nqueens_count(int n, int symmetry, const search_ctl_t *ctl, uint64_t *count,
                  search_stats_t *stats) {
    search_stats_t local = {0};
    subs_t s;
    uint64_t sum = 0;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || count == NULL) return SEARCH_EINVAL;
    subs_init(&s, n, 0, symmetry);
    const int rc =
        nqueens__count_boards(subs_next, &s, NULL, ctl, &sum, stats != NULL ? stats : &local);
    if (rc == 0) *count = sum;
    return rc;
}

/* Masked counting: the prefix is a board's fixed rows and allowed[] its
 * masks (the engine shares one board among its lanes by itself). */
int nqueens_count_masked(int n, int depth, const uint8_t *cols, const uint32_t *allowed,
                         const search_ctl_t *ctl, uint64_t *count, search_stats_t *stats) {
    search_stats_t local = {0};
    nqueens_sub_t base;
    uint64_t sum = 0;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || depth < 0 || depth > n || allowed == NULL ||
        count == NULL || (depth > 0 && cols == NULL))
        return SEARCH_EINVAL;
    memset(&base, 0, sizeof base);
    base.n = (uint8_t)n;
    base.weight = 1;
    memset(base.cols, NQUEENS_FREE, (size_t)n);
    uint32_t c = 0, l = 0, r = 0;
    for (int y = 0; y < depth; y++) {
        if (cols[y] >= n) return SEARCH_EINVAL;
        const uint32_t bit = (uint32_t)1 << cols[y];
        if ((bit & allowed[y] & ~(c | l | r)) == 0) return SEARCH_EINVAL;
        c |= bit;
        l = (l | bit) << 1;
        r = (r | bit) >> 1;
        base.cols[y] = cols[y];
    }
    array_src_t src = {&base, 1, 0};
    const int rc =
        nqueens__count_boards(array_next, &src, allowed, ctl, &sum, stats != NULL ? stats : &local);
    if (rc == 0) *count = sum;
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
