/* bench_logic.c -- generation and grading, measured against qqwing (the
 * Debian package) in the same run.
 *
 *   bench_logic [-q] [-Q] [-k per_round] [-g seconds] [FILES...]
 *
 * 1. Generation vs qqwing, 9x9, one thread each, interleaved, best of 3:
 *    for each qqwing level, `qqwing --generate K --difficulty L --one-line`
 *    (wall time and the child's CPU time) next to puzzled generating K
 *    puzzles in the matching rating window:
 *        simple        [0, 1.5)   naked singles at most (qqwing: singles)
 *        easy          [1.5, 2)   hidden singles needed
 *        intermediate  [2, 3)     medium: locked candidates, pairs
 *        expert        [3, inf)   beyond qqwing's techniques (it guesses)
 *    Ratios are rates (ours / qqwing), wall clock and CPU.
 * 2. Rating means per qqwing level over every qqwing puzzle generated in
 *    step 1 (3 * K per level, K = 70 by default: >= 200), which must rise
 *    strictly simple < easy < intermediate < expert; and how much harder
 *    our extreme and beyond-logic puzzles are than qqwing's hardest.
 * 3. Our generation per size and level on 2 threads (puzzles/s, mean
 *    rating, givens, the share of attempts that land in the level), each
 *    cell capped at -g seconds (default 1.5); then Killer's, sizes 4, 6,
 *    9 and 16.
 * 4. Grading speed on the shared 9x9 collections (default: 17-clue,
 *    magictour top1465, forum hardest from ../shared/data/sudoku9): every
 *    puzzle, with every step checked against the solver's solution; puzzles
 *    per second, mean rating, slowest puzzle against the 1,000 ms deadline,
 *    levels; the means must order 17-clue < top1465 < forum hardest.
 *    Then, per file, how many puzzles each technique is the hardest step of
 *    (the histogram issue 39 watches: what ends in trial or guess), the
 *    CPU seconds the grading took, and how many steps of each technique
 *    from x-chain on all the paths took (where a set's hardest step stays
 *    guess, as on the forum's hardest, this is where the chains show).
 * -q: step 1 and 2 only (bench/compare/generate.sh); -Q: skip qqwing;
 * -G: step 4 only (grading the files); -K: step 3's Killer table only.
 * Prints PASS/FAIL lines and exits 1 when a measured target fails. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "solvers/killer/generate.h"
#include "solvers/sudoku/generate.h"
#include "solvers/sudoku/logic.h"
#include "solvers/sudoku/sudoku9.h"

#define DEADLINE_MS 1000.0

static double now_s(void) { return (double)search_now_ns() / 1e9; }

static double cpu_self(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_children(void) {
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* === Grading one 9x9 puzzle, checked === */

typedef struct chk_s {
    const uint8_t *sol;
    int bad;
} chk_t;

static int chk_step(void *ud, const sudoku_logic_t *st, const sudoku_logic_step_t *s) {
    chk_t *c = ud;
    (void)st;
    c->bad += sudoku_logic_step_wrong(s, c->sol);
    return 0;
}

/* Returns 0 graded (g filled, *bad steps against the solution), -1 not a
 * unique puzzle. */
static int grade9(sudoku_logic_t *st, const uint8_t *p, sudoku_grade_t *g, int *bad, int check) {
    uint8_t sols[162], end[81];
    sudoku9_result_t r;
    sudoku_logic_opts_t o;
    chk_t c = {sols, 0};
    if (sudoku9_solve(p, 2, sols, NULL, &r) != 0 || r.solutions_found != 1) return -1;
    sudoku_logic_opts_init(&o);
    o.assume_unique = 1;
    o.solution = sols;
    if (check) {
        o.on_step = chk_step;
        o.ud = &c;
    }
    sudoku_logic_load(st, p);
    if (sudoku_logic_grade(st, &o, g) != 0 || !g->solved) c.bad++;
    sudoku_logic_grid(st, end);
    if (memcmp(end, sols, 81) != 0) c.bad++;
    *bad = c.bad;
    return 0;
}

static int parse81(const char *line, uint8_t *p) {
    if (strlen(line) < 81) return -1;
    for (int i = 0; i < 81; i++) {
        char ch = line[i];
        if (ch >= '1' && ch <= '9')
            p[i] = (uint8_t)(ch - '0');
        else if (ch == '.' || ch == '0')
            p[i] = 0;
        else
            return -1;
    }
    return 0;
}

/* === 1, 2: against qqwing === */

