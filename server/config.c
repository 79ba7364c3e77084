/* config.c -- one table describes every setting: its flag, its environment
 * variable, its range and where it lands in config_t.  --help is printed from
 * the same table, so the two cannot drift apart. */
#include "server/config.h"

#include "server/jobs/rconn_url.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

typedef enum { OPT_STR, OPT_UINT, OPT_SIZE, OPT_I64, OPT_FLAG } opt_kind_t;

typedef struct opt_s {
    const char *flag; /* without the leading dashes */
    const char *env;
    opt_kind_t kind;
    long long lo, hi;
    size_t offset, size;
    const char *help;
} opt_t;

#define OFF(f) offsetof(config_t, f), sizeof(((config_t *)0)->f)

static const opt_t opts[] = {
    {"bind", "PUZZLED_BIND", OPT_STR, 0, 0, OFF(bind), "address to listen on (default 127.0.0.1)"},
    {"port", "PUZZLED_PORT", OPT_UINT, 0, 65535, OFF(port),
     "TCP port, 0 = any free one (default 8080)"},
    {"threads", "PUZZLED_THREADS", OPT_UINT, 1, CONFIG_MAX_THREADS, OFF(threads),
     "worker threads (default: number of cores)"},
    {"background-threads", "PUZZLED_BACKGROUND_THREADS", OPT_UINT, 0, CONFIG_MAX_THREADS,
     OFF(background_threads),
     "the most worker threads background work (async jobs, cluster items, generation) may "
     "hold; the rest are kept for requests that wait (default: all but one, 0 = default)"},
    {"http-threads", "PUZZLED_HTTP_THREADS", OPT_UINT, 1, CONFIG_MAX_HTTP_THREADS,
     OFF(http_threads), "HTTP polling threads (default: number of cores, at most 4)"},
    {"max-body", "PUZZLED_MAX_BODY", OPT_SIZE, 1024, 256LL << 20, OFF(max_body),
     "largest request body in bytes, 413 past it (default 1048576)"},
    {"max-batch-body", "PUZZLED_MAX_BATCH_BODY", OPT_SIZE, 1024, 1LL << 30, OFF(max_batch_body),
     "largest body of POST /v1/sudoku/batch in bytes (default 16777216)"},
    {"max-batch-lines", "PUZZLED_MAX_BATCH_LINES", OPT_UINT, 1, 10000000, OFF(max_batch_lines),
     "most puzzles in one batch, 413 past it (default 200000)"},
    {"max-queue", "PUZZLED_MAX_QUEUE", OPT_UINT, 0, 100000, OFF(max_queue),
     "jobs waiting beyond the busy workers before 503 (default 64)"},
    {"timeout-ms", "PUZZLED_TIMEOUT_MS", OPT_I64, 1, CONFIG_MAX_TIMEOUT_MS, OFF(timeout_ms),
     "default and maximum per-request deadline (default 30000)"},
    {"grace-ms", "PUZZLED_GRACE_MS", OPT_I64, 0, CONFIG_MAX_TIMEOUT_MS, OFF(grace_ms),
     "on SIGTERM, how long in-flight work may finish (default 10000)"},
    {"max-jobs", "PUZZLED_MAX_JOBS", OPT_UINT, 1, CONFIG_MAX_JOBS, OFF(max_jobs),
     "async job records kept; past it the oldest ended one goes, or 503 (default 1000)"},
    {"job-ttl-s", "PUZZLED_JOB_TTL_S", OPT_I64, 1, 30LL * 24 * 3600, OFF(job_ttl_s),
     "seconds an ended job's record is kept (default 3600)"},
    {"job-timeout-ms", "PUZZLED_JOB_TIMEOUT_MS", OPT_I64, 1, CONFIG_MAX_JOB_TIMEOUT_MS,
     OFF(job_timeout_ms), "default and maximum deadline of an async job (default 86400000)"},
    {"max-job-result", "PUZZLED_MAX_JOB_RESULT", OPT_SIZE, 1024, 4LL << 30, OFF(max_job_result),
     "largest answer an async job keeps, in bytes; past it the job fails (default 67108864)"},
    {"max-job-memory", "PUZZLED_MAX_JOB_MEMORY", OPT_SIZE, 64LL << 10, 1LL << 40,
     OFF(max_job_memory),
     "bytes every kept async job answer may take together; past it the oldest ended jobs "
     "go (default 134217728)"},
    {"max-work-memory", "PUZZLED_MAX_WORK_MEMORY", OPT_SIZE, 16LL << 20, 1LL << 40,
     OFF(max_work_memory),
     "bytes requests may hold while they are served (bodies, search memory, answers); past "
     "it 503 (default 335544320)"},
    {"max-request-memory", "PUZZLED_MAX_REQUEST_MEMORY", OPT_SIZE, 1LL << 20, 1LL << 40,
     OFF(max_request_memory),
     "bytes of search memory one request may hold, at most --max-work-memory; past it 422 "
     "(default 201326592)"},
    {"max-connections", "PUZZLED_MAX_CONNECTIONS", OPT_UINT, 16, 1000000, OFF(max_connections),
     "open connections at most (default: the file-descriptor limit, raised to the hard limit, "
     "less 128)"},
    {"max-conn-per-ip", "PUZZLED_MAX_CONN_PER_IP", OPT_UINT, 0, 1000000, OFF(max_conn_per_ip),
     "open connections per client address, 0 = no cap (default 256; behind a proxy "
     "every client is the proxy: use 0 and cap in the proxy)"},
    {"head-timeout-s", "PUZZLED_HEAD_TIMEOUT_S", OPT_UINT, 1, 3600, OFF(head_timeout_s),
     "seconds from accept to a complete first request head, else closed (default 5)"},
    {"idle-timeout-s", "PUZZLED_IDLE_TIMEOUT_S", OPT_UINT, 1, 86400, OFF(idle_timeout_s),
     "seconds of silence after which a connection is closed (default 30)"},
    {"cors-origin", "PUZZLED_CORS_ORIGIN", OPT_STR, 0, 0, OFF(cors_origin),
     "Access-Control-Allow-Origin value (default *)"},
    {"web-root", "PUZZLED_WEB_ROOT", OPT_STR, 0, 0, OFF(web_root),
     "serve the web front end from this directory, read on every request (development; "
     "default: the copy built in)"},
    {"redis", "PUZZLED_REDIS", OPT_STR, 0, 0, OFF(redis),
     "cluster mode: keep jobs in this Redis, redis://[[user]:password@]host[:port][/db], and "
     "share their work with every replica using it (default: none, jobs in memory)"},
    {"redis-prefix", "PUZZLED_REDIS_PREFIX", OPT_STR, 0, 0, OFF(redis_prefix),
     "namespace of the Redis keys and channels (default puzzled:)"},
    {"redis-claim-ms", "PUZZLED_REDIS_CLAIM_MS", OPT_UINT, 200, 600000, OFF(redis_claim_ms),
     "a work item whose replica gave no sign of life this long is run by another (default 5000)"},
    {"healthcheck", NULL, OPT_FLAG, 0, 0, OFF(healthcheck),
     "probe http://127.0.0.1:PORT/healthz, exit 0 if healthy (for HEALTHCHECK)"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

static void config_defaults(config_t *cfg) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->bind, sizeof cfg->bind, "127.0.0.1");
    cfg->port = 8080;
    cfg->threads = cores < 1                    ? 1
                   : cores > CONFIG_MAX_THREADS ? CONFIG_MAX_THREADS
                                                : (unsigned)cores;
    cfg->http_threads = cfg->threads < 4 ? cfg->threads : 4;
    cfg->max_body = 1 << 20;
    cfg->max_batch_body = 16u << 20;
    cfg->max_batch_lines = 200000;
    cfg->max_queue = 64;
    cfg->timeout_ms = 30000;
    cfg->grace_ms = 10000;
    cfg->max_jobs = 1000;
    cfg->max_connections = 0;
    cfg->max_conn_per_ip = 256;
    cfg->head_timeout_s = 5;
    cfg->idle_timeout_s = 30;
    cfg->job_ttl_s = 3600;
    cfg->job_timeout_ms = 24LL * 3600 * 1000;
    cfg->max_job_result = 64u << 20;
    cfg->max_job_memory = (size_t)128 << 20;
    cfg->max_work_memory = (size_t)320 << 20;
    cfg->max_request_memory = (size_t)192 << 20;
    snprintf(cfg->cors_origin, sizeof cfg->cors_origin, "*");
    snprintf(cfg->redis_prefix, sizeof cfg->redis_prefix, "puzzled:");
    cfg->redis_claim_ms = 5000;
}

