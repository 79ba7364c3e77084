/* test_xcover.c -- unit tests for solvers/xcover*.c, sudoku/xc.c and
 * nqueens/xc.c.
 *
 * What is checked, and against what:
 *   - Knuth's example from "Dancing Links" (one solution, known by hand).
 *   - 6x10 pentominoes with the X piece held to one quarter of the board:
 *     2,339 solutions (dlx; ~1.4 s natively, the longest test here).  The
 *     3x20 rectangle (8 solutions, all symmetries) runs both engines and the
 *     split, because algorithm-x on 6x10 alone would double the suite time.
 *     The full 9,356 (~5.5 s) lives in bench/bench_xcover.c.
 *   - N-Queens through secondary items: counts for n = 1..10 equal OEIS
 *     A000170 and the bitboard counter; first solutions pass nqueens_verify.
 *   - Sudoku: Inkala's puzzle (known solution), the empty 4x4 (288) and the
 *     4x4 Latin squares (576), a 6x6 with 2x3 boxes, generated 12x12, 16x16
 *     and 25x25, and one generated puzzle for every side 4..64; every grid
 *     passes sudoku_check_solution(); both engines give the same grids in
 *     the same order.
 *   - The split: subtree solutions concatenated in split order equal the
 *     sequential ones, counts and nodes sum, roots grow with the depth and
 *     are the same for both engines, conflicting prefixes give none.
 *   - Builder errors, the search limits, allocation failures, and the
 *     sanity checks themselves (they must catch a broken link).
 * Engines are compared option-for-option wherever both run.
 *
 * Exports xcover_suite() for the runner in tests/test_main.c. */
#include <check.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/xc.h"
#include "solvers/sudoku/sudoku.h"
#include "solvers/sudoku/xc.h"
#include "solvers/xcover/xcover.h"
#include "tests/pentomino.h"
#include "solvers/xcover/internal.h"

Suite *xcover_suite(void);

static const xcover_engine_t engines[2] = {XCOVER_ENGINE_DLX, XCOVER_ENGINE_ALGX};

/* === Helpers ============================================================= */

/* Builds a problem from options given as arrays terminated by -1. */
static xcover_problem_t *build_list(uint32_t nprimary, uint32_t nsecondary, const int *opts) {
    uint32_t start[64], items[256], no = 0, ne = 0;
    xcover_spec_t spec;
    xcover_problem_t *p = NULL;
    for (; *opts != -2; opts++) {
        if (*opts == -1) {
            start[++no] = ne;
            continue;
        }
        items[ne++] = (uint32_t)*opts;
    }
    start[0] = 0;
    spec.nprimary = nprimary;
    spec.nsecondary = nsecondary;
    spec.noptions = no;
    spec.option_start = start;
    spec.items = items;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), 0);
    return p;
}

/* Knuth's example: items A..G = 0..6, options
 *   0 {C E F}  1 {A D G}  2 {B C F}  3 {A D}  4 {B G}  5 {D E G} */
static const int knuth_opts[] = {2, 4, 5,  -1, 0, 3,  6, -1, 1, 2,  5, -1,
                                 0, 3, -1, 1,  6, -1, 3, 4,  6, -1, -2};

/* Solves with everything stored; returns the result, fills buf. */
static xcover_result_t solve_all(const xcover_problem_t *p, xcover_engine_t e, uint32_t *buf,
                                 size_t cap, const uint32_t *prefix, size_t prefix_len) {
    xcover_opts_t o;
    xcover_result_t r;
    xcover_opts_init(&o);
    o.engine = e;
    o.max_solutions = 0;
    o.solutions = buf;
    o.solutions_cap = cap;
    o.prefix = prefix;
    o.prefix_len = prefix_len;
    ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
    ck_assert_int_eq(r.code, 0);
    return r;
}

/* --- Pentominoes: tests/pentomino.c --- */

