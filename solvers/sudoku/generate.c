/* sudoku/generate.c -- new puzzles: a random solved grid, givens taken away
 * while the puzzle stays what we want, then the solver's uniqueness check
 * and the logic engine's grade decide.
 *
 * One attempt:
 *   1. a random solved grid (sudoku_random_grid: depth-first search, fewest
 *      candidates first, values in random order, restarted past a node
 *      budget so that a bad start cannot hold an attempt for long);
 *   2. the cells fall into symmetry orbits (1, 2 or 4 cells), shuffled;
 *   3. digging: each orbit in turn is emptied and kept empty if the puzzle
 *      still passes the attempt's test, else refilled.  The test depends on
 *      the hardest level the window allows:
 *        easy            naked and hidden singles still fill the grid;
 *        medium..expert  singles, or else the logic engine bounded by the
 *                        level's hardest technique (no unique rectangle:
 *                        it presumes what is being tested), fills it;
 *        extreme, beyond the solver finds exactly one solution.
 *      A logic test implies uniqueness (every step is a deduction from the
 *      givens) and keeps the puzzle no harder than the level, so the grade
 *      lands in or below the window; digging as far as the test allows
 *      pushes it up to the level.  For extreme and beyond a logic test
 *      would cost a chain search per cell, and those levels are reached
 *      mostly by minimal puzzles anyway, so they dig to minimal and let the
 *      grade pick;
 *   4. minimal (when asked, after a logic dig): every orbit still filled is
 *      tried once more against uniqueness alone.  One pass suffices: taking
 *      givens away only adds solutions, so an orbit that could not go then
 *      cannot go later;
 *   5. the solver checks uniqueness (always, whatever the dig proved), the
 *      engine grades with the solution known (trial steps need it), and the
 *      attempt succeeds when the rating is in [min, max).
 * A puzzle outside the window is thrown away, never relabelled.
 *
 * Determinism: every random choice comes from one rng_t seeded with
 * (seed, stream); the solver and the engine are deterministic (the engine's
 * budgets count nodes, not time).  Only the deadline can change an outcome,
 * by stopping it. */
#include "solvers/sudoku/generate.h"

#include <stdlib.h>
#include <string.h>

#include "solvers/rng.h"
#include "solvers/sudoku/sudoku9.h"

static const char *const sym_names[SUDOKU_SYM_COUNT] = {"none", "rotational180", "rotational90",
                                                        "mirror", "diagonal"};

const char *sudoku_symmetry_name(sudoku_symmetry_t s) {
    return (unsigned)s < SUDOKU_SYM_COUNT ? sym_names[s] : NULL;
}

int sudoku_symmetry_parse(const char *name, sudoku_symmetry_t *out) {
    for (int s = 0; s < SUDOKU_SYM_COUNT; s++)
        if (strcmp(name, sym_names[s]) == 0) {
            *out = (sudoku_symmetry_t)s;
            return 0;
        }
    return SEARCH_EINVAL;
}

void sudoku_gen_opts_init(sudoku_gen_opts_t *o) {
    memset(o, 0, sizeof *o);
    sudoku_shape_init(&o->shape, 9, 3, 3);
    o->rating_min = 0.0;
    o->rating_max = 1e9;
}

void sudoku_gen_opts_level(sudoku_gen_opts_t *o, sudoku_grade_level_t level) {
    sudoku_grade_level_band(level, &o->rating_min, &o->rating_max);
}

/* === Random solved grids === */

