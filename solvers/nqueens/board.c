/* nqueens/board.c -- partly placed N-Queens boards: check, analyse, complete,
 * count completions, enumerate solutions page by page.
 *
 * Representation
 * --------------
 * Two views of the placed queens, chosen by what a function needs:
 *
 *   line bitsets   (any n; check and analysis) columns, diagonals and
 *                  anti-diagonals occupied by placed queens, as multi-word
 *                  bitsets laid out by nqueens/bits.h, so a row's candidates
 *                  are n/64 word operations.
 *   row masks      (n <= 64; completion, counting, enumeration) allowed[y],
 *                  the squares of row y a completion may use: a placed row is
 *                  the one bit of its queen, an empty row loses every square a
 *                  placed queen attacks.  A row-by-row bitboard search over
 *                  these masks (cols/ld/rd words as in nqueens.c) then sees the
 *                  placed queens of *later* rows too, which its own attack
 *                  words could not.
 *
 * Counting hands the masks to nqueens_count_masked(), the fast counter of
 * nqueens.c without symmetry; a symmetry class would have to be proved for
 * each placement, and PLAIN is always right.
 *
 * Enumeration skips by counting: the DFS that lists solutions in
 * lexicographic order asks, before it descends into a child with at least
 * four empty rows below, how many solutions that subtree holds, and steps
 * over the whole subtree while the offset still exceeds it.  The cost of a
 * page is then about the cost of counting the solutions before it, and the
 * counter is several times faster per solution than listing (closed-form last
 * rows, no per-solution work).  Listing-and-dropping was rejected: page k
 * would cost k pages.
 *
 * Thread-safety: no globals are written; every function is reentrant. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "solvers/nqueens/bits.h"
#include "solvers/nqueens/board.h"
#include "solvers/nqueens/poll.h"
#include "solvers/nqueens/walk.h"

/* OEIS A000170, n = 0..27. */
static const uint64_t a000170[NQUEENS_COUNT_MAX_N + 1] = {
    1ull,
    1ull,
    0ull,
    0ull,
    2ull,
    10ull,
    4ull,
    40ull,
    92ull,
    352ull,
    724ull,
    2680ull,
    14200ull,
    73712ull,
    365596ull,
    2279184ull,
    14772512ull,
    95815104ull,
    666090624ull,
    4968057848ull,
    39029188884ull,
    314666222712ull,
    2691008701644ull,
    24233937684440ull,
    227514171973736ull,
    2207893435808352ull,
    22317699616364044ull,
    234907967154122528ull,
};

/* === Validation === */

size_t nqueens_board_scratch(int n) {
    if (n < 1) return 0;
    return sizeof(uint64_t) * (NQB_LINE_WORDS(n) + 2 * NQB_LINE_WORDS(2 * (size_t)n));
}

static void set_bad(nqueens_pair_t *bad, int r1, int r2) {
    if (bad != NULL) {
        bad->r1 = r1;
        bad->r2 = r2;
    }
}

static int attacks(int r1, int c1, int r2, int c2) {
    return c1 == c2 || r1 - c1 == r2 - c2 || r1 + c1 == r2 + c2;
}

/* The first row whose column is out of range, or -1. */
static int range_error(int n, const int *fixed) {
    if (fixed == NULL) return -1;
    for (int r = 0; r < n; r++)
        if (fixed[r] < -1 || fixed[r] >= n) return r;
    return -1;
}

/* Splits scratch into the three zeroed line sets. */
static void lines_init(int n, void *scratch, uint64_t **colb, uint64_t **diagb, uint64_t **antib) {
    uint64_t *w = scratch;
    memset(scratch, 0, nqueens_board_scratch(n));
    *colb = w;
    *diagb = w + NQB_LINE_WORDS(n);
    *antib = *diagb + NQB_LINE_WORDS(2 * (size_t)n);
}

int nqueens_board_check(int n, const int *fixed, void *scratch, nqueens_pair_t *bad) {
    uint64_t *colb, *diagb, *antib;
    if (n < 1 || scratch == NULL) return SEARCH_EINVAL;
    const int rbad = range_error(n, fixed);
    if (rbad >= 0) {
        set_bad(bad, rbad, -1);
        return NQUEENS_ERANGE;
    }
    if (fixed == NULL) return 0;
    lines_init(n, scratch, &colb, &diagb, &antib);
    for (int r = 0; r < n; r++) {
        const int c = fixed[r];
        if (c < 0) continue;
        const size_t d = (size_t)(c - r + n - 1), a = (size_t)(c + r);
        if (nqb_get(colb, (size_t)c) | nqb_get(diagb, d) | nqb_get(antib, a)) {
            /* r is the smallest r2; the smallest r1 is the first attacker */
            for (int r1 = 0; r1 < r; r1++)
                if (fixed[r1] >= 0 && attacks(r1, fixed[r1], r, c)) {
                    set_bad(bad, r1, r);
                    break;
                }
            return NQUEENS_EATTACK;
        }
        nqb_set(colb, (size_t)c);
        nqb_set(diagb, d);
        nqb_set(antib, a);
    }
    return 0;
}

