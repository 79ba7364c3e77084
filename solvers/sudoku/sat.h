/* sudoku/sat.h -- a CDCL engine whose native constraints are exactly-one
 * groups of literals; learned clauses on top.  Internal to the sudoku module
 * (sudoku/cdcl.c encodes a grid into it); knows nothing of grids.
 *
 * Problem: variables 0..nvars-1, literal 2v (v true) and 2v+1 (v false).
 * Constraints are groups: "exactly one literal of this list is true", each
 * literal list given once before the search.  A Sudoku has four families (a
 * cell has one value; a value sits once in each row, column and box).
 * Clauses arise from learning, from excluding found models, and from
 * the caller at the root (another portfolio member's learned clauses).
 *
 * Why groups and not clauses: "exactly one of n" as CNF is one clause of n
 * literals plus n(n-1)/2 binary ones, so every variable of a 25x25 grid sits
 * in 96 binary clauses and a general solver walks those watch lists.  Here a
 * true literal sweeps its groups once (at most one), and a false one lowers a
 * counter per group (at least one); the group's clauses are implied and
 * appear in conflict analysis as reasons without ever being stored.
 *
 * Memory: everything lives in one block the caller allocates, of
 * sudoku__sat_bytes() bytes, laid out by sudoku__sat_init(); the search
 * allocates nothing.  Learned clauses live in an arena of a fixed number of
 * words; when it fills, the database is reduced and compacted, and a clause
 * that still does not fit stops the search with SEARCH_BUDGET.
 *
 * External propagators (sudoku__sat_ext_t, for killer/lcg.c): a caller
 * with constraints the engine does not know attaches one.  At each fixpoint
 * of the engine's own propagation it is shown the new trail literals and
 * may imply literals, each with its explanation (a clause whose other
 * literals are false), or report a conflict clause; explanations are kept
 * in the caller's record stack until their level is undone, and conflict
 * analysis reads them as it reads clauses (lazy clause generation, as in
 * Chuffed: the propagator's reasoning is learned from, never stored as
 * CNF).  A Sudoku solve attaches none and pays one NULL test per fixpoint,
 * decision and backtrack.
 *
 * Thread-safety: one engine belongs to one thread; different engines on the
 * same group table may run concurrently (the table is read only). */
#ifndef PUZZLED_SUDOKU_SAT_H
#define PUZZLED_SUDOKU_SAT_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"

#define SUDOKU__SAT_SAT   1 /* sudoku__sat_solve(): a model is on the trail */
#define SUDOKU__SAT_UNSAT 2 /* no (further) model: the search space is exhausted */

#define SUDOKU__SAT_YIELD 3 /* sudoku__sat_solve(): restarted, at the root (cfg.yield) */

#define SUDOKU__SAT_GROUP_MAX 64 /* literals in one group (a uint64_t mask each) */

/* Exported clauses: records of SUDOKU__SAT_XWORDS words, [size | lbd << 8]
 * [free for the caller][literals]; clauses of at most
 * SUDOKU__SAT_XWORDS - 2 literals qualify. */
#define SUDOKU__SAT_XWORDS 16
#define SUDOKU__SAT_XRECS  1024 /* records the export buffer holds */

/* Heuristic knobs; sudoku__sat_config_init() gives the default, and a
 * portfolio varies them per thread. */
