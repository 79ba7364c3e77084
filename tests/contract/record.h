/* record.h -- the HTTP clients of the tests (tests/http_client.c, the
 * deployment load in tests/deploy/load.c) write down every exchange they
 * make, so that tests/contract/validate.mjs can check each answer against
 * openapi.yaml after the suites ran.
 *
 * Off unless $PUZZLED_CONTRACT_DIR names a directory (`make test` sets it to
 * build/contract/<suite>; it is made when missing): then each
 * exchange is one JSON line appended to
 * DIR/<source>-<pid>.jsonl with a single write(), so threads and the forked
 * check cases of one file never interleave inside a line.  Fields:
 *
 *   {"source", "method", "url", "req_headers": ["Name: value", ...],
 *    "req_body" | "req_body_b64", "status", "resp_headers": "raw block",
 *    "body" | "body_b64", "incomplete": true (the transfer failed after the
 *    status arrived)}; a body longer than the cap is left out and
 *    "req_body_truncated" / "body_truncated" give its length.  (record.mjs
 *    writes the same, with headers as objects and an optional "test".)
 *
 * Bodies that are not UTF-8 go as base64 (`*_b64`).  Bodies over
 * $PUZZLED_CONTRACT_MAX_BODY bytes (default 8 MiB) are left out; at most
 * $PUZZLED_CONTRACT_LIMIT exchanges (default unlimited) are written per
 * process, which keeps a long soak's record small. */
#ifndef PUZZLED_TESTS_CONTRACT_RECORD_H
#define PUZZLED_TESTS_CONTRACT_RECORD_H

#include <stddef.h>

typedef struct contract_exchange_s {
    const char *source; /* "libcurl", "load", ...: the file name's prefix */
    const char *method;
    const char *url;                /* absolute, as sent */
    const char *const *req_headers; /* NULL-terminated "Name: value" list, or NULL */
    const char *req_body;           /* may be NULL */
    size_t req_len;
    long status;              /* 0: no answer arrived; nothing is written */
    const char *resp_headers; /* raw header block(s), may be NULL */
    size_t resp_hlen;
    const char *body; /* may be NULL */
    size_t len;
    int incomplete; /* the transfer failed after the answer began */
} contract_exchange_t;

/* Whether recording is on ($PUZZLED_CONTRACT_DIR set and not empty). */
int contract_enabled(void);

/* Appends `x` to this process's record file; does nothing when recording is
 * off or `x->status` is 0.  Failures to write are reported once on stderr
 * and otherwise ignored: the record is a test aid, never a reason for the
 * exchange itself to fail.  Thread-safe. */
void contract_record(const contract_exchange_t *x);

#endif
