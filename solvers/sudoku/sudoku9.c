/* sudoku9.c -- the fast 9x9 Sudoku solver ("fast" method, sudoku9.h).
 *
 * Why a separate solver: most traffic is 9x9, and the general N x N methods
 * (sudoku/prop.c) pay for their generality with per-cell candidate arrays and
 * unit lists.  Here every 9x9-specific fact lives in a few small const tables
 * (sudoku9_tables.h, written by tools/gen_sudoku9_tables.c from their
 * definitions).  Measurements, and the designs tried and rejected, are in
 * docs/sudoku9-tuning.md; this comment keeps the design.
 *
 * Representation
 * --------------
 * The grid is cut into three bands of three rows.  For each band b (0..2)
 * and digit d (0..8) one 27-bit word f[9*b+d] holds the cells of the band
 * where d is still possible; bit p = 9*(row in band) + column:
 *
 *     bit:  26 ............ 18 17 ............ 9  8 ............ 0
 *          | row 2 of band b  | row 1 of band b  | row 0 of band b  |
 *           c8 c7 c6 ... c1 c0  (each row: box 2 = bits 6-8, box 1 = 3-5,
 *                                box 0 = 0-2)
 *
 * Band-major order puts a band's nine words side by side, so a placement
 * clears its cell from all of them with one or two vector operations.  A
 * placed digit keeps its own bit and loses every peer; other digits lose the
 * cell.  unsolved[b] marks the band's cells not yet placed; mini[9*b+d]
 * caches the minirows the band rule left word f[9*b+d], minicol[9*k+d] the
 * minicolumns the stack rule left digit d in stack k (both below).
 *
 * Propagation (s9_propagate), run to a fixpoint:
 *  1. Band rule.  Inside a band a digit occupies one "minirow" (row x box,
 *     3 cells) per row and per box: its minirows form a 3x3 permutation
 *     matrix.  The word is shrunk to a 9-bit minirow mask (s9_mini), and
 *     s9_perm keeps the minirows that lie on some permutation contained in
 *     it; s9_keep (= s9_expand of s9_perm, read in parallel with s9_perm so
 *     the loop's chain of dependent loads is one shorter) maps them back to
 *     cells.  This one lookup does locked candidates (pointing and claiming)
 *     within the band and, with step 2, hidden singles in boxes; an empty
 *     result is a contradiction.
 *
 *         shrink (9 bits)        perm of {0,1,2} -> 6 matrices, e.g.
 *         bit 3*row + box        100 / 010 / 001 = 0x111
 *
 *  2. Row singles: a row of the band with one cell left for d gets d
 *     (a hidden single in a row, and after step 1 in a box).  After step 1
 *     no row of the word is empty, so a - S9_COL0 clears the lowest cell of
 *     all three rows at once; the rows it empties, less the placed cells,
 *     are the singles (no branch per row).
 *  3. Naked singles per band, counting candidates with two OR/AND
 *     accumulators (r1 = at least one digit, r2 = at least two, as a tree
 *     over the nine words); an unsolved cell with none is a contradiction.
 *     The single's digit is found with a fixed nine-step gather, and its
 *     placement skips the other digits' words (none has the cell).
 *  Then, at the fixpoint of steps 1-3 (skipped once solved), the strong
 *  rules:
 *  3b. Triads (s9_triads), on the bands that changed: a minirow (three
 *     cells) holds exactly three digits.  Counting per minirow the digits
 *     that can reach it and those that must use it (table lookups on the
 *     cached minirow masks, nine 4-bit counters in one 64-bit word): when
 *     only three can reach it they leave the rest of its row and box; when
 *     three must use it every other digit leaves its cells; fewer than three
 *     possible or more than three required is a contradiction.
 *  4. Columns (s9_columns, on the digits that changed): each digit must
 *     still reach all nine columns; a column with one cell left for d gets d
 *     (hidden single in a column); and the band rule turned 90 degrees, the
 *     "stack rule": in each stack the columns (3) x bands (3) a digit can use
 *     must hold a permutation matrix, through s9_perm again (locked
 *     candidates across bands).  The AVX2 build does digits 0-7 as one
 *     vector (s9_columns8: all lanes, since for an unchanged digit the rules
 *     change nothing) and digit 8 as the others do (s9_column_digit).
 *  4b. Minicolumn triads (s9_stack_triads): step 3b turned 90 degrees, on
 *     the stacks whose minicol[] the stack rule changed.
 *
 * Strong rules: steps 3b, 4 and 4b cost far more than they find on easy
 * puzzles (many givens, a search that does not backtrack), so a propagation
 * skips them when it starts with S9_EASY_OPEN (46) or fewer open cells,
 * unless `strong` is set: for the whole solve when the puzzle has more than
 * S9_ROOT_OPEN (50) open cells (fewer than 31 givens), else from the moment
 * the search has backtracked S9_HARD_BACKTRACKS (5) times.  The gate is
 * decided once per propagation, so its fixpoint does not depend on the order
 * rules run in.
 * A skipped propagation leaves minicol[] possibly stale and its work lists
 * unprocessed: its frame says so (gated), a restore of it refills the work
 * lists, and s9_choose makes no stack guess there.
 *
 * Work lists: todo (27 bits) names the digit-bands changed since the band
 * rule last saw them.  s9_place, s9_branch and the stack rule mark exactly
 * the words they change (a placement: the digits that had the cell, the
 * digit's own word if it lost a peer, its other bands if they had the
 * column); triad eliminations mark the digits they may touch (a word found
 * unchanged is harmless: every rule is idempotent).  band_dirty /
 * digit_dirty / tri_dirty name the bands and digits the band rule changed
 * since steps 3 / 4 / 3b last ran, stack_dirty the stacks whose minicol[]
 * changed since 4b, and only those are looked at again.  All rules are
 * monotone, so skipping an unchanged part cannot miss a deduction, and a
 * propagation's fixpoint is the same whatever the order.  s9_bands keeps todo
 * and the words it changed in locals and turns them into the dirty sets once
 * per call.
 *
 * Search
 * ------
 * At a fixpoint that is not solved, in the spirit of tdoku's band
 * configurations: the band rule leaves each digit-band a set of permutation
 * matrices (s9_nperm counts them, read off the cached mini[]: the matrices
 * in a mask are the matrices in its s9_perm; likewise minicol[] per
 * digit-stack).  Among the three bands and three stacks with a digit down to
 * exactly two matrices, take the one with fewest matrices over all nine
 * digits (s9_pick sums both counts in one table read per digit); guess its
 * first such digit's first matrix (three minirows or minicolumns at once),
 * the alternative is the other matrix.  When that best total is above 24 (a
 * loose unit, as in near-empty grids), guess the first two-candidate cell
 * instead, else the first cell with fewest candidates (guess: keep the cell,
 * drop its peers; alternative: drop the cell).
 *
 * The choice stack is explicit: a frame keeps the grid of the fixpoint
 * (s9_grid_t, 228 bytes) plus the guess; backtracking restores it and
 * applies the alternative, so the last alternative needs no frame.  Depth
 * bound: every guess strictly lowers (digit-bands with 2+ matrices) +
 * (digit-stacks with 2+ matrices) + (unsolved cells) <= 27 + 27 + 81, which
 * no branch raises, so 135 frames suffice (about 32 KiB on the stack).
 *
 * Builds
 * ------
 * This file is compiled three times (S9_VARIANT): the portable build (the
 * compiler's baseline: SSE2 on x86-64, plain C elsewhere), which also holds
 * the public entry points; sudoku9_avx2.c, built with -mavx2 -mbmi -mbmi2
 * -mpopcnt; and sudoku9_scalar.c, with no vector code at all, so that the
 * tests run the plain-C path on every machine.  sudoku9_solve() jumps through
 * a GNU ifunc: the loader runs s9_resolve once, which picks the AVX2 build
 * when CPUID and XGETBV say it may run, so a call costs one jump and no
 * mutable global is needed (sanitizer builds call the portable build).  All
 * builds return the same codes, solutions, counts and statistics; the tests
 * check that on every solve (sudoku9_solve_impl reaches each build).
 *
 * Thread-safety: reentrant; only the const tables are shared. */
