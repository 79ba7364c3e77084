/* xcover.c -- exact cover: the problem builder, the solve and split entry
 * points, and what the two engines share (memory, result bookkeeping).
 * The searches themselves are in xcover/dlx.c and xcover/algx.c.
 *
 * Data
 * ----
 * A problem is ONE allocation (struct + arrays, layout in xcover/internal.h):
 * the options as compressed rows (as given), the items as compressed columns
 * (options ascending), and a fully linked dancing-links template.  Nothing
 * in it changes after xcover_problem_new() returns, which is what lets many
 * threads solve or split one problem at once: a solve copies the template
 * (dlx) or starts from all-active flags (algorithm-x) in its own memory.
 * Rejected alternative: one mutable link structure per problem, reset after
 * each solve -- it would serialise the subtrees of a parallel search.
 *
 * A solve is: validate, allocate the engine's working state and a scratch
 * row (prefix + one option per primary item, the deepest a solution can
 * go), force the prefix, run the engine with a leaf callback that sorts each
 * solution and hands it to the caller's buffer and/or callback, free.  No
 * allocation happens once the engine runs.
 *
 * A split runs the dancing-links engine in "cutoff" mode: a live node below
 * `depth` branching choices is reported as a root instead of being
 * expanded.  Because both engines follow one search order (xcover.h), dlx
 * roots serve either engine.  Roots are stored like solutions (options then
 * XCOVER_NONE) but in choice order, unsorted: the order is what replays.
 *
 * Invariants: every stored solution is sorted ascending and followed by
 * XCOVER_NONE; solutions_stored <= solutions_found; a problem's arrays are
 * consistent with each other (checked by the engines' sanity functions).
 *
 * Thread-safety: no global state; a problem is read-only after building. */
#include <stdlib.h>
#include <string.h>

#include "solvers/xcover/xcover.h"
#include "solvers/xcover/internal.h"

/* === Memory ============================================================== */

void *xcover__alloc(const search_allocator_t *a, size_t size) {
    if (size == 0) size = 1;
    if (a != NULL && a->alloc != NULL) return a->alloc(a->ud, size);
    return malloc(size);
}

void xcover__free(const search_allocator_t *a, void *ptr) {
    if (ptr == NULL) return;
    if (a != NULL && a->dealloc != NULL)
        a->dealloc(a->ud, ptr);
    else
        free(ptr);
}

/* === Building a problem ================================================== */

/* Nodes between two polls of the clock and the cancel flag, from a rough
 * cost of one node (memory touched), so that a poll comes about every 2^22
 * touches whatever the problem: dlx covers about avg_opt items of avg_col
 * options of avg_opt nodes and walks the primary list; algorithm-x rescans
 * every primary column to choose.  Never rarer than search.h asks. */
static uint32_t poll_interval(uint64_t work) {
    uint64_t poll = ((uint64_t)1 << 22) / (work == 0 ? 1 : work);
    if (poll > SEARCH_POLL_MASK + 1) poll = SEARCH_POLL_MASK + 1;
    if (poll < 1) poll = 1;
    return (uint32_t)poll;
}

/* Validates the sizes and the offsets (not the items).  Returns 0 and sets
 * *nentries, or SEARCH_EINVAL / XCOVER_ELIMIT. */
static int check_shape(const xcover_spec_t *spec, uint32_t *nentries) {
    uint64_t nitems = (uint64_t)spec->nprimary + spec->nsecondary;
    uint32_t k;

    if (nitems > XCOVER_MAX_ITEMS || spec->noptions > XCOVER_MAX_OPTIONS) return XCOVER_ELIMIT;
    *nentries = 0;
    if (spec->option_start == NULL) return spec->noptions == 0 ? 0 : SEARCH_EINVAL;
    if (spec->option_start[0] != 0) return SEARCH_EINVAL;
    for (k = 0; k < spec->noptions; k++)
        if (spec->option_start[k + 1] < spec->option_start[k]) return SEARCH_EINVAL;
    if (spec->option_start[spec->noptions] > XCOVER_MAX_NODES) return XCOVER_ELIMIT;
    *nentries = spec->option_start[spec->noptions];
    if (*nentries > 0 && spec->items == NULL) return SEARCH_EINVAL;
    return 0;
}

