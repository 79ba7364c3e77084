/* redis_harness.h -- a real redis-server for the cluster tests: started on a
 * free loopback port with its own temporary directory (append-only file on,
 * so a restart finds its data), stopped and restarted at will. */
#ifndef PUZZLED_TESTS_REDIS_HARNESS_H
#define PUZZLED_TESTS_REDIS_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

typedef struct tredis_s {
    pid_t pid;
    unsigned port;
    char dir[256];
    char password[64]; /* "" = none */
    char url[160];     /* redis://[:password@]127.0.0.1:PORT/0 */
} tredis_t;

/* Whether a redis-server can be run here ($REDIS_SERVER, or on PATH). */
int tredis_available(void);

/* Starts a server (requirepass `password` unless NULL) and waits until it
 * answers PING.  Returns 0, or -1. */
int tredis_start(tredis_t *r, const char *password);

/* Sends `sig` and waits for the exit (SIGTERM: Redis writes its data). */
void tredis_stop(tredis_t *r, int sig);

/* Starts it again on the same port and directory.  0 or -1. */
int tredis_restart(tredis_t *r);

/* Stops it (if running) and removes its directory. */
void tredis_destroy(tredis_t *r);

/* Runs one command (printf-style, hiredis' format) and returns its integer
 * reply, or the first integer of an array reply; -1 on failure. */
long long tredis_int(const tredis_t *r, const char *fmt, ...);

/* Runs one command and returns how many elements its array reply has
 * (XPENDING's extended form: the entries a consumer holds); -1 on failure. */
long long tredis_len(const tredis_t *r, const char *fmt, ...);

/* A key prefix no other test uses ("t<pid>-<seq>:"). */
void tredis_prefix(char *out, size_t cap);

#endif
