/* killer_api.c -- Killer Sudoku over HTTP.
 *
 * POST /v1/killer/grade and /v1/killer/hint are described at the end of
 * this file and handed over to api/sudoku_variant_api.c (see there why);
 * everything else here is POST /v1/killer/solve.
 *
 * JSON body: {"size": N (4..36) or "box": {"rows","cols"}, "symbols": [N
 * distinct non-negative integers; sums are over them], "cages": [{"sum": S,
 * "cells": [[r,c], ...]}, ...], "grid": givens (as for Sudoku: N arrays of N
 * symbols with 0/null empty, or a string for N <= 35), "diagonals": bool
 * (Killer-X), "method": "backtracking" | "advanced" | "learning" | "auto",
 * "value_order": "auto" | "ascending" | "descending" (advanced only),
 * "max_solutions", "timeout_ms", "threads"}.
 *
 * text/plain, the course format: line 1 the size, line 2 the symbols, line 3
 * the number of cages, then one cage per line as "sum r,c r,c ..."; options
 * in the query string (method, value_order, max_solutions, timeout_ms,
 * diagonals, box, threads).  Lines are read in place however long, every
 * number is digits only and range-checked as it is read (api/decimal.h),
 * and a line holds nothing else: errors name it ("line 4").
 *
 * The body is parsed into a killer_puzzle_t; killer_validate() (the
 * solver's own checks) then finds the first problem, which this file names
 * the way the client wrote it: cages[3].cells[1], cages[3].sum, grid[2][5],
 * symbols.  Structural problems are 400, arithmetic and logical ones (a sum
 * no distinct symbols reach, cage totals that miss the grid total, givens
 * against the rules or a cage) are 422.
 *
 * threads == 1 (the default), or the backtracking method: one pool item,
 * the whole search, solutions straight into the job's buffer (with
 * max_solutions 1 the advanced solver takes turns between both value
 * orders itself: killer_opts_t values auto).
 *
 * threads > 1 with the advanced method (or auto), max_solutions > 1: the
 * search tree is cut into 2^d subtrees with
 * killer_opts_t.split_depth = d = KL_SPLIT_EXTRA +
 * ceil(log2(threads)) -- about 8 items per thread, so that uneven subtrees
 * (most are empty or tiny, one holds the hard part) still balance -- and
 * item k searches subtree k.  Every item redoes the root set-up and
 * propagation (milliseconds) instead of sharing it: no state crosses
 * threads.  Each item looks for max_solutions on its own into a buffer its
 * worker allocates (at most `threads` such buffers exist at once, next to
 * the job's max_solutions grids); merge() (loop thread) copies what it
 * keeps, ordered by item so that the answer does not depend on completion
 * order while every solution fits, frees the buffer, and cancels the items
 * in flight once max_solutions are in.  Those cancellations are not the
 * client's: the answer is then solved/multiple and complete.
 *
 * threads > 1 and max_solutions 1 (advanced): a portfolio.  Half the
 * threads search with ascending values, half with descending ones
 * (killer_opts_t.values), each order split as above over its threads
 * (not split with one thread each); items alternate between the orders
 * (item k: order k % 2, subtree k / 2) so both start at once.  On hard
 * killers the two orders often differ tenfold in the work to a first
 * solution, one way or the other, so the first answer of either comes much
 * sooner than one order's.  Either order alone is complete: the answer is
 * settled once one of them has a solution or has searched all its
 * subtrees (unsolvable), and the other is cancelled.  Stats add up the
 * work of both.  With max_solutions > 1 the whole tree is searched anyway,
 * so a second order would only repeat it: one order, split.
 *
 * value_order ascending or descending: that order alone, everywhere: one
 * item, or with threads > 1 one order split as above (no portfolio, also
 * for max_solutions 1; the first solution found ends the job).  auto is
 * all of the above.
 *
 * The race (j->race): method auto on a grid of KL_RACE_MIN_N or more,
 * threads > 1, max_solutions up to KL_RACE_MAX_SOLUTIONS, value_order
 * auto: the learning method and the advanced one search the same puzzle
 * at once, as the two members of the portfolio above (items alternate:
 * even items learning, odd ones advanced; the learning method does not
 * split, so its items past the first are empty at once, and the advanced
 * one is split over what is left of the threads).  Each member alone is
 * complete, so the first to settle the answer (max_solutions found, or its
 * whole space searched) ends the job and the other is cancelled.  Both
 * may find the same grid before that: kl_keep() keeps each grid once.
 * Which member is better cannot be told before: on random 16x16 killers
 * the learning one solves most and the advanced one a few others first
 * (docs/killer-tuning.md).  The answer's method is the member that
 * settled it.  method learning asked for explicitly runs one item (it
 * does not split), whatever threads says.
 *
 * Status and `unique` mean what they mean on one thread: unique is true
 * only when every item ran to exhaustion (or is known to be empty: an item
 * whose subtree was solved above the split depth answers for its empty
 * siblings, res.split_span, so a grid solved by propagation alone is as
 * unique as on one thread) and the total is 1 (in a portfolio: every item
 * of one order).  Stats: nodes, backtracks
 * and propagations are summed over items, max_depth is the largest (depth
 * below the subtree root), mem_peak (not rendered) the largest of one item,
 * derived_sums one item's (all build the same model); stats.subproblems is
 * the number of items, stats.threads the items in flight at most,
 * stats.value_orders how many value orders searched: 2 in a portfolio
 * whose both orders ran, or on one thread when the solver took turns
 * between them (max_solutions 1, killer_opts_t values auto).
 *
 * The answer has the shape of /v1/sudoku/solve's, grids as arrays of arrays
 * of symbols, every solution checked with killer_check_solution(), written
 * straight into its buffer (api/json_writer.h).  The request's options,
 * and the JSON body's members, are the rows of kl_opts (api/opts.h), read
 * by one reader from the query, the body and its fast path: a JSON body of
 * size, cages, a string grid and scalar options is read without a jansson
 * tree (api/json_scan.h); any other body, and any body with an error, goes
 * through jansson, which names what is wrong. */
#include "api/killer_api.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/decimal.h"
#include "api/endpoint.h"
#include "api/grid_char.h"
#include "api/json_scan.h"
#include "api/json_util.h"
#include "api/json_writer.h"
#include "api/sudoku_api.h"
#include "api/sudoku_variant.h"
#include "solvers/killer/killer.h"

#define KL_MAX_CELLS   (KILLER_MAX_N * KILLER_MAX_N)
#define KL_MAX_SUM     1000000000LL /* the largest cage sum the text format reads (JSON: the same) */
#define KL_SPLIT_EXTRA 3            /* split levels beyond log2(threads): ~8 items per thread */
/* The race of learning and advanced (see the head): from this side up, up
 * to this many solutions (kl_keep() compares each grid with those kept). */
#define KL_RACE_MIN_N         16
#define KL_RACE_MAX_SOLUTIONS 16

/* One pool item: its result and its solutions (allocated by run() when the
 * job is split, freed by merge(); the job's own buffer when it is not). */
typedef struct kl_item_s {
    killer_result_t res;
    uint8_t *buf;
    int done; /* its subtree is known to be searched to the end */
} kl_item_t;