/* Checks each option: nonempty, items in range, no item twice.  `stamp`
 * (nitems entries) remembers the last option each item was seen in. */
static int check_options(const xcover_spec_t *spec, uint32_t *stamp, xcover_diag_t *diag) {
    uint32_t nitems = spec->nprimary + spec->nsecondary, k, e;

    for (e = 0; e < nitems; e++)
        stamp[e] = XCOVER_NONE;
    for (k = 0; k < spec->noptions; k++) {
        uint32_t b = spec->option_start[k], end = spec->option_start[k + 1];
        diag->option = k;
        if (b == end) return XCOVER_EEMPTY;
        for (e = b; e < end; e++) {
            uint32_t item = spec->items[e];
            diag->position = e - b;
            if (item >= nitems) return XCOVER_EITEM;
            if (stamp[item] == k) return XCOVER_EDUP;
            stamp[item] = k;
        }
    }
    diag->option = diag->position = XCOVER_NONE;
    return 0;
}

/* Fills the columns (items -> options ascending) from the rows; item_start
 * serves as the fill cursor and is shifted back afterwards. */
static void build_columns(xcover_problem_t *p) {
    uint32_t i, k, e, *start = p->item_start;

    memset(start, 0, (p->nitems + 1) * sizeof *start);
    for (e = 0; e < p->nentries; e++)
        start[p->opt_items[e] + 1]++;
    for (i = 0; i < p->nitems; i++)
        start[i + 1] += start[i];
    for (k = 0; k < p->noptions; k++)
        for (e = p->opt_start[k]; e < p->opt_start[k + 1]; e++)
            p->item_opts[start[p->opt_items[e]]++] = k;
    for (i = p->nitems; i > 0; i--)
        start[i] = start[i - 1];
    start[0] = 0;
}

/* Links the dancing-links template (layout in xcover/internal.h). */
static void build_links(xcover_problem_t *p) {
    xcover__link_t *it = p->dlx_items;
    xcover__node_t *nd = p->dlx_nodes;
    int32_t nitems = (int32_t)p->nitems, np = (int32_t)p->nprimary, i, sroot = nitems + 1;
    uint32_t k, e;

    /* primary list: 0, 1..np; secondary list: np+1..nitems, root nitems+1 */
    for (i = 0; i <= np; i++) {
        it[i].left = i == 0 ? np : i - 1;
        it[i].right = i == np ? 0 : i + 1;
    }
    it[sroot].left = nitems > np ? nitems : sroot;
    it[sroot].right = nitems > np ? np + 1 : sroot;
    for (i = np + 1; i <= nitems; i++) {
        it[i].left = i == np + 1 ? sroot : i - 1;
        it[i].right = i == nitems ? sroot : i + 1;
    }
    nd[0].top = nd[0].up = nd[0].down = 0;
    for (i = 1; i <= nitems; i++) {
        nd[i].top = 0;
        nd[i].up = nd[i].down = i;
    }
    for (k = 0; k <= p->noptions; k++) {
        int32_t s = nitems + 1 + (int32_t)(p->opt_start[k] + k);
        nd[s].top = -(int32_t)k;
        nd[s].up = k == 0 ? 0 : nitems + 1 + (int32_t)(p->opt_start[k - 1] + k - 1) + 1;
        nd[s].down = k == p->noptions ? 0 : s + (int32_t)(p->opt_start[k + 1] - p->opt_start[k]);
        if (k == p->noptions) break;
        for (e = p->opt_start[k]; e < p->opt_start[k + 1]; e++) {
            int32_t x = s + 1 + (int32_t)(e - p->opt_start[k]);
            int32_t h = (int32_t)p->opt_items[e] + 1;
            nd[x].top = h;
            nd[x].up = nd[h].up;
            nd[x].down = h;
            nd[nd[h].up].down = x;
            nd[h].up = x;
            nd[h].top++;
        }
    }
}

