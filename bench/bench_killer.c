/* bench_killer.c -- Killer Sudoku solvers on the shared collections.
 *
 *   bench_killer [-d dir | -i file] [-t cap_ms] [-T advanced_cap_ms] [-m max_per_file] [-v] [-a]
 *                [-M method] [-f id_part] [-o auto|asc|desc] [-j threads] [-u] [-P] [-x]
 *                [-s split_depth] [-c cnf_dir] [-g lp_dir] [-z mzn_dir] [-k iss_dir]
 *
 * For each of killers_curated.jsonl, janko_killer_{4x4,6x6,9x9}.jsonl in dir
 * (default ../shared/data/killer, relative to the repository root; missing
 * files are skipped; -i FILE reads that one file of the same shape instead,
 * any name) and each method (backtracking under a per-puzzle time
 * cap, default 1000 ms; advanced under -T, default 60 s), prints puzzles solved (the
 * first solution, checked against the rules, the cages and the file's
 * solution unless the puzzle has several), median and worst time, median and
 * worst nodes.  A valid answer that differs from the file's counts as solved
 * and under "multi" when the puzzle has a second solution (checked, untimed,
 * by advanced with max_solutions 2), else under "bad".  -v prints one line per puzzle (id, ms,
 * nodes, derived; conflicts for learning), -a runs only the second method, advanced unless -M
 * names another (learning, auto), -f keeps only puzzles whose id contains id_part. -o sets
 * the advanced value order on one thread (killer_opts_t values; default auto: both orders in
 * turns).  -u asks for two solutions: the time is a uniqueness proof (a unique puzzle counts as
 * solved only when its space was exhausted; one with a second solution counts under multi).
 * -P times by the process's CPU time instead of the wall clock; -N NODES gives the second method a
 * node budget (decisions for learning: a cap that does not depend on the machine's load).
 * -j THREADS (> 1) runs auto as the HTTP job does (par_solve()): on 9x9 and smaller with one
 * solution asked for, a portfolio of both value orders of advanced; from 16x16 up the race of
 * learning against advanced; otherwise advanced split; each member split into
 * 2^(3+ceil(log2 THREADS per member)) subtrees when it has two threads or more, items alternating
 * between the members, taken in order by THREADS pthreads, the settled answer cancelling the
 * rest; times are then wall times and nodes the sum over all items.
 * -x cross-checks learning against advanced on every puzzle instead (xcheck()).
 * -s DEPTH prints, instead of the table, each puzzle's nodes per subtree of
 * the top DEPTH levels of the advanced search, for each value order
 * (sweep()).
 * -c DIR writes each puzzle (up to 16x16) as DIMACS CNF, DIR/<id>.cnf,
 * instead (write_cnf()), to time a SAT solver on the same puzzles.
 * -g DIR likewise writes DIR/<id>.lp for clingo (write_lp()): the same
 * model plus the 45-rule equations as native sums.
 * -z DIR writes DIR/<id>.mzn (write_mzn()): the plain MiniZinc model, for
 * a CP / lazy clause generation solver such as Chuffed.
 * -k DIR writes DIR/<id>.iss (write_iss()): sigh's Interactive Sudoku
 * Solver's constraint text, for bench/compare/killer.sh.
 *
 * The files are JSON lines; a small DOM parser below reads what is needed
 * (size/n, symbols, cages with [r,c] pairs or cell indices, flags, solution
 * as rows of symbols or a digit string).  This is a benchmark, not product
 * code, so it does I/O and exits on malformed input. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/killer/killer.h"
#include "solvers/killer/derive.h"

/* === Tiny JSON DOM ====================================================== */

enum { J_NULL, J_NUM, J_STR, J_ARR, J_OBJ, J_BOOL };

typedef struct jv_s {
    int type, len; /* len: children (arr/obj) or string length */
    double num;
    const char *str; /* J_STR: points into the line (not terminated) */
    int first, next; /* child list (indices into pool), -1 = none */
    const char *key; /* for members of objects */
    int keylen;
} jv_t;

typedef struct jdoc_s {
    jv_t *pool;
    int cap, used;
    const char *p;
} jdoc_t;

