/* test_generate.c -- the Sudoku and Killer generators and their endpoints,
 * through the job harness and over HTTP (a generated puzzle proved unique
 * by the solve routes of the same server and graded again by its grade
 * route; the deadline answering "timeout" with only honestly labelled
 * puzzles).
 *
 * Every generated puzzle is checked by the solvers, not by the generator's
 * own word: exactly one solution (sudoku_solve by dancing links or clause
 * learning, a method the generator does not use, / killer_solve with
 * max_solutions 2) equal to the one returned, a fresh grade that agrees
 * with the level and rating returned, the symmetry of the givens, and for
 * minimal puzzles that every given (group) is needed.  Determinism: the
 * same options give the same puzzle, and one puzzle is pinned as a golden
 * value so that a change of the random stream or of the method shows. */
#include <arpa/inet.h>
#include <check.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "api/generate_api.h"
#include "api/grid_char.h"
#include "solvers/killer/generate.h"
#include "solvers/rng.h"
#include "solvers/sudoku/generate.h"
#include "solvers/sudoku/logic.h"
#include "tests/http_check.h"
#include "tests/job_harness.h"
#include "tests/test_util.h"

#define MAXNN (25 * 25)

static search_ctl_t long_ctl(void) {
    search_ctl_t c = {.deadline_ns = search_now_ns() + 60000000000LL};
    return c;
}

/* Solutions of a puzzle, up to 2, the first into sol: by a second method,
 * not the generator's own check (sudoku_unique: the band-bitset engine on
 * 9x9, propagation on the rest) -- dancing links up to 12x12, clause
 * learning from 16x16. */
static int count_solutions(const sudoku_shape_t *sh, const uint8_t *p, uint8_t *sol) {
    sudoku_opts_t o;
    sudoku_result_t r;
    uint8_t buf[2 * MAXNN];
    sudoku_opts_init(&o);
    o.max_solutions = 2;
    o.solutions = buf;
    o.method = sh->n >= 16 ? SUDOKU_METHOD_CDCL : SUDOKU_METHOD_DLX;
    ck_assert_int_eq(sudoku_solve(sh, p, &o, &r), 0);
    if (sol != NULL && r.solutions_found > 0) memcpy(sol, buf, (size_t)(sh->n * sh->n));
    return (int)r.solutions_found;
}

static sudoku_grade_t regrade(const sudoku_shape_t *sh, const uint8_t *p, const uint8_t *sol) {
    sudoku_logic_t *st = sudoku_logic_new(sh);
    sudoku_logic_opts_t o;
    sudoku_grade_t g;
    sudoku_logic_opts_init(&o);
    o.assume_unique = 1;
    o.solution = sol;
    ck_assert_int_eq(sudoku_logic_load(st, p), 0);
    ck_assert_int_eq(sudoku_logic_grade(st, &o, &g), 0);
    sudoku_logic_free(st);
    /* the fail-fast check's picture of the scale holds for every grade seen */
    ck_assert_msg(sudoku_grade_rating_possible(g.rating, g.rating + 1e-9), "rating %g", g.rating);
    return g;
}

/* The solver's checks on one generated puzzle. */
static void check_generated(const sudoku_gen_opts_t *o, const uint8_t *p, const uint8_t *sol,
                            const sudoku_gen_result_t *r) {
    uint8_t first[MAXNN];
    int nn = o->shape.n * o->shape.n, givens = 0;
    ck_assert_int_eq(sudoku_check_solution(&o->shape, p, sol), 1);
    ck_assert_int_eq(count_solutions(&o->shape, p, first), 1);
    ck_assert_int_eq(memcmp(first, sol, (size_t)nn), 0);
    for (int c = 0; c < nn; c++)
        givens += p[c] != 0;
    ck_assert_int_eq(givens, r->givens);
    sudoku_grade_t g = regrade(&o->shape, p, sol);
    ck_assert(g.solved);
    ck_assert_int_eq(g.level, r->grade.level);
    ck_assert_int_eq((long)(g.rating * 1e6), (long)(r->grade.rating * 1e6));
    ck_assert(g.rating >= o->rating_min && g.rating < o->rating_max);
}

static const struct {
    int n, br, bc;
    int level; /* -1 any */
} cases[] = {
    {4, 2, 2, -1}, {6, 2, 3, 0},   {6, 3, 2, 1},  {8, 2, 4, 1}, {9, 3, 3, 0},  {9, 3, 3, 1},
    {9, 3, 3, 2},  {9, 3, 3, 3},   {9, 3, 3, 4},  {9, 3, 3, 5}, {12, 3, 4, 0}, {16, 4, 4, 0},
    {25, 5, 5, 0}, {10, 2, 5, -1}, {16, 4, 4, 4}, /* extreme: a dig to minimal needs trial here; the
                                                     back-off finds it */
};

START_TEST(gen_unique_and_honestly_graded) {
    sudoku_gen_opts_t o;
    sudoku_gen_result_t r;
    uint8_t p[MAXNN], sol[MAXNN];
    search_ctl_t ctl = long_ctl();
    sudoku_gen_opts_init(&o);
    ck_assert_int_eq(sudoku_shape_init(&o.shape, cases[_i].n, cases[_i].br, cases[_i].bc), 0);
    if (cases[_i].level >= 0) sudoku_gen_opts_level(&o, (sudoku_grade_level_t)cases[_i].level);
    o.ctl = &ctl;
    for (int k = 0; k < (cases[_i].n <= 9 ? 3 : 1); k++) {
        o.seed = 7 + (uint64_t)k;
        ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), 0);
        check_generated(&o, p, sol, &r);
        if (cases[_i].level >= 0) ck_assert_int_eq(r.grade.level, cases[_i].level);
        ck_assert_int_ge((int)r.attempts, 1);
    }
}
END_TEST

START_TEST(gen_same_seed_same_puzzle) {
    sudoku_gen_opts_t o;
    sudoku_gen_result_t r;
    uint8_t a[81], b[81], sa[81], sb[81];
    char s[82];
    sudoku_gen_opts_init(&o);
    sudoku_gen_opts_level(&o, SUDOKU_GRADE_HARD);
    o.symmetry = SUDOKU_SYM_ROT180;
    o.seed = 42;
    ck_assert_int_eq(sudoku_generate(&o, a, sa, &r), 0);
    ck_assert_int_eq(sudoku_generate(&o, b, sb, &r), 0);
    ck_assert_int_eq(memcmp(a, b, 81), 0);
    ck_assert_int_eq(memcmp(sa, sb, 81), 0);
    /* pinned: the same on every machine (xoshiro256**, no libc random) */
    for (int c = 0; c < 81; c++)
        s[c] = a[c] ? (char)('0' + a[c]) : '.';
    s[81] = '\0';
    ck_assert_str_eq(
        s, "..8..5...3...7...9..61..7.8.....1.9.6.4...8.7.9.5.....4.2..83..8...6...5...2..4..");
    o.seed = 43;
    ck_assert_int_eq(sudoku_generate(&o, b, sb, &r), 0);
    ck_assert_int_ne(memcmp(a, b, 81), 0);
    o.seed = 42;
    o.stream = 1;
    ck_assert_int_eq(sudoku_generate(&o, b, sb, &r), 0);
    ck_assert_int_ne(memcmp(a, b, 81), 0);
}
END_TEST

static int image(int n, sudoku_symmetry_t sym, int c) {
    int r = c / n, col = c % n;
    switch (sym) {
    case SUDOKU_SYM_ROT180: return (n - 1 - r) * n + (n - 1 - col);
    case SUDOKU_SYM_ROT90: return col * n + (n - 1 - r);
    case SUDOKU_SYM_MIRROR: return r * n + (n - 1 - col);
    case SUDOKU_SYM_DIAG: return col * n + r;
    default: return c;
    }
}

START_TEST(gen_symmetry_honoured) {
    static const int sizes[][3] = {{9, 3, 3}, {6, 2, 3}, {8, 2, 4}};
    for (int sym = 1; sym < SUDOKU_SYM_COUNT; sym++)
        for (size_t z = 0; z < 3; z++) {
            sudoku_gen_opts_t o;
            sudoku_gen_result_t r;
            uint8_t p[81], sol[81];
            int n = sizes[z][0];
            sudoku_gen_opts_init(&o);
            sudoku_shape_init(&o.shape, n, sizes[z][1], sizes[z][2]);
            o.symmetry = (sudoku_symmetry_t)sym;
            o.seed = 99;
            ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), 0);
            check_generated(&o, p, sol, &r);
            for (int c = 0; c < n * n; c++)
                ck_assert_msg((p[c] != 0) == (p[image(n, (sudoku_symmetry_t)sym, c)] != 0),
                              "%s: cell %d and its image differ",
                              sudoku_symmetry_name((sudoku_symmetry_t)sym), c);
        }
}
END_TEST

/* Every given (with its symmetric image) of p is needed: without it the
 * puzzle has several solutions. */
static void check_minimal(const sudoku_gen_opts_t *o, const uint8_t *p) {
    int n = o->shape.n;
    for (int c = 0; c < n * n; c++) {
        if (!p[c]) continue;
        uint8_t q[81];
        int im = image(n, o->symmetry, c);
        memcpy(q, p, (size_t)(n * n));
        q[c] = 0;
        q[im] = 0;
        ck_assert_msg(count_solutions(&o->shape, q, NULL) >= 2,
                      "given %d (and its image %d) can go", c, im);
    }
}

START_TEST(gen_minimal_honoured) {
    static const int sizes[][4] = {{9, 3, 3, 0}, {9, 3, 3, 1}, {6, 2, 3, 0}, {9, 3, 3, 2}};
    for (size_t z = 0; z < 4; z++) {
        sudoku_gen_opts_t o;
        sudoku_gen_result_t r;
        uint8_t p[81], sol[81];
        int n = sizes[z][0];
        sudoku_gen_opts_init(&o);
        sudoku_shape_init(&o.shape, n, sizes[z][1], sizes[z][2]);
        o.minimal = 1;
        o.symmetry = sizes[z][3] == 1 ? SUDOKU_SYM_ROT180 : SUDOKU_SYM_NONE;
        if (sizes[z][3] == 2) sudoku_gen_opts_level(&o, SUDOKU_GRADE_EASY);
        o.seed = 5;
        ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), 0);
        check_generated(&o, p, sol, &r);
        ck_assert_int_eq(r.minimal, 1);
        check_minimal(&o, p);
    }
}
END_TEST

