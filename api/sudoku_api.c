/* sudoku_api.c -- Sudoku over HTTP: three input formats, one puzzle model.
 *
 * Input formats (chosen by Content-Type; absent means JSON, and so does
 * curl's default application/x-www-form-urlencoded when the body is a JSON
 * object):
 *   application/json  {"grid": ..., "box": {"rows","cols"}, "symbols": [...],
 *                     "method", "propagation", "max_solutions", "timeout_ms",
 *                     "trace"}.  `grid` is either a string of N*N characters
 *                     (N <= 35: '.' or '0' empty, '1'-'9', then 'A'-'Z' or
 *                     'a'-'z' for 10..35), or N arrays of N integers with 0
 *                     or null for an empty cell.  When the symbols include 0,
 *                     0 is a symbol and only null is empty.
 *   text/plain        line 1 N, line 2 the N symbols, then one given per line
 *                     as "row,col value" (0-based); blank and '#' lines skipped.
 *   text/csv          N lines of N comma-separated values; an empty field is
 *                     an empty cell.
 *   text/x-iss        a puzzle in the text of sigh's Interactive Sudoku
 *                     Solver (solve and validate): handed over as a variant,
 *                     api/sudoku_iss.h reads it.
 * In text and CSV every number is digits only, read in place however long
 * its line, and range-checked before use (api/decimal.h): "4294967296,0 3"
 * is an error, never a given at (0,0); so is text after a given.
 * For text, CSV and ISS the options come from the query string (method,
 * propagation, max_solutions, timeout_ms, trace, box=RxC; ISS's text gives
 * its own boxes); a JSON request takes them from the body only.
 *
 * Everything is parsed into sd_puzzle_t: raw cell values (-1 = empty) and the
 * symbol list, then mapped to the solver's 1..N by position in the symbol
 * list (symbols[k] is solver value k+1).  Errors name the field as a client
 * would write it: grid[3][4], symbols[2], box.rows, "line 5".
 *
 * Answers use the input's shape: a string grid answers strings, arrays and
 * text/CSV answer arrays of arrays, in the input's symbols.  With Accept:
 * text/csv a solved puzzle answers its (first) solution as CSV; a puzzle
 * without a solution still answers JSON, since CSV cannot say why.
 * Every solution is checked against the givens and the rules before it is
 * sent (a failure is a 500: it would be a solver bug).
 *
 * The main call of the service -- a JSON body with a string grid and a few
 * scalar options -- is read without a jansson tree (the rows of sd_opts
 * marked API_IN_FAST, api/opts.h and api/json_scan.h), and every solve answer is written straight
 * into its buffer (api/json_writer.h): together they were a fifth of the server's CPU per 9x9
 * request.  Any other body, and any body with an error, goes through jansson, which names what is
 * wrong. */
#include "api/sudoku_api.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/decimal.h"
#include "api/endpoint.h"
#include "api/grid_char.h"
#include "api/json_scan.h"
#include "api/json_util.h"
#include "api/json_writer.h"
#include "api/sudoku_iss.h"
#include "api/sudoku_variant.h"
#include "api/xc_job.h"
#include "solvers/sudoku/exchange.h"
#include "solvers/sudoku/sudoku.h"
#include "solvers/sudoku/xc.h"

#define SD_MAX_CELLS     API_SUDOKU_MAX_CELLS
#define SD_STRING_MAX_N  API_SUDOKU_STRING_MAX_N
#define SD_CONFLICTS_CAP 256
#define SD_SYMBOL_MAX    2147483647LL
#define SD_OUT_STRING    API_SUDOKU_OUT_STRING
#define SD_OUT_ARRAYS    API_SUDOKU_OUT_ARRAYS
#define SD_VARIANT       1 /* sd_read(): a variant's body (never an API_E* code) */

/* The puzzle struct is shared with the logic endpoints (sudoku_api.h). */
typedef api_sudoku_puzzle_t sd_puzzle_t;

/* === Small helpers === */

static void sd_cell_name(char *out, size_t cap, int n, int i) {
    snprintf(out, cap, "grid[%d][%d]", i / n, i % n);
}

/* === Options: the table === */

/* `method`: sudoku.h's methods, two of which (algorithm-x, dlx) are solved
 * as exact cover; `propagation`: its levels but "default". */
static const char *const sd_methods[] = {
    "auto",        "backtracking", "mrv",  "propagation", "best-first",
    "algorithm-x", "dlx",          "fast", "cdcl",        NULL};
static const char *const sd_levels[] = {"peers", "hidden-singles", "naked-pairs", "subsets", NULL};
static const char *const sd_media[] = {"application/json", "text/plain", "text/csv",
                                       API_SUDOKU_ISS_MEDIA, NULL};

/* The method and level asked (names) into the solver's terms. */
static void sd_choose(sd_puzzle_t *pz) {
    const char *m = pz->method_ix >= 0 ? sd_methods[pz->method_ix] : "auto";
    pz->xc = xcover_engine_parse(m, &pz->engine) == 0;
    if (!pz->xc) sudoku_method_parse(m, &pz->method);
    if (pz->level_ix < 0)
        pz->level = SUDOKU_LEVEL_DEFAULT;
    else
        sudoku_level_parse(sd_levels[pz->level_ix], &pz->level);
}

/* box in the query: "RxC" (sudoku_api.h: the shared rows). */
int api_sudoku_box_query(const api_opt_t *o, const api_request_t *req, const char *v, void *out,
                         api_problem_t *p) {
    sd_puzzle_t *pz = out;
    int r, c, used = 0;
    (void)o, (void)req;
    if (sscanf(v, "%dx%d%n", &r, &c, &used) != 2 || v[used] != '\0' || r < 1 || c < 1 ||
        r > SUDOKU_MAX_N || c > SUDOKU_MAX_N) {
        api_problem_add(p, "query", "box", "must be ROWSxCOLS, e.g. 2x3, got '%.40s'", v);
        return -1;
    }
    pz->box_rows = r;
    pz->box_cols = c;
    return 0;
}

/* box in a JSON body: {"rows": R, "cols": C}. */
int api_sudoku_box_read(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                        void *out, api_problem_t *p) {
    sd_puzzle_t *pz = out;
    (void)o, (void)req, (void)root;
    return api_json_box(v, SUDOKU_MAX_N, &pz->box_rows, &pz->box_cols, p) != 0 ? -1 : 0;
}

