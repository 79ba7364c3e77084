/* killer/lcg_prop.c -- the propagators of the "learning" method: the
 * Killer constraints the clause-learning engine (sudoku/sat.c) does not
 * know, each inference explained by a clause, so that conflicts learn
 * nogoods over cage and cell values (lazy clause generation).  The model
 * and its variables are in killer/lcg.h; killer/lcg.c builds it.
 *
 * Events.  The engine calls killer__lcg_propagate() at each fixpoint of
 * its own propagation (the groups: cells, units, cage values, and the
 * learned clauses).  scan() reads the trail from the last call on: an x
 * literal made false narrows its cell's domain (dom[]) and wakes the
 * cell's cons, a y literal sets ypos / yneg of its cage's con and wakes
 * it.  undo() puts the bits back when the engine backtracks.  A true x
 * literal is not an event: the engine makes the cell's other literals
 * false at once.  Cons run from two queues, the cages first and the
 * derived sums only when no cage is waiting (they rarely change anything;
 * the advanced method measured the same, docs/killer-tuning.md).  After a
 * con implies something control goes back to the engine, whose groups and
 * clauses are cheaper; a table con does not wake itself with its own
 * implications (its result is a fixpoint), a sum con does (its bounds move).
 *
 * Table cons.  A combo (value set) of the con is dead when
 *   1. a value of it has y false, or a value outside it has y true (cages;
 *      killer: that one y literal), or
 *   2. some cell of the con has no value of it in its domain (killer: the
 *      cell's x literals of the combo's values, all false).
 * No live combo is a conflict (the killers of every combo).  A cage's y(v)
 * is false when no live combo holds v (explained by the killers of the
 * combos that hold v) and true when every live one does (the killers of
 * those that do not); the groups then do the rest.  A con without y
 * literals (derived sums, one-cell cages) removes from its cells the values
 * no live combo holds, and places a value every live combo holds when one
 * cell alone can take it (also explained by the other cells' x literals).
 * The live combos are a sparse set trailed by the engine's undo, so a run
 * looks at those only (run_table()); a dead combo's killer is chosen when
 * an explanation needs it, greedily for a short clause (add_killers()).
 * Not kept, measured in docs/killer-tuning.md: a perfect matching per
 * combination (Hall sets as killers), cage pointing.
 *
 * Sum cons.  sum(w(cell)) = S, w = the symbol, or n + 1 - v for a mirrored
 * cell; the cells are split into peer groups (distinct values).  A group of
 * k cells whose domains' union U has weights a1 < a2 < ... contributes at
 * least a1 + .. + ak and at most the k largest: that holds as long as no
 * cell of the group regains a value outside U lighter than ak, so the
 * explanation of a lower bound is those x literals (all false), and
 * symmetrically for upper bounds.  LO > S or HI < S is a conflict; a value
 * v of a cell is removed when LO - ak + w(v) > S (v is not among the k
 * lightest, so taking it replaces ak; the group's other cells then need
 * only the literals below a(k-1)), and symmetrically from above.
 *
 * Explanations are built in buf with a stamp per literal (no duplicates)
 * and handed to sudoku__sat_imply(); an implication that does not fit the
 * record stack is dropped (the engine counts it), which only weakens
 * propagation: every con detects its violation on a complete assignment.
 *
 * Thread-safety: everything is in the killer__lcg_t of one solve. */
#include <string.h>

#include "solvers/killer/lcg.h"

/* === Events ============================================================= */

static inline void enqueue(killer__lcg_t *L, uint32_t ci) {
    killer__lcg_con_t *c = &L->cons[ci];
    if (c->inq) return;
    c->inq = 1;
    if (c->derived) {
        uint32_t t = L->dqh + L->dqn++;
        L->dq[t >= L->ncons ? t - L->ncons : t] = ci;
    } else {
        uint32_t t = L->cqh + L->cqn++;
        L->cq[t >= L->ncons ? t - L->ncons : t] = ci;
    }
}

