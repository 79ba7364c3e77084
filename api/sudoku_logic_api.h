/* sudoku_logic_api.h -- the logic endpoints: grade a puzzle by the human
 * techniques it needs, and hint the next step of a grid in progress.  See
 * sudoku_logic_api.c for the answers. */
#ifndef PUZZLED_API_SUDOKU_LOGIC_H
#define PUZZLED_API_SUDOKU_LOGIC_H

#include "api/request.h"
#include "api/sudoku_api.h"
#include "solvers/sudoku/logic.h"

extern const api_endpoint_t api_ep_sudoku_grade, api_ep_sudoku_hint;

/* POST /v1/sudoku/grade */
int api_sudoku_grade_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/sudoku/hint */
int api_sudoku_hint_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* One step as JSON ({"technique","placements","eliminations","cells",
 * "candidates","explanation","trial"}), cells 0-based, values in pz's
 * symbols.  Also used by the tests.  NULL when out of memory. */
json_t *api_logic_step_json(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *step);

/* The step's sentence for people (rows, columns, boxes from 1) into buf. */
void api_logic_explain(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *step, char *buf,
                       size_t cap);

/* Largest side the logic endpoints take. */
#define API_LOGIC_MAX_N SUDOKU_LOGIC_MAX_N

#endif
