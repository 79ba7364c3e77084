/* nqueens_api.c -- N-Queens over HTTP: parse, split into work items, answer.
 *
 * Counting fans out: the split of nqueens_split() (weighted subproblems:
 * border placements, pre-placed for n = 19..22) is cut into slices, one per
 * work item, each finding its own subproblems on its worker, so prepare()
 * is O(1) and every item gets a mix of big and small ones.  The server runs at most `threads` items
 * of a job at once and queues the next one only when one finishes, so a long count never floods the
 * pool: a small request that arrives meanwhile waits for at most one item per worker.  That is why
 * a count has many short items (about a thousand at n = 17) rather than one per thread; see
 * nq_count_plan() for the balance against the per-item hand-off cost.
 *
 * Answers:
 *   count: {"n","count","status":"complete","stats":{"nodes","subproblems",
 *           "completed_subproblems","threads","elapsed_ms","symmetry"}}; on
 *           a deadline "status":"timeout" (or "cancelled") and no "count".
 *   solve: {"n","status":"solved","queens":[...],"verified":true,"stats":
 *           {"method","nodes","backtracks","max_depth","elapsed_ms"}};
 *           "status":"unsolvable" (n = 2, 3) or "timeout" without "queens".
 * Every board is verified in O(n) before it is sent; a failed verification is
 * a 500 (it would be a solver bug).
 *
 * method=dlx or algorithm-x (both endpoints) solves N-Queens as exact cover
 * instead (rows and columns primary, diagonals secondary; nqueens/xc.h),
 * through the shared exact-cover job (xc_job.c), split into subtrees when
 * threads > 1: a cross-check of the bitboard search, and a way to compare
 * the methods' statistics.  Its first solution is the first in exact-cover
 * order, which is not the lexicographic one. */
#include "api/nqueens_api.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_util.h"
#include "api/xc_job.h"
#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/xc.h"

/* === Exact cover === */

typedef struct nq_xc_job_s {
    api_job_t base;
    int n;
    int count_mode; /* count every solution, or find the first */
    xcover_problem_t *problem;
    api_xc_t xc;
} nq_xc_job_t;

static int nq_xc_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    return api_xc_run(&((nq_xc_job_t *)job)->xc, item, ctl);
}

static int nq_xc_merge(api_job_t *job, size_t item, int rc) {
    return api_xc_merge(&((nq_xc_job_t *)job)->xc, job, item, rc);
}

static const char *nq_status_name(int rc);

static void nq_xc_render(api_job_t *job, api_response_t *out) {
    nq_xc_job_t *j = (nq_xc_job_t *)job;
    api_xc_t *x = &j->xc;
    const char *status;
    json_t *queens = NULL, *root;
    int ok = 1;

    api_xc_finish(x);
    json_t *stats = json_pack(
        "{s:s, s:I, s:I, s:i, s:I, s:i, s:f}", "method", xcover_engine_name(x->engine), "nodes",
        (json_int_t)x->stats.nodes, "backtracks", (json_int_t)x->stats.backtracks, "max_depth",
        (int)x->stats.max_depth, "subproblems", (json_int_t)x->subtrees, "threads",
        (int)job->threads, "elapsed_ms", api_elapsed_ms(job->start_ns, search_now_ns()));
    if (j->count_mode) {
        int done = x->rc == 0 && x->exhausted;
        root = json_pack("{s:i, s:s, s:o}", "n", j->n, "status",
                         done ? "complete" : nq_status_name(x->rc ? x->rc : SEARCH_TIMEOUT),
                         "stats", stats);
        if (x->rc == SEARCH_ENOMEM) ok = 0;
        if (done) api_jset(root, "count", json_integer((json_int_t)x->found), &ok);
        api_response_json_ok(out, 200, root, ok);
        return;
    }
    if (x->nsols > 0) {
        int cols[NQUEENS_XC_MAX_N];
        unsigned char scratch[8 * NQUEENS_XC_MAX_N];
        const uint32_t *o;
        size_t k = api_xc_solution(x, 0, &o);
        for (size_t i = 0; i < k; i++)
            cols[o[i] / (uint32_t)j->n] = (int)(o[i] % (uint32_t)j->n);
        if (k != (size_t)j->n || !nqueens_verify(j->n, cols, scratch)) {
            api_problem_t p;
            json_decref(stats);
            api_problem_init(&p, API_EINTERNAL, "the exact-cover board fails verification");
            api_response_problem(out, &p);
            return;
        }
        queens = json_array();
        if (queens == NULL) ok = 0;
        for (int r = 0; r < j->n && queens != NULL; r++)
            api_jpush(queens, json_integer(cols[r]), &ok);
        status = "solved";
    } else {
        status = x->rc == 0 ? "unsolvable" : nq_status_name(x->rc);
        if (x->rc == SEARCH_ENOMEM) ok = 0;
    }
    root = json_pack("{s:i, s:s, s:o}", "n", j->n, "status", status, "stats", stats);
    if (queens != NULL) {
        api_jset(root, "queens", queens, &ok);
        api_jset(root, "verified", json_true(), &ok);
    }
    api_response_json_ok(out, 200, root, ok);
}

