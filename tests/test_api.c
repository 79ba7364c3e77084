/* test_api.c -- what every api/ endpoint shares, without a server: parameter
 * parsing, problem rendering, the error table and its code names, the JSON
 * reader's syntax errors and the answer writer.  Each endpoint family has
 * its own file (test_nqueens_api.c, test_sudoku_api.c, ...). */
#include <check.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_util.h"
#include "api/json_writer.h"
#include "api/problem.h"
#include "api/request.h"
#include "solvers/search.h"
#include "solvers/sudoku/sudoku.h"

static api_request_t make_req(const api_param_t *params, size_t n) {
    api_request_t r;
    memset(&r, 0, sizeof r);
    r.method = "GET";
    r.path = "/test";
    r.params = params;
    r.nparams = n;
    r.pool_threads = 4;
    r.max_timeout_ms = 10000;
    return r;
}

START_TEST(api_param_int_is_strict) {
    api_problem_t p;
    long long x = 7;
    const char *bad[] = {"", " 5", "+5", "5 ", "5x", "0x10", "1e3", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        api_param_t kv = {"n", bad[i]};
        api_request_t r = make_req(&kv, 1);
        api_problem_init(&p, API_EINVALID, "x");
        ck_assert_msg(api_param_int(&r, "n", 1, 0, 100, 3, &x, &p) == -1, "'%s' accepted", bad[i]);
        ck_assert_int_eq(p.nerrors, 1);
        ck_assert_str_eq(p.errors[0].field, "n");
        ck_assert_int_eq(x, 7); /* untouched on failure */
    }
    api_param_t ok = {"n", "42"};
    api_request_t r = make_req(&ok, 1);
    ck_assert_int_eq(api_param_int(&r, "n", 1, 0, 100, 3, &x, &p), 0);
    ck_assert_int_eq(x, 42);
    r = make_req(NULL, 0);
    ck_assert_int_eq(api_param_int(&r, "n", 0, 0, 100, 3, &x, &p), 0);
    ck_assert_int_eq(x, 3); /* default */
    api_problem_init(&p, API_EINVALID, "x");
    ck_assert_int_eq(api_param_int(&r, "n", 1, 0, 100, 3, &x, &p), -1); /* required */
    ck_assert_int_eq(p.nerrors, 1);
}
END_TEST

START_TEST(api_problem_renders_rfc9457) {
    api_problem_t p;
    size_t len;
    json_error_t err;
    api_problem_init(&p, API_EUNPROCESSABLE, "bad %s", "\xff\x01grid");
    api_problem_add(&p, "body", "grid[3][4]", "duplicate 5 in row 3");
    char *text = api_problem_render(&p, &len);
    ck_assert_ptr_nonnull(text); /* invalid UTF-8 in the detail was sanitised */
    json_t *j = json_loads(text, 0, &err);
    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "status")), 422);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "/problems/unprocessable");
    json_t *e0 = json_array_get(json_object_get(j, "errors"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(e0, "field")), "grid[3][4]");
    ck_assert_str_eq(json_string_value(json_object_get(e0, "in")), "body");
    /* detail alone says what to fix: the summary and the first field error */
    ck_assert_str_eq(json_string_value(json_object_get(j, "detail")),
                     "bad ??grid (grid[3][4]: duplicate 5 in row 3)");
    json_decref(j);
    free(text);
    for (int i = 0; i < API_PROBLEM_MAX_ERRORS + 3; i++)
        api_problem_add(&p, "query", "x", "y");
    ck_assert_int_eq(p.nerrors, API_PROBLEM_MAX_ERRORS);
    ck_assert_int_eq(p.dropped, 4);
    text = api_problem_render(&p, &len);
    ck_assert_ptr_nonnull(text);
    j = json_loads(text, 0, &err);
    ck_assert_ptr_nonnull(j); /* 16 kept + 4 dropped: 19 besides the first */
    ck_assert_str_eq(json_string_value(json_object_get(j, "detail")),
                     "bad ??grid (grid[3][4]: duplicate 5 in row 3; 19 more in errors)");
    json_decref(j);
    free(text);
    api_problem_init(&p, API_EBUSY, "no worker free");
    text = api_problem_render(&p, &len);
    ck_assert_ptr_nonnull(text);
    j = json_loads(text, 0, &err);
    ck_assert_ptr_nonnull(j); /* no field errors: the sentence alone */
    ck_assert_str_eq(json_string_value(json_object_get(j, "detail")), "no worker free");
    json_decref(j);
    free(text);
}
END_TEST

