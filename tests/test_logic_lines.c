/* test_logic_lines.c -- the logic engine on line rules (solvers/sudoku/
 * lines.c) and the grade and hint endpoints on constraints.
 *
 * Every technique on a crafted position (the step it must find, on a model
 * whose lines hold in one known grid, so every elimination is checked
 * against it); soundness on whole puzzles: killers from killer_gen.c and
 * 9x9 grids with random lines of every kind drawn to hold in a known grid,
 * graded to the end with every step checked against that grid (a grid the
 * lines hold in is a solution whether or not it is the only one: a sound
 * step never removes its values); and ISS's examples through the grade
 * and hint endpoints, every step of the path and every hint along it
 * checked against ISS's solution. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sudoku_api.h"
#include "api/sudoku_iss.h"
#include "api/sudoku_logic_api.h"
#include "solvers/sudoku/logic.h"
#include "solvers/sudoku/model.h"
#include "tests/job_harness.h"
#include "tests/killer_gen.h"

/* A 9x9 grid every crafted line below holds in. */
#define GS "395876421764123895218549376827354619436912587951687243582731964673498152149265738"
static const char G[] = GS;

static void grid_of(const char *s, uint8_t *g) {
    for (int c = 0; s[c]; c++)
        g[c] = (uint8_t)(s[c] - '0');
}

/* Relations of pair tables, as api/sudoku_variant.c builds them. */
enum { T_LT, T_GT, T_CONSEC, T_RATIO2, T_SUM10, T_SUM5, T_WHISPER, T_EQ, T_NEQ, T_COUNT };

static int rel(int t, int a, int b) {
    switch (t) {
    case T_LT: return a < b;
    case T_GT: return a > b;
    case T_CONSEC: return a - b == 1 || b - a == 1;
    case T_RATIO2: return a == 2 * b || b == 2 * a;
    case T_SUM10: return a + b == 10;
    case T_SUM5: return a + b == 5;
    case T_WHISPER: return a - b >= 5 || b - a >= 5;
    case T_EQ: return a == b;
    default: return a != b;
    }
}

static void tables9(uint64_t *t) {
    for (int r = 0; r < T_COUNT; r++)
        for (int a = 1; a <= 9; a++) {
            t[r * 9 + a - 1] = 0;
            for (int b = 1; b <= 9; b++)
                if (rel(r, a, b)) t[r * 9 + a - 1] |= (uint64_t)1 << (b - 1);
        }
}

/* A model under construction: lines over cells, the 9x9 tables. */
typedef struct lm_s {
    sudoku_line_t lines[512];
    uint16_t cells[4096];
    uint64_t tables[T_COUNT * 9];
    int nl, at;
} lm_t;

static void lm_line(lm_t *b, int kind, int value, const int *cells, int len) {
    sudoku_line_t *ln = &b->lines[b->nl];
    ck_assert_int_lt(b->nl, 512);
    ck_assert_int_le(b->at + len, 4096);
    ln->kind = (uint8_t)kind;
    ln->value = value;
    ln->first = (uint32_t)b->at;
    ln->len = (uint32_t)len;
    ln->tag = (uint32_t)b->nl;
    for (int i = 0; i < len; i++)
        b->cells[b->at++] = (uint16_t)cells[i];
    b->nl++;
}

static void lm_pair(lm_t *b, int t, int x, int y) {
    int c[2] = {x, y};
    lm_line(b, SUDOKU_LINE_PAIR, t, c, 2);
}

static sudoku_model_t *lm_build(lm_t *b) {
    sudoku_spec_t s;
    sudoku_model_t *m = NULL;
    sudoku_spec_error_t err;
    sudoku_spec_init(&s);
    s.n = 9;
    tables9(b->tables);
    s.nlines = b->nl;
    s.lines = b->lines;
    s.line_cells = b->cells;
    s.npair_tables = T_COUNT;
    s.pair_tables = b->tables;
    ck_assert_msg(sudoku_model_new(&s, NULL, &m, &err) == 0, "model: code %d part %d index %d",
                  err.code, (int)err.part, err.index);
    return m;
}

#define RC(r, c) ((r)*9 + (c))

/* Every elimination false in sol, every placement right. */
static void assert_sound(const sudoku_logic_step_t *s, const uint8_t *sol) {
    ck_assert_msg(sudoku_logic_step_wrong(s, sol) == 0, "%s: a step against the solution",
                  sudoku_tech_name((sudoku_tech_t)s->tech));
}

static int has_elim(const sudoku_logic_step_t *s, int cell, int d) {
    for (int i = 0; i < s->nitems; i++)
        if (s->items[i].kind == SUDOKU_ITEM_ELIM && s->items[i].cell == cell &&
            s->items[i].value == d)
            return 1;
    return 0;
}

/* === Each technique on its position ===================================== */

typedef struct want_s {
    int cell, digit;
} want_t;

typedef struct craft_s {
    const char *name;
    sudoku_tech_t tech;
    int pre; /* steps of easier techniques applied first (-1: all there are) */
    want_t elims[8];
} craft_t;

