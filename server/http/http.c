/* http.c -- libmicrohttpd glue.
 *
 * --http-threads libmicrohttpd daemons, one polling thread each (epoll),
 * each with its own listening socket on the one port (SO_REUSEPORT): the
 * kernel spreads new connections over the sockets.  libmicrohttpd's own
 * thread pool shares one listening socket, and the first worker awake took
 * a burst of new connections: one worker often held them all and ran at
 * 100% of a core while the other idled (the figures are in
 * docs/server-tuning.md); a proxy that opens its kept-alive upstream
 * connections in a burst could pin a replica to one core the same way.
 * What the daemons counted each for itself is counted here over all:
 * --max-connections is split between them, as libmicrohttpd splits it over
 * its pool, and --max-conn-per-ip is kept in the accept policy (ips).
 * A connection stays on one thread for its whole life, so "the MHD thread"
 * below means that connection's thread.  What those threads share (the
 * server struct, the connection list, the address counts, metrics, the
 * jobs runner) is atomic or under its own lock.
 *
 * A request's life, all on its MHD thread unless noted:
 *
 *   1st call        allocate http_req_t, take the request id, match the route.
 *                   Nothing is answered on the first call (MHD closes
 *                   keep-alive connections answered before the request was
 *                   read), except a head whose framing is refused (see "The
 *                   request head": 400 or 501) and a declared Content-Length
 *                   over the limit with "Expect: 100-continue" or beyond the
 *                   drain cap (413): answered at once, and the connection
 *                   closes.
 *   upload calls    append to the body up to --max-body; past it, read and
 *                   drop the rest (up to the drain cap, then hang up) so that
 *                   the 413 arrives on a healthy connection.
 *   final call      answer at once (errors, health, metrics, web files), or:
 *                   prepare the job (parse + validate in api/), admit it to
 *                   the pool (503 if full), suspend the connection, submit:
 *                   the request is handed off, and this thread returns
 *                   without touching it.
 *   loop thread     job_done(): render the answer, resume the connection.
 *   final call      (again, after the resume) queue the rendered answer.
 *   completed       access log line, metrics, free everything.
 *
 * Ownership follows `state` (see http_req_t): READING and ANSWERED belong to
 * the MHD thread; WAITING to the pool's loop thread, from the submit until
 * MHD_resume_connection(); RENDERED and SENT to the MHD thread again.  The
 * hand-overs are ordered by the pool's lock (submit) and MHD's own mutex
 * (resume), so no field of a WAITING request is read on the MHD thread:
 * http_dispatch() says HTTP_HANDED_OFF and its caller returns at once.
 *
 * Progressive jobs (the batch endpoint) answer while they run: the final call
 * renders a 200 stream at once, submits the job and queues the answer.  The
 * stream reader returns what merge() has published; when nothing is ready it
 * suspends the connection and returns 0 (MHD's pattern for "no data yet"),
 * and the loop thread resumes it after the next merge (progress()) or when
 * the task ends.  `lock` orders those two, so a wake-up is never lost.
 *
 * http_req_t owns everything of one request (body, job, answer) and is freed
 * by http_req_free(), normally from on_completed().  An ordinary request
 * waiting on the pool is always suspended, and the daemon is stopped only
 * when the pool is empty, so on_completed() never runs while a worker still
 * uses its job.  A progressive request is not suspended while it sends, so
 * its client may vanish mid-job: on_completed() then cancels the task and
 * leaves the freeing to the task's done(), under `lock`.
 *
 * The state machines are asserted at every transition (asserts stay on in
 * the shipped build): a broken hand-off stops the process at the fault
 * instead of answering a request twice. */
#include "server/http/http.h"

#include <arpa/inet.h>
#include <assert.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api/problem.h"
#include "server/budget.h"
#include "server/guard.h"
#include "server/http/reqid.h"
#include "server/http/router.h"
#include "server/http/static.h"
#include "server/jobs/jobs.h"
#include "server/log.h"

#define HTTP_SWEEP_MS     200 /* how often connections without a request head are checked */
#define HTTP_INLINE_NS    (500 * 1000LL) /* the slice an inline try may take (see below) */
#define HTTP_LOG_PATH_MAX 200
#define HTTP_STREAM_BLOCK (64 * 1024) /* bytes MHD asks a stream for at a time */
#define HTTP_IP_BUCKETS   1024        /* the per-address connection counts' hash */
#define HTTP_HEAD_GAP_MAX (64 * 1024) /* blanks between a header's colon and value, at most */

struct http_server_s {
    struct MHD_Daemon *daemons[CONFIG_MAX_HTTP_THREADS]; /* one per --http-threads */
    unsigned ndaemons;
    const config_t *cfg;
    pool_t *pool;
    metrics_t *metrics;
    jobs_t *jobs; /* async jobs; NULL: the preference is ignored, /v1/jobs is 404 */
    reqid_t reqid;
    atomic_int draining;
    atomic_long active;
    unsigned port;
    static_site_t *site; /* the web front end's files; read-only after start */

    /* Connections still waiting for their first complete request head.  The
     * list and every http_conn_t on it are guarded by conns_lock (a leaf
     * lock): the MHD thread adds, marks and removes (connection callbacks),
     * the sweeper thread shuts down those past --head-timeout-s.  MHD
     * notifies a close before it closes the socket, and the notification
     * takes conns_lock, so the sweeper never shuts down a reused fd. */
    pthread_mutex_t conns_lock;
    struct http_conn_s *conns;
    pthread_t sweeper;
    int sweeper_stop; /* guarded by conns_lock */
    pthread_cond_t sweeper_cv;

    /* Open connections per client address, over every daemon (each
     * libmicrohttpd daemon would count only its own): a slot is taken in the
     * accept policy and given back when the connection closes.  Any MHD
     * thread; guarded by ips_lock (a leaf lock).  Empty entries are freed. */
    pthread_mutex_t ips_lock;
    struct http_ip_s *ips[HTTP_IP_BUCKETS];
};

/* One client address with open connections. */
typedef struct http_ip_s {
    unsigned char addr[16]; /* IPv4: the first 4 bytes */
    unsigned char len;
    unsigned count;
    struct http_ip_s *next;
} http_ip_t;

/* One connection, from accept to close (MHD's socket context). */
typedef struct http_conn_s {
    int fd;
    int64_t start_ns;
    int head_done; /* a complete request head arrived: off the sweeper's list */
    int shut;      /* the sweeper shut it down */
    struct http_conn_s *prev, *next;
} http_conn_t;

/* Where a request is in its life, and so which thread owns it. */
typedef enum http_state_e {
    HTTP_READING,  /* MHD thread: head and body arriving, no answer yet */
    HTTP_ANSWERED, /* MHD thread: resp holds an answer not yet queued */
    HTTP_WAITING,  /* loop thread: handed to the pool, connection suspended */
    HTTP_RENDERED, /* MHD thread (after the resume): resp holds the job's answer */
    HTTP_SENT,     /* MHD thread: queued to MHD (a progressive job may still run) */
} http_state_t;

/* What http_dispatch() did with a request. */
#define HTTP_ANSWER     0 /* resp holds the answer: queue it */
#define HTTP_HANDED_OFF 1 /* the pool owns the request now: do not touch it */