int api_sudoku_symbols_read(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                            void *out, api_problem_t *p) {
    sd_puzzle_t *pz = out;
    (void)o, (void)req, (void)root;
    return api_json_symbols(v, SUDOKU_MAX_N, SD_SYMBOL_MAX, pz->symbols, &pz->nsymbols, p);
}

/* === The grid in a JSON body === */

static int sd_json_grid_string(const char *s, size_t len, sd_puzzle_t *pz, api_problem_t *p) {
    int n = 0;
    while (n * n < (int)len && n <= SD_STRING_MAX_N)
        n++;
    if (n * n != (int)len || n < SUDOKU_MIN_N || n > SD_STRING_MAX_N) {
        api_problem_add(p, "body", "grid",
                        "a string grid has N*N characters with N from %d to %d; got %zu characters",
                        SUDOKU_MIN_N, SD_STRING_MAX_N, len);
        return -1;
    }
    pz->n = n;
    pz->out = SD_OUT_STRING;
    int bad = 0;
    for (int i = 0; i < n * n; i++) {
        int v = api_grid_char_value(s[i]); /* API_GRID_EMPTY is raw's -1 */
        if (v == API_GRID_BAD) {
            char f[32];
            sd_cell_name(f, sizeof f, n, i);
            api_problem_add(p, "body", f,
                            "unexpected character '%c' (use . or 0 for empty, 1-9, A-Z)",
                            isprint((unsigned char)s[i]) ? s[i] : '?');
            bad = 1;
            continue;
        }
        pz->raw[i] = v;
    }
    return bad ? -1 : 0;
}

static int sd_json_grid_arrays(json_t *grid, sd_puzzle_t *pz, api_problem_t *p) {
    size_t n = json_array_size(grid);
    int bad = 0;
    if (n < SUDOKU_MIN_N || n > SUDOKU_MAX_N) {
        api_problem_add(p, "body", "grid", "must have N rows with N from %d to %d; got %zu",
                        SUDOKU_MIN_N, SUDOKU_MAX_N, n);
        return -1;
    }
    pz->n = (int)n;
    pz->out = SD_OUT_ARRAYS;
    for (size_t r = 0; r < n; r++) {
        json_t *row = json_array_get(grid, r);
        char f[32];
        if (!json_is_array(row) || json_array_size(row) != n) {
            snprintf(f, sizeof f, "grid[%zu]", r);
            api_problem_add(p, "body", f, "must be an array of %zu cells, like every row; got %zu",
                            n, json_is_array(row) ? json_array_size(row) : 0);
            bad = 1;
            continue;
        }
        for (size_t c = 0; c < n; c++) {
            json_t *cell = json_array_get(row, c);
            size_t i = r * n + c;
            if (json_is_null(cell)) {
                pz->raw[i] = -1;
            } else if (json_is_integer(cell) && json_integer_value(cell) >= 0 &&
                       json_integer_value(cell) <= SD_SYMBOL_MAX) {
                pz->raw[i] = json_integer_value(cell);
            } else {
                snprintf(f, sizeof f, "grid[%zu][%zu]", r, c);
                api_problem_add(p, "body", f, "must be a non-negative integer (a symbol) or null");
                bad = 1;
            }
        }
    }
    return bad ? -1 : 0;
}

/* grid: a string or N arrays (required). */
int api_sudoku_grid_read(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                         void *out, api_problem_t *p) {
    sd_puzzle_t *pz = out;
    (void)o, (void)req, (void)root;
    if (v == NULL) {
        api_problem_add(p, "body", "grid", "required");
        return -1;
    }
    if (json_is_string(v))
        return sd_json_grid_string(json_string_value(v), json_string_length(v), pz, p);
    if (json_is_array(v)) return sd_json_grid_arrays(v, pz, p);
    api_problem_add(p, "body", "grid", "must be a string or an array of rows");
    return -1;
}

/* The fast path's grid: a string grid of N*N good characters, or give up. */
int api_sudoku_grid_fast(const api_opt_t *o, const api_request_t *req, api_js_t *js, void *out) {
    sd_puzzle_t *pz = out;
    const char *grid;
    size_t glen;
    int n = 0;
    (void)o, (void)req;
    if (api_js_string(js, &grid, &glen) != 0) return -1;
    while (n * n < (int)glen && n <= SD_STRING_MAX_N)
        n++;
    if (n * n != (int)glen || n < SUDOKU_MIN_N || n > SD_STRING_MAX_N) return -1;
    for (size_t i = 0; i < glen; i++)
        if (api_grid_char_value(grid[i]) == API_GRID_BAD) return -1;
    pz->n = n;
    pz->out = SD_OUT_STRING;
    for (int i = 0; i < n * n; i++)
        pz->raw[i] = api_grid_char_value(grid[i]);
    return 0;
}

/* === The tables === */

#define SD_AT(f) offsetof(sd_puzzle_t, f)

/* solve and validate.  The query rows are for text and CSV bodies (in the
 * order their problems are named); a JSON body is read in body order; the
 * fast path takes a string grid and the scalars. */
static const api_opt_t sd_opts[] = {
    API_SUDOKU_PUZZLE_ROWS(API_IN_JSON | API_IN_FAST),
    {.name = "method",
     .kind = API_OPT_ENUM,
     .in = API_IN_ALL,
     .flags = API_OPT_GOT,
     .names = sd_methods,
     .def = 0,
     .at = SD_AT(method_ix)},
    {.name = "propagation",
     .kind = API_OPT_ENUM,
     .in = API_IN_ALL,
     .flags = API_OPT_GOT,
     .names = sd_levels,
     .def = -1,
     .at = SD_AT(level_ix)},
    {.name = "max_solutions",
     .kind = API_OPT_INT,
     .in = API_IN_ALL,
     .lo = 1,
     .hi = SUDOKU_MAX_SOLUTIONS,
     .def = 1,
     .at = SD_AT(max_solutions)},
    {.name = "trace", .kind = API_OPT_BOOL, .in = API_IN_ALL, .def = 0, .at = SD_AT(trace)},
    {.name = "threads",
     .kind = API_OPT_INT,
     .in = API_IN_ALL,
     .lo = 1,
     .hi = API_REQ_THREADS,
     .def = 1,
     .at = SD_AT(threads)},
    {.name = "timeout_ms",
     .kind = API_OPT_INT,
     .in = API_IN_ALL,
     .lo = 1,
     .hi = API_REQ_TIMEOUT,
     .def = API_REQ_TIMEOUT,
     .at = SD_AT(timeout_ms)},
    API_SUDOKU_BOX_ROW(API_IN_QUERY | API_IN_JSON),
    API_SUDOKU_VARIANT_ROWS,
    {0}};