void killer__lcg_queue_all(killer__lcg_t *L) {
    uint32_t ci;
    for (ci = 0; ci < L->ncons; ci++)
        enqueue(L, ci);
}

/* Reads the trail from ext.head on; a con `self` (UINT32_MAX: none) is not
 * woken by what it implied itself. */
static void scan(killer__lcg_t *L, const sudoku__sat_t *s, uint32_t self) {
    const uint32_t n = (uint32_t)L->n;
    while (L->ext.head < s->ntrail) {
        uint32_t lit = s->trail[L->ext.head++], v = lit >> 1;
        if (v < L->nx) {
            uint32_t cell = v / n, k, e;
            if (!(lit & 1)) continue;
            L->dom[cell] &= ~((uint64_t)1 << (v - cell * n));
            e = L->cell_cons_off[cell + 1];
            for (k = L->cell_cons_off[cell]; k < e; k++)
                if (L->cell_cons[k] != self) enqueue(L, L->cell_cons[k]);
        } else {
            uint32_t yv = v - L->nx, ci = L->ycon[yv / n];
            uint64_t b = (uint64_t)1 << (yv % n);
            if (lit & 1)
                L->yneg[ci] |= b;
            else
                L->ypos[ci] |= b;
            if (ci != self && L->cons[ci].tabled) enqueue(L, ci);
        }
    }
}

void killer__lcg_undo(void *ud, const uint32_t *lits, uint32_t cnt) {
    killer__lcg_t *L = ud;
    const uint32_t n = (uint32_t)L->n, stop = (uint32_t)(lits - L->s->trail);
    uint32_t i;
    while (L->nctrail > 0 && L->ctrail[L->nctrail - 1].at > stop) {
        const killer__lcg_ctrail_t *e = &L->ctrail[--L->nctrail];
        L->nlive[e->ci] = e->old;
    }
    for (i = 0; i < cnt; i++) {
        uint32_t lit = lits[i], v = lit >> 1;
        if (v < L->nx) {
            uint32_t cell = v / n;
            if (lit & 1) L->dom[cell] |= (uint64_t)1 << (v - cell * n);
        } else {
            uint32_t yv = v - L->nx, ci = L->ycon[yv / n];
            uint64_t b = ~((uint64_t)1 << (yv % n));
            L->ypos[ci] &= b;
            L->yneg[ci] &= b;
        }
    }
}

/* === Explanations ======================================================= */

static inline void xreset(killer__lcg_t *L) {
    L->blen = 0;
    if (++L->stamp == 0) {
        memset(L->lstamp, 0, 2 * (size_t)L->nvars * sizeof(uint32_t));
        L->stamp = 1;
    }
}

static inline void xadd(killer__lcg_t *L, uint32_t lit) {
    if (L->lstamp[lit] != L->stamp) {
        L->lstamp[lit] = L->stamp;
        L->buf[L->blen++] = lit;
    }
}

/* Adds to buf the x literals of `cell` for the values of m (all false). */
static inline void xadd_cell(killer__lcg_t *L, int cell, uint64_t m) {
    uint32_t base = killer__lcg_x(L, cell, 1);
    for (; m != 0; m &= m - 1)
        xadd(L, base + 2u * (uint32_t)killer__ctz(m));
}

/* === Table cons ========================================================= */

/* Adds to buf a killer for each dead combo of con ci (combos[nlive ..
 * ncombo) of its slice: dead in the current state) that holds value bit b
 * (want 1), lacks it (want 0), or any (want -1), given the cells' domains
 * D and the cage's y literals yp / yn.  Greedy, to keep the explanation
 * short (the learned clauses come from it): a y literal already chosen
 * covers every combo it kills, then one more y literal (one literal) for a
 * combo that has one; the rest take the cell that adds the fewest new x
 * literals (all of a cell's x literals for the combo's values are false:
 * the cell can take none of them). */
