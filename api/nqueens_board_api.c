/* nqueens_board_api.c -- N-Queens boards over HTTP: solve (complete) a board
 * with any method, count completions, analyse, and page through solutions.
 *
 * A board in a body is {"n": N, "queens": [column or null per row]} or
 * {"n": N, "placed": [[row, col], ...]}; both become fixed[r] (-1 = empty).
 * Errors: 400 names queens[r] / placed[k] (out of range, two in one row);
 * queens that attack each other are a 422 naming both (queens[r1] and
 * queens[r2], or the placed[] entries).
 *
 * Large answers: a board of more than API_NQUEENS_INLINE_MAX_N queens is
 * streamed (chunked encoding): the JSON head is rendered, then the columns
 * are printed straight from the solver's array, which the stream takes over
 * from the job.  `output=summary` leaves the board out altogether.  Every
 * board is verified in O(n) on the worker before any byte is sent: placed
 * queens kept, no two queens attacking. */
#include "api/nqueens_board_api.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_util.h"
#include "api/nqueens_api.h"
#include "api/opts.h"
#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/board.h"
#include "solvers/nqueens/heur.h"
#include "solvers/nqueens/repair.h"
#include "solvers/nqueens/xc.h"

#define NQB_ANALYZE_MAX_N 1024 /* candidates of every row: n^2 numbers in the answer */
#define NQB_PAIRS_SHOWN   64

/* === Boards in bodies === */

typedef struct nqb_board_s {
    int n;
    int *fixed;  /* n entries, -1 = empty; NULL for an empty board */
    int *origin; /* placed[] index of each row's queen (placed form), else NULL */
    int placed;  /* queens on the board */
    int placed_form;
} nqb_board_t;

static void nqb_board_free(nqb_board_t *b) {
    free(b->fixed);
    free(b->origin);
    b->fixed = b->origin = NULL;
}

static void nqb_row_field(const nqb_board_t *b, int r, char *f, size_t cap) {
    if (b->placed_form)
        snprintf(f, cap, "placed[%d]", b->origin[r]);
    else
        snprintf(f, cap, "queens[%d]", r);
}

/* What a request of the board endpoints says (the tables below write it;
 * each endpoint reads its own rows): n, the board, and the options. */
typedef struct nqb_in_s {
    long long n;   /* 0 until read right */
    nqb_board_t b; /* queens or placed, read against n */
    long long threads, timeout_ms, seed, max_steps, offset, limit;
    int method; /* index in the row's names */
    int start;  /* index in nqb_start_names: nqueens_repair_start_t */
    int output; /* index in nqb_outputs: 0 full, 1 summary */
    int trace;
    nqueens_method_t solver; /* the method picked for n (nqb_method_pick) */
} nqb_in_t;

/* Allocates the board's rows, all empty; 0, or -2 (the problem in p). */
static int nqb_board_rows(nqb_in_t *in, api_problem_t *p) {
    in->b.n = (int)in->n;
    in->b.fixed = malloc((size_t)in->n * sizeof *in->b.fixed);
    if (in->b.fixed == NULL) {
        api_problem_nomem(p, "reading the board");
        return -2;
    }
    for (long long r = 0; r < in->n; r++)
        in->b.fixed[r] = -1;
    return 0;
}

/* "queens": a column or null per row.  Read once n is right; with "placed"
 * too, the problem names placed. */
static int nqb_queens(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *q,
                      void *out, api_problem_t *p) {
    nqb_in_t *in = out;
    long long n = in->n;
    size_t k;
    json_t *v;
    int bad = 0, rc;
    char f[48];
    (void)o, (void)req;
    if (n == 0) return 0; /* n is wrong, and named */
    if (json_object_get(root, "placed") != NULL) {
        api_problem_add(p, "body", "placed", "give queens or placed, not both");
        return -1;
    }
    if ((rc = nqb_board_rows(in, p)) != 0) return rc;
    if (!json_is_array(q) || json_array_size(q) != (size_t)n) {
        api_problem_add(p, "body", "queens", "must be %lld entries: a column or null per row", n);
        return -1;
    }
    json_array_foreach(q, k, v) {
        if (json_is_null(v)) continue;
        snprintf(f, sizeof f, "queens[%zu]", k);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= n) {
            api_problem_add(p, "body", f, "must be a column from 0 to %lld, or null", n - 1);
            bad = 1;
            continue;
        }
        in->b.fixed[k] = (int)json_integer_value(v);
        in->b.placed++;
    }
    return bad ? -1 : 0;
}

/* "placed": [row, col] pairs, at most one a row.  Read once n is right and
 * when queens is absent (else queens named the clash). */
static int nqb_placed(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *pl,
                      void *out, api_problem_t *p) {
    nqb_in_t *in = out;
    nqb_board_t *b = &in->b;
    long long n = in->n;
    size_t k;
    json_t *v;
    int bad = 0, rc;
    char f[48];
    (void)o, (void)req;
    if (n == 0 || json_object_get(root, "queens") != NULL) return 0;
    if ((rc = nqb_board_rows(in, p)) != 0) return rc;
    b->placed_form = 1;
    if (!json_is_array(pl) || json_array_size(pl) > (size_t)n) {
        api_problem_add(p, "body", "placed", "must be at most %lld [row, col] pairs", n);
        return -1;
    }
    b->origin = malloc((size_t)n * sizeof *b->origin);
    if (b->origin == NULL) {
        api_problem_nomem(p, "reading the board");
        return -2;
    }
    json_array_foreach(pl, k, v) {
        json_t *r = json_array_get(v, 0), *c = json_array_get(v, 1);
        snprintf(f, sizeof f, "placed[%zu]", k);
        if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(r) ||
            !json_is_integer(c) || json_integer_value(r) < 0 || json_integer_value(r) >= n ||
            json_integer_value(c) < 0 || json_integer_value(c) >= n) {
            api_problem_add(p, "body", f, "must be [row, col] with both from 0 to %lld", n - 1);
            bad = 1;
            continue;
        }
        int row = (int)json_integer_value(r);
        if (b->fixed[row] >= 0) {
            api_problem_add(p, "body", f, "row %d already has a queen (placed[%d])", row,
                            b->origin[row]);
            bad = 1;
            continue;
        }
        b->fixed[row] = (int)json_integer_value(c);
        b->origin[row] = (int)k;
        b->placed++;
    }
    return bad ? -1 : 0;
}

