/* bench_http.c -- what the HTTP path costs and how the pool shares itself.
 *
 * Starts the real server ($PUZZLED_BIN, default ./build/puzzled) on a
 * loopback port and prints:
 *   1. GET /v1/nqueens/count for n = 14..17 (argv overrides the range) with
 *      threads=1 and threads=2: server-side elapsed and client wall time;
 *   2. fairness: small requests (count n=11: past the HTTP thread's inline
 *      limit, so they need a worker) fired one after another while an
 *      n=17 count with threads=2 runs, against the same requests on an idle
 *      server: median and worst latency.  The pool's per-job window is what
 *      keeps the second figure near the first; then the same while three
 *      asynchronous count jobs (n = hi + 1, default 18) run at once, and how
 *      long DELETE takes to bring the pool back to idle;
 *   3. POST /v1/killer/solve for each 9x9 killer of
 *      ../shared/data/killer/janko_killer_9x9.jsonl (when present), one at a
 *      time on one keep-alive connection: the client's wall time next to the
 *      server's elapsed_ms (parse, validation, 45-rule set-up and search),
 *      so the difference is what HTTP and the pool hand-off add. */
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/http_client.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct big_s {
    char url[256];
    atomic_int done;
    double wall;
    long long count;
} big_t;

static void *big_main(void *arg) {
    big_t *b = arg;
    hresp_t r;
    double t0 = now_s();
    http_get(b->url, &r);
    b->wall = now_s() - t0;
    json_t *j = json_loads(r.body, 0, NULL);
    b->count = j ? (long long)json_integer_value(json_object_get(j, "count")) : -1;
    json_decref(j);
    hresp_free(&r);
    atomic_store(&b->done, 1);
    return NULL;
}

/* Fires small requests until *stop (or `max` of them); returns how many. */
static size_t small_burst(CURL *c, const char *url, double *lat, size_t max, atomic_int *stop) {
    size_t k = 0;
    while (k < max && (stop == NULL || !atomic_load(stop))) {
        hresp_t r;
        double t0 = now_s();
        http_do(c, "GET", url, NULL, 0, NULL, &r);
        lat[k++] = (now_s() - t0) * 1000.0;
        hresp_free(&r);
        struct timespec gap = {0, 20 * 1000000};
        nanosleep(&gap, NULL);
    }
    return k;
}

static void report(const char *what, double *lat, size_t k) {
    if (k == 0) {
        printf("  %-34s no samples\n", what);
        return;
    }
    qsort(lat, k, sizeof *lat, cmp_double);
    printf("  %-34s %4zu requests  median %7.2f ms  p90 %7.2f ms  max %7.2f ms\n", what, k,
           lat[k / 2], lat[(k * 9) / 10], lat[k - 1]);
}

/* Section 3: every janko 9x9 killer over HTTP.  The file's cages hold cell
 * indices; the API takes [row, col] pairs. */
static void killer_latency(const tsrv_t *s) {
    const char *path = "../shared/data/killer/janko_killer_9x9.jsonl";
    FILE *f = fopen(path, "r");
    static double wall[1024], server[1024];
    size_t k = 0, bad = 0;
    char line[16384], url[256];
    if (f == NULL) {
        printf("\nKiller over HTTP: %s not found, skipped\n", path);
        return;
    }
    CURL *c = curl_easy_init();
    static const char *const hdr[] = {"Content-Type: application/json", NULL};
    snprintf(url, sizeof url, "%s/v1/killer/solve", s->base);
    while (k < sizeof wall / sizeof wall[0] && fgets(line, sizeof line, f) != NULL) {
        json_t *p = json_loads(line, 0, NULL), *cages = json_array(), *cg;
        size_t i, j;
        if (p == NULL) continue;
        json_int_t n = json_integer_value(json_object_get(p, "n"));
        json_array_foreach(json_object_get(p, "cages"), i, cg) {
            json_t *cells = json_array(), *x;
            json_array_foreach(json_object_get(cg, "cells"), j, x) {
                json_int_t v = json_integer_value(x);
                json_array_append_new(cells, json_pack("[I,I]", v / n, v % n));
            }
            json_array_append_new(
                cages, json_pack("{s:O,s:o}", "sum", json_object_get(cg, "sum"), "cells", cells));
        }
        json_t *req = json_pack("{s:I,s:o}", "size", n, "cages", cages);
        char *body = json_dumps(req, JSON_COMPACT);
        hresp_t r;
        double t0 = now_s();
        http_do(c, "POST", url, body, strlen(body), hdr, &r);
        double ms = (now_s() - t0) * 1000.0;
        json_t *a = json_loads(r.body, 0, NULL);
        const char *st = json_string_value(json_object_get(a, "status"));
        if (r.status == 200 && st != NULL && strcmp(st, "solved") == 0) {
            wall[k] = ms;
            server[k++] =
                json_number_value(json_object_get(json_object_get(a, "stats"), "elapsed_ms"));
        } else {
            bad++;
        }
        json_decref(a);
        hresp_free(&r);
        free(body);
        json_decref(req);
        json_decref(p);
    }
    fclose(f);
    curl_easy_cleanup(c);
    printf("\nKiller over HTTP (POST /v1/killer/solve, janko 9x9, one at a time, keep-alive; %zu "
           "not solved)\n",
           bad);
    report("client wall", wall, k);
    report("server elapsed_ms", server, k);
}