static void ws(jdoc_t *d) {
    while (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r')
        d->p++;
}

static int jnew(jdoc_t *d, int type) {
    if (d->used == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 4096;
        d->pool = realloc(d->pool, (size_t)d->cap * sizeof(jv_t));
        if (d->pool == NULL) exit(2);
    }
    memset(&d->pool[d->used], 0, sizeof(jv_t));
    d->pool[d->used].type = type;
    d->pool[d->used].first = d->pool[d->used].next = -1;
    return d->used++;
}

static int jparse(jdoc_t *d);

static int jstring(jdoc_t *d, const char **s, int *len) {
    const char *b;
    if (*d->p != '"') return -1;
    b = ++d->p;
    while (*d->p && *d->p != '"')
        d->p += (*d->p == '\\' && d->p[1]) ? 2 : 1;
    if (*d->p != '"') return -1;
    *s = b;
    *len = (int)(d->p - b);
    d->p++;
    return 0;
}

static int jparse(jdoc_t *d) {
    int v, last = -1;
    ws(d);
    if (*d->p == '{' || *d->p == '[') {
        int obj = *d->p == '{';
        v = jnew(d, obj ? J_OBJ : J_ARR);
        d->p++;
        ws(d);
        if (*d->p == (obj ? '}' : ']')) {
            d->p++;
            return v;
        }
        for (;;) {
            const char *k = NULL;
            int kl = 0, c;
            ws(d);
            if (obj) {
                if (jstring(d, &k, &kl) != 0) return -1;
                ws(d);
                if (*d->p++ != ':') return -1;
            }
            c = jparse(d);
            if (c < 0) return -1;
            d->pool[c].key = k;
            d->pool[c].keylen = kl;
            if (last < 0)
                d->pool[v].first = c;
            else
                d->pool[last].next = c;
            last = c;
            d->pool[v].len++;
            ws(d);
            if (*d->p == ',') {
                d->p++;
                continue;
            }
            if (*d->p == (obj ? '}' : ']')) {
                d->p++;
                return v;
            }
            return -1;
        }
    }
    if (*d->p == '"') {
        v = jnew(d, J_STR);
        if (jstring(d, &d->pool[v].str, &d->pool[v].len) != 0) return -1;
        return v;
    }
    if (strncmp(d->p, "true", 4) == 0 || strncmp(d->p, "false", 5) == 0) {
        v = jnew(d, J_BOOL);
        d->pool[v].num = *d->p == 't';
        d->p += *d->p == 't' ? 4 : 5;
        return v;
    }
    if (strncmp(d->p, "null", 4) == 0) {
        d->p += 4;
        return jnew(d, J_NULL);
    }
    {
        char *end;
        double x = strtod(d->p, &end);
        if (end == d->p) return -1;
        d->p = end;
        v = jnew(d, J_NUM);
        d->pool[v].num = x;
        return v;
    }
}

static int jget(const jdoc_t *d, int obj, const char *key) {
    int c;
    if (obj < 0 || d->pool[obj].type != J_OBJ) return -1;
    for (c = d->pool[obj].first; c >= 0; c = d->pool[c].next)
        if ((int)strlen(key) == d->pool[c].keylen &&
            strncmp(d->pool[c].key, key, (size_t)d->pool[c].keylen) == 0)
            return c;
    return -1;
}

static int jat(const jdoc_t *d, int arr, int i) {
    int c;
    if (arr < 0) return -1;
    for (c = d->pool[arr].first; c >= 0 && i > 0; c = d->pool[c].next)
        i--;
    return c;
}

/* === Puzzles ============================================================ */

typedef struct kp_s {
    char id[96];
    killer_puzzle_t pz;
    long *symbols; /* the file's symbols or NULL; like cages and cells on the heap,
                    * so pz's pointers stay valid when the loader's realloc
                    * moves the kp_t (an array inside it once dangled) */
    killer_cage_t *cages;
    killer_cell_t *cells;
    uint8_t solution[KILLER_MAX_N * KILLER_MAX_N]; /* value indices; 0 = unknown */
    int multi;                                     /* known to have several solutions */
} kp_t;

static void kp_free(kp_t *k) {
    free(k->symbols);
    free(k->cages);
    free(k->cells);
    k->symbols = NULL;
    k->cages = NULL;
    k->cells = NULL;
}

/* Fills *k from one JSON line; returns 0 or -1. */
static int kp_parse(const char *line, kp_t *k) {
    jdoc_t d;
    int root, v, cg, i, j, n, ncells = 0, janko;
    memset(&d, 0, sizeof d);
    memset(k, 0, sizeof *k);
    d.p = line;
    root = jparse(&d);
    if (root < 0) goto fail;
    v = jget(&d, root, "id");
    if (v >= 0) snprintf(k->id, sizeof k->id, "%.*s", d.pool[v].len, d.pool[v].str);
    janko = jget(&d, root, "size") < 0;
    v = jget(&d, root, janko ? "n" : "size");
    if (v < 0) goto fail;
    n = (int)d.pool[v].num;
    if (sudoku_shape_init(&k->pz.shape, n, 0, 0) != 0 || n > KILLER_MAX_N) goto fail;
    v = jget(&d, root, "symbols");
    if (v >= 0 && d.pool[v].len == n) {
        if ((k->symbols = calloc((size_t)n, sizeof *k->symbols)) == NULL) goto fail;
        for (i = 0; i < n; i++)
            k->symbols[i] = (long)d.pool[jat(&d, v, i)].num;
        k->pz.symbols = k->symbols;
    }
    v = jget(&d, root, "flags");
    for (i = 0; v >= 0 && i < d.pool[v].len; i++) {
        int f = jat(&d, v, i);
        if (d.pool[f].len == 8 && strncmp(d.pool[f].str, "diagonal", 8) == 0) k->pz.diagonals = 1;
    }
    v = jget(&d, root, "unique");
    if (v >= 0 && d.pool[v].type == J_BOOL && d.pool[v].num == 0) k->multi = 1;
    cg = jget(&d, root, "cages");
    if (cg < 0) goto fail;
    for (i = 0; i < d.pool[cg].len; i++)
        ncells += d.pool[jget(&d, jat(&d, cg, i), "cells")].len;
    k->cages = calloc((size_t)d.pool[cg].len + 1, sizeof *k->cages);
    k->cells = calloc((size_t)ncells + 1, sizeof *k->cells);
    if (k->cages == NULL || k->cells == NULL) goto fail;
    ncells = 0;
    for (i = 0; i < d.pool[cg].len; i++) {
        int c = jat(&d, cg, i), cl = jget(&d, c, "cells");
        k->cages[i].sum = (long)d.pool[jget(&d, c, "sum")].num;
        k->cages[i].cells = k->cells + ncells;
        k->cages[i].ncells = d.pool[cl].len;
        for (j = 0; j < d.pool[cl].len; j++) {
            int e = jat(&d, cl, j);
            if (d.pool[e].type == J_ARR) {
                k->cells[ncells].r = (int)d.pool[jat(&d, e, 0)].num;
                k->cells[ncells].c = (int)d.pool[jat(&d, e, 1)].num;
            } else {
                k->cells[ncells].r = (int)d.pool[e].num / n;
                k->cells[ncells].c = (int)d.pool[e].num % n;
            }
            ncells++;
        }
    }
    k->pz.cages = k->cages;
    k->pz.ncages = d.pool[cg].len;
    v = jget(&d, root, "solution");
    if (v >= 0 && d.pool[v].type == J_STR && d.pool[v].len == n * n) {
        for (i = 0; i < n * n; i++) {
            char ch = d.pool[v].str[i];
            k->solution[i] = (uint8_t)(ch >= '1' && ch <= '9'   ? ch - '0'
                                       : ch >= 'A' && ch <= 'Z' ? ch - 'A' + 10
                                                                : 0);
        }
    } else if (v >= 0 && d.pool[v].type == J_ARR && d.pool[v].len == n) {
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++) {
                long s = (long)d.pool[jat(&d, jat(&d, v, i), j)].num;
                int x;
                for (x = 1; x <= n; x++)
                    if (killer_symbol(&k->pz, x) == s) k->solution[i * n + j] = (uint8_t)x;
            }
    }
    free(d.pool);
    return 0;
fail:
    free(d.pool);
    kp_free(k);
    return -1;
}

/* === Measuring ========================================================== */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* === Split over pthreads (-j) ========================================== */

/* What api/killer_api.c does with threads > 1, on pthreads: the items of
 * one or two portfolio members, each split into 2^depth subtrees, items
 * alternating between the members, taken in order by the threads.
 *   max_solutions 1, 9x9 and smaller: advanced lowest and highest value
 *   first (the value-order portfolio);
 *   16x16 and up, max_solutions <= 16: the race of learning (even items;
 *   it does not split, so its items past the first are empty) and
 *   advanced;
 *   else one member, advanced, split.
 * Each member is complete alone: the job is settled when max_solutions
 * grids are in (kept once each) or one member has searched all its
 * subtrees. */
#define PAR_MAX_SOL 16