/* The givens range: never under givens.min (the dig stops there), never
 * over givens.max, minimal puzzles still minimal (never padded), and the
 * floor really changes the puzzle: the same seed without it digs deeper. */
START_TEST(gen_givens_range_honoured) {
    static const struct {
        int n, br, bc, level, lo, hi, minimal, sym;
    } g[] = {
        {9, 3, 3, SUDOKU_GRADE_EASY, 36, 0, 0, SUDOKU_SYM_NONE},
        {9, 3, 3, SUDOKU_GRADE_EASY, 40, 45, 0, SUDOKU_SYM_ROT180},
        {9, 3, 3, SUDOKU_GRADE_HARD, 30, 0, 0, SUDOKU_SYM_NONE},
        {9, 3, 3, -1, 24, 0, 0, SUDOKU_SYM_NONE}, /* a uniqueness dig cut short */
        {9, 3, 3, -1, 0, 24, 0, SUDOKU_SYM_NONE},
        {9, 3, 3, SUDOKU_GRADE_EASY, 26, 0, 1, SUDOKU_SYM_NONE},
        {6, 2, 3, SUDOKU_GRADE_EASY, 20, 22, 0, SUDOKU_SYM_NONE},
        {9, 3, 3, -1, 81, 0, 0, SUDOKU_SYM_NONE}, /* the whole grid: nothing to solve */
    };
    for (size_t z = 0; z < sizeof g / sizeof g[0]; z++) {
        sudoku_gen_opts_t o;
        sudoku_gen_result_t r, free_r;
        uint8_t p[81], sol[81], q[81], qsol[81];
        int n = g[z].n, givens = 0, free_givens = 0;
        sudoku_gen_opts_init(&o);
        sudoku_shape_init(&o.shape, n, g[z].br, g[z].bc);
        if (g[z].level >= 0) sudoku_gen_opts_level(&o, (sudoku_grade_level_t)g[z].level);
        o.minimal = g[z].minimal;
        o.symmetry = (sudoku_symmetry_t)g[z].sym;
        o.seed = 21 + z;
        ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_REACHABLE);
        ck_assert_int_eq(sudoku_generate(&o, q, qsol, &free_r), 0); /* no range */
        o.givens_min = g[z].lo;
        o.givens_max = g[z].hi;
        ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), 0);
        check_generated(&o, p, sol, &r);
        for (int c = 0; c < n * n; c++) {
            givens += p[c] != 0;
            free_givens += q[c] != 0;
        }
        ck_assert_int_ge(givens, g[z].lo);
        if (g[z].hi > 0) ck_assert_int_le(givens, g[z].hi);
        if (g[z].minimal) {
            ck_assert_int_eq(r.minimal, 1);
            check_minimal(&o, p);
        }
        if (g[z].lo > free_givens) ck_assert_int_ne(memcmp(p, q, (size_t)(n * n)), 0);
    }
}
END_TEST

/* Every 4x4 puzzle: the 12 grids whose first row is 1 2 3 4 (every 4x4
 * grid is one of them with its digits renamed, which changes no
 * deduction), each with every subset of its cells as givens.  None with
 * fewer than sudoku_gen_min_givens(4) givens has one solution, and every
 * one that has rates below SUDOKU_GEN_RATING_4X4: the facts behind the
 * 422 answers for 4x4 above easy and under 4 givens. */
static int grid4(uint8_t (*out)[16], uint8_t *g, int c, int k) {
    if (c == 16) {
        memcpy(out[k], g, 16);
        return k + 1;
    }
    for (int v = 1; v <= 4; v++) {
        int r = c / 4, col = c % 4, ok = 1, br = r / 2 * 2, bc = col / 2 * 2;
        for (int i = 0; i < 4 && ok; i++)
            ok = g[r * 4 + i] != v && g[i * 4 + col] != v && g[(br + i / 2) * 4 + bc + i % 2] != v;
        if (!ok) continue;
        g[c] = (uint8_t)v;
        k = grid4(out, g, c + 1, k);
        g[c] = 0;
    }
    return k;
}

START_TEST(gen_4x4_every_puzzle_easy) {
    uint8_t grids[16][16], g[16] = {1, 2, 3, 4}, p[16], first[16];
    sudoku_shape_t sh;
    sudoku_logic_t *st;
    int ngrids = grid4(grids, g, 4, 0), fewest = 16;
    long unique = 0;
    double top = 0.0;
    ck_assert_int_eq(ngrids, 12); /* 288 grids / 4! namings */
    sudoku_shape_init(&sh, 4, 2, 2);
    st = sudoku_logic_new(&sh);
    ck_assert_ptr_nonnull(st);
    for (int k = 0; k < ngrids; k++)
        for (unsigned m = 0; m < 1u << 16; m++) {
            sudoku_logic_opts_t o;
            sudoku_grade_t gr;
            for (int c = 0; c < 16; c++)
                p[c] = m >> c & 1 ? grids[k][c] : 0;
            if (sudoku_unique(&sh, p, NULL, first) != 1) continue;
            ck_assert_int_eq(memcmp(first, grids[k], 16), 0);
            unique++;
            if (__builtin_popcount(m) < fewest) fewest = __builtin_popcount(m);
            sudoku_logic_opts_init(&o);
            o.assume_unique = 1;
            o.solution = grids[k];
            ck_assert_int_eq(sudoku_logic_load(st, p), 0);
            ck_assert_int_eq(sudoku_logic_grade(st, &o, &gr), 0);
            ck_assert(gr.solved);
            if (gr.rating > top) top = gr.rating;
        }
    sudoku_logic_free(st);
    ck_assert_int_eq(fewest, sudoku_gen_min_givens(4));
    ck_assert_msg(top < SUDOKU_GEN_RATING_4X4, "a 4x4 puzzle rates %g", top);
    double easy_lo, easy_hi;
    sudoku_grade_level_band(SUDOKU_GRADE_EASY, &easy_lo, &easy_hi);
    ck_assert(sudoku_gen_max_rating(&sh) <= easy_hi);
    ck_assert_int_gt(unique, 100000);
}
END_TEST

/* What sudoku_gen_reachable() refuses, and that it refuses nothing the
 * generator does. */
START_TEST(gen_reachable_refuses_only_the_impossible) {
    sudoku_gen_opts_t o;
    sudoku_gen_opts_init(&o);
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_REACHABLE);
    o.givens_max = 16;
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_FEW_GIVENS);
    o.givens_max = 17;
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_REACHABLE);
    o.rating_min = 1.3; /* between naked single (1.2-1.299) and hidden single (1.5) */
    o.rating_max = 1.5;
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_RATING_GAP);
    o.rating_max = 1.51;
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_REACHABLE);
    o.rating_min = 5.5; /* long x-chains: possible, if rare */
    o.rating_max = 6.0;
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_REACHABLE);
    sudoku_shape_init(&o.shape, 4, 2, 2);
    o.givens_max = 0;
    sudoku_gen_opts_level(&o, SUDOKU_GRADE_MEDIUM);
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_SIZE_CAP);
    sudoku_gen_opts_level(&o, SUDOKU_GRADE_EASY);
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_REACHABLE);
    o.givens_max = 3;
    ck_assert_int_eq(sudoku_gen_reachable(&o), SUDOKU_GEN_FEW_GIVENS);
    /* every level's band meets the scale */
    for (int l = 0; l < SUDOKU_GRADE_COUNT; l++) {
        double lo, hi;
        sudoku_grade_level_band((sudoku_grade_level_t)l, &lo, &hi);
        ck_assert(sudoku_grade_rating_possible(lo, hi));
    }
}
END_TEST

START_TEST(gen_rating_window_and_stops) {
    sudoku_gen_opts_t o;
    sudoku_gen_result_t r;
    uint8_t p[81], sol[81];
    search_ctl_t past = {.deadline_ns = 1};
    sudoku_gen_opts_init(&o);
    o.rating_min = 2.2;
    o.rating_max = 3.5;
    o.seed = 11;
    ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), 0);
    check_generated(&o, p, sol, &r);
    o.ctl = &past;
    ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), SEARCH_TIMEOUT);
    o.ctl = NULL;
    o.max_attempts = 1;
    sudoku_gen_opts_level(&o, SUDOKU_GRADE_BEYOND);
    int rc = sudoku_generate(&o, p, sol, &r);
    ck_assert(rc == 0 || rc == SEARCH_BUDGET);
    ck_assert_int_le((int)r.attempts, 1);
    o.rating_min = 3;
    o.rating_max = 3;
    ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), SEARCH_EINVAL);
    sudoku_gen_opts_init(&o);
    sudoku_shape_init(&o.shape, 36, 6, 6);
    ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), SEARCH_EINVAL);
    sudoku_gen_opts_init(&o);
    o.symmetry = SUDOKU_SYM_COUNT;
    ck_assert_int_eq(sudoku_generate(&o, p, sol, &r), SEARCH_EINVAL);
}
END_TEST

/* Turns change nothing: a generation cut into one turn per attempt (a
 * turn end always past) gives the puzzle, solution and attempt count of
 * the same generation in one call -- classic, variant and Killer. */
