/* soak.c -- a mixed load against a real server for a while, to let a
 * sanitizer (ThreadSanitizer above all) watch every thread hand-off:
 *
 *   small    GET counts, 9x9 and 4x4 solves, 4x4 killers, exact cover,
 *            validate, metrics, 404s and 400s, on keep-alive connections;
 *   batch    small streamed batches (the progressive path);
 *   hang-up  a long count whose client gives up after a few ms: the
 *            server must notice and cancel the work;
 *   cancel   an async count job, cancelled with DELETE after a moment;
 *   raw      half-sent requests and bodies cut short on plain sockets.
 *
 * Every answer is checked (status, and the count or the solution where
 * there is one).  At the end the server must be idle (in-flight 0), stop
 * on SIGTERM with exit 0, and its log must hold no sanitizer report.
 *
 *   soak [SECONDS]      (default 60; PUZZLED_BIN names the server)
 *
 * `make soak SANITIZE=thread` builds everything under TSan and runs it;
 * .ci/run does. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tests/http_client.h"

#define SOAK_THREADS 6

static tsrv_t srv;
static atomic_int stop;
static atomic_long done_ok, done_bad, hangups, raws, cancels;

static const char *const sudoku9 =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
static const char *const sudoku9_sol =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

static void fail(const char *what, const hresp_t *r) {
    atomic_fetch_add(&done_bad, 1);
    fprintf(stderr, "soak: %s: curl %d, status %ld: %.200s\n", what, (int)r->curl_rc, r->status,
            r->body ? r->body : "");
}

static int has(const hresp_t *r, const char *needle) {
    return r->body != NULL && strstr(r->body, needle) != NULL;
}

/* One small request of kind k on a keep-alive handle; checks the answer. */
static void soak_small(CURL *c, unsigned k) {
    char url[256], body[512];
    const char *hj[] = {"Content-Type: application/json", NULL};
    const char *ht[] = {"Content-Type: text/plain", NULL};
    hresp_t r;
    int ok;
    switch (k % 9) {
    case 0:
        snprintf(url, sizeof url, "%s/v1/nqueens/count?n=8&threads=2", srv.base);
        http_do(c, "GET", url, NULL, 0, NULL, &r);
        ok = r.status == 200 && has(&r, "\"count\":92");
        break;
    case 1:
        snprintf(url, sizeof url, "%s/v1/sudoku/solve", srv.base);
        snprintf(body, sizeof body, "{\"grid\":\"%s\",\"max_solutions\":2}", sudoku9);
        http_do(c, "POST", url, body, strlen(body), hj, &r);
        ok = r.status == 200 && has(&r, sudoku9_sol) && has(&r, "\"unique\":true");
        break;
    case 2:
        snprintf(url, sizeof url, "%s/v1/sudoku/solve", srv.base);
        snprintf(body, sizeof body, "{\"grid\":\"%s\",\"method\":\"dlx\",\"threads\":2}", sudoku9);
        http_do(c, "POST", url, body, strlen(body), hj, &r);
        ok = r.status == 200 && has(&r, sudoku9_sol);
        break;
    case 3:
        snprintf(url, sizeof url, "%s/v1/killer/solve", srv.base);
        snprintf(body, sizeof body, "%s",
                 "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]},{\"sum\":7,\"cells\":"
                 "[[0,2],[0,3]]},{\"sum\":7,\"cells\":[[1,0],[2,0]]},{\"sum\":5,\"cells\":[[1,1],"
                 "[1,2]]},{\"sum\":3,\"cells\":[[1,3],[2,3]]},{\"sum\":5,\"cells\":[[2,1],[2,2]]},"
                 "{\"sum\":3,\"cells\":[[3,0],[3,1]]},{\"sum\":7,\"cells\":[[3,2],[3,3]]}]}");
        http_do(c, "POST", url, body, strlen(body), hj, &r);
        ok = r.status == 200 && has(&r, "\"status\":\"");
        break;
    case 4:
        snprintf(url, sizeof url, "%s/v1/exact-cover/solve", srv.base);
        snprintf(body, sizeof body, "%s",
                 "{\"items\":[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\",\"G\"],\"options\":[[\"C\",\"E\","
                 "\"F\"],[\"A\",\"D\",\"G\"],[\"B\",\"C\",\"F\"],[\"A\",\"D\"],[\"B\",\"G\"],"
                 "[\"D\",\"E\",\"G\"]],\"threads\":2}");
        http_do(c, "POST", url, body, strlen(body), hj, &r);
        ok = r.status == 200 && has(&r, "[[0,3,4]]");
        break;
    case 5:
        snprintf(url, sizeof url, "%s/v1/sudoku/batch?max_solutions=2", srv.base);
        snprintf(body, sizeof body, "%s\n%s\n", sudoku9, sudoku9);
        http_do(c, "POST", url, body, strlen(body), ht, &r);
        ok = r.status == 200 && r.body != NULL && strncmp(r.body, sudoku9_sol, 81) == 0 &&
             strstr(r.body + 82, sudoku9_sol) == r.body + 82;
        break;
    case 6:
        snprintf(url, sizeof url, "%s/metrics", srv.base);
        http_do(c, "GET", url, NULL, 0, NULL, &r);
        ok = r.status == 200 && has(&r, "puzzled_jobs_inflight");
        break;
    case 7:
        snprintf(url, sizeof url, "%s/v1/nqueens/count?n=99", srv.base);
        http_do(c, "GET", url, NULL, 0, NULL, &r);
        ok = r.status == 400 && has(&r, "\"field\":\"n\"");
        break;
    default:
        snprintf(url, sizeof url, "%s/nowhere", srv.base);
        http_do(c, "GET", url, NULL, 0, NULL, &r);
        ok = r.status == 404;
        break;
    }
    if (ok)
        atomic_fetch_add(&done_ok, 1);
    else
        fail(url, &r);
    hresp_free(&r);
}

