/* logic.h -- a human-style Sudoku solver: candidates, techniques in order of
 * difficulty, and every step recorded as data.  It grades puzzles (rating,
 * level, hardest technique), gives hints (the next step of a grid in
 * progress) and checks what a generator may keep (solvable with techniques
 * up to a bound).
 *
 * Grid model as in sudoku.h: n*n bytes row-major, 0 empty, 1..n a digit;
 * units u = 0..n-1 rows, n..2n-1 columns, 2n..3n-1 boxes (row-major).  Any
 * shape sudoku_shape_init() accepts with n <= SUDOKU_LOGIC_MAX_N, square or
 * rectangular boxes (1xN boxes too: the box is then the row, one unit).
 * Or any model of sudoku/model.h (sudoku_logic_new_model): its frame-sized
 * grids, its units by number (model->unit_kind says which kind), its
 * parity, pair rules and line rules.  Every technique reasons on units as sets of
 * cells that hold each digit at most once, and once exactly when they have
 * n cells; what a variant changes (logic.c has the details):
 *   full house, hidden singles, hidden subsets, conjugate pairs (strong
 *     links): exact units only;
 *   locked candidates: from an exact unit to any unit holding all the
 *     digit's places there (pointing from boxes and the other non-lines,
 *     claiming from rows and columns);
 *   fish: the rows and columns of one grid;
 *   unique rectangle: only where every unit holds 0 or 2 of the corners
 *     side by side, and never with pair or line rules (swapping the two
 *     digits changes what the corners' neighbours differ by, or a sum);
 *   consecutive: the pair rules' eliminations beyond a placed digit (a
 *     placed digit's are made when it is placed, like its peers').
 * Line rules (lines.c has the details) are read by the techniques people
 * use on them: cage-combination, cage-locked, innies-outies and
 * cage-splitting (killer
 * cages with a total; the last is the 45 rule), pair-relation (pair lines: kropki, X, V, whisper,
 * palindrome, modular, entropic, anti-knight...), thermo (pair lines that order: thermometers,
 * greater-than) and arrow; every other kind (sums, little killers, sandwiches, skyscrapers, x-sums,
 * renban, between, lockout, zipper, sum lines, equal sums) only by `constraint`, a machine step: a
 * candidate no assignment of the line's cells keeps the rule with, found
 * by a bounded enumeration.  Its weight puts it with trial: a grade whose
 * path needs it is beyond the techniques, and the API says so (its
 * `signal` is then the search's).  Placing a digit does not apply line
 * rules: these steps do, easiest first like the others.
 *
 * Techniques, easiest first (the engine always takes the first one that
 * makes progress, then starts again from the top):
 *
 *   full-house 1.0, naked-single 1.2, hidden-single 1.5,
 *   cage-combination 1.6, consecutive 1.7, pair-relation 1.8,
 *   thermo 1.9 (variants with those rules only)                  easy
 *   pointing 2.0, arrow 2.1, claiming 2.2, cage-locked 2.3,
 *   naked-pair 2.4, hidden-pair 2.6, innies-outies 2.8           medium
 *   naked-triple 3.0, cage-splitting 3.1, x-wing 3.2, hidden-triple 3.4,
 *   finned-x-wing 3.5, xy-wing 3.6, xyz-wing 3.8                  hard
 *   naked-quad 4.0, swordfish 4.2, finned-swordfish 4.3,
 *   hidden-quad 4.4, unique-rectangle 4.6, jellyfish 4.8,
 *   finned-jellyfish 4.9, simple-colouring 5.0, bug-plus-1 5.1,
 *   x-chain 5.2-5.9 (by length)                                   expert
 *   xy-chain 6.0-6.9 (by length), als-xz 6.2, als-xy-wing 6.5,
 *   aic 7.0-9.9, grouped-aic 7.3-9.9 (by length),
 *   cell-forcing-chain 8.2, unit-forcing-chain 8.4,
 *   dynamic-forcing-chain 9.0                                     extreme
 *   constraint 10.0 (line rules without a person's technique),
 *   trial 10.0 (a contradiction by singles) / 10.5 (by the medium
 *   techniques and the line techniques), nested-forcing-chain 10.8
 *   (trial with singles trials inside), guess 11.0               beyond-logic
 *
 * The numbers are the weights of the rating scale (after Sudoku Explainer's,
 * reordered so that the levels are bands of it).  A finned fish (sashimi
 * ones too: the name says finned, the explanation says sashimi) weighs a
 * tenth above the plain fish of its size, as in Sudoku Explainer (x-wing
 * 3.2, finned 3.4) and HoDoKu (finned after basic, before the next size),
 * kept in the basic fish's level.  bug-plus-1 sits where Sudoku Explainer
 * puts it (5.6: after the jellyfish, before the chains), so 5.1 here.  rating = weight of the
 * hardest step + a fraction that grows with the number of hard steps: below
 * 0.1 up to extreme, below 1.0 from trial on, so the hardest technique
 * decides the order between levels and the amount of hard work the order
 * within one.  Levels by rating: easy < 2, medium < 3, hard < 4, expert < 6,
 * extreme < 10, beyond-logic >= 10.  No clock enters a grade: the chain
 * searches have work budgets counted in nodes, so the same puzzle always
 * gets the same grade.
 *
 * unique-rectangle and bug-plus-1 presume the puzzle has one solution
 * (opts.assume_unique);
 * trial, nested-forcing-chain and guess need the solution (opts.solution)
 * to choose which candidate to refute and, last, which value to place: a
 * trial or nested step is a real proof (assume the candidate, a
 * contradiction follows), a guess is not and says so.
 *
 * Memory: sudoku_logic_new() allocates one block for a shape (and a model
 * of it), through the caller's allocator if it gives one
 * (sudoku_logic_new_alloc); nothing is allocated afterwards.  Thread-safety: a state belongs
 * to one thread; no globals. */
