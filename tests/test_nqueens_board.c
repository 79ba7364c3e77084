/* test_nqueens_board.c -- partial N-Queens boards and the methods that solve
 * them: checks, analysis, completion and paging (solvers/nqueens/board.c),
 * heuristic backtracking (solvers/nqueens/heur.c) and min-conflicts repair
 * (solvers/nqueens/repair.c).
 *
 * Every board a solver returns is checked with nqueens_verify().  Counts,
 * first completions and pages are checked against a tiny independent brute
 * force (all placements row by row, n <= 8), never against the solver's own
 * machinery.  Runtime: well under a second natively (mrv n = 4..200 and
 * repair up to n = 2000 dominate); bench/bench_nqueens_board.c does big n.
 *
 * Exports nqueens_board_suite(); tests/test_main.c runs it. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/board.h"
#include "solvers/nqueens/heur.h"
#include "solvers/nqueens/repair.h"
#include "tests/test_util.h"

/* === Brute force (n <= 8) === */

#define BF_MAX 8

/* All completions of fixed (NULL = empty), lexicographic, into sols (each n
 * ints, at most cap of them); returns how many exist. */
static size_t brute(int n, const int *fixed, int *sols, size_t cap) {
    int col[BF_MAX];
    size_t found = 0;
    int y = 0;
    col[0] = -1;
    while (y >= 0) {
        col[y]++;
        if (col[y] >= n) {
            y--;
            continue;
        }
        if (fixed != NULL && fixed[y] >= 0 && col[y] != fixed[y]) continue;
        int ok = 1;
        for (int k = 0; k < y && ok; k++)
            ok = col[k] != col[y] && abs(col[k] - col[y]) != y - k;
        for (int k = y + 1; k < n && ok && fixed != NULL; k++) /* placed rows below */
            if (fixed[k] >= 0) ok = fixed[k] != col[y] && abs(fixed[k] - col[y]) != k - y;
        if (!ok) continue;
        if (y == n - 1) {
            if (found < cap) memcpy(sols + found * (size_t)n, col, sizeof(int) * (size_t)n);
            found++;
            continue;
        }
        col[++y] = -1;
    }
    return found;
}

static void assert_board(int n, const int *cols) {
    unsigned char *v = malloc(nqueens_verify_scratch(n));
    ck_assert_ptr_nonnull(v);
    ck_assert_msg(nqueens_verify(n, cols, v), "n=%d: not a solution", n);
    free(v);
}

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* A random partial board: each row placed with probability ~1/3 on a square
 * no earlier placed queen attacks. */
static void random_partial(int n, uint64_t *s, int *fixed) {
    for (int r = 0; r < n; r++) {
        fixed[r] = -1;
        if (lcg(s) % 3 != 0) continue;
        const int c = (int)(lcg(s) % (uint64_t)n);
        int ok = 1;
        for (int k = 0; k < r; k++)
            if (fixed[k] >= 0 && (fixed[k] == c || abs(fixed[k] - c) == r - k)) ok = 0;
        if (ok) fixed[r] = c;
    }
}

/* === Validation === */

START_TEST(nqueens_board_check_reports_errors) {
    unsigned char scratch[256];
    nqueens_pair_t bad = {0, 0};
    int f[8] = {0, -1, -1, 3, -1, -1, -1, -1};
    ck_assert_uint_le(nqueens_board_scratch(8), sizeof scratch);
    ck_assert_int_eq(nqueens_board_check(8, f, scratch, &bad), NQUEENS_EATTACK);
    ck_assert_int_eq(bad.r1, 0);
    ck_assert_int_eq(bad.r2, 3);
    /* smallest r2 first, then smallest r1: (1,5) and (2,5) attack row 5 */
    int g[8] = {-1, 2, 4, -1, -1, 6, -1, -1};
    ck_assert_int_eq(nqueens_board_check(8, g, scratch, &bad), NQUEENS_EATTACK);
    ck_assert_int_eq(bad.r1, 1);
    ck_assert_int_eq(bad.r2, 5);
    int h[8] = {0, 2, 8, -1, -1, -1, -1, -1};
    ck_assert_int_eq(nqueens_board_check(8, h, scratch, &bad), NQUEENS_ERANGE);
    ck_assert_int_eq(bad.r1, 2);
    ck_assert_int_eq(bad.r2, -1);
    h[2] = -2;
    ck_assert_int_eq(nqueens_board_check(8, h, scratch, &bad), NQUEENS_ERANGE);
    int ok[8] = {0, 4, 7, 5, 2, 6, 1, 3};
    ck_assert_int_eq(nqueens_board_check(8, ok, scratch, &bad), 0);
    ck_assert_int_eq(nqueens_board_check(8, NULL, scratch, &bad), 0);
}
END_TEST

