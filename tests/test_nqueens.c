/* test_nqueens.c -- unit tests for solvers/nqueens/nqueens.c.
 *
 * Counts are checked against OEIS A000170, with and without symmetry, and
 * through every path that produces them: nqueens_count(), and the sum of
 * nqueens_count_sub() over nqueens_split() at several depths, in both orders.
 * The split's buffer contract, the first solution, verification, the search
 * control block (deadline, cancel, node budget) and the statistics each have
 * their own tests.
 *
 * Runtime: about 2 s natively and 4 s under ASan/UBSan, most of it the one
 * n = 16 count and the first solutions up to n = 30; nothing bigger belongs
 * here (bench/bench_nqueens.c does n >= 17).
 *
 * Exports nqueens_suite(); tests/test_main.c runs it. */
#include <check.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/nqueens/nqueens.h"

/* OEIS A000170: number of solutions for n = 0..18. */
static const uint64_t a000170[] = {1,      1,       0,        0,        2,        10,    4,
                                   40,     92,      352,      724,      2680,     14200, 73712,
                                   365596, 2279184, 14772512, 95815104, 666090624};

/* Sums nqueens_count_sub() over a split, forwards or backwards.  Fails the
 * test on any error; returns the count. */
static uint64_t count_by_split(int n, int depth, int symmetry, int reverse) {
    size_t need = 0, got = 0;
    int rc = nqueens_split(n, depth, symmetry, NULL, 0, &need);
    ck_assert_int_eq(rc, need == 0 ? 0 : -2);
    nqueens_sub_t *subs = calloc(need ? need : 1, sizeof *subs);
    ck_assert_ptr_nonnull(subs);
    ck_assert_int_eq(nqueens_split(n, depth, symmetry, subs, need, &got), 0);
    ck_assert_uint_eq(got, need);
    uint64_t units = 0;
    search_stats_t st = {0};
    for (size_t i = 0; i < need; i++) {
        const nqueens_sub_t *s = &subs[reverse ? need - 1 - i : i];
        ck_assert_int_eq(nqueens_count_sub(s, NULL, &units, &st), 0);
    }
    free(subs);
    ck_assert_uint_eq(units % NQUEENS_UNIT, 0);
    return nqueens_units_to_count(units);
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
    static const int ns[] = {4, 5, 8, 11, 12};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const int n = ns[i];
        for (int depth = 1; depth <= 5; depth++) {
            for (int sym = 0; sym <= 1; sym++) {
                const uint64_t fwd = count_by_split(n, depth, sym, 0);
                const uint64_t rev = count_by_split(n, depth, sym, 1);
                ck_assert_msg(fwd == a000170[n] && rev == a000170[n],
                              "n=%d depth=%d sym=%d: %llu / %llu, want %llu", n, depth, sym,
                              (unsigned long long)fwd, (unsigned long long)rev,
                              (unsigned long long)a000170[n]);
            }
        }
    }
    /* the deepest split leaves one row: every subproblem is a leaf test */
    ck_assert_uint_eq(count_by_split(9, 8, 1, 0), a000170[9]);
    ck_assert_uint_eq(count_by_split(9, 8, 0, 1), a000170[9]);
}
END_TEST

START_TEST(nqueens_split_cap_and_count) {
    size_t need = 0, got = 0;
    ck_assert_int_eq(nqueens_split(10, 3, 1, NULL, 0, &need), -2);
    ck_assert_uint_gt(need, 4);

    nqueens_sub_t *all = calloc(need, sizeof *all);
    nqueens_sub_t *part = calloc(need, sizeof *part);
    ck_assert_ptr_nonnull(all);
    ck_assert_ptr_nonnull(part);
    ck_assert_int_eq(nqueens_split(10, 3, 1, all, need, &got), 0);
    ck_assert_uint_eq(got, need);

    /* one short: -2, the needed number, the first cap entries as in a full
     * run, and nothing written past cap */
    memset(part, 0xab, need * sizeof *part);
    got = 0;
    ck_assert_int_eq(nqueens_split(10, 3, 1, part, need - 1, &got), -2);
    ck_assert_uint_eq(got, need);
    ck_assert_int_eq(memcmp(part, all, (need - 1) * sizeof *part), 0);
    const unsigned char *tail = (const unsigned char *)&part[need - 1];
    for (size_t i = 0; i < sizeof *part; i++)
        ck_assert_uint_eq(tail[i], 0xab);

    /* deterministic: a second full run is identical */
    got = 0;
    ck_assert_int_eq(nqueens_split(10, 3, 1, part, need, &got), 0);
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
}
END_TEST

