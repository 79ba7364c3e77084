/* sudoku/internal.h -- what the sudoku*.c files share; not part of the public API.
 *
 * One solve = one sudoku__run_t on the stack of sudoku_solve() or
 * sudoku_model_solve(): the checked inputs, the result being filled, and
 * the geometry the methods share.  A method gets the run, allocates its
 * arena (the classic geometry first when the run has none, then its own
 * arrays) through sudoku__alloc(), searches, and frees the arena.
 *
 * Geometry (sudoku__geom_t): the units as data, the same tables for a
 * classic shape and for a model of model.h.
 *
 *   ustart [nunits+1] uint32  unit u = ucells[ustart[u] .. ustart[u+1]),
 *   ucells            uint16  u exact (holds every value) when it has n cells
 *   cstart [ncells+1] uint32  the units of cell c: cunits[cstart[c] .. ),
 *   cunits            uint16  ascending
 *   peers, pstart             the cells sharing a unit with c (models only;
 *                             NULL for a classic grid, whose peers the
 *                             engines reach by arithmetic on rows and boxes)
 *   allowed [ncells]  uint64  values a cell may take (parity; 0 on a hole);
 *                             NULL: every value everywhere
 *   live [ncells]     uint8   NULL: every cell exists
 *   astart, adj               pair rules of cell c: adj[astart[c] .. ), each
 *                             other cell << 8 | rule; NULL: none
 *   dstart, dword, dmask      cell c's units as bits of a unit bitset, by
 *                             word: what marking c's units dirty ORs in
 *
 * A classic shape's tables are built per solve into the arena
 * (sudoku__geom_build: units numbered k*n + i, k = 0 rows, 1 columns, 2
 * boxes, each cell in exactly three, the order the engines have always
 * scanned them in); a model's are the model's own, built once.
 *
 * Values are bits: value v (1..n) is bit v-1 of a uint64_t mask. */
#ifndef PUZZLED_SUDOKU_INT_H
#define PUZZLED_SUDOKU_INT_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"
#include "solvers/sudoku/model.h"
#include "solvers/sudoku/sudoku.h"

#define SUDOKU__ALIGN(x) (((x) + 15u) & ~(size_t)15u)
#define SUDOKU__BIT(v)   ((uint64_t)1 << ((v)-1))

/* Units a word set can hold: dirty sets of units are bitsets of this many
 * words. */
#define SUDOKU__UNIT_WORDS ((SUDOKU_MODEL_MAX_UNITS + 63) / 64)

typedef struct sudoku__geom_s {
    int nunits;
    int classic; /* rows, columns and boxes of one n x n grid, nothing else */
    const uint32_t *ustart;
    const uint16_t *ucells;
    const uint32_t *cstart;
    const uint16_t *cunits;
    const uint32_t *pstart; /* NULL when classic */
    const uint16_t *peers;
    const uint64_t *allowed; /* NULL: full everywhere */
    const uint8_t *live;     /* NULL: every cell */
    const uint32_t *astart;  /* NULL: no pair rules */
    const uint32_t *adj;
    const uint32_t *dstart; /* unit bitsets: the words cell c's units fall in, */
    const uint8_t *dword;   /* set[dword[k]] |= dmask[k] for k in dstart[c] .. dstart[c+1) */
    const uint64_t *dmask;  /* (one word at 9x9 and 16x16: rows, columns, boxes fit) */
} sudoku__geom_t;

typedef struct sudoku__run_s {
    int n, ncells;
    uint64_t full;               /* the n value bits */
    const sudoku_shape_t *shape; /* the classic shape; for a model, its shape (n, boxes) */
    const sudoku_model_t *model; /* NULL for a shape solve */
    const uint8_t *puzzle;
    const sudoku_opts_t *opts;
    const search_ctl_t *ctl; /* NULL = no limits */
    sudoku_result_t *res;
    uint32_t max_solutions;
    uint32_t poll_every, poll_left; /* clock/flag poll period in nodes (sudoku__tick) */
    uint32_t poll_max;              /* the period's ceiling (sudoku.c: run_solve) */
    int64_t poll_ns;                /* the clock at the last poll */
    sudoku_step_t *trace;           /* NULL when off or full */
    size_t trace_cap;
    sudoku_level_t level; /* resolved (never DEFAULT) */
    /* geometry: a model's from the start, a shape's set by sudoku__geom_build */
    sudoku__geom_t g;
    /* memory accounting */
    size_t mem_now;
} sudoku__run_t;

