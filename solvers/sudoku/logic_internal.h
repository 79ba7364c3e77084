/* sudoku/logic_internal.h -- what logic.c, fish.c, wings.c, chains.c and
 * trial.c share; not part of the public API.
 *
 * State (struct sudoku_logic_s), all in one block from sudoku_logic_new():
 * the geometry of its model (sudoku/model.h), read only, and the puzzle's
 * position, which depth-1 trials copy into a second state (st->sub) that
 * shares the geometry.
 *
 * Geometry (a classic grid's model numbers its units rows 0..n-1, columns
 * n..2n-1, boxes 2n..3n-1, as this engine always has):
 *   ucell[u*n + k]  the k-th cell of unit u (model order: a row by column,
 *                   a column by row, a box row-major), ulen[u] of them; the
 *                   unit is exact (every digit once) when ulen[u] == n
 *   cu[c*K + j]     the units of cell c, ncu[c] of them (K = the most any
 *                   cell has: 3 on a classic grid), and ci[c*K + j] the
 *                   cell's index k inside each
 *   peers           the model's peer lists (cells sharing a unit)
 *   sees            a bit matrix, row c = the cells that share a unit with c
 *   umem            a bit matrix, row u = the cells of unit u
 *   ovl_*[k]        for k in ovl_start[u] .. ovl_start[u+1]: the units
 *                   ovl_unit[k] that share two or more cells with unit u,
 *                   by number, and ovl_mask[k] those cells as u's indices
 *                   (a box: its three rows and three columns)
 *   allowed[c]      the digits a cell may hold (parity; 0 on a hole)
 *   scan[]          the units in the order people look at them: boxes and
 *                   every other unit that is not a line, then rows, then
 *                   columns (on a classic grid: boxes, rows, columns)
 *
 * Position:
 *   value[c]        0 or the digit placed in cell c (0 on holes)
 *   cand[c]         candidates of an empty cell, bit d-1 = digit d; 0 once
 *                   placed, and on holes
 *   pos[u*n + d-1]  where digit d can still go in unit u: bit k = the unit's
 *                   k-th cell; 0 once d is placed in u.  For a row the k-th
 *                   cell is column k of its grid, for a column row k, so pos
 *                   of rows and columns are column and row masks.
 *   placed[u]       digits placed in unit u
 *
 * Invariants: cand and pos describe the same candidates; placed digits are
 * gone from every peer's candidates, and from each pair partner the values
 * its rule forbids (place() removes them).  Every change goes through
 * sudoku__logic_place() / sl_elim(), which keep them so.
 *
 * Scratch for the searches follows in the same block: chain search arrays
 * (per candidate node), colouring arrays, and the trial's candidates. */
#ifndef PUZZLED_SUDOKU_LOGIC_INTERNAL_H
#define PUZZLED_SUDOKU_LOGIC_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "solvers/sudoku/logic.h"
#include "solvers/sudoku/model.h"

#define SL_MAX_N  SUDOKU_LOGIC_MAX_N
#define SL_BIT(d) ((uint32_t)1 << ((d)-1))