/* 0, or a 422 naming the attacking pair (API_EUNPROCESSABLE), or API_ENOMEM. */
static int nqb_board_attacks(const nqb_board_t *b, api_problem_t *p) {
    nqueens_pair_t bad;
    void *scratch;
    char f1[48], f2[48];
    int rc;
    if (b->fixed == NULL) return 0;
    scratch = malloc(nqueens_board_scratch(b->n));
    if (scratch == NULL) {
        api_problem_nomem(p, "checking the board");
        return API_ENOMEM;
    }
    rc = nqueens_board_check(b->n, b->fixed, scratch, &bad);
    free(scratch);
    if (rc != NQUEENS_EATTACK) return 0; /* ranges were checked while reading */
    nqb_row_field(b, bad.r1, f1, sizeof f1);
    nqb_row_field(b, bad.r2, f2, sizeof f2);
    api_problem_init(p, API_EUNPROCESSABLE, "placed queens attack each other: (%d,%d) and (%d,%d)",
                     bad.r1, b->fixed[bad.r1], bad.r2, b->fixed[bad.r2]);
    api_problem_add(p, "body", f1, "attacks the queen at (%d,%d)", bad.r2, b->fixed[bad.r2]);
    api_problem_add(p, "body", f2, "attacks the queen at (%d,%d)", bad.r1, b->fixed[bad.r1]);
    return API_EUNPROCESSABLE;
}

/* A board endpoint's body: JSON only, no query string, then phase 0 of its
 * table (unknown members, n, the board), then the attack check (a 422
 * naming both queens).  0 or an API code (the problem in p). */
static int nqb_read_body(const api_request_t *req, const api_endpoint_t *ep, json_t **root,
                         nqb_in_t *in, api_problem_t *p) {
    static const char *const none[] = {NULL};
    int bad = 0, rc;
    api_problem_init(p, API_EINVALID, "the board is not valid");
    if (!api_json_content_type(req)) {
        api_endpoint_media_problem(ep, req, p);
        return API_EMEDIA;
    }
    bad |= api_params_check(req, none, p) != 0;
    if ((*root = api_json_object(req, p)) == NULL) return p->code;
    api_opts_defaults(ep->opts, req, in);
    rc = api_opts_json(ep->opts, req, *root, 0, in, p);
    if (rc == -2) return API_ENOMEM;
    if (rc != 0 || bad) return API_EINVALID;
    in->b.n = (int)in->n;
    return nqb_board_attacks(&in->b, p);
}

/* The rows every board endpoint reads first, n up to max_n. */
#define NQB_AT(f) offsetof(nqb_in_t, f)
#define NQB_BOARD_ROWS(max_n)                                                                      \
    {.name = "n",                                                                                  \
     .kind = API_OPT_INT,                                                                          \
     .in = API_IN_JSON,                                                                            \
     .flags = API_OPT_REQUIRED,                                                                    \
     .lo = 1,                                                                                      \
     .hi = (max_n),                                                                                \
     .def = 0,                                                                                     \
     .at = NQB_AT(n)},                                                                             \
        {.name = "queens", .kind = API_OPT_DATA, .in = API_IN_JSON, .json = nqb_queens}, {         \
        .name = "placed", .kind = API_OPT_DATA, .in = API_IN_JSON, .json = nqb_placed              \
    }

static const char *const nqb_media[] = {"application/json", NULL};

/* === Analysis (answered at once) === */

static const api_opt_t nqb_analyze_opts[] = {NQB_BOARD_ROWS(NQB_ANALYZE_MAX_N), {0}};

int api_nqueens_analyze_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    json_t *root = NULL;
    nqb_in_t in = {0};
    nqb_board_t b;
    uint64_t *cand = NULL;
    int *ncand = NULL;
    void *scratch = NULL;
    nqueens_pair_t pairs[NQB_PAIRS_SHOWN], bad;
    nqueens_analysis_t an;
    int rc;

    *job = NULL;
    rc = nqb_read_body(req, &api_ep_nqueens_analyze, &root, &in, &p);
    b = in.b;
    if (rc == API_EUNPROCESSABLE) rc = 0; /* attacks are reported, not refused */
    if (rc != 0) goto fail;
    size_t words = nqueens_row_words(b.n);
    cand = malloc((size_t)b.n * words * sizeof *cand);
    ncand = malloc((size_t)b.n * sizeof *ncand);
    scratch = malloc(nqueens_board_scratch(b.n));
    int *fixed = b.fixed;
    if (fixed == NULL && (fixed = b.fixed = malloc((size_t)b.n * sizeof *fixed)) != NULL)
        for (int r = 0; r < b.n; r++)
            fixed[r] = -1;
    if (cand == NULL || ncand == NULL || scratch == NULL || fixed == NULL) {
        rc = API_ENOMEM;
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    if (nqueens_board_analyze(b.n, fixed, cand, ncand, pairs, NQB_PAIRS_SHOWN, &an, scratch,
                              &bad) != 0) {
        rc = API_EINTERNAL;
        api_problem_init(&p, API_EINTERNAL, "analysis failed");
        goto fail;
    }
    json_t *rows = json_array(), *conflicts = json_array();
    for (int r = 0; r < b.n && rows; r++) {
        if (fixed[r] >= 0) {
            json_array_append_new(rows, json_pack("{s:i, s:i}", "row", r, "queen", fixed[r]));
            continue;
        }
        json_t *cs = json_array();
        for (int c = 0; c < b.n && cs; c++)
            if (cand[(size_t)r * words + (size_t)c / 64] >> (c % 64) & 1)
                json_array_append_new(cs, json_integer(c));
        json_array_append_new(rows, json_pack("{s:i, s:o}", "row", r, "candidates", cs));
    }
    for (size_t k = 0; k < an.npairs && k < NQB_PAIRS_SHOWN && conflicts; k++)
        json_array_append_new(conflicts,
                              json_pack("{s:[i,i], s:[i,i]}", "a", pairs[k].r1, fixed[pairs[k].r1],
                                        "b", pairs[k].r2, fixed[pairs[k].r2]));
    json_t *out = json_pack("{s:i, s:i, s:o, s:o, s:I}", "n", b.n, "placed", an.placed, "rows",
                            rows, "conflicts", conflicts, "conflicts_total", (json_int_t)an.npairs);
    if (out != NULL)
        json_object_set_new(out, "next_row",
                            an.next_row >= 0 ? json_integer(an.next_row) : json_null());
    api_response_json(resp, 200, out);
    rc = 0;
    goto done;
fail:
    api_response_problem(resp, &p);
done:
    free(cand);
    free(ncand);
    free(scratch);
    nqb_board_free(&b);
    json_decref(root);
    return rc;
}

/* === Counting completions === */

