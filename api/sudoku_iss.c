/* sudoku_iss.c -- ISS's text read into the JSON fields of a Sudoku variant
 * request (sudoku_iss.h; docs/constraints.md, "Importing ISS's text", has
 * the types and what each becomes).
 *
 * Why JSON: the text becomes the fields a client would have written
 * (grid, box, variant and regions, extra_units, constraints in the shapes
 * of ISS_FORMAT), and the request goes on through api/sudoku_variant_api.c
 * as a JSON body does: one reader of the rules, one validation, one
 * solver path.  Reading the text straight into line rules was the other
 * way, rejected: a second reader of every type, its ranges and checks
 * written twice, for a JSON tree of a few kilobytes made once a request.
 * What this file checks is what only the text knows: its syntax, ISS's
 * names, argument orders and defaults, and the cells ISS derives itself
 * (a little killer's diagonal, an outside clue's row, the pairs of a dot
 * drawn over several cells, a region sum line's runs through the boxes).
 * Ranges (a sum no cage makes, a whisper difference over n - 1) are the
 * JSON reader's; api_sudoku_iss_rename() turns its problems back into
 * places in the text.
 *
 * The text, read as ISS reads it (js/sudoku_parser.js, e373f98):
 *   - a URL (the text starts with http://, https:// or '?'): its `q`
 *     parameter, percent-decoded, '+' a blank;
 *   - blanks anywhere, and lines that start with '#', are dropped;
 *   - `.Type~arg~arg.Type~...`: items between dots, `~` between arguments;
 *     an empty type is a Given (`.~R1C1_5~R2C3_7`);
 *   - otherwise a grid: N*N givens (digits up to 9x9; from 10x10 on ISS's
 *     short characters 'A' = 1 ... 'P' = 16; one other character, any, for
 *     the empty cells), N*N labels of a jigsaw layout (N labels, N cells
 *     each), or givens followed by a layout; a leading '=' means givens.
 * Every byte parsed remembers its place in the body (text_t.at), so a
 * problem names "item 4 at character 57" of what the client sent, through
 * the decoding and the dropped blanks.
 *
 * Two passes over the items (three loops): Shape first, wherever it
 * stands (ISS's "6x6" example writes it last), then NoBoxes and Jigsaw,
 * then every other item in order, each appending its constraints; the
 * body is put together at the end (rd_finish).
 *
 * Bounds: API_SUDOKU_ISS_MAX_BYTES of text, API_SUDOKU_ISS_MAX_ITEMS
 * items, grids from 4x4 (the solver's smallest) to 16x16 (ISS's largest),
 * numbers read by api_decimal() (digits only, range-checked, never
 * wrapped) up to ISS_NUMBER_MAX.  Memory: the text's copy and the
 * scratch arrays are freed before the read returns; the body and the
 * constraints' origins belong to the api_sudoku_iss_t.  No globals but
 * const tables; reentrant. */
#include "api/sudoku_iss.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/decimal.h"
#include "api/grid_char.h"
#include "api/json_util.h"

#define ISS_CELLS      (API_SUDOKU_ISS_MAX_N * API_SUDOKU_ISS_MAX_N)
#define ISS_NUMBER_MAX 1000000 /* far over any sum of a 16x16 */

/* === The text ============================================================ */

/* What is parsed: the q parameter decoded (or the body), blanks and '#'
 * lines dropped; at[k] is the body offset byte k came from, at[len] the
 * offset just past the last. */
typedef struct text_s {
    char *s;
    uint32_t *at;
    size_t len;
} text_t;

static void text_free(text_t *t) {
    free(t->s);
    free(t->at);
    t->s = NULL;
    t->at = NULL;
}

static int is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The first `q` parameter of the URL in[start..len): its value's span
 * [*from, *to).  0, or -1 when there is none.  The query ends at '#'. */
static int url_q(const char *in, size_t len, size_t start, size_t *from, size_t *to) {
    const char *q = memchr(in + start, '?', len - start), *hash;
    size_t i, end;
    if (q == NULL) return -1;
    hash = memchr(q, '#', (size_t)(in + len - q));
    end = hash != NULL ? (size_t)(hash - in) : len;
    for (i = (size_t)(q - in) + 1; i <= end;) {
        size_t j = i;
        while (j < end && in[j] != '&')
            j++;
        if (j - i >= 2 && in[i] == 'q' && in[i + 1] == '=') {
            *from = i + 2;
            *to = j;
            return 0;
        }
        i = j + 1;
    }
    return -1;
}

/* The text of in[0..len) into t.  0, API_EINVALID (problem added) or
 * API_ENOMEM. */