static xcover_problem_t *build_pentominoes(int R, int C, int quarter) {
    xcover_problem_t *p = pentomino_problem(R, C, quarter);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* Checks that each stored solution tiles the board: each primary item once. */
static void check_exact_cover(const xcover_problem_t *p, const uint32_t *buf, uint64_t nsol) {
    xcover_info_t info;
    uint8_t seen[XCOVER_MAX_ITEMS / 8];
    uint64_t s;
    xcover_problem_info(p, &info);
    for (s = 0; s < nsol; s++) {
        uint32_t i;
        memset(seen, 0, sizeof seen);
        for (; *buf != XCOVER_NONE; buf++) {
            const uint32_t *items;
            size_t n = xcover_problem_option(p, *buf, &items), j;
            ck_assert_uint_gt(n, 0);
            if (buf[1] != XCOVER_NONE) ck_assert_uint_lt(buf[0], buf[1]); /* ascending */
            for (j = 0; j < n; j++) {
                ck_assert_msg(!(seen[items[j] / 8] & (1u << (items[j] % 8))), "item twice");
                seen[items[j] / 8] |= (uint8_t)(1u << (items[j] % 8));
            }
        }
        buf++;
        for (i = 0; i < info.nprimary; i++)
            ck_assert_msg(seen[i / 8] & (1u << (i % 8)), "primary item %u uncovered", i);
    }
}

/* --- Sudoku --- */

static void parse_grid(const char *s, uint8_t *g, int n) {
    int i;
    for (i = 0; i < n * n; i++) {
        char ch = s[i];
        g[i] = (uint8_t)(ch == '.' || ch == '0' ? 0 : ch <= '9' ? ch - '0' : ch - 'A' + 10);
    }
}

static uint32_t next_rand(uint64_t *st) { /* xorshift64 */
    *st ^= *st << 13;
    *st ^= *st >> 7;
    *st ^= *st << 17;
    return (uint32_t)(*st >> 11);
}

/* A solved grid from the pattern (bc*(r%br) + r/br + c) % n with shuffled
 * symbols, then about `holes` percent of the cells emptied. */
static void make_puzzle(const sudoku_shape_t *s, int holes, uint32_t seed, uint8_t *puzzle,
                        uint8_t *solution) {
    int n = s->n, r, c, i;
    uint8_t perm[SUDOKU_MAX_N];
    uint64_t rng = 0x9e3779b97f4a7c15u ^ seed;
    for (i = 0; i < n; i++)
        perm[i] = (uint8_t)(i + 1);
    for (i = n - 1; i > 0; i--) {
        int j = (int)(next_rand(&rng) % (uint32_t)(i + 1));
        uint8_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++)
            solution[r * n + c] = perm[(s->box_cols * (r % s->box_rows) + r / s->box_rows + c) % n];
    for (i = 0; i < n * n; i++)
        puzzle[i] = (next_rand(&rng) % 100u) < (uint32_t)holes ? 0 : solution[i];
}

/* Solves with sudoku_xc_solve and checks every grid; returns the result. */
static sudoku_xc_result_t sudoku_run(const sudoku_shape_t *s, const uint8_t *puzzle,
                                     xcover_engine_t e, uint32_t max, uint8_t *grids) {
    sudoku_xc_opts_t o;
    sudoku_xc_result_t r;
    uint32_t k;
    size_t n2 = (size_t)s->n * (size_t)s->n;
    sudoku_xc_opts_init(&o);
    o.engine = e;
    o.max_solutions = max;
    o.solutions = grids;
    ck_assert_int_eq(sudoku_xc_solve(s, puzzle, &o, &r), 0);
    for (k = 0; k < r.solutions_found && grids != NULL; k++)
        ck_assert_int_eq(sudoku_check_solution(s, puzzle, grids + k * n2), 1);
    return r;
}

/* --- Allocation faults --- */

typedef struct fault_s {
    int fail_at; /* the allocation with this number fails (0 = none) */
    int calls;
    int live;
} fault_t;

static void *fault_alloc(void *ud, size_t size) {
    fault_t *f = ud;
    if (++f->calls == f->fail_at) return NULL;
    f->live++;
    return malloc(size);
}

static void fault_free(void *ud, void *ptr) {
    fault_t *f = ud;
    f->live--;
    free(ptr);
}

/* === Core ================================================================= */

START_TEST(xcover_knuth_example) {
    xcover_problem_t *p = build_list(7, 0, knuth_opts);
    int e;
    for (e = 0; e < 2; e++) {
        uint32_t buf[16];
        xcover_result_t r = solve_all(p, engines[e], buf, 16, NULL, 0);
        ck_assert_uint_eq(r.solutions_found, 1);
        ck_assert_uint_eq(r.solutions_stored, 1);
        ck_assert_int_eq(r.exhausted, 1);
        ck_assert_uint_eq(r.solutions_used, 4);
        /* {C E F} = 0, {A D} = 3, {B G} = 4 */
        ck_assert_uint_eq(buf[0], 0);
        ck_assert_uint_eq(buf[1], 3);
        ck_assert_uint_eq(buf[2], 4);
        ck_assert_uint_eq(buf[3], XCOVER_NONE);
        ck_assert_uint_gt(r.stats.nodes, 0);
        ck_assert_uint_eq(r.stats.max_depth, 3);
        ck_assert_int_eq(r.engine, engines[e]);
    }
    xcover_problem_free(p);
}
END_TEST

START_TEST(xcover_engines_named) {
    xcover_engine_t e;
    ck_assert_str_eq(xcover_engine_name(XCOVER_ENGINE_DLX), "dlx");
    ck_assert_str_eq(xcover_engine_name(XCOVER_ENGINE_ALGX), "algorithm-x");
    ck_assert_ptr_null(xcover_engine_name(XCOVER_ENGINE_COUNT));
    ck_assert_int_eq(xcover_engine_parse("algorithm-x", &e), 0);
    ck_assert_int_eq(e, XCOVER_ENGINE_ALGX);
    ck_assert_int_eq(xcover_engine_parse("dlx", &e), 0);
    ck_assert_int_eq(e, XCOVER_ENGINE_DLX);
    ck_assert_int_eq(xcover_engine_parse("dl", &e), SEARCH_EINVAL);
    ck_assert_int_eq(xcover_engine_parse("dlxx", &e), SEARCH_EINVAL);
    ck_assert_int_eq(xcover_engine_parse(NULL, &e), SEARCH_EINVAL);
}
END_TEST

/* Secondary items (Knuth's DLX1 example style): primary a, b, c; secondary
 * x, y.  Options {a x} {b x} {b y} {c} {a b} {c y}: x at most once rules
 * out {a x}+{b x}. */
START_TEST(xcover_secondary_items) {
    static const int opts[] = {0, 3, -1, 1, 3, -1, 1, 4, -1, 2, -1, 0, 1, -1, 2, 4, -1, -2};
    xcover_problem_t *p = build_list(3, 2, opts);
    int e;
    for (e = 0; e < 2; e++) {
        uint32_t buf[32];
        xcover_result_t r = solve_all(p, engines[e], buf, 32, NULL, 0);
        /* {a x}{b y}{c} = 0 2 3;  {a b}{c} = 3 4;  {a b}{c y} = 4 5 */
        static const uint32_t want[] = {0, 2, 3, XCOVER_NONE, 3, 4, XCOVER_NONE, 4, 5, XCOVER_NONE};
        ck_assert_uint_eq(r.solutions_found, 3);
        ck_assert_uint_eq(r.solutions_used, 10);
        ck_assert_mem_eq(buf, want, sizeof want);
    }
    xcover_problem_free(p);
}
END_TEST

START_TEST(xcover_degenerate_problems) {
    xcover_spec_t spec = {0, 0, 0, NULL, NULL};
    xcover_problem_t *p = NULL;
    uint32_t buf[4], start[2] = {0, 1}, items[1] = {1};
    int e;
    /* no items at all: one solution, the empty set */
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), 0);
    for (e = 0; e < 2; e++) {
        xcover_result_t r = solve_all(p, engines[e], buf, 4, NULL, 0);
        ck_assert_uint_eq(r.solutions_found, 1);
        ck_assert_uint_eq(buf[0], XCOVER_NONE);
    }
    xcover_problem_free(p);
    /* primary item 0 has no option: no solution */
    spec.nprimary = 2;
    spec.noptions = 1;
    spec.option_start = start;
    spec.items = items;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), 0);
    for (e = 0; e < 2; e++) {
        xcover_result_t r = solve_all(p, engines[e], buf, 4, NULL, 0);
        ck_assert_uint_eq(r.solutions_found, 0);
        ck_assert_int_eq(r.exhausted, 1);
    }
    xcover_problem_free(p);
    /* an option of secondary items only is never chosen, but can be forced */
    spec.nprimary = 0;
    spec.nsecondary = 2;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), 0);
    for (e = 0; e < 2; e++) {
        uint32_t force = 0;
        xcover_result_t r = solve_all(p, engines[e], buf, 4, NULL, 0);
        ck_assert_uint_eq(r.solutions_found, 1);
        ck_assert_uint_eq(buf[0], XCOVER_NONE);
        r = solve_all(p, engines[e], buf, 4, &force, 1);
        ck_assert_uint_eq(r.solutions_found, 1);
        ck_assert_uint_eq(buf[0], 0);
        ck_assert_uint_eq(buf[1], XCOVER_NONE);
    }
    xcover_problem_free(p);
}
END_TEST

START_TEST(xcover_builder_rejects_bad_input) {
    uint32_t start[4] = {0, 2, 2, 4}, items[4] = {0, 1, 1, 2};
    xcover_spec_t spec = {3, 0, 3, start, items};
    xcover_problem_t *p = (xcover_problem_t *)&spec; /* sentinel: must stay */
    xcover_diag_t d;
    fault_t f = {0, 0, 0};
    search_allocator_t a = {fault_alloc, fault_free, &f};

    /* option 1 is empty */
    ck_assert_int_eq(xcover_problem_new(&spec, &a, &p, &d), XCOVER_EEMPTY);
    ck_assert_uint_eq(d.option, 1);
    ck_assert_ptr_eq(p, (xcover_problem_t *)&spec);
    ck_assert_int_eq(f.live, 0);
    /* item out of range: option 1 = {1, 3} with 3 items */
    start[1] = 1;
    start[2] = 2;
    items[1] = 3;
    ck_assert_int_eq(xcover_problem_new(&spec, &a, &p, &d), XCOVER_EITEM);
    ck_assert_uint_eq(d.option, 1);
    ck_assert_uint_eq(d.position, 0);
    /* duplicate within option 2 = {1, 1} (position 1 repeats) */
    items[1] = 1;
    items[2] = 1;
    items[3] = 1;
    ck_assert_int_eq(xcover_problem_new(&spec, &a, &p, &d), XCOVER_EDUP);
    ck_assert_uint_eq(d.option, 2);
    ck_assert_uint_eq(d.position, 1);
    ck_assert_int_eq(f.live, 0);
    /* the same item in two different options is fine */
    items[2] = 2;
    items[3] = 1;
    ck_assert_int_eq(xcover_problem_new(&spec, &a, &p, &d), 0);
    ck_assert_uint_eq(d.option, XCOVER_NONE);
    ck_assert_int_eq(f.live, 1);
    xcover_problem_free(p);
    ck_assert_int_eq(f.live, 0);
    p = (xcover_problem_t *)&spec;

    /* structure */
    ck_assert_int_eq(xcover_problem_new(NULL, NULL, &p, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, NULL, NULL), SEARCH_EINVAL);
    start[0] = 1;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, &d), SEARCH_EINVAL);
    start[0] = 0;
    start[2] = 0; /* decreasing */
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, &d), SEARCH_EINVAL);
    start[2] = 2;
    spec.items = NULL;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, &d), SEARCH_EINVAL);
    spec.items = items;
    spec.option_start = NULL;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, &d), SEARCH_EINVAL);
    spec.option_start = start;
    a.dealloc = NULL;
    ck_assert_int_eq(xcover_problem_new(&spec, &a, &p, &d), SEARCH_EINVAL);
    ck_assert_ptr_eq(p, (xcover_problem_t *)&spec);
}
END_TEST

