/* bench_sudoku.c -- how fast the methods of solvers/sudoku/sudoku.h solve public
 * puzzle collections.
 *
 *   bench_sudoku [-d DATA_DIR] [-t SECONDS] [-p SECONDS] [-k PUZZLES]
 *                [-m METHODS] [-c TEXT] [-1]
 *
 *   -d  the collections (default ../shared/data, i.e. next to the repository)
 *   -t  time cap per (collection, method) run, seconds (default 1); the
 *       puzzle running when it passes finishes (or stops at -p)
 *   -p  time limit per puzzle, seconds (default 2): the solve's deadline
 *   -k  at most this many puzzles per run (default 100000)
 *   -m  comma-separated list among backtracking, mrv, peers, hidden-singles,
 *       naked-pairs, subsets, best-first, auto (the four in the middle are
 *       the propagation method's levels; default: all)
 *   -c  only collections whose name contains TEXT (e.g. "25x25", "sudoku9")
 *   -1  stop at the first solution (default: max_solutions = 2, the
 *       uniqueness check the API runs)
 *
 * Collections (each skipped with a note when its file is missing):
 *   sudoku9/<file>               81 characters a line, '.' or '0' empty,
 *                                '#' lines are comments
 *   sudoku16/<file>              `<id> <256-char puzzle> <256-char solution>`,
 *                                symbols 1-9, A-G = 1..16
 *   big/big_sudoku.jsonl         one JSON object a line, of which only "size"
 *                                and "givens":{"r,c":value,...} are read (by
 *                                hand, no JSON library); grouped by size
 *
 * For every run it prints how many puzzles ran of how many loaded, puzzles
 * per second (solve time only, parsing excluded), mean nodes per puzzle, the
 * puzzles stopped by their per-puzzle limit ("stop"), and the outcome
 * counts (unique / several solutions / none; with -1 "solved" replaces
 * "unique", since one solution proves nothing then).  Every returned solution is
 * checked against the rules and the givens, and against the collection's
 * solution when it has one; "bad" counts failures and makes the exit code 1.
 *
 * Per-puzzle limits: the -p deadline for every method, plus node budgets for the methods that can
 * run away (backtracking 2e6, mrv 5e5, peers 5e5), so one pathological puzzle cannot eat a run;
 * such stops are counted in "stop" and their time is included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/sudoku/sudoku.h"

#define MAX_PUZZLES_DEFAULT 100000
#define MAX_BIG_SIZES       8

typedef struct config_s {
    const char *name;
    sudoku_method_t method;
    sudoku_level_t level;
    uint64_t budget;
} config_t;

static const config_t configs[] = {
    {"backtracking", SUDOKU_METHOD_BACKTRACKING, SUDOKU_LEVEL_DEFAULT, 2000000},
    {"mrv", SUDOKU_METHOD_MRV, SUDOKU_LEVEL_DEFAULT, 500000},
    {"peers", SUDOKU_METHOD_PROPAGATION, SUDOKU_LEVEL_PEERS, 500000},
    {"hidden-singles", SUDOKU_METHOD_PROPAGATION, SUDOKU_LEVEL_HIDDEN_SINGLES, 0},
    {"naked-pairs", SUDOKU_METHOD_PROPAGATION, SUDOKU_LEVEL_NAKED_PAIRS, 0},
    {"subsets", SUDOKU_METHOD_PROPAGATION, SUDOKU_LEVEL_SUBSETS, 0},
    {"best-first", SUDOKU_METHOD_BEST_FIRST, SUDOKU_LEVEL_HIDDEN_SINGLES, 0},
    {"auto", SUDOKU_METHOD_AUTO, SUDOKU_LEVEL_DEFAULT, 0},
};
#define NCONFIGS ((int)(sizeof configs / sizeof configs[0]))

/* A loaded collection: count puzzles of n*n bytes, solutions optional. */
typedef struct coll_s {
    char name[256];
    int n;
    size_t count, cap;
    uint8_t *puzzles;
    uint8_t *solutions; /* NULL, or count grids (all-zero grid = unknown) */
} coll_t;

static int bad_total;

