/* nqueens/walk.h -- the row-by-row bitboard walk the N-Queens searches
 * share: one explicit stack, one push and one pop (internal).
 *
 * A walk fills rows top-down, one queen per row, trying each row's squares
 * in ascending column order.  The row being filled holds
 *
 *     avail   the squares still to try
 *     cols    the columns taken above
 *     ld, rd  the down-right and down-left diagonals of the queens above,
 *             projected onto this row (ld moves one column left per row
 *             down... i.e. is shifted left, rd right)
 *
 * and every row above it sits on the stack, so the depth is bounded by the
 * board (n <= NQW_MAX) and nothing recurses.  The caller owns the policy:
 * which squares a row offers (its masks), whether a child is worth
 * entering, and how far below the next row lies (`gap`: rows in between
 * may be fixed and skipped).  The loop always has this shape:
 *
 *     nqw_init(&w, first_row_squares);
 *     for (;;) {
 *         if (w.avail == 0) { if (!nqw_up(&w)) break; continue; }
 *         const uint64_t bit = nqw_take(&w);
 *         const nqw_row_t below = nqw_below(&w, bit, gap);
 *         ... a leaf, or a dead end: continue;
 *         nqw_down(&w, below, mask_of_next_row & ~nqw_attacked(below));
 *     }
 *
 * Header-only and stateless; used by nqueens.c (pre-placement), board.c
 * (first completion, split, enumeration). */
#ifndef PUZZLED_NQUEENS_WALK_H
#define PUZZLED_NQUEENS_WALK_H

#include <stdint.h>

#define NQW_MAX 64 /* rows; one word per row */

/* The attacks on a row. */
typedef struct nqw_row_s {
    uint64_t cols, ld, rd;
} nqw_row_t;

typedef struct nqw_frame_s {
    uint64_t avail;
    nqw_row_t at;
} nqw_frame_t;

typedef struct nqw_s {
    int depth;      /* rows on the stack: the current row's index in the walk */
    uint64_t avail; /* squares of the current row still to try */
    nqw_row_t at;   /* attacks on the current row */
    nqw_frame_t stk[NQW_MAX];
} nqw_t;

/* Starts a walk on its first row, with no queen above. */
static inline void nqw_init(nqw_t *w, uint64_t avail) {
    w->depth = 0;
    w->avail = avail;
    w->at = (nqw_row_t){0, 0, 0};
}

/* Takes the lowest square left in the current row. */
static inline uint64_t nqw_take(nqw_t *w) {
    const uint64_t bit = w->avail & -w->avail;
    w->avail ^= bit;
    return bit;
}

/* The attacks on the row `gap` rows below once a queen stands on `bit`. */
static inline nqw_row_t nqw_below(const nqw_t *w, uint64_t bit, unsigned gap) {
    return (nqw_row_t){w->at.cols | bit, (w->at.ld | bit) << gap, (w->at.rd | bit) >> gap};
}

/* The squares those attacks cover. */
static inline uint64_t nqw_attacked(nqw_row_t a) { return a.cols | a.ld | a.rd; }

/* Pushes the current row and makes the row below (attacks `at`, squares to
 * try `avail`) the current one.  The caller keeps depth < NQW_MAX. */
static inline void nqw_down(nqw_t *w, nqw_row_t at, uint64_t avail) {
    w->stk[w->depth++] = (nqw_frame_t){w->avail, w->at};
    w->at = at;
    w->avail = avail;
}

/* Pops back to the row above; 0 if the walk is back at its first row. */
static inline int nqw_up(nqw_t *w) {
    if (w->depth == 0) return 0;
    const nqw_frame_t *f = &w->stk[--w->depth];
    w->avail = f->avail;
    w->at = f->at;
    return 1;
}

#endif
