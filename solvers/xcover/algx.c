/* xcover/algx.c -- Algorithm X as it is usually taught: the 0/1 matrix with
 * active flags, nothing precomputed that the search updates.
 *
 * Representation
 * --------------
 * The matrix is the problem's, read-only: rows = options (opt_start /
 * opt_items), columns = items (item_start / item_opts, rows ascending).  A
 * dense matrix would be simpler still but takes options x items bits (512
 * MB for a 64x64 Sudoku), so the sparse lists stand in for it; the search
 * logic is the dense one.  The working state is
 *
 *   row_active[option], col_active[item]   1 = still in the matrix
 *   trail[]                                rows deactivated, in order
 *   frames[level] = {item, pos, mark}      the explicit choice stack: the
 *                                          column branched on, the position
 *                                          of the row being tried in it, and
 *                                          the trail length before it
 *
 * Each node: to choose, scan every active primary column and count its
 * active rows (stopping early once a column cannot beat the best so far --
 * the choice is still "fewest rows, first on ties", as in dlx); to select
 * row r, deactivate each column j of r and every active row of j, logging
 * rows on the trail; to undo, pop the trail back to the mark.  No counts are
 * maintained between nodes: that is the difference from dancing links, and
 * why this engine is slower (a node costs O(primary columns x column
 * length) instead of O(work actually undone)).
 *
 * Invariants (xcover__algx_sanity): a row is active iff all its columns are;
 * the trail holds exactly the inactive rows, once each (so it never exceeds
 * noptions); active_primary counts active primary columns.
 *
 * The search visits nodes in the same order as xcover/dlx.c (same choice
 * rule, rows ascending) and reports the same leaves; see that file for the
 * step names (X2..X8) used here too.
 *
 * Thread-safety: the working state is private to one search; the problem is
 * only read. */
#include <stdlib.h>
#include <string.h>

#include "solvers/xcover/internal.h"

int xcover__algx_init(xcover__algx_t *w, const xcover_problem_t *p, const search_allocator_t *a) {
    size_t sz_rows = xcover__round((size_t)p->noptions + 1);
    size_t sz_cols = xcover__round((size_t)p->nitems + 1);
    size_t sz_trail = xcover__round(((size_t)p->noptions + 1) * sizeof(uint32_t));
    size_t sz_frames = xcover__round(((size_t)p->nprimary + 1) * sizeof(xcover__algx_frame_t));
    size_t sz_chosen = xcover__round(((size_t)p->nprimary + 1) * sizeof(uint32_t));
    size_t total = sz_rows + sz_cols + sz_trail + sz_frames + sz_chosen;
    unsigned char *b;

    memset(w, 0, sizeof *w);
    b = xcover__alloc(a, total);
    if (b == NULL) return SEARCH_ENOMEM;
    w->p = p;
    w->alloc = a;
    w->block = b;
    w->bytes = total;
    w->row_active = b;
    w->col_active = b + sz_rows;
    w->trail = (uint32_t *)(b + sz_rows + sz_cols);
    w->frames = (xcover__algx_frame_t *)(b + sz_rows + sz_cols + sz_trail);
    w->chosen = (uint32_t *)(b + sz_rows + sz_cols + sz_trail + sz_frames);
    memset(w->row_active, 1, p->noptions);
    memset(w->col_active, 1, p->nitems);
    w->trail_len = 0;
    w->active_primary = p->nprimary;
    return 0;
}

void xcover__algx_destroy(xcover__algx_t *w) {
    if (w->block != NULL) xcover__free(w->alloc, w->block);
    memset(w, 0, sizeof *w);
}

/* Takes row r into the solution: its columns leave the matrix, and so does
 * every row that meets one of them (r among them). */
static void select_row(xcover__algx_t *w, uint32_t r) {
    const xcover_problem_t *p = w->p;
    uint32_t e, f;
    for (e = p->opt_start[r]; e < p->opt_start[r + 1]; e++) {
        uint32_t j = p->opt_items[e];
        w->col_active[j] = 0;
        if (j < p->nprimary) w->active_primary--;
        for (f = p->item_start[j]; f < p->item_start[j + 1]; f++) {
            uint32_t k = p->item_opts[f];
            if (w->row_active[k]) {
                w->row_active[k] = 0;
                w->trail[w->trail_len++] = k;
            }
        }
    }
}

/* Undoes select_row(r) made when the trail was `mark` long. */
static void unselect_row(xcover__algx_t *w, uint32_t r, uint32_t mark) {
    const xcover_problem_t *p = w->p;
    uint32_t e;
    while (w->trail_len > mark)
        w->row_active[w->trail[--w->trail_len]] = 1;
    for (e = p->opt_start[r]; e < p->opt_start[r + 1]; e++) {
        uint32_t j = p->opt_items[e];
        w->col_active[j] = 1;
        if (j < p->nprimary) w->active_primary++;
    }
}