START_TEST(xcover_builder_enforces_limits) {
    uint32_t two[2] = {0, XCOVER_MAX_NODES + 1};
    xcover_spec_t spec = {XCOVER_MAX_ITEMS, 1, 0, NULL, NULL};
    xcover_problem_t *p = NULL;
    uint32_t *start, *items, k;

    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), XCOVER_ELIMIT); /* items */
    spec.nprimary = XCOVER_MAX_ITEMS - 1;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), 0); /* exactly at the limit */
    xcover_problem_free(p);
    spec.nprimary = 1;
    spec.nsecondary = 0;
    spec.noptions = XCOVER_MAX_OPTIONS + 1; /* checked before option_start is read */
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), XCOVER_ELIMIT);
    spec.noptions = 1; /* one option of MAX_NODES + 1 entries: checked before items */
    spec.option_start = two;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), XCOVER_ELIMIT);

    /* a 64x64 Sudoku sits exactly at the option and node limits */
    start = malloc(((size_t)XCOVER_MAX_OPTIONS + 1) * sizeof *start);
    items = malloc((size_t)XCOVER_MAX_NODES * sizeof *items);
    ck_assert_ptr_nonnull(start);
    ck_assert_ptr_nonnull(items);
    for (k = 0; k <= XCOVER_MAX_OPTIONS; k++)
        start[k] = 4 * k;
    for (k = 0; k < XCOVER_MAX_NODES; k++)
        items[k] = k % 4 + 4 * (k / 16 % 4096);
    spec.nprimary = 16384;
    spec.noptions = XCOVER_MAX_OPTIONS;
    spec.option_start = start;
    spec.items = items;
    ck_assert_int_eq(xcover_problem_new(&spec, NULL, &p, NULL), 0);
    xcover_problem_free(p);
    free(start);
    free(items);
}
END_TEST

START_TEST(xcover_solve_rejects_bad_options) {
    xcover_problem_t *p = build_list(7, 0, knuth_opts);
    xcover_opts_t o;
    xcover_result_t r;
    uint32_t bad = 6, good = 0;

    ck_assert_int_eq(xcover_solve(p, NULL, NULL), SEARCH_EINVAL);
    ck_assert_int_eq(xcover_solve(NULL, NULL, &r), SEARCH_EINVAL);
    ck_assert_int_eq(r.code, SEARCH_EINVAL);
    xcover_opts_init(&o);
    o.engine = XCOVER_ENGINE_COUNT;
    ck_assert_int_eq(xcover_solve(p, &o, &r), SEARCH_EINVAL);
    xcover_opts_init(&o);
    o.solutions_cap = 4;
    ck_assert_int_eq(xcover_solve(p, &o, &r), SEARCH_EINVAL);
    xcover_opts_init(&o);
    o.prefix_len = 1;
    ck_assert_int_eq(xcover_solve(p, &o, &r), SEARCH_EINVAL);
    o.prefix = &bad; /* option 6 of 0..5 */
    ck_assert_int_eq(xcover_solve(p, &o, &r), SEARCH_EINVAL);
    o.prefix = &good;
    ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    ck_assert_uint_eq(r.stats.propagations, 1);
    /* NULL opts = defaults: dlx, first solution */
    ck_assert_int_eq(xcover_solve(p, NULL, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    ck_assert_int_eq(r.engine, XCOVER_ENGINE_DLX);
    xcover_problem_free(p);
}
END_TEST

START_TEST(xcover_prefix_forces_and_conflicts) {
    xcover_problem_t *p = build_list(7, 0, knuth_opts);
    int e;
    for (e = 0; e < 2; e++) {
        uint32_t buf[16], ok[2] = {4, 3}, clash[2] = {3, 1}, twice[2] = {0, 0}, dead[1] = {1};
        xcover_result_t r = solve_all(p, engines[e], buf, 16, ok, 2);
        ck_assert_uint_eq(r.solutions_found, 1);
        ck_assert_uint_eq(buf[0], 0); /* prefix options are in the (sorted) solution */
        ck_assert_uint_eq(buf[1], 3);
        ck_assert_uint_eq(buf[2], 4);
        ck_assert_int_eq(r.prefix_conflict, 0);
        r = solve_all(p, engines[e], buf, 16, clash, 2); /* {A D} and {A D G} share A */
        ck_assert_uint_eq(r.solutions_found, 0);
        ck_assert_int_eq(r.exhausted, 1);
        ck_assert_int_eq(r.prefix_conflict, 1);
        ck_assert_uint_eq(r.stats.nodes, 0);
        r = solve_all(p, engines[e], buf, 16, twice, 2);
        ck_assert_uint_eq(r.solutions_found, 0);
        ck_assert_int_eq(r.prefix_conflict, 1);
        r = solve_all(p, engines[e], buf, 16, dead, 1); /* {A D G}: no completion */
        ck_assert_uint_eq(r.solutions_found, 0);
        ck_assert_int_eq(r.exhausted, 1);
        ck_assert_int_eq(r.prefix_conflict, 0);
    }
    xcover_problem_free(p);
}
END_TEST

/* Stops the search after `left` solutions. */
static int stop_after(void *ud, const uint32_t *options, size_t count) {
    int *left = ud;
    (void)options;
    ck_assert_uint_gt(count, 0);
    return --*left <= 0;
}

START_TEST(xcover_solution_buffer_and_callback) {
    sudoku_shape_t s;
    xcover_problem_t *p = NULL;
    xcover_opts_t o;
    xcover_result_t r;
    uint32_t buf[3 * 17], all[300 * 17];
    int left = 5;

    /* the empty 4x4 Sudoku: 288 solutions of 16 options each */
    ck_assert_int_eq(sudoku_shape_init(&s, 4, 2, 2), 0);
    ck_assert_int_eq(sudoku_xc_problem_new(&s, NULL, &p), 0);
    xcover_opts_init(&o);
    o.max_solutions = 0;
    o.solutions = buf;
    o.solutions_cap = 3 * 17 - 1; /* room for two solutions and a bit */
    ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 288);
    ck_assert_uint_eq(r.solutions_stored, 2);
    ck_assert_uint_eq(r.solutions_used, 34);
    ck_assert_int_eq(r.exhausted, 1);
    (void)solve_all(p, XCOVER_ENGINE_DLX, all, sizeof all / sizeof all[0], NULL, 0);
    ck_assert_mem_eq(buf, all, 34 * sizeof(uint32_t)); /* the first ones, in order */

    o.max_solutions = 7; /* the limit is respected exactly */
    o.solutions_cap = 0;
    o.solutions = NULL;
    ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 7);
    ck_assert_int_eq(r.exhausted, 0);

    o.max_solutions = 0; /* the callback ends it */
    o.on_solution = stop_after;
    o.on_solution_ud = &left;
    ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 5);
    ck_assert_int_eq(r.exhausted, 0);
    xcover_problem_free(p);
}
END_TEST

