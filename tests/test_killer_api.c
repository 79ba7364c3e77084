/* test_killer_api.c -- POST /v1/killer/solve without a server: JSON and the
 * course text format, symbols, Killer-X, methods agreeing, value orders, and
 * the table of invalid cages with the status and field each must produce.
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
#include "tests/killer_gen.h"

static const int grid4[4][4] = {{1, 2, 3, 4}, {3, 4, 1, 2}, {4, 3, 2, 1}, {2, 1, 4, 3}};

#define CAGES4                                                                                     \
    "[{\"sum\":3,\"cells\":[[0,0],[0,1]]},{\"sum\":7,\"cells\":[[0,2],[0,3]]},"                    \
    "{\"sum\":7,\"cells\":[[1,0],[2,0]]},{\"sum\":5,\"cells\":[[1,1],[1,2]]},"                     \
    "{\"sum\":3,\"cells\":[[1,3],[2,3]]},{\"sum\":5,\"cells\":[[2,1],[2,2]]},"                     \
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
    long long counts[3];
    const char *methods[] = {"backtracking", "advanced", "learning"};
    for (int m = 0; m < 3; m++) {
        char body[1024];
        snprintf(body, sizeof body,
                 "{\"size\":4,\"cages\":" CAGES4 ",\"method\":\"%s\",\"max_solutions\":100}",
                 methods[m]);
        kres_t k = ksolve("application/json", body, NULL, 0);
        ck_assert_msg(k.status == 200, "%s", k.body);
        counts[m] = json_integer_value(json_object_get(k.json, "solutions_found"));
        ck_assert(json_is_true(json_object_get(k.json, "complete")));
        ck_assert(check_solutions(json_object_get(k.json, "solutions"), 1));
        ck_assert_str_eq(
            json_string_value(json_object_get(json_object_get(k.json, "stats"), "method")),
            methods[m]);
        kres_free(&k);
    }
    ck_assert_int_ge(counts[0], 1);
    ck_assert_int_eq(counts[0], counts[1]);
    ck_assert_int_eq(counts[0], counts[2]);
}
END_TEST

/* auto on a 4x4 runs backtracking, on one worker whatever `threads` says,
 * and answers what advanced answers; with a value order asked for, or on
 * larger grids, it runs advanced. */
START_TEST(killer_api_auto_method_by_size) {
    kres_t adv = ksolve(
        "application/json",
        "{\"size\":4,\"cages\":" CAGES4 ",\"method\":\"advanced\",\"max_solutions\":100}", NULL, 0);
    ck_assert_msg(adv.status == 200, "%s", adv.body);
    for (int threads = 1; threads <= 2; threads++) {
        char body[1024];
        snprintf(body, sizeof body,
                 "{\"size\":4,\"cages\":" CAGES4 ",\"max_solutions\":100,\"threads\":%d}", threads);
        kres_t k = ksolve("application/json", body, NULL, 0);
        ck_assert_msg(k.status == 200, "%s", k.body);
        json_t *st = json_object_get(k.json, "stats");
        ck_assert_str_eq(json_string_value(json_object_get(st, "method")), "backtracking");
        ck_assert_int_eq(json_integer_value(json_object_get(st, "threads")), 1);
        ck_assert_int_eq(json_integer_value(json_object_get(k.json, "solutions_found")),
                         json_integer_value(json_object_get(adv.json, "solutions_found")));
        ck_assert(json_is_true(json_object_get(k.json, "complete")));
        ck_assert(check_solutions(json_object_get(k.json, "solutions"), 1));
        kres_free(&k);
    }
    kres_free(&adv);
    kres_t v = ksolve("application/json",
                      "{\"size\":4,\"cages\":" CAGES4 ",\"value_order\":\"descending\"}", NULL, 0);
    ck_assert_msg(v.status == 200, "%s", v.body);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(v.json, "stats"), "method")),
                     "advanced");
    kres_free(&v);
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

/* A line is read whole, however long (the reader used to copy lines into
 * an 8 KiB buffer and cut a cell token at 63 characters). */
START_TEST(killer_api_text_long_lines) {
    size_t cap = 16384, n;
    char *body = malloc(cap);
    ck_assert_ptr_nonnull(body);
    /* the 4x4 of killer_api_text_format_and_diagonals, its first cage with
     * 9000 blanks between its cells and its second cell's column written
     * with 70 leading zeros */
    n = (size_t)snprintf(body, cap, "4\n1 2 3 4\n8\n3 0,0");
    memset(body + n, ' ', 9000);
    n += 9000;
    n += (size_t)snprintf(body + n, cap - n, "0,");
    memset(body + n, '0', 70);
    n += 70;
    snprintf(body + n, cap - n,
             "1\n7 0,2 0,3\n7 1,0 2,0\n5 1,1 1,2\n3 1,3 2,3\n5 2,1 2,2\n"
             "3 3,0 3,1\n7 3,2 3,3\n");
    api_param_t q = {"max_solutions", "100"};
    kres_t k = ksolve("text/plain", body, &q, 1);
    ck_assert_msg(k.status == 200, "%.300s", k.body);
    json_t *sols = json_object_get(k.json, "solutions");
    ck_assert_int_gt(json_array_size(sols), 0);
    ck_assert(check_solutions(sols, 1));
    for (size_t s = 0; s < json_array_size(sols); s++) /* the cage 3 = (0,0) + (0,1) held */
        ck_assert_int_eq(cell(json_array_get(sols, s), 0, 0) + cell(json_array_get(sols, s), 0, 1),
                         3);
    kres_free(&k);
    free(body);
}
END_TEST

