/* cluster.c -- cluster mode: replicas that share one Redis share their jobs
 * and the work of every split job.
 *
 * A split job (an N-Queens count: its subproblems; a Sudoku batch: its
 * chunks) is recorded with the request that made it, and its work items go
 * to a stream, one entry per item or, past CL_ENTRIES_MAX, per run of
 * consecutive items (RSCRIPT_ADD; keys in server/jobs/rscripts.c).  Then, on
 * every replica:
 *
 *   loop   fill        while the background share of the workers has room
 *                      (pool_background_idle(): items take turns with the
 *                      async jobs there, and the workers kept for requests
 *                      that wait are never theirs), read items of the oldest
 *                      active jobs (XREADGROUP, one consumer per replica)
 *   loop   ctx         the first item of a job on this replica rebuilds the
 *                      job: its stored request through its endpoint's
 *                      prepare() (api_endpoint_find; RSCRIPT_TOUCH also marks it running)
 *   worker run         job->ops->run(item), as on one server
 *   loop   commit      item_encode(item) -> RSCRIPT_COMMIT: the result goes
 *                      into the job's result hash with HSETNX, the counts
 *                      move only if it was new, the entry is acked and
 *                      deleted, all in one script: an item run twice (a
 *                      replica that was thought dead) is merged once.  The
 *                      item that completes the set queues a merge entry.
 *   loop   merge       whoever takes the merge entry rebuilds the job again,
 *                      decodes every item's result into it in item order,
 *                      merge()s and render()s exactly as one server would,
 *                      and ends the record (RSCRIPT_END, once: a CAS on the
 *                      status).
 *
 * Reclaim: an entry stays pending under the replica that read it until it
 * is committed.  A replica beats for its running items (XCLAIM JUSTID, every
 * --redis-claim-ms / 3), and takes over entries that nobody beat for longer
 * than --redis-claim-ms (XAUTOCLAIM): a replica that died, hung or lost its
 * network.  The merge entry is an entry like the others, so a replica that
 * dies while merging leaves it to the next.  A replica that stops (SIGTERM)
 * gives its cancelled items back at once (RSCRIPT_REQUEUE).
 *
 * Events: one pub/sub channel, "<prefix>events", carries "p <id>" (progress,
 * at most every 250 ms per job), "d <id>" (ended), "c <id>" (cancel) and
 * "w <id>" (items published).  Pub/sub rather than stream reads because a
 * notification is only a hint ("read the record again"): progress is a
 * snapshot whose latest value is all that matters, and the end is in the
 * record, so a lost message costs nothing that the next read does not
 * repair; pub/sub keeps nothing in Redis, and one subscription per replica,
 * made on the pool's loop through hiredis' libuv adapter, carries every
 * job.  Streams would keep history nobody needs and need a reader per job
 * or a blocking connection.  What a lost message would cost is covered: the
 * subscription's (re)start tells everyone to look again, followed event
 * streams re-read their record every second anyway, and replicas check the
 * status of the jobs they run items for every second.
 *
 * Cancel: RSCRIPT_CANCEL marks the record and publishes "c <id>"; a split
 * job ends at once (cluster_merge() with SEARCH_CANCELLED on the replica that
 * got the DELETE), and each replica raises the cancel flag of its running
 * items of that job when the message arrives: the searches stop at their
 * next poll, milliseconds later.
 *
 * Liveness and the sweeper: each replica sets "<prefix>replica:<name>"
 * with a 5 s TTL every second.  Every 2 s a replica looks at the live jobs
 * that are not split (they run on one replica, named in the record): one
 * whose replica's key has expired ends as failed.
 *
 * Threads: cluster_create(), cluster_cancel() and cluster_merge() may run on
 * any thread (MHD's for a DELETE): they use only rconn (per-thread
 * connections) and constant fields.  Everything else -- the subscription,
 * the contexts, the item lists, the timers -- belongs to the pool's loop
 * thread and is asserted to (cl_assert_loop).  `draining` is atomic. */
#include "server/jobs/cluster.h"

#include <assert.h>
#include <hiredis/adapters/libuv.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "api/endpoint.h"
#include "server/guard.h"
#include "server/jobs/jobstore_redis.h"
#include "server/jobs/rscripts.h"
#include "server/log.h"

#define CL_BEAT_MS            1000 /* liveness key refresh */
#define CL_BEAT_TTL_MS        5000 /* ... and how long it lasts */
#define CL_SWEEP_MS           2000
#define CL_CHECK_MS           1000  /* status of the jobs whose items run here */
#define CL_CTX_IDLE_MS        30000 /* a rebuilt job kept this long after its last item */
#define CL_ACTIVE_MAX         16    /* jobs looked at per fill, oldest first */
#define CL_SUB_TIMEOUT_MS     2000  /* a subscription that has not connected by then is retried */
#define CL_SUB_BACKOFF_MAX_MS 5000
#define CL_ITEM_BYTES_MAX     (1u << 20) /* an encoded item result at most */
#define CL_ENTRIES_MAX        4096       /* stream entries per job: items are grouped past it */

typedef struct cl_ctx_s cl_ctx_t;
typedef struct cl_item_s cl_item_t;

/* A split job as this replica knows it: rebuilt from its request. */
struct cl_ctx_s {
    char id[JOB_ID_LEN + 1];
    api_job_t *job;      /* NULL when ended before it could be rebuilt */
    redisReply *req;     /* the request it was rebuilt from (kept while job lives) */
    int64_t deadline_ms; /* wall clock: started + the job's timeout */
    unsigned running;    /* items of it on the pool or waiting to commit */
    int ended;           /* ended or cancelled: take nothing more */
    int64_t last_used_ns;
    cl_ctx_t *next;
};

/* One stream entry on this replica -- items a to b - 1 of a job -- as the
 * job the pool runs (base first): its item k is the job's item a + k, run
 * one after the other (threads 1), so requests still pass between them.
 * The loop thread's, but that from pool_submit() to its done() the workers
 * read `ctx` and `a` (constant meanwhile) and write their items' slots in
 * ctx->job, as any job's run() does. */
struct cl_item_s {
    api_job_t base;
    pool_task_t task;
    cluster_t *cl;
    cl_ctx_t *ctx;
    long a, b;
    char entry[48];
    int rc;                 /* the first item code that was not 0 (the wrapper's merge) */
    char **bytes;           /* encoded results, b - a of them, once run; kept */
    size_t *lens;           /* while Redis is down, to commit when it is back */
    api_item_info_t *infos; /* their nodes and progress units */
    cl_item_t *next;
};

enum { SUB_IDLE, SUB_CONNECTING, SUB_READY };

struct cluster_s {
    /* Constant after cluster_new() / cluster_on_event(). */
    const config_t *cfg;
    pool_t *pool;
    metrics_t *metrics;
    rconn_t *rc;
    rconn_url_t url;
    char replica[128];
    char prefix[64];
    char channel[96];
    cluster_event_fn on_event;
    void *on_event_arg;

    atomic_int draining;

