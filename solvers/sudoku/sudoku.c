/* sudoku.c -- Sudoku grid model, validation and the one solving entry point.
 *
 * Why this file exists: the HTTP layer needs one call that checks a puzzle,
 * picks a method and reports a uniform result; the methods live in
 *   sudoku/bt.c         backtracking and mrv (used-masks, no propagation)
 *   sudoku/prop.c       propagation engine + its depth-first search
 *   sudoku/bestfirst.c  best-first search over propagated partial grids
 * and share the run context and geometry declared in sudoku/internal.h.
 *
 * Data: grids are n*n bytes row-major (0 empty, 1..n).  Value masks are
 * uint64_t with value v at bit v-1, which is why n stops at 64.  Validation
 * works on three arrays of n masks (rows, columns, boxes) on the stack:
 * 3 * 64 * 8 = 1.5 KiB at most; it allocates nothing.
 *
 * sudoku_solve() order of checks: shape, options, values, givens (conflict ->
 * SUDOKU_ECONFLICT), limits (search_check_now), then the method.  Nothing is
 * written to the caller's buffers before the method runs, and *res is zeroed
 * first so every field is defined whatever the outcome.
 *
 * Auto (choose_auto()): propagation at hidden-singles below 16x16, where
 * it is the fastest method or within 10% of it; at subsets from 16x16 on,
 * where subsets needs 4-20x fewer nodes on hard grids; backtracking, mrv
 * and the peers level are 10-1000x slower almost everywhere.  The figures
 * per collection are in docs/sudoku-tuning.md.  Subsets stalls on minimal
 * 25x25 grids: from 16x16 (without a trace) auto runs subsets for 256 nodes
 * and hands what is left to cdcl, which proves those in seconds
 * (sudoku/cdcl.h; the crossover in docs/big-sudoku-tuning.md).  The choice
 * is one function, choose_auto(), and dispatch one switch, run_method(), so
 * a 9x9 fast path or exact cover slots in with two lines.
 *
 * Thread-safety: no state outside the arguments; the tables are const. */
#include "solvers/sudoku/sudoku.h"

#include <stdlib.h>
#include <string.h>

#include "solvers/sudoku/cdcl.h"
#include "solvers/sudoku/internal.h"
#include "solvers/sudoku/model.h"
#include "solvers/sudoku/sudoku9.h"
#include "solvers/sudoku/xc.h"

/* === Shape ============================================================== */

int sudoku_default_box(int n, int *rows, int *cols) {
    int r, best = 0;
    if (n < SUDOKU_MIN_N || n > SUDOKU_MAX_N) return SEARCH_EINVAL;
    /* the largest divisor r with 2 <= r and r*r <= n: square if n is one */
    for (r = 2; r * r <= n; r++)
        if (n % r == 0) best = r;
    if (best == 0) return SUDOKU_ENOBOX;
    *rows = best;
    *cols = n / best;
    return 0;
}

int sudoku_shape_check(const sudoku_shape_t *s) {
    if (s == NULL || s->n < SUDOKU_MIN_N || s->n > SUDOKU_MAX_N) return SEARCH_EINVAL;
    if (s->box_rows < 1 || s->box_cols < 1 || s->box_rows * s->box_cols != s->n)
        return SEARCH_EINVAL;
    return 0;
}

int sudoku_shape_init(sudoku_shape_t *shape, int n, int box_rows, int box_cols) {
    sudoku_shape_t s;
    int rc;
    if (shape == NULL) return SEARCH_EINVAL;
    s.n = n;
    s.box_rows = box_rows;
    s.box_cols = box_cols;
    if (box_rows == 0 && box_cols == 0) {
        rc = sudoku_default_box(n, &s.box_rows, &s.box_cols);
        if (rc != 0) return rc;
    }
    rc = sudoku_shape_check(&s);
    if (rc != 0) return rc;
    *shape = s;
    return 0;
}

/* === Validation ========================================================= */

int sudoku_check_values(const sudoku_shape_t *shape, const uint8_t *grid) {
    int i, nn;
    if (sudoku_shape_check(shape) != 0 || grid == NULL) return SEARCH_EINVAL;
    nn = shape->n * shape->n;
    for (i = 0; i < nn; i++)
        if (grid[i] > shape->n) return SEARCH_EINVAL;
    return 0;
}

