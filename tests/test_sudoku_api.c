/* test_sudoku_api.c -- the Sudoku endpoints without a server: every input
 * format, symbol sets, answer shapes, statuses, and the table of invalid
 * inputs with the status and field each must produce.  Jobs are driven
 * through prepare/run/merge/render exactly as the pool drives them. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sudoku_api.h"
#include "tests/job_harness.h"

/* Arto Inkala's 2012 puzzle and its (unique) solution. */
static const char *inkala =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
static const char *inkala_sol =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

typedef tjob_t call_t;

static call_t call(api_prepare_fn fn, const char *ctype, const char *accept, const char *body,
                   const api_param_t *params, size_t nparams) {
    return tjob_call(fn, ctype, accept, body, params, nparams);
}

static call_t solve_json(const char *body) {
    return call(api_sudoku_solve_prepare, "application/json", NULL, body, NULL, 0);
}

static void call_free(call_t *c) { tjob_free(c); }

static const char *jstr(json_t *j, const char *k) {
    return json_string_value(json_object_get(j, k));
}

static int names_field(const call_t *c, const char *field) { return tjob_names(c, field); }

START_TEST(sudoku_api_solves_string_grid) {
    char body[256];
    snprintf(body, sizeof body, "{\"grid\":\"%s\"}", inkala);
    call_t c = solve_json(body);
    ck_assert_int_eq(c.status, 200);
    ck_assert_str_eq(jstr(c.json, "status"), "solved");
    ck_assert_str_eq(jstr(c.json, "solution"), inkala_sol);
    ck_assert(json_is_null(json_object_get(c.json, "unique"))); /* one asked, one found */
    ck_assert_ptr_null(json_object_get(c.json, "solutions"));
    json_t *st = json_object_get(c.json, "stats");
    ck_assert(json_integer_value(json_object_get(st, "nodes")) > 0);
    ck_assert(json_is_number(json_object_get(st, "elapsed_ms")));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(c.json, "box"), "rows")),
                     3);
    call_free(&c);
}
END_TEST

START_TEST(sudoku_api_every_method_agrees) {
    const char *methods[] = {"auto",       "backtracking", "mrv",         "propagation",
                             "best-first", "dlx",          "algorithm-x", "fast"};
    const char *levels[] = {"peers", "hidden-singles", "naked-pairs", "subsets"};
    char body[512];
    for (size_t m = 0; m < 8; m++) {
        snprintf(body, sizeof body, "{\"grid\":\"%s\",\"method\":\"%s\",\"max_solutions\":2}",
                 inkala, methods[m]);
        call_t c = solve_json(body);
        ck_assert_msg(c.status == 200, "%s: %s", methods[m], c.body);
        ck_assert_str_eq(jstr(c.json, "solution"), inkala_sol);
        ck_assert(json_is_true(json_object_get(c.json, "unique")));
        call_free(&c);
    }
    for (size_t l = 0; l < 4; l++) {
        snprintf(body, sizeof body,
                 "{\"grid\":\"%s\",\"method\":\"propagation\",\"propagation\":\"%s\"}", inkala,
                 levels[l]);
        call_t c = solve_json(body);
        ck_assert_str_eq(jstr(c.json, "solution"), inkala_sol);
        ck_assert_str_eq(jstr(json_object_get(c.json, "stats"), "propagation"), levels[l]);
        call_free(&c);
    }
}
END_TEST

START_TEST(sudoku_api_exact_cover_parallel) {
    const char *bodies[] = {
        "{\"grid\":\"................\",\"max_solutions\":300,\"method\":\"dlx\",\"threads\":2}",
        ("{\"grid\":\"................\",\"max_solutions\":300,\"method\":\"algorithm-x\","
         "\"threads\":2}"),
        "{\"grid\":\"................\",\"max_solutions\":300,\"method\":\"propagation\"}"};
    json_t *first = NULL;
    for (size_t i = 0; i < 3; i++) {
        call_t c = solve_json(bodies[i]);
        ck_assert_msg(c.status == 200, "%s", c.body);
        ck_assert_int_eq(json_integer_value(json_object_get(c.json, "solutions_found")), 288);
        ck_assert(json_is_true(json_object_get(c.json, "complete")));
        if (i < 2)
            ck_assert_int_gt(json_integer_value(
                                 json_object_get(json_object_get(c.json, "stats"), "subproblems")),
                             1);
        /* the parallel solutions come back in the sequential search order */
        if (i == 0) first = json_incref(json_object_get(c.json, "solutions"));
        if (i == 1) ck_assert(json_equal(first, json_object_get(c.json, "solutions")));
        call_free(&c);
    }
    json_decref(first);
    char body[256];
    snprintf(body, sizeof body, "{\"grid\":\"%s\",\"method\":\"dlx\",\"threads\":2}", inkala);
    call_t c = solve_json(body);
    ck_assert_str_eq(jstr(c.json, "solution"), inkala_sol);
    call_free(&c);
}
END_TEST

