/* sudoku/bt.c -- the two propagation-free methods: plain backtracking and
 * mrv (minimum remaining values with forward checking).  They exist as
 * baselines a user can compare, so they do exactly what their names say and
 * nothing cleverer.
 *
 * Data (one arena per solve, sized before the search):
 *   used[3][n]   uint64_t value masks of each row, column and box
 *   val[ncells]  uint8_t current grid (givens + placements), 0 = empty
 *   empty[E]     uint16_t the cells empty in the puzzle, ascending
 *   unit[E][3]   uint8_t their row, column and box (copied from the
 *                geometry so the hot loop reads one small array)
 *   frames[E]    the choice stack: one entry per placed cell
 * Candidates are never stored: a cell's candidates are
 * full & ~(used[0][row] | used[1][col] | used[2][box]), an O(1) check.
 *
 * backtracking: the empty cells are filled in row-major order, so the cell
 * at depth d is empty[d] and a frame only needs the last value tried there.
 * mrv: a frame holds the chosen cell and the values still to try; choosing
 * scans the unfilled cells (O(E) per node) for the fewest candidates, lowest
 * index on ties.  Forward checking: after placing v in c, every unfilled
 * cell of c's units must keep a candidate, else v is taken back at once.
 *
 * Memory: O(n^2) bytes (130 KiB for an empty 64x64 grid, geometry
 * included); depth <= E <= n^2.
 * Stats: nodes = placements tried, backtracks = placements undone (including
 * forward-check rejections), propagations = 0, max_depth = cells placed.
 *
 * Thread-safety: all state is in the arena of one solve. */
#include <string.h>

#include "solvers/sudoku/internal.h"

typedef struct bt_frame_s {
    uint64_t left; /* mrv: values not yet tried */
    uint16_t cell; /* mrv: the chosen cell (index into empty[]) */
    uint8_t value; /* value in place, 0 = none */
} bt_frame_t;

typedef struct bt_s {
    sudoku__run_t *run;
    int n, ne;
    uint64_t *used;  /* [3n] */
    uint8_t *val;    /* [ncells] */
    uint16_t *empty; /* [ne] */
    uint8_t *unit;   /* [ne][3] */
    bt_frame_t *frames;
    uint8_t *filled; /* mrv: [ne] 1 when placed */
    void *mem;
    size_t bytes;
} bt_t;

/* Allocates and loads the arena.  Returns 0 or SEARCH_ENOMEM. */
static int bt_setup(bt_t *b, sudoku__run_t *run) {
    int n = run->n, nc = run->ncells, c, k, e = 0;
    size_t geom = sudoku__geom_bytes(n), off;
    char *at;

    memset(b, 0, sizeof *b);
    b->run = run;
    b->n = n;
    for (c = 0; c < nc; c++)
        b->ne += (run->puzzle[c] == 0);
    b->bytes = geom + SUDOKU__ALIGN(3 * (size_t)n * sizeof(uint64_t)) + SUDOKU__ALIGN((size_t)nc) +
               SUDOKU__ALIGN((size_t)b->ne * sizeof(uint16_t)) + SUDOKU__ALIGN((size_t)b->ne * 3) +
               SUDOKU__ALIGN(((size_t)b->ne + 1) * sizeof(bt_frame_t)) +
               SUDOKU__ALIGN((size_t)b->ne);
    b->mem = sudoku__alloc(run, b->bytes);
    if (b->mem == NULL) return SEARCH_ENOMEM;
    at = b->mem;
    sudoku__geom_build(run, at);
    off = geom;
    b->used = (uint64_t *)(void *)(at + off);
    off += SUDOKU__ALIGN(3 * (size_t)n * sizeof(uint64_t));
    b->val = (uint8_t *)(at + off);
    off += SUDOKU__ALIGN((size_t)nc);
    b->empty = (uint16_t *)(void *)(at + off);
    off += SUDOKU__ALIGN((size_t)b->ne * sizeof(uint16_t));
    b->unit = (uint8_t *)(at + off);
    off += SUDOKU__ALIGN((size_t)b->ne * 3);
    b->frames = (bt_frame_t *)(void *)(at + off);
    off += SUDOKU__ALIGN(((size_t)b->ne + 1) * sizeof(bt_frame_t));
    b->filled = (uint8_t *)(at + off);

    memset(b->used, 0, 3 * (size_t)n * sizeof(uint64_t));
    memset(b->filled, 0, (size_t)b->ne);
    memcpy(b->val, run->puzzle, (size_t)nc);
    for (c = 0; c < nc; c++) {
        const uint8_t *cu = run->cell_unit + (size_t)c * 3;
        int v = run->puzzle[c];
        if (v != 0) {
            for (k = 0; k < 3; k++)
                b->used[k * n + cu[k]] |= SUDOKU__BIT(v);
        } else {
            b->empty[e] = (uint16_t)c;
            for (k = 0; k < 3; k++)
                b->unit[e * 3 + k] = cu[k];
            e++;
        }
    }
    return 0;
}

static inline uint64_t bt_cands(const bt_t *b, int e) {
    const uint8_t *u = b->unit + (size_t)e * 3;
    return b->run->full & ~(b->used[u[0]] | b->used[b->n + u[1]] | b->used[2 * b->n + u[2]]);
}

static inline void bt_place(bt_t *b, int e, int v) {
    const uint8_t *u = b->unit + (size_t)e * 3;
    uint64_t bit = SUDOKU__BIT(v);
    b->used[u[0]] |= bit;
    b->used[b->n + u[1]] |= bit;
    b->used[2 * b->n + u[2]] |= bit;
    b->val[b->empty[e]] = (uint8_t)v;
}

