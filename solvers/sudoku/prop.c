/* sudoku/prop.c -- constraint propagation for Sudoku, and the depth-first
 * "propagation" method built on it.  best-first (sudoku/bestfirst.c) reuses
 * the engine.
 *
 * State (sudoku__prop_t, in one arena allocated before the search)
 * -----------------------------------------------------------------
 *   cand[ncells]   uint64_t candidate masks, value v = bit v-1; a decided
 *                  cell has exactly one bit.
 *   trail          parallel arrays tcell[] (uint16) / told[] (uint64): the
 *                  mask a cell had before each change, so a choice is undone
 *                  by popping back to a mark instead of copying the grid.
 *   queue[ncells]  cells that became single and still have to remove their
 *                  value from their peers.
 *   dirty[3]       units (one bit each, per kind) whose cells changed since
 *                  the hidden-single scan; dirty_hi[3] the same for the
 *                  naked-pair / subset scans.
 *
 * Memory bound: every trail entry removes at least one candidate bit from the
 * state on the current search path, and undo pops exactly the entries of
 * abandoned branches, so the trail never holds more entries than the total
 * candidate bits after the givens, B0 <= n^3 (262,144 at n = 64: 2.5 MiB at
 * 10 bytes an entry).  The search stack holds one 16-byte frame per open
 * choice; each choice decides a cell, so depth <= the number of empty cells.
 * Total arena for n = 64: < 3 MiB (an empty 64x64 grid is the worst case).
 * Copying the grid per level instead was rejected: 32 KiB a level times up
 * to 4,096 levels is 128 MiB at n = 64.
 *
 * Rules by level (cumulative):
 *   peers           a queued cell's value leaves its peers (row, column, and
 *                   the box cells outside both); a cell left with one
 *                   candidate is queued.
 *   hidden-singles  per dirty unit, one pass computes the values seen once
 *                   and twice; a value seen nowhere is a contradiction, a
 *                   value seen once in an undecided cell decides that cell.
 *   naked-pairs     two cells of a unit with the same two candidates remove
 *                   them from the rest of the unit.
 *   subsets         naked subsets (k cells whose candidates number k) and
 *                   hidden subsets (k values that fit only k cells) for
 *                   k = 2..4, by nested loops pruned as soon as a union has
 *                   more than 4 bits.  Subsumes naked-pairs.
 * Each rule runs only when the cheaper ones have nothing left to do.  Rules
 * read masks that may have shrunk since they were gathered; every deduction
 * stays sound because candidate sets only shrink (a stale union is a
 * superset of the true one).
 *
 * Search: binary branching.  On the undecided cell with the fewest
 * candidates (lowest index on ties) try its lowest value v; when the subtree
 * of c = v is finished (failed or enumerated), undo it and remove v from c at
 * the parent level, then propagate again, so a refuted value also prunes.
 * The two subtrees are disjoint, so counting stays exact.
 *
 * Thread-safety: all state is in the arena of one solve. */
#include <string.h>

#include "solvers/sudoku/internal.h"

/* === Engine ============================================================= */

typedef struct frame_s {
    size_t mark;      /* trail length before the choice */
    uint32_t decided; /* decided count before the choice */
    uint16_t cell;
    uint8_t value;
} frame_t;

size_t sudoku__prop_bytes(int n, size_t trail) {
    size_t nc = (size_t)n * n;
    return SUDOKU__ALIGN(nc * sizeof(uint64_t)) + SUDOKU__ALIGN(nc * sizeof(uint16_t)) +
           SUDOKU__ALIGN(trail * sizeof(uint64_t)) + SUDOKU__ALIGN(trail * sizeof(uint16_t));
}

