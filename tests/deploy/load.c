/* load.c -- the load of `make test-deploy`: mixed puzzled requests, every
 * answer checked, the figures printed.
 *
 *   load --url http://127.0.0.1:PORT --seconds S [--concurrency C]
 *        [--fixtures DIR] [--control FILE] [--source ADDR]
 *
 * One thread, one libcurl multi handle, C transfers in flight at all times
 * (keep-alive connections, every 16th request on a fresh one), for S
 * seconds.  A request is one of these kinds, drawn at random:
 *
 *   count   GET /v1/nqueens/count?n=1..12       count == the known value
 *   queens  GET /v1/nqueens/solve?n=4..24        n queens, none attacking
 *   sudoku  POST /v1/sudoku/solve, 9x9 fixtures  max_solutions 2: status and
 *           solutions_found follow the fixture's count; every solution keeps
 *           the givens and obeys the rules; a unique one equals the fixture's
 *   killer  POST /v1/killer/solve, fixtures up to 9x9 (Killer-X too): as for
 *           sudoku, plus every cage's sum and distinct digits
 *   batch   POST /v1/sudoku/batch?max_solutions=2, the nine 9x9 fixtures and
 *           one malformed line: one answer line each, in order, each right
 *   job     GET /v1/nqueens/count?n=10 with Prefer: respond-async, 202, then
 *           its /events stream to "event: done", count 724.
 *
 * A request fails on a transport error, a status other than the expected
 * one (200; 202 for job creation), an X-Request-Id other than the one sent,
 * or a wrong answer.  The exit status is 1 if any request failed or any
 * kind that ran had no success.
 *
 * --control FILE lets the test hold kinds while it kills a replica: the
 * file holds the names of the kinds to hold ("batch job"); held kinds start
 * no new request, and once none of them is in flight the client writes the
 * same words to FILE.ack.  Why: nginx retries a request on another replica
 * only until the first byte of its answer went to the client, and a batch
 * (or an event stream) answers from its first moment, so SIGKILL cuts the
 * one in flight; that is the nature of streaming, not something a proxy
 * can hide (README, Deployment).
 *
 * Latencies are per request (a job: creation to the end of its stream);
 * p50/p99 are over all kinds, then per kind. */
#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/contract/record.h"

enum { K_COUNT, K_QUEENS, K_SUDOKU, K_KILLER, K_BATCH, K_JOB, K_N };
static const char *const kind_name[K_N] = {"count", "queens", "sudoku", "killer", "batch", "job"};
/* Relative weights of the kinds in the mix. */
static const int kind_weight[K_N] = {30, 12, 25, 20, 8, 5};

#define MAX_C          64
#define MAX_FX         256
#define MAX_FAIL_SHOWN 12

/* === Fixtures ============================================================= */

typedef struct sudoku_fx_s {
    char puzzle[82];
    int count; /* exact, or -2 for "at least 2" */
    char solution[82];
    char body[128]; /* the JSON request */
} sudoku_fx_t;

typedef struct killer_fx_s {
    int n, br, bc, diag, count;
    int ncages;
    int cage_sum[81];
    int cage_len[81];
    int cage_cell[81][81]; /* r * n + c */
    int solution[81];      /* when count == 1 */
    char *body;            /* the JSON request */
} killer_fx_t;

static sudoku_fx_t sudoku_fx[MAX_FX];
static int n_sudoku;
static killer_fx_t killer_fx[MAX_FX];
static int n_killer;
static char *batch_body;

static const long long queens_count[13] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("load: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static FILE *open_fixture(const char *dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL) die("cannot open %s: %s", path, strerror(errno));
    return f;
}