#include "solvers/sudoku/sudoku9.h"

#include <assert.h>
#include <string.h>

#include "solvers/sudoku/sudoku.h"
#include "solvers/sudoku/sudoku9_tables.h"

/* Builds of this file (see "Builds" above): S9_VARIANT 0 = portable, with the
 * public entry points; 1 = scalar (plain C, for tests); 2 = AVX2 (built by
 * the Makefile with -mavx2 -mbmi -mbmi2 -mpopcnt through sudoku9_avx2.c). */
#ifndef S9_VARIANT
#define S9_VARIANT 0
#endif
#if S9_VARIANT == 1
#define S9_ENTRY sudoku9__solve_scalar
#elif S9_VARIANT == 2
#define S9_ENTRY sudoku9__solve_avx2
#else
#define S9_ENTRY sudoku9__solve_portable
#endif

/* The builds' entry points (the contract of sudoku9_solve). */
int sudoku9__solve_portable(const uint8_t *puzzle, uint32_t max_solutions, uint8_t *solutions,
                            const search_ctl_t *ctl, sudoku9_result_t *res);
int sudoku9__solve_scalar(const uint8_t *puzzle, uint32_t max_solutions, uint8_t *solutions,
                          const search_ctl_t *ctl, sudoku9_result_t *res);
int sudoku9__solve_avx2(const uint8_t *puzzle, uint32_t max_solutions, uint8_t *solutions,
                        const search_ctl_t *ctl, sudoku9_result_t *res);
/* 1 when sudoku9_avx2.c was compiled with AVX2 (the Makefile's flags). */
int sudoku9__avx2_built(void);

/* S9_VEC: vector code paths, with SSE2 (every x86-64) or AVX2 intrinsics. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__SSE2__) || defined(__AVX2__)) &&       \
    S9_VARIANT != 1
#include <immintrin.h>
#define S9_VEC 1
#else
#define S9_VEC 0
#endif

/* === State ============================================================== */

#define S9_BAND       0x7ffffffu      /* the 27 cells of a band */
#define S9_COL0       0x0040201u      /* column 0 of a band: bits 0, 9, 18 */
#define S9_I(d, b)    (9 * (b) + (d)) /* the word of digit d in band b (or stack b) */
#define S9_FRAMES     135             /* one frame per open guess; see "Search" above */
#define S9_CELL       0
#define S9_PERM_BAND  1
#define S9_PERM_STACK 2
/* When the strong rules run ("Strong rules" in the head comment). */
#define S9_EASY_OPEN       46 /* skipped from this many open cells down ... */
#define S9_ROOT_OPEN       50 /* ... unless the puzzle had more open cells than this */
#define S9_HARD_BACKTRACKS 5  /* ... or the search backtracked more often than this */
#define S9_LOOSE                                                                                   \
    24 /* matrices in the best band or stack above which s9_choose                                 \
          guesses a cell ("Search" in the head comment) */

#if defined(__GNUC__) || defined(__clang__)
#define S9_CTZ(x)   __builtin_ctz(x)
#define S9_CTZ64(x) __builtin_ctzll(x)
#else
static int s9_ctz(uint32_t x) {
    int n = 0;
    while (!(x & 1u))
        x >>= 1, n++;
    return n;
}
#define S9_CTZ(x)   s9_ctz(x)
static int s9_ctz64(uint64_t x) {
    int n = 0;
    while (!(x & 1u))
        x >>= 1, n++;
    return n;
}
#define S9_CTZ64(x) s9_ctz64(x)
#endif

/* What a guess saves and a backtrack restores (228 bytes). */
typedef struct s9_grid_s {
    uint32_t f[27];       /* f[9*b+d]: cells of band b where digit d may go */
    uint32_t unsolved[3]; /* cells of band b not placed yet */
    uint16_t minicol[27]; /* [9*k+d]: minicolumns the stack rule left d in stack k (bit
                             3*band + column in stack); s9_nperm counts its matrices */
    uint16_t mini[27];    /* [9*b+d]: minirows the band rule left f[9*b+d] (bit
                             3*row + box); s9_nperm of it counts its matrices */
} s9_grid_t;

typedef struct s9_pos_s {
    s9_grid_t g;
    uint32_t todo;        /* digit-bands (bit i) changed since the band rule saw them */
    uint32_t band_dirty;  /* bands (bits 0-2) changed since s9_naked looked */
    uint32_t digit_dirty; /* digits (bits 0-8) changed since s9_columns looked */
    uint32_t tri_dirty;   /* bands (bits 0-2) changed since s9_triads looked */
    uint32_t stack_dirty; /* stacks (bits 0-2) whose minicol[] changed since s9_stack_triads */
    uint64_t placed;      /* placements made by inference (statistics) */
    int strong;           /* 1: the strong rules run in every propagation, 0: only in
                             those that start with more than S9_EASY_OPEN cells open */
    int gated;            /* 1: the last s9_propagate skipped the strong rules */
} s9_pos_t;

/* A guess is "f[word] &= take"; its alternative, tried on backtrack, is
 * "f[word] &= other" (for a cell: keep the cell and drop its peers, or drop
 * the cell). */
typedef struct s9_frame_s {
    s9_grid_t g;          /* the state at the fixpoint where we guessed */
    uint16_t take, other; /* S9_PERM_*: permutation matrices; S9_CELL: unused */
    uint8_t kind, digit;  /* S9_CELL / S9_PERM_BAND / S9_PERM_STACK, digit 0..8 */
    uint8_t where;        /* cell: bit of the band word; band: 0..2; stack: 0..2 */
    uint8_t band;         /* cell: its band */
    uint8_t gated;        /* 1: the strong rules were skipped at this fixpoint, so
                             minicol[] may be stale and their work lists lost */
} s9_frame_t;

static const uint8_t s9_next[3] = {1, 2, 0};
static const uint8_t s9_last[3] = {2, 0, 1};
static const uint8_t s9_band_of[27] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2};

/* Clears bit p (bit = 1 << p) from the nine words w[0..8] (one band); returns
 * the words that had it (bit d for w[d]).  With SSE2 or AVX2 the eight first
 * words go in one or two vector operations, read back as sign bits. */
