/* rconn.c -- see rconn.h for why the calls block and how the breaker works.
 *
 *   thread A ----> rconn_argv() ---> registry[A].c  (its own redisContext)
 *   thread B ----> rconn_argv() ---> registry[B].c
 *                       |
 *                       +-- I/O error: free that context, open the breaker
 *                           (up = 0, gen++, next probe in `backoff` ms)
 *   loop thread -> rconn_probe(): when the backoff has passed, connect,
 *                  AUTH, SELECT, SCRIPT LOAD, PING; success closes the
 *                  breaker, failure doubles the backoff (at most 5 s)
 *
 * A thread's connection is reopened when its generation is older than the
 * breaker's, so after an outage no thread keeps a socket from before it.
 *
 * Locking: `lock` guards the registry array and the breaker fields; it is a
 * leaf, and never held across network I/O (a thread looks up its own entry
 * under the lock, then uses the connection alone: an entry is only ever
 * touched by the thread it belongs to, or by rconn_free()). */
#include "server/jobs/rconn.h"

#include <ctype.h>
#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "server/config.h"
#include "server/jobs/rscripts.h"
#include "server/log.h"

/* Threads that may call: every libmicrohttpd thread (--http-threads) for job
 * requests, the pool's loop thread, and a few more (main, tests).  A thread
 * past this gets no connection: its calls fail as if Redis were down. */
#define RCONN_MAX_THREADS    (CONFIG_MAX_HTTP_THREADS + 8)
#define RCONN_BACKOFF_MIN_MS 100
#define RCONN_BACKOFF_MAX_MS 5000

typedef struct rconn_tl_s {
    pthread_t tid;
    redisContext *c;              /* NULL: not connected */
    unsigned gen;                 /* the breaker's generation when it connected */
    char sha[RSCRIPT_COUNT_][41]; /* the scripts as loaded on this connection */
} rconn_tl_t;

struct rconn_s {
    rconn_url_t url;
    metrics_t *metrics;
    atomic_int up; /* the breaker is closed; also written under lock */
    pthread_mutex_t lock;
    /* Under lock: */
    rconn_tl_t tl[RCONN_MAX_THREADS];
    size_t ntl;
    unsigned gen;
    int backoff_ms;
    int64_t next_probe_ns;
    int probing; /* one probe at a time */
};

static int64_t rconn_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* === Connections === */

static void rconn_set_up(rconn_t *rc, int up) {
    atomic_store(&rc->up, up);
    if (rc->metrics != NULL) atomic_store(&rc->metrics->redis_up, up);
}

/* Opens the breaker after a failure seen on this thread.  `why` has no
 * secrets (hiredis' errstr or a reply's error text). */
static void rconn_mark_down(rconn_t *rc, const char *why) {
    int was_up;
    pthread_mutex_lock(&rc->lock);
    was_up = atomic_load(&rc->up);
    if (was_up) {
        rconn_set_up(rc, 0);
        rc->gen++;
        rc->backoff_ms = RCONN_BACKOFF_MIN_MS;
        rc->next_probe_ns = rconn_now_ns() + (int64_t)rc->backoff_ms * 1000000;
    }
    pthread_mutex_unlock(&rc->lock);
    if (rc->metrics != NULL)
        atomic_fetch_add_explicit(&rc->metrics->redis_failures, 1, memory_order_relaxed);
    if (was_up) {
        char where[640];
        rconn_url_redacted(&rc->url, where, sizeof where);
        log_json("warn", "redis unreachable: jobs are unavailable until it answers again",
                 json_pack("{s:s, s:s}", "redis", where, "error", why ? why : "unknown"));
    }
}

/* This thread's registry entry (created on first use), or NULL when the
 * registry is full.  The returned entry is this thread's alone. */
static rconn_tl_t *rconn_self(rconn_t *rc, unsigned *gen) {
    pthread_t me = pthread_self();
    rconn_tl_t *t = NULL;
    pthread_mutex_lock(&rc->lock);
    for (size_t i = 0; i < rc->ntl && t == NULL; i++)
        if (pthread_equal(rc->tl[i].tid, me)) t = &rc->tl[i];
    if (t == NULL && rc->ntl < RCONN_MAX_THREADS) {
        t = &rc->tl[rc->ntl++];
        memset(t, 0, sizeof *t);
        t->tid = me;
    }
    *gen = rc->gen;
    pthread_mutex_unlock(&rc->lock);
    return t;
}

static void rconn_close(rconn_tl_t *t) {
    if (t->c != NULL) redisFree(t->c);
    t->c = NULL;
}

/* Runs a setup command; 0 when its reply is not an error. */
static int rconn_setup_cmd(redisContext *c, int argc, const char **argv, char *why, size_t cap) {
    redisReply *r = redisCommandArgv(c, argc, argv, NULL);
    int ok = r != NULL && r->type != REDIS_REPLY_ERROR;
    if (r == NULL)
        snprintf(why, cap, "%s", c->errstr);
    else if (!ok) /* AUTH errors never echo the password */
        snprintf(why, cap, "%s: %.*s", argv[0], (int)(r->len < 200 ? r->len : 200), r->str);
    if (r != NULL) freeReplyObject(r);
    return ok ? 0 : -1;
}

