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
 *   4. the rating: 1 + log2(1 + nodes) of the proof (piecewise linear
 *      between powers of two, so no libm), accepted in [min, max).
 * The solver counts nodes, not time, so the outcome depends only on the
 * options (and the deadline, which can only stop it).
 *
 * killer_gen_reachable() answers, before any attempt, for windows no
 * attempt can meet: the rating takes only the values of whole node counts
 * up to the budget (a binary search finds the first count at or above
 * rating_min), and a 4x4 Killer is always settled by propagation (a
 * measured cap, killer_gen_max_nodes(); docs/generate.md has the sweep). */
#include "solvers/killer/generate.h"

#include <stdlib.h>
#include <string.h>

#include "solvers/rng.h"
#include "solvers/sudoku/generate.h"

#define KG_MAX_NN  (KILLER_GEN_MAX_N * KILLER_GEN_MAX_N)
#define KG_REPAIRS 64

void killer_gen_opts_init(killer_gen_opts_t *o) {
    memset(o, 0, sizeof *o);
    sudoku_shape_init(&o->shape, 9, 3, 3);
    o->cage_min = 2;
    o->cage_max = 4;
    o->rating_min = 0.0;
    o->rating_max = 1e9;
}

double killer_gen_rating(uint64_t nodes) {
    double x = 1.0 + (double)nodes;
    int e = 0;
    while (x >= 2.0) {
        x /= 2.0;
        e++;
    }
    return 1.0 + e + (x - 1.0);
}

/* === What can be reached === */

uint64_t killer_gen_max_nodes(int n) { return n == 4 ? 0 : KILLER_GEN_NODE_BUDGET; }

/* The fewest nodes whose rating is at least r (killer_gen_rating grows with
 * the nodes), KILLER_GEN_NODE_BUDGET + 1 when none up to the budget is. */
static uint64_t kg_nodes_from(double r) {
    uint64_t lo = 0, hi = (uint64_t)KILLER_GEN_NODE_BUDGET + 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (killer_gen_rating(mid) >= r)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

killer_gen_reach_t killer_gen_reachable(const killer_gen_opts_t *o) {
    uint64_t k = kg_nodes_from(o->rating_min);
    if (k > KILLER_GEN_NODE_BUDGET || !(killer_gen_rating(k) < o->rating_max))
        return KILLER_GEN_RATING_GAP;
    if (k > killer_gen_max_nodes(o->shape.n)) return KILLER_GEN_SIZE_CAP;
    return KILLER_GEN_REACHABLE;
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
    if (!g.sol || !g.cage_of || !g.order || !g.size || !g.used || !g.sols) {
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
                res->rating = killer_gen_rating(kr.stats.nodes);
                if (res->rating >= o->rating_min && res->rating < o->rating_max) {
                    memcpy(solution, g.sol, (size_t)nn);
                    res->ncages = g.ncages;
                    goto done;
                }
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
    res->code = rc;
    return rc;
}
