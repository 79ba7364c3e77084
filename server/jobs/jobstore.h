/* jobstore.h -- where the records of asynchronous jobs live, behind a small
 * interface.
 *
 * A record is plain data: the job's id, status, request line, timestamps,
 * progress and, once it has ended, its result (the bytes the synchronous
 * call would have answered, with their status and content type).  What runs
 * the job (its task on the pool, its event subscribers) is not here: that is
 * server/jobs/jobs.c, on the replica that runs it.  So a store may be shared by
 * many replicas (Redis, in cluster mode) while the in-memory store
 * (jobstore_mem.c) is the embedded default.
 *
 * Every operation copies: a caller never holds a pointer into the store, so
 * any thread may call any operation (each store locks for itself; its lock
 * is a leaf: nothing else is taken while it is held).  Results are the one
 * large part of a record; they move in with put() and are copied out only
 * when asked for.
 *
 * Two stores: the embedded one (jobstore_mem.c, one process) and the Redis
 * one (jobstore_redis.c, cluster mode: every replica sees every record). */
#ifndef PUZZLED_JOBSTORE_H
#define PUZZLED_JOBSTORE_H

#include <stddef.h>
#include <stdint.h>

#define JOB_ID_LEN        22 /* 128 random bits, base64url without padding */
#define JOB_TOKEN_MIN_LEN 22 /* a job-list token: 22..64 base64url characters */
#define JOB_TOKEN_MAX_LEN 64

typedef enum job_status_e {
    JOB_QUEUED,
    JOB_RUNNING,
    JOB_DONE,
    JOB_FAILED,
    JOB_CANCELLED,
    JOB_TIMEOUT,
} job_status_t;
#define JOB_NSTATUS   6
#define JOB_ENDED(st) ((st) >= JOB_DONE)

/* "queued", "running", ... */
const char *job_status_name(job_status_t st);

typedef struct job_progress_s {
    char unit[16]; /* "subproblems", "lines", "subtrees", "items"; "" = none */
    uint64_t done; /* of total units (unit != "") */
    uint64_t total;
    uint64_t nodes; /* search nodes so far */
    int64_t elapsed_ms;
    int64_t eta_ms; /* -1 = not known yet */
} job_progress_t;

typedef struct job_rec_s {
    char id[JOB_ID_LEN + 1];
    uint64_t seq; /* creation order in this store, from 1 */
    job_status_t status;
    char method[8];
    char path[64];
    char owner[JOB_TOKEN_MAX_LEN + 1];           /* the job-list token it was created with */
    int64_t created_ms, started_ms, finished_ms; /* Unix time in ms; 0 = not yet */
    job_progress_t progress;
    int result_status;    /* HTTP status of the result; 0 = none yet */
    char result_type[64]; /* its content type */
    char *result;         /* malloc'd, owned by the record; NULL = none */
    size_t result_len;
    size_t result_size; /* get() without the result: its length in the store, when the
                           store knows it cheaply (the embedded one); 0 otherwise */
    /* Cluster mode, a job split over the replicas: its statistics as a JSON
     * object (items merged by each replica, reclaimed, duplicates), filled
     * by the Redis store's get(); malloc'd, owned by the record; NULL =
     * none.  Stores ignore it in add() and put(). */
    char *cluster;
} job_rec_t;

/* Frees the record's result and cluster statistics (the record may be
 * reused).  NULL-safe. */
void job_rec_clear(job_rec_t *r);

typedef struct jobstore_s jobstore_t;

/* Error codes: 0 or one of these. */
#define JOBSTORE_ENOTFOUND (-1) /* no record with that id */
#define JOBSTORE_EFULL     (-2) /* full of records that have not ended */
#define JOBSTORE_ENOMEM    (-3)
#define JOBSTORE_EDOWN     (-4) /* the store cannot be reached (a remote store) */
/* put() only: stored, and another replica asked to cancel the job. */
#define JOBSTORE_CANCEL_REQUESTED 1

typedef struct jobstore_ops_s {
    /* Adds a new record (copied; its result must be NULL; its seq is set in
     * *rec).  A full store first evicts its oldest ended record; with none
     * ended it answers JOBSTORE_EFULL. */
    int (*add)(jobstore_t *s, job_rec_t *rec);
    /* Replaces the record with rec's id.  A result in rec moves into the
     * store (rec->result is NULL afterwards); without one, the stored result
     * stays.  A shared store refuses to change a record that has ended
     * (another replica ended it first) and answers 0; it answers
     * JOBSTORE_CANCEL_REQUESTED when a replica asked to cancel the job. */
    int (*put)(jobstore_t *s, job_rec_t *rec);
    /* Copies the record into *out, its result too when want_result. */
    int (*get)(jobstore_t *s, const char *id, int want_result, job_rec_t *out);
    int (*remove)(jobstore_t *s, const char *id);
    /* Copies up to `max` records created with job-list token `owner`
     * before seq `before` (0: from the newest), newest first and without
     * results; returns how many and sets *more when older ones remain. */
    size_t (*list)(jobstore_t *s, const char *owner, uint64_t before, job_rec_t *out, size_t max,
                   int *more);
    /* Removes the ended records that finished before cutoff_ms; returns how
     * many. */
    size_t (*expire)(jobstore_t *s, int64_t cutoff_ms);
    /* Records by status. */
    void (*count)(jobstore_t *s, size_t by_status[JOB_NSTATUS]);
    void (*free)(jobstore_t *s);
} jobstore_ops_t;

struct jobstore_s {
    const jobstore_ops_t *ops;
};

/* The embedded store: at most max_records records in this process, their
 * results charged to `results` (not owned; NULL: no budget): a result that
 * would pass it evicts the oldest ended records first.  Returns 0 or
 * JOBSTORE_ENOMEM. */
struct budget_s;
int jobstore_mem_new(jobstore_t **out, size_t max_records, struct budget_s *results);

/* The Redis store (cluster mode): records under cfg->redis_prefix through
 * `rc` (not owned; it must outlive the store), at most cfg->max_jobs of
 * them across the cluster, kept cfg->job_ttl_s after they end; `replica`
 * names this replica in the records of the jobs it runs.  Returns 0 or
 * JOBSTORE_ENOMEM. */
struct rconn_s;
struct config_s;
int jobstore_redis_new(jobstore_t **out, struct rconn_s *rc, const struct config_s *cfg,
                       const char *replica);

#endif