/* A count is cut into prefixes (solvers/nqueens/board.h), one pool item
 * each, so that the workers balance and a small request waits behind short
 * items.  How deep to cut depends on two bounds, not on n alone:
 *
 *   want   items of about NQB_COUNT_ITEM_MS of one core, from the work an
 *          empty board of the free rows would take (NQB_COUNT_MS_16 at 16
 *          free rows, x6.5 a row: measured; placed queens only make it
 *          less), so the hand-off per item (~50-80 us) stays small;
 *   max    NQB_COUNT_MAX_ITEMS, and the request's share of the server's
 *          work memory (api_request_t.work_share) over the bytes an item
 *          holds (its prefix and its result slot).
 *
 * The cut is planned and written on a worker, as the job's item 0
 * (nqueens_complete_plan(): O(max * n * depth^2) whatever the board), whose
 * merge raises nitems to 1 + the number of prefixes; prepare() only reads
 * and checks the board.  The old split, depth 5 from n = 18 on the HTTP
 * thread, built 4,487,692 subproblems (600 MB, 3.8 s) for a 26-byte body
 * at n = 27.
 *
 * Threads: item 0's run() writes depth, nprefix, prefix and slots on a
 * worker; merge(0), on the loop thread after that run
 * returned, publishes them by raising nitems; item k >= 1 then reads the
 * board and prefix k-1 (constant from there on) and writes only slots[k-1],
 * which merge(k) reads after it returned.  total, completed and rc belong
 * to merge() and render() (loop thread). */
#define NQB_COUNT_MAX_ITEMS 65536
#define NQB_COUNT_ITEM_MS   2.0
#define NQB_COUNT_MS_16     2560.0 /* nqueens_complete_count(16, empty board), one core */

typedef struct nqb_slot_s {
    uint64_t count;
    search_stats_t stats;
} nqb_slot_t;

/* Bytes one item holds at most: its prefix and its slot. */
#define NQB_COUNT_ITEM_BYTES (sizeof(nqb_slot_t) + NQUEENS_COUNT_MAX_N)

typedef struct nqb_count_s {
    api_job_t base;
    nqb_board_t b;
    size_t want, max; /* the plan's bounds, set by prepare() */
    /* written by item 0 (see above) */
    int depth;
    size_t nprefix;
    uint8_t *prefix; /* nprefix * depth bytes */
    nqb_slot_t *slots;
    /* merge() and render() only */
    int split_merged; /* item 0 merged: nitems counts the prefixes */
    uint64_t total;
    size_t completed;
    int rc;
} nqb_count_t;

/* Items of about NQB_COUNT_ITEM_MS for an empty board of `free` rows, at
 * least 1 and at most max. */
static size_t nqb_count_want(int free, size_t max) {
    double ms = NQB_COUNT_MS_16;
    for (int k = 16; k < free; k++)
        ms *= 6.5;
    for (int k = free; k < 16; k++)
        ms /= 6.5;
    double want = ms / NQB_COUNT_ITEM_MS;
    return want < 1 ? 1 : want >= (double)max ? max : (size_t)want;
}

/* Item 0: plans the cut and writes the prefixes. */
static int nqb_count_split(nqb_count_t *j, const search_ctl_t *ctl) {
    size_t k = 0;
    int depth = 0, rc;
    rc = nqueens_complete_plan(j->b.n, j->b.fixed, j->want, j->max, ctl, &depth, &k, NULL);
    if (rc != 0) return rc;
    free(j->prefix); /* a run tried before and cut short (restartable) */
    free(j->slots);
    j->prefix = malloc(k * (size_t)depth + 1);
    j->slots = calloc(k ? k : 1, sizeof *j->slots);
    if (j->prefix == NULL || j->slots == NULL) return SEARCH_ENOMEM;
    rc = nqueens_complete_prefixes(j->b.n, j->b.fixed, depth, j->prefix, k, &k, ctl, NULL);
    if (rc != 0) return rc;
    j->depth = depth;
    j->nprefix = k;
    return 0;
}

static int nqb_count_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    nqb_count_t *j = (nqb_count_t *)job;
    if (item == 0) return nqb_count_split(j, ctl);
    nqb_slot_t *sl = &j->slots[item - 1];
    sl->count = 0;
    return nqueens_complete_count_prefix(j->b.n, j->b.fixed, j->depth,
                                         j->prefix + (item - 1) * (size_t)j->depth, ctl, &sl->count,
                                         &sl->stats);
}

static int nqb_count_merge(api_job_t *job, size_t item, int rc) {
    nqb_count_t *j = (nqb_count_t *)job;
    if (item > 0) job->nodes += j->slots[item - 1].stats.nodes;
    if (rc != 0) {
        if (j->rc == 0) j->rc = rc;
        return API_JOB_CANCEL; /* a partial count is worthless: stop the rest */
    }
    if (item == 0) { /* the cut is known: schedule its prefixes */
        job->nitems = 1 + j->nprefix;
        job->progress_total = j->nprefix;
        j->split_merged = 1;
        return API_JOB_CONTINUE;
    }
    j->total += j->slots[item - 1].count;
    j->completed++;
    job->progress_done = j->completed;
    return API_JOB_CONTINUE;
}

static void nqb_count_render(api_job_t *job, api_response_t *out) {
    nqb_count_t *j = (nqb_count_t *)job;
    int done = j->rc == 0 && j->split_merged && j->completed == j->nprefix;
    api_problem_t p;
    if (j->rc != 0 && j->rc != SEARCH_TIMEOUT && j->rc != SEARCH_CANCELLED &&
        j->rc != SEARCH_BUDGET) {
        api_problem_init(&p, j->rc == SEARCH_ENOMEM ? API_ENOMEM : API_EINTERNAL,
                         "the count failed: %s (%s)", search_code_str(j->rc),
                         search_code_name(j->rc));
        api_response_problem(out, &p);
        return;
    }
    json_t *stats = json_pack("{s:I, s:I, s:I, s:i, s:f}", "nodes", (json_int_t)job->nodes,
                              "subproblems", (json_int_t)j->nprefix, "completed_subproblems",
                              (json_int_t)j->completed, "threads", (int)job->threads, "elapsed_ms",
                              api_elapsed_ms(job->start_ns, search_now_ns()));
    json_t *root = json_pack("{s:i, s:i, s:s, s:o}", "n", j->b.n, "placed", j->b.placed, "status",
                             done                        ? "complete"
                             : j->rc == SEARCH_CANCELLED ? "cancelled"
                                                         : "timeout",
                             "stats", stats);
    if (root != NULL && done)
        json_object_set_new(root, "count", json_integer((json_int_t)j->total));
    api_response_json(out, 200, root);
}

static void nqb_count_free(api_job_t *job) {
    nqb_count_t *j = (nqb_count_t *)job;
    if (j == NULL) return;
    nqb_board_free(&j->b);
    free(j->prefix);
    free(j->slots);
    free(j);
}

static const api_job_ops_t nqb_count_ops = {
    "nqueens", nqb_count_run, nqb_count_merge, nqb_count_render, nqb_count_free, 0, NULL, NULL,
    NULL,      NULL};

static const api_opt_t nqb_count_opts[] = {NQB_BOARD_ROWS(NQUEENS_COUNT_MAX_N),
                                           {.name = "threads",
                                            .kind = API_OPT_INT,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .lo = 1,
                                            .hi = API_REQ_THREADS,
                                            .def = API_REQ_THREADS,
                                            .at = NQB_AT(threads)},
                                           {.name = "timeout_ms",
                                            .kind = API_OPT_INT,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .lo = 1,
                                            .hi = API_REQ_TIMEOUT,
                                            .def = API_REQ_TIMEOUT,
                                            .at = NQB_AT(timeout_ms)},
                                           {0}};

