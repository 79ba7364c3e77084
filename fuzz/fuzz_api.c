/* fuzz_api.c -- every api/ endpoint fed arbitrary requests, driven the way
 * the server drives a job (prepare, run each item, merge, render, free;
 * progressive jobs streamed), with a short deadline so that a hard puzzle
 * costs milliseconds, not minutes.
 *
 * Input: byte 0 picks the endpoint (low 4 bits) and the Content-Type (high
 * bits: none, JSON, text/plain, CSV); the rest up to the first '\n' is a
 * query string (k=v&k=v, at most API_MAX_PARAMS pairs); everything after it
 * is the body.
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

#include "api/killer_api.h"
#include "api/nqueens_api.h"
#include "api/nqueens_board_api.h"
#include "api/request.h"
#include "api/sudoku_api.h"
#include "api/sudoku_batch.h"
#include "api/xcover_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const api_prepare_fn endpoints[] = {
    api_killer_solve_prepare,    api_sudoku_solve_prepare,       api_sudoku_validate_prepare,
    api_sudoku_batch_prepare,    api_xcover_solve_prepare,       api_nqueens_count_prepare,
    api_nqueens_solve_prepare,   api_nqueens_solve_post_prepare, api_nqueens_count_post_prepare,
    api_nqueens_analyze_prepare, api_nqueens_solutions_prepare,
};
#define NENDPOINTS (sizeof endpoints / sizeof endpoints[0])

static const char *const ctypes[] = {NULL, "application/json", "text/plain", "text/csv"};

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    api_param_t params[API_MAX_PARAMS];
    char *query, *body = NULL, *save = NULL, *kv;
    size_t nparams = 0, qlen = 0, blen;
    api_request_t r;
    api_job_t *job = NULL;
    api_response_t resp;
    search_ctl_t ctl;
    if (size == 0) return 0;
    while (1 + qlen < size && data[1 + qlen] != '\n')
        qlen++;
    query = malloc(qlen + 1);
    blen = size > 2 + qlen ? size - 2 - qlen : 0;
    if (blen > 0) body = malloc(blen);
    if (query == NULL || (blen > 0 && body == NULL)) goto out;
    memcpy(query, data + 1, qlen);
    query[qlen] = '\0';
    if (blen > 0) memcpy(body, data + 2 + qlen, blen);
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
    r.method = (data[0] & 0x80) ? "GET" : "POST";
    r.path = "/fuzz";
    r.params = params;
    r.nparams = nparams;
    r.body = body;
    r.body_len = blen;
    r.content_type = ctypes[(data[0] >> 4) & 3];
    r.pool_threads = 2;
    r.max_timeout_ms = 50;
    r.max_batch_lines = 64;
    memset(&ctl, 0, sizeof ctl);
    ctl.deadline_ns = search_now_ns() + 50 * 1000000LL;
    ctl.node_budget = 200000;
    endpoints[(data[0] & 0x0f) % NENDPOINTS](&r, &job, &resp);
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
        fprintf(stderr, "endpoint %d: %d %.*s\n", (int)((data[0] & 0x0f) % NENDPOINTS), resp.status,
                resp.body != NULL && resp.len > 100 ? 100 : (int)resp.len,
                resp.body != NULL ? resp.body : "");
    api_response_destroy(&resp);
out:
    free(body);
    free(query);
    return 0;
}