START_TEST(xcover_limits_stop_the_search) {
    sudoku_shape_t s;
    xcover_problem_t *p = NULL;
    xcover_opts_t o;
    xcover_result_t r;
    search_ctl_t ctl;
    atomic_int flag;
    int e;

    ck_assert_int_eq(sudoku_shape_init(&s, 4, 2, 2), 0);
    ck_assert_int_eq(sudoku_xc_problem_new(&s, NULL, &p), 0);
    for (e = 0; e < 2; e++) {
        xcover_opts_init(&o);
        o.engine = engines[e];
        o.max_solutions = 0;
        o.ctl = &ctl;

        memset(&ctl, 0, sizeof ctl); /* deadline in the past */
        ctl.deadline_ns = search_now_ns() - 1000;
        ck_assert_int_eq(xcover_solve(p, &o, &r), SEARCH_TIMEOUT);
        ck_assert_int_eq(r.code, SEARCH_TIMEOUT);
        ck_assert_uint_eq(r.stats.nodes, 0);
        ck_assert_int_eq(r.exhausted, 0);

        memset(&ctl, 0, sizeof ctl); /* cancel flag raised */
        atomic_init(&flag, 1);
        ctl.cancel = &flag;
        ck_assert_int_eq(xcover_solve(p, &o, &r), SEARCH_CANCELLED);
        ck_assert_uint_eq(r.solutions_found, 0);
        atomic_store(&flag, 0); /* lowered: runs to the end */
        ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 288);

        memset(&ctl, 0, sizeof ctl); /* node budget: exactly that many nodes */
        ctl.node_budget = 50;
        ck_assert_int_eq(xcover_solve(p, &o, &r), SEARCH_BUDGET);
        ck_assert_uint_eq(r.stats.nodes, 50);
        ck_assert_int_eq(r.exhausted, 0);
        ck_assert_uint_gt(r.solutions_found, 0); /* found before the budget ran out */
        ck_assert_uint_lt(r.solutions_found, 288);
        ctl.node_budget = 1000000;
        ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 288);
    }
    xcover_problem_free(p);
}
END_TEST

START_TEST(xcover_allocation_failures) {
    fault_t f;
    search_allocator_t a = {fault_alloc, fault_free, &f};
    xcover_problem_t *p = NULL, *q = NULL;
    xcover_opts_t o;
    xcover_result_t r;
    xcover_split_opts_t so;
    xcover_split_info_t info;
    uint32_t roots[64];
    int e, k;

    memset(&f, 0, sizeof f);
    f.fail_at = 1;
    {
        uint32_t start[7] = {0, 3, 6, 9, 11, 13, 16};
        uint32_t items[16] = {2, 4, 5, 0, 3, 6, 1, 2, 5, 0, 3, 1, 6, 3, 4, 6};
        xcover_spec_t spec = {7, 0, 6, start, items};
        ck_assert_int_eq(xcover_problem_new(&spec, &a, &q, NULL), SEARCH_ENOMEM);
        ck_assert_ptr_null(q);
        ck_assert_int_eq(f.live, 0);
    }
    p = build_list(7, 0, knuth_opts);
    for (e = 0; e < 2; e++) {
        for (k = 1; k <= 2; k++) { /* scratch, then the engine's block */
            memset(&f, 0, sizeof f);
            f.fail_at = k;
            xcover_opts_init(&o);
            o.engine = engines[e];
            o.alloc = &a;
            ck_assert_int_eq(xcover_solve(p, &o, &r), SEARCH_ENOMEM);
            ck_assert_int_eq(f.live, 0);
        }
        memset(&f, 0, sizeof f);
        ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
        ck_assert_int_eq(f.calls, 2);
        ck_assert_int_eq(f.live, 0);
        ck_assert_uint_gt(r.mem_bytes, 0);
    }
    memset(&so, 0, sizeof so);
    so.depth = 1;
    so.alloc = &a;
    memset(&f, 0, sizeof f);
    f.fail_at = 1;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), SEARCH_ENOMEM);
    ck_assert_int_eq(f.live, 0);
    xcover_problem_free(p);
}
END_TEST

/* The sanity functions pass on sound states and catch broken links. */
START_TEST(xcover_sanity_catches_broken_links) {
    xcover_problem_t *p = build_list(7, 0, knuth_opts);
    xcover__dlx_t d;
    xcover__algx_t x;
    int32_t saved;

    ck_assert_int_eq(xcover__dlx_init(&d, p, NULL), 0);
    ck_assert_int_eq(xcover__dlx_sanity(&d), 0);
    ck_assert_int_eq(xcover__dlx_force(&d, 3), 0); /* {A D} */
    ck_assert_int_eq(xcover__dlx_sanity(&d), 0);
    ck_assert_int_eq(xcover__dlx_force(&d, 1), 1); /* {A D G} clashes */
    ck_assert_int_eq(xcover__dlx_force(&d, 6), SEARCH_EINVAL);
    ck_assert_int_eq(xcover__dlx_sanity(&d), 0);
    saved = d.nodes[3].down; /* column C: break a down link */
    d.nodes[3].down = 3;
    ck_assert_int_lt(xcover__dlx_sanity(&d), 0);
    d.nodes[3].down = saved;
    ck_assert_int_eq(xcover__dlx_sanity(&d), 0);
    d.nodes[3].top++; /* len disagrees */
    ck_assert_int_lt(xcover__dlx_sanity(&d), 0);
    d.nodes[3].top--;
    saved = d.items[0].right; /* primary list */
    d.items[0].right = d.items[saved].right;
    ck_assert_int_lt(xcover__dlx_sanity(&d), 0);
    d.items[0].right = saved;
    ck_assert_int_eq(xcover__dlx_sanity(&d), 0);
    xcover__dlx_destroy(&d);

    ck_assert_int_eq(xcover__algx_init(&x, p, NULL), 0);
    ck_assert_int_eq(xcover__algx_sanity(&x), 0);
    ck_assert_int_eq(xcover__algx_force(&x, 3), 0);
    ck_assert_int_eq(xcover__algx_sanity(&x), 0);
    ck_assert_int_eq(xcover__algx_force(&x, 1), 1);
    ck_assert_int_eq(xcover__algx_sanity(&x), 0);
    x.row_active[1] = 1; /* active row with a covered item */
    ck_assert_int_lt(xcover__algx_sanity(&x), 0);
    x.row_active[1] = 0;
    x.trail[1] = x.trail[0]; /* a row logged twice */
    ck_assert_int_lt(xcover__algx_sanity(&x), 0);
    xcover__algx_destroy(&x);
    ck_assert_int_eq(xcover__algx_init(&x, p, NULL), 0);
    x.active_primary--;
    ck_assert_int_lt(xcover__algx_sanity(&x), 0);
    xcover__algx_destroy(&x);
    xcover_problem_free(p);
}
END_TEST

/* === Pentominoes ========================================================== */