static const char *const qq_levels[4] = {"simple", "easy", "intermediate", "expert"};
static const double qq_lo[4] = {0.0, 1.5, 2.0, 3.0};
static const double qq_hi[4] = {1.5, 2.0, 3.0, 1e9};

typedef struct qq_s {
    double best_wall, best_cpu; /* seconds for K puzzles */
    double our_wall, our_cpu;
    double rating_sum;
    int graded, bad;
    double our_rating_sum;
    int our_n;
} qq_t;

/* Runs qqwing for k puzzles of a level; grades what it prints.  Returns
 * the number of puzzles read, -1 when qqwing is missing. */
static int run_qqwing(sudoku_logic_t *st, int level, int k, qq_t *q) {
    char cmd[160], line[256];
    snprintf(cmd, sizeof cmd, "qqwing --generate %d --difficulty %s --one-line 2>/dev/null", k,
             qq_levels[level]);
    double c0 = cpu_children(), t0 = now_s();
    FILE *f = popen(cmd, "r");
    int got = 0;
    static uint8_t buf[1000][81];
    if (f == NULL) return -1;
    while (fgets(line, sizeof line, f) && got < 1000)
        if (parse81(line, buf[got]) == 0) got++;
    int status = pclose(f);
    double wall = now_s() - t0;
    double cpu = cpu_children() - c0;
    if (got == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    if (q->best_wall == 0 || wall < q->best_wall) q->best_wall = wall;
    if (q->best_cpu == 0 || cpu < q->best_cpu) q->best_cpu = cpu;
    for (int i = 0; i < got; i++) {
        sudoku_grade_t g;
        int bad;
        if (grade9(st, buf[i], &g, &bad, 0) != 0) continue;
        q->rating_sum += g.rating;
        q->graded++;
        q->bad += bad;
    }
    return got;
}

static void run_ours(int level, int k, int round, qq_t *q) {
    sudoku_gen_opts_t o;
    sudoku_gen_result_t r;
    uint8_t p[81], s[81];
    sudoku_gen_opts_init(&o);
    o.rating_min = qq_lo[level];
    o.rating_max = qq_hi[level];
    double c0 = cpu_self(), t0 = now_s();
    for (int i = 0; i < k; i++) {
        o.seed = (uint64_t)(round * 100000 + level * 10000 + i);
        if (sudoku_generate(&o, p, s, &r) != 0) {
            fprintf(stderr, "generate failed\n");
            exit(2);
        }
        q->our_rating_sum += r.grade.rating;
        q->our_n++;
    }
    double wall = now_s() - t0, cpu = cpu_self() - c0;
    if (q->our_wall == 0 || wall < q->our_wall) q->our_wall = wall;
    if (q->our_cpu == 0 || cpu < q->our_cpu) q->our_cpu = cpu;
}

/* Mean rating of our puzzles of one level (n puzzles or sec seconds). */
static double our_mean(sudoku_grade_level_t l, int n, double sec, int *got) {
    sudoku_gen_opts_t o;
    sudoku_gen_result_t r;
    uint8_t p[81], s[81];
    double sum = 0, t0 = now_s();
    sudoku_gen_opts_init(&o);
    sudoku_gen_opts_level(&o, l);
    *got = 0;
    for (int i = 0; i < n && now_s() - t0 < sec; i++) {
        o.seed = 777000 + (uint64_t)i;
        if (sudoku_generate(&o, p, s, &r) != 0) break;
        sum += r.grade.rating;
        (*got)++;
    }
    return *got ? sum / *got : 0;
}

static int bench_qqwing(sudoku_logic_t *st, int k) {
    qq_t q[4];
    int fail = 0;
    memset(q, 0, sizeof q);
    printf("== generation, 9x9, one thread: qqwing %s vs puzzled, interleaved, best of 3, %d "
           "puzzles a run ==\n",
           "1.3.4", k);
    for (int round = 0; round < 3; round++)
        for (int l = 0; l < 4; l++) {
            if (run_qqwing(st, l, k, &q[l]) < 0) {
                printf("qqwing is not installed (apt-get install qqwing): comparison skipped\n");
                return 0;
            }
            run_ours(l, k, round, &q[l]);
        }
    printf("%-13s %-12s %12s %12s %9s %9s %10s %10s\n", "qqwing level", "our window", "qqwing/s",
           "puzzled/s", "x wall", "x cpu", "qq rating", "our rating");
    for (int l = 0; l < 4; l++) {
        double qr = k / q[l].best_wall, orr = k / q[l].our_wall;
        double xw = orr / qr, xc = (k / q[l].our_cpu) / (k / q[l].best_cpu);
        char win[32];
        if (qq_hi[l] > 100)
            snprintf(win, sizeof win, "[%.1f, -)", qq_lo[l]);
        else
            snprintf(win, sizeof win, "[%.1f, %.1f)", qq_lo[l], qq_hi[l]);
        printf("%-13s %-12s %12.1f %12.1f %8.1fx %8.1fx %10.3f %10.3f\n", qq_levels[l], win, qr,
               orr, xw, xc, q[l].rating_sum / q[l].graded, q[l].our_rating_sum / q[l].our_n);
        if (xw < 10.0) {
            printf("FAIL: %s: puzzled generates %.1fx qqwing's rate (target 10x)\n", qq_levels[l],
                   xw);
            fail = 1;
        }
    }
    printf("\n== our rating of qqwing's puzzles (every puzzle of the runs above) ==\n");
    double prev = -1;
    int order = 1;
    for (int l = 0; l < 4; l++) {
        double m = q[l].rating_sum / q[l].graded;
        printf("%-13s %4d puzzles  mean rating %.3f  (steps against the solution: %d bad)\n",
               qq_levels[l], q[l].graded, m, q[l].bad);
        if (!(m > prev)) order = 0;
        if (q[l].graded < 200) printf("note: fewer than 200 puzzles for %s\n", qq_levels[l]);
        if (q[l].bad) fail = 1;
        prev = m;
    }
    printf("%s: mean ratings rise strictly simple < easy < intermediate < expert\n",
           order ? "PASS" : "FAIL");
    fail |= !order;
    {
        int ge, gb;
        double me = our_mean(SUDOKU_GRADE_EXTREME, 100, 5.0, &ge);
        double mb = our_mean(SUDOKU_GRADE_BEYOND, 100, 5.0, &gb);
        double qe = q[3].rating_sum / q[3].graded;
        printf("harder than qqwing's hardest: qqwing expert mean %.3f; puzzled extreme %.3f (%d), "
               "beyond-logic %.3f (%d)\n",
               qe, me, ge, mb, gb);
        printf("%s: puzzled offers harder puzzles than qqwing's expert\n",
               (gb > 0 && mb > qe && me > qe) ? "PASS" : "FAIL");
        fail |= !(gb > 0 && mb > qe && me > qe);
    }
    return fail;
}

/* === 3: our generation per size and level === */

/* One cell of the tables: THREADS threads make puzzles of one kind, size
 * and level (seeds 5000 + i, thread t taking i = t mod THREADS), each
 * until the cell's deadline or its share of 1000 puzzles. */
#define BENCH_THREADS 2

typedef struct cell_run_s {
    int killer;
    sudoku_gen_opts_t so;
    killer_gen_opts_t ko;
    int tid;
    int got;
    double rating, givens, attempts;
    pthread_t th;
} cell_run_t;

static void *cell_main(void *arg) {
    cell_run_t *c = arg;
    static _Thread_local uint8_t p[625], s[625];
    static _Thread_local killer_cell_t kc[625];
    static _Thread_local killer_cage_t kg[625];
    for (int i = c->tid; i < 1000; i += BENCH_THREADS) {
        int rc;
        if (c->killer) {
            killer_gen_result_t r;
            c->ko.seed = 5000 + (uint64_t)i;
            rc = killer_generate(&c->ko, s, kc, kg, &r);
            c->attempts += (double)r.attempts;
            if (rc != 0) break;
            c->rating += r.rating;
        } else {
            sudoku_gen_result_t r;
            c->so.seed = 5000 + (uint64_t)i;
            rc = sudoku_generate(&c->so, p, s, &r);
            c->attempts += (double)r.attempts;
            if (rc != 0) break;
            c->rating += r.grade.rating;
            c->givens += r.givens;
        }
        c->got++;
    }
    return NULL;
}

/* Runs a cell (the options' ctl is set here) and formats it into out. */
static void cell_measure(int killer, const sudoku_gen_opts_t *so, const killer_gen_opts_t *ko,
                         double cap, char *out, size_t cap_out) {
    cell_run_t runs[BENCH_THREADS];
    search_ctl_t ctl = {.deadline_ns = search_now_ns() + (int64_t)(cap * 1e9)};
    double t0 = now_s(), rating = 0, givens = 0, attempts = 0;
    int got = 0;
    for (int t = 0; t < BENCH_THREADS; t++) {
        memset(&runs[t], 0, sizeof runs[t]);
        runs[t].killer = killer;
        if (so != NULL) runs[t].so = *so;
        if (ko != NULL) runs[t].ko = *ko;
        runs[t].so.ctl = &ctl;
        runs[t].ko.ctl = &ctl;
        runs[t].tid = t;
        pthread_create(&runs[t].th, NULL, cell_main, &runs[t]);
    }
    for (int t = 0; t < BENCH_THREADS; t++) {
        pthread_join(runs[t].th, NULL);
        got += runs[t].got;
        rating += runs[t].rating;
        givens += runs[t].givens;
        attempts += runs[t].attempts;
    }
    double secs = now_s() - t0;
    if (got == 0)
        snprintf(out, cap_out, "none (%.0f attempts)", attempts);
    else if (killer)
        snprintf(out, cap_out, "%.1f/s %.2f %.3g%%", got / secs, rating / got,
                 100.0 * got / attempts);
    else
        snprintf(out, cap_out, "%.1f/s %.2f %.0f %.3g%%", got / secs, rating / got, givens / got,
                 100.0 * got / attempts);
}

static void bench_sizes(double cap) {
    static const int sizes[][3] = {{4, 2, 2},  {6, 2, 3},  {8, 2, 4}, {9, 3, 3},
                                   {12, 3, 4}, {16, 4, 4}, {25, 5, 5}};
    printf("\n== puzzled generation per size and level (%d threads, each cell at most %.1f s; "
           "puzzles/s, mean rating, givens, puzzles per 100 attempts; 422: refused at once "
           "as unreachable) ==\n",
           BENCH_THREADS, cap);
    printf("%-6s", "size");
    for (int l = 0; l < SUDOKU_GRADE_COUNT; l++)
        printf(" %28s", sudoku_grade_level_name((sudoku_grade_level_t)l));
    printf("\n");
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        printf("%2dx%-3d", sizes[z][0], sizes[z][0]);
        for (int l = 0; l < SUDOKU_GRADE_COUNT; l++) {
            sudoku_gen_opts_t o;
            char cell[64];
            sudoku_gen_opts_init(&o);
            sudoku_shape_init(&o.shape, sizes[z][0], sizes[z][1], sizes[z][2]);
            sudoku_gen_opts_level(&o, (sudoku_grade_level_t)l);
            if (sudoku_gen_reachable(&o) != SUDOKU_GEN_REACHABLE)
                snprintf(cell, sizeof cell, "422");
            else
                cell_measure(0, &o, NULL, cap, cell, sizeof cell);
            printf(" %28s", cell);
            fflush(stdout);
        }
        printf("\n");
    }
}