static inline void bt_unplace(bt_t *b, int e, int v) {
    const uint8_t *u = b->unit + (size_t)e * 3;
    uint64_t bit = ~SUDOKU__BIT(v);
    b->used[u[0]] &= bit;
    b->used[b->n + u[1]] &= bit;
    b->used[2 * b->n + u[2]] &= bit;
    b->val[b->empty[e]] = 0;
}

/* Writes the full grid; returns 1 when max_solutions is reached. */
static int bt_solution(bt_t *b) {
    uint8_t *slot = sudoku__solution_slot(b->run);
    if (slot != NULL) memcpy(slot, b->val, (size_t)b->run->ncells);
    return sudoku__solution_done(b->run);
}

/* Values above v (bits v.. of a mask). */
static inline uint64_t above(int v) { return v >= 64 ? 0 : ~(uint64_t)0 << v; }

static int bt_search(bt_t *b) {
    sudoku__run_t *run = b->run;
    int d = 0, rc;
    b->frames[0].value = 0;
    for (;;) {
        uint64_t m;
        if (d == b->ne) {
            if (bt_solution(b)) return 0;
            goto back;
        }
    next:
        m = bt_cands(b, d) & above(b->frames[d].value);
        if (m != 0) {
            int v = sudoku__ctz(m) + 1;
            rc = sudoku__tick(run);
            if (rc != 0) return rc;
            b->frames[d].value = (uint8_t)v;
            bt_place(b, d, v);
            sudoku__step(run, SUDOKU_STEP_GUESS, b->empty[d], v);
            d++;
            sudoku__depth(run, (uint32_t)d);
            b->frames[d].value = 0;
            continue;
        }
    back:
        if (d == 0) {
            run->res->exhausted = 1;
            return 0;
        }
        d--;
        bt_unplace(b, d, b->frames[d].value);
        run->res->stats.backtracks++;
        sudoku__step(run, SUDOKU_STEP_BACKTRACK, b->empty[d], b->frames[d].value);
        goto next;
    }
}

/* mrv: index in empty[] of the unfilled cell with the fewest candidates, -1
 * if all are filled; *cands gets its candidates. */
static int mrv_pick(const bt_t *b, uint64_t *cands) {
    int e, best = -1, bestk = SUDOKU_MAX_N + 1;
    for (e = 0; e < b->ne; e++) {
        uint64_t m;
        int k;
        if (b->filled[e]) continue;
        m = bt_cands(b, e);
        k = sudoku__popcount(m);
        if (k < bestk) {
            best = e;
            bestk = k;
            *cands = m;
            if (k <= 1) break;
        }
    }
    return best;
}

/* Forward check after a placement in empty[e]: every unfilled cell sharing
 * a unit with it must keep a candidate.  Peers are walked through the
 * geometry tables and tested on val[] (0 = unfilled); their candidates are
 * recomputed from their own units' masks, O(1) each, O(3n) in all. */
static int mrv_forward_ok(const bt_t *b, int e) {
    const sudoku__run_t *run = b->run;
    const uint8_t *u = b->unit + (size_t)e * 3;
    int n = b->n, k, i;
    for (k = 0; k < 3; k++) {
        const uint16_t *uc = run->unit_cells + (size_t)(k * n + u[k]) * n;
        for (i = 0; i < n; i++) {
            int q = uc[i];
            const uint8_t *qu;
            if (b->val[q] != 0) continue;
            qu = run->cell_unit + (size_t)q * 3;
            if ((run->full & ~(b->used[qu[0]] | b->used[n + qu[1]] | b->used[2 * n + qu[2]])) == 0)
                return 0;
        }
    }
    return 1;
}

static int mrv_search(bt_t *b) {
    sudoku__run_t *run = b->run;
    int d = 0, rc;
    for (;;) {
        bt_frame_t *f;
        if (d == b->ne) {
            if (bt_solution(b)) return 0;
            goto back;
        } else {
            uint64_t m = 0;
            int e = mrv_pick(b, &m);
            f = &b->frames[d];
            f->cell = (uint16_t)e;
            f->left = m;
            f->value = 0;
        }
    next:
        f = &b->frames[d];
        while (f->left != 0) {
            int v = sudoku__ctz(f->left) + 1;
            f->left &= f->left - 1;
            rc = sudoku__tick(run);
            if (rc != 0) return rc;
            bt_place(b, f->cell, v);
            sudoku__step(run, SUDOKU_STEP_GUESS, b->empty[f->cell], v);
            if (mrv_forward_ok(b, f->cell)) {
                f->value = (uint8_t)v;
                b->filled[f->cell] = 1;
                d++;
                sudoku__depth(run, (uint32_t)d);
                break;
            }
            bt_unplace(b, f->cell, v);
            run->res->stats.backtracks++;
            sudoku__step(run, SUDOKU_STEP_BACKTRACK, b->empty[f->cell], v);
        }
        if (f->value != 0) continue;
    back:
        if (d == 0) {
            run->res->exhausted = 1;
            return 0;
        }
        d--;
        f = &b->frames[d];
        bt_unplace(b, f->cell, f->value);
        b->filled[f->cell] = 0;
        run->res->stats.backtracks++;
        sudoku__step(run, SUDOKU_STEP_BACKTRACK, b->empty[f->cell], f->value);
        f->value = 0;
        goto next;
    }
}

int sudoku__solve_backtracking(sudoku__run_t *run) {
    bt_t b;
    int rc = bt_setup(&b, run);
    if (rc != 0) return rc;
    rc = bt_search(&b);
    sudoku__free(run, b.mem, b.bytes);
    return rc;
}

int sudoku__solve_mrv(sudoku__run_t *run) {
    bt_t b;
    int rc = bt_setup(&b, run);
    if (rc != 0) return rc;
    rc = mrv_search(&b);
    sudoku__free(run, b.mem, b.bytes);
    return rc;
}
