/* nqueens_api.h -- N-Queens counts over HTTP (GET /v1/nqueens/count), and
 * N-Queens as exact cover for both count and solve.  See nqueens_api.c for
 * the answer shapes; boards are nqueens_board_api.h's. */
#ifndef PUZZLED_API_NQUEENS_H
#define PUZZLED_API_NQUEENS_H

#include <stdint.h>

#include "api/endpoint.h"
#include "solvers/xcover/xcover.h"

extern const api_endpoint_t api_ep_nqueens_count;

/* GET /v1/nqueens/count?n=N[&threads=T][&timeout_ms=MS][&symmetry=B][&method=M] */
int api_nqueens_count_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* The exact-cover job of N-Queens (rows and columns primary, diagonals
 * secondary): count every solution (count_mode) or find the first, with
 * `engine`, split over `threads`.  Sets *job; 0, or API_ENOMEM. */
int api_nqueens_xc_prepare(int n, int count_mode, xcover_engine_t engine, unsigned threads,
                           int64_t timeout_ms, api_job_t **job);

/* How many leading rows the count fixes per subproblem, for n (exposed for
 * tests and the benchmark). */
int api_nqueens_split_depth(int n, int symmetry);

/* Counts up to this n are small enough (n = 10: 35,000 nodes, tens of
 * microseconds) to be answered whole on the HTTP thread. */
#define API_NQUEENS_INLINE_COUNT_N 10

#endif
