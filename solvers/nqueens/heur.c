/* nqueens/heur.c -- heuristic backtracking for N-Queens (method=mrv) and the
 * method=auto thresholds.
 *
 * Representation
 * --------------
 * Occupied lines are multi-word bitsets (nqueens/bits.h): colb (n bits),
 * diagb and antib (2n-1 bits, d = c - r + n - 1, a = c + r).  Square (r, c)
 * is *free* when its row is empty and none of its three lines is occupied.
 * Four counter arrays follow the free squares:
 *
 *     rowcnt[r]  free squares of empty row r          -> most constrained row
 *     fcol[c], fdiag[d], fanti[a]
 *                free squares on each line            -> least constraining
 *
 * A queen at (r, c) takes from the other empty rows exactly the free squares
 * on its three lines, fcol[c] + fdiag[d] + fanti[a] - 3 of them (the square
 * itself is on all three), so that is the cost of a value and needs no scan.
 *
 * Placing (r0, c0) updates the counters in O(n): the free squares of row r0
 * leave (its row is no longer empty), and in every other empty row r the at
 * most three squares (r, c0), (r, c0 +- (r - r0)) leave if they were free.
 * Removing the queen runs the same walk with +1 after clearing its lines,
 * which meets the very same squares because the state is the one before the
 * placement.  So no trail is kept.
 *
 * The search
 * ----------
 * Variables are *lines*: each empty row and each unoccupied column needs one
 * queen, and a column with one free square left forces it just as a row
 * does.  A frame takes the line with the fewest free squares (rowcnt for a
 * row, fcol for a column); a line with none ends the branch at once.  Its
 * squares are tried least constraining first: key = cost << 40 | hash << 17
 * | position, where cost counts the free squares the queen takes from the
 * other lines of the same kind.  Instead of sorting a line's values into
 * memory, the next value is the smallest key above the last one tried,
 * recomputed from the counters (restored exactly on backtrack): an O(free
 * squares) scan for a row, O(n) for a column.  Each node costs O(n), a board
 * without backtracking O(n^2).  The stack holds (line, last key, row placed).
 *
 * Polling: a node costs O(n), so ctl is polled by work, not by nodes
 * (nqueens/poll.h): every place, unplace and line choice counts NODE_UNITS(n),
 * the set-up's placements of fixed queens and the unwinding of a restart
 * too.  At n = 65,536 a node is a few ms; polling every 16,384 nodes, as
 * search_should_stop() does, overshot a 1 s deadline by 50 s.
 *
 * Ties (between lines and between values) are broken by a hash of a run
 * number `salt`, and a run that backtracks more than its cutoff (64 times the
 * Luby sequence) is abandoned and restarted with the next salt: the classic
 * cure for heavy-tailed backtracking.  Everything is deterministic.
 *
 * What was tried, for n = 4..1000 (bench/bench_nqueens_board.c, 2 s deadline):
 *   rows only, ties by index, no restarts      45 n timed out (from n = 74)
 *   + hashed ties, cutoff doubling per restart  many n near 1000 at 0.3-2 s
 *   + Luby cutoffs                              slowest n = 958, 0.8 s
 *   + columns as variables (this file)          slowest n = 920, 0.05 s;
 *                                               all 997 boards in 6 s
 *
 * Thread-safety: reentrant; all state lives in the caller's scratch. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "solvers/nqueens/bits.h"
#include "solvers/nqueens/heur.h"
#include "solvers/nqueens/poll.h"

/* Backtracks allowed per run: RESTART_FIRST times the Luby sequence
 * 1 1 2 1 1 2 4 1 1 2 ..., so most runs are short (a fresh tie order nearly
 * always finds a board quickly) while the cutoffs are unbounded, so some run
 * eventually searches its whole tree and "no completion" is exact.  Doubling
 * the cutoff at each restart was tried first: at n ~ 1000 it spent seconds
 * in long runs that a new tie order would have avoided. */
#define RESTART_FIRST 64

/* Work units (nqueens/poll.h) of one step of the search: a placement or a
 * removal walks every row (three squares each) and a row's free squares, a
 * line choice all 2n lines, a value choice a line: about 8n squares and
 * counters in all. */
