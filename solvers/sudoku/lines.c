/* sudoku/lines.c -- the logic engine's techniques on line rules
 * (sudoku/model.h): what a person does with a killer cage, a thermometer,
 * a kropki dot or an arrow, and one machine step for the other kinds.
 *
 * Which line gets which technique is decided once per state
 * (sudoku__logic_line_kinds, into st->lkind):
 *   SL_LK_CAGE      a cage with a total: cage-combination (the digits the
 *                   sets of distinct digits that make the total can use)
 *                   and cage-locked (a digit every such set holds leaves
 *                   the cells that see all of its places in the cage);
 *   SL_LK_LT / _GT  a pair line whose table is a < b (or a > b): thermo
 *                   steps and greater-than marks, one step per connected
 *                   web of them (bounds carried along the order: "the bulb
 *                   of a 5-cell thermometer is at most 5");
 *   SL_LK_RELATION  any other pair line (kropki, X, V, whisper, palindrome,
 *                   modular, entropic, anti-knight, ...): pair-relation,
 *                   a cell's candidates leave its partners only what the
 *                   table allows next to them;
 *                   Over cages: innies-outies, the 45 rule -- an exact
 *                   unit's digits add up to n(n+1)/2, so the cells of the
 *                   unit outside the cages inside it (innies) add up to
 *                   what those cages leave, and when cages cover the unit,
 *                   the cells of its cages outside it (outies) add up to
 *                   what the cages make beyond it; at most SL_INNIES_MAX
 *                   cells, each keeping what an assignment making the
 *                   total uses.  The same over the union of 2 or 3
 *                   neighbouring rows or columns, or of 2 or 3
 *                   neighbouring boxes along a band or a stack
 *                   (SL_UNION_MAX), whose digits add up to 2 or 3 times as
 *                   much: cages that straddle two rows or two boxes lie
 *                   inside their union.  The sets and their cells depend
 *                   on the cages alone, so they are read once per state
 *                   (st->innies); a look then finds, per cell and digit,
 *                   one assignment that uses it (a witness), and keeps
 *                   its answer for the cells' digits it was asked about.
 *                   cage-splitting reads the same sets with every cage
 *                   that crosses the edge cut there, its smaller part
 *                   taken (unit_split): inside parts less outside parts
 *                   make a known number;
 *   SL_LK_ARROW     arrow (1-3 heads, summed or read as digits): the
 *                   head's number lies between the least and the most the
 *                   arrow's cells can add up to, and each arrow cell leaves
 *                   the values that would push the sum out of the heads'
 *                   numbers;
 *   SL_LK_MACHINE   every other kind (sum, little killer, skyscraper,
 *                   sandwich, x-sum, renban, between, lockout, zipper, sum
 *                   lines, equal sums): `constraint`, the line's own
 *                   consistency -- a candidate goes when no assignment of
 *                   the line's cells from their candidates (distinct where
 *                   two cells see each other) keeps the line's rule
 *                   (sudoku_model_line_ok), found by a bounded depth-first
 *                   search per candidate.  No person reasons so; its weight
 *                   (logic.h) says that it is a machine step;
 *   SL_LK_NONE      cages without a total: units, nothing more to say.
 *
 * Each technique returns 1 with the step (the first line, in line order,
 * that gives one), 0, or -1 when a line's rule cannot hold with the
 * candidates (a contradiction: never from a position the solution keeps,
 * and what the trials of trial.c look for).
 *
 * Soundness: every technique removes a value only when no assignment that
 * keeps the rule (the rule alone, or with the distinctness of cells that
 * share a unit) uses it, so the solution's value never goes; a search that
 * runs out of budget removes nothing it has not proved.  Each reads the
 * current candidates, and a placed cell as its one value (placing a digit
 * does not apply line rules: these steps do).
 *
 * Budgets count nodes (no clock): SL_CAGE_BUDGET sets of a cage's digits,
 * SL_LINE_BUDGET assignments of one line per look and the chain budget
 * (opts.chain_budget) for all the lines of one machine look, an arrow's head
 * combinations (at most n^3).  The searches are iterative, but the
 * matching of a cage's cells to a set of digits, whose recursion is at most
 * as deep as the cage has cells (<= n).
 *
 * Scratch (the state's block): lgrid, a frame-sized grid that is all zero
 * between calls (a search writes the line's cells and clears them); lo and
 * hi, a cell's bounds in a thermo web; lmark and lqueue, a line each, for
 * walking a web. */
#include "solvers/sudoku/logic_internal.h"

enum { SL_LK_NONE = 0, SL_LK_CAGE, SL_LK_RELATION, SL_LK_LT, SL_LK_GT, SL_LK_ARROW, SL_LK_MACHINE };

#define SL_CAGE_BUDGET 100000u
#define SL_UNION_MAX   3 /* the 45 rule over up to 3 neighbouring rows or columns */
#define SL_LINE_BUDGET 20000u

/* A cell's digits: its candidates, or its value when placed. */
static uint32_t cell_mask(const sudoku_logic_t *st, int c) {
    return st->value[c] ? SL_BIT(st->value[c]) : st->cand[c];
}

static const uint16_t *line_cells(const sudoku_logic_t *st, int k) {
    return st->m->line_cells + st->m->lines[k].first;
}

static int lowest(uint32_t m) { return sl_ctz(m) + 1; }
static int highest(uint32_t m) { return 32 - __builtin_clz(m); }

/* 1: pair table t is a < b, -1: a > b, 0: another relation. */
static int table_order(const sudoku_model_t *m, int t) {
    int lt = 1, gt = 1;
    for (int a = 1; a <= m->n; a++)
        for (int b = 1; b <= m->n; b++) {
            int ok = (int)(m->pair_fwd[(size_t)t * (size_t)m->n + (size_t)(a - 1)] >> (b - 1) & 1);
            if (ok != (a < b)) lt = 0;
            if (ok != (a > b)) gt = 0;
        }
    return lt ? 1 : gt ? -1 : 0;
}