/* Cell index of the j-th cell (row-major) of unit (kind, idx). */
static int unit_cell(const sudoku_shape_t *s, int kind, int idx, int j) {
    int n = s->n, r, c;
    if (kind == SUDOKU_UNIT_ROW) return idx * n + j;
    if (kind == SUDOKU_UNIT_COL) return j * n + idx;
    r = (idx / (n / s->box_cols)) * s->box_rows + j / s->box_cols;
    c = (idx % (n / s->box_cols)) * s->box_cols + j % s->box_cols;
    return r * n + c;
}

int sudoku_find_conflicts(const sudoku_shape_t *shape, const uint8_t *grid, sudoku_conflict_t *out,
                          size_t cap, size_t *count) {
    int n, kind, idx, j;
    size_t total = 0;
    if (count == NULL) return SEARCH_EINVAL;
    *count = 0;
    if (sudoku_check_values(shape, grid) != 0 || (cap > 0 && out == NULL)) return SEARCH_EINVAL;
    n = shape->n;
    for (kind = 0; kind < 3; kind++) {
        for (idx = 0; idx < n; idx++) {
            uint64_t seen = 0, dup = 0;
            for (j = 0; j < n; j++) {
                int v = grid[unit_cell(shape, kind, idx, j)];
                if (v == 0) continue;
                dup |= seen & SUDOKU__BIT(v);
                seen |= SUDOKU__BIT(v);
            }
            for (; dup != 0; dup &= dup - 1) {
                int v = sudoku__ctz(dup) + 1;
                if (total < cap) {
                    sudoku_conflict_t *cf = &out[total];
                    int k = 0;
                    /* unit_cell() walks every unit in ascending cell order
                     * (a box row by row), so cells[] comes out sorted */
                    for (j = 0; j < n; j++) {
                        int cell = unit_cell(shape, kind, idx, j);
                        if (grid[cell] == v) cf->cells[k++] = (uint16_t)cell;
                    }
                    cf->unit = (uint8_t)kind;
                    cf->value = (uint8_t)v;
                    cf->index = (uint16_t)idx;
                    cf->ncells = (uint16_t)k;
                    cf->id = (uint16_t)(kind * n + idx);
                    cf->grid = 0;
                }
                total++;
            }
        }
    }
    *count = total;
    return 0;
}

