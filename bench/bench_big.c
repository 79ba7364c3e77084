/* bench_big.c -- big Sudoku (16x16 to 64x64): puzzled's cdcl method against
 * CaDiCaL on the same puzzles, in the same run, interleaved.
 *
 *   bench_big [-d DATA_DIR] [-f TEXT] [-r REPS] [-j THREADS] [-T SECONDS]
 *             [-m METHOD] [-v VARIANT] [-c CADICAL | -C] [-w DIR] [-q] [-X]
 *
 *   -d  the collections (default ../shared/data); reads big/big_sudoku.jsonl
 *   -f  only puzzles whose id contains TEXT (default "gecode-" and size 25:
 *       the nine minimal 25x25 of A. Frisch); "all" = every puzzle of the file
 *   -r  repetitions, interleaved puzzled / CaDiCaL, best kept (default 3)
 *   -j  puzzled threads (default 2): a portfolio, member k runs variant k,
 *       the members share solutions and short learned clauses
 *       (sudoku/exchange.h), the first to finish cancels the others;
 *       -X: members search alone (no exchange)
 *   -T  deadline per solve, seconds (default 60)
 *   -m  puzzled method (default cdcl); -v the variant of a one-thread run
 *   -c  CaDiCaL binary (default: cadical on PATH); -C skips it
 *   -w  directory for the CNF files (default: a fresh one under /tmp)
 *   -q  one line per puzzle only
 *
 * Both sides answer the same question: the solution, and whether it is
 * unique.  puzzled: one sudoku_solve() with max_solutions = 2.  CaDiCaL, as
 * a general SAT solver is used for this: the direct CNF (x(r,c,v) = var
 * (r*n + c)*n + v; per cell at least one value and at most one; per row,
 * column and box and value at least one cell and at most one, pairwise;
 * givens as unit clauses), solved; then the same CNF plus a clause
 * excluding the model found, solved again (UNSAT = unique).  Its time is
 * the wall time of the two processes, parsing included (the CNF of a 25x25
 * is 10 MB; parsing takes ~0.1 s of it).
 *
 * The last column says what the answering member did, and its own CPU
 * time: on a machine shared with other work the wall time can be much
 * longer (the member waited for a core).
 *
 * Every solution of both sides is checked against the rules, the givens and
 * the file's solution; a failure is printed and makes the exit code 1. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "solvers/sudoku/exchange.h"
#include "solvers/sudoku/sudoku.h"

#define MAX_PUZZLES 256
#define MAX_THREADS 8

typedef struct puzzle_s {
    char id[64];
    int n;
    int unique;               /* 1 true, 0 false, -1 unknown */
    uint8_t *grid, *solution; /* solution NULL when the file has none */
} puzzle_t;

static int bad;

/* === Reading big_sudoku.jsonl (by hand: no JSON library in benches) ==== */