typedef struct par_s {
    const killer_puzzle_t *pz;
    uint32_t depth;    /* subtrees per member: 2^depth */
    uint32_t members;  /* 1 or 2; items alternate */
    int race;          /* members are learning (0) and advanced (1) */
    uint32_t maxsol;   /* <= PAR_MAX_SOL */
    atomic_uint next;  /* next item to take */
    atomic_int cancel; /* raised once the answer is settled */
    int64_t deadline_ns;
    pthread_mutex_t lock; /* guards the fields below */
    uint8_t sol[PAR_MAX_SOL * KILLER_MAX_N * KILLER_MAX_N];
    uint32_t found;
    uint64_t nodes;
    uint32_t done[2]; /* per member: items searched to the end */
    int settled;      /* a member searched everything, or maxsol are in */
    killer_method_t answered;
    int code; /* first nonzero code other than the cancellation */
} par_t;

static void *par_worker(void *arg) {
    par_t *p = arg;
    size_t nn = (size_t)p->pz->shape.n * (size_t)p->pz->shape.n;
    uint8_t *sol = malloc(PAR_MAX_SOL * nn);
    search_ctl_t ctl = {.deadline_ns = p->deadline_ns, .cancel = &p->cancel};
    if (sol == NULL) exit(2);
    for (;;) {
        unsigned idx = atomic_fetch_add(&p->next, 1u), m = idx % p->members;
        killer_opts_t o;
        killer_result_t r;
        if (idx >= (p->members << p->depth) || atomic_load(&p->cancel)) break;
        killer_opts_init(&o);
        o.method = p->race && m == 0 ? KILLER_METHOD_LEARNING : KILLER_METHOD_ADVANCED;
        o.solutions = sol;
        o.max_solutions = p->maxsol;
        o.ctl = &ctl;
        o.split_depth = p->depth;
        o.split_index = idx / p->members;
        if (!p->race && p->members == 2)
            o.values = m == 1 ? KILLER_VALUES_DESCENDING : KILLER_VALUES_ASCENDING;
        killer_solve(p->pz, &o, &r);
        pthread_mutex_lock(&p->lock);
        p->nodes += r.stats.nodes;
        for (uint32_t k = 0; k < r.solutions_found && !p->settled && p->found < p->maxsol; k++) {
            uint32_t s;
            for (s = 0; s < p->found && memcmp(p->sol + s * nn, sol + k * nn, nn) != 0; s++)
                ;
            if (s == p->found) memcpy(p->sol + p->found++ * nn, sol + k * nn, nn);
        }
        if (r.code == 0 && r.exhausted) p->done[m] += r.split_span;
        if (!p->settled && (p->found >= p->maxsol || p->done[m] >= (1u << p->depth))) {
            p->settled = 1;
            p->answered = r.method;
            atomic_store(&p->cancel, 1);
        }
        if (r.code != 0 && r.code != SEARCH_CANCELLED && p->code == 0) p->code = r.code;
        pthread_mutex_unlock(&p->lock);
    }
    free(sol);
    return NULL;
}

/* max_solutions (<= PAR_MAX_SOL) of pz on `threads` pthreads; fills *r as
 * killer_solve would (code, solutions_found, exhausted, method: the member
 * that settled the answer, stats.nodes) and sol. */
