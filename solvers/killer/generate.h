/* killer/generate.h -- new Killer Sudoku puzzles: cages only (no givens),
 * exactly one solution as the advanced killer solver proves it, a grade by
 * the techniques a person uses (sudoku/logic.h on the Killer's cages).
 *
 * One call makes one puzzle, trying candidates until one is unique and
 * graded inside the window, or the control block stops it.  Randomness from
 * rng.h seeded with (seed, stream): the same options give the same puzzle
 * on every machine and thread.  See generate.c for the method. */
#ifndef PUZZLED_KILLER_GENERATE_H
#define PUZZLED_KILLER_GENERATE_H

#include <stdint.h>

#include "solvers/killer/killer.h"
#include "solvers/search.h"
#include "solvers/sudoku/logic.h"

#define KILLER_GEN_MAX_N 16

/* Search nodes one uniqueness proof may use before the candidate is
 * dropped (deterministic, unlike a clock). */
#define KILLER_GEN_NODE_BUDGET 200000u

typedef struct killer_gen_opts_s {
    sudoku_shape_t shape;          /* n = 4..KILLER_GEN_MAX_N, any box */
    int cage_min, cage_max;        /* 1 <= min <= max <= n */
    int diagonals;                 /* Killer-X */
    double rating_min, rating_max; /* accept a grade's rating in [min, max) */
    uint64_t seed, stream;
    const search_ctl_t *ctl;
    uint64_t max_attempts; /* 0 = until ctl stops */
    /* Turns, as sudoku_gen_opts_t's: past turn_end_ns (0: none), between two
     * layouts and after one at least, SEARCH_TURN with the stream's state
     * in *resume; resume NULL: the stream starts from (seed, stream), else
     * from *resume (seeded once by the caller). */
    struct rng_s *resume;
    int64_t turn_end_ns;
} killer_gen_opts_t;

/* Defaults: 9x9, cages 2..4, no diagonals, any rating. */
void killer_gen_opts_init(killer_gen_opts_t *o);

typedef struct killer_gen_result_s {
    int code;
    uint64_t attempts; /* candidate cage layouts tried (each repair counts) */
    double rating;     /* the grade's (logic.h's scale: 1.6 cage-combination, ...) */
    sudoku_grade_level_t level;
    sudoku_tech_t hardest; /* the heaviest step of the grade */
    uint32_t steps;        /* the grade's steps */
    uint64_t nodes;        /* the uniqueness proof's search nodes */
    int ncages;
} killer_gen_result_t;

/* What no seed and no deadline can change, checked in microseconds before
 * any attempt (as sudoku_gen_reachable() for the classic generator):
 *   KILLER_GEN_REACHABLE   nothing known against it (it may still be rare);
 *   KILLER_GEN_RATING_GAP  no grade of a Killer rates in [rating_min,
 *                          rating_max): a rating is its hardest step's
 *                          weight plus a little
 *                          (sudoku_grade_rating_possible_cages());
 *   KILLER_GEN_SIZE_CAP    the window starts above the hardest level any
 *                          puzzle of the size has been seen to take
 *                          (killer_gen_max_level());
 *   KILLER_GEN_NO_SINGLES  16x16 (and up) without one-cell cages
 *                          (cage_min > 1): the advanced solver proved no
 *                          such layout unique in 60 s a seed, three seeds
 *                          (docs/generate.md; measured, not proved). */
typedef enum killer_gen_reach_e {
    KILLER_GEN_REACHABLE = 0,
    KILLER_GEN_RATING_GAP,
    KILLER_GEN_SIZE_CAP,
    KILLER_GEN_NO_SINGLES
} killer_gen_reach_t;

killer_gen_reach_t killer_gen_reachable(const killer_gen_opts_t *o);

/* The hardest level an n x n Killer from this generator takes: medium for
 * 4x4, by measurement (docs/generate.md, "Killer: what each size
 * reaches"); extreme for 16x16 and up, by cost: a layout there that needs
 * trial can take minutes to grade (every trial runs the cage techniques
 * again), so the grade stops before trial and such a layout is dropped;
 * beyond-logic for 6x6 and 9x9. */
sudoku_grade_level_t killer_gen_max_level(int n);

/* The cage sizes the API and the benchmarks use for a level on n x n when
 * the caller gives none (docs/generate.md has the measurements behind
 * them): easy 1..3 (a one-cell cage is a given: without one a Killer
 * starts with a cage technique and grades medium), medium 2..3, hard to
 * beyond-logic 2..4; never more than n - 1 cells.  16x16 and up: 1..3
 * easy, 1..4 above: without one-cell cages a 16x16 layout is seldom
 * unique, and its repairs (splitting a cage) need cages to split. */
void killer_gen_cages_for_level(int n, sudoku_grade_level_t l, int *min, int *max);

/* Generates into caller buffers of n*n entries each: solution (values
 * 1..n), cells (the cages' cells back to back) and cages (cages[k].cells
 * points into cells).  Returns 0, SEARCH_TIMEOUT / SEARCH_CANCELLED,
 * SEARCH_BUDGET (max_attempts), SEARCH_TURN (turn_end_ns), SEARCH_EINVAL
 * (bad options), SEARCH_ENOMEM.
 * Reentrant. */
int killer_generate(const killer_gen_opts_t *o, uint8_t *solution, killer_cell_t *cells,
                    killer_cage_t *cages, killer_gen_result_t *res);

#endif