typedef struct http_req_s {
    /* Set on the first call and constant afterwards; any thread may read. */
    http_server_t *srv;
    struct MHD_Connection *conn;
    int64_t start_ns;
    char id[REQID_MAX + 1];
    char method[16];
    char path[HTTP_LOG_PATH_MAX + 1];
    const route_t *route;
    int match; /* ROUTER_* */
    size_t path_index;
    char allow[96];

    /* Owned by whoever `state` names (see the file head). */
    http_state_t state;
    char *body;
    size_t len, cap;
    int too_large;
    int no_memory;   /* the body could not be stored: answer 503, not 413 */
    int over_budget; /* ... because the work budget was full (--max-work-memory) */
    api_job_t *job;
    pool_task_t task; /* its own rules: server/pool.h */
    api_response_t resp;
    int status; /* sent, 0 = none yet; MHD thread */
    /* Bytes of the work budget the request holds for its body (`cap`) and
     * for its answer (resp.charged, taken when the answer is queued), given
     * back by http_req_free().  The body's is the MHD thread's; the
     * answer's is set on the thread that sends it. */
    size_t body_charged;

    /* Progressive jobs only.  `progressive` is set by the MHD thread before
     * the submit and constant afterwards; the three flags below are read and
     * written under `lock` by the MHD thread and the loop thread. */
    int progressive;
    pthread_mutex_t lock;
    int reader_waiting; /* the reader suspended the connection */
    int task_done;      /* the pool is finished with the job */
    int orphaned;       /* on_completed() ran first: done() frees */
} http_req_t;

static void http_req_free(http_req_t *req);

/* === Logging (the access log; every other line goes through server/log.h) === */

/* Appends s to out as the inside of a JSON string (s is printable ASCII:
 * http_copy_printable made it so); returns the new length, never past cap. */
static size_t http_json_str(char *out, size_t n, size_t cap, const char *s) {
    for (; *s != '\0' && n + 2 < cap; s++) {
        if (*s == '"' || *s == '\\') out[n++] = '\\';
        out[n++] = *s;
    }
    return n;
}

/* The access log line of a request, as log_json() would write it but built
 * by hand into one buffer: this runs for every request, and jansson's
 * packing, dumping and their allocations were a tenth of a small request's
 * cost.  Same fields, same single write(2). */
static void http_log_request(const struct http_req_s *req, double ms, int toe, int client_gone);

/* Copies a client-controlled string for logs and problems: printable ASCII
 * only (jansson rejects invalid UTF-8), truncated to cap - 1. */
static void http_copy_printable(char *dst, size_t cap, const char *src) {
    size_t i = 0;
    for (; src[i] != '\0' && i + 1 < cap; i++)
        dst[i] = ((unsigned char)src[i] < 0x20 || (unsigned char)src[i] > 0x7e) ? '?' : src[i];
    dst[i] = '\0';
}

static void http_mhd_logger(void *cls, const char *fmt, va_list ap) {
    char msg[512];
    (void)cls;
    vsnprintf(msg, sizeof msg, fmt, ap);
    msg[strcspn(msg, "\n")] = '\0';
    log_json("warn", "libmicrohttpd", json_pack("{s:s}", "detail", msg));
}

/* === Answers === */

/* Every answer made on the MHD thread goes through here. */
static void http_answered(http_req_t *req) {
    assert(req->state == HTTP_READING || req->state == HTTP_ANSWERED);
    req->state = HTTP_ANSWERED;
}

static void http_set_problem(http_req_t *req, int code, const char *detail) {
    api_problem_t p;
    api_problem_init(&p, code, "%s", detail);
    api_response_destroy(&req->resp);
    api_response_problem(&req->resp, &p);
    http_answered(req);
}

static void http_set_json(http_req_t *req, int status, json_t *body) {
    api_response_json(&req->resp, status, body);
    http_answered(req);
}

/* MHD asks for the next piece of a streamed body (chunked encoding). */
static ssize_t http_stream_read(void *cls, uint64_t pos, char *buf, size_t max) {
    api_response_t *r = cls;
    long n;
    (void)pos;
    n = r->stream(r->stream_cls, buf, max);
    return n < 0 ? MHD_CONTENT_READER_END_OF_STREAM : (ssize_t)n;
}

/* The same for a progressive job: nothing ready yet means suspend, and the
 * loop thread resumes us (http_progress, http_progressive_done). */
static ssize_t http_progressive_read(void *cls, uint64_t pos, char *buf, size_t max) {
    http_req_t *req = cls;
    long n;
    (void)pos;
    pthread_mutex_lock(&req->lock);
    assert(req->progressive && req->state == HTTP_SENT && !req->reader_waiting);
    n = req->resp.stream(req->resp.stream_cls, buf, max);
    if (n == 0) {
        req->reader_waiting = 1;
        MHD_suspend_connection(req->conn);
    }
    pthread_mutex_unlock(&req->lock);
    return n < 0 ? MHD_CONTENT_READER_END_OF_STREAM : (ssize_t)n;
}

/* Queues req->resp with the headers every answer carries. */
static enum MHD_Result http_send(http_req_t *req) {
    http_server_t *srv = req->srv;
    api_response_t *r = &req->resp;
    struct MHD_Response *m;
    enum MHD_Result ok;

