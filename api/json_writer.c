/* json_writer.c -- see json_writer.h. */
#include "api/json_writer.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_util.h"

#define JW_FIRST_CAP 512 /* a 9x9 solve answer with its statistics fits */

void api_jw_init(api_jw_t *w) { memset(w, 0, sizeof *w); }

/* Room for `more` bytes and the NUL; 0, or -1 (and failed) */
static int jw_reserve(api_jw_t *w, size_t more) {
    if (w->failed) return -1;
    if (w->len + more + 1 <= w->cap) return 0;
    size_t cap = w->cap ? w->cap : JW_FIRST_CAP;
    while (cap < w->len + more + 1)
        cap *= 2;
    char *b = realloc(w->buf, cap);
    if (b == NULL) {
        w->failed = 1;
        return -1;
    }
    w->buf = b;
    w->cap = cap;
    return 0;
}

static void jw_put(api_jw_t *w, const char *s, size_t n) {
    if (jw_reserve(w, n) != 0) return;
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

/* Before any value: the comma of an array member (an object member's
 * comma came with its key). */
static void jw_value(api_jw_t *w) {
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (w->depth == 0) return;
    assert(!w->is_obj[w->depth - 1]); /* an object member needs its key first */
    if (w->members[w->depth - 1]) jw_put(w, ",", 1);
    w->members[w->depth - 1] = 1;
}

static void jw_open(api_jw_t *w, int obj) {
    jw_value(w);
    assert(w->depth < API_JW_DEPTH);
    w->members[w->depth] = 0;
    w->is_obj[w->depth] = (unsigned char)obj;
    w->depth++;
    jw_put(w, obj ? "{" : "[", 1);
}

static void jw_close(api_jw_t *w, int obj) {
    assert(w->depth > 0 && w->is_obj[w->depth - 1] == obj && !w->after_key);
    w->depth--;
    jw_put(w, obj ? "}" : "]", 1);
}

void api_jw_obj(api_jw_t *w) { jw_open(w, 1); }
void api_jw_end_obj(api_jw_t *w) { jw_close(w, 1); }
void api_jw_arr(api_jw_t *w) { jw_open(w, 0); }
void api_jw_end_arr(api_jw_t *w) { jw_close(w, 0); }

/* A string with jansson's escapes: the two that must be, the five short
 * control escapes, \uXXXX (upper-case hex) for the other control bytes;
 * everything else, UTF-8 included, as it is. */
static void jw_string(api_jw_t *w, const char *s, size_t len) {
    static const char hex[] = "0123456789ABCDEF";
    size_t run = 0;
    jw_put(w, "\"", 1);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[7] = {'\\', 0};
        size_t elen = 2;
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        jw_put(w, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            elen = 6;
        }
        jw_put(w, esc, elen);
    }
    jw_put(w, s + run, len - run);
    jw_put(w, "\"", 1);
}

void api_jw_key(api_jw_t *w, const char *key) {
    assert(w->depth > 0 && w->is_obj[w->depth - 1] && !w->after_key);
    if (w->members[w->depth - 1]) jw_put(w, ",", 1);
    w->members[w->depth - 1] = 1;
    jw_string(w, key, strlen(key));
    jw_put(w, ":", 1);
    w->after_key = 1;
}

void api_jw_str(api_jw_t *w, const char *s, size_t len) {
    jw_value(w);
    jw_string(w, s, len);
}

void api_jw_cstr(api_jw_t *w, const char *s) { api_jw_str(w, s, strlen(s)); }

void api_jw_int(api_jw_t *w, long long v) {
    char tmp[24], *p = tmp + sizeof tmp;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    jw_value(w);
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0) *--p = '-';
    jw_put(w, p, (size_t)(tmp + sizeof tmp - p));
}

/* jansson's real: "%.9g" (API_JSON_FLAGS' precision), ".0" when it reads
 * as an integer, no '+' or leading zeros in the exponent.  A value jansson
 * cannot hold (not finite) is written as null. */
void api_jw_real(api_jw_t *w, double v) {
    char b[48];
    if (!isfinite(v)) {
        api_jw_null(w);
        return;
    }
    int n = snprintf(b, sizeof b - 3, "%.9g", v);
    if (n < 0 || (size_t)n >= sizeof b - 3) { /* cannot happen for %.9g */
        api_jw_null(w);
        return;
    }
    size_t len = (size_t)n;
    char *e = strchr(b, 'e');
    if (e == NULL && strchr(b, '.') == NULL) {
        memcpy(b + len, ".0", 3);
        len += 2;
    }
    if (e != NULL) {
        char *start = e + 1, *end = e + 2;
        if (*start == '-') start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, len - (size_t)(end - b) + 1);
            len -= (size_t)(end - start);
        }
    }
    jw_value(w);
    jw_put(w, b, len);
}

void api_jw_bool(api_jw_t *w, int v) {
    jw_value(w);
    if (v)
        jw_put(w, "true", 4);
    else
        jw_put(w, "false", 5);
}

void api_jw_null(api_jw_t *w) {
    jw_value(w);
    jw_put(w, "null", 4);
}

void api_jw_respond(api_jw_t *w, int status, api_response_t *resp) {
    assert(w->depth == 0 || w->failed);
    api_response_destroy(resp);
    if (w->failed || w->buf == NULL) {
        api_jw_destroy(w);
        api_response_nomem(resp, "building the answer");
        return;
    }
    resp->body = w->buf;
    resp->len = w->len;
    resp->status = status;
    resp->content_type = "application/json";
    api_jw_init(w);
}

void api_jw_destroy(api_jw_t *w) {
    free(w->buf);
    api_jw_init(w);
}