    /* Loop thread only. */
    redisAsyncContext *sub;
    int sub_state;
    int64_t sub_since_ns, sub_next_ns;
    int sub_backoff_ms;
    int stopping;
    cl_ctx_t *ctxs;
    cl_item_t *items;   /* on the pool */
    cl_item_t *pending; /* ran, waiting for Redis to take the commit */
    int64_t last_beat_ns, last_sweep_ns, last_reclaim_ns, last_claim_ns, last_check_ns;
    int was_up;          /* Redis answered at the last tick */
    int64_t up_since_ns; /* ... since then */
};

static void cl_fill(cluster_t *cl);

static int64_t cl_wall_ms(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void cl_assert_loop(const cluster_t *cl) {
    /* pool_loop() asserts that it runs on the loop thread */
    if (cl->pool != NULL) (void)pool_loop(cl->pool);
}

static void cl_key(const cluster_t *cl, char *out, size_t cap, const char *id, const char *tail) {
    snprintf(out, cap, "%sjob:%s%s", cl->prefix, id, tail);
}

static int cl_reply_is(const redisReply *r, const char *s) {
    return r != NULL && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS) &&
           r->len == strlen(s) && memcmp(r->str, s, r->len) == 0;
}

static long long cl_ll(const redisReply *r, long long def) { return rconn_int(r, def); }

/* === Creating a split job (any thread) === */

int cluster_can_split(const api_job_t *job) {
    return job->ops->item_encode != NULL && job->ops->item_decode != NULL && job->nitems > 0;
}

int cluster_create(cluster_t *cl, job_rec_t *rec, const api_request_t *req, const api_job_t *job) {
    jsr_args_t a;
    size_t qlen = 0;
    char *q;
    for (size_t i = 0; i < req->nparams; i++)
        qlen += strlen(req->params[i].key) + strlen(req->params[i].value) + 2;
    q = malloc(qlen + 1);
    if (q == NULL) return JOBSTORE_ENOMEM;
    qlen = 0;
    for (size_t i = 0; i < req->nparams; i++) { /* key NUL value NUL ... */
        size_t kl = strlen(req->params[i].key) + 1, vl = strlen(req->params[i].value) + 1;
        memcpy(q + qlen, req->params[i].key, kl);
        memcpy(q + qlen + kl, req->params[i].value, vl);
        qlen += kl + vl;
    }
    /* progress in the job's own units when it keeps them (subproblems of a
     * count, lines of a batch: item_encode() says each item's share), else
     * in items */
    snprintf(rec->progress.unit, sizeof rec->progress.unit, "%s",
             job->progress_unit ? job->progress_unit : "items");
    rec->progress.total = job->progress_total ? job->progress_total : job->nitems;
    rec->progress.eta_ms = -1;
    jsr_args_init(&a);
    jsr_args_cstr(&a, cl->prefix);
    jsr_args_cstr(&a, rec->id);
    jsr_args_int(&a, cl->cfg->max_jobs);
    jsr_args_int(&a, cl_wall_ms() - cl->cfg->job_ttl_s * 1000);
    jsr_args_int(&a, job->timeout_ms + cl->cfg->job_ttl_s * 1000);
    jsr_args_int(&a, (long long)job->nitems);
    jsr_args_int(&a, (long long)((job->nitems + CL_ENTRIES_MAX - 1) / CL_ENTRIES_MAX));
    jsr_args_int(&a, 9); /* request fields */
    jsr_args_cstr(&a, "m");
    jsr_args_cstr(&a, req->method);
    jsr_args_cstr(&a, "path");
    jsr_args_cstr(&a, req->path);
    jsr_args_cstr(&a, "q");
    jsr_args_str(&a, q, qlen);
    jsr_args_cstr(&a, "ct");
    jsr_args_cstr(&a, req->content_type ? req->content_type : "");
    jsr_args_cstr(&a, "acc");
    jsr_args_cstr(&a, req->accept ? req->accept : "");
    jsr_args_cstr(&a, "body");
    jsr_args_str(&a, req->body ? req->body : "", req->body_len);
    jsr_args_cstr(&a, "thr");
    jsr_args_int(&a, req->pool_threads);
    jsr_args_cstr(&a, "tmo");
    jsr_args_int(&a, req->max_timeout_ms);
    jsr_args_cstr(&a, "lines");
    jsr_args_int(&a, (long long)req->max_batch_lines);
    jsr_args_record(&a, rec);
    jsr_args_cstr(&a, "dist");
    jsr_args_cstr(&a, "1");
    jsr_args_cstr(&a, "ni");
    jsr_args_int(&a, (long long)job->nitems);
    jsr_args_cstr(&a, "nd");
    jsr_args_int(&a, 0);
    jsr_args_cstr(&a, "tmo");
    jsr_args_int(&a, job->timeout_ms);
    redisReply *r = rconn_script(cl->rc, RSCRIPT_ADD, a.n, a.v, a.l);
    free(q);
    if (r == NULL || r->type != REDIS_REPLY_INTEGER) {
        rconn_reply_free(r);
        return JOBSTORE_EDOWN;
    }
    long long seq = r->integer;
    rconn_reply_free(r);
    if (seq == -2) return JOBSTORE_EFULL;
    rec->seq = (uint64_t)seq;
    return 0;
}

/* === Rebuilding a job from its stored request (any thread) === */

/* The request fields of a job, pointing into a reply (flat field/value
 * pairs from `from`); params point into `kv` (API_MAX_PARAMS). */
static int cl_request(const redisReply *pairs, size_t from, api_request_t *req, api_param_t *kv,
                      char *method, size_t mcap) {
    memset(req, 0, sizeof *req);
    method[0] = '\0';
    for (size_t i = from; i + 1 < pairs->elements; i += 2) {
        const redisReply *k = pairs->element[i], *v = pairs->element[i + 1];
        if (k->type != REDIS_REPLY_STRING || v->type != REDIS_REPLY_STRING) continue;
        if (cl_reply_is(k, "m")) {
            snprintf(method, mcap, "%.*s", (int)v->len, v->str);
        } else if (cl_reply_is(k, "path")) {
            req->path = v->str;
        } else if (cl_reply_is(k, "q")) { /* key NUL value NUL ... */
            for (size_t off = 0; off < v->len && req->nparams < API_MAX_PARAMS;) {
                const char *key = v->str + off;
                size_t kl = strnlen(key, v->len - off);
                if (off + kl + 1 >= v->len) break;
                const char *val = key + kl + 1;
                size_t vl = strnlen(val, v->len - off - kl - 1);
                kv[req->nparams].key = key;
                kv[req->nparams].value = val;
                req->nparams++;
                off += kl + vl + 2;
            }
        } else if (cl_reply_is(k, "ct")) {
            req->content_type = v->len ? v->str : NULL;
        } else if (cl_reply_is(k, "acc")) {
            req->accept = v->len ? v->str : NULL;
        } else if (cl_reply_is(k, "body")) {
            req->body = v->str;
            req->body_len = v->len;
        } else if (cl_reply_is(k, "thr")) {
            req->pool_threads = (unsigned)cl_ll(v, 1);
        } else if (cl_reply_is(k, "tmo")) {
            req->max_timeout_ms = cl_ll(v, 1000);
        } else if (cl_reply_is(k, "lines")) {
            req->max_batch_lines = (size_t)cl_ll(v, 1);
        }
    }
    req->method = method;
    req->params = kv;
    return method[0] != '\0' && req->path != NULL ? 0 : -1;
}

