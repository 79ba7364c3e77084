/* sudoku_api.h -- the Sudoku endpoints: JSON, text and CSV input, symbol
 * mapping, validation, and answers.  See sudoku_api.c for the formats. */
#ifndef PUZZLED_API_SUDOKU_H
#define PUZZLED_API_SUDOKU_H

#include "api/request.h"

/* POST /v1/sudoku/solve */
int api_sudoku_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/sudoku/validate (answered at once: no search needed) */
int api_sudoku_validate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

#define API_SUDOKU_TRACE_CAP      10000       /* steps returned with trace=true */
#define API_SUDOKU_SOLUTION_BYTES (16u << 20) /* max_solutions * N * N at most */

#endif