START_TEST(killer_api_custom_symbols_and_givens) {
    /* symbols 0,10,20,30 stand for 1..4 minus one, times ten: sums scale */
    const char *body = "{\"size\":4,\"symbols\":[0,10,20,30],\"cages\":["
                       "{\"sum\":10,\"cells\":[[0,0],[0,1]]},{\"sum\":50,\"cells\":[[0,2],[0,3]]},"
                       "{\"sum\":50,\"cells\":[[1,0],[2,0]]},{\"sum\":30,\"cells\":[[1,1],[1,2]]},"
                       "{\"sum\":10,\"cells\":[[1,3],[2,3]]},{\"sum\":30,\"cells\":[[2,1],[2,2]]},"
                       "{\"sum\":10,\"cells\":[[3,0],[3,1]]},{\"sum\":50,\"cells\":[[3,2],[3,3]]}],"
                       "\"grid\":[[0,null,null,null],[null,null,null,null],[null,null,null,null],["
                       "null,null,null,null]],"
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
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,4]]}]}", 400,
     "cages[0].cells[1]"},
    {"application/json",
     "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]},{\"sum\":3,\"cells\":[[1,0],[0,1]]"
     "}]}",
     400, "cages[1].cells[1]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[]}]}", 400, "cages[0]"},
    {"application/json",
     "{\"size\":4,\"cages\":[{\"sum\":10,\"cells\":[[0,0],[0,1],[0,2],[0,3],[1,0]]}]}", 400,
     "cages[0]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":2,\"cells\":[[0,0],[0,1]]}]}", 422,
     "cages[0].sum"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":8,\"cells\":[[0,0],[0,1]]}]}", 422,
     "cages[0].sum"},
    {"application/json",
     "{\"size\":4,\"cages\":"
     "[{\"sum\":3,\"cells\":[[0,0],[0,1]]},{\"sum\":7,\"cells\":[[0,2],[0,3]]},"
     "{\"sum\":7,\"cells\":[[1,0],[2,0]]},{\"sum\":5,\"cells\":[[1,1],[1,2]]},"
     "{\"sum\":3,\"cells\":[[1,3],[2,3]]},{\"sum\":5,\"cells\":[[2,1],[2,2]]},"
     "{\"sum\":3,\"cells\":[[3,0],[3,1]]},{\"sum\":6,\"cells\":[[3,2],[3,3]]}]}",
     422, "cages"},
    {"application/json",
     "{\"size\":4,\"cages\":[],\"grid\":[[1,1,null,null],[null,null,null,null],[null,null,null,"
     "null],[null,null,null,null]]}",
     422, "grid[0][1]"},
    {"application/json",
     "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]}],\"grid\":[[3,null,null,null],["
     "null,null,null,null],[null,null,null,null],[null,null,null,null]]}",
     422, "cages[0]"},
    {"application/json",
     "{\"size\":4,\"cages\":[],\"grid\":[[9,null,null,null],[null,null,null,null],[null,null,null,"
     "null],[null,null,null,null]]}",
     400, "grid[0][0]"},
    {"application/json", "{\"size\":4,\"symbols\":[1,2,3],\"cages\":[]}", 400, "symbols"},
    {"application/json", "{\"size\":4,\"symbols\":[1,2,2,4],\"cages\":[]}", 400, "symbols"},
    {"application/json", "{\"cages\":[]}", 400, "size"},
    {"application/json", "{\"size\":3,\"cages\":[]}", 400, "size"},
    {"application/json", "{\"size\":37,\"cages\":[]}", 400, "size"},
    {"application/json", "{\"size\":7,\"cages\":[]}", 400, "box"},
    {"application/json", "{\"box\":{\"rows\":0,\"cols\":3},\"cages\":[]}", 400, "box.rows"},
    {"application/json", "{\"box\":{\"rows\":2,\"cols\":99},\"cages\":[]}", 400, "box.cols"},
    {"application/json", "{\"size\":\"9\",\"cages\":[]}", 400, "size"},
    {"application/json", "{\"size\":4}", 400, "cages"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":\"3\",\"cells\":[[0,0]]}]}", 400,
     "cages[0].sum"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0]]}]}", 400,
     "cages[0].cells[0]"},
    {"application/json", "{\"size\":4,\"cages\":[{\"sum\":3}]}", 400, "cages[0]"},
    {"application/json", "{\"size\":4,\"cages\":[],\"method\":\"fast\"}", 400, "method"},
    {"application/json", "{\"size\":4,\"cages\":[],\"value_order\":\"up\"}", 400, "value_order"},
    {"application/json", "{\"size\":4,\"cages\":[],\"value_order\":3}", 400, "value_order"},
    {"application/json",
     "{\"size\":4,\"cages\":[],\"value_order\":\"descending\",\"method\":\"backtracking\"}", 400,
     "value_order"},
    {"application/json",
     "{\"size\":4,\"cages\":[],\"value_order\":\"ascending\",\"method\":\"learning\"}", 400,
     "value_order"},
    {"application/json", "{\"size\":4,\"cages\":[],\"max_solutions\":0}", 400, "max_solutions"},
    {"application/json", "{\"size\":4,\"cages\":[],\"diagonals\":1}", 400, "diagonals"},
    {"application/json", "{\"size\":4,\"cages\":[],\"shape\":1}", 400, "shape"},
    {"application/json", "{\"size\":4,", 400, "body"},
    {"text/plain", "4\n1 2 3 4\n1\n3 0,0 0-1\n", 400, "line 4"},
    {"text/plain", "4\n1 2 3 4\n2\n3 0,0 0,1\n", 400, "body"},
    {"text/plain", "x\n", 400, "line 1"},
    {"text/plain", "4\n1 2 3 4\n1\n3 0,0 0,1\n7 0,2 0,3\n", 400, "line 5"},
    /* numbers that used to wrap (sscanf "%d": 4294967300 read as 4) or
     * be followed by text nobody read */
    {"text/plain", "4294967300\n1 2 3 4\n0\n", 400, "line 1"},
    {"text/plain", "4 by 4\n1 2 3 4\n0\n", 400, "line 1"},
    {"text/plain", "4\n1 2 3 4\n0 cages\n", 400, "line 3"},
    {"text/plain", "4\n1 2 3 4\n18446744073709551616\n", 400, "line 3"},
    {"text/plain", "4\n1 2 3 4 99999999999999999999\n0\n", 400, "line 2"},
    {"text/plain", "4\n1 2 3 4\n1\n3 0,0 4294967296,1\n", 400, "line 4"},
    {"text/plain", "4\n1 2 3 4\n1\n3 0,0 0,4\n", 400, "line 4"},
    {"text/plain", "4\n1 2 3 4\n1\n3 0,0 0,1x\n", 400, "line 4"},
    {"text/plain", "4\n1 2 3 4\n1\n99999999999999999999 0,0\n", 400, "line 4"},
    {"text/plain", "4\n1 2 3 4\n1\n-3 0,0\n", 400, "line 4"},
    {"text/xml", "<k/>", 415, "Content-Type"},
};

