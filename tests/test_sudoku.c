/* test_sudoku.c -- the Sudoku solver core (solvers/sudoku/sudoku.h), no HTTP.
 *
 * The centre is the fixture run: every method (and every propagation level)
 * against every line of tests/fixtures/sudoku_<n>.txt for the ten sizes,
 * checking each returned grid against the rules and the givens, the count
 * and the exhausted flag against the fixture, and unique solutions against
 * the fixture's.  Methods too weak for some sizes run under a node budget
 * and may stop there (see cfgs[] for which and why); everything they return
 * before stopping is still checked.
 *
 * Around it: shapes and default boxes, conflicts, solution checks, limits
 * (deadline, cancel flag, node budget, best-first memory cap), allocation
 * failures, traces (replayed on a board), options validation, and boxes that
 * are not the default (3x2, 1xN Latin squares).
 *
 * Fixtures are read relative to the working directory (make test runs from
 * the repository root); SUDOKU_FIXTURES=dir overrides. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/sudoku/sudoku.h"
#include "tests/sudoku_fixtures.h"
#include "tests/test_util.h"

Suite *sudoku_suite(void);

/* === Fixtures (tests/sudoku_fixtures.h) ================================ */

static const int sizes[] = {4, 6, 8, 9, 12, 16, 25, 36, 49, 64};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static sudoku_shape_t shape_of(int n) {
    sudoku_shape_t s;
    ck_assert_int_eq(sudoku_shape_init(&s, n, 0, 0), 0);
    return s;
}

/* === Method configurations ============================================= */

typedef struct cfg_s {
    const char *name;
    sudoku_method_t method;
    sudoku_level_t level;
    int max_n;       /* run on sizes up to this */
    int sure_n;      /* must finish every fixture up to this size; above, it
                        may stop at its node budget */
    uint64_t budget; /* node budget, 0 = none */
} cfg_t;

/* backtracking: no inference, exponential on minimal puzzles; skipped above
 *   16x16 and budgeted (a budget stop is allowed from 9x9 on: Norvig's first
 *   hard puzzle needs 1.4e8 nodes).
 * mrv and propagation at `peers`: no hidden singles; Norvig's puzzle with
 *   many solutions needs 5.4e6 mrv nodes (7.7e5 at peers) for two of them,
 *   and the harder generated grids from 16x16 on are out of reach, so a
 *   budget stop is allowed from 9x9 on.
 * dlx and algorithm-x: exact cover without inference beyond the fewest-
 *   options rule wanders on the harder generated grids from 25x25 on (and
 *   algorithm-x rescans its matrix at every node), so they are budgeted too.
 * The other configurations must finish everything. */
static const cfg_t cfgs[] = {
    {"backtracking", SUDOKU_METHOD_BACKTRACKING, SUDOKU_LEVEL_DEFAULT, 16, 8, 1000000},
    {"mrv", SUDOKU_METHOD_MRV, SUDOKU_LEVEL_DEFAULT, 64, 8, 100000},
    {"propagation/peers", SUDOKU_METHOD_PROPAGATION, SUDOKU_LEVEL_PEERS, 64, 8, 50000},
    {"propagation/hidden-singles", SUDOKU_METHOD_PROPAGATION, SUDOKU_LEVEL_HIDDEN_SINGLES, 64, 64,
     0},
    {"propagation/naked-pairs", SUDOKU_METHOD_PROPAGATION, SUDOKU_LEVEL_NAKED_PAIRS, 64, 64, 0},
    {"propagation/subsets", SUDOKU_METHOD_PROPAGATION, SUDOKU_LEVEL_SUBSETS, 64, 64, 0},
    {"best-first", SUDOKU_METHOD_BEST_FIRST, SUDOKU_LEVEL_HIDDEN_SINGLES, 64, 64, 0},
    {"auto", SUDOKU_METHOD_AUTO, SUDOKU_LEVEL_DEFAULT, 64, 64, 0},
    {"dlx", SUDOKU_METHOD_DLX, SUDOKU_LEVEL_DEFAULT, 64, 16, 2000000},
    {"algorithm-x", SUDOKU_METHOD_ALGORITHM_X, SUDOKU_LEVEL_DEFAULT, 25, 9, 200000},
};
#define NCFGS ((int)(sizeof cfgs / sizeof cfgs[0]))

static int grid_cmp_size;
static int grid_cmp(const void *a, const void *b) { return memcmp(a, b, (size_t)grid_cmp_size); }

/* Sorts k grids of nn bytes and checks they are pairwise different. */
static void sort_distinct(uint8_t *grids, uint32_t k, int nn, const char *what) {
    uint32_t i;
    grid_cmp_size = nn;
    qsort(grids, k, (size_t)nn, grid_cmp);
    for (i = 1; i < k; i++)
        ck_assert_msg(memcmp(grids + (size_t)(i - 1) * nn, grids + (size_t)i * nn, (size_t)nn) != 0,
                      "%s: the same solution twice", what);
}

/* Runs one configuration on one fixture with max_solutions = max.  Returns
 * the result; the solutions are left in *sols (malloc'd, caller frees). */
static int run_cfg(const cfg_t *cfg, const sudoku_shape_t *sh, const uint8_t *puzzle, uint32_t max,
                   uint8_t **sols, sudoku_result_t *res) {
    sudoku_opts_t o;
    search_ctl_t ctl = {.node_budget = cfg->budget};
    sudoku_opts_init(&o);
    o.method = cfg->method;
    o.level = cfg->level;
    o.max_solutions = max;
    o.ctl = &ctl;
    *sols = malloc((size_t)max * sh->n * sh->n);
    ck_assert(*sols != NULL);
    o.solutions = *sols;
    return sudoku_solve(sh, puzzle, &o, res);
}

/* Every returned grid solves the puzzle; returns 1 if the fixture's
 * solution is among them. */
static int check_solutions(const fix_t *fx, const sudoku_shape_t *sh, uint8_t *sols, uint32_t k,
                           const char *what) {
    int nn = fx->n * fx->n, seen = 0;
    uint32_t i;
    for (i = 0; i < k; i++) {
        ck_assert_msg(sudoku_check_solution(sh, fx->puzzle, sols + (size_t)i * nn) == 1,
                      "%s: solution %u breaks a rule or a given", what, i);
        if (fx->count > 0 && memcmp(sols + (size_t)i * nn, fx->solution, (size_t)nn) == 0) seen = 1;
    }
    if (k > 1) sort_distinct(sols, k, nn, what);
    return seen;
}

/* One fixture under one configuration.  Returns 1 if a budget stop was
 * taken (allowed), 0 if it finished. */
