/* job_harness.c -- see job_harness.h. */
#include "tests/job_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

/* A progressive job: render first, run and merge every item (the stream is
 * read between merges, as the HTTP thread may), finish, then drain the
 * stream into resp's body. */
static void tjob_progressive(api_job_t *job, api_response_t *resp, const search_ctl_t *ctl) {
    size_t len = 0, cap = 1 << 16;
    char *body = malloc(cap);
    long n = 0;
    ck_assert_ptr_nonnull(body);
    job->ops->render(job, resp);
    for (size_t k = 0; k < job->nitems; k++) {
        job->ops->merge(job, k, job->ops->run(job, k, ctl));
        if (len + 512 > cap) body = realloc(body, cap *= 2);
        ck_assert_ptr_nonnull(body);
        n = resp->stream(resp->stream_cls, body + len, 512);
        if (n > 0) len += (size_t)n;
    }
    job->ops->finish(job, 0);
    while (n >= 0) {
        if (len + 4096 > cap) body = realloc(body, cap *= 2);
        ck_assert_ptr_nonnull(body);
        n = resp->stream(resp->stream_cls, body + len, 4096);
        if (n > 0) len += (size_t)n;
        ck_assert_int_ne(n, 0); /* after finish() the stream never waits */
    }
    job->ops->free(job);
    api_response_destroy(resp);
    resp->body = body;
    resp->len = len;
}

api_request_t tjob_request(const char *ctype, const char *accept, const char *body,
                           const api_param_t *params, size_t nparams) {
    api_request_t r;
    memset(&r, 0, sizeof r);
    r.method = body ? "POST" : "GET";
    r.path = "/test";
    r.body = body;
    r.body_len = body ? strlen(body) : 0;
    r.content_type = ctype;
    r.accept = accept;
    r.params = params;
    r.nparams = nparams;
    r.pool_threads = 2;
    r.max_timeout_ms = 30000;
    r.max_batch_lines = 1000;
    return r;
}

tjob_t tjob_call(api_prepare_fn fn, const char *ctype, const char *accept, const char *body,
                 const api_param_t *params, size_t nparams) {
    api_request_t r = tjob_request(ctype, accept, body, params, nparams);
    api_job_t *job = NULL;
    api_response_t resp = {0};
    search_ctl_t ctl = {.deadline_ns = search_now_ns() + 30LL * 1000000000};
    tjob_t out;
    fn(&r, &job, &resp);
    if (job != NULL && job->ops->progressive) {
        tjob_progressive(job, &resp, &ctl);
    } else if (job != NULL) {
        int act = API_JOB_CONTINUE;
        if (job->nitems > 0) act = job->ops->merge(job, 0, job->ops->run(job, 0, &ctl));
        for (size_t k = job->nitems; act == API_JOB_CONTINUE && k-- > 1;)
            act = job->ops->merge(job, k, job->ops->run(job, k, &ctl));
        job->ops->render(job, &resp);
        job->ops->free(job);
    }
    memset(&out, 0, sizeof out);
    out.status = resp.status;
    snprintf(out.ctype, sizeof out.ctype, "%s", resp.content_type ? resp.content_type : "");
    out.body = strndup(resp.body ? resp.body : "", resp.len);
    out.json = json_loads(out.body, 0, NULL);
    api_response_destroy(&resp);
    return out;
}

size_t tjob_stream_lines(api_response_t *resp) {
    static char buf[1 << 16];
    size_t lines = 0;
    for (long n; (n = resp->stream(resp->stream_cls, buf, sizeof buf)) > 0;)
        for (long k = 0; k < n; k++)
            lines += buf[k] == '\n';
    return lines;
}

void tjob_run_rest(api_job_t *job, size_t from, const search_ctl_t *ctl) {
    for (size_t i = from; i < job->nitems; i++) {
        ck_assert_int_eq(job->ops->run(job, i, ctl), 0);
        job->ops->merge(job, i, 0);
    }
    job->ops->finish(job, 0);
}

void tjob_free(tjob_t *t) {
    json_decref(t->json);
    free(t->body);
    t->json = NULL;
    t->body = NULL;
}

int tjob_names(const tjob_t *t, const char *field) {
    json_t *errors = json_object_get(t->json, "errors");
    for (size_t i = 0; i < json_array_size(errors); i++) {
        const char *f = json_string_value(json_object_get(json_array_get(errors, i), "field"));
        if (f && strcmp(f, field) == 0) return 1;
    }
    return 0;
}
