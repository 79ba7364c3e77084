/* test_nomem.c -- allocation failures above the solvers.
 *
 * The solvers' allocator hooks are tested by failing each of their
 * allocations in turn (test_xcover.c, test_sudoku.c); this file does the
 * same for everything above them, with the failing allocator of
 * fail_alloc.h:
 *
 *   job walks   every API route, driven the way the server drives it (prepare
 *               and render inside server/guard.c's net, run each item, merge;
 *               a progressive job's stream read to the end), once cleanly to count its allocations
 * K, then K times with allocation 1, 2, ... K failing.  Each run must end in a clean answer: 503
 * (out of memory) or, when the failure hit only the rendering of an error, that same error; never a
 *               200 built from a silently dropped allocation, never a crash.
 *               Leaks are LeakSanitizer's to find (make test SANITIZE=1).
 *   HTTP walk   the same on the real server code in this process (MHD
 *               thread, loop thread, workers), the client thread exempt:
 *               each failure must give a 503/500 problem or a closed
 *               connection, and the next request must be answered normally.
 *
 * The number of failure points of each walk is printed, so a reader sees
 * what was covered. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "api/endpoint.h"
#include "api/request.h"
#include "server/config.h"
#include "server/guard.h"
#include "server/http/http.h"
#include "server/jobs/jobs.h"
#include "server/jobs/jobstore.h"
#include "server/metrics.h"
#include "server/pool.h"
#include "server/http/router.h"
#include "tests/fail_alloc.h"
#include "tests/http_client.h"

#define NOMEM_BODY_MAX (1u << 20)

typedef struct walk_s {
    const char *method, *path, *query; /* query: "k=v&k=v" or NULL */
    const char *ctype, *accept, *body;
} walk_t;

#define J       "application/json"
#define SUDOKU9 "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
/* A unique 4x4 killer (the server's, seed 3) for grade and hint */
#define KILLER4L                                                                                   \
    "{\"size\":4,\"cages\":[{\"sum\":6,\"cells\":[[3,0],[3,1]]},"                                  \
    "{\"sum\":6,\"cells\":[[2,2],[3,2],[3,3]]},{\"sum\":8,\"cells\":[[0,0],[1,0],[2,0]]},"         \
    "{\"sum\":4,\"cells\":[[1,1],[2,1]]},{\"sum\":9,\"cells\":[[0,1],[0,2],[0,3]]},"               \
    "{\"sum\":7,\"cells\":[[1,2],[1,3],[2,3]]}]"
#define KILLER4                                                                                    \
    "{\"size\":4,\"max_solutions\":2,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]},"              \
    "{\"sum\":7,\"cells\":[[0,2],[0,3]]},{\"sum\":7,\"cells\":[[1,0],[2,0]]},"                     \
    "{\"sum\":5,\"cells\":[[1,1],[1,2]]},{\"sum\":3,\"cells\":[[1,3],[2,3]]},"                     \
    "{\"sum\":5,\"cells\":[[2,1],[2,2]]},{\"sum\":3,\"cells\":[[3,0],[3,1]]},"                     \
    "{\"sum\":7,\"cells\":[[3,2],[3,3]]}]"

#define VARIANT6                                                                                   \
    "{\"variant\":[\"jigsaw\",\"x\"],\"grid\":\"...5....6...1.4..........2..........\","           \
    "\"regions\":[[0,0,0,0,1,1],[2,0,0,1,1,1],[2,2,2,3,3,1],[4,2,3,3,3,3],[4,2,4,5,5,5],"          \
    "[4,4,4,5,5,5]]"
/* A 4x4 with a thermo, a cage, a black dot, a sum and an arrow (unique). */
#define CONS4                                                                                      \
    "{\"grid\":\"1........1......\",\"constraints\":[{\"type\":\"thermo\",\"cells\":[[0,1],[0,2]," \
    "[0,3]]},{\"type\":\"cage\",\"sum\":7,\"cells\":[[1,0],[1,1]]},{\"type\":\"kropki-black\","    \
    "\"cells\":[[2,0],[3,0]]},{\"type\":\"sum\",\"sum\":5,\"cells\":[[2,2],[3,3]]},{\"type\":"     \
    "\"arrow\",\"circle\":[1,1],\"line\":[[2,1],[3,1]]}]"

/* At least one walk per endpoint of api_endpoints[] (nomem_every_route_walked
 * checks), plus the error paths and the variants that take other code paths. */
