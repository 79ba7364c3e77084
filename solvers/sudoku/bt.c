/* sudoku/bt.c -- the two propagation-free methods: plain backtracking and
 * mrv (minimum remaining values with forward checking).  They exist as
 * baselines a user can compare, so they do exactly what their names say and
 * nothing cleverer.
 *
 * Data (one arena per solve, sized before the search):
 *   used[nunits+1] uint64_t value masks of each unit (the last one a blank
 *                that pads unit lists)
 *   val[ncells]    uint8_t current grid (givens + placements), 0 = empty
 *   empty[E]       uint16_t the empty live cells, ascending
 *   unit[E][K]     uint16_t their units (copied from the geometry so the hot
 *                  loop reads one small array; K = the most units a cell
 *                  has: 3 on a classic grid, padded with the blank unit)
 *   allow[E]       uint64_t the values each may take (parity; all on a
 *                  classic grid)
 *   frames[E]      the choice stack: one entry per placed cell
 * Candidates are never stored: a cell's candidates are allow & ~(the used
 * masks of its units), narrowed by the pair rules of a model against the
 * placed partners; an O(K) check.
 *
 * backtracking: the empty cells are filled in row-major order, so the cell
 * at depth d is empty[d] and a frame only needs the last value tried there.
 * mrv: a frame holds the chosen cell and the values still to try; choosing
 * scans the unfilled cells (O(E) per node) for the fewest candidates, lowest
 * index on ties.  Forward checking: after placing v in c, every unfilled
 * cell of c's units and pairs must keep a candidate, else v is taken back
 * at once.
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
    int n, ne, k;    /* k: units per empty cell */
    uint64_t *used;  /* [nunits + 1] */
    uint8_t *val;    /* [ncells] */
    uint16_t *empty; /* [ne] */
    uint16_t *unit;  /* [ne][k] */
    uint64_t *allow; /* [ne] */
    bt_frame_t *frames;
    uint8_t *filled; /* mrv: [ne] 1 when placed */
    int16_t *slot;   /* mrv: [ncells] index in empty[], -1 for a filled or dead cell */
    void *mem;
    size_t bytes;
} bt_t;

/* The most units a live cell has. */
static int max_units(const sudoku__geom_t *g, int ncells) {
    int c, k, most = 0;
    for (c = 0; c < ncells; c++) {
        k = (int)(g->cstart[c + 1] - g->cstart[c]);
        if (k > most) most = k;
    }
    return most;
}

/* Allocates and loads the arena.  Returns 0 or SEARCH_ENOMEM. */
static int bt_setup(bt_t *b, sudoku__run_t *run) {
    int nc = run->ncells, c, j, e = 0, nu;
    size_t geom = sudoku__geom_bytes(run), off;
    char *at;

    memset(b, 0, sizeof *b);
    b->run = run;
    b->n = run->n;
    for (c = 0; c < nc; c++)
        b->ne += (run->puzzle[c] == 0 && sudoku__live(run, c));
    b->k = run->model != NULL ? max_units(&run->g, nc) : 3;
    if (b->k == 0) b->k = 1;
    nu = run->model != NULL ? run->model->nunits : 3 * run->n;
    b->bytes = geom + SUDOKU__ALIGN(((size_t)nu + 1) * sizeof(uint64_t)) +
               SUDOKU__ALIGN((size_t)nc) + SUDOKU__ALIGN((size_t)b->ne * sizeof(uint16_t)) +
               SUDOKU__ALIGN((size_t)b->ne * (size_t)b->k * sizeof(uint16_t)) +
               SUDOKU__ALIGN((size_t)b->ne * sizeof(uint64_t)) +
               SUDOKU__ALIGN(((size_t)b->ne + 1) * sizeof(bt_frame_t)) +
               SUDOKU__ALIGN((size_t)b->ne) + SUDOKU__ALIGN((size_t)nc * sizeof(int16_t));
    b->mem = sudoku__alloc(run, b->bytes);
    if (b->mem == NULL) return SEARCH_ENOMEM;
    at = b->mem;
    sudoku__geom_build(run, at);
    off = geom;
    b->used = (uint64_t *)(void *)(at + off);
    off += SUDOKU__ALIGN(((size_t)nu + 1) * sizeof(uint64_t));
    b->val = (uint8_t *)(at + off);
    off += SUDOKU__ALIGN((size_t)nc);
    b->empty = (uint16_t *)(void *)(at + off);
    off += SUDOKU__ALIGN((size_t)b->ne * sizeof(uint16_t));
    b->unit = (uint16_t *)(void *)(at + off);
    off += SUDOKU__ALIGN((size_t)b->ne * (size_t)b->k * sizeof(uint16_t));
    b->allow = (uint64_t *)(void *)(at + off);
    off += SUDOKU__ALIGN((size_t)b->ne * sizeof(uint64_t));
    b->frames = (bt_frame_t *)(void *)(at + off);
    off += SUDOKU__ALIGN(((size_t)b->ne + 1) * sizeof(bt_frame_t));
    b->filled = (uint8_t *)(at + off);
    off += SUDOKU__ALIGN((size_t)b->ne);
    b->slot = (int16_t *)(void *)(at + off);

    memset(b->used, 0, ((size_t)nu + 1) * sizeof(uint64_t));
    memset(b->filled, 0, (size_t)b->ne);
    memcpy(b->val, run->puzzle, (size_t)nc);
    for (c = 0; c < nc; c++) {
        int count, v = run->puzzle[c];
        const uint16_t *cu = sudoku__cell_units(&run->g, c, &count);
        b->slot[c] = -1;
        if (v != 0) {
            for (j = 0; j < count; j++)
                b->used[cu[j]] |= SUDOKU__BIT(v);
        } else if (sudoku__live(run, c)) {
            b->empty[e] = (uint16_t)c;
            b->slot[c] = (int16_t)e;
            b->allow[e] = run->g.allowed != NULL ? run->g.allowed[c] : run->full;
            for (j = 0; j < b->k; j++)
                b->unit[e * b->k + j] = (uint16_t)(j < count ? cu[j] : nu);
            e++;
        }
    }
    return 0;
}

