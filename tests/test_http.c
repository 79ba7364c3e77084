/* test_http.c -- the real server on an ephemeral loopback port, driven with
 * libcurl: happy paths, every error status, headers, metrics, keep-alive,
 * queue limits, deadlines, client hang-up and SIGTERM draining, and raw
 * framing over a plain socket (pipelining, bad lengths, hang-ups mid-body).
 *
 * Most tests share one server started by an unchecked fixture (it lives in
 * check's parent process, outside the forked tests); tests that need other
 * flags or that kill the server start their own.  Nothing here asserts on
 * wall-clock speed: where order matters (a small request finishing while a
 * long count still runs) the test checks the order, with generous bounds. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/http_client.h"
#include "tests/test_util.h"

static tsrv_t shared_srv;

static void shared_up(void) {
    static const char *const args[] = {"--threads", "2", "--max-body", "4096", NULL};
    ck_assert_int_eq(tsrv_start(&shared_srv, args, NULL), 0);
}

static void shared_down(void) { tsrv_stop(&shared_srv, SIGTERM, 10000); }

static void url_of(char *out, size_t cap, const tsrv_t *s, const char *path) {
    snprintf(out, cap, "%s%s", s->base, path);
}

static json_t *get_json(const tsrv_t *s, const char *path, long want_status) {
    char url[512];
    hresp_t r;
    json_error_t err;
    url_of(url, sizeof url, s, path);
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    ck_assert_msg(r.status == want_status, "%s: status %ld, want %ld: %s", path, r.status,
                  want_status, r.body);
    json_t *j = json_loads(r.body, 0, &err);
    ck_assert_msg(j != NULL, "%s: not JSON: %s", path, r.body);
    hresp_free(&r);
    return j;
}

/* Polls /metrics until `series` equals `want`, for up to `ms`. */
static int wait_metric(const tsrv_t *s, const char *series, double want, int ms) {
    char url[256];
    url_of(url, sizeof url, s, "/metrics");
    for (int t = 0; t <= ms; t += 20) {
        hresp_t r;
        http_get(url, &r);
        double v = metrics_value(r.body, series);
        hresp_free(&r);
        if (v == want) return 1;
        test_sleep_ms(20);
    }
    return 0;
}

/* A request on a background thread. */
typedef struct bg_s {
    pthread_t thread;
    char url[512];
    long timeout_ms; /* client-side, 0 = none */
    hresp_t resp;
    atomic_int done;
} bg_t;

static void *bg_main(void *arg) {
    bg_t *bg = arg;
    CURL *c = curl_easy_init();
    if (bg->timeout_ms > 0) curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, bg->timeout_ms);
    setenv("PUZZLED_TEST_NO_TIMEOUT", "1", 0);
    http_do(c, "GET", bg->url, NULL, 0, NULL, &bg->resp);
    curl_easy_cleanup(c);
    atomic_store(&bg->done, 1);
    return NULL;
}

static void bg_start(bg_t *bg, const tsrv_t *s, const char *path, long client_timeout_ms) {
    memset(bg, 0, sizeof *bg);
    url_of(bg->url, sizeof bg->url, s, path);
    bg->timeout_ms = client_timeout_ms;
    ck_assert_int_eq(pthread_create(&bg->thread, NULL, bg_main, bg), 0);
}

static void bg_join(bg_t *bg) { pthread_join(bg->thread, NULL); }

/* Checks the RFC 9457 shape and that `field` is named in errors[]. */
static void assert_problem(const hresp_t *r, long status, const char *field) {
    char ct[128];
    json_error_t err;
    ck_assert_msg(r->status == status, "status %ld, want %ld: %s", r->status, status, r->body);
    ck_assert(hresp_header(r, "Content-Type", ct, sizeof ct));
    ck_assert_str_eq(ct, "application/problem+json");
    json_t *j = json_loads(r->body, 0, &err);
    ck_assert_msg(j != NULL, "problem is not JSON: %s", r->body);
    ck_assert(json_is_string(json_object_get(j, "type")));
    ck_assert(json_is_string(json_object_get(j, "title")));
    ck_assert(json_is_string(json_object_get(j, "detail")));
    ck_assert_int_eq(json_integer_value(json_object_get(j, "status")), status);
    json_t *errors = json_object_get(j, "errors");
    ck_assert(json_is_array(errors));
    if (field != NULL) {
        int found = 0;
        for (size_t i = 0; i < json_array_size(errors); i++) {
            const char *f = json_string_value(json_object_get(json_array_get(errors, i), "field"));
            if (f && strcmp(f, field) == 0) found = 1;
        }
        ck_assert_msg(found, "errors[] does not name '%s': %s", field, r->body);
    }
    json_decref(j);
}

static void get_problem(const tsrv_t *s, const char *path, long status, const char *field) {
    char url[512];
    hresp_t r;
    url_of(url, sizeof url, s, path);
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    assert_problem(&r, status, field);
    hresp_free(&r);
}

/* === Happy paths === */

START_TEST(http_health_and_ready) {
    json_t *j = get_json(&shared_srv, "/healthz", 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    json_decref(j);
    j = get_json(&shared_srv, "/readyz", 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ready");
    json_decref(j);
}
END_TEST

START_TEST(http_count_known_values) {
    static const long long a000170[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};
    for (int n = 1; n <= 12; n++) {
        char path[64];
        snprintf(path, sizeof path, "/v1/nqueens/count?n=%d", n);
        json_t *j = get_json(&shared_srv, path, 200);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "complete");
        ck_assert_int_eq(json_integer_value(json_object_get(j, "n")), n);
        ck_assert_int_eq(json_integer_value(json_object_get(j, "count")), a000170[n - 1]);
        json_t *st = json_object_get(j, "stats");
        ck_assert(json_integer_value(json_object_get(st, "subproblems")) >= 1);
        ck_assert(json_integer_value(json_object_get(st, "threads")) >= 1);
        ck_assert(json_is_number(json_object_get(st, "elapsed_ms")));
        ck_assert(json_is_integer(json_object_get(st, "nodes")));
        json_decref(j);
    }
}
END_TEST

START_TEST(http_count_threads_and_symmetry_agree) {
    const char *paths[] = {"/v1/nqueens/count?n=13&threads=1", "/v1/nqueens/count?n=13&threads=2",
                           "/v1/nqueens/count?n=13&symmetry=false",
                           "/v1/nqueens/count?n=13&threads=2&symmetry=true"};
    for (size_t i = 0; i < 4; i++) {
        json_t *j = get_json(&shared_srv, paths[i], 200);
        ck_assert_int_eq(json_integer_value(json_object_get(j, "count")), 73712);
        json_t *st = json_object_get(j, "stats");
        ck_assert_int_eq(json_integer_value(json_object_get(st, "completed_subproblems")),
                         json_integer_value(json_object_get(st, "subproblems")));
        if (i == 0) ck_assert_int_eq(json_integer_value(json_object_get(st, "threads")), 1);
        if (i == 1) ck_assert_int_eq(json_integer_value(json_object_get(st, "threads")), 2);
        json_decref(j);
    }
}
END_TEST

START_TEST(http_solve_first_solutions) {
    static const int q8[] = {0, 4, 7, 5, 2, 6, 1, 3};
    static const int q9[] = {0, 2, 5, 7, 1, 3, 8, 6, 4};
    static const int q10[] = {0, 2, 5, 7, 9, 4, 8, 1, 3, 6};
    const int *want[] = {q8, q9, q10};
    for (int n = 8; n <= 10; n++) {
        char path[64];
        snprintf(path, sizeof path, "/v1/nqueens/solve?n=%d", n);
        json_t *j = get_json(&shared_srv, path, 200);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "solved");
        ck_assert(json_is_true(json_object_get(j, "verified")));
        json_t *q = json_object_get(j, "queens");
        ck_assert_int_eq(json_array_size(q), n);
        for (int r = 0; r < n; r++)
            ck_assert_int_eq(json_integer_value(json_array_get(q, (size_t)r)), want[n - 8][r]);
        json_decref(j);
    }
    for (int n = 2; n <= 3; n++) {
        char path[64];
        snprintf(path, sizeof path, "/v1/nqueens/solve?n=%d", n);
        json_t *j = get_json(&shared_srv, path, 200);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "unsolvable");
        ck_assert_ptr_null(json_object_get(j, "queens"));
        json_decref(j);
    }
}
END_TEST