START_TEST(nqueens_solvers_share_error_codes) {
    int cols[8];
    int att[8] = {0, 1, -1, -1, -1, -1, -1, -1}, rng[8] = {-1, 9, -1, -1, -1, -1, -1, -1};
    nqueens_pair_t bad = {-7, -7};
    void *ms = malloc(nqueens_mrv_scratch(8)), *rs = malloc(nqueens_repair_scratch(8));
    nqueens_repair_opts_t o = {1, 1000, NULL, NULL, 0, NQUEENS_START_CONSTRUCTED};
    nqueens_repair_result_t res;
    uint64_t count;
    ck_assert_int_eq(nqueens_mrv(8, att, NULL, cols, ms, NULL, &bad), NQUEENS_EATTACK);
    ck_assert(bad.r1 == 0 && bad.r2 == 1);
    ck_assert_int_eq(nqueens_mrv(8, rng, NULL, cols, ms, NULL, &bad), NQUEENS_ERANGE);
    ck_assert(bad.r1 == 1 && bad.r2 == -1);
    ck_assert_int_eq(nqueens_repair(8, att, &o, NULL, cols, rs, &res, NULL, &bad), NQUEENS_EATTACK);
    ck_assert_int_eq(nqueens_repair(8, rng, &o, NULL, cols, rs, &res, NULL, &bad), NQUEENS_ERANGE);
    ck_assert_int_eq(nqueens_complete_first(8, att, NULL, cols, NULL, &bad), NQUEENS_EATTACK);
    ck_assert_int_eq(nqueens_complete_count(8, rng, NULL, &count, NULL, &bad), NQUEENS_ERANGE);
    ck_assert_int_eq(nqueens_enumerate(8, att, 0, 1, NULL, cols, &(int){0}, NULL, &bad),
                     NQUEENS_EATTACK);
    free(ms);
    free(rs);
}
END_TEST

/* === Analysis === */

static int row_list(const uint64_t *cand, int n, int r, int *out) {
    const size_t w = nqueens_row_words(n);
    int k = 0;
    for (int c = 0; c < n; c++)
        if ((cand[(size_t)r * w + (size_t)c / 64] >> (c % 64)) & 1) out[k++] = c;
    return k;
}

START_TEST(nqueens_board_analyze_examples) {
    int n = 8, f[8], ncand[8], list[8];
    uint64_t cand[8];
    unsigned char scratch[256];
    nqueens_pair_t pairs[8];
    nqueens_analysis_t a;
    for (int r = 0; r < 8; r++)
        f[r] = -1;
    f[0] = 4;
    ck_assert_int_eq(nqueens_board_analyze(n, f, cand, ncand, pairs, 8, &a, scratch, NULL), 0);
    static const int r1[] = {0, 1, 2, 6, 7}, r2[] = {0, 1, 3, 5, 7}, r3[] = {0, 2, 3, 5, 6};
    ck_assert_int_eq(row_list(cand, n, 1, list), 5);
    ck_assert_mem_eq(list, r1, sizeof r1);
    ck_assert_int_eq(row_list(cand, n, 2, list), 5);
    ck_assert_mem_eq(list, r2, sizeof r2);
    ck_assert_int_eq(row_list(cand, n, 3, list), 5);
    ck_assert_mem_eq(list, r3, sizeof r3);
    ck_assert_int_eq(ncand[0], 0);
    ck_assert_int_eq(ncand[1], 5);
    ck_assert_int_eq(a.next_row, 1);
    ck_assert_int_eq(a.placed, 1);
    ck_assert_uint_eq(a.npairs, 0);

    for (int r = 0; r < 8; r++)
        f[r] = -1;
    f[0] = 0, f[1] = 3, f[2] = 6, f[6] = 7;
    ck_assert_int_eq(nqueens_board_analyze(n, f, cand, ncand, pairs, 8, &a, scratch, NULL), 0);
    ck_assert_int_eq(a.next_row, 3);

    int g[3] = {1, -1, -1};
    ck_assert_int_eq(nqueens_board_analyze(3, g, cand, ncand, pairs, 8, &a, scratch, NULL), 0);
    ck_assert_int_eq(a.next_row, 1);
    ck_assert_int_eq(ncand[1], 0);
    ck_assert_int_eq(ncand[2], 2);

    /* next_row on every 5x5 board with two placed queens, against a direct
     * computation; some of them have a dead row below a live empty row */
    int covered = 0;
    for (int q1 = 0; q1 < 25; q1++)
        for (int q2 = q1 + 5 - q1 % 5; q2 < 25; q2++) {
            int b[5] = {-1, -1, -1, -1, -1};
            b[q1 / 5] = q1 % 5;
            b[q2 / 5] = q2 % 5;
            ck_assert_int_eq(nqueens_board_analyze(5, b, cand, ncand, pairs, 8, &a, scratch, NULL),
                             0);
            int first_empty = -1, first_dead = -1;
            for (int r = 0; r < 5; r++) {
                if (b[r] >= 0) continue;
                int k = 0;
                for (int c = 0; c < 5; c++) {
                    int fr = 1;
                    for (int q = 0; q < 5; q++)
                        if (b[q] >= 0 && (b[q] == c || abs(b[q] - c) == abs(q - r))) fr = 0;
                    k += fr;
                }
                ck_assert_int_eq(ncand[r], k);
                if (first_empty < 0) first_empty = r;
                if (k == 0 && first_dead < 0) first_dead = r;
            }
            ck_assert_int_eq(a.next_row, first_dead >= 0 ? first_dead : first_empty);
            covered += first_dead > first_empty;
        }
    ck_assert_int_gt(covered, 0);

    /* attacking pairs, ordered, with a cap */
    int p[8] = {0, -1, 2, -1, 4, -1, -1, 0};
    ck_assert_int_eq(nqueens_board_analyze(8, p, cand, ncand, pairs, 2, &a, scratch, NULL), 0);
    ck_assert_uint_eq(a.npairs, 4); /* (0,2) (0,4) (0,7) (2,4) */
    ck_assert(pairs[0].r1 == 0 && pairs[0].r2 == 2);
    ck_assert(pairs[1].r1 == 0 && pairs[1].r2 == 4);
    p[3] = 8;
    ck_assert_int_eq(nqueens_board_analyze(8, p, cand, ncand, pairs, 2, &a, scratch, NULL),
                     NQUEENS_ERANGE);
}
END_TEST