/* Narrows m, the candidates of cell c, by the pair rules against c's
 * placed partners. */
static uint64_t pair_filter(const bt_t *b, int c, uint64_t m) {
    const sudoku__geom_t *g = &b->run->g;
    for (uint32_t k = g->astart[c]; k < g->astart[c + 1]; k++) {
        int w = b->val[g->adj[k] >> 8];
        uint64_t near;
        if (w == 0) continue;
        near = ((SUDOKU__BIT(w) << 1) | (SUDOKU__BIT(w) >> 1)) & b->run->full;
        m &= (g->adj[k] & 0xff) == SUDOKU_PAIR_CONSECUTIVE ? near : ~near;
    }
    return m;
}

/* The search functions below take `classic` as a constant and are
 * instantiated twice (always inlined into a classic and a model entry): a
 * classic grid's cell has exactly three units, every value allowed and no
 * pair rules, and its loops compile to what they were before units became
 * data (measured: mrv 7% slower on top95 through the general path). */
#define BT_INLINE static inline __attribute__((always_inline))

BT_INLINE uint64_t bt_cands(const bt_t *b, int e, const int classic) {
    const uint16_t *u = b->unit + (size_t)e * 3;
    uint64_t m, used = 0;
    if (classic) return b->run->full & ~(b->used[u[0]] | b->used[u[1]] | b->used[u[2]]);
    u = b->unit + (size_t)e * (size_t)b->k;
    for (int j = 0; j < b->k; j++)
        used |= b->used[u[j]];
    m = b->allow[e] & ~used;
    if (b->run->g.astart != NULL && m != 0) m = pair_filter(b, b->empty[e], m);
    return m;
}

BT_INLINE void bt_place(bt_t *b, int e, int v, const int classic) {
    const uint16_t *u = b->unit + (size_t)e * (size_t)b->k;
    uint64_t bit = SUDOKU__BIT(v);
    if (classic) {
        b->used[u[0]] |= bit;
        b->used[u[1]] |= bit;
        b->used[u[2]] |= bit;
    } else {
        for (int j = 0; j < b->k; j++)
            b->used[u[j]] |= bit;
        b->used[b->run->g.nunits] = 0; /* the blank unit stays blank */
    }
    b->val[b->empty[e]] = (uint8_t)v;
}

