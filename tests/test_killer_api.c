/* test_killer_api.c -- POST /v1/killer/solve without a server: JSON and the
 * course text format, symbols, Killer-X, methods agreeing, and the table of
 * invalid cages with the status and field each must produce.
 *
 * The puzzle is made from this 4x4 grid (a Killer-X grid: both diagonals
 * distinct), cut into eight dominoes whose sums come from the grid:
 *     1 2 | 3 4        cages: (0,0)(0,1)=3  (0,2)(0,3)=7  (1,0)(2,0)=7
 *     3 4 | 1 2               (1,1)(1,2)=5  (1,3)(2,3)=3  (2,1)(2,2)=5
 *     ----+----               (3,0)(3,1)=3  (3,2)(3,3)=7
 *     4 3 | 2 1
 *     2 1 | 4 3 */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/killer_api.h"
#include "tests/job_harness.h"

static const int grid4[4][4] = {{1, 2, 3, 4}, {3, 4, 1, 2}, {4, 3, 2, 1}, {2, 1, 4, 3}};

#define CAGES4                                                                                      \
    "[{\"sum\":3,\"cells\":[[0,0],[0,1]]},{\"sum\":7,\"cells\":[[0,2],[0,3]]},"                     \
    "{\"sum\":7,\"cells\":[[1,0],[2,0]]},{\"sum\":5,\"cells\":[[1,1],[1,2]]},"                      \
    "{\"sum\":3,\"cells\":[[1,3],[2,3]]},{\"sum\":5,\"cells\":[[2,1],[2,2]]},"                      \
    "{\"sum\":3,\"cells\":[[3,0],[3,1]]},{\"sum\":7,\"cells\":[[3,2],[3,3]]}]"

typedef tjob_t kres_t;

static kres_t ksolve(const char *ctype, const char *body, const api_param_t *params, size_t np) {
    return tjob_call(api_killer_solve_prepare, ctype, NULL, body, params, np);
}

static void kres_free(kres_t *k) { tjob_free(k); }

static long long cell(json_t *grid, int r, int c) {
    return json_integer_value(json_array_get(json_array_get(grid, (size_t)r), (size_t)c));
}

/* Every solution holds each symbol once per row and column and keeps the
 * cage sums; returns whether the known grid (scaled by `mul`) is among them. */
static int check_solutions(json_t *sols, long long mul) {
    int found = 0;
    for (size_t k = 0; k < json_array_size(sols); k++) {
        json_t *g = json_array_get(sols, k);
        int same = 1;
        for (int r = 0; r < 4; r++) {
            long long rs = 0, cs = 0;
            for (int c = 0; c < 4; c++) {
                rs += cell(g, r, c);
                cs += cell(g, c, r);
                same &= cell(g, r, c) == grid4[r][c] * mul;
            }
            ck_assert_int_eq(rs, 10 * mul);
            ck_assert_int_eq(cs, 10 * mul);
        }
        ck_assert_int_eq(cell(g, 0, 0) + cell(g, 0, 1), 3 * mul);
        ck_assert_int_eq(cell(g, 3, 2) + cell(g, 3, 3), 7 * mul);
        found |= same;
    }
    return found;
}

START_TEST(killer_api_json_both_methods_agree) {
    long long counts[2];
    const char *methods[] = {"backtracking", "advanced"};
    for (int m = 0; m < 2; m++) {
        char body[1024];
        snprintf(body, sizeof body, "{\"size\":4,\"cages\":" CAGES4 ",\"method\":\"%s\",\"max_solutions\":100}",
                 methods[m]);
        kres_t k = ksolve("application/json", body, NULL, 0);
        ck_assert_msg(k.status == 200, "%s", k.body);
        counts[m] = json_integer_value(json_object_get(k.json, "solutions_found"));
        ck_assert(json_is_true(json_object_get(k.json, "complete")));
        ck_assert(check_solutions(json_object_get(k.json, "solutions"), 1));
        ck_assert_str_eq(json_string_value(json_object_get(json_object_get(k.json, "stats"), "method")),
                         methods[m]);
        kres_free(&k);
    }
    ck_assert_int_ge(counts[0], 1);
    ck_assert_int_eq(counts[0], counts[1]);
}
END_TEST

