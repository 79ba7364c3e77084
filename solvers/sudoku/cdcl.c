/* sudoku/cdcl.c -- the "cdcl" method: Sudoku as exactly-one groups for the
 * clause-learning engine (sudoku/sat.c), then enumeration by exclusion.
 *
 * Encoding (n symbols, value v = 0..n-1 here; the units of the geometry,
 * internal.h)
 * ----------------------------------------------------------------------
 *   variable x(i, v) = i*n + v: cell i holds v        ncells * n of them
 *   groups, exactly one literal true in each:
 *     cell i             x(i, 0..n-1)                  (every live cell)
 *     unit u, value v    x(c, v) for the cells c of u, in unit order: rows,
 *                        columns and boxes on a classic grid (boxes left out
 *                        when they are 1xN or Nx1: a box is then a row or a
 *                        column and its groups would repeat them), and a
 *                        model's units as they come
 *     a unit of fewer than n cells holds v at most once: its groups get one
 *     more literal, a slack variable of their own (true when v is not in
 *     the unit), after the ncells * n cell variables
 *   clauses at the root, part of the problem (never deleted):
 *     holes              not x(i, v) for every v
 *     parity             not x(i, v) for each value the cell may not hold
 *     consecutive mark   x(a, v) -> x(b, v-1) or x(b, v+1), both ways
 *     non-consecutive    not x(a, v) or not x(b, v+1), and the same with a
 *                        and b swapped
 *   givens: x(i, given) fixed true at the root, before any search.
 * The classic grid's groups are the ones this method had before units
 * became data, in the same order, so it searches exactly as it did.
 * Band variables for "locked candidates" (value v of row r confined to one
 * box) were tried and dropped: the same conflicts for 1.5-2x the
 * propagations (docs/big-sudoku-tuning.md).
 *
 * Enumeration.  Alone, each model is recorded and excluded by a clause
 * negating its decisions (they propagate to exactly that model), and the
 * search goes on with everything it learned.  In a portfolio (an exchange
 * in opts, sudoku/exchange.h) each model goes to the exchange's list, and
 * every member excludes every listed solution by a clause over its
 * non-given cells, at its restarts (search_shared()).
 *
 * Memory: one arena from sudoku__alloc(): the group table, the exchange
 * buffers of a portfolio member, then the engine (sudoku__sat_bytes) whose
 * learned-clause arena takes what opts->mem_cap leaves.  Nothing is
 * allocated during the search.
 *
 * Thread-safety: all state is in the arena of one solve; a portfolio's
 * members meet only in the exchange. */
#include "solvers/sudoku/cdcl.h"

#include <string.h>

#include "solvers/sudoku/exchange.h"
#include "solvers/sudoku/sat.h"

#define MIN_ARENA_WORDS ((size_t)1 << 16)
#define MAX_ARENA_WORDS ((size_t)1 << 28)

typedef struct model_s {
    int n;
    const sudoku__geom_t *g;
    int skip_boxes;     /* classic grid with 1xN or Nx1 boxes */
    uint32_t ncellvars; /* ncells * n */
    uint32_t nvars, ngroups, nglits;
} model_t;

static inline uint32_t pos(uint32_t var) { return 2 * var; }
static inline uint32_t neg(uint32_t var) { return 2 * var + 1; }

/* Whether unit u takes part (see skip_boxes). */
static int unit_used(const model_t *m, int u) {
    return !(m->skip_boxes && u >= 2 * m->n && u < 3 * m->n);
}

/* Sizes of the encoding.  A shape solve's geometry is not built yet (it
 * goes into the same arena): its sizes are counted by arithmetic. */
static void model_size(model_t *m, const sudoku__run_t *run) {
    const sudoku__geom_t *g = &run->g;
    uint32_t n = (uint32_t)run->n, slack = 0, lits = 0, groups = 0;
    int u, c, live = 0;
    m->n = run->n;
    m->g = g;
    m->skip_boxes = run->model == NULL && (run->shape->box_rows == 1 || run->shape->box_cols == 1);
    m->ncellvars = (uint32_t)run->ncells * n;
    if (run->model == NULL) {
        uint32_t units = (m->skip_boxes ? 2 : 3) * n;
        m->nvars = m->ncellvars;
        m->ngroups = n * n + units * n;
        m->nglits = n * n * n + units * n * n;
        return;
    }
    for (c = 0; c < run->ncells; c++)
        live += sudoku__live(run, c);
    for (u = 0; u < g->nunits; u++) {
        uint32_t len = (uint32_t)sudoku__unit_len(g, u);
        if (!unit_used(m, u)) continue;
        groups += n;
        lits += n * len;
        if (len < n) {
            slack += n;
            lits += n;
        }
    }
    m->nvars = m->ncellvars + slack;
    m->ngroups = (uint32_t)live + groups;
    m->nglits = (uint32_t)live * n + lits;
}

