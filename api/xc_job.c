/* xc_job.c -- exact cover on the pool.
 *
 * Sequential (threads == 1): one item, the whole search below the base.
 *
 * Parallel (threads > 1): item 0 runs xcover_split() on a worker (the split
 * walks the top of the tree, which may take a while on a hard problem, so it
 * does not belong on the HTTP thread) and asks for about 16 subtrees per
 * thread, so that uneven subtrees still balance.  Its merge raises
 * job->nitems to 1 + the number of subtrees, which the pool picks up when it
 * refills the window; item k >= 1 solves subtree k-1 with the base and the
 * root forced.  Every subtree looks for max_solutions on its own; merge()
 * keeps solutions until max_solutions are in and then cancels the subtrees
 * still running: the first solution found ends a "find one" search.  With
 * more solutions than asked for, which ones come back may therefore differ
 * from a sequential run; counts of an exhausted search are always the same.
 *
 * Memory: a subtree's solutions go to a buffer its worker allocates before
 * the search, and merge() (loop thread) copies what it keeps and frees it,
 * so at most `threads` such buffers exist at once. */
#include "api/xc_job.h"

#include <stdlib.h>
#include <string.h>

#define XC_ROOTS_PER_THREAD 16

struct api_xc_sol_s {
    size_t subtree;
    size_t start, len;
};

struct api_xc_item_s {
    uint32_t *buf;
    size_t cap;
    xcover_result_t res;
    xcover_split_info_t split;
};

int api_xc_init(api_xc_t *x, const xcover_problem_t *problem, xcover_engine_t engine,
                uint64_t max_solutions, unsigned threads, const uint32_t *base, size_t base_len) {
    xcover_info_t info;
    memset(x, 0, sizeof *x);
    x->problem = problem;
    x->engine = engine;
    x->max_solutions = max_solutions;
    x->threads = threads ? threads : 1;
    x->exhausted = 1;
    xcover_problem_info(problem, &info);
    /* a solution chooses one option per covered primary item at most, plus
     * forced options: bounded by the options there are */
    x->max_entries =
        (size_t)(info.nprimary < info.noptions ? info.nprimary : info.noptions) + base_len + 1;
    if (x->threads == 1 && (x->items = calloc(1, sizeof *x->items)) == NULL) return API_ENOMEM;
    if (base_len > 0) {
        x->base = malloc(base_len * sizeof *x->base);
        if (x->base == NULL) return API_ENOMEM;
        memcpy(x->base, base, base_len * sizeof *base);
        x->base_len = base_len;
    }
    return 0;
}

static int xc_is_split_item(const api_xc_t *x, size_t item) { return x->threads > 1 && item == 0; }

static int xc_run_split(api_xc_t *x, const search_ctl_t *ctl) {
    xcover_split_opts_t o;
    xcover_split_info_t info;
    int rc;
    memset(&o, 0, sizeof o);
    o.base = x->base;
    o.base_len = x->base_len;
    o.depth = 0;
    o.target = (size_t)x->threads * XC_ROOTS_PER_THREAD;
    o.ctl = ctl;
    rc = xcover_split(x->problem, &o, NULL, 0, &info); /* sizes the buffer */
    if (rc != 0 && rc != XCOVER_ESPACE) return rc;
    x->roots = malloc((info.entries ? info.entries : 1) * sizeof *x->roots);
    x->root_start = malloc((info.count ? info.count : 1) * sizeof *x->root_start);
    if (x->roots == NULL || x->root_start == NULL) return SEARCH_ENOMEM;
    o.depth = info.depth;
    rc = xcover_split(x->problem, &o, x->roots, info.entries, &info);
    x->stats.nodes += info.stats.nodes;
    x->stats.backtracks += info.stats.backtracks;
    if (rc != 0) return rc;
    for (size_t k = 0, off = 0; k < info.count; k++) {
        x->root_start[k] = off;
        off += xcover_root_len(x->roots + off) + 1;
    }
    x->subtrees = info.count;
    return 0;
}

int api_xc_run(api_xc_t *x, size_t item, const search_ctl_t *ctl) {
    xcover_opts_t o;
    uint32_t *prefix = NULL;
    size_t prefix_len = x->base_len;
    api_xc_item_t *it;
    int rc;

    if (xc_is_split_item(x, item)) return xc_run_split(x, ctl);
    it = &x->items[x->threads > 1 ? item - 1 : 0];
    if (x->threads > 1) { /* base + root */
        const uint32_t *root = x->roots + x->root_start[item - 1];
        size_t rl = xcover_root_len(root);
        prefix = malloc((x->base_len + rl + 1) * sizeof *prefix);
        if (prefix == NULL) return SEARCH_ENOMEM;
        if (x->base_len) memcpy(prefix, x->base, x->base_len * sizeof *prefix);
        memcpy(prefix + x->base_len, root, rl * sizeof *prefix);
        prefix_len += rl;
    }
    if (x->max_solutions > 0) {
        it->cap = (size_t)x->max_solutions * x->max_entries;
        free(it->buf); /* a run tried before and cut short (restartable) */
        it->buf = malloc(it->cap * sizeof *it->buf);
        if (it->buf == NULL) {
            free(prefix);
            return SEARCH_ENOMEM;
        }
    }
    xcover_opts_init(&o);
    o.engine = x->engine;
    o.max_solutions = x->max_solutions;
    o.solutions = it->buf;
    o.solutions_cap = it->buf ? it->cap : 0;
    o.prefix = prefix ? prefix : x->base;
    o.prefix_len = prefix_len;
    o.ctl = ctl;
    rc = xcover_solve(x->problem, &o, &it->res);
    free(prefix);
    return rc;
}