START_TEST(killer_api_text_format_and_diagonals) {
    const char *text = "4\n1 2 3 4\n8\n3 0,0 0,1\n7 0,2 0,3\n7 1,0 2,0\n5 1,1 1,2\n"
                       "3 1,3 2,3\n5 2,1 2,2\n3 3,0 3,1\n7 3,2 3,3\n";
    api_param_t q[2] = {{"max_solutions", "100"}, {"diagonals", "true"}};
    kres_t k = ksolve("text/plain", text, q, 2);
    ck_assert_msg(k.status == 200, "%s", k.body);
    json_t *sols = json_object_get(k.json, "solutions");
    ck_assert(check_solutions(sols, 1));
    for (size_t s = 0; s < json_array_size(sols); s++) { /* Killer-X: both diagonals distinct */
        json_t *g = json_array_get(sols, s);
        int d = 0, a = 0;
        for (int i = 0; i < 4; i++) {
            d |= 1 << cell(g, i, i);
            a |= 1 << cell(g, i, 3 - i);
        }
        ck_assert_int_eq(d, 0x1e);
        ck_assert_int_eq(a, 0x1e);
    }
    kres_free(&k);
}
END_TEST

START_TEST(killer_api_custom_symbols_and_givens) {
    /* symbols 0,10,20,30 stand for 1..4 minus one, times ten: sums scale */
    const char *body = "{\"size\":4,\"symbols\":[0,10,20,30],\"cages\":["
                       "{\"sum\":10,\"cells\":[[0,0],[0,1]]},{\"sum\":50,\"cells\":[[0,2],[0,3]]},"
                       "{\"sum\":50,\"cells\":[[1,0],[2,0]]},{\"sum\":30,\"cells\":[[1,1],[1,2]]},"
                       "{\"sum\":10,\"cells\":[[1,3],[2,3]]},{\"sum\":30,\"cells\":[[2,1],[2,2]]},"
                       "{\"sum\":10,\"cells\":[[3,0],[3,1]]},{\"sum\":50,\"cells\":[[3,2],[3,3]]}],"
                       "\"grid\":[[0,null,null,null],[null,null,null,null],[null,null,null,null],[null,null,null,null]],"
                       "\"max_solutions\":100}";
    kres_t k = ksolve("application/json", body, NULL, 0);
    ck_assert_msg(k.status == 200, "%s", k.body);
    json_t *sols = json_object_get(k.json, "solutions");
    ck_assert_int_ge(json_array_size(sols), 1);
    for (size_t s = 0; s < json_array_size(sols); s++) {
        json_t *g = json_array_get(sols, s);
        ck_assert_int_eq(cell(g, 0, 0), 0); /* the given */
        ck_assert_int_eq(cell(g, 0, 0) + cell(g, 0, 1), 10);
        for (int r = 0; r < 4; r++)
            ck_assert_int_eq(cell(g, r, 0) + cell(g, r, 1) + cell(g, r, 2) + cell(g, r, 3), 60);
    }
    kres_free(&k);
}
END_TEST

typedef struct kbad_s {
    const char *ctype;
    const char *body;
    int status;
    const char *field;
} kbad_t;

