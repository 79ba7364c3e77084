/* opts.h -- a request's options as data: one table per endpoint, and one
 * reader that applies it to the query string, to the JSON body (jansson)
 * and to the JSON fast path (api/json_scan.h).
 *
 * An endpoint describes each thing a request may say once, as an
 * api_opt_t: its name, its kind, its range or its names, its default,
 * where it may appear (API_IN_*), and where it lands in the endpoint's job
 * struct (`at`, an offsetof).  Scalars (ints, booleans, enums) are read
 * here; what is particular to a puzzle (a grid, cages, the items of an
 * exact cover) is read by the entry's own callbacks, which the reader calls
 * in the entry's place.  So every option of every endpoint is read in one
 * place, its table row, and the three ways in cannot disagree: the fast
 * path takes exactly the rows marked API_IN_FAST, with the same ranges, and
 * gives up on anything else.
 *
 *   static const api_opt_t kl_opts[] = {
 *       {.name = "max_solutions", .kind = API_OPT_INT, .in = API_IN_ALL,
 *        .lo = 1, .hi = KILLER_MAX_SOLUTIONS, .def = 1, .at = offsetof(kl_job_t, max_solutions)},
 *       {.name = "timeout_ms", .kind = API_OPT_INT, .in = API_IN_ALL,
 *        .lo = 1, .hi = API_REQ_TIMEOUT, .def = API_REQ_TIMEOUT, .at = ...},
 *       {.name = "cages", .kind = API_OPT_DATA, .in = API_IN_JSON | API_IN_FAST,
 *        .json = kl_cages_json, .fast = kl_cages_fast},
 *       {0}};
 *
 * What lands where: INT a long long, BOOL an int (0 or 1), ENUM an int (the
 * index of the value in `names`, -1 for none), NUMBER a double; DATA and
 * OBJECT only through their callbacks, which get the whole struct.
 *
 * Problems are the ones each endpoint answered before the tables, word for
 * word: query integers "must be an integer from 1 to 27, got 'x'" or "must
 * be from 1 to 27, got 99", body integers "must be an integer from 1 to
 * 27", booleans "must be true or false", enums "must be auto, mrv or dlx"
 * (names joined; API_OPT_GOT adds ", got 'x'"), unknown names "unknown
 * parameter" / "unknown field", a parameter given twice "parameter given
 * more than once".
 *
 * Order: the query and a body in table order read rows in table order, so
 * a table lists its rows in the order the endpoint's problems name them;
 * unknown body members are named first, in body order.  A table read in
 * body order (API_OPTS_BODY_ORDER: the Sudoku family) names every member
 * where the client wrote it, unknown ones too.  Rows with a later `phase`
 * are read only when the endpoint asks for that phase, after its own checks
 * in between (the Killer cages after the options, the N-Queens options
 * after the board).
 *
 * Variants: an endpoint whose options depend on a choice the request makes
 * (GET /v1/nqueens/solve: exact cover or a board method) gives each row the
 * variants it belongs to (a bit mask; 0 = all); a row outside the request's
 * variant is an unknown parameter.
 *
 * api/ has no mutable globals: tables are const, and the reader keeps its
 * state on the stack. */
#ifndef PUZZLED_API_OPTS_H
#define PUZZLED_API_OPTS_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>

#include "api/json_scan.h"
#include "api/problem.h"
#include "api/request.h"

typedef enum api_opt_kind_e {
    API_OPT_INT,       /* a decimal integer (query) or a JSON integer, lo..hi */
    API_OPT_BOOL,      /* true / false (the query also takes 1 / 0) */
    API_OPT_NUMBER,    /* a JSON number, num_lo..num_hi (read by a callback) */
    API_OPT_ENUM,      /* one of `names` */
    API_OPT_DATA,      /* puzzle data (a grid, cages, a list): its callbacks read it */
    API_OPT_OBJECT,    /* a JSON object of the rows in `fields`: its callback reads it */
    API_OPT_ELSEWHERE, /* a name that belongs to another endpoint: the problem is `msg` */
} api_opt_kind_t;

/* Where a row may appear (api_opt_t.in). */
#define API_IN_QUERY 1u /* a query parameter (GET routes, text and CSV bodies) */
#define API_IN_JSON  2u /* a member of the JSON body */
#define API_IN_FAST  4u /* ... which the fast path reads too (with API_IN_JSON) */
#define API_IN_ALL   (API_IN_QUERY | API_IN_JSON | API_IN_FAST)

/* api_opt_t.flags */
#define API_OPT_REQUIRED 1u /* absent is a problem (the fast path gives up) */
#define API_OPT_GOT      2u /* ENUM: the problem quotes the value: ", got 'x'" */
#define API_OPT_STRING   4u /* ENUM: a JSON value that is no string is "must be a string" */
#define API_OPT_ABSENT   8u /* DATA/OBJECT: the JSON callback is called when absent too */

/* lo, hi and def may name a limit of the request instead of a number. */
#define API_REQ_TIMEOUT LLONG_MIN       /* api_request_t.max_timeout_ms */
#define API_REQ_THREADS (LLONG_MIN + 1) /* api_request_t.pool_threads */

typedef struct api_opt_s api_opt_t;

/* A row's own readers (DATA, OBJECT, or one that adds to its kind's, which
 * it may call first: api_opts_json_kind(), api_opts_query_kind()).
 * json: v is the member (NULL when absent: API_OPT_ABSENT), root the body;
 *   returns 0, -1 after adding problems to p, or -2 when out of memory.
 * query: v the parameter's value; 0 or -1 (problems in p).
 * fast: reads the member's value at js; 0, or -1 to give up. */
