/* xcover_api.h -- POST /v1/exact-cover/solve: any exact-cover problem given
 * as named items and options. */
#ifndef PUZZLED_API_XCOVER_H
#define PUZZLED_API_XCOVER_H

#include "api/endpoint.h"

#define API_XCOVER_NAME_MAX 256 /* bytes in an item name */

extern const api_endpoint_t api_ep_xcover_solve;

int api_xcover_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

#endif
