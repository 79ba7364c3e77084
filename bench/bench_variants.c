/* bench_variants.c -- every janko.at variant puzzle of a folder solved at the
 * solver level, through the request body a client would send.
 *
 *   bench_variants [-d DIR] [-m METHOD] [-L LEVEL] [-p SECONDS] [-k PUZZLES] [-x] [-l] [-q] | -c
 * FILE
 *
 *   -d  the folder (default ../shared/data/variants): every *Sudoku.jsonl in
 *       it, in name order; a held-out folder in the same format works alike
 *   -m  the method (sudoku_method_parse names; default auto)
 *   -L  its propagation level (peers, hidden-singles, naked-pairs, subsets)
 *   -p  time limit a puzzle, seconds (default 60)
 *   -k  at most this many puzzles a file (default all)
 *   -x  cross-check: every puzzle also by propagation (hidden singles),
 *       cdcl and, where the model is an exact cover, dlx (with line rules,
 *       which those two refuse: best-first), each with max_solutions 2;
 *       every answer must agree (a disagreement counts as wrong)
 *   -l  also grade every puzzle with the logic engine (sudoku/logic.h),
 *       every step checked against the file's solution (an elimination of
 *       its digit, a placement of another, is wrong); per variant: how many
 *       logic finished without trial or guess, the mean rating, the steps
 *       that were wrong, the median and worst grading time
 *   -q  the summary lines only
 *   -c FILE  instead: a classic 9x9 collection (81 characters a line, '.'
 *       or '0' empty) solved by sudoku_solve() (auto) and by
 *       sudoku_model_solve() on the model of a request with "variant":
 *       "classic", interleaved, best of 3 (max_solutions 2): the variants'
 *       path must be no slower on the classic grid
 *
 * For each line: bench/janko.c decodes it into the request body of
 * docs/variants.md, api/sudoku_variant.c reads that body into a model and
 * a puzzle (what the endpoints will do), the known solution is checked
 * against the model (a decoding that its own solution breaks is wrong),
 * and sudoku_model_solve() runs with max_solutions 2.  A puzzle is solved
 * when the search ends with exactly one solution equal to the file's;
 * wrong when it returns another grid, none, or a grid that breaks the
 * rules; not proved unique when it finds two or stops first.  Times are
 * the solve's CPU time alone (decoding, reading and building the model
 * excluded; building is timed apart, per file); the deadline is wall time.
 *
 * Output: a line per file (puzzles, solved, median and worst milliseconds,
 * mean nodes, how many the cdcl method answered: auto hands over to it
 * past 256 propagation nodes), the skipped files with why, and last
 *   variants: N solved, W wrong, U not proved unique, S skipped
 * where S counts the puzzles of files it cannot read.  Exit code 1 when W
 * or U is not 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/sudoku_variant.h"
#include "bench/janko.h"
#include "solvers/sudoku/logic.h"
#include "solvers/sudoku/model.h"

#define MAX_FILES 64

/* CPU time of this thread: the machine is shared, and wall time counts the
 * waits for a core (worst cases of 20-40 ms that were other work's). */
static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct totals_s {
    long solved, wrong, unproved, skipped;
} totals_t;

typedef struct opts_s {
    sudoku_method_t method;
    sudoku_level_t level;
    double limit_s;
    long max_puzzles;
    int cross, quiet, logic;
} opts_t;

/* === Grading by the logic engine, each step checked === */

typedef struct lstats_s {
    long graded, by_logic, bad_steps, failed;
    double rating_sum;
    double *times;
    long ntimes;
} lstats_t;

typedef struct lchk_s {
    const uint8_t *sol;
    long bad;
} lchk_t;

static int lchk_step(void *ud, const sudoku_logic_t *st, const sudoku_logic_step_t *s) {
    lchk_t *c = ud;
    (void)st;
    c->bad += sudoku_logic_step_wrong(s, c->sol);
    return 0;
}

