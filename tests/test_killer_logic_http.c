/* test_killer_logic_http.c -- POST /v1/killer/grade and /v1/killer/hint
 * (issue 39) on a real server over loopback (tests/http_client.h).
 *
 * The killers are the server's own (/v1/killer/generate, by seed); each
 * generated solution is first checked here against the rules (rows,
 * columns, boxes, every cage's sum and distinct cells) by code that does
 * not use the server, and proved the only one by /v1/killer/solve (the
 * Killer engines, not the logic engine).  Then:
 *
 *   grade  every step of the path agrees with that solution (placements
 *          are its values, eliminations never remove them), the path
 *          places every cell once, the level and the signal are there,
 *          and a step that reads a cage names it as cages[k];
 *   hint   twenty killers played to the end from an empty grid, the way a
 *          client plays: each hint is checked against the solution and
 *          applied -- placements to the grid, eliminations to the pencil
 *          marks sent with the next request -- until the answer is
 *          "solved"; every hint must change the position;
 *   4xx    bad cages named cages[k], several solutions a 422 not-unique,
 *          a size past the logic engine's named, the solve options refused
 *          by name, JSON only.
 *
 * No answer is written in this file, and nothing is timed. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/http_check.h"

#define KN 9
#define KC (KN * KN)

/* POSTs body (not stolen) as JSON to path. */
static hresp_t kpost(const char *path, json_t *body) {
    char *text = json_dumps(body, JSON_COMPACT);
    ck_assert_ptr_nonnull(text);
    hresp_t r = hc_post(&hc_srv, path, "application/json", text);
    free(text);
    return r;
}

/* POSTs and returns the JSON answer of `status`. */
static json_t *kcall(const char *path, json_t *body, long status) {
    hresp_t r = kpost(path, body);
    json_t *j = hc_json(&r, status);
    hresp_free(&r);
    return j;
}

/* A problem of `status` and `type` (NULL: any) naming `field` (NULL: any). */
static void kproblem(const char *path, json_t *body, long status, const char *type,
                     const char *field) {
    hresp_t r = kpost(path, body);
    hc_problem(&r, status, field);
    if (type != NULL) {
        json_t *j = hc_json(&r, status);
        ck_assert_str_eq(json_string_value(json_object_get(j, "type")), type);
        json_decref(j);
    }
    hresp_free(&r);
}

static int kcell(json_t *cell) {
    json_int_t r = json_integer_value(json_array_get(cell, 0));
    json_int_t c = json_integer_value(json_array_get(cell, 1));
    ck_assert(json_is_integer(json_array_get(cell, 0)) && r >= 0 && r < KN && c >= 0 && c < KN);
    return (int)(r * KN + c);
}

/* The solution (generate's string, or solve's arrays) into sol[], checked
 * against the rules (both diagonals too when diag), and the cages by this
 * file's own code. */
