/* test_fair.c -- a server that strangers share: reserved workers for the
 * requests that wait, deadlines and hang-ups enforced while a request waits
 * for a worker, and the global memory budgets (request bodies, search
 * memory per request, kept job results), each on a real server.
 *
 * Long work is long by construction, never by the machine's speed: a
 * worker is kept busy by GET /v1/nqueens/solutions?n=30&offset=10^12,
 * which must enumerate a trillion solutions before it can answer (hours
 * on any machine) and so runs to its deadline; the tests end it by hanging
 * up.  Bounds on answer times are generous (seconds), so that sanitizer
 * builds on a loaded machine pass: they catch a request that starves, not
 * a slow one.  Latency figures belong to `make bench` (bench_http). */
#include <arpa/inet.h>
#include <check.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api/request.h"
#include "server/budget.h"
#include "server/config.h"
#include "server/metrics.h"
#include "server/pool.h"
#include "tests/http_client.h"
#include "tests/job_client.h"
#include "tests/test_util.h"

/* A worker busy to its deadline: a trillion solutions to skip first. */
#define LONG_PATH "/v1/nqueens/solutions?n=30&offset=1000000000000&limit=1&timeout_ms=30000"

/* Opens a connection and sends a request on it without reading the
 * answer; returns the socket (the caller closes it: a hang-up). */
static int raw_send(const tsrv_t *s, const char *method, const char *path, const char *body) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port)};
    char head[512];
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    size_t blen = body ? strlen(body) : 0;
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, blen);
    ck_assert_int_eq(send(fd, head, (size_t)n, MSG_NOSIGNAL), n);
    if (blen > 0) ck_assert_int_eq(send(fd, body, blen, MSG_NOSIGNAL), (ssize_t)blen);
    return fd;
}

/* Waits (up to ms) until `series` reads at least `want`; returns its value. */
static double await_metric(const tsrv_t *s, const char *series, double want, int ms) {
    double v = -1;
    for (double t0 = test_now_ms(); test_now_ms() - t0 < ms; test_sleep_ms(20))
        if ((v = tsrv_metric(s, series)) >= want) break;
    return v;
}

/* ... until it reads at most `want`. */
static double await_metric_le(const tsrv_t *s, const char *series, double want, int ms) {
    double v = -1;
    for (double t0 = test_now_ms(); test_now_ms() - t0 < ms; test_sleep_ms(20))
        if ((v = tsrv_metric(s, series)) >= 0 && v <= want) break;
    return v;
}

#define BUSY_FG   "puzzled_workers_busy{class=\"foreground\"}"
#define BUSY_BG   "puzzled_workers_busy{class=\"background\"}"
#define WORK_USED "puzzled_memory_used_bytes{budget=\"work\"}"

static const char *jstr(json_t *o, const char *k) {
    return json_string_value(json_object_get(o, k));
}

/* Every worker of a 2-thread server held by a request that waits. */
static void occupy_both(const tsrv_t *s, int fds[2]) {
    fds[0] = raw_send(s, "GET", LONG_PATH, NULL);
    fds[1] = raw_send(s, "GET", LONG_PATH, NULL);
    ck_assert_double_eq(await_metric(s, BUSY_FG, 2, 10000), 2);
}

START_TEST(fair_queued_request_answers_503_at_its_deadline) {
    static const char *const args[] = {"--threads", "2", NULL};
    tsrv_t s;
    int fds[2];
    long st;
    hresp_t r;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    occupy_both(&s, fds);
    double t0 = test_now_ms();
    json_t *j = tsrv_call(&s, "GET", "/v1/nqueens/count?n=12&timeout_ms=300", NULL, 0, &st, &r);
    double took = test_now_ms() - t0;
    printf("fair: a request queued behind busy workers answered %ld after %.0f ms (deadline "
           "300 ms)\n",
           st, took);
    ck_assert_int_eq(st, 503);
    ck_assert_str_eq(jstr(j, "type"), "/problems/overloaded");
    char ra[16];
    ck_assert(hresp_header(&r, "Retry-After", ra, sizeof ra));
    ck_assert(took >= 290 && took < 5000); /* at its deadline, not at the workers' */
    ck_assert_double_eq(tsrv_metric(&s, "puzzled_queue_expired_total"), 1);
    json_decref(j);
    hresp_free(&r);
    close(fds[0]);
    close(fds[1]); /* the hang-ups cancel them */
    ck_assert_double_eq(await_metric_le(&s, BUSY_FG, 0, 10000), 0);
    ck_assert_double_eq(await_metric_le(&s, WORK_USED, 0, 10000), 0);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
}
END_TEST

