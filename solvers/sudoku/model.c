/* sudoku/model.c -- a Sudoku variant's description compiled into the tables
 * the engines read (model.h), and the variant's rules checked on a grid.
 *
 * Compiling (sudoku_model_new) runs in passes over temporary arrays, then
 * copies the result into one block:
 *   1. the frame and the live cells, from the grids (a named layout's
 *      origins, the spec's own, or one grid at (0,0));
 *   2. units, in this order: for each grid its rows, columns, boxes (unless
 *      regions replace them), diagonals, windows, disjoint groups; the
 *      tenth grid of a Clueless layout; the regions; the extra units.  Each
 *      is checked (inside the frame, live, no cell twice, at most n cells);
 *   3. duplicates merged: a unit whose cell set an earlier one has is
 *      dropped (the corner boxes two Samurai grids share, a 1xN box that is
 *      a row), found by a hash of the sorted cells;
 *   4. for each cell its units and its peers (cells sharing a unit with it,
 *      ascending, no repeats: a merge of its units' sorted lists);
 *   5. parity into allowed masks; pairs: the marks, then every orthogonal
 *      pair of live cells that no mark names when the spec asks for the
 *      non-consecutive rule, and the adjacency of each cell.
 * Memory: the temporaries through the caller's allocator, freed before
 * returning; the model is one block.  A Sumo (33x33 frame, 13 grids) takes
 * about 80 KB.
 *
 * Unit numbering is the engines' scan order, and a classic spec compiles to
 * rows 0..n-1, columns n..2n-1, boxes 2n..3n-1, the numbering of the
 * classic geometry (internal.h).
 *
 * Thread-safety: reentrant; a model is read only once built. */
#include "solvers/sudoku/model.h"

#include <stdlib.h>
#include <string.h>

#include "solvers/sudoku/internal.h"

/* === Names and layouts ================================================== */

static const char layout_names[SUDOKU_LAYOUT_COUNT][12] = {
    "single",   "samurai", "sohei", "windmill",   "butterfly",
    "gattai-8", "shogun",  "sumo",  "clueless-1", "clueless-2"};

const char *sudoku_layout_name(sudoku_layout_t l) {
    return (unsigned)l < SUDOKU_LAYOUT_COUNT ? layout_names[l] : NULL;
}

int sudoku_layout_parse(const char *name, sudoku_layout_t *out) {
    if (name == NULL || out == NULL) return SEARCH_EINVAL;
    for (int i = 0; i < SUDOKU_LAYOUT_COUNT; i++)
        if (strcmp(name, layout_names[i]) == 0) {
            *out = (sudoku_layout_t)i;
            return 0;
        }
    return SEARCH_EINVAL;
}

/* Grid origins of the named layouts (9x9 grids), as janko.at draws them;
 * the frame is their bounding box.  Checked against every solution of the
 * shared collections (bench/bench_variants.c). */
typedef struct layout_def_s {
    uint8_t ngrids;
    uint8_t at[13][2];
} layout_def_t;

static const layout_def_t layouts[SUDOKU_LAYOUT_COUNT] = {
    {0, {{0, 0}}},
    {5, {{0, 0}, {0, 12}, {6, 6}, {12, 0}, {12, 12}}},
    {4, {{0, 6}, {6, 0}, {6, 12}, {12, 6}}},
    {5, {{0, 3}, {3, 12}, {6, 6}, {9, 0}, {12, 9}}},
    {4, {{0, 0}, {0, 3}, {3, 0}, {3, 3}}},
    {8, {{0, 0}, {0, 12}, {0, 24}, {6, 6}, {6, 18}, {12, 0}, {12, 12}, {12, 24}}},
    {11,
     {{0, 0},
      {0, 12},
      {0, 24},
      {0, 36},
      {6, 6},
      {6, 18},
      {6, 30},
      {12, 0},
      {12, 12},
      {12, 24},
      {12, 36}}},
    {13,
     {{0, 0},
      {0, 12},
      {0, 24},
      {6, 6},
      {6, 18},
      {12, 0},
      {12, 12},
      {12, 24},
      {18, 6},
      {18, 18},
      {24, 0},
      {24, 12},
      {24, 24}}},
    {9, {{0, 0}, {0, 9}, {0, 18}, {9, 0}, {9, 9}, {9, 18}, {18, 0}, {18, 9}, {18, 18}}},
    {9, {{0, 0}, {0, 9}, {0, 18}, {9, 0}, {9, 9}, {9, 18}, {18, 0}, {18, 9}, {18, 18}}},
};

void sudoku_spec_init(sudoku_spec_t *spec) { memset(spec, 0, sizeof *spec); }

int sudoku_spec_grids(const sudoku_spec_t *spec, sudoku_origin_t *out) {
    int k;
    if ((unsigned)spec->layout >= SUDOKU_LAYOUT_COUNT) return 0;
    if (spec->layout != SUDOKU_LAYOUT_SINGLE) {
        const layout_def_t *d = &layouts[spec->layout];
        for (k = 0; k < d->ngrids; k++) {
            out[k].row = d->at[k][0];
            out[k].col = d->at[k][1];
        }
        return d->ngrids;
    }
    if (spec->ngrids == 0) {
        out[0].row = out[0].col = 0;
        return 1;
    }
    if (spec->ngrids < 0 || spec->ngrids > SUDOKU_MODEL_MAX_GRIDS || spec->grids == NULL) return 0;
    for (k = 0; k < spec->ngrids; k++)
        out[k] = spec->grids[k];
    return spec->ngrids;
}

int sudoku_spec_frame(const sudoku_spec_t *spec, int *rows, int *cols) {
    sudoku_origin_t g[SUDOKU_MODEL_MAX_GRIDS];
    int k, ng, r = 0, c = 0;
    *rows = *cols = 0;
    if (spec == NULL || spec->n < SUDOKU_MIN_N || spec->n > SUDOKU_MAX_N) return SEARCH_EINVAL;
    ng = sudoku_spec_grids(spec, g);
    if (ng == 0) return SUDOKU_ELAYOUT;
    for (k = 0; k < ng; k++) {
        if (g[k].row < 0 || g[k].col < 0 || g[k].row > SUDOKU_MODEL_MAX_SIDE ||
            g[k].col > SUDOKU_MODEL_MAX_SIDE)
            return SUDOKU_ELAYOUT;
        if (g[k].row + spec->n > r) r = g[k].row + spec->n;
        if (g[k].col + spec->n > c) c = g[k].col + spec->n;
    }
    if (r > SUDOKU_MODEL_MAX_SIDE || c > SUDOKU_MODEL_MAX_SIDE || r * c > SUDOKU_MODEL_MAX_CELLS)
        return SUDOKU_ELAYOUT;
    *rows = r;
    *cols = c;
    return 0;
}

/* === Building: the temporary unit list ================================== */

/* Units before merging: cells in one array, described by (start, kind,
 * grid, index).  Sized for the most a spec can make (see count_units). */
typedef struct ulist_s {
    int count, cap;
    uint32_t *start; /* [cap + 1] */
    uint16_t *cells;
    uint8_t *kind, *grid;
    uint16_t *index;
    size_t ncells, cells_cap;
} ulist_t;

typedef struct build_s {
    const sudoku_spec_t *spec;
    const search_allocator_t *alloc;
    sudoku_spec_error_t *err;
    int n, rows, cols, ncells, ngrids, br, bc; /* br = bc = 0: no boxes (regions) */
    sudoku_origin_t grids[SUDOKU_MODEL_MAX_GRIDS + 1];
    uint8_t *live;
    ulist_t u;
    int tenth; /* 1: a Clueless layout's tenth grid, number ngrids */
} build_t;

static void *b_alloc(const build_t *b, size_t size) {
    const search_allocator_t *a = b->alloc;
    if (size == 0) size = 1;
    return a != NULL && a->alloc != NULL ? a->alloc(a->ud, size) : malloc(size);
}

static void b_free(const build_t *b, void *p) {
    const search_allocator_t *a = b->alloc;
    if (p == NULL) return;
    if (a != NULL && a->dealloc != NULL)
        a->dealloc(a->ud, p);
    else
        free(p);
}

static int fail(build_t *b, int code, sudoku_spec_part_t part, int index, int detail) {
    if (b->err != NULL) {
        b->err->code = code;
        b->err->part = part;
        b->err->index = index;
        b->err->detail = detail;
    }
    return code;
}