static int check_fixture(const cfg_t *cfg, const fixset_t *fs, const fix_t *fx) {
    sudoku_shape_t sh = shape_of(fx->n);
    sudoku_result_t r;
    uint8_t *sols;
    uint32_t max;
    char what[700];
    int rc, seen;

    snprintf(what, sizeof what, "%s on %s:%d", cfg->name, fs->path, fx->line);
    /* count run: one more than the count, so an exact count must end
     * exhausted; K+ asks for K and must stop there */
    max = fx->at_least ? (uint32_t)fx->count : (uint32_t)fx->count + 1;
    if (max < 2) max = 2;
    rc = run_cfg(cfg, &sh, fx->puzzle, max, &sols, &r);
    ck_assert_int_eq(r.code, rc);
    if (rc == SEARCH_BUDGET && fx->n > cfg->sure_n) {
        ck_assert_msg(r.stats.nodes == cfg->budget, "%s: stopped at %llu nodes", what,
                      (unsigned long long)r.stats.nodes);
        ck_assert(!r.exhausted);
        check_solutions(fx, &sh, sols, r.solutions_found, what);
        free(sols);
        return 1;
    }
    ck_assert_msg(rc == 0, "%s: rc %d", what, rc);
    if (fx->at_least) {
        ck_assert_msg(r.solutions_found == max && !r.exhausted, "%s: found %u, exhausted %d", what,
                      r.solutions_found, r.exhausted);
    } else {
        ck_assert_msg(r.solutions_found == (uint32_t)fx->count && r.exhausted,
                      "%s: found %u (want %ld), exhausted %d", what, r.solutions_found, fx->count,
                      r.exhausted);
    }
    seen = check_solutions(fx, &sh, sols, r.solutions_found, what);
    if (fx->count > 0 && !fx->at_least)
        ck_assert_msg(seen, "%s: the fixture's solution is not among those found", what);
    ck_assert_int_eq(sudoku_result_unique(&r), fx->count == 1 && !fx->at_least);
    free(sols);

    /* first-solution run */
    rc = run_cfg(cfg, &sh, fx->puzzle, 1, &sols, &r);
    if (rc == SEARCH_BUDGET && fx->n > cfg->sure_n) {
        free(sols);
        return 1;
    }
    ck_assert_msg(rc == 0, "%s (max 1): rc %d", what, rc);
    ck_assert_uint_eq(r.solutions_found, fx->count > 0 ? 1 : 0);
    if (fx->count == 0) ck_assert(r.exhausted);
    if (fx->count >= 2) ck_assert(!r.exhausted);
    if (r.solutions_found == 1) {
        ck_assert(sudoku_check_solution(&sh, fx->puzzle, sols) == 1);
        if (fx->count == 1 && !fx->at_least)
            ck_assert_msg(memcmp(sols, fx->solution, (size_t)fx->n * fx->n) == 0,
                          "%s: the unique solution differs from the fixture's", what);
    }
    free(sols);
    return 0;
}

START_TEST(sudoku_fixtures_every_method) {
    const cfg_t *cfg = &cfgs[_i];
    int s, k, ran = 0, stopped = 0;
    for (s = 0; s < NSIZES; s++) {
        fixset_t fs;
        if (sizes[s] > cfg->max_n) continue;
        fixset_load(&fs, sizes[s]);
        for (k = 0; k < fs.nfix; k++) {
            stopped += check_fixture(cfg, &fs, &fs.fix[k]);
            ran++;
        }
        fixset_free(&fs);
    }
    ck_assert_int_gt(ran, 0);
    /* a budgeted method must still finish most of what it runs */
    ck_assert_msg(stopped * 3 <= ran, "%s stopped on %d of %d fixtures", cfg->name, stopped, ran);
}
END_TEST

/* Every size has unique, multi-solution and unsolvable lines. */
START_TEST(sudoku_fixtures_cover_every_size) {
    int s, k;
    for (s = 0; s < NSIZES; s++) {
        fixset_t fs;
        int uniq = 0, multi = 0, none = 0;
        fixset_load(&fs, sizes[s]);
        for (k = 0; k < fs.nfix; k++) {
            const fix_t *fx = &fs.fix[k];
            sudoku_shape_t sh = shape_of(fx->n);
            size_t nconf = 99;
            ck_assert_int_eq(sudoku_find_conflicts(&sh, fx->puzzle, NULL, 0, &nconf), 0);
            ck_assert_uint_eq(nconf, 0);
            if (fx->count == 1 && !fx->at_least) {
                uniq++;
                ck_assert_int_eq(sudoku_check_solution(&sh, fx->puzzle, fx->solution), 1);
            }
            if (fx->count >= 2) multi++;
            if (fx->count == 0) none++;
        }
        ck_assert_msg(uniq >= 1 && multi >= 1 && none >= 1,
                      "%s: %d unique, %d multi, %d unsolvable", fs.path, uniq, multi, none);
        fixset_free(&fs);
    }
}
END_TEST

/* On multi-solution fixtures small enough to enumerate, every method that
 * finishes returns the same set of grids. */
START_TEST(sudoku_methods_agree_on_solution_sets) {
    int s, k, c, compared = 0;
    for (s = 0; s < NSIZES && sizes[s] <= 16; s++) {
        fixset_t fs;
        fixset_load(&fs, sizes[s]);
        for (k = 0; k < fs.nfix; k++) {
            const fix_t *fx = &fs.fix[k];
            sudoku_shape_t sh = shape_of(fx->n);
            size_t nn = (size_t)fx->n * fx->n;
            uint8_t *ref = NULL;
            uint32_t nref = 0;
            if (fx->at_least || fx->count < 2) continue;
            for (c = 0; c < NCFGS; c++) {
                sudoku_result_t r;
                uint8_t *sols;
                int rc;
                if (fx->n > cfgs[c].max_n) continue;
                rc = run_cfg(&cfgs[c], &sh, fx->puzzle, (uint32_t)fx->count + 1, &sols, &r);
                if (rc != 0) {
                    ck_assert(rc == SEARCH_BUDGET && fx->n > cfgs[c].sure_n);
                    free(sols);
                    continue;
                }
                grid_cmp_size = (int)nn;
                qsort(sols, r.solutions_found, nn, grid_cmp);
                if (ref == NULL) {
                    ref = sols;
                    nref = r.solutions_found;
                    continue;
                }
                ck_assert_uint_eq(r.solutions_found, nref);
                ck_assert_msg(memcmp(sols, ref, nn * nref) == 0, "%s differs on %s:%d",
                              cfgs[c].name, fs.path, fx->line);
                compared++;
                free(sols);
            }
            free(ref);
        }
        fixset_free(&fs);
    }
    ck_assert_int_gt(compared, 20);
}
END_TEST

static uint64_t xorshift(uint64_t *st) {
    *st ^= *st << 13;
    *st ^= *st >> 7;
    *st ^= *st << 17;
    return *st;
}

/* Random partial grids (pattern grids of many box shapes, symbols shuffled,
 * 15-75% of cells kept, one cell in four overwritten with a random value
 * that may break a rule): every configuration must agree with
 * propagation/hidden-singles on the outcome, the count (up to 20) and the
 * exhausted flag, or stop at its budget. */
START_TEST(sudoku_random_puzzles_agree) {
    static const int boxes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {3, 3},
                                   {1, 5}, {3, 4}, {4, 4}, {1, 6}, {2, 5}};
    uint64_t st = 0x9e3779b97f4a7c15u;
    uint8_t g[256], *sols;
    int it, k, informative = 0;
    for (it = 0; it < 300; it++) {
        const int *b;
        sudoku_shape_t sh;
        int n, nn, r, c, i, sym[16], keep;
        int ref_rc = 1;
        uint32_t ref_found = 0;
        int ref_exh = 0;
        b = boxes[xorshift(&st) % 10];
        ck_assert_int_eq(sudoku_shape_init(&sh, b[0] * b[1], b[0], b[1]), 0);
        n = sh.n;
        nn = n * n;
        for (i = 0; i < n; i++)
            sym[i] = i + 1;
        for (i = n - 1; i > 0; i--) {
            int j = (int)(xorshift(&st) % (uint64_t)(i + 1)), t = sym[i];
            sym[i] = sym[j];
            sym[j] = t;
        }
        for (r = 0; r < n; r++)
            for (c = 0; c < n; c++)
                g[r * n + c] = (uint8_t)sym[(b[1] * (r % b[0]) + r / b[0] + c) % n];
        keep = 15 + (int)(xorshift(&st) % 60);
        for (i = 0; i < nn; i++)
            if ((int)(xorshift(&st) % 100) >= keep) g[i] = 0;
        if (xorshift(&st) % 4 == 0) {
            int cell = (int)(xorshift(&st) % (uint64_t)nn);
            g[cell] = (uint8_t)(1 + xorshift(&st) % (uint64_t)n);
        }
        for (k = 3; k < 3 + NCFGS; k++) { /* the reference (index 3) first */
            const cfg_t *cfg = &cfgs[k % NCFGS];
            sudoku_result_t res;
            uint32_t j;
            int rc = run_cfg(cfg, &sh, g, 20, &sols, &res);
            if (rc == SEARCH_BUDGET) {
                ck_assert_ptr_nonnull(cfg->budget ? "budgeted" : NULL);
                free(sols);
                continue;
            }
            for (j = 0; j < res.solutions_found; j++)
                ck_assert_int_eq(sudoku_check_solution(&sh, g, sols + (size_t)j * nn), 1);
            free(sols);
            if (k == 3) {
                ref_rc = rc;
                ref_found = res.solutions_found;
                ref_exh = res.exhausted;
                continue;
            }
            ck_assert_msg(rc == ref_rc && res.solutions_found == ref_found,
                          "puzzle %d (%dx%d boxes): %s rc %d found %u, reference rc %d found %u",
                          it, b[0], b[1], cfg->name, rc, res.solutions_found, ref_rc, ref_found);
            if (ref_found < 20) ck_assert_int_eq(res.exhausted, ref_exh);
        }
        informative += ref_rc == 0 && ref_found < 20;
    }
    ck_assert_int_gt(informative, 100);
}
END_TEST