#define NODE_UNITS(n) (8 * (uint64_t)(n))

/* The i-th term (i >= 1) of the Luby sequence. */
static uint64_t luby(uint64_t i) {
    for (;;) {
        uint64_t k = 1;
        while (((uint64_t)1 << k) - 1 < i)
            k++;
        if (i == ((uint64_t)1 << k) - 1) return (uint64_t)1 << (k - 1);
        i -= ((uint64_t)1 << (k - 1)) - 1;
    }
}

typedef struct mrv_s {
    int n;
    int *cols; /* -1 = empty row */
    uint64_t *colb, *diagb, *antib, *rowfree;
    int64_t *skey;
    int32_t *sline, *srow, *rowcnt, *fcol, *fdiag, *fanti;
} mrv_t;

/* Layout of the scratch: the first part is nqueens_board_scratch(n), so the
 * check can run in it before the counters exist. */
static size_t layout(int n, mrv_t *m, void *scratch) {
    const size_t nn = (size_t)n, lines = 2 * nn;
    const size_t wl = NQB_LINE_WORDS(nn), wd = NQB_LINE_WORDS(lines), wr = NQB_WORDS(nn);
    uint64_t *w = scratch;
    const size_t words = wl + 2 * wd + wr + nn; /* line sets, rowfree, skey */
    const size_t ints = 2 * nn /* sline, srow */ + nn /* rowcnt */ + nn /* fcol */ + 2 * lines;
    if (m != NULL) {
        m->n = n;
        m->colb = w;
        m->diagb = w + wl;
        m->antib = m->diagb + wd;
        m->rowfree = m->antib + wd;
        m->skey = (int64_t *)(m->rowfree + wr);
        int32_t *p = (int32_t *)(m->skey + nn);
        m->sline = p;
        m->srow = p + nn;
        m->rowcnt = p + 2 * nn;
        m->fcol = p + 3 * nn;
        m->fdiag = p + 4 * nn;
        m->fanti = m->fdiag + lines;
    }
    return words * sizeof(uint64_t) + ints * sizeof(int32_t);
}

size_t nqueens_mrv_scratch(int n) {
    if (n < 1 || n > NQUEENS_MRV_MAX_N) return 0;
    return layout(n, NULL, NULL);
}

static inline int sq_free(const mrv_t *m, int r, int c) {
    return !(nqb_get(m->colb, (size_t)c) | nqb_get(m->diagb, (size_t)(c - r + m->n - 1)) |
             nqb_get(m->antib, (size_t)(c + r)));
}

static inline void sq_count(mrv_t *m, int r, int c, int delta) {
    m->fcol[c] += delta;
    m->fdiag[c - r + m->n - 1] += delta;
    m->fanti[c + r] += delta;
}

/* Adds delta to the counters of every square a queen at (r0, c0) takes away
 * from the free squares (see the file comment).  Row r0 must be empty in
 * cols[] and the queen's lines clear. */
static void free_update(mrv_t *m, int r0, int c0, int delta) {
    const int n = m->n;
    const size_t words = NQB_WORDS(n);
    nqb_row_free(n, r0, m->colb, m->diagb, m->antib, m->rowfree);
    for (size_t i = 0; i < words; i++)
        for (uint64_t w = m->rowfree[i]; w != 0; w &= w - 1)
            sq_count(m, r0, (int)(64 * i) + __builtin_ctzll(w), delta);
    for (int r = 0; r < n; r++) {
        if (r == r0 || m->cols[r] >= 0) continue;
        const int dr = r - r0;
        const int cs[3] = {c0, c0 + dr, c0 - dr};
        for (int k = 0; k < 3; k++) {
            const int c = cs[k];
            if (c < 0 || c >= n || !sq_free(m, r, c)) continue;
            m->rowcnt[r] += delta;
            sq_count(m, r, c, delta);
        }
    }
}

static void lines_flip(mrv_t *m, int r, int c, int on) {
    const size_t d = (size_t)(c - r + m->n - 1), a = (size_t)(c + r);
    if (on) {
        nqb_set(m->colb, (size_t)c);
        nqb_set(m->diagb, d);
        nqb_set(m->antib, a);
    } else {
        nqb_clear(m->colb, (size_t)c);
        nqb_clear(m->diagb, d);
        nqb_clear(m->antib, a);
    }
}

