/* sudoku_variant.c -- a Sudoku request's variant fields into a
 * sudoku_spec_t (see sudoku_variant.h for the fields; docs/variants.md for
 * the whole request and examples).
 *
 * Reading goes field by field and keeps going after an error, so one 400
 * names every bad field (up to the problem's limit).  The order: `variant`
 * (names, with what they require), `layout` (then n and the frame are
 * known), `box`, and the frame-sized fields.  Cells are checked against the
 * frame here; what depends on the whole model (a region that is not
 * connected, a unit with a cell on a hole, two marks on one pair) is the
 * solver's check, sudoku_model_new(), whose error api_sudoku_variant_model()
 * turns back into the field.
 *
 * Memory: the arrays the spec points at, malloc'd while reading and freed
 * by api_sudoku_variant_free(); nothing else.  No globals but the const
 * name tables. */
#include "api/sudoku_variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/grid_char.h"
#include "api/json_util.h"

const char *const api_sudoku_variant_fields[] = {"variant", "layout", "regions",     "extra_units",
                                                 "parity",  "pairs",  "constraints", NULL};

/* === Which bodies are variants ========================================== */

/* Whether s (up to end) starts with `name"` and then, after blanks, ':'. */
static int vx_key_at(const char *s, const char *end, const char *name) {
    size_t len = strlen(name);
    if ((size_t)(end - s) < len + 2 || memcmp(s, name, len) != 0 || s[len] != '"') return 0;
    for (s += len + 1; s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'); s++)
        ;
    return s < end && *s == ':';
}

/* The scan looks at every '"' (memchr) and at the byte after it: the main
 * call of the service, a 9x9 grid with an option or two, has six quotes,
 * none followed by the first letter of a variant field, so it costs a few
 * memchr calls.  Quotes need no pairing: inside a JSON string a quote is
 * escaped, so `"variant"` followed by ':' is a key wherever it stands. */
int api_sudoku_variant_body(const api_request_t *req) {
    const char *s = req->body, *end;
    if (s == NULL) return 0;
    end = s + req->body_len;
    while ((s = memchr(s, '"', (size_t)(end - s))) != NULL && ++s < end) {
        switch (*s) { /* the fields' first letters */
        case 'v':
        case 'l':
        case 'r':
        case 'e':
        case 'p':
        case 'c': break;
        default: continue;
        }
        for (int i = 0; api_sudoku_variant_fields[i] != NULL; i++)
            if (api_sudoku_variant_fields[i][0] == *s &&
                vx_key_at(s, end, api_sudoku_variant_fields[i]))
                return api_json_content_type(req);
    }
    return 0;
}

int api_sudoku_variant_missed(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                              void *out, api_problem_t *p) {
    (void)req, (void)root, (void)v, (void)out;
    api_problem_add(p, "body", o->name,
                    "a variant field: write its name without \\u escapes (variant bodies are "
                    "told by their field names)");
    return -1;
}

/* === Names ============================================================== */

enum {
    V_JIGSAW = 1 << 0,
    V_X = 1 << 1,
    V_WINDOKU = 1 << 2,
    V_DISJOINT = 1 << 3,
    V_EVENODD = 1 << 4,
    V_CONSEC = 1 << 5,
    V_NONCONSEC = 1 << 6,
    V_CLASSIC = 1 << 7
};

static const struct {
    char name[16];
    int bit;
} variant_names[] = {
    {"classic", V_CLASSIC},
    {"jigsaw", V_JIGSAW},
    {"irregular", V_JIGSAW},
    {"x", V_X},
    {"diagonal", V_X},
    {"windoku", V_WINDOKU},
    {"hyper", V_WINDOKU},
    {"disjoint", V_DISJOINT},
    {"even-odd", V_EVENODD},
    {"consecutive", V_CONSEC},
    {"non-consecutive", V_NONCONSEC},
};
#define NVARIANT_NAMES ((int)(sizeof variant_names / sizeof variant_names[0]))

static const char known_names[] =
    "classic, jigsaw, irregular, x, diagonal, windoku, hyper, disjoint, even-odd, consecutive, "
    "non-consecutive, samurai, sohei, windmill, butterfly, gattai-8, shogun, sumo, clueless-1, "
    "clueless-2";

/* A name of `variant`: its bit, or a layout (*layout set), or -1. */
static int variant_bit(const char *name, sudoku_layout_t *layout) {
    for (int i = 0; i < NVARIANT_NAMES; i++)
        if (strcmp(name, variant_names[i].name) == 0) return variant_names[i].bit;
    if (sudoku_layout_parse(name, layout) == 0 && *layout != SUDOKU_LAYOUT_SINGLE) return 0;
    return -1;
}

/* === Reading ============================================================ */

typedef struct reader_s {
    json_t *body;
    api_sudoku_variant_t *v;
    api_problem_t *p;
    int bits, n, nomem, bad;
} reader_t;

static void bad(reader_t *r, const char *field, const char *fmt, const char *arg) {
    api_problem_add(r->p, "body", field, fmt, arg);
    r->bad = 1;
}

static void *r_alloc(reader_t *r, size_t size) {
    void *m = calloc(1, size > 0 ? size : 1);
    if (m == NULL) r->nomem = 1;
    return m;
}

/* `variant`: a string or a list of strings. */
static void read_variant(reader_t *r, json_t *val, sudoku_layout_t *layout) {
    json_t *list = val, *one = NULL;
    size_t i, count;
    char field[32];
    if (json_is_string(val)) {
        one = json_array();
        if (one == NULL || json_array_append(one, val) != 0) {
            json_decref(one);
            r->nomem = 1;
            return;
        }
        list = one;
    }
    if (!json_is_array(list) || json_array_size(list) == 0) {
        bad(r, "variant", "must be a name or a nonempty list of names%s", "");
        json_decref(one);
        return;
    }
    count = json_array_size(list);
    for (i = 0; i < count; i++) {
        json_t *e = json_array_get(list, i);
        sudoku_layout_t l = SUDOKU_LAYOUT_SINGLE;
        int bit;
        if (one != NULL)
            snprintf(field, sizeof field, "variant");
        else
            snprintf(field, sizeof field, "variant[%zu]", i);
        if (!json_is_string(e)) {
            bad(r, field, "must be a string%s", "");
            continue;
        }
        bit = variant_bit(json_string_value(e), &l);
        if (bit < 0) {
            api_problem_add(r->p, "body", field, "unknown variant '%.32s'; known: %s",
                            json_string_value(e), known_names);
            r->bad = 1;
        } else if (bit == 0) {
            if (*layout != SUDOKU_LAYOUT_SINGLE && *layout != l)
                bad(r, field, "names a second layout%s", "");
            *layout = l;
        } else {
            r->bits |= bit;
        }
    }
    if ((r->bits & V_CONSEC) && (r->bits & V_NONCONSEC))
        bad(r, "variant", "cannot be both consecutive and non-consecutive%s", "");
    if ((r->bits & V_CLASSIC) && (r->bits & ~V_CLASSIC))
        bad(r, "variant", "classic cannot be combined with another variant%s", "");
    json_decref(one);
}

/* Reads [r, c] of the frame into *cell; 0 or -1 (error on field). */
static int read_cell(reader_t *r, json_t *e, const char *field, int *cell) {
    json_t *a = json_array_get(e, 0), *b = json_array_get(e, 1);
    long long x, y;
    if (!json_is_array(e) || json_array_size(e) != 2 || !json_is_integer(a) ||
        !json_is_integer(b)) {
        bad(r, field, "must be a cell [row, column]%s", "");
        return -1;
    }
    x = json_integer_value(a);
    y = json_integer_value(b);
    if (x < 0 || x >= r->v->rows || y < 0 || y >= r->v->cols) {
        api_problem_add(r->p, "body", field, "cell [%lld, %lld] is outside the %dx%d grid", x, y,
                        r->v->rows, r->v->cols);
        r->bad = 1;
        return -1;
    }
    *cell = (int)x * r->v->cols + (int)y;
    return 0;
}

/* `layout`: a name, or {"grids": [[r, c], ...], "size": n}. */
static void read_layout(reader_t *r, json_t *val, sudoku_layout_t *layout) {
    api_sudoku_variant_t *v = r->v;
    json_t *grids, *size;
    const char *key;
    json_t *member;
    char field[40];
    if (json_is_string(val)) {
        sudoku_layout_t l;
        if (sudoku_layout_parse(json_string_value(val), &l) != 0 || l == SUDOKU_LAYOUT_SINGLE) {
            api_problem_add(r->p, "body", "layout",
                            "unknown layout '%.32s'; known: samurai, sohei, windmill, butterfly, "
                            "gattai-8, shogun, sumo, clueless-1, clueless-2, or {\"grids\": "
                            "[[row, col], ...]}",
                            json_string_value(val));
            r->bad = 1;
        } else if (*layout != SUDOKU_LAYOUT_SINGLE && *layout != l) {
            bad(r, "layout", "differs from the layout `variant` names%s", "");
        } else {
            *layout = l;
        }
        return;
    }
    if (!json_is_object(val)) {
        bad(r, "layout", "must be a layout's name or {\"grids\": [[row, col], ...]}%s", "");
        return;
    }
    json_object_foreach(val, key, member) {
        if (strcmp(key, "grids") != 0 && strcmp(key, "size") != 0) {
            snprintf(field, sizeof field, "layout.%.24s", key);
            bad(r, field, "unknown field%s", "");
        }
    }
    if (*layout != SUDOKU_LAYOUT_SINGLE) bad(r, "layout", "`variant` already names a layout%s", "");
    size = json_object_get(val, "size");
    if (size != NULL) {
        long long s;
        if (api_json_int(size, "layout.size", SUDOKU_MIN_N, SUDOKU_MAX_N, &s, r->p) != 0)
            r->bad = 1;
        else if (r->n != 0 && r->n != (int)s)
            bad(r, "layout.size", "differs from the grid's symbols%s", "");
        else
            r->n = (int)s;
    } else if (r->n == 0) {
        bad(r, "layout.size", "required: the side of every grid (and its number of symbols)%s", "");
    }
    grids = json_object_get(val, "grids");
    if (!json_is_array(grids) || json_array_size(grids) == 0 ||
        json_array_size(grids) > SUDOKU_MODEL_MAX_GRIDS) {
        api_problem_add(r->p, "body", "layout.grids",
                        "must list 1 to %d grid origins [row, column]", SUDOKU_MODEL_MAX_GRIDS);
        r->bad = 1;
        return;
    }
    for (size_t i = 0; i < json_array_size(grids); i++) {
        json_t *e = json_array_get(grids, i), *a = json_array_get(e, 0), *b = json_array_get(e, 1);
        snprintf(field, sizeof field, "layout.grids[%zu]", i);
        if (!json_is_array(e) || json_array_size(e) != 2 || !json_is_integer(a) ||
            !json_is_integer(b) || json_integer_value(a) < 0 || json_integer_value(b) < 0 ||
            json_integer_value(a) > SUDOKU_MODEL_MAX_SIDE ||
            json_integer_value(b) > SUDOKU_MODEL_MAX_SIDE) {
            api_problem_add(r->p, "body", field,
                            "must be a grid's top-left cell [row, column], each 0 to %d",
                            SUDOKU_MODEL_MAX_SIDE);
            r->bad = 1;
            continue;
        }
        v->grids[i].row = (int)json_integer_value(a);
        v->grids[i].col = (int)json_integer_value(b);
    }
    v->spec.ngrids = (int)json_array_size(grids);
    v->spec.grids = v->grids;
}

/* n when the caller does not know it: the layout's, or the grid's. */
static int infer_n(reader_t *r, sudoku_layout_t layout) {
    json_t *grid = json_object_get(r->body, "grid");
    if (layout != SUDOKU_LAYOUT_SINGLE) return 9;
    if (json_is_array(grid)) return (int)json_array_size(grid);
    if (json_is_string(grid)) {
        size_t len = json_string_length(grid), k = 1;
        while (k * k < len)
            k++;
        if (k * k == len) return (int)k;
    }
    return 0;
}

/* A frame-sized field (the grid, regions, parity): a string of rows*cols
 * characters, or `rows` arrays of `cols` values.  fn(ctx, cell, elem, ch)
 * stores one cell (elem NULL and ch its character for a string; elem its
 * value for arrays) and returns 0, -1 for a bad value (named here,
 * name[r][c], with `what`), or -2 when it named the problem itself.
 * Returns 0, or -1 with the errors added. */
typedef int (*frame_cell_fn)(void *ctx, int cell, json_t *elem, int ch);

static int read_frame(api_problem_t *p, json_t *val, int rows, int cols, const char *name,
                      const char *what, frame_cell_fn fn, void *ctx) {
    char field[48];
    int bad = 0, i, j, rc;
    if (json_is_string(val)) {
        const char *s = json_string_value(val);
        if (json_string_length(val) != (size_t)rows * (size_t)cols) {
            api_problem_add(p, "body", name, "must have %d characters (%d rows of %d), got %zu",
                            rows * cols, rows, cols, json_string_length(val));
            return -1;
        }
        for (i = 0; i < rows * cols; i++) {
            rc = fn(ctx, i, NULL, (unsigned char)s[i]);
            if (rc == -1) {
                snprintf(field, sizeof field, "%s[%d][%d]", name, i / cols, i % cols);
                api_problem_add(p, "body", field, "must be %s", what);
            }
            bad |= rc != 0;
        }
        return bad ? -1 : 0;
    }
    if (!json_is_array(val) || json_array_size(val) != (size_t)rows) {
        api_problem_add(p, "body", name, "must be %d rows of %d values, or a string of %d", rows,
                        cols, rows * cols);
        return -1;
    }
    for (i = 0; i < rows; i++) {
        json_t *row = json_array_get(val, (size_t)i);
        if (!json_is_array(row) || json_array_size(row) != (size_t)cols) {
            snprintf(field, sizeof field, "%s[%d]", name, i);
            api_problem_add(p, "body", field, "must be a row of %d values", cols);
            bad = 1;
            continue;
        }
        for (j = 0; j < cols; j++) {
            rc = fn(ctx, i * cols + j, json_array_get(row, (size_t)j), 0);
            if (rc == -1) {
                snprintf(field, sizeof field, "%s[%d][%d]", name, i, j);
                api_problem_add(p, "body", field, "must be %s", what);
            }
            bad |= rc != 0;
        }
    }
    return bad ? -1 : 0;
}

/* A region id: a label character ('.' a hole), or an integer (null a hole). */
static int region_cell(void *ctx, int cell, json_t *e, int ch) {
    int *reg = ctx;
    if (e == NULL) {
        reg[cell] = ch == '.' ? -1 : ch;
        return 0;
    }
    if (json_is_null(e)) {
        reg[cell] = -1;
        return 0;
    }
    if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > 1000000)
        return -1;
    reg[cell] = (int)json_integer_value(e);
    return 0;
}