static inline uint32_t s9_clear_cell(uint32_t *w, uint32_t bit, int p) {
    uint32_t t;
#if S9_VEC && defined(__AVX2__)
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)w);
    __m256i hi = _mm256_sll_epi32(a, _mm_cvtsi32_si128(31 - p));
    t = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(hi));
    _mm256_storeu_si256((__m256i *)(void *)w, _mm256_andnot_si256(_mm256_set1_epi32((int)bit), a));
#elif S9_VEC
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)w);
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(w + 4));
    __m128i n = _mm_cvtsi32_si128(31 - p), m = _mm_set1_epi32((int)bit);
    t = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(a, n))) |
        (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(c, n))) << 4;
    _mm_storeu_si128((__m128i *)(void *)w, _mm_andnot_si128(m, a));
    _mm_storeu_si128((__m128i *)(void *)(w + 4), _mm_andnot_si128(m, c));
#else
    t = 0;
    for (int e = 0; e < 8; e++) {
        t |= ((w[e] >> p) & 1u) << e;
        w[e] &= ~bit;
    }
#endif
    t |= ((w[8] >> p) & 1u) << 8;
    w[8] &= ~bit;
    return t;
}

/* Puts digit d on bit p of band b.  The caller has checked that d is still a
 * candidate there; `alone` (a constant at each call) says that no other digit
 * is (a naked single), so the other digits' words need no pass.  Returns the
 * words (bit 9*b+d) it changed, for todo. */
static inline uint32_t s9_place(s9_pos_t *s, int d, int b, int p, int alone) {
    uint32_t bit = 1u << p, col = S9_COL0 << (p % 9);
    int i = S9_I(d, b);
    int j = S9_I(d, s9_next[b]), k = S9_I(d, s9_last[b]);
    uint32_t old = s->g.f[i], keep = old & ~s9_peers[p], t = 0;
    if (!alone) t = (s9_clear_cell(s->g.f + 9 * b, bit, p) << (9 * b)) & ~(1u << i);
    t |= (uint32_t)(keep != old) << i;
    s->g.f[i] = keep;
    t |= (uint32_t)((s->g.f[j] & col) != 0) << j | (uint32_t)((s->g.f[k] & col) != 0) << k;
    s->g.f[j] &= ~col;
    s->g.f[k] &= ~col;
    s->g.unsolved[b] &= ~bit;
    s->placed++;
    return t;
}

/* 9-bit set of the columns a band word touches. */
/* Places digit d in the only cell of column c left for it (a hidden single
 * the column rules found); -1 when an earlier placement emptied it. */
static inline int s9_place_in_column(s9_pos_t *s, int d, int c) {
    uint32_t cells = 0;
    int b = 0;
    for (; b < 3; b++)
        if ((cells = s->g.f[S9_I(d, b)] & (S9_COL0 << c)) != 0) break;
    if (!cells) return -1;
    s->todo |= s9_place(s, d, b, S9_CTZ(cells), 0);
    return 0;
}

static inline uint32_t s9_fold(uint32_t a) { return (a | a >> 9 | a >> 18) & 511u; }

/* 9-bit set of the columns where a band word has two or three cells. */
static inline uint32_t s9_fold2(uint32_t a) {
    uint32_t x = a & 511u, y = (a >> 9) & 511u, z = a >> 18;
    return (x & y) | (x & z) | (y & z);
}

/* Naked singles of the bands changed since the last call.  Returns -1 on an
 * empty cell, else the number of digits placed. */
static int s9_naked(s9_pos_t *s) {
    int found = 0;
    uint32_t todo = s->band_dirty;
    s->band_dirty = 0;
    for (; todo; todo &= todo - 1) {
        int b = S9_CTZ(todo);
        uint32_t r1 = 0, r2 = 0, u = s->g.unsolved[b];
        if (!u) continue;
        {
            /* at least one / two digits per cell, as a tree over the nine words */
            const uint32_t *w = s->g.f + 9 * b;
            uint32_t p1 = w[0] | w[1], p2 = w[0] & w[1], q1 = w[2] | w[3], q2 = w[2] & w[3];
            uint32_t v1 = w[4] | w[5], v2 = w[4] & w[5], x1 = w[6] | w[7], x2 = w[6] & w[7];
            uint32_t y1 = p1 | q1, y2 = p2 | q2 | (p1 & q1), z1 = v1 | x1, z2 = v2 | x2 | (v1 & x1);
            uint32_t t1 = y1 | z1, t2 = y2 | z2 | (y1 & z1);
            r1 = t1 | w[8], r2 = t2 | (t1 & w[8]);
        }
        if (u & ~r1) return -1;
        for (uint32_t one = u & ~r2; one; one &= one - 1) {
            int p = S9_CTZ(one);
            uint32_t dm = 0; /* the digits left on cell p, without a data-dependent exit */
            for (int d = 0; d < 9; d++)
                dm |= ((s->g.f[S9_I(d, b)] >> p) & 1u) << d;
            if (!dm) return -1; /* an earlier single took its last digit */
            s->todo |= s9_place(s, S9_CTZ(dm), b, p, 1);
            found++;
        }
    }
    return found;
}

/* Column checks of step 4 for digit d: every digit must reach every column;
 * a column with one cell left for the digit gets it; the stack rule.
 * Returns -1, or a count of the narrowings and placements (0: none). */
static int s9_column_digit(s9_pos_t *s, int d) {
    int found = 0;
    uint32_t a0 = s->g.f[d], a1 = s->g.f[9 + d], a2 = s->g.f[18 + d];
    uint32_t col[3] = {s9_fold(a0), s9_fold(a1), s9_fold(a2)};
    uint32_t once = col[0] | col[1] | col[2];
    uint32_t twice = (col[0] & col[1]) | (col[0] & col[2]) | (col[1] & col[2]) | s9_fold2(a0) |
                     s9_fold2(a1) | s9_fold2(a2);
    uint32_t done =
        s9_fold((a0 & ~s->g.unsolved[0]) | (a1 & ~s->g.unsolved[1]) | (a2 & ~s->g.unsolved[2]));
    if (once != 511u) return -1;
    /* Stack rule: the band rule turned 90 degrees, on the columns each
     * band still offers the digit (3x3: band x column of the stack),
     * written out for the three stacks so that it has one branch. */
    uint32_t sh0 = (col[0] & 7u) | (col[1] & 7u) << 3 | (col[2] & 7u) << 6;
    uint32_t sh1 = (col[0] >> 3 & 7u) | (col[1] >> 3 & 7u) << 3 | (col[2] >> 3 & 7u) << 6;
    uint32_t sh2 = (col[0] >> 6) | (col[1] >> 6) << 3 | (col[2] >> 6) << 6;
    uint32_t pm0 = s9_perm[sh0], pm1 = s9_perm[sh1], pm2 = s9_perm[sh2];
    if (!pm0 || !pm1 || !pm2) return -1;
    s->stack_dirty |= (uint32_t)(pm0 != s->g.minicol[d]) |
                      (uint32_t)(pm1 != s->g.minicol[9 + d]) << 1 |
                      (uint32_t)(pm2 != s->g.minicol[18 + d]) << 2;
    s->g.minicol[d] = (uint16_t)pm0;
    s->g.minicol[9 + d] = (uint16_t)pm1;
    s->g.minicol[18 + d] = (uint16_t)pm2;
    uint32_t keep0 = (pm0 & 7u) | (pm1 & 7u) << 3 | (pm2 & 7u) << 6;
    uint32_t keep1 = (pm0 >> 3 & 7u) | (pm1 >> 3 & 7u) << 3 | (pm2 >> 3 & 7u) << 6;
    uint32_t keep2 = (pm0 >> 6) | (pm1 >> 6) << 3 | (pm2 >> 6) << 6;
    if ((keep0 ^ col[0]) | (keep1 ^ col[1]) | (keep2 ^ col[2])) {
        s->g.f[d] &= keep0 * S9_COL0;
        s->g.f[9 + d] &= keep1 * S9_COL0;
        s->g.f[18 + d] &= keep2 * S9_COL0;
        s->todo |= ((uint32_t)(keep0 != col[0]) | (uint32_t)(keep1 != col[1]) << 9 |
                    (uint32_t)(keep2 != col[2]) << 18)
                   << d;
        found++;
    }
    for (uint32_t one = once & ~twice & ~done; one; one &= one - 1) {
        if (s9_place_in_column(s, d, S9_CTZ(one)) != 0) return -1;
        found++;
    }
    return found;
}

