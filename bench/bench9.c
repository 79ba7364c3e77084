/* bench9.c -- how fast the 9x9 solver (solvers/sudoku/sudoku9.h) is next to the
 * general methods of sudoku_solve(), on public collections.
 *
 *   bench9 [-k PUZZLES] [-t SECONDS] [FILE...]
 *   bench9 -l LIMIT [-r REPEAT] [-i IMPL] FILE       (the compare mode)
 *
 *   FILE  one puzzle a line, 81 characters, '.' or '0' empty, '#' lines are
 *         comments; default: each of ../shared/data/sudoku9/puzzles2_17_clue,
 *         puzzles3_magictour_top1465, puzzles6_forum_hardest_1106,
 *         puzzles7_serg_benchmark that is present (run from the repo root).
 *         `make bench9` passes every file of ../shared/data/sudoku9.
 *   -k    the general methods solve at most this many puzzles of a file
 *         (default 2000) ...
 *   -t    ... and stop after this many seconds per method (default 2).
 *
 * For each file, single-threaded, all puzzles loaded first and only the
 * solving timed, it prints one line per run: puzzles/s, microseconds per
 * puzzle, % of puzzles solved without a guess, guesses per puzzle (nodes for
 * the general methods), and the outcome counts.  Runs: the fast solver with
 * max_solutions 2 (uniqueness) and 1 (first solution) over the whole file;
 * propagation (hidden singles) and dlx with max_solutions 2 on the capped
 * subset.  Afterwards (untimed) every fast solution is checked against the
 * rules and givens, and the fast solver's counts against propagation's on
 * the subset; "bad" counts failures and makes the exit code 1.  A summary
 * table (fast solver, both modes, one row per file) ends the run.
 *
 * Compare mode (-l): only the fast solver, max_solutions LIMIT, every puzzle
 * of FILE solved once per repeat (REPEAT, default 1), solutions written as in
 * the service; prints one line shaped like the tdoku anchor's driver
 * (`puzzles=N repeat=R limit=L sum_counts=C guesses=G secs=S cpu_secs=T impl=I`:
 * secs wall-clock, cpu_secs the process's CPU time), so that
 * bench/compare/sudoku9.sh can run the two side by side.  Only the solving
 * is timed; afterwards every solution of the first pass is checked (untimed)
 * and a bad one makes the exit code 1.  -i picks the build of the solver
 * (auto = what sudoku9_solve() runs, portable, scalar, avx2; sudoku9.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/sudoku/sudoku.h"
#include "solvers/sudoku/sudoku9.h"

typedef struct set_s {
    size_t n, cap;
    uint8_t *p; /* n * 81 */
} set_t;

static int load(const char *path, set_t *set) {
    FILE *fp = fopen(path, "r");
    char line[512];
    if (!fp) return -1;
    memset(set, 0, sizeof *set);
    while (fgets(line, sizeof line, fp)) {
        uint8_t g[81];
        int k = 0;
        if (line[0] == '#') continue;
        for (const char *c = line; *c && k < 81; c++) {
            if (*c >= '1' && *c <= '9')
                g[k++] = (uint8_t)(*c - '0');
            else if (*c == '.' || *c == '0')
                g[k++] = 0;
            else if (*c == '\n' || *c == '\r' || *c == ' ' || *c == '\t')
                break;
        }
        if (k != 81) continue;
        if (set->n == set->cap) {
            size_t cap = set->cap ? 2 * set->cap : 1024;
            uint8_t *p = realloc(set->p, cap * 81);
            if (!p) {
                fclose(fp);
                return -1;
            }
            set->p = p, set->cap = cap;
        }
        memcpy(set->p + 81 * set->n++, g, 81);
    }
    fclose(fp);
    return 0;
}

static double now_s(void) { return (double)search_now_ns() / 1e9; }

typedef struct run_s {
    size_t done;
    double secs;
    uint64_t guesses, noguess, unique, multi, none, errors;
} run_t;

static void print_run(const char *name, const run_t *r) {
    double per = r->done ? r->secs / (double)r->done : 0;
    printf("  %-26s %7zu %11.0f %9.2f %7.1f%% %9.2f %7llu %6llu %5llu %4llu\n", name, r->done,
           per > 0 ? 1.0 / per : 0, per * 1e6,
           r->done ? 100.0 * (double)r->noguess / (double)r->done : 0,
           r->done ? (double)r->guesses / (double)r->done : 0, (unsigned long long)r->unique,
           (unsigned long long)r->multi, (unsigned long long)r->none,
           (unsigned long long)r->errors);
}

static void tally(run_t *r, int code, uint32_t found) {
    if (code != 0)
        r->errors++;
    else if (found == 0)
        r->none++;
    else if (found == 1)
        r->unique++;
    else
        r->multi++;
}

