/* nqueens_api.h -- the N-Queens endpoints: query parsing, job construction,
 * JSON answers.  See nqueens_api.c for the answer shapes. */
#ifndef PUZZLED_API_NQUEENS_H
#define PUZZLED_API_NQUEENS_H

#include "api/request.h"

/* GET /v1/nqueens/count?n=N[&threads=T][&timeout_ms=MS][&symmetry=B] */
int api_nqueens_count_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* GET /v1/nqueens/solve?n=N[&timeout_ms=MS][&method=backtracking] */
int api_nqueens_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* How many leading rows the count fixes per subproblem, for n (exposed for
 * tests and the benchmark). */
int api_nqueens_split_depth(int n, int symmetry);

/* Counts up to this n are small enough (n = 10: 35,000 nodes, tens of
 * microseconds) to be answered whole on the HTTP thread. */
#define API_NQUEENS_INLINE_COUNT_N 10

#endif