#if S9_VEC && defined(__AVX2__)
#define S9_AVX2 1
/* Digits 0..7 as the eight lanes of a vector (GCC/clang vector extensions, one
 * AVX2 register).  Only in the AVX2 build: lowered to SSE2, the 32-byte
 * vectors spill (+33% instructions on forum_hardest with the portable build).
 * Helpers pass vectors by pointer, which keeps gcc's -Wpsabi quiet. */
typedef uint32_t s9_v8 __attribute__((vector_size(32)));
typedef uint16_t s9_h8 __attribute__((vector_size(16)));

/* Bit k set when lane k of *v is not zero. */
static inline uint32_t s9_nonzero8(const s9_v8 *v) {
    __m256i z = _mm256_cmpeq_epi32((__m256i)*v, _mm256_setzero_si256());
    return ~(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(z)) & 255u;
}

/* s9_perm for eight 9-bit masks: the union of the six permutation matrices
 * each contains (the table lookup, done lane by lane with compares). */
static inline void s9_perm8(s9_v8 *out, const s9_v8 *sh) {
    s9_v8 u = {0};
    for (int k = 0; k < 6; k++) {
        uint32_t m = s9_perms6[k];
        u |= (s9_v8)((*sh & m) == m) & m;
    }
    *out = u;
}

/* Digits 0..7 of the column checks at once (digit 8 goes through
 * s9_column_digit).  Same rules and results; every lane is computed, since
 * for an unchanged digit the rules change nothing. */
static int s9_columns8(s9_pos_t *s) {
    int found = 0;
    s9_v8 a0, a1, a2, pm0, pm1, pm2;
    memcpy(&a0, s->g.f, sizeof a0), memcpy(&a1, s->g.f + 9, sizeof a1);
    memcpy(&a2, s->g.f + 18, sizeof a2);
    s9_v8 c0 = (a0 | a0 >> 9 | a0 >> 18) & 511u, c1 = (a1 | a1 >> 9 | a1 >> 18) & 511u;
    s9_v8 c2 = (a2 | a2 >> 9 | a2 >> 18) & 511u;
    s9_v8 once = c0 | c1 | c2, lost = once ^ 511u;
    if (s9_nonzero8(&lost)) return -1;
    s9_v8 sh0 = (c0 & 7u) | (c1 & 7u) << 3 | (c2 & 7u) << 6;
    s9_v8 sh1 = (c0 >> 3 & 7u) | (c1 >> 3 & 7u) << 3 | (c2 >> 3 & 7u) << 6;
    s9_v8 sh2 = (c0 >> 6) | (c1 >> 6) << 3 | (c2 >> 6) << 6;
    s9_perm8(&pm0, &sh0), s9_perm8(&pm1, &sh1), s9_perm8(&pm2, &sh2);
    s9_v8 none = (s9_v8)(pm0 == 0) | (s9_v8)(pm1 == 0) | (s9_v8)(pm2 == 0);
    if (s9_nonzero8(&none)) return -1;
    s9_h8 o0, o1, o2;
    memcpy(&o0, s->g.minicol, 16), memcpy(&o1, s->g.minicol + 9, 16);
    memcpy(&o2, s->g.minicol + 18, 16);
    s9_v8 d0 = pm0 ^ __builtin_convertvector(o0, s9_v8),
          d1 = pm1 ^ __builtin_convertvector(o1, s9_v8);
    s9_v8 d2 = pm2 ^ __builtin_convertvector(o2, s9_v8);
    uint32_t st = (uint32_t)(s9_nonzero8(&d0) != 0) | (uint32_t)(s9_nonzero8(&d1) != 0) << 1 |
                  (uint32_t)(s9_nonzero8(&d2) != 0) << 2;
    if (st) {
        s9_h8 n0 = __builtin_convertvector(pm0, s9_h8), n1 = __builtin_convertvector(pm1, s9_h8);
        s9_h8 n2 = __builtin_convertvector(pm2, s9_h8);
        memcpy(s->g.minicol, &n0, 16), memcpy(s->g.minicol + 9, &n1, 16);
        memcpy(s->g.minicol + 18, &n2, 16);
        s->stack_dirty |= st;
    }
    s9_v8 k0 = (pm0 & 7u) | (pm1 & 7u) << 3 | (pm2 & 7u) << 6;
    s9_v8 k1 = (pm0 >> 3 & 7u) | (pm1 >> 3 & 7u) << 3 | (pm2 >> 3 & 7u) << 6;
    s9_v8 k2 = (pm0 >> 6) | (pm1 >> 6) << 3 | (pm2 >> 6) << 6;
    s9_v8 e0 = k0 ^ c0, e1 = k1 ^ c1, e2 = k2 ^ c2;
    uint32_t m0 = s9_nonzero8(&e0), m1 = s9_nonzero8(&e1), m2 = s9_nonzero8(&e2);
    /* column singles, from the columns before the stack rule (as in
     * s9_column_digit) */
    s9_v8 x = a0 & 511u, y = (a0 >> 9) & 511u, z = a0 >> 18;
    s9_v8 twice = (c0 & c1) | (c0 & c2) | (c1 & c2) | (x & y) | (x & z) | (y & z);
    x = a1 & 511u, y = (a1 >> 9) & 511u, z = a1 >> 18;
    twice |= (x & y) | (x & z) | (y & z);
    x = a2 & 511u, y = (a2 >> 9) & 511u, z = a2 >> 18;
    twice |= (x & y) | (x & z) | (y & z);
    s9_v8 p = (a0 & ~s->g.unsolved[0]) | (a1 & ~s->g.unsolved[1]) | (a2 & ~s->g.unsolved[2]);
    s9_v8 single = once & ~twice & ~((p | p >> 9 | p >> 18) & 511u);
    uint32_t ms = s9_nonzero8(&single);
    if (m0 | m1 | m2) {
        k0 |= k0 << 9 | k0 << 18, k1 |= k1 << 9 | k1 << 18, k2 |= k2 << 9 | k2 << 18;
        a0 &= k0, a1 &= k1, a2 &= k2;
        memcpy(s->g.f, &a0, sizeof a0), memcpy(s->g.f + 9, &a1, sizeof a1);
        memcpy(s->g.f + 18, &a2, sizeof a2);
        s->todo |= m0 | m1 << 9 | m2 << 18;
        found += __builtin_popcount(m0 | m1 | m2);
    }
    for (; ms; ms &= ms - 1) {
        int d = S9_CTZ(ms);
        for (uint32_t one = single[d]; one; one &= one - 1) {
            if (s9_place_in_column(s, d, S9_CTZ(one)) != 0) return -1;
            found++;
        }
    }
    return found;
}
#endif