/* tests/fixtures/sudoku_9.txt: puzzle:count:solution, '#' comments. */
static void load_sudoku(const char *dir) {
    FILE *f = open_fixture(dir, "sudoku_9.txt");
    char line[512];
    size_t len = 0, cap = 4096;
    batch_body = malloc(cap);
    if (batch_body == NULL) die("out of memory");
    while (fgets(line, sizeof line, f) != NULL && n_sudoku < MAX_FX) {
        sudoku_fx_t *fx = &sudoku_fx[n_sudoku];
        char *a = line, *b, *c;
        if (line[0] == '#' || line[0] == '\n') continue;
        if ((b = strchr(a, ':')) == NULL || (c = strchr(b + 1, ':')) == NULL) continue;
        *b++ = '\0';
        *c++ = '\0';
        c[strcspn(c, "\r\n")] = '\0';
        if (strlen(a) != 81) die("sudoku_9.txt: a puzzle of %zu cells", strlen(a));
        memcpy(fx->puzzle, a, 82);
        fx->count = strchr(b, '+') != NULL ? -2 : atoi(b);
        if (fx->count == 1 && strlen(c) != 81)
            die("sudoku_9.txt: a unique puzzle without solution");
        snprintf(fx->solution, sizeof fx->solution, "%s", c);
        snprintf(fx->body, sizeof fx->body, "{\"grid\":\"%s\",\"max_solutions\":2}", a);
        len += (size_t)snprintf(batch_body + len, cap - len, "%s\n", fx->puzzle);
        n_sudoku++;
    }
    fclose(f);
    /* One malformed line: the batch answers "invalid: ..." for it and goes on. */
    snprintf(batch_body + len, cap - len, "12x4\n");
    if (n_sudoku == 0) die("no 9x9 Sudoku fixtures");
}

/* tests/fixtures/killer_basic.txt:
 *   N BRxBC D | SYMBOLS | GIVENS | CAGES | COUNT | SOLUTION
 * Only the puzzles with plain symbols and no givens, N <= 9. */
static void load_killer(const char *dir) {
    FILE *f = open_fixture(dir, "killer_basic.txt");
    char line[8192];
    while (fgets(line, sizeof line, f) != NULL && n_killer < MAX_FX) {
        killer_fx_t *fx = &killer_fx[n_killer];
        char *field[6], *save = NULL, *p;
        int nf = 0;
        if (line[0] == '#' || line[0] == '\n') continue;
        for (p = strtok_r(line, "|", &save); p != NULL && nf < 6; p = strtok_r(NULL, "|", &save))
            field[nf++] = p;
        if (nf != 6) continue;
        memset(fx, 0, sizeof *fx);
        if (sscanf(field[0], "%d %dx%d %d", &fx->n, &fx->br, &fx->bc, &fx->diag) != 4) continue;
        if (fx->n > 9 || strstr(field[1], "-") == NULL || strstr(field[2], "-") == NULL) continue;
        fx->count = atoi(field[4]);
        json_t *cages = json_array();
        char *csave = NULL;
        for (char *cage = strtok_r(field[3], ";", &csave); cage != NULL;
             cage = strtok_r(NULL, ";", &csave)) {
            int sum, r, c, k = fx->ncages;
            char *rest, *tok, *tsave = NULL;
            if (sscanf(cage, " %d:", &sum) != 1) die("killer_basic.txt: bad cage '%s'", cage);
            rest = strchr(cage, ':') + 1;
            json_t *cells = json_array();
            for (tok = strtok_r(rest, " \n", &tsave); tok != NULL;
                 tok = strtok_r(NULL, " \n", &tsave)) {
                if (sscanf(tok, "%d,%d", &r, &c) != 2) die("killer_basic.txt: bad cell '%s'", tok);
                fx->cage_cell[k][fx->cage_len[k]++] = r * fx->n + c;
                json_array_append_new(cells, json_pack("[i,i]", r, c));
            }
            fx->cage_sum[k] = sum;
            fx->ncages++;
            json_array_append_new(cages, json_pack("{s:i, s:o}", "sum", sum, "cells", cells));
        }
        if (fx->count == 1) {
            char *s = field[5];
            for (int i = 0; i < fx->n * fx->n; i++) {
                fx->solution[i] = (int)strtol(s, &s, 10);
                if (*s == ',') s++;
            }
        }
        json_t *req = json_pack("{s:{s:i, s:i}, s:o, s:b, s:i}", "box", "rows", fx->br, "cols",
                                fx->bc, "cages", cages, "diagonals", fx->diag, "max_solutions", 2);
        fx->body = json_dumps(req, JSON_COMPACT);
        json_decref(req);
        n_killer++;
    }
    fclose(f);
    if (n_killer == 0) die("no killer fixtures");
}

/* === Checks (NULL: right; otherwise why not, in `why`) ==================== */