START_TEST(http_head_and_cache_headers) {
    char url[256], v[128];
    hresp_t r;
    CURL *c = curl_easy_init();
    url_of(url, sizeof url, &shared_srv, "/healthz");
    ck_assert_int_eq(http_do(c, "HEAD", url, NULL, 0, NULL, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    ck_assert_int_eq(r.len, 0);
    ck_assert(hresp_header(&r, "Cache-Control", v, sizeof v));
    ck_assert_str_eq(v, "no-store");
    hresp_free(&r);
    curl_easy_cleanup(c);
}
END_TEST

/* === Errors === */

START_TEST(http_bad_parameters_are_400) {
    get_problem(&shared_srv, "/v1/nqueens/count", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/count?n=0", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/count?n=28", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/count?n=abc", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/count?n=8.5", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/count?n=-3", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/count?n=99999999999999999999999", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/count?n=8&threads=0", 400, "threads");
    get_problem(&shared_srv, "/v1/nqueens/count?n=8&threads=3", 400, "threads"); /* pool has 2 */
    get_problem(&shared_srv, "/v1/nqueens/count?n=8&timeout_ms=0", 400, "timeout_ms");
    get_problem(&shared_srv, "/v1/nqueens/count?n=8&symmetry=maybe", 400, "symmetry");
    get_problem(&shared_srv, "/v1/nqueens/count?n=8&bogus=1", 400, "bogus");
    get_problem(&shared_srv, "/v1/nqueens/count?n=8&n=9", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/solve?n=65&method=backtracking", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/solve?n=10000001", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/solve?n=8&method=guessing", 400, "method");
}
END_TEST

START_TEST(http_every_bad_field_is_named) {
    char url[256];
    hresp_t r;
    url_of(url, sizeof url, &shared_srv, "/v1/nqueens/count?n=x&threads=0&timeout_ms=y");
    http_get(url, &r);
    assert_problem(&r, 400, "n");
    assert_problem(&r, 400, "threads");
    assert_problem(&r, 400, "timeout_ms");
    hresp_free(&r);
}
END_TEST

START_TEST(http_unknown_path_is_404) {
    get_problem(&shared_srv, "/v1/nqueens/cout?n=8", 404, NULL);
    get_problem(&shared_srv, "/no-such-file.js", 404, NULL); /* "/" is the web front end */
    get_problem(&shared_srv, "/v1/nqueens/count/", 404, NULL);
}
END_TEST

START_TEST(http_wrong_method_is_405_with_allow) {
    char url[256], allow[128];
    hresp_t r;
    CURL *c = curl_easy_init();
    url_of(url, sizeof url, &shared_srv, "/v1/nqueens/solutions?n=8");
    http_do(c, "DELETE", url, NULL, 0, NULL, &r);
    assert_problem(&r, 405, NULL);
    ck_assert(hresp_header(&r, "Allow", allow, sizeof allow));
    ck_assert_ptr_nonnull(strstr(allow, "GET"));
    ck_assert_ptr_nonnull(strstr(allow, "OPTIONS"));
    hresp_free(&r);
    http_do(c, "POST", url, "{}", 2, NULL, &r);
    assert_problem(&r, 405, NULL);
    hresp_free(&r);
    curl_easy_cleanup(c);
}
END_TEST

START_TEST(http_body_over_limit_is_413) {
    char url[256];
    size_t big = 10000; /* the shared server allows 4096 */
    char *body = malloc(big);
    hresp_t r;
    CURL *c = curl_easy_init();
    memset(body, 'x', big);
    url_of(url, sizeof url, &shared_srv, "/v1/nqueens/solutions?n=8");
    /* declared Content-Length, body sent: drained, answered, connection kept */
    static const char *const no_expect[] = {"Expect:", NULL};
    http_do(c, "POST", url, body, big, no_expect, &r);
    assert_problem(&r, 413, NULL);
    hresp_free(&r);
    http_do(c, "GET", url, NULL, 0, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_int_eq(r.connects, 0);
    hresp_free(&r);
    /* the client waits for 100-continue: refused before it sends the body */
    static const char *const expect[] = {"Expect: 100-continue", NULL};
    http_do(c, "POST", url, body, big, expect, &r);
    assert_problem(&r, 413, NULL);
    hresp_free(&r);
    /* chunked: no length up front, so the limit trips while reading */
    static const char *const chunked[] = {"Transfer-Encoding: chunked", "Expect:", NULL};
    http_do(c, "POST", url, body, big, chunked, &r);
    assert_problem(&r, 413, NULL);
    hresp_free(&r);
    /* at the limit is fine (then 405: the route takes no POST) */
    http_do(c, "POST", url, body, 4096, NULL, &r);
    assert_problem(&r, 405, NULL);
    hresp_free(&r);
    curl_easy_cleanup(c);
    free(body);
}
END_TEST

/* === Headers === */

START_TEST(http_cors_on_every_answer_and_preflight) {
    const char *paths[] = {"/healthz", "/v1/nqueens/count?n=5", "/v1/nqueens/count?n=0",
                           "/nowhere"};
    char url[256], v[256];
    hresp_t r;
    for (size_t i = 0; i < 4; i++) {
        url_of(url, sizeof url, &shared_srv, paths[i]);
        http_get(url, &r);
        ck_assert_msg(hresp_header(&r, "Access-Control-Allow-Origin", v, sizeof v), "%s", paths[i]);
        ck_assert_str_eq(v, "*");
        hresp_free(&r);
    }
    CURL *c = curl_easy_init();
    static const char *const pre[] = {"Origin: http://example.test",
                                      "Access-Control-Request-Method: GET", NULL};
    url_of(url, sizeof url, &shared_srv, "/v1/nqueens/count");
    http_do(c, "OPTIONS", url, NULL, 0, pre, &r);
    ck_assert_int_eq(r.status, 204);
    ck_assert(hresp_header(&r, "Access-Control-Allow-Methods", v, sizeof v));
    ck_assert_ptr_nonnull(strstr(v, "GET"));
    ck_assert(hresp_header(&r, "Access-Control-Allow-Headers", v, sizeof v));
    ck_assert_ptr_nonnull(strstr(v, "Content-Type"));
    ck_assert(hresp_header(&r, "Access-Control-Allow-Origin", v, sizeof v));
    hresp_free(&r);
    curl_easy_cleanup(c);
}
END_TEST

START_TEST(http_cors_origin_flag) {
    static const char *const args[] = {"--cors-origin", "https://app.example", NULL};
    tsrv_t s;
    char url[256], v[256];
    hresp_t r;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    url_of(url, sizeof url, &s, "/healthz");
    http_get(url, &r);
    ck_assert(hresp_header(&r, "Access-Control-Allow-Origin", v, sizeof v));
    ck_assert_str_eq(v, "https://app.example");
    ck_assert(hresp_header(&r, "Vary", v, sizeof v));
    hresp_free(&r);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 10000), 0);
}
END_TEST

START_TEST(http_request_id_echoed_or_minted) {
    char url[256], v[256], needle[300];
    hresp_t r;
    CURL *c = curl_easy_init();
    static const char *const mine[] = {"X-Request-Id: trace-42.abc", NULL};
    static const char *const bad[] = {"X-Request-Id: has spaces in it", NULL};
    url_of(url, sizeof url, &shared_srv, "/v1/nqueens/count?n=6");
    http_do(c, "GET", url, NULL, 0, mine, &r);
    ck_assert(hresp_header(&r, "X-Request-Id", v, sizeof v));
    ck_assert_str_eq(v, "trace-42.abc");
    hresp_free(&r);
    http_do(c, "GET", url, NULL, 0, NULL, &r);
    ck_assert(hresp_header(&r, "X-Request-Id", v, sizeof v));
    ck_assert_int_eq(strlen(v), 16);
    hresp_free(&r);
    http_do(c, "GET", url, NULL, 0, bad, &r);
    ck_assert(hresp_header(&r, "X-Request-Id", v, sizeof v));
    ck_assert_int_eq(strlen(v), 16);
    hresp_free(&r);
    curl_easy_cleanup(c);
    /* the access log names the request, its status and its id */
    snprintf(needle, sizeof needle, "\"request_id\":\"trace-42.abc\"");
    for (int t = 0; t < 100 && !tsrv_log_has(&shared_srv, needle); t++)
        test_sleep_ms(10);
    ck_assert(tsrv_log_has(&shared_srv, needle));
    ck_assert(tsrv_log_has(&shared_srv, "\"path\":\"/v1/nqueens/count\",\"status\":200"));
}
END_TEST

START_TEST(http_keep_alive_reused) {
    char url[256];
    hresp_t r;
    CURL *c = curl_easy_init();
    url_of(url, sizeof url, &shared_srv, "/v1/nqueens/count?n=9");
    http_do(c, "GET", url, NULL, 0, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_int_eq(r.connects, 1);
    hresp_free(&r);
    for (int i = 0; i < 3; i++) { /* solver answers go through suspend/resume */
        http_do(c, "GET", url, NULL, 0, NULL, &r);
        ck_assert_int_eq(r.status, 200);
        ck_assert_int_eq(r.connects, 0); /* same connection */
        hresp_free(&r);
    }
    url_of(url, sizeof url, &shared_srv, "/v1/nqueens/count?n=0"); /* an error keeps it too */
    http_do(c, "GET", url, NULL, 0, NULL, &r);
    ck_assert_int_eq(r.status, 400);
    ck_assert_int_eq(r.connects, 0);
    hresp_free(&r);
    curl_easy_cleanup(c);
}
END_TEST

START_TEST(http_metrics_exposed) {
    char url[256];
    hresp_t r;
    json_decref(get_json(&shared_srv, "/v1/nqueens/count?n=10", 200));
    url_of(url, sizeof url, &shared_srv, "/metrics");
    http_get(url, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert(metrics_value(
                  r.body,
                  "puzzled_http_requests_total{route=\"/v1/nqueens/count\",status=\"200\"}") >= 1);
    ck_assert(metrics_value(
                  r.body,
                  "puzzled_http_request_duration_seconds_count{route=\"/v1/nqueens/count\"}") >= 1);
    ck_assert_ptr_nonnull(strstr(
        r.body,
        "puzzled_http_request_duration_seconds_bucket{route=\"/v1/nqueens/count\",le=\"+Inf\"}"));
    ck_assert(metrics_value(r.body, "puzzled_solver_nodes_total{puzzle=\"nqueens\"}") > 0);
    ck_assert(metrics_value(r.body, "puzzled_jobs_inflight") >= 0);
    ck_assert(metrics_value(r.body, "puzzled_jobs_queued") >= 0);
    ck_assert_ptr_nonnull(strstr(r.body, "# TYPE puzzled_http_requests_total counter"));
    hresp_free(&r);
}
END_TEST

/* === Limits, deadlines, fairness === */

START_TEST(http_count_timeout_stops_everything) {
    json_t *j = get_json(&shared_srv, "/v1/nqueens/count?n=21&timeout_ms=150", 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "timeout");
    ck_assert_ptr_null(json_object_get(j, "count"));
    json_t *st = json_object_get(j, "stats");
    ck_assert(json_integer_value(json_object_get(st, "completed_subproblems")) <
              json_integer_value(json_object_get(st, "subproblems")));
    ck_assert(json_integer_value(json_object_get(st, "nodes")) > 0);
    json_decref(j);
    /* and the pool is free again */
    ck_assert(wait_metric(&shared_srv, "puzzled_jobs_inflight", 0, 5000));
}
END_TEST

START_TEST(http_small_request_not_held_behind_long_count) {
    bg_t big;
    bg_start(&big, &shared_srv, "/v1/nqueens/count?n=20&timeout_ms=4000", 0);
    ck_assert(wait_metric(&shared_srv, "puzzled_jobs_inflight", 1, 3000));
    json_t *j = get_json(&shared_srv, "/v1/nqueens/count?n=8", 200);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "count")), 92);
    json_decref(j);
    ck_assert_msg(!atomic_load(&big.done), "the small count should answer while the big one runs");
    bg_join(&big);
    ck_assert_int_eq(big.resp.status, 200);
    hresp_free(&big.resp);
}
END_TEST

START_TEST(http_client_hangup_cancels_work) {
    bg_t bg;
    bg_start(&bg, &shared_srv, "/v1/nqueens/count?n=22&timeout_ms=30000", 300);
    bg_join(&bg);
    ck_assert_int_ne(bg.resp.curl_rc, CURLE_OK); /* the client gave up */
    hresp_free(&bg.resp);
    /* without hang-up detection the job would run for 60 s */
    ck_assert(wait_metric(&shared_srv, "puzzled_jobs_inflight", 0, 5000));
    /* the access log line follows the pool's count: the answer is rendered
     * and the request completed after the task has left the pool */
    for (int t = 0; t < 250 && !tsrv_log_has(&shared_srv, "\"client_gone\":true"); t++)
        test_sleep_ms(20);
    ck_assert(tsrv_log_has(&shared_srv, "\"client_gone\":true"));
}
END_TEST

/* === Raw HTTP framing ===
 * What curl never sends: pipelined requests, conflicting lengths, bodies cut
 * off by a hang-up.  These go over a plain socket; after each the server
 * must still answer, and no job may be left behind. */

/* Sends `len` bytes on a new connection; then, unless `hang_up`, reads until
 * the server closes (or 5 s pass) into out (NUL-terminated, truncated at
 * cap).  Returns the bytes read, or -1 if the connection failed; *closed
 * (if not NULL) says whether the server closed the connection. */
static long raw_talk(const tsrv_t *s, const char *req, size_t len, int hang_up, char *out,
                     size_t cap, int *closed) {
    struct sockaddr_in a = {0};
    struct timeval tv = {5, 0};
    size_t got = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0), eof = 0;
    if (fd < 0) return -1;
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)s->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
        close(fd);
        return -1;
    }
    while (!hang_up && got + 1 < cap) {
        ssize_t n = recv(fd, out + got, cap - 1 - got, 0);
        eof = n == 0;
        if (n <= 0) break;
        got += (size_t)n;
    }
    if (cap > 0) out[got] = '\0';
    if (closed != NULL) *closed = eof;
    close(fd);
    return (long)got;
}