START_TEST(gen_turns_same_puzzle) {
    uint8_t p1[81], s1[81], p2[81], s2[81];
    rng_t rng;
    sudoku_gen_opts_t o;
    sudoku_gen_result_t r;
    uint64_t attempts = 0;
    int rc, calls = 0;
    sudoku_gen_opts_init(&o);
    sudoku_gen_opts_level(&o, SUDOKU_GRADE_HARD);
    o.seed = 42;
    ck_assert_int_eq(sudoku_generate(&o, p1, s1, &r), 0);
    uint64_t whole = r.attempts;
    rng_seed(&rng, o.seed, o.stream);
    o.resume = &rng;
    o.turn_end_ns = 1;
    do {
        rc = sudoku_generate(&o, p2, s2, &r);
        attempts += r.attempts;
        calls++;
        ck_assert_int_le((int)r.attempts, 1);
    } while (rc == SEARCH_TURN);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq((int)attempts, (int)whole);
    ck_assert_int_eq(calls, (int)whole);
    ck_assert_int_gt(calls, 1); /* the seed needs several attempts: turns were taken */
    ck_assert_int_eq(memcmp(p1, p2, 81), 0);
    ck_assert_int_eq(memcmp(s1, s2, 81), 0);

    /* a variant: jigsaw X (regions drawn per attempt), medium */
    sudoku_vgen_opts_t vo;
    sudoku_gen_result_t vr;
    int reg1[81], reg2[81];
    sudoku_vgen_opts_init(&vo);
    vo.spec.extras = SUDOKU_EXTRA_X;
    vo.random_regions = 1;
    sudoku_gen_opts_level(&vo.gen, SUDOKU_GRADE_MEDIUM);
    vo.gen.seed = 8;
    sudoku_vgen_out_t out1 = {p1, s1, reg1, NULL, NULL, 0}, out2 = {p2, s2, reg2, NULL, NULL, 0};
    ck_assert_int_eq(sudoku_generate_variant(&vo, &out1, &vr), 0);
    whole = vr.attempts;
    rng_seed(&rng, vo.gen.seed, vo.gen.stream);
    vo.gen.resume = &rng;
    vo.gen.turn_end_ns = 1;
    attempts = 0;
    while ((rc = sudoku_generate_variant(&vo, &out2, &vr)) == SEARCH_TURN)
        attempts += vr.attempts;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq((int)(attempts + vr.attempts), (int)whole);
    ck_assert_int_eq(memcmp(p1, p2, 81), 0);
    ck_assert_int_eq(memcmp(reg1, reg2, sizeof reg1), 0);

    /* Killer 6x6 */
    killer_gen_opts_t ko;
    killer_gen_result_t kr1, kr2;
    killer_cell_t c1[81], c2[81];
    killer_cage_t k1[81], k2[81];
    killer_gen_opts_init(&ko);
    sudoku_shape_init(&ko.shape, 6, 0, 0);
    ko.cage_max = 4;
    ko.seed = 5;
    ck_assert_int_eq(killer_generate(&ko, s1, c1, k1, &kr1), 0);
    rng_seed(&rng, ko.seed, ko.stream);
    ko.resume = &rng;
    ko.turn_end_ns = 1;
    attempts = 0;
    while ((rc = killer_generate(&ko, s2, c2, k2, &kr2)) == SEARCH_TURN)
        attempts += kr2.attempts;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq((int)(attempts + kr2.attempts), (int)kr1.attempts);
    ck_assert_int_eq(memcmp(s1, s2, 36), 0);
    ck_assert_int_eq(kr1.ncages, kr2.ncages);
    for (int k = 0; k < kr1.ncages; k++) {
        ck_assert_int_eq(k1[k].sum, k2[k].sum);
        ck_assert_int_eq(k1[k].ncells, k2[k].ncells);
    }
}
END_TEST

/* === Killer === */

#define KG_NN (16 * 16) /* the biggest Killer the generator makes */

/* Grades a Killer by the logic engine on its cages (every technique, the
 * solution known, uniqueness presumed: /v1/killer/grade's settings),
 * independently of the generator's code: the Sudoku model of the cages,
 * the grid the engine ends with in end.  Returns the grade's code. */
static int kgrade(const killer_gen_opts_t *o, const killer_cage_t *cages, int ncages,
                  const uint8_t *sol, int proof, sudoku_grade_t *g, uint8_t *end) {
    sudoku_line_t lines[KG_NN];
    uint16_t lc[KG_NN];
    uint8_t empty[KG_NN] = {0};
    uint32_t at = 0;
    int n = o->shape.n, rc;
    for (int k = 0; k < ncages; k++) {
        memset(&lines[k], 0, sizeof lines[k]);
        lines[k].kind = SUDOKU_LINE_CAGE;
        lines[k].value = (int32_t)cages[k].sum;
        lines[k].first = at;
        lines[k].len = (uint32_t)cages[k].ncells;
        for (int i = 0; i < cages[k].ncells; i++)
            lc[at++] = (uint16_t)(cages[k].cells[i].r * n + cages[k].cells[i].c);
    }
    sudoku_spec_t spec;
    sudoku_spec_init(&spec);
    spec.n = n;
    spec.box_rows = o->shape.box_rows;
    spec.box_cols = o->shape.box_cols;
    spec.extras = o->diagonals ? SUDOKU_EXTRA_X : 0;
    spec.nlines = ncages;
    spec.lines = lines;
    spec.line_cells = lc;
    sudoku_model_t *m;
    ck_assert_int_eq(sudoku_model_new(&spec, NULL, &m, NULL), 0);
    sudoku_logic_t *st = sudoku_logic_new_model(m);
    ck_assert_ptr_nonnull(st);
    sudoku_logic_opts_t lo;
    sudoku_logic_opts_init(&lo);
    lo.assume_unique = !proof;
    if (proof) lo.max_tech = SUDOKU_TECH_TRIAL; /* no guess: every step a deduction */
    lo.solution = sol;
    ck_assert_int_eq(sudoku_logic_load(st, empty), 0);
    rc = sudoku_logic_grade(st, &lo, g);
    sudoku_logic_grid(st, end);
    sudoku_logic_free(st);
    sudoku_model_free(m);
    return rc;
}

static const struct {
    int n, min, max, diag, level; /* level -1: any rating */
} kcases[] = {{4, 2, 3, 0, -1},
              {6, 2, 4, 0, -1},
              {9, 2, 4, 0, -1},
              {9, 2, 5, 1, -1},
              {9, 1, 3, 0, -1},
              {6, 3, 3, 0, -1},
              {9, 1, 3, 0, SUDOKU_GRADE_EASY},
              {9, 2, 3, 0, SUDOKU_GRADE_MEDIUM},
              {6, 2, 4, 1, SUDOKU_GRADE_HARD},
              {16, 1, 3, 0, SUDOKU_GRADE_EASY},
              {16, 1, 4, 0, SUDOKU_GRADE_MEDIUM}};

START_TEST(gen_killer_unique_and_in_bounds) {
    killer_gen_opts_t o;
    killer_gen_result_t r;
    uint8_t sol[KG_NN], sols[2 * KG_NN];
    killer_cell_t cells[KG_NN];
    killer_cage_t cages[KG_NN];
    search_ctl_t ctl = long_ctl();
    killer_gen_opts_init(&o);
    sudoku_shape_init(&o.shape, kcases[_i].n, 0, 0);
    o.cage_min = kcases[_i].min;
    o.cage_max = kcases[_i].max;
    o.diagonals = kcases[_i].diag;
    if (kcases[_i].level >= 0)
        sudoku_grade_level_band((sudoku_grade_level_t)kcases[_i].level, &o.rating_min,
                                &o.rating_max);
    o.ctl = &ctl;
    o.seed = 3;
    ck_assert_int_eq(killer_generate(&o, sol, cells, cages, &r), 0);
    killer_puzzle_t pz;
    memset(&pz, 0, sizeof pz);
    pz.shape = o.shape;
    pz.cages = cages;
    pz.ncages = r.ncages;
    pz.diagonals = o.diagonals;
    ck_assert_int_eq(killer_validate(&pz, NULL), 0);
    ck_assert_int_eq(killer_check_solution(&pz, sol), 1);
    int covered = 0, nn = o.shape.n * o.shape.n;
    for (int k = 0; k < r.ncages; k++) {
        ck_assert_int_ge(cages[k].ncells, o.cage_min);
        ck_assert_int_le(cages[k].ncells, o.cage_max);
        covered += cages[k].ncells;
        /* connected: every cell touches another of its cage (or is alone) */
        for (int i = 0; i < cages[k].ncells && cages[k].ncells > 1; i++) {
            int near = 0;
            for (int j = 0; j < cages[k].ncells; j++) {
                int dr = cages[k].cells[i].r - cages[k].cells[j].r;
                int dc = cages[k].cells[i].c - cages[k].cells[j].c;
                near |= (dr * dr + dc * dc) == 1;
            }
            ck_assert(near);
        }
    }
    ck_assert_int_eq(covered, nn);
    killer_opts_t ko;
    killer_result_t kr;
    killer_opts_init(&ko);
    ko.max_solutions = 2;
    ko.solutions = sols;
    ko.method = KILLER_METHOD_LEARNING; /* the generator proves by the advanced solver */
    ck_assert_int_eq(killer_solve(&pz, &ko, &kr), 0);
    ck_assert(killer_result_unique(&kr));
    ck_assert_int_eq(memcmp(sols, sol, (size_t)nn), 0);
    /* the grade: the logic engine on the cages, from the empty grid, as
     * /v1/killer/grade runs it, gives the same rating, level and hardest
     * step, and solves it to the one solution */
    sudoku_grade_t g;
    uint8_t end[KG_NN];
    ck_assert_int_eq(kgrade(&o, cages, r.ncages, sol, 0, &g, end), 0);
    ck_assert(g.solved);
    ck_assert_int_eq(memcmp(end, sol, (size_t)nn), 0);
    ck_assert(g.rating == r.rating);
    ck_assert_int_eq(g.level, r.level);
    ck_assert_int_eq(g.hardest, r.hardest);
    ck_assert_int_eq(g.steps, r.steps);
    ck_assert(r.rating >= 1.0);
    if (kcases[_i].level >= 0) ck_assert_int_eq(r.level, kcases[_i].level);
    /* same seed, same puzzle */
    /* a third proof of uniqueness where the grade's path is one: no guess
     * and no technique that presumes one solution, so the engine without
     * them takes the same steps and solves it */
    if (g.counts[SUDOKU_TECH_GUESS] == 0 && g.counts[SUDOKU_TECH_UNIQUE_RECTANGLE] == 0 &&
        g.counts[SUDOKU_TECH_BUG_PLUS_1] == 0) {
        sudoku_grade_t gp;
        ck_assert_int_eq(kgrade(&o, cages, r.ncages, sol, 1, &gp, end), 0);
        ck_assert(gp.solved);
        ck_assert_int_eq(memcmp(end, sol, (size_t)nn), 0);
        ck_assert_int_eq(gp.steps, g.steps);
    }
    uint8_t sol2[KG_NN];
    killer_cell_t cells2[KG_NN];
    killer_cage_t cages2[KG_NN];
    killer_gen_result_t r2;
    ck_assert_int_eq(killer_generate(&o, sol2, cells2, cages2, &r2), 0);
    ck_assert_int_eq(memcmp(sol, sol2, (size_t)nn), 0);
    ck_assert_int_eq(r.ncages, r2.ncages);
    for (int k = 0; k < r.ncages; k++)
        ck_assert_int_eq(cages[k].sum, cages2[k].sum);
}
END_TEST

