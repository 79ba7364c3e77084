/* test_jobs.c -- asynchronous jobs on the real server, driven with libcurl:
 * the 202 hand-off, results equal to the synchronous answers, progress that
 * never goes backwards, the event stream, cancel, 404s, the store's limits
 * and expiry, batches, listing, and SIGTERM with jobs in flight.
 *
 * One suite, two stores: jobs_suite() runs every test against the embedded
 * store, jobs_redis_suite() the same tests against a one-replica cluster
 * (--redis, a redis-server started here), where counts are split jobs run
 * through Redis.  Where the two rightly differ (SIGTERM: a split job belongs
 * to the cluster, not to the replica that stops), the test says so.
 *
 * Like test_http.c, most tests share one server; those that need other
 * flags start their own.  Times are measured and printed where the issue
 * names one (cancel latency), with generous bounds so sanitizer builds and
 * a loaded machine pass. */
#include <check.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/http_client.h"
#include "tests/job_client.h"
#include "tests/redis_harness.h"
#include "tests/test_util.h"

static tsrv_t srv;
static int redis_mode; /* the suite runs against a Redis store */
static tredis_t redis; /* ... this one (started by the fixtures) */

/* Starts a server with `args`, and in Redis mode --redis with `prefix` (a
 * fresh one when NULL, so that no two servers share records). */
static int start_server(tsrv_t *s, const char *const *args, const char *prefix) {
    const char *all[40];
    char fresh[64];
    size_t n = 0;
    for (size_t i = 0; args != NULL && args[i] != NULL && n < 32; i++)
        all[n++] = args[i];
    if (redis_mode) {
        if (prefix == NULL) {
            tredis_prefix(fresh, sizeof fresh);
            prefix = fresh;
        }
        all[n++] = "--redis";
        all[n++] = redis.url;
        all[n++] = "--redis-prefix";
        all[n++] = prefix;
    }
    all[n] = NULL;
    return tsrv_start(s, all, NULL);
}

/* Fixtures run in the runner's process before a test case forks its
 * tests, so the mode they set is the tests' own. */
static void redis_up(void) {
    if (redis_mode) ck_assert_int_eq(tredis_start(&redis, NULL), 0);
}

static void redis_down(void) {
    if (redis_mode) tredis_destroy(&redis);
}

static void jobs_up(void) {
    static const char *const args[] = {"--threads", "2", NULL};
    redis_up();
    ck_assert_int_eq(start_server(&srv, args, NULL), 0);
}

static void jobs_down(void) {
    tsrv_stop(&srv, SIGTERM, 20000);
    redis_down();
}

static void mem_mode(void) { redis_mode = 0; }
static void redis_mode_on(void) { redis_mode = 1; }

static const char *jstr(json_t *o, const char *k) {
    return json_string_value(json_object_get(o, k));
}

/* Starts a job; returns its id (static buffer per call site is the caller's). */
static void start_job(const tsrv_t *s, const char *method, const char *path, const char *body,
                      char id[32]) {
    long st;
    hresp_t r;
    char loc[128], pref[64];
    json_t *j = tsrv_call(s, method, path, body, 1, &st, &r);
    ck_assert_msg(st == 202, "%s: %ld %s", path, st, r.body);
    ck_assert(hresp_header(&r, "Location", loc, sizeof loc));
    ck_assert(hresp_header(&r, "Preference-Applied", pref, sizeof pref));
    ck_assert_str_eq(pref, "respond-async");
    ck_assert_str_eq(jstr(j, "status"), "queued");
    snprintf(id, 32, "%s", jstr(j, "id"));
    ck_assert_int_eq((int)strlen(id), 22); /* 128 random bits, base64url */
    char want[128];
    snprintf(want, sizeof want, "/v1/jobs/%s", id);
    ck_assert_str_eq(loc, want);
    ck_assert_str_eq(jstr(json_object_get(j, "links"), "self"), want);
    json_decref(j);
    hresp_free(&r);
}

