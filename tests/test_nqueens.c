/* test_nqueens.c -- unit tests for solvers/nqueens/nqueens.c and the
 * counting engine behind it (solvers/nqueens/count.c).
 *
 * Counts are checked against OEIS A000170, with and without symmetry, and
 * through every path that produces them: nqueens_count(), the sum over
 * nqueens_split() at several pre-placement depths (one by one and in
 * batches, in both orders), and against two independent counters: exact
 * cover (nqueens/xc.h) and a plain recursive counter in this file, which
 * also checks every subproblem of a split on its own.  The split's buffer
 * contract, the class sizes, the first solution, verification, the search
 * control block (deadline, cancel, node budget) and the statistics each have
 * their own tests.
 *
 * Runtime: about 2 s natively and 5 s under ASan/UBSan, most of it the
 * n = 16 count and the first solutions up to n = 30; nothing bigger belongs
 * here (bench/bench_nqueens.c does n >= 17).
 *
 * Exports nqueens_suite(); tests/test_main.c runs it. */
#include <check.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/nqueens/count.h"
#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/xc.h"

/* OEIS A000170: number of solutions for n = 0..18. */
static const uint64_t a000170[] = {1,      1,       0,        0,        2,        10,    4,
                                   40,     92,      352,      724,      2680,     14200, 73712,
                                   365596, 2279184, 14772512, 95815104, 666090624};

/* The split of (n, preplace, symmetry) in a fresh buffer (free it); fails
 * the test on a broken buffer contract. */
static nqueens_sub_t *split_all(int n, int preplace, int symmetry, size_t *count) {
    size_t need = 0, got = 0;
    const int rc = nqueens_split(n, preplace, symmetry, NULL, 0, &need);
    ck_assert_int_eq(rc, need == 0 ? 0 : -2);
    nqueens_sub_t *subs = calloc(need ? need : 1, sizeof *subs);
    ck_assert_ptr_nonnull(subs);
    ck_assert_int_eq(nqueens_split(n, preplace, symmetry, subs, need, &got), 0);
    ck_assert_uint_eq(got, need);
    *count = need;
    return subs;
}

/* Sums nqueens_count_sub() over a split, forwards or backwards, and checks
 * that nqueens_count_subs() over the whole split (and over two halves)
 * agrees.  Returns the count. */
static uint64_t count_by_split(int n, int preplace, int symmetry, int reverse) {
    size_t k = 0;
    nqueens_sub_t *subs = split_all(n, preplace, symmetry, &k);
    uint64_t one = 0, all = 0, halves = 0;
    search_stats_t st = {0};
    for (size_t i = 0; i < k; i++)
        ck_assert_int_eq(nqueens_count_sub(&subs[reverse ? k - 1 - i : i], NULL, &one, &st), 0);
    ck_assert_int_eq(nqueens_count_subs(subs, k, NULL, &all, NULL), 0);
    ck_assert_int_eq(nqueens_count_subs(subs, k / 2, NULL, &halves, NULL), 0);
    ck_assert_int_eq(nqueens_count_subs(subs + k / 2, k - k / 2, NULL, &halves, NULL), 0);
    ck_assert_uint_eq(one, all);
    ck_assert_uint_eq(halves, all);
    free(subs);
    return all;
}

/* === An independent counter === */

/* Completions of a partial board (cols[r] < 0: free), by plain recursion
 * over the rows with a square-by-square attack test: slow and obviously
 * right, nothing shared with the solver. */
static uint64_t ref_count(int n, int *cols, int y) {
    if (y == n) return 1;
    if (cols[y] >= 0) {
        for (int k = 0; k < n; k++)
            if (k != y && cols[k] >= 0 &&
                (cols[k] == cols[y] || abs(cols[k] - cols[y]) == abs(k - y)))
                return 0;
        return ref_count(n, cols, y + 1);
    }
    uint64_t sum = 0;
    for (int c = 0; c < n; c++) {
        int ok = 1;
        for (int k = 0; k < n && ok; k++)
            if (cols[k] >= 0 && (cols[k] == c || abs(cols[k] - c) == abs(k - y))) ok = 0;
        if (!ok) continue;
        cols[y] = c;
        sum += ref_count(n, cols, y + 1);
        cols[y] = -1;
    }
    return sum;
}

