/* request.h -- what an endpoint sees of a request, what it answers, and the
 * job it hands to the server's thread pool.
 *
 * The api/ layer knows nothing of HTTP libraries or threads: the server
 * copies what it parsed into an api_request_t, calls the endpoint's prepare
 * function, and either sends the api_response_t it filled (errors and quick
 * answers) or runs the api_job_t it returned on the pool.
 *
 * Job life cycle (the server drives it; see server/pool.c):
 *
 *   prepare()  ->  run(item) x nitems, at most `threads` at once, on workers
 *              ->  merge(item) on the loop thread after each run, in
 *                  completion order, never concurrently
 *              ->  render() once, on the loop thread, after the last run
 *              ->  free()
 *
 * run() may execute concurrently for different items, so it must only write
 * to its own item's slot; merge() and render() are serialised and may touch
 * anything.  merge() answers whether to go on, stop scheduling more items, or
 * also cancel the items in flight (a first solution was found, say).
 *
 * A progressive job (ops->progressive, the batch endpoint) answers while it
 * runs: render() is called once, right after prepare() and before any run(),
 * and must set up a 200 stream; the stream reads what merge() has published
 * (with release/acquire atomics: it runs on the HTTP thread, concurrently
 * with merge()) and returns 0 while the next bytes are not ready.  finish()
 * is called on the loop thread after the last merge, with the task's first
 * negative item code (or 0): items never run end there, so the stream can
 * answer for them.  The stream may read the job: the server frees the job
 * only after the answer is sent or abandoned and the task has finished. */
#ifndef PUZZLED_API_REQUEST_H
#define PUZZLED_API_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "api/json_dump.h"
#include "api/problem.h"
#include "solvers/search.h"

#define API_MAX_PARAMS 16

typedef struct api_param_s {
    const char *key;
    const char *value; /* "" when the parameter has no '=' */
} api_param_t;

typedef struct api_request_s {
    const char *method;
    const char *path;
    const api_param_t *params;
    size_t nparams;
    const char *body; /* not NUL-terminated; may be NULL when body_len == 0 */
    size_t body_len;
    const char *content_type; /* NULL if absent */
    const char *accept;       /* NULL if absent */
    unsigned pool_threads;    /* upper bound for a `threads` parameter */
    int64_t max_timeout_ms;   /* default and maximum for `timeout_ms` */
    size_t max_batch_lines;   /* most puzzles a batch endpoint takes */
    /* Most bytes of working memory one request may hold (subproblem lists,
     * search arenas, answers being built): its share of the server's work
     * memory budget (--max-work-memory).  Sizing decisions (how deep to
     * split a count, how large an arena may grow) read it; 0 = no limit
     * (the tests and benchmarks that call prepare() directly). */
    size_t work_share;
    /* What prepare() allocates for its job to keep while it runs (a
     * generate job's items), through search_alloc: the server's charges its
     * work budget (budget_t.alloc), so that the memory shows in
     * puzzled_memory_used_bytes{budget="work"} and a full budget refuses
     * it; NULL = malloc (tests, benchmarks, cluster copies).  It outlives
     * every job. */
    const search_allocator_t *alloc;
} api_request_t;

/* Writes the next bytes of a streamed body into buf (at most max) and
 * returns how many, 0 to be called again later, or -1 at the end.  Called
 * on the HTTP thread; must not block. */
typedef long (*api_stream_fn)(void *cls, char *buf, size_t max);

/* An answer: status, content type and either a malloc'd body owned by the
 * struct, or a stream (for answers too large to build in one buffer, like a
 * ten-million-queen board): `stream` produces the body in pieces and
 * `stream_free(stream_cls)` releases what it owns once the answer is sent
 * or abandoned.  The stream owns its data: nothing it reads may belong to
 * the job, which is freed when the request completes. */
typedef struct api_response_s {
    int status;
    const char *content_type; /* static string */
    char *body;
    size_t len;
    unsigned retry_after; /* seconds; 0 = no Retry-After header */
    char location[96];    /* Location header; "" = none */
    unsigned flags;       /* API_RESP_* */
    char ctype_buf[64];   /* room for a content type that is not a static string */
    api_stream_fn stream; /* NULL: the body above */
    void (*stream_free)(void *cls);
    void *stream_cls;
    size_t charged; /* bytes of the server's work budget this answer holds (server side:
                       set where the body is built or sent, given back when it is freed;
                       api/ leaves it 0) */
} api_response_t;