    assert(req->state == HTTP_ANSWERED || req->state == HTTP_RENDERED);
    assert(req->status == 0);
    if (r->len > r->charged) { /* built already: counted, so that others wait for it */
        budget_force(pool_budget(srv->pool), r->len - r->charged);
        r->charged = r->len;
    }
    req->state = HTTP_SENT; /* before the queue: MHD may call the stream reader at once */
    if (r->stream != NULL && req->progressive) {
        m = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, HTTP_STREAM_BLOCK,
                                              http_progressive_read, req, NULL);
        if (m == NULL) return MHD_NO;
    } else if (r->stream != NULL) {
        m = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, HTTP_STREAM_BLOCK, http_stream_read,
                                              r, NULL);
        if (m == NULL) return MHD_NO;
        /* the stream stays in req->resp until on_completed() frees it */
    } else if (r->body == NULL && r->status == 503 && r->content_type != NULL &&
               strcmp(r->content_type, API_PROBLEM_CONTENT_TYPE) == 0) {
        /* out of memory even for the problem's text (api_response_problem):
         * a constant one, so that the answer is still what it says it is */
        static const char oom[] = "{\"type\":\"/problems/out-of-memory\",\"title\":\"Not enough "
                                  "memory for this request\",\"status\":503,\"detail\":\"out of "
                                  "memory; retry later\",\"errors\":[]}";
        m = MHD_create_response_from_buffer(sizeof oom - 1, (void *)oom, MHD_RESPMEM_PERSISTENT);
        if (m == NULL) return MHD_NO;
    } else {
        m = MHD_create_response_from_buffer_with_free_callback(r->len, r->body, free);
        if (m == NULL) return MHD_NO;
        r->body = NULL; /* MHD owns it now */
        r->len = 0;
    }
    /* HEAD of a streamed answer: libmicrohttpd 0.9.75 would still send the
     * chunked encoding's last chunk after the head, a body HEAD must not
     * have; without chunking it sends the head alone (and closes). */
    if (r->stream != NULL && strcmp(req->method, "HEAD") == 0)
        MHD_set_response_options(m, MHD_RF_HTTP_VERSION_1_0_ONLY, MHD_RO_END);
    if (r->content_type) MHD_add_response_header(m, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
    MHD_add_response_header(m, "X-Request-Id", req->id);
    MHD_add_response_header(m, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, srv->cfg->cors_origin);
    MHD_add_response_header(m, "Access-Control-Expose-Headers",
                            "X-Request-Id, Retry-After, Location, Preference-Applied");
    if (strcmp(srv->cfg->cors_origin, "*") != 0) MHD_add_response_header(m, "Vary", "Origin");
    if (r->flags & API_RESP_EVENTS) { /* an event stream: no proxy may hold it back */
        MHD_add_response_header(m, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
        MHD_add_response_header(m, "X-Accel-Buffering", "no");
    } else {
        MHD_add_response_header(m, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    }
    if (r->location[0] != '\0') MHD_add_response_header(m, MHD_HTTP_HEADER_LOCATION, r->location);
    if (r->flags & API_RESP_ASYNC)
        MHD_add_response_header(m, "Preference-Applied", "respond-async");
    if (r->status == 405 || r->status == 204)
        MHD_add_response_header(m, MHD_HTTP_HEADER_ALLOW, req->allow);
    if (r->status == 204 && req->match == ROUTER_PREFLIGHT) {
        MHD_add_response_header(m, "Access-Control-Allow-Methods", req->allow);
        MHD_add_response_header(m, "Access-Control-Allow-Headers",
                                "Content-Type, Accept, X-Request-Id");
        MHD_add_response_header(m, "Access-Control-Max-Age", "600");
    }
    if (r->retry_after > 0 || r->status == 503) { /* every 503 says when to come back */
        char ra[16];
        snprintf(ra, sizeof ra, "%u", r->retry_after > 0 ? r->retry_after : 1);
        MHD_add_response_header(m, MHD_HTTP_HEADER_RETRY_AFTER, ra);
    }
    if (atomic_load(&srv->draining))
        MHD_add_response_header(m, MHD_HTTP_HEADER_CONNECTION, "close");
    ok = MHD_queue_response(req->conn, (unsigned)r->status, m);
    MHD_destroy_response(m);
    req->status = r->status;
    return ok;
}

/* === Pool hand-off === */

/* A search that ran out of memory because of the request's own share
 * (--max-request-memory) is told so with a 422: retrying cannot help.  One
 * that found the whole work budget full keeps its 503 and Retry-After. */
static void http_memory_verdict(const pool_task_t *task, api_response_t *resp) {
    if (resp->status != 503 || !atomic_load(&task->charge.over_share) ||
        atomic_load(&task->charge.over_budget))
        return;
    api_problem_t p;
    api_problem_init(&p, API_EMEMORY,
                     "the search needs more than the %zu bytes one request may hold "
                     "(--max-request-memory); ask for less (a smaller puzzle, fewer solutions)",
                     task->charge.share);
    api_response_problem(resp, &p);
    resp->retry_after = 0;
}

/* Loop thread: the job has finished (or was cancelled); render and resume.
 * The request is the loop thread's from the submit until the resume: after
 * MHD_resume_connection() this thread must not touch req again. */
static void http_job_done(pool_task_t *task) {
    http_req_t *req = task->owner;
    api_job_t *job = req->job;
    assert(req->state == HTTP_WAITING && !req->progressive);
    if (task->waited_out) { /* nothing ran: the server was too busy, not the puzzle hard */
        api_problem_t p;
        api_problem_init(&p, API_EBUSY,
                         "every worker was busy until the request's deadline (timeout_ms %lld) "
                         "passed; nothing was run, retry later",
                         (long long)job->timeout_ms);
        api_response_problem(&req->resp, &p);
        req->resp.retry_after = 1;
    } else {
        guard_render(job, &req->resp);
        http_memory_verdict(task, &req->resp);
    }
    metrics_add_nodes(req->srv->metrics, job->ops->puzzle, job->nodes);
    req->state = HTTP_RENDERED;
    MHD_resume_connection(req->conn);
}

/* Loop thread, after each merge of a progressive job: wake the reader. */
static void http_progress(pool_task_t *task) {
    http_req_t *req = task->owner;
    pthread_mutex_lock(&req->lock);
    assert(req->progressive && !req->task_done);
    if (req->reader_waiting) {
        req->reader_waiting = 0;
        MHD_resume_connection(req->conn);
    }
    pthread_mutex_unlock(&req->lock);
}

/* Loop thread: a progressive job's last item is merged.  The stream learns it
 * through finish(); then wake the reader, or free an orphaned request. */
static void http_progressive_done(pool_task_t *task) {
    http_req_t *req = task->owner;
    api_job_t *job = req->job;
    int orphaned;
    job->ops->finish(job, task->rc);
    metrics_add_nodes(req->srv->metrics, job->ops->puzzle, job->nodes);
    pthread_mutex_lock(&req->lock);
    assert(req->progressive && !req->task_done);
    assert(!(req->orphaned && req->reader_waiting));
    req->task_done = 1;
    orphaned = req->orphaned;
    if (!orphaned && req->reader_waiting) {
        req->reader_waiting = 0;
        MHD_resume_connection(req->conn);
    }
    pthread_mutex_unlock(&req->lock);
    if (orphaned) http_req_free(req);
}

/* Renders the stream and submits the job; the final call then queues the
 * answer at once.  On failure the answer is a problem and no task runs.
 * Always HTTP_ANSWER: a progressive request stays the MHD thread's (the
 * shared flags are under `lock`). */
static int http_run_progressive(http_req_t *req, int watch_fd) {
    guard_render(req->job, &req->resp);
    http_answered(req);
    if (req->resp.stream == NULL) { /* render() answered an error */
        pool_release(req->srv->pool);
        return HTTP_ANSWER;
    }
    req->progressive = 1;
    req->task.job = req->job;
    req->task.done = http_progressive_done;
    req->task.progress = http_progress;
    req->task.owner = req;
    req->task.watch_fd = watch_fd;
    req->task.waits = 1;
    req->task.background = req->job->background;
    if (pool_submit(req->srv->pool, &req->task) != 0) {
        req->progressive = 0;
        http_set_problem(req, API_ENOMEM, "could not queue the job");
    }
    return HTTP_ANSWER;
}

typedef struct http_params_s {
    api_param_t kv[API_MAX_PARAMS];
    size_t n;
    int overflow;
} http_params_t;

static enum MHD_Result http_collect_param(void *cls, enum MHD_ValueKind kind, const char *key,
                                          const char *value) {
    http_params_t *ps = cls;
    (void)kind;
    if (ps->n == API_MAX_PARAMS) {
        ps->overflow = 1;
        return MHD_NO;
    }
    ps->kv[ps->n].key = key;
    ps->kv[ps->n].value = value ? value : "";
    ps->n++;
    return MHD_YES;
}

/* Whether a Prefer header (RFC 7240) asks for respond-async: one of its
 * comma-separated preferences, case-insensitive, parameters ignored. */
static int http_prefers_async(const char *prefer) {
    while (prefer != NULL && *prefer != '\0') {
        prefer += strspn(prefer, " \t,");
        size_t k = strcspn(prefer, " \t,;=");
        if (k == 13 && strncasecmp(prefer, "respond-async", 13) == 0) return 1;
        prefer += strcspn(prefer, ",");
    }
    return 0;
}

/* Tries a small job on this (the HTTP) thread, as api_job_t.inline_ok
 * allows: one item under a deadline of HTTP_INLINE_NS (or the job's own, if
 * sooner).  Returns 1 when the job finished (merged and rendered: the answer
 * is in req->resp), 0 when the slice ran out first: run() is restartable, so
 * the pool then runs it again from scratch, and the answer is the same
 * either way.  The pool's hand-offs cost two thread switches each way, more
 * than most 9x9 solves; a try cut short costs at most a slice and one poll
 * interval of the solver. */
static int http_run_inline(http_req_t *req) {
    api_job_t *job = req->job;
    int64_t now = search_now_ns(), end = now + job->timeout_ms * 1000000;
    search_ctl_t ctl = {.deadline_ns = now + HTTP_INLINE_NS < end ? now + HTTP_INLINE_NS : end};
    int rc = job->ops->run(job, 0, &ctl);
    if (rc == SEARCH_TIMEOUT && search_now_ns() < end) return 0; /* the slice, not the request */
    job->ops->merge(job, 0, rc);
    guard_render(job, &req->resp);
    metrics_add_nodes(req->srv->metrics, job->ops->puzzle, job->nodes);
    atomic_fetch_add_explicit(&req->srv->metrics->inline_answers, 1, memory_order_relaxed);
    http_answered(req);
    return 1;
}

/* Runs a job that is small by construction (api_job_t.inline_whole) here:
 * every item, then merge, in order, as the pool would on one worker, under
 * the job's own deadline.  Always answers (returns 1). */
static int http_run_whole(http_req_t *req) {
    api_job_t *job = req->job;
    search_ctl_t ctl = {.deadline_ns = search_now_ns() + job->timeout_ms * 1000000};
    int act = API_JOB_CONTINUE;
    job->threads = 1; /* what the answer's statistics say it used */
    for (size_t k = 0; act == API_JOB_CONTINUE && k < job->nitems; k++)
        act = job->ops->merge(job, k, job->ops->run(job, k, &ctl));
    guard_render(job, &req->resp);
    metrics_add_nodes(req->srv->metrics, job->ops->puzzle, job->nodes);
    atomic_fetch_add_explicit(&req->srv->metrics->inline_answers, 1, memory_order_relaxed);
    http_answered(req);
    return 1;
}

/* Prepares an API request and hands it to the pool, or to the jobs runner
 * when the client prefers an asynchronous answer.  Returns HTTP_ANSWER
 * (resp holds an error, a quick answer or a 202) or HTTP_HANDED_OFF. */
static int http_run_api(http_req_t *req) {
    http_server_t *srv = req->srv;
    http_params_t ps = {.n = 0};
    api_request_t areq;

    MHD_get_connection_values(req->conn, MHD_GET_ARGUMENT_KIND, http_collect_param, &ps);
    if (ps.overflow) {
        http_set_problem(req, API_EINVALID, "more than 16 query parameters");
        return HTTP_ANSWER;
    }
    memset(&areq, 0, sizeof areq);
    areq.method = req->method;
    areq.path = req->route->path;
    areq.params = ps.kv;
    areq.nparams = ps.n;
    areq.body = req->body;
    areq.body_len = req->len;
    areq.content_type = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "Content-Type");
    areq.accept = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "Accept");
    areq.pool_threads = srv->cfg->threads;
    areq.max_timeout_ms = srv->cfg->timeout_ms;
    areq.max_batch_lines = srv->cfg->max_batch_lines;
    areq.work_share = srv->cfg->max_request_memory;
    areq.alloc = &pool_budget(srv->pool)->alloc;
    int async =
        srv->jobs != NULL &&
        http_prefers_async(MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "Prefer"));
    if (async) areq.max_timeout_ms = srv->cfg->job_timeout_ms; /* jobs have their own cap */

    if (guard_prepare(req->route->prepare, &areq, &req->job, &req->resp) != 0 || req->job == NULL) {
        http_answered(req); /* an error, or an answer that needed no search */
        return HTTP_ANSWER;
    }
    if (atomic_load(&srv->draining)) {
        http_set_problem(req, API_EDRAINING, "the server is shutting down; retry elsewhere");
        req->resp.retry_after = 1;
        return HTTP_ANSWER;
    }
    if (async) { /* the job now belongs to the runner; the answer is the 202 */
        api_job_t *job = req->job;
        req->job = NULL;
        jobs_create(srv->jobs, job, &areq,
                    MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "Job-List-Token"),
                    &req->resp);
        http_answered(req);
        return HTTP_ANSWER;
    }
    if (!req->job->ops->progressive && ((req->job->inline_whole && http_run_whole(req)) ||
                                        (req->job->inline_ok && req->job->nitems == 1 &&
                                         req->job->threads <= 1 && http_run_inline(req))))
        return HTTP_ANSWER;
    if (pool_admit(srv->pool) != 0) {
        http_set_problem(req, API_EBUSY, "too many requests are queued; retry shortly");
        req->resp.retry_after = 1;
        return HTTP_ANSWER;
    }
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(req->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (req->job->ops->progressive) return http_run_progressive(req, ci ? ci->connect_fd : -1);
    req->task.job = req->job;
    req->task.done = http_job_done;
    req->task.owner = req;
    req->task.watch_fd = ci ? ci->connect_fd : -1;
    req->task.waits = 1;
    req->task.background = req->job->background;
    /* Suspend before the submit (done() may resume at once), and give the
     * request to the loop thread before it can see the task. */
    MHD_suspend_connection(req->conn);
    req->state = HTTP_WAITING;
    if (pool_submit(srv->pool, &req->task) != 0) {
        /* The task never reached the loop thread: the request is still ours. */
        req->state = HTTP_READING;
        http_set_problem(req, API_ENOMEM, "could not queue the job");
        MHD_resume_connection(req->conn);
        return HTTP_ANSWER;
    }
    return HTTP_HANDED_OFF; /* from here on req is the loop thread's */
}