static const walk_t walks[] = {
    {"GET", "/v1/nqueens/count", "n=8&threads=2", NULL, NULL, NULL},
    {"GET", "/v1/nqueens/count", "n=6&method=dlx&threads=2", NULL, NULL, NULL},
    {"GET", "/v1/nqueens/count", "n=99", NULL, NULL, NULL},
    {"GET", "/v1/nqueens/solve", "n=8", NULL, NULL, NULL},
    {"GET", "/v1/nqueens/solve", "n=40&method=mrv", NULL, NULL, NULL},
    {"GET", "/v1/nqueens/solve", "n=60&method=minconflicts&seed=1&trace=true", NULL, NULL, NULL},
    {"GET", "/v1/nqueens/solve", "n=6&method=dlx", NULL, NULL, NULL},
    {"GET", "/v1/nqueens/solve", "n=100001&method=minconflicts&seed=1", NULL, NULL, NULL},
    {"POST", "/v1/nqueens/solve", NULL, J, NULL, "{\"n\":8,\"placed\":[[0,4]]}"},
    {"POST", "/v1/nqueens/count", NULL, J, NULL,
     "{\"n\":8,\"queens\":[0,null,null,null,null,null,null,null]}"},
    {"POST", "/v1/nqueens/analyze", NULL, J, NULL, "{\"n\":8,\"placed\":[[0,4],[1,1]]}"},
    {"POST", "/v1/nqueens/analyze", NULL, J, NULL, "{\"n\":8,\"placed\":[[0,4],[1,4]]}"},
    {"GET", "/v1/nqueens/solutions", "n=6&offset=1&limit=2", NULL, NULL, NULL},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL, "{\"grid\":\"" SUDOKU9 "\",\"max_solutions\":2}"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL,
     "{\"grid\":\"" SUDOKU9 "\",\"method\":\"dlx\",\"threads\":2}"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL,
     "{\"grid\":\"" SUDOKU9 "\",\"method\":\"cdcl\",\"threads\":2,\"max_solutions\":2}"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL,
     "{\"grid\":\"1...............\",\"method\":\"mrv\",\"trace\":true,\"max_solutions\":3}"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL,
     "{\"grid\":[[0,null,null,null],[null,null,null,null],[null,null,null,null],"
     "[null,null,null,30]],\"symbols\":[0,10,20,30],\"method\":\"propagation\"}"},
    {"POST", "/v1/sudoku/solve", "method=best-first", "text/plain", NULL,
     "4\n1 2 3 4\n0,0 1\n1,2 3\n3,3 2\n"},
    {"POST", "/v1/sudoku/solve", NULL, "text/csv", "text/csv", "1,,,\n,,3,\n,,,\n,,,2\n"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL, "{\"grid\":\"11..............\"}"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL, "{\"grid\":[1,2],\"method\":\"nope\"}"},
    {"POST", "/v1/sudoku/validate", NULL, J, NULL, "{\"grid\":\"11.............2\"}"},
    {"POST", "/v1/sudoku/batch", "max_solutions=2", "text/plain", "application/x-ndjson",
     SUDOKU9
     "\n# c\n" SUDOKU9
     "x\n.................................................................................\n"},
    {"POST", "/v1/sudoku/batch", NULL, "text/plain", NULL, SUDOKU9 "\n" SUDOKU9 "\n"},
    {"POST", "/v1/killer/solve", NULL, J, NULL, KILLER4 "}"},
    {"POST", "/v1/killer/solve", NULL, J, NULL,
     KILLER4 ",\"method\":\"backtracking\",\"threads\":2}"},
    {"POST", "/v1/killer/solve", NULL, "text/plain", NULL,
     "4\n1 2 3 4\n8\n3 0,0 0,1\n7 0,2 0,3\n7 1,0 2,0\n5 1,1 1,2\n3 1,3 2,3\n5 2,1 2,2\n"
     "3 3,0 3,1\n7 3,2 3,3\n"},
    {"POST", "/v1/killer/solve", NULL, J, NULL,
     "{\"size\":4,\"cages\":[{\"sum\":99,\"cells\":[]}]}"},
    {"POST", "/v1/exact-cover/solve", NULL, J, NULL,
     "{\"items\":[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\",\"G\"],\"options\":[[\"C\",\"E\",\"F\"],"
     "[\"A\",\"D\",\"G\"],[\"B\",\"C\",\"F\"],[\"A\",\"D\"],[\"B\",\"G\"],[\"D\",\"E\",\"G\"]],"
     "\"max_solutions\":2,\"threads\":2}"},
    {"POST", "/v1/exact-cover/solve", NULL, J, NULL,
     "{\"items\":[\"A\",\"B\"],\"secondary\":[\"x\"],\"options\":[[\"A\",\"x\"],[\"B\",\"x\"],"
     "[\"A\"],[\"B\"]],\"method\":\"algorithm-x\",\"max_solutions\":5}"},
    {"POST", "/v1/exact-cover/solve", NULL, J, NULL, "{\"items\":[\"A\"],\"options\":[[\"Z\"]]}"},
    {"POST", "/v1/sudoku/grade", NULL, J, NULL, "{\"grid\":\"1.34...2..4.43.1\",\"steps\":true}"},
    {"POST", "/v1/sudoku/grade", "steps=true", "text/csv", NULL,
     "1,2,,4\n3,,1,2\n,1,4,3\n4,3,2,\n"},
    {"POST", "/v1/sudoku/grade", NULL, J, NULL, "{\"grid\":\"" SUDOKU9 "\"}"},
    {"POST", "/v1/sudoku/grade", NULL, J, NULL, "{\"grid\":\"................\"}"},
    {"POST", "/v1/sudoku/hint", NULL, J, NULL,
     "{\"grid\":\"1.34...2..4.43.1\",\"givens\":\"1.34...2..4.43.1\","
     "\"pencil\":[{\"cell\":[0,1],\"values\":[2,3]}]}"},
    {"POST", "/v1/sudoku/hint", NULL, J, NULL,
     "{\"grid\":[[1,4,3,4],[null,null,null,2],[null,null,4,null],[4,3,null,1]],"
     "\"givens\":[[1,null,3,4],[null,null,null,2],[null,null,4,null],[4,3,null,1]]}"},
    {"POST", "/v1/sudoku/generate", NULL, J, NULL,
     "{\"size\":4,\"count\":2,\"seed\":3,\"symmetry\":\"rotational180\"}"},
    {"POST", "/v1/sudoku/generate", NULL, J, NULL, "{\"difficulty\":\"medium\",\"seed\":1}"},
    {"POST", "/v1/sudoku/generate", NULL, J, NULL, "{\"count\":500}"},
    {"POST", "/v1/killer/generate", NULL, J, NULL, "{\"size\":4,\"count\":2,\"seed\":3}"},
    {"POST", "/v1/sudoku/generate", NULL, J, "application/x-ndjson",
     "{\"size\":4,\"count\":3,\"seed\":3,\"givens\":{\"min\":6}}"},
    {"POST", "/v1/killer/generate", NULL, J, "application/x-ndjson",
     "{\"size\":4,\"count\":2,\"seed\":3}"},
    {"POST", "/v1/sudoku/generate", NULL, J, NULL, "{\"size\":4,\"difficulty\":\"hard\"}"},
    /* variants (api/sudoku_variant_api.c) */
    {"POST", "/v1/sudoku/solve", NULL, J, NULL, VARIANT6 ",\"max_solutions\":2}"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL,
     "{\"variant\":\"x\",\"grid\":[[1,null,null,null],[null,null,null,null],[null,null,null,"
     "null],[null,null,null,null]],\"method\":\"propagation\",\"trace\":true}"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL,
     "{\"variant\":\"x\",\"grid\":\"1....1..........\"}"},
    {"POST", "/v1/sudoku/solve", NULL, J, NULL,
     "{\"variant\":\"jigsaw\",\"grid\":\"................\",\"regions\":\"0001011122223333\"}"},
    {"POST", "/v1/sudoku/validate", NULL, J, NULL,
     "{\"variant\":\"x\",\"grid\":\"1....1..........\"}"},
    {"POST", "/v1/sudoku/grade", NULL, J, NULL, VARIANT6 ",\"steps\":true}"},
    {"POST", "/v1/sudoku/hint", NULL, J, NULL,
     "{\"variant\":\"x\",\"grid\":\"12..34..........\",\"givens\":\"1...3...........\"}"},
    {"POST", "/v1/sudoku/hint", NULL, J, NULL, VARIANT6 "}"},
    {"POST", "/v1/sudoku/generate", NULL, J, NULL,
     "{\"variant\":[\"jigsaw\",\"even-odd\"],\"size\":4,\"count\":2,\"seed\":3}"},
    {"POST", "/v1/sudoku/generate", NULL, J, NULL,
     "{\"variant\":\"consecutive\",\"size\":4,\"box\":{\"rows\":1,\"cols\":4},\"seed\":2}"},
    /* constraints (line rules, pair tables) and Killer on a variant (the hand-over) */
    {"POST", "/v1/sudoku/solve", NULL, J, NULL,
     "{\"grid\":\"................\",\"constraints\":[{\"type\":\"thermo\",\"cells\":[[0,0],"
     "[0,1]]},{\"type\":\"anti-king\"},{\"type\":\"sum\",\"sum\":5,\"cells\":[[1,0],[1,1]]}],"
     "\"max_solutions\":2}"},
    /* grade and hint on constraints: every line technique and the machine step on the path */
    {"POST", "/v1/sudoku/grade", NULL, J, NULL, CONS4 ",\"steps\":true}"},
    {"POST", "/v1/sudoku/hint", NULL, J, NULL, CONS4 "}"},
    {"POST", "/v1/sudoku/hint", NULL, J, NULL,
     CONS4 ",\"pencil\":[{\"cell\":[0,1],\"values\":[2,3]},{\"cell\":[0,2],\"values\":[4]}]}"},
    {"POST", "/v1/killer/solve", NULL, J, NULL,
     "{\"variant\":\"classic\",\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]},"
     "{\"sum\":7,\"cells\":[[0,2],[0,3]]}],\"max_solutions\":2}"},
    /* Killer grade and hint (issue 39): the rewrite, the logic engine, steps naming cages */
    {"POST", "/v1/killer/grade", NULL, J, NULL, KILLER4L ",\"steps\":true}"},
    {"POST", "/v1/killer/hint", NULL, J, NULL,
     KILLER4L ",\"grid\":\"1...............\",\"givens\":\"................\","
              "\"pencil\":[{\"cell\":[0,1],\"values\":[2,3]}]}"},
    {"POST", "/v1/killer/hint", NULL, J, NULL,
     "{\"size\":4,\"cages\":[{\"sum\":3,\"cells\":[[0,0],[0,1]]}],\"constraints\":[{}]}"},
    /* ISS's text (api/sudoku_iss.c): read, solved, refused with its places renamed */
    {"POST", "/v1/sudoku/solve", "max_solutions=2", "text/x-iss", NULL,
     "?q=.Shape%7E4x4.~R1C1_1.Thermo%7ER1C2%7ER1C3.Cage%7E5%7ER2C1%7ER2C2.NoBoxes"
     ".Jigsaw%7E0001011122232333.Diagonal%7E1"},
    {"POST", "/v1/sudoku/solve", NULL, "text/x-iss", NULL, ".Shape~4x4.Cage~50~R1C1~R1C2"},
    {"POST", "/v1/sudoku/validate", "max_solutions=0", "text/x-iss", NULL, ".Shape~4x4.Quad"},
};
#define NWALKS (sizeof walks / sizeof walks[0])

