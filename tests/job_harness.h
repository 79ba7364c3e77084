/* job_harness.h -- drives an api/ endpoint the way the server does, without
 * a server: prepare, run every item, merge, render.  Item 0 runs first (a
 * parallel job splits there and raises nitems); the others run last to
 * first, so merges arrive out of order as they may on the pool.  A
 * progressive job runs its items in order, its stream read between merges;
 * the body is everything the stream produced. */
#ifndef PUZZLED_TESTS_JOB_HARNESS_H
#define PUZZLED_TESTS_JOB_HARNESS_H

#include <jansson.h>

#include "api/request.h"

typedef struct tjob_s {
    int status;
    char ctype[64];
    char *body;   /* NUL-terminated */
    json_t *json; /* NULL when the body is not JSON (CSV answers) */
} tjob_t;

/* The request tjob_call() hands to `fn`: a POST with `body` (GET when body
 * is NULL) to "/test", pool of 2 threads, 30 s timeout, 1000 batch lines, no
 * work share; a suite may change fields and call a prepare itself. */
api_request_t tjob_request(const char *ctype, const char *accept, const char *body,
                           const api_param_t *params, size_t nparams);

/* A POST with `body` (GET when body is NULL), pool of 2 threads, 30 s
 * timeout.  Free the result with tjob_free(). */
tjob_t tjob_call(api_prepare_fn fn, const char *ctype, const char *accept, const char *body,
                 const api_param_t *params, size_t nparams);

void tjob_free(tjob_t *t);

/* What a progressive job's stream (resp, rendered) has ready now, read
 * and dropped: how many answer lines it held. */
size_t tjob_stream_lines(api_response_t *resp);

/* Runs and merges a progressive job's items from `from` to the last, in
 * order, under ctl, then finish(job, 0): what the server does once it
 * holds no more. */
void tjob_run_rest(api_job_t *job, size_t from, const search_ctl_t *ctl);

/* Whether a problem's errors[] names `field`. */
int tjob_names(const tjob_t *t, const char *field);

#endif
