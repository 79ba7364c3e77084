/* generate.h -- new Sudoku puzzles of a chosen difficulty, symmetric when
 * asked, minimal when asked, always with exactly one solution.
 *
 * One call makes one puzzle: it tries candidates ("attempts") until one is
 * graded inside the wanted rating window, or the control block stops it.
 * Everything random comes from rng.h seeded with (seed, stream), so the same
 * options give the same puzzle on every machine and thread (unless the
 * deadline stops it first).  See generate.c for the method.
 *
 * Nothing here does I/O or keeps global state; memory: one logic state and a
 * few n*n arrays, allocated at the start of a call and freed before it
 * returns. */
#ifndef PUZZLED_SUDOKU_GENERATE_H
#define PUZZLED_SUDOKU_GENERATE_H

#include <stdint.h>

#include "solvers/search.h"
#include "solvers/sudoku/logic.h"
#include "solvers/sudoku/model.h"
#include "solvers/sudoku/sudoku.h"

#define SUDOKU_GEN_MAX_N SUDOKU_LOGIC_MAX_N

typedef enum sudoku_symmetry_e {
    SUDOKU_SYM_NONE = 0,
    SUDOKU_SYM_ROT180, /* (r,c) ~ (n-1-r, n-1-c) */
    SUDOKU_SYM_ROT90,  /* (r,c) ~ (c, n-1-r) ~ ... */
    SUDOKU_SYM_MIRROR, /* (r,c) ~ (r, n-1-c): left-right */
    SUDOKU_SYM_DIAG,   /* (r,c) ~ (c, r): the main diagonal */
    SUDOKU_SYM_COUNT
} sudoku_symmetry_t;

/* "none", "rotational180", "rotational90", "mirror", "diagonal"; NULL out of
 * range.  parse: 0 or SEARCH_EINVAL. */
const char *sudoku_symmetry_name(sudoku_symmetry_t s);
int sudoku_symmetry_parse(const char *name, sudoku_symmetry_t *out);

typedef struct sudoku_gen_opts_s {
    sudoku_shape_t shape;
    double rating_min, rating_max; /* accept ratings in [min, max) */
    sudoku_symmetry_t symmetry;
    int minimal;             /* no given (symmetric group) can go and keep one solution */
    uint64_t seed, stream;   /* the random stream: rng_seed(seed, stream) */
    const search_ctl_t *ctl; /* deadline / cancel; NULL = none */
    uint64_t max_attempts;   /* 0 = until ctl stops it */
    int givens_min;          /* the dig never goes below this many givens (0: no floor) */
    int givens_max;          /* a puzzle with more givens is thrown away (0: no ceiling) */
    /* Turns: with turn_end_ns set, a call returns SEARCH_TURN between two
     * attempts once the clock has passed it (after one attempt at least),
     * and leaves in *resume the stream's state there; a call with that
     * state in *resume goes on with the next attempt, so that the puzzles
     * (and attempts) are the same however the work is cut into turns.
     * resume NULL: the stream starts from (seed, stream), as without turns;
     * else it starts from *resume, which the caller seeds once with
     * rng_seed(seed, stream). */
    struct rng_s *resume;
    int64_t turn_end_ns; /* 0: no turns */
} sudoku_gen_opts_t;

/* Defaults: 9x9, any rating, no symmetry, not minimal, seed 0, stream 0,
 * any number of givens.
 *
 * The givens range [givens_min, givens_max]: the dig keeps a symmetry orbit
 * whose removal would leave fewer than givens_min givens (so easy puzzles
 * for beginners keep 36 givens, say, instead of the 22-28 a full dig
 * leaves); a puzzle the dig leaves with more than givens_max is thrown
 * away like one graded outside the window.  With `minimal`, a puzzle in
 * which an orbit could still go but for the floor is not minimal and is
 * thrown away too (a minimal puzzle is never padded).  res->minimal is 1
 * only when no orbit was kept for the floor untested. */
void sudoku_gen_opts_init(sudoku_gen_opts_t *o);

/* Sets the rating window to a level's band. */
void sudoku_gen_opts_level(sudoku_gen_opts_t *o, sudoku_grade_level_t level);

