/* killer.c -- Killer Sudoku model: validation, solution check, the compiled
 * model and combination enumeration shared by both searches, and the entry
 * point killer_solve() that dispatches to killer/bt.c / killer/adv.c.
 *
 * Data: the public puzzle (killer.h) is never modified.  Validation keeps a
 * per-cell owner array (int16, n*n <= 1296 entries, 2.6 KiB on the stack) to
 * find cells in two cages; everything else is scalar.
 *
 * Sum reachability with arbitrary symbols is a subset-sum question (for
 * 1..n the min/max bounds decide it, for 10,20,... they do not), so it is
 * answered by enumerating with a step budget (killer__combos).  When the
 * budget runs out, which hostile symbol sets could force, validation does
 * NOT report the sum as unreachable; the solver then finds no solution and
 * says so (exhausted, 0 found).  Rejecting on a guess was the alternative,
 * and would refuse valid puzzles.
 *
 * Thread-safety: no state outside the arguments; reentrant. */
#include <stdlib.h>
#include <string.h>

#include "solvers/killer/internal.h"

#define VALIDATE_BUDGET ((uint64_t)1 << 18) /* enumeration steps per sum check */

/* === Names and options ================================================== */

static const char *const method_names[KILLER_METHOD_COUNT] = {"auto", "backtracking", "advanced",
                                                              "learning"};

const char *killer_method_name(killer_method_t m) {
    return ((int)m >= 0 && m < KILLER_METHOD_COUNT) ? method_names[m] : NULL;
}

/* The index of name in names[0..count), or -1. */
static int name_index(const char *const *names, int count, const char *name) {
    for (int i = 0; name != NULL && i < count; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}

int killer_method_parse(const char *name, killer_method_t *out) {
    int i = name_index(method_names, KILLER_METHOD_COUNT, name);
    if (i < 0) return SEARCH_EINVAL;
    *out = (killer_method_t)i;
    return 0;
}

static const char *const values_names[KILLER_VALUES_COUNT] = {"auto", "ascending", "descending"};

killer_method_t killer_method_for(int n, killer_method_t asked, killer_values_t values) {
    if (asked != KILLER_METHOD_AUTO) return asked;
    return n == 4 && values == KILLER_VALUES_AUTO ? KILLER_METHOD_BACKTRACKING
                                                  : KILLER_METHOD_ADVANCED;
}

const char *killer_values_name(killer_values_t v) {
    return ((int)v >= 0 && v < KILLER_VALUES_COUNT) ? values_names[v] : NULL;
}

int killer_values_parse(const char *name, killer_values_t *out) {
    int i = name_index(values_names, KILLER_VALUES_COUNT, name);
    if (i < 0) return SEARCH_EINVAL;
    *out = (killer_values_t)i;
    return 0;
}

void killer_opts_init(killer_opts_t *opts) {
    memset(opts, 0, sizeof *opts);
    opts->method = KILLER_METHOD_AUTO;
    opts->max_solutions = 1;
}

void *killer__alloc(const killer_opts_t *o, size_t size) {
    const search_allocator_t *a = o->alloc;
    return a != NULL && a->alloc != NULL ? a->alloc(a->ud, size) : malloc(size);
}

void killer__free(const killer_opts_t *o, void *p) {
    if (p == NULL) return;
    const search_allocator_t *a = o->alloc;
    if (a != NULL && a->dealloc != NULL)
        a->dealloc(a->ud, p);
    else
        free(p);
}

/* === Model ============================================================== */

void killer__model_init(killer__model_t *m, const killer_puzzle_t *pz) {
    int n = pz->shape.n, i, j, r, c, u;
    memset(m, 0, sizeof *m);
    m->pz = pz;
    m->n = n;
    m->nc = n * n;
    m->full = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    for (i = 1; i <= n; i++)
        m->sym[i] = killer_symbol(pz, i);
    for (i = 0; i < m->nc; i++)
        m->cell_cage[i] = -1;
    for (i = 0; i < pz->ncages; i++)
        for (j = 0; j < pz->cages[i].ncells; j++)
            m->cell_cage[pz->cages[i].cells[j].r * n + pz->cages[i].cells[j].c] = (int16_t)i;
    m->nunits = 3 * n + (pz->diagonals ? 2 : 0);
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++) {
            int cell = r * n + c, b = sudoku_box_of(&pz->shape, r, c);
            int br = b / (n / pz->shape.box_cols), bc = b % (n / pz->shape.box_cols);
            int bi =
                (r - br * pz->shape.box_rows) * pz->shape.box_cols + (c - bc * pz->shape.box_cols);
            m->unit_cells[r][c] = (uint16_t)cell;
            m->unit_cells[n + c][r] = (uint16_t)cell;
            m->unit_cells[2 * n + b][bi] = (uint16_t)cell;
            m->cell_units[cell][0] = (uint8_t)r;
            m->cell_units[cell][1] = (uint8_t)(n + c);
            m->cell_units[cell][2] = (uint8_t)(2 * n + b);
            u = 3;
            if (pz->diagonals && r == c) {
                m->unit_cells[3 * n][r] = (uint16_t)cell;
                m->cell_units[cell][u++] = (uint8_t)(3 * n);
            }
            if (pz->diagonals && r + c == n - 1) {
                m->unit_cells[3 * n + 1][r] = (uint16_t)cell;
                m->cell_units[cell][u++] = (uint8_t)(3 * n + 1);
            }
            m->cell_nunits[cell] = (uint8_t)u;
        }
}

