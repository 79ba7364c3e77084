/* sudoku/chains.c -- simple colouring, x-chains, xy-chains, alternating
 * inference chains (AIC) and grouped AIC.
 *
 * Nodes are candidates (cell c, digit d), numbered c*n + d-1.  Links:
 *   strong  at least one of the two is true: the only two places of a digit
 *           in an exact unit (a conjugate pair: a unit of fewer than n
 *           cells need not hold the digit at all), or the two candidates
 *           of a bivalue cell;
 *   weak    at most one of the two is true: the same digit in two cells
 *           that see each other, or two digits of one cell.
 * An alternating chain A =S= B -W- C =S= ... =S= E, read as implications
 * (A false => B true => C false => ... => E true), proves "A or E is true",
 * so every candidate that is weakly linked to both A and E is false.  That
 * is the one elimination rule here; what differs between the techniques is
 * which links the search may use:
 *   x-chain   one digit: conjugate pairs strong, seeing peers weak;
 *   xy-chain  bivalue cells only: strong inside a cell, weak between cells
 *             on the same digit;
 *   aic       every strong and weak link above.
 * A chain only ever follows valid links, so an elimination is sound even if
 * a chain were to revisit a candidate; chains that do are skipped anyway, so
 * that every chain shown reads cleanly.
 *
 * Search: breadth-first from each start A (its "false" state), over states
 * (node, parity): false states follow strong links to true states, true
 * states weak links to false ones.  BFS finds the shortest chain from each
 * start; the shortest over all starts wins (ties: the first start in cell,
 * digit order), and the search from later starts stops at the length of the
 * best so far.  Work: states dequeued, counted in *work and capped by the
 * budget (deterministic: no clock), past which the search gives up with
 * what it has.  Scratch: seen/parent/queue in the state, indexed by
 * state = node*2 + parity, reset by a generation stamp instead of memset.
 *
 * Grouped AIC: nodes may also be groups, numbered nnodes + g: the places
 * of digit d in the intersection of two units u < v (st->ovl_*: a box
 * and a row or column on a classic grid) when there are two or more,
 * listed afresh for each search in st->gkey/gmask (digit, u, v order, so
 * a binary search finds one; at most st->ngcap = nnodes of them, the rest
 * left out).  "A group is true" = one of its cells holds d.  Links, as
 * above, between two disjoint nodes of digit d:
 *   strong  in an exact unit holding every cell of both, d's places are
 *           exactly the cells of the two (a group then must be all of d's
 *           places in its intersection);
 *   weak    every cell of one sees every cell of the other;
 * plus a candidate's links inside its cell; a group has none there.  The
 * elimination rule is the same, "weakly linked to both ends", read for
 * groups: a candidate of d outside a group that sees all of its cells.
 * Neighbours are visited as they are generated (no next[]: a node can
 * have more of them than next[] holds); a chain is kept only when it holds
 * a group (without one aic, which runs first, is the technique) and no
 * two of its nodes of one digit share a cell.  Scratch: seen/parent/queue
 * are sized for the candidates' states and as many groups'.
 *
 * Simple colouring: for one digit, the conjugate pairs form a graph whose
 * connected parts are 2-coloured; one colour is all true, the other all
 * false.  Two cells of one colour that see each other make that colour
 * false (a "wrap"); a cell that sees both colours loses the digit (a
 * "trap"). */
#include "solvers/sudoku/logic_internal.h"

enum { MODE_X = 0, MODE_XY = 1, MODE_AIC = 2 };

#define CHAIN_MAX_NODES 24

typedef struct chain_s {
    sudoku_logic_t *st;
    int mode, digit, maxlen;
    uint64_t budget, *work, spent;
    int best_len;
    int best[CHAIN_MAX_NODES];
} chain_t;

static int node_cell(const sudoku_logic_t *st, int node) { return node / st->n; }
static int node_digit(const sudoku_logic_t *st, int node) { return node % st->n + 1; }
static int node_of(const sudoku_logic_t *st, int c, int d) { return c * st->n + d - 1; }

/* Eliminations proven by "A or E": adds them to s when s != NULL; returns
 * how many. */