START_TEST(gen_killer_rejects_bad_options) {
    killer_gen_opts_t o;
    killer_gen_result_t r;
    uint8_t sol[81];
    killer_cell_t cells[81];
    killer_cage_t cages[81];
    killer_gen_opts_init(&o);
    o.cage_min = 5;
    o.cage_max = 4;
    ck_assert_int_eq(killer_generate(&o, sol, cells, cages, &r), SEARCH_EINVAL);
    killer_gen_opts_init(&o);
    o.cage_max = 10;
    ck_assert_int_eq(killer_generate(&o, sol, cells, cages, &r), SEARCH_EINVAL);
    o.cage_max = 4;
    o.rating_min = 3.0;
    o.rating_max = 3.0; /* an empty window */
    ck_assert_int_eq(killer_generate(&o, sol, cells, cages, &r), SEARCH_EINVAL);
}
END_TEST

/* What killer_gen_reachable() refuses: rating windows no grade of a
 * Killer meets (the cage techniques' weights count: 1.6 is no Sudoku's
 * but a Killer's cage-combination), and 4x4 past medium; and the 4x4 cap
 * holds for what the generator makes: every puzzle of a sweep over seeds,
 * cage ranges (the API's for each level, and 1..4) and Killer-X grades
 * medium at most, and medium is met.  6x6 has no cap: it reaches
 * beyond-logic. */
START_TEST(gen_killer_reachable_refuses_only_the_unseen) {
    killer_gen_opts_t o;
    killer_gen_opts_init(&o);
    ck_assert_int_eq(killer_gen_reachable(&o), KILLER_GEN_REACHABLE);
    o.rating_min = 1.1; /* full-house 1.0 .. 1.099, naked-single 1.2 */
    o.rating_max = 1.15;
    ck_assert_int_eq(killer_gen_reachable(&o), KILLER_GEN_RATING_GAP);
    o.rating_min = 1.6; /* cage-combination: a Killer's, no Sudoku's */
    o.rating_max = 1.65;
    ck_assert_int_eq(killer_gen_reachable(&o), KILLER_GEN_REACHABLE);
    ck_assert(!sudoku_grade_rating_possible(o.rating_min, o.rating_max));
    o.rating_min = 2.8; /* innies-outies */
    o.rating_max = 2.85;
    ck_assert_int_eq(killer_gen_reachable(&o), KILLER_GEN_REACHABLE);
    o.rating_min = 2.9; /* innies-outies ends at 2.899, naked-triple 3.0 */
    o.rating_max = 2.95;
    ck_assert_int_eq(killer_gen_reachable(&o), KILLER_GEN_RATING_GAP);
    for (int l = 0; l < SUDOKU_GRADE_COUNT; l++) {
        sudoku_grade_level_band((sudoku_grade_level_t)l, &o.rating_min, &o.rating_max);
        sudoku_shape_init(&o.shape, 9, 0, 0);
        ck_assert_int_eq(killer_gen_reachable(&o), KILLER_GEN_REACHABLE);
        sudoku_shape_init(&o.shape, 6, 0, 0);
        ck_assert_int_eq(killer_gen_reachable(&o), KILLER_GEN_REACHABLE);
        sudoku_shape_init(&o.shape, 4, 0, 0);
        ck_assert_int_eq(killer_gen_reachable(&o),
                         l <= SUDOKU_GRADE_MEDIUM ? KILLER_GEN_REACHABLE : KILLER_GEN_SIZE_CAP);
        /* 16x16: graded up to extreme, and only with one-cell cages */
        sudoku_shape_init(&o.shape, 16, 0, 0);
        o.cage_min = 1;
        ck_assert_int_eq(killer_gen_reachable(&o),
                         l <= SUDOKU_GRADE_EXTREME ? KILLER_GEN_REACHABLE : KILLER_GEN_SIZE_CAP);
        o.cage_min = 2;
        ck_assert_int_eq(killer_gen_reachable(&o),
                         l <= SUDOKU_GRADE_EXTREME ? KILLER_GEN_NO_SINGLES : KILLER_GEN_SIZE_CAP);
    }
    static const struct {
        int min, max, seeds;
    } sweep[] = {{1, 3, 2000}, {2, 3, 2000}, {1, 4, 2000}, {3, 4, 300}};
    uint8_t sol[81];
    killer_cell_t cells[81];
    killer_cage_t cages[81];
    killer_gen_result_t r;
    int most = SUDOKU_GRADE_EASY;
    for (size_t c = 0; c < sizeof sweep / sizeof sweep[0]; c++)
        for (int seed = 1; seed <= sweep[c].seeds; seed++) {
            killer_gen_opts_init(&o);
            sudoku_shape_init(&o.shape, 4, 0, 0);
            o.cage_min = sweep[c].min;
            o.cage_max = sweep[c].max;
            o.diagonals = seed % 2;
            o.seed = (uint64_t)seed;
            o.max_attempts = 1000;
            if (killer_generate(&o, sol, cells, cages, &r) != 0) continue;
            ck_assert_msg(r.level <= killer_gen_max_level(4), "4x4 seed %d: %s %.2f", seed,
                          sudoku_grade_level_name(r.level), r.rating);
            if ((int)r.level > most) most = (int)r.level;
        }
    ck_assert_int_eq(most, killer_gen_max_level(4));
    /* 6x6: beyond-logic, with the API's cages for it.  Since forcing
     * chains, about one layout in 5,000 needs trial (docs/generate.md):
     * the first of a few seeds of 2,000 attempts each that finds one */
    int found = 0;
    for (int seed = 1; seed <= 8 && !found; seed++) {
        killer_gen_opts_init(&o);
        sudoku_shape_init(&o.shape, 6, 0, 0);
        o.cage_min = 3;
        o.cage_max = 5;
        o.seed = (uint64_t)seed;
        o.max_attempts = 2000;
        sudoku_grade_level_band(SUDOKU_GRADE_BEYOND, &o.rating_min, &o.rating_max);
        if (killer_generate(&o, sol, cells, cages, &r) != 0) continue;
        ck_assert_int_eq(r.level, SUDOKU_GRADE_BEYOND);
        found = 1;
    }
    ck_assert(found);
}
END_TEST

/* === The endpoints === */

static tjob_t gen(api_prepare_fn fn, const char *body) {
    return tjob_call(fn, "application/json", NULL, body, NULL, 0);
}

START_TEST(gen_api_sudoku) {
    tjob_t t = gen(api_sudoku_generate_prepare,
                   "{\"size\":9,\"difficulty\":\"medium\",\"count\":3,\"seed\":1000}");
    ck_assert_int_eq(t.status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(t.json, "status")), "complete");
    json_t *list = json_object_get(t.json, "puzzles");
    ck_assert_int_eq(json_array_size(list), 3);
    sudoku_shape_t sh;
    sudoku_shape_init(&sh, 9, 3, 3);
    for (size_t i = 0; i < 3; i++) {
        json_t *pz = json_array_get(list, i);
        const char *ps = json_string_value(json_object_get(pz, "puzzle"));
        const char *ss = json_string_value(json_object_get(pz, "solution"));
        uint8_t p[81], s[81], first[81];
        for (int c = 0; c < 81; c++) {
            p[c] = ps[c] == '.' ? 0 : (uint8_t)(ps[c] - '0');
            s[c] = (uint8_t)(ss[c] - '0');
        }
        ck_assert_int_eq(count_solutions(&sh, p, first), 1);
        ck_assert_int_eq(memcmp(first, s, 81), 0);
        ck_assert_str_eq(json_string_value(json_object_get(pz, "level")), "medium");
        /* item 0 the request's seed, the others api_gen_item_seed's hash:
         * pinned, worked out by hand from the formula openapi.yaml gives */
        static const long long seeds[] = {1000, 7491534638594991LL, 6836374019509055LL};
        ck_assert_int_eq(json_integer_value(json_object_get(pz, "seed")), seeds[i]);
        ck_assert_int_eq(api_gen_item_seed(1000, i), seeds[i]);
        /* puzzle i alone, from its own seed */
        char body[128];
        snprintf(body, sizeof body, "{\"difficulty\":\"medium\",\"seed\":%lld}", seeds[i]);
        tjob_t one = gen(api_sudoku_generate_prepare, body);
        ck_assert_str_eq(json_string_value(json_object_get(
                             json_array_get(json_object_get(one.json, "puzzles"), 0), "puzzle")),
                         ps);
        tjob_free(&one);
    }
    tjob_free(&t);
}
END_TEST

/* A request body the endpoint refuses, and the field its problem names. */
typedef struct gen_bad_s {
    const char *body, *field;
} gen_bad_t;

/* Each of bad[0..n) through fn: `status`, the field named, and (type not
 * NULL) that problem type. */
static void gen_refused(api_prepare_fn fn, const gen_bad_t *bad, size_t n, int status,
                        const char *type) {
    for (size_t i = 0; i < n; i++) {
        tjob_t t = gen(fn, bad[i].body);
        ck_assert_msg(t.status == status, "%s: %d %s", bad[i].body, t.status, t.body);
        if (type != NULL)
            ck_assert_str_eq(json_string_value(json_object_get(t.json, "type")), type);
        ck_assert_msg(tjob_names(&t, bad[i].field), "%s: %s", bad[i].body, t.body);
        tjob_free(&t);
    }
}

/* Each of bodies[0..n) through fn makes all its puzzles (200, complete). */
static void gen_made(api_prepare_fn fn, const char *const *bodies, size_t n) {
    for (size_t i = 0; i < n; i++) {
        tjob_t t = gen(fn, bodies[i]);
        ck_assert_msg(t.status == 200, "%s: %d %s", bodies[i], t.status, t.body);
        ck_assert_str_eq(json_string_value(json_object_get(t.json, "status")), "complete");
        tjob_free(&t);
    }
}

