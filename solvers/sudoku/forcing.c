/* sudoku/forcing.c -- forcing chains: the named last resort before trial.
 *
 * A set of branches one of which must be true -- the candidates of a cell
 * (cell forcing), or the places of a value in an exact unit (unit
 * forcing) -- is followed branch by branch: assume it, and see what
 * follows.  A candidate that every branch removes is false, whichever
 * branch is true; a cell every branch fills with the same value holds it.
 * That is the "verity" form of Sudoku Explainer's and HoDoKu's forcing
 * chains.  A branch that runs into a contradiction ends the set here: that
 * is trial's proof (trial.c), a later and heavier step.
 *
 *   cell-forcing-chain      cells, each branch followed by singles
 *                           (sudoku__logic_assume: naked and hidden)
 *   unit-forcing-chain      units, by singles
 *   dynamic-forcing-chain   cells and units, each branch followed by the
 *                           medium techniques and the line techniques a
 *                           person reads (sudoku__logic_run_basic on
 *                           st->sub, as trial's depth 1)
 *
 * Which set: fewest branches first (2, then 3, ...), cells before units,
 * each by index (then digit): deterministic, and the first set that
 * concludes anything is the step.  Branches need no solution, so hints
 * give these steps without one.
 *
 * Scratch: st->facc[c], what every branch so far removed from cell c (a
 * digit mask), and the trial's tcand/tdone/tq or st->sub for a branch.
 * One assumption (cell c holds d) is a branch of up to four sets (its
 * cell's, and its value's in each of the cell's units): its outcome is
 * kept (fmemo, on grids up to 12x12) while the position stays: stamped
 * with the position's number (st->fcall, which sudoku_logic_next() moves
 * on) and the depth, so each is followed once per position and depth.
 * Work: what the propagations count, plus a branch's price (nn cells
 * copied and read; nn * n when the medium techniques follow it), capped
 * by the budget like the chains: past it the search gives up, no step.
 * So on a 9x9 grid (budget 200,000) a dynamic search follows up to ~270
 * branches, on 16x16 ~50, on 25x25 ~13: the bound that keeps a big
 * grid's grade (and the generator's tests) from a long stall here. */
#include "solvers/sudoku/logic_internal.h"

/* What the branch's position leaves cell c: its value's bit once decided,
 * else its candidates. */
static uint32_t branch_left(const sudoku_logic_t *st, int depth, int c) {
    if (depth == 0) return st->tcand[c];
    return st->sub->value[c] ? SL_BIT(st->sub->value[c]) : st->sub->cand[c];
}

/* Follows branch c = d, or reads its outcome from this search's memo;
 * folds what it removes into facc (first: sets it).  Returns how many
 * cells still lose something in every branch so far, or -1 when the
 * branch contradicts. */
static int branch(sudoku_logic_t *st, int depth, int c, int d, int first, uint64_t *work) {
    uint32_t node = (uint32_t)(c * st->n + d - 1), *memo = NULL;
    uint32_t stamp = st->fcall * 2 + (uint32_t)depth;
    int left = 0, known = st->fstamp[node] == stamp;
    if (st->fmemo != NULL) memo = st->fmemo + (size_t)node * (size_t)st->nn;
    (*work)++;
    if (!known || memo == NULL) {
        /* a branch's price: its copy and read of the grid (nn), n times
         * that when the medium techniques follow it (each of their steps
         * reads every unit); the propagation adds its placements */
        *work += (uint64_t)st->nn * (depth ? (uint64_t)st->n : 1u);
        if (depth == 0) {
            st->fres[node] = (int8_t)(sudoku__logic_assume(st, c, d, work) < 0 ? -1 : 0);
        } else {
            sudoku__logic_copy(st->sub, st);
            sudoku__logic_place(st->sub, c, d);
            st->fres[node] = (int8_t)(sudoku__logic_run_basic(st->sub, work) < 0 ? -1 : 0);
        }
        st->fstamp[node] = stamp;
        if (memo != NULL && st->fres[node] == 0)
            for (int i = 0; i < st->nn; i++)
                memo[i] = branch_left(st, depth, i);
    }
    if (st->fres[node] < 0) return -1;
    for (int i = 0; i < st->nn; i++) {
        uint32_t gone;
        if (st->value[i] || !sl_live(st, i)) continue;
        gone = st->cand[i] & ~(memo != NULL ? memo[i] : branch_left(st, depth, i));
        st->facc[i] = first ? gone : st->facc[i] & gone;
        left += st->facc[i] != 0;
    }
    return left;
}

