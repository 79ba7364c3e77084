/* main.c -- puzzled: parse settings, start the pool and the HTTP daemon, and
 * shut down gracefully.
 *
 * Signals: SIGTERM and SIGINT are blocked in every thread (the mask is set
 * before any thread starts and inherited) and taken synchronously here with
 * sigtimedwait, so no async-signal-safety puzzles arise.  On the first one:
 * drain (readyz 503, stop accepting), wait up to --grace-ms for in-flight
 * requests, then cancel what is left (their answers say "cancelled" rather
 * than vanish) and wait up to CANCEL_WAIT_MS for those answers.  When no
 * work runs any more: stop everything in order and exit 0; connections
 * still open then (a body that never finished arriving, a client that does
 * not read its answer, a hang-up libmicrohttpd has not noticed yet) hold
 * no work and are closed by libmicrohttpd's stop, which is logged with
 * their count.  When work still runs (a solver that does not see its
 * cancel flag): log why and _exit(1) at once.  Returning from main there
 * would never end: exit() runs libuv's destructor, which joins every worker
 * thread, busy ones included, and stopping libmicrohttpd would free
 * requests the workers still use.  Answers already handed to the kernel stay
 * written; the logs are write(2)s, never buffered.  So the process is gone
 * at most --grace-ms + CANCEL_WAIT_MS after the signal.  A second signal
 * during either wait skips the rest of it. */
#include <jansson.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/budget.h"
#include "server/config.h"
#include "server/guard.h"
#include "server/healthcheck.h"
#include "server/http/http.h"
#include "server/http/router.h"
#include "server/jobs/cluster.h"
#include "server/jobs/jobs.h"
#include "server/jobs/jobstore.h"
#include "server/jobs/rconn.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/pool.h"

#define CANCEL_WAIT_MS 1000 /* past --grace-ms, for the cancelled answers to be written */

/* glibc adapts its mmap threshold to the largest block freed (up to 32
 * MiB) and its trim threshold to twice that: after one 16 MiB batch body,
 * every block under 16 MiB came from the arenas, and a thread's arena kept
 * up to 32 MiB of freed heap that malloc_trim() cannot release (it does not
 * trim a thread arena's top).  Fixed thresholds keep large blocks in their
 * own mappings (returned when freed) and arenas trimmed past 1 MiB, so an
 * idle server returns to its idle size (tests/abuse/abuse.sh checks it). */
static void heap_fixed_thresholds(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
#endif
}

/* Waits until nothing is in flight, for at most `ms`; returns 1 when idle.
 * Returns early (0) if another signal in `set` arrives. */
static int wait_idle(http_server_t *http, pool_t *pool, int64_t ms, const sigset_t *set) {
    int64_t end = search_now_ns() + ms * 1000000;
    struct timespec tick = {0, 10 * 1000000};
    while (http_server_active(http) > 0 || pool_inflight(pool) > 0) {
        if (search_now_ns() >= end) return 0;
        if (sigtimedwait(set, NULL, &tick) > 0) return 0;
    }
    return 1;
}

/* Ends the process when work is still running past the grace period and
 * the cancel wait: nothing can be stopped in order any more (see the file
 * head), so say why and _exit. */
static void exit_abandoning(http_server_t *http, pool_t *pool, int64_t waited_ms) {
    long jobs = pool_inflight(pool), reqs = http != NULL ? http_server_active(http) : 0;
    log_json("error", "exiting without stopping what still runs",
             json_pack("{s:s, s:I, s:I, s:I, s:i}", "reason",
                       "in-flight work did not end within the grace period and the wait for "
                       "its cancel; answers already written are kept",
                       "jobs_running", (json_int_t)jobs, "requests_unanswered", (json_int_t)reqs,
                       "waited_ms", (json_int_t)waited_ms, "exit_status", 1));
    fflush(NULL);
    _exit(1);
}

