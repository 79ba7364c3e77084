/* static.h -- the web front end's files (web/), served at `/` by the HTTP
 * thread itself: never queued on the worker pool.
 *
 * Two sources, chosen at start:
 *   embedded   the files compiled into the binary: the Makefile turns web/
 *              into $(BUILD)/gen/web_assets.c (static_assets[] below), so a
 *              bare binary, and so the Docker image, serves the front end
 *              with nothing beside it.  The default.
 *   --web-root a directory read on every request, for development: edit a
 *              file, reload the page, no rebuild.
 *
 * Embedded files are also compressed at build time (gzip -9 -n, kept only
 * when smaller): a client whose Accept-Encoding takes gzip gets those bytes
 * with `Content-Encoding: gzip`, so the server never compresses at run time.
 * --web-root files are served as they are (a development mode).
 *
 * Every answer carries its content type, a strong ETag (FNV-1a 64 of the
 * bytes sent, so each encoding has its own; If-None-Match answers 304),
 * `Vary: Accept-Encoding`, `Cache-Control: no-cache` (the file names carry no
 * version, so a browser revalidates, which costs a 304), a
 * Content-Security-Policy that lets the page load only its own scripts,
 * styles and images and talk only to its own origin, and a
 * Permissions-Policy that turns off the device APIs the page never uses. */
#ifndef PUZZLED_STATIC_H
#define PUZZLED_STATIC_H

#include <stddef.h>

/* One embedded file: its URL path ("/index.html", "/js/app.js"), bytes, and
 * its gzip form (gz NULL when compressing did not make it smaller).  The
 * generated table is sorted by path and holds every file of web/. */
typedef struct static_asset_s {
    const char *path;
    const unsigned char *data;
    size_t len;
    const unsigned char *gz;
    size_t gzlen;
} static_asset_t;

extern const static_asset_t static_assets[];
extern const size_t static_nassets;

/* What the page may load and whom it may talk to (the header's value). */
#define STATIC_CSP                                                                                 \
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "                    \
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/* The browser features the page may use: none of these (the header's value;
 * only names every current browser knows, since Chromium logs an error for
 * an unknown one). */
#define STATIC_PERMISSIONS                                                                         \
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "                 \
    "microphone=(), payment=(), usb=()"

#define STATIC_MAX_FILE (8u << 20) /* largest file --web-root serves */
#define STATIC_MAX_PATH 256        /* longest URL path looked up */

typedef struct static_site_s static_site_t;

/* Sets up the embedded files (web_root NULL or "") or a directory.  Returns
 * 0 and *out (free with static_site_free), or -1 when web_root is not a
 * readable directory or memory runs out (nothing allocated then). */
int static_site_new(static_site_t **out, const char *web_root);

/* NULL-safe. */
void static_site_free(static_site_t *s);

/* A file found by static_site_find(): bytes, length, type, encoding and
 * ETag.  For a --web-root file `owned` is the malloc'd copy to free with
 * static_file_destroy(); embedded files own nothing. */
typedef struct static_file_s {
    const unsigned char *data;
    size_t len;
    const char *content_type; /* static string */
    const char *encoding;     /* "gzip" when data is the gzip form, else NULL */
    char etag[20];            /* "\"" + 16 hex digits + "\"": of the bytes in data */
    unsigned char *owned;
} static_file_t;

/* Looks up URL path `path` ("/" and paths ending in '/' mean their
 * index.html); with gzip_ok, an embedded file's gzip form when it has one.
 * Returns 0 and fills *f, or -1 when there is no such file or the path is
 * not one we serve (a segment starting with '.', a character outside
 * [A-Za-z0-9._-], longer than STATIC_MAX_PATH).  Under --web-root, every
 * directory on the way is opened without following a symlink, and the file
 * too (O_NOFOLLOW), without blocking (O_NONBLOCK: a FIFO cannot hold the
 * thread), and only a regular file (fstat, before any read) is served.
 * Thread-safe: the site is read-only after static_site_new(). */
int static_site_find(const static_site_t *s, const char *path, int gzip_ok, static_file_t *f);

/* Frees what static_site_find() allocated; f may be reused. */
void static_file_destroy(static_file_t *f);

struct MHD_Connection;

/* Queues the answer to GET or HEAD `path` on `conn` (libmicrohttpd's HEAD
 * handling drops the body): 200 with the file (its gzip form when the
 * request's Accept-Encoding takes it), or 304 when the request's
 * If-None-Match matches that form's ETag; *status receives which.  Returns 1 when queued, 0
 * when libmicrohttpd refused (out of memory: the caller drops the
 * connection), or -1 when there is no such file and nothing was queued (the
 * caller answers its usual 404).  HTTP thread only. */
int static_answer(const static_site_t *s, struct MHD_Connection *conn, const char *path,
                  const char *request_id, int *status);

/* The content type for a file name by its extension (a static string;
 * application/octet-stream when unknown). */
const char *static_content_type(const char *path);

/* Whether an Accept-Encoding value takes gzip (RFC 9110 12.5.3: "gzip",
 * "x-gzip" or "*", with a q-value above 0; an explicit gzip;q=0 wins over
 * "*").  NULL takes nothing but the identity. */
int static_accepts_gzip(const char *accept_encoding);

/* Whether an If-None-Match value (a list of entity tags, weak or strong, or
 * "*") matches `etag` by the weak comparison RFC 9110 asks for here.  NULL
 * matches nothing. */
int static_etag_matches(const char *if_none_match, const char *etag);

#endif