int xcover_problem_new(const xcover_spec_t *spec, const search_allocator_t *alloc,
                       xcover_problem_t **out, xcover_diag_t *diag) {
    xcover_diag_t d = {XCOVER_NONE, XCOVER_NONE};
    xcover_problem_t *p = NULL;
    uint32_t nentries = 0, nitems, nopt, nnodes;
    size_t sz[7], total = 0, off;
    unsigned char *block = NULL;
    uint64_t avg_col, avg_opt;
    int rc = SEARCH_EINVAL, j;

    if (spec == NULL || out == NULL || !search_allocator_ok(alloc)) goto fail;
    rc = check_shape(spec, &nentries);
    if (rc != 0) goto fail;
    nitems = spec->nprimary + spec->nsecondary;
    nopt = spec->noptions;
    nnodes = nitems + 2 + nentries + nopt;

    sz[0] = xcover__round(sizeof *p);
    sz[1] = xcover__round(((size_t)nopt + 1) * sizeof(uint32_t));         /* opt_start */
    sz[2] = xcover__round((size_t)nentries * sizeof(uint32_t));           /* opt_items */
    sz[3] = xcover__round(((size_t)nitems + 1) * sizeof(uint32_t));       /* item_start */
    sz[4] = xcover__round((size_t)nentries * sizeof(uint32_t));           /* item_opts */
    sz[5] = xcover__round(((size_t)nitems + 2) * sizeof(xcover__link_t)); /* dlx_items */
    sz[6] = xcover__round((size_t)nnodes * sizeof(xcover__node_t));       /* dlx_nodes */
    for (j = 0; j < 7; j++)
        total += sz[j];
    rc = SEARCH_ENOMEM;
    block = xcover__alloc(alloc, total);
    if (block == NULL) goto fail;
    p = (xcover_problem_t *)block;
    memset(p, 0, sizeof *p);
    off = sz[0];
    p->opt_start = (uint32_t *)(block + off), off += sz[1];
    p->opt_items = (uint32_t *)(block + off), off += sz[2];
    p->item_start = (uint32_t *)(block + off), off += sz[3];
    p->item_opts = (uint32_t *)(block + off), off += sz[4];
    p->dlx_items = (xcover__link_t *)(block + off), off += sz[5];
    p->dlx_nodes = (xcover__node_t *)(block + off);

    /* item_start doubles as the stamp array of the per-option checks */
    rc = check_options(spec, p->item_start, &d);
    if (rc != 0) goto fail;

    p->nprimary = spec->nprimary;
    p->nsecondary = spec->nsecondary;
    p->nitems = nitems;
    p->noptions = nopt;
    p->nentries = nentries;
    p->nnodes = nnodes;
    if (nopt > 0)
        memcpy(p->opt_start, spec->option_start, ((size_t)nopt + 1) * sizeof(uint32_t));
    else
        p->opt_start[0] = 0;
    if (nentries > 0) memcpy(p->opt_items, spec->items, (size_t)nentries * sizeof(uint32_t));
    build_columns(p);
    build_links(p);

    avg_col = nentries / (nitems ? nitems : 1) + 1;
    avg_opt = nentries / (nopt ? nopt : 1) + 1;
    p->poll_dlx = poll_interval(avg_opt * avg_opt * avg_col + p->nprimary);
    p->poll_algx = poll_interval((uint64_t)p->nprimary * avg_col + avg_opt * avg_col);
    if (alloc != NULL) p->alloc = *alloc;
    p->bytes = total;
    p->block = block;
    *out = p;
    if (diag != NULL) *diag = d;
    return 0;

fail:
    xcover__free(alloc, block);
    if (diag != NULL) *diag = d;
    return rc;
}

void xcover_problem_free(xcover_problem_t *p) {
    search_allocator_t a;
    if (p == NULL) return;
    a = p->alloc; /* the struct lives in the block it frees */
    xcover__free(&a, p->block);
}

void xcover_problem_info(const xcover_problem_t *p, xcover_info_t *info) {
    memset(info, 0, sizeof *info);
    if (p == NULL) return;
    info->nprimary = p->nprimary;
    info->nsecondary = p->nsecondary;
    info->noptions = p->noptions;
    info->nentries = p->nentries;
    info->bytes = p->bytes;
}

size_t xcover_problem_option(const xcover_problem_t *p, uint32_t k, const uint32_t **items) {
    if (p == NULL || k >= p->noptions) return 0;
    if (items != NULL) *items = p->opt_items + p->opt_start[k];
    return p->opt_start[k + 1] - p->opt_start[k];
}