static char why[512];

static const char *wrong(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return why;
}

/* Every row, column, box (br x bc) and, with diag, both diagonals hold
 * 1..n once; `v` is n*n values. */
static const char *check_grid(const int *v, int n, int br, int bc, int diag) {
    for (int u = 0; u < 3 * n + 2; u++) {
        unsigned seen = 0;
        if (u >= 3 * n && !diag) break;
        for (int k = 0; k < n; k++) {
            int cell;
            if (u < n)
                cell = u * n + k;
            else if (u < 2 * n)
                cell = k * n + (u - n);
            else if (u < 3 * n) {
                int b = u - 2 * n, boxes_across = n / bc;
                cell = ((b / boxes_across) * br + k / bc) * n + (b % boxes_across) * bc + k % bc;
            } else
                cell = u == 3 * n ? k * n + k : k * n + (n - 1 - k);
            if (v[cell] < 1 || v[cell] > n) return wrong("value %d out of range", v[cell]);
            if (seen & (1u << v[cell])) return wrong("unit %d repeats %d", u, v[cell]);
            seen |= 1u << v[cell];
        }
    }
    return NULL;
}

static const char *check_sudoku_string(const char *sol, const char *puzzle) {
    int v[81];
    if (sol == NULL || strlen(sol) != 81) return wrong("a solution that is not 81 digits");
    for (int i = 0; i < 81; i++) {
        if (sol[i] < '1' || sol[i] > '9') return wrong("solution cell %d is '%c'", i, sol[i]);
        if (puzzle[i] != '.' && puzzle[i] != '0' && puzzle[i] != sol[i])
            return wrong("solution changes the given at %d", i);
        v[i] = sol[i] - '0';
    }
    return check_grid(v, 9, 3, 3, 0);
}

static const char *check_count(json_t *d, int n) {
    json_t *c = json_object_get(d, "count");
    const char *st = json_string_value(json_object_get(d, "status"));
    if (st == NULL || strcmp(st, "complete") != 0) return wrong("count n=%d: status %s", n, st);
    if (!json_is_integer(c) || json_integer_value(c) != queens_count[n])
        return wrong("count n=%d: %lld, want %lld", n, (long long)json_integer_value(c),
                     queens_count[n]);
    return NULL;
}

static const char *check_queens(json_t *d, int n) {
    json_t *q = json_object_get(d, "queens");
    const char *st = json_string_value(json_object_get(d, "status"));
    int col[64];
    if (st == NULL || strcmp(st, "solved") != 0) return wrong("queens n=%d: status %s", n, st);
    if (!json_is_array(q) || (int)json_array_size(q) != n) return wrong("queens n=%d: no board", n);
    for (int r = 0; r < n; r++) {
        col[r] = (int)json_integer_value(json_array_get(q, (size_t)r));
        if (col[r] < 0 || col[r] >= n) return wrong("queens n=%d: column %d", n, col[r]);
        for (int s = 0; s < r; s++)
            if (col[s] == col[r] || abs(col[s] - col[r]) == r - s)
                return wrong("queens n=%d: rows %d and %d attack", n, s, r);
    }
    return NULL;
}

/* max_solutions 2: what status and solutions_found a fixture's count means. */
static const char *check_verdict(json_t *d, int count) {
    const char *st = json_string_value(json_object_get(d, "status"));
    json_int_t found = json_integer_value(json_object_get(d, "solutions_found"));
    int want = count == -2 || count >= 2 ? 2 : count;
    const char *want_st = want == 0 ? "unsolvable" : want == 1 ? "solved" : "multiple";
    if (st == NULL || strcmp(st, want_st) != 0) return wrong("status %s, want %s", st, want_st);
    if (found != want) return wrong("solutions_found %lld, want %d", (long long)found, want);
    if (json_is_true(json_object_get(d, "unique")) != (want == 1)) return wrong("unique is wrong");
    return NULL;
}

