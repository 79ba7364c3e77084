/* bench_xcover.c -- speed of the exact-cover engines (solvers/xcover*.c):
 * dlx against algorithm-x on classic covers and on Sudoku, and a 2-thread
 * split of one search against the sequential search.
 *
 *   bench_xcover [DATA_DIR] [-n MAX_PUZZLES] [-t SECONDS] [-b SECONDS]
 *
 * DATA_DIR defaults to ../shared/data (relative to the repository root, see
 * that directory's README); missing files are skipped.  Per collection and
 * engine at most MAX_PUZZLES puzzles (default 2000) or -t seconds (default
 * 2) are run, whichever ends first; each big puzzle gets -b seconds
 * (default 5) per solve.  A default run takes about two minutes, most of it
 * spent timing out on the hard 25x25 puzzles.
 *
 * Sections
 *   1. Knuth's example; 6x10 pentominoes, X held to a quarter (2,339) with
 *      both engines; all 9,356 with dlx sequentially and split over 2
 *      threads.
 *   2. 9x9 collections (sudoku9/): puzzles/s and mean nodes per engine,
 *      solving to 2 solutions (a uniqueness check, as the API does).
 *   3. 16x16 (the sudoku16 .txt files) and big grids (big/big_sudoku.jsonl),
 *      checked against the known solutions; both engines on the 16x16
 *      files, dlx with a per-puzzle deadline on the big ones.
 *   4. The slowest puzzles of section 3 that dlx finished, split into
 *      subtrees run by 2 threads (first solution / uniqueness), against
 *      the sequential solve.
 *
 * The problem of a Sudoku shape is built once and shared by every puzzle
 * and thread (xcover problems are immutable); givens are forced options.
 * Threads share one search_ctl_t whose cancel flag the first thread to
 * reach the wanted number of solutions raises. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/sudoku/sudoku.h"
#include "solvers/sudoku/xc.h"
#include "solvers/xcover/xcover.h"
#include "tests/pentomino.h"

#define MAX_N 64

typedef struct config_s {
    const char *dir;
    long max_puzzles;
    double seconds;
    double big_seconds;
    const char *par_ids[4]; /* -p ID: also split these big puzzles (first solution) */
    int npar;
} config_t;

typedef struct slow_s {
    const struct puzzle_s *pz;
    double s;
} slow_t;

#define NSLOW 3

static double secs(int64_t ns) { return (double)ns / 1e9; }

/* === Exact cover in parallel =============================================== */

/* One parallel solve: roots pulled from a shared counter by each thread. */
typedef struct par_s {
    const xcover_problem_t *p;
    const uint32_t *base;
    size_t base_len;
    const uint32_t *const *roots; /* roots[k] = start of root k */
    size_t nroots;
    size_t longest;
    uint64_t want; /* 0 = all solutions */
    int64_t deadline_ns;
    atomic_size_t next;
    atomic_uint_fast64_t found;
    atomic_uint_fast64_t nodes;
    atomic_int cancel;
    atomic_int failed; /* a root stopped by something else than the cancel */
} par_t;

static void *par_worker(void *arg) {
    par_t *w = arg;
    search_ctl_t ctl = {.deadline_ns = w->deadline_ns, .cancel = &w->cancel};
    uint32_t *prefix = malloc((w->base_len + w->longest + 1) * sizeof *prefix);
    xcover_opts_t o;
    xcover_result_t r;
    size_t k;

    if (prefix == NULL) {
        atomic_store(&w->failed, 1);
        return NULL;
    }
    if (w->base_len > 0) memcpy(prefix, w->base, w->base_len * sizeof *prefix);
    while ((k = atomic_fetch_add(&w->next, 1)) < w->nroots && !atomic_load(&w->cancel)) {
        const uint32_t *root = w->roots[k];
        size_t len = xcover_root_len(root);
        int rc;
        if (len > 0) memcpy(prefix + w->base_len, root, len * sizeof *prefix);
        xcover_opts_init(&o);
        o.max_solutions = w->want;
        o.prefix = prefix;
        o.prefix_len = w->base_len + len;
        o.ctl = &ctl;
        rc = xcover_solve(w->p, &o, &r);
        atomic_fetch_add(&w->nodes, r.stats.nodes);
        if (r.solutions_found > 0 &&
            atomic_fetch_add(&w->found, r.solutions_found) + r.solutions_found >= w->want &&
            w->want != 0)
            atomic_store(&w->cancel, 1);
        if (rc != 0 && rc != SEARCH_CANCELLED) atomic_store(&w->failed, 1);
    }
    free(prefix);
    return NULL;
}