/* Analysis beyond one word per row agrees with direct attack tests. */
START_TEST(nqueens_board_analyze_wide) {
    const int n = 150;
    int f[150], ncand[150];
    uint64_t seed = 7;
    random_partial(n, &seed, f);
    uint64_t *cand = malloc(sizeof(uint64_t) * nqueens_row_words(n) * (size_t)n);
    void *scratch = malloc(nqueens_board_scratch(n));
    nqueens_analysis_t a;
    ck_assert_int_eq(nqueens_board_analyze(n, f, cand, ncand, NULL, 0, &a, scratch, NULL), 0);
    const size_t w = nqueens_row_words(n);
    for (int r = 0; r < n; r++) {
        int k = 0;
        for (int c = 0; c < n; c++) {
            int free_sq = f[r] < 0;
            for (int q = 0; q < n && free_sq; q++)
                if (f[q] >= 0 && (f[q] == c || abs(f[q] - c) == abs(q - r))) free_sq = 0;
            ck_assert_int_eq((int)((cand[(size_t)r * w + (size_t)c / 64] >> (c % 64)) & 1),
                             free_sq);
            k += free_sq;
        }
        ck_assert_int_eq(ncand[r], k);
    }
    ck_assert_uint_eq(a.npairs, 0);
    free(cand);
    free(scratch);
}
END_TEST

/* === Completion: first and count, against brute force === */

START_TEST(nqueens_complete_matches_brute_force) {
    int f[BF_MAX], sols[BF_MAX * 100], cols[BF_MAX];
    uint64_t seed = 12345;
    for (int n = 1; n <= BF_MAX; n++)
        for (int t = 0; t < 40; t++) {
            random_partial(n, &seed, f);
            if (t == 0)
                for (int r = 0; r < n; r++)
                    f[r] = -1;
            const size_t want = brute(n, f, sols, 100);
            uint64_t got = 99;
            ck_assert_int_eq(nqueens_complete_count(n, f, NULL, &got, NULL, NULL), 0);
            ck_assert_uint_eq(got, want);
            /* the prefixes, at every depth, sum to the same count */
            for (int depth = 0; depth <= n; depth++) {
                size_t need = 0, have = 0;
                int rc =
                    nqueens_complete_prefixes(n, f, depth, NULL, SIZE_MAX - 1, &need, NULL, NULL);
                ck_assert_int_eq(rc, 0);
                uint8_t *pre = malloc(need * (size_t)depth + 1);
                ck_assert_int_eq(
                    nqueens_complete_prefixes(n, f, depth, pre, need, &have, NULL, NULL), 0);
                ck_assert_uint_eq(have, need);
                uint64_t sum = 0;
                for (size_t i = 0; i < have; i++) /* any order */
                    ck_assert_int_eq(
                        nqueens_complete_count_prefix(
                            n, f, depth, pre + (have - 1 - i) * (size_t)depth, NULL, &sum, NULL),
                        0);
                ck_assert_uint_eq(sum, want);
                free(pre);
            }
            const int rc = nqueens_complete_first(n, f, NULL, cols, NULL, NULL);
            ck_assert_int_eq(rc, want ? 0 : 1);
            if (want) ck_assert_mem_eq(cols, sols, sizeof(int) * (size_t)n);
        }
}
END_TEST

START_TEST(nqueens_complete_count_known_case) {
    /* 8x8 with queens at (0,0) and (1,4): only 0 4 7 5 2 6 1 3 */
    int f[8] = {0, 4, -1, -1, -1, -1, -1, -1};
    uint64_t got = 0;
    ck_assert_int_eq(nqueens_complete_count(8, f, NULL, &got, NULL, NULL), 0);
    ck_assert_uint_eq(got, brute(8, f, NULL, 0));
    ck_assert_uint_eq(got, 1);
    size_t need = 0;
    ck_assert_int_eq(nqueens_complete_prefixes(8, f, 4, NULL, 0, &need, NULL, NULL),
                     NQUEENS_ENOSPACE);
    ck_assert_uint_eq(need, 1); /* stopped at the first one too many */
    /* a prefix that breaks the board is refused, not counted */
    const uint8_t clash[2] = {0, 5};
    ck_assert_int_eq(nqueens_complete_count_prefix(8, f, 2, clash, NULL, &got, NULL),
                     SEARCH_EINVAL);
    ck_assert_uint_eq(got, 1);
}
END_TEST

/* The cut of a count: the first depth with at least `want` prefixes, or
 * the deepest with at most `max`; and the walk stops at max + 1 whatever the
 * board, so planning the empty n = 27 board (whose depth-27 prefixes are
 * its 2.3 * 10^17 solutions) is quick by construction. */
