/* cluster.h -- cluster mode: many replicas, one Redis.  Split jobs publish
 * their work items to Redis and every replica takes items when it has idle
 * workers; events and cancels reach every replica.  See cluster.c. */
#ifndef PUZZLED_CLUSTER_H
#define PUZZLED_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "api/request.h"
#include "server/config.h"
#include "server/jobs/jobstore.h"
#include "server/jobs/rconn.h"
#include "server/metrics.h"
#include "server/pool.h"

typedef struct cluster_s cluster_t;

/* A notification from another replica (or this one), on the loop thread:
 * 'p' progress, 'd' ended, 'c' cancel requested, for job `id`; or 'r' with
 * id NULL: the subscription was (re)established and notifications may have
 * been lost meanwhile, so look at everything again. */
typedef void (*cluster_event_fn)(void *arg, char kind, const char *id);

/* Sets up cluster mode over `rc` (not owned) as replica `replica`.  `pool`
 * may be NULL (tests that merge by hand): then no item runs here and no
 * subscription is made.  Returns 0 or -1 (out of memory). */
int cluster_new(cluster_t **out, const config_t *cfg, pool_t *pool, metrics_t *metrics, rconn_t *rc,
                const char *replica);

/* Where notifications go; call before the pool ticks the cluster. */
void cluster_on_event(cluster_t *cl, cluster_event_fn fn, void *arg);

/* This replica's name in the records (`host-pid` unless a test names it). */
const char *cluster_replica(const cluster_t *cl);

/* Seconds until Redis is tried again (>= 1), for Retry-After. */
unsigned cluster_retry_after_s(cluster_t *cl);

/* Whether Redis answered last time; any thread. */
int cluster_up(cluster_t *cl);

/* Whether `job` is split into items that other replicas can run. */
int cluster_can_split(const api_job_t *job);

/* MHD thread: records a split job (rec: id, method, path, created, status
 * queued; its progress total and unit are set here, its seq too) with the
 * request that made it (so that any replica can rebuild it) and publishes
 * its items.  The job itself is not kept.  Returns 0, JOBSTORE_EFULL or
 * JOBSTORE_EDOWN. */
int cluster_create(cluster_t *cl, job_rec_t *rec, const api_request_t *req, const api_job_t *job);

/* Any thread: asks every replica to cancel job `id`.  A split job ends here
 * and now, as cancelled, with the answer of the items merged so far; a job
 * running on one replica ends there within milliseconds.  Returns 1 (asked),
 * 0 (it had ended already), JOBSTORE_ENOTFOUND or JOBSTORE_EDOWN. */
int cluster_cancel(cluster_t *cl, const char *id);

/* Loop thread, every pool tick: reconnection, the subscription, liveness,
 * taking items, reclaiming them, the sweeper. */
void cluster_tick(cluster_t *cl);

/* Any thread: take no more items (SIGTERM).  Items that are cancelled from
 * now on go back to the cluster at once. */
void cluster_drain(cluster_t *cl);

/* Loop thread, when the pool stops (pool_on_stop): closes the
 * subscription's handle. */
void cluster_loop_stop(void *cl);

/* After the pool is freed.  NULL-safe. */
void cluster_free(cluster_t *cl);

/* === The merge, exposed for tests === */

/* What a commit did. */
typedef struct cluster_commit_s {
    uint64_t merged;      /* items whose result went in now */
    uint64_t duplicates;  /* items whose result was in already: counted once */
    uint64_t done, total; /* the job's items merged, and its items */
} cluster_commit_t;

#define CLUSTER_ENDED 2 /* cluster_commit(): the job has ended; nothing was stored */

/* Stores the encoded results of n items of job `id` and acknowledges their
 * stream entry `entry`, each item once: an item already in (its entry ran
 * twice) is a duplicate and changes nothing else.  Returns 0 (*out says
 * what happened), CLUSTER_ENDED, JOBSTORE_ENOTFOUND, JOBSTORE_ENOMEM or
 * JOBSTORE_EDOWN.  Any thread. */
int cluster_commit(cluster_t *cl, const char *id, const char *entry, size_t n, const long *items,
                   char *const *bytes, const size_t *lens, const api_item_info_t *infos,
                   cluster_commit_t *out);

/* Any thread: ends split job `id` with the answer of its stored item
 * results, rendered by a copy of the job rebuilt from its request.  rc 0:
 * every item is in, the job is done; rc < 0 (SEARCH_CANCELLED,
 * SEARCH_TIMEOUT, ...): it ends so, with what is in.  Returns 1 (ended
 * now), 0 (it had ended), JOBSTORE_ENOTFOUND or JOBSTORE_EDOWN. */
int cluster_merge(cluster_t *cl, const char *id, int rc);

#endif
