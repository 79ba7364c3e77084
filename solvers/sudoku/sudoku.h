/* sudoku.h -- Sudoku on N x N grids with rows x cols boxes (4 <= N <= 64):
 * grid shape, validation (conflicts, solution checks) and ONE solver entry
 * point, sudoku_solve(), that runs any of several search methods.
 *
 * Grid model
 * ----------
 * A grid is N*N bytes, row-major: cell index i = r*N + c, value 0 = empty,
 * 1..N = a digit.  Mapping user symbols ('A', 17, ...) to 1..N is the API
 * layer's job.  Boxes are box_rows x box_cols cells, numbered row-major from 0
 * (box of (r,c) = (r / box_rows) * (N / box_cols) + c / box_cols).  Units are
 * the N rows, N columns and N boxes.
 *
 * Box shapes: sudoku_default_box() picks square boxes for a square N and
 * otherwise rows x cols with 2 <= rows < cols, rows as large as possible
 * (6 -> 2x3, 8 -> 2x4, 10 -> 2x5, 12 -> 3x4); a prime N has no default box.
 * An explicit box needs only rows*cols == N with both >= 1, so 1xN and Nx1
 * boxes ARE allowed: the box then coincides with a row or a column and the
 * puzzle is a Latin square completion (the only way to pose a prime N).
 *
 * Methods (sudoku_method_t), all behind sudoku_solve():
 *   backtracking  row-major first empty cell, values ascending, rules only.
 *   mrv           fewest candidates first (ties: lowest cell index) with
 *                 forward checking.
 *   propagation   constraint propagation at a level (peers < hidden-singles <
 *                 naked-pairs < subsets, cumulative) plus search on the cell
 *                 with the fewest candidates.
 *   best-first    priority queue of propagated partial grids, fewest
 *                 undecided cells first, under a memory cap.
 *   algorithm-x,  exact cover (sudoku/xc.h): N^3 options over 4 N^2 items,
 *   dlx           plain Algorithm X or dancing links; no trace.
 *   fast          9x9 with 3x3 boxes only (sudoku9.h): per-digit band
 *                 bitsets and table-driven propagation; no trace.  auto
 *                 takes it for every 9x9 solve that asks for no trace.
 *   cdcl          conflict-driven clause learning (sudoku/cdcl.h): a SAT
 *                 search whose native constraints are the exactly-one
 *                 groups of the grid; finds what the propagation stalls on
 *                 (minimal 25x25 grids).  No trace; opts->variant picks a
 *                 portfolio member; res->cdcl says what it did.
 *   auto          the method measured fastest for the grid (today: fast
 *                 for 9x9, propagation at hidden-singles below 16x16; from
 *                 16x16 propagation at subsets for up to 256 nodes, then
 *                 cdcl; measurements in sudoku.c).  res->method and
 *                 res->level say what answered.
 * Every method honours max_solutions, the search_ctl_t limits, is iterative
 * and allocates only before its search loop (best-first also grows its queue
 * in bounded chunks between expansions, see sudoku/bestfirst.c).
 *
 * Nothing here does I/O or keeps global state: every function is reentrant
 * and writes only to memory the caller passes in.  A solve allocates one
 * working arena (through opts->alloc, default malloc) and frees it before
 * returning. */
#ifndef PUZZLED_SUDOKU_H
#define PUZZLED_SUDOKU_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"

#define SUDOKU_MIN_N           4
#define SUDOKU_MAX_N           64
#define SUDOKU_MAX_SOLUTIONS   10000u
#define SUDOKU_DEFAULT_MEM_CAP ((size_t)64 << 20) /* best-first queue cap, bytes */

/* Error codes of this module, beyond the SEARCH_* codes of search.h. */
#define SUDOKU_ECONFLICT (-16) /* two givens break a rule; see sudoku_find_conflicts() */
#define SUDOKU_ENOBOX    (-17) /* N has no default box (N is prime) */

/* === Shape ============================================================== */

typedef struct sudoku_shape_s {
    int n;        /* side and number of digits, SUDOKU_MIN_N..SUDOKU_MAX_N */
    int box_rows; /* box height in cells */
    int box_cols; /* box width in cells; box_rows * box_cols == n */
} sudoku_shape_t;

/* The default box for side n: square boxes for a perfect square, otherwise
 * rows x cols with 2 <= rows < cols and rows*cols == n, closest to square.
 * Returns 0 and sets *rows, *cols; SUDOKU_ENOBOX for a prime n (no such
 * factorisation); SEARCH_EINVAL if n is outside SUDOKU_MIN_N..SUDOKU_MAX_N.
 * *rows and *cols are untouched on failure. */
int sudoku_default_box(int n, int *rows, int *cols);