START_TEST(gen_api_validation) {
    static const gen_bad_t bad[] = {
        {"{\"count\":101}", "count"},
        {"{\"count\":0}", "count"},
        {"{\"size\":26}", "size"},
        {"{\"size\":3}", "size"},
        {"{\"size\":7}", "box"},
        {"{\"size\":6,\"box\":{\"rows\":4,\"cols\":2}}", "box"},
        {"{\"difficulty\":\"fiendish\"}", "difficulty"},
        {"{\"difficulty\":\"easy\",\"rating\":{\"min\":1}}", "rating"},
        {"{\"rating\":{\"min\":5,\"max\":4}}", "rating.max"},
        {"{\"rating\":{\"low\":5}}", "low"},
        {"{\"symmetry\":\"spiral\"}", "symmetry"},
        {"{\"seed\":-1}", "seed"},
        {"{\"seed\":9007199254740992}", "seed"},
        {"{\"minimal\":\"yes\"}", "minimal"},
        {"{\"timeout_ms\":0}", "timeout_ms"},
        {"{\"colour\":1}", "colour"},
        {"{\"givens\":5}", "givens"},
        {"{\"givens\":{\"min\":82}}", "givens.min"},
        {"{\"size\":4,\"givens\":{\"max\":17}}", "givens.max"},
        {"{\"givens\":{\"min\":30,\"max\":20}}", "givens.max"},
        {"{\"givens\":{\"least\":3}}", "least"},
        {"{\"givens\":{\"min\":-1}}", "min"},
    };
    gen_refused(api_sudoku_generate_prepare, bad, sizeof bad / sizeof bad[0], 400, NULL);
    static const gen_bad_t kbad[] = {
        {"{\"size\":25}", "size"},
        {"{\"size\":5}", "size"},
        {"{\"cage_size\":{\"min\":3,\"max\":2}}", "cage_size.max"},
        {"{\"cage_size\":{\"min\":0}}", "min"},
        {"{\"diagonals\":1}", "diagonals"},
        {"{\"symmetry\":\"none\"}", "symmetry"},
    };
    gen_refused(api_killer_generate_prepare, kbad, sizeof kbad / sizeof kbad[0], 400, NULL);
    tjob_t t = tjob_call(api_sudoku_generate_prepare, "text/plain", NULL, "9", NULL, 0);
    ck_assert_int_eq(t.status, 415);
    tjob_free(&t);
}
END_TEST

/* What no puzzle can have is refused before any attempt, with a 422 that
 * names the field: too few givens for one solution, a rating window in a
 * gap of the scale, a 4x4 above easy (gen_4x4_every_puzzle_easy), for the
 * classic and the variant generator alike.  No job is made: the answer
 * comes from prepare, whatever the machine's speed. */
START_TEST(gen_api_unreachable_at_once) {
    static const gen_bad_t bad[] = {
        {"{\"givens\":{\"max\":16}}", "givens.max"},
        {"{\"size\":16,\"givens\":{\"max\":14}}", "givens.max"},
        {"{\"size\":4,\"givens\":{\"max\":3}}", "givens.max"},
        {"{\"size\":4,\"difficulty\":\"medium\"}", "size"},
        {"{\"size\":4,\"difficulty\":\"beyond-logic\",\"count\":50}", "size"},
        {"{\"size\":4,\"rating\":{\"min\":1.25}}", "size"},
        {"{\"rating\":{\"min\":1.3,\"max\":1.5}}", "rating"},
        {"{\"rating\":{\"min\":2.7,\"max\":3.0}}", "rating"},
        {"{\"variant\":\"x\",\"rating\":{\"min\":1.3,\"max\":1.45}}", "rating"},
    };
    gen_refused(api_sudoku_generate_prepare, bad, sizeof bad / sizeof bad[0], 422,
                "/problems/unreachable");
    /* the edges stay open: 17 givens for 9x9, 4 for 4x4, easy for 4x4 */
    static const char *const fine[] = {
        "{\"size\":4,\"givens\":{\"max\":4},\"seed\":1}",
        "{\"size\":4,\"difficulty\":\"easy\",\"seed\":1}",
        "{\"rating\":{\"min\":1.3,\"max\":1.6},\"seed\":1}",
    };
    gen_made(api_sudoku_generate_prepare, fine, sizeof fine / sizeof fine[0]);
}
END_TEST

/* Killer windows no puzzle can meet answer 422 from prepare, naming the
 * field the window came from: every 4x4 level past medium, 4x4 rating
 * windows from 3 on, and rating windows in a gap of the grade's scale
 * (its cage techniques included) on any size.  What each size reaches
 * still generates. */
START_TEST(gen_api_killer_unreachable_at_once) {
    static const char *const levels[] = {"hard", "expert", "extreme", "beyond-logic"};
    char body[128];
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
        for (int diag = 0; diag < 2; diag++) {
            snprintf(body, sizeof body,
                     "{\"size\":4,\"difficulty\":\"%s\",\"count\":50,\"diagonals\":%s}", levels[l],
                     diag ? "true" : "false");
            gen_bad_t b = {body, "difficulty"};
            gen_refused(api_killer_generate_prepare, &b, 1, 422, "/problems/unreachable");
        }
    static const gen_bad_t bad[] = {
        {"{\"size\":4,\"rating\":{\"min\":3}}", "rating"},
        {"{\"size\":6,\"rating\":{\"min\":2.9,\"max\":2.95}}", "rating"},
        {"{\"rating\":{\"min\":1.1,\"max\":1.15}}", "rating"},
        {"{\"size\":6,\"rating\":{\"min\":1.3,\"max\":1.45}}", "rating"},
        {"{\"rating\":{\"min\":19}}", "rating"},
        /* 16x16 without one-cell cages: none in three minutes (docs) */
        {"{\"size\":16,\"cage_size\":{\"min\":2,\"max\":4}}", "cage_size.min"},
        {"{\"size\":16,\"difficulty\":\"hard\",\"cage_size\":{\"min\":3}}", "cage_size.min"},
    };
    gen_refused(api_killer_generate_prepare, bad, sizeof bad / sizeof bad[0], 422,
                "/problems/unreachable");
    static const char *const fine[] = {
        "{\"size\":4,\"difficulty\":\"easy\",\"seed\":1}",
        "{\"size\":4,\"difficulty\":\"medium\",\"seed\":1}",
        "{\"size\":4,\"rating\":{\"min\":1,\"max\":2},\"seed\":1}",
        "{\"size\":6,\"difficulty\":\"easy\",\"seed\":1}",
        "{\"size\":6,\"difficulty\":\"medium\",\"seed\":1}",
        "{\"size\":9,\"difficulty\":\"medium\",\"seed\":1}",
        "{\"size\":9,\"rating\":{\"min\":1.6,\"max\":1.7},\"seed\":1}",
        "{\"size\":16,\"difficulty\":\"easy\",\"seed\":1}",
        "{\"size\":16,\"seed\":1}",
    };
    gen_made(api_killer_generate_prepare, fine, sizeof fine / sizeof fine[0]);
}
END_TEST

/* givens {min, max} through the API: every puzzle inside the range, the
 * classic and a variant generator alike. */
START_TEST(gen_api_givens_range) {
    static const char *const bodies[] = {
        "{\"difficulty\":\"easy\",\"givens\":{\"min\":36,\"max\":38},\"count\":4,\"seed\":9}",
        "{\"variant\":\"x\",\"difficulty\":\"easy\",\"givens\":{\"min\":34},\"count\":2,"
        "\"seed\":9}",
    };
    for (size_t b = 0; b < 2; b++) {
        tjob_t t = gen(api_sudoku_generate_prepare, bodies[b]);
        json_t *pz;
        size_t i;
        ck_assert_msg(t.status == 200, "%d %s", t.status, t.body);
        ck_assert_str_eq(json_string_value(json_object_get(t.json, "status")), "complete");
        json_array_foreach(json_object_get(t.json, "puzzles"), i, pz) {
            const char *ps = json_string_value(json_object_get(pz, "puzzle"));
            int givens = 0;
            for (const char *c = ps; *c; c++)
                givens += *c != '.';
            ck_assert_int_eq(json_integer_value(json_object_get(pz, "givens")), givens);
            ck_assert_int_ge(givens, b == 0 ? 36 : 34);
            if (b == 0) ck_assert_int_le(givens, 38);
        }
        tjob_free(&t);
    }
}
END_TEST

/* The lines of an NDJSON answer, parsed, into out[] (at most cap); their
 * number.  Every line must be JSON. */
static size_t ndjson_lines(const char *body, json_t **out, size_t cap) {
    size_t n = 0;
    for (const char *at = body; *at != '\0';) {
        const char *nl = strchr(at, '\n');
        ck_assert_ptr_nonnull(nl); /* every line ends with a newline */
        ck_assert_uint_lt(n, cap);
        out[n] = json_loadb(at, (size_t)(nl - at), 0, NULL);
        ck_assert_msg(out[n] != NULL, "line %zu is not JSON", n);
        n++;
        at = nl + 1;
    }
    return n;
}

/* A stream's grids and lines go through the runner's allocator (the
 * server's charges them to the request and the work budget), an item's
 * grids only from its first turn to its merge; and the job holds -- the
 * runner starts no new item -- while a window of lines (a quarter of the
 * request's share here) waits for the reader, and lets go once it read. */
START_TEST(gen_api_stream_holds_for_its_reader) {
    enum { COUNT = 30, SHARE = 32768, WINDOW = SHARE / 4 };
    api_request_t r =
        tjob_request("application/json", "application/x-ndjson",
                     "{\"size\":9,\"count\":30,\"seed\":5,\"difficulty\":\"easy\"}", NULL, 0);
    api_job_t *job = NULL;
    api_response_t resp = {0};
    size_t held = 0;
    search_allocator_t a = {test_count_alloc, test_count_free, &held};
    search_ctl_t ctl = {.alloc = &a};
    size_t i = 0, got = 0, lines = 0;
    r.work_share = SHARE;
    ck_assert_int_eq(api_sudoku_generate_prepare(&r, &job, &resp), 0);
    ck_assert_ptr_nonnull(job->ops->hold);
    ck_assert_uint_eq(held, 0); /* no item has begun: no grids yet */
    for (; i < job->nitems && !job->ops->hold(job); i++) {
        ck_assert_int_eq(job->ops->run(job, i, &ctl), 0);
        ck_assert_uint_eq(held, got + 2 * 81); /* this item's two grids */
        job->ops->merge(job, i, 0);
        ck_assert_uint_gt(held, got); /* its line replaced them */
        got = held;
    }
    ck_assert_msg(i < COUNT, "the job held after %zu of %d puzzles", i, COUNT);
    ck_assert_uint_ge(got, WINDOW);
    job->ops->render(job, &resp);
    lines += tjob_stream_lines(&resp);
    ck_assert_uint_eq(lines, i); /* every line so far; the stream waits for the rest */
    ck_assert_uint_eq(held, 0);
    ck_assert(!job->ops->hold(job));
    tjob_run_rest(job, i, &ctl);
    lines += tjob_stream_lines(&resp);
    ck_assert_uint_eq(lines, COUNT);
    ck_assert_uint_eq(held, 0);
    api_response_destroy(&resp);
    job->ops->free(job);
}
END_TEST

