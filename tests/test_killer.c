/* test_killer.c -- the Killer Sudoku solver core (solvers/killer/killer.h), no HTTP.
 *
 * Puzzles are made here from valid grids: a Sudoku grid by relabelling and
 * shuffling the pattern grid (rows within bands, bands, ...), a Killer-X grid
 * by solving an empty X grid and relabelling, then a random partition into
 * cages of distinct values whose sums come from the grid.  Every solution a
 * solver returns is checked against the rules, the cages and the givens
 * (killer_check_solution, which builds on sudoku_is_complete), both methods
 * must agree on counts, and the generating grid must be among the solutions.
 *
 * Plus the fixtures of tests/fixtures/killer_*.txt (made by tools/gen_killer.c,
 * format described there and in tests/fixtures/killer_basic.txt), the
 * validation table (every KILLER_E* code with its cage and cell), limits
 * (deadline, cancel, node budget), options, allocation failure.
 * Fixtures are read relative to the working directory (the repository root
 * under make test); KILLER_FIXTURES=dir overrides. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/killer/killer.h"
#include "solvers/killer/derive.h"
#include "tests/killer_gen.h"

Suite *killer_suite(void);

/* === Generated puzzles (tests/killer_gen.h) ============================= */

/* No two of the k grids of nc cells at sol are equal (sorts them). */
static void assert_all_distinct(uint8_t *sol, uint32_t k, int nc) {
    uint32_t i;
    cmp_grid_len = nc;
    qsort(sol, k, (size_t)nc, cmp_grid);
    for (i = 1; i < k; i++)
        ck_assert_msg(memcmp(sol + (size_t)(i - 1) * nc, sol + (size_t)i * nc, (size_t)nc) != 0,
                      "a solution found twice");
}

/* Solves with the three methods (backtracking only up to bt_budget nodes,
 * 0 = none), checks every solution, that none repeats, the agreement of
 * the counts and that the generating grid is among them; learning and
 * advanced, both exhaustive, must find the same solutions.  Returns the
 * count. */
static uint32_t solve_both(const gen_t *g, uint32_t maxsol, uint64_t bt_budget) {
    int n = g->pz.shape.n, nc = n * n, mi;
    uint32_t counts[3] = {0, 0, 0}, k;
    int exh[3] = {0, 0, 0};
    uint8_t *sol = malloc((size_t)maxsol * nc), *adv = malloc((size_t)maxsol * nc);
    ck_assert_ptr_nonnull(sol);
    ck_assert_ptr_nonnull(adv);
    for (mi = 0; mi < 3; mi++) {
        killer_opts_t o;
        killer_result_t r;
        search_ctl_t ctl;
        int found_grid = 0;
        killer_opts_init(&o);
        o.method = mi == 0   ? KILLER_METHOD_ADVANCED
                   : mi == 1 ? KILLER_METHOD_BACKTRACKING
                             : KILLER_METHOD_LEARNING;
        o.max_solutions = maxsol;
        o.solutions = sol;
        memset(&ctl, 0, sizeof ctl);
        ctl.node_budget = mi == 1 ? bt_budget : 0;
        o.ctl = &ctl;
        killer_solve(&g->pz, &o, &r);
        if (mi == 1 && r.code == SEARCH_BUDGET) {
            ck_assert_uint_le(r.solutions_found, counts[0]);
        } else {
            ck_assert_msg(r.code == 0, "method %d code %d", mi, r.code);
        }
        for (k = 0; k < r.solutions_found; k++) {
            ck_assert_int_eq(killer_check_solution(&g->pz, sol + (size_t)k * nc), 1);
            if (memcmp(sol + (size_t)k * nc, g->grid, (size_t)nc) == 0) found_grid = 1;
        }
        assert_all_distinct(sol, r.solutions_found, nc);
        counts[mi] = r.solutions_found;
        exh[mi] = r.exhausted;
        if (r.code == 0 && r.exhausted)
            ck_assert_msg(found_grid, "method %d lost the generating grid", mi);
        if (r.code == 0) ck_assert_uint_ge(r.solutions_found, 1);
        if (mi == 0) memcpy(adv, sol, (size_t)r.solutions_found * nc); /* sorted */
    }
    /* a method that searched the whole tree bounds what the other found
     * (a search that revisits a subtree finds more and never ends) */
    if (exh[0]) ck_assert_uint_le(counts[1], counts[0]);
    if (exh[1]) ck_assert_uint_le(counts[0], counts[1]);
    ck_assert_msg(exh[0] == exh[2] && counts[0] == counts[2],
                  "advanced %u (exhausted %d), learning %u (exhausted %d)", counts[0], exh[0],
                  counts[2], exh[2]);
    if (exh[0]) ck_assert_int_eq(memcmp(adv, sol, (size_t)counts[0] * nc), 0);
    free(sol);
    free(adv);
    return counts[0];
}

/* === Generated: covering cages, all sizes =============================== */

static const struct {
    int n, br, bc, maxk;
    uint64_t bt_budget;
} shapes[] = {{4, 2, 2, 3, 0}, {6, 2, 3, 4, 0}, {9, 3, 3, 4, 2000000}, {16, 4, 4, 3, 200000}};

START_TEST(killer_generated_agree) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 1234u + (unsigned)_i * 7919u;
    int s = _i % 4;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, shapes[s].n, shapes[s].br, shapes[s].bc);
    kg_make_grid(shapes[s].n, shapes[s].br, shapes[s].bc, &seed, g->grid);
    kg_make_cages(g, shapes[s].maxk, 100, &seed);
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    solve_both(g, 2, shapes[s].bt_budget);
    free(g);
}
END_TEST

/* Few large cages (or cages dropped) on 4x4 / 6x6: many solutions, counted
 * exactly by both methods. */
START_TEST(killer_multi_solution_counts) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 99u + (unsigned)_i * 31u;
    int six = _i & 1;
    uint32_t cnt;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, six ? 6 : 4, 2, six ? 3 : 2);
    kg_make_grid(g->pz.shape.n, 2, six ? 3 : 2, &seed, g->grid);
    kg_make_cages(g, six ? 6 : 4, six ? 40 : 60, &seed);
    cnt = solve_both(g, 10000, 0);
    ck_assert_uint_ge(cnt, 1);
    free(g);
}
END_TEST

/* No cages at all on 4x4: the number of 4x4 Sudoku grids is 288. */
START_TEST(killer_no_cages_counts_sudoku) {
    gen_t *g = malloc(sizeof *g);
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, 4, 2, 2);
    {
        unsigned seed = 5;
        kg_make_grid(4, 2, 2, &seed, g->grid);
    }
    g->pz.ncages = 0;
    g->pz.cages = g->cages;
    ck_assert_uint_eq(solve_both(g, 10000, 0), 288);
    free(g);
}
END_TEST