/* Masks of the values the givens use in each row, column and box. */
static void used_masks(const sudoku__run_t *run, uint64_t *rows, uint64_t *cols, uint64_t *boxes) {
    int n = run->n, r, c;
    memset(rows, 0, sizeof(uint64_t) * (size_t)n);
    memset(cols, 0, sizeof(uint64_t) * (size_t)n);
    memset(boxes, 0, sizeof(uint64_t) * (size_t)n);
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++) {
            int v = run->puzzle[r * n + c];
            if (v == 0) continue;
            rows[r] |= SUDOKU__BIT(v);
            cols[c] |= SUDOKU__BIT(v);
            boxes[sudoku_box_of(run->shape, r, c)] |= SUDOKU__BIT(v);
        }
}

int sudoku__prop_count(const sudoku__run_t *run, size_t *bits) {
    uint64_t rows[SUDOKU_MAX_N], cols[SUDOKU_MAX_N], boxes[SUDOKU_MAX_N];
    int n = run->n, r, c;
    size_t total = 0;
    used_masks(run, rows, cols, boxes);
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++) {
            uint64_t m;
            if (run->puzzle[r * n + c] != 0) {
                total++;
                continue;
            }
            m = run->full & ~(rows[r] | cols[c] | boxes[sudoku_box_of(run->shape, r, c)]);
            if (m == 0) return -1;
            total += (size_t)sudoku__popcount(m);
        }
    *bits = total;
    return 0;
}

void sudoku__prop_init(sudoku__prop_t *p, sudoku__run_t *run, void *mem, size_t trail) {
    uint64_t rows[SUDOKU_MAX_N], cols[SUDOKU_MAX_N], boxes[SUDOKU_MAX_N];
    int n = run->n, nc = run->ncells, r, c;
    char *at = mem;

    memset(p, 0, sizeof *p);
    p->run = run;
    p->n = n;
    p->ncells = nc;
    p->level = run->level;
    p->full = run->full;
    p->box_rows = run->shape->box_rows;
    p->box_cols = run->shape->box_cols;
    p->cand = (uint64_t *)at;
    at += SUDOKU__ALIGN((size_t)nc * sizeof(uint64_t));
    p->queue = (uint16_t *)at;
    at += SUDOKU__ALIGN((size_t)nc * sizeof(uint16_t));
    p->told = (uint64_t *)at;
    at += SUDOKU__ALIGN(trail * sizeof(uint64_t));
    p->tcell = (uint16_t *)at;
    p->tcap = trail;

    used_masks(run, rows, cols, boxes);
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++) {
            int cell = r * n + c, v = run->puzzle[cell];
            uint64_t m;
            if (v != 0) {
                p->cand[cell] = SUDOKU__BIT(v);
                p->decided++;
                continue;
            }
            m = run->full & ~(rows[r] | cols[c] | boxes[sudoku_box_of(run->shape, r, c)]);
            p->cand[cell] = m;
            if ((m & (m - 1)) == 0) { /* m != 0: sudoku__prop_count() checked */
                p->decided++;
                p->queue[p->qtail++] = (uint16_t)cell;
                sudoku__step(run, SUDOKU_STEP_ASSIGN, cell, sudoku__ctz(m) + 1);
            }
        }
    p->dirty[0] = p->dirty[1] = p->dirty[2] = run->full;
    p->dirty_hi[0] = p->dirty_hi[1] = p->dirty_hi[2] = run->full;
}

static inline void mark_dirty(sudoku__prop_t *p, int cell) {
    const uint8_t *cu = p->run->cell_unit + (size_t)cell * 3;
    p->dirty[0] |= (uint64_t)1 << cu[0];
    p->dirty[1] |= (uint64_t)1 << cu[1];
    p->dirty[2] |= (uint64_t)1 << cu[2];
}

static inline void trail_push(sudoku__prop_t *p, int cell, uint64_t old) {
    assert(p->tlen < p->tcap);
    p->tcell[p->tlen] = (uint16_t)cell;
    p->told[p->tlen] = old;
    p->tlen++;
}

/* Removes `hit` (nonzero, a subset of cand[cell]) from cell.  Returns -1 if
 * nothing is left; queues the cell if one value is. */
