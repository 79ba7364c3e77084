/* killer.h -- Killer Sudoku (and Killer-X) on N x N grids, N = 4..36: the
 * puzzle model, validation that names the first problem, and ONE solver
 * entry point, killer_solve(), that runs the plain or the advanced search.
 *
 * Model
 * -----
 * The grid is a Sudoku grid (sudoku.h): n*n bytes, row-major, 0 = empty,
 * 1..n = a value INDEX.  Index v stands for symbol symbols[v-1]; cage sums
 * are sums of symbol values.  symbols == NULL means 1..n (classic killer).
 * Symbols must be n distinct non-negative integers (any order).
 *
 * A cage is a list of distinct cells (r, c) whose symbols are pairwise
 * distinct and add up to `sum`.  Cages may leave cells uncovered (those are
 * plain Sudoku cells); a cell may be in at most one cage.  With diagonals
 * set, both main diagonals are units too (Killer-X).
 *
 * Methods:
 *   backtracking  cells in row-major order, values ascending, each checked
 *                 against rows/columns/boxes(/diagonals) and its cage's
 *                 partial sum (min/max reachable with distinct unused
 *                 symbols).  The baseline; no other inference.
 *   advanced      candidate masks with a trail; per-cage tables of the
 *                 symbol combinations still possible; exact supports for
 *                 cages with few open cells; 45-rule innies/outies turned
 *                 into extra sum constraints before the search (bounded
 *                 per group of mutual peers); peers, hidden singles,
 *                 locked candidates, cage/unit claiming; fewest-candidates
 *                 branching, ties to the cell with the most recent
 *                 conflicts.  Design notes in killer/adv.c.
 *   learning      clause learning (lazy clause generation): the cells'
 *                 values and the cages' value sets as literals of the
 *                 Sudoku cdcl engine (sudoku/sat.h), the cages and the 45
 *                 rule's sums as propagators that explain their prunings,
 *                 so every conflict leaves a nogood; further solutions by
 *                 excluding each one found and going on with everything
 *                 learned.  Design in killer/lcg.c.
 *   auto          backtracking on 4x4 grids with no value order asked for
 *                 (a whole 4x4 tree is a few hundred nodes: advanced's
 *                 set-up costs 15x the search there), advanced otherwise
 *                 (killer_method_for()); from KILLER_AUTO_LEARNING_N up,
 *                 with no split and no value order asked for, advanced
 *                 for KILLER_AUTO_ADVANCED_NODES nodes and, when that is
 *                 not enough, learning from the start (result.method says
 *                 which answered): easy big killers end in advanced's
 *                 first nodes, hard ones are learning's (measured in
 *                 docs/killer-tuning.md).
 *
 * Both are iterative (explicit stacks), allocate their working memory once
 * before the search, honour max_solutions and every limit of search_ctl_t.
 * Nothing here does I/O or keeps global state: every function is reentrant
 * and writes only to memory the caller passes in.
 *
 * Error codes (KILLER_E*, -48..-63) name the kind of problem; validation
 * reports which cage (index into cages[]) and which cell (index into that
 * cage's cells[], plus r, c) it concerns.  Suggested HTTP mapping: the
 * structural ones (ESYMBOLS, EGIVEN_VALUE, ECELL_RANGE, ECELL_DUP,
 * ECAGE_EMPTY, ECAGE_SIZE) are 400; the arithmetical/logical ones (ESUM,
 * ETOTAL, EGIVEN_RULE, EGIVEN_CAGE) are 422. */
#ifndef PUZZLED_KILLER_H
#define PUZZLED_KILLER_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"
#include "solvers/sudoku/sudoku.h"

#define KILLER_MIN_N         4
#define KILLER_MAX_N         36
#define KILLER_MAX_SOLUTIONS 10000u
/* Symbols above this are refused (sums fit in int64 easily). */
#define KILLER_MAX_SYMBOL 1000000L

/* Largest combination table one cage may have (entries of 8 bytes).  A cage
 * whose table would be larger (e.g. 18 cells out of 36 symbols) is handled
 * with min/max sum bounds plus the remaining-sum check instead; the table is
 * enumerated with an early stop, so deciding this costs at most this many
 * steps of enumeration per distinct (size, sum). */