/* `regions`: rows arrays of integers (null on holes) or a string of labels. */
static void read_regions(reader_t *r, json_t *val) {
    api_sudoku_variant_t *v = r->v;
    v->regions = r_alloc(r, (size_t)v->rows * (size_t)v->cols * sizeof *v->regions);
    if (v->regions == NULL) return;
    if (read_frame(r->p, val, v->rows, v->cols, "regions",
                   "a region id 0 to 1000000, or null ('.' in a string) on a hole", region_cell,
                   v->regions) != 0)
        r->bad = 1;
    v->spec.regions = v->regions;
}

/* `extra_units`: lists of cells. */
static void read_units(reader_t *r, json_t *val) {
    api_sudoku_variant_t *v = r->v;
    size_t count = json_array_size(val), total = 0, k, j;
    char field[48];
    if (!json_is_array(val) || count > API_VARIANT_MAX_UNITS) {
        api_problem_add(r->p, "body", "extra_units",
                        "must be a list of at most %d units, each a list of cells [row, column]",
                        API_VARIANT_MAX_UNITS);
        r->bad = 1;
        return;
    }
    for (k = 0; k < count; k++) {
        json_t *u = json_array_get(val, k);
        if (!json_is_array(u) || json_array_size(u) < 1 ||
            json_array_size(u) > (size_t)(r->n > 0 ? r->n : SUDOKU_MAX_N)) {
            snprintf(field, sizeof field, "extra_units[%zu]", k);
            api_problem_add(r->p, "body", field,
                            "must list 1 to %d cells: a unit holds each symbol at most once", r->n);
            r->bad = 1;
            continue;
        }
        total += json_array_size(u);
    }
    if (r->bad) return;
    v->unit_start = r_alloc(r, (count + 1) * sizeof *v->unit_start);
    v->unit_cells = r_alloc(r, (total + 1) * sizeof *v->unit_cells);
    if (v->unit_start == NULL || v->unit_cells == NULL) return;
    total = 0;
    for (k = 0; k < count; k++) {
        json_t *u = json_array_get(val, k);
        v->unit_start[k] = (uint32_t)total;
        for (j = 0; j < json_array_size(u); j++) {
            int cell = 0;
            snprintf(field, sizeof field, "extra_units[%zu][%zu]", k, j);
            if (read_cell(r, json_array_get(u, j), field, &cell) == 0)
                v->unit_cells[total] = (uint16_t)cell;
            total++;
        }
    }
    v->unit_start[count] = (uint32_t)total;
    v->spec.nunits = (int)count;
    v->spec.unit_start = v->unit_start;
    v->spec.unit_cells = v->unit_cells;
}

