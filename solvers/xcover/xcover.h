/* xcover.h -- exact cover in Knuth's item/option form, with two engines
 * (dancing links and a plain Algorithm X), a solution limit, the search.h
 * limits, and a split of the search tree into subtrees for parallel solving.
 *
 * The problem
 * -----------
 * Items 0..nprimary-1 are PRIMARY (each must be covered exactly once), items
 * nprimary..nprimary+nsecondary-1 are SECONDARY (covered at most once).  An
 * option is a nonempty set of distinct items; options are numbered 0.. in the
 * order given.  A solution is a set of options that covers every primary
 * item exactly once and no secondary item twice.  An option made only of
 * secondary items is accepted but never chosen by the search (as in Knuth's
 * DLX1: the search only branches on primary items), so it appears in a
 * solution only when forced through a prefix.  No primary item at all means
 * one solution: the empty set.
 *
 * A problem is built once (xcover_problem_new) and is IMMUTABLE afterwards:
 * every solve and every split makes its own working copy of the links, so
 * any number of threads may solve or split the same problem at once.
 *
 * The search order (the same for both engines, relied on by the split)
 * -----------------------------------------------------------------------
 * At each node the search picks the primary item with the fewest remaining
 * options, ties going to the lowest item index, and tries its options in
 * ascending option index.  Solutions are therefore found in one well-defined
 * order, whichever engine runs, and are reported with their options sorted
 * ascending.
 *
 * Engines (xcover_engine_t)
 *   dlx          Knuth's dancing links (DLX1): nodes linked by array index,
 *                remaining-option counts kept in the item headers.
 *   algorithm-x  the textbook form: the sparse 0/1 matrix (row and column
 *                lists, fixed) plus active flags for rows and columns; every
 *                node rescans columns to count their active rows and to
 *                cover.  Deliberately simple and slower; kept as a reference
 *                that the dancing links are checked against.
 *
 * Parallel search on one problem
 * ------------------------------
 * xcover_split() lists the subtree roots: the choice prefixes at a given
 * branching depth below an optional base (e.g. Sudoku givens), in search
 * order, dead ones (a primary item with no option left) dropped.  Solving
 * each root with xcover_solve() and opts->prefix = base + root (options
 * forced before the search) gives, concatenated in split order, exactly the
 * solutions of the sequential solve in the same order; the counts sum to its
 * count; nodes (split's own + every subtree's) sum to the sequential nodes.
 * A pool can run the roots as separate work items sharing one search_ctl_t,
 * raising its cancel flag once enough solutions are in.
 *
 * Limits (fit for a 64x64 Sudoku: 64^3 = 262,144 options of 4 items over
 * 4*64^2 = 16,384 items, i.e. 1,048,576 option entries):
 *   XCOVER_MAX_ITEMS    65,536 items (primary + secondary)
 *   XCOVER_MAX_OPTIONS  262,144 options
 *   XCOVER_MAX_NODES    1,048,576 option entries (sum of option sizes)
 * A 64x64 Sudoku problem takes 24.4 MB (built in about 10 ms); each solve
 * of it 15.6 MB (dlx: its own copy of the links) or 1.6 MB (algorithm-x)
 * of working memory, allocated before the search starts.
 *
 * Debugging: compile the xcover*.c files with -DXCOVER_DEBUG and both
 * engines re-check every link (every flag, for algorithm-x) at every node
 * and abort() on a broken one; O(size of the problem) a node, for tests.
 *
 * Errors: 0 on success, a SEARCH_* code of search.h, or an XCOVER_E* code
 * below.  Nothing here does I/O or keeps global state; every function is
 * reentrant. */
#ifndef PUZZLED_XCOVER_H
#define PUZZLED_XCOVER_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"

#define XCOVER_MAX_ITEMS       65536u
#define XCOVER_MAX_OPTIONS     262144u
#define XCOVER_MAX_NODES       1048576u
#define XCOVER_SPLIT_MAX_DEPTH 32u /* deepest branching depth of xcover_split() */

#define XCOVER_NONE UINT32_MAX /* ends a stored solution or split root */

/* Error codes of this module, beyond the SEARCH_* codes of search.h. */
#define XCOVER_EITEM  (-32) /* an option names an item index >= nprimary + nsecondary */
#define XCOVER_EEMPTY (-33) /* an option has no item */
#define XCOVER_EDUP   (-34) /* an option names the same item twice */
#define XCOVER_ELIMIT (-35) /* more items, options or entries than XCOVER_MAX_* */
#define XCOVER_ESPACE (-36) /* xcover_split(): the roots need more room than given */

/* Memory: every allocation goes through the caller's search_allocator_t
 * (search.h; NULL = malloc / free), which tests use to inject failures. */

/* === The problem ========================================================== */