/* === Analysis === */

int nqueens_board_analyze(int n, const int *fixed, uint64_t *cand, int *ncand,
                          nqueens_pair_t *pairs, size_t pair_cap, nqueens_analysis_t *out,
                          void *scratch, nqueens_pair_t *bad) {
    uint64_t *colb, *diagb, *antib;
    if (n < 1 || n > NQUEENS_ANALYZE_MAX_N || cand == NULL || ncand == NULL || out == NULL ||
        scratch == NULL || (pairs == NULL && pair_cap != 0))
        return SEARCH_EINVAL;
    const int rbad = range_error(n, fixed);
    if (rbad >= 0) {
        set_bad(bad, rbad, -1);
        return NQUEENS_ERANGE;
    }
    lines_init(n, scratch, &colb, &diagb, &antib);
    int placed = 0;
    for (int r = 0; r < n; r++) {
        const int c = fixed != NULL ? fixed[r] : -1;
        if (c < 0) continue;
        placed++;
        nqb_set(colb, (size_t)c);
        nqb_set(diagb, (size_t)(c - r + n - 1));
        nqb_set(antib, (size_t)(c + r));
    }
    const size_t words = nqueens_row_words(n);
    int first_empty = -1, first_dead = -1;
    for (int r = 0; r < n; r++) {
        uint64_t *row = cand + (size_t)r * words;
        if (fixed != NULL && fixed[r] >= 0) {
            memset(row, 0, words * sizeof *row);
            ncand[r] = 0;
            continue;
        }
        ncand[r] = nqb_row_free(n, r, colb, diagb, antib, row);
        if (first_empty < 0) first_empty = r;
        if (ncand[r] == 0 && first_dead < 0) first_dead = r;
    }
    size_t np = 0;
    if (fixed != NULL)
        for (int r1 = 0; r1 < n; r1++) {
            if (fixed[r1] < 0) continue;
            for (int r2 = r1 + 1; r2 < n; r2++)
                if (fixed[r2] >= 0 && attacks(r1, fixed[r1], r2, fixed[r2])) {
                    if (np < pair_cap) pairs[np] = (nqueens_pair_t){r1, r2};
                    np++;
                }
        }
    out->placed = placed;
    out->npairs = np;
    out->next_row = first_dead >= 0 ? first_dead : first_empty;
    return 0;
}

/* === Row masks (n <= 64) === */

static uint64_t full64(int n) { return n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1; }

/* Checks fixed (n <= 64) and fills allowed[0..n-1] (see the file comment). */
static int masks64(int n, const int *fixed, uint64_t *allowed, nqueens_pair_t *bad) {
    uint64_t scratch[16]; /* nqueens_board_scratch(64) = 88 bytes */
    const int rc = nqueens_board_check(n, fixed, scratch, bad);
    if (rc != 0) return rc;
    const uint64_t full = full64(n);
    for (int y = 0; y < n; y++)
        allowed[y] = full;
    if (fixed == NULL) return 0;
    for (int r = 0; r < n; r++) {
        const int c = fixed[r];
        if (c < 0) continue;
        for (int y = 0; y < n; y++) {
            const int dy = y > r ? y - r : r - y;
            uint64_t hit = (uint64_t)1 << c;
            if (c + dy < n) hit |= (uint64_t)1 << (c + dy);
            if (c - dy >= 0) hit |= (uint64_t)1 << (c - dy);
            allowed[y] &= ~hit;
        }
    }
    for (int r = 0; r < n; r++)
        if (fixed[r] >= 0) allowed[r] = (uint64_t)1 << fixed[r];
    return 0;
}

/* === First completion === */

