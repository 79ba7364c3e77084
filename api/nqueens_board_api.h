/* nqueens_board_api.h -- N-Queens beyond counting: solving (GET with n
 * alone, by any method, exact cover included; POST with a partly placed
 * board), counting a board's completions, analysis, and paged enumeration
 * of every solution. */
#ifndef PUZZLED_API_NQUEENS_BOARD_H
#define PUZZLED_API_NQUEENS_BOARD_H

#include "api/endpoint.h"

#define API_NQUEENS_MAX_N        10000000 /* minconflicts */
#define API_NQUEENS_TRACE_MAX_N  10000    /* trace=true */
#define API_NQUEENS_INLINE_MAX_N 100000   /* larger boards are streamed */

extern const api_endpoint_t api_ep_nqueens_solve, api_ep_nqueens_solve_post,
    api_ep_nqueens_count_post, api_ep_nqueens_analyze, api_ep_nqueens_solutions;

/* GET /v1/nqueens/solve?n=N[&method=M]...: a board method (auto,
 * backtracking, mrv, minconflicts: seed, max_steps, start, trace, output),
 * or exact cover (dlx, algorithm-x: threads). */
int api_nqueens_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* GET /v1/nqueens/solve with a board method only (an exact-cover one is a
 * 400 naming method): the tests' way to the board methods. */
int api_nqueens_solve_get_board(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/nqueens/solve: {"n", "queens" | "placed", "method", "start",
 * "seed", "max_steps", "trace", "output", "timeout_ms"} */
int api_nqueens_solve_post_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/nqueens/count: completions of a partly placed board. */
int api_nqueens_count_post_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/nqueens/analyze: answered at once. */
int api_nqueens_analyze_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* GET /v1/nqueens/solutions?n=N&offset=K&limit=M */
int api_nqueens_solutions_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

#endif