int api_nqueens_count_post_prepare(const api_request_t *req, api_job_t **job,
                                   api_response_t *resp) {
    api_problem_t p;
    json_t *root = NULL;
    nqb_count_t *j = calloc(1, sizeof *j);
    nqb_in_t in = {0};
    int rc;

    *job = NULL;
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    rc = nqb_read_body(req, &api_ep_nqueens_count_post, &root, &in, &p);
    j->b = in.b; /* the job owns the board from here */
    if (rc != 0 || api_opts_json(nqb_count_opts, req, root, 1, &in, &p) != 0) goto fail;
    j->max = NQB_COUNT_MAX_ITEMS;
    if (req->work_share != 0 && req->work_share / NQB_COUNT_ITEM_BYTES < j->max)
        j->max =
            req->work_share / NQB_COUNT_ITEM_BYTES ? req->work_share / NQB_COUNT_ITEM_BYTES : 1;
    j->want = nqb_count_want(j->b.n - j->b.placed, j->max);
    j->base.progress_unit = "subproblems";
    j->base.inline_whole = j->b.n <= API_NQUEENS_INLINE_COUNT_N; /* tiny by construction */
    /* item 0 cuts the count (see above); its merge adds the prefixes */
    api_job_ready(&j->base, &nqb_count_ops, 1, (unsigned)in.threads, in.timeout_ms, job);
    json_decref(root);
    return 0;
fail:
    nqb_count_free(j ? &j->base : NULL);
    json_decref(root);
    api_response_problem(resp, &p);
    return p.code;
}

/* === Paged enumeration === */

typedef struct nqb_enum_s {
    api_job_t base;
    int n, limit, written, rc;
    uint64_t offset;
    int *out;
    search_stats_t stats;
} nqb_enum_t;

static int nqb_enum_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    nqb_enum_t *j = (nqb_enum_t *)job;
    (void)item;
    return nqueens_enumerate(j->n, NULL, j->offset, j->limit, ctl, j->out, &j->written, &j->stats,
                             NULL);
}

static int nqb_enum_merge(api_job_t *job, size_t item, int rc) {
    nqb_enum_t *j = (nqb_enum_t *)job;
    (void)item;
    j->rc = rc;
    job->nodes += j->stats.nodes;
    return API_JOB_STOP;
}

static void nqb_enum_render(api_job_t *job, api_response_t *out) {
    nqb_enum_t *j = (nqb_enum_t *)job;
    unsigned char *scratch = malloc(nqueens_verify_scratch(j->n));
    uint64_t total;
    json_t *sols = json_array();
    if (scratch == NULL) {
        json_decref(sols);
        api_response_nomem(out, "checking the solutions");
        return;
    }
    for (int k = 0; k < j->written && sols != NULL; k++) {
        json_t *one = json_array();
        if (!nqueens_verify(j->n, j->out + (size_t)k * (size_t)j->n, scratch)) {
            api_problem_t p;
            api_problem_init(&p, API_EINTERNAL, "solution %d fails verification", k);
            json_decref(one);
            json_decref(sols);
            free(scratch);
            api_response_problem(out, &p);
            return;
        }
        for (int r = 0; r < j->n && one; r++)
            json_array_append_new(one, json_integer(j->out[(size_t)k * (size_t)j->n + (size_t)r]));
        json_array_append_new(sols, one);
    }
    free(scratch);
    json_t *root =
        json_pack("{s:i, s:I, s:i, s:i, s:s, s:o, s:{s:I, s:f}}", "n", j->n, "offset",
                  (json_int_t)j->offset, "limit", j->limit, "returned", j->written, "status",
                  j->rc == 0                  ? "complete"
                  : j->rc == SEARCH_CANCELLED ? "cancelled"
                                              : "timeout",
                  "solutions", sols, "stats", "nodes", (json_int_t)j->stats.nodes, "elapsed_ms",
                  api_elapsed_ms(job->start_ns, search_now_ns()));
    if (root != NULL && j->n <= 16 && nqueens_total(j->n, &total) == 0)
        json_object_set_new(root, "total", json_integer((json_int_t)total));
    if (root != NULL && j->rc == 0 && j->written == j->limit)
        json_object_set_new(root, "next_offset",
                            json_integer((json_int_t)(j->offset + (uint64_t)j->limit)));
    api_response_json(out, 200, root);
}

static void nqb_enum_free(api_job_t *job) {
    nqb_enum_t *j = (nqb_enum_t *)job;
    if (j == NULL) return;
    free(j->out);
    free(j);
}

static const api_job_ops_t nqb_enum_ops = {
    "nqueens", nqb_enum_run, nqb_enum_merge, nqb_enum_render, nqb_enum_free, 0, NULL, NULL,
    NULL,      NULL};

static const api_opt_t nqb_solutions_opts[] = {{.name = "n",
                                                .kind = API_OPT_INT,
                                                .in = API_IN_QUERY,
                                                .flags = API_OPT_REQUIRED,
                                                .lo = 1,
                                                .hi = NQUEENS_ENUM_MAX_N,
                                                .def = 0,
                                                .at = NQB_AT(n)},
                                               {.name = "offset",
                                                .kind = API_OPT_INT,
                                                .in = API_IN_QUERY,
                                                .lo = 0,
                                                .hi = (long long)1 << 62,
                                                .def = 0,
                                                .at = NQB_AT(offset)},
                                               {.name = "limit",
                                                .kind = API_OPT_INT,
                                                .in = API_IN_QUERY,
                                                .lo = 1,
                                                .hi = NQUEENS_ENUM_MAX_LIMIT,
                                                .def = 10,
                                                .at = NQB_AT(limit)},
                                               {.name = "timeout_ms",
                                                .kind = API_OPT_INT,
                                                .in = API_IN_QUERY,
                                                .lo = 1,
                                                .hi = API_REQ_TIMEOUT,
                                                .def = API_REQ_TIMEOUT,
                                                .at = NQB_AT(timeout_ms)},
                                               {0}};

int api_nqueens_solutions_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    nqb_in_t in = {0};
    nqb_enum_t *j;

    *job = NULL;
    api_problem_init(&p, API_EINVALID, "invalid query parameters");
    api_opts_defaults(nqb_solutions_opts, req, &in);
    if (api_opts_query(nqb_solutions_opts, req, 0, 0, &in, &p) != 0) goto fail;
    j = calloc(1, sizeof *j);
    if (j == NULL || (j->out = malloc((size_t)in.limit * (size_t)in.n * sizeof *j->out)) == NULL) {
        free(j);
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    j->n = (int)in.n;
    j->offset = (uint64_t)in.offset;
    j->limit = (int)in.limit;
    api_job_ready(&j->base, &nqb_enum_ops, 1, 1, in.timeout_ms, job);
    return 0;
fail:
    api_response_problem(resp, &p);
    return p.code;
}