/* === Driving a job as the pool does =================================== */

typedef struct outcome_s {
    int status;
    char ctype[64];
    char *body; /* NUL-terminated; malloc'd with the allocator disarmed */
    size_t len;
} outcome_t;

/* Splits "k=v&k=v" into params (pointers into buf). */
static size_t nomem_params(const char *query, char *buf, size_t cap, api_param_t *kv) {
    size_t n = 0;
    if (query == NULL) return 0;
    snprintf(buf, cap, "%s", query);
    for (char *save = NULL, *tok = strtok_r(buf, "&", &save); tok && n < API_MAX_PARAMS;
         tok = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(tok, '=');
        kv[n].key = tok;
        kv[n].value = eq ? (*eq = '\0', eq + 1) : "";
        n++;
    }
    return n;
}

/* Runs the job's items in the harness order (item 0 first: it may split),
 * stopping when merge() asks to. */
static void nomem_run_items(api_job_t *job, const search_ctl_t *ctl) {
    int act = API_JOB_CONTINUE;
    if (job->nitems > 0) act = job->ops->merge(job, 0, job->ops->run(job, 0, ctl));
    for (size_t k = 1; act == API_JOB_CONTINUE && k < job->nitems; k++)
        act = job->ops->merge(job, k, job->ops->run(job, k, ctl));
}