START_TEST(nqueens_split_clamps_depth) {
    nqueens_sub_t subs[512];
    size_t count = 0;
    /* depth 0 is raised to each class's minimum: CORNER fixes two rows */
    ck_assert_int_eq(nqueens_split(8, 0, 1, subs, 512, &count), 0);
    ck_assert_uint_gt(count, 0);
    for (size_t i = 0; i < count; i++) {
        ck_assert_uint_eq(subs[i].n, 8);
        ck_assert_uint_eq(subs[i].depth, subs[i].klass == NQUEENS_CORNER ? 2 : 1);
        ck_assert_int_ne(subs[i].klass, NQUEENS_PLAIN);
    }
    /* depth past the board is cut to n-1; without symmetry all are PLAIN */
    ck_assert_int_eq(nqueens_split(6, 40, 0, subs, 512, &count), 0);
    ck_assert_uint_ge(count, a000170[6]); /* every solution has its own prefix */
    for (size_t i = 0; i < count; i++) {
        ck_assert_uint_eq(subs[i].depth, 5);
        ck_assert_uint_eq(subs[i].klass, NQUEENS_PLAIN);
    }
    /* n = 1: the one subproblem is the whole board */
    ck_assert_int_eq(nqueens_split(1, 3, 1, subs, 512, &count), 0);
    ck_assert_uint_eq(count, 1);
    ck_assert_uint_eq(subs[0].depth, 1);
}
END_TEST

