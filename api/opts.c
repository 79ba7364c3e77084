/* opts.c -- see opts.h.  The scalar kinds reuse request.c's strict query
 * readers and json_util.c's body readers, so a problem reads as it did
 * when each endpoint called them itself. */
#include "api/opts.h"

#include <stdio.h>
#include <string.h>

#include "api/json_util.h"

#define OPTS_MAX_ROWS 64 /* the fast path's duplicate mask */

long long api_opts_limit(long long v, const api_request_t *req) {
    if (v == API_REQ_TIMEOUT) return req->max_timeout_ms;
    if (v == API_REQ_THREADS) return (long long)req->pool_threads;
    return v;
}

static int opts_in_variant(const api_opt_t *o, unsigned variant) {
    return o->variants == 0 || variant == 0 || (o->variants & variant) != 0;
}

const api_opt_t *api_opts_find(const api_opt_t *table, const char *name, unsigned in) {
    for (const api_opt_t *o = table; o->name != NULL; o++)
        if ((o->in & in) != 0 && strcmp(o->name, name) == 0) return o;
    return NULL;
}

/* Where a row's value goes. */
static void *opts_at(const api_opt_t *o, void *out) { return (char *)out + o->at; }

/* Whether an INT row has a default (one inside its range). */
static int opts_has_default(const api_opt_t *o, const api_request_t *req, long long *def) {
    long long lo = api_opts_limit(o->lo, req), hi = api_opts_limit(o->hi, req);
    *def = api_opts_limit(o->def, req);
    return *def >= lo && *def <= hi;
}

void api_opts_defaults(const api_opt_t *table, const api_request_t *req, void *out) {
    for (const api_opt_t *o = table; o->name != NULL; o++) {
        long long def;
        switch (o->kind) {
        case API_OPT_INT:
            if (opts_has_default(o, req, &def)) *(long long *)opts_at(o, out) = def;
            break;
        case API_OPT_BOOL: *(int *)opts_at(o, out) = (int)o->def; break;
        case API_OPT_ENUM: *(int *)opts_at(o, out) = (int)o->def; break;
        default: break;
        }
    }
}

/* === Enums === */

/* The index of `s` among the names, or -1. */
static int opts_enum_index(const api_opt_t *o, const char *s, size_t len) {
    for (int i = 0; o->names[i] != NULL; i++)
        if (strlen(o->names[i]) == len && memcmp(o->names[i], s, len) == 0) return i;
    return -1;
}

void api_opts_join(const char *const *names, char *out, size_t cap) {
    size_t k = 0, n = 0;
    while (names != NULL && names[k] != NULL)
        k++;
    out[0] = '\0';
    for (size_t i = 0; i < k && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s",
                              i == 0       ? ""
                              : i == k - 1 ? " or "
                                           : ", ",
                              names[i]);
}

/* "must be a, b or c" (or the row's own text), with ", got 'x'" when the
 * row quotes the value (got NULL: it does not). */
static void opts_enum_problem(const api_opt_t *o, const char *in, const char *got,
                              api_problem_t *p) {
    char text[160], list[144];
    if (o->msg != NULL) {
        snprintf(text, sizeof text, "%s", o->msg);
    } else {
        api_opts_join(o->names, list, sizeof list);
        snprintf(text, sizeof text, "must be %s", list);
    }
    if (got != NULL && (o->flags & API_OPT_GOT))
        api_problem_add(p, in, o->name, "%s, got '%.40s'", text, got);
    else
        api_problem_add(p, in, o->name, "%s", text);
}

/* === The query string === */

/* Unknown and repeated parameters: api_params_check() with the names of
 * the variant's query rows. */
static int opts_query_names(const api_opt_t *table, const api_request_t *req, unsigned variant,
                            api_problem_t *p) {
    const char *allowed[OPTS_MAX_ROWS + 1];
    size_t n = 0;
    for (const api_opt_t *o = table; o->name != NULL && n < OPTS_MAX_ROWS; o++)
        if ((o->in & API_IN_QUERY) && opts_in_variant(o, variant)) allowed[n++] = o->name;
    allowed[n] = NULL;
    return api_params_check(req, allowed, p);
}

