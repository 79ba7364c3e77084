/* json_scan.h -- reading the common shape of a hot endpoint's JSON body
 * without building a jansson tree: a cursor over the text that the parser
 * of one endpoint drives ("an object; a key; a colon; a string"), no
 * allocation, no copy.
 *
 * It is a fast path, never the only path.  It takes a strict subset of
 * JSON: strings without escapes, control bytes or non-ASCII bytes,
 * integers without fraction or exponent that fit a long long, true and
 * false.  Whatever it does not take -- and every error, even in a text it
 * would take -- makes the endpoint's fast parser give up, and the endpoint
 * parses the body again with jansson (api_json_object()), which accepts
 * all of JSON and says precisely what is wrong.  So a fast parser needs to
 * get the valid common case right, and nothing else: its rules are the
 * full parser's rules for success (same fields, same ranges, duplicates
 * refused), and every doubt is a give-up. */
#ifndef PUZZLED_API_JSON_SCAN_H
#define PUZZLED_API_JSON_SCAN_H

#include <stddef.h>

typedef struct api_js_s {
    const char *p, *end;
} api_js_t;

void api_js_init(api_js_t *js, const char *text, size_t len);

/* Skips JSON whitespace; if the next byte is c, consumes it and returns 1;
 * otherwise 0 (nothing consumed but the whitespace). */
int api_js_accept(api_js_t *js, char c);

/* A string of printable ASCII without escapes: *s and *len point into the
 * text.  0, or -1 (give up). */
int api_js_string(api_js_t *js, const char **s, size_t *len);

/* A member's key (a string as above) and its colon.  0, or -1. */
int api_js_key(api_js_t *js, const char **s, size_t *len);

/* An integer in [lo, hi] written as JSON writes integers (no fraction, no
 * exponent, no leading zero).  0, or -1. */
int api_js_int(api_js_t *js, long long lo, long long hi, long long *out);

/* true or false.  0, or -1. */
int api_js_bool(api_js_t *js, int *out);

/* 1 if only whitespace is left. */
int api_js_at_end(api_js_t *js);

#endif