void sudoku__logic_line_kinds(const sudoku_model_t *m, int8_t *lkind) {
    for (int k = 0; k < m->nlines; k++) {
        const sudoku_line_t *ln = &m->lines[k];
        int8_t kind = SL_LK_MACHINE;
        if (ln->kind == SUDOKU_LINE_CAGE) {
            kind = ln->value > 0 ? SL_LK_CAGE : SL_LK_NONE;
        } else if (ln->kind == SUDOKU_LINE_PAIR) {
            int o = table_order(m, (int)ln->value);
            kind = o > 0 ? SL_LK_LT : o < 0 ? SL_LK_GT : SL_LK_RELATION;
        } else if (ln->kind == SUDOKU_LINE_ARROW) {
            kind = SL_LK_ARROW;
        }
        lkind[k] = kind;
    }
}

/* Adds the elimination of d from c unless the step already has it. */
static int add_elim_once(const sudoku_logic_t *st, sudoku_logic_step_t *s, int c, int d) {
    for (int i = 0; i < s->nitems; i++)
        if (s->items[i].kind == SUDOKU_ITEM_ELIM && s->items[i].cell == c && s->items[i].value == d)
            return 0;
    return sl_add_elim(st, s, c, d);
}

/* Adds every cell of line k as proof. */
static void add_line_cells(const sudoku_logic_t *st, sudoku_logic_step_t *s, int k) {
    const uint16_t *lc = line_cells(st, k);
    for (uint32_t i = 0; i < st->m->lines[k].len; i++)
        sl_add(s, SUDOKU_ITEM_CELL, lc[i], 0);
}

/* === Killer cages ======================================================= */

typedef struct cage_s {
    int k;                   /* open cells */
    int cell[SL_MAX_N];      /* their cells */
    uint32_t cand[SL_MAX_N]; /* and candidates */
    uint32_t keep[SL_MAX_N]; /* candidates some set that fits uses */
    uint32_t need, uni;      /* digits in every set that fits, in some */
    int nsets;
} cage_t;

/* Whether open cell i (and those holding digits it wants) can be given a
 * digit of set S, owner[d] = the cell holding d or -1; Kuhn's augmenting
 * path, each level marking a digit seen: depth <= n. */
static int cage_match(const cage_t *cg, uint32_t S, int i, uint32_t *seen, int8_t *owner) {
    for (uint32_t m = cg->cand[i] & S & ~*seen; m; m &= m - 1) {
        int d = sl_ctz(m);
        *seen |= (uint32_t)1 << d;
        if (owner[d] < 0 || cage_match(cg, S, owner[d], seen, owner)) {
            owner[d] = (int8_t)i;
            return 1;
        }
    }
    return 0;
}

/* Set S fits when its digits can go one to each open cell. */
static int cage_fits(const cage_t *cg, uint32_t S) {
    int8_t owner[32];
    memset(owner, -1, sizeof owner);
    for (int i = 0; i < cg->k; i++) {
        uint32_t seen = 0;
        if (!cage_match(cg, S, i, &seen, owner)) return 0;
    }
    return 1;
}

/* The sets of cage line kk: every set of k distinct digits from the open
 * cells' candidates that makes what the placed cells leave of the total,
 * kept when it fits.  Returns 1 (cg filled; nsets 0 is a contradiction),
 * 0 when no cell is open, -1 past the budget. */
static int cage_sets(sudoku_logic_t *st, int kk, cage_t *cg, uint64_t *work) {
    const sudoku_line_t *ln = &st->m->lines[kk];
    const uint16_t *lc = line_cells(st, kk);
    int dig[SL_MAX_N], pick[SL_MAX_N + 1], idx[SL_MAX_N + 1], nd = 0, depth = 0;
    long r = ln->value, sum = 0;
    uint32_t budget = SL_CAGE_BUDGET, all = 0;
    cg->k = 0;
    for (uint32_t i = 0; i < ln->len && i < SL_MAX_N; i++) {
        int c = lc[i];
        if (st->value[c]) {
            r -= st->value[c];
            continue;
        }
        cg->cell[cg->k] = c;
        cg->cand[cg->k] = st->cand[c];
        cg->keep[cg->k++] = 0;
        all |= st->cand[c];
    }
    cg->need = st->all;
    cg->uni = 0;
    cg->nsets = 0;
    if (cg->k == 0) return 0;
    for (uint32_t m = all; m; m &= m - 1)
        dig[nd++] = sl_ctz(m) + 1;
    idx[0] = 0;
    while (depth >= 0) { /* k-subsets of dig[] in order, with sum bounds */
        int i = idx[depth], left = cg->k - depth, lo = 0, hi = 0;
        if (budget-- == 0) return -1;
        (*work)++;
        if (left == 0 || i > nd - left) {
            if (left == 0 && sum == r) {
                uint32_t S = 0;
                for (int j = 0; j < cg->k; j++)
                    S |= SL_BIT(dig[pick[j]]);
                if (cage_fits(cg, S)) {
                    for (int j = 0; j < cg->k; j++)
                        cg->keep[j] |= cg->cand[j] & S;
                    cg->need &= S;
                    cg->uni |= S;
                    cg->nsets++;
                }
            }
            if (--depth >= 0) {
                sum -= dig[pick[depth]];
                idx[depth] = pick[depth] + 1;
            }
            continue;
        }
        for (int j = 0; j < left; j++) {
            lo += dig[i + j];
            hi += dig[nd - 1 - j];
        }
        if (sum + lo > r || sum + hi < r) { /* no completion from i on: back up */
            idx[depth] = nd;
            continue;
        }
        pick[depth] = i;
        sum += dig[i];
        idx[++depth] = i + 1;
    }
    if (cg->nsets == 0) cg->need = 0;
    return 1;
}

