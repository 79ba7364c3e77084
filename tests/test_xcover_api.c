/* test_xcover_api.c -- POST /v1/exact-cover/solve without a server: Knuth's
 * example, secondary items, parallel runs equal to sequential ones (items
 * completing out of order, as on the pool), and the invalid-input table. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/xcover_api.h"
#include "tests/job_harness.h"

typedef tjob_t xres_t;

static xres_t xsolve(const char *body, unsigned pool_threads) {
    (void)pool_threads; /* the harness's pool has 2 threads */
    return tjob_call(api_xcover_solve_prepare, "application/json", NULL, body, NULL, 0);
}

static void xres_free(xres_t *x) { tjob_free(x); }

static const char *knuth =
    "\"items\":[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\",\"G\"],"
    "\"options\":[[\"C\",\"E\",\"F\"],[\"A\",\"D\",\"G\"],[\"B\",\"C\",\"F\"],[\"A\",\"D\"],"
    "[\"B\",\"G\"],[\"D\",\"E\",\"G\"]]";

START_TEST(xcover_api_knuth_example) {
    char body[512];
    snprintf(body, sizeof body, "{%s,\"max_solutions\":2}", knuth);
    xres_t x = xsolve(body, 2);
    ck_assert_msg(x.status == 200, "%s", x.body);
    ck_assert_str_eq(json_string_value(json_object_get(x.json, "status")), "solved");
    ck_assert_int_eq(json_integer_value(json_object_get(x.json, "solutions_found")), 1);
    ck_assert(json_is_true(json_object_get(x.json, "complete")));
    json_t *s0 = json_array_get(json_object_get(x.json, "solutions"), 0);
    ck_assert_int_eq(json_array_size(s0), 3);
    ck_assert_int_eq(json_integer_value(json_array_get(s0, 0)), 0);
    ck_assert_int_eq(json_integer_value(json_array_get(s0, 1)), 3);
    ck_assert_int_eq(json_integer_value(json_array_get(s0, 2)), 4);
    xres_free(&x);
    /* one asked, one found: not known to be exhausted */
    snprintf(body, sizeof body, "{%s,\"method\":\"algorithm-x\"}", knuth);
    x = xsolve(body, 2);
    ck_assert(json_is_false(json_object_get(x.json, "complete")));
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(x.json, "stats"), "method")),
                     "algorithm-x");
    xres_free(&x);
}
END_TEST

/* N-Queens n as named exact cover: rows and columns primary, diagonals secondary. */
static char *queens_body(int n, const char *extra) {
    size_t cap = 1 << 16, len = 0;
    char *b = malloc(cap);
    len += (size_t)snprintf(b + len, cap - len, "{\"items\":[");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(b + len, cap - len, "%s\"r%d\",\"c%d\"", i ? "," : "", i, i);
    len += (size_t)snprintf(b + len, cap - len, "],\"secondary\":[");
    for (int d = 0; d < 2 * n - 1; d++)
        len += (size_t)snprintf(b + len, cap - len, "%s\"a%d\",\"b%d\"", d ? "," : "", d, d);
    len += (size_t)snprintf(b + len, cap - len, "],\"options\":[");
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            len += (size_t)snprintf(b + len, cap - len, "%s[\"r%d\",\"c%d\",\"a%d\",\"b%d\"]",
                                    r + c ? "," : "", r, c, r + c, r - c + n - 1);
    snprintf(b + len, cap - len, "]%s}", extra);
    return b;
}

START_TEST(xcover_api_secondary_items_queens) {
    static const int counts[] = {1, 0, 0, 2, 10, 4, 40, 92};
    for (int n = 1; n <= 8; n++) {
        char *b = queens_body(n, ",\"max_solutions\":100");
        xres_t x = xsolve(b, 2);
        ck_assert_msg(x.status == 200, "n=%d: %s", n, x.body);
        ck_assert_int_eq(json_integer_value(json_object_get(x.json, "solutions_found")),
                         counts[n - 1]);
        ck_assert(json_is_true(json_object_get(x.json, "complete")));
        xres_free(&x);
        free(b);
    }
}
END_TEST

START_TEST(xcover_api_parallel_equals_sequential) {
    char *seq = queens_body(8, ",\"max_solutions\":100,\"threads\":1");
    char *par = queens_body(8, ",\"max_solutions\":100,\"threads\":2");
    xres_t a = xsolve(seq, 2), b = xsolve(par, 2);
    ck_assert_int_eq(a.status, 200);
    ck_assert_int_eq(b.status, 200);
    ck_assert(
        json_equal(json_object_get(a.json, "solutions"), json_object_get(b.json, "solutions")));
    json_t *st = json_object_get(b.json, "stats");
    ck_assert_int_gt(json_integer_value(json_object_get(st, "subproblems")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(st, "threads")), 2);
    xres_free(&a);
    xres_free(&b);
    free(seq);
    free(par);
    /* first solution only: the parallel run stops at one, and it is valid */
    par = queens_body(8, ",\"threads\":2");
    b = xsolve(par, 2);
    ck_assert_int_eq(json_integer_value(json_object_get(b.json, "solutions_found")), 1);
    json_t *s0 = json_array_get(json_object_get(b.json, "solutions"), 0);
    int cols[8], used = 0;
    ck_assert_int_eq(json_array_size(s0), 8);
    for (size_t i = 0; i < 8; i++) { /* option r*8+c, ascending: one per row */
        int o = (int)json_integer_value(json_array_get(s0, i));
        ck_assert_int_eq(o / 8, (int)i);
        cols[i] = o % 8;
        used |= 1 << cols[i];
    }
    ck_assert_int_eq(used, 0xff);
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < i; k++)
            ck_assert_int_ne(abs(cols[i] - cols[k]), i - k);
    xres_free(&b);
    free(par);
}
END_TEST