/* The fast path's cages while it reads them (kl_cages_fast()). */
typedef struct kl_fast_s {
    killer_cage_t *cages; /* cages[k].cells set once all are read */
    killer_cell_t *cells;
    size_t ncages, ncells, cage_cap, cell_cap;
    int seen;         /* "cages" was read */
    const char *grid; /* a string grid, in the body */
    size_t glen;
} kl_fast_t;

typedef struct kl_job_s {
    api_job_t base;
    long long size; /* as read (the size row); n once the shape is known */
    int n, box_rows, box_cols;
    long symbols[KILLER_MAX_N];
    int nsymbols; /* 0 = default 1..n */
    killer_cage_t *cages;
    killer_cell_t *cells; /* all cages' cells, back to back */
    int ncages;
    uint8_t givens[KL_MAX_CELLS];
    long long raw[KL_MAX_CELLS]; /* givens as written: -1 empty */
    int has_givens;
    int diagonals;
    int method_ix, values_ix; /* as asked: indices in kl_methods, kl_values */
    killer_method_t method;
    killer_values_t values; /* value_order: auto, or one order everywhere */
    long long max_solutions, timeout_ms, threads;
    kl_fast_t fast; /* the fast path's reading */
    killer_puzzle_t pz;
    uint8_t *solutions;   /* max_solutions grids, kept ones first */
    uint32_t *sol_item;   /* split: the item each kept solution came from */
    uint32_t split_depth; /* subtrees per value order: 2^split_depth */
    uint32_t orders;      /* 1, or 2: a portfolio of both value orders */
    kl_item_t *items;     /* base.nitems = orders << split_depth */
    killer_result_t res;  /* all merged items together */
    size_t merged;        /* items merged */
    int rc;               /* first negative item code, or 0 */
    int settled;          /* portfolio: one order searched to the end */
    unsigned orders_ran;  /* bit per value order that searched (stats) */
    int race;             /* the portfolio's members are learning (even items) and advanced */
    size_t mem_cap; /* learning's killer_opts_t.mem_cap: the request's work share, 0 = default */
    killer_method_t answered; /* race: the member that settled the answer, or 0 */
} kl_job_t;

/* === Parsing === */

static int kl_cells_alloc(kl_job_t *j, size_t ncages, size_t ncells) {
    j->cages = calloc(ncages ? ncages : 1, sizeof *j->cages);
    j->cells = calloc(ncells ? ncells : 1, sizeof *j->cells);
    return j->cages && j->cells ? 0 : -1;
}

static int kl_json_grid(json_t *g, kl_job_t *j, api_problem_t *p) {
    int n = j->n, bad = 0;
    char f[32];
    j->has_givens = 1;
    for (int i = 0; i < n * n; i++)
        j->raw[i] = -1;
    if (json_is_string(g)) {
        const char *s = json_string_value(g);
        if (json_string_length(g) != (size_t)(n * n)) {
            api_problem_add(p, "body", "grid", "a string grid has %d characters for size %d", n * n,
                            n);
            return -1;
        }
        for (int i = 0; i < n * n; i++) {
            int v = api_grid_char_value(s[i]); /* API_GRID_EMPTY is raw's -1 */
            if (v == API_GRID_BAD) {
                snprintf(f, sizeof f, "grid[%d][%d]", i / n, i % n);
                api_problem_add(p, "body", f, "unexpected character");
                bad = 1;
            }
            j->raw[i] = v;
        }
        return bad ? -1 : 0;
    }
    if (!json_is_array(g) || json_array_size(g) != (size_t)n) {
        api_problem_add(p, "body", "grid", "must be %d rows of %d symbols (or a string)", n, n);
        return -1;
    }
    for (int r = 0; r < n; r++) {
        json_t *row = json_array_get(g, (size_t)r);
        if (!json_is_array(row) || json_array_size(row) != (size_t)n) {
            snprintf(f, sizeof f, "grid[%d]", r);
            api_problem_add(p, "body", f, "must be an array of %d cells", n);
            bad = 1;
            continue;
        }
        for (int c = 0; c < n; c++) {
            json_t *v = json_array_get(row, (size_t)c);
            if (json_is_null(v)) continue;
            snprintf(f, sizeof f, "grid[%d][%d]", r, c);
            if (!json_is_integer(v) || json_integer_value(v) < 0) {
                api_problem_add(p, "body", f, "must be a symbol (a non-negative integer) or null");
                bad = 1;
                continue;
            }
            j->raw[r * n + c] = json_integer_value(v);
        }
    }
    return bad ? -1 : 0;
}

static int kl_json_cages(json_t *cages, kl_job_t *j, api_problem_t *p) {
    size_t k, total = 0, at = 0;
    json_t *cage;
    int bad = 0;
    char f[64];
    if (!json_is_array(cages)) {
        api_problem_add(p, "body", "cages", "required: an array of {\"sum\", \"cells\"}");
        return -1;
    }
    if (json_array_size(cages) > KL_MAX_CELLS) {
        api_problem_add(p, "body", "cages", "at most %d cages", KL_MAX_CELLS);
        return -1;
    }
    json_array_foreach(cages, k, cage) total += json_array_size(json_object_get(cage, "cells"));
    if (total > 4 * KL_MAX_CELLS) { /* more entries than a grid could hold, many times over */
        api_problem_add(p, "body", "cages", "too many cells over all cages");
        return -1;
    }
    if (kl_cells_alloc(j, json_array_size(cages), total) != 0) return -2;
    json_array_foreach(cages, k, cage) {
        json_t *sum = json_object_get(cage, "sum"), *cells = json_object_get(cage, "cells"), *cell;
        size_t i;
        long long s;
        snprintf(f, sizeof f, "cages[%zu]", k);
        if (!json_is_object(cage) || json_object_size(cage) != 2 || sum == NULL || cells == NULL) {
            api_problem_add(p, "body", f, "must be {\"sum\": S, \"cells\": [[r, c], ...]}");
            bad = 1;
            continue;
        }
        snprintf(f, sizeof f, "cages[%zu].sum", k);
        bad |= api_json_int(sum, f, 0, 1000000000LL, &s, p) != 0;
        if (!json_is_array(cells)) {
            snprintf(f, sizeof f, "cages[%zu].cells", k);
            api_problem_add(p, "body", f, "must be an array of [row, col] pairs");
            bad = 1;
            continue;
        }
        j->cages[k].sum = (long)s;
        j->cages[k].ncells = (int)json_array_size(cells);
        j->cages[k].cells = j->cells + at;
        json_array_foreach(cells, i, cell) {
            json_t *r = json_array_get(cell, 0), *c = json_array_get(cell, 1);
            snprintf(f, sizeof f, "cages[%zu].cells[%zu]", k, i);
            if (!json_is_array(cell) || json_array_size(cell) != 2 || !json_is_integer(r) ||
                !json_is_integer(c) || json_integer_value(r) < -1000000 ||
                json_integer_value(r) > 1000000 || json_integer_value(c) < -1000000 ||
                json_integer_value(c) > 1000000) {
                api_problem_add(p, "body", f, "must be [row, col], two integers");
                bad = 1;
                continue;
            }
            j->cells[at + i].r = (int)json_integer_value(r);
            j->cells[at + i].c = (int)json_integer_value(c);
        }
        at += json_array_size(cells);
        if (p->nerrors >= API_PROBLEM_MAX_ERRORS) break;
    }
    j->ncages = (int)json_array_size(cages);
    return bad ? -1 : 0;
}