/* Methods: each returns 0 or a SEARCH_* code and fills run->res. */
int sudoku__solve_backtracking(sudoku__run_t *run);
int sudoku__solve_mrv(sudoku__run_t *run);
int sudoku__solve_propagation(sudoku__run_t *run);
int sudoku__solve_bestfirst(sudoku__run_t *run);

/* Memory through opts->alloc (search.h); tracks mem_now and res->mem_peak. */
void *sudoku__alloc(sudoku__run_t *run, size_t size);
void sudoku__free(sudoku__run_t *run, void *ptr, size_t size);

/* Bytes the geometry tables of a shape solve take (0 for a model solve,
 * whose geometry is the model's), and building them at `mem` (16-aligned;
 * a no-op for a model solve). */
size_t sudoku__geom_bytes(const sudoku__run_t *run);
void sudoku__geom_build(sudoku__run_t *run, void *mem);

/* Geometry of a model (pointers into it). */
void sudoku__geom_of_model(sudoku__geom_t *g, const sudoku_model_t *m);

/* Fills dstart[ncells+1], dword[], dmask[] from the cells' units,
 * ascending: at most one entry per unit of a cell, and one (marking
 * nothing) for a cell in no unit, so dword and dmask need the cells' units
 * plus ncells entries. */
void sudoku__dirty_marks(int ncells, const uint32_t *cstart, const uint16_t *cunits,
                         uint32_t *dstart, uint8_t *dword, uint64_t *dmask);

/* Units of cell c, and the length of unit u. */
static inline const uint16_t *sudoku__cell_units(const sudoku__geom_t *g, int c, int *count) {
    *count = (int)(g->cstart[c + 1] - g->cstart[c]);
    return g->cunits + g->cstart[c];
}
static inline int sudoku__unit_len(const sudoku__geom_t *g, int u) {
    return (int)(g->ustart[u + 1] - g->ustart[u]);
}

/* The group of equal-sum line k (SUDOKU_LINE_EQSUM, model.h): returns its
 * first line and puts its segments' count in *count.  The values of a
 * group count down to 1, so the walk back stops at a group's first line
 * (the line before it ends another group, with 1, or is another kind). */
static inline int sudoku__eqsum_group(const sudoku_line_t *lines, int k, int *count) {
    while (k > 0 && lines[k - 1].kind == SUDOKU_LINE_EQSUM &&
           lines[k - 1].value == lines[k].value + 1)
        k--;
    *count = lines[k].value;
    return k;
}

/* 1 when cell c exists. */
static inline int sudoku__live(const sudoku__run_t *run, int c) {
    return run->g.live == NULL || run->g.live[c];
}

/* The time between two polls of the clock and the flags that the period
 * in nodes is fitted to: a node's cost varies a thousandfold with the
 * grid, the method and the rules (a line can cost a hundred nodes), so no
 * period in nodes suits all; sudoku__tick halves the period after a poll
 * that came more than twice this late, and doubles it (up to poll_max)
 * after one that came in less than half of it.  A deadline is then kept to
 * within about this much, once the period has settled (a few polls). */
#define SUDOKU__POLL_NS 1000000

/* Called before trying a node: returns 0 and counts the node, or the stop
 * code (the node is then not counted).  See sudoku_solve() for the policy. */
static inline int sudoku__tick(sudoku__run_t *run) {
    const search_ctl_t *ctl = run->ctl;
    uint64_t nodes = run->res->stats.nodes;
    if (ctl != NULL) {
        if (ctl->node_budget != 0 && nodes >= ctl->node_budget) return SEARCH_BUDGET;
        if (--run->poll_left == 0) {
            int rc = search_check_now(ctl, nodes);
            int64_t now = search_now_ns(), took = now - run->poll_ns;
            if (rc != 0) return rc;
            if (took > 2 * SUDOKU__POLL_NS && run->poll_every > 1)
                run->poll_every /= 2;
            else if (took < SUDOKU__POLL_NS / 2 && run->poll_every < run->poll_max)
                run->poll_every =
                    2 * run->poll_every < run->poll_max ? 2 * run->poll_every : run->poll_max;
            run->poll_ns = now;
            run->poll_left = run->poll_every;
        }
    }
    run->res->stats.nodes = nodes + 1;
    return 0;
}