int main(int argc, char **argv) {
    config_t cfg;
    metrics_t *metrics = NULL;
    pool_t *pool = NULL;
    http_server_t *http = NULL;
    jobs_t *jobs = NULL;
    jobstore_t *store = NULL;
    rconn_t *redis = NULL;
    cluster_t *cluster = NULL;
    const char *paths[METRICS_MAX_PATHS];
    budget_t work, results; /* outlive everything that charges them */
    sigset_t set;
    int sig, rc;

    rc = config_parse(&cfg, argc, argv, stdout, stderr);
    if (rc != 0) return rc > 0 ? 0 : 2;
    if (cfg.healthcheck) return healthcheck_run(&cfg);

    guard_install(); /* before any thread uses jansson */
    heap_fixed_thresholds();
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    char fdnote[160];
    config_resolve_connections(&cfg, fdnote, sizeof fdnote);

    metrics = calloc(1, sizeof *metrics);
    if (metrics == NULL) return 1;
    size_t npaths = router_npaths();
    for (size_t i = 0; i < npaths && i < METRICS_MAX_PATHS; i++)
        paths[i] = router_path(i);
    metrics_init(metrics, paths, npaths);
    budget_init(&work, "work", cfg.max_work_memory);
    budget_init(&results, "results", cfg.max_job_memory);
    metrics->budgets[metrics->nbudgets++] = &work;
    metrics->budgets[metrics->nbudgets++] = &results;

    if (pool_new(&pool, &cfg, metrics, &work) != 0) {
        log_json("error", "cannot start the worker pool", NULL);
        rc = 1;
        goto out;
    }
    if (cfg.redis[0] != '\0') { /* cluster mode */
        rconn_url_t url;
        char why[160], where[640], host[64] = "replica", replica[128];
        rconn_url_parse(cfg.redis, &url, why, sizeof why); /* config_parse checked it */
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = '\0';
        snprintf(replica, sizeof replica, "%s-%ld", host, (long)getpid());
        if (rconn_new(&redis, &url, metrics) != 0 ||
            jobstore_redis_new(&store, redis, &cfg, replica) != 0 ||
            cluster_new(&cluster, &cfg, pool, metrics, redis, replica) != 0) {
            log_json("error", "cannot set up cluster mode", NULL);
            if (store != NULL) store->ops->free(store);
            store = NULL;
            rc = 1;
            goto out;
        }
        rconn_url_redacted(&url, where, sizeof where); /* never the password */
        log_json("info", "cluster mode",
                 json_pack("{s:s, s:s, s:s, s:i}", "redis", where, "prefix", cfg.redis_prefix,
                           "replica", replica, "claim_ms", (int)cfg.redis_claim_ms));
    } else if (jobstore_mem_new(&store, cfg.max_jobs, &results) != 0) {
        store = NULL;
    }
    if (store == NULL || jobs_new(&jobs, &cfg, pool, metrics, store, cluster) != 0) {
        log_json("error", "cannot set up the job store", NULL);
        if (store != NULL && jobs == NULL) store->ops->free(store);
        rc = 1;
        goto out;
    }
    if (http_server_start(&http, &cfg, pool, metrics, jobs) != 0) {
        rc = 1;
        goto out;
    }
    log_json("info", "connections", json_pack("{s:s}", "detail", fdnote));
    log_json("info", "listening",
             json_pack("{s:s, s:i, s:i, s:i, s:I, s:i, s:I, s:I, s:I}", "bind", cfg.bind, "port",
                       (int)http_server_port(http), "threads", (int)cfg.threads,
                       "background_threads", (int)cfg.background_threads, "max_body",
                       (json_int_t)cfg.max_body, "max_queue", (int)cfg.max_queue, "timeout_ms",
                       (json_int_t)cfg.timeout_ms, "max_work_memory",
                       (json_int_t)cfg.max_work_memory, "max_job_memory",
                       (json_int_t)cfg.max_job_memory));

    do {
        sig = sigwaitinfo(&set, NULL);
    } while (sig < 0);

    log_json("info", "draining",
             json_pack("{s:s, s:I}", "signal", sig == SIGINT ? "SIGINT" : "SIGTERM", "grace_ms",
                       (json_int_t)cfg.grace_ms));
    http_server_drain(http);
    jobs_drain(jobs); /* queued jobs end as cancelled; running ones get the grace period */
    if (!wait_idle(http, pool, cfg.grace_ms, &set)) {
        log_json("warn", "grace period over: cancelling in-flight work",
                 json_pack("{s:I, s:I}", "jobs", (json_int_t)pool_inflight(pool), "requests",
                           (json_int_t)http_server_active(http)));
        pool_cancel_all(pool);
        if (!wait_idle(http, pool, CANCEL_WAIT_MS, &set)) {
            if (pool_inflight(pool) > 0) exit_abandoning(http, pool, cfg.grace_ms + CANCEL_WAIT_MS);
            log_json("warn", "closing connections that hold no work",
                     json_pack("{s:I}", "requests", (json_int_t)http_server_active(http)));
        }
    }
    rc = 0;
out:
    /* Never stop MHD with suspended connections: it would free requests the
     * workers still use.  (A guard: a drain that went idle leaves nothing
     * running, and neither does a failed start.) */
    if (http != NULL && pool != NULL && pool_inflight(pool) > 0) exit_abandoning(http, pool, 0);
    http_server_stop(http);
    pool_free(pool);
    jobs_free(jobs); /* after the pool: no tick or task can reach it now */
    cluster_free(cluster);
    rconn_free(redis);
    free(metrics);
    if (rc == 0) log_json("info", "stopped", NULL);
    return rc;
}