int xcover__algx_force(xcover__algx_t *w, uint32_t k) {
    if (k >= w->p->noptions) return SEARCH_EINVAL;
    if (!w->row_active[k]) return 1; /* meets a forced option */
    select_row(w, k);
    return 0;
}

/* The active primary column with the fewest active rows, first on ties;
 * *count receives that number.  Requires active_primary > 0. */
static uint32_t choose(const xcover__algx_t *w, uint32_t *count) {
    const xcover_problem_t *p = w->p;
    uint32_t j, best = 0, best_n = UINT32_MAX;
    for (j = 0; j < p->nprimary; j++) {
        uint32_t f, end, n = 0;
        if (!w->col_active[j]) continue;
        end = p->item_start[j + 1];
        for (f = p->item_start[j]; f < end && n < best_n; f++)
            n += w->row_active[p->item_opts[f]];
        if (n < best_n) {
            best_n = n;
            best = j;
            if (n == 0) break;
        }
    }
    *count = best_n;
    return best;
}

int xcover__algx_run(xcover__algx_t *w, xcover__search_t *s) {
    const xcover_problem_t *p = w->p;
    xcover__algx_frame_t *fr = w->frames;
    const uint64_t budget = s->ctl != NULL ? s->ctl->node_budget : 0;
    const uint32_t poll = p->poll_algx;
    uint32_t poll_left = poll, l = 0, i, n, pos, end, r;
    int rc;

    rc = search_check_now(s->ctl, s->stats.nodes);
    if (rc != 0) return rc;

x2_enter:
#ifdef XCOVER_DEBUG
    if (xcover__algx_sanity(w) != 0) abort();
#endif
    if (l > s->stats.max_depth) s->stats.max_depth = l;
    if (w->active_primary == 0) {
        rc = s->leaf(s->ud, w->chosen, l, XCOVER__LEAF_SOLUTION);
        if (rc != 0) goto stop;
        goto x8_leave;
    }
    i = choose(w, &n);    /* X3 */
    if (s->cutoff != 0) { /* split mode, as in xcover/dlx.c */
        uint32_t above = l == 0 ? 0 : fr[l - 1].branch;
        if (above == s->cutoff) {
            if (n > 0) {
                rc = s->leaf(s->ud, w->chosen, l, XCOVER__LEAF_CUTOFF);
                if (rc != 0) goto stop;
            }
            goto x8_leave;
        }
        fr[l].branch = above + (n >= 2);
    }
    fr[l].item = i;
    fr[l].pos = p->item_start[i];

x5_try: /* the next active row of column fr[l].item, from fr[l].pos on */
    i = fr[l].item;
    end = p->item_start[i + 1];
    for (pos = fr[l].pos; pos < end && !w->row_active[p->item_opts[pos]]; pos++)
        continue;
    if (pos == end) goto x8_leave;
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
    r = p->item_opts[pos];
    fr[l].pos = pos;
    fr[l].mark = w->trail_len;
    w->chosen[l] = r;
    select_row(w, r);
    l++;
    goto x2_enter;

x8_leave:
    if (l == 0) {
        s->exhausted = 1;
        return 0;
    }
    l--;
    unselect_row(w, w->chosen[l], fr[l].mark); /* X6 */
    s->stats.backtracks++;
    fr[l].pos++;
    goto x5_try;

stop:
    return rc > 0 ? 0 : rc;
}

int xcover__algx_sanity(xcover__algx_t *w) {
    const xcover_problem_t *p = w->p;
    uint32_t k, e, inactive = 0, primary = 0, t;
    int rc = 0;

    for (k = 0; k < p->noptions; k++) {
        uint8_t all = 1;
        for (e = p->opt_start[k]; e < p->opt_start[k + 1]; e++)
            all &= w->col_active[p->opt_items[e]];
        if (w->row_active[k] > 1) return -1;
        if (w->row_active[k] != all) return -2; /* active iff all columns are */
        inactive += !w->row_active[k];
    }
    if (w->trail_len != inactive) return -3;
    /* every trail entry inactive and there once: mark each with 2 on the
     * way (a second visit then sees 2), restore the zeros after */
    for (t = 0; t < w->trail_len && rc == 0; t++) {
        uint32_t r = w->trail[t];
        if (r >= p->noptions || w->row_active[r] == 1)
            rc = -4;
        else if (w->row_active[r] == 2)
            rc = -5;
        else
            w->row_active[r] = 2;
    }
    while (t > 0) {
        uint32_t r = w->trail[--t];
        if (r < p->noptions && w->row_active[r] == 2) w->row_active[r] = 0;
    }
    if (rc != 0) return rc;
    for (k = 0; k < p->nprimary; k++)
        primary += w->col_active[k] == 1;
    if (primary != w->active_primary) return -6;
    return 0;
}
