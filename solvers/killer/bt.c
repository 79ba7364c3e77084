/* killer/bt.c -- the "backtracking" Killer Sudoku method: the plain baseline.
 *
 * Empty cells are visited in row-major order; each tries its values in
 * ascending index order and keeps the first that (a) is not used in its row,
 * column, box (or diagonal, Killer-X) and (b) keeps its cage possible: with
 * the cage's sum so far s, the cells still open after this one `left` and
 * the values the cage already uses, the rest S - s - v must lie between the
 * sums of the `left` smallest and largest symbols not yet in the cage.  No
 * other inference, on purpose: it is the reference the advanced method is
 * measured against (and cross-checked with in the tests).
 *
 * State, in one arena allocated before the search:
 *   used[unit]   uint64 masks of values per row, column, box, diagonal
 *   cused[cage]  uint64 values in the cage; csum[cage] their symbol sum;
 *   copen[cage]  cells of the cage still empty
 *   order[k]     the k-th empty cell; val[k] the value it holds (0 = none)
 * The search is a loop over k with val[] as the explicit stack: depth <=
 * number of empty cells, no recursion.  A node is one value tried.
 *
 * Thread-safety: all state is in the arena of one solve. */
#include <string.h>

#include "solvers/killer/internal.h"

typedef struct bt_s {
    killer__model_t m;
    uint64_t used[KILLER__MAX_UNITS];
    int sorted[KILLER_MAX_N]; /* value indices by ascending symbol */
    uint64_t *cused;          /* per cage: its values */
    long *csum;               /* per cage: their symbols' sum */
    int *copen;               /* per cage: its empty cells */
    int *order;               /* the empty cells, row-major */
    uint8_t *val;             /* val[k]: the value order[k] holds (0: none) */
    uint8_t *grid;            /* the grid being filled */
    int nempty;
} bt_t;

/* Can `left` more distinct symbols outside `cused` add up to rem? */
static int cage_ok(const bt_t *b, uint64_t cused, int left, long rem) {
    long lo = 0, hi = 0;
    int i, k;
    if (left == 0) return rem == 0;
    for (i = 0, k = 0; i < b->m.n && k < left; i++)
        if (!(cused & KILLER__BIT(b->sorted[i]))) {
            lo += b->m.sym[b->sorted[i]];
            k++;
        }
    if (k < left || rem < lo) return 0;
    for (i = b->m.n - 1, k = 0; i >= 0 && k < left; i--)
        if (!(cused & KILLER__BIT(b->sorted[i]))) {
            hi += b->m.sym[b->sorted[i]];
            k++;
        }
    return rem <= hi;
}

/* Puts value v in cell (cage cg, -1 none) / takes it out again. */
static void bt_place(bt_t *b, int cell, int cg, int v) {
    int j;
    b->grid[cell] = (uint8_t)v;
    for (j = 0; j < b->m.cell_nunits[cell]; j++)
        b->used[b->m.cell_units[cell][j]] |= KILLER__BIT(v);
    if (cg >= 0) {
        b->cused[cg] |= KILLER__BIT(v);
        b->csum[cg] += b->m.sym[v];
        b->copen[cg]--;
    }
}

static void bt_take(bt_t *b, int cell, int cg, int v) {
    uint64_t bit = KILLER__BIT(v);
    int j;
    for (j = 0; j < b->m.cell_nunits[cell]; j++)
        b->used[b->m.cell_units[cell][j]] &= ~bit;
    if (cg >= 0) {
        b->cused[cg] &= ~bit;
        b->csum[cg] -= b->m.sym[v];
        b->copen[cg]++;
    }
    b->grid[cell] = 0;
}

/* The state in one arena (mem_peak), the givens placed.  Returns it (free
 * it with killer__free), or NULL when out of memory. */
