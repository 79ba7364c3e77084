/* test_cdcl.c -- the "cdcl" Sudoku method (solvers/sudoku/cdcl.h, sat.h).
 *
 * Cross-checks: every fixture of tests/fixtures/sudoku_<n>.txt (4x4 to 64x64)
 * with every portfolio variant, counts and exhausted flags against the
 * fixture, every returned grid against the rules and the givens, the
 * fixture's solution among those found, pairwise distinct solutions; random
 * puzzles of many box shapes (1xN Latin squares included) against the
 * propagation method, counts up to 20.  Then limits: a deadline in the past
 * and during the search, the cancel flag before and during, the node
 * budget, the memory cap, allocation failures; and the statistics the method
 * reports; auto's hand-over from propagation to cdcl; over the API, the
 * method name, the portfolio on two threads, its statistics and the trace
 * it refuses.  No timing: the deadline tests only check that the search
 * stops with the right code (a generous bound catches a search that ignores
 * it).
 *
 * Fixtures are read relative to the working directory (make test runs from
 * the repository root); SUDOKU_FIXTURES=dir overrides. */
#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/sudoku_api.h"
#include "solvers/sudoku/exchange.h"
#include "solvers/sudoku/sudoku.h"
#include "tests/job_harness.h"
#include "tests/sudoku_fixtures.h"
#include "tests/test_util.h"

Suite *cdcl_suite(void);

#define NVARIANTS 2 /* portfolio members checked on every fixture */

static sudoku_shape_t shape_of(int n) {
    sudoku_shape_t s;
    ck_assert_int_eq(sudoku_shape_init(&s, n, 0, 0), 0);
    return s;
}

static int solve(const sudoku_shape_t *sh, const uint8_t *g, sudoku_method_t m, uint32_t variant,
                 uint32_t max, const search_ctl_t *ctl, uint8_t **sols, sudoku_result_t *r) {
    sudoku_opts_t o;
    sudoku_opts_init(&o);
    o.method = m;
    o.level = m == SUDOKU_METHOD_PROPAGATION ? SUDOKU_LEVEL_SUBSETS : SUDOKU_LEVEL_DEFAULT;
    o.variant = variant;
    o.max_solutions = max;
    o.ctl = ctl;
    *sols = malloc((size_t)max * (size_t)sh->n * (size_t)sh->n);
    ck_assert_ptr_nonnull(*sols);
    o.solutions = *sols;
    return sudoku_solve(sh, g, &o, r);
}

/* Every grid solves g, no two are equal; returns 1 if `want` is among them. */
static int check_grids(const sudoku_shape_t *sh, const uint8_t *g, const uint8_t *sols, uint32_t k,
                       const uint8_t *want, const char *what) {
    size_t nn = (size_t)sh->n * (size_t)sh->n;
    uint32_t i, j;
    int seen = 0;
    for (i = 0; i < k; i++) {
        ck_assert_msg(sudoku_check_solution(sh, g, sols + i * nn) == 1,
                      "%s: solution %u breaks a rule or a given", what, i);
        for (j = 0; j < i; j++)
            ck_assert_msg(memcmp(sols + i * nn, sols + j * nn, nn) != 0,
                          "%s: solutions %u and %u are the same", what, j, i);
        if (want != NULL && memcmp(sols + i * nn, want, nn) == 0) seen = 1;
    }
    return seen;
}

/* === Fixtures =========================================================== */

static const int sizes[] = {4, 6, 8, 9, 12, 16, 25, 36, 49, 64};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

