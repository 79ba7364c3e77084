/* fuzz_api.c -- every api/ endpoint fed arbitrary requests, driven the way
 * the server drives a job (prepare, run each item, merge, render, free;
 * progressive jobs streamed), with a short deadline so that a hard puzzle
 * costs milliseconds, not minutes.
 *
 * Input, three parts: a first line naming the endpoint, "METHOD PATH C"
 * (an endpoint of api_endpoints[], by name, so that the corpus survives
 * any reordering of the list, and C a digit picking the Content-Type: 0
 * none, 1 JSON, 2 text/plain, 3 CSV, 4 ISS's text); then up to the next '\n' a query
 * string (k=v&k=v, at most API_MAX_PARAMS pairs); everything after it is
 * the body.  An input that names no endpoint is skipped (libFuzzer learns
 * the names from the comparisons).
 *
 * What must hold for every input, or the harness aborts:
 *   - the answer has a status between 200 and 499 (a 5xx means the server
 *     failed, not the request) and a content type;
 *   - a 4xx answer is application/problem+json with a numeric "status"
 *     equal to the HTTP one and a "title" (the client must learn what was
 *     wrong);
 *   - no sanitizer report, leak, or read outside the input (the body is
 *     copied to an exact-size heap buffer with no terminating NUL).
 * FUZZ_VERBOSE=1 prints each input's endpoint, status and answer head.
 * replay.c fails when an endpoint of the list has no input, so that a new
 * endpoint comes with its seeds.
 *
 * Built two ways: with clang -fsanitize=fuzzer by `make fuzz` (libFuzzer's
 * main), and with replay.c by `make test`, which runs every file of
 * fuzz/corpus (hand-made seeds) and fuzz/cover (`make fuzz-cover`: the
 * fewest fuzzer inputs that reach every edge it reached) through it. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint.h"
#include "api/request.h"

#define FUZZ_MAX_ENDPOINTS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* How many inputs so far named each endpoint of api_endpoints[] (by its
 * index): replay.c checks that every endpoint has some. */
size_t fuzz_reached[FUZZ_MAX_ENDPOINTS];

static const char *const ctypes[] = {NULL, "application/json", "text/plain", "text/csv",
                                     "text/x-iss"};

/* The checks above, on a finished answer. */
static void check_answer(const api_response_t *resp, int streamed) {
    json_t *doc, *st;
    if (resp->status < 200 || resp->status > 499 || resp->content_type == NULL) abort();
    if (resp->status < 400 || streamed) return;
    if (strcmp(resp->content_type, "application/problem+json") != 0) abort();
    doc = json_loadb(resp->body, resp->len, 0, NULL);
    st = json_object_get(doc, "status");
    if (doc == NULL || !json_is_integer(st) || json_integer_value(st) != resp->status ||
        !json_is_string(json_object_get(doc, "title")))
        abort();
    json_decref(doc);
}

/* A progressive job: render first, then each item run and merged with the
 * stream drained between merges, finish, and the rest of the stream. */
static void drive_progressive(api_job_t *job, api_response_t *resp, const search_ctl_t *ctl) {
    char buf[4096];
    long n = 0;
    job->ops->render(job, resp);
    check_answer(resp, 1);
    for (size_t k = 0; k < job->nitems; k++) {
        job->ops->merge(job, k, job->ops->run(job, k, ctl));
        if (resp->stream != NULL) (void)resp->stream(resp->stream_cls, buf, sizeof buf);
    }
    job->ops->finish(job, 0);
    while (resp->stream != NULL && (n = resp->stream(resp->stream_cls, buf, sizeof buf)) >= 0)
        if (n == 0) abort(); /* after finish() the stream never waits */
    job->ops->free(job);
}

/* The endpoint the first line names ("METHOD PATH C"), its Content-Type
 * index in *ct; NULL when there is none.  *used: bytes of the line with
 * its '\n'. */