/* The conclusions in facc as items: a cell whose every candidate but one
 * goes is a placement, else each removed digit an elimination. */
static void conclude(const sudoku_logic_t *st, sudoku_logic_step_t *s) {
    for (int i = 0; i < st->nn; i++) {
        uint32_t gone = st->facc[i], keep;
        if (st->value[i] || !sl_live(st, i) || gone == 0) continue;
        keep = st->cand[i] & ~gone;
        if (keep && !(keep & (keep - 1))) {
            sl_add(s, SUDOKU_ITEM_PLACE, i, sl_ctz(keep) + 1);
            continue;
        }
        for (; gone; gone &= gone - 1)
            sl_add(s, SUDOKU_ITEM_ELIM, i, sl_ctz(gone) + 1);
    }
}

static void begin(sudoku_logic_step_t *s, int depth, int unit, int digit) {
    sl_step_begin(s, depth       ? SUDOKU_TECH_DYNAMIC_FORCING_CHAIN
                     : unit >= 0 ? SUDOKU_TECH_UNIT_FORCING_CHAIN
                                 : SUDOKU_TECH_CELL_FORCING_CHAIN);
    s->size = (uint8_t)depth;
    s->unit[0] = (int16_t)unit;
    s->digit = (uint8_t)digit;
}

/* Every candidate of cell c a branch.  1 with the step, 0 none. */
static int try_cell(sudoku_logic_t *st, int depth, int c, uint64_t *work, sudoku_logic_step_t *s) {
    int k = 0;
    for (uint32_t m = st->cand[c]; m; m &= m - 1, k++)
        if (branch(st, depth, c, sl_ctz(m) + 1, k == 0, work) <= 0) return 0;
    begin(s, depth, -1, 0);
    for (uint32_t m = st->cand[c]; m; m &= m - 1)
        sl_add(s, SUDOKU_ITEM_CAND, c, sl_ctz(m) + 1);
    conclude(st, s);
    return 1;
}

/* Every place of digit d in exact unit u a branch.  1 with the step, 0 none. */
static int try_unit(sudoku_logic_t *st, int depth, int u, int d, uint64_t *work,
                    sudoku_logic_step_t *s) {
    const uint16_t *uc = sl_ucells(st, u);
    uint32_t places = *sl_pos(st, u, d);
    int k = 0;
    for (uint32_t m = places; m; m &= m - 1, k++)
        if (branch(st, depth, uc[sl_ctz(m)], d, k == 0, work) <= 0) return 0;
    begin(s, depth, u, d);
    for (uint32_t m = places; m; m &= m - 1)
        sl_add(s, SUDOKU_ITEM_CAND, uc[sl_ctz(m)], d);
    conclude(st, s);
    return 1;
}

int sudoku__logic_forcing(sudoku_logic_t *st, int kind, int depth, uint64_t budget, uint64_t *work,
                          sudoku_logic_step_t *s) {
    uint64_t start = *work;
    for (int want = 2; want <= st->n; want++) {
        if (kind != 1)
            for (int c = 0; c < st->nn; c++) {
                if (*work - start > budget) return 0;
                if (st->value[c] || !sl_live(st, c) || sl_popcount(st->cand[c]) != want) continue;
                if (try_cell(st, depth, c, work, s)) return 1;
            }
        if (kind != 0)
            for (int u = 0; u < st->nunits; u++) {
                if (!sl_exact(st, u)) continue;
                for (int d = 1; d <= st->n; d++) {
                    if (*work - start > budget) return 0;
                    if (sl_popcount(*sl_pos(st, u, d)) != want) continue;
                    if (try_unit(st, depth, u, d, work, s)) return 1;
                }
            }
    }
    return 0;
}

void sudoku__logic_forcing_moved(sudoku_logic_t *st) {
    if (++st->fcall < (1u << 30)) return;
    /* wrapped: no stamp may look current */
    memset(st->fstamp, 0, (size_t)st->nn * (size_t)st->n * sizeof *st->fstamp);
    st->fcall = 1;
}