/* One request through prepare .. render .. free, with whatever the failing
 * allocator does; the outcome is copied after disarming.  `buf` receives a
 * streamed body (it is the walk's, not the code under test's). */
static long nomem_drive(const walk_t *w, long fail_at, outcome_t *out, char *buf) {
    char qbuf[256];
    api_param_t kv[API_MAX_PARAMS];
    api_request_t r;
    api_job_t *job = NULL;
    api_response_t resp = {0};
    search_ctl_t ctl = {.deadline_ns = search_now_ns() + 20LL * 1000000000};
    const route_t *route;
    size_t pidx, len = 0;
    char allow[96];
    long seen, n = -1;

    ck_assert_int_eq(router_match(w->method, w->path, &route, &pidx, allow, sizeof allow),
                     ROUTER_FOUND);
    memset(&r, 0, sizeof r);
    r.method = w->method;
    r.path = w->path;
    r.nparams = nomem_params(w->query, qbuf, sizeof qbuf, kv);
    r.params = kv;
    r.body = w->body;
    r.body_len = w->body ? strlen(w->body) : 0;
    r.content_type = w->ctype;
    r.accept = w->accept;
    r.pool_threads = 2;
    r.max_timeout_ms = 20000;
    r.max_batch_lines = 100;

    fa_arm(fail_at);
    if (guard_prepare(route->prepare, &r, &job, &resp) == 0 && job != NULL) {
        if (job->ops->progressive) {
            guard_render(job, &resp);
            if (resp.stream != NULL) {
                nomem_run_items(job, &ctl);
                job->ops->finish(job, 0);
                while ((n = resp.stream(resp.stream_cls, buf + len, NOMEM_BODY_MAX - 1 - len)) > 0)
                    len += (size_t)n;
            }
        } else {
            nomem_run_items(job, &ctl);
            guard_render(job, &resp);
        }
        job->ops->free(job);
    }
    seen = fa_disarm();
    /* No check assertion while armed: check allocates, and exits when it
     * cannot. */
    ck_assert_msg(n == -1, "after finish() the stream must end, not wait (%ld)", n);

    out->status = resp.status;
    snprintf(out->ctype, sizeof out->ctype, "%s", resp.content_type ? resp.content_type : "");
    if (resp.stream != NULL) {
        buf[len] = '\0';
        out->body = strdup(buf);
        out->len = len;
    } else {
        out->body = strndup(resp.body ? resp.body : "", resp.len);
        out->len = resp.len;
    }
    api_response_destroy(&resp);
    ck_assert_ptr_nonnull(out->body);
    return seen;
}

