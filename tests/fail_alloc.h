/* fail_alloc.h -- a failing allocator for the test binary.
 *
 * The test binary is linked with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc, so every allocation that puzzled's own objects make goes
 * through __wrap_*() here, and so do jansson's once server/guard.c's hook is
 * installed (it calls malloc from our objects; jansson itself is a shared
 * library, which --wrap cannot reach).  libcurl's
 * and libmicrohttpd's own allocations are not seen: they are not ours to test.
 *
 * Armed with fa_arm(n), the n-th allocation from then on fails (returns
 * NULL), once; every allocation is counted.  A thread marked exempt (the
 * test's client thread) neither counts nor fails, so that the walk aims at
 * the code under test alone.  Thread-safe: the counters are atomics. */
#ifndef PUZZLED_TESTS_FAIL_ALLOC_H
#define PUZZLED_TESTS_FAIL_ALLOC_H

/* Starts counting; the nth allocation from now fails (0: none fails). */
void fa_arm(long nth);

/* Stops failing; returns the allocations counted since fa_arm(). */
long fa_disarm(void);

/* Whether the armed failure happened. */
int fa_fired(void);

/* This thread's allocations neither count nor fail (on = 1) or do again. */
void fa_exempt_thread(int on);

#endif
