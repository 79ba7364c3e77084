/* xcover_api.c -- exact cover for anyone: names in, option indices out.
 *
 * Body: {"items": [names], "secondary": [names], "options": [[name, ...], ...],
 *        "max_solutions": K (1..10000, default 1), "timeout_ms": T,
 *        "threads": P (1..pool, default 1), "method": "dlx" | "algorithm-x"}
 * Answer: {"status", "solutions": [[option index ascending, ...], ...],
 *          "solutions_found", "complete", "stats": {...}}
 *
 * Names are mapped to item numbers through an open-addressing hash table
 * built per request (FNV-1a; twice as many slots as names).  Everything a
 * client can get wrong is a 400 naming where: items[k] (not a non-empty
 * string, too long, a repeat), options[k] (not an array, empty, past the
 * limits), options[k][j] (not a string, unknown, twice in one option).  The
 * builder (xcover_problem_new) checks the same things again; it is the
 * solver's own line of defence, not the client's error messages. */
#include "api/xcover_api.h"

#include <jansson.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint.h"
#include "api/json_util.h"
#include "api/json_writer.h"
#include "api/xc_job.h"
#include "solvers/xcover/xcover.h"

typedef struct names_s {
    const char **key; /* borrowed from the JSON document */
    uint32_t *val;
    size_t cap; /* power of two */
} names_t;

static uint64_t names_hash(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int names_init(names_t *t, size_t n) {
    t->cap = 16;
    while (t->cap < 2 * n)
        t->cap *= 2;
    t->key = calloc(t->cap, sizeof *t->key);
    t->val = malloc(t->cap * sizeof *t->val);
    return t->key && t->val ? 0 : -1;
}

/* Returns the slot of `s`: its key is s when present, NULL when free. */
static size_t names_slot(const names_t *t, const char *s) {
    size_t i = (size_t)names_hash(s) & (t->cap - 1);
    while (t->key[i] != NULL && strcmp(t->key[i], s) != 0)
        i = (i + 1) & (t->cap - 1);
    return i;
}

static void names_free(names_t *t) {
    free(t->key);
    free(t->val);
}

typedef struct xcj_s {
    api_job_t base;
    xcover_problem_t *problem;
    api_xc_t xc;
    uint64_t max_solutions;
} xcj_t;

static int xcj_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    return api_xc_run(&((xcj_t *)job)->xc, item, ctl);
}

static int xcj_merge(api_job_t *job, size_t item, int rc) {
    return api_xc_merge(&((xcj_t *)job)->xc, job, item, rc);
}

static const char *xcj_status(const api_xc_t *x) {
    if (x->found >= 2) return "multiple";
    if (x->found == 1) return "solved";
    if (x->rc == 0) return "unsolvable";
    return x->rc == SEARCH_CANCELLED ? "cancelled" : "timeout";
}

static void xcj_render(api_job_t *job, api_response_t *out) {
    xcj_t *j = (xcj_t *)job;
    api_xc_t *x = &j->xc;
    if (x->rc == SEARCH_ENOMEM || x->rc == SEARCH_EINVAL) {
        api_problem_t p;
        api_problem_init(&p, x->rc == SEARCH_ENOMEM ? API_ENOMEM : API_EINTERNAL,
                         "the exact-cover search failed: %s (%s)", search_code_str(x->rc),
                         search_code_name(x->rc));
        api_response_problem(out, &p);
        return;
    }
    api_xc_finish(x);
    api_jw_t w; /* written straight into the answer (api/json_writer.h) */
    api_jw_init(&w);
    api_jw_obj(&w);
    api_jw_key(&w, "status");
    api_jw_cstr(&w, xcj_status(x));
    api_jw_key(&w, "solutions");
    api_jw_arr(&w);
    for (size_t k = 0; k < x->nsols; k++) {
        const uint32_t *o;
        size_t n = api_xc_solution(x, k, &o);
        api_jw_arr(&w);
        for (size_t i = 0; i < n; i++)
            api_jw_int(&w, o[i]);
        api_jw_end_arr(&w);
    }
    api_jw_end_arr(&w);
    api_jw_key(&w, "solutions_found");
    api_jw_int(&w, (long long)x->found);
    api_jw_key(&w, "complete");
    api_jw_bool(&w, x->rc == 0 && x->exhausted);
    api_jw_key(&w, "stats");
    api_jw_obj(&w);
    api_jw_key(&w, "method");
    api_jw_cstr(&w, xcover_engine_name(x->engine));
    api_jw_key(&w, "nodes");
    api_jw_int(&w, (long long)x->stats.nodes);
    api_jw_key(&w, "backtracks");
    api_jw_int(&w, (long long)x->stats.backtracks);
    api_jw_key(&w, "max_depth");
    api_jw_int(&w, (long long)x->stats.max_depth);
    api_jw_key(&w, "subproblems");
    api_jw_int(&w, (long long)x->subtrees);
    api_jw_key(&w, "threads");
    api_jw_int(&w, (long long)job->threads);
    api_jw_key(&w, "elapsed_ms");
    api_jw_real(&w, api_elapsed_ms(job->start_ns, search_now_ns()));
    api_jw_end_obj(&w);
    api_jw_end_obj(&w);
    api_jw_respond(&w, 200, out);
}

