/* guard.h -- a safety net under every answer the api/ layer builds.
 *
 * jansson fails quietly: json_object_set_new() with a value whose allocation
 * failed returns -1 and the answer goes out without that member (a count
 * with no "count"), and its lexer reports a failed allocation as a syntax
 * error.  api/ checks what it can, but one missed return value would send a
 * wrong 200.  So jansson allocates through a hook here that remembers, per
 * thread, that an allocation failed; prepare() and render() run inside
 * guard_*(), which turn any answer built across such a failure into a 503
 * out-of-memory problem.  run() and merge() do not build JSON.
 *
 * guard_install() is called once, before any thread uses jansson (main,
 * and the tests that drive jobs); the flag is thread-local, so the MHD
 * thread's prepare and the loop thread's render never see each other's. */
#ifndef PUZZLED_GUARD_H
#define PUZZLED_GUARD_H

#include "api/request.h"

/* Routes jansson's allocations through the guard's hook.  Not thread-safe:
 * call before starting threads. */
void guard_install(void);

/* route->prepare(req, job, resp), then: if a jansson allocation failed on
 * this thread meanwhile, the job (if any) is freed, *job is NULL and resp is
 * a 503; returns what prepare returned, or API_ENOMEM. */
int guard_prepare(api_prepare_fn prepare, const api_request_t *req, api_job_t **job,
                  api_response_t *resp);

/* job->ops->render(job, resp) under the same rule (the job stays). */
void guard_render(api_job_t *job, api_response_t *resp);

#endif