static int chain_elims(sudoku_logic_t *st, int a, int e, sudoku_logic_step_t *s) {
    int ca = node_cell(st, a), da = node_digit(st, a);
    int ce = node_cell(st, e), de = node_digit(st, e), count = 0;
    if (da == de) {
        int np;
        const uint16_t *pp = sl_peers(st, ca, &np);
        /* hoisted: sl_add_elim() stores could alias st as far as gcc knows */
        const uint64_t *sees = st->sees + (size_t)ce * (size_t)st->sw;
        const uint32_t *cand = st->cand, bit = SL_BIT(da);
        if (ca == ce) return 0;
        for (int i = 0; i < np; i++) {
            int p = pp[i];
            if (p == ce || !(cand[p] & bit) || !((sees[(unsigned)p >> 6] >> (p & 63)) & 1))
                continue;
            count++;
            if (s != NULL) sl_add_elim(st, s, p, da);
        }
    } else if (ca == ce) {
        for (uint32_t m = st->cand[ca] & ~(SL_BIT(da) | SL_BIT(de)); m; m &= m - 1) {
            count++;
            if (s != NULL) sl_add_elim(st, s, ca, sl_ctz(m) + 1);
        }
    } else if (sl_sees(st, ca, ce)) {
        if (st->cand[ca] & SL_BIT(de)) {
            count++;
            if (s != NULL) sl_add_elim(st, s, ca, de);
        }
        if (st->cand[ce] & SL_BIT(da)) {
            count++;
            if (s != NULL) sl_add_elim(st, s, ce, da);
        }
    }
    return count;
}

/* Strong neighbours of a node (the other end of each strong link). */
static int strong_next(const chain_t *ch, int node, int *out) {
    const sudoku_logic_t *st = ch->st;
    int c = node_cell(st, node), d = node_digit(st, node), k = 0;
    if (ch->mode != MODE_X && sl_popcount(st->cand[c]) == 2)
        out[k++] = node_of(st, c, sl_ctz(st->cand[c] & ~SL_BIT(d)) + 1);
    if (ch->mode != MODE_XY) { /* locals: out[] stores could alias st as far as gcc knows */
        const uint16_t *cu = sl_units(st, c);
        const uint8_t *ci = st->ci + (size_t)c * (size_t)st->K;
        const uint32_t *pos = st->pos + (d - 1);
        int nu = st->ncu[c], n = st->n;
        for (int j = 0; j < nu; j++) {
            int u = cu[j];
            uint32_t p = pos[(size_t)u * (size_t)n];
            if (sl_popcount(p) != 2 || !sl_exact(st, u)) continue;
            p &= ~((uint32_t)1 << ci[j]);
            out[k++] = node_of(st, sl_ucells(st, u)[sl_ctz(p)], d);
        }
    }
    return k;
}

/* Records the chain ending in state `end` if it is the best so far and
 * repeats no node.  Returns 1 when recorded. */
static int chain_take(chain_t *ch, int end, int len) {
    sudoku_logic_t *st = ch->st;
    int nodes[CHAIN_MAX_NODES], i = len;
    for (int s = end; s >= 0 && i > 0; s = st->parent[s])
        nodes[--i] = s >> 1;
    for (int a = 0; a < len; a++)
        for (int b = a + 1; b < len; b++)
            if (nodes[a] == nodes[b]) return 0;
    memcpy(ch->best, nodes, (size_t)len * sizeof nodes[0]);
    ch->best_len = len;
    return 1;
}

/* BFS from node a's false state; returns 1 when the budget ran out. */
static int chain_from(chain_t *ch, int a) {
    sudoku_logic_t *st = ch->st;
    int head = 0, tail = 0, level_end, depth = 1;
    int limit = ch->best_len > 0 ? ch->best_len - 1 : ch->maxlen;
    if (limit > ch->maxlen) limit = ch->maxlen;
    if (++st->stamp == 0) {
        memset(st->seen, 0, 2 * ((size_t)st->nnodes + st->ngcap) * sizeof st->seen[0]);
        st->stamp = 1;
    }
    st->seen[2 * a] = st->stamp;
    st->parent[2 * a] = -1;
    st->queue[tail++] = 2 * a;
    level_end = tail;
    while (head < tail) {
        int s = st->queue[head++], node = s >> 1, *next = st->next;
        int nn = 0;
        if (++ch->spent > ch->budget) return 1;
        if (depth >= limit) break;
        if ((s & 1) == 0) {
            nn = strong_next(ch, node, next);
        } else {
            int c = node_cell(st, node), d = node_digit(st, node), np;
            const uint16_t *pp = sl_peers(st, c, &np);
            for (int i = 0; i < np; i++) {
                int p = pp[i];
                if (!(st->cand[p] & SL_BIT(d))) continue;
                if (ch->mode == MODE_XY && sl_popcount(st->cand[p]) != 2) continue;
                next[nn++] = node_of(st, p, d);
            }
            if (ch->mode == MODE_AIC) /* the peers, then at most n - 1 digits: room */
                for (uint32_t m = st->cand[c] & ~SL_BIT(d); m; m &= m - 1)
                    next[nn++] = node_of(st, c, sl_ctz(m) + 1);
        }
        for (int i = 0; i < nn; i++) {
            int t = 2 * next[i] + !(s & 1);
            if (st->seen[t] == st->stamp) continue;
            st->seen[t] = st->stamp;
            st->parent[t] = s;
            /* a true state other than a's own ends a chain */
            if ((t & 1) && next[i] != a && chain_elims(st, a, next[i], NULL) > 0 &&
                chain_take(ch, t, depth + 1))
                return 0;
            st->queue[tail++] = t;
        }
        if (head == level_end) {
            depth++;
            level_end = tail;
        }
    }
    return 0;
}