static inline void sudoku__depth(sudoku__run_t *run, uint32_t depth) {
    if (depth > run->res->stats.max_depth) run->res->stats.max_depth = depth;
}

/* Records one step; once the buffer is full, flags truncation and turns the
 * trace off so later calls cost one NULL test. */
static inline void sudoku__step(sudoku__run_t *run, int kind, int cell, int value) {
    if (run->trace == NULL) return;
    if (run->res->trace_len < run->trace_cap) {
        sudoku_step_t *s = &run->trace[run->res->trace_len++];
        s->kind = (uint8_t)kind;
        s->value = (uint8_t)value;
        s->cell = (uint16_t)cell;
    } else {
        run->res->trace_truncated = 1;
        run->trace = NULL;
    }
}

/* Where to write the next solution (NULL when counting only).  Call
 * sudoku__solution_done() after writing; it returns 1 when max_solutions is
 * reached. */
static inline uint8_t *sudoku__solution_slot(sudoku__run_t *run) {
    if (run->opts->solutions == NULL) return NULL;
    return run->opts->solutions + (size_t)run->res->solutions_found * (size_t)run->ncells;
}
static inline int sudoku__solution_done(sudoku__run_t *run) {
    return ++run->res->solutions_found >= run->max_solutions;
}

/* SWAR popcount: without -mpopcnt (the build targets baseline x86-64)
 * __builtin_popcountll is a call into libgcc's table version, measured 4%
 * of the propagation method's time; this inlines to a dozen operations. */
static inline int sudoku__popcount(uint64_t m) {
    m = m - ((m >> 1) & 0x5555555555555555u);
    m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (int)((m * 0x0101010101010101u) >> 56);
}
static inline int sudoku__ctz(uint64_t m) { return __builtin_ctzll(m); }
static inline int sudoku__clz(uint64_t m) { return __builtin_clzll(m); } /* m != 0 */

/* === Propagation engine (sudoku/prop.c), shared with best-first ========= */

/* State: one candidate mask per cell (a decided cell has one bit; a hole
 * of a model is "decided" as 1 and never changes), an undo trail of (cell,
 * previous mask), a queue of cells that became single and whose value has
 * not yet left their peers, a queue of cells with pair rules whose
 * candidates changed, and dirty unit sets.
 * Invariant between sudoku__prop_run() calls that returned 0: the queues
 * are empty, no dirty unit is pending, every decided value is absent from
 * its peers, every pair rule holds arc-consistently, `decided` = number of
 * single-bit masks, and the state is a fixpoint of the level's rules. */