START_TEST(nqueens_count_sub_rejects_bad_sub) {
    nqueens_sub_t subs[64];
    size_t count = 0;
    uint64_t units = 0;
    ck_assert_int_eq(nqueens_split(8, 2, 1, subs, 64, &count), 0);
    const nqueens_sub_t good = subs[0];
    ck_assert_int_eq(nqueens_count_sub(&good, NULL, &units, NULL), 0);

    nqueens_sub_t bad = good;
    bad.cols[1] = 8; /* column off the board */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), SEARCH_EINVAL);
    bad = good;
    bad.cols[1] = bad.cols[0]; /* column clash */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), SEARCH_EINVAL);
    bad = good;
    bad.klass = NQUEENS_PLAIN;
    bad.cols[1] = 1; /* (0,0) and (1,1) share a diagonal */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), SEARCH_EINVAL);
    bad.cols[1] = 3; /* ...while (1,3) is fine for a PLAIN subproblem */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), 0);
    bad = good;
    bad.klass = 7;
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), SEARCH_EINVAL);
    bad = good;
    bad.depth = 9;
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), SEARCH_EINVAL);
    bad = good;
    bad.n = NQUEENS_COUNT_MAX_N + 1;
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), SEARCH_EINVAL);
    bad = good;
    bad.klass = NQUEENS_SIDE;
    bad.bound = 4; /* c0 must be < n-1-c0 */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), SEARCH_EINVAL);
    bad = good;
    bad.klass = NQUEENS_SIDE;
    bad.bound = 2;
    bad.cols[0] = 3; /* the row-0 queen must sit at c0 */
    ck_assert_int_eq(nqueens_count_sub(&bad, NULL, &units, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count_sub(NULL, NULL, &units, NULL), SEARCH_EINVAL);

    /* a prefix may be a whole board (or leave just the forced last row) */
    int cols[NQUEENS_COUNT_MAX_N];
    ck_assert_int_eq(nqueens_first(NQUEENS_COUNT_MAX_N, NULL, cols, NULL), 0);
    nqueens_sub_t full = {.n = NQUEENS_COUNT_MAX_N, .depth = NQUEENS_COUNT_MAX_N};
    for (int y = 0; y < NQUEENS_COUNT_MAX_N; y++)
        full.cols[y] = (uint8_t)cols[y];
    units = 0;
    ck_assert_int_eq(nqueens_count_sub(&full, NULL, &units, NULL), 0);
    ck_assert_uint_eq(units, NQUEENS_UNIT);
    full.depth = NQUEENS_COUNT_MAX_N - 1;
    ck_assert_int_eq(nqueens_count_sub(&full, NULL, &units, NULL), 0);
    ck_assert_uint_eq(units, 2 * NQUEENS_UNIT);
    full.cols[3] = full.cols[4]; /* and a broken one is refused */
    ck_assert_int_eq(nqueens_count_sub(&full, NULL, &units, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(nqueens_count_sub(&good, NULL, NULL, NULL), SEARCH_EINVAL);
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
    search_ctl_t ctl = {search_now_ns() - 1, 0, NULL, NULL};
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
    search_ctl_t ctl = {0, 0, &cancel, NULL};
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
    search_ctl_t ctl = {0, 1000, NULL, NULL};
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
    nqueens_sub_t subs[64];
    size_t n = 0;
    uint64_t units = 0;
    ck_assert_int_eq(nqueens_split(10, 1, 1, subs, 64, &n), 0);
    search_stats_t spent = {.nodes = 5000};
    ck_assert_int_eq(nqueens_count_sub(&subs[0], &ctl, &units, &spent), SEARCH_BUDGET);
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
    nqueens_sub_t subs[64];
    size_t n = 0;
    uint64_t units = 0;
    search_stats_t parts = {0};
    ck_assert_int_eq(nqueens_split(11, 1, 1, subs, 64, &n), 0);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(nqueens_count_sub(&subs[i], NULL, &units, &parts), 0);
    ck_assert_uint_eq(parts.nodes, once);
    ck_assert_uint_eq(nqueens_units_to_count(units), a000170[11]);

    /* a bigger board takes more work */
    search_stats_t big = {0};
    ck_assert_int_eq(nqueens_count(12, 1, NULL, &cb, &big), 0);
    ck_assert_uint_gt(big.nodes, once);
}
END_TEST

START_TEST(nqueens_units_convert) {
    ck_assert_uint_eq(NQUEENS_UNIT, 3);
    ck_assert_uint_eq(nqueens_units_to_count(24), 8);
    ck_assert_uint_eq(nqueens_units_to_count(6 + 12 + 8 + 3), 9);
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
    tcase_add_test(tc, nqueens_count_rejects_bad_n);
    tcase_add_test(tc, nqueens_split_sums_to_count);
    tcase_add_test(tc, nqueens_split_cap_and_count);
    tcase_add_test(tc, nqueens_split_rejects_bad_n);
    tcase_add_test(tc, nqueens_split_clamps_depth);
    tcase_add_test(tc, nqueens_count_sub_rejects_bad_sub);
    tcase_add_test(tc, nqueens_first_known_answers);
    tcase_add_test(tc, nqueens_first_unsolvable_and_bad_n);
    tcase_add_test(tc, nqueens_first_solutions_verify);
    tcase_add_test(tc, nqueens_verify_rejects_bad_boards);
    tcase_add_test(tc, nqueens_count_deadline_passed);
    tcase_add_test(tc, nqueens_count_cancelled);
    tcase_add_test(tc, nqueens_count_node_budget);
    tcase_add_test(tc, nqueens_stats_repeatable);
    tcase_add_test(tc, nqueens_units_convert);
    suite_add_tcase(s, tc);
    return s;
}