/* What no seed and no deadline can change: why generation with o cannot
 * succeed, checked in microseconds before any attempt, so that a request
 * for it is refused at once instead of running to its deadline.
 *   SUDOKU_GEN_REACHABLE   nothing known against it (it may still be rare);
 *   SUDOKU_GEN_FEW_GIVENS  o->givens_max is under sudoku_gen_min_givens();
 *   SUDOKU_GEN_RATING_GAP  the window misses every rating the scale gives
 *                          (sudoku_grade_rating_possible);
 *   SUDOKU_GEN_SIZE_CAP    the window starts at or above
 *                          sudoku_gen_max_rating() of the shape. */
typedef enum sudoku_gen_reach_e {
    SUDOKU_GEN_REACHABLE = 0,
    SUDOKU_GEN_FEW_GIVENS,
    SUDOKU_GEN_RATING_GAP,
    SUDOKU_GEN_SIZE_CAP
} sudoku_gen_reach_t;

sudoku_gen_reach_t sudoku_gen_reachable(const sudoku_gen_opts_t *o);

/* The fewest givens a classic n x n puzzle with one solution has, as far
 * as it is proved: 17 for 9x9 (McGuire, Tugemann and Civario, 2012), 4 for
 * 4x4 (every 4x4 puzzle: tests/test_generate.c), n - 1 for any n (with two
 * symbols absent from the givens, swapping them in a solution gives
 * another). */
int sudoku_gen_min_givens(int n);

/* Above every rating a classic puzzle of the shape can get, where that is
 * proved: 4x4 with 2x2 boxes, SUDOKU_GEN_RATING_4X4 (all of them easy:
 * tests/test_generate.c grades every one); 1e9 (no cap known) otherwise. */
#define SUDOKU_GEN_RATING_4X4 1.25
double sudoku_gen_max_rating(const sudoku_shape_t *shape);

typedef struct sudoku_gen_result_s {
    int code;
    uint64_t attempts;    /* candidate puzzles built (graded or not) */
    sudoku_grade_t grade; /* of the puzzle returned */
    int givens;
    int minimal; /* 1 when checked minimal (opts.minimal), else -1 (unknown) */
} sudoku_gen_result_t;

/* Generates one puzzle into puzzle[n*n] and its solution into solution[n*n]
 * (both caller buffers).  Returns (and stores in res->code):
 *   0                 found; res says how and how hard (the grade is the
 *                     logic engine's, with assume_unique: the solver checked
 *                     the puzzle unique first)
 *   SEARCH_TIMEOUT / SEARCH_CANCELLED  stopped by ctl; nothing returned
 *   SEARCH_TURN       the turn is over (turn_end_ns): *resume says where
 *                     the next call goes on
 *   SEARCH_BUDGET     max_attempts reached without a puzzle in the window
 *   SEARCH_EINVAL     bad shape (n > SUDOKU_GEN_MAX_N), symmetry, window
 *   SEARCH_ENOMEM     out of memory
 * Thread-safety: reentrant. */
int sudoku_generate(const sudoku_gen_opts_t *o, uint8_t *puzzle, uint8_t *solution,
                    sudoku_gen_result_t *res);

/* === Variants ===========================================================
 *
 * The same generation for a model of sudoku/model.h: any spec the model
 * compiles (X, windoku, disjoint, extra units, pairs, a layout of
 * overlapping grids...), plus what the generator draws itself:
 *   random_regions  a jigsaw of one n x n grid: new random connected
 *                   regions each attempt (the boxes, then random swaps of
 *                   two neighbouring cells of different regions that keep
 *                   both connected); an attempt whose regions admit no
 *                   solution moves on to new ones;
 *   parity          even-odd: every cell of the solution says whether its
 *                   digit is even or odd, and the dig knows it;
 *   consecutive     the marks of the solution's neighbours that differ by 1,
 *                   with janko's rule that the unmarked ones do not.
 * Per attempt: the model, a random solved grid of it (depth-first, fewest
 * candidates first, random values, restarted past a node budget), the dig
 * and test of sudoku_generate(), the solver's uniqueness check on the model
 * (sudoku_model_solve, auto), the logic engine's grade on the model.
 * Symmetry: orbits of the frame's live cells (an image on a hole is left
 * out); rotational90 and diagonal need a square frame. */
