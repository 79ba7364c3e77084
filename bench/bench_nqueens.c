/* bench_nqueens.c -- how fast solvers/nqueens/nqueens.c counts, on one and two threads.
 *
 *   bench_nqueens            n = 14..17
 *   bench_nqueens LO HI      n = LO..HI (at most NQUEENS_COUNT_MAX_N)
 *   bench_nqueens count N T  one count of N on T threads (T = 1: nqueens_count(),
 *                            else the split on T pthreads), one line:
 *                            "n=.. threads=.. count=.. ok wall=.. cpu=.. span=..
 *                            nodes=.." (what bench/compare/nqueens.sh reads;
 *                            span = the busiest thread's CPU time)
 *
 * For each n the table prints, and checks against OEIS A000170:
 *   count   nqueens_count() on the calling thread: the single-thread figure
 *   split   nqueens_split() (the border classes), counted by two pthreads
 *           that pull batches of BATCH subproblems from an atomic index (the
 *           way the server's pool runs a count)
 *   nosym   nqueens_count() without symmetry (n <= 15 only), for the gain
 * and, for the split, how many subproblems there were and how long the
 * slowest batch took: that bounds how long another request can wait behind
 * a count in a pool worker.
 *
 * Wall time is CLOCK_MONOTONIC, CPU time CLOCK_PROCESS_CPUTIME_ID (all
 * threads).  Exits 1 if any count is wrong. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/nqueens/nqueens.h"

#define SPLIT_THREADS 2
#define BATCH         4 /* subproblems per pull: the engine interleaves three */

/* OEIS A000170, n = 0..27. */
/* clang-format off */
static const uint64_t a000170[] = {
    1ull, 1ull, 0ull, 0ull, 2ull, 10ull, 4ull, 40ull, 92ull, 352ull, 724ull, 2680ull, 14200ull,
    73712ull, 365596ull, 2279184ull, 14772512ull, 95815104ull, 666090624ull, 4968057848ull,
    39029188884ull, 314666222712ull, 2691008701644ull, 24233937684440ull, 227514171973736ull,
    2207893435808352ull, 22317699616364044ull, 234907967154122528ull,
};
/* clang-format on */

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* === Pool === */

/* Shared by the workers of one split count; each worker owns its slot of
 * units/stats/slowest, so only `next` is contended. */
typedef struct pool_s {
    const nqueens_sub_t *subs;
    size_t nsubs;
    atomic_size_t next;
} pool_t;

typedef struct worker_s {
    pool_t *pool;
    pthread_t tid;
    uint64_t count;
    search_stats_t stats;
    double slowest; /* seconds */
    size_t slowest_idx;
    double cpu; /* the thread's CPU time, at its end */
    int rc;
} worker_t;

static void *worker_main(void *arg) {
    worker_t *w = arg;
    pool_t *p = w->pool;
    for (;;) {
        const size_t i = atomic_fetch_add(&p->next, BATCH);
        if (i >= p->nsubs) break;
        const size_t k = p->nsubs - i < BATCH ? p->nsubs - i : BATCH;
        const double t0 = clock_s(CLOCK_MONOTONIC);
        const int rc = nqueens_count_subs(&p->subs[i], k, NULL, &w->count, &w->stats);
        const double dt = clock_s(CLOCK_MONOTONIC) - t0;
        if (rc != 0 && w->rc == 0) w->rc = rc;
        if (dt > w->slowest) {
            w->slowest = dt;
            w->slowest_idx = i;
        }
    }
    w->cpu = clock_s(CLOCK_THREAD_CPUTIME_ID);
    return NULL;
}

/* === Table === */

static int failures;

static void row(int n, const char *mode, int threads, uint64_t count, double wall, double cpu,
                uint64_t nodes) {
    const int ok = (size_t)n < sizeof a000170 / sizeof a000170[0] && count == a000170[n];
    if (!ok) failures++;
    printf("%3d  %-6s %3d  %20llu  %-4s %9.3f %9.3f  %14llu %9.1f\n", n, mode, threads,
           (unsigned long long)count, ok ? "ok" : "FAIL", wall, cpu, (unsigned long long)nodes,
           wall > 0 ? (double)nodes / wall / 1e6 : 0.0);
    fflush(stdout);
}

static void bench_count(int n, int symmetry) {
    search_stats_t st = {0};
    uint64_t count = 0;
    const double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    const int rc = nqueens_count(n, symmetry, NULL, &count, &st);
    const double wall = clock_s(CLOCK_MONOTONIC) - w0;
    const double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (rc != 0) fprintf(stderr, "n=%d: nqueens_count returned %d\n", n, rc);
    row(n, symmetry ? "count" : "nosym", 1, count, wall, cpu, st.nodes);
}

/* Counts n on `threads` pthreads; returns 0 and sets the figures. */
/* *span is the most CPU one worker used: the wall time the count would take
 * on `threads` idle cores (a shared machine's wall clock cannot show it). */
