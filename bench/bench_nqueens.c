/* bench_nqueens.c -- how fast solvers/nqueens/nqueens.c counts, on one and two threads.
 *
 *   bench_nqueens            n = 14..17
 *   bench_nqueens LO HI      n = LO..HI (at most NQUEENS_COUNT_MAX_N)
 *
 * For each n it prints, and checks against OEIS A000170:
 *   count   nqueens_count() on the calling thread: the single-thread figure
 *   split   nqueens_split() into a few hundred to a few thousand subproblems,
 *           counted by two pthreads that pull them from an atomic index (the
 *           way the server's pool runs a count)
 *   nosym   nqueens_count() without symmetry (n <= 15 only), for the gain
 * and, for the split, how many subproblems there were and how long the
 * slowest took: that bounds how long another request can wait behind a count
 * in a pool worker.
 *
 * Wall time is CLOCK_MONOTONIC, CPU time CLOCK_PROCESS_CPUTIME_ID (all
 * threads).  Exits 1 if any count is wrong. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "solvers/nqueens/nqueens.h"

#define SPLIT_THREADS  2
#define SPLIT_MIN_SUBS 300 /* the shallowest split with at least this many */

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
    uint64_t units;
    search_stats_t stats;
    double slowest; /* seconds */
    size_t slowest_idx;
    int rc;
} worker_t;

static void *worker_main(void *arg) {
    worker_t *w = arg;
    pool_t *p = w->pool;
    for (;;) {
        const size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->nsubs) break;
        const double t0 = clock_s(CLOCK_MONOTONIC);
        const int rc = nqueens_count_sub(&p->subs[i], NULL, &w->units, &w->stats);
        const double dt = clock_s(CLOCK_MONOTONIC) - t0;
        if (rc != 0 && w->rc == 0) w->rc = rc;
        if (dt > w->slowest) {
            w->slowest = dt;
            w->slowest_idx = i;
        }
    }
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

static const char *class_name(int klass) {
    return klass == NQUEENS_CORNER ? "CORNER" : klass == NQUEENS_SIDE ? "SIDE" : "PLAIN";
}

static int bench_split(int n, int threads) {
    int depth = 1;
    size_t nsubs = 0;
    /* the shallowest split with enough pieces to spread */
    for (depth = 1; depth < n - 1; depth++) {
        nqueens_split(n, depth, 1, NULL, 0, &nsubs);
        if (nsubs >= SPLIT_MIN_SUBS) break;
    }
    nqueens_sub_t *subs = calloc(nsubs ? nsubs : 1, sizeof *subs);
    worker_t *ws = calloc((size_t)threads, sizeof *ws);
    if (subs == NULL || ws == NULL || nqueens_split(n, depth, 1, subs, nsubs, &nsubs) != 0) {
        fprintf(stderr, "n=%d: split failed\n", n);
        free(subs);
        free(ws);
        return -1;
    }
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
    uint64_t units = 0, nodes = 0;
    double slowest = 0;
    size_t slowest_idx = 0;
    int rc = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ws[t].tid, NULL);
        units += ws[t].units;
        nodes += ws[t].stats.nodes;
        if (ws[t].rc != 0) rc = ws[t].rc;
        if (ws[t].slowest > slowest) {
            slowest = ws[t].slowest;
            slowest_idx = ws[t].slowest_idx;
        }
    }
    const double wall = clock_s(CLOCK_MONOTONIC) - w0;
    const double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (rc != 0) fprintf(stderr, "n=%d: nqueens_count_sub returned %d\n", n, rc);
    row(n, "split", threads, nqueens_units_to_count(units), wall, cpu, nodes);

    const nqueens_sub_t *s = &subs[slowest_idx];
    printf("     split depth %d: %zu subproblems, slowest %.1f ms (%s, bound %d, prefix", depth,
           nsubs, slowest * 1e3, class_name(s->klass), s->bound);
    for (int y = 0; y < s->depth; y++)
        printf(" %d", s->cols[y]);
    printf(")\n");
    free(subs);
    free(ws);
    return 0;
}

int main(int argc, char **argv) {
    int lo = 14, hi = 17;
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
