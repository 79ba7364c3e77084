/* rng.h -- a small portable random generator for the puzzle generators:
 * xoshiro256** (Blackman and Vigna), seeded through splitmix64.
 *
 * Why not rand(): its sequence differs between C libraries, and a puzzle
 * generated from a seed must be the same puzzle on every machine.  These
 * are fixed integer recurrences, so (seed, stream) gives the same numbers
 * everywhere.  Streams: rng_seed(seed, i) derives item i's generator from
 * the request's seed and the item's index, so a parallel job's items do not
 * depend on which thread runs them or in what order.
 *
 * State lives in the caller's rng_t: no globals, reentrant. */
#ifndef PUZZLED_RNG_H
#define PUZZLED_RNG_H

#include <stdint.h>

typedef struct rng_s {
    uint64_t s[4];
} rng_t;

static inline uint64_t rng_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Seeds r for stream `stream` of `seed`. */
static inline void rng_seed(rng_t *r, uint64_t seed, uint64_t stream) {
    uint64_t x = seed ^ rng_splitmix64(&stream);
    for (int i = 0; i < 4; i++)
        r->s[i] = rng_splitmix64(&x);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng_t *r) {
    uint64_t *s = r->s, out = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, bound) for bound >= 1, without modulo bias (Lemire's
 * multiply-and-reject, with 32-bit halves so it needs no 128-bit type). */
static inline uint32_t rng_below(rng_t *r, uint32_t bound) {
    uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t floor = (uint32_t)(0u - bound) % bound;
        while (low < floor) {
            m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