static const char *check_sudoku(json_t *d, const sudoku_fx_t *fx) {
    const char *e = check_verdict(d, fx->count);
    json_t *sols = json_object_get(d, "solutions"), *s;
    size_t i;
    if (e != NULL) return e;
    if (fx->count == 0) return NULL;
    if ((int)json_array_size(sols) != (fx->count == 1 ? 1 : 2)) return wrong("solutions missing");
    json_array_foreach(sols, i, s) {
        if ((e = check_sudoku_string(json_string_value(s), fx->puzzle)) != NULL) return e;
    }
    if (fx->count == 1 &&
        strcmp(json_string_value(json_object_get(d, "solution")), fx->solution) != 0)
        return wrong("unique solution differs from the fixture's");
    return NULL;
}

static const char *check_killer(json_t *d, const killer_fx_t *fx) {
    const char *e = check_verdict(d, fx->count);
    json_t *sols = json_object_get(d, "solutions"), *s;
    size_t i;
    int n = fx->n, v[81];
    if (e != NULL) return e;
    if (fx->count == 0) return NULL;
    if ((int)json_array_size(sols) != (fx->count == 1 ? 1 : 2)) return wrong("solutions missing");
    json_array_foreach(sols, i, s) {
        if ((int)json_array_size(s) != n)
            return wrong("killer: a grid of %zu rows", json_array_size(s));
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                v[r * n + c] = (int)json_integer_value(
                    json_array_get(json_array_get(s, (size_t)r), (size_t)c));
        if ((e = check_grid(v, n, fx->br, fx->bc, fx->diag)) != NULL) return e;
        for (int k = 0; k < fx->ncages; k++) {
            unsigned seen = 0;
            int sum = 0;
            for (int j = 0; j < fx->cage_len[k]; j++) {
                int x = v[fx->cage_cell[k][j]];
                if (seen & (1u << x)) return wrong("killer: cage %d repeats %d", k, x);
                seen |= 1u << x;
                sum += x;
            }
            if (sum != fx->cage_sum[k])
                return wrong("killer: cage %d sums to %d, not %d", k, sum, fx->cage_sum[k]);
        }
        if (fx->count == 1 && memcmp(v, fx->solution, sizeof(int) * (size_t)(n * n)) != 0)
            return wrong("killer: unique solution differs from the fixture's");
    }
    return NULL;
}

/* The batch answers one line a puzzle, in order: the solution when unique,
 * "multiple", "unsolvable"; the malformed last line "invalid: ...". */
static const char *check_batch(const char *text) {
    const char *p = text;
    for (int i = 0; i <= n_sudoku; i++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
        char line[256];
        if (*p == '\0') return wrong("batch: %d lines, want %d", i, n_sudoku + 1);
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), p);
        if (i == n_sudoku) {
            if (strncmp(line, "invalid:", 8) != 0) return wrong("batch: last line '%s'", line);
        } else {
            const sudoku_fx_t *fx = &sudoku_fx[i];
            const char *want = fx->count == 0   ? "unsolvable"
                               : fx->count == 1 ? fx->solution
                                                : "multiple";
            if (strcmp(line, want) != 0)
                return wrong("batch line %d: '%s', want '%s'", i + 1, line, want);
        }
        p = nl != NULL ? nl + 1 : p + len;
    }
    if (*p != '\0') return wrong("batch: more lines than puzzles");
    return NULL;
}

/* The events stream ends with "event: done" and the job as its data. */
static const char *check_job_events(const char *text) {
    const char *done = strstr(text, "event: done");
    const char *data = done != NULL ? strstr(done, "data:") : NULL;
    if (data == NULL) return wrong("job: no 'event: done' with data in the stream");
    json_t *job = json_loads(data + 5, JSON_DISABLE_EOF_CHECK, NULL);
    const char *e = NULL;
    if (job == NULL) return wrong("job: the done event's data is not JSON");
    const char *st = json_string_value(json_object_get(job, "status"));
    if (st == NULL || strcmp(st, "done") != 0)
        e = wrong("job: status %s", st);
    else
        e = check_count(json_object_get(job, "result"), 10);
    json_decref(job);
    return e;
}

/* === Transfers ============================================================ */

typedef struct buf_s {
    char *p;
    size_t len, cap;
} buf_t;

typedef struct xfer_s {
    CURL *h;
    struct curl_slist *hdrs;
    int kind, fx, stage; /* stage: 1 = a job's events stream */
    int64_t t0;
    char id[48];
    char got_id[160];
    char location[512];
    int gzip;
    buf_t body;
    buf_t head;       /* the answer's header lines, kept when recording */
    const char *post; /* the request body, or NULL */
} xfer_t;