/* A parity mark: 'E' / "E" / "even", 'O' / "O" / "odd", '.' / null. */
static int parity_cell(void *ctx, int cell, json_t *e, int ch) {
    uint8_t *par = ctx;
    const char *s;
    if (e == NULL) {
        par[cell] = (ch == 'E' || ch == 'e')   ? SUDOKU_PARITY_EVEN
                    : (ch == 'O' || ch == 'o') ? SUDOKU_PARITY_ODD
                                               : SUDOKU_PARITY_ANY;
        return ch == '.' || par[cell] != SUDOKU_PARITY_ANY ? 0 : -1;
    }
    par[cell] = SUDOKU_PARITY_ANY;
    if (json_is_null(e)) return 0;
    if (!json_is_string(e)) return -1;
    s = json_string_value(e);
    if (strcasecmp(s, "e") == 0 || strcasecmp(s, "even") == 0)
        par[cell] = SUDOKU_PARITY_EVEN;
    else if (strcasecmp(s, "o") == 0 || strcasecmp(s, "odd") == 0)
        par[cell] = SUDOKU_PARITY_ODD;
    else if (strcmp(s, ".") != 0)
        return -1;
    return 0;
}

/* `parity`: a string of E / O / '.', or rows arrays of marks. */
static void read_parity(reader_t *r, json_t *val) {
    api_sudoku_variant_t *v = r->v;
    v->parity = r_alloc(r, (size_t)v->rows * (size_t)v->cols);
    if (v->parity == NULL) return;
    if (read_frame(r->p, val, v->rows, v->cols, "parity",
                   "E or \"even\", O or \"odd\", '.' or null", parity_cell, v->parity) != 0)
        r->bad = 1;
    v->spec.parity = v->parity;
}

/* `pairs`: [[r, c], [r, c]] or {"cells": ..., "rule": ...}. */
static void read_pairs(reader_t *r, json_t *val) {
    api_sudoku_variant_t *v = r->v;
    size_t count = json_array_size(val), k;
    char field[48];
    if (!json_is_array(val) || count > API_VARIANT_MAX_PAIRS) {
        api_problem_add(r->p, "body", "pairs",
                        "must be a list of at most %d pairs [[row, column], [row, column]]",
                        API_VARIANT_MAX_PAIRS);
        r->bad = 1;
        return;
    }
    v->pairs = r_alloc(r, (count + 1) * sizeof *v->pairs);
    if (v->pairs == NULL) return;
    for (k = 0; k < count; k++) {
        json_t *e = json_array_get(val, k), *cells = e;
        int a = 0, b = 0, rule = SUDOKU_PAIR_CONSECUTIVE;
        snprintf(field, sizeof field, "pairs[%zu]", k);
        if (json_is_object(e)) {
            json_t *ru = json_object_get(e, "rule");
            cells = json_object_get(e, "cells");
            if (json_object_size(e) != (ru != NULL ? 2u : 1u) || cells == NULL) {
                bad(r, field,
                    "must be {\"cells\": [[row, column], [row, column]], \"rule\": ...}%s", "");
                continue;
            }
            if (ru != NULL) {
                const char *s = json_string_value(ru);
                if (s != NULL && strcmp(s, "non-consecutive") == 0)
                    rule = SUDOKU_PAIR_NONCONSECUTIVE;
                else if (s == NULL || strcmp(s, "consecutive") != 0)
                    bad(r, field, "rule must be consecutive or non-consecutive%s", "");
            }
        }
        if (!json_is_array(cells) || json_array_size(cells) != 2) {
            bad(r, field, "must be two cells [[row, column], [row, column]]%s", "");
            continue;
        }
        snprintf(field, sizeof field, "pairs[%zu][0]", k);
        if (read_cell(r, json_array_get(cells, 0), field, &a) != 0) continue;
        snprintf(field, sizeof field, "pairs[%zu][1]", k);
        if (read_cell(r, json_array_get(cells, 1), field, &b) != 0) continue;
        v->pairs[k].a = (uint16_t)a;
        v->pairs[k].b = (uint16_t)b;
        v->pairs[k].rule = (uint8_t)rule;
    }
    v->spec.npairs = (int)count;
    v->spec.pairs = v->pairs;
}

/* One constraint's number: an integer member `key` of e from lo to hi. */
static int line_number(reader_t *r, json_t *e, const char *key, const char *field, long long lo,
                       long long hi, int32_t *out) {
    json_t *v = json_object_get(e, key);
    char name[96];
    snprintf(name, sizeof name, "%s.%s", field, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        api_problem_add(r->p, "body", name, "must be an integer from %lld to %lld", lo, hi);
        r->bad = 1;
        return -1;
    }
    *out = (int32_t)json_integer_value(v);
    return 0;
}

/* === Constraints: ISS's types as line rules ============================== */

/* The relations of pair lines: a table per (relation, parameter) the
 * request uses, built here (api_sudoku_variant_t.pair_tables). */
enum {
    REL_LT,         /* a < b: thermo steps */
    REL_GT,         /* a > b: greater-than */
    REL_EQ,         /* palindrome */
    REL_NE,         /* anti-knight, anti-king */
    REL_DIFF_GE,    /* |a - b| >= param: whisper */
    REL_CONSEC,     /* |a - b| = 1: kropki white */
    REL_RATIO2,     /* one double the other: kropki black */
    REL_SUM,        /* a + b = param: x (10), v (5) */
    REL_NOT_KROPKI, /* neither consecutive nor 1:2 (strict kropki) */
    REL_NOT_XV,     /* a + b is neither 5 nor 10 (strict xv) */
    REL_NOT_CONSEC, /* anti-consecutive */
    REL_MOD_NE,     /* different remainders mod param: modular */
    REL_CLASS_NE,   /* different thirds (1-3, 4-6, 7-9): entropic */
};

static int rel_holds(int rel, int param, int a, int b) {
    int d = a > b ? a - b : b - a;
    switch (rel) {
    case REL_LT: return a < b;
    case REL_GT: return a > b;
    case REL_EQ: return a == b;
    case REL_NE: return a != b;
    case REL_DIFF_GE: return d >= param;
    case REL_CONSEC: return d == 1;
    case REL_RATIO2: return a == 2 * b || b == 2 * a;
    case REL_SUM: return a + b == param;
    case REL_NOT_KROPKI: return d != 1 && a != 2 * b && b != 2 * a;
    case REL_NOT_XV: return a + b != 5 && a + b != 10;
    case REL_NOT_CONSEC: return d != 1;
    case REL_MOD_NE: return a % param != b % param;
    default: return (a - 1) / 3 != (b - 1) / 3; /* REL_CLASS_NE */
    }
}

/* Adds a line of kind/value over cells[0..len) made by constraint `tag`;
 * the arrays grow as needed. */
