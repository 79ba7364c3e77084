/* metrics.c -- see metrics.h.  Rendering appends into a growing buffer; the
 * label tables below are the whole cardinality of what we export. */
#include "server/metrics.h"

#include "api/endpoint.h"
#include "server/budget.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int metrics_statuses[METRICS_NSTATUS - 1] = {200, 202, 204, 304, 400, 404, 405, 406,
                                                          413, 415, 422, 429, 500, 503, 504};
static const double metrics_bounds_ms[METRICS_NBUCKETS] = {
    1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000};

void metrics_init(metrics_t *m, const char *const *paths, size_t npaths) {
    memset(m, 0, sizeof *m);
    m->npaths = npaths > METRICS_MAX_PATHS ? METRICS_MAX_PATHS : npaths;
    for (size_t i = 0; i < m->npaths; i++)
        m->paths[i] = paths[i];
    m->paths[m->npaths] = "unmatched";
    for (size_t i = 0; api_endpoints[i] != NULL; i++) {
        const char *label = api_endpoints[i]->label;
        size_t k = 0;
        while (k < m->npuzzles && strcmp(m->puzzles[k], label) != 0)
            k++;
        if (k == m->npuzzles && m->npuzzles < METRICS_MAX_PUZZLES)
            m->puzzles[m->npuzzles++] = label;
    }
    m->puzzles[m->npuzzles] = "other";
    atomic_store(&m->redis_up, -1);
}

static size_t metrics_status_slot(int status) {
    for (size_t i = 0; i < METRICS_NSTATUS - 1; i++)
        if (metrics_statuses[i] == status) return i;
    return METRICS_NSTATUS - 1;
}