/* === Min-conflicts: memory, trace and figures around nqueens_repair() === */

/* The names of nqueens_repair_start_t, by value; and of `output`. */
static const char *const nqb_start_names[] = {"constructed", "greedy", "random", NULL};
static const char *const nqb_outputs[] = {"full", "summary", NULL};

typedef struct nqb_repair_s {
    nqueens_repair_start_t start;
    uint32_t *trace;  /* conflicts after each move (trace=true) */
    uint8_t *restart; /* 1 where a move was a perturbation */
    size_t cap;
    nqueens_repair_result_t res;
    search_stats_t stats;
} nqb_repair_t;

/* A trace long enough for any run we have seen by a wide margin (steps stay
 * near n); a longer run is cut and says so. */
static int nqb_repair_init(nqb_repair_t *r, int n, int trace) {
    memset(r, 0, sizeof *r);
    if (!trace) return 0;
    r->cap = 64 * (size_t)n + 1024;
    r->trace = malloc(r->cap * sizeof *r->trace);
    r->restart = malloc(r->cap);
    return r->trace && r->restart ? 0 : -1;
}

static void nqb_repair_destroy(nqb_repair_t *r) {
    free(r->trace);
    free(r->restart);
    r->trace = NULL;
    r->restart = NULL;
}

/* Worker side: scratch for the run, allocated before it starts, through
 * the control block's allocator (the server's work budget). */
static int nqb_repair_run(int n, const int *fixed, uint64_t seed, uint64_t max_steps, int trace,
                          const search_ctl_t *ctl, int *cols, nqb_repair_t *r) {
    nqueens_repair_opts_t o;
    const search_allocator_t *a = search_allocator_of(NULL, ctl);
    void *scratch = search_alloc(a, nqueens_repair_scratch(n));
    int rc;
    if (scratch == NULL) return SEARCH_ENOMEM;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.max_steps = max_steps;
    o.start = r->start;
    if (trace) {
        o.trace = r->trace;
        o.restart = r->restart;
        o.trace_cap = r->cap;
    }
    rc = nqueens_repair(n, fixed, &o, ctl, cols, scratch, &r->res, &r->stats, NULL);
    search_free(a, scratch);
    return rc;
}

static void nqb_repair_stats(const nqb_repair_t *r, json_t *stats) {
    json_object_set_new(stats, "start", json_string(nqb_start_names[r->start]));
    json_object_set_new(stats, "steps", json_integer((json_int_t)r->res.steps));
    json_object_set_new(stats, "initial_conflicts",
                        json_integer((json_int_t)r->res.initial_conflicts));
    json_object_set_new(stats, "conflicts", json_integer((json_int_t)r->res.conflicts));
    json_object_set_new(stats, "restarts", json_integer((json_int_t)r->res.restarts));
}

static void nqb_repair_trace(const nqb_repair_t *r, json_t *root) {
    json_t *t = json_array(), *rs = json_array();
    for (size_t i = 0; i < r->res.trace_len && t && rs; i++) {
        json_array_append_new(t, json_integer(r->trace[i]));
        if (r->restart[i]) json_array_append_new(rs, json_integer((json_int_t)i));
    }
    json_object_set_new(root, "trace", t);
    json_object_set_new(root, "trace_restarts", rs);
    json_object_set_new(root, "trace_truncated", json_boolean(r->res.trace_len < r->res.steps));
}

/* === Solving a board === */

typedef struct nqb_solve_s {
    api_job_t base;
    nqb_board_t b;
    nqueens_method_t method;
    nqueens_repair_start_t start; /* minconflicts only, as seed and max_steps */
    uint64_t seed, max_steps;
    int trace, summary;
    int *cols;
    int rc, verified;
    search_stats_t stats;
    nqb_repair_t repair; /* minconflicts statistics and trace */
} nqb_solve_t;

static const char *nqb_method_name(nqueens_method_t m) {
    return m == NQUEENS_METHOD_MRV            ? "mrv"
           : m == NQUEENS_METHOD_MINCONFLICTS ? "minconflicts"
                                              : "backtracking";
}

/* Every board leaves the worker checked: n non-attacking queens, placed
 * queens where they were placed.  1 = checked, 0 = wrong, -1 = no memory
 * to check it. */
static int nqb_verify(const nqb_solve_t *j, const search_allocator_t *a) {
    unsigned char *scratch = search_alloc(a, nqueens_verify_scratch(j->b.n));
    if (scratch == NULL) return -1;
    int ok = nqueens_verify(j->b.n, j->cols, scratch);
    for (int r = 0; ok && j->b.fixed != NULL && r < j->b.n; r++)
        ok = j->b.fixed[r] < 0 || j->b.fixed[r] == j->cols[r];
    search_free(a, scratch);
    return ok;
}

/* The run's memory (the method's scratch, then the check's) comes from the
 * control block's allocator: the server charges it to its work budget, and
 * past the request's share the allocation fails (SEARCH_ENOMEM, which the
 * server answers 422 too-much-memory).  prepare() refuses a board whose
 * scratch cannot fit at all (nqb_solve_bytes()). */
static int nqb_solve_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    nqb_solve_t *j = (nqb_solve_t *)job;
    const search_allocator_t *a = search_allocator_of(NULL, ctl);
    void *scratch;
    int rc;
    (void)item;
    switch (j->method) {
    case NQUEENS_METHOD_MRV:
        if ((scratch = search_alloc(a, nqueens_mrv_scratch(j->b.n))) == NULL) return SEARCH_ENOMEM;
        rc = nqueens_mrv(j->b.n, j->b.fixed, ctl, j->cols, scratch, &j->stats, NULL);
        search_free(a, scratch);
        break;
    case NQUEENS_METHOD_MINCONFLICTS:
        rc = nqb_repair_run(j->b.n, j->b.fixed, j->seed, j->max_steps, j->trace, ctl, j->cols,
                            &j->repair);
        break;
    default: rc = nqueens_complete_first(j->b.n, j->b.fixed, ctl, j->cols, &j->stats, NULL); break;
    }
    if (rc == 0 && (j->verified = nqb_verify(j, a)) < 0) rc = SEARCH_ENOMEM;
    return rc;
}

static int nqb_solve_merge(api_job_t *job, size_t item, int rc) {
    nqb_solve_t *j = (nqb_solve_t *)job;
    (void)item;
    j->rc = rc;
    job->nodes += j->method == NQUEENS_METHOD_MINCONFLICTS ? j->repair.res.steps : j->stats.nodes;
    return API_JOB_STOP;
}