#define KILLER_COMBO_CAP 4096u
/* Cap on all tables of one puzzle together (entries); cages beyond it fall
 * back to bounds as above. */
#define KILLER_COMBO_TOTAL_CAP (1u << 20)

/* Error codes of this module (beyond SEARCH_*). */
#define KILLER_ESYMBOLS     (-48) /* symbols not n distinct values in 0..KILLER_MAX_SYMBOL */
#define KILLER_EGIVEN_VALUE (-49) /* a given > n (cell set, cage -1) */
#define KILLER_ECELL_RANGE  (-50) /* a cage cell outside the grid */
#define KILLER_ECELL_DUP    (-51) /* a cell in two cages (or twice in one); other = first cage */
#define KILLER_ECAGE_EMPTY  (-52) /* a cage without cells */
#define KILLER_ECAGE_SIZE   (-53) /* a cage with more than n cells */
#define KILLER_ESUM         (-54) /* no set of distinct symbols of the cage's size has its sum */
/* The cages cover the grid but the sums do not add to n*sum(symbols). */
#define KILLER_ETOTAL      (-55)
#define KILLER_EGIVEN_RULE (-56) /* two givens repeat a value in a row/column/box/diagonal */
#define KILLER_EGIVEN_CAGE (-57) /* givens repeat a value in a cage or make its sum unreachable */

/* === Model ============================================================== */

typedef struct killer_cell_s {
    int r, c;
} killer_cell_t;

typedef struct killer_cage_s {
    long sum;                   /* sum of the symbol values of its cells */
    int ncells;                 /* 1..n */
    const killer_cell_t *cells; /* ncells cells (not owned) */
} killer_cage_t;

typedef struct killer_puzzle_s {
    sudoku_shape_t shape;       /* n in KILLER_MIN_N..KILLER_MAX_N, any box shape */
    const long *symbols;        /* n symbol values, or NULL for 1..n */
    const killer_cage_t *cages; /* ncages cages (not owned) */
    int ncages;
    const uint8_t *givens; /* NULL or n*n bytes: 0 empty, 1..n value index */
    int diagonals;         /* nonzero: Killer-X */
} killer_puzzle_t;

/* The first problem validation found.  cage = -1 / cell = -1 when the
 * problem is not about one cage / one cell of it; r, c = -1 when no cell. */
typedef struct killer_problem_s {
    int code;  /* 0 or a KILLER_E* / SEARCH_EINVAL code */
    int cage;  /* index into puzzle->cages, or -1 */
    int cell;  /* index into cages[cage].cells, or -1 */
    int r, c;  /* the cell concerned (for givens problems too), or -1 */
    int other; /* ECELL_DUP: the cage that already holds the cell; EGIVEN_RULE:
                  the earlier cell index r*n+c with the same value; else -1 */
} killer_problem_t;

/* Checks the puzzle in this order and reports the FIRST problem: shape
 * (SEARCH_EINVAL, also for cages == NULL with ncages > 0 or ncages < 0),
 * symbols, given values, then cage by cage (empty, larger than n, each cell
 * in order: range, duplicate; then the sum), the grid total when the cages
 * cover every cell, the givens against the rules (row-major, a cell
 * repeating an earlier one), the givens against their cages.
 * Returns 0 (prob->code = 0) or the code, also stored in prob->code.
 * prob may be NULL.  Needs no heap memory; inputs are not modified. */
int killer_validate(const killer_puzzle_t *pz, killer_problem_t *prob);

/* Returns 1 if grid (n*n value indices) is a solved Killer grid for pz:
 * Sudoku rules (sudoku_is_complete), diagonals if set, every cage distinct
 * with its sum, every given kept; 0 if not; SEARCH_EINVAL for a bad shape.
 * pz should have passed killer_validate(). */
int killer_check_solution(const killer_puzzle_t *pz, const uint8_t *grid);

/* Symbol value of index v (1..n). */
static inline long killer_symbol(const killer_puzzle_t *pz, int v) {
    return pz->symbols != NULL ? pz->symbols[v - 1] : (long)v;
}

