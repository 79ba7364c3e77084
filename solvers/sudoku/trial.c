/* sudoku/trial.c -- the last resorts of the logic engine: a bounded trial
 * (assume a candidate, show that a contradiction follows) and a guess.
 *
 * trial, depth 0: assume cell c holds d, propagate naked and hidden singles
 *   on a copy of the candidates (st->tcand; no step records); when some
 *   cell runs out of candidates or some unit out of places for a digit, d
 *   leaves c.  That is a proof, the one a person makes with a pencil ("if
 *   this were 5, then ... and the box would have no 7").
 * trial, depth 1: the same with the medium techniques (locked candidates,
 *   pairs) and the line techniques of lines.c but the machine step in the
 *   propagation, on a second full state (st->sub).
 * guess: when no trial of any candidate refutes it, the cell with the
 *   fewest candidates gets the solution's value.  It is marked as what it is.
 *
 * Which candidates are tried: only those the solution (opts->solution)
 * rules out, since a true candidate can never lead to a contradiction;
 * cells with fewest candidates first, then by cell index and digit, so the
 * choice is deterministic.  The solution orders the search and never
 * replaces the proof.
 *
 * Bound: depth 0 costs one propagation (at most n*n placements) per
 * candidate, depth 1 one basic run (at most n^3 steps); both are polled
 * against nothing but their own size, so a trial step is bounded by
 * n^3 propagations of n^2 work. */
#include "solvers/sudoku/logic_internal.h"

/* Decided cell c's digit leaves its peers and what its pair rules forbid
 * leaves its partners; cells left with one candidate are queued.  Returns
 * the new queue length, or -1 on a contradiction. */
static inline int leave(sudoku_logic_t *st, int c, int nq, int *decided) {
    uint32_t *tc = st->tcand, b = tc[c];
    const uint16_t *pp;
    int np;
    pp = sl_peers(st, c, &np);
    for (int i = 0; i < np; i++) {
        int p = pp[i];
        if (!(tc[p] & b)) continue;
        tc[p] &= ~b;
        if (tc[p] == 0) return -1;
        if (!st->tdone[p] && !(tc[p] & (tc[p] - 1))) {
            st->tdone[p] = 1;
            (*decided)++;
            st->tq[nq++] = (uint16_t)p;
        }
    }
    if (st->pairs)
        for (uint32_t k = st->m->pair_start[c]; k < st->m->pair_start[c + 1]; k++) {
            int p = (int)(st->m->pair_adj[k] >> 8);
            uint32_t keep = sl_pair_keep(st, (int)(st->m->pair_adj[k] & 0xff), b);
            if (!(tc[p] & ~keep)) continue;
            tc[p] &= keep;
            if (tc[p] == 0) return -1;
            if (!st->tdone[p] && !(tc[p] & (tc[p] - 1))) {
                st->tdone[p] = 1;
                (*decided)++;
                st->tq[nq++] = (uint16_t)p;
            }
        }
    return nq;
}

int sudoku__logic_propagate(sudoku_logic_t *st, int nq, int hidden, uint64_t *work) {
    /* locals: the stores below through tc and tdone could alias st's
     * fields as far as the compiler knows, and reloading them cost 10% */
    int nn = st->nn, n = st->n, nunits = st->nunits, all_exact = st->all_exact, head = 0;
    int decided = 0;
    uint32_t *tc = st->tcand, all = st->all;
    uint8_t *tdone = st->tdone;
    const uint16_t *ucell = st->ucell;
    const uint8_t *ulen = st->ulen;
    for (int c = 0; c < nn; c++)
        decided += tdone[c];
    for (;;) {
        while (head < nq) {
            (*work)++;
            nq = leave(st, st->tq[head++], nq, &decided);
            if (nq < 0) return -1;
        }
        /* every cell decided and propagated: a full grid without conflict */
        if (decided == nn) return 1;
        if (!hidden) return 0;
        /* hidden singles, every exact unit */
        int before = nq;
        for (int u = 0; u < nunits; u++) {
            uint32_t one = 0, two = 0, fixed = 0;
            const uint16_t *uc = ucell + (size_t)u * (size_t)n;
            if (!all_exact && ulen[u] != n) continue;
            for (int k = 0; k < n; k++) {
                int c = uc[k];
                uint32_t m = tc[c];
                two |= one & m;
                one |= m;
                if (tdone[c]) fixed |= m;
            }
            if (one != all) return -1;
            for (uint32_t ex = one & ~two & ~fixed; ex; ex &= ex - 1) {
                uint32_t b = ex & (0u - ex);
                for (int k = 0; k < n; k++) {
                    int c = uc[k];
                    if (!(tc[c] & b)) continue;
                    if (!tdone[c]) {
                        tc[c] = b;
                        tdone[c] = 1;
                        decided++;
                        st->tq[nq++] = (uint16_t)c;
                    }
                    break;
                }
            }
        }
        if (nq == before) return 0;
    }
}