START_TEST(nqueens_complete_plan_bounds) {
    int depth = -1;
    size_t k = 0, all = 0;
    /* n = 8, empty: 8, 42, 140, 344 prefixes at depths 1..4 */
    ck_assert_int_eq(nqueens_complete_plan(8, NULL, 40, 1000, NULL, &depth, &k, NULL), 0);
    ck_assert_int_eq(depth, 2);
    ck_assert_uint_eq(k, 42);
    ck_assert_int_eq(nqueens_complete_prefixes(8, NULL, 2, NULL, 1000, &all, NULL, NULL), 0);
    ck_assert_uint_eq(all, 42);
    ck_assert_int_eq(nqueens_complete_plan(8, NULL, 300, 100, NULL, &depth, &k, NULL), 0);
    ck_assert_int_eq(depth, 2); /* 140 at depth 3 is over max */
    ck_assert_int_eq(nqueens_complete_plan(8, NULL, 0, 100, NULL, &depth, &k, NULL), 0);
    ck_assert_int_eq(depth, 0);
    ck_assert_uint_eq(k, 1);
    ck_assert_int_eq(nqueens_complete_plan(8, NULL, 100000, 100000, NULL, &depth, &k, NULL), 0);
    ck_assert_int_eq(depth, 8); /* the whole board: its 92 solutions */
    ck_assert_uint_eq(k, 92);
    /* no completion: 0 prefixes at the first dead depth */
    int dead[8] = {0, 2, 4, -1, -1, -1, -1, -1};
    ck_assert_int_eq(nqueens_complete_plan(8, dead, 1000, 1000, NULL, &depth, &k, NULL), 0);
    ck_assert_uint_eq(k, 0);
    /* n = 27: the bound holds the walk */
    ck_assert_int_eq(nqueens_complete_prefixes(27, NULL, 27, NULL, 1000, &all, NULL, NULL),
                     NQUEENS_ENOSPACE);
    ck_assert_uint_eq(all, 1001);
    ck_assert_int_eq(nqueens_complete_plan(27, NULL, SIZE_MAX, 65536, NULL, &depth, &k, NULL), 0);
    ck_assert_int_le(k, 65536);
    ck_assert_int_eq(nqueens_complete_prefixes(27, NULL, depth + 1, NULL, 65536, &all, NULL, NULL),
                     NQUEENS_ENOSPACE);
    int bad[8] = {0, 1, -1, -1, -1, -1, -1, -1};
    nqueens_pair_t pair;
    ck_assert_int_eq(nqueens_complete_plan(8, bad, 10, 10, NULL, &depth, &k, &pair),
                     NQUEENS_EATTACK);
    ck_assert_int_eq(nqueens_complete_plan(8, NULL, 10, 0, NULL, &depth, &k, NULL), SEARCH_EINVAL);
}
END_TEST

/* === Enumeration === */

START_TEST(nqueens_enumerate_pages_cover_92) {
    int all[92 * 8], page[92 * 8];
    ck_assert_uint_eq(brute(8, NULL, all, 92), 92);
    static const int sizes[] = {1, 7, 10, 92};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int seen[92] = {0};
        uint64_t off = 0;
        for (;;) {
            int written = -1;
            ck_assert_int_eq(
                nqueens_enumerate(8, NULL, off, sizes[s], NULL, page, &written, NULL, NULL), 0);
            for (int k = 0; k < written; k++) {
                const size_t rank = (size_t)off + (size_t)k;
                ck_assert_uint_lt(rank, 92);
                ck_assert_mem_eq(page + k * 8, all + rank * 8, sizeof(int) * 8);
                seen[rank]++;
            }
            if (written < sizes[s]) break;
            off += (uint64_t)written;
        }
        for (int i = 0; i < 92; i++)
            ck_assert_int_eq(seen[i], 1);
    }
    int written = -1;
    ck_assert_int_eq(nqueens_enumerate(8, NULL, 92, 10, NULL, page, &written, NULL, NULL), 0);
    ck_assert_int_eq(written, 0);
    ck_assert_int_eq(nqueens_enumerate(8, NULL, 1000000, 10, NULL, page, &written, NULL, NULL), 0);
    ck_assert_int_eq(written, 0);
    ck_assert_int_eq(nqueens_enumerate(8, NULL, 0, 0, NULL, page, &written, NULL, NULL),
                     SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_enumerate(8, NULL, 0, 1001, NULL, page, &written, NULL, NULL),
                     SEARCH_EINVAL);
    uint64_t total = 0;
    ck_assert_int_eq(nqueens_total(8, &total), 0);
    ck_assert_uint_eq(total, 92);
    ck_assert_int_eq(nqueens_total(16, &total), 0);
    ck_assert_uint_eq(total, 14772512);
}
END_TEST

/* Skipping by subtree counts lands where listing from the start does. */
START_TEST(nqueens_enumerate_skip_matches_listing) {
    const int n = 11, lim = 1000;
    int *seq = malloc(sizeof(int) * (size_t)n * lim), *pg = malloc(sizeof(int) * (size_t)n * 10);
    unsigned char v[64];
    int written;
    uint64_t off = 0;
    for (int k = 0; k < 2; k++) { /* ranks 0..1999, listed page by page */
        ck_assert_int_eq(nqueens_enumerate(n, NULL, off, lim, NULL, seq, &written, NULL, NULL), 0);
        ck_assert_int_eq(written, lim);
        off += lim;
    }
    /* seq now holds ranks 1000..1999; jump straight to 1537 */
    ck_assert_int_eq(nqueens_enumerate(n, NULL, 1537, 10, NULL, pg, &written, NULL, NULL), 0);
    ck_assert_int_eq(written, 10);
    ck_assert_mem_eq(pg, seq + (size_t)537 * n, sizeof(int) * (size_t)n * 10);
    for (int k = 0; k < 10; k++)
        ck_assert(nqueens_verify(n, pg + k * n, v));
    /* the last page of n = 11 (2680 solutions) */
    ck_assert_int_eq(nqueens_enumerate(n, NULL, 2675, 10, NULL, pg, &written, NULL, NULL), 0);
    ck_assert_int_eq(written, 5);
    free(seq);
    free(pg);
}
END_TEST

