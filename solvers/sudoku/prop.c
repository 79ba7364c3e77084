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
 *   dirty[]        units (bit u of a bitset over the geometry's units)
 *                  whose cells changed since the hidden-single scan;
 *                  dirty_hi[] the same for the naked-pair / subset scans.
 *   pq[ncells]     a ring of cells with pair rules (models) whose
 *                  candidates changed; inpq[] says who is in it.
 *
 * Geometry (internal.h): a classic grid's peers are reached by arithmetic
 * on its rows and boxes, a model's through its peer lists; units come from
 * the tables either way, scanned in unit order (rows, columns, boxes on a
 * classic grid: the order this engine has always used, so its node counts
 * did not move when the units became data).  A unit of fewer than n cells
 * (a diagonal of a Samurai's corner... any unit a model lists that is not
 * exact) holds each value at most once: the peers rule and naked subsets
 * apply to it, hidden singles and hidden subsets need an exact unit.  A
 * model's hole is a cell decided as 1 that belongs to no unit and no pair:
 * nothing reads it but the count of decided cells and the extraction,
 * which writes 0 there.
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
 *                   A model with line rules (up to 16 values) adds locked
 *                   candidates: a value that an exact unit holds only where
 *                   it meets another leaves the other's rest (lock_pass,
 *                   over the unit pairs sharing two or more cells, listed
 *                   once by lock_build).
 *   naked-pairs     two cells of a unit with the same two candidates remove
 *                   them from the rest of the unit.
 *   subsets         naked subsets (k cells whose candidates number k) and
 *                   hidden subsets (k values that fit only k cells) for
 *                   k = 2..4, by nested loops pruned as soon as a union has
 *                   more than 4 bits.  Subsumes naked-pairs.
 * Pair rules (models; at every level, like the peers rule): a pair's two
 * cells are kept arc-consistent: a consecutive mark leaves each cell the
 * values next to one of the other's, a non-consecutive pair takes from a
 * cell the values next to every one of the other's (which needs the other
 * to have one value, or two that are two apart).
 * Line rules (models; at every level, after the pair rules): each line is
 * kept "relaxed arc-consistent": a value stays in a cell when some choice
 * of candidates for the line's other cells keeps the rule, repeats allowed
 * (so the check ignores the units the line crosses, which the other rules
 * look after).  Both are a forward and a backward table over the line:
 *   sum, cage   the partial sums reachable after i cells (a bitset of
 *               0..total), and those from which the rest can still reach
 *               the total; v stays in cell i when some reachable s has
 *               s + v in the next backward set.  A cage's cells are also
 *               a unit (the model made it one), which the other rules
 *               keep: the sum table alone does not know they differ, so
 *               a cage then looks at the sets of distinct values its open
 *               cells can take (cage_sets: up to CAGE_SETS_MAX of them).
 *   skyscraper  states (seen so far j, tallest so far m) as a mask of m per
 *               j (as ISS's handler keeps them); v seen when v > m.
 *   equal sums  a group of segments: the totals every segment's sum table
 *               can reach, then each segment's sum pruned to those (see
 *               line_eqsum).
 * Where the cells of a line share units the relaxation is tightened
 * (sum_groups cuts sum, arrow, sandwich and skyscraper lines once into
 * groups of cells sharing a unit, largest first): a sum's or an arrow's
 * groups make at least the k smallest and at most the k largest of their
 * candidates (sum_distinct); a sandwich in one unit is tried per place of
 * its 1 and n (sandwich_pairs) and per set of values its gap can hold, the
 * cells outside keeping none of the set's values (sandwich_sets, from a
 * table of the sets by total and size up to 16x16); a skyscraper over a whole row keeps what a
 * permutation reaches.  Each stays sound: only values no assignment with
 * distinct values in each group supports go.
 * Cost per look: len * n candidate shifts of total/64 + 1 words (sum), a
 * few word operations per cell and count up to the clue (skyscraper: 27 at
 * 9x9 with clue 3).  A full line is checked
 * exactly (its tables hold single values), so a decided grid keeps every
 * line.  A line is queued when one of its cells loses a value.
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
 * A model with line rules (model->nrules: not only cages without a total)
 * branches by conflict scores instead (the history
 * heuristic of sigh's Interactive Sudoku Solver): each cell has a score,
 * at first the cells of every unit and line it lies in; a choice on a cell
 * that propagation refutes -- the guess c = v, or the refutation c != v
 * left with no consistent value -- adds one; every SUDOKU__SCORE_DECAY
 * conflicts all scores halve.  The pick is the undecided cell with the
 * largest score / candidates; when it has more than two candidates, a value
 * with two places left in an exact unit may be decided instead, at the
 * place that fails most, if half its score beats the cell's score per
 * candidate (ISS's "required value" branch: two ways instead of k).
 * Lines make plain fewest-candidates blind:
 * a setter's puzzle breaks where its lines cross, and the cells whose
 * choices keep failing are those.  Measured on ISS's examples (docs/
 * constraints.md): Raw Spaghetti 228,925 -> 377 nodes; the anti-consecutive
 * grid (pairs everywhere, no line stands out) is the one that got worse.
 *
 * Thread-safety: all state is in the arena of one solve. */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "solvers/sudoku/internal.h"

/* === Engine ============================================================= */

typedef struct frame_s {
    size_t mark;      /* trail length before the choice */
    uint32_t decided; /* decided count before the choice */
    uint16_t cell;
    uint8_t value;
} frame_t;

/* Words of one of a line's DP tables' rows: the skyscraper's clue masks,
 * the sum's bitset of 0..total, the arrow's of 0..its line's most; one for
 * the kinds without tables. */
static size_t line_row_words(const sudoku_line_t *ln, int n) {
    switch (ln->kind) {
    case SUDOKU_LINE_SKYSCRAPER: return (size_t)ln->value; /* one mask per count seen */
    case SUDOKU_LINE_SUM:
    case SUDOKU_LINE_CAGE: return (size_t)ln->value / 64 + 1;
    case SUDOKU_LINE_ARROW:
        return ((size_t)ln->len - (size_t)(ln->value & 0xff)) * (size_t)n / 64 + 1;
    case SUDOKU_LINE_XSUM:
    case SUDOKU_LINE_SEGSUM:
    case SUDOKU_LINE_SEGLOOP: return (size_t)ln->value / 64 + 1;
    case SUDOKU_LINE_EQSUM: return (size_t)ln->len * (size_t)n / 64 + 1;
    case SUDOKU_LINE_SANDWICH: return 2 * ((size_t)ln->value / 64 + 1) + 1;
    default: return 1;
    }
}

/* Words of the scratch of the equal-sum group that line k is the first
 * of: every segment's forward table, kept from one pass to the next, and
 * one backward table for the largest ((len + 1) rows each). */
static size_t eqsum_words(const sudoku_model_t *m, int k) {
    size_t all = 0, most = 0;
    for (int j = k; j < k + m->lines[k].value; j++) {
        size_t t = ((size_t)m->lines[j].len + 1) * line_row_words(&m->lines[j], m->n);
        all += t;
        if (t > most) most = t;
    }
    return all + most;
}

/* Bytes of the line state: the queue, the flags, and the scratch for the
 * largest line's two tables ((len + 1) rows each), or a group's. */
/* Two exact units that share two or more cells (a row and a box, ...):
 * cells[off ..) lists the shared ones (ni), then those of a alone (na),
 * then those of b alone (nb). */
typedef struct sudoku__lock_s {
    uint32_t off;
    uint16_t ni, na, nb;
} sudoku__lock_t;

/* Whether exact unit u of model m has n cells. */
static int lock_unit(const sudoku_model_t *m, int u) {
    return (int)(m->unit_start[u + 1] - m->unit_start[u]) == m->n;
}

/* Whether cell c lies in model unit u (c's units ascending). */
static int model_in_unit(const sudoku_model_t *m, int c, int u) {
    for (uint32_t k = m->cell_start[c]; k < m->cell_start[c + 1]; k++)
        if (m->cell_units[k] == u) return 1;
    return 0;
}

/* Bytes of the lock table for model m: every pair found by lock_build()
 * fits (a unit's cells see at most n x (units a cell has) other units).
 * 0 -- no locks -- past 16 values, where the table would grow too big for
 * what it buys, and without line rules (the classic engines' ground). */
static size_t lock_bytes(const sudoku_model_t *m, size_t *maxpairs) {
    size_t most = 0, per = 0;
    *maxpairs = 0;
    if (m == NULL || m->nrules == 0 || m->n > 16) return 0;
    for (int c = 0; c < m->ncells; c++) {
        size_t k = m->cell_start[c + 1] - m->cell_start[c];
        if (k > per) per = k;
    }
    for (int u = 0; u < m->nunits; u++)
        most += lock_unit(m, u) ? (size_t)m->n * per : 0;
    *maxpairs = most;
    return SUDOKU__ALIGN(most * sizeof(sudoku__lock_t)) +
           SUDOKU__ALIGN(most * 2 * (size_t)m->n * sizeof(uint16_t)) +
           SUDOKU__ALIGN((size_t)m->nunits * sizeof(uint32_t));
}

/* Finds the pairs of exact units that share two or more cells, into
 * p->locks / p->lock_cells (mem: lock_bytes(m) bytes). */
static void lock_build(sudoku__prop_t *p, const sudoku_model_t *m, char *mem, size_t maxpairs) {
    uint32_t *seen, at = 0;
    uint16_t *cells;
    p->locks = (sudoku__lock_t *)(void *)mem;
    mem += SUDOKU__ALIGN(maxpairs * sizeof(sudoku__lock_t));
    cells = p->lock_cells = (uint16_t *)(void *)mem;
    mem += SUDOKU__ALIGN(maxpairs * 2 * (size_t)m->n * sizeof(uint16_t));
    seen = (uint32_t *)(void *)mem; /* seen[b] == a + 1: b already paired with a */
    memset(seen, 0, (size_t)m->nunits * sizeof(uint32_t));
    p->nlocks = 0;
    for (int a = 0; a < m->nunits; a++) {
        if (!lock_unit(m, a)) continue;
        for (uint32_t i = m->unit_start[a]; i < m->unit_start[a + 1]; i++) {
            int c = m->unit_cells[i];
            for (uint32_t k = m->cell_start[c]; k < m->cell_start[c + 1]; k++) {
                int b = m->cell_units[k], shared = 0;
                sudoku__lock_t *l;
                if (b <= a || seen[b] == (uint32_t)a + 1 || !lock_unit(m, b)) continue;
                seen[b] = (uint32_t)a + 1;
                for (uint32_t j = m->unit_start[a]; j < m->unit_start[a + 1]; j++)
                    shared += model_in_unit(m, m->unit_cells[j], b);
                if (shared < 2) continue;
                l = &p->locks[p->nlocks++];
                l->off = at;
                l->ni = l->na = l->nb = 0;
                for (uint32_t j = m->unit_start[a]; j < m->unit_start[a + 1]; j++)
                    if (model_in_unit(m, m->unit_cells[j], b))
                        cells[at++] = m->unit_cells[j], l->ni++;
                for (uint32_t j = m->unit_start[a]; j < m->unit_start[a + 1]; j++)
                    if (!model_in_unit(m, m->unit_cells[j], b))
                        cells[at++] = m->unit_cells[j], l->na++;
                for (uint32_t j = m->unit_start[b]; j < m->unit_start[b + 1]; j++)
                    if (!model_in_unit(m, m->unit_cells[j], a))
                        cells[at++] = m->unit_cells[j], l->nb++;
            }
        }
    }
}

/* Open-addressing counts of units (sum_groups' scratch): a line's cells
 * touch at most SUDOKU_LINE_MAX_CELLS x (units a cell has) units, well
 * under the table's size for the grids a model can make. */
#define GROUP_SLOTS 4096
typedef struct group_count_s {
    uint16_t key[GROUP_SLOTS]; /* unit + 1; 0 free */
    uint16_t count[GROUP_SLOTS];
    uint16_t used[GROUP_SLOTS]; /* slots taken, to clear them */
    int nused;
} group_count_t;

/* Cells over all of a model's lines. */
static size_t line_cells(const sudoku_model_t *m) {
    size_t total = 0;
    for (int k = 0; k < m->nlines; k++)
        total += m->lines[k].len;
    return total;
}

/* The sandwich set table (sand_build): every set of the values 2..n-1,
 * by total and size, for models with a sandwich and n <= 16 (2^14 sets
 * and 32 KiB at 16); 0 bytes for the others. */
#define SAND_MAX_N 16
static size_t sand_sums(int n) { return (size_t)n * (size_t)(n - 1) / 2; } /* totals 0..this-1 */
static size_t sand_bytes(const sudoku_model_t *m) {
    int k, n = m->n;
    for (k = 0; k < m->nlines && m->lines[k].kind != SUDOKU_LINE_SANDWICH; k++)
        ;
    if (k == m->nlines || n < 3 || n > SAND_MAX_N) return 0;
    return SUDOKU__ALIGN(((size_t)1 << (n - 2)) * sizeof(uint16_t)) +
           SUDOKU__ALIGN((sand_sums(n) * (size_t)(n - 1) + 1) * sizeof(uint32_t));
}

/* Fills the table: sets[at[s * (n - 1) + k] .. at[s * (n - 1) + k + 1]) are
 * the k-sets of 2..n-1 adding up to s, each as its value mask >> 1 (a
 * counting sort over the 2^(n-2) sets). */
static void sand_build(sudoku__prop_t *p, char *mem) {
    int n = p->n;
    size_t nsets = (size_t)1 << (n - 2), nkeys = sand_sums(n) * (size_t)(n - 1);
    uint16_t *sets = (uint16_t *)(void *)mem;
    uint32_t *at = (uint32_t *)(void *)(mem + SUDOKU__ALIGN(nsets * sizeof(uint16_t)));
    memset(at, 0, (nkeys + 1) * sizeof *at);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t x = 0; x < nsets; x++) {
            size_t sum = 0, k = 0;
            for (size_t b = x; b != 0; b &= b - 1, k++)
                sum += (size_t)sudoku__ctz(b) + 2; /* bit i: the value i + 2 */
            if (pass == 0)
                at[sum * (size_t)(n - 1) + k + 1]++;
            else
                sets[at[sum * (size_t)(n - 1) + k]++] = (uint16_t)(x << 1);
        }
        if (pass == 0)
            for (size_t key = 0; key < nkeys; key++)
                at[key + 1] += at[key];
        else /* the second pass moved each start to the next key's */
            for (size_t key = nkeys; key > 0; key--)
                at[key] = at[key - 1];
    }
    at[0] = 0;
    p->sand_sets = sets;
    p->sand_at = at;
}

