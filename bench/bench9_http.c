/* bench9_http.c -- what POST /v1/sudoku/batch costs next to calling the 9x9
 * solver in process: the second half of `make bench9`.
 *
 *   bench9_http [-r RUNS] [FILE...]
 *
 *   FILE  as for bench9 (default: each 9x9 collection of ../shared/data that
 *         is present); the file is sent as it is, comments included.
 *   -r    runs per row, the best one printed (default 3): the machines are
 *         noisy, and the best run is the one least disturbed.
 *
 * Starts the real server ($PUZZLED_BIN, default ./build/puzzled) on a
 * loopback port with --threads 2 and limits big enough for the file, then
 * prints per collection, in one run: the fast solver in process (one thread,
 * puzzles in memory, max_solutions 2), and the whole file through the batch
 * endpoint with threads=1 and threads=2 at max_solutions 2, and threads=2 at
 * 1: puzzles/s, microseconds per puzzle, when the first answer line arrived
 * (the answer streams while the batch runs), and the time relative to the
 * in-process run.  Every answer line is checked (count,
 * order, solution against givens and rules, "multiple" only where the
 * in-process solver found two); "bad" counts failures and makes the exit
 * code 1. */
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "solvers/sudoku/sudoku.h"
#include "solvers/sudoku/sudoku9.h"
#include "tests/http_client.h"

typedef struct file_s {
    char *raw; /* the file as sent */
    size_t rawlen;
    uint8_t *p;     /* n * 81 puzzles */
    uint8_t *count; /* in-process solutions found at max 2 */
    size_t n;
} file_t;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads the file and the puzzles in it, the way the endpoint does. */
static int load(const char *path, file_t *f) {
    FILE *fp = fopen(path, "rb");
    memset(f, 0, sizeof *f);
    if (fp == NULL) return -1;
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    f->raw = malloc((size_t)size + 1);
    f->p = malloc(((size_t)size / 81 + 1) * 81);
    if (f->raw == NULL || f->p == NULL || fread(f->raw, 1, (size_t)size, fp) != (size_t)size) {
        fclose(fp);
        return -1;
    }
    fclose(fp);
    f->rawlen = (size_t)size;
    f->raw[size] = '\0';
    for (char *line = f->raw, *end; *line; line = end + (*end != '\0')) {
        end = strchr(line, '\n');
        if (end == NULL) end = line + strlen(line);
        size_t a = 0, b = (size_t)(end - line);
        while (a < b && (line[a] == ' ' || line[a] == '\t' || line[a] == '\r'))
            a++;
        while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t' || line[b - 1] == '\r'))
            b--;
        if (a == b || line[a] == '#') continue;
        uint8_t *g = f->p + 81 * f->n++;
        for (size_t i = 0; i < 81; i++)
            g[i] = i < b - a && line[a + i] >= '1' && line[a + i] <= '9'
                       ? (uint8_t)(line[a + i] - '0')
                       : 0;
    }
    f->count = calloc(f->n ? f->n : 1, 1);
    return f->count ? 0 : -1;
}

/* In process, one thread, max_solutions 2: seconds. */
static double in_process(file_t *f) {
    uint8_t sols[2 * 81];
    double t0 = now_s();
    for (size_t i = 0; i < f->n; i++) {
        sudoku9_result_t r;
        sudoku9_solve(f->p + 81 * i, 2, sols, NULL, &r);
        f->count[i] = (uint8_t)r.solutions_found;
    }
    return now_s() - t0;
}

/* Checks an answer body; returns the number of bad lines. */
static size_t check(const file_t *f, const char *body, int max_solutions) {
    sudoku_shape_t s;
    size_t bad = 0, i = 0;
    const char *p = body;
    sudoku_shape_init(&s, 9, 3, 3);
    for (; i < f->n; i++) {
        const char *nl = strchr(p, '\n');
        if (nl == NULL) break;
        size_t len = (size_t)(nl - p);
        int many = f->count[i] >= 2 && max_solutions == 2;
        if (many) {
            bad += len != 8 || strncmp(p, "multiple", 8) != 0;
        } else if (f->count[i] == 0) {
            bad += len != 10 || strncmp(p, "unsolvable", 10) != 0;
        } else {
            uint8_t g[81];
            int ok = len == 81;
            for (size_t c = 0; ok && c < 81; c++) {
                ok = p[c] >= '1' && p[c] <= '9';
                g[c] = (uint8_t)(p[c] - '0');
            }
            bad += !ok || !sudoku_check_solution(&s, f->p + 81 * i, g);
        }
        p = nl + 1;
    }
    return bad + (f->n - i) + (*p != '\0');
}

typedef struct row_s {
    double wall, ttfb;
    size_t bad;
} row_t;

typedef struct sink_s {
    char *buf;
    size_t len, cap;
    double t0, first; /* request start; first body byte, seconds after it */
} sink_t;