/* The largest body this request's route reads. */
static size_t http_body_limit(const http_req_t *req) {
    const config_t *cfg = req->srv->cfg;
    return req->route != NULL && req->route->batch ? cfg->max_batch_body : cfg->max_body;
}

/* The final call of a request that has no answer yet.  Returns HTTP_ANSWER
 * with the answer in req->resp, or HTTP_HANDED_OFF: the request now belongs
 * to the pool, and the caller must return without touching it. */
static int http_dispatch(http_req_t *req) {
    http_server_t *srv = req->srv;
    size_t len;
    char *text;

    if (req->no_memory) {
        http_set_problem(req, API_ENOMEM,
                         req->over_budget
                             ? "the server's memory for requests in flight (--max-work-memory) "
                               "is full; retry later"
                             : "out of memory while reading the body; retry later");
        req->resp.retry_after = 1;
        return HTTP_ANSWER;
    }
    if (req->too_large) {
        char d[96];
        snprintf(d, sizeof d, "the body is larger than the limit of %zu bytes",
                 http_body_limit(req));
        http_set_problem(req, API_ETOOLARGE, d);
        return HTTP_ANSWER;
    }
    switch (req->match) {
    case ROUTER_NOT_FOUND: {
        char d[HTTP_LOG_PATH_MAX + 32];
        snprintf(d, sizeof d, "no resource at %s", req->path);
        http_set_problem(req, API_ENOTFOUND, d);
        return HTTP_ANSWER;
    }
    case ROUTER_BAD_METHOD: {
        char d[160];
        snprintf(d, sizeof d, "%s is not allowed here; allowed: %s", req->method, req->allow);
        http_set_problem(req, API_EMETHOD, d);
        return HTTP_ANSWER;
    }
    case ROUTER_PREFLIGHT:
        api_response_destroy(&req->resp);
        req->resp.status = 204;
        req->resp.content_type = NULL;
        http_answered(req);
        return HTTP_ANSWER;
    default: break;
    }
    switch (req->route->kind) {
    case ROUTE_HEALTHZ:
        http_set_json(req, 200, json_pack("{s:s}", "status", "ok"));
        return HTTP_ANSWER;
    case ROUTE_READYZ: {
        /* Cluster mode with Redis unreachable is "degraded" but still 200:
         * synchronous requests need no Redis, and a load balancer that took
         * every replica out because their shared Redis failed would stop
         * those too.  The body says what is missing. */
        int up = srv->jobs ? jobs_store_up(srv->jobs) : -1;
        if (atomic_load(&srv->draining))
            http_set_problem(req, API_EDRAINING, "draining: not taking new work");
        else if (up < 0)
            http_set_json(req, 200, json_pack("{s:s}", "status", "ready"));
        else if (up)
            http_set_json(req, 200,
                          json_pack("{s:s, s:s, s:s}", "status", "ready", "store", "redis", "jobs",
                                    "available"));
        else
            http_set_json(req, 200,
                          json_pack("{s:s, s:s, s:s, s:s}", "status", "degraded", "store", "redis",
                                    "jobs", "unavailable", "detail",
                                    "Redis cannot be reached: new jobs are refused (503) and "
                                    "job reads fail until it answers; synchronous requests "
                                    "are served"));
        return HTTP_ANSWER;
    }
    case ROUTE_METRICS:
        text = metrics_render(srv->metrics, &len);
        if (text == NULL) {
            http_set_problem(req, API_ENOMEM, "could not render metrics");
            return HTTP_ANSWER;
        }
        api_response_destroy(&req->resp);
        req->resp.status = 200;
        req->resp.content_type = "text/plain; version=0.0.4; charset=utf-8";
        req->resp.body = text;
        req->resp.len = len;
        http_answered(req);
        return HTTP_ANSWER;
    case ROUTE_API: return http_run_api(req);
    case ROUTE_JOBS: {
        http_params_t ps = {.n = 0};
        if (srv->jobs == NULL) {
            http_set_problem(req, API_ENOTFOUND, "this server keeps no jobs");
            return HTTP_ANSWER;
        }
        MHD_get_connection_values(req->conn, MHD_GET_ARGUMENT_KIND, http_collect_param, &ps);
        if (ps.overflow) {
            http_set_problem(req, API_EINVALID, "more than 16 query parameters");
            return HTTP_ANSWER;
        }
        jobs_answer(srv->jobs, req->conn, req->method, req->path + strlen("/v1/jobs"), ps.kv, ps.n,
                    &req->resp);
        http_answered(req);
        return HTTP_ANSWER;
    }
    case ROUTE_STATIC: /* answered by http_on_request(); a miss became NOT_FOUND */
        http_set_problem(req, API_ENOTFOUND, "no such file");
        return HTTP_ANSWER;
    }
    assert(!"unknown route kind");
    return HTTP_ANSWER;
}