static size_t line_bytes(const sudoku__run_t *run) {
    const sudoku_model_t *m = run->model;
    size_t most = 0, pairs;
    if (m == NULL || m->nlines == 0) return 0;
    for (int k = 0; k < m->nlines; k++) {
        size_t w = 2 * ((size_t)m->lines[k].len + 1) * line_row_words(&m->lines[k], m->n);
        int count;
        if (m->lines[k].kind == SUDOKU_LINE_EQSUM && sudoku__eqsum_group(m->lines, k, &count) == k)
            w = eqsum_words(m, k);
        if (w > most) most = w;
    }
    return SUDOKU__ALIGN((size_t)m->nlines * sizeof(uint16_t)) + SUDOKU__ALIGN((size_t)m->nlines) +
           SUDOKU__ALIGN((size_t)run->ncells * sizeof(uint32_t)) + SUDOKU__ALIGN(line_cells(m)) +
           lock_bytes(m, &pairs) + SUDOKU__ALIGN(sizeof(group_count_t)) + sand_bytes(m) +
           SUDOKU__ALIGN(most * sizeof(uint64_t));
}

size_t sudoku__prop_bytes(const sudoku__run_t *run, size_t trail) {
    size_t nc = (size_t)run->ncells, pairs = 0;
    if (run->g.astart != NULL) pairs = SUDOKU__ALIGN(nc * sizeof(uint16_t)) + SUDOKU__ALIGN(nc);
    return SUDOKU__ALIGN(nc * sizeof(uint64_t)) + SUDOKU__ALIGN(nc * sizeof(uint16_t)) +
           SUDOKU__ALIGN(trail * sizeof(uint64_t)) + SUDOKU__ALIGN(trail * sizeof(uint16_t)) +
           pairs + line_bytes(run);
}

/* Masks of the values the givens use in each row, column and box of a
 * classic grid. */
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

/* The candidates the givens leave an empty cell of a model: its allowed
 * values without those of its peers' givens.  (A classic grid uses
 * used_masks(), one pass over the grid.) */
static uint64_t model_cands(const sudoku__run_t *run, int cell) {
    const sudoku_model_t *m = run->model;
    uint64_t used = 0;
    for (uint32_t k = m->peer_start[cell]; k < m->peer_start[cell + 1]; k++) {
        int v = run->puzzle[m->peers[k]];
        if (v != 0) used |= SUDOKU__BIT(v);
    }
    return m->allowed[cell] & ~used;
}