BT_INLINE void bt_unplace(bt_t *b, int e, int v, const int classic) {
    const uint16_t *u = b->unit + (size_t)e * (size_t)b->k;
    uint64_t bit = ~SUDOKU__BIT(v);
    if (classic) {
        b->used[u[0]] &= bit;
        b->used[u[1]] &= bit;
        b->used[u[2]] &= bit;
    } else {
        for (int j = 0; j < b->k; j++)
            b->used[u[j]] &= bit;
    }
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

BT_INLINE int bt_search(bt_t *b, const int classic) {
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
        m = bt_cands(b, d, classic) & above(b->frames[d].value);
        if (m != 0) {
            int v = sudoku__ctz(m) + 1;
            rc = sudoku__tick(run);
            if (rc != 0) return rc;
            b->frames[d].value = (uint8_t)v;
            bt_place(b, d, v, classic);
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
        bt_unplace(b, d, b->frames[d].value, classic);
        run->res->stats.backtracks++;
        sudoku__step(run, SUDOKU_STEP_BACKTRACK, b->empty[d], b->frames[d].value);
        goto next;
    }
}

/* mrv: index in empty[] of the unfilled cell with the fewest candidates, -1
 * if all are filled; *cands gets its candidates. */
BT_INLINE int mrv_pick(const bt_t *b, uint64_t *cands, const int classic) {
    int e, best = -1, bestk = SUDOKU_MAX_N + 1;
    for (e = 0; e < b->ne; e++) {
        uint64_t m;
        int k;
        if (b->filled[e]) continue;
        m = bt_cands(b, e, classic);
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

/* Forward check after a placement in empty[e]: every unfilled cell
 * sharing a unit or a pair rule with it must keep a candidate.  Peers are
 * walked through the geometry's unit tables and tested on val[] (0 =
 * unfilled); their candidates are recomputed from their own units' masks,
 * O(K) each, O(K n) in all. */
BT_INLINE int mrv_forward_ok(const bt_t *b, int e, const int classic) {
    const sudoku__geom_t *g = &b->run->g;
    const uint16_t *u = b->unit + (size_t)e * (size_t)b->k;
    int k, i, c = b->empty[e];
    for (k = 0; k < b->k; k++) {
        int len;
        const uint16_t *uc;
        if (!classic && u[k] == g->nunits) break; /* the blank unit pads the list */
        len = sudoku__unit_len(g, u[k]);
        uc = g->ucells + g->ustart[u[k]];
        for (i = 0; i < len; i++) {
            int q = uc[i];
            if (b->val[q] != 0) continue;
            if (bt_cands(b, b->slot[q], classic) == 0) return 0;
        }
    }
    if (!classic && g->astart != NULL)
        for (uint32_t j = g->astart[c]; j < g->astart[c + 1]; j++) {
            int q = (int)(g->adj[j] >> 8);
            if (b->val[q] == 0 && bt_cands(b, b->slot[q], classic) == 0) return 0;
        }
    return 1;
}

BT_INLINE int mrv_search(bt_t *b, const int classic) {
    sudoku__run_t *run = b->run;
    int d = 0, rc;
    for (;;) {
        bt_frame_t *f;
        if (d == b->ne) {
            if (bt_solution(b)) return 0;
            goto back;
        } else {
            uint64_t m = 0;
            int e = mrv_pick(b, &m, classic);
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
            bt_place(b, f->cell, v, classic);
            sudoku__step(run, SUDOKU_STEP_GUESS, b->empty[f->cell], v);
            if (mrv_forward_ok(b, f->cell, classic)) {
                f->value = (uint8_t)v;
                b->filled[f->cell] = 1;
                d++;
                sudoku__depth(run, (uint32_t)d);
                break;
            }
            bt_unplace(b, f->cell, v, classic);
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
        bt_unplace(b, f->cell, f->value, classic);
        b->filled[f->cell] = 0;
        run->res->stats.backtracks++;
        sudoku__step(run, SUDOKU_STEP_BACKTRACK, b->empty[f->cell], f->value);
        f->value = 0;
        goto next;
    }
}

/* The two instances of each search (see bt_cands). */
static int bt_search_classic(bt_t *b) { return bt_search(b, 1); }
static int bt_search_model(bt_t *b) { return bt_search(b, 0); }
static int mrv_search_classic(bt_t *b) { return mrv_search(b, 1); }
static int mrv_search_model(bt_t *b) { return mrv_search(b, 0); }

int sudoku__solve_backtracking(sudoku__run_t *run) {
    bt_t b;
    int rc = bt_setup(&b, run);
    if (rc != 0) return rc;
    rc = run->model == NULL ? bt_search_classic(&b) : bt_search_model(&b);
    sudoku__free(run, b.mem, b.bytes);
    return rc;
}

int sudoku__solve_mrv(sudoku__run_t *run) {
    bt_t b;
    int rc = bt_setup(&b, run);
    if (rc != 0) return rc;
    rc = run->model == NULL ? mrv_search_classic(&b) : mrv_search_model(&b);
    sudoku__free(run, b.mem, b.bytes);
    return rc;
}