int killer__sorted_symbols(const long *sym, uint64_t allowed, long *vals) {
    int k = 0, i;
    for (; allowed != 0; allowed &= allowed - 1) {
        long v = sym[killer__ctz(allowed) + 1];
        for (i = k; i > 0 && vals[i - 1] > v; i--)
            vals[i] = vals[i - 1];
        vals[i] = v;
        k++;
    }
    return k;
}

int killer__sum_bounds(const long *sym, uint64_t allowed, int k, long *lo, long *hi) {
    long vals[KILLER_MAX_N];
    int cnt = killer__sorted_symbols(sym, allowed, vals), i;
    long a = 0, b = 0;
    if (cnt < k) return -1;
    for (i = 0; i < k; i++) {
        a += vals[i];
        b += vals[cnt - 1 - i];
    }
    *lo = a;
    *hi = b;
    return 0;
}

typedef struct enum_s {
    int m;                     /* symbols available */
    long val[KILLER_MAX_N];    /* their values, ascending */
    uint8_t idx[KILLER_MAX_N]; /* their indices 1..n */
    long pre[KILLER_MAX_N + 1];
    uint64_t *out;
    uint32_t cap, count;
    uint64_t steps, budget;
    int stopped;
} enum_t;

/* Picks `left` more of the symbols from position pos on, adding up to rem.
 * Depth <= left <= 36. */
static void enum_rec(enum_t *e, int pos, int left, long rem, uint64_t mask) {
    int i;
    if (left == 0) {
        if (rem != 0) return;
        if (e->count < e->cap && e->out != NULL) e->out[e->count] = mask;
        e->count++;
        if (e->count > e->cap) e->stopped = 1;
        return;
    }
    for (i = pos; i + left <= e->m && !e->stopped; i++) {
        long lo = e->pre[i + left] - e->pre[i];       /* smallest from i */
        long hi = e->pre[e->m] - e->pre[e->m - left]; /* largest overall */
        if (++e->steps > e->budget) {
            e->stopped = 1;
            return;
        }
        if (lo > rem) return; /* larger i only raises the minimum */
        if (hi < rem) return; /* nothing from here on can reach rem */
        enum_rec(e, i + 1, left - 1, rem - e->val[i], mask | KILLER__BIT(e->idx[i]));
    }
}

int killer__combos(const long *sym, uint64_t allowed, int k, long sum, uint64_t *out, uint32_t cap,
                   uint32_t *count, uint64_t budget) {
    enum_t e;
    int i, j;
    memset(&e, 0, sizeof e);
    for (; allowed != 0; allowed &= allowed - 1) {
        int v = killer__ctz(allowed) + 1;
        for (i = e.m; i > 0 && e.val[i - 1] > sym[v]; i--) {
            e.val[i] = e.val[i - 1];
            e.idx[i] = e.idx[i - 1];
        }
        e.val[i] = sym[v];
        e.idx[i] = (uint8_t)v;
        e.m++;
    }
    for (j = 0; j < e.m; j++)
        e.pre[j + 1] = e.pre[j] + e.val[j];
    e.out = out;
    e.cap = cap;
    e.budget = budget;
    if (k >= 0 && k <= e.m) enum_rec(&e, 0, k, sum, 0);
    *count = e.count;
    return e.stopped;
}

/* === Validation ========================================================= */