static void push_line(reader_t *r, int kind, int value, const int *cells, int len, int tag) {
    api_sudoku_variant_t *v = r->v;
    sudoku_line_t *ln;
    /* past the model's limit nothing more is kept (read_lines names it):
     * a short body (a thousand anti-kings) must not make millions */
    if (r->nomem || v->nlines_made > SUDOKU_MODEL_MAX_LINES) return;
    if (v->nlines_made == v->lines_cap) {
        size_t cap = v->lines_cap ? 2 * v->lines_cap : 64;
        sudoku_line_t *m = realloc(v->lines, cap * sizeof *m);
        if (m == NULL) {
            r->nomem = 1;
            return;
        }
        v->lines = m;
        v->lines_cap = cap;
    }
    if (v->cells_made + (size_t)len > v->cells_cap) {
        size_t cap = v->cells_cap ? 2 * v->cells_cap : 256;
        uint16_t *m;
        while (cap < v->cells_made + (size_t)len)
            cap *= 2;
        if ((m = realloc(v->line_cells, cap * sizeof *m)) == NULL) {
            r->nomem = 1;
            return;
        }
        v->line_cells = m;
        v->cells_cap = cap;
    }
    ln = &v->lines[v->nlines_made++];
    memset(ln, 0, sizeof *ln);
    ln->kind = (uint8_t)kind;
    ln->value = value;
    ln->first = (uint32_t)v->cells_made;
    ln->len = (uint32_t)len;
    ln->tag = (uint32_t)tag;
    for (int i = 0; i < len; i++)
        v->line_cells[v->cells_made++] = (uint16_t)cells[i];
}

/* The table of (rel, param), made the first time it is asked for. */
static int rel_table(reader_t *r, int rel, int param) {
    api_sudoku_variant_t *v = r->v;
    int n = r->n, t;
    uint64_t *m;
    for (t = 0; t < v->ntables; t++)
        if (v->table_keys[t] == (rel << 16 | param)) return t;
    if (v->ntables == API_VARIANT_MAX_TABLES) return -1;
    m = realloc(v->pair_tables, (size_t)(v->ntables + 1) * (size_t)n * sizeof *m);
    if (m == NULL) {
        r->nomem = 1;
        return -1;
    }
    v->pair_tables = m;
    for (int a = 1; a <= n; a++) {
        uint64_t row = 0;
        for (int b = 1; b <= n; b++)
            row |= (uint64_t)rel_holds(rel, param, a, b) << (b - 1);
        m[(size_t)t * n + a - 1] = row;
    }
    v->table_keys[t] = rel << 16 | param;
    v->ntables++;
    return t;
}

static void push_pair(reader_t *r, int rel, int param, int a, int b, int tag) {
    int cells[2] = {a, b}, t = rel_table(r, rel, param);
    if (t >= 0) push_line(r, SUDOKU_LINE_PAIR, t, cells, 2, tag);
}

/* The cells of member `key` of e (a list of [r, c]) into out[cap]; returns
 * how many, or -1 after naming the problem.  want_min..want_max cells. */
static int read_cells(reader_t *r, json_t *e, const char *key, const char *field, int want_min,
                      int want_max, int *out) {
    json_t *list = json_object_get(e, key);
    char cf[96];
    size_t len = json_array_size(list), j;
    snprintf(cf, sizeof cf, "%s.%s", field, key);
    if (!json_is_array(list) || len < (size_t)want_min || len > (size_t)want_max) {
        api_problem_add(r->p, "body", cf, "must list %d to %d cells [row, column], in order",
                        want_min, want_max);
        r->bad = 1;
        return -1;
    }
    for (j = 0; j < len; j++) {
        snprintf(cf, sizeof cf, "%s.%s[%zu]", field, key, j);
        if (read_cell(r, json_array_get(list, j), cf, &out[j]) != 0) return -1;
    }
    return (int)len;
}

/* A cell one (dr, dc) step from c on the frame, or -1. */
static int step(const api_sudoku_variant_t *v, int c, int dr, int dc) {
    int row = c / v->cols + dr, col = c % v->cols + dc;
    return row >= 0 && row < v->rows && col >= 0 && col < v->cols ? row * v->cols + col : -1;
}

/* Whether a listed mark (kropki-white/-black, or x/v) names cells a, b. */
static int marked_pair(json_t *list, const api_sudoku_variant_t *v, int xv, int a, int b) {
    size_t k;
    json_t *e;
    json_array_foreach(list, k, e) {
        const char *t = json_string_value(json_object_get(e, "type"));
        json_t *cells = json_object_get(e, "cells");
        int x, y;
        if (t == NULL || json_array_size(cells) != 2) continue;
        if (xv ? (strcmp(t, "x") != 0 && strcmp(t, "v") != 0)
               : (strcmp(t, "kropki-white") != 0 && strcmp(t, "kropki-black") != 0))
            continue;
        x = (int)(json_integer_value(json_array_get(json_array_get(cells, 0), 0)) * v->cols +
                  json_integer_value(json_array_get(json_array_get(cells, 0), 1)));
        y = (int)(json_integer_value(json_array_get(json_array_get(cells, 1), 0)) * v->cols +
                  json_integer_value(json_array_get(json_array_get(cells, 1), 1)));
        if ((x == a && y == b) || (x == b && y == a)) return 1;
    }
    return 0;
}

/* The members each type takes besides "type". */
static const struct {
    const char *type;
    const char *keys; /* space separated */
} line_types[] = {
    {"sum", "sum cells"},
    {"little-killer", "sum cells"},
    {"cage", "sum cells"},
    {"skyscraper", "side visible cells"},
    {"thermo", "cells"},
    {"whisper", "difference cells"},
    {"palindrome", "cells"},
    {"renban", "cells"},
    {"between", "cells"},
    {"lockout", "min_diff cells"},
    {"modular", "mod cells"},
    {"entropic", "cells"},
    {"arrow", "circle line"},
    {"double-arrow", "circles line"},
    {"pill-arrow", "pill line"},
    {"kropki-white", "cells"},
    {"kropki-black", "cells"},
    {"x", "cells"},
    {"v", "cells"},
    {"greater-than", "cells"},
    {"diagonal", "which cells"},
    {"windoku", "windows"},
    {"anti-knight", ""},
    {"anti-king", ""},
    {"anti-consecutive", ""},
    {"disjoint-sets", ""},
    {"strict-kropki", ""},
    {"strict-xv", ""},
    {"zipper", "cells"},
    {"sandwich", "row col sum"},
    {"x-sum", "side sum cells"},
    {"sum-line", "sum loop cells"},
    {"region-sum-line", "cells segments"},
    {"equal-sum", "segments"},
};

static const char known_types[] =
    "sum, little-killer, cage, skyscraper, thermo, whisper, palindrome, renban, between, lockout, "
    "modular, entropic, arrow, double-arrow, pill-arrow, kropki-white, kropki-black, x, v, "
    "greater-than, diagonal, windoku, anti-knight, anti-king, anti-consecutive, disjoint-sets, "
    "strict-kropki, strict-xv, zipper, sandwich, x-sum, sum-line, region-sum-line, equal-sum";

/* Whether key is a word of the space-separated list. */
static int key_in(const char *keys, const char *key) {
    size_t len = strlen(key);
    for (const char *s = keys; (s = strstr(s, key)) != NULL; s += len)
        if ((s == keys || s[-1] == ' ') && (s[len] == ' ' || s[len] == '\0')) return 1;
    return 0;
}

/* sum, little-killer, cage, skyscraper; 1 when type is one of them. */
static int read_sum_rules(reader_t *r, json_t *e, const char *type, int k, const char *field,
                          int *cells) {
    static const char *const sides[] = {"top", "bottom", "left", "right", NULL};
    char cf[96];
    int n = r->n, len;
    int32_t num = 0;
    if (strcmp(type, "sum") == 0 || strcmp(type, "little-killer") == 0) {
        if ((len = read_cells(r, e, "cells", field, 1, SUDOKU_LINE_MAX_CELLS, cells)) < 0) return 1;
        if (line_number(r, e, "sum", field, len, (long long)len * n, &num) == 0)
            push_line(r, SUDOKU_LINE_SUM, num, cells, len, k);
    } else if (strcmp(type, "cage") == 0) {
        json_t *sv = json_object_get(e, "sum");
        if ((len = read_cells(r, e, "cells", field, 1, n, cells)) < 0) return 1;
        if (sv != NULL && !json_is_null(sv) &&
            !(json_is_integer(sv) && json_integer_value(sv) == 0) &&
            line_number(r, e, "sum", field, (long long)len * (len + 1) / 2,
                        (long long)len * (2LL * n - len + 1) / 2, &num) != 0)
            return 1;
        push_line(r, SUDOKU_LINE_CAGE, num, cells, len, k);
    } else if (strcmp(type, "skyscraper") == 0) {
        const char *side = json_string_value(json_object_get(e, "side"));
        int known = json_object_get(e, "side") == NULL;
        for (int i = 0; side != NULL && sides[i] != NULL; i++)
            known |= strcmp(side, sides[i]) == 0;
        if (!known) {
            snprintf(cf, sizeof cf, "%s.side", field);
            api_problem_add(r->p, "body", cf, "must be top, bottom, left or right");
            r->bad = 1;
        }
        if ((len = read_cells(r, e, "cells", field, 1, SUDOKU_LINE_MAX_CELLS, cells)) < 0) return 1;
        if (line_number(r, e, "visible", field, 1, len < n ? len : n, &num) == 0)
            push_line(r, SUDOKU_LINE_SKYSCRAPER, num, cells, len, k);
    } else {
        return 0;
    }
    return 1;
}