static void nq_xc_free(api_job_t *job) {
    nq_xc_job_t *j = (nq_xc_job_t *)job;
    if (j == NULL) return;
    api_xc_destroy(&j->xc);
    xcover_problem_free(j->problem);
    free(j);
}

static const api_job_ops_t nq_xc_ops = {"nqueens", nq_xc_run, nq_xc_merge, nq_xc_render, nq_xc_free,
                                        0,         NULL,      NULL,        NULL,         NULL};

int api_nqueens_xc_prepare(int n, int count_mode, xcover_engine_t engine, unsigned threads,
                           int64_t timeout_ms, api_job_t **job) {
    nq_xc_job_t *j = calloc(1, sizeof *j);
    if (j == NULL) return API_ENOMEM;
    if (nqueens_xc_problem_new(n, &j->problem) != 0 ||
        api_xc_init(&j->xc, j->problem, engine, count_mode ? 0 : 1, threads, NULL, 0) != 0) {
        nq_xc_free(&j->base);
        return API_ENOMEM;
    }
    j->n = n;
    j->count_mode = count_mode;
    api_job_ready(&j->base, &nq_xc_ops, 1, threads, timeout_ms, job);
    return 0;
}

/* === Counting === */

/* A count of n > API_NQUEENS_INLINE_COUNT_N is cut into k work items, item
 * i being slice i of k of the split (nqueens_count_slice(): the border
 * classes, one queen deeper for n = 19..22, found by the item itself on its
 * worker).  prepare() only decides k, from n: it holds no list of
 * subproblems, so it is O(1) and the job's memory is k result slots
 * (NQ_ITEM_BYTES each, k <= 65,536: under 4 MB).  The split used to be
 * enumerated there, twice, and dealt into items on the HTTP thread: 30-80 ms
 * and 1-18 MB at n = 27, the deadline overshot by as much.  Slices, like
 * the deal before them, mix big and small classes in every item (the
 * classes follow the border code, and a slice takes every k-th code).  k
 * depends on the request alone, never on the server (nor on work_share):
 * in cluster mode every replica rebuilds the job with prepare() and must
 * cut it the same way; a share too small for the slots is a 422.  The split's size (the answer's
 * `subproblems`, the progress total) comes from nqueens_split_size()'s table.
 *
 * Small counts (n <= API_NQUEENS_INLINE_COUNT_N) are one item over the first
 * row's queens, whole on the HTTP thread (see nq_first_row_split()). */

/* One work item's result slot, written by run() on a worker and read by
 * merge() on the loop thread after that run returned. */
typedef struct nq_item_s {
    uint64_t count;
    search_stats_t stats;
    size_t nsubs; /* subproblems the item counted */
} nq_item_t;

#define NQ_ITEM_BYTES sizeof(nq_item_t)