static int split_count(int n, int threads, uint64_t *count, double *wall, double *cpu, double *span,
                       uint64_t *nodes, double *slowest, size_t *slowest_idx, size_t *total) {
    const int depth = 0;
    size_t nsubs = 0;
    nqueens_split(n, depth, 1, NULL, 0, &nsubs);
    nqueens_sub_t *subs = calloc(nsubs ? nsubs : 1, sizeof *subs);
    worker_t *ws = calloc((size_t)threads, sizeof *ws);
    if (subs == NULL || ws == NULL || nqueens_split(n, depth, 1, subs, nsubs, &nsubs) != 0) {
        fprintf(stderr, "n=%d: split failed\n", n);
        free(subs);
        free(ws);
        return -1;
    }
    *total = nsubs;
    pool_t pool = {.subs = subs, .nsubs = nsubs};
    atomic_init(&pool.next, 0);

    const double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int t = 0; t < threads; t++) {
        ws[t].pool = &pool;
        if (pthread_create(&ws[t].tid, NULL, worker_main, &ws[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(2);
        }
    }
    int rc = 0;
    *count = *nodes = 0;
    *slowest = *span = 0;
    *slowest_idx = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ws[t].tid, NULL);
        *count += ws[t].count;
        *nodes += ws[t].stats.nodes;
        if (ws[t].rc != 0) rc = ws[t].rc;
        if (ws[t].cpu > *span) *span = ws[t].cpu;
        if (ws[t].slowest > *slowest) {
            *slowest = ws[t].slowest;
            *slowest_idx = ws[t].slowest_idx;
        }
    }
    *wall = clock_s(CLOCK_MONOTONIC) - w0;
    *cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (rc != 0) fprintf(stderr, "n=%d: nqueens_count_subs returned %d\n", n, rc);
    free(subs);
    free(ws);
    return rc;
}

static void bench_split(int n, int threads) {
    uint64_t count, nodes;
    double wall, cpu, span, slowest;
    size_t slowest_idx, total;
    if (split_count(n, threads, &count, &wall, &cpu, &span, &nodes, &slowest, &slowest_idx,
                    &total) != 0)
        return;
    row(n, "split", threads, count, wall, cpu, nodes);
    printf("     %zu subproblems in batches of %d, slowest batch %.1f ms (from subproblem %zu); "
           "busiest worker %.3f s CPU of %.3f s\n",
           total, BATCH, slowest * 1e3, slowest_idx, span, cpu);
}

/* One count, one line: the interface of bench/compare/nqueens.sh. */
static int one_count(int n, int threads) {
    uint64_t count = 0, nodes = 0;
    double wall, cpu, span;
    if (threads <= 1) {
        search_stats_t st = {0};
        const double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        if (nqueens_count(n, 1, NULL, &count, &st) != 0) return 1;
        wall = clock_s(CLOCK_MONOTONIC) - w0;
        cpu = span = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        nodes = st.nodes;
    } else {
        double slowest;
        size_t idx, total;
        if (split_count(n, threads, &count, &wall, &cpu, &span, &nodes, &slowest, &idx, &total) !=
            0)
            return 1;
    }
    const int ok = (size_t)n < sizeof a000170 / sizeof a000170[0] && count == a000170[n];
    printf("n=%d threads=%d count=%llu %s wall=%.3f cpu=%.3f span=%.3f nodes=%llu\n", n, threads,
           (unsigned long long)count, ok ? "ok" : "FAIL", wall, cpu, span,
           (unsigned long long)nodes);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    int lo = 14, hi = 17;
    if (argc == 4 && strcmp(argv[1], "count") == 0) {
        const int n = atoi(argv[2]), threads = atoi(argv[3]);
        if (n < 1 || n > NQUEENS_COUNT_MAX_N || threads < 1 || threads > 64) {
            fprintf(stderr, "need 1 <= N <= %d and 1 <= T <= 64\n", NQUEENS_COUNT_MAX_N);
            return 2;
        }
        return one_count(n, threads);
    }
    if (argc == 3) {
        lo = atoi(argv[1]);
        hi = atoi(argv[2]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [LO HI]\n", argv[0]);
        return 2;
    }
    if (lo < 1 || hi > NQUEENS_COUNT_MAX_N || lo > hi) {
        fprintf(stderr, "need 1 <= LO <= HI <= %d\n", NQUEENS_COUNT_MAX_N);
        return 2;
    }
    printf("N-Queens counting (solvers/nqueens/nqueens.c): wall = CLOCK_MONOTONIC, "
           "CPU = CLOCK_PROCESS_CPUTIME_ID\n");
    printf("%3s  %-6s %3s  %20s  %-4s %9s %9s  %14s %9s\n", "n", "mode", "thr", "count", "OK",
           "wall s", "CPU s", "nodes", "Mnodes/s");
    for (int n = lo; n <= hi; n++) {
        bench_count(n, 1);
        bench_split(n, SPLIT_THREADS);
        if (n <= 15) bench_count(n, 0);
    }
    if (failures) fprintf(stderr, "%d wrong count(s)\n", failures);
    return failures ? 1 : 0;
}
