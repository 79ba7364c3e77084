/* nqueens_api.c -- N-Queens over HTTP: parse, split into work items, answer.
 *
 * Counting fans out: nqueens_split() cuts the board into prefix subproblems
 * and each becomes one work item of the job.  The server runs at most
 * `threads` items of a job at once and queues the next one only when one
 * finishes, so a long count never floods the pool: a small request that
 * arrives meanwhile waits for at most one subproblem per worker.  That is why
 * the split aims at many small subproblems (thousands for n >= 16) rather
 * than one per thread; the per-item cost (a queue hop, ~10 us) is noise
 * against subproblems of milliseconds.
 *
 * Answers:
 *   count: {"n","count","status":"complete","stats":{"nodes","subproblems",
 *           "threads","elapsed_ms","symmetry"}}; on a deadline
 *           "status":"timeout" (or "cancelled") and no "count", with
 *           "completed_subproblems" in stats.
 *   solve: {"n","status":"solved","queens":[...],"verified":true,"stats":
 *           {"method","nodes","backtracks","max_depth","elapsed_ms"}};
 *           "status":"unsolvable" (n = 2, 3) or "timeout" without "queens".
 * Every board is verified in O(n) before it is sent; a failed verification is
 * a 500 (it would be a solver bug). */
#include "api/nqueens_api.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/nqueens.h"

/* === Counting === */

typedef struct nq_item_s {
    uint64_t units;
    search_stats_t stats;
} nq_item_t;

typedef struct nq_count_job_s {
    api_job_t base;
    int n;
    int symmetry;
    nqueens_sub_t *subs; /* base.nitems of them */
    nq_item_t *items;    /* one result slot per subproblem */
    uint64_t units;
    size_t completed;
    int rc; /* first non-zero item code */
} nq_count_job_t;

int api_nqueens_split_depth(int n, int symmetry) {
    /* Aim at a number of subproblems that grows with the work: tiny boards
     * take one pass, n >= 16 thousands of slices (see the file comment). */
    size_t target = n <= 10 ? 1 : n <= 13 ? 64 : n <= 15 ? 512 : 2048;
    int depth = 1;
    size_t count = 0;
    while (depth < n - 1) {
        if (nqueens_split(n, depth, symmetry, NULL, 0, &count) == -1) break;
        if (count >= target) break;
        depth++;
    }
    return depth;
}

static int nq_count_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    nq_count_job_t *j = (nq_count_job_t *)job;
    return nqueens_count_sub(&j->subs[item], ctl, &j->items[item].units, &j->items[item].stats);
}

static int nq_count_merge(api_job_t *job, size_t item, int rc) {
    nq_count_job_t *j = (nq_count_job_t *)job;
    job->nodes += j->items[item].stats.nodes;
    if (rc != 0) {
        if (j->rc == 0) j->rc = rc;
        return API_JOB_CANCEL; /* a partial count is worthless: stop the rest */
    }
    j->units += j->items[item].units;
    j->completed++;
    return API_JOB_CONTINUE;
}

static const char *nq_status_name(int rc) {
    switch (rc) {
    case 0: return "complete";
    case SEARCH_TIMEOUT: return "timeout";
    case SEARCH_CANCELLED: return "cancelled";
    default: return "budget";
    }
}

static void nq_count_render(api_job_t *job, api_response_t *out) {
    nq_count_job_t *j = (nq_count_job_t *)job;
    json_t *stats = json_pack("{s:I, s:I, s:I, s:i, s:f, s:b}", "nodes", (json_int_t)job->nodes,
                              "subproblems", (json_int_t)job->nitems, "completed_subproblems",
                              (json_int_t)j->completed, "threads", (int)job->threads,
                              "elapsed_ms", api_elapsed_ms(job->start_ns, search_now_ns()),
                              "symmetry", j->symmetry);
    json_t *root = json_pack("{s:i, s:s, s:o}", "n", j->n, "status", nq_status_name(j->rc),
                             "stats", stats);
    if (root != NULL && j->rc == 0 && j->completed == job->nitems)
        json_object_set_new(root, "count", json_integer((json_int_t)nqueens_units_to_count(j->units)));
    api_response_json(out, 200, root);
}

static void nq_count_free(api_job_t *job) {
    nq_count_job_t *j = (nq_count_job_t *)job;
    if (j == NULL) return;
    free(j->subs);
    free(j->items);
    free(j);
}

static const api_job_ops_t nq_count_ops = {
    "nqueens", nq_count_run, nq_count_merge, nq_count_render, nq_count_free,
};

/* Reads the parameters both endpoints share; returns 0 or -1 (errors in p). */
static int nq_common_params(const api_request_t *req, long long max_n, long long *n,
                            long long *timeout_ms, api_problem_t *p) {
    int bad = 0;
    bad |= api_param_int(req, "n", 1, 1, max_n, 0, n, p);
    bad |= api_param_int(req, "timeout_ms", 0, 1, req->max_timeout_ms, req->max_timeout_ms,
                         timeout_ms, p);
    return bad ? -1 : 0;
}