/* Opens a unit; add cells with ul_cell(). */
static void ul_open(ulist_t *u, int kind, int grid, int index) {
    assert(u->count < u->cap);
    u->start[u->count] = (uint32_t)u->ncells;
    u->kind[u->count] = (uint8_t)kind;
    u->grid[u->count] = (uint8_t)grid;
    u->index[u->count] = (uint16_t)index;
    u->count++;
    u->start[u->count] = (uint32_t)u->ncells;
}

static void ul_cell(ulist_t *u, int cell) {
    assert(u->ncells < u->cells_cap);
    u->cells[u->ncells++] = (uint16_t)cell;
    u->start[u->count] = (uint32_t)u->ncells;
}

/* The cell at (r, c) of grid g, in the frame. */
static int gcell(const build_t *b, int g, int r, int c) {
    if (g == b->ngrids) { /* Clueless' tenth grid */
        int gi = r / 3, gj = c / 3, a = r % 3, k = c % 3, fr, fc;
        if (b->spec->layout == SUDOKU_LAYOUT_CLUELESS1) { /* box (a, k)'s centre */
            fr = 9 * gi + 3 * a + 1;
            fc = 9 * gj + 3 * k + 1;
        } else { /* the centre box's cell (a, k) */
            fr = 9 * gi + 3 + a;
            fc = 9 * gj + 3 + k;
        }
        return fr * b->cols + fc;
    }
    return (b->grids[g].row + r) * b->cols + b->grids[g].col + c;
}

/* Rows, columns, boxes and the flagged extras of grid g. */
static void grid_units(build_t *b, int g, int boxes, uint32_t extras) {
    ulist_t *u = &b->u;
    int n = b->n, i, j;
    for (i = 0; i < n; i++) {
        ul_open(u, SUDOKU_UNIT_ROW, g, i);
        for (j = 0; j < n; j++)
            ul_cell(u, gcell(b, g, i, j));
    }
    for (i = 0; i < n; i++) {
        ul_open(u, SUDOKU_UNIT_COL, g, i);
        for (j = 0; j < n; j++)
            ul_cell(u, gcell(b, g, j, i));
    }
    if (boxes && b->br > 0)
        for (i = 0; i < n; i++) {
            int r0 = (i / (n / b->bc)) * b->br, c0 = (i % (n / b->bc)) * b->bc;
            ul_open(u, SUDOKU_UNIT_BOX, g, i);
            for (j = 0; j < n; j++)
                ul_cell(u, gcell(b, g, r0 + j / b->bc, c0 + j % b->bc));
        }
    if (extras & SUDOKU_EXTRA_X) {
        ul_open(u, SUDOKU_UNIT_DIAGONAL, g, 0);
        for (j = 0; j < n; j++)
            ul_cell(u, gcell(b, g, j, j));
        ul_open(u, SUDOKU_UNIT_DIAGONAL, g, 1);
        for (j = 0; j < n; j++)
            ul_cell(u, gcell(b, g, j, n - 1 - j));
    }
    if (extras & SUDOKU_EXTRA_WINDOKU) {
        int wr = n / b->br - 1, wc = n / b->bc - 1, w = 0;
        for (i = 0; i < wr; i++)
            for (int k = 0; k < wc; k++) {
                int r0 = 1 + i * (b->br + 1), c0 = 1 + k * (b->bc + 1);
                ul_open(u, SUDOKU_UNIT_WINDOW, g, w++);
                for (j = 0; j < n; j++)
                    ul_cell(u, gcell(b, g, r0 + j / b->bc, c0 + j % b->bc));
            }
    }
    if (extras & SUDOKU_EXTRA_DISJOINT)
        for (i = 0; i < n; i++) { /* position i inside a box, in every box */
            ul_open(u, SUDOKU_UNIT_DISJOINT, g, i);
            for (j = 0; j < n; j++) {
                int r0 = (j / (n / b->bc)) * b->br, c0 = (j % (n / b->bc)) * b->bc;
                ul_cell(u, gcell(b, g, r0 + i / b->bc, c0 + i % b->bc));
            }
        }
}

/* Units the spec makes at most, and their cells (for sizing the list). */
static void count_units(const build_t *b, int *units, size_t *cells) {
    const sudoku_spec_t *s = b->spec;
    /* per grid: rows, columns, boxes, 2 diagonals, fewer than n windows, n
     * disjoint groups; regions: ncells / n */
    int n = b->n, per = 5 * n + 2, g = b->ngrids + b->tenth, regions = b->ncells / n + 1;
    *units = g * per + regions + (s->nunits > 0 ? s->nunits : 0);
    *cells = (size_t)g * (size_t)per * (size_t)n + (size_t)b->ncells +
             (s->nunits > 0 && s->unit_start != NULL ? s->unit_start[s->nunits] : 0);
    for (int k = 0; k < s->nlines; k++) /* cages, renban (checked by check_lines before) */
        if (s->lines[k].kind == SUDOKU_LINE_CAGE || s->lines[k].kind == SUDOKU_LINE_RENBAN) {
            (*units)++;
            *cells += s->lines[k].len;
        }
}

/* Orthogonal connectivity of the cells `in` marks (count of them, first is
 * `start`), with a queue of ncells entries; clears the marks it reaches. */
static int connected(const build_t *b, uint8_t *in, int start, int count, uint16_t *queue) {
    int head = 0, tail = 0, seen = 1;
    queue[tail++] = (uint16_t)start;
    in[start] = 0;
    while (head < tail) {
        int c = queue[head++], r = c / b->cols, k = c % b->cols;
        int nb[4] = {r > 0 ? c - b->cols : -1, r + 1 < b->rows ? c + b->cols : -1,
                     k > 0 ? c - 1 : -1, k + 1 < b->cols ? c + 1 : -1};
        for (int i = 0; i < 4; i++)
            if (nb[i] >= 0 && in[nb[i]]) {
                in[nb[i]] = 0;
                queue[tail++] = (uint16_t)nb[i];
                seen++;
            }
    }
    return seen == count;
}

/* The regions as units: every live cell in one, n connected cells each.
 * Regions are numbered by their first cell in reading order. */
static int region_units(build_t *b) {
    const int *reg = b->spec->regions;
    uint8_t *done = NULL, *in = NULL;
    uint16_t *queue = NULL;
    int c, rc = SEARCH_ENOMEM, nreg = 0;
    done = b_alloc(b, (size_t)b->ncells);
    in = b_alloc(b, (size_t)b->ncells);
    queue = b_alloc(b, (size_t)b->ncells * sizeof *queue);
    if (done == NULL || in == NULL || queue == NULL) goto out;
    for (c = 0; c < b->ncells; c++) {
        if (b->live[c] != (reg[c] >= 0)) {
            rc = fail(b, SUDOKU_EREGION, SUDOKU_SPEC_REGIONS, c, -1); /* a hole in a region or
                                                                     a cell in none */
            goto out;
        }
        done[c] = 0;
    }
    for (c = 0; c < b->ncells; c++) {
        int k, size = 0;
        if (!b->live[c] || done[c]) continue;
        memset(in, 0, (size_t)b->ncells);
        for (k = c; k < b->ncells; k++)
            if (b->live[k] && reg[k] == reg[c]) {
                in[k] = done[k] = 1;
                size++;
            }
        if (size != b->n) {
            rc = fail(b, SUDOKU_EREGION, SUDOKU_SPEC_REGIONS, c, size);
            goto out;
        }
        if (!connected(b, in, c, size, queue)) {
            rc = fail(b, SUDOKU_EREGION, SUDOKU_SPEC_REGIONS, c, -1);
            goto out;
        }
        ul_open(&b->u, SUDOKU_UNIT_REGION, 255, nreg++);
        for (k = c; k < b->ncells; k++)
            if (b->live[k] && reg[k] == reg[c]) ul_cell(&b->u, k);
    }
    rc = 0;
out:
    b_free(b, done);
    b_free(b, in);
    b_free(b, queue);
    return rc;
}

