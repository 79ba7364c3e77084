/* model.h -- Sudoku with its units as data: the variants (jigsaw regions,
 * X diagonals, windoku windows, disjoint groups, any extra units, even/odd
 * cells, consecutive and non-consecutive pairs, overlapping grids) as one
 * model that every engine of sudoku.h takes.
 *
 * A puzzle is
 *   - a frame of rows x cols cells, cell i = r*cols + c, some of which exist
 *     (`live`): overlapping grids leave holes in their bounding box;
 *   - n symbols 1..n;
 *   - units: sets of live cells that hold each symbol at most once, and
 *     exactly once when the unit has n cells ("exact");
 *   - cell rules: a cell may be limited to even or odd values;
 *   - pair rules: two orthogonally adjacent cells differ by exactly 1
 *     (a consecutive mark) or by more than 1 (non-consecutive);
 *   - line rules: an ordered list of cells and a number: their values add
 *     up to it (a sum: janko's Margin Sudoku, ISS's `sum`; values may
 *     repeat), or that many of them are seen from the first cell, a value
 *     being seen when it is larger than every value before it (a
 *     skyscraper clue), or a killer cage: a sum whose cells are also a unit
 *     (an extra unit numbered after the spec's own: unit_index - nextra is
 *     the line); and the other kinds of sudoku_line_kind_t (a pair of cells
 *     by a relation table, arrows, renban, between, lockout, zipper,
 *     sandwich, x-sum, sum lines, equal sums: docs/constraints.md).  Only the
 *     propagation engine (and best-first, which is built on it) reads
 *     them: the other methods answer SUDOKU_EMETHOD.
 * Rows, columns and rectangular boxes of each n x n grid are the default
 * units; a description (sudoku_spec_t) says what to add or replace, and
 * sudoku_model_new() compiles it into the tables the engines read.
 *
 * Grids and layouts.  A spec has one n x n grid at (0,0), or several
 * (ngrids origins, each grid n x n with its rows, columns and boxes), or a
 * named layout of 9x9 grids (janko.at's: Samurai, Sohei, Windmill,
 * Butterfly, Gattai-8, Shogun, Sumo; Clueless 1 and 2, nine grids side by
 * side with a tenth made of their box centres or centre boxes).  The frame
 * is the grids' bounding box; cells outside every grid do not exist.
 * Units that two grids share (the corner boxes of a Samurai) are one unit.
 *
 * Variants by flag, per grid: X (both diagonals), windoku (the windows
 * between the boxes: (b-1) x (b-1) of them for square b x b boxes, four at
 * 9x9), disjoint groups (the cells at one position in every box).  By
 * data: regions (a region id per cell; the regions replace the boxes and
 * must be connected and hold n cells each), extra units, parity, pairs.
 *
 * Puzzles and solutions of a model are frame-sized: rows*cols bytes, 0 =
 * empty, and 0 on every hole.
 *
 * A model is immutable once built: any number of threads may solve with it
 * at once.  Nothing here does I/O or keeps global state. */
#ifndef PUZZLED_SUDOKU_MODEL_H
#define PUZZLED_SUDOKU_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"
#include "solvers/sudoku/sudoku.h"

#define SUDOKU_MODEL_MAX_SIDE  128  /* frame rows and cols */
#define SUDOKU_MODEL_MAX_CELLS 4096 /* frame cells (a cell index is a uint16_t) */
#define SUDOKU_MODEL_MAX_UNITS 1024 /* after duplicates are merged */
#define SUDOKU_MODEL_MAX_GRIDS 16

/* Error codes beyond SEARCH_* (the block of sudoku.h). */
#define SUDOKU_EMETHOD                                                                             \
    (-18)                    /* the method cannot solve this model (fast on a variant, exact       \
                                cover with consecutive marks) */