static void ksolution_x(json_t *grid, json_t *cages, int diag, int *sol) {
    json_t *cage, *cell;
    size_t k, i;
    if (json_is_string(grid)) { /* generate's: a string of digits */
        ck_assert_uint_eq(json_string_length(grid), KC);
        for (int c = 0; c < KC; c++)
            sol[c] = json_string_value(grid)[c] - '0';
    } else { /* solve's: arrays */
        ck_assert_uint_eq(json_array_size(grid), KN);
        for (int r = 0; r < KN; r++)
            for (int c = 0; c < KN; c++) {
                json_t *v = json_array_get(json_array_get(grid, (size_t)r), (size_t)c);
                ck_assert(json_is_integer(v));
                sol[r * KN + c] = (int)json_integer_value(v);
            }
    }
    for (int c = 0; c < KC; c++)
        ck_assert(sol[c] >= 1 && sol[c] <= KN);
    for (int u = 0; u < KN; u++) {
        unsigned row = 0, col = 0, box = 0;
        for (int x = 0; x < KN; x++) {
            row |= 1u << sol[u * KN + x];
            col |= 1u << sol[x * KN + u];
            box |= 1u << sol[((u / 3) * 3 + x / 3) * KN + (u % 3) * 3 + x % 3];
        }
        ck_assert_uint_eq(row, 0x3feu);
        ck_assert_uint_eq(col, 0x3feu);
        ck_assert_uint_eq(box, 0x3feu);
    }
    if (diag) {
        unsigned d1 = 0, d2 = 0;
        for (int x = 0; x < KN; x++) {
            d1 |= 1u << sol[x * KN + x];
            d2 |= 1u << sol[x * KN + KN - 1 - x];
        }
        ck_assert_uint_eq(d1, 0x3feu);
        ck_assert_uint_eq(d2, 0x3feu);
    }
    json_array_foreach(cages, k, cage) {
        unsigned seen = 0;
        long sum = 0;
        json_array_foreach(json_object_get(cage, "cells"), i, cell) {
            int v = sol[kcell(cell)];
            ck_assert_msg(!(seen >> v & 1), "cages[%zu] repeats %d", k, v);
            seen |= 1u << v;
            sum += v;
        }
        ck_assert_int_eq(sum, json_integer_value(json_object_get(cage, "sum")));
    }
}

static void ksolution(json_t *grid, json_t *cages, int *sol) { ksolution_x(grid, cages, 0, sol); }

/* count 9x9 killers (Killer-X when diag) generated from seed; each
 * puzzle's solution is checked (ksolution_x) and proved unique by
 * /v1/killer/solve. */
static json_t *kgenerate_x(int count, int seed, int diag) {
    json_t *req = json_pack("{s:i, s:i, s:i, s:b}", "size", KN, "count", count, "seed", seed,
                            "diagonals", diag);
    json_t *a = kcall("/v1/killer/generate", req, 200), *list = json_object_get(a, "puzzles"), *pz;
    size_t i;
    ck_assert_uint_eq(json_array_size(list), (size_t)count);
    json_array_foreach(list, i, pz) {
        int sol[KC], again[KC];
        ksolution_x(json_object_get(pz, "solution"), json_object_get(pz, "cages"), diag, sol);
        json_t *sreq =
            json_pack("{s:i, s:O, s:i, s:b}", "size", KN, "cages", json_object_get(pz, "cages"),
                      "max_solutions", 2, "diagonals", diag);
        json_t *s = kcall("/v1/killer/solve", sreq, 200);
        ck_assert_int_eq(json_integer_value(json_object_get(s, "solutions_found")), 1);
        ck_assert(json_is_true(json_object_get(s, "unique")));
        ksolution_x(json_object_get(s, "solution"), json_object_get(pz, "cages"), diag, again);
        ck_assert_mem_eq(sol, again, sizeof sol);
        json_decref(s);
        json_decref(sreq);
    }
    json_incref(list);
    json_decref(a);
    json_decref(req);
    return list;
}

static json_t *kgenerate(int count, int seed) { return kgenerate_x(count, seed, 0); }

/* A step agrees with the solution: its placements are sol's values, its
 * eliminations never sol's; placements also go into grid (when not NULL:
 * each cell once) and eliminations out of cand[] (when not NULL).
 * Returns how much of the position it changed. */
/* Steps of the 45 rule over a run of boxes that kstep() has seen. */
static int kbox_unions;
static int ksplits; /* cage-splitting steps seen, each checked against the solution */