/* Fills *shape for side n with box_rows x box_cols boxes; box_rows ==
 * box_cols == 0 asks for sudoku_default_box(n).  Explicit boxes need
 * box_rows * box_cols == n and both >= 1 (1xN / Nx1 allowed, see above).
 * Returns 0, SEARCH_EINVAL (n out of range, bad box) or SUDOKU_ENOBOX;
 * *shape is untouched on failure. */
int sudoku_shape_init(sudoku_shape_t *shape, int n, int box_rows, int box_cols);

/* Returns 0 if *shape satisfies what sudoku_shape_init() guarantees, else
 * SEARCH_EINVAL.  Every function below starts with this check. */
int sudoku_shape_check(const sudoku_shape_t *shape);

/* Box number of cell (r, c), boxes numbered row-major from 0. */
static inline int sudoku_box_of(const sudoku_shape_t *s, int r, int c) {
    return (r / s->box_rows) * (s->n / s->box_cols) + c / s->box_cols;
}

/* === Validation ========================================================= */

/* Kinds of units (the classic grid has the first three; the others come
 * with the variants of sudoku/model.h), and the two rules a conflict of a
 * variant can break besides its units. */
typedef enum sudoku_unit_e {
    SUDOKU_UNIT_ROW = 0,
    SUDOKU_UNIT_COL = 1,
    SUDOKU_UNIT_BOX = 2,
    SUDOKU_UNIT_REGION = 3,   /* a jigsaw region (replaces the boxes) */
    SUDOKU_UNIT_DIAGONAL = 4, /* X: 0 the main diagonal, 1 the anti-diagonal */
    SUDOKU_UNIT_WINDOW = 5,   /* windoku */
    SUDOKU_UNIT_DISJOINT = 6, /* disjoint groups: one position in every box */
    SUDOKU_UNIT_EXTRA = 7,    /* a unit the puzzle lists */
    SUDOKU_UNIT_KINDS = 8,
    SUDOKU_RULE_PARITY = 8, /* conflicts only: a value of the wrong parity */
    SUDOKU_RULE_PAIR = 9,   /* conflicts only: a pair against its rule */
    SUDOKU_RULE_LINE = 10   /* conflicts only: a line rule (model.h) against its number */
} sudoku_unit_t;

/* "row", "column", "box", "region", "diagonal", "window", "disjoint",
 * "extra", "parity", "pair", "line"; NULL out of range. */
const char *sudoku_unit_name(sudoku_unit_t u);

/* One rule broken: `value` occurs ncells >= 2 times in one unit (or, for a
 * variant's cell and pair rules, the cells that break them). */
typedef struct sudoku_conflict_s {
    uint8_t unit;                 /* sudoku_unit_t */
    uint8_t value;                /* the repeated value, 1..n */
    uint16_t index;               /* row, column or box number, 0..n-1 (see model.h) */
    uint16_t ncells;              /* cells of the unit holding `value` */
    uint16_t cells[SUDOKU_MAX_N]; /* their indices r*n+c, ascending */
    uint16_t id;                  /* the unit's number: kind*n + index here, the model's
                                     unit number in sudoku_model_find_conflicts() */
    uint8_t grid;                 /* the grid of the unit (model.h); 0 here */
} sudoku_conflict_t;

/* Returns 0 if every value of grid (n*n bytes) is 0..n, SEARCH_EINVAL if one
 * is larger or the shape is bad. */
int sudoku_check_values(const sudoku_shape_t *shape, const uint8_t *grid);

/* Lists the rules the filled cells of `grid` break: every (unit, value) with
 * two or more cells, rows first, then columns, then boxes, each by unit index
 * then value.  Writes the first min(cap, total) into out (out may be NULL when
 * cap == 0) and the total into *count, so a caller can size a buffer with a
 * first call.  A cell in a repeated pair of a row and of a box shows up in
 * both.  Returns 0, or SEARCH_EINVAL (bad shape, a value > n; *count = 0). */
int sudoku_find_conflicts(const sudoku_shape_t *shape, const uint8_t *grid, sudoku_conflict_t *out,
                          size_t cap, size_t *count);

/* Returns 1 if every cell of grid holds 1..n and no unit repeats a value (a
 * solved grid), 0 if not, SEARCH_EINVAL for a bad shape.  Needs no memory. */
int sudoku_is_complete(const sudoku_shape_t *shape, const uint8_t *grid);

/* Returns 1 if `solution` is a solved grid (sudoku_is_complete) that keeps
 * every given of `puzzle` (nonzero cells), 0 if not, SEARCH_EINVAL for a bad
 * shape.  Used by the tests to check every solution a solver returns. */
int sudoku_check_solution(const sudoku_shape_t *shape, const uint8_t *puzzle,
                          const uint8_t *solution);

/* === Solving ============================================================ */

/* Append new methods just before SUDOKU_METHOD_COUNT (a later issue adds a
 * 9x9 fast path and exact cover); sudoku.c has one dispatch table. */
