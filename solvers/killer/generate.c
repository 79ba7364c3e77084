/* killer/generate.c -- Killer Sudoku generation.
 *
 * One attempt:
 *   1. a random solved grid (sudoku_random_grid, diagonals kept distinct for
 *      Killer-X);
 *   2. cages grown at random: cells in random order; an uncaged cell starts
 *      a cage with a random target size in [min, max] and the cage takes
 *      random orthogonal neighbours whose values it does not hold yet until
 *      it reaches the target or runs out of such neighbours; cages left
 *      below min merge into a neighbouring cage when the sizes and values
 *      allow, else the attempt is dropped.  Cages are connected and hold
 *      distinct values by construction; sums come from the solution;
 *   3. uniqueness by the advanced killer solver (max 2 solutions, at most
 *      KILLER_GEN_NODE_BUDGET nodes).  With a second solution the layout is
 *      repaired: the cage with the most cells where the two solutions differ
 *      (among those big enough to halve) is split into two connected cages
 *      of at least min cells, and the solver runs again.  Splitting only
 *      adds constraints, and the second solution breaks the split cage's
 *      sums unless both halves keep their totals, so a few repairs usually
 *      end in one solution; when no cage can be split the attempt is
 *      dropped;
 *   4. the grade: the logic engine (sudoku/logic.h) on the Sudoku model of
 *      the layout (each cage a line of kind cage with its total; Killer-X
 *      adds the diagonals) solves it from the empty grid the way a person
 *      would -- cage combinations, the 45 rule, then the Sudoku
 *      techniques, trial last -- and the attempt succeeds when the rating
 *      is in [min, max).  The engine is bounded by the heaviest technique
 *      that can still rate below max (kg_bound): a layout that needs more
 *      stops there and is dropped, so a window below beyond-logic never
 *      pays for trial steps.  The proof's search nodes are kept as a
 *      statistic (they were the rating before issue 39: a Killer settled
 *      by propagation alone was easy however a person would solve it).
 * The solver and the engine count nodes, not time, so the outcome depends
 * only on the options (and the deadline, which can only stop it).
 *
 * killer_gen_reachable() answers, before any attempt, for windows no
 * attempt can meet: a rating window that misses every weight the grade can
 * give (sudoku_grade_rating_possible_cages), and levels above what a size
 * has been seen to take (killer_gen_max_level(): 4x4 tops out at medium;
 * docs/generate.md has the sweep). */
#include "solvers/killer/generate.h"

#include <stdlib.h>
#include <string.h>

#include "solvers/rng.h"
#include "solvers/sudoku/generate.h"

#define KG_MAX_NN  (KILLER_GEN_MAX_N * KILLER_GEN_MAX_N)
#define KG_REPAIRS 64
/* Above this size a grade stops before trial: there a trial step runs the
 * cage techniques for every candidate it tries (minutes on 16x16). */
#define KG_TRIAL_MAX_N 9

void killer_gen_opts_init(killer_gen_opts_t *o) {
    memset(o, 0, sizeof *o);
    sudoku_shape_init(&o->shape, 9, 3, 3);
    o->cage_min = 2;
    o->cage_max = 4;
    o->rating_min = 0.0;
    o->rating_max = 1e9;
}

/* === What can be reached === */

sudoku_grade_level_t killer_gen_max_level(int n) {
    if (n == 4) return SUDOKU_GRADE_MEDIUM;
    return n > KG_TRIAL_MAX_N ? SUDOKU_GRADE_EXTREME : SUDOKU_GRADE_BEYOND;
}

killer_gen_reach_t killer_gen_reachable(const killer_gen_opts_t *o) {
    double lo, hi;
    if (!sudoku_grade_rating_possible_cages(o->rating_min, o->rating_max))
        return KILLER_GEN_RATING_GAP;
    sudoku_grade_level_band(killer_gen_max_level(o->shape.n), &lo, &hi);
    if (o->rating_min >= hi) return KILLER_GEN_SIZE_CAP;
    if (o->shape.n >= 16 && o->cage_min > 1) return KILLER_GEN_NO_SINGLES;
    return KILLER_GEN_REACHABLE;
}

void killer_gen_cages_for_level(int n, sudoku_grade_level_t l, int *min, int *max) {
    *min = l == SUDOKU_GRADE_EASY || n >= 16 ? 1 : 2;
    *max = l == SUDOKU_GRADE_EASY || (l == SUDOKU_GRADE_MEDIUM && n < 16) ? 3 : 4;
    if (*max > n - 1) *max = n - 1;
    if (*min > *max) *min = *max;
}