START_TEST(cdcl_fixtures) {
    fixset_t fs;
    int k;
    fixset_load(&fs, sizes[_i]);
    uint32_t variant;
    for (k = 0; k < fs.nfix; k++) {
        const fix_t *f = &fs.fix[k];
        sudoku_shape_t sh = shape_of(f->n);
        for (variant = 0; variant < NVARIANTS; variant++) {
            sudoku_result_t r;
            uint8_t *sols;
            char what[96];
            uint32_t max = f->at_least ? (uint32_t)f->count : (uint32_t)f->count + 1;
            int rc, seen;
            snprintf(what, sizeof what, "sudoku_%d.txt:%d variant %u", f->n, f->line, variant);
            if (max < 2) max = 2;
            rc = solve(&sh, f->puzzle, SUDOKU_METHOD_CDCL, variant, max, NULL, &sols, &r);
            ck_assert_msg(rc == 0, "%s: rc %d", what, rc);
            ck_assert_int_eq(r.code, 0);
            ck_assert_int_eq(r.method, SUDOKU_METHOD_CDCL);
            if (f->at_least)
                ck_assert_msg(r.solutions_found == max && !r.exhausted, "%s: %u found, exh %d",
                              what, r.solutions_found, r.exhausted);
            else
                ck_assert_msg(r.solutions_found == (uint32_t)f->count && r.exhausted,
                              "%s: %u found (want %ld), exhausted %d", what, r.solutions_found,
                              f->count, r.exhausted);
            seen = check_grids(&sh, f->puzzle, sols, r.solutions_found,
                               f->count > 0 ? f->solution : NULL, what);
            if (f->count > 0 && !f->at_least)
                ck_assert_msg(seen, "%s: the fixture's solution is not among those found", what);
            ck_assert_int_eq(sudoku_result_unique(&r), f->count == 1 && !f->at_least);
            /* every solution was excluded to look for the next, but the
             * last when max_solutions stopped the search */
            ck_assert_uint_eq(r.cdcl.blocked, r.solutions_found - (r.solutions_found == max));
            free(sols);

            /* first solution only: never exhausted when more exist */
            rc = solve(&sh, f->puzzle, SUDOKU_METHOD_CDCL, variant, 1, NULL, &sols, &r);
            ck_assert_int_eq(rc, 0);
            ck_assert_uint_eq(r.solutions_found, f->count > 0 ? 1 : 0);
            ck_assert_int_eq(r.exhausted, f->count == 0);
            check_grids(&sh, f->puzzle, sols, r.solutions_found, NULL, what);
            if (f->count == 1 && !f->at_least)
                ck_assert(memcmp(sols, f->solution, (size_t)f->n * f->n) == 0);
            free(sols);
        }
    }
    fixset_free(&fs);
}
END_TEST

/* === Random puzzles against the propagation method ===================== */

static uint64_t xorshift(uint64_t *st) {
    uint64_t x = *st;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *st = x;
}

/* A grid from the pattern solution of `b` boxes with symbols shuffled,
 * givens kept with probability keep%, and sometimes one random cell
 * overwritten (often making it unsolvable). */
static void random_puzzle(uint64_t *st, const int *b, uint8_t *g) {
    int n = b[0] * b[1], r, c, i, sym[16], keep;
    for (i = 0; i < n; i++)
        sym[i] = i + 1;
    for (i = n - 1; i > 0; i--) {
        int j = (int)(xorshift(st) % (uint64_t)(i + 1)), t = sym[i];
        sym[i] = sym[j];
        sym[j] = t;
    }
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++)
            g[r * n + c] = (uint8_t)sym[(b[1] * (r % b[0]) + r / b[0] + c) % n];
    keep = 15 + (int)(xorshift(st) % 60);
    for (i = 0; i < n * n; i++)
        if ((int)(xorshift(st) % 100) >= keep) g[i] = 0;
    if (xorshift(st) % 4 == 0) g[xorshift(st) % (uint64_t)(n * n)] = 1 + xorshift(st) % (uint64_t)n;
}