START_TEST(killer_api_invalid_inputs_table) {
    const kbad_t *b = &kbad[_i];
    kres_t k = ksolve(b->ctype, b->body, NULL, 0);
    ck_assert_msg(k.status == b->status, "case %d: status %d, want %d: %s", _i, k.status, b->status,
                  k.body);
    int found = tjob_names(&k, b->field);
    ck_assert_msg(found, "case %d: '%s' not named: %s", _i, b->field, k.body);
    kres_free(&k);
}
END_TEST

START_TEST(killer_api_uncovered_cells_are_plain_sudoku) {
    /* one cage only: the rest is an ordinary 4x4 with 288 solutions cut down */
    kres_t k = ksolve(
        "application/json",
        "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]}],\"max_solutions\":1000}", NULL,
        0);
    ck_assert_msg(k.status == 200, "%s", k.body);
    long long n = json_integer_value(json_object_get(k.json, "solutions_found"));
    ck_assert_int_gt(n, 1);
    ck_assert_int_lt(n, 288);
    ck_assert_str_eq(json_string_value(json_object_get(k.json, "status")), "multiple");
    ck_assert(json_is_false(json_object_get(k.json, "unique")));
    kres_free(&k);
}
END_TEST

/* === threads > 1: the split search answers as one thread does === */

/* Two 9x9 killers from tests/fixtures/killer_basic.txt (gen_killer 6 3 9 3
 * 3 4 100 0 0): 12 and 2 solutions. */