/* Rebuilds the job from a request read back from Redis: *job, or NULL with
 * a problem in *resp (the caller destroys it). */
static void cl_prepare(const redisReply *pairs, size_t from, api_job_t **job,
                       api_response_t *resp) {
    api_request_t req;
    api_param_t kv[API_MAX_PARAMS];
    char method[16];
    const api_endpoint_t *ep = NULL;
    api_problem_t p;
    *job = NULL;
    if (cl_request(pairs, from, &req, kv, method, sizeof method) != 0 ||
        (ep = api_endpoint_find(req.method, req.path)) == NULL) {
        api_problem_init(&p, API_EINTERNAL, "the job's stored request cannot be read back");
        api_response_problem(resp, &p);
        return;
    }
    if (guard_prepare(ep->prepare, &req, job, resp) == 0 && *job != NULL &&
        !cluster_can_split(*job)) {
        (*job)->ops->free(*job);
        *job = NULL;
        api_problem_init(&p, API_EINTERNAL, "the job's request no longer splits into items");
        api_response_problem(resp, &p);
    } else if (*job == NULL && resp->status == 0) {
        api_problem_init(&p, API_EINTERNAL, "the job's request prepared no job");
        api_response_problem(resp, &p);
    }
}

/* === Ending a split job (any thread) === */

static void cl_log_end(const char *id, job_status_t st, const char *path, int status) {
    log_json("info", "job ended",
             json_pack("{s:s, s:s, s:s, s:i}", "job", id, "status", job_status_name(st), "path",
                       path, "result_status", status));
}

/* RSCRIPT_END with `rec`'s fields and `body` as the result.  1 ended now, 0
 * had ended, or a JOBSTORE_E* code. */
static int cl_end(cluster_t *cl, job_rec_t *rec, const char *body, size_t len) {
    jsr_args_t a;
    jsr_args_init(&a);
    jsr_args_cstr(&a, cl->prefix);
    jsr_args_cstr(&a, rec->id);
    jsr_args_int(&a, cl->cfg->job_ttl_s * 1000);
    jsr_args_str(&a, body ? body : "", body ? len : 0);
    jsr_args_cstr(&a, body ? "1" : "0");
    jsr_args_record(&a, rec);
    redisReply *r = rconn_script(cl->rc, RSCRIPT_END, a.n, a.v, a.l);
    long long v = rconn_int(r, -9);
    int err = rconn_is_error(r);
    rconn_reply_free(r);
    if (err || v == -9) return JOBSTORE_EDOWN;
    if (v == -1) return JOBSTORE_ENOTFOUND;
    if (v == 1) {
        metrics_t *m = cl->metrics;
        atomic_fetch_add_explicit(&m->async_ended[rec->status], 1, memory_order_relaxed);
        if (rec->started_ms != 0)
            metrics_observe_job(m, (double)(rec->finished_ms - rec->started_ms) / 1000.0);
        cl_log_end(rec->id, rec->status, rec->path, rec->result_status);
    }
    return (int)v;
}

/* Renders a finished job's answer into *body, as jobs.c keeps one: a stream
 * is drained, and an answer over --max-job-result becomes a 413 problem. */
static void cl_render(cluster_t *cl, api_job_t *job, int *status, char *ctype, size_t ccap,
                      char **body, size_t *len) {
    api_response_t resp = {0};
    guard_render(job, &resp);
    size_t limit = cl->cfg->max_job_result, n = 0, cap = 0;
    char *out = NULL;
    int too_large = 0;
    if (resp.stream != NULL) {
        for (;;) {
            if (n + 65536 > cap) {
                char *b = realloc(out, (cap = cap ? cap * 2 : 65536) + 1);
                if (b == NULL) {
                    too_large = -1;
                    break;
                }
                out = b;
            }
            long k = resp.stream(resp.stream_cls, out + n, cap - n);
            if (k <= 0) break;
            n += (size_t)k;
            if (n > limit) {
                too_large = 1;
                break;
            }
        }
    } else {
        out = resp.body;
        n = resp.len;
        resp.body = NULL;
        if (n > limit) too_large = 1;
    }
    *status = resp.status;
    snprintf(ctype, ccap, "%s", resp.content_type ? resp.content_type : "");
    api_response_destroy(&resp);
    if (too_large) {
        api_problem_t p;
        api_response_t pr = {0};
        free(out);
        if (too_large < 0)
            api_problem_init(&p, API_ENOMEM, "out of memory while keeping the result");
        else
            api_problem_init(&p, API_ETOOLARGE,
                             "the result is larger than --max-job-result (%zu bytes); ask for "
                             "less (output=summary) or run it synchronously",
                             limit);
        api_response_problem(&pr, &p);
        *status = pr.status;
        snprintf(ctype, ccap, "%s", pr.content_type);
        out = pr.body;
        n = pr.len;
    }
    *body = out;
    *len = n;
}

/* Ends job `id` as failed with `resp` (a problem) as its answer, unless it
 * has ended already. */
static void cl_fail(cluster_t *cl, const char *id, const api_response_t *resp) {
    job_rec_t rec;
    char key[160];
    cl_key(cl, key, sizeof key, id, "");
    redisReply *h = rconn_cmd(cl->rc, "HGETALL %s", key);
    if (jsr_parse_record(h, id, 0, &rec) == 0 && !JOB_ENDED(rec.status)) {
        rec.status = JOB_FAILED;
        rec.finished_ms = cl_wall_ms();
        rec.progress.eta_ms = -1;
        rec.result_status = resp->status;
        snprintf(rec.result_type, sizeof rec.result_type, "%s",
                 resp->content_type ? resp->content_type : "");
        cl_end(cl, &rec, resp->body, resp->len);
    }
    job_rec_clear(&rec);
    rconn_reply_free(h);
}

