/* bench_constraints_http.c -- every puzzle of a file in the ISS_FORMAT of
 * ../shared/data/variants/ (sigh's Interactive Sudoku Solver's examples,
 * one JSON object a line) sent to a real server (`make bench-constraints`).
 *
 *   bench_constraints_http [-f FILE] [-p SECONDS]   (timeout_ms of each request:
 *                                                    default 30 s, under the
 *                                                    client's 60 s)
 *   bench_constraints_http [-f FILE] [-p SECONDS] -o DIR [-m N]
 *
 * With -o, no server is started: each record's request (max_solutions N,
 * default 2) is written to DIR/<id>.json, for a client of one's own
 * (bench/compare/constraints.sh); any character of the id outside
 * [A-Za-z0-9._-] becomes '_' in the file name.
 *
 * A record {size, box, regions, givens, constraints, strict, solution,
 * unique} becomes the request a client would send to POST
 * /v1/sudoku/solve: the givens as a string grid ('.' empty, then 1-9 and
 * A-Z), `box` {"rows", "cols"} (no box: a 1 x N "box", rows and columns
 * only), jigsaw `regions` (with `variant` "jigsaw" when there is no box,
 * else as extra units beside the boxes), the constraints as they stand
 * (the API reads ISS's shapes), `strict` as constraints of type
 * strict-kropki / strict-xv, and max_solutions 2.
 *
 * Judged: solved when the answer's first solution is the file's (or, when
 * the file says the puzzle is not unique, any solution: the server checks
 * every rule of every solution it sends); a search stopped by the
 * deadline counts as wrong (and is named so); uniqueness wrong
 * when the server's "unique" differs from the file's (a file's null is not
 * judged); wrong for another grid, no solution or a 5xx; unsupported when
 * the server answers 400 naming a constraint type (or a member: sum-line's
 * loop) it does not read.
 * Output: a line per constraint type (puzzles that have it, solved, median
 * and worst ms of those), the unsupported types, and last
 *   constraints: N solved, W wrong, U uniqueness wrong, S unsupported
 * Exit 1 when W or U is not 0. */
#include <ctype.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "tests/http_client.h"

#define MAX_TYPES 64

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct type_stat_s {
    char name[32];
    int puzzles, solved;
    double ms[512];
    int nms;
} type_stat_t;

static type_stat_t *type_of(type_stat_t *ts, int *nts, const char *name) {
    for (int i = 0; i < *nts; i++)
        if (strcmp(ts[i].name, name) == 0) return &ts[i];
    if (*nts == MAX_TYPES) return NULL;
    memset(&ts[*nts], 0, sizeof ts[*nts]);
    snprintf(ts[*nts].name, sizeof ts[*nts].name, "%s", name);
    return &ts[(*nts)++];
}

/* The request body of one record, asking for up to `max_solutions`; NULL on
 * a record it cannot read. */
static json_t *request_of(json_t *rec, int max_solutions) {
    json_t *req = json_object(), *box = json_object_get(rec, "box"),
           *regions = json_object_get(rec, "regions"), *cons = json_array(), *e;
    int n = (int)json_integer_value(json_object_get(rec, "size"));
    char grid[64 * 64 + 1];
    size_t i;
    if (n < 4 || n > 35) {
        json_decref(req);
        json_decref(cons);
        return NULL;
    }
    memset(grid, '.', (size_t)(n * n));
    grid[n * n] = '\0';
    json_array_foreach(json_object_get(rec, "givens"), i, e) {
        int r = (int)json_integer_value(json_array_get(e, 0)),
            c = (int)json_integer_value(json_array_get(e, 1)),
            v = (int)json_integer_value(json_array_get(e, 2));
        if (r >= 0 && r < n && c >= 0 && c < n && v >= 1 && v <= n)
            grid[r * n + c] = (char)(v <= 9 ? '0' + v : 'A' + v - 10);
    }
    json_object_set_new(req, "grid", json_string(grid));
    if (json_is_array(box))
        json_object_set_new(
            req, "box",
            json_pack("{s:O,s:O}", "rows", json_array_get(box, 0), "cols", json_array_get(box, 1)));
    if (json_is_array(regions) && !json_is_array(box)) {
        json_object_set_new(req, "variant", json_string("jigsaw"));
        json_object_set(req, "regions", regions);
    } else if (json_is_array(regions)) { /* regions beside the boxes: extra units */
        json_t *units = json_array();
        for (int id = 0; id < n; id++) {
            json_t *u = json_array();
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++)
                    if (json_integer_value(
                            json_array_get(json_array_get(regions, (size_t)r), (size_t)c)) == id)
                        json_array_append_new(u, json_pack("[i,i]", r, c));
            json_array_append_new(units, u);
        }
        json_object_set_new(req, "extra_units", units);
    } else if (!json_is_array(box)) {
        json_object_set_new(req, "box", json_pack("{s:i,s:i}", "rows", 1, "cols", n));
    }
    json_array_extend(cons, json_object_get(rec, "constraints"));
    json_array_foreach(json_object_get(rec, "strict"), i, e) {
        char t[32];
        snprintf(t, sizeof t, "strict-%s", json_string_value(e) ? json_string_value(e) : "?");
        json_array_append_new(cons, json_pack("{s:s}", "type", t));
    }
    if (json_array_size(cons) > 0)
        json_object_set_new(req, "constraints", cons);
    else
        json_decref(cons);
    json_object_set_new(req, "max_solutions", json_integer(max_solutions));
    return req;
}