/* A JSON body through jansson: options in the body only, every member read
 * where it stands (api_opts_json, body order). */
static int sd_parse_json(const api_request_t *req, const api_opt_t *opts, sd_puzzle_t *pz,
                         api_problem_t *p) {
    static const char *const none[] = {NULL};
    json_t *root;
    int bad = api_params_check(req, none, p) != 0, rc; /* options live in the body */

    if ((root = api_json_object(req, p)) == NULL) return -1;
    rc = api_opts_json(opts, req, root, API_OPTS_BODY_ORDER, pz, p);
    json_decref(root);
    return rc == -2 ? -2 : bad || rc != 0 ? -1 : 0;
}

/* === Text and CSV input === */

/* Splits body into lines (without "\r\n"); calls fn for each with its
 * 1-based number.  Stops at the first non-zero return. */
typedef int (*sd_line_fn)(sd_puzzle_t *pz, int lineno, const char *s, size_t len, api_problem_t *p);

static int sd_each_line(const api_request_t *req, sd_puzzle_t *pz, sd_line_fn fn,
                        api_problem_t *p) {
    const char *s = req->body ? req->body : "", *end = s + req->body_len;
    int lineno = 0, bad = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        size_t len = (size_t)(e - s);
        if (len > 0 && s[len - 1] == '\r') len--;
        bad |= fn(pz, ++lineno, s, len, p) != 0;
        if (p->nerrors >= API_PROBLEM_MAX_ERRORS) break;
        s = nl ? nl + 1 : end;
    }
    return bad ? -1 : 0;
}

static int sd_blank(const char *s, size_t len) {
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i == len || s[i] == '#';
}

/* A given of the text format, "row,col value" (blanks around each part),
 * into pz->raw.  The line is read where it is, however long; each number
 * is checked against its range before it is used (never wrapped).  0, or
 * -1 with the error, named `field` (the line), in p. */
static int sd_text_given(sd_puzzle_t *pz, const char *field, const char *s, size_t len,
                         api_problem_t *p) {
    const char *tok[3];
    size_t tlen[3], i = 0;
    long long r = 0, c = 0, v = 0;
    for (int k = 0; k < 3; k++) { /* the row, ',', the column, a blank, the value */
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        tok[k] = s + i;
        while (i < len && s[i] != ' ' && s[i] != '\t' && (k > 0 || s[i] != ','))
            i++;
        tlen[k] = (size_t)(s + i - tok[k]);
        if (k > 0) continue;
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i < len && s[i] == ',')
            i++;
        else
            tlen[0] = 0; /* no comma: not this format */
    }
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    int row = api_decimal(tok[0], tlen[0], pz->n - 1, &r);
    int col = api_decimal(tok[1], tlen[1], pz->n - 1, &c);
    int val = api_decimal(tok[2], tlen[2], SD_SYMBOL_MAX, &v);
    if (i != len || row == -1 || col == -1 || val == -1) {
        api_problem_add(p, "body", field, "expected 'row,col value', got '%.*s'",
                        (int)(len < 40 ? len : 40), s);
        return -1;
    }
    if (row != 0 || col != 0) {
        api_problem_add(p, "body", field, "cell (%.*s,%.*s) is outside the %dx%d grid",
                        (int)(tlen[0] < 20 ? tlen[0] : 20), tok[0],
                        (int)(tlen[1] < 20 ? tlen[1] : 20), tok[1], pz->n, pz->n);
        return -1;
    }
    if (val != 0) {
        api_problem_add(p, "body", field, "the value is over %lld, the largest symbol",
                        SD_SYMBOL_MAX);
        return -1;
    }
    if (pz->raw[r * pz->n + c] != -1) {
        api_problem_add(p, "body", field, "cell (%lld,%lld) is given twice", r, c);
        return -1;
    }
    pz->raw[r * pz->n + c] = v;
    return 0;
}

/* The text format keeps its stage in pz->n (0 = size not read yet) and
 * pz->nsymbols (0 = symbols not read yet). */
static int sd_text_line(sd_puzzle_t *pz, int lineno, const char *s, size_t len, api_problem_t *p) {
    char field[32];
    snprintf(field, sizeof field, "line %d", lineno);
    if (sd_blank(s, len)) return 0;
    if (pz->n == 0) {
        long long n;
        size_t a = 0, b = len;
        while (a < b && (s[a] == ' ' || s[a] == '\t'))
            a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
            b--;
        if (api_decimal(s + a, b - a, SUDOKU_MAX_N, &n) != 0 || n < SUDOKU_MIN_N ||
            n > SUDOKU_MAX_N) {
            api_problem_add(p, "body", field, "the first line is the size N, from %d to %d",
                            SUDOKU_MIN_N, SUDOKU_MAX_N);
            return -1;
        }
        pz->n = (int)n;
        for (int i = 0; i < pz->n * pz->n; i++)
            pz->raw[i] = -1;
        return 0;
    }
    if (pz->nsymbols == 0) {
        size_t i = 0;
        int k = 0;
        while (i < len) {
            while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == ','))
                i++;
            size_t j = i;
            while (j < len && s[j] != ' ' && s[j] != '\t' && s[j] != ',')
                j++;
            if (j == i) break;
            if (k == SUDOKU_MAX_N ||
                api_decimal(s + i, j - i, SD_SYMBOL_MAX, &pz->symbols[k]) != 0) {
                api_problem_add(p, "body", field,
                                "the second line holds the N symbols, non-negative integers");
                return -1;
            }
            k++;
            i = j;
        }
        pz->nsymbols = k;
        return 0;
    }
    return sd_text_given(pz, field, s, len, p);
}