int sudoku__prop_count(const sudoku__run_t *run, size_t *bits) {
    uint64_t rows[SUDOKU_MAX_N], cols[SUDOKU_MAX_N], boxes[SUDOKU_MAX_N];
    int n = run->n, r, c;
    size_t total = 0;
    if (run->model != NULL) {
        for (c = 0; c < run->ncells; c++) {
            uint64_t m;
            if (run->puzzle[c] != 0 || !run->model->live[c]) {
                total++;
                continue;
            }
            m = model_cands(run, c);
            if (m == 0) return -1;
            total += (size_t)sudoku__popcount(m);
        }
        *bits = total;
        return 0;
    }
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

/* Sets cell's starting mask: a given or a single candidate is decided (the
 * latter queued, as an ASSIGN step). */
static inline __attribute__((always_inline)) void init_cell(sudoku__prop_t *p, int cell, uint64_t m,
                                                            int given) {
    p->cand[cell] = m;
    if (given) {
        p->decided++;
    } else if ((m & (m - 1)) == 0) { /* m != 0: sudoku__prop_count() checked */
        p->decided++;
        p->queue[p->qtail++] = (uint16_t)cell;
        sudoku__step(p->run, SUDOKU_STEP_ASSIGN, cell, sudoku__ctz(m) + 1);
    }
}

/* Whether cell c lies in unit u. */
static int in_unit(const sudoku__geom_t *g, int c, int u) {
    int nu;
    const uint16_t *us = sudoku__cell_units(g, c, &nu);
    for (int i = 0; i < nu; i++)
        if (us[i] == u) return 1;
    return 0;
}

/* Adds one to unit u's count; returns the count. */
static int group_bump(group_count_t *t, int u) {
    uint32_t h = ((uint32_t)u * 2654435761u) >> 20; /* 12 bits */
    while (t->key[h] != 0 && t->key[h] != u + 1)
        h = (h + 1) & (GROUP_SLOTS - 1);
    if (t->key[h] == 0) {
        if (t->nused == GROUP_SLOTS - 1) return 0; /* full: no more units counted */
        t->key[h] = (uint16_t)(u + 1);
        t->count[h] = 0;
        t->used[t->nused++] = (uint16_t)h;
    }
    return ++t->count[h];
}

/* Splits each sum line's cells (an arrow's after its heads) into groups of
 * cells that share a unit (so hold distinct values), largest first: the
 * unit holding most of the cells not grouped yet makes the next group,
 * until every cell has one (a group of one at worst).  The larger the
 * groups, the tighter their bounds (sum_distinct): a long line through
 * rows is best cut by rows, not by the order it runs in.  lgroup[first +
 * i] is cell i's group, from 0 (an arrow's from its first line cell).
 * Cost: a pass over the cells left and their units per group (counted in
 * a table), so at most len x groups x units a cell has. */
static void sum_groups(sudoku__prop_t *p) {
    const sudoku_model_t *m = p->lm;
    group_count_t *t = p->gscratch;
    memset(t, 0, sizeof *t);
    for (int k = 0; k < m->nlines; k++) {
        const sudoku_line_t *ln = &m->lines[k];
        uint32_t skip = ln->kind == SUDOKU_LINE_ARROW ? (uint32_t)(ln->value & 0xff) : 0;
        const uint16_t *lc = m->line_cells + ln->first + skip;
        uint8_t *gid = p->lgroup + ln->first + skip;
        uint32_t len = ln->len - skip, left = len;
        int ngroups = 0;
        if (ln->kind != SUDOKU_LINE_SUM && ln->kind != SUDOKU_LINE_ARROW &&
            ln->kind != SUDOKU_LINE_SANDWICH && ln->kind != SUDOKU_LINE_SKYSCRAPER)
            continue;
        memset(gid, 0xff, len);
        while (left > 0) {
            int best = -1, most = 1, nu;
            for (int i = 0; i < t->nused; i++) /* clear the last pass's counts */
                t->key[t->used[i]] = 0;
            t->nused = 0;
            for (uint32_t i = 0; i < len; i++) {
                const uint16_t *us;
                if (gid[i] != 0xff) continue;
                us = sudoku__cell_units(p->g, lc[i], &nu);
                for (int a = 0; a < nu; a++) {
                    int c = group_bump(t, us[a]);
                    if (c > most || (best < 0 && c == most)) most = c, best = us[a];
                }
            }
            for (uint32_t j = 0; j < len; j++) {
                if (gid[j] != 0xff) continue;
                if (best < 0) { /* no unit holds two cells left: groups of one */
                    gid[j] = (uint8_t)ngroups++;
                    left--;
                    continue;
                }
                if (in_unit(p->g, lc[j], best)) {
                    gid[j] = (uint8_t)ngroups;
                    left--;
                }
            }
            if (best >= 0) ngroups++;
        }
    }
}

/* A cell's starting conflict score: the cells of every unit and line it
 * lies in (ISS's cell priorities: a cell many rules watch is picked
 * first while nothing has failed yet). */
static void score_init(sudoku__prop_t *p, const sudoku__run_t *run) {
    const sudoku_model_t *m = run->model;
    memset(p->score, 0, (size_t)run->ncells * sizeof(uint32_t));
    for (int u = 0; u < run->g.nunits; u++) {
        uint32_t len = run->g.ustart[u + 1] - run->g.ustart[u];
        for (uint32_t i = run->g.ustart[u]; i < run->g.ustart[u + 1]; i++)
            p->score[run->g.ucells[i]] += len;
    }
    for (int k = 0; k < m->nlines; k++)
        for (uint32_t i = 0; i < m->lines[k].len; i++)
            p->score[m->line_cells[m->lines[k].first + i]] += m->lines[k].len;
    p->decay = SUDOKU__SCORE_DECAY;
}

void sudoku__prop_init(sudoku__prop_t *p, sudoku__run_t *run, void *mem, size_t trail) {
    uint64_t rows[SUDOKU_MAX_N], cols[SUDOKU_MAX_N], boxes[SUDOKU_MAX_N];
    int n = run->n, nc = run->ncells, r, c;
    char *at = mem;

    memset(p, 0, offsetof(sudoku__prop_t, dirty)); /* the unit sets: below, `words` of them */
    p->run = run;
    p->g = &run->g;
    p->dstart = run->g.dstart;
    p->dword = run->g.dword;
    p->dmask = run->g.dmask;
    p->peers = run->g.peers;
    p->pstart = run->g.pstart;
    p->n = n;
    p->ncells = nc;
    p->level = run->level;
    p->full = run->full;
    p->words = (run->g.nunits + 63) / 64;
    p->box_rows = run->shape->box_rows;
    p->box_cols = run->shape->box_cols;
    p->cand = (uint64_t *)at;
    at += SUDOKU__ALIGN((size_t)nc * sizeof(uint64_t));
    p->queue = (uint16_t *)at;
    at += SUDOKU__ALIGN((size_t)nc * sizeof(uint16_t));
    p->told = (uint64_t *)at;
    at += SUDOKU__ALIGN(trail * sizeof(uint64_t));
    p->tcell = (uint16_t *)at;
    at += SUDOKU__ALIGN(trail * sizeof(uint16_t));
    p->tcap = trail;
    if (run->g.astart != NULL) {
        p->pq = (uint16_t *)at;
        at += SUDOKU__ALIGN((size_t)nc * sizeof(uint16_t));
        p->inpq = (uint8_t *)at;
        memset(p->inpq, 0, (size_t)nc);
        at += SUDOKU__ALIGN((size_t)nc);
    }
    if (run->model != NULL && run->model->nlines > 0) { /* every line queued */
        int nl = run->model->nlines;
        p->lm = run->model;
        p->lq = (uint16_t *)(void *)at;
        at += SUDOKU__ALIGN((size_t)nl * sizeof(uint16_t));
        p->inlq = (uint8_t *)at;
        at += SUDOKU__ALIGN((size_t)nl);
        if (run->model->nrules > 0) { /* (cages without a total only: plain units) */
            p->score = (uint32_t *)(void *)at;
            score_init(p, run);
        }
        at += SUDOKU__ALIGN((size_t)nc * sizeof(uint32_t));
        p->lgroup = (uint8_t *)at;
        at += SUDOKU__ALIGN(line_cells(run->model));
        p->gscratch = at;
        at += SUDOKU__ALIGN(sizeof(group_count_t));
        if (p->level >= SUDOKU_LEVEL_HIDDEN_SINGLES) {
            size_t maxpairs, bytes = lock_bytes(run->model, &maxpairs);
            if (bytes > 0) lock_build(p, run->model, at, maxpairs);
            at += bytes;
        } else {
            at += lock_bytes(run->model, &(size_t){0});
        }
        if (sand_bytes(run->model) > 0) sand_build(p, at);
        at += sand_bytes(run->model);
        p->lscratch = (uint64_t *)(void *)at;
        for (c = 0; c < nl; c++) {
            p->lq[c] = (uint16_t)c;
            p->inlq[c] = 1;
        }
        p->lqlen = (uint32_t)nl;
    }

    if (run->model != NULL) {
        for (c = 0; c < nc; c++) {
            int v = run->puzzle[c];
            if (!run->model->live[c]) {
                p->cand[c] = 1; /* a hole: decided, in no unit */
                p->decided++;
            } else {
                init_cell(p, c, v != 0 ? SUDOKU__BIT(v) : model_cands(run, c), v != 0);
                if (p->pq != NULL && run->g.astart[c] != run->g.astart[c + 1]) {
                    p->pq[p->pqlen++] = (uint16_t)c;
                    p->inpq[c] = 1;
                }
            }
        }
    } else {
        used_masks(run, rows, cols, boxes);
        for (r = 0; r < n; r++)
            for (c = 0; c < n; c++) {
                int cell = r * n + c, v = run->puzzle[cell];
                init_cell(p, cell,
                          v != 0 ? SUDOKU__BIT(v)
                                 : run->full & ~(rows[r] | cols[c] |
                                                 boxes[sudoku_box_of(run->shape, r, c)]),
                          v != 0);
            }
    }
    for (c = 0; c < p->words; c++) {
        uint64_t all = (c + 1) * 64 <= run->g.nunits ? ~(uint64_t)0
                                                     : ((uint64_t)1 << (run->g.nunits % 64)) - 1;
        p->dirty[c] = p->dirty_hi[c] = all;
        p->exact[c] = run->model != NULL ? 0 : all;
    }
    if (run->model != NULL)
        for (c = 0; c < run->g.nunits; c++)
            if (sudoku__unit_len(&run->g, c) == n) p->exact[c >> 6] |= (uint64_t)1 << (c & 63);
    if (p->lgroup != NULL) sum_groups(p);
}

/* Every cell has at least one entry (sudoku__dirty_marks), and exactly one
 * when all units fit a word (a classic grid up to 21x21, a jigsaw, an X or
 * windoku 9x9): then one OR does. */
static inline void mark_dirty(sudoku__prop_t *p, int cell) {
    uint32_t k, end;
    if (p->words == 1) { /* then dstart[c] == c */
        p->dirty[0] |= p->dmask[cell];
        return;
    }
    k = p->dstart[cell];
    end = p->dstart[cell + 1];
    p->dirty[p->dword[k]] |= p->dmask[k];
    while (++k < end)
        p->dirty[p->dword[k]] |= p->dmask[k];
}

/* Queues a cell whose pair rules must be looked at again (out of line: the
 * test in pair_touch() is all a grid without pairs pays). */
static __attribute__((noinline)) void pair_queue(sudoku__prop_t *p, int cell) {
    if (p->inpq[cell] || p->g->astart[cell] == p->g->astart[cell + 1]) return;
    p->inpq[cell] = 1;
    p->pq[(p->pqhead + p->pqlen++) % (uint32_t)p->ncells] = (uint16_t)cell;
}

/* Queues the lines through a cell that lost a value. */
static __attribute__((noinline)) void line_queue(sudoku__prop_t *p, int cell) {
    const sudoku_model_t *m = p->lm;
    for (uint32_t k = m->lcell_start[cell]; k < m->lcell_start[cell + 1]; k++) {
        int l = m->lcell_lines[k];
        if (p->inlq[l]) continue;
        p->inlq[l] = 1;
        p->lq[(p->lqhead + p->lqlen++) % (uint32_t)m->nlines] = (uint16_t)l;
    }
}

static inline void pair_touch(sudoku__prop_t *p, int cell) {
    if (p->pq != NULL) pair_queue(p, cell);
    if (p->lm != NULL) line_queue(p, cell);
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
    pair_touch(p, cell);
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
    pair_touch(p, cell);
    p->decided++;
    p->queue[p->qtail++] = (uint16_t)cell;
    sudoku__step(p->run, SUDOKU_STEP_ASSIGN, cell, sudoku__ctz(bit) + 1);
    return 0;
}

/* The value of decided `cell` leaves its peers.  On a classic grid: its
 * row, its column, and the cells of its box outside both, by arithmetic on
 * (row, column) rather than through the unit tables, so no peer is visited
 * twice (20 visits instead of 27 at 9x9; docs/sudoku-tuning.md has what it
 * saved).  On a model: its peer list, which has no repeats either. */
static int spread(sudoku__prop_t *p, int cell) {
    /* locals: elim_hit() is a call, and the compiler cannot always prove
     * that it leaves these fields alone */
    const uint64_t *cand = p->cand;
    uint64_t b = cand[cell];
    int n = p->n, nc = p->ncells, br = p->box_rows, bc = p->box_cols;
    int r, c, r0, c0, i, j;
    if (p->peers != NULL) { /* a model (whose boxes may be none: regions) */
        const uint16_t *q = p->peers + p->pstart[cell];
        const uint16_t *end = p->peers + p->pstart[cell + 1];
        for (; q < end; q++)
            if ((cand[*q] & b) != 0 && elim_hit(p, *q, b) < 0) return -1;
        return 0;
    }
    r = cell / n;
    c = cell % n;
    r0 = r - r % br;
    c0 = c - c % bc;
    for (j = r * n; j < r * n + n; j++)
        if ((cand[j] & b) != 0 && j != cell && elim_hit(p, j, b) < 0) return -1;
    for (j = c; j < nc; j += n)
        if ((cand[j] & b) != 0 && j != cell && elim_hit(p, j, b) < 0) return -1;
    for (i = r0; i < r0 + br; i++) {
        if (i == r) continue;
        for (j = i * n + c0; j < i * n + c0 + bc; j++)
            if ((cand[j] & b) != 0 && j != i * n + c && elim_hit(p, j, b) < 0) return -1;
    }
    return 0;
}

/* Hidden singles of an exact unit (n cells). */
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

/* Naked pairs of a unit of n cells or fewer. */
static int pairs_unit(sudoku__prop_t *p, const uint16_t *uc, int n, int *changed) {
    uint64_t pm[SUDOKU_MAX_N];
    int pi[SUDOKU_MAX_N], k = 0, a, b, i;
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

/* Naked subsets of a unit of n cells or fewer, hidden subsets when it has
 * exactly p->n. */
static int subsets_unit(sudoku__prop_t *p, const uint16_t *uc, int n, int *changed) {
    uint64_t m[SUDOKU_MAX_N], key[SUDOKU_MAX_N];
    uint64_t live = 0, dec = 0, b0 = 0, b1 = 0, b2 = 0, over = 0, vals;
    int k = 0, i;
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
    if (n != p->n) goto out; /* a value need not be in a shorter unit */
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
out:
    if (p->tlen != before) *changed = 1;
    return 0;
}

/* The pair rules of `cell` against its partners (see the file comment);
 * each partner that loses a value is queued in turn. */
static int pair_cell(sudoku__prop_t *p, int cell) {
    uint64_t a = p->cand[cell], near = ((a << 1) | (a >> 1)) & p->full, kill_nc;
    const uint32_t *e = p->g->adj + p->g->astart[cell];
    const uint32_t *end = p->g->adj + p->g->astart[cell + 1];
    /* non-consecutive: a value next to every value of `cell` goes */
    if ((a & (a - 1)) == 0)
        kill_nc = near;
    else if (sudoku__popcount(a) == 2)
        kill_nc = (a << 1) & (a >> 1);
    else
        kill_nc = 0;
    for (; e < end; e++) {
        int other = (int)(*e >> 8);
        uint64_t hit = (*e & 0xff) == SUDOKU_PAIR_CONSECUTIVE ? p->cand[other] & ~near
                                                              : p->cand[other] & kill_nc;
        if (hit != 0 && elim_hit(p, other, hit) < 0) return -1;
    }
    return 0;
}

/* dst = (src << v) | dst over w words (v: 1..64), bits past `top` (a
 * bit index below 64 * w) cleared: none of dst's states lie there. */
static void bits_shl_or(uint64_t *dst, const uint64_t *src, size_t w, int v, size_t top) {
    size_t ws = (size_t)v / 64, bs = (size_t)v % 64;
    for (size_t i = w; i-- > ws;) {
        uint64_t x = src[i - ws] << bs;
        if (bs != 0 && i - ws > 0) x |= src[i - ws - 1] >> (64 - bs);
        dst[i] |= x;
    }
    for (size_t i = top / 64 + 1; i < w; i++) /* nothing past top (top < 64 * w) */
        dst[i] = 0;
    if (top % 64 != 63) dst[top / 64] &= ((uint64_t)1 << (top % 64 + 1)) - 1;
}

/* dst = (src >> v) | dst over w words (v: 1..64). */
static void bits_shr_or(uint64_t *dst, const uint64_t *src, size_t w, int v) {
    size_t ws = (size_t)v / 64, bs = (size_t)v % 64;
    for (size_t i = 0; i + ws < w; i++) {
        uint64_t x = src[i + ws] >> bs;
        if (bs != 0 && i + ws + 1 < w) x |= src[i + ws + 1] << (64 - bs);
        dst[i] |= x;
    }
}

/* Whether (a << v) & b has a bit, over w words. */
static int bits_meet_shl(const uint64_t *a, const uint64_t *b, size_t w, int v) {
    size_t ws = (size_t)v / 64, bs = (size_t)v % 64;
    for (size_t i = ws; i < w; i++) {
        uint64_t x = a[i - ws] << bs;
        if (bs != 0 && i - ws > 0) x |= a[i - ws - 1] >> (64 - bs);
        if (x & b[i]) return 1;
    }
    return 0;
}

/* A sum line (see the file comment): F[i] the sums of cells 0..i-1, B[i]
 * the partial sums from which cells i.. can still make the total. */
/* The forward table of a sum over lc[0..len): F[i] (w words) the sums of
 * cells 0..i-1 up to top.  F and the backward table B, (len + 1) rows
 * each, are zeroed here. */
static void sum_forward(sudoku__prop_t *p, const uint16_t *lc, size_t len, size_t w, size_t top,
                        uint64_t *F, uint64_t *B) {
    memset(F, 0, (len + 1) * w * sizeof *F);
    memset(B, 0, (len + 1) * w * sizeof *B);
    F[0] = 1;
    if (w == 1) { /* a total below 64 (every 9x9 line): one word a row */
        uint64_t keep = top == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (top + 1)) - 1;
        for (size_t i = 0; i < len; i++) {
            uint64_t f = 0, prev = F[i];
            for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1)
                f |= prev << (sudoku__ctz(m) + 1);
            F[i + 1] = f & keep;
        }
        return;
    }
    for (size_t i = 0; i < len; i++)
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1)
            bits_shl_or(F + (i + 1) * w, F + i * w, w, sudoku__ctz(m) + 1, top);
}

