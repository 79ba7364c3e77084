/* json_writer.h -- a JSON answer written straight into one growing buffer,
 * for the hot endpoints whose answers are small and shaped in advance (a
 * Sudoku or a Killer solve): no tree of json_t values, one allocation for
 * the whole answer in the common case instead of one per value, no second
 * pass to serialise.
 *
 * The text is byte for byte what jansson's dump with API_JSON_FLAGS writes
 * for the same values in the same order (compact separators, strings
 * escaped as jansson escapes them, reals as "%.9g" with ".0" added to a
 * whole number and the exponent's '+' and leading zeros dropped), so a
 * renderer can move from a json_t tree to the writer without a client
 * seeing a difference; tests/test_api.c compares the two.
 *
 * The writer keeps the commas: each container remembers whether it has a
 * member yet.  Misuse (a value where a key is due, closing more than was
 * opened, nesting deeper than API_JW_DEPTH) is a programming error and
 * asserted.  An allocation failure is not: it is remembered, everything
 * after it is dropped, and api_jw_respond() answers 503 instead. */
#ifndef PUZZLED_API_JSON_WRITER_H
#define PUZZLED_API_JSON_WRITER_H

#include <stddef.h>

#include "api/request.h"

#define API_JW_DEPTH 16

typedef struct api_jw_s {
    char *buf; /* malloc'd, NUL-terminated while not failed */
    size_t len, cap;
    int failed;                          /* an allocation failed: the text is incomplete */
    unsigned depth;                      /* open containers */
    unsigned char members[API_JW_DEPTH]; /* per open container: has one yet */
    unsigned char is_obj[API_JW_DEPTH];
    int after_key; /* a key was written: its value comes next, no comma */
} api_jw_t;

/* An empty writer (nothing allocated yet). */
void api_jw_init(api_jw_t *w);

/* Opens and closes an object or an array (as a value: after a key, in an
 * array, or at the top). */
void api_jw_obj(api_jw_t *w);
void api_jw_end_obj(api_jw_t *w);
void api_jw_arr(api_jw_t *w);
void api_jw_end_arr(api_jw_t *w);

/* A member's key inside an object (escaped like any string). */
void api_jw_key(api_jw_t *w, const char *key);

/* Values. */
void api_jw_str(api_jw_t *w, const char *s, size_t len);
void api_jw_cstr(api_jw_t *w, const char *s);
void api_jw_int(api_jw_t *w, long long v);
void api_jw_real(api_jw_t *w, double v);
void api_jw_bool(api_jw_t *w, int v);
void api_jw_null(api_jw_t *w);

/* Hands the text to resp as a `status` application/json answer (the buffer
 * moves to resp), or answers 503 out-of-memory when an allocation failed.
 * Every container must be closed.  The writer is empty afterwards. */
void api_jw_respond(api_jw_t *w, int status, api_response_t *resp);

/* Frees what the writer holds (for a writer that is not handed over). */
void api_jw_destroy(api_jw_t *w);

#endif