static int xc_keep(api_xc_t *x, size_t subtree, const uint32_t *sol, size_t len) {
    if (x->sols_len + len > x->sols_cap) {
        size_t cap = x->sols_cap ? x->sols_cap * 2 : 256;
        while (cap < x->sols_len + len)
            cap *= 2;
        uint32_t *p = realloc(x->sols, cap * sizeof *p);
        if (p == NULL) return -1;
        x->sols = p;
        x->sols_cap = cap;
    }
    if (x->nsols == x->sol_cap) {
        size_t cap = x->sol_cap ? x->sol_cap * 2 : 16;
        struct api_xc_sol_s *q = realloc(x->sol, cap * sizeof *q);
        if (q == NULL) return -1;
        x->sol = q;
        x->sol_cap = cap;
    }
    if (len) memcpy(x->sols + x->sols_len, sol, len * sizeof *sol);
    x->sol[x->nsols].subtree = subtree;
    x->sol[x->nsols].start = x->sols_len;
    x->sol[x->nsols].len = len;
    x->nsols++;
    x->sols_len += len;
    return 0;
}

int api_xc_merge(api_xc_t *x, api_job_t *job, size_t item, int rc) {
    api_xc_item_t *it;
    if (rc < 0 && x->rc == 0) x->rc = rc;
    if (xc_is_split_item(x, item)) {
        if (rc != 0) return API_JOB_CANCEL;
        x->items = calloc(x->subtrees ? x->subtrees : 1, sizeof *x->items);
        if (x->items == NULL) {
            x->rc = SEARCH_ENOMEM;
            return API_JOB_CANCEL;
        }
        job->nitems = 1 + x->subtrees; /* the pool now schedules the subtrees */
        job->progress_unit = "subtrees";
        job->nodes = x->stats.nodes;
        return API_JOB_CONTINUE;
    }
    it = &x->items[x->threads > 1 ? item - 1 : 0];
    x->stats.nodes += it->res.stats.nodes;
    x->stats.backtracks += it->res.stats.backtracks;
    x->stats.propagations += it->res.stats.propagations;
    if (it->res.stats.max_depth > x->stats.max_depth) x->stats.max_depth = it->res.stats.max_depth;
    job->nodes = x->stats.nodes;
    if (!it->res.exhausted) x->exhausted = 0;
    x->found += it->res.solutions_found;
    for (size_t k = 0, off = 0; k < it->res.solutions_stored; k++) {
        size_t len = xcover_root_len(it->buf + off);
        if (x->max_solutions == 0 || x->nsols < x->max_solutions)
            if (xc_keep(x, item, it->buf + off, len) != 0 && x->rc == 0) x->rc = SEARCH_ENOMEM;
        off += len + 1;
    }
    free(it->buf);
    it->buf = NULL;
    if (rc < 0) return API_JOB_CANCEL;
    x->merged++;
    if (x->max_solutions > 0 && x->found >= x->max_solutions) {
        if (x->merged < (x->threads > 1 ? x->subtrees : 1)) x->exhausted = 0; /* others cut short */
        return API_JOB_CANCEL;
    }
    return API_JOB_CONTINUE;
}

static int xc_sol_cmp(const void *a, const void *b) {
    const struct api_xc_sol_s *x = a, *y = b;
    if (x->subtree != y->subtree) return x->subtree < y->subtree ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start; /* arrival order within one */
}

void api_xc_finish(api_xc_t *x) {
    if (x->nsols > 1) qsort(x->sol, x->nsols, sizeof *x->sol, xc_sol_cmp);
}

size_t api_xc_solution(const api_xc_t *x, size_t k, const uint32_t **options) {
    *options = x->sols + x->sol[k].start;
    return x->sol[k].len;
}

void api_xc_destroy(api_xc_t *x) {
    size_t n = x->threads > 1 ? x->subtrees : 1;
    for (size_t k = 0; x->items != NULL && k < n; k++)
        free(x->items[k].buf);
    free(x->items);
    free(x->roots);
    free(x->root_start);
    free(x->sols);
    free(x->sol);
    free(x->base);
    memset(x, 0, sizeof *x);
}
