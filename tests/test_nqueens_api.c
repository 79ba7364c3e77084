/* test_nqueens_api.c -- the N-Queens endpoints (api/nqueens_api.c,
 * api/nqueens_board_api.c) without a server: counts of every n up to 13
 * with and without symmetry against the known values, the first solution,
 * analysis examples, completions counted and cross-checked against
 * the enumeration, pagination covering all 92 solutions of n = 8 once,
 * completion with every method, and the errors (400 / 422 naming rows);
 * the cut of a count under a work-memory share; and, through a real
 * server, counts of n = 27 that must answer on their deadline without
 * holding memory or the HTTP thread. */
#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/nqueens_api.h"
#include "api/nqueens_board_api.h"
#include "solvers/nqueens/heur.h"
#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/repair.h"
#include "tests/http_client.h"
#include "tests/job_client.h"
#include "tests/job_harness.h"
#include "tests/test_util.h"

typedef tjob_t qres_t;

static qres_t qcall(api_prepare_fn fn, const char *body, const api_param_t *params, size_t np) {
    return tjob_call(fn, body ? "application/json" : NULL, NULL, body, params, np);
}

static void qfree(qres_t *q) { tjob_free(q); }

static int has_field(const qres_t *q, const char *field) { return tjob_names(q, field); }

/* Asserts that r is a `status` problem naming `field`, and frees it. */
static void expect_problem(qres_t r, int status, const char *field) {
    ck_assert_msg(r.status == status, "%d, want %d: %s", r.status, status, r.body);
    ck_assert_msg(has_field(&r, field), "%s not named: %s", field, r.body);
    qfree(&r);
}

static void assert_candidates(json_t *rows, int r, const int *want, size_t n) {
    json_t *c = json_object_get(json_array_get(rows, (size_t)r), "candidates");
    ck_assert_int_eq(json_array_size(c), n);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(json_integer_value(json_array_get(c, i)), want[i]);
}

/* === Counts and the first solution (api/nqueens_api.c) === */

START_TEST(nqueens_api_count_known_values) {
    static const long long want[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712};
    for (int n = 1; n <= 13; n++) {
        for (int sym = 0; sym <= 1; sym++) {
            char nv[8];
            snprintf(nv, sizeof nv, "%d", n);
            api_param_t kv[2] = {{"n", nv}, {"symmetry", sym ? "true" : "false"}};
            qres_t q = qcall(api_nqueens_count_prepare, NULL, kv, 2);
            ck_assert_msg(q.status == 200, "n=%d: %d %s", n, q.status, q.body);
            ck_assert_int_eq(json_integer_value(json_object_get(q.json, "count")), want[n - 1]);
            qfree(&q);
        }
    }
}
END_TEST

START_TEST(nqueens_api_count_threads_default_to_the_pool) {
    api_param_t kv = {"n", "12"};
    api_request_t r = tjob_request(NULL, NULL, NULL, &kv, 1);
    api_job_t *job = NULL;
    api_response_t resp = {0};
    ck_assert_int_eq(api_nqueens_count_prepare(&r, &job, &resp), 0);
    ck_assert_ptr_nonnull(job);
    ck_assert_uint_eq(job->threads, r.pool_threads);
    job->ops->free(job);
    api_response_destroy(&resp);
}
END_TEST

START_TEST(nqueens_api_solve_first) {
    api_param_t kv = {"n", "12"};
    qres_t q = qcall(api_nqueens_solve_prepare, NULL, &kv, 1);
    ck_assert_int_eq(q.status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(q.json, "status")), "solved");
    ck_assert_int_eq(json_array_size(json_object_get(q.json, "queens")), 12);
    qfree(&q);
}
END_TEST

START_TEST(nqueens_api_count_rejects) {
    api_param_t kv[2] = {{"n", "30"}, {"threads", "5"}};
    api_request_t r = tjob_request(NULL, NULL, NULL, kv, 2);
    api_job_t *job = NULL;
    api_response_t resp = {0};
    ck_assert_int_eq(api_nqueens_count_prepare(&r, &job, &resp), API_EINVALID);
    ck_assert_ptr_null(job);
    ck_assert_int_eq(resp.status, 400);
    ck_assert_ptr_nonnull(strstr(resp.body, "\"field\":\"n\""));
    ck_assert_ptr_nonnull(strstr(resp.body, "\"field\":\"threads\""));
    api_response_destroy(&resp);
}
END_TEST