/* count past 100 as an NDJSON stream: one line per puzzle in index order,
 * each with its item's seed, unique and solved as its solution says (the
 * solver's word, not the generator's), line 0 the JSON answer's puzzle for
 * the same seed; Killer too.  The limits: 101 in a JSON answer, 10001 in a
 * stream, 101 for a variant (400), and a stream larger than the request's
 * memory share (422 before any work). */
START_TEST(gen_api_stream) {
    enum { COUNT = 150 };
    static json_t *lines[COUNT + 1];
    sudoku_shape_t sh;
    tjob_t t = tjob_call(api_sudoku_generate_prepare, "application/json", "application/x-ndjson",
                         "{\"size\":6,\"difficulty\":\"easy\",\"count\":150,\"seed\":11}", NULL, 0);
    ck_assert_int_eq(t.status, 200);
    ck_assert_str_eq(t.ctype, "application/x-ndjson");
    ck_assert_uint_eq(ndjson_lines(t.body, lines, COUNT + 1), COUNT);
    sudoku_shape_init(&sh, 6, 2, 3);
    for (size_t i = 0; i < COUNT; i++) {
        const char *ps = json_string_value(json_object_get(lines[i], "puzzle"));
        const char *ss = json_string_value(json_object_get(lines[i], "solution"));
        uint8_t p[36], sol[36], first[36];
        ck_assert_int_eq(json_integer_value(json_object_get(lines[i], "index")), (json_int_t)i);
        ck_assert_str_eq(json_string_value(json_object_get(lines[i], "status")), "found");
        ck_assert_int_eq(json_integer_value(json_object_get(lines[i], "seed")),
                         api_gen_item_seed(11, i));
        ck_assert_str_eq(json_string_value(json_object_get(lines[i], "level")), "easy");
        for (int c = 0; c < 36; c++) {
            p[c] = ps[c] == '.' ? 0 : (uint8_t)(ps[c] - '0');
            sol[c] = (uint8_t)(ss[c] - '0');
        }
        ck_assert_int_eq(count_solutions(&sh, p, first), 1);
        ck_assert_int_eq(memcmp(first, sol, 36), 0);
    }
    tjob_t one =
        gen(api_sudoku_generate_prepare, "{\"size\":6,\"difficulty\":\"easy\",\"seed\":11}");
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(one.json, "puzzles"), 0), "puzzle")),
                     json_string_value(json_object_get(lines[0], "puzzle")));
    tjob_free(&one);
    for (size_t i = 0; i < COUNT; i++)
        json_decref(lines[i]);
    tjob_free(&t);

    t = tjob_call(api_killer_generate_prepare, "application/json", "application/x-ndjson",
                  "{\"size\":4,\"count\":3,\"seed\":2}", NULL, 0);
    ck_assert_int_eq(t.status, 200);
    ck_assert_uint_eq(ndjson_lines(t.body, lines, COUNT), 3);
    for (size_t i = 0; i < 3; i++) {
        ck_assert_str_eq(json_string_value(json_object_get(lines[i], "status")), "found");
        ck_assert_int_gt(json_array_size(json_object_get(lines[i], "cages")), 0);
        json_decref(lines[i]);
    }
    tjob_free(&t);

    static const struct {
        const char *accept, *body;
    } bad[] = {
        {NULL, "{\"size\":4,\"count\":101}"},
        {"application/x-ndjson", "{\"size\":4,\"count\":10001}"},
        {"application/x-ndjson", "{\"variant\":\"x\",\"count\":101}"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t = tjob_call(api_sudoku_generate_prepare, "application/json", bad[i].accept, bad[i].body,
                      NULL, 0);
        ck_assert_msg(t.status == 400, "%s: %d", bad[i].body, t.status);
        ck_assert_msg(tjob_names(&t, "count"), "%s: %s", bad[i].body, t.body);
        tjob_free(&t);
    }
    api_request_t r = tjob_request("application/json", "application/x-ndjson",
                                   "{\"size\":25,\"count\":10000}", NULL, 0);
    api_job_t *job = NULL;
    api_response_t resp = {0};
    r.work_share = 1 << 20; /* 10,000 25x25 grids and their solutions: 12.5 MB and more */
    ck_assert_int_eq(api_sudoku_generate_prepare(&r, &job, &resp), API_EMEMORY);
    ck_assert_ptr_null(job);
    ck_assert_int_eq(resp.status, 422);
    api_response_destroy(&resp);
}
END_TEST

/* The puzzles of `body` (a generate request) as their puzzle strings (Killer: solution and
 * cages), into out[0..*n). */
static void gen_keys(api_prepare_fn fn, const char *body, char out[][512], size_t *n) {
    tjob_t t = gen(fn, body);
    json_t *p;
    size_t i;
    ck_assert_int_eq(t.status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(t.json, "status")), "complete");
    *n = 0;
    json_array_foreach(json_object_get(t.json, "puzzles"), i, p) {
        char *cages = json_dumps(json_object_get(p, "cages"), JSON_COMPACT);
        json_t *pz = json_object_get(p, "puzzle");
        snprintf(out[(*n)++], 512, "%s %s",
                 pz ? json_string_value(pz) : json_string_value(json_object_get(p, "solution")),
                 cages ? cages : "");
        free(cages);
    }
    tjob_free(&t);
}

/* Seeds: requests with neighbouring seeds share no puzzle (seed + i made
 * seed 1 and seed 2 share all but one), and every puzzle's reported seed
 * with count 1 regenerates it, Sudoku and Killer. */
START_TEST(gen_api_seeds_do_not_overlap) {
    static const char *const kinds[][2] = {{"{\"size\":9,\"count\":5,\"seed\":%d}", "sudoku"},
                                           {"{\"size\":6,\"count\":5,\"seed\":%d}", "killer"}};
    for (int k = 0; k < 2; k++) {
        api_prepare_fn fn = k == 0 ? api_sudoku_generate_prepare : api_killer_generate_prepare;
        char a[5][512], b[5][512], body[128];
        size_t na, nb;
        snprintf(body, sizeof body, kinds[k][0], 1);
        gen_keys(fn, body, a, &na);
        snprintf(body, sizeof body, kinds[k][0], 2);
        gen_keys(fn, body, b, &nb);
        ck_assert_int_eq(na, 5);
        ck_assert_int_eq(nb, 5);
        for (size_t x = 0; x < 5; x++)
            for (size_t y = 0; y < 5; y++)
                ck_assert_msg(strcmp(a[x], b[y]) != 0, "%s: seed 1 item %zu = seed 2 item %zu",
                              kinds[k][1], x, y);
        /* each item of seed 1 alone from its reported seed */
        for (size_t x = 0; x < 5; x++) {
            char one[1][512];
            size_t n1;
            snprintf(body, sizeof body, "{\"size\":%d,\"count\":1,\"seed\":%lld}", k == 0 ? 9 : 6,
                     api_gen_item_seed(1, x));
            gen_keys(fn, body, one, &n1);
            ck_assert_int_eq(n1, 1);
            ck_assert_msg(strcmp(one[0], a[x]) == 0, "%s item %zu", kinds[k][1], x);
        }
    }
    /* the reported seeds are api_gen_item_seed's, item 0 the request's */
    tjob_t t = gen(api_sudoku_generate_prepare, "{\"size\":4,\"count\":3,\"seed\":2}");
    for (size_t x = 0; x < 3; x++)
        ck_assert_int_eq(json_integer_value(json_object_get(
                             json_array_get(json_object_get(t.json, "puzzles"), x), "seed")),
                         x == 0 ? 2 : api_gen_item_seed(2, x));
    tjob_free(&t);
    ck_assert_int_eq(api_gen_item_seed(1, 1), 8998849233715913LL);
    ck_assert_int_eq(api_gen_item_seed(2, 4), 1203644168403753LL);
    ck_assert_int_eq(api_gen_item_seed(API_GEN_SEED_MAX, 0), API_GEN_SEED_MAX);
    for (size_t x = 1; x < 100; x++)
        ck_assert(api_gen_item_seed(API_GEN_SEED_MAX, x) <= API_GEN_SEED_MAX);
}
END_TEST

/* Every Killer size outside 4, 6, 9 is told the same words: below the
 * range, between its members, above it, far above it, and no integer. */
START_TEST(gen_api_killer_sizes_one_message) {
    static const char *const bodies[] = {"{\"size\":3}",   "{\"size\":5}",   "{\"size\":25}",
                                         "{\"size\":100}", "{\"size\":6.5}", "{\"size\":\"9\"}"};
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        tjob_t t = gen(api_killer_generate_prepare, bodies[i]);
        json_t *errs = json_object_get(t.json, "errors");
        ck_assert_msg(t.status == 400, "%s: %d", bodies[i], t.status);
        ck_assert_int_eq(json_array_size(errs), 1);
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(errs, 0), "field")),
                         "size");
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(errs, 0), "detail")),
                         "must be 4, 6, 9 or 16");
        tjob_free(&t);
    }
    /* a bad size is named beside another bad field, not only alone */
    tjob_t t = gen(api_killer_generate_prepare, "{\"size\":5,\"count\":0}");
    ck_assert_int_eq(t.status, 400);
    ck_assert(tjob_names(&t, "size"));
    ck_assert(tjob_names(&t, "count"));
    tjob_free(&t);
    /* 4, 6 and 9 pass the reader (count 0 keeps them from generating) */
    for (int n = 4; n <= 9; n++) {
        char body[64];
        snprintf(body, sizeof body, "{\"size\":%d,\"count\":0}", n);
        t = gen(api_killer_generate_prepare, body);
        ck_assert_int_eq(t.status, 400);
        ck_assert(tjob_names(&t, "size") == (n == 5 || n == 7 || n == 8));
        tjob_free(&t);
    }
}
END_TEST