static size_t sink_write(char *data, size_t size, size_t nmemb, void *cls) {
    sink_t *k = cls;
    size_t n = size * nmemb;
    if (k->len == 0 && n > 0) k->first = now_s() - k->t0;
    if (k->len + n + 1 > k->cap) {
        size_t cap = (k->len + n + 1) * 2;
        char *p = realloc(k->buf, cap);
        if (p == NULL) return 0;
        k->buf = p, k->cap = cap;
    }
    memcpy(k->buf + k->len, data, n);
    k->len += n;
    k->buf[k->len] = '\0';
    return n;
}

/* The whole file through the batch endpoint, best of `runs`: wall time and
 * when the first answer line arrived. */
static row_t over_http(const tsrv_t *srv, const file_t *f, int threads, int max_solutions,
                       int runs) {
    char url[256];
    row_t best = {1e30, 0, 0};
    snprintf(url, sizeof url, "%s/v1/sudoku/batch?threads=%d&max_solutions=%d&timeout_ms=600000",
             srv->base, threads, max_solutions);
    for (int k = 0; k < runs; k++) {
        CURL *c = curl_easy_init();
        struct curl_slist *h = curl_slist_append(NULL, "Content-Type: text/plain");
        sink_t sink = {NULL, 0, 0, now_s(), 0};
        long status = 0;
        curl_easy_setopt(c, CURLOPT_URL, url);
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, f->raw);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)f->rawlen);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink_write);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
        CURLcode rc = curl_easy_perform(c);
        double wall = now_s() - sink.t0;
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        size_t bad =
            rc == CURLE_OK && status == 200 && sink.buf ? check(f, sink.buf, max_solutions) : f->n;
        if (wall < best.wall) best = (row_t){wall, sink.first, best.bad};
        if (bad > best.bad) best.bad = bad;
        free(sink.buf);
        curl_slist_free_all(h);
        curl_easy_cleanup(c);
    }
    return best;
}

static void print_row(const char *name, size_t n, double wall, double ttfb, double base) {
    printf("  %-30s %10.0f %9.2f %10.2f %9.2f\n", name, (double)n / wall, wall * 1e6 / (double)n,
           ttfb * 1e3, wall / base);
}

int main(int argc, char **argv) {
    static const char *const defaults[] = {"../shared/data/sudoku9/puzzles2_17_clue",
                                           "../shared/data/sudoku9/puzzles3_magictour_top1465",
                                           "../shared/data/sudoku9/puzzles6_forum_hardest_1106",
                                           "../shared/data/sudoku9/puzzles7_serg_benchmark"};
    static const char *const args[] = {"--threads",
                                       "2",
                                       "--max-batch-body",
                                       "268435456",
                                       "--max-batch-lines",
                                       "10000000",
                                       "--timeout-ms",
                                       "600000",
                                       NULL};
    int runs = 3, opt, nfiles;
    const char *const *files;
    size_t bad = 0;
    tsrv_t srv;

    while ((opt = getopt(argc, argv, "r:")) != -1) {
        if (opt == 'r' && atoi(optarg) > 0)
            runs = atoi(optarg);
        else {
            fprintf(stderr, "usage: bench9_http [-r RUNS] [FILE...]\n");
            return 2;
        }
    }
    files = optind < argc ? (const char *const *)argv + optind : defaults;
    nfiles = optind < argc ? argc - optind : (int)(sizeof defaults / sizeof defaults[0]);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (tsrv_start(&srv, args, NULL) != 0) {
        fprintf(stderr, "bench9_http: the server did not start (PUZZLED_BIN?)\n");
        return 1;
    }
    printf("POST /v1/sudoku/batch over loopback, server --threads 2, best of %d runs\n", runs);
    for (int i = 0; i < nfiles; i++) {
        file_t f;
        if (load(files[i], &f) != 0 || f.n == 0) {
            printf("%s: not present, skipped\n", files[i]);
            free(f.raw), free(f.p), free(f.count);
            continue;
        }
        const char *base = strrchr(files[i], '/') ? strrchr(files[i], '/') + 1 : files[i];
        double t = 1e30;
        for (int k = 0; k < runs; k++) {
            double x = in_process(&f);
            if (x < t) t = x;
        }
        printf("%s (%zu puzzles, %zu bytes)\n", base, f.n, f.rawlen);
        printf("  %-30s %10s %9s %10s %9s\n", "path", "puzzles/s", "us/puzzle", "1st line ms",
               "time/in-proc");
        print_row("in process, 1 thread, at 2", f.n, t, 0, t);
        static const struct {
            int threads, max;
            const char *name;
        } rows[] = {{1, 2, "HTTP, threads=1, at 2"},
                    {2, 2, "HTTP, threads=2, at 2"},
                    {2, 1, "HTTP, threads=2, at 1"}};
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
            row_t r = over_http(&srv, &f, rows[k].threads, rows[k].max, runs);
            print_row(rows[k].name, f.n, r.wall, r.ttfb, t);
            bad += r.bad;
        }
        printf("  checked every answer line: %zu bad\n", bad);
        free(f.raw), free(f.p), free(f.count);
    }
    tsrv_stop(&srv, SIGTERM, 10000);
    curl_global_cleanup();
    return bad ? 1 : 0;
}
