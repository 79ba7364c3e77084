/* http_check.c -- see http_check.h. */
#include "tests/http_check.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

tsrv_t hc_srv;

void hc_up(void) {
    static const char *const args[] = {"--threads", "2", NULL};
    ck_assert_int_eq(tsrv_start(&hc_srv, args, NULL), 0);
}

void hc_down(void) { tsrv_stop(&hc_srv, SIGTERM, 10000); }

hresp_t hc_post(const tsrv_t *s, const char *path, const char *ctype, const char *body) {
    char url[512], ct[96];
    const char *headers[2] = {NULL, NULL};
    hresp_t r;
    CURL *c = curl_easy_init();
    snprintf(url, sizeof url, "%s%s", s->base, path);
    if (ctype) {
        snprintf(ct, sizeof ct, "Content-Type: %s", ctype);
        headers[0] = ct;
    }
    http_do(c, "POST", url, body, strlen(body), headers, &r);
    curl_easy_cleanup(c);
    return r;
}

json_t *hc_json(const hresp_t *r, long status) {
    json_error_t e;
    ck_assert_msg(r->status == status, "status %ld, want %ld: %s", r->status, status, r->body);
    json_t *j = json_loads(r->body, 0, &e);
    ck_assert_msg(j != NULL, "not JSON: %s", r->body);
    return j;
}

void hc_problem(const hresp_t *r, long status, const char *field) {
    char ct[128];
    json_t *j = hc_json(r, status);
    ck_assert(hresp_header(r, "Content-Type", ct, sizeof ct));
    ck_assert_str_eq(ct, "application/problem+json");
    if (field != NULL) {
        json_t *errs = json_object_get(j, "errors"), *e;
        size_t i;
        int found = 0;
        json_array_foreach(errs, i, e) {
            const char *f = json_string_value(json_object_get(e, "field"));
            if (f && strcmp(f, field) == 0) found = 1;
        }
        ck_assert_msg(found, "errors[] does not name '%s': %s", field, r->body);
    }
    json_decref(j);
}
