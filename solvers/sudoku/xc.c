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
#include <assert.h>
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

/* === Models ============================================================= */

/* Item counts of a model's problem (see sudoku/xc.h). */
typedef struct xm_size_s {
    uint32_t cells, exact, loose, pairs; /* items of each family */
    uint32_t entries;
} xm_size_t;

static int xm_size(const sudoku_model_t *m, xm_size_t *z) {
    uint32_t n = (uint32_t)m->n;
    int c, u, k;
    memset(z, 0, sizeof *z);
    for (k = 0; k < m->npairs; k++)
        if (m->pairs[k].rule == SUDOKU_PAIR_CONSECUTIVE) return SUDOKU_EMETHOD;
    for (c = 0; c < m->ncells; c++) {
        z->cells += m->live[c];
        if (!m->live[c]) {
            z->entries += n; /* n dead options of one item */
            continue;
        }
        for (uint32_t v = 0; v < n; v++)
            z->entries +=
                (m->allowed[c] >> v & 1)
                    ? 1 + (m->cell_start[c + 1] - m->cell_start[c]) +
                          2 * (m->pair_start != NULL ? m->pair_start[c + 1] - m->pair_start[c] : 0)
                    : 1;
    }
    for (u = 0; u < m->nunits; u++) {
        if (m->unit_start[u + 1] - m->unit_start[u] == n)
            z->exact += n;
        else
            z->loose += n;
    }
    z->pairs = (uint32_t)m->npairs * 2 * (n - 1);
    return 0;
}

/* Items of option (cell c, value v) of a model, into out; returns how many.
 * cell_item[c] is c's cell item, unit_item[u] the first item of unit u,
 * adj_pair[j] the pair of c's pair entry j.  Pair p = (a, b) has 2(n-1)
 * items from pair0 + 2(n-1)p: item 2w excludes a = w+1 with b = w+2, item
 * 2w+1 a = w+2 with b = w+1 (values 1-based, w = 0..n-2). */
static uint32_t xm_option(const sudoku_model_t *m, const xm_size_t *z, const uint32_t *cell_item,
                          const uint32_t *unit_item, const uint32_t *adj_pair, int c, uint32_t v,
                          uint32_t *out) {
    uint32_t n = (uint32_t)m->n, k = 0, pair0 = z->cells + z->exact + z->loose;
    if (!m->live[c] || !(m->allowed[c] >> v & 1)) {
        out[0] = pair0 + z->pairs; /* the dead item, secondary: never chosen */
        return 1;
    }
    out[k++] = cell_item[c];
    for (uint32_t j = m->cell_start[c]; j < m->cell_start[c + 1]; j++)
        out[k++] = unit_item[m->cell_units[j]] + v;
    if (m->pair_start != NULL)
        for (uint32_t j = m->pair_start[c]; j < m->pair_start[c + 1]; j++) {
            uint32_t p = adj_pair[j], base = pair0 + 2 * (n - 1) * p;
            if (m->pairs[p].a == c) { /* c = v (0-based) with b = v+1, and b = v-1 */
                if (v + 1 < n) out[k++] = base + 2 * v;
                if (v > 0) out[k++] = base + 2 * (v - 1) + 1;
            } else { /* c is b: with a = v-1, and a = v+1 */
                if (v > 0) out[k++] = base + 2 * (v - 1);
                if (v + 1 < n) out[k++] = base + 2 * v + 1;
            }
        }
    return k;
}