START_TEST(xcover_pentomino_6x10_2339) {
    xcover_problem_t *p = build_pentominoes(6, 10, 1);
    xcover_opts_t o;
    xcover_result_t r;
    uint32_t *buf = malloc(2339 * 14 * sizeof *buf);
    ck_assert_ptr_nonnull(buf);
    xcover_opts_init(&o);
    o.max_solutions = 0;
    o.solutions = buf;
    o.solutions_cap = 2339 * 14;
    ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 2339);
    ck_assert_uint_eq(r.solutions_stored, 2339);
    ck_assert_int_eq(r.exhausted, 1);
    ck_assert_uint_eq(r.stats.max_depth, 12);
    check_exact_cover(p, buf, 2339);
    free(buf);
    xcover_problem_free(p);
}
END_TEST

/* The 2,339 tilings (the X held to one quarter: each once up to symmetry),
 * counted the way a parallel request does it: split the tree into
 * subtrees, count each alone, add up.  (All 9,356 took 4x the work, past
 * the case's timeout once in an ASan run on an overloaded machine.) */
START_TEST(xcover_pentomino_6x10_2339_by_subtrees) {
    xcover_problem_t *p = build_pentominoes(6, 10, 1);
    xcover_split_opts_t so;
    xcover_split_info_t info;
    uint64_t total = 0;
    memset(&so, 0, sizeof so);
    so.target = 64;
    ck_assert_int_eq(xcover_split(p, &so, NULL, 0, &info), XCOVER_ESPACE);
    uint32_t *roots = malloc(info.entries * sizeof *roots);
    so.depth = info.depth;
    ck_assert_int_eq(xcover_split(p, &so, roots, info.entries, &info), 0);
    ck_assert_uint_ge(info.count, 64);
    for (size_t k = 0, off = 0; k < info.count; k++) {
        xcover_opts_t o;
        xcover_result_t r;
        xcover_opts_init(&o);
        o.max_solutions = 0; /* count them all */
        o.prefix = roots + off;
        o.prefix_len = xcover_root_len(roots + off);
        ck_assert_int_eq(xcover_solve(p, &o, &r), 0);
        ck_assert_int_eq(r.exhausted, 1);
        total += r.solutions_found;
        off += o.prefix_len + 1;
    }
    ck_assert_uint_eq(total, 2339);
    free(roots);
    xcover_problem_free(p);
}
END_TEST

START_TEST(xcover_pentomino_3x20_both_engines) {
    xcover_problem_t *p = build_pentominoes(3, 20, 0);
    uint32_t a[8 * 14 + 1], b[8 * 14 + 1];
    xcover_result_t ra = solve_all(p, XCOVER_ENGINE_DLX, a, 8 * 14 + 1, NULL, 0);
    xcover_result_t rb = solve_all(p, XCOVER_ENGINE_ALGX, b, 8 * 14 + 1, NULL, 0);
    ck_assert_uint_eq(ra.solutions_found, 8); /* 2 up to symmetry */
    ck_assert_uint_eq(rb.solutions_found, 8);
    ck_assert_uint_eq(ra.solutions_used, 8 * 13);
    ck_assert_mem_eq(a, b, 8 * 13 * sizeof(uint32_t));
    ck_assert_uint_eq(ra.stats.nodes, rb.stats.nodes); /* the same tree */
    ck_assert_uint_eq(ra.stats.backtracks, rb.stats.backtracks);
    check_exact_cover(p, a, 8);
    xcover_problem_free(p);
}
END_TEST

/* Solves every root of a split and checks the concatenation against the
 * sequential solve: same solutions in the same order, counts and nodes add
 * up.  `base` is forced in every solve.  Returns the number of roots. */
static size_t check_split(const xcover_problem_t *p, xcover_engine_t e, uint32_t depth,
                          size_t target, const uint32_t *base, size_t base_len) {
    size_t cap = 1 << 16;
    uint32_t *seq = malloc(cap * sizeof *seq), *cat = malloc(cap * sizeof *cat), *roots;
    uint32_t *prefix = malloc((base_len + 4096) * sizeof *prefix);
    const uint32_t *root;
    xcover_split_opts_t so;
    xcover_split_info_t info;
    xcover_result_t rs, r;
    size_t used = 0, k, count;
    uint64_t found = 0, nodes;
    int all_exhausted = 1, rc;

    ck_assert_ptr_nonnull(seq);
    ck_assert_ptr_nonnull(cat);
    ck_assert_ptr_nonnull(prefix);
    rs = solve_all(p, e, seq, cap, base, base_len);
    memset(&so, 0, sizeof so);
    so.base = base;
    so.base_len = base_len;
    so.depth = depth;
    so.target = target;
    rc = xcover_split(p, &so, NULL, 0, &info); /* sizing call */
    ck_assert_int_eq(rc, info.count == 0 ? 0 : XCOVER_ESPACE);
    ck_assert_uint_eq(info.stored, 0);
    ck_assert_uint_ge(info.entries, info.count);
    if (depth != 0) ck_assert_uint_eq(info.depth, depth);
    roots = malloc((info.entries + 1) * sizeof *roots);
    ck_assert_ptr_nonnull(roots);
    so.depth = info.depth;
    count = info.count;
    ck_assert_int_eq(xcover_split(p, &so, roots, info.entries, &info), 0);
    ck_assert_uint_eq(info.stored, count);
    ck_assert_uint_eq(info.count, count);
    nodes = info.stats.nodes;
    if (base_len > 0) memcpy(prefix, base, base_len * sizeof *prefix);
    for (k = 0, root = roots; k < info.count; k++) {
        size_t len = xcover_root_len(root);
        ck_assert_uint_lt(len, 4096);
        if (len > 0) memcpy(prefix + base_len, root, len * sizeof *prefix);
        r = solve_all(p, e, cat + used, cap - used, prefix, base_len + len);
        ck_assert_uint_eq(r.solutions_stored, r.solutions_found);
        ck_assert_int_eq(r.prefix_conflict, 0);
        used += r.solutions_used;
        found += r.solutions_found;
        nodes += r.stats.nodes;
        all_exhausted &= r.exhausted;
        root += len + 1;
    }
    ck_assert_uint_eq((size_t)(root - roots), info.entries);
    ck_assert_uint_eq(found, rs.solutions_found);
    ck_assert_uint_eq(used, rs.solutions_used);
    ck_assert_mem_eq(cat, seq, used * sizeof *seq);
    ck_assert_uint_eq(nodes, rs.stats.nodes);
    ck_assert_int_eq(all_exhausted, 1);
    free(roots);
    free(prefix);
    free(seq);
    free(cat);
    return count;
}

START_TEST(xcover_split_pentomino_3x20) {
    xcover_problem_t *p = build_pentominoes(3, 20, 0);
    uint32_t d;
    size_t prev = 0;
    for (d = 1; d <= 3; d++) {
        size_t n = check_split(p, XCOVER_ENGINE_DLX, d, 0, NULL, 0);
        ck_assert_uint_gt(n, prev); /* deeper, more roots */
        ck_assert_uint_eq(check_split(p, XCOVER_ENGINE_ALGX, d, 0, NULL, 0), n);
        prev = n;
    }
    ck_assert_uint_ge(check_split(p, XCOVER_ENGINE_DLX, 0, 100, NULL, 0), 100); /* target */
    xcover_problem_free(p);
}
END_TEST