static int sd_csv_line(sd_puzzle_t *pz, int lineno, const char *s, size_t len, api_problem_t *p) {
    int r = lineno - 1, c = 0;
    size_t i = 0;
    char field[32];
    if (len == 0) return 0; /* trailing newline(s) */
    if (r >= SUDOKU_MAX_N) {
        snprintf(field, sizeof field, "line %d", lineno);
        api_problem_add(p, "body", field, "more than %d rows", SUDOKU_MAX_N);
        return -1;
    }
    for (;;) {
        size_t j = i;
        while (j < len && s[j] != ',')
            j++;
        size_t a = i, b = j;
        while (a < b && (s[a] == ' ' || s[a] == '\t'))
            a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
            b--;
        if (c >= SUDOKU_MAX_N) {
            snprintf(field, sizeof field, "grid[%d]", r);
            api_problem_add(p, "body", field, "more than %d values", SUDOKU_MAX_N);
            return -1;
        }
        int rc =
            b == a ? 0 : api_decimal(s + a, b - a, SD_SYMBOL_MAX, &pz->raw[r * SUDOKU_MAX_N + c]);
        if (b == a) pz->raw[r * SUDOKU_MAX_N + c] = -1;
        if (rc != 0) {
            snprintf(field, sizeof field, "grid[%d][%d]", r, c);
            if (rc == -2)
                api_problem_add(p, "body", field, "is over %lld, the largest symbol",
                                SD_SYMBOL_MAX);
            else
                api_problem_add(p, "body", field,
                                "must be a non-negative integer or empty, got '%.*s'",
                                (int)(b - a < 20 ? b - a : 20), s + a);
            return -1;
        }
        c++;
        if (j >= len) break;
        i = j + 1;
    }
    pz->row_len[r] = c; /* checked once N is known */
    pz->n = r + 1 > pz->n ? r + 1 : pz->n;
    return 0;
}

static int sd_parse_csv(const api_request_t *req, sd_puzzle_t *pz, api_problem_t *p) {
    int bad = sd_each_line(req, pz, sd_csv_line, p) != 0;
    int n = pz->n;
    if (bad) return -1;
    if (n < SUDOKU_MIN_N) {
        api_problem_add(p, "body", "grid", "a CSV grid has N lines of N values, N from %d to %d",
                        SUDOKU_MIN_N, SUDOKU_MAX_N);
        return -1;
    }
    for (int r = 0; r < n; r++)
        if (pz->row_len[r] != n) {
            char f[32];
            snprintf(f, sizeof f, "grid[%d]", r);
            api_problem_add(p, "body", f, "has %d values; a %d-line grid needs %d in every row",
                            pz->row_len[r], n, n);
            bad = 1;
        }
    if (bad) return -1;
    /* compact rows from stride SUDOKU_MAX_N to stride n */
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            pz->raw[r * n + c] = pz->raw[r * SUDOKU_MAX_N + c];
    pz->out = SD_OUT_ARRAYS;
    return 0;
}

static int sd_parse_text(const api_request_t *req, sd_puzzle_t *pz, api_problem_t *p) {
    if (sd_each_line(req, pz, sd_text_line, p) != 0) return -1;
    if (pz->n == 0 || pz->nsymbols == 0) {
        api_problem_add(p, "body", "body", "expected the size on line 1 and the symbols on line 2");
        return -1;
    }
    pz->out = SD_OUT_ARRAYS;
    return 0;
}

/* === From raw values to the solver's grid === */

static int sd_finish(sd_puzzle_t *pz, api_problem_t *p) {
    int n = pz->n, bad = 0, rc;
    char f[32];

    rc = sudoku_shape_init(&pz->shape, n, pz->box_rows, pz->box_cols);
    if (rc == SUDOKU_ENOBOX) {
        api_problem_add(p, "body", "box",
                        "N = %d has no box shape rows x cols with 2 <= rows <= cols; give \"box\" "
                        "explicitly",
                        n);
        return -1;
    }
    if (rc != 0) {
        api_problem_add(p, "body", pz->box_rows * pz->box_cols != n ? "box.rows" : "box",
                        "%d x %d boxes do not tile a %dx%d grid", pz->box_rows, pz->box_cols, n, n);
        return -1;
    }
    if (pz->nsymbols == 0) {
        for (int k = 0; k < n; k++)
            pz->symbols[k] = k + 1;
    } else {
        if (pz->nsymbols != n) {
            api_problem_add(p, "body", "symbols", "a %dx%d grid needs %d symbols, got %d", n, n, n,
                            pz->nsymbols);
            return -1;
        }
        for (int k = 0; k < n; k++)
            for (int j = 0; j < k; j++)
                if (pz->symbols[j] == pz->symbols[k]) {
                    snprintf(f, sizeof f, "symbols[%d]", k);
                    api_problem_add(p, "body", f, "%lld repeats symbols[%d]", pz->symbols[k], j);
                    bad = 1;
                }
        if (pz->out == SD_OUT_STRING)
            for (int k = 0; k < n; k++)
                if (pz->symbols[k] < 1 || pz->symbols[k] > SD_STRING_MAX_N) {
                    snprintf(f, sizeof f, "symbols[%d]", k);
                    api_problem_add(
                        p, "body", f,
                        "a string grid can only write symbols 1..35; use arrays for %lld",
                        pz->symbols[k]);
                    bad = 1;
                }
        if (bad) return -1;
    }
    pz->zero_is_symbol = 0;
    for (int k = 0; k < n; k++)
        if (pz->symbols[k] == 0) pz->zero_is_symbol = 1;
    for (int i = 0; i < n * n; i++) {
        long long v = pz->raw[i];
        int k = 0;
        if (v < 0 || (v == 0 && !pz->zero_is_symbol)) {
            pz->grid[i] = 0;
            continue;
        }
        while (k < n && pz->symbols[k] != v)
            k++;
        if (k == n) {
            sd_cell_name(f, sizeof f, n, i);
            if (pz->nsymbols == 0)
                api_problem_add(p, "body", f, "%lld is not a symbol (1..%d)", v, n);
            else
                api_problem_add(p, "body", f, "%lld is not one of the symbols", v);
            bad = 1;
            continue;
        }
        pz->grid[i] = (uint8_t)(k + 1);
    }
    return bad ? -1 : 0;
}

static const char *const sd_unit_names[] = {"row", "column", "box"};