/* === The fast path: the common JSON body without a jansson tree ===
 * (api/json_scan.h, through api_opts_fast(): the rows of kl_opts marked
 * API_IN_FAST): size, cages, a string grid and the scalar options; anything
 * else -- box, symbols, a grid of arrays, any error -- gives up, and
 * kl_parse_json() reads the body again from the start.  The rules are the
 * table's, as for jansson: the same fields and ranges, duplicates refused,
 * cages exactly {"sum", "cells": [[r, c], ...]}. */

/* Appends one [r, c]; 0 or -1. */
static int kl_fast_cell(api_js_t *js, kl_fast_t *f) {
    long long r, c;
    if (!api_js_accept(js, '[') || api_js_int(js, -1000000, 1000000, &r) != 0 ||
        !api_js_accept(js, ',') || api_js_int(js, -1000000, 1000000, &c) != 0 ||
        !api_js_accept(js, ']'))
        return -1;
    if (f->ncells == f->cell_cap) {
        size_t cap = f->cell_cap ? 2 * f->cell_cap : 64;
        killer_cell_t *m = cap <= 4 * KL_MAX_CELLS ? realloc(f->cells, cap * sizeof *m) : NULL;
        if (m == NULL) return -1;
        f->cells = m;
        f->cell_cap = cap;
    }
    f->cells[f->ncells].r = (int)r;
    f->cells[f->ncells++].c = (int)c;
    return 0;
}

/* One cage {"sum": S, "cells": [...]}, keys in either order; 0 or -1. */
static int kl_fast_cage(api_js_t *js, kl_fast_t *f) {
    const char *k;
    size_t klen;
    long long sum = 0;
    int seen = 0, ncells = 0;
    if (!api_js_accept(js, '{')) return -1;
    if (f->ncages == f->cage_cap) {
        size_t cap = f->cage_cap ? 2 * f->cage_cap : 16;
        killer_cage_t *m = cap <= 2 * KL_MAX_CELLS ? realloc(f->cages, cap * sizeof *m) : NULL;
        if (m == NULL) return -1;
        f->cages = m;
        f->cage_cap = cap;
    }
    do {
        if (api_js_key(js, &k, &klen) != 0) return -1;
        if (klen == 3 && memcmp(k, "sum", 3) == 0 && !(seen & 1)) {
            if (api_js_int(js, 0, 1000000000LL, &sum) != 0) return -1;
            seen |= 1;
        } else if (klen == 5 && memcmp(k, "cells", 5) == 0 && !(seen & 2)) {
            if (!api_js_accept(js, '[')) return -1;
            if (!api_js_accept(js, ']')) {
                do {
                    if (kl_fast_cell(js, f) != 0) return -1;
                    ncells++;
                } while (api_js_accept(js, ','));
                if (!api_js_accept(js, ']')) return -1;
            }
            seen |= 2;
        } else {
            return -1;
        }
    } while (api_js_accept(js, ','));
    if (seen != 3 || !api_js_accept(js, '}')) return -1;
    f->cages[f->ncages].sum = (long)sum;
    f->cages[f->ncages].ncells = ncells;
    f->cages[f->ncages++].cells = NULL;
    return 0;
}

static int kl_fast_cages(api_js_t *js, kl_fast_t *f) {
    if (!api_js_accept(js, '[')) return -1;
    if (api_js_accept(js, ']')) return 0;
    do
        if (kl_fast_cage(js, f) != 0) return -1;
    while (api_js_accept(js, ','));
    if (!api_js_accept(js, ']') || f->ncages > KL_MAX_CELLS) return -1;
    return 0;
}

/* The fast path's rows: the cages, and a string grid (checked against the
 * size once both are read: kl_fast_finish()). */
static int kl_cages_fast(const api_opt_t *o, const api_request_t *req, api_js_t *js, void *out) {
    kl_job_t *j = out;
    (void)o, (void)req;
    j->fast.seen = 1;
    return kl_fast_cages(js, &j->fast);
}

static int kl_grid_fast(const api_opt_t *o, const api_request_t *req, api_js_t *js, void *out) {
    kl_job_t *j = out;
    (void)o, (void)req;
    return api_js_string(js, &j->fast.grid, &j->fast.glen);
}

/* After api_opts_fast() read the body: size and cages there, the grid's
 * length and characters right; the cages and givens into j.  1, or 0 to
 * give up (the caller drops j->fast and reads the body again). */
static int kl_fast_finish(kl_job_t *j) {
    kl_fast_t *f = &j->fast;
    long long n = j->size;
    if (n == 0 || !f->seen) return 0; /* size and cages are needed */
    if (f->grid != NULL && f->glen != (size_t)(n * n)) return 0;
    for (size_t i = 0; i < f->glen; i++)
        if (api_grid_char_value(f->grid[i]) == API_GRID_BAD) return 0;
    if (f->cages == NULL && (f->cages = calloc(1, sizeof *f->cages)) == NULL) return 0;
    if (f->cells == NULL && (f->cells = calloc(1, sizeof *f->cells)) == NULL) return 0;
    for (size_t c = 0, at = 0; c < f->ncages; at += (size_t)f->cages[c++].ncells)
        f->cages[c].cells = f->cells + at;
    j->n = (int)n;
    j->cages = f->cages;
    j->cells = f->cells;
    j->ncages = (int)f->ncages;
    f->cages = NULL;
    f->cells = NULL;
    if (f->grid != NULL) {
        j->has_givens = 1;
        for (size_t i = 0; i < f->glen; i++)
            j->raw[i] = api_grid_char_value(f->grid[i]); /* API_GRID_EMPTY is raw's -1 */
    }
    j->base.body_fast = 1;
    return 1;
}

/* === Reading through jansson, and the table === */

/* box: {"rows", "cols"} in a body, "RxC" in the query. */
static int kl_box_json(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                       void *out, api_problem_t *p) {
    kl_job_t *j = out;
    (void)o, (void)req, (void)root;
    return api_json_box(v, KILLER_MAX_N, &j->box_rows, &j->box_cols, p) != 0 ? -1 : 0;
}

static int kl_box_query(const api_opt_t *o, const api_request_t *req, const char *v, void *out,
                        api_problem_t *p) {
    kl_job_t *j = out;
    (void)o, (void)req;
    if (sscanf(v, "%dx%d", &j->box_rows, &j->box_cols) != 2 || j->box_rows < 1 || j->box_cols < 1) {
        api_problem_add(p, "query", "box", "must be ROWSxCOLS, e.g. 2x3");
        return -1;
    }
    return 0;
}

/* size, or without it the box's rows x cols. */
static int kl_size_json(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                        void *out, api_problem_t *p) {
    kl_job_t *j = out;
    if (v != NULL) {
        if (api_opts_json_kind(o, req, v, out, p) != 0) return -1;
        j->n = (int)j->size;
    } else if (j->box_rows > 0 && j->box_cols > 0) {
        j->n = j->box_rows * j->box_cols;
        if (j->n < KILLER_MIN_N || j->n > KILLER_MAX_N) {
            api_problem_add(p, "body", "box", "rows x cols must be from %d to %d", KILLER_MIN_N,
                            KILLER_MAX_N);
            return -1;
        }
    } else if (json_object_get(root, "box") == NULL) {
        api_problem_add(p, "body", "size", "required (or a box)");
        return -1;
    }
    return 0;
}

