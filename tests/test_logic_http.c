/* test_logic_http.c -- the four routes of issue 24 on a real server over
 * loopback (tests/http_client.h): grade, hint, sudoku generate, killer
 * generate.  Status codes, content types, problem bodies naming the field,
 * answers cross-checked with other routes of the same server (a generated
 * killer proved unique by /v1/killer/solve, a generated Sudoku by
 * /v1/sudoku/solve and graded again by /v1/sudoku/grade), the deadline
 * answering "timeout" with only honestly labelled puzzles.  The engine's
 * own behaviour is tested in test_logic.c and test_generate.c. */
#include <check.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/http_client.h"

static tsrv_t srv;

static void srv_up(void) {
    static const char *const args[] = {"--threads", "2", NULL};
    ck_assert_int_eq(tsrv_start(&srv, args, NULL), 0);
}

static void srv_down(void) { tsrv_stop(&srv, SIGTERM, 10000); }

static hresp_t lpost(const char *path, const char *ctype, const char *body) {
    char url[512], ct[96];
    const char *headers[2] = {NULL, NULL};
    hresp_t r;
    CURL *c = curl_easy_init();
    snprintf(url, sizeof url, "%s%s", srv.base, path);
    if (ctype) {
        snprintf(ct, sizeof ct, "Content-Type: %s", ctype);
        headers[0] = ct;
    }
    http_do(c, "POST", url, body, strlen(body), headers, &r);
    curl_easy_cleanup(c);
    return r;
}

static json_t *ljson(const hresp_t *r, long status) {
    json_error_t e;
    ck_assert_msg(r->status == status, "status %ld, want %ld: %s", r->status, status, r->body);
    json_t *j = json_loads(r->body, 0, &e);
    ck_assert_msg(j != NULL, "not JSON: %s", r->body);
    return j;
}

static void lproblem(const hresp_t *r, long status, const char *field) {
    char ct[128];
    json_t *j = ljson(r, status);
    ck_assert(hresp_header(r, "Content-Type", ct, sizeof ct));
    ck_assert_str_eq(ct, "application/problem+json");
    if (field != NULL) {
        json_t *errs = json_object_get(j, "errors"), *e;
        size_t i;
        int found = 0;
        json_array_foreach(errs, i, e) {
            const char *f = json_string_value(json_object_get(e, "field"));
            if (f && strcmp(f, field) == 0) found = 1;
        }
        ck_assert_msg(found, "errors[] does not name '%s': %s", field, r->body);
    }
    json_decref(j);
}

#define EASY "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

START_TEST(logic_http_grade) {
    hresp_t r = lpost("/v1/sudoku/grade", "application/json", "{\"grid\":\"" EASY "\"}");
    json_t *j = ljson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "graded");
    ck_assert_str_eq(json_string_value(json_object_get(j, "level")), "easy");
    ck_assert(json_is_number(json_object_get(j, "rating")));
    ck_assert(json_is_object(json_object_get(j, "techniques")));
    ck_assert_ptr_null(json_object_get(j, "steps"));
    json_decref(j);
    hresp_free(&r);
    r = lpost("/v1/sudoku/grade?steps=true", "text/csv", "1,2,,4\n3,,1,2\n,1,4,3\n4,3,2,\n");
    j = ljson(&r, 200);
    ck_assert_int_eq(json_array_size(json_object_get(j, "steps")), 4);
    json_decref(j);
    hresp_free(&r);
    r = lpost("/v1/sudoku/grade", "application/json", "{\"grid\":\"................\"}");
    lproblem(&r, 422, NULL);
    ck_assert_ptr_nonnull(strstr(r.body, "more than one solution"));
    hresp_free(&r);
    r = lpost("/v1/sudoku/grade", "application/json", "{\"grid\":\"" EASY "\",\"trace\":true}");
    lproblem(&r, 400, "trace");
    hresp_free(&r);
    r = lpost("/v1/sudoku/grade", "application/xml", "<grid/>");
    lproblem(&r, 415, "Content-Type");
    hresp_free(&r);
}
END_TEST

START_TEST(logic_http_hint) {
    char body[512], wrong[82];
    memcpy(wrong, EASY, 82);
    wrong[2] = '1'; /* the solution has 4 there */
    snprintf(body, sizeof body, "{\"grid\":\"%s\",\"givens\":\"%s\"}", wrong, EASY);
    hresp_t r = lpost("/v1/sudoku/hint", "application/json", body);
    json_t *j = ljson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "wrong");
    json_t *cell = json_object_get(json_array_get(json_object_get(j, "wrong"), 0), "cell");
    ck_assert_int_eq(json_integer_value(json_array_get(cell, 0)), 0);
    ck_assert_int_eq(json_integer_value(json_array_get(cell, 1)), 2);
    json_decref(j);
    hresp_free(&r);
    r = lpost("/v1/sudoku/hint", "application/json", "{\"grid\":\"" EASY "\"}");
    j = ljson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "hint");
    json_t *step = json_object_get(j, "step");
    static const char *const keys[] = {"technique",  "placements",  "eliminations", "cells",
                                       "candidates", "explanation", "trial"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(json_object_get(step, keys[k]) != NULL, "step lacks %s", keys[k]);
    json_decref(j);
    hresp_free(&r);
    r = lpost("/v1/sudoku/hint", "application/json",
              "{\"grid\":\"" EASY "\",\"pencil\":[{\"cell\":[9,0],\"values\":[1]}]}");
    lproblem(&r, 400, "pencil[0].cell");
    hresp_free(&r);
    r = lpost("/v1/sudoku/hint", "text/csv", "1,2,,4\n");
    lproblem(&r, 415, "Content-Type");
    hresp_free(&r);
}
END_TEST