typedef struct par_result_s {
    int ok;
    uint64_t found, nodes;
    size_t roots;
    uint32_t depth;
    double split_s, total_s;
} par_result_t;

/* Splits p below base into about `target` roots and solves them on
 * `threads` threads.  With want != 0 the count is capped at want. */
static par_result_t par_solve(const xcover_problem_t *p, const uint32_t *base, size_t base_len,
                              uint64_t want, int threads, size_t target, double limit_s) {
    par_result_t res;
    par_t w;
    xcover_split_opts_t so;
    xcover_split_info_t info;
    uint32_t *roots = NULL;
    const uint32_t **index = NULL;
    pthread_t th[8];
    int64_t t0 = search_now_ns();
    size_t k, longest = 0;
    int i, rc;

    memset(&res, 0, sizeof res);
    memset(&so, 0, sizeof so);
    so.base = base;
    so.base_len = base_len;
    so.target = target;
    rc = xcover_split(p, &so, NULL, 0, &info);
    if (rc != 0 && rc != XCOVER_ESPACE) return res;
    roots = malloc((info.entries + 1) * sizeof *roots);
    index = malloc((info.count + 1) * sizeof *index);
    so.depth = info.depth;
    if (roots == NULL || index == NULL || xcover_split(p, &so, roots, info.entries, &info) != 0) {
        free(roots);
        free(index);
        return res;
    }
    for (k = 0, index[0] = roots; k < info.count; k++) {
        size_t len = xcover_root_len(index[k]);
        if (len > longest) longest = len;
        index[k + 1] = index[k] + len + 1;
    }
    res.split_s = secs(search_now_ns() - t0);
    res.roots = info.count;
    res.depth = info.depth;

    memset(&w, 0, sizeof w);
    w.p = p;
    w.base = base;
    w.base_len = base_len;
    w.roots = index;
    w.nroots = info.count;
    w.longest = longest;
    w.want = want;
    w.deadline_ns = search_now_ns() + (int64_t)(limit_s * 1e9);
    atomic_init(&w.next, 0);
    atomic_init(&w.found, 0);
    atomic_init(&w.nodes, info.stats.nodes);
    atomic_init(&w.cancel, 0);
    atomic_init(&w.failed, 0);
    if (threads > 8) threads = 8;
    for (i = 0; i < threads; i++)
        if (pthread_create(&th[i], NULL, par_worker, &w) != 0) threads = i;
    for (i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    res.total_s = secs(search_now_ns() - t0);
    res.found = atomic_load(&w.found);
    if (want != 0 && res.found > want) res.found = want;
    res.nodes = atomic_load(&w.nodes);
    res.ok = !atomic_load(&w.failed) && threads > 0;
    free(roots);
    free(index);
    return res;
}

/* === 1. Classic covers ====================================================== */

/* 6x10 pentominoes (tests/pentomino.c). */
static xcover_problem_t *pentominoes(int quarter) { return pentomino_problem(6, 10, quarter); }

static void count_run(const char *what, const xcover_problem_t *p, xcover_engine_t e) {
    xcover_opts_t o;
    xcover_result_t r;
    int64_t t0;
    xcover_opts_init(&o);
    o.engine = e;
    o.max_solutions = 0;
    t0 = search_now_ns();
    xcover_solve(p, &o, &r);
    printf("  %-34s %-12s %8llu solutions %10llu nodes %9.3f s\n", what, xcover_engine_name(e),
           (unsigned long long)r.solutions_found, (unsigned long long)r.stats.nodes,
           secs(search_now_ns() - t0));
}

static void bench_classics(void) {
    static const uint32_t kstart[7] = {0, 3, 6, 9, 11, 13, 16};
    static const uint32_t kitems[16] = {2, 4, 5, 0, 3, 6, 1, 2, 5, 0, 3, 1, 6, 3, 4, 6};
    xcover_spec_t spec = {7, 0, 6, kstart, kitems};
    xcover_problem_t *knuth = NULL, *quarter = pentominoes(1), *full = pentominoes(0);
    int e;

    printf("== exact cover classics\n");
    if (xcover_problem_new(&spec, NULL, &knuth, NULL) == 0) {
        for (e = 0; e < XCOVER_ENGINE_COUNT; e++)
            count_run("Knuth's example (1)", knuth, (xcover_engine_t)e);
    }
    if (quarter != NULL) {
        for (e = 0; e < XCOVER_ENGINE_COUNT; e++)
            count_run("pentominoes 6x10, X quartered (2339)", quarter, (xcover_engine_t)e);
    }
    if (full != NULL) {
        par_result_t r1, r2;
        count_run("pentominoes 6x10, all (9356)", full, XCOVER_ENGINE_DLX);
        r1 = par_solve(full, NULL, 0, 0, 1, 64, 600);
        r2 = par_solve(full, NULL, 0, 0, 2, 64, 600);
        printf("  %-34s %-12s %8llu solutions %10llu nodes %9.3f s  (%zu roots at depth %u)\n",
               "  same, split, 1 thread", "dlx", (unsigned long long)r1.found,
               (unsigned long long)r1.nodes, r1.total_s, r1.roots, r1.depth);
        printf("  %-34s %-12s %8llu solutions %10llu nodes %9.3f s  speedup %.2fx\n",
               "  same, split, 2 threads", "dlx", (unsigned long long)r2.found,
               (unsigned long long)r2.nodes, r2.total_s,
               r2.total_s > 0 ? r1.total_s / r2.total_s : 0.0);
    }
    xcover_problem_free(knuth);
    xcover_problem_free(quarter);
    xcover_problem_free(full);
}

/* === Puzzle files ========================================================== */

typedef struct puzzle_s {
    char id[64];
    int n;
    uint8_t grid[MAX_N * MAX_N];
    uint8_t solution[MAX_N * MAX_N]; /* all 0 when unknown */
} puzzle_t;

static int symbol_value(char ch) {
    if (ch >= '1' && ch <= '9') return ch - '0';
    if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 10;
    return 0; /* '.', '0' */
}

/* Reads up to `cap` puzzles of side n from a one-puzzle-a-line file: 9x9
 * lines are 81 symbols; 16x16 lines are `<id> <puzzle> <solution>`. */
static size_t read_lines(const char *path, int n, puzzle_t *out, size_t cap) {
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t len = 0, count = 0;
    int i;

    if (f == NULL) return 0;
    while (count < cap && getline(&line, &len, f) > 0) {
        puzzle_t *pz = &out[count];
        char id[64], puz[400], sol[400];
        if (line[0] == '#') continue;
        memset(pz, 0, sizeof *pz);
        pz->n = n;
        if (n == 9) {
            if (strlen(line) < 81) continue;
            for (i = 0; i < 81; i++)
                pz->grid[i] = (uint8_t)symbol_value(line[i]);
            snprintf(pz->id, sizeof pz->id, "#%zu", count + 1);
        } else {
            if (sscanf(line, "%63s %399s %399s", id, puz, sol) != 3) continue;
            if ((int)strlen(puz) != n * n || (int)strlen(sol) != n * n) continue;
            for (i = 0; i < n * n; i++) {
                pz->grid[i] = (uint8_t)symbol_value(puz[i]);
                pz->solution[i] = (uint8_t)symbol_value(sol[i]);
            }
            snprintf(pz->id, sizeof pz->id, "%.40s:%zu", id, count + 1); /* ids repeat */
        }
        count++;
    }
    free(line);
    fclose(f);
    return count;
}

/* Parses "size", "id", "givens":{"r,c":v,...} and "solution":[[...]] from
 * one JSON line, by hand (enough for big_sudoku.jsonl).  Returns 0 or -1. */
static int parse_big(const char *line, puzzle_t *pz) {
    const char *s;
    int i;
    memset(pz, 0, sizeof *pz);
    if ((s = strstr(line, "\"id\"")) != NULL && (s = strchr(s + 4, '"')) != NULL) {
        for (i = 0; i < 63 && s[1 + i] != '"' && s[1 + i] != '\0'; i++)
            pz->id[i] = s[1 + i];
    }
    if ((s = strstr(line, "\"size\"")) == NULL) return -1;
    pz->n = atoi(strchr(s, ':') + 1);
    if (pz->n < SUDOKU_MIN_N || pz->n > MAX_N) return -1;
    if ((s = strstr(line, "\"givens\"")) == NULL || (s = strchr(s, '{')) == NULL) return -1;
    for (s++; *s != '}' && *s != '\0';) {
        int r, c, v;
        char *end;
        if (*s != '"') {
            s++;
            continue;
        }
        r = (int)strtol(s + 1, &end, 10);
        if (*end != ',') return -1;
        c = (int)strtol(end + 1, &end, 10);
        if (*end != '"' || (end = strchr(end, ':')) == NULL) return -1;
        v = (int)strtol(end + 1, &end, 10);
        if (r < 0 || r >= pz->n || c < 0 || c >= pz->n || v < 1 || v > pz->n) return -1;
        pz->grid[r * pz->n + c] = (uint8_t)v;
        s = end;
    }
    if ((s = strstr(line, "\"solution\"")) != NULL && (s = strchr(s, '[')) != NULL) {
        for (i = 0; i < pz->n * pz->n; i++) {
            while (*s != '\0' && (*s < '0' || *s > '9'))
                s++;
            if (*s == '\0') break;
            pz->solution[i] = (uint8_t)strtol(s, (char **)&s, 10);
        }
        if (i < pz->n * pz->n) memset(pz->solution, 0, sizeof pz->solution);
    }
    return 0;
}

static size_t read_big(const char *path, puzzle_t *out, size_t cap) {
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t len = 0, count = 0;
    if (f == NULL) return 0;
    while (count < cap && getline(&line, &len, f) > 0)
        if (parse_big(line, &out[count]) == 0) count++;
    free(line);
    fclose(f);
    return count;
}

/* === 2, 3. Sudoku runs ======================================================= */

/* Problems per side (default box), built on first use. */
typedef struct shapes_s {
    sudoku_shape_t shape[MAX_N + 1];
    xcover_problem_t *problem[MAX_N + 1];
} shapes_t;

static const xcover_problem_t *problem_for(shapes_t *sh, int n) {
    if (sh->problem[n] == NULL) {
        if (sudoku_shape_init(&sh->shape[n], n, 0, 0) != 0) return NULL;
        if (sudoku_xc_problem_new(&sh->shape[n], NULL, &sh->problem[n]) != 0) return NULL;
    }
    return sh->problem[n];
}

typedef struct run_s {
    int rc;
    uint32_t found;
    int exhausted, matches;
    uint64_t nodes;
    double s;
} run_t;

static run_t solve_one(shapes_t *sh, const puzzle_t *pz, xcover_engine_t e, uint32_t max,
                       double limit_s) {
    sudoku_xc_opts_t o;
    sudoku_xc_result_t r;
    search_ctl_t ctl = {.deadline_ns = 0};
    uint8_t sols[2 * MAX_N * MAX_N];
    run_t out;
    int64_t t0 = search_now_ns();
    size_t nn = (size_t)pz->n * (size_t)pz->n;

    memset(&out, 0, sizeof out);
    sudoku_xc_opts_init(&o);
    o.engine = e;
    o.max_solutions = max;
    o.solutions = sols;
    o.problem = problem_for(sh, pz->n);
    if (limit_s > 0) {
        ctl.deadline_ns = t0 + (int64_t)(limit_s * 1e9);
        o.ctl = &ctl;
    }
    out.rc = sudoku_xc_solve(&sh->shape[pz->n], pz->grid, &o, &r);
    out.s = secs(search_now_ns() - t0);
    out.found = r.solutions_found;
    out.exhausted = r.exhausted;
    out.nodes = r.stats.nodes;
    out.matches =
        r.solutions_found >= 1 && sudoku_check_solution(&sh->shape[pz->n], pz->grid, sols) == 1;
    if (out.matches && pz->solution[0] != 0) out.matches = memcmp(sols, pz->solution, nn) == 0;
    return out;
}

/* Keeps slowest[] (NSLOW entries, slowest first) up to date. */
static void note_slow(slow_t *slowest, const puzzle_t *pz, double s) {
    size_t j;
    for (j = 0; j < NSLOW; j++) {
        if (slowest[j].pz == NULL || s > slowest[j].s) {
            memmove(&slowest[j + 1], &slowest[j], (NSLOW - 1 - j) * sizeof *slowest);
            slowest[j].pz = pz;
            slowest[j].s = s;
            return;
        }
    }
}

/* Runs a collection with one engine under the count and time caps; with
 * `slowest` the puzzles that were solved are ranked by time. */
static void run_collection(shapes_t *sh, const char *name, const puzzle_t *pz, size_t count,
                           xcover_engine_t e, const config_t *cfg, double per_puzzle_s,
                           slow_t *slowest) {
    uint64_t nodes = 0;
    size_t done = 0, solved = 0, unique = 0, bad = 0, stopped = 0;
    int64_t t0 = search_now_ns();
    double total;

    for (; done < count && done < (size_t)cfg->max_puzzles; done++) {
        run_t r = solve_one(sh, &pz[done], e, 2, per_puzzle_s);
        nodes += r.nodes;
        if (r.rc != 0)
            stopped++;
        else if (r.found >= 1)
            solved++;
        if (r.rc == 0 && r.found == 1 && r.exhausted) unique++;
        if (r.found >= 1 && !r.matches) bad++;
        if (slowest != NULL && r.rc == 0 && r.found >= 1) note_slow(slowest, &pz[done], r.s);
        if (secs(search_now_ns() - t0) > cfg->seconds) {
            done++;
            break;
        }
    }
    total = secs(search_now_ns() - t0);
    printf("  %-28s %-11s %5zu/%-5zu %8.0f puzzles/s %9.0f nodes/puzzle  solved %zu unique %zu",
           name, xcover_engine_name(e), done, count, done / (total > 0 ? total : 1e-9),
           done ? (double)nodes / (double)done : 0.0, solved, unique);
    if (stopped) printf("  stopped %zu", stopped);
    printf("%s\n", bad ? "  WRONG ANSWERS" : "");
}

static void bench_9x9(shapes_t *sh, const config_t *cfg) {
    static const char *const files[] = {"top95.txt",
                                        "hardest.txt",
                                        "puzzles3_magictour_top1465",
                                        "puzzles6_forum_hardest_1106",
                                        "puzzles7_serg_benchmark",
                                        "puzzles2_17_clue"};
    puzzle_t *pz = malloc((size_t)cfg->max_puzzles * sizeof *pz);
    size_t f, count;
    int e;
    char path[1024];

    printf("== 9x9 (max_solutions 2; first %ld puzzles or %.0f s per engine)\n", cfg->max_puzzles,
           cfg->seconds);
    if (pz == NULL) return;
    for (f = 0; f < sizeof files / sizeof files[0]; f++) {
        snprintf(path, sizeof path, "%s/sudoku9/%s", cfg->dir, files[f]);
        count = read_lines(path, 9, pz, (size_t)cfg->max_puzzles);
        if (count == 0) {
            printf("  %-30s skipped (not found)\n", files[f]);
            continue;
        }
        for (e = 0; e < XCOVER_ENGINE_COUNT; e++)
            run_collection(sh, files[f], pz, count, (xcover_engine_t)e, cfg, 0, NULL);
    }
    free(pz);
}

static void bench_big(shapes_t *sh, const config_t *cfg, puzzle_t *big, size_t nbig,
                      slow_t *slowest) {
    static const char *const files16[] = {"janko_sudoku_16x16.txt", "oct9_sudoku_16x16.txt"};
    static puzzle_t p16[2][200];
    size_t f, count, k;
    char path[1024];
    int e;

    printf("== 16x16 and bigger (max_solutions 2, answers checked against the files)\n");
    for (f = 0; f < 2; f++) {
        snprintf(path, sizeof path, "%s/sudoku16/%s", cfg->dir, files16[f]);
        count = read_lines(path, 16, p16[f], 200);
        if (count == 0) {
            printf("  %-30s skipped (not found)\n", files16[f]);
            continue;
        }
        for (e = 0; e < XCOVER_ENGINE_COUNT; e++)
            run_collection(sh, files16[f], p16[f], count, (xcover_engine_t)e, cfg, cfg->big_seconds,
                           e == XCOVER_ENGINE_DLX ? slowest : NULL);
    }
    if (nbig == 0) {
        printf("  big/big_sudoku.jsonl skipped (not found)\n");
        return;
    }
    printf("  big/big_sudoku.jsonl, dlx, %.0f s per solve (first solution, then to 2):\n",
           cfg->big_seconds);
    for (k = 0; k < nbig; k++) {
        run_t r1 = solve_one(sh, &big[k], XCOVER_ENGINE_DLX, 1, cfg->big_seconds);
        run_t r2 = r1.rc == 0 ? solve_one(sh, &big[k], XCOVER_ENGINE_DLX, 2, cfg->big_seconds) : r1;
        if (big[k].n == 16 && r1.s < 0.05 && r2.rc == 0 && r1.matches) {
            /* the many easy 16x16 ones: keep the listing short */
        } else {
            printf("    %-28s %2dx%-2d first %8.3f s %10llu nodes %-9s  to 2: %8.3f s %s\n",
                   big[k].id, big[k].n, big[k].n, r1.s, (unsigned long long)r1.nodes,
                   r1.rc != 0   ? "TIMEOUT"
                   : r1.matches ? "ok"
                                : "WRONG",
                   r2.s,
                   r2.rc != 0     ? "TIMEOUT"
                   : r2.exhausted ? (r2.found == 1 ? "unique" : "several")
                                  : "several");
        }
        if (r1.rc == 0) note_slow(slowest, &big[k], r1.s);
    }
    printf("    (16x16 puzzles solved and checked in < 0.05 s not listed)\n");
}

/* === 4. Parallel ============================================================= */

/* Sequential against split over 1 and 2 threads, for max_solutions 1..max_want. */
static void bench_parallel_one(shapes_t *sh, const puzzle_t *pz, uint64_t max_want, double limit) {
    const xcover_problem_t *p = problem_for(sh, pz->n);
    uint32_t givens[MAX_N * MAX_N];
    size_t ng = 0;
    uint64_t want;
    sudoku_xc_givens(&sh->shape[pz->n], pz->grid, givens, &ng);
    for (want = 1; want <= max_want; want++) {
        run_t seq = solve_one(sh, pz, XCOVER_ENGINE_DLX, (uint32_t)want, limit);
        par_result_t r1 = par_solve(p, givens, ng, want, 1, 64, limit);
        par_result_t r2 = par_solve(p, givens, ng, want, 2, 64, limit);
        printf("  %-20s %2dx%-2d to %llu: sequential %7.3f s | split 1 thread %7.3f s | "
               "2 threads %7.3f s (%zu roots, depth %u, split %.3f s) speedup %.2fx%s\n",
               pz->id, pz->n, pz->n, (unsigned long long)want, seq.s, r1.total_s, r2.total_s,
               r2.roots, r2.depth, r2.split_s, r2.total_s > 0 ? seq.s / r2.total_s : 0.0,
               (r1.ok && r2.ok && seq.rc == 0 && r2.found == seq.found) ? ""
                                                                        : "  MISMATCH/STOPPED");
    }
}

static void bench_parallel(shapes_t *sh, const slow_t *slowest, const config_t *cfg,
                           const puzzle_t *big, size_t nbig) {
    size_t k;
    printf("== split over 2 threads vs sequential (dlx; >= 64 roots, depth from split)\n");
    if (slowest[0].pz == NULL) printf("  no puzzle finished\n");
    for (k = 0; k < NSLOW && slowest[k].pz != NULL; k++)
        bench_parallel_one(sh, slowest[k].pz, 2, 4 * cfg->big_seconds);
    for (int i = 0; i < cfg->npar; i++) {
        for (k = 0; k < nbig && strcmp(big[k].id, cfg->par_ids[i]) != 0; k++)
            continue;
        if (k == nbig) {
            printf("  %-20s not in the big file, skipped\n", cfg->par_ids[i]);
            continue;
        }
        bench_parallel_one(sh, &big[k], 1, 60.0); /* hard: first solution, one minute */
    }
}

int main(int argc, char **argv) {
    config_t cfg = {"../shared/data", 2000, 2.0, 5.0, {NULL}, 0};
    static puzzle_t big[128];
    shapes_t *sh = calloc(1, sizeof *sh);
    slow_t slowest[NSLOW];
    char path[1024];
    size_t nbig;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            cfg.max_puzzles = atol(argv[++i]);
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
            cfg.seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "-b") == 0 && i + 1 < argc)
            cfg.big_seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc && cfg.npar < 4)
            cfg.par_ids[cfg.npar++] = argv[++i];
        else if (argv[i][0] != '-')
            cfg.dir = argv[i];
        else {
            fprintf(
                stderr,
                "usage: %s [DATA_DIR] [-n MAX_PUZZLES] [-t SECONDS] [-b SECONDS] [-p BIG_ID]...\n",
                argv[0]);
            return 2;
        }
    }
    if (sh == NULL || cfg.max_puzzles < 1) return 1;
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows when piped to a file */
    memset(slowest, 0, sizeof slowest);
    bench_classics();
    bench_9x9(sh, &cfg);
    snprintf(path, sizeof path, "%s/big/big_sudoku.jsonl", cfg.dir);
    nbig = read_big(path, big, sizeof big / sizeof big[0]);
    bench_big(sh, &cfg, big, nbig, slowest);
    bench_parallel(sh, slowest, &cfg, big, nbig);
    for (i = 0; i <= MAX_N; i++)
        xcover_problem_free(sh->problem[i]);
    free(sh);
    return 0;
}