START_TEST(nqueens_api_split_depth_grows) {
    ck_assert_int_ge(api_nqueens_split_depth(17, 1), api_nqueens_split_depth(12, 1));
    ck_assert_int_lt(api_nqueens_split_depth(4, 1), 4);
}
END_TEST

/* === Boards (api/nqueens_board_api.c) === */

START_TEST(nqueens_api_analyze_examples) {
    static const int r1[] = {0, 1, 2, 6, 7}, r2[] = {0, 1, 3, 5, 7}, r3[] = {0, 2, 3, 5, 6};
    qres_t q = qcall(api_nqueens_analyze_prepare, "{\"n\":8,\"placed\":[[0,4]]}", NULL, 0);
    ck_assert_msg(q.status == 200, "%s", q.body);
    json_t *rows = json_object_get(q.json, "rows");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(rows, 0), "queen")), 4);
    assert_candidates(rows, 1, r1, 5);
    assert_candidates(rows, 2, r2, 5);
    assert_candidates(rows, 3, r3, 5);
    ck_assert_int_eq(json_integer_value(json_object_get(q.json, "next_row")), 1);
    qfree(&q);
    q = qcall(api_nqueens_analyze_prepare, "{\"n\":8,\"placed\":[[0,0],[1,3],[2,6],[6,7]]}", NULL,
              0);
    ck_assert_int_eq(json_integer_value(json_object_get(q.json, "next_row")), 3);
    qfree(&q);
    q = qcall(api_nqueens_analyze_prepare, "{\"n\":3,\"queens\":[1,null,null]}", NULL, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(q.json, "next_row")),
                     1); /* no candidates */
    ck_assert_int_eq(json_array_size(json_object_get(
                         json_array_get(json_object_get(q.json, "rows"), 1), "candidates")),
                     0);
    qfree(&q);
    /* attacking queens are reported by analysis, not refused */
    q = qcall(api_nqueens_analyze_prepare, "{\"n\":8,\"placed\":[[0,0],[3,3]]}", NULL, 0);
    ck_assert_int_eq(q.status, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(q.json, "conflicts_total")), 1);
    qfree(&q);
}
END_TEST

START_TEST(nqueens_api_pagination_covers_92_once) {
    const int pages[] = {1, 7, 10, 92};
    for (size_t pi = 0; pi < 4; pi++) {
        char seen[92][9];
        int nseen = 0;
        for (int off = 0; off < 100; off += pages[pi]) {
            char o[16], l[16];
            snprintf(o, sizeof o, "%d", off);
            snprintf(l, sizeof l, "%d", pages[pi]);
            api_param_t q[3] = {{"n", "8"}, {"offset", o}, {"limit", l}};
            qres_t r = qcall(api_nqueens_solutions_prepare, NULL, q, 3);
            ck_assert_int_eq(r.status, 200);
            ck_assert_int_eq(json_integer_value(json_object_get(r.json, "total")), 92);
            json_t *sols = json_object_get(r.json, "solutions");
            for (size_t k = 0; k < json_array_size(sols); k++) {
                json_t *s = json_array_get(sols, k);
                ck_assert_int_lt(nseen, 92);
                for (int i = 0; i < 8; i++)
                    seen[nseen][i] = (char)('0' + json_integer_value(json_array_get(s, (size_t)i)));
                seen[nseen][8] = 0;
                for (int j = 0; j < nseen; j++)
                    ck_assert_str_ne(seen[j], seen[nseen]);
                if (nseen > 0)
                    ck_assert(strcmp(seen[nseen - 1], seen[nseen]) < 0); /* lexicographic */
                nseen++;
            }
            qfree(&r);
        }
        ck_assert_int_eq(nseen, 92);
        ck_assert_str_eq(seen[0], "04752613"); /* the first: [0,4,7,5,2,6,1,3] */
    }
}
END_TEST