/* api_response_t.flags */
#define API_RESP_ASYNC  1u /* Preference-Applied: respond-async */
#define API_RESP_EVENTS 2u /* an event stream: Cache-Control: no-cache, X-Accel-Buffering: no */

/* What merge() asks the server to do next. */
#define API_JOB_CONTINUE 0
#define API_JOB_STOP     1 /* schedule nothing more; let running items finish */
#define API_JOB_CANCEL   2 /* ... and raise the cancel flag for them */

/* What run() of a job with `turns` set may return when job->turn_ns is
 * set: its turn is over, the item is not finished, and its state is in
 * its slot; the runner calls run() for the same item again later (no
 * merge() in between). */
#define API_JOB_AGAIN 1

typedef struct api_job_s api_job_t;

/* What item_encode() tells of an item besides its bytes (see below). */
typedef struct api_item_info_s {
    uint64_t nodes; /* search nodes it visited */
    uint64_t units; /* what it adds to progress_done; 0 when progress counts items */
} api_item_info_t;

typedef struct api_job_ops_s {
    const char *puzzle; /* metrics label: "nqueens", "sudoku", ... */
    int (*run)(api_job_t *job, size_t item, const search_ctl_t *ctl);
    int (*merge)(api_job_t *job, size_t item, int rc);
    void (*render)(api_job_t *job, api_response_t *out);
    void (*free)(api_job_t *job);
    int progressive;                        /* see above; 0 for ordinary jobs */
    void (*finish)(api_job_t *job, int rc); /* progressive jobs only */
    /* Split work across servers (optional; both NULL: the job runs where it
     * was created).  Items may then run on other servers, each on its own
     * copy of the job, rebuilt by prepare() from the same request, and
     * merge() runs on yet another copy.  item_encode(item), called after
     * run(item) returned 0, gives that item's result (what run() wrote into
     * its slot) as bytes, malloc'd, their number in *len (NULL: out of
     * memory), and in *info its search nodes and its share of progress
     * (api_item_info_t); it may empty the slot (the copy that ran an item
     * never merges it).
     * item_decode(item, bytes) writes them into a fresh copy's slot as
     * run() would have (0, or -1 for bytes it did not make), and merge(item,
     * 0) follows.  The bytes are this layer's own format, and the job must
     * not depend on which copy ran what: nitems is fixed by prepare(), and
     * merge() may see the items in any order (the server merges in item
     * order).  A progressive job's merging copy gets finish() after the last
     * merge, then render(), whose stream is read to its end at once. */
    char *(*item_encode)(api_job_t *job, size_t item, size_t *len, struct api_item_info_s *info);
    int (*item_decode)(api_job_t *job, size_t item, const char *bytes, size_t len);
    /* Progressive jobs, optional (NULL: never): nonzero while the job wants
     * no new item started, because what it made waits for a slow reader
     * (answer lines not yet sent).  Items between turns go on; the runner
     * asks again before it starts the next item, and at least every 100
     * ms while the job waits (the pool's POOL_WATCH_MS), and a held job's deadline and
     * cancel work as for one that waits for a worker.  Called on the loop
     * thread while the stream may be read on another: it reads atomics. */
    int (*hold)(api_job_t *job);
} api_job_ops_t;