START_TEST(cdcl_random_puzzles_agree) {
    static const int boxes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {3, 3}, {1, 5},
                                   {3, 4}, {4, 4}, {1, 6}, {2, 5}, {4, 1}, {4, 3}};
    uint64_t st = 0x2545f4914f6cdd1du;
    uint8_t g[256];
    int it, informative = 0;
    for (it = 0; it < 300; it++) {
        const int *b = boxes[xorshift(&st) % 12];
        sudoku_shape_t sh;
        sudoku_result_t ref, r;
        uint8_t *sols, *rsols;
        uint32_t variant = (uint32_t)(it % NVARIANTS);
        int rc, rrc;
        size_t nn;
        char what[64];
        ck_assert_int_eq(sudoku_shape_init(&sh, b[0] * b[1], b[0], b[1]), 0);
        nn = (size_t)sh.n * sh.n;
        random_puzzle(&st, b, g);
        snprintf(what, sizeof what, "puzzle %d (%dx%d boxes)", it, b[0], b[1]);
        rrc = solve(&sh, g, SUDOKU_METHOD_PROPAGATION, 0, 20, NULL, &rsols, &ref);
        rc = solve(&sh, g, SUDOKU_METHOD_CDCL, variant, 20, NULL, &sols, &r);
        /* propagation may know that nothing is left after the 20th */
        ck_assert_msg(rc == rrc && r.solutions_found == ref.solutions_found &&
                          (r.exhausted == ref.exhausted || r.solutions_found == 20),
                      "%s: cdcl rc %d found %u exh %d, propagation rc %d found %u exh %d", what, rc,
                      r.solutions_found, r.exhausted, rrc, ref.solutions_found, ref.exhausted);
        check_grids(&sh, g, sols, r.solutions_found, NULL, what);
        if (rc == SUDOKU_ECONFLICT) {
            free(sols);
            free(rsols);
            continue;
        }
        /* the same set of grids (when the space was enumerated) */
        if (r.exhausted) {
            uint32_t i;
            for (i = 0; i < r.solutions_found; i++)
                ck_assert_msg(check_grids(&sh, g, rsols, ref.solutions_found, sols + i * nn, what),
                              "%s: cdcl's solution %u is not propagation's", what, i);
        }
        informative += r.exhausted && r.solutions_found < 20;
        free(sols);
        free(rsols);
    }
    ck_assert_int_gt(informative, 100);
}
END_TEST

/* A grid with every cell given: its one solution, found without a decision
 * (consistent givens without a solution are in every fixture file). */
START_TEST(cdcl_full_grid) {
    sudoku_shape_t sh = shape_of(9);
    static const char *solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    uint8_t g[81], *sols;
    sudoku_result_t r;
    int i;
    for (i = 0; i < 81; i++)
        g[i] = (uint8_t)(solved[i] - '0');
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_CDCL, 0, 5, NULL, &sols, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    ck_assert(r.exhausted);
    ck_assert_uint_eq(r.stats.nodes, 0);
    ck_assert(memcmp(sols, g, 81) == 0);
    free(sols);
}
END_TEST

/* === Limits ============================================================= */

/* An empty 49x49 grid with 10,000 solutions asked for: far more work than
 * any limit below allows. */
static uint8_t *long_task(sudoku_shape_t *sh) {
    *sh = shape_of(49);
    uint8_t *g = calloc(49 * 49, 1);
    ck_assert_ptr_nonnull(g);
    return g;
}

START_TEST(cdcl_deadline) {
    sudoku_shape_t sh;
    uint8_t *g = long_task(&sh), *sols;
    sudoku_result_t r;
    search_ctl_t past = {.deadline_ns = 1}, soon = {.deadline_ns = 0};
    int64_t t0;
    uint32_t k;
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_CDCL, 0, 4, &past, &sols, &r), SEARCH_TIMEOUT);
    ck_assert_uint_eq(r.stats.nodes, 0);
    ck_assert_uint_eq(r.solutions_found, 0);
    free(sols);
    t0 = search_now_ns();
    soon.deadline_ns = t0 + 20 * 1000000;
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_CDCL, 0, SUDOKU_MAX_SOLUTIONS, &soon, &sols, &r),
                     SEARCH_TIMEOUT);
    ck_assert_int_eq(r.code, SEARCH_TIMEOUT);
    ck_assert_msg(search_now_ns() - t0 < 5000000000LL, "the deadline was not honoured");
    ck_assert(!r.exhausted);
    ck_assert_uint_lt(r.solutions_found, SUDOKU_MAX_SOLUTIONS);
    for (k = 0; k < r.solutions_found; k++) /* what was found before is valid */
        ck_assert_int_eq(sudoku_check_solution(&sh, g, sols + (size_t)k * 49 * 49), 1);
    free(sols);
    free(g);
}
END_TEST