START_TEST(nqueens_api_count_completions) {
    /* the completions of a corner queen equal the listed solutions that have one */
    int corner = 0;
    api_param_t q[3] = {{"n", "8"}, {"offset", "0"}, {"limit", "100"}};
    qres_t all = qcall(api_nqueens_solutions_prepare, NULL, q, 3);
    json_t *sols = json_object_get(all.json, "solutions");
    for (size_t k = 0; k < json_array_size(sols); k++)
        corner += json_integer_value(json_array_get(json_array_get(sols, k), 0)) == 0;
    qfree(&all);
    qres_t c = qcall(api_nqueens_count_post_prepare,
                     "{\"n\":8,\"queens\":[0,null,null,null,null,null,null,null]}", NULL, 0);
    ck_assert_msg(c.status == 200, "%s", c.body);
    ck_assert_int_eq(json_integer_value(json_object_get(c.json, "count")), corner);
    ck_assert_int_eq(corner, 4);
    qfree(&c);
    /* an empty placed list is the empty board */
    c = qcall(api_nqueens_count_post_prepare, "{\"n\":10,\"placed\":[],\"threads\":2}", NULL, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(c.json, "count")), 724);
    qfree(&c);
    c = qcall(api_nqueens_count_post_prepare, "{\"n\":8,\"placed\":[[0,0],[1,2],[2,4]]}", NULL, 0);
    ck_assert_int_eq(c.status, 200); /* no completion: 0, complete */
    ck_assert_str_eq(json_string_value(json_object_get(c.json, "status")), "complete");
    qfree(&c);
}
END_TEST

START_TEST(nqueens_api_complete_with_each_method) {
    const char *methods[] = {"backtracking", "mrv", "minconflicts", "auto"};
    for (size_t m = 0; m < 4; m++) {
        char body[256];
        snprintf(body, sizeof body,
                 "{\"n\":12,\"placed\":[[0,5],[6,0]],\"method\":\"%s\",\"seed\":7}", methods[m]);
        qres_t q = qcall(api_nqueens_solve_post_prepare, body, NULL, 0);
        ck_assert_msg(q.status == 200, "%s: %s", methods[m], q.body);
        ck_assert_str_eq(json_string_value(json_object_get(q.json, "status")), "solved");
        ck_assert(json_is_true(json_object_get(q.json, "verified")));
        json_t *b = json_object_get(q.json, "queens");
        ck_assert_int_eq(json_integer_value(json_array_get(b, 0)), 5);
        ck_assert_int_eq(json_integer_value(json_array_get(b, 6)), 0);
        qfree(&q);
    }
    /* backtracking completes lexicographically: the first solution with row 0 at 0 */
    qres_t q = qcall(api_nqueens_solve_post_prepare,
                     "{\"n\":8,\"queens\":[0,null,null,null,null,null,null,null],"
                     "\"method\":\"backtracking\"}",
                     NULL, 0);
    json_t *b = json_object_get(q.json, "queens");
    static const int first[] = {0, 4, 7, 5, 2, 6, 1, 3};
    for (int r = 0; r < 8; r++)
        ck_assert_int_eq(json_integer_value(json_array_get(b, (size_t)r)), first[r]);
    qfree(&q);
    q = qcall(api_nqueens_solve_post_prepare,
              "{\"n\":8,\"placed\":[[0,0],[1,2],[2,4]],\"method\":\"mrv\"}", NULL, 0);
    ck_assert_str_eq(json_string_value(json_object_get(q.json, "status")), "unsolvable");
    qfree(&q);
}
END_TEST

START_TEST(nqueens_api_board_errors) {
    struct {
        const char *body;
        int status;
        const char *f1, *f2;
    } t[] = {
        {"{\"n\":8,\"queens\":[0,1,null,null,null,null,null,null]}", 422, "queens[0]", "queens[1]"},
        {"{\"n\":8,\"placed\":[[2,2],[5,5]]}", 422, "placed[0]", "placed[1]"},
        {"{\"n\":8,\"queens\":[0,8,null,null,null,null,null,null]}", 400, "queens[1]", NULL},
        {"{\"n\":8,\"queens\":[0]}", 400, "queens", NULL},
        {"{\"n\":8,\"placed\":[[0,1],[0,5]]}", 400, "placed[1]", NULL},
        {"{\"n\":8,\"placed\":[[9,1]]}", 400, "placed[0]", NULL},
        {"{\"n\":8,\"queens\":[],\"placed\":[]}", 400, "placed", NULL},
        {"{\"queens\":[]}", 400, "n", NULL},
        {"{\"n\":8,\"method\":\"guess\"}", 400, "method", NULL},
        {"{\"n\":100,\"method\":\"backtracking\"}", 400, "n", NULL},
        {"{\"n\":8,\"output\":\"all\"}", 400, "output", NULL},
        {"{\"n\":20000,\"trace\":true}", 400, "trace", NULL},
        {"{\"n\":8,\"colour\":1}", 400, "colour", NULL},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        qres_t q = qcall(api_nqueens_solve_post_prepare, t[i].body, NULL, 0);
        ck_assert_msg(q.status == t[i].status, "case %zu: %d %s", i, q.status, q.body);
        ck_assert_msg(has_field(&q, t[i].f1), "case %zu: %s not named: %s", i, t[i].f1, q.body);
        if (t[i].f2) ck_assert_msg(has_field(&q, t[i].f2), "case %zu: %s not named", i, t[i].f2);
        qfree(&q);
    }
    expect_problem(qcall(api_nqueens_count_post_prepare, "{\"n\":28}", NULL, 0), 400, "n");
    api_param_t p[2] = {{"n", "8"}, {"limit", "1001"}};
    expect_problem(qcall(api_nqueens_solutions_prepare, NULL, p, 2), 400, "limit");
}
END_TEST

