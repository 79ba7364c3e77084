/* http_client.h -- test and benchmark helpers: run the real puzzled binary on
 * an ephemeral loopback port, and talk to it with libcurl. */
#ifndef PUZZLED_TESTS_HTTP_CLIENT_H
#define PUZZLED_TESTS_HTTP_CLIENT_H

#include <curl/curl.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct tsrv_s {
    pid_t pid;
    unsigned port;
    char log_path[256]; /* the server's stderr (JSON log lines) */
    char base[64];      /* "http://127.0.0.1:PORT" */
} tsrv_t;

/* Starts $PUZZLED_BIN (default ./build/puzzled) with --port 0 --bind
 * 127.0.0.1 and the NULL-terminated extra args, and waits for its "listening"
 * log line.  The server's stderr goes to $PUZZLED_TEST_LOGS (default /tmp)
 * as puzzled-test-PID-SEQ.log; `make test` points it into the build tree.  `env` (NULL-terminated
 * "K=V" list, may be NULL) is added to the environment.  Returns 0, or -1 if it did not come up
 * within 10 s. */
int tsrv_start(tsrv_t *s, const char *const *args, const char *const *env);

/* Sends `sig` and waits for the exit; returns the exit status, or -1 if it
 * died by a signal or did not exit within `wait_ms`. */
int tsrv_stop(tsrv_t *s, int sig, int wait_ms);

/* Whether the server's log holds a line containing `needle`. */
int tsrv_log_has(const tsrv_t *s, const char *needle);

/* The last cap - 1 bytes of the server's log in buf (NUL-terminated; "" if
 * it cannot be read), for failure messages: a sanitizer's report, say. */
const char *tsrv_log_tail(const tsrv_t *s, char *buf, size_t cap);

typedef struct hresp_s {
    long status;
    char *body; /* NUL-terminated, malloc'd */
    size_t len;
    char *headers; /* raw header block, malloc'd */
    size_t hlen;
    long connects; /* new connections this transfer opened (0 = reused) */
    double seconds;
    CURLcode curl_rc;
} hresp_t;

/* Performs one request on `curl` (reused for keep-alive).  `body` may be
 * NULL; `headers` is a NULL-terminated list of "Name: value" or NULL.
 * Returns curl's result code. */
CURLcode http_do(CURL *curl, const char *method, const char *url, const char *body, size_t len,
                 const char *const *headers, hresp_t *out);

/* Convenience: a GET on a fresh handle. */
CURLcode http_get(const char *url, hresp_t *out);

/* Copies the value of header `name` (case-insensitive) into out; returns 1
 * if present. */
int hresp_header(const hresp_t *r, const char *name, char *out, size_t cap);

void hresp_free(hresp_t *r);

/* Reads a gauge or counter line "name value" from a /metrics body; -1 if absent. */
double metrics_value(const char *body, const char *series);

/* GETs s's /metrics and reads `series` from it; -1 if absent or the GET failed. */
double tsrv_metric(const tsrv_t *s, const char *series);

#endif
