/* static.c -- serves web/ (see static.h for the two sources and the headers).
 *
 * Embedded files: static_site_new() copies the generated table into an array
 * of entries with each file's content type and ETags (plain and gzip) worked
 * out once, so a request is a short scan (a few dozen files) plus two header
 * checks.  The gzip bytes come from the build (the Makefile compresses each
 * file of web/ when it generates the table): nothing is compressed here.
 * --web-root files: every request opens, reads and hashes the file again,
 * which is what a developer editing them wants.  The path is checked segment
 * by segment first (no "..", no hidden files, no odd characters), then
 * walked with openat() from the root: each directory with O_DIRECTORY |
 * O_NOFOLLOW (a symlinked directory is refused, like a symlinked file), the
 * file with O_NOFOLLOW | O_NONBLOCK (opening a FIFO must not wait for a
 * writer), and fstat() says it is a regular file before a byte is read.  So
 * a request cannot leave the directory, nor hold the HTTP thread.
 *
 * Thread-safety: a site is immutable after static_site_new(); every call
 * reads it only, and the HTTP thread is the only caller anyway. */
#include "server/http/static.h"

#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct static_entry_s {
    const static_asset_t *asset;
    const char *content_type;
    char etag[20];    /* of asset->data */
    char gz_etag[20]; /* of asset->gz, when there is one */
} static_entry_t;

struct static_site_s {
    char *root; /* NULL: embedded */
    static_entry_t *entries;
    size_t nentries;
};

/* === Helpers === */

static void static_etag_of(const unsigned char *data, size_t len, char out[20]) {
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a 64 */
    for (size_t i = 0; i < len; i++) {
        h ^= data[i];
        h *= 0x100000001b3u;
    }
    snprintf(out, 20, "\"%016llx\"", (unsigned long long)h);
}

const char *static_content_type(const char *path) {
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".json", "application/json"},
        {".webmanifest", "application/manifest+json"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".txt", "text/plain; charset=utf-8"},
        {".woff2", "font/woff2"},
    };
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (dot != NULL)
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (strcmp(dot, types[i].ext) == 0) return types[i].type;
    return "application/octet-stream";
}

/* Reads a q-value ("q=0.5") after a ';' at p; 1 when there is none. */
static double static_qvalue(const char *p, const char *end) {
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ';'))
            p++;
        if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
            double q = 0;
            char *stop;
            char num[8];
            size_t n = 0;
            for (p += 2; p < end && n + 1 < sizeof num && *p != ';'; p++)
                num[n++] = *p;
            num[n] = '\0';
            q = strtod(num, &stop);
            return stop == num ? 0 : q;
        }
        while (p < end && *p != ';')
            p++;
    }
    return 1;
}

int static_accepts_gzip(const char *ae) {
    int star = 0; /* -1 refused, 0 not named, 1 taken */
    if (ae == NULL) return 0;
    while (*ae != '\0') {
        while (*ae == ' ' || *ae == '\t' || *ae == ',')
            ae++;
        const char *end = ae + strcspn(ae, ",");
        size_t n = strcspn(ae, ";, \t");
        int taken = static_qvalue(ae + n, end) > 0;
        if ((n == 4 && strncasecmp(ae, "gzip", 4) == 0) ||
            (n == 6 && strncasecmp(ae, "x-gzip", 6) == 0))
            return taken; /* named: its own q-value decides */
        if (n == 1 && ae[0] == '*') star = taken ? 1 : -1;
        ae = end;
    }
    return star > 0;
}

int static_etag_matches(const char *inm, const char *etag) {
    size_t elen = strlen(etag);
    if (inm == NULL) return 0;
    while (*inm != '\0') {
        while (*inm == ' ' || *inm == '\t' || *inm == ',')
            inm++;
        if (*inm == '*') return 1;
        if (strncmp(inm, "W/", 2) == 0) inm += 2;
        size_t n = strcspn(inm, ",");
        while (n > 0 && (inm[n - 1] == ' ' || inm[n - 1] == '\t'))
            n--;
        if (n == elen && memcmp(inm, etag, n) == 0) return 1;
        inm += strcspn(inm, ",");
    }
    return 0;
}

/* Whether a URL path is one we look up: '/'-separated segments of
 * [A-Za-z0-9._-], none empty (but a last one, meaning index.html), none
 * starting with '.'.  Writes the file path relative to the root, with
 * index.html filled in, to out (STATIC_MAX_PATH + 16 bytes). */
static int static_normalise(const char *path, char *out) {
    size_t n = strlen(path);
    if (n == 0 || path[0] != '/' || n > STATIC_MAX_PATH) return -1;
    for (size_t i = 1; i <= n; i++) {
        char c = path[i];
        if (c == '\0') break;
        if (c == '/') {
            if (path[i - 1] == '/') return -1;
            continue;
        }
        if (c == '.' && path[i - 1] == '/') return -1;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return -1;
    }
    snprintf(out, STATIC_MAX_PATH + 16, "%s%s", path, path[n - 1] == '/' ? "index.html" : "");
    return 0;
}

/* === Site === */