START_TEST(nqueens_api_get_solve_methods) {
    const char *methods[] = {"mrv", "minconflicts", "auto", "backtracking"};
    for (size_t m = 0; m < 4; m++) {
        api_param_t q[3] = {{"n", "24"}, {"method", methods[m]}, {"seed", "3"}};
        qres_t r = qcall(api_nqueens_solve_get_board, NULL, q, 3);
        ck_assert_msg(r.status == 200, "%s: %s", methods[m], r.body);
        ck_assert(json_is_true(json_object_get(r.json, "verified")));
        ck_assert_int_eq(json_array_size(json_object_get(r.json, "queens")), 24);
        qfree(&r);
    }
    api_param_t q[3] = {{"n", "5000"}, {"method", "minconflicts"}, {"output", "summary"}};
    qres_t r = qcall(api_nqueens_solve_get_board, NULL, q, 3);
    ck_assert_int_eq(r.status, 200);
    ck_assert(json_is_true(json_object_get(r.json, "verified")));
    ck_assert_ptr_null(json_object_get(r.json, "queens"));
    qfree(&r);
}
END_TEST

START_TEST(nqueens_api_minconflicts_trace_and_seed) {
    const char *body = "{\"n\":500,\"method\":\"minconflicts\",\"seed\":42,\"trace\":true}";
    qres_t a = qcall(api_nqueens_solve_post_prepare, body, NULL, 0);
    qres_t b = qcall(api_nqueens_solve_post_prepare, body, NULL, 0);
    ck_assert_msg(a.status == 200, "%s", a.body);
    ck_assert(json_equal(json_object_get(a.json, "queens"),
                         json_object_get(b.json, "queens"))); /* seeded */
    json_t *tr = json_object_get(a.json, "trace"), *st = json_object_get(a.json, "stats");
    size_t len = json_array_size(tr);
    ck_assert_int_gt(len, 0);
    ck_assert_int_eq(json_integer_value(json_array_get(tr, len - 1)), 0);
    long long restarts = json_integer_value(json_object_get(st, "restarts")), rises = 0;
    for (size_t i = 1; i < len; i++)
        rises += json_integer_value(json_array_get(tr, i)) >
                 json_integer_value(json_array_get(tr, i - 1));
    ck_assert_int_le(rises, restarts); /* only a restart may raise the count */
    ck_assert(json_is_integer(json_object_get(st, "steps")));
    ck_assert(json_is_integer(json_object_get(st, "initial_conflicts")));
    qfree(&a);
    qfree(&b);
}
END_TEST

/* min-conflicts' `start`, in the query and in the body: every start
 * solves and says which it was; constructed is the default; anything else
 * is a 400 naming `start`. */
START_TEST(nqueens_api_minconflicts_start) {
    static const char *const starts[] = {"constructed", "greedy", "random"};
    long long initial[3];
    for (int k = 0; k < 3; k++) {
        api_param_t q[4] = {
            {"n", "500"}, {"method", "minconflicts"}, {"seed", "3"}, {"start", starts[k]}};
        qres_t r = qcall(api_nqueens_solve_get_board, NULL, q, 4);
        ck_assert_msg(r.status == 200, "%s: %s", starts[k], r.body);
        ck_assert_str_eq(json_string_value(json_object_get(r.json, "status")), "solved");
        ck_assert(json_is_true(json_object_get(r.json, "verified")));
        json_t *st = json_object_get(r.json, "stats");
        ck_assert_str_eq(json_string_value(json_object_get(st, "start")), starts[k]);
        initial[k] = json_integer_value(json_object_get(st, "initial_conflicts"));
        qfree(&r);
    }
    ck_assert_int_gt(initial[2], 100); /* a random permutation of 500: ~330 pairs */
    ck_assert_int_lt(initial[1], initial[2]);
    api_param_t q[2] = {{"n", "500"}, {"method", "minconflicts"}};
    qres_t r = qcall(api_nqueens_solve_get_board, NULL, q, 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r.json, "stats"), "start")),
                     "constructed");
    qfree(&r);
    r = qcall(api_nqueens_solve_post_prepare,
              "{\"n\":300,\"placed\":[[0,5]],\"method\":\"minconflicts\",\"start\":\"random\"}",
              NULL, 0);
    ck_assert_msg(r.status == 200, "%s", r.body);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(r.json, "queens"), 0)), 5);
    qfree(&r);
    static const char *const bad[] = {"{\"n\":300,\"method\":\"minconflicts\",\"start\":7}",
                                      "{\"n\":300,\"start\":\"best\"}"};
    for (int k = 0; k < 2; k++)
        expect_problem(qcall(api_nqueens_solve_post_prepare, bad[k], NULL, 0), 400, "start");
    api_param_t qb[2] = {{"n", "500"}, {"start", "Random"}};
    expect_problem(qcall(api_nqueens_solve_get_board, NULL, qb, 2), 400, "start");
}
END_TEST