/* Killer generation per size and level, as bench_sizes (cages as the API
 * picks them for the level: killer_gen_cages_for_level()). */
static void bench_killer_sizes(double cap) {
    static const int sizes[] = {4, 6, 9, 16};
    printf("\n== puzzled Killer generation per size and level (%d threads, each cell at most "
           "%.1f s; puzzles/s, mean rating, puzzles per 100 attempts; 422: refused at once) ==\n",
           BENCH_THREADS, cap);
    printf("%-6s", "size");
    for (int l = 0; l < SUDOKU_GRADE_COUNT; l++)
        printf(" %24s", sudoku_grade_level_name((sudoku_grade_level_t)l));
    printf("\n");
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        printf("%2dx%-3d", n, n);
        for (int l = 0; l < SUDOKU_GRADE_COUNT; l++) {
            killer_gen_opts_t o;
            char cell[64];
            killer_gen_opts_init(&o);
            sudoku_shape_init(&o.shape, n, 0, 0);
            sudoku_grade_level_band((sudoku_grade_level_t)l, &o.rating_min, &o.rating_max);
            killer_gen_cages_for_level(n, (sudoku_grade_level_t)l, &o.cage_min, &o.cage_max);
            if (killer_gen_reachable(&o) != KILLER_GEN_REACHABLE)
                snprintf(cell, sizeof cell, "422");
            else
                cell_measure(1, NULL, &o, cap, cell, sizeof cell);
            printf(" %24s", cell);
            fflush(stdout);
        }
        printf("\n");
    }
}