static int kl_symbols_json(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                           void *out, api_problem_t *p) {
    kl_job_t *j = out;
    long long x[KILLER_MAX_N] = {0};
    int rc;
    (void)o, (void)req, (void)root;
    rc = api_json_symbols(v, KILLER_MAX_N, KILLER_MAX_SYMBOL, x, &j->nsymbols, p);
    for (int k = 0; k < j->nsymbols; k++)
        j->symbols[k] = (long)x[k];
    return rc;
}

static int kl_cages_json(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                         void *out, api_problem_t *p) {
    (void)o, (void)req, (void)root;
    return kl_json_cages(v, out, p);
}

static int kl_grid_json(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                        void *out, api_problem_t *p) {
    (void)o, (void)req, (void)root;
    return kl_json_grid(v, out, p);
}

static const char *const kl_media[] = {"application/json", "text/plain", NULL};
static const char *const kl_methods[] = {"auto", "backtracking", "advanced", "learning", NULL};
static const char *const kl_values[] = {"auto", "ascending", "descending", NULL};

#define KL_AT(f) offsetof(kl_job_t, f)
/* The options of both formats (a text body takes them from the query) and
 * the JSON body's puzzle, in the order the problems name them; the cages
 * are read once everything before them is right (phase 1), the grid once
 * the cages are (phase 2).  box is an object in a body and "RxC" in the
 * query, named last there. */
static const api_opt_t kl_opts[] = {
    {.name = "box", .kind = API_OPT_DATA, .in = API_IN_JSON, .json = kl_box_json},
    {.name = "size",
     .kind = API_OPT_INT,
     .in = API_IN_JSON | API_IN_FAST,
     .flags = API_OPT_ABSENT,
     .lo = KILLER_MIN_N,
     .hi = KILLER_MAX_N,
     .def = 0,
     .at = KL_AT(size),
     .json = kl_size_json},
    {.name = "symbols", .kind = API_OPT_DATA, .in = API_IN_JSON, .json = kl_symbols_json},
    {.name = "diagonals", .kind = API_OPT_BOOL, .in = API_IN_ALL, .def = 0, .at = KL_AT(diagonals)},
    {.name = "method",
     .kind = API_OPT_ENUM,
     .in = API_IN_ALL,
     .flags = API_OPT_GOT | API_OPT_STRING,
     .names = kl_methods,
     .def = 0,
     .at = KL_AT(method_ix)},
    {.name = "value_order",
     .kind = API_OPT_ENUM,
     .in = API_IN_ALL,
     .flags = API_OPT_GOT | API_OPT_STRING,
     .names = kl_values,
     .def = 0,
     .at = KL_AT(values_ix)},
    {.name = "max_solutions",
     .kind = API_OPT_INT,
     .in = API_IN_ALL,
     .lo = 1,
     .hi = KILLER_MAX_SOLUTIONS,
     .def = 1,
     .at = KL_AT(max_solutions)},
    {.name = "timeout_ms",
     .kind = API_OPT_INT,
     .in = API_IN_ALL,
     .lo = 1,
     .hi = API_REQ_TIMEOUT,
     .def = API_REQ_TIMEOUT,
     .at = KL_AT(timeout_ms)},
    {.name = "threads",
     .kind = API_OPT_INT,
     .in = API_IN_ALL,
     .lo = 1,
     .hi = API_REQ_THREADS,
     .def = 1,
     .at = KL_AT(threads)},
    {.name = "cages",
     .kind = API_OPT_DATA,
     .in = API_IN_JSON | API_IN_FAST,
     .phase = 1,
     .flags = API_OPT_REQUIRED | API_OPT_ABSENT,
     .json = kl_cages_json,
     .fast = kl_cages_fast},
    {.name = "grid",
     .kind = API_OPT_DATA,
     .in = API_IN_JSON | API_IN_FAST,
     .phase = 2,
     .json = kl_grid_json,
     .fast = kl_grid_fast},
    {.name = "box", .kind = API_OPT_DATA, .in = API_IN_QUERY, .query = kl_box_query},
    API_SUDOKU_VARIANT_ROWS, /* read by api/sudoku_variant_api.c (the hand-over) */
    {0}};

/* A JSON body: the fast path, else jansson (which names what is wrong).  0,
 * -1 (errors in p) or -2 (out of memory). */
static int kl_parse_json(const api_request_t *req, kl_job_t *j, api_problem_t *p) {
    static const char *const none[] = {NULL};
    json_t *root;
    int bad, rc;

    if (api_opts_fast(kl_opts, req, j) && kl_fast_finish(j)) return 0;
    free(j->fast.cages); /* it gave up: from the start, through jansson */
    free(j->fast.cells);
    memset(&j->fast, 0, sizeof j->fast);
    api_opts_defaults(kl_opts, req, j);
    bad = api_params_check(req, none, p) != 0;
    if ((root = api_json_object(req, p)) == NULL) return -1;
    rc = api_opts_json(kl_opts, req, root, 0, j, p);
    if (rc == 0 && !bad) rc = api_opts_json(kl_opts, req, root, 1, j, p);
    if (rc == 0 && !bad) rc = api_opts_json(kl_opts, req, root, 2, j, p);
    json_decref(root);
    return rc == -2 ? -2 : bad || rc != 0 ? -1 : 0;
}

/* One whitespace- or comma-separated token at *s; returns its length. */
static size_t kl_token(const char **s, const char *end) {
    while (*s < end && (**s == ' ' || **s == '\t'))
        (*s)++;
    const char *t = *s;
    while (t < end && *t != ' ' && *t != '\t')
        t++;
    return (size_t)(t - *s);
}

/* The one number a whole line [q, qe) holds (blanks around it), 0..max:
 * 0, or -1 (anything else on the line, or over max). */
static int kl_text_number(const char *q, const char *qe, long long max, long long *out) {
    size_t tl = kl_token(&q, qe);
    const char *rest = q + tl;
    if (api_decimal(q, tl, max, out) != 0 || kl_token(&rest, qe) != 0) return -1;
    return 0;
}

/* The symbols line [q, qe) (line `f`).  0 or -1. */
static int kl_text_symbols(const char *q, const char *qe, kl_job_t *j, const char *f,
                           api_problem_t *p) {
    size_t tl;
    while ((tl = kl_token(&q, qe)) > 0) {
        long long x;
        if (j->nsymbols == KILLER_MAX_N || api_decimal(q, tl, KILLER_MAX_SYMBOL, &x) != 0) {
            api_problem_add(p, "body", f,
                            "the second line holds the symbols, non-negative integers");
            return -1;
        }
        j->symbols[j->nsymbols++] = (long)x;
        q += tl;
    }
    return 0;
}

/* One cell "r,c" of a cage line (the token [q, q + tl), line `f`), each
 * inside the grid.  0 or -1. */