/* GET /v1/nqueens/solve as openapi.yaml says: auto answers the
 * lexicographically first board (backtracking) up to n = 29, and any board
 * by min-conflicts above, where that first board can take hours;
 * method=backtracking asks for the first board at any n. */
START_TEST(nqueens_api_get_solve_auto_is_documented) {
    static const int ns[] = {8, 20, 29, 30, 64, 1000};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        char nv[16];
        snprintf(nv, sizeof nv, "%d", ns[i]);
        api_param_t q[1] = {{"n", nv}};
        qres_t r = qcall(api_nqueens_solve_get_board, NULL, q, 1);
        ck_assert_msg(r.status == 200, "n=%d: %s", ns[i], r.body);
        ck_assert(json_is_true(json_object_get(r.json, "verified")));
        const char *m =
            json_string_value(json_object_get(json_object_get(r.json, "stats"), "method"));
        ck_assert_str_eq(m, ns[i] <= 29 ? "backtracking" : "minconflicts");
        if (ns[i] <= 29) { /* the first board, as nqueens_first() finds it */
            int first[29];
            ck_assert_int_eq(nqueens_first(ns[i], NULL, first, NULL), 0);
            json_t *qs = json_object_get(r.json, "queens");
            for (int k = 0; k < ns[i]; k++)
                ck_assert_int_eq(json_integer_value(json_array_get(qs, (size_t)k)), first[k]);
        }
        qfree(&r);
    }
    api_param_t q[2] = {{"n", "31"}, {"method", "backtracking"}}; /* 0.3 s, 10^7 placements */
    qres_t r = qcall(api_nqueens_solve_get_board, NULL, q, 2);
    ck_assert_str_eq(json_string_value(json_object_get(r.json, "status")), "solved");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r.json, "stats"), "method")),
                     "backtracking");
    qfree(&r);
}
END_TEST

/* === Counts under a budget, and on their deadline === */

/* A count request (a POST with `body`, or a GET with params) as the server
 * would pass it, with a work share of `share` bytes. */
static api_request_t count_req(const char *body, const api_param_t *params, size_t np,
                               size_t share) {
    api_request_t r = tjob_request(body ? "application/json" : NULL, NULL, body, params, np);
    r.path = "/v1/nqueens/count";
    r.work_share = share;
    return r;
}

/* Runs a count job the way the pool does, one item at a time (item 0 cuts
 * it and raises nitems), with a work share of `share` bytes; returns the
 * rendered answer's JSON and the number of items. */
static json_t *count_with_share(const char *body, size_t share, size_t *items) {
    api_request_t r = count_req(body, NULL, 0, share);
    api_job_t *job = NULL;
    api_response_t resp = {0};
    search_ctl_t ctl = {.deadline_ns = search_now_ns() + 30LL * 1000000000};
    ck_assert_int_eq(api_nqueens_count_post_prepare(&r, &job, &resp), 0);
    ck_assert_ptr_nonnull(job);
    ck_assert_uint_eq(job->nitems, 1); /* prepare() cuts nothing */
    int act = API_JOB_CONTINUE;
    for (size_t k = 0; act == API_JOB_CONTINUE && k < job->nitems; k++)
        act = job->ops->merge(job, k, job->ops->run(job, k, &ctl));
    *items = job->nitems;
    job->ops->render(job, &resp);
    job->ops->free(job);
    json_t *j = json_loadb(resp.body, resp.len, 0, NULL);
    api_response_destroy(&resp);
    ck_assert_ptr_nonnull(j);
    return j;
}

