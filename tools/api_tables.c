/* api_tables.c -- prints the API as the code has it, for the test that
 * holds openapi.yaml to it (tests/contract/tables.test.mjs):
 *
 *   {"routes": [{"path", "methods": [...]}],        every route of the router
 *    "endpoints": [{"method", "path", "label", "media": [...], "batch",
 *                   "opts": [row, ...]}]}            api_endpoints[], in order
 *
 * a row being {"name", "kind", "in": ["query", "json", "fast"], "required",
 * "phase", "variants", "min", "max", "default", "enum", "only", "fields"}:
 * min, max and default are numbers, or "request.max_timeout_ms" /
 * "request.pool_threads" where the server's settings decide, or null (no
 * maximum: the row's reader or callback has its own; no default).  Built
 * with the api/ objects and server/http/router.o, so it prints exactly what
 * the server serves; `make test-contract` runs it. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint.h"
#include "server/http/router.h"

/* A bound or default: a number, a setting's name, or null. */
static json_t *limit_json(long long v) {
    if (v == API_REQ_TIMEOUT) return json_string("request.max_timeout_ms");
    if (v == API_REQ_THREADS) return json_string("request.pool_threads");
    if (v == LLONG_MAX) return json_null();
    return json_integer((json_int_t)v);
}

static json_t *names_json(const char *const *names) {
    json_t *a = json_array();
    for (size_t i = 0; names != NULL && names[i] != NULL; i++)
        json_array_append_new(a, json_string(names[i]));
    return a;
}

static json_t *table_json(const api_opt_t *table);

static json_t *row_json(const api_opt_t *o) {
    static const char *const kinds[] = {"int",  "bool",   "number",   "enum",
                                        "data", "object", "elsewhere"};
    json_t *r = json_object(), *in = json_array();
    if (o->in & API_IN_QUERY) json_array_append_new(in, json_string("query"));
    if (o->in & API_IN_JSON) json_array_append_new(in, json_string("json"));
    if (o->in & API_IN_FAST) json_array_append_new(in, json_string("fast"));
    json_object_set_new(r, "name", json_string(o->name));
    json_object_set_new(r, "kind", json_string(kinds[o->kind]));
    json_object_set_new(r, "in", in);
    json_object_set_new(r, "required", json_boolean(o->flags & API_OPT_REQUIRED));
    json_object_set_new(r, "phase", json_integer(o->phase));
    json_object_set_new(r, "variants", json_integer(o->variants));
    if (o->kind == API_OPT_INT) {
        int has_def = o->def == API_REQ_TIMEOUT || o->def == API_REQ_THREADS ||
                      (o->def >= o->lo &&
                       (o->hi == API_REQ_TIMEOUT || o->hi == API_REQ_THREADS || o->def <= o->hi));
        json_object_set_new(r, "min", limit_json(o->lo));
        json_object_set_new(r, "max", limit_json(o->hi));
        json_object_set_new(r, "default", has_def ? limit_json(o->def) : json_null());
        if (o->only != NULL) {
            json_t *only = json_array();
            for (const long long *k = o->only; *k != LLONG_MIN; k++)
                json_array_append_new(only, json_integer((json_int_t)*k));
            json_object_set_new(r, "only", only);
        }
    } else if (o->kind == API_OPT_NUMBER) {
        json_object_set_new(r, "min", json_real(o->num_lo));
        json_object_set_new(r, "max", json_real(o->num_hi));
        json_object_set_new(r, "default",
                            o->num_def >= o->num_lo && o->num_def <= o->num_hi
                                ? json_real(o->num_def)
                                : json_null());
    } else if (o->kind == API_OPT_BOOL) {
        json_object_set_new(r, "default", json_boolean(o->def));
    } else if (o->kind == API_OPT_ENUM) {
        json_object_set_new(r, "enum", names_json(o->names));
        json_object_set_new(r, "default",
                            o->def >= 0 ? json_string(o->names[o->def]) : json_null());
    }
    if (o->fields != NULL) json_object_set_new(r, "fields", table_json(o->fields));
    return r;
}

static json_t *table_json(const api_opt_t *table) {
    json_t *a = json_array();
    for (const api_opt_t *o = table; o != NULL && o->name != NULL; o++)
        json_array_append_new(a, row_json(o));
    return a;
}

/* Every path of the router and its methods (its Allow header, less HEAD
 * and OPTIONS, which every path has). */
static json_t *routes_json(void) {
    json_t *routes = json_array();
    for (size_t i = 0; i < router_npaths(); i++) {
        const char *path = router_path(i);
        const route_t *route;
        size_t pidx;
        char allow[128], *save = NULL;
        json_t *methods = json_array();
        router_match("OPTIONS", path, &route, &pidx, allow, sizeof allow);
        for (char *m = strtok_r(allow, ", ", &save); m != NULL; m = strtok_r(NULL, ", ", &save))
            if (strcmp(m, "HEAD") != 0 && strcmp(m, "OPTIONS") != 0)
                json_array_append_new(methods, json_string(m));
        json_array_append_new(routes, json_pack("{s:s, s:o}", "path", path, "methods", methods));
    }
    return routes;
}

int main(void) {
    json_t *eps = json_array(), *root;
    for (size_t i = 0; api_endpoints[i] != NULL; i++) {
        const api_endpoint_t *ep = api_endpoints[i];
        json_array_append_new(
            eps, json_pack("{s:s, s:s, s:s, s:o, s:b, s:o}", "method", ep->method, "path", ep->path,
                           "label", ep->label, "media", names_json(ep->media), "batch",
                           (ep->flags & API_EP_BATCH) != 0, "opts", table_json(ep->opts)));
    }
    root = json_pack("{s:o, s:o}", "routes", routes_json(), "endpoints", eps);
    if (root == NULL || json_dumpf(root, stdout, JSON_INDENT(1)) != 0) return 1;
    putchar('\n');
    json_decref(root);
    return 0;
}
