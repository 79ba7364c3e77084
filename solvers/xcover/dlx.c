/* xcover/dlx.c -- the dancing-links engine (Knuth's Algorithm X as in DLX1).
 *
 * Representation: see xcover/internal.h.  A solve copies the problem's fully
 * linked template (items {left,right}, nodes {top,up,down}) into one block
 * of its own; all links are int32 array indices, so the copy is a memcpy and
 * the structure is cache-dense (12 bytes a node).
 *
 *   cover(i)   unlink item i from its item list, then "hide" every option in
 *              i's vertical list: unlink its other nodes from their columns
 *              (len of those columns drops).  i's own vertical list stays
 *              intact, which is what lets uncover(i) walk it back.
 *   uncover(i) the exact reverse, in reverse order (LIFO), so every removed
 *              node's own up/down still point at its old neighbours.
 *
 * The search (iterative; step names as in Knuth's DLX1)
 *   X2 enter level l: no primary item left -> a solution.
 *   X3 choose the primary item i with the smallest len (first on ties;
 *      the list is in index order, removals keep that order).
 *   X4 cover(i); x_l = first option of i.
 *   X5 try x_l: cover the other items of x_l's option, l++, go to X2; when
 *      x_l is back at the header, uncover(i) (X7) and leave the level (X8).
 *   X6 back at level l: uncover x_l's other items (right to left), x_l =
 *      next option down, go to X5.
 * choice[] is the explicit stack (one node per level, at most nprimary
 * levels since each choice covers at least one primary item).  Option
 * numbers are recovered from nodes only at a leaf, by walking left to the
 * spacer before the option.
 *
 * Split mode (cutoff > 0): branch[l] counts the branching choices (item
 * with >= 2 options) made above level l+1; a live node (chosen item has an
 * option left) with `cutoff` of them above it is reported instead of
 * expanded, a dead one is skipped.  Forced levels (one option) do not count:
 * splitting there would give a single subtree.
 *
 * Forced options (prefix, givens) are applied before the search by covering
 * each of their items; the `covered` flags catch two forced options sharing
 * an item.  The state reached is the one the search would reach choosing
 * the same options (cover is order-independent in its result: lists keep
 * their relative order), which is why a subtree solve replays the
 * sequential search exactly.
 *
 * Debugging: xcover__dlx_sanity() re-checks every link; with -DXCOVER_DEBUG
 * the search calls it at every node and aborts on a broken link (O(nodes) a
 * node: tests only).  The function itself is always compiled so that it
 * cannot rot and the tests can aim it at deliberately broken links.
 *
 * Thread-safety: the working state is private to one search; the problem is
 * only read. */
#include <stdlib.h>
#include <string.h>

#include "solvers/xcover/internal.h"

int xcover__dlx_init(xcover__dlx_t *w, const xcover_problem_t *p, const search_allocator_t *a) {
    size_t sz_items = xcover__round(((size_t)p->nitems + 2) * sizeof(xcover__link_t));
    size_t sz_nodes = xcover__round((size_t)p->nnodes * sizeof(xcover__node_t));
    size_t sz_choice = xcover__round(((size_t)p->nprimary + 1) * sizeof(int32_t));
    size_t sz_chosen = xcover__round(((size_t)p->nprimary + 1) * sizeof(uint32_t));
    size_t sz_cov = xcover__round((size_t)p->nitems + 1);
    size_t total = sz_items + sz_nodes + sz_choice + 2 * sz_chosen + sz_cov;
    unsigned char *b;

    memset(w, 0, sizeof *w);
    b = xcover__alloc(a, total);
    if (b == NULL) return SEARCH_ENOMEM;
    w->p = p;
    w->alloc = a;
    w->block = b;
    w->bytes = total;
    w->items = (xcover__link_t *)b;
    w->nodes = (xcover__node_t *)(b + sz_items);
    w->choice = (int32_t *)(b + sz_items + sz_nodes);
    w->chosen = (uint32_t *)(b + sz_items + sz_nodes + sz_choice);
    w->branch = (uint32_t *)(b + sz_items + sz_nodes + sz_choice + sz_chosen);
    w->covered = b + sz_items + sz_nodes + sz_choice + 2 * sz_chosen;
    memcpy(w->items, p->dlx_items, ((size_t)p->nitems + 2) * sizeof(xcover__link_t));
    memcpy(w->nodes, p->dlx_nodes, (size_t)p->nnodes * sizeof(xcover__node_t));
    memset(w->covered, 0, (size_t)p->nitems + 1);
    return 0;
}