int sudoku__logic_cage_combination(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *s) {
    cage_t cg;
    for (int k = 0; k < st->m->nlines; k++) {
        int any = 0;
        if (st->lkind[k] != SL_LK_CAGE || cage_sets(st, k, &cg, work) <= 0) continue;
        if (cg.nsets == 0) return -1; /* no set of digits fits: a contradiction */
        sl_step_begin(s, SUDOKU_TECH_CAGE_COMBINATION);
        for (int i = 0; i < cg.k; i++)
            for (uint32_t m = cg.cand[i] & ~cg.keep[i]; m; m &= m - 1)
                any |= sl_add_elim(st, s, cg.cell[i], sl_ctz(m) + 1);
        if (!any) continue;
        s->line = (int16_t)k;
        s->digits = cg.uni;
        s->size = (uint8_t)cg.k;
        add_line_cells(st, s, k);
        return 1;
    }
    return 0;
}

int sudoku__logic_cage_locked(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *s) {
    uint64_t acc[SUDOKU_MODEL_MAX_CELLS / 64];
    cage_t cg;
    for (int k = 0; k < st->m->nlines; k++) {
        if (st->lkind[k] != SL_LK_CAGE || cage_sets(st, k, &cg, work) <= 0 || cg.nsets == 0)
            continue;
        for (uint32_t need = cg.need; need; need &= need - 1) {
            int d = sl_ctz(need) + 1, any = 0, first = 1;
            for (int i = 0; i < cg.k; i++) { /* the cells that see every place of d */
                const uint64_t *row = st->sees + (size_t)cg.cell[i] * (size_t)st->sw;
                if (!(cg.cand[i] & SL_BIT(d))) continue;
                for (int w = 0; w < st->sw; w++)
                    acc[w] = first ? row[w] : acc[w] & row[w];
                first = 0;
            }
            if (first) continue; /* no place: a contradiction, found elsewhere */
            sl_step_begin(s, SUDOKU_TECH_CAGE_LOCKED);
            for (int w = 0; w < st->sw; w++)
                for (uint64_t b = acc[w]; b; b &= b - 1) {
                    int c = w * 64 + __builtin_ctzll(b), mine = 0;
                    for (int i = 0; i < cg.k; i++)
                        mine |= cg.cell[i] == c;
                    if (!mine) any |= sl_add_elim(st, s, c, d);
                }
            if (!any) continue;
            s->line = (int16_t)k;
            s->digit = (uint8_t)d;
            s->digits = cg.need;
            for (int i = 0; i < cg.k; i++)
                if (cg.cand[i] & SL_BIT(d)) {
                    sl_add(s, SUDOKU_ITEM_CELL, cg.cell[i], 0);
                    sl_add(s, SUDOKU_ITEM_CAND, cg.cell[i], d);
                }
            return 1;
        }
    }
    return 0;
}

/* === The 45 rule ======================================================= */

/* The cage (a line with a total) through cell c, -1 for none, -2 for
 * two or more (overlapping cages: the 45 rule would count a cell twice). */
static int cage_of(const sudoku_logic_t *st, int c) {
    int g = -1;
    for (uint32_t j = st->m->lcell_start[c]; j < st->m->lcell_start[c + 1]; j++)
        if (st->lkind[st->m->lcell_lines[j]] == SL_LK_CAGE) {
            if (g >= 0) return -2;
            g = st->m->lcell_lines[j];
        }
    return g;
}

/* One assignment of cells v[0..k) from their digits mk[] (distinct where
 * two see each other) adding up to `total`, cell j counted negatively when
 * bit j of neg is set (a split's parts beyond the set), depth-first over
 * the cells in order, pruned by the least and most the cells left can
 * add: 1 with it in val[], 0 none, -1 past *budget. */
static int sum_witness(const sudoku_logic_t *st, const int *v, int k, uint32_t neg,
                       const uint32_t *mk, long total, int *val, uint32_t *budget, uint64_t *work) {
    uint32_t rem[SL_INNIES_MAX];
    long lo[SL_INNIES_MAX + 1], hi[SL_INNIES_MAX + 1], sum = 0;
    int depth = 0, sg[SL_INNIES_MAX];
    lo[k] = hi[k] = 0;
    for (int i = k - 1; i >= 0; i--) {
        sg[i] = (neg >> i) & 1 ? -1 : 1;
        lo[i] = lo[i + 1] + (sg[i] > 0 ? lowest(mk[i]) : -highest(mk[i]));
        hi[i] = hi[i + 1] + (sg[i] > 0 ? highest(mk[i]) : -lowest(mk[i]));
    }
    if (total < lo[0] || total > hi[0]) return 0;
    rem[0] = mk[0];
    while (depth >= 0) {
        if (rem[depth] == 0) {
            if (--depth >= 0) sum -= sg[depth] * val[depth];
            continue;
        }
        if ((*budget)-- == 0) return -1;
        (*work)++;
        val[depth] = sl_ctz(rem[depth]) + 1;
        rem[depth] &= rem[depth] - 1;
        long at = sum + sg[depth] * val[depth];
        if (at + lo[depth + 1] > total || at + hi[depth + 1] < total) continue;
        if (depth == k - 1) return 1;
        sum = at;
        depth++;
        rem[depth] = mk[depth];
        for (int j = 0; j < depth; j++)
            if (sl_sees(st, v[depth], v[j])) rem[depth] &= ~SL_BIT(val[j]);
    }
    return 0;
}