static void add_killers(killer__lcg_t *L, const killer__lcg_con_t *con, uint32_t ci,
                        const uint64_t *D, uint64_t yp, uint64_t yn, uint64_t b, int want) {
    const uint64_t *cb = L->combos + con->combo_off;
    const uint16_t *cells = L->ccell + con->off;
    uint64_t yin = 0, ytin = 0, cin[KILLER_MAX_N];
    uint32_t c, i, npend = 0, *pend = L->pend;
    int k = con->k, j;
    for (c = L->nlive[ci]; c < con->ncombo; c++) {
        uint64_t C = cb[c], m;
        if (want >= 0 && ((C & b) != 0) != want) continue;
        if ((C & yin) || (ytin & ~C)) continue;
        if ((m = C & yn) != 0) {
            m &= ~m + 1;
            yin |= m;
            xadd(L, 2u * ((uint32_t)con->ybase + (uint32_t)killer__ctz(m)));
        } else if ((m = yp & ~C) != 0) {
            m &= ~m + 1;
            ytin |= m;
            xadd(L, 2u * ((uint32_t)con->ybase + (uint32_t)killer__ctz(m)) + 1u);
        } else
            pend[npend++] = c;
    }
    for (j = 0; j < k; j++)
        cin[j] = 0;
    for (i = 0; i < npend; i++) {
        uint64_t C = cb[pend[i]];
        int best = -1, bnew = 65;
        for (j = 0; j < k && bnew > 0; j++) {
            int nw;
            if (D[j] & C) continue;
            nw = killer__popcount(C & ~cin[j]);
            if (nw < bnew) {
                bnew = nw;
                best = j;
            }
        }
        assert(best >= 0); /* a dead combo has a killer */
        if (bnew > 0) {
            xadd_cell(L, cells[best], C & ~cin[best]);
            cin[best] |= C;
        }
    }
}

/* The live combos of a table con are combos[0 .. nlive) of its slice; a
 * run moves the combos it finds dead behind nlive (swapping) and pushes the
 * old nlive with the trail length it saw onto ctrail: what killed them are
 * literals of that trail prefix, so the combos stay dead until the engine
 * takes back a literal of it, and killer__lcg_undo() then restores nlive.
 * A run looks at the live combos only. */
static int run_table(killer__lcg_t *L, sudoku__sat_t *s, uint32_t ci) {
    const killer__lcg_con_t *con = &L->cons[ci];
    uint64_t *cb = L->combos + con->combo_off;
    const uint16_t *cells = L->ccell + con->off;
    uint64_t D[KILLER_MAX_N], U = 0, I = L->full, yp = 0, yn = 0;
    uint32_t c, nlive = L->nlive[ci], was = nlive;
    int k = con->k, j;
    for (j = 0; j < k; j++)
        D[j] = L->dom[cells[j]];
    if (con->ybase >= 0) {
        yp = L->ypos[ci];
        yn = L->yneg[ci];
    }
    for (c = 0; c < nlive;) {
        uint64_t C = cb[c];
        int dead = (C & yn) || (yp & ~C);
        for (j = 0; j < k && !dead; j++)
            dead = !(D[j] & C);
        if (!dead) {
            U |= C;
            I &= C;
            c++;
            continue;
        }
        nlive--; /* dead: behind the live ones */
        cb[c] = cb[nlive];
        cb[nlive] = C;
    }
    s->ticks += (was * (uint32_t)k) / 32u;
    if (nlive < was) {
        killer__lcg_ctrail_t *e = &L->ctrail[L->nctrail++];
        e->ci = ci;
        e->old = was;
        e->at = s->ntrail;
        L->nlive[ci] = nlive;
    }
    if (nlive == 0) {
        xreset(L);
        add_killers(L, con, ci, D, yp, yn, 0, -1);
        sudoku__sat_conflict(s, L->buf, L->blen);
        return -1;
    }
    if (con->ybase >= 0) {
        uint64_t m;
        for (m = L->full & ~U & ~yn; m != 0; m &= m - 1) {
            int v = killer__ctz(m);
            xreset(L);
            add_killers(L, con, ci, D, yp, yn, m & (~m + 1), 1);
            if (sudoku__sat_imply(s, 2u * ((uint32_t)con->ybase + (uint32_t)v) + 1u, L->buf,
                                  L->blen) < 0)
                return -1;
        }
        for (m = I & ~yp; m != 0; m &= m - 1) {
            int v = killer__ctz(m);
            xreset(L);
            add_killers(L, con, ci, D, yp, yn, m & (~m + 1), 0);
            if (sudoku__sat_imply(s, 2u * ((uint32_t)con->ybase + (uint32_t)v), L->buf, L->blen) <
                0)
                return -1;
        }
        return 0;
    }
    {
        uint64_t out = 0, m;
        for (j = 0; j < k; j++)
            out |= D[j] & ~U;
        for (m = out; m != 0; m &= m - 1) {
            uint64_t b = m & (~m + 1);
            int v = killer__ctz(m) + 1;
            xreset(L);
            add_killers(L, con, ci, D, yp, yn, b, 1);
            for (j = 0; j < k; j++)
                if ((D[j] & b) &&
                    sudoku__sat_imply(s, killer__lcg_x(L, cells[j], v) + 1u, L->buf, L->blen) < 0)
                    return -1;
        }
        /* a value every live combo holds, with one place left among the cells */
        for (m = I; m != 0; m &= m - 1) {
            uint64_t b = m & (~m + 1);
            int v = killer__ctz(m) + 1, at = -1, places = 0;
            for (j = 0; j < k; j++)
                if (D[j] & b) {
                    places++;
                    at = j;
                }
            if (places > 1 || (places == 1 && D[at] == b)) continue;
            xreset(L);
            add_killers(L, con, ci, D, yp, yn, b, 0);
            for (j = 0; j < k; j++)
                if (j != at) xadd(L, killer__lcg_x(L, cells[j], v));
            if (places == 0) {
                sudoku__sat_conflict(s, L->buf, L->blen);
                return -1;
            }
            if (sudoku__sat_imply(s, killer__lcg_x(L, cells[at], v), L->buf, L->blen) < 0)
                return -1;
        }
    }
    return 0;
}