/* === Shapes ============================================================= */

START_TEST(sudoku_default_box_table) {
    static const int table[][3] = {{4, 2, 2},   {6, 2, 3},  {8, 2, 4},  {9, 3, 3},  {10, 2, 5},
                                   {12, 3, 4},  {14, 2, 7}, {15, 3, 5}, {16, 4, 4}, {18, 3, 6},
                                   {20, 4, 5},  {24, 4, 6}, {25, 5, 5}, {36, 6, 6}, {49, 7, 7},
                                   {60, 6, 10}, {63, 7, 9}, {64, 8, 8}};
    static const int primes[] = {5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61};
    size_t i;
    int r, c;
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        r = c = -1;
        ck_assert_int_eq(sudoku_default_box(table[i][0], &r, &c), 0);
        ck_assert_msg(r == table[i][1] && c == table[i][2], "n=%d: got %dx%d", table[i][0], r, c);
    }
    for (i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        r = c = -7;
        ck_assert_int_eq(sudoku_default_box(primes[i], &r, &c), SUDOKU_ENOBOX);
        ck_assert(r == -7 && c == -7); /* untouched on failure */
    }
    ck_assert_int_eq(sudoku_default_box(3, &r, &c), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_default_box(65, &r, &c), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_default_box(0, &r, &c), SEARCH_EINVAL);
}
END_TEST

START_TEST(sudoku_shape_init_checks_boxes) {
    sudoku_shape_t s = {99, 99, 99};
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 3, 2), 0);
    ck_assert(s.n == 6 && s.box_rows == 3 && s.box_cols == 2);
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 1, 6), 0); /* Latin square */
    ck_assert_int_eq(sudoku_shape_init(&s, 7, 7, 1), 0);
    ck_assert_int_eq(sudoku_shape_init(&s, 12, 0, 0), 0);
    ck_assert(s.box_rows == 3 && s.box_cols == 4);
    s.n = 99;
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 4, 2), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 0, 6), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 2, 0), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_shape_init(&s, 6, -2, -3), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_shape_init(&s, 7, 0, 0), SUDOKU_ENOBOX);
    ck_assert_int_eq(sudoku_shape_init(&s, 2, 1, 2), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_shape_init(&s, 81, 9, 9), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_shape_init(NULL, 9, 0, 0), SEARCH_EINVAL);
    ck_assert_int_eq(s.n, 99); /* untouched on failure */
    {
        sudoku_shape_t bad = {9, 3, 4};
        ck_assert_int_eq(sudoku_shape_check(&bad), SEARCH_EINVAL);
        ck_assert_int_eq(sudoku_shape_check(NULL), SEARCH_EINVAL);
    }
}
END_TEST

START_TEST(sudoku_box_numbering) {
    sudoku_shape_t s;
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 2, 3), 0);
    ck_assert_int_eq(sudoku_box_of(&s, 0, 0), 0);
    ck_assert_int_eq(sudoku_box_of(&s, 1, 5), 1);
    ck_assert_int_eq(sudoku_box_of(&s, 2, 3), 3);
    ck_assert_int_eq(sudoku_box_of(&s, 5, 2), 4);
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 3, 2), 0);
    ck_assert_int_eq(sudoku_box_of(&s, 1, 5), 2);
    ck_assert_int_eq(sudoku_box_of(&s, 3, 0), 3);
}
END_TEST

/* === Validation ========================================================= */

START_TEST(sudoku_conflicts_rows_columns_boxes) {
    sudoku_shape_t s = shape_of(4);
    /* 1 1 . .   row 0 and box 0 repeat 1; column 0 repeats 1 (rows 0, 2);
     * . . . .   box 3 repeats 2 at (2,2) and (3,3), no row or column does
     * 1 . 2 .
     * . . . 2 */
    uint8_t g[16] = {1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 2};
    sudoku_conflict_t out[8];
    size_t count = 0;
    memset(out, 0xAB, sizeof out);
    ck_assert_int_eq(sudoku_find_conflicts(&s, g, out, 8, &count), 0);
    ck_assert_uint_eq(count, 4);
    ck_assert(out[0].unit == SUDOKU_UNIT_ROW && out[0].index == 0 && out[0].value == 1);
    ck_assert(out[0].ncells == 2 && out[0].cells[0] == 0 && out[0].cells[1] == 1);
    ck_assert(out[1].unit == SUDOKU_UNIT_COL && out[1].index == 0 && out[1].value == 1);
    ck_assert(out[1].ncells == 2 && out[1].cells[0] == 0 && out[1].cells[1] == 8);
    ck_assert(out[2].unit == SUDOKU_UNIT_BOX && out[2].index == 0 && out[2].value == 1);
    ck_assert(out[2].ncells == 2 && out[2].cells[0] == 0 && out[2].cells[1] == 1);
    ck_assert(out[3].unit == SUDOKU_UNIT_BOX && out[3].index == 3 && out[3].value == 2);
    ck_assert(out[3].ncells == 2 && out[3].cells[0] == 10 && out[3].cells[1] == 15);

    /* a smaller buffer: the total is still reported, nothing written past cap */
    memset(out, 0xAB, sizeof out);
    ck_assert_int_eq(sudoku_find_conflicts(&s, g, out, 2, &count), 0);
    ck_assert_uint_eq(count, 4);
    ck_assert(out[1].unit == SUDOKU_UNIT_COL);
    ck_assert_uint_eq(out[2].unit, 0xAB);
    ck_assert_int_eq(sudoku_find_conflicts(&s, g, NULL, 0, &count), 0);
    ck_assert_uint_eq(count, 4);

    /* the same grid through the solver: refused, nothing solved */
    {
        sudoku_result_t r;
        ck_assert_int_eq(sudoku_solve(&s, g, NULL, &r), SUDOKU_ECONFLICT);
        ck_assert_int_eq(r.code, SUDOKU_ECONFLICT);
        ck_assert_uint_eq(r.solutions_found, 0);
    }
    /* three in a row: one conflict with three cells */
    {
        uint8_t t[16] = {3, 3, 3, 0};
        ck_assert_int_eq(sudoku_find_conflicts(&s, t, out, 8, &count), 0);
        ck_assert_uint_eq(count, 2); /* row 0; box 0 (cells 0,1); box 1 has one 3 */
        ck_assert(out[0].ncells == 3 && out[0].cells[2] == 2);
    }
    g[5] = 5; /* out of range */
    ck_assert_int_eq(sudoku_find_conflicts(&s, g, out, 8, &count), SEARCH_EINVAL);
    ck_assert_uint_eq(count, 0);
    ck_assert_int_eq(sudoku_check_values(&s, g), SEARCH_EINVAL);
}
END_TEST

