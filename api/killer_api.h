/* killer_api.h -- POST /v1/killer/solve: Killer Sudoku (and Killer-X) in
 * JSON or the course's text format; POST /v1/killer/grade and
 * /v1/killer/hint: the logic engine on a Killer. */
#ifndef PUZZLED_API_KILLER_H
#define PUZZLED_API_KILLER_H

#include "api/endpoint.h"

extern const api_endpoint_t api_ep_killer_solve, api_ep_killer_grade, api_ep_killer_hint;

int api_killer_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/killer/grade and /v1/killer/hint: handed over to
 * api/sudoku_variant_api.c (killer_api.c says why), as every
 * api_prepare_fn. */
int api_killer_grade_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);
int api_killer_hint_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

#endif