/* A problem as the caller describes it: options in compressed rows. */
typedef struct xcover_spec_s {
    uint32_t nprimary;
    uint32_t nsecondary;
    uint32_t noptions;
    const uint32_t *option_start; /* noptions+1 offsets: [0] == 0, nondecreasing */
    const uint32_t *items;        /* option k = items[option_start[k] .. option_start[k+1]) */
} xcover_spec_t;

/* Where xcover_problem_new() found bad input. */
typedef struct xcover_diag_s {
    uint32_t option;   /* the offending option (XCOVER_NONE for a size error) */
    uint32_t position; /* position in it of the offending item (the second copy
                          for XCOVER_EDUP); XCOVER_NONE when not about an item */
} xcover_diag_t;

typedef struct xcover_problem_s xcover_problem_t; /* opaque, immutable once built */

/* Builds a problem from *spec (which it copies; spec is not kept nor
 * changed).  `alloc` may be NULL (malloc/free); it is copied and used again
 * by xcover_problem_free().  Returns 0 and sets *out, to be released with
 * xcover_problem_free(); or
 *   SEARCH_EINVAL   spec or out NULL, half an allocator, option_start NULL
 *                   (with noptions > 0) or not starting at 0 or decreasing,
 *                   items NULL with entries;
 *   XCOVER_ELIMIT   nprimary + nsecondary > XCOVER_MAX_ITEMS, noptions >
 *                   XCOVER_MAX_OPTIONS (both checked before option_start is
 *                   read) or option_start[noptions] > XCOVER_MAX_NODES
 *                   (checked before items is read);
 *   SEARCH_ENOMEM   (the problem's memory is taken before the options are
 *                   checked one by one);
 *   XCOVER_EEMPTY / XCOVER_EITEM / XCOVER_EDUP  the first bad option, in
 *                   option order (within an option: position order).
 * On failure *out is untouched, nothing stays allocated, and *diag (if not
 * NULL) says where; on success *diag is {XCOVER_NONE, XCOVER_NONE}. */
int xcover_problem_new(const xcover_spec_t *spec, const search_allocator_t *alloc,
                       xcover_problem_t **out, xcover_diag_t *diag);

/* Frees a problem; NULL is a no-op.  No solve or split may be running on it. */
void xcover_problem_free(xcover_problem_t *p);

/* Sizes of a built problem. */
typedef struct xcover_info_s {
    uint32_t nprimary, nsecondary, noptions;
    uint32_t nentries; /* sum of option sizes */
    size_t bytes;      /* memory the problem holds */
} xcover_info_t;
void xcover_problem_info(const xcover_problem_t *p, xcover_info_t *info);

/* The items of option k, in the order given: returns their number and sets
 * *items to them (memory of the problem), or returns 0 if k is out of range. */
size_t xcover_problem_option(const xcover_problem_t *p, uint32_t k, const uint32_t **items);

/* === Solving ============================================================== */

typedef enum xcover_engine_e {
    XCOVER_ENGINE_DLX = 0,
    XCOVER_ENGINE_ALGX = 1,
    XCOVER_ENGINE_COUNT
} xcover_engine_t;

/* "dlx" and "algorithm-x".  _name returns NULL out of range; _parse returns 0
 * and sets *out, or SEARCH_EINVAL. */
const char *xcover_engine_name(xcover_engine_t e);
int xcover_engine_parse(const char *name, xcover_engine_t *out);

/* Called for each solution, on the solving thread, inside the search: the
 * options of the solution ascending (memory of the solver, valid during the
 * call).  Return 0 to go on, nonzero to end the search as if max_solutions
 * were reached.  It may read the problem, not free it. */
typedef int (*xcover_solution_fn)(void *ud, const uint32_t *options, size_t count);

typedef struct xcover_opts_s {
    xcover_engine_t engine; /* default dlx */
    uint64_t max_solutions; /* stop after this many; 0 = find them all (count) */
    uint32_t *solutions;    /* NULL, or solutions_cap entries: each solution is stored
                               as its options ascending followed by XCOVER_NONE.  A
                               solution that does not fit is not stored, nor any after
                               it; the search still goes on (and counts). */
    size_t solutions_cap;
    xcover_solution_fn on_solution; /* NULL = none */
    void *on_solution_ud;
    const uint32_t *prefix;          /* options forced, in this order, before the search; */
    size_t prefix_len;               /* they are part of every solution reported */
    const search_ctl_t *ctl;         /* deadline / cancel / node budget; NULL = none */
    const search_allocator_t *alloc; /* NULL = malloc/free */
} xcover_opts_t;

/* Defaults: dlx, max_solutions 1, no buffers, no prefix, no limits. */
void xcover_opts_init(xcover_opts_t *opts);

