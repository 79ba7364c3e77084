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

/* === What the variant endpoints share (api/sudoku_variant_api.c) ===
 * The engine's runs for grade and hint, whatever the grid: the endpoints
 * differ only in how a step is written. */

/* Loads `puzzle` (cells bytes) into st and grades it to the end with the
 * solution known (assume_unique, trial and guess), calling on_step(ud, ...)
 * before each step when not NULL.  *bad_path = 1 when the engine does not
 * end on the solution or meets a contradiction (an engine bug: the caller
 * answers 500).  Returns 0, or a SEARCH_* code (ENOMEM, the deadline's) or
 * the callback's. */
int api_logic_grade_run(sudoku_logic_t *st, const uint8_t *puzzle, const uint8_t *solution,
                        size_t cells, const search_ctl_t *ctl,
                        int (*on_step)(void *ud, const sudoku_logic_t *st,
                                       const sudoku_logic_step_t *step),
                        void *ud, sudoku_grade_t *g, int *bad_path);

/* The easiest step from st's position (loaded, pencil marks applied) as
 * {"status": "hint", "step": to_json(ud, step)} into *answer (the
 * caller's).  *bad_path = 1 when none is found (trial and guess always find
 * one from a true position).  Returns 0 or a SEARCH_* code. */
int api_logic_hint_step(sudoku_logic_t *st, const uint8_t *solution, const search_ctl_t *ctl,
                        json_t *(*to_json)(const void *ud, const sudoku_logic_step_t *step),
                        const void *ud, json_t **answer, int *bad_path);

/* The answer of a grade or hint run that ended without one (rc a stop
 * other than the deadline's, nsol != 1, a bad path): a problem into out, 1;
 * 0 when there is an answer to render. */
int api_logic_failed(api_response_t *out, int rc, int nsol, int bad_path);

/* Reads hint's `pencil` ([{"cell": [r, c], "values": [...]}, ...]) over a
 * rows x cols grid (live: NULL, or 1 for the cells that exist) whose
 * filled cells are grid[]: marks[r*cols + c] gets the values as a mask of
 * solver values (symbols: NULL for 1..n, else symbols[k] is value k+1),
 * 0x80000000 for a cell marked with nothing (the player's mistake, not
 * the request's).  marks[] must be zero.  Returns 0 or API_EINVALID with
 * a problem per bad entry added to p (naming pencil[i].cell, .values[k]). */
int api_logic_read_pencil(json_t *pencil, int rows, int cols, int n, const uint8_t *grid,
                          const uint8_t *live, const long long *symbols, uint32_t *marks,
                          api_problem_t *p);

/* Largest side the logic endpoints take. */
#define API_LOGIC_MAX_N SUDOKU_LOGIC_MAX_N

#endif
