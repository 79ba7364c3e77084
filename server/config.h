/* config.h -- server settings from the command line and PUZZLED_* environment
 * variables (a flag wins over the variable, the variable over the default). */
#ifndef PUZZLED_CONFIG_H
#define PUZZLED_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define CONFIG_MAX_THREADS        256
#define CONFIG_MAX_HTTP_THREADS   64                        /* --http-threads */
#define CONFIG_MAX_TIMEOUT_MS     600000                    /* ten minutes */
#define CONFIG_MAX_JOB_TIMEOUT_MS (30LL * 24 * 3600 * 1000) /* thirty days */
#define CONFIG_MAX_JOBS           100000

typedef struct config_s {
    char bind[64];               /* IPv4 or IPv6 literal */
    unsigned port;               /* 0 = any free port (tests) */
    unsigned threads;            /* worker threads in the pool */
    unsigned background_threads; /* the most of them background work may hold (0 at parse:
                                    all but one when threads >= 2; config_parse resolves it) */
    unsigned http_threads;       /* libmicrohttpd polling threads */
    size_t max_body;             /* bytes */
    size_t max_batch_body;       /* bytes, for routes that take batches */
    unsigned max_batch_lines;    /* puzzles in one batch */
    unsigned max_queue;          /* jobs admitted beyond `threads` before 503 */
    int64_t timeout_ms;          /* default and maximum per-request deadline */
    int64_t grace_ms;            /* how long SIGTERM waits for in-flight work */
    unsigned max_jobs;           /* async job records kept */
    int64_t job_ttl_s;           /* how long an ended job's record is kept */
    int64_t job_timeout_ms;      /* default and maximum deadline of an async job */
    size_t max_job_result;       /* bytes of a job's kept answer */
    size_t max_job_memory;       /* bytes of every kept answer together (the results budget) */
    size_t max_work_memory;      /* bytes requests may hold while served (the work budget) */
    size_t max_request_memory;   /* ... of which one request at most */
    unsigned max_connections;    /* 0 = from the file-descriptor limit (config_resolve) */
    unsigned max_conn_per_ip;    /* 0 = no cap */
    unsigned head_timeout_s;     /* accept to a complete first request head */
    unsigned idle_timeout_s;     /* inactivity on a connection */
    char cors_origin[256];
    int healthcheck;     /* --healthcheck: probe /healthz and exit */
    char web_root[1024]; /* "" = serve the web front end built into the binary */
    /* Cluster mode (server/jobs/cluster.c): "" = the embedded job store.  The URL
     * may hold a password: never log it (rconn_url_redacted). */
    char redis[1024];
    char redis_prefix[64];   /* namespace of every key and channel */
    unsigned redis_claim_ms; /* a work item held this long without a sign of life is reclaimed */
} config_t;

/* Fills cfg from defaults, then the environment, then argv.  Returns 0 to
 * run, 1 when --help was printed (exit 0), or -1 after printing an error
 * naming the bad flag or variable to `err` (exit 2).  `usage_out` receives
 * --help text.  Both streams are FILE *, passed as void * to keep stdio out
 * of this header. */
int config_parse(config_t *cfg, int argc, char **argv, void *usage_out, void *err);

/* Raises the soft file-descriptor limit to the hard one when it can, and
 * gives max_connections its default from the result (the limit less a
 * reserve for the process's own files), or caps a given one to it.  Fills
 * `note` with what it did, for the start-up log. */
void config_resolve_connections(config_t *cfg, char *note, size_t cap);

#endif
