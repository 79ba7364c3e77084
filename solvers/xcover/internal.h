/* xcover/internal.h -- what xcover.c, xcover/dlx.c and xcover/algx.c share: the
 * problem's layout, the two engines' working state, and the leaf callback
 * through which an engine reports solutions and split roots.  Not part of
 * the public API (tests include it to check the sanity functions).
 *
 * The problem (immutable after xcover_problem_new)
 * ------------------------------------------------
 *   opt_start[noptions+1], opt_items[nentries]   options -> items (as given)
 *   item_start[nitems+1],  item_opts[nentries]   items -> options (ascending)
 *   dlx_items[nitems+2], dlx_nodes[nnodes]       the dancing links, fully
 *                                                linked, copied by each solve
 *
 * Dancing-links layout (Knuth, DLX1), all links are array indices:
 *
 *   dlx_items  0 = root of the primary list, i+1 = item i, nitems+1 = root of
 *              the secondary list; {left, right}, circular, in index order.
 *   dlx_nodes  0              unused
 *              1..nitems      item headers: top = number of options left
 *                             (len), up/down = the item's vertical list
 *              then per option k: a spacer s_k, then one node per item
 *                             (top = header of the item, up/down = vertical
 *                             list, options ascending top to bottom)
 *              and a last spacer.
 *   spacer s_k (before option k): top = -k (<= 0: "spacer"), up = first node
 *              of option k-1, down = last node of option k; so
 *              s_k = nitems + 1 + opt_start[k] + k and
 *              nnodes = nitems + 2 + nentries + noptions.
 *
 *        items:   [root0] <-> [A] <-> [B] <-> [C] <-> (root0)
 *        nodes:   hdr A  hdr B  hdr C | s0 | A B | s1 | B C | s2
 *                                       opt 0      opt 1
 *
 * Thread-safety: a problem is read-only; each engine state belongs to one
 * search on one thread. */
#ifndef PUZZLED_XCOVER_INT_H
#define PUZZLED_XCOVER_INT_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"
#include "solvers/xcover/xcover.h"

typedef struct xcover__node_s {
    int32_t top; /* header: len; option node: header index; spacer: -option */
    int32_t up;
    int32_t down;
} xcover__node_t;

typedef struct xcover__link_s {
    int32_t left;
    int32_t right;
} xcover__link_t;

struct xcover_problem_s {
    uint32_t nprimary, nsecondary, nitems, noptions, nentries, nnodes;
    uint32_t *opt_start;
    uint32_t *opt_items;
    uint32_t *item_start;
    uint32_t *item_opts;
    xcover__link_t *dlx_items;
    xcover__node_t *dlx_nodes;
    uint32_t poll_dlx; /* nodes between clock/flag polls, by estimated node cost */
    uint32_t poll_algx;
    search_allocator_t alloc;
    size_t bytes;
    void *block; /* the one allocation holding all of the above */
};

/* === Memory (xcover.c) === */

void *xcover__alloc(const search_allocator_t *a, size_t size);
void xcover__free(const search_allocator_t *a, void *ptr);
/* Rounds a byte count up to the alignment of every array we carve. */
static inline size_t xcover__round(size_t n) { return (n + 15u) & ~(size_t)15u; }

/* === Engine interface === */

#define XCOVER__LEAF_SOLUTION 0 /* no primary item left: chosen[] is a solution */
#define XCOVER__LEAF_CUTOFF   1 /* split mode: a live node at the cutoff depth */

/* Called by an engine with the options chosen below the forced prefix, in
 * choice order.  Returns 0 to go on, 1 to end the search (not exhausted), or
 * a negative code to end it with that code. */
typedef int (*xcover__leaf_fn)(void *ud, const uint32_t *chosen, uint32_t depth, int kind);

typedef struct xcover__search_s {
    uint32_t cutoff;         /* 0: search to the solutions; else split mode: report
                                each live node below `cutoff` branching choices
                                (choices among >= 2 options) and go no deeper */
    const search_ctl_t *ctl; /* may be NULL */
    xcover__leaf_fn leaf;
    void *ud;
    search_stats_t stats; /* the engine adds to it */
    int exhausted;        /* set to 1 by the engine when the tree is done */
} xcover__search_t;

/* === Dancing links (xcover/dlx.c) === */

typedef struct xcover__dlx_s {
    const xcover_problem_t *p;
    const search_allocator_t *alloc;
    xcover__link_t *items; /* working copies of the template */
    xcover__node_t *nodes;
    int32_t *choice;  /* node chosen at each level, nprimary + 1 */
    uint32_t *chosen; /* the same as option indices, filled at a leaf */
    uint32_t *branch; /* split mode: branching choices above level l+1 */
    uint8_t *covered; /* per item: covered by a forced option */
    size_t bytes;
    void *block;
} xcover__dlx_t;

/* Allocates and links the working state of p (fully linked, nothing chosen).
 * Returns 0 or SEARCH_ENOMEM (then *w holds nothing to free). */
int xcover__dlx_init(xcover__dlx_t *w, const xcover_problem_t *p, const search_allocator_t *a);
void xcover__dlx_destroy(xcover__dlx_t *w);
/* Forces option k (covers its items).  Returns 0, 1 if it shares an item with
 * an option forced before (nothing changed), SEARCH_EINVAL if k is out of
 * range.  Only before xcover__dlx_run(). */
int xcover__dlx_force(xcover__dlx_t *w, uint32_t k);
/* Runs the search from the current state (see xcover__search_t); returns 0 or
 * a SEARCH_* / leaf code.  The links are left in an unspecified state. */
int xcover__dlx_run(xcover__dlx_t *w, xcover__search_t *s);
/* Checks every link of the active structure: both item lists circular,
 * doubly linked and in index order; every active item's vertical list doubly
 * linked, its nodes pointing at it, in ascending order and as long as its
 * len; and every option node's row consistent.  Returns 0 if sound, else a
 * negative number naming the first broken rule.  Costs O(nodes). */
int xcover__dlx_sanity(const xcover__dlx_t *w);

/* === Algorithm X (xcover/algx.c) === */

typedef struct xcover__algx_frame_s {
    uint32_t item;   /* item branched on at this level */
    uint32_t pos;    /* position in item_opts of the option being tried */
    uint32_t mark;   /* trail length before that option was selected */
    uint32_t branch; /* split mode: branching choices above level l+1 */
} xcover__algx_frame_t;

typedef struct xcover__algx_s {
    const xcover_problem_t *p;
    const search_allocator_t *alloc;
    uint8_t *row_active; /* per option */
    uint8_t *col_active; /* per item */
    uint32_t *trail;     /* options deactivated, in order: undo log */
    uint32_t trail_len;
    uint32_t active_primary;
    xcover__algx_frame_t *frames; /* nprimary + 1 */
    uint32_t *chosen;             /* option chosen at each level */
    size_t bytes;
    void *block;
} xcover__algx_t;

int xcover__algx_init(xcover__algx_t *w, const xcover_problem_t *p, const search_allocator_t *a);
void xcover__algx_destroy(xcover__algx_t *w);
int xcover__algx_force(xcover__algx_t *w, uint32_t k);
int xcover__algx_run(xcover__algx_t *w, xcover__search_t *s);
/* Checks: a row is active iff all its items are; the trail holds exactly the
 * inactive rows, once each; active_primary counts the active primary items.
 * Returns 0 or a negative rule number.  Costs O(entries).  Marks rows in
 * row_active while it runs and restores them (hence not const). */
int xcover__algx_sanity(xcover__algx_t *w);

#endif