/* The spec's extra units, checked, cells ascending. */
static int extra_units(build_t *b) {
    const sudoku_spec_t *s = b->spec;
    for (int k = 0; k < s->nunits; k++) {
        uint32_t a = s->unit_start[k], e = s->unit_start[k + 1];
        if (e < a || e - a < 1 || e - a > (uint32_t)b->n)
            return fail(b, SUDOKU_EUNIT, SUDOKU_SPEC_UNITS, k, -1);
        for (uint32_t i = a; i < e; i++) {
            int c = s->unit_cells[i];
            if (c >= b->ncells || !b->live[c])
                return fail(b, SUDOKU_EUNIT, SUDOKU_SPEC_UNITS, k, (int)(i - a));
            for (uint32_t j = a; j < i; j++)
                if (s->unit_cells[j] == c)
                    return fail(b, SUDOKU_EUNIT, SUDOKU_SPEC_UNITS, k, (int)(i - a));
        }
        ul_open(&b->u, SUDOKU_UNIT_EXTRA, 255, k);
        for (int c = 0; c < b->ncells; c++) /* ascending: the frame in order */
            for (uint32_t i = a; i < e; i++)
                if (s->unit_cells[i] == c) ul_cell(&b->u, c);
    }
    for (int k = 0; k < s->nlines; k++) { /* cages, renban: units numbered after the spec's */
        const sudoku_line_t *ln = &s->lines[k];
        const uint16_t *lc = s->line_cells + ln->first;
        if (ln->kind != SUDOKU_LINE_CAGE && ln->kind != SUDOKU_LINE_RENBAN) continue;
        ul_open(&b->u, SUDOKU_UNIT_EXTRA, 255, s->nunits + k);
        for (int c = 0; c < b->ncells; c++)
            for (uint32_t i = 0; i < ln->len; i++)
                if (lc[i] == c) ul_cell(&b->u, c);
    }
    return 0;
}

/* === Building: merging, cells, peers, pairs ============================= */

/* Insertion sort: the lists here are short (a unit, a cell's peers) and
 * come nearly sorted (every kind of unit lists its cells ascending), where
 * it is linear; qsort's merge sort and its calls were most of a model's
 * building time. */