static int elim_hit(sudoku__prop_t *p, int cell, uint64_t hit) {
    uint64_t m = p->cand[cell];
    trail_push(p, cell, m);
    m ^= hit;
    p->cand[cell] = m;
    p->run->res->stats.propagations += (uint64_t)sudoku__popcount(hit);
    mark_dirty(p, cell);
    if (p->run->trace != NULL)
        for (; hit != 0; hit &= hit - 1)
            sudoku__step(p->run, SUDOKU_STEP_ELIMINATE, cell, sudoku__ctz(hit) + 1);
    if (m == 0) return -1;
    if ((m & (m - 1)) == 0) {
        p->decided++;
        p->queue[p->qtail++] = (uint16_t)cell;
        sudoku__step(p->run, SUDOKU_STEP_ASSIGN, cell, sudoku__ctz(m) + 1);
    }
    return 0;
}

static inline int elim(sudoku__prop_t *p, int cell, uint64_t bits) {
    uint64_t hit = p->cand[cell] & bits;
    return hit != 0 ? elim_hit(p, cell, hit) : 0;
}

/* Decides cell = bit by inference (hidden single or hidden subset of one). */
static int force(sudoku__prop_t *p, int cell, uint64_t bit) {
    uint64_t m = p->cand[cell];
    if (m == bit) return 0;
    if ((m & bit) == 0) return -1;
    trail_push(p, cell, m);
    p->cand[cell] = bit;
    p->run->res->stats.propagations++;
    mark_dirty(p, cell);
    p->decided++;
    p->queue[p->qtail++] = (uint16_t)cell;
    sudoku__step(p->run, SUDOKU_STEP_ASSIGN, cell, sudoku__ctz(bit) + 1);
    return 0;
}

/* The value of decided `cell` leaves its peers: its row, its column, and the
 * cells of its box outside both, by arithmetic on (row, column) rather than
 * through unit_cells, so no peer is visited twice (20 visits instead of 27
 * at 9x9; docs/sudoku-tuning.md has what it saved). */
static int spread(sudoku__prop_t *p, int cell) {
    uint64_t b = p->cand[cell];
    int n = p->n, r = cell / n, c = cell % n, i, j;
    int r0 = r - r % p->box_rows, c0 = c - c % p->box_cols;
    for (j = r * n; j < r * n + n; j++)
        if ((p->cand[j] & b) != 0 && j != cell && elim_hit(p, j, b) < 0) return -1;
    for (j = c; j < p->ncells; j += n)
        if ((p->cand[j] & b) != 0 && j != cell && elim_hit(p, j, b) < 0) return -1;
    for (i = r0; i < r0 + p->box_rows; i++) {
        if (i == r) continue;
        for (j = i * n + c0; j < i * n + c0 + p->box_cols; j++)
            if ((p->cand[j] & b) != 0 && j != i * n + c && elim_hit(p, j, b) < 0) return -1;
    }
    return 0;
}

static int hidden_unit(sudoku__prop_t *p, const uint16_t *uc) {
    uint64_t once = 0, twice = 0, dec = 0, h;
    int n = p->n, i;
    for (i = 0; i < n; i++) {
        uint64_t m = p->cand[uc[i]];
        twice |= once & m;
        once |= m;
        if ((m & (m - 1)) == 0) dec |= m;
    }
    if (once != p->full) return -1;
    for (h = once & ~twice & ~dec; h != 0; h &= h - 1) {
        uint64_t bit = h & (~h + 1);
        for (i = 0; i < n; i++)
            if (p->cand[uc[i]] & bit) break;
        /* gone: the cell took another value hidden in it -> contradiction */
        if (i == n || force(p, uc[i], bit) < 0) return -1;
    }
    return 0;
}

