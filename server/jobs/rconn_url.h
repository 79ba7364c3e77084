/* rconn_url.h -- the Redis URL of cluster mode (--redis), parsed.
 *
 * Apart from the connections (rconn.h) because the configuration checks the
 * URL when it reads its options (server/config.c), and the connections read
 * the configuration's limits: with the parser in rconn.c the two included
 * each other. */
#ifndef PUZZLED_RCONN_URL_H
#define PUZZLED_RCONN_URL_H

#include <stddef.h>

typedef struct rconn_url_s {
    char host[256];
    unsigned port;
    char user[128];     /* "" = the default user */
    char password[256]; /* "" = no AUTH; never logged */
    unsigned db;
} rconn_url_t;

/* Parses redis://[[user]:password@]host[:port][/db] (host may be [v6]).
 * Returns 0, or -1 with a reason in err that never contains the password. */
int rconn_url_parse(const char *url, rconn_url_t *out, char *err, size_t cap);

/* The URL without its password (":***@" instead), for logs. */
void rconn_url_redacted(const rconn_url_t *u, char *out, size_t cap);

#endif