static int kl_text_cell(const char *q, size_t tl, const kl_job_t *j, killer_cell_t *cell,
                        const char *f, api_problem_t *p) {
    const char *comma = memchr(q, ',', tl);
    size_t rl = comma ? (size_t)(comma - q) : 0, cl = comma ? tl - rl - 1 : 0;
    long long r = 0, c = 0;
    int row = comma ? api_decimal(q, rl, j->n - 1, &r) : -1;
    int col = comma ? api_decimal(comma + 1, cl, j->n - 1, &c) : -1;
    if (row == -1 || col == -1) {
        api_problem_add(p, "body", f, "cell '%.*s' is not 'row,col'", (int)(tl < 40 ? tl : 40), q);
        return -1;
    }
    if (row != 0 || col != 0) {
        api_problem_add(p, "body", f, "cell '%.*s' is outside the %dx%d grid",
                        (int)(tl < 40 ? tl : 40), q, j->n, j->n);
        return -1;
    }
    cell->r = (int)r;
    cell->c = (int)c;
    return 0;
}

/* Cage line [q, qe) (line `f`), "sum r,c r,c ...", as cage nc of the
 * ncages announced; its cells go to j->cells from *at on.  0 or -1. */
static int kl_text_cage(const char *q, const char *qe, kl_job_t *j, long long nc, long long ncages,
                        size_t *at, const char *f, api_problem_t *p) {
    size_t tl = kl_token(&q, qe);
    long long sum;
    int rc = api_decimal(q, tl, KL_MAX_SUM, &sum);
    if (nc >= ncages) {
        api_problem_add(p, "body", f, "more cage lines than the %lld announced", ncages);
        return -1;
    }
    if (rc != 0) {
        api_problem_add(p, "body", f,
                        rc == -2 ? "the cage sum is over %lld"
                                 : "a cage line is 'sum r,c r,c ...' (the sum at most %lld)",
                        KL_MAX_SUM);
        return -1;
    }
    q += tl;
    j->cages[nc].sum = (long)sum;
    j->cages[nc].cells = j->cells + *at;
    while ((tl = kl_token(&q, qe)) > 0) {
        if (*at == KL_MAX_CELLS) {
            api_problem_add(p, "body", f, "more cage cells than the grid has");
            return -1;
        }
        if (kl_text_cell(q, tl, j, &j->cells[*at], f, p) != 0) return -1;
        (*at)++;
        j->cages[nc].ncells++;
        q += tl;
    }
    return 0;
}

/* text/plain (the course format, file head), line by line: the size, the
 * symbols, the number of cages, the cages.  Each line is read where it is
 * in the body, however long, and every number is range-checked as it is
 * read (api/decimal.h).  0, -1 (errors in p) or -2 (out of memory). */
static int kl_parse_text(const api_request_t *req, kl_job_t *j, api_problem_t *p) {
    const char *s = req->body ? req->body : "", *end = s + req->body_len;
    int lineno = 0, stage = 0;
    long long ncages = 0, nc = 0, n;
    size_t at = 0;
    char f[32];

    if (api_opts_query(kl_opts, req, 0, 0, j, p) != 0) return -1;
    while (s < end && p->nerrors == 0) {
        const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
        const char *q = s, *qe = e > s && e[-1] == '\r' ? e - 1 : e;
        lineno++;
        snprintf(f, sizeof f, "line %d", lineno);
        s = nl ? nl + 1 : end;
        if (kl_token(&q, qe) == 0) continue; /* blank */
        if (stage == 0) {
            if (kl_text_number(q, qe, KILLER_MAX_N, &n) != 0 || n < KILLER_MIN_N) {
                api_problem_add(p, "body", f, "the first line is the size, %d to %d", KILLER_MIN_N,
                                KILLER_MAX_N);
                return -1;
            }
            j->n = (int)n;
            stage = 1;
        } else if (stage == 1) {
            if (kl_text_symbols(q, qe, j, f, p) != 0) return -1;
            stage = 2;
        } else if (stage == 2) {
            if (kl_text_number(q, qe, KL_MAX_CELLS, &ncages) != 0) {
                api_problem_add(p, "body", f, "the third line is the number of cages, 0 to %d",
                                KL_MAX_CELLS);
                return -1;
            }
            if (kl_cells_alloc(j, (size_t)ncages, KL_MAX_CELLS) != 0) return -2;
            stage = 3;
        } else {
            if (kl_text_cage(q, qe, j, nc, ncages, &at, f, p) != 0) return -1;
            nc++;
        }
    }
    if (stage < 3 || nc != ncages) {
        api_problem_add(p, "body", "body",
                        "expected the size, the symbols, the number of cages and %lld cage lines",
                        ncages);
        return -1;
    }
    j->ncages = (int)ncages;
    return 0;
}

/* Maps the first problem killer_validate() found to a field and status. */
static int kl_problem(const kl_job_t *j, const killer_problem_t *pr, api_problem_t *p) {
    char f[64];
    int code = API_EINVALID;
    switch (pr->code) {
    case KILLER_ESUM:
    case KILLER_ETOTAL:
    case KILLER_EGIVEN_RULE:
    case KILLER_EGIVEN_CAGE: code = API_EUNPROCESSABLE; break;
    default: break;
    }
    api_problem_init(p, code,
                     code == API_EUNPROCESSABLE ? "the puzzle contradicts itself"
                                                : "the puzzle is not valid");
    switch (pr->code) {
    case KILLER_ESYMBOLS:
        api_problem_add(p, "body", "symbols", "must be %d distinct integers from 0 to %ld", j->n,
                        KILLER_MAX_SYMBOL);
        break;
    case KILLER_EGIVEN_VALUE:
        snprintf(f, sizeof f, "grid[%d][%d]", pr->r, pr->c);
        api_problem_add(p, "body", f, "not one of the symbols");
        break;
    case KILLER_ECELL_RANGE:
        snprintf(f, sizeof f, "cages[%d].cells[%d]", pr->cage, pr->cell);
        api_problem_add(p, "body", f, "(%d,%d) is outside the %dx%d grid", pr->r, pr->c, j->n,
                        j->n);
        break;
    case KILLER_ECELL_DUP:
        snprintf(f, sizeof f, "cages[%d].cells[%d]", pr->cage, pr->cell);
        api_problem_add(p, "body", f, "(%d,%d) is already in cages[%d]", pr->r, pr->c, pr->other);
        break;
    case KILLER_ECAGE_EMPTY:
        snprintf(f, sizeof f, "cages[%d]", pr->cage);
        api_problem_add(p, "body", f, "a cage needs at least one cell");
        break;
    case KILLER_ECAGE_SIZE:
        snprintf(f, sizeof f, "cages[%d]", pr->cage);
        api_problem_add(p, "body", f, "more than %d cells: the values could not be distinct", j->n);
        break;
    case KILLER_ESUM:
        snprintf(f, sizeof f, "cages[%d].sum", pr->cage);
        api_problem_add(p, "body", f, "%ld cannot be made of %d distinct symbols",
                        j->cages[pr->cage].sum, j->cages[pr->cage].ncells);
        break;
    case KILLER_ETOTAL:
        api_problem_add(p, "body", "cages",
                        "the cages cover the grid, but their sums do not add up to "
                        "the grid's total");
        break;
    case KILLER_EGIVEN_RULE:
        snprintf(f, sizeof f, "grid[%d][%d]", pr->r, pr->c);
        api_problem_add(p, "body", f, "repeats the value of grid[%d][%d]", pr->other / j->n,
                        pr->other % j->n);
        break;
    case KILLER_EGIVEN_CAGE:
        snprintf(f, sizeof f, "cages[%d]", pr->cage);
        api_problem_add(p, "body", f, "the givens in this cage repeat a value or miss its sum");
        if (pr->r >= 0) {
            snprintf(f, sizeof f, "grid[%d][%d]", pr->r, pr->c);
            api_problem_add(p, "body", f, "given in cages[%d]", pr->cage);
        }
        break;
    default:
        api_problem_add(p, "body", "box",
                        "%dx%d boxes do not tile a %dx%d grid (or no default box)", j->box_rows,
                        j->box_cols, j->n, j->n);
        break;
    }
    return code;
}