static long raw_exchange(const tsrv_t *s, const char *req, size_t len, int hang_up, char *out,
                         size_t cap) {
    return raw_talk(s, req, len, hang_up, out, cap, NULL);
}

static int count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p != NULL; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void assert_healthy_and_idle(const tsrv_t *s) {
    json_t *h = get_json(s, "/healthz", 200);
    json_decref(h);
    ck_assert(wait_metric(s, "puzzled_jobs_inflight", 0, 5000));
    ck_assert(wait_metric(s, "puzzled_jobs_queued", 0, 5000));
}

START_TEST(http_raw_framing) {
    static const char killer[] =
        "{\"size\":4,\"cages\":[{\"sum\":10,\"cells\":[[0,0],[0,1],[1,0],[1,1]]}]}";
    char req[8192], *out = malloc(1 << 16);
    size_t len = 0;
    long got;
    ck_assert_ptr_nonnull(out);

    /* pipelined: three POSTs and a GET in one write, answered in order */
    for (int i = 0; i < 3; i++)
        len += (size_t)snprintf(
            req + len, sizeof req - len,
            "POST /v1/killer/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            "Content-Length: %zu\r\n\r\n%s",
            strlen(killer), killer);
    len += (size_t)snprintf(req + len, sizeof req - len,
                            "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    got = raw_exchange(&shared_srv, req, len, 0, out, 1 << 16);
    ck_assert_int_gt(got, 0);
    ck_assert_int_eq(count_of(out, "HTTP/1.1 200 "), 4);
    ck_assert_int_eq(count_of(out, "\"status\":\"solved\""), 3);
    ck_assert_ptr_nonnull(
        strstr(strrchr(out, '{'), "\"status\":\"ok\"")); /* the GET answered last */

    /* a chunked body, with its chunk framing, is read whole */
    len = (size_t)snprintf(req, sizeof req,
                           "POST /v1/killer/solve HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
                           "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                           "10\r\n%.16s\r\n%zx\r\n%s\r\n0\r\n\r\n",
                           killer, strlen(killer) - 16, killer + 16);
    ck_assert_int_gt(raw_exchange(&shared_srv, req, len, 0, out, 1 << 16), 0);
    ck_assert_msg(strncmp(out, "HTTP/1.1 200 ", 13) == 0, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "\"status\":\"solved\""));

    /* malformed framing is refused with a 4xx before any route sees it:
     * both Content-Length and chunked, two lengths, a bad chunk size */
    static const char *const bad[] = {
        "POST /v1/killer/solve HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n"
        "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        "POST /v1/killer/solve HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nContent-Length: "
        "5\r\n\r\nabcde",
        "POST /v1/killer/solve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: "
        "chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_gt(raw_exchange(&shared_srv, bad[i], strlen(bad[i]), 0, out, 1 << 16), 0);
        ck_assert_msg(strncmp(out, "HTTP/1.1 4", 10) == 0, "case %zu: %.80s", i, out);
    }
    assert_healthy_and_idle(&shared_srv);

    /* hang-ups: a body cut short, pipelined work abandoned, a batch
     * abandoned while it streams */
    len = (size_t)snprintf(
        req, sizeof req,
        "POST /v1/killer/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n%s",
        killer);
    ck_assert_int_eq(raw_exchange(&shared_srv, req, len, 1, out, 1 << 16), 0);
    len = 0;
    for (int i = 0; i < 20; i++)
        len += (size_t)snprintf(req + len, sizeof req - len,
                                "GET /v1/nqueens/count?n=13 HTTP/1.1\r\nHost: t\r\n\r\n");
    ck_assert_int_eq(raw_exchange(&shared_srv, req, len, 1, out, 1 << 16), 0);
    len =
        (size_t)snprintf(req, sizeof req,
                         "POST /v1/sudoku/batch HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\n"
                         "Content-Length: %d\r\n\r\n",
                         82 * 40);
    for (int i = 0; i < 40; i++) {
        memset(req + len, '.', 81);
        req[len + 81] = '\n';
        len += 82;
    }
    ck_assert_int_eq(raw_exchange(&shared_srv, req, len, 1, out, 1 << 16), 0);
    assert_healthy_and_idle(&shared_srv);
    free(out);
}
END_TEST