#define SUDOKU_EREGION (-21) /* regions: not n cells each, not connected, on a hole */
#define SUDOKU_EUNIT   (-22) /* a unit: more than n cells, a cell twice, outside, a hole */
#define SUDOKU_ELAYOUT (-23) /* grids that leave the frame, repeat, or layouts on n != 9 */
#define SUDOKU_EPAIR   (-24) /* a pair: cells not orthogonal neighbours, a hole, twice */
#define SUDOKU_EPARITY (-25) /* parity on a hole, or a value that is not 0, even, odd */
#define SUDOKU_ELINE                                                                               \
    (-26) /* a line: a cell off the grids or twice, too long, a number it                          \
             cannot have */

#define SUDOKU_LINE_MAX_CELLS  256  /* cells of one line rule */
#define SUDOKU_MODEL_MAX_LINES 4096 /* line rules of one model */

/* Variant flags (sudoku_spec_t.extras), applied to every grid. */
#define SUDOKU_EXTRA_X        0x1u /* both main diagonals */
#define SUDOKU_EXTRA_WINDOKU  0x2u /* the windows between the boxes (square boxes) */
#define SUDOKU_EXTRA_DISJOINT 0x4u /* one unit per position inside a box */

/* Cell rules (sudoku_spec_t.parity). */
#define SUDOKU_PARITY_ANY  0
#define SUDOKU_PARITY_EVEN 1
#define SUDOKU_PARITY_ODD  2

/* Pair rules. */
typedef enum sudoku_pair_rule_e {
    SUDOKU_PAIR_CONSECUTIVE = 0,    /* the two values differ by exactly 1 */
    SUDOKU_PAIR_NONCONSECUTIVE = 1, /* they differ by more than 1 */
} sudoku_pair_rule_t;

typedef struct sudoku_pair_s {
    uint16_t a, b; /* frame cells, orthogonal neighbours */
    uint8_t rule;  /* sudoku_pair_rule_t */
} sudoku_pair_t;

/* Line rules (see the file comment). */
typedef enum sudoku_line_kind_e {
    SUDOKU_LINE_SUM = 0,        /* the values add up to `value` (they may repeat) */
    SUDOKU_LINE_SKYSCRAPER = 1, /* `value` cells are larger than every cell before them */
    SUDOKU_LINE_CAGE = 2,       /* a killer cage: a unit (no repeats) that adds up to `value`
                                   (0: no total, the unit alone) */
    SUDOKU_LINE_PAIR = 3,       /* two cells whose values a, b table `value` of the spec's
                                   pair_tables allows: bit b-1 of pair_tables[value*n + a-1] */
    SUDOKU_LINE_ARROW = 4,      /* the first h = value & 0xff cells (1..3) make a number --
                                   their sum (value >> 8 == 0) or their digits read in base
                                   10 (== 1) -- that the other cells add up to */
    SUDOKU_LINE_RENBAN = 5,     /* consecutive values, each once (a unit, as a cage) */
    SUDOKU_LINE_BETWEEN = 6,    /* every inner value lies strictly between the two ends' */
    SUDOKU_LINE_LOCKOUT = 7,    /* the ends differ by `value` or more, and no inner value lies
                                   between them or equals one */
    SUDOKU_LINE_ZIPPER = 8,     /* cells i and len-1-i add up to one total for every i (an odd
                                   line's centre is that total) */
    SUDOKU_LINE_SANDWICH = 9,   /* the values between the 1 and the n add up to `value` (0:
                                   they are side by side); the line holds one 1 and one n */
    SUDOKU_LINE_XSUM = 10,      /* the first x values add up to `value`, x the first value */
    SUDOKU_LINE_SEGSUM = 11,    /* the line splits into runs that each add up to `value` */
    SUDOKU_LINE_EQSUM = 12,     /* one segment of a group whose segments all add up to one
                                   total (ISS's region-sum-line and equal-sum): a group is
                                   consecutive lines whose values count down to 1, `value`
                                   the segments left in it, this one included (a group of
                                   three: 3, 2, 1).  Segments may share cells; a
                                   group has SUDOKU_LINE_MAX_CELLS cells in all at
                                   most (a look reads them all) */
    SUDOKU_LINE_SEGLOOP = 13,   /* as SEGSUM on a closed loop: a run may wrap from the last
                                   cell to the first (ISS's sum-line with loop: true) */
    SUDOKU_LINE_KINDS
} sudoku_line_kind_t;