/* The types made of pair lines: thermo, whisper, palindrome, modular,
 * entropic, kropki, x, v, greater-than; 1 when type is one of them. */
static int read_pair_rules(reader_t *r, json_t *e, const char *type, int k, const char *field,
                           int *cells) {
    int n = r->n, len;
    int32_t num = 0;
    if (strcmp(type, "thermo") == 0 || strcmp(type, "whisper") == 0 ||
        strcmp(type, "palindrome") == 0 || strcmp(type, "modular") == 0 ||
        strcmp(type, "entropic") == 0) {
        int w = type[0] == 'w', p = type[0] == 'p', mod = type[0] == 'm', ent = type[0] == 'e';
        if ((len = read_cells(r, e, "cells", field, 2, SUDOKU_LINE_MAX_CELLS * 2, cells)) < 0)
            return 1;
        if (w && line_number(r, e, "difference", field, 1, n - 1, &num) != 0) return 1;
        if (mod && line_number(r, e, "mod", field, 2, n, &num) != 0) return 1;
        if (p) {
            for (int i = 0; i < len / 2; i++)
                push_pair(r, REL_EQ, 0, cells[i], cells[len - 1 - i], k);
        } else if (mod || ent) { /* every window of `mod` (3) cells: all remainders differ */
            int win = ent ? 3 : num;
            for (int i = 0; i < len; i++)
                for (int j = i + 1; j < len && j < i + win; j++)
                    push_pair(r, ent ? REL_CLASS_NE : REL_MOD_NE, ent ? 0 : num, cells[i], cells[j],
                              k);
        } else {
            for (int i = 0; i + 1 < len; i++)
                push_pair(r, w ? REL_DIFF_GE : REL_LT, w ? num : 0, cells[i], cells[i + 1], k);
        }
    } else if (strncmp(type, "kropki", 6) == 0 || strcmp(type, "x") == 0 ||
               strcmp(type, "v") == 0 || strcmp(type, "greater-than") == 0) {
        int rel = type[0] == 'g'           ? REL_GT
                  : strcmp(type, "x") == 0 ? REL_SUM
                  : strcmp(type, "v") == 0 ? REL_SUM
                  : type[7] == 'w'         ? REL_CONSEC
                                           : REL_RATIO2;
        if (read_cells(r, e, "cells", field, 2, 2, cells) < 0) return 1;
        push_pair(r, rel,
                  strcmp(type, "x") == 0   ? 10
                  : strcmp(type, "v") == 0 ? 5
                                           : 0,
                  cells[0], cells[1], k);
    } else {
        return 0;
    }
    return 1;
}

/* renban, between, lockout, the arrows, zipper, sandwich, x-sum, sum-line;
 * 1 when type is one of them. */
static int read_line_rules(reader_t *r, json_t *e, const char *type, int k, const char *field,
                           int *cells) {
    api_sudoku_variant_t *v = r->v;
    char cf[96];
    int n = r->n, len;
    int32_t num = 0;
    if (strcmp(type, "renban") == 0) {
        if ((len = read_cells(r, e, "cells", field, 1, n, cells)) >= 0)
            push_line(r, SUDOKU_LINE_RENBAN, 0, cells, len, k);
    } else if (strcmp(type, "between") == 0 || strcmp(type, "lockout") == 0) {
        int lock = type[0] == 'l';
        if ((len = read_cells(r, e, "cells", field, 2, SUDOKU_LINE_MAX_CELLS, cells)) < 0) return 1;
        if (lock && line_number(r, e, "min_diff", field, 0, n - 1, &num) != 0) return 1;
        push_line(r, lock ? SUDOKU_LINE_LOCKOUT : SUDOKU_LINE_BETWEEN, num, cells, len, k);
    } else if (strstr(type, "arrow") != NULL) {
        const char *key = type[0] == 'a' ? "circle" : type[0] == 'd' ? "circles" : "pill";
        int h, lo = type[0] == 'a' ? 1 : 2, hi = type[0] == 'p' ? 3 : lo, nl;
        json_t *circle = json_object_get(e, "circle");
        if (type[0] == 'a' && json_is_integer(json_array_get(circle, 0))) { /* [r, c] */
            snprintf(cf, sizeof cf, "%s.circle", field);
            if (read_cell(r, circle, cf, &cells[0]) != 0) return 1;
            h = 1;
        } else if ((h = read_cells(r, e, key, field, lo, hi, cells)) < 0) {
            return 1;
        }
        if ((nl = read_cells(r, e, "line", field, 1, SUDOKU_LINE_MAX_CELLS - h, cells + h)) < 0)
            return 1;
        push_line(r, SUDOKU_LINE_ARROW, h | (type[0] == 'p' ? 1 << 8 : 0), cells, h + nl, k);
    } else if (strcmp(type, "zipper") == 0) {
        if ((len = read_cells(r, e, "cells", field, 2, SUDOKU_LINE_MAX_CELLS, cells)) >= 0)
            push_line(r, SUDOKU_LINE_ZIPPER, 0, cells, len, k);
    } else if (strcmp(type, "sandwich") == 0) { /* a whole row or column of the grid */
        json_t *row = json_object_get(e, "row"), *col = json_object_get(e, "col");
        json_t *at = row != NULL ? row : col;
        snprintf(cf, sizeof cf, "%s.%s", field, row != NULL ? "row" : "col");
        if ((row == NULL) == (col == NULL) || !json_is_integer(at) || json_integer_value(at) < 0 ||
            json_integer_value(at) >= n || v->rows != n || v->cols != n) {
            api_problem_add(r->p, "body", cf,
                            "give one of row or col, from 0 to %d, on a single %dx%d grid", n - 1,
                            n, n);
            r->bad = 1;
            return 1;
        }
        for (int i = 0; i < n; i++)
            cells[i] = row != NULL ? (int)json_integer_value(at) * n + i
                                   : i * n + (int)json_integer_value(at);
        if (line_number(r, e, "sum", field, 0, (long long)(n - 2) * (n - 1), &num) == 0)
            push_line(r, SUDOKU_LINE_SANDWICH, num, cells, n, k);
    } else if (strcmp(type, "x-sum") == 0 || strcmp(type, "sum-line") == 0) {
        int xs = type[0] == 'x';
        json_t *loop = xs ? NULL : json_object_get(e, "loop");
        if (loop != NULL && !json_is_boolean(loop) && !json_is_null(loop)) {
            snprintf(cf, sizeof cf, "%s.loop", field);
            api_problem_add(r->p, "body", cf, "must be true (the line is a closed loop) or false");
            r->bad = 1;
            return 1;
        }
        if ((len = read_cells(r, e, "cells", field, 1, SUDOKU_LINE_MAX_CELLS, cells)) < 0) return 1;
        if (line_number(r, e, "sum", field, 1, (long long)len * n, &num) == 0)
            push_line(r,
                      xs                   ? SUDOKU_LINE_XSUM
                      : json_is_true(loop) ? SUDOKU_LINE_SEGLOOP
                                           : SUDOKU_LINE_SEGSUM,
                      num, cells, len, k);
    } else {
        return 0;
    }
    return 1;
}

/* Segment j of constraint `field` (a list of 1 to SUDOKU_LINE_MAX_CELLS
 * distinct cells) into out; its length, or -1 after naming the problem. */
static int read_segment(reader_t *r, json_t *seg, const char *field, size_t j, int *out) {
    size_t len = json_array_size(seg), i, q;
    char cf[112];
    snprintf(cf, sizeof cf, "%s.segments[%zu]", field, j);
    if (!json_is_array(seg) || len == 0 || len > SUDOKU_LINE_MAX_CELLS) {
        api_problem_add(r->p, "body", cf, "must list 1 to %d cells [row, column]",
                        SUDOKU_LINE_MAX_CELLS);
        r->bad = 1;
        return -1;
    }
    for (i = 0; i < len; i++) {
        snprintf(cf, sizeof cf, "%s.segments[%zu][%zu]", field, j, i);
        if (read_cell(r, json_array_get(seg, i), cf, &out[i]) != 0) return -1;
        for (q = 0; q < i; q++)
            if (out[q] == out[i]) {
                bad(r, cf, "is already in this segment: a segment lists distinct cells%s", "");
                return -1;
            }
    }
    return (int)len;
}