START_TEST(sudoku_api_multiple_and_unsolvable) {
    /* an empty 4x4 has 288 solutions */
    call_t c = solve_json("{\"grid\":\"................\",\"max_solutions\":300}");
    ck_assert_str_eq(jstr(c.json, "status"), "multiple");
    ck_assert_int_eq(json_integer_value(json_object_get(c.json, "solutions_found")), 288);
    ck_assert_int_eq(json_array_size(json_object_get(c.json, "solutions")), 288);
    ck_assert(json_is_false(json_object_get(c.json, "unique")));
    ck_assert(json_is_true(json_object_get(c.json, "complete")));
    call_free(&c);
    /* consistent givens, no solution: row 0 needs its 4 where box 1 has one */
    c = solve_json("{\"grid\":[[1,2,3,0],[0,0,0,4],[0,0,0,0],[0,0,0,0]]}");
    ck_assert_int_eq(c.status, 200);
    ck_assert_str_eq(jstr(c.json, "status"), "unsolvable");
    ck_assert(json_is_false(json_object_get(c.json, "unique")));
    ck_assert_ptr_null(json_object_get(c.json, "solution"));
    call_free(&c);
}
END_TEST

START_TEST(sudoku_api_arrays_and_custom_symbols) {
    /* 6x6 with 2x3 boxes by default, nulls and zeros both empty */
    call_t c = solve_json("{\"grid\":[[1,null,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],"
                          "[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,6]]}");
    ck_assert_int_eq(c.status, 200);
    json_t *box = json_object_get(c.json, "box");
    ck_assert_int_eq(json_integer_value(json_object_get(box, "rows")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(box, "cols")), 3);
    json_t *sol = json_object_get(c.json, "solution");
    ck_assert(json_is_array(sol));
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 0), 0)), 1);
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 5), 5)), 6);
    call_free(&c);
    /* symbols with 0 among them: 0 is a value, null is empty */
    c = solve_json("{\"grid\":[[0,null,null,null],[null,null,null,null],[null,null,null,null],"
                   "[null,null,null,30]],\"symbols\":[0,10,20,30]}");
    ck_assert_int_eq(c.status, 200);
    sol = json_object_get(c.json, "solution");
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 0), 0)), 0);
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 3), 3)), 30);
    for (int r = 0; r < 4; r++) { /* every row holds the four symbols */
        long long sum = 0;
        for (int k = 0; k < 4; k++)
            sum += json_integer_value(json_array_get(json_array_get(sol, (size_t)r), (size_t)k));
        ck_assert_int_eq(sum, 60);
    }
    call_free(&c);
}
END_TEST

START_TEST(sudoku_api_text_and_csv_formats) {
    /* text: size, symbols, givens */
    call_t c = call(api_sudoku_solve_prepare, "text/plain", NULL,
                    "4\n1 2 3 4\n0,0 1\n# comment\n\n1,2 3\r\n3,3 2\n", NULL, 0);
    ck_assert_msg(c.status == 200, "%s", c.body);
    json_t *sol = json_object_get(c.json, "solution");
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 0), 0)), 1);
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 1), 2)), 3);
    call_free(&c);
    /* CSV in, CSV out, and the CSV answer validates as complete */
    api_param_t opt = {"method", "mrv"};
    c = call(api_sudoku_solve_prepare, "text/csv", "text/csv", "1,,,\n,,3,\n,,,\n,,,2\n", &opt, 1);
    ck_assert_int_eq(c.status, 200);
    ck_assert_ptr_nonnull(strstr(c.ctype, "text/csv"));
    ck_assert_int_eq(strlen(c.body), 4 * 8); /* "a,b,c,d\n" x 4 */
    ck_assert(strncmp(c.body, "1,", 2) == 0);
    call_t v = call(api_sudoku_validate_prepare, "text/csv", NULL, c.body, NULL, 0);
    ck_assert_int_eq(v.status, 200);
    ck_assert(json_is_true(json_object_get(v.json, "valid")));
    ck_assert(json_is_true(json_object_get(v.json, "complete")));
    call_free(&v);
    call_free(&c);
}
END_TEST