typedef struct sudoku_line_s {
    uint8_t kind;   /* sudoku_line_kind_t */
    int32_t value;  /* each kind's number (sudoku_line_kind_t); sudoku_model_new()
                       checks its range: SUM len..len*n, SKYSCRAPER 1..min(len, n,
                       63), CAGE 0 or what len distinct values can make, PAIR a
                       table, RENBAN, BETWEEN, ZIPPER 0, EQSUM its group's place ... */
    uint32_t first; /* the cells, in order: line_cells[first .. first + len) */
    uint32_t len;   /* 1..SUDOKU_LINE_MAX_CELLS */
    uint32_t tag;   /* the caller's, kept as given (the API: which constraint made it) */
} sudoku_line_t;

typedef enum sudoku_layout_e {
    SUDOKU_LAYOUT_SINGLE = 0, /* one grid at (0,0), or the spec's own grids */
    SUDOKU_LAYOUT_SAMURAI,    /* 21x21, 5 grids */
    SUDOKU_LAYOUT_SOHEI,      /* 21x21, 4 grids */
    SUDOKU_LAYOUT_WINDMILL,   /* 21x21, 5 grids */
    SUDOKU_LAYOUT_BUTTERFLY,  /* 12x12, 4 grids */
    SUDOKU_LAYOUT_GATTAI8,    /* 21x33, 8 grids */
    SUDOKU_LAYOUT_SHOGUN,     /* 21x45, 11 grids */
    SUDOKU_LAYOUT_SUMO,       /* 33x33, 13 grids */
    SUDOKU_LAYOUT_CLUELESS1,  /* 27x27, 9 grids + the grid of their box centre cells */
    SUDOKU_LAYOUT_CLUELESS2,  /* 27x27, 9 grids + the grid of their centre boxes */
    SUDOKU_LAYOUT_COUNT
} sudoku_layout_t;

/* "single", "samurai", "sohei", "windmill", "butterfly", "gattai-8",
 * "shogun", "sumo", "clueless-1", "clueless-2"; NULL out of range.  parse:
 * 0 and *out, or SEARCH_EINVAL. */
const char *sudoku_layout_name(sudoku_layout_t l);
int sudoku_layout_parse(const char *name, sudoku_layout_t *out);

typedef struct sudoku_origin_s {
    int row, col; /* top-left cell of an n x n grid in the frame */
} sudoku_origin_t;

/* What a caller describes.  Zero it (sudoku_spec_init) and set n and what
 * the puzzle has; nothing is kept by pointer after sudoku_model_new(). */
typedef struct sudoku_spec_s {
    int n;                        /* symbols 1..n, side of every grid: SUDOKU_MIN_N..MAX_N */
    sudoku_layout_t layout;       /* named layout (n must be 9), or SINGLE */
    int ngrids;                   /* SINGLE: 0 = one grid at (0,0), else these origins */
    const sudoku_origin_t *grids; /* [ngrids] */
    int box_rows, box_cols;       /* each grid's boxes; 0,0 = sudoku_default_box(n);
                                     ignored when regions replace them */
    const int *regions;           /* NULL, or [frame cells]: cells with one id >= 0 form a
                                     unit of n connected cells; every live cell has one;
                                     the boxes go.  Ids are any ints, -1 on holes */
    uint32_t extras;              /* SUDOKU_EXTRA_* */
    int nunits;                   /* extra units: unit k = unit_cells[unit_start[k] ..
                                     unit_start[k+1]), frame cells */
    const uint32_t *unit_start;   /* [nunits + 1] */
    const uint16_t *unit_cells;
    const uint8_t *parity;       /* NULL, or [frame cells] SUDOKU_PARITY_* */
    int npairs;                  /* marked pairs */
    const sudoku_pair_t *pairs;  /* [npairs] */
    int nonconsecutive;          /* 1: every orthogonal pair of live cells that no
                                    mark names is non-consecutive (janko's rule for
                                    consecutive puzzles; alone, the non-consecutive
                                    variant) */
    int nlines;                  /* line rules */
    const sudoku_line_t *lines;  /* [nlines], their cells in line_cells */
    const uint16_t *line_cells;  /* frame cells */
    int npair_tables;            /* SUDOKU_LINE_PAIR's relations: table t allows (a, b) when */
    const uint64_t *pair_tables; /* bit b-1 of pair_tables[t*n + a-1] is set */
} sudoku_spec_t;