START_TEST(fair_queued_request_of_a_gone_client_is_dropped) {
    static const char *const args[] = {"--threads", "2", NULL};
    tsrv_t s;
    int fds[2];
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    occupy_both(&s, fds);
    int q = raw_send(&s, "GET", "/v1/nqueens/count?n=12&timeout_ms=30000", NULL);
    ck_assert_double_eq(await_metric(&s, "puzzled_jobs_queued", 1, 5000), 1);
    close(q);
    /* noticed while it waits (the watch), not when a worker frees */
    ck_assert_double_eq(await_metric(&s, "puzzled_queue_abandoned_total", 1, 5000), 1);
    ck_assert_double_eq(await_metric_le(&s, "puzzled_jobs_queued", 0, 5000), 0);
    ck_assert_double_eq(tsrv_metric(&s, BUSY_FG), 2);
    close(fds[0]);
    close(fds[1]);
    ck_assert_double_eq(await_metric_le(&s, "puzzled_jobs_inflight", 0, 10000), 0);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
}
END_TEST

/* Background work never holds more than its share (all but one worker of
 * two), so requests that wait are served while it runs: before, three
 * async jobs took both workers and a count of n=12 waited for minutes. */
START_TEST(fair_background_keeps_a_worker_free) {
    static const char *const args[] = {"--threads", "2", NULL};
    tsrv_t s;
    char ids[3][32];
    long st;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    for (int k = 0; k < 3; k++) {
        json_t *j = tsrv_call(&s, "GET", LONG_PATH, NULL, 1, &st, NULL);
        ck_assert_int_eq(st, 202);
        snprintf(ids[k], sizeof ids[k], "%s", jstr(j, "id"));
        json_decref(j);
    }
    ck_assert_double_eq(await_metric(&s, BUSY_BG, 1, 10000), 1);
    double worst = 0;
    for (int k = 0; k < 20; k++) {
        double t0 = test_now_ms();
        json_t *j = tsrv_call(&s, "GET", "/v1/nqueens/count?n=12", NULL, 0, &st, NULL);
        double took = test_now_ms() - t0;
        if (took > worst) worst = took;
        ck_assert_int_eq(st, 200);
        ck_assert_str_eq(jstr(j, "status"), "complete");
        ck_assert_int_eq(json_integer_value(json_object_get(j, "count")), 14200);
        json_decref(j);
        ck_assert_double_le(tsrv_metric(&s, BUSY_BG), 1);
    }
    printf("fair: 20 counts of n=12 during 3 long async jobs, slowest %.0f ms\n", worst);
    ck_assert(worst < 10000);
    /* a generate (background work even when its client waits) waits for a
     * turn in the background share: it does not take the kept worker, and
     * counts go on while it waits */
    int g = raw_send(&s, "POST", "/v1/sudoku/generate", "{\"size\":9,\"timeout_ms\":30000}");
    ck_assert_double_ge(await_metric(&s, "puzzled_jobs_queued", 1, 5000), 1);
    json_t *j = tsrv_call(&s, "GET", "/v1/nqueens/count?n=12", NULL, 0, &st, NULL);
    ck_assert_int_eq(st, 200);
    json_decref(j);
    ck_assert_double_le(tsrv_metric(&s, BUSY_BG), 1);
    close(g);
    for (int k = 0; k < 3; k++) {
        char path[160];
        snprintf(path, sizeof path, "/v1/jobs/%s", ids[k]);
        json_decref(tsrv_call(&s, "DELETE", path, NULL, 0, &st, NULL));
        ck_assert_int_eq(st, 202);
    }
    ck_assert_double_eq(await_metric_le(&s, "puzzled_jobs_inflight", 0, 10000), 0);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
}
END_TEST