/* Custom symbols: 0..n-1, 10,20,..., and a scrambled set. */
START_TEST(killer_custom_symbols) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 777u + (unsigned)_i;
    int i, n = _i < 2 ? 9 : 6, b = n == 9 ? 3 : 2;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, n, b, n / b);
    for (i = 0; i < n; i++)
        g->symbols[i] = _i == 0 ? i : _i == 1 ? 10L * (i + 1) : (long)((i * 7 + 3) % 11) * 3;
    g->pz.symbols = g->symbols;
    kg_make_grid(n, b, n / b, &seed, g->grid);
    kg_make_cages(g, 4, 100, &seed);
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    solve_both(g, 2, 5000000);
    free(g);
}
END_TEST

/* Large cages spanning boxes (maxk 6), fully or partly covering 6x6 grids,
 * with symbols 1..n, ascending 10,20,.. and a scrambled set: the 45-rule
 * cons over cells of several cages (peer-group bounds, both the ascending
 * window and the general path), exact tabled supports and locked
 * candidates must keep every solution; counts are exhaustive. */
START_TEST(killer_derived_cons_counts) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 31337u + (unsigned)_i * 101u;
    int i, sy = _i % 3;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, 6, 2, 3);
    if (sy != 0) {
        for (i = 0; i < 6; i++)
            g->symbols[i] = sy == 1 ? 10L * (i + 1) : (long)((i * 5 + 2) % 7) * 4 + 1;
        g->pz.symbols = g->symbols;
    }
    kg_make_grid(6, 2, 3, &seed, g->grid);
    kg_make_cages(g, 6, _i < 6 ? 100 : 75, &seed);
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    ck_assert_uint_ge(solve_both(g, 10000, 0), 1);
    free(g);
}
END_TEST

/* The 45 rule (killer/derive.c) on generated puzzles: the cages come
 * first, in order; every derived equation holds on the grid the cages were
 * made from (a mirrored cell counting n + 1 - v); mirrored cells only with
 * symbols 1..n; no signed cell set twice, nor negated; and the sizes stay
 * within the caps.  Covered grids of 6x6, 9x9 and 16x16, and 9x9 with a
 * quarter of the cages dropped. */
START_TEST(killer_derived_equations_hold) {
    static const int sides[][3] = {{6, 2, 3}, {9, 3, 3}, {9, 3, 3}, {16, 4, 4}};
    gen_t *g = malloc(sizeof *g);
    killer__model_t *m = malloc(sizeof *m);
    unsigned seed = 4242u + (unsigned)_i * 7u;
    int n = sides[_i % 4][0], i, j, derived_seen = 0;
    uint32_t maxeqs, maxcells, e, f;
    size_t scratch;
    killer__eqs_t eqs;
    void *mem;
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(m);
    kg_gen_init(g, n, sides[_i % 4][1], sides[_i % 4][2]);
    kg_make_grid(n, sides[_i % 4][1], sides[_i % 4][2], &seed, g->grid);
    kg_make_cages(g, n == 16 ? 5 : 4, _i % 4 == 2 ? 75 : 100, &seed);
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    killer__model_init(m, &g->pz);
    killer__derive_size(&g->pz, &maxeqs, &maxcells, &scratch);
    eqs.eq = malloc(maxeqs * sizeof *eqs.eq);
    eqs.cells = malloc(maxcells * sizeof *eqs.cells);
    eqs.neg = malloc(maxcells);
    mem = aligned_alloc(16, (scratch + 15) / 16 * 16);
    ck_assert(eqs.eq != NULL && eqs.cells != NULL && eqs.neg != NULL && mem != NULL);
    ck_assert_uint_eq(killer__derive(m, &eqs, mem, 1), eqs.neq - (uint32_t)g->pz.ncages);
    ck_assert_uint_le(eqs.neq, maxeqs);
    ck_assert_uint_le(eqs.ncells, maxcells);
    for (e = 0; e < eqs.neq; e++) {
        const killer__eq_t *q = &eqs.eq[e];
        long sum = 0;
        if (e < (uint32_t)g->pz.ncages) {
            ck_assert_int_eq(q->cage, (int)e);
            ck_assert_int_eq(q->k, g->pz.cages[e].ncells);
            ck_assert_int_eq(q->sum, g->pz.cages[e].sum);
        } else {
            ck_assert_int_eq(q->cage, -1);
            ck_assert_int_le(q->k, q->mirror ? KILLER__MIXED_MAX : KILLER__DERIVED_MAX);
            derived_seen++;
        }
        for (j = 0; j < q->k; j++) {
            int v = g->grid[eqs.cells[q->off + (uint32_t)j]];
            sum += eqs.neg[q->off + (uint32_t)j] ? n + 1 - v : v;
        }
        ck_assert_msg(sum == q->sum, "equation %u: %ld on the grid, %ld stated", e, sum, q->sum);
        for (f = 0; f < e; f++) { /* the same signed set, or every sign flipped */
            const killer__eq_t *r = &eqs.eq[f];
            int same = r->k == q->k, flip = same;
            for (i = 0; i < q->k && (same || flip); i++) {
                int found = -1;
                for (j = 0; j < r->k; j++)
                    if (eqs.cells[r->off + (uint32_t)j] == eqs.cells[q->off + (uint32_t)i])
                        found = j;
                if (found < 0)
                    same = flip = 0;
                else if (eqs.neg[r->off + (uint32_t)found] == eqs.neg[q->off + (uint32_t)i])
                    flip = 0;
                else
                    same = 0;
            }
            ck_assert_msg(!same && !flip, "equations %u and %u are one", f, e);
        }
    }
    ck_assert_int_gt(derived_seen, 0);
    free(mem);
    free(eqs.neg);
    free(eqs.cells);
    free(eqs.eq);
    free(m);
    free(g);
}
END_TEST

/* 9x9 with cages of up to 7 cells, first two solutions. */
START_TEST(killer_big_cages_9x9) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 2718u + (unsigned)_i * 57u;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, 9, 3, 3);
    kg_make_grid(9, 3, 3, &seed, g->grid);
    kg_make_cages(g, 7, 100, &seed);
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    solve_both(g, 2, 5000000);
    free(g);
}
END_TEST

/* Cages too big to table (over KILLER_COMBO_CAP combinations: up to 12
 * cells of 25 values) make "bounds" cons, cages and derived alike, whose
 * restriction is one window of values when the symbols ascend and a test
 * per value otherwise: symbols 1..25 and a scrambled set, 55% of the cells
 * given so that both methods finish; every solution checked, the counts
 * agree and the generating grid is among them. */
START_TEST(killer_bounds_cons_25) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 2525u + (unsigned)_i * 11u;
    int i, nc = 25 * 25;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, 25, 5, 5);
    if (_i & 1) {
        for (i = 0; i < 25; i++)
            g->symbols[i] = (long)((i * 7 + 3) % 26) * 2;
        g->pz.symbols = g->symbols;
    }
    kg_make_grid(25, 5, 5, &seed, g->grid);
    kg_make_cages(g, 12, 100, &seed);
    for (i = 0; i < nc; i++)
        g->givens[i] = kg_rnd(&seed) % 100 < 55 ? g->grid[i] : 0;
    g->pz.givens = g->givens;
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    solve_both(g, 2, 2000000);
    free(g);
}
END_TEST