/* The cut follows the work share: fewer, larger items when the share is
 * small (one item, the whole board, when it holds less than one), and the
 * count is the same every way. */
START_TEST(nqueens_api_count_cut_follows_share) {
    static const size_t shares[] = {0, 1, 4096, 65536, (size_t)1 << 30};
    size_t last = 0;
    for (size_t i = 0; i < sizeof shares / sizeof *shares; i++) {
        size_t items = 0;
        json_t *j = count_with_share("{\"n\":12}", shares[i], &items);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "complete");
        ck_assert_int_eq(json_integer_value(json_object_get(j, "count")), 14200);
        json_int_t subs =
            json_integer_value(json_object_get(json_object_get(j, "stats"), "subproblems"));
        ck_assert_uint_eq((size_t)subs + 1, items);
        if (shares[i] == 1) ck_assert_int_eq(subs, 1);
        /* each item holds its prefix (<= 27 bytes) and a 40-byte slot */
        if (shares[i] > 1) ck_assert_uint_le((size_t)subs * 40, shares[i]);
        if (i >= 2) ck_assert_uint_ge((size_t)subs, last);
        if (i >= 1) last = (size_t)subs;
        json_decref(j);
    }
    /* a nearly full n = 27 board: cut as deep as it goes, counted to the end */
    size_t items = 0;
    json_t *j = count_with_share("{\"n\":27,\"placed\":[[0,0],[1,2],[2,4],[3,1],[4,3],[5,8],"
                                 "[6,10],[7,12],[8,14],[9,16],[10,18],[11,20],[12,22],[13,24],"
                                 "[14,26],[15,5],[16,7],[17,9]]}",
                                 0, &items);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "complete");
    ck_assert_uint_le(items, 65537);
    json_decref(j);
}
END_TEST

/* A prepare() that refused for memory: 422 too-much-memory, no job, and a
 * detail that says `says`. */
static void expect_memory_refusal(int rc, const api_response_t *resp, const api_job_t *job,
                                  const char *says) {
    ck_assert_int_eq(rc, API_EMEMORY);
    ck_assert_int_eq(resp->status, 422);
    ck_assert_msg(strstr(resp->body, says) != NULL, "%s", resp->body);
    ck_assert_ptr_null(job);
}

/* GET /v1/nqueens/count cuts by n alone, so that every replica of a
 * cluster cuts it alike: a share never changes its items; one too small
 * for them is refused with a 422 that says how much is needed. */
START_TEST(nqueens_api_get_count_items_ignore_share) {
    static const size_t shares[] = {0, (size_t)1 << 30, 100};
    api_param_t kv[2] = {{"n", "20"}, {"timeout_ms", "100"}};
    size_t items = 0;
    for (size_t i = 0; i < sizeof shares / sizeof *shares; i++) {
        api_request_t r = count_req(NULL, kv, 2, shares[i]);
        api_job_t *job = NULL;
        api_response_t resp = {0};
        const int rc = api_nqueens_count_prepare(&r, &job, &resp);
        if (shares[i] == 100) {
            expect_memory_refusal(rc, &resp, job, "one request may hold");
        } else {
            ck_assert_int_eq(rc, 0);
            if (i == 0) items = job->nitems;
            ck_assert_uint_eq(job->nitems, items);
            ck_assert_uint_eq(job->progress_total, 119303); /* n = 20's split, one queen deep */
            job->ops->free(job);
        }
        api_response_destroy(&resp);
    }
    ck_assert_uint_gt(items, 1000);
}
END_TEST

/* A board solve whose scratch is over the request's work share is a 422
 * that says how much it needs (min-conflicts holds ~18 bytes a queen); under
 * it, or with no share, it is prepared as usual. */
START_TEST(nqueens_api_solve_needs_its_share) {
    static const char *const body = "{\"n\":1000000,\"method\":\"minconflicts\"}";
    static const size_t shares[] = {1 << 20, 64 << 20, 0};
    for (size_t i = 0; i < sizeof shares / sizeof *shares; i++) {
        api_request_t r = tjob_request("application/json", NULL, body, NULL, 0);
        api_job_t *job = NULL;
        api_response_t resp = {0};
        r.work_share = shares[i];
        const int rc = api_nqueens_solve_post_prepare(&r, &job, &resp);
        if (i == 0) {
            expect_memory_refusal(rc, &resp, job, "minconflicts at n = 1000000 needs");
        } else {
            ck_assert_int_eq(rc, 0);
            job->ops->free(job);
        }
        api_response_destroy(&resp);
    }
    api_param_t q[2] = {{"n", "65536"}, {"method", "mrv"}};
    api_request_t r = tjob_request(NULL, NULL, NULL, q, 2);
    api_job_t *job = NULL;
    api_response_t resp = {0};
    r.work_share = 1 << 20; /* mrv: ~41 bytes a row, 2.7 MB */
    ck_assert_int_eq(api_nqueens_solve_get_board(&r, &job, &resp), API_EMEMORY);
    api_response_destroy(&resp);
}
END_TEST