/* Fills gstart[ngroups + 1] and glits[nglits] (see the file comment). */
static void model_build(const model_t *m, const sudoku__run_t *run, uint32_t *gstart,
                        uint32_t *glits) {
    const sudoku__geom_t *g = m->g;
    uint32_t n = (uint32_t)m->n, grp = 0, k = 0, slack = m->ncellvars, v, j;
    int c, u;
    for (c = 0; c < run->ncells; c++) {
        if (!sudoku__live(run, c)) continue;
        gstart[grp++] = k;
        for (v = 0; v < n; v++)
            glits[k++] = pos((uint32_t)c * n + v);
    }
    for (u = 0; u < g->nunits; u++) {
        const uint16_t *uc = g->ucells + g->ustart[u];
        uint32_t len = (uint32_t)sudoku__unit_len(g, u);
        if (!unit_used(m, u)) continue;
        for (v = 0; v < n; v++) {
            gstart[grp++] = k;
            for (j = 0; j < len; j++)
                glits[k++] = pos(uc[j] * n + v);
            if (len < n) glits[k++] = pos(slack++);
        }
    }
    gstart[grp] = k;
    assert(grp == m->ngroups && k == m->nglits && slack == m->nvars);
}

/* The root clauses of a model: holes, parity, pair rules (see the file
 * comment).  Returns 0, -1 when they leave no solution, or SEARCH_BUDGET. */
static int model_clauses(const model_t *m, const sudoku__run_t *run, sudoku__sat_t *s) {
    const sudoku__geom_t *g = m->g;
    uint32_t n = (uint32_t)m->n, lits[3], v, size;
    int c, rc;
    for (c = 0; c < run->ncells; c++) {
        uint64_t allowed = g->allowed != NULL ? g->allowed[c] : run->full;
        for (v = 0; v < n; v++) {
            if (allowed & ((uint64_t)1 << v)) continue;
            lits[0] = neg((uint32_t)c * n + v);
            if ((rc = sudoku__sat_add(s, lits, 1, 0, 0)) != 0) return rc;
        }
        if (g->astart == NULL) continue;
        for (uint32_t e = g->astart[c]; e < g->astart[c + 1]; e++) {
            uint32_t b = g->adj[e] >> 8;
            for (v = 0; v < n; v++) {
                if ((g->adj[e] & 0xff) == SUDOKU_PAIR_CONSECUTIVE) {
                    /* c = v needs b = v-1 or v+1 (the other way is b's entry) */
                    size = 0;
                    lits[size++] = neg((uint32_t)c * n + v);
                    if (v > 0) lits[size++] = pos(b * n + v - 1);
                    if (v + 1 < n) lits[size++] = pos(b * n + v + 1);
                } else {
                    /* c = v excludes b = v+1 (b = v-1 is b's entry, as b = w, c = w+1) */
                    if (v + 1 >= n) continue;
                    size = 2;
                    lits[0] = neg((uint32_t)c * n + v);
                    lits[1] = neg(b * n + v + 1);
                }
                if ((rc = sudoku__sat_add(s, lits, size, 0, 0)) != 0) return rc;
            }
        }
    }
    return 0;
}

/* The engine's knobs for portfolio member `variant`.  Even members decide
 * along target phases (the longest conflict-free assignment lately seen),
 * which finds solutions where they are hard to find (a 36x36 with several:
 * 3-40 s by seed, against more than 60 without); odd members place a value
 * at every decision, without targets, which refutes best (the uniqueness
 * proofs of the minimal 25x25: 10% fewer conflicts); seeds differ.  Member
 * 0 alone (one thread) is the robust choice.  Measured in
 * docs/big-sudoku-tuning.md. */
static void variant_config(uint32_t variant, sudoku__sat_config_t *cfg) {
    sudoku__sat_config_init(cfg);
    cfg->seed = variant;
    cfg->target = variant % 2 == 0;
    cfg->phase_saving = variant % 2 == 0;
}

