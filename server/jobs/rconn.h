/* rconn.h -- the Redis connection of a replica in cluster mode (the URL:
 * rconn_url.h): one blocking hiredis connection per calling thread, and a circuit breaker
 * that makes every call fail at once while Redis is unreachable.
 *
 * Why blocking calls: the job store interface (server/jobs/jobstore.h) is
 * synchronous, and the threads that call it (MHD's, the pool's loop) make a
 * few calls per job request or per work item, each a round trip of 0.1-0.3 ms
 * to a Redis on the same network.  Answering job requests asynchronously
 * would mean suspending connections and a second state machine for every
 * job endpoint, for a saving of those fractions of a millisecond.  What
 * would hurt is waiting on a Redis that is gone, so every socket has short
 * timeouts (RCONN_CONNECT_MS, RCONN_IO_MS) and the first failure opens the
 * breaker: from then on calls answer "down" without touching the network,
 * until one thread's probe (rconn_probe(), from the pool's tick) connects
 * again, with backoff from 100 ms doubling to 5 s.  A thread therefore
 * waits at most one timeout per outage; synchronous solves never call Redis
 * at all.  After a recovery every thread reconnects (a generation number),
 * so no thread keeps a socket from before the outage.
 *
 * Scripts: the Lua scripts of the job store and the cluster (server/
 * rscripts.c) are loaded on each new connection (SCRIPT LOAD) and run with
 * EVALSHA; a NOSCRIPT answer (Redis restarted empty) reloads them.
 *
 * Threads: every function may be called from any thread; each thread uses
 * its own connection (a registry under `lock` maps threads to connections,
 * and only the owning thread touches a connection).  The breaker's state is
 * under `lock`, its "up" flag also an atomic for the fast path. */
#ifndef PUZZLED_RCONN_H
#define PUZZLED_RCONN_H

#include <stddef.h>
#include <stdint.h>

#include "server/jobs/rconn_url.h"
#include "server/metrics.h"

#define RCONN_CONNECT_MS 300
#define RCONN_IO_MS      500 /* per socket read or write, not per command */

struct redisReply;

typedef struct rconn_s rconn_t;

/* Sets up the connections (none is opened yet: the first call connects).
 * `metrics` (may be NULL) gets redis_up and the failure counter.  Returns 0
 * or -1 (out of memory). */
int rconn_new(rconn_t **out, const rconn_url_t *url, metrics_t *metrics);

/* Closes every thread's connection.  Call when no other thread uses it.
 * NULL-safe. */
void rconn_free(rconn_t *rc);

/* Runs one command (binary-safe arguments) on this thread's connection.
 * Returns the reply (free it with freeReplyObject(); an error reply, such as
 * NOGROUP, is a reply), or NULL when Redis is down or the call failed (the
 * breaker is then open). */
struct redisReply *rconn_argv(rconn_t *rc, int argc, const char **argv, const size_t *lens);

/* The same with printf-style arguments (hiredis' format: %s, %b, %d, %lld). */
struct redisReply *rconn_cmd(rconn_t *rc, const char *fmt, ...);

/* EVALSHA of script `script` (an RSCRIPT_* of server/jobs/rscripts.h) with no
 * KEYS and these ARGV. */
struct redisReply *rconn_script(rconn_t *rc, int script, int argc, const char **argv,
                                const size_t *lens);

/* Pipelines n commands (argv arrays) in one round trip; fills replies[]
 * (each to be freed) and returns 0, or -1 when down (replies all NULL). */
typedef struct rconn_cmd_s {
    int argc;
    const char **argv;
    const size_t *lens;
} rconn_cmd_t;
int rconn_pipeline(rconn_t *rc, size_t n, const rconn_cmd_t *cmds, struct redisReply **replies);

/* Whether the breaker is closed (Redis answered last time); any thread. */
int rconn_up(rconn_t *rc);

/* Seconds until the next reconnection attempt (>= 1), for Retry-After. */
unsigned rconn_retry_after_s(rconn_t *rc);

/* While the breaker is open and its backoff has passed, tries to connect
 * on this thread (one probe at a time); closes the breaker on success.
 * Called from the pool's tick. */
void rconn_probe(rconn_t *rc);

/* Reply helpers (NULL-safe): an integer reply's value, or a string or
 * status reply as a long long (def when neither). */
long long rconn_int(const struct redisReply *r, long long def);
/* Whether r is an error reply (or NULL). */
int rconn_is_error(const struct redisReply *r);
void rconn_reply_free(struct redisReply *r);

#endif
