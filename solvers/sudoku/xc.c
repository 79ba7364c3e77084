/* sudoku/xc.c -- Sudoku <-> exact cover (layout and numbering in
 * sudoku/xc.h).
 *
 * Building: the problem has a fixed shape -- every option has exactly four
 * items -- so option_start is k*4 and the items are computed, not searched.
 * A 64x64 problem has 262,144 options and 1,048,576 entries (the xcover
 * limits are sized for it); the spec arrays are temporary (freed once
 * xcover_problem_new has copied them).
 *
 * Solving: the givens are turned into options and forced, then the caller's
 * prefix (a split root), then the search runs; each solution (a set of n^2
 * options) is turned into a grid by the solution callback, straight into
 * the caller's buffer, so nothing proportional to max_solutions is
 * allocated here.  Givens that break a rule are reported as
 * SUDOKU_ECONFLICT before any search, as sudoku_solve() does.
 *
 * Rejected: building a smaller problem per puzzle (only the options the
 * givens allow).  It would make each node cheaper at the start but costs a
 * build per puzzle and makes problems puzzle-specific, so they could not be
 * shared by the threads of a parallel solve or across a batch.
 *
 * Thread-safety: reentrant, no globals; problems are read-only. */
#include <string.h>

#include "solvers/sudoku/xc.h"
#include "solvers/xcover/internal.h" /* xcover__alloc / xcover__free */

int sudoku_xc_problem_new(const sudoku_shape_t *shape, const search_allocator_t *alloc,
                          xcover_problem_t **out) {
    const search_allocator_t *a = alloc;
    xcover_spec_t spec;
    uint32_t *start = NULL, *items = NULL, n, n2, k;
    int rc, r, c, v;

    if (out == NULL || sudoku_shape_check(shape) != 0) return SEARCH_EINVAL;
    if (!search_allocator_ok(a)) return SEARCH_EINVAL;
    n = (uint32_t)shape->n;
    n2 = n * n;
    rc = SEARCH_ENOMEM;
    start = xcover__alloc(a, ((size_t)n2 * n + 1) * sizeof *start);
    items = xcover__alloc(a, (size_t)n2 * n * 4 * sizeof *items);
    if (start == NULL || items == NULL) goto done;
    for (r = 0; r < (int)n; r++) {
        for (c = 0; c < (int)n; c++) {
            uint32_t b = (uint32_t)sudoku_box_of(shape, r, c);
            for (v = 0; v < (int)n; v++) {
                k = ((uint32_t)r * n + (uint32_t)c) * n + (uint32_t)v;
                start[k] = 4 * k;
                items[4 * k + 0] = (uint32_t)r * n + (uint32_t)c;
                items[4 * k + 1] = n2 + (uint32_t)r * n + (uint32_t)v;
                items[4 * k + 2] = 2 * n2 + (uint32_t)c * n + (uint32_t)v;
                items[4 * k + 3] = 3 * n2 + b * n + (uint32_t)v;
            }
        }
    }
    start[n2 * n] = 4 * n2 * n;
    spec.nprimary = 4 * n2;
    spec.nsecondary = 0;
    spec.noptions = n2 * n;
    spec.option_start = start;
    spec.items = items;
    rc = xcover_problem_new(&spec, alloc, out, NULL);

done:
    xcover__free(a, start);
    xcover__free(a, items);
    return rc;
}

int sudoku_xc_givens(const sudoku_shape_t *shape, const uint8_t *puzzle, uint32_t *options,
                     size_t *count) {
    int i, n2;
    size_t m = 0;
    if (options == NULL || count == NULL) return SEARCH_EINVAL;
    if (sudoku_check_values(shape, puzzle) != 0) return SEARCH_EINVAL;
    n2 = shape->n * shape->n;
    for (i = 0; i < n2; i++)
        if (puzzle[i] != 0) options[m++] = sudoku_xc_option(shape, i, puzzle[i]);
    *count = m;
    return 0;
}