/* Shape, symbols and givens into the puzzle; then the solver's checks. */
static int kl_finish(kl_job_t *j, api_problem_t *p) {
    killer_problem_t pr;
    int n = j->n, zero_is_symbol = 0;
    if (sudoku_shape_init(&j->pz.shape, n, j->box_rows, j->box_cols) != 0) {
        api_problem_add(p, "body", "box",
                        "%dx%d boxes do not tile a %dx%d grid (a prime size needs an "
                        "explicit box)",
                        j->box_rows, j->box_cols, n, n);
        return API_EINVALID;
    }
    if (j->nsymbols == 0)
        for (int k = 0; k < n; k++)
            j->symbols[k] = k + 1;
    else if (j->nsymbols != n) {
        api_problem_add(p, "body", "symbols", "a %dx%d grid needs %d symbols, got %d", n, n, n,
                        j->nsymbols);
        return API_EINVALID;
    }
    for (int k = 0; k < n; k++)
        zero_is_symbol |= j->symbols[k] == 0;
    for (int i = 0; j->has_givens && i < n * n; i++) {
        long long v = j->raw[i];
        int k = 0;
        if (v < 0 || (v == 0 && !zero_is_symbol)) continue;
        while (k < n && j->symbols[k] != v)
            k++;
        if (k == n) {
            char f[32];
            snprintf(f, sizeof f, "grid[%d][%d]", i / n, i % n);
            api_problem_add(p, "body", f, "%lld is not one of the symbols", v);
            return API_EINVALID;
        }
        j->givens[i] = (uint8_t)(k + 1);
    }
    j->pz.symbols = j->symbols;
    j->pz.cages = j->cages;
    j->pz.ncages = j->ncages;
    j->pz.givens = j->has_givens ? j->givens : NULL;
    j->pz.diagonals = j->diagonals;
    if (killer_validate(&j->pz, &pr) != 0) return kl_problem(j, &pr, p);
    return 0;
}

/* === The job === */

static int kl_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    kl_job_t *j = (kl_job_t *)job;
    kl_item_t *it = &j->items[item];
    killer_opts_t o;
    killer_opts_init(&o);
    o.method = j->method;
    o.max_solutions = (uint32_t)j->max_solutions;
    o.ctl = ctl;
    o.mem_cap = j->mem_cap;
    o.split_depth = j->split_depth;
    o.split_index = (uint32_t)(item / j->orders);
    if (j->race) /* learning, or advanced with both orders in turns when not split */
        o.method = item % 2 == 0 ? KILLER_METHOD_LEARNING : KILLER_METHOD_ADVANCED;
    else if (j->orders == 2) /* else the client's order, or auto: both in turns (killer.h) */
        o.values = item % 2 == 1 ? KILLER_VALUES_DESCENDING : KILLER_VALUES_ASCENDING;
    if (!j->race && j->orders != 2) o.values = j->values;
    if (j->base.nitems == 1) {
        it->buf = j->solutions;
    } else {
        it->buf = malloc((size_t)j->max_solutions * (size_t)j->n * (size_t)j->n);
        if (it->buf == NULL) return it->res.code = SEARCH_ENOMEM;
    }
    o.solutions = it->buf;
    return killer_solve(&j->pz, &o, &it->res);
}

/* Keeps up to what is missing of max_solutions of item's solutions, placed
 * after those of lower items (they arrive in completion order).  The policy
 * of api/xc_job.c's merge (first come, first kept; listed by item), not its
 * code: these are grids of one size, which a one-item job's solver writes
 * straight into j->solutions, so they are kept in place and in order as
 * they come; xc_job keeps option lists of any length and sorts them once,
 * in render. */
static void kl_keep(kl_job_t *j, size_t item, const kl_item_t *it) {
    size_t nn = (size_t)j->n * (size_t)j->n;
    uint32_t have = j->res.solutions_found, room = (uint32_t)j->max_solutions - have;
    uint32_t cnt = it->res.solutions_found < room ? it->res.solutions_found : room, at = have;
    if (j->race) { /* the members may both have found a grid: keep it once */
        uint32_t k, kept = 0, s;
        for (k = 0; k < it->res.solutions_found && kept < room; k++) {
            const uint8_t *g = it->buf + (size_t)k * nn;
            for (s = 0; s < have + kept && memcmp(j->solutions + (size_t)s * nn, g, nn) != 0; s++)
                ;
            if (s < have + kept) continue;
            memcpy(j->solutions + (size_t)(have + kept) * nn, g, nn);
            j->sol_item[have + kept] = (uint32_t)item;
            kept++;
        }
        j->res.solutions_found = have + kept;
        return;
    }
    if (cnt == 0) return;
    while (at > 0 && j->sol_item[at - 1] > item)
        at--;
    memmove(j->solutions + (size_t)(at + cnt) * nn, j->solutions + (size_t)at * nn,
            (size_t)(have - at) * nn);
    memmove(j->sol_item + at + cnt, j->sol_item + at, (size_t)(have - at) * sizeof *j->sol_item);
    memcpy(j->solutions + (size_t)at * nn, it->buf, (size_t)cnt * nn);
    for (uint32_t k = 0; k < cnt; k++)
        j->sol_item[at + k] = (uint32_t)item;
    j->res.solutions_found = have + cnt;
}

/* Whether the items of one value order have all been searched to the end
 * (with one order: every item): the solutions in hand are then all there are. */
static int kl_exhausted(const kl_job_t *j) {
    for (size_t o = 0; o < j->orders; o++) {
        size_t k = o;
        while (k < j->base.nitems && j->items[k].done)
            k += j->orders;
        if (k >= j->base.nitems) return 1;
    }
    return 0;
}