START_TEST(cdcl_cancel) {
    sudoku_shape_t sh;
    uint8_t *g = long_task(&sh), *sols;
    sudoku_result_t r;
    atomic_int flag;
    search_ctl_t ctl = {.deadline_ns = 0, .cancel = &flag};
    pthread_t th;
    test_canceller_t c = {&flag, 10};
    atomic_init(&flag, 1);
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_CDCL, 0, 4, &ctl, &sols, &r), SEARCH_CANCELLED);
    ck_assert_uint_eq(r.stats.nodes, 0);
    free(sols);
    /* raised by another thread while the search runs (it cannot finish:
     * 10,000 solutions of a 49x49 take far longer than 10 ms) */
    atomic_store(&flag, 0);
    ck_assert_int_eq(pthread_create(&th, NULL, test_canceller, &c), 0);
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_CDCL, 0, SUDOKU_MAX_SOLUTIONS, &ctl, &sols, &r),
                     SEARCH_CANCELLED);
    pthread_join(th, NULL);
    ck_assert(!r.exhausted);
    free(sols);
    free(g);
}
END_TEST

START_TEST(cdcl_node_budget) {
    sudoku_shape_t sh;
    uint8_t *g = long_task(&sh), *sols;
    sudoku_result_t r;
    search_ctl_t ctl = {.node_budget = 100};
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_CDCL, 0, SUDOKU_MAX_SOLUTIONS, &ctl, &sols, &r),
                     SEARCH_BUDGET);
    ck_assert_uint_eq(r.stats.nodes, 100);
    ck_assert(!r.exhausted);
    free(sols);
    free(g);
}
END_TEST

typedef struct t_alloc_s {
    int allow; /* allocations to grant before failing */
    int calls;
    size_t live;
} t_alloc_t;

static void *t_alloc(void *ud, size_t size) {
    t_alloc_t *a = ud;
    size_t *p;
    a->calls++;
    if (a->allow-- <= 0) return NULL;
    p = malloc(size + sizeof(size_t));
    if (p == NULL) return NULL;
    *p = size;
    a->live += size;
    return p + 1;
}

static void t_free(void *ud, void *ptr) {
    t_alloc_t *a = ud;
    size_t *p = (size_t *)ptr - 1;
    a->live -= *p;
    free(p);
}

START_TEST(cdcl_memory) {
    sudoku_shape_t sh = shape_of(16);
    uint8_t g[256] = {0};
    sudoku_opts_t o;
    sudoku_result_t r;
    t_alloc_t a = {0, 0, 0};
    sudoku_opts_init(&o);
    o.method = SUDOKU_METHOD_CDCL;
    search_allocator_t hooks = {t_alloc, t_free, &a};
    o.alloc = &hooks;
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_ENOMEM);
    ck_assert_int_eq(a.calls, 1);
    ck_assert_uint_eq(a.live, 0);
    a.allow = 1;
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    ck_assert_uint_eq(a.live, 0);
    ck_assert_uint_gt(r.mem_peak, 0);
    ck_assert_uint_le(r.mem_peak, SUDOKU_DEFAULT_MEM_CAP);
    /* a cap below what the model needs is refused before any search */
    a.allow = 100;
    o.mem_cap = 4096;
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_BUDGET);
    ck_assert_uint_eq(r.stats.nodes, 0);
    /* a small cap is honoured */
    o.mem_cap = (size_t)4 << 20;
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0);
    ck_assert_uint_le(r.mem_peak, o.mem_cap);
}
END_TEST

/* The method reports what it did: a 25x25 fixture that needs search. */
START_TEST(cdcl_stats) {
    fixset_t fs;
    int k;
    fixset_load(&fs, 25);
    for (k = 0; k < fs.nfix; k++) {
        sudoku_shape_t sh = shape_of(25);
        sudoku_result_t r;
        uint8_t *sols;
        if (fs.fix[k].count < 2) continue;
        ck_assert_int_eq(solve(&sh, fs.fix[k].puzzle, SUDOKU_METHOD_CDCL, 0, 2, NULL, &sols, &r),
                         0);
        ck_assert_uint_eq(r.solutions_found, 2);
        ck_assert_uint_gt(r.stats.nodes, 0);
        ck_assert_uint_eq(r.stats.backtracks, r.cdcl.conflicts);
        ck_assert_uint_ge(r.cdcl.learned, r.cdcl.conflicts > 0 ? 1 : 0);
        ck_assert_uint_le(r.cdcl.learned, r.cdcl.conflicts);
        ck_assert_uint_le(r.cdcl.deleted, r.cdcl.learned);
        ck_assert_uint_eq(r.cdcl.blocked, 1);
        ck_assert_uint_gt(r.stats.propagations, 0);
        ck_assert_uint_gt(r.stats.max_depth, 0);
        free(sols);
        /* the other methods leave these counts at zero */
        ck_assert_int_eq(
            solve(&sh, fs.fix[k].puzzle, SUDOKU_METHOD_PROPAGATION, 0, 2, NULL, &sols, &r), 0);
        ck_assert_uint_eq(r.cdcl.conflicts + r.cdcl.learned + r.cdcl.blocked, 0);
        free(sols);
    }
    fixset_free(&fs);
}
END_TEST

