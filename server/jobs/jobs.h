/* jobs.h -- long work as asynchronous jobs: a request sent with
 * "Prefer: respond-async" is validated as usual, then answered 202 with a
 * Location; the work runs on the shared pool in the background, its record
 * (status, progress, result) lives in a job store, and clients follow it by
 * polling GET /v1/jobs/{id}, by Server-Sent Events, or cancel it with DELETE.
 *
 * Threads: jobs_create() and jobs_answer() run on the MHD thread; a job's
 * task ends, and the progress/keep-alive/expiry tick runs, on the pool's loop
 * thread.  Everything a job's runner holds is guarded by the module's lock;
 * lock order: jobs lock -> job store lock / pool lock (both leaves).  See
 * jobs.c for the life of a job.
 *
 * Cluster mode (a Redis store and a cluster_t): records are shared, split
 * jobs run as items on every replica (server/jobs/cluster.c), and event streams
 * follow jobs that run elsewhere. */
#ifndef PUZZLED_JOBS_H
#define PUZZLED_JOBS_H

#include <microhttpd.h>

#include "api/request.h"
#include "server/config.h"
#include "server/jobs/cluster.h"
#include "server/jobs/jobstore.h"
#include "server/metrics.h"
#include "server/pool.h"

typedef struct jobs_s jobs_t;

/* Sets up the runner over `store` (which it then owns) and hooks the pool's
 * tick.  `cluster` (NULL: one server) is cluster mode's: it must outlive the
 * runner, and `store` must then be the Redis store.  `cfg`, `pool` and
 * `metrics` must outlive it.  Returns 0 or -1. */
int jobs_new(jobs_t **out, const config_t *cfg, pool_t *pool, metrics_t *metrics, jobstore_t *store,
             cluster_t *cluster);

/* MHD thread: takes `job` over (freed on any failure), records it, queues it
 * (or, in cluster mode, publishes its items) and fills resp with the 202
 * answer, or a 503 problem when the store is full of jobs that have not
 * ended, cannot be reached, or the server is draining.  `req` is the
 * request `job` was prepared from (cluster mode stores it).  `token` is
 * the request's Job-List-Token header (NULL: none): the job joins that
 * list, or a new one whose token the 202 carries (list_token); a token
 * that is not one is a 400. */
void jobs_create(jobs_t *js, api_job_t *job, const api_request_t *req, const char *token,
                 api_response_t *resp);

/* MHD thread: answers a request on /v1/jobs... (route already matched):
 * list, get, result, delete, or events (a stream that suspends `conn` while
 * it has nothing to send).  `path_tail` is the path after "/v1/jobs". */
void jobs_answer(jobs_t *js, struct MHD_Connection *conn, const char *method, const char *path_tail,
                 const api_param_t *params, size_t nparams, api_response_t *resp);

/* Whether new jobs can be taken: -1 one server (always), 1 cluster mode
 * with Redis answering, 0 cluster mode with Redis unreachable.  Any thread. */
int jobs_store_up(jobs_t *js);

/* Shutdown, step 1 (any thread): refuse new jobs and cancel those that never
 * started; running jobs go on until the pool cancels them. */
void jobs_drain(jobs_t *js);

/* Shutdown, last step: after the HTTP daemon is stopped and the pool freed
 * (no task, tick or event stream can reach the runner).  NULL-safe. */
void jobs_free(jobs_t *js);

#endif