/* The fields of a problem body, or of nothing. */
static int nomem_is_oom(const outcome_t *o) {
    if (o->status != 503) return 0;
    if (o->len == 0) return 1; /* the problem itself could not be rendered */
    json_t *j = json_loads(o->body, 0, NULL);
    const char *type = json_string_value(json_object_get(j, "type"));
    int ok = type != NULL && strcmp(type, "/problems/out-of-memory") == 0;
    json_decref(j);
    return ok;
}

/* Drops every "elapsed_ms" member, recursively: the only part of an answer
 * that differs between two runs of the same request. */
static void nomem_strip_times(json_t *j) {
    const char *key;
    json_t *v;
    size_t i;
    if (json_is_object(j)) {
        json_object_del(j, "elapsed_ms");
        json_object_foreach(j, key, v) nomem_strip_times(v);
    } else if (json_is_array(j)) {
        json_array_foreach(j, i, v) nomem_strip_times(v);
    }
}

/* Whether o is the clean answer again (the failure was absorbed and the
 * request still served correctly): same status and type, same body but for
 * timings.  NDJSON and text bodies compare line by line the same way. */
static int nomem_same_answer(const outcome_t *clean, const outcome_t *o) {
    if (o->status != clean->status || strcmp(o->ctype, clean->ctype) != 0) return 0;
    const char *a = clean->body, *b = o->body;
    for (;;) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        json_t *ja = json_loadb(a, la, 0, NULL), *jb = json_loadb(b, lb, 0, NULL);
        int same;
        if (ja != NULL && jb != NULL) {
            nomem_strip_times(ja);
            nomem_strip_times(jb);
            same = json_equal(ja, jb);
        } else {
            same = la == lb && memcmp(a, b, la) == 0;
        }
        json_decref(ja);
        json_decref(jb);
        /* a streamed batch has committed to 200: a line whose chunk could
         * not be allocated must say so in its place */
        if (!same &&
            (strncmp(b, "error: out of memory", 20) == 0 ||
             (strstr(b, "\"status\":\"error\"") != NULL &&
              strstr(b, "\"error\":\"out of memory") != NULL)) &&
            memchr(b, '\n', lb + 1) != NULL)
            same = 1;
        if (!same) return 0;
        if (a[la] == '\0' || b[lb] == '\0') return a[la] == b[lb];
        a += la + 1;
        b += lb + 1;
    }
}

