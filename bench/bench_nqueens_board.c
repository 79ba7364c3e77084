/* bench_nqueens_board.c -- how fast the heuristic N-Queens solvers are.
 *
 *   bench_nqueens_board            everything below
 *   bench_nqueens_board mrv LO HI  nqueens_mrv() for n = LO..HI only
 *   bench_nqueens_board mc [START] N...  nqueens_repair() for the given n only,
 *                                 from START (constructed, greedy, random;
 *                                 default constructed)
 *   bench_nqueens_board deadline [MS]  the deadline section only (MS: 1000)
 *
 * Sections:
 *   mrv      nqueens_mrv() for every n = 4..1000 (2 s deadline each): the
 *            slowest n and its time, the total, and any n that failed
 *   mc       nqueens_repair() at n = 10^5, 10^6, 10^7, seed 1: wall time,
 *            moves, restarts, initial conflicts, the bytes the solver was
 *            given (scratch + cols) and getrusage() maxrss after the run
 *   auto     the figures behind nqueens_auto_method(): nqueens_first() for
 *            n = 20..36, and mrv against minconflicts at a few n
 *   deadline every long search at a size where it cannot finish, under a
 *            deadline of MS ms: how long after the deadline it returned
 *            (the overshoot: the time between two polls, plus set-up)
 * Every board is checked with nqueens_verify(); exits 1 on any failure.
 * Wall time is CLOCK_MONOTONIC; the machine is shared, so compare within a
 * run (or count instructions with perf stat). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "solvers/nqueens/board.h"
#include "solvers/nqueens/nqueens.h"
#include "solvers/nqueens/heur.h"
#include "solvers/nqueens/repair.h"

static double secs_since(int64_t t0) { return (double)(search_now_ns() - t0) / 1e9; }

static long maxrss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int check(int n, const int *cols) {
    unsigned char *v = malloc(nqueens_verify_scratch(n));
    const int ok = v != NULL && nqueens_verify(n, cols, v);
    free(v);
    return ok;
}

/* === mrv === */

static int bench_mrv(int lo, int hi) {
    int *cols = malloc(sizeof(int) * (size_t)hi);
    void *s = malloc(nqueens_mrv_scratch(hi));
    int bad = 0, worst_n = 0;
    double worst = 0, total = 0;
    uint64_t nodes = 0, backs = 0;
    if (cols == NULL || s == NULL) return 1;
    for (int n = lo; n <= hi; n++) {
        search_ctl_t ctl = {.deadline_ns = search_now_ns() + 2000000000};
        search_stats_t st = {0};
        const int64_t t0 = search_now_ns();
        const int rc = nqueens_mrv(n, NULL, &ctl, cols, s, &st, NULL);
        const double t = secs_since(t0);
        total += t;
        nodes += st.nodes;
        backs += st.backtracks;
        if (t > worst) {
            worst = t;
            worst_n = n;
        }
        if (rc != 0 || !check(n, cols)) {
            printf("mrv n=%d: rc=%d nodes=%llu FAILED\n", n, rc, (unsigned long long)st.nodes);
            bad++;
        }
    }
    printf("mrv n=%d..%d: slowest n=%d %.3f s, total %.2f s, nodes %llu, backtracks %llu, "
           "failures %d\n",
           lo, hi, worst_n, worst, total, (unsigned long long)nodes, (unsigned long long)backs,
           bad);
    free(cols);
    free(s);
    return bad != 0;
}

/* === minconflicts === */