int cluster_merge(cluster_t *cl, const char *id, int rc) {
    char k[160], kreq[170], kres[170];
    redisReply *rep[3];
    job_rec_t rec;
    api_job_t *job = NULL;
    api_response_t presp = {0};
    const redisReply **slot = NULL;
    char *body = NULL, ctype[64] = "";
    size_t len = 0;
    int status = 0, out;

    cl_key(cl, k, sizeof k, id, "");
    cl_key(cl, kreq, sizeof kreq, id, ":req");
    cl_key(cl, kres, sizeof kres, id, ":res");
    const char *a0[] = {"HGETALL", k}, *a1[] = {"HGETALL", kreq}, *a2[] = {"HGETALL", kres};
    rconn_cmd_t cmds[3] = {{2, a0, NULL}, {2, a1, NULL}, {2, a2, NULL}};
    if (rconn_pipeline(cl->rc, 3, cmds, rep) != 0) return JOBSTORE_EDOWN;
    out = jsr_parse_record(rep[0], id, 0, &rec);
    if (out != 0) goto done;
    if (JOB_ENDED(rec.status)) goto done; /* out = 0 */

    cl_prepare(rep[1], 0, &job, &presp);
    if (job == NULL) { /* the problem is the answer */
        status = presp.status;
        snprintf(ctype, sizeof ctype, "%s", presp.content_type ? presp.content_type : "");
        body = presp.body;
        len = presp.len;
        presp.body = NULL;
        rec.status = JOB_FAILED;
    } else {
        int failed = 0;
        uint64_t merged = 0;
        slot = calloc(job->nitems, sizeof *slot);
        if (slot == NULL) rc = rc ? rc : SEARCH_ENOMEM;
        for (size_t i = 0; slot != NULL && i + 1 < rep[2]->elements; i += 2) {
            long long item = cl_ll(rep[2]->element[i], -1);
            if (item >= 0 && (size_t)item < job->nitems) slot[item] = rep[2]->element[i + 1];
        }
        /* item order, as one server's sequential merge would keep solutions */
        for (size_t i = 0; slot != NULL && i < job->nitems; i++) {
            if (slot[i] != NULL && job->ops->item_decode(job, i, slot[i]->str, slot[i]->len) == 0) {
                job->ops->merge(job, i, 0);
                merged++;
            } else if (!failed) { /* the first item that is not in stands for them all */
                failed = 1;
                job->ops->merge(job, i, rc < 0 ? rc : SEARCH_ENOMEM);
                if (rc == 0) rc = SEARCH_ENOMEM; /* an item went missing: not a count */
            }
        }
        if (slot == NULL) job->ops->merge(job, 0, rc);
        if (job->ops->progressive) job->ops->finish(job, rc); /* its stream ends with them */
        /* the answer's elapsed time is the job's, not this copy's */
        if (rec.started_ms > 0)
            job->start_ns = search_now_ns() - (cl_wall_ms() - rec.started_ms) * 1000000;
        cl_render(cl, job, &status, ctype, sizeof ctype, &body, &len);
        rec.progress.done = job->progress_total ? job->progress_done : merged;
        rec.progress.nodes = job->nodes;
        rec.status = rc == SEARCH_CANCELLED    ? JOB_CANCELLED
                     : rc == SEARCH_TIMEOUT    ? JOB_TIMEOUT
                     : rc < 0 || status >= 400 ? JOB_FAILED
                                               : JOB_DONE;
        if (rec.status == JOB_DONE && (body == NULL || status == 0)) rec.status = JOB_FAILED;
    }
    rec.finished_ms = cl_wall_ms();
    rec.progress.elapsed_ms = rec.started_ms ? rec.finished_ms - rec.started_ms : 0;
    rec.progress.eta_ms = rec.status == JOB_DONE ? 0 : -1;
    rec.result_status = status;
    snprintf(rec.result_type, sizeof rec.result_type, "%s", ctype);
    out = cl_end(cl, &rec, body, len);
done:
    free(slot);
    free(body);
    api_response_destroy(&presp);
    if (job != NULL) job->ops->free(job);
    job_rec_clear(&rec);
    for (int i = 0; i < 3; i++)
        rconn_reply_free(rep[i]);
    return out;
}

int cluster_cancel(cluster_t *cl, const char *id) {
    const char *a[] = {cl->prefix, id};
    redisReply *r = rconn_script(cl->rc, RSCRIPT_CANCEL, 2, a, NULL);
    if (r == NULL || r->type != REDIS_REPLY_ARRAY || r->elements != 2) {
        rconn_reply_free(r);
        return JOBSTORE_EDOWN;
    }
    long long code = r->element[0]->integer, dist = r->element[1]->integer;
    rconn_reply_free(r);
    if (code == -1) return JOBSTORE_ENOTFOUND;
    if (code == 0) return 0;
    if (dist) { /* a split job ends here, with what is merged so far */
        int m = cluster_merge(cl, id, SEARCH_CANCELLED);
        if (m == JOBSTORE_EDOWN) return JOBSTORE_EDOWN;
    }
    return 1;
}

int cluster_commit(cluster_t *cl, const char *id, const char *entry, size_t n, const long *items,
                   char *const *bytes, const size_t *lens, const api_item_info_t *infos,
                   cluster_commit_t *out) {
    size_t argc = 6 + 4 * n;
    const char **av = malloc(argc * sizeof *av);
    size_t *al = malloc(argc * sizeof *al);
    char(*num)[24] = malloc((3 * n + 2) * sizeof *num);
    int rc = JOBSTORE_EDOWN;
    if (av == NULL || al == NULL || num == NULL) {
        rc = JOBSTORE_ENOMEM;
        goto out;
    }
    av[0] = cl->prefix;
    av[1] = id;
    av[2] = entry;
    av[3] = cl->replica;
    snprintf(num[0], sizeof num[0], "%lld", (long long)cl_wall_ms());
    snprintf(num[1], sizeof num[1], "%zu", n);
    av[4] = num[0];
    av[5] = num[1];
    for (size_t j = 0; j < n; j++) {
        char *ni = num[2 + 3 * j], *nn = num[3 + 3 * j], *nu = num[4 + 3 * j];
        snprintf(ni, sizeof num[0], "%ld", items[j]);
        snprintf(nn, sizeof num[0], "%llu", (unsigned long long)infos[j].nodes);
        snprintf(nu, sizeof num[0], "%llu", (unsigned long long)infos[j].units);
        av[6 + 4 * j] = ni;
        av[7 + 4 * j] = bytes[j];
        av[8 + 4 * j] = nn;
        av[9 + 4 * j] = nu;
    }
    for (size_t j = 0; j < argc; j++) /* the results are bytes, not strings */
        al[j] = j >= 6 && (j - 6) % 4 == 1 ? lens[(j - 6) / 4] : strlen(av[j]);
    redisReply *r = rconn_script(cl->rc, RSCRIPT_COMMIT, (int)argc, av, al);
    if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 4) {
        long long code = r->element[0]->integer;
        if (code >= 0) {
            memset(out, 0, sizeof *out);
            out->merged = (uint64_t)code;
            out->duplicates = (uint64_t)r->element[1]->integer;
            out->done = (uint64_t)r->element[2]->integer;
            out->total = (uint64_t)r->element[3]->integer;
            atomic_fetch_add_explicit(&cl->metrics->items_merged, out->merged,
                                      memory_order_relaxed);
            atomic_fetch_add_explicit(&cl->metrics->items_duplicate, out->duplicates,
                                      memory_order_relaxed);
            rc = 0;
        } else {
            rc = code == -1 ? JOBSTORE_ENOTFOUND : CLUSTER_ENDED;
        }
    }
    rconn_reply_free(r);
out:
    free(av);
    free(al);
    free(num);
    return rc;
}

/* === Contexts: split jobs this replica takes items of (loop thread) === */

static void cl_ctx_free(cl_ctx_t *c) {
    if (c->job != NULL) c->job->ops->free(c->job);
    rconn_reply_free(c->req);
    free(c);
}

static cl_ctx_t *cl_ctx_find(cluster_t *cl, const char *id) {
    for (cl_ctx_t *c = cl->ctxs; c != NULL; c = c->next)
        if (strcmp(c->id, id) == 0) return c;
    return NULL;
}

