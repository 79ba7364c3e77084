/* killer/derive.c -- the 45 rule: sum equations a Killer implies beyond
 * its cages, found once before the search (killer/derive.h).
 *
 * For each region made of whole units -- runs of consecutive rows, of
 * consecutive columns, single boxes, runs of boxes along a band or a
 * stack, the diagonals (Killer-X) -- with total T = (units in it) * (sum
 * of symbols):
 *   innies  the cells of the region that are not in a cage lying wholly
 *           inside it add up to T - (sums of the cages inside);
 *   outies  when every cell of the region is caged, the cells outside it of
 *           the cages that stick out add up to (sums of the cages inside or
 *           sticking out) - T;
 *   mixed   (symbols 1..n) each cage sticking out counted by its part
 *           inside (+) or its part outside (-): sum(+) - sum(-) = T -
 *           (sums inside) - (sums of the cages counted outside).  A `-`
 *           cell enters mirrored (neg), as n + 1 - v, so the equation
 *           stays a plain sum; every choice with both signs and at most
 *           KILLER__MIXED_MAX cells is kept (on the mathemagic killers,
 *           5-cell cages 4 + 1 across rows: r1c1 + r1c6 = r0c8 + 4).
 * An innie or outie set of 1..KILLER__DERIVED_MAX cells is kept.  The caps
 * come from measurements (docs/killer-tuning.md): with the mixed sets, the
 * big innie / outie sets cost the search more than they save, and mixed
 * sets of 6+ cells add little.
 *
 * Duplicates: the same signed cell set found from two regions, a set equal
 * to a cage, or the same equation negated (every sign flipped) is kept
 * once, the first time.  Testing each new equation against every earlier
 * one made the set-up quadratic (half the time of an ordinary 9x9 killer),
 * so equations are found by a hash of their signed cell set (con_key) in an
 * open-addressing table.
 *
 * The order of the output (cages, then regions in the order of
 * derive_all()) is part of the contract in practice: the search's
 * conflict weights, and so its node counts, depend on it.
 *
 * Thread-safety: everything lives in the caller's arrays and scratch. */
#include <string.h>

#include "solvers/killer/derive.h"

#define MIXED_PARTIAL 12 /* regions with more cages sticking out get no mixed sets */

typedef struct build_s {
    const killer__model_t *m;
    killer__eqs_t *out;
    uint32_t maxeqs, maxcells;
    uint32_t nmixed, maxmixed; /* mixed sets (derive_region) */
    int sym_ident;             /* symbols are 1..n (mixed sets need it) */
    uint8_t *stamp;            /* per cell: 2 = in the region; bits 4, 8: add_eq */
    int32_t *incnt;            /* per cage: its cells in the region */
    uint16_t *buf;             /* a set being built */
    uint16_t *reg, *unc;       /* derive_region: the region's cells, its uncaged ones */
    uint16_t *touch;           /* derive_region: the cages it touches */
    /* duplicates: hkey[eq] the hash of its signed cell set (con_key), htab
     * eq + 1 by key, hmask + 1 slots (a power of two over twice maxeqs) */
    uint64_t *hkey;
    uint32_t *htab, hmask;
} build_t;

