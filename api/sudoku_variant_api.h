/* sudoku_variant_api.h -- the Sudoku endpoints on a variant (issue 35):
 * POST /v1/sudoku/solve, validate, grade, hint and generate when the JSON
 * body carries a variant field (api_sudoku_variant_fields: variant,
 * layout, regions, extra_units, parity, pairs).  The classic endpoints
 * hand a request over when api_sudoku_variant_body() says so, through the
 * hand-overs defined here (api/endpoint.h: api_handovers[]); a body
 * without those fields never gets here and keeps the classic path (its
 * fast reader and the fast 9x9 engine).  sudoku_variant_api.c has the
 * request and answer shapes; docs/variants.md the fields. */
#ifndef PUZZLED_API_SUDOKU_VARIANT_API_H
#define PUZZLED_API_SUDOKU_VARIANT_API_H

#include "api/request.h"

/* The endpoints on a variant body; as every api_prepare_fn. */
/* POST /v1/killer/solve with a variant field: the cages as constraints of
 * type cage, solved as the Sudoku solve of that variant. */
int api_killer_variant_solve_prepare(const api_request_t *req, api_job_t **job,
                                     api_response_t *resp);
/* POST /v1/killer/grade and /v1/killer/hint: the same rewrite, graded or
 * hinted as the Sudoku variant it is. */
int api_killer_variant_grade_prepare(const api_request_t *req, api_job_t **job,
                                     api_response_t *resp);
int api_killer_variant_hint_prepare(const api_request_t *req, api_job_t **job,
                                    api_response_t *resp);
int api_sudoku_variant_solve_prepare(const api_request_t *req, api_job_t **job,
                                     api_response_t *resp);
int api_sudoku_variant_validate_prepare(const api_request_t *req, api_job_t **job,
                                        api_response_t *resp);
int api_sudoku_variant_grade_prepare(const api_request_t *req, api_job_t **job,
                                     api_response_t *resp);
int api_sudoku_variant_hint_prepare(const api_request_t *req, api_job_t **job,
                                    api_response_t *resp);
int api_sudoku_variant_generate_prepare(const api_request_t *req, api_job_t **job,
                                        api_response_t *resp);

#endif