void metrics_observe(metrics_t *m, size_t path, int status, double ms) {
    size_t b = 0;
    if (path > m->npaths) path = m->npaths;
    atomic_fetch_add_explicit(&m->requests[path][metrics_status_slot(status)], 1,
                              memory_order_relaxed);
    while (b < METRICS_NBUCKETS && ms > metrics_bounds_ms[b])
        b++;
    atomic_fetch_add_explicit(&m->latency[path][b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->latency_sum_us[path], (uint_fast64_t)(ms * 1000.0),
                              memory_order_relaxed);
}

static const double metrics_job_bounds_s[METRICS_NJOBBUCKETS] = {0.01, 0.1, 1,    10,    60,
                                                                 300,  900, 3600, 14400, 86400};
static const char *const metrics_job_status[METRICS_NJOBSTATUS] = {
    "queued", "running", "done", "failed", "cancelled", "timeout"};

void metrics_observe_job(metrics_t *m, double seconds) {
    size_t b = 0;
    while (b < METRICS_NJOBBUCKETS && seconds > metrics_job_bounds_s[b])
        b++;
    atomic_fetch_add_explicit(&m->async_duration[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->async_duration_sum_ms, (uint_fast64_t)(seconds * 1000.0),
                              memory_order_relaxed);
}

void metrics_add_nodes(metrics_t *m, const char *puzzle, uint64_t nodes) {
    size_t i = 0;
    while (i < m->npuzzles && strcmp(m->puzzles[i], puzzle) != 0)
        i++;
    atomic_fetch_add_explicit(&m->nodes[i], nodes, memory_order_relaxed);
}

typedef struct buf_s {
    char *p;
    size_t len, cap;
    int oom;
} buf_t;

static void buf_printf(buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_printf(buf_t *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = b->oom ? 0 : vsnprintf(b->p + b->len, room, fmt, ap);
        va_end(ap);
        if (b->oom || n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap * 2 + (size_t)n;
        char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

#define LOAD(x) ((unsigned long long)atomic_load_explicit(&(x), memory_order_relaxed))

/* The memory budgets: limit, use now, peak, refusals, one series each. */
static void metrics_render_budgets(const metrics_t *m, buf_t *b) {
    static const struct {
        const char *name, *type, *help;
    } what[4] = {
        {"memory_budget_bytes", "gauge", "The limit of each memory budget, in bytes."},
        {"memory_used_bytes", "gauge", "Bytes charged to each memory budget now."},
        {"memory_peak_bytes", "gauge", "The most bytes ever charged to each budget at once."},
        {"memory_refused_total", "counter", "Charges refused because a budget was full."},
    };
    for (size_t k = 0; k < 4 && m->nbudgets > 0; k++) {
        buf_printf(b, "# HELP puzzled_%s %s\n# TYPE puzzled_%s %s\n", what[k].name, what[k].help,
                   what[k].name, what[k].type);
        for (size_t i = 0; i < m->nbudgets; i++) {
            const budget_t *g = m->budgets[i];
            unsigned long long v = k == 0   ? (unsigned long long)g->limit
                                   : k == 1 ? (unsigned long long)atomic_load(&g->used)
                                   : k == 2 ? (unsigned long long)atomic_load(&g->peak)
                                            : (unsigned long long)atomic_load(&g->refused);
            buf_printf(b, "puzzled_%s{budget=\"%s\"} %llu\n", what[k].name, g->name, v);
        }
    }
}

char *metrics_render(metrics_t *m, size_t *len) {
    buf_t b = {malloc(8192), 0, 8192, 0};
    if (b.p == NULL) return NULL;

    buf_printf(&b,
               "# HELP puzzled_http_requests_total HTTP requests answered, by route and status.\n"
               "# TYPE puzzled_http_requests_total counter\n");
    for (size_t r = 0; r <= m->npaths; r++)
        for (size_t s = 0; s < METRICS_NSTATUS; s++) {
            unsigned long long v = LOAD(m->requests[r][s]);
            if (v == 0) continue;
            if (s < METRICS_NSTATUS - 1)
                buf_printf(&b, "puzzled_http_requests_total{route=\"%s\",status=\"%d\"} %llu\n",
                           m->paths[r], metrics_statuses[s], v);
            else
                buf_printf(&b, "puzzled_http_requests_total{route=\"%s\",status=\"other\"} %llu\n",
                           m->paths[r], v);
        }

    buf_printf(
        &b, "# HELP puzzled_http_request_duration_seconds Time from first byte to answer queued.\n"
            "# TYPE puzzled_http_request_duration_seconds histogram\n");
    for (size_t r = 0; r <= m->npaths; r++) {
        unsigned long long cum = 0;
        for (size_t k = 0; k <= METRICS_NBUCKETS; k++)
            cum += LOAD(m->latency[r][k]);
        if (cum == 0) continue;
        cum = 0;
        for (size_t k = 0; k < METRICS_NBUCKETS; k++) {
            cum += LOAD(m->latency[r][k]);
            buf_printf(
                &b, "puzzled_http_request_duration_seconds_bucket{route=\"%s\",le=\"%g\"} %llu\n",
                m->paths[r], metrics_bounds_ms[k] / 1000.0, cum);
        }
        cum += LOAD(m->latency[r][METRICS_NBUCKETS]);
        buf_printf(&b,
                   "puzzled_http_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %llu\n",
                   m->paths[r], cum);
        buf_printf(&b, "puzzled_http_request_duration_seconds_sum{route=\"%s\"} %.6f\n",
                   m->paths[r], (double)LOAD(m->latency_sum_us[r]) / 1e6);
        buf_printf(&b, "puzzled_http_request_duration_seconds_count{route=\"%s\"} %llu\n",
                   m->paths[r], cum);
    }

    buf_printf(&b, "# HELP puzzled_solver_nodes_total Search nodes visited by the solvers.\n"
                   "# TYPE puzzled_solver_nodes_total counter\n");
    for (size_t i = 0; i <= m->npuzzles; i++)
        buf_printf(&b, "puzzled_solver_nodes_total{puzzle=\"%s\"} %llu\n", m->puzzles[i],
                   LOAD(m->nodes[i]));

    buf_printf(
        &b,
        "# HELP puzzled_jobs_inflight Jobs admitted to the worker pool and not finished.\n"
        "# TYPE puzzled_jobs_inflight gauge\npuzzled_jobs_inflight %lld\n"
        "# HELP puzzled_jobs_queued Jobs admitted whose work has not started yet.\n"
        "# TYPE puzzled_jobs_queued gauge\npuzzled_jobs_queued %lld\n"
        "# HELP puzzled_jobs_rejected_total Jobs refused with 503 because the queue was full.\n"
        "# TYPE puzzled_jobs_rejected_total counter\npuzzled_jobs_rejected_total %llu\n"
        "# HELP puzzled_http_requests_active Requests between first byte and answer sent.\n"
        "# TYPE puzzled_http_requests_active gauge\npuzzled_http_requests_active %lld\n",
        (long long)atomic_load(&m->jobs_inflight), (long long)atomic_load(&m->jobs_queued),
        LOAD(m->jobs_rejected), (long long)atomic_load(&m->connections));
    buf_printf(&b,
               "# HELP puzzled_http_head_timeouts_total Connections closed because no complete "
               "request head arrived within --head-timeout-s.\n"
               "# TYPE puzzled_http_head_timeouts_total counter\n"
               "puzzled_http_head_timeouts_total %llu\n"
               "# HELP puzzled_inline_answers_total Small jobs answered on the HTTP thread, "
               "without the pool.\n"
               "# TYPE puzzled_inline_answers_total counter\n"
               "puzzled_inline_answers_total %llu\n",
               LOAD(m->head_timeouts), LOAD(m->inline_answers));
    buf_printf(&b,
               "# HELP puzzled_workers_busy Worker threads running an item, by class "
               "(background: async jobs, cluster items, generation).\n"
               "# TYPE puzzled_workers_busy gauge\n"
               "puzzled_workers_busy{class=\"foreground\"} %llu\n"
               "puzzled_workers_busy{class=\"background\"} %llu\n"
               "# HELP puzzled_queue_expired_total Requests whose deadline passed while they "
               "waited for a worker (answered 503).\n"
               "# TYPE puzzled_queue_expired_total counter\npuzzled_queue_expired_total %llu\n"
               "# HELP puzzled_queue_abandoned_total Requests whose client hung up while they "
               "waited for a worker.\n"
               "# TYPE puzzled_queue_abandoned_total counter\npuzzled_queue_abandoned_total %llu\n",
               LOAD(m->workers_busy[0]), LOAD(m->workers_busy[1]), LOAD(m->queue_expired),
               LOAD(m->queue_abandoned));
    metrics_render_budgets(m, &b);
    buf_printf(&b, "# HELP puzzled_async_jobs Asynchronous job records held, by status.\n"
                   "# TYPE puzzled_async_jobs gauge\n");
    for (size_t k = 0; k < METRICS_NJOBSTATUS; k++)
        buf_printf(&b, "puzzled_async_jobs{status=\"%s\"} %lld\n", metrics_job_status[k],
                   (long long)atomic_load(&m->async_jobs[k]));
    buf_printf(&b,
               "# HELP puzzled_async_jobs_created_total Asynchronous jobs accepted (202).\n"
               "# TYPE puzzled_async_jobs_created_total counter\n"
               "puzzled_async_jobs_created_total %llu\n"
               "# HELP puzzled_async_jobs_ended_total Asynchronous jobs ended, by outcome.\n"
               "# TYPE puzzled_async_jobs_ended_total counter\n",
               LOAD(m->async_created));
    for (size_t k = 2; k < METRICS_NJOBSTATUS; k++)
        buf_printf(&b, "puzzled_async_jobs_ended_total{outcome=\"%s\"} %llu\n",
                   metrics_job_status[k], LOAD(m->async_ended[k]));
    buf_printf(&b, "# HELP puzzled_async_job_duration_seconds Time from a job's start to its end.\n"
                   "# TYPE puzzled_async_job_duration_seconds histogram\n");
    unsigned long long cum = 0;
    for (size_t k = 0; k < METRICS_NJOBBUCKETS; k++) {
        cum += LOAD(m->async_duration[k]);
        buf_printf(&b, "puzzled_async_job_duration_seconds_bucket{le=\"%g\"} %llu\n",
                   metrics_job_bounds_s[k], cum);
    }
    cum += LOAD(m->async_duration[METRICS_NJOBBUCKETS]);
    buf_printf(&b,
               "puzzled_async_job_duration_seconds_bucket{le=\"+Inf\"} %llu\n"
               "puzzled_async_job_duration_seconds_sum %.3f\n"
               "puzzled_async_job_duration_seconds_count %llu\n",
               cum, (double)LOAD(m->async_duration_sum_ms) / 1000.0, cum);
    long long up = (long long)atomic_load(&m->redis_up);
    if (up >= 0) /* cluster mode only; no URL, host or password here */
        buf_printf(
            &b,
            "# HELP puzzled_redis_up Whether the cluster's Redis answered last time (1) or not.\n"
            "# TYPE puzzled_redis_up gauge\npuzzled_redis_up %lld\n"
            "# HELP puzzled_redis_failures_total Redis calls that failed (the breaker opened).\n"
            "# TYPE puzzled_redis_failures_total counter\npuzzled_redis_failures_total %llu\n"
            "# HELP puzzled_cluster_items_total Work items of split jobs this replica handled, "
            "by outcome.\n"
            "# TYPE puzzled_cluster_items_total counter\n"
            "puzzled_cluster_items_total{outcome=\"merged\"} %llu\n"
            "puzzled_cluster_items_total{outcome=\"duplicate\"} %llu\n"
            "puzzled_cluster_items_total{outcome=\"reclaimed\"} %llu\n"
            "puzzled_cluster_items_total{outcome=\"requeued\"} %llu\n",
            up, LOAD(m->redis_failures), LOAD(m->items_merged), LOAD(m->items_duplicate),
            LOAD(m->items_reclaimed), LOAD(m->items_requeued));
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}
