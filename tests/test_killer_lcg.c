/* test_killer_lcg.c -- the learning Killer method (solvers/killer/lcg.c)
 * and the clause-learning engine's propagator interface it stands on
 * (solvers/sudoku/sat.h, sudoku__sat_ext_t).
 *
 * Correctness by agreement: on generated killers of every size from 4x4 to
 * 9x9, with and without Killer-X, givens, partial cages and other symbols,
 * the learning method must find exactly the advanced method's solutions
 * when both search everything (tests/test_killer.c cross-checks it too, in
 * its three-method comparisons and its split partitions).  The engine's
 * interface is tested under a toy propagator (a sum over a few cells) whose
 * models are counted by brute force, with a record stack so small that
 * explanations are dropped, and with conflicts noticed late.  Then the
 * limits: cancel from another thread and the memory cap (the deadline on
 * heavy 16x16 searches is tests/test_killer.c's, for both methods).  No
 * timed assertion. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/killer/killer.h"
#include "solvers/sudoku/sat.h"
#include "tests/killer_gen.h"
#include "tests/test_util.h"

Suite *killer_lcg_suite(void);

/* === The learning method against the advanced one ====================== */

/* Solves g with advanced and learning, up to maxsol solutions each; every
 * solution valid and distinct; when advanced searched everything, learning
 * must have too, with the same solutions.  Returns advanced's count. */
static uint32_t lcg_agree(const gen_t *g, uint32_t maxsol) {
    int nc = g->pz.shape.n * g->pz.shape.n, m;
    uint8_t *sol[2];
    killer_result_t r[2];
    for (m = 0; m < 2; m++) {
        killer_opts_t o;
        sol[m] = malloc((size_t)maxsol * nc);
        ck_assert_ptr_nonnull(sol[m]);
        killer_opts_init(&o);
        o.method = m == 0 ? KILLER_METHOD_ADVANCED : KILLER_METHOD_LEARNING;
        o.max_solutions = maxsol;
        o.solutions = sol[m];
        ck_assert_int_eq(killer_solve(&g->pz, &o, &r[m]), 0);
        for (uint32_t k = 0; k < r[m].solutions_found; k++)
            ck_assert_int_eq(killer_check_solution(&g->pz, sol[m] + (size_t)k * nc), 1);
        cmp_grid_len = nc;
        qsort(sol[m], r[m].solutions_found, (size_t)nc, cmp_grid);
        for (uint32_t k = 1; k < r[m].solutions_found; k++)
            ck_assert_msg(
                memcmp(sol[m] + (size_t)(k - 1) * nc, sol[m] + (size_t)k * nc, (size_t)nc) != 0,
                "method %d found a solution twice", m);
    }
    ck_assert_int_eq(r[1].exhausted, r[0].exhausted);
    if (r[0].exhausted) {
        ck_assert_uint_eq(r[1].solutions_found, r[0].solutions_found);
        ck_assert_int_eq(memcmp(sol[0], sol[1], (size_t)r[0].solutions_found * nc), 0);
        /* the grid the cages came from is among them */
        ck_assert_ptr_nonnull(bsearch(g->grid, sol[0], r[0].solutions_found, (size_t)nc, cmp_grid));
    } else {
        ck_assert_uint_eq(r[0].solutions_found, maxsol);
        ck_assert_uint_eq(r[1].solutions_found, maxsol);
    }
    free(sol[0]);
    free(sol[1]);
    return r[0].solutions_found;
}

/* 48 generated killers: 4x4, 6x6 (2x3 and 3x2 boxes), 8x8 (2x4), 9x9 and
 * 9x9 with givens; every other block Killer-X; cages of up to 2..6 cells,
 * 55..100 % of them kept (many solutions when few are kept); every fifth
 * with symbols other than 1..n (ascending or scrambled).  Counts up to
 * 300, each compared solution by solution. */
START_TEST(killer_learning_agrees) {
    static const int shapes[][3] = {{4, 2, 2}, {6, 2, 3}, {6, 3, 2},
                                    {8, 2, 4}, {9, 3, 3}, {9, 3, 3}};
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 2024u + (unsigned)_i * 613u;
    int s = _i % 6, n = shapes[s][0], i, x = (_i / 6) % 2, keep;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, n, shapes[s][1], shapes[s][2]);
    if (x)
        kg_make_x_grid(g, &seed);
    else
        kg_make_grid(n, shapes[s][1], shapes[s][2], &seed, g->grid);
    keep = n == 9 ? 85 + _i % 16 : 55 + (_i * 7) % 46;
    if (_i % 5 == 2) {
        for (i = 0; i < n; i++)
            g->symbols[i] = _i % 2 ? 10L * (i + 1) : (long)((i * 7 + 3) % 11) * 3;
        g->pz.symbols = g->symbols;
    }
    kg_make_cages(g, 2 + _i % 5, keep, &seed);
    if (s == 5) {
        for (i = 0; i < n * n; i++)
            g->givens[i] = kg_rnd(&seed) % 7 == 0 ? g->grid[i] : 0;
        g->pz.givens = g->givens;
    }
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    ck_assert_uint_ge(lcg_agree(g, 300), 1);
    free(g);
}
END_TEST