static void place(mrv_t *m, int r, int c) {
    free_update(m, r, c, -1);
    lines_flip(m, r, c, 1);
    m->cols[r] = c;
}

static void unplace(mrv_t *m, int r) {
    const int c = m->cols[r];
    lines_flip(m, r, c, 0);
    m->cols[r] = -1;
    free_update(m, r, c, +1);
}

/* A 32-bit hash of (salt, x): the deterministic "random" order of ties. */
static inline uint32_t tie_hash(uint32_t salt, uint32_t x) {
    uint64_t z = ((uint64_t)salt << 32 | x) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)(z ^ (z >> 31));
}

/* The most constrained line: the empty row or unoccupied column with the
 * fewest free squares (ties by tie_hash), as r for row r and n + c for
 * column c; -1 if every row is placed.  *least gets its count, and stops the
 * scan at 0 (a dead end). */
static int choose_line(const mrv_t *m, uint32_t salt, int *least) {
    const int n = m->n;
    int best = -1, bc = INT_MAX;
    uint32_t bh = 0;
    for (int x = 0; x < 2 * n; x++) {
        int k;
        if (x < n) {
            if (m->cols[x] >= 0) continue;
            k = m->rowcnt[x];
        } else {
            if (nqb_get(m->colb, (size_t)(x - n))) continue;
            k = m->fcol[x - n];
        }
        if (k > bc) continue;
        const uint32_t h = tie_hash(salt, (uint32_t)x);
        if (k < bc || h < bh) {
            bc = k;
            bh = h;
            best = x;
            if (bc == 0) break;
        }
    }
    *least = bc;
    return best;
}

/* The next square of line x (see choose_line) to try: the one with the
 * smallest key above `after`, or -1; *key gets the key, *row the square's row.
 * key = cost << 40 | hash23 << 17 | position in the line: unique (n <= 2^16),
 * ordered by cost, ties in hash order.  The cost of a square is the number of
 * free squares it takes from the other lines of the same kind: for a row
 * variable the squares of other rows (fcol + fdiag + fanti - 3), for a column
 * variable those of other columns (rowcnt + fdiag + fanti - 3). */
static int next_value(mrv_t *m, int x, uint32_t salt, int64_t after, int64_t *key, int *row) {
    const int n = m->n;
    int64_t best = INT64_MAX;
    int bc = -1, br = -1;
    const uint32_t hs = salt ^ 0x5bd1e995u;
    if (x < n) {
        const int r = x;
        const size_t words = NQB_WORDS(n);
        nqb_row_free(n, r, m->colb, m->diagb, m->antib, m->rowfree);
        for (size_t i = 0; i < words; i++)
            for (uint64_t w = m->rowfree[i]; w != 0; w &= w - 1) {
                const int c = (int)(64 * i) + __builtin_ctzll(w);
                const int64_t cost = m->fcol[c] + m->fdiag[c - r + n - 1] + m->fanti[c + r] - 3;
                const int64_t h = tie_hash(hs, (uint32_t)r * 131071u + (uint32_t)c) & 0x7fffff;
                const int64_t k = cost << 40 | h << 17 | c;
                if (k > after && k < best) {
                    best = k;
                    bc = c;
                    br = r;
                }
            }
    } else {
        const int c = x - n;
        for (int r = 0; r < n; r++) {
            if (m->cols[r] >= 0 || !sq_free(m, r, c)) continue;
            const int64_t cost = m->rowcnt[r] + m->fdiag[c - r + n - 1] + m->fanti[c + r] - 3;
            const int64_t h = tie_hash(hs, (uint32_t)r * 131071u + (uint32_t)c) & 0x7fffff;
            const int64_t k = cost << 40 | h << 17 | r;
            if (k > after && k < best) {
                best = k;
                bc = c;
                br = r;
            }
        }
    }
    *key = best;
    *row = br;
    return bc;
}