static int pairs_unit(sudoku__prop_t *p, const uint16_t *uc, int *changed) {
    uint64_t pm[SUDOKU_MAX_N];
    int pi[SUDOKU_MAX_N], k = 0, n = p->n, a, b, i;
    size_t before = p->tlen;
    for (i = 0; i < n; i++) {
        uint64_t m = p->cand[uc[i]];
        if (sudoku__popcount(m) == 2) {
            pm[k] = m;
            pi[k++] = i;
        }
    }
    for (a = 0; a < k; a++)
        for (b = a + 1; b < k; b++) {
            if (pm[a] != pm[b]) continue;
            for (i = 0; i < n; i++)
                if (i != pi[a] && i != pi[b] && elim(p, uc[i], pm[a]) < 0) return -1;
        }
    if (p->tlen != before) *changed = 1;
    return 0;
}

/* Naked (mode 0) or hidden (mode 1) subset found: `un` is the union of the
 * chosen elements' masks, `keys` the chosen elements (naked: cell positions
 * in the unit; hidden: value bits).  `live` = positions of undecided cells. */
static int subset_apply(sudoku__prop_t *p, const uint16_t *uc, int mode, uint64_t un, uint64_t keys,
                        uint64_t live) {
    uint64_t s;
    if (mode == 0) { /* cells `keys` hold exactly values `un`: others lose them */
        for (s = live & ~keys; s != 0; s &= s - 1)
            if (elim(p, uc[sudoku__ctz(s)], un) < 0) return -1;
    } else { /* values `keys` fit only cells `un`: those lose other values */
        for (s = un; s != 0; s &= s - 1)
            if (elim(p, uc[sudoku__ctz(s)], p->full & ~keys) < 0) return -1;
    }
    return 0;
}

/* Subsets of 2..4 of the elements m[0..k-1] (key[]) whose union has as many
 * bits as elements; fewer bits is a contradiction. */
static int subset_search(sudoku__prop_t *p, const uint16_t *uc, int mode, const uint64_t *m,
                         const uint64_t *key, int k, uint64_t live) {
    int a, b, c, d;
    for (a = 0; a < k; a++)
        for (b = a + 1; b < k; b++) {
            uint64_t ub = m[a] | m[b];
            int pb = sudoku__popcount(ub);
            if (pb > 4) continue;
            if (pb < 2) return -1;
            if (pb == 2 && subset_apply(p, uc, mode, ub, key[a] | key[b], live) < 0) return -1;
            for (c = b + 1; c < k; c++) {
                uint64_t ucm = ub | m[c];
                int pc = sudoku__popcount(ucm);
                if (pc > 4) continue;
                if (pc < 3) return -1;
                if (pc == 3 && subset_apply(p, uc, mode, ucm, key[a] | key[b] | key[c], live) < 0)
                    return -1;
                for (d = c + 1; d < k; d++) {
                    uint64_t ud = ucm | m[d];
                    int pd = sudoku__popcount(ud);
                    if (pd > 4) continue;
                    if (pd < 4) return -1;
                    if (subset_apply(p, uc, mode, ud, key[a] | key[b] | key[c] | key[d], live) < 0)
                        return -1;
                }
            }
        }
    return 0;
}

static int subsets_unit(sudoku__prop_t *p, const uint16_t *uc, int *changed) {
    uint64_t m[SUDOKU_MAX_N], key[SUDOKU_MAX_N];
    uint64_t live = 0, dec = 0, b0 = 0, b1 = 0, b2 = 0, over = 0, vals;
    int n = p->n, k = 0, i;
    size_t before = p->tlen;

    /* one pass: the undecided cells with 2..4 candidates (naked subset
     * elements), and a bit-sliced count of each value's places, saturating
     * at 8, so the values with at most 4 places are known without building
     * every value's position mask (that transposition, O(n^2) a unit, made
     * this level 6-10x slower on nearly empty grids) */
    for (i = 0; i < n; i++) {
        uint64_t cm = p->cand[uc[i]], c0, c1;
        if ((cm & (cm - 1)) == 0) {
            dec |= cm;
            continue;
        }
        live |= (uint64_t)1 << i;
        c0 = b0 & cm;
        b0 ^= cm;
        c1 = b1 & c0;
        b1 ^= c0;
        over |= b2 & c1;
        b2 ^= c1;
        if (sudoku__popcount(cm) <= 4) {
            m[k] = cm;
            key[k++] = (uint64_t)1 << i;
        }
    }
    if (sudoku__popcount(live) < 3) return 0; /* nothing a subset could remove */
    if (subset_search(p, uc, 0, m, key, k, live) < 0) return -1;
    /* hidden: values with 2..4 places (0 or 1 place is the single scan's) */
    k = 0;
    for (vals = p->full & ~dec & ~over & (~b2 | ~(b1 | b0)) & (b1 | b2); vals != 0;
         vals &= vals - 1) {
        uint64_t bit = vals & (~vals + 1), pos = 0, s;
        for (s = live; s != 0; s &= s - 1)
            if (p->cand[uc[sudoku__ctz(s)]] & bit) pos |= s & (~s + 1);
        m[k] = pos;
        key[k++] = bit;
    }
    if (subset_search(p, uc, 1, m, key, k, live) < 0) return -1;
    if (p->tlen != before) *changed = 1;
    return 0;
}