/* === mrv === */

START_TEST(nqueens_mrv_solves_4_to_200) {
    int cols[200];
    void *s = malloc(nqueens_mrv_scratch(200));
    for (int n = 4; n <= 200; n++) {
        search_stats_t st = {0};
        ck_assert_int_eq(nqueens_mrv(n, NULL, NULL, cols, s, &st, NULL), 0);
        assert_board(n, cols);
        ck_assert_uint_ge(st.nodes, (uint64_t)n);
    }
    ck_assert_int_eq(nqueens_mrv(1, NULL, NULL, cols, s, NULL, NULL), 0);
    ck_assert_int_eq(cols[0], 0);
    ck_assert_int_eq(nqueens_mrv(2, NULL, NULL, cols, s, NULL, NULL), 1);
    ck_assert_int_eq(nqueens_mrv(3, NULL, NULL, cols, s, NULL, NULL), 1);
    free(s);
}
END_TEST

START_TEST(nqueens_mrv_deterministic) {
    int a[300], b[300];
    void *s = malloc(nqueens_mrv_scratch(300));
    ck_assert_int_eq(nqueens_mrv(300, NULL, NULL, a, s, NULL, NULL), 0);
    ck_assert_int_eq(nqueens_mrv(300, NULL, NULL, b, s, NULL, NULL), 0);
    ck_assert_mem_eq(a, b, sizeof a);
    free(s);
}
END_TEST

START_TEST(nqueens_mrv_completes_partial_boards) {
    int f[BF_MAX], cols[BF_MAX];
    uint64_t seed = 99;
    void *s = malloc(nqueens_mrv_scratch(BF_MAX));
    for (int n = 4; n <= BF_MAX; n++)
        for (int t = 0; t < 40; t++) {
            random_partial(n, &seed, f);
            const size_t want = brute(n, f, NULL, 0);
            const int rc = nqueens_mrv(n, f, NULL, cols, s, NULL, NULL);
            ck_assert_int_eq(rc, want ? 0 : 1);
            if (rc == 0) {
                assert_board(n, cols);
                for (int r = 0; r < n; r++)
                    if (f[r] >= 0) ck_assert_int_eq(cols[r], f[r]);
            }
        }
    free(s);
    /* a bigger board with a few queens placed */
    int big[120], bc[120];
    for (int r = 0; r < 120; r++)
        big[r] = -1;
    big[0] = 0, big[50] = 60, big[119] = 7;
    void *s2 = malloc(nqueens_mrv_scratch(120));
    ck_assert_int_eq(nqueens_mrv(120, big, NULL, bc, s2, NULL, NULL), 0);
    assert_board(120, bc);
    ck_assert(bc[0] == 0 && bc[50] == 60 && bc[119] == 7);
    free(s2);
}
END_TEST

START_TEST(nqueens_mrv_honours_budget) {
    int cols[8];
    int f[8] = {0, 2, -1, -1, -1, -1, -1, -1};
    void *s = malloc(nqueens_mrv_scratch(8));
    atomic_int cancel = 1;
    search_ctl_t ctl = {.deadline_ns = 0, .cancel = &cancel};
    ck_assert_int_eq(nqueens_mrv(8, f, &ctl, cols, s, NULL, NULL), SEARCH_CANCELLED);
    ck_assert_int_eq(nqueens_mrv(0, NULL, NULL, cols, s, NULL, NULL), SEARCH_EINVAL);
    free(s);
}
END_TEST

/* mrv at its largest n: a node there scans 65,536 lines and costs a few
 * ms, so polling every 16,384 nodes answered a 1 s deadline after 50 s (the
 * issue saw 18.9 s), and placing the given queens (O(n) each) did not poll
 * at all.  Long by construction: a board of n = 65,536 is ~4 * 10^9 counter
 * updates even without backtracking, and half of one given is ~2 * 10^9
 * before the search starts.  Each run must stop within 700 ms of its start
 * (a 20 ms deadline, or a cancel flag raised after 20 ms). */
START_TEST(nqueens_mrv_deadline_at_max_n) {
    const int n = NQUEENS_MRV_MAX_N;
    int *cols = malloc(sizeof(int) * (size_t)n), *half = malloc(sizeof(int) * (size_t)n);
    void *scratch = malloc(nqueens_mrv_scratch(n));
    ck_assert(cols != NULL && half != NULL && scratch != NULL);
    for (int r = 0; r < n; r++) /* the first half of the classical board */
        half[r] = r < n / 2 ? 2 * r + 1 : -1;
    for (int k = 0; k < 3; k++) {
        atomic_int cancel = 0;
        test_canceller_t c = {&cancel, 20};
        pthread_t th;
        const int64_t t0 = search_now_ns();
        search_ctl_t ctl = {.deadline_ns = k < 2 ? t0 + 20 * 1000000LL : 0, .cancel = &cancel};
        if (k == 2) ck_assert_int_eq(pthread_create(&th, NULL, test_canceller, &c), 0);
        const int rc = nqueens_mrv(n, k == 1 ? half : NULL, &ctl, cols, scratch, NULL, NULL);
        const double ms = (double)(search_now_ns() - t0) / 1e6;
        if (k == 2) pthread_join(th, NULL);
        ck_assert_int_eq(rc, k == 2 ? SEARCH_CANCELLED : SEARCH_TIMEOUT);
        ck_assert_msg(ms < 700, "run %d stopped %.0f ms after its start (20 ms asked)", k, ms);
    }
    free(scratch);
    free(half);
    free(cols);
}
END_TEST