typedef struct sudoku_vgen_opts_s {
    sudoku_gen_opts_t gen; /* window, symmetry, minimal, seed, stream, ctl, max_attempts
                              (gen.shape is not read) */
    sudoku_spec_t spec;    /* the variant; its arrays are the caller's, read only */
    int random_regions;    /* jigsaw: the spec's regions are drawn (spec.regions ignored;
                              one grid) */
    int parity;            /* even-odd: every cell gets its digit's parity */
    int consecutive;       /* consecutive (janko's rule): every pair of neighbours that
                              differ by 1 is marked, the others are non-consecutive
                              (spec.pairs and spec.nonconsecutive ignored) */
} sudoku_vgen_opts_t;

/* Defaults: a 9x9 classic spec and sudoku_gen_opts_init()'s window. */
void sudoku_vgen_opts_init(sudoku_vgen_opts_t *o);

typedef struct sudoku_vgen_out_s {
    uint8_t *puzzle;      /* frame cells (caller's) */
    uint8_t *solution;    /* frame cells (caller's) */
    int *regions;         /* NULL, or frame cells: the drawn regions (-1 when not drawn) */
    uint8_t *parity;      /* NULL, or frame cells: the parity marks (0 when not asked) */
    sudoku_pair_t *pairs; /* NULL, or 2 * frame cells: the consecutive marks */
    int npairs;           /* how many marks were written */
} sudoku_vgen_out_t;

/* Generates one puzzle of the variant into out.  The spec with the drawn
 * regions and parity is the puzzle's model.  Returns as sudoku_generate();
 * SEARCH_EINVAL also for a spec that does not compile (or random_regions on
 * a frame that is not one n x n grid, or line rules: nothing here draws or
 * grades them), and the spec's own code
 * (SUDOKU_EREGION, ...) when it does not. */
int sudoku_generate_variant(const sudoku_vgen_opts_t *o, sudoku_vgen_out_t *out,
                            sudoku_gen_result_t *res);

/* sudoku_count2() for a model: its solutions up to 2 into *nsol (givens
 * that break a rule: 0), written to sols (2 ncells bytes), by
 * sudoku_model_solve() (auto; a classic model: the fast 9x9 engine).
 * Returns 0, or a SEARCH_* code when stopped (*nsol: what was found). */
int sudoku_model_count2(const sudoku_model_t *m, const uint8_t *puzzle, const search_ctl_t *ctl,
                        uint8_t *sols, int *nsol);

/* 1 if `puzzle` of model m has exactly one solution (written to solution
 * when not NULL), 0 if none or several (givens that break a rule
 * included), or a SEARCH_* code when stopped.  Allocates 2 ncells bytes. */
int sudoku_model_unique(const sudoku_model_t *m, const uint8_t *puzzle, const search_ctl_t *ctl,
                        uint8_t *solution);

/* Fills grid[n*n] with a random solved grid from r (exposed for the killer
 * generator); diagonals != 0 also keeps both main diagonals distinct
 * (Killer-X).  Returns 0, or SEARCH_* from ctl. */
struct rng_s;
int sudoku_random_grid(const sudoku_shape_t *shape, struct rng_s *r, int diagonals,
                       const search_ctl_t *ctl, uint8_t *grid);

/* Counts the solutions of `puzzle` up to 2 into *nsol (clashing givens: 0),
 * writing them to sols (2*n*n bytes).  9x9 with 3x3 boxes uses the fast
 * solver, other shapes sudoku_solve() (16x16 with subsets, from 25x25 by
 * clause learning).  Returns 0, or a SEARCH_* code when stopped (*nsol:
 * what was found by then). */
int sudoku_count2(const sudoku_shape_t *shape, const uint8_t *puzzle, const search_ctl_t *ctl,
                  uint8_t *sols, int *nsol);

/* 1 if `puzzle` has exactly one solution (written to solution when not
 * NULL), 0 if none or several, or a SEARCH_* code when stopped
 * (sudoku_count2; n at most SUDOKU_GEN_MAX_N). */
int sudoku_unique(const sudoku_shape_t *shape, const uint8_t *puzzle, const search_ctl_t *ctl,
                  uint8_t *solution);

#endif