/* The candidates of cells v[0..k) that some assignment adding up to
 * `total` uses (each cell from its digits, distinct where two see each
 * other), into keep[]: for each cell and each digit no assignment found so
 * far uses, one assignment with the cell holding it (sum_witness), whose
 * every value is then kept -- a witness per digit rather than every
 * assignment, which on six open cells ran into the budget a third of the
 * time.  Returns 0, or -1 past *budget or when a cell has no digit left
 * (keep[] then means nothing). */
static int sum_keep(sudoku_logic_t *st, const int *v, int k, uint32_t neg, long total,
                    uint32_t *keep, uint32_t *budget, uint64_t *work) {
    uint32_t mk[SL_INNIES_MAX], one[SL_INNIES_MAX];
    int val[SL_INNIES_MAX];
    for (int i = 0; i < k; i++) {
        if ((mk[i] = cell_mask(st, v[i])) == 0) return -1; /* a contradiction: say nothing */
        keep[i] = 0;
    }
    for (int i = 0; i < k; i++)
        for (uint32_t m = mk[i] & ~keep[i]; m; m &= m - 1) {
            uint32_t b = m & (~m + 1);
            int r;
            if (keep[i] & b) continue; /* a later witness of an earlier digit used it */
            memcpy(one, mk, (size_t)k * sizeof one[0]);
            one[i] = b;
            if ((r = sum_witness(st, v, k, neg, one, total, val, budget, work)) < 0) return -1;
            if (r == 0) continue;
            for (int j = 0; j < k; j++)
                keep[j] |= SL_BIT(val[j]);
        }
    return 0;
}

/* A set of exact units read as one by the 45 rule: us[0..nu), pairwise
 * disjoint (their digits then add up to nu * n(n+1)/2). */
typedef struct sl_uset_s {
    int us[SL_UNION_MAX];
    int nu;
} sl_uset_t;

static int in_uset(const sudoku_logic_t *st, int c, const sl_uset_t *set) {
    for (int i = 0; i < set->nu; i++)
        if (sl_in_unit(st, c, set->us[i])) return 1;
    return 0;
}

/* Whether cage g lies inside the set. */
static int cage_inside(const sudoku_logic_t *st, int g, const sl_uset_t *set) {
    const sudoku_line_t *ln = &st->m->lines[g];
    for (uint32_t q = 0; q < ln->len; q++)
        if (!in_uset(st, line_cells(st, g)[q], set)) return 0;
    return 1;
}

/* The cages that meet the set, once each, into g[] (*ng), and how many of
 * its cells lie in no cage (*nfree; the first SL_INNIES_MAX of them into
 * fr[] when fr != NULL).  Returns the set's cell count, -1 where cages
 * overlap (the 45 rule would count a cell twice). */
static int uset_cages(const sudoku_logic_t *st, const sl_uset_t *set, int *g, int *ng, int *fr,
                      int *nfree) {
    int ncells = 0;
    *ng = *nfree = 0;
    for (int i = 0; i < set->nu; i++)
        for (int j = 0; j < st->ulen[set->us[i]]; j++) {
            int c = sl_ucells(st, set->us[i])[j], q = cage_of(st, c), dup = 0;
            ncells++;
            if (q == -2) return -1;
            if (q < 0) {
                if (fr != NULL && *nfree < SL_INNIES_MAX) fr[*nfree] = c;
                ++*nfree;
                continue;
            }
            for (int x = 0; x < *ng; x++)
                dup |= g[x] == q;
            if (!dup) g[(*ng)++] = q;
        }
    return ncells;
}

/* Innies (outies = 0) or outies of the set: its cells outside the cages
 * that lie inside it, or the cells outside it of the cages that meet it
 * (when cages cover it), into v[], and their total.  Returns how many
 * cells (0: nothing to say, or more than SL_INNIES_MAX). */
static int unit_rest(sudoku_logic_t *st, const sl_uset_t *set, int outies, int *v, long *total) {
    int k = 0, n = st->n, ncells, nfree;
    long t = (long)set->nu * n * (n + 1) / 2, cages = 0;
    int seen[SL_UNION_MAX * SL_MAX_N], ns;
    if ((ncells = uset_cages(st, set, seen, &ns, NULL, &nfree)) < 0) return 0;
    if (outies && nfree > 0) return 0; /* a cell in no cage: no outies */
    for (int i = 0; i < ns; i++) {
        const sudoku_line_t *ln = &st->m->lines[seen[i]];
        const uint16_t *lc = line_cells(st, seen[i]);
        if (outies) {
            cages += ln->value;
            for (uint32_t j = 0; j < ln->len; j++)
                if (!in_uset(st, lc[j], set)) {
                    if (k == SL_INNIES_MAX) return 0;
                    v[k++] = lc[j];
                }
        } else if (cage_inside(st, seen[i], set)) {
            t -= ln->value;
        }
    }
    if (outies) {
        *total = cages - t;
        return k;
    }
    for (int i = 0; i < set->nu; i++) /* innies: its cells in no cage inside it */
        for (int j = 0; j < st->ulen[set->us[i]]; j++) {
            int c = sl_ucells(st, set->us[i])[j], g = cage_of(st, c);
            if (g >= 0 && cage_inside(st, g, set)) continue;
            if (k == SL_INNIES_MAX) return 0;
            v[k++] = c;
        }
    *total = t;
    return k < ncells ? k : 0; /* no cage inside: nothing learnt */
}

/* The split of the set (cage-splitting): every cage that crosses its edge
 * is cut there, and the smaller part is read -- the part inside counting
 * as itself, the part beyond as the cage's total less it.  So the cells of
 * the inside parts (and cells in no cage) less the cells of the outside
 * parts add up to the set's digits less the cages inside it and the
 * totals of the cages read from outside.  Into v[] and *neg (bit j: v[j]
 * is beyond the set); returns how many cells, 0 when both kinds of part
 * are not there (the innies or the outies say it), past SL_INNIES_MAX
 * cells or where cages overlap. */