int nqueens_mrv(int n, const int *fixed, const search_ctl_t *ctl, int *cols, void *scratch,
                search_stats_t *stats, nqueens_pair_t *bad) {
    mrv_t m;
    search_stats_t local = {0};
    int rc;
    if (n < 1 || n > NQUEENS_MRV_MAX_N || cols == NULL || scratch == NULL) return SEARCH_EINVAL;
    if ((rc = nqueens_board_check(n, fixed, scratch, bad)) != 0) return rc;
    if (stats == NULL) stats = &local;
    if ((rc = search_check_now(ctl, stats->nodes)) != 0) return rc;

    memset(scratch, 0, layout(n, &m, scratch));
    m.cols = cols;
    for (int r = 0; r < n; r++) {
        cols[r] = -1;
        m.rowcnt[r] = n;
        m.fcol[r] = n;
    }
    for (int d = 0; d < 2 * n - 1; d++)
        m.fdiag[d] = m.fanti[d] = n - (d > n - 1 ? d - (n - 1) : n - 1 - d);
    uint64_t nodes = stats->nodes, backs = 0, cutoff = RESTART_FIRST * luby(1), run_backs = 0;
    uint32_t salt = 0;
    int top = 0, least, deep = 0, remaining = n;
    nqueens__poll_t pl;
    nqueens__poll_init(&pl, nodes);
    if (fixed != NULL)
        for (int r = 0; r < n; r++)
            if (fixed[r] >= 0) {
                place(&m, r, fixed[r]);
                remaining--;
                if ((rc = nqueens__poll(&pl, ctl, NODE_UNITS(n), nodes)) != 0) goto out;
            }
    deep = n - remaining;
    rc = 1;
    if (remaining == 0) {
        rc = 0;
        goto out;
    }
restart:
    m.sline[0] = choose_line(&m, salt, &least);
    if (least == 0) goto out;
    m.skey[0] = -1;
    m.srow[0] = -1;
    top = 1;
    while (top > 0) {
        const int f = top - 1;
        /* each turn does at most an unplace, a value choice, a place and a
         * line choice */
        const int stop = nqueens__poll(&pl, ctl, NODE_UNITS(n), nodes);
        if (stop != 0) {
            rc = stop;
            break;
        }
        if (m.srow[f] >= 0) { /* back from a dead end below: try the next value */
            unplace(&m, m.srow[f]);
            m.srow[f] = -1;
            remaining++;
            backs++;
            if (++run_backs > cutoff) { /* heavy tail: start over, other ties */
                while (--top >= 0)
                    if (m.srow[top] >= 0) {
                        unplace(&m, m.srow[top]);
                        remaining++;
                        const int halt = nqueens__poll(&pl, ctl, NODE_UNITS(n), nodes);
                        if (halt != 0) {
                            rc = halt;
                            goto out;
                        }
                    }
                run_backs = 0;
                salt++;
                cutoff = RESTART_FIRST * luby(salt + 1);
                goto restart;
            }
        }
        int64_t key;
        int r;
        const int c = next_value(&m, m.sline[f], salt, m.skey[f], &key, &r);
        if (c < 0) {
            top--;
            continue;
        }
        m.skey[f] = key;
        m.srow[f] = r;
        place(&m, r, c);
        remaining--;
        nodes++;
        if (n - remaining > deep) deep = n - remaining;
        if (remaining == 0) {
            rc = 0;
            break;
        }
        const int next = choose_line(&m, salt, &least);
        if (least == 0) continue; /* a line without squares: undo at once */
        m.sline[top] = next;
        m.srow[top] = -1;
        m.skey[top] = -1;
        top++;
    }
out:
    stats->nodes = nodes;
    stats->backtracks += backs;
    if ((uint32_t)deep > stats->max_depth) stats->max_depth = (uint32_t)deep;
    return rc;
}

/* === method=auto === */

nqueens_method_t nqueens_auto_method(int n, int has_fixed) {
    if (has_fixed)
        return n <= NQUEENS_AUTO_MRV_MAX ? NQUEENS_METHOD_MRV : NQUEENS_METHOD_MINCONFLICTS;
    return n <= NQUEENS_AUTO_BACKTRACK_MAX ? NQUEENS_METHOD_BACKTRACK : NQUEENS_METHOD_MINCONFLICTS;
}