/* The heaviest technique a grade in the window may use: the last whose
 * weight is below rating_max (a grade rates its hardest step's weight plus
 * less than 0.1 below 10, logic.h); every technique, as /v1/killer/grade
 * grades, when the window reaches past 10 -- but never trial above
 * KG_TRIAL_MAX_N (killer_gen_max_level()).  4x4's cap (medium) is a
 * measurement, not a bound: its grades stay whole, so that the tests see
 * it if a layout ever went past it. */
static sudoku_tech_t kg_bound(int n, double rating_max) {
    sudoku_tech_t b = SUDOKU_TECH_FULL_HOUSE;
    if (n > KG_TRIAL_MAX_N && rating_max > 10.0) rating_max = 10.0;
    if (rating_max > 10.0) return SUDOKU_TECH_GUESS;
    for (int t = 0; t < SUDOKU_TECH_TRIAL; t++)
        if (sudoku_tech_weight((sudoku_tech_t)t) < rating_max) b = (sudoku_tech_t)t;
    return b;
}

typedef struct kg_s {
    const killer_gen_opts_t *o;
    rng_t r;
    int n, nn;
    uint8_t *sol;   /* nn */
    int *cage_of;   /* nn */
    int *order;     /* nn */
    int *size;      /* nn (cages) */
    uint32_t *used; /* nn (cages): values held */
    int ncages;
    uint8_t *sols; /* 2 nn: the solver's solutions */
    /* the grade's model of the layout: a cage line per cage */
    sudoku_line_t *lines; /* nn */
    uint16_t *lcells;     /* nn */
    uint8_t *empty;       /* nn zeros: the grid the grade starts from */
} kg_t;

static int kg_neighbour(const kg_t *g, int c, int k) {
    int n = g->n, r = c / n, col = c % n;
    switch (k) {
    case 0: return r > 0 ? c - n : -1;
    case 1: return r < n - 1 ? c + n : -1;
    case 2: return col > 0 ? c - 1 : -1;
    default: return col < n - 1 ? c + 1 : -1;
    }
}

/* Grows the cages.  Returns 0, or -1 when a small cage cannot be merged. */
static int kg_partition(kg_t *g) {
    const killer_gen_opts_t *o = g->o;
    int nn = g->nn, front[KG_MAX_NN];
    for (int c = 0; c < nn; c++) {
        g->cage_of[c] = -1;
        g->order[c] = c;
    }
    for (int i = nn - 1; i > 0; i--) {
        int j = (int)rng_below(&g->r, (uint32_t)i + 1), t = g->order[i];
        g->order[i] = g->order[j];
        g->order[j] = t;
    }
    /* Seeds and growth both prefer the cells with the fewest free
     * neighbours (ties in the random order): taking corners and nooks first
     * leaves fewer stranded single cells than a purely random order. */
    g->ncages = 0;
    for (;;) {
        int c0 = -1, best = 99, k;
        for (int i = 0; i < nn; i++) {
            int c = g->order[i], f = 0;
            if (g->cage_of[c] >= 0) continue;
            for (int d = 0; d < 4; d++) {
                int x = kg_neighbour(g, c, d);
                f += x >= 0 && g->cage_of[x] < 0;
            }
            if (f < best) {
                best = f;
                c0 = c;
            }
        }
        if (c0 < 0) break;
        k = g->ncages++;
        int target = o->cage_min + (int)rng_below(&g->r, (uint32_t)(o->cage_max - o->cage_min + 1));
        g->cage_of[c0] = k;
        g->size[k] = 1;
        g->used[k] = 1u << (g->sol[c0] - 1);
        while (g->size[k] < target) {
            int nf = 0, fbest = 99;
            for (int c = 0; c < nn; c++) {
                if (g->cage_of[c] != k) continue;
                for (int d = 0; d < 4; d++) {
                    int x = kg_neighbour(g, c, d), dup = 0, f = 0;
                    if (x < 0 || g->cage_of[x] >= 0 || (g->used[k] & (1u << (g->sol[x] - 1))))
                        continue;
                    for (int e = 0; e < 4; e++) {
                        int y = kg_neighbour(g, x, e);
                        f += y >= 0 && g->cage_of[y] < 0;
                    }
                    if (f > fbest) continue;
                    if (f < fbest) {
                        fbest = f;
                        nf = 0;
                    }
                    for (int i = 0; i < nf; i++)
                        if (front[i] == x) dup = 1;
                    if (!dup) front[nf++] = x;
                }
            }
            if (nf == 0) break;
            int x = front[rng_below(&g->r, (uint32_t)nf)];
            g->cage_of[x] = k;
            g->size[k]++;
            g->used[k] |= 1u << (g->sol[x] - 1);
        }
    }
    /* cages under min merge into a neighbour that can take them */
    for (int k = 0; k < g->ncages; k++) {
        if (g->size[k] == 0 || g->size[k] >= o->cage_min) continue;
        int into = -1;
        for (int c = 0; c < nn && into < 0; c++) {
            if (g->cage_of[c] != k) continue;
            for (int d = 0; d < 4 && into < 0; d++) {
                int x = kg_neighbour(g, c, d), m;
                if (x < 0 || (m = g->cage_of[x]) == k) continue;
                if (g->size[m] + g->size[k] <= o->cage_max && !(g->used[m] & g->used[k])) into = m;
            }
        }
        if (into < 0) return -1;
        for (int c = 0; c < nn; c++)
            if (g->cage_of[c] == k) g->cage_of[c] = into;
        g->size[into] += g->size[k];
        g->used[into] |= g->used[k];
        g->size[k] = 0;
        if (g->size[into] < o->cage_min) k = -1; /* look again from the start */
    }
    /* renumber without the emptied cages */
    int map[KG_MAX_NN], m = 0;
    for (int k = 0; k < g->ncages; k++)
        map[k] = g->size[k] > 0 ? m++ : -1;
    for (int c = 0; c < nn; c++)
        g->cage_of[c] = map[g->cage_of[c]];
    for (int k = 0; k < g->ncages; k++)
        if (map[k] >= 0) {
            g->size[map[k]] = g->size[k];
            g->used[map[k]] = g->used[k];
        }
    g->ncages = m;
    return 0;
}

