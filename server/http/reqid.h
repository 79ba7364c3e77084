/* reqid.h -- X-Request-Id: accept a sane one from the client, else mint one. */
#ifndef PUZZLED_REQID_H
#define PUZZLED_REQID_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define REQID_MAX 128 /* longest id accepted from a client */

typedef struct reqid_s {
    uint64_t seed;
    atomic_uint_fast64_t counter;
} reqid_t;

/* Seeds the generator from the kernel's random source (or the clock). */
void reqid_init(reqid_t *r);

/* Copies `client` into out (REQID_MAX + 1 bytes) when it is 1..REQID_MAX
 * characters of [A-Za-z0-9._:/+=@-]; otherwise writes a fresh 16-hex-digit
 * id.  Returns 1 if the client's id was kept, 0 if one was minted.  Thread-safe. */
int reqid_take(reqid_t *r, const char *client, char *out);

#endif