int sudoku_random_grid(const sudoku_shape_t *shape, struct rng_s *r, int diagonals,
                       const search_ctl_t *ctl, uint8_t *grid) {
    int n = shape->n, nn = n * n, per_row = n / shape->box_cols;
    uint32_t all = ((uint32_t)1 << n) - 1;
    uint32_t rows[SUDOKU_GEN_MAX_N], cols[SUDOKU_GEN_MAX_N], boxes[SUDOKU_GEN_MAX_N];
    uint16_t fcell[SUDOKU_GEN_MAX_N * SUDOKU_GEN_MAX_N];
    uint32_t ftried[SUDOKU_GEN_MAX_N * SUDOKU_GEN_MAX_N];
    uint8_t box_of[SUDOKU_GEN_MAX_N * SUDOKU_GEN_MAX_N];
    uint32_t diag[2] = {0, 0}; /* main diagonal, anti-diagonal */
    uint64_t budget = (uint64_t)nn * 8, nodes = 0, total = 0;
#define RG_DIAG(c)                                                                                 \
    (diagonals ? (((c) / n == (c) % n ? diag[0] : 0) | ((c) / n + (c) % n == n - 1 ? diag[1] : 0)) \
               : 0)
#define RG_USED(c) (rows[(c) / n] | cols[(c) % n] | boxes[box_of[c]] | RG_DIAG(c))
    for (int c = 0; c < nn; c++)
        box_of[c] = (uint8_t)((c / n) / shape->box_rows * per_row + (c % n) / shape->box_cols);
restart:
    memset(grid, 0, (size_t)nn);
    memset(rows, 0, sizeof rows);
    memset(cols, 0, sizeof cols);
    memset(boxes, 0, sizeof boxes);
    diag[0] = diag[1] = 0;
    nodes = 0;
    for (int depth = 0;;) {
        int best = -1, bestc = 99;
        if (depth == nn) return 0;
        for (int c = 0; c < nn; c++) {
            if (grid[c]) continue;
            int pc = __builtin_popcount(all & ~RG_USED(c));
            if (pc < bestc) {
                bestc = pc;
                best = c;
                if (pc <= 1) break;
            }
        }
        if (bestc > 0) {
            fcell[depth] = (uint16_t)best;
            ftried[depth] = 0;
        } else {
            /* dead end: undo the last choice and try its next value */
            if (depth == 0) return SEARCH_EINVAL; /* cannot happen from an empty grid */
            goto back;
        }
    next_value:;
        {
            int c = fcell[depth], d;
            uint32_t avail = all & ~RG_USED(c) & ~ftried[depth];
            if (avail == 0) goto back;
            uint32_t k = rng_below(r, (uint32_t)__builtin_popcount(avail));
            while (k--)
                avail &= avail - 1;
            d = __builtin_ctz(avail) + 1;
            ftried[depth] |= avail & (0u - avail);
            grid[c] = (uint8_t)d;
            rows[c / n] |= avail & (0u - avail);
            cols[c % n] |= avail & (0u - avail);
            boxes[box_of[c]] |= avail & (0u - avail);
            if (diagonals && c / n == c % n) diag[0] |= avail & (0u - avail);
            if (diagonals && c / n + c % n == n - 1) diag[1] |= avail & (0u - avail);
            depth++;
            if (++nodes > budget) {
                total += nodes;
                if (ctl != NULL) {
                    int rc = search_check_now(ctl, total);
                    if (rc != 0) return rc;
                }
                goto restart;
            }
            continue;
        }
    back:
        if (depth == 0) goto restart;
        depth--;
        {
            int c = fcell[depth];
            uint32_t b = (uint32_t)1 << (grid[c] - 1);
            grid[c] = 0;
            rows[c / n] &= ~b;
            cols[c % n] &= ~b;
            boxes[box_of[c]] &= ~b;
            if (c / n == c % n) diag[0] &= ~b;
            if (c / n + c % n == n - 1) diag[1] &= ~b;
        }
        goto next_value;
    }
#undef RG_DIAG
#undef RG_USED
}

/* === Uniqueness === */

int sudoku_count2(const sudoku_shape_t *shape, const uint8_t *puzzle, const search_ctl_t *ctl,
                  uint8_t *sols, int *nsol) {
    int rc;
    if (shape->n == 9 && shape->box_rows == 3) {
        sudoku9_result_t r;
        rc = sudoku9_solve(puzzle, 2, sols, ctl, &r);
        *nsol = (int)r.solutions_found;
    } else {
        sudoku_opts_t o;
        sudoku_result_t r;
        sudoku_opts_init(&o);
        o.max_solutions = 2;
        o.solutions = sols;
        o.ctl = ctl;
        if (shape->n >= 16) o.level = SUDOKU_LEVEL_SUBSETS;
        rc = sudoku_solve(shape, puzzle, &o, &r);
        *nsol = (int)r.solutions_found;
    }
    if (rc == SUDOKU_ECONFLICT) { /* two givens clash: no solution */
        *nsol = 0;
        rc = 0;
    }
    return rc;
}

int sudoku_unique(const sudoku_shape_t *shape, const uint8_t *puzzle, const search_ctl_t *ctl,
                  uint8_t *solution) {
    uint8_t sols[2 * SUDOKU_GEN_MAX_N * SUDOKU_GEN_MAX_N];
    int nsol, rc;
    if (shape->n > SUDOKU_GEN_MAX_N) return SEARCH_EINVAL;
    rc = sudoku_count2(shape, puzzle, ctl, sols, &nsol);
    if (rc != 0) return rc;
    if (nsol != 1) return 0;
    if (solution != NULL) memcpy(solution, sols, (size_t)shape->n * (size_t)shape->n);
    return 1;
}

/* === Orbits === */

static int orbit_image(int n, sudoku_symmetry_t sym, int cell, int k) {
    int r = cell / n, c = cell % n;
    for (int i = 0; i < k; i++) {
        int t;
        switch (sym) {
        case SUDOKU_SYM_ROT180:
            r = n - 1 - r;
            c = n - 1 - c;
            break;
        case SUDOKU_SYM_ROT90:
            t = r;
            r = c;
            c = n - 1 - t;
            break;
        case SUDOKU_SYM_MIRROR: c = n - 1 - c; break;
        case SUDOKU_SYM_DIAG:
            t = r;
            r = c;
            c = t;
            break;
        default: break;
        }
    }
    return r * n + c;
}