/* Writes the killer structures from cage_of. */
static void kg_build(const kg_t *g, killer_cell_t *cells, killer_cage_t *cages) {
    int at = 0;
    for (int k = 0; k < g->ncages; k++) {
        cages[k].cells = cells + at;
        cages[k].ncells = 0;
        cages[k].sum = 0;
        for (int c = 0; c < g->nn; c++)
            if (g->cage_of[c] == k) {
                cells[at].r = c / g->n;
                cells[at].c = c % g->n;
                cages[k].sum += g->sol[c];
                cages[k].ncells++;
                at++;
            }
    }
}

/* Cells of cage k connected to `from` without passing `banned` cells
 * (mark[] = 1); returns how many. */
static int kg_reach(const kg_t *g, int k, int from, const uint8_t *mark, uint8_t *seen) {
    int q[KG_MAX_NN], h = 0, t = 0;
    memset(seen, 0, (size_t)g->nn);
    seen[from] = 1;
    q[t++] = from;
    while (h < t) {
        int c = q[h++];
        for (int d = 0; d < 4; d++) {
            int x = kg_neighbour(g, c, d);
            if (x < 0 || seen[x] || g->cage_of[x] != k || mark[x]) continue;
            seen[x] = 1;
            q[t++] = x;
        }
    }
    return t;
}

/* Splits a cage where the two solutions differ.  Returns 0 or -1. */
static int kg_repair(kg_t *g, const uint8_t *other) {
    int nn = g->nn, best = -1, best_diff = 0, min = g->o->cage_min;
    int diff[KG_MAX_NN];
    memset(diff, 0, (size_t)g->ncages * sizeof diff[0]);
    for (int c = 0; c < nn; c++)
        if (other[c] != g->sol[c]) diff[g->cage_of[c]]++;
    for (int k = 0; k < g->ncages; k++)
        if (diff[k] > best_diff && g->size[k] >= 2 * min && g->size[k] >= 2) {
            best = k;
            best_diff = diff[k];
        }
    if (best < 0) return -1;
    /* part A: breadth-first from a cell of the cage, half its size; part B
     * (the rest) must stay connected; try each start cell */
    uint8_t inA[KG_MAX_NN], seen[KG_MAX_NN];
    int want = g->size[best] / 2;
    for (int s = 0; s < nn; s++) {
        if (g->cage_of[s] != best) continue;
        int q[KG_MAX_NN], h = 0, t = 0;
        memset(inA, 0, (size_t)nn);
        inA[s] = 1;
        q[t++] = s;
        while (h < t && t < want) {
            int c = q[h++];
            for (int d = 0; d < 4 && t < want; d++) {
                int x = kg_neighbour(g, c, d);
                if (x < 0 || inA[x] || g->cage_of[x] != best) continue;
                inA[x] = 1;
                q[t++] = x;
            }
        }
        if (t != want) continue;
        int rest = -1;
        for (int c = 0; c < nn && rest < 0; c++)
            if (g->cage_of[c] == best && !inA[c]) rest = c;
        if (rest < 0 || kg_reach(g, best, rest, inA, seen) != g->size[best] - want) continue;
        if (want < min || g->size[best] - want < min) continue;
        int k = g->ncages++;
        g->size[k] = want;
        g->used[k] = 0;
        for (int c = 0; c < nn; c++)
            if (inA[c]) {
                g->cage_of[c] = k;
                g->used[k] |= 1u << (g->sol[c] - 1);
            }
        g->size[best] -= want;
        g->used[best] &= ~g->used[k];
        return 0;
    }
    return -1;
}