/* A board streamed after a rendered JSON head: head, "c0,c1,...", tail. */
typedef struct nqb_stream_s {
    char *head;
    size_t head_len, head_pos;
    int *cols;
    int n, next;
    const char *tail;
    size_t tail_pos;
} nqb_stream_t;

static long nqb_stream_read(void *cls, char *buf, size_t max) {
    nqb_stream_t *s = cls;
    size_t w = 0;
    if (s->head_pos < s->head_len) {
        size_t k = s->head_len - s->head_pos < max ? s->head_len - s->head_pos : max;
        memcpy(buf, s->head + s->head_pos, k);
        s->head_pos += k;
        return (long)k;
    }
    while (s->next < s->n && max - w >= 12) { /* a column and its comma fit in 12 */
        w +=
            (size_t)snprintf(buf + w, max - w, s->next + 1 < s->n ? "%d," : "%d", s->cols[s->next]);
        s->next++;
    }
    if (w > 0) return (long)w;
    if (s->tail[s->tail_pos] == '\0') return -1;
    while (w < max && s->tail[s->tail_pos] != '\0')
        buf[w++] = s->tail[s->tail_pos++];
    return (long)w;
}

static void nqb_stream_free(void *cls) {
    nqb_stream_t *s = cls;
    if (s == NULL) return;
    free(s->head);
    free(s->cols);
    free(s);
}

static void nqb_solve_render(api_job_t *job, api_response_t *out) {
    nqb_solve_t *j = (nqb_solve_t *)job;
    const char *status;
    json_t *stats, *root;
    api_problem_t p;

    if (j->rc == SEARCH_ENOMEM || j->rc == SEARCH_EINVAL || (j->rc == 0 && !j->verified)) {
        if (j->rc == 0)
            api_problem_init(&p, API_EINTERNAL, "the board fails verification");
        else
            api_problem_init(&p, j->rc == SEARCH_ENOMEM ? API_ENOMEM : API_EINTERNAL,
                             "the solver failed: %s (%s)", search_code_str(j->rc),
                             search_code_name(j->rc));
        api_response_problem(out, &p);
        return;
    }
    status = j->rc == 0                  ? "solved"
             : j->rc == 1                ? "unsolvable"
             : j->rc == SEARCH_CANCELLED ? "cancelled"
                                         : "timeout";
    stats = json_pack("{s:s, s:f}", "method", nqb_method_name(j->method), "elapsed_ms",
                      api_elapsed_ms(job->start_ns, search_now_ns()));
    if (stats != NULL && j->method == NQUEENS_METHOD_MINCONFLICTS) {
        nqb_repair_stats(&j->repair, stats);
    } else if (stats != NULL) {
        json_object_set_new(stats, "nodes", json_integer((json_int_t)j->stats.nodes));
        json_object_set_new(stats, "backtracks", json_integer((json_int_t)j->stats.backtracks));
        json_object_set_new(stats, "max_depth", json_integer((json_int_t)j->stats.max_depth));
    }
    root = json_pack("{s:i, s:i, s:s, s:o}", "n", j->b.n, "placed", j->b.placed, "status", status,
                     "stats", stats);
    if (root == NULL) {
        api_response_json(out, 200, NULL);
        return;
    }
    if (j->rc == 0) json_object_set_new(root, "verified", json_true());
    if (j->trace && j->method == NQUEENS_METHOD_MINCONFLICTS) nqb_repair_trace(&j->repair, root);
    if (j->rc != 0 || j->summary) {
        api_response_json(out, 200, root);
        return;
    }
    if (j->b.n <= API_NQUEENS_INLINE_MAX_N) {
        json_t *q = json_array();
        for (int r = 0; r < j->b.n && q != NULL; r++)
            json_array_append_new(q, json_integer(j->cols[r]));
        json_object_set_new(root, "queens", q);
        api_response_json(out, 200, root);
        return;
    }
    /* stream: the head without its closing brace, then ,"queens":[ ... ]} */
    nqb_stream_t *s = calloc(1, sizeof *s);
    char *head = api_json_dumps(root, API_JSON_FLAGS, NULL);
    json_decref(root);
    if (s == NULL || head == NULL) {
        free(s);
        free(head);
        api_problem_init(&p, API_ENOMEM, "out of memory for the answer");
        api_response_problem(out, &p);
        return;
    }
    size_t hl = strlen(head);
    char *h2 = realloc(head, hl + 16);
    if (h2 == NULL) {
        free(head);
        free(s);
        api_problem_init(&p, API_ENOMEM, "out of memory for the answer");
        api_response_problem(out, &p);
        return;
    }
    memcpy(h2 + hl - 1, ",\"queens\":[", 12); /* replaces the final '}' */
    s->head = h2;
    s->head_len = strlen(h2);
    s->cols = j->cols; /* the stream owns the board now */
    j->cols = NULL;
    s->n = j->b.n;
    s->tail = "]}";
    api_response_destroy(out);
    out->status = 200;
    out->content_type = "application/json";
    out->stream = nqb_stream_read;
    out->stream_free = nqb_stream_free;
    out->stream_cls = s;
}

static void nqb_solve_free(api_job_t *job) {
    nqb_solve_t *j = (nqb_solve_t *)job;
    if (j == NULL) return;
    nqb_board_free(&j->b);
    nqb_repair_destroy(&j->repair);
    free(j->cols);
    free(j);
}

static const api_job_ops_t nqb_solve_ops = {
    "nqueens", nqb_solve_run, nqb_solve_merge, nqb_solve_render, nqb_solve_free, 0, NULL, NULL,
    NULL,      NULL};

/* The board methods: POST /v1/nqueens/solve's `method` names, and the
 * first of GET's, which adds the exact-cover engines. */
static const char *const nqb_methods[] = {"auto", "backtracking", "mrv", "minconflicts", NULL};
#define NQB_METHODS_MSG "must be auto, backtracking, mrv, minconflicts, dlx or algorithm-x"
static const char *const nqb_get_methods[] = {"auto", "backtracking", "mrv", "minconflicts",
                                              "dlx",  "algorithm-x",  NULL};

/* With in->method read (an index in nqb_methods): the solver for n (auto's
 * choice depends on n and on queens placed), and n against its limit; 0, or
 * -1 with the problem naming n `where` (query or body). */