static void nomem_walk(const walk_t *w) {
    static char buf[NOMEM_BODY_MAX];
    outcome_t clean, o;
    long k = nomem_drive(w, 0, &clean, buf);
    long points = 0, served = 0;
    ck_assert_msg(k > 0, "%s %s: no allocation at all?", w->method, w->path);

    for (long i = 1; i <= k; i++) {
        nomem_drive(w, i, &o, buf);
        if (!fa_fired()) { /* the run took a shorter path: no i-th allocation */
            free(o.body);
            continue;
        }
        points++;
        int ok = nomem_is_oom(&o);
        if (!ok && nomem_same_answer(&clean, &o)) ok = 1, served++;
        ck_assert_msg(ok,
                      "%s %s%s%s: allocation %ld of %ld failed, answer %d %s: %.300s\n"
                      "(clean answer: %.300s)",
                      w->method, w->path, w->query ? "?" : "", w->query ? w->query : "", i, k,
                      o.status, o.ctype, o.body, clean.body);
        free(o.body);
    }
    const char *label = w->query ? w->query : (w->body ? w->body : "");
    fprintf(stderr, "nomem: %-5s %-24s %-44.*s %4ld failure points (%ld still served)\n", w->method,
            w->path, (int)strcspn(label, "\n"), label, points, served);
    free(clean.body);
}

START_TEST(nomem_job_walk) { nomem_walk(&walks[_i]); }
END_TEST

/* Whether walks[] has a walk of ep. */
static int nomem_has_walk(const api_endpoint_t *ep) {
    for (size_t w = 0; w < NWALKS; w++)
        if (strcmp(walks[w].method, ep->method) == 0 && strcmp(walks[w].path, ep->path) == 0)
            return 1;
    return 0;
}

/* A seed of the fuzzer (fuzz/corpus: "METHOD PATH C\nquery\nbody", C the
 * Content-Type: 0 none, 1 JSON, 2 text, 3 CSV) as a walk of ep, its query
 * and body in text[cap]; 0, or -1 when the file is not one of ep's. */
static int nomem_seed(const char *file, const api_endpoint_t *ep, walk_t *w, char *text,
                      size_t cap) {
    static const char *const ctypes[] = {NULL, J, "text/plain", "text/csv"};
    char head[160];
    FILE *f = fopen(file, "rb");
    size_t n;
    char *nl, *q;
    if (f == NULL) return -1;
    n = fread(text, 1, cap - 1, f);
    fclose(f);
    text[n] = '\0';
    if ((nl = strchr(text, '\n')) == NULL || (size_t)(nl - text) >= sizeof head) return -1;
    snprintf(head, sizeof head, "%s %s ", ep->method, ep->path);
    if (strncmp(text, head, strlen(head)) != 0 || nl != text + strlen(head) + 1 || nl[-1] < '0' ||
        nl[-1] > '3')
        return -1;
    q = nl + 1;
    memset(w, 0, sizeof *w);
    w->method = ep->method;
    w->path = ep->path;
    w->ctype = ctypes[nl[-1] - '0'];
    if ((nl = strchr(q, '\n')) == NULL) return -1;
    *nl = '\0';
    w->query = *q != '\0' ? q : NULL;
    w->body = nl + 1;
    return 0;
}

/* How many seeds of ep fuzz/corpus holds; walks each when `walk`. */
static int nomem_seeds(const api_endpoint_t *ep, int walk) {
    static char text[NOMEM_BODY_MAX];
    DIR *d = opendir("fuzz/corpus");
    struct dirent *e;
    int found = 0;
    ck_assert_msg(d != NULL, "fuzz/corpus: not found from %s", getenv("PWD"));
    while ((e = readdir(d)) != NULL) {
        char file[512];
        walk_t w;
        if (e->d_name[0] == '.') continue;
        snprintf(file, sizeof file, "fuzz/corpus/%s", e->d_name);
        if (nomem_seed(file, ep, &w, text, sizeof text) != 0) continue;
        found++;
        if (walk) nomem_walk(&w);
    }
    closedir(d);
    return found;
}

/* Every endpoint has a walk (above, or its fuzzer seeds), so a new one
 * cannot skip this test. */
