/* budget.c -- global memory budgets (see budget.h).
 *
 * A charge is a compare-and-swap loop on `used`, so the limit is never
 * passed, not even by two threads charging at once; giving back is a
 * plain subtraction.  The allocator's header is 16 bytes (max_align_t on
 * x86-64 and aarch64), which keeps the block aligned as malloc's. */
#include "server/budget.h"

#include <stdalign.h>
#include <stdlib.h>

#define BUDGET_HDR 16
_Static_assert(BUDGET_HDR >= alignof(max_align_t), "the header keeps malloc's alignment");

static void *budget_whole_alloc(void *ud, size_t size);
static void budget_whole_dealloc(void *ud, void *ptr);

void budget_init(budget_t *b, const char *name, size_t limit) {
    b->name = name;
    b->limit = limit;
    atomic_init(&b->used, 0);
    atomic_init(&b->peak, 0);
    atomic_init(&b->refused, 0);
    b->alloc.alloc = budget_whole_alloc;
    b->alloc.dealloc = budget_whole_dealloc;
    b->alloc.ud = b;
}

static void budget_note_peak(budget_t *b, size_t now) {
    size_t p = atomic_load_explicit(&b->peak, memory_order_relaxed);
    while (now > p && !atomic_compare_exchange_weak(&b->peak, &p, now)) {
    }
}

int budget_take(budget_t *b, size_t n) {
    size_t cur = atomic_load(&b->used);
    do {
        if (n > b->limit || cur > b->limit - n) {
            atomic_fetch_add_explicit(&b->refused, 1, memory_order_relaxed);
            return -1;
        }
    } while (!atomic_compare_exchange_weak(&b->used, &cur, cur + n));
    budget_note_peak(b, cur + n);
    return 0;
}

void budget_force(budget_t *b, size_t n) { budget_note_peak(b, atomic_fetch_add(&b->used, n) + n); }

void budget_give(budget_t *b, size_t n) { atomic_fetch_sub(&b->used, n); }

void budget_charge_init(budget_charge_t *c, budget_t *b, size_t share) {
    c->budget = b;
    c->share = share;
    atomic_init(&c->held, 0);
    atomic_init(&c->over_share, 0);
    atomic_init(&c->over_budget, 0);
}

int budget_charge_take(budget_charge_t *c, size_t n) {
    size_t cur = atomic_load(&c->held);
    if (c->share != 0) {
        do {
            if (n > c->share || cur > c->share - n) {
                atomic_store(&c->over_share, 1);
                return -1;
            }
        } while (!atomic_compare_exchange_weak(&c->held, &cur, cur + n));
    } else {
        atomic_fetch_add(&c->held, n);
    }
    if (budget_take(c->budget, n) != 0) {
        atomic_fetch_sub(&c->held, n);
        atomic_store(&c->over_budget, 1);
        return -1;
    }
    return 0;
}

void budget_charge_give(budget_charge_t *c, size_t n) {
    atomic_fetch_sub(&c->held, n);
    budget_give(c->budget, n);
}

/* Blocks: `total` bytes from malloc, the first BUDGET_HDR holding total.
 * budget_block_total: what a block of size bytes charges, 0 past SIZE_MAX. */
static size_t budget_block_total(size_t size) {
    return size > SIZE_MAX - BUDGET_HDR ? 0 : size + BUDGET_HDR;
}

/* The user's pointer of a block just taken (NULL when malloc failed). */
static void *budget_block_user(unsigned char *p, size_t total) {
    if (p == NULL) return NULL;
    *(size_t *)p = total;
    return p + BUDGET_HDR;
}

/* Frees the block behind ptr; returns what it charged. */
static size_t budget_block_free(void *ptr) {
    unsigned char *p = (unsigned char *)ptr - BUDGET_HDR;
    size_t total = *(size_t *)p;
    free(p);
    return total;
}

/* Charged to a request (budget_allocator_init). */
static void *budget_alloc(void *ud, size_t size) {
    size_t total = budget_block_total(size);
    if (total == 0 || budget_charge_take(ud, total) != 0) return NULL;
    void *u = budget_block_user(malloc(total), total);
    if (u == NULL) budget_charge_give(ud, total);
    return u;
}

static void budget_dealloc(void *ud, void *ptr) {
    if (ptr != NULL) budget_charge_give(ud, budget_block_free(ptr));
}

/* Charged to the budget alone (budget_t.alloc). */
static void *budget_whole_alloc(void *ud, size_t size) {
    size_t total = budget_block_total(size);
    if (total == 0 || budget_take(ud, total) != 0) return NULL;
    void *u = budget_block_user(malloc(total), total);
    if (u == NULL) budget_give(ud, total);
    return u;
}

static void budget_whole_dealloc(void *ud, void *ptr) {
    if (ptr != NULL) budget_give(ud, budget_block_free(ptr));
}

void budget_allocator_init(search_allocator_t *a, budget_charge_t *c) {
    a->alloc = budget_alloc;
    a->dealloc = budget_dealloc;
    a->ud = c;
}