/* 422 when the givens break a rule, naming every conflicting cell. */
static int sd_conflicts_problem(sd_puzzle_t *pz, api_problem_t *p) {
    sudoku_conflict_t *cf = malloc(SD_CONFLICTS_CAP * sizeof *cf);
    size_t count = 0;
    if (cf == NULL) {
        api_problem_nomem(p, "checking the givens");
        return API_ENOMEM;
    }
    sudoku_find_conflicts(&pz->shape, pz->grid, cf, SD_CONFLICTS_CAP, &count);
    if (count == 0) {
        free(cf);
        return 0;
    }
    api_problem_init(p, API_EUNPROCESSABLE, "the givens break the rules in %zu place%s", count,
                     count == 1 ? "" : "s");
    for (size_t k = 0; k < count && k < SD_CONFLICTS_CAP; k++)
        for (size_t j = 0; j < cf[k].ncells; j++) {
            char f[32];
            sd_cell_name(f, sizeof f, pz->n, cf[k].cells[j]);
            api_problem_add(p, "body", f, "%lld repeats in %s %d", pz->symbols[cf[k].value - 1],
                            sd_unit_names[cf[k].unit], cf[k].index);
        }
    free(cf);
    return API_EUNPROCESSABLE;
}

/* Parses any format into a fresh puzzle.  Returns 0, or an API_E* code with
 * the problem in p, or (when `variants`) SD_VARIANT for a variant's body:
 * the caller hands it to api/sudoku_variant_api.c. */
static int sd_read(const api_request_t *req, const api_endpoint_t *ep, int variants,
                   sd_puzzle_t *pz, api_problem_t *p) {
    const api_opt_t *opts = ep != NULL ? ep->opts : sd_opts;
    const char *ct = req->content_type;
    int rc;
    api_problem_init(p, API_EINVALID, "the request is not valid");
    pz->method_ix = pz->level_ix = -1; /* none asked, for tables without the rows */
    api_opts_defaults(opts, req, pz);
    pz->csv_out = api_accepts(req->accept, "text/csv");
    if (api_json_content_type(req)) {
        if (api_opts_fast(opts, req, pz)) {
            pz->read_fast = 1;
            rc = 0;
        } else if (variants && api_sudoku_variant_body(req)) {
            return SD_VARIANT; /* after the fast path: it never reads a variant field */
        } else {
            api_opts_defaults(opts, req, pz); /* what the fast path wrote before it gave up */
            rc = sd_parse_json(req, opts, pz, p);
        }
    } else if (variants && api_media_is(ct, API_SUDOKU_ISS_MEDIA)) {
        return SD_VARIANT; /* ISS's text: read as the variant it writes (api/sudoku_iss.h) */
    } else if (api_media_is(ct, "text/plain")) {
        rc = api_opts_query(opts, req, 0, 0, pz, p);
        rc |= sd_parse_text(req, pz, p);
    } else if (api_media_is(ct, "text/csv")) {
        rc = api_opts_query(opts, req, 0, 0, pz, p);
        rc |= sd_parse_csv(req, pz, p);
    } else {
        api_endpoint_media_problem(ep != NULL ? ep : &api_ep_sudoku_solve, req, p);
        return API_EMEDIA;
    }
    sd_choose(pz);
    if (rc != 0 || p->nerrors > 0) return API_EINVALID;
    if (sd_finish(pz, p) != 0) return API_EINVALID;
    if (!pz->xc && pz->method == SUDOKU_METHOD_FAST && (pz->n != 9 || pz->shape.box_rows != 3)) {
        api_problem_add(p, "body", "method", "fast solves 9x9 grids with 3x3 boxes only");
        return API_EINVALID;
    }
    if ((unsigned long long)pz->max_solutions * (unsigned)(pz->n * pz->n) >
        API_SUDOKU_SOLUTION_BYTES) {
        api_problem_add(p, "body", "max_solutions", "at most %u for a %dx%d grid",
                        API_SUDOKU_SOLUTION_BYTES / (unsigned)(pz->n * pz->n), pz->n, pz->n);
        return API_EINVALID;
    }
    return sd_conflicts_problem(pz, p);
}

int api_sudoku_read(const api_request_t *req, const api_endpoint_t *ep, api_sudoku_puzzle_t *pz,
                    api_problem_t *p) {
    return sd_read(req, ep, 0, pz, p);
}

/* === Answers === */

static json_t *sd_grid_json(const sd_puzzle_t *pz, const uint8_t *g) {
    int n = pz->n;
    if (pz->out == SD_OUT_STRING) {
        char s[SD_STRING_MAX_N * SD_STRING_MAX_N + 1];
        for (int i = 0; i < n * n; i++)
            s[i] = g[i] ? api_grid_value_char(pz->symbols[g[i] - 1]) : '.';
        return json_stringn(s, (size_t)(n * n));
    }
    json_t *rows = json_array();
    for (int r = 0; r < n && rows != NULL; r++) {
        json_t *row = json_array();
        for (int c = 0; c < n && row != NULL; c++) {
            uint8_t v = g[r * n + c];
            json_array_append_new(row, v ? json_integer(pz->symbols[v - 1]) : json_null());
        }
        json_array_append_new(rows, row);
    }
    return rows;
}

/* The same grid as sd_grid_json(), written. */
static void sd_grid_write(api_jw_t *w, const sd_puzzle_t *pz, const uint8_t *g) {
    int n = pz->n;
    if (pz->out == SD_OUT_STRING) {
        char s[SD_STRING_MAX_N * SD_STRING_MAX_N + 1];
        for (int i = 0; i < n * n; i++)
            s[i] = g[i] ? api_grid_value_char(pz->symbols[g[i] - 1]) : '.';
        api_jw_str(w, s, (size_t)(n * n));
        return;
    }
    api_jw_arr(w);
    for (int r = 0; r < n; r++) {
        api_jw_arr(w);
        for (int c = 0; c < n; c++) {
            uint8_t v = g[r * n + c];
            if (v)
                api_jw_int(w, pz->symbols[v - 1]);
            else
                api_jw_null(w);
        }
        api_jw_end_arr(w);
    }
    api_jw_end_arr(w);
}

static json_t *sd_box_json(const sd_puzzle_t *pz) {
    return json_pack("{s:i, s:i}", "rows", pz->shape.box_rows, "cols", pz->shape.box_cols);
}

json_t *api_sudoku_grid_json(const api_sudoku_puzzle_t *pz, const uint8_t *grid) {
    return sd_grid_json(pz, grid);
}

json_t *api_sudoku_box_json(const api_sudoku_puzzle_t *pz) { return sd_box_json(pz); }