/* region-sum-line, equal-sum: one EQSUM line per segment, the group's
 * values counting down to 1 (model.h), SUDOKU_LINE_MAX_CELLS cells in all
 * at most (the model's bound on a group); 1 when type is one of them.  A
 * region sum line's segments (its runs inside one box or region), joined
 * in order, must be its cells: the server takes the client's cut and does
 * not cut the line by the boxes itself.  The first bad segment ends the
 * constraint (what follows it would only repeat the problem). */
static int read_equal_sums(reader_t *r, json_t *e, const char *type, int k, const char *field,
                           int *cells) {
    json_t *segs = json_object_get(e, "segments");
    int region = strcmp(type, "region-sum-line") == 0, len = 0, at = 0, all = 0, slen;
    int *seg = cells + SUDOKU_LINE_MAX_CELLS; /* the line in cells[0..len) */
    size_t nseg = json_array_size(segs), j;
    char sf[96];
    if (!region && strcmp(type, "equal-sum") != 0) return 0;
    if (region && (len = read_cells(r, e, "cells", field, 1, SUDOKU_LINE_MAX_CELLS, cells)) < 0)
        return 1;
    snprintf(sf, sizeof sf, "%s.segments", field);
    if (!json_is_array(segs) || nseg == 0 || nseg > SUDOKU_LINE_MAX_CELLS) {
        api_problem_add(r->p, "body", sf,
                        "must be a list of 1 to %d segments, each a list of cells [row, column]",
                        SUDOKU_LINE_MAX_CELLS);
        r->bad = 1;
        return 1;
    }
    for (j = 0; j < nseg; j++) {
        if ((slen = read_segment(r, json_array_get(segs, j), field, j, seg)) < 0) return 1;
        if (region && (at + slen > len || memcmp(cells + at, seg, (size_t)slen * sizeof *seg))) {
            api_problem_add(r->p, "body", sf,
                            "segment %zu is not the next run of the line's cells: the segments, "
                            "joined in order, must be the line's cells",
                            j);
            r->bad = 1;
            return 1;
        }
        if ((all += slen) > SUDOKU_LINE_MAX_CELLS) {
            api_problem_add(r->p, "body", sf,
                            "the segments list more than %d cells in all (a cell in two "
                            "segments counts twice)",
                            SUDOKU_LINE_MAX_CELLS);
            r->bad = 1;
            return 1;
        }
        at += slen;
        push_line(r, SUDOKU_LINE_EQSUM, (int)(nseg - j), seg, slen, k);
    }
    if (region && at != len) {
        api_problem_add(r->p, "body", sf,
                        "the segments cover %d of the line's %d cells: joined in order, they "
                        "must be the line's cells",
                        at, len);
        r->bad = 1;
    }
    return 1;
}

/* diagonal, windoku, disjoint-sets and the rules over the whole grid
 * (anti-knight, anti-king, anti-consecutive, strict-kropki, strict-xv). */
static int read_grid_rules(reader_t *r, json_t *e, const char *type, int k, json_t *all,
                           const char *field, int *cells) {
    api_sudoku_variant_t *v = r->v;
    char cf[96];
    int n = r->n, len;
    if (strcmp(type, "diagonal") == 0) { /* a unit: a cage without a total */
        const char *which = json_string_value(json_object_get(e, "which"));
        if (json_object_get(e, "which") != NULL &&
            (which == NULL || (strcmp(which, "main") != 0 && strcmp(which, "anti") != 0))) {
            snprintf(cf, sizeof cf, "%s.which", field);
            api_problem_add(r->p, "body", cf, "must be main or anti");
            r->bad = 1;
            return 1;
        }
        if ((len = read_cells(r, e, "cells", field, 1, n, cells)) >= 0)
            push_line(r, SUDOKU_LINE_CAGE, 0, cells, len, k);
    } else if (strcmp(type, "windoku") == 0) { /* each window a unit */
        json_t *wins = json_object_get(e, "windows"), *wnd;
        size_t i;
        snprintf(cf, sizeof cf, "%s.windows", field);
        if (!json_is_array(wins) || json_array_size(wins) == 0) {
            api_problem_add(r->p, "body", cf, "must be a list of windows, each a list of cells");
            r->bad = 1;
            return 1;
        }
        json_array_foreach(wins, i, wnd) {
            json_t *holder = json_pack("{s:O}", "cells", wnd);
            char wf[96];
            snprintf(wf, sizeof wf, "%s.windows[%zu]", field, i);
            if (holder == NULL) {
                r->nomem = 1;
                return 1;
            }
            if ((len = read_cells(r, holder, "cells", wf, 1, n, cells)) >= 0)
                push_line(r, SUDOKU_LINE_CAGE, 0, cells, len, k);
            json_decref(holder);
        }
    } else if (strcmp(type, "disjoint-sets") == 0) {
        r->bits |= V_DISJOINT;
    } else { /* the global pair rules: over every cell of the frame */
        int king = strcmp(type, "anti-king") == 0, knight = strcmp(type, "anti-knight") == 0;
        int consec = strcmp(type, "anti-consecutive") == 0, sk = strcmp(type, "strict-kropki") == 0;
        static const int kn[4][2] = {{1, 2}, {2, 1}, {1, -2}, {2, -1}},
                         kg[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int c = 0; c < v->rows * v->cols; c++)
            for (int d = 0; d < 4; d++) {
                int dr = knight ? kn[d][0] : kg[d][0], dc = knight ? kn[d][1] : kg[d][1];
                int o = step(v, c, dr, dc);
                if (o < 0 || (!knight && !king && d >= 2)) continue; /* orthogonal only */
                if (knight || king)
                    push_pair(r, REL_NE, 0, c, o, k);
                else if (consec)
                    push_pair(r, REL_NOT_CONSEC, 0, c, o, k);
                else if (!marked_pair(all, v, !sk, c, o))
                    push_pair(r, sk ? REL_NOT_KROPKI : REL_NOT_XV, 0, c, o, k);
            }
    }
    return 1;
}

/* One constraint (index k) of a known type into line rules. */
static void read_constraint(reader_t *r, json_t *e, const char *type, int k, json_t *all) {
    int cells[SUDOKU_LINE_MAX_CELLS * 2]; /* the cells the constraint lists */
    char field[48];
    snprintf(field, sizeof field, "constraints[%d]", k);
    if (!read_sum_rules(r, e, type, k, field, cells) &&
        !read_pair_rules(r, e, type, k, field, cells) &&
        !read_line_rules(r, e, type, k, field, cells) &&
        !read_equal_sums(r, e, type, k, field, cells))
        read_grid_rules(r, e, type, k, all, field, cells);
}

/* `constraints`: ISS's constraint types (docs/variants.md) into line
 * rules; every line remembers its constraint (sudoku_line_t.tag). */
static void read_lines(reader_t *r, json_t *val) {
    api_sudoku_variant_t *v = r->v;
    size_t count = json_array_size(val), k;
    char field[48], cf[96];
    if (!json_is_array(val) || count > API_VARIANT_MAX_LINES) {
        api_problem_add(r->p, "body", "constraints",
                        "must be a list of at most %d constraints {\"type\": ..., ...}",
                        API_VARIANT_MAX_LINES);
        r->bad = 1;
        return;
    }
    for (k = 0; k < count && !r->nomem; k++) {
        json_t *e = json_array_get(val, k), *m;
        const char *type = json_string_value(json_object_get(e, "type")), *key, *keys = NULL;
        snprintf(field, sizeof field, "constraints[%zu]", k);
        if (!json_is_object(e) || type == NULL) {
            bad(r, field, "must be an object with a \"type\"%s", "");
            continue;
        }
        for (size_t t = 0; t < sizeof line_types / sizeof line_types[0]; t++)
            if (strcmp(type, line_types[t].type) == 0) keys = line_types[t].keys;
        if (keys == NULL) {
            snprintf(cf, sizeof cf, "%s.type", field);
            api_problem_add(r->p, "body", cf,
                            "'%.32s' is not a constraint this server reads; it reads %s", type,
                            known_types);
            r->bad = 1;
            continue;
        }
        json_object_foreach(e, key, m) {
            if (strcmp(key, "type") == 0 || key_in(keys, key)) continue;
            snprintf(cf, sizeof cf, "%s.%.24s", field, key);
            api_problem_add(r->p, "body", cf, "unknown field of a %s constraint", type);
            r->bad = 1;
        }
        read_constraint(r, e, type, (int)k, val);
    }
    if (v->nlines_made > SUDOKU_MODEL_MAX_LINES) {
        api_problem_add(r->p, "body", "constraints",
                        "these constraints make more than %d line rules (a pair of cells, a "
                        "line, a cage each); at most %d are allowed",
                        SUDOKU_MODEL_MAX_LINES, SUDOKU_MODEL_MAX_LINES);
        r->bad = 1;
    }
    v->spec.nlines = (int)v->nlines_made;
    v->spec.lines = v->lines;
    v->spec.line_cells = v->line_cells;
    v->spec.npair_tables = v->ntables;
    v->spec.pair_tables = v->pair_tables;
}