/* Generation takes turns (POOL_TURN_NS): with a long generate holding
 * the one background worker of a two-thread server, small generates still
 * answer one after the other while it runs, each after at most one of its
 * turns, instead of after its deadline.  The long one is long by
 * construction: hard puzzles with at least 80 givens, which no puzzle is
 * (the one empty cell is a full house, rating 1.0), so it runs to its
 * deadline on any machine, passing sudoku_gen_reachable(), which does not
 * weigh givens against levels; the test ends it by DELETE.  Without turns
 * the first small request waited for the long item's end. */
START_TEST(fair_generate_takes_turns) {
    static const char *const args[] = {"--threads", "2", NULL};
    tsrv_t s;
    char id[32], path[160];
    long st;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    json_t *j = tsrv_call(&s, "POST", "/v1/sudoku/generate",
                          "{\"difficulty\":\"hard\",\"givens\":{\"min\":80},\"count\":100,"
                          "\"timeout_ms\":60000,\"seed\":3}",
                          1, &st, NULL);
    ck_assert_int_eq(st, 202);
    snprintf(id, sizeof id, "%s", jstr(j, "id"));
    json_decref(j);
    ck_assert_double_eq(await_metric(&s, BUSY_BG, 1, 10000), 1);
    for (int k = 0; k < 5; k++) {
        char body[96];
        snprintf(body, sizeof body, "{\"difficulty\":\"easy\",\"seed\":%d}", k + 1);
        j = tsrv_call(&s, "POST", "/v1/sudoku/generate", body, 0, &st, NULL);
        ck_assert_int_eq(st, 200);
        ck_assert_str_eq(jstr(j, "status"), "complete");
        json_decref(j);
    }
    j = tsrv_job(&s, id, &st); /* the long one is still at work */
    ck_assert_int_eq(st, 200);
    ck_assert_msg(!job_status_ended(jstr(j, "status")), "the long generate ended: %s",
                  jstr(j, "status"));
    json_decref(j);
    /* only a job that takes turns yields: a background N-Queens completion
     * whose run() answers 1 ("no solution") ends at once, not at its
     * deadline (the first cut of turns read that 1 as a turn) */
    char sid[32];
    j = tsrv_call(&s, "GET", "/v1/nqueens/solve?n=3&timeout_ms=60000", NULL, 1, &st, NULL);
    ck_assert_int_eq(st, 202);
    snprintf(sid, sizeof sid, "%s", jstr(j, "id"));
    json_decref(j);
    const char *status = "";
    for (double t0 = test_now_ms(); test_now_ms() - t0 < 20000; test_sleep_ms(50)) {
        j = tsrv_job(&s, sid, &st);
        static char keep[32];
        snprintf(keep, sizeof keep, "%s", jstr(j, "status"));
        status = keep;
        json_decref(j);
        if (job_status_ended(status)) break;
    }
    ck_assert_str_eq(status, "done");
    snprintf(path, sizeof path, "/v1/jobs/%s", id);
    json_decref(tsrv_call(&s, "DELETE", path, NULL, 0, &st, NULL));
    ck_assert_int_eq(st, 202);
    ck_assert_double_eq(await_metric_le(&s, "puzzled_jobs_inflight", 0, 10000), 0);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
}
END_TEST

/* Bodies being read are charged to the work budget: with two large bodies
 * in flight filling it, a third request is refused with a 503 that says
 * so, and the budget is whole again once they end.  The budget is the two
 * bodies' 16 MiB and 256 KiB more: the /metrics answers this test polls
 * are charged too while they are written, and without the slack one of
 * them could take the last bytes just as the second body grew, which then
 * was refused instead (CI saw 8 MiB used).  The third body is 1 MiB, past
 * the slack. */