/* The backward table of a sum whose rows are one word (a total below 64)
 * and the supports in the same pass: keep[i] |= cell i's values with a
 * reachable sum before them that reaches an allowed total (B[len]) after.
 * -1 when no total can be made. */
static int sum_back1(const sudoku__prop_t *p, const uint16_t *lc, size_t len, const uint64_t *F,
                     uint64_t *B, uint64_t *keep) {
    for (size_t i = len; i-- > 0;) {
        uint64_t b = 0, next = B[i + 1], before = F[i], k = 0;
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1) {
            int v = sudoku__ctz(m) + 1;
            b |= next >> v;
            if ((before << v) & next) k |= m & -m;
        }
        B[i] = b;
        keep[i] |= k;
    }
    return (B[0] & 1) == 0 ? -1 : 0;
}

/* With B[len] set to the totals allowed: the backward table, and each
 * cell keeps the values with a reachable sum before them that reaches an
 * allowed total after.  -1 when no total can be made. */
static int sum_backward(sudoku__prop_t *p, const uint16_t *lc, size_t len, size_t w,
                        const uint64_t *F, uint64_t *B) {
    size_t i;
    if (w == 1) { /* one word a row: the table and the kept values in one pass */
        uint64_t keep[SUDOKU_LINE_MAX_CELLS];
        memset(keep, 0, len * sizeof *keep); /* (a look's cells only: this is the hot path) */
        if (sum_back1(p, lc, len, F, B, keep) < 0) return -1;
        for (i = 0; i < len; i++)
            if (elim(p, lc[i], ~keep[i]) < 0) return -1;
        return 0;
    }
    for (i = len; i-- > 0;)
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1)
            bits_shr_or(B + i * w, B + (i + 1) * w, w, sudoku__ctz(m) + 1);
    if ((B[0] & 1) == 0) return -1;
    for (i = 0; i < len; i++) {
        uint64_t keep = 0;
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1)
            if (bits_meet_shl(F + i * w, B + (i + 1) * w, w, sudoku__ctz(m) + 1)) keep |= m & -m;
        if (elim(p, lc[i], ~keep) < 0) return -1;
    }
    return 0;
}

/* Sums of the k smallest and the k largest values of mask u (k <= its
 * values). */
static void mask_ends(uint64_t u, int k, long *lo, long *hi) {
    uint64_t m = u;
    *lo = *hi = 0;
    for (int i = 0; i < k; i++, m &= m - 1)
        *lo += sudoku__ctz(m) + 1;
    for (int i = 0; i < k; i++) {
        int top = 63 - __builtin_clzll(u);
        *hi += top + 1;
        u &= ~((uint64_t)1 << top);
    }
}

/* A sum's bounds with its groups' values distinct (sum_groups): a group of
 * k cells whose candidates' union is U adds up to at least the k smallest
 * of U and at most the k largest, so the sum lies in [*lo, *hi]; -1 when
 * that misses [tmin, tmax].  With `prune`, v stays in a cell when the
 * others, its own group's k - 1 taking values of U other than v, can still
 * make a total in [tmin, tmax] with it.  What the sum's tables miss: they
 * let a group repeat. */
static int sum_distinct(sudoku__prop_t *p, const uint16_t *lc, size_t len, const uint8_t *gid,
                        long tmin, long tmax, int prune, long *lo, long *hi) {
    uint64_t U[SUDOKU_LINE_MAX_CELLS];
    int K[SUDOKU_LINE_MAX_CELLS], ng = 0, multi = 0;
    long glo[SUDOKU_LINE_MAX_CELLS], ghi[SUDOKU_LINE_MAX_CELLS], LO = 0, HI = 0;
    for (size_t i = 0; i < len; i++)
        if (gid[i] >= ng) ng = gid[i] + 1;
    memset(U, 0, (size_t)ng * sizeof *U); /* the groups only: a look is on the hot path */
    memset(K, 0, (size_t)ng * sizeof *K);
    for (size_t i = 0; i < len; i++) {
        U[gid[i]] |= p->cand[lc[i]];
        multi |= ++K[gid[i]] > 1;
    }
    for (int g = 0; g < ng; g++) {
        if (sudoku__popcount(U[g]) < K[g]) return -1;
        mask_ends(U[g], K[g], &glo[g], &ghi[g]);
        LO += glo[g];
        HI += ghi[g];
    }
    *lo = LO;
    *hi = HI;
    if (tmax < LO || tmin > HI) return -1;
    if (!prune || !multi) return 0; /* no two cells differ: the tables said it all */
    for (size_t i = 0; i < len; i++) {
        int g = gid[i], k = K[g];
        uint64_t keep = 0;
        long lo1, hi1;
        if (k < 2) continue;
        mask_ends(U[g], k - 1, &lo1, &hi1); /* the others' least and most, v not among them */
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1) {
            uint64_t bit = m & -m;
            long v = sudoku__ctz(m) + 1, l, h;
            /* v among U's k - 1 smallest: the others' least is the k smallest but v */
            l = sudoku__popcount(U[g] & (bit - 1)) < k - 1 ? glo[g] - v : lo1;
            h = sudoku__popcount(U[g] & ~(bit | (bit - 1))) < k - 1 ? ghi[g] - v : hi1;
            if (LO - glo[g] + l + v <= tmax && HI - ghi[g] + h + v >= tmin) keep |= bit;
        }
        if (elim(p, lc[i], ~keep) < 0) return -1;
    }
    return 0;
}

static int line_sum(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    size_t len = ln->len, w = line_row_words(ln, p->n), top = (size_t)ln->value;
    uint64_t *F = p->lscratch, *B = F + (len + 1) * w;
    sum_forward(p, lc, len, w, top, F, B);
    B[len * w + top / 64] = (uint64_t)1 << (top % 64);
    if (sum_backward(p, lc, len, w, F, B) < 0) return -1;
    if (ln->kind == SUDOKU_LINE_SUM) {
        long lo, hi;
        return sum_distinct(p, lc, len, p->lgroup + ln->first, ln->value, ln->value, 1, &lo, &hi);
    }
    return 0;
}

/* Value sets a cage may use that cage_sets() enumerates at most, per look
 * (C(open values, open cells)): every 9x9 cage, a 16x16 cage of up to 3 or
 * from 13 open cells.  A larger cage keeps only its sum's tables. */
#define CAGE_SETS_MAX 1024u

/* A cage's distinct values: the sets of values its open cells can take
 * (subsets of their candidates' union, one value a cell, adding up to what
 * the decided cells leave) are enumerated; each cell keeps the values of
 * some set that meets every open cell's candidates, and a value every such
 * set holds goes to its only cell when it has one.  What the sum's tables
 * miss: they let values repeat.  -1 when no set is left. */
static int cage_sets(sudoku__prop_t *p, const uint16_t *lc, size_t len, long total) {
    uint64_t fixed = 0, all = 0, allowed = 0, need = ~(uint64_t)0, sub;
    uint64_t vbit[SUDOKU_MAX_N];
    int vval[SUDOKU_MAX_N], m = 0, k = 0, i;
    uint64_t sets = 1;
    for (size_t j = 0; j < len; j++) {
        uint64_t c = p->cand[lc[j]];
        if ((c & (c - 1)) == 0) {
            if (fixed & c) return -1; /* the unit's rule will say so too */
            fixed |= c;
            total -= sudoku__ctz(c) + 1;
        } else {
            all |= c;
            k++;
        }
    }
    if (k == 0) return total == 0 ? 0 : -1;
    all &= ~fixed;
    for (uint64_t a = all; a != 0; a &= a - 1) {
        vbit[m] = a & -a;
        vval[m++] = sudoku__ctz(a) + 1;
    }
    if (m < k) return -1;
    if (m > 63) return 0;   /* (a 64-value grid's subsets do not fit the enumeration's word) */
    for (i = 0; i < k; i++) /* C(m, k), stopped past the cap */
        if ((sets = sets * (uint64_t)(m - i) / (uint64_t)(i + 1)) > CAGE_SETS_MAX) return 0;
    /* k-subsets of the m open values in Gosper's order */
    for (sub = ((uint64_t)1 << k) - 1; sub < ((uint64_t)1 << m);) {
        uint64_t set = 0, t, r;
        long sum = 0;
        for (t = sub; t != 0; t &= t - 1) {
            set |= vbit[sudoku__ctz(t)];
            sum += vval[sudoku__ctz(t)];
        }
        if (sum == total) {
            size_t j = 0;
            for (; j < len; j++)
                if ((p->cand[lc[j]] & (set | fixed)) == 0) break;
            if (j == len) {
                allowed |= set;
                need &= set;
            }
        }
        t = sub & -sub; /* next subset of the same size */
        r = sub + t;
        sub = (((r ^ sub) >> 2) / t) | r;
    }
    if (allowed == 0) return -1;
    for (size_t j = 0; j < len; j++)
        if ((p->cand[lc[j]] & (p->cand[lc[j]] - 1)) != 0 && elim(p, lc[j], ~allowed) < 0) return -1;
    for (; need != 0; need &= need - 1) { /* a value every set holds, and its places */
        uint64_t bit = need & -need;
        int at = -1, places = 0;
        for (size_t j = 0; j < len; j++)
            if (p->cand[lc[j]] & bit) {
                at = lc[j];
                places++;
            }
        if (places == 0) return -1;
        if (places == 1 && elim(p, at, ~bit) < 0) return -1;
    }
    return 0;
}

/* A cage: its sum's tables (repeats allowed), then its sets of values. */
static int line_cage(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    if (line_sum(p, ln, lc) < 0) return -1;
    return cage_sets(p, lc, ln->len, ln->value);
}

/* An arrow: the heads' number (a sum, or digits in base 10) is what the
 * line adds up to.  The line's reachable sums R come first; every choice
 * of head values (at most n^3) whose number is in R supports its values
 * and puts its number among the line's allowed totals. */
