/* bench_fair.c -- the starvation probe: how long small synchronous
 * requests wait while the worst background load we can make runs.
 *
 * Starts the real server ($PUZZLED_BIN, default ./build/puzzled) with
 * --threads 2 (its defaults otherwise: one worker kept for requests that
 * wait) and sends PROBES counts of n=12 (small, but they need a worker:
 * n <= 10 is answered on the HTTP thread), one after another on one
 * keep-alive connection, 10 ms apart, and prints their median, p99 and
 * worst latency and how many were lost (any answer but a complete 200):
 *
 *   1. on the idle server;
 *   2. during three async counts of n=27 (hours of work each) and a
 *      synchronous 25x25 generate kept going in a loop (the probe);
 *   3. the same plus synchronous 10^7-queen boards (min-conflicts,
 *      output=summary) in a loop, and a second generate: the worst mix.
 *
 * Then the background load is cancelled (DELETE) and the server's peak
 * work-memory budget use is printed.  Usage: bench_fair [PROBES] (200). */
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/http_client.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A loop of one synchronous request, on its own thread, until stop. */
typedef struct loader_s {
    char url[256];
    const char *body; /* NULL: GET */
    atomic_int *stop;
    int done, failed;
    pthread_t th;
} loader_t;

static void *loader_main(void *arg) {
    loader_t *l = arg;
    const char *hdrs[] = {"Content-Type: application/json", NULL};
    CURL *c = curl_easy_init();
    while (!atomic_load(l->stop)) {
        hresp_t r;
        http_do(c, l->body ? "POST" : "GET", l->url, l->body, l->body ? strlen(l->body) : 0, hdrs,
                &r);
        if (r.status == 200)
            l->done++;
        else
            l->failed++;
        hresp_free(&r);
    }
    curl_easy_cleanup(c);
    return NULL;
}

/* PROBES counts of n=12; prints the line and returns p99. */
static double probe(const tsrv_t *s, const char *what, int probes) {
    double *lat = calloc((size_t)probes, sizeof *lat);
    char url[128];
    int lost = 0;
    CURL *c = curl_easy_init();
    snprintf(url, sizeof url, "%s/v1/nqueens/count?n=12", s->base);
    for (int k = 0; k < probes; k++) {
        hresp_t r;
        double t0 = now_ms();
        http_do(c, "GET", url, NULL, 0, NULL, &r);
        lat[k] = now_ms() - t0;
        json_t *j = json_loads(r.body ? r.body : "", 0, NULL);
        if (r.status != 200 || json_integer_value(json_object_get(j, "count")) != 14200) lost++;
        json_decref(j);
        hresp_free(&r);
        struct timespec gap = {0, 10 * 1000000};
        nanosleep(&gap, NULL);
    }
    curl_easy_cleanup(c);
    qsort(lat, (size_t)probes, sizeof *lat, cmp_double);
    double p99 = lat[(probes * 99) / 100 - (probes >= 100 ? 1 : 0)];
    printf("  %-58s median %6.2f ms  p99 %7.2f ms  max %7.2f ms  lost %d of %d\n", what,
           lat[probes / 2], p99, lat[probes - 1], lost, probes);
    free(lat);
    return p99;
}

static void start_async(const tsrv_t *s, const char *path, char id[32]) {
    const char *pref[] = {"Prefer: respond-async", NULL};
    char url[256];
    hresp_t r;
    CURL *c = curl_easy_init();
    snprintf(url, sizeof url, "%s%s", s->base, path);
    http_do(c, "GET", url, NULL, 0, pref, &r);
    json_t *j = json_loads(r.body ? r.body : "", 0, NULL);
    snprintf(id, 32, "%s", j ? json_string_value(json_object_get(j, "id")) : "");
    json_decref(j);
    hresp_free(&r);
    curl_easy_cleanup(c);
}

static void loader_start(loader_t *l, const tsrv_t *s, const char *path, const char *body,
                         atomic_int *stop) {
    memset(l, 0, sizeof *l);
    snprintf(l->url, sizeof l->url, "%s%s", s->base, path);
    l->body = body;
    l->stop = stop;
    pthread_create(&l->th, NULL, loader_main, l);
}

int main(int argc, char **argv) {
    static const char *const args[] = {"--threads", "2", "--timeout-ms", "600000", NULL};
    static const char gen25[] = "{\"size\":25,\"difficulty\":\"easy\",\"timeout_ms\":20000}";
    int probes = argc > 1 ? atoi(argv[1]) : 200;
    atomic_int stop = 0;
    char ids[3][32];
    loader_t gen[2], boards;
    tsrv_t s;

    if (probes < 10) probes = 10;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (tsrv_start(&s, args, NULL) != 0) {
        fprintf(stderr, "bench_fair: the server did not start\n");
        return 1;
    }
    printf("\nStarvation probe: GET count n=12 one at a time (server --threads 2, default "
           "--background-threads 1)\n");
    double idle = probe(&s, "idle server", probes);
    for (int i = 0; i < 3; i++)
        start_async(&s, "/v1/nqueens/count?n=27", ids[i]);
    loader_start(&gen[0], &s, "/v1/sudoku/generate", gen25, &stop);
    struct timespec settle = {0, 300 * 1000000};
    nanosleep(&settle, NULL);
    double a = probe(&s, "3 async n=27 counts + a 25x25 generate loop", probes);
    loader_start(&gen[1], &s, "/v1/sudoku/generate", gen25, &stop);
    loader_start(&boards, &s, "/v1/nqueens/solve?n=10000000&method=minconflicts&output=summary",
                 NULL, &stop);
    nanosleep(&settle, NULL);
    double b = probe(&s, "... + 2 generate loops + a 10^7-queen board loop", probes);
    atomic_store(&stop, 1);
    pthread_join(gen[0].th, NULL);
    pthread_join(gen[1].th, NULL);
    pthread_join(boards.th, NULL);
    printf("  p99 against idle: %.1fx (issue's probe), %.1fx (worst mix)\n", a / idle, b / idle);
    printf("  meanwhile: %d + %d generates (%d + %d not 200), %d boards (%d not 200)\n",
           gen[0].done, gen[1].done, gen[0].failed, gen[1].failed, boards.done, boards.failed);
    for (int i = 0; i < 3; i++) {
        char url[256];
        hresp_t r;
        CURL *c = curl_easy_init();
        snprintf(url, sizeof url, "%s/v1/jobs/%s", s.base, ids[i]);
        http_do(c, "DELETE", url, NULL, 0, NULL, &r);
        hresp_free(&r);
        curl_easy_cleanup(c);
    }
    printf("  work budget: peak %.1f MB of %.1f MB\n",
           tsrv_metric(&s, "puzzled_memory_peak_bytes{budget=\"work\"}") / 1e6,
           tsrv_metric(&s, "puzzled_memory_budget_bytes{budget=\"work\"}") / 1e6);
    tsrv_stop(&s, SIGTERM, 30000);
    curl_global_cleanup();
    return 0;
}