#ifndef PUZZLED_SUDOKU_LOGIC_H
#define PUZZLED_SUDOKU_LOGIC_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"
#include "solvers/sudoku/model.h"
#include "solvers/sudoku/sudoku.h"

#define SUDOKU_LOGIC_MAX_N 25
/* Items (placements, eliminations, proof cells and candidates) one step
 * records at most; a step that would have more records fewer eliminations
 * (still sound) and fewer proof items. */
#define SUDOKU_LOGIC_STEP_ITEMS 1024
/* Default work budget of one chain search (nodes expanded); see opts. */
#define SUDOKU_LOGIC_CHAIN_BUDGET 200000u
/* A nested forcing chain's budget, in chain budgets (trial.c prices it):
 * 16 is four times the most one took on the forum's hardest 9x9 puzzles
 * (0.82 of a chain budget); a 9x9 search that finds none stops after
 * about 0.15 s (estimated from the 22M units/s the forum's hardest graded
 * at, not timed). */
#define SUDOKU_LOGIC_NESTED_BUDGET 16u

/* Error code beyond SEARCH_*: the candidates contradict (a cell without a
 * candidate, a digit without a place in a unit). */
#define SUDOKU_LOGIC_ECONTRA (-20)

typedef enum sudoku_tech_e {
    SUDOKU_TECH_FULL_HOUSE = 0,
    SUDOKU_TECH_NAKED_SINGLE,
    SUDOKU_TECH_HIDDEN_SINGLE,
    SUDOKU_TECH_CAGE_COMBINATION, /* killer cages: the digits their combinations use */
    SUDOKU_TECH_CONSECUTIVE,      /* pair rules: consecutive marks, non-consecutive pairs */
    SUDOKU_TECH_PAIR_RELATION,    /* pair lines: kropki, X/V, whisper, palindrome, anti-knight... */
    SUDOKU_TECH_THERMO,           /* pair lines that order: thermometers, greater-than */
    SUDOKU_TECH_POINTING,
    SUDOKU_TECH_ARROW, /* arrows: the circle is the sum of the arrow */
    SUDOKU_TECH_CLAIMING,
    SUDOKU_TECH_CAGE_LOCKED, /* a digit every combination of a cage needs */
    SUDOKU_TECH_NAKED_PAIR,
    SUDOKU_TECH_HIDDEN_PAIR,
    SUDOKU_TECH_INNIES_OUTIES, /* killer cages: the 45 rule over a unit, or 2-3 rows/columns */
    SUDOKU_TECH_NAKED_TRIPLE,
    SUDOKU_TECH_CAGE_SPLITTING, /* killer cages cut at a unit's edge: inside less outside parts */
    SUDOKU_TECH_X_WING,
    SUDOKU_TECH_HIDDEN_TRIPLE,
    SUDOKU_TECH_FINNED_X_WING, /* sashimi too: fins in one box */
    SUDOKU_TECH_XY_WING,
    SUDOKU_TECH_XYZ_WING,
    SUDOKU_TECH_NAKED_QUAD,
    SUDOKU_TECH_SWORDFISH,
    SUDOKU_TECH_FINNED_SWORDFISH,
    SUDOKU_TECH_HIDDEN_QUAD,
    SUDOKU_TECH_UNIQUE_RECTANGLE,
    SUDOKU_TECH_JELLYFISH,
    SUDOKU_TECH_FINNED_JELLYFISH,
    SUDOKU_TECH_SIMPLE_COLOURING,
    SUDOKU_TECH_BUG_PLUS_1, /* bivalue universal grave + 1: presumes uniqueness */
    SUDOKU_TECH_X_CHAIN,
    SUDOKU_TECH_XY_CHAIN,
    SUDOKU_TECH_ALS_XZ,      /* two almost locked sets and a restricted common value */
    SUDOKU_TECH_ALS_XY_WING, /* three almost locked sets */
    SUDOKU_TECH_AIC,
    SUDOKU_TECH_GROUPED_AIC,           /* AIC (x-chains too) whose nodes may be groups of cells */
    SUDOKU_TECH_CELL_FORCING_CHAIN,    /* every value of a cell leads to the same, by singles */
    SUDOKU_TECH_UNIT_FORCING_CHAIN,    /* every place of a value in a unit leads to the same */
    SUDOKU_TECH_DYNAMIC_FORCING_CHAIN, /* either, followed by the medium techniques */
    SUDOKU_TECH_CONSTRAINT, /* a line's own consistency, by enumeration: a machine step */
    SUDOKU_TECH_TRIAL,
    SUDOKU_TECH_NESTED_FORCING_CHAIN, /* trial whose world is searched by trials too */
    SUDOKU_TECH_GUESS,
    SUDOKU_TECH_COUNT
} sudoku_tech_t;