static uint64_t ref_count_sub(const nqueens_sub_t *s) {
    int cols[NQUEENS_COUNT_MAX_N];
    for (int r = 0; r < s->n; r++)
        cols[r] = s->cols[r] == NQUEENS_FREE ? -1 : s->cols[r];
    return s->weight * ref_count(s->n, cols, 0);
}

/* === Counting === */

START_TEST(nqueens_count_matches_oeis) {
    for (int n = 1; n <= 15; n++) {
        uint64_t count = 12345;
        ck_assert_int_eq(nqueens_count(n, 1, NULL, &count, NULL), 0);
        ck_assert_msg(count == a000170[n], "n=%d: %llu, want %llu", n, (unsigned long long)count,
                      (unsigned long long)a000170[n]);
    }
}
END_TEST

START_TEST(nqueens_count_16_matches_oeis) {
    uint64_t count = 0;
    ck_assert_int_eq(nqueens_count(16, 1, NULL, &count, NULL), 0);
    ck_assert_uint_eq(count, a000170[16]);
}
END_TEST

START_TEST(nqueens_count_without_symmetry_agrees) {
    for (int n = 1; n <= 14; n++) {
        uint64_t count = 12345;
        ck_assert_int_eq(nqueens_count(n, 0, NULL, &count, NULL), 0);
        ck_assert_msg(count == a000170[n], "n=%d: %llu, want %llu", n, (unsigned long long)count,
                      (unsigned long long)a000170[n]);
    }
}
END_TEST

START_TEST(nqueens_count_agrees_with_exact_cover) {
    for (int n = 1; n <= 10; n++) {
        uint64_t mine = 0, xc = 0;
        ck_assert_int_eq(nqueens_count(n, 1, NULL, &mine, NULL), 0);
        ck_assert_int_eq(nqueens_xc_count(n, XCOVER_ENGINE_DLX, NULL, &xc, NULL), 0);
        ck_assert_msg(mine == xc, "n=%d: %llu vs exact cover %llu", n, (unsigned long long)mine,
                      (unsigned long long)xc);
    }
}
END_TEST