typedef struct sudoku__sat_config_s {
    uint64_t seed;             /* 0: deterministic; else the random stream's seed */
    int luby;                  /* 0: restarts when recent learned-clause quality drops
                                  (glucose-style moving averages); 1: Luby x restart_unit */
    uint32_t restart_unit;     /* conflicts, Luby only */
    uint32_t restart_min;      /* moving averages: at least this many conflicts apart */
    double restart_margin;     /* moving averages: restart when the recent LBD average
                                  exceeds the long one by this factor */
    int phase;                 /* initial phase: 1 true, 0 false */
    int phase_saving;          /* 1: a variable is decided as it was last assigned; 0: always
                                  as `phase` says */
    double var_decay;          /* VSIDS decay, e.g. 0.95 */
    uint32_t reduce_first;     /* conflicts before the first clause-database reduction */
    uint32_t reduce_inc;       /* added to the interval at each reduction */
    uint32_t reduce_pct;       /* % of the deletable learned clauses a reduction deletes */
    uint32_t keep_lbd;         /* a clause used since the last reduction is kept if its LBD
                                  is at most this */
    int target;                /* 1: decisions follow target phases (sat.c) */
    uint32_t rephase_interval; /* conflicts between forgetting the target */
    int yield;                 /* 1: sudoku__sat_solve() returns SUDOKU__SAT_YIELD after each
                                  restart (the caller imports at the root and calls again) */
    uint32_t export_size;      /* learned clauses of at most this many literals go to the
                                  export buffer (0: none; at most SUDOKU__SAT_XWORDS - 2) */
    uint32_t random_freq;      /* a random decision every random_freq decisions; 0 never */
    int minimise;              /* 1: drop learned literals implied by the others (recursive) */
    int shrink;                /* 1: shrink learned clauses (one literal per level when the
                                  level's reasons allow) after minimising them */
} sudoku__sat_config_t;

void sudoku__sat_config_init(sudoku__sat_config_t *cfg);

typedef struct sudoku__sat_stats_s {
    uint64_t decisions;    /* branching choices */
    uint64_t conflicts;    /* contradictions analysed */
    uint64_t propagations; /* literals set by inference (groups and clauses) */
    uint64_t learned;      /* clauses learned (units included) */
    uint64_t learned_lits; /* their literals, after minimisation */
    uint64_t minimised;    /* literals minimisation removed */
    uint64_t shrunk;       /* literals shrinking removed */
    uint64_t exported;     /* clauses written to the export buffer */
    uint64_t imported;     /* clauses added by sudoku__sat_add() as learned */
    uint64_t restarts;
    uint64_t rephases;
    uint64_t reductions; /* clause-database reductions */
    uint64_t deleted;    /* learned clauses those reductions removed */
    uint32_t max_level;  /* deepest decision level */
} sudoku__sat_stats_t;

/* An external propagator: the caller's memory, attached with
 * sudoku__sat_attach() before the first sudoku__sat_fix() or solve.
 *   propagate  called at each fixpoint of the engine's propagation: reads
 *              s->val and the trail from `head` on (advancing head), and
 *              may call sudoku__sat_imply() / sudoku__sat_conflict().
 *              Returns 0 after implying something, or with nothing left to
 *              do (the engine calls again while literals keep coming), or
 *              -1 after sudoku__sat_conflict() (or an imply that found its
 *              literal false).  The literals it reads from the trail are
 *              the engine's; it must not assign any other way.
 *   undo       called when the engine takes back trail literals the
 *              propagator has seen (lits[0..n), oldest first); the engine
 *              then lowers head to the trail's new length.
 * The record stack rec[0..cap) holds explanations ([size][implied literal]
 * [the others]) and conflict clauses ([size][literals]); lvl[nvars + 1]
 * remembers its height at each decision, so backtracking drops the records
 * of the levels undone.  An implication that does not fit below cap -
 * reserve is dropped (skipped counts them: propagation may be incomplete,
 * never wrong, as long as the propagator detects every violated constraint
 * on a complete assignment); a conflict may use the reserve, which must
 * hold the largest conflict clause plus one word (nvars + 1 suffices).
 * Level-0 implications and conflicts need no record. */
struct sudoku__sat_s;
typedef struct sudoku__sat_ext_s {
    int (*propagate)(void *ud, struct sudoku__sat_s *s);
    void (*undo)(void *ud, const uint32_t *lits, uint32_t n);
    void *ud;
    uint32_t head; /* trail literals shown to the propagator */
    uint32_t *rec; /* record stack, cap words (cap < 2^30) */
    size_t len, cap, reserve;
    size_t *lvl;      /* [nvars + 1] len when each level opened */
    uint32_t confl;   /* offset of the conflict record, UINT32_MAX: none (level 0) */
    uint64_t skipped; /* implications dropped for want of room */
} sudoku__sat_ext_t;