/* Partial cages plus givens from the grid. */
START_TEST(killer_partial_cages_and_givens) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 4242u + (unsigned)_i * 13u;
    int i, nc = 81;
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, 9, 3, 3);
    kg_make_grid(9, 3, 3, &seed, g->grid);
    kg_make_cages(g, 4, 70, &seed);
    for (i = 0; i < nc; i++)
        g->givens[i] = kg_rnd(&seed) % 5 == 0 ? g->grid[i] : 0;
    g->pz.givens = g->givens;
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    solve_both(g, 3, 5000000);
    free(g);
}
END_TEST

/* Killer-X: a grid with distinct diagonals from solving the empty X grid. */
START_TEST(killer_diagonals) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 31337u + (unsigned)_i;
    int n = _i & 1 ? 9 : 6, b = n == 9 ? 3 : 2, i, perm[MAXN];
    killer_opts_t o;
    killer_result_t r;
    uint8_t grid[MAXC];
    ck_assert_ptr_nonnull(g);
    kg_gen_init(g, n, b, n / b);
    g->pz.diagonals = 1;
    g->pz.cages = g->cages;
    killer_opts_init(&o);
    o.solutions = grid;
    ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    for (i = 0; i < n; i++)
        perm[i] = i + 1;
    for (i = n - 1; i > 0; i--) {
        int j = (int)(kg_rnd(&seed) % (unsigned)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (i = 0; i < n * n; i++)
        g->grid[i] = (uint8_t)perm[grid[i] - 1];
    ck_assert_int_eq(killer_check_solution(&g->pz, g->grid), 1);
    kg_make_cages(g, 4, 100, &seed);
    solve_both(g, 2, 5000000);
    /* the diagonal rule matters: a plain grid breaks it */
    {
        uint8_t plain[MAXC];
        unsigned s2 = 3;
        kg_make_grid(n, b, n / b, &s2, plain);
        if (plain[0] == plain[n + 1]) ck_assert_int_eq(killer_check_solution(&g->pz, plain), 0);
    }
    free(g);
}
END_TEST

/* A consistent killer with no solution ends exhausted with 0 found:
 * cage {(0,0)} = 1 while the given (0,1) is 1. */
START_TEST(killer_unsolvable) {
    static const killer_cell_t cell00[] = {{0, 0}};
    killer_cage_t cg = {1, 1, cell00};
    killer_puzzle_t pz;
    uint8_t giv[16];
    int mi;
    memset(&pz, 0, sizeof pz);
    memset(giv, 0, sizeof giv);
    ck_assert_int_eq(sudoku_shape_init(&pz.shape, 4, 2, 2), 0);
    giv[1] = 1;
    pz.givens = giv;
    pz.cages = &cg;
    pz.ncages = 1;
    ck_assert_int_eq(killer_validate(&pz, NULL), 0);
    for (mi = 1; mi <= 3; mi++) {
        killer_opts_t o;
        killer_result_t r;
        killer_opts_init(&o);
        o.method = (killer_method_t)mi;
        o.max_solutions = 5;
        ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 0);
        ck_assert_int_eq(r.exhausted, 1);
    }
}
END_TEST

/* === Fixtures =========================================================== */

/* Line format (see tools/gen_killer.c):
 *   N BRxBC D | SYMBOLS | GIVENS | CAGES | COUNT | SOLUTION
 * D 0/1 diagonals; SYMBOLS "-" or a comma list; GIVENS "-" or n*n comma
 * values; CAGES "sum:r,c r,c;sum:..."; COUNT exact count; SOLUTION n*n comma
 * values or "-".  '#' lines are comments. */
typedef struct fx_s {
    gen_t g;
    long count;
    uint8_t sol[MAXC];
    int has_sol;
} fx_t;

static char *field(char **s) {
    char *f = *s, *bar = strchr(f, '|');
    if (bar != NULL) {
        *bar = 0;
        *s = bar + 1;
    } else
        *s = f + strlen(f);
    while (*f == ' ')
        f++;
    return f;
}

static int parse_fixture(char *line, fx_t *x) {
    char *s = line, *f;
    int n, br, bc, d, i, nca = 0, ncl = 0;
    memset(x, 0, sizeof *x);
    f = field(&s);
    if (sscanf(f, "%d %dx%d %d", &n, &br, &bc, &d) != 4 || n > MAXN) return -1;
    if (sudoku_shape_init(&x->g.pz.shape, n, br, bc) != 0) return -1;
    x->g.pz.diagonals = d;
    f = field(&s);
    if (*f != '-') {
        for (i = 0; i < n; i++)
            x->g.symbols[i] = strtol(f, &f, 10), f += (*f == ',');
        x->g.pz.symbols = x->g.symbols;
    }
    f = field(&s);
    if (*f != '-') {
        for (i = 0; i < n * n; i++)
            x->g.givens[i] = (uint8_t)strtol(f, &f, 10), f += (*f == ',');
        x->g.pz.givens = x->g.givens;
    }
    f = field(&s);
    while (*f && *f != ' ' && nca < MAXC) {
        killer_cage_t *c = &x->g.cages[nca++];
        c->sum = strtol(f, &f, 10);
        if (*f++ != ':') return -1;
        c->cells = x->g.cells + ncl;
        while (*f >= '0' && *f <= '9' && ncl < MAXC) {
            x->g.cells[ncl].r = (int)strtol(f, &f, 10);
            if (*f++ != ',') return -1;
            x->g.cells[ncl].c = (int)strtol(f, &f, 10);
            ncl++;
            c->ncells++;
            while (*f == ' ' && f[1] >= '0' && f[1] <= '9')
                f++;
        }
        if (*f == ';') f++;
    }
    x->g.pz.cages = x->g.cages;
    x->g.pz.ncages = nca;
    f = field(&s);
    x->count = strtol(f, NULL, 10);
    f = field(&s);
    if (*f != '-' && *f != 0) {
        for (i = 0; i < n * n; i++)
            x->sol[i] = (uint8_t)strtol(f, &f, 10), f += (*f == ',');
        x->has_sol = 1;
    }
    return 0;
}

START_TEST(killer_fixtures) {
    const char *dir = getenv("KILLER_FIXTURES");
    char path[512], line[16384];
    FILE *fp;
    int lines = 0;
    fx_t *x = malloc(sizeof *x);
    ck_assert_ptr_nonnull(x);
    snprintf(path, sizeof path, "%s/killer_basic.txt", dir != NULL ? dir : "tests/fixtures");
    fp = fopen(path, "r");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    while (fgets(line, sizeof line, fp) != NULL) {
        int n, mi;
        if (line[0] == '#' || line[0] == '\n') continue;
        ck_assert_int_eq(parse_fixture(line, x), 0);
        n = x->g.pz.shape.n;
        ck_assert_int_eq(killer_validate(&x->g.pz, NULL), 0);
        for (mi = 1; mi <= 2; mi++) {
            killer_opts_t o;
            killer_result_t r;
            uint8_t *sol = malloc((size_t)(x->count + 1) * n * n);
            uint32_t k;
            ck_assert_ptr_nonnull(sol);
            killer_opts_init(&o);
            o.method = (killer_method_t)mi;
            o.max_solutions = (uint32_t)x->count + 1;
            o.solutions = sol;
            ck_assert_int_eq(killer_solve(&x->g.pz, &o, &r), 0);
            ck_assert_int_eq(r.exhausted, 1);
            ck_assert_msg(r.solutions_found == (uint32_t)x->count, "line %d method %d: %u != %ld",
                          lines + 1, mi, r.solutions_found, x->count);
            for (k = 0; k < r.solutions_found; k++)
                ck_assert_int_eq(killer_check_solution(&x->g.pz, sol + (size_t)k * n * n), 1);
            if (x->has_sol && x->count == 1)
                ck_assert_int_eq(memcmp(sol, x->sol, (size_t)n * n), 0);
            free(sol);
        }
        lines++;
    }
    fclose(fp);
    ck_assert_int_ge(lines, 5);
    free(x);
}
END_TEST