/* -o: every record's request, timeout_ms `limit_s` s, written to DIR/<id>.json.
 * Returns the exit status: 0, or 1 when a record could not be read or a
 * file not written (each said on stderr). */
static int write_requests(const char *path, const char *dir, int max_solutions, double limit_s) {
    FILE *f = fopen(path, "r");
    char *line = NULL, name[4096], safe[256];
    size_t cap = 0;
    int written = 0, bad = 0;
    if (f == NULL) {
        printf("bench_constraints_http: no file %s (skipped)\n", path);
        return 0;
    }
    while (getline(&line, &cap, f) > 0) {
        json_t *rec = json_loads(line, 0, NULL), *req;
        const char *id = json_string_value(json_object_get(rec, "id"));
        int len;
        if (rec == NULL) continue;
        if (id == NULL || (req = request_of(rec, max_solutions)) == NULL) {
            fprintf(stderr, "  %s: a record this client cannot read\n", id ? id : "?");
            bad++;
            json_decref(rec);
            continue;
        }
        json_object_set_new(req, "timeout_ms", json_integer((json_int_t)(limit_s * 1000)));
        snprintf(safe, sizeof safe, "%s", id);
        for (char *q = safe; *q; q++)
            if (!isalnum((unsigned char)*q) && *q != '.' && *q != '-') *q = '_';
        len = snprintf(name, sizeof name, "%s/%s.json", dir, safe);
        if (len < 0 || (size_t)len >= sizeof name || json_dump_file(req, name, JSON_COMPACT) != 0) {
            fprintf(stderr, "  %s: cannot write %s\n", id, name);
            bad++;
        } else {
            written++;
        }
        json_decref(req);
        json_decref(rec);
    }
    free(line);
    fclose(f);
    printf("bench_constraints_http: %d requests (max_solutions %d) written to %s\n", written,
           max_solutions, dir);
    return bad == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    static const char *const args[] = {"--threads", "2", "--timeout-ms", "600000", NULL};
    static const char *const hdr[] = {"Content-Type: application/json", NULL};
    const char *path = "../shared/data/variants/iss_constraints.jsonl";
    static type_stat_t ts[MAX_TYPES];
    int nts = 0;
    long solved = 0, wrong = 0, uwrong = 0, unsupported = 0, count = 0, timeouts = 0;
    double limit_s = 30; /* under the client's 60 s: the server answers "timeout" first */
    const char *outdir = NULL;
    int max_solutions = 2;
    char *line = NULL, url[128], unsup[2048] = "";
    size_t cap = 0;
    tsrv_t s;
    CURL *c;
    FILE *f;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
            path = argv[++i];
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            limit_s = atof(argv[++i]);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            outdir = argv[++i];
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            max_solutions = atoi(argv[++i]);
        else {
            fprintf(stderr,
                    "usage: bench_constraints_http [-f FILE] [-p SECONDS] [-o DIR [-m N]]\n");
            return 2;
        }
    }
    if (outdir != NULL) return write_requests(path, outdir, max_solutions, limit_s);
    if ((f = fopen(path, "r")) == NULL) {
        printf("bench_constraints_http: no file %s (skipped)\n", path);
        printf("constraints: 0 solved, 0 wrong, 0 uniqueness wrong, 0 unsupported\n");
        return 0;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (tsrv_start(&s, args, NULL) != 0) {
        fprintf(stderr, "bench_constraints_http: the server did not start\n");
        return 1;
    }
    c = curl_easy_init();
    snprintf(url, sizeof url, "%s/v1/sudoku/solve", s.base);
    printf("bench_constraints_http: %s through %s, POST /v1/sudoku/solve, max_solutions 2, "
           "timeout_ms %.0f\n",
           path, s.base, limit_s * 1000);
    while (getline(&line, &cap, f) > 0) {
        json_t *rec = json_loads(line, 0, NULL), *req, *a = NULL, *sols, *e;
        const char *id = json_string_value(json_object_get(rec, "id")), *sol, *first;
        char *body;
        hresp_t r;
        double t0, ms;
        int out = -1, k;
        size_t i;
        if (rec == NULL) continue;
        count++;
        if ((req = request_of(rec, 2)) == NULL) {
            printf("  %s: a record this client cannot read\n", id ? id : "?");
            wrong++;
            json_decref(rec);
            continue;
        }
        json_object_set_new(req, "timeout_ms", json_integer((json_int_t)(limit_s * 1000)));
        body = json_dumps(req, JSON_COMPACT);
        t0 = now_ms();
        http_do(c, "POST", url, body, strlen(body), hdr, &r);
        ms = now_ms() - t0;
        a = json_loads(r.body ? r.body : "", 0, NULL);
        sol = json_string_value(json_object_get(rec, "solution"));
        sols = json_object_get(a, "solutions");
        first = json_string_value(json_array_get(sols, 0));
        if (r.status == 400 && r.body &&
            (strstr(r.body, "is not a constraint this server reads") ||
             strstr(r.body, "is not read yet"))) {
            const char *q = strstr(r.body, "'"), *q2 = q ? strchr(q + 1, '\'') : NULL;
            char t[40];
            if (strstr(r.body, "is not read yet")) q = NULL; /* a member: sum-line's loop */
            snprintf(t, sizeof t, "%.*s", q && q2 ? (int)(q2 - q - 1) : 13,
                     q && q2 ? q + 1 : "sum-line loop");
            if (strstr(unsup, t) == NULL && strlen(unsup) + strlen(t) + 3 < sizeof unsup)
                snprintf(unsup + strlen(unsup), sizeof unsup - strlen(unsup), "%s%s",
                         unsup[0] ? ", " : "", t);
            unsupported++;
            out = 2;
        } else if (r.status == 200 && first == NULL &&
                   strcmp(json_string_value(json_object_get(a, "status")), "timeout") == 0) {
            printf("  %s: stopped by the deadline (counted as wrong)\n", id ? id : "?");
            timeouts++;
            wrong++;
        } else if (r.status != 200 || first == NULL || sol == NULL) {
            printf("  %s: HTTP %ld %.300s\n", id ? id : "?", r.status, r.body ? r.body : "");
            wrong++;
        } else if (!json_is_false(json_object_get(rec, "unique")) && strcasecmp(first, sol) != 0 &&
                   !(json_array_size(sols) > 1 &&
                     strcasecmp(json_string_value(json_array_get(sols, 1)), sol) == 0)) {
            /* (a puzzle the file says is not unique: any solution, the server checked it) */
            printf("  %s: a solution that is not the file's\n", id ? id : "?");
            wrong++;
        } else {
            json_t *fu = json_object_get(rec, "unique");
            out = 1;
            solved++;
            if (!json_is_null(fu) && json_is_false(json_object_get(a, "complete"))) {
                printf("  %s: uniqueness not settled by the deadline (counted as wrong)\n",
                       id ? id : "?");
                solved--;
                out = -1;
                timeouts++;
                wrong++;
            } else if (!json_is_null(fu) &&
                       json_is_true(fu) != json_is_true(json_object_get(a, "unique"))) {
                printf("  %s: unique %s, the file says %s\n", id ? id : "?",
                       json_is_true(json_object_get(a, "unique")) ? "true" : "false",
                       json_is_true(fu) ? "true" : "false");
                uwrong++;
            }
        }
        /* per type: each type the puzzle has, once */
        {
            const char *seen[64];
            int nseen = 0;
            json_array_foreach(json_object_get(rec, "constraints"), i, e) {
                const char *t = json_string_value(json_object_get(e, "type"));
                int dup = 0;
                type_stat_t *st;
                for (k = 0; k < nseen; k++)
                    dup |= t && strcmp(seen[k], t) == 0;
                if (t == NULL || dup || nseen == 64 || (st = type_of(ts, &nts, t)) == NULL)
                    continue;
                seen[nseen++] = t;
                st->puzzles++;
                st->solved += out == 1;
                if (out == 1 && st->nms < 512) st->ms[st->nms++] = ms;
            }
            if (nseen == 0) {
                type_stat_t *st = type_of(ts, &nts, "(givens only)");
                if (st != NULL) {
                    st->puzzles++;
                    st->solved += out == 1;
                    if (out == 1 && st->nms < 512) st->ms[st->nms++] = ms;
                }
            }
        }
        json_decref(a);
        hresp_free(&r);
        free(body);
        json_decref(req);
        json_decref(rec);
    }
    free(line);
    fclose(f);
    curl_easy_cleanup(c);
    tsrv_stop(&s, SIGTERM, 20000);
    printf("%-18s %7s %7s %10s %10s\n", "type", "puzzles", "solved", "median ms", "worst ms");
    for (int i = 0; i < nts; i++) {
        qsort(ts[i].ms, (size_t)ts[i].nms, sizeof ts[i].ms[0], cmp_double);
        printf("%-18s %7d %7d %10.2f %10.2f\n", ts[i].name, ts[i].puzzles, ts[i].solved,
               ts[i].nms ? ts[i].ms[ts[i].nms / 2] : 0.0,
               ts[i].nms ? ts[i].ms[ts[i].nms - 1] : 0.0);
    }
    if (unsup[0]) printf("unsupported types: %s\n", unsup);
    printf("stopped by the deadline: %ld (among the wrong)\n", timeouts);
    printf("constraints: %ld solved, %ld wrong, %ld uniqueness wrong, %ld unsupported\n", solved,
           wrong, uwrong, unsupported);
    (void)count;
    return wrong == 0 && uwrong == 0 ? 0 : 1;
}