static int unit_split(sudoku_logic_t *st, const sl_uset_t *set, int *v, uint32_t *neg,
                      long *total) {
    int k, n = st->n, plus, minus = 0, seen[SL_UNION_MAX * SL_MAX_N], ns;
    long t = (long)set->nu * n * (n + 1) / 2;
    *neg = 0;
    /* cells in no cage count as themselves, first */
    if (uset_cages(st, set, seen, &ns, v, &k) < 0 || k > SL_INNIES_MAX) return 0;
    plus = k > 0;
    for (int i = 0; i < ns; i++) {
        const sudoku_line_t *ln = &st->m->lines[seen[i]];
        const uint16_t *lc = line_cells(st, seen[i]);
        int in = 0;
        for (uint32_t j = 0; j < ln->len; j++)
            in += in_uset(st, lc[j], set);
        if (in == (int)ln->len) { /* inside: its total */
            t -= ln->value;
            continue;
        }
        int beyond = (int)ln->len - in < in;
        if (beyond) t -= ln->value;
        for (uint32_t j = 0; j < ln->len; j++) {
            if (in_uset(st, lc[j], set) == beyond) continue;
            if (k == SL_INNIES_MAX) return 0;
            if (beyond) *neg |= 1u << k;
            v[k++] = lc[j];
        }
        if (beyond)
            minus = 1;
        else
            plus = 1;
    }
    *total = t;
    return plus && minus ? k : 0;
}

/* The box of grid g numbered b (row-major), -1 for none. */
static int box_unit(const sudoku_logic_t *st, int g, int b) {
    const sudoku_model_t *m = st->m;
    for (int k = 0; k < st->lines_end[0]; k++) {
        int u = st->scan[k];
        if (m->unit_kind[u] == SUDOKU_UNIT_BOX && m->unit_grid[u] == g && m->unit_index[u] == b)
            return u;
    }
    return -1;
}

/* The i-th run of 2 or 3 neighbouring boxes of one grid along a band
 * (across) or a stack (down), runs of 2 first, then of 3, each across
 * then down, from the boxes in scan order; a run that fills its band or
 * stack is left out (it is the union of that band's rows, read before).
 * Returns 1 with *set, 0 when the i-th is no set, -1 past the last (and
 * on grids whose boxes regions replace). */
static int box_run_at(const sudoku_logic_t *st, int i, sl_uset_t *set) {
    const sudoku_model_t *m = st->m;
    int br = m->shape.box_rows, bc = m->shape.box_cols, n = st->n;
    if (br <= 0 || bc <= 0) return -1;
    int across = n / bc, down = n / br; /* boxes in a band, in a stack */
    for (int nu = 2; nu <= SL_UNION_MAX; nu++)
        for (int dir = 0; dir < 2; dir++) {
            int len = dir ? down : across, step = dir ? across : 1;
            if (nu >= len) continue;
            for (int k = 0; k < st->lines_end[0]; k++) {
                int u = st->scan[k], b = m->unit_index[u];
                int at = dir ? b / across : b % across;
                if (m->unit_kind[u] != SUDOKU_UNIT_BOX || at + nu > len) continue;
                if (i-- > 0) continue;
                set->nu = nu;
                for (int q = 0; q < nu; q++) {
                    set->us[q] = box_unit(st, m->unit_grid[u], b + q * step);
                    if (set->us[q] < 0 || !sl_exact(st, set->us[q])) return 0;
                }
                return 1;
            }
        }
    return -1;
}

/* The i-th set the 45 rule reads, in the order people look: every exact
 * unit alone (scan order), then 2 neighbouring rows, 2 columns, then 3
 * rows, 3 columns (neighbours in scan order, which numbers a grid's rows
 * in order; units that share a cell, as rows of overlapping grids may, are
 * no set), then runs of neighbouring boxes (box_run_at).  Unions come
 * last so that a step on one unit, the easier read, is found first
 * wherever there is one.
 * Returns 1 with *set, 0 when the i-th is no set (a unit that is not
 * exact, units that share a cell), -1 past the last. */
static int uset_at(const sudoku_logic_t *st, int i, sl_uset_t *set) {
    if (i < st->nscan) {
        set->us[0] = st->scan[i];
        set->nu = 1;
        return sl_exact(st, set->us[0]);
    }
    i -= st->nscan;
    for (int nu = 2; nu <= SL_UNION_MAX; nu++)
        for (int kind = 0; kind < 2; kind++) {
            int from = st->lines_end[kind], to = kind ? st->nscan : st->lines_end[1];
            int count = to - from - nu + 1;
            if (count <= 0) continue;
            if (i >= count) {
                i -= count;
                continue;
            }
            set->nu = nu;
            for (int q = 0; q < nu; q++) {
                set->us[q] = st->scan[from + i + q];
                if (!sl_exact(st, set->us[q])) return 0;
                for (int j = 0; j < st->ulen[set->us[q]]; j++)
                    for (int p = 0; p < q; p++)
                        if (sl_in_unit(st, sl_ucells(st, set->us[q])[j], set->us[p])) return 0;
            }
            return 1;
        }
    return box_run_at(st, i, set);
}

/* The sets and their innies and outies depend on the cages and units
 * alone, never on the position: read once here, in the order people look
 * (uset_at's, innies before outies), so that a look at a position is a
 * sum_keep per read, where walking the sets again cost 87% of a hard
 * Killer's grade. */