/* === Portfolios sharing an exchange =================================== */

typedef struct member_s {
    const sudoku_shape_t *sh;
    const uint8_t *g;
    uint32_t variant, max;
    sudoku_exchange_t *x;
    const search_ctl_t *ctl;
    uint8_t *sols;
    sudoku_result_t r;
    int rc;
} member_t;

static void *member_main(void *arg) {
    member_t *m = arg;
    sudoku_opts_t o;
    sudoku_opts_init(&o);
    o.method = SUDOKU_METHOD_CDCL;
    o.variant = m->variant;
    o.exchange = m->x;
    o.max_solutions = m->max;
    o.solutions = m->sols;
    o.ctl = m->ctl;
    m->rc = sudoku_solve(m->sh, m->g, &o, &m->r);
    return NULL;
}

/* Runs k members on threads, no cancelling, so that every one finishes:
 * all of them must answer the same (count, exhausted flag, solutions in
 * the same order) as each runs the whole search with what the others
 * shared.  Returns member 0's result; its solutions are left in *sols. */
static sudoku_result_t run_portfolio(const sudoku_shape_t *sh, const uint8_t *g, unsigned k,
                                     uint32_t max, uint8_t **sols, const char *what) {
    member_t m[4];
    pthread_t th[4];
    size_t nn = (size_t)sh->n * (size_t)sh->n, xb = sudoku_exchange_bytes(sh->n, k, max);
    void *xmem = malloc(xb);
    sudoku_exchange_t *x = sudoku_exchange_init(xmem, sh->n, k, max);
    sudoku_result_t r;
    unsigned i;
    ck_assert_ptr_nonnull(x);
    for (i = 0; i < k; i++) {
        m[i].sh = sh;
        m[i].g = g;
        m[i].variant = i;
        m[i].max = max;
        m[i].x = x;
        m[i].ctl = NULL;
        m[i].sols = malloc(max * nn);
        ck_assert_ptr_nonnull(m[i].sols);
        ck_assert_int_eq(pthread_create(&th[i], NULL, member_main, &m[i]), 0);
    }
    for (i = 0; i < k; i++)
        pthread_join(th[i], NULL);
    for (i = 0; i < k; i++) {
        ck_assert_msg(m[i].rc == m[0].rc, "%s: member %u rc %d, member 0 rc %d", what, i, m[i].rc,
                      m[0].rc);
        ck_assert_msg(m[i].r.solutions_found == m[0].r.solutions_found,
                      "%s: member %u found %u, member 0 %u", what, i, m[i].r.solutions_found,
                      m[0].r.solutions_found);
        ck_assert_int_eq(m[i].r.exhausted, m[0].r.exhausted);
        ck_assert(memcmp(m[i].sols, m[0].sols, m[0].r.solutions_found * nn) == 0);
        if (i > 0) free(m[i].sols);
    }
    *sols = m[0].sols;
    r = m[0].r;
    free(xmem);
    return r;
}