/* Embedded first in each endpoint's job struct. */
struct api_job_s {
    const api_job_ops_t *ops;
    size_t nitems;      /* 0 finishes at once; merge() may raise it */
    unsigned threads;   /* items in flight at most, >= 1 */
    int64_t timeout_ms; /* deadline, counted from admission */
    int64_t start_ns;   /* when prepare() built it */
    uint64_t nodes;     /* search nodes so far, for metrics (set by merge) */
    /* What progress means for this job when it runs in the background (read
     * on the loop thread, like merge()).  Left 0 and NULL, progress counts
     * merged items out of nitems (a split job sets progress_unit to
     * "subproblems" or "subtrees"), or, for a single search, nodes and time
     * only.  A job whose items are not its unit of work (a batch's chunks of
     * lines) keeps progress_done / progress_total itself in merge(). */
    const char *progress_unit;
    uint64_t progress_done, progress_total;
    /* Set by prepare() when the server may first try the job on the HTTP
     * thread: a single item on one worker whose run() is restartable (it
     * sets its outputs from nothing, so a try cut short by the server's
     * inline slice can run again from scratch on the pool) and whose solver
     * polls its deadline often enough (every SEARCH_POLL_MASK + 1 nodes is a
     * millisecond or so) to keep the try short.  Most small requests then
     * answer without the two thread hand-offs of the pool. */
    int inline_ok;
    /* Set by prepare() when the whole job is small by construction (all of
     * its items together take microseconds: an N-Queens count of n <= 10):
     * the server runs every item and merge on the HTTP thread, in order, to
     * the end (under the job's own deadline), and answers at once. */
    int inline_whole;
    /* Set by prepare() for long work of low priority (generation): its items
     * run in the server's background share of the workers, taking turns
     * with async jobs, even when the client waits for the answer, so that
     * it never holds the workers kept for other requests. */
    int background;
    /* Set by prepare() when run() honours turn_ns and may return
     * API_JOB_AGAIN (the generators).  The runner reads API_JOB_AGAIN as a
     * turn only from such a job: another run() may return 1 for its own
     * reasons (an N-Queens completion with no solution). */
    int turns;
    /* Set by the runner before any item runs (the pool, for background
     * tasks of jobs with `turns`: POOL_TURN_NS), 0 everywhere else: run()
     * may end an unfinished item after about this many nanoseconds of work
     * by returning API_JOB_AGAIN, keeping its state in its slot, and is
     * called again for it later.  Written by the submitting thread before
     * the first item is queued, read by the workers. */
    int64_t turn_ns;
    /* Set by prepare() when it read the JSON body on its fast path
     * (api/json_scan.h) rather than through jansson; the tests look. */
    int body_fast;
};

/* The last step of every prepare(): sets job's ops, nitems, threads,
 * timeout_ms and start_ns (now), then *out = job.  Cannot fail.  The job
 * must be complete: the server runs it once prepare() returns 0. */
void api_job_ready(api_job_t *job, const api_job_ops_t *ops, size_t nitems, unsigned threads,
                   int64_t timeout_ms, api_job_t **out);

/* Endpoint entry point: on success returns 0 and sets *job (caller runs and
 * frees it); otherwise fills *resp (an error, or an answer that needs no
 * solving) and returns the API_E* code, or 0 with *job NULL. */
typedef int (*api_prepare_fn)(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* === Responses === */

/* Serialises `json` (a json_t *, stolen) as the body.  On failure to encode it
 * becomes a 500 problem. */
void api_response_json(api_response_t *resp, int status, void *json);

/* Renders a problem into resp (status from the error table). */
void api_response_problem(api_response_t *resp, const api_problem_t *p);

/* Frees the body; resp may be reused afterwards.  NULL-safe. */
void api_response_destroy(api_response_t *resp);

/* === Query parameters === */

/* The value of parameter `key`, or NULL when absent. */
const char *api_param(const api_request_t *req, const char *key);

/* Adds an error to `p` for every parameter not named in `allowed` (a
 * NULL-terminated list) and for every parameter given twice.  Returns the
 * number of offending parameters. */
int api_params_check(const api_request_t *req, const char *const *allowed, api_problem_t *p);

/* Parses parameter `key` as a decimal integer in [lo, hi].  Absent: *out =
 * def and returns 0 (if `required`, adds an error and returns -1).  Present
 * but malformed or out of range: adds an error naming the parameter and
 * returns -1, *out untouched. */
int api_param_int(const api_request_t *req, const char *key, int required, long long lo,
                  long long hi, long long def, long long *out, api_problem_t *p);

/* Parses parameter `key` as a boolean (true/false/1/0); same conventions. */
int api_param_bool(const api_request_t *req, const char *key, int def, int *out, api_problem_t *p);

/* === Media types === */

/* Whether a Content-Type value names `type` (case-insensitive, parameters
 * after ';' ignored).  NULL is no type. */
int api_media_is(const char *header, const char *type);

/* Whether an Accept value lists `type` among its comma-separated entries. */
int api_accepts(const char *accept, const char *type);

/* Milliseconds between two CLOCK_MONOTONIC readings, as a double. */
double api_elapsed_ms(int64_t start_ns, int64_t end_ns);

#endif
