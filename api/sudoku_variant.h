/* sudoku_variant.h -- the variant fields of a Sudoku request read into a
 * solver description (solvers/sudoku/model.h), the grid read in the
 * variant's frame, and the model built with every problem named by the
 * field the client wrote.  docs/variants.md has the request shape:
 *
 *   "variant"      a name or a list of names: classic, jigsaw (irregular),
 *                  x (diagonal), windoku (hyper), disjoint, even-odd,
 *                  consecutive, non-consecutive, and the layouts (samurai,
 *                  sohei, windmill, butterfly, gattai-8, shogun, sumo,
 *                  clueless-1, clueless-2)
 *   "layout"       a layout's name, or {"grids": [[r, c], ...], "size": n}
 *   "box"          {"rows": R, "cols": C}, each grid's boxes
 *   "regions"      the frame's region ids: rows arrays of integers (null on
 *                  holes), or a string of rows*cols labels ('.' on holes)
 *   "extra_units"  [[[r, c], ...], ...]
 *   "parity"       the frame as a string ('E' even, 'O' odd, '.' any) or
 *                  rows arrays of "E" / "O" / "even" / "odd" / null
 *   "pairs"        [[[r, c], [r, c]], ...] consecutive marks, or objects
 *                  {"cells": [[r, c], [r, c]], "rule": "consecutive" |
 *                  "non-consecutive"}
 *   "constraints"  line rules in the shape of sigh's Interactive Sudoku
 *                  Solver (ISS_FORMAT): {"type": "sum", "sum": S, "cells":
 *                  [[r, c], ...]} (the cells add up to S, values may
 *                  repeat: janko's Margin Sudoku) and {"type": "skyscraper",
 *                  "visible": V, "cells": [...], "side": "top" | "bottom" |
 *                  "left" | "right"} (V cells, in the order listed, are
 *                  taller than every cell before them; side is optional and
 *                  only says where the clue is drawn).  Other types are
 *                  refused by name.
 * Cells are [row, column] of the frame, 0-based, as grid[r][c] names them.
 *
 * The Sudoku endpoints call it when the body has one of these fields
 * (api/sudoku_variant_api.c).  No globals; everything a read allocates belongs to the
 * api_sudoku_variant_t and goes with api_sudoku_variant_free(). */
#ifndef PUZZLED_API_SUDOKU_VARIANT_H
#define PUZZLED_API_SUDOKU_VARIANT_H

#include <jansson.h>
#include <stdint.h>

#include "api/opts.h"
#include "api/problem.h"
#include "api/request.h"
#include "solvers/sudoku/model.h"

#define API_VARIANT_MAX_UNITS  512   /* extra_units entries */
#define API_VARIANT_MAX_PAIRS  16384 /* pairs entries */
#define API_VARIANT_MAX_LINES  1024  /* constraints entries (each up to SUDOKU_LINE_MAX_CELLS) */
#define API_VARIANT_MAX_TABLES 64    /* distinct pair relations of one request */

/* The fields a body may carry for a variant (for the endpoints' lists of
 * known fields), NULL-terminated. */
extern const char *const api_sudoku_variant_fields[];

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
 * only when api_sudoku_variant_body()'s scan missed its key (written with \u escapes):
 * api_sudoku_variant_missed() refuses it, by name. */
int api_sudoku_variant_missed(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                              void *out, api_problem_t *p);
#define API_SUDOKU_VARIANT_ROW(field)                                                              \
    { .name = field, .kind = API_OPT_DATA, .in = API_IN_JSON, .json = api_sudoku_variant_missed }
#define API_SUDOKU_VARIANT_ROWS                                                                    \
    API_SUDOKU_VARIANT_ROW("variant"), API_SUDOKU_VARIANT_ROW("layout"),                           \
        API_SUDOKU_VARIANT_ROW("regions"), API_SUDOKU_VARIANT_ROW("extra_units"),                  \
        API_SUDOKU_VARIANT_ROW("parity"), API_SUDOKU_VARIANT_ROW("pairs"),                         \
        API_SUDOKU_VARIANT_ROW("constraints")

typedef struct api_sudoku_variant_s {
    sudoku_spec_t spec; /* ready for sudoku_model_new(); its arrays are the ones below */
    int rows, cols;     /* the frame */
    int present;        /* 1: the body had a variant field (else: a classic request) */
    sudoku_origin_t grids[SUDOKU_MODEL_MAX_GRIDS];
    int *regions;
    uint32_t *unit_start;
    uint16_t *unit_cells;
    uint8_t *parity;
    sudoku_pair_t *pairs;
    sudoku_line_t *lines; /* the constraints' line rules (several per constraint) */
    uint16_t *line_cells;
    size_t nlines_made, lines_cap, cells_made, cells_cap;
    uint64_t *pair_tables; /* [ntables * n]: the pair lines' relations */
    int ntables;
    int table_keys[API_VARIANT_MAX_TABLES]; /* relation << 16 | parameter */
} api_sudoku_variant_t;

/* Reads the variant fields of body (a JSON object; other fields are not
 * looked at).  n: the number of symbols when the caller knows it (the side
 * of a single grid), 0 to take it from the layout (9 for a named one,
 * layout.size) or the grid's rows (arrays) or length (a string of n*n).
 * Returns 0 (v filled, v->present says whether there was anything to read),
 * API_EINVALID with an error per field added to p, or API_ENOMEM (p made a
 * 503).  On failure nothing stays allocated; v must still be freed (a
 * no-op then). */
int api_sudoku_variant_read(json_t *body, int n, api_sudoku_variant_t *v, api_problem_t *p);

void api_sudoku_variant_free(api_sudoku_variant_t *v);

/* Reads `grid` (a string of rows*cols characters: '.' or '0' empty, '1'-'9',
 * 'A'-'Z' for 10..; or rows arrays of cols integers 0..n, 0 or null empty)
 * into out[rows*cols].  A value on a hole is an error.  Returns 0 or
 * API_EINVALID (errors on "grid" / grid[r][c] added to p). */
int api_sudoku_variant_grid(json_t *grid, const api_sudoku_variant_t *v, uint8_t *out,
                            api_problem_t *p);

/* Builds the model.  Returns 0 and sets *out (sudoku_model_free), or
 * API_EINVALID / API_EUNPROCESSABLE with the offending field named
 * (regions[r][c], extra_units[k][j], pairs[k], parity[r][c], layout.grids[k],
 * box), or API_ENOMEM. */
int api_sudoku_variant_model(const api_sudoku_variant_t *v, const search_allocator_t *alloc,
                             sudoku_model_t **out, api_problem_t *p);

/* Unit u of model m in words, as api_sudoku_variant_describe() names a
 * conflict's unit: "row 4 of grid 2", "region 3", "the main diagonal",
 * "window 2", "disjoint group 5", "extra_units[1]" (for the hint and grade
 * answers, whose steps name units by number). */
void api_sudoku_variant_unit_name(const sudoku_model_t *m, int u, char *buf, size_t cap);

/* What a conflict of sudoku_model_find_conflicts() breaks, in words for a
 * 422: "row 4 of grid 2", "region 3", "the main diagonal", "window 2",
 * "disjoint group 5", "extra_units[1]", "pairs[3]", "the non-consecutive
 * rule between grid[0][1] and grid[0][2]", "the parity of grid[2][2]".
 * Rows and the like count from 1 for people; fields keep their 0-based
 * index. */
void api_sudoku_variant_describe(const sudoku_model_t *m, const sudoku_conflict_t *cf, char *buf,
                                 size_t cap);

#endif