static void xcj_free(api_job_t *job) {
    xcj_t *j = (xcj_t *)job;
    if (j == NULL) return;
    api_xc_destroy(&j->xc);
    xcover_problem_free(j->problem);
    free(j);
}

static const api_job_ops_t xcj_ops = {"exact-cover", xcj_run, xcj_merge, xcj_render, xcj_free, 0,
                                      NULL,          NULL,    NULL,      NULL};

/* Reads items or secondary names into the table; returns 0 or -1. */
static int xcj_names(json_t *list, const char *field, names_t *t, uint32_t first,
                     api_problem_t *p) {
    size_t k;
    json_t *v;
    int bad = 0;
    json_array_foreach(list, k, v) {
        char f[48]; /* the field's name, written only for an error: this loop is hot */
        if (!json_is_string(v) || json_string_length(v) == 0 ||
            json_string_length(v) > API_XCOVER_NAME_MAX ||
            strlen(json_string_value(v)) != json_string_length(v)) {
            snprintf(f, sizeof f, "%s[%zu]", field, k);
            api_problem_add(p, "body", f, "must be a non-empty string of at most %d bytes",
                            API_XCOVER_NAME_MAX);
            bad = 1;
            continue;
        }
        size_t slot = names_slot(t, json_string_value(v));
        if (t->key[slot] != NULL) {
            snprintf(f, sizeof f, "%s[%zu]", field, k);
            api_problem_add(p, "body", f, "'%.60s' is named twice", json_string_value(v));
            bad = 1;
            continue;
        }
        t->key[slot] = json_string_value(v);
        t->val[slot] = first + (uint32_t)k;
    }
    return bad ? -1 : 0;
}

/* === What the body asks: the table === */

typedef struct xcj_in_s {
    json_t *items, *secondary, *options; /* borrowed from the document */
    long long max_solutions, timeout_ms, threads;
    int method; /* index in xcj_methods */
} xcj_in_t;

static const char *const xcj_media[] = {"application/json", NULL};
static const char *const xcj_methods[] = {"dlx", "algorithm-x", NULL};

/* items, secondary, options: each an array (the names are read later,
 * against each other), kept at o->at; otherwise o->msg names it. */
static int xcj_list(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                    void *out, api_problem_t *p) {
    (void)req, (void)root;
    *(json_t **)((char *)out + o->at) = v;
    if (json_is_array(v)) return 0;
    api_problem_add(p, "body", o->name, "%s", o->msg);
    return -1;
}