typedef struct sudoku__sat_watch_s {
    uint32_t cref;    /* clause offset in the arena */
    uint32_t blocker; /* a literal of the clause: if true, the clause is satisfied */
} sudoku__sat_watch_t;

/* The engine.  Fields are the engine's; sudoku/cdcl.c reads val[] (the
 * model) and stats, nothing else. */
typedef struct sudoku__sat_s {
    sudoku__sat_config_t cfg;
    sudoku__sat_stats_t stats;
    uint32_t nvars, nlits, ngroups;
    /* groups (read only, shared): group g = glits[gstart[g] .. gstart[g+1]) */
    const uint32_t *gstart, *glits;
    /* occurrences of literal l: occ[ostart[l] .. ostart[l+1]), each g << 6 | j
     * (l is the j-th literal of group g) */
    uint32_t *ostart, *occ;
    /* gmask[g]: bit j set while the j-th literal of group g is not false */
    uint64_t *gmask;
    /* assignment */
    int8_t *val;      /* [nlits] 1 true, -1 false, 0 unassigned */
    uint32_t *level;  /* [nvars] */
    uint32_t *reason; /* [nvars] see sat.c: REASON_* tags */
    uint32_t *trail;  /* [nvars] literals made true, in order */
    uint32_t *lim;    /* [nvars + 1] trail length when each level opened */
    uint32_t ntrail, qhead, nlevel;
    /* decisions */
    double *act; /* [nvars] VSIDS activity */
    double var_inc;
    uint32_t *heap, *hpos; /* max-heap of variables by act; hpos UINT32_MAX = out */
    uint32_t nheap;
    uint8_t *phase;  /* [nvars] saved phase: 1 true */
    uint8_t *tphase; /* [nvars] target phase: 1 true, 0 false, 2 none */
    uint32_t target_len;
    uint64_t next_rephase;
    uint64_t rng;
    /* analysis scratch */
    uint8_t *seen;      /* [nvars] */
    uint32_t *learnt;   /* [nvars + 1] */
    struct dfs_s *dfs;  /* [nvars] minimisation's walk (sat.c) */
    uint32_t *toclear;  /* [nvars] */
    uint32_t *lvlstamp; /* [nvars + 1] LBD computation */
    uint32_t *tpos;     /* [nvars] trail position of each assigned variable */
    uint8_t *smark;     /* [nvars] shrinking: in the block being resolved */
    uint32_t *slist;    /* [nvars] shrinking: the variables marked */
    uint64_t *keys;     /* [nvars] shrinking: learned literals by level, position */
    uint32_t stamp;
    /* clause arena and watches */
    uint32_t *arena;
    size_t arena_len, arena_cap, arena_wasted;
    sudoku__sat_watch_t *wpool;
    size_t wpool_len, wpool_cap;
    uint32_t *wl;     /* [3 * nlits]: begin, length, capacity of lit's list */
    uint32_t nlearnt; /* learned clauses alive */
    /* schedules */
    uint64_t next_reduce, reduce_interval;
    uint64_t restart_at, luby_index;
    double ema_fast, ema_slow;
    uint64_t conflicts_since_restart;
    uint64_t ticks, next_poll; /* propagation work, for polling the clock */
    int unsat;                 /* the formula became unsatisfiable */
    /* export buffer: xlen records of SUDOKU__SAT_XWORDS words; the caller
     * drains it (reads the records, sets xlen = 0) */
    uint32_t *xbuf;
    uint32_t xlen;
    sudoku__sat_ext_t *ext; /* NULL: none (sudoku__sat_attach) */
} sudoku__sat_t;