/* The lines of case i (all hold in G). */
static void craft_lines(int i, lm_t *b) {
    switch (i) {
    case 0: { /* a five-cell thermometer 1 < 2 < 3 < 4 < 5 in row 1 */
        int t[5] = {RC(0, 8), RC(0, 7), RC(0, 0), RC(0, 6), RC(0, 2)};
        for (int k = 0; k + 1 < 5; k++)
            lm_pair(b, T_LT, t[k], t[k + 1]);
        break;
    }
    case 1: lm_pair(b, T_RATIO2, RC(0, 6), RC(0, 7)); break; /* a black dot: 4, 2 */
    case 2: lm_pair(b, T_GT, RC(0, 1), RC(0, 2)); break;     /* 9 > 5 */
    case 3:
    case 4: { /* a cage of two cells adding up to 3 */
        int c[2] = {RC(0, 7), RC(0, 8)};
        lm_line(b, SUDOKU_LINE_CAGE, 3, c, 2);
        break;
    }
    case 5: { /* the circle 9, its arrow 5 + 4 */
        int c[3] = {RC(0, 1), RC(0, 2), RC(0, 6)};
        lm_line(b, SUDOKU_LINE_ARROW, 1, c, 3);
        break;
    }
    case 6: { /* two cells that do not see each other, adding up to 2 */
        int c[2] = {RC(0, 8), RC(2, 1)};
        lm_line(b, SUDOKU_LINE_SUM, 2, c, 2);
        break;
    }
    case 7: lm_pair(b, T_SUM5, RC(1, 4), RC(1, 5)); break; /* a V: 2 + 3 */
    case 8: /* cages in row 1 but its last cell (3 9 | 5 8 | 7 6 | 4 2 | 1): the innie is 1 */
        for (int c = 0; c < 8; c += 2) {
            int cc[2] = {RC(0, c), RC(0, c + 1)};
            lm_line(b, SUDOKU_LINE_CAGE, (G[c] - '0') + (G[c + 1] - '0'), cc, 2);
        }
        break;
    case 9: { /* three cages covering row 2, each with one cell beyond it in another box: the
               * outies r1c9, r1c7 and r3c2 add up to 1 + 4 + 1 = 6 */
        static const int out[3] = {RC(0, 8), RC(0, 6), RC(2, 1)};
        for (int c = 0; c < 9; c += 3) {
            int o = out[c / 3], cc[4] = {RC(1, c), RC(1, c + 1), RC(1, c + 2), o};
            lm_line(b, SUDOKU_LINE_CAGE,
                    (G[9 + c] - '0') + (G[10 + c] - '0') + (G[11 + c] - '0') + (G[o] - '0'), cc, 4);
        }
        break;
    }
    case 10: { /* row 1 (3 9 5 8 7 6 4 2 1) cut: three cages inside it (5 8, 7 6, 4 2),
                * {r1c1 r1c2 r2c1} = 19 and {r1c9 r2c9 r3c9 r4c9} = 21 crossing its edge.
                * Split: r1c9 - r2c1 = 45 - 32 - 19 = -6, so r1c9 keeps 1 2 3 and r2c1
                * 7 8 9; neither row 1's innies (3 cells, 13) nor its outies (4, 27) say it */
        static const int in[3][2] = {{2, 3}, {4, 5}, {6, 7}};
        int g1[3] = {RC(0, 0), RC(0, 1), RC(1, 0)},
            g2[4] = {RC(0, 8), RC(1, 8), RC(2, 8), RC(3, 8)};
        for (int q = 0; q < 3; q++) {
            int cc[2] = {RC(0, in[q][0]), RC(0, in[q][1])};
            lm_line(b, SUDOKU_LINE_CAGE, (G[cc[0]] - '0') + (G[cc[1]] - '0'), cc, 2);
        }
        lm_line(b, SUDOKU_LINE_CAGE, 3 + 9 + 7, g1, 3);
        lm_line(b, SUDOKU_LINE_CAGE, 1 + 5 + 6 + 9, g2, 4);
        break;
    }
    default: /* cages straddling rows 3 and 4, one a column but the last: no cage lies in a
              * row or a box, a column's innies are 7 cells, so only the union of the two rows
              * reads them: its innies r3c9 + r4c9 make 6 + 9 = 15 */
        for (int c = 0; c < 8; c++) {
            int cc[2] = {RC(2, c), RC(3, c)};
            lm_line(b, SUDOKU_LINE_CAGE, (G[RC(2, c)] - '0') + (G[RC(3, c)] - '0'), cc, 2);
        }
        break;
    }
}

static const craft_t crafts[] = {
    {"thermo", SUDOKU_TECH_THERMO, 0, {{RC(0, 8), 6}, {RC(0, 8), 9}, {RC(0, 2), 1}, {RC(0, 2), 4}}},
    {"kropki black", SUDOKU_TECH_PAIR_RELATION, 0, {{RC(0, 7), 5}, {RC(0, 7), 7}, {RC(0, 7), 9}}},
    {"greater-than", SUDOKU_TECH_THERMO, 0, {{RC(0, 1), 1}, {RC(0, 2), 9}}},
    {"cage combination", SUDOKU_TECH_CAGE_COMBINATION, 0, {{RC(0, 7), 3}, {RC(0, 8), 9}}},
    {"cage locked", SUDOKU_TECH_CAGE_LOCKED, 1, {{RC(0, 0), 1}, {RC(1, 8), 1}}},
    {"arrow", SUDOKU_TECH_ARROW, 0, {{RC(0, 1), 1}, {RC(0, 2), 9}, {RC(0, 6), 9}}},
    {"machine sum", SUDOKU_TECH_CONSTRAINT, 0, {{RC(0, 8), 2}, {RC(2, 1), 9}}},
    {"v", SUDOKU_TECH_PAIR_RELATION, 0, {{RC(1, 5), 5}, {RC(1, 5), 9}}},
    {"innies", SUDOKU_TECH_INNIES_OUTIES, -1, {{RC(0, 8), 2}, {RC(0, 8), 9}}},
    {"outies", SUDOKU_TECH_INNIES_OUTIES, -1, {{RC(2, 1), 9}, {RC(0, 8), 9}}},
    {"split",
     SUDOKU_TECH_CAGE_SPLITTING,
     -1,
     {{RC(0, 8), 4}, {RC(0, 8), 8}, {RC(1, 0), 3}, {RC(1, 0), 6}}},
    {"union innies", SUDOKU_TECH_INNIES_OUTIES, -1, {{RC(2, 8), 1}, {RC(3, 8), 1}}},
};
#define NCRAFT (sizeof crafts / sizeof crafts[0])

