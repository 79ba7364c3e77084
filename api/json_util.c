/* json_util.c -- see json_util.h. */
#include "api/json_util.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

json_t *api_json_object(const api_request_t *req, api_problem_t *p) {
    json_error_t err;
    json_t *root =
        json_loadb(req->body ? req->body : "", req->body_len, JSON_REJECT_DUPLICATES, &err);
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