struct sudoku_logic_s {
    /* geometry, shared with the sub state */
    const sudoku_model_t *m;
    sudoku_model_t *own;      /* the classic model sudoku_logic_new() built, or NULL */
    search_allocator_t alloc; /* what allocated the block (and own), to free it */
    int n, nn, nunits, K, sw; /* sw: 64-bit words of a row of `sees` */
    uint32_t all;             /* the n digit bits */
    const uint16_t *ucell;
    const uint8_t *ulen;
    const uint16_t *cu;
    const uint8_t *ci, *ncu;
    const uint64_t *sees;
    const uint32_t *allowed;
    const uint16_t *scan;
    const uint32_t *pstart; /* the model's peer lists, by pointer here: read in every loop */
    const uint16_t *peers;
    const uint64_t *umem; /* [nunits * sw]: bit c of row u = cell c is in unit u */
    const uint32_t *ovl_start, *ovl_mask;
    const uint16_t *ovl_unit;
    int nscan;
    int all_exact;       /* every unit has n cells (a classic grid, a jigsaw, a Samurai...) */
    int pairs;           /* the model has pair rules */
    int ur;              /* unique rectangles are sound here (no pair rules, no line rules) */
    int lines;           /* the model has line rules with something to say (nrules > 0) */
    const int8_t *lkind; /* [nlines]: what the engine reads in each line (lines.c: SL_LK_*) */
    int lines_end[2];    /* scan[] positions where the rows, then the columns end */
    /* position */
    int empty; /* live cells without a value */
    uint8_t *value;
    uint32_t *cand;
    uint32_t *pos;
    uint32_t *placed;
    /* chain search scratch, one entry per (node, parity), node = c*n + d-1
     * for a candidate, nnodes + g for grouped AIC's group g (chains.c) */
    uint32_t nnodes;
    uint32_t ngcap;  /* groups the scratch has room for (nnodes) */
    uint32_t stamp;  /* generation of seen[] */
    uint32_t *seen;  /* 2 * (nnodes + ngcap): stamp when reached */
    int32_t *parent; /* 2 * (nnodes + ngcap): previous state index, -1 at the start */
    int32_t *queue;  /* 2 * (nnodes + ngcap) */
    uint64_t *gkey;  /* ngcap: a group's digit << 32 | unit u << 16 | unit v (u < v) */
    uint32_t *gmask; /* ngcap: its cells, as unit u's indices */
    int32_t *next;   /* a node's neighbours: the most peers + n + K */
    int maxnext;
    /* colouring scratch: nn each */
    int8_t *colour;
    int16_t *cid;
    uint16_t *comp;
    /* trial scratch */
    uint32_t *tcand; /* nn */
    uint16_t *tq;    /* nn: cells whose value still has to leave their peers */
    uint8_t *tdone;  /* nn: 1 once a cell is decided (queued or placed), or a hole */
    /* forcing chains' scratch (forcing.c; als.c borrows facc for its marks):
     * facc[nn], what every branch so
     * far removes; per branch (node c*n + d-1) the outcome of its last
     * run: fres (-1 contradiction, else 0), and in fmemo[node*nn ..] what
     * it leaves each cell, valid while fstamp[node] == 2 fcall + depth (one
     * position: sudoku__logic_forcing_moved() moves fcall on);
     * fmemo is NULL on grids where it would be large (sl_forcing_memo) */
    uint32_t *facc, *fmemo, *fstamp, fcall;
    /* the almost locked sets' candidate bitsets (als.c, filled at the start
     * of each search): row d-1, sw words, bit c = cell c has candidate d */
    uint64_t *dbits;
    int8_t *fres;
    struct sudoku_logic_s *sub; /* a second state for trials with techniques, or NULL */
    /* line techniques' scratch (lines.c): a frame-sized grid, zero between
     * uses; two bytes a cell for bounds; a byte and a queue entry a line */
    uint8_t *lgrid;
    uint8_t *lo, *hi;
    uint8_t *lmark;
    uint16_t *lqueue;
    /* the 45 rule's reads, fixed by the cages and units: innies[0..ninnies),
     * -1 until the first look builds them (sudoku__logic_innies_init; a
     * state's build is its trial copy's too) */
    struct sl_innie_s *innies;
    int ninnies;
    sudoku_logic_step_t *step; /* the step record sudoku_logic_grade() fills */
};

/* Whether the forcing chains keep every branch's outcome (nodes * nn
 * words: 236 KiB on 9x9, 1 MiB on 12x12; 16x16 would take 4 MiB). */
static inline int sl_forcing_memo(int n, int nn) {
    return (size_t)nn * (size_t)n * (size_t)nn <= ((size_t)1 << 18);
}

/* The units of a cell, and its index inside the j-th of them. */
static inline const uint16_t *sl_units(const sudoku_logic_t *st, int c) {
    return st->cu + (size_t)c * (size_t)st->K;
}
static inline int sl_index(const sudoku_logic_t *st, int c, int j) {
    return st->ci[(size_t)c * (size_t)st->K + (size_t)j];
}
static inline const uint16_t *sl_ucells(const sudoku_logic_t *st, int u) {
    return st->ucell + (size_t)u * (size_t)st->n;
}
static inline uint32_t *sl_pos(const sudoku_logic_t *st, int u, int d) {
    return st->pos + (size_t)u * (size_t)st->n + (size_t)(d - 1);
}
static inline int sl_exact(const sudoku_logic_t *st, int u) {
    return st->all_exact || st->ulen[u] == st->n;
}

/* Whether cell c is in unit u. */
static inline int sl_in_unit(const sudoku_logic_t *st, int c, int u) {
    return (st->umem[(size_t)u * (size_t)st->sw + ((unsigned)c >> 6)] >> (c & 63)) & 1;
}
static inline int sl_live(const sudoku_logic_t *st, int c) { return st->m->live[c]; }