/* Stores `value` into the field `o` describes; returns 0 or -1 (message in err). */
static int config_set(config_t *cfg, const opt_t *o, const char *value, const char *source,
                      FILE *err) {
    char *field = (char *)cfg + o->offset;
    char *end;
    long long x;

    if (o->kind == OPT_FLAG) {
        *(int *)field = 1;
        return 0;
    }
    if (o->kind == OPT_STR) {
        if (strlen(value) >= o->size || strlen(value) == 0) {
            fprintf(err, "puzzled: %s: must be 1 to %zu characters\n", source, o->size - 1);
            return -1;
        }
        /* A header value must not smuggle in a CR or LF. */
        for (const char *c = value; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f) {
                fprintf(err, "puzzled: %s: control characters are not allowed\n", source);
                return -1;
            }
        memcpy(field, value, strlen(value) + 1);
        return 0;
    }
    errno = 0;
    x = strtoll(value, &end, 10);
    if (*value == '\0' || *end != '\0' || errno != 0 || x < o->lo || x > o->hi) {
        fprintf(err, "puzzled: %s: must be an integer from %lld to %lld, got '%s'\n", source, o->lo,
                o->hi, value);
        return -1;
    }
    switch (o->kind) {
    case OPT_UINT: *(unsigned *)field = (unsigned)x; break;
    case OPT_SIZE: *(size_t *)field = (size_t)x; break;
    case OPT_I64: *(int64_t *)field = (int64_t)x; break;
    default: break;
    }
    return 0;
}