START_TEST(sudoku_conflicts_in_other_box_shapes) {
    sudoku_shape_t s;
    uint8_t g[36] = {0};
    sudoku_conflict_t out[4];
    size_t count;
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 2, 3), 0);
    g[2 * 6 + 3] = 5;
    g[3 * 6 + 5] = 5;
    ck_assert_int_eq(sudoku_find_conflicts(&s, g, out, 4, &count), 0);
    ck_assert_uint_eq(count, 1);
    ck_assert(out[0].unit == SUDOKU_UNIT_BOX && out[0].index == 3 && out[0].value == 5);
    ck_assert(out[0].cells[0] == 15 && out[0].cells[1] == 23);
    /* with 3x2 boxes the two cells are in different boxes */
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 3, 2), 0);
    ck_assert_int_eq(sudoku_find_conflicts(&s, g, out, 4, &count), 0);
    ck_assert_uint_eq(count, 0);
    /* 1x6 boxes are rows: a row repeat is a box repeat too */
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 1, 6), 0);
    g[2 * 6 + 0] = 5;
    ck_assert_int_eq(sudoku_find_conflicts(&s, g, out, 4, &count), 0);
    ck_assert_uint_eq(count, 2);
    ck_assert(out[0].unit == SUDOKU_UNIT_ROW && out[1].unit == SUDOKU_UNIT_BOX);
    ck_assert(out[1].index == 2 && out[1].cells[0] == 12 && out[1].cells[1] == 15);
}
END_TEST

START_TEST(sudoku_check_solution_and_complete) {
    sudoku_shape_t s = shape_of(4);
    uint8_t sol[16] = {1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1};
    uint8_t puz[16] = {1, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    uint8_t g[16];
    ck_assert_int_eq(sudoku_is_complete(&s, sol), 1);
    ck_assert_int_eq(sudoku_check_solution(&s, puz, sol), 1);
    memcpy(g, sol, 16);
    g[15] = 0; /* incomplete */
    ck_assert_int_eq(sudoku_is_complete(&s, g), 0);
    ck_assert_int_eq(sudoku_check_solution(&s, puz, g), 0);
    memcpy(g, sol, 16);
    g[0] = 2; /* breaks row 0 and a given */
    ck_assert_int_eq(sudoku_is_complete(&s, g), 0);
    memcpy(g, sol, 16);
    g[1] = 5; /* out of range */
    ck_assert_int_eq(sudoku_is_complete(&s, g), 0);
    /* a valid grid that does not keep a given: swap the values 1 and 2 */
    {
        int i;
        for (i = 0; i < 16; i++)
            g[i] = sol[i] == 1 ? 2 : sol[i] == 2 ? 1 : sol[i];
        ck_assert_int_eq(sudoku_is_complete(&s, g), 1);
        ck_assert_int_eq(sudoku_check_solution(&s, puz, g), 0);
    }
    /* columns and boxes are checked, not only rows: every row a permutation */
    {
        uint8_t rows_only[16] = {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4};
        uint8_t cols_ok[16] = {1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3};
        sudoku_shape_t latin;
        ck_assert_int_eq(sudoku_is_complete(&s, rows_only), 0);
        ck_assert_int_eq(sudoku_is_complete(&s, cols_ok), 0); /* box 0 has 1,2,2,3 */
        ck_assert_int_eq(sudoku_shape_init(&latin, 4, 1, 4), 0);
        ck_assert_int_eq(sudoku_is_complete(&latin, cols_ok), 1);
    }
    ck_assert_int_eq(sudoku_is_complete(NULL, sol), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_check_solution(&s, NULL, sol), SEARCH_EINVAL);
}
END_TEST

/* === Options, names, errors ============================================ */

/* Allocator that fails after `allow` successful calls. */
typedef struct t_alloc_s {
    int allow, calls;
    size_t live;
} t_alloc_t;

static void *t_alloc(void *ud, size_t size) {
    t_alloc_t *a = ud;
    void *p;
    if (a->calls++ >= a->allow) return NULL;
    p = malloc(size);
    if (p != NULL) a->live++;
    return p;
}

static void t_free(void *ud, void *p) {
    t_alloc_t *a = ud;
    if (a != NULL && p != NULL) a->live--;
    free(p);
}

START_TEST(sudoku_names_round_trip) {
    int i;
    for (i = 0; i < SUDOKU_METHOD_COUNT; i++) {
        sudoku_method_t m = SUDOKU_METHOD_COUNT;
        const char *name = sudoku_method_name((sudoku_method_t)i);
        ck_assert_ptr_nonnull(name);
        ck_assert_int_eq(sudoku_method_parse(name, &m), 0);
        ck_assert_int_eq(m, i);
    }
    ck_assert_str_eq(sudoku_method_name(SUDOKU_METHOD_BEST_FIRST), "best-first");
    ck_assert_ptr_null(sudoku_method_name(SUDOKU_METHOD_COUNT));
    for (i = SUDOKU_LEVEL_PEERS; i < SUDOKU_LEVEL_COUNT; i++) {
        sudoku_level_t l = SUDOKU_LEVEL_DEFAULT;
        ck_assert_int_eq(sudoku_level_parse(sudoku_level_name((sudoku_level_t)i), &l), 0);
        ck_assert_int_eq(l, i);
    }
    ck_assert_str_eq(sudoku_level_name(SUDOKU_LEVEL_DEFAULT), "hidden-singles");
    ck_assert_str_eq(sudoku_level_name(SUDOKU_LEVEL_SUBSETS), "subsets");
    ck_assert_ptr_null(sudoku_level_name(SUDOKU_LEVEL_COUNT));
    {
        sudoku_method_t m = SUDOKU_METHOD_MRV;
        sudoku_level_t l = SUDOKU_LEVEL_PEERS;
        ck_assert_int_eq(sudoku_method_parse("dancing-links", &m), SEARCH_EINVAL);
        ck_assert_int_eq(sudoku_method_parse("Auto", &m), SEARCH_EINVAL);
        ck_assert_int_eq(m, SUDOKU_METHOD_MRV);
        ck_assert_int_eq(sudoku_level_parse("default", &l), SEARCH_EINVAL);
        ck_assert_int_eq(l, SUDOKU_LEVEL_PEERS);
    }
    ck_assert_str_eq(sudoku_step_kind_name(SUDOKU_STEP_ASSIGN), "assign");
    ck_assert_str_eq(sudoku_step_kind_name(SUDOKU_STEP_ELIMINATE), "eliminate");
    ck_assert_str_eq(sudoku_step_kind_name(SUDOKU_STEP_GUESS), "guess");
    ck_assert_str_eq(sudoku_step_kind_name(SUDOKU_STEP_BACKTRACK), "backtrack");
    ck_assert_ptr_null(sudoku_step_kind_name((sudoku_step_kind_t)4));
}
END_TEST

START_TEST(sudoku_invalid_options) {
    sudoku_shape_t s = shape_of(4);
    uint8_t g[16] = {0};
    sudoku_opts_t o;
    sudoku_result_t r;
    sudoku_step_t st[4];
    sudoku_opts_init(&o);
    ck_assert_int_eq(o.max_solutions, 1);
    ck_assert_int_eq(o.method, SUDOKU_METHOD_AUTO);
    ck_assert_int_eq(o.level, SUDOKU_LEVEL_HIDDEN_SINGLES);
    ck_assert_uint_eq(o.mem_cap, SUDOKU_DEFAULT_MEM_CAP);

    o.max_solutions = 0;
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), SEARCH_EINVAL);
    ck_assert_int_eq(r.code, SEARCH_EINVAL);
    o.max_solutions = SUDOKU_MAX_SOLUTIONS + 1;
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), SEARCH_EINVAL);
    o.max_solutions = SUDOKU_MAX_SOLUTIONS;
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 288); /* every 4x4 grid */
    o.max_solutions = 1;
    o.method = SUDOKU_METHOD_COUNT;
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), SEARCH_EINVAL);
    o.method = SUDOKU_METHOD_PROPAGATION;
    o.level = SUDOKU_LEVEL_COUNT;
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), SEARCH_EINVAL);
    o.level = SUDOKU_LEVEL_DEFAULT; /* means hidden-singles */
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), 0);
    ck_assert_int_eq(r.level, SUDOKU_LEVEL_HIDDEN_SINGLES);
    o.trace_cap = 4; /* without a buffer */
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), SEARCH_EINVAL);
    o.trace = st;
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), 0);
    o.trace = NULL;
    o.trace_cap = 0;
    g[3] = 5; /* value > n */
    ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), SEARCH_EINVAL);
    g[3] = 0;
    {
        sudoku_shape_t bad = {9, 2, 4};
        ck_assert_int_eq(sudoku_solve(&bad, g, &o, &r), SEARCH_EINVAL);
    }
    ck_assert_int_eq(sudoku_solve(&s, NULL, &o, &r), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_solve(&s, g, &o, NULL), SEARCH_EINVAL);
    {
        const search_allocator_t half = {NULL, t_free, NULL}; /* one hook without the other */
        o.alloc = &half;
        ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), SEARCH_EINVAL);
        o.alloc = NULL;
    }
    /* NULL options = defaults: auto, first solution */
    ck_assert_int_eq(sudoku_solve(&s, g, NULL, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    ck_assert_int_eq(r.method, SUDOKU_METHOD_PROPAGATION);
}
END_TEST

/* Allocation failures: every method reports SEARCH_ENOMEM, frees what it
 * got, and says nothing was found. */
START_TEST(sudoku_allocation_failure) {
    sudoku_shape_t s = shape_of(9);
    /* AI Escargot: every method needs a search (and memory) for it */
    static const char *p =
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
    uint8_t g[81];
    int i, m, rc;
    for (i = 0; i < 81; i++)
        g[i] = p[i] == '.' ? 0 : (uint8_t)(p[i] - '0');
    for (m = SUDOKU_METHOD_AUTO; m < SUDOKU_METHOD_COUNT; m++) {
        t_alloc_t a = {0, 0, 0};
        const search_allocator_t hooks = {t_alloc, t_free, &a};
        sudoku_opts_t o;
        sudoku_result_t r;
        sudoku_opts_init(&o);
        o.method = (sudoku_method_t)m;
        o.alloc = &hooks;
        rc = sudoku_solve(&s, g, &o, &r);
        if (m == SUDOKU_METHOD_FAST || m == SUDOKU_METHOD_AUTO) { /* 9x9 band solver: no heap */
            ck_assert_int_eq(rc, 0);
            ck_assert_int_eq(a.calls, 0);
            continue;
        }
        ck_assert_msg(rc == SEARCH_ENOMEM, "%s: rc %d", sudoku_method_name((sudoku_method_t)m), rc);
        ck_assert_uint_eq(r.solutions_found, 0);
        ck_assert_uint_eq(a.live, 0);
        /* with memory it works, and everything is given back */
        a.allow = 1000;
        a.calls = 0;
        o.max_solutions = 2;
        rc = sudoku_solve(&s, g, &o, &r);
        ck_assert_int_eq(rc, 0);
        ck_assert(sudoku_result_unique(&r));
        ck_assert_uint_eq(a.live, 0);
        ck_assert_uint_gt(r.mem_peak, 0);
    }
    /* best-first: the arena is granted, the first queue chunk is not */
    {
        t_alloc_t a = {1, 0, 0};
        const search_allocator_t hooks = {t_alloc, t_free, &a};
        sudoku_opts_t o;
        sudoku_result_t r;
        sudoku_opts_init(&o);
        o.method = SUDOKU_METHOD_BEST_FIRST;
        o.alloc = &hooks;
        ck_assert_int_eq(sudoku_solve(&s, g, &o, &r), SEARCH_ENOMEM);
        ck_assert_uint_eq(a.live, 0);
    }
}
END_TEST

/* === Limits ============================================================= */

/* A grid with no givens (n*n zeros, malloc'd). */
static uint8_t *empty_grid(int n) {
    uint8_t *g = calloc((size_t)n * n, 1);
    ck_assert_ptr_nonnull(g);
    return g;
}

static void grid_from_string(const char *p, uint8_t *g, int n) {
    int i;
    for (i = 0; i < n * n; i++)
        g[i] = p[i] == '.' ? 0 : (uint8_t)(p[i] - '0');
}

/* Norvig's puzzle with many solutions: counting 10,000 of them takes a few
 * hundred milliseconds with weak propagation. */
static const char *const norvig_multi =
    ".....6....59.....82....8....45........3........6..3.54...325..6..................";

/* A task that runs for well over 100 ms (seconds or more for most) with
 * `cfg` and no limits: the empty 25x25 grid defeats backtracking and mrv;
 * Norvig's multi-solution puzzle at the peers level keeps the others busy
 * counting 10,000 solutions, and auto counts 10,000 solutions of the empty
 * 16x16 grid.  The exception is fast: no 9x9 task within the 10,000-solution
 * cap keeps it busy for 20 ms (Norvig's puzzle takes it about 3 ms), so the
 * two tests that stop a search from outside after 20 ms leave it out, and
 * test_sudoku9.c stops it mid-search in a loop instead. */
static void long_task(sudoku_method_t m, sudoku_shape_t *sh, uint8_t **grid, sudoku_opts_t *o) {
    sudoku_opts_init(o);
    o->method = m;
    o->max_solutions = SUDOKU_MAX_SOLUTIONS;
    if (m == SUDOKU_METHOD_BACKTRACKING || m == SUDOKU_METHOD_MRV) {
        *sh = shape_of(25);
        *grid = empty_grid(25);
    } else if (m == SUDOKU_METHOD_AUTO) {
        *sh = shape_of(16);
        *grid = empty_grid(16);
    } else {
        *sh = shape_of(9);
        *grid = empty_grid(9);
        grid_from_string(norvig_multi, *grid, 9);
        if (m != SUDOKU_METHOD_AUTO) o->level = SUDOKU_LEVEL_PEERS;
    }
}

START_TEST(sudoku_deadline_in_the_past) {
    int m;
    for (m = SUDOKU_METHOD_AUTO; m < SUDOKU_METHOD_COUNT; m++) {
        sudoku_shape_t sh;
        uint8_t *g;
        sudoku_opts_t o;
        sudoku_result_t r;
        search_ctl_t ctl = {.deadline_ns = 1}; /* 1 ns after boot */
        long_task((sudoku_method_t)m, &sh, &g, &o);
        o.ctl = &ctl;
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_TIMEOUT);
        ck_assert_uint_eq(r.solutions_found, 0);
        ck_assert_uint_eq(r.stats.nodes, 0);
        ck_assert(!r.exhausted);
        free(g);
    }
}
END_TEST