#define CAGES9_12                                                                                  \
    "[{\"sum\":10,\"cells\":[[0,0],[0,1],[1,0]]},{\"sum\":12,\"cells\":[[0,2],[0,3],[1,2]]},{"     \
    "\"sum\":20,\"cells\":[[0,4],[0,5],[1,5],[2,5]]},{\"sum\":15,\"cells\":[[0,6],[0,7]]},{\"s"    \
    "um\":13,\"cells\":[[0,8],[1,8]]},{\"sum\":25,\"cells\":[[1,1],[2,1],[3,1],[4,1]]},{\"sum"     \
    "\":8,\"cells\":[[1,3]]},{\"sum\":7,\"cells\":[[1,4]]},{\"sum\":3,\"cells\":[[1,6]]},{"        \
    "\"sum\":"                                                                                     \
    "1,\"cells\":[[1,7]]},{\"sum\":21,\"cells\":[[2,0],[3,0],[4,0],[5,0]]},{\"sum\":13,\"cells"    \
    "\":[[2,2],[2,3],[3,3]]},{\"sum\":5,\"cells\":[[2,4],[3,4]]},{\"sum\":11,\"cells\":[[2,6],"    \
    "[3,6]]},{\"sum\":15,\"cells\":[[2,7],[2,8],[3,8]]},{\"sum\":14,\"cells\":[[3,2],[4,2],[4"     \
    ",3]]},{\"sum\":17,\"cells\":[[3,5],[4,5],[5,5]]},{\"sum\":18,\"cells\":[[3,7],[4,7],[4,6"     \
    "]]},{\"sum\":26,\"cells\":[[4,4],[5,4],[5,3],[5,2]]},{\"sum\":16,\"cells\":[[4,8],[5,8],"     \
    "[6,8]]},{\"sum\":2,\"cells\":[[5,1]]},{\"sum\":3,\"cells\":[[5,6],[6,6]]},{\"sum\":24,\"cel"  \
    "ls\":[[5,7],[6,7],[7,7],[7,6]]},{\"sum\":23,\"cells\":[[6,0],[6,1],[7,1],[7,2]]},{\"su"       \
    "m\":7,\"cells\":[[6,2],[6,3],[7,3]]},{\"sum\":26,\"cells\":[[6,4],[6,5],[7,4],[7,5]]},{"      \
    "\"sum\":21,\"cells\":[[7,0],[8,0],[8,1],[8,2]]},{\"sum\":1,\"cells\":[[7,8]]},{\"sum\":13,"   \
    "\"cells\":[[8,3],[8,4],[8,5]]},{\"sum\":15,\"cells\":[[8,6],[8,7],[8,8]]}]"

#define CAGES9_2                                                                                   \
    "[{\"sum\":14,\"cells\":[[0,0],[1,0],[1,1]]},{\"sum\":9,\"cells\":[[0,1],[0,2]]},{\"sum\":7"   \
    ",\"cells\":[[0,3]]},{\"sum\":6,\"cells\":[[0,4],[0,5]]},{\"sum\":9,\"cells\":[[0,6]]},{\"su"  \
    "m\":13,\"cells\":[[0,7],[1,7]]},{\"sum\":9,\"cells\":[[0,8],[1,8],[2,8]]},{\"sum\":11,\"ce"   \
    "lls\":[[1,2],[1,3]]},{\"sum\":29,\"cells\":[[1,4],[2,4],[3,4],[4,4]]},{\"sum\":9,\"cells"     \
    "\":[[1,5],[1,6]]},{\"sum\":14,\"cells\":[[2,0],[2,1]]},{\"sum\":14,\"cells\":[[2,2],[3,2]"    \
    "]},{\"sum\":3,\"cells\":[[2,3]]},{\"sum\":5,\"cells\":[[2,5],[3,5]]},{\"sum\":7,\"cells\":[[" \
    "2,6]]},{\"sum\":26,\"cells\":[[2,7],[3,7],[3,8],[4,8]]},{\"sum\":6,\"cells\":[[3,0]]},{\""    \
    "sum\":19,\"cells\":[[3,1],[4,1],[5,1]]},{\"sum\":3,\"cells\":[[3,3],[4,3]]},{\"sum\":16,\""   \
    "cells\":[[3,6],[4,6],[4,5],[4,7]]},{\"sum\":1,\"cells\":[[4,0]]},{\"sum\":18,\"cells\":[["    \
    "4,2],[5,2],[6,2],[5,3]]},{\"sum\":2,\"cells\":[[5,0]]},{\"sum\":13,\"cells\":[[5,4],[6,4"     \
    "],[7,4],[6,5]]},{\"sum\":18,\"cells\":[[5,5],[5,6],[6,6],[7,6]]},{\"sum\":18,\"cells\":["     \
    "[5,7],[6,7],[6,8]]},{\"sum\":4,\"cells\":[[5,8]]},{\"sum\":5,\"cells\":[[6,0]]},{\"sum\":2"   \
    "3,\"cells\":[[6,1],[7,1],[7,2],[8,2]]},{\"sum\":12,\"cells\":[[6,3],[7,3]]},{\"sum\":12,"     \
    "\"cells\":[[7,0],[8,0]]},{\"sum\":12,\"cells\":[[7,5],[8,5]]},{\"sum\":6,\"cells\":[[7,7]]"   \
    "},{\"sum\":11,\"cells\":[[7,8],[8,8],[8,7]]},{\"sum\":2,\"cells\":[[8,1]]},{\"sum\":11,\"ce"  \
    "lls\":[[8,3],[8,4]]},{\"sum\":8,\"cells\":[[8,6]]}]"