static void copy_stats(sudoku__run_t *run, const sudoku__sat_t *s) {
    sudoku_result_t *res = run->res;
    res->stats.nodes = s->stats.decisions;
    res->stats.backtracks = s->stats.conflicts;
    res->stats.propagations = s->stats.propagations;
    res->stats.max_depth = s->stats.max_level;
    res->cdcl.conflicts = s->stats.conflicts;
    res->cdcl.learned = s->stats.learned;
    res->cdcl.restarts = s->stats.restarts;
    res->cdcl.reductions = s->stats.reductions;
    res->cdcl.deleted = s->stats.deleted;
    res->cdcl.imported = s->stats.imported;
}

/* Writes the grid of the model on the engine's trail (0 on holes, whose
 * values are all false). */
static void extract(const model_t *m, const sudoku__sat_t *s, uint8_t *out) {
    uint32_t n = (uint32_t)m->n, i, v;
    for (i = 0; i < m->ncellvars / n; i++) {
        out[i] = 0;
        for (v = 0; v < n; v++)
            if (s->val[pos(i * n + v)] > 0) {
                out[i] = (uint8_t)(v + 1);
                break;
            }
    }
}

/* A portfolio member's view of the exchange (exchange.h).  Its epoch e
 * says that the formula it searches is the puzzle with the exchange's
 * solutions 0..e-1 excluded: the clauses it learns are implied by that, so
 * they are published tagged with e, and a member imports a clause only
 * when its own epoch is at least the tag. */
typedef struct member_s {
    sudoku_exchange_t *x;
    unsigned me, members;
    uint32_t epoch;
    uint64_t tails[SUDOKU_EXCHANGE_MAX_MEMBERS];
    uint32_t *inbuf; /* SUDOKU__XC_SLOTS records */
    uint32_t *lits;  /* n*n: a solution's negation */
} member_t;

/* Excludes solution `grid`: one clause, some non-given cell differs. */
static int exclude(const model_t *m, sudoku__sat_t *s, member_t *mb, const uint8_t *puzzle,
                   const uint8_t *grid) {
    uint32_t n = (uint32_t)m->n, i, k = 0;
    for (i = 0; i < m->ncellvars / n; i++)
        if (puzzle[i] == 0 && grid[i] != 0) mb->lits[k++] = neg(i * n + grid[i] - 1u);
    return sudoku__sat_add(s, mb->lits, k, 0, 0);
}

/* At the root: publishes what the engine learned since the last call,
 * excludes the solutions published since, imports the other members'
 * clauses.  Returns 0, 1 when max solutions are known (nothing is then
 * excluded: the search is over), -1 when no solution is left, or
 * SEARCH_BUDGET. */
static int sync(const model_t *m, sudoku__sat_t *s, member_t *mb, const sudoku__run_t *run) {
    uint32_t count, k, j, got;
    int rc;
    for (k = 0; k < s->xlen; k++)
        s->xbuf[(size_t)k * SUDOKU__SAT_XWORDS + 1] = mb->epoch;
    sudoku__xc_publish(mb->x, mb->me, s->xbuf, s->xlen);
    s->xlen = 0;
    count = sudoku__xc_count(mb->x);
    if (count >= run->max_solutions) return 1;
    while (mb->epoch < count) {
        /* counted as excluded even when excluding it leaves nothing */
        rc = exclude(m, s, mb, run->puzzle, sudoku__xc_solution(mb->x, mb->epoch++));
        run->res->cdcl.blocked++;
        if (rc != 0) return rc;
    }
    for (j = 0; j < mb->members; j++) {
        if (j == mb->me) continue;
        got = sudoku__xc_collect(mb->x, j, &mb->tails[j], mb->inbuf, SUDOKU__XC_SLOTS);
        for (k = 0; k < got; k++) {
            const uint32_t *rec = mb->inbuf + (size_t)k * SUDOKU__XC_WORDS;
            if (rec[1] > mb->epoch) continue; /* learned under exclusions not yet here */
            rc = sudoku__sat_add(s, rec + 2, rec[0] & 0xff, rec[0] >> 8, 1);
            if (rc != 0) return rc;
        }
    }
    return 0;
}

/* The search of a member: each model found goes to the exchange and every
 * member excludes the exchange's solutions as they appear.  The answer is
 * the exchange's first solutions, the same whichever member gives it. */