START_TEST(xcover_split_rules) {
    xcover_problem_t *p = build_list(7, 0, knuth_opts);
    xcover_split_opts_t so;
    xcover_split_info_t info;
    uint32_t roots[64], clash[2] = {3, 1}, bad = 99;

    memset(&so, 0, sizeof so);
    /* Level 0 branches on A (2 options, first of the 2s): {A D G} = 1 and
     * {A D} = 3, both live (after {A D G}, B keeps {B C F}). */
    so.depth = 1;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), 0);
    ck_assert_uint_eq(info.count, 2);
    ck_assert_uint_eq(info.entries, 4);
    ck_assert_uint_eq(roots[0], 1);
    ck_assert_uint_eq(roots[1], XCOVER_NONE);
    ck_assert_uint_eq(roots[2], 3);
    ck_assert_uint_eq(roots[3], XCOVER_NONE);
    ck_assert_uint_eq(info.stats.nodes, 2);
    /* Below both, every item has at most one option left: forced moves are
     * followed without counting.  {A D G} {B C F} leaves E empty: dropped.
     * {A D} {C E F} {B G} is the solution: a root above depth 2. */
    so.depth = 2;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), 0);
    ck_assert_uint_eq(info.count, 1);
    ck_assert_uint_eq(xcover_root_len(roots), 3);
    ck_assert_uint_eq(roots[0], 3);
    ck_assert_uint_eq(roots[1], 0);
    ck_assert_uint_eq(roots[2], 4);
    ck_assert_uint_eq(info.stats.nodes, 5);
    so.depth = XCOVER_SPLIT_MAX_DEPTH;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), 0);
    ck_assert_uint_eq(info.count, 1);
    ck_assert_uint_eq(info.entries, 4);
    /* depth from a target: 2 roots at depth 1 satisfy 2; nothing satisfies 5
     * and deepening stops once every root is a solution (depth 2) */
    so.depth = 0;
    so.target = 2;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), 0);
    ck_assert_uint_eq(info.depth, 1);
    ck_assert_uint_eq(info.count, 2);
    so.target = 5;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), 0);
    ck_assert_uint_eq(info.depth, 2);
    ck_assert_uint_eq(info.count, 1);
    so.target = 0;
    /* too small a buffer: ESPACE, the roots that fit written */
    so.depth = 1;
    ck_assert_int_eq(xcover_split(p, &so, roots, 3, &info), XCOVER_ESPACE);
    ck_assert_int_eq(info.code, XCOVER_ESPACE);
    ck_assert_uint_eq(info.count, 2);
    ck_assert_uint_eq(info.entries, 4);
    ck_assert_uint_eq(info.stored, 1);
    /* a conflicting base: no roots */
    so.base = clash;
    so.base_len = 2;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), 0);
    ck_assert_uint_eq(info.count, 0);
    /* limits */
    {
        search_ctl_t ctl = {.deadline_ns = search_now_ns() - 1};
        so.base = NULL;
        so.base_len = 0;
        so.ctl = &ctl;
        ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), SEARCH_TIMEOUT);
        so.ctl = NULL;
    }
    /* bad arguments */
    so.base = &bad;
    so.base_len = 1;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), SEARCH_EINVAL);
    so.base = NULL;
    so.base_len = 0;
    so.depth = XCOVER_SPLIT_MAX_DEPTH + 1;
    ck_assert_int_eq(xcover_split(p, &so, roots, 64, &info), SEARCH_EINVAL);
    so.depth = 1;
    ck_assert_int_eq(xcover_split(p, &so, NULL, 1, &info), SEARCH_EINVAL);
    ck_assert_int_eq(xcover_split(NULL, &so, roots, 1, &info), SEARCH_EINVAL);
    ck_assert_int_eq(xcover_split(p, &so, roots, 1, NULL), SEARCH_EINVAL);
    xcover_problem_free(p);
}
END_TEST

/* === N-Queens ============================================================= */

static const uint64_t a000170[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724};

START_TEST(xcover_nqueens_counts_match_oeis) {
    int n, e;
    for (e = 0; e < 2; e++) {
        for (n = 1; n <= 10; n++) {
            uint64_t count = 12345, bit = 0;
            search_stats_t st;
            memset(&st, 0, sizeof st);
            ck_assert_int_eq(nqueens_xc_count(n, engines[e], NULL, &count, &st), 0);
            ck_assert_msg(count == a000170[n], "n=%d engine %d: %llu", n, e,
                          (unsigned long long)count);
            ck_assert_int_eq(nqueens_count(n, 1, NULL, &bit, NULL), 0);
            ck_assert_uint_eq(count, bit); /* the bitboard counter agrees */
            ck_assert_uint_gt(st.nodes, 0);
        }
    }
    {
        uint64_t c;
        ck_assert_int_eq(nqueens_xc_count(0, XCOVER_ENGINE_DLX, NULL, &c, NULL), SEARCH_EINVAL);
        ck_assert_int_eq(nqueens_xc_count(NQUEENS_XC_MAX_N + 1, XCOVER_ENGINE_DLX, NULL, &c, NULL),
                         SEARCH_EINVAL);
    }
}
END_TEST

START_TEST(xcover_nqueens_first_is_valid) {
    int cols[NQUEENS_XC_MAX_N];
    unsigned char scratch[1024];
    int n, e;
    ck_assert_uint_le(nqueens_verify_scratch(NQUEENS_XC_MAX_N), sizeof scratch);
    for (e = 0; e < 2; e++) {
        ck_assert_int_eq(nqueens_xc_first(2, engines[e], NULL, cols, NULL), 1);
        ck_assert_int_eq(nqueens_xc_first(3, engines[e], NULL, cols, NULL), 1);
        for (n = 1; n <= (e == 0 ? NQUEENS_XC_MAX_N : 20); n++) {
            if (n == 2 || n == 3) continue;
            memset(cols, 0xff, sizeof cols);
            ck_assert_int_eq(nqueens_xc_first(n, engines[e], NULL, cols, NULL), 0);
            ck_assert_msg(nqueens_verify(n, cols, scratch) == 1, "n=%d engine %d", n, e);
        }
    }
}
END_TEST

/* === Sudoku =============================================================== */

static const char inkala[] =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
static const char inkala_sol[] =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

START_TEST(xcover_sudoku_inkala) {
    sudoku_shape_t s;
    uint8_t puzzle[81], want[81], got[2 * 81];
    int e;
    ck_assert_int_eq(sudoku_shape_init(&s, 9, 0, 0), 0);
    parse_grid(inkala, puzzle, 9);
    parse_grid(inkala_sol, want, 9);
    for (e = 0; e < 2; e++) {
        sudoku_xc_result_t r = sudoku_run(&s, puzzle, engines[e], 2, got);
        ck_assert_uint_eq(r.solutions_found, 1); /* unique */
        ck_assert_int_eq(r.exhausted, 1);
        ck_assert_mem_eq(got, want, 81);
        ck_assert_uint_eq(r.stats.propagations, 21); /* the givens */
        ck_assert_uint_gt(r.stats.nodes, 81 - 21 - 1);
    }
}
END_TEST