/* === Sum cons =========================================================== */

/* Weight of value index v at a cell (mirrored: n + 1 - v, symbols 1..n). */
static inline long weight(const killer__lcg_t *L, int neg, int v) {
    return neg ? (long)(L->n + 1 - v) : L->w[v];
}

/* What run_sum() knows of one peer group. */
typedef struct grp_s {
    uint64_t u; /* union of its cells' domains */
    long lo, hi;
    long ak, ak1; /* the k-th and (k-1)-th lightest weights of u (ak1: k >= 2) */
    long bk, bk1; /* the k-th and (k-1)-th heaviest */
    int b, e, neg;
} grp_t;

/* Adds, for the cells [b, e) of con except position skip, the x literals
 * of values outside g->u lighter than lim (below 1) or heavier (below 0). */
static void add_group(killer__lcg_t *L, const killer__lcg_con_t *con, const grp_t *g, int skip,
                      long lim, int below) {
    uint64_t out = L->full & ~g->u, m = 0, r;
    int j;
    for (r = out; r != 0; r &= r - 1) {
        int v = killer__ctz(r) + 1;
        long wv = weight(L, g->neg, v);
        if (below ? wv < lim : wv > lim) m |= r & (~r + 1);
    }
    if (m == 0) return;
    for (j = g->b; j < g->e; j++)
        if (j != skip) xadd_cell(L, L->ccell[con->off + j], m);
}

/* Fills g from its cells' domains; returns -1 when they have fewer values
 * than cells. */
static int group_bounds(const killer__lcg_t *L, grp_t *g) {
    long a[KILLER_MAX_N];
    int cnt = 0, kk = g->e - g->b, i;
    if (g->neg) {
        for (i = L->n; i >= 1; i--)
            if (g->u & KILLER__BIT(i)) a[cnt++] = weight(L, 1, i);
    } else {
        for (i = 0; i < L->n; i++)
            if (g->u & KILLER__BIT(L->ord[i])) a[cnt++] = L->w[L->ord[i]];
    }
    if (cnt < kk || kk < 1) return -1; /* (a group has a cell) */
    g->lo = g->hi = 0;
    for (i = 0; i < kk; i++) {
        g->lo += a[i];
        g->hi += a[cnt - 1 - i];
    }
    g->ak = a[kk - 1];
    g->ak1 = kk >= 2 ? a[kk - 2] : 0;
    g->bk = a[cnt - kk];
    g->bk1 = kk >= 2 ? a[cnt - kk + 1] : 0;
    return 0;
}

