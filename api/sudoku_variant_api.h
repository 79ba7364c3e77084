/* sudoku_variant_api.h -- the Sudoku endpoints on a variant (issue 35):
 * POST /v1/sudoku/solve, validate, grade, hint and generate when the JSON
 * body carries a variant field (api_sudoku_variant_fields: variant,
 * layout, regions, extra_units, parity, pairs).  The classic endpoints
 * hand a request over when api_sudoku_variant_body() says so; a body
 * without those fields never gets here and keeps the classic path (its
 * fast reader and the fast 9x9 engine).  sudoku_variant_api.c has the
 * request and answer shapes; docs/variants.md the fields. */
#ifndef PUZZLED_API_SUDOKU_VARIANT_API_H
#define PUZZLED_API_SUDOKU_VARIANT_API_H

#include "api/opts.h"
#include "api/request.h"

/* 1 when req is a JSON request whose body names one of the variant fields
 * as a key (a byte scan: no parse, no allocation), else 0.  A key the scan
 * misses (written with \u escapes) leaves the body to the classic reader,
 * which calls it an unknown field. */
int api_sudoku_variant_body(const api_request_t *req);

/* The variant fields as rows of the classic endpoints' tables (solve,
 * validate, grade, hint, generate), so that each table lists every field its
 * endpoint takes (tools/api_tables, held to openapi.yaml).  They are read
 * here, not by the table: the endpoint hands a body with one of them over
 * before its table reads anything.  The table's reader gets such a member
 * only when the scan above missed its key (written with \u escapes):
 * api_sudoku_variant_missed() refuses it, by name. */
int api_sudoku_variant_missed(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                              void *out, api_problem_t *p);
#define API_SUDOKU_VARIANT_ROW(field)                                                              \
    { .name = field, .kind = API_OPT_DATA, .in = API_IN_JSON, .json = api_sudoku_variant_missed }
#define API_SUDOKU_VARIANT_ROWS                                                                    \
    API_SUDOKU_VARIANT_ROW("variant"), API_SUDOKU_VARIANT_ROW("layout"),                           \
        API_SUDOKU_VARIANT_ROW("regions"), API_SUDOKU_VARIANT_ROW("extra_units"),                  \
        API_SUDOKU_VARIANT_ROW("parity"), API_SUDOKU_VARIANT_ROW("pairs")

/* The endpoints on a variant body; as every api_prepare_fn. */
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