int sudoku_xc_problem_new_model(const sudoku_model_t *m, const search_allocator_t *alloc,
                                xcover_problem_t **out) {
    xm_size_t z;
    xcover_spec_t spec;
    uint32_t *start = NULL, *items = NULL, *cell_item = NULL, *unit_item = NULL, *adj_pair = NULL,
             k = 0, opt = 0, nadj;
    uint32_t n, pe = 0, le = 0;
    int rc, c, u, p;
    if (out == NULL || m == NULL || !search_allocator_ok(alloc)) return SEARCH_EINVAL;
    rc = xm_size(m, &z);
    if (rc != 0) return rc;
    n = (uint32_t)m->n;
    if ((uint64_t)m->ncells * n > XCOVER_MAX_OPTIONS || z.entries > XCOVER_MAX_NODES ||
        (uint64_t)z.cells + z.exact + z.loose + z.pairs + 1 > XCOVER_MAX_ITEMS)
        return XCOVER_ELIMIT;
    nadj = m->pair_start != NULL ? m->pair_start[m->ncells] : 0;
    rc = SEARCH_ENOMEM;
    start = xcover__alloc(alloc, ((size_t)m->ncells * n + 1) * sizeof *start);
    items = xcover__alloc(alloc, ((size_t)z.entries + 1) * sizeof *items);
    cell_item = xcover__alloc(alloc, (size_t)m->ncells * sizeof *cell_item);
    unit_item = xcover__alloc(alloc, ((size_t)m->nunits + 1) * sizeof *unit_item);
    adj_pair = xcover__alloc(alloc, ((size_t)nadj + 1) * sizeof *adj_pair);
    if (!start || !items || !cell_item || !unit_item || !adj_pair) goto done;
    for (c = 0; c < m->ncells; c++)
        cell_item[c] = m->live[c] ? k++ : 0;
    for (u = 0; u < m->nunits; u++) {
        if (m->unit_start[u + 1] - m->unit_start[u] == n) {
            unit_item[u] = z.cells + pe;
            pe += n;
        } else {
            unit_item[u] = z.cells + z.exact + le;
            le += n;
        }
    }
    for (p = 0; p < m->npairs; p++) /* each pair's entry in both cells' lists */
        for (int side = 0; side < 2; side++) {
            int a = side ? m->pairs[p].b : m->pairs[p].a, b = side ? m->pairs[p].a : m->pairs[p].b;
            for (uint32_t j = m->pair_start[a]; j < m->pair_start[a + 1]; j++)
                if ((int)(m->pair_adj[j] >> 8) == b) adj_pair[j] = (uint32_t)p;
        }
    for (c = 0, k = 0; c < m->ncells; c++)
        for (uint32_t v = 0; v < n; v++) {
            start[opt++] = k;
            k += xm_option(m, &z, cell_item, unit_item, adj_pair, c, v, items + k);
        }
    start[opt] = k;
    assert(k <= z.entries);
    spec.nprimary = z.cells + z.exact;
    spec.nsecondary = z.loose + z.pairs + 1;
    spec.noptions = opt;
    spec.option_start = start;
    spec.items = items;
    rc = xcover_problem_new(&spec, alloc, out, NULL);
done:
    xcover__free(alloc, start);
    xcover__free(alloc, items);
    xcover__free(alloc, cell_item);
    xcover__free(alloc, unit_item);
    xcover__free(alloc, adj_pair);
    return rc;
}

/* === Solving: a shape or a model ======================================== */

/* What a solve is of: a shape, or a model (then shape is its own). */
typedef struct xtarget_s {
    const sudoku_shape_t *shape;
    const sudoku_model_t *model;
    int n, ncells;
} xtarget_t;

static int target_init(xtarget_t *t, const sudoku_shape_t *shape, const sudoku_model_t *model) {
    t->shape = model != NULL ? &model->shape : shape;
    t->model = model;
    if (model == NULL && sudoku_shape_check(shape) != 0) return SEARCH_EINVAL;
    t->n = model != NULL ? model->n : shape->n;
    t->ncells = model != NULL ? model->ncells : shape->n * shape->n;
    return 0;
}

static int target_values(const xtarget_t *t, const uint8_t *puzzle) {
    return t->model != NULL ? sudoku_model_check_values(t->model, puzzle)
                            : sudoku_check_values(t->shape, puzzle);
}

/* Returns 0 if p is the problem of the target.  A shape's: its sizes, and
 * the box item of every cell of row 0 (box widths differ => some cell of
 * row 0 differs) and of column 0 (box heights).  A model's: its sizes. */