int api_opts_query_kind(const api_opt_t *o, const api_request_t *req, const char *v, void *out,
                        api_problem_t *p) {
    long long x, def;
    int b;
    switch (o->kind) {
    case API_OPT_INT: {
        int has = opts_has_default(o, req, &def);
        if (api_param_int(req, o->name, (o->flags & API_OPT_REQUIRED) != 0,
                          api_opts_limit(o->lo, req), api_opts_limit(o->hi, req), def, &x, p) != 0)
            return -1;
        if (v != NULL || has) *(long long *)opts_at(o, out) = x;
        return 0;
    }
    case API_OPT_BOOL:
        if (api_param_bool(req, o->name, (int)o->def, &b, p) != 0) return -1;
        *(int *)opts_at(o, out) = b;
        return 0;
    case API_OPT_ENUM: {
        if (v == NULL) return 0;
        int i = opts_enum_index(o, v, strlen(v));
        if (i < 0) {
            opts_enum_problem(o, "query", v, p);
            return -1;
        }
        *(int *)opts_at(o, out) = i;
        return 0;
    }
    default: return 0; /* no query form */
    }
}

/* One query row; 0 or -1. */
static int opts_query_row(const api_opt_t *o, const api_request_t *req, void *out,
                          api_problem_t *p) {
    const char *v = api_param(req, o->name);
    if (o->query != NULL) return v != NULL ? o->query(o, req, v, out, p) : 0;
    return api_opts_query_kind(o, req, v, out, p);
}

int api_opts_query(const api_opt_t *table, const api_request_t *req, unsigned phase,
                   unsigned variant, void *out, api_problem_t *p) {
    int bad = 0;
    if (phase == 0) bad |= opts_query_names(table, req, variant, p) != 0;
    for (const api_opt_t *o = table; o->name != NULL; o++)
        if ((o->in & API_IN_QUERY) && o->phase == phase && opts_in_variant(o, variant))
            bad |= opts_query_row(o, req, out, p) != 0;
    return bad ? -1 : 0;
}

/* === The JSON body === */

int api_opts_json_kind(const api_opt_t *o, const api_request_t *req, json_t *v, void *out,
                       api_problem_t *p) {
    long long x;
    switch (o->kind) {
    case API_OPT_INT:
        if (api_json_int(v, o->name, api_opts_limit(o->lo, req), api_opts_limit(o->hi, req), &x,
                         p) != 0)
            return -1;
        *(long long *)opts_at(o, out) = x;
        return 0;
    case API_OPT_BOOL:
        if (!json_is_boolean(v)) {
            api_problem_add(p, "body", o->name, "must be true or false");
            return -1;
        }
        *(int *)opts_at(o, out) = json_is_true(v);
        return 0;
    case API_OPT_ENUM: {
        int i = json_is_string(v)
                    ? opts_enum_index(o, json_string_value(v), strlen(json_string_value(v)))
                    : -1;
        if (i >= 0) {
            *(int *)opts_at(o, out) = i;
            return 0;
        }
        if (!json_is_string(v) && (o->flags & API_OPT_STRING))
            api_problem_add(p, "body", o->name, "must be a string");
        else
            opts_enum_problem(o, "body",
                              json_is_string(v) ? json_string_value(v) : "(not a string)", p);
        return -1;
    }
    case API_OPT_ELSEWHERE: api_problem_add(p, "body", o->name, "%s", o->msg); return -1;
    default: return 0; /* DATA and OBJECT rows have callbacks */
    }
}

/* One row with its member v (NULL: absent); 0, -1 or -2. */
static int opts_json_row(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                         void *out, api_problem_t *p) {
    long long x, def;
    if (o->json != NULL)
        return v != NULL || (o->flags & API_OPT_ABSENT) ? o->json(o, req, root, v, out, p) : 0;
    if (v == NULL) {
        if (o->kind == API_OPT_INT && (o->flags & API_OPT_REQUIRED))
            return api_json_int(NULL, o->name, api_opts_limit(o->lo, req),
                                api_opts_limit(o->hi, req), &x, p);
        if (o->kind == API_OPT_INT && opts_has_default(o, req, &def))
            *(long long *)opts_at(o, out) = def;
        return 0;
    }
    return api_opts_json_kind(o, req, v, out, p);
}

/* Body order: each member where it stands, then the rows left absent. */
static int opts_json_body_order(const api_opt_t *table, const api_request_t *req, json_t *root,
                                unsigned phase, void *out, api_problem_t *p) {
    const char *key;
    json_t *v;
    int bad = 0, rc;
    json_object_foreach(root, key, v) {
        const api_opt_t *o = api_opts_find(table, key, API_IN_JSON);
        if (o == NULL) {
            if (phase == 0) {
                api_problem_add(p, "body", key, "unknown field");
                bad = 1;
            }
            continue;
        }
        if (o->phase != phase) continue;
        if ((rc = opts_json_row(o, req, root, v, out, p)) == -2) return -2;
        bad |= rc != 0;
    }
    for (const api_opt_t *o = table; o->name != NULL; o++) {
        if (!(o->in & API_IN_JSON) || o->phase != phase || json_object_get(root, o->name) != NULL)
            continue;
        if ((rc = opts_json_row(o, req, root, NULL, out, p)) == -2) return -2;
        bad |= rc != 0;
    }
    return bad ? -1 : 0;
}