static size_t soak_discard(char *p, size_t size, size_t n, void *cls) {
    (void)p;
    (void)cls;
    return size * n;
}

/* A long request whose client leaves after `ms` (a fresh connection; curl
 * directly, as http_do() sets its own generous timeout). */
static void soak_hangup(unsigned k, long ms) {
    char url[256];
    long status = 0;
    CURL *c = curl_easy_init();
    if (c == NULL) return;
    snprintf(url, sizeof url, "%s/v1/nqueens/count?n=%u&threads=%u", srv.base, 16 + k % 3,
             1 + k % 2);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, ms);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, soak_discard);
    CURLcode rc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (rc == CURLE_OPERATION_TIMEDOUT)
        atomic_fetch_add(&hangups, 1);
    else if (status != 200) {
        hresp_t r = {0};
        r.curl_rc = rc;
        r.status = status;
        fail("hang-up count", &r);
    }
    curl_easy_cleanup(c);
}

/* An async count job, cancelled with DELETE after a moment (or deleted, if
 * it ended first). */
static void soak_cancel(CURL *c, unsigned k) {
    char url[256];
    const char *pref[] = {"Prefer: respond-async", NULL};
    hresp_t r;
    snprintf(url, sizeof url, "%s/v1/nqueens/count?n=%u", srv.base, 14 + k % 4);
    http_do(c, "GET", url, NULL, 0, pref, &r);
    char loc[128];
    if (r.status != 202 || !hresp_header(&r, "Location", loc, sizeof loc)) {
        fail("async count", &r);
        hresp_free(&r);
        return;
    }
    hresp_free(&r);
    struct timespec ts = {0, (long)(k % 7) * 3000000L};
    nanosleep(&ts, NULL);
    snprintf(url, sizeof url, "%s%s", srv.base, loc);
    http_do(c, "DELETE", url, NULL, 0, NULL, &r);
    if (r.status == 202 || r.status == 204)
        atomic_fetch_add(&cancels, 1);
    else
        fail("DELETE of a job", &r);
    hresp_free(&r);
}