void sudoku__logic_innies_init(sudoku_logic_t *st) {
    sl_uset_t set;
    size_t cap = SL_INNIES_CAP(st->nunits);
    int r;
    st->ninnies = 0;
    for (int i = 0; (r = uset_at(st, i, &set)) >= 0; i++) {
        if (r == 0) continue;
        for (int kind = 0; kind < 3; kind++) {
            int v[SL_INNIES_MAX], k;
            uint32_t neg = 0;
            long total;
            sl_innie_t *e;
            k = kind < 2 ? unit_rest(st, &set, kind, v, &total)
                         : unit_split(st, &set, v, &neg, &total);
            if (k == 0) continue;
            if ((size_t)st->ninnies == cap) return; /* past the bound: cannot happen */
            e = &st->innies[st->ninnies++];
            e->total = (int32_t)total;
            e->k = (uint8_t)k;
            e->kind = (uint8_t)kind;
            e->neg = (uint8_t)neg;
            e->u0 = (int16_t)set.us[0];
            e->u1 = (int16_t)(set.nu > 1 ? set.us[set.nu - 1] : -1);
            e->memo = -2;
            for (int j = 0; j < k; j++)
                e->cell[j] = (uint16_t)v[j];
        }
    }
}

/* The first read of the 45 rule of kind innies or outies (split = 0) or
 * of kind split (1) that removes a candidate, as a step of technique t. */
static int innies_look(sudoku_logic_t *st, int split, sudoku_tech_t t, uint64_t *work,
                       sudoku_logic_step_t *s) {
    int v[SL_INNIES_MAX];
    uint32_t keep[SL_INNIES_MAX];
    if (st->ninnies < 0) {
        sudoku__logic_innies_init(st);
        if (st->sub != NULL) st->sub->ninnies = st->ninnies; /* the same table */
    }
    for (int i = 0; i < st->ninnies; i++) {
        sl_innie_t *e = &st->innies[i];
        int k = e->k, any = 0, open = 0, same = e->memo != -2;
        if ((e->kind == 2) != split) continue;
        uint32_t budget = SL_LINE_BUDGET;
        for (int j = 0; j < k; j++) {
            v[j] = e->cell[j];
            open += st->value[v[j]] == 0;
            same &= cell_mask(st, v[j]) == e->mask[j];
        }
        if (open == 0) continue;
        if (same) {
            *work += e->cost;
            memcpy(keep, e->keep, (size_t)k * sizeof keep[0]);
        } else {
            uint64_t before = *work;
            e->memo = (int8_t)sum_keep(st, v, k, e->neg, e->total, keep, &budget, work);
            e->cost = *work - before;
            for (int j = 0; j < k; j++) {
                e->mask[j] = cell_mask(st, v[j]);
                e->keep[j] = keep[j];
            }
        }
        if (e->memo != 0) continue;
        sl_step_begin(s, t);
        for (int j = 0; j < k; j++)
            for (uint32_t m = st->cand[v[j]] & ~keep[j]; m; m &= m - 1)
                any |= sl_add_elim(st, s, v[j], sl_ctz(m) + 1);
        if (!any) continue;
        s->unit[0] = e->u0;
        if (e->u1 >= 0) s->unit[1] = e->u1;
        s->digit = e->kind;
        s->digits = (uint32_t)e->total;
        s->size = (uint8_t)k;
        for (int j = 0; j < k; j++)
            sl_add(s, SUDOKU_ITEM_CELL, v[j], (int)((e->neg >> j) & 1));
        return 1;
    }
    return 0;
}

int sudoku__logic_innies(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *s) {
    return innies_look(st, 0, SUDOKU_TECH_INNIES_OUTIES, work, s);
}

int sudoku__logic_cage_split(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *s) {
    return innies_look(st, 1, SUDOKU_TECH_CAGE_SPLITTING, work, s);
}

/* === Pair lines ========================================================= */

int sudoku__logic_pair_relation(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    const sudoku_model_t *m = st->m;
    size_t n = (size_t)st->n;
    for (int c = 0; c < st->nn; c++) {
        uint32_t mc = cell_mask(st, c);
        int any = 0;
        if (mc == 0 || m->lcell_start[c] == m->lcell_start[c + 1]) continue;
        sl_step_begin(s, SUDOKU_TECH_PAIR_RELATION);
        for (uint32_t j = m->lcell_start[c]; j < m->lcell_start[c + 1]; j++) {
            int k = m->lcell_lines[j], o, fwd;
            const uint16_t *lc = line_cells(st, k);
            const uint64_t *tab;
            uint32_t allowed = 0;
            if (st->lkind[k] != SL_LK_RELATION) continue;
            fwd = lc[0] == c;
            o = fwd ? lc[1] : lc[0];
            tab = (fwd ? m->pair_fwd : m->pair_bwd) + (size_t)m->lines[k].value * n;
            for (uint32_t v = mc; v; v &= v - 1)
                allowed |= (uint32_t)tab[sl_ctz(v)];
            for (uint32_t gone = st->cand[o] & ~allowed; gone; gone &= gone - 1)
                if (add_elim_once(st, s, o, sl_ctz(gone) + 1)) {
                    if (s->line < 0) s->line = (int16_t)k;
                    any = 1;
                }
        }
        if (!any) continue;
        sl_add(s, SUDOKU_ITEM_CELL, c, 0);
        for (uint32_t v = mc; v; v &= v - 1)
            sl_add(s, SUDOKU_ITEM_CAND, c, sl_ctz(v) + 1);
        return 1;
    }
    return 0;
}

/* The order lines joined to k0 through shared cells, into lqueue (lmark
 * set for each); returns how many. */