#define XCJ_AT(f) offsetof(xcj_in_t, f)
static const api_opt_t xcj_opts[] = {{.name = "max_solutions",
                                      .kind = API_OPT_INT,
                                      .in = API_IN_JSON,
                                      .lo = 1,
                                      .hi = 10000,
                                      .def = 1,
                                      .at = XCJ_AT(max_solutions)},
                                     {.name = "timeout_ms",
                                      .kind = API_OPT_INT,
                                      .in = API_IN_JSON,
                                      .lo = 1,
                                      .hi = API_REQ_TIMEOUT,
                                      .def = API_REQ_TIMEOUT,
                                      .at = XCJ_AT(timeout_ms)},
                                     {.name = "threads",
                                      .kind = API_OPT_INT,
                                      .in = API_IN_JSON,
                                      .lo = 1,
                                      .hi = API_REQ_THREADS,
                                      .def = 1,
                                      .at = XCJ_AT(threads)},
                                     {.name = "method",
                                      .kind = API_OPT_ENUM,
                                      .in = API_IN_JSON,
                                      .names = xcj_methods,
                                      .def = 0,
                                      .msg = "must be dlx or algorithm-x",
                                      .at = XCJ_AT(method)},
                                     {.name = "items",
                                      .kind = API_OPT_DATA,
                                      .in = API_IN_JSON,
                                      .flags = API_OPT_REQUIRED | API_OPT_ABSENT,
                                      .msg = "required: an array of item names",
                                      .at = XCJ_AT(items),
                                      .json = xcj_list},
                                     {.name = "secondary",
                                      .kind = API_OPT_DATA,
                                      .in = API_IN_JSON,
                                      .msg = "must be an array of item names",
                                      .at = XCJ_AT(secondary),
                                      .json = xcj_list},
                                     {.name = "options",
                                      .kind = API_OPT_DATA,
                                      .in = API_IN_JSON,
                                      .flags = API_OPT_REQUIRED | API_OPT_ABSENT,
                                      .msg = "required: an array of options (arrays of item names)",
                                      .at = XCJ_AT(options),
                                      .json = xcj_list},
                                     {0}};

/* The options as item numbers in compressed rows: start[k] (nopt + 1 of
 * them, the caller's) and *entries (allocated here; the caller frees it,
 * also on failure).  0, -1 (errors in p) or -2 (out of memory). */
static int xcj_option_rows(json_t *options, const names_t *names, uint32_t *start,
                           uint32_t **entries, api_problem_t *p) {
    size_t nent = 0, k;
    json_t *v;
    int bad = 0;
    json_array_foreach(options, k, v) nent += json_array_size(v);
    if (nent > XCOVER_MAX_NODES) {
        api_problem_add(p, "body", "options", "at most %u item entries over all options",
                        XCOVER_MAX_NODES);
        return -1;
    }
    *entries = malloc((nent ? nent : 1) * sizeof **entries);
    if (*entries == NULL) return -2;
    nent = 0;
    json_array_foreach(options, k, v) {
        char f[64];
        size_t i;
        json_t *name;
        start[k] = (uint32_t)nent;
        if (!json_is_array(v) || json_array_size(v) == 0) {
            snprintf(f, sizeof f, "options[%zu]", k);
            api_problem_add(p, "body", f,
                            json_is_array(v) ? "an option needs at least one item"
                                             : "must be an array of item names");
            bad = 1;
            continue;
        }
        json_array_foreach(v, i, name) { /* f written only for an error: this loop is hot */
            if (!json_is_string(name)) {
                snprintf(f, sizeof f, "options[%zu][%zu]", k, i);
                api_problem_add(p, "body", f, "must be an item name (a string)");
                bad = 1;
                continue;
            }
            size_t slot = names_slot(names, json_string_value(name));
            if (names->key[slot] == NULL) {
                snprintf(f, sizeof f, "options[%zu][%zu]", k, i);
                api_problem_add(p, "body", f, "unknown item '%.60s'", json_string_value(name));
                bad = 1;
                continue;
            }
            uint32_t item = names->val[slot];
            for (size_t e = start[k]; e < nent; e++)
                if ((*entries)[e] == item) {
                    snprintf(f, sizeof f, "options[%zu][%zu]", k, i);
                    api_problem_add(p, "body", f, "item '%.60s' appears twice in this option",
                                    json_string_value(name));
                    bad = 1;
                }
            (*entries)[nent++] = item;
        }
        if (p->nerrors >= API_PROBLEM_MAX_ERRORS) break;
    }
    start[json_array_size(options)] = (uint32_t)nent;
    return bad ? -1 : 0;
}