static void par_solve(const killer_puzzle_t *pz, int threads, uint32_t maxsol, int64_t deadline_ns,
                      uint8_t *sol, killer_result_t *r) {
    pthread_t tid[64];
    par_t *p = calloc(1, sizeof *p);
    int t, nt = threads < 64 ? threads : 64, per = nt;
    if (p == NULL) exit(2);
    p->pz = pz;
    p->maxsol = maxsol < PAR_MAX_SOL ? maxsol : PAR_MAX_SOL;
    p->race = pz->shape.n >= 16;
    p->members = p->race || maxsol == 1 ? 2 : 1;
    if (p->members == 2) per = nt / 2;
    p->depth = 0;
    if (per > 1) { /* as api/killer_api.c does */
        p->depth = 3;
        while ((1 << (p->depth - 3)) < per && p->depth < KILLER_MAX_SPLIT_DEPTH)
            p->depth++;
    }
    p->deadline_ns = deadline_ns;
    pthread_mutex_init(&p->lock, NULL);
    for (t = 0; t < nt; t++)
        if (pthread_create(&tid[t], NULL, par_worker, p) != 0) exit(2);
    for (t = 0; t < nt; t++)
        pthread_join(tid[t], NULL);
    memset(r, 0, sizeof *r);
    r->solutions_found = p->found;
    r->exhausted = p->settled && p->found < p->maxsol;
    r->method = p->answered;
    r->stats.nodes = p->nodes;
    r->code = p->settled ? 0 : p->code;
    memcpy(sol, p->sol, (size_t)p->found * (size_t)pz->shape.n * (size_t)pz->shape.n);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* Whether pz has a second solution (advanced, max_solutions 2, 10 s; not
 * timed): a valid answer that differs from the file's is then no error. */
static int xcheck_bad; /* -x: disagreements over all files */

/* The process's CPU time (-P): on a machine shared with other work, wall
 * time measures the others too. */
static int64_t cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int has_two(const killer_puzzle_t *pz) {
    killer_opts_t o;
    killer_result_t r;
    search_ctl_t ctl;
    killer_opts_init(&o);
    o.method = KILLER_METHOD_ADVANCED;
    o.max_solutions = 2;
    memset(&ctl, 0, sizeof ctl);
    ctl.deadline_ns = search_now_ns() + 10 * 1000000000LL;
    o.ctl = &ctl;
    return killer_solve(pz, &o, &r) == 0 && r.solutions_found == 2;
}

/* -x: the learning method against the advanced one, max_solutions 2
 * under the -T cap each.  They agree when both found two valid, distinct
 * solutions (which two may differ), or both searched everything and found
 * the same solutions; a method stopped by the cap is counted apart (what
 * it found must still be valid), and a search that claims the space
 * exhausted with another answer than the other is a disagreement
 * (printed).  Returns the disagreements. */
static int xcheck(const kp_t *ps, int np, const char *name, int cap_ms, int verbose) {
    int i, agree = 0, differ = 0, stopped = 0;
    for (i = 0; i < np; i++) {
        const kp_t *k = &ps[i];
        size_t nn = (size_t)k->pz.shape.n * (size_t)k->pz.shape.n;
        uint8_t sol[2][2 * KILLER_MAX_N * KILLER_MAX_N];
        killer_result_t r[2];
        int m, ok = 1;
        for (m = 0; m < 2; m++) {
            killer_opts_t o;
            search_ctl_t ctl;
            killer_opts_init(&o);
            o.method = m == 0 ? KILLER_METHOD_ADVANCED : KILLER_METHOD_LEARNING;
            o.max_solutions = 2;
            o.solutions = sol[m];
            memset(&ctl, 0, sizeof ctl);
            ctl.deadline_ns = search_now_ns() + (int64_t)cap_ms * 1000000;
            o.ctl = &ctl;
            killer_solve(&k->pz, &o, &r[m]);
            for (uint32_t s = 0; s < r[m].solutions_found; s++)
                ok &= killer_check_solution(&k->pz, sol[m] + s * nn) == 1;
            if (r[m].solutions_found == 2) ok &= memcmp(sol[m], sol[m] + nn, nn) != 0;
        }
        if (r[0].code == 0 && r[1].code == 0 &&
            (r[0].solutions_found < 2 || r[1].solutions_found < 2)) {
            ok &= r[0].exhausted && r[1].exhausted && r[0].solutions_found == r[1].solutions_found;
            if (ok && r[0].solutions_found == 1) ok &= memcmp(sol[0], sol[1], nn) == 0;
        }
        if (!ok) {
            differ++;
            printf("  DIFFER %s: advanced %u (code %d, exhausted %d), learning %u (code %d, "
                   "exhausted %d)\n",
                   k->id, r[0].solutions_found, r[0].code, r[0].exhausted, r[1].solutions_found,
                   r[1].code, r[1].exhausted);
        } else if (r[0].code != 0 || r[1].code != 0)
            stopped++;
        else
            agree++;
        if (verbose)
            printf("  %-34s advanced %u%s learning %u%s\n", k->id, r[0].solutions_found,
                   r[0].code ? " (stopped)" : "", r[1].solutions_found,
                   r[1].code ? " (stopped)" : "");
    }
    printf("%-28s cross-check, max_solutions 2: %d agree, %d stopped by the cap, %d differ\n", name,
           agree, stopped, differ);
    return differ;
}

/* What main() read from the command line. */
typedef struct run_opts_s {
    const char *dir, *only;
    int cap_ms, adv_cap_ms, maxp, verbose, adv_only, threads, sweep;
    killer_values_t values;
    killer_method_t method; /* -M: the method -a runs (default advanced) */
    int unique;             /* -u: max_solutions 2, the whole proof timed */
    int xcheck;             /* -x: cross-check learning against advanced */
    int cpu;                /* -P: times are the process's CPU time, not wall time */
    uint64_t budget;        /* -N: node budget a solve (0: none); deterministic, unlike -T */
    /* -c / -g / -z: write each puzzle as DIR/<id>.EXT instead of solving */
    const char *out_dir, *out_ext;
    int (*write)(const kp_t *k, const char *dir);
} run_opts_t;

/* -s DEPTH: for each value order, each of the 2^DEPTH subtrees of the
 * advanced search alone (killer_opts_t split_depth / split_index), its
 * nodes to its first solution (marked *) or to exhaustion, or ? when the
 * cap stopped it.  Shows where a search spends its work: whether the
 * subtree holding the solution is small and the rest large (a value-order
 * or interleaving question), or large itself (a propagation question). */
static void sweep(const kp_t *k, const run_opts_t *ro) {
    int vo, ix;
    for (vo = 0; vo < 2; vo++) {
        uint64_t total = 0;
        printf("  %-34s %-4s 2^%d:", k->id, vo ? "desc" : "asc", ro->sweep);
        for (ix = 0; ix < (1 << ro->sweep); ix++) {
            killer_opts_t o;
            killer_result_t r;
            search_ctl_t ctl;
            killer_opts_init(&o);
            o.method = KILLER_METHOD_ADVANCED;
            o.values = vo ? KILLER_VALUES_DESCENDING : KILLER_VALUES_ASCENDING;
            o.split_depth = (uint32_t)ro->sweep;
            o.split_index = (uint32_t)ix;
            memset(&ctl, 0, sizeof ctl);
            ctl.deadline_ns = search_now_ns() + (int64_t)ro->adv_cap_ms * 1000000;
            o.ctl = &ctl;
            killer_solve(&k->pz, &o, &r);
            total += r.stats.nodes;
            printf(" %llu%s", (unsigned long long)r.stats.nodes,
                   r.code != 0             ? "?"
                   : r.solutions_found > 0 ? "*"
                                           : "");
        }
        printf("  (sum %llu)\n", (unsigned long long)total);
    }
}

/* -c DIR: writes each puzzle as DIMACS CNF to DIR/<id>.cnf instead of
 * solving it, for timing a SAT solver on the same puzzles (minisat,
 * cadical; docs/killer-tuning.md has the figures).  The encoding is the
 * usual direct one plus the cage tables: x(cell, v) = cell * n + v
 * (v = 1..n); each cell exactly one value; each row, column, box (and
 * diagonal) each value exactly once; each cage's cells pairwise distinct,
 * and one variable per value combination of the cage (k distinct values
 * whose symbols add up to its sum): at least one combination holds, a
 * combination puts each of its values in some cell of the cage, and a
 * cell takes only values of some combination.  Grids up to 16x16 (the
 * combinations are enumerated over all k-subsets of the n values). */
typedef struct cnf_s {
    FILE *f;
    unsigned long nclauses;
} cnf_t;

static void cnf_amo(cnf_t *c, const int *lits, int k) {
    int i, j;
    for (i = 0; i < k; i++)
        for (j = i + 1; j < k; j++) {
            fprintf(c->f, "-%d -%d 0\n", lits[i], lits[j]);
            c->nclauses++;
        }
}

static void cnf_alo(cnf_t *c, const int *lits, int k) {
    int i;
    for (i = 0; i < k; i++)
        fprintf(c->f, "%d ", lits[i]);
    fprintf(c->f, "0\n");
    c->nclauses++;
}

/* The value sets (bit v-1 = index v) of k = cg->ncells distinct values
 * whose symbols add up to cg->sum, ascending as numbers (Gosper's hack over
 * the k-subsets of n <= 16 values); returns how many. */
#define CNF_MAX_COMBOS 12870 /* C(16, 8): the most k-subsets of 16 */
static int cage_combos(const killer_puzzle_t *pz, const killer_cage_t *cg, uint32_t *out) {
    int n = pz->shape.n, k = cg->ncells, cnt = 0, v;
    uint32_t x, top = (uint32_t)1 << n;
    if (k < 1 || k > n) return 0;
    for (x = ((uint32_t)1 << k) - 1; x < top;) {
        long sum = 0;
        uint32_t lo = x & -x, r = x + lo;
        for (v = 0; v < n; v++)
            if (x >> v & 1) sum += killer_symbol(pz, v + 1);
        if (sum == cg->sum) out[cnt++] = x;
        if (r >= top) break;
        x = (((r ^ x) >> 2) / lo) | r;
    }
    return cnt;
}

/* Writes the clauses to c->f, counting them in c->nclauses and the
 * variables in *nvars. */
static void cnf_pass(const killer_puzzle_t *pz, cnf_t *c, int *nvars) {
    int n = pz->shape.n, br = pz->shape.box_rows, bc = pz->shape.box_cols, nv = n * n * n;
    int u, v, i, j, g, lits[KILLER_MAX_N]; /* a unit's or a cage's cells */
    uint32_t cmb[CNF_MAX_COMBOS];
    c->nclauses = 0;
    for (i = 0; i < n * n; i++) {
        for (v = 0; v < n; v++)
            lits[v] = i * n + v + 1;
        cnf_alo(c, lits, n);
        cnf_amo(c, lits, n);
    }
    for (u = 0; u < 3 * n + 2 * (pz->diagonals != 0); u++)
        for (v = 0; v < n; v++) {
            for (i = 0; i < n; i++) {
                int r, col;
                if (u < n)
                    r = u, col = i;
                else if (u < 2 * n)
                    r = i, col = u - n;
                else if (u < 3 * n)
                    r = (u - 2 * n) / (n / bc) * br + i / bc,
                    col = (u - 2 * n) % (n / bc) * bc + i % bc;
                else if (u == 3 * n)
                    r = i, col = i;
                else
                    r = i, col = n - 1 - i;
                lits[i] = (r * n + col) * n + v + 1;
            }
            cnf_alo(c, lits, n);
            cnf_amo(c, lits, n);
        }
    for (g = 0; g < pz->ncages; g++) {
        const killer_cage_t *cg = &pz->cages[g];
        int k = cg->ncells, first = nv + 1, ncomb;
        for (v = 0; v < n; v++) {
            for (i = 0; i < k; i++)
                lits[i] = (cg->cells[i].r * n + cg->cells[i].c) * n + v + 1;
            cnf_amo(c, lits, k);
        }
        ncomb = cage_combos(pz, cg, cmb);
        for (j = 0; j < ncomb; j++)
            for (v = 0; v < n; v++)
                if (cmb[j] >> v & 1) { /* combination -> v in some cell */
                    fprintf(c->f, "-%d ", first + j);
                    for (i = 0; i < k; i++)
                        fprintf(c->f, "%d ", (cg->cells[i].r * n + cg->cells[i].c) * n + v + 1);
                    fprintf(c->f, "0\n");
                    c->nclauses++;
                }
        for (j = 0; j < ncomb; j++)
            fprintf(c->f, "%d ", first + j); /* some combination */
        fprintf(c->f, "0\n");
        c->nclauses++;
        for (v = 0; v < n; v++) /* a cell's value -> some combination holding it */
            for (i = 0; i < k; i++) {
                fprintf(c->f, "-%d ", (cg->cells[i].r * n + cg->cells[i].c) * n + v + 1);
                for (j = 0; j < ncomb; j++)
                    if (cmb[j] >> v & 1) fprintf(c->f, "%d ", first + j);
                fprintf(c->f, "0\n");
                c->nclauses++;
            }
        nv += ncomb;
    }
    *nvars = nv;
}

/* The clauses go to a temporary file first: the DIMACS header before
 * them needs their count. */
static int write_cnf(const kp_t *k, const char *dir) {
    char path[1200], buf[65536];
    cnf_t c = {NULL, 0};
    int nvars, rc = -1;
    size_t got;
    FILE *out;
    if (k->pz.shape.n > 16 || killer_validate(&k->pz, NULL) != 0 || (c.f = tmpfile()) == NULL)
        return -1;
    cnf_pass(&k->pz, &c, &nvars);
    snprintf(path, sizeof path, "%s/%s.cnf", dir, k->id);
    out = fopen(path, "w");
    if (out != NULL) {
        fprintf(out, "p cnf %d %lu\n", nvars, c.nclauses);
        rewind(c.f);
        while ((got = fread(buf, 1, sizeof buf, c.f)) > 0)
            fwrite(buf, 1, got, out);
        rc = ferror(c.f) || ferror(out) ? -1 : 0;
        if (fclose(out) != 0) rc = -1;
    }
    fclose(c.f);
    return rc;
}

/* -g DIR: writes each puzzle (up to 16x16) as a clingo program,
 * DIR/<id>.lp, to time a learning solver with native sums on the model
 * the advanced search propagates: x(R,C,V) = cell (R,C) holds value index
 * V; exactly one value a cell and one place a value in each unit; each
 * cage pairwise distinct, with one atom k(Cage,J) per value combination
 * tied to the cells both ways as in the CNF above; and every sum equation
 * of killer__derive() -- the cages and the 45-rule innie / outie / mixed
 * sets -- as a #sum constraint, a mirrored cell weighing n + 1 - V.
 * `clingo -q --stats F.lp` solves it (docs/killer-tuning.md). */
static int write_lp(const kp_t *k, const char *dir) {
    const killer_puzzle_t *pz = &k->pz;
    int n = pz->shape.n, bc = pz->shape.box_cols, br = pz->shape.box_rows, rc = -1;
    uint32_t maxeq, maxcells, i, *cmb = NULL;
    size_t scratch;
    killer__model_t *m = NULL;
    killer__eqs_t e = {NULL, NULL, NULL, 0, 0};
    void *scr = NULL;
    char path[1200];
    FILE *out = NULL;
    if (n > 16 || killer_validate(pz, NULL) != 0) return -1;
    killer__derive_size(pz, &maxeq, &maxcells, &scratch);
    m = malloc(sizeof *m);
    e.eq = malloc(maxeq * sizeof *e.eq);
    e.cells = malloc(maxcells * sizeof *e.cells);
    e.neg = malloc(maxcells);
    scr = aligned_alloc(16, KILLER__ALIGN(scratch) + 16);
    cmb = malloc(CNF_MAX_COMBOS * sizeof *cmb);
    snprintf(path, sizeof path, "%s/%s.lp", dir, k->id);
    if (!m || !e.eq || !e.cells || !e.neg || !scr || !cmb || (out = fopen(path, "w")) == NULL)
        goto done;
    killer__model_init(m, pz);
    killer__derive(m, &e, scr, 1);
    fprintf(out, "rc(0..%d). val(1..%d).\n", n - 1, n);
    fprintf(out, "1 { x(R,C,V) : val(V) } 1 :- rc(R), rc(C).\n");
    fprintf(out, "1 { x(R,C,V) : rc(C) } 1 :- rc(R), val(V).\n");
    fprintf(out, "1 { x(R,C,V) : rc(R) } 1 :- rc(C), val(V).\n");
    fprintf(out, "box(R,C,(R/%d)*%d+C/%d) :- rc(R), rc(C).\n", br, n / bc, bc);
    fprintf(out, "1 { x(R,C,V) : box(R,C,B) } 1 :- box(_,_,B), val(V).\n");
    if (pz->diagonals) {
        fprintf(out, "1 { x(R,R,V) : rc(R) } 1 :- val(V).\n");
        fprintf(out, "1 { x(R,%d-R,V) : rc(R) } 1 :- val(V).\n", n - 1);
    }
    for (i = 0; i < e.neq; i++) {
        const killer__eq_t *q = &e.eq[i];
        int j, v;
        fprintf(out, ":- #sum {");
        for (j = 0; j < q->k; j++) {
            int cell = e.cells[q->off + j], r = cell / n, c = cell % n;
            for (v = 1; v <= n; v++)
                fprintf(out, "%s %ld,%d,%d,%d : x(%d,%d,%d)", j + v > 1 ? ";" : "",
                        e.neg[q->off + j] ? (long)(n + 1 - v) : killer_symbol(pz, v), r, c, v, r, c,
                        v);
        }
        fprintf(out, " } != %ld.\n", q->sum);
    }
    for (int g = 0; g < pz->ncages; g++) {
        const killer_cage_t *cg = &pz->cages[g];
        int kc = cg->ncells, ncomb = cage_combos(pz, cg, cmb), j, v, t;
        for (v = 1; v <= n; v++) {
            fprintf(out, ":- 2 {");
            for (t = 0; t < kc; t++)
                fprintf(out, "%s x(%d,%d,%d)", t ? ";" : "", cg->cells[t].r, cg->cells[t].c, v);
            fprintf(out, " }.\n");
        }
        fprintf(out, "1 {");
        for (j = 0; j < ncomb; j++)
            fprintf(out, "%s k(%d,%d)", j ? ";" : "", g, j);
        fprintf(out, " } 1.\n");
        for (j = 0; j < ncomb; j++)
            for (v = 1; v <= n; v++) {
                if (cmb[j] >> (v - 1) & 1) { /* the combination puts v in some cell */
                    fprintf(out, ":- k(%d,%d)", g, j);
                    for (t = 0; t < kc; t++)
                        fprintf(out, ", not x(%d,%d,%d)", cg->cells[t].r, cg->cells[t].c, v);
                    fprintf(out, ".\n");
                } else
                    for (t = 0; t < kc; t++)
                        fprintf(out, ":- k(%d,%d), x(%d,%d,%d).\n", g, j, cg->cells[t].r,
                                cg->cells[t].c, v);
            }
        for (v = 1; v <= n; v++) /* a cell's value -> some combination holding it */
            for (t = 0; t < kc; t++) {
                fprintf(out, ":- x(%d,%d,%d)", cg->cells[t].r, cg->cells[t].c, v);
                for (j = 0; j < ncomb; j++)
                    if (cmb[j] >> (v - 1) & 1) fprintf(out, ", not k(%d,%d)", g, j);
                fprintf(out, ".\n");
            }
    }
    fprintf(out, "#show x/3.\n");
    rc = ferror(out) ? -1 : 0;
done:
    if (out != NULL && fclose(out) != 0) rc = -1;
    free(cmb);
    free(scr);
    free(e.neg);
    free(e.cells);
    free(e.eq);
    free(m);
    return rc;
}

/* -z DIR: writes each puzzle as a MiniZinc model, DIR/<id>.mzn, the
 * textbook model a CP user would write: one variable a cell over its value
 * indices 1..n, alldifferent on every unit (and the diagonals for
 * Killer-X), each cage alldifferent with its sum over the symbol values,
 * the givens fixed, the answer printed as n*n value indices.  No
 * combinations and no 45-rule sums: this is the yardstick for a constraint
 * solver's own propagation and learning (Chuffed, a lazy clause generation
 * solver; docs/killer-tuning.md). */
/* -k DIR: the puzzle as the constraint string of sigh's Interactive Sudoku
 * Solver (its URLs' "dot-tilde" text: .Shape~16x16, .Cage~SUM~R1C1~R1C2,
 * .Diagonal~1.Diagonal~-1 for Killer-X, .~R1C1_5 for a given), for the
 * anchor of bench/compare/killer.sh.  A cell id is R and C followed by one
 * base-17 digit each (row 10 is 'a').  Only square boxes and symbols 1..n
 * (ISS's values); -1 for the rest. */
static int write_iss(const kp_t *k, const char *dir) {
    const killer_puzzle_t *pz = &k->pz;
    int n = pz->shape.n, i, j;
    char path[1200];
    FILE *out;
    if (pz->shape.box_rows != pz->shape.box_cols || killer_validate(pz, NULL) != 0) return -1;
    for (i = 1; i <= n; i++)
        if (killer_symbol(pz, i) != i) return -1;
    snprintf(path, sizeof path, "%s/%s.iss", dir, k->id);
    if ((out = fopen(path, "w")) == NULL) return -1;
#define ISS_ID(x) ((x) < 9 ? '1' + (x) : 'a' + (x)-9)
    if (n != 9) fprintf(out, ".Shape~%dx%d", n, n);
    if (pz->diagonals) fprintf(out, ".Diagonal~1.Diagonal~-1");
    for (i = 0; i < pz->ncages; i++) {
        fprintf(out, ".Cage~%ld", pz->cages[i].sum);
        for (j = 0; j < pz->cages[i].ncells; j++)
            fprintf(out, "~R%cC%c", ISS_ID(pz->cages[i].cells[j].r),
                    ISS_ID(pz->cages[i].cells[j].c));
    }
    for (i = 0; pz->givens != NULL && i < n * n; i++)
        if (pz->givens[i] != 0)
            fprintf(out, ".~R%cC%c_%d", ISS_ID(i / n), ISS_ID(i % n), pz->givens[i]);
#undef ISS_ID
    fprintf(out, "\n");
    return fclose(out) == 0 ? 0 : -1;
}

static int write_mzn(const kp_t *k, const char *dir) {
    const killer_puzzle_t *pz = &k->pz;
    int n = pz->shape.n, bc = pz->shape.box_cols, br = pz->shape.box_rows, rc = -1, g, t, v,
        plain = 1;
    char path[1200];
    FILE *out;
    if (killer_validate(pz, NULL) != 0) return -1;
    for (v = 1; v <= n; v++)
        plain &= killer_symbol(pz, v) == v;
    snprintf(path, sizeof path, "%s/%s.mzn", dir, k->id);
    if ((out = fopen(path, "w")) == NULL) return -1;
    fprintf(out, "include \"alldifferent.mzn\";\nint: n = %d;\narray[1..n] of int: sym = [", n);
    for (v = 1; v <= n; v++)
        fprintf(out, "%s%ld", v > 1 ? "," : "", killer_symbol(pz, v));
    fprintf(out, "];\narray[0..n-1, 0..n-1] of var 1..n: x;\n");
    fprintf(out, "constraint forall(i in 0..n-1)(alldifferent([x[i,j] | j in 0..n-1]) /\\ "
                 "alldifferent([x[j,i] | j in 0..n-1]));\n");
    fprintf(out,
            "constraint forall(R in 0..%d, C in 0..%d)"
            "(alldifferent([x[R*%d+r, C*%d+c] | r in 0..%d, c in 0..%d]));\n",
            n / br - 1, n / bc - 1, br, bc, br - 1, bc - 1);
    if (pz->diagonals)
        fprintf(out, "constraint alldifferent([x[i,i] | i in 0..n-1]) /\\ alldifferent([x[i,n-1-i] "
                     "| i in 0..n-1]);\n");
    for (g = 0; g < pz->ncages; g++) {
        const killer_cage_t *cg = &pz->cages[g];
        fprintf(out, "constraint sum([");
        for (t = 0; t < cg->ncells; t++) /* sym[] only when the symbols are not 1..n */
            fprintf(out, plain ? "%sx[%d,%d]" : "%ssym[x[%d,%d]]", t ? "," : "", cg->cells[t].r,
                    cg->cells[t].c);
        fprintf(out, "]) = %ld", cg->sum);
        if (cg->ncells > 1) {
            fprintf(out, " /\\ alldifferent([");
            for (t = 0; t < cg->ncells; t++)
                fprintf(out, "%sx[%d,%d]", t ? "," : "", cg->cells[t].r, cg->cells[t].c);
            fprintf(out, "])");
        }
        fprintf(out, ";\n");
    }
    if (pz->givens != NULL)
        for (t = 0; t < n * n; t++)
            if (pz->givens[t])
                fprintf(out, "constraint x[%d,%d] = %d;\n", t / n, t % n, pz->givens[t]);
    fprintf(out,
            "solve satisfy;\noutput [show(x[i,j]) ++ \" \" | i, j in 0..n-1];\n"); /* value indices,
                                                                                      row-major */
    rc = ferror(out) ? -1 : 0;
    if (fclose(out) != 0) rc = -1;
    return rc;
}

static void run_file(const char *name, const run_opts_t *ro) {
    const char *dir = ro->dir, *only = ro->only;
    int cap_ms = ro->cap_ms, adv_cap_ms = ro->adv_cap_ms, maxp = ro->maxp, verbose = ro->verbose;
    int adv_only = ro->adv_only, threads = ro->threads;
    killer_values_t values = ro->values;
    char path[1024], *line = NULL;
    size_t lcap = 0;
    FILE *f;
    kp_t *ps = NULL;
    int np = 0, cp = 0, mi, i;
    if (dir != NULL)
        snprintf(path, sizeof path, "%s/%s", dir, name);
    else
        snprintf(path, sizeof path, "%s", name);
    f = fopen(path, "r");
    if (f == NULL) {
        printf("%-28s (missing, skipped)\n", name);
        return;
    }
    while (getline(&line, &lcap, f) > 0 && (maxp <= 0 || np < maxp)) {
        if (line[0] != '{') continue;
        if (np == cp) {
            cp = cp ? 2 * cp : 64;
            ps = realloc(ps, (size_t)cp * sizeof *ps);
            if (ps == NULL) exit(2);
        }
        if (kp_parse(line, &ps[np]) == 0) {
            if (only != NULL && strstr(ps[np].id, only) == NULL)
                kp_free(&ps[np]);
            else
                np++;
        }
    }
    free(line);
    fclose(f);
    if (np == 0) goto out;
    if (ro->out_dir != NULL) {
        int w = 0;
        for (i = 0; i < np; i++)
            w += ro->write(&ps[i], ro->out_dir) == 0;
        printf("%-28s %d of %d written as %s/<id>.%s\n", name, w, np, ro->out_dir, ro->out_ext);
        goto out;
    }
    if (ro->xcheck) {
        xcheck_bad += xcheck(ps, np, name, adv_cap_ms, verbose);
        goto out;
    }
    if (ro->sweep > 0) {
        printf("%s: nodes per subtree, 2^%d subtrees, * = its first solution, ? = stopped by -T\n",
               name, ro->sweep);
        for (i = 0; i < np; i++)
            sweep(&ps[i], ro);
        goto out;
    }
    for (mi = adv_only; mi < 2; mi++) {
        killer_method_t meth = mi == 0 ? KILLER_METHOD_BACKTRACKING : ro->method;
        double *ms = calloc((size_t)np + 1, sizeof(double));
        uint64_t *nodes = calloc((size_t)np + 1, sizeof(uint64_t));
        int solved = 0, wrong = 0, stopped = 0, multi = 0;
        for (i = 0; i < np; i++) {
            kp_t *k = &ps[i];
            int n = k->pz.shape.n;
            uint8_t sol[2 * KILLER_MAX_N * KILLER_MAX_N];
            killer_opts_t o;
            killer_result_t r;
            search_ctl_t ctl;
            int64_t t0;
            killer_opts_init(&o);
            o.method = meth;
            o.values = values;
            o.solutions = sol;
            o.max_solutions = ro->unique ? 2 : 1;
            memset(&ctl, 0, sizeof ctl);
            ctl.deadline_ns = search_now_ns() + (int64_t)(mi == 0 ? cap_ms : adv_cap_ms) * 1000000;
            if (mi == 1) ctl.node_budget = ro->budget;
            o.ctl = &ctl;
            t0 = ro->cpu ? cpu_ns() : search_now_ns();
            if (mi == 1 && threads > 1)
                par_solve(&k->pz, threads, o.max_solutions, ctl.deadline_ns, sol, &r);
            else
                killer_solve(&k->pz, &o, &r);
            ms[i] = (double)((ro->cpu ? cpu_ns() : search_now_ns()) - t0) / 1e6;
            nodes[i] = r.stats.nodes;
            if (ro->unique && r.code == 0 && r.solutions_found == 2) {
                multi++; /* -u: a second solution found, both checked */
                if (killer_check_solution(&k->pz, sol) == 1 &&
                    killer_check_solution(&k->pz, sol + (size_t)n * n) == 1 &&
                    memcmp(sol, sol + (size_t)n * n, (size_t)n * n) != 0)
                    solved++;
                else
                    wrong++;
            } else if (ro->unique && r.code == 0 && r.solutions_found == 1 && !r.exhausted) {
                wrong++; /* a proof that did not finish is no proof */
            } else if (r.code == 0 && r.solutions_found == 1) {
                int ok = killer_check_solution(&k->pz, sol) == 1;
                if (ok && !k->multi && k->solution[0] != 0 &&
                    memcmp(sol, k->solution, (size_t)n * n) != 0)
                    ok = 0;
                if (!ok && killer_check_solution(&k->pz, sol) == 1 && has_two(&k->pz)) {
                    multi++; /* valid, and the file's answer is not the only one */
                    solved++;
                    if (verbose)
                        printf("  MULTI %s: valid, differs from the file's; the puzzle has 2+ "
                               "solutions\n",
                               k->id);
                } else if (ok)
                    solved++;
                else {
                    wrong++;
                    if (verbose)
                        printf("  BAD %s: %s\n", k->id,
                               killer_check_solution(&k->pz, sol) == 1
                                   ? "valid, differs from the file's solution"
                                   : "invalid solution");
                }
            } else if (r.code != 0)
                stopped++;
            else
                wrong++; /* no solution claimed */
            if (verbose && meth == KILLER_METHOD_LEARNING)
                printf("  %-10s %-34s %9.3f ms %10llu nodes code %d conflicts %llu (clause %.1f "
                       "literals)\n",
                       killer_method_name(meth), k->id, ms[i], (unsigned long long)r.stats.nodes,
                       r.code, (unsigned long long)r.learning.conflicts,
                       r.learning.learned
                           ? (double)r.learning.learned_lits / (double)r.learning.learned
                           : 0.0);
            else if (verbose)
                printf("  %-10s %-34s %9.3f ms %10llu nodes code %d derived %u\n",
                       killer_method_name(meth), k->id, ms[i], (unsigned long long)r.stats.nodes,
                       r.code, r.derived);
        }
        qsort(ms, (size_t)np, sizeof(double), cmp_double);
        qsort(nodes, (size_t)np, sizeof(uint64_t), cmp_u64);
        printf("%-28s %-12s %4d/%-4d %6d %5d %5d %10.3f %10.3f %10llu %12llu\n", name,
               killer_method_name(meth), solved, np, stopped, multi, wrong, np ? ms[np / 2] : 0.0,
               np ? ms[np - 1] : 0.0, (unsigned long long)(np ? nodes[np / 2] : 0),
               (unsigned long long)(np ? nodes[np - 1] : 0));
        fflush(stdout);
        free(ms);
        free(nodes);
    }
out:
    for (i = 0; i < np; i++)
        kp_free(&ps[i]);
    free(ps);
}

int main(int argc, char **argv) {
    static const char *const files[] = {"janko_killer_4x4.jsonl", "janko_killer_6x6.jsonl",
                                        "janko_killer_9x9.jsonl", "killers_curated.jsonl"};
    run_opts_t ro = {.dir = "../shared/data/killer",
                     .cap_ms = 1000,
                     .adv_cap_ms = 60000,
                     .threads = 1,
                     .values = KILLER_VALUES_AUTO,
                     .method = KILLER_METHOD_ADVANCED};
    const char *one = NULL; /* -i FILE */
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
            ro.dir = argv[++i];
        else if (strcmp(argv[i], "-i") == 0 && i + 1 < argc)
            one = argv[++i];
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
            ro.cap_ms = atoi(argv[++i]);
        else if (strcmp(argv[i], "-T") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 1)
            ro.adv_cap_ms = atoi(argv[++i]);
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            ro.maxp = atoi(argv[++i]);
        else if (strcmp(argv[i], "-v") == 0)
            ro.verbose = 1;
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
            ro.out_dir = argv[++i];
            ro.out_ext = "cnf";
            ro.write = write_cnf;
        } else if (strcmp(argv[i], "-g") == 0 && i + 1 < argc) {
            ro.out_dir = argv[++i];
            ro.out_ext = "lp";
            ro.write = write_lp;
        } else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc) {
            ro.out_dir = argv[++i];
            ro.out_ext = "iss";
            ro.write = write_iss;
        } else if (strcmp(argv[i], "-z") == 0 && i + 1 < argc) {
            ro.out_dir = argv[++i];
            ro.out_ext = "mzn";
            ro.write = write_mzn;
        } else if (strcmp(argv[i], "-a") == 0)
            ro.adv_only = 1;
        else if (strcmp(argv[i], "-u") == 0)
            ro.unique = 1;
        else if (strcmp(argv[i], "-x") == 0)
            ro.xcheck = 1;
        else if (strcmp(argv[i], "-P") == 0)
            ro.cpu = 1;
        else if (strcmp(argv[i], "-N") == 0 && i + 1 < argc && atoll(argv[i + 1]) >= 1)
            ro.budget = (uint64_t)atoll(argv[++i]);
        else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
            ro.only = argv[++i];
        else if (strcmp(argv[i], "-M") == 0 && i + 1 < argc &&
                 killer_method_parse(argv[i + 1], &ro.method) == 0)
            i++;
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && strcmp(argv[i + 1], "auto") == 0 &&
                 ++i)
            ro.values = KILLER_VALUES_AUTO;
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && strcmp(argv[i + 1], "asc") == 0 &&
                 ++i)
            ro.values = KILLER_VALUES_ASCENDING;
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && strcmp(argv[i + 1], "desc") == 0 &&
                 ++i)
            ro.values = KILLER_VALUES_DESCENDING;
        else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 1)
            ro.threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 1 &&
                 atoi(argv[i + 1]) <= (int)KILLER_MAX_SPLIT_DEPTH)
            ro.sweep = atoi(argv[++i]);
        else {
            fprintf(stderr,
                    "usage: %s [-d dir | -i file] [-t backtracking_cap_ms] [-T advanced_cap_ms] "
                    "[-m max_per_file] [-v] [-a] [-M method] [-f id_part] "
                    "[-o auto|asc|desc] [-j threads] [-u] [-P] [-N nodes] [-x] [-s split_depth] "
                    "[-c cnf_dir] "
                    "[-g lp_dir] [-z mzn_dir] [-k iss_dir]\n",
                    argv[0]);
            return 2;
        }
    }
    printf(
        "Killer Sudoku, first solution; backtracking capped at %d ms a puzzle, advanced at %d ms",
        ro.cap_ms, ro.adv_cap_ms);
    if (ro.threads > 1) printf(" on %d threads (wall time, both value orders)", ro.threads);
    printf("\n");
    if (ro.sweep == 0 && ro.out_dir == NULL)
        printf("%-28s %-12s %9s %6s %5s %5s %10s %10s %10s %12s\n", "file", "method", "solved",
               "stop", "multi", "bad", "median ms", "worst ms", "med nodes", "worst nodes");
    if (one != NULL) {
        ro.dir = NULL; /* run_file() reads the name as a path */
        run_file(one, &ro);
    } else
        for (i = 0; i < (int)(sizeof files / sizeof files[0]); i++)
            run_file(files[i], &ro);
    return xcheck_bad != 0;
}
