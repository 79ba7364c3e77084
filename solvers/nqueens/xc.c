/* nqueens/xc.c -- N-Queens through the exact-cover engines (model in
 * nqueens/xc.h).
 *
 * The spec arrays (at most 1,024 options of 4 items, 20 KB) are allocated
 * and freed around the build rather than put on a worker's small stack.
 * Solutions are at most n options, so they do live on the stack.  Rows and
 * columns come first among the items, so with "fewest options, first on
 * ties" the search starts on row 0 like the bitboard search; it soon
 * wanders to whichever row or column is tightest, which is why the first
 * solution can differ from nqueens_first().  (Knuth orders the items from
 * the middle outwards for speed; we keep the plain order, the point here is
 * a cross-check, not speed.)
 *
 * Thread-safety: reentrant, no globals. */
#include <string.h>

#include "solvers/nqueens/xc.h"
#include "solvers/xcover/internal.h" /* xcover__alloc / xcover__free */

int nqueens_xc_problem_new(int n, xcover_problem_t **out) {
    uint32_t *start, *items, un = (uint32_t)n, r, c, k;
    xcover_spec_t spec;
    int rc;

    if (n < 1 || n > NQUEENS_XC_MAX_N || out == NULL) return SEARCH_EINVAL;
    start = xcover__alloc(NULL, ((size_t)un * un + 1) * sizeof *start);
    items = xcover__alloc(NULL, 4 * (size_t)un * un * sizeof *items);
    rc = SEARCH_ENOMEM;
    if (start == NULL || items == NULL) goto done;
    for (r = 0; r < un; r++) {
        for (c = 0; c < un; c++) {
            k = r * un + c;
            start[k] = 4 * k;
            items[4 * k + 0] = r;
            items[4 * k + 1] = un + c;
            items[4 * k + 2] = 2 * un + r + c;
            items[4 * k + 3] = 4 * un - 1 + (r + un - 1 - c);
        }
    }
    start[un * un] = 4 * un * un;
    spec.nprimary = 2 * un;
    spec.nsecondary = 2 * (2 * un - 1);
    spec.noptions = un * un;
    spec.option_start = start;
    spec.items = items;
    rc = xcover_problem_new(&spec, NULL, out, NULL);
done:
    xcover__free(NULL, start);
    xcover__free(NULL, items);
    return rc;
}

static void add_stats(search_stats_t *to, const search_stats_t *from) {
    if (to == NULL) return;
    to->nodes += from->nodes;
    to->backtracks += from->backtracks;
    to->propagations += from->propagations;
    if (from->max_depth > to->max_depth) to->max_depth = from->max_depth;
}

int nqueens_xc_count(int n, xcover_engine_t engine, const search_ctl_t *ctl, uint64_t *count,
                     search_stats_t *stats) {
    xcover_problem_t *p = NULL;
    xcover_opts_t o;
    xcover_result_t r;
    int rc;

    if (count == NULL || (unsigned)engine >= XCOVER_ENGINE_COUNT) return SEARCH_EINVAL;
    rc = nqueens_xc_problem_new(n, &p);
    if (rc != 0) return rc;
    xcover_opts_init(&o);
    o.engine = engine;
    o.max_solutions = 0; /* all */
    o.ctl = ctl;
    rc = xcover_solve(p, &o, &r);
    *count = r.solutions_found;
    add_stats(stats, &r.stats);
    xcover_problem_free(p);
    return rc;
}

int nqueens_xc_first(int n, xcover_engine_t engine, const search_ctl_t *ctl, int *cols,
                     search_stats_t *stats) {
    uint32_t sol[NQUEENS_XC_MAX_N + 1];
    xcover_problem_t *p = NULL;
    xcover_opts_t o;
    xcover_result_t r;
    int rc, j;

    if (cols == NULL || (unsigned)engine >= XCOVER_ENGINE_COUNT) return SEARCH_EINVAL;
    rc = nqueens_xc_problem_new(n, &p);
    if (rc != 0) return rc;
    xcover_opts_init(&o);
    o.engine = engine;
    o.max_solutions = 1;
    o.solutions = sol;
    o.solutions_cap = (size_t)n + 1;
    o.ctl = ctl;
    rc = xcover_solve(p, &o, &r);
    add_stats(stats, &r.stats);
    if (rc == 0 && r.solutions_found == 0) rc = 1;
    if (rc == 0) {
        for (j = 0; j < n; j++)
            cols[sol[j] / (uint32_t)n] = (int)(sol[j] % (uint32_t)n);
    }
    xcover_problem_free(p);
    return rc;
}
