/* reqid.c -- request ids.  Minted ids are splitmix64(seed + counter): unique
 * within a process (the counter), unlikely to collide across replicas (the
 * random seed), and cheap (no syscall per request). */
#include "server/http/reqid.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

void reqid_init(reqid_t *r) {
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    }
    r->seed = seed;
    atomic_init(&r->counter, 0);
}

static uint64_t reqid_mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static int reqid_valid(const char *s) {
    size_t n = 0;
    for (; s[n] != '\0'; n++) {
        char c = s[n];
        if (n >= REQID_MAX) return 0;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr("._:/+=@-", c) != NULL))
            return 0;
    }
    return n > 0;
}

int reqid_take(reqid_t *r, const char *client, char *out) {
    if (client != NULL && reqid_valid(client)) {
        memcpy(out, client, strlen(client) + 1);
        return 1;
    }
    uint64_t n = atomic_fetch_add_explicit(&r->counter, 1, memory_order_relaxed);
    snprintf(out, REQID_MAX + 1, "%016llx", (unsigned long long)reqid_mix(r->seed + n));
    return 0;
}