/* Polls until the job has ended; returns it. */
static json_t *wait_job(const tsrv_t *s, const char *id, int ms) {
    for (double t0 = test_now_ms(); test_now_ms() - t0 < ms;) {
        long st;
        json_t *j = tsrv_job(s, id, &st);
        ck_assert_int_eq(st, 200);
        if (job_status_ended(jstr(j, "status"))) return j;
        json_decref(j);
        test_sleep_ms(20);
    }
    ck_abort_msg("job %s did not end within %d ms", id, ms);
    return NULL;
}

/* === Tests === */

START_TEST(jobs_count_same_as_sync) {
    long st;
    char id[32];
    json_t *sync = tsrv_call(&srv, "GET", "/v1/nqueens/count?n=15&threads=2", NULL, 0, &st, NULL);
    ck_assert_int_eq(st, 200);
    start_job(&srv, "GET", "/v1/nqueens/count?n=15&threads=2", NULL, id);
    json_t *job = wait_job(&srv, id, 60000);
    ck_assert_str_eq(jstr(job, "status"), "done");
    ck_assert_int_eq(json_integer_value(json_object_get(job, "result_status")), 200);
    json_t *res = json_object_get(job, "result");
    ck_assert_int_eq(json_integer_value(json_object_get(res, "count")), 2279184);
    ck_assert_int_eq(json_integer_value(json_object_get(sync, "count")), 2279184);
    /* the same statistics, timing aside */
    json_t *a = json_object_get(sync, "stats"), *b = json_object_get(res, "stats");
    json_object_del(a, "elapsed_ms");
    json_object_del(b, "elapsed_ms");
    ck_assert_msg(json_equal(a, b), "stats differ");
    ck_assert_ptr_nonnull(jstr(job, "started"));
    ck_assert_ptr_nonnull(jstr(job, "finished"));
    json_t *req = json_object_get(job, "request");
    ck_assert_str_eq(jstr(req, "method"), "GET");
    ck_assert_str_eq(jstr(req, "path"), "/v1/nqueens/count");
    json_decref(sync);
    json_decref(job);
}
END_TEST

START_TEST(jobs_progress_never_backwards) {
    char id[32];
    double last_fraction = -1, last_nodes = -1;
    long last_done = -1, polls = 0;
    start_job(&srv, "GET", "/v1/nqueens/count?n=15", NULL, id);
    for (;;) {
        long st;
        json_t *j = tsrv_job(&srv, id, &st);
        json_t *p = json_object_get(j, "progress");
        ck_assert_int_eq(st, 200);
        ck_assert_ptr_nonnull(p);
        double nodes = (double)json_integer_value(json_object_get(p, "nodes"));
        ck_assert(nodes >= last_nodes);
        last_nodes = nodes;
        if (json_object_get(p, "done") != NULL) {
            long done = (long)json_integer_value(json_object_get(p, "done"));
            double f = json_real_value(json_object_get(p, "fraction"));
            ck_assert_str_eq(jstr(p, "unit"), "subproblems");
            ck_assert(done >= last_done && f >= last_fraction && f <= 1.0);
            last_done = done;
            last_fraction = f;
        }
        polls++;
        if (job_status_ended(jstr(j, "status"))) {
            ck_assert_str_eq(jstr(j, "status"), "done");
            ck_assert_int_eq(json_integer_value(json_object_get(p, "done")),
                             json_integer_value(json_object_get(p, "total")));
            ck_assert_int_eq(
                json_integer_value(json_object_get(json_object_get(j, "result"), "count")),
                2279184);
            json_decref(j);
            break;
        }
        json_decref(j);
        test_sleep_ms(10);
    }
    ck_assert_int_gt(polls, 1);
}
END_TEST

