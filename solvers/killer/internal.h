/* killer/internal.h -- internals shared by killer.c, killer/bt.c, killer/adv.c,
 * killer/prop.c, killer/derive.c.
 *
 * killer__model_t is the puzzle compiled once per solve (stack or arena
 * memory of the caller): symbol values by index, the cage of each cell and
 * the units (rows, columns, boxes, diagonals) as cell lists.  It is filled
 * by killer__model_init() from a puzzle that passed killer_validate(), and
 * is read-only afterwards.  Not part of the public API. */
#ifndef PUZZLED_KILLER_INT_H
#define PUZZLED_KILLER_INT_H

#include <assert.h>

#include "solvers/killer/killer.h"

#define KILLER__MAX_CELLS (KILLER_MAX_N * KILLER_MAX_N)
#define KILLER__MAX_UNITS (3 * KILLER_MAX_N + 2)
#define KILLER__BIT(v)    ((uint64_t)1 << ((v)-1))
#define KILLER__ALIGN(x)  (((x) + 15u) & ~(size_t)15u)

/* SWAR rather than __builtin_popcountll: without -mpopcnt the builtin is a
 * libgcc call, which showed in the advanced search's profile. */
static inline int killer__popcount(uint64_t m) {
    m = m - ((m >> 1) & 0x5555555555555555ull);
    m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((m * 0x0101010101010101ull) >> 56);
}
static inline int killer__ctz(uint64_t m) { return __builtin_ctzll(m); }
static inline int killer__msb(uint64_t m) { return 63 - __builtin_clzll(m); } /* m != 0 */

typedef struct killer__model_s {
    const killer_puzzle_t *pz;
    int n, nc, nunits;
    uint64_t full;                        /* bits 0..n-1 */
    long sym[KILLER_MAX_N + 1];           /* sym[v] = symbol of index v (1..n) */
    int16_t cell_cage[KILLER__MAX_CELLS]; /* cage index or -1 */
    uint8_t cell_nunits[KILLER__MAX_CELLS];
    uint8_t cell_units[KILLER__MAX_CELLS][5];
    uint16_t unit_cells[KILLER__MAX_UNITS][KILLER_MAX_N];
} killer__model_t;

/* Fills *m from a validated puzzle.  About 20 KiB: callers keep it on the
 * heap (inside their arena), not on a small worker stack. */
void killer__model_init(killer__model_t *m, const killer_puzzle_t *pz);

/* Symbol helpers take sym[v] = symbol of index v (sym[1..n]).
 * Sorted-symbol helper: writes to vals the symbols of the indices in
 * `allowed` (bit v-1 = index v), ascending, and returns how many. */
int killer__sorted_symbols(const long *sym, uint64_t allowed, long *vals);

/* Enumerates the sets of k distinct indices from `allowed` whose symbols add
 * to `sum`, writing up to cap masks to out (may be NULL with cap 0) and the
 * number found into *count (stops counting at cap + 1).  Depth-first over
 * the symbols in ascending order with min/max pruning (recursion depth
 * <= k <= 36).  Returns 0 when the enumeration finished, 1 when it stopped
 * at cap + 1 combinations or after `budget` steps (the table is then
 * incomplete and *count means "more than cap" / "unknown"). */
int killer__combos(const long *sym, uint64_t allowed, int k, long sum, uint64_t *out, uint32_t cap,
                   uint32_t *count, uint64_t budget);

/* Sum of the k smallest (lo) and k largest (hi) symbols among `allowed`;
 * returns -1 if fewer than k are allowed. */
int killer__sum_bounds(const long *sym, uint64_t allowed, int k, long *lo, long *hi);

/* The two searches.  Both fill res->solutions_found, exhausted, stats,
 * mem_peak and return 0 or a SEARCH_* code; puzzle already validated. */
int killer__solve_bt(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res);
int killer__solve_adv(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res);
/* The learning method (killer/lcg.c); the same contract. */
int killer__solve_lcg(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res);

/* Allocation through the opts hooks. */
void *killer__alloc(const killer_opts_t *o, size_t size);
void killer__free(const killer_opts_t *o, void *p);

/* === The advanced method's state ======================================== */

