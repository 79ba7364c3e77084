/* sudoku/logic_internal.h -- what logic.c, fish.c, wings.c, chains.c and
 * trial.c share; not part of the public API.
 *
 * State (struct sudoku_logic_s), all in one block from sudoku_logic_new():
 *
 *   value[c]        0 or the digit placed in cell c
 *   cand[c]         candidates of an empty cell, bit d-1 = digit d; 0 once placed
 *   pos[u][d-1]     where digit d can still go in unit u: bit k = the unit's
 *                   k-th cell (unit_cell[u][k]); 0 once d is placed in u.
 *                   For a row the k-th cell is column k, for a column row k,
 *                   so pos of rows and columns are column and row masks.
 *   placed[u]       digits placed in unit u
 *   unit_cell[u][k] cells of unit u in order (row-major inside a box)
 *   cu[c][3]        row, column, box of cell c (box 0..n-1, not 2n+b)
 *   ci[c][3]        index of c inside its row, column and box
 *   peers           npeers cells for each cell (row, column, box; no repeats)
 *
 * Invariants: cand and pos describe the same candidates; placed digits are
 * gone from every peer's candidates (place() removes them).  Every change
 * goes through sl_place() / sl_elim(), which keep them so.
 *
 * Scratch for the searches follows the struct in the same block: chain
 * search arrays (per candidate node) and a copy of cand[] for trials. */
#ifndef PUZZLED_SUDOKU_LOGIC_INTERNAL_H
#define PUZZLED_SUDOKU_LOGIC_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "solvers/sudoku/logic.h"

#define SL_MAX_N  SUDOKU_LOGIC_MAX_N
#define SL_MAX_NN (SL_MAX_N * SL_MAX_N)
#define SL_BIT(d) ((uint32_t)1 << ((d)-1))

struct sudoku_logic_s {
    int n, nn, br, bc;
    uint32_t all; /* the n digit bits */
    int empty;    /* cells without a value */
    int npeers;
    uint8_t value[SL_MAX_NN];
    uint32_t cand[SL_MAX_NN];
    uint32_t pos[3 * SL_MAX_N][SL_MAX_N];
    uint32_t placed[3 * SL_MAX_N];
    uint16_t unit_cell[3 * SL_MAX_N][SL_MAX_N];
    uint8_t cu[SL_MAX_NN][3];
    uint8_t ci[SL_MAX_NN][3];
    uint16_t *peers; /* nn * npeers */
    /* chain search scratch, one entry per (node, parity), node = c*n + d-1 */
    uint32_t nnodes;
    uint32_t stamp;  /* generation of seen[] */
    uint32_t *seen;  /* 2 * nnodes: stamp when reached */
    int32_t *parent; /* 2 * nnodes: previous state index, -1 at the start */
    int32_t *queue;  /* 2 * nnodes */
    /* trial scratch */
    uint32_t *tcand;            /* nn */
    uint16_t *tq;               /* nn: cells whose value still has to leave their peers */
    uint8_t *tdone;             /* nn: 1 once a cell is decided (queued or placed) */
    struct sudoku_logic_s *sub; /* a second state for trials with techniques, or NULL */
    sudoku_logic_step_t *step;  /* the step record sudoku_logic_grade() fills */
};

/* Unit ids. */
static inline int sl_row(const sudoku_logic_t *st, int c) { return st->cu[c][0]; }
static inline int sl_col(const sudoku_logic_t *st, int c) { return st->n + st->cu[c][1]; }
static inline int sl_box(const sudoku_logic_t *st, int c) { return 2 * st->n + st->cu[c][2]; }
static inline int sl_unit_of(const sudoku_logic_t *st, int c, int kind) {
    return kind * st->n + st->cu[c][kind];
}

/* Whether two distinct cells share a unit. */
static inline int sl_sees(const sudoku_logic_t *st, int a, int b) {
    return a != b && (st->cu[a][0] == st->cu[b][0] || st->cu[a][1] == st->cu[b][1] ||
                      st->cu[a][2] == st->cu[b][2]);
}

