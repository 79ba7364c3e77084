/* sudoku/trial.c -- the last resorts of the logic engine: a bounded trial
 * (assume a candidate, show that a contradiction follows), a nested
 * forcing chain (the same, with trials inside the assumption's world) and
 * a guess.
 *
 * trial, depth 0: assume cell c holds d, propagate naked and hidden singles
 *   on a copy of the candidates (st->tcand; no step records); when some
 *   cell runs out of candidates or some unit out of places for a digit, d
 *   leaves c.  That is a proof, the one a person makes with a pencil ("if
 *   this were 5, then ... and the box would have no 7").
 * trial, depth 1: the same with the medium techniques (locked candidates,
 *   pairs) and the line techniques of lines.c but the machine step in the
 *   propagation, on a second full state (st->sub).
 * nested-forcing-chain: depth 1, and inside the assumed world every
 *   candidate that a depth-0 trial there refutes leaves too, then the
 *   medium techniques run again, until a contradiction or nothing more
 *   goes: Sudoku Explainer's nested forcing chains (level 1: contradiction
 *   chains inside a dynamic chain), in the contradiction form.  The forum's
 *   hardest 9x9 puzzles, which depth 1 does not crack, all fall to it.
 * guess: when nothing above refutes a candidate, the cell with the fewest
 *   candidates gets the solution's value.  It is marked as what it is.
 *
 * Which candidates are tried: only those the solution (opts->solution)
 * rules out, since a true candidate can never lead to a contradiction;
 * cells with fewest candidates first, then by cell index and digit, so the
 * choice is deterministic.  The solution orders the search and never
 * replaces the proof: searching every candidate in the same order finds
 * the same step, only later.
 *
 * Bound: depth 0 costs one propagation (at most n*n placements) per
 * candidate, depth 1 one basic run (at most n^3 steps); both are polled
 * against nothing but their own size, so a trial step is bounded by
 * n^3 propagations of n^2 work.  A nested chain costs up to a pass of
 * n^3 inner trials per basic run, so it has a work budget (nn per inner
 * trial, nn*n per basic run, in units like the chains' budget) and polls
 * the request's deadline and cancel flag between candidates: past either
 * it gives up with no step (and the guess follows), so its grade never
 * depends on the clock. */
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

/* Depth 2, the nested chain: the depth-1 world of c = d, in which every
 * candidate a depth-0 trial refutes leaves, and the basic techniques run
 * again, until a contradiction (1) or nothing leaves (0).  The sub state
 * shares st's tcand scratch: depth 2 runs alone.  Past the budget: 0. */
static int refute_nested(sudoku_logic_t *st, int c, int d, uint64_t budget, uint64_t *work) {
    sudoku_logic_t *sub = st->sub;
    uint64_t start = *work, basic = (uint64_t)st->nn * (uint64_t)st->n;
    sudoku__logic_copy(sub, st);
    sudoku__logic_place(sub, c, d);
    for (;;) {
        int gone = 0, r;
        *work += basic;
        r = sudoku__logic_run_basic(sub, work);
        if (r != 0) return r < 0; /* solved: no contradiction */
        for (int x = 0; x < sub->nn; x++) {
            if (sub->value[x] || !sl_live(sub, x)) continue;
            for (uint32_t m = sub->cand[x]; m; m &= m - 1) {
                int y = sl_ctz(m) + 1;
                if (*work - start > budget) return 0;
                *work += (uint64_t)sub->nn;
                if (sudoku__logic_assume(sub, x, y, work) >= 0) continue;
                sl_elim(sub, x, y);
                gone++;
                if (sub->cand[x] == 0) return 1;
            }
        }
        if (!gone) return 0;
    }
}

/* The first candidate the solution rules out that depth `depth` refutes,
 * as a step: 1, or 0 none (or past the budget or stopped, depth 2). */
static int trial_at_depth(sudoku_logic_t *st, const sudoku_logic_opts_t *o, int depth,
                          uint64_t budget, uint64_t *work, sudoku_logic_step_t *s) {
    const uint8_t *sol = o->solution;
    uint64_t start = *work;
    for (int want = 2; want <= st->n; want++)
        for (int c = 0; c < st->nn; c++) {
            uint32_t m = st->cand[c];
            if (st->value[c] || sl_popcount(m) != want) continue;
            for (; m; m &= m - 1) {
                int d = sl_ctz(m) + 1, r;
                if (d == sol[c]) continue;
                if (depth == 2) {
                    uint64_t used = *work - start;
                    if (used > budget || search_check_now(o->ctl, 0) != 0) return 0;
                    r = refute_nested(st, c, d, budget - used, work);
                } else {
                    r = depth == 0 ? refute_singles(st, c, d, work) : refute_basic(st, c, d, work);
                }
                if (!r) continue;
                sl_step_begin(s, depth == 2 ? SUDOKU_TECH_NESTED_FORCING_CHAIN : SUDOKU_TECH_TRIAL);
                s->trial = 1;
                s->digit = (uint8_t)d;
                s->size = (uint8_t)depth;
                if (depth < 2) s->weight += 0.5 * depth;
                sl_add(s, SUDOKU_ITEM_ELIM, c, d);
                sl_add(s, SUDOKU_ITEM_CELL, c, 0);
                sl_add(s, SUDOKU_ITEM_CAND, c, d);
                return 1;
            }
        }
    return 0;
}

/* Whether every undecided cell still has its solution value: a position
 * to reason from (else the true value is gone, and no step is taken). */
static int sol_standing(const sudoku_logic_t *st, const uint8_t *sol) {
    for (int c = 0; c < st->nn; c++)
        if (!st->value[c] && sl_live(st, c) && !(st->cand[c] & SL_BIT(sol[c]))) return 0;
    return 1;
}

int sudoku__logic_trial(sudoku_logic_t *st, const sudoku_logic_opts_t *opts, uint64_t *work,
                        sudoku_logic_step_t *s) {
    if (!sol_standing(st, opts->solution)) return 0;
    if (trial_at_depth(st, opts, 0, 0, work, s)) return 1;
    return st->sub != NULL && trial_at_depth(st, opts, 1, 0, work, s);
}

int sudoku__logic_nested(sudoku_logic_t *st, const sudoku_logic_opts_t *opts, uint64_t budget,
                         uint64_t *work, sudoku_logic_step_t *s) {
    if (st->sub == NULL || !sol_standing(st, opts->solution)) return 0;
    return trial_at_depth(st, opts, 2, budget, work, s);
}

int sudoku__logic_guess(sudoku_logic_t *st, const sudoku_logic_opts_t *opts,
                        sudoku_logic_step_t *s) {
    const uint8_t *sol = opts->solution;
    int best = -1;
    if (!sol_standing(st, sol)) return 0;
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