static int run_sum(killer__lcg_t *L, sudoku__sat_t *s, uint32_t ci) {
    const killer__lcg_con_t *con = &L->cons[ci];
    const uint16_t *cells = L->ccell + con->off;
    grp_t g[KILLER_MAX_N];
    long LO = 0, HI = 0, S = con->sum;
    int ng = con->ngroups, gi, gj, j;
    for (gi = 0; gi < ng; gi++) {
        grp_t *G = &g[gi];
        G->b = L->gbeg[con->goff + gi];
        G->e = L->gbeg[con->goff + gi + 1];
        G->neg = L->cneg[con->off + G->b];
        G->u = 0;
        for (j = G->b; j < G->e; j++)
            G->u |= L->dom[cells[j]];
        if (group_bounds(L, G) != 0) {
            xreset(L);
            for (j = G->b; j < G->e; j++)
                xadd_cell(L, cells[j], L->full & ~G->u);
            sudoku__sat_conflict(s, L->buf, L->blen);
            return -1;
        }
        LO += G->lo;
        HI += G->hi;
    }
    s->ticks += (uint32_t)con->k / 4u + 1u;
    if (LO > S || HI < S) {
        int low = LO > S;
        xreset(L);
        for (gi = 0; gi < ng; gi++)
            add_group(L, con, &g[gi], -1, low ? g[gi].ak : g[gi].bk, low);
        sudoku__sat_conflict(s, L->buf, L->blen);
        return -1;
    }
    for (gi = 0; gi < ng; gi++) {
        const grp_t *G = &g[gi];
        long maxw = S - LO + G->ak, minw = S - HI + G->bk; /* a cell's weight window */
        for (j = G->b; j < G->e; j++) {
            uint64_t d = L->dom[cells[j]], m;
            for (m = d; m != 0; m &= m - 1) {
                int v = killer__ctz(m) + 1, hi;
                long wv = weight(L, G->neg, v);
                if (wv <= maxw && wv >= minw) continue;
                hi = wv > maxw; /* too heavy: the lower bounds explain it */
                xreset(L);
                for (gj = 0; gj < ng; gj++)
                    if (gj != gi) add_group(L, con, &g[gj], -1, hi ? g[gj].ak : g[gj].bk, hi);
                if (G->e - G->b >= 2) add_group(L, con, G, j, hi ? G->ak1 : G->bk1, hi);
                if (sudoku__sat_imply(s, killer__lcg_x(L, cells[j], v) + 1u, L->buf, L->blen) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* === The callback ======================================================= */

int killer__lcg_propagate(void *ud, sudoku__sat_t *s) {
    killer__lcg_t *L = ud;
    scan(L, s, UINT32_MAX);
    for (;;) {
        uint32_t ci, before = s->ntrail;
        killer__lcg_con_t *con;
        int rc;
        if (L->cqn > 0) {
            ci = L->cq[L->cqh];
            L->cqh = L->cqh + 1 == L->ncons ? 0 : L->cqh + 1;
            L->cqn--;
        } else if (L->dqn > 0) {
            ci = L->dq[L->dqh];
            L->dqh = L->dqh + 1 == L->ncons ? 0 : L->dqh + 1;
            L->dqn--;
        } else
            return 0;
        con = &L->cons[ci];
        con->inq = 0;
        L->runs++;
        rc = con->tabled ? run_table(L, s, ci) : run_sum(L, s, ci);
        if (rc < 0) return -1;
        if (s->ntrail != before) {
            L->implied += s->ntrail - before;
            scan(L, s, con->tabled ? ci : UINT32_MAX);
            return 0;
        }
    }
}
