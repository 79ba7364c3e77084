/* problem.h -- RFC 9457 problem details, and the one table that maps puzzled's
 * error codes to HTTP statuses and problem types.
 *
 * A handler that finds something wrong fills an api_problem_t: the error code
 * picks status, type and title from the table; `detail` says what is wrong in
 * a sentence; `errors` names each offending query parameter, body field or
 * header, so that a client can point at it.  api_problem_render() turns it
 * into an `application/problem+json` body whose `detail` is that sentence
 * followed by the first field error (and how many more there are).
 *
 * The struct is plain data (fixed-size buffers), so it lives on the stack of
 * whoever validates; nothing here allocates except api_problem_render(). */
#ifndef PUZZLED_API_PROBLEM_H
#define PUZZLED_API_PROBLEM_H

#include <stddef.h>

/* Error codes: 0 is success, every failure is negative.  The api/ block is
 * -100 and below, apart from the solvers' SEARCH_* and module blocks (-1 ..
 * -79, see solvers/search.c), so one int never means two things. */
#define API_OK             0
#define API_EINVALID       (-100) /* 400 malformed or out-of-range input */
#define API_ENOTFOUND      (-101) /* 404 no such route or resource */
#define API_EMETHOD        (-102) /* 405 route exists, method does not */
#define API_ETOOLARGE      (-103) /* 413 body over the limit */
#define API_EUNPROCESSABLE (-104) /* 422 well-formed but contradictory input */
#define API_EBUSY          (-105) /* 503 queue full */
#define API_EDRAINING      (-106) /* 503 shutting down */
#define API_EINTERNAL      (-107) /* 500 a bug: a result failed verification, ... */
#define API_EMEDIA         (-108) /* 415 unsupported Content-Type */
#define API_ENOMEM         (-109) /* 503 out of memory for this request */
#define API_EUNAVAILABLE   (-110) /* 503 a service the request needs (the job store) is down */
#define API_EMEMORY        (-111) /* 422 needs more memory than one request may hold */
#define API_ENOTIMPL       (-112) /* 501 a transfer coding the server does not read */
#define API_ENOTUNIQUE     (-113) /* 422 grading or a hint asked of a puzzle with several solutions */
#define API_EUNREACHABLE   (-114) /* 422 generation asked for what no puzzle of the size has */

#define API_PROBLEM_MAX_ERRORS   16
#define API_PROBLEM_CONTENT_TYPE "application/problem+json"

typedef struct api_field_error_s {
    char in[8];       /* "query", "body", "header", "path" */
    char field[64];   /* "n", "grid[3][4]", "box.rows" */
    char detail[192]; /* what is wrong with it */
} api_field_error_t;

typedef struct api_problem_s {
    int code;         /* API_E* */
    char detail[256]; /* one sentence for a human */
    size_t nerrors;
    size_t dropped; /* field errors beyond API_PROBLEM_MAX_ERRORS */
    api_field_error_t errors[API_PROBLEM_MAX_ERRORS];
} api_problem_t;

/* Starts a problem for `code` with a printf-style detail sentence. */
void api_problem_init(api_problem_t *p, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends a field error; past API_PROBLEM_MAX_ERRORS it is counted in
 * `dropped` and left out.  Does not change p->code. */
void api_problem_add(api_problem_t *p, const char *in, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Restarts `p` as an out-of-memory problem (503) whose detail says what
 * could not be done ("reading the body").  An allocation failure outranks
 * whatever was found wrong with the request so far: a client must not be
 * told that its valid input is invalid because the server ran short. */
void api_problem_nomem(api_problem_t *p, const char *doing);

/* The code's name ("API_EINVALID", ...), for logs; a solver's code gets
 * search_code_name()'s answer.  A static string. */
const char *api_code_name(int code);

/* The HTTP status, type URI and title for an error code (500 for unknown). */
int api_problem_status(int code);
const char *api_problem_type(int code);
const char *api_problem_title(int code);

/* Renders the problem as JSON.  Returns a malloc'd NUL-terminated string the
 * caller frees, with its length in *len; NULL when out of memory. */
char *api_problem_render(const api_problem_t *p, size_t *len);

#endif