/* Connects t (closing what it had), authenticates, selects the database and
 * loads the scripts.  0, or -1 with the reason in why. */
static int rconn_connect(rconn_t *rc, rconn_tl_t *t, char *why, size_t cap) {
    struct timeval ct = {0, RCONN_CONNECT_MS * 1000}, io = {0, RCONN_IO_MS * 1000};
    const rconn_url_t *u = &rc->url;
    char db[16];
    rconn_close(t);
    t->c = redisConnectWithTimeout(u->host, (int)u->port, ct);
    if (t->c == NULL || t->c->err) {
        snprintf(why, cap, "%s", t->c ? t->c->errstr : "out of memory");
        goto fail;
    }
    if (redisSetTimeout(t->c, io) != REDIS_OK) {
        snprintf(why, cap, "cannot set the socket timeout");
        goto fail;
    }
    redisEnableKeepAlive(t->c);
    if (u->password[0] != '\0') {
        const char *a3[] = {"AUTH", u->user, u->password};
        const char *a2[] = {"AUTH", u->password};
        if (u->user[0] ? rconn_setup_cmd(t->c, 3, a3, why, cap)
                       : rconn_setup_cmd(t->c, 2, a2, why, cap))
            goto fail;
    }
    if (u->db != 0) {
        const char *a[] = {"SELECT", db};
        snprintf(db, sizeof db, "%u", u->db);
        if (rconn_setup_cmd(t->c, 2, a, why, cap)) goto fail;
    }
    for (int s = 0; s < RSCRIPT_COUNT_; s++) {
        redisReply *r = redisCommand(t->c, "SCRIPT LOAD %s", rscripts_src[s]);
        if (r == NULL || r->type != REDIS_REPLY_STRING || r->len != 40) {
            snprintf(why, cap, "SCRIPT LOAD: %s",
                     r == NULL ? t->c->errstr
                     : r->str  ? r->str
                               : "unexpected reply");
            if (r) freeReplyObject(r);
            goto fail;
        }
        memcpy(t->sha[s], r->str, 40);
        t->sha[s][40] = '\0';
        freeReplyObject(r);
    }
    return 0;
fail:
    rconn_close(t);
    return -1;
}

/* This thread's live connection, or NULL (down). */
static rconn_tl_t *rconn_get(rconn_t *rc) {
    unsigned gen;
    char why[256];
    if (!atomic_load(&rc->up)) return NULL;
    rconn_tl_t *t = rconn_self(rc, &gen);
    if (t == NULL) return NULL; /* more threads than slots: a bug, not an outage */
    if (t->c != NULL && t->gen == gen) return t;
    if (rconn_connect(rc, t, why, sizeof why) != 0) {
        rconn_mark_down(rc, why);
        return NULL;
    }
    t->gen = gen;
    return t;
}

/* After a NULL reply: the connection is broken. */
static void rconn_failed(rconn_t *rc, rconn_tl_t *t) {
    char why[160];
    snprintf(why, sizeof why, "%s", t->c && t->c->errstr[0] ? t->c->errstr : "no reply");
    rconn_close(t);
    rconn_mark_down(rc, why);
}

/* === Public === */

int rconn_new(rconn_t **out, const rconn_url_t *url, metrics_t *metrics) {
    rconn_t *rc = calloc(1, sizeof *rc);
    if (rc == NULL) return -1;
    rc->url = *url;
    rc->metrics = metrics;
    pthread_mutex_init(&rc->lock, NULL);
    rc->backoff_ms = RCONN_BACKOFF_MIN_MS;
    rconn_set_up(rc, 1); /* optimistic: the first call connects, or opens the breaker */
    *out = rc;
    return 0;
}

void rconn_free(rconn_t *rc) {
    if (rc == NULL) return;
    for (size_t i = 0; i < rc->ntl; i++)
        rconn_close(&rc->tl[i]);
    pthread_mutex_destroy(&rc->lock);
    memset(rc->url.password, 0, sizeof rc->url.password);
    free(rc);
}

struct redisReply *rconn_argv(rconn_t *rc, int argc, const char **argv, const size_t *lens) {
    rconn_tl_t *t = rconn_get(rc);
    if (t == NULL) return NULL;
    redisReply *r = redisCommandArgv(t->c, argc, argv, lens);
    if (r == NULL) rconn_failed(rc, t);
    return r;
}

struct redisReply *rconn_cmd(rconn_t *rc, const char *fmt, ...) {
    va_list ap;
    rconn_tl_t *t = rconn_get(rc);
    if (t == NULL) return NULL;
    va_start(ap, fmt);
    redisReply *r = redisvCommand(t->c, fmt, ap);
    va_end(ap);
    if (r == NULL) rconn_failed(rc, t);
    return r;
}

