/* fail_alloc.c -- see fail_alloc.h. */
#include "tests/fail_alloc.h"

#include <stdatomic.h>
#include <stddef.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static atomic_long fa_count;  /* allocations seen since the arm */
static atomic_long fa_target; /* the one to fail; 0 = none */
static atomic_int fa_armed;
static atomic_int fa_hit;
static _Thread_local int fa_exempt;

/* Whether this allocation is the one to fail. */
static int fa_fail_now(void) {
    if (fa_exempt || !atomic_load(&fa_armed)) return 0;
    long k = atomic_fetch_add(&fa_count, 1) + 1;
    if (k != atomic_load(&fa_target)) return 0;
    atomic_store(&fa_hit, 1);
    return 1;
}

void *__wrap_malloc(size_t size) { return fa_fail_now() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t n, size_t size) { return fa_fail_now() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t size) {
    return fa_fail_now() ? NULL : __real_realloc(p, size);
}

void fa_arm(long nth) {
    atomic_store(&fa_count, 0);
    atomic_store(&fa_hit, 0);
    atomic_store(&fa_target, nth);
    atomic_store(&fa_armed, 1);
}

long fa_disarm(void) {
    atomic_store(&fa_armed, 0);
    return atomic_load(&fa_count);
}

int fa_fired(void) { return atomic_load(&fa_hit); }

void fa_exempt_thread(int on) { fa_exempt = on; }