int sudoku__prop_run(sudoku__prop_t *p) {
    const uint16_t *units = p->run->unit_cells;
    int n = p->n;
    for (;;) {
        uint64_t d[3];
        int k, changed = 0;
        while (p->qhead < p->qtail)
            if (spread(p, p->queue[p->qhead++]) < 0) return -1;
        if (p->level < SUDOKU_LEVEL_HIDDEN_SINGLES) break;
        if ((p->dirty[0] | p->dirty[1] | p->dirty[2]) != 0) {
            for (k = 0; k < 3; k++) {
                d[k] = p->dirty[k];
                p->dirty[k] = 0;
                p->dirty_hi[k] |= d[k];
            }
            for (k = 0; k < 3; k++)
                for (; d[k] != 0; d[k] &= d[k] - 1) {
                    const uint16_t *uc = units + (size_t)(k * n + sudoku__ctz(d[k])) * n;
                    if (hidden_unit(p, uc) < 0) return -1;
                }
            /* hidden singles only ever queue cells: an empty queue means
             * nothing changed */
            if (p->qhead < p->qtail) continue;
        }
        if (p->level < SUDOKU_LEVEL_NAKED_PAIRS) break;
        if ((p->dirty_hi[0] | p->dirty_hi[1] | p->dirty_hi[2]) == 0) break;
        for (k = 0; k < 3; k++) {
            d[k] = p->dirty_hi[k];
            p->dirty_hi[k] = 0;
        }
        for (k = 0; k < 3; k++)
            for (; d[k] != 0; d[k] &= d[k] - 1) {
                const uint16_t *uc = units + (size_t)(k * n + sudoku__ctz(d[k])) * n;
                int rc = (p->level == SUDOKU_LEVEL_NAKED_PAIRS) ? pairs_unit(p, uc, &changed)
                                                                : subsets_unit(p, uc, &changed);
                if (rc < 0) return -1;
            }
        if (!changed) break;
    }
    p->dirty[0] = p->dirty[1] = p->dirty[2] = 0;
    return 0;
}

void sudoku__prop_guess(sudoku__prop_t *p, int cell, int value) {
    uint64_t m = p->cand[cell];
    assert((m & (m - 1)) != 0 && (m & SUDOKU__BIT(value)) != 0);
    trail_push(p, cell, m);
    p->cand[cell] = SUDOKU__BIT(value);
    mark_dirty(p, cell);
    p->decided++;
    p->queue[p->qtail++] = (uint16_t)cell;
    sudoku__step(p->run, SUDOKU_STEP_GUESS, cell, value);
}

int sudoku__prop_refute(sudoku__prop_t *p, int cell, int value) {
    return elim(p, cell, SUDOKU__BIT(value));
}

