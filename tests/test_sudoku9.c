/* test_sudoku9.c -- the fast 9x9 solver (solvers/sudoku/sudoku9.h) against the
 * general propagation method of sudoku_solve(), which the other suites
 * already check against every method.
 *
 *  - fixtures: every line of tests/fixtures/sudoku_9.txt (count and unique
 *    solution from the file, counts and the exhausted flag from propagation);
 *  - generated puzzles: random solved grids (a base grid under random digit,
 *    row, column, band, stack permutations and transposition) with random
 *    clues kept, from 17 to 45 of them, so many have several solutions and
 *    some none after a random given is changed; counts compared with
 *    max_solutions 1, 2, 10 and (for some) 1000;
 *  - the empty grid (10000 solutions, limit respected, all distinct), solved
 *    grids, unsolvable but consistent givens, conflicting givens, bad input;
 *  - limits: past deadline, cancel flag, node budget, and a deadline or
 *    flag that turns while the solver is busy;
 *  - the no-guess flag and the guess counter;
 *  - hard and many-solution puzzles (every kind of guess, the depth bound);
 *  - the builds (sudoku9.h: portable, scalar, avx2 where the CPU has it):
 *    every solve above runs through each build this machine supports, and
 *    all must return the same code, solutions (byte for byte, in order),
 *    counts and statistics; the limits run through each build too.
 * Every solution returned is checked with sudoku_check_solution().  The
 * random generator is a local xorshift with fixed seeds, so runs repeat.
 *
 * Fixtures are read relative to the working directory (make test runs from
 * the repository root); SUDOKU_FIXTURES=dir overrides. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/sudoku/sudoku.h"
#include "solvers/sudoku/sudoku9.h"

Suite *sudoku9_suite(void);

/* === Helpers ============================================================ */

static sudoku_shape_t shape9(void) {
    sudoku_shape_t s;
    ck_assert_int_eq(sudoku_shape_init(&s, 9, 3, 3), 0);
    return s;
}

/* Runs the propagation method with the same limit; returns its result. */
static sudoku_result_t prop_solve(const uint8_t *pz, uint32_t max) {
    sudoku_shape_t s = shape9();
    sudoku_opts_t o;
    sudoku_result_t r;
    sudoku_opts_init(&o);
    o.method = SUDOKU_METHOD_PROPAGATION;
    o.max_solutions = max;
    sudoku_solve(&s, pz, &o, &r);
    return r;
}

/* Every build of the solver (sudoku9.h); the ones this machine cannot run
 * are skipped (sudoku9_impl_supported). */
static const sudoku9_impl_t impls[] = {SUDOKU9_IMPL_AUTO, SUDOKU9_IMPL_PORTABLE,
                                       SUDOKU9_IMPL_SCALAR, SUDOKU9_IMPL_AVX2};
#define N_IMPLS ((int)(sizeof impls / sizeof impls[0]))

/* Two runs of the same puzzle agree on everything they report. */
static void same_result(const sudoku9_result_t *a, const sudoku9_result_t *b) {
    ck_assert_int_eq(a->code, b->code);
    ck_assert_uint_eq(a->solutions_found, b->solutions_found);
    ck_assert_int_eq(a->exhausted, b->exhausted);
    ck_assert_int_eq(a->no_guess, b->no_guess);
    ck_assert_uint_eq(a->guesses, b->guesses);
    ck_assert_uint_eq(a->stats.nodes, b->stats.nodes);
    ck_assert_uint_eq(a->stats.backtracks, b->stats.backtracks);
    ck_assert_uint_eq(a->stats.propagations, b->stats.propagations);
    ck_assert_uint_eq(a->stats.max_depth, b->stats.max_depth);
}

/* Solves with the fast solver (sudoku9_solve, then every other build this
 * machine runs, which must agree with it in every field and byte), checks
 * every solution; returns sudoku9_solve's result, solutions in buf. */
