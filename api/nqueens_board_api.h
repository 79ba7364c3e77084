/* nqueens_board_api.h -- N-Queens beyond counting: partly placed boards
 * (completion, counting completions, analysis), the heuristic methods, and
 * paged enumeration of every solution. */
#ifndef PUZZLED_API_NQUEENS_BOARD_H
#define PUZZLED_API_NQUEENS_BOARD_H

#include "api/request.h"

#define API_NQUEENS_MAX_N        10000000 /* minconflicts */
#define API_NQUEENS_TRACE_MAX_N  10000    /* trace=true */
#define API_NQUEENS_INLINE_MAX_N 100000   /* larger boards are streamed */

/* POST /v1/nqueens/solve: {"n", "queens" | "placed", "method", "seed",
 * "max_steps", "trace", "output", "timeout_ms"} */
int api_nqueens_solve_post_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* GET /v1/nqueens/solve with method auto | backtracking | mrv | minconflicts
 * (n, method, seed, max_steps, trace, output, timeout_ms). */
int api_nqueens_solve_get_board(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/nqueens/count: completions of a partly placed board. */
int api_nqueens_count_post_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/nqueens/analyze: answered at once. */
int api_nqueens_analyze_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* GET /v1/nqueens/solutions?n=N&offset=K&limit=M */
int api_nqueens_solutions_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

#endif
