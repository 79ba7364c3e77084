/* test_util.h -- small helpers every suite may share: sleeping and a
 * monotonic clock in milliseconds, a thread body that raises a cancel
 * flag after a delay (for the tests that cancel a search from outside),
 * and an allocator that counts what it holds (as the server's charges its
 * budget: for the tests of what a job allocates through ctl.alloc).
 * Header-only: static inline, so a suite that uses none pays nothing. */
#ifndef PUZZLED_TESTS_TEST_UTIL_H
#define PUZZLED_TESTS_TEST_UTIL_H

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "solvers/search.h"

static inline void test_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static inline double test_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* pthread_create(&th, NULL, test_canceller, &c): sleeps c.ms, then sets
 * *c.flag to 1.  c must outlive the thread (join it). */
typedef struct test_canceller_s {
    atomic_int *flag;
    int ms;
} test_canceller_t;

static inline void *test_canceller(void *arg) {
    test_canceller_t *c = arg;
    test_sleep_ms(c->ms);
    atomic_store(c->flag, 1);
    return NULL;
}

/* search_allocator_t a = {test_count_alloc, test_count_free, &held}:
 * every block adds its size to `held` (a size_t; one thread at a time)
 * and its free takes it back. */
static inline void *test_count_alloc(void *ud, size_t n) {
    size_t *b = malloc(n + 16);
    if (b == NULL) return NULL;
    b[0] = n;
    *(size_t *)ud += n;
    return (char *)b + 16;
}

static inline void test_count_free(void *ud, void *p) {
    if (p == NULL) return;
    size_t *b = (size_t *)(void *)((char *)p - 16);
    *(size_t *)ud -= b[0];
    free(b);
}

#endif