void sudoku_spec_init(sudoku_spec_t *spec);

/* Where a spec is wrong: the code, the part, and its index (a cell for
 * regions and parity, a unit for extra units, a pair, a grid). */
typedef enum sudoku_spec_part_e {
    SUDOKU_SPEC_N = 0,
    SUDOKU_SPEC_LAYOUT,
    SUDOKU_SPEC_GRIDS,
    SUDOKU_SPEC_BOX,
    SUDOKU_SPEC_REGIONS,
    SUDOKU_SPEC_EXTRAS,
    SUDOKU_SPEC_UNITS,
    SUDOKU_SPEC_PARITY,
    SUDOKU_SPEC_PAIRS,
    SUDOKU_SPEC_LINES
} sudoku_spec_part_t;

typedef struct sudoku_spec_error_s {
    int code;                /* 0, or what sudoku_model_new() returned */
    sudoku_spec_part_t part; /* which part of the spec */
    int index;               /* cell, region id, unit, pair or grid; -1 = the part */
    int detail;              /* a second number: the offending cell of a unit or pair,
                                a region's size; -1 = none */
} sudoku_spec_error_t;

/* The compiled model.  Every field is read only; the arrays live in the
 * model's one block. */
typedef struct sudoku_model_s {
    int n;          /* symbols */
    int rows, cols; /* frame */
    int ncells;     /* rows * cols */
    int nlive;      /* cells that exist */
    int nunits;
    int ngrids;
    sudoku_layout_t layout;
    uint64_t full;        /* the n value bits */
    int classic;          /* 1: one n x n grid with its rows, columns and boxes and nothing
                             else; `shape` is that grid and sudoku_solve() runs on it */
    sudoku_shape_t shape; /* classic: the grid; else n and the grids' boxes (0x0
                             when regions replace them) */
    uint32_t extras;      /* what the spec asked, for names */
    int nonconsecutive;
    const sudoku_origin_t *grids; /* [ngrids] */
    const uint8_t *live;          /* [ncells] 1 when the cell exists */
    const uint64_t *allowed;      /* [ncells] values the cell may hold (0 on holes) */
    const uint32_t *unit_start;   /* [nunits + 1] */
    const uint16_t *unit_cells;   /* rows: by column; columns: by row; boxes, windows:
                                     row-major; diagonals: by row; others: ascending */
    const uint8_t *unit_kind;     /* sudoku_unit_t */
    const uint8_t *unit_grid;     /* grid of a grid's unit; 255 for regions and extra
                                     units (they belong to the frame) */
    const uint16_t *unit_index;   /* row r, column c, box b ... within (grid, kind); the
                                     region number; the extra unit's index in the spec */
    const int16_t *grid_units;    /* [nline_grids * 2n]: grid g's row i is unit
                                     grid_units[g*2n+i], its column i unit grid_units[g*2n+n+i] */
    int nline_grids;              /* grids with rows and columns: the ngrids, and a Clueless
                                     layout's tenth (made of the others' cells) */
    const uint32_t *cell_start;   /* [ncells + 1]: the units of cell c are */
    const uint16_t *cell_units;   /* cell_units[cell_start[c] .. cell_start[c+1]), ascending */
    const uint32_t *peer_start;   /* [ncells + 1]: the cells sharing a unit with c are */
    const uint16_t *peers;        /* peers[peer_start[c] .. peer_start[c+1]), ascending */
    int npairs;                   /* pair rules: the marks, then the implied ones */
    const sudoku_pair_t *pairs;   /* [npairs]: the spec's marks first, in its order
                                     (pairs[k] is its pairs[k] for k < nmarked), then the
                                     implied non-consecutive pairs by cell (a < b) */
    int nmarked;
    const uint32_t *pair_start;  /* [ncells + 1]: pair rules of cell c are */
    const uint32_t *pair_adj;    /* pair_adj[pair_start[c] .. ): other cell << 8 | rule */
    int nextra;                  /* the spec's extra units; SUDOKU_UNIT_EXTRA units with a
                                    unit_index from nextra on are a cage's or a renban's:
                                    line index + nextra */
    int nlines;                  /* line rules, as the spec gave them */
    int nrules;                  /* those the search must propagate: all but cages without
                                    a total, whose unit is all they say (a model with only
                                    those is solved like one with extra units) */
    const sudoku_line_t *lines;  /* [nlines] */
    const uint16_t *line_cells;  /* their cells */
    const uint32_t *lcell_start; /* [ncells + 1]: the lines through cell c are */
    const uint16_t *lcell_lines; /* lcell_lines[lcell_start[c] .. lcell_start[c+1]) */
    int npair_tables;
    const uint64_t *pair_fwd;    /* [npair_tables * n]: the spec's tables (b allowed by a) */
    const uint64_t *pair_bwd;    /* the same transposed: bit a-1 of [t*n + b-1] */
    const uint32_t *dirty_start; /* for the engines: cell c's units as bits of a bitset */
    const uint8_t *dirty_word;   /* of units, by word: word dirty_word[k] gets bits */
    const uint64_t *dirty_mask;  /* dirty_mask[k], k in dirty_start[c] .. [c+1) */
    size_t bytes;                /* the block */
    search_allocator_t alloc;    /* what freed it */
} sudoku_model_t;