/* === Validation table =================================================== */

START_TEST(killer_validation_table) {
    static const killer_cell_t c_ok[] = {{0, 0}, {0, 1}};
    static const killer_cell_t c_range[] = {{0, 2}, {4, 0}};
    static const killer_cell_t c_dup[] = {{1, 1}, {0, 1}};
    static const killer_cell_t c_big[] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 0}};
    static const killer_cell_t c_one[] = {{3, 3}};
    static const killer_cell_t c_row1[] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}};
    killer_cage_t cg[3];
    killer_puzzle_t pz;
    killer_problem_t p;
    uint8_t giv[16];
    long badsym[4] = {1, 2, 2, 4}, negsym[4] = {1, -2, 3, 4}, tens[4] = {10, 20, 30, 40};

    memset(&pz, 0, sizeof pz);
    ck_assert_int_eq(sudoku_shape_init(&pz.shape, 4, 2, 2), 0);
    pz.cages = cg;
    cg[0].sum = 3, cg[0].ncells = 2, cg[0].cells = c_ok;
    cg[1].sum = 4, cg[1].ncells = 1, cg[1].cells = c_one;
    pz.ncages = 2;
    ck_assert_int_eq(killer_validate(&pz, &p), 0);
    ck_assert_int_eq(p.code, 0);

    /* symbols */
    pz.symbols = badsym;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ESYMBOLS);
    ck_assert_int_eq(p.other, 2);
    pz.symbols = negsym;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ESYMBOLS);
    ck_assert_int_eq(p.other, 1);
    pz.symbols = NULL;
    /* given out of range */
    memset(giv, 0, sizeof giv);
    giv[6] = 5;
    pz.givens = giv;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_EGIVEN_VALUE);
    ck_assert_int_eq(p.r, 1);
    ck_assert_int_eq(p.c, 2);
    pz.givens = NULL;
    /* cell out of range: cage 1, cell 1 */
    cg[1].ncells = 2, cg[1].cells = c_range, cg[1].sum = 5;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ECELL_RANGE);
    ck_assert_int_eq(p.cage, 1);
    ck_assert_int_eq(p.cell, 1);
    ck_assert_int_eq(p.r, 4);
    /* a cell in two cages: cage 1 cell 1 = (0,1) of cage 0 */
    cg[1].cells = c_dup;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ECELL_DUP);
    ck_assert_int_eq(p.cage, 1);
    ck_assert_int_eq(p.cell, 1);
    ck_assert_int_eq(p.other, 0);
    /* empty cage */
    cg[1].ncells = 0;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ECAGE_EMPTY);
    ck_assert_int_eq(p.cage, 1);
    ck_assert_int_eq(p.cell, -1);
    /* larger than n */
    cg[1].ncells = 5, cg[1].cells = c_big, cg[1].sum = 10;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ECAGE_SIZE);
    ck_assert_int_eq(p.cage, 1);
    /* unreachable sum: 2 cells cannot make 8 from 1..4, nor 2 */
    cg[1].ncells = 1, cg[1].cells = c_one, cg[1].sum = 4;
    cg[0].sum = 8;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ESUM);
    ck_assert_int_eq(p.cage, 0);
    cg[0].sum = 2;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ESUM);
    /* with symbols 10..40, 25 is between the bounds but unreachable */
    pz.symbols = tens;
    cg[0].sum = 25;
    cg[1].sum = 40;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ESUM);
    cg[0].sum = 30;
    ck_assert_int_eq(killer_validate(&pz, &p), 0);
    pz.symbols = NULL;
    cg[0].sum = 3;
    /* givens break a rule: (0,3) and (3,3) both 2 (column 3) */
    giv[6] = 0;
    giv[3] = 2;
    giv[15] = 2;
    cg[1].sum = 2;
    pz.givens = giv;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_EGIVEN_RULE);
    ck_assert_int_eq(p.r, 3);
    ck_assert_int_eq(p.c, 3);
    ck_assert_int_eq(p.other, 3);
    ck_assert_int_eq(p.cage, 1);
    ck_assert_int_eq(p.cell, 0);
    /* givens contradict a cage: (0,0)=3 in the 1+2 cage */
    memset(giv, 0, sizeof giv);
    giv[0] = 3;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_EGIVEN_CAGE);
    ck_assert_int_eq(p.cage, 0);
    ck_assert_int_eq(p.cell, 0);
    /* given in cage 1 that is not its sum */
    memset(giv, 0, sizeof giv);
    giv[15] = 3;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_EGIVEN_CAGE);
    ck_assert_int_eq(p.cage, 1);
    pz.givens = NULL;
    /* Killer-X: givens on the diagonal */
    memset(giv, 0, sizeof giv);
    giv[5] = 3;
    giv[10] = 3;
    pz.givens = giv;
    ck_assert_int_eq(killer_validate(&pz, &p), 0);
    pz.diagonals = 1;
    ck_assert_int_eq(killer_validate(&pz, &p), KILLER_EGIVEN_RULE);
    ck_assert_int_eq(p.r, 2);
    pz.diagonals = 0;
    pz.givens = NULL;
    /* the grid total: cover all 16 cells with 4 row cages of sum 10, then 11 */
    {
        killer_cage_t rows[4];
        killer_cell_t rc[16];
        int i;
        for (i = 0; i < 16; i++)
            rc[i].r = i / 4, rc[i].c = i % 4;
        for (i = 0; i < 4; i++)
            rows[i].sum = 10, rows[i].ncells = 4, rows[i].cells = rc + 4 * i;
        pz.cages = rows;
        pz.ncages = 4;
        ck_assert_int_eq(killer_validate(&pz, &p), 0);
        rows[2].cells = c_row1; /* row 1 twice: a duplicate first */
        ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ECELL_DUP);
        ck_assert_int_eq(p.cage, 2);
        ck_assert_int_eq(p.cell, 0);
        rows[2].cells = rc + 8;
        rows[3].sum = 9;
        rows[3].ncells = 3; /* 9 from 3 cells: fine alone, but one cell uncovered */
        ck_assert_int_eq(killer_validate(&pz, &p), 0);
        rows[3].ncells = 4;
        rows[3].sum = 10;
        rows[0].cells = rc; /* now split row 0: a 3-cell cage of 7 and a 1-cell cage */
        rows[0].ncells = 3;
        rows[0].sum = 7;
        pz.ncages = 4;
        {
            killer_cage_t five[5];
            memcpy(five, rows, sizeof rows);
            five[4].sum = 3, five[4].ncells = 1, five[4].cells = rc + 3;
            pz.cages = five;
            pz.ncages = 5;
            ck_assert_int_eq(killer_validate(&pz, &p), 0);
            five[4].sum = 4; /* 7 + 4 + 30 = 41 != 40 */
            ck_assert_int_eq(killer_validate(&pz, &p), KILLER_ETOTAL);
            ck_assert_int_eq(p.cage, -1);
            /* killer_solve reports the same code and problem */
            {
                killer_result_t r;
                ck_assert_int_eq(killer_solve(&pz, NULL, &r), KILLER_ETOTAL);
                ck_assert_int_eq(r.problem.code, KILLER_ETOTAL);
                ck_assert_uint_eq(r.solutions_found, 0);
            }
        }
    }
    /* bad shapes and cage arrays */
    pz.cages = NULL;
    pz.ncages = 1;
    ck_assert_int_eq(killer_validate(&pz, &p), SEARCH_EINVAL);
    pz.ncages = 0;
    ck_assert_int_eq(killer_validate(&pz, &p), 0);
    pz.shape.n = 37;
    ck_assert_int_eq(killer_validate(&pz, &p), SEARCH_EINVAL);
    ck_assert_int_eq(killer_validate(NULL, &p), SEARCH_EINVAL);
}
END_TEST

