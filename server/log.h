/* log.h -- the server's log: one JSON object per line on stderr.
 *
 * The bottom of server/: every room logs through it (the transport in
 * server/http/, the job runner, the cluster and the Redis connections in
 * server/jobs/, main), and it calls none of them back.  Before this module
 * the function lived in http.c, so the job and Redis code below the
 * transport had to include it: a circle of includes. */
#ifndef PUZZLED_LOG_H
#define PUZZLED_LOG_H

#include <stddef.h>

/* Writes one line {"time":...,"level":...,"msg":...} plus the fields of
 * `extra` (a json_t object, stolen; may be NULL) to stderr with a single
 * write(2), so that lines of several threads never interleave.  Drops the
 * line when it cannot be built (out of memory).  Any thread. */
void log_json(const char *level, const char *msg, void *extra);

/* The current UTC time as the log writes it, "2024-05-01T12:00:00.123Z",
 * into out[cap] (cap >= 32).  For lines built by hand (the access log). */
void log_time(char *out, size_t cap);

#endif