static bt_t *bt_open(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res) {
    int n = pz->shape.n, nc = n * n, ncg = pz->ncages, i, j;
    size_t bytes;
    char *mem, *at;
    bt_t *b;

    bytes = KILLER__ALIGN(sizeof(bt_t)) + KILLER__ALIGN((size_t)ncg * sizeof(uint64_t)) +
            KILLER__ALIGN((size_t)ncg * sizeof(long)) + KILLER__ALIGN((size_t)ncg * sizeof(int)) +
            KILLER__ALIGN((size_t)nc * sizeof(int)) + 2 * KILLER__ALIGN((size_t)nc + 1);
    mem = killer__alloc(opts, bytes);
    if (mem == NULL) return NULL;
    res->mem_peak = bytes;
    at = mem;
    b = (bt_t *)at;
    at += KILLER__ALIGN(sizeof(bt_t));
    b->cused = (uint64_t *)at;
    at += KILLER__ALIGN((size_t)ncg * sizeof(uint64_t));
    b->csum = (long *)at;
    at += KILLER__ALIGN((size_t)ncg * sizeof(long));
    b->copen = (int *)at;
    at += KILLER__ALIGN((size_t)ncg * sizeof(int));
    b->order = (int *)at;
    at += KILLER__ALIGN((size_t)nc * sizeof(int));
    b->val = (uint8_t *)at;
    at += KILLER__ALIGN((size_t)nc + 1);
    b->grid = (uint8_t *)at;

    killer__model_init(&b->m, pz);
    memset(b->used, 0, sizeof b->used);
    for (i = 1; i <= n; i++) { /* insertion sort of indices by symbol */
        for (j = i - 1; j > 0 && b->m.sym[b->sorted[j - 1]] > b->m.sym[i]; j--)
            b->sorted[j] = b->sorted[j - 1];
        b->sorted[j] = i;
    }
    for (i = 0; i < ncg; i++) {
        b->cused[i] = 0;
        b->csum[i] = 0;
        b->copen[i] = pz->cages[i].ncells;
    }
    b->nempty = 0;
    for (i = 0; i < nc; i++) {
        int v = pz->givens != NULL ? pz->givens[i] : 0;
        if (v == 0) {
            b->grid[i] = 0;
            b->order[b->nempty++] = i;
        } else
            bt_place(b, i, b->m.cell_cage[i], v);
    }
    return b;
}

int killer__solve_bt(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res) {
    const search_ctl_t *ctl = opts->ctl;
    int n = pz->shape.n, nc = n * n, j, k, nempty, rc = 0;
    bt_t *b = bt_open(pz, opts, res);
    uint8_t *val;

    if (b == NULL) return SEARCH_ENOMEM;
    nempty = b->nempty;
    val = b->val;
    /* k = the empty cell being filled; val[k] = its current value (0 none) */
    k = 0;
    if (nempty > 0) val[0] = 0;
    for (;;) {
        int cell, cg, v;
        uint64_t busy;
        if (k == nempty) {
            if (opts->solutions != NULL)
                memcpy(opts->solutions + (size_t)res->solutions_found * nc, b->grid, (size_t)nc);
            res->solutions_found++;
            if (res->solutions_found >= opts->max_solutions) goto done;
            if (k == 0) break;
            k--; /* resume the last cell at its next value */
        }
        cell = b->order[k];
        cg = b->m.cell_cage[cell];
        v = val[k];
        busy = 0;
        for (j = 0; j < b->m.cell_nunits[cell]; j++)
            busy |= b->used[b->m.cell_units[cell][j]];
        if (v != 0) { /* take the current value back out */
            bt_take(b, cell, cg, v);
            busy &= ~KILLER__BIT(v);
        }
        for (v = v + 1; v <= n; v++) {
            uint64_t bit = KILLER__BIT(v);
            if (busy & bit) continue;
            res->stats.nodes++;
            if ((rc = search_should_stop(opts->ctl, res->stats.nodes)) != 0 ||
                (ctl != NULL && ctl->node_budget != 0 && res->stats.nodes > ctl->node_budget)) {
                if (rc == 0) rc = SEARCH_BUDGET;
                goto done;
            }
            if (cg >= 0 &&
                ((b->cused[cg] & bit) || !cage_ok(b, b->cused[cg] | bit, b->copen[cg] - 1,
                                                  pz->cages[cg].sum - b->csum[cg] - b->m.sym[v])))
                continue;
            break;
        }
        if (v > n) { /* no value left: back to the previous cell */
            val[k] = 0;
            if (k == 0) break;
            k--;
            res->stats.backtracks++;
            continue;
        }
        val[k] = (uint8_t)v;
        bt_place(b, cell, cg, v);
        k++;
        if ((uint32_t)k > res->stats.max_depth) res->stats.max_depth = (uint32_t)k;
        if (k < nempty) val[k] = 0;
    }
    res->exhausted = 1;
done:
    killer__free(opts, b);
    return rc;
}