/* Grades the layout in cages[] (unique, solution g->sol) into res: 1 when
 * the engine, bounded by kg_bound(), solved it (res->rating and the rest
 * set), 0 when it needs more than the bound, < 0 a stop (deadline, cancel)
 * or SEARCH_ENOMEM. */
static int kg_grade(kg_t *g, const killer_cage_t *cages, killer_gen_result_t *res) {
    const killer_gen_opts_t *o = g->o;
    sudoku_spec_t spec;
    sudoku_model_t *m = NULL;
    sudoku_logic_t *st = NULL;
    sudoku_logic_opts_t lo;
    sudoku_grade_t gr;
    uint32_t at = 0;
    int rc;
    for (int k = 0; k < g->ncages; k++) {
        sudoku_line_t *ln = &g->lines[k];
        memset(ln, 0, sizeof *ln);
        ln->kind = SUDOKU_LINE_CAGE;
        ln->value = (int32_t)cages[k].sum;
        ln->first = at;
        ln->len = (uint32_t)cages[k].ncells;
        ln->tag = (uint32_t)k;
        for (int i = 0; i < cages[k].ncells; i++)
            g->lcells[at++] = (uint16_t)(cages[k].cells[i].r * g->n + cages[k].cells[i].c);
    }
    sudoku_spec_init(&spec);
    spec.n = g->n;
    spec.box_rows = o->shape.box_rows;
    spec.box_cols = o->shape.box_cols;
    spec.extras = o->diagonals ? SUDOKU_EXTRA_X : 0;
    spec.nlines = g->ncages;
    spec.lines = g->lines;
    spec.line_cells = g->lcells;
    /* the model and the engine's state through the control block's
     * allocator (the server's charges the work budget) */
    if ((rc = sudoku_model_new(&spec, search_allocator_of(NULL, o->ctl), &m, NULL)) != 0) goto done;
    if ((st = sudoku_logic_new_model_alloc(m, search_allocator_of(NULL, o->ctl))) == NULL) {
        rc = SEARCH_ENOMEM;
        goto done;
    }
    sudoku_logic_opts_init(&lo);
    lo.max_tech = kg_bound(g->n, o->rating_max);
    lo.assume_unique = 1; /* the proof above: as /v1/killer/grade grades */
    lo.solution = g->sol;
    lo.ctl = o->ctl;
    if ((rc = sudoku_logic_load(st, g->empty)) != 0) goto done;
    rc = sudoku_logic_grade(st, &lo, &gr);
    if (rc == SUDOKU_LOGIC_ECONTRA) rc = 0; /* cannot happen on a unique layout: drop it */
    if (rc < 0) goto done;
    rc = gr.solved;
    res->rating = gr.rating;
    res->level = gr.level;
    res->hardest = gr.hardest;
    res->steps = gr.steps;
done:
    sudoku_logic_free(st);
    sudoku_model_free(m);
    if (rc < 0 && rc != SEARCH_ENOMEM && rc != SEARCH_TIMEOUT && rc != SEARCH_CANCELLED)
        rc = 0; /* the model refused the layout (cannot happen): drop it */
    return rc;
}