START_TEST(fair_bodies_share_the_work_budget) {
    static const char *const args[] = {
        "--max-work-memory", "17039360", "--max-request-memory", "8388608", "--max-body",
        "8388608",           NULL};
    tsrv_t s;
    long st;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    size_t big = 5u << 20; /* past 4 MiB: the body's buffer is 8 MiB */
    char *junk = malloc(big);
    ck_assert_ptr_nonnull(junk);
    memset(junk, ' ', big);
    int fds[2];
    for (int k = 0; k < 2; k++) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s.port)};
        char head[256];
        fds[k] = socket(AF_INET, SOCK_STREAM, 0);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ck_assert_int_eq(connect(fds[k], (struct sockaddr *)&a, sizeof a), 0);
        int n = snprintf(head, sizeof head,
                         "POST /v1/sudoku/solve HTTP/1.1\r\nHost: t\r\nContent-Type: "
                         "application/json\r\nContent-Length: %zu\r\n\r\n",
                         big + 10); /* never all sent: the body stays in flight */
        ck_assert_int_eq(send(fds[k], head, (size_t)n, MSG_NOSIGNAL), n);
        for (size_t off = 0; off < big;) {
            ssize_t w = send(fds[k], junk + off, big - off, MSG_NOSIGNAL);
            ck_assert_int_gt(w, 0);
            off += (size_t)w;
        }
    }
    free(junk);
    ck_assert_double_eq(await_metric(&s, WORK_USED, 16u << 20, 10000), 16u << 20);
    size_t third_len = 1u << 20;
    char *third = malloc(third_len + 1);
    ck_assert_ptr_nonnull(third);
    memset(third, ' ', third_len);
    memcpy(third, "{\"grid\":\"1...............\"}", 27);
    third[third_len] = '\0';
    json_t *j = tsrv_call(&s, "POST", "/v1/sudoku/solve", third, 0, &st, NULL);
    free(third);
    ck_assert_int_eq(st, 503);
    ck_assert_str_eq(jstr(j, "type"), "/problems/out-of-memory");
    ck_assert_ptr_nonnull(strstr(jstr(j, "detail"), "--max-work-memory"));
    json_decref(j);
    ck_assert_double_ge(tsrv_metric(&s, "puzzled_memory_refused_total{budget=\"work\"}"), 1);
    for (int k = 0; k < 2; k++) { /* the bodies end (blanks and {}: a 400), and are answered */
        char got[512];
        ck_assert_int_eq(send(fds[k], "        {}", 10, MSG_NOSIGNAL), 10);
        ssize_t n = recv(fds[k], got, sizeof got - 1, 0);
        ck_assert_int_gt(n, 0);
        got[n] = '\0';
        ck_assert_msg(strncmp(got, "HTTP/1.1 400", 12) == 0, "%s", got);
        close(fds[k]);
    }
    ck_assert_double_eq(await_metric_le(&s, WORK_USED, 0, 10000), 0);
    j = tsrv_call(&s, "POST", "/v1/sudoku/solve", "{\"grid\":\"1...............\"}", 0, &st, NULL);
    ck_assert_int_eq(st, 200);
    json_decref(j);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
}
END_TEST

/* A search that needs more than one request's share is told so (422: a
 * retry cannot help); the same search fits under the default share. */
START_TEST(fair_request_share_is_422) {
    static const char *const small[] = {"--max-request-memory", "1048576", NULL};
    char body[800];
    tsrv_t s;
    long st;
    snprintf(body, sizeof body, "{\"grid\":\"%0625d\",\"method\":\"best-first\"}", 0);
    ck_assert_int_eq(tsrv_start(&s, small, NULL), 0);
    json_t *j = tsrv_call(&s, "POST", "/v1/sudoku/solve", body, 0, &st, NULL);
    ck_assert_int_eq(st, 422);
    ck_assert_str_eq(jstr(j, "type"), "/problems/too-much-memory");
    json_decref(j);
    ck_assert_double_eq(await_metric_le(&s, WORK_USED, 0, 5000), 0);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
    ck_assert_int_eq(tsrv_start(&s, NULL, NULL), 0);
    j = tsrv_call(&s, "POST", "/v1/sudoku/solve", body, 0, &st, NULL);
    ck_assert_int_eq(st, 200);
    ck_assert_str_eq(jstr(j, "status"), "solved");
    json_decref(j);
    ck_assert_double_gt(tsrv_metric(&s, "puzzled_memory_peak_bytes{budget=\"work\"}"), 1 << 20);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
}
END_TEST