static int kl_merge(api_job_t *job, size_t item, int rc) {
    kl_job_t *j = (kl_job_t *)job;
    kl_item_t *it = &j->items[item];
    killer_result_t *r = &j->res;
    int done = r->solutions_found >= (uint32_t)j->max_solutions || j->settled;

    j->merged++;
    r->stats.nodes += it->res.stats.nodes;
    r->stats.backtracks += it->res.stats.backtracks;
    r->stats.propagations += it->res.stats.propagations;
    if (it->res.stats.max_depth > r->stats.max_depth) r->stats.max_depth = it->res.stats.max_depth;
    if (it->res.mem_peak > r->mem_peak) r->mem_peak = it->res.mem_peak;
    if (it->res.method != 0 && !j->race) r->method = it->res.method;
    if (it->res.derived > r->derived) r->derived = it->res.derived;
    if (it->res.value_orders > 0)
        j->orders_ran |= j->orders == 2 && !j->race  ? 1u << (item % 2)
                         : it->res.value_orders == 2 ? 3u
                                                     : 1u;
    job->nodes = r->stats.nodes;
    if (rc == 0 && it->res.exhausted) /* with the subtrees it showed to be empty */
        for (size_t s = 0, k = item; k < job->nitems && s < it->res.split_span; s++, k += j->orders)
            j->items[k].done = 1;
    /* items cancelled because enough solutions were in (or because the other
     * value order settled the answer) change nothing */
    if (!done) {
        if (rc < 0 && j->rc == 0) j->rc = rc;
        if (job->nitems == 1)
            r->solutions_found = it->res.solutions_found; /* already in place */
        else
            kl_keep(j, item, it);
        if (j->orders > 1 && kl_exhausted(j)) j->settled = 1;
        if (j->race && j->answered == 0 &&
            (j->settled || r->solutions_found >= (uint32_t)j->max_solutions))
            r->method = j->answered = it->res.method;
    }
    if (job->nitems > 1) {
        free(it->buf);
        it->buf = NULL;
    }
    if (r->solutions_found >= (uint32_t)j->max_solutions || j->settled || rc < 0)
        return API_JOB_CANCEL;
    return API_JOB_CONTINUE;
}

static void kl_grid(api_jw_t *w, const kl_job_t *j, const uint8_t *g) {
    api_jw_arr(w);
    for (int r = 0; r < j->n; r++) {
        api_jw_arr(w);
        for (int c = 0; c < j->n; c++)
            api_jw_int(w, j->symbols[g[r * j->n + c] - 1]);
        api_jw_end_arr(w);
    }
    api_jw_end_arr(w);
}

/* "stats": the summed counters of every item (see the head). */
static void kl_write_stats(const kl_job_t *j, api_jw_t *w) {
    const killer_result_t *res = &j->res;
    const struct {
        const char *key;
        long long v;
    } st[] = {{"nodes", (long long)res->stats.nodes},
              {"backtracks", (long long)res->stats.backtracks},
              {"propagations", (long long)res->stats.propagations},
              {"max_depth", (long long)res->stats.max_depth},
              {"derived_sums", (long long)res->derived},
              {"threads", (long long)j->base.threads}};
    api_jw_key(w, "stats");
    api_jw_obj(w);
    api_jw_key(w, "method");
    api_jw_cstr(w, killer_method_name(res->method));
    for (size_t k = 0; k < sizeof st / sizeof st[0]; k++) {
        api_jw_key(w, st[k].key);
        api_jw_int(w, st[k].v);
    }
    api_jw_key(w, "elapsed_ms");
    api_jw_real(w, api_elapsed_ms(j->base.start_ns, search_now_ns()));
    api_jw_key(w, "subproblems");
    api_jw_int(w, (long long)j->base.nitems);
    api_jw_key(w, "value_orders");
    api_jw_int(w, j->orders_ran == 3 ? 2 : 1);
    api_jw_end_obj(w);
}

static void kl_render(api_job_t *job, api_response_t *out) {
    kl_job_t *j = (kl_job_t *)job;
    const killer_result_t *res = &j->res;
    size_t nn = (size_t)j->n * (size_t)j->n;
    const char *status;
    api_problem_t p;
    /* max_solutions in hand ends the search as it does on one thread, even
     * if some item stopped early; and every item must have run for an
     * exhausted answer (the pool stops scheduling on a failure) */
    int full = res->solutions_found >= (uint32_t)j->max_solutions || j->settled;
    int rc = full ? 0 : j->rc != 0 ? j->rc : j->merged < job->nitems ? SEARCH_ENOMEM : 0;
    int exhausted = kl_exhausted(j);

    if (rc != 0 && rc != SEARCH_TIMEOUT && rc != SEARCH_CANCELLED && rc != SEARCH_BUDGET) {
        api_problem_init(&p, rc == SEARCH_ENOMEM ? API_ENOMEM : API_EINTERNAL,
                         "the killer solver failed: %s (%s)", search_code_str(rc),
                         search_code_name(rc));
        api_response_problem(out, &p);
        return;
    }
    for (uint32_t k = 0; k < res->solutions_found; k++)
        if (killer_check_solution(&j->pz, j->solutions + k * nn) != 1) {
            api_problem_init(&p, API_EINTERNAL, "solution %u fails verification", k);
            api_response_problem(out, &p);
            return;
        }
    status = res->solutions_found >= 2   ? "multiple"
             : res->solutions_found == 1 ? "solved"
             : rc == 0                   ? "unsolvable"
             : rc == SEARCH_CANCELLED    ? "cancelled"
                                         : "timeout";
    api_jw_t w; /* written straight into the answer (api/json_writer.h) */
    api_jw_init(&w);
    api_jw_obj(&w);
    api_sudoku_answer_head(&w, status, j->n, j->pz.shape.box_rows, j->pz.shape.box_cols,
                           res->solutions_found);
    if (res->solutions_found >= 2 || (rc == 0 && exhausted && res->solutions_found == 0))
        api_jw_bool(&w, 0);
    else if (rc == 0 && exhausted && res->solutions_found == 1)
        api_jw_bool(&w, 1);
    else
        api_jw_null(&w);
    api_jw_key(&w, "complete");
    api_jw_bool(&w, rc == 0);
    kl_write_stats(j, &w);
    if (res->solutions_found > 0) {
        api_jw_key(&w, "solution");
        kl_grid(&w, j, j->solutions);
    }
    if (j->max_solutions > 1) {
        api_jw_key(&w, "solutions");
        api_jw_arr(&w);
        for (uint32_t k = 0; k < res->solutions_found; k++)
            kl_grid(&w, j, j->solutions + k * nn);
        api_jw_end_arr(&w);
    }
    api_jw_end_obj(&w);
    api_jw_respond(&w, 200, out);
}

static void kl_free(api_job_t *job) {
    kl_job_t *j = (kl_job_t *)job;
    if (j == NULL) return;
    free(j->cages);
    free(j->cells);
    for (size_t k = 0; j->items != NULL && j->base.nitems > 1 && k < j->base.nitems; k++)
        free(j->items[k].buf);
    free(j->items);
    free(j->sol_item);
    free(j->solutions);
    free(j);
}

static const api_job_ops_t kl_ops = {"killer", kl_run, kl_merge, kl_render, kl_free,
                                     0,        NULL,   NULL,     NULL,      NULL};