/* === Limits and options ================================================= */

static void empty9(killer_puzzle_t *pz) {
    memset(pz, 0, sizeof *pz);
    ck_assert_int_eq(sudoku_shape_init(&pz->shape, 9, 3, 3), 0);
}

START_TEST(killer_limits) {
    killer_puzzle_t pz;
    killer_opts_t o;
    killer_result_t r;
    search_ctl_t ctl;
    atomic_int flag;
    int mi;
    empty9(&pz);
    for (mi = 1; mi <= 3; mi++) {
        killer_opts_init(&o);
        o.method = (killer_method_t)mi;
        o.max_solutions = KILLER_MAX_SOLUTIONS;
        o.ctl = &ctl;
        /* a past deadline */
        memset(&ctl, 0, sizeof ctl);
        ctl.deadline_ns = 1;
        ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_TIMEOUT);
        ck_assert_int_eq(r.code, SEARCH_TIMEOUT);
        /* a deadline during the search (the empty grid has ~6.7e21 solutions) */
        ctl.deadline_ns = search_now_ns() + 20 * 1000000;
        o.max_solutions = KILLER_MAX_SOLUTIONS;
        o.solutions = NULL;
        ctl.node_budget = 0;
        {
            /* count only, many solutions: stops at max_solutions or the deadline */
            int rc = killer_solve(&pz, &o, &r);
            ck_assert(rc == 0 || rc == SEARCH_TIMEOUT);
            ck_assert_int_eq(r.exhausted, 0);
        }
        /* cancel */
        memset(&ctl, 0, sizeof ctl);
        atomic_init(&flag, 1);
        ctl.cancel = &flag;
        ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_CANCELLED);
        /* node budget */
        memset(&ctl, 0, sizeof ctl);
        ctl.node_budget = 50;
        ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_BUDGET);
        ck_assert_uint_le(r.stats.nodes, 51);
        ck_assert_int_eq(r.exhausted, 0);
        /* max_solutions: exactly that many, not exhausted */
        memset(&ctl, 0, sizeof ctl);
        o.max_solutions = 3;
        {
            uint8_t sol[3 * 81];
            int k;
            o.solutions = sol;
            ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
            ck_assert_uint_eq(r.solutions_found, 3);
            ck_assert_int_eq(r.exhausted, 0);
            for (k = 0; k < 3; k++)
                ck_assert_int_eq(killer_check_solution(&pz, sol + 81 * k), 1);
            o.solutions = NULL;
        }
    }
}
END_TEST

/* The deadline holds when nodes are dear: 16x16 killers with cages of up
 * to six cells cost the advanced search tens of microseconds a node (more
 * under the sanitizers), so polling the clock every few thousand nodes
 * overshot a 100 ms deadline by seconds.  Some of these puzzles are solved
 * in time, others stop at the deadline; every run must end within half a
 * second of it (the search polls the clock every 16 nodes; the learning
 * method, _i 1, every ~40,000 propagation ticks, a few milliseconds), a
 * first solution and a uniqueness proof. */
START_TEST(killer_deadline_heavy_nodes) {
    gen_t *g = malloc(sizeof *g);
    ck_assert_ptr_nonnull(g);
    for (unsigned t = 0; t < 3; t++) {
        unsigned seed = 7001u + t + 100u * (unsigned)_i;
        killer_opts_t o;
        killer_result_t r;
        search_ctl_t ctl;
        int64_t t0;
        int rc;
        kg_gen_init(g, 16, 4, 4);
        kg_make_grid(16, 4, 4, &seed, g->grid);
        kg_make_cages(g, 6, 100, &seed);
        killer_opts_init(&o);
        o.method = _i == 0 ? KILLER_METHOD_ADVANCED : KILLER_METHOD_LEARNING;
        o.max_solutions = 1 + t % 2;
        memset(&ctl, 0, sizeof ctl);
        o.ctl = &ctl;
        t0 = search_now_ns();
        ctl.deadline_ns = t0 + 100 * 1000000LL;
        rc = killer_solve(&g->pz, &o, &r);
        ck_assert(rc == 0 || rc == SEARCH_TIMEOUT);
        ck_assert_msg(search_now_ns() - t0 < 600 * 1000000LL,
                      "run %u took %.0f ms for a 100 ms deadline", t,
                      (double)(search_now_ns() - t0) / 1e6);
    }
    free(g);
}
END_TEST