START_TEST(logic_http_generate_cross_checked) {
    hresp_t r = lpost("/v1/sudoku/generate", "application/json",
                      "{\"difficulty\":\"hard\",\"count\":2,\"seed\":77,\"symmetry\":\"mirror\"}");
    json_t *j = ljson(&r, 200), *p;
    size_t i;
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "complete");
    json_array_foreach(json_object_get(j, "puzzles"), i, p) {
        char body[256];
        const char *puzzle = json_string_value(json_object_get(p, "puzzle"));
        snprintf(body, sizeof body, "{\"grid\":\"%s\",\"max_solutions\":2}", puzzle);
        hresp_t s = lpost("/v1/sudoku/solve", "application/json", body);
        json_t *sj = ljson(&s, 200);
        ck_assert(json_is_true(json_object_get(sj, "unique")));
        ck_assert_str_eq(json_string_value(json_object_get(sj, "solution")),
                         json_string_value(json_object_get(p, "solution")));
        json_decref(sj);
        hresp_free(&s);
        snprintf(body, sizeof body, "{\"grid\":\"%s\"}", puzzle);
        s = lpost("/v1/sudoku/grade", "application/json", body);
        sj = ljson(&s, 200);
        ck_assert_str_eq(json_string_value(json_object_get(sj, "level")), "hard");
        ck_assert(json_real_value(json_object_get(sj, "rating")) ==
                  json_real_value(json_object_get(p, "rating")));
        json_decref(sj);
        hresp_free(&s);
    }
    json_decref(j);
    hresp_free(&r);
    r = lpost("/v1/sudoku/generate", "application/json", "{\"count\":101}");
    lproblem(&r, 400, "count");
    hresp_free(&r);
}
END_TEST

START_TEST(logic_http_generate_deadline_keeps_labels_honest) {
    /* 25x25 beyond-logic cannot be found in 30 ms: timeout, nothing mislabelled */
    hresp_t r =
        lpost("/v1/sudoku/generate", "application/json",
              "{\"size\":25,\"difficulty\":\"beyond-logic\",\"count\":3,\"timeout_ms\":30}");
    json_t *j = ljson(&r, 200), *p;
    size_t i;
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "timeout");
    json_array_foreach(json_object_get(j, "puzzles"), i, p)
        ck_assert_str_eq(json_string_value(json_object_get(p, "level")), "beyond-logic");
    json_decref(j);
    hresp_free(&r);
}
END_TEST

START_TEST(logic_http_killer_generate_unique) {
    hresp_t r = lpost("/v1/killer/generate", "application/json",
                      "{\"size\":9,\"seed\":21,\"cage_size\":{\"min\":2,\"max\":4}}");
    json_t *j = ljson(&r, 200);
    json_t *p = json_array_get(json_object_get(j, "puzzles"), 0);
    json_t *req = json_pack("{s:i, s:O, s:i}", "size", 9, "cages", json_object_get(p, "cages"),
                            "max_solutions", 2);
    char *body = json_dumps(req, JSON_COMPACT);
    hresp_t s = lpost("/v1/killer/solve", "application/json", body);
    json_t *sj = ljson(&s, 200);
    ck_assert(json_is_true(json_object_get(sj, "unique")));
    /* the solve answers arrays; the generator a string */
    const char *sol = json_string_value(json_object_get(p, "solution"));
    json_t *grid = json_object_get(sj, "solution");
    for (int c = 0; c < 81; c++)
        ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(grid, (size_t)(c / 9)),
                                                           (size_t)(c % 9))),
                         sol[c] - '0');
    json_decref(sj);
    hresp_free(&s);
    free(body);
    json_decref(req);
    json_decref(j);
    hresp_free(&r);
    r = lpost("/v1/killer/generate", "application/json", "{\"size\":16}");
    lproblem(&r, 400, "size");
    hresp_free(&r);
}
END_TEST

Suite *logic_http_suite(void);
Suite *logic_http_suite(void) {
    Suite *s = suite_create("logic_http");
    TCase *tc = tcase_create("server");
    tcase_add_unchecked_fixture(tc, srv_up, srv_down);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, logic_http_grade);
    tcase_add_test(tc, logic_http_hint);
    tcase_add_test(tc, logic_http_generate_cross_checked);
    tcase_add_test(tc, logic_http_generate_deadline_keeps_labels_honest);
    tcase_add_test(tc, logic_http_killer_generate_unique);
    suite_add_tcase(s, tc);
    return s;
}
