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

/* What no seed and no deadline can change, checked in microseconds before
 * any attempt (as sudoku_gen_reachable() for the classic generator):
 *   KILLER_GEN_REACHABLE   nothing known against it (it may still be rare);
 *   KILLER_GEN_RATING_GAP  no proof of 0..KILLER_GEN_NODE_BUDGET nodes rates
 *                          in [rating_min, rating_max): ratings come from
 *                          whole node counts (1.0, 2.0, 2.5, 3.0, 3.25, ...),
 *                          and a longer proof drops the candidate;
 *   KILLER_GEN_SIZE_CAP    the window asks for more nodes than any puzzle of
 *                          the size has been seen to take
 *                          (killer_gen_max_nodes()). */
typedef enum killer_gen_reach_e {
    KILLER_GEN_REACHABLE = 0,
    KILLER_GEN_RATING_GAP,
    KILLER_GEN_SIZE_CAP
} killer_gen_reach_t;

killer_gen_reach_t killer_gen_reachable(const killer_gen_opts_t *o);

/* The most nodes a uniqueness proof of an n x n Killer from this generator
 * takes: 0 for 4x4, by measurement (every one of 2.18 million puzzles, over
 * every cage range and Killer-X, was settled by propagation:
 * docs/generate.md, "Killer: what each size reaches"); the proof's own cap
 * KILLER_GEN_NODE_BUDGET for the others (6x6 Killer-X reaches expert). */
uint64_t killer_gen_max_nodes(int n);

/* Generates into caller buffers of n*n entries each: solution (values
 * 1..n), cells (the cages' cells back to back) and cages (cages[k].cells
 * points into cells).  Returns 0, SEARCH_TIMEOUT / SEARCH_CANCELLED,
 * SEARCH_BUDGET (max_attempts), SEARCH_TURN (turn_end_ns), SEARCH_EINVAL
 * (bad options), SEARCH_ENOMEM.
 * Reentrant. */
int killer_generate(const killer_gen_opts_t *o, uint8_t *solution, killer_cell_t *cells,
                    killer_cage_t *cages, killer_gen_result_t *res);

#endif