START_TEST(logic_lines_each_technique_on_its_position) {
    const craft_t *cr = &crafts[_i];
    static lm_t b;
    uint8_t sol[81], empty[81] = {0};
    sudoku_logic_opts_t o;
    sudoku_logic_step_t *step = malloc(sizeof *step);
    sudoku_model_t *m;
    sudoku_logic_t *st;
    memset(&b, 0, sizeof b);
    grid_of(G, sol);
    craft_lines((int)_i, &b);
    m = lm_build(&b);
    ck_assert_int_eq(sudoku_model_check_solution(m, empty, sol), 1);
    st = sudoku_logic_new_model(m);
    ck_assert_ptr_nonnull(st);
    ck_assert_int_eq(sudoku_logic_load(st, empty), 0);
    sudoku_logic_opts_init(&o);
    o.solution = sol;
    for (int p = 0; p < cr->pre || (cr->pre < 0 && p < 200); p++) {
        o.max_tech = (sudoku_tech_t)(cr->tech - 1);
        if (cr->pre < 0 && sudoku_logic_next(st, &o, step, NULL) == 0) break;
        o.max_tech = SUDOKU_TECH_GUESS;
        if (cr->pre >= 0) ck_assert_int_eq(sudoku_logic_next(st, &o, step, NULL), 1);
        ck_assert_int_lt(step->tech, cr->tech);
        assert_sound(step, sol);
        ck_assert_int_eq(sudoku_logic_apply(st, step), 0);
    }
    o.max_tech = SUDOKU_TECH_GUESS;
    if (cr->tech > 0) { /* nothing easier applies */
        o.max_tech = (sudoku_tech_t)(cr->tech - 1);
        ck_assert_msg(sudoku_logic_next(st, &o, step, NULL) == 0, "%s: %s applies first", cr->name,
                      sudoku_tech_name((sudoku_tech_t)step->tech));
        o.max_tech = SUDOKU_TECH_GUESS;
    }
    ck_assert_int_eq(sudoku_logic_next(st, &o, step, NULL), 1);
    ck_assert_msg(step->tech == cr->tech, "%s: want %s, got %s", cr->name,
                  sudoku_tech_name(cr->tech), sudoku_tech_name((sudoku_tech_t)step->tech));
    if (cr->tech == SUDOKU_TECH_CAGE_SPLITTING) { /* row 1; r1c9 counted in, r2c1 out */
        ck_assert_int_eq(m->unit_kind[step->unit[0]], SUDOKU_UNIT_ROW);
        ck_assert_int_eq(step->unit[1], -1);
        ck_assert_int_eq(step->digit, 2);
        ck_assert_int_eq((int32_t)step->digits, -6);
    } else if (cr->tech != SUDOKU_TECH_INNIES_OUTIES) {
        ck_assert_int_ge(step->line, 0);
        ck_assert_int_lt(step->line, m->nlines);
    } else { /* the unit (rows 3 and 4 for the union), and which of the two */
        ck_assert_int_ge(step->unit[0], 0);
        ck_assert_int_eq(step->digit, strcmp(cr->name, "outies") == 0);
        if (strcmp(cr->name, "union innies") == 0) {
            ck_assert_int_eq(m->unit_kind[step->unit[0]], SUDOKU_UNIT_ROW);
            ck_assert_int_eq(m->unit_kind[step->unit[1]], SUDOKU_UNIT_ROW);
            ck_assert(has_elim(step, RC(2, 8), 1) || has_elim(step, RC(3, 8), 1));
        } else {
            ck_assert_int_eq(step->unit[1], -1); /* one unit, found before any union */
        }
    }
    for (int k = 0; k < 8 && cr->elims[k].digit; k++)
        ck_assert_msg(has_elim(step, cr->elims[k].cell, cr->elims[k].digit),
                      "%s: %d should leave cell %d", cr->name, cr->elims[k].digit,
                      cr->elims[k].cell);
    assert_sound(step, sol);
    ck_assert_int_eq(sudoku_logic_apply(st, step), 0);
    ck_assert_int_eq(sudoku_logic_check(st), 0);
    sudoku_logic_free(st);
    sudoku_model_free(m);
    free(step);
}
END_TEST

/* The thermo bound in numbers: the bulb of the five-cell thermometer keeps
 * 1..5 and the tip 5..9, in one step (the whole web at once). */
START_TEST(logic_lines_thermo_bounds_the_whole_line) {
    static lm_t b;
    uint8_t empty[81] = {0};
    sudoku_logic_step_t *step = malloc(sizeof *step);
    sudoku_model_t *m;
    sudoku_logic_t *st;
    memset(&b, 0, sizeof b);
    craft_lines(0, &b);
    m = lm_build(&b);
    st = sudoku_logic_new_model(m);
    ck_assert_int_eq(sudoku_logic_load(st, empty), 0);
    ck_assert_int_eq(sudoku_logic_next(st, NULL, step, NULL), 1);
    ck_assert_int_eq(step->tech, SUDOKU_TECH_THERMO);
    ck_assert_int_eq(sudoku_logic_apply(st, step), 0);
    ck_assert_uint_eq(sudoku_logic_cand(st, RC(0, 8)), 0x1fu);  /* 1..5 */
    ck_assert_uint_eq(sudoku_logic_cand(st, RC(0, 7)), 0x3eu);  /* 2..6 */
    ck_assert_uint_eq(sudoku_logic_cand(st, RC(0, 2)), 0x1f0u); /* 5..9 */
    sudoku_logic_free(st);
    sudoku_model_free(m);
    free(step);
}
END_TEST

/* The line techniques' weights and levels, and the generator's scale
 * without them (its puzzles have no lines): a window at cage-combination's
 * 1.6 or innies-outies' 2.8 is still a gap to it. */
START_TEST(logic_lines_weights) {
    static const sudoku_tech_t lt[] = {SUDOKU_TECH_CAGE_COMBINATION, SUDOKU_TECH_PAIR_RELATION,
                                       SUDOKU_TECH_THERMO,           SUDOKU_TECH_ARROW,
                                       SUDOKU_TECH_CAGE_LOCKED,      SUDOKU_TECH_INNIES_OUTIES,
                                       SUDOKU_TECH_CONSTRAINT};
    for (size_t i = 0; i < sizeof lt / sizeof lt[0]; i++) {
        double w = sudoku_tech_weight(lt[i]);
        sudoku_tech_t back;
        ck_assert_int_eq(sudoku_tech_parse(sudoku_tech_name(lt[i]), &back), 0);
        ck_assert_int_eq(back, lt[i]);
        ck_assert(sudoku_grade_level_of(w) == sudoku_tech_level(lt[i]));
        if (lt[i] != SUDOKU_TECH_CONSTRAINT) /* 10.0 is trial's too */
            ck_assert_msg(!sudoku_grade_rating_possible(w, w + 0.05), "%s",
                          sudoku_tech_name(lt[i]));
    }
    ck_assert(sudoku_tech_level(SUDOKU_TECH_CONSTRAINT) == SUDOKU_GRADE_BEYOND);
    ck_assert(sudoku_tech_level(SUDOKU_TECH_THERMO) == SUDOKU_GRADE_EASY);
}
END_TEST

/* === Soundness on whole puzzles ========================================= */

typedef struct chk_s {
    const uint8_t *sol;
    int bad, steps;
    uint32_t counts[SUDOKU_TECH_COUNT];
} chk_t;

static int on_step(void *ud, const sudoku_logic_t *st, const sudoku_logic_step_t *s) {
    chk_t *c = ud;
    (void)st;
    c->bad += sudoku_logic_step_wrong(s, c->sol);
    c->counts[s->tech]++;
    c->steps++;
    return 0;
}

/* Grades puzzle on m to the end, every step against sol; the path must
 * end at sol.  Adds the techniques used to seen[]. */