/* Column checks of step 4 for the digits changed since the last call.
 * Returns -1, or a count of the narrowings and placements (0: none). */
static int s9_columns(s9_pos_t *s) {
    int found = 0, n;
    uint32_t todo = s->digit_dirty;
    s->digit_dirty = 0;
#ifdef S9_AVX2
    if (todo & 255u) {
        if ((n = s9_columns8(s)) < 0) return -1;
        found += n;
    }
    todo &= 256u;
#endif
    for (; todo; todo &= todo - 1) {
        if ((n = s9_column_digit(s, S9_CTZ(todo))) < 0) return -1;
        found += n;
    }
    return found;
}

#define S9_NIB1 0x111111111ull /* one in each of the nine nibbles */

/* The counting both triad rules share, over the nine digits' masks of one
 * band (or stack): per minirow (minicolumn) k, nibble k of the sums counts
 * the digits still possible there and the digits sure to be there.  Sets
 * bit 4k+3 of *naked where exactly three are possible, of *hidden where
 * exactly three are sure; -1 when a line has fewer than three possible or
 * more than three sure (a contradiction). */
static inline int s9_triad_sets(const uint16_t *masks, uint64_t *naked, uint64_t *hidden) {
    uint64_t np = 0, ns = 0;
    for (int d = 0; d < 9; d++) {
        uint32_t sh = masks[d];
        np += s9_nib[sh], ns += s9_nib[s9_sure[sh]];
    }
    if (((np + 5 * S9_NIB1) & 8 * S9_NIB1) != 8 * S9_NIB1) return -1; /* fewer than 3 */
    if ((ns + 4 * S9_NIB1) & 8 * S9_NIB1) return -1;                  /* more than 3 */
    uint64_t y = np ^ 3 * S9_NIB1, z = ns ^ 3 * S9_NIB1;
    *naked = ~(((y & 7 * S9_NIB1) + 7 * S9_NIB1) | y) & 8 * S9_NIB1;
    *hidden = ~(((z & 7 * S9_NIB1) + 7 * S9_NIB1) | z) & 8 * S9_NIB1;
    return 0;
}

/* Minirow triads of the bands changed since the last call.  A minirow holds
 * three different digits: when only three digits can reach it, each must use
 * it (leaving the rest of its row and box); when three digits must use it,
 * no other digit can.  Returns -1 or the number of words changed. */
static int s9_triads(s9_pos_t *s) {
    int found = 0;
    uint32_t todo = s->tri_dirty;
    s->tri_dirty = 0;
    for (; todo; todo &= todo - 1) {
        int b = S9_CTZ(todo);
        if (!s->g.unsolved[b]) continue;
        uint64_t naked, hidden;
        if (s9_triad_sets(&s->g.mini[S9_I(0, b)], &naked, &hidden) != 0) return -1;
        for (uint64_t t = naked ^ hidden; t; t &= t - 1) {
            int k = S9_CTZ64(t) >> 2, r = k / 3, x = k - 3 * r;
            uint32_t cells = 7u << (9 * r + 3 * x);
            uint32_t clear = (naked >> (4 * k + 3)) & 1u
                                 ? ((511u << (9 * r)) | (0x1c0e07u << (3 * x))) & ~cells
                                 : cells;
            for (int d = 0; d < 9; d++)
                if (((s->g.mini[S9_I(d, b)] & ~s9_sure[s->g.mini[S9_I(d, b)]]) >> k) & 1u) {
                    s->g.f[S9_I(d, b)] &= ~clear;
                    s->todo |= 1u << S9_I(d, b);
                    found++;
                }
        }
    }
    return found;
}

/* Minicolumn triads of the stacks changed since the last call: s9_triads
 * turned 90 degrees, on the minicolumn masks the stack rule left. */
static int s9_stack_triads(s9_pos_t *s) {
    int found = 0;
    uint32_t todo = s->stack_dirty;
    s->stack_dirty = 0;
    for (; todo; todo &= todo - 1) {
        int k = S9_CTZ(todo);
        uint64_t naked, hidden;
        if (s9_triad_sets(&s->g.minicol[S9_I(0, k)], &naked, &hidden) != 0) return -1;
        for (uint64_t t = naked ^ hidden; t; t &= t - 1) {
            int m = S9_CTZ64(t) >> 2, b = m / 3, c = m - 3 * b;
            uint32_t col = S9_COL0 << (3 * k + c), box = 0x1c0e07u << (3 * k);
            int is_naked = (naked >> (4 * m + 3)) & 1u;
            for (int d = 0; d < 9; d++) {
                uint32_t mc = s->g.minicol[S9_I(d, k)];
                if (!(((mc & ~s9_sure[mc]) >> m) & 1u)) continue;
                if (is_naked) {
                    for (int e = 0; e < 3; e++) {
                        uint32_t clear = e == b ? box & ~col : col;
                        uint32_t a = s->g.f[S9_I(d, e)] & ~clear;
                        s->todo |= (uint32_t)(a != s->g.f[S9_I(d, e)]) << S9_I(d, e);
                        s->g.f[S9_I(d, e)] = a;
                    }
                } else {
                    s->g.f[S9_I(d, b)] &= ~col;
                    s->todo |= 1u << S9_I(d, b);
                }
                found++;
            }
        }
    }
    return found;
}

/* Band rule and row singles (steps 1 and 2) on word i.  Returns 0 or -1
 * (contradiction); the words its placements change go to *todo. */
static inline int s9_band_word(s9_pos_t *s, int i, uint32_t *todo) {
    uint32_t a = s->g.f[i];
    uint32_t sh = (uint32_t)s9_mini[a & 511u] | (uint32_t)s9_mini[(a >> 9) & 511u] << 3 |
                  (uint32_t)s9_mini[a >> 18] << 6;
    uint32_t pm = s9_perm[sh], keep = s9_keep[sh];
    if (!keep) return -1;
    a &= keep;
    s->g.f[i] = a;
    s->g.mini[i] = (uint16_t)pm;
    /* Every row of a is non-empty (pm has a minirow in each), so one
     * subtraction clears the lowest cell of all three rows at once: the
     * rows it empties held one cell, which is a hidden single unless it
     * is the digit's placed cell. */
    uint32_t y = a & (a - S9_COL0);
    uint32_t one = (0u - !(y & 511u)) & 511u;
    one |= (0u - !(y & (511u << 9))) & (511u << 9);
    one |= (0u - !(y >> 18)) & (511u << 18);
    int b = s9_band_of[i];
    for (one &= a & s->g.unsolved[b]; one; one &= one - 1) {
        int p = S9_CTZ(one);
        if (!(s->g.f[i] & (1u << p))) return -1; /* an earlier single of this word took it */
        *todo |= s9_place(s, i - 9 * b, b, p, 0);
    }
    return 0;
}

