/* problem.c -- error code table and RFC 9457 rendering.
 *
 * The table below is the only place that knows which HTTP status and problem
 * type an error code becomes; handlers speak in API_E* codes.  Problem types
 * are relative URI references ("/problems/<slug>"), which RFC 9457 allows and
 * which resolve against the service's own origin; openapi.yaml lists them. */
#include "api/problem.h"

#include "api/json_dump.h"

#include "solvers/search.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct problem_kind_s {
    int code;
    const char *name;
    int status;
    const char *type;
    const char *title;
} problem_kind_t;

#define PROBLEM_KIND(c, status, type, title)                                                       \
    { c, #c, status, type, title }

static const problem_kind_t problem_kinds[] = {
    PROBLEM_KIND(API_EINVALID, 400, "/problems/invalid-request", "The request is not valid"),
    PROBLEM_KIND(API_ENOTFOUND, 404, "/problems/not-found", "No such resource"),
    PROBLEM_KIND(API_EMETHOD, 405, "/problems/method-not-allowed",
                 "Method not allowed on this resource"),
    PROBLEM_KIND(API_ETOOLARGE, 413, "/problems/payload-too-large",
                 "The request body is too large"),
    PROBLEM_KIND(API_EMEDIA, 415, "/problems/unsupported-media-type", "Unsupported content type"),
    PROBLEM_KIND(API_EUNPROCESSABLE, 422, "/problems/unprocessable",
                 "The puzzle contradicts itself"),
    PROBLEM_KIND(API_ENOTUNIQUE, 422, "/problems/not-unique",
                 "The puzzle has more than one solution"),
    PROBLEM_KIND(API_EUNREACHABLE, 422, "/problems/unreachable",
                 "No puzzle has what the request asks for"),
    PROBLEM_KIND(API_EMEMORY, 422, "/problems/too-much-memory",
                 "The request needs more memory than one request may hold"),
    PROBLEM_KIND(API_EBUSY, 503, "/problems/overloaded", "The server is busy"),
    PROBLEM_KIND(API_EDRAINING, 503, "/problems/shutting-down", "The server is shutting down"),
    PROBLEM_KIND(API_ENOMEM, 503, "/problems/out-of-memory", "Not enough memory for this request"),
    PROBLEM_KIND(API_EUNAVAILABLE, 503, "/problems/unavailable",
                 "A service this request needs is unavailable"),
    PROBLEM_KIND(API_ENOTIMPL, 501, "/problems/not-implemented",
                 "The server does not implement this"),
    PROBLEM_KIND(API_EINTERNAL, 500, "/problems/internal",
                 "Internal error"), /* last: the default */
};

/* Details may quote client input: keep them printable ASCII so that the JSON
 * encoder (which insists on UTF-8) can never fail on them. */
static void problem_sanitize(char *s) {
    for (; *s != '\0'; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) *s = '?';
}

static const problem_kind_t *problem_kind(int code) {
    for (size_t i = 0; i < sizeof problem_kinds / sizeof problem_kinds[0]; i++)
        if (problem_kinds[i].code == code) return &problem_kinds[i];
    return &problem_kinds[sizeof problem_kinds / sizeof problem_kinds[0] - 1];
}

const char *api_code_name(int code) {
    for (size_t i = 0; i < sizeof problem_kinds / sizeof problem_kinds[0]; i++)
        if (problem_kinds[i].code == code) return problem_kinds[i].name;
    return code == API_OK ? "API_OK" : search_code_name(code);
}

int api_problem_status(int code) { return problem_kind(code)->status; }
const char *api_problem_type(int code) { return problem_kind(code)->type; }
const char *api_problem_title(int code) { return problem_kind(code)->title; }

void api_problem_init(api_problem_t *p, int code, const char *fmt, ...) {
    va_list ap;
    memset(p, 0, sizeof *p);
    p->code = code;
    va_start(ap, fmt);
    vsnprintf(p->detail, sizeof p->detail, fmt, ap);
    va_end(ap);
    problem_sanitize(p->detail);
}

void api_problem_nomem(api_problem_t *p, const char *doing) {
    api_problem_init(p, API_ENOMEM, "out of memory while %s; retry later", doing);
}

void api_problem_add(api_problem_t *p, const char *in, const char *field, const char *fmt, ...) {
    va_list ap;
    if (p->nerrors >= API_PROBLEM_MAX_ERRORS) {
        p->dropped++;
        return;
    }
    api_field_error_t *e = &p->errors[p->nerrors++];
    snprintf(e->in, sizeof e->in, "%s", in);
    snprintf(e->field, sizeof e->field, "%s", field);
    va_start(ap, fmt);
    vsnprintf(e->detail, sizeof e->detail, fmt, ap);
    va_end(ap);
    problem_sanitize(e->in);
    problem_sanitize(e->field);
    problem_sanitize(e->detail);
}

/* The top-level detail: the handler's summary, and when there are field
 * errors the first one, so that a reader of `detail` alone learns what to
 * fix ("the request is not valid (value_order: only the advanced method
 * ...)"); errors[] keeps the full list. */
static void problem_detail(const api_problem_t *p, char *buf, size_t cap) {
    size_t more;
    if (p->nerrors == 0) {
        snprintf(buf, cap, "%s", p->detail);
        return;
    }
    more = p->nerrors - 1 + p->dropped;
    if (more == 0)
        snprintf(buf, cap, "%s (%s: %s)", p->detail, p->errors[0].field, p->errors[0].detail);
    else
        snprintf(buf, cap, "%s (%s: %s; %zu more in errors)", p->detail, p->errors[0].field,
                 p->errors[0].detail, more);
}

char *api_problem_render(const api_problem_t *p, size_t *len) {
    const problem_kind_t *k = problem_kind(p->code);
    char *out = NULL,
         detail[sizeof p->detail + sizeof p->errors[0].field + sizeof p->errors[0].detail + 40];
    json_t *errors = json_array();
    json_t *root;
    problem_detail(p, detail, sizeof detail);
    root = json_pack("{s:s, s:s, s:i, s:s}", "type", k->type, "title", k->title, "status",
                     k->status, "detail", detail);
    if (root == NULL || errors == NULL) goto done;
    for (size_t i = 0; i < p->nerrors; i++) {
        const api_field_error_t *e = &p->errors[i];
        json_t *item =
            json_pack("{s:s, s:s, s:s}", "in", e->in, "field", e->field, "detail", e->detail);
        if (item == NULL || json_array_append_new(errors, item) != 0) goto done;
    }
    if (json_object_set(root, "errors", errors) != 0) goto done;
    if (p->dropped > 0 &&
        json_object_set_new(root, "errors_omitted", json_integer((json_int_t)p->dropped)) != 0)
        goto done;
    out = api_json_dumps(root, JSON_COMPACT, NULL);
    if (out != NULL) *len = strlen(out);
done:
    json_decref(errors);
    json_decref(root);
    return out;
}