static int order_web(sudoku_logic_t *st, int k0) {
    const sudoku_model_t *m = st->m;
    int nq = 0;
    st->lqueue[nq++] = (uint16_t)k0;
    st->lmark[k0] = 1;
    for (int q = 0; q < nq; q++) {
        const uint16_t *lc = line_cells(st, st->lqueue[q]);
        for (int e = 0; e < 2; e++)
            for (uint32_t j = m->lcell_start[lc[e]]; j < m->lcell_start[lc[e] + 1]; j++) {
                int k = m->lcell_lines[j];
                if ((st->lkind[k] == SL_LK_LT || st->lkind[k] == SL_LK_GT) && !st->lmark[k]) {
                    st->lmark[k] = 1;
                    st->lqueue[nq++] = (uint16_t)k;
                }
            }
    }
    return nq;
}

/* Bounds carried along the web's order lines (lqueue[0..nq)) to their
 * fixed point, from each cell's lowest and highest digit: the smaller cell
 * of a line stays below the larger's highest, the larger above the
 * smaller's lowest.  Each pass raises a lo or lowers a hi (values in
 * 0..n+1), so the passes are bounded.  0, or -1 when a cell's bounds
 * cross (a contradiction). */
static int order_bounds(sudoku_logic_t *st, int nq) {
    int changed = 1;
    for (int q = 0; q < nq; q++) {
        const uint16_t *lc = line_cells(st, st->lqueue[q]);
        for (int e = 0; e < 2; e++) {
            uint32_t mk = cell_mask(st, lc[e]);
            if (mk == 0) return -1;
            st->lo[lc[e]] = (uint8_t)lowest(mk);
            st->hi[lc[e]] = (uint8_t)highest(mk);
        }
    }
    while (changed) {
        changed = 0;
        for (int q = 0; q < nq; q++) {
            int k = st->lqueue[q];
            const uint16_t *lc = line_cells(st, k);
            int x = st->lkind[k] == SL_LK_LT ? lc[0] : lc[1], y = x == lc[0] ? lc[1] : lc[0];
            if (st->lo[y] < st->lo[x] + 1) {
                st->lo[y] = (uint8_t)(st->lo[x] + 1);
                changed = 1;
            }
            if (st->hi[x] + 1 > st->hi[y]) {
                if (st->hi[y] == 0) return -1;
                st->hi[x] = (uint8_t)(st->hi[y] - 1);
                changed = 1;
            }
            if (st->lo[x] > st->hi[x] || st->lo[y] > st->hi[y]) return -1;
        }
    }
    return 0;
}

int sudoku__logic_thermo(sudoku_logic_t *st, sudoku_logic_step_t *s) {
    int found = 0;
    memset(st->lmark, 0, (size_t)st->m->nlines);
    for (int k0 = 0; k0 < st->m->nlines && !found; k0++) {
        int nq, any = 0;
        if ((st->lkind[k0] != SL_LK_LT && st->lkind[k0] != SL_LK_GT) || st->lmark[k0]) continue;
        nq = order_web(st, k0);
        if (order_bounds(st, nq) != 0) return -1;
        sl_step_begin(s, SUDOKU_TECH_THERMO);
        for (int q = 0; q < nq; q++) {
            const uint16_t *lc = line_cells(st, st->lqueue[q]);
            for (int e = 0; e < 2; e++) {
                int c = lc[e];
                for (uint32_t m = st->cand[c]; m; m &= m - 1) {
                    int d = sl_ctz(m) + 1;
                    if (d < st->lo[c] || d > st->hi[c]) any |= add_elim_once(st, s, c, d);
                }
            }
        }
        if (!any) continue;
        s->line = (int16_t)k0;
        for (int q = 0; q < nq; q++) { /* the web's cells, each once (lgrid marks them) */
            const uint16_t *lc = line_cells(st, st->lqueue[q]);
            for (int e = 0; e < 2; e++)
                if (!st->lgrid[lc[e]]) {
                    st->lgrid[lc[e]] = 1;
                    sl_add(s, SUDOKU_ITEM_CELL, lc[e], 0);
                }
        }
        for (int q = 0; q < nq; q++) {
            const uint16_t *lc = line_cells(st, st->lqueue[q]);
            st->lgrid[lc[0]] = st->lgrid[lc[1]] = 0;
        }
        found = 1;
    }
    return found;
}

/* === Arrows ============================================================= */