static int bench_mc(int n, uint64_t seed, nqueens_repair_start_t start, double *secs) {
    const size_t sb = nqueens_repair_scratch(n), cb = sizeof(int) * (size_t)n;
    int *cols = malloc(cb);
    void *s = malloc(sb);
    if (cols == NULL || s == NULL) {
        printf("mc n=%d: out of memory\n", n);
        return 1;
    }
    nqueens_repair_opts_t o = {seed, 0, NULL, NULL, 0, start};
    nqueens_repair_result_t res;
    search_ctl_t ctl = {.deadline_ns = search_now_ns() + 120000000000};
    const int64_t t0 = search_now_ns();
    const int rc = nqueens_repair(n, NULL, &o, &ctl, cols, s, &res, NULL, NULL);
    const double t = secs_since(t0);
    const int ok = rc == 0 && check(n, cols);
    if (secs != NULL) *secs = t;
    if (secs == NULL)
        printf("mc %-11s n=%-9d %7.3f s  steps %-8llu restarts %-4llu initial %-7llu  solver bytes "
               "%zu (%.2f/queen)  maxrss %ld kB  %s\n",
               start == NQUEENS_START_GREEDY   ? "greedy"
               : start == NQUEENS_START_RANDOM ? "random"
                                               : "constructed",
               n, t, (unsigned long long)res.steps, (unsigned long long)res.restarts,
               (unsigned long long)res.initial_conflicts, sb + cb, (double)(sb + cb) / n,
               maxrss_kb(), ok ? "ok" : "FAILED");
    free(cols);
    free(s);
    return !ok;
}

/* === auto === */

static void bench_auto(void) {
    int cols[64];
    printf("auto: nqueens_first (2 s deadline):");
    for (int n = 20; n <= 36; n++) {
        search_ctl_t ctl = {.deadline_ns = search_now_ns() + 2000000000};
        const int64_t t0 = search_now_ns();
        const int rc = nqueens_first(n, &ctl, cols, NULL);
        printf(" %d:%s%.3f", n, rc == 0 ? "" : "!", secs_since(t0));
    }
    printf("  (! = stopped)\n");
    static const int ns[] = {28, 100, 300, 1000, 2000, 5000};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        const int n = ns[i];
        int *c = malloc(sizeof(int) * (size_t)n);
        void *s = malloc(nqueens_mrv_scratch(n));
        search_ctl_t ctl = {.deadline_ns = search_now_ns() + 5000000000};
        const int64_t t0 = search_now_ns();
        const int rc = nqueens_mrv(n, NULL, &ctl, c, s, NULL, NULL);
        const double tm = secs_since(t0);
        double tr = 0;
        bench_mc(n, 1, NQUEENS_START_CONSTRUCTED, &tr);
        printf("auto n=%-5d mrv %.4f s%s  minconflicts %.4f s\n", n, tm, rc == 0 ? "" : " (failed)",
               tr);
        free(c);
        free(s);
    }
}

/* === deadline === */

typedef enum dl_case_e {
    DL_MRV,
    DL_MRV_HALF,
    DL_MC,
    DL_MC_FULLSCAN,
    DL_COUNT,
    DL_FIRST,
    DL_ENUM
} dl_case_t;

/* Runs one case under a deadline of ms; prints the overshoot.  0, or 1 if
 * the search did not stop with SEARCH_TIMEOUT. */