START_TEST(xcover_sudoku_empty_4x4_has_288) {
    sudoku_shape_t s;
    uint8_t puzzle[16] = {0}, *a = malloc(300 * 16), *b = malloc(300 * 16);
    sudoku_xc_result_t ra, rb;
    int i, j;
    ck_assert_int_eq(sudoku_shape_init(&s, 4, 2, 2), 0);
    ra = sudoku_run(&s, puzzle, XCOVER_ENGINE_DLX, 300, a);
    rb = sudoku_run(&s, puzzle, XCOVER_ENGINE_ALGX, 300, b);
    ck_assert_uint_eq(ra.solutions_found, 288);
    ck_assert_int_eq(ra.exhausted, 1);
    ck_assert_uint_eq(rb.solutions_found, 288);
    ck_assert_mem_eq(a, b, 288 * 16);
    for (i = 0; i < 288; i++) /* all distinct */
        for (j = i + 1; j < 288; j++)
            ck_assert(memcmp(a + i * 16, a + j * 16, 16) != 0);
    /* 1x4 boxes: 4x4 Latin squares, 576 */
    ck_assert_int_eq(sudoku_shape_init(&s, 4, 1, 4), 0);
    ra = sudoku_run(&s, puzzle, XCOVER_ENGINE_DLX, 1000, NULL);
    ck_assert_uint_eq(ra.solutions_found, 576);
    free(a);
    free(b);
}
END_TEST

START_TEST(xcover_sudoku_6x6_boxes_2x3) {
    sudoku_shape_t s;
    uint8_t puzzle[36], sol[36], a[64 * 36], b[64 * 36];
    sudoku_xc_result_t ra, rb;
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 2, 3), 0);
    make_puzzle(&s, 55, 6, puzzle, sol);
    ra = sudoku_run(&s, puzzle, XCOVER_ENGINE_DLX, 64, a);
    rb = sudoku_run(&s, puzzle, XCOVER_ENGINE_ALGX, 64, b);
    ck_assert_uint_ge(ra.solutions_found, 1);
    ck_assert_int_eq(ra.exhausted, 1); /* fewer than 64: counted exactly */
    ck_assert_uint_eq(rb.solutions_found, ra.solutions_found);
    ck_assert_mem_eq(a, b, ra.solutions_found * 36);
}
END_TEST

START_TEST(xcover_sudoku_16x16_and_25x25) {
    static const int sizes[3][4] = {{16, 4, 4, 50}, {25, 5, 5, 35}, {12, 3, 4, 50}};
    int t, e;
    for (t = 0; t < 3; t++) {
        sudoku_shape_t s;
        int n = sizes[t][0];
        uint8_t *puzzle = malloc((size_t)n * n), *sol = malloc((size_t)n * n);
        uint8_t *got = malloc(2 * (size_t)n * n), *first = malloc((size_t)n * n);
        ck_assert_int_eq(sudoku_shape_init(&s, n, sizes[t][1], sizes[t][2]), 0);
        make_puzzle(&s, sizes[t][3], (uint32_t)n, puzzle, sol);
        for (e = 0; e < 2; e++) {
            sudoku_xc_result_t r = sudoku_run(&s, puzzle, engines[e], 1, got);
            ck_assert_uint_eq(r.solutions_found, 1);
            if (e == 0)
                memcpy(first, got, (size_t)n * n);
            else
                ck_assert_mem_eq(first, got, (size_t)n * n);
        }
        free(puzzle);
        free(sol);
        free(got);
        free(first);
    }
}
END_TEST

/* Every side 4..64 (default box, or 1 x n for a prime n), and 64 with 4x16
 * boxes: a pattern puzzle with holes solves to a valid grid that keeps the
 * givens, with dlx (and algorithm-x, the same grid, up to 16). */
START_TEST(xcover_sudoku_every_size) {
    uint8_t *puzzle = malloc(64 * 64), *sol = malloc(64 * 64), *got = malloc(64 * 64);
    int n;
    ck_assert_ptr_nonnull(puzzle);
    ck_assert_ptr_nonnull(sol);
    ck_assert_ptr_nonnull(got);
    for (n = SUDOKU_MIN_N; n <= SUDOKU_MAX_N + 1; n++) {
        sudoku_shape_t s;
        sudoku_xc_result_t r;
        int br, bc;
        if (n == SUDOKU_MAX_N + 1) { /* one more: a non-square box on 64 */
            br = 4;
            bc = 16;
        } else if (sudoku_default_box(n, &br, &bc) != 0) {
            br = 1;
            bc = n;
        }
        ck_assert_int_eq(sudoku_shape_init(&s, n == 65 ? 64 : n, br, bc), 0);
        /* plain DLX wanders on big grids with many random holes (a 45x45 at
         * 45% holes runs for seconds), so big sides get fewer holes */
        make_puzzle(&s, s.n <= 16 ? 45 : s.n <= 25 ? 35 : 20, (uint32_t)n, puzzle, sol);
        r = sudoku_run(&s, puzzle, XCOVER_ENGINE_DLX, 1, got);
        ck_assert_msg(r.solutions_found == 1, "n=%d %dx%d", s.n, br, bc);
        if (s.n <= 16) {
            r = sudoku_run(&s, puzzle, XCOVER_ENGINE_ALGX, 1, sol);
            ck_assert_uint_eq(r.solutions_found, 1);
            ck_assert_mem_eq(sol, got, (size_t)s.n * s.n);
        }
    }
    free(puzzle);
    free(sol);
    free(got);
}
END_TEST

START_TEST(xcover_sudoku_errors) {
    sudoku_shape_t s, s9, s23;
    xcover_problem_t *p = NULL, *p6 = NULL;
    sudoku_xc_opts_t o;
    sudoku_xc_result_t r;
    uint8_t puzzle[81], grid[81];
    uint32_t opts[2];
    search_ctl_t ctl;

    ck_assert_int_eq(sudoku_shape_init(&s9, 9, 0, 0), 0);
    parse_grid(inkala, puzzle, 9);
    sudoku_xc_opts_init(&o);
    puzzle[1] = 8; /* two 8s in row 0 */
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), SUDOKU_ECONFLICT);
    ck_assert_int_eq(r.code, SUDOKU_ECONFLICT);
    puzzle[1] = 10; /* out of range */
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), SEARCH_EINVAL);
    puzzle[1] = 0;
    o.max_solutions = 0;
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), SEARCH_EINVAL);
    o.max_solutions = SUDOKU_MAX_SOLUTIONS + 1;
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), SEARCH_EINVAL);
    sudoku_xc_opts_init(&o);
    o.engine = XCOVER_ENGINE_COUNT;
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), SEARCH_EINVAL);
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(sudoku_xc_solve(&s, puzzle, NULL, &r), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_xc_problem_new(&s, NULL, &p), SEARCH_EINVAL);

    /* a problem built for another shape is refused, even of the same size */
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 2, 3), 0);
    ck_assert_int_eq(sudoku_shape_init(&s23, 6, 3, 2), 0);
    ck_assert_int_eq(sudoku_xc_problem_new(&s, NULL, &p6), 0);
    sudoku_xc_opts_init(&o);
    o.problem = p6;
    memset(grid, 0, sizeof grid);
    ck_assert_int_eq(sudoku_xc_solve(&s23, grid, &o, &r), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), SEARCH_EINVAL);
    ck_assert_int_eq(sudoku_xc_solve(&s, grid, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    xcover_problem_free(p6);

    /* a prefix that clashes with a given: no solution, exhausted */
    sudoku_xc_opts_init(&o);
    opts[0] = sudoku_xc_option(&s9, 0, 1); /* cell 0 holds 8 */
    o.prefix = opts;
    o.prefix_len = 1;
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 0);
    ck_assert_int_eq(r.exhausted, 1);
    opts[0] = 729;
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), SEARCH_EINVAL);

    /* limits pass through */
    sudoku_xc_opts_init(&o);
    memset(&ctl, 0, sizeof ctl);
    ctl.node_budget = 3;
    o.ctl = &ctl;
    ck_assert_int_eq(sudoku_xc_solve(&s9, puzzle, &o, &r), SEARCH_BUDGET);
    ck_assert_uint_eq(r.stats.nodes, 3);

    /* grids from options */
    opts[0] = sudoku_xc_option(&s9, 5, 7);
    opts[1] = sudoku_xc_option(&s9, 80, 9);
    ck_assert_int_eq(sudoku_xc_to_grid(&s9, opts, 2, grid), 0);
    ck_assert_uint_eq(grid[5], 7);
    ck_assert_uint_eq(grid[80], 9);
    ck_assert_uint_eq(grid[0], 0);
    opts[1] = sudoku_xc_option(&s9, 5, 2); /* one cell twice */
    ck_assert_int_eq(sudoku_xc_to_grid(&s9, opts, 2, grid), SEARCH_EINVAL);
}
END_TEST