typedef enum sudoku_method_e {
    SUDOKU_METHOD_AUTO = 0,
    SUDOKU_METHOD_BACKTRACKING = 1,
    SUDOKU_METHOD_MRV = 2,
    SUDOKU_METHOD_PROPAGATION = 3,
    SUDOKU_METHOD_BEST_FIRST = 4,
    SUDOKU_METHOD_ALGORITHM_X = 5, /* exact cover (sudoku/xc.h), plain Algorithm X */
    SUDOKU_METHOD_DLX = 6,         /* exact cover, dancing links */
    SUDOKU_METHOD_FAST = 7,        /* 9x9 with 3x3 boxes only: band bitsets (sudoku9.h) */
    SUDOKU_METHOD_CDCL = 8,        /* clause learning over exactly-one groups (sudoku/cdcl.h) */
    SUDOKU_METHOD_COUNT
} sudoku_method_t;

/* Propagation strength, cumulative (each level does everything below it). */
typedef enum sudoku_level_e {
    SUDOKU_LEVEL_DEFAULT = 0,        /* = SUDOKU_LEVEL_HIDDEN_SINGLES */
    SUDOKU_LEVEL_PEERS = 1,          /* a decided value leaves its peers; naked singles */
    SUDOKU_LEVEL_HIDDEN_SINGLES = 2, /* a value with one place in a unit goes there */
    SUDOKU_LEVEL_NAKED_PAIRS = 3,    /* two cells, same two candidates: rest of unit loses them */
    SUDOKU_LEVEL_SUBSETS = 4,        /* naked and hidden subsets of size 2..4 */
    SUDOKU_LEVEL_COUNT
} sudoku_level_t;

/* Names as the HTTP API spells them: "auto", "backtracking", "mrv",
 * "propagation", "best-first"; "peers", "hidden-singles", "naked-pairs",
 * "subsets".  *_name returns NULL for an out-of-range value (a static string
 * otherwise); *_parse returns 0 and sets *out, or SEARCH_EINVAL. */
const char *sudoku_method_name(sudoku_method_t m);
int sudoku_method_parse(const char *name, sudoku_method_t *out);
const char *sudoku_level_name(sudoku_level_t l);
int sudoku_level_parse(const char *name, sudoku_level_t *out);

/* Trace steps, for a front end that animates a solve.
 *   GUESS(c,v)     the search tries value v in cell c (a choice).
 *   ASSIGN(c,v)    inference decides c = v (naked single: after the
 *                  ELIMINATE that left one candidate; hidden single: the
 *                  other candidates of c go with it).
 *   ELIMINATE(c,v) inference removes candidate v from cell c.
 *   BACKTRACK(c,v) the choice GUESS(c,v) failed or is done: undo every step
 *                  back to and including the latest GUESS(c,v).  With
 *                  propagation an ELIMINATE(c,v) follows (v is refuted).
 * The trace starts after the givens are placed and removed from their peers'
 * candidates (those eliminations are not steps; cells whose candidates are
 * then single appear as ASSIGN).  backtracking and mrv only emit GUESS and
 * BACKTRACK.  best-first emits each child it generates as GUESS, the
 * child's propagation, BACKTRACK (back to the node being expanded, whether
 * the child failed or was queued; the solved child that ends a search has
 * none); which queued node is expanded next is not a step, so its trace is
 * a log, not a replayable board sequence. */
typedef enum sudoku_step_kind_e {
    SUDOKU_STEP_ASSIGN = 0,
    SUDOKU_STEP_ELIMINATE = 1,
    SUDOKU_STEP_GUESS = 2,
    SUDOKU_STEP_BACKTRACK = 3
} sudoku_step_kind_t;

typedef struct sudoku_step_s {
    uint8_t kind;  /* sudoku_step_kind_t */
    uint8_t value; /* 1..n */
    uint16_t cell; /* r*n + c */
} sudoku_step_t;

/* "assign", "eliminate", "guess", "backtrack"; NULL when out of range. */
const char *sudoku_step_kind_name(sudoku_step_kind_t k);

/* Options.  Start from sudoku_opts_init() and set what you need. */
typedef struct sudoku_opts_s {
    sudoku_method_t method;  /* default SUDOKU_METHOD_AUTO */
    sudoku_level_t level;    /* propagation and best-first; default hidden-singles */
    uint32_t max_solutions;  /* 1..SUDOKU_MAX_SOLUTIONS; stop after this many (default 1;
                                2 = uniqueness check) */
    uint8_t *solutions;      /* NULL (count only) or max_solutions*n*n bytes: solution k
                                is written at solutions + k*n*n, in the grid model above */
    const search_ctl_t *ctl; /* deadline / cancel / node budget; NULL = none */
    size_t mem_cap;          /* best-first: bytes for its arena + queue; cdcl: bytes for
                                its model + learned clauses; 0 = default */
    sudoku_step_t *trace;    /* NULL = no trace; else trace_cap steps */
    size_t trace_cap;
    uint32_t variant;                   /* cdcl: 0 = default heuristics, k > 0 = portfolio member k
                                           (other heuristics: run members on several threads,
                                           sharing ctl->cancel, and keep the first answer) */
    struct sudoku_exchange_s *exchange; /* cdcl: NULL, or what the members of a portfolio
                                           share (sudoku/exchange.h; variant = the member's
                                           index); the members then answer alike */
    const search_allocator_t *alloc;    /* NULL = malloc / free (search.h) */
} sudoku_opts_t;