int static_site_new(static_site_t **out, const char *web_root) {
    static_site_t *s = calloc(1, sizeof *s);
    if (s == NULL) return -1;
    if (web_root != NULL && web_root[0] != '\0') {
        struct stat st;
        if (stat(web_root, &st) != 0 || !S_ISDIR(st.st_mode) || access(web_root, R_OK | X_OK)) {
            free(s);
            return -1;
        }
        s->root = strdup(web_root);
        if (s->root == NULL) goto fail;
        *out = s;
        return 0;
    }
    s->entries = calloc(static_nassets ? static_nassets : 1, sizeof *s->entries);
    if (s->entries == NULL) goto fail;
    for (size_t i = 0; i < static_nassets; i++) {
        static_entry_t *e = &s->entries[i];
        e->asset = &static_assets[i];
        e->content_type = static_content_type(e->asset->path);
        static_etag_of(e->asset->data, e->asset->len, e->etag);
        if (e->asset->gz != NULL) static_etag_of(e->asset->gz, e->asset->gzlen, e->gz_etag);
    }
    s->nentries = static_nassets;
    *out = s;
    return 0;
fail:
    free(s->root);
    free(s);
    return -1;
}

void static_site_free(static_site_t *s) {
    if (s == NULL) return;
    free(s->root);
    free(s->entries);
    free(s);
}

/* Opens root + rel for reading without following a symlink anywhere below
 * the root and without blocking: every directory on the way is opened
 * O_DIRECTORY | O_NOFOLLOW relative to the one before, the file O_NOFOLLOW |
 * O_NONBLOCK.  rel is normalised (static_normalise): it starts with '/' and
 * has no empty, "." or ".." segment.  Returns the descriptor or -1. */
static int static_open_below(const char *root, const char *rel) {
    char seg[STATIC_MAX_PATH + 16];
    int dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const char *p = rel + 1;
    for (;;) {
        size_t n = strcspn(p, "/");
        int fd;
        if (dir < 0) return -1;
        memcpy(seg, p, n);
        seg[n] = '\0';
        if (p[n] == '\0') { /* the file itself */
            fd = openat(dir, seg, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
            close(dir);
            return fd;
        }
        fd = openat(dir, seg, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(dir);
        dir = fd;
        p += n + 1;
    }
}

/* Reads root + rel into a malloc'd buffer. */
static int static_read_file(const char *root, const char *rel, static_file_t *f) {
    struct stat st;
    unsigned char *buf = NULL;
    size_t got = 0;
    int fd = static_open_below(root, rel);

    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > STATIC_MAX_FILE)
        goto fail;
    buf = malloc((size_t)st.st_size + 1); /* +1: an empty file still gets a buffer */
    if (buf == NULL) goto fail;
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) goto fail; /* shrank under us: try again next request */
        got += (size_t)r;
    }
    close(fd);
    f->data = buf;
    f->owned = buf;
    f->len = got;
    f->content_type = static_content_type(rel);
    static_etag_of(buf, got, f->etag);
    return 0;
fail:
    free(buf);
    close(fd);
    return -1;
}

int static_site_find(const static_site_t *s, const char *path, int gzip_ok, static_file_t *f) {
    char rel[STATIC_MAX_PATH + 16];
    memset(f, 0, sizeof *f);
    if (static_normalise(path, rel) != 0) return -1;
    if (s->root != NULL) return static_read_file(s->root, rel, f);
    for (size_t i = 0; i < s->nentries; i++) {
        const static_entry_t *e = &s->entries[i];
        if (strcmp(e->asset->path, rel) != 0) continue;
        f->content_type = e->content_type;
        if (gzip_ok && e->asset->gz != NULL) {
            f->data = e->asset->gz;
            f->len = e->asset->gzlen;
            f->encoding = "gzip";
            memcpy(f->etag, e->gz_etag, sizeof f->etag);
        } else {
            f->data = e->asset->data;
            f->len = e->asset->len;
            memcpy(f->etag, e->etag, sizeof f->etag);
        }
        return 0;
    }
    return -1;
}

void static_file_destroy(static_file_t *f) {
    free(f->owned);
    memset(f, 0, sizeof *f);
}

/* === Answers === */

int static_answer(const static_site_t *s, struct MHD_Connection *conn, const char *path,
                  const char *request_id, int *status) {
    static_file_t f;
    struct MHD_Response *m;
    const char *inm, *ae;
    int code;
    enum MHD_Result ok;

    ae = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);
    if (static_site_find(s, path, static_accepts_gzip(ae), &f) != 0) return -1;
    inm = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    code = static_etag_matches(inm, f.etag) ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK;
    if (code == MHD_HTTP_NOT_MODIFIED)
        m = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    else if (f.owned != NULL) /* MHD frees it: the answer may outlive this call */
        m = MHD_create_response_from_buffer_with_free_callback(f.len, f.owned, free);
    else
        m = MHD_create_response_from_buffer(f.len, (void *)f.data, MHD_RESPMEM_PERSISTENT);
    if (m == NULL) {
        static_file_destroy(&f);
        return 0;
    }
    if (code == MHD_HTTP_OK) f.owned = NULL; /* MHD owns it now */
    if (code == MHD_HTTP_OK) {
        MHD_add_response_header(m, MHD_HTTP_HEADER_CONTENT_TYPE, f.content_type);
        if (f.encoding != NULL)
            MHD_add_response_header(m, MHD_HTTP_HEADER_CONTENT_ENCODING, f.encoding);
    }
    MHD_add_response_header(m, MHD_HTTP_HEADER_ETAG, f.etag);
    MHD_add_response_header(m, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
    MHD_add_response_header(m, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    MHD_add_response_header(m, MHD_HTTP_HEADER_CONTENT_SECURITY_POLICY, STATIC_CSP);
    MHD_add_response_header(m, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(m, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(m, "Permissions-Policy", STATIC_PERMISSIONS);
    MHD_add_response_header(m, "X-Request-Id", request_id);
    ok = MHD_queue_response(conn, (unsigned)code, m);
    MHD_destroy_response(m);
    static_file_destroy(&f);
    *status = code;
    return ok == MHD_YES ? 1 : 0;
}