/* === Names and defaults ================================================== */

/* Arrays of char, not pointers: a pointer table would need relocations and
 * land in writable .data.rel.ro, and solver objects hold no writable data. */
static const char engine_names[XCOVER_ENGINE_COUNT][12] = {"dlx", "algorithm-x"};

/* strcmp(a, b) == 0 without libc (solvers/ call only a short list of it). */
static int same_name(const char *a, const char *b) {
    while (*a != '\0' && *a == *b)
        a++, b++;
    return *a == *b;
}

const char *xcover_engine_name(xcover_engine_t e) {
    return (unsigned)e < XCOVER_ENGINE_COUNT ? engine_names[e] : NULL;
}

int xcover_engine_parse(const char *name, xcover_engine_t *out) {
    unsigned e;
    if (name == NULL || out == NULL) return SEARCH_EINVAL;
    for (e = 0; e < XCOVER_ENGINE_COUNT; e++) {
        if (same_name(name, engine_names[e])) {
            *out = (xcover_engine_t)e;
            return 0;
        }
    }
    return SEARCH_EINVAL;
}

void xcover_opts_init(xcover_opts_t *opts) {
    memset(opts, 0, sizeof *opts);
    opts->engine = XCOVER_ENGINE_DLX;
    opts->max_solutions = 1;
}

/* === Running an engine =================================================== */

/* The working state of either engine, created, forced and run through one
 * small dispatch so that solve and split share the code. */
typedef struct engine_s {
    xcover_engine_t kind;
    union {
        xcover__dlx_t dlx;
        xcover__algx_t algx;
    } u;
} engine_t;

static int engine_init(engine_t *e, xcover_engine_t kind, const xcover_problem_t *p,
                       const search_allocator_t *a) {
    e->kind = kind;
    return kind == XCOVER_ENGINE_DLX ? xcover__dlx_init(&e->u.dlx, p, a)
                                     : xcover__algx_init(&e->u.algx, p, a);
}

static void engine_destroy(engine_t *e) {
    if (e->kind == XCOVER_ENGINE_DLX)
        xcover__dlx_destroy(&e->u.dlx);
    else
        xcover__algx_destroy(&e->u.algx);
}

/* Forces options[0..n-1] in order.  Returns 0, 1 on a conflict. */
static int engine_force(engine_t *e, const uint32_t *options, size_t n) {
    size_t j;
    for (j = 0; j < n; j++) {
        int rc = e->kind == XCOVER_ENGINE_DLX ? xcover__dlx_force(&e->u.dlx, options[j])
                                              : xcover__algx_force(&e->u.algx, options[j]);
        if (rc != 0) return rc;
    }
    return 0;
}

static int engine_run(engine_t *e, xcover__search_t *s) {
    return e->kind == XCOVER_ENGINE_DLX ? xcover__dlx_run(&e->u.dlx, s)
                                        : xcover__algx_run(&e->u.algx, s);
}

static size_t engine_bytes(const engine_t *e) {
    return e->kind == XCOVER_ENGINE_DLX ? e->u.dlx.bytes : e->u.algx.bytes;
}

/* Returns 0 if every option of list[0..n-1] is < noptions. */
static int options_in_range(const xcover_problem_t *p, const uint32_t *list, size_t n) {
    size_t j;
    for (j = 0; j < n; j++)
        if (list[j] >= p->noptions) return SEARCH_EINVAL;
    return 0;
}

/* === Solving ============================================================= */