/* === Solving ============================================================ */

typedef enum killer_method_e {
    KILLER_METHOD_AUTO = 0,
    KILLER_METHOD_BACKTRACKING = 1,
    KILLER_METHOD_ADVANCED = 2,
    KILLER_METHOD_LEARNING = 3,
    KILLER_METHOD_COUNT
} killer_method_t;

/* "auto", "backtracking", "advanced", "learning"; *_name returns NULL when out of range,
 * *_parse returns 0 and sets *out, or SEARCH_EINVAL. */
const char *killer_method_name(killer_method_t m);
int killer_method_parse(const char *name, killer_method_t *out);

/* Which value of the branching cell the advanced search tries first. */
typedef enum killer_values_e {
    KILLER_VALUES_AUTO = 0,   /* max_solutions 1 and no split: both orders,
                                 interleaved; otherwise ascending */
    KILLER_VALUES_ASCENDING,  /* the lowest */
    KILLER_VALUES_DESCENDING, /* the highest */
    KILLER_VALUES_COUNT
} killer_values_t;

/* "auto", "ascending", "descending"; as for the method names. */
const char *killer_values_name(killer_values_t v);
int killer_values_parse(const char *name, killer_values_t *out);

/* The method killer_solve() runs (first) for `asked` on an n x n grid
 * with value order `values`: asked itself unless it is auto (see Methods
 * above; from KILLER_AUTO_LEARNING_N up auto starts with advanced and may
 * go on with learning). */
killer_method_t killer_method_for(int n, killer_method_t asked, killer_values_t values);

typedef struct killer_opts_s {
    killer_method_t method;          /* default auto */
    uint32_t max_solutions;          /* 1..KILLER_MAX_SOLUTIONS, default 1 */
    uint8_t *solutions;              /* NULL (count only) or max_solutions*n*n bytes */
    const search_ctl_t *ctl;         /* NULL = no limits */
    const search_allocator_t *alloc; /* NULL = malloc / free (search.h) */
    uint32_t split_depth;            /* 0..KILLER_MAX_SPLIT_DEPTH, default 0: the whole tree */
    uint32_t split_index;            /* < 2^split_depth: which subtree (see below) */
    killer_values_t values;          /* advanced: value order, default auto (see below) */
    uint32_t interleave;             /* auto's nodes per turn; 0 = KILLER_INTERLEAVE_NODES */
    size_t mem_cap;                  /* learning: bytes of its working memory, learned
                                        clauses included; 0 = KILLER_DEFAULT_MEM_CAP */
} killer_opts_t;

/* The learning method's memory cap when opts->mem_cap is 0.  A cap too
 * small for the model and a minimal clause arena is SEARCH_BUDGET before
 * any search; a learned clause that does not fit even after the database
 * is reduced ends the search with SEARCH_BUDGET. */
#define KILLER_DEFAULT_MEM_CAP ((size_t)64 << 20)

/* auto on big grids (see Methods): from this side up, advanced for this
 * many nodes first, then learning. */
#define KILLER_AUTO_LEARNING_N     16
#define KILLER_AUTO_ADVANCED_NODES 1000u

/* Subtree split, for callers that search in parallel.  advanced: after the
 * root propagation the solve descends split_depth levels of its binary
 * search tree, choosing cells and values exactly as the search would
 * (fewest candidates, lowest value); at level l bit (split_depth-1-l) of
 * split_index picks the side, 0 = assign the value, 1 = remove it; then it
 * searches only below that node.  The 2^split_depth indices partition the
 * solution set exactly: a contradiction on the way makes the subtree empty
 * (exhausted, 0 solutions), and a grid solved above level split_depth is
 * reported by the one index whose remaining lower bits are 0.  The counts
 * of exhausted subtrees therefore add up to the unsplit count.
 * backtracking ignores the split: index 0 searches everything, every other
 * index is an empty subtree (exhausted, 0 solutions), which keeps the
 * partition property (with no parallelism).  split_depth above the cap or
 * split_index >= 2^split_depth is SEARCH_EINVAL.  The descent is not
 * counted in stats.nodes, and max_depth counts from the subtree root.
 * Each subtree starts with fresh conflict weights, so the sum of nodes
 * over the subtrees can differ from the unsplit search's either way. */