/* Groups the cells into orbits: cells[start[o] .. start[o+1]).  Returns the
 * number of orbits. */
static int orbits_build(int n, sudoku_symmetry_t sym, uint16_t *cells, int *start) {
    int nn = n * n, k = 0, norb = 0;
    uint8_t seen[SUDOKU_GEN_MAX_N * SUDOKU_GEN_MAX_N];
    int steps = sym == SUDOKU_SYM_ROT90 ? 4 : sym == SUDOKU_SYM_NONE ? 1 : 2;
    memset(seen, 0, (size_t)nn);
    for (int c = 0; c < nn; c++) {
        if (seen[c]) continue;
        start[norb++] = k;
        for (int i = 0; i < steps; i++) {
            int im = orbit_image(n, sym, c, i);
            if (!seen[im]) {
                seen[im] = 1;
                cells[k++] = (uint16_t)im;
            }
        }
    }
    start[norb] = k;
    return norb;
}

/* === Digging === */

typedef struct gen_s {
    const sudoku_gen_opts_t *o;
    sudoku_logic_t *st;
    int nn;
    sudoku_tech_t bound; /* logic test bound; FULL_HOUSE.. or -1 for uniqueness */
    int logic;           /* 1: logic test, 0: uniqueness test */
    uint8_t *work;       /* nn scratch */
    int norb;            /* symmetry orbits: cells[start[k] .. start[k + 1]) */
    const int *start;
    const uint16_t *cells;
    int *order; /* norb: the orbits in the order of this attempt's dig */
} gen_t;

/* Whether the puzzle passes the attempt's test: 1 yes, 0 no, < 0 stopped. */
static int gen_test(gen_t *g, const uint8_t *puz) {
    if (!g->logic) return sudoku_unique(&g->o->shape, puz, g->o->ctl, NULL);
    int rc;
    if (g->bound <= SUDOKU_TECH_NAKED_SINGLE) return sudoku_logic_naked(g->st, puz) == 1;
    if (g->bound == SUDOKU_TECH_HIDDEN_SINGLE) return sudoku_logic_singles(g->st, puz, NULL) == 1;
    rc = sudoku_logic_load_singles(g->st, puz);
    if (rc != 0) return rc == 1;
    sudoku_logic_opts_t lo;
    sudoku_grade_t gr;
    sudoku_logic_opts_init(&lo);
    lo.max_tech = g->bound;
    rc = sudoku_logic_grade(g->st, &lo, &gr);
    if (rc < 0 && rc != SUDOKU_LOGIC_ECONTRA) return rc;
    return rc == 0 && gr.solved;
}

/* One attempt's dig: from the full grid sol, the symmetry orbits in a
 * random order leave puzzle while it still passes gen_test() (half of them
 * at once first); then, with o->minimal and a logic test, every orbit whose
 * removal keeps the puzzle unique.  0, or < 0 when stopped. */