int sudoku_is_complete(const sudoku_shape_t *shape, const uint8_t *grid) {
    uint64_t rows[SUDOKU_MAX_N] = {0}, cols[SUDOKU_MAX_N] = {0}, boxes[SUDOKU_MAX_N] = {0};
    int n, r, c;
    if (sudoku_shape_check(shape) != 0 || grid == NULL) return SEARCH_EINVAL;
    n = shape->n;
    for (r = 0; r < n; r++) {
        for (c = 0; c < n; c++) {
            int v = grid[r * n + c], b = sudoku_box_of(shape, r, c);
            uint64_t bit;
            if (v < 1 || v > n) return 0;
            bit = SUDOKU__BIT(v);
            if ((rows[r] | cols[c] | boxes[b]) & bit) return 0;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    return 1;
}

int sudoku_check_solution(const sudoku_shape_t *shape, const uint8_t *puzzle,
                          const uint8_t *solution) {
    int i, nn, rc;
    if (puzzle == NULL) return SEARCH_EINVAL;
    rc = sudoku_is_complete(shape, solution);
    if (rc != 1) return rc;
    nn = shape->n * shape->n;
    for (i = 0; i < nn; i++)
        if (puzzle[i] != 0 && puzzle[i] != solution[i]) return 0;
    return 1;
}

/* === Names ============================================================== */

/* Arrays of char arrays, not of pointers: pointer tables need relocations
 * and land in writable .data.rel.ro under -fPIE, and `nm` must show no
 * writable data in solver objects. */
static const char method_names[SUDOKU_METHOD_COUNT][16] = {
    "auto",        "backtracking", "mrv",  "propagation", "best-first",
    "algorithm-x", "dlx",          "fast", "cdcl"};
static const char level_names[SUDOKU_LEVEL_COUNT][16] = {"default", "peers", "hidden-singles",
                                                         "naked-pairs", "subsets"};
static const char step_names[4][12] = {"assign", "eliminate", "guess", "backtrack"};
static const char unit_names[SUDOKU_RULE_LINE + 1][12] = {
    "row",      "column", "box",    "region", "diagonal", "window",
    "disjoint", "extra",  "parity", "pair",   "line"};

const char *sudoku_method_name(sudoku_method_t m) {
    return ((unsigned)m < SUDOKU_METHOD_COUNT) ? method_names[m] : NULL;
}

int sudoku_method_parse(const char *name, sudoku_method_t *out) {
    int i;
    if (name == NULL || out == NULL) return SEARCH_EINVAL;
    for (i = 0; i < SUDOKU_METHOD_COUNT; i++) {
        if (strcmp(name, method_names[i]) == 0) {
            *out = (sudoku_method_t)i;
            return 0;
        }
    }
    return SEARCH_EINVAL;
}

const char *sudoku_level_name(sudoku_level_t l) {
    /* DEFAULT is spelt as what it means */
    if (l == SUDOKU_LEVEL_DEFAULT) l = SUDOKU_LEVEL_HIDDEN_SINGLES;
    return ((unsigned)l < SUDOKU_LEVEL_COUNT) ? level_names[l] : NULL;
}

int sudoku_level_parse(const char *name, sudoku_level_t *out) {
    int i;
    if (name == NULL || out == NULL) return SEARCH_EINVAL;
    for (i = SUDOKU_LEVEL_PEERS; i < SUDOKU_LEVEL_COUNT; i++) {
        if (strcmp(name, level_names[i]) == 0) {
            *out = (sudoku_level_t)i;
            return 0;
        }
    }
    return SEARCH_EINVAL;
}

const char *sudoku_step_kind_name(sudoku_step_kind_t k) {
    return ((unsigned)k < 4) ? step_names[k] : NULL;
}

const char *sudoku_unit_name(sudoku_unit_t u) {
    return ((unsigned)u <= SUDOKU_RULE_LINE) ? unit_names[u] : NULL;
}

/* === Shared internals =================================================== */

void sudoku_opts_init(sudoku_opts_t *opts) {
    memset(opts, 0, sizeof *opts);
    opts->method = SUDOKU_METHOD_AUTO;
    opts->level = SUDOKU_LEVEL_HIDDEN_SINGLES;
    opts->max_solutions = 1;
    opts->mem_cap = SUDOKU_DEFAULT_MEM_CAP;
}

void *sudoku__alloc(sudoku__run_t *run, size_t size) {
    const search_allocator_t *a = run->opts->alloc;
    void *p = a != NULL && a->alloc != NULL ? a->alloc(a->ud, size) : malloc(size);
    if (p == NULL) return NULL;
    run->mem_now += size;
    if (run->mem_now > run->res->mem_peak) run->res->mem_peak = run->mem_now;
    return p;
}

void sudoku__free(sudoku__run_t *run, void *ptr, size_t size) {
    const search_allocator_t *a = run->opts->alloc;
    if (ptr == NULL) return;
    if (a != NULL && a->dealloc != NULL)
        a->dealloc(a->ud, ptr);
    else
        free(ptr);
    run->mem_now -= size;
}

size_t sudoku__geom_bytes(const sudoku__run_t *run) {
    size_t n = (size_t)run->n, nc = (size_t)run->ncells;
    if (run->model != NULL) return 0;
    return SUDOKU__ALIGN((3 * n + 1) * sizeof(uint32_t)) +
           SUDOKU__ALIGN(3 * n * n * sizeof(uint16_t)) +
           2 * SUDOKU__ALIGN((nc + 1) * sizeof(uint32_t)) +
           SUDOKU__ALIGN(3 * nc * sizeof(uint16_t)) + SUDOKU__ALIGN(3 * nc) +
           SUDOKU__ALIGN(3 * nc * sizeof(uint64_t));
}

void sudoku__geom_build(sudoku__run_t *run, void *mem) {
    const sudoku_shape_t *s = run->shape;
    int n = s->n, kind, idx, j;
    char *at = mem;
    uint32_t *ustart, *cstart, *dstart;
    uint16_t *ucells, *cunits;
    uint8_t *dword;
    uint64_t *dmask;
    int one, bpr;
    if (run->model != NULL) return; /* a model's shape has no boxes (a jigsaw: 0 x 0) */
    bpr = n / s->box_cols;          /* boxes a row of boxes */
    ustart = (uint32_t *)(void *)at;
    at += SUDOKU__ALIGN((3 * (size_t)n + 1) * sizeof(uint32_t));
    ucells = (uint16_t *)(void *)at;
    at += SUDOKU__ALIGN(3 * (size_t)n * n * sizeof(uint16_t));
    cstart = (uint32_t *)(void *)at;
    at += SUDOKU__ALIGN(((size_t)run->ncells + 1) * sizeof(uint32_t));
    cunits = (uint16_t *)(void *)at;
    at += SUDOKU__ALIGN(3 * (size_t)run->ncells * sizeof(uint16_t));
    dstart = (uint32_t *)(void *)at;
    at += SUDOKU__ALIGN(((size_t)run->ncells + 1) * sizeof(uint32_t));
    dword = (uint8_t *)at;
    at += SUDOKU__ALIGN(3 * (size_t)run->ncells);
    dmask = (uint64_t *)(void *)at;
    one = 3 * n <= 64; /* rows, columns, boxes in one word: a mask per cell */
    if (one) memset(dmask, 0, (size_t)run->ncells * sizeof *dmask);
    /* by kind, without unit_cell()'s divisions: this runs before every
     * solve of a shape, and a 17-clue 9x9 solve is a few thousand
     * instructions in all */
    for (kind = 0; kind < 3; kind++) {
        for (idx = 0; idx < n; idx++) {
            int u = kind * n + idx, r0 = (idx / bpr) * s->box_rows, c0 = (idx % bpr) * s->box_cols;
            uint16_t *uc = ucells + u * n;
            ustart[u] = (uint32_t)(u * n);
            if (kind == 0)
                for (j = 0; j < n; j++)
                    uc[j] = (uint16_t)(idx * n + j);
            else if (kind == 1)
                for (j = 0; j < n; j++)
                    uc[j] = (uint16_t)(j * n + idx);
            else
                for (int r = 0, k = 0; r < s->box_rows; r++)
                    for (int c = 0; c < s->box_cols; c++)
                        uc[k++] = (uint16_t)((r0 + r) * n + c0 + c);
            for (j = 0; j < n; j++) {
                cunits[uc[j] * 3 + kind] = (uint16_t)u;
                if (one) dmask[uc[j]] |= (uint64_t)1 << u;
            }
        }
    }
    ustart[3 * n] = (uint32_t)(3 * n * n);
    for (j = 0; j <= run->ncells; j++)
        cstart[j] = (uint32_t)(3 * j);
    if (!one) sudoku__dirty_marks(run->ncells, cstart, cunits, dstart, dword, dmask);
    memset(&run->g, 0, sizeof run->g);
    run->g.nunits = 3 * n;
    run->g.classic = 1;
    run->g.ustart = ustart;
    run->g.ucells = ucells;
    run->g.cstart = cstart;
    run->g.cunits = cunits;
    run->g.dstart = one ? NULL : dstart; /* one word: mark_dirty() reads dmask[cell] */
    run->g.dword = one ? NULL : dword;
    run->g.dmask = dmask;
}

/* === Entry point ======================================================== */

/* The dispatch (a switch rather than a table of function pointers, for the
 * same reason as the name tables).  AUTO is resolved before this. */
static int run_method(sudoku_method_t m, sudoku__run_t *run) {
    switch (m) {
    case SUDOKU_METHOD_BACKTRACKING: return sudoku__solve_backtracking(run);
    case SUDOKU_METHOD_MRV: return sudoku__solve_mrv(run);
    case SUDOKU_METHOD_PROPAGATION: return sudoku__solve_propagation(run);
    case SUDOKU_METHOD_BEST_FIRST: return sudoku__solve_bestfirst(run);
    case SUDOKU_METHOD_CDCL: return sudoku__solve_cdcl(run);
    default: return SEARCH_EINVAL;
    }
}

/* What auto runs for this grid (see the file comment for the measurements). */
static sudoku_method_t choose_auto(const sudoku_shape_t *shape, const uint8_t *puzzle,
                                   const sudoku_opts_t *opts, sudoku_level_t *level) {
    (void)puzzle;
    /* bench9: the band solver is 2-6x faster than propagation on every
     * 9x9 collection; it keeps no trace, so a traced solve stays here */
    if (shape->n == 9 && shape->box_rows == 3 && opts->trace_cap == 0) return SUDOKU_METHOD_FAST;
    /* from 16x16: propagation, then cdcl if it stalls (sudoku/cdcl.h) */
    if (shape->n >= 16 && opts->trace_cap == 0) return SUDOKU_METHOD_CDCL;
    *level = shape->n >= 16 ? SUDOKU_LEVEL_SUBSETS : SUDOKU_LEVEL_HIDDEN_SINGLES;
    return SUDOKU_METHOD_PROPAGATION;
}

sudoku_method_t sudoku_method_for(const sudoku_shape_t *shape, const uint8_t *puzzle,
                                  const sudoku_opts_t *opts) {
    sudoku_level_t level;
    if (opts->method != SUDOKU_METHOD_AUTO) return opts->method;
    return choose_auto(shape, puzzle, opts, &level);
}

/* Returns 0 if the givens break no rule, SUDOKU_ECONFLICT otherwise. */
static int givens_agree(const sudoku_shape_t *s, const uint8_t *grid) {
    uint64_t rows[SUDOKU_MAX_N] = {0}, cols[SUDOKU_MAX_N] = {0}, boxes[SUDOKU_MAX_N] = {0};
    int n = s->n, r, c;
    for (r = 0; r < n; r++) {
        for (c = 0; c < n; c++) {
            int v = grid[r * n + c], b;
            uint64_t bit;
            if (v == 0) continue;
            b = sudoku_box_of(s, r, c);
            bit = SUDOKU__BIT(v);
            if ((rows[r] | cols[c] | boxes[b]) & bit) return SUDOKU_ECONFLICT;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    return 0;
}

/* The exact-cover methods run in sudoku/xc.c, on the same options and limits;
 * they keep no trace (trace_len stays 0). */
static int solve_exact_cover(const sudoku_shape_t *shape, const sudoku_model_t *model,
                             const uint8_t *puzzle, const sudoku_opts_t *opts,
                             sudoku_method_t method, sudoku_result_t *res) {
    sudoku_xc_opts_t xo;
    sudoku_xc_result_t xr;
    int rc;
    sudoku_xc_opts_init(&xo);
    xo.engine = method == SUDOKU_METHOD_DLX ? XCOVER_ENGINE_DLX : XCOVER_ENGINE_ALGX;
    xo.max_solutions = opts->max_solutions;
    xo.solutions = opts->solutions;
    xo.ctl = opts->ctl;
    xo.alloc = opts->alloc;
    xo.model = model;
    rc = sudoku_xc_solve(shape, puzzle, &xo, &xr);
    res->method = method;
    res->level = SUDOKU_LEVEL_DEFAULT;
    res->solutions_found = xr.solutions_found;
    res->exhausted = xr.exhausted;
    res->stats = xr.stats;
    res->mem_peak = xr.mem_bytes;
    return rc;
}

/* The options every solve checks: 0 or SEARCH_EINVAL. */
static int opts_ok(const sudoku_opts_t *opts) {
    if ((unsigned)opts->method >= SUDOKU_METHOD_COUNT) return SEARCH_EINVAL;
    if ((unsigned)opts->level >= SUDOKU_LEVEL_COUNT) return SEARCH_EINVAL;
    if (opts->max_solutions < 1 || opts->max_solutions > SUDOKU_MAX_SOLUTIONS) return SEARCH_EINVAL;
    if (opts->trace_cap > 0 && opts->trace == NULL) return SEARCH_EINVAL;
    if (!search_allocator_ok(opts->alloc)) return SEARCH_EINVAL;
    return 0;
}

/* The options a solve runs with: the defaults when NULL, and the control
 * block's allocator when the options name none (search_allocator_of); own
 * holds a copy when needed. */
static const sudoku_opts_t *solve_opts(const sudoku_opts_t *opts, sudoku_opts_t *own) {
    if (opts == NULL) {
        sudoku_opts_init(own);
        return own;
    }
    if (search_allocator_of(opts->alloc, opts->ctl) != opts->alloc) {
        *own = *opts;
        own->alloc = opts->ctl->alloc;
        return own;
    }
    return opts;
}

/* Runs one of the run-based methods (everything but fast and exact cover)
 * on a shape or a model.  `big`: auto's propagation-then-cdcl. */
static int run_solve(const sudoku_shape_t *shape, const sudoku_model_t *model,
                     const uint8_t *puzzle, const sudoku_opts_t *opts, sudoku_method_t method,
                     sudoku_level_t level, int big, sudoku_result_t *res) {
    sudoku__run_t run;
    int rc, n = shape->n;
    uint32_t poll;
    memset(&run, 0, sizeof run);
    run.n = n;
    run.ncells = model != NULL ? model->ncells : n * n;
    run.full = (n == 64) ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    run.shape = shape;
    run.model = model;
    if (model != NULL) sudoku__geom_of_model(&run.g, model);
    run.puzzle = puzzle;
    run.opts = opts;
    run.ctl = opts->ctl;
    run.res = res;
    run.max_solutions = opts->max_solutions;
    /* poll the clock at most every 2^22 / (cells * n) nodes: a node's cost
     * grows with n^2..n^3 on a classic grid (cells = n^2), so big grids
     * poll more often; never less than search.h asks.  The period starts
     * low and follows the time a poll interval takes (sudoku__tick). */
    poll = (uint32_t)((1u << 22) / ((uint32_t)run.ncells * (uint32_t)n));
    if (poll > SEARCH_POLL_MASK + 1) poll = SEARCH_POLL_MASK + 1;
    if (poll < 1) poll = 1;
    run.poll_max = poll;
    run.poll_every = run.poll_left = poll < 64 ? poll : 64;
    run.poll_ns = search_now_ns();
    run.trace = opts->trace_cap > 0 ? opts->trace : NULL;
    run.trace_cap = opts->trace_cap;
    run.level = (method == SUDOKU_METHOD_PROPAGATION || method == SUDOKU_METHOD_BEST_FIRST)
                    ? level
                    : SUDOKU_LEVEL_DEFAULT;
    res->method = method;
    res->level = run.level;
    if (big)
        rc = sudoku__solve_auto_big(&run, level);
    else
        rc = run_method(method, &run);
    assert(run.mem_now == 0);
    return rc;
}

int sudoku_solve(const sudoku_shape_t *shape, const uint8_t *puzzle, const sudoku_opts_t *opts,
                 sudoku_result_t *res) {
    sudoku_opts_t defaults;
    sudoku_method_t method;
    sudoku_level_t level;
    int rc, big;

    if (res == NULL) return SEARCH_EINVAL;
    memset(res, 0, sizeof *res);
    opts = solve_opts(opts, &defaults);
    rc = sudoku_check_values(shape, puzzle);
    if (rc != 0) goto done;
    rc = opts_ok(opts);
    if (rc != 0) goto done;
    rc = givens_agree(shape, puzzle);
    if (rc != 0) goto done;
    rc = search_check_now(opts->ctl, 0);
    if (rc != 0) goto done;

    method = opts->method;
    level = opts->level == SUDOKU_LEVEL_DEFAULT ? SUDOKU_LEVEL_HIDDEN_SINGLES : opts->level;
    if (method == SUDOKU_METHOD_AUTO) method = choose_auto(shape, puzzle, opts, &level);
    if (method == SUDOKU_METHOD_FAST) {
        sudoku9_result_t r9;
        rc = SEARCH_EINVAL;
        if (shape->n != 9 || shape->box_rows != 3) goto done;
        rc = sudoku9_solve(puzzle, opts->max_solutions, opts->solutions, opts->ctl, &r9);
        res->method = method;
        res->solutions_found = r9.solutions_found;
        res->exhausted = r9.exhausted;
        res->stats = r9.stats;
        goto done;
    }
    if (method == SUDOKU_METHOD_ALGORITHM_X || method == SUDOKU_METHOD_DLX) {
        rc = solve_exact_cover(shape, NULL, puzzle, opts, method, res);
        goto done;
    }
    /* auto's cdcl from 16x16 starts with propagation at subsets */
    big = opts->method == SUDOKU_METHOD_AUTO && method == SUDOKU_METHOD_CDCL;
    rc = run_solve(shape, NULL, puzzle, opts, method, big ? SUDOKU_LEVEL_SUBSETS : level, big, res);
done:
    res->code = rc;
    return rc;
}

/* === Models ============================================================= */

/* What auto runs on a model that is not classic: the propagation method at
 * hidden singles (subsets from 16 symbols), handing over to cdcl after
 * SUDOKU__AUTO_PROP_NODES nodes when no trace is asked (measured on the
 * shared janko collections, docs/variants.md). */
static sudoku_method_t choose_auto_model(const sudoku_model_t *m, const sudoku_opts_t *opts,
                                         sudoku_level_t *level, int *big) {
    *big = 0;
    *level = m->n >= 16 ? SUDOKU_LEVEL_SUBSETS : SUDOKU_LEVEL_HIDDEN_SINGLES;
    if (m->nrules > 0) return SUDOKU_METHOD_PROPAGATION; /* the one engine with lines */
    if (opts->trace_cap == 0) {
        *big = 1;
        return SUDOKU_METHOD_CDCL;
    }
    return SUDOKU_METHOD_PROPAGATION;
}

sudoku_method_t sudoku_model_method_for(const sudoku_model_t *m, const uint8_t *puzzle,
                                        const sudoku_opts_t *opts) {
    sudoku_level_t level;
    int big;
    if (m->classic) return sudoku_method_for(&m->shape, puzzle, opts);
    if (opts->method != SUDOKU_METHOD_AUTO) return opts->method;
    return choose_auto_model(m, opts, &level, &big);
}

int sudoku_model_solve(const sudoku_model_t *m, const uint8_t *puzzle, const sudoku_opts_t *opts,
                       sudoku_result_t *res) {
    sudoku_opts_t defaults;
    sudoku_method_t method;
    sudoku_level_t level;
    size_t conflicts = 0;
    int rc, big = 0;

    if (res == NULL) return SEARCH_EINVAL;
    memset(res, 0, sizeof *res);
    opts = solve_opts(opts, &defaults);
    rc = SEARCH_EINVAL;
    if (m == NULL) goto done;
    if (m->classic) return sudoku_solve(&m->shape, puzzle, opts, res);
    rc = sudoku_model_check_values(m, puzzle);
    if (rc != 0) goto done;
    rc = opts_ok(opts);
    if (rc != 0) goto done;
    rc = sudoku_model_find_conflicts(m, puzzle, NULL, 0, &conflicts);
    if (rc != 0) goto done;
    rc = SUDOKU_ECONFLICT;
    if (conflicts > 0) goto done;
    rc = search_check_now(opts->ctl, 0);
    if (rc != 0) goto done;

    method = opts->method;
    level = opts->level == SUDOKU_LEVEL_DEFAULT ? SUDOKU_LEVEL_HIDDEN_SINGLES : opts->level;
    if (method == SUDOKU_METHOD_AUTO) method = choose_auto_model(m, opts, &level, &big);
    if (method == SUDOKU_METHOD_FAST || (m->nrules > 0 && method != SUDOKU_METHOD_PROPAGATION &&
                                         method != SUDOKU_METHOD_BEST_FIRST)) {
        rc = SUDOKU_EMETHOD;
        goto done;
    }
    if (method == SUDOKU_METHOD_ALGORITHM_X || method == SUDOKU_METHOD_DLX) {
        rc = solve_exact_cover(&m->shape, m, puzzle, opts, method, res);
        goto done;
    }
    rc = run_solve(&m->shape, m, puzzle, opts, method, level, big, res);
done:
    res->code = rc;
    return rc;
}

/* === Result codes === */

/* The codes of sudoku.h by name and sentence, for search_code_name() and
 * search_code_str() (the Makefile lists this table with every puzzle's). */
const search_code_t sudoku_codes[] = {SEARCH_CODE(SUDOKU_ECONFLICT, "two givens break a rule"),
                                      SEARCH_CODE(SUDOKU_ENOBOX, "the size has no default box"),
                                      {0, NULL, NULL}};
