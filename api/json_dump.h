/* json_dump.h -- how every JSON text of the API is written: one flag set,
 * and a dump that never returns a damaged text.  The bottom of api/: the
 * problem renderer (problem.c) and the answers (request.c) both use it. */
#ifndef PUZZLED_API_JSON_DUMP_H
#define PUZZLED_API_JSON_DUMP_H

#include <stddef.h>

/* How every JSON answer is encoded: compact, and reals (timings) with 9
 * significant digits instead of jansson's round-trip 17. */
#define API_JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(9))

/* json_dumps() that never returns a damaged text.  jansson's dumper ignores
 * the failure of the first byte of an object key (dump_string()'s result is
 * dropped in do_dump(), jansson 2.14), so a failed allocation mid-dump can
 * yield JSON with a key missing; this dumps through a callback whose first
 * failure sticks, and returns NULL if any write failed.  `json` is a json_t *
 * (not stolen); the text is malloc'd, NUL-terminated, its length in *len
 * (len may be NULL). */
char *api_json_dumps(const void *json, size_t flags, size_t *len);

#endif