static int gen_dig(gen_t *g, rng_t *r, const uint8_t *sol, uint8_t *puzzle) {
    const sudoku_gen_opts_t *o = g->o;
    const int norb = g->norb, *start = g->start;
    const uint16_t *cells = g->cells;
    int *order = g->order;
    memcpy(puzzle, sol, (size_t)g->nn);
    for (int i = 0; i < norb; i++)
        order[i] = i;
    for (int i = norb - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* Half the orbits go at once: with half the givens left a puzzle
     * nearly always passes, and one test instead of norb/2 halves the
     * attempt's cost (a test costs about the same whatever the givens).
     * If it fails they are tried one by one like the rest. */
    int first = norb / 2, t, rc = 0;
    for (int i = 0; i < first; i++)
        for (int k = start[order[i]]; k < start[order[i] + 1]; k++)
            puzzle[cells[k]] = 0;
    t = first > 0 ? gen_test(g, puzzle) : 0;
    if (t < 0) return t;
    if (t != 1) {
        memcpy(puzzle, sol, (size_t)g->nn);
        first = 0;
    }
    for (int i = first; i < norb && rc == 0; i++) {
        int ob = order[i];
        for (int k = start[ob]; k < start[ob + 1]; k++)
            puzzle[cells[k]] = 0;
        t = gen_test(g, puzzle);
        if (t < 0) rc = t;
        if (t != 1)
            for (int k = start[ob]; k < start[ob + 1]; k++)
                puzzle[cells[k]] = sol[cells[k]];
    }
    if (rc != 0) return rc;
    if (o->minimal && g->logic) {
        for (int i = 0; i < norb && rc == 0; i++) {
            int ob = order[i];
            if (puzzle[cells[start[ob]]] == 0) continue;
            for (int k = start[ob]; k < start[ob + 1]; k++)
                puzzle[cells[k]] = 0;
            t = sudoku_unique(&o->shape, puzzle, o->ctl, NULL);
            if (t < 0) rc = t;
            if (t != 1)
                for (int k = start[ob]; k < start[ob + 1]; k++)
                    puzzle[cells[k]] = sol[cells[k]];
        }
    }
    return rc;
}

int sudoku_generate(const sudoku_gen_opts_t *o, uint8_t *puzzle, uint8_t *solution,
                    sudoku_gen_result_t *res) {
    gen_t g;
    rng_t r;
    int n, nn, norb, rc = 0;
    int *start = NULL, *order = NULL;
    uint16_t *cells = NULL;
    uint8_t *sol = NULL, *check = NULL;
    memset(res, 0, sizeof *res);
    res->minimal = -1;
    if (o == NULL || sudoku_shape_check(&o->shape) != 0 || o->shape.n > SUDOKU_GEN_MAX_N ||
        (unsigned)o->symmetry >= SUDOKU_SYM_COUNT || !(o->rating_min < o->rating_max)) {
        res->code = SEARCH_EINVAL;
        return SEARCH_EINVAL;
    }
    n = o->shape.n;
    nn = n * n;
    memset(&g, 0, sizeof g);
    g.o = o;
    g.nn = nn;
    g.st = sudoku_logic_new(&o->shape);
    start = malloc((size_t)(nn + 1) * sizeof *start);
    order = malloc((size_t)nn * sizeof *order);
    cells = malloc((size_t)nn * sizeof *cells);
    sol = malloc((size_t)nn);
    check = malloc((size_t)nn);
    g.work = malloc((size_t)nn);
    if (g.st == NULL || !start || !order || !cells || !sol || !check || !g.work) {
        rc = SEARCH_ENOMEM;
        goto done;
    }
    /* The hardest technique whose weight is below the window's top decides
     * the test: up to x-chain (expert) a logic test, beyond it uniqueness. */
    g.bound = SUDOKU_TECH_FULL_HOUSE;
    for (int t = 0; t < SUDOKU_TECH_TRIAL; t++)
        if (t != SUDOKU_TECH_UNIQUE_RECTANGLE && t != SUDOKU_TECH_CONSECUTIVE &&
            sudoku_tech_weight((sudoku_tech_t)t) < o->rating_max)
            g.bound = (sudoku_tech_t)t;
    g.logic = g.bound <= SUDOKU_TECH_X_CHAIN;
    norb = orbits_build(n, o->symmetry, cells, start);
    g.norb = norb;
    g.start = start;
    g.cells = cells;
    g.order = order;
    rng_seed(&r, o->seed, o->stream);
    for (;;) {
        if ((rc = search_check_now(o->ctl, 0)) != 0) break;
        if (o->max_attempts != 0 && res->attempts >= o->max_attempts) {
            rc = SEARCH_BUDGET;
            break;
        }
        res->attempts++;
        if ((rc = sudoku_random_grid(&o->shape, &r, 0, o->ctl, sol)) != 0) break;
        if ((rc = gen_dig(&g, &r, sol, puzzle)) != 0) break;
        /* the solver's word, whatever the dig proved */
        rc = sudoku_unique(&o->shape, puzzle, o->ctl, check);
        if (rc < 0) break;
        if (rc != 1 || memcmp(check, sol, (size_t)nn) != 0) {
            rc = 0;
            continue; /* cannot happen; never return such a puzzle */
        }
        rc = 0;
        {
            sudoku_logic_opts_t lo;
            sudoku_logic_opts_init(&lo);
            lo.assume_unique = 1;
            lo.solution = sol;
            lo.ctl = o->ctl;
            if ((rc = sudoku_logic_load(g.st, puzzle)) != 0) break;
            rc = sudoku_logic_grade(g.st, &lo, &res->grade);
            if (rc < 0 && rc != SUDOKU_LOGIC_ECONTRA) break;
            rc = 0;
            if (!res->grade.solved) continue;
        }
        if (res->grade.rating >= o->rating_min && res->grade.rating < o->rating_max) {
            memcpy(solution, sol, (size_t)nn);
            res->givens = 0;
            for (int c = 0; c < nn; c++)
                res->givens += puzzle[c] != 0;
            res->minimal = (o->minimal || !g.logic) ? 1 : -1;
            break;
        }
    }
done:
    sudoku_logic_free(g.st);
    free(start);
    free(order);
    free(cells);
    free(sol);
    free(check);
    free(g.work);
    res->code = rc;
    return rc;
}
