/* record.c -- see record.h.  A line is built in memory (open_memstream) and
 * appended with one write() on a file opened O_APPEND for that record: no
 * state is kept between records but an atomic count, so forked check cases,
 * client threads and the deployment load's single thread all share it. */
#include "tests/contract/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_long recorded;
static atomic_int warned;

int contract_enabled(void) {
    const char *dir = getenv("PUZZLED_CONTRACT_DIR");
    return dir != NULL && *dir != '\0';
}

static size_t env_size(const char *name, size_t dflt) {
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? (size_t)strtoull(v, NULL, 10) : dflt;
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t left) {
    size_t n;
    unsigned cp;
    if (p[0] < 0x80) return 1;
    if ((p[0] & 0xE0) == 0xC0)
        n = 2, cp = p[0] & 0x1Fu;
    else if ((p[0] & 0xF0) == 0xE0)
        n = 3, cp = p[0] & 0x0Fu;
    else if ((p[0] & 0xF8) == 0xF0)
        n = 4, cp = p[0] & 0x07u;
    else
        return 0;
    if (n > left) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (p[i] & 0x3Fu);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

static int is_utf8(const char *s, size_t len) {
    for (size_t i = 0, n; i < len; i += n)
        if ((n = utf8_seq((const unsigned char *)s + i, len - i)) == 0) return 0;
    return 1;
}

/* A JSON string (s must be UTF-8). */
static void put_str(FILE *f, const char *s, size_t len) {
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\r')
            fputs("\\r", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c == 0x7F)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_b64(FILE *f, const char *s, size_t len) {
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < len ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < len ? p[i + 2] : 0);
        fputc(a[v >> 18 & 63], f);
        fputc(a[v >> 12 & 63], f);
        fputc(i + 1 < len ? a[v >> 6 & 63] : '=', f);
        fputc(i + 2 < len ? a[v & 63] : '=', f);
    }
    fputc('"', f);
}

/* ,"key":"text" or ,"key_b64":"..." (or ,"truncated":true past the cap). */
static void put_body(FILE *f, const char *key, const char *s, size_t len, size_t cap) {
    if (s == NULL) return;
    if (len > cap) {
        fprintf(f, ",\"%s_truncated\":%zu", key, len);
    } else if (is_utf8(s, len)) {
        fprintf(f, ",\"%s\":", key);
        put_str(f, s, len);
    } else {
        fprintf(f, ",\"%s_b64\":", key);
        put_b64(f, s, len);
    }
}

/* mkdir -p: 0, or -1 when a level could not be made. */
static int make_dirs(const char *dir) {
    char p[512];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof p) return -1;
    memcpy(p, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != '\0') continue;
        p[i] = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) return -1;
        p[i] = dir[i];
    }
    return 0;
}

static void warn_once(const char *what, const char *path) {
    if (atomic_exchange(&warned, 1) == 0)
        fprintf(stderr, "contract record: cannot %s %s; exchanges go unrecorded\n", what, path);
}

void contract_record(const contract_exchange_t *x) {
    const char *dir = getenv("PUZZLED_CONTRACT_DIR");
    size_t cap = env_size("PUZZLED_CONTRACT_MAX_BODY", (size_t)8 << 20);
    size_t limit = env_size("PUZZLED_CONTRACT_LIMIT", 0);
    char path[512], *line = NULL;
    size_t len = 0;
    FILE *f;
    int fd;

    if (dir == NULL || *dir == '\0' || x->status == 0) return;
    if (limit != 0 && (size_t)atomic_fetch_add(&recorded, 1) >= limit) return;
    f = open_memstream(&line, &len);
    if (f == NULL) return;
    fputs("{\"source\":", f);
    put_str(f, x->source, strlen(x->source));
    fputs(",\"method\":", f);
    put_str(f, x->method, strlen(x->method));
    fputs(",\"url\":", f);
    put_str(f, x->url, strlen(x->url));
    fputs(",\"req_headers\":[", f);
    for (size_t i = 0; x->req_headers != NULL && x->req_headers[i] != NULL; i++) {
        const char *h = x->req_headers[i];
        if (i) fputc(',', f);
        if (is_utf8(h, strlen(h)))
            put_str(f, h, strlen(h));
        else
            put_str(f, "X-Not-Utf8: 1", 13);
    }
    fputc(']', f);
    put_body(f, "req_body", x->req_body, x->req_len, cap);
    fprintf(f, ",\"status\":%ld", x->status);
    if (x->resp_headers != NULL) {
        fputs(",\"resp_headers\":", f);
        if (is_utf8(x->resp_headers, x->resp_hlen))
            put_str(f, x->resp_headers, x->resp_hlen);
        else
            put_str(f, "", 0);
    }
    put_body(f, "body", x->body, x->len, cap);
    if (x->incomplete) fputs(",\"incomplete\":true", f);
    fputs("}\n", f);
    if (fclose(f) != 0) {
        free(line);
        return;
    }
    snprintf(path, sizeof path, "%s/%s-%d.jsonl", dir, x->source, (int)getpid());
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOENT && make_dirs(dir) == 0)
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        warn_once("open", path);
    } else {
        for (size_t off = 0; off < len;) {
            ssize_t n = write(fd, line + off, len - off);
            if (n <= 0) {
                warn_once("write", path);
                break;
            }
            off += (size_t)n;
        }
        close(fd);
    }
    free(line);
}
