/* job_client.c -- see job_client.h. */
#include "tests/job_client.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

json_t *tsrv_call(const tsrv_t *s, const char *method, const char *path, const char *body,
                  int async, long *status, hresp_t *keep) {
    return tsrv_call_hdr(s, method, path, body, async, NULL, status, keep);
}

json_t *tsrv_call_hdr(const tsrv_t *s, const char *method, const char *path, const char *body,
                      int async, const char *header, long *status, hresp_t *keep) {
    char url[512];
    const char *hdrs[] = {"Content-Type: application/json", header, NULL, NULL};
    if (async) hdrs[header != NULL ? 2 : 1] = "Prefer: respond-async";
    hresp_t r;
    CURL *c = curl_easy_init();
    ck_assert_ptr_nonnull(c);
    snprintf(url, sizeof url, "%s%s", s->base, path);
    ck_assert_int_eq(http_do(c, method, url, body, body ? strlen(body) : 0, hdrs, &r), CURLE_OK);
    curl_easy_cleanup(c);
    json_t *j = json_loads(r.body, 0, NULL);
    *status = r.status;
    if (keep != NULL)
        *keep = r;
    else
        hresp_free(&r);
    return j;
}

json_t *tsrv_job(const tsrv_t *s, const char *id, long *status) {
    char path[96];
    snprintf(path, sizeof path, "/v1/jobs/%s", id);
    return tsrv_call(s, "GET", path, NULL, 0, status, NULL);
}

int job_status_ended(const char *status) {
    return status && (strcmp(status, "done") == 0 || strcmp(status, "failed") == 0 ||
                      strcmp(status, "cancelled") == 0 || strcmp(status, "timeout") == 0);
}