START_TEST(nqueens_count_rejects_bad_n) {
    uint64_t count = 777;
    ck_assert_int_eq(nqueens_count(0, 1, NULL, &count, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count(NQUEENS_COUNT_MAX_N + 1, 1, NULL, &count, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count(-3, 0, NULL, &count, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count(8, 1, NULL, NULL, NULL), SEARCH_EINVAL);
    ck_assert_uint_eq(count, 777); /* untouched on failure */
}
END_TEST

/* === Splitting === */

START_TEST(nqueens_split_sums_to_count) {
    static const int ns[] = {1, 2, 3, 4, 5, 6, 8, 11, 12};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const int n = ns[i];
        for (int pre = 0; pre <= 4; pre++) {
            for (int sym = 0; sym <= 1; sym++) {
                const uint64_t fwd = count_by_split(n, pre, sym, 0);
                const uint64_t rev = count_by_split(n, pre, sym, 1);
                ck_assert_msg(fwd == a000170[n] && rev == a000170[n],
                              "n=%d preplace=%d sym=%d: %llu / %llu, want %llu", n, pre, sym,
                              (unsigned long long)fwd, (unsigned long long)rev,
                              (unsigned long long)a000170[n]);
            }
        }
    }
}
END_TEST

/* The table of split sizes is the enumeration's. */
START_TEST(nqueens_split_size_matches_split) {
    for (int n = 1; n <= NQUEENS_COUNT_MAX_N; n++)
        for (int pre = 0; pre <= 1; pre++)
            for (int sym = 0; sym <= 1; sym++) {
                size_t table = 0, walked = 0;
                ck_assert_int_eq(nqueens_split_size(n, pre, sym, &table), 0);
                ck_assert_int_eq(nqueens_split(n, pre, sym, NULL, 0, &walked), walked ? -2 : 0);
                ck_assert_msg(table == walked, "n=%d preplace=%d sym=%d: table %zu, split %zu", n,
                              pre, sym, table, walked);
            }
    size_t k = 0;
    ck_assert_int_eq(nqueens_split_size(0, 0, 1, &k), -1);
    ck_assert_int_eq(nqueens_split_size(28, 0, 1, &k), -1);
    ck_assert_int_eq(nqueens_split_size(12, 2, 1, &k), -1);
}
END_TEST

/* Slices of the split: whatever their number, they hold every subproblem
 * once (as many as the split has) and sum to the count. */
START_TEST(nqueens_slices_cover_the_split) {
    static const uint64_t nslices[] = {1, 2, 7, 64, 1000};
    for (int n = 1; n <= 13; n++)
        for (int pre = 0; pre <= 1; pre++)
            for (int sym = 0; sym <= 1; sym++)
                for (size_t i = 0; i < sizeof nslices / sizeof *nslices; i++) {
                    uint64_t count = 0;
                    size_t subs = 0, want = 0;
                    for (uint64_t k = 0; k < nslices[i]; k++)
                        ck_assert_int_eq(nqueens_count_slice(n, pre, sym, k, nslices[i], NULL,
                                                             &count, &subs, NULL),
                                         0);
                    ck_assert_int_eq(nqueens_split_size(n, pre, sym, &want), 0);
                    ck_assert_msg(count == a000170[n] && subs == want,
                                  "n=%d preplace=%d sym=%d in %llu slices: count %llu, %zu "
                                  "subproblems (want %zu)",
                                  n, pre, sym, (unsigned long long)nslices[i],
                                  (unsigned long long)count, subs, want);
                }
    uint64_t c = 5;
    size_t k = 5;
    ck_assert_int_eq(nqueens_count_slice(12, 0, 1, 3, 3, NULL, &c, &k, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count_slice(12, 2, 1, 0, 3, NULL, &c, &k, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count_slice(12, 0, 1, 0, 0, NULL, &c, &k, NULL), SEARCH_EINVAL);
    search_ctl_t past = {.deadline_ns = search_now_ns() - 1};
    ck_assert_int_eq(nqueens_count_slice(12, 0, 1, 0, 1, &past, &c, &k, NULL), SEARCH_TIMEOUT);
    ck_assert(c == 5 && k == 5);
}
END_TEST

/* Every subproblem, counted by the engine and by the plain counter. */
START_TEST(nqueens_subproblems_match_reference) {
    static const struct {
        int n, pre, sym;
    } cases[] = {{6, 0, 0}, {7, 1, 1}, {8, 0, 1}, {8, 2, 0}, {9, 1, 1}, {10, 0, 1}, {10, 3, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t k = 0;
        nqueens_sub_t *subs = split_all(cases[c].n, cases[c].pre, cases[c].sym, &k);
        ck_assert_uint_gt(k, 0);
        for (size_t i = 0; i < k; i++) {
            uint64_t mine = 0;
            ck_assert_int_eq(nqueens_count_sub(&subs[i], NULL, &mine, NULL), 0);
            ck_assert_msg(mine == ref_count_sub(&subs[i]), "n=%d sub %zu: %llu vs %llu", cases[c].n,
                          i, (unsigned long long)mine, (unsigned long long)ref_count_sub(&subs[i]));
        }
        free(subs);
    }
}
END_TEST

/* The class sizes add up to the placements: splitting with symmetry keeps
 * one board per class, weighted by the class size, so the weights sum to
 * the number of boards the split without symmetry has; and every weight is
 * a class size (8, 4 or 2, or 1 for the single queen of n = 1). */
START_TEST(nqueens_split_weights_are_class_sizes) {
    for (int n = 1; n <= 13; n++) {
        size_t ksym = 0, kall = 0;
        nqueens_sub_t *sym = split_all(n, 0, 1, &ksym);
        nqueens_sub_t *all = split_all(n, 0, 0, &kall);
        uint64_t weights = 0;
        for (size_t i = 0; i < ksym; i++) {
            const int w = sym[i].weight;
            ck_assert(n == 1 ? w == 1 : (w == 2 || w == 4 || w == 8));
            weights += (uint64_t)w;
        }
        for (size_t i = 0; i < kall; i++)
            ck_assert_uint_eq(all[i].weight, 1);
        ck_assert_msg(weights == kall, "n=%d: weights %llu, placements %zu", n,
                      (unsigned long long)weights, kall);
        ck_assert_uint_le(ksym * 2, kall + (n == 1));
        free(sym);
        free(all);
    }
}
END_TEST

/* Pre-placing every row leaves whole boards: without symmetry they are
 * exactly the solutions. */
START_TEST(nqueens_split_to_the_bottom_lists_solutions) {
    unsigned char scratch[64];
    int cols[8];
    size_t k = 0;
    nqueens_sub_t *subs = split_all(8, 40, 0, &k);
    ck_assert_uint_eq(k, 92);
    for (size_t i = 0; i < k; i++) {
        for (int r = 0; r < 8; r++)
            cols[r] = subs[i].cols[r];
        ck_assert(nqueens_verify(8, cols, scratch));
        for (size_t j = 0; j < i; j++)
            ck_assert(memcmp(subs[i].cols, subs[j].cols, 8) != 0);
    }
    free(subs);
    subs = split_all(8, 40, 1, &k); /* with symmetry: the classes, weighted */
    uint64_t w = 0;
    for (size_t i = 0; i < k; i++)
        w += subs[i].weight;
    ck_assert_uint_eq(w, 92);
    ck_assert_uint_eq(k, 12); /* the 12 fundamental solutions of n = 8 */
    free(subs);
}
END_TEST

START_TEST(nqueens_split_cap_and_count) {
    size_t need = 0, got = 0;
    ck_assert_int_eq(nqueens_split(10, 1, 1, NULL, 0, &need), -2);
    ck_assert_uint_gt(need, 4);

    nqueens_sub_t *all = calloc(need, sizeof *all);
    nqueens_sub_t *part = calloc(need, sizeof *part);
    ck_assert_ptr_nonnull(all);
    ck_assert_ptr_nonnull(part);
    ck_assert_int_eq(nqueens_split(10, 1, 1, all, need, &got), 0);
    ck_assert_uint_eq(got, need);

    /* one short: -2, the needed number, the first cap entries as in a full
     * run, and nothing written past cap */
    memset(part, 0xab, need * sizeof *part);
    got = 0;
    ck_assert_int_eq(nqueens_split(10, 1, 1, part, need - 1, &got), -2);
    ck_assert_uint_eq(got, need);
    ck_assert_int_eq(memcmp(part, all, (need - 1) * sizeof *part), 0);
    const unsigned char *tail = (const unsigned char *)&part[need - 1];
    for (size_t i = 0; i < sizeof *part; i++)
        ck_assert_uint_eq(tail[i], 0xab);

    /* deterministic: a second full run is identical */
    got = 0;
    ck_assert_int_eq(nqueens_split(10, 1, 1, part, need, &got), 0);
    ck_assert_int_eq(memcmp(part, all, need * sizeof *part), 0);
    free(all);
    free(part);
}
END_TEST

START_TEST(nqueens_split_rejects_bad_n) {
    nqueens_sub_t subs[4];
    size_t count = 99;
    ck_assert_int_eq(nqueens_split(0, 2, 1, subs, 4, &count), -1);
    ck_assert_int_eq(nqueens_split(-1, 2, 0, subs, 4, &count), -1);
    ck_assert_int_eq(nqueens_split(NQUEENS_COUNT_MAX_N + 1, 2, 1, subs, 4, &count), -1);
    ck_assert_uint_eq(count, 99);
    ck_assert_int_eq(nqueens_split(8, 2, 1, subs, 4, NULL), -1);
    ck_assert_int_eq(nqueens_split(8, 2, 1, NULL, 4, &count), -1);
}
END_TEST

START_TEST(nqueens_split_shapes) {
    nqueens_sub_t subs[512];
    size_t count = 0;
    /* no pre-placement: the border queens alone, three or four of them */
    ck_assert_int_eq(nqueens_split(8, 0, 1, subs, 512, &count), 0);
    ck_assert_uint_gt(count, 0);
    for (size_t i = 0; i < count; i++) {
        int placed = 0;
        ck_assert_uint_eq(subs[i].n, 8);
        ck_assert_uint_ne(subs[i].cols[0], NQUEENS_FREE);
        ck_assert_uint_ne(subs[i].cols[7], NQUEENS_FREE);
        for (int r = 0; r < 8; r++)
            placed += subs[i].cols[r] != NQUEENS_FREE;
        ck_assert(placed == 3 || placed == 4);
    }
    /* a negative depth is 0 */
    size_t again = 0;
    ck_assert_int_eq(nqueens_split(8, -5, 1, subs, 512, &again), 0);
    ck_assert_uint_eq(again, count);
    /* n = 2, 3: no placement; n = 1: the board itself */
    ck_assert_int_eq(nqueens_split(2, 0, 1, subs, 512, &count), 0);
    ck_assert_uint_eq(count, 0);
    ck_assert_int_eq(nqueens_split(3, 2, 0, subs, 512, &count), 0);
    ck_assert_uint_eq(count, 0);
    ck_assert_int_eq(nqueens_split(1, 3, 1, subs, 512, &count), 0);
    ck_assert_uint_eq(count, 1);
    ck_assert_uint_eq(subs[0].cols[0], 0);
    ck_assert_uint_eq(subs[0].weight, 1);
}
END_TEST

/* n = 27 boards with a few free rows far apart (shifts of up to 26 rows
 * between levels, the full word width): the engine against the plain
 * counter.  The fixed queens come from a solution, so each board has at
 * least one completion. */
START_TEST(nqueens_count_sub_wide_gaps_match_reference) {
    const int n = NQUEENS_COUNT_MAX_N;
    int sol[NQUEENS_COUNT_MAX_N];
    uint64_t seed = 12345;
    ck_assert_int_eq(nqueens_first(n, NULL, sol, NULL), 0);
    for (int t = 0; t < 40; t++) {
        nqueens_sub_t s = {.n = (uint8_t)n, .weight = 2};
        for (int r = 0; r < n; r++)
            s.cols[r] = (uint8_t)sol[r];
        const int k = 2 + t % 6; /* free rows */
        for (int i = 0; i < k; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            s.cols[(seed >> 33) % (uint64_t)n] = NQUEENS_FREE;
        }
        if (t == 0) s.cols[0] = s.cols[n - 1] = NQUEENS_FREE; /* the widest gap */
        uint64_t mine = 0;
        ck_assert_int_eq(nqueens_count_sub(&s, NULL, &mine, NULL), 0);
        ck_assert_uint_ge(mine, 2);
        ck_assert_uint_eq(mine, ref_count_sub(&s));
    }
}
END_TEST

START_TEST(nqueens_count_sub_rejects_bad_sub) {
    nqueens_sub_t subs[512];
    size_t count = 0;
    uint64_t c = 0;
    ck_assert_int_eq(nqueens_split(8, 1, 1, subs, 512, &count), 0);
    const nqueens_sub_t good = subs[0];
    ck_assert_int_eq(nqueens_count_sub(&good, NULL, &c, NULL), 0);

    nqueens_sub_t bad = good;
    bad.cols[0] = 8; /* column off the board */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &c, NULL), SEARCH_EINVAL);
    bad = good;
    bad.cols[7] = bad.cols[0]; /* column clash */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &c, NULL), SEARCH_EINVAL);
    bad = good;
    memset(bad.cols, NQUEENS_FREE, sizeof bad.cols);
    bad.cols[2] = 1;
    bad.cols[5] = 4; /* (2,1) and (5,4) share a diagonal */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &c, NULL), SEARCH_EINVAL);
    bad.cols[5] = 5; /* ...while (5,5) is fine: any partial board is a subproblem */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &c, NULL), 0);
    bad.weight = 3;
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &c, NULL), SEARCH_EINVAL);
    bad.weight = 0;
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &c, NULL), SEARCH_EINVAL);
    bad = good;
    bad.n = 0;
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &c, NULL), SEARCH_EINVAL);
    bad.n = NQUEENS_COUNT_MAX_N + 1;
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &c, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count_sub(NULL, NULL, &c, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count_sub(&good, NULL, NULL, NULL), SEARCH_EINVAL);
    /* a batch is checked whole before anything is counted */
    subs[3] = bad;
    const uint64_t before = c;
    ck_assert_int_eq(nqueens_count_subs(subs, count, NULL, &c, NULL), SEARCH_EINVAL);
    ck_assert_uint_eq(c, before);

    /* a subproblem may be a whole board, or leave just one row */
    int cols[NQUEENS_COUNT_MAX_N];
    ck_assert_int_eq(nqueens_first(NQUEENS_COUNT_MAX_N, NULL, cols, NULL), 0);
    nqueens_sub_t full = {.n = NQUEENS_COUNT_MAX_N, .weight = 4};
    for (int y = 0; y < NQUEENS_COUNT_MAX_N; y++)
        full.cols[y] = (uint8_t)cols[y];
    c = 0;
    ck_assert_int_eq(nqueens_count_sub(&full, NULL, &c, NULL), 0);
    ck_assert_uint_eq(c, 4);
    full.cols[11] = NQUEENS_FREE;
    full.weight = 1;
    ck_assert_int_eq(nqueens_count_sub(&full, NULL, &c, NULL), 0);
    ck_assert_uint_eq(c, 5);
    full.cols[3] = full.cols[4]; /* and a broken one is refused */
    ck_assert_int_eq(nqueens_count_sub(&full, NULL, &c, NULL), SEARCH_EINVAL);
}
END_TEST