static int kstep(json_t *step, const int *sol, int *grid, unsigned *cand, size_t ncages) {
    json_t *e, *v;
    size_t i, k;
    int changed = 0;
    json_array_foreach(json_object_get(step, "placements"), i, e) {
        int c = kcell(json_object_get(e, "cell"));
        ck_assert_int_eq(json_integer_value(json_object_get(e, "value")), sol[c]);
        if (grid != NULL) {
            ck_assert_msg(grid[c] == 0, "r%dc%d placed twice", c / KN + 1, c % KN + 1);
            grid[c] = sol[c];
            changed++;
        }
    }
    json_array_foreach(json_object_get(step, "eliminations"), i, e) {
        int c = kcell(json_object_get(e, "cell"));
        json_array_foreach(json_object_get(e, "values"), k, v) {
            json_int_t d = json_integer_value(v);
            ck_assert_msg(d != sol[c], "%s removes the solution's %d from r%dc%d",
                          json_string_value(json_object_get(step, "explanation")), sol[c],
                          c / KN + 1, c % KN + 1);
            ck_assert(d >= 1 && d <= KN);
            if (cand != NULL && (cand[c] >> d & 1)) {
                cand[c] &= ~(1u << d);
                changed++;
            }
        }
    }
    /* the 45 rule over a union names its first and last row (or column, or
     * box of a run along a band or a stack) */
    if (strcmp(json_string_value(json_object_get(step, "technique")), "innies-outies") == 0 &&
        json_array_size(json_object_get(step, "units")) == 2) {
        const char *a = json_string_value(json_array_get(json_object_get(step, "units"), 0));
        const char *b = json_string_value(json_array_get(json_object_get(step, "units"), 1));
        ck_assert_msg((strncmp(a, "row ", 4) == 0 && strncmp(b, "row ", 4) == 0) ||
                          (strncmp(a, "column ", 7) == 0 && strncmp(b, "column ", 7) == 0) ||
                          (strncmp(a, "box ", 4) == 0 && strncmp(b, "box ", 4) == 0),
                      "a union of %s and %s", a, b);
        kbox_unions += strncmp(a, "box ", 4) == 0;
        ck_assert(strstr(json_string_value(json_object_get(step, "explanation")), " to ") != NULL);
    }
    /* a split's sum holds in the solution: "give -r2c1 + r1c9 = -6" */
    if (strcmp(json_string_value(json_object_get(step, "technique")), "cage-splitting") == 0) {
        const char *x = strstr(json_string_value(json_object_get(step, "explanation")), "give ");
        long sum = 0, sign = 1, want;
        int r, c, n, terms = 0;
        ck_assert_ptr_nonnull(x);
        for (x += 5; *x != '='; x++) {
            if (*x == '-') sign = -1;
            if (*x == '+') sign = 1;
            if (sscanf(x, "r%dc%d%n", &r, &c, &n) == 2) {
                sum += sign * sol[(r - 1) * KN + c - 1];
                terms++;
                x += n - 1;
            }
        }
        ck_assert_int_eq(sscanf(x, "= %ld", &want), 1);
        ck_assert_int_ge(terms, 2);
        ck_assert_int_eq(sum, want);
        ksplits++;
    }
    /* a step that reads a cage names it as the client wrote it */
    if ((v = json_object_get(step, "cage")) != NULL) {
        char want[32];
        ck_assert(json_integer_value(v) >= 0 && (size_t)json_integer_value(v) < ncages);
        snprintf(want, sizeof want, "on cages[%lld]", (long long)json_integer_value(v));
        ck_assert_msg(strstr(json_string_value(json_object_get(step, "explanation")), want), "%s",
                      json_string_value(json_object_get(step, "explanation")));
        ck_assert_ptr_null(json_object_get(step, "constraint"));
    }
    return changed;
}

/* A generated killer's request: size, cages, and diagonals for a Killer-X. */
static json_t *kbody(json_t *pz) {
    json_t *b = json_pack("{s:i, s:O}", "size", KN, "cages", json_object_get(pz, "cages"));
    if (json_is_true(json_object_get(pz, "diagonals")))
        json_object_set_new(b, "diagonals", json_true());
    return b;
}

/* === Grade === */