typedef struct nq_count_job_s {
    api_job_t base;
    int n;
    int symmetry;
    int depth;                                       /* queens pre-placed below the border ones */
    nqueens_sub_t small[API_NQUEENS_INLINE_COUNT_N]; /* n <= INLINE_COUNT_N */
    size_t nsmall;                                   /* 0: the count is sliced */
    size_t nsubs;                                    /* subproblems in all */
    nq_item_t *items;                                /* base.nitems */
    uint64_t count;                                  /* merge() only (loop thread) */
    size_t completed;                                /* subproblems counted, merge() only */
    int rc;                                          /* first non-zero item code, merge() only */
} nq_count_job_t;

int api_nqueens_split_depth(int n, int symmetry) {
    /* Pre-place one queen when the border classes alone are too coarse to
     * balance the workers (and a cluster): up to n = 18 they suffice (5,728
     * classes, a few ms each at n = 18); one queen more makes 85,877 pieces
     * at n = 19 and 216,545 at n = 22.  Past that (there are 18,410 classes
     * at n = 23, 38,604 at n = 27, each hours of work), and without symmetry
     * (eight times as many placements), the split stays at the placements. */
    return symmetry && n >= 19 && n <= 22 ? 1 : 0;
}

/* How many work items a count of n gets: items of about 2 ms of one core's
 * work (the engine's time grows about 6.5x per n: 0.4 s at n = 16, 2.7 s
 * at n = 17 here), so that the hand-off per item (two thread wake-ups,
 * ~50-80 us on two busy cores) stays small, the workers balance, and a small
 * request queued behind a count waits for a few items of a few ms, not for
 * long ones.  Counts up to n = 13 (about a millisecond) are one item: split
 * further, a small count would wait behind other jobs' items once per item.
 * Never more items than subproblems. */
static size_t nq_count_items(int n, size_t nsubs) {
    double ms = 400.0;
    for (int k = 16; k < n; k++)
        ms *= 6.5;
    for (int k = n; k < 16; k++)
        ms /= 6.5;
    double want = ms / 2.0;
    size_t target = want < 1 ? 1 : want > 65536 ? 65536 : (size_t)want;
    return nsubs < target ? (nsubs ? nsubs : 1) : target;
}

static int nq_count_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    nq_count_job_t *j = (nq_count_job_t *)job;
    nq_item_t *it = &j->items[item];
    it->count = 0; /* sets its outputs from nothing: restartable */
    it->nsubs = 0;
    memset(&it->stats, 0, sizeof it->stats);
    if (j->nsmall > 0) {
        it->nsubs = j->nsmall;
        return nqueens_count_subs(j->small, j->nsmall, ctl, &it->count, &it->stats);
    }
    return nqueens_count_slice(j->n, j->depth, j->symmetry, item, job->nitems, ctl, &it->count,
                               &it->nsubs, &it->stats);
}

static int nq_count_merge(api_job_t *job, size_t item, int rc) {
    nq_count_job_t *j = (nq_count_job_t *)job;
    job->nodes += j->items[item].stats.nodes;
    if (rc != 0) {
        if (j->rc == 0) j->rc = rc;
        return API_JOB_CANCEL; /* a partial count is worthless: stop the rest */
    }
    j->count += j->items[item].count;
    j->completed += j->items[item].nsubs;
    job->progress_done = j->completed; /* items hold several subproblems */
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
    json_t *stats =
        json_pack("{s:I, s:I, s:I, s:i, s:f, s:b}", "nodes", (json_int_t)job->nodes, "subproblems",
                  (json_int_t)j->nsubs, "completed_subproblems", (json_int_t)j->completed,
                  "threads", (int)job->threads, "elapsed_ms",
                  api_elapsed_ms(job->start_ns, search_now_ns()), "symmetry", j->symmetry);
    json_t *root =
        json_pack("{s:i, s:s, s:o}", "n", j->n, "status", nq_status_name(j->rc), "stats", stats);
    int ok = j->rc != SEARCH_ENOMEM;
    if (j->rc == 0 && j->completed == j->nsubs)
        api_jset(root, "count", json_integer((json_int_t)j->count), &ok);
    api_response_json_ok(out, 200, root, ok);
}

