/* router.h -- the table of routes: method + path -> handler.  The API's
 * routes are api_endpoints[] (api/endpoint.h); router.c adds the server's own. */
#ifndef PUZZLED_ROUTER_H
#define PUZZLED_ROUTER_H

#include <stddef.h>

#include "api/request.h"

typedef enum route_kind_e {
    ROUTE_API,     /* an api/ endpoint: prepare, then run on the pool */
    ROUTE_HEALTHZ, /* answered by the server itself, never queued */
    ROUTE_READYZ,
    ROUTE_METRICS,
    ROUTE_JOBS,   /* /v1/jobs...: answered by server/jobs/jobs.c, never queued */
    ROUTE_STATIC, /* a file of the web front end (server/http/static.c), on the HTTP thread */
} route_kind_t;

struct api_endpoint_s;

typedef struct route_s {
    const char *method;
    const char *path;
    route_kind_t kind;
    api_prepare_fn prepare;          /* ROUTE_API only */
    int batch;                       /* takes a batch: --max-batch-body, not --max-body */
    const struct api_endpoint_s *ep; /* ROUTE_API: its description (api/endpoint.h) */
} route_t;

#define ROUTER_FOUND      0
#define ROUTER_NOT_FOUND  (-1)
#define ROUTER_BAD_METHOD (-2)
#define ROUTER_PREFLIGHT  1 /* OPTIONS on a known path */

/* Looks up method + path.  Returns ROUTER_FOUND with *route set,
 * ROUTER_PREFLIGHT, ROUTER_BAD_METHOD or ROUTER_NOT_FOUND.  For every known
 * path *path_index is its index (0..router_npaths()-1) and `allow` receives
 * the Allow header value; for an unknown path *path_index is router_npaths().
 * HEAD is served by the GET route.  Outside /v1/ and the operational paths
 * every path is the front end's ("/" in the table: it names its file, and
 * the static site answers 404 when there is none). */
int router_match(const char *method, const char *path, const route_t **route, size_t *path_index,
                 char *allow, size_t allow_cap);

/* Distinct paths in table order (metrics labels). */
size_t router_npaths(void);
const char *router_path(size_t i);

#endif