START_TEST(killer_logic_grade_path) {
    json_t *list = kgenerate(1, 7), *pz = json_array_get(list, 0), *step;
    json_t *req = kbody(pz);
    size_t i, ncages = json_array_size(json_object_get(pz, "cages"));
    int sol[KC], grid[KC] = {0}, cages = 0;
    ksolution(json_object_get(pz, "solution"), json_object_get(pz, "cages"), sol);
    json_object_set_new(req, "steps", json_true());
    json_t *g = kcall("/v1/killer/grade", req, 200);
    ck_assert_str_eq(json_string_value(json_object_get(g, "status")), "graded");
    ck_assert(json_is_string(json_object_get(g, "level")));
    ck_assert(json_is_string(json_object_get(g, "hardest")));
    ck_assert(json_real_value(json_object_get(g, "rating")) > 0.0);
    ck_assert_str_eq(
        json_string_value(json_object_get(g, "signal")),
        json_object_get(json_object_get(g, "techniques"), "constraint") ? "search" : "techniques");
    ck_assert_uint_eq(json_array_size(json_object_get(g, "steps")),
                      (size_t)json_integer_value(json_object_get(g, "steps_count")));
    json_array_foreach(json_object_get(g, "steps"), i, step) {
        kstep(step, sol, grid, NULL, ncages);
        cages += json_object_get(step, "cage") != NULL;
    }
    for (int c = 0; c < KC; c++)
        ck_assert_msg(grid[c] == sol[c], "the path never places r%dc%d", c / KN + 1, c % KN + 1);
    ck_assert_int_gt(cages, 0); /* an empty grid: the cages are the only way in */
    ck_assert(json_integer_value(
                  json_object_get(json_object_get(g, "techniques"), "cage-combination")) > 0);
    /* without steps: the same grade, no path */
    json_object_del(req, "steps");
    json_t *g2 = kcall("/v1/killer/grade", req, 200);
    ck_assert_ptr_null(json_object_get(g2, "steps"));
    ck_assert(json_equal(json_object_get(g2, "techniques"), json_object_get(g, "techniques")));
    ck_assert(json_equal(json_object_get(g2, "rating"), json_object_get(g, "rating")));
    /* a plain Killer's uniqueness is counted by the Killer solver: the
     * same search as /v1/killer/solve asked for two solutions on one
     * thread, node for node */
    json_t *sreq = kbody(pz);
    json_object_set_new(sreq, "max_solutions", json_integer(2));
    json_object_set_new(sreq, "threads", json_integer(1));
    json_t *sv = kcall("/v1/killer/solve", sreq, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(sv, "solutions_found")), 1);
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(g2, "stats"), "search_nodes")),
        json_integer_value(json_object_get(json_object_get(sv, "stats"), "nodes")));
    json_decref(sv);
    json_decref(sreq);
    json_decref(g);
    json_decref(g2);
    json_decref(req);
    json_decref(list);
}
END_TEST

/* === Hints played to the end === */

/* The pencil marks of cand[] for the empty cells that lost a value. */
static json_t *kpencil(const int *grid, const unsigned *cand) {
    json_t *list = json_array();
    for (int c = 0; c < KC; c++) {
        if (grid[c] != 0 || cand[c] == 0x3feu) continue;
        json_t *vals = json_array();
        for (int d = 1; d <= KN; d++)
            if (cand[c] >> d & 1) json_array_append_new(vals, json_integer(d));
        json_array_append_new(list,
                              json_pack("{s:[i,i], s:o}", "cell", c / KN, c % KN, "values", vals));
    }
    return list;
}

static json_t *kgrid_json(const int *grid) {
    json_t *rows = json_array();
    for (int r = 0; r < KN; r++) {
        json_t *row = json_array();
        for (int c = 0; c < KN; c++)
            json_array_append_new(row,
                                  grid[r * KN + c] ? json_integer(grid[r * KN + c]) : json_null());
        json_array_append_new(rows, row);
    }
    return rows;
}