/* Raises the cancel flag of every running item of c and takes no more. */
static void cl_ctx_end(cluster_t *cl, cl_ctx_t *c) {
    c->ended = 1;
    for (cl_item_t *it = cl->items; it != NULL; it = it->next)
        if (it->ctx == c) atomic_store(&it->task.cancel, 1);
}

/* The context of job `id`, rebuilt on first use; NULL when Redis is down
 * or out of memory.  A job that has ended (or cannot be rebuilt) gets a
 * context marked ended, so that its stray entries are only acknowledged. */
static cl_ctx_t *cl_ctx_get(cluster_t *cl, const char *id) {
    cl_ctx_t *c = cl_ctx_find(cl, id);
    char now[24];
    if (c != NULL) {
        c->last_used_ns = search_now_ns();
        return c;
    }
    snprintf(now, sizeof now, "%lld", (long long)cl_wall_ms());
    const char *a[] = {cl->prefix, id, now};
    redisReply *r = rconn_script(cl->rc, RSCRIPT_TOUCH, 3, a, NULL);
    if (r == NULL || rconn_is_error(r)) {
        rconn_reply_free(r);
        return NULL;
    }
    c = calloc(1, sizeof *c);
    if (c == NULL) {
        rconn_reply_free(r);
        return NULL;
    }
    snprintf(c->id, sizeof c->id, "%s", id);
    c->last_used_ns = search_now_ns();
    if (r->type != REDIS_REPLY_ARRAY || r->elements < 5) {
        c->ended = 1; /* gone */
    } else {
        long long st = cl_ll(r->element[0], 3), sa = cl_ll(r->element[1], 0);
        long long tmo = cl_ll(r->element[2], 0), cx = cl_ll(r->element[3], 0);
        c->deadline_ms = (sa ? sa : cl_wall_ms()) + tmo;
        if (st >= JOB_DONE || cx == 1) {
            c->ended = 1;
        } else {
            api_response_t resp = {0};
            cl_prepare(r, 5, &c->job, &resp);
            if (c->job == NULL) { /* fail the job with the reason, once */
                cl_fail(cl, id, &resp);
                c->ended = 1;
            } else {
                c->req = r; /* the job may point into its request */
                r = NULL;
            }
            api_response_destroy(&resp);
        }
    }
    rconn_reply_free(r);
    c->next = cl->ctxs;
    cl->ctxs = c;
    return c;
}

/* Frees contexts nobody uses: ended ones, and idle ones after a while. */
static void cl_ctx_reap(cluster_t *cl, int64_t now) {
    for (cl_ctx_t **pp = &cl->ctxs; *pp != NULL;) {
        cl_ctx_t *c = *pp;
        if (c->running == 0 &&
            (c->ended || now - c->last_used_ns > (int64_t)CL_CTX_IDLE_MS * 1000000)) {
            *pp = c->next;
            cl_ctx_free(c);
        } else {
            pp = &c->next;
        }
    }
}

/* === Items (loop thread) === */

static int cl_item_run(api_job_t *job, size_t k, const search_ctl_t *ctl) {
    cl_item_t *it = (cl_item_t *)job;
    return it->ctx->job->ops->run(it->ctx->job, (size_t)it->a + k, ctl);
}

static int cl_item_merge(api_job_t *job, size_t k, int rc) {
    cl_item_t *it = (cl_item_t *)job;
    (void)k;
    if (rc != 0 && it->rc == 0) it->rc = rc;
    return rc != 0 ? API_JOB_CANCEL : API_JOB_CONTINUE; /* the entry fails as a whole */
}

static void cl_item_render(api_job_t *job, api_response_t *out) {
    (void)job;
    (void)out;
}

static void cl_item_nofree(api_job_t *job) { (void)job; }

static const api_job_ops_t cl_item_ops = {
    "cluster", cl_item_run, cl_item_merge, cl_item_render, cl_item_nofree,
    0,         NULL,        NULL,          NULL,           NULL};

static void cl_unlink(cl_item_t **list, cl_item_t *it) {
    for (cl_item_t **pp = list; *pp != NULL; pp = &(*pp)->next)
        if (*pp == it) {
            *pp = it->next;
            return;
        }
}

static void cl_item_free(cl_item_t *it) {
    for (long k = 0; it->bytes != NULL && k < it->b - it->a; k++)
        free(it->bytes[k]);
    free(it->bytes);
    free(it->lens);
    free(it->infos);
    free(it);
}

/* Encodes the entry's item results; 0 or SEARCH_ENOMEM. */
static int cl_item_encode(cluster_t *cl, cl_item_t *it) {
    api_job_t *job = it->ctx->job;
    size_t n = (size_t)(it->b - it->a);
    it->bytes = calloc(n, sizeof *it->bytes);
    it->lens = calloc(n, sizeof *it->lens);
    it->infos = calloc(n, sizeof *it->infos);
    if (it->bytes == NULL || it->lens == NULL || it->infos == NULL) return SEARCH_ENOMEM;
    for (size_t k = 0; k < n; k++) {
        it->bytes[k] = job->ops->item_encode(job, (size_t)it->a + k, &it->lens[k], &it->infos[k]);
        if (it->bytes[k] == NULL || it->lens[k] > CL_ITEM_BYTES_MAX) return SEARCH_ENOMEM;
        metrics_add_nodes(cl->metrics, job->ops->puzzle, it->infos[k].nodes);
    }
    return 0;
}

/* Stores an entry's results; keeps them for later when Redis is down.
 * Returns 1 when the entry is dealt with (the caller frees it). */
static int cl_item_commit(cluster_t *cl, cl_item_t *it) {
    size_t n = (size_t)(it->b - it->a);
    long *items = malloc(n * sizeof *items);
    cluster_commit_t res;
    if (items == NULL) return 0; /* try again later */
    for (size_t k = 0; k < n; k++)
        items[k] = it->a + (long)k;
    int rc =
        cluster_commit(cl, it->ctx->id, it->entry, n, items, it->bytes, it->lens, it->infos, &res);
    free(items);
    if (rc == JOBSTORE_EDOWN || rc == JOBSTORE_ENOMEM) return 0;
    if (rc == JOBSTORE_ENOTFOUND || rc == CLUSTER_ENDED) cl_ctx_end(cl, it->ctx);
    return 1;
}

/* The merge entry of a job: end it with every item's result. */
static void cl_take_merge(cluster_t *cl, cl_ctx_t *c) {
    if (cluster_merge(cl, c->id, 0) != JOBSTORE_EDOWN) cl_ctx_end(cl, c);
    /* Redis down: the entry stays pending under this replica, and is
     * reclaimed (by this replica or another) once Redis answers again */
}

static void cl_item_done(pool_task_t *task);

/* Starts the entry's items a..b-1 of ctx on the pool.  Returns 1 if a
 * worker was taken. */