#define KILLER_MAX_SPLIT_DEPTH 16u

/* Value order (advanced): the search and the split descent try first the
 * lowest value of the branching cell (ascending) or its highest
 * (descending).  Both orders search the same tree on the other sides and
 * find the same solutions, in another order and after different amounts
 * of work: on hard killers one order often needs a tenth of the other's
 * nodes to reach a first solution, and which one cannot be told in
 * advance.  So with max_solutions 1 and no split, auto runs both, one
 * solve state each, taking turns of `interleave` nodes (default
 * KILLER_INTERLEAVE_NODES; the second state is built only when the first
 * has used up its first turn): the first answer of either ends the solve,
 * after about twice the work of the better order at most (plus up to a
 * turn).  Either order alone is complete, so
 * an unsolvable puzzle ends with the first order that runs out.  Stats add
 * up both; mem_peak is both states together; node_budget counts both.  A
 * parallel caller can run the orders as separate items instead (the HTTP
 * job does with threads > 1).  The split partition holds within one order;
 * a split solve with auto uses ascending. */
#define KILLER_INTERLEAVE_NODES 1024u

/* Defaults: auto, max_solutions 1, no buffer, no limits, malloc/free, no
 * split, auto value order. */
void killer_opts_init(killer_opts_t *opts);

typedef struct killer_result_s {
    int code;                  /* what killer_solve() returned */
    killer_method_t method;    /* method that ran */
    uint32_t solutions_found;  /* solutions written / counted (valid when stopped) */
    int exhausted;             /* 1: the space was searched to the end, so
                                  solutions_found is the exact count */
    killer_problem_t problem;  /* validation result (code 0 when valid) */
    uint32_t derived;          /* advanced: 45-rule sum constraints added */
    uint32_t bounds_cages;     /* advanced: cages over the table cap (bounds only) */
    search_stats_t stats;      /* nodes = values tried (backtracking) or branch
                                  choices (advanced), backtracks = choices undone,
                                  propagations = candidates removed / forced,
                                  max_depth = deepest stack of open choices */
    size_t mem_peak;           /* bytes the solve allocated */
    uint32_t split_span;       /* split: how many indices from split_index on
                                  this solve answered for -- 1, or more when
                                  the grid was solved above split_depth (or
                                  backtracking, index 0: all 2^split_depth),
                                  so that the others are known to be empty */
    uint32_t value_orders;     /* advanced: value orders that searched, 2 when
                                  auto took turns (killer_opts_t values) */
    struct {                   /* learning: what the clause-learning engine did */
        uint64_t conflicts;    /* (also stats.backtracks; stats.nodes = decisions) */
        uint64_t learned;      /* clauses learned */
        uint64_t learned_lits; /* their literals, after minimisation */
        uint64_t restarts;
        uint64_t dropped; /* propagations skipped: no room for their explanation */
    } learning;
} killer_result_t;

static inline int killer_result_unique(const killer_result_t *r) {
    return r->code == 0 && r->exhausted && r->solutions_found == 1;
}

/* Validates pz (killer_validate; on a problem returns its code with
 * res->problem filled, no search) and solves it with opts (NULL =
 * defaults).  *res is zeroed first.
 * Returns (and stores in res->code):
 *   0  the search ended: max_solutions found or the space exhausted
 *      (0 solutions, exhausted, for a consistent puzzle with no solution).
 *   SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET  stopped by ctl; the
 *      solutions found before are valid and counted.  The limits are also
 *      checked once before the search.
 *   SEARCH_EINVAL  bad options (method, max_solutions) or shape.
 *   KILLER_E*      validation failed (see res->problem).
 *   SEARCH_ENOMEM  working memory could not be allocated.
 * Solution k is written at opts->solutions + k*n*n.  The puzzle is not
 * modified.  Thread-safety: reentrant; concurrent solves may share ctl. */
int killer_solve(const killer_puzzle_t *pz, const killer_opts_t *opts, killer_result_t *res);

#endif