static size_t on_body(char *p, size_t sz, size_t n, void *ud) {
    buf_t *b = ud;
    size_t k = sz * n;
    if (b->len + k + 1 > b->cap) {
        size_t cap = (b->len + k + 1) * 2;
        char *q = realloc(b->p, cap);
        if (q == NULL) return 0;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, p, k);
    b->len += k;
    b->p[b->len] = '\0';
    return k;
}

static void header_value(const char *line, size_t k, const char *name, char *out, size_t outsz) {
    size_t nl = strlen(name);
    if (k <= nl + 1 || strncasecmp(line, name, nl) != 0 || line[nl] != ':') return;
    const char *v = line + nl + 1;
    size_t vl = k - nl - 1;
    while (vl > 0 && (*v == ' ' || *v == '\t'))
        v++, vl--;
    while (vl > 0 && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' '))
        vl--;
    snprintf(out, outsz, "%.*s", (int)vl, v);
}

static size_t on_header(char *p, size_t sz, size_t n, void *ud) {
    xfer_t *x = ud;
    size_t k = sz * n;
    char enc[32] = "";
    header_value(p, k, "X-Request-Id", x->got_id, sizeof x->got_id);
    header_value(p, k, "Location", x->location, sizeof x->location);
    header_value(p, k, "Content-Encoding", enc, sizeof enc);
    if (strcmp(enc, "gzip") == 0) x->gzip = 1;
    if (contract_enabled()) on_body(p, sz, n, &x->head);
    return k;
}

/* === Run state ============================================================ */

static const char *base_url;
static const char *source_addr;
static const char *control_path;
static int concurrency = 8;
static double seconds = 20;

static double *lat_ms[K_N];
static size_t lat_n[K_N], lat_cap[K_N];
static long ok_n[K_N], fail_n[K_N], gzip_n;
static int inflight[K_N];
static int held[K_N];
static long seq;
static volatile sig_atomic_t stop_now;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void record(int kind, double ms) {
    if (lat_n[kind] == lat_cap[kind]) {
        lat_cap[kind] = lat_cap[kind] ? lat_cap[kind] * 2 : 1024;
        lat_ms[kind] = realloc(lat_ms[kind], lat_cap[kind] * sizeof(double));
        if (lat_ms[kind] == NULL) die("out of memory");
    }
    lat_ms[kind][lat_n[kind]++] = ms;
}

static void fail(xfer_t *x, const char *fmt, ...) {
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (fail_n[0] + fail_n[1] + fail_n[2] + fail_n[3] + fail_n[4] + fail_n[5] < MAX_FAIL_SHOWN)
        fprintf(stderr, "load: FAILED %s (X-Request-Id %s): %s\n", kind_name[x->kind], x->id, msg);
    fail_n[x->kind]++;
}

static int pick_kind(void) {
    int total = 0, r;
    for (int k = 0; k < K_N; k++)
        if (!held[k]) total += kind_weight[k];
    if (total == 0) return -1;
    r = rand() % total;
    for (int k = 0; k < K_N; k++) {
        if (held[k]) continue;
        if (r < kind_weight[k]) return k;
        r -= kind_weight[k];
    }
    return -1;
}