/* Puzzles with no solution: givens against a cage's only combination and
 * a cage pair that cannot both hold; exhausted with nothing found. */
START_TEST(killer_learning_unsolvable) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 77u + (unsigned)_i;
    killer_opts_t o;
    killer_result_t r;
    int i, nc;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, 6, 2, 3);
    kg_make_grid(6, 2, 3, &seed, g->grid);
    kg_make_cages(g, 3, 100, &seed);
    nc = 36;
    /* give one cell of a two-cell cage another value its cage allows and
     * the rules do not forbid at first sight: the puzzle is unique, so
     * any changed given leaves none */
    for (i = 0; i < g->pz.ncages; i++)
        if (g->pz.cages[i].ncells == 2) break;
    ck_assert_int_lt(i, g->pz.ncages);
    {
        const killer_cell_t *c = g->pz.cages[i].cells;
        int a = c[0].r * 6 + c[0].c, b = c[1].r * 6 + c[1].c;
        memset(g->givens, 0, (size_t)nc);
        g->givens[a] = g->grid[b]; /* swapped: the cage's sum still holds */
        g->givens[b] = g->grid[a];
        g->pz.givens = g->givens;
    }
    if (killer_validate(&g->pz, NULL) != 0) { /* the swap broke a rule at once: fine too */
        free(g);
        return;
    }
    killer_opts_init(&o);
    o.method = KILLER_METHOD_ADVANCED;
    o.max_solutions = 4;
    ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
    {
        uint32_t adv = r.solutions_found;
        o.method = KILLER_METHOD_LEARNING;
        ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, adv);
        ck_assert_int_eq(r.exhausted, 1);
    }
    free(g);
}
END_TEST

/* === Limits ============================================================= */

/* The memory cap: a cap too small for the model is SEARCH_BUDGET before
 * any search; from caps just above the smallest that works (where the
 * explanation records are a few words a variable) up to the default, every
 * answer is the advanced method's. */
START_TEST(killer_learning_mem_cap) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 9191u;
    killer_opts_t o;
    killer_result_t r, adv;
    uint8_t sol[2 * 81], asol[2 * 81];
    size_t cap;
    int ok = 0, budget = 0;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, 9, 3, 3);
    kg_make_grid(9, 3, 3, &seed, g->grid);
    kg_make_cages(g, 6, 100, &seed);
    killer_opts_init(&o);
    o.max_solutions = 2;
    o.method = KILLER_METHOD_ADVANCED;
    o.solutions = asol;
    ck_assert_int_eq(killer_solve(&g->pz, &o, &adv), 0);
    o.method = KILLER_METHOD_LEARNING;
    o.solutions = sol;
    o.mem_cap = 4096;
    ck_assert_int_eq(killer_solve(&g->pz, &o, &r), SEARCH_BUDGET);
    ck_assert_uint_eq(r.solutions_found, 0);
    ck_assert_uint_eq(r.stats.nodes, 0);
    for (cap = 256 << 10; cap <= KILLER_DEFAULT_MEM_CAP; cap = cap * 3 / 2) {
        int rc;
        o.mem_cap = cap;
        rc = killer_solve(&g->pz, &o, &r);
        if (rc == SEARCH_BUDGET) {
            ck_assert_int_eq(ok, 0); /* a larger cap never fails where a smaller worked */
            budget++;
            continue;
        }
        ck_assert_int_eq(rc, 0);
        ck_assert_uint_le(r.mem_peak, cap);
        ck_assert_uint_eq(r.solutions_found, adv.solutions_found);
        ck_assert_int_eq(r.exhausted, adv.exhausted);
        if (adv.solutions_found == 1) ck_assert_int_eq(memcmp(sol, asol, 81), 0);
        ok++;
    }
    ck_assert_int_ge(budget, 1);
    ck_assert_int_ge(ok, 3);
    free(g);
}
END_TEST

/* A cancel flag raised from another thread during the search: counting
 * the solutions of the empty 16x16 grid (more than anyone can list) stops
 * with SEARCH_CANCELLED, the solutions found so far valid. */
