/* jobs.c -- the runner of asynchronous jobs.
 *
 * Life of a job (MHD = libmicrohttpd's thread, loop = the pool's loop thread):
 *
 *   MHD   jobs_create()   the request was prepared (validated) as if it were
 *                         synchronous; its api_job_t comes here.  A record
 *                         (status queued) goes into the store, a runner
 *                         (job_run_t) into `runs`; 202 + Location.
 *   any   job_start()     while fewer than --threads jobs run, the oldest
 *                         queued one is admitted to the pool as a background
 *                         task (it never takes a synchronous request's place
 *                         in --max-queue) and marked running.
 *   loop  jobs_tick()     every POOL_TICK_MS: progress of each running job
 *                         (items merged, or the job's own measure, and live
 *                         search nodes), at most every 250 ms into the store
 *                         and to its event subscribers; keep-alive comments
 *                         on idle event streams every 15 s; expiry of ended
 *                         records after --job-ttl-s; the status gauges.
 *   loop  job_done()      the task has ended: render the answer exactly as
 *                         the synchronous call would, keep it as the result
 *                         (up to --max-job-result bytes), decide the final
 *                         status, tell the subscribers, free the runner, start
 *                         the next queued job.
 *   MHD   DELETE          a queued job ends at once as cancelled; a running
 *                         one has its task's cancel flag raised (the searches
 *                         poll it) and ends as cancelled in job_done(); an
 *                         ended one's record is deleted.
 *
 * Event streams (Server-Sent Events): a subscriber (job_sub_t) belongs to
 * the MHD response that streams it.  The loop thread appends events to its
 * buffer and resumes the connection if the reader had suspended it for want
 * of data; the reader (MHD thread) copies the buffer out, or suspends.  When
 * MHD is done with the response it calls sub_free(): a subscriber still on a
 * runner's list is only marked closed, and the loop thread unlinks and frees
 * it.  Dropping a stream never cancels the job.
 *
 * Cluster mode (js->cl set, the store is Redis'): a job whose work splits
 * into items (cluster_can_split) is not run here: jobs_create() hands it to
 * cluster_create(), which publishes its items for every replica to take, and
 * its record changes in Redis alone.  Other jobs run on the replica that
 * created them, as above, with their record in Redis.  An event stream of a
 * job with no runner here follows its record: a watch (job_watch_t) is read
 * again when the cluster says it changed ('p', 'd' notifications) and at
 * least every JOBS_WATCH_MS; a DELETE of a job with no runner here goes
 * through cluster_cancel().  A final record Redis could not take (it was
 * down) is kept in `unsaved` and stored when it answers again: a job that
 * ran through an outage is reported, not lost.
 *
 * Locking: `lock` guards the runners, their subscribers, the watches and
 * every field below it in jobs_s; the store and the pool lock for themselves
 * and are taken under `lock` (never the other way round).  In cluster mode
 * a store call is a Redis round trip (bounded by rconn's timeouts and its
 * breaker); the slow ones (expire, count, the watches' reads) are made
 * outside `lock`.  The cluster calls jobs_on_event() on the loop thread
 * outside `lock` (from its subscription's callbacks), and jobs_tick() calls
 * cluster_tick() before it takes `lock`.  A runner's api_job_t is
 * the loop thread's while its task runs (merge, render), so the tick reads
 * the job's progress fields on that thread only. */
#include "server/jobs/jobs.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "server/budget.h"
#include "server/guard.h"
#include "server/log.h"

#define JOBS_EVENT_MS     250   /* at most one progress event per job this often */
#define JOBS_KEEPALIVE_MS 15000 /* a comment line on an idle event stream */
#define JOBS_EXPIRE_MS    1000  /* how often ended records are expired */
#define JOBS_LIST_MAX     100   /* GET /v1/jobs?limit= */
#define JOBS_ETA_FROM     0.03  /* an eta once this fraction is done */
#define JOBS_WATCH_MS     1000  /* a followed remote job's record is read at least this often */
#define JOBS_PUT_MS       1000  /* cluster mode: a running job's record is written this often */

typedef struct job_sub_s job_sub_t;
typedef struct job_run_s job_run_t;
typedef struct job_watch_s job_watch_t;
typedef struct job_unsaved_s job_unsaved_t;

struct job_sub_s {
    struct MHD_Connection *conn;
    char *buf; /* pending bytes: buf[off..len) */
    size_t off, len, cap;
    int waiting;  /* the reader suspended the connection */
    int ended;    /* no more events: end once the buffer is read */
    int closed;   /* MHD has freed the response: garbage */
    int attached; /* on a runner's list (else the response alone owns it) */
    int oom;      /* an event could not be queued: end the stream */
    int64_t last_write_ns;
    jobs_t *js;
    job_sub_t *next;
};

struct job_run_s {
    jobs_t *js;
    api_job_t *job;
    pool_task_t task;
    job_rec_t rec;       /* the runner's view of the record (no result) */
    api_response_t resp; /* a progressive job's stream, set up before it runs */
    char *out;           /* a progressive job's answer so far */
    size_t out_len, out_cap;
    int too_large;         /* the answer passed --max-job-result */
    int cancel_requested;  /* DELETE, or shutdown */
    int64_t start_ns;      /* CLOCK_MONOTONIC at the start */
    int64_t last_event_ns; /* last progress event */
    int64_t last_put_ns;   /* cluster mode: last write of the record (under lock) */
    job_progress_t sent;   /* progress as last published */
    job_sub_t *subs;
    job_run_t *next; /* runs, in creation order */
};

/* Cluster mode: a job that runs elsewhere, followed by event streams here.
 * Every field is guarded by jobs_s.lock (the MHD thread adds streams, the
 * loop thread reads the record and publishes). */
struct job_watch_s {
    char id[JOB_ID_LEN + 1];
    job_sub_t *subs;
    int dirty;            /* the cluster said it changed: read it again */
    int64_t last_read_ns; /* when its record was last read */
    job_rec_t sent;       /* as last published (no result) */
    job_watch_t *next;
};

/* A final record the store could not take (Redis down), kept to retry;
 * guarded by jobs_s.lock. */
struct job_unsaved_s {
    job_rec_t rec; /* owns its result */
    job_unsaved_t *next;
};

struct jobs_s {
    const config_t *cfg;
    pool_t *pool;
    metrics_t *metrics;
    jobstore_t *store;
    cluster_t *cl; /* cluster mode; NULL: one server.  Constant. */
    pthread_mutex_t lock;
    job_run_t *runs; /* queued and running, oldest first */
    unsigned running;
    int draining;
    int64_t last_expire_ns;
    job_watch_t *watches;   /* cluster mode: followed remote jobs (under lock) */
    job_unsaved_t *unsaved; /* cluster mode: final records to store again (under lock) */
};