/* A request head that a proxy in front could frame differently (request
 * smuggling), or that libmicrohttpd would read wrongly, is refused before
 * any route sees it: one problem answer, then the connection closes, so
 * what follows on it is never answered.  Unknown transfer codings are 501
 * at once (they used to hold the connection until the idle timeout). */
START_TEST(http_head_refused) {
    static const char smuggled[] = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n";
    static const struct {
        const char *head; /* then "\r\n" and the body below */
        int status;
        const char *field; /* errors[0].field; NULL: not checked */
        const char *body;
    } cases[] = {
        {"POST /v1/nqueens/count HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: chunked\r\nContent-Length: 7\r\n",
         400, "Transfer-Encoding", "7\r\n{\"n\":8}\r\n0\r\n\r\n"},
        {"POST /v1/nqueens/count HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
         "Content-Length: 7\r\nTransfer-Encoding: chunked\r\n",
         400, "Transfer-Encoding", "{\"n\":8}"},
        {"POST /v1/nqueens/count HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: gzip\r\n",
         501, "Transfer-Encoding", "{\"n\":8}"},
        {"POST /v1/nqueens/count HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: gzip, chunked\r\n",
         501, "Transfer-Encoding", "7\r\n{\"n\":8}\r\n0\r\n\r\n"},
        {"POST /v1/nqueens/count HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
         501, "Transfer-Encoding", "7\r\n{\"n\":8}\r\n0\r\n\r\n"},
        {"POST /v1/nqueens/count HTTP/1.0\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: chunked\r\n",
         400, "Transfer-Encoding", "7\r\n{\"n\":8}\r\n0\r\n\r\n"},
        {"POST /v1/nqueens/count HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
         "Content-Length: 7\r\nContent-Length: 7\r\n",
         400, "Content-Length", "{\"n\":8}"},
        {"GET /healthz HTTP/1.1\r\n", 400, "Host", ""},
        {"GET /healthz HTTP/1.1\r\nHost: t\r\nHost: u\r\n", 400, "Host", ""},
        /* obs-fold: libmicrohttpd would read "X-Request-Id: abc" as the
         * header "X-Request-Iddef: abc" */
        {"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-Id: abc\r\n def\r\n", 400, NULL, ""},
        {"GET /healthz HTTP/1.1\r\nX-Note: a\r\n\tb\r\nHost: t\r\n", 400, NULL, ""},
        /* a space before the colon: a proxy may read Transfer-Encoding */
        {"POST /v1/nqueens/count HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding : chunked\r\nContent-Length: 7\r\n",
         400, "Transfer-Encoding ", "{\"n\":8}"},
    };
    char req[1024], *out = malloc(1 << 16);
    ck_assert_ptr_nonnull(out);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int closed = 0, n;
        n = snprintf(req, sizeof req, "%s\r\n%s%s", cases[i].head, cases[i].body, smuggled);
        ck_assert(n > 0 && (size_t)n < sizeof req);
        ck_assert_int_gt(raw_talk(&shared_srv, req, (size_t)n, 0, out, 1 << 16, &closed), 0);
        ck_assert_msg(closed, "case %zu: the connection stays open", i);
        ck_assert_msg(count_of(out, "\r\nX-Request-Id: ") == 1, "case %zu: %s", i,
                      out); /* one answer */
        char want[16];
        snprintf(want, sizeof want, " %d ", cases[i].status);
        ck_assert_msg(strstr(out, want) == strchr(out, ' '), "case %zu: %.120s", i, out);
        ck_assert_ptr_nonnull(strstr(out, "\r\nContent-Type: application/problem+json\r\n"));
        json_error_t err;
        json_t *p = json_loads(strstr(out, "\r\n\r\n") + 4, 0, &err);
        ck_assert_msg(p != NULL, "case %zu: not JSON: %s", i, out);
        ck_assert_int_eq(json_integer_value(json_object_get(p, "status")), cases[i].status);
        json_t *e = json_array_get(json_object_get(p, "errors"), 0);
        ck_assert_str_eq(json_string_value(json_object_get(e, "in")), "header");
        if (cases[i].field != NULL)
            ck_assert_str_eq(json_string_value(json_object_get(e, "field")), cases[i].field);
        json_decref(p);
    }
    /* what stays accepted: HTTP/1.0 without Host, blanks before a value, a
     * chunked body (http_raw_framing), a cookie; each on a kept-alive
     * connection answers the request behind it too */
    static const char *const fine[] = {
        "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Note:      spaced\r\nX-Empty:\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: t\r\nCookie: a=b; c=d\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof fine / sizeof *fine; i++) {
        int n = snprintf(req, sizeof req, "%s%s", fine[i],
                         "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        ck_assert_int_gt(raw_exchange(&shared_srv, req, (size_t)n, 0, out, 1 << 16), 0);
        ck_assert_msg(count_of(out, " 200 OK\r\n") == 2, "fine %zu: %.200s", i, out);
    }
    assert_healthy_and_idle(&shared_srv);
    free(out);
}
END_TEST

START_TEST(http_full_queue_is_503) {
    static const char *const args[] = {"--threads", "1", "--max-queue", "1", NULL};
    tsrv_t s;
    bg_t a, b;
    char url[256], v[32];
    hresp_t r;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    /* two jobs in flight that never end before their deadlines (n = 27):
     * the pool takes their items in turn, so b's first item starts when
     * a's first ends -- at a's deadline at the latest; b's deadline is
     * twice a's so that it never ends waiting (a queued request past its
     * deadline is answered 503 too, which b once was when both had 2.5 s
     * and a's item took all of it) */
    bg_start(&a, &s, "/v1/nqueens/count?n=27&timeout_ms=2500", 0);
    ck_assert(wait_metric(&s, "puzzled_jobs_inflight", 1, 3000)); /* a first */
    bg_start(&b, &s, "/v1/nqueens/count?n=27&timeout_ms=5000", 0);
    ck_assert(wait_metric(&s, "puzzled_jobs_inflight", 2, 3000));
    /* a request that needs a worker (n = 4 would be answered on the HTTP
     * thread, which never queues) */
    url_of(url, sizeof url, &s, "/v1/nqueens/count?n=12");
    http_get(url, &r);
    assert_problem(&r, 503, NULL);
    ck_assert(hresp_header(&r, "Retry-After", v, sizeof v));
    ck_assert_int_ge(atoi(v), 1);
    hresp_free(&r);
    /* health and metrics never queue */
    json_decref(get_json(&s, "/healthz", 200));
    bg_join(&a);
    bg_join(&b);
    ck_assert_int_eq(a.resp.status, 200);
    ck_assert_int_eq(b.resp.status, 200);
    hresp_free(&a.resp);
    hresp_free(&b.resp);
    url_of(url, sizeof url, &s, "/metrics");
    http_get(url, &r);
    ck_assert(metrics_value(r.body, "puzzled_jobs_rejected_total") >= 1);
    hresp_free(&r);
    json_t *j = get_json(&s, "/v1/nqueens/count?n=4", 200); /* room again */
    ck_assert_int_eq(json_integer_value(json_object_get(j, "count")), 2);
    json_decref(j);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 10000), 0);
}
END_TEST