static int line_arrow(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    int h = ln->value & 0xff, digits = ln->value >> 8, n = p->n;
    size_t len = ln->len - (size_t)h, w = line_row_words(ln, n), top = len * (size_t)n;
    uint64_t *F = p->lscratch, *B = F + (len + 1) * w, *R = F + len * w, *T = B + len * w;
    uint64_t keep[3] = {0, 0, 0}, m0, m1, m2;
    uint64_t c1 = h > 1 ? p->cand[lc[1]] : 1, c2 = h > 2 ? p->cand[lc[2]] : 1;
    if (digits) { /* ISS: every pill digit but the first is 1-9 */
        c1 &= h > 1 ? 0x1ff : 1;
        c2 &= h > 2 ? 0x1ff : 1;
    }
    long lo, hi, tmin = LONG_MAX, tmax = -1;
    const uint8_t *gid = p->lgroup + ln->first + h;
    if (sum_distinct(p, lc + h, len, gid, 0, LONG_MAX, 0, &lo, &hi) < 0) return -1;
    sum_forward(p, lc + h, len, w, top, F, B);
    for (m0 = p->cand[lc[0]]; m0 != 0; m0 &= m0 - 1)
        for (m1 = c1; m1 != 0; m1 &= m1 - 1)
            for (m2 = c2; m2 != 0; m2 &= m2 - 1) {
                long long x = sudoku__ctz(m0) + 1, y = sudoku__ctz(m1) + 1, z = sudoku__ctz(m2) + 1,
                          num;
                if (h == 1)
                    num = x;
                else if (h == 2)
                    num = digits ? 10 * x + y : x + y;
                else
                    num = digits ? 100 * x + 10 * y + z : x + y + z;
                if (num < lo || num > hi || (size_t)num > top || !(R[num / 64] >> (num % 64) & 1))
                    continue;
                T[num / 64] |= (uint64_t)1 << (num % 64);
                tmin = num < tmin ? num : tmin;
                tmax = num > tmax ? num : tmax;
                keep[0] |= m0 & -m0;
                keep[1] |= m1 & -m1;
                keep[2] |= m2 & -m2;
            }
    for (int i = 0; i < h; i++)
        if (elim(p, lc[i], ~keep[i]) < 0) return -1;
    if (sum_backward(p, lc + h, len, w, F, B) < 0) return -1;
    return sum_distinct(p, lc + h, len, gid, tmin, tmax, 1, &lo, &hi);
}

/* The k lowest bits (k: 0..64). */
static inline uint64_t low_bits(int k) { return k >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1; }

/* Renban: the values are some window [s, s + len) of consecutive values,
 * each once (its unit says so).  A window stands when every cell has a
 * value in it and together they have all of it; a cell keeps the values of
 * the windows that stand. */
static int line_renban(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    int len = (int)ln->len, n = p->n;
    uint64_t keep[SUDOKU_LINE_MAX_CELLS] = {0};
    int any = 0;
    for (int s = 1; s + len - 1 <= n; s++) {
        uint64_t win = low_bits(len) << (s - 1), all = 0;
        int ok = 1;
        for (int i = 0; i < len && ok; i++) {
            ok = (p->cand[lc[i]] & win) != 0;
            all |= p->cand[lc[i]] & win;
        }
        if (!ok || all != win) continue;
        any = 1;
        for (int i = 0; i < len; i++)
            keep[i] |= p->cand[lc[i]] & win;
    }
    if (!any) return -1;
    for (int i = 0; i < len; i++)
        if (elim(p, lc[i], ~keep[i]) < 0) return -1;
    return 0;
}

/* Between (lockout = 0) and lockout lines: for each pair of end values
 * (lo, hi), the values the inner cells may take are those strictly between
 * (between), or those below lo or above hi when hi - lo >= the line's
 * difference (lockout); a pair stands when every inner cell has one. */
static int line_ends(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc, int lockout) {
    int len = (int)ln->len;
    uint64_t ka = 0, kz = 0, keep[SUDOKU_LINE_MAX_CELLS] = {0};
    for (uint64_t ma = p->cand[lc[0]]; ma != 0; ma &= ma - 1)
        for (uint64_t mz = p->cand[lc[len - 1]]; mz != 0; mz &= mz - 1) {
            int a = sudoku__ctz(ma) + 1, z = sudoku__ctz(mz) + 1, lo = a < z ? a : z,
                hi = a < z ? z : a, ok = 1;
            uint64_t inner;
            if (lockout) {
                if (hi - lo < ln->value) continue;
                inner = low_bits(lo - 1) | (p->full & ~low_bits(hi));
            } else {
                inner = hi - lo >= 2 ? low_bits(hi - 1) & ~low_bits(lo) : 0;
            }
            for (int i = 1; i < len - 1 && ok; i++)
                ok = (p->cand[lc[i]] & inner) != 0;
            if (!ok) continue;
            ka |= ma & -ma;
            kz |= mz & -mz;
            for (int i = 1; i < len - 1; i++)
                keep[i] |= p->cand[lc[i]] & inner;
        }
    if (elim(p, lc[0], ~ka) < 0 || elim(p, lc[len - 1], ~kz) < 0) return -1;
    for (int i = 1; i < len - 1; i++)
        if (elim(p, lc[i], ~keep[i]) < 0) return -1;
    return 0;
}

/* Zipper: for each total T (the centre's value on an odd line), T stands
 * when every mirrored pair has two values adding up to T; a cell keeps the
 * values of the totals that stand. */
static int line_zipper(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    int len = (int)ln->len, half = len / 2, n = p->n, any = 0;
    uint64_t keep[SUDOKU_LINE_MAX_CELLS] = {0};
    for (int t = 2; t <= 2 * n; t++) {
        uint64_t ka[SUDOKU_LINE_MAX_CELLS / 2], kb[SUDOKU_LINE_MAX_CELLS / 2];
        int ok = !(len % 2) || (t <= n && (p->cand[lc[half]] >> (t - 1) & 1));
        for (int i = 0; i < half && ok; i++) {
            ka[i] = kb[i] = 0;
            for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1) {
                int x = sudoku__ctz(m) + 1, y = t - x;
                if (y >= 1 && y <= n && (p->cand[lc[len - 1 - i]] >> (y - 1) & 1)) {
                    ka[i] |= m & -m;
                    kb[i] |= (uint64_t)1 << (y - 1);
                }
            }
            ok = ka[i] != 0;
        }
        if (!ok) continue;
        any = 1;
        for (int i = 0; i < half; i++) {
            keep[i] |= ka[i];
            keep[len - 1 - i] |= kb[i];
        }
        if (len % 2) keep[half] |= (uint64_t)1 << (t - 1);
    }
    if (!any) return -1;
    for (int i = 0; i < len; i++)
        if (elim(p, lc[i], ~keep[i]) < 0) return -1;
    return 0;
}

/* The supports of a sum over lc[0..len) whose totals must be in the set
 * B[len] (set by the caller after sum_forward): keep[i] |= each cell's
 * supported values; 0 when a total is reachable, -1 when none. */
static int sum_support(sudoku__prop_t *p, const uint16_t *lc, size_t len, size_t w,
                       const uint64_t *F, uint64_t *B, uint64_t *keep) {
    size_t i;
    if (w == 1) return sum_back1(p, lc, len, F, B, keep);
    for (i = len; i-- > 0;)
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1)
            bits_shr_or(B + i * w, B + (i + 1) * w, w, sudoku__ctz(m) + 1);
    if ((B[0] & 1) == 0) return -1;
    for (i = 0; i < len; i++)
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1)
            if (bits_meet_shl(F + i * w, B + (i + 1) * w, w, sudoku__ctz(m) + 1)) keep[i] |= m & -m;
    return 0;
}

/* X-sum: for each value x of the first cell, the first x cells (the first
 * included) add up to the clue; the cells after the x-th are free then. */
static int line_xsum(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    size_t len = ln->len, w = line_row_words(ln, p->n);
    uint64_t keep[SUDOKU_LINE_MAX_CELLS] = {0};
    uint64_t *F = p->lscratch, *B = F + (len + 1) * w;
    for (uint64_t m = p->cand[lc[0]]; m != 0; m &= m - 1) {
        long long x = sudoku__ctz(m) + 1, rest = (long long)ln->value - x;
        uint64_t sub[SUDOKU_LINE_MAX_CELLS] = {0};
        if ((size_t)x > len || rest < 0) continue;
        if (x > 1) {
            sum_forward(p, lc + 1, (size_t)x - 1, w, (size_t)rest, F, B);
            B[(size_t)(x - 1) * w + (size_t)rest / 64] = (uint64_t)1 << (rest % 64);
            if (sum_support(p, lc + 1, (size_t)x - 1, w, F, B, sub + 1) != 0) continue;
        } else if (rest != 0) {
            continue;
        }
        keep[0] |= m & -m;
        for (size_t i = 1; i < len; i++)
            keep[i] |= i < (size_t)x ? sub[i] : p->cand[lc[i]];
    }
    for (size_t i = 0; i < len; i++)
        if (elim(p, lc[i], ~keep[i]) < 0) return -1;
    return 0;
}

/* Sum lines: the line splits into runs that each add up to the clue.
 * States: the current run's partial sum r in [0, clue). */
static void seg_step(const uint64_t *src, uint64_t *dst, size_t w, int v, size_t s) {
    bits_shl_or(dst, src, w, v, s - 1); /* r + v < s */
    if (v <= (int)s && (src[(s - (size_t)v) / 64] >> ((s - (size_t)v) % 64) & 1))
        dst[0] |= 1; /* r + v == s: a run ends */
}

/* The values each cell keeps (ORed into keep[]) for the runs of lc read
 * from state r0 (the partial sum carried in) to the same state at the end
 * (0 and 0: a plain line; a loop's run that wraps carries r0 round).
 * Returns 1 when some split exists. */
static int seg_keep1(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc, size_t r0,
                     uint64_t *keep);
static int seg_keep(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc, size_t r0,
                    uint64_t *keep) {
    size_t len = ln->len, w = line_row_words(ln, p->n), s = (size_t)ln->value, i;
    uint64_t *F = p->lscratch, *B = F + (len + 1) * w;
    if (w == 1) return seg_keep1(p, ln, lc, r0, keep);
    memset(F, 0, 2 * (len + 1) * w * sizeof *F);
    F[r0 / 64] = (uint64_t)1 << (r0 % 64);
    for (i = 0; i < len; i++)
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1)
            seg_step(F + i * w, F + (i + 1) * w, w, sudoku__ctz(m) + 1, s);
    B[len * w + r0 / 64] = (uint64_t)1 << (r0 % 64);
    for (i = len; i-- > 0;)
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1) {
            int v = sudoku__ctz(m) + 1;
            uint64_t *b = B + i * w;
            const uint64_t *nb = B + (i + 1) * w;
            bits_shr_or(b, nb, w, v); /* r with r + v < s in the next set */
            if (s / 64 < w) b[s / 64] &= ((uint64_t)1 << (s % 64)) - 1; /* r < s only */
            if ((nb[0] & 1) && (size_t)v <= s)
                b[(s - (size_t)v) / 64] |= (uint64_t)1 << ((s - (size_t)v) % 64);
        }
    if ((B[r0 / 64] >> (r0 % 64) & 1) == 0) return 0;
    for (i = 0; i < len; i++) {
        uint64_t g[SUDOKU_LINE_MAX_CELLS * 64 / 64 + 1];
        for (uint64_t m = p->cand[lc[i]] & ~keep[i]; m != 0; m &= m - 1) {
            int hit = 0;
            memset(g, 0, w * sizeof *g);
            seg_step(F + i * w, g, w, sudoku__ctz(m) + 1, s);
            for (size_t k = 0; k < w && !hit; k++)
                hit = (g[k] & B[(i + 1) * w + k]) != 0;
            if (hit) keep[i] |= m & -m;
        }
    }
    return 1;
}

/* seg_keep for a total below 64: each set of partial sums is one word, and
 * a step is a shift and a bit test. */
static int seg_keep1(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc, size_t r0,
                     uint64_t *keep) {
    size_t len = ln->len, i;
    int s = ln->value;
    uint64_t *F = p->lscratch, *B = F + len + 1, low = ((uint64_t)1 << s) - 1;
    F[0] = (uint64_t)1 << r0;
    for (i = 0; i < len; i++) { /* r + v < s goes on; r + v == s ends a run */
        uint64_t f = F[i], g = 0;
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1) {
            int v = sudoku__ctz(m) + 1;
            if (v > s) break;
            g |= ((f << v) & low) | (f >> (s - v) & 1);
        }
        F[i + 1] = g;
    }
    B[len] = (uint64_t)1 << r0;
    for (i = len; i-- > 0;) {
        uint64_t nb = B[i + 1], b = 0, k = 0, f = F[i];
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1) {
            int v = sudoku__ctz(m) + 1;
            uint64_t from;
            if (v > s) break;
            from = ((nb >> v) & low) | ((nb & 1) << (s - v)); /* the r that v leads into nb */
            b |= from;
            if (f & from) k |= m & -m;
        }
        B[i] = b;
        keep[i] |= k;
    }
    return (int)(B[0] >> r0 & 1) && (F[len] >> r0 & 1);
}