START_TEST(cdcl_portfolio_fixtures) {
    fixset_t fs;
    int k;
    fixset_load(&fs, sizes[_i]);
    for (k = 0; k < fs.nfix; k++) {
        const fix_t *f = &fs.fix[k];
        sudoku_shape_t sh = shape_of(f->n);
        uint32_t max = f->at_least ? (uint32_t)f->count : (uint32_t)f->count + 1;
        uint8_t *sols;
        sudoku_result_t r;
        char what[96];
        unsigned members = 2 + (unsigned)(k % 2);
        int seen;
        if (max < 2) max = 2;
        snprintf(what, sizeof what, "sudoku_%d.txt:%d, %u members", f->n, f->line, members);
        r = run_portfolio(&sh, f->puzzle, members, max, &sols, what);
        ck_assert_int_eq(r.code, 0);
        if (f->at_least)
            ck_assert_msg(r.solutions_found == max && !r.exhausted, "%s", what);
        else
            ck_assert_msg(r.solutions_found == (uint32_t)f->count && r.exhausted,
                          "%s: %u found, exhausted %d", what, r.solutions_found, r.exhausted);
        seen = check_grids(&sh, f->puzzle, sols, r.solutions_found,
                           f->count > 0 ? f->solution : NULL, what);
        if (f->count > 0 && !f->at_least) ck_assert_msg(seen, "%s: fixture solution missing", what);
        free(sols);
    }
    fixset_free(&fs);
}
END_TEST

START_TEST(cdcl_portfolio_random_puzzles) {
    static const int boxes[][2] = {{2, 2}, {2, 3}, {3, 3}, {1, 5}, {3, 4}, {4, 4}, {2, 5}};
    uint64_t st = 0x9e3779b97f4a7c15u;
    uint8_t g[256];
    int it;
    for (it = 0; it < 60; it++) {
        const int *b = boxes[xorshift(&st) % 7];
        sudoku_shape_t sh;
        sudoku_result_t ref, r;
        uint8_t *sols, *rsols;
        char what[64];
        size_t nc = 0;
        ck_assert_int_eq(sudoku_shape_init(&sh, b[0] * b[1], b[0], b[1]), 0);
        random_puzzle(&st, b, g);
        if (sudoku_find_conflicts(&sh, g, NULL, 0, &nc) != 0 || nc > 0) continue;
        snprintf(what, sizeof what, "random puzzle %d (%dx%d boxes)", it, b[0], b[1]);
        ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_PROPAGATION, 0, 12, NULL, &rsols, &ref), 0);
        r = run_portfolio(&sh, g, 2, 12, &sols, what);
        ck_assert_int_eq(r.code, 0);
        ck_assert_msg(r.solutions_found == ref.solutions_found, "%s: %u, propagation %u", what,
                      r.solutions_found, ref.solutions_found);
        if (ref.solutions_found < 12) ck_assert(r.exhausted && ref.exhausted);
        check_grids(&sh, g, sols, r.solutions_found, NULL, what);
        if (r.exhausted) {
            uint32_t i;
            for (i = 0; i < r.solutions_found; i++)
                ck_assert(check_grids(&sh, g, rsols, ref.solutions_found,
                                      sols + (size_t)i * sh.n * sh.n, what));
        }
        free(sols);
        free(rsols);
    }
}
END_TEST

/* What an exchange accepts, and members that do not fit it. */
START_TEST(cdcl_exchange_limits) {
    sudoku_shape_t sh = shape_of(9);
    uint8_t g[81] = {0}, *sols;
    sudoku_result_t r;
    sudoku_opts_t o;
    void *mem;
    sudoku_exchange_t *x;
    ck_assert_uint_eq(sudoku_exchange_bytes(3, 2, 2), 0);
    ck_assert_uint_eq(sudoku_exchange_bytes(9, 0, 2), 0);
    ck_assert_uint_eq(sudoku_exchange_bytes(9, SUDOKU_EXCHANGE_MAX_MEMBERS + 1, 2), 0);
    ck_assert_uint_eq(sudoku_exchange_bytes(9, 2, 0), 0);
    ck_assert_uint_eq(sudoku_exchange_bytes(9, 2, SUDOKU_MAX_SOLUTIONS + 1), 0);
    ck_assert_ptr_null(sudoku_exchange_init(NULL, 9, 2, 2));
    mem = malloc(sudoku_exchange_bytes(9, 2, 2));
    ck_assert_ptr_nonnull(mem);
    x = sudoku_exchange_init(mem, 9, 2, 2);
    ck_assert_ptr_eq(x, mem);
    sols = malloc(4 * 81);
    ck_assert_ptr_nonnull(sols);
    sudoku_opts_init(&o);
    o.method = SUDOKU_METHOD_CDCL;
    o.exchange = x;
    o.solutions = sols;
    o.variant = 2; /* no such member */
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_EINVAL);
    o.variant = 1;
    o.max_solutions = 3; /* more than the exchange keeps */
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_EINVAL);
    o.max_solutions = 2;
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0); /* a member alone still answers */
    ck_assert_uint_eq(r.solutions_found, 2);
    check_grids(&sh, g, sols, 2, NULL, "one member of two");
    {
        sudoku_shape_t sh16 = shape_of(16);
        uint8_t g16[256] = {0};
        ck_assert_int_eq(sudoku_solve(&sh16, g16, &o, &r), SEARCH_EINVAL); /* another size */
    }
    free(sols);
    free(mem);
}
END_TEST