static int problem_fits(const xtarget_t *t, const xcover_problem_t *p) {
    const sudoku_shape_t *shape = t->shape;
    xcover_info_t info;
    uint32_t n = (uint32_t)t->n, n2 = n * n, i;
    xcover_problem_info(p, &info);
    if (t->model != NULL) {
        xm_size_t z;
        if (xm_size(t->model, &z) != 0) return SEARCH_EINVAL;
        return info.nprimary == z.cells + z.exact && info.nsecondary == z.loose + z.pairs + 1 &&
                       info.noptions == (uint32_t)t->ncells * n
                   ? 0
                   : SEARCH_EINVAL;
    }
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

/* Givens of `puzzle` break no rule?  0 or SUDOKU_ECONFLICT. */
static int givens_agree(const xtarget_t *t, const uint8_t *puzzle) {
    size_t count = 0;
    int rc = t->model != NULL ? sudoku_model_find_conflicts(t->model, puzzle, NULL, 0, &count)
                              : sudoku_find_conflicts(t->shape, puzzle, NULL, 0, &count);
    if (rc != 0) return SEARCH_EINVAL;
    return count == 0 ? 0 : SUDOKU_ECONFLICT;
}

/* Options of the givens (option = cell * n + value - 1 on either target). */
static size_t target_givens(const xtarget_t *t, const uint8_t *puzzle, uint32_t *options) {
    size_t m = 0;
    for (int i = 0; i < t->ncells; i++)
        if (puzzle[i] != 0) options[m++] = (uint32_t)i * (uint32_t)t->n + puzzle[i] - 1u;
    return m;
}

typedef struct grid_sink_s {
    const xtarget_t *t;
    uint8_t *solutions; /* NULL: count only */
    uint32_t written;
} grid_sink_t;

/* Solution callback: the options of a solution become grid `written` (a
 * model's dead options are never chosen, so every option places a value). */
static int grid_out(void *ud, const uint32_t *options, size_t count) {
    grid_sink_t *g = ud;
    size_t nc = (size_t)g->t->ncells;
    if (g->solutions != NULL) {
        uint8_t *grid = g->solutions + g->written * nc;
        memset(grid, 0, nc);
        for (size_t j = 0; j < count; j++)
            grid[options[j] / (uint32_t)g->t->n] = (uint8_t)(options[j] % (uint32_t)g->t->n + 1);
    }
    g->written++;
    return 0;
}

static int xc_solve(const xtarget_t *t, const uint8_t *puzzle, const sudoku_xc_opts_t *opts,
                    sudoku_xc_result_t *res) {
    const search_allocator_t *a = search_allocator_of(opts->alloc, opts->ctl);
    xcover_problem_t *own = NULL;
    const xcover_problem_t *p;
    uint32_t *forced = NULL;
    xcover_opts_t xo;
    xcover_result_t xr;
    grid_sink_t sink;
    xcover_info_t info;
    size_t nc = (size_t)t->ncells;
    int rc;

    rc = target_values(t, puzzle);
    if (rc != 0) goto done;
    rc = SEARCH_EINVAL;
    if ((unsigned)opts->engine >= XCOVER_ENGINE_COUNT) goto done;
    if (opts->max_solutions < 1 || opts->max_solutions > SUDOKU_MAX_SOLUTIONS) goto done;
    if (opts->prefix_len > 0 && opts->prefix == NULL) goto done;
    if (opts->prefix_len > nc * (size_t)t->n) goto done;
    if (!search_allocator_ok(a)) goto done;
    if (opts->problem != NULL && problem_fits(t, opts->problem) != 0) goto done;
    rc = givens_agree(t, puzzle);
    if (rc != 0) goto done;
    rc = search_check_now(opts->ctl, 0);
    if (rc != 0) goto done;

    p = opts->problem;
    if (p == NULL) {
        rc = t->model != NULL ? sudoku_xc_problem_new_model(t->model, a, &own)
                              : sudoku_xc_problem_new(t->shape, a, &own);
        if (rc != 0) goto done;
        p = own;
    }
    rc = SEARCH_ENOMEM;
    forced = xcover__alloc(a, (nc + opts->prefix_len) * sizeof *forced);
    if (forced == NULL) goto done;

    sink.t = t;
    sink.solutions = opts->solutions;
    sink.written = 0;
    xcover_opts_init(&xo);
    xo.engine = opts->engine;
    xo.max_solutions = opts->max_solutions;
    xo.on_solution = grid_out;
    xo.on_solution_ud = &sink;
    xo.prefix = forced;
    xo.prefix_len = target_givens(t, puzzle, forced);
    if (opts->prefix_len > 0)
        memcpy(forced + xo.prefix_len, opts->prefix, opts->prefix_len * sizeof *forced);
    xo.prefix_len += opts->prefix_len;
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

int sudoku_xc_solve(const sudoku_shape_t *shape, const uint8_t *puzzle,
                    const sudoku_xc_opts_t *opts, sudoku_xc_result_t *res) {
    sudoku_xc_opts_t defaults;
    xtarget_t t;
    if (res == NULL) return SEARCH_EINVAL;
    memset(res, 0, sizeof *res);
    if (opts == NULL) {
        sudoku_xc_opts_init(&defaults);
        opts = &defaults;
    }
    if (target_init(&t, shape, opts->model) != 0) {
        res->code = SEARCH_EINVAL;
        return SEARCH_EINVAL;
    }
    return xc_solve(&t, puzzle, opts, res);
}

static int xc_split(const xtarget_t *t, const uint8_t *puzzle, const xcover_problem_t *problem,
                    const xcover_split_opts_t *o, uint32_t *roots, size_t cap,
                    xcover_split_info_t *info) {
    const search_allocator_t *a = NULL;
    xcover_split_opts_t so;
    uint32_t *givens = NULL;
    int rc = SEARCH_EINVAL;

    if (o == NULL || problem == NULL) goto done;
    a = search_allocator_of(o->alloc, o->ctl);
    if (!search_allocator_ok(a)) goto done;
    rc = target_values(t, puzzle);
    if (rc != 0) goto done;
    rc = SEARCH_EINVAL;
    if (problem_fits(t, problem) != 0) goto done;
    rc = givens_agree(t, puzzle);
    if (rc != 0) goto done;
    rc = SEARCH_ENOMEM;
    givens = xcover__alloc(a, (size_t)t->ncells * sizeof *givens);
    if (givens == NULL) goto done;
    so = *o;
    so.base = givens;
    so.base_len = target_givens(t, puzzle, givens);
    rc = xcover_split(problem, &so, roots, cap, info);

done:
    if (givens != NULL) xcover__free(a, givens);
    info->code = rc;
    return rc;
}

int sudoku_xc_split(const sudoku_shape_t *shape, const uint8_t *puzzle,
                    const xcover_problem_t *problem, const xcover_split_opts_t *o, uint32_t *roots,
                    size_t cap, xcover_split_info_t *info) {
    xtarget_t t;
    if (info == NULL) return SEARCH_EINVAL;
    memset(info, 0, sizeof *info);
    if (target_init(&t, shape, NULL) != 0) {
        info->code = SEARCH_EINVAL;
        return SEARCH_EINVAL;
    }
    return xc_split(&t, puzzle, problem, o, roots, cap, info);
}

int sudoku_xc_split_model(const sudoku_model_t *m, const uint8_t *puzzle,
                          const xcover_problem_t *problem, const xcover_split_opts_t *o,
                          uint32_t *roots, size_t cap, xcover_split_info_t *info) {
    xtarget_t t;
    if (info == NULL) return SEARCH_EINVAL;
    memset(info, 0, sizeof *info);
    if (m == NULL) {
        info->code = SEARCH_EINVAL;
        return SEARCH_EINVAL;
    }
    target_init(&t, NULL, m);
    return xc_split(&t, puzzle, problem, o, roots, cap, info);
}