typedef struct sd_job_s {
    api_job_t base;
    sd_puzzle_t pz;
    uint8_t *solutions;
    sudoku_step_t *trace;
    sudoku_result_t res;
    int rc;
    xcover_problem_t *problem; /* exact-cover methods */
    api_xc_t x;
    /* cdcl on several threads: a portfolio, item k runs variant k into its
     * own slots (written by its worker only); merge() (loop thread) copies
     * the first answer into res / solutions and cancels the others */
    sudoku_result_t *pres;
    uint8_t *psols;
    void *xmem; /* the members' exchange (sudoku/exchange.h), shared by the workers */
    sudoku_exchange_t *exchange;
    int winner; /* -1 until an item answers */
} sd_job_t;

static int sd_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    sd_job_t *j = (sd_job_t *)job;
    sudoku_opts_t opts;
    if (j->pz.xc) return api_xc_run(&j->x, item, ctl);
    (void)item;
    sudoku_opts_init(&opts);
    opts.method = j->pz.method;
    opts.level = j->pz.level;
    opts.max_solutions = (uint32_t)j->pz.max_solutions;
    opts.solutions = j->solutions;
    opts.ctl = ctl;
    opts.trace = j->trace;
    opts.trace_cap = j->trace ? API_SUDOKU_TRACE_CAP : 0;
    if (j->pres != NULL) {
        opts.variant = (uint32_t)item;
        opts.exchange = j->exchange;
        opts.solutions =
            j->psols + item * (size_t)j->pz.max_solutions * (size_t)(j->pz.n * j->pz.n);
        return sudoku_solve(&j->pz.shape, j->pz.grid, &opts, &j->pres[item]);
    }
    return sudoku_solve(&j->pz.shape, j->pz.grid, &opts, &j->res);
}

/* A portfolio member finished: the first answer (rc 0) wins and cancels the
 * others; without one, the answer is the first member's stop. */
static int sd_merge_portfolio(sd_job_t *j, size_t item, int rc) {
    j->base.nodes += j->pres[item].stats.nodes;
    if (j->winner >= 0) return API_JOB_CONTINUE;
    if (rc == 0) {
        j->winner = (int)item;
        j->rc = 0;
        j->res = j->pres[item];
        memcpy(j->solutions,
               j->psols + item * (size_t)j->pz.max_solutions * (size_t)(j->pz.n * j->pz.n),
               (size_t)j->res.solutions_found * (size_t)(j->pz.n * j->pz.n));
        return API_JOB_CANCEL;
    }
    if (item == 0 || j->rc == 0) {
        j->rc = rc;
        j->res = j->pres[item];
    }
    return rc == SEARCH_TIMEOUT || rc == SEARCH_CANCELLED ? API_JOB_CONTINUE : API_JOB_CANCEL;
}

static int sd_merge(api_job_t *job, size_t item, int rc) {
    sd_job_t *j = (sd_job_t *)job;
    if (j->pz.xc) {
        if (rc < 0 && j->rc == 0) j->rc = rc;
        return api_xc_merge(&j->x, job, item, rc);
    }
    if (j->pres != NULL) return sd_merge_portfolio(j, item, rc);
    j->rc = rc;
    job->nodes += j->res.stats.nodes;
    return API_JOB_STOP;
}

static const char *sd_status(const sd_job_t *j) {
    if (j->res.solutions_found >= 2) return "multiple";
    if (j->res.solutions_found == 1) return "solved";
    if (j->rc == 0) return "unsolvable";
    if (j->rc == SEARCH_CANCELLED) return "cancelled";
    return "timeout"; /* deadline, or best-first's memory cap */
}