typedef struct xbad_s {
    const char *body;
    int status;
    const char *field;
} xbad_t;

static const xbad_t xbad[] = {
    {"{\"items\":[\"A\"],\"options\":[[\"A\"],[\"B\"]]}", 400, "options[1][0]"},
    {"{\"items\":[\"A\"],\"options\":[[\"A\"],[],[\"A\"]]}", 400, "options[1]"},
    {"{\"items\":[\"A\",\"B\"],\"options\":[[\"A\",\"A\"]]}", 400, "options[0][1]"},
    {"{\"items\":[\"A\"],\"options\":[[\"A\"],[7]]}", 400, "options[1][0]"},
    {"{\"items\":[\"A\"],\"options\":[\"A\"]}", 400, "options[0]"},
    {"{\"items\":[\"A\",\"A\"],\"options\":[[\"A\"]]}", 400, "items[1]"},
    {"{\"items\":[\"A\"],\"secondary\":[\"A\"],\"options\":[[\"A\"]]}", 400, "secondary[0]"},
    {"{\"items\":[\"\"],\"options\":[]}", 400, "items[0]"},
    {"{\"items\":[1],\"options\":[]}", 400, "items[0]"},
    {"{\"options\":[]}", 400, "items"},
    {"{\"items\":[\"A\"]}", 400, "options"},
    {"{\"items\":[\"A\"],\"options\":{}}", 400, "options"},
    {"{\"items\":[\"A\"],\"options\":[[\"A\"]],\"max_solutions\":0}", 400, "max_solutions"},
    {"{\"items\":[\"A\"],\"options\":[[\"A\"]],\"max_solutions\":10001}", 400, "max_solutions"},
    {"{\"items\":[\"A\"],\"options\":[[\"A\"]],\"threads\":3}", 400, "threads"},
    {"{\"items\":[\"A\"],\"options\":[[\"A\"]],\"method\":\"dancing\"}", 400, "method"},
    {"{\"items\":[\"A\"],\"options\":[[\"A\"]],\"colour\":1}", 400, "colour"},
    {"{\"items\":[\"A\"],\"options\":[[\"A\"]]", 400, "body"},
    {"[]", 400, "body"},
};

START_TEST(xcover_api_invalid_inputs_table) {
    const xbad_t *b = &xbad[_i];
    xres_t x = xsolve(b->body, 2);
    ck_assert_msg(x.status == b->status, "case %d: %d: %s", _i, x.status, x.body);
    int found = tjob_names(&x, b->field);
    ck_assert_msg(found, "case %d: '%s' not named: %s", _i, b->field, x.body);
    xres_free(&x);
}
END_TEST

START_TEST(xcover_api_item_limit) {
    size_t n = 65537, cap = n * 12 + 64, len = 0;
    char *b = malloc(cap);
    len += (size_t)snprintf(b + len, cap - len, "{\"items\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(b + len, cap - len, "%s\"i%zu\"", i ? "," : "", i);
    snprintf(b + len, cap - len, "],\"options\":[[\"i0\"]]}");
    xres_t x = xsolve(b, 2);
    ck_assert_int_eq(x.status, 400);
    ck_assert_ptr_nonnull(strstr(x.body, "\"field\":\"items\""));
    xres_free(&x);
    free(b);
}
END_TEST

START_TEST(xcover_api_no_primary_items_one_empty_solution) {
    xres_t x =
        xsolve("{\"items\":[],\"secondary\":[\"S\"],\"options\":[[\"S\"]],\"max_solutions\":5}", 2);
    ck_assert_int_eq(x.status, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(x.json, "solutions_found")), 1);
    ck_assert_int_eq(json_array_size(json_array_get(json_object_get(x.json, "solutions"), 0)), 0);
    xres_free(&x);
}
END_TEST

Suite *xcover_api_suite(void);
Suite *xcover_api_suite(void) {
    Suite *s = suite_create("xcover_api");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, xcover_api_knuth_example);
    tcase_add_test(tc, xcover_api_secondary_items_queens);
    tcase_add_test(tc, xcover_api_parallel_equals_sequential);
    tcase_add_loop_test(tc, xcover_api_invalid_inputs_table, 0,
                        (int)(sizeof xbad / sizeof xbad[0]));
    tcase_add_test(tc, xcover_api_item_limit);
    tcase_add_test(tc, xcover_api_no_primary_items_one_empty_solution);
    suite_add_tcase(s, tc);
    return s;
}