/* Without -mpopcnt, __builtin_popcount is a libgcc call; this is inline. */
static inline int sl_popcount(uint32_t x) {
#ifdef __POPCNT__
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
#endif
}
static inline int sl_ctz(uint32_t x) { return __builtin_ctz(x); }

/* Removes digit d from empty cell c (no-op when absent). */
static inline void sl_elim(sudoku_logic_t *st, int c, int d) {
    uint32_t b = SL_BIT(d);
    if (!(st->cand[c] & b)) return;
    st->cand[c] &= ~b;
    for (int k = 0; k < 3; k++)
        st->pos[k * st->n + st->cu[c][k]][d - 1] &= ~((uint32_t)1 << st->ci[c][k]);
}

void sudoku__logic_place(sudoku_logic_t *st, int c, int d);

/* === Step building === */

static inline void sl_step_begin(sudoku_logic_step_t *s, sudoku_tech_t t) {
    s->tech = (uint8_t)t;
    s->trial = 0;
    s->digit = 0;
    s->size = 0;
    s->digits = 0;
    s->unit[0] = s->unit[1] = -1;
    s->nitems = 0;
    s->weight = sudoku_tech_weight(t);
}

static inline void sl_add(sudoku_logic_step_t *s, int kind, int cell, int value) {
    if (s->nitems >= SUDOKU_LOGIC_STEP_ITEMS) return;
    s->items[s->nitems].cell = (uint16_t)cell;
    s->items[s->nitems].value = (uint8_t)value;
    s->items[s->nitems].kind = (uint8_t)kind;
    s->nitems++;
}

/* Adds an elimination if c is empty and has d; returns 1 if it did. */
static inline int sl_add_elim(const sudoku_logic_t *st, sudoku_logic_step_t *s, int c, int d) {
    if (st->value[c] || !(st->cand[c] & SL_BIT(d))) return 0;
    if (s->nitems >= SUDOKU_LOGIC_STEP_ITEMS) return 0;
    sl_add(s, SUDOKU_ITEM_ELIM, c, d);
    return 1;
}

/* Whether the step removes something (an ELIM or PLACE item). */
static inline int sl_step_acts(const sudoku_logic_step_t *s) {
    for (int i = 0; i < s->nitems; i++)
        if (s->items[i].kind <= SUDOKU_ITEM_ELIM) return 1;
    return 0;
}

/* === Techniques (each returns 1 with *step filled, or 0) === */

int sudoku__logic_fish(sudoku_logic_t *st, int size, sudoku_logic_step_t *step);
int sudoku__logic_xy_wing(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_xyz_wing(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_unique_rect(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_colouring(sudoku_logic_t *st, sudoku_logic_step_t *step);
/* The chain searches also add the nodes they expand to *work and stop
 * (returning 0) past `budget` of them. */
int sudoku__logic_x_chain(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                          sudoku_logic_step_t *step);
int sudoku__logic_xy_chain(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                           sudoku_logic_step_t *step);
int sudoku__logic_aic(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                      sudoku_logic_step_t *step);
/* Trial and guess (trial.c): need opts->solution. */
int sudoku__logic_trial(sudoku_logic_t *st, const sudoku_logic_opts_t *opts, uint64_t *work,
                        sudoku_logic_step_t *step);

/* Singles propagation on st->tcand (trial.c).  The caller sets tcand[] for
 * every cell, tdone[c] = 1 for decided cells (one bit in tcand), and queues
 * in tq[0..nq) the decided cells whose value has not yet left their peers.
 * hidden = 0 leaves hidden singles out (naked singles only).  Returns 1
 * when every cell is decided, 0 when stuck, -1 on a contradiction.  *work
 * counts placements. */
int sudoku__logic_propagate(sudoku_logic_t *st, int nq, int hidden, uint64_t *work);

/* The medium-or-easier solve used by depth-1 trials (logic.c): runs the
 * techniques up to hidden-pair on st.  Returns 1 solved, 0 stuck, -1 on a
 * contradiction. */
int sudoku__logic_run_basic(sudoku_logic_t *st, uint64_t *work);

#endif
