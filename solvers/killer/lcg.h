/* killer/lcg.h -- the state the "learning" method's two files share:
 * killer/lcg.c builds the model and searches, killer/lcg_prop.c runs the
 * propagators that explain themselves.  Internal to solvers/killer.
 *
 * Variables of the clause-learning engine (sudoku/sat.h), n = side,
 * value index v = 1..n:
 *   x(i, v) = i*n + v - 1          cell i holds v               n^3
 *   y(c, v) = ybase(c) + v - 1     v is one of cage c's values  n per cage
 *                                  of 2+ cells
 * Groups (exactly one literal true), which the engine propagates natively:
 *   cell i              x(i, 1..n)
 *   unit u, value v     x(i, v) for the n cells i of u (rows, columns,
 *                       boxes unless they repeat rows or columns,
 *                       diagonals for Killer-X)
 *   cage c, value v     x(i, v) for the cells of c, and NOT y(c, v): v sits
 *                       once in c if y(c, v), else nowhere in c -- at most
 *                       one per value, and y says which values are used.
 * Constraints ("cons", one per equation of killer__derive(): the cages,
 * then the 45 rule's innie, outie and mixed sums), as propagators:
 *   table   a distinct sum whose value sets (combos) fit the caps: a combo
 *           is dead when a y literal or a cell's domain rules it out; the
 *           live ones bound the y literals (cages) or the cells' domains
 *           (derived sums, one-cell cages).  killer/lcg_prop.c.
 *   sum     the rest: bounds over peer groups, as the advanced method's
 *           sum cons, each bound explained by the domain literals it used.
 * Everything lives in one arena (killer/lcg.c); nothing is allocated while
 * searching.  Thread-safety: one state per solve. */
#ifndef PUZZLED_KILLER_LCG_H
#define PUZZLED_KILLER_LCG_H

#include "solvers/killer/internal.h"
#include "solvers/sudoku/sat.h"

typedef struct killer__lcg_con_s {
    long sum;
    uint32_t off;       /* cells: ccell[off .. off + k), cneg[] likewise */
    uint32_t combo_off; /* table: combos[combo_off .. combo_off + ncombo) */
    uint32_t ncombo;    /* table size (tabled) */
    int32_t ybase;      /* a cage of 2+ cells: y(v) = var ybase + v - 1; else -1 */
    uint32_t goff;      /* sum: groups' starts gbeg[goff .. goff + ngroups] (cell positions) */
    uint8_t k;          /* cells */
    uint8_t tabled;     /* a table con, else a sum con */
    uint8_t ngroups;    /* sum: peer groups (cells reordered group by group) */
    uint8_t derived;    /* not a cage: runs after the cages (dq) */
    uint8_t inq;
} killer__lcg_con_t;

/* A table con's live count before a run shrank it, and the trail length
 * that run saw (killer/lcg_prop.c, run_table()). */
typedef struct killer__lcg_ctrail_s {
    uint32_t ci, old, at;
} killer__lcg_ctrail_t;

typedef struct killer__lcg_s {
    sudoku__sat_t *s;
    sudoku__sat_ext_t ext;
    int n, nc;
    uint32_t nx;    /* x variables: nc * n */
    uint32_t nvars; /* with the y variables */
    uint64_t full;
    long w[KILLER_MAX_N + 1];  /* symbol of index v */
    uint8_t ord[KILLER_MAX_N]; /* value indices by ascending symbol */
    killer__lcg_con_t *cons;
    uint32_t ncons;
    uint16_t *ccell;
    uint8_t *cneg;
    uint8_t *gbeg;
    uint64_t *combos;
    uint32_t *cell_cons_off, *cell_cons; /* the cons of each cell, cages first */
    uint32_t *ycon;                      /* per block of n y variables: its con */
    /* state, kept by the trail scan (scan()) and undo */
    uint64_t *dom;         /* per cell: values whose x literal is not false */
    uint64_t *ypos, *yneg; /* per con (y cons only): values with y true / false */
    uint32_t *cq, *dq;     /* cons to run: cages, then derived; circular, ncons each */
    uint32_t cqh, cqn, dqh, dqn;
    /* explanations */
    uint32_t *buf, blen; /* the clause being built (nvars) */
    uint32_t *lstamp, stamp;
    uint32_t *pend;               /* scratch of add_killers(): a con's combos */
    uint32_t *nlive;              /* per con: its live combos, combos[combo_off .. + nlive) */
    killer__lcg_ctrail_t *ctrail; /* the old nlive of each shrinking run */
    uint32_t nctrail;
    uint64_t runs, implied;
} killer__lcg_t;

static inline uint32_t killer__lcg_x(const killer__lcg_t *L, int cell, int v) {
    return 2u * ((uint32_t)cell * (uint32_t)L->n + (uint32_t)v - 1u);
}

/* The engine's callbacks (sudoku__sat_ext_t), in killer/lcg_prop.c. */
int killer__lcg_propagate(void *ud, sudoku__sat_t *s);
void killer__lcg_undo(void *ud, const uint32_t *lits, uint32_t n);

/* Queues every con (the root's first propagation). */
void killer__lcg_queue_all(killer__lcg_t *L);

#endif