START_TEST(api_error_table_statuses) {
    ck_assert_int_eq(api_problem_status(API_EINVALID), 400);
    ck_assert_int_eq(api_problem_status(API_ENOTFOUND), 404);
    ck_assert_int_eq(api_problem_status(API_EMETHOD), 405);
    ck_assert_int_eq(api_problem_status(API_ETOOLARGE), 413);
    ck_assert_int_eq(api_problem_status(API_EUNPROCESSABLE), 422);
    ck_assert_int_eq(api_problem_status(API_ENOTUNIQUE), 422);
    ck_assert_str_ne(api_problem_title(API_ENOTUNIQUE), api_problem_title(API_EUNPROCESSABLE));
    ck_assert_int_eq(api_problem_status(API_EBUSY), 503);
    ck_assert_int_eq(api_problem_status(API_EDRAINING), 503);
    ck_assert_int_eq(api_problem_status(12345), 500);
}
END_TEST

/* One code space: api/ codes and solver codes never collide, and each has a
 * name (tools/check_codes.sh checks that every defined code is in a table). */
START_TEST(api_code_names) {
    ck_assert_str_eq(api_code_name(API_EINVALID), "API_EINVALID");
    ck_assert_str_eq(api_code_name(API_ENOMEM), "API_ENOMEM");
    ck_assert_str_eq(api_code_name(API_OK), "API_OK");
    ck_assert_str_eq(api_code_name(SEARCH_TIMEOUT), "SEARCH_TIMEOUT");
    ck_assert_str_eq(search_code_name(SUDOKU_ECONFLICT), "SUDOKU_ECONFLICT");
    ck_assert_str_eq(search_code_name(API_EINVALID), "SEARCH_UNKNOWN");
    ck_assert_str_eq(search_code_name(12345), "SEARCH_UNKNOWN");
    ck_assert_str_eq(search_code_str(SEARCH_TIMEOUT), "the deadline passed");
    ck_assert_int_ne(API_EINVALID, SEARCH_TIMEOUT);
    ck_assert_int_ne(API_EUNPROCESSABLE, SEARCH_ENOMEM);
    /* a solver code is not an api/ code: it maps to the fallback problem */
    ck_assert_int_eq(api_problem_status(SEARCH_TIMEOUT), 500);
}
END_TEST

/* api_json_object() tells a syntax error (400 naming "body") from an
 * allocation failure; its well-formedness check must agree with jansson on
 * every kind of text, or a bad request would read as "out of memory". */
START_TEST(api_json_object_syntax) {
    static const char *const bad[] = {"",
                                      " ",
                                      "{",
                                      "}",
                                      "{\"a\"}",
                                      "{\"a\":}",
                                      "{\"a\":1,}",
                                      "{,}",
                                      "{\"a\" 1}",
                                      "[1,]",
                                      "{\"a\":[1 2]}",
                                      "{\"a\":01}",
                                      "{\"a\":1.}",
                                      "{\"a\":.5}",
                                      "{\"a\":1e}",
                                      "{\"a\":-}",
                                      "{\"a\":tru}",
                                      "{\"a\":\"x}",
                                      "{\"a\":\"\\x\"}",
                                      "{\"a\":\"\\u12g4\"}",
                                      "{\"a\":\"\\udc00\"}",
                                      "{\"a\":\"\\ud800x\"}",
                                      "{\"a\":\"\t\"}",
                                      "{\"a\":1}x",
                                      "{\"a\":1}{}",
                                      "{a:1}",
                                      "{\"a\":NaN}",
                                      "{\"a\":+1}",
                                      "{\"a\":1,\"a\":2}",
                                      "7\n\n", /* a scalar at the top (found by the fuzzer) */
                                      "\"s\"",
                                      "null"};
    static const char *const good[] = {"{}", " { } ", "{\"a\":[1,-2.5e+3,true,false,null,{}]}",
                                       "{\"a\":\"\\ud83d\\ude00\\n\\u00e9\"}",
                                       "{\"a\":[[[]]],\"b\":{\"c\":0}}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        api_request_t r = make_req(NULL, 0);
        api_problem_t p;
        r.body = bad[i];
        r.body_len = strlen(bad[i]);
        api_problem_init(&p, API_EINVALID, "x");
        ck_assert_msg(api_json_object(&r, &p) == NULL, "%s parsed", bad[i]);
        ck_assert_msg(p.code == API_EINVALID && p.nerrors == 1, "%s: code %s", bad[i],
                      api_code_name(p.code));
    }
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        api_request_t r = make_req(NULL, 0);
        api_problem_t p;
        r.body = good[i];
        r.body_len = strlen(good[i]);
        api_problem_init(&p, API_EINVALID, "x");
        json_t *j = api_json_object(&r, &p);
        ck_assert_msg(j != NULL, "%s did not parse", good[i]);
        json_decref(j);
    }
}
END_TEST