START_TEST(killer_options) {
    killer_puzzle_t pz;
    killer_opts_t o;
    killer_result_t r;
    killer_method_t m;
    empty9(&pz);
    killer_opts_init(&o);
    o.max_solutions = 0;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_EINVAL);
    o.max_solutions = KILLER_MAX_SOLUTIONS + 1;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_EINVAL);
    o.max_solutions = 1;
    o.method = KILLER_METHOD_COUNT;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_EINVAL);
    o.method = KILLER_METHOD_AUTO;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
    ck_assert_int_eq(r.method, KILLER_METHOD_ADVANCED);
    /* auto: backtracking only on 4x4 with no value order asked for */
    ck_assert_int_eq(killer_method_for(4, KILLER_METHOD_AUTO, KILLER_VALUES_AUTO),
                     KILLER_METHOD_BACKTRACKING);
    ck_assert_int_eq(killer_method_for(4, KILLER_METHOD_AUTO, KILLER_VALUES_DESCENDING),
                     KILLER_METHOD_ADVANCED);
    ck_assert_int_eq(killer_method_for(6, KILLER_METHOD_AUTO, KILLER_VALUES_AUTO),
                     KILLER_METHOD_ADVANCED);
    ck_assert_int_eq(killer_method_for(4, KILLER_METHOD_ADVANCED, KILLER_VALUES_AUTO),
                     KILLER_METHOD_ADVANCED);
    ck_assert_str_eq(killer_method_name(KILLER_METHOD_BACKTRACKING), "backtracking");
    ck_assert_str_eq(killer_method_name(KILLER_METHOD_LEARNING), "learning");
    ck_assert_int_eq(killer_method_parse("learning", &m), 0);
    ck_assert_int_eq(m, KILLER_METHOD_LEARNING);
    ck_assert_int_eq(killer_method_for(4, KILLER_METHOD_LEARNING, KILLER_VALUES_AUTO),
                     KILLER_METHOD_LEARNING);
    ck_assert_ptr_null(killer_method_name(KILLER_METHOD_COUNT));
    ck_assert_int_eq(killer_method_parse("advanced", &m), 0);
    ck_assert_int_eq(m, KILLER_METHOD_ADVANCED);
    ck_assert_int_eq(killer_method_parse("auto", &m), 0);
    ck_assert_int_eq(m, KILLER_METHOD_AUTO);
    ck_assert_int_eq(killer_method_parse("dlx", &m), SEARCH_EINVAL);
    ck_assert_int_eq(killer_method_parse(NULL, &m), SEARCH_EINVAL);
    for (int v = 0; v < KILLER_VALUES_COUNT; v++) { /* the names round-trip */
        killer_values_t back = KILLER_VALUES_COUNT;
        ck_assert_int_eq(killer_values_parse(killer_values_name((killer_values_t)v), &back), 0);
        ck_assert_int_eq(back, v);
    }
    ck_assert_str_eq(killer_values_name(KILLER_VALUES_DESCENDING), "descending");
    ck_assert_ptr_null(killer_values_name(KILLER_VALUES_COUNT));
    ck_assert_int_eq(killer_values_parse("Ascending", &o.values), SEARCH_EINVAL);
}
END_TEST

/* === Subtree split ====================================================== */

#define SPLIT_MAXSOL 4000u

/* Counts all solutions of g unsplit (must be exhausted), then for split
 * depths 1..4 solves every index: each must end exhausted, and the
 * solutions of all indices together must be exactly the unsplit ones (the
 * same multiset, sorted and compared).  All with value order `values`.  Returns the count; all
 * (SPLIT_MAXSOL grids) gets the solutions, sorted. */
static uint32_t split_check(const gen_t *g, killer_method_t method, killer_values_t values,
                            uint8_t *all) {
    int nc = g->pz.shape.n * g->pz.shape.n;
    const uint32_t maxsol = SPLIT_MAXSOL;
    uint8_t *parts = malloc((size_t)maxsol * nc);
    killer_opts_t o;
    killer_result_t r;
    uint32_t total, d, idx, k;
    ck_assert_ptr_nonnull(parts);
    killer_opts_init(&o);
    o.method = method;
    o.values = values;
    o.max_solutions = maxsol;
    o.solutions = all;
    ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
    ck_assert_msg(r.exhausted, "unsplit search not exhausted (%u found)", r.solutions_found);
    total = r.solutions_found;
    cmp_grid_len = nc;
    qsort(all, total, (size_t)nc, cmp_grid);
    for (d = 1; d <= 4; d++) {
        uint32_t got = 0, empty_until = 0;
        for (idx = 0; idx < (1u << d); idx++) {
            o.split_depth = d;
            o.split_index = idx;
            o.solutions = parts + (size_t)got * nc;
            o.max_solutions = maxsol - got;
            ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
            ck_assert_msg(r.exhausted, "depth %u index %u not exhausted", d, idx);
            ck_assert_uint_ge(r.split_span, 1);
            if (idx < empty_until)
                ck_assert_uint_eq(r.solutions_found, 0); /* a sibling answered for it */
            if (idx + r.split_span > empty_until) empty_until = idx + r.split_span;
            for (k = 0; k < r.solutions_found; k++)
                ck_assert_int_eq(killer_check_solution(&g->pz, o.solutions + (size_t)k * nc), 1);
            got += r.solutions_found;
            ck_assert_uint_le(got, total);
        }
        ck_assert_msg(got == total, "depth %u: %u solutions over the subtrees, %u unsplit", d, got,
                      total);
        qsort(parts, got, (size_t)nc, cmp_grid);
        ck_assert_int_eq(memcmp(parts, all, (size_t)got * nc), 0);
    }
    free(parts);
    return total;
}

/* Auto value order, one solution wanted: both orders in turns of 1, 2, 3
 * and 1024 nodes.  The answer must be one of the `cnt` solutions in
 * `sorted` (all of g's); a one-node turn makes the orders alternate at
 * every node, so the answer may come from either. */
static void interleave_check(const gen_t *g, const uint8_t *sorted, uint32_t cnt) {
    static const uint32_t turns[] = {1, 2, 3, 0};
    int nc = g->pz.shape.n * g->pz.shape.n;
    uint8_t sol[MAXC];
    size_t t;
    for (t = 0; t < sizeof turns / sizeof turns[0]; t++) {
        killer_opts_t o;
        killer_result_t r;
        killer_opts_init(&o);
        o.method = KILLER_METHOD_ADVANCED;
        o.interleave = turns[t];
        o.solutions = sol;
        ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
        ck_assert_uint_eq(r.solutions_found, 1);
        cmp_grid_len = nc;
        ck_assert_ptr_nonnull(bsearch(sol, sorted, cnt, (size_t)nc, cmp_grid));
    }
}

/* The 2^d subtrees of split_depth d partition the solution set: many
 * solutions (4x4, 6x6 with few cages), no cages, unique 9x9 (solved at or
 * near the root, so most subtrees are empty), givens, diagonals, custom
 * symbols; in both value orders, which find the same solutions; and the
 * backtracking method, which ignores the split. */
