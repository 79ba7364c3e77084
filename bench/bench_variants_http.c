/* bench_variants_http.c -- every janko.at variant puzzle of a folder sent to
 * a real server, as a client would send it (`make bench-variants`).
 *
 *   bench_variants_http [-d DIR] [-p SECONDS] [-k PUZZLES]
 *
 *   -d  the folder (default ../shared/data/variants): every *Sudoku.jsonl in
 *       it, in name order; a held-out folder in the same format works alike
 *   -p  timeout_ms of each request, in seconds (default 60)
 *   -k  at most this many puzzles a file (default all)
 *
 * Starts $PUZZLED_BIN (default ./build/puzzled; --threads 2) on a loopback
 * port.  Each line is decoded by bench/janko.c into the request body of
 * docs/variants.md, sent to POST /v1/sudoku/solve with max_solutions 2 on
 * one keep-alive connection, and the answer is checked: solved when the
 * server answers 200 with "unique": true and a first solution equal to the
 * file's (cell by cell; holes are null); not proved unique when it answers
 * a second solution or stops at the deadline; wrong otherwise (another
 * grid, no solution, a 4xx or 5xx).  The server checks every solution it
 * sends against the rules itself; this client checks it against the file.
 *
 * Output: a line per file (puzzles, solved, wrong, unproved, the client's
 * median and worst milliseconds, the server's median elapsed_ms), the
 * files it cannot read named with why, and last
 *   variants: N solved, W wrong, U not proved unique, S skipped
 * (S: the puzzles of files it cannot read).  Exit 1 when W or U is not 0. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/janko.h"
#include "tests/http_client.h"

#define MAX_FILES 64

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct totals_s {
    long solved, wrong, unproved, skipped;
} totals_t;

/* Whether grid (rows arrays, null on holes and empty cells) equals sol. */
static int same_grid(json_t *grid, const janko_t *j) {
    if (json_array_size(grid) != (size_t)j->rows) return 0;
    for (int r = 0; r < j->rows; r++) {
        json_t *row = json_array_get(grid, (size_t)r);
        if (json_array_size(row) != (size_t)j->cols) return 0;
        for (int c = 0; c < j->cols; c++) {
            json_t *v = json_array_get(row, (size_t)c);
            long long x = json_is_integer(v) ? json_integer_value(v) : 0;
            if (x != j->solution[r * j->cols + c]) return 0;
        }
    }
    return 1;
}

/* One answer: 1 solved, 0 not proved unique, -1 wrong (*why says how). */
static int judge(const hresp_t *r, const janko_t *j, double *server_ms, const char **why) {
    json_t *a = json_loads(r->body != NULL ? r->body : "", 0, NULL), *sols, *u;
    const char *status;
    int out = -1;
    *server_ms = 0;
    if (r->status != 200 || a == NULL) {
        *why = r->status >= 500 ? "a 5xx answer" : r->status >= 400 ? "a 4xx answer" : "no JSON";
        json_decref(a);
        return -1;
    }
    status = json_string_value(json_object_get(a, "status"));
    sols = json_object_get(a, "solutions");
    u = json_object_get(a, "unique");
    *server_ms = json_number_value(json_object_get(json_object_get(a, "stats"), "elapsed_ms"));
    if (json_array_size(sols) == 0) {
        *why = status != NULL && strcmp(status, "timeout") == 0 ? "stopped by the deadline"
                                                                : "no solution";
        out = status != NULL && strcmp(status, "timeout") == 0 ? 0 : -1;
    } else if (!same_grid(json_array_get(sols, 0), j) &&
               !(json_array_size(sols) > 1 && same_grid(json_array_get(sols, 1), j))) {
        *why = "a solution that is not the file's";
    } else if (!json_is_true(u)) {
        *why = json_array_size(sols) > 1 ? "a second solution" : "uniqueness not settled";
        out = 0;
    } else {
        out = 1;
    }
    json_decref(a);
    return out;
}

