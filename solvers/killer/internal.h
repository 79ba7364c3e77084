/* killer/internal.h -- internals shared by killer.c, killer/bt.c, killer/adv.c,
 * killer/derive.c.
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

/* Allocation through the opts hooks. */
void *killer__alloc(const killer_opts_t *o, size_t size);
void killer__free(const killer_opts_t *o, void *p);

#endif