int api_nqueens_count_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    static const char *const allowed[] = {"n", "threads", "timeout_ms", "symmetry", NULL};
    api_problem_t p;
    long long n = 0, timeout_ms = 0, threads = 0;
    int symmetry = 1, bad = 0;
    size_t count = 0;
    nq_count_job_t *j = NULL;

    *job = NULL;
    api_problem_init(&p, API_EINVALID, "invalid query parameters");
    bad |= api_params_check(req, allowed, &p) != 0;
    bad |= nq_common_params(req, NQUEENS_COUNT_MAX_N, &n, &timeout_ms, &p) != 0;
    bad |= api_param_int(req, "threads", 0, 1, req->pool_threads, req->pool_threads, &threads,
                         &p) != 0;
    bad |= api_param_bool(req, "symmetry", 1, &symmetry, &p) != 0;
    if (bad) goto fail;

    int depth = api_nqueens_split_depth((int)n, symmetry);
    (void)nqueens_split((int)n, depth, symmetry, NULL, 0, &count); /* sizes the buffer */
    j = calloc(1, sizeof *j);
    if (j == NULL) goto nomem;
    j->n = (int)n;
    j->symmetry = symmetry;
    j->subs = calloc(count ? count : 1, sizeof *j->subs);
    j->items = calloc(count ? count : 1, sizeof *j->items);
    if (j->subs == NULL || j->items == NULL) goto nomem;
    if (nqueens_split((int)n, depth, symmetry, j->subs, count, &count) != 0) goto nomem;
    if (count == 0) { /* no prefix survives (n = 2, 3): one empty item keeps the flow uniform */
        j->subs[0].n = (uint8_t)n;
        j->subs[0].depth = 0;
        j->subs[0].klass = NQUEENS_PLAIN;
        count = 1;
    }
    j->base.ops = &nq_count_ops;
    j->base.nitems = count;
    j->base.threads = (unsigned)threads;
    j->base.timeout_ms = timeout_ms;
    j->base.start_ns = search_now_ns();
    *job = &j->base;
    return 0;

nomem:
    nq_count_free(j ? &j->base : NULL);
    api_problem_init(&p, API_ENOMEM, "could not allocate the count's subproblems");
fail:
    api_response_problem(resp, &p);
    return p.code;
}

/* === First solution === */

typedef struct nq_solve_job_s {
    api_job_t base;
    int n;
    int rc;
    search_stats_t stats;
    int cols[NQUEENS_SOLVE_MAX_N];
} nq_solve_job_t;

static int nq_solve_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    nq_solve_job_t *j = (nq_solve_job_t *)job;
    (void)item;
    return nqueens_first(j->n, ctl, j->cols, &j->stats);
}

static int nq_solve_merge(api_job_t *job, size_t item, int rc) {
    nq_solve_job_t *j = (nq_solve_job_t *)job;
    (void)item;
    j->rc = rc;
    job->nodes += j->stats.nodes;
    return API_JOB_STOP;
}

static void nq_solve_render(api_job_t *job, api_response_t *out) {
    nq_solve_job_t *j = (nq_solve_job_t *)job;
    unsigned char scratch[8 * NQUEENS_SOLVE_MAX_N];
    const char *status;
    json_t *queens = NULL;

    if (j->rc == 0) {
        if (!nqueens_verify(j->n, j->cols, scratch)) {
            api_problem_t p;
            api_problem_init(&p, API_EINTERNAL, "the solver produced a board that fails verification");
            api_response_problem(out, &p);
            return;
        }
        status = "solved";
        queens = json_array();
        for (int r = 0; r < j->n && queens != NULL; r++)
            json_array_append_new(queens, json_integer(j->cols[r]));
    } else if (j->rc == 1) {
        status = "unsolvable";
    } else {
        status = nq_status_name(j->rc);
    }
    json_t *stats = json_pack("{s:s, s:I, s:I, s:i, s:f}", "method", "backtracking", "nodes",
                              (json_int_t)j->stats.nodes, "backtracks",
                              (json_int_t)j->stats.backtracks, "max_depth",
                              (int)j->stats.max_depth, "elapsed_ms",
                              api_elapsed_ms(job->start_ns, search_now_ns()));
    json_t *root = json_pack("{s:i, s:s, s:o}", "n", j->n, "status", status, "stats", stats);
    if (root != NULL && queens != NULL) {
        json_object_set_new(root, "queens", queens);
        json_object_set_new(root, "verified", json_true());
    } else {
        json_decref(queens);
    }
    api_response_json(out, 200, root);
}

static void nq_solve_free(api_job_t *job) { free(job); }

static const api_job_ops_t nq_solve_ops = {
    "nqueens", nq_solve_run, nq_solve_merge, nq_solve_render, nq_solve_free,
};

int api_nqueens_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    static const char *const allowed[] = {"n", "timeout_ms", "method", NULL};
    api_problem_t p;
    long long n = 0, timeout_ms = 0;
    int bad = 0;
    const char *method = api_param(req, "method");
    nq_solve_job_t *j;

    *job = NULL;
    api_problem_init(&p, API_EINVALID, "invalid query parameters");
    bad |= api_params_check(req, allowed, &p) != 0;
    bad |= nq_common_params(req, NQUEENS_SOLVE_MAX_N, &n, &timeout_ms, &p) != 0;
    if (method != NULL && strcmp(method, "backtracking") != 0 && strcmp(method, "auto") != 0) {
        api_problem_add(&p, "query", "method", "must be backtracking or auto, got '%.40s'", method);
        bad = 1;
    }
    if (bad) goto fail;
    j = calloc(1, sizeof *j);
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    j->n = (int)n;
    j->base.ops = &nq_solve_ops;
    j->base.nitems = 1;
    j->base.threads = 1;
    j->base.timeout_ms = timeout_ms;
    j->base.start_ns = search_now_ns();
    *job = &j->base;
    return 0;
fail:
    api_response_problem(resp, &p);
    return p.code;
}