/* Text format round trip: the solution written back as text givens is a
 * complete, valid grid that solves to itself. */
START_TEST(sudoku_api_text_round_trip) {
    call_t c = call(api_sudoku_solve_prepare, "text/plain", NULL,
                    "6\n10 20 30 40 50 60\n0,0 10\n5,5 60\n2,3 30\n", NULL, 0);
    ck_assert_msg(c.status == 200, "%s", c.body);
    json_t *sol = json_object_get(c.json, "solution");
    char text[2048];
    size_t len = (size_t)snprintf(text, sizeof text, "6\n10 20 30 40 50 60\n");
    for (size_t r = 0; r < 6; r++)
        for (size_t k = 0; k < 6; k++)
            len += (size_t)snprintf(
                text + len, sizeof text - len, "%zu,%zu %lld\n", r, k,
                (long long)json_integer_value(json_array_get(json_array_get(sol, r), k)));
    call_t v = call(api_sudoku_validate_prepare, "text/plain", NULL, text, NULL, 0);
    ck_assert(json_is_true(json_object_get(v.json, "complete")));
    call_t again = call(api_sudoku_solve_prepare, "text/plain", NULL, text, NULL, 0);
    ck_assert(json_equal(sol, json_object_get(again.json, "solution")));
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 0), 0)), 10);
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 2), 3)), 30);
    call_free(&again);
    call_free(&v);
    call_free(&c);
}
END_TEST

/* A text line is read whole, however long: the blanks before a value, or
 * text after it, past what used to be a 127-byte buffer. */
START_TEST(sudoku_api_text_long_lines) {
    char body[1024];
    size_t n = (size_t)snprintf(body, sizeof body, "4\n1 2 3 4\n0,0");
    memset(body + n, ' ', 300);
    snprintf(body + n + 300, sizeof body - n - 300, "3\n1,1 1\n");
    call_t c = call(api_sudoku_solve_prepare, "text/plain", NULL, body, NULL, 0);
    ck_assert_msg(c.status == 200, "%s", c.body);
    json_t *sol = json_object_get(c.json, "solution");
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 0), 0)), 3);
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 1), 1)), 1);
    call_free(&c);
    /* the same with text after the value, 300 blanks on: refused */
    snprintf(body + n + 300, sizeof body - n - 300, "3 junk\n");
    c = call(api_sudoku_solve_prepare, "text/plain", NULL, body, NULL, 0);
    ck_assert_int_eq(c.status, 400);
    ck_assert(names_field(&c, "line 3"));
    call_free(&c);
    n = (size_t)snprintf(body, sizeof body, "4\n1 2 3 4\n0,0 3");
    memset(body + n, ' ', 300);
    snprintf(body + n + 300, sizeof body - n - 300, "4\n");
    c = call(api_sudoku_solve_prepare, "text/plain", NULL, body, NULL, 0);
    ck_assert_int_eq(c.status, 400);
    ck_assert(names_field(&c, "line 3"));
    call_free(&c);
    /* leading zeros are a number like any other, however many */
    c = call(api_sudoku_solve_prepare, "text/plain", NULL,
             "4\n1 2 3 4\n00000000000000000000000000000000001,0 00000000000000000000000002\n", NULL,
             0);
    ck_assert_msg(c.status == 200, "%s", c.body);
    sol = json_object_get(c.json, "solution");
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(sol, 1), 0)), 2);
    call_free(&c);
}
END_TEST

START_TEST(sudoku_api_trace) {
    char body[256];
    snprintf(body, sizeof body, "{\"grid\":\"%s\",\"trace\":true}", inkala);
    call_t c = solve_json(body);
    json_t *trace = json_object_get(c.json, "trace");
    ck_assert(json_array_size(trace) > 0);
    ck_assert(json_is_boolean(json_object_get(c.json, "trace_truncated")));
    for (size_t i = 0; i < json_array_size(trace); i++) {
        json_t *s = json_array_get(trace, i);
        const char *k = jstr(s, "step");
        ck_assert(strcmp(k, "assign") == 0 || strcmp(k, "eliminate") == 0 ||
                  strcmp(k, "guess") == 0 || strcmp(k, "backtrack") == 0);
        ck_assert_int_lt(json_integer_value(json_object_get(s, "row")), 9);
        ck_assert_int_ge(json_integer_value(json_object_get(s, "value")), 1);
    }
    call_free(&c);
}
END_TEST