static sudoku9_result_t fast_checked(const uint8_t *pz, uint32_t max, uint8_t *buf) {
    static uint8_t other[SUDOKU_MAX_SOLUTIONS * 81];
    sudoku_shape_t s = shape9();
    sudoku9_result_t r;
    int rc = sudoku9_solve(pz, max, buf, NULL, &r);
    ck_assert_int_eq(rc, r.code);
    ck_assert_uint_le(r.solutions_found, max);
    for (uint32_t k = 0; buf && k < r.solutions_found; k++)
        ck_assert_int_eq(sudoku_check_solution(&s, pz, buf + 81 * k), 1);
    for (int i = 0; i < N_IMPLS; i++) {
        sudoku9_result_t o;
        if (!sudoku9_impl_supported(impls[i])) continue;
        ck_assert_int_eq(sudoku9_solve_impl(impls[i], pz, max, buf ? other : NULL, NULL, &o), rc);
        same_result(&r, &o);
        if (buf && r.solutions_found) ck_assert_mem_eq(other, buf, 81 * (size_t)r.solutions_found);
    }
    return r;
}

/* Fast and propagation agree on code, count and (below the limit) on the
 * exhausted flag. */
static void agree(const uint8_t *pz, uint32_t max, uint8_t *buf) {
    sudoku9_result_t f = fast_checked(pz, max, buf);
    sudoku_result_t p = prop_solve(pz, max);
    ck_assert_int_eq(f.code, p.code);
    ck_assert_uint_eq(f.solutions_found, p.solutions_found);
    if (f.code == 0 && f.solutions_found < max) {
        ck_assert_int_eq(f.exhausted, 1);
        ck_assert_int_eq(p.exhausted, 1);
    }
    if (f.code == 0 && f.exhausted && p.code == 0 && p.exhausted)
        ck_assert_uint_eq(f.solutions_found, p.solutions_found);
}

typedef struct rng_s {
    uint64_t s;
} rng_t;

static uint32_t rng_next(rng_t *r, uint32_t n) {
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)((r->s >> 16) % n);
}

static void shuffle(rng_t *r, int *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_next(r, (uint32_t)i + 1), t = a[i];
        a[i] = a[j], a[j] = t;
    }
}

/* A random solved grid: a base pattern under the symmetry group. */
static void random_grid(rng_t *r, uint8_t *g) {
    int digit[9], band[3], stack[3], rows[9], cols[9];
    for (int i = 0; i < 9; i++)
        digit[i] = i + 1;
    for (int i = 0; i < 3; i++)
        band[i] = stack[i] = i;
    shuffle(r, digit, 9), shuffle(r, band, 3), shuffle(r, stack, 3);
    for (int b = 0; b < 3; b++) {
        int in_r[3] = {0, 1, 2}, in_c[3] = {0, 1, 2};
        shuffle(r, in_r, 3), shuffle(r, in_c, 3);
        for (int k = 0; k < 3; k++)
            rows[3 * b + k] = 3 * band[b] + in_r[k], cols[3 * b + k] = 3 * stack[b] + in_c[k];
    }
    int tr = (int)rng_next(r, 2);
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            int rr = rows[i], cc = cols[j];
            if (tr) rr = cols[i], cc = rows[j];
            g[9 * i + j] = (uint8_t)digit[(3 * (rr % 3) + rr / 3 + cc) % 9];
        }
}

/* === Fixtures =========================================================== */

static const char *fixture_path(char *buf, size_t cap) {
    const char *dir = getenv("SUDOKU_FIXTURES");
    snprintf(buf, cap, "%s/sudoku_9.txt", dir ? dir : "tests/fixtures");
    return buf;
}

static int parse81(const char *s, uint8_t *g) {
    for (int i = 0; i < 81; i++) {
        if (s[i] == '.')
            g[i] = 0;
        else if (s[i] >= '1' && s[i] <= '9')
            g[i] = (uint8_t)(s[i] - '0');
        else
            return -1;
    }
    return 0;
}