START_TEST(gen_api_killer) {
    tjob_t t = gen(api_killer_generate_prepare, "{\"size\":6,\"count\":2,\"seed\":7}");
    ck_assert_int_eq(t.status, 200);
    json_t *list = json_object_get(t.json, "puzzles");
    ck_assert_int_eq(json_array_size(list), 2);
    json_t *pz = json_array_get(list, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(pz, "size")), 6);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(pz, "box"), "rows")), 2);
    ck_assert(json_array_size(json_object_get(pz, "cages")) >= 6);
    ck_assert_int_eq(json_string_length(json_object_get(pz, "solution")), 36);
    /* graded by technique: the level is the rating's, the hardest step named */
    sudoku_grade_level_t l;
    sudoku_tech_t h;
    ck_assert_int_eq(sudoku_grade_level_parse(json_string_value(json_object_get(pz, "level")), &l),
                     0);
    ck_assert_int_eq(l, sudoku_grade_level_of(json_real_value(json_object_get(pz, "rating"))));
    ck_assert_int_eq(sudoku_tech_parse(json_string_value(json_object_get(pz, "hardest")), &h), 0);
    ck_assert_int_eq(sudoku_tech_level(h), l);
    ck_assert(json_integer_value(json_object_get(pz, "proof_nodes")) >= 0);
    tjob_free(&t);
}
END_TEST

/* === Over HTTP, on a real server (tests/http_check.h) === */

/* Generation that runs to its deadline by construction: hard puzzles
 * with at least 80 givens.  The dig stops at 80, the one empty cell is a
 * full house (rating 1.0), so no attempt is ever hard; sudoku_gen_reachable()
 * does not weigh givens against levels, so the request is attempted. */
#define LONG_GEN "\"difficulty\":\"hard\",\"givens\":{\"min\":80}"

/* The NDJSON stream over HTTP, where items take turns on the pool: the
 * same puzzles, line for line, as the job harness's run without turns;
 * and a stream cut by its deadline still has a line for every puzzle, in
 * order, each a timeout: hard puzzles with at least 80 givens, which no
 * puzzle is (the one empty cell is a full house), so the deadline ends it
 * by construction (LONG_GEN). */
START_TEST(gen_http_stream) {
    static const char body[] = "{\"difficulty\":\"medium\",\"count\":40,\"seed\":5}";
    static const char *const hdr[] = {"Content-Type: application/json",
                                      "Accept: application/x-ndjson", NULL};
    static json_t *a[41], *b[41];
    char url[128];
    hresp_t r = {0};
    CURL *curl = curl_easy_init();
    snprintf(url, sizeof url, "%s/v1/sudoku/generate", hc_srv.base);
    ck_assert_int_eq(http_do(curl, "POST", url, body, strlen(body), hdr, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    tjob_t t = tjob_call(api_sudoku_generate_prepare, "application/json", "application/x-ndjson",
                         body, NULL, 0);
    ck_assert_uint_eq(ndjson_lines(r.body, a, 41), 40);
    ck_assert_uint_eq(ndjson_lines(t.body, b, 41), 40);
    for (size_t i = 0; i < 40; i++) {
        ck_assert_str_eq(json_string_value(json_object_get(a[i], "puzzle")),
                         json_string_value(json_object_get(b[i], "puzzle")));
        ck_assert_int_eq(json_integer_value(json_object_get(a[i], "attempts")),
                         json_integer_value(json_object_get(b[i], "attempts")));
        json_decref(a[i]);
        json_decref(b[i]);
    }
    tjob_free(&t);
    hresp_free(&r);
    static const char late[] = "{" LONG_GEN ",\"count\":20,\"timeout_ms\":300}";
    ck_assert_int_eq(http_do(curl, "POST", url, late, strlen(late), hdr, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(ndjson_lines(r.body, a, 41), 20);
    for (size_t i = 0; i < 20; i++) {
        const char *st = json_string_value(json_object_get(a[i], "status"));
        ck_assert_int_eq(json_integer_value(json_object_get(a[i], "index")), (json_int_t)i);
        ck_assert_msg(strcmp(st, "timeout") == 0, "%s", st);
        json_decref(a[i]);
    }
    hresp_free(&r);
    curl_easy_cleanup(curl);
}
END_TEST

/* Waits (up to ms) until the server's `series` reads `want` or (below)
 * less; returns what it read last. */
static double await_metric(const char *series, double want, int below, int ms) {
    double v = -1;
    for (double t0 = test_now_ms(); test_now_ms() - t0 < ms; test_sleep_ms(20)) {
        v = tsrv_metric(&hc_srv, series);
        if (below ? v >= 0 && v <= want : v >= want) break;
    }
    return v;
}

/* Opens a raw connection to s and sends an NDJSON generate request with
 * `body`, reading nothing back; returns the socket (close it to hang up). */
static int raw_stream(const tsrv_t *s, const char *body) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port)};
    char head[256];
    int fd = socket(AF_INET, SOCK_STREAM, 0), n;
    ck_assert_int_ge(fd, 0);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    n = snprintf(head, sizeof head,
                 "POST /v1/sudoku/generate HTTP/1.1\r\nHost: t\r\nContent-Type: "
                 "application/json\r\nAccept: application/x-ndjson\r\nContent-Length: %zu\r\n\r\n",
                 strlen(body));
    ck_assert_int_eq(send(fd, head, (size_t)n, MSG_NOSIGNAL), n);
    ck_assert_int_eq(send(fd, body, strlen(body), MSG_NOSIGNAL), (ssize_t)strlen(body));
    return fd;
}

#define WORK_USED "puzzled_memory_used_bytes{budget=\"work\"}"
/* The items of a 10,000-puzzle job: more than 256 bytes each (an item
 * holds its random stream, both generators' results and its line), where
 * its grids and lines take a few KB while nothing is found. */
#define GEN_ITEMS_10K (10000.0 * 256)

/* A stream whose client hangs up is cancelled, generator turns and all:
 * 10,000 puzzles no generation can make (LONG_GEN: it runs to its
 * deadline on any machine) on a raw connection, closed once the job holds
 * a background worker; the server then has nothing in flight.  While it
 * runs its items are charged to the work budget, and given back with it. */
START_TEST(gen_http_stream_hang_up) {
    static const char body[] = "{" LONG_GEN ",\"count\":10000,\"timeout_ms\":30000}";
    ck_assert_double_eq(await_metric("puzzled_jobs_inflight", 0, 1, 10000), 0);
    double idle = await_metric(WORK_USED, 0, 1, 10000);
    int fd = raw_stream(&hc_srv, body);
    ck_assert_double_ge(await_metric("puzzled_workers_busy{class=\"background\"}", 1, 0, 10000), 1);
    double held = tsrv_metric(&hc_srv, WORK_USED);
    printf("gen: a 10,000-puzzle stream holds %.0f bytes of the work budget (idle %.0f)\n", held,
           idle);
    ck_assert_double_ge(held - idle, GEN_ITEMS_10K);
    close(fd);
    ck_assert_double_eq(await_metric("puzzled_jobs_inflight", 0, 1, 10000), 0);
    ck_assert_double_le(await_metric(WORK_USED, idle, 1, 10000), idle);
}
END_TEST

/* Reads what a raw connection answers into buf until `until` is in it, the
 * server closes, buf is full or 10 s pass without a byte.  For a stream,
 * until "\r\n\r\n" is its head (status line and headers), sent once
 * prepare() has taken the job and charged its items. */
static void read_until(int fd, char *buf, size_t cap, const char *until) {
    struct timeval tv = {.tv_sec = 10};
    size_t got = 0;
    ssize_t k;
    buf[0] = '\0';
    ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv), 0);
    while (got < cap - 1 && strstr(buf, until) == NULL &&
           (k = recv(fd, buf + got, cap - 1 - got, 0)) > 0)
        buf[got += (size_t)k] = '\0';
}

/* Items that do not fit in what is left of the work budget are refused as
 * any request that finds the budget full: 503 with Retry-After, before
 * any work.  A 19 MiB budget (19.9 MB) holds four 10,000-puzzle streams'
 * items (4.16 MB each) and the running generator's memory (its logic state
 * is charged too: 0.3 MiB an item, at most two running), not a fifth (20.8
 * MB of items alone); once they hang up it is empty.  Each
 * of the four is answered 200 before the next is sent, so the fifth is the
 * one that finds the budget full (the first version waited for a metric
 * three streams could meet, and the fourth and fifth raced). */
START_TEST(gen_http_items_over_budget) {
    static const char *const args[] = {
        "--threads", "2", "--max-work-memory", "19922944", "--max-request-memory",
        "16777216",  NULL};
    static const char body[] = "{" LONG_GEN ",\"count\":10000,\"timeout_ms\":30000}";
    tsrv_t s;
    int fds[4];
    char ans[4096] = "";
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    for (int i = 0; i < 4; i++) {
        fds[i] = raw_stream(&s, body);
        read_until(fds[i], ans, sizeof ans, "\r\n\r\n"); /* taken, its items charged */
        ck_assert_msg(strncmp(ans, "HTTP/1.1 200", 12) == 0, "stream %d: %s", i, ans);
        /* each prepared (its items charged) before the next is sent */
        double want = (i + 1) * GEN_ITEMS_10K, v = -1;
        for (double t0 = test_now_ms(); test_now_ms() - t0 < 10000; test_sleep_ms(20))
            if ((v = tsrv_metric(&s, WORK_USED)) >= want) break;
        ck_assert_double_ge(v, want);
    }
    /* the fifth, read as it comes: the whole answer, then the server closes */
    int q = raw_stream(&s, body);
    read_until(q, ans, sizeof ans, "--max-work-memory");
    ck_assert_msg(strncmp(ans, "HTTP/1.1 503", 12) == 0, "%s", ans);
    ck_assert_ptr_nonnull(strstr(ans, "Retry-After: 1"));
    ck_assert_ptr_nonnull(strstr(ans, "application/problem+json"));
    ck_assert_ptr_nonnull(strstr(ans, "--max-work-memory"));
    close(q);
    for (int i = 0; i < 4; i++)
        close(fds[i]);
    double v = -1;
    for (double t0 = test_now_ms(); test_now_ms() - t0 < 10000; test_sleep_ms(20))
        if ((v = tsrv_metric(&s, WORK_USED)) == 0) break;
    ck_assert_double_eq(v, 0);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
}
END_TEST

