/* generate_api.h -- POST /v1/sudoku/generate and POST /v1/killer/generate:
 * `count` new puzzles as the items of one pool job.  See generate_api.c. */
#ifndef PUZZLED_API_GENERATE_H
#define PUZZLED_API_GENERATE_H

#include <jansson.h>

#include "api/endpoint.h"

#define API_GEN_MAX_COUNT    100
#define API_GEN_MIN_N        4
#define API_GEN_MAX_N        25
#define API_GEN_SEED_MAX     9007199254740991LL /* 2^53 - 1: exact in a JSON number */
#define API_KILLER_GEN_MAX_N 9

extern const api_endpoint_t api_ep_sudoku_generate, api_ep_killer_generate;

int api_sudoku_generate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);
int api_killer_generate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* What the generators share with the variant one (sudoku_variant_api.c),
 * read by the rows of the Sudoku generator's table: api_gen_window:
 * `difficulty` (a level) or `rating` {min, max} of root into [*lo, *hi) (0
 * and 1e9 without either); api_gen_seed: `seed`, or a fresh one from the
 * clock.  0, or -1 with the field's error added to p. */
int api_gen_window(const api_request_t *req, json_t *root, double *lo, double *hi,
                   api_problem_t *p);
int api_gen_seed(const api_request_t *req, json_t *root, long long *seed, api_problem_t *p);

#endif