typedef enum sudoku_grade_level_e {
    SUDOKU_GRADE_EASY = 0,
    SUDOKU_GRADE_MEDIUM,
    SUDOKU_GRADE_HARD,
    SUDOKU_GRADE_EXPERT,
    SUDOKU_GRADE_EXTREME,
    SUDOKU_GRADE_BEYOND,
    SUDOKU_GRADE_COUNT
} sudoku_grade_level_t;

/* "full-house", "x-wing", ...; NULL out of range.  parse: 0 or SEARCH_EINVAL. */
const char *sudoku_tech_name(sudoku_tech_t t);
int sudoku_tech_parse(const char *name, sudoku_tech_t *out);
/* The base weight of a technique on the rating scale (chains add by length). */
double sudoku_tech_weight(sudoku_tech_t t);
/* The level a technique belongs to. */
sudoku_grade_level_t sudoku_tech_level(sudoku_tech_t t);
/* "easy" .. "extreme", "beyond-logic"; parse: 0 or SEARCH_EINVAL. */
const char *sudoku_grade_level_name(sudoku_grade_level_t l);
int sudoku_grade_level_parse(const char *name, sudoku_grade_level_t *out);
/* The level of a rating (the bands above), and a level's band [lo, hi). */
sudoku_grade_level_t sudoku_grade_level_of(double rating);
void sudoku_grade_level_band(sudoku_grade_level_t l, double *lo, double *hi);
/* Whether some grade of a puzzle without line rules (the generators'
 * puzzles: they take no lines) can have a rating in [lo, hi): a rating is the
 * weight w of its hardest step (a technique's base weight, plus what
 * chains add by length and trial by depth) plus less than 0.099 (0.99 from
 * 10 on), or 0 for a grid with nothing to do; the scale has gaps between
 * (1.1 to 1.2, 1.3 to 1.5, ...; the line techniques' weights are left
 * out).  1 or 0: a window that misses every such interval can never be
 * met, whatever the puzzle. */
int sudoku_grade_rating_possible(double lo, double hi);
/* The same for a Killer's grade (killer/generate.c): the cage techniques
 * (cage-combination, cage-locked, innies-outies) count too. */
int sudoku_grade_rating_possible_cages(double lo, double hi);
/* The hardest technique of a level (trial for beyond-logic; guess is never
 * used as a bound). */
sudoku_tech_t sudoku_grade_level_top(sudoku_grade_level_t l);

/* === Steps ============================================================== */

