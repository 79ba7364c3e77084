/* request.c -- response helpers and strict query-parameter parsing.
 *
 * Parameters are parsed strictly: unknown names, repeats, signs on unsigned
 * values, trailing junk and out-of-range numbers are all 400s naming the
 * parameter, because a typo silently ignored ("thread=2") is worse for a user
 * than an error. */
#include "api/request.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void api_response_destroy(api_response_t *resp) {
    if (resp == NULL) return;
    free(resp->body);
    resp->body = NULL;
    resp->len = 0;
    if (resp->stream_free != NULL) resp->stream_free(resp->stream_cls);
    resp->stream = NULL;
    resp->stream_free = NULL;
    resp->stream_cls = NULL;
    resp->location[0] = '\0';
    resp->flags = 0;
}

void api_response_problem(api_response_t *resp, const api_problem_t *p) {
    api_response_destroy(resp);
    resp->status = api_problem_status(p->code);
    resp->content_type = API_PROBLEM_CONTENT_TYPE;
    resp->body = api_problem_render(p, &resp->len);
    if (resp->body == NULL) { /* out of memory: a body-less 503 is all we can do */
        resp->status = 503;
        resp->len = 0;
    }
}

void api_response_json(api_response_t *resp, int status, void *json) {
    json_t *root = json;
    api_response_destroy(resp);
    resp->body = root ? api_json_dumps(root, API_JSON_FLAGS, &resp->len) : NULL;
    json_decref(root);
    if (resp->body == NULL) {
        api_problem_t p;
        api_problem_init(&p, API_ENOMEM, "the answer could not be encoded");
        api_response_problem(resp, &p);
        return;
    }
    resp->status = status;
    resp->content_type = "application/json";
}

const char *api_param(const api_request_t *req, const char *key) {
    for (size_t i = 0; i < req->nparams; i++)
        if (strcmp(req->params[i].key, key) == 0) return req->params[i].value;
    return NULL;
}

int api_params_check(const api_request_t *req, const char *const *allowed, api_problem_t *p) {
    int bad = 0;
    for (size_t i = 0; i < req->nparams; i++) {
        const char *key = req->params[i].key;
        int known = 0;
        for (const char *const *a = allowed; *a != NULL; a++)
            if (strcmp(*a, key) == 0) known = 1;
        if (!known) {
            api_problem_add(p, "query", key, "unknown parameter");
            bad++;
            continue;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(req->params[j].key, key) == 0) {
                api_problem_add(p, "query", key, "parameter given more than once");
                bad++;
                break;
            }
    }
    return bad;
}

int api_param_int(const api_request_t *req, const char *key, int required, long long lo,
                  long long hi, long long def, long long *out, api_problem_t *p) {
    const char *v = api_param(req, key);
    char *end;
    long long x;
    if (v == NULL) {
        if (!required) {
            *out = def;
            return 0;
        }
        api_problem_add(p, "query", key, "required: an integer from %lld to %lld", lo, hi);
        return -1;
    }
    errno = 0;
    x = strtoll(v, &end, 10);
    /* strtoll accepts leading spaces and '+': a strict API does not. */
    if (*v == '\0' || end == v || *end != '\0' || errno == ERANGE || *v == ' ' || *v == '+') {
        api_problem_add(p, "query", key, "must be an integer from %lld to %lld, got '%.40s'", lo,
                        hi, v);
        return -1;
    }
    if (x < lo || x > hi) {
        api_problem_add(p, "query", key, "must be from %lld to %lld, got %lld", lo, hi, x);
        return -1;
    }
    *out = x;
    return 0;
}

int api_param_bool(const api_request_t *req, const char *key, int def, int *out, api_problem_t *p) {
    const char *v = api_param(req, key);
    if (v == NULL) {
        *out = def;
        return 0;
    }
    if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0) {
        *out = 1;
        return 0;
    }
    if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0) {
        *out = 0;
        return 0;
    }
    api_problem_add(p, "query", key, "must be true or false, got '%.40s'", v);
    return -1;
}

void api_job_ready(api_job_t *job, const api_job_ops_t *ops, size_t nitems, unsigned threads,
                   int64_t timeout_ms, api_job_t **out) {
    job->ops = ops;
    job->nitems = nitems;
    job->threads = threads;
    job->timeout_ms = timeout_ms;
    job->start_ns = search_now_ns();
    *out = job;
}

double api_elapsed_ms(int64_t start_ns, int64_t end_ns) {
    return (double)(end_ns - start_ns) / 1e6;
}

/* The media type of a Content-Type or Accept entry, compared without
 * parameters and case. */
int api_media_is(const char *header, const char *type) {
    size_t n = strlen(type);
    if (header == NULL) return 0;
    while (*header == ' ')
        header++;
    return strncasecmp(header, type, n) == 0 &&
           (header[n] == '\0' || header[n] == ';' || header[n] == ' ' || header[n] == ',');
}

int api_accepts(const char *accept, const char *type) {
    for (const char *p = accept; p != NULL; p = strchr(p, ',')) {
        if (*p == ',') p++;
        if (api_media_is(p, type)) return 1;
    }
    return 0;
}