START_TEST(jobs_events_progress_then_done) {
    char id[32], path[96];
    hresp_t r;
    long st;
    start_job(&srv, "GET", "/v1/nqueens/count?n=15", NULL, id);
    snprintf(path, sizeof path, "/v1/jobs/%s/events", id);
    json_decref(tsrv_call(&srv, "GET", path, NULL, 0, &st, &r)); /* returns when the stream ends */
    ck_assert_int_eq(st, 200);
    char ct[64], cc[64], xab[16];
    ck_assert(hresp_header(&r, "Content-Type", ct, sizeof ct));
    ck_assert_str_eq(ct, "text/event-stream");
    ck_assert(hresp_header(&r, "Cache-Control", cc, sizeof cc));
    ck_assert_str_eq(cc, "no-cache");
    ck_assert(hresp_header(&r, "X-Accel-Buffering", xab, sizeof xab));
    ck_assert_str_eq(xab, "no");
    /* event: progress ... then exactly one event: done, last */
    int progress = 0, done = 0;
    const char *p = r.body, *last_done = NULL;
    while ((p = strstr(p, "event: ")) != NULL) {
        if (strncmp(p, "event: progress\n", 16) == 0) {
            ck_assert_int_eq(done, 0);
            progress++;
        } else if (strncmp(p, "event: done\n", 12) == 0) {
            done++;
            last_done = p;
        }
        p += 7;
    }
    ck_assert_int_ge(progress, 1);
    ck_assert_int_eq(done, 1);
    const char *data = strstr(last_done, "data: ");
    ck_assert_ptr_nonnull(data);
    json_t *j = json_loadb(data + 6, strcspn(data + 6, "\n"), 0, NULL);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(jstr(j, "status"), "done");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "result"), "count")),
                     2279184);
    json_decref(j);
    hresp_free(&r);
    /* on an ended job the stream is one done event */
    json_decref(tsrv_call(&srv, "GET", path, NULL, 0, &st, &r));
    ck_assert_int_eq(st, 200);
    ck_assert_ptr_nonnull(strstr(r.body, "event: done\n"));
    ck_assert_ptr_null(strstr(r.body, "event: progress"));
    hresp_free(&r);
}
END_TEST

START_TEST(jobs_delete_stops_the_work) {
    char id[32], path[96];
    long st;
    /* n = 27: hours of work, so the DELETE finds it running on any machine
     * (n = 20 ended first once on a loaded one: "complete", not cancelled) */
    start_job(&srv, "GET", "/v1/nqueens/count?n=27", NULL, id);
    for (int i = 0; i < 500; i++) { /* until its searches run */
        json_t *j = tsrv_job(&srv, id, &st);
        int busy = json_integer_value(json_object_get(json_object_get(j, "progress"), "nodes")) > 0;
        json_decref(j);
        if (busy) break;
        test_sleep_ms(20);
    }
    snprintf(path, sizeof path, "/v1/jobs/%s", id);
    double t0 = test_now_ms();
    json_t *j = tsrv_call(&srv, "DELETE", path, NULL, 0, &st, NULL);
    ck_assert_int_eq(st, 202);
    json_decref(j);
    while (tsrv_metric(&srv, "puzzled_jobs_inflight") != 0 && test_now_ms() - t0 < 5000)
        test_sleep_ms(2);
    double ms = test_now_ms() - t0;
    fprintf(stderr, "jobs: DELETE to in-flight 0 in %.1f ms (n=27 count)\n", ms);
    ck_assert_msg(ms < 2000, "the count still ran %.0f ms after DELETE", ms);
    j = wait_job(&srv, id, 5000);
    ck_assert_str_eq(jstr(j, "status"), "cancelled");
    ck_assert_str_eq(jstr(json_object_get(j, "result"), "status"), "cancelled");
    json_decref(j);
    /* an ended job: DELETE removes its record */
    json_decref(tsrv_call(&srv, "DELETE", path, NULL, 0, &st, NULL));
    ck_assert_int_eq(st, 204);
    json_decref(tsrv_job(&srv, id, &st));
    ck_assert_int_eq(st, 404);
}
END_TEST