/* What the names ask for, against the fields given. */
static void check_requirements(reader_t *r) {
    json_t *b = r->body;
    if ((r->bits & V_JIGSAW) && json_object_get(b, "regions") == NULL)
        bad(r, "regions", "required by the jigsaw variant: the region of every cell%s", "");
    if ((r->bits & V_EVENODD) && json_object_get(b, "parity") == NULL)
        bad(r, "parity", "required by the even-odd variant: which cells are even, which odd%s", "");
    if ((r->bits & V_CONSEC) && json_object_get(b, "pairs") == NULL)
        bad(r, "pairs",
            "required by the consecutive variant: the marked pairs (every other pair of "
            "neighbours differs by more than 1)%s",
            "");
    if ((r->bits & V_NONCONSEC) && json_array_size(json_object_get(b, "pairs")) > 0)
        bad(r, "pairs", "the non-consecutive variant marks no pair%s", "");
    if ((r->bits & V_CLASSIC) &&
        (json_object_get(b, "regions") || json_object_get(b, "extra_units") ||
         json_object_get(b, "parity") || json_object_get(b, "pairs")))
        bad(r, "variant", "classic takes no regions, extra units, parity or pairs%s", "");
}

int api_sudoku_variant_read(json_t *body, int n, api_sudoku_variant_t *v, api_problem_t *p) {
    reader_t r;
    sudoku_layout_t layout = SUDOKU_LAYOUT_SINGLE;
    json_t *val;
    int frame;
    memset(v, 0, sizeof *v);
    sudoku_spec_init(&v->spec);
    memset(&r, 0, sizeof r);
    r.body = body;
    r.v = v;
    r.p = p;
    r.n = n;
    for (int i = 0; api_sudoku_variant_fields[i] != NULL; i++)
        if (json_object_get(body, api_sudoku_variant_fields[i]) != NULL) v->present = 1;
    if ((val = json_object_get(body, "variant")) != NULL) read_variant(&r, val, &layout);
    if ((val = json_object_get(body, "layout")) != NULL) read_layout(&r, val, &layout);
    if (r.nomem) goto nomem;
    if (r.n == 0) r.n = infer_n(&r, layout);
    if (layout != SUDOKU_LAYOUT_SINGLE && r.n != 9) {
        bad(&r, "layout", "the named layouts are made of 9x9 grids%s", "");
        r.n = 9;
    }
    if (r.n < SUDOKU_MIN_N || r.n > SUDOKU_MAX_N) {
        api_problem_add(p, "body", "grid", "must have N from %d to %d symbols", SUDOKU_MIN_N,
                        SUDOKU_MAX_N);
        return API_EINVALID;
    }
    v->spec.n = r.n;
    v->spec.layout = layout;
    if ((val = json_object_get(body, "box")) != NULL &&
        api_json_box(val, r.n, &v->spec.box_rows, &v->spec.box_cols, p) != 0)
        r.bad = 1;
    v->spec.extras = ((r.bits & V_X) ? SUDOKU_EXTRA_X : 0) |
                     ((r.bits & V_WINDOKU) ? SUDOKU_EXTRA_WINDOKU : 0) |
                     ((r.bits & V_DISJOINT) ? SUDOKU_EXTRA_DISJOINT : 0);
    v->spec.nonconsecutive = (r.bits & (V_CONSEC | V_NONCONSEC)) != 0;
    frame = sudoku_spec_frame(&v->spec, &v->rows, &v->cols);
    if (frame != 0) {
        api_problem_add(p, "body", "layout",
                        "the grids do not fit a frame of at most %d x %d cells (%d in all)",
                        SUDOKU_MODEL_MAX_SIDE, SUDOKU_MODEL_MAX_SIDE, SUDOKU_MODEL_MAX_CELLS);
        return API_EINVALID;
    }
    check_requirements(&r);
    if ((val = json_object_get(body, "regions")) != NULL) read_regions(&r, val);
    if ((val = json_object_get(body, "extra_units")) != NULL) read_units(&r, val);
    if ((val = json_object_get(body, "parity")) != NULL) read_parity(&r, val);
    if ((val = json_object_get(body, "pairs")) != NULL) read_pairs(&r, val);
    if ((val = json_object_get(body, "constraints")) != NULL) read_lines(&r, val);
    if (r.bits & V_DISJOINT) v->spec.extras |= SUDOKU_EXTRA_DISJOINT; /* disjoint-sets */
    if (r.nomem) goto nomem;
    if (r.bad) {
        api_sudoku_variant_free(v);
        return API_EINVALID;
    }
    return 0;
nomem:
    api_sudoku_variant_free(v);
    api_problem_nomem(p, "reading the variant");
    return API_ENOMEM;
}

void api_sudoku_variant_free(api_sudoku_variant_t *v) {
    free(v->regions);
    free(v->unit_start);
    free(v->unit_cells);
    free(v->parity);
    free(v->pairs);
    free(v->lines);
    free(v->line_cells);
    free(v->pair_tables);
    v->lines = NULL;
    v->line_cells = NULL;
    v->pair_tables = NULL;
    v->regions = NULL;
    v->unit_start = NULL;
    v->unit_cells = NULL;
    v->parity = NULL;
    v->pairs = NULL;
}

/* === The grid =========================================================== */

/* Whether frame cell c belongs to one of the spec's grids. */
static int in_grids(const api_sudoku_variant_t *v, const sudoku_origin_t *g, int ng, int c) {
    int r = c / v->cols, k = c % v->cols, n = v->spec.n;
    for (int i = 0; i < ng; i++)
        if (r >= g[i].row && r < g[i].row + n && k >= g[i].col && k < g[i].col + n) return 1;
    return 0;
}

typedef struct grid_ctx_s {
    const api_sudoku_variant_t *v;
    const sudoku_origin_t *g;
    int ng;
    uint8_t *out;
    api_problem_t *p;
} grid_ctx_t;

/* A grid cell: '.' / '0' / 0 / null empty, a symbol 1..n; not on a hole. */
static int grid_cell(void *vctx, int cell, json_t *e, int ch) {
    grid_ctx_t *x = vctx;
    long long val;
    char field[32];
    x->out[cell] = 0;
    if (e == NULL) {
        int c = api_grid_char_value((char)ch);
        val = c == API_GRID_EMPTY ? 0 : c == API_GRID_BAD ? -1 : c;
    } else {
        val = json_is_null(e) ? 0 : json_is_integer(e) ? json_integer_value(e) : -1;
    }
    if (val < 0 || val > x->v->spec.n) return -1;
    if (val != 0 && !in_grids(x->v, x->g, x->ng, cell)) {
        snprintf(field, sizeof field, "grid[%d][%d]", cell / x->v->cols, cell % x->v->cols);
        api_problem_add(x->p, "body", field, "is outside every grid: must be empty%s", "");
        return -2;
    }
    x->out[cell] = (uint8_t)val;
    return 0;
}

int api_sudoku_variant_grid(json_t *grid, const api_sudoku_variant_t *v, uint8_t *out,
                            api_problem_t *p) {
    sudoku_origin_t g[SUDOKU_MODEL_MAX_GRIDS];
    grid_ctx_t x = {v, g, 0, out, p};
    char what[64];
    x.ng = sudoku_spec_grids(&v->spec, g);
    snprintf(what, sizeof what, "empty ('.', 0 or null) or a symbol 1 to %d", v->spec.n);
    return read_frame(p, grid, v->rows, v->cols, "grid", what, grid_cell, &x) != 0 ? API_EINVALID
                                                                                   : 0;
}