int sudoku__logic_arrow(sudoku_logic_t *st, uint64_t *work, sudoku_logic_step_t *s) {
    for (int k = 0; k < st->m->nlines; k++) {
        const sudoku_line_t *ln = &st->m->lines[k];
        const uint16_t *lc = line_cells(st, k);
        int h = ln->value & 0xff, digits = ln->value >> 8, len = (int)ln->len, any = 0;
        long bmin = 0, bmax = 0, nmin = -1, nmax = -1;
        uint32_t hm[3] = {1, 1, 1}, hkeep[3] = {0, 0, 0};
        if (st->lkind[k] != SL_LK_ARROW || h < 1 || h > 3 || h >= len) continue;
        for (int i = h; i < len; i++) {
            uint32_t mk = cell_mask(st, lc[i]);
            if (mk == 0) return -1;
            bmin += lowest(mk);
            bmax += highest(mk);
        }
        for (int i = 0; i < h; i++)
            if ((hm[i] = cell_mask(st, lc[i])) == 0) return -1;
        /* every choice of head values (distinct where heads see each other) */
        for (uint32_t a = hm[0]; a; a &= a - 1)
            for (uint32_t b = hm[1]; b; b &= b - 1)
                for (uint32_t c = hm[2]; c; c &= c - 1) {
                    int v[3] = {sl_ctz(a) + 1, sl_ctz(b) + 1, sl_ctz(c) + 1};
                    long num = 0;
                    int ok = 1;
                    (*work)++;
                    for (int i = 0; i < h && ok; i++) {
                        for (int j = 0; j < i; j++)
                            if (v[i] == v[j] && sl_sees(st, lc[i], lc[j])) ok = 0;
                        if (digits && i > 0 && v[i] > 9) ok = 0;
                        num = digits ? num * 10 + v[i] : num + v[i];
                    }
                    if (!ok || num < bmin || num > bmax) continue;
                    for (int i = 0; i < h; i++)
                        hkeep[i] |= SL_BIT(v[i]);
                    if (nmin < 0 || num < nmin) nmin = num;
                    if (num > nmax) nmax = num;
                }
        if (nmin < 0) return -1; /* no number fits: a contradiction */
        sl_step_begin(s, SUDOKU_TECH_ARROW);
        for (int i = 0; i < h; i++)
            for (uint32_t m = st->cand[lc[i]] & ~hkeep[i]; m; m &= m - 1)
                any |= sl_add_elim(st, s, lc[i], sl_ctz(m) + 1);
        for (int i = h; i < len; i++) {
            uint32_t mk = cell_mask(st, lc[i]);
            long others_min = bmin - lowest(mk), others_max = bmax - highest(mk);
            for (uint32_t m = st->cand[lc[i]]; m; m &= m - 1) {
                int d = sl_ctz(m) + 1;
                if (others_min + d > nmax || others_max + d < nmin)
                    any |= sl_add_elim(st, s, lc[i], d);
            }
        }
        if (!any) continue;
        s->line = (int16_t)k;
        s->size = (uint8_t)h;
        add_line_cells(st, s, k);
        return 1;
    }
    return 0;
}

/* === The machine step: a line's own consistency ========================= */

/* Clears the line's cells of lgrid. */
static void line_clear(sudoku_logic_t *st, const uint16_t *lc, int len) {
    for (int i = 0; i < len; i++)
        st->lgrid[lc[i]] = 0;
}

/* Looks for an assignment of line k's cells (masks mk[]) with cell i = v
 * that keeps the rule: depth-first, cell i first and then the line's
 * order, each cell's digits less those of the cells before it that it
 * sees, every partial assignment checked by sudoku_model_line_ok (sums and
 * skyscrapers prune; the other kinds are judged once full).  Returns 1
 * (found: lgrid holds it, the caller clears it), 0 (none: lgrid clear), -1
 * when *budget runs out (lgrid clear). */
static int line_support(sudoku_logic_t *st, int k, const uint32_t *mk, int i, int v,
                        uint32_t *budget, uint64_t *work) {
    const uint16_t *lc = line_cells(st, k);
    int len = (int)st->m->lines[k].len, depth = 0;
    uint16_t ord[SUDOKU_LINE_MAX_CELLS];
    uint32_t rem[SUDOKU_LINE_MAX_CELLS];
    ord[0] = (uint16_t)i;
    for (int j = 0, o = 1; j < len; j++)
        if (j != i) ord[o++] = (uint16_t)j;
    rem[0] = SL_BIT(v);
    while (depth >= 0) {
        int c = lc[ord[depth]];
        if (rem[depth] == 0) {
            st->lgrid[c] = 0;
            depth--;
            continue;
        }
        if (*budget == 0) {
            line_clear(st, lc, len);
            return -1;
        }
        (*budget)--;
        (*work)++;
        st->lgrid[c] = (uint8_t)(sl_ctz(rem[depth]) + 1);
        rem[depth] &= rem[depth] - 1;
        if (!sudoku_model_line_ok(st->m, k, st->lgrid)) continue;
        if (depth == len - 1) return 1;
        depth++;
        c = lc[ord[depth]];
        rem[depth] = mk[ord[depth]];
        for (int j = 0; j < depth; j++)
            if (sl_sees(st, c, lc[ord[j]])) rem[depth] &= ~SL_BIT(st->lgrid[lc[ord[j]]]);
    }
    return 0;
}

int sudoku__logic_constraint(sudoku_logic_t *st, uint64_t total, uint64_t *work,
                             sudoku_logic_step_t *s) {
    uint32_t mk[SUDOKU_LINE_MAX_CELLS], keep[SUDOKU_LINE_MAX_CELLS];
    uint64_t w0 = *work;
    for (int k = 0; k < st->m->nlines && *work - w0 < total; k++) {
        const uint16_t *lc = line_cells(st, k);
        int len = (int)st->m->lines[k].len, any = 0, bad = 0;
        uint64_t left = total - (*work - w0);
        uint32_t budget = left < SL_LINE_BUDGET ? (uint32_t)left : SL_LINE_BUDGET;
        if (st->lkind[k] != SL_LK_MACHINE) continue;
        for (int i = 0; i < len; i++) {
            mk[i] = cell_mask(st, lc[i]);
            keep[i] = st->value[lc[i]] ? mk[i] : 0;
            bad |= mk[i] == 0;
        }
        if (bad) continue;
        sl_step_begin(s, SUDOKU_TECH_CONSTRAINT);
        for (int i = 0; i < len && budget > 0; i++)
            for (uint32_t m = mk[i] & ~keep[i]; m && budget > 0; m &= m - 1) {
                int d = sl_ctz(m) + 1, r;
                if (keep[i] & SL_BIT(d)) continue; /* supported by an earlier assignment */
                r = line_support(st, k, mk, i, d, &budget, work);
                if (r == 1) {
                    for (int j = 0; j < len; j++)
                        keep[j] |= SL_BIT(st->lgrid[lc[j]]);
                    line_clear(st, lc, len);
                } else if (r == 0) {
                    any |= sl_add_elim(st, s, lc[i], d);
                }
            }
        if (!any) continue;
        s->line = (int16_t)k;
        add_line_cells(st, s, k);
        return 1;
    }
    return 0;
}