static void grade_one(const sudoku_model_t *m, const uint8_t *puzzle, const uint8_t *sol,
                      double limit_s, lstats_t *ls) {
    sudoku_logic_t *st = sudoku_logic_new_model(m);
    sudoku_logic_opts_t o;
    sudoku_grade_t g;
    search_ctl_t ctl;
    lchk_t chk = {sol, 0};
    uint8_t *end = malloc((size_t)m->ncells);
    double t0;
    if (st == NULL || end == NULL) {
        ls->failed++;
        goto out;
    }
    memset(&ctl, 0, sizeof ctl);
    ctl.deadline_ns = search_now_ns() + (int64_t)(limit_s * 1e9);
    sudoku_logic_opts_init(&o);
    o.assume_unique = 1;
    o.solution = sol;
    o.ctl = &ctl;
    o.on_step = lchk_step;
    o.ud = &chk;
    t0 = now_ms();
    if (sudoku_logic_load(st, puzzle) != 0 || sudoku_logic_grade(st, &o, &g) != 0 || !g.solved) {
        ls->failed++;
    } else {
        sudoku_logic_grid(st, end);
        if (memcmp(end, sol, (size_t)m->ncells) != 0) chk.bad++;
        ls->graded++;
        ls->by_logic += g.solved_by_logic;
        ls->rating_sum += g.rating;
    }
    ls->times[ls->ntimes++] = now_ms() - t0;
    ls->bad_steps += chk.bad;
out:
    sudoku_logic_free(st);
    free(end);
}

/* One solve with max_solutions 2 under the time limit.  Returns the
 * outcome: 1 solved (unique, equal to sol), 0 not proved unique, -1 wrong
 * (*why says how), 2 refused (SUDOKU_EMETHOD: dlx on consecutive marks,
 * fast on a variant; counted as skipped). */
static int solve_one(const sudoku_model_t *m, const uint8_t *puzzle, const uint8_t *sol,
                     sudoku_method_t method, sudoku_level_t level, double limit_s,
                     sudoku_result_t *res, double *ms, const char **why) {
    uint8_t *grids = malloc(2 * (size_t)m->ncells);
    search_ctl_t ctl;
    sudoku_opts_t o;
    double t0;
    int rc, out;
    if (grids == NULL) {
        *why = "out of memory";
        return -1;
    }
    memset(&ctl, 0, sizeof ctl);
    ctl.deadline_ns = search_now_ns() + (uint64_t)(limit_s * 1e9);
    sudoku_opts_init(&o);
    o.method = method;
    o.level = level;
    o.max_solutions = 2;
    o.solutions = grids;
    o.ctl = &ctl;
    t0 = now_ms();
    rc = sudoku_model_solve(m, puzzle, &o, res);
    *ms = now_ms() - t0;
    out = 1;
    *why = "";
    if (rc == SUDOKU_EMETHOD) {
        free(grids);
        *why = "the method does not take this variant";
        return 2;
    }
    for (uint32_t k = 0; k < res->solutions_found && out >= 0; k++)
        if (sudoku_model_check_solution(m, puzzle, grids + (size_t)k * m->ncells) != 1) {
            *why = "a returned grid breaks the rules";
            out = -1;
        }
    if (out < 0) {
        /* stays wrong */
    } else if (rc != 0 && rc != SEARCH_TIMEOUT) {
        *why = search_code_name(rc);
        out = -1;
    } else if (res->solutions_found == 0 && rc == 0) {
        *why = "no solution found";
        out = -1;
    } else if (res->solutions_found >= 1 && memcmp(grids, sol, (size_t)m->ncells) != 0 &&
               (res->solutions_found == 1 ||
                memcmp(grids + m->ncells, sol, (size_t)m->ncells) != 0)) {
        *why = res->solutions_found == 1 && rc == 0 ? "the only solution differs from the file's"
                                                    : "solutions differ from the file's";
        out = -1;
    } else if (!sudoku_result_unique(res)) {
        *why = rc == SEARCH_TIMEOUT ? "stopped by the time limit" : "a second solution";
        out = 0;
    }
    free(grids);
    return out;
}