int api_killer_solve_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    kl_job_t *j;
    size_t nitems = 1;    /* pool items: 1, or orders << split_depth */
    unsigned threads = 1; /* in flight at most */
    int rc;
    *job = NULL;
    if (api_sudoku_variant_body(req)) /* Killer-Jigsaw, -Windoku, ...: cages as constraints */
        return api_endpoint_hand_over(&api_ep_killer_solve, req, job, resp);
    j = calloc(1, sizeof *j);
    api_problem_init(&p, API_EINVALID, "the request is not valid");
    if (j == NULL) goto nomem;
    api_opts_defaults(kl_opts, req, j);
    if (api_json_content_type(req))
        rc = kl_parse_json(req, j, &p);
    else if (req->content_type != NULL && strncmp(req->content_type, "text/plain", 10) == 0)
        rc = kl_parse_text(req, j, &p);
    else {
        api_endpoint_media_problem(&api_ep_killer_solve, req, &p);
        goto fail;
    }
    if (rc == -2) goto nomem;
    if (rc != 0 || p.nerrors > 0) goto fail;
    killer_method_parse(kl_methods[j->method_ix], &j->method);
    killer_values_parse(kl_values[j->values_ix], &j->values);
    if ((j->method == KILLER_METHOD_BACKTRACKING || j->method == KILLER_METHOD_LEARNING) &&
        j->values != KILLER_VALUES_AUTO) {
        api_problem_add(&p, api_json_content_type(req) ? "body" : "query", "value_order",
                        "only the advanced method has a value order (%s does not take one)",
                        killer_method_name(j->method));
        goto fail;
    }
    if (kl_finish(j, &p) != 0) goto fail;
    /* the learning method's arena (learned clauses) grows to its cap: at
     * most what the server lets one request's work hold */
    if (req->work_share != 0 && req->work_share < KILLER_DEFAULT_MEM_CAP)
        j->mem_cap = req->work_share;
    j->race = j->method == KILLER_METHOD_AUTO && j->n >= KL_RACE_MIN_N && j->threads > 1 &&
              j->max_solutions <= KL_RACE_MAX_SOLUTIONS && j->values == KILLER_VALUES_AUTO;
    if (j->race) j->method = KILLER_METHOD_ADVANCED; /* the split is the advanced member's */
    j->solutions = malloc((size_t)j->max_solutions * (size_t)j->n * (size_t)j->n);
    if (j->solutions == NULL) goto nomem;
    j->orders = 1;
    if (j->threads > 1 &&
        (killer_method_for(j->n, j->method, j->values) == KILLER_METHOD_ADVANCED || j->race)) {
        long long per = j->threads; /* threads per value order, or per race member */
        uint32_t d = 0;
        if (j->race || (j->max_solutions == 1 && j->values == KILLER_VALUES_AUTO)) {
            j->orders = 2;
            per = j->threads / 2;
        }
        if (per > 1) {
            d = KL_SPLIT_EXTRA;
            while ((1LL << (d - KL_SPLIT_EXTRA)) < per && d < KILLER_MAX_SPLIT_DEPTH)
                d++;
        }
        j->split_depth = d;
        nitems = (size_t)j->orders << d;
        threads = (unsigned)j->threads;
        j->base.progress_unit = "subtrees";
        j->sol_item = malloc((size_t)j->max_solutions * sizeof *j->sol_item);
        if (j->sol_item == NULL) goto nomem;
    }
    j->items = calloc(nitems, sizeof *j->items);
    if (j->items == NULL) goto nomem;
    /* killer_solve() resets its result; past 6x6 one poll interval of the
     * advanced search can be tens of milliseconds */
    j->base.inline_ok = nitems == 1 && j->n <= 6;
    api_job_ready(&j->base, &kl_ops, nitems, threads, j->timeout_ms, job);
    return 0;
nomem:
    api_problem_init(&p, API_ENOMEM, "out of memory for this puzzle");
fail:
    kl_free(j ? &j->base : NULL);
    api_response_problem(resp, &p);
    return p.code;
}

const api_endpoint_t api_ep_killer_solve = {.method = "POST",
                                            .path = "/v1/killer/solve",
                                            .label = "killer",
                                            .media = kl_media,
                                            .opts = kl_opts,
                                            .prepare = api_killer_solve_prepare};

/* === Grade and hint ====================================================== */

/* POST /v1/killer/grade and POST /v1/killer/hint (issue 39): a Killer body
 * as solve's JSON takes it (size or a grid, box, cages, diagonals, the
 * variant fields), graded by the human techniques or hinted one step.
 * There is no Killer logic engine: every request is handed over
 * (api/endpoint.h) to api/sudoku_variant_api.c, which rewrites the body as
 * the Sudoku variant it is (cages as constraints of type cage) and runs
 * the Sudoku logic engine, whose techniques read cages.  The hand-over,
 * not a call, because that file already includes this one's header (the
 * Killer solve's hand-over): a call back would close a circle of
 * #includes (tools/check_includes.sh).
 *
 * The tables below list what the rewritten body is read by: the data rows
 * (size, box, cages, diagonals, grid, givens, pencil, the variant fields)
 * are read by the rewrite and the variant reader, the options (timeout_ms,
 * steps) by api/sudoku_variant_api.c's vx_options into an
 * api_sudoku_puzzle_t, as the Sudoku grade and hint tables are (hence
 * KL_PZ_AT); the solve's options are refused by name, symbols by the
 * variant reader (a variant's symbols are 1..n). */
#define KL_PZ_AT(f) offsetof(api_sudoku_puzzle_t, f)
#define KL_DATA(field)                                                                             \
    { .name = field, .kind = API_OPT_DATA, .in = API_IN_JSON }
#define KL_SOLVE_ONLY(field)                                                                       \
    {                                                                                              \
        .name = field, .kind = API_OPT_ELSEWHERE, .in = API_IN_JSON,                               \
        .msg = "unknown field (a /v1/killer/solve option)"                                         \
    }
#define KL_LOGIC_ROWS                                                                              \
    KL_DATA("size"), KL_DATA("box"),                                                               \
        {.name = "cages", .kind = API_OPT_DATA, .in = API_IN_JSON, .flags = API_OPT_REQUIRED},     \
        KL_DATA("grid"), KL_DATA("diagonals"),                                                     \
        {.name = "timeout_ms",                                                                     \
         .kind = API_OPT_INT,                                                                      \
         .in = API_IN_JSON,                                                                        \
         .lo = 1,                                                                                  \
         .hi = API_REQ_TIMEOUT,                                                                    \
         .def = API_REQ_TIMEOUT,                                                                   \
         .at = KL_PZ_AT(timeout_ms)},                                                              \
        KL_SOLVE_ONLY("method"), KL_SOLVE_ONLY("value_order"), KL_SOLVE_ONLY("max_solutions"),     \
        KL_SOLVE_ONLY("threads"), API_SUDOKU_VARIANT_ROWS

static const char *const kl_logic_media[] = {"application/json", NULL};

static const api_opt_t kl_grade_opts[] = {
    KL_LOGIC_ROWS,
    {.name = "steps", .kind = API_OPT_BOOL, .in = API_IN_JSON, .def = 0, .at = KL_PZ_AT(steps)},
    {0}};

static const api_opt_t kl_hint_opts[] = {KL_LOGIC_ROWS, KL_DATA("givens"), KL_DATA("pencil"), {0}};

int api_killer_grade_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    return api_endpoint_hand_over(&api_ep_killer_grade, req, job, resp);
}

int api_killer_hint_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    return api_endpoint_hand_over(&api_ep_killer_hint, req, job, resp);
}

const api_endpoint_t api_ep_killer_grade = {.method = "POST",
                                            .path = "/v1/killer/grade",
                                            .label = "killer",
                                            .media = kl_logic_media,
                                            .opts = kl_grade_opts,
                                            .prepare = api_killer_grade_prepare};

const api_endpoint_t api_ep_killer_hint = {.method = "POST",
                                           .path = "/v1/killer/hint",
                                           .label = "killer",
                                           .media = kl_logic_media,
                                           .opts = kl_hint_opts,
                                           .prepare = api_killer_hint_prepare};
