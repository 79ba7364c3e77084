/* router.c -- the table of routes; lookup is a linear scan, which for a
 * few dozen routes is faster than anything cleverer and obviously correct.
 *
 * The table is built once (pthread_once) from three parts: the server's own
 * routes (health, readiness, metrics, the web front end), every endpoint of
 * api_endpoints[] (api/endpoint.h: the one list), and the jobs resource.
 * The endpoints come grouped by puzzle (their label), the puzzles in the
 * order they first appear in the list and each puzzle's endpoints in list
 * order, so that /metrics names a puzzle's paths together whatever file
 * defines them (the generation endpoints live in api/generate_api.c).
 *
 * Paths match exactly (no trailing-slash folding), except that a "{id}"
 * segment of a route matches any one non-empty segment (the jobs resource);
 * every other variable part travels in the query string or the body.  The
 * route's path, with "{id}" as written, is the metrics label.  And any other
 * path outside /v1/ is a file of the web front end and takes the static
 * route "/" (server/http/static.c answers it, or 404).  An endpoint marked
 * API_EP_BATCH reads bodies up to --max-batch-body instead of --max-body. */
#include "server/http/router.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "api/endpoint.h"

#define ROUTER_MAX 64

static const route_t head_routes[] = {
    {"GET", "/healthz", ROUTE_HEALTHZ, NULL, 0, NULL},
    {"GET", "/readyz", ROUTE_READYZ, NULL, 0, NULL},
    {"GET", "/metrics", ROUTE_METRICS, NULL, 0, NULL},
    {"GET", "/", ROUTE_STATIC, NULL, 0, NULL},
};
static const route_t tail_routes[] = {
    {"GET", "/v1/jobs", ROUTE_JOBS, NULL, 0, NULL},
    {"GET", "/v1/jobs/{id}", ROUTE_JOBS, NULL, 0, NULL},
    {"DELETE", "/v1/jobs/{id}", ROUTE_JOBS, NULL, 0, NULL},
    {"GET", "/v1/jobs/{id}/events", ROUTE_JOBS, NULL, 0, NULL},
    {"GET", "/v1/jobs/{id}/result", ROUTE_JOBS, NULL, 0, NULL},
};

/* Built once by router_build() (pthread_once), read-only afterwards: the
 * routes, each one's path index among the distinct paths (metrics labels,
 * in table order). */
static route_t routes[ROUTER_MAX];
static size_t nroutes;
static size_t route_pidx[ROUTER_MAX];
static size_t route_npaths;
static pthread_once_t route_once = PTHREAD_ONCE_INIT;

static void router_add(const route_t *r) {
    assert(nroutes < ROUTER_MAX); /* raise ROUTER_MAX: a route must never be dropped */
    routes[nroutes++] = *r;
}

/* Whether an earlier endpoint of the list has `label`. */
static int router_label_seen(size_t upto, const char *label) {
    for (size_t i = 0; i < upto; i++)
        if (strcmp(api_endpoints[i]->label, label) == 0) return 1;
    return 0;
}

static void router_build(void) {
    for (size_t i = 0; i < sizeof head_routes / sizeof head_routes[0]; i++)
        router_add(&head_routes[i]);
    for (size_t i = 0; api_endpoints[i] != NULL; i++) {
        if (router_label_seen(i, api_endpoints[i]->label)) continue; /* its group is in */
        for (size_t j = i; api_endpoints[j] != NULL; j++) {
            const api_endpoint_t *ep = api_endpoints[j];
            if (strcmp(ep->label, api_endpoints[i]->label) != 0) continue;
            route_t r = {
                ep->method, ep->path, ROUTE_API, ep->prepare, (ep->flags & API_EP_BATCH) != 0, ep};
            router_add(&r);
        }
    }
    for (size_t i = 0; i < sizeof tail_routes / sizeof tail_routes[0]; i++)
        router_add(&tail_routes[i]);
    for (size_t i = 0; i < nroutes; i++) {
        size_t j = 0;
        while (j < i && strcmp(routes[j].path, routes[i].path) != 0)
            j++;
        route_pidx[i] = j == i ? route_npaths++ : route_pidx[j];
    }
}

size_t router_npaths(void) {
    pthread_once(&route_once, router_build);
    return route_npaths;
}

const char *router_path(size_t k) {
    pthread_once(&route_once, router_build);
    for (size_t i = 0; i < nroutes; i++)
        if (route_pidx[i] == k) return routes[i].path;
    return NULL;
}

/* Whether `path` fits the route path `tmpl` ("{id}" = one non-empty
 * segment). */
static int router_fits(const char *tmpl, const char *path) {
    while (*tmpl != '\0') {
        if (strncmp(tmpl, "{id}", 4) == 0) {
            size_t k = strcspn(path, "/");
            if (k == 0) return 0;
            path += k;
            tmpl += 4;
        } else if (*tmpl++ != *path++) {
            return 0;
        }
    }
    return *path == '\0';
}

static size_t router_path_index(const char *path) {
    pthread_once(&route_once, router_build);
    for (size_t i = 0; i < nroutes; i++)
        if (router_fits(routes[i].path, path)) return route_pidx[i];
    return route_npaths;
}

int router_match(const char *method, const char *path, const route_t **route, size_t *path_index,
                 char *allow, size_t allow_cap) {
    const char *want = strcmp(method, "HEAD") == 0 ? "GET" : method;
    int known = 0;
    size_t used = 0;

    pthread_once(&route_once, router_build);
    *route = NULL;
    allow[0] = '\0';
    if (strncmp(path, "/v1/", 4) != 0 && router_path_index(path) == router_npaths())
        path = "/"; /* a file of the web front end: the static route */
    for (size_t i = 0; i < nroutes; i++) {
        if (!router_fits(routes[i].path, path)) continue;
        known = 1;
        if (strcmp(routes[i].method, want) == 0) *route = &routes[i];
        used += (size_t)snprintf(allow + used, used < allow_cap ? allow_cap - used : 0, "%s%s",
                                 used ? ", " : "", routes[i].method);
        if (strcmp(routes[i].method, "GET") == 0)
            used +=
                (size_t)snprintf(allow + used, used < allow_cap ? allow_cap - used : 0, ", HEAD");
    }
    *path_index = router_path_index(path);
    if (!known) return ROUTER_NOT_FOUND;
    snprintf(allow + used, used < allow_cap ? allow_cap - used : 0, ", OPTIONS");
    if (strcmp(method, "OPTIONS") == 0) return ROUTER_PREFLIGHT;
    return *route ? ROUTER_FOUND : ROUTER_BAD_METHOD;
}