START_TEST(nomem_every_route_walked) {
    for (size_t i = 0; api_endpoints[i] != NULL; i++) {
        const api_endpoint_t *ep = api_endpoints[i];
        ck_assert_msg(nomem_has_walk(ep) || nomem_seeds(ep, 0) > 0,
                      "no allocation-failure walk for %s %s, and no seed in fuzz/corpus",
                      ep->method, ep->path);
    }
}
END_TEST

/* An endpoint without a walk above is walked with its seeds in
 * fuzz/corpus: a new endpoint is walked by the seeds it brings the fuzzer. */
START_TEST(nomem_seed_walk) {
    const api_endpoint_t *ep = api_endpoints[_i];
    if (!nomem_has_walk(ep)) nomem_seeds(ep, 1);
}
END_TEST

static size_t nomem_nendpoints(void) {
    size_t n = 0;
    while (api_endpoints[n] != NULL)
        n++;
    return n;
}

/* === The real server, in this process ================================= */

typedef struct inproc_s {
    config_t cfg;
    metrics_t *metrics;
    pool_t *pool;
    jobs_t *jobs;
    http_server_t *http;
    budget_t work, results;
    char base[64];
} inproc_t;

static void inproc_start(inproc_t *s) {
    static const char *paths[METRICS_MAX_PATHS];
    char *argv[] = {"puzzled", "--port", "0", "--threads", "2", NULL};
    memset(s, 0, sizeof *s);
    char note[160];
    ck_assert_int_eq(config_parse(&s->cfg, 5, argv, stdout, stderr), 0);
    config_resolve_connections(&s->cfg, note, sizeof note);
    s->metrics = calloc(1, sizeof *s->metrics);
    ck_assert_ptr_nonnull(s->metrics);
    size_t np = router_npaths();
    for (size_t i = 0; i < np && i < METRICS_MAX_PATHS; i++)
        paths[i] = router_path(i);
    metrics_init(s->metrics, paths, np);
    budget_init(&s->work, "work", s->cfg.max_work_memory);
    budget_init(&s->results, "results", s->cfg.max_job_memory);
    ck_assert_int_eq(pool_new(&s->pool, &s->cfg, s->metrics, &s->work), 0);
    jobstore_t *store = NULL;
    ck_assert_int_eq(jobstore_mem_new(&store, s->cfg.max_jobs, &s->results), 0);
    ck_assert_int_eq(jobs_new(&s->jobs, &s->cfg, s->pool, s->metrics, store, NULL), 0);
    ck_assert_int_eq(http_server_start(&s->http, &s->cfg, s->pool, s->metrics, s->jobs), 0);
    snprintf(s->base, sizeof s->base, "http://127.0.0.1:%u", http_server_port(s->http));
}

/* Waits until no request is being handled (the completion callbacks, which
 * free, have run). */
static void inproc_settle(inproc_t *s) {
    for (int i = 0; i < 2000 && (http_server_active(s->http) > 0 || pool_inflight(s->pool) > 0);
         i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    ck_assert_int_eq(http_server_active(s->http), 0);
    ck_assert_int_eq(pool_inflight(s->pool), 0);
}

static void inproc_stop(inproc_t *s) {
    inproc_settle(s);
    http_server_drain(s->http);
    jobs_drain(s->jobs);
    http_server_stop(s->http);
    pool_free(s->pool);
    jobs_free(s->jobs);
    free(s->metrics);
}

typedef struct http_walk_s {
    const char *method, *path, *ctype, *body;
    int async;          /* sent with Prefer: respond-async: the job runs on after the 202 */
    const char *header; /* one more request header, or NULL */
} http_walk_t;

static const http_walk_t http_walks[] = {
    {"GET", "/v1/nqueens/count?n=8&threads=2", NULL, NULL, 0, NULL},
    {"POST", "/v1/sudoku/solve", J, "{\"grid\":\"" SUDOKU9 "\",\"max_solutions\":2}", 0, NULL},
    {"POST", "/v1/sudoku/batch?max_solutions=2", "text/plain", SUDOKU9 "\n" SUDOKU9 "\n", 0, NULL},
    {"POST", "/v1/killer/solve", J, KILLER4 "}", 0, NULL},
    {"GET", "/metrics", NULL, NULL, 0, NULL},
    {"GET", "/nowhere", NULL, NULL, 0, NULL},
    {"POST", "/v1/sudoku/solve", J, "{\"grid\":7}", 0, NULL},
    {"GET", "/v1/nqueens/count?n=11", NULL, NULL, 1, NULL},
    {"POST", "/v1/sudoku/batch?max_solutions=2", "text/plain", SUDOKU9 "\n" SUDOKU9 "\n", 1, NULL},
    {"GET", "/v1/jobs?limit=3", NULL, NULL, 0, "Job-List-Token: nomemWalkListToken0000000"},
    {"GET", "/v1/nqueens/count?n=11", NULL, NULL, 1, "Job-List-Token: nomemWalkListToken0000000"},
};

static void nomem_http_one(inproc_t *s, const http_walk_t *w, hresp_t *r) {
    char url[256], ct[64];
    const char *hdrs[] = {ct, w->header, w->async ? "Prefer: respond-async" : NULL, NULL};
    if (w->header == NULL) hdrs[1] = hdrs[2], hdrs[2] = NULL;
    CURL *c = curl_easy_init();
    ck_assert_ptr_nonnull(c);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 10000L);
    snprintf(url, sizeof url, "%s%s", s->base, w->path);
    snprintf(ct, sizeof ct, "Content-Type: %s", w->ctype ? w->ctype : "text/plain");
    http_do(c, w->method, url, w->body, w->body ? strlen(w->body) : 0, hdrs, r);
    curl_easy_cleanup(c);
}