static int report(killer_problem_t *p, int code, int cage, int cell, int r, int c, int other) {
    if (p != NULL) {
        p->code = code;
        p->cage = cage;
        p->cell = cell;
        p->r = r;
        p->c = c;
        p->other = other;
    }
    return code;
}

/* Is there a set of k symbols among `allowed` adding to `sum`?  1 = yes or
 * unknown (budget ran out, see the file comment), 0 = no. */
static int reachable(const long *sym, uint64_t allowed, int k, long sum) {
    uint32_t cnt;
    long lo, hi;
    if (k == 0) return sum == 0;
    if (killer__sum_bounds(sym, allowed, k, &lo, &hi) != 0 || sum < lo || sum > hi) return 0;
    if (killer__combos(sym, allowed, k, sum, NULL, 0, &cnt, VALIDATE_BUDGET) != 0) return 1;
    return cnt > 0;
}

/* Do cells a and b share a row, column, box or (Killer-X) diagonal? */
static int same_unit(const killer_puzzle_t *pz, int a, int b) {
    int n = pz->shape.n, ra = a / n, ca = a % n, rb = b / n, cb = b % n;
    if (ra == rb || ca == cb) return 1;
    if (sudoku_box_of(&pz->shape, ra, ca) == sudoku_box_of(&pz->shape, rb, cb)) return 1;
    if (pz->diagonals && ra == ca && rb == cb) return 1;
    if (pz->diagonals && ra + ca == n - 1 && rb + cb == n - 1) return 1;
    return 0;
}

int killer_validate(const killer_puzzle_t *pz, killer_problem_t *prob) {
    int16_t owner[KILLER__MAX_CELLS];
    long sym[KILLER_MAX_N + 1];
    int n, nc, i, j, covered = 0;
    long total = 0, cages_total = 0;
    uint64_t full;

    if (pz == NULL || sudoku_shape_check(&pz->shape) != 0 || pz->shape.n < KILLER_MIN_N ||
        pz->shape.n > KILLER_MAX_N || pz->ncages < 0 || (pz->ncages > 0 && pz->cages == NULL))
        return report(prob, SEARCH_EINVAL, -1, -1, -1, -1, -1);
    n = pz->shape.n;
    nc = n * n;
    full = ((uint64_t)1 << n) - 1;

    /* symbols: n distinct values in 0..KILLER_MAX_SYMBOL (other = index) */
    if (pz->symbols != NULL)
        for (i = 0; i < n; i++) {
            if (pz->symbols[i] < 0 || pz->symbols[i] > KILLER_MAX_SYMBOL)
                return report(prob, KILLER_ESYMBOLS, -1, -1, -1, -1, i);
            for (j = 0; j < i; j++)
                if (pz->symbols[j] == pz->symbols[i])
                    return report(prob, KILLER_ESYMBOLS, -1, -1, -1, -1, i);
        }
    sym[0] = 0;
    for (i = 1; i <= n; i++) {
        sym[i] = killer_symbol(pz, i);
        total += sym[i];
    }
    if (pz->givens != NULL)
        for (i = 0; i < nc; i++)
            if (pz->givens[i] > n)
                return report(prob, KILLER_EGIVEN_VALUE, -1, -1, i / n, i % n, -1);

    /* cages, one by one, cells in order, then the sum */
    for (i = 0; i < nc; i++)
        owner[i] = -1;
    for (i = 0; i < pz->ncages; i++) {
        const killer_cage_t *cg = &pz->cages[i];
        if (cg->ncells <= 0 || cg->cells == NULL)
            return report(prob, KILLER_ECAGE_EMPTY, i, -1, -1, -1, -1);
        if (cg->ncells > n) return report(prob, KILLER_ECAGE_SIZE, i, -1, -1, -1, -1);
        for (j = 0; j < cg->ncells; j++) {
            int r = cg->cells[j].r, c = cg->cells[j].c;
            if (r < 0 || r >= n || c < 0 || c >= n)
                return report(prob, KILLER_ECELL_RANGE, i, j, r, c, -1);
            if (owner[r * n + c] >= 0)
                return report(prob, KILLER_ECELL_DUP, i, j, r, c, owner[r * n + c]);
            owner[r * n + c] = (int16_t)i;
            covered++;
        }
        if (!reachable(sym, full, cg->ncells, cg->sum))
            return report(prob, KILLER_ESUM, i, -1, -1, -1, -1);
        cages_total += cg->sum; /* each sum <= 36 * 1e6 after the check */
    }
    if (covered == nc && cages_total != (long)n * total)
        return report(prob, KILLER_ETOTAL, -1, -1, -1, -1, -1);

    if (pz->givens == NULL) return report(prob, 0, -1, -1, -1, -1, -1);

    /* givens against the rules: each given against the earlier ones */
    for (i = 0; i < nc; i++) {
        if (pz->givens[i] == 0) continue;
        for (j = 0; j < i; j++)
            if (pz->givens[j] == pz->givens[i] && same_unit(pz, i, j)) {
                int cg = owner[i];
                int k = -1;
                if (cg >= 0)
                    for (k = 0; k < pz->cages[cg].ncells; k++)
                        if (pz->cages[cg].cells[k].r * n + pz->cages[cg].cells[k].c == i) break;
                return report(prob, KILLER_EGIVEN_RULE, cg, cg >= 0 ? k : -1, i / n, i % n, j);
            }
    }
    /* givens against their cages: repeats, then the rest of the sum */
    for (i = 0; i < pz->ncages; i++) {
        const killer_cage_t *cg = &pz->cages[i];
        uint64_t used = 0;
        long rem = cg->sum;
        int open = 0, last = -1;
        for (j = 0; j < cg->ncells; j++) {
            int v = pz->givens[cg->cells[j].r * n + cg->cells[j].c];
            if (v == 0) {
                open++;
                continue;
            }
            if (used & KILLER__BIT(v))
                return report(prob, KILLER_EGIVEN_CAGE, i, j, cg->cells[j].r, cg->cells[j].c, -1);
            used |= KILLER__BIT(v);
            rem -= sym[v];
            last = j;
        }
        if (last >= 0 && !reachable(sym, full & ~used, open, rem))
            return report(prob, KILLER_EGIVEN_CAGE, i, last, cg->cells[last].r, cg->cells[last].c,
                          -1);
    }
    return report(prob, 0, -1, -1, -1, -1, -1);
}