START_TEST(sudoku_api_validate_lists_conflicts) {
    call_t c = call(api_sudoku_validate_prepare, "application/json", NULL,
                    "{\"grid\":\"1..1....1.......\"}", NULL, 0);
    ck_assert_int_eq(c.status, 200);
    ck_assert(json_is_false(json_object_get(c.json, "valid")));
    ck_assert(json_is_false(json_object_get(c.json, "complete")));
    json_t *cf = json_object_get(c.json, "conflicts");
    ck_assert_int_ge(json_array_size(cf), 2); /* row 0 and column 0 */
    int row0 = 0, col0 = 0;
    for (size_t i = 0; i < json_array_size(cf); i++) {
        const char *u = jstr(json_array_get(cf, i), "unit");
        row0 |= strcmp(u, "row 0") == 0;
        col0 |= strcmp(u, "column 0") == 0;
        ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(cf, i), "value")), 1);
    }
    ck_assert(row0 && col0);
    call_free(&c);
}
END_TEST

/* The invalid-input table: body, content type, status, field named. */
typedef struct bad_s {
    const char *ctype;
    const char *body;
    int status;
    const char *field;
} bad_t;

static const bad_t bad_inputs[] = {
    {"application/json", "{\"grid\":\"123\"}", 400, "grid"},
    {"application/json",
     "{\"grid\":"
     "\"1234123412341234123412341234123412341234123412341234123412341234123412341234123\"}",
     400, "grid"},
    {"application/json", "{\"grid\":\"...?............\"}", 400, "grid[0][3]"},
    {"application/json", "{\"grid\":[[1,2,3,4],[1,2,3],[0,0,0,0],[0,0,0,0]]}", 400, "grid[1]"},
    {"application/json", "{\"grid\":[[1,2,3,4],[0,0,0,0],[0,0,\"x\",0],[0,0,0,0]]}", 400,
     "grid[2][2]"},
    {"application/json", "{\"grid\":[[1,2,3],[0,0,0],[0,0,0]]}", 400, "grid"},
    {"application/json", "{\"grid\":\"................\",\"symbols\":[1,2,2,4]}", 400,
     "symbols[2]"},
    {"application/json", "{\"grid\":\"................\",\"symbols\":[1,2,3]}", 400, "symbols"},
    {"application/json", "{\"grid\":\"................\",\"symbols\":[1,2,3,-4]}", 400,
     "symbols[3]"},
    {"application/json", "{\"grid\":\"....5...........\"}", 400, "grid[1][0]"},
    {"application/json", "{\"grid\":\"................\",\"box\":{\"rows\":3,\"cols\":2}}", 400,
     "box.rows"},
    {"application/json", "{\"grid\":\"................\",\"box\":{\"rows\":0,\"cols\":4}}", 400,
     "box.rows"},
    {"application/json",
     "{\"grid\":[[0,0,0,0,0,0,0],[0,0,0,0,0,0,0],[0,0,0,0,0,0,0],[0,0,0,0,0,0,0],"
     "[0,0,0,0,0,0,0],[0,0,0,0,0,0,0],[0,0,0,0,0,0,0]]}",
     400, "box"},
    {"application/json", "{\"grid\":\"................\",\"method\":\"magic\"}", 400, "method"},
    {"application/json", "{\"grid\":\"................\",\"propagation\":\"all\"}", 400,
     "propagation"},
    {"application/json", "{\"grid\":\"................\",\"max_solutions\":0}", 400,
     "max_solutions"},
    {"application/json", "{\"grid\":\"................\",\"max_solutions\":10001}", 400,
     "max_solutions"},
    {"application/json", "{\"grid\":\"................\",\"timeout_ms\":0}", 400, "timeout_ms"},
    {"application/json", "{\"grid\":\"................\",\"threads\":3}", 400, "threads"},
    {"application/json", "{\"grid\":\"................\",\"method\":\"fast\"}", 400, "method"},
    {"application/json", "{\"grid\":\"................\",\"method\":\"dlx\",\"trace\":true}", 400,
     "trace"},
    {"application/json", "{\"grid\":\"................\",\"trace\":\"yes\"}", 400, "trace"},
    {"application/json", "{\"grid\":\"................\",\"colour\":1}", 400, "colour"},
    {"application/json", "{\"grid\":\"....\"", 400, "body"},
    {"application/json", "[1,2]", 400, "body"},
    {"application/json", "{}", 400, "grid"},
    {"application/json", "{\"grid\":\"11..............\"}", 422, "grid[0][1]"},
    {"application/json", "{\"grid\":\"1...1...........\"}", 422, "grid[1][0]"},
    {"application/json", "{\"grid\":\"1....1..........\"}", 422, "grid[1][1]"},
    {"text/xml", "<grid/>", 415, "Content-Type"},
    {"text/plain", "4\n1 2 3 4\n0,0 1\nnonsense\n", 400, "line 4"},
    {"text/plain", "4\n1 2 3 4\n0,9 1\n", 400, "line 3"},
    {"text/plain", "4\n1 2 3 4\n0,0 1\n0,0 2\n", 400, "line 4"},
    {"text/plain", "99\n", 400, "line 1"},
    {"text/plain", "4\n1 2 3 4 5\n", 400, "symbols"},
    /* numbers that used to wrap (sscanf "%d") or slip past: 2^32 read as 0 */
    {"text/plain", "4\n1 2 3 4\n4294967296,0 3\n", 400, "line 3"},
    {"text/plain", "4\n1 2 3 4\n0,4294967297 3\n", 400, "line 3"},
    {"text/plain", "4\n1 2 3 4\n0,0 99999999999999999999\n", 400, "line 3"},
    {"text/plain", "4\n1 2 3 4\n0,0 3 4\n", 400, "line 3"},
    {"text/plain", "4\n1 2 3 4\n-1,0 3\n", 400, "line 3"},
    {"text/plain", "4\n1 2 3 4\n0,0,3\n", 400, "line 3"},
    {"text/plain", "4294967300\n1 2 3 4\n", 400, "line 1"},
    {"text/csv", "99999999999999999999,,,\n,,,\n,,,\n,,,\n", 400, "grid[0][0]"},
    {"text/csv", "1,,,\n,,x,\n,,,\n,,,\n", 400, "grid[1][2]"},
    {"text/csv", "1,,,\n,,\n,,,\n,,,\n", 400, "grid[1]"},
    {"text/csv", "1,,\n,,\n,,\n", 400, "grid"},
};