START_TEST(sudoku9_fixtures) {
    char path[512], line[1024];
    FILE *fp = fopen(fixture_path(path, sizeof path), "r");
    int n = 0;
    static uint8_t buf[SUDOKU_MAX_SOLUTIONS * 81];
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    while (fgets(line, sizeof line, fp)) {
        uint8_t pz[81], sol[81];
        if (line[0] == '#' || line[0] == '\n') continue;
        ck_assert_int_eq(parse81(line, pz), 0);
        ck_assert_int_eq(line[81], ':');
        char *end;
        long count = strtol(line + 82, &end, 10);
        int at_least = *end == '+';
        if (at_least) end++;
        ck_assert_int_eq(*end, ':');
        uint32_t max = at_least ? (uint32_t)count : SUDOKU_MAX_SOLUTIONS;
        sudoku9_result_t r = fast_checked(pz, max, buf);
        ck_assert_int_eq(r.code, 0);
        if (at_least) {
            ck_assert_uint_eq(r.solutions_found, (uint32_t)count);
        } else {
            ck_assert_uint_eq(r.solutions_found, (uint32_t)count);
            ck_assert_int_eq(r.exhausted, 1);
        }
        if (count == 1 && !at_least) {
            ck_assert_int_eq(parse81(end + 1, sol), 0);
            ck_assert_mem_eq(buf, sol, 81);
        }
        for (uint32_t m = 1; m <= 10; m *= 10)
            agree(pz, m, buf), agree(pz, m + 1, buf);
        n++;
    }
    fclose(fp);
    ck_assert_int_ge(n, 8);
}
END_TEST

/* === Generated puzzles ================================================== */

START_TEST(sudoku9_random_agree) {
    static const uint32_t limits[] = {1, 2, 10};
    static uint8_t buf[1000 * 81];
    rng_t r = {0x9e3779b97f4a7c15ull + (uint64_t)_i};
    uint8_t grid[81], pz[81];
    sudoku_shape_t s = shape9();
    for (int t = 0; t < 1000; t++) {
        random_grid(&r, grid);
        ck_assert_int_eq(sudoku_is_complete(&s, grid), 1);
        int keep = 17 + (int)rng_next(&r, 29); /* 17..45 clues */
        int cells[81];
        for (int i = 0; i < 81; i++)
            cells[i] = i;
        shuffle(&r, cells, 81);
        memset(pz, 0, 81);
        for (int i = 0; i < keep; i++)
            pz[cells[i]] = grid[cells[i]];
        if (t % 8 == 7) { /* change one given: often no solution, maybe a conflict */
            int c = cells[rng_next(&r, (uint32_t)keep)];
            pz[c] = (uint8_t)(1 + (pz[c] + rng_next(&r, 8)) % 9);
        }
        for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++)
            agree(pz, limits[k], buf);
        if (t % 8 == 0 && keep >= 24) agree(pz, 1000, buf);
        if (t % 8 != 7) { /* the grid it came from is among the solutions */
            sudoku9_result_t f = fast_checked(pz, 2, buf);
            ck_assert_uint_ge(f.solutions_found, 1);
            if (f.solutions_found == 1) ck_assert_mem_eq(buf, grid, 81);
        }
    }
}
END_TEST

/* === Edge cases ========================================================= */

static int cmp81(const void *a, const void *b) { return memcmp(a, b, 81); }

START_TEST(sudoku9_empty_grid) {
    static uint8_t buf[SUDOKU_MAX_SOLUTIONS * 81];
    uint8_t pz[81] = {0};
    sudoku9_result_t r = fast_checked(pz, SUDOKU_MAX_SOLUTIONS, buf);
    ck_assert_int_eq(r.code, 0);
    ck_assert_uint_eq(r.solutions_found, SUDOKU_MAX_SOLUTIONS);
    ck_assert_int_eq(r.exhausted, 0);
    ck_assert_int_eq(r.no_guess, 0);
    qsort(buf, SUDOKU_MAX_SOLUTIONS, 81, cmp81);
    for (uint32_t k = 1; k < SUDOKU_MAX_SOLUTIONS; k++)
        ck_assert(memcmp(buf + 81 * (k - 1), buf + 81 * k, 81) != 0);
    r = fast_checked(pz, 3, NULL); /* count only */
    ck_assert_uint_eq(r.solutions_found, 3);
}
END_TEST