typedef struct solve_sink_s {
    const xcover_opts_t *o;
    uint32_t *scratch; /* prefix_len + nprimary entries */
    uint64_t found, stored;
    size_t used;
    int full; /* a solution did not fit: store no more */
} solve_sink_t;

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Leaf callback of a solve: assemble prefix + choices, sort, store, count. */
static int solve_leaf(void *ud, const uint32_t *chosen, uint32_t depth, int kind) {
    solve_sink_t *k = ud;
    const xcover_opts_t *o = k->o;
    size_t n = o->prefix_len + depth;

    (void)kind; /* always XCOVER__LEAF_SOLUTION: no cutoff in a solve */
    if (o->prefix_len > 0) memcpy(k->scratch, o->prefix, o->prefix_len * sizeof(uint32_t));
    if (depth > 0) memcpy(k->scratch + o->prefix_len, chosen, (size_t)depth * sizeof(uint32_t));
    if (n > 1) qsort(k->scratch, n, sizeof(uint32_t), cmp_u32);
    k->found++;
    if (o->solutions != NULL && !k->full) {
        if (o->solutions_cap - k->used >= n + 1) {
            memcpy(o->solutions + k->used, k->scratch, n * sizeof(uint32_t));
            o->solutions[k->used + n] = XCOVER_NONE;
            k->used += n + 1;
            k->stored++;
        } else {
            k->full = 1;
        }
    }
    if (o->on_solution != NULL && o->on_solution(o->on_solution_ud, k->scratch, n) != 0) return 1;
    if (o->max_solutions != 0 && k->found >= o->max_solutions) return 1;
    return 0;
}

int xcover_solve(const xcover_problem_t *p, const xcover_opts_t *opts, xcover_result_t *res) {
    xcover_opts_t defaults;
    solve_sink_t sink;
    xcover__search_t s;
    engine_t eng;
    int have_engine = 0, rc;
    size_t nscratch;

    if (res == NULL) return SEARCH_EINVAL;
    memset(res, 0, sizeof *res);
    memset(&sink, 0, sizeof sink);
    if (opts == NULL) {
        xcover_opts_init(&defaults);
        opts = &defaults;
    }
    if (search_allocator_of(opts->alloc, opts->ctl) != opts->alloc) { /* the control block's */
        if (opts != &defaults) defaults = *opts;
        defaults.alloc = opts->ctl->alloc;
        opts = &defaults;
    }
    rc = SEARCH_EINVAL;
    if (p == NULL || (unsigned)opts->engine >= XCOVER_ENGINE_COUNT) goto done;
    if (opts->solutions_cap > 0 && opts->solutions == NULL) goto done;
    if (opts->prefix_len > 0 && opts->prefix == NULL) goto done;
    if (!search_allocator_ok(opts->alloc)) goto done;
    if (options_in_range(p, opts->prefix, opts->prefix_len) != 0) goto done;
    res->engine = opts->engine;
    rc = search_check_now(opts->ctl, 0);
    if (rc != 0) goto done;
    if (opts->prefix_len > p->noptions) { /* some option twice: a conflict */
        res->prefix_conflict = res->exhausted = 1;
        goto done;
    }

    rc = SEARCH_ENOMEM;
    nscratch = opts->prefix_len + p->nprimary + 1;
    sink.o = opts;
    sink.scratch = xcover__alloc(opts->alloc, nscratch * sizeof(uint32_t));
    if (sink.scratch == NULL) goto done;
    rc = engine_init(&eng, opts->engine, p, opts->alloc);
    if (rc != 0) goto done;
    have_engine = 1;
    res->mem_bytes = engine_bytes(&eng) + nscratch * sizeof(uint32_t);

    rc = engine_force(&eng, opts->prefix, opts->prefix_len);
    if (rc == 1) {
        res->prefix_conflict = res->exhausted = 1;
        rc = 0;
        goto done;
    }
    memset(&s, 0, sizeof s);
    s.ctl = opts->ctl;
    s.leaf = solve_leaf;
    s.ud = &sink;
    rc = engine_run(&eng, &s);
    res->stats = s.stats;
    res->stats.propagations = opts->prefix_len;
    res->exhausted = s.exhausted;

done:
    if (have_engine) engine_destroy(&eng);
    if (sink.scratch != NULL) xcover__free(opts->alloc, sink.scratch);
    res->solutions_found = sink.found;
    res->solutions_stored = sink.stored;
    res->solutions_used = sink.used;
    res->code = rc;
    return rc;
}

/* === Splitting =========================================================== */

typedef struct split_sink_s {
    uint32_t *roots;
    size_t cap;
    uint32_t depth;
    size_t count;
    size_t entries; /* needed by all roots so far */
    size_t stored;
    int full;
    size_t cut; /* roots that reached the cutoff (others are solutions) */
} split_sink_t;