START_TEST(gen_http_cross_checked) {
    hresp_t r =
        hc_post(&hc_srv, "/v1/sudoku/generate", "application/json",
                "{\"difficulty\":\"hard\",\"count\":2,\"seed\":77,\"symmetry\":\"mirror\"}");
    json_t *j = hc_json(&r, 200), *p;
    size_t i;
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "complete");
    json_array_foreach(json_object_get(j, "puzzles"), i, p) {
        char body[256];
        const char *puzzle = json_string_value(json_object_get(p, "puzzle"));
        snprintf(body, sizeof body, "{\"grid\":\"%s\",\"max_solutions\":2}", puzzle);
        hresp_t s = hc_post(&hc_srv, "/v1/sudoku/solve", "application/json", body);
        json_t *sj = hc_json(&s, 200);
        ck_assert(json_is_true(json_object_get(sj, "unique")));
        ck_assert_str_eq(json_string_value(json_object_get(sj, "solution")),
                         json_string_value(json_object_get(p, "solution")));
        json_decref(sj);
        hresp_free(&s);
        snprintf(body, sizeof body, "{\"grid\":\"%s\"}", puzzle);
        s = hc_post(&hc_srv, "/v1/sudoku/grade", "application/json", body);
        sj = hc_json(&s, 200);
        ck_assert_str_eq(json_string_value(json_object_get(sj, "level")), "hard");
        ck_assert(json_real_value(json_object_get(sj, "rating")) ==
                  json_real_value(json_object_get(p, "rating")));
        json_decref(sj);
        hresp_free(&s);
    }
    json_decref(j);
    hresp_free(&r);
    r = hc_post(&hc_srv, "/v1/sudoku/generate", "application/json", "{\"count\":101}");
    hc_problem(&r, 400, "count");
    hresp_free(&r);
}
END_TEST

/* A generated puzzle is a request as it stands: its `puzzle` (or `grid`)
 * with its `box`, sent to grade and solve, gets the generator's rating and
 * solution back.  A 6x6 of 3x2 boxes, which the default 2x3 box would
 * read as a puzzle whose givens clash. */
START_TEST(gen_http_round_trips_its_box) {
    hresp_t r = hc_post(&hc_srv, "/v1/sudoku/generate", "application/json",
                        "{\"size\":6,\"box\":{\"rows\":3,\"cols\":2},\"count\":3,\"seed\":5}");
    json_t *j = hc_json(&r, 200), *p;
    size_t i;
    ck_assert_int_eq(json_array_size(json_object_get(j, "puzzles")), 3);
    json_array_foreach(json_object_get(j, "puzzles"), i, p) {
        json_t *box = json_object_get(p, "box");
        ck_assert_int_eq(json_integer_value(json_object_get(box, "rows")), 3);
        ck_assert_int_eq(json_integer_value(json_object_get(box, "cols")), 2);
        for (int form = 0; form < 2; form++) {
            json_t *req = json_pack("{s:O, s:O}", "grid",
                                    json_object_get(p, form == 0 ? "puzzle" : "grid"), "box", box);
            char *body = json_dumps(req, JSON_COMPACT);
            hresp_t g = hc_post(&hc_srv, "/v1/sudoku/grade", "application/json", body);
            json_t *gj = hc_json(&g, 200);
            ck_assert(json_real_value(json_object_get(gj, "rating")) ==
                      json_real_value(json_object_get(p, "rating")));
            ck_assert_str_eq(json_string_value(json_object_get(gj, "level")),
                             json_string_value(json_object_get(p, "level")));
            json_decref(gj);
            hresp_free(&g);
            free(body);
            json_object_set_new(req, "max_solutions", json_integer(2));
            body = json_dumps(req, JSON_COMPACT);
            hresp_t s = hc_post(&hc_srv, "/v1/sudoku/solve", "application/json", body);
            json_t *sj = hc_json(&s, 200);
            ck_assert(json_is_true(json_object_get(sj, "unique")));
            if (form == 0)
                ck_assert_str_eq(json_string_value(json_object_get(sj, "solution")),
                                 json_string_value(json_object_get(p, "solution")));
            json_decref(sj);
            hresp_free(&s);
            free(body);
            json_decref(req);
        }
    }
    json_decref(j);
    hresp_free(&r);
}
END_TEST

START_TEST(gen_http_deadline_keeps_labels_honest) {
    /* 25x25 beyond-logic cannot be found in 30 ms: timeout, nothing mislabelled */
    hresp_t r =
        hc_post(&hc_srv, "/v1/sudoku/generate", "application/json",
                "{\"size\":25,\"difficulty\":\"beyond-logic\",\"count\":3,\"timeout_ms\":30}");
    json_t *j = hc_json(&r, 200), *p;
    size_t i;
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "timeout");
    json_array_foreach(json_object_get(j, "puzzles"), i, p)
        ck_assert_str_eq(json_string_value(json_object_get(p, "level")), "beyond-logic");
    json_decref(j);
    hresp_free(&r);
}
END_TEST

/* POST /v1/killer/generate with `gen` (an n x n Killer), then the
 * puzzle to /v1/killer/solve: one solution, the generator's.  `level`
 * (or NULL) is the level the answer must give. */
static void http_killer_unique(const char *gen, int n, const char *level) {
    hresp_t r = hc_post(&hc_srv, "/v1/killer/generate", "application/json", gen);
    json_t *j = hc_json(&r, 200);
    json_t *p = json_array_get(json_object_get(j, "puzzles"), 0);
    if (level != NULL) ck_assert_str_eq(json_string_value(json_object_get(p, "level")), level);
    json_t *req = json_pack("{s:i, s:O, s:i}", "size", n, "cages", json_object_get(p, "cages"),
                            "max_solutions", 2);
    char *body = json_dumps(req, JSON_COMPACT);
    hresp_t s = hc_post(&hc_srv, "/v1/killer/solve", "application/json", body);
    json_t *sj = hc_json(&s, 200);
    ck_assert(json_is_true(json_object_get(sj, "unique")));
    /* the solve answers arrays; the generator a string (A = 10 ...) */
    const char *sol = json_string_value(json_object_get(p, "solution"));
    json_t *grid = json_object_get(sj, "solution");
    ck_assert_uint_eq(strlen(sol), (size_t)(n * n));
    for (int c = 0; c < n * n; c++)
        ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(grid, (size_t)(c / n)),
                                                           (size_t)(c % n))),
                         api_grid_char_value(sol[c]));
    json_decref(sj);
    hresp_free(&s);
    free(body);
    json_decref(req);
    json_decref(j);
    hresp_free(&r);
}

START_TEST(gen_http_killer_unique) {
    http_killer_unique("{\"size\":9,\"seed\":21,\"cage_size\":{\"min\":2,\"max\":4}}", 9, NULL);
    /* 16x16: medium, its one-cell cages and all (cages of 1 to 4 cells);
     * the solve proves it unique again, by its own solver */
    http_killer_unique("{\"size\":16,\"difficulty\":\"medium\",\"seed\":5}", 16, "medium");
    hresp_t r = hc_post(&hc_srv, "/v1/killer/generate", "application/json", "{\"size\":25}");
    hc_problem(&r, 400, "size");
    hresp_free(&r);
}
END_TEST

Suite *generate_suite(void);
Suite *generate_suite(void) {
    Suite *s = suite_create("generate");
    TCase *tc = tcase_create("sudoku");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, gen_unique_and_honestly_graded, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, gen_same_seed_same_puzzle);
    tcase_add_test(tc, gen_symmetry_honoured);
    tcase_add_test(tc, gen_minimal_honoured);
    tcase_add_test(tc, gen_rating_window_and_stops);
    tcase_add_test(tc, gen_givens_range_honoured);
    tcase_add_test(tc, gen_4x4_every_puzzle_easy);
    tcase_add_test(tc, gen_reachable_refuses_only_the_impossible);
    tcase_add_test(tc, gen_turns_same_puzzle);
    suite_add_tcase(s, tc);
    TCase *k = tcase_create("killer");
    tcase_set_timeout(k, 120);
    tcase_add_loop_test(k, gen_killer_unique_and_in_bounds, 0,
                        (int)(sizeof kcases / sizeof kcases[0]));
    tcase_add_test(k, gen_killer_rejects_bad_options);
    tcase_add_test(k, gen_killer_reachable_refuses_only_the_unseen);
    suite_add_tcase(s, k);
    TCase *api = tcase_create("api");
    tcase_set_timeout(api, 120);
    tcase_add_test(api, gen_api_sudoku);
    tcase_add_test(api, gen_api_validation);
    tcase_add_test(api, gen_api_unreachable_at_once);
    tcase_add_test(api, gen_api_killer_unreachable_at_once);
    tcase_add_test(api, gen_api_givens_range);
    tcase_add_test(api, gen_api_stream);
    tcase_add_test(api, gen_api_stream_holds_for_its_reader);
    tcase_add_test(api, gen_api_killer_sizes_one_message);
    tcase_add_test(api, gen_api_seeds_do_not_overlap);
    tcase_add_test(api, gen_api_killer);
    suite_add_tcase(s, api);
    TCase *http = tcase_create("http");
    tcase_add_unchecked_fixture(http, hc_up, hc_down);
    tcase_set_timeout(http, 60);
    tcase_add_test(http, gen_http_cross_checked);
    tcase_add_test(http, gen_http_stream);
    tcase_add_test(http, gen_http_stream_hang_up);
    tcase_add_test(http, gen_http_items_over_budget);
    tcase_add_test(http, gen_http_round_trips_its_box);
    tcase_add_test(http, gen_http_deadline_keeps_labels_honest);
    tcase_add_test(http, gen_http_killer_unique);
    suite_add_tcase(s, http);
    return s;
}