static int chain_search(sudoku_logic_t *st, int mode, int maxlen, uint64_t budget, uint64_t *work,
                        sudoku_logic_step_t *s) {
    chain_t ch;
    ch.st = st;
    ch.mode = mode;
    ch.maxlen = maxlen;
    ch.budget = budget;
    ch.work = work;
    ch.spent = 0;
    ch.best_len = 0;
    for (int c = 0; c < st->nn && !(ch.best_len > 0 && ch.best_len <= 4); c++) {
        uint32_t m = st->cand[c];
        if (m == 0 || (mode == MODE_XY && sl_popcount(m) != 2)) continue;
        for (; m; m &= m - 1) {
            int d = sl_ctz(m) + 1; /* st->next: scratch, chain_from() fills it anew */
            if (strong_next(&ch, node_of(st, c, d), st->next) == 0) continue;
            if (chain_from(&ch, node_of(st, c, d))) goto out;
        }
    }
out:
    *work += ch.spent;
    if (ch.best_len == 0) return 0;
    {
        static const sudoku_tech_t tech[3] = {SUDOKU_TECH_X_CHAIN, SUDOKU_TECH_XY_CHAIN,
                                              SUDOKU_TECH_AIC};
        int len = ch.best_len, a = ch.best[0], e = ch.best[len - 1];
        sl_step_begin(s, tech[mode]);
        chain_elims(st, a, e, s);
        s->size = (uint8_t)len;
        if (node_digit(st, a) == node_digit(st, e)) s->digit = (uint8_t)node_digit(st, a);
        if (mode == MODE_X)
            s->weight += 0.1 * (len > 4 ? ((len - 4) / 2 < 7 ? (len - 4) / 2 : 7) : 0);
        else if (mode == MODE_XY)
            s->weight += 0.1 * (len / 2 > 3 ? (len / 2 - 3 < 9 ? len / 2 - 3 : 9) : 0);
        else
            s->weight += 0.1 * (len > 4 ? (len - 4 < 29 ? len - 4 : 29) : 0);
        for (int i = 0; i < len; i++) {
            int c = node_cell(st, ch.best[i]), dup = 0;
            for (int j = 0; j < i; j++)
                if (node_cell(st, ch.best[j]) == c) dup = 1;
            if (!dup) sl_add(s, SUDOKU_ITEM_CELL, c, 0);
        }
        for (int i = 0; i < len; i++)
            sl_add(s, SUDOKU_ITEM_CAND, node_cell(st, ch.best[i]), node_digit(st, ch.best[i]));
        return 1;
    }
}

int sudoku__logic_x_chain(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                          sudoku_logic_step_t *step) {
    return chain_search(st, MODE_X, 16, budget, work, step);
}

int sudoku__logic_xy_chain(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                           sudoku_logic_step_t *step) {
    return chain_search(st, MODE_XY, 20, budget, work, step);
}

int sudoku__logic_aic(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                      sudoku_logic_step_t *step) {
    return chain_search(st, MODE_AIC, CHAIN_MAX_NODES, budget, work, step);
}

/* === Simple colouring === */