START_TEST(xcover_sudoku_split_matches_sequential) {
    sudoku_shape_t s;
    xcover_problem_t *p = NULL;
    uint8_t puzzle[36], sol[36];
    uint32_t givens[36];
    size_t ng = 0;
    int e;

    /* 4x4 empty: 288 solutions over roots at depths 1..3 */
    ck_assert_int_eq(sudoku_shape_init(&s, 4, 2, 2), 0);
    ck_assert_int_eq(sudoku_xc_problem_new(&s, NULL, &p), 0);
    for (e = 0; e < 2; e++) {
        check_split(p, engines[e], 1, 0, NULL, 0);
        check_split(p, engines[e], 3, 0, NULL, 0);
    }
    xcover_problem_free(p);

    /* a 6x6 with several solutions: split below its givens */
    ck_assert_int_eq(sudoku_shape_init(&s, 6, 2, 3), 0);
    ck_assert_int_eq(sudoku_xc_problem_new(&s, NULL, &p), 0);
    make_puzzle(&s, 70, 66, puzzle, sol);
    ck_assert_int_eq(sudoku_xc_givens(&s, puzzle, givens, &ng), 0);
    for (e = 0; e < 2; e++) {
        check_split(p, engines[e], 2, 0, givens, ng);
        check_split(p, engines[e], 0, 16, givens, ng);
    }
    xcover_problem_free(p);
}
END_TEST

/* sudoku_xc_split + sudoku_xc_solve with a prefix, the way a pool uses them. */
START_TEST(xcover_sudoku_split_api) {
    sudoku_shape_t s;
    xcover_problem_t *p = NULL;
    xcover_split_opts_t so;
    xcover_split_info_t info;
    sudoku_xc_opts_t o;
    sudoku_xc_result_t r;
    uint8_t puzzle[36], sol[36], grids[100 * 36], seq[100 * 36];
    uint32_t *roots;
    const uint32_t *root;
    uint32_t total = 0;
    size_t k;
    int rc;

    ck_assert_int_eq(sudoku_shape_init(&s, 6, 2, 3), 0);
    ck_assert_int_eq(sudoku_xc_problem_new(&s, NULL, &p), 0);
    make_puzzle(&s, 70, 66, puzzle, sol);
    sudoku_xc_opts_init(&o);
    o.problem = p;
    o.max_solutions = 100;
    o.solutions = seq;
    ck_assert_int_eq(sudoku_xc_solve(&s, puzzle, &o, &r), 0);
    ck_assert_int_eq(r.exhausted, 1);
    ck_assert_uint_gt(r.solutions_found, 1);

    memset(&so, 0, sizeof so);
    so.target = 8;
    rc = sudoku_xc_split(&s, puzzle, p, &so, NULL, 0, &info);
    ck_assert_uint_ge(info.count, 2);
    ck_assert_int_eq(rc, XCOVER_ESPACE);
    ck_assert_uint_ge(info.count, 8);
    roots = malloc(info.entries * sizeof *roots);
    ck_assert_ptr_nonnull(roots);
    so.depth = info.depth;
    ck_assert_int_eq(sudoku_xc_split(&s, puzzle, p, &so, roots, info.entries, &info), 0);
    for (k = 0, root = roots; k < info.count; k++, root += o.prefix_len + 1) {
        o.prefix = root;
        o.prefix_len = xcover_root_len(root);
        o.solutions = grids + total * 36;
        o.max_solutions = 100 - total;
        ck_assert_int_eq(sudoku_xc_solve(&s, puzzle, &o, &r), 0);
        total += r.solutions_found;
    }
    ck_assert_mem_eq(grids, seq, (size_t)total * 36);
    free(roots);

    puzzle[0] = puzzle[1] = 1; /* conflicting givens */
    ck_assert_int_eq(sudoku_xc_split(&s, puzzle, p, &so, NULL, 0, &info), SUDOKU_ECONFLICT);
    xcover_problem_free(p);
}
END_TEST

Suite *xcover_suite(void) {
    Suite *s = suite_create("xcover");
    TCase *core = tcase_create("core");
    TCase *pento = tcase_create("pentomino");
    TCase *queens = tcase_create("nqueens_xc");
    TCase *sudoku = tcase_create("sudoku_xc");

    tcase_add_test(core, xcover_knuth_example);
    tcase_add_test(core, xcover_engines_named);
    tcase_add_test(core, xcover_secondary_items);
    tcase_add_test(core, xcover_degenerate_problems);
    tcase_add_test(core, xcover_builder_rejects_bad_input);
    tcase_add_test(core, xcover_builder_enforces_limits);
    tcase_add_test(core, xcover_solve_rejects_bad_options);
    tcase_add_test(core, xcover_prefix_forces_and_conflicts);
    tcase_add_test(core, xcover_solution_buffer_and_callback);
    tcase_add_test(core, xcover_limits_stop_the_search);
    tcase_add_test(core, xcover_allocation_failures);
    tcase_add_test(core, xcover_sanity_catches_broken_links);
    tcase_add_test(core, xcover_split_rules);
    suite_add_tcase(s, core);

    tcase_add_test(pento, xcover_pentomino_6x10_2339);
    tcase_add_test(pento, xcover_pentomino_3x20_both_engines);
    tcase_add_test(pento, xcover_pentomino_6x10_2339_by_subtrees);
    tcase_add_test(pento, xcover_split_pentomino_3x20);
    tcase_set_timeout(pento, 60); /* ASan builds are ~3x slower */
    suite_add_tcase(s, pento);

    tcase_add_test(queens, xcover_nqueens_counts_match_oeis);
    tcase_add_test(queens, xcover_nqueens_first_is_valid);
    tcase_set_timeout(queens, 30);
    suite_add_tcase(s, queens);

    tcase_add_test(sudoku, xcover_sudoku_inkala);
    tcase_add_test(sudoku, xcover_sudoku_empty_4x4_has_288);
    tcase_add_test(sudoku, xcover_sudoku_6x6_boxes_2x3);
    tcase_add_test(sudoku, xcover_sudoku_16x16_and_25x25);
    tcase_add_test(sudoku, xcover_sudoku_every_size);
    tcase_add_test(sudoku, xcover_sudoku_errors);
    tcase_add_test(sudoku, xcover_sudoku_split_matches_sequential);
    tcase_add_test(sudoku, xcover_sudoku_split_api);
    tcase_set_timeout(sudoku, 30);
    suite_add_tcase(s, sudoku);
    return s;
}