/* Compiles *spec into a new model.  Returns 0 and sets *out (free with
 * sudoku_model_free), or
 *   SEARCH_EINVAL   NULL arguments, n out of range, a box that does not tile
 *                   n (part BOX), extras that need boxes without them;
 *   SUDOKU_ENOBOX   no box given, none by default (prime n) and no regions;
 *   SUDOKU_ELAYOUT / SUDOKU_EREGION / SUDOKU_EUNIT / SUDOKU_EPAIR /
 *   SUDOKU_EPARITY  the part and index in *err;
 *   SEARCH_ENOMEM.
 * err may be NULL; on success err->code is 0.  alloc may be NULL (malloc).
 * Nothing of spec is kept. */
int sudoku_model_new(const sudoku_spec_t *spec, const search_allocator_t *alloc,
                     sudoku_model_t **out, sudoku_spec_error_t *err);

/* The model of a classic shape (n x n, its rows, columns and boxes). */
int sudoku_model_classic(const sudoku_shape_t *shape, const search_allocator_t *alloc,
                         sudoku_model_t **out);

void sudoku_model_free(sudoku_model_t *m);

/* The spec's grids (a named layout's, its own, or one at (0,0)) into
 * out[SUDOKU_MODEL_MAX_GRIDS]; returns how many, 0 for a bad spec.  A
 * Clueless layout's tenth grid is not among them (it lies on the nine). */
int sudoku_spec_grids(const sudoku_spec_t *spec, sudoku_origin_t *out);

/* Frame size of a layout's spec without building it: rows and cols of the
 * grids' bounding box (0 on a bad spec).  For a caller that must size the
 * grid before it reads it. */