START_TEST(nomem_http_walk) {
    const http_walk_t *w = &http_walks[_i];
    inproc_t s;
    hresp_t r;
    long k, points = 0, dropped = 0;

    fa_exempt_thread(1); /* the client: only the server's threads count */
    /* The server logs every request to stderr; keep the walk's thousands of
     * lines out of the test output (restored for the summary line). */
    int saved_err = dup(STDERR_FILENO), devnull = open("/dev/null", O_WRONLY);
    ck_assert(saved_err >= 0 && devnull >= 0);
    dup2(devnull, STDERR_FILENO);
    close(devnull);
    inproc_start(&s);
    inproc_settle(&s);
    fa_arm(0);
    nomem_http_one(&s, w, &r);
    inproc_settle(&s);
    k = fa_disarm();
    long want = r.status;
    ck_assert_msg(r.curl_rc == CURLE_OK && want > 0, "%s %s: clean run failed", w->method, w->path);
    hresp_free(&r);

    for (long i = 1; i <= k; i++) {
        fa_arm(i);
        nomem_http_one(&s, w, &r);
        inproc_settle(&s);
        fa_disarm();
        if (fa_fired()) {
            points++;
            if (r.curl_rc != CURLE_OK)
                dropped++; /* the connection was closed: clean */
            else
                ck_assert_msg(r.status == 503 || r.status == 500 || r.status == want,
                              "%s %s: allocation %ld of %ld failed, answer %ld: %.200s", w->method,
                              w->path, i, k, r.status, r.body);
        }
        hresp_free(&r);
        /* and the server still answers */
        nomem_http_one(&s, &http_walks[0], &r);
        ck_assert_msg(r.curl_rc == CURLE_OK && r.status == 200, "after failure %ld: %ld", i,
                      r.status);
        hresp_free(&r);
        inproc_settle(&s);
    }
    dup2(saved_err, STDERR_FILENO);
    close(saved_err);
    fprintf(stderr, "nomem: HTTP %-5s %-36s %4ld failure points (%ld closed the connection)\n",
            w->method, w->path, points, dropped);
    inproc_stop(&s);
}
END_TEST

static void nomem_setup(void) { guard_install(); }

Suite *nomem_suite(void);
Suite *nomem_suite(void) {
    Suite *s = suite_create("nomem");
    TCase *jobs = tcase_create("jobs");
    tcase_add_unchecked_fixture(jobs, nomem_setup, NULL);
    tcase_add_test(jobs, nomem_every_route_walked);
    tcase_add_loop_test(jobs, nomem_job_walk, 0, (int)NWALKS);
    tcase_add_loop_test(jobs, nomem_seed_walk, 0, (int)nomem_nendpoints());
    tcase_set_timeout(jobs, 120);
    suite_add_tcase(s, jobs);
    TCase *http = tcase_create("http");
    tcase_add_unchecked_fixture(http, nomem_setup, NULL);
    tcase_add_loop_test(http, nomem_http_walk, 0, (int)(sizeof http_walks / sizeof http_walks[0]));
    tcase_set_timeout(http, 240);
    suite_add_tcase(s, http);
    return s;
}