/* === auto: propagation first, cdcl when it stalls ===================== */

/* An empty 16x16 asked for 300 solutions takes propagation one node or so a
 * solution, past its 256-node share: cdcl takes over and starts again. */
START_TEST(cdcl_auto_hands_over) {
    sudoku_shape_t sh = shape_of(16);
    uint8_t g[256] = {0}, *sols;
    sudoku_result_t r;
    search_ctl_t ctl = {.deadline_ns = 0};
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_AUTO, 0, 300, NULL, &sols, &r), 0);
    ck_assert_int_eq(r.method, SUDOKU_METHOD_CDCL);
    ck_assert_uint_eq(r.solutions_found, 300);
    ck_assert(!r.exhausted);
    ck_assert_uint_gt(r.stats.nodes, 256); /* both phases counted */
    ck_assert_uint_gt(r.cdcl.blocked, 0);
    check_grids(&sh, g, sols, 300, NULL, "auto, 300 of an empty 16x16");
    free(sols);
    /* a few solutions: propagation answers */
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_AUTO, 0, 3, NULL, &sols, &r), 0);
    ck_assert_int_eq(r.method, SUDOKU_METHOD_PROPAGATION);
    ck_assert_int_eq(r.level, SUDOKU_LEVEL_SUBSETS);
    ck_assert_uint_eq(r.solutions_found, 3);
    free(sols);
    /* the caller's node budget holds across both: below the share it is
     * propagation's stop, above it the sum of both */
    ctl.node_budget = 100;
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_AUTO, 0, 300, &ctl, &sols, &r), SEARCH_BUDGET);
    ck_assert_int_eq(r.method, SUDOKU_METHOD_PROPAGATION);
    ck_assert_uint_eq(r.stats.nodes, 100);
    free(sols);
    ctl.node_budget = 400;
    ck_assert_int_eq(solve(&sh, g, SUDOKU_METHOD_AUTO, 0, 10000, &ctl, &sols, &r), SEARCH_BUDGET);
    ck_assert_int_eq(r.method, SUDOKU_METHOD_CDCL);
    ck_assert_uint_eq(r.stats.nodes, 400);
    check_grids(&sh, g, sols, r.solutions_found, NULL, "auto under a budget");
    free(sols);
    /* a trace keeps auto on propagation (cdcl does not trace) */
    {
        sudoku_opts_t o;
        sudoku_step_t steps[64];
        sudoku_opts_init(&o);
        o.max_solutions = 300;
        o.trace = steps;
        o.trace_cap = 64;
        ck_assert_int_eq(sudoku_method_for(&sh, g, &o), SUDOKU_METHOD_PROPAGATION);
        o.trace_cap = 0;
        ck_assert_int_eq(sudoku_method_for(&sh, g, &o), SUDOKU_METHOD_CDCL);
    }
}
END_TEST

/* === Over the API ======================================================= */

/* The 25x25 fixture with several solutions, as a JSON request. */
static char *fixture_request(const char *extra) {
    fixset_t fs;
    int k, i;
    char *body = malloc(25 * 25 + 256);
    ck_assert_ptr_nonnull(body);
    fixset_load(&fs, 25);
    for (k = 0; k < fs.nfix && fs.fix[k].count < 2; k++)
        ;
    ck_assert_int_lt(k, fs.nfix);
    strcpy(body, "{\"grid\": \"");
    for (i = 0; i < 625; i++) {
        int v = fs.fix[k].puzzle[i];
        body[10 + i] = (char)(v == 0 ? '.' : v <= 9 ? '0' + v : 'A' + v - 10);
    }
    snprintf(body + 10 + 625, 246, "\", %s}", extra);
    fixset_free(&fs);
    return body;
}