/* === 4: grading the shared collections === */

static int bench_grading(sudoku_logic_t *st, int nfiles, char **files) {
    double means[16];
    int fail = 0, nm = 0;
    printf("\n== grading the shared collections (every step checked against the solution) ==\n");
    printf("%-34s %7s %10s %8s %10s %8s  %s\n", "file", "puzzles", "graded/s", "mean", "max ms",
           "bad", "levels easy..beyond");
    for (int fi = 0; fi < nfiles; fi++) {
        FILE *f = fopen(files[fi], "r");
        char line[512];
        int n = 0, bad = 0, hist[SUDOKU_GRADE_COUNT] = {0}, late = 0;
        int hardest[SUDOKU_TECH_COUNT] = {0};
        uint64_t used[SUDOKU_TECH_COUNT] = {0}; /* steps of each technique, all puzzles */
        double sum = 0, maxms = 0, t0, c0 = cpu_self();
        if (f == NULL) {
            printf("%-34s (missing: skipped)\n", files[fi]);
            continue;
        }
        t0 = now_s();
        while (fgets(line, sizeof line, f)) {
            uint8_t p[81];
            sudoku_grade_t g;
            int b;
            if (line[0] == '#' || parse81(line, p) != 0) continue;
            double s0 = now_s();
            if (grade9(st, p, &g, &b, 1) != 0) continue;
            double ms = (now_s() - s0) * 1000;
            if (ms > maxms) maxms = ms;
            if (ms > DEADLINE_MS) late++;
            bad += b;
            sum += g.rating;
            hist[g.level]++;
            hardest[g.hardest]++;
            for (int t = 0; t < SUDOKU_TECH_COUNT; t++)
                used[t] += g.counts[t];
            n++;
        }
        fclose(f);
        double t = now_s() - t0;
        const char *base = strrchr(files[fi], '/') ? strrchr(files[fi], '/') + 1 : files[fi];
        printf("%-34s %7d %10.0f %8.3f %10.2f %8d  ", base, n, n / t, n ? sum / n : 0, maxms, bad);
        for (int l = 0; l < SUDOKU_GRADE_COUNT; l++)
            printf("%d ", hist[l]);
        printf("\n  hardest step (%.2f s CPU):", cpu_self() - c0);
        for (int h = 0; h < SUDOKU_TECH_COUNT; h++)
            if (hardest[h]) printf(" %s %d", sudoku_tech_name((sudoku_tech_t)h), hardest[h]);
        printf("\n  steps from x-chain on:");
        for (int h = SUDOKU_TECH_X_CHAIN; h < SUDOKU_TECH_COUNT; h++)
            if (used[h])
                printf(" %s %llu", sudoku_tech_name((sudoku_tech_t)h), (unsigned long long)used[h]);
        printf("\n");
        if (bad) {
            printf("FAIL: %s: %d steps disagree with the solution\n", base, bad);
            fail = 1;
        }
        if (late) {
            printf("FAIL: %s: %d puzzles over the %.0f ms deadline\n", base, late, DEADLINE_MS);
            fail = 1;
        }
        if (nm < 16 && n > 0) means[nm++] = sum / n;
    }
    if (nm >= 2) {
        int order = 1;
        for (int i = 1; i < nm; i++)
            if (!(means[i] > means[i - 1])) order = 0;
        printf("%s: mean ratings rise in the order the files were given (default: 17-clue < "
               "top1465 < forum hardest)\n",
               order ? "PASS" : "FAIL");
        fail |= !order;
    }
    return fail;
}