static void grade_sound(const sudoku_model_t *m, const uint8_t *puzzle, const uint8_t *sol,
                        uint32_t *seen, const char *what) {
    sudoku_logic_t *st = sudoku_logic_new_model(m);
    sudoku_logic_opts_t o;
    sudoku_grade_t g;
    chk_t c;
    uint8_t end[81];
    ck_assert_ptr_nonnull(st);
    memset(&c, 0, sizeof c);
    c.sol = sol;
    sudoku_logic_opts_init(&o);
    o.solution = sol;
    o.on_step = on_step;
    o.ud = &c;
    ck_assert_int_eq(sudoku_logic_load(st, puzzle), 0);
    ck_assert_int_eq(sudoku_logic_grade(st, &o, &g), 0);
    ck_assert_msg(c.bad == 0, "%s: %d items against the solution", what, c.bad);
    ck_assert_msg(g.solved, "%s: not finished", what);
    sudoku_logic_grid(st, end);
    ck_assert_msg(memcmp(end, sol, 81) == 0, "%s: ends elsewhere", what);
    ck_assert_uint_eq(g.counts[SUDOKU_TECH_UNIQUE_RECTANGLE], 0);
    for (int t = 0; t < SUDOKU_TECH_COUNT; t++)
        seen[t] += c.counts[t];
    /* graded again on the same state (the 45 rule's memo now holds what
     * the first grade last read): the same path, and the same work */
    sudoku_grade_t again;
    o.on_step = NULL;
    ck_assert_int_eq(sudoku_logic_load(st, puzzle), 0);
    ck_assert_int_eq(sudoku_logic_grade(st, &o, &again), 0);
    ck_assert_msg(again.work == g.work && again.steps == g.steps && again.rating == g.rating,
                  "%s: graded again, work %llu steps %u rating %.3f (first %llu %u %.3f)", what,
                  (unsigned long long)again.work, again.steps, again.rating,
                  (unsigned long long)g.work, g.steps, g.rating);
    sudoku_logic_free(st);
}

/* Killers of killer_gen.c (cages covering the grid, no givens; cages of
 * up to 2..6 cells) as CAGE lines: graded to the end, sound; the cage
 * techniques turn up, cage-splitting too (6 steps on these 16). */
START_TEST(logic_lines_killers_are_sound) {
    static gen_t g;
    static lm_t b;
    uint32_t seen[SUDOKU_TECH_COUNT] = {0};
    uint8_t empty[81] = {0};
    for (unsigned k = 0; k < 16; k++) {
        unsigned seed = 1234 + 77 * k;
        sudoku_model_t *m;
        char what[32];
        kg_gen_init(&g, 9, 3, 3);
        kg_make_grid(9, 3, 3, &seed, g.grid);
        kg_make_cages(&g, 2 + (int)(k % 5), 100, &seed);
        memset(&b, 0, sizeof b);
        for (int c = 0; c < g.pz.ncages; c++) {
            int cells[9];
            for (int i = 0; i < g.pz.cages[c].ncells; i++)
                cells[i] = g.pz.cages[c].cells[i].r * 9 + g.pz.cages[c].cells[i].c;
            lm_line(&b, SUDOKU_LINE_CAGE, (int)g.pz.cages[c].sum, cells, g.pz.cages[c].ncells);
        }
        m = lm_build(&b);
        snprintf(what, sizeof what, "killer %u", k);
        grade_sound(m, empty, g.grid, seen, what);
        sudoku_model_free(m);
    }
    ck_assert_uint_gt(seen[SUDOKU_TECH_CAGE_COMBINATION], 0);
    ck_assert_uint_gt(seen[SUDOKU_TECH_CAGE_LOCKED], 0);
    ck_assert_uint_gt(seen[SUDOKU_TECH_INNIES_OUTIES], 0);
    ck_assert_uint_gt(seen[SUDOKU_TECH_CAGE_SPLITTING], 0);
}
END_TEST