static int search_shared(sudoku__run_t *run, const model_t *m, sudoku__sat_t *s, member_t *mb,
                         uint8_t *grid) {
    uint32_t have, i, index;
    int rc;
    for (;;) {
        rc = sync(m, s, mb, run);
        if (rc == 1) {
            rc = 0; /* enough solutions */
            break;
        }
        if (rc == -1)
            rc = SUDOKU__SAT_UNSAT;
        else if (rc == 0)
            rc = sudoku__sat_solve(s, run->ctl);
        if (rc == SUDOKU__SAT_YIELD) continue;
        if (rc == SUDOKU__SAT_UNSAT) {
            run->res->exhausted = 1;
            rc = 0;
            break;
        }
        if (rc != SUDOKU__SAT_SAT) break;
        extract(m, s, grid);
        /* what was learned before this model is implied under the old epoch */
        for (i = 0; i < s->xlen; i++)
            s->xbuf[(size_t)i * SUDOKU__SAT_XWORDS + 1] = mb->epoch;
        sudoku__xc_publish(mb->x, mb->me, s->xbuf, s->xlen);
        s->xlen = 0;
        if (sudoku__xc_add_solution(mb->x, grid, &index) < 0) {
            rc = 0; /* the list is full: max_solutions are known */
            break;
        }
        sudoku__sat_root(s);
    }
    /* the answer: the exchange's first solutions: those this member had
     * excluded when it proved there is no other, else those known (at
     * least max_solutions when the search ended by itself) */
    have = run->res->exhausted ? mb->epoch : sudoku__xc_count(mb->x);
    if (have > run->max_solutions) have = run->max_solutions;
    for (i = 0; i < have; i++) {
        uint8_t *slot = sudoku__solution_slot(run);
        if (slot != NULL) memcpy(slot, sudoku__xc_solution(mb->x, i), (size_t)run->ncells);
        run->res->solutions_found++;
    }
    return rc;
}

/* The search of a lone solve: each model is recorded and excluded by a
 * clause negating its decisions. */
static int search_alone(sudoku__run_t *run, const model_t *m, sudoku__sat_t *s) {
    int rc;
    for (;;) {
        rc = sudoku__sat_solve(s, run->ctl);
        if (rc == SUDOKU__SAT_UNSAT) {
            run->res->exhausted = 1;
            return 0;
        }
        if (rc != SUDOKU__SAT_SAT) return rc;
        {
            uint8_t *slot = sudoku__solution_slot(run);
            if (slot != NULL) extract(m, s, slot);
        }
        if (sudoku__solution_done(run)) return 0;
        rc = sudoku__sat_block(s);
        run->res->cdcl.blocked++;
        if (rc == SUDOKU__SAT_UNSAT) {
            run->res->exhausted = 1;
            return 0;
        }
        if (rc != 0) return rc;
    }
}