typedef struct sudoku__prop_s {
    sudoku__run_t *run;
    const sudoku__geom_t *g;
    const uint32_t *dstart, *pstart; /* copies of g's, read on every change */
    const uint8_t *dword;
    const uint64_t *dmask;
    const uint16_t *peers; /* NULL on a classic grid */
    int n, ncells, level, words;
    int box_rows, box_cols;
    uint64_t full;
    uint64_t *cand;  /* [ncells] */
    uint16_t *queue; /* [ncells]; a cell enters once per path */
    uint32_t qhead, qtail;
    uint16_t *tcell; /* trail: [tcap] cells */
    uint64_t *told;  /* trail: [tcap] masks before the change */
    size_t tlen, tcap;
    uint32_t decided;
    uint16_t *pq;  /* [ncells] ring of cells whose pair rules must be looked at */
    uint8_t *inpq; /* [ncells] 1 while the cell is in pq */
    uint32_t pqhead, pqlen;
    const sudoku_model_t *lm; /* a model with line rules, else NULL (no line state) */
    uint16_t *lq;             /* [nlines] ring of lines to look at again */
    uint8_t *inlq;            /* [nlines] 1 while the line is in lq */
    uint32_t lqhead, lqlen;
    uint64_t lwork;  /* word operations of line looks since the last poll asked for (basic_run) */
    uint32_t *score; /* [ncells] conflict scores (models with lines; else NULL) */
    uint32_t decay;  /* conflicts until every score is halved */
    uint32_t vscore[SUDOKU_MAX_N]; /* failed guesses per value (quartered at each halving) */
    struct sudoku__lock_s *locks;  /* pairs of units sharing cells (prop.c: lock_pass) */
    uint16_t *lock_cells;
    uint32_t nlocks;
    void *gscratch;            /* sum_groups' table of unit counts, at init only */
    uint8_t *lgroup;           /* [line cells]: a sum line's groups of distinct cells (prop.c) */
    uint64_t *lscratch;        /* a line's two DP tables (prop.c: line_sum, line_sky) */
    const uint16_t *sand_sets; /* sandwich value sets by total and size (prop.c: sand_build) */
    const uint32_t *sand_at;   /* NULL when the model has no sandwich or n > 16 */
    uint64_t dirty[SUDOKU__UNIT_WORDS];    /* units changed since the last single scan */
    uint64_t dirty_hi[SUDOKU__UNIT_WORDS]; /* units changed since the last pair/subset scan */
    uint64_t exact[SUDOKU__UNIT_WORDS];    /* units of n cells */
} sudoku__prop_t;

/* Arena bytes for the engine's arrays (not the geometry); `trail` entries. */
size_t sudoku__prop_bytes(const sudoku__run_t *run, size_t trail);

/* Computes the candidates the givens leave (stack only, no arena needed):
 * writes *bits (total candidate bits over all cells, the trail bound) and
 * returns 0, or -1 if an empty cell has no candidate.  The givens must not
 * conflict. */
int sudoku__prop_count(const sudoku__run_t *run, size_t *bits);

/* Lays the engine out in `mem` (sudoku__prop_bytes(run, trail) bytes) and
 * loads the puzzle: givens decided without steps, every other cell gets the
 * values its units leave, single ones are queued as ASSIGN, all units dirty.
 * Call sudoku__prop_run() next.  The run's geometry must be built. */
void sudoku__prop_init(sudoku__prop_t *p, sudoku__run_t *run, void *mem, size_t trail);

/* Runs the rules of p->level to a fixpoint.  Returns 0, or -1 on a
 * contradiction (the state is then garbage until sudoku__prop_undo()). */
int sudoku__prop_run(sudoku__prop_t *p);

/* Decides cell = value as a choice (GUESS step); the cell must be undecided.
 * Follow with sudoku__prop_run(). */
void sudoku__prop_guess(sudoku__prop_t *p, int cell, int value);

/* Removes value from cell's candidates (ELIMINATE step).  Returns -1 if the
 * cell has no candidate left.  Follow with sudoku__prop_run(). */
int sudoku__prop_refute(sudoku__prop_t *p, int cell, int value);

/* Undoes every change after trail position `mark`, restores `decided` and
 * clears the queue and dirty sets (the state at `mark` was a fixpoint). */
void sudoku__prop_undo(sudoku__prop_t *p, size_t mark, uint32_t decided);

/* The undecided cell with the fewest candidates, lowest index first; -1 if
 * every cell is decided. */
int sudoku__prop_pick(const sudoku__prop_t *p);

/* Conflicts between two halvings of the conflict scores (ISS's 2^14). */
#define SUDOKU__SCORE_DECAY (1u << 14)

/* With conflict scores (p->score): the undecided cell with the largest
 * score / candidates (first on ties) and its lowest value in *value -- or,
 * when that cell has more than two candidates, a place of a value that an
 * exact unit holds in two cells whose score beats it (prop.c:
 * pick_required); -1 if every cell is decided. */
int sudoku__prop_pick_scored(const sudoku__prop_t *p, int *value);

/* Counts a contradiction that followed a choice on `cell`: the guess of
 * `value`, or (value 0) the refutation that left it nothing. */
void sudoku__prop_conflict(sudoku__prop_t *p, int cell, int value);

/* Writes the decided grid (all cells decided) as values to out[ncells]
 * (0 on holes). */
void sudoku__prop_extract(const sudoku__prop_t *p, uint8_t *out);

#endif