static const kbad_t kbad[] = {
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,4]]}]}", 400, "cages[0].cells[1]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]},{\"sum\":3,\"cells\":[[1,0],[0,1]]}]}", 400, "cages[1].cells[1]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[]}]}", 400, "cages[0]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":10,\"cells\":[[0,0],[0,1],[0,2],[0,3],[1,0]]}]}", 400, "cages[0]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":2,\"cells\":[[0,0],[0,1]]}]}", 422, "cages[0].sum"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":8,\"cells\":[[0,0],[0,1]]}]}", 422, "cages[0].sum"},
    {"application/json", "{\"size\":4,\"cages\":" "[{\"sum\":3,\"cells\":[[0,0],[0,1]]},{\"sum\":7,\"cells\":[[0,2],[0,3]]},"
                         "{\"sum\":7,\"cells\":[[1,0],[2,0]]},{\"sum\":5,\"cells\":[[1,1],[1,2]]},"
                         "{\"sum\":3,\"cells\":[[1,3],[2,3]]},{\"sum\":5,\"cells\":[[2,1],[2,2]]},"
                         "{\"sum\":3,\"cells\":[[3,0],[3,1]]},{\"sum\":6,\"cells\":[[3,2],[3,3]]}]}", 422, "cages"},
    {"application/json", "{\"size\":4,\"cages\":[],\"grid\":[[1,1,null,null],[null,null,null,null],[null,null,null,null],[null,null,null,null]]}", 422, "grid[0][1]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]}],\"grid\":[[3,null,null,null],[null,null,null,null],[null,null,null,null],[null,null,null,null]]}", 422, "cages[0]"},
    {"application/json", "{\"size\":4,\"cages\":[],\"grid\":[[9,null,null,null],[null,null,null,null],[null,null,null,null],[null,null,null,null]]}", 400, "grid[0][0]"},
    {"application/json", "{\"size\":4,\"symbols\":[1,2,3],\"cages\":[]}", 400, "symbols"},
    {"application/json", "{\"size\":4,\"symbols\":[1,2,2,4],\"cages\":[]}", 400, "symbols"},
    {"application/json", "{\"cages\":[]}", 400, "size"},
    {"application/json", "{\"size\":3,\"cages\":[]}", 400, "size"},
    {"application/json", "{\"size\":37,\"cages\":[]}", 400, "size"},
    {"application/json", "{\"size\":7,\"cages\":[]}", 400, "box"},
    {"application/json", "{\"size\":4}", 400, "cages"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":\"3\",\"cells\":[[0,0]]}]}", 400, "cages[0].sum"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0]]}]}", 400, "cages[0].cells[0]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3}]}", 400, "cages[0]"},
    {"application/json", "{\"size\":4,\"cages\":[],\"method\":\"fast\"}", 400, "method"},
    {"application/json", "{\"size\":4,\"cages\":[],\"max_solutions\":0}", 400, "max_solutions"},
    {"application/json", "{\"size\":4,\"cages\":[],\"diagonals\":1}", 400, "diagonals"},
    {"application/json", "{\"size\":4,\"cages\":[],\"shape\":1}", 400, "shape"},
    {"application/json", "{\"size\":4,", 400, "body"},
    {"text/plain", "4\n1 2 3 4\n1\n3 0,0 0-1\n", 400, "line 4"},
    {"text/plain", "4\n1 2 3 4\n2\n3 0,0 0,1\n", 400, "body"},
    {"text/plain", "x\n", 400, "line 1"},
    {"text/plain", "4\n1 2 3 4\n1\n3 0,0 0,1\n7 0,2 0,3\n", 400, "line 5"},
    {"text/xml", "<k/>", 415, "Content-Type"},
};

START_TEST(killer_api_invalid_inputs_table) {
    const kbad_t *b = &kbad[_i];
    kres_t k = ksolve(b->ctype, b->body, NULL, 0);
    ck_assert_msg(k.status == b->status, "case %d: status %d, want %d: %s", _i, k.status, b->status, k.body);
    int found = tjob_names(&k, b->field);
    ck_assert_msg(found, "case %d: '%s' not named: %s", _i, b->field, k.body);
    kres_free(&k);
}
END_TEST

START_TEST(killer_api_uncovered_cells_are_plain_sudoku) {
    /* one cage only: the rest is an ordinary 4x4 with 288 solutions cut down */
    kres_t k = ksolve("application/json",
                      "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]}],\"max_solutions\":1000}", NULL, 0);
    ck_assert_msg(k.status == 200, "%s", k.body);
    long long n = json_integer_value(json_object_get(k.json, "solutions_found"));
    ck_assert_int_gt(n, 1);
    ck_assert_int_lt(n, 288);
    ck_assert_str_eq(json_string_value(json_object_get(k.json, "status")), "multiple");
    ck_assert(json_is_false(json_object_get(k.json, "unique")));
    kres_free(&k);
}
END_TEST

Suite *killer_api_suite(void);
Suite *killer_api_suite(void) {
    Suite *s = suite_create("killer_api");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, killer_api_json_both_methods_agree);
    tcase_add_test(tc, killer_api_text_format_and_diagonals);
    tcase_add_test(tc, killer_api_custom_symbols_and_givens);
    tcase_add_loop_test(tc, killer_api_invalid_inputs_table, 0, (int)(sizeof kbad / sizeof kbad[0]));
    tcase_add_test(tc, killer_api_uncovered_cells_are_plain_sudoku);
    suite_add_tcase(s, tc);
    return s;
}