/* Whether two distinct cells share a unit. */
static inline int sl_sees(const sudoku_logic_t *st, int a, int b) {
    return (st->sees[(size_t)a * (size_t)st->sw + ((unsigned)b >> 6)] >> (b & 63)) & 1;
}

/* Whether cell x sees every one of cells[0..k) (1 when k = 0).  A cell
 * does not see itself, so x in cells gives 0: the eliminations "cells
 * that see the whole group" never take a cell of the group. */
static inline int sl_sees_all(const sudoku_logic_t *st, int x, const int *cells, int k) {
    for (int i = 0; i < k; i++)
        if (!sl_sees(st, x, cells[i])) return 0;
    return 1;
}

/* The peers of cell c: *count of them. */
static inline const uint16_t *sl_peers(const sudoku_logic_t *st, int c, int *count) {
    *count = (int)(st->pstart[c + 1] - st->pstart[c]);
    return st->peers + st->pstart[c];
}

/* The digits a pair rule leaves cell b when its partner may hold `a`
 * (candidates, or one placed digit): a consecutive mark, the digits next to
 * one of them; non-consecutive, all but those next to every one of them. */
static inline uint32_t sl_pair_keep(const sudoku_logic_t *st, int rule, uint32_t a);

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

static inline uint32_t sl_pair_keep(const sudoku_logic_t *st, int rule, uint32_t a) {
    uint32_t near = ((a << 1) | (a >> 1)) & st->all;
    if (rule == SUDOKU_PAIR_CONSECUTIVE) return near;
    if ((a & (a - 1)) == 0) return st->all & ~near; /* one digit: its neighbours go */
    if (sl_popcount(a) == 2) return st->all & ~((a << 1) & (a >> 1)); /* x, x+2: x+1 goes */
    return st->all;
}

/* Removes digit d from empty cell c (no-op when absent). */
static inline void sl_elim(sudoku_logic_t *st, int c, int d) {
    uint32_t b = SL_BIT(d);
    const uint16_t *u = sl_units(st, c);
    if (!(st->cand[c] & b)) return;
    st->cand[c] &= ~b;
    for (int j = 0; j < st->ncu[c]; j++)
        *sl_pos(st, u[j], d) &= ~((uint32_t)1 << sl_index(st, c, j));
}

void sudoku__logic_place(sudoku_logic_t *st, int c, int d);

/* Copies st's position into st->sub (same geometry). */
void sudoku__logic_copy(sudoku_logic_t *dst, const sudoku_logic_t *src);

/* === Step building === */