START_TEST(cdcl_api_portfolio) {
    char *body = fixture_request("\"method\": \"cdcl\", \"threads\": 2, \"max_solutions\": 2");
    tjob_t t = tjob_call(api_sudoku_solve_prepare, "application/json", NULL, body, NULL, 0);
    json_t *st;
    long long member;
    ck_assert_int_eq(t.status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(t.json, "status")), "multiple");
    ck_assert(json_is_false(json_object_get(t.json, "unique")));
    ck_assert_uint_eq(json_array_size(json_object_get(t.json, "solutions")), 2);
    st = json_object_get(t.json, "stats");
    ck_assert_str_eq(json_string_value(json_object_get(st, "method")), "cdcl");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "threads")), 2);
    member = json_integer_value(json_object_get(st, "portfolio_member"));
    ck_assert(member == 0 || member == 1);
    ck_assert(json_is_integer(json_object_get(st, "conflicts")));
    ck_assert(json_is_integer(json_object_get(st, "learned")));
    ck_assert(json_is_integer(json_object_get(st, "restarts")));
    ck_assert(json_is_integer(json_object_get(st, "imported")));
    ck_assert_int_eq(json_integer_value(json_object_get(st, "blocked")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(st, "backtracks")),
                     json_integer_value(json_object_get(st, "conflicts")));
    tjob_free(&t);
    free(body);

    /* one thread: the same answer, member 0 */
    body = fixture_request("\"method\": \"cdcl\", \"max_solutions\": 2");
    t = tjob_call(api_sudoku_solve_prepare, "application/json", NULL, body, NULL, 0);
    ck_assert_int_eq(t.status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(t.json, "status")), "multiple");
    st = json_object_get(t.json, "stats");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "threads")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(st, "portfolio_member")), 0);
    tjob_free(&t);
    free(body);
}
END_TEST

START_TEST(cdcl_api_refuses_trace) {
    char *body = fixture_request("\"method\": \"cdcl\", \"trace\": true");
    tjob_t t = tjob_call(api_sudoku_solve_prepare, "application/json", NULL, body, NULL, 0);
    ck_assert_int_eq(t.status, 400);
    ck_assert(tjob_names(&t, "trace"));
    tjob_free(&t);
    free(body);
    /* an unknown method names cdcl among the choices */
    t = tjob_call(api_sudoku_solve_prepare, "application/json", NULL,
                  "{\"grid\": \"1...........4...\", \"method\": \"sat\"}", NULL, 0);
    ck_assert_int_eq(t.status, 400);
    ck_assert_ptr_nonnull(strstr(t.body, "cdcl"));
    tjob_free(&t);
}
END_TEST

Suite *cdcl_suite(void) {
    Suite *s = suite_create("cdcl");
    TCase *fx = tcase_create("fixtures");
    TCase *lim = tcase_create("limits");
    TCase *api = tcase_create("api");
    tcase_add_loop_test(fx, cdcl_fixtures, 0, NSIZES);
    tcase_add_test(fx, cdcl_random_puzzles_agree);
    tcase_add_test(fx, cdcl_full_grid);
    tcase_add_test(fx, cdcl_stats);
    tcase_add_loop_test(fx, cdcl_portfolio_fixtures, 0, NSIZES);
    tcase_add_test(fx, cdcl_portfolio_random_puzzles);
    tcase_add_test(fx, cdcl_exchange_limits);
    tcase_set_timeout(fx, 120); /* generous for sanitizer builds */
    suite_add_tcase(s, fx);
    tcase_add_test(lim, cdcl_deadline);
    tcase_add_test(lim, cdcl_cancel);
    tcase_add_test(lim, cdcl_node_budget);
    tcase_add_test(lim, cdcl_memory);
    tcase_add_test(lim, cdcl_auto_hands_over);
    tcase_set_timeout(lim, 60);
    suite_add_tcase(s, lim);
    tcase_add_test(api, cdcl_api_portfolio);
    tcase_add_test(api, cdcl_api_refuses_trace);
    tcase_set_timeout(api, 60);
    suite_add_tcase(s, api);
    return s;
}