typedef enum sudoku_item_kind_e {
    SUDOKU_ITEM_PLACE = 0, /* cell := value */
    SUDOKU_ITEM_ELIM = 1,  /* value leaves cell's candidates */
    SUDOKU_ITEM_CELL = 2,  /* a cell that proves the step (value 0) */
    SUDOKU_ITEM_CAND = 3   /* a candidate that proves it; chains list their nodes in order */
} sudoku_item_kind_t;

typedef struct sudoku_logic_item_s {
    uint16_t cell; /* r*n + c */
    uint8_t value; /* 1..n (0 for CELL, but grouped-aic's group markers) */
    uint8_t kind;  /* sudoku_item_kind_t */
} sudoku_logic_item_t;

/* One step.  What each technique puts in digit / digits / unit / size, for
 * explanations (units as above, -1 = none):
 *   full-house      digit; unit[0] the unit
 *   naked-single    digit
 *   hidden-single   digit; unit[0] the unit where it has one place
 *   consecutive     CELL item = the cell whose candidates rule, its CAND
 *                   items, then the eliminations from its partners
 *   pointing        digit; unit[0] the box, unit[1] the row/column
 *   claiming        digit; unit[0] the row/column, unit[1] the box
 *   naked-*, hidden-*  digits; size; unit[0] the unit
 *   x-wing, swordfish, jellyfish  digit; size; unit[0] the first base line
 *                   (its kind says rows or columns); CELL items = base cells
 *   finned-x-wing, finned-swordfish, finned-jellyfish  the same, unit[1] the
 *                   first cover line; CELL items = every base cell, fins
 *                   included; CAND items = the fins (base cells outside the
 *                   cover); eliminations only in cover cells that see every fin
 *   xy-wing, xyz-wing  digit = the digit removed; CELL items pivot first
 *   unique-rectangle   digits = the pair; CELL items = the four corners
 *   bug-plus-1      digit = the value placed; PLACE item; CELL item = the
 *                   one cell with three candidates, its CAND items
 *   simple-colouring   digit; size = how many CAND items have the first
 *                   colour (they come first); unit[0] = 0 (two cells of one
 *                   colour see each other: that colour goes) or 1 (cells
 *                   that see both colours lose the digit)
 *   x-chain, xy-chain, aic   CAND items = the chain's nodes in order, the
 *                   first link strong, then weak and strong alternating
 *                   (in xy-chain the strong links are inside cells); size =
 *                   number of nodes; digit = the digit removed when one
 *   cage-combination  line = the cage; digits = what its sets that fit
 *                   use; size = its open cells; CELL items = its cells
 *   cage-locked     line; digit = the digit every set holds; digits =
 *                   all such; CELL and CAND items = its places in the cage
 *   innies-outies   unit[0] the unit, or the first of a union of
 *                   neighbouring rows or columns and unit[1] its last
 *                   (-1 for one unit); digit 0 innies, 1 outies; digits =
 *                   the total the cells make (a number, not a mask);
 *                   size = how many; CELL items = those cells
 *   cage-splitting  as innies-outies, digit 2: the cages that cross the
 *                   set's edge cut there, the smaller part of each read;
 *                   CELL items = the cells, value 1 for those of parts
 *                   beyond the set (counted negatively); digits = the
 *                   total, an int32_t (it may be negative)
 *   pair-relation   line = the first line that removes; CELL item = the
 *                   cell whose candidates (or value) rule, its CAND items
 *   thermo          line = the web's first line; CELL items = the cells
 *                   of every order line joined to it
 *   arrow           line; size = heads; CELL items = its cells
 *   constraint      line; CELL items = its cells
 *   als-xz          digits = the restricted common value(s) x (two when
 *                   doubly linked: then each set also locks its other
 *                   digits by itself); digit = the value removed (0 when
 *                   several); parts[0], parts[1] = the sizes of the two
 *                   sets; ELIM items, then CELL items = the first set's
 *                   cells, then the second's
 *   als-xy-wing     the same with three sets (parts[2]: the pivot set C,
 *                   whose cells come last; A shares x with C, B shares y);
 *                   digits = x | y
 *   grouped-aic     as aic (CELL items = every cell of the chain, value 0,
 *                   then the nodes in order), but a group node is a CELL
 *                   item whose value is its number of cells k (2 or more:
 *                   the digit's places in the intersection of two units,
 *                   e.g. a box and a row), cell = its first cell, then its
 *                   k CAND items (one digit); a CAND item not after such a
 *                   marker is a node alone.  size counts nodes, a group as
 *                   one; the chain has at least one group
 *   cell-forcing-chain, unit-forcing-chain, dynamic-forcing-chain
 *                   size 0 (singles) or 1 (medium techniques); unit[0]
 *                   = the unit (unit forcing: digit = the value whose
 *                   places are the branches), -1 for a cell; CAND items =
 *                   the branches (each one assumed in turn); PLACE and
 *                   ELIM items what every branch concludes
 *   trial           digit; size 0 (singles) or 1 (medium techniques); the
 *                   ELIM item is the candidate refuted, CAND the one assumed
 *   nested-forcing-chain  as trial, size 2
 *   guess           digit; the PLACE item */