struct redisReply *rconn_script(rconn_t *rc, int script, int argc, const char **argv,
                                const size_t *lens) {
    const char *avs[72], **av = avs;
    size_t als[72], *al = als;
    rconn_tl_t *t;
    redisReply *r = NULL;
    if (script < 0 || script >= RSCRIPT_COUNT_ || argc < 0) return NULL;
    if (argc + 3 > 72) { /* a commit of many items */
        av = malloc(((size_t)argc + 3) * sizeof *av);
        al = malloc(((size_t)argc + 3) * sizeof *al);
        if (av == NULL || al == NULL) goto out;
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        if ((t = rconn_get(rc)) == NULL) goto out;
        av[0] = "EVALSHA";
        al[0] = 7;
        av[1] = t->sha[script];
        al[1] = 40;
        av[2] = "0";
        al[2] = 1;
        for (int i = 0; i < argc; i++) {
            av[3 + i] = argv[i];
            al[3 + i] = lens ? lens[i] : strlen(argv[i]);
        }
        r = redisCommandArgv(t->c, argc + 3, av, al);
        if (r == NULL) {
            rconn_failed(rc, t);
            goto out;
        }
        if (r->type == REDIS_REPLY_ERROR && strncmp(r->str, "NOSCRIPT", 8) == 0 && attempt == 0) {
            /* Redis lost its script cache (a restart): load them again */
            char why[256];
            freeReplyObject(r);
            r = NULL;
            if (rconn_connect(rc, t, why, sizeof why) != 0) {
                rconn_mark_down(rc, why);
                goto out;
            }
            continue;
        }
        break;
    }
out:
    if (av != avs) free(av);
    if (al != als) free(al);
    return r;
}

int rconn_pipeline(rconn_t *rc, size_t n, const rconn_cmd_t *cmds, struct redisReply **replies) {
    rconn_tl_t *t = rconn_get(rc);
    size_t i;
    for (i = 0; i < n; i++)
        replies[i] = NULL;
    if (t == NULL) return -1;
    for (i = 0; i < n; i++)
        if (redisAppendCommandArgv(t->c, cmds[i].argc, cmds[i].argv, cmds[i].lens) != REDIS_OK)
            goto fail;
    for (i = 0; i < n; i++) {
        void *r = NULL;
        if (redisGetReply(t->c, &r) != REDIS_OK || r == NULL) goto fail;
        replies[i] = r;
    }
    return 0;
fail:
    for (i = 0; i < n; i++) {
        if (replies[i] != NULL) freeReplyObject(replies[i]);
        replies[i] = NULL;
    }
    rconn_failed(rc, t);
    return -1;
}

int rconn_up(rconn_t *rc) { return atomic_load(&rc->up); }

unsigned rconn_retry_after_s(rconn_t *rc) {
    int64_t wait;
    pthread_mutex_lock(&rc->lock);
    wait = rc->next_probe_ns - rconn_now_ns();
    pthread_mutex_unlock(&rc->lock);
    return wait <= 1000000000 ? 1 : (unsigned)((wait + 999999999) / 1000000000);
}

void rconn_probe(rconn_t *rc) {
    unsigned gen;
    char why[256];
    int64_t now = rconn_now_ns();
    if (atomic_load(&rc->up)) return;
    pthread_mutex_lock(&rc->lock);
    int go = !rc->probing && now >= rc->next_probe_ns;
    if (go) rc->probing = 1;
    pthread_mutex_unlock(&rc->lock);
    if (!go) return;
    rconn_tl_t *t = rconn_self(rc, &gen);
    int ok = t != NULL && rconn_connect(rc, t, why, sizeof why) == 0;
    if (ok) {
        redisReply *r = redisCommand(t->c, "PING");
        ok = r != NULL && r->type == REDIS_REPLY_STATUS;
        if (r == NULL) snprintf(why, sizeof why, "%s", t->c->errstr);
        if (r) freeReplyObject(r);
        if (!ok) rconn_close(t);
    }
    pthread_mutex_lock(&rc->lock);
    rc->probing = 0;
    if (ok) {
        rc->backoff_ms = RCONN_BACKOFF_MIN_MS;
        t->gen = rc->gen;
        rconn_set_up(rc, 1);
    } else {
        rc->backoff_ms =
            rc->backoff_ms * 2 > RCONN_BACKOFF_MAX_MS ? RCONN_BACKOFF_MAX_MS : rc->backoff_ms * 2;
        rc->next_probe_ns = rconn_now_ns() + (int64_t)rc->backoff_ms * 1000000;
    }
    pthread_mutex_unlock(&rc->lock);
    if (ok) {
        char where[640];
        rconn_url_redacted(&rc->url, where, sizeof where);
        log_json("info", "redis reachable again", json_pack("{s:s}", "redis", where));
    }
}

long long rconn_int(const struct redisReply *r, long long def) {
    if (r == NULL) return def;
    if (r->type == REDIS_REPLY_INTEGER) return r->integer;
    if ((r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS) && r->str != NULL) {
        char *end;
        long long v = strtoll(r->str, &end, 10);
        return end != r->str ? v : def;
    }
    return def;
}

int rconn_is_error(const struct redisReply *r) { return r == NULL || r->type == REDIS_REPLY_ERROR; }

void rconn_reply_free(struct redisReply *r) {
    if (r != NULL) freeReplyObject(r);
}