int sudoku__logic_colouring(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    int n = st->n, nn = st->nn;
    int8_t *colour = st->colour;
    int16_t *cid = st->cid; /* component of a cell, -1 none yet */
    uint16_t *comp = st->comp;
    for (int d = 1; d <= n; d++) {
        uint32_t b = SL_BIT(d);
        int ncomp = 0;
        for (int c = 0; c < nn; c++)
            cid[c] = -1;
        for (int c0 = 0; c0 < nn; c0++) {
            if (!(st->cand[c0] & b) || cid[c0] >= 0) continue;
            /* grow the component of c0 over conjugate pairs, two colours */
            int k = 0, head = 0, me = ncomp++;
            colour[c0] = 0;
            cid[c0] = (int16_t)me;
            comp[k++] = (uint16_t)c0;
            while (head < k) {
                int c = comp[head++];
                const uint16_t *cu = sl_units(st, c);
                for (int j = 0; j < st->ncu[c]; j++) {
                    int u = cu[j];
                    uint32_t p = *sl_pos(st, u, d);
                    if (!sl_exact(st, u) || sl_popcount(p) != 2) continue;
                    int o = sl_ucells(st, u)[sl_ctz(p & ~((uint32_t)1 << sl_index(st, c, j)))];
                    if (cid[o] < 0) {
                        cid[o] = (int16_t)me;
                        colour[o] = (int8_t)(1 - colour[c]);
                        comp[k++] = (uint16_t)o;
                    }
                }
            }
            if (k < 3) continue;
            int any = 0, wrap = -1;
            sl_step_begin(s, SUDOKU_TECH_SIMPLE_COLOURING);
            for (int i = 0; i < k && wrap < 0; i++)
                for (int j = i + 1; j < k; j++)
                    if (colour[comp[i]] == colour[comp[j]] && sl_sees(st, comp[i], comp[j])) {
                        wrap = colour[comp[i]];
                        break;
                    }
            if (wrap >= 0) {
                for (int i = 0; i < k; i++)
                    if (colour[comp[i]] == wrap) any |= sl_add_elim(st, s, comp[i], d);
            } else {
                for (int p = 0; p < nn; p++) {
                    int seen0 = 0, seen1 = 0;
                    if (!(st->cand[p] & b) || cid[p] == me) continue;
                    for (int i = 0; i < k && !(seen0 && seen1); i++)
                        if (sl_sees(st, p, comp[i])) {
                            if (colour[comp[i]] == 0)
                                seen0 = 1;
                            else
                                seen1 = 1;
                        }
                    if (seen0 && seen1) any |= sl_add_elim(st, s, p, d);
                }
            }
            if (!any) continue;
            int first = 0;
            s->digit = (uint8_t)d;
            s->unit[0] = (int16_t)(wrap >= 0 ? 0 : 1);
            for (int col = 0; col < 2; col++)
                for (int i = 0; i < k; i++)
                    if (colour[comp[i]] == col) {
                        sl_add(s, SUDOKU_ITEM_CAND, comp[i], d);
                        first += col == 0;
                    }
            s->size = (uint8_t)(first > 255 ? 255 : first);
            for (int i = 0; i < k; i++)
                sl_add(s, SUDOKU_ITEM_CELL, comp[i], 0);
            return 1;
        }
    }
    return 0;
}

/* === Grouped AIC === */

typedef struct gchain_s {
    sudoku_logic_t *st;
    uint32_t ng;                   /* groups in this position */
    uint32_t gstart[SL_MAX_N + 1]; /* digit d's groups: gstart[d-1] .. gstart[d]-1 */
    uint64_t budget, spent;
    int maxlen, best_len, best[CHAIN_MAX_NODES];
    int a, tail, depth; /* the BFS under way: its start, queue end, chain length */
} gchain_t;

static int g_is_group(const sudoku_logic_t *st, int node) { return node >= (int)st->nnodes; }

static int g_digit(const sudoku_logic_t *st, int node) {
    if (!g_is_group(st, node)) return node_digit(st, node);
    return (int)(st->gkey[node - (int)st->nnodes] >> 32);
}

/* The cells of a node (one for a candidate) into out; returns how many. */
static int g_cells(const sudoku_logic_t *st, int node, int *out) {
    int k = 0;
    if (!g_is_group(st, node)) {
        out[0] = node_cell(st, node);
        return 1;
    }
    int g = node - (int)st->nnodes, u = (int)((st->gkey[g] >> 16) & 0xffff);
    for (uint32_t m = st->gmask[g]; m; m &= m - 1)
        out[k++] = sl_ucells(st, u)[sl_ctz(m)];
    return k;
}