static void config_usage(FILE *out) {
    fprintf(out, "usage: puzzled [options]\n\n"
                 "A puzzle-solving HTTP service (N-Queens, Sudoku, ...).\n\n");
    for (size_t i = 0; i < NOPTS; i++) {
        char left[40];
        snprintf(left, sizeof left, "--%s%s", opts[i].flag, opts[i].kind == OPT_FLAG ? "" : " X");
        fprintf(out, "  %-18s %s", left, opts[i].help);
        if (opts[i].env) fprintf(out, " [%s]", opts[i].env);
        fputc('\n', out);
    }
    fprintf(out, "  %-18s %s\n", "--help", "this text");
}

int config_parse(config_t *cfg, int argc, char **argv, void *usage_out, void *err_out) {
    FILE *err = err_out;
    struct option longopts[NOPTS + 2];
    struct in6_addr a6;
    struct in_addr a4;
    char source[96];
    int c;

    config_defaults(cfg);
    for (size_t i = 0; i < NOPTS; i++) {
        const char *v = opts[i].env ? getenv(opts[i].env) : NULL;
        if (v == NULL) continue;
        if (config_set(cfg, &opts[i], v, opts[i].env, err) != 0) return -1;
    }
    for (size_t i = 0; i < NOPTS; i++) {
        longopts[i].name = opts[i].flag;
        longopts[i].has_arg = opts[i].kind == OPT_FLAG ? no_argument : required_argument;
        longopts[i].flag = NULL;
        longopts[i].val = 256 + (int)i;
    }
    longopts[NOPTS] = (struct option){"help", no_argument, NULL, 'h'};
    longopts[NOPTS + 1] = (struct option){NULL, 0, NULL, 0};
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (c == 'h') {
            config_usage(usage_out);
            return 1;
        }
        if (c < 256 || c >= 256 + (int)NOPTS) {
            fprintf(err, "puzzled: unknown or incomplete option '%s' (see --help)\n",
                    argv[optind - 1]);
            return -1;
        }
        snprintf(source, sizeof source, "--%s", opts[c - 256].flag);
        if (config_set(cfg, &opts[c - 256], optarg, source, err) != 0) return -1;
    }
    if (optind < argc) {
        fprintf(err, "puzzled: unexpected argument '%s' (see --help)\n", argv[optind]);
        return -1;
    }
    if (inet_pton(AF_INET, cfg->bind, &a4) != 1 && inet_pton(AF_INET6, cfg->bind, &a6) != 1) {
        fprintf(err, "puzzled: --bind: '%s' is not an IPv4 or IPv6 address\n", cfg->bind);
        return -1;
    }
    if (cfg->redis[0] != '\0') {
        rconn_url_t u;
        char why[160];
        if (rconn_url_parse(cfg->redis, &u, why, sizeof why) != 0) {
            /* the URL may hold a password: say what is wrong, never echo it */
            fprintf(err, "puzzled: --redis: %s\n", why);
            return -1;
        }
    }
    if (cfg->background_threads == 0)
        cfg->background_threads = cfg->threads >= 2 ? cfg->threads - 1 : 1;
    if (cfg->background_threads > cfg->threads) {
        fprintf(err, "puzzled: --background-threads: at most --threads (%u)\n", cfg->threads);
        return -1;
    }
    if (cfg->max_request_memory > cfg->max_work_memory) {
        fprintf(err, "puzzled: --max-request-memory: at most --max-work-memory (%zu)\n",
                cfg->max_work_memory);
        return -1;
    }
    for (const char *ch = cfg->redis_prefix; *ch; ch++)
        if (*ch == ' ' || *ch == '*' || *ch == '?' || *ch == '[') {
            fprintf(err, "puzzled: --redis-prefix: no spaces or glob characters (*?[)\n");
            return -1;
        }
    return 0;
}

void config_resolve_connections(config_t *cfg, char *note, size_t cap) {
    struct rlimit rl;
    unsigned long fds = 1024;
    int raised = 0;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        if (rl.rlim_cur < rl.rlim_max) {
            struct rlimit up = {rl.rlim_max, rl.rlim_max};
            if (rl.rlim_max == RLIM_INFINITY) up.rlim_cur = up.rlim_max = 1048576;
            if (setrlimit(RLIMIT_NOFILE, &up) == 0) {
                rl = up;
                raised = 1;
            }
        }
        fds = rl.rlim_cur == RLIM_INFINITY ? 1048576 : (unsigned long)rl.rlim_cur;
    }
    unsigned long room = fds > 256 ? fds - 128 : fds / 2; /* files, pipes, the pool's own */
    if (room > 1000000) room = 1000000;
    if (cfg->max_connections == 0 || cfg->max_connections > room)
        cfg->max_connections = (unsigned)room;
    snprintf(note, cap, "fd limit %lu%s, max_connections %u", fds,
             raised ? " (soft limit raised to the hard one)" : "", cfg->max_connections);
}