/* Kept results have a total budget: past it the oldest ended jobs go, and
 * the budget's use never passes its limit. */
START_TEST(fair_kept_results_have_a_budget) {
    static const char *const args[] = {"--max-job-memory", "131072", NULL};
    char ids[8][32];
    tsrv_t s;
    long st;
    ck_assert_int_eq(tsrv_start(&s, args, NULL), 0);
    /* each result is ~40 KB: 1,000 boards of 16 queens */
    for (int k = 0; k < 8; k++) {
        char path[96];
        snprintf(path, sizeof path, "/v1/nqueens/solutions?n=16&offset=%d&limit=1000", k);
        json_t *j = tsrv_call(&s, "GET", path, NULL, 1, &st, NULL);
        ck_assert_int_eq(st, 202);
        snprintf(ids[k], sizeof ids[k], "%s", jstr(j, "id"));
        json_decref(j);
        for (double t0 = test_now_ms(); test_now_ms() - t0 < 20000; test_sleep_ms(10)) {
            j = tsrv_job(&s, ids[k], &st);
            int ended = job_status_ended(jstr(j, "status"));
            if (ended) ck_assert_str_eq(jstr(j, "status"), "done");
            json_decref(j);
            if (ended) break;
        }
        double used = tsrv_metric(&s, "puzzled_memory_used_bytes{budget=\"results\"}");
        ck_assert_double_le(used, 131072);
        ck_assert_double_gt(used, 0);
    }
    json_decref(tsrv_job(&s, ids[0], &st));
    ck_assert_int_eq(st, 404); /* evicted, the oldest first */
    json_decref(tsrv_job(&s, ids[7], &st));
    ck_assert_int_eq(st, 200);
    ck_assert_int_eq(tsrv_stop(&s, SIGTERM, 15000), 0);
}
END_TEST

/* === A held job (api_job_ops_t.hold): the pool itself ================= */

/* A progressive job of HOLD_ITEMS items on one worker that holds once
 * `hold_after` items have started (0: from the start), until the test lets
 * it go. */
#define HOLD_ITEMS 8
typedef struct hold_job_s {
    api_job_t base;
    atomic_int hold;
    atomic_int started;
    int hold_after;
} hold_job_t;

static int hold_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    hold_job_t *h = (hold_job_t *)job;
    (void)item, (void)ctl;
    if (atomic_fetch_add(&h->started, 1) + 1 == h->hold_after) atomic_store(&h->hold, 1);
    return 0;
}
static int hold_merge(api_job_t *job, size_t item, int rc) {
    (void)job, (void)item, (void)rc;
    return API_JOB_CONTINUE;
}
static void hold_render(api_job_t *job, api_response_t *out) { (void)job, (void)out; }
static void hold_free(api_job_t *job) { (void)job; }
static void hold_finish(api_job_t *job, int rc) { (void)job, (void)rc; }
static int hold_hold(api_job_t *job) { return atomic_load(&((hold_job_t *)job)->hold); }
static const api_job_ops_t hold_ops = {.puzzle = "test",
                                       .run = hold_run,
                                       .merge = hold_merge,
                                       .render = hold_render,
                                       .free = hold_free,
                                       .progressive = 1,
                                       .finish = hold_finish,
                                       .hold = hold_hold};

static atomic_int hold_done;
static void hold_done_cb(pool_task_t *t) {
    (void)t;
    atomic_store(&hold_done, 1);
}