/* Whether cell x is one of cells[0..k). */
static int g_in(const int *cells, int k, int x) {
    for (int i = 0; i < k; i++)
        if (cells[i] == x) return 1;
    return 0;
}

/* Whether candidate (x, dx) is false when node N (cells[0..k), digit d) is
 * true, and is not part of N: a weak link. */
static int g_linked(const sudoku_logic_t *st, int node, const int *cells, int k, int d, int x,
                    int dx) {
    if (!g_is_group(st, node) && cells[0] == x) return dx != d;
    return dx == d && sl_sees_all(st, x, cells, k);
}

/* The groups of the position: for each digit, each two units u < v that
 * share two or more cells (the overlap lists, cells, k), the digit's places in
 * their intersection when there are two or more of them; in digit, u, v
 * order, so gkey[] is sorted.  Past st->ngcap the rest are left out. */
static void g_build(gchain_t *gc) {
    sudoku_logic_t *st = gc->st;
    uint32_t ng = 0, cap = st->ngcap;
    for (int d = 1; d <= st->n; d++) {
        gc->gstart[d - 1] = ng;
        for (int u = 0; u < st->nunits && ng < cap; u++) {
            uint32_t p = *sl_pos(st, u, d);
            if (sl_popcount(p) < 2) continue;
            for (uint32_t k = st->ovl_start[u]; k < st->ovl_start[u + 1] && ng < cap; k++) {
                uint32_t m = p & st->ovl_mask[k];
                if (st->ovl_unit[k] < u || sl_popcount(m) < 2) continue;
                st->gkey[ng] = (uint64_t)d << 32 | (uint64_t)u << 16 | st->ovl_unit[k];
                st->gmask[ng++] = m;
            }
        }
    }
    gc->gstart[st->n] = ng;
    gc->ng = ng;
}

/* Eliminations proven by "A or E" when A or E may be a group: the
 * candidates weakly linked to both (g_linked); added to s when s != NULL.
 * Returns how many. */
static int g_elims(sudoku_logic_t *st, int a, int e, sudoku_logic_step_t *s) {
    int ca[SL_MAX_N], ce[SL_MAX_N], count = 0, np;
    if (!g_is_group(st, a) && !g_is_group(st, e)) return chain_elims(st, a, e, s);
    if (g_is_group(st, a)) { /* a single end, if there is one, names the candidates */
        int t = a;
        a = e;
        e = t;
    }
    int ka = g_cells(st, a, ca), ke = g_cells(st, e, ce), da = g_digit(st, a), de = g_digit(st, e);
    const uint16_t *pp = sl_peers(st, ca[0], &np);
    if (da != de) { /* e is a group: only its digit in a's cell, if a is a candidate */
        if (g_is_group(st, a) || !(st->cand[ca[0]] & SL_BIT(de)) || !sl_sees_all(st, ca[0], ce, ke))
            return 0;
        if (s != NULL) sl_add_elim(st, s, ca[0], de);
        return 1;
    }
    for (int i = 0; i < np; i++) {
        int p = pp[i];
        if (!(st->cand[p] & SL_BIT(da)) || !g_linked(st, a, ca, ka, da, p, da) ||
            !g_linked(st, e, ce, ke, de, p, da))
            continue;
        count++;
        if (s != NULL) sl_add_elim(st, s, p, da);
    }
    return count;
}

/* Records the chain ending in state `end` if it holds a group and no two
 * of its nodes of one digit share a cell.  Returns 1 when recorded. */
static int g_take(gchain_t *gc, int end, int len) {
    sudoku_logic_t *st = gc->st;
    int nodes[CHAIN_MAX_NODES], i = len, groups = 0;
    for (int s = end; s >= 0 && i > 0; s = st->parent[s])
        nodes[--i] = s >> 1;
    for (int a = 0; a < len; a++) {
        int ca[SL_MAX_N], ka = g_cells(st, nodes[a], ca);
        groups += g_is_group(st, nodes[a]);
        for (int b = a + 1; b < len; b++) {
            int cb[SL_MAX_N], kb;
            if (g_digit(st, nodes[a]) != g_digit(st, nodes[b])) continue;
            kb = g_cells(st, nodes[b], cb);
            for (int j = 0; j < kb; j++)
                if (g_in(ca, ka, cb[j])) return 0;
        }
    }
    if (groups == 0) return 0;
    memcpy(gc->best, nodes, (size_t)len * sizeof nodes[0]);
    gc->best_len = len;
    return 1;
}