static void run_file(const tsrv_t *s, CURL *c, const char *path, const char *variant,
                     double limit_s, long max_puzzles, totals_t *tot) {
    static const char *const hdr[] = {"Content-Type: application/json", NULL};
    FILE *f = fopen(path, "r");
    char *line = NULL, err[160], url[128];
    size_t cap = 0;
    long count = 0, solved = 0, wrong = 0, unproved = 0, nt = 0;
    double *wall = NULL, *server = NULL;
    if (f == NULL) {
        printf("%-12s cannot open %s\n", variant, path);
        return;
    }
    snprintf(url, sizeof url, "%s/v1/sudoku/solve", s->base);
    while (getline(&line, &cap, f) > 0 && (max_puzzles == 0 || count < max_puzzles)) {
        janko_t j;
        hresp_t r;
        char *body;
        const char *why = "";
        double t0, sms;
        int out;
        count++;
        if (janko_decode(variant, line, &j, err, sizeof err) != 0) {
            printf("  line %ld: %s\n", count, err);
            wrong++;
            continue;
        }
        json_object_set_new(j.request, "max_solutions", json_integer(2));
        json_object_set_new(j.request, "timeout_ms", json_integer((json_int_t)(limit_s * 1000)));
        body = json_dumps(j.request, JSON_COMPACT);
        if (body == NULL) exit(2);
        t0 = now_ms();
        http_do(c, "POST", url, body, strlen(body), hdr, &r);
        out = judge(&r, &j, &sms, &why);
        if ((wall = realloc(wall, (size_t)(nt + 1) * sizeof *wall)) == NULL ||
            (server = realloc(server, (size_t)(nt + 1) * sizeof *server)) == NULL)
            exit(2);
        wall[nt] = now_ms() - t0;
        server[nt++] = sms;
        if (out != 1)
            printf("  %s: %s (HTTP %ld) %.200s\n", j.id, why, r.status, r.body ? r.body : "");
        solved += out == 1;
        unproved += out == 0;
        wrong += out < 0;
        hresp_free(&r);
        free(body);
        janko_free(&j);
    }
    free(line);
    fclose(f);
    qsort(wall, (size_t)nt, sizeof *wall, cmp_double);
    qsort(server, (size_t)nt, sizeof *server, cmp_double);
    printf("%-12s %7ld %7ld %6ld %8ld %10.2f %10.2f %10.2f\n", variant, count, solved, wrong,
           unproved, nt ? wall[nt / 2] : 0.0, nt ? wall[nt - 1] : 0.0, nt ? server[nt / 2] : 0.0);
    free(wall);
    free(server);
    tot->solved += solved;
    tot->wrong += wrong;
    tot->unproved += unproved;
}

int main(int argc, char **argv) {
    static const char *const args[] = {"--threads", "2", "--timeout-ms", "600000", NULL};
    const char *dir = "../shared/data/variants";
    char *names[MAX_FILES], path[1024], skipped[4096] = "";
    double limit_s = 60;
    long max_puzzles = 0;
    int nfiles = 0;
    totals_t tot = {0, 0, 0, 0};
    tsrv_t s;
    CURL *c;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            limit_s = atof(argv[++i]);
        else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
            max_puzzles = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_variants_http [-d DIR] [-p SECONDS] [-k PUZZLES]\n");
            return 2;
        }
    }
    if (limit_s < 0.001) limit_s = 0.001;
    if ((nfiles = janko_list(dir, names, MAX_FILES)) < 0) {
        printf("bench_variants_http: no folder %s (skipped)\n", dir);
        printf("variants: 0 solved, 0 wrong, 0 not proved unique, 0 skipped\n");
        return 0;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (tsrv_start(&s, args, NULL) != 0) {
        fprintf(stderr, "bench_variants_http: the server did not start\n");
        return 1;
    }
    c = curl_easy_init();
    printf("bench_variants_http: %s through %s, POST /v1/sudoku/solve, max_solutions 2, "
           "timeout_ms %.0f\n",
           dir, s.base, limit_s * 1000);
    printf("%-12s %7s %7s %6s %8s %10s %10s %10s\n", "variant", "puzzles", "solved", "wrong",
           "unproved", "median ms", "worst ms", "server ms");
    for (int i = 0; i < nfiles; i++) {
        const char *why = NULL, *variant;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        variant = janko_file_variant(path, &why);
        if (variant == NULL) {
            long k = janko_count_lines(path);
            tot.skipped += k;
            snprintf(skipped + strlen(skipped), sizeof skipped - strlen(skipped),
                     "skipped: %s (%ld puzzles): %s\n", names[i], k, why);
        } else {
            run_file(&s, c, path, variant, limit_s, max_puzzles, &tot);
        }
        free(names[i]);
    }
    curl_easy_cleanup(c);
    tsrv_stop(&s, SIGTERM, 20000);
    printf("%s", skipped);
    printf("variants: %ld solved, %ld wrong, %ld not proved unique, %ld skipped\n", tot.solved,
           tot.wrong, tot.unproved, tot.skipped);
    return tot.wrong == 0 && tot.unproved == 0 ? 0 : 1;
}