static inline void sl_step_begin(sudoku_logic_step_t *s, sudoku_tech_t t) {
    s->tech = (uint8_t)t;
    s->trial = 0;
    s->digit = 0;
    s->size = 0;
    s->digits = 0;
    s->unit[0] = s->unit[1] = -1;
    s->line = -1;
    s->parts[0] = s->parts[1] = s->parts[2] = 0;
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

/* Fish of `size` base lines (2..4); finned = 1 looks for finned and
 * sashimi ones only (fish.c). */
int sudoku__logic_fish(sudoku_logic_t *st, int size, int finned, sudoku_logic_step_t *step);
int sudoku__logic_xy_wing(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_xyz_wing(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_unique_rect(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_bug(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_colouring(sudoku_logic_t *st, sudoku_logic_step_t *step);
/* The chain searches also add the nodes they expand to *work and stop
 * (returning 0) past `budget` of them. */
int sudoku__logic_x_chain(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                          sudoku_logic_step_t *step);
int sudoku__logic_xy_chain(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                           sudoku_logic_step_t *step);
int sudoku__logic_aic(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                      sudoku_logic_step_t *step);
/* AIC whose nodes may also be groups: a digit's places in one unit that
 * all lie in a second unit (chains.c). */
int sudoku__logic_grouped_aic(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                              sudoku_logic_step_t *step);
/* Almost locked sets (als.c): ALS-XZ (two sets), ALS-XY-wing (three).
 * Work and budget as the chains'. */
int sudoku__logic_als_xz(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                         sudoku_logic_step_t *step);
int sudoku__logic_als_xy_wing(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                              sudoku_logic_step_t *step);
/* Forcing chains (forcing.c): every branch of a cell (kind 0), of a
 * digit's places in a unit (kind 1), or both (kind 2) is followed by
 * singles (depth 0) or by the medium techniques on st->sub (depth 1); what
 * every branch concludes holds.  Work and budget as the chains'. */
int sudoku__logic_forcing(sudoku_logic_t *st, int kind, int depth, uint64_t budget, uint64_t *work,
                          sudoku_logic_step_t *step);
/* A new position (or possibly one): the forcing chains' memo is stale. */
void sudoku__logic_forcing_moved(sudoku_logic_t *st);
/* Line rules (lines.c).  sudoku__logic_line_kinds() fills lkind[nlines]
 * once, for a new state.  The enumerations count what they try in *work
 * and give a line up (no step from it) past their budgets. */
void sudoku__logic_line_kinds(const sudoku_model_t *m, int8_t *lkind);
/* One read of the 45 rule (innies, outies or a split of a set of units):
 * cells, their total, the set's first and last unit.  At most SL_INNIES_CAP(nunits)
 * of a state (the sets sudoku__logic_innies reads, each up to three times).  And the
 * last look's memo: what the cells' digits were (mask), what the
 * enumeration kept and returned, and the work it counted -- a pure
 * function of those digits, so a look at the same digits (the state's, or
 * its trial copy's: they share the table) answers from it and counts the
 * same work, and no grade depends on what was looked at before. */
#define SL_INNIES_MAX         6 /* innies or outies of more cells are not looked at */
#define SL_INNIES_CAP(nunits) (27 * (size_t)(nunits))
typedef struct sl_innie_s {
    int32_t total;
    uint16_t cell[SL_INNIES_MAX];
    int16_t u0, u1; /* u1 = -1: one unit */
    uint8_t k;
    uint8_t kind; /* 0 innies, 1 outies, 2 a split (cage-splitting) */
    uint8_t neg;  /* a split: bit j = cell j counts negatively (a part beyond the set) */
    int8_t memo;  /* -2: none yet; else the enumeration's return for mask[] */
    uint32_t mask[SL_INNIES_MAX], keep[SL_INNIES_MAX];
    uint64_t cost;
} sl_innie_t;
/* Fills st->innies from the cages (once a state, at its first look). */
void sudoku__logic_innies_init(sudoku_logic_t *st);
int sudoku__logic_cage_combination(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *step);
int sudoku__logic_cage_locked(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *step);
int sudoku__logic_innies(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *step);
int sudoku__logic_cage_split(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *step);
int sudoku__logic_pair_relation(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_thermo(sudoku_logic_t *st, sudoku_logic_step_t *step);
int sudoku__logic_arrow(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *step);
int sudoku__logic_constraint(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                             sudoku_logic_step_t *step);
/* Trial, the nested forcing chain and guess (trial.c): need
 * opts->solution.  The nested chain gives up past budget work units (or
 * when opts->ctl says stop): no step. */
int sudoku__logic_trial(sudoku_logic_t *st, const sudoku_logic_opts_t *opts, uint64_t *work,
                        sudoku_logic_step_t *step);
int sudoku__logic_nested(sudoku_logic_t *st, const sudoku_logic_opts_t *opts, uint64_t budget,
                         uint64_t *work, sudoku_logic_step_t *step);
int sudoku__logic_guess(sudoku_logic_t *st, const sudoku_logic_opts_t *opts,
                        sudoku_logic_step_t *step);

/* Singles propagation on st->tcand (trial.c).  The caller sets tcand[] for
 * every cell, tdone[c] = 1 for decided cells (one bit in tcand) and holes,
 * and queues in tq[0..nq) the decided cells whose value has not yet left
 * their peers (and pair partners).  hidden = 0 leaves hidden singles out
 * (naked singles only).  Returns 1 when every cell is decided, 0 when
 * stuck, -1 on a contradiction.  *work counts placements. */
int sudoku__logic_propagate(sudoku_logic_t *st, int nq, int hidden, uint64_t *work);

/* The position copied into tcand/tdone with cell c assumed to hold d, then
 * sudoku__logic_propagate() with hidden singles: its return value. */
int sudoku__logic_assume(sudoku_logic_t *st, int c, int d, uint64_t *work);

/* The medium-or-easier solve used by depth-1 trials (logic.c): runs the
 * techniques up to hidden-pair on st.  Returns 1 solved, 0 stuck, -1 on a
 * contradiction. */
int sudoku__logic_run_basic(sudoku_logic_t *st, uint64_t *work);

#endif