/* Half a request on a raw socket, then close. */
static void soak_raw(unsigned k) {
    static const char *const pieces[] = {
        "GET /v1/nqueens/count?n=8 HTTP/1.1\r\nHost: x\r\n",
        ("POST /v1/sudoku/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         "Content-Length: 500\r\n\r\n{\"grid\":"),
        "GET /v1/nqueens/count?n=14 HTTP/1.1\r\nHost: x\r\n\r\n", /* then leave before the answer */
        "BREW /pot HTTP/1.1\r\n\r\n"};
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)srv.port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) {
        const char *p = pieces[k % 4];
        ssize_t w = send(fd, p, strlen(p), MSG_NOSIGNAL);
        (void)w;
        struct timespec ts = {0, (long)(k % 5) * 2000000L};
        nanosleep(&ts, NULL);
        atomic_fetch_add(&raws, 1);
    }
    close(fd);
}

static void *soak_thread(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u, k = 0;
    CURL *c = curl_easy_init();
    if (c == NULL) return NULL;
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 30000L);
    while (!atomic_load(&stop)) {
        seed = seed * 1103515245u + 12345u;
        unsigned pick = (seed >> 16) % 100;
        if (pick < 76)
            soak_small(c, k++);
        else if (pick < 84)
            soak_hangup(k++, 5 + (long)(seed % 40));
        else if (pick < 88)
            soak_cancel(c, k++);
        else
            soak_raw(k++);
    }
    curl_easy_cleanup(c);
    return NULL;
}

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 60;
    static const char *const args[] = {"--threads", "2", "--max-queue", "256", NULL};
    pthread_t t[SOAK_THREADS];
    char url[256];
    hresp_t r;
    int rc = 0;

    signal(SIGPIPE, SIG_IGN);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (tsrv_start(&srv, args, NULL) != 0) {
        fprintf(stderr, "soak: the server did not start\n");
        return 1;
    }
    for (uintptr_t i = 0; i < SOAK_THREADS; i++)
        pthread_create(&t[i], NULL, soak_thread, (void *)(i + 1));
    sleep((unsigned)seconds);
    atomic_store(&stop, 1);
    for (int i = 0; i < SOAK_THREADS; i++)
        pthread_join(t[i], NULL);

    /* the abandoned work must be cancelled: nothing in flight soon after */
    snprintf(url, sizeof url, "%s/metrics", srv.base);
    double inflight = -1;
    for (int i = 0; i < 100 && inflight != 0; i++) {
        if (http_get(url, &r) == CURLE_OK)
            inflight = metrics_value(r.body, "puzzled_jobs_inflight");
        hresp_free(&r);
        usleep(50000);
    }
    if (inflight != 0) {
        fprintf(stderr, "soak: %g jobs still in flight 5 s after the load stopped\n", inflight);
        rc = 1;
    }
    int status = tsrv_stop(&srv, SIGTERM, 20000);
    if (status != 0) {
        fprintf(stderr, "soak: the server exited with %d on SIGTERM\n", status);
        rc = 1;
    }
    if (tsrv_log_has(&srv, "ThreadSanitizer") || tsrv_log_has(&srv, "AddressSanitizer") ||
        tsrv_log_has(&srv, "LeakSanitizer") || tsrv_log_has(&srv, "runtime error")) {
        fprintf(stderr, "soak: sanitizer report in %s\n", srv.log_path);
        rc = 1;
    }
    if (atomic_load(&done_bad) > 0) rc = 1;
    printf("soak: %d s, %ld answers checked, %ld wrong, %ld client hang-ups, %ld jobs cancelled, "
           "%ld raw half-requests: %s\n",
           seconds, atomic_load(&done_ok), atomic_load(&done_bad), atomic_load(&hangups),
           atomic_load(&cancels), atomic_load(&raws), rc == 0 ? "clean" : "FAILED");
    curl_global_cleanup();
    return rc;
}