static run_t run_fast(const set_t *set, uint32_t max, uint8_t *sol, uint32_t *counts) {
    run_t r = {0};
    sudoku9_result_t res;
    double t0 = now_s();
    for (size_t i = 0; i < set->n; i++) {
        int code = sudoku9_solve(set->p + 81 * i, max, sol, NULL, &res);
        r.guesses += res.guesses;
        r.noguess += res.no_guess;
        tally(&r, code, res.solutions_found);
        if (counts) counts[i] = res.solutions_found;
    }
    r.secs = now_s() - t0;
    r.done = set->n;
    return r;
}

static run_t run_general(const set_t *set, sudoku_method_t method, size_t cap, double tcap,
                         uint32_t *counts) {
    run_t r = {0};
    sudoku_shape_t shape;
    sudoku_opts_t opts;
    sudoku_result_t res;
    uint8_t sol[2 * 81];
    sudoku_shape_init(&shape, 9, 3, 3);
    sudoku_opts_init(&opts);
    opts.method = method;
    opts.max_solutions = 2;
    opts.solutions = sol;
    double t0 = now_s();
    for (size_t i = 0; i < set->n && i < cap; i++) {
        int code = sudoku_solve(&shape, set->p + 81 * i, &opts, &res);
        r.guesses += res.stats.nodes;
        tally(&r, code, res.solutions_found);
        if (counts) counts[i] = res.solutions_found;
        r.done++;
        if ((i & 15) == 15 && now_s() - t0 > tcap) break;
    }
    r.secs = now_s() - t0;
    return r;
}

/* One summary row per file, printed at the end: the figures to set next
 * to the targets (puzzles/s of the fast solver in both modes). */
typedef struct row_s {
    char name[40];
    size_t n;
    double at2, at1, guesses2, prop2;
} row_t;

#define MAX_ROWS 64

static double rate(const run_t *r) { return r->secs > 0 ? (double)r->done / r->secs : 0.0; }

static int bench_file(const char *path, size_t cap, double tcap, row_t *row) {
    set_t set = {0};
    int bad = 0;
    if (load(path, &set) != 0 || set.n == 0) {
        printf("%s: skipped (missing or empty)\n", path);
        free(set.p);
        return 0;
    }
    uint32_t *fast_counts = calloc(set.n, sizeof *fast_counts);
    uint32_t *prop_counts = calloc(set.n, sizeof *prop_counts);
    uint8_t sol[2 * 81];
    if (!fast_counts || !prop_counts) {
        free(set.p), free(fast_counts), free(prop_counts);
        return 1;
    }
    const char *base = strrchr(path, '/');
    printf("%s (%zu puzzles)\n", base ? base + 1 : path, set.n);
    printf("  %-26s %7s %11s %9s %8s %9s %7s %6s %5s %4s\n", "solver", "puzzles", "puzzles/s",
           "us/puzzle", "noguess", "guess/pz", "unique", "multi", "none", "err");
    run_t r2 = run_fast(&set, 2, sol, fast_counts);
    print_run("fast, stop at 2", &r2);
    run_t r1 = run_fast(&set, 1, sol, NULL);
    print_run("fast, stop at 1", &r1);
    run_t rp = run_general(&set, SUDOKU_METHOD_PROPAGATION, cap, tcap, prop_counts);
    print_run("propagation(hs), at 2 *", &rp);
    run_t rd = run_general(&set, SUDOKU_METHOD_DLX, cap, tcap, NULL);
    print_run("dlx, at 2 *", &rd);
    printf(
        "  (* guess/pz = nodes per puzzle; noguess not reported)  fast/propagation speed: %.0fx\n",
        rp.done && r2.secs > 0 ? (rp.secs / (double)rp.done) / (r2.secs / (double)r2.done) : 0.0);

    /* Untimed checks: every first solution, and counts against propagation. */
    sudoku_shape_t shape;
    sudoku_shape_init(&shape, 9, 3, 3);
    for (size_t i = 0; i < set.n; i++) {
        sudoku9_result_t res;
        const uint8_t *pz = set.p + 81 * i;
        if (sudoku9_solve(pz, 2, sol, NULL, &res) != 0) bad++;
        for (uint32_t k = 0; k < res.solutions_found; k++)
            if (sudoku_check_solution(&shape, pz, sol + 81 * k) != 1) bad++;
        if (i < rp.done && fast_counts[i] != prop_counts[i]) bad++;
    }
    printf("  checked %zu puzzles: %d bad\n", set.n, bad);
    if (row != NULL) {
        snprintf(row->name, sizeof row->name, "%s", base ? base + 1 : path);
        row->n = set.n;
        row->at2 = rate(&r2);
        row->at1 = rate(&r1);
        row->guesses2 = r2.done ? (double)r2.guesses / (double)r2.done : 0.0;
        row->prop2 = rate(&rp);
    }
    free(set.p), free(fast_counts), free(prop_counts);
    return bad;
}