static void sort_u16(uint16_t *a, size_t len) {
    for (size_t i = 1; i < len; i++) {
        uint16_t x = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > x; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Marks in keep[] the first unit of each cell set; returns how many. */
static int merge_units(build_t *b, uint8_t *keep, uint16_t *sorted, uint32_t *hash, int *table,
                       int tsize) {
    ulist_t *u = &b->u;
    int k, kept = 0;
    memcpy(sorted, u->cells, u->ncells * sizeof *sorted);
    for (k = 0; k < tsize; k++)
        table[k] = -1;
    for (k = 0; k < u->count; k++) {
        uint32_t a = u->start[k], len = u->start[k + 1] - a, h = 2166136261u;
        int slot;
        sort_u16(sorted + a, len);
        for (uint32_t i = 0; i < len; i++)
            h = (h ^ sorted[a + i]) * 16777619u;
        hash[k] = h;
        keep[k] = 1;
        for (slot = (int)(h % (uint32_t)tsize); table[slot] >= 0; slot = (slot + 1) % tsize) {
            int o = table[slot];
            uint32_t oa = u->start[o];
            if (hash[o] == h && u->start[o + 1] - oa == len &&
                memcmp(sorted + oa, sorted + a, len * sizeof *sorted) == 0) {
                keep[k] = 0;
                break;
            }
        }
        if (keep[k]) {
            table[slot] = k;
            kept++;
        }
    }
    return kept;
}

/* The block a model takes, and where each array goes in it. */
typedef struct layout_s {
    size_t grids, live, allowed, ustart, ucells, ukind, ugrid, uindex, gunits, cstart, cunits,
        pstart, peers, pairs, astart, adj, lines, lcells, lstart, llines, ptab, dstart, dword,
        dmask, total;
} layout_t;

static void plan(layout_t *l, int ncells, int ngrids, int nunits, size_t ucells, int n,
                 size_t cunits, size_t npeers, int npairs, int nlines, size_t lcells, int ntables) {
    size_t at = SUDOKU__ALIGN(sizeof(sudoku_model_t));
#define PUT(f, bytes)                                                                              \
    do {                                                                                           \
        l->f = at;                                                                                 \
        at += SUDOKU__ALIGN(bytes);                                                                \
    } while (0)
    PUT(grids, (size_t)(ngrids + 1) * sizeof(sudoku_origin_t));
    PUT(live, (size_t)ncells);
    PUT(allowed, (size_t)ncells * 8);
    PUT(ustart, ((size_t)nunits + 1) * 4);
    PUT(ucells, ucells * 2);
    PUT(ukind, (size_t)nunits);
    PUT(ugrid, (size_t)nunits);
    PUT(uindex, (size_t)nunits * 2);
    PUT(gunits, (size_t)(ngrids + 1) * 2 * (size_t)n * 2);
    PUT(cstart, ((size_t)ncells + 1) * 4);
    PUT(cunits, cunits * 2);
    PUT(pstart, ((size_t)ncells + 1) * 4);
    PUT(peers, npeers * 2);
    PUT(pairs, (size_t)npairs * sizeof(sudoku_pair_t));
    PUT(astart, ((size_t)ncells + 1) * 4);
    PUT(adj, (size_t)npairs * 2 * 4);
    PUT(lines, (size_t)nlines * sizeof(sudoku_line_t));
    PUT(lcells, lcells * 2);
    PUT(lstart, ((size_t)ncells + 1) * 4);
    PUT(llines, lcells * 2);
    PUT(ptab, (size_t)ntables * 2 * (size_t)n * 8);
    PUT(dstart, ((size_t)ncells + 1) * 4);
    PUT(dword, cunits + (size_t)ncells);
    PUT(dmask, (cunits + (size_t)ncells) * 8);
#undef PUT
    l->total = at;
}

/* Whether a and b are orthogonal neighbours of the frame. */
static int orthogonal(const build_t *b, int a, int c) {
    int ra = a / b->cols, ca = a % b->cols, rc = c / b->cols, cc = c % b->cols;
    return (ra == rc && (ca - cc == 1 || cc - ca == 1)) ||
           (ca == cc && (ra - rc == 1 || rc - ra == 1));
}

/* Checks the marked pairs and counts the implied ones. */
static int check_pairs(build_t *b, int *total) {
    const sudoku_spec_t *s = b->spec;
    int k, j, implied = 0;
    if (s->npairs < 0 || (s->npairs > 0 && s->pairs == NULL))
        return fail(b, SEARCH_EINVAL, SUDOKU_SPEC_PAIRS, -1, -1);
    for (k = 0; k < s->npairs; k++) {
        const sudoku_pair_t *p = &s->pairs[k];
        if (p->a >= b->ncells || p->b >= b->ncells || !b->live[p->a] || !b->live[p->b] ||
            !orthogonal(b, p->a, p->b) || p->rule > SUDOKU_PAIR_NONCONSECUTIVE)
            return fail(b, SUDOKU_EPAIR, SUDOKU_SPEC_PAIRS, k, -1);
        for (j = 0; j < k; j++)
            if ((s->pairs[j].a == p->a && s->pairs[j].b == p->b) ||
                (s->pairs[j].a == p->b && s->pairs[j].b == p->a))
                return fail(b, SUDOKU_EPAIR, SUDOKU_SPEC_PAIRS, k, j);
    }
    if (s->nonconsecutive)
        for (int c = 0; c < b->ncells; c++) {
            if (!b->live[c]) continue;
            if (c % b->cols + 1 < b->cols && b->live[c + 1]) implied++;
            if (c / b->cols + 1 < b->rows && b->live[c + b->cols]) implied++;
        }
    *total = implied; /* the marks are among them */
    return 0;
}

/* Whether the spec marks the pair (a, c). */
static int marked(const sudoku_spec_t *s, int a, int c) {
    for (int k = 0; k < s->npairs; k++)
        if ((s->pairs[k].a == a && s->pairs[k].b == c) ||
            (s->pairs[k].a == c && s->pairs[k].b == a))
            return 1;
    return 0;
}

/* === Building: the whole ================================================ */

/* Frame, live cells, box shape.  0 or a code (err filled). */
static int build_frame(build_t *b) {
    const sudoku_spec_t *s = b->spec;
    int rc, k, r, c;
    if (s->layout != SUDOKU_LAYOUT_SINGLE &&
        ((unsigned)s->layout >= SUDOKU_LAYOUT_COUNT || s->n != 9 || s->ngrids != 0))
        return fail(b, SUDOKU_ELAYOUT, SUDOKU_SPEC_LAYOUT, -1, -1);
    b->ngrids = sudoku_spec_grids(s, b->grids);
    if (b->ngrids == 0) return fail(b, SUDOKU_ELAYOUT, SUDOKU_SPEC_GRIDS, -1, -1);
    rc = sudoku_spec_frame(s, &b->rows, &b->cols);
    if (rc != 0) return fail(b, rc, SUDOKU_SPEC_GRIDS, -1, -1);
    for (k = 0; k < b->ngrids; k++)
        for (int j = 0; j < k; j++)
            if (b->grids[j].row == b->grids[k].row && b->grids[j].col == b->grids[k].col)
                return fail(b, SUDOKU_ELAYOUT, SUDOKU_SPEC_GRIDS, k, j);
    b->ncells = b->rows * b->cols;
    b->tenth = s->layout == SUDOKU_LAYOUT_CLUELESS1 || s->layout == SUDOKU_LAYOUT_CLUELESS2;
    b->live = b_alloc(b, (size_t)b->ncells);
    if (b->live == NULL) return SEARCH_ENOMEM;
    memset(b->live, 0, (size_t)b->ncells);
    for (k = 0; k < b->ngrids; k++)
        for (r = 0; r < b->n; r++)
            for (c = 0; c < b->n; c++)
                b->live[gcell(b, k, r, c)] = 1;
    /* boxes: the spec's, or the default; with regions none, but the shape
     * still places windoku windows */
    b->br = s->box_rows;
    b->bc = s->box_cols;
    if (b->br == 0 && b->bc == 0) {
        rc = sudoku_default_box(b->n, &b->br, &b->bc);
        if (rc == SUDOKU_ENOBOX) {
            b->br = b->bc = 0;
            if (s->regions == NULL || (s->extras & ~SUDOKU_EXTRA_X) != 0)
                return fail(b, SUDOKU_ENOBOX, SUDOKU_SPEC_BOX, -1, -1);
        }
    } else if (b->br < 1 || b->bc < 1 || b->br * b->bc != b->n) {
        return fail(b, SEARCH_EINVAL, SUDOKU_SPEC_BOX, -1, -1);
    }
    if ((s->extras & ~(SUDOKU_EXTRA_X | SUDOKU_EXTRA_WINDOKU | SUDOKU_EXTRA_DISJOINT)) != 0 ||
        (s->regions != NULL && (s->extras & SUDOKU_EXTRA_DISJOINT)))
        return fail(b, SEARCH_EINVAL, SUDOKU_SPEC_EXTRAS, -1, -1);
    return 0;
}

/* Copies what passes 3-5 found into the block (see the caller). */
typedef struct merged_s {
    int nunits;
    const uint8_t *keep;
    const int *newid; /* [u.count]: the kept unit's number, or of the one it repeats */
    size_t ucells, cunits, npeers;
    int npairs;
} merged_t;

static void fill_units(const build_t *b, const merged_t *mg, sudoku_model_t *m, char *base,
                       const layout_t *l) {
    const ulist_t *u = &b->u;
    uint32_t *ustart = (uint32_t *)(void *)(base + l->ustart);
    uint16_t *ucells = (uint16_t *)(void *)(base + l->ucells);
    uint8_t *kind = (uint8_t *)(base + l->ukind), *grid = (uint8_t *)(base + l->ugrid);
    uint16_t *index = (uint16_t *)(void *)(base + l->uindex);
    int16_t *gunits = (int16_t *)(void *)(base + l->gunits);
    int k, j = 0, n = b->n, ng = b->ngrids + b->tenth;
    size_t at = 0;
    for (k = 0; k < u->count; k++) {
        if (!mg->keep[k]) continue;
        ustart[j] = (uint32_t)at;
        memcpy(ucells + at, u->cells + u->start[k], (u->start[k + 1] - u->start[k]) * 2);
        at += u->start[k + 1] - u->start[k];
        kind[j] = u->kind[k];
        grid[j] = u->grid[k];
        index[j] = u->index[k];
        j++;
    }
    ustart[j] = (uint32_t)at;
    for (k = 0; k < ng * 2 * n; k++)
        gunits[k] = -1;
    for (k = 0; k < u->count; k++)
        if (u->grid[k] < ng && (u->kind[k] == SUDOKU_UNIT_ROW || u->kind[k] == SUDOKU_UNIT_COL))
            gunits[u->grid[k] * 2 * n + (u->kind[k] == SUDOKU_UNIT_COL ? n : 0) + u->index[k]] =
                (int16_t)mg->newid[k];
    m->nunits = j;
    m->unit_start = ustart;
    m->unit_cells = ucells;
    m->unit_kind = kind;
    m->unit_grid = grid;
    m->unit_index = index;
    m->grid_units = gunits;
}

/* The peers of cell c into out, ascending, without repeats or c: a merge
 * of its units' cell lists, which are all ascending (rows, columns, boxes,
 * windows, diagonals, disjoint groups, a Clueless tenth grid by their
 * construction; regions and extra units sorted when read).  Returns how
 * many.  A cell in more than 64 units (extra units can do that) is sorted
 * instead. */
static size_t merge_peers(const sudoku_model_t *m, const uint16_t *units, int k, int c,
                          uint16_t *out) {
    uint32_t at[64], end[64];
    size_t len = 0;
    int last = -1;
    if (k > 64) {
        for (int j = 0; j < k; j++)
            for (uint32_t i = m->unit_start[units[j]]; i < m->unit_start[units[j] + 1]; i++)
                out[len++] = m->unit_cells[i];
        sort_u16(out, len);
        for (size_t i = 0, w = 0; i <= len; i++) {
            if (i == len) {
                len = w;
                break;
            }
            if (out[i] != c && (w == 0 || out[w - 1] != out[i])) out[w++] = out[i];
        }
        return len;
    }
    for (int j = 0; j < k; j++) {
        at[j] = m->unit_start[units[j]];
        end[j] = m->unit_start[units[j] + 1];
    }
    for (;;) {
        int best = -1;
        for (int j = 0; j < k; j++)
            if (at[j] < end[j] && (best < 0 || m->unit_cells[at[j]] < m->unit_cells[at[best]]))
                best = j;
        if (best < 0) return len;
        int q = m->unit_cells[at[best]++];
        if (q != c && q != last) out[len++] = (uint16_t)q;
        last = q;
    }
}

/* Cells' units and peers. */
static void fill_cells(const build_t *b, sudoku_model_t *m, char *base, const layout_t *l) {
    uint32_t *cstart = (uint32_t *)(void *)(base + l->cstart);
    uint16_t *cunits = (uint16_t *)(void *)(base + l->cunits);
    uint32_t *pstart = (uint32_t *)(void *)(base + l->pstart);
    uint16_t *peers = (uint16_t *)(void *)(base + l->peers);
    int c, u;
    size_t pat = 0;
    memset(cstart, 0, ((size_t)b->ncells + 1) * 4);
    for (u = 0; u < m->nunits; u++)
        for (uint32_t i = m->unit_start[u]; i < m->unit_start[u + 1]; i++)
            cstart[m->unit_cells[i] + 1]++;
    for (c = 0; c < b->ncells; c++)
        cstart[c + 1] += cstart[c];
    for (u = 0; u < m->nunits; u++) /* units ascending, so each cell's list is */
        for (uint32_t i = m->unit_start[u]; i < m->unit_start[u + 1]; i++)
            cunits[cstart[m->unit_cells[i]]++] = (uint16_t)u;
    for (c = b->ncells; c > 0; c--)
        cstart[c] = cstart[c - 1];
    cstart[0] = 0;
    for (c = 0; c < b->ncells; c++) {
        pstart[c] = (uint32_t)pat;
        pat += merge_peers(m, cunits + cstart[c], (int)(cstart[c + 1] - cstart[c]), c, peers + pat);
    }
    pstart[b->ncells] = (uint32_t)pat;
    m->cell_start = cstart;
    m->cell_units = cunits;
    m->peer_start = pstart;
    m->peers = peers;
    sudoku__dirty_marks(b->ncells, cstart, cunits, (uint32_t *)(void *)(base + l->dstart),
                        (uint8_t *)(base + l->dword), (uint64_t *)(void *)(base + l->dmask));
    m->dirty_start = (const uint32_t *)(const void *)(base + l->dstart);
    m->dirty_word = (const uint8_t *)(base + l->dword);
    m->dirty_mask = (const uint64_t *)(const void *)(base + l->dmask);
}

/* Parity masks and the pairs with their adjacency. */
static void fill_rules(const build_t *b, sudoku_model_t *m, char *base, const layout_t *l,
                       int npairs) {
    const sudoku_spec_t *s = b->spec;
    uint64_t *allowed = (uint64_t *)(void *)(base + l->allowed);
    sudoku_pair_t *pairs = (sudoku_pair_t *)(void *)(base + l->pairs);
    uint32_t *astart = (uint32_t *)(void *)(base + l->astart), *adj;
    uint64_t even = 0;
    int c, k, np = 0;
    for (k = 2; k <= b->n; k += 2)
        even |= SUDOKU__BIT(k);
    for (c = 0; c < b->ncells; c++) {
        int par = s->parity != NULL ? s->parity[c] : SUDOKU_PARITY_ANY;
        allowed[c] = !b->live[c]                 ? 0
                     : par == SUDOKU_PARITY_EVEN ? even
                     : par == SUDOKU_PARITY_ODD  ? m->full & ~even
                                                 : m->full;
    }
    for (k = 0; k < s->npairs; k++)
        pairs[np++] = s->pairs[k];
    if (s->nonconsecutive)
        for (c = 0; c < b->ncells; c++) {
            int right = c + 1, down = c + b->cols;
            if (!b->live[c]) continue;
            if (c % b->cols + 1 < b->cols && b->live[right] && !marked(s, c, right))
                pairs[np++] =
                    (sudoku_pair_t){(uint16_t)c, (uint16_t)right, SUDOKU_PAIR_NONCONSECUTIVE};
            if (c / b->cols + 1 < b->rows && b->live[down] && !marked(s, c, down))
                pairs[np++] =
                    (sudoku_pair_t){(uint16_t)c, (uint16_t)down, SUDOKU_PAIR_NONCONSECUTIVE};
        }
    assert(np == npairs);
    m->npairs = np;
    m->nmarked = s->npairs;
    m->pairs = pairs;
    m->allowed = allowed;
    if (np == 0) return;
    adj = (uint32_t *)(void *)(base + l->adj);
    memset(astart, 0, ((size_t)b->ncells + 1) * 4);
    for (k = 0; k < np; k++) {
        astart[pairs[k].a + 1]++;
        astart[pairs[k].b + 1]++;
    }
    for (c = 0; c < b->ncells; c++)
        astart[c + 1] += astart[c];
    for (k = 0; k < np; k++) {
        adj[astart[pairs[k].a]++] = (uint32_t)pairs[k].b << 8 | pairs[k].rule;
        adj[astart[pairs[k].b]++] = (uint32_t)pairs[k].a << 8 | pairs[k].rule;
    }
    for (c = b->ncells; c > 0; c--)
        astart[c] = astart[c - 1];
    astart[0] = 0;
    m->pair_start = astart;
    m->pair_adj = adj;
}

/* Whether equal-sum line k (its value 1..nlines - k) continues its group
 * (the next line is the group's with one less), and when k starts a group,
 * whether the group has at most SUDOKU_LINE_MAX_CELLS cells in all. */
static int eqsum_fits(const sudoku_spec_t *s, int k) {
    const sudoku_line_t *ln = &s->lines[k];
    long long all = 0;
    if (ln->value > 1 && (ln[1].kind != SUDOKU_LINE_EQSUM || ln[1].value != ln->value - 1))
        return 0;
    if (k > 0 && ln[-1].kind == SUDOKU_LINE_EQSUM && ln[-1].value == ln->value + 1)
        return 1; /* not the first: the first counted */
    for (int j = 0; j < ln->value; j++)
        all += ln[j].len;
    return all <= SUDOKU_LINE_MAX_CELLS;
}

/* Pass 2 for the line rules: cells of the frame, live, once per line; a
 * number the line can have.  *total gets their cells.  0 or SUDOKU_ELINE
 * (index the line, detail the position of a bad cell or -1). */
static int check_lines(build_t *b, size_t *total) {
    const sudoku_spec_t *s = b->spec;
    *total = 0;
    if (s->nlines < 0 || s->nlines > SUDOKU_MODEL_MAX_LINES ||
        (s->nlines > 0 && (s->lines == NULL || s->line_cells == NULL)) || s->npair_tables < 0 ||
        s->npair_tables > SUDOKU_MODEL_MAX_LINES || (s->npair_tables > 0 && s->pair_tables == NULL))
        return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, -1, -1);
    for (int k = 0; k < s->nlines; k++) {
        const sudoku_line_t *ln = &s->lines[k];
        const uint16_t *lc = s->line_cells + ln->first;
        long long len = ln->len, lo, hi;
        if (ln->kind >= SUDOKU_LINE_KINDS || len < 1 || len > SUDOKU_LINE_MAX_CELLS)
            return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, k, -1);
        for (uint32_t i = 0; i < ln->len; i++) {
            if (lc[i] >= b->ncells || !b->live[lc[i]])
                return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, k, (int)i);
            for (uint32_t j = 0; j < i; j++)
                if (lc[j] == lc[i]) return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, k, (int)i);
        }
        if (ln->kind == SUDOKU_LINE_CAGE) { /* distinct values: 1+..+len to n+..+(n-len+1) */
            if (len > b->n) return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, k, -1);
            lo = len * (len + 1) / 2;
            hi = len * (2LL * b->n - len + 1) / 2;
            if (ln->value == 0) lo = 0;
        } else if (ln->kind == SUDOKU_LINE_PAIR) {
            if (len != 2) return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, k, -1);
            lo = 0;
            hi = s->npair_tables - 1;
        } else if (ln->kind == SUDOKU_LINE_ARROW) { /* h heads, then at least one line cell */
            int h = ln->value & 0xff, mode = ln->value >> 8;
            if (h < 1 || h > 3 || mode > 1 || len < h + 1)
                return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, k, -1);
            lo = hi = ln->value;
        } else if (ln->kind == SUDOKU_LINE_RENBAN) {
            lo = 0;
            hi = len <= b->n ? 0 : -1;
        } else if (ln->kind == SUDOKU_LINE_BETWEEN) {
            lo = len >= 2 ? 0 : 1;
            hi = 0;
        } else if (ln->kind == SUDOKU_LINE_LOCKOUT) {
            lo = len >= 2 ? 0 : b->n;
            hi = b->n - 1;
        } else if (ln->kind == SUDOKU_LINE_ZIPPER) {
            lo = len >= 2 ? 0 : 1;
            hi = 0;
        } else if (ln->kind == SUDOKU_LINE_SANDWICH) { /* 0 to the inner values' most */
            lo = len >= 2 ? 0 : 1;
            hi = (len - 2) * (b->n - 1);
        } else if (ln->kind == SUDOKU_LINE_XSUM) {
            lo = 1;
            hi = len * b->n;
        } else if (ln->kind == SUDOKU_LINE_SEGSUM || ln->kind == SUDOKU_LINE_SEGLOOP) {
            lo = 1;
            hi = len * b->n;
        } else if (ln->kind == SUDOKU_LINE_EQSUM) { /* the segments left */
            lo = 1;
            hi = s->nlines - k;
            if (ln->value >= lo && ln->value <= hi && !eqsum_fits(s, k))
                return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, k, -1);
        } else {
            lo = ln->kind == SUDOKU_LINE_SUM ? len : 1;
            hi = ln->kind == SUDOKU_LINE_SUM ? len * b->n : (len < b->n ? len : b->n);
        }
        if (ln->value < lo || ln->value > hi)
            return fail(b, SUDOKU_ELINE, SUDOKU_SPEC_LINES, k, -1);
        *total += ln->len;
    }
    return 0;
}