static int parse_line(const char *line, puzzle_t *pz) {
    const char *p = strstr(line, "\"size\""), *q;
    int n, i;
    if (p == NULL || (p = strchr(p, ':')) == NULL) return -1;
    n = atoi(p + 1);
    if (n < SUDOKU_MIN_N || n > SUDOKU_MAX_N) return -1;
    pz->n = n;
    p = strstr(line, "\"id\"");
    if (p == NULL || (p = strchr(p + 4, '"')) == NULL || (q = strchr(p + 1, '"')) == NULL)
        return -1;
    snprintf(pz->id, sizeof pz->id, "%.*s", (int)(q - p - 1), p + 1);
    pz->unique = -1;
    if ((p = strstr(line, "\"unique\"")) != NULL) {
        p += 8;
        while (*p == ' ' || *p == ':')
            p++;
        pz->unique = strncmp(p, "true", 4) == 0 ? 1 : strncmp(p, "false", 5) == 0 ? 0 : -1;
    }
    pz->grid = calloc((size_t)n * n, 1);
    if (pz->grid == NULL) return -1;
    p = strstr(line, "\"givens\"");
    if (p == NULL || (p = strchr(p, '{')) == NULL) return -1;
    p++;
    for (;;) {
        char *end;
        long r, c, v;
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == '}') break;
        if (*p++ != '"') return -1;
        r = strtol(p, &end, 10);
        if (*end != ',') return -1;
        c = strtol(end + 1, &end, 10);
        if (*end != '"') return -1;
        p = end + 1;
        while (*p == ' ' || *p == ':')
            p++;
        v = strtol(p, &end, 10);
        if (end == p || r < 0 || r >= n || c < 0 || c >= n || v < 1 || v > n) return -1;
        pz->grid[r * n + c] = (uint8_t)v;
        p = end;
    }
    pz->solution = NULL;
    if ((p = strstr(line, "\"solution\"")) != NULL && (p = strchr(p, '[')) != NULL) {
        pz->solution = calloc((size_t)n * n, 1);
        if (pz->solution == NULL) return -1;
        for (i = 0; i < n * n; i++) {
            char *end;
            long v;
            while (*p == '[' || *p == ' ' || *p == ',' || *p == ']')
                p++;
            v = strtol(p, &end, 10);
            if (end == p || v < 1 || v > n) {
                free(pz->solution);
                pz->solution = NULL;
                break;
            }
            pz->solution[i] = (uint8_t)v;
            p = end;
        }
    }
    return 0;
}

static int load(const char *path, const char *filter, puzzle_t *out, int cap) {
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t lcap = 0;
    int k = 0;
    if (f == NULL) return -1;
    while (k < cap && getline(&line, &lcap, f) > 0) {
        puzzle_t pz;
        memset(&pz, 0, sizeof pz);
        if (parse_line(line, &pz) != 0) {
            free(pz.grid);
            free(pz.solution);
            continue;
        }
        if (filter == NULL ? (pz.n != 25 || strstr(pz.id, "gecode-") == NULL)
                           : (strcmp(filter, "all") != 0 && strstr(pz.id, filter) == NULL)) {
            free(pz.grid);
            free(pz.solution);
            continue;
        }
        out[k++] = pz;
    }
    free(line);
    fclose(f);
    return k;
}

static double now_s(void) { return (double)search_now_ns() / 1e9; }

static void check_grid(const puzzle_t *pz, const sudoku_shape_t *sh, const uint8_t *g,
                       const char *who) {
    if (sudoku_check_solution(sh, pz->grid, g) != 1) {
        printf("  BAD: %s's solution of %s breaks a rule or a given\n", who, pz->id);
        bad = 1;
    } else if (pz->solution != NULL && pz->unique == 1 &&
               memcmp(g, pz->solution, (size_t)pz->n * pz->n) != 0) {
        printf("  BAD: %s's solution of %s differs from the file's\n", who, pz->id);
        bad = 1;
    }
}

/* === puzzled: a portfolio of threads ==================================== */

typedef struct member_s {
    const puzzle_t *pz;
    const sudoku_shape_t *sh;
    sudoku_method_t method;
    uint32_t variant;
    search_ctl_t *ctl;
    atomic_int *cancel;
    sudoku_exchange_t *exchange;
    uint8_t *sols;
    sudoku_result_t res;
    int rc;
    double done_s;
    double cpu_s; /* the member's own CPU time */
} member_t;

static void *member_run(void *arg) {
    member_t *m = arg;
    sudoku_opts_t o;
    sudoku_opts_init(&o);
    o.method = m->method;
    o.variant = m->variant;
    o.exchange = m->exchange;
    o.max_solutions = 2;
    o.solutions = m->sols;
    o.ctl = m->ctl;
    {
        struct timespec c0, c1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
        m->rc = sudoku_solve(m->sh, m->pz->grid, &o, &m->res);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
        m->cpu_s = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
    }
    m->done_s = now_s();
    if (m->rc == 0) atomic_store(m->cancel, 1);
    return NULL;
}