void sudoku__prop_undo(sudoku__prop_t *p, size_t mark, uint32_t decided) {
    while (p->tlen > mark) {
        p->tlen--;
        p->cand[p->tcell[p->tlen]] = p->told[p->tlen];
    }
    p->decided = decided;
    p->qhead = p->qtail = 0;
    p->dirty[0] = p->dirty[1] = p->dirty[2] = 0;
    p->dirty_hi[0] = p->dirty_hi[1] = p->dirty_hi[2] = 0;
}

int sudoku__prop_pick(const sudoku__prop_t *p) {
    int best = -1, bestk = SUDOKU_MAX_N + 1, c;
    for (c = 0; c < p->ncells; c++) {
        uint64_t m = p->cand[c];
        if ((m & (m - 1)) != 0) {
            int k = sudoku__popcount(m);
            if (k < bestk) {
                bestk = k;
                best = c;
                if (k == 2) break;
            }
        }
    }
    return best;
}

void sudoku__prop_extract(const sudoku__prop_t *p, uint8_t *out) {
    int c;
    for (c = 0; c < p->ncells; c++)
        out[c] = (uint8_t)(sudoku__ctz(p->cand[c]) + 1);
}

/* === The propagation method ============================================= */

/* Records the decided grid; returns 1 when max_solutions is reached. */
static int take_solution(sudoku__prop_t *p) {
    uint8_t *slot = sudoku__solution_slot(p->run);
    if (slot != NULL) sudoku__prop_extract(p, slot);
    return sudoku__solution_done(p->run);
}

static int search(sudoku__prop_t *p, frame_t *stack) {
    sudoku__run_t *run = p->run;
    uint32_t depth = 0;
    int dead = sudoku__prop_run(p) < 0, rc;

    for (;;) {
        if (!dead) {
            if (p->decided == (uint32_t)p->ncells) {
                if (take_solution(p)) {
                    run->res->exhausted = (depth == 0);
                    return 0;
                }
            } else {
                int cell = sudoku__prop_pick(p);
                int value = sudoku__ctz(p->cand[cell]) + 1;
                frame_t *f = &stack[depth];
                rc = sudoku__tick(run);
                if (rc != 0) return rc;
                f->mark = p->tlen;
                f->decided = p->decided;
                f->cell = (uint16_t)cell;
                f->value = (uint8_t)value;
                sudoku__depth(run, ++depth);
                sudoku__prop_guess(p, cell, value);
                dead = sudoku__prop_run(p) < 0;
                continue;
            }
        }
        /* the current subtree is done: refute its choice at the parent */
        for (;;) {
            const frame_t *f;
            if (depth == 0) {
                run->res->exhausted = 1;
                return 0;
            }
            f = &stack[--depth];
            sudoku__prop_undo(p, f->mark, f->decided);
            run->res->stats.backtracks++;
            sudoku__step(run, SUDOKU_STEP_BACKTRACK, f->cell, f->value);
            if (sudoku__prop_refute(p, f->cell, f->value) == 0 && sudoku__prop_run(p) == 0) break;
        }
        dead = 0;
    }
}

int sudoku__solve_propagation(sudoku__run_t *run) {
    sudoku__prop_t p;
    size_t bits, geom, prop, bytes;
    uint32_t empties = 0;
    char *mem;
    int c, rc;

    if (sudoku__prop_count(run, &bits) < 0) { /* an empty cell has no candidate */
        run->res->exhausted = 1;
        return 0;
    }
    for (c = 0; c < run->ncells; c++)
        empties += (run->puzzle[c] == 0);
    geom = sudoku__geom_bytes(run->n);
    prop = sudoku__prop_bytes(run->n, bits);
    bytes = geom + prop + SUDOKU__ALIGN((size_t)(empties + 1) * sizeof(frame_t));
    mem = sudoku__alloc(run, bytes);
    if (mem == NULL) return SEARCH_ENOMEM;
    sudoku__geom_build(run, mem);
    sudoku__prop_init(&p, run, mem + geom, bits);
    rc = search(&p, (frame_t *)(void *)(mem + geom + prop));
    sudoku__free(run, mem, bytes);
    return rc;
}