static void nq_count_free(api_job_t *job) {
    nq_count_job_t *j = (nq_count_job_t *)job;
    if (j == NULL) return;
    free(j->items);
    free(j);
}

/* An item's result for another server (see api_job_ops_t): its count,
 * statistics and number of subproblems as text, "q3 count nodes backtracks
 * propagations max_depth nsubs".  About 40 bytes; text, so that it reads the
 * same on any machine.  Which subproblems the item holds is not sent: every
 * copy slices the split the same way (q2, without nsubs, came from copies
 * that dealt a list). */
static char *nq_count_encode(api_job_t *job, size_t item, size_t *len, api_item_info_t *info) {
    const nq_item_t *it = &((nq_count_job_t *)job)->items[item];
    char *buf = malloc(128);
    if (buf == NULL) return NULL;
    int n = snprintf(buf, 128, "q3 %llu %llu %llu %llu %u %zu", (unsigned long long)it->count,
                     (unsigned long long)it->stats.nodes, (unsigned long long)it->stats.backtracks,
                     (unsigned long long)it->stats.propagations, (unsigned)it->stats.max_depth,
                     it->nsubs);
    *len = (size_t)n;
    info->nodes = it->stats.nodes;
    info->units = it->nsubs; /* progress counts subproblems */
    return buf;
}

static int nq_count_decode(api_job_t *job, size_t item, const char *bytes, size_t len) {
    nq_item_t *it = &((nq_count_job_t *)job)->items[item];
    unsigned long long v[6];
    char text[128];
    int used = 0;
    if (item >= job->nitems || len == 0 || len >= sizeof text) return -1;
    memcpy(text, bytes, len);
    text[len] = '\0';
    if (sscanf(text, "q3 %llu %llu %llu %llu %llu %llu%n", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
               &used) != 6 ||
        (size_t)used != len || v[4] > UINT32_MAX || v[5] > ((nq_count_job_t *)job)->nsubs)
        return -1;
    it->count = v[0];
    it->stats.nodes = v[1];
    it->stats.backtracks = v[2];
    it->stats.propagations = v[3];
    it->stats.max_depth = (uint32_t)v[4];
    it->nsubs = (size_t)v[5];
    return 0;
}

static const api_job_ops_t nq_count_ops = {
    "nqueens", nq_count_run, nq_count_merge,  nq_count_render, nq_count_free,
    0,         NULL,         nq_count_encode, nq_count_decode, NULL};

/* The split of a small count (n <= API_NQUEENS_INLINE_COUNT_N): the first
 * row's queen, with mirror symmetry the left half weighted 2 (and the
 * middle column of an odd n weighted 1).  The border split costs more to
 * enumerate than a whole count of n = 10 (130 us against 30 at n = 8), so
 * small counts take this one; their answers say so in `subproblems`.
 * n = 2, 3 have subproblems, just no completions.  Returns the number of
 * subproblems written to out (at most n). */
static size_t nq_first_row_split(int n, int symmetry, nqueens_sub_t *out) {
    size_t k = 0;
    int end = symmetry ? (n + 1) / 2 : n;
    for (int c = 0; c < end; c++) {
        out[k].n = (uint8_t)n;
        out[k].weight = symmetry && !(n % 2 == 1 && c == n / 2) ? 2 : 1;
        memset(out[k].cols, NQUEENS_FREE, sizeof out[k].cols);
        out[k].cols[0] = (uint8_t)c;
        k++;
    }
    return k;
}

/* Sizes the count (see above): 0, or -1 if out of memory. */
static int nq_count_prepare_items(nq_count_job_t *j, int n, int symmetry) {
    size_t k = 1;
    j->n = n;
    j->symmetry = symmetry;
    if (n <= API_NQUEENS_INLINE_COUNT_N) {
        j->nsmall = j->nsubs = nq_first_row_split(n, symmetry, j->small);
    } else {
        j->depth = api_nqueens_split_depth(n, symmetry);
        if (nqueens_split_size(n, j->depth, symmetry, &j->nsubs) != 0) return -1;
        k = nq_count_items(n, j->nsubs);
    }
    j->items = calloc(k, sizeof *j->items);
    if (j->items == NULL) return -1;
    j->base.nitems = k;
    j->base.progress_total = j->nsubs;
    return 0;
}