int main(int argc, char **argv) {
    int only_qq = 0, no_qq = 0, only_grading = 0, only_killer = 0, k = 70, opt;
    double cap = 1.5;
    char *defaults[] = {"../shared/data/sudoku9/puzzles2_17_clue",
                        "../shared/data/sudoku9/puzzles3_magictour_top1465",
                        "../shared/data/sudoku9/puzzles6_forum_hardest_1106"};
    while ((opt = getopt(argc, argv, "qQGKk:g:")) != -1) {
        switch (opt) {
        case 'q': only_qq = 1; break;
        case 'Q': no_qq = 1; break;
        case 'G': only_grading = no_qq = 1; break;
        case 'K': only_killer = no_qq = 1; break;
        case 'k': k = atoi(optarg); break;
        case 'g': cap = atof(optarg); break;
        default:
            fprintf(stderr,
                    "usage: bench_logic [-q] [-Q] [-G] [-K] [-k per_round] [-g seconds] [FILES]\n");
            return 2;
        }
    }
    sudoku_shape_t sh;
    sudoku_shape_init(&sh, 9, 3, 3);
    sudoku_logic_t *st = sudoku_logic_new(&sh);
    int fail = 0;
    if (!no_qq) fail |= bench_qqwing(st, k);
    if (only_killer) {
        bench_killer_sizes(cap);
    } else if (!only_qq) {
        if (!only_grading) {
            bench_sizes(cap);
            bench_killer_sizes(cap);
        }
        if (optind < argc)
            fail |= bench_grading(st, argc - optind, argv + optind);
        else
            fail |= bench_grading(st, 3, defaults);
    }
    sudoku_logic_free(st);
    return fail;
}