#define NOGIVENS ""
#define UNSOLVABLE4                                                                                \
    "{\"size\":4,\"cages\":[{\"sum\":1,\"cells\":[[0,0]]}],\"grid\":[[null,1,null,null],"          \
    "[null,null,null,null],[null,null,null,null],[null,null,null,null]]"

/* Sorted, so that sets of solutions compare as strings. */
static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Asserts that threads=2 gives what threads=1 gives for `body` (a JSON
 * object without its closing brace): status, count, unique, complete, the
 * solution when unique, the set of solutions when the count is exact; and
 * that stats say how the work was cut (max_solutions 1: the portfolio of
 * both value orders). */
static void same_as_one_thread(const char *body, int max_solutions) {
    kres_t k[2];
    char buf[8192];
    for (int t = 0; t < 2; t++) {
        snprintf(buf, sizeof buf, "%s,\"max_solutions\":%d,\"threads\":%d}", body, max_solutions,
                 t + 1);
        k[t] = ksolve("application/json", buf, NULL, 0);
        ck_assert_msg(k[t].status == 200, "threads=%d: %s", t + 1, k[t].body);
    }
    json_t *a = k[0].json, *b = k[1].json, *sa = json_object_get(a, "stats"),
           *sb = json_object_get(b, "stats");
    ck_assert_str_eq(json_string_value(json_object_get(a, "status")),
                     json_string_value(json_object_get(b, "status")));
    ck_assert_int_eq(json_integer_value(json_object_get(a, "solutions_found")),
                     json_integer_value(json_object_get(b, "solutions_found")));
    ck_assert_msg(json_equal(json_object_get(a, "unique"), json_object_get(b, "unique")),
                  "unique: %s vs %s", k[0].body, k[1].body);
    ck_assert(json_equal(json_object_get(a, "complete"), json_object_get(b, "complete")));
    if (json_is_true(json_object_get(a, "unique")))
        ck_assert(json_equal(json_object_get(a, "solution"), json_object_get(b, "solution")));
    ck_assert_int_eq(json_integer_value(json_object_get(sa, "threads")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(sa, "subproblems")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(sa, "value_orders")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(sb, "threads")), 2);
    /* max_solutions 1: both value orders, one item each; else 16 subtrees */
    ck_assert_int_eq(json_integer_value(json_object_get(sb, "subproblems")),
                     max_solutions == 1 ? 2 : 16);
    /* which orders searched depends on which item answers first */
    ck_assert_int_ge(json_integer_value(json_object_get(sb, "value_orders")), 1);
    ck_assert_int_le(json_integer_value(json_object_get(sb, "value_orders")),
                     max_solutions == 1 ? 2 : 1);
    ck_assert_str_eq(json_string_value(json_object_get(sb, "method")), "advanced");
    if (json_integer_value(json_object_get(a, "solutions_found")) < max_solutions) {
        json_t *la = json_object_get(a, "solutions"), *lb = json_object_get(b, "solutions");
        size_t n = json_array_size(la);
        char **xa = calloc(n + 1, sizeof *xa), **xb = calloc(n + 1, sizeof *xb);
        ck_assert_uint_eq(json_array_size(lb), n);
        for (size_t i = 0; i < n; i++) {
            xa[i] = json_dumps(json_array_get(la, i), JSON_COMPACT);
            xb[i] = json_dumps(json_array_get(lb, i), JSON_COMPACT);
        }
        qsort(xa, n, sizeof *xa, cmp_str);
        qsort(xb, n, sizeof *xb, cmp_str);
        for (size_t i = 0; i < n; i++) {
            ck_assert_str_eq(xa[i], xb[i]);
            free(xa[i]);
            free(xb[i]);
        }
        free(xa);
        free(xb);
    }
    kres_free(&k[0]);
    kres_free(&k[1]);
}