static int nqb_method_pick(nqb_in_t *in, const char *where, api_problem_t *p) {
    static const nqueens_method_t named[] = {NQUEENS_METHOD_BACKTRACK, NQUEENS_METHOD_BACKTRACK,
                                             NQUEENS_METHOD_MRV, NQUEENS_METHOD_MINCONFLICTS};
    if (in->method >= 4) { /* an exact-cover engine, where only board methods go */
        api_problem_add(p, where, "method", NQB_METHODS_MSG ", got '%.40s'",
                        nqb_get_methods[in->method]);
        return -1;
    }
    nqueens_method_t m =
        in->method == 0 ? nqueens_auto_method((int)in->n, in->b.placed > 0) : named[in->method];
    long long lim = m == NQUEENS_METHOD_BACKTRACK ? NQUEENS_ENUM_MAX_N
                    : m == NQUEENS_METHOD_MRV     ? NQUEENS_MRV_MAX_N
                                                  : API_NQUEENS_MAX_N;
    if (in->n > lim) {
        api_problem_add(p, where, "n", "%s solves n up to %lld", nqb_method_name(m), lim);
        return -1;
    }
    if (m == NQUEENS_METHOD_MINCONFLICTS && in->n < NQUEENS_REPAIR_MIN_N) {
        api_problem_add(p, where, "n", "minconflicts needs n >= %d", NQUEENS_REPAIR_MIN_N);
        return -1;
    }
    in->solver = m;
    return 0;
}

/* POST's method: the name, then the pick (absent too: auto). */
static int nqb_method_json(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                           void *out, api_problem_t *p) {
    (void)root;
    if (v != NULL && api_opts_json_kind(o, req, v, out, p) != 0) return -1;
    return nqb_method_pick(out, "body", p);
}

/* POST's trace: a boolean, true only up to API_NQUEENS_TRACE_MAX_N. */
static int nqb_trace_json(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                          void *out, api_problem_t *p) {
    nqb_in_t *in = out;
    (void)root;
    if (api_opts_json_kind(o, req, v, out, p) != 0) return -1;
    if (in->trace && in->n > API_NQUEENS_TRACE_MAX_N) {
        api_problem_add(p, "body", "trace", "only for n up to %d", API_NQUEENS_TRACE_MAX_N);
        return -1;
    }
    return 0;
}

/* The most a solve's run holds at once through the control block's
 * allocator (see nqb_solve_run()): the method's scratch (mrv ~41 bytes a
 * row, min-conflicts ~18: 183 MB at 10^7), then the check's (5 bytes a row),
 * each with the budget allocator's 16-byte header. */
static size_t nqb_solve_bytes(const nqb_solve_t *j) {
    size_t scratch = 0;
    if (j->method == NQUEENS_METHOD_MRV) scratch = nqueens_mrv_scratch(j->b.n);
    if (j->method == NQUEENS_METHOD_MINCONFLICTS) scratch = nqueens_repair_scratch(j->b.n);
    const size_t check = nqueens_verify_scratch(j->b.n);
    return (scratch > check ? scratch : check) + 16;
}

/* Refuses a board whose run cannot fit in the request's share of the work
 * memory (422 too-much-memory, as the server answers a search that runs out
 * of its share: a retry cannot help), else allocates what the job keeps; 0,
 * or the API code with the problem in p. */
static int nqb_solve_finish(nqb_solve_t *j, long long timeout_ms, size_t share, api_job_t **job,
                            api_problem_t *p) {
    const size_t need = nqb_solve_bytes(j);
    if (share != 0 && need > share) {
        api_problem_init(p, API_EMEMORY,
                         "%s at n = %d needs %zu bytes of working memory, more than the %zu one "
                         "request may hold (--max-request-memory); ask for a smaller board",
                         nqb_method_name(j->method), j->b.n, need, share);
        return API_EMEMORY;
    }
    j->cols = malloc((size_t)j->b.n * sizeof *j->cols);
    if (j->cols == NULL ||
        (j->method == NQUEENS_METHOD_MINCONFLICTS &&
         nqb_repair_init(&j->repair, j->b.n, j->trace && j->b.n <= API_NQUEENS_TRACE_MAX_N) != 0)) {
        api_problem_init(p, API_ENOMEM, "out of memory for the board");
        return API_ENOMEM;
    }
    j->repair.start = j->start;
    /* a streamed board is a second or more of one worker by construction:
     * in turns with the other background work, never in the kept worker */
    j->base.background = j->b.n > API_NQUEENS_INLINE_MAX_N;
    api_job_ready(&j->base, &nqb_solve_ops, 1, 1, timeout_ms, job);
    return 0;
}

static const api_opt_t nqb_solve_opts[] = {NQB_BOARD_ROWS(API_NQUEENS_MAX_N),
                                           {.name = "method",
                                            .kind = API_OPT_ENUM,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .flags = API_OPT_GOT | API_OPT_STRING | API_OPT_ABSENT,
                                            .names = nqb_methods,
                                            .def = 0,
                                            .msg = NQB_METHODS_MSG,
                                            .at = NQB_AT(method),
                                            .json = nqb_method_json},
                                           {.name = "start",
                                            .kind = API_OPT_ENUM,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .flags = API_OPT_GOT | API_OPT_STRING,
                                            .names = nqb_start_names,
                                            .def = 0,
                                            .at = NQB_AT(start)},
                                           {.name = "seed",
                                            .kind = API_OPT_INT,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .lo = 0,
                                            .hi = INT64_MAX,
                                            .def = 1,
                                            .at = NQB_AT(seed)},
                                           {.name = "max_steps",
                                            .kind = API_OPT_INT,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .lo = 1,
                                            .hi = INT64_MAX,
                                            .def = 0,
                                            .at = NQB_AT(max_steps)}, /* none: the deadline only */
                                           {.name = "timeout_ms",
                                            .kind = API_OPT_INT,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .lo = 1,
                                            .hi = API_REQ_TIMEOUT,
                                            .def = API_REQ_TIMEOUT,
                                            .at = NQB_AT(timeout_ms)},
                                           {.name = "trace",
                                            .kind = API_OPT_BOOL,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .def = 0,
                                            .at = NQB_AT(trace),
                                            .json = nqb_trace_json},
                                           {.name = "output",
                                            .kind = API_OPT_ENUM,
                                            .in = API_IN_JSON,
                                            .phase = 1,
                                            .names = nqb_outputs,
                                            .def = 0,
                                            .at = NQB_AT(output)},
                                           {0}};

/* The options of a solve, read, into its job; then nqb_solve_finish(). */
static int nqb_solve_from(nqb_solve_t *j, const nqb_in_t *in, size_t share, api_job_t **job,
                          api_problem_t *p) {
    j->method = in->solver;
    j->start = (nqueens_repair_start_t)in->start;
    j->seed = (uint64_t)in->seed;
    j->max_steps = (uint64_t)in->max_steps;
    j->trace = in->trace;
    j->summary = in->output == 1;
    return nqb_solve_finish(j, in->timeout_ms, share, job, p);
}

