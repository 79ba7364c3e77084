/* endpoint.h -- the API as data: each endpoint one description, and the one
 * list of them that everything else reads.
 *
 * An endpoint file (api/killer_api.c, ...) describes each of its endpoints
 * once, as an api_endpoint_t named api_ep_<something> and defined on a line
 * of its own:
 *
 *   const api_endpoint_t api_ep_killer_solve = {
 *       .method = "POST", .path = "/v1/killer/solve", .label = "killer",
 *       .media = kl_media, .opts = kl_opts, .prepare = api_killer_solve_prepare};
 *
 * The Makefile collects those definitions from API_SRC, in its order and
 * each file's, into api_endpoints[] (build/gen/api_endpoints.c), so that a
 * new endpoint is listed by existing, with no list to edit.  What reads the
 * list: the router (server/http/router.c: the routes, the Allow headers,
 * the metrics' path and puzzle labels), cluster mode (a job rebuilt from
 * its stored request), the fuzzer (endpoints by name), the
 * allocation-failure walks (tests/test_nomem.c: every endpoint walked), and
 * tools/api_tables.c, whose dump tests/contract/tables.test.mjs compares
 * with openapi.yaml (paths, parameters, body members, types, ranges,
 * defaults, enums, media types).
 *
 * Everything here is const: descriptions, tables and the list. */
#ifndef PUZZLED_API_ENDPOINT_H
#define PUZZLED_API_ENDPOINT_H

#include <stddef.h>

#include "api/opts.h"
#include "api/request.h"

/* api_endpoint_t.flags */
#define API_EP_BATCH 1u /* reads a batch: bodies up to --max-batch-body, not --max-body */

typedef struct api_endpoint_s {
    const char *method; /* "GET" or "POST" (GET answers HEAD too) */
    const char *path;   /* "/v1/killer/solve"; with the method, the endpoint's name */
    const char *label;  /* the puzzle it is about ("killer"), for metrics */
    /* The body's media types it reads, NULL-terminated (NULL: no body).  A
     * JSON endpoint also takes a body without a Content-Type, and curl's
     * default form type when the body is a JSON object (api_json_content_type). */
    const char *const *media;
    const api_opt_t *opts; /* its query parameters and body members (api/opts.h) */
    api_prepare_fn prepare;
    unsigned flags; /* API_EP_* */
} api_endpoint_t;

/* Every endpoint, NULL-terminated, in API_SRC's order (see above). */
extern const api_endpoint_t *const api_endpoints[];

/* A hand-over: endpoint `ep` gives a request it does not read itself to
 * `prepare`, a reader above it (the Sudoku endpoints give a body with a
 * variant field to api/sudoku_variant_api.c).  Defined, like an endpoint,
 * as `const api_handover_t api_ho_<name> = {` at the start of a line of
 * API_SRC, and collected by the Makefile into api_handovers[] (the same
 * generated file): so the endpoint reaches that reader through the list,
 * and the reader may use the endpoint's module without a circle of
 * #includes (tools/check_includes.sh). */
typedef struct api_handover_s {
    const api_endpoint_t *ep; /* whose requests */
    api_prepare_fn prepare;   /* who reads them */
} api_handover_t;

/* Every hand-over, NULL-terminated. */
extern const api_handover_t *const api_handovers[];

/* ep's hand-over prepare() on req, as every api_prepare_fn; a 500 when ep
 * has none (a bug: the endpoint handed over what nobody reads). */
int api_endpoint_hand_over(const api_endpoint_t *ep, const api_request_t *req, api_job_t **job,
                           api_response_t *resp);

/* The endpoint `method` `path` names ("HEAD" finds the GET one), or NULL. */
const api_endpoint_t *api_endpoint_find(const char *method, const char *path);

/* The 415 problem of an endpoint that reads ep->media: "send A, B or C",
 * naming the Content-Type as unsupported. */
void api_endpoint_media_problem(const api_endpoint_t *ep, const api_request_t *req,
                                api_problem_t *p);

#endif