int sudoku_spec_frame(const sudoku_spec_t *spec, int *rows, int *cols);

/* Whether two cells share a unit (a binary search in c's peers). */
int sudoku_model_sees(const sudoku_model_t *m, int a, int b);

/* === Validation ========================================================= */

/* Returns 0 when every cell of grid (ncells bytes) holds 0..n and every
 * hole 0, else SEARCH_EINVAL. */
int sudoku_model_check_values(const sudoku_model_t *m, const uint8_t *grid);

/* The rules the filled cells break, one sudoku_conflict_t each: a value
 * twice in a unit (unit = its kind, index = its unit_index, id = the
 * model's unit number, grid = its grid), a value against its cell's parity
 * (unit SUDOKU_RULE_PARITY, index = the cell), a pair against its rule
 * (SUDOKU_RULE_PAIR, index = the pair's number in m->pairs, value = the
 * first cell's), a line against its number (SUDOKU_RULE_LINE, index = the
 * line, value 0, cells = its filled cells: see sudoku_model_line_ok).
 * Units first by unit number, then parity by cell, then pairs, then lines.
 * As sudoku_find_conflicts(): the first min(cap, total) into out, the
 * total into *count.  Returns 0 or SEARCH_EINVAL (bad values). */
int sudoku_model_find_conflicts(const sudoku_model_t *m, const uint8_t *grid,
                                sudoku_conflict_t *out, size_t cap, size_t *count);

/* 1 when line k of grid can still keep its rule as far as its filled cells
 * tell: a sum (or a cage's total) whose filled cells, with 1 or n in each
 * empty one, can still make its number (a cage's repeats are its unit's
 * conflicts); a skyscraper line that shows its number when full, and
 * not more than that in its filled first cells; an equal-sum segment
 * whose group's segments (filled cells, 1 to n in each empty one) can
 * still reach one total, so every segment of a broken group is broken;
 * the other kinds once full.  0 when it is broken. */
int sudoku_model_line_ok(const sudoku_model_t *m, int k, const uint8_t *grid);

/* 1 when every live cell holds 1..n and no rule is broken, 0 if not,
 * SEARCH_EINVAL for bad values. */
int sudoku_model_is_complete(const sudoku_model_t *m, const uint8_t *grid);

/* 1 when solution is complete and keeps every given of puzzle, 0 if not,
 * SEARCH_EINVAL for bad values. */
int sudoku_model_check_solution(const sudoku_model_t *m, const uint8_t *puzzle,
                                const uint8_t *solution);

/* === Solving ============================================================ */

/* The method sudoku_model_solve() runs for opts->method (what auto picks
 * for this model; any other method is returned as it is). */
sudoku_method_t sudoku_model_method_for(const sudoku_model_t *m, const uint8_t *puzzle,
                                        const sudoku_opts_t *opts);

/* Solves a puzzle of the model (ncells bytes, 0 empty and on holes); as
 * sudoku_solve(), with solutions of ncells bytes each (holes 0).  A
 * classic model runs exactly sudoku_solve() on its shape.  Every method
 * takes every model, except:
 *   fast         classic 9x9 only (SUDOKU_EMETHOD otherwise);
 *   algorithm-x, dlx   an exact cover: units, holes, parity and
 *                non-consecutive pairs are items; consecutive marks are not
 *                an exact cover (SUDOKU_EMETHOD); XCOVER_ELIMIT past its
 *                limits;
 *   cdcl         a portfolio (opts->exchange) only when ncells == n*n;
 *   line rules   propagation and best-first only (auto picks propagation);
 *                every other method answers SUDOKU_EMETHOD.
 * Returns as sudoku_solve(); SUDOKU_ECONFLICT covers parity and pairs. */
int sudoku_model_solve(const sudoku_model_t *m, const uint8_t *puzzle, const sudoku_opts_t *opts,
                       sudoku_result_t *res);

#endif