int nqueens_complete_first(int n, const int *fixed, const search_ctl_t *ctl, int *cols,
                           search_stats_t *stats, nqueens_pair_t *bad) {
    uint64_t allowed[NQUEENS_ENUM_MAX_N];
    nqw_t w;
    search_stats_t local = {0};
    int rc;
    if (n < 1 || n > NQUEENS_ENUM_MAX_N || cols == NULL) return SEARCH_EINVAL;
    if ((rc = masks64(n, fixed, allowed, bad)) != 0) return rc;
    if (stats == NULL) stats = &local;
    if ((rc = search_check_now(ctl, stats->nodes)) != 0) return rc;

    uint64_t nodes = stats->nodes, backs = 0;
    int deep = 0;
    nqw_init(&w, allowed[0]);
    rc = 1; /* no completion unless the last row is reached */
    for (;;) {
        if (w.avail == 0) {
            if (!nqw_up(&w)) break;
            ++backs;
            continue;
        }
        const int y = w.depth;
        const uint64_t bit = nqw_take(&w);
        cols[y] = __builtin_ctzll(bit);
        ++nodes;
        if (y + 1 > deep) deep = y + 1;
        if (y + 1 == n) {
            rc = 0;
            break;
        }
        const int stop = search_should_stop(ctl, nodes);
        if (stop != 0) {
            rc = stop;
            break;
        }
        /* two-row look-ahead: prunes only subtrees without completions */
        const nqw_row_t below = nqw_below(&w, bit, 1);
        const uint64_t next = allowed[y + 1] & ~nqw_attacked(below);
        const uint64_t next2 =
            y + 2 < n ? allowed[y + 2] & ~(below.cols | below.ld << 1 | below.rd >> 1) : 1;
        if (next == 0 || next2 == 0) {
            ++backs;
            continue;
        }
        nqw_down(&w, below, next);
    }
    stats->nodes = nodes;
    stats->backtracks += backs;
    if ((uint32_t)deep > stats->max_depth) stats->max_depth = (uint32_t)deep;
    return rc;
}

/* === Counting completions === */

static void masks32(int n, const uint64_t *allowed, uint32_t *out) {
    for (int y = 0; y < n; y++)
        out[y] = (uint32_t)allowed[y];
}

int nqueens_complete_prefixes(int n, const int *fixed, int depth, uint8_t *out, size_t cap,
                              size_t *count, const search_ctl_t *ctl, nqueens_pair_t *bad) {
    uint64_t allowed[NQUEENS_COUNT_MAX_N];
    uint8_t path[NQUEENS_COUNT_MAX_N];
    nqueens__poll_t pl;
    uint64_t nodes = 0;
    int rc;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || count == NULL) return SEARCH_EINVAL;
    if ((rc = masks64(n, fixed, allowed, bad)) != 0) return rc;
    if ((rc = search_check_now(ctl, 0)) != 0) return rc;
    depth = depth < 0 ? 0 : depth > n ? n : depth;
    nqueens__poll_init(&pl, 0);

    size_t total = 0;
    if (depth == 0) {
        total = 1; /* the empty prefix: out gets no bytes */
    } else {
        nqw_t w;
        nqw_init(&w, allowed[0]);
        for (;;) {
            if (w.avail == 0) {
                if (!nqw_up(&w)) break;
                continue;
            }
            const int y = w.depth;
            const uint64_t bit = nqw_take(&w);
            path[y] = (uint8_t)__builtin_ctzll(bit);
            if ((rc = nqueens__poll(&pl, ctl, NQUEENS__NODE_UNITS, ++nodes)) != 0) return rc;
            if (y + 1 == depth) {
                if (total == cap) {
                    total++; /* one too many: stop here (see board.h) */
                    break;
                }
                if (out != NULL) memcpy(out + total * (size_t)depth, path, (size_t)depth);
                total++;
                continue;
            }
            const nqw_row_t below = nqw_below(&w, bit, 1);
            nqw_down(&w, below, allowed[y + 1] & ~nqw_attacked(below));
        }
    }
    *count = total;
    return total > cap ? NQUEENS_ENOSPACE : 0;
}

int nqueens_complete_count_prefix(int n, const int *fixed, int depth, const uint8_t *prefix,
                                  const search_ctl_t *ctl, uint64_t *count, search_stats_t *stats) {
    uint64_t allowed[NQUEENS_COUNT_MAX_N];
    uint32_t a32[NQUEENS_COUNT_MAX_N];
    uint64_t k = 0;
    int rc;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || count == NULL || depth < 0 || depth > n ||
        (prefix == NULL && depth > 0))
        return SEARCH_EINVAL;
    if ((rc = masks64(n, fixed, allowed, NULL)) != 0) return rc;
    masks32(n, allowed, a32);
    /* nqueens_count_masked() checks the prefix against the masks */
    if ((rc = nqueens_count_masked(n, depth, prefix, a32, ctl, &k, stats)) == 0) *count += k;
    return rc;
}