int api_opts_json(const api_opt_t *table, const api_request_t *req, json_t *root, unsigned how,
                  void *out, api_problem_t *p) {
    unsigned phase = how & 0xffu;
    const char *key;
    json_t *v;
    int bad = 0, rc;
    if (how & API_OPTS_BODY_ORDER) return opts_json_body_order(table, req, root, phase, out, p);
    if (phase == 0) json_object_foreach(root, key, v) {
            if (api_opts_find(table, key, API_IN_JSON) != NULL) continue;
            api_problem_add(p, "body", key, "unknown field");
            bad = 1;
        }
    for (const api_opt_t *o = table; o->name != NULL; o++) {
        if (!(o->in & API_IN_JSON) || o->phase != phase) continue;
        if ((rc = opts_json_row(o, req, root, json_object_get(root, o->name), out, p)) == -2)
            return -2;
        bad |= rc != 0;
    }
    return bad ? -1 : 0;
}

static int opts_skipped(const char *const *skip, const char *name) {
    for (; skip != NULL && *skip != NULL; skip++)
        if (strcmp(*skip, name) == 0) return 1;
    return 0;
}

int api_opts_json_options(const api_opt_t *table, const api_request_t *req, json_t *root,
                          const char *const *skip, void *out, api_problem_t *p) {
    const char *key;
    json_t *v;
    int bad = 0, rc;
    json_object_foreach(root, key, v) {
        if (opts_skipped(skip, key) || api_opts_find(table, key, API_IN_JSON) != NULL) continue;
        api_problem_add(p, "body", key, "unknown field");
        bad = 1;
    }
    for (const api_opt_t *o = table; o->name != NULL; o++) {
        if (!(o->in & API_IN_JSON) || o->kind == API_OPT_DATA || opts_skipped(skip, o->name) ||
            (v = json_object_get(root, o->name)) == NULL)
            continue;
        if ((rc = opts_json_row(o, req, root, v, out, p)) == -2) return -2;
        bad |= rc != 0;
    }
    return bad ? -1 : 0;
}

/* === The fast path === */

/* The fast row whose name is key[0..klen), or NULL. */
static const api_opt_t *opts_fast_row(const api_opt_t *table, const char *key, size_t klen,
                                      size_t *index) {
    for (size_t i = 0; table[i].name != NULL; i++)
        if ((table[i].in & API_IN_FAST) && strlen(table[i].name) == klen &&
            memcmp(table[i].name, key, klen) == 0) {
            *index = i;
            return &table[i];
        }
    return NULL;
}

/* One member's value; 0, or -1 to give up. */
static int opts_fast_value(const api_opt_t *o, const api_request_t *req, api_js_t *js, void *out) {
    long long x;
    const char *s;
    size_t len;
    int b, i;
    switch (o->kind) {
    case API_OPT_INT:
        if (api_js_int(js, api_opts_limit(o->lo, req), api_opts_limit(o->hi, req), &x) != 0)
            return -1;
        *(long long *)opts_at(o, out) = x;
        return 0;
    case API_OPT_BOOL:
        if (api_js_bool(js, &b) != 0) return -1;
        *(int *)opts_at(o, out) = b;
        return 0;
    case API_OPT_ENUM:
        if (api_js_string(js, &s, &len) != 0 || (i = opts_enum_index(o, s, len)) < 0) return -1;
        *(int *)opts_at(o, out) = i;
        return 0;
    default: return o->fast != NULL ? o->fast(o, req, js, out) : -1;
    }
}

int api_opts_fast(const api_opt_t *table, const api_request_t *req, void *out) {
    unsigned long long seen = 0;
    api_js_t js;
    const char *key;
    size_t klen, i;
    if (req->nparams > 0) return 0; /* an unknown parameter: jansson's path names it */
    api_js_init(&js, req->body, req->body_len);
    if (!api_js_accept(&js, '{')) return 0;
    do {
        const api_opt_t *o;
        if (api_js_key(&js, &key, &klen) != 0) return 0;
        o = opts_fast_row(table, key, klen, &i);
        if (o == NULL || i >= OPTS_MAX_ROWS || (seen >> i & 1)) return 0; /* other, or twice */
        if (opts_fast_value(o, req, &js, out) != 0) return 0;
        seen |= 1ull << i;
    } while (api_js_accept(&js, ','));
    if (!api_js_accept(&js, '}') || !api_js_at_end(&js)) return 0;
    for (i = 0; table[i].name != NULL; i++)
        if ((table[i].in & API_IN_FAST) && (table[i].flags & API_OPT_REQUIRED) && !(seen >> i & 1))
            return 0;
    return 1;
}