static int text_make(const char *in, size_t len, text_t *t, api_problem_t *p) {
    size_t i = 0, from = 0, to = len, k = 0;
    int url, comment = 0, line_start = 1;
    while (i < len && is_blank(in[i]))
        i++;
    url = (len - i >= 7 && strncasecmp(in + i, "http://", 7) == 0) ||
          (len - i >= 8 && strncasecmp(in + i, "https://", 8) == 0) || (i < len && in[i] == '?');
    if (url && url_q(in, len, i, &from, &to) != 0) {
        api_problem_add(p, "body", "body",
                        "a URL without a q parameter: ISS writes the puzzle in ?q=...");
        return API_EINVALID;
    }
    t->s = malloc(to - from + 1);
    t->at = malloc((to - from + 1) * sizeof *t->at);
    if (t->s == NULL || t->at == NULL) {
        text_free(t);
        return API_ENOMEM;
    }
    for (i = from; i < to; i++) {
        char c = in[i];
        size_t at = i;
        if (url && c == '+') {
            c = ' ';
        } else if (url && c == '%') {
            int hi = i + 2 < to ? hex_digit(in[i + 1]) : -1,
                lo = i + 2 < to ? hex_digit(in[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                char f[32];
                snprintf(f, sizeof f, "character %zu", i + 1);
                api_problem_add(p, "body", f, "a '%%' that starts no %%XX escape");
                text_free(t);
                return API_EINVALID;
            }
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        if (comment) { /* ISS drops /^#.*$/m: a line whose first byte is '#' */
            if (c == '\n') comment = 0, line_start = 1;
            continue;
        }
        if (line_start && c == '#') {
            comment = 1;
            continue;
        }
        line_start = c == '\n';
        if (is_blank(c)) continue;
        t->s[k] = c;
        t->at[k++] = (uint32_t)at;
    }
    t->s[k] = '\0';
    t->at[k] = (uint32_t)to;
    t->len = k;
    if (k == 0) {
        api_problem_add(p, "body", "body", "no puzzle: the ISS text is empty");
        text_free(t);
        return API_EINVALID;
    }
    return 0;
}

/* The character (1 for the body's first) byte k of the text came from. */
static uint32_t text_char(const text_t *t, size_t k) {
    return (k < t->len ? t->at[k] : t->at[t->len]) + 1;
}

/* === The reader ========================================================== */

typedef struct span_s {
    uint32_t from, len;
} span_t;

enum { CLUE_LITTLE_KILLER, CLUE_SANDWICH, CLUE_XSUM, CLUE_SKYSCRAPER, CLUE_KINDS };

typedef struct rd_s {
    api_sudoku_iss_t *iss;
    api_problem_t *p;
    text_t t;
    span_t *args; /* the item's arguments (as many as the text has '~', + 1) */
    size_t nargs;
    int *cells;       /* an item's cells (as many) */
    uint32_t item;    /* the item read, 1 for the first (0: a grid of givens) */
    size_t item_from; /* where it starts: its '.' */
    const char *type; /* its ISS type */
    int n, bh, bw;    /* the grid; ISS's boxes (bh 0: none for this n) */
    int no_boxes;
    int jigsaw;            /* a layout was read: region[] */
    int region[ISS_CELLS]; /* the layout's piece of each cell, -1 none */
    int nregions;
    api_sudoku_iss_at_t disjoint_at; /* DisjointSets without boxes: as extra units */
    int disjoint_units;
    uint8_t grid[ISS_CELLS];
    uint8_t clue_seen[CLUE_KINDS][ISS_CELLS]; /* outside clues by place (ISS keeps one) */
    json_t *cons;
    size_t cons_cap;
    unsigned seen; /* the types ISS keeps once (NoBoxes, AntiKnight, ...), a bit each */
    int bad, nomem;
} rd_t;

/* A problem at byte k of the text, in the item being read. */
static void rd_fail(rd_t *r, size_t k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void rd_fail(rd_t *r, size_t k, const char *fmt, ...) {
    char field[64], msg[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->item > 0)
        snprintf(field, sizeof field, "item %u at character %u", (unsigned)r->item,
                 (unsigned)text_char(&r->t, k));
    else
        snprintf(field, sizeof field, "character %u", (unsigned)text_char(&r->t, k));
    if (r->type != NULL)
        api_problem_add(r->p, "body", field, "%s: %s", r->type, msg);
    else
        api_problem_add(r->p, "body", field, "%s", msg);
    r->bad = 1;
}

/* printf arguments quoting span a (at most 24 characters). */
#define SPAN(r, a) (int)((a).len < 24 ? (a).len : 24), (r)->t.s + (a).from

/* The item's place, for the parts of the body it makes. */
static api_sudoku_iss_at_t rd_here(const rd_t *r) {
    api_sudoku_iss_at_t at = {r->item, text_char(&r->t, r->item_from), r->type};
    return at;
}

/* A number of digits, 0 to ISS_NUMBER_MAX: 0, or -1 after naming it. */
static int rd_number(rd_t *r, span_t a, long long *out) {
    int rc = api_decimal(r->t.s + a.from, a.len, ISS_NUMBER_MAX, out);
    if (rc == -1)
        rd_fail(r, a.from, "'%.*s' is not a number of digits 0-9", SPAN(r, a));
    else if (rc == -2)
        rd_fail(r, a.from, "'%.*s' is over %d", SPAN(r, a), ISS_NUMBER_MAX);
    return rc == 0 ? 0 : -1;
}

/* One character of a cell id, 1-9 then a-g (ISS counts in base 17): 0..15,
 * or -1. */
static int id_digit(char c) {
    if (c >= '1' && c <= '9') return c - '1';
    if (c >= 'a' && c <= 'g') return c - 'a' + 9;
    if (c >= 'A' && c <= 'G') return c - 'A' + 9;
    return -1;
}

/* A cell id R<row>C<col> (either case): the cell, or -1 after naming it. */
static int rd_cell(rd_t *r, span_t a) {
    const char *s = r->t.s + a.from;
    int row = a.len == 4 ? id_digit(s[1]) : -1, col = a.len == 4 ? id_digit(s[3]) : -1;
    if (a.len == 4 && (s[0] == 'R' || s[0] == 'r') && (s[2] == 'C' || s[2] == 'c') && row >= 0 &&
        col >= 0 && row < r->n && col < r->n)
        return row * r->n + col;
    rd_fail(r, a.from,
            "'%.*s' is not a cell R<row>C<col> of the %dx%d grid (rows and columns 1-9, then a-g)",
            SPAN(r, a), r->n, r->n);
    return -1;
}

/* The cells of arguments [from, to) into r->cells: how many, or -1. */
static int rd_cells(rd_t *r, size_t from, size_t to) {
    int len = 0;
    for (size_t k = from; k < to; k++)
        if ((r->cells[len++] = rd_cell(r, r->args[k])) < 0) return -1;
    return len;
}

/* An outside clue's row or column, R<k> or C<k> with k from 1 to n in
 * decimal as ISS writes its keys (no leading 0): 0 with *col and *index
 * (0-based), or -1. */
static int rd_line_id(rd_t *r, span_t a, int *col, int *index) {
    const char *s = r->t.s + a.from;
    long long k = 0;
    if (a.len >= 2 && (s[0] == 'R' || s[0] == 'C') && s[1] != '0' &&
        api_decimal(s + 1, a.len - 1, r->n, &k) == 0) {
        *col = s[0] == 'C';
        *index = (int)k - 1;
        return 0;
    }
    rd_fail(r, a.from, "'%.*s' is not a row R1..R%d or a column C1..C%d", SPAN(r, a), r->n, r->n);
    return -1;
}

static json_t *cell_json(const rd_t *r, int c) { return json_pack("[i,i]", c / r->n, c % r->n); }

/* cells[0..len) as a list of [r, c]; NULL when out of memory. */
static json_t *cells_json(const rd_t *r, const int *cells, int len) {
    json_t *a = json_array();
    int ok = 1;
    for (int i = 0; i < len; i++)
        api_jpush(a, cell_json(r, cells[i]), &ok);
    if (!ok) {
        json_decref(a);
        return NULL;
    }
    return a;
}

/* A constraint {"type": json} to fill. */
static json_t *con_new(const char *json, int *ok) {
    json_t *c = json_object();
    api_jset(c, "type", json_string(json), ok);
    return c;
}

/* Appends constraint c (stolen), made by the item being read; ok 0 (a
 * part of c failed) is out of memory. */
static void rd_emit(rd_t *r, json_t *c, int ok) {
    api_sudoku_iss_t *iss = r->iss;
    if (iss->ncons == r->cons_cap) {
        size_t cap = r->cons_cap ? 2 * r->cons_cap : 32;
        api_sudoku_iss_at_t *m = realloc(iss->cons_at, cap * sizeof *m);
        if (m == NULL) ok = 0;
        if (m != NULL) iss->cons_at = m, r->cons_cap = cap;
    }
    if (ok)
        api_jpush(r->cons, c, &ok);
    else
        json_decref(c);
    if (!ok) {
        r->nomem = 1;
        return;
    }
    iss->cons_at[iss->ncons++] = rd_here(r);
}

/* The item takes lo to hi arguments: 0, or -1 after saying what it takes. */
static int rd_nargs(rd_t *r, size_t lo, size_t hi, const char *how) {
    if (r->nargs >= lo && r->nargs <= hi) return 0;
    rd_fail(r, r->item_from, "takes %s", how);
    return -1;
}

/* === The items ============================================================ */

typedef struct iss_type_s iss_type_t;
typedef void (*item_fn)(rd_t *r, const iss_type_t *t);

struct iss_type_s {
    const char *name; /* ISS's */
    const char *json; /* the constraint type it becomes (NULL: none) */
    item_fn fn;
    int pass;     /* 0 Shape, 1 the layout (NoBoxes, Jigsaw), 2 the rest */
    unsigned bit; /* kept once (ISS's uniqueness by type), or 0 */
};

/* `.~R1C1_5~R2C3_7`: one value per cell (several are pencil marks). */
static void t_given(rd_t *r, const iss_type_t *t) {
    (void)t;
    for (size_t k = 0; k < r->nargs; k++) {
        span_t a = r->args[k], cell = a, val;
        const char *s = r->t.s + a.from;
        long long v = 0;
        int c;
        cell.len = 0;
        while (cell.len < a.len && s[cell.len] != '_')
            cell.len++;
        if ((c = rd_cell(r, cell)) < 0) continue;
        val.from = a.from + cell.len + 1;
        val.len = cell.len < a.len ? a.len - cell.len - 1 : 0;
        if (cell.len == a.len) {
            rd_fail(r, a.from, "'%.*s' names no value: write R<row>C<col>_<value>", SPAN(r, a));
        } else if (memchr(r->t.s + val.from, '_', val.len) != NULL) {
            rd_fail(r, a.from, "'%.*s' gives a cell several candidates: pencil marks are not read",
                    SPAN(r, a));
        } else if (api_decimal(r->t.s + val.from, val.len, r->n, &v) != 0 || v < 1 ||
                   r->t.s[val.from] == '0') {
            rd_fail(r, val.from, "'%.*s' is not a value from 1 to %d", SPAN(r, val), r->n);
        } else if (r->grid[c] != 0 && r->grid[c] != v) {
            rd_fail(r, a.from, "R%dC%d is given twice, as %d and %lld", c / r->n + 1, c % r->n + 1,
                    r->grid[c], v);
        } else {
            r->grid[c] = (uint8_t)v;
            r->iss->cell_at[c] = rd_here(r);
            r->iss->cell_at[c].at = text_char(&r->t, a.from);
        }
    }
}

/* Cage~sum~cells (an empty sum or 0: no total), Sum~sum~cells. */
static void t_sum(rd_t *r, const iss_type_t *t) {
    int cage = strcmp(t->name, "Cage") == 0, len, ok = 1;
    long long v = 0;
    span_t a;
    json_t *c;
    if (rd_nargs(r, 2, (size_t)-1, "a sum and cells: .Cage~<sum>~R1C1~R1C2...") != 0) return;
    a = r->args[0];
    if (!cage && memchr(r->t.s + a.from, '_', a.len) != NULL) {
        rd_fail(r, a.from, "sums with coefficients ('%.*s') are not read", SPAN(r, a));
        return;
    }
    if (!(cage && a.len == 0) && rd_number(r, a, &v) != 0) return;
    if ((len = rd_cells(r, 1, r->nargs)) < 0) return;
    c = con_new(t->json, &ok);
    api_jset(c, "sum", cage && v == 0 ? json_null() : json_integer(v), &ok);
    api_jset(c, "cells", cells_json(r, r->cells, len), &ok);
    rd_emit(r, c, ok);
}

/* Whether an outside clue of kind at key was read already (ISS keeps the
 * last; this server refuses the second, rather than pick). */
static int rd_clue_twice(rd_t *r, int kind, int key, span_t a) {
    if (!r->clue_seen[kind][key]) {
        r->clue_seen[kind][key] = 1;
        return 0;
    }
    rd_fail(r, a.from, "a second clue at '%.*s' (ISS keeps only one)", SPAN(r, a));
    return 1;
}

/* LittleKiller~sum~first cell of the diagonal.  ISS names each diagonal by
 * the cell it starts at (cellMap): left-edge cells R1C1..R(n-1)C1 run
 * down-right, right-edge cells R2Cn..R(n-1)Cn up-left, top-edge cells
 * R1C2..R1Cn down-left, bottom-edge cells RnC2..RnC(n-1) up-right.  (On a
 * square grid no two of these cover the same cells, so ISS's check for
 * that never fires here.) */
static void t_little_killer(rd_t *r, const iss_type_t *t) {
    int n = r->n, c, row, col, dr, dc, len = 0, ok = 1;
    long long v;
    json_t *e;
    if (rd_nargs(r, 2, 2, "a sum and the diagonal's first cell: .LittleKiller~<sum>~R1C2") != 0 ||
        rd_number(r, r->args[0], &v) != 0 || (c = rd_cell(r, r->args[1])) < 0)
        return;
    row = c / n, col = c % n;
    if (col == 0 && row <= n - 2)
        dr = 1, dc = 1;
    else if (col == n - 1 && row >= 1 && row <= n - 2)
        dr = -1, dc = -1;
    else if (row == 0 && col >= 1)
        dr = 1, dc = -1;
    else if (row == n - 1 && col >= 1 && col <= n - 2)
        dr = -1, dc = 1;
    else {
        rd_fail(r, r->args[1].from, "no diagonal clue starts at '%.*s'", SPAN(r, r->args[1]));
        return;
    }
    if (rd_clue_twice(r, CLUE_LITTLE_KILLER, c, r->args[1])) return;
    for (; row >= 0 && row < n && col >= 0 && col < n; row += dr, col += dc)
        r->cells[len++] = row * n + col;
    e = con_new(t->json, &ok);
    api_jset(e, "sum", json_integer(v), &ok);
    api_jset(e, "cells", cells_json(r, r->cells, len), &ok);
    rd_emit(r, e, ok);
}

/* Sandwich~sum~R<k> or C<k> (ISS has top and left clues only). */
static void t_sandwich(rd_t *r, const iss_type_t *t) {
    int col, index, ok = 1;
    long long v;
    json_t *e;
    if (rd_nargs(r, 2, 2, "a sum and a row or column: .Sandwich~<sum>~R1") != 0 ||
        rd_number(r, r->args[0], &v) != 0 || rd_line_id(r, r->args[1], &col, &index) != 0 ||
        rd_clue_twice(r, CLUE_SANDWICH, col * r->n + index, r->args[1]))
        return;
    e = con_new(t->json, &ok);
    api_jset(e, col ? "col" : "row", json_integer(index), &ok);
    api_jset(e, "sum", json_integer(v), &ok);
    rd_emit(r, e, ok);
}

/* XSum and Skyscraper: ~R<k> or C<k>~clue from the start (left, top)~clue
 * from the end (right, bottom); an empty clue is none, 0 is refused (as
 * ISS does).  Each clue is a constraint over the line in viewing order. */
static void t_outside(rd_t *r, const iss_type_t *t) {
    int sky = strcmp(t->name, "Skyscraper") == 0, n = r->n, col, index;
    if (rd_nargs(r, 2, 3,
                 "a row or column and one or two clues: .XSum~R1~<from left>~<from right>") != 0 ||
        rd_line_id(r, r->args[0], &col, &index) != 0)
        return;
    for (size_t k = 1; k < r->nargs; k++) {
        span_t a = r->args[k];
        long long v;
        int ok = 1, back = k == 2;
        json_t *e;
        if (a.len == 0) continue;
        if (rd_number(r, a, &v) != 0) continue;
        if (v == 0) {
            rd_fail(r, a.from, "a clue of 0 (ISS refuses it)");
            continue;
        }
        if (rd_clue_twice(r, sky ? CLUE_SKYSCRAPER : CLUE_XSUM, (col * n + index) * 2 + back,
                          r->args[0]))
            continue;
        for (int i = 0; i < n; i++) {
            int at = back ? n - 1 - i : i;
            r->cells[i] = col ? at * n + index : index * n + at;
        }
        e = con_new(t->json, &ok);
        api_jset(e, "side",
                 json_string(col ? (back ? "bottom" : "top") : (back ? "right" : "left")), &ok);
        api_jset(e, sky ? "visible" : "sum", json_integer(v), &ok);
        api_jset(e, "cells", cells_json(r, r->cells, n), &ok);
        rd_emit(r, e, ok);
    }
}

/* Thermo, Renban, Palindrome, Between, Zipper, Entropic: ~cells.  Whisper
 * ~[difference]~cells (none: 5, German whispers), Modular~mod~cells,
 * Lockout~min diff~cells, SumLine~sum~cells[~LOOP]. */
static void t_line(rd_t *r, const iss_type_t *t) {
    const char *key = strcmp(t->name, "Whisper") == 0   ? "difference"
                      : strcmp(t->name, "Modular") == 0 ? "mod"
                      : strcmp(t->name, "Lockout") == 0 ? "min_diff"
                      : strcmp(t->name, "SumLine") == 0 ? "sum"
                                                        : NULL;
    size_t first = key != NULL, end = r->nargs;
    long long v = 5;
    int len, ok = 1, loop = 0;
    json_t *e;
    if (key != NULL && key[0] == 'd' && r->nargs > 0 &&
        !(r->args[0].len > 0 && r->t.s[r->args[0].from] >= '0' &&
          r->t.s[r->args[0].from] <= '9')) /* no number first: German whispers, 5 */
        first = 0;
    if (first && rd_nargs(r, 1, (size_t)-1, "a number, then the line's cells") != 0) return;
    if (first && rd_number(r, r->args[0], &v) != 0) return;
    if (key != NULL && key[0] == 's' && end > first &&
        (r->args[end - 1].len == 4 && memcmp(r->t.s + r->args[end - 1].from, "LOOP", 4) == 0)) {
        loop = 1;
        end--;
    }
    if (strcmp(t->name, "Entropic") == 0 && r->n != 9) {
        rd_fail(r, r->item_from, "entropic lines are read on 9x9 grids only (ISS's rule)");
        return;
    }
    if (end <= first) {
        rd_fail(r, r->item_from, "lists no cells");
        return;
    }
    if ((len = rd_cells(r, first, end)) < 0) return;
    e = con_new(t->json, &ok);
    if (key != NULL) api_jset(e, key, json_integer(v), &ok);
    if (key != NULL && key[0] == 's') api_jset(e, "loop", json_boolean(loop), &ok);
    api_jset(e, "cells", cells_json(r, r->cells, len), &ok);
    rd_emit(r, e, ok);
}

/* The box or jigsaw piece of cell c that a region sum line counts in (-1
 * none); -2 when the grid has neither (ISS: the line holds no rule). */
static int rd_region_of(const rd_t *r, int c) {
    int n = r->n;
    if (!r->no_boxes && r->bh > 0) return (c / n / r->bh) * (n / r->bw) + c % n / r->bw;
    if (r->jigsaw) return r->region[c];
    return -2;
}

/* RegionSumLine~cells: its runs inside one box (without boxes, one piece
 * of the jigsaw) as the segments, as ISS cuts it; cells in no piece make
 * runs of their own, as ISS's lookup gives them no region alike. */
static void t_region_sum_line(rd_t *r, const iss_type_t *t) {
    int len, ok = 1;
    json_t *e, *segs;
    if (r->nargs == 0) {
        rd_fail(r, r->item_from, "lists no cells");
        return;
    }
    if ((len = rd_cells(r, 0, r->nargs)) < 0 || rd_region_of(r, r->cells[0]) == -2) return;
    segs = json_array();
    for (int i = 0, j; i < len; i = j) {
        for (j = i + 1; j < len && rd_region_of(r, r->cells[j]) == rd_region_of(r, r->cells[i]);
             j++)
            ;
        api_jpush(segs, cells_json(r, r->cells + i, j - i), &ok);
    }
    e = con_new(t->json, &ok);
    api_jset(e, "cells", cells_json(r, r->cells, len), &ok);
    api_jset(e, "segments", segs, &ok);
    rd_emit(r, e, ok);
}

/* EqualSum~cells~-~cells~-~...: groups of cells split by '-'. */
static void t_equal_sum(rd_t *r, const iss_type_t *t) {
    json_t *segs, *e;
    size_t k = 0;
    int ok = 1;
    if (r->nargs == 0) {
        rd_fail(r, r->item_from, "lists no groups of cells");
        return;
    }
    segs = json_array();
    while (k <= r->nargs && ok) {
        size_t end = k;
        int len;
        while (end < r->nargs && !(r->args[end].len == 1 && r->t.s[r->args[end].from] == '-'))
            end++;
        if ((len = rd_cells(r, k, end)) < 0) {
            json_decref(segs);
            return;
        }
        api_jpush(segs, cells_json(r, r->cells, len), &ok);
        k = end + 1;
    }
    e = con_new(t->json, &ok);
    api_jset(e, "segments", segs, &ok);
    rd_emit(r, e, ok);
}

/* Arrow~circle~line..., DoubleArrow~circle~line...~circle. */
static void t_arrow(rd_t *r, const iss_type_t *t) {
    int dbl = strcmp(t->name, "DoubleArrow") == 0, len, ok = 1;
    json_t *e;
    if ((len = rd_cells(r, 0, r->nargs)) < 0) return;
    if (len < 2 + dbl) {
        rd_fail(r, r->item_from, "%s",
                dbl ? "needs a circle, a line and a circle: 3 cells at least"
                    : "needs its circle and a line: 2 cells at least");
        return;
    }
    e = con_new(t->json, &ok);
    if (dbl) {
        int ends[2] = {r->cells[0], r->cells[len - 1]};
        api_jset(e, "circles", cells_json(r, ends, 2), &ok);
    } else {
        api_jset(e, "circle", cell_json(r, r->cells[0]), &ok);
    }
    api_jset(e, "line", cells_json(r, r->cells + 1, len - 1 - dbl), &ok);
    rd_emit(r, e, ok);
}

/* PillArrow~2 or 3~pill cells~line...: ISS sorts the pill's cells, and
 * they must then read on: each one right of, below, or below and right
 * of the one before. */
static void t_pill_arrow(rd_t *r, const iss_type_t *t) {
    long long size;
    int len, ok = 1, n = r->n;
    json_t *e;
    if (rd_nargs(r, 1, (size_t)-1, "the pill's size and the cells") != 0 ||
        rd_number(r, r->args[0], &size) != 0)
        return;
    if (size != 2 && size != 3) {
        rd_fail(r, r->args[0].from, "a pill of %lld digits: 2 or 3 are read", size);
        return;
    }
    if ((len = rd_cells(r, 1, r->nargs)) < 0) return;
    if (len <= size) {
        rd_fail(r, r->item_from, "needs more cells than its pill's %lld", size);
        return;
    }
    for (int i = 1; i < size; i++) /* insertion sort, as ISS */
        for (int j = i; j > 0 && r->cells[j - 1] > r->cells[j]; j--) {
            int x = r->cells[j];
            r->cells[j] = r->cells[j - 1], r->cells[j - 1] = x;
        }
    for (int i = 1; i < size; i++) {
        int a = r->cells[i - 1], b = r->cells[i];
        int right = a % n < n - 1 && b == a + 1, down = b == a + n,
            diag = a % n < n - 1 && b == a + n + 1;
        if (!right && !down && !diag) {
            rd_fail(r, r->item_from,
                    "the pill's cells must be neighbours in reading order once sorted (ISS)");
            return;
        }
    }
    e = con_new(t->json, &ok);
    api_jset(e, "pill", cells_json(r, r->cells, (int)size), &ok);
    api_jset(e, "line", cells_json(r, r->cells + size, len - (int)size), &ok);
    rd_emit(r, e, ok);
}

/* WhiteDot, BlackDot, X, V, GreaterThan~cells: the mark holds between
 * every two orthogonal neighbours of the list, the earlier one first
 * (greater-than: the greater), in ISS's order (_adjacentCellPairs: each
 * cell in turn leaves the set, then pairs with its left, right, upper and
 * lower neighbour still in it). */
static void t_mark(rd_t *r, const iss_type_t *t) {
    uint8_t in[ISS_CELLS] = {0};
    int n = r->n, len, pairs = 0;
    if ((len = rd_cells(r, 0, r->nargs)) < 0) return;
    for (int i = 0; i < len; i++)
        in[r->cells[i]] = 1;
    for (int i = 0; i < len && !r->nomem; i++) {
        int a = r->cells[i], nb[4];
        in[a] = 0;
        nb[0] = a % n > 0 ? a - 1 : -1;
        nb[1] = a % n < n - 1 ? a + 1 : -1;
        nb[2] = a >= n ? a - n : -1;
        nb[3] = a + n < n * n ? a + n : -1;
        for (int d = 0; d < 4; d++) {
            int pair[2] = {a, nb[d]}, ok = 1;
            json_t *e;
            if (nb[d] < 0 || !in[nb[d]]) continue;
            e = con_new(t->json, &ok);
            api_jset(e, "cells", cells_json(r, pair, 2), &ok);
            rd_emit(r, e, ok);
            pairs++;
        }
    }
    if (pairs == 0 && !r->nomem)
        rd_fail(r, r->item_from, "no two of its cells are orthogonal neighbours: it marks nothing");
}

/* Diagonal~1 (ISS's ╱, the anti-diagonal) or ~-1 (╲, the main one). */
static void t_diagonal(rd_t *r, const iss_type_t *t) {
    span_t a;
    int anti, ok = 1;
    json_t *e;
    if (rd_nargs(r, 1, 1, "1 (the anti-diagonal) or -1 (the main diagonal)") != 0) return;
    a = r->args[0];
    if (!((a.len == 1 && r->t.s[a.from] == '1') ||
          (a.len == 2 && memcmp(r->t.s + a.from, "-1", 2) == 0))) {
        rd_fail(r, a.from, "'%.*s': 1 is the anti-diagonal, -1 the main one", SPAN(r, a));
        return;
    }
    anti = a.len == 1;
    if (r->seen & (t->bit << anti)) return; /* ISS keeps one per direction */
    r->seen |= t->bit << anti;
    for (int i = 0; i < r->n; i++)
        r->cells[i] = i * r->n + (anti ? r->n - 1 - i : i);
    e = con_new(t->json, &ok);
    api_jset(e, "which", json_string(anti ? "anti" : "main"), &ok);
    api_jset(e, "cells", cells_json(r, r->cells, r->n), &ok);
    rd_emit(r, e, ok);
}

/* Windoku: ISS's windows (Windoku.regions): boxes' shape with a line of
 * cells between them and the edge, column by column; none for a prime n. */
static void t_windoku(rd_t *r, const iss_type_t *t) {
    int n = r->n, bh = r->bh, bw = r->bw, ok = 1;
    json_t *wins, *e;
    if (rd_nargs(r, 0, 0, "no arguments") != 0 || (r->seen & t->bit) || bh == 0) return;
    r->seen |= t->bit;
    wins = json_array();
    for (int i = 1; i + bw < n; i += bw + 1)
        for (int j = 1; j + bh < n; j += bh + 1) {
            for (int k = 0; k < n; k++)
                r->cells[k] = (j + k % bh) * n + i + k / bh;
            api_jpush(wins, cells_json(r, r->cells, n), &ok);
        }
    e = con_new(t->json, &ok);
    api_jset(e, "windows", wins, &ok);
    rd_emit(r, e, ok);
}

/* The types without arguments that ISS keeps once: AntiKnight, AntiKing,
 * AntiConsecutive, StrictKropki, StrictXV, DisjointSets (as extra units
 * when the grid has no boxes: ISS's sets follow the boxes' shape all the
 * same; none for a prime n) and the layout's NoBoxes. */
static void t_global(rd_t *r, const iss_type_t *t) {
    int ok = 1, disjoint = strcmp(t->name, "DisjointSets") == 0;
    json_t *c;
    if (rd_nargs(r, 0, 0, "no arguments") != 0 || (r->seen & t->bit)) return;
    r->seen |= t->bit;
    if (t->json == NULL) { /* NoBoxes */
        r->no_boxes = 1;
        return;
    }
    if (disjoint && r->bh == 0) return;
    if (disjoint && r->no_boxes) {
        r->disjoint_units = 1;
        r->disjoint_at = rd_here(r);
        return;
    }
    c = con_new(t->json, &ok); /* before rd_emit reads ok */
    rd_emit(r, c, ok);
}

/* Shape~<rows>x<cols>[~<values>[~<grid type>]]: square, values 1..n (the
 * range empty, n or 1-n), type empty or Sudoku; every Shape alike. */
static void t_shape(rd_t *r, const iss_type_t *t) {
    span_t d;
    const char *s, *x;
    long long rows, cols, lo = 1, hi = 0;
    (void)t;
    if (rd_nargs(r, 1, 3, "the grid's size, e.g. .Shape~6x6") != 0) return;
    d = r->args[0];
    s = r->t.s + d.from;
    x = memchr(s, 'x', d.len);
    if (x == NULL || api_decimal(s, (size_t)(x - s), 99, &rows) != 0 ||
        api_decimal(x + 1, d.len - (size_t)(x - s) - 1, 99, &cols) != 0) {
        rd_fail(r, d.from, "'%.*s' is not a size <rows>x<cols>", SPAN(r, d));
        return;
    }
    if (rows != cols || rows < 4 || rows > API_SUDOKU_ISS_MAX_N) {
        rd_fail(r, d.from, "a %lldx%lld grid: square grids from 4x4 to %dx%d are read", rows, cols,
                API_SUDOKU_ISS_MAX_N, API_SUDOKU_ISS_MAX_N);
        return;
    }
    if (r->nargs >= 2 && r->args[1].len > 0) {
        span_t v = r->args[1];
        const char *dash = memchr(r->t.s + v.from, '-', v.len);
        size_t at = dash != NULL ? (size_t)(dash - (r->t.s + v.from)) : 0;
        if (dash != NULL ? api_decimal(r->t.s + v.from, at, 99, &lo) != 0 ||
                               api_decimal(dash + 1, v.len - at - 1, 99, &hi) != 0
                         : api_decimal(r->t.s + v.from, v.len, 99, &hi) != 0)
            lo = hi = -1;
        if (lo != 1 || hi != rows) {
            rd_fail(r, v.from, "values '%.*s': only 1 to %lld are read", SPAN(r, v), rows);
            return;
        }
    }
    if (r->nargs == 3 &&
        !(r->args[2].len == 6 && memcmp(r->t.s + r->args[2].from, "Sudoku", 6) == 0)) {
        rd_fail(r, r->args[2].from, "grid type '%.*s': only Sudoku grids are read",
                SPAN(r, r->args[2]));
        return;
    }
    if (r->item != r->iss->shape_at.item && r->iss->shape_at.item != 0 && rows != r->n) {
        rd_fail(r, d.from, "a second Shape that differs from the first");
        return;
    }
    r->n = (int)rows;
    if (r->iss->shape_at.item == 0) r->iss->shape_at = rd_here(r);
}

/* A jigsaw layout of n*n labels from byte `from` into r->region: a piece
 * per label in the order they first appear; one piece of another size is
 * left out, as ISS allows ("partially filled grids"), a second is an
 * error; one label for the whole grid is no jigsaw. */
static void rd_layout(rd_t *r, size_t from) {
    const char *s = r->t.s + from;
    int n = r->n, label_of[256], size[ISS_CELLS], odd = -1, nl = 0;
    memset(label_of, -1, sizeof label_of);
    for (int c = 0; c < n * n; c++) {
        unsigned char ch = (unsigned char)s[c];
        if (label_of[ch] < 0) label_of[ch] = nl, size[nl++] = 0;
        r->region[c] = label_of[ch];
        size[r->region[c]]++;
    }
    if (nl == 1) return;
    for (int l = 0; l < nl; l++) {
        if (size[l] == n) continue;
        if (odd >= 0) {
            rd_fail(r, from, "the layout's pieces are not %d cells each", n);
            return;
        }
        odd = l;
    }
    for (int c = 0; c < n * n; c++) /* ids 0.. over the pieces kept */
        r->region[c] = r->region[c] == odd ? -1 : r->region[c] - (odd >= 0 && r->region[c] > odd);
    r->nregions = nl - (odd >= 0);
    r->jigsaw = 1;
    r->iss->layout_at = rd_here(r);
    r->iss->layout_at.at = text_char(&r->t, from);
}

/* Jigsaw~[shape~]layout (ISS's older form names the shape first). */
static void t_jigsaw(rd_t *r, const iss_type_t *t) {
    span_t a;
    (void)t;
    if (rd_nargs(r, 1, 2, "the layout: .Jigsaw~<n*n labels>") != 0) return;
    a = r->args[r->nargs - 1];
    if (r->jigsaw || r->iss->layout_at.item != 0) {
        rd_fail(r, a.from, "a second jigsaw layout");
        return;
    }
    if (a.len != (uint32_t)(r->n * r->n)) {
        rd_fail(r, a.from, "a layout of %u labels: the %dx%d grid has %d cells", (unsigned)a.len,
                r->n, r->n, r->n * r->n);
        return;
    }
    rd_layout(r, a.from);
}

#define TB(k) (1u << (k))
static const iss_type_t iss_types[] = {
    {"Given", NULL, t_given, 2, 0},
    {"Shape", NULL, t_shape, 0, 0},
    {"NoBoxes", NULL, t_global, 1, TB(0)},
    {"Jigsaw", NULL, t_jigsaw, 1, 0},
    {"Cage", "cage", t_sum, 2, 0},
    {"Sum", "sum", t_sum, 2, 0},
    {"LittleKiller", "little-killer", t_little_killer, 2, 0},
    {"Sandwich", "sandwich", t_sandwich, 2, 0},
    {"XSum", "x-sum", t_outside, 2, 0},
    {"Skyscraper", "skyscraper", t_outside, 2, 0},
    {"Thermo", "thermo", t_line, 2, 0},
    {"Whisper", "whisper", t_line, 2, 0},
    {"Renban", "renban", t_line, 2, 0},
    {"Palindrome", "palindrome", t_line, 2, 0},
    {"Between", "between", t_line, 2, 0},
    {"Lockout", "lockout", t_line, 2, 0},
    {"Modular", "modular", t_line, 2, 0},
    {"Entropic", "entropic", t_line, 2, 0},
    {"Zipper", "zipper", t_line, 2, 0},
    {"SumLine", "sum-line", t_line, 2, 0},
    {"RegionSumLine", "region-sum-line", t_region_sum_line, 2, 0},
    {"EqualSum", "equal-sum", t_equal_sum, 2, 0},
    {"Arrow", "arrow", t_arrow, 2, 0},
    {"DoubleArrow", "double-arrow", t_arrow, 2, 0},
    {"PillArrow", "pill-arrow", t_pill_arrow, 2, 0},
    {"WhiteDot", "kropki-white", t_mark, 2, 0},
    {"BlackDot", "kropki-black", t_mark, 2, 0},
    {"X", "x", t_mark, 2, 0},
    {"V", "v", t_mark, 2, 0},
    {"GreaterThan", "greater-than", t_mark, 2, 0},
    {"Diagonal", "diagonal", t_diagonal, 2, TB(1)}, /* and TB(2): one bit a direction */
    {"Windoku", "windoku", t_windoku, 2, TB(3)},
    {"DisjointSets", "disjoint-sets", t_global, 2, TB(4)},
    {"AntiKnight", "anti-knight", t_global, 2, TB(5)},
    {"AntiKing", "anti-king", t_global, 2, TB(6)},
    {"AntiConsecutive", "anti-consecutive", t_global, 2, TB(7)},
    {"StrictKropki", "strict-kropki", t_global, 2, TB(8)},
    {"StrictXV", "strict-xv", t_global, 2, TB(9)},
};
#define NTYPES (sizeof iss_types / sizeof iss_types[0])

/* ISS's other types (js/sudoku_constraint.js, e373f98): named as ISS's
 * when refused, so that a client tells "not read here" from a typo. */
static const char iss_other_types[] =
    " Container Or And Replicate End Regex NFA ChaosConstruction ChaosArrow ChaosCount RegionSize "
    "RegionSameValues Doppelganger AntiTaxicab GlobalEntropy GlobalMod FullRankTies "
    "DutchFlatmates ValueIndexing RellikCage EqualityCage Lunchbox HiddenSkyscraper NumberedRoom "
    "FullRank AllDifferent ContainAtLeast ContainExact LookAndSay ConnectedValues SameValues Quad "
    "Binary BinaryX Pair PairX Indexing CountingCircles CountDistinct SearchPriority Var ";

static const iss_type_t *type_find(const char *s, size_t len) {
    if (len == 0) return &iss_types[0]; /* ISS: an empty type is a Given */
    for (size_t i = 0; i < NTYPES; i++)
        if (strlen(iss_types[i].name) == len && memcmp(iss_types[i].name, s, len) == 0)
            return &iss_types[i];
    return NULL;
}

/* An item of an unknown type: ISS's, or none. */
static void rd_unknown(rd_t *r, size_t from, size_t len) {
    char name[48];
    snprintf(name, sizeof name, " %.*s ", (int)(len < 40 ? len : 40), r->t.s + from);
    r->type = NULL;
    if (strstr(iss_other_types, name) != NULL)
        rd_fail(r, from,
                "'%.*s' is an ISS type this server does not read (docs/constraints.md lists those "
                "it reads)",
                (int)(len < 40 ? len : 40), r->t.s + from);
    else
        rd_fail(r, from, "'%.*s' is not an ISS constraint type", (int)(len < 24 ? len : 24),
                r->t.s + from);
}

/* The item text[from..to) (after its '.'), if its type reads in `pass`. */
static void rd_item(rd_t *r, size_t from, size_t to, int pass) {
    const char *s = r->t.s;
    size_t k = from;
    const iss_type_t *t;
    while (k < to && s[k] != '~')
        k++;
    if ((t = type_find(s + from, k - from)) == NULL) {
        if (pass == 2) rd_unknown(r, from, k - from);
        return;
    }
    if (t->pass != pass) return;
    r->nargs = 0;
    while (k < to) { /* s[k] is '~' */
        size_t a = k + 1, b = a;
        while (b < to && s[b] != '~')
            b++;
        r->args[r->nargs].from = (uint32_t)a;
        r->args[r->nargs++].len = (uint32_t)(b - a);
        k = b;
    }
    r->type = t->name;
    t->fn(r, t);
}

/* Every item of a constraint string, in one pass. */
static void rd_items(rd_t *r, int pass) {
    size_t i = 1, len = r->t.len;
    r->item = 0;
    while (i <= len && !r->nomem) {
        size_t j = i;
        while (j < len && r->t.s[j] != '.')
            j++;
        r->item++;
        r->item_from = i - 1;
        rd_item(r, i, j, pass);
        i = j + 1;
    }
    r->type = NULL;
}

/* ISS's box shape for n (CellGeometry.boxDimsForSize): rows the largest
 * factor from 2 to sqrt(n), columns n over it; none for a prime n. */
static void iss_box(int n, int *bh, int *bw) {
    int h = 1;
    while ((h + 1) * (h + 1) <= n)
        h++;
    for (*bh = *bw = 0; h >= 2; h--)
        if (n % h == 0) {
            *bh = h;
            *bw = n / h;
            return;
        }
}

/* A constraint string: the scratch arrays, then the passes. */
static void rd_string(rd_t *r) {
    size_t dots = 0, tildes = 0;
    for (size_t k = 0; k < r->t.len; k++)
        dots += r->t.s[k] == '.', tildes += r->t.s[k] == '~';
    if (dots > API_SUDOKU_ISS_MAX_ITEMS) {
        api_problem_add(r->p, "body", "body", "%zu items: at most %d are read", dots,
                        API_SUDOKU_ISS_MAX_ITEMS);
        r->bad = 1;
        return;
    }
    r->args = malloc((tildes + 1) * sizeof *r->args);
    r->cells = malloc((tildes + 1 > ISS_CELLS ? tildes + 1 : ISS_CELLS) * sizeof *r->cells);
    if (r->args == NULL || r->cells == NULL) {
        r->nomem = 1;
        return;
    }
    r->n = 9; /* ISS's grid without a Shape */
    for (int pass = 0; pass < 3 && !r->bad && !r->nomem; pass++) {
        rd_items(r, pass);
        if (pass == 0) iss_box(r->n, &r->bh, &r->bw);
    }
}

/* === Grids of givens ====================================================== */

/* n when len is n*n, else 0. */
static int side_of(size_t len) {
    size_t n = 0;
    while ((n + 1) * (n + 1) <= len)
        n++;
    return n * n == len && n > 0 ? (int)n : 0;
}

/* ISS's layout test (_parseJigsawLayoutToAst): n distinct labels, n each. */
static int is_layout(const char *s, int n) {
    int count[256] = {0}, labels = 0;
    for (int c = 0; c < n * n; c++)
        labels += count[(unsigned char)s[c]]++ == 0;
    if (labels != n) return 0;
    for (int c = 0; c < n * n; c++)
        if (count[(unsigned char)s[c]] != n) return 0;
    return 1;
}

/* ISS's short character of a grid: 1..n, or 0 for an empty cell. */
static int short_value(char c, int n) {
    int v =
        n < 10 ? (c >= '0' && c <= '9' ? c - '0' : 0) : (c >= 'A' && c <= 'Z' ? c - 'A' + 1 : 0);
    return v <= n ? v : 0;
}

/* Where s[0..n*n) stops being a grid of givens: the byte of a second
 * character for empty cells (ISS's _parsePlainSudokuToAst gives up on
 * it), or -1 when it is one. */
static long givens_bad(const char *s, int n) {
    char empty = 0;
    for (int c = 0; c < n * n; c++) {
        if (short_value(s[c], n) != 0) continue;
        if (empty != 0 && s[c] != empty) return c;
        empty = s[c];
    }
    return -1;
}

/* The n*n givens from byte `from` (givens_bad() found none bad). */
static void rd_givens(rd_t *r, size_t from) {
    for (int c = 0; c < r->n * r->n; c++) {
        int v = short_value(r->t.s[from + (size_t)c], r->n);
        r->grid[c] = (uint8_t)v;
        if (v == 0) continue;
        r->iss->cell_at[c].type = "Given";
        r->iss->cell_at[c].at = text_char(&r->t, from + (size_t)c);
    }
}

/* A grid of n*n givens from byte `from`; 1 (rd_grid's answer). */
static int rd_plain(rd_t *r, int n, size_t from) {
    r->n = n;
    rd_givens(r, from);
    iss_box(n, &r->bh, &r->bw);
    return 1;
}

/* Whether n is a size read here; else the problem, at byte k. */
static int rd_size(rd_t *r, int n, size_t k) {
    if (n >= 4 && n <= API_SUDOKU_ISS_MAX_N) return 1;
    rd_fail(r, k, "a %dx%d grid: grids from 4x4 to %dx%d are read", n, n, API_SUDOKU_ISS_MAX_N,
            API_SUDOKU_ISS_MAX_N);
    return 0;
}

/* ISS's grids, tried in ISS's order before a constraint string (its
 * _parseTextLineToAst): 1 when the text is one (read, or named as a form
 * not read here), 0 when it is none, and so a constraint string (or no
 * ISS text at all: named here when it does not start with '.'). */
static int rd_grid(rd_t *r) {
    const char *s = r->t.s;
    size_t len = r->t.len, eq = s[0] == '=';
    int n = side_of(len - eq), half = len % 2 == 0 ? side_of(len / 2) : 0;
    long bad;
    if (n > API_SUDOKU_ISS_MAX_N) n = 0; /* ISS's geometry has no such grid */
    if (half > API_SUDOKU_ISS_MAX_N) half = 0;
    if (eq) {
        if (n > 0 && givens_bad(s + 1, n) < 0) return rd_size(r, n, 1) ? rd_plain(r, n, 1) : 1;
        rd_fail(r, 0, "'=' starts a grid of n*n givens, with one character for the empty cells");
        return 1;
    }
    if (len == 1) return 0; /* ISS: no 1x1 grid */
    if (len == 81 && strpbrk(s, "<v>^`',") != NULL &&
        strspn(s, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij^<v>`',.") == len) {
        rd_fail(r, 0,
                "ISS's short killer format is not read: write the cages as "
                ".Cage~<sum>~R1C1~R1C2...");
        return 1;
    }
    if (len >= 4 && memcmp(s, "3x3:", 4) == 0) {
        rd_fail(r, 0,
                "ISS's long killer format (3x3:...) is not read: write the cages as "
                ".Cage~<sum>~R1C1~R1C2...");
        return 1;
    }
    if (half > 0 && is_layout(s + len / 2, half) && givens_bad(s, half) < 0) {
        if (!rd_size(r, half, 0)) return 1;
        r->n = half; /* givens, then a layout */
        rd_givens(r, 0);
        r->type = "Jigsaw";
        rd_layout(r, len / 2);
        r->no_boxes = 1;
    } else if (n > 0 && is_layout(s, n)) {
        if (!rd_size(r, n, 0)) return 1;
        r->n = n;
        r->type = "Jigsaw";
        rd_layout(r, 0);
        r->no_boxes = 1;
    } else if (n > 0 && givens_bad(s, n) < 0) {
        return rd_size(r, n, 0) ? rd_plain(r, n, 0) : 1;
    } else if (n > 0 && (s[0] != '.' || strspn(s, "0123456789.") == len)) {
        bad = givens_bad(s, n);
        rd_fail(r, (size_t)bad,
                "'%c' and another character both stand for an empty cell: a grid of givens has "
                "one (from 10x10 on, ISS writes values as letters, A = 1)",
                s[bad]);
        return 1;
    } else if (strspn(s, "0123456789.") == len && strpbrk(s, "0123456789") != NULL) {
        int cube = 1;
        while ((size_t)(cube + 1) * (size_t)(cube + 1) * (size_t)(cube + 1) <= len)
            cube++;
        if ((size_t)cube * (size_t)cube * (size_t)cube == len && cube >= 2)
            rd_fail(r, 0, "%d x %d x %d characters: ISS's pencil marks are not read", cube, cube,
                    cube);
        else
            rd_fail(r, 0, "a grid of givens has n*n characters; this has %zu", len);
        return 1;
    } else if (strspn(s, "0123456789.|_-") == len && s[0] != '.') {
        rd_fail(r, 0, "%s",
                "ISS's grids of numbers with separators are not read: write the givens as "
                ".~R1C1_5~R1C2_3...");
        return 1;
    } else if (s[0] != '.') {
        rd_fail(r, 0,
                "not ISS text: a constraint string starts with '.', a grid of givens has n*n "
                "characters; this has %zu",
                len);
        return 1;
    } else {
        return 0;
    }
    iss_box(r->n, &r->bh, &r->bw);
    return 1;
}

/* === The body ============================================================= */

/* Whether every piece of the layout is connected (the model's regions must
 * be; ISS's pieces need not: those go as extra units). */
static int pieces_connected(const rd_t *r) {
    int n = r->n, stack[ISS_CELLS], reached[ISS_CELLS] = {0};
    for (int l = 0; l < r->nregions; l++) {
        int top = 0, count = 0, start = -1;
        for (int c = 0; c < n * n && start < 0; c++)
            if (r->region[c] == l) start = c;
        reached[start] = 1;
        stack[top++] = start;
        while (top > 0) {
            int c = stack[--top], nb[4] = {c % n > 0 ? c - 1 : -1, c % n < n - 1 ? c + 1 : -1,
                                           c >= n ? c - n : -1, c + n < n * n ? c + n : -1};
            count++;
            for (int d = 0; d < 4; d++)
                if (nb[d] >= 0 && !reached[nb[d]] && r->region[nb[d]] == l)
                    reached[nb[d]] = 1, stack[top++] = nb[d];
        }
        if (count != n) return 0;
    }
    return 1;
}

/* unit (n cells) as extra_units[k], from `at`. */
static void push_unit(rd_t *r, json_t *units, const int *cells, api_sudoku_iss_at_t at, int *ok) {
    size_t k = json_array_size(units);
    if (k < API_SUDOKU_ISS_MAX_UNITS) r->iss->unit_at[k] = at;
    api_jpush(units, cells_json(r, cells, r->n), ok);
}

/* The layout's boxes and pieces: box, variant and regions, extra_units. */
static void rd_frame(rd_t *r, json_t *body, int *ok) {
    int n = r->n, boxes = !r->no_boxes && r->bh > 0, cells[API_SUDOKU_ISS_MAX_N];
    int as_regions = !boxes && r->jigsaw && r->nregions == n && pieces_connected(r);
    json_t *units = json_array();
    if (units == NULL) *ok = 0;
    if (boxes)
        api_jset(body, "box", json_pack("{s:i,s:i}", "rows", r->bh, "cols", r->bw), ok);
    else if (!as_regions) /* rows and columns only: a 1 x n box is a row */
        api_jset(body, "box", json_pack("{s:i,s:i}", "rows", 1, "cols", n), ok);
    if (as_regions) {
        json_t *rows = json_array();
        for (int i = 0; i < n; i++) {
            json_t *row = json_array();
            for (int j = 0; j < n; j++)
                api_jpush(row, json_integer(r->region[i * n + j]), ok);
            api_jpush(rows, row, ok);
        }
        api_jset(body, "variant", json_string("jigsaw"), ok);
        api_jset(body, "regions", rows, ok);
    } else if (r->jigsaw) {
        for (int l = 0; l < r->nregions; l++) {
            int len = 0;
            for (int c = 0; c < n * n; c++)
                if (r->region[c] == l) cells[len++] = c;
            push_unit(r, units, cells, r->iss->layout_at, ok);
        }
    }
    if (r->disjoint_units) /* a set: the cells at one place of every box */
        for (int at = 0; at < n; at++) {
            for (int b = 0; b < n; b++)
                cells[b] = (b / (n / r->bw) * r->bh + at / r->bw) * n + b % (n / r->bw) * r->bw +
                           at % r->bw;
            push_unit(r, units, cells, r->disjoint_at, ok);
        }
    if (json_array_size(units) > 0) api_jset(body, "extra_units", json_incref(units), ok);
    json_decref(units);
}

/* The body: grid, the frame, constraints. */
static void rd_finish(rd_t *r) {
    json_t *body = json_object();
    char grid[ISS_CELLS];
    int ok = 1;
    for (int c = 0; c < r->n * r->n; c++)
        grid[c] = r->grid[c] ? api_grid_value_char(r->grid[c]) : '.';
    api_jset(body, "grid", json_stringn(grid, (size_t)(r->n * r->n)), &ok);
    rd_frame(r, body, &ok);
    if (json_array_size(r->cons) > 0) api_jset(body, "constraints", json_incref(r->cons), &ok);
    if (!ok) {
        json_decref(body);
        r->nomem = 1;
        return;
    }
    r->iss->body = body;
}

/* === Public =============================================================== */

void api_sudoku_iss_init(api_sudoku_iss_t *iss) { memset(iss, 0, sizeof *iss); }

void api_sudoku_iss_destroy(api_sudoku_iss_t *iss) {
    json_decref(iss->body);
    free(iss->cons_at);
    memset(iss, 0, sizeof *iss);
}

int api_sudoku_iss_read(const char *text, size_t len, api_sudoku_iss_t *iss, api_problem_t *p) {
    rd_t *r;
    int rc;
    if (len > API_SUDOKU_ISS_MAX_BYTES) {
        api_problem_add(p, "body", "body", "the ISS text has %zu bytes: at most %d are read", len,
                        API_SUDOKU_ISS_MAX_BYTES);
        return API_EINVALID;
    }
    if ((r = calloc(1, sizeof *r)) == NULL) goto nomem;
    r->iss = iss;
    r->p = p;
    if ((rc = text_make(text != NULL ? text : "", len, &r->t, p)) != 0) {
        free(r);
        if (rc == API_ENOMEM) goto nomem;
        return rc;
    }
    if ((r->cons = json_array()) == NULL) r->nomem = 1;
    if (!r->nomem && !rd_grid(r)) rd_string(r);
    if (!r->bad && !r->nomem) rd_finish(r);
    rc = r->nomem ? API_ENOMEM : r->bad ? API_EINVALID : 0;
    iss->n = r->n;
    json_decref(r->cons);
    free(r->args);
    free(r->cells);
    text_free(&r->t);
    free(r);
    if (rc != 0) api_sudoku_iss_destroy(iss);
    if (rc == API_ENOMEM) goto nomem;
    iss->used = rc == 0;
    return rc;
nomem:
    api_problem_nomem(p, "reading the ISS text");
    return API_ENOMEM;
}

/* === Problems of the JSON path, back in the text ========================== */

/* The options a text body takes from the query string. */
static const char *const query_options[] = {"method",     "propagation", "max_solutions", "trace",
                                            "timeout_ms", "threads",     "box",           NULL};

/* Where a body field came from (NULL: nowhere in particular), and the cell
 * it names in ISS's words into what[cap] ("R3C4 " or ""). */
static const api_sudoku_iss_at_t *field_origin(const api_sudoku_iss_t *iss, const char *f,
                                               char *what, size_t cap) {
    unsigned k, row, col;
    what[0] = '\0';
    if (sscanf(f, "constraints[%u]", &k) == 1 && k < iss->ncons) return &iss->cons_at[k];
    if (sscanf(f, "grid[%u][%u]", &row, &col) == 2 && row < (unsigned)iss->n &&
        col < (unsigned)iss->n) {
        snprintf(what, cap, " R%uC%u", row + 1, col + 1);
        return &iss->cell_at[row * (unsigned)iss->n + col];
    }
    if (sscanf(f, "extra_units[%u]", &k) == 1 && k < API_SUDOKU_ISS_MAX_UNITS)
        return &iss->unit_at[k];
    if (strncmp(f, "regions", 7) == 0 || strcmp(f, "variant") == 0) return &iss->layout_at;
    if (strncmp(f, "box", 3) == 0) return &iss->shape_at;
    return NULL;
}

void api_sudoku_iss_rename(const api_sudoku_iss_t *iss, api_problem_t *p) {
    if (!iss->used) return;
    for (size_t i = 0; i < p->nerrors; i++) {
        api_field_error_t *e = &p->errors[i];
        char what[24], field[sizeof e->field], detail[sizeof e->detail];
        const api_sudoku_iss_at_t *at;
        int option = 0;
        if (strcmp(e->in, "body") != 0) continue;
        for (int q = 0; query_options[q] != NULL; q++)
            option |= strcmp(e->field, query_options[q]) == 0;
        if (option) { /* read from the query string */
            snprintf(e->in, sizeof e->in, "query");
            continue;
        }
        at = field_origin(iss, e->field, what, sizeof what);
        if (at != NULL && at->item > 0)
            snprintf(field, sizeof field, "item %u at character %u", (unsigned)at->item,
                     (unsigned)at->at);
        else if (at != NULL && at->at > 0)
            snprintf(field, sizeof field, "character %u", (unsigned)at->at);
        else
            snprintf(field, sizeof field, "body");
        if (snprintf(detail, sizeof detail, "%s%s%sread as %s: %s",
                     at != NULL && at->type != NULL ? at->type : "", what,
                     at != NULL && at->type != NULL ? ", " : "", e->field,
                     e->detail) >= (int)sizeof detail)
            memcpy(detail + sizeof detail - 4, "...", 4); /* cut: say so */
        memcpy(e->field, field, sizeof field);
        memcpy(e->detail, detail, sizeof detail);
    }
}