START_TEST(killer_learning_cancel) {
    killer_puzzle_t pz;
    killer_opts_t o;
    killer_result_t r;
    search_ctl_t ctl;
    atomic_int flag;
    test_canceller_t c;
    pthread_t th;
    uint8_t *sol = malloc((size_t)KILLER_MAX_SOLUTIONS * 256);
    ck_assert_ptr_nonnull(sol);
    memset(&pz, 0, sizeof pz);
    ck_assert_int_eq(sudoku_shape_init(&pz.shape, 16, 4, 4), 0);
    killer_opts_init(&o);
    o.method = KILLER_METHOD_LEARNING;
    o.max_solutions = KILLER_MAX_SOLUTIONS;
    o.solutions = sol;
    memset(&ctl, 0, sizeof ctl);
    atomic_init(&flag, 0);
    ctl.cancel = &flag;
    o.ctl = &ctl;
    c.flag = &flag;
    c.ms = 30;
    ck_assert_int_eq(pthread_create(&th, NULL, test_canceller, &c), 0);
    {
        int rc = killer_solve(&pz, &o, &r);
        pthread_join(th, NULL);
        ck_assert(rc == SEARCH_CANCELLED || (rc == 0 && r.solutions_found == KILLER_MAX_SOLUTIONS));
    }
    for (uint32_t k = 0; k < r.solutions_found; k++)
        ck_assert_int_eq(killer_check_solution(&pz, sol + (size_t)k * 256), 1);
    ck_assert_int_eq(r.exhausted, 0);
    free(sol);
}
END_TEST

/* === The engine's propagator interface ================================== */

/* A toy problem for sudoku__sat_ext_t: K cells with values 1..V (a group
 * each), and an external constraint "the values add up to S", propagated
 * by bounds and explained by the literals that set them.  lazy: the bounds
 * are checked at every other call only (always on a full assignment), so
 * conflicts are found a level late and the engine must go back for them. */
#define TK 5
#define TV 5

typedef struct toy_s {
    sudoku__sat_ext_t ext;
    sudoku__sat_t *s;
    uint32_t dom[TK];
    int sum, lazy, calls;
    uint32_t buf[TK * TV];
} toy_t;

static uint32_t toy_lit(int cell, int v) { return 2u * (uint32_t)(cell * TV + v - 1); }

static void toy_undo(void *ud, const uint32_t *lits, uint32_t n) {
    toy_t *t = ud;
    for (uint32_t i = 0; i < n; i++)
        if (lits[i] & 1) t->dom[(lits[i] >> 1) / TV] |= 1u << ((lits[i] >> 1) % TV);
}

static int lo_of(uint32_t d) { return __builtin_ctz(d) + 1; }
static int hi_of(uint32_t d) { return 32 - __builtin_clz(d); }

/* Adds to buf the false literals of cell c below its lowest (low) or above
 * its highest value. */
static uint32_t toy_bound_lits(const toy_t *t, int c, int low, uint32_t *buf, uint32_t k) {
    int v;
    for (v = 1; v <= TV; v++)
        if (low ? v < lo_of(t->dom[c]) : v > hi_of(t->dom[c])) buf[k++] = toy_lit(c, v);
    return k;
}

static int toy_propagate(void *ud, sudoku__sat_t *s) {
    toy_t *t = ud;
    int c, v, lo = 0, hi = 0, full = 1;
    while (t->ext.head < s->ntrail) {
        uint32_t lit = s->trail[t->ext.head++];
        if (lit & 1) t->dom[(lit >> 1) / TV] &= ~(1u << ((lit >> 1) % TV));
    }
    for (c = 0; c < TK; c++) {
        lo += lo_of(t->dom[c]);
        hi += hi_of(t->dom[c]);
        full &= (t->dom[c] & (t->dom[c] - 1)) == 0;
    }
    if (t->lazy && !full && (t->calls++ & 1)) return 0;
    if (lo > t->sum || hi < t->sum) {
        uint32_t k = 0;
        for (c = 0; c < TK; c++)
            k = toy_bound_lits(t, c, lo > t->sum, t->buf, k);
        sudoku__sat_conflict(s, t->buf, k);
        return -1;
    }
    for (c = 0; c < TK; c++)
        for (v = 1; v <= TV; v++) {
            int low; /* too heavy: the others' lower bounds explain it */
            uint32_t k = 0;
            if (!(t->dom[c] & (1u << (v - 1)))) continue;
            if (lo - lo_of(t->dom[c]) + v > t->sum)
                low = 1;
            else if (hi - hi_of(t->dom[c]) + v < t->sum)
                low = 0;
            else
                continue;
            for (int d = 0; d < TK; d++)
                if (d != c) k = toy_bound_lits(t, d, low, t->buf, k);
            {
                int rc = sudoku__sat_imply(s, toy_lit(c, v) + 1, t->buf, k);
                if (rc < 0) return -1;
                if (rc == 0) return 0; /* the engine first */
            }
        }
    return 0;
}

