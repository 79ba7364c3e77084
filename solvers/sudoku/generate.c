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
 *      An orbit whose removal would leave fewer than givens_min givens
 *      stays, untested (the floor: beginners' puzzles with 36 givens);
 *   4. minimal (when asked, after a logic dig or a dig the floor cut
 *      short): every orbit still filled is tried once more against
 *      uniqueness alone.  One pass suffices: taking givens away only adds
 *      solutions, so an orbit that could not go then cannot go later.  An
 *      orbit that could go but for the floor makes the puzzle not minimal:
 *      the attempt fails (as one with more than givens_max givens does);
 *   5. the solver checks uniqueness (always, whatever the dig proved), the
 *      engine grades with the solution known (trial steps need it), and the
 *      attempt succeeds when the rating is in [min, max).  When a dig to
 *      minimal overshot a window that stops below trial (extreme: on 16x16
 *      every minimal puzzle the dig made needed trial), the back-off puts
 *      the last-dug givens back, by a binary search over the dig's order,
 *      until the engine bounded by the window's hardest technique fills
 *      the puzzle again, and that puzzle is checked and graded the same
 *      way (gen_backoff).
 * A puzzle outside the window is thrown away, never relabelled.
 *
 * Determinism: every random choice comes from one rng_t seeded with
 * (seed, stream); the solver and the engine are deterministic (the engine's
 * budgets count nodes, not time).  Only the deadline can change an outcome,
 * by stopping it.  Turns (turn_end_ns, resume) cut the attempt loop
 * between attempts only, where the stream's state is the whole story: the
 * same attempts in the same order, however many calls make them.
 *
 * Variants (sudoku_generate_variant, generate.h): the same attempt on a
 * model, with its own random grid (a depth-first fill over the model's
 * units and pair rules: the classic fill above knows rows, columns and
 * boxes only), the jigsaw's regions and the even-odd marks drawn per
 * attempt, uniqueness by sudoku_model_solve() and the grade by the logic
 * engine on the model.  Measured (seed 7, one attempt's time on the dev
 * container, easy .. expert): jigsaw 9x9 0.3-26 ms, X and windoku 0.3-44
 * ms, even-odd 0.3-49 ms, Samurai 20-122 ms, Sumo 0.13-1.1 s. */
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

/* === What can be reached === */

int sudoku_gen_min_givens(int n) { return n == 9 ? 17 : n == 4 ? 4 : n - 1; }

double sudoku_gen_max_rating(const sudoku_shape_t *shape) {
    return shape->n == 4 && shape->box_rows == 2 ? SUDOKU_GEN_RATING_4X4 : 1e9;
}

sudoku_gen_reach_t sudoku_gen_reachable(const sudoku_gen_opts_t *o) {
    if (o->givens_max > 0 && o->givens_max < sudoku_gen_min_givens(o->shape.n))
        return SUDOKU_GEN_FEW_GIVENS;
    if (!sudoku_grade_rating_possible(o->rating_min, o->rating_max)) return SUDOKU_GEN_RATING_GAP;
    if (o->rating_min >= sudoku_gen_max_rating(&o->shape)) return SUDOKU_GEN_SIZE_CAP;
    return SUDOKU_GEN_REACHABLE;
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
        /* 25x25 and up: clause learning, 2.6x faster over a dig to minimal
         * (313 checks of one 25x25 dig: 19.7 s against 51.9 s for
         * propagation with subsets; on 16x16 propagation stays: 18 ms
         * against 351 ms for 128 checks) */
        if (shape->n >= 25)
            o.method = SUDOKU_METHOD_CDCL;
        else if (shape->n >= 16)
            o.level = SUDOKU_LEVEL_SUBSETS;
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

/* Image of cell (r, c) of a rows x cols frame under k steps of sym (rot90
 * and diag need a square frame; the caller checks). */
static int orbit_image(int rows, int cols, sudoku_symmetry_t sym, int cell, int k) {
    int r = cell / cols, c = cell % cols;
    for (int i = 0; i < k; i++) {
        int t;
        switch (sym) {
        case SUDOKU_SYM_ROT180:
            r = rows - 1 - r;
            c = cols - 1 - c;
            break;
        case SUDOKU_SYM_ROT90:
            t = r;
            r = c;
            c = cols - 1 - t;
            break;
        case SUDOKU_SYM_MIRROR: c = cols - 1 - c; break;
        case SUDOKU_SYM_DIAG:
            t = r;
            r = c;
            c = t;
            break;
        default: break;
        }
    }
    return r * cols + c;
}

/* Groups the live cells (live NULL: all) into orbits: cells[start[o] ..
 * start[o+1]); an image that is a hole is left out of its orbit.  seen is
 * rows*cols bytes of scratch.  Returns the number of orbits. */
static int orbits_build(int rows, int cols, const uint8_t *live, sudoku_symmetry_t sym,
                        uint16_t *cells, int *start, uint8_t *seen) {
    int nn = rows * cols, k = 0, norb = 0;
    int steps = sym == SUDOKU_SYM_ROT90 ? 4 : sym == SUDOKU_SYM_NONE ? 1 : 2;
    memset(seen, 0, (size_t)nn);
    for (int c = 0; c < nn; c++) {
        if (seen[c] || (live != NULL && !live[c])) continue;
        start[norb++] = k;
        for (int i = 0; i < steps; i++) {
            int im = orbit_image(rows, cols, sym, c, i);
            if (!seen[im] && (live == NULL || live[im])) {
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
    const sudoku_model_t *m; /* NULL: o->shape's classic grid */
    sudoku_logic_t *st;
    int nn;
    sudoku_tech_t bound; /* logic test bound; FULL_HOUSE.. or -1 for uniqueness */
    int logic;           /* 1: logic test, 0: uniqueness test */
    uint8_t *work;       /* nn scratch */
    int norb;            /* symmetry orbits: cells[start[k] .. start[k + 1]) */
    const int *start;
    const uint16_t *cells;
    int *order; /* norb: the orbits in the order of this attempt's dig */
    int *dug;   /* the orbits the dig took away, in order: dug[0 .. ndug) */
    int ndug;
    int backed;  /* the back-off put givens back: not minimal */
    int left;    /* the givens the dig has left */
    int skipped; /* the dig kept an orbit for o->givens_min without testing it */
    int below;   /* the minimal pass kept an orbit that could go, for o->givens_min */
} gen_t;

/* 1 if puz has exactly one solution (written to solution when not NULL),
 * 0 if not, < 0 stopped. */
static int gen_unique(gen_t *g, const uint8_t *puz, uint8_t *solution) {
    if (g->m == NULL) return sudoku_unique(&g->o->shape, puz, g->o->ctl, solution);
    return sudoku_model_unique(g->m, puz, g->o->ctl, solution);
}

/* Whether the puzzle passes the attempt's test: 1 yes, 0 no, < 0 stopped. */
/* Whether the logic engine, with techniques up to `bound`, fills puz:
 * 1 yes, 0 no, < 0 stopped (ctl: the deadline, the cancel flag). */
static int gen_logic_test(gen_t *g, const uint8_t *puz, sudoku_tech_t bound,
                          const search_ctl_t *ctl) {
    int rc;
    if (bound <= SUDOKU_TECH_NAKED_SINGLE) return sudoku_logic_naked(g->st, puz) == 1;
    if (bound == SUDOKU_TECH_HIDDEN_SINGLE) return sudoku_logic_singles(g->st, puz, NULL) == 1;
    rc = sudoku_logic_load_singles(g->st, puz);
    if (rc != 0) return rc == 1;
    sudoku_logic_opts_t lo;
    sudoku_grade_t gr;
    sudoku_logic_opts_init(&lo);
    lo.max_tech = bound;
    lo.ctl = ctl;
    rc = sudoku_logic_grade(g->st, &lo, &gr);
    if (rc < 0 && rc != SUDOKU_LOGIC_ECONTRA) return rc;
    return rc == 0 && gr.solved;
}

static int gen_test(gen_t *g, const uint8_t *puz) {
    if (!g->logic) return gen_unique(g, puz, NULL);
    return gen_logic_test(g, puz, g->bound, NULL);
}

/* Empties orbit ob of puzzle (refill: puts sol's digits back). */
static void orbit_set(const gen_t *g, int ob, uint8_t *puzzle, const uint8_t *sol) {
    for (int k = g->start[ob]; k < g->start[ob + 1]; k++)
        puzzle[g->cells[k]] = sol != NULL ? sol[g->cells[k]] : 0;
}

static int orbit_size(const gen_t *g, int ob) { return g->start[ob + 1] - g->start[ob]; }

/* The minimal pass: every orbit still filled is tried against uniqueness
 * alone and goes when the puzzle stays unique, unless that would pass the
 * floor (g->below then says the puzzle is not minimal).  0 or < 0. */
static int gen_minimal(gen_t *g, const uint8_t *sol, uint8_t *puzzle) {
    int rc = 0;
    for (int i = 0; i < g->norb && rc == 0; i++) {
        int ob = g->order[i], t;
        if (puzzle[g->cells[g->start[ob]]] == 0) continue;
        orbit_set(g, ob, puzzle, NULL);
        t = gen_unique(g, puzzle, NULL);
        if (t < 0) rc = t;
        if (t == 1 && g->left - orbit_size(g, ob) >= g->o->givens_min) {
            g->left -= orbit_size(g, ob);
            continue;
        }
        g->below |= t == 1;
        orbit_set(g, ob, puzzle, sol);
    }
    return rc;
}

/* One attempt's dig: from the full grid sol, the symmetry orbits in a
 * random order leave puzzle while it still passes gen_test() and keeps
 * o->givens_min givens (half of them at once first); then, with
 * o->minimal, the minimal pass (after a logic dig, or when the floor kept
 * orbits untested).  g->left ends as the givens left.  0, or < 0 when
 * stopped. */
static int gen_dig(gen_t *g, rng_t *r, const uint8_t *sol, uint8_t *puzzle) {
    const sudoku_gen_opts_t *o = g->o;
    const int norb = g->norb;
    int *order = g->order;
    memcpy(puzzle, sol, (size_t)g->nn);
    g->left = g->skipped = g->below = 0;
    for (int c = 0; c < g->nn; c++)
        g->left += sol[c] != 0;
    for (int i = 0; i < norb; i++)
        order[i] = i;
    for (int i = norb - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* Half the orbits go at once (as many of them as the floor allows):
     * with half the givens left a puzzle nearly always passes, and one
     * test instead of norb/2 halves the attempt's cost (a test costs about
     * the same whatever the givens).  If it fails they are tried one by
     * one like the rest. */
    int first = 0, t, rc = 0, full = g->left;
    while (first < norb / 2 && g->left - orbit_size(g, order[first]) >= o->givens_min) {
        g->left -= orbit_size(g, order[first]);
        orbit_set(g, order[first++], puzzle, NULL);
    }
    t = first > 0 ? gen_test(g, puzzle) : 0;
    if (t < 0) return t;
    if (t != 1) {
        memcpy(puzzle, sol, (size_t)g->nn);
        first = 0;
        g->left = full;
    }
    g->ndug = g->backed = 0;
    for (int i = 0; i < first; i++)
        g->dug[g->ndug++] = order[i];
    for (int i = first; i < norb && rc == 0; i++) {
        int ob = order[i];
        if (g->left - orbit_size(g, ob) < o->givens_min) {
            g->skipped = 1; /* kept for the floor, untested */
            continue;
        }
        orbit_set(g, ob, puzzle, NULL);
        t = gen_test(g, puzzle);
        if (t < 0) rc = t;
        if (t == 1) {
            g->left -= orbit_size(g, ob);
            g->dug[g->ndug++] = ob;
        } else {
            orbit_set(g, ob, puzzle, sol);
        }
    }
    if (rc != 0) return rc;
    if (o->minimal && (g->logic || g->skipped)) rc = gen_minimal(g, sol, puzzle);
    return rc;
}

/* The attempt's test from the window (the hardest technique whose weight
 * is below its top: up to x-chain, expert, a logic test, beyond it
 * uniqueness). */
static void gen_bound(gen_t *g, const sudoku_gen_opts_t *o) {
    g->bound = SUDOKU_TECH_FULL_HOUSE;
    for (int t = 0; t < SUDOKU_TECH_TRIAL; t++)
        if (t != SUDOKU_TECH_UNIQUE_RECTANGLE && t != SUDOKU_TECH_CONSECUTIVE &&
            sudoku_tech_weight((sudoku_tech_t)t) < o->rating_max)
            g->bound = (sudoku_tech_t)t;
    g->logic = g->bound <= SUDOKU_TECH_X_CHAIN;
}

/* After the dig: the solver's word (whatever the dig proved), then the
 * grade, with the solution known.  Returns 1 when the puzzle is in the
 * window (res->grade filled), 0 when the attempt goes on, < 0 stopped or
 * failed.  check is nn bytes of scratch. */
static int gen_finish(gen_t *g, const uint8_t *puzzle, const uint8_t *sol, uint8_t *check,
                      sudoku_gen_result_t *res) {
    const sudoku_gen_opts_t *o = g->o;
    sudoku_logic_opts_t lo;
    int rc;
    memset(&res->grade, 0, sizeof res->grade); /* rating 0 until graded (gen_settle reads it) */
    if (o->givens_max > 0 && g->left > o->givens_max) return 0; /* the dig stopped above it */
    if (o->minimal && g->below) return 0; /* not minimal but for the floor: never padded */
    rc = gen_unique(g, puzzle, check);
    if (rc < 0) return rc;
    if (rc != 1 || memcmp(check, sol, (size_t)g->nn) != 0)
        return 0; /* cannot happen; never return such a puzzle */
    sudoku_logic_opts_init(&lo);
    lo.assume_unique = 1;
    lo.solution = sol;
    lo.ctl = o->ctl;
    if ((rc = sudoku_logic_load(g->st, puzzle)) != 0) return rc;
    rc = sudoku_logic_grade(g->st, &lo, &res->grade);
    if (rc < 0 && rc != SUDOKU_LOGIC_ECONTRA) return rc;
    if (!res->grade.solved) return 0;
    if (!(res->grade.rating >= o->rating_min && res->grade.rating < o->rating_max)) return 0;
    res->givens = g->left;
    if (o->minimal)
        res->minimal = 1; /* the minimal pass (or an untouched uniqueness dig) proved it */
    else
        res->minimal = !g->logic && !g->skipped && !g->backed ? 1 : -1;
    return 1;
}

/* The back-off, for a window that stops below trial (extreme, or a
 * rating.max under 10) but digs by uniqueness: when the dig to minimal
 * overshot (the grade needed trial), the givens go back in the reverse of
 * the dig's order until the logic engine, bounded by the window's hardest
 * technique, fills the puzzle again.  A binary search over the dig's
 * prefixes: the first k dug orbits taken away from the full grid, k = 0
 * filled (no search needed), k = ndug not; it ends on a k that fills and a
 * k + 1 that does not, so the puzzle sits at the top of what the bound
 * allows -- the extreme band, where a dig to minimal jumps past it.  Every
 * prefix is unique (it has more givens than a unique puzzle of the same
 * grid).  puzzle, g->left and g->backed are set; 0 or < 0 stopped. */
static int gen_backoff(gen_t *g, const uint8_t *sol, uint8_t *puzzle) {
    int lo = 0, hi = g->ndug, t;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        memcpy(puzzle, sol, (size_t)g->nn);
        for (int i = 0; i < mid; i++)
            orbit_set(g, g->dug[i], puzzle, NULL);
        t = gen_logic_test(g, puzzle, g->bound, g->o->ctl);
        if (t < 0) return t;
        if (t == 1)
            lo = mid;
        else
            hi = mid;
    }
    memcpy(puzzle, sol, (size_t)g->nn);
    g->left = 0;
    for (int i = 0; i < lo; i++)
        orbit_set(g, g->dug[i], puzzle, NULL);
    for (int c = 0; c < g->nn; c++)
        g->left += puzzle[c] != 0;
    g->backed = 1;
    return 0;
}

/* gen_finish(), and when a dig to minimal overshot a window that stops
 * below trial, gen_finish() of the backed-off puzzle.  As gen_finish(). */
static int gen_settle(gen_t *g, uint8_t *puzzle, const uint8_t *sol, uint8_t *check,
                      sudoku_gen_result_t *res) {
    const sudoku_gen_opts_t *o = g->o;
    int rc = gen_finish(g, puzzle, sol, check, res);
    if (rc != 0 || g->logic || o->minimal || res->grade.rating < o->rating_max || g->ndug < 2)
        return rc;
    if ((rc = gen_backoff(g, sol, puzzle)) != 0) return rc;
    return gen_finish(g, puzzle, sol, check, res);
}

/* Whether another attempt may start: 0 (counted), or the stop code (the
 * deadline or cancel flag, SEARCH_BUDGET past max_attempts, SEARCH_TURN
 * past the turn's end once this call made an attempt). */
static int gen_next(const sudoku_gen_opts_t *o, sudoku_gen_result_t *res) {
    int rc = search_check_now(o->ctl, 0);
    if (rc != 0) return rc;
    if (o->max_attempts != 0 && res->attempts >= o->max_attempts) return SEARCH_BUDGET;
    if (o->turn_end_ns != 0 && res->attempts > 0 && search_now_ns() >= o->turn_end_ns)
        return SEARCH_TURN;
    res->attempts++;
    return 0;
}

/* The attempt loop's stream: from *o->resume when the caller keeps it
 * (turns), else from (seed, stream). */
static void gen_stream_begin(const sudoku_gen_opts_t *o, rng_t *r) {
    if (o->resume != NULL)
        *r = *o->resume;
    else
        rng_seed(r, o->seed, o->stream);
}

/* After the loop: a turn that ended between attempts leaves the stream's
 * state for the next call. */
static void gen_stream_end(const sudoku_gen_opts_t *o, const rng_t *r, int rc) {
    if (rc == SEARCH_TURN && o->resume != NULL) *o->resume = *r;
}

/* The arrays an attempt loop needs, for nn cells. */
typedef struct gen_mem_s {
    int *start, *order, *dug;
    uint16_t *cells;
    uint8_t *sol, *check, *seen;
} gen_mem_t;

static int gen_mem_new(gen_mem_t *a, gen_t *g, int nn) {
    memset(a, 0, sizeof *a);
    a->start = malloc((size_t)(nn + 1) * sizeof *a->start);
    a->order = malloc((size_t)nn * sizeof *a->order);
    a->dug = malloc((size_t)nn * sizeof *a->dug);
    a->cells = malloc((size_t)nn * sizeof *a->cells);
    a->sol = malloc((size_t)nn);
    a->check = malloc((size_t)nn);
    a->seen = malloc((size_t)nn);
    g->work = malloc((size_t)nn);
    g->start = a->start;
    g->cells = a->cells;
    g->order = a->order;
    g->dug = a->dug;
    return a->start && a->order && a->dug && a->cells && a->sol && a->check && a->seen && g->work
               ? 0
               : SEARCH_ENOMEM;
}

static void gen_mem_free(gen_mem_t *a, gen_t *g) {
    free(a->start);
    free(a->order);
    free(a->dug);
    free(a->cells);
    free(a->sol);
    free(a->check);
    free(a->seen);
    free(g->work);
}

int sudoku_generate(const sudoku_gen_opts_t *o, uint8_t *puzzle, uint8_t *solution,
                    sudoku_gen_result_t *res) {
    gen_t g;
    gen_mem_t a;
    rng_t r;
    int n, nn, rc = 0;
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
    g.st = sudoku_logic_new_alloc(&o->shape, search_allocator_of(NULL, o->ctl));
    if (gen_mem_new(&a, &g, nn) != 0 || g.st == NULL) {
        rc = SEARCH_ENOMEM;
        goto done;
    }
    gen_bound(&g, o);
    g.norb = orbits_build(n, n, NULL, o->symmetry, a.cells, a.start, a.seen);
    gen_stream_begin(o, &r);
    while ((rc = gen_next(o, res)) == 0) {
        if ((rc = sudoku_random_grid(&o->shape, &r, 0, o->ctl, a.sol)) != 0) break;
        if ((rc = gen_dig(&g, &r, a.sol, puzzle)) != 0) break;
        rc = gen_settle(&g, puzzle, a.sol, a.check, res);
        if (rc < 0) break;
        if (rc == 1) {
            memcpy(solution, a.sol, (size_t)nn);
            rc = 0;
            break;
        }
    }
    gen_stream_end(o, &r, rc);
done:
    sudoku_logic_free(g.st);
    gen_mem_free(&a, &g);
    res->code = rc;
    return rc;
}

/* === Variants =========================================================== */

int sudoku_model_count2(const sudoku_model_t *m, const uint8_t *puzzle, const search_ctl_t *ctl,
                        uint8_t *sols, int *nsol) {
    sudoku_opts_t o;
    sudoku_result_t r;
    int rc;
    sudoku_opts_init(&o);
    o.max_solutions = 2;
    o.solutions = sols;
    o.ctl = ctl;
    rc = sudoku_model_solve(m, puzzle, &o, &r);
    *nsol = (int)r.solutions_found;
    if (rc == SUDOKU_ECONFLICT) { /* givens that break a rule: no solution */
        *nsol = 0;
        rc = 0;
    }
    return rc;
}

int sudoku_model_unique(const sudoku_model_t *m, const uint8_t *puzzle, const search_ctl_t *ctl,
                        uint8_t *solution) {
    uint8_t *sols = malloc(2 * (size_t)m->ncells);
    int nsol = 0, rc;
    if (sols == NULL) return SEARCH_ENOMEM;
    rc = sudoku_model_count2(m, puzzle, ctl, sols, &nsol);
    if (rc == 0) {
        rc = nsol == 1;
        if (rc == 1 && solution != NULL) memcpy(solution, sols, (size_t)m->ncells);
    }
    free(sols);
    return rc;
}

/* Whether region `id` (count cells, one of them `at`) is orthogonally
 * connected; queue and mark are n*n scratch. */
static int region_connected(const int *reg, int n, int id, int at, int count, uint16_t *queue,
                            uint8_t *mark) {
    int head = 0, tail = 0, seen = 1;
    memset(mark, 0, (size_t)n * (size_t)n);
    mark[at] = 1;
    queue[tail++] = (uint16_t)at;
    while (head < tail) {
        int c = queue[head++], r = c / n, k = c % n;
        int nb[4] = {r > 0 ? c - n : -1, r + 1 < n ? c + n : -1, k > 0 ? c - 1 : -1,
                     k + 1 < n ? c + 1 : -1};
        for (int i = 0; i < 4; i++)
            if (nb[i] >= 0 && !mark[nb[i]] && reg[nb[i]] == id) {
                mark[nb[i]] = 1;
                queue[tail++] = (uint16_t)nb[i];
                seen++;
            }
    }
    return seen == count;
}

/* Whether cell c of the n x n grid has an orthogonal neighbour in region id. */
static int touches(const int *reg, int n, int c, int id) {
    int r = c / n, k = c % n;
    return (r > 0 && reg[c - n] == id) || (r + 1 < n && reg[c + n] == id) ||
           (k > 0 && reg[c - 1] == id) || (k + 1 < n && reg[c + 1] == id);
}

/* Random connected regions of n cells for an n x n grid, into reg: the
 * boxes (rows when n has none), then swaps until 2 n^2 are kept (at most
 * 200 n^2 tries; about one in ten is kept), each kept when both regions
 * stay connected: a random cell a of region A next to a region B, and a
 * random cell b of B next to A, change regions.  (Two neighbours swapped
 * across a straight border never keep both regions connected, so from
 * boxes that move alone goes nowhere: b is any cell of B on A's border.)
 * Sizes never change, so every state is a partition into n regions of n
 * connected cells.  queue and mark: n*n scratch. */
static void random_regions(int n, rng_t *r, int *reg, uint16_t *queue, uint8_t *mark) {
    int br, bc, nn = n * n, kept = 0;
    if (sudoku_default_box(n, &br, &bc) != 0) {
        br = 1;
        bc = n;
    }
    for (int c = 0; c < nn; c++)
        reg[c] = (c / n) / br * (n / bc) + (c % n) / bc;
    for (int t = 0; t < 200 * nn && kept < 2 * nn; t++) {
        int a = (int)rng_below(r, (uint32_t)nn), dir = (int)rng_below(r, 4), x, b = -1, seen = 0;
        int ra = a / n, ca = a % n, ta, tb;
        x = dir == 0   ? (ra > 0 ? a - n : -1)
            : dir == 1 ? (ra + 1 < n ? a + n : -1)
            : dir == 2 ? (ca > 0 ? a - 1 : -1)
                       : (ca + 1 < n ? a + 1 : -1);
        if (x < 0 || reg[a] == reg[x]) continue;
        ta = reg[a];
        tb = reg[x];
        for (int c = 0; c < nn; c++) /* b: uniform over B's cells on A's border */
            if (reg[c] == tb && touches(reg, n, c, ta) && rng_below(r, (uint32_t)++seen) == 0)
                b = c;
        reg[a] = tb;
        reg[b] = ta;
        if (!region_connected(reg, n, ta, b, n, queue, mark) ||
            !region_connected(reg, n, tb, a, n, queue, mark)) {
            reg[a] = ta; /* undo */
            reg[b] = tb;
        } else {
            kept++;
        }
    }
}

/* The digits cell c may take next to the digits placed in grid (used: the
 * units' digits). */
static uint64_t mg_cands(const sudoku_model_t *m, const uint64_t *used, const uint8_t *grid,
                         int c) {
    uint64_t x = 0;
    for (uint32_t j = m->cell_start[c]; j < m->cell_start[c + 1]; j++)
        x |= used[m->cell_units[j]];
    x = m->allowed[c] & ~x;
    if (m->pair_start != NULL)
        for (uint32_t k = m->pair_start[c]; k < m->pair_start[c + 1] && x; k++) {
            int w = grid[m->pair_adj[k] >> 8];
            uint64_t b, near;
            if (w == 0) continue;
            b = (uint64_t)1 << (w - 1);
            near = ((b << 1) | (b >> 1)) & m->full; /* w-1 and w+1 */
            x &= (m->pair_adj[k] & 0xff) == SUDOKU_PAIR_CONSECUTIVE ? near : ~near;
        }
    return x;
}

/* Places digit v in empty cell c. */
static void mg_set(const sudoku_model_t *m, uint64_t *used, uint8_t *grid, int c, int v) {
    for (uint32_t j = m->cell_start[c]; j < m->cell_start[c + 1]; j++)
        used[m->cell_units[j]] |= (uint64_t)1 << (v - 1);
    grid[c] = (uint8_t)v;
}

/* Takes cell c's digit away. */
static void mg_unset(const sudoku_model_t *m, uint64_t *used, uint8_t *grid, int c) {
    for (uint32_t j = m->cell_start[c]; j < m->cell_start[c + 1]; j++)
        used[m->cell_units[j]] &= ~((uint64_t)1 << (grid[c] - 1));
    grid[c] = 0;
}

typedef struct mg_frame_s {
    uint16_t cell;
    uint64_t tried;
} mg_frame_t;

/* The first fill of a random grid: depth-first, the empty cell with the
 * fewest candidates first (the first such in reading order), its values in
 * random order, restarted past a budget of 8 nodes a cell (64 with pair
 * rules); after `tries` restarts SEARCH_BUDGET.  Fast and varied on most
 * models (a Samurai: 20 ms; non-consecutive 9x9: 25 ms), lost on the
 * tightest (a Butterfly with diagonals: 29 s), which fill_seeded() takes. */
static int fill_dfs(const sudoku_model_t *m, rng_t *r, const search_ctl_t *ctl, int tries,
                    uint8_t *grid, uint64_t *used, mg_frame_t *stack) {
    /* pair rules (non-consecutive grids are few) need more room than units */
    uint64_t budget = (uint64_t)m->ncells * (m->npairs > 0 ? 64 : 8), nodes, total = 0;
    for (int t = 0; t < tries; t++) {
        int depth = 0;
        memset(grid, 0, (size_t)m->ncells);
        memset(used, 0, ((size_t)m->nunits + 1) * sizeof *used);
        for (nodes = 0; nodes <= budget;) {
            int best = -1, bestc = 99;
            for (int c = 0; c < m->ncells; c++) {
                int pc;
                if (!m->live[c] || grid[c] != 0) continue;
                pc = __builtin_popcountll(mg_cands(m, used, grid, c));
                if (pc < bestc) {
                    bestc = pc;
                    best = c;
                    if (pc <= 1) break;
                }
            }
            if (best < 0) return 0; /* every cell filled */
            if (bestc > 0) {
                stack[depth].cell = (uint16_t)best;
                stack[depth].tried = 0;
                depth++;
            }
            /* try the next value of the top frame; back up while none is left */
            for (;;) {
                mg_frame_t *f;
                uint64_t avail;
                if (depth == 0) break;
                f = &stack[depth - 1];
                if (grid[f->cell] != 0) mg_unset(m, used, grid, f->cell);
                avail = mg_cands(m, used, grid, f->cell) & ~f->tried;
                if (avail != 0) {
                    uint32_t k = rng_below(r, (uint32_t)__builtin_popcountll(avail));
                    while (k--)
                        avail &= avail - 1;
                    f->tried |= avail & (0 - avail);
                    mg_set(m, used, grid, f->cell, __builtin_ctzll(avail) + 1);
                    nodes++;
                    break;
                }
                depth--;
            }
            if (depth == 0) break; /* no grid from this start (none at all, maybe) */
        }
        total += nodes;
        if (ctl != NULL) {
            int rc = search_check_now(ctl, total);
            if (rc != 0) return rc;
        }
    }
    return SEARCH_BUDGET;
}

/* A random solved grid of model m into grid (frame-sized, 0 on holes):
 * random digits in random cells, each one its cell allows next to those
 * already placed (units, parity, pair rules: mg_cands), one for every 8
 * live cells; then `method` (propagation with hidden singles, or auto)
 * completes the grid under a node budget (decisions for cdcl), and the digits are relabelled at
 * random when the model allows it (no parity, no pair rules: every permutation of a solution is
 * one).  A start it cannot complete (random digits that contradict, or the budget) is drawn again,
 * `tries` times, then SEARCH_BUDGET (a model without a solution, such as a jigsaw partition no
 * Latin square fits, ends there).  The random digits give the variety, the
 * propagation the reach: a depth-first fill with random values, tried
 * first, took 29 s for one Butterfly X on the dev container.  used
 * (SUDOKU_MODEL_MAX_UNITS + 1 words) and seeded (cells) are scratch. */
static int fill_seeded(const sudoku_model_t *m, rng_t *r, const search_ctl_t *ctl, int tries,
                       sudoku_method_t method, uint8_t *grid, uint64_t *used, uint8_t *seeded) {
    int seeds = m->nlive / 8 > m->n ? m->nlive / 8 : m->n, rc;
    int relabel = m->npairs == 0;
    search_ctl_t c;
    memset(&c, 0, sizeof c);
    if (ctl != NULL) c = *ctl;
    c.node_budget = 64 * (uint64_t)m->ncells;
    for (int c0 = 0; c0 < m->ncells && relabel; c0++)
        relabel = !m->live[c0] || m->allowed[c0] == m->full;
    for (int t = 0; t < tries; t++) {
        sudoku_opts_t o;
        sudoku_result_t res;
        memset(seeded, 0, (size_t)m->ncells);
        memset(used, 0, ((size_t)m->nunits + 1) * sizeof *used);
        /* fewer random digits after each pair of failures: a tight model
         * (a Butterfly with its diagonals) has few grids, and random digits
         * rarely agree with one; at 0 the propagation's first grid, and
         * its relabelling, remain */
        int want = t / 2 < 16 ? seeds >> (t / 2) : 0;
        for (int k = 0, placed = 0; placed < want && k < 8 * want; k++) {
            int cell = (int)rng_below(r, (uint32_t)m->ncells);
            uint64_t x;
            if (!m->live[cell] || seeded[cell] != 0) continue;
            x = mg_cands(m, used, seeded, cell);
            if (x == 0) break; /* a dead end: let the search find it out */
            for (uint32_t q = rng_below(r, (uint32_t)__builtin_popcountll(x)); q > 0; q--)
                x &= x - 1;
            mg_set(m, used, seeded, cell, __builtin_ctzll(x) + 1);
            placed++;
        }
        sudoku_opts_init(&o);
        o.method = method;
        o.level = SUDOKU_LEVEL_HIDDEN_SINGLES;
        o.solutions = grid;
        o.ctl = &c;
        rc = sudoku_model_solve(m, seeded, &o, &res);
        if (rc == 0 && res.solutions_found == 1) {
            if (relabel) { /* a random permutation of the digits */
                uint8_t perm[SUDOKU_MAX_N + 1];
                perm[0] = 0; /* holes stay 0 */
                for (int v = 1; v <= m->n; v++)
                    perm[v] = (uint8_t)v;
                for (int v = m->n; v > 1; v--) {
                    int w = 1 + (int)rng_below(r, (uint32_t)v);
                    uint8_t tmp = perm[v];
                    perm[v] = perm[w];
                    perm[w] = tmp;
                }
                for (int k = 0; k < m->ncells; k++)
                    grid[k] = perm[grid[k]];
            }
            return 0;
        }
        if (rc == SEARCH_TIMEOUT || rc == SEARCH_CANCELLED) return rc;
        if (rc != 0 && rc != SEARCH_BUDGET && rc != SUDOKU_ECONFLICT) return rc;
    }
    return SEARCH_BUDGET;
}

/* A random grid: fill_dfs() twice, then fill_seeded() `tries` times with
 * `method` (propagation; auto for random jigsaw regions: a 16x16 partition
 * defeats the propagation's budget, cdcl fills it in a few hundred
 * milliseconds).  stack (a frame a cell) and seeded (cells) are scratch. */
static int model_random_grid(const sudoku_model_t *m, rng_t *r, const search_ctl_t *ctl, int tries,
                             sudoku_method_t method, uint8_t *grid, uint64_t *used,
                             mg_frame_t *stack, uint8_t *seeded) {
    int rc = fill_dfs(m, r, ctl, 2, grid, used, stack);
    return rc == SEARCH_BUDGET ? fill_seeded(m, r, ctl, tries, method, grid, used, seeded) : rc;
}

void sudoku_vgen_opts_init(sudoku_vgen_opts_t *o) {
    memset(o, 0, sizeof *o);
    sudoku_gen_opts_init(&o->gen);
    sudoku_spec_init(&o->spec);
    o->spec.n = 9;
}

/* What an attempt builds: the model (with the attempt's regions and
 * parity) and its logic state; freed by the next attempt or at the end. */
typedef struct vgen_s {
    sudoku_spec_t spec;
    sudoku_model_t *m;
    sudoku_logic_t *st;
    int *regions;
    uint8_t *parity;
    sudoku_pair_t *pairs; /* 2 * cells */
    uint64_t *used;
    uint8_t *seeded;   /* cells: the random digits a fill starts from */
    mg_frame_t *stack; /* cells: the depth-first fill's frames */
    uint16_t *queue;
    uint8_t *mark;
} vgen_t;

static void vgen_drop(vgen_t *v) {
    sudoku_logic_free(v->st);
    sudoku_model_free(v->m);
    v->st = NULL;
    v->m = NULL;
}

/* Builds the model of v->spec and its logic state.  0, or the spec's error
 * (not a variant the generator can fill), or SEARCH_ENOMEM. */
static int vgen_model(vgen_t *v) {
    int rc;
    vgen_drop(v);
    rc = sudoku_model_new(&v->spec, NULL, &v->m, NULL);
    if (rc != 0) return rc;
    v->st = sudoku_logic_new_model(v->m);
    return v->st == NULL ? SEARCH_ENOMEM : 0;
}

/* One attempt of sudoku_generate_variant: 1 found, 0 go on, < 0 stop. */
static int vgen_attempt(const sudoku_vgen_opts_t *vo, vgen_t *v, gen_t *g, gen_mem_t *a, rng_t *r,
                        uint8_t *puzzle, sudoku_gen_result_t *res) {
    const sudoku_gen_opts_t *o = &vo->gen;
    int rc, n = vo->spec.n, nn;
    if (vo->random_regions) {
        random_regions(n, r, v->regions, v->queue, v->mark);
        v->spec.regions = v->regions;
    }
    v->spec.parity = NULL;
    if (vo->consecutive) { /* the fill ignores pair rules; the marks come from it */
        v->spec.npairs = 0;
        v->spec.nonconsecutive = 0;
    }
    if ((rc = vgen_model(v)) != 0) return rc;
    nn = v->m->ncells;
    if (v->used == NULL) { /* for any model (merged regions change the unit count) */
        v->used = malloc(((size_t)SUDOKU_MODEL_MAX_UNITS + 1) * sizeof *v->used);
        v->seeded = malloc((size_t)nn);
        v->stack = malloc((size_t)nn * sizeof *v->stack);
        if (v->used == NULL || v->seeded == NULL || v->stack == NULL) return SEARCH_ENOMEM;
    }
    rc = model_random_grid(v->m, r, o->ctl, vo->random_regions ? 4 : 16,
                           vo->random_regions ? SUDOKU_METHOD_AUTO : SUDOKU_METHOD_PROPAGATION,
                           a->sol, v->used, v->stack, v->seeded);
    if (rc == SEARCH_BUDGET)
        return 0; /* no grid this time (a partition with none, or a
                     start the budget did not finish): a new attempt */
    if (rc != 0) return rc;
    if (vo->parity) { /* every cell says whether its digit is even or odd */
        for (int c = 0; c < nn; c++)
            v->parity[c] = !v->m->live[c]  ? SUDOKU_PARITY_ANY
                           : a->sol[c] % 2 ? SUDOKU_PARITY_ODD
                                           : SUDOKU_PARITY_EVEN;
        v->spec.parity = v->parity;
    }
    if (vo->consecutive) { /* every neighbour pair that differs by 1, marked */
        int np = 0, cols = v->m->cols;
        for (int c = 0; c < nn; c++) {
            int right = c + 1, down = c + cols;
            if (!v->m->live[c]) continue;
            if (c % cols + 1 < cols && v->m->live[right] && abs(a->sol[c] - a->sol[right]) == 1)
                v->pairs[np++] =
                    (sudoku_pair_t){(uint16_t)c, (uint16_t)right, SUDOKU_PAIR_CONSECUTIVE};
            if (down < nn && v->m->live[down] && abs(a->sol[c] - a->sol[down]) == 1)
                v->pairs[np++] =
                    (sudoku_pair_t){(uint16_t)c, (uint16_t)down, SUDOKU_PAIR_CONSECUTIVE};
        }
        v->spec.pairs = v->pairs;
        v->spec.npairs = np;
        v->spec.nonconsecutive = 1;
    }
    if ((vo->parity || vo->consecutive) && (rc = vgen_model(v)) != 0) return rc;
    g->m = v->m;
    g->st = v->st;
    if ((rc = gen_dig(g, r, a->sol, puzzle)) != 0) return rc;
    return gen_settle(g, puzzle, a->sol, a->check, res);
}

int sudoku_generate_variant(const sudoku_vgen_opts_t *vo, sudoku_vgen_out_t *out,
                            sudoku_gen_result_t *res) {
    const sudoku_gen_opts_t *o;
    gen_t g;
    gen_mem_t a;
    vgen_t v;
    rng_t r;
    int rows, cols, nn, rc;
    sudoku_spec_error_t err;
    memset(res, 0, sizeof *res);
    memset(&v, 0, sizeof v);
    memset(&g, 0, sizeof g);
    memset(&a, 0, sizeof a);
    res->minimal = -1;
    rc = SEARCH_EINVAL;
    if (vo == NULL || out == NULL || out->puzzle == NULL || out->solution == NULL) goto early;
    o = &vo->gen;
    if (vo->spec.n > SUDOKU_GEN_MAX_N || vo->spec.nlines != 0 ||
        (unsigned)o->symmetry >= SUDOKU_SYM_COUNT || !(o->rating_min < o->rating_max) ||
        sudoku_spec_frame(&vo->spec, &rows, &cols) != 0 ||
        ((o->symmetry == SUDOKU_SYM_ROT90 || o->symmetry == SUDOKU_SYM_DIAG) && rows != cols) ||
        (vo->random_regions && (rows != vo->spec.n || cols != vo->spec.n)))
        goto early;
    nn = rows * cols;
    v.spec = vo->spec;
    rc = SEARCH_ENOMEM;
    v.regions = malloc((size_t)nn * sizeof *v.regions);
    v.parity = malloc((size_t)nn);
    v.queue = malloc((size_t)nn * sizeof *v.queue);
    v.mark = malloc((size_t)nn);
    v.pairs = malloc(2 * (size_t)nn * sizeof *v.pairs);
    if (!v.regions || !v.parity || !v.queue || !v.mark || !v.pairs || gen_mem_new(&a, &g, nn) != 0)
        goto done;
    /* the spec itself must compile (the regions a jigsaw gets are valid) */
    if (!vo->random_regions) {
        sudoku_model_t *probe = NULL;
        rc = sudoku_model_new(&vo->spec, NULL, &probe, &err);
        sudoku_model_free(probe);
        if (rc != 0) goto done;
    }
    g.o = o;
    g.nn = nn;
    gen_bound(&g, o);
    {
        sudoku_origin_t grids[SUDOKU_MODEL_MAX_GRIDS];
        int ng = sudoku_spec_grids(&vo->spec, grids);
        uint8_t *live = v.mark; /* the grids' cells, for the orbits */
        memset(live, 0, (size_t)nn);
        for (int k = 0; k < ng; k++)
            for (int i = 0; i < vo->spec.n; i++)
                for (int j = 0; j < vo->spec.n; j++)
                    live[(grids[k].row + i) * cols + grids[k].col + j] = 1;
        g.norb = orbits_build(rows, cols, live, o->symmetry, a.cells, a.start, a.seen);
    }
    gen_stream_begin(o, &r);
    while ((rc = gen_next(o, res)) == 0) {
        rc = vgen_attempt(vo, &v, &g, &a, &r, out->puzzle, res);
        if (rc < 0) break;
        if (rc == 1) {
            memcpy(out->solution, a.sol, (size_t)nn);
            if (out->regions != NULL)
                for (int c = 0; c < nn; c++)
                    out->regions[c] = vo->random_regions ? v.regions[c] : -1;
            if (out->parity != NULL) {
                if (vo->parity)
                    memcpy(out->parity, v.parity, (size_t)nn);
                else
                    memset(out->parity, 0, (size_t)nn);
            }
            out->npairs = vo->consecutive ? v.spec.npairs : 0;
            if (out->pairs != NULL && vo->consecutive)
                memcpy(out->pairs, v.pairs, (size_t)v.spec.npairs * sizeof *v.pairs);
            rc = 0;
            break;
        }
    }
    gen_stream_end(o, &r, rc);
done:
    vgen_drop(&v);
    free(v.regions);
    free(v.parity);
    free(v.queue);
    free(v.mark);
    free(v.pairs);
    free(v.used);
    free(v.seeded);
    free(v.stack);
    gen_mem_free(&a, &g);
early:
    res->code = rc;
    return rc;
}