/* A plain socket to the server from source address 127.0.0.`src` (the
 * whole 127/8 block is loopback, so a test can be many clients). */
static int raw_from(const tsrv_t *s, int src) {
    struct sockaddr_in a, me;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    memset(&me, 0, sizeof me);
    me.sin_family = AF_INET;
    me.sin_addr.s_addr = htonl(0x7f000000u | (unsigned)src);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&me, sizeof me), 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)s->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* Half-sent request heads are closed after --head-timeout-s (trickling a
 * byte now and then does not help), a normal request is answered meanwhile,
 * and one address cannot take more than --max-conn-per-ip connections. */
START_TEST(http_half_heads_closed_and_per_ip_cap) {
    static const char *const args[] = {"--head-timeout-s", "1", "--max-conn-per-ip", "20", NULL};
    enum { N = 60 };
    int fds[N];
    tsrv_t s;
    char url[256];
    hresp_t r;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    for (int i = 0; i < N; i++) {
        fds[i] = raw_from(&s, 2 + i % 6); /* 6 addresses, 10 each */
        ck_assert_int_gt(send(fds[i], "GET /healthz HTTP/1.1\r\nHo", 26, MSG_NOSIGNAL), 0);
    }
    url_of(url, sizeof url, &s, "/v1/nqueens/count?n=6");
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    hresp_free(&r);
    int open = N;
    for (int tick = 0; open > 0 && tick < 60; tick++) {
        test_sleep_ms(100);
        open = 0;
        for (int i = 0; i < N; i++) {
            char c;
            if (fds[i] < 0) continue;
            if (tick % 3 == 0 && i % 2 == 0) send(fds[i], "s", 1, MSG_NOSIGNAL); /* trickle */
            ssize_t k = recv(fds[i], &c, 1, MSG_DONTWAIT);
            if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
                close(fds[i]);
                fds[i] = -1;
            } else {
                open++;
            }
        }
    }
    gettimeofday(&t1, NULL);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_usec - t0.tv_usec) / 1e6;
    ck_assert_msg(open == 0, "%d half-sent heads still open after %.1f s", open, secs);
    ck_assert_msg(secs >= 0.9, "closed after %.2f s, before the 1 s head timeout", secs);
    ck_assert(wait_metric(&s, "puzzled_http_head_timeouts_total", N, 3000));
    /* the cap: 20 from one address, one more is refused.  Which one is the
     * server's choice: every HTTP thread accepts on its own socket, so the
     * order of accepts across threads need not be the order of connects. */
    int many[21], refused = 0;
    for (int i = 0; i < 21; i++)
        many[i] = raw_from(&s, 9);
    char c;
    test_sleep_ms(300);
    for (int i = 0; i < 21; i++)
        refused += recv(many[i], &c, 1, MSG_DONTWAIT) == 0; /* closed by the server */
    ck_assert_int_eq(refused, 1);                           /* the rest open, waiting */
    for (int i = 0; i < 21; i++)
        close(many[i]);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 10000), 0);
}
END_TEST

START_TEST(http_sigterm_drains_inflight) {
    tsrv_t s;
    bg_t job;
    char url[256];
    hresp_t r;
    CURL *keep = curl_easy_init();
    ck_assert_int_eq(tsrv_start(&s, NULL, NULL), 0);
    url_of(url, sizeof url, &s, "/readyz");
    http_do(keep, "GET", url, NULL, 0, NULL, &r); /* opens a keep-alive connection */
    ck_assert_int_eq(r.status, 200);
    hresp_free(&r);
    bg_start(&job, &s, "/v1/nqueens/count?n=21&timeout_ms=1500", 0);
    ck_assert(wait_metric(&s, "puzzled_jobs_inflight", 1, 3000));
    kill(s.pid, SIGTERM);
    for (int t = 0; t < 200 && !tsrv_log_has(&s, "\"msg\":\"draining\""); t++)
        test_sleep_ms(10);
    http_do(keep, "GET", url, NULL, 0, NULL, &r); /* same connection: not ready */
    assert_problem(&r, 503, NULL);
    hresp_free(&r);
    CURL *fresh = curl_easy_init(); /* a new connection is closed unanswered */
    http_do(fresh, "GET", url, NULL, 0, NULL, &r);
    ck_assert_int_ne(r.curl_rc, CURLE_OK);
    ck_assert_int_eq(r.status, 0);
    hresp_free(&r);
    curl_easy_cleanup(fresh);
    bg_join(&job); /* the in-flight answer is not lost */
    ck_assert_int_eq(job.resp.status, 200);
    ck_assert_ptr_nonnull(strstr(job.resp.body, "\"status\":\"timeout\""));
    hresp_free(&job.resp);
    ck_assert_int_eq(tsrv_stop(&s, 0, 10000), 0); /* signal 0: just wait for the exit */
    ck_assert(tsrv_log_has(&s, "\"msg\":\"stopped\""));
    curl_easy_cleanup(keep);
}
END_TEST

/* The server's margin past --grace-ms for cancelled answers to be written
 * (server/main.c's CANCEL_WAIT_MS), and what a loaded or sanitized run may
 * add to it before the process is gone. */
#define TEST_CANCEL_WAIT_MS 1000
#define TEST_EXIT_SLACK_MS  2500

/* Work that outlives the grace period by construction (a 27-queens count,
 * hours of work, with a ten-minute deadline) is cancelled when it ends,
 * answers "cancelled", and the server exits 0 right after. */
START_TEST(http_sigterm_grace_cancels_long_work) {
    static const char *const args[] = {"--grace-ms", "200", "--timeout-ms", "600000", NULL};
    tsrv_t s;
    bg_t job;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    bg_start(&job, &s, "/v1/nqueens/count?n=27&timeout_ms=600000", 0);
    ck_assert(wait_metric(&s, "puzzled_jobs_inflight", 1, 3000));
    double t0 = test_now_ms();
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 10000), 0);
    double took = test_now_ms() - t0;
    ck_assert_msg(took < 200 + TEST_CANCEL_WAIT_MS + TEST_EXIT_SLACK_MS, "exit %.0f ms after",
                  took);
    ck_assert(tsrv_log_has(&s, "\"msg\":\"grace period over: cancelling in-flight work\""));
    ck_assert(tsrv_log_has(&s, "\"msg\":\"stopped\""));
    bg_join(&job);
    ck_assert_int_eq(job.resp.status, 200); /* answered, as cancelled */
    ck_assert_ptr_nonnull(strstr(job.resp.body, "\"status\":\"cancelled\""));
    hresp_free(&job.resp);
}
END_TEST

/* A connection that holds no work -- here a body that never finishes
 * arriving, its client still connected -- does not turn a drain into an
 * abandoned exit: past the grace period and the cancel wait the server
 * closes it and exits 0 (the soak's cut-short bodies exited 1). */
START_TEST(http_sigterm_closes_idle_uploads) {
    static const char *const args[] = {"--grace-ms", "200", NULL};
    static const char head[] = "POST /v1/sudoku/solve HTTP/1.1\r\nHost: x\r\n"
                               "Content-Type: application/json\r\nContent-Length: 500\r\n\r\n"
                               "{\"grid\":";
    tsrv_t s;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    int fd = raw_from(&s, 1);
    ck_assert_int_eq(send(fd, head, sizeof head - 1, MSG_NOSIGNAL), (ssize_t)(sizeof head - 1));
    /* the upload, and the /metrics request that reads the gauge */
    ck_assert(wait_metric(&s, "puzzled_http_requests_active", 2, 3000));
    double t0 = test_now_ms();
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 10000), 0);
    double took = test_now_ms() - t0;
    ck_assert_msg(took < 200 + TEST_CANCEL_WAIT_MS + TEST_EXIT_SLACK_MS, "exit %.0f ms after",
                  took);
    ck_assert(tsrv_log_has(&s, "\"msg\":\"closing connections that hold no work\""));
    ck_assert(tsrv_log_has(&s, "\"msg\":\"stopped\""));
    close(fd);
}
END_TEST