/* === GET /v1/nqueens/count: the table === */

typedef struct nq_count_in_s {
    long long n, timeout_ms, threads;
    int symmetry;
    int method; /* in nq_count_methods: the bitboard count or an exact-cover engine */
} nq_count_in_t;

static const char *const nq_count_methods[] = {"auto", "bitboard", "dlx", "algorithm-x", NULL};

#define NQ_AT(f) offsetof(nq_count_in_t, f)
static const api_opt_t nq_count_opts[] = {
    {.name = "n",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .flags = API_OPT_REQUIRED,
     .lo = 1,
     .hi = NQUEENS_COUNT_MAX_N,
     .def = 0,
     .at = NQ_AT(n)},
    {.name = "timeout_ms",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .lo = 1,
     .hi = API_REQ_TIMEOUT,
     .def = API_REQ_TIMEOUT,
     .at = NQ_AT(timeout_ms)},
    {.name = "threads",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .lo = 1,
     .hi = API_REQ_THREADS,
     .def = API_REQ_THREADS,
     .at = NQ_AT(threads)},
    {.name = "symmetry", .kind = API_OPT_BOOL, .in = API_IN_QUERY, .def = 1, .at = NQ_AT(symmetry)},
    {.name = "method",
     .kind = API_OPT_ENUM,
     .in = API_IN_QUERY,
     .flags = API_OPT_GOT,
     .names = nq_count_methods,
     .def = 0,
     .at = NQ_AT(method)},
    {0}};

int api_nqueens_count_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    nq_count_in_t in = {0};
    xcover_engine_t engine = XCOVER_ENGINE_DLX;
    nq_count_job_t *j = NULL;
    long long n;

    *job = NULL;
    api_problem_init(&p, API_EINVALID, "invalid query parameters");
    api_opts_defaults(nq_count_opts, req, &in);
    if (api_opts_query(nq_count_opts, req, 0, 0, &in, &p) != 0) goto fail;
    n = in.n;
    if (xcover_engine_parse(nq_count_methods[in.method], &engine) == 0) {
        if (api_nqueens_xc_prepare((int)n, 1, engine, (unsigned)in.threads, in.timeout_ms, job) !=
            0)
            goto nomem;
        return 0;
    }

    j = calloc(1, sizeof *j);
    if (j == NULL || nq_count_prepare_items(j, (int)n, in.symmetry) != 0) goto nomem;
    if (req->work_share != 0 && j->base.nitems * NQ_ITEM_BYTES > req->work_share) {
        /* the cut cannot shrink for it (see above): refuse, naming the need */
        api_problem_init(&p, API_EMEMORY,
                         "the count of n = %lld needs %zu bytes for its work items, more than the "
                         "%zu one request may hold (--max-request-memory)",
                         n, j->base.nitems * NQ_ITEM_BYTES, req->work_share);
        nq_count_free(&j->base);
        goto fail;
    }
    j->base.progress_unit = "subproblems";
    j->base.inline_whole = n <= API_NQUEENS_INLINE_COUNT_N; /* tiny by construction */
    api_job_ready(&j->base, &nq_count_ops, j->base.nitems, (unsigned)in.threads, in.timeout_ms,
                  job);
    return 0;

nomem:
    nq_count_free(j ? &j->base : NULL);
    api_problem_init(&p, API_ENOMEM, "could not allocate the count's work items");
fail:
    api_response_problem(resp, &p);
    return p.code;
}

const api_endpoint_t api_ep_nqueens_count = {.method = "GET",
                                             .path = "/v1/nqueens/count",
                                             .label = "nqueens",
                                             .opts = nq_count_opts,
                                             .prepare = api_nqueens_count_prepare};