static void sd_render_csv(const sd_job_t *j, api_response_t *out) {
    int n = j->pz.n;
    size_t cap = (size_t)n * (size_t)n * 12 + 1, len = 0;
    char *buf = malloc(cap);
    if (buf == NULL) {
        api_problem_t p;
        api_problem_init(&p, API_ENOMEM, "out of memory");
        api_response_problem(out, &p);
        return;
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            len += (size_t)snprintf(buf + len, cap - len, "%lld%c",
                                    j->pz.symbols[j->solutions[r * n + c] - 1],
                                    c == n - 1 ? '\n' : ',');
    api_response_destroy(out);
    out->status = 200;
    out->content_type = "text/csv; charset=utf-8";
    out->body = buf;
    out->len = len;
}

/* Turns an exact-cover run into the result a sudoku_solve() would give. */
static void sd_from_xc(sd_job_t *j) {
    size_t nn = (size_t)j->pz.n * (size_t)j->pz.n;
    api_xc_t *x = &j->x;
    api_xc_finish(x);
    memset(&j->res, 0, sizeof j->res);
    for (size_t k = 0; k < x->nsols && k < (size_t)j->pz.max_solutions; k++) {
        const uint32_t *o;
        size_t len = api_xc_solution(x, k, &o);
        if (sudoku_xc_to_grid(&j->pz.shape, o, len, j->solutions + k * nn) != 0) {
            j->rc = SEARCH_EINVAL;
            return;
        }
        j->res.solutions_found++;
    }
    j->rc = x->rc;
    j->res.code = x->rc;
    j->res.exhausted = x->exhausted;
    j->res.stats = x->stats;
}

void api_sudoku_answer_head(api_jw_t *w, const char *status, int n, int box_rows, int box_cols,
                            long long solutions_found) {
    api_jw_key(w, "status");
    api_jw_cstr(w, status);
    api_jw_key(w, "n");
    api_jw_int(w, n);
    api_jw_key(w, "box");
    api_jw_obj(w);
    api_jw_key(w, "rows");
    api_jw_int(w, box_rows);
    api_jw_key(w, "cols");
    api_jw_int(w, box_cols);
    api_jw_end_obj(w);
    api_jw_key(w, "solutions_found");
    api_jw_int(w, solutions_found);
    api_jw_key(w, "unique");
}

/* "stats": the search's counters, and the method's own. */
static void sd_write_stats(const sd_job_t *j, api_jw_t *w) {
    const sudoku_result_t *res = &j->res;
    api_jw_key(w, "stats");
    api_jw_obj(w);
    api_jw_key(w, "method");
    api_jw_cstr(w, j->pz.xc ? xcover_engine_name(j->pz.engine) : sudoku_method_name(res->method));
    api_jw_key(w, "nodes");
    api_jw_int(w, (long long)res->stats.nodes);
    api_jw_key(w, "backtracks");
    api_jw_int(w, (long long)res->stats.backtracks);
    api_jw_key(w, "propagations");
    api_jw_int(w, (long long)res->stats.propagations);
    api_jw_key(w, "max_depth");
    api_jw_int(w, (long long)res->stats.max_depth);
    api_jw_key(w, "elapsed_ms");
    api_jw_real(w, api_elapsed_ms(j->base.start_ns, search_now_ns()));
    if (res->level != 0 && !j->pz.xc) {
        api_jw_key(w, "propagation");
        api_jw_cstr(w, sudoku_level_name(res->level));
    }
    if (j->pz.xc) {
        api_jw_key(w, "subproblems");
        api_jw_int(w, (long long)j->x.subtrees);
        api_jw_key(w, "threads");
        api_jw_int(w, (long long)j->base.threads);
    }
    if (!j->pz.xc && res->method == SUDOKU_METHOD_CDCL) {
        const sudoku_cdcl_stats_t *c = &res->cdcl;
        const struct {
            const char *key;
            uint64_t v;
        } cd[] = {{"conflicts", c->conflicts},   {"learned", c->learned}, {"restarts", c->restarts},
                  {"reductions", c->reductions}, {"deleted", c->deleted}, {"blocked", c->blocked},
                  {"imported", c->imported}};
        for (size_t k = 0; k < sizeof cd / sizeof cd[0]; k++) {
            api_jw_key(w, cd[k].key);
            api_jw_int(w, (long long)cd[k].v);
        }
        api_jw_key(w, "threads");
        api_jw_int(w, (long long)j->base.threads);
        api_jw_key(w, "portfolio_member");
        api_jw_int(w, j->winner >= 0 ? j->winner : 0);
    }
    api_jw_end_obj(w);
}

static void sd_render(api_job_t *job, api_response_t *out) {
    sd_job_t *j = (sd_job_t *)job;
    const sudoku_result_t *res = &j->res;
    size_t nn = (size_t)j->pz.n * (size_t)j->pz.n;

    if (j->pz.xc) sd_from_xc(j);

    if (j->rc == SEARCH_EINVAL || j->rc == SEARCH_ENOMEM || j->rc == SUDOKU_ECONFLICT) {
        api_problem_t p;
        api_problem_init(&p, j->rc == SEARCH_ENOMEM ? API_ENOMEM : API_EINTERNAL,
                         "the solver refused the puzzle: %s (%s)", search_code_str(j->rc),
                         search_code_name(j->rc));
        api_response_problem(out, &p);
        return;
    }
    for (uint32_t k = 0; k < res->solutions_found; k++)
        if (sudoku_check_solution(&j->pz.shape, j->pz.grid, j->solutions + k * nn) != 1) {
            api_problem_t p;
            api_problem_init(&p, API_EINTERNAL, "solution %u fails verification", k);
            api_response_problem(out, &p);
            return;
        }
    if (j->pz.csv_out && res->solutions_found > 0) {
        sd_render_csv(j, out);
        return;
    }
    /* written straight into the answer's buffer (api/json_writer.h): the
     * main call of the service, so no json_t tree */
    api_jw_t w;
    api_jw_init(&w);
    api_jw_obj(&w);
    api_sudoku_answer_head(&w, sd_status(j), j->pz.n, j->pz.shape.box_rows, j->pz.shape.box_cols,
                           res->solutions_found);
    if (res->solutions_found >= 2 ||
        (res->exhausted && res->code == 0 && res->solutions_found == 0))
        api_jw_bool(&w, 0);
    else if (sudoku_result_unique(res))
        api_jw_bool(&w, 1);
    else
        api_jw_null(&w);
    api_jw_key(&w, "complete");
    api_jw_bool(&w, j->rc == 0);
    sd_write_stats(j, &w);
    if (res->solutions_found > 0) {
        api_jw_key(&w, "solution");
        sd_grid_write(&w, &j->pz, j->solutions);
    }
    if (j->pz.max_solutions > 1) {
        api_jw_key(&w, "solutions");
        api_jw_arr(&w);
        for (uint32_t k = 0; k < res->solutions_found; k++)
            sd_grid_write(&w, &j->pz, j->solutions + k * nn);
        api_jw_end_arr(&w);
    }
    if (j->trace != NULL) {
        api_jw_key(&w, "trace");
        api_jw_arr(&w);
        for (size_t k = 0; k < res->trace_len; k++) {
            const sudoku_step_t *s = &j->trace[k];
            api_jw_obj(&w);
            api_jw_key(&w, "step");
            api_jw_cstr(&w, sudoku_step_kind_name(s->kind));
            api_jw_key(&w, "row");
            api_jw_int(&w, s->cell / j->pz.n);
            api_jw_key(&w, "col");
            api_jw_int(&w, s->cell % j->pz.n);
            api_jw_key(&w, "value");
            api_jw_int(&w, j->pz.symbols[s->value - 1]);
            api_jw_end_obj(&w);
        }
        api_jw_end_arr(&w);
        api_jw_key(&w, "trace_truncated");
        api_jw_bool(&w, res->trace_truncated);
    }
    api_jw_end_obj(&w);
    api_jw_respond(&w, 200, out);
}

static void sd_free(api_job_t *job) {
    sd_job_t *j = (sd_job_t *)job;
    if (j == NULL) return;
    if (j->pz.xc) api_xc_destroy(&j->x);
    xcover_problem_free(j->problem);
    free(j->solutions);
    free(j->trace);
    free(j->pres);
    free(j->psols);
    free(j->xmem);
    free(j);
}

static const api_job_ops_t sd_ops = {"sudoku", sd_run, sd_merge, sd_render, sd_free,
                                     0,        NULL,   NULL,     NULL,      NULL};

/* Whether sudoku_solve() may run the cdcl method for this request (auto
 * from 16x16 tries propagation first). */
static int sd_solved_by_cdcl(const sd_puzzle_t *pz) {
    sudoku_opts_t o;
    sudoku_opts_init(&o);
    o.method = pz->method;
    o.level = pz->level;
    o.trace_cap = pz->trace ? API_SUDOKU_TRACE_CAP : 0;
    return sudoku_method_for(&pz->shape, pz->grid, &o) == SUDOKU_METHOD_CDCL;
}

int api_sudoku_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    sd_job_t *j = calloc(1, sizeof *j);
    int rc;
    *job = NULL;
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    rc = sd_read(req, &api_ep_sudoku_solve, 1, &j->pz, &p);
    if (rc == SD_VARIANT) {
        sd_free(&j->base);
        return api_endpoint_hand_over(&api_ep_sudoku_solve, req, job, resp);
    }
    if (rc != 0) goto fail;
    j->solutions = malloc((size_t)j->pz.max_solutions * (size_t)j->pz.n * (size_t)j->pz.n);
    j->trace = j->pz.trace ? malloc(API_SUDOKU_TRACE_CAP * sizeof *j->trace) : NULL;
    if (j->solutions == NULL || (j->pz.trace && j->trace == NULL)) {
        api_problem_init(&p, API_ENOMEM, "out of memory for the solutions");
        goto fail;
    }
    if (j->pz.xc) {
        uint32_t *givens = malloc((size_t)j->pz.n * (size_t)j->pz.n * sizeof *givens);
        size_t ng = 0;
        int bad = givens == NULL || sudoku_xc_problem_new(&j->pz.shape, NULL, &j->problem) != 0 ||
                  sudoku_xc_givens(&j->pz.shape, j->pz.grid, givens, &ng) != 0 ||
                  api_xc_init(&j->x, j->problem, j->pz.engine, (uint64_t)j->pz.max_solutions,
                              (unsigned)j->pz.threads, givens, ng) != 0;
        free(givens);
        if (bad) {
            api_problem_init(&p, API_ENOMEM, "out of memory for the exact-cover model");
            goto fail;
        }
        if (j->pz.trace) {
            api_problem_init(&p, API_EINVALID, "the request is not valid");
            api_problem_add(&p, "body", "trace",
                            "exact-cover methods do not trace; use another method");
            goto fail;
        }
    }
    j->winner = -1;
    if (!j->pz.xc && j->pz.trace && sd_solved_by_cdcl(&j->pz)) goto no_trace;
    if (!j->pz.xc && j->pz.threads > 1 && sd_solved_by_cdcl(&j->pz)) {
        /* a portfolio: one member per thread, at most the exchange's */
        size_t nn = (size_t)j->pz.n * (size_t)j->pz.n, xb;
        if (j->pz.threads > SUDOKU_EXCHANGE_MAX_MEMBERS)
            j->pz.threads = SUDOKU_EXCHANGE_MAX_MEMBERS;
        xb = sudoku_exchange_bytes(j->pz.n, (unsigned)j->pz.threads, (uint32_t)j->pz.max_solutions);
        j->pres = calloc((size_t)j->pz.threads, sizeof *j->pres);
        j->psols = malloc((size_t)j->pz.threads * (size_t)j->pz.max_solutions * nn);
        j->xmem = xb ? malloc(xb) : NULL;
        j->exchange = sudoku_exchange_init(j->xmem, j->pz.n, (unsigned)j->pz.threads,
                                           (uint32_t)j->pz.max_solutions);
        if (j->pres == NULL || j->psols == NULL || j->exchange == NULL) {
            api_problem_init(&p, API_ENOMEM, "out of memory for the solutions");
            goto fail;
        }
    }
    /* sudoku_solve() resets its result; a portfolio is several items */
    j->base.inline_ok = !j->pz.xc && j->pres == NULL && j->pz.n <= 9;
    j->base.body_fast = j->pz.read_fast;
    api_job_ready(&j->base, &sd_ops, j->pres != NULL ? (size_t)j->pz.threads : 1,
                  j->pz.xc || j->pres != NULL ? (unsigned)j->pz.threads : 1, j->pz.timeout_ms, job);
    return 0;
no_trace:
    api_problem_init(&p, API_EINVALID, "the request is not valid");
    api_problem_add(&p, "body", "trace", "the cdcl method does not trace; use another method");
fail:
    sd_free(j ? &j->base : NULL);
    api_response_problem(resp, &p);
    return p.code;
}