/* The thread of `pid` that ran longest on a CPU during `ms` (a worker in a
 * search, while every other thread waits); 0 if none ran. */
static pid_t busiest_thread(pid_t pid, int ms) {
    enum { MAXT = 256 };
    pid_t tid[MAXT];
    long long before[MAXT];
    size_t n = 0;
    char path[64], line[1024];
    for (int pass = 0; pass < 2; pass++) {
        pid_t best = 0;
        long long best_ticks = 0;
        if (pass == 1) test_sleep_ms(ms);
        snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
        DIR *d = opendir(path);
        if (d == NULL) return 0;
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            pid_t t = (pid_t)atoi(e->d_name);
            unsigned long long ut = 0, st = 0;
            if (t <= 0) continue;
            snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)t);
            FILE *f = fopen(path, "r");
            char *rp = f && fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;
            if (f) fclose(f);
            /* after "pid (comm)": state, then fields 4..13, then utime stime */
            if (rp == NULL ||
                sscanf(rp + 2, "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &ut, &st) !=
                    2)
                continue;
            if (pass == 0 && n < MAXT) {
                tid[n] = t;
                before[n++] = (long long)(ut + st);
            }
            for (size_t k = 0; pass == 1 && k < n; k++)
                if (tid[k] == t && (long long)(ut + st) - before[k] > best_ticks) {
                    best_ticks = (long long)(ut + st) - before[k];
                    best = t;
                }
        }
        closedir(d);
        if (pass == 1) return best;
    }
    return 0;
}

/* A worker that never sees its cancel flag -- here the 27-queens count's
 * worker thread, stopped by ptrace, as a solver polling too rarely would
 * be -- must not keep the process alive: past --grace-ms and the wait for
 * cancelled answers the server logs why and _exits (it used to return from
 * main into libuv's shutdown, which joins busy workers: it never ended).
 * An answer written before the signal arrives whole. */
START_TEST(http_sigterm_exits_when_work_ignores_cancel) {
    static const char *const args[] = {"--threads",    "1",      "--grace-ms", "300",
                                       "--timeout-ms", "600000", NULL};
    static const char early[] =
        "GET /v1/nqueens/solutions?n=8&limit=92 HTTP/1.1\r\nHost: t\r\n\r\n";
    tsrv_t s;
    bg_t job;
    int status = -1;
    char *out = malloc(1 << 16);
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);

    /* answered and logged before the signal; left unread until the end */
    int fd = raw_from(&s, 1);
    ck_assert_int_eq(send(fd, early, strlen(early), MSG_NOSIGNAL), (ssize_t)strlen(early));
    for (int t = 0; t < 500 && !tsrv_log_has(&s, "\"path\":\"/v1/nqueens/solutions\""); t++)
        test_sleep_ms(10);
    ck_assert(tsrv_log_has(&s, "\"path\":\"/v1/nqueens/solutions\",\"status\":200"));

    bg_start(&job, &s, "/v1/nqueens/count?n=27&timeout_ms=600000", 0);
    ck_assert(wait_metric(&s, "puzzled_jobs_inflight", 1, 3000));
    pid_t worker = busiest_thread(s.pid, 300);
    ck_assert_int_gt(worker, 0);
    ck_assert_int_ne(worker, s.pid);
    ck_assert_msg(ptrace(PTRACE_SEIZE, worker, NULL, NULL) == 0, "ptrace: %s", strerror(errno));
    ck_assert_int_eq(ptrace(PTRACE_INTERRUPT, worker, NULL, NULL), 0);
    ck_assert_int_eq(waitpid(worker, &status, __WALL), worker); /* it is stopped */

    double t0 = test_now_ms(), took = 0, limit = 300 + TEST_CANCEL_WAIT_MS + TEST_EXIT_SLACK_MS;
    int gone = 0;
    kill(s.pid, SIGTERM);
    while (!gone) { /* reap the traced thread too: the process is not gone before it is */
        waitpid(worker, NULL, __WALL | WNOHANG);
        gone = waitpid(s.pid, &status, WNOHANG) == s.pid;
        took = test_now_ms() - t0;
        if (!gone && took > limit + 5000) kill(s.pid, SIGKILL); /* the old way: it never ends */
        test_sleep_ms(10);
    }
    s.pid = 0;
    ck_assert_msg(WIFEXITED(status), "still running %.0f ms after SIGTERM: killed", took);
    ck_assert_msg(took < 300 + TEST_CANCEL_WAIT_MS + TEST_EXIT_SLACK_MS, "gone %.0f ms after",
                  took);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 1);
    ck_assert(tsrv_log_has(&s, "\"msg\":\"exiting without stopping what still runs\""));
    ck_assert(tsrv_log_has(&s, "\"jobs_running\":1"));
    ck_assert(!tsrv_log_has(&s, "\"msg\":\"stopped\""));

    /* the early answer, read only now: whole */
    size_t got = 0;
    for (ssize_t r; got + 1 < (1 << 16) && (r = recv(fd, out + got, (1 << 16) - 1 - got, 0)) > 0;)
        got += (size_t)r;
    out[got] = '\0';
    close(fd);
    ck_assert_msg(strncmp(out, "HTTP/1.1 200 ", 13) == 0, "%.200s", out);
    const char *cl = strstr(out, "Content-Length: "), *body = strstr(out, "\r\n\r\n");
    ck_assert(cl != NULL && body != NULL);
    ck_assert_int_eq(strlen(body + 4), strtoul(cl + 16, NULL, 10));
    json_error_t err;
    json_t *j = json_loads(body + 4, 0, &err);
    ck_assert_msg(j != NULL, "%s", err.text);
    ck_assert_int_eq(json_array_size(json_object_get(j, "solutions")), 92);
    json_decref(j);
    bg_join(&job); /* its connection went with the process: no answer */
    ck_assert_int_eq(job.resp.status, 0);
    hresp_free(&job.resp);
    free(out);
}
END_TEST

/* === The binary's own interface === */