/* === minconflicts === */

#define NSTARTS 3 /* nqueens_repair_start_t: constructed, greedy, random */

static int repair_from(nqueens_repair_start_t start, int n, const int *fixed, uint64_t seed,
                       int *cols, nqueens_repair_result_t *res, uint32_t *trace, uint8_t *restart,
                       size_t cap) {
    void *s = malloc(nqueens_repair_scratch(n));
    ck_assert_ptr_nonnull(s);
    nqueens_repair_opts_t o = {seed, 2000000, trace, restart, cap, start};
    const int rc = nqueens_repair(n, fixed, &o, NULL, cols, s, res, NULL, NULL);
    free(s);
    return rc;
}

static int repair(int n, const int *fixed, uint64_t seed, int *cols, nqueens_repair_result_t *res,
                  uint32_t *trace, uint8_t *restart, size_t cap) {
    return repair_from(NQUEENS_START_CONSTRUCTED, n, fixed, seed, cols, res, trace, restart, cap);
}

START_TEST(nqueens_repair_solves_8_to_2000) {
    static const int ns[] = {4, 5, 6, 7, 8, 9, 10, 12, 16, 25, 50, 100, 333, 1000, 2000};
    int *cols = malloc(sizeof(int) * 2000);
    for (int st = 0; st < NSTARTS; st++)
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
            for (uint64_t seed = 1; seed <= 5; seed++) {
                nqueens_repair_result_t res;
                ck_assert_int_eq(repair_from((nqueens_repair_start_t)st, ns[i], NULL, seed, cols,
                                             &res, NULL, NULL, 0),
                                 0);
                assert_board(ns[i], cols);
                ck_assert_uint_eq(res.conflicts, 0);
                ck_assert_uint_eq(res.trace_len, 0);
            }
    free(cols);
}
END_TEST

/* The three starts are what they say, seen in their initial conflicts at
 * n = 10,000 (fixed seeds, so these are facts, not odds): constructed a few
 * dozen pairs; greedy a permutation whose last rows conflict, about a
 * hundred; random a uniform permutation, about 2n/3. */
START_TEST(nqueens_repair_starts_differ) {
    const int n = 10000;
    int *cols = malloc(sizeof(int) * (size_t)n);
    nqueens_repair_result_t res[NSTARTS];
    for (int st = 0; st < NSTARTS; st++) {
        ck_assert_int_eq(
            repair_from((nqueens_repair_start_t)st, n, NULL, 1, cols, &res[st], NULL, NULL, 0), 0);
        assert_board(n, cols);
    }
    ck_assert_uint_le(res[NQUEENS_START_CONSTRUCTED].initial_conflicts,
                      8 * NQUEENS_REPAIR_SWAPS * NQUEENS_REPAIR_SWAPS);
    ck_assert_uint_le(res[NQUEENS_START_GREEDY].initial_conflicts, n / 50);
    ck_assert_uint_ge(res[NQUEENS_START_RANDOM].initial_conflicts, n / 2);
    ck_assert_uint_le(res[NQUEENS_START_RANDOM].initial_conflicts, n);
    ck_assert_uint_gt(res[NQUEENS_START_RANDOM].steps, res[NQUEENS_START_GREEDY].steps);
    free(cols);
}
END_TEST

/* The start is the classical solution disturbed by NQUEENS_REPAIR_SWAPS
 * transpositions, so it has a few dozen conflicts whatever n is; a
 * construction broken for some n mod 6 would show thousands at n ~ 10^4. */
START_TEST(nqueens_repair_start_nearly_conflict_free) {
    const size_t cap = 10006;
    int *cols = malloc(sizeof(int) * cap);
    ck_assert_ptr_nonnull(cols);
    for (int n = 4; n <= 10006; n = n == 60 ? 10000 : n + 1) {
        nqueens_repair_result_t res;
        ck_assert_int_eq(repair(n, NULL, 3, cols, &res, NULL, NULL, 0), 0);
        ck_assert_msg(res.initial_conflicts <= 8 * NQUEENS_REPAIR_SWAPS * NQUEENS_REPAIR_SWAPS,
                      "n=%d: %llu conflicts at the start", n,
                      (unsigned long long)res.initial_conflicts);
        assert_board(n, cols);
    }
    free(cols);
}
END_TEST