static uint64_t xs(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Random lines of every kind that hold in G: pair lines of every relation
 * G's neighbours keep, thermometers, arrows, sums, renban, between,
 * sandwiches and skyscrapers on rows. */
static void random_lines(lm_t *b, const uint8_t *sol, uint64_t *x) {
    for (int k = 0; k < 12; k++) { /* pair lines between orthogonal neighbours */
        int c = (int)(xs(x) % 81), d = xs(x) % 2 ? c + 1 : c + 9, t = (int)(xs(x) % T_COUNT);
        if ((d == c + 1 && c % 9 == 8) || d >= 81) continue;
        for (int tries = 0; tries < T_COUNT && !rel(t, sol[c], sol[d]); tries++)
            t = (t + 1) % T_COUNT;
        if (rel(t, sol[c], sol[d])) lm_pair(b, t, c, d);
    }
    for (int k = 0; k < 3; k++) { /* a thermometer: a walk to larger neighbours */
        int c = (int)(xs(x) % 81), len = 1;
        for (int step = 0; step < 5; step++) {
            int nb[4] = {c - 9, c + 9, c % 9 ? c - 1 : -1, c % 9 < 8 ? c + 1 : -1}, next = -1;
            for (int j = 0; j < 4; j++)
                if (nb[j] >= 0 && nb[j] < 81 && sol[nb[j]] > sol[c] &&
                    (next < 0 || sol[nb[j]] < sol[next]))
                    next = nb[j];
            if (next < 0) break;
            lm_pair(b, T_LT, c, next);
            c = next;
            len++;
        }
    }
    for (int k = 0; k < 3; k++) { /* an arrow: a circle and two cells adding up to it */
        int h = (int)(xs(x) % 81), a = (int)(xs(x) % 81);
        for (int z = 0; z < 81; z++)
            if (z != h && z != a && a != h && sol[a] + sol[z] == sol[h]) {
                int c[3] = {h, a, z};
                lm_line(b, SUDOKU_LINE_ARROW, 1, c, 3);
                break;
            }
    }
    for (int k = 0; k < 2; k++) { /* a sum of three cells */
        int c[3] = {(int)(xs(x) % 81), 0, 0};
        c[1] = (c[0] + 10) % 81;
        c[2] = (c[0] + 20) % 81;
        lm_line(b, SUDOKU_LINE_SUM, sol[c[0]] + sol[c[1]] + sol[c[2]], c, 3);
    }
    {
        int r = (int)(xs(x) % 9), cells[9], in = 0, sum = 0, seen = 0, top = 0;
        for (int i = 0; i < 9; i++) {
            int v = sol[r * 9 + i];
            cells[i] = r * 9 + i;
            if (v == 1 || v == 9)
                in = !in;
            else if (in)
                sum += v;
            if (v > top) top = v, seen++;
        }
        lm_line(b, SUDOKU_LINE_SANDWICH, sum, cells, 9);
        lm_line(b, SUDOKU_LINE_SKYSCRAPER, seen, cells, 9);
    }
    for (int r = 0; r < 9; r++) /* renban: a run of three consecutive values in a row */
        for (int i = 0; i + 2 < 9; i++) {
            int a = sol[r * 9 + i], bb = sol[r * 9 + i + 1], c = sol[r * 9 + i + 2];
            int lo = a < bb ? (a < c ? a : c) : (bb < c ? bb : c);
            int hi = a > bb ? (a > c ? a : c) : (bb > c ? bb : c);
            if (hi - lo == 2 && xs(x) % 3 == 0) {
                int cells[3] = {r * 9 + i, r * 9 + i + 1, r * 9 + i + 2};
                lm_line(b, SUDOKU_LINE_RENBAN, 0, cells, 3);
                if ((bb > a && bb < c) || (bb < a && bb > c)) /* and between, when it holds */
                    lm_line(b, SUDOKU_LINE_BETWEEN, 0, cells, 3);
            }
        }
}

START_TEST(logic_lines_random_lines_are_sound) {
    static lm_t b;
    uint32_t seen[SUDOKU_TECH_COUNT] = {0};
    uint8_t sol[81], puzzle[81];
    uint64_t x = 0x9e3779b97f4a7c15ull;
    grid_of(G, sol);
    for (int k = 0; k < 8; k++) {
        sudoku_model_t *m;
        char what[32];
        memset(&b, 0, sizeof b);
        random_lines(&b, sol, &x);
        m = lm_build(&b);
        for (int c = 0; c < 81; c++) /* a few givens: the lines do most of the work */
            puzzle[c] = xs(&x) % 5 == 0 ? sol[c] : 0;
        snprintf(what, sizeof what, "lines %d", k);
        ck_assert_int_eq(sudoku_model_check_solution(m, puzzle, sol), 1);
        grade_sound(m, puzzle, sol, seen, what);
        sudoku_model_free(m);
    }
    ck_assert_uint_gt(seen[SUDOKU_TECH_PAIR_RELATION], 0);
    ck_assert_uint_gt(seen[SUDOKU_TECH_THERMO], 0);
    ck_assert_uint_gt(seen[SUDOKU_TECH_CONSTRAINT], 0);
}
END_TEST

/* === The endpoints ====================================================== */

/* From sigh/Interactive-Sudoku-Solver@e373f98, data/example_puzzles.js
 * (MIT), as tests/test_sudoku_iss.c holds them: the text, the signal the
 * grade must give (search where a line has no person's technique here)
 * and ISS's solution. */
static const struct {
    const char *name, *signal, *text, *solution;
} iss[] = {
    {"Thermo", "techniques",
     ".~R1C2_4~R1C8_1~R2C1_2~R2C9_6~R8C1_9~R8C9_2~R9C2_1~R9C8_9.Thermo~R9C4~R8C3~R7C2~R6C1~R5C2~"
     "R4C3.Thermo~R4C1~R3C2~R2C3~R1C4~R2C5~R3C6.Thermo~R1C6~R2C7~R3C8~R4C9~R5C8~R6C7.Thermo~R6C9"
     "~R7C8~R8C7~R9C6~R8C5~R7C4",
     "847632519295471386631598247129743865486259173753816924368924751974185632512367498"},
    {"German Whispers", "techniques",
     ".Whisper~R8C1~R7C1~R7C2~R8C3~R9C3~R9C2.Whisper~R9C6~R8C7~R7C7~R7C8~R6C9~R5C8.Whisper~R6C3~"
     "R5C2~R4C3~R3C4~R2C5~R1C6~R1C7~R2C8~R3C8~R4C7~R5C6~R6C6~R7C6~R8C5~R7C4.Whisper~R4C5~R4C6~R3"
     "C7.~R1C5_1~R2C2_5~R5C1_6~R5C9_9~R7C3_3~R8C8_3~R9C1_5~R9C5_3",
     "796413852352689417184275693247591386615348279839762541923857164478126935561934728"},
    {"Arrow", "techniques",
     ".Arrow~R1C5~R2C4~R3C3~R4C2~R5C1.Arrow~R3C7~R2C6~R3C5~R4C4~R5C3.Arrow~R6C2~R7C3~R6C4~R5C5~R"
     "4C6.Arrow~R7C4~R7C5~R7C6.Arrow~R6C7~R5C7~R4C7.Arrow~R5C9~R6C8~R7C7~R8C6~R9C5.~R1C2_6~R1C9_"
     "9~R2C1_9~R8C9_3~R9C1_4~R9C8_7",
     "167584329985362417342719856718293645253647198694158732571936284829471563436825971"},
    {"Double arrow", "techniques",
     ".DoubleArrow~R1C4~R1C5~R1C6~R1C7.DoubleArrow~R2C3~R2C4~R2C5~R2C6.DoubleArrow~R3C2~R3C3~R3C"
     "4~R3C5.DoubleArrow~R4C1~R4C2~R4C3~R4C4.DoubleArrow~R4C5~R5C5~R6C5.DoubleArrow~R6C6~R6C7~R6"
     "C8~R6C9.DoubleArrow~R7C5~R7C6~R7C7~R7C8.DoubleArrow~R8C4~R8C5~R8C6~R8C7.DoubleArrow~R9C3~R"
     "9C4~R9C5~R9C6.~R9C1_3~R4C1_1~R4C4_5~R3C2_2~R2C3_3~R1C4_4~R1C7_8~R2C6_7~R3C5_6~R6C6_9~R6C9_"
     "1~R7C5_8~R8C4_7~R9C3_6~R9C6_4~R8C7_4~R7C8_1",
     "561493872493827165827165943142538697689271354735649281954382716218756439376914528"},
    {"Little Killer Sudoku", "search",
     ".~R3C2_5~R3C7_2~R5C4_3~R5C5_7.LittleKiller~22~R1C1.LittleKiller~28~R2C1.LittleKiller~26~R3"
     "C1.LittleKiller~23~R1C5.LittleKiller~34~R1C7.LittleKiller~40~R1C8.LittleKiller~42~R1C9",
     "198235764427968531653714289732186945541379826986542173865421397279653418314897652"},
    {"Skyscraper", "search",
     ".~R1C1_1~R1C6_2~R1C9_8~R3C1_3~R3C4_6~R3C7_4~R5C1_5~R5C3_2~R5C6_3~R7C1_7~R7C4_8~R7C7_2~R9C9"
     "_6~R9C6_4~R9C1_9.Skyscraper~C5~5.Skyscraper~R2~2.Skyscraper~R4~4.Skyscraper~R6~6.Skyscrape"
     "r~R8~8",
     "147932658826145937359678412678419325592783164413256789765891243234567891981324576"},
    {"XV Kropki Sudoku", "techniques",
     ".X~R2C1~R2C2.X~R3C1~R3C2.X~R1C8~R1C7.X~R2C7~R2C8.X~R7C8~R8C8.X~R7C9~R8C9.X~R8C3~R9C3.X~R8C"
     "2~R9C2.X~R5C4~R5C5.V~R8C2~R8C3.V~R8C8~R8C9.V~R2C1~R3C1.V~R1C7~R2C7.BlackDot~R2C5~R2C6.Blac"
     "kDot~R4C6~R5C6.BlackDot~R5C6~R6C6.BlackDot~R3C1~R4C1.WhiteDot~R3C3~R3C2.WhiteDot~R4C3~R5C3"
     ".WhiteDot~R8C4~R8C5.WhiteDot~R8C6~R8C7.WhiteDot~R5C2~R6C2",
     "195287463284536197376149825657912384918374256423658719532461978741895632869723541"},
    {"Fortress", "techniques",
     ".~R1C1_4~R1C4_1~R1C6_2~R3C6_4~R3C4_3~R4C3_8~R6C1_7~R7C4_6~R7C6_7~R9C6_9~R9C4_8~R9C9_2~R6C9"
     "_3~R4C7_1~R3C7_7.GreaterThan~R1C8~R2C8~R1C7~R1C9.GreaterThan~R2C5~R2C4~R1C5~R2C6~R3C5.Grea"
     "terThan~R5C8~R4C8~R5C9~R6C8~R5C7.GreaterThan~R4C5~R3C5~R4C4~R4C6~R5C5.GreaterThan~R6C5~R5C"
     "5~R6C4~R6C6~R7C5.GreaterThan~R8C5~R7C5~R8C4~R8C6~R9C5.GreaterThan~R9C2~R8C2~R9C1~R9C3.Grea"
     "terThan~R5C2~R5C1~R4C2~R5C3~R6C2.GreaterThan~R4C1~R4C2~R3C1~R5C1",
     "437182596681795324295364718328576149164938275759241863843627951912453687576819432"},
    {"Sudoku Variants Series (013) - Palindrome Sudoku", "techniques",
     ".Palindrome~R7C1~R6C2~R5C1~R4C2~R3C3~R2C4~R1C5~R2C6~R1C7.Palindrome~R9C3~R8C4~R9C5~R8C6~R7"
     "C7~R6C8~R5C9~R4C8~R3C9.Palindrome~R7C4~R7C5~R7C6~R6C7~R5C7~R4C7.Palindrome~R3C6~R3C5~R3C4~"
     "R4C3~R5C3~R6C3.~R1C1_6~R1C9_5~R2C3_8~R2C5_5~R2C7_9~R4C1_8~R4C5_1~R4C9_3~R5C5_4~R6C5_2~R8C1"
     "_9~R8C3_7~R8C7_8~R8C9_2~R9C2_5~R9C8_6",
     "694178235128453976375296481842619753719345628536827149283761594967534812451982367"},
    {"Modular Lines 1", "techniques",
     ".Modular~3~R2C5~R2C4~R2C3~R2C2~R3C2~R4C2~R5C2.Modular~3~R7C1~R8C1~R8C2~R7C2.Modular~3~R4C3"
     "~R5C3~R6C3~R7C3~R8C3~R9C3~R9C2.Modular~3~R6C4~R5C4~R4C4~R4C5~R4C6~R5C6~R6C6.Modular~3~R5C8"
     "~R6C8~R7C8~R8C8~R8C7~R8C6~R8C5.Modular~3~R3C8~R2C8~R2C9~R3C9.Modular~3~R1C9~R1C8~R1C7~R2C7"
     "~R3C7~R4C7~R5C7~R6C7.Cage~21~R1C1~R1C2~R2C2~R2C1.Cage~22~R4C1~R5C1~R6C1.Cage~3~R4C4~R4C3.C"
     "age~3~R6C3~R6C4.Cage~10~R6C5~R7C5~R8C5.Cage~22~R2C5~R3C5~R4C5.Cage~7~R4C6~R4C7.Cage~8~R6C6"
     "~R6C7.Cage~15~R4C9~R5C9~R6C9.Cage~13~R8C8~R8C9~R9C9~R9C8.",
     "359427168764891523128356974972183456536974812841265397415632789293718645687549231"},
};
#define NISS (sizeof iss / sizeof iss[0])

/* The body of ISS's text as JSON, with `extra` members added. */
static char *iss_json(const char *text, const char *extra) {
    api_sudoku_iss_t is;
    api_problem_t p;
    json_t *add;
    char *s;
    api_sudoku_iss_init(&is);
    api_problem_init(&p, API_EINVALID, "x");
    ck_assert_int_eq(api_sudoku_iss_read(text, strlen(text), &is, &p), 0);
    add = json_loads(extra, 0, NULL);
    ck_assert_ptr_nonnull(add);
    json_object_update(is.body, add);
    json_decref(add);
    s = json_dumps(is.body, JSON_COMPACT);
    api_sudoku_iss_destroy(&is);
    return s;
}

/* A step of an answer against the solution (81 digits): placements right,
 * eliminations wrong.  Applies the placements to grid. */
static void step_sound(json_t *step, const char *sol, char *grid, const char *what) {
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(step, "placements"), i, v) {
        json_t *cell = json_object_get(v, "cell");
        int c = (int)(json_integer_value(json_array_get(cell, 0)) * 9 +
                      json_integer_value(json_array_get(cell, 1)));
        int d = (int)json_integer_value(json_object_get(v, "value"));
        ck_assert_msg(sol[c] - '0' == d, "%s: %s places %d wrongly", what,
                      json_string_value(json_object_get(step, "explanation")), d);
        grid[c] = (char)('0' + d);
    }
    json_array_foreach(json_object_get(step, "eliminations"), i, v) {
        json_t *cell = json_object_get(v, "cell"), *d;
        int c = (int)(json_integer_value(json_array_get(cell, 0)) * 9 +
                      json_integer_value(json_array_get(cell, 1)));
        size_t j;
        json_array_foreach(json_object_get(v, "values"), j, d) ck_assert_msg(
            sol[c] - '0' != json_integer_value(d), "%s: %s removes the true %d", what,
            json_string_value(json_object_get(step, "explanation")), (int)json_integer_value(d));
    }
}

