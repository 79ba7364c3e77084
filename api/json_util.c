/* json_util.c -- see json_util.h. */
#include "api/json_util.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* === Telling "out of memory" from "not JSON" ===
 *
 * jansson reports most allocation failures inside its lexer as syntax
 * errors ("string or '}' expected"), so a client could be told that valid
 * JSON is invalid.  When jansson says "syntax", this allocation-free checker
 * decides: a text it finds well-formed failed for want of memory.  It checks
 * exactly what jansson reports as syntax errors (structure, literals,
 * numbers, strings with their escapes and surrogate pairs, control
 * characters); what jansson names by its own code (invalid UTF-8, NUL,
 * duplicate keys, depth, numeric overflow) never reaches it. */

#define JSON_WF_DEPTH 2048 /* jansson's own parsing depth limit */

static size_t json_wf_space(const char *s, size_t n, size_t i) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

static int json_wf_hex4(const char *s, size_t n, size_t i, unsigned *out) {
    unsigned v = 0;
    if (i + 4 > n) return -1;
    for (size_t k = i; k < i + 4; k++) {
        int c = (unsigned char)s[k], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return -1;
        v = v * 16 + (unsigned)d;
    }
    *out = v;
    return 0;
}

/* s[i] is the opening quote; returns the index after the closing one, or 0. */
static size_t json_wf_string(const char *s, size_t n, size_t i) {
    for (i++; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        unsigned u, lo;
        if (c == '"') return i + 1;
        if (c < 0x20) return 0;
        if (c != '\\') continue;
        if (++i >= n) return 0;
        if (strchr("\"\\/bfnrt", s[i]) != NULL && s[i] != '\0') continue;
        if (s[i] != 'u' || json_wf_hex4(s, n, i + 1, &u) != 0) return 0;
        i += 4;
        if (u >= 0xDC00 && u <= 0xDFFF) return 0; /* a lone low surrogate */
        if (u >= 0xD800 && u <= 0xDBFF) {         /* must pair with a low one */
            if (i + 2 >= n || s[i + 1] != '\\' || s[i + 2] != 'u' ||
                json_wf_hex4(s, n, i + 3, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
                return 0;
            i += 6;
        }
    }
    return 0;
}

/* A number per RFC 8259 at s[i]; returns the index after it, or 0. */
static size_t json_wf_number(const char *s, size_t n, size_t i) {
    size_t d;
    if (i < n && s[i] == '-') i++;
    if (i < n && s[i] == '0')
        i++;
    else {
        for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        }
        if (i == d) return 0;
    }
    if (i < n && s[i] == '.') {
        for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        }
        if (i == d) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        if (++i < n && (s[i] == '+' || s[i] == '-')) i++;
        for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        }
        if (i == d) return 0;
    }
    return i;
}

/* Whether s[0..n) is one well-formed JSON object or array (jansson's top
 * level without JSON_DECODE_ANY; iterative: an explicit stack of open
 * brackets, bounded like jansson's). */
static int json_wellformed(const char *s, size_t n) {
    char open[JSON_WF_DEPTH];
    size_t depth = 0, i = json_wf_space(s, n, 0);
    int want_value = 1; /* else: a ',' or a closing bracket is next */
    if (i >= n || (s[i] != '{' && s[i] != '[')) return 0; /* jansson's top: a container */
    for (;;) {
        if (want_value) {
            if (i >= n) return 0;
            char c = s[i];
            if (c == '{' || c == '[') {
                if (depth == JSON_WF_DEPTH) return 0;
                open[depth++] = c;
                i = json_wf_space(s, n, i + 1);
                if (i < n && s[i] == (c == '{' ? '}' : ']')) { /* empty */
                    depth--, i++, want_value = 0;
                    goto after_value;
                }
                if (c == '{') goto key;
                continue;
            }
            if (c == '"')
                i = json_wf_string(s, n, i);
            else if (c == '-' || (c >= '0' && c <= '9'))
                i = json_wf_number(s, n, i);
            else if (n - i >= 4 && memcmp(s + i, "true", 4) == 0)
                i += 4;
            else if (n - i >= 5 && memcmp(s + i, "false", 5) == 0)
                i += 5;
            else if (n - i >= 4 && memcmp(s + i, "null", 4) == 0)
                i += 4;
            else
                return 0;
            if (i == 0) return 0;
            want_value = 0;
        }
    after_value:
        i = json_wf_space(s, n, i);
        if (depth == 0) return i == n;
        if (i >= n) return 0;
        if (s[i] == (open[depth - 1] == '{' ? '}' : ']')) {
            depth--, i++;
            continue;
        }
        if (s[i] != ',') return 0;
        i = json_wf_space(s, n, i + 1);
        want_value = 1;
        if (open[depth - 1] == '[') continue;
    key:
        if (i >= n || s[i] != '"' || (i = json_wf_string(s, n, i)) == 0) return 0;
        i = json_wf_space(s, n, i);
        if (i >= n || s[i] != ':') return 0;
        i = json_wf_space(s, n, i + 1);
        want_value = 1;
    }
}