/* A sum line: runs from the first cell; a loop: the run through the first
 * cell may have begun at the end, carrying any partial sum r0 in [0, s)
 * round, so the values kept are those of some r0 (s passes of the plain
 * line's cost).  Exact on a full line, as the plain line's tables are. */
static int line_segsum(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    uint64_t keep[SUDOKU_LINE_MAX_CELLS] = {0};
    size_t r0_end = ln->kind == SUDOKU_LINE_SEGLOOP ? (size_t)ln->value : 1;
    int any = 0;
    for (size_t r0 = 0; r0 < r0_end; r0++)
        any |= seg_keep(p, ln, lc, r0, keep);
    if (!any) return -1;
    for (size_t i = 0; i < ln->len; i++)
        if (elim(p, lc[i], ~keep[i]) < 0) return -1;
    return 0;
}

/* === Equal sums ========================================================= */

/* Whether the cells lc[0..len) share a unit (so their values differ). */
static int in_one_unit(const sudoku__prop_t *p, const uint16_t *lc, size_t len) {
    int nu, nv;
    const uint16_t *us = sudoku__cell_units(p->g, lc[0], &nu);
    for (int a = 0; a < nu; a++) {
        size_t i = 1;
        for (; i < len; i++) {
            const uint16_t *vs = sudoku__cell_units(p->g, lc[i], &nv);
            int b = 0;
            while (b < nv && vs[b] < us[a]) /* ascending */
                b++;
            if (b == nv || vs[b] != us[a]) break;
        }
        if (i == len) return 1;
    }
    return 0;
}

/* Keeps in R (w words: a segment's reachable sums) those from the sum of
 * the len smallest values of the cells' candidates to that of the len
 * largest: what distinct values can make.  -1 when they have fewer than
 * len values between them. */
static int distinct_bounds(const sudoku__prop_t *p, const uint16_t *lc, size_t len, uint64_t *R,
                           size_t w) {
    uint64_t all = 0, m;
    size_t lo = 0, hi = 0, i, k;
    for (i = 0; i < len; i++)
        all |= p->cand[lc[i]];
    if ((size_t)sudoku__popcount(all) < len) return -1;
    for (m = all, k = 0; k < len; m &= m - 1, k++)
        lo += (size_t)sudoku__ctz(m) + 1;
    for (m = all, k = 0; k < len; m ^= (uint64_t)1 << (63 - __builtin_clzll(m)), k++)
        hi += (size_t)(64 - __builtin_clzll(m));
    for (i = 0; i < w; i++) { /* bits lo..hi of each word */
        uint64_t keep = ~(uint64_t)0;
        if (lo > i * 64) keep = lo >= (i + 1) * 64 ? 0 : keep << (lo - i * 64);
        if (hi < (i + 1) * 64 - 1) keep &= hi < i * 64 ? 0 : low_bits((int)(hi - i * 64 + 1));
        R[i] &= keep;
    }
    return 0;
}

/* The sums a segment can make, into its forward table F (F[len], w words
 * from sudoku_line_t's row size; B zeroed, as sum_forward does); cut to
 * what distinct values make when the segment lies in one unit.  -1 when
 * that leaves nothing. */
static int eqsum_reach(sudoku__prop_t *p, const sudoku_line_t *ln, uint64_t *F, uint64_t *B,
                       size_t w) {
    const uint16_t *lc = p->lm->line_cells + ln->first;
    size_t len = ln->len, i;
    uint64_t any = 0;
    sum_forward(p, lc, len, w, len * (size_t)p->n, F, B);
    if (len > 1 && in_one_unit(p, lc, len) && distinct_bounds(p, lc, len, F + len * w, w) < 0)
        return -1;
    for (i = 0; i < w; i++)
        any |= F[len * w + i];
    return any != 0 ? 0 : -1;
}

/* Equal sums (ISS's region-sum-line and equal-sum): the segments of line
 * k's group all add up to one total T.  What it prunes: each segment's
 * reachable sums R_s (a sum's forward table over its candidates, values
 * repeating), cut to [least, most] that distinct values make when the
 * segment lies in one unit; the totals left are the intersection of the
 * R_s (empty: a contradiction); then each cell of each segment keeps the
 * values that some reachable partial sum before it and some completion
 * after it turn into one of those totals (the sum's backward table), so a
 * value that cannot reach a common total goes.  This is stronger than
 * bounds ([min, max] of each segment) and weaker than full consistency:
 * segments are looked at apart (shared cells, and the units a segment
 * crosses only through its bounds).  On a full assignment each R_s is its
 * one sum, so the group holds exactly when all are equal.  A group is one
 * look however many of its lines are queued: a line whose group has
 * another line still queued waits for that one.  The second pass reuses
 * the first's forward tables (eqsum_words): a cell that lost values in
 * between (one shared by two segments) leaves a table that is a superset
 * of the true one, which keeps more values, never fewer, and queues the
 * group again. */
static int line_eqsum(sudoku__prop_t *p, int k) {
    const sudoku_line_t *lines = p->lm->lines;
    uint64_t T[SUDOKU_LINE_MAX_CELLS + 1], keep[SUDOKU_LINE_MAX_CELLS], *F, *B, any = 0;
    size_t tw = 0, w, i, at = 0;
    int count, first = sudoku__eqsum_group(lines, k, &count), j;
    for (j = first; j < first + count; j++)
        if (j != k && p->inlq[j]) return 0;
    for (j = first; j < first + count; j++) /* B: past every segment's forward table */
        at += ((size_t)lines[j].len + 1) * line_row_words(&lines[j], p->n);
    B = p->lscratch + at;
    at = 0;
    for (j = first; j < first + count; j++) { /* T: the totals every segment can make */
        size_t len = lines[j].len;
        w = line_row_words(&lines[j], p->n);
        F = p->lscratch + at;
        at += (len + 1) * w;
        if (eqsum_reach(p, &lines[j], F, B, w) < 0) return -1;
        if (j == first) {
            memcpy(T, F + len * w, w * sizeof *T);
            tw = w;
            continue;
        }
        if (w < tw) tw = w;
        for (i = 0; i < tw; i++)
            T[i] &= F[len * w + i];
    }
    for (i = 0; i < tw; i++)
        any |= T[i];
    if (any == 0) return -1;
    for (j = first, at = 0; j < first + count; j++) { /* each cell: a value that reaches T */
        const uint16_t *lc = p->lm->line_cells + lines[j].first;
        size_t len = lines[j].len;
        w = line_row_words(&lines[j], p->n);
        F = p->lscratch + at;
        at += (len + 1) * w;
        memset(B, 0, (len + 1) * w * sizeof *B);
        for (i = 0; i < w; i++)
            B[len * w + i] = i < tw ? T[i] & F[len * w + i] : 0;
        memset(keep, 0, len * sizeof *keep);
        if (sum_support(p, lc, len, w, F, B, keep) < 0) return -1;
        for (i = 0; i < len; i++)
            if (elim(p, lc[i], ~keep[i]) < 0) return -1;
    }
    return 0;
}

/* Sandwich: a layer of states is [W words: open by 1, sums][W words: open
 * by n, sums][a word: bit 0 before both, bit 1 after both]. */
static void sand_step(const uint64_t *src, uint64_t *dst, size_t w, int v, int n, size_t s) {
    const uint64_t *o1 = src, *on = src + w;
    uint64_t f = src[2 * w], *d1 = dst, *dn = dst + w, *df = dst + 2 * w;
    int closed1 = (o1[s / 64] >> (s % 64)) & 1, closedn = (on[s / 64] >> (s % 64)) & 1;
    if (v == 1) {
        if (f & 1) d1[0] |= 1; /* opens */
        if (closedn) *df |= 2; /* closes what n opened */
    } else if (v == n) {
        if (f & 1) dn[0] |= 1;
        if (closed1) *df |= 2;
    } else {
        bits_shl_or(d1, o1, w, v, s);
        bits_shl_or(dn, on, w, v, s);
        *df |= f & 3; /* before and after stay */
    }
}

/* The sets of k distinct values of U (a mask) that add up to s, for a
 * sandwich's gap whose outer cells (nouter of them, candidates `outer`)
 * take other values of the same unit: a set stands when the outer cells
 * keep enough values besides it.  ORs each standing set into *in and its
 * complement into *out; returns whether one stands, or -1 (*in and *out
 * untouched) when U has more than 12 values -- C(12, 6) = 924 sets at most
 * are tried.  Gosper's walk over the k-subsets of U's positions. */
static int sandwich_sets(const sudoku__prop_t *p, uint64_t U, int k, long s, uint64_t outer,
                         int nouter, uint64_t *in, uint64_t *out) {
    int val[12], u = 0, found = 0;
    if (p->sand_sets != NULL) { /* the table: only the k-sets adding up to s */
        size_t key = (size_t)s * (size_t)(p->n - 1) + (size_t)k;
        if ((size_t)s >= sand_sums(p->n)) return 0;
        for (uint32_t e = p->sand_at[key]; e < p->sand_at[key + 1]; e++) {
            uint64_t c = p->sand_sets[e];
            if ((c & ~U) == 0 && sudoku__popcount(outer & ~c) >= nouter) {
                *in |= c;
                *out |= ~c;
                found = 1;
            }
        }
        return found;
    }
    if (sudoku__popcount(U) > 12) return -1;
    for (uint64_t m = U; m != 0; m &= m - 1)
        val[u++] = sudoku__ctz(m);
    if (k > u) return 0;
    for (uint32_t idx = ((uint32_t)1 << k) - 1; idx < ((uint32_t)1 << u);) {
        uint64_t c = 0;
        long sum = 0;
        for (uint32_t b = idx; b != 0; b &= b - 1) {
            int at = val[sudoku__ctz(b)];
            c |= (uint64_t)1 << at;
            sum += at + 1;
        }
        if (sum == s && sudoku__popcount(outer & ~c) >= nouter) {
            *in |= c;
            *out |= ~c;
            found = 1;
        }
        if (idx == 0) break; /* k = 0: the empty set only */
        uint32_t low = idx & (0 - idx), r = idx + low;
        idx = r | (((idx ^ r) >> 2) / low);
    }
    return found;
}

/* A sandwich whose total fits a word and whose cells share a unit (a row
 * or a column: what the API makes), exactly on where the 1 and the n go:
 * every pair of places (i, j) with the 1 at one and the n at the other is
 * tried; it stands when no cell outside needs a 1 or an n, and the k cells
 * between can make the total -- the sum's tables over their other values,
 * and the bounds of k distinct values (the least k to the most k of their
 * union: a gap of k cells whose distinct values cannot reach the total is
 * never tried).  Each cell keeps what some standing pair gives it.  -1
 * when no pair stands. */