int api_xcover_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    static const char *const none[] = {NULL};
    api_problem_t p;
    json_t *root = NULL;
    names_t names = {NULL, NULL, 0};
    uint32_t *start = NULL, *entries = NULL;
    xcj_t *j = NULL;
    xcj_in_t in = {0};
    xcover_engine_t engine;
    size_t nitems, nsec, nopt;
    int bad = 0, rc;

    *job = NULL;
    api_problem_init(&p, API_EINVALID, "the exact-cover problem is not valid");
    if (!api_json_content_type(req)) {
        api_endpoint_media_problem(&api_ep_xcover_solve, req, &p);
        goto fail;
    }
    bad |= api_params_check(req, none, &p) != 0;
    if ((root = api_json_object(req, &p)) == NULL) goto fail;
    api_opts_defaults(xcj_opts, req, &in);
    bad |= api_opts_json(xcj_opts, req, root, 0, &in, &p) != 0;
    if (bad) goto fail;
    xcover_engine_parse(xcj_methods[in.method], &engine);
    nitems = json_array_size(in.items);
    nsec = json_array_size(in.secondary);
    nopt = json_array_size(in.options);
    if (nitems + nsec > XCOVER_MAX_ITEMS) {
        api_problem_add(&p, "body", "items", "at most %u items (primary and secondary)",
                        XCOVER_MAX_ITEMS);
        goto fail;
    }
    if (nopt > XCOVER_MAX_OPTIONS) {
        api_problem_add(&p, "body", "options", "at most %u options", XCOVER_MAX_OPTIONS);
        goto fail;
    }
    if (names_init(&names, nitems + nsec) != 0) goto nomem;
    bad |= xcj_names(in.items, "items", &names, 0, &p) != 0;
    if (in.secondary)
        bad |= xcj_names(in.secondary, "secondary", &names, (uint32_t)nitems, &p) != 0;
    if (bad) goto fail;

    start = malloc((nopt + 1) * sizeof *start);
    if (start == NULL) goto nomem;
    rc = xcj_option_rows(in.options, &names, start, &entries, &p);
    if (rc == -2) goto nomem;
    if (rc != 0) goto fail;

    j = calloc(1, sizeof *j);
    if (j == NULL) goto nomem;
    xcover_spec_t spec = {(uint32_t)nitems, (uint32_t)nsec, (uint32_t)nopt, start, entries};
    xcover_diag_t diag;
    rc = xcover_problem_new(&spec, NULL, &j->problem, &diag);
    if (rc == SEARCH_ENOMEM) goto nomem;
    if (rc != 0) { /* the checks above should have caught it; name the option anyway */
        char f[48];
        snprintf(f, sizeof f, "options[%u]", diag.option);
        api_problem_add(&p, "body", f, "rejected by the solver: %s (%s)", search_code_str(rc),
                        search_code_name(rc));
        goto fail;
    }
    if (api_xc_init(&j->xc, j->problem, engine, (uint64_t)in.max_solutions, (unsigned)in.threads,
                    NULL, 0) != 0)
        goto nomem;
    j->base.inline_ok = in.threads == 1; /* one item, restartable (api_xc_run) */
    api_job_ready(&j->base, &xcj_ops, 1, (unsigned)in.threads, in.timeout_ms, job);
    names_free(&names);
    free(start);
    free(entries);
    json_decref(root);
    return 0;

nomem:
    api_problem_init(&p, API_ENOMEM, "out of memory for this problem");
fail:
    xcj_free(j ? &j->base : NULL);
    names_free(&names);
    free(start);
    free(entries);
    json_decref(root);
    api_response_problem(resp, &p);
    return p.code;
}

const api_endpoint_t api_ep_xcover_solve = {.method = "POST",
                                            .path = "/v1/exact-cover/solve",
                                            .label = "exact-cover",
                                            .media = xcj_media,
                                            .opts = xcj_opts,
                                            .prepare = api_xcover_solve_prepare};
