/* http.h -- the HTTP front: libmicrohttpd in internal-thread epoll mode,
 * routing, body limits, problem+json errors, CORS, request ids, access log,
 * and the hand-off of solving work to the pool. */
#ifndef PUZZLED_HTTP_H
#define PUZZLED_HTTP_H

#include <stdint.h>

#include "server/config.h"
#include "server/jobs/jobs.h"
#include "server/metrics.h"
#include "server/pool.h"

typedef struct http_server_s http_server_t;

/* Binds and starts serving.  `cfg`, `pool`, `metrics` and `jobs` must
 * outlive the server; `jobs` may be NULL (no async jobs).  Returns 0, or -1
 * after logging why (address in use, ...). */
int http_server_start(http_server_t **out, const config_t *cfg, pool_t *pool, metrics_t *metrics,
                      jobs_t *jobs);

/* The bound port (useful with port 0). */
unsigned http_server_port(const http_server_t *s);

/* Begins a graceful shutdown: /readyz answers 503, new jobs are refused with
 * 503, answers carry "Connection: close", and a new connection is closed as
 * soon as it is accepted (not refused by the kernel: see http.c for why the
 * listening socket stays open until http_server_stop()).  Idempotent; any
 * thread. */
void http_server_drain(http_server_t *s);

/* Requests between their first byte and their completion. */
long http_server_active(http_server_t *s);

/* Stops the daemon and frees the server; requires that no request is waiting
 * on the pool (pool_inflight() == 0).  NULL-safe. */
void http_server_stop(http_server_t *s);

#endif