/* killer/adv.c sets a killer__adv_t up and searches over it, killer/prop.c
 * propagates in it; both are described in their file heads.
 *
 * State and undo
 * --------------
 *   cand[ncells]  uint64 candidate masks (value v = bit v-1)
 *   live[ncons]   uint32 live combos per tabled con
 *   cdyn[ncons]   open positions, decided values, rest of the sum per con:
 *                 derived from cand (killer__set_mask on deciding, undo on the
 *                 entry that decided), not trailed
 *   trail         key[] (uint32: cell, or ncells + con) / old[] (uint64)
 * Every trail entry removes at least one candidate bit or one live combo
 * from the state on the current path, and undo pops exactly the entries of
 * abandoned branches, so the trail holds at most ncells*n + (all combos)
 * entries: that is its size, allocated before the search.
 *   level, lser   frames on the stack, and a serial (never reused) per
 *                 frame: undo only restores the marks of popped frames, so
 *                 while the frame a fact was noted under stands, masks and
 *                 live sets only shrank since and the fact holds
 *                 (level_valid(): killer__con_t fix_*, a sum or bounds con's last
 *                 no-op state; claim_*, values claiming already removed).
 *                 Anything else that grows the state must give the current
 *                 frame a new serial. */

/* killer__adv_t useg: the slot of a unit position in no intersection. */
#define KILLER__USEG_NONE KILLER_MAX_N

typedef struct killer__con_s {
    long sum;
    uint32_t cells_off; /* into con_cells */
    uint32_t combo_off; /* into combos (tabled) */
    uint32_t ncombo;    /* table size (tabled) */
    int16_t cage;       /* cage index, or -1 for a derived con */
    uint8_t ncells;
    uint8_t distinct;
    uint8_t tabled;
    uint8_t ngroups;   /* non-distinct: peer groups of its cells (con_grp) */
    uint8_t mirror;    /* some cell enters mirrored (con_neg; derive_region) */
    uint8_t nunits_in; /* units containing every cell */
    uint8_t units_in[5];
    uint64_t inpos[2]; /* positions of its cells in units_in[0..1] (con_claim) */
    uint64_t pexcl[2]; /* killer__adv_t pbits: its cells and those of units_in (con_claim_ot) */
    /* sum and bounds cons: a state where the con changed nothing, valid while
     * the search level it was noted at still stands (level_valid(): masks only
     * shrank since): its number of open cells and the sum of its groups'
     * unions (see prop_con) */
    uint64_t fix_gsum; /* (a bounds con: the union of its open cells) */
    uint64_t fix_ser;  /* lser[fix_level] when noted */
    uint32_t fix_level;
    uint8_t fix_m;
    /* tabled cons: values con_claim_ot() has removed from the rest of the
     * units containing the con, valid as fix_* (level_valid()) */
    uint32_t claim_level;
    uint64_t claim_req, claim_ser;
} killer__con_t;

/* The bounds of one peer group of a sum con as a function of its open
 * cells' union u and their number k (prop_con, ascending symbols): the
 * sums of the k smallest / largest symbols of u, the k-th smallest /
 * largest symbol and the smallest / largest.  One entry per group, at the con's cells_off + group;
 * k == 0: empty.  A pure function, so valid in any state: a con rerun
 * after a change in one group finds the other groups here. */
typedef struct killer__grpc_s {
    uint64_t u;
    long lo, hi, sk, tk, s1, t1;
    int k;
} killer__grpc_t;

/* Per con, kept by killer__set_mask() and killer__undo(): the positions of its
 * open cells, the arithmetic sum of its decided cells' value bits (for a
 * distinct con their OR: peers never stay decided to one value once the
 * decided-cell queue is empty, and prop_con runs only then) and the rest
 * of its sum.  prop_con's head walks the open positions instead of testing
 * every cell (that test was its worst-predicted branch). */
typedef struct killer__condyn_s {
    uint64_t open, dec;
    long rem;
} killer__condyn_t;