static int run_cmd(const char *cmd) {
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(http_cli_flags_and_healthcheck) {
    char cmd[512];
    const char *bin = getenv("PUZZLED_BIN") ? getenv("PUZZLED_BIN") : "./build/puzzled";
    snprintf(cmd, sizeof cmd, "%s --help > /tmp/puzzled-help.txt", bin);
    ck_assert_int_eq(run_cmd(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "for f in --bind --port --threads --max-body --max-queue --timeout-ms --cors-origin "
             "--grace-ms PUZZLED_PORT PUZZLED_THREADS; do grep -q -- $f /tmp/puzzled-help.txt || "
             "exit 1; done");
    ck_assert_int_eq(run_cmd(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s --port abc 2>/dev/null", bin);
    ck_assert_int_eq(run_cmd(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s --threads 0 2>/dev/null", bin);
    ck_assert_int_eq(run_cmd(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s --bind not-an-ip 2>/dev/null", bin);
    ck_assert_int_eq(run_cmd(cmd), 2);
    snprintf(cmd, sizeof cmd, "PUZZLED_TIMEOUT_MS=-5 %s 2>/dev/null", bin);
    ck_assert_int_eq(run_cmd(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s --healthcheck --port %u", bin, shared_srv.port);
    ck_assert_int_eq(run_cmd(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s --healthcheck --port 1", bin); /* nothing listens there */
    ck_assert_int_eq(run_cmd(cmd), 1);
}
END_TEST

START_TEST(http_env_configures_server) {
    static const char *const env[] = {"PUZZLED_THREADS=3", "PUZZLED_MAX_QUEUE=7", NULL};
    tsrv_t s;
    ck_assert_int_eq(tsrv_start(&s, NULL, env), 0);
    ck_assert(tsrv_log_has(&s, "\"threads\":3"));
    ck_assert(tsrv_log_has(&s, "\"max_queue\":7"));
    get_problem(&s, "/v1/nqueens/count?n=5&threads=4", 400, "threads");
    json_decref(get_json(&s, "/v1/nqueens/count?n=5&threads=3", 200));
    ck_assert_int_eq(tsrv_stop(&s, SIGINT, 10000), 0);
}
END_TEST

/* === Sudoku over HTTP === */

static hresp_t post(const tsrv_t *s, const char *path, const char *ctype, const char *accept,
                    const char *body) {
    char url[512], ct[96], ac[96];
    const char *headers[4] = {NULL, NULL, NULL, NULL};
    size_t k = 0;
    hresp_t r;
    CURL *c = curl_easy_init();
    url_of(url, sizeof url, s, path);
    if (ctype) {
        snprintf(ct, sizeof ct, "Content-Type: %s", ctype);
        headers[k++] = ct;
    }
    if (accept) {
        snprintf(ac, sizeof ac, "Accept: %s", accept);
        headers[k++] = ac;
    }
    http_do(c, "POST", url, body, strlen(body), headers, &r);
    curl_easy_cleanup(c);
    return r;
}

START_TEST(http_sudoku_solve_formats) {
    hresp_t r = post(&shared_srv, "/v1/sudoku/solve", "application/json", NULL,
                     "{\"grid\":\"8..........36......7..9.2...5...7.......457.....1...3...1....68.."
                     "85...1..9....4..\","
                     "\"max_solutions\":2}");
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(strstr(
        r.body,
        "\"solution\":"
        "\"812753649943682175675491283154237896369845721287169534521974368438526917796318452\""));
    ck_assert_ptr_nonnull(strstr(r.body, "\"unique\":true"));
    hresp_free(&r);
    r = post(&shared_srv, "/v1/sudoku/solve", "text/csv", "text/csv", "1,,,\n,,3,\n,,,\n,,,2\n");
    char ct[64];
    ck_assert_int_eq(r.status, 200);
    ck_assert(hresp_header(&r, "Content-Type", ct, sizeof ct));
    ck_assert_ptr_nonnull(strstr(ct, "text/csv"));
    ck_assert_int_eq(r.len, 32);
    hresp_free(&r);
    r = post(&shared_srv, "/v1/sudoku/solve", "text/plain", NULL, "4\n1 2 3 4\n0,0 4\n");
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(strstr(r.body, "\"solution\":[[4,"));
    hresp_free(&r);
}
END_TEST

START_TEST(http_sudoku_errors) {
    hresp_t r = post(&shared_srv, "/v1/sudoku/solve", "application/xml", NULL, "<x/>");
    assert_problem(&r, 415, "Content-Type");
    hresp_free(&r);
    r = post(&shared_srv, "/v1/sudoku/solve", "application/json", NULL,
             "{\"grid\":\"11..............\"}");
    assert_problem(&r, 422, "grid[0][1]");
    assert_problem(&r, 422, "grid[0][0]");
    hresp_free(&r);
    r = post(&shared_srv, "/v1/sudoku/solve", NULL, NULL,
             "{\"grid\": 5}"); /* curl's form default */
    assert_problem(&r, 400, "grid");
    hresp_free(&r);
    r = post(&shared_srv, "/v1/sudoku/solve", "application/x-www-form-urlencoded", NULL,
             "grid=123");
    assert_problem(&r, 415, "Content-Type");
    hresp_free(&r);
    r = post(&shared_srv, "/v1/sudoku/validate", "application/json", NULL,
             "{\"grid\":\"11..............\"}");
    ck_assert_int_eq(r.status, 200); /* validation reports conflicts, it does not refuse them */
    ck_assert_ptr_nonnull(strstr(r.body, "\"valid\":false"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"unit\":\"row 0\""));
    hresp_free(&r);
    get_problem(&shared_srv, "/v1/sudoku/solve", 405, NULL);
}
END_TEST

/* === Exact cover over HTTP (split across the real pool) === */

START_TEST(http_exact_cover_parallel) {
    const char *knuth =
        "{\"items\":[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\",\"G\"],"
        "\"options\":[[\"C\",\"E\",\"F\"],[\"A\",\"D\",\"G\"],[\"B\",\"C\",\"F\"],"
        "[\"A\",\"D\"],[\"B\",\"G\"],[\"D\",\"E\",\"G\"]],\"max_solutions\":5,\"threads\":2}";
    hresp_t r = post(&shared_srv, "/v1/exact-cover/solve", "application/json", NULL, knuth);
    ck_assert_msg(r.status == 200, "%s", r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "\"solutions\":[[0,3,4]]"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"complete\":true"));
    hresp_free(&r);
    r = post(&shared_srv, "/v1/exact-cover/solve", "application/json", NULL,
             "{\"items\":[\"A\"],\"options\":[[\"A\"],[\"B\"]]}");
    assert_problem(&r, 400, "options[1][0]");
    hresp_free(&r);
}
END_TEST

START_TEST(http_nqueens_exact_cover_methods) {
    const char *paths[] = {"/v1/nqueens/count?n=8&method=dlx&threads=2",
                           "/v1/nqueens/count?n=8&method=algorithm-x&threads=1",
                           "/v1/nqueens/count?n=8&method=bitboard"};
    for (size_t i = 0; i < 3; i++) {
        json_t *j = get_json(&shared_srv, paths[i], 200);
        ck_assert_int_eq(json_integer_value(json_object_get(j, "count")), 92);
        json_decref(j);
    }
    json_t *j = get_json(&shared_srv, "/v1/nqueens/solve?n=12&method=dlx", 200);
    ck_assert(json_is_true(json_object_get(j, "verified")));
    ck_assert_int_eq(json_array_size(json_object_get(j, "queens")), 12);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "stats"), "method")),
                     "dlx");
    json_decref(j);
    get_problem(&shared_srv, "/v1/nqueens/solve?n=40&method=dlx", 400, "n");
    get_problem(&shared_srv, "/v1/nqueens/count?n=8&method=magic", 400, "method");
}
END_TEST

START_TEST(http_killer_solve) {
    const char *text = "4\n1 2 3 4\n8\n3 0,0 0,1\n7 0,2 0,3\n7 1,0 2,0\n5 1,1 1,2\n"
                       "3 1,3 2,3\n5 2,1 2,2\n3 3,0 3,1\n7 3,2 3,3\n";
    hresp_t r = post(&shared_srv, "/v1/killer/solve?max_solutions=2", "text/plain", NULL, text);
    json_t *one, *two;
    ck_assert_msg(r.status == 200, "%s", r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "\"solution\":[["));
    one = json_loads(r.body, 0, NULL);
    hresp_free(&r);
    /* split over both workers (advanced named: auto runs a 4x4 by plain
     * backtracking, which never splits): the same answer, and stats say how */
    r = post(&shared_srv, "/v1/killer/solve?max_solutions=2&threads=2&method=advanced",
             "text/plain", NULL, text);
    ck_assert_msg(r.status == 200, "%s", r.body);
    two = json_loads(r.body, 0, NULL);
    ck_assert_ptr_nonnull(one);
    ck_assert_ptr_nonnull(two);
    ck_assert_str_eq(json_string_value(json_object_get(one, "status")),
                     json_string_value(json_object_get(two, "status")));
    ck_assert_int_eq(json_integer_value(json_object_get(one, "solutions_found")),
                     json_integer_value(json_object_get(two, "solutions_found")));
    ck_assert(json_equal(json_object_get(one, "unique"), json_object_get(two, "unique")));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(two, "stats"), "threads")),
                     2);
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(two, "stats"), "subproblems")), 16);
    json_decref(one);
    json_decref(two);
    hresp_free(&r);
    /* max_solutions 1 on two workers: both value orders race; the answer is
     * the one-thread answer, unsolvable included */
    r = post(&shared_srv, "/v1/killer/solve?threads=2&method=advanced", "text/plain", NULL, text);
    ck_assert_msg(r.status == 200, "%s", r.body);
    two = json_loads(r.body, 0, NULL);
    ck_assert_ptr_nonnull(two);
    ck_assert_str_eq(json_string_value(json_object_get(two, "status")), "solved");
    ck_assert_int_ge(
        json_integer_value(json_object_get(json_object_get(two, "stats"), "value_orders")), 1);
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(two, "stats"), "subproblems")), 2);
    json_decref(two);
    hresp_free(&r);
    r = post(&shared_srv, "/v1/killer/solve?threads=2&method=advanced", "text/plain", NULL,
             "4\n1 2 3 4\n2\n3 0,0 0,1\n3 0,2 0,3\n");
    ck_assert_msg(r.status == 200, "%s", r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "\"status\":\"unsolvable\""));
    ck_assert_ptr_nonnull(strstr(r.body, "\"unique\":false"));
    hresp_free(&r);
    r = post(&shared_srv, "/v1/killer/solve", "application/json", NULL,
             "{\"size\":4,\"cages\":[{\"sum\":2,\"cells\":[[0,0],[0,1]]}]}");
    assert_problem(&r, 422, "cages[0].sum");
    hresp_free(&r);
}
END_TEST

