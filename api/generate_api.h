/* generate_api.h -- POST /v1/sudoku/generate and POST /v1/killer/generate:
 * `count` new puzzles as the items of one pool job.  See generate_api.c. */
#ifndef PUZZLED_API_GENERATE_H
#define PUZZLED_API_GENERATE_H

#include <jansson.h>
#include <stddef.h>

#include "api/endpoint.h"
#include "solvers/sudoku/generate.h"

#define API_GEN_MAX_COUNT    100   /* puzzles in one JSON answer */
#define API_GEN_MAX_STREAM   10000 /* puzzles in one NDJSON stream (Accept: application/x-ndjson) */
#define API_GEN_MIN_N        4
#define API_GEN_MAX_N        25
#define API_GEN_SEED_MAX     9007199254740991LL /* 2^53 - 1: exact in a JSON number */
#define API_KILLER_GEN_MAX_N 16

extern const api_endpoint_t api_ep_sudoku_generate, api_ep_killer_generate;

/* The seed of puzzle `item` of a request with seed `seed` (0..
 * API_GEN_SEED_MAX), in 0..API_GEN_SEED_MAX:
 *   item 0      seed itself;
 *   item i > 0  splitmix64(seed ^ i * 0x9e3779b97f4a7c15) & API_GEN_SEED_MAX,
 * where splitmix64(x) is the first output of Vigna's SplitMix64 from state
 * x (z = x + 0x9e3779b97f4a7c15; z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9;
 * z = (z ^ z >> 27) * 0x94d049bb133111eb; z ^ z >> 31; all mod 2^64).
 * Item 0 keeps the seed so that a request with any puzzle's reported seed
 * and count 1 regenerates that puzzle; the hash keeps the items of nearby
 * seeds apart (seed s and s + 1 share none, where seed + i shared all but
 * one).  Both generate endpoints and the variant generator use it. */
long long api_gen_item_seed(long long seed, size_t item);

int api_sudoku_generate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);
int api_killer_generate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* What the Sudoku generator's table says besides the grid's shape, for
 * the variant generator (sudoku_variant_api.c), which reads box and the
 * variant fields itself: unknown members named, and every other row read
 * from root as the table reads it (api_opts_json_options; absent members
 * take the row's default).  seed is a fresh one from the clock when none
 * was given; [rating_min, rating_max) the window of `difficulty` or
 * `rating` (0 and 1e9 without either).  Returns 0, -1 with each bad
 * field's error added to p, or -2 when out of memory. */
typedef struct api_gen_opts_s {
    long long count, timeout_ms, seed, size;
    double rating_min, rating_max;
    sudoku_symmetry_t symmetry;
    int minimal;
    int givens_min, givens_max; /* 0: no bound (0..API_GEN_MAX_N^2, min <= max, read) */
} api_gen_opts_t;

/* The givens range of a generation request against its grid's `cells`
 * (live cells for a variant): 0, or -1 with a 400 error added to p. */
int api_gen_givens_check(int cells, int givens_min, int givens_max, api_problem_t *p);

/* For `why` (sudoku_gen_reachable's answer for o, or SUDOKU_GEN_RATING_GAP
 * from the variant generator): 0 when reachable, else -1 with p restarted
 * as a 422 API_EUNREACHABLE that says why and names the field. */
int api_gen_reach_problem(const sudoku_gen_opts_t *o, sudoku_gen_reach_t why, api_problem_t *p);

int api_gen_sudoku_options(const api_request_t *req, json_t *root, api_gen_opts_t *out,
                           api_problem_t *p);

#endif