/* Plays pz from an empty grid by hints alone; returns the hints taken. */
static int kplay(json_t *pz) {
    json_t *req = kbody(pz);
    size_t ncages = json_array_size(json_object_get(pz, "cages"));
    int sol[KC], grid[KC] = {0}, hints = 0;
    unsigned cand[KC];
    ksolution_x(json_object_get(pz, "solution"), json_object_get(pz, "cages"),
                json_is_true(json_object_get(pz, "diagonals")), sol);
    for (int c = 0; c < KC; c++)
        cand[c] = 0x3feu;
    /* the givens: none (a generated killer has cages only) */
    json_object_set_new(req, "givens",
                        json_string("..................................................."
                                    ".............................."));
    for (;;) {
        json_object_set_new(req, "grid", kgrid_json(grid));
        json_object_set_new(req, "pencil", kpencil(grid, cand));
        json_t *a = kcall("/v1/killer/hint", req, 200);
        const char *status = json_string_value(json_object_get(a, "status"));
        if (strcmp(status, "solved") == 0) {
            json_decref(a);
            break;
        }
        ck_assert_msg(strcmp(status, "hint") == 0, "status %s after %d hints", status, hints);
        ck_assert_msg(
            kstep(json_object_get(a, "step"), sol, grid, cand, ncages) > 0,
            "hint %d changes nothing: %s", hints,
            json_string_value(json_object_get(json_object_get(a, "step"), "explanation")));
        ck_assert_int_lt(++hints, 4 * KC * KN); /* each changes the position: bounded */
        json_decref(a);
    }
    for (int c = 0; c < KC; c++)
        ck_assert_int_eq(grid[c], sol[c]);
    json_decref(req);
    return hints;
}

START_TEST(killer_logic_hints_play_to_the_end) {
    json_t *list = kgenerate(20, 39 + _i), *pz;
    size_t i;
    json_array_foreach(list, i, pz) {
        int n = kplay(pz);
        ck_assert_int_ge(n, 1);
        printf("killer_logic: killer %zu of seed %d solved in %d hints\n", i, 39 + _i, n);
    }
    /* the 45 rule over neighbouring boxes is among the steps (seed 39's
     * twenty: each checked against the solution above) */
    printf("killer_logic: %d steps of the 45 rule over a run of boxes, %d cage splits\n",
           kbox_unions, ksplits);
    ck_assert_int_ge(kbox_unions, 1);
    ck_assert_int_ge(ksplits, 1);
    json_decref(list);
}
END_TEST

/* Killer-X: diagonals become the x variant; two played to the end. */
START_TEST(killer_logic_hints_play_killer_x) {
    json_t *list = kgenerate_x(2, 5, 1), *pz;
    size_t i;
    json_array_foreach(list, i, pz) {
        ck_assert(json_is_true(json_object_get(pz, "diagonals")));
        printf("killer_logic: killer-x %zu solved in %d hints\n", i, kplay(pz));
    }
    json_decref(list);
}
END_TEST

/* A wrong entry is "wrong" (the givens kept), a full grid "solved". */
START_TEST(killer_logic_hint_wrong_and_solved) {
    json_t *list = kgenerate(1, 11), *pz = json_array_get(list, 0), *req = kbody(pz);
    int sol[KC], grid[KC] = {0};
    ksolution(json_object_get(pz, "solution"), json_object_get(pz, "cages"), sol);
    grid[40] = sol[40] % KN + 1;
    json_object_set_new(req, "givens", kgrid_json((int[KC]){0}));
    json_object_set_new(req, "grid", kgrid_json(grid));
    json_t *a = kcall("/v1/killer/hint", req, 200);
    ck_assert_str_eq(json_string_value(json_object_get(a, "status")), "wrong");
    ck_assert_int_eq(kcell(json_object_get(json_array_get(json_object_get(a, "wrong"), 0), "cell")),
                     40);
    json_decref(a);
    json_object_set_new(req, "grid", kgrid_json(sol));
    a = kcall("/v1/killer/hint", req, 200);
    ck_assert_str_eq(json_string_value(json_object_get(a, "status")), "solved");
    json_decref(a);
    json_decref(req);
    json_decref(list);
}
END_TEST

/* === Refusals === */