int killer_check_solution(const killer_puzzle_t *pz, const uint8_t *grid) {
    int n, i, j, r;
    if (pz == NULL || sudoku_shape_check(&pz->shape) != 0 || pz->shape.n > KILLER_MAX_N)
        return SEARCH_EINVAL;
    n = pz->shape.n;
    r = sudoku_is_complete(&pz->shape, grid);
    if (r != 1) return r;
    if (pz->givens != NULL)
        for (i = 0; i < n * n; i++)
            if (pz->givens[i] != 0 && pz->givens[i] != grid[i]) return 0;
    if (pz->diagonals) {
        uint64_t d1 = 0, d2 = 0;
        for (i = 0; i < n; i++) {
            d1 |= KILLER__BIT(grid[i * n + i]);
            d2 |= KILLER__BIT(grid[i * n + n - 1 - i]);
        }
        if (killer__popcount(d1) != n || killer__popcount(d2) != n) return 0;
    }
    for (i = 0; i < pz->ncages; i++) {
        const killer_cage_t *cg = &pz->cages[i];
        uint64_t used = 0;
        long s = 0;
        for (j = 0; j < cg->ncells; j++) {
            int v = grid[cg->cells[j].r * n + cg->cells[j].c];
            if (used & KILLER__BIT(v)) return 0;
            used |= KILLER__BIT(v);
            s += killer_symbol(pz, v);
        }
        if (s != cg->sum) return 0;
    }
    return 1;
}

/* === Entry point ======================================================== */

/* auto on big grids (killer.h): advanced under a node budget of
 * KILLER_AUTO_ADVANCED_NODES (or the caller's, if smaller: then that is
 * all), then learning from scratch with what is left of the caller's
 * budget; the stats add up both. */