/* === Connections and the request-head deadline ===
 *
 * libmicrohttpd's timeout counts inactivity, so a client that trickles a
 * byte a second, or sends half a head and waits, holds its slot as long as
 * it likes.  --head-timeout-s is a deadline from accept to a complete first
 * request head, kept by a sweeper thread that shuts such connections down;
 * libmicrohttpd then sees the end of the stream and closes them as usual.
 * Later requests on a kept-alive connection have the idle timeout
 * (--idle-timeout-s) only: a connection that completed a request is a
 * client, not a crowd. */

static void http_conn_unlink(http_server_t *s, http_conn_t *c) {
    if (c->prev)
        c->prev->next = c->next;
    else if (s->conns == c)
        s->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

/* The address bytes of a client (IPv4 or IPv6); 0 for another family. */
static size_t http_ip_key(const struct sockaddr *addr, socklen_t len, unsigned char key[16]) {
    if (addr == NULL) return 0;
    if (addr->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
        memcpy(key, &((const struct sockaddr_in *)addr)->sin_addr, 4);
        return 4;
    }
    if (addr->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
        memcpy(key, &((const struct sockaddr_in6 *)addr)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/* The bucket link that holds (or would hold) the address `key`. */
static http_ip_t **http_ip_find(http_server_t *s, const unsigned char *key, size_t klen) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < klen; i++)
        h = (h ^ key[i]) * 16777619u;
    http_ip_t **pp = &s->ips[h % HTTP_IP_BUCKETS];
    while (*pp != NULL && ((*pp)->len != klen || memcmp((*pp)->addr, key, klen) != 0))
        pp = &(*pp)->next;
    return pp;
}

/* Takes a connection slot for addr: 1, or 0 when it has --max-conn-per-ip
 * open already (or no memory for its count: refused too). */
static int http_ip_take(http_server_t *s, const struct sockaddr *addr, socklen_t len) {
    unsigned char key[16];
    size_t klen = http_ip_key(addr, len, key);
    int ok = 1;
    if (s->cfg->max_conn_per_ip == 0 || klen == 0) return 1;
    pthread_mutex_lock(&s->ips_lock);
    http_ip_t **pp = http_ip_find(s, key, klen);
    if (*pp == NULL && (*pp = calloc(1, sizeof **pp)) != NULL) {
        memcpy((*pp)->addr, key, klen);
        (*pp)->len = (unsigned char)klen;
    }
    if (*pp == NULL || (*pp)->count >= s->cfg->max_conn_per_ip)
        ok = 0;
    else
        (*pp)->count++;
    pthread_mutex_unlock(&s->ips_lock);
    return ok;
}

/* Gives addr's slot back (a connection closed). */
static void http_ip_release(http_server_t *s, const struct sockaddr *addr, socklen_t len) {
    unsigned char key[16];
    size_t klen = http_ip_key(addr, len, key);
    if (s->cfg->max_conn_per_ip == 0 || klen == 0) return;
    pthread_mutex_lock(&s->ips_lock);
    http_ip_t **pp = http_ip_find(s, key, klen), *e = *pp;
    if (e != NULL && --e->count == 0) {
        *pp = e->next;
        free(e);
    }
    pthread_mutex_unlock(&s->ips_lock);
}

static void http_on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                               enum MHD_ConnectionNotificationCode code) {
    http_server_t *s = cls;
    http_conn_t *c = *socket_context;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        const union MHD_ConnectionInfo *ai =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (ai != NULL && ai->client_addr != NULL)
            http_ip_release(s, ai->client_addr,
                            ai->client_addr->sa_family == AF_INET6
                                ? (socklen_t)sizeof(struct sockaddr_in6)
                                : (socklen_t)sizeof(struct sockaddr_in));
    }
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        c = calloc(1, sizeof *c);
        if (c == NULL || ci == NULL) { /* no deadline for this one; nothing else changes */
            free(c);
            *socket_context = NULL;
            return;
        }
        c->fd = ci->connect_fd;
        c->start_ns = search_now_ns();
        pthread_mutex_lock(&s->conns_lock);
        c->next = s->conns;
        if (s->conns) s->conns->prev = c;
        s->conns = c;
        pthread_mutex_unlock(&s->conns_lock);
        *socket_context = c;
        return;
    }
    if (c == NULL) return; /* MHD_CONNECTION_NOTIFY_CLOSED of one we do not track */
    pthread_mutex_lock(&s->conns_lock);
    if (!c->head_done) http_conn_unlink(s, c);
    pthread_mutex_unlock(&s->conns_lock);
    free(c);
    *socket_context = NULL;
}

/* MHD thread: the connection's request head is complete. */
static void http_head_done(http_server_t *s, struct MHD_Connection *conn) {
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    http_conn_t *c = ci ? ci->socket_context : NULL;
    if (c == NULL || c->head_done) return;
    pthread_mutex_lock(&s->conns_lock);
    c->head_done = 1;
    http_conn_unlink(s, c);
    pthread_mutex_unlock(&s->conns_lock);
}

/* Whether a whole request head waits unread in the socket: its thread was
 * busy, the client was not slow (the sweeper must not cut it). */
static int http_head_unread(int fd) {
    char buf[8192];
    ssize_t n = recv(fd, buf, sizeof buf, MSG_PEEK | MSG_DONTWAIT);
    for (ssize_t i = 1; i < n; i++)
        if (buf[i] == '\n' &&
            (buf[i - 1] == '\n' || (i >= 2 && buf[i - 1] == '\r' && buf[i - 2] == '\n')))
            return 1;
    return 0;
}