START_TEST(killer_split_partitions) {
    gen_t *g = malloc(sizeof *g);
    unsigned seed = 8080u + (unsigned)_i * 17u;
    int i;
    uint32_t cnt;
    uint8_t *asc = malloc((size_t)SPLIT_MAXSOL * MAXC), *desc = malloc((size_t)SPLIT_MAXSOL * MAXC);
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(asc);
    ck_assert_ptr_nonnull(desc);
    switch (_i) {
    case 0:
    case 1:
    case 2:
    case 3: /* multi-solution 4x4 / 6x6 */
        kg_gen_init(g, _i & 1 ? 6 : 4, 2, _i & 1 ? 3 : 2);
        kg_make_grid(g->pz.shape.n, 2, _i & 1 ? 3 : 2, &seed, g->grid);
        kg_make_cages(g, 4, _i & 1 ? 85 : 60, &seed);
        break;
    case 4: /* no cages: the 288 4x4 grids */
        kg_gen_init(g, 4, 2, 2);
        g->pz.cages = g->cages;
        break;
    case 5:
    case 6: /* 9x9, cages covering the grid */
        kg_gen_init(g, 9, 3, 3);
        kg_make_grid(9, 3, 3, &seed, g->grid);
        kg_make_cages(g, _i == 5 ? 3 : 5, 100, &seed);
        break;
    case 7:
    case 8: /* 6x6 partial cages plus givens; 9x9 with every cell given (solved at the root) */
        kg_gen_init(g, _i == 7 ? 6 : 9, _i == 7 ? 2 : 3, 3);
        kg_make_grid(g->pz.shape.n, g->pz.shape.box_rows, 3, &seed, g->grid);
        kg_make_cages(g, 4, 60, &seed);
        for (i = 0; i < g->pz.shape.n * g->pz.shape.n; i++)
            g->givens[i] = _i == 8 || kg_rnd(&seed) % 6 == 0 ? g->grid[i] : 0;
        g->pz.givens = g->givens;
        break;
    case 9:
    case 10: /* Killer-X 6x6 (partial cages: several solutions) and 9x9 */
        kg_gen_init(g, _i == 9 ? 6 : 9, _i == 9 ? 2 : 3, 3);
        kg_make_x_grid(g, &seed);
        kg_make_cages(g, 4, _i == 9 ? 70 : 100, &seed);
        break;
    default: /* symbols 10,20,..., 6x6, partial */
        kg_gen_init(g, 6, 2, 3);
        for (i = 0; i < 6; i++)
            g->symbols[i] = 10L * (i + 1);
        g->pz.symbols = g->symbols;
        kg_make_grid(6, 2, 3, &seed, g->grid);
        kg_make_cages(g, 5, 75, &seed);
        break;
    }
    ck_assert_int_eq(killer_validate(&g->pz, NULL), 0);
    cnt = split_check(g, KILLER_METHOD_ADVANCED, KILLER_VALUES_ASCENDING, asc);
    ck_assert_uint_ge(cnt, 1);
    interleave_check(g, asc, cnt);
    ck_assert_uint_eq(split_check(g, KILLER_METHOD_ADVANCED, KILLER_VALUES_DESCENDING, desc), cnt);
    ck_assert_int_eq(memcmp(asc, desc, (size_t)cnt * (size_t)(g->pz.shape.n * g->pz.shape.n)), 0);
    /* learning does not split (index 0 has it all) and finds the same set */
    ck_assert_uint_eq(split_check(g, KILLER_METHOD_LEARNING, KILLER_VALUES_AUTO, desc), cnt);
    ck_assert_int_eq(memcmp(asc, desc, (size_t)cnt * (size_t)(g->pz.shape.n * g->pz.shape.n)), 0);
    if (_i == 0 || _i == 4)
        ck_assert_uint_eq(split_check(g, KILLER_METHOD_BACKTRACKING, KILLER_VALUES_AUTO, desc),
                          cnt);
    if (_i == 4) ck_assert_uint_eq(cnt, 288);
    free(asc);
    free(desc);
    free(g);
}
END_TEST

/* Descending values find another first solution of the empty grid, a
 * valid one, and with a split the subtree roots follow the same order. */
START_TEST(killer_value_order) {
    killer_puzzle_t pz;
    killer_opts_t o;
    killer_result_t r;
    uint8_t asc[81], desc[81];
    empty9(&pz);
    killer_opts_init(&o);
    o.method = KILLER_METHOD_ADVANCED;
    o.solutions = asc;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
    o.solutions = desc;
    o.values = KILLER_VALUES_DESCENDING;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
    ck_assert_int_eq(killer_check_solution(&pz, asc), 1);
    ck_assert_int_eq(killer_check_solution(&pz, desc), 1);
    ck_assert_int_ne(memcmp(asc, desc, sizeof asc), 0);
}
END_TEST

/* Auto with one-node turns: an unsolvable puzzle that needs a search is
 * exhausted by the first order to run out, with both states built
 * (mem_peak holds both); the node budget counts both orders. */
START_TEST(killer_interleave_limits) {
    /* Inkala's 2012 puzzle with an 8 added at row 1, column 6: consistent
     * givens, no solution, tens of nodes to show it */
    static const char inkala[] =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    killer_puzzle_t pz;
    killer_opts_t o;
    killer_result_t r, one;
    search_ctl_t ctl;
    uint8_t givens[81];
    int i;
    empty9(&pz);
    for (i = 0; i < 81; i++)
        givens[i] = inkala[i] == '.' ? 0 : (uint8_t)(inkala[i] - '0');
    givens[15] = 8;
    pz.givens = givens;
    ck_assert_int_eq(killer_validate(&pz, NULL), 0);
    killer_opts_init(&o);
    o.method = KILLER_METHOD_ADVANCED;
    o.values = KILLER_VALUES_ASCENDING;
    ck_assert_int_eq(killer_solve(&pz, &o, &one), 0);
    ck_assert_uint_eq(one.solutions_found, 0);
    ck_assert_int_eq(one.exhausted, 1);
    ck_assert_uint_ge(one.stats.nodes, 10);
    o.values = KILLER_VALUES_AUTO;
    o.interleave = 1;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 0);
    ck_assert_int_eq(r.exhausted, 1);
    ck_assert_uint_gt(r.mem_peak, one.mem_peak);
    /* the empty 16x16 grid: far more than 10 nodes to its first solution */
    memset(&pz, 0, sizeof pz);
    ck_assert_int_eq(sudoku_shape_init(&pz.shape, 16, 4, 4), 0);
    memset(&ctl, 0, sizeof ctl);
    ctl.node_budget = 10;
    o.ctl = &ctl;
    o.values = KILLER_VALUES_ASCENDING;
    ck_assert_int_eq(killer_solve(&pz, &o, &one), SEARCH_BUDGET);
    o.values = KILLER_VALUES_AUTO;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_BUDGET);
    ck_assert_uint_le(r.stats.nodes, 10);
    ck_assert_uint_gt(r.mem_peak, one.mem_peak);
    ck_assert_int_eq(r.exhausted, 0);
}
END_TEST

/* split_depth above the cap, or an index with bits beyond the depth, is
 * refused; an unsolvable puzzle gives 0 in every subtree. */
START_TEST(killer_split_options) {
    killer_puzzle_t pz;
    killer_opts_t o;
    killer_result_t r;
    empty9(&pz);
    killer_opts_init(&o);
    o.split_depth = KILLER_MAX_SPLIT_DEPTH + 1;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_EINVAL);
    o.split_depth = 3;
    o.split_index = 8;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_EINVAL);
    o.split_index = 7;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
    ck_assert_uint_eq(r.solutions_found, 1);
    o.split_depth = KILLER_MAX_SPLIT_DEPTH;
    o.split_index = (1u << KILLER_MAX_SPLIT_DEPTH) - 1;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
    o.method = KILLER_METHOD_BACKTRACKING;
    o.split_depth = KILLER_MAX_SPLIT_DEPTH + 1;
    o.split_index = 0;
    ck_assert_int_eq(killer_solve(&pz, &o, &r), SEARCH_EINVAL);
    {
        static const killer_cell_t cell00[] = {{0, 0}};
        killer_cage_t cg = {1, 1, cell00};
        uint8_t givens[81] = {0};
        uint32_t idx;
        givens[1] = 1;
        pz.cages = &cg;
        pz.ncages = 1;
        pz.givens = givens;
        ck_assert_int_eq(killer_validate(&pz, NULL), 0);
        o.method = KILLER_METHOD_ADVANCED;
        o.split_depth = 2;
        for (idx = 0; idx < 4; idx++) {
            o.split_index = idx;
            ck_assert_int_eq(killer_solve(&pz, &o, &r), 0);
            ck_assert_uint_eq(r.solutions_found, 0);
            ck_assert_int_eq(r.exhausted, 1);
        }
    }
}
END_TEST

