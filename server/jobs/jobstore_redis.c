/* jobstore_redis.c -- the job store of cluster mode: records in Redis, so
 * that every replica answers for every job.
 *
 * A record is a hash (server/jobs/rscripts.c has the key layout); its result a
 * string beside it, so that reading a job without its result never moves
 * the result.  Changes that touch several keys (a new record and the
 * indexes, an end and the result, the counts by status) run as Lua scripts,
 * whole or not at all.  Reads are plain commands, pipelined.
 *
 * The same rules as the embedded store: at most --max-jobs records (across
 * the cluster), the oldest ended one evicted past it, 503 when none has
 * ended; an ended record lives --job-ttl-s.  Here the TTLs are Redis'
 * own (PEXPIRE on every key of a record), and the indexes (sorted sets) are
 * cleaned by expire(), which every replica calls each second, and by add().
 * A record that has not ended also has a TTL (the job's deadline plus
 * --job-ttl-s), so nothing outlives a cluster that vanished.
 *
 * Failures: a call that cannot reach Redis answers JOBSTORE_EDOWN (see
 * rconn.h for the timeouts and the breaker); list() and count() answer
 * nothing then.  Every operation copies, as the interface says; the
 * connection is the calling thread's own, so no lock is needed here. */
#include "server/jobs/jobstore_redis.h"

#include <hiredis/hiredis.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "api/request.h"
#include "server/config.h"
#include "server/jobs/rconn.h"
#include "server/jobs/rscripts.h"

#define JOBS_LIST_BATCH 20 /* records read per round trip by list() */

typedef struct redis_store_s {
    jobstore_t base;
    rconn_t *rc;
    const config_t *cfg;
    char prefix[64];
    char replica[128];
} redis_store_t;