int main(int argc, char **argv) {
    static const char *const args[] = {"--threads", "2", "--timeout-ms", "600000", NULL};
    int lo = argc > 1 ? atoi(argv[1]) : 14, hi = argc > 2 ? atoi(argv[2]) : 17;
    tsrv_t s;
    char url[256];

    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (tsrv_start(&s, args, NULL) != 0) {
        fprintf(stderr, "bench_http: the server did not start\n");
        return 1;
    }
    printf("\nN-Queens count over HTTP (server --threads 2, loopback)\n");
    printf("  %3s %7s %15s %12s %12s\n", "n", "threads", "count", "server ms", "client ms");
    for (int n = lo; n <= hi; n++)
        for (int t = 1; t <= 2; t++) {
            hresp_t r;
            snprintf(url, sizeof url, "%s/v1/nqueens/count?n=%d&threads=%d", s.base, n, t);
            double t0 = now_s();
            http_get(url, &r);
            double wall = (now_s() - t0) * 1000.0;
            json_t *j = json_loads(r.body, 0, NULL);
            json_t *st = json_object_get(j, "stats");
            printf("  %3d %7d %15lld %12.1f %12.1f\n", n, t,
                   (long long)json_integer_value(json_object_get(j, "count")),
                   json_number_value(json_object_get(st, "elapsed_ms")), wall);
            json_decref(j);
            hresp_free(&r);
        }

    /* Fairness: small requests with and without a long count running. */
    double lat[4096];
    char small[256];
    CURL *c = curl_easy_init();
    snprintf(small, sizeof small, "%s/v1/nqueens/count?n=11",
             s.base); /* past the inline limit: it needs a worker */
    size_t k = small_burst(c, small, lat, 50, NULL);
    printf("\nSmall requests (GET count n=11, one at a time, keep-alive; they need a worker)\n");
    report("idle server", lat, k);

    big_t big;
    pthread_t th;
    memset(&big, 0, sizeof big);
    snprintf(big.url, sizeof big.url, "%s/v1/nqueens/count?n=%d&threads=2", s.base, hi);
    pthread_create(&th, NULL, big_main, &big);
    struct timespec settle = {0, 100 * 1000000};
    nanosleep(&settle, NULL);
    k = small_burst(c, small, lat, sizeof lat / sizeof lat[0], &big.done);
    pthread_join(th, NULL);
    char what[64];
    snprintf(what, sizeof what, "during an n=%d count (threads=2)", hi);
    report(what, lat, k);
    printf("  (the n=%d count took %.1f s and answered %lld)\n", hi, big.wall, big.count);

    /* The same with three async count jobs running at once. */
    char ids[3][32], jurl[256];
    const char *pref[] = {"Prefer: respond-async", NULL};
    for (int i = 0; i < 3; i++) {
        hresp_t r;
        snprintf(jurl, sizeof jurl, "%s/v1/nqueens/count?n=%d", s.base, hi + 1);
        http_do(c, "GET", jurl, NULL, 0, pref, &r);
        json_t *j = json_loads(r.body, 0, NULL);
        snprintf(ids[i], sizeof ids[i], "%s", j ? json_string_value(json_object_get(j, "id")) : "");
        json_decref(j);
        hresp_free(&r);
    }
    nanosleep(&settle, NULL);
    k = small_burst(c, small, lat, 300, NULL);
    snprintf(what, sizeof what, "during 3 async n=%d count jobs", hi + 1);
    report(what, lat, k);
    double t0 = now_s();
    for (int i = 0; i < 3; i++) {
        hresp_t r;
        snprintf(jurl, sizeof jurl, "%s/v1/jobs/%s", s.base, ids[i]);
        http_do(c, "DELETE", jurl, NULL, 0, NULL, &r);
        hresp_free(&r);
    }
    double inflight = -1;
    snprintf(jurl, sizeof jurl, "%s/metrics", s.base);
    while (inflight != 0 && now_s() - t0 < 10) {
        hresp_t r;
        http_do(c, "GET", jurl, NULL, 0, NULL, &r);
        inflight = metrics_value(r.body, "puzzled_jobs_inflight");
        hresp_free(&r);
    }
    printf("  DELETE of the 3 jobs to an idle pool (in-flight 0): %.1f ms\n",
           (now_s() - t0) * 1000.0);
    curl_easy_cleanup(c);

    killer_latency(&s);
    tsrv_stop(&s, SIGTERM, 20000);
    curl_global_cleanup();
    return 0;
}