static int solve_auto_big(const killer_puzzle_t *pz, const killer_opts_t *opts,
                          killer_result_t *res) {
    const search_ctl_t *user = opts->ctl;
    killer_opts_t o = *opts;
    search_ctl_t c;
    search_stats_t first;
    uint64_t cap = KILLER_AUTO_ADVANCED_NODES;
    int user_cap = user != NULL && user->node_budget != 0 && user->node_budget <= cap, rc;
    memset(&c, 0, sizeof c);
    if (user != NULL) c = *user;
    if (!user_cap) c.node_budget = cap;
    o.ctl = &c;
    o.method = KILLER_METHOD_ADVANCED;
    res->method = KILLER_METHOD_ADVANCED;
    rc = killer__solve_adv(pz, &o, res);
    if (rc != SEARCH_BUDGET || user_cap) return rc;
    /* start over: what advanced found is found again */
    first = res->stats;
    memset(&res->stats, 0, sizeof res->stats);
    res->solutions_found = 0;
    res->exhausted = 0;
    res->value_orders = 0;
    res->method = KILLER_METHOD_LEARNING;
    o.ctl = user;
    if (user != NULL && user->node_budget != 0) {
        c = *user;
        c.node_budget -= first.nodes < c.node_budget ? first.nodes : c.node_budget - 1;
        o.ctl = &c;
    }
    o.method = KILLER_METHOD_LEARNING;
    rc = killer__solve_lcg(pz, &o, res);
    res->stats.nodes += first.nodes;
    res->stats.backtracks += first.backtracks;
    res->stats.propagations += first.propagations;
    if (first.max_depth > res->stats.max_depth) res->stats.max_depth = first.max_depth;
    return rc;
}

int killer_solve(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res) {
    killer_opts_t def;
    int rc;

    memset(res, 0, sizeof *res);
    res->split_span = 1;
    if (opts == NULL) {
        killer_opts_init(&def);
        opts = &def;
    }
    if (search_allocator_of(opts->alloc, opts->ctl) != opts->alloc) { /* the control block's */
        if (opts != &def) def = *opts;
        def.alloc = opts->ctl->alloc;
        opts = &def;
    }
    if ((int)opts->method < 0 || opts->method >= KILLER_METHOD_COUNT || (int)opts->values < 0 ||
        opts->values >= KILLER_VALUES_COUNT || opts->max_solutions == 0 ||
        opts->max_solutions > KILLER_MAX_SOLUTIONS || !search_allocator_ok(opts->alloc) ||
        opts->split_depth > KILLER_MAX_SPLIT_DEPTH ||
        (opts->split_index >> opts->split_depth) != 0) {
        res->problem.code = 0;
        return res->code = SEARCH_EINVAL;
    }
    rc = killer_validate(pz, &res->problem);
    if (rc != 0) return res->code = rc;
    res->method = killer_method_for(pz->shape.n, opts->method, opts->values);
    rc = search_check_now(opts->ctl, 0);
    if (rc != 0) return res->code = rc;
    if (res->method != KILLER_METHOD_ADVANCED && opts->split_index != 0) {
        res->exhausted = 1; /* these do not split: index 0 has it all */
    } else if (res->method == KILLER_METHOD_BACKTRACKING) {
        res->split_span = (uint32_t)1 << opts->split_depth;
        rc = killer__solve_bt(pz, opts, res);
    } else if (opts->method == KILLER_METHOD_AUTO && pz->shape.n >= KILLER_AUTO_LEARNING_N &&
               opts->split_depth == 0 && opts->values == KILLER_VALUES_AUTO) {
        rc = solve_auto_big(pz, opts, res);
    } else if (res->method == KILLER_METHOD_LEARNING) {
        res->split_span = (uint32_t)1 << opts->split_depth;
        rc = killer__solve_lcg(pz, opts, res);
    } else {
        rc = killer__solve_adv(pz, opts, res);
    }
    return res->code = rc;
}

/* === Result codes === */

/* The codes of killer.h by name and sentence, for search_code_name() and
 * search_code_str() (the Makefile lists this table with every puzzle's). */
const search_code_t killer_codes[] = {
    SEARCH_CODE(KILLER_ESYMBOLS, "the symbols are not n distinct values in range"),
    SEARCH_CODE(KILLER_EGIVEN_VALUE, "a given is out of range"),
    SEARCH_CODE(KILLER_ECELL_RANGE, "a cage cell is outside the grid"),
    SEARCH_CODE(KILLER_ECELL_DUP, "a cell is in two cages"),
    SEARCH_CODE(KILLER_ECAGE_EMPTY, "a cage has no cells"),
    SEARCH_CODE(KILLER_ECAGE_SIZE, "a cage has more cells than there are symbols"),
    SEARCH_CODE(KILLER_ESUM, "no set of distinct symbols of the cage's size has its sum"),
    SEARCH_CODE(KILLER_ETOTAL, "the cage sums do not add up to the grid's total"),
    SEARCH_CODE(KILLER_EGIVEN_RULE, "two givens repeat a value in a unit"),
    SEARCH_CODE(KILLER_EGIVEN_CAGE, "givens repeat a value in a cage or make its sum unreachable"),
    {0, NULL, NULL}};