/* Defaults: auto, hidden-singles, max_solutions 1, no buffers, no limits,
 * mem_cap SUDOKU_DEFAULT_MEM_CAP, malloc/free. */
void sudoku_opts_init(sudoku_opts_t *opts);

/* The clause-learning method's own counts (nodes = its decisions, backtracks
 * = its conflicts, propagations = literals it inferred). */
typedef struct sudoku_cdcl_stats_s {
    uint64_t conflicts;  /* contradictions analysed, each giving a learned clause */
    uint64_t learned;    /* clauses learned (units included) */
    uint64_t restarts;   /* returns to the root, keeping what was learned */
    uint64_t reductions; /* clause-database reductions */
    uint64_t deleted;    /* learned clauses they removed */
    uint64_t blocked;    /* solutions excluded to look for the next one */
    uint64_t imported;   /* clauses received from the other members of a portfolio */
} sudoku_cdcl_stats_t;

typedef struct sudoku_result_s {
    int code;                 /* what sudoku_solve() returned */
    sudoku_method_t method;   /* method that ran (what auto chose) */
    sudoku_level_t level;     /* propagation level used (0 for backtracking/mrv) */
    uint32_t solutions_found; /* solutions written (valid even when stopped early) */
    int exhausted;            /* 1: the whole space was searched, so solutions_found is
                                 the exact count.  Reaching max_solutions leaves it 0
                                 unless the method knows nothing is left (propagation
                                 and best-first then say 1). */
    search_stats_t stats;     /* nodes = guesses/placements tried, backtracks = choices
                                 undone or refuted, propagations = candidates removed by
                                 inference + hidden singles placed, max_depth = deepest
                                 stack of open choices */
    sudoku_cdcl_stats_t cdcl; /* what the cdcl method did; zero for the others */
    size_t trace_len;         /* steps written to opts->trace */
    int trace_truncated;      /* 1 if more steps happened than trace_cap */
    size_t mem_peak;          /* peak bytes this solve allocated */
} sudoku_result_t;

/* The method sudoku_solve() runs for opts->method (what AUTO resolves to
 * for this grid and options; any other method is returned as it is).  The
 * API asks it to know whether a solve is a cdcl one, which it can run as a
 * portfolio on several threads.  shape, puzzle and opts must be valid. */
sudoku_method_t sudoku_method_for(const sudoku_shape_t *shape, const uint8_t *puzzle,
                                  const sudoku_opts_t *opts);

/* A puzzle is unique when the search ran to the end and found one solution
 * (solve with max_solutions >= 2 to learn this). */
static inline int sudoku_result_unique(const sudoku_result_t *r) {
    return r->code == 0 && r->exhausted && r->solutions_found == 1;
}

/* Solves `puzzle` (n*n bytes, givens 1..n, 0 empty; not modified) with
 * opts (NULL = defaults) and fills *res (zeroed first; stats start at 0).
 *
 * Returns (and stores in res->code):
 *   0                  the search ended: max_solutions found, or the space
 *                      exhausted (a puzzle whose givens agree but that has
 *                      no solution ends here with 0 solutions, exhausted).
 *   SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET
 *                      stopped by ctl (deadline / cancel flag / node budget)
 *                      or, for best-first, by mem_cap (SEARCH_BUDGET).  The
 *                      solutions found before stopping are valid and counted.
 *   SEARCH_EINVAL      bad shape, a value > n, bad options (method, level,
 *                      max_solutions out of range, trace_cap without trace).
 *   SUDOKU_ECONFLICT   the givens break a rule (sudoku_find_conflicts says
 *                      which); no search is made.
 *   SEARCH_ENOMEM      the working memory could not be allocated.
 * The limits of ctl are checked once before the search starts (a past
 * deadline or raised flag stops at once), the node budget before every node
 * (at most node_budget nodes are tried), the clock and flag every few
 * thousand nodes (fewer on big grids, whose nodes cost more).
 * Thread-safety: reentrant; concurrent solves may share one ctl. */
int sudoku_solve(const sudoku_shape_t *shape, const uint8_t *puzzle, const sudoku_opts_t *opts,
                 sudoku_result_t *res);

#endif