/* The line rules, their cells, and the lines through each cell. */
static void fill_lines(const build_t *b, sudoku_model_t *m, char *base, const layout_t *l) {
    const sudoku_spec_t *s = b->spec;
    sudoku_line_t *lines = (sudoku_line_t *)(void *)(base + l->lines);
    uint16_t *lcells = (uint16_t *)(void *)(base + l->lcells);
    uint32_t *lstart = (uint32_t *)(void *)(base + l->lstart), at = 0;
    uint16_t *llines = (uint16_t *)(void *)(base + l->llines);
    int k, c;
    memset(lstart, 0, ((size_t)b->ncells + 1) * 4);
    for (k = 0; k < s->nlines; k++) {
        lines[k] = s->lines[k];
        lines[k].first = at;
        for (uint32_t i = 0; i < s->lines[k].len; i++) {
            lcells[at++] = s->line_cells[s->lines[k].first + i];
            lstart[s->line_cells[s->lines[k].first + i] + 1]++;
        }
    }
    for (c = 0; c < b->ncells; c++)
        lstart[c + 1] += lstart[c];
    for (k = 0; k < s->nlines; k++) /* lines ascending, so each cell's list is */
        for (uint32_t i = 0; i < lines[k].len; i++)
            llines[lstart[lcells[lines[k].first + i]]++] = (uint16_t)k;
    for (c = b->ncells; c > 0; c--)
        lstart[c] = lstart[c - 1];
    lstart[0] = 0;
    m->nextra = s->nunits;
    m->nlines = s->nlines;
    m->nrules = 0;
    for (k = 0; k < s->nlines; k++)
        m->nrules += !(lines[k].kind == SUDOKU_LINE_CAGE && lines[k].value == 0);
    m->lines = lines;
    if (s->npair_tables > 0) { /* the tables and their transposes */
        uint64_t *fwd = (uint64_t *)(void *)(base + l->ptab), *bwd;
        size_t nt = (size_t)s->npair_tables * (size_t)b->n;
        bwd = fwd + nt;
        memcpy(fwd, s->pair_tables, nt * 8);
        memset(bwd, 0, nt * 8);
        for (int t = 0; t < s->npair_tables; t++)
            for (int a = 0; a < b->n; a++)
                for (uint64_t x = fwd[(size_t)t * b->n + a] & m->full; x != 0; x &= x - 1)
                    bwd[(size_t)t * b->n + sudoku__ctz(x)] |= (uint64_t)1 << a;
        m->npair_tables = s->npair_tables;
        m->pair_fwd = fwd;
        m->pair_bwd = bwd;
    }
    m->line_cells = lcells;
    m->lcell_start = lstart;
    m->lcell_lines = llines;
}