/* Whether jansson's failure to load `body` was for want of memory. */
static int json_load_was_oom(const json_error_t *err, const char *body, size_t len) {
    if (err->text[0] == '\0') return 1; /* the lexer could not start: no error set */
    switch (json_error_code(err)) {
    case json_error_out_of_memory: return 1;
    case json_error_unknown:
    case json_error_invalid_syntax:
    case json_error_premature_end_of_input:
    case json_error_end_of_input_expected: return json_wellformed(body, len);
    default: return 0; /* a reason of its own: UTF-8, NUL, duplicate key, depth */
    }
}

json_t *api_json_object(const api_request_t *req, api_problem_t *p) {
    json_error_t err;
    const char *body = req->body ? req->body : "";
    memset(&err, 0, sizeof err); /* jansson leaves it unset when its lexer cannot start */
    json_t *root = json_loadb(body, req->body_len, JSON_REJECT_DUPLICATES, &err);
    if (root == NULL && json_load_was_oom(&err, body, req->body_len)) {
        api_problem_nomem(p, "reading the JSON body");
        return NULL;
    }
    if (root == NULL) {
        api_problem_add(p, "body", "body", "not valid JSON (line %d, column %d): %s", err.line,
                        err.column, err.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        api_problem_add(p, "body", "body", "must be a JSON object");
        json_decref(root);
        return NULL;
    }
    return root;
}

int api_json_fields(json_t *obj, const char *const *allowed, api_problem_t *p) {
    const char *key;
    json_t *v;
    int bad = 0;
    json_object_foreach(obj, key, v) {
        int known = 0;
        for (const char *const *a = allowed; *a != NULL; a++)
            known |= strcmp(*a, key) == 0;
        if (!known) {
            api_problem_add(p, "body", key, "unknown field");
            bad++;
        }
    }
    return bad;
}

int api_json_int(json_t *v, const char *field, long long lo, long long hi, long long *out,
                 api_problem_t *p) {
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        api_problem_add(p, "body", field, "must be an integer from %lld to %lld", lo, hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 0;
}

int api_json_box(json_t *v, int maxn, int *rows, int *cols, api_problem_t *p) {
    json_t *r = json_object_get(v, "rows"), *c = json_object_get(v, "cols");
    long long x;
    int bad = 0;
    if (!json_is_object(v) || json_object_size(v) != 2 || r == NULL || c == NULL) {
        api_problem_add(p, "body", "box", "must be {\"rows\": R, \"cols\": C}");
        return -1;
    }
    if (api_json_int(r, "box.rows", 1, maxn, &x, p) == 0)
        *rows = (int)x;
    else
        bad = 1;
    if (api_json_int(c, "box.cols", 1, maxn, &x, p) == 0)
        *cols = (int)x;
    else
        bad = 1;
    return bad ? -1 : 0;
}

int api_json_symbols(json_t *v, int max_n, long long max_symbol, long long *out, int *n,
                     api_problem_t *p) {
    size_t k;
    json_t *s;
    int bad = 0;
    if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > (size_t)max_n) {
        api_problem_add(p, "body", "symbols",
                        "must be an array of N distinct non-negative integers");
        return -1;
    }
    *n = (int)json_array_size(v);
    json_array_foreach(v, k, s) {
        char f[32];
        snprintf(f, sizeof f, "symbols[%zu]", k);
        bad |= api_json_int(s, f, 0, max_symbol, &out[k], p) != 0;
    }
    return bad ? -1 : 0;
}

int api_json_opt_int(json_t *obj, const char *key, long long lo, long long hi, long long def,
                     long long *out, api_problem_t *p) {
    json_t *v = json_object_get(obj, key);
    if (v == NULL) {
        *out = def;
        return 0;
    }
    return api_json_int(v, key, lo, hi, out, p);
}

int api_json_content_type(const api_request_t *req) {
    size_t i = 0;
    if (req->content_type == NULL || api_media_is(req->content_type, "application/json")) return 1;
    if (!api_media_is(req->content_type, "application/x-www-form-urlencoded")) return 0;
    while (i < req->body_len && isspace((unsigned char)req->body[i]))
        i++;
    return i < req->body_len && req->body[i] == '{';
}

void api_jset(json_t *obj, const char *key, json_t *v, int *ok) {
    if (json_object_set_new(obj, key, v) != 0) *ok = 0;
}

void api_jpush(json_t *arr, json_t *v, int *ok) {
    if (json_array_append_new(arr, v) != 0) *ok = 0;
}

void api_response_nomem(api_response_t *resp, const char *doing) {
    api_problem_t p;
    api_problem_nomem(&p, doing);
    api_response_problem(resp, &p);
}

void api_response_json_ok(api_response_t *resp, int status, json_t *root, int ok) {
    if (!ok || root == NULL) {
        json_decref(root);
        api_response_nomem(resp, "building the answer");
        return;
    }
    api_response_json(resp, status, root);
}
