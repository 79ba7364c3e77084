/* sudoku_api.h -- the Sudoku endpoints: JSON, text and CSV input, symbol
 * mapping, validation, and answers.  See sudoku_api.c for the formats. */
#ifndef PUZZLED_API_SUDOKU_H
#define PUZZLED_API_SUDOKU_H

#include <jansson.h>
#include <stdint.h>

#include "api/endpoint.h"
#include "api/json_writer.h"
#include "solvers/sudoku/sudoku.h"
#include "solvers/xcover/xcover.h"

extern const api_endpoint_t api_ep_sudoku_solve, api_ep_sudoku_validate;

/* POST /v1/sudoku/solve */
int api_sudoku_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

/* POST /v1/sudoku/validate (answered at once: no search needed) */
int api_sudoku_validate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

#define API_SUDOKU_TRACE_CAP      10000       /* steps returned with trace=true */
#define API_SUDOKU_SOLUTION_BYTES (16u << 20) /* max_solutions * N * N at most */
#define API_SUDOKU_MAX_CELLS      (SUDOKU_MAX_N * SUDOKU_MAX_N)
#define API_SUDOKU_STRING_MAX_N   35 /* a string grid: '1'-'9', then 'A'-'Z' */

/* === The reader the Sudoku endpoints share (solve, validate, and the
 * logic endpoints: grade, hint) === */

typedef enum api_sudoku_out_e { API_SUDOKU_OUT_STRING, API_SUDOKU_OUT_ARRAYS } api_sudoku_out_t;

/* A puzzle as read from any of the formats (see sudoku_api.c): raw values,
 * the symbols, the shape, the solver's grid, and the solve options. */
typedef struct api_sudoku_puzzle_s {
    int n;
    int box_rows, box_cols; /* as requested; 0 = default */
    sudoku_shape_t shape;
    long long raw[API_SUDOKU_MAX_CELLS]; /* -1 empty, else the value as written */
    int row_len[SUDOKU_MAX_N];           /* CSV: values seen per line */
    long long symbols[SUDOKU_MAX_N];     /* symbols[k] is solver value k+1 */
    int nsymbols;                        /* 0 = default 1..N */
    int zero_is_symbol;
    api_sudoku_out_t out; /* answer grids as a string or as arrays */
    int csv_out;
    uint8_t grid[API_SUDOKU_MAX_CELLS]; /* solver values 0..N */
    int method_ix, level_ix;            /* as asked: indices in the table's names, -1 none */
    sudoku_method_t method; /* what they mean (method_ix: auto, or algorithm-x, dlx: xc) */
    sudoku_level_t level;
    long long max_solutions;
    long long timeout_ms;
    long long threads;
    int trace;
    int xc; /* method dlx or algorithm-x: solved as exact cover */
    xcover_engine_t engine;
    int read_fast; /* the JSON body was read without jansson (the tests look) */
    /* The logic endpoints' own (sudoku_logic_api.c): grade's steps; hint's
     * givens and pencil marks, references the request holds (json_incref'd
     * by their readers: the hint's job drops them). */
    int steps;
    json_t *givens, *pencil;
} api_sudoku_puzzle_t;

/* The rows of the puzzle every Sudoku table reads alike (api/opts.h): grid
 * (a string or N arrays; required; the fast path takes a string when
 * grid_in has API_IN_FAST) and symbols; and box, an object in a JSON body,
 * "RxC" in the query (when box_in has API_IN_QUERY), which each table puts
 * where its query's problems name it. */
#define API_SUDOKU_PUZZLE_ROWS(grid_in)                                                            \
    {.name = "grid",                                                                               \
     .kind = API_OPT_DATA,                                                                         \
     .in = (grid_in),                                                                              \
     .flags = API_OPT_REQUIRED | API_OPT_ABSENT,                                                   \
     .json = api_sudoku_grid_read,                                                                 \
     .fast = api_sudoku_grid_fast},                                                                \
    {                                                                                              \
        .name = "symbols", .kind = API_OPT_DATA, .in = API_IN_JSON,                                \
        .json = api_sudoku_symbols_read                                                            \
    }
#define API_SUDOKU_BOX_ROW(box_in)                                                                 \
    {                                                                                              \
        .name = "box", .kind = API_OPT_DATA, .in = (box_in), .json = api_sudoku_box_read,          \
        .query = api_sudoku_box_query                                                              \
    }
int api_sudoku_grid_read(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                         void *out, api_problem_t *p);
int api_sudoku_grid_fast(const api_opt_t *o, const api_request_t *req, api_js_t *js, void *out);
int api_sudoku_symbols_read(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                            void *out, api_problem_t *p);
int api_sudoku_box_read(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                        void *out, api_problem_t *p);
int api_sudoku_box_query(const api_opt_t *o, const api_request_t *req, const char *v, void *out,
                         api_problem_t *p);

/* Reads a request into *pz (zeroed by the caller: calloc) with ep's table
 * (NULL: solve's): a JSON body (the fast path first when the table has one),
 * or text or CSV with the options in the query.  Returns 0, or an API_E*
 * code with the problem in p (API_EUNPROCESSABLE when the givens break a
 * rule, every conflicting cell named). */
int api_sudoku_read(const api_request_t *req, const api_endpoint_t *ep, api_sudoku_puzzle_t *pz,
                    api_problem_t *p);

/* A grid in the input's form and symbols (string or arrays with null for
 * empty), and the box as {"rows","cols"}.  New references; NULL when out of
 * memory. */
json_t *api_sudoku_grid_json(const api_sudoku_puzzle_t *pz, const uint8_t *grid);
json_t *api_sudoku_box_json(const api_sudoku_puzzle_t *pz);

/* The head of a grid puzzle's solve answer, Sudoku's and Killer's (which
 * has its shape): "status", "n", "box" {"rows", "cols"}, "solutions_found",
 * and the key "unique", whose value the caller writes next. */
void api_sudoku_answer_head(api_jw_t *w, const char *status, int n, int box_rows, int box_cols,
                            long long solutions_found);

#endif
