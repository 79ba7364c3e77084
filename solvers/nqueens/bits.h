/* nqueens/bits.h -- multi-word bitsets for the N-Queens solvers (internal).
 *
 * Boards wider than 64 columns keep their lines (columns, diagonals,
 * anti-diagonals) as arrays of 64-bit words.  Diagonals are numbered so that
 * the squares of one row are a contiguous run of bits:
 *
 *     diagonal      d = c - r + n - 1    row r covers bits n-1-r .. 2n-2-r
 *     anti-diagonal a = c + r            row r covers bits r .. r+n-1
 *
 * so a row's free squares are three word-shifted reads OR-ed together
 * (nqb_row_free), n/64 word operations instead of n bit tests.
 *
 * nqb_get64() reads one word past the last one holding a bit, so every line
 * set is allocated with NQB_PAD spare words (NQB_LINE_WORDS does it).
 * Header-only and stateless; shared by nqueens/board.c and nqueens/heur.c. */
#ifndef PUZZLED_NQUEENS_BITS_H
#define PUZZLED_NQUEENS_BITS_H

#include <stddef.h>
#include <stdint.h>

#define NQB_PAD         2
#define NQB_WORDS(bits) (((size_t)(bits) + 63) / 64)
/* words for a line set of `bits` bits, padding included */
#define NQB_LINE_WORDS(bits) (NQB_WORDS(bits) + NQB_PAD)

static inline int nqb_get(const uint64_t *b, size_t i) {
    return (int)((b[i >> 6] >> (i & 63)) & 1);
}
static inline void nqb_set(uint64_t *b, size_t i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void nqb_clear(uint64_t *b, size_t i) { b[i >> 6] &= ~((uint64_t)1 << (i & 63)); }

/* Bits set in w.  Written out because __builtin_popcountll compiles to a
 * libgcc call (__popcountdi2) without -mpopcnt, and solvers/ objects may
 * call only the few libc functions tools/check_layers.sh allows. */
static inline int nqb_popcount(uint64_t w) {
    w = w - ((w >> 1) & 0x5555555555555555ull);
    w = (w & 0x3333333333333333ull) + ((w >> 2) & 0x3333333333333333ull);
    w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((w * 0x0101010101010101ull) >> 56);
}

/* The 64 bits of b starting at bit `off` (bit off becomes bit 0). */
static inline uint64_t nqb_get64(const uint64_t *b, size_t off) {
    const size_t w = off >> 6;
    const unsigned s = (unsigned)(off & 63);
    return s ? (b[w] >> s) | (b[w + 1] << (64 - s)) : b[w];
}

/* Writes into out[0..NQB_WORDS(n)-1] the columns of row r that no line in
 * colb (n bits), diagb and antib (2n-1 bits each) covers; bits >= n are 0.
 * Returns how many there are. */
static inline int nqb_row_free(int n, int r, const uint64_t *colb, const uint64_t *diagb,
                               const uint64_t *antib, uint64_t *out) {
    const size_t words = NQB_WORDS(n), doff = (size_t)(n - 1 - r), aoff = (size_t)r;
    int k = 0;
    for (size_t i = 0; i < words; i++) {
        uint64_t w = ~(colb[i] | nqb_get64(diagb, doff + 64 * i) | nqb_get64(antib, aoff + 64 * i));
        if (i == words - 1 && (n & 63) != 0) w &= ((uint64_t)1 << (n & 63)) - 1;
        out[i] = w;
        k += nqb_popcount(w);
    }
    return k;
}

#endif