static uint64_t mix64(uint64_t x) { /* splitmix64's finaliser */
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Order-free hash of a signed cell set, equal for the set with every sign
 * flipped (the smaller of the two sums of per-cell hashes). */
static uint64_t con_key(const uint16_t *cells, const uint8_t *neg, int k) {
    uint64_t h = 0, f = 0;
    int j;
    for (j = 0; j < k; j++) {
        uint64_t x = (uint64_t)cells[j] * 2;
        int ng = neg != NULL && neg[j];
        h += mix64(x + (uint64_t)ng);
        f += mix64(x + (uint64_t)!ng);
    }
    return h < f ? h : f;
}

/* Appends an equation over cells[0..k) unless an equal one is already there. */
static void add_eq(build_t *b, const uint16_t *cells, const uint8_t *neg, int k, long sum,
                   int cage) {
    killer__eqs_t *o = b->out;
    uint32_t i = o->neq, slot;
    uint64_t key = con_key(cells, neg, k);
    int j;
    if (o->neq >= b->maxeqs || o->ncells + (uint32_t)k > b->maxcells) return;
    slot = (uint32_t)key & b->hmask;
    if (cage < 0) {
        /* bit 4 of stamp: the caller's region marks (2) stay intact */
        /* bit 3: mirrored.  The same cells with other signs are another
         * con, unless every sign is flipped: the same equation negated. */
        for (j = 0; j < k; j++)
            b->stamp[cells[j]] |= (uint8_t)(4 | (neg != NULL && neg[j] ? 8 : 0));
        for (; b->htab[slot] != 0; slot = (slot + 1) & b->hmask) {
            const killer__eq_t *e = &o->eq[b->htab[slot] - 1];
            int same = e->k == k, flip = same;
            if (b->hkey[b->htab[slot] - 1] != key) continue;
            for (j = 0; j < e->k && (same || flip); j++) {
                uint8_t st = b->stamp[o->cells[e->off + j]];
                int eq = ((st & 8) != 0) == (o->neg[e->off + j] != 0);
                if (!(st & 4)) same = flip = 0;
                same &= eq;
                flip &= !eq;
            }
            if (same || flip) break;
        }
        for (j = 0; j < k; j++)
            b->stamp[cells[j]] &= (uint8_t)~12u;
        if (b->htab[slot] != 0)
            return; /* same cells: same sum, or the puzzle is contradictory;
                       the first equation then fails on its own when decided */
    } else {
        while (b->htab[slot] != 0)
            slot = (slot + 1) & b->hmask;
    }
    b->htab[slot] = i + 1;
    b->hkey[i] = key;
    {
        killer__eq_t *e = &o->eq[o->neq];
        e->sum = sum;
        e->off = o->ncells;
        e->k = (uint8_t)k;
        e->cage = (int16_t)cage;
        e->mirror = 0;
        memcpy(o->cells + o->ncells, cells, (size_t)k * sizeof(uint16_t));
        for (j = 0; j < k; j++) {
            o->neg[o->ncells + (uint32_t)j] = (uint8_t)(neg != NULL && neg[j]);
            e->mirror |= o->neg[o->ncells + (uint32_t)j];
        }
        o->ncells += (uint32_t)k;
        o->neq++;
    }
}

/* What region_scan() found of one region; its lists are b->reg (cells,
 * ascending), b->unc (uncaged cells) and b->touch (cages it touches,
 * ascending by index), with b->incnt[cage] its cells in the region. */
typedef struct region_s {
    int nreg, uncaged, ntouch;
    long inside;  /* the sums of the cages wholly inside */
    long partial; /* the sums of the cages sticking out */
    long T;       /* the region's total: units * the sum of the symbols */
} region_t;

/* One scan of the grid lists the region (cells marked in b->stamp with 2)
 * into b->reg, b->unc, b->touch; the rest works on those lists, so a
 * region costs its own size, not the grid's, beyond that scan. */
static void region_scan(build_t *b, region_t *r) {
    const killer__model_t *m = b->m;
    const killer_puzzle_t *pz = m->pz;
    int32_t *incnt = b->incnt;
    uint16_t *reg = b->reg, *unc = b->unc, *touch = b->touch;
    int nreg = 0, uncaged = 0, ntouch = 0, cell, i, j;

    for (cell = 0; cell < m->nc; cell++)
        if (b->stamp[cell] == 2) {
            int cg = m->cell_cage[cell];
            reg[nreg++] = (uint16_t)cell;
            if (cg < 0)
                unc[uncaged++] = (uint16_t)cell;
            else if (incnt[cg]++ == 0) {
                for (j = ntouch; j > 0 && touch[j - 1] > cg; j--)
                    touch[j] = touch[j - 1];
                touch[j] = (uint16_t)cg;
                ntouch++;
            }
        }
    r->inside = r->partial = 0;
    for (i = 0; i < ntouch; i++) {
        int cg = touch[i];
        if (incnt[cg] == pz->cages[cg].ncells)
            r->inside += pz->cages[cg].sum;
        else
            r->partial += pz->cages[cg].sum;
    }
    r->nreg = nreg;
    r->uncaged = uncaged;
    r->ntouch = ntouch;
}

/* innies: the region's cells outside the cages wholly inside it. */
static void region_innies(build_t *b, const region_t *r) {
    const killer__model_t *m = b->m;
    const killer_puzzle_t *pz = m->pz;
    int ni = 0, i;
    for (i = 0; i < r->nreg && ni <= KILLER__DERIVED_MAX; i++) {
        int cg = m->cell_cage[b->reg[i]];
        if (cg < 0 || b->incnt[cg] != pz->cages[cg].ncells) b->buf[ni++] = b->reg[i];
    }
    if (ni >= 1 && ni <= KILLER__DERIVED_MAX) add_eq(b, b->buf, NULL, ni, r->T - r->inside, -1);
}

/* outies (a region without uncaged cells): the cells outside it of the
 * cages sticking out. */
static void region_outies(build_t *b, const region_t *r) {
    const killer__model_t *m = b->m;
    const killer_puzzle_t *pz = m->pz;
    int no = 0, i, j;
    if (r->uncaged != 0) return;
    for (i = 0; i < r->ntouch && no <= KILLER__DERIVED_MAX; i++) {
        int cg = b->touch[i];
        if (b->incnt[cg] == pz->cages[cg].ncells) continue;
        for (j = 0; j < pz->cages[cg].ncells && no <= KILLER__DERIVED_MAX; j++) {
            int x = pz->cages[cg].cells[j].r * m->n + pz->cages[cg].cells[j].c;
            if (b->stamp[x] != 2) b->buf[no++] = (uint16_t)x;
        }
    }
    if (no >= 1 && no <= KILLER__DERIVED_MAX)
        add_eq(b, b->buf, NULL, no, r->inside + r->partial - r->T, -1);
}

/* innies and outies mixed (symbols 1..n): each cage sticking out
 * counts by one of its parts, the cells inside (+) or those outside
 * (-): sum(inside parts) - sum(outside parts) = T - inside - (sums of
 * the cages counted outside).  A cell counted negatively enters the con
 * mirrored, as n + 1 - v, so the con stays a plain sum (of T - inside -
 * outsums + (n + 1) * (mirrored cells)).  Every choice of parts with
 * both signs and at most KILLER__MIXED_MAX cells becomes a con. */
static void region_mixed(build_t *b, const region_t *r) {
    uint8_t mneg[KILLER__MIXED_MAX + 1];
    const killer__model_t *m = b->m;
    const killer_puzzle_t *pz = m->pz;
    const int32_t *incnt = b->incnt;
    const uint16_t *touch = b->touch, *unc = b->unc;
    uint16_t *buf = b->buf;
    const uint8_t *stamp = b->stamp;
    const int uncaged = r->uncaged;
    int pc[MIXED_PARTIAL], npc = 0, minsz, i, j;
    uint32_t choice;
    if (!b->sym_ident || KILLER__MIXED_MAX == 0 || uncaged > KILLER__MIXED_MAX) return;
    for (i = 0; i < r->ntouch && npc <= MIXED_PARTIAL; i++)
        if (incnt[touch[i]] != pz->cages[touch[i]].ncells) {
            if (npc < MIXED_PARTIAL) pc[npc] = touch[i];
            npc++;
        }
    minsz = uncaged;
    for (i = 0; i < npc && i < MIXED_PARTIAL; i++) {
        int kin = incnt[pc[i]], kout = pz->cages[pc[i]].ncells - kin;
        minsz += kin < kout ? kin : kout;
    }
    if (npc < 2 || npc > MIXED_PARTIAL || minsz > KILLER__MIXED_MAX) return;
    for (choice = 1; choice < (1u << npc) - (uncaged == 0 ? 1u : 0u); choice++) {
        long msum = r->T - r->inside;
        int nm = 0, sz = uncaged;
        for (i = 0; i < npc; i++) {
            int kin = incnt[pc[i]];
            sz += (choice >> i) & 1u ? pz->cages[pc[i]].ncells - kin : kin;
        }
        if (sz > KILLER__MIXED_MAX) continue;
        for (; nm < uncaged; nm++) {
            mneg[nm] = 0;
            buf[nm] = unc[nm];
        }
        for (i = 0; i < npc; i++) {
            int cg = pc[i], out = (int)((choice >> i) & 1u);
            if (out)
                msum -= pz->cages[cg].sum - (long)(m->n + 1) * (pz->cages[cg].ncells - incnt[cg]);
            for (j = 0; j < pz->cages[cg].ncells; j++) {
                int x = pz->cages[cg].cells[j].r * m->n + pz->cages[cg].cells[j].c;
                if ((stamp[x] == 2) != out) {
                    mneg[nm] = (uint8_t)out;
                    buf[nm++] = (uint16_t)x;
                }
            }
        }
        assert(nm == sz);
        if (b->nmixed < b->maxmixed) {
            b->nmixed++;
            add_eq(b, buf, mneg, nm, msum, -1);
        }
    }
}

/* One region (cells marked in b->stamp with 2, nunits whole units) of
 * total `total` a unit: its innies, outies and mixed sets, in that order
 * (the order of the output matters: file head); then the marks go. */
static void derive_region(build_t *b, int nunits, long total) {
    region_t r;
    int i;
    region_scan(b, &r);
    r.T = total * nunits;
    region_innies(b, &r);
    region_outies(b, &r);
    region_mixed(b, &r);
    for (i = 0; i < r.ntouch; i++)
        b->incnt[b->touch[i]] = 0;
    for (i = 0; i < r.nreg; i++)
        b->stamp[b->reg[i]] = 0;
}

static void mark_unit(build_t *b, int u) {
    int i;
    for (i = 0; i < b->m->n; i++)
        b->stamp[b->m->unit_cells[u][i]] = 2;
}

/* The 45 rule over every region described in the file comment. */
static void derive_all(build_t *b) {
    const killer__model_t *m = b->m;
    int n = m->n, br = m->pz->shape.box_rows, bc = m->pz->shape.box_cols;
    int bands = n / br, stacks = n / bc, s, len, u, i;
    long total = 0;
    for (i = 1; i <= n; i++)
        total += m->sym[i];
    for (len = 1; len < n; len++)
        for (s = 0; s + len <= n; s++) {
            for (u = s; u < s + len; u++)
                mark_unit(b, u);
            derive_region(b, len, total);
            for (u = s; u < s + len; u++)
                mark_unit(b, n + u);
            derive_region(b, len, total);
        }
    /* boxes: runs along each band (len < stacks) and each stack (len < bands) */
    for (i = 0; i < bands; i++)
        for (len = 1; len < stacks; len++)
            for (s = 0; s + len <= stacks; s++) {
                for (u = s; u < s + len; u++)
                    mark_unit(b, 2 * n + i * stacks + u);
                derive_region(b, len, total);
            }
    for (i = 0; i < stacks; i++)
        for (len = 2; len < bands; len++)
            for (s = 0; s + len <= bands; s++) {
                for (u = s; u < s + len; u++)
                    mark_unit(b, 2 * n + u * stacks + i);
                derive_region(b, len, total);
            }
    if (m->pz->diagonals)
        for (u = 3 * n; u < 3 * n + 2; u++) {
            mark_unit(b, u);
            derive_region(b, 1, total);
        }
}

/* Regions: row runs, column runs, boxes and box runs (generous), diagonals. */
static uint32_t nregions_of(int n) { return (uint32_t)(n * (n - 1) + n * n + n * n + 2); }

static uint32_t hslots_of(uint32_t maxeqs) {
    uint32_t s = 2;
    while (s < 2 * maxeqs)
        s *= 2;
    return s;
}

void killer__derive_size(const killer_puzzle_t *pz, uint32_t *maxeqs, uint32_t *maxcells,
                         size_t *scratch) {
    int n = pz->shape.n, i;
    uint32_t nr = nregions_of(n), cage_cells = 0, me;
    for (i = 0; i < pz->ncages; i++)
        cage_cells += (uint32_t)pz->cages[i].ncells;
    me = (uint32_t)pz->ncages + 4 * nr; /* 2 * nr: innies and outies, 2 * nr: mixed (maxmixed) */
    *maxeqs = me;
    *maxcells = cage_cells + 2 * nr * KILLER__DERIVED_MAX + 2 * nr * KILLER__MIXED_MAX;
    *scratch = KILLER__ALIGN((size_t)me * sizeof(uint64_t)) +
               KILLER__ALIGN((size_t)hslots_of(me) * sizeof(uint32_t)) +
               KILLER__ALIGN((size_t)(pz->ncages + 1) * sizeof(int32_t)) +
               3 * KILLER__ALIGN((size_t)n * n * sizeof(uint16_t)) +
               KILLER__ALIGN((size_t)(pz->ncages + 1) * sizeof(uint16_t)) +
               KILLER__ALIGN((size_t)n * n);
}

uint32_t killer__derive(const killer__model_t *m, killer__eqs_t *out, void *scratch, int rule45) {
    const killer_puzzle_t *pz = m->pz;
    char *at = scratch;
    build_t b;
    size_t bytes;
    int i, j;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.out = out;
    killer__derive_size(pz, &b.maxeqs, &b.maxcells, &bytes);
    b.maxmixed = 2 * nregions_of(m->n);
    b.sym_ident = 1;
    for (i = 1; i <= m->n; i++)
        if (m->sym[i] != i) b.sym_ident = 0;
    b.hkey = (uint64_t *)(void *)at;
    at += KILLER__ALIGN((size_t)b.maxeqs * sizeof(uint64_t));
    b.htab = (uint32_t *)(void *)at;
    b.hmask = hslots_of(b.maxeqs);
    memset(b.htab, 0, (size_t)b.hmask * sizeof(uint32_t));
    at += KILLER__ALIGN((size_t)b.hmask * sizeof(uint32_t));
    b.hmask--;
    b.incnt = (int32_t *)(void *)at;
    memset(b.incnt, 0, (size_t)(pz->ncages + 1) * sizeof(int32_t));
    at += KILLER__ALIGN((size_t)(pz->ncages + 1) * sizeof(int32_t));
    b.buf = (uint16_t *)(void *)at;
    at += KILLER__ALIGN((size_t)m->nc * sizeof(uint16_t));
    b.reg = (uint16_t *)(void *)at;
    at += KILLER__ALIGN((size_t)m->nc * sizeof(uint16_t));
    b.unc = (uint16_t *)(void *)at;
    at += KILLER__ALIGN((size_t)m->nc * sizeof(uint16_t));
    b.touch = (uint16_t *)(void *)at;
    at += KILLER__ALIGN((size_t)(pz->ncages + 1) * sizeof(uint16_t));
    b.stamp = (uint8_t *)at;
    memset(b.stamp, 0, (size_t)m->nc);
    at += KILLER__ALIGN((size_t)m->nc);
    assert((size_t)(at - (char *)scratch) <= bytes);

    out->neq = out->ncells = 0;
    for (i = 0; i < pz->ncages; i++) {
        for (j = 0; j < pz->cages[i].ncells; j++)
            b.buf[j] = (uint16_t)(pz->cages[i].cells[j].r * m->n + pz->cages[i].cells[j].c);
        add_eq(&b, b.buf, NULL, pz->cages[i].ncells, pz->cages[i].sum, i);
    }
    if (rule45) derive_all(&b);
    return out->neq - (uint32_t)pz->ncages;
}