/* Band rule and row singles (steps 1 and 2) on every digit-band in todo,
 * until none is left.  Returns 0 or -1 (contradiction). */
static int s9_bands(s9_pos_t *s) {
    uint32_t todo = s->todo, seen = 0;
    while (todo) {
        int i = S9_CTZ(todo);
        todo &= todo - 1;
        seen |= 1u << i;
        if (s9_band_word(s, i, &todo) < 0) return -1;
    }
    s->todo = 0;
    if (seen) {
        uint32_t bands = (uint32_t)((seen & 511u) != 0) | (uint32_t)((seen & 511u << 9) != 0) << 1 |
                         (uint32_t)((seen >> 18) != 0) << 2;
        s->band_dirty |= bands;
        s->tri_dirty |= bands;
        s->digit_dirty |= (seen | seen >> 9 | seen >> 18) & 511u;
    }
    return 0;
}

/* Runs the rules of the header comment to a fixpoint.  Returns 0 (fixpoint,
 * maybe solved) or -1 (contradiction). */
static inline int s9_open(const s9_pos_t *s) {
    return __builtin_popcount(s->g.unsolved[0]) + __builtin_popcount(s->g.unsolved[1]) +
           __builtin_popcount(s->g.unsolved[2]);
}
/* Whether s9_propagate, starting now, skips the strong rules (steps 3b and 4);
 * see "Strong rules" in the head comment.  Decided once per propagation, so
 * that its fixpoint does not depend on the order the rules run in. */
static inline int s9_gate(const s9_pos_t *s) { return !s->strong && s9_open(s) <= S9_EASY_OPEN; }

static int s9_propagate(s9_pos_t *s) {
    s->gated = s9_gate(s);
    for (;;) {
        if (s9_bands(s) < 0) return -1;
        int n = s9_naked(s);
        if (n < 0) return -1;
        if (n > 0) continue;
        if ((s->g.unsolved[0] | s->g.unsolved[1] | s->g.unsolved[2]) == 0) return 0;
        if (s->gated) return 0; /* dirty sets stay: see s9_restore */
        n = s9_triads(s);
        if (n < 0) return -1;
        if (n > 0) continue;
        n = s9_columns(s);
        if (n < 0) return -1;
        if (n > 0) continue;
        n = s9_stack_triads(s);
        if (n < 0) return -1;
        if (n == 0) return 0;
    }
}

/* s9_propagate, counting its placements in s->placed only when it reaches a
 * fixpoint: how many cells a propagation places before it meets a
 * contradiction depends on the order its rules run in, which differs between
 * the builds (sudoku9_avx2.c), and the statistic must not. */
static int s9_fixpoint(s9_pos_t *s) {
    uint64_t placed = s->placed;
    int ok = s9_propagate(s);
    if (ok < 0) s->placed = placed;
    return ok;
}

/* Back to the fixpoint saved in *g, where every rule had been applied, or
 * (gated) every rule but the strong ones, whose work lists are then full. */
static void s9_restore(s9_pos_t *s, const s9_grid_t *g, int gated) {
    s->g = *g;
    s->todo = s->band_dirty = 0;
    s->digit_dirty = gated ? 511u : 0, s->tri_dirty = s->stack_dirty = gated ? 7u : 0;
}

/* The two permutation matrices in a mask holding exactly two. */
static void s9_two_perms(uint32_t sh, s9_frame_t *fr) {
    int k = 0;
    while ((sh & s9_perms6[k]) != s9_perms6[k])
        k++;
    fr->take = s9_perms6[k++];
    while ((sh & s9_perms6[k]) != s9_perms6[k])
        k++;
    fr->other = s9_perms6[k];
}

/* Stack mask of a digit: C holds the columns of band b at bits 9b..9b+8;
 * returns bit 3*band + column-in-stack for stack k. */
static inline uint32_t s9_stack_mask(uint32_t C, int k) {
    uint32_t m = (C >> (3 * k)) & 0x01c0e07u;
    return (m & 7u) | ((m >> 6) & 0x38u) | ((m >> 12) & 0x1c0u);
}

/* Picks the guess at an unsolved fixpoint (see "Search" in the header). */
static void s9_choose(const s9_pos_t *s, s9_frame_t *fr) {
    int best = 1000, kind = -1, bd = 0, bw = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t nb = 0, ns = 0; /* matrices (low byte), digits down to two (high byte) */
        for (int d = 0; d < 9; d++)
            nb += s9_pick[s->g.mini[S9_I(d, b)]];
        if (nb > 255 && (int)(nb & 255) < best) best = nb & 255, kind = S9_PERM_BAND, bw = b;
        if (s->gated) continue; /* minicol[] may be stale: no stack guess */
        for (int d = 0; d < 9; d++)
            ns += s9_pick[s->g.minicol[S9_I(d, b)]];
        if (ns > 255 && (int)(ns & 255) < best) best = ns & 255, kind = S9_PERM_STACK, bw = b;
    }
    if (kind == S9_PERM_BAND)
        while (s9_nperm[s->g.mini[S9_I(bd, bw)]] != 2)
            bd++;
    else if (kind == S9_PERM_STACK)
        while (s9_nperm[s->g.minicol[S9_I(bd, bw)]] != 2)
            bd++;
    /* A loose band or stack (more than S9_LOOSE matrices in all): a two-candidate
     * cell, else the first cell with fewest candidates, cuts the search more
     * (and keeps near-empty grids from wandering into large dead subtrees). */
    if (best > S9_LOOSE) {
        for (int b = 0; b < 3; b++) {
            uint32_t u = s->g.unsolved[b], r1 = 0, r2 = 0, r3 = 0;
            for (int i = 9 * b; i < 9 * b + 9; i++) {
                r3 |= r2 & s->g.f[i];
                r2 |= r1 & s->g.f[i];
                r1 |= s->g.f[i];
            }
            if (u & ~r3) {
                int p = S9_CTZ(u & ~r3), i = 9 * b;
                while (!(s->g.f[i] & (1u << p)))
                    i++;
                fr->kind = S9_CELL, fr->digit = (uint8_t)(i - 9 * b), fr->where = (uint8_t)p,
                fr->band = (uint8_t)b;
                return;
            }
        }
    }
    if (best > S9_LOOSE) kind = -1;
    if (kind == S9_PERM_BAND) {
        fr->kind = (uint8_t)kind, fr->digit = (uint8_t)bd, fr->where = (uint8_t)bw;
        s9_two_perms(s->g.mini[S9_I(bd, bw)], fr);
        return;
    }
    if (kind == S9_PERM_STACK) {
        uint32_t C =
            s9_fold(s->g.f[bd]) | s9_fold(s->g.f[9 + bd]) << 9 | s9_fold(s->g.f[18 + bd]) << 18;
        fr->kind = (uint8_t)kind, fr->digit = (uint8_t)bd, fr->where = (uint8_t)bw;
        s9_two_perms(s9_stack_mask(C, bw), fr);
        return;
    }
    /* No two-candidate cell, and no tight band or stack. */
    int bestc = 10, bb = 0, bp = 0;
    for (int b = 0; b < 3 && bestc > 2; b++) {
        for (uint32_t u = s->g.unsolved[b]; u; u &= u - 1) {
            int p = S9_CTZ(u), k = 0;
            for (int i = 9 * b; i < 9 * b + 9; i++)
                k += (s->g.f[i] >> p) & 1u;
            if (k < bestc) bestc = k, bb = b, bp = p;
        }
    }
    int i = 9 * bb;
    while (!(s->g.f[i] & (1u << bp)))
        i++;
    fr->kind = S9_CELL, fr->digit = (uint8_t)(i - 9 * bb), fr->where = (uint8_t)bp,
    fr->band = (uint8_t)bb;
}