static int64_t jsr_wall_ms(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* === Arguments === */

void jsr_args_init(jsr_args_t *a) { a->n = 0; }

void jsr_args_str(jsr_args_t *a, const char *s, size_t len) {
    if (a->n == JSR_MAX_ARGS) return; /* callers stay well below; see the asserts in tests */
    a->v[a->n] = s;
    a->l[a->n] = len;
    a->n++;
}

void jsr_args_cstr(jsr_args_t *a, const char *s) { jsr_args_str(a, s, strlen(s)); }

void jsr_args_int(jsr_args_t *a, long long x) {
    if (a->n == JSR_MAX_ARGS) return;
    int k = snprintf(a->num[a->n], sizeof a->num[a->n], "%lld", x);
    jsr_args_str(a, a->num[a->n], (size_t)k);
}

void jsr_args_record(jsr_args_t *a, const job_rec_t *r) {
    jsr_args_cstr(a, "st");
    jsr_args_int(a, r->status);
    jsr_args_cstr(a, "m");
    jsr_args_cstr(a, r->method);
    jsr_args_cstr(a, "path");
    jsr_args_cstr(a, r->path);
    jsr_args_cstr(a, "cr");
    jsr_args_int(a, r->created_ms);
    jsr_args_cstr(a, "sa");
    jsr_args_int(a, r->started_ms);
    jsr_args_cstr(a, "fi");
    jsr_args_int(a, r->finished_ms);
    jsr_args_cstr(a, "unit");
    jsr_args_cstr(a, r->progress.unit);
    jsr_args_cstr(a, "done");
    jsr_args_int(a, (long long)r->progress.done);
    jsr_args_cstr(a, "total");
    jsr_args_int(a, (long long)r->progress.total);
    jsr_args_cstr(a, "nodes");
    jsr_args_int(a, (long long)r->progress.nodes);
    jsr_args_cstr(a, "el");
    jsr_args_int(a, r->progress.elapsed_ms);
    jsr_args_cstr(a, "eta");
    jsr_args_int(a, r->progress.eta_ms);
    jsr_args_cstr(a, "rs");
    jsr_args_int(a, r->result_status);
    jsr_args_cstr(a, "rt");
    jsr_args_cstr(a, r->result_type);
    if (r->owner[0] != '\0') {
        jsr_args_cstr(a, "lt");
        jsr_args_cstr(a, r->owner);
    }
}

/* === Reading a record === */

static long long jsr_ll(const redisReply *v) {
    char buf[32];
    size_t n = v->len < sizeof buf - 1 ? v->len : sizeof buf - 1;
    memcpy(buf, v->str, n);
    buf[n] = '\0';
    return strtoll(buf, NULL, 10);
}

static void jsr_copy(char *dst, size_t cap, const redisReply *v) {
    size_t n = v->len < cap - 1 ? v->len : cap - 1;
    memcpy(dst, v->str, n);
    dst[n] = '\0';
}

static int jsr_is(const redisReply *k, const char *name) {
    return k->len == strlen(name) && memcmp(k->str, name, k->len) == 0;
}

int jsr_parse_record(const struct redisReply *hash, const char *id, int with_cluster,
                     job_rec_t *out) {
    json_t *items = NULL;
    long long reclaimed = 0, dups = 0, nitems = 0;
    int dist = 0;
    memset(out, 0, sizeof *out);
    if (hash == NULL || hash->type != REDIS_REPLY_ARRAY || hash->elements < 2)
        return JOBSTORE_ENOTFOUND;
    snprintf(out->id, sizeof out->id, "%s", id);
    out->progress.eta_ms = -1;
    for (size_t i = 0; i + 1 < hash->elements; i += 2) {
        const redisReply *k = hash->element[i], *v = hash->element[i + 1];
        if (k->type != REDIS_REPLY_STRING || v->type != REDIS_REPLY_STRING) continue;
        if (jsr_is(k, "seq"))
            out->seq = (uint64_t)jsr_ll(v);
        else if (jsr_is(k, "st"))
            out->status = (job_status_t)jsr_ll(v);
        else if (jsr_is(k, "m"))
            jsr_copy(out->method, sizeof out->method, v);
        else if (jsr_is(k, "path"))
            jsr_copy(out->path, sizeof out->path, v);
        else if (jsr_is(k, "cr"))
            out->created_ms = jsr_ll(v);
        else if (jsr_is(k, "sa"))
            out->started_ms = jsr_ll(v);
        else if (jsr_is(k, "fi"))
            out->finished_ms = jsr_ll(v);
        else if (jsr_is(k, "unit"))
            jsr_copy(out->progress.unit, sizeof out->progress.unit, v);
        else if (jsr_is(k, "done"))
            out->progress.done = (uint64_t)jsr_ll(v);
        else if (jsr_is(k, "total"))
            out->progress.total = (uint64_t)jsr_ll(v);
        else if (jsr_is(k, "nodes"))
            out->progress.nodes = (uint64_t)jsr_ll(v);
        else if (jsr_is(k, "el"))
            out->progress.elapsed_ms = jsr_ll(v);
        else if (jsr_is(k, "eta"))
            out->progress.eta_ms = jsr_ll(v);
        else if (jsr_is(k, "rs"))
            out->result_status = (int)jsr_ll(v);
        else if (jsr_is(k, "rt"))
            jsr_copy(out->result_type, sizeof out->result_type, v);
        else if (jsr_is(k, "lt"))
            jsr_copy(out->owner, sizeof out->owner, v);
        else if (jsr_is(k, "dist"))
            dist = jsr_ll(v) == 1;
        else if (jsr_is(k, "rec"))
            reclaimed = jsr_ll(v);
        else if (jsr_is(k, "dup"))
            dups = jsr_ll(v);
        else if (jsr_is(k, "ni"))
            nitems = jsr_ll(v);
        else if (with_cluster && k->len > 2 && memcmp(k->str, "r:", 2) == 0) {
            char name[160];
            size_t n = k->len - 2 < sizeof name - 1 ? k->len - 2 : sizeof name - 1;
            memcpy(name, k->str + 2, n);
            name[n] = '\0';
            if (items == NULL) items = json_object();
            if (items == NULL || json_object_set_new(items, name, json_integer(jsr_ll(v))) != 0) {
                json_decref(items);
                return JOBSTORE_ENOMEM;
            }
        }
    }
    if ((unsigned)out->status >= JOB_NSTATUS) out->status = JOB_FAILED;
    if (with_cluster && dist) {
        json_t *o = json_pack("{s:I, s:o, s:I, s:I}", "items", (json_int_t)nitems,
                              "items_by_replica", items ? items : json_object(), "reclaimed",
                              (json_int_t)reclaimed, "duplicates", (json_int_t)dups);
        out->cluster = o ? api_json_dumps(o, API_JSON_FLAGS, NULL) : NULL;
        json_decref(o);
        if (out->cluster == NULL) return JOBSTORE_ENOMEM;
    } else {
        json_decref(items);
    }
    return 0;
}

/* === The interface === */

static void jsr_key(const redis_store_t *m, char *out, size_t cap, const char *id,
                    const char *tail) {
    snprintf(out, cap, "%sjob:%s%s", m->prefix, id, tail);
}

static int redis_add(jobstore_t *s, job_rec_t *rec) {
    redis_store_t *m = (redis_store_t *)s;
    jsr_args_t a;
    int64_t now = jsr_wall_ms();
    jsr_args_init(&a);
    jsr_args_cstr(&a, m->prefix);
    jsr_args_cstr(&a, rec->id);
    jsr_args_int(&a, m->cfg->max_jobs);
    jsr_args_int(&a, now - m->cfg->job_ttl_s * 1000);
    jsr_args_int(&a, m->cfg->job_timeout_ms + m->cfg->job_ttl_s * 1000);
    jsr_args_int(&a, 0); /* no work items: it runs on this replica */
    jsr_args_int(&a, 0);
    jsr_args_int(&a, 0);
    jsr_args_record(&a, rec);
    jsr_args_cstr(&a, "own");
    jsr_args_cstr(&a, m->replica);
    redisReply *r = rconn_script(m->rc, RSCRIPT_ADD, a.n, a.v, a.l);
    if (r == NULL) return JOBSTORE_EDOWN;
    long long seq = rconn_int(r, -3);
    int err = rconn_is_error(r);
    rconn_reply_free(r);
    if (err || seq == -3) return JOBSTORE_EDOWN;
    if (seq == -2) return JOBSTORE_EFULL;
    rec->seq = (uint64_t)seq;
    return 0;
}

static int redis_put(jobstore_t *s, job_rec_t *rec) {
    redis_store_t *m = (redis_store_t *)s;
    jsr_args_t a;
    redisReply *r;
    jsr_args_init(&a);
    jsr_args_cstr(&a, m->prefix);
    jsr_args_cstr(&a, rec->id);
    if (JOB_ENDED(rec->status)) {
        jsr_args_int(&a, m->cfg->job_ttl_s * 1000);
        jsr_args_str(&a, rec->result ? rec->result : "", rec->result ? rec->result_len : 0);
        jsr_args_cstr(&a, rec->result ? "1" : "0");
        jsr_args_record(&a, rec);
        r = rconn_script(m->rc, RSCRIPT_END, a.n, a.v, a.l);
    } else {
        jsr_args_record(&a, rec);
        r = rconn_script(m->rc, RSCRIPT_PUT, a.n, a.v, a.l);
    }
    if (r == NULL) return JOBSTORE_EDOWN;
    long long v = rconn_int(r, -9);
    int err = rconn_is_error(r);
    rconn_reply_free(r);
    if (err || v == -9) return JOBSTORE_EDOWN;
    if (v == -1) return JOBSTORE_ENOTFOUND;
    free(rec->result); /* moved into the store */
    rec->result = NULL;
    rec->result_len = 0;
    return !JOB_ENDED(rec->status) && v == 1 ? JOBSTORE_CANCEL_REQUESTED : 0;
}

static int redis_get(jobstore_t *s, const char *id, int want_result, job_rec_t *out) {
    redis_store_t *m = (redis_store_t *)s;
    char key[160], rkey[200];
    redisReply *rep[2];
    jsr_key(m, key, sizeof key, id, "");
    jsr_key(m, rkey, sizeof rkey, id, ":result");
    const char *a0[] = {"HGETALL", key}, *a1[] = {"GET", rkey};
    rconn_cmd_t cmds[2] = {{2, a0, NULL}, {2, a1, NULL}};
    memset(out, 0, sizeof *out);
    if (rconn_pipeline(m->rc, want_result ? 2 : 1, cmds, rep) != 0) return JOBSTORE_EDOWN;
    int rc = rconn_is_error(rep[0]) ? JOBSTORE_EDOWN : jsr_parse_record(rep[0], id, 1, out);
    if (rc == 0 && want_result && rep[1]->type == REDIS_REPLY_STRING) {
        out->result = malloc(rep[1]->len + 1);
        if (out->result == NULL) {
            rc = JOBSTORE_ENOMEM;
        } else {
            memcpy(out->result, rep[1]->str, rep[1]->len);
            out->result[rep[1]->len] = '\0';
            out->result_len = rep[1]->len;
        }
    }
    rconn_reply_free(rep[0]);
    if (want_result) rconn_reply_free(rep[1]);
    if (rc != 0) job_rec_clear(out);
    return rc;
}

static int redis_remove(jobstore_t *s, const char *id) {
    redis_store_t *m = (redis_store_t *)s;
    const char *a[] = {m->prefix, id};
    redisReply *r = rconn_script(m->rc, RSCRIPT_REMOVE, 2, a, NULL);
    if (r == NULL) return JOBSTORE_EDOWN;
    long long v = rconn_int(r, -9);
    rconn_reply_free(r);
    return v == 1 ? 0 : v == -1 ? JOBSTORE_ENOTFOUND : JOBSTORE_EDOWN;
}

static size_t redis_list(jobstore_t *s, const char *owner, uint64_t before, job_rec_t *out,
                         size_t max, int *more) {
    redis_store_t *m = (redis_store_t *)s;
    char key[160], top[32], lim[24], keys[JOBS_LIST_BATCH][160];
    size_t k = 0;
    *more = 0;
    snprintf(key, sizeof key, "%slist:%s", m->prefix, owner);
    if (before == 0)
        snprintf(top, sizeof top, "+inf");
    else
        snprintf(top, sizeof top, "(%llu", (unsigned long long)before);
    snprintf(lim, sizeof lim, "%zu", max + 1);
    const char *a[] = {"ZREVRANGEBYSCORE", key, top, "-inf", "LIMIT", "0", lim};
    redisReply *ids = rconn_argv(m->rc, 7, a, NULL);
    if (ids == NULL || ids->type != REDIS_REPLY_ARRAY) {
        rconn_reply_free(ids);
        return 0;
    }
    /* the records, JOBS_LIST_BATCH per round trip */
    for (size_t i = 0; i < ids->elements && i < max; i += JOBS_LIST_BATCH) {
        size_t n = ids->elements - i < JOBS_LIST_BATCH ? ids->elements - i : JOBS_LIST_BATCH;
        const char *argv[JOBS_LIST_BATCH][2];
        rconn_cmd_t cmds[JOBS_LIST_BATCH];
        redisReply *rep[JOBS_LIST_BATCH];
        if (i + n > max) n = max - i;
        for (size_t j = 0; j < n; j++) {
            char id[JOB_ID_LEN + 1];
            jsr_copy(id, sizeof id, ids->element[i + j]);
            jsr_key(m, keys[j], sizeof keys[j], id, "");
            argv[j][0] = "HGETALL";
            argv[j][1] = keys[j];
            cmds[j] = (rconn_cmd_t){2, argv[j], NULL};
        }
        if (rconn_pipeline(m->rc, n, cmds, rep) != 0) break;
        for (size_t j = 0; j < n; j++) {
            char id[JOB_ID_LEN + 1];
            jsr_copy(id, sizeof id, ids->element[i + j]);
            if (jsr_parse_record(rep[j], id, 0, &out[k]) == 0) k++; /* an expired one: skipped */
            rconn_reply_free(rep[j]);
        }
    }
    *more = ids->elements > max;
    rconn_reply_free(ids);
    return k;
}

static size_t redis_expire(jobstore_t *s, int64_t cutoff_ms) {
    redis_store_t *m = (redis_store_t *)s;
    char cut[24];
    snprintf(cut, sizeof cut, "%lld", (long long)cutoff_ms);
    const char *a[] = {m->prefix, cut};
    redisReply *r = rconn_script(m->rc, RSCRIPT_EXPIRE, 2, a, NULL);
    long long v = rconn_int(r, 0);
    rconn_reply_free(r);
    return v > 0 ? (size_t)v : 0;
}

static void redis_count(jobstore_t *s, size_t by_status[JOB_NSTATUS]) {
    redis_store_t *m = (redis_store_t *)s;
    char key[96];
    memset(by_status, 0, JOB_NSTATUS * sizeof *by_status);
    snprintf(key, sizeof key, "%scounts", m->prefix);
    const char *a[] = {"HGETALL", key};
    redisReply *r = rconn_argv(m->rc, 2, a, NULL);
    for (size_t i = 0; r != NULL && r->type == REDIS_REPLY_ARRAY && i + 1 < r->elements; i += 2) {
        long long st = jsr_ll(r->element[i]), n = jsr_ll(r->element[i + 1]);
        if (st >= 0 && st < JOB_NSTATUS && n > 0) by_status[st] = (size_t)n;
    }
    rconn_reply_free(r);
}

static void redis_free(jobstore_t *s) { free(s); }

static const jobstore_ops_t redis_ops = {redis_add,  redis_put,    redis_get,   redis_remove,
                                         redis_list, redis_expire, redis_count, redis_free};

int jobstore_redis_new(jobstore_t **out, struct rconn_s *rc, const struct config_s *cfg,
                       const char *replica) {
    redis_store_t *m = calloc(1, sizeof *m);
    if (m == NULL) return JOBSTORE_ENOMEM;
    m->base.ops = &redis_ops;
    m->rc = rc;
    m->cfg = cfg;
    snprintf(m->prefix, sizeof m->prefix, "%s", cfg->redis_prefix);
    snprintf(m->replica, sizeof m->replica, "%s", replica);
    *out = &m->base;
    return 0;
}

const char *jobstore_redis_prefix(jobstore_t *s) { return ((redis_store_t *)s)->prefix; }