START_TEST(killer_api_threads_same_answer) {
    switch (_i) {
    case 0: same_as_one_thread("{\"size\":9,\"cages\":" CAGES9_12, 100); break; /* all 12 */
    case 1: same_as_one_thread("{\"size\":9,\"cages\":" CAGES9_12, 2); break;   /* multiple */
    case 2: same_as_one_thread("{\"size\":9,\"cages\":" CAGES9_2, 2); break;    /* exactly 2 */
    case 3:
        same_as_one_thread("{\"size\":9,\"cages\":" CAGES9_2, 1);
        break; /* solved, unique null */
    /* 4x4: advanced named (auto runs backtracking there, which never splits) */
    case 4: same_as_one_thread("{\"size\":4,\"method\":\"advanced\",\"cages\":" CAGES4, 100); break;
    case 5: same_as_one_thread("{\"size\":4,\"method\":\"advanced\",\"cages\":" CAGES4, 1); break;
    case 6: same_as_one_thread(UNSOLVABLE4 ",\"method\":\"advanced\"", 1); break;
    case 7: same_as_one_thread(UNSOLVABLE4 ",\"method\":\"advanced\"", 5); break;
    case 8:
        same_as_one_thread("{\"size\":9,\"cages\":" CAGES9_12 ",\"diagonals\":true", 100);
        break;
    default: { /* unique: the 2-solution killer with a given that tells them apart */
        char body[8192], grid[512];
        int at = 0;
        kres_t k = ksolve("application/json",
                          "{\"size\":9,\"cages\":" CAGES9_2 ",\"max_solutions\":2}", NULL, 0);
        json_t *sols = json_object_get(k.json, "solutions");
        ck_assert_uint_eq(json_array_size(sols), 2);
        for (int i = 0; i < 81 && at == 0; i++)
            if (cell(json_array_get(sols, 0), i / 9, i % 9) !=
                cell(json_array_get(sols, 1), i / 9, i % 9))
                at = i + 1;
        ck_assert_int_gt(at, 0);
        {
            int len = 0;
            for (int i = 0; i < 81; i++)
                len += snprintf(
                    grid + len, sizeof grid - (size_t)len, "%c",
                    i == at - 1
                        ? (char)('0' + cell(json_array_get(sols, _i == 9 ? 0 : 1), i / 9, i % 9))
                        : '.');
        }
        snprintf(body, sizeof body, "{\"size\":9,\"cages\":" CAGES9_2 ",\"grid\":\"%s\"", grid);
        kres_free(&k);
        same_as_one_thread(body, 1);
        same_as_one_thread(body, 2);
        k = ksolve("application/json", strcat(body, ",\"threads\":2,\"max_solutions\":2}"), NULL,
                   0);
        ck_assert_str_eq(json_string_value(json_object_get(k.json, "status")), "solved");
        ck_assert(json_is_true(json_object_get(k.json, "unique")));
        kres_free(&k);
        break;
    }
    }
}
END_TEST

/* The backtracking method does not split: threads=2 runs one item. */
START_TEST(killer_api_threads_backtracking_one_item) {
    kres_t k = ksolve("application/json",
                      "{\"size\":4,\"cages\":" CAGES4 ",\"method\":\"backtracking\",\"threads\":2}",
                      NULL, 0);
    ck_assert_msg(k.status == 200, "%s", k.body);
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(k.json, "stats"), "threads")), 1);
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(k.json, "stats"), "subproblems")), 1);
    kres_free(&k);
}
END_TEST

/* value_order: one order alone.  With no cages the search is symmetric
 * under v -> 5 - v, so the first solution highest-first is the mirror of
 * the lowest-first one; the text format takes the order in the query. */
START_TEST(killer_api_value_order) {
    static const char *const bodies[] = {
        "{\"size\":4,\"cages\":[],\"value_order\":\"ascending\"}",
        "{\"size\":4,\"cages\":[],\"value_order\":\"descending\"}",
        "{\"size\":4,\"cages\":[],\"value_order\":\"descending\",\"threads\":2}",
    };
    kres_t k[4];
    for (int i = 0; i < 3; i++) {
        k[i] = ksolve("application/json", bodies[i], NULL, 0);
        ck_assert_msg(k[i].status == 200, "%s", k[i].body);
        json_t *st = json_object_get(k[i].json, "stats");
        ck_assert_int_eq(json_integer_value(json_object_get(st, "value_orders")), 1);
        ck_assert_int_eq(json_integer_value(json_object_get(st, "subproblems")), i == 2 ? 16 : 1);
    }
    api_param_t q[1] = {{"value_order", "descending"}};
    k[3] = ksolve("text/plain", "4\n1 2 3 4\n0\n", q, 1);
    ck_assert_msg(k[3].status == 200, "%s", k[3].body);
    json_t *lo = json_object_get(k[0].json, "solution"),
           *hi = json_object_get(k[1].json, "solution");
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            ck_assert_int_eq(cell(hi, r, c), 5 - cell(lo, r, c));
            ck_assert_int_eq(cell(json_object_get(k[3].json, "solution"), r, c), cell(hi, r, c));
        }
    /* split over two workers: still a valid grid, still one order */
    json_t *sp = json_object_get(k[2].json, "solution");
    for (int r = 0; r < 4; r++) {
        int seen = 0;
        for (int c = 0; c < 4; c++)
            seen |= 1 << cell(sp, r, c);
        ck_assert_int_eq(seen, 0x1e);
    }
    for (int i = 0; i < 4; i++)
        kres_free(&k[i]);
}
END_TEST

/* The reader's fast path (api/json_scan.h) against jansson's: each body is
 * solved as it is, and again with its "size" key written as "\u0073ize",
 * which the fast path never takes.  The answers must be the same (but for
 * the time), or the same errors; the fast path must have read the bodies it
 * is for (job.body_fast), and given up on the rest. */