/* -l mode: one timed line for bench/compare/sudoku9.sh. */
static int compare_file(const char *path, uint32_t limit, int repeat, sudoku9_impl_t impl) {
    set_t set = {0};
    if (load(path, &set) != 0 || set.n == 0) {
        fprintf(stderr, "%s: missing or empty\n", path);
        free(set.p);
        return 1;
    }
    uint8_t *sol = malloc((size_t)81 * limit);
    if (!sol) {
        free(set.p);
        return 1;
    }
    uint64_t count = 0, guesses = 0;
    int bad = 0;
    sudoku9_result_t res;
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    double t0 = now_s();
    for (int r = 0; r < repeat; r++)
        for (size_t i = 0; i < set.n; i++) {
            int code = sudoku9_solve_impl(impl, set.p + 81 * i, limit, sol, NULL, &res);
            bad += code != 0;
            count += res.solutions_found;
            guesses += res.guesses;
        }
    double secs = now_s() - t0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
    sudoku_shape_t shape;
    sudoku_shape_init(&shape, 9, 3, 3);
    for (size_t i = 0; i < set.n; i++) {
        const uint8_t *pz = set.p + 81 * i;
        sudoku9_solve_impl(impl, pz, limit, sol, NULL, &res);
        bad += res.solutions_found == 0;
        for (uint32_t k = 0; k < res.solutions_found; k++)
            bad += sudoku_check_solution(&shape, pz, sol + 81 * k) != 1;
    }
    printf("puzzles=%zu repeat=%d limit=%u sum_counts=%llu guesses=%llu secs=%.6f cpu_secs=%.6f "
           "bad=%d impl=%s\n",
           set.n, repeat, limit, (unsigned long long)count, (unsigned long long)guesses, secs, cpu,
           bad, sudoku9_impl_name(impl == SUDOKU9_IMPL_AUTO ? sudoku9_impl_auto() : impl));
    free(set.p), free(sol);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    static const char *defaults[] = {"../shared/data/sudoku9/puzzles2_17_clue",
                                     "../shared/data/sudoku9/puzzles3_magictour_top1465",
                                     "../shared/data/sudoku9/puzzles6_forum_hardest_1106",
                                     "../shared/data/sudoku9/puzzles7_serg_benchmark"};
    size_t cap = 2000;
    double tcap = 2.0;
    int i = 1, bad = 0, files = 0, repeat = 1;
    uint32_t limit = 0;
    sudoku9_impl_t impl = SUDOKU9_IMPL_AUTO;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-k") && i + 1 < argc)
            cap = (size_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            tcap = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "-l") && i + 1 < argc)
            limit = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-i") && i + 1 < argc) {
            const char *name = argv[++i];
            impl = !strcmp(name, "portable") ? SUDOKU9_IMPL_PORTABLE
                   : !strcmp(name, "scalar") ? SUDOKU9_IMPL_SCALAR
                   : !strcmp(name, "avx2")   ? SUDOKU9_IMPL_AVX2
                                             : SUDOKU9_IMPL_AUTO;
            if (strcmp(name, "auto") && impl == SUDOKU9_IMPL_AUTO) {
                fprintf(stderr, "bench9: -i auto|portable|scalar|avx2\n");
                return 2;
            }
            if (!sudoku9_impl_supported(impl)) {
                fprintf(stderr, "bench9: the %s build does not run here\n", name);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: bench9 [-k PUZZLES] [-t SECONDS] [FILE...]\n"
                            "       bench9 -l LIMIT [-r REPEAT] [-i IMPL] FILE\n");
            return 2;
        }
    }
    if (limit != 0) {
        if (limit > SUDOKU_MAX_SOLUTIONS || repeat < 1 || i + 1 != argc) {
            fprintf(stderr, "usage: bench9 -l LIMIT [-r REPEAT] [-i IMPL] FILE\n");
            return 2;
        }
        return compare_file(argv[i], limit, repeat, impl);
    }
    static row_t rows[MAX_ROWS];
    int nrows = 0;
    for (; i < argc; i++, files++)
        bad += bench_file(argv[i], cap, tcap, nrows < MAX_ROWS ? &rows[nrows++] : NULL);
    if (!files)
        for (size_t k = 0; k < sizeof defaults / sizeof defaults[0]; k++)
            bad += bench_file(defaults[k], cap, tcap, &rows[nrows++]);
    printf("\nsummary, single thread, puzzles/s (fast = the 9x9 solver, method \"fast\" / "
           "\"auto\", its %s build)\n",
           sudoku9_impl_name(sudoku9_impl_auto()));
    printf("  %-30s %8s %12s %12s %10s %14s\n", "collection", "puzzles", "fast at 2", "fast at 1",
           "guess/pz", "propag. at 2");
    for (int k = 0; k < nrows; k++)
        if (rows[k].n > 0)
            printf("  %-30s %8zu %12.0f %12.0f %10.2f %14.0f\n", rows[k].name, rows[k].n,
                   rows[k].at2, rows[k].at1, rows[k].guesses2, rows[k].prop2);
    return bad ? 1 : 0;
}