static int sandwich_pairs(sudoku__prop_t *p, const uint16_t *lc, size_t len, long s) {
    int n = p->n;
    uint64_t one = 1, top = (uint64_t)1 << (n - 1), mid = p->full & ~(one | top);
    uint64_t keep[SUDOKU_LINE_MAX_CELLS], F[SUDOKU_LINE_MAX_CELLS + 1],
        B[SUDOKU_LINE_MAX_CELLS + 1], sum_mask = ((uint64_t)1 << (s + 1)) - 1;
    int bad[SUDOKU_LINE_MAX_CELLS + 1], any = 0; /* bad[x]: cells before x with only 1, n */
    uint64_t pre[SUDOKU_LINE_MAX_CELLS + 1], suf[SUDOKU_LINE_MAX_CELLS + 1]; /* before / from x */
    memset(keep, 0, len * sizeof *keep);
    bad[0] = 0;
    pre[0] = suf[len] = 0;
    for (size_t x = 0; x < len; x++) {
        bad[x + 1] = bad[x] + ((p->cand[lc[x]] & mid) == 0);
        pre[x + 1] = pre[x] | (p->cand[lc[x]] & mid);
        suf[len - 1 - x] = suf[len - x] | (p->cand[lc[len - 1 - x]] & mid);
    }
    for (size_t i = 0; i < len; i++) {
        uint64_t ci = p->cand[lc[i]] & (one | top);
        if (ci == 0) continue;
        for (size_t j = i + 1; j < len; j++) {
            uint64_t cj = p->cand[lc[j]] & (one | top), U = 0, ends = 0, in_ok, out_ok;
            size_t k = j - i - 1;
            int rc;
            long lo = 0, hi = 0, lo1 = 0, hi1 = 0;
            if (cj == 0 || bad[i] != 0 || bad[len] - bad[j + 1] != 0) continue;
            if ((ci & one) && (cj & top)) ends |= 1; /* 1 at i, n at j */
            if ((ci & top) && (cj & one)) ends |= 2; /* n at i, 1 at j */
            if (ends == 0) continue;
            for (size_t t = i + 1; t < j; t++)
                U |= p->cand[lc[t]] & mid;
            if ((size_t)sudoku__popcount(U) < k) continue;
            mask_ends(U, (int)k, &lo, &hi);
            if (s < lo || s > hi) continue;
            if (k > 0) mask_ends(U, (int)k - 1, &lo1, &hi1);
            F[0] = 1; /* the gap's sums, its values other than 1 and n */
            for (size_t t = 0; t < k; t++) {
                uint64_t f = 0;
                for (uint64_t m = p->cand[lc[i + 1 + t]] & mid; m != 0; m &= m - 1)
                    f |= F[t] << (sudoku__ctz(m) + 1);
                F[t + 1] = f & sum_mask;
            }
            if (!(F[k] >> s & 1)) continue;
            in_ok = out_ok = 0; /* the gap's value sets: its values, what the outside keeps */
            rc = sandwich_sets(p, U, (int)k, s, pre[i] | suf[j + 1], (int)(len - k - 2), &in_ok,
                               &out_ok);
            if (rc == 0) continue;
            if (rc < 0) in_ok = out_ok = mid;
            B[k] = (uint64_t)1 << s;
            for (size_t t = k; t-- > 0;) {
                uint64_t b = 0, next = B[t + 1], kt = 0;
                for (uint64_t m = p->cand[lc[i + 1 + t]] & mid; m != 0; m &= m - 1) {
                    uint64_t bit = m & -m;
                    long v = sudoku__ctz(m) + 1, l, h;
                    b |= next >> v;
                    if (!((F[t] << v) & next)) continue;
                    l = sudoku__popcount(U & (bit - 1)) < (int)k - 1 ? lo - v : lo1;
                    h = sudoku__popcount(U & ~(bit | (bit - 1))) < (int)k - 1 ? hi - v : hi1;
                    if (l + v <= s && h + v >= s) kt |= bit;
                }
                B[t] = b;
                keep[i + 1 + t] |= kt & in_ok;
            }
            any = 1;
            keep[i] |= (ends & 1 ? one : 0) | (ends & 2 ? top : 0);
            keep[j] |= (ends & 1 ? top : 0) | (ends & 2 ? one : 0);
            for (size_t x = 0; x < i; x++)
                keep[x] |= p->cand[lc[x]] & mid & out_ok;
            for (size_t x = j + 1; x < len; x++)
                keep[x] |= p->cand[lc[x]] & mid & out_ok;
        }
    }
    if (!any) return -1;
    for (size_t x = 0; x < len; x++)
        if (elim(p, lc[x], ~keep[x]) < 0) return -1;
    return 0;
}

static int line_sandwich(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    size_t len = ln->len, L = line_row_words(ln, p->n), w = (L - 1) / 2, s = (size_t)ln->value, i;
    uint64_t *F = p->lscratch, *B = F + (len + 1) * L,
             g[2 * (SUDOKU_LINE_MAX_CELLS * 64 / 64 + 1) + 1];
    int n = p->n;
    if (s < 63) { /* cells of one unit (sum_groups made one group): see sandwich_pairs */
        size_t x = 0;
        while (x < len && p->lgroup[ln->first + x] == 0)
            x++;
        if (x == len) return sandwich_pairs(p, lc, len, (long)s);
    }
    memset(F, 0, 2 * (len + 1) * L * sizeof *F);
    F[2 * w] = 1; /* before both */
    for (i = 0; i < len; i++)
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1)
            sand_step(F + i * L, F + (i + 1) * L, w, sudoku__ctz(m) + 1, n, s);
    B[len * L + 2 * w] = 2;   /* after both */
    for (i = len; i-- > 0;) { /* a state is in B[i] when some value leads into B[i+1] */
        uint64_t *b = B + i * L;
        const uint64_t *nb = B + (i + 1) * L;
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1) {
            int v = sudoku__ctz(m) + 1;
            if (v == 1) {
                if (nb[0] & 1) b[2 * w] |= 1;
                if (nb[2 * w] & 2) b[w + s / 64] |= (uint64_t)1 << (s % 64);
            } else if (v == n) {
                if (nb[w] & 1) b[2 * w] |= 1;
                if (nb[2 * w] & 2) b[s / 64] |= (uint64_t)1 << (s % 64);
            } else {
                bits_shr_or(b, nb, w, v);
                bits_shr_or(b + w, nb + w, w, v);
                b[2 * w] |= nb[2 * w] & 3;
            }
        }
    }
    if ((B[2 * w] & 1) == 0) return -1;
    for (i = 0; i < len; i++) {
        uint64_t keep = 0;
        for (uint64_t m = p->cand[lc[i]]; m != 0; m &= m - 1) {
            int hit = 0;
            memset(g, 0, L * sizeof *g);
            sand_step(F + i * L, g, w, sudoku__ctz(m) + 1, n, s);
            for (size_t k = 0; k < L && !hit; k++)
                hit = (g[k] & B[(i + 1) * L + k]) != 0;
            if (hit) keep |= m & -m;
        }
        if (elim(p, lc[i], ~keep) < 0) return -1;
    }
    return 0;
}

/* A pair: each value keeps a partner its table allows. */
static int line_pair(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    const uint64_t *fwd = p->lm->pair_fwd + (size_t)ln->value * (size_t)p->n;
    const uint64_t *bwd = p->lm->pair_bwd + (size_t)ln->value * (size_t)p->n;
    uint64_t ka = 0, kb = 0, cb = p->cand[lc[1]];
    for (uint64_t m = p->cand[lc[0]]; m != 0; m &= m - 1)
        if (fwd[sudoku__ctz(m)] & cb) ka |= m & -m;
    if (elim(p, lc[0], ~ka) < 0) return -1;
    for (uint64_t m = cb, ca = p->cand[lc[0]]; m != 0; m &= m - 1)
        if (bwd[sudoku__ctz(m)] & ca) kb |= m & -m;
    return elim(p, lc[1], ~kb);
}

/* Masks of the values above the smallest of m, and below the largest
 * (value v is bit v - 1; 0 when m is 0). */
static inline uint64_t above_min(uint64_t m) { return (0 - (m & (0 - m))) << 1; }
static inline uint64_t below_max(uint64_t m) {
    return m == 0 ? 0 : ((uint64_t)1 << (63 - sudoku__clz(m))) - 1;
}

/* A skyscraper line, clue t: F[i][j] the tallest heights (a mask of
 * values) possible after cells 0..i with j + 1 of them seen, B[i][j] those
 * from which the rest can still show t; counts past t are dropped.  Cell i
 * hidden keeps the tallest h (its value below h), seen makes its value the
 * tallest (above the previous one): two mask operations per (i, j), so a
 * look costs len * t words, not a table per height.  A whole row or column
 * holds 1..n once each: its tallest after i + 1 cells is at least i + 1,
 * and n at the end. */
static int line_sky(sudoku__prop_t *p, const sudoku_line_t *ln, const uint16_t *lc) {
    size_t len = ln->len, t = (size_t)ln->value, i, j;
    uint64_t *F = p->lscratch, *B = F + len * t, end = p->full, keep;
    int perm = len == (size_t)p->n; /* a whole row or column: its values are 1..n, once each */
    for (i = 0; i < len && perm; i++)
        perm = p->lgroup[ln->first + i] == 0;
    if (t == 0 || t > len) return -1;
    memset(F, 0, 2 * len * t * sizeof *F);
    F[0] = p->cand[lc[0]];
    for (i = 1; i < len; i++) {
        const uint64_t *f = F + (i - 1) * t;
        uint64_t *g = F + i * t, v = p->cand[lc[i]], hid = above_min(v);
        uint64_t floor = perm ? ~(((uint64_t)1 << i) - 1) : ~(uint64_t)0;
        g[0] = f[0] & hid & floor;
        for (j = 1; j < t && j <= i; j++)
            g[j] = ((f[j] & hid) | (v & above_min(f[j - 1]))) & floor;
    }
    if (perm) end = (uint64_t)1 << (p->n - 1);
    if ((B[(len - 1) * t + t - 1] = F[(len - 1) * t + t - 1] & end) == 0) return -1;
    for (i = len; i-- > 1;) {
        const uint64_t *b = B + i * t, *f = F + (i - 1) * t;
        uint64_t *g = B + (i - 1) * t, v = p->cand[lc[i]];
        keep = 0;
        for (j = 0; j < t; j++) {
            uint64_t hid, seen, prev;
            if (b[j] == 0) continue;
            if ((hid = f[j] & b[j]) != 0) { /* hidden: tallest unchanged, the value below it */
                g[j] |= hid;
                keep |= v & below_max(hid);
            }
            if (j > 0 && (seen = v & b[j]) != 0 &&
                (prev = f[j - 1] & below_max(seen)) != 0) { /* seen: the value is the tallest */
                g[j - 1] |= prev;
                keep |= seen & above_min(prev);
            }
        }
        if (elim(p, lc[i], ~keep) < 0) return -1;
    }
    return elim(p, lc[0], ~B[0]);
}

static int line_look(sudoku__prop_t *p, int k) {
    const sudoku_line_t *ln = &p->lm->lines[k];
    const uint16_t *lc = p->lm->line_cells + ln->first;
    switch (ln->kind) {
    case SUDOKU_LINE_SKYSCRAPER: return line_sky(p, ln, lc);
    case SUDOKU_LINE_PAIR: return line_pair(p, ln, lc);
    case SUDOKU_LINE_ARROW: return line_arrow(p, ln, lc);
    case SUDOKU_LINE_RENBAN: return line_renban(p, ln, lc);
    case SUDOKU_LINE_BETWEEN: return line_ends(p, ln, lc, 0);
    case SUDOKU_LINE_LOCKOUT: return line_ends(p, ln, lc, 1);
    case SUDOKU_LINE_ZIPPER: return line_zipper(p, ln, lc);
    case SUDOKU_LINE_SANDWICH: return line_sandwich(p, ln, lc);
    case SUDOKU_LINE_XSUM: return line_xsum(p, ln, lc);
    case SUDOKU_LINE_SEGSUM:
    case SUDOKU_LINE_SEGLOOP: return line_segsum(p, ln, lc);
    case SUDOKU_LINE_EQSUM: return line_eqsum(p, k);
    case SUDOKU_LINE_CAGE: return ln->value > 0 ? line_cage(p, ln, lc) : 0;
    default: return ln->value > 0 ? line_sum(p, ln, lc) : 0; /* a cage without a total: its unit */
    }
}

/* Word operations a look at line k costs, roughly (the figures of the top
 * comment): what basic_run charges against the poll period. */
static uint64_t line_cost(const sudoku__prop_t *p, const sudoku_line_t *ln) {
    uint64_t c = (uint64_t)ln->len * (uint64_t)p->n;
    if (ln->kind == SUDOKU_LINE_SKYSCRAPER) return c;
    return ln->value > 64 ? c * (uint64_t)(ln->value / 64 + 1) : c;
}