int sudoku_xc_to_grid(const sudoku_shape_t *shape, const uint32_t *options, size_t count,
                      uint8_t *grid) {
    uint32_t n3;
    size_t j;
    if (sudoku_shape_check(shape) != 0 || grid == NULL || (options == NULL && count > 0))
        return SEARCH_EINVAL;
    n3 = (uint32_t)shape->n * (uint32_t)shape->n * (uint32_t)shape->n;
    memset(grid, 0, (size_t)shape->n * (size_t)shape->n);
    for (j = 0; j < count; j++) {
        int cell, value;
        if (options[j] >= n3) return SEARCH_EINVAL;
        sudoku_xc_decode(shape, options[j], &cell, &value);
        if (grid[cell] != 0) return SEARCH_EINVAL;
        grid[cell] = (uint8_t)value;
    }
    return 0;
}

void sudoku_xc_opts_init(sudoku_xc_opts_t *opts) {
    memset(opts, 0, sizeof *opts);
    opts->engine = XCOVER_ENGINE_DLX;
    opts->max_solutions = 1;
}

/* Returns 0 if p is the problem of `shape`: its sizes, and the box item of
 * every cell of row 0 (box widths differ => some cell of row 0 differs) and
 * of column 0 (box heights). */
static int problem_fits(const sudoku_shape_t *shape, const xcover_problem_t *p) {
    xcover_info_t info;
    uint32_t n = (uint32_t)shape->n, n2 = n * n, i;
    xcover_problem_info(p, &info);
    if (info.nprimary != 4 * n2 || info.nsecondary != 0 || info.noptions != n2 * n)
        return SEARCH_EINVAL;
    for (i = 0; i < 2 * n; i++) {
        int r = i < n ? 0 : (int)(i - n), c = i < n ? (int)i : 0;
        const uint32_t *items;
        uint32_t b = (uint32_t)sudoku_box_of(shape, r, c);
        uint32_t k = sudoku_xc_option(shape, r * (int)n + c, 1);
        if (xcover_problem_option(p, k, &items) != 4 || items[3] != 3 * n2 + b * n)
            return SEARCH_EINVAL;
    }
    return 0;
}

/* Givens of `puzzle` in rows, columns and boxes agree?  0 or SUDOKU_ECONFLICT. */
static int givens_agree(const sudoku_shape_t *shape, const uint8_t *puzzle) {
    size_t count = 0;
    if (sudoku_find_conflicts(shape, puzzle, NULL, 0, &count) != 0) return SEARCH_EINVAL;
    return count == 0 ? 0 : SUDOKU_ECONFLICT;
}

typedef struct grid_sink_s {
    const sudoku_shape_t *shape;
    uint8_t *solutions; /* NULL: count only */
    uint32_t written;
} grid_sink_t;

/* Solution callback: the n^2 options of a solution become grid `written`. */
static int grid_out(void *ud, const uint32_t *options, size_t count) {
    grid_sink_t *g = ud;
    size_t n2 = (size_t)g->shape->n * (size_t)g->shape->n;
    if (g->solutions != NULL)
        (void)sudoku_xc_to_grid(g->shape, options, count, g->solutions + g->written * n2);
    g->written++;
    return 0;
}

/* Forced options for a solve: givens then the prefix, in `buf`. */
static size_t forced_options(const sudoku_shape_t *shape, const uint8_t *puzzle,
                             const uint32_t *prefix, size_t prefix_len, uint32_t *buf) {
    size_t m = 0;
    (void)sudoku_xc_givens(shape, puzzle, buf, &m); /* values checked by the caller */
    if (prefix_len > 0) memcpy(buf + m, prefix, prefix_len * sizeof *buf);
    return m + prefix_len;
}