static void job_start_queued(jobs_t *js);

/* === Small helpers === */

static int64_t jobs_wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 128 random bits as 22 characters of base64url. */
static int jobs_new_id(char out[JOB_ID_LEN + 1]) {
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    unsigned char r[17] = {0};
    if (getrandom(r, 16, 0) != 16) return -1;
    for (int i = 0, bit = 0; i < JOB_ID_LEN; i++, bit += 6) {
        unsigned v = ((unsigned)r[bit / 8] << 8 | r[bit / 8 + 1]) >> (10 - bit % 8);
        out[i] = abc[v & 63];
    }
    out[JOB_ID_LEN] = '\0';
    return 0;
}

/* Whether s[0..len) is base64url. */
static int jobs_b64url(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

/* A job-list token a client sent: 22 to 64 base64url characters (128 bits
 * and more, if it is random: one the server made, or the client's own). */
static int jobs_token_valid(const char *t) {
    size_t len = strlen(t);
    return len >= JOB_TOKEN_MIN_LEN && len <= JOB_TOKEN_MAX_LEN && jobs_b64url(t, len);
}

static int jobs_id_valid(const char *id, size_t len) {
    return len == JOB_ID_LEN && jobs_b64url(id, len);
}

static void jobs_iso(char *out, size_t cap, int64_t ms) {
    time_t s = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&s, &tm);
    size_t n = strftime(out, cap, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, cap - n, ".%03dZ", (int)(ms % 1000));
}

static void jobs_problem(api_response_t *resp, int code, const char *detail) {
    api_problem_t p;
    api_problem_init(&p, code, "%s", detail);
    api_response_problem(resp, &p);
}

/* The answer to a store error other than "not found". */
static void jobs_store_problem(const jobs_t *js, api_response_t *resp, int rc, const char *doing) {
    if (rc == JOBSTORE_EDOWN) {
        char d[200];
        snprintf(d, sizeof d,
                 "the job store (Redis) cannot be reached while %s; synchronous requests "
                 "still work; retry later",
                 doing);
        jobs_problem(resp, API_EUNAVAILABLE, d);
        resp->retry_after = js->cl ? cluster_retry_after_s(js->cl) : 1;
    } else {
        char d[160];
        snprintf(d, sizeof d, "out of memory while %s", doing);
        jobs_problem(resp, API_ENOMEM, d);
        resp->retry_after = 1;
    }
}

/* === The job resource as JSON === */