int killer_generate(const killer_gen_opts_t *o, uint8_t *solution, killer_cell_t *cells,
                    killer_cage_t *cages, killer_gen_result_t *res) {
    kg_t g;
    int rc = 0, n, nn;
    memset(res, 0, sizeof *res);
    if (o == NULL || sudoku_shape_check(&o->shape) != 0 || o->shape.n > KILLER_GEN_MAX_N ||
        o->shape.n < KILLER_MIN_N || o->cage_min < 1 || o->cage_max < o->cage_min ||
        o->cage_max > o->shape.n || !(o->rating_min < o->rating_max)) {
        res->code = SEARCH_EINVAL;
        return SEARCH_EINVAL;
    }
    n = o->shape.n;
    nn = n * n;
    memset(&g, 0, sizeof g);
    g.o = o;
    g.n = n;
    g.nn = nn;
    g.sol = malloc((size_t)nn);
    g.cage_of = malloc((size_t)nn * sizeof *g.cage_of);
    g.order = malloc((size_t)nn * sizeof *g.order);
    g.size = malloc((size_t)nn * sizeof *g.size);
    g.used = malloc((size_t)nn * sizeof *g.used);
    g.sols = malloc(2 * (size_t)nn);
    g.lines = malloc((size_t)nn * sizeof *g.lines);
    g.lcells = malloc((size_t)nn * sizeof *g.lcells);
    g.empty = calloc((size_t)nn, 1);
    if (!g.sol || !g.cage_of || !g.order || !g.size || !g.used || !g.sols || !g.lines ||
        !g.lcells || !g.empty) {
        rc = SEARCH_ENOMEM;
        goto done;
    }
    if (o->resume != NULL)
        g.r = *o->resume;
    else
        rng_seed(&g.r, o->seed, o->stream);
    for (;;) {
        if ((rc = search_check_now(o->ctl, 0)) != 0) break;
        if (o->max_attempts != 0 && res->attempts >= o->max_attempts) {
            rc = SEARCH_BUDGET;
            break;
        }
        if (o->turn_end_ns != 0 && res->attempts > 0 && search_now_ns() >= o->turn_end_ns) {
            if (o->resume != NULL) *o->resume = g.r; /* between two layouts */
            rc = SEARCH_TURN;
            break;
        }
        res->attempts++;
        if ((rc = sudoku_random_grid(&o->shape, &g.r, o->diagonals, o->ctl, g.sol)) != 0) break;
        if (kg_partition(&g) != 0) continue;
        for (int rep = 0; rep < KG_REPAIRS; rep++) {
            killer_puzzle_t pz;
            killer_opts_t ko;
            killer_result_t kr;
            search_ctl_t ctl;
            memset(&ctl, 0, sizeof ctl);
            if (o->ctl != NULL) ctl = *o->ctl; /* deadline, cancel flag, progress */
            ctl.node_budget = KILLER_GEN_NODE_BUDGET;
            kg_build(&g, cells, cages);
            memset(&pz, 0, sizeof pz);
            pz.shape = o->shape;
            pz.cages = cages;
            pz.ncages = g.ncages;
            pz.diagonals = o->diagonals;
            killer_opts_init(&ko);
            ko.method = KILLER_METHOD_ADVANCED;
            ko.max_solutions = 2;
            ko.solutions = g.sols;
            ko.ctl = &ctl;
            rc = killer_solve(&pz, &ko, &kr);
            if (rc == SEARCH_TIMEOUT || rc == SEARCH_CANCELLED || rc == SEARCH_ENOMEM) goto done;
            if (rc != 0) { /* over the node budget, or (cannot happen) invalid: drop it */
                rc = 0;
                break;
            }
            if (killer_result_unique(&kr)) {
                if (memcmp(g.sols, g.sol, (size_t)nn) != 0) break; /* cannot happen */
                res->nodes = kr.stats.nodes;
                if ((rc = kg_grade(&g, cages, res)) < 0) goto done;
                if (rc == 1 && res->rating >= o->rating_min && res->rating < o->rating_max) {
                    rc = 0;
                    memcpy(solution, g.sol, (size_t)nn);
                    res->ncages = g.ncages;
                    goto done;
                }
                rc = 0;
                break;
            }
            if (kr.solutions_found < 2) break; /* cannot happen: sol is a solution */
            const uint8_t *other = memcmp(g.sols, g.sol, (size_t)nn) != 0 ? g.sols : g.sols + nn;
            if (kg_repair(&g, other) != 0) break;
            res->attempts++;
        }
    }
done:
    free(g.sol);
    free(g.cage_of);
    free(g.order);
    free(g.size);
    free(g.used);
    free(g.sols);
    free(g.lines);
    free(g.lcells);
    free(g.empty);
    res->code = rc;
    return rc;
}
