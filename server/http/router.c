/* router.c -- a constant table of routes; lookup is a linear scan, which for
 * a dozen routes is faster than anything cleverer and obviously correct.
 * Paths match exactly (no trailing-slash folding), except that a "{id}"
 * segment of a route matches any one non-empty segment (the jobs resource);
 * every other variable part travels in the query string or the body.  The
 * route's path, with "{id}" as written, is the metrics label.  And any other
 * path outside /v1/ is a file of the web front end and takes the static
 * route "/" (server/http/static.c answers it, or 404).  A route marked
 * `batch` reads bodies up to --max-batch-body instead of --max-body. */
#include "server/http/router.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "api/nqueens_api.h"
#include "api/sudoku_api.h"
#include "api/sudoku_batch.h"
#include "api/sudoku_logic_api.h"
#include "api/generate_api.h"
#include "api/killer_api.h"
#include "api/nqueens_board_api.h"
#include "api/xcover_api.h"

static const route_t routes[] = {
    {"GET", "/healthz", ROUTE_HEALTHZ, NULL, 0},
    {"GET", "/readyz", ROUTE_READYZ, NULL, 0},
    {"GET", "/metrics", ROUTE_METRICS, NULL, 0},
    {"GET", "/", ROUTE_STATIC, NULL, 0},
    {"GET", "/v1/nqueens/count", ROUTE_API, api_nqueens_count_prepare, 0},
    {"GET", "/v1/nqueens/solve", ROUTE_API, api_nqueens_solve_prepare, 0},
    {"POST", "/v1/nqueens/solve", ROUTE_API, api_nqueens_solve_post_prepare, 0},
    {"POST", "/v1/nqueens/count", ROUTE_API, api_nqueens_count_post_prepare, 0},
    {"POST", "/v1/nqueens/analyze", ROUTE_API, api_nqueens_analyze_prepare, 0},
    {"GET", "/v1/nqueens/solutions", ROUTE_API, api_nqueens_solutions_prepare, 0},
    {"POST", "/v1/sudoku/solve", ROUTE_API, api_sudoku_solve_prepare, 0},
    {"POST", "/v1/sudoku/validate", ROUTE_API, api_sudoku_validate_prepare, 0},
    {"POST", "/v1/sudoku/batch", ROUTE_API, api_sudoku_batch_prepare, 1},
    {"POST", "/v1/sudoku/grade", ROUTE_API, api_sudoku_grade_prepare, 0},
    {"POST", "/v1/sudoku/hint", ROUTE_API, api_sudoku_hint_prepare, 0},
    {"POST", "/v1/sudoku/generate", ROUTE_API, api_sudoku_generate_prepare, 0},
    {"POST", "/v1/killer/solve", ROUTE_API, api_killer_solve_prepare, 0},
    {"POST", "/v1/killer/generate", ROUTE_API, api_killer_generate_prepare, 0},
    {"POST", "/v1/exact-cover/solve", ROUTE_API, api_xcover_solve_prepare, 0},
    {"GET", "/v1/jobs", ROUTE_JOBS, NULL, 0},
    {"GET", "/v1/jobs/{id}", ROUTE_JOBS, NULL, 0},
    {"DELETE", "/v1/jobs/{id}", ROUTE_JOBS, NULL, 0},
    {"GET", "/v1/jobs/{id}/events", ROUTE_JOBS, NULL, 0},
    {"GET", "/v1/jobs/{id}/result", ROUTE_JOBS, NULL, 0},
};
#define NROUTES (sizeof routes / sizeof routes[0])

/* Each route's path index among the distinct paths (metrics labels), in
 * table order; computed once (pthread_once), read-only afterwards. */
static size_t route_pidx[NROUTES];
static size_t route_npaths;
static pthread_once_t route_once = PTHREAD_ONCE_INIT;

static void router_index(void) {
    for (size_t i = 0; i < NROUTES; i++) {
        size_t j = 0;
        while (j < i && strcmp(routes[j].path, routes[i].path) != 0)
            j++;
        route_pidx[i] = j == i ? route_npaths++ : route_pidx[j];
    }
}

size_t router_npaths(void) {
    pthread_once(&route_once, router_index);
    return route_npaths;
}

const char *router_path(size_t k) {
    pthread_once(&route_once, router_index);
    for (size_t i = 0; i < NROUTES; i++)
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
    pthread_once(&route_once, router_index);
    for (size_t i = 0; i < NROUTES; i++)
        if (router_fits(routes[i].path, path)) return route_pidx[i];
    return route_npaths;
}

int router_match(const char *method, const char *path, const route_t **route, size_t *path_index,
                 char *allow, size_t allow_cap) {
    const char *want = strcmp(method, "HEAD") == 0 ? "GET" : method;
    int known = 0;
    size_t used = 0;

    *route = NULL;
    allow[0] = '\0';
    if (strncmp(path, "/v1/", 4) != 0 && router_path_index(path) == router_npaths())
        path = "/"; /* a file of the web front end: the static route */
    for (size_t i = 0; i < NROUTES; i++) {
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
