/* guard.c -- see guard.h. */
#include "server/guard.h"

#include <jansson.h>
#include <stdlib.h>

/* Set by guard_malloc() on the thread whose allocation failed; read and
 * cleared only by that thread (guard_prepare/guard_render). */
static _Thread_local int guard_failed;

static void *guard_malloc(size_t size) {
    void *p = malloc(size);
    if (p == NULL) guard_failed = 1;
    return p;
}

void guard_install(void) { json_set_alloc_funcs(guard_malloc, free); }

static void guard_nomem(api_response_t *resp) {
    api_problem_t p;
    api_problem_init(&p, API_ENOMEM, "out of memory while building the answer; retry later");
    api_response_problem(resp, &p);
}

int guard_prepare(api_prepare_fn prepare, const api_request_t *req, api_job_t **job,
                  api_response_t *resp) {
    guard_failed = 0;
    int rc = prepare(req, job, resp);
    if (!guard_failed) return rc;
    if (*job != NULL) (*job)->ops->free(*job);
    *job = NULL;
    guard_nomem(resp);
    return API_ENOMEM;
}

void guard_render(api_job_t *job, api_response_t *resp) {
    guard_failed = 0;
    job->ops->render(job, resp);
    if (guard_failed) guard_nomem(resp);
}