/* Bytes of the block for nvars variables, ngroups groups holding nglits
 * literals in all, and arena_words words of clause arena. */
size_t sudoku__sat_bytes(uint32_t nvars, uint32_t ngroups, uint32_t nglits, size_t arena_words);

/* Lays the engine out in mem (16-aligned, sudoku__sat_bytes() bytes) over
 * the group table gstart[ngroups+1] / glits (kept by pointer: the caller
 * keeps it alive and unchanged).  Every literal of a group must be of a
 * distinct variable.  Nothing is assigned yet. */
void sudoku__sat_init(sudoku__sat_t *s, void *mem, uint32_t nvars, uint32_t ngroups,
                      const uint32_t *gstart, const uint32_t *glits, size_t arena_words,
                      const sudoku__sat_config_t *cfg);

/* Makes literal lit true at level 0 (a given) and propagates.  Returns 0,
 * or -1 when the formula is now unsatisfiable (every later
 * sudoku__sat_solve() then answers SUDOKU__SAT_UNSAT).  Only before the
 * first sudoku__sat_solve(). */
int sudoku__sat_fix(sudoku__sat_t *s, uint32_t lit);

/* Searches for a model.  Returns SUDOKU__SAT_SAT (val[] holds a complete
 * assignment satisfying every group and clause), SUDOKU__SAT_UNSAT (none is
 * left), or SEARCH_TIMEOUT / SEARCH_CANCELLED / SEARCH_BUDGET (ctl stopped
 * it, or the clause arena is full; ctl may be NULL).  The node budget counts
 * decisions: at most ctl->node_budget are made in all. */
int sudoku__sat_solve(sudoku__sat_t *s, const search_ctl_t *ctl);

/* Adds a clause at the root (level 0: before a search, after
 * SUDOKU__SAT_YIELD, or after sudoku__sat_root()): literals false at the
 * root are dropped, a clause true there is ignored, a unit is made true
 * (propagated by the next solve).  learnt: 0 = part of the problem (never
 * deleted), 1 = implied by it (deleted at reductions like learned clauses,
 * with this LBD).  Returns 0, -1 when the formula became unsatisfiable, or
 * SEARCH_BUDGET when the arena has no room. */
int sudoku__sat_add(sudoku__sat_t *s, const uint32_t *lits, uint32_t size, uint32_t lbd,
                    int learnt);

/* Backtracks to the root (after SUDOKU__SAT_SAT, to add clauses). */
void sudoku__sat_root(sudoku__sat_t *s);

/* After SUDOKU__SAT_SAT: excludes the model found (a clause negating its
 * decisions: the decisions alone propagate to that model, so the clause
 * excludes exactly it) and backtracks so that the next sudoku__sat_solve()
 * looks for another.  Returns 0, SUDOKU__SAT_UNSAT (the model was forced:
 * no other exists) or SEARCH_BUDGET (no room in the arena). */
int sudoku__sat_block(sudoku__sat_t *s);

/* Attaches external propagator x (see sudoku__sat_ext_t; its head, len,
 * confl and skipped are reset here) before the first sudoku__sat_fix() or
 * sudoku__sat_solve(). */
void sudoku__sat_attach(sudoku__sat_t *s, sudoku__sat_ext_t *x);

/* From an external propagator: makes lit true, explained by expl[0..n)
 * (literals all false now: the clause lit | expl is implied by the
 * problem).  Returns 0 (done, or lit was already true), 1 when the
 * explanation did not fit (nothing done; see sudoku__sat_ext_t), or -1
 * when lit is false: a conflict (lit | expl) is then recorded, and the
 * propagator must return -1. */
int sudoku__sat_imply(sudoku__sat_t *s, uint32_t lit, const uint32_t *expl, uint32_t n);

/* From an external propagator: records the conflict clause lits[0..n) (all
 * false now, implied by the problem); the propagator then returns -1. */
void sudoku__sat_conflict(sudoku__sat_t *s, const uint32_t *lits, uint32_t n);

#endif