/* An allocator that counts what is held and refuses past `cap` (0: never). */
typedef struct count_alloc_s {
    size_t held, peak, cap, calls;
} count_alloc_t;

static void *count_alloc(void *ud, size_t size) {
    count_alloc_t *c = ud;
    if (c->cap != 0 && c->held + size > c->cap) return NULL;
    size_t *p = malloc(size + sizeof(max_align_t));
    if (p == NULL) return NULL;
    *p = size;
    c->held += size;
    c->calls++;
    if (c->held > c->peak) c->peak = c->held;
    return (char *)p + sizeof(max_align_t);
}

static void count_free(void *ud, void *ptr) {
    count_alloc_t *c = ud;
    size_t *p = (size_t *)(void *)((char *)ptr - sizeof(max_align_t));
    c->held -= *p;
    free(p);
}

/* A solve's scratch comes from the control block's allocator (the server's
 * work budget charges it there): all of it, given back by the end; an
 * allocator that refuses it turns the solve into a 503 out-of-memory (which
 * the server makes a 422 when the request's own share was the limit). */
START_TEST(nqueens_api_solve_scratch_from_ctl_allocator) {
    static const char *const bodies[] = {"{\"n\":100000,\"method\":\"minconflicts\"}",
                                         "{\"n\":2000,\"method\":\"mrv\"}"};
    for (int k = 0; k < 2; k++)
        for (int refuse = 0; refuse <= 1; refuse++) {
            count_alloc_t c = {0, 0, refuse ? 4096 : 0, 0};
            search_allocator_t a = {count_alloc, count_free, &c};
            search_ctl_t ctl = {.deadline_ns = search_now_ns() + 30LL * 1000000000, .alloc = &a};
            api_request_t r = tjob_request("application/json", NULL, bodies[k], NULL, 0);
            api_job_t *job = NULL;
            api_response_t resp = {0};
            ck_assert_int_eq(api_nqueens_solve_post_prepare(&r, &job, &resp), 0);
            job->ops->merge(job, 0, job->ops->run(job, 0, &ctl));
            job->ops->render(job, &resp);
            job->ops->free(job);
            ck_assert_uint_eq(c.held, 0);
            if (refuse) {
                ck_assert_int_eq(resp.status, 503);
            } else {
                ck_assert_int_eq(resp.status, 200);
                ck_assert_uint_eq(c.calls, 2); /* the method's scratch, then the check's */
                ck_assert_uint_eq(c.peak, k == 0 ? nqueens_repair_scratch(100000)
                                                 : nqueens_mrv_scratch(2000));
            }
            api_response_destroy(&resp);
        }
}
END_TEST

static long proc_kb(pid_t pid, const char *field) {
    char path[64], line[256];
    long kb = -1;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, field, strlen(field)) == 0) kb = atol(line + strlen(field));
    if (f != NULL) fclose(f);
    return kb;
}

typedef struct slow_call_s {
    const tsrv_t *s;
    long status;
} slow_call_t;

static void *slow_count(void *arg) {
    slow_call_t *c = arg;
    json_t *j = tsrv_call(c->s, "POST", "/v1/nqueens/count", "{\"n\":27,\"timeout_ms\":3000}", 0,
                          &c->status, NULL);
    json_decref(j);
    return NULL;
}

/* The attack: a 26-byte body, {"n":27,"timeout_ms":2000}, built
 * 4,487,692 subproblems on the HTTP thread (600 MB, 3.8 s with that thread
 * blocked) and answered after 6 s.  Counts of n = 27 cannot finish (the
 * count is 2.3 * 10^17), nor can the lexicographically first board of
 * n = 60 by backtracking (no answer in 60 s, 3.4 * 10^9 placements, here), so
 * each of these must answer "timeout" on its deadline: 200 ms asked, within
 * 2 s allowed (sanitizers, a loaded machine: 0.6 s seen at load 12 on two
 * cores), holding little memory; and
 * while a count runs, the only HTTP thread answers at once. */