/* A board past the inline limit is streamed (chunked) and still one valid
 * JSON document holding a verified board. */
START_TEST(http_nqueens_streamed_board) {
    char url[256], te[64];
    hresp_t r;
    json_error_t err;
    int n = 150000;
    url_of(url, sizeof url, &shared_srv, "/v1/nqueens/solve?n=150000&method=minconflicts&seed=9");
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    ck_assert(hresp_header(&r, "Transfer-Encoding", te, sizeof te));
    ck_assert_str_eq(te, "chunked");
    json_t *j = json_loads(r.body, 0, &err);
    ck_assert_msg(j != NULL, "not JSON at %d: %s", err.position, err.text);
    json_t *q = json_object_get(j, "queens");
    ck_assert_int_eq(json_array_size(q), n);
    char *col = calloc((size_t)n, 1), *d1 = calloc(2 * (size_t)n, 1),
         *d2 = calloc(2 * (size_t)n, 1);
    for (int row = 0; row < n; row++) {
        int c = (int)json_integer_value(json_array_get(q, (size_t)row));
        ck_assert(c >= 0 && c < n && !col[c] && !d1[row + c] && !d2[row - c + n]);
        col[c] = d1[row + c] = d2[row - c + n] = 1;
    }
    free(col);
    free(d1);
    free(d2);
    json_decref(j);
    hresp_free(&r);
}
END_TEST

/* Every N-Queens board endpoint through the real server. */
START_TEST(http_nqueens_board_endpoints) {
    hresp_t r = post(&shared_srv, "/v1/nqueens/solve", "application/json", NULL,
                     "{\"n\":10,\"placed\":[[0,0]],\"method\":\"mrv\"}");
    ck_assert_msg(r.status == 200, "%s", r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "\"queens\":[0,"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"verified\":true"));
    hresp_free(&r);
    r = post(&shared_srv, "/v1/nqueens/solve", "application/json", NULL,
             "{\"n\":8,\"queens\":[0,1,null,null,null,null,null,null]}");
    assert_problem(&r, 422, "queens[1]");
    hresp_free(&r);
    r = post(&shared_srv, "/v1/nqueens/count", "application/json", NULL,
             "{\"n\":8,\"queens\":[0,null,null,null,null,null,null,null]}");
    ck_assert_ptr_nonnull(strstr(r.body, "\"count\":4"));
    hresp_free(&r);
    r = post(&shared_srv, "/v1/nqueens/analyze", "application/json", NULL,
             "{\"n\":3,\"placed\":[[0,1]]}");
    ck_assert_ptr_nonnull(strstr(r.body, "\"next_row\":1"));
    hresp_free(&r);
    json_t *j = get_json(&shared_srv, "/v1/nqueens/solutions?n=8&offset=90&limit=5", 200);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "returned")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "total")), 92);
    json_decref(j);
    j = get_json(&shared_srv, "/v1/nqueens/solve?n=300&method=minconflicts&trace=true&seed=4", 200);
    json_t *tr = json_object_get(j, "trace");
    ck_assert_int_eq(json_integer_value(json_array_get(tr, json_array_size(tr) - 1)), 0);
    json_decref(j);
}
END_TEST

/* Each HTTP thread listens on its own socket on the one port (SO_REUSEPORT,
 * so that the kernel spreads connections over them); a second server
 * started on that port must still fail, not quietly share it.  And a
 * server killed with connections open can be started again on its port at
 * once (the killed one's sockets linger: a restart must not wait them out,
 * as tests/deploy's SIGKILLed replica does not). */
START_TEST(http_port_in_use_is_refused) {
    tsrv_t a, b;
    char port[16], url[256], buf[512];
    hresp_t r;
    int held[4];
    ck_assert_int_eq(tsrv_start(&a, NULL, NULL), 0);
    snprintf(port, sizeof port, "%u", a.port);
    const char *const args[] = {"--port", port, NULL};
    ck_assert_int_eq(tsrv_start(&b, args, NULL), -1);
    ck_assert(tsrv_log_has(&b, "\"msg\":\"cannot listen\""));
    for (int i = 0; i < 8; i++) { /* every connection still reaches a */
        url_of(url, sizeof url, &a, "/healthz");
        ck_assert_int_eq(http_get(url, &r), CURLE_OK);
        ck_assert_int_eq(r.status, 200);
        hresp_free(&r);
    }
    for (int i = 0; i < 4; i++) { /* kept-alive connections, answered */
        static const char get[] = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n";
        held[i] = raw_from(&a, 1);
        ck_assert_int_eq(send(held[i], get, sizeof get - 1, MSG_NOSIGNAL),
                         (ssize_t)(sizeof get - 1));
        ck_assert_int_gt(recv(held[i], buf, sizeof buf, 0), 0);
    }
    tsrv_stop(&a, SIGKILL, 10000);
    ck_assert_int_eq(tsrv_start(&b, args, NULL), 0); /* at once, on the same port */
    ck_assert_uint_eq(b.port, a.port);
    for (int i = 0; i < 4; i++)
        close(held[i]);
    url_of(url, sizeof url, &b, "/healthz");
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    hresp_free(&r);
    ck_assert_int_eq(tsrv_stop(&b, SIGTERM, 10000), 0);
}
END_TEST

Suite *http_suite(void);
Suite *http_suite(void) {
    Suite *s = suite_create("http");
    TCase *shared = tcase_create("shared-server");
    TCase *own = tcase_create("own-server");
    tcase_add_unchecked_fixture(shared, shared_up, shared_down);
    tcase_set_timeout(shared, 60);
    tcase_set_timeout(own, 60);
    tcase_add_test(shared, http_health_and_ready);
    tcase_add_test(shared, http_count_known_values);
    tcase_add_test(shared, http_count_threads_and_symmetry_agree);
    tcase_add_test(shared, http_solve_first_solutions);
    tcase_add_test(shared, http_head_and_cache_headers);
    tcase_add_test(shared, http_bad_parameters_are_400);
    tcase_add_test(shared, http_every_bad_field_is_named);
    tcase_add_test(shared, http_unknown_path_is_404);
    tcase_add_test(shared, http_wrong_method_is_405_with_allow);
    tcase_add_test(shared, http_body_over_limit_is_413);
    tcase_add_test(shared, http_cors_on_every_answer_and_preflight);
    tcase_add_test(shared, http_request_id_echoed_or_minted);
    tcase_add_test(shared, http_keep_alive_reused);
    tcase_add_test(shared, http_metrics_exposed);
    tcase_add_test(shared, http_count_timeout_stops_everything);
    tcase_add_test(shared, http_small_request_not_held_behind_long_count);
    tcase_add_test(shared, http_client_hangup_cancels_work);
    tcase_add_test(shared, http_raw_framing);
    tcase_add_test(shared, http_head_refused);
    tcase_add_test(shared, http_cli_flags_and_healthcheck);
    tcase_add_test(shared, http_sudoku_solve_formats);
    tcase_add_test(shared, http_sudoku_errors);
    tcase_add_test(shared, http_exact_cover_parallel);
    tcase_add_test(shared, http_killer_solve);
    tcase_add_test(shared, http_nqueens_streamed_board);
    tcase_add_test(shared, http_nqueens_board_endpoints);
    tcase_add_test(shared, http_nqueens_exact_cover_methods);
    tcase_add_test(own, http_cors_origin_flag);
    tcase_add_test(own, http_full_queue_is_503);
    tcase_add_test(own, http_half_heads_closed_and_per_ip_cap);
    tcase_add_test(own, http_port_in_use_is_refused);
    tcase_add_test(own, http_sigterm_drains_inflight);
    tcase_add_test(own, http_sigterm_grace_cancels_long_work);
    tcase_add_test(own, http_sigterm_closes_idle_uploads);
    tcase_add_test(own, http_sigterm_exits_when_work_ignores_cancel);
    tcase_add_test(own, http_env_configures_server);
    suite_add_tcase(s, shared);
    suite_add_tcase(s, own);
    return s;
}