static void coll_init(coll_t *c, const char *name, int n, int with_solutions) {
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->n = n;
    c->cap = 1024;
    c->puzzles = malloc(c->cap * (size_t)n * n);
    c->solutions = with_solutions ? calloc(c->cap, (size_t)n * n) : NULL;
    if (c->puzzles == NULL || (with_solutions && c->solutions == NULL)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
}

/* Room for one more puzzle; returns its index. */
static size_t coll_add(coll_t *c) {
    size_t nn = (size_t)c->n * c->n;
    if (c->count == c->cap) {
        int with_solutions = c->solutions != NULL;
        c->cap *= 2;
        c->puzzles = realloc(c->puzzles, c->cap * nn);
        if (with_solutions) c->solutions = realloc(c->solutions, c->cap * nn);
        if (c->puzzles == NULL || (with_solutions && c->solutions == NULL)) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    if (c->solutions != NULL) memset(c->solutions + c->count * nn, 0, nn);
    memset(c->puzzles + c->count * nn, 0, nn);
    return c->count++;
}

static void coll_free(coll_t *c) {
    free(c->puzzles);
    free(c->solutions);
}

/* 1..35 for '1'-'9','A'-'Z' ('a'-'z' too); 0 for '.', '0'; -1 otherwise. */
static int symbol(int ch) {
    if (ch == '.' || ch == '0') return 0;
    if (ch >= '1' && ch <= '9') return ch - '0';
    if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 10;
    return -1;
}

/* Parses nn symbols; returns 0 or -1. */
static int parse_cells(const char *s, size_t nn, int n, uint8_t *out) {
    size_t i;
    for (i = 0; i < nn; i++) {
        int v = symbol((unsigned char)s[i]);
        if (v < 0 || v > n) return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

static int load_9x9(coll_t *c, const char *path, size_t limit) {
    FILE *f = fopen(path, "r");
    char line[1024];
    if (f == NULL) return -1;
    while (c->count < limit && fgets(line, sizeof line, f) != NULL) {
        size_t i;
        if (line[0] == '#' || strlen(line) < 81) continue;
        i = coll_add(c);
        if (parse_cells(line, 81, 9, c->puzzles + i * 81) != 0) c->count--;
    }
    fclose(f);
    return 0;
}

static int load_16x16(coll_t *c, const char *path, size_t limit) {
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    if (f == NULL) return -1;
    while (c->count < limit && getline(&line, &cap, f) > 0) {
        char *p = strchr(line, ' '), *q;
        size_t i;
        if (line[0] == '#' || p == NULL) continue;
        q = strchr(p + 1, ' ');
        if (q == NULL || q - (p + 1) != 256) continue;
        i = coll_add(c);
        if (parse_cells(p + 1, 256, 16, c->puzzles + i * 256) != 0 ||
            parse_cells(q + 1, 256, 16, c->solutions + i * 256) != 0)
            c->count--;
    }
    free(line);
    fclose(f);
    return 0;
}

/* One line of big_sudoku.jsonl: returns the size (0 if unreadable) and
 * fills grid (size*size bytes, zeroed first). */
static int parse_big_line(const char *line, uint8_t *grid, int max_n) {
    const char *p = strstr(line, "\"size\"");
    int n;
    if (p == NULL) return 0;
    p = strchr(p, ':');
    if (p == NULL) return 0;
    n = atoi(p + 1);
    if (n < SUDOKU_MIN_N || n > max_n) return 0;
    memset(grid, 0, (size_t)n * n);
    p = strstr(line, "\"givens\"");
    if (p == NULL || (p = strchr(p, '{')) == NULL) return 0;
    p++;
    for (;;) {
        char *end;
        long r, col, v;
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == '}') break;
        if (*p++ != '"') return 0;
        r = strtol(p, &end, 10);
        if (*end != ',') return 0;
        col = strtol(end + 1, &end, 10);
        if (*end != '"') return 0;
        p = end + 1;
        while (*p == ' ' || *p == ':')
            p++;
        v = strtol(p, &end, 10);
        if (end == p || r < 0 || r >= n || col < 0 || col >= n || v < 1 || v > n) return 0;
        grid[r * n + col] = (uint8_t)v;
        p = end;
    }
    return n;
}

/* Loads every size of the big file into colls[] (one per size). */
static int load_big(coll_t *colls, int *ncolls, const char *path, size_t limit) {
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    static uint8_t grid[SUDOKU_MAX_N * SUDOKU_MAX_N];
    if (f == NULL) return -1;
    while (getline(&line, &cap, f) > 0) {
        int n = parse_big_line(line, grid, SUDOKU_MAX_N), k;
        coll_t *c = NULL;
        size_t i;
        if (n == 0) continue;
        for (k = 0; k < *ncolls; k++)
            if (colls[k].n == n) c = &colls[k];
        if (c == NULL) {
            char name[64];
            if (*ncolls == MAX_BIG_SIZES) continue;
            snprintf(name, sizeof name, "big %dx%d", n, n);
            c = &colls[(*ncolls)++];
            coll_init(c, name, n, 0);
        }
        if (c->count >= limit) continue;
        i = coll_add(c);
        memcpy(c->puzzles + i * (size_t)n * n, grid, (size_t)n * n);
    }
    free(line);
    fclose(f);
    return 0;
}

static double now_s(void) { return (double)search_now_ns() / 1e9; }

static double per_puzzle_s = 2.0;

static void run(const coll_t *c, const config_t *cfg, double cap_s, size_t limit,
                uint32_t max_sol) {
    sudoku_shape_t shape;
    size_t nn = (size_t)c->n * c->n, i, ran = 0, stopped = 0, uniq = 0, multi = 0, none = 0,
           bad = 0;
    uint64_t nodes = 0;
    double solve_s = 0, t_end = now_s() + cap_s;
    uint8_t *sols = malloc(2 * nn);
    if (sols == NULL || sudoku_shape_init(&shape, c->n, 0, 0) != 0) {
        fprintf(stderr, "%s: cannot run\n", c->name);
        exit(2);
    }
    for (i = 0; i < c->count && i < limit && now_s() < t_end; i++) {
        const uint8_t *p = c->puzzles + i * nn;
        search_ctl_t ctl = {.node_budget = cfg->budget};
        sudoku_opts_t o;
        sudoku_result_t r;
        int64_t t0;
        uint32_t k;
        int rc;
        sudoku_opts_init(&o);
        o.method = cfg->method;
        o.level = cfg->level;
        o.max_solutions = max_sol;
        o.solutions = sols;
        o.ctl = &ctl;
        t0 = search_now_ns();
        ctl.deadline_ns = t0 + (int64_t)(per_puzzle_s * 1e9);
        rc = sudoku_solve(&shape, p, &o, &r);
        solve_s += (double)(search_now_ns() - t0) / 1e9;
        ran++;
        nodes += r.stats.nodes;
        for (k = 0; k < r.solutions_found; k++) {
            const uint8_t *s = sols + k * nn;
            const uint8_t *want = c->solutions != NULL ? c->solutions + i * nn : NULL;
            if (sudoku_check_solution(&shape, p, s) != 1) bad++;
            if (want != NULL && want[0] != 0 && r.exhausted && r.solutions_found == 1 &&
                memcmp(s, want, nn) != 0)
                bad++;
        }
        if (rc != 0) {
            if (rc != SEARCH_TIMEOUT && rc != SEARCH_BUDGET) bad++;
            stopped++;
        } else if (r.solutions_found == 0) {
            none++;
        } else if (r.solutions_found >= 2) {
            multi++;
        } else {
            uniq++;
        }
    }
    bad_total += (int)bad;
    printf("%-36s %-15s %6zu/%-6zu %11.1f %11.1f %6zu %6zu %6zu %5zu %4zu\n", c->name, cfg->name,
           ran, c->count < limit ? c->count : limit,
           ran > 0 && solve_s > 0 ? (double)ran / solve_s : 0.0,
           ran > 0 ? (double)nodes / (double)ran : 0.0, stopped, uniq, multi, none, bad);
    fflush(stdout);
    free(sols);
}

static int selected(const char *list, const char *name) {
    size_t len = strlen(name);
    const char *p = list;
    if (list == NULL) return 1;
    while ((p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0')) return 1;
        p += len;
    }
    return 0;
}

static const char *coll_filter;

static void run_all(const coll_t *c, const char *methods, double cap_s, size_t limit,
                    uint32_t max_sol) {
    int k;
    if (coll_filter != NULL && strstr(c->name, coll_filter) == NULL) return;
    for (k = 0; k < NCONFIGS; k++)
        if (selected(methods, configs[k].name)) run(c, &configs[k], cap_s, limit, max_sol);
}

int main(int argc, char **argv) {
    static const char *const files9[] = {"top95.txt",
                                         "hardest.txt",
                                         "puzzles3_magictour_top1465",
                                         "puzzles6_forum_hardest_1106",
                                         "puzzles2_17_clue",
                                         "puzzles7_serg_benchmark",
                                         "royle_17clue.txt"};
    static const char *const files16[] = {"janko_sudoku_16x16.txt", "oct9_sudoku_16x16.txt"};
    const char *dir = "../shared/data", *methods = NULL;
    double cap_s = 1.0;
    size_t limit = MAX_PUZZLES_DEFAULT, i;
    uint32_t max_sol = 2;
    char path[1024];
    coll_t big[MAX_BIG_SIZES];
    int nbig = 0, a;

    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "-d") == 0 && a + 1 < argc) {
            dir = argv[++a];
        } else if (strcmp(argv[a], "-t") == 0 && a + 1 < argc) {
            cap_s = atof(argv[++a]);
        } else if (strcmp(argv[a], "-p") == 0 && a + 1 < argc) {
            per_puzzle_s = atof(argv[++a]);
        } else if (strcmp(argv[a], "-c") == 0 && a + 1 < argc) {
            coll_filter = argv[++a];
        } else if (strcmp(argv[a], "-k") == 0 && a + 1 < argc) {
            limit = (size_t)atol(argv[++a]);
        } else if (strcmp(argv[a], "-m") == 0 && a + 1 < argc) {
            methods = argv[++a];
        } else if (strcmp(argv[a], "-1") == 0) {
            max_sol = 1;
        } else {
            fprintf(stderr,
                    "usage: %s [-d DATA_DIR] [-t SECONDS] [-p SECONDS] [-k PUZZLES] [-m METHODS] "
                    "[-c TEXT] [-1]\n",
                    argv[0]);
            return 2;
        }
    }
    if (cap_s <= 0 || per_puzzle_s <= 0 || limit == 0) {
        fprintf(stderr, "-t, -p and -k must be positive\n");
        return 2;
    }
    printf("data %s; per run at most %.1f s and %zu puzzles, %.1f s a puzzle; max_solutions %u\n",
           dir, cap_s, limit, per_puzzle_s, max_sol);
    printf("%-36s %-15s %13s %11s %11s %6s %6s %6s %5s %4s\n", "collection", "method", "ran/loaded",
           "puzzles/s", "nodes/puz", "stop", max_sol == 1 ? "solved" : "unique", "multi", "none",
           "bad");

    for (i = 0; i < sizeof files9 / sizeof files9[0]; i++) {
        coll_t c;
        char name[256];
        snprintf(path, sizeof path, "%s/sudoku9/%s", dir, files9[i]);
        snprintf(name, sizeof name, "sudoku9/%s", files9[i]);
        coll_init(&c, name, 9, 0);
        if (load_9x9(&c, path, limit) != 0)
            printf("%-36s (missing: %s)\n", name, path);
        else
            run_all(&c, methods, cap_s, limit, max_sol);
        coll_free(&c);
    }
    for (i = 0; i < sizeof files16 / sizeof files16[0]; i++) {
        coll_t c;
        char name[256];
        snprintf(path, sizeof path, "%s/sudoku16/%s", dir, files16[i]);
        snprintf(name, sizeof name, "sudoku16/%s", files16[i]);
        coll_init(&c, name, 16, 1);
        if (load_16x16(&c, path, limit) != 0)
            printf("%-36s (missing: %s)\n", name, path);
        else
            run_all(&c, methods, cap_s, limit, max_sol);
        coll_free(&c);
    }
    snprintf(path, sizeof path, "%s/big/big_sudoku.jsonl", dir);
    if (load_big(big, &nbig, path, limit) != 0) {
        printf("%-36s (missing: %s)\n", "big", path);
    } else {
        for (a = 0; a < nbig; a++) {
            run_all(&big[a], methods, cap_s, limit, max_sol);
            coll_free(&big[a]);
        }
    }
    if (bad_total != 0) printf("FAILED: %d bad results\n", bad_total);
    return bad_total != 0;
}