START_TEST(jobs_unknown_ids_are_404) {
    static const char *const paths[] = {"/v1/jobs/AAAAAAAAAAAAAAAAAAAAAA", "/v1/jobs/short",
                                        "/v1/jobs/AAAAAAAAAAAAAAAAAAAAAA/events",
                                        "/v1/jobs/AAAAAAAAAAAAAAAAAAAAAA/result",
                                        "/v1/jobs/AAAAAAAAAAAA%2FAAAAAAAAA"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        long st;
        hresp_t r;
        json_t *j = tsrv_call(&srv, "GET", paths[i], NULL, 0, &st, &r);
        ck_assert_msg(st == 404, "%s: %ld", paths[i], st);
        char ct[64];
        ck_assert(hresp_header(&r, "Content-Type", ct, sizeof ct));
        ck_assert_str_eq(ct, "application/problem+json");
        json_decref(j);
        hresp_free(&r);
    }
    long st;
    json_decref(tsrv_call(&srv, "DELETE", "/v1/jobs/AAAAAAAAAAAAAAAAAAAAAA", NULL, 0, &st, NULL));
    ck_assert_int_eq(st, 404);
    json_decref(tsrv_call(&srv, "POST", "/v1/jobs/AAAAAAAAAAAAAAAAAAAAAA", "{}", 0, &st, NULL));
    ck_assert_int_eq(st, 405);
}
END_TEST

START_TEST(jobs_bad_request_is_refused_at_once) {
    long st;
    json_t *j = tsrv_call(&srv, "GET", "/v1/nqueens/count?n=99", NULL, 1, &st, NULL);
    ck_assert_int_eq(st, 400);
    ck_assert_str_eq(jstr(j, "type"), "/problems/invalid-request");
    json_decref(j);
    j = tsrv_call(&srv, "POST", "/v1/sudoku/solve", "{\"grid\":\"11..............\"}", 1, &st,
                  NULL);
    ck_assert_int_eq(st, 422);
    json_decref(j);
    /* no search needed: answered at once whatever the preference */
    j = tsrv_call(&srv, "POST", "/v1/sudoku/validate", "{\"grid\":\"1...............\"}", 1, &st,
                  NULL);
    ck_assert_int_eq(st, 200);
    json_decref(j);
}
END_TEST