/* === First solution and verification === */

START_TEST(nqueens_first_known_answers) {
    static const int want8[] = {0, 4, 7, 5, 2, 6, 1, 3};
    static const int want9[] = {0, 2, 5, 7, 1, 3, 8, 6, 4};
    static const int want10[] = {0, 2, 5, 7, 9, 4, 8, 1, 3, 6};
    int cols[NQUEENS_SOLVE_MAX_N];

    ck_assert_int_eq(nqueens_first(8, NULL, cols, NULL), 0);
    ck_assert_int_eq(memcmp(cols, want8, sizeof want8), 0);
    ck_assert_int_eq(nqueens_first(9, NULL, cols, NULL), 0);
    ck_assert_int_eq(memcmp(cols, want9, sizeof want9), 0);
    ck_assert_int_eq(nqueens_first(10, NULL, cols, NULL), 0);
    ck_assert_int_eq(memcmp(cols, want10, sizeof want10), 0);
    cols[0] = 5;
    ck_assert_int_eq(nqueens_first(1, NULL, cols, NULL), 0);
    ck_assert_int_eq(cols[0], 0);
}
END_TEST

START_TEST(nqueens_first_unsolvable_and_bad_n) {
    int cols[NQUEENS_SOLVE_MAX_N + 1];
    ck_assert_int_eq(nqueens_first(2, NULL, cols, NULL), 1);
    ck_assert_int_eq(nqueens_first(3, NULL, cols, NULL), 1);
    ck_assert_int_eq(nqueens_first(0, NULL, cols, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_first(NQUEENS_SOLVE_MAX_N + 1, NULL, cols, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_first(8, NULL, NULL, NULL), SEARCH_EINVAL);
}
END_TEST

START_TEST(nqueens_first_solutions_verify) {
    int cols[30];
    unsigned char scratch[5 * 30];
    ck_assert_uint_le(nqueens_verify_scratch(30), sizeof scratch);
    for (int n = 1; n <= 30; n++) {
        if (n == 2 || n == 3) continue;
        search_stats_t st = {0};
        ck_assert_int_eq(nqueens_first(n, NULL, cols, &st), 0);
        ck_assert_msg(nqueens_verify(n, cols, scratch) == 1, "n=%d", n);
        ck_assert_uint_ge(st.nodes, (uint64_t)n);
        ck_assert_uint_eq(st.max_depth, (uint32_t)n);
    }
}
END_TEST

START_TEST(nqueens_verify_rejects_bad_boards) {
    unsigned char scratch[64] = {0};
    ck_assert_uint_le(nqueens_verify_scratch(8), sizeof scratch);
    const int good[8] = {0, 4, 7, 5, 2, 6, 1, 3};
    int b[8];
    ck_assert_int_eq(nqueens_verify(8, good, scratch), 1);

    memcpy(b, good, sizeof b);
    b[5] = 4; /* column clash with row 1 */
    ck_assert_int_eq(nqueens_verify(8, b, scratch), 0);
    /* each bad board breaks exactly one rule */
    const int diag[6] = {0, 1, 3, 5, 2, 4};      /* (0,0), (1,1): r - c equal */
    const int anti[6] = {1, 3, 5, 2, 4, 0};      /* (3,2), (5,0): r + c equal */
    const int far[6] = {0, 2, 4, 1, 5, 3};       /* (1,2), (4,5): three rows apart */
    const int range_hi[6] = {1, 3, 5, 0, 2, 6};  /* column n */
    const int range_lo[6] = {1, 3, 5, 0, 2, -1}; /* negative column */
    const int ok6[6] = {1, 3, 5, 0, 2, 4};
    ck_assert_int_eq(nqueens_verify(6, ok6, scratch), 1);
    ck_assert_int_eq(nqueens_verify(6, diag, scratch), 0);
    ck_assert_int_eq(nqueens_verify(6, anti, scratch), 0);
    ck_assert_int_eq(nqueens_verify(6, far, scratch), 0);
    ck_assert_int_eq(nqueens_verify(6, range_hi, scratch), 0);
    ck_assert_int_eq(nqueens_verify(6, range_lo, scratch), 0);
    const int edge2[2] = {0, 2}; /* column n, and no other clash */
    unsigned char fresh[16] = {0};
    ck_assert_int_eq(nqueens_verify(2, edge2, fresh), 0);
    ck_assert_int_eq(nqueens_verify(0, good, scratch), 0);
    ck_assert_int_eq(nqueens_verify(8, NULL, scratch), 0);
    ck_assert_int_eq(nqueens_verify(8, good, NULL), 0);
}
END_TEST

/* === Search control and statistics === */

START_TEST(nqueens_count_deadline_passed) {
    search_ctl_t ctl = {.deadline_ns = search_now_ns() - 1};
    uint64_t count = 42;
    ck_assert_int_eq(nqueens_count(18, 1, &ctl, &count, NULL), SEARCH_TIMEOUT);
    ck_assert_uint_eq(count, 42);
    int cols[40];
    ck_assert_int_eq(nqueens_first(34, &ctl, cols, NULL), SEARCH_TIMEOUT);
}
END_TEST

START_TEST(nqueens_count_cancelled) {
    atomic_int cancel;
    atomic_init(&cancel, 1);
    search_ctl_t ctl = {.deadline_ns = 0, .cancel = &cancel};
    uint64_t count = 42;
    ck_assert_int_eq(nqueens_count(18, 1, &ctl, &count, NULL), SEARCH_CANCELLED);
    ck_assert_uint_eq(count, 42);
    int cols[40];
    ck_assert_int_eq(nqueens_first(34, &ctl, cols, NULL), SEARCH_CANCELLED);
    atomic_store(&cancel, 0); /* lowered again: the search runs */
    ck_assert_int_eq(nqueens_count(8, 1, &ctl, &count, NULL), 0);
    ck_assert_uint_eq(count, 92);
}
END_TEST

START_TEST(nqueens_count_node_budget) {
    /* the budget is checked when the node figure crosses a multiple of
     * SEARCH_POLL_MASK+1, so the search stops within one poll interval */
    search_ctl_t ctl = {.node_budget = 1000};
    search_stats_t st = {0};
    uint64_t count = 42;
    ck_assert_int_eq(nqueens_count(18, 1, &ctl, &count, &st), SEARCH_BUDGET);
    ck_assert_uint_eq(count, 42);
    ck_assert_uint_ge(st.nodes, 1000);
    ck_assert_uint_le(st.nodes, 4 * (SEARCH_POLL_MASK + 1));

    int cols[40];
    search_stats_t fst = {0};
    ck_assert_int_eq(nqueens_first(34, &ctl, cols, &fst), SEARCH_BUDGET);
    ck_assert_uint_le(fst.nodes, 2 * (SEARCH_POLL_MASK + 1));

    /* one budget covers everything summed into one stats block */
    nqueens_sub_t subs[512];
    size_t n = 0;
    uint64_t c = 0;
    ck_assert_int_eq(nqueens_split(10, 0, 1, subs, 512, &n), 0);
    search_stats_t spent = {.nodes = 5000};
    ck_assert_int_eq(nqueens_count_sub(&subs[0], &ctl, &c, &spent), SEARCH_BUDGET);
    ck_assert_uint_eq(c, 0);
}
END_TEST

/* An endless source of full boards (nothing to search: each counts 1): the
 * engine took boards until one needed a search, without polling, so a
 * source like it ran forever past any deadline or cancel flag.  Now it
 * polls every few thousand boards. */
static int full_board_forever(void *ctx, nqueens_sub_t *out) {
    memset(out, 0, sizeof *out);
    out->n = 8;
    out->weight = 1;
    memcpy(out->cols, (const uint8_t[]){0, 4, 7, 5, 2, 6, 1, 3}, 8);
    ++*(uint64_t *)ctx;
    return 1;
}

START_TEST(nqueens_count_polls_between_boards) {
    atomic_int cancel;
    atomic_init(&cancel, 0);
    uint64_t boards = 0, count = 42;
    search_stats_t st = {0};
    search_ctl_t ctl = {.deadline_ns = search_now_ns() + 20 * 1000000LL, .cancel = &cancel};
    ck_assert_int_eq(nqueens__count_boards(full_board_forever, &boards, NULL, &ctl, &count, &st),
                     SEARCH_TIMEOUT);
    ck_assert_uint_eq(count, 42);
    ck_assert_uint_gt(boards, 0);
    ctl.deadline_ns = 0;
    atomic_store(&cancel, 1); /* seen at the first poll */
    ck_assert_int_eq(nqueens__count_boards(full_board_forever, &boards, NULL, &ctl, &count, &st),
                     SEARCH_CANCELLED);
}
END_TEST

/* A count advances ctl->progress (the pool's live work counter) as it goes,
 * by the steps made between its polls, and by the rest at the end. */
START_TEST(nqueens_count_reports_progress) {
    atomic_uint_fast64_t progress;
    atomic_init(&progress, 0);
    search_ctl_t ctl = {.progress = &progress};
    search_stats_t st = {0};
    uint64_t count = 0;
    ck_assert_int_eq(nqueens_count(13, 1, &ctl, &count, &st), 0);
    ck_assert_uint_eq(count, a000170[13]);
    ck_assert_uint_gt(st.nodes, 0);
    ck_assert_uint_eq(atomic_load(&progress), st.nodes);
}
END_TEST

START_TEST(nqueens_stats_repeatable) {
    search_stats_t a = {0}, b = {0};
    uint64_t ca = 0, cb = 0;
    ck_assert_int_eq(nqueens_count(11, 1, NULL, &ca, &a), 0);
    ck_assert_int_eq(nqueens_count(11, 1, NULL, &cb, &b), 0);
    ck_assert_uint_eq(ca, cb);
    ck_assert_uint_gt(a.nodes, ca / 8);
    ck_assert_uint_eq(a.nodes, b.nodes);
    ck_assert_uint_eq(a.backtracks, b.backtracks);
    ck_assert_uint_lt(a.backtracks, a.nodes);
    ck_assert_uint_eq(a.max_depth, 11);

    /* stats are added to, never reset */
    const uint64_t once = a.nodes;
    ck_assert_int_eq(nqueens_count(11, 1, NULL, &ca, &a), 0);
    ck_assert_uint_eq(a.nodes, 2 * once);

    /* the split's parts add up to the whole: the same work either way */
    nqueens_sub_t subs[512];
    size_t n = 0;
    uint64_t sum = 0;
    search_stats_t parts = {0};
    ck_assert_int_eq(nqueens_split(11, 0, 1, subs, 512, &n), 0);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(nqueens_count_sub(&subs[i], NULL, &sum, &parts), 0);
    ck_assert_uint_eq(parts.nodes, once);
    ck_assert_uint_eq(sum, a000170[11]);

    /* a bigger board takes more work */
    search_stats_t big = {0};
    ck_assert_int_eq(nqueens_count(12, 1, NULL, &cb, &big), 0);
    ck_assert_uint_gt(big.nodes, once);
}
END_TEST

Suite *nqueens_suite(void); /* called by tests/test_main.c */

Suite *nqueens_suite(void) {
    Suite *s = suite_create("nqueens");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, nqueens_count_matches_oeis);
    tcase_add_test(tc, nqueens_count_16_matches_oeis);
    tcase_add_test(tc, nqueens_count_without_symmetry_agrees);
    tcase_add_test(tc, nqueens_count_agrees_with_exact_cover);
    tcase_add_test(tc, nqueens_count_rejects_bad_n);
    tcase_add_test(tc, nqueens_split_sums_to_count);
    tcase_add_test(tc, nqueens_subproblems_match_reference);
    tcase_add_test(tc, nqueens_split_weights_are_class_sizes);
    tcase_add_test(tc, nqueens_split_to_the_bottom_lists_solutions);
    tcase_add_test(tc, nqueens_split_cap_and_count);
    tcase_add_test(tc, nqueens_split_rejects_bad_n);
    tcase_add_test(tc, nqueens_split_shapes);
    tcase_add_test(tc, nqueens_count_sub_wide_gaps_match_reference);
    tcase_add_test(tc, nqueens_count_sub_rejects_bad_sub);
    tcase_add_test(tc, nqueens_first_known_answers);
    tcase_add_test(tc, nqueens_first_unsolvable_and_bad_n);
    tcase_add_test(tc, nqueens_first_solutions_verify);
    tcase_add_test(tc, nqueens_verify_rejects_bad_boards);
    tcase_add_test(tc, nqueens_count_deadline_passed);
    tcase_add_test(tc, nqueens_split_size_matches_split);
    tcase_add_test(tc, nqueens_slices_cover_the_split);
    tcase_add_test(tc, nqueens_count_polls_between_boards);
    tcase_add_test(tc, nqueens_count_cancelled);
    tcase_add_test(tc, nqueens_count_node_budget);
    tcase_add_test(tc, nqueens_count_reports_progress);
    tcase_add_test(tc, nqueens_stats_repeatable);
    suite_add_tcase(s, tc);
    return s;
}