START_TEST(killer_logic_refusals) {
    static const char *const paths[] = {"/v1/killer/grade", "/v1/killer/hint"};
    for (int k = 0; k < 2; k++) {
        const char *path = paths[k];
        json_t *b;
        /* a cell outside the grid: cages[1], as written */
        b = json_loads("{\"size\":9,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]},"
                       "{\"sum\":5,\"cells\":[[0,2],[9,9]]}]}",
                       0, NULL);
        kproblem(path, b, 400, NULL, "cages[1].cells[1]");
        json_decref(b);
        /* a sum no two digits make */
        b = json_loads("{\"size\":9,\"cages\":[{\"sum\":30,\"cells\":[[0,0],[0,1]]}]}", 0, NULL);
        kproblem(path, b, 400, NULL, "cages[0].sum");
        json_decref(b);
        /* one cage does not settle a 9x9: several solutions */
        b = json_loads("{\"size\":9,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]}]}", 0, NULL);
        kproblem(path, b, 422, "/problems/not-unique", NULL);
        /* past the logic engine's 25 symbols: named as size */
        json_object_set_new(b, "size", json_integer(36));
        kproblem(path, b, 400, NULL, "size");
        json_object_set_new(b, "size", json_integer(99));
        kproblem(path, b, 400, NULL, "size");
        json_object_set_new(b, "size", json_integer(9));
        /* the solve's options, by name */
        json_object_set_new(b, "method", json_string("advanced"));
        kproblem(path, b, 400, NULL, "method");
        json_object_del(b, "method");
        json_object_set_new(b, "max_solutions", json_integer(2));
        kproblem(path, b, 400, NULL, "max_solutions");
        json_object_del(b, "max_solutions");
        json_object_set_new(b, "threads", json_integer(2));
        kproblem(path, b, 400, NULL, "threads");
        json_object_del(b, "threads");
        json_object_set_new(b, "frobnicate", json_true());
        kproblem(path, b, 400, NULL, "frobnicate");
        json_object_del(b, "frobnicate");
        json_object_set_new(b, "diagonals", json_integer(1));
        kproblem(path, b, 400, NULL, "diagonals");
        json_object_del(b, "diagonals");
        /* the body's own constraints keep their indices after the cages */
        json_object_set_new(b, "constraints",
                            json_pack("[{s:s, s:[[i,i]]}]", "type", "thermo", "cells", 0, 0));
        kproblem(path, b, 400, NULL, "constraints[0].cells");
        json_object_del(b, "constraints");
        json_object_del(b, "cages");
        kproblem(path, b, 400, NULL, "cages");
        json_decref(b);
        /* JSON only */
        hresp_t r = hc_post(&hc_srv, path, "text/plain", "4\n1 2 3 4\n1\n3 0,0 0,1\n");
        hc_problem(&r, 415, "Content-Type");
        hresp_free(&r);
    }
    /* hint's pencil marks, named */
    json_t *b = json_loads("{\"size\":9,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]}],"
                           "\"pencil\":[{\"cell\":[9,0],\"values\":[1]}]}",
                           0, NULL);
    kproblem("/v1/killer/hint", b, 400, NULL, "pencil[0].cell");
    json_decref(b);
}
END_TEST

Suite *killer_logic_http_suite(void);
Suite *killer_logic_http_suite(void) {
    Suite *s = suite_create("killer_logic_http");
    TCase *tc = tcase_create("http");
    tcase_set_timeout(tc, 600);
    tcase_add_unchecked_fixture(tc, hc_up, hc_down);
    tcase_add_test(tc, killer_logic_grade_path);
    tcase_add_loop_test(tc, killer_logic_hints_play_to_the_end, 0, 1);
    tcase_add_test(tc, killer_logic_hints_play_killer_x);
    tcase_add_test(tc, killer_logic_hint_wrong_and_solved);
    tcase_add_test(tc, killer_logic_refusals);
    suite_add_tcase(s, tc);
    return s;
}
