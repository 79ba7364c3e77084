/* killer_api.h -- POST /v1/killer/solve: Killer Sudoku (and Killer-X) in
 * JSON or the course's text format. */
#ifndef PUZZLED_API_KILLER_H
#define PUZZLED_API_KILLER_H

#include "api/endpoint.h"

extern const api_endpoint_t api_ep_killer_solve;

int api_killer_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

#endif