START_TEST(sudoku9_solved_and_unsolvable) {
    uint8_t grid[81], pz[81], buf[2 * 81];
    rng_t r = {12345};
    random_grid(&r, grid);
    sudoku9_result_t f = fast_checked(grid, 2, buf);
    ck_assert_int_eq(f.code, 0);
    ck_assert_uint_eq(f.solutions_found, 1);
    ck_assert_int_eq(f.exhausted, 1);
    ck_assert_int_eq(f.no_guess, 1);
    ck_assert_uint_eq(f.guesses, 0);
    ck_assert_mem_eq(buf, grid, 81);
    /* Row 0 holds 1..8, (1,8) holds 9: (0,8) has no digit, givens agree. */
    memset(pz, 0, 81);
    for (int c = 0; c < 8; c++)
        pz[c] = (uint8_t)(c + 1);
    pz[17] = 9;
    agree(pz, 2, buf);
    f = fast_checked(pz, 2, buf);
    ck_assert_int_eq(f.code, 0);
    ck_assert_uint_eq(f.solutions_found, 0);
    ck_assert_int_eq(f.exhausted, 1);
    ck_assert_int_eq(f.no_guess, 0);
    /* A hidden contradiction: 9 cannot go anywhere in column 0's box rows. */
    memset(pz, 0, 81);
    pz[1] = 9, pz[9 + 4] = 9, pz[18 + 7] = 9; /* 9 barred from rows 0-2 ... */
    pz[27] = 1, pz[54] = 2;                   /* ... and nothing wrong elsewhere */
    agree(pz, 1, buf), agree(pz, 2, buf);
}
END_TEST

START_TEST(sudoku9_conflicts_and_bad_input) {
    uint8_t pz[81] = {0}, buf[81];
    sudoku9_result_t r;
    static const int pairs[][2] = {{0, 8}, {0, 72}, {0, 20}, {40, 50}};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        memset(pz, 0, 81);
        pz[pairs[k][0]] = pz[pairs[k][1]] = 5;
        ck_assert_int_eq(sudoku9_solve(pz, 2, buf, NULL, &r), SUDOKU_ECONFLICT);
        ck_assert_int_eq(r.code, SUDOKU_ECONFLICT);
        ck_assert_uint_eq(r.solutions_found, 0);
        for (int i = 0; i < N_IMPLS; i++)
            if (sudoku9_impl_supported(impls[i]))
                ck_assert_int_eq(sudoku9_solve_impl(impls[i], pz, 2, buf, NULL, &r),
                                 SUDOKU_ECONFLICT);
        ck_assert_int_eq(prop_solve(pz, 2).code, SUDOKU_ECONFLICT);
    }
    static const int at[] = {0, 10, 15, 16, 63, 64, 79, 80};
    static const uint8_t big[] = {10, 127, 128, 255};
    for (int i = 0; i < N_IMPLS; i++) { /* bad input, through each build */
        if (!sudoku9_impl_supported(impls[i])) continue;
        for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) /* values above 9 anywhere */
            for (size_t v = 0; v < sizeof big; v++) {
                memset(pz, 0, 81);
                pz[at[k]] = big[v];
                ck_assert_int_eq(sudoku9_solve_impl(impls[i], pz, 1, buf, NULL, &r), SEARCH_EINVAL);
                pz[at[k]] = 9; /* and 9 is fine there */
                ck_assert_int_eq(sudoku9_solve_impl(impls[i], pz, 1, buf, NULL, &r), 0);
                ck_assert_int_eq(buf[at[k]], 9);
            }
        memset(pz, 0, 81);
        pz[10] = 10;
        ck_assert_int_eq(sudoku9_solve_impl(impls[i], pz, 1, buf, NULL, &r), SEARCH_EINVAL);
        pz[10] = 0;
        ck_assert_int_eq(sudoku9_solve_impl(impls[i], pz, 0, buf, NULL, &r), SEARCH_EINVAL);
        ck_assert_int_eq(sudoku9_solve_impl(impls[i], NULL, 1, buf, NULL, &r), SEARCH_EINVAL);
        ck_assert_int_eq(r.code, SEARCH_EINVAL);
        ck_assert_int_eq(sudoku9_solve_impl(impls[i], pz, 1, buf, NULL, NULL), SEARCH_EINVAL);
    }
    memset(pz, 0, 81);
    pz[10] = 10;
    ck_assert_int_eq(sudoku9_solve(pz, 1, buf, NULL, &r), SEARCH_EINVAL);
    pz[10] = 0;
    ck_assert_int_eq(sudoku9_solve(pz, 0, buf, NULL, &r), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku9_solve(pz, SUDOKU_MAX_SOLUTIONS + 1, NULL, NULL, &r), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku9_solve(NULL, 1, buf, NULL, &r), SEARCH_EINVAL);
    ck_assert_int_eq(r.code, SEARCH_EINVAL);
    ck_assert_int_eq(sudoku9_solve(pz, 1, buf, NULL, NULL), SEARCH_EINVAL);
}
END_TEST