START_TEST(jobs_every_solving_endpoint) {
    static const struct {
        const char *method, *path, *body, *want;
    } cases[] = {
        {"GET", "/v1/nqueens/solve?n=8", NULL, "\"verified\":true"},
        {"POST", "/v1/nqueens/solve", "{\"n\":8,\"placed\":[[0,4]]}", "\"verified\":true"},
        {"POST", "/v1/nqueens/count", "{\"n\":8,\"queens\":[0,null,null,null,null,null,null,null]}",
         "\"count\":4"},
        {"GET", "/v1/nqueens/solutions?n=6", NULL, "\"returned\":4"},
        {"POST", "/v1/sudoku/solve",
         "{\"grid\":\"8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9..."
         "."
         "4..\"}",
         "812753649943682175675491283154237896369845721287169534521974368438526917796318452"},
        {"POST", "/v1/killer/solve",
         "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]},{\"sum\":7,\"cells\":[[0,2],"
         "[0,3]]},{\"sum\":7,\"cells\":[[1,0],[2,0]]},{\"sum\":5,\"cells\":[[1,1],[1,2]]},{\"sum\":"
         "3,"
         "\"cells\":[[1,3],[2,3]]},{\"sum\":5,\"cells\":[[2,1],[2,2]]},{\"sum\":3,\"cells\":[[3,0],"
         "[3,1]]},{\"sum\":7,\"cells\":[[3,2],[3,3]]}]}",
         "\"status\":\""},
        {"POST", "/v1/exact-cover/solve",
         "{\"items\":[\"A\",\"B\"],\"options\":[[\"A\"],[\"B\"],[\"A\",\"B\"]],\"max_solutions\":"
         "5}",
         "\"solutions_found\":2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char id[32];
        start_job(&srv, cases[i].method, cases[i].path, cases[i].body, id);
        json_t *j = wait_job(&srv, id, 60000);
        ck_assert_str_eq(jstr(j, "status"), "done");
        char *res = json_dumps(json_object_get(j, "result"), JSON_COMPACT);
        ck_assert_msg(strstr(res, cases[i].want) != NULL, "%s: %s", cases[i].path, res);
        free(res);
        json_decref(j);
    }
}
END_TEST

START_TEST(jobs_batch) {
    static const char *const body =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\n"
        "# a comment\n"
        "..\n"
        ".................................................................................\n";
    const char *hdrs[] = {"Content-Type: text/plain", NULL};
    const char *ahdrs[] = {"Content-Type: text/plain", "Prefer: respond-async", NULL};
    char url[256];
    hresp_t sync, r;
    CURL *c = curl_easy_init();
    snprintf(url, sizeof url, "%s/v1/sudoku/batch?max_solutions=2", srv.base);
    ck_assert_int_eq(http_do(c, "POST", url, body, strlen(body), hdrs, &sync), CURLE_OK);
    ck_assert_int_eq(sync.status, 200);
    ck_assert_int_eq(http_do(c, "POST", url, body, strlen(body), ahdrs, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 202);
    json_t *j = json_loads(r.body, 0, NULL);
    char id[32], path[160];
    snprintf(id, sizeof id, "%s", jstr(j, "id"));
    json_decref(j);
    hresp_free(&r);
    j = wait_job(&srv, id, 60000);
    ck_assert_str_eq(jstr(j, "status"), "done");
    ck_assert_str_eq(jstr(j, "result"), sync.body); /* a text answer: a JSON string */
    /* cluster mode splits a batch: its chunks ran as items, merged in order */
    ck_assert_int_eq(json_object_get(j, "cluster") != NULL, redis_mode);
    json_decref(j);
    /* and the raw answer, as the synchronous call gave it */
    snprintf(path, sizeof path, "%s/v1/jobs/%s/result", srv.base, id);
    ck_assert_int_eq(http_do(c, "GET", path, NULL, 0, NULL, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, sync.body);
    char ct[64];
    ck_assert(hresp_header(&r, "Content-Type", ct, sizeof ct));
    ck_assert_ptr_nonnull(strstr(ct, "text/plain"));
    hresp_free(&r);
    hresp_free(&sync);
    curl_easy_cleanup(c);
}
END_TEST

/* Starts a job in the list of job-list token `tok` ("" = a new list, whose
 * token is written back into tok). */
static void start_listed(const char *path, char tok[80], char id[32]) {
    char hdr[128];
    long st;
    snprintf(hdr, sizeof hdr, "Job-List-Token: %s", tok);
    json_t *j = tsrv_call_hdr(&srv, "GET", path, NULL, 1, tok[0] ? hdr : NULL, &st, NULL);
    ck_assert_int_eq(st, 202);
    snprintf(id, 32, "%s", jstr(j, "id"));
    if (tok[0] == '\0') snprintf(tok, 80, "%s", jstr(j, "list_token"));
    ck_assert_str_eq(jstr(j, "list_token"), tok);
    json_decref(j);
    /* a job's readers do not learn its list's token */
    j = tsrv_job(&srv, id, &st);
    ck_assert_ptr_null(json_object_get(j, "list_token"));
    json_decref(j);
}

START_TEST(jobs_list_pages_newest_first) {
    char a[32], b[32], other[32], tok[80] = "", tok2[80] = "", hdr[128];
    long st;
    start_listed("/v1/nqueens/count?n=6", tok, a);
    ck_assert_int_eq((int)strlen(tok), 22);             /* 128 random bits, as ids */
    start_listed("/v1/nqueens/count?n=5", tok2, other); /* a second client: a list of its own */
    start_listed("/v1/nqueens/count?n=7", tok, b);
    ck_assert_str_ne(tok, tok2);
    snprintf(hdr, sizeof hdr, "Job-List-Token: %s", tok);
    json_t *page = tsrv_call_hdr(&srv, "GET", "/v1/jobs?limit=1", NULL, 0, hdr, &st, NULL);
    ck_assert_int_eq(st, 200);
    json_t *jobs = json_object_get(page, "jobs");
    ck_assert_int_eq((int)json_array_size(jobs), 1);
    ck_assert_str_eq(jstr(json_array_get(jobs, 0), "id"), b);
    ck_assert_ptr_null(json_object_get(json_array_get(jobs, 0), "result"));
    char next[160];
    snprintf(next, sizeof next, "/v1/jobs?limit=1&cursor=%s", jstr(page, "next_cursor"));
    json_decref(page);
    page = tsrv_call_hdr(&srv, "GET", next, NULL, 0, hdr, &st, NULL);
    ck_assert_int_eq(st, 200);
    json_t *jobs2 = json_object_get(page, "jobs");
    ck_assert_int_eq((int)json_array_size(jobs2), 1); /* the other list's job is not here */
    ck_assert_str_eq(jstr(json_array_get(jobs2, 0), "id"), a);
    ck_assert_ptr_null(json_object_get(page, "next_cursor"));
    json_decref(page);
    snprintf(hdr, sizeof hdr, "Job-List-Token: %s", tok2);
    page = tsrv_call_hdr(&srv, "GET", "/v1/jobs", NULL, 0, hdr, &st, NULL);
    ck_assert_int_eq((int)json_array_size(json_object_get(page, "jobs")), 1);
    ck_assert_str_eq(jstr(json_array_get(json_object_get(page, "jobs"), 0), "id"), other);
    json_decref(page);
    /* no token, or not a token: no list (job ids are capabilities) */
    json_decref(tsrv_call(&srv, "GET", "/v1/jobs", NULL, 0, &st, NULL));
    ck_assert_int_eq(st, 400);
    json_decref(
        tsrv_call_hdr(&srv, "GET", "/v1/jobs", NULL, 0, "Job-List-Token: short", &st, NULL));
    ck_assert_int_eq(st, 400);
    json_decref(tsrv_call_hdr(&srv, "GET", "/v1/nqueens/count?n=5", NULL, 1,
                              "Job-List-Token: not/a/token/at/all/000000", &st, NULL));
    ck_assert_int_eq(st, 400);
    snprintf(hdr, sizeof hdr, "Job-List-Token: %s", tok);
    json_decref(tsrv_call_hdr(&srv, "GET", "/v1/jobs?cursor=x", NULL, 0, hdr, &st, NULL));
    ck_assert_int_eq(st, 400);
    json_decref(tsrv_call_hdr(&srv, "GET", "/v1/jobs?limit=1000", NULL, 0, hdr, &st, NULL));
    ck_assert_int_eq(st, 400);
}
END_TEST

/* === Own servers === */

START_TEST(jobs_store_limit_evicts_or_503) {
    static const char *const args[] = {"--threads", "1", "--max-jobs", "2", NULL};
    tsrv_t s;
    char a[32], b[32], c[32], path[96];
    long st;
    hresp_t r;
    ck_assert_int_eq(start_server(&s, args, NULL), 0);
    start_job(&s, "GET", "/v1/nqueens/count?n=20", NULL, a); /* runs */
    start_job(&s, "GET", "/v1/nqueens/count?n=20", NULL, b); /* queued: one worker */
    json_t *j = tsrv_job(&s, b, &st);
    ck_assert_str_eq(jstr(j, "status"), "queued");
    json_decref(j);
    j = tsrv_call(&s, "GET", "/v1/nqueens/count?n=20", NULL, 1, &st, &r);
    ck_assert_int_eq(st, 503); /* full, and nothing has ended */
    char ra[16];
    ck_assert(hresp_header(&r, "Retry-After", ra, sizeof ra));
    json_decref(j);
    hresp_free(&r);
    snprintf(path, sizeof path, "/v1/jobs/%s", b);
    json_decref(tsrv_call(&s, "DELETE", path, NULL, 0, &st, NULL)); /* queued: ends at once */
    ck_assert_int_eq(st, 202);
    j = tsrv_job(&s, b, &st);
    ck_assert_str_eq(jstr(j, "status"), "cancelled");
    ck_assert_ptr_null(jstr(j, "started"));
    json_decref(j);
    start_job(&s, "GET", "/v1/nqueens/count?n=5", NULL, c); /* evicts b, the oldest ended */
    json_decref(tsrv_job(&s, b, &st));
    ck_assert_int_eq(st, 404);
    snprintf(path, sizeof path, "/v1/jobs/%s", a);
    json_decref(tsrv_call(&s, "DELETE", path, NULL, 0, &st, NULL));
    ck_assert_int_eq(st, 202);
    j = wait_job(&s, c, 30000); /* starts once a has gone */
    ck_assert_str_eq(jstr(j, "status"), "done");
    json_decref(j);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 20000), 0);
}
END_TEST

START_TEST(jobs_expire_after_ttl) {
    static const char *const args[] = {"--job-ttl-s", "1", NULL};
    tsrv_t s;
    char id[32];
    long st;
    ck_assert_int_eq(start_server(&s, args, NULL), 0);
    start_job(&s, "GET", "/v1/nqueens/count?n=6", NULL, id);
    json_decref(wait_job(&s, id, 30000));
    double t0 = test_now_ms();
    for (;;) {
        json_decref(tsrv_job(&s, id, &st));
        if (st == 404) break;
        ck_assert_int_eq(st, 200);
        ck_assert_msg(test_now_ms() - t0 < 10000, "the record outlived its TTL");
        test_sleep_ms(100);
    }
    ck_assert_double_ge(test_now_ms() - t0, 0);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 20000), 0);
}
END_TEST