/* Sets up x for its kind (or a job's second stage) and adds it to m. */
static void start(CURLM *m, xfer_t *x) {
    char url[1024], hdr[200];
    const char *post = NULL;
    const char *ctype = "Content-Type: application/json";

    curl_easy_reset(x->h);
    curl_slist_free_all(x->hdrs);
    x->hdrs = NULL;
    x->body.len = 0;
    x->head.len = 0;
    x->got_id[0] = '\0';
    x->gzip = 0;
    if (x->stage == 0) {
        x->t0 = now_ns();
        snprintf(x->id, sizeof x->id, "load-%d-%ld", (int)getpid(), ++seq);
    }
    switch (x->kind) {
    case K_COUNT:
        x->fx = 1 + rand() % 12;
        snprintf(url, sizeof url, "%s/v1/nqueens/count?n=%d", base_url, x->fx);
        break;
    case K_QUEENS:
        x->fx = 4 + rand() % 21;
        snprintf(url, sizeof url, "%s/v1/nqueens/solve?n=%d", base_url, x->fx);
        break;
    case K_SUDOKU:
        x->fx = rand() % n_sudoku;
        snprintf(url, sizeof url, "%s/v1/sudoku/solve", base_url);
        post = sudoku_fx[x->fx].body; /* not copied by libcurl: lives as long as the run */
        break;
    case K_KILLER:
        x->fx = rand() % n_killer;
        snprintf(url, sizeof url, "%s/v1/killer/solve", base_url);
        post = killer_fx[x->fx].body;
        break;
    case K_BATCH:
        snprintf(url, sizeof url, "%s/v1/sudoku/batch?max_solutions=2", base_url);
        post = batch_body;
        ctype = "Content-Type: text/plain";
        break;
    case K_JOB:
        if (x->stage == 0) {
            x->location[0] = '\0';
            snprintf(url, sizeof url, "%s/v1/nqueens/count?n=10", base_url);
            x->hdrs = curl_slist_append(x->hdrs, "Prefer: respond-async");
        } else {
            snprintf(url, sizeof url, "%s%s/events", base_url, x->location);
            x->hdrs = curl_slist_append(x->hdrs, "Accept: text/event-stream");
        }
        break;
    }
    snprintf(hdr, sizeof hdr, "X-Request-Id: %s", x->id);
    x->hdrs = curl_slist_append(x->hdrs, hdr);
    if (post != NULL) {
        x->hdrs = curl_slist_append(x->hdrs, ctype);
        curl_easy_setopt(x->h, CURLOPT_POSTFIELDS, post);
        curl_easy_setopt(x->h, CURLOPT_POSTFIELDSIZE, (long)strlen(post));
    }
    curl_easy_setopt(x->h, CURLOPT_URL, url);
    curl_easy_setopt(x->h, CURLOPT_HTTPHEADER, x->hdrs);
    curl_easy_setopt(x->h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(x->h, CURLOPT_WRITEDATA, &x->body);
    curl_easy_setopt(x->h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(x->h, CURLOPT_HEADERDATA, x);
    curl_easy_setopt(x->h, CURLOPT_PRIVATE, x);
    curl_easy_setopt(x->h, CURLOPT_ACCEPT_ENCODING, ""); /* gzip from nginx, decoded here */
    curl_easy_setopt(x->h, CURLOPT_TIMEOUT_MS, 60000L);
    curl_easy_setopt(x->h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(x->h, CURLOPT_FORBID_REUSE, seq % 16 == 0 ? 1L : 0L);
    if (source_addr != NULL) {
        static char iface[80];
        snprintf(iface, sizeof iface, "host!%s", source_addr);
        curl_easy_setopt(x->h, CURLOPT_INTERFACE, iface);
    }
    x->post = post;
    if (x->stage == 0) inflight[x->kind]++;
    curl_multi_add_handle(m, x->h);
}

/* Writes the exchange down for tests/contract/validate.mjs (when
 * $PUZZLED_CONTRACT_DIR is set; test_deploy.sh sets it). */
static void contract_note(const xfer_t *x, CURLcode rc, long status) {
    const char *hv[8];
    size_t n = 0;
    char *url = NULL;
    for (const struct curl_slist *l = x->hdrs; l != NULL && n < 7; l = l->next)
        hv[n++] = l->data;
    hv[n] = NULL;
    curl_easy_getinfo(x->h, CURLINFO_EFFECTIVE_URL, &url);
    contract_exchange_t c = {.source = "load", .method = x->post ? "POST" : "GET", .url = url};
    c.req_headers = hv, c.req_body = x->post, c.req_len = x->post ? strlen(x->post) : 0;
    c.status = status, c.resp_headers = x->head.p, c.resp_hlen = x->head.len;
    c.body = x->body.p ? x->body.p : "", c.len = x->body.len, c.incomplete = rc != CURLE_OK;
    contract_record(&c);
}

/* A transfer ended: check it; returns 1 when x goes on to a second stage. */
static int finish(xfer_t *x, CURLcode rc) {
    long status = 0;
    const char *e = NULL;
    json_t *d = NULL;

    curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
    if (contract_enabled()) contract_note(x, rc, status);
    if (rc != CURLE_OK) {
        fail(x, "transfer: %s (HTTP %ld)", curl_easy_strerror(rc), status);
        goto done;
    }
    long want = x->kind == K_JOB && x->stage == 0 ? 202 : 200;
    if (status != want) {
        fail(x, "HTTP %ld, want %ld: %.300s", status, want, x->body.p ? x->body.p : "");
        goto done;
    }
    if (strcmp(x->got_id, x->id) != 0) {
        fail(x, "X-Request-Id came back as '%s'", x->got_id);
        goto done;
    }
    if (x->gzip) gzip_n++;
    if (x->kind == K_BATCH)
        e = check_batch(x->body.p ? x->body.p : "");
    else if (x->kind == K_JOB && x->stage == 1)
        e = check_job_events(x->body.p ? x->body.p : "");
    else {
        json_error_t je;
        d = json_loadb(x->body.p ? x->body.p : "", x->body.len, 0, &je);
        if (d == NULL) {
            fail(x, "answer is not JSON: %s", je.text);
            goto done;
        }
        switch (x->kind) {
        case K_COUNT: e = check_count(d, x->fx); break;
        case K_QUEENS: e = check_queens(d, x->fx); break;
        case K_SUDOKU: e = check_sudoku(d, &sudoku_fx[x->fx]); break;
        case K_KILLER: e = check_killer(d, &killer_fx[x->fx]); break;
        case K_JOB: {
            /* 202: the job's address, from Location (or links.self). */
            const char *self =
                json_string_value(json_object_get(json_object_get(d, "links"), "self"));
            if (x->location[0] == '\0' && self != NULL)
                snprintf(x->location, sizeof x->location, "%s", self);
            if (x->location[0] != '/') e = wrong("job: no relative Location ('%s')", x->location);
            break;
        }
        }
    }
    if (e != NULL) {
        fail(x, "%s", e);
        goto done;
    }
    if (x->kind == K_JOB && x->stage == 0) {
        json_decref(d);
        x->stage = 1;
        return 1;
    }
    ok_n[x->kind]++;
    record(x->kind, (double)(now_ns() - x->t0) / 1e6);
done:
    json_decref(d);
    inflight[x->kind]--;
    x->stage = 0;
    return 0;
}

/* Reads the control file: which kinds to hold.  Acknowledges in FILE.ack
 * once none of them is in flight. */
static void control(void) {
    char text[128] = "", ack[1100], tmp[1100];
    FILE *f;
    int want[K_N] = {0}, busy = 0;
    if (control_path == NULL) return;
    if ((f = fopen(control_path, "r")) != NULL) {
        size_t k = fread(text, 1, sizeof text - 1, f);
        text[k] = '\0';
        fclose(f);
    }
    for (int k = 0; k < K_N; k++) {
        const char *p = strstr(text, kind_name[k]);
        want[k] = p != NULL;
        held[k] = want[k];
        if (want[k] && inflight[k] > 0) busy = 1;
    }
    if (busy) return;
    snprintf(ack, sizeof ack, "%s.ack", control_path);
    snprintf(tmp, sizeof tmp, "%s.ack.tmp", control_path);
    if ((f = fopen(tmp, "w")) != NULL) {
        fputs(text, f);
        fclose(f);
        rename(tmp, ack);
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p) {
    if (n == 0) return 0;
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return v[i];
}

static void on_signal(int sig) {
    (void)sig;
    stop_now = 1;
}

int main(int argc, char **argv) {
    const char *fixtures = "tests/fixtures";
    xfer_t xs[MAX_C];
    CURLM *m;
    int64_t t_start, t_end;

    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v == NULL) die("%s needs a value", a);
        if (strcmp(a, "--url") == 0)
            base_url = v;
        else if (strcmp(a, "--seconds") == 0)
            seconds = atof(v);
        else if (strcmp(a, "--concurrency") == 0)
            concurrency = atoi(v);
        else if (strcmp(a, "--fixtures") == 0)
            fixtures = v;
        else if (strcmp(a, "--control") == 0)
            control_path = v;
        else if (strcmp(a, "--source") == 0)
            source_addr = v;
        else
            die("unknown option %s", a);
    }
    if (base_url == NULL || seconds <= 0 || concurrency < 1 || concurrency > MAX_C)
        die("usage: load --url URL --seconds S [--concurrency 1..%d] [--fixtures DIR] "
            "[--control FILE] [--source ADDR]",
            MAX_C);
    load_sudoku(fixtures);
    load_killer(fixtures);
    srand((unsigned)getpid());
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    curl_global_init(CURL_GLOBAL_DEFAULT);

    m = curl_multi_init();
    curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, (long)concurrency * 2);
    memset(xs, 0, sizeof xs);
    t_start = now_ns();
    t_end = t_start + (int64_t)(seconds * 1e9);
    control();
    for (int i = 0; i < concurrency; i++) {
        xs[i].h = curl_easy_init();
        xs[i].kind = pick_kind();
        if (xs[i].kind >= 0) start(m, &xs[i]);
    }
    for (;;) {
        int running = 0, left;
        CURLMsg *msg;
        int64_t now = now_ns();
        int stopping = stop_now || now >= t_end;

        curl_multi_perform(m, &running);
        while ((msg = curl_multi_info_read(m, &left)) != NULL) {
            xfer_t *x;
            if (msg->msg != CURLMSG_DONE) continue;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
            CURLcode rc = msg->data.result;
            curl_multi_remove_handle(m, x->h);
            if (finish(x, rc)) {
                start(m, x); /* a job's events, even while stopping */
                continue;
            }
            x->kind = -1;
        }
        control();
        /* Idle slots: start a request (not after the end, not for held kinds). */
        for (int i = 0; i < concurrency && !stopping; i++) {
            if (xs[i].kind >= 0) continue;
            xs[i].kind = pick_kind();
            if (xs[i].kind >= 0) start(m, &xs[i]);
        }
        int busy = 0;
        for (int i = 0; i < concurrency; i++)
            busy |= xs[i].kind >= 0;
        if (stopping && !busy) break;
        curl_multi_poll(m, NULL, 0, 20, NULL);
    }
    double wall = (double)(now_ns() - t_start) / 1e9;

    /* === Figures ========================================================= */
    long ok = 0, failed = 0;
    size_t all_n = 0;
    for (int k = 0; k < K_N; k++) {
        ok += ok_n[k];
        failed += fail_n[k];
        all_n += lat_n[k];
    }
    double *all = malloc((all_n + 1) * sizeof(double));
    size_t j = 0;
    for (int k = 0; k < K_N; k++)
        for (size_t i = 0; i < lat_n[k]; i++)
            all[j++] = lat_ms[k][i];
    qsort(all, all_n, sizeof(double), cmp_double);
    printf("load: %ld requests in %.1f s (%.0f/s), %ld answered right, %ld failed; "
           "%ld answers gzip-compressed\n",
           ok + failed, wall, (double)(ok + failed) / wall, ok, failed, gzip_n);
    printf("load: latency ms  p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", pct(all, all_n, 0.5),
           pct(all, all_n, 0.9), pct(all, all_n, 0.99), all_n ? all[all_n - 1] : 0.0);
    int bad_kind = 0;
    for (int k = 0; k < K_N; k++) {
        qsort(lat_ms[k], lat_n[k], sizeof(double), cmp_double);
        printf("load:   %-7s %7ld ok %4ld failed  p50 %7.2f  p99 %7.2f ms\n", kind_name[k], ok_n[k],
               fail_n[k], pct(lat_ms[k], lat_n[k], 0.5), pct(lat_ms[k], lat_n[k], 0.99));
        if (ok_n[k] == 0) bad_kind = 1;
    }
    for (int i = 0; i < concurrency; i++) {
        curl_easy_cleanup(xs[i].h);
        curl_slist_free_all(xs[i].hdrs);
        free(xs[i].body.p);
        free(xs[i].head.p);
    }
    curl_multi_cleanup(m);
    curl_global_cleanup();
    free(all);
    for (int k = 0; k < K_N; k++)
        free(lat_ms[k]);
    for (int i = 0; i < n_killer; i++)
        free(killer_fx[i].body);
    free(batch_body);
    if (bad_kind) fprintf(stderr, "load: FAILED: a kind of request never succeeded\n");
    return failed > 0 || ok == 0 || bad_kind ? 1 : 0;
}