/* The writer against jansson: the same values in the same order give the
 * same bytes -- strings with every ASCII byte and UTF-8, integers at their
 * limits, reals across magnitudes (whole numbers, tiny, huge, negative),
 * nesting and empty containers. */
START_TEST(api_json_writer_matches_jansson) {
    static const double reals[] = {0.0,
                                   -0.0,
                                   1.0,
                                   3.0,
                                   0.5,
                                   -2.25,
                                   0.1,
                                   1e-7,
                                   1.5e-300,
                                   1e21,
                                   1e300,
                                   123456789.0,
                                   1e9,
                                   12345.678901234,
                                   0.000123456789,
                                   -7.5e-12,
                                   42.125,
                                   1e100};
    static const long long ints[] = {0, 1, -1, 9, 10, 99, 100, LLONG_MAX, LLONG_MIN, -1000000007LL};
    char all[128], utf8[] = "caf\xc3\xa9 \xe2\x9c\x93";
    for (int c = 1; c < 128; c++)
        all[c - 1] = (char)c;
    all[127] = '\0';
    api_jw_t w;
    api_jw_init(&w);
    json_t *root = json_object(), *reals_j = json_array(), *ints_j = json_array();
    api_jw_obj(&w);
    api_jw_key(&w, "reals");
    api_jw_arr(&w);
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        api_jw_real(&w, reals[i]);
        json_array_append_new(reals_j, json_real(reals[i]));
    }
    api_jw_end_arr(&w);
    json_object_set_new(root, "reals", reals_j);
    api_jw_key(&w, "ints");
    api_jw_arr(&w);
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        api_jw_int(&w, ints[i]);
        json_array_append_new(ints_j, json_integer(ints[i]));
    }
    api_jw_end_arr(&w);
    json_object_set_new(root, "ints", ints_j);
    api_jw_key(&w, "ascii \"q\"\n");
    api_jw_cstr(&w, all);
    json_object_set_new(root, "ascii \"q\"\n", json_string(all));
    api_jw_key(&w, "utf8");
    api_jw_cstr(&w, utf8);
    json_object_set_new(root, "utf8", json_string(utf8));
    api_jw_key(&w, "nest");
    api_jw_arr(&w);
    api_jw_obj(&w);
    api_jw_end_obj(&w);
    api_jw_arr(&w);
    api_jw_end_arr(&w);
    api_jw_obj(&w);
    api_jw_key(&w, "t");
    api_jw_bool(&w, 1);
    api_jw_key(&w, "f");
    api_jw_bool(&w, 0);
    api_jw_key(&w, "z");
    api_jw_null(&w);
    api_jw_end_obj(&w);
    api_jw_end_arr(&w);
    json_object_set_new(root, "nest", json_pack("[{}, [], {s:b, s:b, s:n}]", "t", 1, "f", 0, "z"));
    api_jw_end_obj(&w);

    api_response_t mine, theirs;
    memset(&mine, 0, sizeof mine);
    memset(&theirs, 0, sizeof theirs);
    api_jw_respond(&w, 200, &mine);
    api_response_json(&theirs, 200, root);
    ck_assert_int_eq(mine.status, 200);
    ck_assert_str_eq(mine.content_type, "application/json");
    ck_assert_uint_eq(mine.len, theirs.len);
    ck_assert_msg(memcmp(mine.body, theirs.body, theirs.len) == 0, "writer: %.*s\njansson: %.*s",
                  (int)mine.len, mine.body, (int)theirs.len, theirs.body);
    api_response_destroy(&mine);
    api_response_destroy(&theirs);
}
END_TEST

Suite *api_suite(void);
Suite *api_suite(void) {
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, api_param_int_is_strict);
    tcase_add_test(tc, api_problem_renders_rfc9457);
    tcase_add_test(tc, api_error_table_statuses);
    tcase_add_test(tc, api_code_names);
    tcase_add_test(tc, api_json_object_syntax);
    tcase_add_test(tc, api_json_writer_matches_jansson);
    suite_add_tcase(s, tc);
    tcase_set_timeout(tc, 30);
    return s;
}