int sudoku_xc_solve(const sudoku_shape_t *shape, const uint8_t *puzzle,
                    const sudoku_xc_opts_t *opts, sudoku_xc_result_t *res) {
    sudoku_xc_opts_t defaults;
    xcover_problem_t *own = NULL;
    const xcover_problem_t *p;
    const search_allocator_t *a = NULL;
    uint32_t *forced = NULL;
    xcover_opts_t xo;
    xcover_result_t xr;
    grid_sink_t sink;
    xcover_info_t info;
    size_t n2;
    int rc;

    if (res == NULL) return SEARCH_EINVAL;
    memset(res, 0, sizeof *res);
    if (opts == NULL) {
        sudoku_xc_opts_init(&defaults);
        opts = &defaults;
    }
    a = search_allocator_of(opts->alloc, opts->ctl);
    rc = sudoku_check_values(shape, puzzle);
    if (rc != 0) goto done;
    rc = SEARCH_EINVAL;
    if ((unsigned)opts->engine >= XCOVER_ENGINE_COUNT) goto done;
    if (opts->max_solutions < 1 || opts->max_solutions > SUDOKU_MAX_SOLUTIONS) goto done;
    if (opts->prefix_len > 0 && opts->prefix == NULL) goto done;
    if (opts->prefix_len > (size_t)shape->n * (size_t)shape->n * (size_t)shape->n) goto done;
    if (!search_allocator_ok(a)) goto done;
    if (opts->problem != NULL && problem_fits(shape, opts->problem) != 0) goto done;
    rc = givens_agree(shape, puzzle);
    if (rc != 0) goto done;
    rc = search_check_now(opts->ctl, 0);
    if (rc != 0) goto done;

    n2 = (size_t)shape->n * (size_t)shape->n;
    p = opts->problem;
    if (p == NULL) {
        rc = sudoku_xc_problem_new(shape, a, &own);
        if (rc != 0) goto done;
        p = own;
    }
    rc = SEARCH_ENOMEM;
    forced = xcover__alloc(a, (n2 + opts->prefix_len) * sizeof *forced);
    if (forced == NULL) goto done;

    sink.shape = shape;
    sink.solutions = opts->solutions;
    sink.written = 0;
    xcover_opts_init(&xo);
    xo.engine = opts->engine;
    xo.max_solutions = opts->max_solutions;
    xo.on_solution = grid_out;
    xo.on_solution_ud = &sink;
    xo.prefix = forced;
    xo.prefix_len = forced_options(shape, puzzle, opts->prefix, opts->prefix_len, forced);
    xo.ctl = opts->ctl;
    xo.alloc = a;
    rc = xcover_solve(p, &xo, &xr);
    res->solutions_found = (uint32_t)xr.solutions_found;
    res->exhausted = xr.exhausted;
    res->stats = xr.stats;
    res->mem_bytes = xr.mem_bytes;
    if (own != NULL) {
        xcover_problem_info(own, &info);
        res->mem_bytes += info.bytes;
    }

done:
    xcover__free(a, forced);
    xcover_problem_free(own);
    res->code = rc;
    return rc;
}

int sudoku_xc_split(const sudoku_shape_t *shape, const uint8_t *puzzle,
                    const xcover_problem_t *problem, const xcover_split_opts_t *o, uint32_t *roots,
                    size_t cap, xcover_split_info_t *info) {
    const search_allocator_t *a = NULL;
    xcover_split_opts_t so;
    uint32_t *givens = NULL;
    size_t ng = 0;
    int rc = SEARCH_EINVAL;

    if (info == NULL) return SEARCH_EINVAL;
    memset(info, 0, sizeof *info);
    if (o == NULL || problem == NULL) goto done;
    a = search_allocator_of(o->alloc, o->ctl);
    if (!search_allocator_ok(a)) goto done;
    rc = sudoku_check_values(shape, puzzle);
    if (rc != 0) goto done;
    rc = SEARCH_EINVAL;
    if (problem_fits(shape, problem) != 0) goto done;
    rc = givens_agree(shape, puzzle);
    if (rc != 0) goto done;
    rc = SEARCH_ENOMEM;
    givens = xcover__alloc(a, (size_t)shape->n * (size_t)shape->n * sizeof *givens);
    if (givens == NULL) goto done;
    (void)sudoku_xc_givens(shape, puzzle, givens, &ng);
    so = *o;
    so.base = givens;
    so.base_len = ng;
    rc = xcover_split(problem, &so, roots, cap, info);

done:
    if (givens != NULL) xcover__free(a, givens);
    info->code = rc;
    return rc;
}