/* Drains the peers queue, the pair queue and the line queue, in that order
 * (a line only when both others are empty), until all are empty.  The
 * search polls the clock every so many nodes (sudoku__tick), a period sized
 * for a node's cost without lines; lines can cost a hundred times more a
 * node, so their looks are charged: past PROP_LINE_POLL_WORK word
 * operations the next node polls (a deadline is then kept to within one
 * node's propagation, whatever the lines cost). */
#define PROP_LINE_POLL_WORK (1u << 22)
static int basic_run(sudoku__prop_t *p) {
    for (;;) {
        while (p->qhead < p->qtail)
            if (spread(p, p->queue[p->qhead++]) < 0) return -1;
        if (p->pqlen == 0) {
            int k;
            if (p->lqlen == 0) return 0;
            k = p->lq[p->lqhead];
            p->lqhead = p->lqhead + 1 == (uint32_t)p->lm->nlines ? 0 : p->lqhead + 1;
            p->lqlen--;
            p->inlq[k] = 0;
            p->lwork += line_cost(p, &p->lm->lines[k]);
            if (p->lwork >= PROP_LINE_POLL_WORK) {
                p->lwork = 0;
                p->run->poll_left = 1; /* the next sudoku__tick polls */
            }
            if (line_look(p, k) < 0) return -1;
            continue;
        }
        while (p->pqlen > 0) {
            int cell = p->pq[p->pqhead];
            p->pqhead = p->pqhead + 1 == (uint32_t)p->ncells ? 0 : p->pqhead + 1;
            p->pqlen--;
            p->inpq[cell] = 0;
            if (pair_cell(p, cell) < 0) return -1;
        }
    }
}

/* Locked candidates over every pair: a value that unit a holds only where
 * it meets b leaves the rest of b (pointing), and the other way round
 * (claiming).  -1 on a contradiction. */
static int lock_pass(sudoku__prop_t *p) {
    for (uint32_t k = 0; k < p->nlocks; k++) {
        const sudoku__lock_t *l = &p->locks[k];
        const uint16_t *ci = p->lock_cells + l->off, *ca = ci + l->ni, *cb = ca + l->na;
        uint64_t seg = 0, ra = 0, rb = 0, kill;
        for (int i = 0; i < l->ni; i++)
            seg |= p->cand[ci[i]];
        for (int i = 0; i < l->na; i++)
            ra |= p->cand[ca[i]];
        for (int i = 0; i < l->nb; i++)
            rb |= p->cand[cb[i]];
        if ((kill = seg & ~ra & rb) != 0) /* a's v only here: not in b's rest */
            for (int i = 0; i < l->nb; i++)
                if ((p->cand[cb[i]] & kill) && elim(p, cb[i], kill) < 0) return -1;
        if ((kill = seg & ~rb & ra) != 0)
            for (int i = 0; i < l->na; i++)
                if ((p->cand[ca[i]] & kill) && elim(p, ca[i], kill) < 0) return -1;
    }
    return 0;
}

int sudoku__prop_run(sudoku__prop_t *p) {
    const uint16_t *ucells = p->g->ucells;
    const uint32_t *ustart = p->g->ustart;
    int w, nw = p->words;
    for (;;) {
        uint64_t d[SUDOKU__UNIT_WORDS], any = 0;
        int changed = 0;
        if (basic_run(p) < 0) return -1;
        if (p->level < SUDOKU_LEVEL_HIDDEN_SINGLES) break;
        for (w = 0; w < nw; w++)
            any |= p->dirty[w];
        if (any != 0) {
            for (w = 0; w < nw; w++) {
                d[w] = p->dirty[w];
                p->dirty[w] = 0;
                p->dirty_hi[w] |= d[w];
            }
            for (w = 0; w < nw; w++)
                for (d[w] &= p->exact[w]; d[w] != 0; d[w] &= d[w] - 1) {
                    int u = w * 64 + sudoku__ctz(d[w]);
                    if (hidden_unit(p, ucells + ustart[u]) < 0) return -1;
                }
            /* hidden singles only ever queue cells: an empty queue means
             * nothing changed */
            if (p->qhead < p->qtail) continue;
        }
        if (p->nlocks > 0) {
            size_t before = p->tlen;
            if (lock_pass(p) < 0) return -1;
            if (p->tlen != before) continue;
        }
        if (p->level < SUDOKU_LEVEL_NAKED_PAIRS) break;
        for (w = 0, any = 0; w < nw; w++) {
            d[w] = p->dirty_hi[w];
            p->dirty_hi[w] = 0;
            any |= d[w];
        }
        if (any == 0) break;
        for (w = 0; w < nw; w++)
            for (; d[w] != 0; d[w] &= d[w] - 1) {
                int u = w * 64 + sudoku__ctz(d[w]), len = (int)(ustart[u + 1] - ustart[u]);
                const uint16_t *uc = ucells + ustart[u];
                int rc = (p->level == SUDOKU_LEVEL_NAKED_PAIRS)
                             ? pairs_unit(p, uc, len, &changed)
                             : subsets_unit(p, uc, len, &changed);
                if (rc < 0) return -1;
            }
        if (!changed) break;
    }
    p->dirty[0] = 0;
    for (w = 1; w < nw; w++)
        p->dirty[w] = 0;
    return 0;
}

void sudoku__prop_guess(sudoku__prop_t *p, int cell, int value) {
    uint64_t m = p->cand[cell];
    assert((m & (m - 1)) != 0 && (m & SUDOKU__BIT(value)) != 0);
    trail_push(p, cell, m);
    p->cand[cell] = SUDOKU__BIT(value);
    mark_dirty(p, cell);
    pair_touch(p, cell);
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
    for (; p->pqlen > 0; p->pqlen--) {
        p->inpq[p->pq[p->pqhead]] = 0;
        p->pqhead = p->pqhead + 1 == (uint32_t)p->ncells ? 0 : p->pqhead + 1;
    }
    for (; p->lqlen > 0; p->lqlen--) {
        p->inlq[p->lq[p->lqhead]] = 0;
        p->lqhead = p->lqhead + 1 == (uint32_t)p->lm->nlines ? 0 : p->lqhead + 1;
    }
    /* word 0 by hand: a loop here becomes a call to memset (7% of a
     * backtrack at 9x9, where one word is all there is) */
    p->dirty[0] = p->dirty_hi[0] = 0;
    for (int w = 1; w < p->words; w++)
        p->dirty[w] = p->dirty_hi[w] = 0;
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

/* The value whose guesses failed most lately, when it stands out (ISS's
 * rule: at least n conflicts, and more than 1.5 times the least of those
 * that failed at all): its bit and a fifth of its score; else 0. */
static uint64_t hot_value(const sudoku__prop_t *p, uint32_t *boost) {
    uint32_t most = 0, least = UINT32_MAX;
    int at = -1;
    for (int v = 0; v < p->n; v++) {
        uint32_t s = p->vscore[v];
        if (s > most) {
            most = s;
            at = v;
        }
        if (s != 0 && s < least) least = s;
    }
    *boost = 0;
    if (at < 0 || most < (uint32_t)p->n || 2 * (uint64_t)most <= 3 * (uint64_t)least) return 0;
    *boost = most / 5;
    return (uint64_t)1 << at;
}

/* ISS's "required value" branch: when the best cell has more than two
 * candidates, a value with two places left in an exact unit whose cells
 * fail often may be the better choice -- deciding it there splits the
 * search in two where the cell would split it k ways.  Taken when the
 * higher score of the two places over 2 beats the cell's score over its k
 * candidates; *cell and *value become that place and value. */
static void pick_required(const sudoku__prop_t *p, uint64_t bests, int bestk, int *cell,
                          int *value) {
    const uint32_t *ustart = p->g->ustart;
    const uint16_t *ucells = p->g->ucells;
    for (int w = 0; w < p->words; w++)
        for (uint64_t d = p->exact[w]; d != 0; d &= d - 1) {
            int u = w * 64 + sudoku__ctz(d);
            uint64_t b0 = 0, b1 = 0, b2 = 0, dec = 0, two;
            for (uint32_t i = ustart[u]; i < ustart[u + 1]; i++) { /* seen once, twice, more */
                uint64_t m = p->cand[ucells[i]];
                if ((m & (m - 1)) == 0) {
                    dec |= m;
                    continue;
                }
                b2 |= b1 & m;
                b1 |= b0 & m;
                b0 |= m;
            }
            for (two = b1 & ~b2 & ~dec; two != 0; two &= two - 1) {
                uint64_t bit = two & -two;
                int at = -1;
                uint32_t top = 0;
                for (uint32_t i = ustart[u]; i < ustart[u + 1]; i++)
                    if ((p->cand[ucells[i]] & bit) && p->score[ucells[i]] >= top) {
                        top = p->score[ucells[i]];
                        at = ucells[i];
                    }
                /* top / 2 > bests / bestk */
                if (at >= 0 && (uint64_t)top * (uint64_t)bestk > 2 * bests) {
                    bests = (uint64_t)top * (uint64_t)bestk / 2;
                    *cell = at;
                    *value = sudoku__ctz(bit) + 1;
                }
            }
        }
}

int sudoku__prop_pick_scored(const sudoku__prop_t *p, int *value) {
    const uint32_t *score = p->score;
    int best = -1, bestk = 1, c;
    uint32_t boost;
    uint64_t hot = hot_value(p, &boost), bests = 0;
    for (c = 0; c < p->ncells; c++) {
        uint64_t m = p->cand[c];
        if ((m & (m - 1)) != 0) {
            int k = sudoku__popcount(m);
            uint64_t sc = (uint64_t)score[c] + ((m & hot) != 0 ? boost : 0);
            /* sc / k > bests / bestk, without dividing */
            if (best < 0 || sc * (uint64_t)bestk > bests * (uint64_t)k) {
                best = c;
                bestk = k;
                bests = sc;
            }
        }
    }
    if (best < 0) return -1;
    *value = sudoku__ctz(p->cand[best]) + 1;
    if (bestk > 2 && bests > 0) pick_required(p, bests, bestk, &best, value);
    return best;
}

void sudoku__prop_conflict(sudoku__prop_t *p, int cell, int value) {
    p->score[cell]++;
    if (value > 0) p->vscore[value - 1]++;
    if (--p->decay == 0) {
        for (int c = 0; c < p->ncells; c++)
            p->score[c] >>= 1;
        for (int v = 0; v < p->n; v++) /* faster: a value's streak is shorter-lived */
            p->vscore[v] >>= 2;
        p->decay = SUDOKU__SCORE_DECAY;
    }
}

void sudoku__prop_extract(const sudoku__prop_t *p, uint8_t *out) {
    const uint8_t *live = p->g->live;
    int c;
    for (c = 0; c < p->ncells; c++)
        out[c] = (uint8_t)(sudoku__ctz(p->cand[c]) + 1);
    if (live != NULL)
        for (c = 0; c < p->ncells; c++)
            if (!live[c]) out[c] = 0;
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
                int value = 0, cell = p->score != NULL ? sudoku__prop_pick_scored(p, &value)
                                                       : sudoku__prop_pick(p);
                if (p->score == NULL) value = sudoku__ctz(p->cand[cell]) + 1;
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
                if (dead && p->score != NULL) sudoku__prop_conflict(p, cell, value);
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
            if (p->score != NULL) sudoku__prop_conflict(p, f->cell, 0);
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
    geom = sudoku__geom_bytes(run);
    prop = sudoku__prop_bytes(run, bits);
    bytes = geom + prop + SUDOKU__ALIGN((size_t)(empties + 1) * sizeof(frame_t));
    mem = sudoku__alloc(run, bytes);
    if (mem == NULL) return SEARCH_ENOMEM;
    sudoku__geom_build(run, mem);
    sudoku__prop_init(&p, run, mem + geom, bits);
    rc = search(&p, (frame_t *)(void *)(mem + geom + prop));
    sudoku__free(run, mem, bytes);
    return rc;
}