/* Applies the guess of *fr (alt 0) or its alternative (alt 1). */
static void s9_branch(s9_pos_t *s, const s9_frame_t *fr, int alt) {
    int d = fr->digit;
    uint32_t pm = alt ? fr->other : fr->take;
    if (fr->kind == S9_CELL) {
        int i = S9_I(d, fr->band);
        uint32_t a = s->g.f[i] & (alt ? ~(1u << fr->where) : ~s9_peers[fr->where]);
        s->todo |= (uint32_t)(a != s->g.f[i]) << i;
        s->g.f[i] = a;
    } else if (fr->kind == S9_PERM_BAND) {
        s->g.f[S9_I(d, fr->where)] &= s9_expand[pm];
        s->todo |= 1u << S9_I(d, fr->where);
    } else {
        int k = 3 * fr->where;
        for (int b = 0; b < 3; b++) {
            uint32_t cols = (511u & ~(7u << k)) | ((pm >> (3 * b)) & 7u) << k;
            uint32_t a = s->g.f[S9_I(d, b)] & cols * S9_COL0;
            s->todo |= (uint32_t)(a != s->g.f[S9_I(d, b)]) << S9_I(d, b);
            s->g.f[S9_I(d, b)] = a;
        }
    }
}

/* 1 when a holds exactly three cells (for assert). */
static inline int s9_three_cells(uint32_t a) {
    if (!a) return 0;
    a &= a - 1;
    if (!a) return 0;
    a &= a - 1;
    return a && !(a & (a - 1));
}

static void s9_write(const s9_pos_t *s, uint8_t *grid) {
    /* At a solution every digit-band word holds exactly three cells. */
    for (int b = 0; b < 3; b++, grid += 27)
        for (int d = 0; d < 9; d++) {
            uint32_t a = s->g.f[S9_I(d, b)];
            uint8_t v = (uint8_t)(d + 1);
            assert(s9_three_cells(a));
            grid[S9_CTZ(a)] = v, a &= a - 1;
            grid[S9_CTZ(a)] = v, a &= a - 1;
            grid[S9_CTZ(a)] = v;
        }
}

/* Budget before every node, clock and flag every SEARCH_POLL_MASK+1 nodes. */
static int s9_stop(const search_ctl_t *ctl, uint64_t nodes) {
    if (ctl == NULL) return 0;
    if (ctl->node_budget != 0 && nodes >= ctl->node_budget) return SEARCH_BUDGET;
    return search_should_stop(ctl, nodes);
}

/* Reads the 81 values: the cells with a given, band by band (bit p of
 * given[b] = cell 27*b + p), and whether some value is above 9.  With SSE2 a
 * compare per 16 cells, so that placing the givens loops over them instead of
 * branching on every cell. */
static int s9_scan(const uint8_t *puzzle, uint32_t given[3]) {
    uint64_t lo, hi;
    int bad;
#if S9_VEC
    const __m128i nine = _mm_set1_epi8(9), zero = _mm_setzero_si128();
    uint32_t nz[5], le = 0xffffu;
    for (int k = 0; k < 5; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(puzzle + 16 * k));
        nz[k] = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, zero)) & 0xffffu;
        le &= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, nine), nine));
    }
    lo = nz[0] | (uint64_t)nz[1] << 16 | (uint64_t)nz[2] << 32 | (uint64_t)nz[3] << 48;
    hi = nz[4] | (uint64_t)(puzzle[80] != 0) << 16;
    bad = le != 0xffffu || puzzle[80] > 9;
#else
    lo = hi = 0, bad = 0;
    for (int c = 0; c < 81; c++) {
        bad |= puzzle[c] > 9;
        if (c < 64)
            lo |= (uint64_t)(puzzle[c] != 0) << c;
        else
            hi |= (uint64_t)(puzzle[c] != 0) << (c - 64);
    }
#endif
    given[0] = (uint32_t)lo & S9_BAND;
    given[1] = (uint32_t)(lo >> 27) & S9_BAND;
    given[2] = (uint32_t)(lo >> 54 | hi << 10) & S9_BAND;
    return bad;
}

/* The empty grid with the givens (cells in given[], from s9_scan) placed
 * (todo: every word).  Returns SUDOKU_ECONFLICT when a given's cell was
 * already taken from its digit, which only a given of the same digit in its
 * row, column or box does, else 0. */
static int s9_init(s9_pos_t *s, const uint8_t *puzzle, const uint32_t given[3]) {
    uint32_t own[27] = {0}; /* own[i]: the givens of word i */
    for (int i = 0; i < 27; i++)
        s->g.f[i] = S9_BAND;
    s->todo = S9_BAND, s->band_dirty = s->digit_dirty = s->tri_dirty = s->stack_dirty = 0;
    s->placed = 0;
    memset(s->g.minicol, 0, sizeof s->g.minicol);
    for (int b = 0; b < 3; b++) {
        for (uint32_t m = given[b]; m; m &= m - 1) {
            int p = S9_CTZ(m), v = puzzle[27 * b + p], i = S9_I(v - 1, b);
            uint32_t bit = 1u << p, col = S9_COL0 << (p % 9);
            if (!(s->g.f[i] & bit)) return SUDOKU_ECONFLICT;
            s->g.f[i] &= ~s9_peers[p];
            s->g.f[S9_I(v - 1, s9_next[b])] &= ~col;
            s->g.f[S9_I(v - 1, s9_last[b])] &= ~col;
            own[i] |= bit;
        }
        s->g.unsolved[b] = S9_BAND & ~given[b];
    }
    s->strong = s9_open(s) > S9_ROOT_OPEN;
    /* The other digits leave the given cells, once for all givens. */
    for (int b = 0; b < 3; b++)
        for (int i = 9 * b; i < 9 * b + 9; i++)
            s->g.f[i] &= s->g.unsolved[b] | own[i];
    return 0;
}

/* === Entry point ======================================================== */