int api_sudoku_validate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    sd_puzzle_t *pz = calloc(1, sizeof *pz);
    sudoku_conflict_t *cf = NULL;
    size_t count = 0;
    int rc;
    *job = NULL;
    if (pz == NULL || (cf = malloc(SD_CONFLICTS_CAP * sizeof *cf)) == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    rc = sd_read(req, &api_ep_sudoku_validate, 1, pz, &p);
    if (rc == SD_VARIANT) {
        free(cf);
        free(pz);
        return api_endpoint_hand_over(&api_ep_sudoku_validate, req, job, resp);
    }
    if (rc != 0 && rc != API_EUNPROCESSABLE) goto fail; /* conflicts are the answer here */
    sudoku_find_conflicts(&pz->shape, pz->grid, cf, SD_CONFLICTS_CAP, &count);
    json_t *list = json_array();
    for (size_t k = 0; k < count && k < SD_CONFLICTS_CAP && list != NULL; k++) {
        char unit[32];
        json_t *cells = json_array();
        snprintf(unit, sizeof unit, "%s %d", sd_unit_names[cf[k].unit], cf[k].index);
        for (size_t c = 0; c < cf[k].ncells && cells != NULL; c++)
            json_array_append_new(
                cells, json_pack("[i,i]", cf[k].cells[c] / pz->n, cf[k].cells[c] % pz->n));
        json_array_append_new(list,
                              json_pack("{s:s, s:I, s:o}", "unit", unit, "value",
                                        (json_int_t)pz->symbols[cf[k].value - 1], "cells", cells));
    }
    int filled = 1;
    for (int i = 0; i < pz->n * pz->n; i++)
        if (pz->grid[i] == 0) filled = 0;
    api_response_json(resp, 200,
                      json_pack("{s:b, s:b, s:i, s:o, s:o, s:I}", "valid", count == 0, "complete",
                                count == 0 && filled, "n", pz->n, "box", sd_box_json(pz),
                                "conflicts", list, "conflicts_total", (json_int_t)count));
    free(cf);
    free(pz);
    return 0;
fail:
    free(cf);
    free(pz);
    api_response_problem(resp, &p);
    return p.code;
}

const api_endpoint_t api_ep_sudoku_solve = {.method = "POST",
                                            .path = "/v1/sudoku/solve",
                                            .label = "sudoku",
                                            .media = sd_media,
                                            .opts = sd_opts,
                                            .prepare = api_sudoku_solve_prepare};

const api_endpoint_t api_ep_sudoku_validate = {.method = "POST",
                                               .path = "/v1/sudoku/validate",
                                               .label = "sudoku",
                                               .media = sd_media,
                                               .opts = sd_opts,
                                               .prepare = api_sudoku_validate_prepare};
