/* json_util.h -- the JSON-body chores every endpoint shares: load an object
 * (a 400 naming `body` with line and column when it is not one), refuse
 * unknown fields, read bounded integers, and accept curl's default
 * Content-Type for a JSON object. */
#ifndef PUZZLED_API_JSON_UTIL_H
#define PUZZLED_API_JSON_UTIL_H

#include <jansson.h>

#include "api/request.h"

/* Parses the body as a JSON object (duplicate keys refused).  Returns it (the
 * caller json_decref()s it), or NULL after adding an error on "body". */
json_t *api_json_object(const api_request_t *req, api_problem_t *p);

/* Adds an "unknown field" error for every key of obj not in `allowed`
 * (NULL-terminated); returns how many. */
int api_json_fields(json_t *obj, const char *const *allowed, api_problem_t *p);

/* Reads v as an integer in [lo, hi] into *out; otherwise adds an error on
 * `field` and returns -1 (*out untouched).  v may be NULL (then an error too). */
int api_json_int(json_t *v, const char *field, long long lo, long long hi, long long *out,
                 api_problem_t *p);

/* Reads v as a box shape {"rows": R, "cols": C}, each from 1 to maxn:
 * stores each one only when it is valid (the other stays as it was), adds
 * an error on "box" / "box.rows" / "box.cols" otherwise, and returns 0 or
 * -1. */
int api_json_box(json_t *v, int maxn, int *rows, int *cols, api_problem_t *p);

/* Reads v as "symbols": an array of 1..max_n integers, each 0..max_symbol,
 * into out (those that are right) and their number into *n; adds an error
 * on "symbols" or "symbols[k]" otherwise and returns -1. */
int api_json_symbols(json_t *v, int max_n, long long max_symbol, long long *out, int *n,
                     api_problem_t *p);

/* Like api_json_int for an optional member `key` of obj: absent -> def. */
int api_json_opt_int(json_t *obj, const char *key, long long lo, long long hi, long long def,
                     long long *out, api_problem_t *p);

/* 1 if the request's Content-Type is application/json, absent, or curl's
 * default application/x-www-form-urlencoded with a body that starts with
 * '{' (a JSON object cannot be a form). */
int api_json_content_type(const api_request_t *req);

/* === Building answers without losing a part to a failed allocation ===
 * jansson's setters fail quietly (a NULL value or no memory returns -1): a
 * renderer that ignored that would answer 200 without, say, its "count".
 * These clear *ok instead, so the renderer builds the whole answer and
 * checks once, through api_response_json_ok(). */

/* obj[key] = v, stealing v (NULL v, NULL obj or no memory: *ok = 0). */
void api_jset(json_t *obj, const char *key, json_t *v, int *ok);

/* Appends v to arr, stealing v; the same failure rule. */
void api_jpush(json_t *arr, json_t *v, int *ok);

/* api_response_json(), unless !ok or root is NULL: then root is released and
 * the answer is a 503 out-of-memory problem. */
void api_response_json_ok(api_response_t *resp, int status, json_t *root, int ok);

/* The 503 answer for an allocation that failed while `doing` something. */
void api_response_nomem(api_response_t *resp, const char *doing);

#endif