/* The model is a classic grid: one n x n grid at (0,0), boxes, nothing else. */
static int is_classic(const build_t *b) {
    const sudoku_spec_t *s = b->spec;
    if (b->ngrids != 1 || b->tenth || b->grids[0].row != 0 || b->grids[0].col != 0) return 0;
    if (s->regions != NULL || s->extras != 0 || s->nunits != 0 || s->npairs != 0 ||
        s->nonconsecutive || s->nlines != 0 || b->br == 0)
        return 0;
    if (s->parity != NULL)
        for (int c = 0; c < b->ncells; c++)
            if (s->parity[c] != SUDOKU_PARITY_ANY) return 0;
    return 1;
}

/* Pass 2: every unit into b->u, checked; parity and pairs checked too.
 * *npairs gets the implied pairs' count (check_pairs).  0 or a code; the
 * list is freed by the caller either way. */
static int collect_units(build_t *b, int *npairs, size_t *lcells) {
    const sudoku_spec_t *s = b->spec;
    ulist_t *u = &b->u;
    int units, rc, k;
    size_t cells;
    if ((rc = check_lines(b, lcells)) != 0) return rc; /* count_units reads the cages */
    count_units(b, &units, &cells);
    u->cap = units;
    u->cells_cap = cells;
    u->start = b_alloc(b, ((size_t)units + 1) * 4);
    u->cells = b_alloc(b, cells * 2);
    u->kind = b_alloc(b, (size_t)units);
    u->grid = b_alloc(b, (size_t)units);
    u->index = b_alloc(b, (size_t)units * 2);
    if (!u->start || !u->cells || !u->kind || !u->grid || !u->index) return SEARCH_ENOMEM;
    u->start[0] = 0;
    for (k = 0; k < b->ngrids; k++)
        grid_units(b, k, s->regions == NULL, s->extras);
    if (b->tenth) {
        int br = b->br, bc = b->bc;
        b->br = b->bc = 3; /* the tenth grid always has its 3x3 boxes */
        grid_units(b, b->ngrids, 1, 0);
        b->br = br;
        b->bc = bc;
    }
    if (s->regions != NULL && (rc = region_units(b)) != 0) return rc;
    if (s->nunits < 0 || (s->nunits > 0 && (s->unit_start == NULL || s->unit_cells == NULL)))
        return fail(b, SEARCH_EINVAL, SUDOKU_SPEC_UNITS, -1, -1);
    if ((rc = extra_units(b)) != 0) return rc;
    if (s->parity != NULL)
        for (k = 0; k < b->ncells; k++)
            if (s->parity[k] > SUDOKU_PARITY_ODD || (s->parity[k] != 0 && !b->live[k]))
                return fail(b, SUDOKU_EPARITY, SUDOKU_SPEC_PARITY, k, -1);
    return check_pairs(b, npairs);
}

/* Passes 2-5 over the checked frame, then the block.  0 or a code. */
static int build_all(build_t *b, sudoku_model_t **out) {
    const sudoku_spec_t *s = b->spec;
    ulist_t *u = &b->u;
    int rc, k, tsize, npairs = 0, *newid = NULL;
    size_t lcells = 0;
    uint8_t *keep = NULL;
    uint16_t *sorted = NULL;
    uint32_t *hash = NULL;
    int *table = NULL;
    merged_t mg;
    layout_t l;
    char *base = NULL;
    sudoku_model_t *m;

    if ((rc = collect_units(b, &npairs, &lcells)) != 0) goto out;
    rc = SEARCH_ENOMEM;
    tsize = 2 * u->count + 1;
    keep = b_alloc(b, (size_t)u->count);
    sorted = b_alloc(b, u->ncells * 2);
    hash = b_alloc(b, (size_t)u->count * 4);
    table = b_alloc(b, (size_t)tsize * sizeof *table);
    newid = b_alloc(b, (size_t)u->count * sizeof *newid);
    if (!keep || !sorted || !hash || !table || !newid) goto out;
    memset(&mg, 0, sizeof mg);
    mg.nunits = merge_units(b, keep, sorted, hash, table, tsize);
    if (mg.nunits > SUDOKU_MODEL_MAX_UNITS) {
        rc = fail(b, SUDOKU_EUNIT, SUDOKU_SPEC_UNITS, -1, mg.nunits);
        goto out;
    }
    /* the number each unit has after merging (a repeat: its original's) */
    for (k = 0, mg.ucells = 0, tsize = 0; k < u->count; k++) {
        if (keep[k]) {
            mg.ucells += u->start[k + 1] - u->start[k];
            newid[k] = tsize++; /* tsize: kept units so far (the table is done) */
        } else {
            newid[k] = -1;
            for (int i = 0; i < k && newid[k] < 0; i++)
                if (keep[i] && hash[i] == hash[k] &&
                    u->start[i + 1] - u->start[i] == u->start[k + 1] - u->start[k] &&
                    memcmp(sorted + u->start[i], sorted + u->start[k],
                           (u->start[k + 1] - u->start[k]) * 2) == 0)
                    newid[k] = newid[i];
        }
    }
    mg.keep = keep;
    mg.newid = newid;
    /* pairs: the marks and, with the rule, every other orthogonal pair */
    if (!s->nonconsecutive) npairs = s->npairs;
    mg.npairs = npairs;
    /* peers: at most the sum over units of len^2; counted exactly below */
    mg.cunits = mg.ucells;
    mg.npeers = 0;
    for (k = 0; k < u->count; k++)
        if (keep[k]) {
            size_t len = u->start[k + 1] - u->start[k];
            mg.npeers += len * (len - 1);
        }
    plan(&l, b->ncells, b->ngrids + b->tenth, mg.nunits, mg.ucells, b->n, mg.cunits, mg.npeers,
         npairs, s->nlines, lcells, s->npair_tables);
    base = b_alloc(b, l.total);
    if (base == NULL) goto out;
    memset(base, 0, sizeof(sudoku_model_t));
    m = (sudoku_model_t *)(void *)base;
    m->n = b->n;
    m->rows = b->rows;
    m->cols = b->cols;
    m->ncells = b->ncells;
    m->ngrids = b->ngrids;
    m->nline_grids = b->ngrids + b->tenth;
    m->layout = s->layout;
    m->full = b->n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << b->n) - 1;
    m->extras = s->extras;
    m->nonconsecutive = s->nonconsecutive;
    m->shape.n = b->n;
    m->shape.box_rows = s->regions != NULL ? 0 : b->br;
    m->shape.box_cols = s->regions != NULL ? 0 : b->bc;
    m->classic = is_classic(b);
    memcpy(base + l.grids, b->grids, (size_t)(b->ngrids + 1) * sizeof(sudoku_origin_t));
    m->grids = (const sudoku_origin_t *)(void *)(base + l.grids);
    memcpy(base + l.live, b->live, (size_t)b->ncells);
    m->live = (const uint8_t *)(base + l.live);
    for (k = 0; k < b->ncells; k++)
        m->nlive += b->live[k];
    fill_units(b, &mg, m, base, &l);
    fill_cells(b, m, base, &l);
    fill_rules(b, m, base, &l, npairs);
    fill_lines(b, m, base, &l);
    m->bytes = l.total;
    if (b->alloc != NULL) m->alloc = *b->alloc;
    *out = m;
    base = NULL;
    rc = 0;