/* ISS's examples graded with their steps: every step sound, the constraint
 * named on the line techniques' steps, a signal; then a hint on the
 * position after each placement of the path, each sound, until solved. */
START_TEST(logic_lines_api_grade_and_hints_follow_the_solution) {
    for (size_t e = 0; e < NISS; e++) {
        char *body = iss_json(iss[e].text, "{\"steps\": true}"), grid[82];
        tjob_t t = tjob_call(api_sudoku_grade_prepare, "application/json", NULL, body, NULL, 0);
        json_t *steps, *s, *given;
        size_t i;
        int lines = 0, hints = 0;
        ck_assert_msg(t.status == 200, "%s: %d %s", iss[e].name, t.status, t.body);
        ck_assert_str_eq(json_string_value(json_object_get(t.json, "status")), "graded");
        ck_assert_str_eq(json_string_value(json_object_get(t.json, "signal")), iss[e].signal);
        ck_assert(
            json_is_integer(json_object_get(json_object_get(t.json, "stats"), "search_nodes")));
        given = json_loads(body, 0, NULL);
        snprintf(grid, sizeof grid, "%s", json_string_value(json_object_get(given, "grid")));
        for (i = 0; i < 81; i++)
            if (grid[i] == '.') grid[i] = '0';
        steps = json_object_get(t.json, "steps");
        ck_assert(json_array_size(steps) > 0);
        json_array_foreach(steps, i, s) {
            char before[82];
            memcpy(before, grid, 82);
            step_sound(s, iss[e].solution, grid, iss[e].name);
            if (json_object_get(s, "constraint") != NULL) {
                lines++;
                ck_assert(strstr(json_string_value(json_object_get(s, "explanation")),
                                 "on constraints[") != NULL);
            }
            if (memcmp(before, grid, 82) != 0 && hints < 12 && i % 3 == 0) {
                /* a hint on the position before this step */
                json_t *hb = json_deep_copy(given), *a;
                char *hs;
                tjob_t h;
                json_object_set_new(hb, "grid", json_string(before));
                json_object_del(hb, "steps");
                hs = json_dumps(hb, JSON_COMPACT);
                h = tjob_call(api_sudoku_hint_prepare, "application/json", NULL, hs, NULL, 0);
                ck_assert_msg(h.status == 200, "%s hint: %d %s", iss[e].name, h.status, h.body);
                ck_assert_str_eq(json_string_value(json_object_get(h.json, "status")), "hint");
                a = json_object_get(h.json, "step");
                ck_assert_ptr_nonnull(json_object_get(a, "explanation"));
                ck_assert_ptr_nonnull(json_object_get(a, "machine"));
                {
                    char scratch[82];
                    memcpy(scratch, before, 82);
                    step_sound(a, iss[e].solution, scratch, iss[e].name);
                }
                tjob_free(&h);
                free(hs);
                json_decref(hb);
                hints++;
            }
        }
        ck_assert_msg(lines > 0, "%s: no step read a constraint", iss[e].name);
        ck_assert_msg(memcmp(grid, iss[e].solution, 81) == 0, "%s: the path ends elsewhere",
                      iss[e].name);
        ck_assert_int_gt(hints, 0);
        json_decref(given);
        tjob_free(&t);
        free(body);
    }
}
END_TEST