int sudoku__logic_assume(sudoku_logic_t *st, int c, int d, uint64_t *work) {
    const uint8_t *value = st->value, *live = st->m->live;
    const uint32_t *cand = st->cand;
    uint32_t *tcand = st->tcand;
    uint8_t *tdone = st->tdone;
    for (int i = 0, nn = st->nn; i < nn; i++) {
        if (value[i]) {
            tcand[i] = SL_BIT(value[i]);
            tdone[i] = 1;
        } else {
            tcand[i] = cand[i];
            tdone[i] = !live[i]; /* a hole is decided, with no digit */
        }
    }
    st->tcand[c] = SL_BIT(d);
    st->tdone[c] = 1;
    st->tq[0] = (uint16_t)c;
    return sudoku__logic_propagate(st, 1, 1, work);
}

/* Depth 0: assume c = d, propagate singles; 1 when a contradiction follows. */
static int refute_singles(sudoku_logic_t *st, int c, int d, uint64_t *work) {
    return sudoku__logic_assume(st, c, d, work) < 0;
}

/* Depth 1: the position copied into the sub state (which shares the
 * geometry), assume c = d, run the basic techniques. */
static int refute_basic(sudoku_logic_t *st, int c, int d, uint64_t *work) {
    sudoku_logic_t *sub = st->sub;
    sudoku__logic_copy(sub, st);
    sudoku__logic_place(sub, c, d);
    return sudoku__logic_run_basic(sub, work) < 0;
}

static int trial_at_depth(sudoku_logic_t *st, const uint8_t *sol, int depth, uint64_t *work,
                          sudoku_logic_step_t *s) {
    for (int want = 2; want <= st->n; want++)
        for (int c = 0; c < st->nn; c++) {
            uint32_t m = st->cand[c];
            if (st->value[c] || sl_popcount(m) != want) continue;
            for (; m; m &= m - 1) {
                int d = sl_ctz(m) + 1;
                if (d == sol[c]) continue;
                if (!(depth == 0 ? refute_singles(st, c, d, work) : refute_basic(st, c, d, work)))
                    continue;
                sl_step_begin(s, SUDOKU_TECH_TRIAL);
                s->trial = 1;
                s->digit = (uint8_t)d;
                s->size = (uint8_t)depth;
                s->weight += 0.5 * depth;
                sl_add(s, SUDOKU_ITEM_ELIM, c, d);
                sl_add(s, SUDOKU_ITEM_CELL, c, 0);
                sl_add(s, SUDOKU_ITEM_CAND, c, d);
                return 1;
            }
        }
    return 0;
}

int sudoku__logic_trial(sudoku_logic_t *st, const sudoku_logic_opts_t *opts, uint64_t *work,
                        sudoku_logic_step_t *s) {
    const uint8_t *sol = opts->solution;
    int best = -1;
    for (int c = 0; c < st->nn; c++)
        if (!st->value[c] && sl_live(st, c) && !(st->cand[c] & SL_BIT(sol[c])))
            return 0; /* the true value is gone: not a position to reason from */
    if (trial_at_depth(st, sol, 0, work, s)) return 1;
    if (st->sub != NULL && trial_at_depth(st, sol, 1, work, s)) return 1;
    if (opts->max_tech < SUDOKU_TECH_GUESS) return 0;
    for (int c = 0; c < st->nn; c++)
        if (!st->value[c] && sl_live(st, c) &&
            (best < 0 || sl_popcount(st->cand[c]) < sl_popcount(st->cand[best])))
            best = c;
    if (best < 0) return 0;
    sl_step_begin(s, SUDOKU_TECH_GUESS);
    s->trial = 1;
    s->digit = sol[best];
    sl_add(s, SUDOKU_ITEM_PLACE, best, sol[best]);
    sl_add(s, SUDOKU_ITEM_CELL, best, 0);
    return 1;
}