START_TEST(jobs_job_timeout_and_result_limit) {
    static const char *const args[] = {"--job-timeout-ms", "300", "--max-job-result", "1024", NULL};
    tsrv_t s;
    char id[32];
    ck_assert_int_eq(start_server(&s, args, NULL), 0);
    /* the deadline caps a job (the synchronous --timeout-ms does not apply) */
    start_job(&s, "GET", "/v1/nqueens/count?n=20", NULL, id);
    json_t *j = wait_job(&s, id, 30000);
    ck_assert_str_eq(jstr(j, "status"), "timeout");
    ck_assert_str_eq(jstr(json_object_get(j, "result"), "status"), "timeout");
    json_decref(j);
    /* an answer over --max-job-result fails the job, saying why */
    start_job(&s, "GET", "/v1/nqueens/solutions?n=8&limit=92", NULL, id);
    j = wait_job(&s, id, 30000);
    ck_assert_str_eq(jstr(j, "status"), "failed");
    ck_assert_int_eq(json_integer_value(json_object_get(j, "result_status")), 413);
    ck_assert_ptr_nonnull(strstr(jstr(json_object_get(j, "result"), "detail"), "--max-job-result"));
    json_decref(j);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 20000), 0);
}
END_TEST

START_TEST(jobs_sigterm_ends_every_job) {
    static const char *const args[] = {"--threads", "1", "--grace-ms", "300", NULL};
    tsrv_t s;
    char a[32], b[32], line[160], prefix[64];
    tredis_prefix(prefix, sizeof prefix);
    ck_assert_int_eq(start_server(&s, args, prefix), 0);
    start_job(&s, "GET", "/v1/nqueens/count?n=20", NULL, a); /* running */
    start_job(&s, "GET", "/v1/nqueens/count?n=20", NULL, b); /* queued */
    test_sleep_ms(200);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 20000), 0);
    if (!redis_mode) { /* one server: every job ends before it exits */
        snprintf(line, sizeof line, "\"job\":\"%s\",\"status\":\"cancelled\"", a);
        ck_assert_msg(tsrv_log_has(&s, line), "no end for the running job in %s", s.log_path);
        snprintf(line, sizeof line, "\"job\":\"%s\",\"status\":\"cancelled\"", b);
        ck_assert_msg(tsrv_log_has(&s, line), "no end for the queued job in %s", s.log_path);
        return;
    }
    /* Cluster mode: split jobs are the cluster's.  The stopping replica gave
     * its items back (none stays pending under it) and the jobs go on with
     * the next replica, which can also cancel them. */
    snprintf(line, sizeof line, "\"job\":\"%s\"", a);
    ck_assert_msg(!tsrv_log_has(&s, line), "the split job ended with its replica");
    ck_assert_int_eq(tredis_int(&redis, "XPENDING %sjob:%s:items w", prefix, a), 0);
    ck_assert_int_eq(start_server(&s, args, prefix), 0);
    long st;
    json_t *j = tsrv_job(&s, a, &st);
    ck_assert_int_eq(st, 200);
    ck_assert_str_eq(jstr(j, "status"), "running");
    json_decref(j);
    j = tsrv_job(&s, b, &st);
    ck_assert_str_eq(jstr(j, "status"), "queued");
    json_decref(j);
    double t0 = test_now_ms();
    while (tsrv_metric(&s, "puzzled_jobs_inflight") < 1) { /* the new replica takes a's items */
        ck_assert_msg(test_now_ms() - t0 < 10000, "no replica took the job's items");
        test_sleep_ms(20);
    }
    const char *ids[] = {a, b};
    for (int i = 0; i < 2; i++) {
        char path[96];
        snprintf(path, sizeof path, "/v1/jobs/%s", ids[i]);
        json_decref(tsrv_call(&s, "DELETE", path, NULL, 0, &st, NULL));
        ck_assert_int_eq(st, 202);
        j = wait_job(&s, ids[i], 10000);
        ck_assert_str_eq(jstr(j, "status"), "cancelled");
        json_decref(j);
    }
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 20000), 0);
}
END_TEST