START_TEST(nqueens_repair_reproducible) {
    int a[1000], b[1000];
    nqueens_repair_result_t ra, rb;
    for (int st = 0; st < NSTARTS; st++) {
        const nqueens_repair_start_t from = (nqueens_repair_start_t)st;
        ck_assert_int_eq(repair_from(from, 1000, NULL, 42, a, &ra, NULL, NULL, 0), 0);
        ck_assert_int_eq(repair_from(from, 1000, NULL, 42, b, &rb, NULL, NULL, 0), 0);
        ck_assert_mem_eq(a, b, sizeof a);
        ck_assert_uint_eq(ra.steps, rb.steps);
        ck_assert_uint_eq(ra.initial_conflicts, rb.initial_conflicts);
        ck_assert_int_eq(repair_from(from, 1000, NULL, 43, b, &rb, NULL, NULL, 0), 0);
        ck_assert(memcmp(a, b, sizeof a) != 0);
    }
}
END_TEST

/* The trace ends at 0 and never rises except at a flagged perturbation. */
static void check_trace(int n, const int *fixed, uint64_t seed, uint64_t *restarts) {
    enum { CAP = 1 << 20 };
    uint32_t *tr = malloc(sizeof(uint32_t) * CAP);
    uint8_t *rs = malloc(CAP);
    int *cols = malloc(sizeof(int) * (size_t)n);
    nqueens_repair_result_t res;
    ck_assert_int_eq(repair(n, fixed, seed, cols, &res, tr, rs, CAP), 0);
    assert_board(n, cols);
    ck_assert_uint_eq(res.trace_len, res.steps);
    uint64_t prev = res.initial_conflicts, flagged = 0;
    for (size_t i = 0; i < res.trace_len; i++) {
        if (rs[i])
            flagged++;
        else
            ck_assert_msg(tr[i] <= prev, "n=%d seed=%llu step %zu: %u > %llu", n,
                          (unsigned long long)seed, i, tr[i], (unsigned long long)prev);
        prev = tr[i];
    }
    ck_assert_uint_eq(flagged, res.restarts);
    if (res.steps > 0) ck_assert_uint_eq(tr[res.steps - 1], 0);
    *restarts += res.restarts;
    free(tr);
    free(rs);
    free(cols);
}

START_TEST(nqueens_repair_trace_monotone) {
    uint64_t restarts = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        check_trace(8, NULL, seed, &restarts);
        check_trace(9, NULL, seed, &restarts);
    }
    for (uint64_t seed = 1; seed <= 4; seed++) {
        check_trace(200, NULL, seed, &restarts);
        check_trace(5000, NULL, seed, &restarts); /* sampled squares above 4096 */
    }
    ck_assert_uint_gt(restarts, 0); /* small boards do hit plateaus: the flagged path ran */
}
END_TEST

START_TEST(nqueens_repair_keeps_fixed_queens) {
    uint64_t seed = 5, restarts = 0;
    int f[BF_MAX], cols[BF_MAX];
    const nqueens_repair_start_t from = (nqueens_repair_start_t)_i;
    for (int n = 4; n <= BF_MAX; n++)
        for (int t = 0; t < 20; t++) {
            random_partial(n, &seed, f);
            if (brute(n, f, NULL, 0) == 0) {
                void *s = malloc(nqueens_repair_scratch(n));
                nqueens_repair_opts_t o = {seed, 20000, NULL, NULL, 0, from};
                nqueens_repair_result_t res;
                ck_assert_int_eq(nqueens_repair(n, f, &o, NULL, cols, s, &res, NULL, NULL),
                                 SEARCH_TIMEOUT);
                ck_assert_uint_eq(res.steps, 20000);
                for (int r = 0; r < n; r++)
                    if (f[r] >= 0) ck_assert_int_eq(cols[r], f[r]);
                free(s);
                continue;
            }
            nqueens_repair_result_t res;
            ck_assert_int_eq(repair_from(from, n, f, seed, cols, &res, NULL, NULL, 0), 0);
            assert_board(n, cols);
            for (int r = 0; r < n; r++)
                if (f[r] >= 0) ck_assert_int_eq(cols[r], f[r]);
        }
    /* n = 3000 with a quarter of the rows placed (a solution's rows) */
    const int n = 3000;
    int *sol = malloc(sizeof(int) * n), *fx = malloc(sizeof(int) * n),
        *out = malloc(sizeof(int) * n);
    nqueens_repair_result_t res;
    ck_assert_int_eq(repair(n, NULL, 77, sol, &res, NULL, NULL, 0), 0);
    for (int r = 0; r < n; r++)
        fx[r] = r % 4 == 0 ? sol[r] : -1;
    check_trace(n, fx, 78, &restarts);
    ck_assert_int_eq(repair_from(from, n, fx, 78, out, &res, NULL, NULL, 0), 0);
    assert_board(n, out);
    for (int r = 0; r < n; r += 4)
        ck_assert_int_eq(out[r], sol[r]);
    free(sol);
    free(fx);
    free(out);
}
END_TEST