/* Models of the toy with sum S, counted by the engine (each excluded by
 * sudoku__sat_block) with a record stack of rec words.  Every model is
 * checked.  *dropped gets the explanations the records had no room for. */
static long toy_count(int sum, int lazy, size_t rec, uint64_t *dropped) {
    uint32_t gstart[TK + 1], glits[TK * TV];
    const size_t words = 1u << 16, nvars = TK * TV;
    sudoku__sat_config_t cfg;
    toy_t t;
    size_t lvl[TK * TV + 1];
    uint32_t *recs = malloc(rec * sizeof(uint32_t));
    void *mem = aligned_alloc(16, (sudoku__sat_bytes(nvars, TK, TK * TV, words) + 15) / 16 * 16);
    long models = 0;
    int c, v, rc;
    ck_assert(recs != NULL && mem != NULL);
    for (c = 0; c < TK; c++) {
        gstart[c] = (uint32_t)(c * TV);
        for (v = 1; v <= TV; v++)
            glits[c * TV + v - 1] = toy_lit(c, v);
    }
    gstart[TK] = TK * TV;
    memset(&t, 0, sizeof t);
    sudoku__sat_config_init(&cfg);
    t.s = malloc(sizeof *t.s);
    ck_assert_ptr_nonnull(t.s);
    sudoku__sat_init(t.s, mem, (uint32_t)nvars, TK, gstart, glits, words, &cfg);
    for (c = 0; c < TK; c++)
        t.dom[c] = (1u << TV) - 1;
    t.sum = sum;
    t.lazy = lazy;
    t.ext.propagate = toy_propagate;
    t.ext.undo = toy_undo;
    t.ext.ud = &t;
    t.ext.rec = recs;
    t.ext.cap = rec;
    t.ext.reserve = nvars + 2;
    t.ext.lvl = lvl;
    sudoku__sat_attach(t.s, &t.ext);
    while ((rc = sudoku__sat_solve(t.s, NULL)) == SUDOKU__SAT_SAT) {
        int got = 0;
        for (c = 0; c < TK; c++) {
            int vals = 0;
            for (v = 1; v <= TV; v++)
                if (t.s->val[toy_lit(c, v)] > 0) {
                    got += v;
                    vals++;
                }
            ck_assert_int_eq(vals, 1);
        }
        ck_assert_int_eq(got, sum);
        models++;
        if (sudoku__sat_block(t.s) == SUDOKU__SAT_UNSAT) {
            rc = SUDOKU__SAT_UNSAT;
            break;
        }
    }
    ck_assert_int_eq(rc, SUDOKU__SAT_UNSAT);
    *dropped = t.ext.skipped;
    free(t.s);
    free(mem);
    free(recs);
    return models;
}

/* Tuples of TK values in 1..TV adding up to sum. */
static long brute(int sum) {
    long cnt = 0;
    int t[TK], c;
    for (long code = 0; code < 3125; code++) { /* TV^TK */
        long x = code;
        int s = 0;
        for (c = 0; c < TK; c++) {
            t[c] = (int)(x % TV) + 1;
            x /= TV;
            s += t[c];
        }
        cnt += s == sum;
    }
    return cnt;
}

/* Every sum from impossible to impossible, eager and lazy propagation,
 * with room for every explanation and with only the reserve and a few
 * words more: the counts are the brute force ones, and the small stack
 * did drop explanations (the propagation was weaker, never wrong). */
START_TEST(sat_ext_counts) {
    uint64_t dropped, dropped_any = 0;
    int sum, lazy;
    for (lazy = 0; lazy < 2; lazy++)
        for (sum = TK - 1; sum <= TK * TV + 1; sum++) {
            ck_assert_int_eq(toy_count(sum, lazy, 4096, &dropped), brute(sum));
            ck_assert_uint_eq(dropped, 0);
            ck_assert_int_eq(toy_count(sum, lazy, TK * TV + 2 + 12, &dropped), brute(sum));
            dropped_any += dropped;
        }
    ck_assert_uint_gt(dropped_any, 0);
}
END_TEST

Suite *killer_lcg_suite(void) {
    Suite *s = suite_create("killer_lcg");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, killer_learning_agrees, 0, 48);
    tcase_add_loop_test(tc, killer_learning_unsolvable, 0, 4);
    tcase_add_test(tc, killer_learning_mem_cap);
    tcase_add_test(tc, killer_learning_cancel);
    tcase_add_test(tc, sat_ext_counts);
    suite_add_tcase(s, tc);
    return s;
}