int S9_ENTRY(const uint8_t *puzzle, uint32_t max_solutions, uint8_t *solutions,
             const search_ctl_t *ctl, sudoku9_result_t *res) {
    s9_pos_t s;
    s9_frame_t stack[S9_FRAMES];
    uint32_t given[3];
    int top = 0, rc, ok, started = 0;

    if (res == NULL) return SEARCH_EINVAL;
    memset(res, 0, sizeof *res);
    if (puzzle == NULL || max_solutions < 1 || max_solutions > SUDOKU_MAX_SOLUTIONS) {
        rc = SEARCH_EINVAL;
        goto out;
    }
    if (s9_scan(puzzle, given)) {
        rc = SEARCH_EINVAL;
        goto out;
    }
    if ((rc = s9_init(&s, puzzle, given)) != 0) goto out;
    if ((rc = search_check_now(ctl, 0)) != 0) goto out;
    started = 1;

    ok = s9_fixpoint(&s);
    for (;;) {
        if (ok == 0) {
            if ((s.g.unsolved[0] | s.g.unsolved[1] | s.g.unsolved[2]) == 0) {
                if (solutions)
                    s9_write(&s, solutions + (size_t)SUDOKU9_CELLS * res->solutions_found);
                if (res->guesses == 0) res->no_guess = 1;
                if (++res->solutions_found == max_solutions) {
                    res->exhausted = top == 0;
                    break;
                }
                ok = -1; /* look for the next one */
                continue;
            }
            if ((rc = s9_stop(ctl, res->stats.nodes)) != 0) goto out;
            assert(top < S9_FRAMES); /* the depth bound of the header */
            s9_frame_t *fr = &stack[top++];
            fr->g = s.g;
            fr->gated = (uint8_t)s.gated;

            s9_choose(&s, fr);
            if ((uint32_t)top > res->stats.max_depth) res->stats.max_depth = (uint32_t)top;
            res->guesses++;
            res->stats.nodes++;
            s9_branch(&s, fr, 0);
            ok = s9_fixpoint(&s);
            continue;
        }
        if (top == 0) {
            res->exhausted = 1;
            break;
        }
        if ((rc = s9_stop(ctl, res->stats.nodes)) != 0) goto out;
        const s9_frame_t *fr = &stack[--top];
        uint64_t placed = s.placed;
        s9_restore(&s, &fr->g, fr->gated);
        s.placed = placed;
        s9_branch(&s, fr, 1);
        res->stats.nodes++;
        res->stats.backtracks++;
        if (res->stats.backtracks > S9_HARD_BACKTRACKS) s.strong = 1;
        ok = s9_fixpoint(&s);
    }
    rc = 0;
out:
    if (started) res->stats.propagations = s.placed;
    res->code = rc;
    return rc;
}

#if S9_VARIANT == 2
int sudoku9__avx2_built(void) {
#if defined(__AVX2__)
    return 1;
#else
    return 0;
#endif
}
#endif

#if S9_VARIANT == 0
/* === Runtime dispatch =================================================== */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define S9_X86 1
#else
#define S9_X86 0
#endif

/* GNU ifunc: the dynamic loader calls s9_resolve once, before main, and
 * binds sudoku9_solve to the build it returns, so each call costs nothing
 * and no mutable global is needed.  Not in sanitizer builds, whose runtimes
 * are not set up when resolvers run (there sudoku9_solve is the portable
 * build; the tests reach every build through sudoku9_solve_impl). */
#if S9_X86 && defined(__ELF__) && defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) &&          \
    !defined(__SANITIZE_UNDEFINED__) && !defined(S9_NO_IFUNC)
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer) ||             \
    __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define S9_NO_IFUNC 1
#endif
#endif
#ifndef S9_NO_IFUNC
#define S9_IFUNC 1
#endif
#endif
#ifndef S9_IFUNC
#define S9_IFUNC 0
#endif

/* 1 when the CPU has AVX2, BMI1, BMI2 and POPCNT and the OS saves the YMM
 * registers (XGETBV), i.e. the AVX2 build may run.  Plain inline code: it
 * runs inside the ifunc resolver, before the C library is set up. */
static inline int s9_cpu_avx2(void) {
#if S9_X86
    unsigned a, b, c, d, xlo, xhi;
    __cpuid(0, a, b, c, d);
    if (a < 7) return 0;
    __cpuid(1, a, b, c, d);
    if (!(c >> 27 & 1u) || !(c >> 28 & 1u) || !(c >> 23 & 1u)) return 0; /* OSXSAVE AVX POPCNT */
    __asm__ volatile("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0u));
    (void)xhi;
    if ((xlo & 6u) != 6u) return 0; /* XMM and YMM state enabled */
    __cpuid_count(7, 0, a, b, c, d);
    return (b >> 3 & 1u) && (b >> 5 & 1u) && (b >> 8 & 1u); /* BMI1 AVX2 BMI2 */
#else
    return 0;
#endif
}

int sudoku9_impl_supported(sudoku9_impl_t impl) {
    switch (impl) {
    case SUDOKU9_IMPL_AUTO:
    case SUDOKU9_IMPL_PORTABLE:
    case SUDOKU9_IMPL_SCALAR: return 1;
    case SUDOKU9_IMPL_AVX2: return S9_X86 && sudoku9__avx2_built() && s9_cpu_avx2();
    }
    return 0;
}

sudoku9_impl_t sudoku9_impl_auto(void) {
    return S9_IFUNC && sudoku9_impl_supported(SUDOKU9_IMPL_AVX2) ? SUDOKU9_IMPL_AVX2
                                                                 : SUDOKU9_IMPL_PORTABLE;
}

const char *sudoku9_impl_name(sudoku9_impl_t impl) {
    switch (impl) {
    case SUDOKU9_IMPL_AUTO: return "auto";
    case SUDOKU9_IMPL_PORTABLE: return "portable";
    case SUDOKU9_IMPL_SCALAR: return "scalar";
    case SUDOKU9_IMPL_AVX2: return "avx2";
    }
    return "?";
}

int sudoku9_solve_impl(sudoku9_impl_t impl, const uint8_t puzzle[SUDOKU9_CELLS],
                       uint32_t max_solutions, uint8_t *solutions, const search_ctl_t *ctl,
                       sudoku9_result_t *res) {
    switch (impl) {
    case SUDOKU9_IMPL_AUTO: return sudoku9_solve(puzzle, max_solutions, solutions, ctl, res);
    case SUDOKU9_IMPL_PORTABLE:
        return sudoku9__solve_portable(puzzle, max_solutions, solutions, ctl, res);
    case SUDOKU9_IMPL_SCALAR:
        return sudoku9__solve_scalar(puzzle, max_solutions, solutions, ctl, res);
    case SUDOKU9_IMPL_AVX2:
        if (!sudoku9_impl_supported(SUDOKU9_IMPL_AVX2)) break;
        return sudoku9__solve_avx2(puzzle, max_solutions, solutions, ctl, res);
    }
    if (res != NULL) memset(res, 0, sizeof *res), res->code = SEARCH_EINVAL;
    return SEARCH_EINVAL;
}

#if S9_IFUNC
typedef int s9_solve_fn(const uint8_t *, uint32_t, uint8_t *, const search_ctl_t *,
                        sudoku9_result_t *);

__attribute__((used)) static s9_solve_fn *s9_resolve(void) {
    return s9_cpu_avx2() ? sudoku9__solve_avx2 : sudoku9__solve_portable;
}

/* A local symbol bound by the loader; sudoku9_solve stays a plain function
 * (one jump more), which the layering check can see. */
static int s9_solve_best(const uint8_t *puzzle, uint32_t max_solutions, uint8_t *solutions,
                         const search_ctl_t *ctl, sudoku9_result_t *res)
    __attribute__((ifunc("s9_resolve")));
#define S9_BEST s9_solve_best
#else
#define S9_BEST sudoku9__solve_portable
#endif

int sudoku9_solve(const uint8_t puzzle[SUDOKU9_CELLS], uint32_t max_solutions, uint8_t *solutions,
                  const search_ctl_t *ctl, sudoku9_result_t *res) {
    return S9_BEST(puzzle, max_solutions, solutions, ctl, res);
}
#endif /* S9_VARIANT == 0 */
