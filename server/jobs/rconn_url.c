/* rconn_url.c -- see rconn_url.h. */
#include "server/jobs/rconn_url.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int rconn_url_parse(const char *url, rconn_url_t *out, char *err, size_t cap) {
    const char *p, *at, *host_end;
    size_t n;
    memset(out, 0, sizeof *out);
    out->port = 6379;
    if (strncasecmp(url, "redis://", 8) != 0) {
        snprintf(err, cap, "must start with redis://");
        return -1;
    }
    p = url + 8;
    at = strrchr(p, '@');
    if (at != NULL) { /* [user]:password@ or user@ (no password) */
        const char *colon = memchr(p, ':', (size_t)(at - p));
        size_t ul = colon ? (size_t)(colon - p) : (size_t)(at - p);
        if (ul >= sizeof out->user) {
            snprintf(err, cap, "the user name is longer than %zu characters", sizeof out->user - 1);
            return -1;
        }
        memcpy(out->user, p, ul);
        if (colon != NULL) {
            size_t pl = (size_t)(at - colon - 1);
            if (pl == 0 || pl >= sizeof out->password) {
                snprintf(err, cap, "the password must be 1 to %zu characters",
                         sizeof out->password - 1);
                return -1;
            }
            memcpy(out->password, colon + 1, pl);
        }
        p = at + 1;
    }
    if (*p == '[') { /* [v6 literal] */
        host_end = strchr(p, ']');
        if (host_end == NULL) {
            snprintf(err, cap, "an IPv6 host needs its closing ]");
            return -1;
        }
        n = (size_t)(host_end - p - 1);
        if (n == 0 || n >= sizeof out->host) goto bad_host;
        memcpy(out->host, p + 1, n);
        p = host_end + 1;
    } else {
        n = strcspn(p, ":/");
        if (n == 0 || n >= sizeof out->host) goto bad_host;
        memcpy(out->host, p, n);
        p += n;
    }
    for (const char *c = out->host; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '-' && *c != '_' && *c != ':')
            goto bad_host;
    if (*p == ':') {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end == p + 1 || v < 1 || v > 65535 || (*end != '\0' && *end != '/')) {
            snprintf(err, cap, "the port must be a number from 1 to 65535");
            return -1;
        }
        out->port = (unsigned)v;
        p = end;
    }
    if (*p == '/' && p[1] != '\0') {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end == p + 1 || *end != '\0' || v < 0 || v > 1000000) {
            snprintf(err, cap, "the database must be a number (redis://host:port/0)");
            return -1;
        }
        out->db = (unsigned)v;
    } else if (*p != '\0' && strcmp(p, "/") != 0) {
        snprintf(err, cap, "unexpected text after the host and port");
        return -1;
    }
    return 0;
bad_host:
    snprintf(err, cap, "the host must be a name or an address of up to %zu characters",
             sizeof out->host - 1);
    return -1;
}

void rconn_url_redacted(const rconn_url_t *u, char *out, size_t cap) {
    int v6 = strchr(u->host, ':') != NULL;
    snprintf(out, cap, "redis://%s%s%s%s%s%s:%u/%u", u->user, u->password[0] ? ":***" : "",
             u->user[0] || u->password[0] ? "@" : "", v6 ? "[" : "", u->host, v6 ? "]" : "",
             u->port, u->db);
}