static const api_endpoint_t *fuzz_endpoint(const uint8_t *data, size_t size, int *ct,
                                           size_t *used) {
    char line[128], *sp;
    size_t n = 0;
    while (n < size && data[n] != '\n')
        n++;
    if (n >= size || n < 5 || n >= sizeof line) return NULL;
    memcpy(line, data, n);
    line[n] = '\0';
    *used = n + 1;
    if (line[n - 2] != ' ' || line[n - 1] < '0' || line[n - 1] > '4') return NULL;
    *ct = line[n - 1] - '0';
    line[n - 2] = '\0';
    if ((sp = strchr(line, ' ')) == NULL) return NULL;
    *sp = '\0';
    return api_endpoint_find(line, sp + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    api_param_t params[API_MAX_PARAMS];
    char *query, *body = NULL, *save = NULL, *kv;
    size_t nparams = 0, qlen = 0, blen, head = 0;
    api_request_t r;
    api_job_t *job = NULL;
    api_response_t resp;
    search_ctl_t ctl;
    int ct = 0;
    const api_endpoint_t *ep = fuzz_endpoint(data, size, &ct, &head);
    if (ep == NULL) return 0;
    for (size_t i = 0; api_endpoints[i] != NULL && i < FUZZ_MAX_ENDPOINTS; i++)
        if (api_endpoints[i] == ep) fuzz_reached[i]++;
    data += head;
    size -= head;
    while (qlen < size && data[qlen] != '\n')
        qlen++;
    query = malloc(qlen + 1);
    blen = size > 1 + qlen ? size - 1 - qlen : 0;
    if (blen > 0) body = malloc(blen);
    if (query == NULL || (blen > 0 && body == NULL)) goto out;
    memcpy(query, data, qlen);
    query[qlen] = '\0';
    if (blen > 0) memcpy(body, data + 1 + qlen, blen);
    for (kv = strtok_r(query, "&", &save); kv != NULL && nparams < API_MAX_PARAMS;
         kv = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(kv, '=');
        params[nparams].key = kv;
        params[nparams].value = eq != NULL ? eq + 1 : "";
        if (eq != NULL) *eq = '\0';
        nparams++;
    }
    memset(&r, 0, sizeof r);
    memset(&resp, 0, sizeof resp);
    r.method = ep->method;
    r.path = ep->path;
    r.params = params;
    r.nparams = nparams;
    r.body = body;
    r.body_len = blen;
    r.content_type = ctypes[ct];
    r.pool_threads = 2;
    r.max_timeout_ms = 50;
    r.max_batch_lines = 64;
    memset(&ctl, 0, sizeof ctl);
    ctl.deadline_ns = search_now_ns() + 50 * 1000000LL;
    ctl.node_budget = 200000;
    ep->prepare(&r, &job, &resp);
    if (job != NULL && job->ops->progressive) {
        drive_progressive(job, &resp, &ctl);
    } else {
        if (job != NULL) {
            int act = API_JOB_CONTINUE;
            for (size_t k = 0; act == API_JOB_CONTINUE && k < job->nitems; k++)
                act = job->ops->merge(job, k, job->ops->run(job, k, &ctl));
            job->ops->render(job, &resp);
            job->ops->free(job);
        }
        if (resp.stream != NULL) {
            char buf[4096];
            while (resp.stream(resp.stream_cls, buf, sizeof buf) > 0) {
            }
        }
        check_answer(&resp, resp.stream != NULL);
    }
    if (getenv("FUZZ_VERBOSE") != NULL) /* what each corpus input exercises */
        fprintf(stderr, "%s %s: %d %.*s\n", ep->method, ep->path, resp.status,
                resp.body != NULL && resp.len > 300 ? 300 : (int)resp.len,
                resp.body != NULL ? resp.body : "");
    api_response_destroy(&resp);
out:
    free(body);
    free(query);
    return 0;
}
