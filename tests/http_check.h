/* http_check.h -- check assertions on the answers of a test server
 * (tests/http_client.h): a POST, the JSON of an answer with the status it
 * must have, and a problem that must name a field.  For the suites that
 * test their endpoints over HTTP beside their tests without a server. */
#ifndef PUZZLED_TESTS_HTTP_CHECK_H
#define PUZZLED_TESTS_HTTP_CHECK_H

#include <jansson.h>

#include "tests/http_client.h"

/* A server for a suite's test case: hc_up() starts it (--threads 2) and
 * hc_down() stops it, as an unchecked fixture (tcase_add_unchecked_fixture:
 * one server for the test case's tests). */
extern tsrv_t hc_srv;
void hc_up(void);
void hc_down(void);

/* POSTs `body` to s's `path` on a fresh connection, with Content-Type
 * `ctype` when not NULL.  Free the answer with hresp_free(). */
hresp_t hc_post(const tsrv_t *s, const char *path, const char *ctype, const char *body);

/* Asserts that r has `status` and a JSON body; returns it (json_decref it). */
json_t *hc_json(const hresp_t *r, long status);

/* Asserts that r is an application/problem+json answer with `status`, and
 * that its errors[] name `field` (unless field is NULL). */
void hc_problem(const hresp_t *r, long status, const char *field);

#endif