/* A sandwich needs the machine step: the signal says "search". */
START_TEST(logic_lines_api_machine_signal) {
    /* G's rows as sandwiches (their sums between 1 and 9), a third of G given */
    char body[4096], grid[82];
    int at = 0;
    for (int c = 0; c < 81; c++)
        grid[c] = c % 2 == 0 ? G[c] : '.';
    grid[81] = '\0';
    at += snprintf(body + at, sizeof body - (size_t)at, "{\"grid\":\"%s\",\"constraints\":[", grid);
    for (int r = 0; r < 9; r++) {
        int in = 0, sum = 0;
        for (int i = 0; i < 9; i++) {
            int v = G[r * 9 + i] - '0';
            if (v == 1 || v == 9)
                in = !in;
            else if (in)
                sum += v;
        }
        at += snprintf(body + at, sizeof body - (size_t)at,
                       "%s{\"type\":\"sandwich\",\"row\":%d,\"sum\":%d}", r ? "," : "", r, sum);
    }
    snprintf(body + at, sizeof body - (size_t)at, "],\"steps\":true}");
    tjob_t t = tjob_call(api_sudoku_grade_prepare, "application/json", NULL, body, NULL, 0);
    ck_assert_msg(t.status == 200, "%d %s", t.status, t.body);
    {
        const char *sig = json_string_value(json_object_get(t.json, "signal"));
        json_t *tech = json_object_get(t.json, "techniques");
        ck_assert_ptr_nonnull(sig);
        if (json_object_get(tech, "constraint") != NULL) {
            ck_assert_str_eq(sig, "search");
            ck_assert_str_eq(json_string_value(json_object_get(t.json, "level")), "beyond-logic");
        } else {
            ck_assert_str_eq(sig, "techniques");
        }
    }
    tjob_free(&t);
}
END_TEST

/* Hints played to the end through the endpoint, as a player would: each
 * hint's placements entered, its eliminations kept as pencil marks (the
 * values a cell has left), every hint checked against ISS's solution,
 * until the answer is "solved"; a wrong pencil mark is then named. */