typedef struct xcover_result_s {
    int code;                  /* what xcover_solve() returned */
    xcover_engine_t engine;    /* engine that ran */
    uint64_t solutions_found;  /* solutions found (valid even when stopped early) */
    uint64_t solutions_stored; /* of which written to opts->solutions (the first ones) */
    size_t solutions_used;     /* entries of opts->solutions written */
    int exhausted;             /* 1: the whole tree was searched, solutions_found is the
                                  exact count (also 1, with 0 solutions, when the prefix
                                  conflicts).  0 when stopped by max_solutions, the
                                  callback or ctl. */
    int prefix_conflict;       /* 1: two prefix options share an item (nothing searched) */
    search_stats_t stats;      /* nodes = options tried by the search (forced prefix
                                  options not counted), backtracks = choices undone,
                                  propagations = prefix options forced, max_depth =
                                  deepest choice level below the prefix */
    size_t mem_bytes;          /* working memory of this solve */
} xcover_result_t;

/* Solves p with opts (NULL = defaults) and fills *res (zeroed first).
 * Returns (and stores in res->code):
 *   0                 the search ended: max_solutions found, the callback
 *                     said stop, or the tree exhausted (possibly with no
 *                     solution, e.g. a conflicting prefix).
 *   SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET   stopped by ctl; the
 *                     solutions found before are valid, counted and stored.
 *                     The limits are checked before the search starts (a past
 *                     deadline or a raised flag stops at once, before any
 *                     node), the node budget before every node (at most
 *                     node_budget nodes are tried), the clock and the flag
 *                     every few thousand nodes (more often on big problems).
 *   SEARCH_EINVAL     p or res NULL, bad engine, solutions_cap > 0 without a
 *                     buffer, prefix_len > 0 without prefix, a prefix option
 *                     out of range, half an allocator.
 *   SEARCH_ENOMEM     the working memory could not be allocated.
 * p is not changed; many solves may run on one p at once. */
int xcover_solve(const xcover_problem_t *p, const xcover_opts_t *opts, xcover_result_t *res);

/* === Splitting ============================================================ */

typedef struct xcover_split_opts_s {
    const uint32_t *base;            /* options forced first (e.g. Sudoku givens); roots */
    size_t base_len;                 /* continue from them and do not repeat them */
    uint32_t depth;                  /* branching levels below the base, 1..XCOVER_SPLIT_MAX_DEPTH;
                                        0 = the smallest depth with at least `target` roots */
    size_t target;                   /* used when depth == 0 (0 or 1 = depth 1) */
    const search_ctl_t *ctl;         /* NULL = none; the node budget counts split nodes
                                        (of each deepening pass) */
    const search_allocator_t *alloc; /* NULL = malloc/free */
} xcover_split_opts_t;

typedef struct xcover_split_info_s {
    int code;             /* what xcover_split() returned */
    uint32_t depth;       /* branching depth used */
    size_t count;         /* roots in all (even beyond cap) */
    size_t entries;       /* buffer entries all roots need, terminators included */
    size_t stored;        /* roots written (the first ones) */
    search_stats_t stats; /* the split's own nodes (choices above the roots) */
} xcover_split_info_t;

/* Lists the subtree roots of p below o->base, in search order.  A root is
 * the sequence of options the search chooses below the base down to a node
 * where `depth` BRANCHING choices have been made -- levels whose item had
 * one option left are forced moves: followed, not counted, since splitting
 * there would give one subtree (the top of a hard Sudoku is a long chain of
 * them).  A node whose item has no option left is dropped (so is every
 * branch that dies above the depth); a solution reached above the depth is
 * a root too (its subtree is that one solution).
 *
 * Roots are written one after another into roots[0..cap), each as its
 * options in choice order followed by XCOVER_NONE (the layout of stored
 * solutions); a root that does not fit is not written, nor any after it.
 * xcover_root_len() measures one; the next starts after its terminator.
 * Solving root k with prefix = base + root k gives subtree k.
 *
 * With depth == 0 the depth grows from 1 until there are >= target roots,
 * the tree is fully expanded (every root is a solution, so going deeper
 * changes nothing) or XCOVER_SPLIT_MAX_DEPTH is reached.  Roots are the same
 * for both engines (see "search order").  To size the buffer, call with cap
 * = 0 first: info->entries and info->depth say how much and at what depth;
 * call again with that depth.
 * Returns (and stores in info->code) 0 when every root was stored (a base
 * that conflicts gives 0 roots); XCOVER_ESPACE when the roots need more
 * than cap entries (the first ones are written, info->stored says how
 * many); SEARCH_TIMEOUT / CANCELLED / BUDGET (partial); SEARCH_EINVAL (NULL
 * p/o/info, roots NULL with cap > 0, depth too large, a base option out of
 * range); SEARCH_ENOMEM.  p is not changed. */
int xcover_split(const xcover_problem_t *p, const xcover_split_opts_t *o, uint32_t *roots,
                 size_t cap, xcover_split_info_t *info);

/* Number of options of the root (or stored solution) starting at `root`,
 * i.e. the entries before its XCOVER_NONE terminator. */
static inline size_t xcover_root_len(const uint32_t *root) {
    size_t n = 0;
    while (root[n] != XCOVER_NONE)
        n++;
    return n;
}

#endif