/* Reaches `node` from state s (the other parity).  Returns 1 when that
 * ends the search from this start (a chain was recorded). */
static int g_visit(gchain_t *gc, int s, int node) {
    sudoku_logic_t *st = gc->st;
    int t = 2 * node + !(s & 1);
    if (st->seen[t] == st->stamp) return 0;
    st->seen[t] = st->stamp;
    st->parent[t] = s;
    /* a true state other than the start's own ends a chain */
    if ((t & 1) && node != gc->a && g_elims(st, gc->a, node, NULL) > 0 &&
        g_take(gc, t, gc->depth + 1))
        return 1;
    st->queue[gc->tail++] = t;
    return 0;
}

/* The index of cell c in unit u (c must be in u). */
static int g_index(const sudoku_logic_t *st, int c, int u) {
    const uint16_t *cu = sl_units(st, c);
    for (int j = 0; j < st->ncu[c]; j++)
        if (cu[j] == u) return sl_index(st, c, j);
    return 0;
}

/* Visits the group of digit d whose cells are r (unit w's indices): r
 * must be all of d's places in w's intersection with another unit. */
static int g_visit_group(gchain_t *gc, int s, int d, int w, uint32_t r) {
    sudoku_logic_t *st = gc->st;
    uint32_t p = *sl_pos(st, w, d);
    for (uint32_t k = st->ovl_start[w]; k < st->ovl_start[w + 1]; k++) {
        uint32_t mk = st->ovl_mask[k], lo = gc->gstart[d - 1], hi = gc->gstart[d];
        int v = st->ovl_unit[k];
        uint64_t key =
            (uint64_t)d << 32 | (uint64_t)(w < v ? w : v) << 16 | (uint64_t)(w < v ? v : w);
        if ((r & ~mk) != 0 || (p & mk) != r) continue;
        while (lo < hi) { /* gkey[] is sorted */
            uint32_t mid = lo + (hi - lo) / 2;
            if (st->gkey[mid] < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < gc->gstart[d] && st->gkey[lo] == key && g_visit(gc, s, (int)(st->nnodes + lo)))
            return 1;
    }
    return 0;
}

/* From a false state: the strong links.  A candidate's other one in a
 * bivalue cell; in each exact unit holding all of the node's cells, the
 * digit's other places there when they are one cell or one group. */
static int g_strong(gchain_t *gc, int s, int node) {
    sudoku_logic_t *st = gc->st;
    int cells[SL_MAX_N], k = g_cells(st, node, cells), d = g_digit(st, node), c = cells[0];
    const uint16_t *cu = sl_units(st, c);
    if (!g_is_group(st, node) && sl_popcount(st->cand[c]) == 2 &&
        g_visit(gc, s, node_of(st, c, sl_ctz(st->cand[c] & ~SL_BIT(d)) + 1)))
        return 1;
    for (int j = 0; j < st->ncu[c]; j++) {
        int w = cu[j], i;
        uint32_t own = 0, r;
        if (!sl_exact(st, w)) continue;
        for (i = 0; i < k && sl_in_unit(st, cells[i], w); i++)
            own |= (uint32_t)1 << g_index(st, cells[i], w);
        if (i < k) continue;
        r = *sl_pos(st, w, d) & ~own;
        if (sl_popcount(r) == 1) {
            if (g_visit(gc, s, node_of(st, sl_ucells(st, w)[sl_ctz(r)], d))) return 1;
        } else if (sl_popcount(r) >= 2 && g_visit_group(gc, s, d, w, r)) {
            return 1;
        }
    }
    return 0;
}

/* From a true state: the weak links.  The digit in cells that see every
 * cell of the node, and groups of it all of whose cells do; a
 * candidate's other digits in its cell. */
static int g_weak(gchain_t *gc, int s, int node) {
    sudoku_logic_t *st = gc->st;
    int cells[SL_MAX_N], k = g_cells(st, node, cells), d = g_digit(st, node), np;
    const uint16_t *pp = sl_peers(st, cells[0], &np);
    for (int i = 0; i < np; i++) {
        int p = pp[i];
        if (!(st->cand[p] & SL_BIT(d)) || (k > 1 && !sl_sees_all(st, p, cells, k))) continue;
        if (g_visit(gc, s, node_of(st, p, d))) return 1;
    }
    if (!g_is_group(st, node))
        for (uint32_t m = st->cand[cells[0]] & ~SL_BIT(d); m; m &= m - 1)
            if (g_visit(gc, s, node_of(st, cells[0], sl_ctz(m) + 1))) return 1;
    for (uint32_t g = gc->gstart[d - 1]; g < gc->gstart[d]; g++) {
        const uint16_t *uc = sl_ucells(st, (int)((st->gkey[g] >> 16) & 0xffff));
        uint32_t m = st->gmask[g];
        for (; m; m &= m - 1) /* most fail at the first cell: no g_cells() */
            if (!sl_sees_all(st, uc[sl_ctz(m)], cells, k)) break;
        if (m == 0 && g_visit(gc, s, (int)(st->nnodes + g))) return 1;
    }
    return 0;
}

/* BFS from node a's false state, as chain_from(); returns 1 when the
 * budget ran out. */
static int g_from(gchain_t *gc, int a) {
    sudoku_logic_t *st = gc->st;
    int head = 0, level_end, depth = 1;
    int limit = gc->best_len > 0 ? gc->best_len - 1 : gc->maxlen;
    if (limit > gc->maxlen) limit = gc->maxlen;
    if (++st->stamp == 0) {
        memset(st->seen, 0, 2 * ((size_t)st->nnodes + st->ngcap) * sizeof st->seen[0]);
        st->stamp = 1;
    }
    gc->a = a;
    gc->tail = 0;
    st->seen[2 * a] = st->stamp;
    st->parent[2 * a] = -1;
    st->queue[gc->tail++] = 2 * a;
    level_end = gc->tail;
    while (head < gc->tail) {
        int s = st->queue[head++];
        if (++gc->spent > gc->budget) return 1;
        if (depth >= limit) break;
        gc->depth = depth;
        if ((s & 1) == 0 ? g_strong(gc, s, s >> 1) : g_weak(gc, s, s >> 1)) return 0;
        if (head == level_end) {
            depth++;
            level_end = gc->tail;
        }
    }
    return 0;
}

int sudoku__logic_grouped_aic(sudoku_logic_t *st, uint64_t budget, uint64_t *work,
                              sudoku_logic_step_t *s) {
    gchain_t gc;
    int out = 0;
    gc.st = st;
    gc.budget = budget;
    gc.spent = 0;
    gc.maxlen = CHAIN_MAX_NODES;
    gc.best_len = 0;
    g_build(&gc);
    if (gc.ng == 0) return 0;
    /* starts: every candidate in cell, digit order, then every group */
    for (int c = 0; c < st->nn && !out && !(gc.best_len > 0 && gc.best_len <= 4); c++)
        for (uint32_t m = st->cand[c]; m && !out; m &= m - 1)
            out = g_from(&gc, node_of(st, c, sl_ctz(m) + 1));
    for (uint32_t g = 0; g < gc.ng && !out && !(gc.best_len > 0 && gc.best_len <= 4); g++)
        out = g_from(&gc, (int)(st->nnodes + g));
    *work += gc.spent;
    if (gc.best_len == 0) return 0;
    int len = gc.best_len, a = gc.best[0], e = gc.best[len - 1], first;
    sl_step_begin(s, SUDOKU_TECH_GROUPED_AIC);
    g_elims(st, a, e, s);
    s->size = (uint8_t)len;
    if (g_digit(st, a) == g_digit(st, e)) s->digit = (uint8_t)g_digit(st, a);
    s->weight += 0.1 * (len > 4 ? (len - 4 < 26 ? len - 4 : 26) : 0);
    first = s->nitems;
    for (int i = 0; i < len; i++) {
        int cells[SL_MAX_N], k = g_cells(st, gc.best[i], cells);
        for (int j = 0; j < k; j++) {
            int dup = 0;
            for (int t = first; t < s->nitems; t++)
                if (s->items[t].cell == cells[j]) dup = 1;
            if (!dup) sl_add(s, SUDOKU_ITEM_CELL, cells[j], 0);
        }
    }
    for (int i = 0; i < len; i++) {
        int cells[SL_MAX_N], k = g_cells(st, gc.best[i], cells), d = g_digit(st, gc.best[i]);
        if (k > 1) sl_add(s, SUDOKU_ITEM_CELL, cells[0], k); /* a group: its k cells follow */
        for (int j = 0; j < k; j++)
            sl_add(s, SUDOKU_ITEM_CAND, cells[j], d);
    }
    return 1;
}