int nqueens_complete_plan(int n, const int *fixed, size_t want, size_t max, const search_ctl_t *ctl,
                          int *depth, size_t *count, nqueens_pair_t *bad) {
    size_t prev = 1, k = 0;
    int rc;
    if (depth == NULL || count == NULL || max < 1) return SEARCH_EINVAL;
    /* depth 0: one prefix, checks the board */
    if ((rc = nqueens_complete_prefixes(n, fixed, 0, NULL, 0, &k, ctl, bad)) != 0 &&
        rc != NQUEENS_ENOSPACE)
        return rc;
    int d = 0;
    while (prev < want && prev > 0 && d < n) {
        rc = nqueens_complete_prefixes(n, fixed, d + 1, NULL, max, &k, ctl, bad);
        if (rc == NQUEENS_ENOSPACE) break; /* more than max one row deeper */
        if (rc != 0) return rc;
        d++;
        prev = k;
    }
    *depth = d;
    *count = prev;
    return 0;
}
int nqueens_complete_count(int n, const int *fixed, const search_ctl_t *ctl, uint64_t *count,
                           search_stats_t *stats, nqueens_pair_t *bad) {
    uint64_t allowed[NQUEENS_COUNT_MAX_N];
    uint32_t a32[NQUEENS_COUNT_MAX_N];
    int rc;
    if (n < 1 || n > NQUEENS_COUNT_MAX_N || count == NULL) return SEARCH_EINVAL;
    if ((rc = masks64(n, fixed, allowed, bad)) != 0) return rc;
    masks32(n, allowed, a32);
    return nqueens_count_masked(n, 0, NULL, a32, ctl, count, stats);
}

/* === Enumeration === */

int nqueens_total(int n, uint64_t *total) {
    if (n < 0 || n > NQUEENS_COUNT_MAX_N || total == NULL) return SEARCH_EINVAL;
    *total = a000170[n];
    return 0;
}

/* A subtree is counted rather than walked when at least this many rows lie
 * below it: shallower subtrees are cheaper to list than to set up a count. */
#define SKIP_MIN_ROWS 4

int nqueens_enumerate(int n, const int *fixed, uint64_t offset, int limit, const search_ctl_t *ctl,
                      int *out, int *written, search_stats_t *stats, nqueens_pair_t *bad) {
    uint64_t allowed[NQUEENS_ENUM_MAX_N];
    uint32_t a32[NQUEENS_COUNT_MAX_N];
    uint8_t col8[NQUEENS_COUNT_MAX_N];
    int col[NQUEENS_ENUM_MAX_N];
    search_stats_t local = {0};
    int rc;
    if (n < 1 || n > NQUEENS_ENUM_MAX_N || limit < 1 || limit > NQUEENS_ENUM_MAX_LIMIT ||
        out == NULL || written == NULL)
        return SEARCH_EINVAL;
    if ((rc = masks64(n, fixed, allowed, bad)) != 0) return rc;
    if (stats == NULL) stats = &local;
    *written = 0;
    if ((rc = search_check_now(ctl, stats->nodes)) != 0) return rc;
    const int can_count = n <= NQUEENS_COUNT_MAX_N;
    if (can_count) masks32(n, allowed, a32);

    uint64_t skip = offset;
    int got = 0;
    nqw_t w;
    nqueens__poll_t pl; /* by work: the counts below make stats->nodes jump */
    nqueens__poll_init(&pl, stats->nodes);
    nqw_init(&w, allowed[0]);
    rc = 0;
    for (;;) {
        if (w.avail == 0) {
            if (!nqw_up(&w)) break;
            stats->backtracks++;
            continue;
        }
        const int y = w.depth;
        const uint64_t bit = nqw_take(&w);
        col[y] = __builtin_ctzll(bit);
        stats->nodes++;
        if ((rc = nqueens__poll(&pl, ctl, NQUEENS__NODE_UNITS, stats->nodes)) != 0) break;
        if (y + 1 == n) {
            if (skip > 0) {
                skip--;
                continue;
            }
            memcpy(out + (size_t)got * (size_t)n, col, sizeof(int) * (size_t)n);
            if (++got == limit) break;
            continue;
        }
        const nqw_row_t below = nqw_below(&w, bit, 1);
        const uint64_t next = allowed[y + 1] & ~nqw_attacked(below);
        if (next == 0) continue;
        if (skip > 0 && can_count && n - (y + 1) >= SKIP_MIN_ROWS) {
            uint64_t k = 0;
            for (int i = 0; i <= y; i++)
                col8[i] = (uint8_t)col[i];
            if ((rc = nqueens_count_masked(n, y + 1, col8, a32, ctl, &k, stats)) != 0) break;
            if (k <= skip) {
                skip -= k;
                continue;
            }
        }
        nqw_down(&w, below, next);
    }
    *written = got;
    return rc;
}

/* === Result codes === */

/* The codes of board.h by name and sentence, for search_code_name() and
 * search_code_str() (the Makefile lists this table with every puzzle's). */
const search_code_t nqueens_codes[] = {
    SEARCH_CODE(NQUEENS_ERANGE, "a placed column is outside the board"),
    SEARCH_CODE(NQUEENS_EATTACK, "two placed queens attack each other"),
    SEARCH_CODE(NQUEENS_ENOSPACE, "a caller buffer is too small"),
    {0, NULL, NULL}};