static int cl_item_start(cluster_t *cl, cl_ctx_t *c, long a, long b, const char *entry) {
    int64_t left = c->deadline_ms - cl_wall_ms();
    if (left <= 0) { /* the job's deadline passed before this entry ran */
        if (cluster_merge(cl, c->id, SEARCH_TIMEOUT) != JOBSTORE_EDOWN) cl_ctx_end(cl, c);
        return 0;
    }
    for (cl_item_t *it = cl->items; it != NULL; it = it->next)
        if (it->ctx == c && it->a == a) return 0; /* runs here already: leave it pending */
    for (cl_item_t *it = cl->pending; it != NULL; it = it->next)
        if (it->ctx == c && it->a == a) return 0;
    cl_item_t *it = calloc(1, sizeof *it);
    if (it == NULL) return 0; /* stays pending; reclaimed later */
    it->cl = cl;
    it->ctx = c;
    it->a = a;
    it->b = b;
    snprintf(it->entry, sizeof it->entry, "%s", entry);
    it->base.ops = &cl_item_ops;
    it->base.nitems = (size_t)(b - a);
    it->base.threads = 1;
    it->base.timeout_ms = left;
    it->base.start_ns = search_now_ns();
    it->task.job = &it->base;
    it->task.done = cl_item_done;
    it->task.owner = it;
    it->task.watch_fd = -1;
    it->task.background = 1; /* takes turns with the async jobs' items */
    pool_admit_background(cl->pool);
    if (pool_submit(cl->pool, &it->task) != 0) { /* the admission was released */
        free(it);
        return 0;
    }
    c->running++;
    it->next = cl->items;
    cl->items = it;
    return 1;
}

/* One stream entry ([id, [field, value, ...]]) of job `id`.  Returns 1 if
 * it took a worker. */
static int cl_take(cluster_t *cl, const char *id, const redisReply *e) {
    if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
        e->element[1]->type != REDIS_REPLY_ARRAY)
        return 0;
    const char *entry = e->element[0]->str;
    const redisReply *f = e->element[1];
    long a = -2, b = -2;
    for (size_t i = 0; i + 1 < f->elements; i += 2) {
        if (cl_reply_is(f->element[i], "a")) a = (long)cl_ll(f->element[i + 1], -2);
        if (cl_reply_is(f->element[i], "b")) b = (long)cl_ll(f->element[i + 1], -2);
    }
    cl_ctx_t *c = cl_ctx_get(cl, id);
    if (c == NULL) return 0; /* Redis down: the entry stays pending, reclaimed later */
    int bad = a < -1 || (a >= 0 && (b <= a || (c->job != NULL && (size_t)b > c->job->nitems)));
    if (c->ended || bad) {
        char key[160];
        cl_key(cl, key, sizeof key, id, ":items");
        rconn_reply_free(rconn_cmd(cl->rc, "XACK %s w %s", key, entry));
        rconn_reply_free(rconn_cmd(cl->rc, "XDEL %s %s", key, entry));
        return 0;
    }
    if (a == -1) {
        cl_take_merge(cl, c);
        return 0;
    }
    return cl_item_start(cl, c, a, b, entry);
}

/* Loop thread: the pool is done with an entry. */
static void cl_item_done(pool_task_t *task) {
    cl_item_t *it = task->owner;
    cluster_t *cl = it->cl;
    cl_ctx_t *c = it->ctx;
    cl_assert_loop(cl);
    int rc = task->rc ? task->rc : it->rc;
    cl_unlink(&cl->items, it);
    if (rc == 0 && !c->ended) {
        rc = cl_item_encode(cl, it);
        if (rc == 0 && !cl_item_commit(cl, it)) {
            it->next = cl->pending; /* Redis is down: commit when it is back */
            cl->pending = it;
            cl_fill(cl);
            return;
        }
    }
    if (rc == SEARCH_CANCELLED && !c->ended) {
        /* not the job's cancel: this replica is stopping.  Give it back. */
        char a[24], b[24];
        snprintf(a, sizeof a, "%ld", it->a);
        snprintf(b, sizeof b, "%ld", it->b);
        const char *av[] = {cl->prefix, c->id, it->entry, a, b};
        redisReply *r = rconn_script(cl->rc, RSCRIPT_REQUEUE, 5, av, NULL);
        if (rconn_int(r, 0) == 1)
            atomic_fetch_add_explicit(&cl->metrics->items_requeued, (uint64_t)(it->b - it->a),
                                      memory_order_relaxed);
        rconn_reply_free(r);
    } else if (rc < 0 && !c->ended) { /* the deadline passed, or the search failed */
        if (cluster_merge(cl, c->id, rc) != JOBSTORE_EDOWN) cl_ctx_end(cl, c);
    }
    c->running--;
    cl_item_free(it);
    cl_fill(cl);
}

/* Retries the commits Redis could not take. */
static void cl_retry_pending(cluster_t *cl) {
    for (cl_item_t **pp = &cl->pending; *pp != NULL && rconn_up(cl->rc);) {
        cl_item_t *it = *pp;
        if (it->ctx->ended || cl_item_commit(cl, it)) {
            *pp = it->next;
            it->ctx->running--;
            cl_item_free(it);
        } else {
            pp = &it->next;
        }
    }
}

/* Items this replica may take now: room in the background share. */
static long cl_idle(const cluster_t *cl) {
    if (atomic_load(&cl->draining) || !rconn_up(cl->rc)) return 0;
    return pool_background_idle(cl->pool);
}

/* The oldest split jobs that still have items. */
static redisReply *cl_active(cluster_t *cl) {
    char key[96], last[16];
    snprintf(key, sizeof key, "%sactive", cl->prefix);
    snprintf(last, sizeof last, "%d", CL_ACTIVE_MAX - 1);
    const char *a[] = {"ZRANGE", key, "0", last};
    redisReply *r = rconn_argv(cl->rc, 4, a, NULL);
    if (r != NULL && r->type != REDIS_REPLY_ARRAY) {
        rconn_reply_free(r);
        r = NULL;
    }
    return r;
}

/* Takes new items while workers are idle. */
static void cl_fill(cluster_t *cl) {
    cl_assert_loop(cl);
    long idle = cl->pool != NULL ? cl_idle(cl) : 0;
    if (idle <= 0) return;
    redisReply *act = cl_active(cl);
    for (size_t j = 0; act != NULL && j < act->elements && idle > 0; j++) {
        char key[160], count[24], id[JOB_ID_LEN + 1];
        snprintf(id, sizeof id, "%.*s", (int)act->element[j]->len, act->element[j]->str);
        cl_ctx_t *c = cl_ctx_find(cl, id);
        if (c != NULL && c->ended) continue;
        cl_key(cl, key, sizeof key, id, ":items");
        snprintf(count, sizeof count, "%ld", idle);
        const char *a[] = {"XREADGROUP", "GROUP",   "w", cl->replica, "COUNT",
                           count,        "STREAMS", key, ">"};
        redisReply *r = rconn_argv(cl->rc, 9, a, NULL);
        /* [[stream, [entries]]], nil when none, an error when the job is gone */
        if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
            r->element[0]->type == REDIS_REPLY_ARRAY && r->element[0]->elements == 2) {
            const redisReply *entries = r->element[0]->element[1];
            for (size_t i = 0; i < entries->elements; i++)
                idle -= cl_take(cl, id, entries->element[i]);
            if (entries->elements > 0) j--; /* the same job may have more (j + 1 next) */
        }
        rconn_reply_free(r);
    }
    rconn_reply_free(act);
}