static void *http_sweeper(void *arg) {
    http_server_t *s = arg;
    int64_t limit = (int64_t)s->cfg->head_timeout_s * 1000000000;
    pthread_mutex_lock(&s->conns_lock);
    while (!s->sweeper_stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += HTTP_SWEEP_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&s->sweeper_cv, &s->conns_lock, &until);
        int64_t now = search_now_ns();
        for (http_conn_t *c = s->conns; c != NULL; c = c->next)
            if (!c->shut && now - c->start_ns >= limit && !http_head_unread(c->fd)) {
                c->shut = 1;
                shutdown(c->fd, SHUT_RDWR); /* MHD reads the end and closes it */
                atomic_fetch_add_explicit(&s->metrics->head_timeouts, 1, memory_order_relaxed);
            }
    }
    pthread_mutex_unlock(&s->conns_lock);
    return NULL;
}

/* === The request head ===
 *
 * Framing that a proxy in front and this server could read two ways is a
 * way to smuggle a request past the proxy, so the first call refuses it
 * before the route or the body is looked at, as nginx does.  What
 * libmicrohttpd 0.9.75 (Debian 12) does itself: a Transfer-Encoding header
 * makes it ignore Content-Length; a Transfer-Encoding other than exactly
 * "chunked" makes it read the body until the client closes (the client
 * waits for an answer that never comes); a folded line (obs-fold: "X-A:
 * a\r\n b") is appended to the header's *name* ("X-Ab: a"); a space before
 * the colon becomes part of the name.  Its one strictness setting,
 * MHD_OPTION_STRICT_FOR_CLIENT 1, refuses only HTTP/1.1 without Host (and
 * spaces in the URI), with a bare HTML 400 of its own that no access log
 * line records; the check is here instead, as a problem like every other.
 * (libmicrohttpd 1.0 has MHD_OPTION_CLIENT_DISCIPLINE_LVL for all of this.)
 *
 * The answer goes out on the first call: libmicrohttpd then closes the
 * connection after it and parses nothing more from it, so a request
 * smuggled behind the body is never answered. */

/* What the head's lines say about its framing, counted over all of them. */
typedef struct http_head_s {
    unsigned host, length, coding; /* lines of Host, Content-Length, Transfer-Encoding */
    const char *te;                /* the first Transfer-Encoding value */
    const char *bad_name;          /* the first name that is not a token, or NULL */
    const char *folded;            /* the first name a folded line was joined to, or NULL */
} http_head_t;

/* Whether s is an RFC 9110 token (a header name): no space, no separator. */
static int http_is_token(const char *s) {
    if (*s == '\0') return 0;
    for (; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              strchr("!#$%&'*+-.^_`|~", *s) != NULL))
            return 0;
    return 1;
}

/* Whether libmicrohttpd stored this header as it stores a folded one.  An
 * unfolded header's name and value both point into the line as read:
 * "Name\0 value", the colon zeroed, only blanks before the value.  A folded
 * header's name was grown into a fresh block of the connection's pool to
 * take the continuation, away from its value.  (This is how 0.9.75 stores
 * headers; tests/test_http.c's http_head_refused checks both cases, so a
 * library that stores them otherwise fails there.) */
static int http_header_folded(const char *name, const char *value) {
    const char *after = name + strlen(name) + 1; /* past the zeroed colon */
    uintptr_t gap = (uintptr_t)value - (uintptr_t)after;
    if ((uintptr_t)value < (uintptr_t)after || gap > HTTP_HEAD_GAP_MAX) return 1;
    for (const char *p = after; p < value; p++)
        if (*p != ' ' && *p != '\t') return 1;
    return 0;
}

