/* sudoku_iss.h -- a puzzle written in the text of sigh's Interactive
 * Sudoku Solver (ISS) read into the JSON fields of a Sudoku variant
 * request (api/sudoku_variant.h), so that a puzzle pasted from ISS is
 * validated and solved by the same path as one written in JSON.
 *
 * The text is ISS's constraint string (`.Shape~9x9.Cage~10~R1C1~R1C2...`),
 * a grid of N*N givens (`53..7....`), a grid of givens followed by a
 * jigsaw layout, or a whole ISS URL (its `q` parameter, percent-decoded).
 * The types it reads, their arguments and what each becomes are in
 * docs/constraints.md ("Importing ISS's text"); sudoku_iss.c has the design.
 *
 * A request takes it as a body of type API_SUDOKU_ISS_MEDIA on POST
 * /v1/sudoku/solve and /v1/sudoku/validate, with the options in the query
 * string (as text/plain and text/csv take theirs). */
#ifndef PUZZLED_API_SUDOKU_ISS_H
#define PUZZLED_API_SUDOKU_ISS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "api/problem.h"

#define API_SUDOKU_ISS_MEDIA     "text/x-iss"
#define API_SUDOKU_ISS_MAX_BYTES 65536 /* the text (the URL, before decoding) */
#define API_SUDOKU_ISS_MAX_ITEMS 4096  /* `.`-separated items of a constraint string */
#define API_SUDOKU_ISS_MAX_N     16    /* ISS's largest grid (and 4, ours, the smallest) */
#define API_SUDOKU_ISS_MAX_UNITS (2 * API_SUDOKU_ISS_MAX_N) /* extra units made */

/* Where a part of the request came from: the item of the text (1 for the
 * first; 0 for none: the text as a whole), the character it starts at (1
 * for the body's first, counted in the body as sent, a URL before
 * decoding) and the item's ISS type. */
typedef struct api_sudoku_iss_at_s {
    uint32_t item;
    uint32_t at;
    const char *type; /* a static string (NULL: none) */
} api_sudoku_iss_at_t;

/* A text read.  body is the request's puzzle as JSON fields ("grid",
 * "box", and as needed "variant", "regions", "extra_units",
 * "constraints"); the rest says where each part of it came from, so that
 * a problem the JSON reader finds names the place in the text
 * (api_sudoku_iss_rename).  The caller provides the struct
 * (api_sudoku_iss_init / api_sudoku_iss_destroy; a zeroed struct is an
 * initialised one); body and cons_at are allocated by the read and freed
 * by destroy. */
typedef struct api_sudoku_iss_s {
    json_t *body;
    int used; /* 1 once a read succeeded: the request is ISS text */
    int n;
    api_sudoku_iss_at_t *cons_at; /* [ncons]: constraints[k]'s item */
    size_t ncons;
    api_sudoku_iss_at_t cell_at[API_SUDOKU_ISS_MAX_N * API_SUDOKU_ISS_MAX_N]; /* givens */
    api_sudoku_iss_at_t unit_at[API_SUDOKU_ISS_MAX_UNITS];                    /* extra_units[k] */
    api_sudoku_iss_at_t shape_at, layout_at; /* the Shape item; the jigsaw's */
} api_sudoku_iss_t;

void api_sudoku_iss_init(api_sudoku_iss_t *iss);

/* Frees what a read allocated; the struct may be read into again.  Safe on
 * an initialised struct that was never read. */
void api_sudoku_iss_destroy(api_sudoku_iss_t *iss);

/* Reads text[0..len) (not NUL-terminated; no more than
 * API_SUDOKU_ISS_MAX_BYTES) into iss, which must be initialised and
 * empty.  Returns 0 (iss->body set), API_EINVALID with a problem per bad
 * item added to p, naming each as "item I at character C" with its ISS
 * type in the detail (p's code is not changed), or API_ENOMEM (p made a
 * 503).  On failure iss is left empty.  The text is not changed. */
int api_sudoku_iss_read(const char *text, size_t len, api_sudoku_iss_t *iss, api_problem_t *p);

/* Renames the problems a request made from iss got from the JSON path
 * (constraints[3].sum, grid[2][5], regions[0][1], box, ...) after the
 * place in the text they came from ("item 4 at character 57", the JSON
 * field kept in the detail), and names the options read from the query
 * string (method, max_solutions, ...) as query parameters.  A no-op when
 * iss was not used. */
void api_sudoku_iss_rename(const api_sudoku_iss_t *iss, api_problem_t *p);

#endif
