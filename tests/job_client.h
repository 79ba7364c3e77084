/* job_client.h -- what the suites that drive a real server's jobs share
 * (test_jobs.c, test_cluster.c): one JSON request, a job's record, and
 * whether a status is final.  Check-asserts transport failures. */
#ifndef PUZZLED_TESTS_JOB_CLIENT_H
#define PUZZLED_TESTS_JOB_CLIENT_H

#include <jansson.h>

#include "tests/http_client.h"

/* One request on a fresh connection (body NULL for none; sent as
 * application/json), with "Prefer: respond-async" when async.  Returns the
 * parsed body (NULL if not JSON) and sets *status; the raw answer goes to
 * *keep when keep is not NULL (the caller frees it), else it is freed. */
json_t *tsrv_call(const tsrv_t *s, const char *method, const char *path, const char *body,
                  int async, long *status, hresp_t *keep);

/* The same with one more request header ("Name: value"; NULL for none). */
json_t *tsrv_call_hdr(const tsrv_t *s, const char *method, const char *path, const char *body,
                      int async, const char *header, long *status, hresp_t *keep);

/* GET /v1/jobs/{id}. */
json_t *tsrv_job(const tsrv_t *s, const char *id, long *status);

/* Whether a job status is final: done, failed, cancelled or timeout. */
int job_status_ended(const char *status);

#endif