/* The same puzzle by the other engines; returns -1 when one disagrees. */
static int cross_check(const sudoku_model_t *m, const uint8_t *puzzle, const uint8_t *sol,
                       double limit_s, const char **why) {
    static const sudoku_method_t methods[] = {SUDOKU_METHOD_PROPAGATION, SUDOKU_METHOD_CDCL,
                                              SUDOKU_METHOD_DLX, SUDOKU_METHOD_BEST_FIRST};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        /* best-first: the second engine for line rules, which cdcl and dlx refuse */
        if (methods[i] == SUDOKU_METHOD_BEST_FIRST && m->nlines == 0) continue;
        sudoku_result_t r;
        double ms;
        int out =
            solve_one(m, puzzle, sol, methods[i], SUDOKU_LEVEL_DEFAULT, limit_s, &r, &ms, why);
        if (out == 2) continue; /* consecutive marks: no exact cover */
        if (out != 1) return -1;
    }
    return 0;
}

static void run_file(const char *path, const char *variant, const opts_t *op, totals_t *tot) {
    FILE *f = fopen(path, "r");
    char *line = NULL, err[160];
    size_t cap = 0;
    double *times = NULL, build_ms = 0;
    long count = 0, solved = 0, wrong = 0, unproved = 0, refused = 0, nt = 0, ntcap = 0;
    lstats_t ls;
    uint64_t nodes = 0;
    long by_cdcl = 0;
    if (f == NULL) {
        printf("%-22s cannot open %s\n", variant, path);
        return;
    }
    memset(&ls, 0, sizeof ls);
    ls.times = malloc(sizeof *ls.times * (size_t)(op->max_puzzles ? op->max_puzzles : 100000));
    if (ls.times == NULL) exit(2);
    while (getline(&line, &cap, f) > 0 && (op->max_puzzles == 0 || count < op->max_puzzles)) {
        janko_t j;
        api_sudoku_variant_t v;
        api_problem_t p;
        sudoku_model_t *m = NULL;
        sudoku_result_t res;
        uint8_t *puzzle = NULL;
        const char *why = "";
        double ms = 0, t0;
        int out = -1;
        count++;
        memset(&p, 0, sizeof p);
        if (janko_decode(variant, line, &j, err, sizeof err) != 0) {
            printf("  line %ld: %s\n", count, err);
            wrong++;
            continue;
        }
        t0 = now_ms();
        puzzle = malloc((size_t)j.rows * j.cols);
        if (puzzle == NULL || api_sudoku_variant_read(j.request, 0, &v, &p) != 0) {
            why = "the request was refused";
        } else if (v.rows != j.rows || v.cols != j.cols) {
            why = "the variant's frame differs from the file's";
        } else if (api_sudoku_variant_grid(json_object_get(j.request, "grid"), &v, puzzle, &p) !=
                       0 ||
                   api_sudoku_variant_model(&v, NULL, &m, &p) != 0) {
            why = "the request was refused";
        } else if (sudoku_model_check_solution(m, puzzle, j.solution) != 1) {
            why = "the file's solution breaks the decoded rules";
        } else {
            build_ms += now_ms() - t0;
            out = solve_one(m, puzzle, j.solution, op->method, op->level, op->limit_s, &res, &ms,
                            &why);
            by_cdcl += res.method == SUDOKU_METHOD_CDCL;
            nodes += res.stats.nodes;
            if (out == 1 && op->cross && cross_check(m, puzzle, j.solution, op->limit_s, &why))
                out = -1;
            if (op->logic && m->n <= SUDOKU_LOGIC_MAX_N)
                grade_one(m, puzzle, j.solution, op->limit_s, &ls);
        }
        if (p.nerrors > 0)
            printf("  %s: %s: %s %s\n", j.id, why, p.errors[0].field, p.errors[0].detail);
        else if (out != 1 && out != 2 && !op->quiet)
            printf("  %s: %s\n", j.id, why);
        if (out == 2)
            refused++;
        else if (out == 1)
            solved++;
        else if (out == 0)
            unproved++;
        else
            wrong++;
        if (nt == ntcap) {
            ntcap = ntcap ? 2 * ntcap : 256;
            times = realloc(times, (size_t)ntcap * sizeof *times);
            if (times == NULL) exit(2);
        }
        if (out != 2) times[nt++] = ms;
        sudoku_model_free(m);
        api_sudoku_variant_free(&v);
        free(puzzle);
        janko_free(&j);
    }
    free(line);
    fclose(f);
    qsort(times, (size_t)nt, sizeof *times, cmp_double);
    printf("%-12s %6ld %7ld %6ld %6ld %10.3f %10.3f %10.3f %11.0f %8ld\n", variant, count, solved,
           wrong, unproved, nt ? times[nt / 2] : 0.0, nt ? times[nt - 1] : 0.0,
           count ? build_ms / (double)count : 0.0, count ? (double)nodes / (double)count : 0.0,
           by_cdcl);
    if (refused > 0)
        printf("  %ld skipped: %s takes no %s (SUDOKU_EMETHOD)\n", refused,
               sudoku_method_name(op->method), variant);
    if (op->logic) {
        qsort(ls.times, (size_t)ls.ntimes, sizeof *ls.times, cmp_double);
        printf("  logic: %ld graded, %ld by logic alone (no trial, no guess), mean rating %.2f, "
               "%ld wrong steps, %ld not finished; median %.3f ms, worst %.3f ms\n",
               ls.graded, ls.by_logic, ls.graded ? ls.rating_sum / (double)ls.graded : 0.0,
               ls.bad_steps, ls.failed, ls.ntimes ? ls.times[ls.ntimes / 2] : 0.0,
               ls.ntimes ? ls.times[ls.ntimes - 1] : 0.0);
        tot->wrong += ls.bad_steps + ls.failed;
    }
    free(ls.times);
    tot->solved += solved;
    tot->wrong += wrong;
    tot->unproved += unproved;
    tot->skipped += refused;
    free(times);
}