START_TEST(nqueens_api_long_work_keeps_deadline_and_memory) {
    static const char *const args[] = {"--threads", "2", "--http-threads", "1", NULL};
    static const struct {
        const char *method, *path, *body;
    } calls[] = {
        {"POST", "/v1/nqueens/count", "{\"n\":27,\"timeout_ms\":200}"},
        {"POST", "/v1/nqueens/count", "{\"n\":27,\"placed\":[[0,5],[9,0]],\"timeout_ms\":200}"},
        {"GET", "/v1/nqueens/count?n=27&timeout_ms=200", NULL},
        {"GET", "/v1/nqueens/count?n=27&timeout_ms=200&symmetry=false", NULL},
        {"GET", "/v1/nqueens/count?n=22&timeout_ms=200", NULL},
        {"GET", "/v1/nqueens/solve?n=60&method=backtracking&timeout_ms=200", NULL},
    };
    tsrv_t s;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    const long idle = proc_kb(s.pid, "VmRSS:");
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
        long status = 0;
        hresp_t raw;
        json_t *j = tsrv_call(&s, calls[i].method, calls[i].path, calls[i].body, 0, &status, &raw);
        ck_assert_msg(status == 200, "%s %s: %ld %s", calls[i].method, calls[i].path, status,
                      raw.body);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "timeout");
        printf("nqueens_api_long_work: %s %s answered timeout after %.0f ms (200 asked)\n",
               calls[i].method, calls[i].path, raw.seconds * 1e3);
        ck_assert_msg(raw.seconds < 2.0, "%s %s: %.0f ms for a 200 ms deadline", calls[i].method,
                      calls[i].path, raw.seconds * 1e3);
        hresp_free(&raw);
        json_decref(j);
    }
    const long peak = proc_kb(s.pid, "VmHWM:");
    printf("nqueens_api_long_work: server RSS %ld kB idle, peak %ld kB\n", idle, peak);
    ck_assert_msg(peak - idle < 64 * 1024, "the counts took %ld kB", peak - idle);

    slow_call_t c = {&s, 0};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, slow_count, &c), 0);
    test_sleep_ms(100);
    hresp_t h;
    char url[128];
    snprintf(url, sizeof url, "%s/healthz", s.base);
    const double t0 = test_now_ms();
    ck_assert_int_eq(http_get(url, &h), CURLE_OK);
    const double waited = test_now_ms() - t0;
    ck_assert_int_eq(h.status, 200);
    hresp_free(&h);
    pthread_join(th, NULL);
    ck_assert_int_eq(c.status, 200);
    ck_assert_msg(waited < 1000, "/healthz waited %.0f ms behind a count's prepare", waited);
    tsrv_stop(&s, SIGTERM, 20000);
}
END_TEST

Suite *nqueens_api_suite(void);
Suite *nqueens_api_suite(void) {
    Suite *s = suite_create("nqueens_api");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, nqueens_api_count_known_values);
    tcase_add_test(tc, nqueens_api_count_threads_default_to_the_pool);
    tcase_add_test(tc, nqueens_api_solve_first);
    tcase_add_test(tc, nqueens_api_count_rejects);
    tcase_add_test(tc, nqueens_api_split_depth_grows);
    tcase_add_test(tc, nqueens_api_analyze_examples);
    tcase_add_test(tc, nqueens_api_pagination_covers_92_once);
    tcase_add_test(tc, nqueens_api_count_completions);
    tcase_add_test(tc, nqueens_api_complete_with_each_method);
    tcase_add_test(tc, nqueens_api_board_errors);
    tcase_add_test(tc, nqueens_api_get_solve_methods);
    tcase_add_test(tc, nqueens_api_minconflicts_trace_and_seed);
    tcase_add_test(tc, nqueens_api_minconflicts_start);
    tcase_add_test(tc, nqueens_api_count_cut_follows_share);
    tcase_add_test(tc, nqueens_api_get_count_items_ignore_share);
    tcase_add_test(tc, nqueens_api_solve_needs_its_share);
    tcase_add_test(tc, nqueens_api_solve_scratch_from_ctl_allocator);
    tcase_add_test(tc, nqueens_api_long_work_keeps_deadline_and_memory);
    tcase_add_test(tc, nqueens_api_get_solve_auto_is_documented);
    suite_add_tcase(s, tc);
    return s;
}