typedef struct sudoku_logic_step_s {
    uint8_t tech;    /* sudoku_tech_t */
    uint8_t trial;   /* 1 for trial, nested-forcing-chain and guess */
    uint8_t digit;   /* 1..n or 0 */
    uint8_t size;    /* see above */
    uint32_t digits; /* bit d-1 = digit d */
    int16_t unit[2];
    int16_t line;     /* the line rule (model.h) the step reads, -1 none */
    uint8_t parts[3]; /* almost locked sets: how many CELL items each set has */
    uint16_t nitems;
    double weight; /* this step's difficulty on the rating scale */
    sudoku_logic_item_t items[SUDOKU_LOGIC_STEP_ITEMS];
} sudoku_logic_step_t;

/* === State ============================================================== */

typedef struct sudoku_logic_s sudoku_logic_t;

/* Allocates a state for `shape` (n <= SUDOKU_LOGIC_MAX_N).  Returns NULL
 * when out of memory or for a shape it does not take; free with
 * sudoku_logic_free (NULL is a no-op). */
sudoku_logic_t *sudoku_logic_new(const sudoku_shape_t *shape);

/* The same for a model (n <= SUDOKU_LOGIC_MAX_N), which must outlive the
 * state: grids, cells and units are the model's (frame-sized grids, 0 on
 * holes), its line rules read as above. */
sudoku_logic_t *sudoku_logic_new_model(const sudoku_model_t *m);

/* Both through an allocator (NULL: malloc / free; the server passes its
 * control block's, which charges the work memory budget: the state is
 * the engine's scratch, with its model 0.3 MiB on 9x9, 1.1 MiB on 12x12
 * (the forcing memo), 1.2 MiB on 25x25).  sudoku_logic_free() frees
 * through it. */
sudoku_logic_t *sudoku_logic_new_alloc(const sudoku_shape_t *shape,
                                       const search_allocator_t *alloc);
sudoku_logic_t *sudoku_logic_new_model_alloc(const sudoku_model_t *m,
                                             const search_allocator_t *alloc);

/* The model the state reasons on (for a shape: the classic model it made),
 * to name units and cells. */
const sudoku_model_t *sudoku_logic_model(const sudoku_logic_t *st);
void sudoku_logic_free(sudoku_logic_t *st);

/* Loads a grid: filled cells are placed, every other cell gets the values
 * its units (its parity and its pair rules) allow.  Returns 0, SEARCH_EINVAL
 * (a value > n, a value on a hole) or SUDOKU_ECONFLICT (two equal values in
 * a unit, a rule broken; the state is then unusable until the next load). */
int sudoku_logic_load(sudoku_logic_t *st, const uint8_t *grid);

/* Narrows cell's candidates to mask (bit d-1 = digit d) intersected with
 * what it has (a player's pencil marks).  Returns 0, SEARCH_EINVAL for a
 * placed cell or a cell out of range, SUDOKU_LOGIC_ECONTRA when nothing
 * would be left. */
int sudoku_logic_restrict(sudoku_logic_t *st, int cell, uint32_t mask);

/* Reading the state. */
int sudoku_logic_n(const sudoku_logic_t *st);
int sudoku_logic_empty(const sudoku_logic_t *st);                /* cells left */
uint32_t sudoku_logic_cand(const sudoku_logic_t *st, int cell);  /* 0 when placed */
void sudoku_logic_grid(const sudoku_logic_t *st, uint8_t *grid); /* frame: n*n on a shape */
/* SUDOKU_LOGIC_ECONTRA if a cell has no candidate or a unit has no place
 * for a missing digit, else 0. */
int sudoku_logic_check(const sudoku_logic_t *st);

/* === Solving ============================================================ */

