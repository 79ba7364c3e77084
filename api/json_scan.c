/* json_scan.c -- see json_scan.h. */
#include "api/json_scan.h"

#include <string.h>

void api_js_init(api_js_t *js, const char *text, size_t len) {
    js->p = text ? text : "";
    js->end = js->p + (text ? len : 0);
}

static void js_space(api_js_t *js) {
    while (js->p < js->end && (*js->p == ' ' || *js->p == '\t' || *js->p == '\n' || *js->p == '\r'))
        js->p++;
}

int api_js_accept(api_js_t *js, char c) {
    js_space(js);
    if (js->p < js->end && *js->p == c) {
        js->p++;
        return 1;
    }
    return 0;
}

int api_js_string(api_js_t *js, const char **s, size_t *len) {
    if (!api_js_accept(js, '"')) return -1;
    const char *start = js->p;
    while (js->p < js->end) {
        unsigned char c = (unsigned char)*js->p;
        if (c == '"') {
            *s = start;
            *len = (size_t)(js->p - start);
            js->p++;
            return 0;
        }
        if (c < 0x20 || c >= 0x7f || c == '\\') return -1;
        js->p++;
    }
    return -1;
}

int api_js_key(api_js_t *js, const char **s, size_t *len) {
    if (api_js_string(js, s, len) != 0 || !api_js_accept(js, ':')) return -1;
    return 0;
}

int api_js_int(api_js_t *js, long long lo, long long hi, long long *out) {
    int neg;
    unsigned long long v = 0, lim;
    js_space(js);
    neg = js->p < js->end && *js->p == '-';
    js->p += neg;
    if (js->p >= js->end || *js->p < '0' || *js->p > '9') return -1;
    if (*js->p == '0' && js->p + 1 < js->end && js->p[1] >= '0' && js->p[1] <= '9') return -1;
    lim = neg ? 0ull - (unsigned long long)lo : (unsigned long long)hi;
    if (neg && lo >= 0) lim = 0;
    while (js->p < js->end && *js->p >= '0' && *js->p <= '9') {
        unsigned d = (unsigned)(*js->p++ - '0');
        if (d > lim || v > (lim - d) / 10) return -1; /* out of range; never overflows */
        v = v * 10 + d;
    }
    if (js->p < js->end && (*js->p == '.' || *js->p == 'e' || *js->p == 'E')) return -1;
    long long x = neg ? (long long)(0ull - v) : (long long)v;
    if (x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

int api_js_bool(api_js_t *js, int *out) {
    js_space(js);
    size_t left = (size_t)(js->end - js->p);
    if (left >= 4 && memcmp(js->p, "true", 4) == 0) {
        js->p += 4;
        *out = 1;
        return 0;
    }
    if (left >= 5 && memcmp(js->p, "false", 5) == 0) {
        js->p += 5;
        *out = 0;
        return 0;
    }
    return -1;
}

int api_js_at_end(api_js_t *js) {
    js_space(js);
    return js->p == js->end;
}