/* A deadline during the search stops it, and what was found by then is
 * valid.  The search never ends by itself (long_task), but a method's
 * set-up (dlx's matrix, say) may outlast a short deadline on a loaded
 * machine under a sanitizer -- then it stops before its first node, which
 * is right but not what this checks: longer deadlines follow until one
 * lands in the search. */
START_TEST(sudoku_deadline_during_search) {
    static const int64_t delays_ms[] = {20, 100, 500, 2500};
    sudoku_method_t m = (sudoku_method_t)_i;
    sudoku_shape_t sh;
    uint8_t *g, *sols;
    sudoku_opts_t o;
    sudoku_result_t r = {0};
    search_ctl_t ctl = {.deadline_ns = 0};
    uint32_t k;
    long_task(m, &sh, &g, &o);
    sols = malloc((size_t)SUDOKU_MAX_SOLUTIONS * sh.n * sh.n);
    ck_assert_ptr_nonnull(sols);
    o.solutions = sols;
    o.ctl = &ctl;
    for (size_t d = 0; d < sizeof delays_ms / sizeof delays_ms[0] && r.stats.nodes == 0; d++) {
        int64_t t0 = search_now_ns();
        ctl.deadline_ns = t0 + delays_ms[d] * 1000000;
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_TIMEOUT);
        ck_assert_msg(search_now_ns() - t0 < (delays_ms[d] + 3000) * 1000000, "%s: stopped late",
                      sudoku_method_name(m));
        ck_assert(!r.exhausted);
        ck_assert_uint_lt(r.solutions_found, SUDOKU_MAX_SOLUTIONS);
        for (k = 0; k < r.solutions_found; k++) /* what was found before is valid */
            ck_assert_int_eq(sudoku_check_solution(&sh, g, sols + (size_t)k * sh.n * sh.n), 1);
    }
    ck_assert_msg(r.stats.nodes > 0, "%s: no deadline landed in the search", sudoku_method_name(m));
    free(sols);
    free(g);
}
END_TEST