static Suite *jobs_make_suite(const char *name, void (*mode)(void)) {
    Suite *s = suite_create(name);
    TCase *shared = tcase_create("shared-server");
    tcase_add_unchecked_fixture(shared, mode, NULL); /* first: the others read it */
    tcase_add_unchecked_fixture(shared, jobs_up, jobs_down);
    tcase_add_test(shared, jobs_count_same_as_sync);
    tcase_add_test(shared, jobs_progress_never_backwards);
    tcase_add_test(shared, jobs_events_progress_then_done);
    tcase_add_test(shared, jobs_delete_stops_the_work);
    tcase_add_test(shared, jobs_unknown_ids_are_404);
    tcase_add_test(shared, jobs_bad_request_is_refused_at_once);
    tcase_add_test(shared, jobs_every_solving_endpoint);
    tcase_add_test(shared, jobs_batch);
    tcase_add_test(shared, jobs_list_pages_newest_first);
    tcase_set_timeout(shared, 120);
    suite_add_tcase(s, shared);
    TCase *own = tcase_create("own-server");
    tcase_add_unchecked_fixture(own, mode, NULL);
    tcase_add_unchecked_fixture(own, redis_up, redis_down);
    tcase_add_test(own, jobs_store_limit_evicts_or_503);
    tcase_add_test(own, jobs_expire_after_ttl);
    tcase_add_test(own, jobs_job_timeout_and_result_limit);
    tcase_add_test(own, jobs_sigterm_ends_every_job);
    tcase_set_timeout(own, 120);
    suite_add_tcase(s, own);
    return s;
}

Suite *jobs_suite(void);
Suite *jobs_suite(void) { return jobs_make_suite("jobs", mem_mode); }

/* The same tests against the Redis store; empty (and saying so) when no
 * redis-server can be run here. */
Suite *jobs_redis_suite(void);
Suite *jobs_redis_suite(void) {
    if (!tredis_available()) {
        fprintf(stderr, "jobs-redis: not run (no redis-server; make deps installs it)\n");
        return suite_create("jobs-redis");
    }
    return jobs_make_suite("jobs-redis", redis_mode_on);
}
