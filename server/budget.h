/* budget.h -- global memory budgets, as Redis has maxmemory: a limit, what
 * is in use against it, and what was refused.
 *
 * Per-request limits (--max-body, a grid's size, n) keep one request
 * small; a budget keeps all of them together small.  The server has two:
 *
 *   work     everything requests hold while they are served: bodies being
 *            read, the working memory of their searches (every solver's
 *            arena goes through budget_allocator(), charged here), answers
 *            rendered and not yet sent.  --max-work-memory.
 *   results  the answers async jobs keep for their clients (the embedded
 *            job store; Redis keeps its own under its own maxmemory).
 *            --max-job-memory.
 *
 * A charge that would pass the limit is refused, and the caller answers
 * 503 with Retry-After (work) or evicts the oldest ended job (results).
 * The work budget is also shared out: one request may hold at most
 * --max-request-memory of it (budget_charge_t), so that no request takes
 * a large share and a request whose work cannot fit is told so rather than
 * left to fail when others are busy.
 *
 * Thread-safety: any thread; `used` and the counters are atomics, a
 * budget's limit is constant after budget_init().  A charge_t belongs to
 * one request, but its searches may allocate on several workers at once:
 * its `held` is atomic too. */
#ifndef PUZZLED_BUDGET_H
#define PUZZLED_BUDGET_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "solvers/search.h"

typedef struct budget_s {
    const char *name;             /* "work", "results": the metrics label */
    size_t limit;                 /* bytes; constant */
    atomic_size_t used;           /* bytes charged now */
    atomic_size_t peak;           /* the most ever charged at once */
    atomic_uint_fast64_t refused; /* charges refused */
    /* An allocator charging this budget alone (no request's share): for
     * what a request's prepare() allocates for its job to keep (a generate
     * job's items), before the pool gives the job a share of its own.  Set
     * by budget_init(); its blocks may outlive the pool, not the budget. */
    search_allocator_t alloc;
} budget_t;

/* Sets the limit, zeroes the counters, and points b->alloc at b. */
void budget_init(budget_t *b, const char *name, size_t limit);

/* Charges n bytes: 0, or -1 (nothing charged) when used + n would pass the
 * limit. */
int budget_take(budget_t *b, size_t n);

/* Charges n bytes whatever the limit (memory already in use, like an
 * answer that was rendered: counted so that others wait for it). */
void budget_force(budget_t *b, size_t n);

/* Gives back n bytes charged before. */
void budget_give(budget_t *b, size_t n);

/* One request's share of a budget: what it holds, and at most `share`. */
typedef struct budget_charge_s {
    budget_t *budget;
    size_t share;           /* bytes; 0 = no share of its own (the budget's limit) */
    atomic_size_t held;     /* bytes this request holds now */
    atomic_int over_share;  /* a charge was refused because of the share */
    atomic_int over_budget; /* ... because the whole budget was full */
} budget_charge_t;

void budget_charge_init(budget_charge_t *c, budget_t *b, size_t share);

/* Charges n bytes to the request and its budget: 0, or -1 when either
 * would pass its limit (over_share or over_budget says which). */
int budget_charge_take(budget_charge_t *c, size_t n);
void budget_charge_give(budget_charge_t *c, size_t n);

/* An allocator (solvers/search.h) that charges every block to `c`: what a
 * search allocates through it counts against the request's share and the
 * budget, and fails (NULL) past either.  Each block carries its size in a
 * 16-byte header, so the free gives back what was taken; blocks stay
 * aligned as malloc's.  The struct points at c, which must outlive every
 * block. */
void budget_allocator_init(search_allocator_t *a, budget_charge_t *c);

#endif