out:
    b_free(b, base);
    b_free(b, keep);
    b_free(b, sorted);
    b_free(b, hash);
    b_free(b, table);
    b_free(b, newid);
    b_free(b, u->start);
    b_free(b, u->cells);
    b_free(b, u->kind);
    b_free(b, u->grid);
    b_free(b, u->index);
    return rc;
}

int sudoku_model_new(const sudoku_spec_t *spec, const search_allocator_t *alloc,
                     sudoku_model_t **out, sudoku_spec_error_t *err) {
    build_t b;
    int rc;
    if (err != NULL) {
        err->code = 0;
        err->part = SUDOKU_SPEC_N;
        err->index = err->detail = -1;
    }
    memset(&b, 0, sizeof b);
    b.spec = spec;
    b.alloc = alloc;
    b.err = err;
    if (spec == NULL || out == NULL || !search_allocator_ok(alloc))
        return fail(&b, SEARCH_EINVAL, SUDOKU_SPEC_N, -1, -1);
    if (spec->n < SUDOKU_MIN_N || spec->n > SUDOKU_MAX_N)
        return fail(&b, SEARCH_EINVAL, SUDOKU_SPEC_N, -1, -1);
    b.n = spec->n;
    rc = build_frame(&b);
    if (rc == 0) rc = build_all(&b, out);
    if (rc == SEARCH_ENOMEM) fail(&b, rc, SUDOKU_SPEC_N, -1, -1);
    b_free(&b, b.live);
    return rc;
}

int sudoku_model_classic(const sudoku_shape_t *shape, const search_allocator_t *alloc,
                         sudoku_model_t **out) {
    sudoku_spec_t spec;
    if (sudoku_shape_check(shape) != 0) return SEARCH_EINVAL;
    sudoku_spec_init(&spec);
    spec.n = shape->n;
    spec.box_rows = shape->box_rows;
    spec.box_cols = shape->box_cols;
    return sudoku_model_new(&spec, alloc, out, NULL);
}

void sudoku_model_free(sudoku_model_t *m) {
    search_allocator_t a;
    if (m == NULL) return;
    a = m->alloc;
    if (a.dealloc != NULL)
        a.dealloc(a.ud, m);
    else
        free(m);
}