START_TEST(sudoku_cancel_flag_raised) {
    int m;
    atomic_int flag;
    atomic_init(&flag, 1);
    for (m = SUDOKU_METHOD_AUTO; m < SUDOKU_METHOD_COUNT; m++) {
        sudoku_shape_t sh;
        uint8_t *g;
        sudoku_opts_t o;
        sudoku_result_t r;
        search_ctl_t ctl = {.deadline_ns = 0, .cancel = &flag};
        long_task((sudoku_method_t)m, &sh, &g, &o);
        o.ctl = &ctl;
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_CANCELLED);
        ck_assert_uint_eq(r.stats.nodes, 0);
        free(g);
    }
}
END_TEST

/* A flag raised while the search runs stops it promptly, with the work
 * so far in the stats.  The flag comes from another thread after a delay,
 * so one run can be inconclusive: the task may finish first on a fast
 * machine (DLX takes ~35 ms) or the flag may beat the first node on a
 * loaded one.  Such a run is repeated with another delay; a run that ends
 * any other way, or late, fails. */
START_TEST(sudoku_cancel_during_search) {
    static const int delays_ms[] = {20, 5, 1, 20, 5, 1};
    sudoku_method_t m = (sudoku_method_t)_i;
    size_t k;
    int seen = 0;
    for (k = 0; k < sizeof delays_ms / sizeof delays_ms[0] && !seen; k++) {
        sudoku_shape_t sh;
        uint8_t *g;
        sudoku_opts_t o;
        sudoku_result_t r;
        atomic_int flag;
        search_ctl_t ctl = {.deadline_ns = 0, .cancel = &flag};
        test_canceller_t c = {&flag, delays_ms[k]};
        pthread_t th;
        int64_t t0;
        int rc;
        atomic_init(&flag, 0);
        long_task(m, &sh, &g, &o);
        o.ctl = &ctl;
        t0 = search_now_ns();
        ck_assert_int_eq(pthread_create(&th, NULL, test_canceller, &c), 0);
        rc = sudoku_solve(&sh, g, &o, &r);
        ck_assert_int_eq(pthread_join(th, NULL), 0);
        ck_assert_msg(search_now_ns() - t0 < 3000000000LL, "%s: stopped late",
                      sudoku_method_name(m));
        ck_assert_msg(rc == SEARCH_CANCELLED || rc == 0, "%s: rc %d", sudoku_method_name(m), rc);
        seen = rc == SEARCH_CANCELLED && r.stats.nodes > 0;
        free(g);
    }
    ck_assert_msg(seen, "%s: no run was cancelled mid-search", sudoku_method_name(m));
}
END_TEST

START_TEST(sudoku_node_budget) {
    int m;
    for (m = SUDOKU_METHOD_AUTO; m < SUDOKU_METHOD_COUNT; m++) {
        sudoku_shape_t sh = shape_of(16);
        uint8_t *g = empty_grid(16), *sols = malloc((size_t)SUDOKU_MAX_SOLUTIONS * 256);
        sudoku_opts_t o;
        sudoku_result_t r;
        search_ctl_t ctl = {.node_budget = 100};
        uint32_t k;
        ck_assert_ptr_nonnull(sols);
        sudoku_opts_init(&o);
        o.method = (sudoku_method_t)m;
        if (m == SUDOKU_METHOD_FAST && sh.n != 9) { /* fast is 9x9 only, and says so */
            ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_EINVAL);
            free(sols);
            free(g);
            continue;
        }
        o.max_solutions = SUDOKU_MAX_SOLUTIONS;
        o.solutions = sols;
        o.ctl = &ctl;
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_BUDGET);
        ck_assert_uint_eq(r.stats.nodes, 100); /* exactly the budget */
        ck_assert(!r.exhausted);
        for (k = 0; k < r.solutions_found; k++)
            ck_assert_int_eq(sudoku_check_solution(&sh, g, sols + (size_t)k * 256), 1);
        /* a budget the search does not need changes nothing */
        ctl.node_budget = 1000000;
        o.max_solutions = 1;
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 1);
        ck_assert_uint_le(r.stats.nodes, 1000000);
        free(sols);
        free(g);
    }
}
END_TEST

START_TEST(sudoku_bestfirst_memory_cap) {
    sudoku_shape_t sh = shape_of(36);
    uint8_t *g = empty_grid(36);
    sudoku_opts_t o;
    sudoku_result_t r;
    sudoku_opts_init(&o);
    o.method = SUDOKU_METHOD_BEST_FIRST;
    o.max_solutions = SUDOKU_MAX_SOLUTIONS;
    /* smaller than the working arena: stops before searching */
    o.mem_cap = 4096;
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_BUDGET);
    ck_assert_uint_eq(r.stats.nodes, 0);
    ck_assert_uint_eq(r.mem_peak, 0);
    /* the queue of the empty grid outgrows 3 MiB: budget, within the cap */
    o.mem_cap = (size_t)3 << 20;
    ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_BUDGET);
    ck_assert_uint_gt(r.stats.nodes, 0);
    ck_assert_uint_le(r.mem_peak, o.mem_cap);
    ck_assert_uint_gt(r.mem_peak, (size_t)2 << 20); /* it did use the room */
    free(g);
    /* the queue grows over many chunks and heap copies and still enumerates
     * correctly */
    {
        sudoku_shape_t s25 = shape_of(25);
        uint8_t *e = empty_grid(25), *sols = malloc((size_t)2000 * 625);
        uint32_t k;
        ck_assert_ptr_nonnull(sols);
        sudoku_opts_init(&o);
        o.method = SUDOKU_METHOD_BEST_FIRST;
        o.max_solutions = 2000;
        o.solutions = sols;
        ck_assert_int_eq(sudoku_solve(&s25, e, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 2000);
        ck_assert_uint_gt(r.mem_peak, (size_t)2 << 20);
        ck_assert_uint_le(r.mem_peak, SUDOKU_DEFAULT_MEM_CAP);
        for (k = 0; k < 2000; k++)
            ck_assert_int_eq(sudoku_check_solution(&s25, e, sols + (size_t)k * 625), 1);
        sort_distinct(sols, 2000, 625, "best-first 25x25");
        free(sols);
        free(e);
    }
}
END_TEST

/* === Semantics ========================================================== */

START_TEST(sudoku_max_solutions_and_exhausted) {
    int m;
    for (m = SUDOKU_METHOD_AUTO; m < SUDOKU_METHOD_COUNT; m++) {
        sudoku_shape_t sh = shape_of(4);
        uint8_t g[16] = {0}, sols[300 * 16];
        sudoku_opts_t o;
        sudoku_result_t r;
        sudoku_opts_init(&o);
        o.method = (sudoku_method_t)m;
        if (m == SUDOKU_METHOD_FAST && sh.n != 9) { /* fast is 9x9 only, and says so */
            ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_EINVAL);
            continue;
        }
        o.solutions = sols;
        o.max_solutions = 10;
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 10);
        ck_assert(!r.exhausted);
        sort_distinct(sols, 10, 16, "max 10");
        o.max_solutions = 288;
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 288);
        o.max_solutions = 289;
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 288);
        ck_assert(r.exhausted);
        sort_distinct(sols, 288, 16, "all 4x4 grids");
        o.solutions = NULL; /* counting only */
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 288);
    }
}
END_TEST

