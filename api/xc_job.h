/* xc_job.h -- an exact-cover search run as a pool job, sequential or split
 * into subtrees that run in parallel.  Shared by every endpoint that solves
 * by exact cover (the generic endpoint, Sudoku's dlx / algorithm-x methods,
 * N-Queens' dlx method); each embeds an api_xc_t after its api_job_t and
 * forwards run() and merge() here, keeping render() its own. */
#ifndef PUZZLED_API_XC_JOB_H
#define PUZZLED_API_XC_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "api/request.h"
#include "solvers/xcover/xcover.h"

typedef struct api_xc_item_s api_xc_item_t;

typedef struct api_xc_s {
    /* set by the endpoint (api_xc_init) */
    const xcover_problem_t *problem;
    xcover_engine_t engine;
    uint64_t max_solutions; /* 0 = count every solution, store none */
    unsigned threads;       /* 1 = one sequential item; more = split first */
    uint32_t *base;         /* options forced first (Sudoku givens); owned */
    size_t base_len;
    size_t max_entries; /* entries of one solution at most, terminator included */

    /* results, valid in render() */
    int rc;               /* first negative item code, 0 if none */
    uint64_t found;       /* solutions found (all items) */
    int exhausted;        /* every subtree searched to its end */
    size_t subtrees;      /* 0 when sequential */
    search_stats_t stats; /* summed (max_depth: the deepest) */
    size_t nsols;         /* solutions stored (at most max_solutions) */

    /* private */
    uint32_t *roots;
    size_t *root_start;
    api_xc_item_t *items;
    size_t merged;  /* search items merged so far */
    uint32_t *sols; /* stored solutions' options, back to back */
    size_t sols_len, sols_cap;
    struct api_xc_sol_s *sol; /* where each stored solution is, and its subtree */
    size_t sol_cap;
} api_xc_t;

/* Sets up a run on `problem` (not owned; it must outlive the job) with the
 * base options `base` (copied).  Returns 0 or API_ENOMEM. */
int api_xc_init(api_xc_t *x, const xcover_problem_t *problem, xcover_engine_t engine,
                uint64_t max_solutions, unsigned threads, const uint32_t *base, size_t base_len);

/* The job's run() and merge() for item `item`; merge() may raise
 * job->nitems once the split is known (item 0 of a parallel run). */
int api_xc_run(api_xc_t *x, size_t item, const search_ctl_t *ctl);
int api_xc_merge(api_xc_t *x, api_job_t *job, size_t item, int rc);

/* Orders the stored solutions as a sequential search would list them
 * (subtree order); call once, in render(). */
void api_xc_finish(api_xc_t *x);

/* The k-th stored solution (after api_xc_finish): its options (ascending)
 * and their number.  O(1). */
size_t api_xc_solution(const api_xc_t *x, size_t k, const uint32_t **options);

/* Frees what the run holds (not the problem). */
void api_xc_destroy(api_xc_t *x);

#endif