/* === A classic collection through both entries ========================= */

static int classic_compare(const char *path) {
    FILE *f = fopen(path, "r");
    char line[256];
    uint8_t *puz = NULL, sols[2 * 81];
    size_t count = 0, cap = 0;
    double best[2] = {1e30, 1e30};
    uint64_t nodes[2] = {0, 0};
    sudoku_model_t *m = NULL;
    sudoku_shape_t sh;
    api_sudoku_variant_t v;
    api_problem_t p;
    json_t *body = json_pack("{s:s,s:s}", "variant", "classic", "grid",
                             "................................................................."
                             "................");
    if (f == NULL || body == NULL) return 2;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strlen(line) < 81 || line[0] == '#') continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 1024;
            puz = realloc(puz, cap * 81);
            if (puz == NULL) return 2;
        }
        for (int i = 0; i < 81; i++)
            puz[count * 81 + i] = line[i] >= '1' && line[i] <= '9' ? (uint8_t)(line[i] - '0') : 0;
        count++;
    }
    fclose(f);
    memset(&p, 0, sizeof p);
    if (api_sudoku_variant_read(body, 0, &v, &p) != 0 ||
        api_sudoku_variant_model(&v, NULL, &m, &p) != 0 || !m->classic)
        return 2;
    sudoku_shape_init(&sh, 9, 3, 3);
    for (int rep = 0; rep < 3; rep++)
        for (int side = 0; side < 2; side++) {
            double t0 = now_ms();
            nodes[side] = 0;
            for (size_t k = 0; k < count; k++) {
                sudoku_opts_t o;
                sudoku_result_t r;
                sudoku_opts_init(&o);
                o.max_solutions = 2;
                o.solutions = sols;
                if (side == 0)
                    sudoku_solve(&sh, puz + k * 81, &o, &r);
                else
                    sudoku_model_solve(m, puz + k * 81, &o, &r);
                nodes[side] += r.stats.nodes;
            }
            if (now_ms() - t0 < best[side]) best[side] = now_ms() - t0;
        }
    printf("classic %s: %zu puzzles, best of 3 interleaved, max_solutions 2\n", path, count);
    printf("  sudoku_solve (auto)                  %10.1f puzzles/s  %llu nodes\n",
           1e3 * (double)count / best[0], (unsigned long long)nodes[0]);
    printf("  sudoku_model_solve (variant classic) %10.1f puzzles/s  %llu nodes  (%.3fx)\n",
           1e3 * (double)count / best[1], (unsigned long long)nodes[1], best[0] / best[1]);
    sudoku_model_free(m);
    api_sudoku_variant_free(&v);
    json_decref(body);
    free(puz);
    return 0;
}