START_TEST(sudoku_consistent_but_unsolvable) {
    /* 1 2 3 .   the last cell of row 0 can only be 4, which column 3 has:
     * . . . 4   every method ends with 0 solutions, exhausted, code 0 */
    sudoku_shape_t sh = shape_of(4);
    uint8_t g[16] = {1, 2, 3, 0, 0, 0, 0, 4};
    size_t nconf;
    int m;
    ck_assert_int_eq(sudoku_find_conflicts(&sh, g, NULL, 0, &nconf), 0);
    ck_assert_uint_eq(nconf, 0);
    for (m = SUDOKU_METHOD_AUTO; m < SUDOKU_METHOD_COUNT; m++) {
        sudoku_opts_t o;
        sudoku_result_t r;
        sudoku_opts_init(&o);
        o.method = (sudoku_method_t)m;
        o.max_solutions = 2;
        if (m == SUDOKU_METHOD_FAST) { /* 9x9 only, and says so */
            ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), SEARCH_EINVAL);
            continue;
        }
        ck_assert_int_eq(sudoku_solve(&sh, g, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 0);
        ck_assert(r.exhausted);
        ck_assert(!sudoku_result_unique(&r));
    }
}
END_TEST

START_TEST(sudoku_other_box_shapes) {
    /* 6x6 with 3x2 boxes from the pattern grid, 2 cells in 3 blanked; and
     * 4x4 Latin squares (1x4 and 4x1 boxes): 576 of them */
    sudoku_shape_t s6, l14, l41;
    uint8_t g6[36], sols[600 * 36], empty4[16] = {0};
    uint32_t ref = 0;
    int r, c, k;
    ck_assert_int_eq(sudoku_shape_init(&s6, 6, 3, 2), 0);
    ck_assert_int_eq(sudoku_shape_init(&l14, 4, 1, 4), 0);
    ck_assert_int_eq(sudoku_shape_init(&l41, 4, 4, 1), 0);
    for (r = 0; r < 6; r++)
        for (c = 0; c < 6; c++)
            g6[r * 6 + c] = (uint8_t)((2 * (r % 3) + r / 3 + c) % 6 + 1);
    ck_assert_int_eq(sudoku_is_complete(&s6, g6), 1);
    for (r = 0; r < 36; r++)
        if ((r * 7) % 3 != 0) g6[r] = 0;
    for (k = 0; k < NCFGS; k++) {
        sudoku_opts_t o;
        sudoku_result_t res;
        uint32_t i;
        sudoku_opts_init(&o);
        o.method = cfgs[k].method;
        o.level = cfgs[k].level;
        o.max_solutions = 600;
        o.solutions = sols;
        ck_assert_int_eq(sudoku_solve(&s6, g6, &o, &res), 0);
        ck_assert(res.exhausted);
        ck_assert_uint_gt(res.solutions_found, 1);
        if (k == 0) ref = res.solutions_found;
        ck_assert_msg(res.solutions_found == ref, "%s: %u solutions, want %u", cfgs[k].name,
                      res.solutions_found, ref);
        for (i = 0; i < res.solutions_found; i++)
            ck_assert_int_eq(sudoku_check_solution(&s6, g6, sols + (size_t)i * 36), 1);
        ck_assert_int_eq(sudoku_solve(&l14, empty4, &o, &res), 0);
        ck_assert_uint_eq(res.solutions_found, 576);
        ck_assert(res.exhausted);
        for (i = 0; i < 576; i++)
            ck_assert_int_eq(sudoku_is_complete(&l14, sols + (size_t)i * 16), 1);
        sort_distinct(sols, 576, 16, "latin 1x4");
        ck_assert_int_eq(sudoku_solve(&l41, empty4, &o, &res), 0);
        ck_assert_uint_eq(res.solutions_found, 576);
    }
    /* a prime side works with explicit 1x7 boxes */
    {
        sudoku_shape_t s7;
        uint8_t g7[49] = {0}, sol7[49];
        sudoku_opts_t o;
        sudoku_result_t res;
        ck_assert_int_eq(sudoku_shape_init(&s7, 7, 1, 7), 0);
        g7[0] = 7;
        g7[8] = 7;
        sudoku_opts_init(&o);
        o.solutions = sol7;
        ck_assert_int_eq(sudoku_solve(&s7, g7, &o, &res), 0);
        ck_assert_uint_eq(res.solutions_found, 1);
        ck_assert_int_eq(sudoku_check_solution(&s7, g7, sol7), 1);
    }
}
END_TEST

START_TEST(sudoku_stats_and_auto) {
    sudoku_shape_t sh = shape_of(9);
    uint8_t easy[81], hard[81];
    sudoku_opts_t o;
    sudoku_result_t r;
    grid_from_string(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..", easy,
        9);
    grid_from_string(
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..", hard,
        9);
    sudoku_opts_init(&o);
    /* auto runs the 9x9 band solver, and says so */
    ck_assert_int_eq(sudoku_solve(&sh, easy, &o, &r), 0);
    ck_assert_int_eq(r.method, SUDOKU_METHOD_FAST);
    /* a traced 9x9 solve propagates at hidden-singles (fast keeps no trace) */
    {
        sudoku_step_t steps[64];
        sudoku_opts_t ot;
        sudoku_opts_init(&ot);
        ot.trace = steps;
        ot.trace_cap = 64;
        ck_assert_int_eq(sudoku_solve(&sh, easy, &ot, &r), 0);
        ck_assert_int_eq(r.method, SUDOKU_METHOD_PROPAGATION);
        ck_assert_int_eq(r.level, SUDOKU_LEVEL_HIDDEN_SINGLES);
    }
    /* from 16x16 on auto propagates at the subsets level */
    {
        sudoku_shape_t s16 = shape_of(16);
        uint8_t *e = empty_grid(16);
        ck_assert_int_eq(sudoku_solve(&s16, e, &o, &r), 0);
        ck_assert_int_eq(r.method, SUDOKU_METHOD_PROPAGATION);
        ck_assert_int_eq(r.level, SUDOKU_LEVEL_SUBSETS);
        free(e);
        ck_assert_int_eq(sudoku_solve(&sh, easy, &o, &r), 0);
    }
    /* the easy grid falls to propagation alone: no node, proven unique
     * even when asking for one solution */
    ck_assert_uint_eq(r.stats.nodes, 0);
    ck_assert_uint_gt(r.stats.propagations, 0);
    ck_assert_uint_eq(r.stats.max_depth, 0);
    ck_assert(r.exhausted);
    /* the hard one needs guesses and refutations */
    o.method = SUDOKU_METHOD_PROPAGATION;
    o.max_solutions = 2;
    ck_assert_int_eq(sudoku_solve(&sh, hard, &o, &r), 0);
    ck_assert(sudoku_result_unique(&r));
    ck_assert_uint_gt(r.stats.nodes, 0);
    ck_assert_uint_gt(r.stats.backtracks, 0);
    ck_assert_uint_le(r.stats.backtracks, r.stats.nodes);
    ck_assert_uint_ge(r.stats.max_depth, 1);
    ck_assert_uint_gt(r.mem_peak, 0);
    /* stronger levels never need more guesses on it than weaker ones */
    {
        uint64_t prev = UINT64_MAX;
        int l;
        for (l = SUDOKU_LEVEL_PEERS; l < SUDOKU_LEVEL_COUNT; l++) {
            o.level = (sudoku_level_t)l;
            ck_assert_int_eq(sudoku_solve(&sh, hard, &o, &r), 0);
            ck_assert(sudoku_result_unique(&r));
            ck_assert_uint_le(r.stats.nodes, prev);
            prev = r.stats.nodes;
        }
    }
    /* backtracking and mrv do no inference */
    o.method = SUDOKU_METHOD_BACKTRACKING;
    ck_assert_int_eq(sudoku_solve(&sh, easy, &o, &r), 0);
    ck_assert_uint_eq(r.stats.propagations, 0);
    ck_assert_uint_eq(r.stats.max_depth, 81 - 32); /* one level a blank */
    ck_assert_int_eq(r.level, SUDOKU_LEVEL_DEFAULT);
    o.method = SUDOKU_METHOD_MRV;
    ck_assert_int_eq(sudoku_solve(&sh, hard, &o, &r), 0);
    ck_assert_uint_eq(r.stats.propagations, 0);
    ck_assert(sudoku_result_unique(&r));
}
END_TEST

