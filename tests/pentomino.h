/* pentomino.h -- pentomino tilings as an exact-cover problem (tests, bench). */
#ifndef PUZZLED_TESTS_PENTOMINO_H
#define PUZZLED_TESTS_PENTOMINO_H

#include "solvers/xcover/xcover.h"

/* Items: the 12 pieces, then cell (r, c) at 12 + r*C + c; one option per
 * placement of each distinct orientation of each piece.  With quarter != 0
 * the X piece's centre is kept in the top-left quarter (R and C even), which
 * keeps one board of every 4-element symmetry orbit.  Returns a problem to
 * free with xcover_problem_free, or NULL (out of memory, board too big). */
xcover_problem_t *pentomino_problem(int R, int C, int quarter);

#endif