START_TEST(logic_lines_api_hints_played_to_the_end) {
    static const int which[] = {0, 4, 5, 6, 9}; /* Thermo, Little Killer, Skyscraper, XV, Modular */
    for (size_t w = 0; w < sizeof which / sizeof which[0]; w++) {
        const char *sol = iss[which[w]].solution;
        char *body = iss_json(iss[which[w]].text, "{}"), grid[82], *hs;
        json_t *req = json_loads(body, 0, NULL), *a;
        uint32_t gone[81] = {0};
        int hints = 0, solved = 0, machine = 0;
        snprintf(grid, sizeof grid, "%s", json_string_value(json_object_get(req, "grid")));
        json_object_set(req, "givens", json_object_get(req, "grid"));
        while (!solved && hints < 2000) {
            json_t *pencil = json_array();
            tjob_t h;
            for (int c = 0; c < 81; c++)
                if (grid[c] == '.' && gone[c]) {
                    json_t *vals = json_array();
                    for (int d = 1; d <= 9; d++)
                        if (!(gone[c] >> d & 1)) json_array_append_new(vals, json_integer(d));
                    json_array_append_new(
                        pencil, json_pack("{s:[i,i],s:o}", "cell", c / 9, c % 9, "values", vals));
                }
            json_object_set_new(req, "grid", json_string(grid));
            json_object_set_new(req, "pencil", pencil);
            hs = json_dumps(req, JSON_COMPACT);
            h = tjob_call(api_sudoku_hint_prepare, "application/json", NULL, hs, NULL, 0);
            ck_assert_msg(h.status == 200, "%s: %d %s", iss[which[w]].name, h.status, h.body);
            const char *st = json_string_value(json_object_get(h.json, "status"));
            if (strcmp(st, "solved") == 0) {
                solved = 1;
            } else {
                size_t i, k;
                json_t *v, *d;
                ck_assert_msg(strcmp(st, "hint") == 0, "%s: %s", iss[which[w]].name, h.body);
                a = json_object_get(h.json, "step");
                machine += json_is_true(json_object_get(a, "machine"));
                step_sound(a, sol, grid, iss[which[w]].name);
                for (int c = 0; c < 81; c++)
                    if (grid[c] == '0') grid[c] = '.';
                json_array_foreach(json_object_get(a, "eliminations"), i, v) {
                    json_t *cell = json_object_get(v, "cell");
                    int c = (int)(json_integer_value(json_array_get(cell, 0)) * 9 +
                                  json_integer_value(json_array_get(cell, 1)));
                    json_array_foreach(json_object_get(v, "values"), k, d) gone[c] |=
                        1u << json_integer_value(d);
                }
                hints++;
            }
            tjob_free(&h);
            free(hs);
        }
        ck_assert_msg(solved, "%s: not solved after %d hints", iss[which[w]].name, hints);
        ck_assert_msg(memcmp(grid, sol, 81) == 0, "%s: ends elsewhere", iss[which[w]].name);
        ck_assert_int_eq(machine > 0, strcmp(iss[which[w]].signal, "search") == 0);
        /* a pencil mark that leaves out the solution's value: "wrong", naming it */
        for (int c = 0; c < 81; c++)
            if (json_string_value(json_object_get(req, "givens"))[c] == '.') {
                grid[c] = '.';
                json_object_set_new(req, "grid", json_string(grid));
                json_object_set_new(req, "pencil",
                                    json_pack("[{s:[i,i],s:[i]}]", "cell", c / 9, c % 9, "values",
                                              sol[c] - '0' == 1 ? 2 : 1));
                hs = json_dumps(req, JSON_COMPACT);
                tjob_t h =
                    tjob_call(api_sudoku_hint_prepare, "application/json", NULL, hs, NULL, 0);
                ck_assert_int_eq(h.status, 200);
                ck_assert_str_eq(json_string_value(json_object_get(h.json, "status")), "wrong");
                ck_assert_int_eq(json_array_size(json_object_get(h.json, "pencil")), 1);
                tjob_free(&h);
                free(hs);
                break;
            }
        json_decref(req);
        free(body);
    }
}
END_TEST

/* prep's answer to body is a problem of `status` whose text holds `words`
 * (or whose errors name it, for a 400). */
static void expect_problem(api_prepare_fn prep, const char *body, int status, const char *words) {
    tjob_t t = tjob_call(prep, "application/json", NULL, body, NULL, 0);
    ck_assert_msg(t.status == status, "%d %s", t.status, t.body);
    ck_assert_msg(status == 400 ? tjob_names(&t, words) : strstr(t.body, words) != NULL, "%s",
                  t.body);
    tjob_free(&t);
}

/* What grade and hint refuse on a constraint puzzle: pencil marks that are
 * not a list or mark a filled cell, a puzzle without a solution, one with
 * two. */
START_TEST(logic_lines_api_refusals) {
    static const char thermo2[] = "\"constraints\":[{\"type\":\"thermo\",\"cells\":[[0,8],[0,7]]}]";
    char body[512], grid[82];
    snprintf(body, sizeof body, "{\"grid\":\"%s\",%s,\"pencil\":{}}", G, thermo2);
    expect_problem(api_sudoku_hint_prepare, body, 400, "pencil");
    snprintf(body, sizeof body, "{\"grid\":\"%s\",%s,\"pencil\":[{\"cell\":[0,0],\"values\":[3]}]}",
             G, thermo2);
    expect_problem(api_sudoku_hint_prepare, body, 400, "pencil[0].cell");
    /* no solution: G's first row given, a thermometer against its order */
    memset(grid, '.', 81);
    grid[81] = '\0';
    memcpy(grid, G, 9);
    snprintf(body, sizeof body,
             "{\"grid\":\"%s\",\"constraints\":[{\"type\":\"thermo\",\"cells\":[[1,0],[2,0],[3,0],"
             "[4,0],[5,0],[6,0],[7,0],[8,0],[0,0]]}]}",
             grid);
    expect_problem(api_sudoku_grade_prepare, body, 422, "no solution");
    /* an empty grid with one thermometer: many solutions */
    memset(grid, '.', 81);
    snprintf(body, sizeof body,
             "{\"grid\":\"%s\",\"constraints\":[{\"type\":\"thermo\",\"cells\":[[0,0],[0,1]]}]}",
             grid);
    expect_problem(api_sudoku_hint_prepare, body, 422, "more than one solution");
}
END_TEST

Suite *logic_lines_suite(void);
Suite *logic_lines_suite(void) {
    Suite *s = suite_create("logic_lines");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, logic_lines_each_technique_on_its_position, 0, (int)NCRAFT);
    tcase_add_test(tc, logic_lines_thermo_bounds_the_whole_line);
    tcase_add_test(tc, logic_lines_weights);
    tcase_add_test(tc, logic_lines_killers_are_sound);
    tcase_add_test(tc, logic_lines_random_lines_are_sound);
    suite_add_tcase(s, tc);
    TCase *api = tcase_create("api");
    tcase_set_timeout(api, 120);
    tcase_add_test(api, logic_lines_api_grade_and_hints_follow_the_solution);
    tcase_add_test(api, logic_lines_api_hints_played_to_the_end);
    tcase_add_test(api, logic_lines_api_machine_signal);
    tcase_add_test(api, logic_lines_api_refusals);
    suite_add_tcase(s, api);
    return s;
}