typedef struct sudoku_logic_opts_s {
    sudoku_tech_t max_tech;  /* techniques above it are not tried (default GUESS: all) */
    int assume_unique;       /* allow unique-rectangle (default 0) */
    const uint8_t *solution; /* grid-sized, needed for trial and guess (NULL: none) */
    uint64_t chain_budget;   /* nodes one chain search (or machine look) may expand (0 = default) */
    const search_ctl_t *ctl; /* deadline / cancel, polled between steps and in searches */
    /* Called with every step before it is applied (NULL = none).  A nonzero
     * return stops the solve with that code. */
    int (*on_step)(void *ud, const sudoku_logic_t *st, const sudoku_logic_step_t *step);
    void *ud;
} sudoku_logic_opts_t;

/* Defaults: every technique, no uniqueness assumption, no solution, default
 * budget, no limits, no callback. */
void sudoku_logic_opts_init(sudoku_logic_opts_t *opts);

/* Finds the easiest step from the current state into *step (not applied).
 * Returns 1 when found, 0 when nothing applies within opts->max_tech (or the
 * grid is full), SUDOKU_LOGIC_ECONTRA when the singles scans meet a
 * contradiction (a cell without candidates, a digit without a place; a
 * single found earlier in the scan wins, so call sudoku_logic_check() for a
 * full check of a position from outside), or a SEARCH_* stop code.  *work (may be NULL) gets the
 * nodes the searches expanded added to it. */
int sudoku_logic_next(sudoku_logic_t *st, const sudoku_logic_opts_t *opts,
                      sudoku_logic_step_t *step, uint64_t *work);

/* How many of a step's placements and eliminations contradict `solution`
 * (grid-sized): a placement of another digit, an elimination of its own.
 * 0 for a sound step; for the tests and benchmarks that check every step
 * of a path. */
int sudoku_logic_step_wrong(const sudoku_logic_step_t *step, const uint8_t *solution);

/* Applies a step's placements and eliminations.  Returns 0, or
 * SUDOKU_LOGIC_ECONTRA when that leaves a contradiction. */
int sudoku_logic_apply(sudoku_logic_t *st, const sudoku_logic_step_t *step);

typedef struct sudoku_grade_s {
    int code;            /* what sudoku_logic_grade returned */
    int solved;          /* 1: no cell is left */
    int solved_by_logic; /* solved without trial, nested chain or guess */
    double rating;       /* see the top of this file (0 when nothing was needed) */
    sudoku_grade_level_t level;
    sudoku_tech_t hardest; /* the heaviest step (FULL_HOUSE when none) */
    uint32_t steps;
    uint32_t counts[SUDOKU_TECH_COUNT];
    uint64_t work; /* nodes the technique searches expanded */
} sudoku_grade_t;

/* Runs the engine from the current state until the grid is full or nothing
 * within opts->max_tech applies, and grades the path.  Returns (also in
 * g->code) 0 (g->solved says whether the grid was finished),
 * SUDOKU_LOGIC_ECONTRA, a SEARCH_* stop code, or the callback's code.  The
 * state is left where the solve stopped. */
int sudoku_logic_grade(sudoku_logic_t *st, const sudoku_logic_opts_t *opts, sudoku_grade_t *g);

/* Whether naked and hidden singles alone fill `puzzle` (grid-sized; with
 * a model's pair rules applied from each decided cell) -- a fast check (no
 * steps recorded) for generators; out (grid-sized, may be NULL) gets the
 * grid where propagation stopped.  Returns 1 solved, 0 stuck,
 * SUDOKU_LOGIC_ECONTRA on a contradiction (givens that clash included),
 * SEARCH_EINVAL for a value > n.  The state's grid is not changed. */
int sudoku_logic_singles(sudoku_logic_t *st, const uint8_t *puzzle, uint8_t *out);

/* The same with naked singles alone. */
int sudoku_logic_naked(sudoku_logic_t *st, const uint8_t *puzzle);

/* Loads `puzzle` and applies naked and hidden singles to their fixed
 * point without recording steps (the generator's test: faster than a
 * load and a graded run).  Returns 1 when that fills the grid, 0 when it
 * stops, SUDOKU_LOGIC_ECONTRA on a contradiction (givens that clash
 * included) or SEARCH_EINVAL (a value > n); on 0 and 1 the state holds the
 * result. */
int sudoku_logic_load_singles(sudoku_logic_t *st, const uint8_t *puzzle);

#endif