/* === The model ========================================================== */

/* The field of a spec error. */
static void spec_field(const api_sudoku_variant_t *v, const sudoku_spec_error_t *e, char *field,
                       size_t cap) {
    int cols = v->cols > 0 ? v->cols : 1;
    switch (e->part) {
    case SUDOKU_SPEC_LAYOUT: snprintf(field, cap, "layout"); break;
    case SUDOKU_SPEC_GRIDS:
        if (e->index >= 0)
            snprintf(field, cap, "layout.grids[%d]", e->index);
        else
            snprintf(field, cap, "layout");
        break;
    case SUDOKU_SPEC_BOX: snprintf(field, cap, "box"); break;
    case SUDOKU_SPEC_EXTRAS: snprintf(field, cap, "variant"); break;
    case SUDOKU_SPEC_REGIONS:
        if (e->index >= 0)
            snprintf(field, cap, "regions[%d][%d]", e->index / cols, e->index % cols);
        else
            snprintf(field, cap, "regions");
        break;
    case SUDOKU_SPEC_UNITS:
        if (e->index >= 0 && e->detail >= 0)
            snprintf(field, cap, "extra_units[%d][%d]", e->index, e->detail);
        else if (e->index >= 0)
            snprintf(field, cap, "extra_units[%d]", e->index);
        else
            snprintf(field, cap, "extra_units");
        break;
    case SUDOKU_SPEC_PARITY:
        snprintf(field, cap, "parity[%d][%d]", e->index / cols, e->index % cols);
        break;
    case SUDOKU_SPEC_PAIRS:
        if (e->index >= 0)
            snprintf(field, cap, "pairs[%d]", e->index);
        else
            snprintf(field, cap, "pairs");
        break;
    case SUDOKU_SPEC_LINES: /* a line names its constraint (tag) */
        if (e->index >= 0 && (size_t)e->index < v->nlines_made)
            snprintf(field, cap, "constraints[%u]", v->lines[e->index].tag);
        else
            snprintf(field, cap, "constraints");
        break;
    default: snprintf(field, cap, "grid"); break;
    }
}

int api_sudoku_variant_model(const api_sudoku_variant_t *v, const search_allocator_t *alloc,
                             sudoku_model_t **out, api_problem_t *p) {
    sudoku_spec_error_t e;
    char field[48];
    int rc = sudoku_model_new(&v->spec, alloc, out, &e);
    if (rc == 0) return 0;
    if (rc == SEARCH_ENOMEM) {
        api_problem_nomem(p, "building the variant");
        return API_ENOMEM;
    }
    spec_field(v, &e, field, sizeof field);
    switch (rc) {
    case SUDOKU_EREGION:
        if (e.detail >= 0)
            api_problem_add(p, "body", field,
                            "this cell's region has %d cells; every region has %d", e.detail,
                            v->spec.n);
        else
            api_problem_add(p, "body", field,
                            "the regions must cover every cell of the grid, each region "
                            "connected (side to side)%s",
                            "");
        break;
    case SUDOKU_EUNIT:
        if (e.index < 0)
            api_problem_add(p, "body", field, "the puzzle has %d units; at most %d are allowed",
                            e.detail, SUDOKU_MODEL_MAX_UNITS);
        else
            api_problem_add(p, "body", field,
                            "a unit lists 1 to %d distinct cells of the grids (not a hole)",
                            v->spec.n);
        break;
    case SUDOKU_EPAIR:
        api_problem_add(p, "body", field,
                        "a pair is two cells side by side in the grids, and each pair is "
                        "marked once%s",
                        "");
        break;
    case SUDOKU_EPARITY:
        api_problem_add(p, "body", field, "a cell outside every grid has no parity%s", "");
        break;
    case SUDOKU_ELINE:
        api_problem_add(p, "body", field,
                        "a constraint lists distinct cells of the grids (not a hole), at most %d "
                        "of them",
                        SUDOKU_LINE_MAX_CELLS);
        break;
    case SUDOKU_ELAYOUT:
        api_problem_add(p, "body", field,
                        "the grids must be distinct and fit a frame of at most %d x %d cells",
                        SUDOKU_MODEL_MAX_SIDE, SUDOKU_MODEL_MAX_SIDE);
        break;
    case SUDOKU_ENOBOX:
        api_problem_add(p, "body", "box",
                        "%d has no box shape: give regions (jigsaw), or a box such as 1x%d, "
                        "and no windoku or disjoint variant",
                        v->spec.n, v->spec.n);
        break;
    default:
        if (e.part == SUDOKU_SPEC_EXTRAS)
            api_problem_add(p, "body", field,
                            "windoku and disjoint need rectangular boxes, disjoint no regions%s",
                            "");
        else
            api_problem_add(p, "body", field, "%d x %d boxes do not tile the %d symbols",
                            v->spec.box_rows, v->spec.box_cols, v->spec.n);
        break;
    }
    return API_EINVALID;
}

static const char *const kind_words[SUDOKU_UNIT_KINDS] = {
    "row", "column", "box", "region", "diagonal", "window", "disjoint group", "extra_units"};

/* A unit by kind, index and grid. */
static void unit_words(const sudoku_model_t *m, int kind, int index, int grid, char *buf,
                       size_t cap) {
    if (kind == SUDOKU_UNIT_EXTRA && index >= m->nextra && index - m->nextra < m->nlines)
        snprintf(buf, cap, "constraints[%u] (no repeats)", m->lines[index - m->nextra].tag);
    else if (kind == SUDOKU_UNIT_EXTRA)
        snprintf(buf, cap, "extra_units[%d]", index);
    else if (kind == SUDOKU_UNIT_DIAGONAL)
        snprintf(buf, cap, "the %s diagonal", index == 0 ? "main" : "anti");
    else if (kind < SUDOKU_UNIT_KINDS)
        snprintf(buf, cap, "%s %d", kind_words[kind], index + 1);
    else
        snprintf(buf, cap, "a rule");
    if (kind != SUDOKU_UNIT_EXTRA && kind != SUDOKU_UNIT_REGION && m->ngrids > 1 && grid != 255)
        snprintf(buf + strlen(buf), cap - strlen(buf), " of grid %d", grid + 1);
}

void api_sudoku_variant_unit_name(const sudoku_model_t *m, int u, char *buf, size_t cap) {
    if (u < 0 || u >= m->nunits) {
        snprintf(buf, cap, "the grid");
        return;
    }
    unit_words(m, m->unit_kind[u], m->unit_index[u], m->unit_grid[u], buf, cap);
}

void api_sudoku_variant_describe(const sudoku_model_t *m, const sudoku_conflict_t *cf, char *buf,
                                 size_t cap) {
    int cols = m->cols;
    if (cf->unit == SUDOKU_RULE_PARITY) {
        snprintf(buf, cap, "the parity of grid[%d][%d]", cf->index / cols, cf->index % cols);
    } else if (cf->unit == SUDOKU_RULE_LINE) {
        const sudoku_line_t *ln = &m->lines[cf->index];
        if (ln->kind == SUDOKU_LINE_SKYSCRAPER)
            snprintf(buf, cap, "constraints[%u] (%d buildings seen)", ln->tag, (int)ln->value);
        else if (ln->kind == SUDOKU_LINE_SUM || ln->kind == SUDOKU_LINE_CAGE)
            snprintf(buf, cap, "constraints[%u] (the cells add up to %d)", ln->tag, (int)ln->value);
        else if (ln->kind == SUDOKU_LINE_EQSUM)
            snprintf(buf, cap, "constraints[%u] (its segments add up to one total)", ln->tag);
        else
            snprintf(buf, cap, "constraints[%u]", ln->tag);
    } else if (cf->unit == SUDOKU_RULE_PAIR) {
        const sudoku_pair_t *pr = &m->pairs[cf->index];
        if (cf->index < m->nmarked)
            snprintf(buf, cap, "pairs[%d]", cf->index);
        else
            snprintf(buf, cap, "the non-consecutive rule between grid[%d][%d] and grid[%d][%d]",
                     pr->a / cols, pr->a % cols, pr->b / cols, pr->b % cols);
    } else {
        unit_words(m, cf->unit, cf->index, cf->grid, buf, cap);
    }
}