/* === Traces ============================================================= */

/* Replays a depth-first trace on a copy of the puzzle (see the step kinds in
 * sudoku.h) and leaves the board in `board`. */
static void replay(const sudoku_shape_t *sh, const uint8_t *puzzle, const sudoku_step_t *st,
                   size_t len, uint8_t *board) {
    int nn = sh->n * sh->n;
    size_t i, top = 0;
    sudoku_step_t *log = malloc((len + 1) * sizeof *log);
    ck_assert_ptr_nonnull(log);
    memcpy(board, puzzle, (size_t)nn);
    for (i = 0; i < len; i++) {
        const sudoku_step_t *s = &st[i];
        ck_assert_int_lt(s->kind, 4);
        ck_assert_int_lt(s->cell, nn);
        ck_assert(s->value >= 1 && s->value <= sh->n);
        switch (s->kind) {
        case SUDOKU_STEP_ASSIGN:
        case SUDOKU_STEP_GUESS:
            ck_assert_msg(board[s->cell] == 0, "step %zu: cell %d set twice", i, s->cell);
            ck_assert_msg(puzzle[s->cell] == 0, "step %zu: a given changes", i);
            board[s->cell] = s->value;
            log[top++] = *s;
            break;
        case SUDOKU_STEP_BACKTRACK:
            for (;;) {
                sudoku_step_t u;
                ck_assert_msg(top > 0, "step %zu: backtrack without its guess", i);
                u = log[--top];
                board[u.cell] = 0;
                if (u.kind == SUDOKU_STEP_GUESS && u.cell == s->cell && u.value == s->value) break;
            }
            break;
        default: /* ELIMINATE: candidates only */ break;
        }
    }
    free(log);
}

START_TEST(sudoku_trace_replays_to_the_solution) {
    const cfg_t *cfg = &cfgs[_i];
    sudoku_shape_t sh = shape_of(9);
    uint8_t p[81], sol[81], board[81];
    sudoku_step_t *st = malloc(200000 * sizeof *st);
    sudoku_opts_t o;
    sudoku_result_t r;
    size_t i, guesses = 0, backs = 0, other = 0;
    ck_assert_ptr_nonnull(st);
    /* AI Escargot: needs guesses from every method, backtracking included */
    grid_from_string(
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..", p, 9);
    sudoku_opts_init(&o);
    o.method = cfg->method;
    o.level = cfg->level;
    o.solutions = sol;
    o.trace = st;
    o.trace_cap = 200000;
    ck_assert_int_eq(sudoku_solve(&sh, p, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    ck_assert(!r.trace_truncated);
    if (cfg->method == SUDOKU_METHOD_DLX || cfg->method == SUDOKU_METHOD_ALGORITHM_X) {
        ck_assert_uint_eq(r.trace_len, 0); /* exact cover keeps no trace (sudoku.c) */
        free(st);
        return;
    }
    ck_assert_uint_gt(r.trace_len, 0);
    for (i = 0; i < r.trace_len; i++) {
        guesses += st[i].kind == SUDOKU_STEP_GUESS;
        backs += st[i].kind == SUDOKU_STEP_BACKTRACK;
        other += st[i].kind == SUDOKU_STEP_ASSIGN || st[i].kind == SUDOKU_STEP_ELIMINATE;
    }
    ck_assert_uint_eq(guesses, r.stats.nodes);
    if (cfg->method == SUDOKU_METHOD_BACKTRACKING || cfg->method == SUDOKU_METHOD_MRV)
        ck_assert_uint_eq(other, 0);
    else
        ck_assert_uint_gt(other, 0);
    if (cfg->method == SUDOKU_METHOD_BEST_FIRST) {
        /* a log, not a replay: each child is a GUESS closed by a BACKTRACK,
         * except the solved child that ended the search */
        ck_assert_uint_eq(guesses, backs + 1);
    } else {
        ck_assert_uint_eq(backs, r.stats.backtracks);
        replay(&sh, p, st, r.trace_len, board);
        ck_assert_msg(memcmp(board, sol, 81) == 0, "%s: the replayed board is not the solution",
                      cfg->name);
    }
    /* the same solve with too small a buffer: first steps identical,
     * truncation flagged, result unchanged */
    {
        sudoku_step_t small[7];
        size_t full = r.trace_len;
        o.trace = small;
        o.trace_cap = 7;
        ck_assert_int_eq(sudoku_solve(&sh, p, &o, &r), 0);
        ck_assert_uint_eq(r.trace_len, 7);
        ck_assert(r.trace_truncated);
        ck_assert_uint_eq(r.solutions_found, 1);
        ck_assert(memcmp(small, st, sizeof small) == 0);
        /* exactly the needed room: no truncation */
        o.trace = st;
        o.trace_cap = full;
        ck_assert_int_eq(sudoku_solve(&sh, p, &o, &r), 0);
        ck_assert_uint_eq(r.trace_len, full);
        ck_assert(!r.trace_truncated);
        o.trace_cap = full - 1;
        ck_assert_int_eq(sudoku_solve(&sh, p, &o, &r), 0);
        ck_assert(r.trace_truncated);
    }
    free(st);
}
END_TEST

/* === Suite ============================================================== */

Suite *sudoku_suite(void) {
    Suite *s = suite_create("sudoku");
    TCase *tc = tcase_create("core");
    TCase *fx = tcase_create("fixtures");
    TCase *lim = tcase_create("limits");

    tcase_add_test(tc, sudoku_default_box_table);
    tcase_add_test(tc, sudoku_shape_init_checks_boxes);
    tcase_add_test(tc, sudoku_box_numbering);
    tcase_add_test(tc, sudoku_conflicts_rows_columns_boxes);
    tcase_add_test(tc, sudoku_conflicts_in_other_box_shapes);
    tcase_add_test(tc, sudoku_check_solution_and_complete);
    tcase_add_test(tc, sudoku_names_round_trip);
    tcase_add_test(tc, sudoku_invalid_options);
    tcase_add_test(tc, sudoku_allocation_failure);
    tcase_add_test(tc, sudoku_max_solutions_and_exhausted);
    tcase_add_test(tc, sudoku_consistent_but_unsolvable);
    tcase_add_test(tc, sudoku_other_box_shapes);
    tcase_add_test(tc, sudoku_stats_and_auto);
    tcase_add_loop_test(tc, sudoku_trace_replays_to_the_solution, 0, NCFGS);
    suite_add_tcase(s, tc);

    tcase_add_test(fx, sudoku_fixtures_cover_every_size);
    tcase_add_loop_test(fx, sudoku_fixtures_every_method, 0, NCFGS);
    tcase_add_test(fx, sudoku_methods_agree_on_solution_sets);
    tcase_add_test(fx, sudoku_random_puzzles_agree);
    tcase_set_timeout(fx, 60); /* generous for sanitizer builds */
    suite_add_tcase(s, fx);

    tcase_add_test(lim, sudoku_deadline_in_the_past);
    tcase_add_loop_test(lim, sudoku_deadline_during_search, SUDOKU_METHOD_AUTO, SUDOKU_METHOD_FAST);
    tcase_add_test(lim, sudoku_cancel_flag_raised);
    tcase_add_loop_test(lim, sudoku_cancel_during_search, SUDOKU_METHOD_AUTO, SUDOKU_METHOD_FAST);
    tcase_add_test(lim, sudoku_node_budget);
    tcase_add_test(lim, sudoku_bestfirst_memory_cap);
    tcase_set_timeout(lim, 60);
    suite_add_tcase(s, lim);
    return s;
}