START_TEST(sudoku_api_invalid_inputs_table) {
    const bad_t *b = &bad_inputs[_i];
    call_t c = call(api_sudoku_solve_prepare, b->ctype, NULL, b->body, NULL, 0);
    ck_assert_msg(c.status == b->status, "case %d: status %d, want %d: %s", _i, c.status, b->status,
                  c.body);
    ck_assert_str_eq(c.ctype, "application/problem+json");
    ck_assert_msg(names_field(&c, b->field), "case %d: '%s' not named: %s", _i, b->field, c.body);
    call_free(&c);
}
END_TEST

START_TEST(sudoku_api_query_params_only_for_text) {
    api_param_t p = {"method", "mrv"};
    call_t c = call(api_sudoku_solve_prepare, "application/json", NULL,
                    "{\"grid\":\"................\"}", &p, 1);
    ck_assert_int_eq(c.status, 400);
    ck_assert(names_field(&c, "method"));
    call_free(&c);
    api_param_t bad = {"box", "2by2"};
    c = call(api_sudoku_solve_prepare, "text/csv", NULL, "1,,,\n,,,\n,,,\n,,,\n", &bad, 1);
    ck_assert_int_eq(c.status, 400);
    ck_assert(names_field(&c, "box"));
    call_free(&c);
}
END_TEST

/* Reads a JSON body with api_sudoku_read(). */
static int read_json(const char *body, api_sudoku_puzzle_t *pz, api_problem_t *p) {
    api_request_t r;
    memset(&r, 0, sizeof r);
    r.method = "POST";
    r.path = "/v1/sudoku/solve";
    r.body = body;
    r.body_len = strlen(body);
    r.content_type = "application/json";
    r.pool_threads = 2;
    r.max_timeout_ms = 30000;
    return api_sudoku_read(&r, NULL, pz, p);
}