void xcover__dlx_destroy(xcover__dlx_t *w) {
    if (w->block != NULL) xcover__free(w->alloc, w->block);
    memset(w, 0, sizeof *w);
}

/* === Cover and uncover =================================================== */

static inline void hide(xcover__node_t *nd, int32_t p) {
    int32_t q = p + 1;
    while (q != p) {
        int32_t x = nd[q].top, u = nd[q].up, d = nd[q].down;
        if (x <= 0) { /* spacer: back to the first node of this option */
            q = u;
        } else {
            nd[u].down = d;
            nd[d].up = u;
            nd[x].top--;
            q++;
        }
    }
}

static inline void unhide(xcover__node_t *nd, int32_t p) {
    int32_t q = p - 1;
    while (q != p) {
        int32_t x = nd[q].top, u = nd[q].up, d = nd[q].down;
        if (x <= 0) { /* spacer: on to the last node of this option */
            q = d;
        } else {
            nd[u].down = q;
            nd[d].up = q;
            nd[x].top++;
            q--;
        }
    }
}

static inline void cover(xcover__dlx_t *w, int32_t i) {
    xcover__node_t *nd = w->nodes;
    int32_t p = nd[i].down, l, r;
    while (p != i) {
        hide(nd, p);
        p = nd[p].down;
    }
    l = w->items[i].left;
    r = w->items[i].right;
    w->items[l].right = r;
    w->items[r].left = l;
}

static inline void uncover(xcover__dlx_t *w, int32_t i) {
    xcover__node_t *nd = w->nodes;
    int32_t l = w->items[i].left, r = w->items[i].right, p;
    w->items[l].right = i;
    w->items[r].left = i;
    p = nd[i].up;
    while (p != i) {
        unhide(nd, p);
        p = nd[p].up;
    }
}

/* Covers the items of x's option other than x's own (left to right). */
static inline void cover_rest(xcover__dlx_t *w, int32_t x) {
    const xcover__node_t *nd = w->nodes;
    int32_t p = x + 1;
    while (p != x) {
        int32_t j = nd[p].top;
        if (j <= 0) {
            p = nd[p].up;
        } else {
            cover(w, j);
            p++;
        }
    }
}

/* Uncovers them again, right to left. */
static inline void uncover_rest(xcover__dlx_t *w, int32_t x) {
    const xcover__node_t *nd = w->nodes;
    int32_t p = x - 1;
    while (p != x) {
        int32_t j = nd[p].top;
        if (j <= 0) {
            p = nd[p].down;
        } else {
            uncover(w, j);
            p--;
        }
    }
}

/* The option a node belongs to: walk left to the spacer before it. */
static inline uint32_t option_of(const xcover__node_t *nd, int32_t x) {
    while (nd[x - 1].top > 0)
        x--;
    return (uint32_t)(-nd[x - 1].top);
}

int xcover__dlx_force(xcover__dlx_t *w, uint32_t k) {
    const xcover_problem_t *p = w->p;
    uint32_t e;
    int32_t x;

    if (k >= p->noptions) return SEARCH_EINVAL;
    for (e = p->opt_start[k]; e < p->opt_start[k + 1]; e++)
        if (w->covered[p->opt_items[e]]) return 1;
    x = (int32_t)(p->nitems + 2 + p->opt_start[k] + k); /* first node of option k */
    for (e = p->opt_start[k]; e < p->opt_start[k + 1]; e++)
        w->covered[p->opt_items[e]] = 1;
    cover(w, w->nodes[x].top);
    cover_rest(w, x);
    return 0;
}

/* === The search ========================================================== */

