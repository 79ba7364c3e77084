/* metrics.h -- Prometheus counters, gauges and a latency histogram.
 *
 * Every field is an atomic updated with relaxed ordering from any thread
 * (MHD's, the loop's, the workers'); a scrape reads them without a lock, so
 * one scrape may see a request counted but its latency not yet: Prometheus
 * tolerates that.  Label sets are fixed at start (route paths, a set of
 * statuses, a set of puzzles), so memory and cardinality are bounded. */
#ifndef PUZZLED_METRICS_H
#define PUZZLED_METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define METRICS_MAX_PATHS   32
#define METRICS_NSTATUS     16 /* known statuses + "other" */
#define METRICS_NBUCKETS    14
#define METRICS_MAX_PUZZLES 15 /* the endpoints' labels; one slot more is "other" */
#define METRICS_NJOBSTATUS  6  /* job_status_t (server/jobs/jobstore.h) */
#define METRICS_NJOBBUCKETS 10
#define METRICS_MAX_BUDGETS 4

struct budget_s;

typedef struct metrics_s {
    size_t npaths; /* slot npaths is "unmatched" */
    const char *paths[METRICS_MAX_PATHS + 1];
    atomic_uint_fast64_t requests[METRICS_MAX_PATHS + 1][METRICS_NSTATUS];
    atomic_uint_fast64_t latency[METRICS_MAX_PATHS + 1][METRICS_NBUCKETS + 1];
    atomic_uint_fast64_t latency_sum_us[METRICS_MAX_PATHS + 1];
    size_t npuzzles; /* slot npuzzles is "other" */
    const char *puzzles[METRICS_MAX_PUZZLES + 1];
    atomic_uint_fast64_t nodes[METRICS_MAX_PUZZLES + 1];
    atomic_int_fast64_t jobs_inflight; /* admitted, not finished */
    atomic_int_fast64_t jobs_queued;   /* admitted, no item started yet */
    atomic_uint_fast64_t jobs_rejected;
    atomic_int_fast64_t connections;      /* requests being handled */
    atomic_uint_fast64_t head_timeouts;   /* connections shut for want of a request head */
    atomic_uint_fast64_t inline_answers;  /* small jobs answered on the HTTP thread */
    atomic_uint_fast64_t workers_busy[2]; /* items on the workers: foreground, background
                                             (written by the pool's loop thread) */
    atomic_uint_fast64_t queue_expired;   /* tasks whose deadline passed while they waited */
    atomic_uint_fast64_t queue_abandoned; /* ... whose client hung up while they waited */
    /* The memory budgets (server/budget.h), read at each scrape: set before
     * the server starts, constant afterwards. */
    const struct budget_s *budgets[METRICS_MAX_BUDGETS];
    size_t nbudgets;

    /* Asynchronous jobs (server/jobs/jobs.c), indexed by job_status_t. */
    atomic_int_fast64_t async_jobs[METRICS_NJOBSTATUS];   /* records by status (gauge) */
    atomic_uint_fast64_t async_created;                   /* counter */
    atomic_uint_fast64_t async_ended[METRICS_NJOBSTATUS]; /* by final status */
    atomic_uint_fast64_t async_duration[METRICS_NJOBBUCKETS + 1];
    atomic_uint_fast64_t async_duration_sum_ms;

    /* Cluster mode (server/jobs/rconn.c, server/jobs/cluster.c). */
    atomic_int_fast64_t redis_up;         /* 1 reachable, 0 not, -1 no Redis (embedded store) */
    atomic_uint_fast64_t redis_failures;  /* calls that found Redis unreachable */
    atomic_uint_fast64_t items_merged;    /* work items this replica ran and merged */
    atomic_uint_fast64_t items_duplicate; /* ... that another replica had merged first */
    atomic_uint_fast64_t items_reclaimed; /* items taken over from a silent replica */
    atomic_uint_fast64_t items_requeued;  /* items given back (this replica was stopping) */
} metrics_t;

/* Sets up labels: paths[0..npaths-1] (at most METRICS_MAX_PATHS, the rest are
 * folded into "unmatched"), and the puzzles: the endpoints' labels
 * (api_endpoints[], api/endpoint.h) in the order they first appear, then
 * "other".  The strings must outlive the metrics. */
void metrics_init(metrics_t *m, const char *const *paths, size_t npaths);

/* Records one finished request on path slot `path` (npaths = unmatched). */
void metrics_observe(metrics_t *m, size_t path, int status, double duration_ms);

/* Records how long an async job ran (started to finished). */
void metrics_observe_job(metrics_t *m, double seconds);

/* Adds search nodes to the puzzle's counter (a job's ops->puzzle; one that
 * is no endpoint's label, such as "generate", counts as "other"). */
void metrics_add_nodes(metrics_t *m, const char *puzzle, uint64_t nodes);

/* Renders the Prometheus text format (version 0.0.4).  Returns a malloc'd
 * string the caller frees, length in *len; NULL when out of memory. */
char *metrics_render(metrics_t *m, size_t *len);

#endif