/* === Limits ============================================================= */

/* The limits, through each build (_i indexes impls). */
START_TEST(sudoku9_limits) {
    static uint8_t buf[SUDOKU_MAX_SOLUTIONS * 81];
    uint8_t pz[81] = {0};
    sudoku9_result_t r;
    search_ctl_t ctl = {0};
    atomic_int flag = 0;
    sudoku9_impl_t impl = impls[_i];
    if (!sudoku9_impl_supported(impl)) return;

    ctl.deadline_ns = 1; /* long past */
    ck_assert_int_eq(sudoku9_solve_impl(impl, pz, 10, buf, &ctl, &r), SEARCH_TIMEOUT);
    ck_assert_uint_eq(r.solutions_found, 0);

    ctl.deadline_ns = 0;
    ctl.cancel = &flag;
    atomic_store(&flag, 1);
    ck_assert_int_eq(sudoku9_solve_impl(impl, pz, 10, buf, &ctl, &r), SEARCH_CANCELLED);
    atomic_store(&flag, 0);
    ck_assert_int_eq(sudoku9_solve_impl(impl, pz, 10, buf, &ctl, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 10);

    ctl.cancel = NULL;
    ctl.node_budget = 1000;
    ck_assert_int_eq(sudoku9_solve_impl(impl, pz, SUDOKU_MAX_SOLUTIONS, buf, &ctl, &r),
                     SEARCH_BUDGET);
    ck_assert_int_eq(r.code, SEARCH_BUDGET);
    ck_assert_uint_le(r.stats.nodes, 1000);
    ck_assert_uint_gt(r.solutions_found, 0); /* found before the budget ran out */
    sudoku_shape_t s = shape9();
    for (uint32_t k = 0; k < r.solutions_found; k++)
        ck_assert_int_eq(sudoku_check_solution(&s, pz, buf + 81 * k), 1);

    /* A deadline in the future lets the search finish. */
    ctl.node_budget = 0;
    ctl.deadline_ns = search_now_ns() + 60 * (int64_t)1000000000;
    ck_assert_int_eq(sudoku9_solve_impl(impl, pz, 50, buf, &ctl, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 50);
}
END_TEST

/* A clock or flag that turns while the solver is busy stops it.  No single
 * 9x9 task within the solution cap lasts 20 ms for this solver, so it solves
 * the empty grid (10,000 solutions, about 20,000 nodes: the clock is read
 * mid-search) again and again until the deadline or the flag, raised 20 ms
 * in, ends one solve; what that solve found is still valid. */
typedef struct s9_raiser_s {
    atomic_int *flag;
} s9_raiser_t;

static void *s9_raise_later(void *arg) {
    s9_raiser_t *r = arg;
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
    atomic_store(r->flag, 1);
    return NULL;
}

START_TEST(sudoku9_stops_while_busy) {
    static uint8_t buf[SUDOKU_MAX_SOLUTIONS * 81];
    uint8_t pz[81] = {0};
    sudoku_shape_t s = shape9();
    atomic_int flag = 0;
    sudoku9_impl_t impl = impls[_i];
    if (!sudoku9_impl_supported(impl)) return;
    for (int mode = 0; mode < 2; mode++) {
        search_ctl_t ctl = {0};
        s9_raiser_t rs = {&flag};
        pthread_t th;
        sudoku9_result_t r;
        int64_t t0 = search_now_ns();
        int rc = 0;
        long solves = 0;
        if (mode == 0) {
            ctl.deadline_ns = t0 + 20 * 1000000;
        } else {
            ctl.cancel = &flag;
            ck_assert_int_eq(pthread_create(&th, NULL, s9_raise_later, &rs), 0);
        }
        while (rc == 0 && search_now_ns() - t0 < 10 * (int64_t)1000000000) {
            rc = sudoku9_solve_impl(impl, pz, SUDOKU_MAX_SOLUTIONS, buf, &ctl, &r);
            solves++;
        }
        if (mode == 1) ck_assert_int_eq(pthread_join(th, NULL), 0);
        ck_assert_int_eq(rc, mode == 0 ? SEARCH_TIMEOUT : SEARCH_CANCELLED);
        ck_assert_int_ge(solves, 1);
        ck_assert_uint_lt(r.solutions_found, SUDOKU_MAX_SOLUTIONS);
        for (uint32_t k = 0; k < r.solutions_found; k++)
            ck_assert_int_eq(sudoku_check_solution(&s, pz, buf + 81 * k), 1);
    }
}
END_TEST

/* === Builds ============================================================= */

START_TEST(sudoku9_builds) {
    uint8_t pz[81] = {0}, buf[81];
    sudoku9_result_t r;
    sudoku9_impl_t a = sudoku9_impl_auto();
    ck_assert_int_eq(sudoku9_impl_supported(SUDOKU9_IMPL_AUTO), 1);
    ck_assert_int_eq(sudoku9_impl_supported(SUDOKU9_IMPL_PORTABLE), 1);
    ck_assert_int_eq(sudoku9_impl_supported(SUDOKU9_IMPL_SCALAR), 1);
    /* auto is the portable build, or the AVX2 one where this CPU runs it */
    ck_assert(a == SUDOKU9_IMPL_PORTABLE ||
              (a == SUDOKU9_IMPL_AVX2 && sudoku9_impl_supported(SUDOKU9_IMPL_AVX2)));
    ck_assert_str_eq(sudoku9_impl_name(SUDOKU9_IMPL_AUTO), "auto");
    ck_assert_str_eq(sudoku9_impl_name(SUDOKU9_IMPL_PORTABLE), "portable");
    ck_assert_str_eq(sudoku9_impl_name(SUDOKU9_IMPL_SCALAR), "scalar");
    ck_assert_str_eq(sudoku9_impl_name(SUDOKU9_IMPL_AVX2), "avx2");
    /* an unknown build is bad input, and says so in res */
    memset(&r, 0xff, sizeof r);
    ck_assert_int_eq(sudoku9_solve_impl((sudoku9_impl_t)99, pz, 1, buf, NULL, &r), SEARCH_EINVAL);
    ck_assert_int_eq(r.code, SEARCH_EINVAL);
    ck_assert_uint_eq(r.solutions_found, 0);
    if (!sudoku9_impl_supported(SUDOKU9_IMPL_AVX2))
        ck_assert_int_eq(sudoku9_solve_impl(SUDOKU9_IMPL_AVX2, pz, 1, buf, NULL, &r),
                         SEARCH_EINVAL);
    /* each build solves the empty grid to the same first solution */
    uint8_t first[81];
    ck_assert_int_eq(sudoku9_solve(pz, 1, first, NULL, &r), 0);
    for (int i = 0; i < N_IMPLS; i++) {
        if (!sudoku9_impl_supported(impls[i])) continue;
        ck_assert_int_eq(sudoku9_solve_impl(impls[i], pz, 1, buf, NULL, &r), 0);
        ck_assert_mem_eq(buf, first, 81);
    }
}
END_TEST

/* === Statistics ========================================================= */

START_TEST(sudoku9_guess_stats) {
    uint8_t pz[81], buf[2 * 81];
    /* Norvig's grid1: singles alone solve it. */
    ck_assert_int_eq(
        parse81("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
                pz),
        0);
    sudoku9_result_t r = fast_checked(pz, 2, buf);
    ck_assert_int_eq(r.no_guess, 1);
    ck_assert_uint_eq(r.guesses, 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    ck_assert_int_eq(r.exhausted, 1);
    ck_assert_uint_gt(r.stats.propagations, 0);
    /* Inkala 2012 needs guesses. */
    ck_assert_int_eq(
        parse81("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
                pz),
        0);
    r = fast_checked(pz, 2, buf);
    ck_assert_int_eq(r.no_guess, 0);
    ck_assert_uint_gt(r.guesses, 0);
    ck_assert_uint_ge(r.stats.nodes, r.guesses);
    ck_assert_uint_ge(r.stats.max_depth, 1);
    ck_assert_uint_eq(r.solutions_found, 1);
}
END_TEST

/* Hard puzzles (forum_hardest_1106, tdoku's data set) and two with many
 * solutions (serg_benchmark): these take the search through all three kinds
 * of guess (a digit's two placements left in a band, in a stack, a cell).
 * Counts against propagation, every solution checked, and the depth stays
 * within the bound the frames are sized for (135, see sudoku9.c). */
START_TEST(sudoku9_hard_agree) {
    static const char *const hard[] = {
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        "5.......7.8...9.3...4...2...1..36.......4.......1.8.6...2...4...9.3...1.7.......5",
        "1.......2.3.4...5...6...7...5.8.4.......73......9...8.7.....6...4...8.9...2.....1",
        "1....6.8....7..1....9.....4.......5..18..5...5..36....6.5..8.3.8....3.1.....2...8",
        "..3......4...8..36..8...1...4..6..73...9..........2..5....7..686....4...7.....54.",
        ".2.4...8.....8....7....2..6..49..1..6....7..3.9..1.....62.....55.....37......5...",
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        "8.........95.......76.........428967...573412...691583.....4196....3.748...8..235",
    };
    static uint8_t buf[1000 * 81];
    uint8_t pz[81];
    for (size_t k = 0; k < sizeof hard / sizeof hard[0]; k++) {
        ck_assert_int_eq(parse81(hard[k], pz), 0);
        agree(pz, 1, buf), agree(pz, 2, buf), agree(pz, 1000, buf);
        sudoku9_result_t r = fast_checked(pz, 1000, buf);
        ck_assert_int_eq(r.code, 0);
        ck_assert_uint_ge(r.solutions_found, 1);
        ck_assert_uint_le(r.stats.max_depth, 135);
        ck_assert_uint_ge(r.stats.nodes, r.guesses);
        if (k < 6) ck_assert_uint_gt(r.guesses, 0);
    }
}
END_TEST

Suite *sudoku9_suite(void) {
    Suite *s = suite_create("sudoku9");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sudoku9_fixtures);
    tcase_add_loop_test(tc, sudoku9_random_agree, 0, 3);
    tcase_add_test(tc, sudoku9_empty_grid);
    tcase_add_test(tc, sudoku9_solved_and_unsolvable);
    tcase_add_test(tc, sudoku9_conflicts_and_bad_input);
    tcase_add_loop_test(tc, sudoku9_limits, 0, N_IMPLS);
    tcase_add_loop_test(tc, sudoku9_stops_while_busy, 0, N_IMPLS);
    tcase_add_test(tc, sudoku9_builds);
    tcase_add_test(tc, sudoku9_guess_stats);
    tcase_add_test(tc, sudoku9_hard_agree);
    suite_add_tcase(s, tc);
    return s;
}