static int bench_deadline_case(dl_case_t k, const char *what, int n, int ms) {
    int *cols = malloc(sizeof(int) * (size_t)(n > 1000 ? n : 1000) * (k == DL_ENUM ? 8 : 1));
    int *fixed = NULL, rc = SEARCH_EINVAL, written = 0;
    void *s = NULL;
    uint64_t count = 0;
    search_stats_t st = {0};
    nqueens_repair_opts_t o = {1, 0, NULL, NULL, 0, NQUEENS_START_CONSTRUCTED};
    nqueens_repair_result_t res;
    if (k == DL_MRV || k == DL_MRV_HALF) s = malloc(nqueens_mrv_scratch(n));
    if (k == DL_MC || k == DL_MC_FULLSCAN) s = malloc(nqueens_repair_scratch(n));
    if (k == DL_MRV_HALF || k == DL_MC_FULLSCAN) {
        /* half of the classical board given: the rest must be searched */
        fixed = malloc(sizeof(int) * (size_t)n);
        for (int r = 0; fixed != NULL && r < n; r++)
            fixed[r] = r < n / 2 ? 2 * r + 1 : -1;
        if (k == DL_MC_FULLSCAN && fixed != NULL) fixed[0] = 0; /* not completable */
    }
    const int64_t t0 = search_now_ns();
    search_ctl_t ctl = {.deadline_ns = t0 + (int64_t)ms * 1000000};
    switch (k) {
    case DL_MRV:
    case DL_MRV_HALF: rc = nqueens_mrv(n, fixed, &ctl, cols, s, &st, NULL); break;
    case DL_MC:
    case DL_MC_FULLSCAN: rc = nqueens_repair(n, fixed, &o, &ctl, cols, s, &res, &st, NULL); break;
    case DL_COUNT: rc = nqueens_count(n, 1, &ctl, &count, &st); break;
    case DL_FIRST: rc = nqueens_first(n, &ctl, cols, &st); break;
    case DL_ENUM:
        rc = nqueens_enumerate(n, NULL, (uint64_t)1 << 62, 8, &ctl, cols, &written, &st, NULL);
        break;
    }
    const double t = (double)(search_now_ns() - t0) / 1e6;
    printf("deadline %-34s n=%-8d %5d ms: returned after %8.1f ms, overshoot %8.1f ms, "
           "nodes %llu%s\n",
           what, n, ms, t, t - ms, (unsigned long long)st.nodes,
           rc == SEARCH_TIMEOUT ? "" : " (not a timeout!)");
    free(cols);
    free(fixed);
    free(s);
    return rc != SEARCH_TIMEOUT;
}

static int bench_deadline(int ms) {
    int bad = 0;
    bad |= bench_deadline_case(DL_MRV, "mrv, empty board", NQUEENS_MRV_MAX_N, ms);
    bad |= bench_deadline_case(DL_MRV_HALF, "mrv, half the board given", NQUEENS_MRV_MAX_N, ms);
    bad |= bench_deadline_case(DL_MC_FULLSCAN, "minconflicts, half given + corner", 4096, ms);
    bad |= bench_deadline_case(DL_MC, "minconflicts, empty board", NQUEENS_REPAIR_MAX_N, ms / 10);
    bad |= bench_deadline_case(DL_COUNT, "count", NQUEENS_COUNT_MAX_N, ms);
    bad |= bench_deadline_case(DL_FIRST, "backtracking (lexicographic first)", 64, ms);
    bad |= bench_deadline_case(DL_ENUM, "solutions page at offset 2^62", 64, ms);
    return bad;
}

int main(int argc, char **argv) {
    int bad = 0;
    if (argc >= 4 && strcmp(argv[1], "mrv") == 0) return bench_mrv(atoi(argv[2]), atoi(argv[3]));
    if (argc >= 2 && strcmp(argv[1], "deadline") == 0)
        return bench_deadline(argc >= 3 ? atoi(argv[2]) : 1000);
    if (argc >= 3 && strcmp(argv[1], "mc") == 0) {
        nqueens_repair_start_t start = NQUEENS_START_CONSTRUCTED;
        int i = 2;
        if (strcmp(argv[2], "greedy") == 0 || strcmp(argv[2], "random") == 0 ||
            strcmp(argv[2], "constructed") == 0) {
            start = argv[2][0] == 'g'   ? NQUEENS_START_GREEDY
                    : argv[2][0] == 'r' ? NQUEENS_START_RANDOM
                                        : NQUEENS_START_CONSTRUCTED;
            i = 3;
        }
        for (; i < argc; i++)
            bad |= bench_mc(atoi(argv[i]), 1, start, NULL);
        return bad;
    }
    bad |= bench_mrv(4, 1000);
    for (int st = NQUEENS_START_CONSTRUCTED; st <= NQUEENS_START_RANDOM; st++) {
        bad |= bench_mc(100000, 1, (nqueens_repair_start_t)st, NULL);
        bad |= bench_mc(1000000, 1, (nqueens_repair_start_t)st, NULL);
        bad |= bench_mc(10000000, 1, (nqueens_repair_start_t)st, NULL);
    }
    bench_auto();
    bad |= bench_deadline(1000);
    return bad;
}
