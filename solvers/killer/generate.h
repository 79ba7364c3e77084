/* killer/generate.h -- new Killer Sudoku puzzles: cages only (no givens),
 * exactly one solution as the advanced killer solver proves it, a rating
 * from that solver's work.
 *
 * One call makes one puzzle, trying candidates until one is unique and
 * rated inside the window, or the control block stops it.  Randomness from
 * rng.h seeded with (seed, stream): the same options give the same puzzle
 * on every machine and thread.  See generate.c for the method. */
#ifndef PUZZLED_KILLER_GENERATE_H
#define PUZZLED_KILLER_GENERATE_H

#include <stdint.h>

#include "solvers/killer/killer.h"
#include "solvers/search.h"

#define KILLER_GEN_MAX_N 16

/* Search nodes one uniqueness proof may use before the candidate is
 * dropped (deterministic, unlike a clock). */
#define KILLER_GEN_NODE_BUDGET 200000u

typedef struct killer_gen_opts_s {
    sudoku_shape_t shape;          /* n = 4..KILLER_GEN_MAX_N, any box */
    int cage_min, cage_max;        /* 1 <= min <= max <= n */
    int diagonals;                 /* Killer-X */
    double rating_min, rating_max; /* accept [min, max) */
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
    double rating;     /* 1 + log2(1 + nodes of the uniqueness proof) */
    uint64_t nodes;
    int ncages;
} killer_gen_result_t;

/* Rating of a proof's work, and the level bands of sudoku_grade_level_of()
 * apply to it. */
double killer_gen_rating(uint64_t nodes);

/* Generates into caller buffers of n*n entries each: solution (values
 * 1..n), cells (the cages' cells back to back) and cages (cages[k].cells
 * points into cells).  Returns 0, SEARCH_TIMEOUT / SEARCH_CANCELLED,
 * SEARCH_BUDGET (max_attempts), SEARCH_TURN (turn_end_ns), SEARCH_EINVAL
 * (bad options), SEARCH_ENOMEM.
 * Reentrant. */
int killer_generate(const killer_gen_opts_t *o, uint8_t *solution, killer_cell_t *cells,
                    killer_cage_t *cages, killer_gen_result_t *res);

#endif