int xcover__dlx_run(xcover__dlx_t *w, xcover__search_t *s) {
    xcover__node_t *nd = w->nodes;
    const xcover__link_t *it = w->items;
    int32_t *choice = w->choice;
    const uint64_t budget = s->ctl != NULL ? s->ctl->node_budget : 0;
    const uint32_t poll = w->p->poll_dlx;
    uint32_t poll_left = poll, l = 0, j;
    int32_t i, x;
    int rc;

    rc = search_check_now(s->ctl, s->stats.nodes);
    if (rc != 0) return rc;

x2_enter:
#ifdef XCOVER_DEBUG
    if (xcover__dlx_sanity(w) != 0) abort();
#endif
    if (l > s->stats.max_depth) s->stats.max_depth = l;
    if (it[0].right == 0) {
        for (j = 0; j < l; j++)
            w->chosen[j] = option_of(nd, choice[j]);
        rc = s->leaf(s->ud, w->chosen, l, XCOVER__LEAF_SOLUTION);
        if (rc != 0) goto stop;
        goto x8_leave;
    }
    { /* X3: fewest options, first on ties */
        int32_t k, best = INT32_MAX;
        i = 0;
        for (k = it[0].right; k != 0; k = it[k].right) {
            if (nd[k].top < best) {
                best = nd[k].top;
                i = k;
                if (best == 0) break;
            }
        }
    }
    if (s->cutoff != 0) {
        uint32_t above = l == 0 ? 0 : w->branch[l - 1];
        if (above == s->cutoff) {
            if (nd[i].top > 0) {
                for (j = 0; j < l; j++)
                    w->chosen[j] = option_of(nd, choice[j]);
                rc = s->leaf(s->ud, w->chosen, l, XCOVER__LEAF_CUTOFF);
                if (rc != 0) goto stop;
            }
            goto x8_leave;
        }
        w->branch[l] = above + (nd[i].top >= 2);
    }
    cover(w, i);
    x = nd[i].down;

x5_try:
    if (x == i) {
        uncover(w, i); /* X7 */
        goto x8_leave;
    }
    if (budget != 0 && s->stats.nodes >= budget) {
        rc = SEARCH_BUDGET;
        goto stop;
    }
    if (--poll_left == 0) {
        poll_left = poll;
        rc = search_check_now(s->ctl, s->stats.nodes);
        if (rc != 0) goto stop;
    }
    s->stats.nodes++;
    choice[l] = x;
    cover_rest(w, x);
    l++;
    goto x2_enter;

x8_leave:
    if (l == 0) {
        s->exhausted = 1;
        return 0;
    }
    l--;
    x = choice[l]; /* X6 */
    uncover_rest(w, x);
    s->stats.backtracks++;
    i = nd[x].top;
    x = nd[x].down;
    goto x5_try;

stop:
    return rc > 0 ? 0 : rc;
}

/* === Sanity ============================================================== */

/* Checks one circular item list from `root`: doubly linked, ascending
 * between lo and hi, every member's vertical list sound. */
static int check_list(const xcover__dlx_t *w, int32_t root, int32_t lo, int32_t hi) {
    const xcover__link_t *it = w->items;
    const xcover__node_t *nd = w->nodes;
    int32_t k, prev = root, steps = 0;

    for (k = it[root].right; k != root; prev = k, k = it[k].right) {
        int32_t q, len = 0, last = k;
        if (k < lo || k > hi) return -1;          /* wrong list or out of range */
        if (it[k].left != prev) return -2;        /* broken left link */
        if (prev != root && k <= prev) return -3; /* out of index order */
        if (++steps > hi - lo + 1) return -4;     /* cycle not through the root */
        for (q = nd[k].down; q != k; last = q, q = nd[q].down) {
            if (q <= (int32_t)w->p->nitems || q >= (int32_t)w->p->nnodes) return -5;
            if (nd[q].up != last) return -6;       /* broken up link */
            if (nd[q].top != k) return -7;         /* node in the wrong column */
            if (last != k && q <= last) return -8; /* options out of order */
            if (++len > (int32_t)w->p->nnodes) return -4;
        }
        if (nd[k].up != last) return -6;
        if (len != nd[k].top) return -9; /* len disagrees with the list */
    }
    if (it[root].left != prev) return -2;
    return 0;
}

int xcover__dlx_sanity(const xcover__dlx_t *w) {
    const xcover_problem_t *p = w->p;
    int32_t np = (int32_t)p->nprimary, ni = (int32_t)p->nitems;
    int rc = check_list(w, 0, 1, np);
    if (rc != 0) return rc;
    rc = check_list(w, ni + 1, np + 1, ni);
    if (rc != 0) return rc;
    /* the rows: spacers and item tops never change during a search */
    {
        uint32_t k, e;
        for (k = 0; k < p->noptions; k++) {
            int32_t x0 = (int32_t)(p->nitems + 2 + p->opt_start[k] + k);
            int32_t s = x0 - 1;
            if (w->nodes[s].top != -(int32_t)k) return -10; /* spacer damaged */
            for (e = p->opt_start[k]; e < p->opt_start[k + 1]; e++) {
                int32_t x = x0 + (int32_t)(e - p->opt_start[k]);
                if (w->nodes[x].top != (int32_t)p->opt_items[e] + 1) return -11;
            }
        }
    }
    return 0;
}