/* Takes over items that no replica has beaten for longer than the claim
 * time. */
static void cl_reclaim(cluster_t *cl) {
    cl_assert_loop(cl);
    long idle = cl_idle(cl);
    if (idle <= 0) return;
    redisReply *act = cl_active(cl);
    for (size_t j = 0; act != NULL && j < act->elements && idle > 0; j++) {
        char id[JOB_ID_LEN + 1], claim[16], count[24];
        snprintf(id, sizeof id, "%.*s", (int)act->element[j]->len, act->element[j]->str);
        snprintf(claim, sizeof claim, "%u", cl->cfg->redis_claim_ms);
        snprintf(count, sizeof count, "%ld", idle);
        const char *a[] = {cl->prefix, id, cl->replica, claim, count};
        redisReply *r = rconn_script(cl->rc, RSCRIPT_RECLAIM, 5, a, NULL);
        for (size_t i = 0; r != NULL && r->type == REDIS_REPLY_ARRAY && i < r->elements; i++) {
            atomic_fetch_add_explicit(&cl->metrics->items_reclaimed, 1, memory_order_relaxed);
            idle -= cl_take(cl, id, r->element[i]);
        }
        rconn_reply_free(r);
    }
    rconn_reply_free(act);
}

/* The beat for the entries this replica holds: their idle time restarts,
 * so nobody reclaims an item that is still running. */
static void cl_claim_own(cluster_t *cl) {
    cl_assert_loop(cl);
    for (cl_ctx_t *c = cl->ctxs; c != NULL; c = c->next) {
        const char *argv[8 + 2 * CONFIG_MAX_THREADS];
        char key[160], claim[8] = "0";
        int argc = 0;
        if (c->running == 0 || c->ended) continue;
        cl_key(cl, key, sizeof key, c->id, ":items");
        argv[argc++] = "XCLAIM";
        argv[argc++] = key;
        argv[argc++] = "w";
        argv[argc++] = cl->replica;
        argv[argc++] = claim;
        for (cl_item_t *it = cl->items; it != NULL && argc < 6 + 2 * CONFIG_MAX_THREADS;
             it = it->next)
            if (it->ctx == c) argv[argc++] = it->entry;
        for (cl_item_t *it = cl->pending; it != NULL && argc < 6 + 2 * CONFIG_MAX_THREADS;
             it = it->next)
            if (it->ctx == c) argv[argc++] = it->entry;
        if (argc == 5) continue;
        argv[argc++] = "JUSTID";
        rconn_reply_free(rconn_argv(cl->rc, argc, argv, NULL));
    }
}

/* Jobs whose items run here: have they ended without us hearing? */
static void cl_check_ctxs(cluster_t *cl) {
    cl_assert_loop(cl);
    for (cl_ctx_t *c = cl->ctxs; c != NULL; c = c->next) {
        char key[160];
        if (c->ended || c->running == 0) continue;
        cl_key(cl, key, sizeof key, c->id, "");
        redisReply *r = rconn_cmd(cl->rc, "HMGET %s st cx", key);
        if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
            (r->element[0]->type == REDIS_REPLY_NIL || cl_ll(r->element[0], 0) >= JOB_DONE ||
             cl_ll(r->element[1], 0) == 1))
            cl_ctx_end(cl, c);
        rconn_reply_free(r);
    }
}

/* Live jobs of replicas that are gone end as failed. */
static void cl_sweep(cluster_t *cl) {
    cl_assert_loop(cl);
    const char *a[] = {cl->prefix};
    redisReply *r = rconn_script(cl->rc, RSCRIPT_SWEEP, 1, a, NULL);
    for (size_t i = 0; r != NULL && r->type == REDIS_REPLY_ARRAY && i < r->elements; i++) {
        api_problem_t p;
        api_response_t resp = {0};
        char id[JOB_ID_LEN + 1];
        snprintf(id, sizeof id, "%.*s", (int)r->element[i]->len, r->element[i]->str);
        api_problem_init(&p, API_EUNAVAILABLE,
                         "the replica that ran this job stopped before the job ended; create "
                         "the job again");
        api_response_problem(&resp, &p);
        cl_fail(cl, id, &resp);
        api_response_destroy(&resp);
    }
    rconn_reply_free(r);
}

static void cl_beat(cluster_t *cl) {
    char key[256], ttl[16], info[96];
    snprintf(key, sizeof key, "%sreplica:%s", cl->prefix, cl->replica);
    snprintf(ttl, sizeof ttl, "%d", CL_BEAT_TTL_MS);
    snprintf(info, sizeof info, "{\"threads\":%u}", cl->cfg->threads);
    const char *a[] = {"SET", key, info, "PX", ttl};
    rconn_reply_free(rconn_argv(cl->rc, 5, a, NULL));
}

/* === The subscription (loop thread) === */

static void cl_sub_backoff(cluster_t *cl) {
    cl->sub_state = SUB_IDLE;
    cl->sub = NULL;
    cl->sub_next_ns = search_now_ns() + (int64_t)cl->sub_backoff_ms * 1000000;
    cl->sub_backoff_ms = cl->sub_backoff_ms * 2 > CL_SUB_BACKOFF_MAX_MS ? CL_SUB_BACKOFF_MAX_MS
                                                                        : cl->sub_backoff_ms * 2;
}

static void cl_on_message(cluster_t *cl, const char *msg, size_t len) {
    cl_assert_loop(cl);
    char id[JOB_ID_LEN + 1];
    if (len != 2 + JOB_ID_LEN || msg[1] != ' ') return;
    memcpy(id, msg + 2, JOB_ID_LEN);
    id[JOB_ID_LEN] = '\0';
    char kind = msg[0];
    if (kind == 'w') {
        cl_fill(cl);
        return;
    }
    if (kind == 'c' || kind == 'd') {
        cl_ctx_t *c = cl_ctx_find(cl, id);
        if (c != NULL) cl_ctx_end(cl, c);
    }
    if (cl->on_event != NULL) cl->on_event(cl->on_event_arg, kind, id);
}

/* Every reply on the subscription: its confirmation, then messages.
 * Called with r NULL when the connection is being freed. */
static void cl_sub_reply(redisAsyncContext *ac, void *reply, void *priv) {
    cluster_t *cl = priv;
    redisReply *r = reply;
    (void)ac;
    if (r == NULL || cl->stopping) return;
    if (r->type == REDIS_REPLY_ERROR) { /* NOAUTH, ...: disconnect, retry later */
        log_json("warn", "redis subscription refused",
                 json_pack("{s:s}", "error", r->str ? r->str : ""));
        redisAsyncDisconnect(ac);
        return;
    }
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 3) return;
    if (cl_reply_is(r->element[0], "subscribe")) {
        cl->sub_state = SUB_READY;
        cl->sub_backoff_ms = 100;
        cl->last_check_ns = 0; /* look again at what may have been missed */
        if (cl->on_event != NULL) cl->on_event(cl->on_event_arg, 'r', NULL);
        cl_fill(cl);
    } else if (cl_reply_is(r->element[0], "message") && r->element[2]->type == REDIS_REPLY_STRING) {
        cl_on_message(cl, r->element[2]->str, r->element[2]->len);
    }
}