static int alloc_calls, alloc_fail_at;
static void *fail_alloc(void *ud, size_t size) {
    (void)ud;
    if (++alloc_calls == alloc_fail_at) return NULL;
    return malloc(size);
}
static void plain_free(void *ud, void *p) {
    (void)ud;
    free(p);
}

/* Every allocation of a solve may fail: it returns SEARCH_ENOMEM (and,
 * under ASan, frees what it took) until enough succeed.  Advanced makes
 * three a state; two puzzles, one the cages settle at the root (one
 * state) and one that needs the 45 rule (that state, then the full one),
 * so the failures reach every allocation of both paths.  Learning makes
 * two, whatever the puzzle. */
START_TEST(killer_alloc_failure) {
    gen_t *g = malloc(sizeof *g);
    int mi, at, pi;
    ck_assert_ptr_nonnull(g);
    for (pi = 0; pi < 2; pi++) {
        int tries;
        for (tries = 0; tries < 50; tries++) { /* the first puzzle that takes path pi */
            unsigned seed = 11u + (unsigned)tries;
            killer_opts_t o;
            killer_result_t r;
            kg_gen_init(g, 9, 3, 3);
            kg_make_grid(9, 3, 3, &seed, g->grid);
            kg_make_cages(g, pi == 0 ? 3 : 6, 100, &seed);
            killer_opts_init(&o);
            ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
            if ((r.derived == 0) == (pi == 0)) break;
        }
        ck_assert_int_lt(tries, 50);
        for (mi = 1; mi <= 3; mi++) {
            int fails = 0, rc = SEARCH_ENOMEM;
            killer_result_t r;
            for (at = 1; rc == SEARCH_ENOMEM && at <= 16; at++) {
                killer_opts_t o;
                const search_allocator_t hooks = {fail_alloc, plain_free, NULL};
                killer_opts_init(&o);
                o.method = (killer_method_t)mi;
                o.alloc = &hooks;
                alloc_calls = 0;
                alloc_fail_at = at;
                rc = killer_solve(&g->pz, &o, &r);
                if (rc == SEARCH_ENOMEM) fails++;
            }
            ck_assert_int_eq(rc, 0);
            ck_assert_uint_eq(r.solutions_found, 1);
            if (mi == 1) {
                ck_assert_int_eq(fails, 1); /* backtracking allocates once */
            } else if (mi == 3) {
                ck_assert_int_eq(fails, 2); /* learning: the model's scratch, the arena */
            } else {
                ck_assert_int_eq(fails, pi == 0 ? 3 : 6);
            }
        }
    }
    free(g);
}
END_TEST

/* The root with the cages alone (killer__solve_adv): a puzzle it settles
 * answers with no node and no 45-rule con, unique (max_solutions 2, the
 * space exhausted: propagation keeps every solution, so a full grid at
 * the root is the only one); one it does not settle goes through the full
 * set-up.  Over 40 generated 9x9 killers of cages up to 3 and up to 6
 * cells both paths occur, and every answer is the generating grid; split
 * into eight subtrees, a settled grid is found once, by index 0. */
START_TEST(killer_root_by_cages) {
    gen_t *g = malloc(sizeof *g);
    uint8_t sol[2 * 81];
    int i, by_cages = 0, full = 0;
    ck_assert_ptr_nonnull(g);
    for (i = 0; i < 40; i++) {
        unsigned seed = 500u + (unsigned)i * 17u;
        killer_opts_t o;
        killer_result_t r;
        kg_gen_init(g, 9, 3, 3);
        kg_make_grid(9, 3, 3, &seed, g->grid);
        kg_make_cages(g, i % 2 == 0 ? 3 : 6, 100, &seed);
        killer_opts_init(&o);
        o.method = KILLER_METHOD_ADVANCED;
        o.max_solutions = 2;
        o.solutions = sol;
        ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
        ck_assert_uint_ge(r.solutions_found, 1);
        ck_assert_int_eq(killer_check_solution(&g->pz, sol), 1);
        if (r.derived == 0) {
            uint32_t idx;
            by_cages++;
            ck_assert_uint_eq(r.stats.nodes, 0);
            ck_assert_uint_eq(r.solutions_found, 1);
            ck_assert_int_eq(r.exhausted, 1);
            ck_assert_int_eq(memcmp(sol, g->grid, 81), 0);
            /* split three levels: the grid is index 0's, whose span
             * covers all eight; the others are empty */
            o.split_depth = 3;
            for (idx = 0; idx < 8; idx++) {
                o.split_index = idx;
                ck_assert_int_eq(killer_solve(&g->pz, &o, &r), 0);
                ck_assert_uint_eq(r.solutions_found, idx == 0 ? 1 : 0);
                ck_assert_int_eq(r.exhausted, 1);
                if (idx == 0) ck_assert_uint_eq(r.split_span, 8);
            }
        } else
            full++;
    }
    ck_assert_int_gt(by_cages, 0);
    ck_assert_int_gt(full, 0);
    free(g);
}
END_TEST

Suite *killer_suite(void) {
    Suite *s = suite_create("killer");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, killer_generated_agree, 0, 16);
    tcase_add_loop_test(tc, killer_multi_solution_counts, 0, 8);
    tcase_add_test(tc, killer_no_cages_counts_sudoku);
    tcase_add_loop_test(tc, killer_custom_symbols, 0, 3);
    tcase_add_loop_test(tc, killer_partial_cages_and_givens, 0, 3);
    tcase_add_loop_test(tc, killer_derived_cons_counts, 0, 12);
    tcase_add_loop_test(tc, killer_derived_equations_hold, 0, 8);
    tcase_add_loop_test(tc, killer_big_cages_9x9, 0, 4);
    tcase_add_loop_test(tc, killer_bounds_cons_25, 0, 4);
    tcase_add_loop_test(tc, killer_diagonals, 0, 2);
    tcase_add_test(tc, killer_unsolvable);
    tcase_add_test(tc, killer_fixtures);
    tcase_add_test(tc, killer_validation_table);
    tcase_add_test(tc, killer_limits);
    tcase_add_loop_test(tc, killer_deadline_heavy_nodes, 0, 2);
    tcase_add_test(tc, killer_options);
    tcase_add_test(tc, killer_alloc_failure);
    tcase_add_test(tc, killer_root_by_cages);
    tcase_add_loop_test(tc, killer_split_partitions, 0, 12);
    tcase_add_test(tc, killer_split_options);
    tcase_add_test(tc, killer_value_order);
    tcase_add_test(tc, killer_interleave_limits);
    suite_add_tcase(s, tc);
    return s;
}