static json_t *jobs_progress_json(const job_progress_t *pr) {
    json_t *o = json_pack("{s:I, s:I}", "nodes", (json_int_t)pr->nodes, "elapsed_ms",
                          (json_int_t)pr->elapsed_ms);
    int ok = o != NULL;
    if (ok && pr->unit[0] != '\0') {
        ok &= json_object_set_new(o, "unit", json_string(pr->unit)) == 0;
        ok &= json_object_set_new(o, "done", json_integer((json_int_t)pr->done)) == 0;
        ok &= json_object_set_new(o, "total", json_integer((json_int_t)pr->total)) == 0;
        if (pr->total > 0)
            ok &= json_object_set_new(o, "fraction",
                                      json_real((double)pr->done / (double)pr->total)) == 0;
        if (pr->eta_ms >= 0)
            ok &= json_object_set_new(o, "eta_ms", json_integer((json_int_t)pr->eta_ms)) == 0;
    }
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The record without its result, as the JSON object of the API. */
static json_t *jobs_rec_json(const job_rec_t *r) {
    char created[40], started[40], finished[40], self[64], events[80];
    jobs_iso(created, sizeof created, r->created_ms);
    jobs_iso(started, sizeof started, r->started_ms);
    jobs_iso(finished, sizeof finished, r->finished_ms);
    snprintf(self, sizeof self, "/v1/jobs/%s", r->id);
    snprintf(events, sizeof events, "/v1/jobs/%s/events", r->id);
    json_t *o = json_pack(
        "{s:s, s:s, s:{s:s, s:s}, s:s, s:o, s:o, s:o, s:{s:s, s:s}}", "id", r->id, "status",
        job_status_name(r->status), "request", "method", r->method, "path", r->path, "created",
        created, "started", r->started_ms ? json_string(started) : json_null(), "finished",
        r->finished_ms ? json_string(finished) : json_null(), "progress",
        jobs_progress_json(&r->progress), "links", "self", self, "events", events);
    if (o != NULL && r->cluster != NULL) { /* a split job's statistics (cluster mode) */
        json_t *c = json_loads(r->cluster, 0, NULL);
        if (c == NULL || json_object_set_new(o, "cluster", c) != 0) {
            json_decref(o);
            return NULL;
        }
    }
    if (o != NULL && r->result_status != 0) {
        char result[96];
        snprintf(result, sizeof result, "/v1/jobs/%s/result", r->id);
        if (json_object_set_new(o, "result_status", json_integer(r->result_status)) != 0 ||
            json_object_set_new(o, "result_type", json_string(r->result_type)) != 0 ||
            json_object_set_new(json_object_get(o, "links"), "result", json_string(result)) != 0) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

/* The whole job as text: the record, then "result" spliced in as the raw
 * JSON of the answer (no re-parse of a result that may be megabytes), or as
 * a JSON string when the answer is not JSON (CSV, text).  malloc'd. */
static char *jobs_job_text(const job_rec_t *r, size_t *len) {
    json_t *o = jobs_rec_json(r);
    size_t hl;
    char *head = o ? api_json_dumps(o, API_JSON_FLAGS, &hl) : NULL;
    json_decref(o);
    if (head == NULL) return NULL;
    if (r->result == NULL) {
        *len = hl;
        return head;
    }
    char *enc = NULL;
    const char *res = r->result;
    size_t rl = r->result_len;
    if (!api_media_is(r->result_type, "application/json") &&
        !api_media_is(r->result_type, "application/problem+json")) {
        json_t *str = json_stringn(r->result, r->result_len);
        enc = str ? json_dumps(str, JSON_ENCODE_ANY) : NULL;
        json_decref(str);
        if (enc == NULL) {
            free(head);
            return NULL;
        }
        res = enc;
        rl = strlen(enc);
    }
    char *text = malloc(hl + rl + 16);
    if (text != NULL) {
        memcpy(text, head, hl - 1); /* without the closing brace */
        size_t n = hl - 1;
        memcpy(text + n, ",\"result\":", 10);
        n += 10;
        memcpy(text + n, res, rl);
        n += rl;
        text[n++] = '}';
        text[n] = '\0';
        *len = n;
    }
    free(head);
    free(enc);
    return text;
}

/* The 202 of a new job: the job, with the job-list token that lists it
 * (given here only: whoever reads a job by its id does not learn it). */
static void jobs_answer_created(const job_rec_t *r, api_response_t *resp) {
    json_t *o = jobs_rec_json(r);
    api_response_destroy(resp);
    if (o == NULL || json_object_set_new(o, "list_token", json_string(r->owner)) != 0) {
        json_decref(o);
        jobs_problem(resp, API_ENOMEM, "out of memory while rendering the job");
        return;
    }
    api_response_json(resp, 202, o);
    snprintf(resp->location, sizeof resp->location, "/v1/jobs/%s", r->id);
    resp->flags |= API_RESP_ASYNC;
}

static void jobs_answer_job(const job_rec_t *r, int status, api_response_t *resp) {
    size_t len;
    char *text = jobs_job_text(r, &len);
    api_response_destroy(resp);
    if (text == NULL) {
        jobs_problem(resp, API_ENOMEM, "out of memory while rendering the job");
        return;
    }
    resp->status = status;
    resp->content_type = "application/json";
    resp->body = text;
    resp->len = len;
}

/* === Event streams === */

/* Appends bytes to a subscriber and wakes its reader.  Under js->lock. */
static void sub_push(job_sub_t *s, const char *bytes, size_t n) {
    if (s->closed || s->ended || s->oom) return;
    if (s->off > 0 && s->off == s->len) s->off = s->len = 0;
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 1024;
        while (cap < s->len + n)
            cap *= 2;
        char *b = realloc(s->buf, cap);
        if (b == NULL) {
            s->oom = 1; /* the reader ends the stream; the client may reconnect */
            n = 0;
        } else {
            s->buf = b;
            s->cap = cap;
        }
    }
    memcpy(s->buf + s->len, bytes, n);
    s->len += n;
    s->last_write_ns = search_now_ns();
    if (s->waiting) {
        s->waiting = 0;
        MHD_resume_connection(s->conn);
    }
}

static void sub_push_event(job_sub_t *s, const char *event, const char *data, size_t len) {
    char head[48];
    int hn = snprintf(head, sizeof head, "event: %s\ndata: ", event);
    sub_push(s, head, (size_t)hn);
    sub_push(s, data, len);
    sub_push(s, "\n\n", 2);
}

/* Ends a subscriber's stream (after what is queued).  Under js->lock. */
static void sub_end(job_sub_t *s) {
    s->ended = 1;
    if (s->waiting) {
        s->waiting = 0;
        MHD_resume_connection(s->conn);
    }
}

/* MHD thread: the next bytes of the stream, 0 and a suspended connection
 * when there are none yet, or the end. */
static long sub_read(void *cls, char *buf, size_t max) {
    job_sub_t *s = cls;
    long n;
    pthread_mutex_lock(&s->js->lock);
    if (s->len > s->off) {
        size_t k = s->len - s->off < max ? s->len - s->off : max;
        memcpy(buf, s->buf + s->off, k);
        s->off += k;
        n = (long)k;
    } else if (s->ended || s->oom) {
        n = -1;
    } else {
        s->waiting = 1;
        MHD_suspend_connection(s->conn);
        n = 0;
    }
    pthread_mutex_unlock(&s->js->lock);
    return n;
}

static void sub_destroy(job_sub_t *s) {
    free(s->buf);
    free(s);
}

/* MHD thread: the response is gone.  A subscriber still on a runner's list
 * is left for the loop thread to unlink. */
static void sub_free(void *cls) {
    job_sub_t *s = cls;
    jobs_t *js = s->js;
    pthread_mutex_lock(&js->lock);
    s->closed = 1;
    int attached = s->attached;
    pthread_mutex_unlock(&js->lock);
    if (!attached) sub_destroy(s);
}

/* Unlinks and frees the closed subscribers of a runner.  Under js->lock. */
static void run_reap_subs(job_run_t *r) {
    for (job_sub_t **pp = &r->subs; *pp != NULL;) {
        job_sub_t *s = *pp;
        if (s->closed) {
            *pp = s->next;
            sub_destroy(s);
        } else {
            pp = &s->next;
        }
    }
}

/* === Progress === */

/* The job's progress now: loop thread (it reads merge()'s fields). */
static void run_measure(job_run_t *r, job_progress_t *pr) {
    api_job_t *job = r->job;
    uint64_t live = atomic_load_explicit(&r->task.live_nodes, memory_order_relaxed);
    memset(pr, 0, sizeof *pr);
    pr->eta_ms = -1;
    pr->nodes = job->nodes > live ? job->nodes : live;
    pr->elapsed_ms = (search_now_ns() - r->start_ns) / 1000000;
    if (job->progress_total > 0) {
        pr->done = job->progress_done;
        pr->total = job->progress_total;
    } else if (job->nitems > 1) {
        pr->done = r->task.merged;
        pr->total = job->nitems;
    } else {
        return; /* one search: nodes and time only */
    }
    snprintf(pr->unit, sizeof pr->unit, "%s", job->progress_unit ? job->progress_unit : "items");
    /* never backwards: a split job may add items after its first merge */
    if (r->sent.total > 0 &&
        (double)pr->done * (double)r->sent.total < (double)r->sent.done * (double)pr->total) {
        pr->done = r->sent.done;
        pr->total = r->sent.total;
    }
    double f = pr->total ? (double)pr->done / (double)pr->total : 0;
    if (f >= JOBS_ETA_FROM && f < 1)
        pr->eta_ms = (int64_t)((double)pr->elapsed_ms * (1 - f) / f);
    else if (f >= 1)
        pr->eta_ms = 0;
}

static void run_publish(job_run_t *r, const char *event) {
    json_t *o = jobs_rec_json(&r->rec);
    char *text = o ? api_json_dumps(o, API_JSON_FLAGS, NULL) : NULL;
    json_decref(o);
    if (text == NULL) return; /* out of memory: the next tick tries again */
    for (job_sub_t *s = r->subs; s != NULL; s = s->next)
        sub_push_event(s, event, text, strlen(text));
    free(text);
}

/* === Starting and ending === */

static void job_done(pool_task_t *task);
static void job_progress(pool_task_t *task);

static void run_free(job_run_t *r) {
    if (r->job != NULL) r->job->ops->free(r->job);
    api_response_destroy(&r->resp);
    free(r->out);
    free(r);
}

/* Removes r from js->runs.  Under js->lock. */
static void run_unlink(jobs_t *js, job_run_t *r) {
    for (job_run_t **pp = &js->runs; *pp != NULL; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            return;
        }
}

/* Records the final state, tells the subscribers and forgets the runner:
 * `result` (may be NULL) moves into the store.  Under js->lock. */
static void run_end(jobs_t *js, job_run_t *r, job_status_t st, int status, const char *ctype,
                    char *result, size_t len) {
    metrics_t *m = js->metrics;
    r->rec.status = st;
    r->rec.finished_ms = jobs_wall_ms();
    r->rec.result_status = status;
    snprintf(r->rec.result_type, sizeof r->rec.result_type, "%s", ctype ? ctype : "");
    job_rec_t put = r->rec;
    put.result = result;
    put.result_len = len;
    /* the done event carries the whole job, result included */
    size_t tl;
    char *text = r->subs != NULL ? jobs_job_text(&put, &tl) : NULL;
    if (js->store->ops->put(js->store, &put) == JOBSTORE_EDOWN && js->cl != NULL) {
        job_unsaved_t *u = malloc(sizeof *u); /* Redis is down: store it when it is back */
        if (u != NULL) {
            u->rec = put;
            u->next = js->unsaved;
            js->unsaved = u;
            put.result = NULL;
        }
    }
    job_rec_clear(&put);
    atomic_fetch_add_explicit(&m->async_ended[st], 1, memory_order_relaxed);
    log_json("info", "job ended",
             json_pack("{s:s, s:s, s:s, s:i}", "job", r->rec.id, "status", job_status_name(st),
                       "path", r->rec.path, "result_status", status));
    if (r->rec.started_ms != 0)
        metrics_observe_job(m, (double)(r->rec.finished_ms - r->rec.started_ms) / 1000.0);
    for (job_sub_t *s = r->subs, *next; s != NULL; s = next) {
        next = s->next;
        if (text != NULL)
            sub_push_event(s, "done", text, tl);
        else
            s->oom = 1; /* the client reads the job instead */
        s->attached = 0;
        sub_end(s);
        if (s->closed) sub_destroy(s); /* MHD let go already */
    }
    free(text);
    r->subs = NULL;
    run_unlink(js, r);
}

/* Admits and submits a queued runner.  Under js->lock. */
static void job_start(jobs_t *js, job_run_t *r) {
    r->rec.status = JOB_RUNNING;
    r->rec.started_ms = jobs_wall_ms();
    r->start_ns = search_now_ns();
    r->task.job = r->job;
    r->task.done = job_done;
    r->task.progress = r->job->ops->progressive ? job_progress : NULL;
    r->task.owner = r;
    r->task.watch_fd = -1;
    r->task.background = 1;
    js->store->ops->put(js->store, &r->rec);
    run_publish(r, "progress");
    js->running++;
    pool_admit_background(js->pool);
    if (pool_submit(js->pool, &r->task) != 0) { /* the admission was released */
        js->running--;
        run_end(js, r, JOB_FAILED, 503, API_PROBLEM_CONTENT_TYPE, NULL, 0);
        run_free(r);
    }
}

static void job_start_queued(jobs_t *js) {
    for (job_run_t *r = js->runs, *next; r != NULL && js->running < js->cfg->threads; r = next) {
        next = r->next;
        if (r->rec.status == JOB_QUEUED) job_start(js, r);
    }
}

/* The most bytes one job's result may keep: --max-job-result, and never
 * more than all kept results together may take (--max-job-memory). */
static size_t jobs_result_limit(const jobs_t *js) {
    return js->cfg->max_job_result < js->cfg->max_job_memory ? js->cfg->max_job_result
                                                             : js->cfg->max_job_memory;
}

/* Appends a streamed answer to the runner's result, up to the limit.
 * Loop thread. */
static void run_drain(job_run_t *r, api_response_t *resp) {
    size_t limit = jobs_result_limit(r->js);
    for (;;) {
        if (r->out_len + 65536 > r->out_cap) {
            size_t cap = r->out_cap ? r->out_cap * 2 : 65536;
            char *b = realloc(r->out, cap + 1);
            if (b == NULL) {
                r->too_large = -1; /* out of memory */
                return;
            }
            r->out = b;
            r->out_cap = cap;
        }
        long n = resp->stream(resp->stream_cls, r->out + r->out_len, r->out_cap - r->out_len);
        if (n <= 0) return; /* -1: the end; 0: nothing more yet */
        r->out_len += (size_t)n;
        if (r->out_len > limit) {
            r->too_large = 1;
            return;
        }
    }
}

/* Loop thread, after each merge of a progressive job: take what is ready. */
static void job_progress(pool_task_t *task) {
    job_run_t *r = task->owner;
    if (!r->too_large) run_drain(r, &r->resp);
}

/* Loop thread: the task has ended. */
static void job_done(pool_task_t *task) {
    job_run_t *r = task->owner;
    jobs_t *js = r->js;
    api_job_t *job = r->job;
    api_response_t resp = {0};
    char *body;
    size_t len;
    int status;
    const char *ctype;

    if (job->ops->progressive) {
        job->ops->finish(job, task->rc);
        if (!r->too_large) run_drain(r, &r->resp);
        status = r->resp.status;
        ctype = r->resp.content_type;
        body = r->out;
        len = r->out_len;
        r->out = NULL;
    } else {
        guard_render(job, &resp);
        status = resp.status;
        ctype = resp.content_type;
        if (resp.stream != NULL) { /* a huge board: take it in */
            run_drain(r, &resp);
            body = r->out;
            len = r->out_len;
            r->out = NULL;
        } else {
            body = resp.body;
            len = resp.len;
            resp.body = NULL;
            if (len > jobs_result_limit(js)) r->too_large = 1;
        }
    }
    if (r->too_large) {
        char d[160];
        api_response_t p = {0};
        free(body);
        snprintf(d, sizeof d,
                 r->too_large < 0 ? "out of memory while keeping the result"
                                  : "the result is larger than a job may keep (%zu bytes: "
                                    "--max-job-result, --max-job-memory); ask for less "
                                    "(output=summary) or run it synchronously",
                 jobs_result_limit(js));
        jobs_problem(&p, r->too_large < 0 ? API_ENOMEM : API_ETOOLARGE, d);
        status = p.status;
        ctype = p.content_type;
        body = p.body;
        len = p.len;
        p.body = NULL;
    }
    metrics_add_nodes(js->metrics, job->ops->puzzle, job->nodes);

    pthread_mutex_lock(&js->lock); /* cancel_requested is written under it by DELETE */
    job_status_t st = JOB_DONE;
    if (task->rc == SEARCH_CANCELLED || r->cancel_requested)
        st = JOB_CANCELLED;
    else if (task->rc == SEARCH_TIMEOUT)
        st = JOB_TIMEOUT;
    else if (status >= 400 || r->too_large)
        st = JOB_FAILED;
    run_measure(r, &r->rec.progress);
    run_end(js, r, st, status, ctype, body, len);
    js->running--;
    job_start_queued(js);
    pthread_mutex_unlock(&js->lock);
    api_response_destroy(&resp);
    run_free(r);
}

/* The runner of a job on this replica, or NULL.  Under js->lock. */
static job_run_t *jobs_find_run(jobs_t *js, const char *id) {
    for (job_run_t *r = js->runs; r != NULL; r = r->next)
        if (strcmp(r->rec.id, id) == 0) return r;
    return NULL;
}

/* Cancels a runner (DELETE here, or a cancel from another replica): a
 * queued one ends at once (and is freed), a running one has its searches
 * stopped and ends in job_done().  Under js->lock. */
static void run_cancel(jobs_t *js, job_run_t *r) {
    r->cancel_requested = 1;
    if (r->rec.status == JOB_QUEUED) {
        run_end(js, r, JOB_CANCELLED, 0, NULL, NULL, 0);
        run_free(r);
    } else {
        atomic_store(&r->task.cancel, 1); /* the searches see it at their next poll */
    }
}

/* === Watches: jobs that run elsewhere (cluster mode) === */

static job_watch_t *jobs_find_watch(jobs_t *js, const char *id) {
    for (job_watch_t *w = js->watches; w != NULL; w = w->next)
        if (strcmp(w->id, id) == 0) return w;
    return NULL;
}

/* Ends every stream of a watch and frees it.  Under js->lock. */
static void watch_end(jobs_t *js, job_watch_t *w) {
    for (job_watch_t **pp = &js->watches; *pp != NULL; pp = &(*pp)->next)
        if (*pp == w) {
            *pp = w->next;
            break;
        }
    for (job_sub_t *s = w->subs, *next; s != NULL; s = next) {
        next = s->next;
        s->attached = 0;
        sub_end(s);
        if (s->closed) sub_destroy(s);
    }
    free(w);
}

/* Loop thread, from the cluster: job `id` changed ('p', 'd'), another
 * replica asks to cancel it ('c'), or anything may have ('r'). */
static void jobs_on_event(void *arg, char kind, const char *id) {
    jobs_t *js = arg;
    pthread_mutex_lock(&js->lock);
    for (job_watch_t *w = js->watches; w != NULL; w = w->next)
        if (kind == 'r' || strcmp(w->id, id) == 0) w->dirty = 1;
    if (kind == 'c') {
        job_run_t *r = jobs_find_run(js, id);
        if (r != NULL && !r->cancel_requested) run_cancel(js, r);
    }
    pthread_mutex_unlock(&js->lock);
}

#define JOBS_WATCH_BATCH 64 /* watches read per tick at most */

/* Reads the records of the watches that are due (outside the lock: a
 * round trip to Redis each) and publishes what changed. */
static void jobs_watch_tick(jobs_t *js, int64_t now) {
    char ids[JOBS_WATCH_BATCH][JOB_ID_LEN + 1];
    size_t n = 0;
    pthread_mutex_lock(&js->lock);
    for (job_watch_t *w = js->watches, *next; w != NULL; w = next) {
        next = w->next;
        for (job_sub_t **pp = &w->subs; *pp != NULL;) { /* streams MHD let go */
            job_sub_t *s = *pp;
            if (s->closed) {
                *pp = s->next;
                sub_destroy(s);
            } else {
                if (now - s->last_write_ns >= JOBS_KEEPALIVE_MS * 1000000LL)
                    sub_push(s, ": keep-alive\n\n", 14);
                pp = &s->next;
            }
        }
        if (w->subs == NULL) {
            watch_end(js, w);
            continue;
        }
        if ((w->dirty || now - w->last_read_ns >= JOBS_WATCH_MS * 1000000LL) &&
            n < JOBS_WATCH_BATCH) {
            w->dirty = 0;
            w->last_read_ns = now;
            memcpy(ids[n++], w->id, JOB_ID_LEN + 1);
        }
    }
    pthread_mutex_unlock(&js->lock);
    for (size_t i = 0; i < n; i++) {
        job_rec_t rec;
        memset(&rec, 0, sizeof rec);
        int rc = js->store->ops->get(js->store, ids[i], 0, &rec);
        if (rc == 0 && JOB_ENDED(rec.status)) { /* again, with its result */
            job_rec_clear(&rec);
            rc = js->store->ops->get(js->store, ids[i], 1, &rec);
        }
        if (rc == JOBSTORE_EDOWN || rc == JOBSTORE_ENOMEM) continue; /* next time */
        pthread_mutex_lock(&js->lock);
        job_watch_t *w = jobs_find_watch(js, ids[i]);
        if (w != NULL && rc == JOBSTORE_ENOTFOUND) {
            /* deleted, expired, or lost with the store's data (a Redis that
             * restarted without persistence): nothing more will come, and
             * the stream says so before it ends */
            char gone[160];
            int len = snprintf(gone, sizeof gone,
                               "{\"id\":\"%s\",\"status\":\"gone\",\"detail\":\"the job's "
                               "record is gone: deleted, expired, or lost by the job store\"}",
                               w->id);
            for (job_sub_t *s = w->subs; s != NULL; s = s->next)
                sub_push_event(s, "gone", gone, (size_t)len);
            watch_end(js, w);
        } else if (w != NULL && JOB_ENDED(rec.status)) {
            size_t len;
            char *text = jobs_job_text(&rec, &len);
            for (job_sub_t *s = w->subs; s != NULL; s = s->next)
                if (text != NULL)
                    sub_push_event(s, "done", text, len);
                else
                    s->oom = 1;
            free(text);
            watch_end(js, w);
        } else if (w != NULL &&
                   (rec.status != w->sent.status || rec.progress.done != w->sent.progress.done ||
                    rec.progress.total != w->sent.progress.total ||
                    rec.progress.nodes != w->sent.progress.nodes)) {
            json_t *o = jobs_rec_json(&rec);
            char *text = o ? api_json_dumps(o, API_JSON_FLAGS, NULL) : NULL;
            json_decref(o);
            for (job_sub_t *s = w->subs; s != NULL && text != NULL; s = s->next)
                sub_push_event(s, "progress", text, strlen(text));
            if (text != NULL) {
                w->sent = rec;
                w->sent.result = NULL;
                w->sent.cluster = NULL;
            }
            free(text);
        }
        pthread_mutex_unlock(&js->lock);
        job_rec_clear(&rec);
    }
}

/* Stores the final records Redis could not take before.  Under js->lock. */
static void jobs_retry_unsaved(jobs_t *js) {
    for (job_unsaved_t **pp = &js->unsaved; *pp != NULL;) {
        job_unsaved_t *u = *pp;
        int rc = js->store->ops->put(js->store, &u->rec);
        if (rc == JOBSTORE_EDOWN) break; /* still down */
        *pp = u->next;
        job_rec_clear(&u->rec);
        free(u);
    }
}

/* === The tick (loop thread) === */

static void jobs_tick(void *arg) {
    jobs_t *js = arg;
    int64_t now = search_now_ns();
    if (js->cl != NULL) cluster_tick(js->cl); /* first, unlocked: it may call jobs_on_event */
    pthread_mutex_lock(&js->lock);
    for (job_run_t *r = js->runs, *next; r != NULL; r = next) {
        next = r->next;
        run_reap_subs(r);
        int due = js->cl != NULL && now - r->last_put_ns >= JOBS_PUT_MS * 1000000LL;
        int changed = 0;
        if (r->rec.status == JOB_RUNNING && now - r->last_event_ns >= JOBS_EVENT_MS * 1000000LL) {
            job_progress_t pr;
            run_measure(r, &pr);
            if (memcmp(&pr, &r->sent, sizeof pr) != 0 &&
                (pr.done != r->sent.done || pr.nodes != r->sent.nodes ||
                 pr.total != r->sent.total)) {
                r->rec.progress = pr;
                r->sent = pr;
                r->last_event_ns = now;
                changed = 1;
            }
        }
        if (changed || due) {
            /* in cluster mode the answer also says whether another replica
             * asked to cancel the job (the 'c' message may have been lost) */
            r->last_put_ns = now;
            int rc = js->store->ops->put(js->store, &r->rec);
            if (changed) run_publish(r, "progress");
            if (rc == JOBSTORE_CANCEL_REQUESTED && !r->cancel_requested) {
                run_cancel(js, r); /* may free r */
                continue;
            }
        }
        for (job_sub_t *s = r->subs; s != NULL; s = s->next)
            if (now - s->last_write_ns >= JOBS_KEEPALIVE_MS * 1000000LL)
                sub_push(s, ": keep-alive\n\n", 14);
    }
    if (js->unsaved != NULL) jobs_retry_unsaved(js);
    int expire = now - js->last_expire_ns >= JOBS_EXPIRE_MS * 1000000LL;
    if (expire) js->last_expire_ns = now;
    pthread_mutex_unlock(&js->lock);
    if (expire) { /* the store locks for itself */
        size_t by[JOB_NSTATUS];
        js->store->ops->expire(js->store, jobs_wall_ms() - js->cfg->job_ttl_s * 1000);
        js->store->ops->count(js->store, by);
        for (int k = 0; k < JOB_NSTATUS; k++)
            atomic_store_explicit(&js->metrics->async_jobs[k], (int_fast64_t)by[k],
                                  memory_order_relaxed);
    }
    if (js->cl != NULL) jobs_watch_tick(js, now);
}

/* === Public === */

int jobs_new(jobs_t **out, const config_t *cfg, pool_t *pool, metrics_t *metrics, jobstore_t *store,
             cluster_t *cluster) {
    jobs_t *js = calloc(1, sizeof *js);
    if (js == NULL) return -1;
    js->cfg = cfg;
    js->pool = pool;
    js->metrics = metrics;
    js->store = store;
    js->cl = cluster;
    pthread_mutex_init(&js->lock, NULL);
    if (cluster != NULL) cluster_on_event(cluster, jobs_on_event, js);
    pool_on_tick(pool, jobs_tick, js);
    *out = js;
    return 0;
}

/* The answer to a job the store would not take. */
static void jobs_refused(const jobs_t *js, int draining, int rc, api_response_t *resp) {
    if (draining)
        jobs_problem(resp, API_EDRAINING, "the server is shutting down; retry elsewhere");
    else if (rc == JOBSTORE_EFULL)
        jobs_problem(resp, API_EBUSY,
                     "the job store is full of jobs that have not ended (--max-jobs); "
                     "retry later");
    else if (rc == JOBSTORE_EDOWN)
        jobs_store_problem(js, resp, rc, "recording the job");
    else
        jobs_problem(resp, API_ENOMEM, "could not record the job");
    if (resp->retry_after == 0) resp->retry_after = 1;
}

/* Cluster mode: a job split into items goes to every replica. */
static void jobs_create_split(jobs_t *js, api_job_t *job, const api_request_t *req,
                              const char *owner, api_response_t *resp) {
    job_rec_t rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.owner, sizeof rec.owner, "%s", owner);
    if (jobs_new_id(rec.id) != 0) {
        job->ops->free(job);
        jobs_problem(resp, API_ENOMEM, "could not create the job");
        return;
    }
    rec.status = JOB_QUEUED;
    rec.created_ms = jobs_wall_ms();
    snprintf(rec.method, sizeof rec.method, "%s", req->method);
    snprintf(rec.path, sizeof rec.path, "%s", req->path);
    pthread_mutex_lock(&js->lock);
    int draining = js->draining;
    pthread_mutex_unlock(&js->lock);
    int rc = draining ? 0 : cluster_create(js->cl, &rec, req, job);
    job->ops->free(job); /* every replica rebuilds it from the request */
    if (draining || rc != 0) {
        jobs_refused(js, draining, rc, resp);
        return;
    }
    atomic_fetch_add_explicit(&js->metrics->async_created, 1, memory_order_relaxed);
    jobs_answer_created(&rec, resp);
}

void jobs_create(jobs_t *js, api_job_t *job, const api_request_t *req, const char *token,
                 api_response_t *resp) {
    char owner[JOB_TOKEN_MAX_LEN + 1];
    if (token != NULL && !jobs_token_valid(token)) {
        api_problem_t p;
        job->ops->free(job);
        api_problem_init(&p, API_EINVALID, "the Job-List-Token header is not a job-list token");
        api_problem_add(&p, "header", "Job-List-Token",
                        "22 to 64 characters of A-Z a-z 0-9 - _ (send back the list_token of an "
                        "earlier job, or leave it out for a new one)");
        api_response_problem(resp, &p);
        return;
    }
    if (token != NULL)
        snprintf(owner, sizeof owner, "%s", token);
    else if (jobs_new_id(owner) != 0) { /* a new list: 128 random bits, like an id */
        job->ops->free(job);
        jobs_problem(resp, API_ENOMEM, "could not create the job");
        return;
    }
    if (js->cl != NULL && cluster_can_split(job)) {
        jobs_create_split(js, job, req, owner, resp);
        return;
    }
    job_run_t *r = calloc(1, sizeof *r);
    int rc;
    if (r == NULL || jobs_new_id(r->rec.id) != 0) {
        free(r);
        job->ops->free(job);
        jobs_problem(resp, API_ENOMEM, "could not create the job");
        return;
    }
    r->js = js;
    r->job = job;
    snprintf(r->rec.owner, sizeof r->rec.owner, "%s", owner);
    r->rec.status = JOB_QUEUED;
    r->rec.created_ms = jobs_wall_ms();
    r->rec.progress.eta_ms = -1;
    snprintf(r->rec.method, sizeof r->rec.method, "%s", req->method);
    snprintf(r->rec.path, sizeof r->rec.path, "%s", req->path);
    if (job->ops->progressive) { /* its answer is a stream, set up before it runs */
        guard_render(job, &r->resp);
        if (r->resp.stream == NULL) { /* refused: the problem is the answer */
            *resp = r->resp;
            memset(&r->resp, 0, sizeof r->resp);
            run_free(r);
            return;
        }
    }

    pthread_mutex_lock(&js->lock);
    int draining = js->draining;
    rc = draining ? 0 : js->store->ops->add(js->store, &r->rec);
    job_rec_t snap = r->rec; /* once the lock is dropped, r may start and even end */
    if (!draining && rc == 0) {
        job_run_t **pp = &js->runs;
        while (*pp != NULL)
            pp = &(*pp)->next;
        *pp = r;
        r->last_put_ns = search_now_ns();
        atomic_fetch_add_explicit(&js->metrics->async_created, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&js->metrics->async_jobs[JOB_QUEUED], 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&js->lock);
    if (draining || rc != 0) {
        run_free(r);
        jobs_refused(js, draining, rc, resp);
        return;
    }
    jobs_answer_created(&snap, resp);
    pthread_mutex_lock(&js->lock);
    job_start_queued(js);
    pthread_mutex_unlock(&js->lock);
}

/* GET /v1/jobs: the jobs made with the client's job-list token, newest
 * first.  Job ids are capabilities (whoever holds one may read or cancel
 * that job), so there is no listing of everybody's jobs: a list is scoped
 * by a token that only its jobs' creator was given. */
static void jobs_list(jobs_t *js, const char *token, const api_param_t *params, size_t nparams,
                      api_response_t *resp) {
    static const char *const allowed[] = {"limit", "cursor", NULL};
    api_request_t q = {0};
    api_problem_t p;
    long long limit = 20, before = 0;
    q.params = params;
    q.nparams = nparams;
    api_problem_init(&p, API_EINVALID, "invalid query parameters");
    int bad = api_params_check(&q, allowed, &p) != 0;
    if (token == NULL || !jobs_token_valid(token)) {
        if (!bad) api_problem_init(&p, API_EINVALID, "a job list needs its job-list token");
        api_problem_add(&p, "header", "Job-List-Token",
                        token == NULL ? "required: the list_token your job creations returned"
                                      : "22 to 64 characters of A-Z a-z 0-9 - _");
        bad = 1;
    }
    bad |= api_param_int(&q, "limit", 0, 1, JOBS_LIST_MAX, 20, &limit, &p) != 0;
    const char *cursor = api_param(&q, "cursor");
    if (cursor != NULL) {
        char *end;
        before = strtoll(cursor, &end, 10);
        if (*cursor == '\0' || *end != '\0' || before < 1) {
            api_problem_add(&p, "query", "cursor", "not a cursor this server gave");
            bad = 1;
        }
    }
    if (bad) {
        api_response_problem(resp, &p);
        return;
    }
    job_rec_t *recs = calloc((size_t)limit, sizeof *recs);
    json_t *arr = json_array(), *root = NULL;
    int more = 0, ok = recs != NULL && arr != NULL;
    size_t n =
        ok ? js->store->ops->list(js->store, token, (uint64_t)before, recs, (size_t)limit, &more)
           : 0;
    for (size_t i = 0; i < n && ok; i++)
        ok = json_array_append_new(arr, jobs_rec_json(&recs[i])) == 0;
    if (ok)
        root = json_pack("{s:o}", "jobs", arr);
    else
        json_decref(arr);
    if (root != NULL && more && n > 0) {
        char next[32];
        snprintf(next, sizeof next, "%llu", (unsigned long long)recs[n - 1].seq);
        ok = json_object_set_new(root, "next_cursor", json_string(next)) == 0;
    }
    free(recs);
    if (!ok || root == NULL) {
        json_decref(root);
        jobs_problem(resp, API_ENOMEM, "out of memory while listing the jobs");
        return;
    }
    api_response_json(resp, 200, root);
}

static void jobs_delete(jobs_t *js, const char *id, api_response_t *resp) {
    pthread_mutex_lock(&js->lock);
    job_run_t *r = jobs_find_run(js, id);
    if (r != NULL) {
        job_rec_t snap;
        if (r->rec.status == JOB_QUEUED) { /* ends now: answer from a copy */
            r->cancel_requested = 1;
            run_end(js, r, JOB_CANCELLED, 0, NULL, NULL, 0);
            snap = r->rec;
            run_free(r);
        } else {
            run_cancel(js, r);
            snap = r->rec;
        }
        pthread_mutex_unlock(&js->lock);
        jobs_answer_job(&snap, 202, resp);
        return;
    }
    pthread_mutex_unlock(&js->lock);
    job_rec_t rec;
    memset(&rec, 0, sizeof rec); /* a store fills it only on success */
    int rc = js->store->ops->get(js->store, id, 0, &rec);
    if (rc == 0 && JOB_ENDED(rec.status)) {
        rc = js->store->ops->remove(js->store, id);
        if (rc == 0) {
            job_rec_clear(&rec);
            api_response_destroy(resp);
            resp->status = 204;
            resp->content_type = NULL;
            return;
        }
    } else if (rc == 0 && js->cl != NULL) { /* it runs elsewhere: ask the cluster */
        job_rec_clear(&rec);
        rc = cluster_cancel(js->cl, id);
        if (rc >= 0) rc = js->store->ops->get(js->store, id, 0, &rec);
        if (rc == 0) {
            jobs_answer_job(&rec, 202, resp);
            job_rec_clear(&rec);
            return;
        }
    } else if (rc == 0) {
        job_rec_clear(&rec);
        jobs_problem(resp, API_EBUSY, "the job runs on another replica; retry there");
        return;
    }
    job_rec_clear(&rec);
    if (rc == JOBSTORE_ENOTFOUND)
        jobs_problem(resp, API_ENOTFOUND, "no such job (unknown, deleted or expired)");
    else
        jobs_store_problem(js, resp, rc, "deleting the job");
}

static void jobs_events(jobs_t *js, struct MHD_Connection *conn, const char *id,
                        api_response_t *resp) {
    job_sub_t *s = calloc(1, sizeof *s);
    job_rec_t rec;
    if (s == NULL) {
        jobs_problem(resp, API_ENOMEM, "out of memory for the event stream");
        return;
    }
    s->js = js;
    s->conn = conn;
    s->last_write_ns = search_now_ns();
    pthread_mutex_lock(&js->lock);
    job_run_t *r = jobs_find_run(js, id);
    if (r != NULL) {
        s->attached = 1;
        s->next = r->subs;
        r->subs = s;
        /* the state now, so a client needs nothing else to begin */
        job_sub_t *keep = r->subs->next;
        r->subs->next = NULL;
        run_publish(r, "progress");
        r->subs->next = keep;
        pthread_mutex_unlock(&js->lock);
    } else {
        pthread_mutex_unlock(&js->lock);
        int rc = js->store->ops->get(js->store, id, 1, &rec);
        if (rc != 0) {
            sub_destroy(s);
            if (rc == JOBSTORE_ENOTFOUND)
                jobs_problem(resp, API_ENOTFOUND, "no such job (unknown, deleted or expired)");
            else
                jobs_store_problem(js, resp, rc, "reading the job");
            return;
        }
        size_t len;
        char *text = jobs_job_text(&rec, &len);
        if (text == NULL) {
            job_rec_clear(&rec);
            sub_destroy(s);
            jobs_problem(resp, API_ENOMEM, "out of memory for the event stream");
            return;
        }
        pthread_mutex_lock(&js->lock);
        sub_push_event(s, JOB_ENDED(rec.status) ? "done" : "progress", text, len);
        free(text);
        job_watch_t *w = NULL;
        if (!JOB_ENDED(rec.status) && js->cl != NULL) { /* it runs elsewhere: follow it */
            w = jobs_find_watch(js, id);
            if (w == NULL && (w = calloc(1, sizeof *w)) != NULL) {
                memcpy(w->id, id, JOB_ID_LEN + 1);
                w->sent = rec;
                w->sent.result = NULL;
                w->sent.cluster = NULL;
                w->last_read_ns = search_now_ns();
                w->next = js->watches;
                js->watches = w;
            }
        }
        if (w != NULL) {
            s->attached = 1;
            s->next = w->subs;
            w->subs = s;
            w->dirty = 1; /* read again soon: what changed since the read above */
        } else {
            s->ended = 1; /* ended (or one server): one event, then the end */
        }
        pthread_mutex_unlock(&js->lock);
        job_rec_clear(&rec);
    }
    api_response_destroy(resp);
    resp->status = 200;
    resp->content_type = "text/event-stream";
    resp->stream = sub_read;
    resp->stream_free = sub_free;
    resp->stream_cls = s;
    resp->flags |= API_RESP_EVENTS;
}

void jobs_answer(jobs_t *js, struct MHD_Connection *conn, const char *method, const char *path_tail,
                 const api_param_t *params, size_t nparams, api_response_t *resp) {
    char id[JOB_ID_LEN + 1];
    const char *rest;
    size_t idlen;
    job_rec_t rec;

    if (path_tail[0] == '\0') {
        jobs_list(js, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Job-List-Token"), params,
                  nparams, resp);
        return;
    }
    rest = strchr(path_tail + 1, '/');
    idlen = rest ? (size_t)(rest - path_tail - 1) : strlen(path_tail + 1);
    if (!jobs_id_valid(path_tail + 1, idlen)) {
        jobs_problem(resp, API_ENOTFOUND, "no such job (unknown, deleted or expired)");
        return;
    }
    memcpy(id, path_tail + 1, idlen);
    id[idlen] = '\0';
    if (strcmp(method, "DELETE") == 0) {
        jobs_delete(js, id, resp);
        return;
    }
    if (rest != NULL && strcmp(rest, "/events") == 0) {
        jobs_events(js, conn, id, resp);
        return;
    }
    /* The answer copies the kept result (twice while the job's text is
     * built): charged to the work budget first, so that many reads of big
     * results at once are refused rather than held. */
    size_t charge = 0;
    memset(&rec, 0, sizeof rec);
    int rc = js->store->ops->get(js->store, id, 0, &rec);
    if (rc == 0 && rec.result_size > 0) {
        charge = 2 * rec.result_size;
        if (budget_take(pool_budget(js->pool), charge) != 0) {
            jobs_problem(resp, API_ENOMEM,
                         "the server's memory for answers in flight (--max-work-memory) is "
                         "full; retry later");
            resp->retry_after = 1;
            job_rec_clear(&rec);
            return;
        }
    }
    if (rc == 0) job_rec_clear(&rec);
    if (rc == 0) rc = js->store->ops->get(js->store, id, 1, &rec);
    if (rc != 0) {
        budget_give(pool_budget(js->pool), charge);
        if (rc == JOBSTORE_ENOTFOUND)
            jobs_problem(resp, API_ENOTFOUND, "no such job (unknown, deleted or expired)");
        else
            jobs_store_problem(js, resp, rc, "reading the job");
        return;
    }
    if (rest != NULL) { /* /result: the answer itself, as the synchronous call gave it */
        if (rec.result == NULL) {
            jobs_problem(resp, API_ENOTFOUND, "the job has no result yet; it has not ended");
        } else {
            api_response_destroy(resp);
            resp->status = rec.result_status;
            snprintf(resp->ctype_buf, sizeof resp->ctype_buf, "%s", rec.result_type);
            resp->content_type = rec.result_type[0] ? resp->ctype_buf : NULL;
            resp->body = rec.result;
            resp->len = rec.result_len;
            rec.result = NULL;
        }
        job_rec_clear(&rec);
        resp->charged = charge; /* given back when the answer is freed */
        return;
    }
    jobs_answer_job(&rec, 200, resp);
    job_rec_clear(&rec);
    resp->charged = charge;
}

int jobs_store_up(jobs_t *js) { return js->cl == NULL ? -1 : cluster_up(js->cl); }

void jobs_drain(jobs_t *js) {
    if (js->cl != NULL) cluster_drain(js->cl); /* take no more items */
    pthread_mutex_lock(&js->lock);
    js->draining = 1;
    for (job_run_t *r = js->runs, *next; r != NULL; r = next) {
        next = r->next;
        if (r->rec.status != JOB_QUEUED) continue;
        r->cancel_requested = 1;
        run_end(js, r, JOB_CANCELLED, 0, NULL, NULL, 0);
        run_free(r);
    }
    pthread_mutex_unlock(&js->lock);
}

void jobs_free(jobs_t *js) {
    if (js == NULL) return;
    for (job_run_t *r = js->runs, *next; r != NULL; r = next) { /* none, normally */
        next = r->next;
        for (job_sub_t *s = r->subs, *sn; s != NULL; s = sn) {
            sn = s->next;
            sub_destroy(s);
        }
        run_free(r);
    }
    for (job_watch_t *w = js->watches, *next; w != NULL; w = next) { /* MHD is stopped */
        next = w->next;
        for (job_sub_t *s = w->subs, *sn; s != NULL; s = sn) {
            sn = s->next;
            sub_destroy(s);
        }
        free(w);
    }
    for (job_unsaved_t *u = js->unsaved, *next; u != NULL; u = next) {
        next = u->next; /* Redis never came back: the record keeps its last state */
        job_rec_clear(&u->rec);
        free(u);
    }
    js->store->ops->free(js->store);
    pthread_mutex_destroy(&js->lock);
    free(js);
}