typedef int (*api_opt_json_fn)(const api_opt_t *o, const api_request_t *req, json_t *root,
                               json_t *v, void *out, api_problem_t *p);
typedef int (*api_opt_query_fn)(const api_opt_t *o, const api_request_t *req, const char *v,
                                void *out, api_problem_t *p);
typedef int (*api_opt_fast_fn)(const api_opt_t *o, const api_request_t *req, api_js_t *js,
                               void *out);

struct api_opt_s {
    const char *name; /* NULL ends a table */
    api_opt_kind_t kind;
    unsigned in;       /* API_IN_* */
    unsigned flags;    /* API_OPT_* */
    unsigned phase;    /* read when the endpoint asks for this phase (0 first) */
    unsigned variants; /* the endpoint's variants it belongs to; 0 = all */
    /* INT: the range and the default (a default outside the range means
     * none: the field stays as the default says, and the document has no
     * default); BOOL, ENUM: def (ENUM: an index, -1 none).  Either may be
     * API_REQ_*. */
    long long lo, hi, def;
    const long long *only; /* INT: the values allowed within lo..hi (ends with LLONG_MIN) */
    double num_lo, num_hi, num_def;
    const char *const *names; /* ENUM: the values, NULL-terminated */
    const api_opt_t *fields;  /* OBJECT: its members (a table) */
    const char *msg;          /* ENUM, ELSEWHERE: the problem's text instead of the made one */
    size_t at;                /* offsetof the field it fills in the endpoint's struct */
    api_opt_json_fn json;     /* JSON reader (DATA, OBJECT, or instead of the kind's) */
    api_opt_query_fn query;   /* query reader (instead of the kind's) */
    api_opt_fast_fn fast;     /* fast-path reader (DATA with API_IN_FAST) */
};

/* api_opts_json()'s `how`: the phase to read, and API_OPTS_BODY_ORDER. */
#define API_OPTS_BODY_ORDER 0x100u

/* Writes every INT, BOOL and ENUM row's default into out (API_REQ_* from
 * req); rows without a default and the other kinds are left alone. */
void api_opts_defaults(const api_opt_t *table, const api_request_t *req, void *out);

/* Reads the query string.  In phase 0 it first names every parameter that
 * is no API_IN_QUERY row of `variant` ("unknown parameter") or comes twice;
 * then it reads the phase's query rows of the variant in table order (a
 * row whose parameter is absent keeps its default, or is a problem when
 * API_OPT_REQUIRED).  Returns 0, or -1 when it added problems to p. */
int api_opts_query(const api_opt_t *table, const api_request_t *req, unsigned phase,
                   unsigned variant, void *out, api_problem_t *p);

/* Reads a JSON body's members (root, an object).  In table order (the
 * default) phase 0 first names the members that are no API_IN_JSON row
 * ("unknown field"); then the phase's rows in table order.  With
 * API_OPTS_BODY_ORDER every member is read (or named unknown) where it
 * stands, then absent rows are checked.  Returns 0, -1 (problems in p) or
 * -2 (out of memory, from a callback). */
int api_opts_json(const api_opt_t *table, const api_request_t *req, json_t *root, unsigned how,
                  void *out, api_problem_t *p);

/* A body whose puzzle data another reader reads (the Sudoku variants,
 * api/sudoku_variant_api.c, read the grid, box and variant fields their
 * own way): names the members that are no API_IN_JSON row of table
 * ("unknown field"), then reads every row present in root that is no DATA
 * row, in table order, as api_opts_json() reads it (callbacks included).
 * Names in skip (NULL-terminated, or NULL) are neither named nor read: the
 * caller refuses them its own way.  Returns 0, -1 (problems in p) or -2
 * (out of memory, from a callback). */
int api_opts_json_options(const api_opt_t *table, const api_request_t *req, json_t *root,
                          const char *const *skip, void *out, api_problem_t *p);

/* The fast path: reads the body as one JSON object of API_IN_FAST rows
 * (api/json_scan.h's subset of JSON), each once, every API_OPT_REQUIRED one
 * present, and no query string.  Returns 1 when it read the body into out,
 * 0 when it gave up: on anything else, and on every error.  out may then be
 * partly written: the caller reads the body again from its defaults, and
 * frees what a fast callback kept. */
int api_opts_fast(const api_opt_t *table, const api_request_t *req, void *out);

/* What the reader does for a row of o's kind (INT, BOOL, ENUM) with the
 * member v (not NULL) or the parameter's value v; for a callback that
 * checks more.  0 or -1 (problems in p). */
int api_opts_json_kind(const api_opt_t *o, const api_request_t *req, json_t *v, void *out,
                       api_problem_t *p);
int api_opts_query_kind(const api_opt_t *o, const api_request_t *req, const char *v, void *out,
                        api_problem_t *p);

/* names (NULL-terminated) as "a, b or c" into out[cap]. */
void api_opts_join(const char *const *names, char *out, size_t cap);

/* The row named `name` that may appear `in` (API_IN_QUERY or API_IN_JSON),
 * or NULL. */
const api_opt_t *api_opts_find(const api_opt_t *table, const char *name, unsigned in);

/* A row's lo, hi or def with API_REQ_* resolved against req. */
long long api_opts_limit(long long v, const api_request_t *req);

#endif