int api_nqueens_solve_post_prepare(const api_request_t *req, api_job_t **job,
                                   api_response_t *resp) {
    api_problem_t p;
    json_t *root = NULL;
    nqb_solve_t *j = calloc(1, sizeof *j);
    nqb_in_t in = {0};
    int rc;

    *job = NULL;
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    rc = nqb_read_body(req, &api_ep_nqueens_solve_post, &root, &in, &p);
    j->b = in.b; /* the job owns the board from here */
    if (rc != 0 || api_opts_json(nqb_solve_opts, req, root, 1, &in, &p) != 0) goto fail;
    if (nqb_solve_from(j, &in, req->work_share, job, &p) != 0) goto fail;
    json_decref(root);
    return 0;
fail:
    nqb_solve_free(j ? &j->base : NULL);
    json_decref(root);
    api_response_problem(resp, &p);
    return p.code;
}

/* === GET /v1/nqueens/solve: a board method, or exact cover === */

/* The variants of its table: the exact-cover engines (method dlx or
 * algorithm-x: n up to NQUEENS_XC_MAX_N, split over threads), and the board
 * methods (every other method: minconflicts' seed, max_steps, start, trace;
 * output). */
#define NQB_XC    1u
#define NQB_BOARD 2u

static const api_opt_t nqb_get_solve_opts[] = {
    {.name = "n",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .flags = API_OPT_REQUIRED,
     .variants = NQB_XC,
     .lo = 1,
     .hi = NQUEENS_XC_MAX_N,
     .def = 0,
     .at = NQB_AT(n)},
    {.name = "n",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .flags = API_OPT_REQUIRED,
     .variants = NQB_BOARD,
     .lo = 1,
     .hi = API_NQUEENS_MAX_N,
     .def = 0,
     .at = NQB_AT(n)},
    {.name = "seed",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .variants = NQB_BOARD,
     .lo = 0,
     .hi = INT64_MAX,
     .def = 1,
     .at = NQB_AT(seed)},
    {.name = "max_steps",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .variants = NQB_BOARD,
     .lo = 1,
     .hi = INT64_MAX,
     .def = 0,
     .at = NQB_AT(max_steps)}, /* none: the deadline only */
    {.name = "timeout_ms",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .lo = 1,
     .hi = API_REQ_TIMEOUT,
     .def = API_REQ_TIMEOUT,
     .at = NQB_AT(timeout_ms)},
    {.name = "threads",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY,
     .variants = NQB_XC,
     .lo = 1,
     .hi = API_REQ_THREADS,
     .def = 1,
     .at = NQB_AT(threads)},
    {.name = "trace",
     .kind = API_OPT_BOOL,
     .in = API_IN_QUERY,
     .variants = NQB_BOARD,
     .def = 0,
     .at = NQB_AT(trace)},
    {.name = "start",
     .kind = API_OPT_ENUM,
     .in = API_IN_QUERY,
     .flags = API_OPT_GOT,
     .variants = NQB_BOARD,
     .names = nqb_start_names,
     .def = 0,
     .at = NQB_AT(start)},
    {.name = "output",
     .kind = API_OPT_ENUM,
     .in = API_IN_QUERY,
     .variants = NQB_BOARD,
     .names = nqb_outputs,
     .def = 0,
     .at = NQB_AT(output)},
    {.name = "method",
     .kind = API_OPT_ENUM,
     .in = API_IN_QUERY,
     .flags = API_OPT_GOT,
     .phase = 1,
     .names = nqb_get_methods,
     .def = 0,
     .at = NQB_AT(method)},
    {0}};

/* GET solve in `variant`. */
static int nqb_get_solve(const api_request_t *req, unsigned variant, api_job_t **job,
                         api_response_t *resp) {
    xcover_engine_t engine = XCOVER_ENGINE_DLX;
    api_problem_t p;
    nqb_solve_t *j = NULL;
    nqb_in_t in = {0};
    int bad;

    *job = NULL;
    api_problem_init(&p, API_EINVALID, "invalid query parameters");
    if (variant == NQB_BOARD && (j = calloc(1, sizeof *j)) == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    api_opts_defaults(nqb_get_solve_opts, req, &in);
    bad = api_opts_query(nqb_get_solve_opts, req, 0, variant, &in, &p) != 0;
    if (!bad) bad = api_opts_query(nqb_get_solve_opts, req, 1, variant, &in, &p) != 0;
    if (variant == NQB_XC) {
        if (bad) goto fail;
        xcover_engine_parse(nqb_get_methods[in.method], &engine);
        if (api_nqueens_xc_prepare((int)in.n, 0, engine, (unsigned)in.threads, in.timeout_ms,
                                   job) != 0) {
            api_problem_init(&p, API_ENOMEM, "out of memory");
            goto fail;
        }
        return 0;
    }
    if (!bad) bad = nqb_method_pick(&in, "query", &p) != 0;
    if (!bad && in.trace && in.n > API_NQUEENS_TRACE_MAX_N) {
        api_problem_add(&p, "query", "trace", "only for n up to %d", API_NQUEENS_TRACE_MAX_N);
        bad = 1;
    }
    if (bad) goto fail;
    j->b.n = (int)in.n;
    if (nqb_solve_from(j, &in, req->work_share, job, &p) != 0) goto fail;
    return 0;
fail:
    nqb_solve_free(j ? &j->base : NULL);
    api_response_problem(resp, &p);
    return p.code;
}

int api_nqueens_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    const char *m = api_param(req, "method");
    xcover_engine_t engine;
    return nqb_get_solve(
        req, m != NULL && xcover_engine_parse(m, &engine) == 0 ? NQB_XC : NQB_BOARD, job, resp);
}

int api_nqueens_solve_get_board(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    return nqb_get_solve(req, NQB_BOARD, job, resp);
}

/* === The descriptions === */

const api_endpoint_t api_ep_nqueens_solve = {.method = "GET",
                                             .path = "/v1/nqueens/solve",
                                             .label = "nqueens",
                                             .opts = nqb_get_solve_opts,
                                             .prepare = api_nqueens_solve_prepare};

const api_endpoint_t api_ep_nqueens_solve_post = {.method = "POST",
                                                  .path = "/v1/nqueens/solve",
                                                  .label = "nqueens",
                                                  .media = nqb_media,
                                                  .opts = nqb_solve_opts,
                                                  .prepare = api_nqueens_solve_post_prepare};

const api_endpoint_t api_ep_nqueens_count_post = {.method = "POST",
                                                  .path = "/v1/nqueens/count",
                                                  .label = "nqueens",
                                                  .media = nqb_media,
                                                  .opts = nqb_count_opts,
                                                  .prepare = api_nqueens_count_post_prepare};

const api_endpoint_t api_ep_nqueens_analyze = {.method = "POST",
                                               .path = "/v1/nqueens/analyze",
                                               .label = "nqueens",
                                               .media = nqb_media,
                                               .opts = nqb_analyze_opts,
                                               .prepare = api_nqueens_analyze_prepare};

const api_endpoint_t api_ep_nqueens_solutions = {.method = "GET",
                                                 .path = "/v1/nqueens/solutions",
                                                 .label = "nqueens",
                                                 .opts = nqb_solutions_opts,
                                                 .prepare = api_nqueens_solutions_prepare};