typedef struct outcome_s {
    double secs;
    int ok;       /* answered within the deadline */
    int unique;   /* 1 unique, 0 not */
    int winner;   /* the member that answered */
    double cpu_s; /* its CPU time (the wall time on a machine to itself) */
    sudoku_result_t res;
} outcome_t;

static int share = 1; /* -X clears it: members search alone */

static outcome_t run_puzzled(const puzzle_t *pz, sudoku_method_t method, int threads,
                             uint32_t variant, double timeout_s) {
    sudoku_shape_t sh;
    member_t m[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    atomic_int cancel = 0;
    search_ctl_t ctl = {.deadline_ns = 0, .cancel = &cancel};
    outcome_t out;
    double t0;
    int k, best = -1;
    void *xmem = NULL;
    sudoku_exchange_t *x = NULL;
    memset(&out, 0, sizeof out);
    sudoku_shape_init(&sh, pz->n, 0, 0);
    if (threads > 1 && share) {
        xmem = malloc(sudoku_exchange_bytes(pz->n, (unsigned)threads, 2));
        if (xmem == NULL) abort();
        x = sudoku_exchange_init(xmem, pz->n, (unsigned)threads, 2);
    }
    t0 = now_s();
    ctl.deadline_ns = search_now_ns() + (int64_t)(timeout_s * 1e9);
    for (k = 0; k < threads; k++) {
        memset(&m[k], 0, sizeof m[k]);
        m[k].pz = pz;
        m[k].sh = &sh;
        m[k].method = method;
        m[k].variant = threads == 1 ? variant : (uint32_t)k;
        m[k].ctl = &ctl;
        m[k].cancel = &cancel;
        m[k].exchange = x;
        m[k].sols = malloc(2 * (size_t)pz->n * pz->n);
        if (m[k].sols == NULL) abort();
        if (threads == 1) {
            member_run(&m[k]);
        } else if (pthread_create(&th[k], NULL, member_run, &m[k]) != 0) {
            abort();
        }
    }
    for (k = 0; k < threads; k++) {
        if (threads > 1) pthread_join(th[k], NULL);
        if (m[k].rc == 0 && (best < 0 || m[k].done_s < m[best].done_s)) best = k;
    }
    out.secs = now_s() - t0;
    if (best >= 0) {
        uint32_t i;
        out.ok = 1;
        out.winner = best;
        out.cpu_s = m[best].cpu_s;
        out.res = m[best].res;
        out.unique = sudoku_result_unique(&m[best].res);
        for (i = 0; i < m[best].res.solutions_found; i++)
            check_grid(pz, &sh, m[best].sols + (size_t)i * pz->n * pz->n, "puzzled");
        if (pz->unique >= 0 && out.unique != pz->unique) {
            printf("  BAD: puzzled says %s is %sunique\n", pz->id, out.unique ? "" : "not ");
            bad = 1;
        }
    } else {
        out.res = m[0].res;
    }
    for (k = 0; k < threads; k++)
        free(m[k].sols);
    free(xmem);
    return out;
}

/* === CaDiCaL ============================================================ */

/* The direct CNF, clauses only (no header), into a malloc'd string. */
static char *encode(const puzzle_t *pz, size_t *len, long *nclauses) {
    int n = pz->n, br, bc, r, c, v, u, i, j;
    size_t cap = 1 << 20;
    char *buf = malloc(cap);
    int *cells = malloc(sizeof(int) * (size_t)n);
    *len = 0;
    *nclauses = 0;
    if (buf == NULL || cells == NULL) abort();
    sudoku_default_box(n, &br, &bc);
#define VAR(cell, v) ((cell)*n + (v))
#define EMIT(...)                                                                                  \
    do {                                                                                           \
        if (cap - *len < 256) {                                                                    \
            cap *= 2;                                                                              \
            buf = realloc(buf, cap);                                                               \
            if (buf == NULL) abort();                                                              \
        }                                                                                          \
        *len += (size_t)snprintf(buf + *len, cap - *len, __VA_ARGS__);                             \
    } while (0)
    /* rows, columns, boxes: each value exactly once */
    for (u = 0; u < 3 * n; u++) {
        for (j = 0; j < n; j++) {
            if (u < n) {
                cells[j] = u * n + j;
            } else if (u < 2 * n) {
                cells[j] = j * n + (u - n);
            } else {
                int b = u - 2 * n;
                r = (b / (n / bc)) * br + j / bc;
                c = (b % (n / bc)) * bc + j % bc;
                cells[j] = r * n + c;
            }
        }
        for (v = 0; v < n; v++) {
            for (i = 0; i < n; i++)
                EMIT("%d ", VAR(cells[i], v) + 1);
            EMIT("0\n");
            (*nclauses)++;
            for (i = 0; i < n; i++)
                for (j = i + 1; j < n; j++) {
                    EMIT("-%d -%d 0\n", VAR(cells[i], v) + 1, VAR(cells[j], v) + 1);
                    (*nclauses)++;
                }
        }
    }
    /* cells: exactly one value; givens as units */
    for (c = 0; c < n * n; c++) {
        for (v = 0; v < n; v++)
            EMIT("%d ", VAR(c, v) + 1);
        EMIT("0\n");
        (*nclauses)++;
        for (i = 0; i < n; i++)
            for (j = i + 1; j < n; j++) {
                EMIT("-%d -%d 0\n", VAR(c, i) + 1, VAR(c, j) + 1);
                (*nclauses)++;
            }
        if (pz->grid[c] != 0) {
            EMIT("%d 0\n", VAR(c, pz->grid[c] - 1) + 1);
            (*nclauses)++;
        }
    }
#undef VAR
#undef EMIT
    free(cells);
    return buf;
}

static int write_cnf(const char *path, int nvars, long ncl, const char *body, size_t len,
                     const char *extra) {
    FILE *f = fopen(path, "w");
    if (f == NULL) return -1;
    fprintf(f, "p cnf %d %ld\n", nvars, ncl + (extra ? 1 : 0));
    fwrite(body, 1, len, f);
    if (extra) fputs(extra, f);
    return fclose(f);
}

/* Runs cadical on path; returns 10 (SAT, model into grid) or 20 (UNSAT),
 * -1 on failure. */
static int cadical_run(const char *bin, const char *path, const puzzle_t *pz, uint8_t *grid,
                       double timeout_s) {
    char cmd[1200], *line = NULL;
    size_t cap = 0;
    int status = -1, n = pz->n;
    FILE *p;
    snprintf(cmd, sizeof cmd, "timeout %.0f %s -q '%s'", timeout_s, bin, path);
    p = popen(cmd, "r");
    if (p == NULL) return -1;
    memset(grid, 0, (size_t)n * n);
    while (getline(&line, &cap, p) > 0) {
        if (strncmp(line, "s SATISFIABLE", 13) == 0) status = 10;
        if (strncmp(line, "s UNSATISFIABLE", 15) == 0) status = 20;
        if (line[0] == 'v') {
            char *s = line + 1, *end;
            for (;;) {
                long x = strtol(s, &end, 10);
                if (end == s || x == 0) break;
                if (x > 0 && x <= (long)n * n * n) grid[(x - 1) / n] = (uint8_t)((x - 1) % n + 1);
                s = end;
            }
        }
    }
    free(line);
    pclose(p);
    return status;
}

static outcome_t run_cadical(const char *bin, const char *dir, const puzzle_t *pz, const char *body,
                             size_t len, long ncl, double timeout_s) {
    outcome_t out;
    sudoku_shape_t sh;
    char path[600], path2[600];
    int n = pz->n, rc, c;
    uint8_t *grid = malloc((size_t)n * n);
    char *block = malloc((size_t)n * n * 12 + 4);
    size_t bl = 0;
    double t0;
    memset(&out, 0, sizeof out);
    if (grid == NULL || block == NULL) abort();
    sudoku_shape_init(&sh, n, 0, 0);
    snprintf(path, sizeof path, "%.400s/%.63s.cnf", dir, pz->id);
    snprintf(path2, sizeof path2, "%.400s/%.63s-block.cnf", dir, pz->id);
    t0 = now_s();
    rc = cadical_run(bin, path, pz, grid, timeout_s);
    if (rc == 10) {
        /* the second CNF is written between the two runs, its time excluded */
        double t1 = now_s(), t2;
        for (c = 0; c < n * n; c++)
            if (pz->grid[c] == 0) bl += (size_t)sprintf(block + bl, "-%d ", c * n + grid[c]);
        strcpy(block + bl, "0\n");
        check_grid(pz, &sh, grid, "cadical");
        if (write_cnf(path2, n * n * n, ncl, body, len, block) != 0) abort();
        t2 = now_s();
        rc = cadical_run(bin, path2, pz, grid, timeout_s);
        t0 += t2 - t1;
        if (rc == 10 || rc == 20) {
            out.ok = 1;
            out.unique = rc == 20;
            if (rc == 10) check_grid(pz, &sh, grid, "cadical");
        }
    }
    out.secs = now_s() - t0;
    free(grid);
    free(block);
    return out;
}

/* === Main =============================================================== */

static void usage(void) {
    fprintf(stderr, "usage: bench_big [-d DATA_DIR] [-f TEXT|all] [-r REPS] [-j THREADS] "
                    "[-T SECONDS] [-m METHOD] [-v VARIANT] [-c CADICAL | -C] [-w DIR] [-q] [-X]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *data = "../shared/data", *filter = NULL, *cadical = "cadical", *workdir = NULL;
    static puzzle_t pz[MAX_PUZZLES];
    char path[512], tmpl[64] = "/tmp/bench_big.XXXXXX";
    int reps = 3, threads = 2, quiet = 0, np, i, k, opt, have_cadical;
    uint32_t variant = 0;
    double timeout_s = 60, tot_p = 0, tot_c = 0;
    sudoku_method_t method = SUDOKU_METHOD_CDCL;
    int all_p = 1, all_c = 1;

    while ((opt = getopt(argc, argv, "d:f:r:j:T:m:v:c:Cw:qX")) != -1) {
        switch (opt) {
        case 'd': data = optarg; break;
        case 'f': filter = optarg; break;
        case 'r': reps = atoi(optarg); break;
        case 'j': threads = atoi(optarg); break;
        case 'T': timeout_s = atof(optarg); break;
        case 'm':
            if (sudoku_method_parse(optarg, &method) != 0) usage();
            break;
        case 'v': variant = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'c': cadical = optarg; break;
        case 'C': cadical = NULL; break;
        case 'w': workdir = optarg; break;
        case 'q': quiet = 1; break;
        case 'X': share = 0; break;
        default: usage();
        }
    }
    if (reps < 1 || threads < 1 || threads > MAX_THREADS || timeout_s <= 0) usage();
    snprintf(path, sizeof path, "%s/big/big_sudoku.jsonl", data);
    np = load(path, filter, pz, MAX_PUZZLES);
    if (np < 0) {
        printf("bench_big: %s is missing: nothing to measure (the shared data sets live next "
               "to the repository, see README)\n",
               path);
        return 0;
    }
    if (np == 0) {
        printf("bench_big: no puzzle of %s matches\n", path);
        return 0;
    }
    have_cadical = 0;
    if (cadical != NULL) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", cadical);
        have_cadical = system(cmd) == 0;
        if (!have_cadical)
            printf("bench_big: %s not found (Debian package cadical): puzzled only\n", cadical);
    }
    if (have_cadical && workdir == NULL) {
        if (mkdtemp(tmpl) == NULL) {
            perror("mkdtemp");
            return 1;
        }
        workdir = tmpl;
    }
    printf("bench_big: %d puzzles, puzzled %s on %d thread%s, best of %d, deadline %.0f s\n", np,
           sudoku_method_name(method), threads, threads > 1 ? "s" : "", reps, timeout_s);
    printf("%-22s %4s %9s %9s %7s  %s\n", "puzzle", "n", "puzzled", "cadical", "ratio",
           "puzzled's work (best run)");
    for (i = 0; i < np; i++) {
        outcome_t best_p, best_c;
        char *body = NULL;
        size_t len = 0;
        long ncl = 0;
        memset(&best_p, 0, sizeof best_p);
        memset(&best_c, 0, sizeof best_c);
        best_p.secs = best_c.secs = 1e30;
        if (have_cadical) {
            char cnf[600];
            body = encode(&pz[i], &len, &ncl);
            snprintf(cnf, sizeof cnf, "%.400s/%.63s.cnf", workdir, pz[i].id);
            if (write_cnf(cnf, pz[i].n * pz[i].n * pz[i].n, ncl, body, len, NULL) != 0) {
                perror(cnf);
                return 1;
            }
        }
        for (k = 0; k < reps; k++) {
            outcome_t o = run_puzzled(&pz[i], method, threads, variant, timeout_s);
            if (o.ok && o.secs < best_p.secs) best_p = o;
            if (!quiet)
                printf("    %s run %d: puzzled %.3f s%s", pz[i].id, k + 1, o.secs,
                       o.ok ? "" : " (stopped)");
            if (have_cadical) {
                outcome_t c = run_cadical(cadical, workdir, &pz[i], body, len, ncl, timeout_s);
                if (c.ok && c.secs < best_c.secs) best_c = c;
                if (!quiet) printf(", cadical %.3f s%s", c.secs, c.ok ? "" : " (stopped)");
                if (c.ok && pz[i].unique >= 0 && c.unique != pz[i].unique) {
                    printf(" BAD: cadical's uniqueness differs from the file's");
                    bad = 1;
                }
            }
            if (!quiet) printf("\n");
        }
        free(body);
        if (best_p.secs > 1e29) all_p = 0;
        if (best_c.secs > 1e29) all_c = 0;
        printf("%-22s %4d ", pz[i].id, pz[i].n);
        if (best_p.secs < 1e29)
            printf("%8.3fs ", best_p.secs);
        else
            printf("%9s ", "stopped");
        if (!have_cadical)
            printf("%9s %7s  ", "-", "-");
        else if (best_c.secs < 1e29)
            printf("%8.3fs %7.2f  ", best_c.secs,
                   best_p.secs < 1e29 ? best_c.secs / best_p.secs : 0.0);
        else
            printf("%9s %7s  ", "stopped", "-");
        if (best_p.secs < 1e29) {
            const sudoku_result_t *r = &best_p.res;
            printf("%s, member %d (%.2f s CPU): %llu decisions, %llu conflicts, %llu restarts, "
                   "%.1fM props, %llu imported",
                   best_p.unique ? "unique" : "not unique", best_p.winner, best_p.cpu_s,
                   (unsigned long long)r->stats.nodes, (unsigned long long)r->cdcl.conflicts,
                   (unsigned long long)r->cdcl.restarts, (double)r->stats.propagations / 1e6,
                   (unsigned long long)r->cdcl.imported);
            tot_p += best_p.secs;
        }
        if (best_c.secs < 1e29) tot_c += best_c.secs;
        printf("\n");
        fflush(stdout);
    }
    printf("%-22s %4s %8.3fs%s", "total", "", tot_p, all_p ? " " : "+");
    if (have_cadical)
        printf(" %8.3fs%s %6.2f", tot_c, all_c ? " " : "+", tot_p > 0 ? tot_c / tot_p : 0);
    printf("\n(ratio = cadical time / puzzled time: above 1, puzzled is faster; + = some "
           "stopped, total is a lower bound)\n");
    for (i = 0; i < np; i++) {
        free(pz[i].grid);
        free(pz[i].solution);
    }
    return bad;
}