/* The reader's fast path (common bodies without a jansson tree) against
 * jansson's: each body is read as it is, and again with the grid's first
 * character written as a \u escape -- which the fast path never takes, so
 * jansson reads that one.  Both must leave the same puzzle, or the same
 * errors.  The bodies cover every field the fast path takes, in any order,
 * with whitespace, and values it must refuse to the full reader. */
START_TEST(sudoku_api_fast_reader_agrees_with_jansson) {
    static const char *const opts[] = {
        "",
        ", \"method\": \"dlx\"",
        ",\"method\":\"fast\",\"max_solutions\":2,\"timeout_ms\":500,\"threads\":2,\"trace\":true",
        " ,\n\t\"propagation\" : \"naked-pairs\" , \"trace\" : false ",
        ",\"threads\":1,\"method\":\"cdcl\"",
        ",\"method\":\"nope\"",
        ",\"propagation\":\"peers\",\"propagation\":\"subsets\"",
        ",\"max_solutions\":0",
        ",\"max_solutions\":01",
        ",\"max_solutions\":1.0",
        ",\"max_solutions\":1e1",
        ",\"max_solutions\":-0",
        ",\"max_solutions\":99999999999999999999999",
        ",\"timeout_ms\":30001",
        ",\"threads\":3",
        ",\"trace\":1",
        ",\"trace\":truex",
        ",\"box\":{\"rows\":3,\"cols\":3}",
        ",\"extra\":1",
        "}garbage",
        ",",
    };
    static const char *const grids[] = {
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        "1...............",
        "1..2............", /* a conflict: 422 */
        "1..............#", /* a bad character */
        "1..............",  /* not N*N */
    };
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++)
        for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
            char fast[512], slow[512];
            snprintf(fast, sizeof fast, "{\"grid\":\"%s\"%s}", grids[g], opts[o]);
            snprintf(slow, sizeof slow, "{\"grid\":\"\\u00%02x%s\"%s}", grids[g][0], grids[g] + 1,
                     opts[o]);
            api_sudoku_puzzle_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
            api_problem_t pa, pb;
            ck_assert(a != NULL && b != NULL);
            int ra = read_json(fast, a, &pa), rb = read_json(slow, b, &pb);
            ck_assert_msg(ra == rb, "%s: %d, with jansson %d", fast, ra, rb);
            /* the fast path read the well-formed bodies (the conflict too: a rule,
             * found after reading) of the first five option sets */
            ck_assert_msg(a->read_fast == (g < 3 && o < 5), "%s: fast path %d", fast, a->read_fast);
            ck_assert(!b->read_fast);
            a->read_fast = 0;
            if (ra == 0) {
                ck_assert_msg(memcmp(a, b, sizeof *a) == 0, "%s: another puzzle", fast);
            } else {
                ck_assert_uint_eq(pa.nerrors, pb.nerrors);
                for (size_t k = 0; k < pa.nerrors; k++) {
                    ck_assert_str_eq(pa.errors[k].field, pb.errors[k].field);
                    if (strncmp(pa.errors[k].field, "body", 4) != 0) /* body: column differs */
                        ck_assert_str_eq(pa.errors[k].detail, pb.errors[k].detail);
                }
            }
            free(a);
            free(b);
        }
}
END_TEST

Suite *sudoku_api_suite(void);
Suite *sudoku_api_suite(void) {
    Suite *s = suite_create("sudoku_api");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sudoku_api_solves_string_grid);
    tcase_add_test(tc, sudoku_api_every_method_agrees);
    tcase_add_test(tc, sudoku_api_multiple_and_unsolvable);
    tcase_add_test(tc, sudoku_api_exact_cover_parallel);
    tcase_add_test(tc, sudoku_api_arrays_and_custom_symbols);
    tcase_add_test(tc, sudoku_api_text_and_csv_formats);
    tcase_add_test(tc, sudoku_api_trace);
    tcase_add_test(tc, sudoku_api_text_round_trip);
    tcase_add_test(tc, sudoku_api_text_long_lines);
    tcase_add_test(tc, sudoku_api_validate_lists_conflicts);
    tcase_add_loop_test(tc, sudoku_api_invalid_inputs_table, 0,
                        (int)(sizeof bad_inputs / sizeof bad_inputs[0]));
    tcase_add_test(tc, sudoku_api_query_params_only_for_text);
    tcase_add_test(tc, sudoku_api_fast_reader_agrees_with_jansson);
    suite_add_tcase(s, tc);
    return s;
}