static enum MHD_Result http_head_line(void *cls, enum MHD_ValueKind kind, const char *name,
                                      const char *value) {
    http_head_t *h = cls;
    (void)kind;
    if (h->bad_name == NULL && !http_is_token(name)) h->bad_name = name;
    if (h->folded == NULL && value != NULL && http_header_folded(name, value)) h->folded = name;
    if (strcasecmp(name, MHD_HTTP_HEADER_HOST) == 0) h->host++;
    if (strcasecmp(name, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) h->length++;
    if (strcasecmp(name, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0 && h->coding++ == 0)
        h->te = value ? value : "";
    return MHD_YES;
}

/* Answers a refused head: `code`, the header it names, and why. */
static void http_refuse_head(http_req_t *req, int code, const char *header, const char *why,
                             const char *value) {
    api_problem_t p;
    char name[64], got[64];
    http_copy_printable(name, sizeof name, header);
    http_copy_printable(got, sizeof got, value ? value : "");
    api_problem_init(&p, code, "%s",
                     code == API_ENOTIMPL ? "a transfer coding this server does not implement"
                                          : "the request head is malformed");
    api_problem_add(&p, "header", name, "%s%s%s%s", why, value ? ", got '" : "", got,
                    value ? "'" : "");
    api_response_destroy(&req->resp);
    api_response_problem(&req->resp, &p);
    http_answered(req);
}

/* First call: checks the head's framing.  0 when it is sound; otherwise 1
 * with the answer (400, or 501 for a transfer coding other than chunked)
 * in req->resp, to be sent at once. */
static int http_head_check(http_req_t *req, const char *version) {
    http_head_t h = {0};
    int http10 = version != NULL && strcmp(version, MHD_HTTP_VERSION_1_0) == 0;
    MHD_get_connection_values(req->conn, MHD_HEADER_KIND, http_head_line, &h);
    if (h.bad_name != NULL)
        http_refuse_head(req, API_EINVALID, h.bad_name,
                         "a header name is a token: no spaces (none before the colon)", NULL);
    else if (h.folded != NULL)
        http_refuse_head(req, API_EINVALID, h.folded,
                         "a folded header line (obs-fold, RFC 9112 5.2) is not accepted; send "
                         "each header on one line",
                         NULL);
    else if (h.host > 1 || (h.host == 0 && !http10))
        http_refuse_head(req, API_EINVALID, "Host",
                         h.host ? "more than one Host header" : "HTTP/1.1 requires a Host header",
                         NULL);
    else if (h.length > 1)
        http_refuse_head(req, API_EINVALID, "Content-Length", "more than one Content-Length", NULL);
    else if (h.coding > 0 && h.length > 0)
        http_refuse_head(req, API_EINVALID, "Transfer-Encoding",
                         "both Transfer-Encoding and Content-Length: the body's end is ambiguous "
                         "(RFC 9112 6.1)",
                         NULL);
    else if (h.coding > 0 && http10)
        http_refuse_head(req, API_EINVALID, "Transfer-Encoding",
                         "HTTP/1.0 has no Transfer-Encoding", NULL);
    else if (h.coding > 1 || (h.coding == 1 && strcasecmp(h.te, "chunked") != 0))
        http_refuse_head(req, API_ENOTIMPL, "Transfer-Encoding",
                         h.coding > 1 ? "one Transfer-Encoding header, chunked, is read here"
                                      : "chunked is the only transfer coding read here",
                         h.coding > 1 ? NULL : h.te);
    else
        return 0;
    return 1;
}

/* === libmicrohttpd callbacks === */

static http_req_t *http_req_new(http_server_t *srv, struct MHD_Connection *conn, const char *url,
                                const char *method) {
    http_req_t *req = calloc(1, sizeof *req);
    if (req == NULL) return NULL;
    req->srv = srv;
    req->conn = conn;
    req->start_ns = search_now_ns();
    req->task.watch_fd = -1;
    pthread_mutex_init(&req->lock, NULL);
    http_copy_printable(req->method, sizeof req->method, method);
    http_copy_printable(req->path, sizeof req->path, url);
    reqid_take(&srv->reqid, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id"),
               req->id);
    req->match =
        router_match(method, url, &req->route, &req->path_index, req->allow, sizeof req->allow);
    atomic_fetch_add(&srv->active, 1);
    atomic_fetch_add_explicit(&srv->metrics->connections, 1, memory_order_relaxed);
    return req;
}

/* How many bytes of a refused body we read and drop before hanging up. */
static size_t http_drain_cap(const http_req_t *req) { return http_body_limit(req) + (8u << 20); }

/* Appends to the body: 0, -1 past the limit, -2 out of memory, -3 the
 * work budget is full.  What the body's buffer grows by is charged to the
 * work budget first: many large bodies at once are refused (503) rather
 * than held. */
static int http_body_append(http_req_t *req, const char *data, size_t size) {
    size_t max = http_body_limit(req);
    if (req->len + size > max) return -1;
    if (req->len + size > req->cap) {
        size_t cap = req->cap ? req->cap * 2 : 4096;
        budget_t *work = pool_budget(req->srv->pool);
        while (cap < req->len + size)
            cap *= 2;
        if (cap > max) cap = max;
        if (budget_take(work, cap - req->cap) != 0) return -3;
        char *p = realloc(req->body, cap);
        if (p == NULL) {
            budget_give(work, cap - req->cap);
            return -2;
        }
        req->body_charged += cap - req->cap;
        req->body = p;
        req->cap = cap;
    }
    memcpy(req->body + req->len, data, size);
    req->len += size;
    return 0;
}

/* Frees the body and gives its budget back. */
static void http_body_release(http_req_t *req) {
    free(req->body);
    req->body = NULL;
    req->cap = 0;
    budget_give(pool_budget(req->srv->pool), req->body_charged);
    req->body_charged = 0;
}

static enum MHD_Result http_on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                       const char *method, const char *version,
                                       const char *upload_data, size_t *upload_data_size,
                                       void **con_cls) {
    http_server_t *srv = cls;
    http_req_t *req = *con_cls;

    if (req == NULL) {
        const char *cl, *expect;
        http_head_done(srv, conn);
        req = http_req_new(srv, conn, url, method);
        if (req == NULL) return MHD_NO; /* out of memory: drop the connection */
        *con_cls = req;
        if (http_head_check(req, version) != 0) return http_send(req); /* then MHD closes */
        cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        expect = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_EXPECT);
        if (cl != NULL && strtoull(cl, NULL, 10) > http_body_limit(req)) {
            req->too_large = 1;
            /* A client waiting for "100 Continue", or one about to send more
             * than we are willing to drain, gets its 413 now (the connection
             * then closes).  Otherwise we read and drop the body and answer
             * at the end: answering mid-body makes the kernel reset the
             * connection, and the client may never see the answer. */
            if (expect != NULL || strtoull(cl, NULL, 10) > http_drain_cap(req)) {
                int how = http_dispatch(req); /* too_large: always an answer */
                assert(how == HTTP_ANSWER);
                (void)how;
                return http_send(req);
            }
        }
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        size_t size = *upload_data_size;
        *upload_data_size = 0;
        int rc = req->too_large ? 0 : http_body_append(req, upload_data, size);
        if (rc != 0) {
            req->too_large = 1; /* read and drop the rest either way */
            req->no_memory = rc <= -2;
            req->over_budget = rc == -3;
            http_body_release(req);
        }
        if (req->too_large) {
            req->len += size;                                  /* counts what was dropped */
            if (req->len > http_drain_cap(req)) return MHD_NO; /* a flood: hang up */
        }
        return MHD_YES;
    }
    /* The final call.  A WAITING request never gets here: its connection is
     * suspended until the loop thread has rendered it (RENDERED). */
    assert(req->state != HTTP_WAITING);
    if (req->state == HTTP_SENT) return MHD_YES; /* already answered (413 above) */
    if (req->state == HTTP_READING && req->match == ROUTER_FOUND &&
        req->route->kind == ROUTE_STATIC && !req->too_large) {
        int rc = static_answer(srv->site, conn, url, req->id, &req->status);
        if (rc >= 0) {
            req->state = HTTP_SENT;
            return rc ? MHD_YES : MHD_NO;
        }
        req->match = ROUTER_NOT_FOUND; /* no such file: the usual 404 */
    }
    if (req->state == HTTP_READING && http_dispatch(req) == HTTP_HANDED_OFF)
        return MHD_YES; /* suspended; req is the loop thread's until it resumes us */
    return http_send(req);
}

static void http_on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                              enum MHD_RequestTerminationCode toe) {
    http_server_t *srv = cls;
    http_req_t *req = *con_cls;
    int task_running = 0;
    (void)conn;
    if (req == NULL) return;
    *con_cls = NULL;
    assert(req->state != HTTP_WAITING); /* suspended requests are never completed */

    if (req->progressive) {
        pthread_mutex_lock(&req->lock);
        task_running = !req->task_done;
        pthread_mutex_unlock(&req->lock);
    }
    double ms = (double)(search_now_ns() - req->start_ns) / 1e6;
    metrics_observe(srv->metrics, req->path_index, req->status, ms);
    /* task.client_gone is the loop thread's while the task runs */
    http_log_request(req, ms, toe, !task_running && req->task.client_gone);

    if (task_running) {
        pthread_mutex_lock(&req->lock);
        if (!req->task_done) { /* the client left mid-stream: stop the job */
            assert(!req->orphaned);
            req->orphaned = 1;
            atomic_store(&req->task.cancel, 1);
            /* libmicrohttpd closes the socket when we return: the loop
             * thread must not peek at it (or at whatever reuses its number) */
            pool_unwatch(srv->pool, &req->task);
            pthread_mutex_unlock(&req->lock);
            return; /* http_progressive_done() frees; req is not ours any more */
        }
        pthread_mutex_unlock(&req->lock);
    }
    http_req_free(req);
}

static void http_log_request(const http_req_t *req, double ms, int toe, int client_gone) {
    char line[HTTP_LOG_PATH_MAX * 2 + REQID_MAX * 2 + 256], when[40];
    size_t n = 0, cap = sizeof line;
    log_time(when, sizeof when);
    n += (size_t)snprintf(
        line, cap, "{\"time\":\"%s\",\"level\":\"info\",\"msg\":\"request\",\"method\":\"", when);
    n = http_json_str(line, n, cap, req->method);
    n += (size_t)snprintf(line + n, cap - n, "\",\"path\":\"");
    n = http_json_str(line, n, cap, req->path);
    n += (size_t)snprintf(line + n, cap - n,
                          "\",\"status\":%d,\"duration_ms\":%.6f,\"request_id\":\"", req->status,
                          ms);
    n = http_json_str(line, n, cap, req->id);
    n += (size_t)snprintf(line + n, cap - n, "\"");
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK)
        n += (size_t)snprintf(line + n, cap - n, ",\"terminated\":%d", toe);
    if (client_gone) n += (size_t)snprintf(line + n, cap - n, ",\"client_gone\":true");
    n += (size_t)snprintf(line + n, cap - n, "}\n");
    if (n >= cap) n = cap - 1;
    ssize_t w = write(STDERR_FILENO, line, n);
    (void)w;
}

/* Frees a request.  Called by its last owner: on_completed() on the MHD
 * thread, or http_progressive_done() on the loop thread for an orphan. */
