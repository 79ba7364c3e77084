/* sudoku/exchange.c -- the shared state of a cdcl portfolio (exchange.h).
 *
 * Layout (one caller-provided block):
 *
 *   sudoku_exchange_t | ring[0] ... ring[members-1] | grids[max_solutions][n*n]
 *
 * Solutions: an append-only list of distinct grids.  add_solution() takes
 * the list's spinlock, compares the grid with every entry (a member may
 * find a solution another already published), writes a new one and only
 * then raises `count` (release): an entry below count is complete and never
 * changes, so readers take count (acquire) and read entries without the
 * lock.  The list being ordered and duplicate-free is what lets a member
 * name what it knows by one number, its epoch: "entries 0..e-1 are
 * excluded from my formula" (cdcl.c).
 *
 * Clauses: a ring of SUDOKU__XC_SLOTS fixed-size records per member, only
 * that member writes, every other member reads with its own tail.  Both
 * sides copy records under the ring's spinlock, a few hundred words at
 * most, so a writer never waits long and a reader never sees a record half
 * written.  A reader more than a ring behind skips what was overwritten.
 * Spinlocks rather than mutexes: solvers/ uses no thread library, and the
 * sections are copies that never block.
 *
 * Memory: 64 KiB a member plus max_solutions grids. */
#include "solvers/sudoku/exchange.h"

#include <stdatomic.h>
#include <string.h>

#include "solvers/sudoku/sudoku.h"

#define AL(x) (((x) + 63u) & ~(size_t)63u) /* a cache line each: rings do not share one */

typedef struct ring_s {
    atomic_flag lock;
    uint64_t head; /* records ever written; under lock */
    uint32_t rec[SUDOKU__XC_SLOTS * SUDOKU__XC_WORDS];
} ring_t;

struct sudoku_exchange_s {
    int n;
    unsigned members;
    uint32_t cap;      /* entries the list holds at most */
    atomic_flag lock;  /* the list's appends */
    atomic_uint count; /* entries published: written under lock, release */
    ring_t *rings;     /* [members] */
    uint8_t *grids;    /* [cap][n*n] */
};

static void spin_lock(atomic_flag *f) {
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        ;
}

static void spin_unlock(atomic_flag *f) { atomic_flag_clear_explicit(f, memory_order_release); }

size_t sudoku_exchange_bytes(int n, unsigned members, uint32_t max_solutions) {
    if (n < SUDOKU_MIN_N || n > SUDOKU_MAX_N || members < 1 ||
        members > SUDOKU_EXCHANGE_MAX_MEMBERS || max_solutions < 1 ||
        max_solutions > SUDOKU_MAX_SOLUTIONS)
        return 0;
    return AL(sizeof(sudoku_exchange_t)) + members * AL(sizeof(ring_t)) +
           (size_t)max_solutions * (size_t)n * (size_t)n;
}

sudoku_exchange_t *sudoku_exchange_init(void *mem, int n, unsigned members,
                                        uint32_t max_solutions) {
    sudoku_exchange_t *x = mem;
    char *p = mem;
    unsigned k;
    if (mem == NULL || sudoku_exchange_bytes(n, members, max_solutions) == 0) return NULL;
    x->n = n;
    x->members = members;
    x->cap = max_solutions;
    atomic_flag_clear(&x->lock);
    atomic_init(&x->count, 0);
    p += AL(sizeof *x);
    x->rings = (ring_t *)(void *)p;
    for (k = 0; k < members; k++) {
        atomic_flag_clear(&x->rings[k].lock);
        x->rings[k].head = 0;
    }
    p += members * AL(sizeof(ring_t));
    x->grids = (uint8_t *)p;
    return x;
}

unsigned sudoku__xc_members(const sudoku_exchange_t *x) { return x->members; }
int sudoku__xc_n(const sudoku_exchange_t *x) { return x->n; }
uint32_t sudoku__xc_capacity(const sudoku_exchange_t *x) { return x->cap; }

void sudoku__xc_publish(sudoku_exchange_t *x, unsigned member, const uint32_t *rec, uint32_t nrec) {
    ring_t *r = &x->rings[member];
    uint32_t i;
    spin_lock(&r->lock);
    for (i = 0; i < nrec; i++) {
        uint32_t slot = (uint32_t)(r->head % SUDOKU__XC_SLOTS);
        memcpy(r->rec + (size_t)slot * SUDOKU__XC_WORDS, rec + (size_t)i * SUDOKU__XC_WORDS,
               SUDOKU__XC_WORDS * sizeof(uint32_t));
        r->head++;
    }
    spin_unlock(&r->lock);
}

uint32_t sudoku__xc_collect(sudoku_exchange_t *x, unsigned from, uint64_t *tail, uint32_t *out,
                            uint32_t max) {
    ring_t *r = &x->rings[from];
    uint32_t k = 0;
    spin_lock(&r->lock);
    if (r->head - *tail > SUDOKU__XC_SLOTS) *tail = r->head - SUDOKU__XC_SLOTS;
    while (*tail < r->head && k < max) {
        uint32_t slot = (uint32_t)(*tail % SUDOKU__XC_SLOTS);
        memcpy(out + (size_t)k * SUDOKU__XC_WORDS, r->rec + (size_t)slot * SUDOKU__XC_WORDS,
               SUDOKU__XC_WORDS * sizeof(uint32_t));
        (*tail)++;
        k++;
    }
    spin_unlock(&r->lock);
    return k;
}

int sudoku__xc_add_solution(sudoku_exchange_t *x, const uint8_t *grid, uint32_t *index) {
    size_t nn = (size_t)x->n * (size_t)x->n;
    uint32_t c, i;
    int rc;
    spin_lock(&x->lock);
    c = atomic_load_explicit(&x->count, memory_order_relaxed);
    for (i = 0; i < c; i++)
        if (memcmp(x->grids + i * nn, grid, nn) == 0) break;
    if (i < c) {
        rc = 0;
    } else if (c == x->cap) {
        rc = -1;
    } else {
        memcpy(x->grids + (size_t)c * nn, grid, nn);
        atomic_store_explicit(&x->count, c + 1, memory_order_release);
        rc = 1;
    }
    spin_unlock(&x->lock);
    *index = i;
    return rc;
}

uint32_t sudoku__xc_count(sudoku_exchange_t *x) {
    return atomic_load_explicit(&x->count, memory_order_acquire);
}

const uint8_t *sudoku__xc_solution(const sudoku_exchange_t *x, uint32_t i) {
    return x->grids + (size_t)i * (size_t)x->n * (size_t)x->n;
}