static int split_leaf(void *ud, const uint32_t *chosen, uint32_t depth, int kind) {
    split_sink_t *k = ud;
    size_t need = (size_t)depth + 1;
    if (!k->full && k->cap - k->entries >= need) {
        if (depth > 0) memcpy(k->roots + k->entries, chosen, (size_t)depth * sizeof *chosen);
        k->roots[k->entries + depth] = XCOVER_NONE;
        k->stored++;
    } else {
        k->full = 1;
    }
    k->count++;
    k->entries += need;
    if (kind == XCOVER__LEAF_CUTOFF) k->cut++;
    return 0;
}

/* One pass of the split at k->depth, storing into k.  Returns 0 or a
 * SEARCH_* code; *stats receives the pass's statistics. */
static int split_pass(const xcover_problem_t *p, const xcover_split_opts_t *o, split_sink_t *k,
                      search_stats_t *stats) {
    xcover__search_t s;
    engine_t eng;
    int rc;

    k->count = k->cut = k->entries = k->stored = 0;
    k->full = 0;
    memset(stats, 0, sizeof *stats);
    rc = engine_init(&eng, XCOVER_ENGINE_DLX, p, o->alloc);
    if (rc != 0) return rc;
    rc = engine_force(&eng, o->base, o->base_len);
    if (rc == 1) { /* the base conflicts: no roots */
        engine_destroy(&eng);
        return 0;
    }
    memset(&s, 0, sizeof s);
    s.cutoff = k->depth;
    s.ctl = o->ctl;
    s.leaf = split_leaf;
    s.ud = k;
    rc = engine_run(&eng, &s);
    *stats = s.stats;
    engine_destroy(&eng);
    return rc;
}

int xcover_split(const xcover_problem_t *p, const xcover_split_opts_t *o, uint32_t *roots,
                 size_t cap, xcover_split_info_t *info) {
    split_sink_t k;
    search_stats_t st;
    xcover_split_opts_t own;
    int rc;

    if (info == NULL) return SEARCH_EINVAL;
    memset(info, 0, sizeof *info);
    memset(&k, 0, sizeof k);
    rc = SEARCH_EINVAL;
    if (p == NULL || o == NULL || (roots == NULL && cap > 0)) goto done;
    if (search_allocator_of(o->alloc, o->ctl) != o->alloc) { /* the control block's */
        own = *o;
        own.alloc = o->ctl->alloc;
        o = &own;
    }
    if (o->depth > XCOVER_SPLIT_MAX_DEPTH || (o->base_len > 0 && o->base == NULL)) goto done;
    if (!search_allocator_ok(o->alloc) || options_in_range(p, o->base, o->base_len) != 0) goto done;
    k.depth = o->depth ? o->depth : 1;
    rc = search_check_now(o->ctl, 0);
    if (rc != 0) goto done;
    if (o->base_len > p->noptions) goto done; /* an option twice: conflicting base, no roots */

    if (o->depth == 0) { /* iterative deepening, counting only */
        for (;; k.depth++) {
            rc = split_pass(p, o, &k, &st);
            if (rc != 0) goto done;
            if (k.count >= o->target || k.cut == 0 || k.depth == XCOVER_SPLIT_MAX_DEPTH) break;
        }
    }
    k.roots = roots;
    k.cap = cap;
    rc = split_pass(p, o, &k, &st);
    info->stats = st;
    if (rc == 0 && k.entries > cap) rc = XCOVER_ESPACE;

done:
    info->depth = k.depth;
    info->count = k.count;
    info->entries = k.entries;
    info->stored = k.stored;
    info->code = rc;
    return rc;
}

/* === Result codes === */

/* The codes of xcover.h by name and sentence, for search_code_name() and
 * search_code_str() (the Makefile lists this table with every puzzle's). */
const search_code_t xcover_codes[] = {
    SEARCH_CODE(XCOVER_EITEM, "an option names an unknown item"),
    SEARCH_CODE(XCOVER_EEMPTY, "an option has no item"),
    SEARCH_CODE(XCOVER_EDUP, "an option names the same item twice"),
    SEARCH_CODE(XCOVER_ELIMIT, "more items, options or entries than the limits allow"),
    SEARCH_CODE(XCOVER_ESPACE, "the split needs more room than given"),
    {0, NULL, NULL}};