static void http_req_free(http_req_t *req) {
    http_server_t *srv = req->srv;
    /* Never while the pool owns it.  RENDERED is fine: a client that hung up
     * while its job ran is completed after the resume, without a final call. */
    assert(req->state != HTTP_WAITING);
    assert(!req->progressive || req->task_done);
    assert(!req->reader_waiting);
    if (req->job != NULL) req->job->ops->free(req->job);
    budget_give(pool_budget(srv->pool), req->resp.charged);
    api_response_destroy(&req->resp);
    pthread_mutex_destroy(&req->lock);
    http_body_release(req);
    free(req);
    atomic_fetch_sub_explicit(&srv->metrics->connections, 1, memory_order_relaxed);
    atomic_fetch_sub(&srv->active, 1);
}

/* === Life cycle === */

/* libmicrohttpd's accept policy, for every daemon.  Draining refuses new
 * connections here (the socket is closed as soon as it is accepted)
 * rather than with MHD_quiesce_daemon(): in libmicrohttpd 0.9.75 (Debian
 * 12) quiescing an epoll daemon that runs its own threads races with those
 * threads, both remove the listening socket from the epoll set, and the
 * loser aborts the process ("Failed to remove listen FD from epoll set",
 * an MHD_PANIC with no error tolerated).  It happened here at random in
 * the tests' drains.  The listening sockets stay open until
 * http_server_stop().  Then --max-conn-per-ip, over all daemons.  (A slot
 * taken here for a connection libmicrohttpd then fails to set up -- no
 * memory for it -- is not given back: the address can open one fewer.) */
static enum MHD_Result http_accept_policy(void *cls, const struct sockaddr *addr,
                                          socklen_t addrlen) {
    http_server_t *s = cls;
    if (atomic_load(&s->draining)) return MHD_NO;
    return http_ip_take(s, addr, addrlen) ? MHD_YES : MHD_NO;
}

/* The port the daemons will share: cfg's, or a free one for port 0.  A
 * socket bound without SO_REUSEPORT shows that nobody listens there yet --
 * the daemons' sockets set it, and another process of this user that set
 * it too (a second puzzled on the same port) would otherwise quietly share
 * the port instead of failing.  The probe is closed before the daemons
 * bind (a window of microseconds).  0, or -1.  (tests/deploy restarts a
 * SIGKILLed replica on its port at once: the probe must allow that.) */
static int http_port_probe(const struct sockaddr *addr, unsigned *port) {
    struct sockaddr_storage got;
    socklen_t len = sizeof got;
    socklen_t alen = addr->sa_family == AF_INET6 ? (socklen_t)sizeof(struct sockaddr_in6)
                                                 : (socklen_t)sizeof(struct sockaddr_in);
    int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0), rc = -1, on = 1;
    if (fd < 0) return -1;
    /* SO_REUSEADDR as every server's socket: the connections of a process
     * that just died (TIME_WAIT) do not hold the port, a listener does */
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) == 0 &&
        bind(fd, addr, alen) == 0 && getsockname(fd, (struct sockaddr *)&got, &len) == 0) {
        *port = ntohs(got.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&got)->sin6_port
                                                : ((struct sockaddr_in *)&got)->sin_port);
        rc = 0;
    }
    close(fd);
    return rc;
}

int http_server_start(http_server_t **out, const config_t *cfg, pool_t *pool, metrics_t *metrics,
                      jobs_t *jobs) {
    struct sockaddr_in a4;
    struct sockaddr_in6 a6;
    const struct sockaddr *addr;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC | MHD_USE_ERROR_LOG;
    http_server_t *s = calloc(1, sizeof *s);
    if (s == NULL) return -1;
    s->cfg = cfg;
    s->pool = pool;
    s->metrics = metrics;
    s->jobs = jobs;
    reqid_init(&s->reqid);
    if (static_site_new(&s->site, cfg->web_root) != 0) {
        log_json("error", "--web-root is not a readable directory",
                 json_pack("{s:s}", "web_root", cfg->web_root));
        free(s);
        return -1;
    }

    memset(&a4, 0, sizeof a4);
    memset(&a6, 0, sizeof a6);
    if (inet_pton(AF_INET, cfg->bind, &a4.sin_addr) == 1) {
        a4.sin_family = AF_INET;
        a4.sin_port = htons((uint16_t)cfg->port);
        addr = (const struct sockaddr *)&a4;
    } else {
        inet_pton(AF_INET6, cfg->bind, &a6.sin6_addr);
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons((uint16_t)cfg->port);
        addr = (const struct sockaddr *)&a6;
        flags |= MHD_USE_IPv6;
    }
    pthread_mutex_init(&s->conns_lock, NULL);
    pthread_mutex_init(&s->ips_lock, NULL);
    pthread_cond_init(&s->sweeper_cv, NULL);
    unsigned n = cfg->http_threads, conns = cfg->max_connections;
    int probe = http_port_probe(addr, &s->port); /* the port, and nobody else's */
    if (addr == (const struct sockaddr *)&a4)
        a4.sin_port = htons((uint16_t)s->port);
    else
        a6.sin6_port = htons((uint16_t)s->port);
    for (unsigned k = 0; k < n && probe == 0; k++) {
        unsigned limit = conns / n + (k < conns % n);
        s->daemons[k] = MHD_start_daemon(
            flags, (uint16_t)s->port, http_accept_policy, s, http_on_request, s,
            MHD_OPTION_EXTERNAL_LOGGER, http_mhd_logger, NULL, MHD_OPTION_SOCK_ADDR, addr,
            MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u, MHD_OPTION_NOTIFY_COMPLETED, http_on_completed,
            s, MHD_OPTION_NOTIFY_CONNECTION, http_on_connection, s, MHD_OPTION_CONNECTION_TIMEOUT,
            (unsigned)cfg->idle_timeout_s, MHD_OPTION_CONNECTION_LIMIT, limit ? limit : 1,
            MHD_OPTION_END);
        if (s->daemons[k] == NULL) break;
        s->ndaemons = k + 1;
    }
    int ok = s->ndaemons == n && pthread_create(&s->sweeper, NULL, http_sweeper, s) == 0;
    if (!ok) {
        for (unsigned k = 0; k < s->ndaemons; k++)
            MHD_stop_daemon(s->daemons[k]);
        pthread_cond_destroy(&s->sweeper_cv);
        pthread_mutex_destroy(&s->conns_lock);
        pthread_mutex_destroy(&s->ips_lock);
        log_json("error", "cannot listen",
                 json_pack("{s:s, s:i}", "bind", cfg->bind, "port", (int)cfg->port));
        static_site_free(s->site);
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

unsigned http_server_port(const http_server_t *s) { return s->port; }

void http_server_drain(http_server_t *s) { atomic_store(&s->draining, 1); }

long http_server_active(http_server_t *s) { return atomic_load(&s->active); }

void http_server_stop(http_server_t *s) {
    if (s == NULL) return;
    pthread_mutex_lock(&s->conns_lock);
    s->sweeper_stop = 1;
    pthread_cond_signal(&s->sweeper_cv);
    pthread_mutex_unlock(&s->conns_lock);
    pthread_join(s->sweeper, NULL);
    for (unsigned k = 0; k < s->ndaemons; k++)
        MHD_stop_daemon(s->daemons[k]);          /* closes the rest, notifying each close */
    for (size_t b = 0; b < HTTP_IP_BUCKETS; b++) /* empty by now, unless a slot was lost */
        while (s->ips[b] != NULL) {
            http_ip_t *e = s->ips[b];
            s->ips[b] = e->next;
            free(e);
        }
    pthread_cond_destroy(&s->sweeper_cv);
    pthread_mutex_destroy(&s->conns_lock);
    pthread_mutex_destroy(&s->ips_lock);
    static_site_free(s->site);
    free(s);
}