START_TEST(nqueens_repair_limits) {
    int cols[8];
    nqueens_repair_opts_t o = {1, 0, NULL, NULL, 0, NQUEENS_START_CONSTRUCTED};
    nqueens_repair_result_t res;
    unsigned char s[4096];
    ck_assert_uint_eq(nqueens_repair_scratch(3), 0);
    ck_assert_uint_eq(nqueens_repair_scratch(NQUEENS_REPAIR_MAX_N + 1), 0);
    ck_assert_uint_le(nqueens_repair_scratch(8), sizeof s);
    ck_assert_int_eq(nqueens_repair(3, NULL, &o, NULL, cols, s, &res, NULL, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_repair(8, NULL, NULL, NULL, cols, s, &res, NULL, NULL), SEARCH_EINVAL);
    o.start = (nqueens_repair_start_t)3;
    ck_assert_int_eq(nqueens_repair(8, NULL, &o, NULL, cols, s, &res, NULL, NULL), SEARCH_EINVAL);
    o.start = NQUEENS_START_CONSTRUCTED;
    /* every row placed: nothing to do */
    int full[8] = {0, 4, 7, 5, 2, 6, 1, 3};
    ck_assert_int_eq(nqueens_repair(8, full, &o, NULL, cols, s, &res, NULL, NULL), 0);
    ck_assert_mem_eq(cols, full, sizeof full);
    ck_assert_uint_eq(res.steps, 0);
}
END_TEST

/* A deadline already close when a 10^7-queen repair starts: zeroing its
 * 180 MB of scratch and the greedy start took over a second before they
 * polled the clock (found by fuzz/fuzz_api.c: n=5444444 with a 50 ms
 * timeout answered after 1.2 s).  Both now poll; the run must stop with
 * SEARCH_TIMEOUT well within a second of a 20 ms deadline, also under the
 * sanitizers (measured: 25-30 ms after the start, plain and ASan; 2.8 s
 * before the fix), from every start (greedy and random take 3 and 15 s
 * at this n: long by construction). */
START_TEST(nqueens_repair_deadline_at_max_n) {
    const int n = NQUEENS_REPAIR_MAX_N;
    nqueens_repair_opts_t o = {1, 0, NULL, NULL, 0, (nqueens_repair_start_t)_i};
    nqueens_repair_result_t res;
    search_ctl_t ctl = {.deadline_ns = 0};
    int *cols = malloc(sizeof(int) * (size_t)n);
    void *scratch = malloc(nqueens_repair_scratch(n));
    int64_t t0;
    ck_assert_ptr_nonnull(cols);
    ck_assert_ptr_nonnull(scratch);
    t0 = search_now_ns();
    ctl.deadline_ns = t0 + 20 * 1000000LL;
    ck_assert_int_eq(nqueens_repair(n, NULL, &o, &ctl, cols, scratch, &res, NULL, NULL),
                     SEARCH_TIMEOUT);
    ck_assert_msg(search_now_ns() - t0 < 700 * 1000000LL, "stopped %.0f ms after a 20 ms deadline",
                  (double)(search_now_ns() - t0 - 20 * 1000000LL) / 1e6);
    free(scratch);
    free(cols);
}
END_TEST

START_TEST(nqueens_auto_thresholds) {
    ck_assert_int_eq(nqueens_auto_method(8, 0), NQUEENS_METHOD_BACKTRACK);
    ck_assert_int_eq(nqueens_auto_method(NQUEENS_AUTO_BACKTRACK_MAX, 0), NQUEENS_METHOD_BACKTRACK);
    ck_assert_int_eq(nqueens_auto_method(NQUEENS_AUTO_BACKTRACK_MAX + 1, 0),
                     NQUEENS_METHOD_MINCONFLICTS);
    ck_assert_int_eq(nqueens_auto_method(8, 1), NQUEENS_METHOD_MRV);
    ck_assert_int_eq(nqueens_auto_method(NQUEENS_AUTO_MRV_MAX, 1), NQUEENS_METHOD_MRV);
    ck_assert_int_eq(nqueens_auto_method(NQUEENS_AUTO_MRV_MAX + 1, 1), NQUEENS_METHOD_MINCONFLICTS);
}
END_TEST

Suite *nqueens_board_suite(void);

Suite *nqueens_board_suite(void) {
    Suite *s = suite_create("nqueens_board");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, nqueens_board_check_reports_errors);
    tcase_add_test(tc, nqueens_solvers_share_error_codes);
    tcase_add_test(tc, nqueens_board_analyze_examples);
    tcase_add_test(tc, nqueens_board_analyze_wide);
    tcase_add_test(tc, nqueens_complete_matches_brute_force);
    tcase_add_test(tc, nqueens_complete_count_known_case);
    tcase_add_test(tc, nqueens_complete_plan_bounds);
    tcase_add_test(tc, nqueens_enumerate_pages_cover_92);
    tcase_add_test(tc, nqueens_enumerate_skip_matches_listing);
    tcase_add_test(tc, nqueens_mrv_solves_4_to_200);
    tcase_add_test(tc, nqueens_mrv_deterministic);
    tcase_add_test(tc, nqueens_mrv_completes_partial_boards);
    tcase_add_test(tc, nqueens_mrv_honours_budget);
    tcase_add_test(tc, nqueens_mrv_deadline_at_max_n);
    tcase_add_test(tc, nqueens_repair_solves_8_to_2000);
    tcase_add_test(tc, nqueens_repair_start_nearly_conflict_free);
    tcase_add_test(tc, nqueens_repair_reproducible);
    tcase_add_test(tc, nqueens_repair_trace_monotone);
    tcase_add_loop_test(tc, nqueens_repair_keeps_fixed_queens, 0, NSTARTS);
    tcase_add_test(tc, nqueens_repair_starts_differ);
    tcase_add_test(tc, nqueens_repair_limits);
    tcase_add_test(tc, nqueens_auto_thresholds);
    tcase_add_loop_test(tc, nqueens_repair_deadline_at_max_n, 0, NSTARTS);
    suite_add_tcase(s, tc);
    return s;
}