int sudoku__solve_cdcl(sudoku__run_t *run) {
    const sudoku_opts_t *o = run->opts;
    sudoku__sat_config_t cfg;
    sudoku__sat_t s;
    model_t m;
    member_t mb;
    size_t cap = o->mem_cap ? o->mem_cap : SUDOKU_DEFAULT_MEM_CAP, fixed, words, table, extra,
           bytes = 0;
    uint32_t *gstart, *glits, i;
    char *mem = NULL;
    size_t gbytes;
    int rc = 0, shared = o->exchange != NULL;

    if (shared &&
        (sudoku__xc_members(o->exchange) <= o->variant || sudoku__xc_n(o->exchange) != run->n ||
         run->ncells != run->n * run->n || sudoku__xc_capacity(o->exchange) < o->max_solutions))
        return SEARCH_EINVAL;
    variant_config(o->variant, &cfg);
    if (shared) {
        cfg.yield = 1;
        cfg.export_size = SUDOKU__XC_LITS;
    }
    /* a shape solve's geometry leads the arena, for building the groups */
    gbytes = sudoku__geom_bytes(run);
    model_size(&m, run);
    table =
        gbytes + SUDOKU__ALIGN(((size_t)m.ngroups + 1) * 4) + SUDOKU__ALIGN((size_t)m.nglits * 4);
    extra = shared ? SUDOKU__ALIGN((size_t)SUDOKU__XC_SLOTS * SUDOKU__XC_WORDS * 4) +
                         SUDOKU__ALIGN((size_t)run->ncells * 4) + SUDOKU__ALIGN((size_t)run->ncells)
                   : 0;
    fixed = table + extra + sudoku__sat_bytes(m.nvars, m.ngroups, m.nglits, 0);
    /* each arena word costs 4 bytes, plus 8 of watch pool (sat.c); 64 bytes
     * for the alignment of those two arrays */
    words = cap > fixed + 64 ? (cap - fixed - 64) / 12 : 0;
    rc = SEARCH_BUDGET;
    if (words < MIN_ARENA_WORDS) goto done;
    if (words > MAX_ARENA_WORDS) words = MAX_ARENA_WORDS;
    bytes = fixed + sudoku__sat_bytes(m.nvars, m.ngroups, m.nglits, words) -
            sudoku__sat_bytes(m.nvars, m.ngroups, m.nglits, 0);
    rc = SEARCH_ENOMEM;
    mem = sudoku__alloc(run, bytes);
    if (mem == NULL) goto done;
    sudoku__geom_build(run, mem);
    gstart = (uint32_t *)(void *)(mem + gbytes);
    glits = (uint32_t *)(void *)(mem + gbytes + SUDOKU__ALIGN(((size_t)m.ngroups + 1) * 4));
    model_build(&m, run, gstart, glits);
    sudoku__sat_init(&s, mem + table + extra, m.nvars, m.ngroups, gstart, glits, words, &cfg);

    /* a formula the root clauses or the givens make unsatisfiable answers
     * SUDOKU__SAT_UNSAT at the first solve */
    rc = run->model != NULL ? model_clauses(&m, run, &s) : 0;
    if (rc == SEARCH_BUDGET) goto done;
    for (i = 0; i < (uint32_t)run->ncells && rc == 0; i++)
        if (run->puzzle[i] != 0 &&
            sudoku__sat_fix(&s, pos(i * (uint32_t)m.n + run->puzzle[i] - 1)) != 0)
            break;
    rc = 0;
    if (shared) {
        memset(&mb, 0, sizeof mb);
        mb.x = o->exchange;
        mb.me = o->variant;
        mb.members = sudoku__xc_members(o->exchange);
        mb.inbuf = (uint32_t *)(void *)(mem + table);
        mb.lits =
            (uint32_t *)(void *)(mem + table +
                                 SUDOKU__ALIGN((size_t)SUDOKU__XC_SLOTS * SUDOKU__XC_WORDS * 4));
        rc = search_shared(run, &m, &s, &mb,
                           (uint8_t *)(mem + table + extra - SUDOKU__ALIGN((size_t)run->ncells)));
    } else {
        rc = search_alone(run, &m, &s);
    }
    copy_stats(run, &s);
done:
    sudoku__free(run, mem, bytes);
    if (gbytes > 0) memset(&run->g, 0, sizeof run->g); /* it pointed into mem */
    return rc;
}

/* auto from 16x16 up: propagation first, cdcl when it stalls.  Measured
 * (docs/big-sudoku-tuning.md): easy big grids take propagation tens of
 * microseconds and cdcl ten times more (building its model), while the hard
 * ones take propagation millions of nodes and cdcl seconds at most; 256
 * nodes separate the two on every shared 16x16 collection. */
int sudoku__solve_auto_big(sudoku__run_t *run, sudoku_level_t level) {
    const search_ctl_t *user = run->ctl;
    search_ctl_t c1, c2;
    search_stats_t first;
    uint64_t cap = SUDOKU__AUTO_PROP_NODES;
    int user_cap = user != NULL && user->node_budget != 0 && user->node_budget <= cap, rc;
    memset(&c1, 0, sizeof c1);
    if (user != NULL) c1 = *user;
    if (!user_cap) c1.node_budget = cap;
    run->ctl = &c1;
    run->level = level;
    run->res->method = SUDOKU_METHOD_PROPAGATION;
    run->res->level = level;
    rc = sudoku__solve_propagation(run);
    run->ctl = user;
    if (rc != SEARCH_BUDGET || user_cap) return rc;
    /* start over: what propagation found is found again */
    first = run->res->stats;
    memset(&run->res->stats, 0, sizeof run->res->stats);
    run->res->solutions_found = 0;
    run->res->exhausted = 0;
    run->res->method = SUDOKU_METHOD_CDCL;
    run->res->level = SUDOKU_LEVEL_DEFAULT;
    run->level = SUDOKU_LEVEL_DEFAULT;
    if (user != NULL) {
        c2 = *user;
        if (c2.node_budget != 0) c2.node_budget -= first.nodes;
        run->ctl = &c2;
    }
    rc = sudoku__solve_cdcl(run);
    run->ctl = user;
    run->res->stats.nodes += first.nodes;
    run->res->stats.backtracks += first.backtracks;
    run->res->stats.propagations += first.propagations;
    if (first.max_depth > run->res->stats.max_depth) run->res->stats.max_depth = first.max_depth;
    return rc;
}