/* Runs one hold job on a fresh pool of 2 workers: the pool starts no item
 * while the job holds (the test waits until the first hold_after items
 * started, then for four of the pool's looks: none may start another), and
 * all of them once it lets go (let_go), or the deadline ends it. */
static void hold_case(int hold_after, int64_t timeout_ms, int let_go) {
    char *argv[] = {"puzzled", "--threads", "2", NULL};
    config_t cfg;
    metrics_t *m = calloc(1, sizeof *m);
    budget_t work;
    pool_t *p = NULL;
    pool_task_t task;
    hold_job_t h;
    api_job_t *job;
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(config_parse(&cfg, 3, argv, stdout, stderr), 0);
    metrics_init(m, NULL, 0);
    budget_init(&work, "work", cfg.max_work_memory);
    ck_assert_int_eq(pool_new(&p, &cfg, m, &work), 0);
    memset(&h, 0, sizeof h);
    memset(&task, 0, sizeof task);
    atomic_init(&h.hold, hold_after == 0);
    atomic_init(&h.started, 0);
    h.hold_after = hold_after;
    api_job_ready(&h.base, &hold_ops, HOLD_ITEMS, 1, timeout_ms, &job);
    task.job = job;
    task.done = hold_done_cb;
    task.watch_fd = -1;
    task.waits = 1;
    atomic_store(&hold_done, 0);
    ck_assert_int_eq(pool_admit(p), 0);
    ck_assert_int_eq(pool_submit(p, &task), 0);
    for (int k = 0; k < 2000 && atomic_load(&h.started) < hold_after; k++)
        test_sleep_ms(5);
    test_sleep_ms(4 * POOL_WATCH_MS); /* the pool looks again every POOL_WATCH_MS */
    int started = atomic_load(&h.started);
    ck_assert_int_eq(started, hold_after);
    if (let_go) atomic_store(&h.hold, 0);
    for (int k = 0; k < 2000 && !atomic_load(&hold_done); k++)
        test_sleep_ms(5);
    ck_assert(atomic_load(&hold_done));
    started = atomic_load(&h.started);
    if (let_go) {
        ck_assert_int_eq(started, HOLD_ITEMS);
        ck_assert_int_eq(task.rc, 0);
    } else { /* the deadline ended it while it held */
        ck_assert_int_eq(started, hold_after);
        ck_assert_int_eq(task.rc, SEARCH_TIMEOUT);
        ck_assert_int_eq(task.waited_out, 1);
    }
    for (int k = 0; k < 2000 && pool_inflight(p) > 0; k++)
        test_sleep_ms(1);
    pool_free(p);
    free(m);
}

START_TEST(pool_holds_a_job_from_the_start) { hold_case(0, 30000, 1); }
END_TEST

START_TEST(pool_holds_a_job_midway) { hold_case(3, 30000, 1); }
END_TEST

/* Held with nothing running, as a request that waits for a worker: its
 * deadline (half the test's wait) ends it, and nothing ran. */
START_TEST(pool_held_job_meets_its_deadline) { hold_case(0, 2 * POOL_WATCH_MS, 0); }
END_TEST

Suite *fair_suite(void);
Suite *fair_suite(void) {
    Suite *s = suite_create("fair");
    TCase *tc = tcase_create("fair");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fair_queued_request_answers_503_at_its_deadline);
    tcase_add_test(tc, fair_queued_request_of_a_gone_client_is_dropped);
    tcase_add_test(tc, fair_background_keeps_a_worker_free);
    tcase_add_test(tc, fair_generate_takes_turns);
    tcase_add_test(tc, fair_bodies_share_the_work_budget);
    tcase_add_test(tc, fair_request_share_is_422);
    tcase_add_test(tc, fair_kept_results_have_a_budget);
    suite_add_tcase(s, tc);
    tc = tcase_create("hold");
    tcase_add_test(tc, pool_holds_a_job_from_the_start);
    tcase_add_test(tc, pool_holds_a_job_midway);
    tcase_add_test(tc, pool_held_job_meets_its_deadline);
    suite_add_tcase(s, tc);
    return s;
}