int sudoku_model_sees(const sudoku_model_t *m, int a, int b) {
    uint32_t lo = m->peer_start[a], hi = m->peer_start[a + 1];
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (m->peers[mid] == b) return 1;
        if (m->peers[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* === Validation ========================================================= */

int sudoku_model_check_values(const sudoku_model_t *m, const uint8_t *grid) {
    if (m == NULL || grid == NULL) return SEARCH_EINVAL;
    for (int c = 0; c < m->ncells; c++)
        if (grid[c] > m->n || (grid[c] != 0 && !m->live[c])) return SEARCH_EINVAL;
    return 0;
}

/* Whether values x and y break a pair rule. */
static int pair_broken(int rule, int x, int y) {
    int d = x > y ? x - y : y - x;
    return rule == SUDOKU_PAIR_CONSECUTIVE ? d != 1 : d == 1;
}

static void conflict_put(sudoku_conflict_t *cf, int unit, int value, int index, int id, int grid) {
    cf->unit = (uint8_t)unit;
    cf->value = (uint8_t)value;
    cf->index = (uint16_t)index;
    cf->id = (uint16_t)id;
    cf->grid = (uint8_t)grid;
    cf->ncells = 0;
}

int sudoku_model_find_conflicts(const sudoku_model_t *m, const uint8_t *grid,
                                sudoku_conflict_t *out, size_t cap, size_t *count) {
    size_t total = 0;
    int u, c, k;
    if (count == NULL) return SEARCH_EINVAL;
    *count = 0;
    if (sudoku_model_check_values(m, grid) != 0 || (cap > 0 && out == NULL)) return SEARCH_EINVAL;
    for (u = 0; u < m->nunits; u++) {
        const uint16_t *uc = m->unit_cells + m->unit_start[u];
        int len = (int)(m->unit_start[u + 1] - m->unit_start[u]);
        uint64_t seen = 0, dup = 0;
        for (k = 0; k < len; k++) {
            int v = grid[uc[k]];
            if (v == 0) continue;
            dup |= seen & SUDOKU__BIT(v);
            seen |= SUDOKU__BIT(v);
        }
        for (; dup != 0; dup &= dup - 1, total++) {
            int v = sudoku__ctz(dup) + 1, j = 0;
            sudoku_conflict_t *cf = total < cap ? &out[total] : NULL;
            uint16_t cells[SUDOKU_MAX_N];
            if (cf == NULL) continue;
            conflict_put(cf, m->unit_kind[u], v, m->unit_index[u], u, m->unit_grid[u]);
            for (k = 0; k < len; k++)
                if (grid[uc[k]] == v) cells[j++] = uc[k];
            sort_u16(cells, (size_t)j);
            memcpy(cf->cells, cells, (size_t)j * sizeof cells[0]);
            cf->ncells = (uint16_t)j;
        }
    }
    for (c = 0; c < m->ncells; c++) {
        if (grid[c] == 0 || (m->allowed[c] & SUDOKU__BIT(grid[c]))) continue;
        if (total < cap) {
            conflict_put(&out[total], SUDOKU_RULE_PARITY, grid[c], c, 0, 255);
            out[total].cells[0] = (uint16_t)c;
            out[total].ncells = 1;
        }
        total++;
    }
    for (k = 0; k < m->npairs; k++) {
        const sudoku_pair_t *p = &m->pairs[k];
        if (grid[p->a] == 0 || grid[p->b] == 0 || !pair_broken(p->rule, grid[p->a], grid[p->b]))
            continue;
        if (total < cap) {
            conflict_put(&out[total], SUDOKU_RULE_PAIR, grid[p->a], k, 0, 255);
            out[total].cells[0] = p->a < p->b ? p->a : p->b;
            out[total].cells[1] = p->a < p->b ? p->b : p->a;
            out[total].ncells = 2;
        }
        total++;
    }
    for (k = 0; k < m->nlines; k++) {
        if (sudoku_model_line_ok(m, k, grid)) continue;
        if (total < cap) {
            const sudoku_line_t *ln = &m->lines[k];
            uint16_t cells[SUDOKU_LINE_MAX_CELLS];
            int j = 0;
            conflict_put(&out[total], SUDOKU_RULE_LINE, 0, k, 0, 255);
            for (uint32_t i = 0; i < ln->len; i++)
                if (grid[m->line_cells[ln->first + i]] != 0)
                    cells[j++] = m->line_cells[ln->first + i];
            sort_u16(cells, (size_t)j);
            memcpy(out[total].cells, cells, (size_t)j * sizeof cells[0]);
            out[total].ncells = (uint16_t)j;
        }
        total++;
    }
    *count = total;
    return 0;
}

/* Whether the values of lc[0..len), read from `from` round to from - 1,
 * split into runs that each add up to s. */
static int seg_runs(const uint8_t *grid, const uint16_t *lc, int len, int from, long long s) {
    long long sum = 0;
    for (int i = 0; i < len; i++) {
        sum += grid[lc[(from + i) % len]];
        if (sum == s) sum = 0;
        if (sum > s) return 0;
    }
    return sum == 0;
}

/* A full line of the other kinds (pair, arrow, renban, between, lockout)
 * against its rule. */
static int line_full_ok(const sudoku_model_t *m, const sudoku_line_t *ln, const uint8_t *grid) {
    const uint16_t *lc = m->line_cells + ln->first;
    int len = (int)ln->len, a = grid[lc[0]], z = grid[lc[len - 1]], lo = a < z ? a : z,
        hi = a < z ? z : a, i;
    long long num = 0, sum = 0;
    switch (ln->kind) {
    case SUDOKU_LINE_PAIR:
        return (int)(m->pair_fwd[(size_t)ln->value * m->n + a - 1] >> (z - 1) & 1);
    case SUDOKU_LINE_ARROW: {
        int h = ln->value & 0xff, digits = ln->value >> 8;
        for (i = 0; i < h; i++) {
            if (digits && i > 0 && grid[lc[i]] > 9) return 0;
            num = digits ? num * 10 + grid[lc[i]] : num + grid[lc[i]];
        }
        for (; i < len; i++)
            sum += grid[lc[i]];
        return sum == num;
    }
    case SUDOKU_LINE_RENBAN:
        lo = hi = a;
        for (i = 0; i < len; i++) {
            if (grid[lc[i]] < lo) lo = grid[lc[i]];
            if (grid[lc[i]] > hi) hi = grid[lc[i]];
        }
        return hi - lo == len - 1; /* with no repeats (its unit): consecutive */
    case SUDOKU_LINE_BETWEEN:
        for (i = 1; i < len - 1; i++)
            if (grid[lc[i]] <= lo || grid[lc[i]] >= hi) return 0;
        return 1;
    case SUDOKU_LINE_LOCKOUT:
        if (hi - lo < ln->value) return 0;
        for (i = 1; i < len - 1; i++)
            if (grid[lc[i]] >= lo && grid[lc[i]] <= hi) return 0;
        return 1;
    case SUDOKU_LINE_ZIPPER:
        for (i = 0; i < len / 2; i++)
            if (grid[lc[i]] + grid[lc[len - 1 - i]] != a + z) return 0;
        return len % 2 == 0 || (len > 1 && grid[lc[len / 2]] == a + z);
    case SUDOKU_LINE_SANDWICH: {
        int open = -1, close = -1;
        for (i = 0; i < len; i++)
            if (grid[lc[i]] == 1 || grid[lc[i]] == m->n) {
                if (open < 0)
                    open = i;
                else if (close < 0 && grid[lc[i]] != grid[lc[open]])
                    close = i;
                else
                    return 0; /* a third extreme, or the same one twice */
            }
        if (open < 0 || close < 0) return 0;
        for (i = open + 1; i < close; i++)
            sum += grid[lc[i]];
        return sum == ln->value;
    }
    case SUDOKU_LINE_XSUM:
        if (a > len) return 0;
        for (i = 0; i < a; i++)
            sum += grid[lc[i]];
        return sum == ln->value;
    case SUDOKU_LINE_SEGSUM: return seg_runs(grid, lc, len, 0, ln->value);
    case SUDOKU_LINE_SEGLOOP: /* some cell starts a run */
        for (i = 0; i < len; i++)
            if (seg_runs(grid, lc, len, i, ln->value)) return 1;
        return 0;
    default: return 1;
    }
}

/* An equal-sum group (line k's): each segment can still make the sums
 * from its filled values plus 1 per empty cell to plus n per empty cell;
 * 1 when those ranges meet (full segments: when their sums are equal).
 * Segments that share a cell are looked at apart: never a wrong 0. */
static int eqsum_ok(const sudoku_model_t *m, int k, const uint8_t *grid) {
    long long lo = 0, hi = (long long)SUDOKU_LINE_MAX_CELLS * m->n;
    int count, first = sudoku__eqsum_group(m->lines, k, &count);
    for (int j = first; j < first + count; j++) {
        const sudoku_line_t *ln = &m->lines[j];
        long long sum = 0, empty = 0;
        for (uint32_t i = 0; i < ln->len; i++) {
            int v = grid[m->line_cells[ln->first + i]];
            sum += v;
            empty += v == 0;
        }
        if (sum + empty > lo) lo = sum + empty;
        if (sum + empty * m->n < hi) hi = sum + empty * m->n;
    }
    return lo <= hi;
}

int sudoku_model_line_ok(const sudoku_model_t *m, int k, const uint8_t *grid) {
    const sudoku_line_t *ln = &m->lines[k];
    const uint16_t *lc = m->line_cells + ln->first;
    long long sum = 0, empty = 0;
    int seen = 0, top = 0, prefix = 1;
    for (uint32_t i = 0; i < ln->len; i++) {
        int v = grid[lc[i]];
        if (v == 0) {
            empty++;
            prefix = 0;
            continue;
        }
        sum += v;
        if (prefix && v > top) {
            top = v;
            seen++;
        }
    }
    if (ln->kind == SUDOKU_LINE_CAGE && ln->value == 0) return 1; /* its unit's conflicts */
    if (ln->kind == SUDOKU_LINE_SUM || ln->kind == SUDOKU_LINE_CAGE)
        return sum + empty <= ln->value && sum + empty * m->n >= ln->value; /* least, most */
    if (ln->kind == SUDOKU_LINE_SKYSCRAPER)
        return empty == 0 ? seen == ln->value : seen <= ln->value;
    if (ln->kind == SUDOKU_LINE_EQSUM) return eqsum_ok(m, k, grid); /* the whole group */
    return empty > 0 || line_full_ok(m, ln, grid);                  /* the others: once full */
}

int sudoku_model_is_complete(const sudoku_model_t *m, const uint8_t *grid) {
    size_t count;
    if (sudoku_model_check_values(m, grid) != 0) return SEARCH_EINVAL;
    for (int c = 0; c < m->ncells; c++)
        if (m->live[c] && grid[c] == 0) return 0;
    if (sudoku_model_find_conflicts(m, grid, NULL, 0, &count) != 0) return SEARCH_EINVAL;
    return count == 0;
}

int sudoku_model_check_solution(const sudoku_model_t *m, const uint8_t *puzzle,
                                const uint8_t *solution) {
    int rc;
    if (puzzle == NULL || sudoku_model_check_values(m, puzzle) != 0) return SEARCH_EINVAL;
    rc = sudoku_model_is_complete(m, solution);
    if (rc != 1) return rc;
    for (int c = 0; c < m->ncells; c++)
        if (puzzle[c] != 0 && puzzle[c] != solution[c]) return 0;
    return 1;
}

/* === Geometry for the engines =========================================== */

void sudoku__geom_of_model(sudoku__geom_t *g, const sudoku_model_t *m) {
    memset(g, 0, sizeof *g);
    g->nunits = m->nunits;
    g->classic = 0;
    g->ustart = m->unit_start;
    g->ucells = m->unit_cells;
    g->cstart = m->cell_start;
    g->cunits = m->cell_units;
    g->pstart = m->peer_start;
    g->peers = m->peers;
    g->allowed = m->allowed;
    g->live = m->live;
    if (m->npairs > 0) {
        g->astart = m->pair_start;
        g->adj = m->pair_adj;
    }
    g->dstart = m->dirty_start;
    g->dword = m->dirty_word;
    g->dmask = m->dirty_mask;
}

void sudoku__dirty_marks(int ncells, const uint32_t *cstart, const uint16_t *cunits,
                         uint32_t *dstart, uint8_t *dword, uint64_t *dmask) {
    uint32_t k = 0;
    for (int c = 0; c < ncells; c++) {
        dstart[c] = k;
        if (cstart[c] == cstart[c + 1]) { /* in no unit: one entry that marks nothing */
            dword[k] = 0;
            dmask[k++] = 0;
        }
        for (uint32_t j = cstart[c]; j < cstart[c + 1]; j++) { /* units ascending */
            int w = cunits[j] >> 6;
            if (k == dstart[c] || dword[k - 1] != w) {
                dword[k] = (uint8_t)w;
                dmask[k++] = 0;
            }
            dmask[k - 1] |= (uint64_t)1 << (cunits[j] & 63);
        }
    }
    dstart[ncells] = k;
}

/* === Result codes === */

/* The codes of model.h by name and sentence, for search_code_name() and
 * search_code_str() (the Makefile lists this table with every puzzle's). */
const search_code_t sudoku_model_codes[] = {
    SEARCH_CODE(SUDOKU_EMETHOD, "the method cannot solve this variant"),
    SEARCH_CODE(SUDOKU_EREGION,
                "the regions are not connected regions of n cells covering the grid"),
    SEARCH_CODE(SUDOKU_EUNIT, "a unit lists too many cells, a cell twice, or a cell of no grid"),
    SEARCH_CODE(SUDOKU_ELAYOUT, "the grids repeat or do not fit the frame"),
    SEARCH_CODE(SUDOKU_EPAIR,
                "a pair is not two neighbouring cells of the grids, or is marked twice"),
    SEARCH_CODE(SUDOKU_EPARITY, "a parity mark is on no grid or is not even or odd"),
    SEARCH_CODE(SUDOKU_ELINE, "a line rule names a cell of no grid or twice, is too long, or "
                              "asks for a number it cannot have"),
    {0, NULL, NULL}};