static void usage(void) {
    fprintf(stderr, "usage: bench_variants [-d DIR] [-m METHOD] [-L LEVEL] [-p SECONDS] [-k "
                    "PUZZLES] [-x] [-l] [-q] | -c FILE\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *dir = "../shared/data/variants";
    char *names[MAX_FILES], path[1024], skipped[4096] = "";
    int nfiles = 0;
    opts_t op = {SUDOKU_METHOD_AUTO, SUDOKU_LEVEL_DEFAULT, 60.0, 0, 0, 0, 0};
    totals_t tot = {0, 0, 0, 0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
            if (sudoku_method_parse(argv[++i], &op.method) != 0) usage();
        } else if (strcmp(argv[i], "-L") == 0 && i + 1 < argc) {
            if (sudoku_level_parse(argv[++i], &op.level) != 0) usage();
        } else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            op.limit_s = atof(argv[++i]);
        else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
            op.max_puzzles = atol(argv[++i]);
        else if (strcmp(argv[i], "-x") == 0)
            op.cross = 1;
        else if (strcmp(argv[i], "-q") == 0)
            op.quiet = 1;
        else if (strcmp(argv[i], "-l") == 0)
            op.logic = 1;
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            return classic_compare(argv[i + 1]);
        else
            usage();
    }
    if ((nfiles = janko_list(dir, names, MAX_FILES)) < 0) {
        printf("bench_variants: no folder %s (skipped)\n", dir);
        printf("variants: 0 solved, 0 wrong, 0 not proved unique, 0 skipped\n");
        return 0;
    }
    printf("bench_variants: %s, method %s, %.0f s a puzzle, max_solutions 2%s\n", dir,
           sudoku_method_name(op.method), op.limit_s, op.cross ? ", cross-checked" : "");
    printf("%-12s %6s %7s %6s %6s %10s %10s %10s %11s %8s\n", "variant", "puzzles", "solved",
           "wrong", "unproved", "median ms", "worst ms", "build ms", "nodes/puz", "by cdcl");
    for (int i = 0; i < nfiles; i++) {
        const char *why = NULL, *variant;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        variant = janko_file_variant(path, &why);
        if (variant == NULL) {
            long k = janko_count_lines(path);
            tot.skipped += k;
            snprintf(skipped + strlen(skipped), sizeof skipped - strlen(skipped),
                     "skipped: %s (%ld puzzles): %s\n", names[i], k, why);
        } else {
            run_file(path, variant, &op, &tot);
        }
        free(names[i]);
    }
    printf("%s", skipped);
    printf("variants: %ld solved, %ld wrong, %ld not proved unique, %ld skipped\n", tot.solved,
           tot.wrong, tot.unproved, tot.skipped);
    return tot.wrong == 0 && tot.unproved == 0 ? 0 : 1;
}