typedef struct killer__adv_s {
    killer__model_t m;
    const killer_opts_t *opts;
    killer_result_t *res;
    int n, nc, ncons, nunits;
    uint64_t full;
    /* constraints */
    killer__con_t *cons;
    uint16_t *con_cells;
    uint8_t *con_grp;        /* per con cell: its peer group (non-distinct cons) */
    uint8_t *con_neg;        /* per con cell: 1 = enters mirrored, n + 1 - v (derive_region) */
    uint32_t *cell_cons_off; /* nc + 1 */
    uint16_t *cell_cons;
    uint8_t *cell_cons_pos; /* per cell_cons entry: the cell's position in that con */
    killer__condyn_t *cdyn; /* per con (see killer__condyn_t) */
    uint32_t *peer_off;     /* nc + 1 */
    uint16_t *peers;
    uint64_t *pbits; /* nc <= 128: the peers of cell i as a bitset at [2i], [2i + 1], else NULL */
    uint64_t *combos;
    killer__grpc_t *grpc; /* per con cell (see killer__grpc_t) */
    /* state */
    uint64_t *cand;
    uint32_t *live;
    uint32_t *tkey;
    uint64_t *told;
    uint32_t tlen, tcap;
    uint32_t decided;
    uint16_t *sq; /* decided cells whose value has to leave their peers */
    uint32_t sqlen;
    uint32_t *cq; /* cages to propagate; inq[] flags */
    uint32_t cqlen;
    uint32_t *dq; /* derived cons to propagate (after cq and the units); inq[] */
    uint32_t dqlen;
    uint32_t first_derived; /* cons [0, first_derived) are the cages */
    uint8_t *inq;
    uint8_t *udirty; /* units to scan for hidden singles */
    uint8_t *ulist;
    uint32_t ulen;
    uint8_t *stamp; /* scratch per cell */
    double *score;  /* conflict weight per cell (branching) */
    int sym_sorted; /* symbols ascend with their index (1..n, or sorted) */
    int sym_ident;  /* symbols are 1..n */
    double inc;
    struct killer__frame_s *stack; /* the search's frames (adv.c) */
    uint8_t *grid;
    /* per unit (unit_tables(), for scan_unit): ugrp_n cage groups, the
     * group of each position and the cage of each group (-1: one uncaged
     * cell); useg_n[k] intersections with the units of kind k, the one of
     * each position (USEG_NONE: none) and the unit each one lies in */
    uint8_t ugrp_n[KILLER__MAX_UNITS];
    uint8_t ugrp_of[KILLER__MAX_UNITS][KILLER_MAX_N];
    int16_t ugrp_cage[KILLER__MAX_UNITS][KILLER_MAX_N];
    uint8_t useg_n[KILLER__MAX_UNITS][2];
    uint8_t useg[KILLER__MAX_UNITS][KILLER_MAX_N][2];
    uint8_t useg_unit[KILLER__MAX_UNITS][2][KILLER_MAX_N];
    /* search levels for killer__con_t fix_*: level = frames on the stack, lser[l]
     * a serial (from nser, never reused) of the frame at level l (lser[0]:
     * the root).  Undo only ever restores a popped frame's mark, so while
     * the frame a fact was noted under stands, masks and live counts only
     * shrank since.  Anything that grows them other than popping a frame
     * must give the current frame a new serial. */
    uint64_t *lser;
    uint64_t nser;
    uint32_t level;
    /* the search between adv_run() calls: frames on the stack, whether the
     * state is consistent, and the two arenas that hold everything */
    const killer_puzzle_t *pz;
    uint32_t depth;
    int ok;
    char *mem1, *mem2;
} killer__adv_t;

/* Propagation (prop.c) as the search uses it.  The functions that change
 * the state trail what they change; those that return int return 0, or -1
 * on a contradiction (the state is then to be undone). */

/* Sets cand[cell] = m, a strict subset of the current mask, and queues
 * what the change wakes.  -1 when m is empty. */
int killer__set_mask(killer__adv_t *a, int cell, uint64_t m);

/* Keeps the combos of tabled con ci that hold every value of `need` /
 * drops combo `combo` from its live ones. */
int killer__con_require(killer__adv_t *a, uint32_t ci, uint64_t need);
int killer__con_drop(killer__adv_t *a, uint32_t ci, uint64_t combo);

/* Queues con ci (cages to cq, derived cons to dq) unless it is queued. */
void killer__enqueue_con(killer__adv_t *a, uint32_t ci);

/* Runs the queues to a fixpoint; on a contradiction bumps the conflict
 * weights, clears the queues and returns -1. */
int killer__propagate(killer__adv_t *a);

/* Empties the queues (after a contradiction outside killer__propagate). */
void killer__clear_queues(killer__adv_t *a);

/* Pops the trail down to mark. */
void killer__undo(killer__adv_t *a, uint32_t mark);

/* Whether cells x and y share a unit or a cage. */
int killer__are_peers(const killer__adv_t *a, int x, int y);

#endif