START_TEST(killer_api_fast_reader_agrees_with_jansson) {
    static const struct {
        const char *body; /* "%s": where CAGES4 goes, if anywhere */
        int fast;
    } cases[] = {
        {"{\"size\":4,\"cages\":%s}", 1},
        {" {\n \"cages\" : %s , \"size\" : 4 ,\"method\":\"advanced\",\"max_solutions\":3 } ", 1},
        {"{\"size\":4,\"cages\":%s,\"grid\":\"1...............\",\"diagonals\":true}", 1},
        {"{\"size\":4,\"cages\":%s,\"method\":\"backtracking\",\"threads\":2,\"timeout_ms\":900}",
         1},
        {"{\"size\":4,\"cages\":%s,\"value_order\":\"descending\",\"threads\":2}", 1},
        {"{\"size\":4,\"cages\":[{\"cells\":[[0,0]],\"sum\":1}]}", 1}, /* 422 after reading */
        {"{\"size\":4,\"cages\":[]}", 1},
        {"{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[]}]}", 1},
        {"{\"size\":4,\"cages\":[{\"sum\":-1,\"cells\":[[0,0]]}]}", 0},
        {"{\"size\":4,\"cages\":[{\"sum\":1.0,\"cells\":[[0,0]]}]}", 0},
        {"{\"size\":4,\"cages\":[{\"sum\":1,\"cells\":[[0,0,1]]}]}", 0},
        {"{\"size\":4,\"cages\":[{\"sum\":1,\"sum\":1,\"cells\":[[0,0]]}]}", 0},
        {"{\"size\":4,\"cages\":[{\"sum\":1,\"cells\":[[0,0]],\"x\":1}]}", 0},
        {"{\"size\":4,\"cages\":[{\"sum\":1,\"cells\":[[0,\"0\"]]}]}", 0},
        {"{\"size\":4,\"cages\":[{\"sum\":1,\"cells\":[[0,0],]}]}", 0},
        {"{\"size\":4,\"cages\":%s,\"size\":4}", 0},
        {"{\"size\":3,\"cages\":%s}", 0},
        {"{\"size\":4,\"cages\":%s,\"grid\":\"1..............\"}", 0},
        {"{\"size\":4,\"cages\":%s,\"method\":\"magic\"}", 0},
        {"{\"size\":4,\"cages\":%s,\"threads\":3}", 0},
        {"{\"size\":4,\"cages\":%s,\"diagonals\":1}", 0},
        {"{\"size\":4,\"cages\":%s,\"box\":{\"rows\":2,\"cols\":2}}", 0},
        {"{\"size\":4,\"cages\":%s} x", 0},
        {"{\"size\":4}", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char fast[1024], slow[1024], *at;
        snprintf(fast, sizeof fast, cases[i].body, CAGES4);
        ck_assert((at = strstr(fast, "\"size\"")) != NULL);
        snprintf(slow, sizeof slow, "%.*s\"\\u0073ize\"%s", (int)(at - fast), fast, at + 6);

        api_request_t r;
        api_job_t *job = NULL;
        api_response_t resp = {0};
        memset(&r, 0, sizeof r);
        r.method = "POST";
        r.path = "/v1/killer/solve";
        r.body = fast;
        r.body_len = strlen(fast);
        r.content_type = "application/json";
        r.pool_threads = 2;
        r.max_timeout_ms = 30000;
        api_killer_solve_prepare(&r, &job, &resp);
        int took = job != NULL && job->body_fast;
        if (job != NULL) job->ops->free(job);
        api_response_destroy(&resp);
        /* a body the fast path reads may still fail the rules afterwards */
        ck_assert_msg(cases[i].fast ? (took || job == NULL) : !took, "%s: fast path %d", fast,
                      took);

        kres_t a = ksolve("application/json", fast, NULL, 0);
        kres_t b = ksolve("application/json", slow, NULL, 0);
        ck_assert_msg(a.status == b.status, "%s: %d, with jansson %d", fast, a.status, b.status);
        ck_assert_ptr_nonnull(a.json);
        ck_assert_ptr_nonnull(b.json);
        json_object_del(json_object_get(a.json, "stats"), "elapsed_ms");
        json_object_del(json_object_get(b.json, "stats"), "elapsed_ms");
        if (a.status != 200) { /* problems: the same fields (details may name a column) */
            json_t *ea = json_object_get(a.json, "errors"), *eb = json_object_get(b.json, "errors");
            ck_assert_uint_eq(json_array_size(ea), json_array_size(eb));
            for (size_t k = 0; k < json_array_size(ea); k++)
                ck_assert_str_eq(
                    json_string_value(json_object_get(json_array_get(ea, k), "field")),
                    json_string_value(json_object_get(json_array_get(eb, k), "field")));
        } else {
            ck_assert_msg(json_equal(a.json, b.json), "%s: %s\nwith jansson: %s", fast, a.body,
                          b.body);
        }
        kres_free(&a);
        kres_free(&b);
    }
}
END_TEST

/* A generated 16x16 killer (tests/killer_gen.h) as a JSON body, with the
 * options `opts` (",\"threads\":2" ...) before the closing brace.  The
 * caller frees the result. */
static char *body16(unsigned seed, int maxk, const char *opts, gen_t *g) {
    size_t cap = 65536, len = 0;
    char *b = malloc(cap);
    ck_assert_ptr_nonnull(b);
    kg_gen_init(g, 16, 4, 4);
    kg_make_grid(16, 4, 4, &seed, g->grid);
    kg_make_cages(g, maxk, 100, &seed);
    len += (size_t)snprintf(b + len, cap - len, "{\"size\":16,\"cages\":[");
    for (int i = 0; i < g->pz.ncages; i++) {
        const killer_cage_t *c = &g->pz.cages[i];
        len += (size_t)snprintf(b + len, cap - len, "%s{\"sum\":%ld,\"cells\":[", i ? "," : "",
                                c->sum);
        for (int k = 0; k < c->ncells; k++)
            len += (size_t)snprintf(b + len, cap - len, "%s[%d,%d]", k ? "," : "", c->cells[k].r,
                                    c->cells[k].c);
        len += (size_t)snprintf(b + len, cap - len, "]}");
    }
    snprintf(b + len, cap - len, "]%s}", opts);
    return b;
}

/* The answer's grid (symbols 1..16) back into value indices. */
static void grid16(json_t *sol, uint8_t *out) {
    for (int i = 0; i < 256; i++)
        out[i] = (uint8_t)cell(sol, i / 16, i % 16);
}

/* From 16x16 up, auto on two threads races the learning method against
 * the advanced one: two items, the answer named by the member that
 * settled it, valid, and unique exactly when one thread says so (auto on
 * one thread: advanced first, then learning); learning asked for by name
 * runs one item whatever threads says, and takes no value order. */
START_TEST(killer_api_race_16) {
    gen_t *g = malloc(sizeof *g);
    uint8_t grid[256];
    ck_assert_ptr_nonnull(g);
    for (unsigned t = 0; t < 3; t++) {
        char *one = body16(600u + t, 3 + (int)t % 2, ",\"max_solutions\":2", g);
        char *two = body16(600u + t, 3 + (int)t % 2, ",\"max_solutions\":2,\"threads\":2", g);
        kres_t a = ksolve("application/json", one, NULL, 0);
        kres_t b = ksolve("application/json", two, NULL, 0);
        json_t *sb = json_object_get(b.json, "stats");
        const char *m = json_string_value(json_object_get(sb, "method"));
        ck_assert_msg(a.status == 200 && b.status == 200, "%s / %s", a.body, b.body);
        ck_assert_int_eq(json_integer_value(json_object_get(sb, "subproblems")), 2);
        ck_assert_msg(strcmp(m, "learning") == 0 || strcmp(m, "advanced") == 0, "%s", m);
        ck_assert_str_eq(json_string_value(json_object_get(a.json, "status")),
                         json_string_value(json_object_get(b.json, "status")));
        ck_assert(json_equal(json_object_get(a.json, "unique"), json_object_get(b.json, "unique")));
        grid16(json_object_get(b.json, "solution"), grid);
        ck_assert_int_eq(killer_check_solution(&g->pz, grid), 1);
        if (json_is_true(json_object_get(b.json, "unique")))
            ck_assert(json_equal(json_object_get(a.json, "solution"),
                                 json_object_get(b.json, "solution")));
        kres_free(&a);
        kres_free(&b);
        free(one);
        free(two);
    }
    {
        char *lb = body16(77u, 3, ",\"method\":\"learning\",\"threads\":2", g);
        kres_t k = ksolve("application/json", lb, NULL, 0);
        json_t *st = json_object_get(k.json, "stats");
        ck_assert_msg(k.status == 200, "%s", k.body);
        ck_assert_str_eq(json_string_value(json_object_get(st, "method")), "learning");
        ck_assert_int_eq(json_integer_value(json_object_get(st, "subproblems")), 1);
        grid16(json_object_get(k.json, "solution"), grid);
        ck_assert_int_eq(killer_check_solution(&g->pz, grid), 1);
        kres_free(&k);
        free(lb);
    }
    free(g);
}
END_TEST

Suite *killer_api_suite(void);
Suite *killer_api_suite(void) {
    Suite *s = suite_create("killer_api");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, killer_api_json_both_methods_agree);
    tcase_add_test(tc, killer_api_auto_method_by_size);
    tcase_add_test(tc, killer_api_text_format_and_diagonals);
    tcase_add_test(tc, killer_api_text_long_lines);
    tcase_add_test(tc, killer_api_custom_symbols_and_givens);
    tcase_add_loop_test(tc, killer_api_invalid_inputs_table, 0,
                        (int)(sizeof kbad / sizeof kbad[0]));
    tcase_add_test(tc, killer_api_uncovered_cells_are_plain_sudoku);
    tcase_add_loop_test(tc, killer_api_threads_same_answer, 0, 11);
    tcase_add_test(tc, killer_api_threads_backtracking_one_item);
    tcase_add_test(tc, killer_api_value_order);
    tcase_add_test(tc, killer_api_fast_reader_agrees_with_jansson);
    tcase_add_test(tc, killer_api_race_16);
    suite_add_tcase(s, tc);
    return s;
}