static void cl_auth_reply(redisAsyncContext *ac, void *reply, void *priv) {
    (void)ac;
    (void)reply;
    (void)priv; /* a refusal shows in the SUBSCRIBE reply that follows */
}

static void cl_sub_on_connect(const redisAsyncContext *ac, int status) {
    cluster_t *cl = ac->data;
    if (status != REDIS_OK && !cl->stopping) cl_sub_backoff(cl); /* hiredis frees ac */
}

static void cl_sub_on_disconnect(const redisAsyncContext *ac, int status) {
    cluster_t *cl = ac->data;
    (void)status;
    if (!cl->stopping) cl_sub_backoff(cl); /* hiredis frees ac */
}

static void cl_sub_connect(cluster_t *cl) {
    cl_assert_loop(cl);
    redisAsyncContext *ac = redisAsyncConnect(cl->url.host, (int)cl->url.port);
    if (ac == NULL || ac->err) {
        if (ac != NULL) redisAsyncFree(ac);
        cl_sub_backoff(cl);
        return;
    }
    ac->data = cl;
    if (redisLibuvAttach(ac, pool_loop(cl->pool)) != REDIS_OK) {
        redisAsyncFree(ac);
        cl_sub_backoff(cl);
        return;
    }
    redisAsyncSetConnectCallback(ac, cl_sub_on_connect);
    redisAsyncSetDisconnectCallback(ac, cl_sub_on_disconnect);
    if (cl->url.password[0] != '\0') {
        if (cl->url.user[0])
            redisAsyncCommand(ac, cl_auth_reply, cl, "AUTH %s %s", cl->url.user, cl->url.password);
        else
            redisAsyncCommand(ac, cl_auth_reply, cl, "AUTH %s", cl->url.password);
    }
    redisAsyncCommand(ac, cl_sub_reply, cl, "SUBSCRIBE %s", cl->channel);
    cl->sub = ac;
    cl->sub_state = SUB_CONNECTING;
    cl->sub_since_ns = search_now_ns();
}

static void cl_sub_tick(cluster_t *cl, int64_t now) {
    if (cl->sub_state == SUB_IDLE && now >= cl->sub_next_ns) {
        cl_sub_connect(cl);
    } else if (cl->sub_state == SUB_CONNECTING &&
               now - cl->sub_since_ns > (int64_t)CL_SUB_TIMEOUT_MS * 1000000) {
        redisAsyncContext *ac = cl->sub;
        cl->stopping = 1; /* our own free: the callbacks must not reschedule */
        redisAsyncFree(ac);
        cl->stopping = 0;
        cl_sub_backoff(cl);
    }
}

void cluster_loop_stop(void *arg) {
    cluster_t *cl = arg;
    cl_assert_loop(cl);
    cl->stopping = 1;
    if (cl->sub != NULL) redisAsyncFree(cl->sub); /* closes its uv_poll handle */
    cl->sub = NULL;
    cl->sub_state = SUB_IDLE;
}

/* === Public === */

void cluster_tick(cluster_t *cl) {
    int64_t now = search_now_ns();
    cl_assert_loop(cl);
    rconn_probe(cl->rc);
    if (cl->stopping) return;
    cl_sub_tick(cl, now);
    if (!rconn_up(cl->rc)) {
        cl->was_up = 0;
        return;
    }
    if (!cl->was_up) { /* (again) connected: every live replica beats within CL_BEAT_MS */
        cl->was_up = 1;
        cl->up_since_ns = now;
    }
    if (now - cl->last_beat_ns >= (int64_t)CL_BEAT_MS * 1000000) {
        cl->last_beat_ns = now;
        cl_beat(cl);
    }
    cl_retry_pending(cl);
    int64_t claim_ns = (int64_t)cl->cfg->redis_claim_ms * 1000000;
    if (now - cl->last_claim_ns >= claim_ns / 3) {
        cl->last_claim_ns = now;
        cl_claim_own(cl);
    }
    if (now - cl->last_check_ns >= (int64_t)CL_CHECK_MS * 1000000) {
        cl->last_check_ns = now;
        cl_check_ctxs(cl);
    }
    /* a replica is dead when its beat is missing while Redis has been up
     * long enough for every live replica to have beaten: not right after an
     * outage, when every beat has expired */
    if (now - cl->last_sweep_ns >= (int64_t)CL_SWEEP_MS * 1000000 &&
        now - cl->up_since_ns >= (int64_t)(CL_BEAT_TTL_MS + 2 * CL_BEAT_MS) * 1000000) {
        cl->last_sweep_ns = now;
        cl_sweep(cl);
    }
    cl_fill(cl);
    if (now - cl->last_reclaim_ns >= claim_ns / 2) {
        cl->last_reclaim_ns = now;
        cl_reclaim(cl);
    }
    cl_ctx_reap(cl, now);
}

int cluster_new(cluster_t **out, const config_t *cfg, pool_t *pool, metrics_t *metrics, rconn_t *rc,
                const char *replica) {
    char why[160];
    cluster_t *cl = calloc(1, sizeof *cl);
    if (cl == NULL) return -1;
    cl->cfg = cfg;
    cl->pool = pool;
    cl->metrics = metrics;
    cl->rc = rc;
    if (rconn_url_parse(cfg->redis, &cl->url, why, sizeof why) != 0) {
        free(cl);
        return -1;
    }
    snprintf(cl->replica, sizeof cl->replica, "%s", replica);
    snprintf(cl->prefix, sizeof cl->prefix, "%s", cfg->redis_prefix);
    snprintf(cl->channel, sizeof cl->channel, "%sevents", cfg->redis_prefix);
    cl->sub_backoff_ms = 100;
    atomic_init(&cl->draining, 0);
    if (pool != NULL) pool_on_stop(pool, cluster_loop_stop, cl);
    *out = cl;
    return 0;
}

void cluster_on_event(cluster_t *cl, cluster_event_fn fn, void *arg) {
    cl->on_event = fn;
    cl->on_event_arg = arg;
}

const char *cluster_replica(const cluster_t *cl) { return cl->replica; }

void cluster_drain(cluster_t *cl) { atomic_store(&cl->draining, 1); }

unsigned cluster_retry_after_s(cluster_t *cl) { return rconn_retry_after_s(cl->rc); }

int cluster_up(cluster_t *cl) { return rconn_up(cl->rc); }

void cluster_free(cluster_t *cl) {
    if (cl == NULL) return;
    assert(cl->items == NULL); /* the pool ran every task to its end */
    for (cl_item_t *it = cl->pending, *next; it != NULL; it = next) {
        next = it->next; /* never committed: another replica reclaims the entry */
        cl_item_free(it);
    }
    for (cl_ctx_t *c = cl->ctxs, *next; c != NULL; c = next) {
        next = c->next;
        cl_ctx_free(c);
    }
    memset(cl->url.password, 0, sizeof cl->url.password);
    free(cl);
}
