/* test_static.c -- server/http/static.c: ETag matching, content types, which
 * paths are looked up, the embedded copy of web/ against the files on disk,
 * --web-root (read on every request, symlinks and hidden files refused),
 * and both through the real server: 200, 304, HEAD, 404, 405.
 * (tests/web/ drives the same files in a browser.) */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/http/static.h"
#include "tests/http_client.h"

/* Reads a whole file into a malloc'd buffer; *len its size. */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf != NULL) buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

static void spit(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(static_etag_matching) {
    const char *e = "\"0123456789abcdef\"";
    ck_assert(static_etag_matches("\"0123456789abcdef\"", e));
    ck_assert(static_etag_matches("W/\"0123456789abcdef\"", e));
    ck_assert(static_etag_matches("\"x\", W/\"0123456789abcdef\" ", e));
    ck_assert(static_etag_matches("*", e));
    ck_assert(!static_etag_matches(NULL, e));
    ck_assert(!static_etag_matches("", e));
    ck_assert(!static_etag_matches("\"0123456789abcde\"", e));
    ck_assert(!static_etag_matches("0123456789abcdef", e));
    ck_assert(!static_etag_matches("\"0123456789abcdef0\"", e));
}
END_TEST

START_TEST(static_content_types) {
    ck_assert_str_eq(static_content_type("/index.html"), "text/html; charset=utf-8");
    ck_assert_str_eq(static_content_type("/js/app.js"), "text/javascript; charset=utf-8");
    ck_assert_str_eq(static_content_type("/css/app.css"), "text/css; charset=utf-8");
    ck_assert_str_eq(static_content_type("/favicon.svg"), "image/svg+xml");
    ck_assert_str_eq(static_content_type("/a.b/README"), "application/octet-stream");
    ck_assert_str_eq(static_content_type("/x.JS"), "application/octet-stream");
}
END_TEST

/* Every embedded file is byte for byte the file in web/, and "/" is
 * index.html. */
START_TEST(static_embedded_matches_web) {
    static_site_t *site;
    static_file_t f;
    ck_assert_int_eq(static_site_new(&site, NULL), 0);
    ck_assert_uint_gt(static_nassets, 3);
    for (size_t i = 0; i < static_nassets; i++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof path, "web%s", static_assets[i].path);
        char *want = slurp(path, &len);
        ck_assert_msg(want != NULL, "%s is embedded but not in web/", path);
        ck_assert_int_eq(static_site_find(site, static_assets[i].path, &f), 0);
        ck_assert_uint_eq(f.len, len);
        ck_assert(memcmp(f.data, want, len) == 0);
        ck_assert_ptr_null(f.owned);
        free(want);
    }
    ck_assert_int_eq(static_site_find(site, "/", &f), 0);
    ck_assert_str_eq(f.content_type, "text/html; charset=utf-8");
    static_file_t g;
    ck_assert_int_eq(static_site_find(site, "/index.html", &g), 0);
    ck_assert_str_eq(f.etag, g.etag);
    ck_assert_int_eq(static_site_find(site, "/js/app.js", &g), 0);
    ck_assert_str_ne(f.etag, g.etag);
    static_site_free(site);
    static_site_free(NULL);
}
END_TEST

START_TEST(static_refuses_odd_paths) {
    static const char *const bad[] = {
        "",
        "index.html",
        "/../Makefile",
        "/js/../index.html",
        "/.git/config",
        "/js//app.js",
        "/js/.app.js",
        "/%2e%2e/x",
        "/a b",
        "/js/app.js?x",
        "/no-such-file.js",
    };
    char longp[STATIC_MAX_PATH + 8];
    static_site_t *site;
    static_file_t f;
    ck_assert_int_eq(static_site_new(&site, NULL), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(static_site_find(site, bad[i], &f) == -1, "%s was found", bad[i]);
    memset(longp, 'a', sizeof longp - 1);
    longp[0] = '/';
    longp[sizeof longp - 1] = '\0';
    ck_assert_int_eq(static_site_find(site, longp, &f), -1);
    static_site_free(site);
}
END_TEST

/* --web-root: read per request (an edit shows at once, with a new ETag),
 * directories answer their index.html, symlinks and non-files are refused. */
START_TEST(static_web_root_reads_each_time) {
    char dir[] = "/tmp/puzzled-webroot-XXXXXX";
    char path[256];
    static_site_t *site;
    static_file_t f;
    char etag[20];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.txt", dir);
    spit(path, "one");
    snprintf(path, sizeof path, "%s/sub", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/sub/index.html", dir);
    spit(path, "<p>sub</p>");
    snprintf(path, sizeof path, "%s/link.txt", dir);
    ck_assert_int_eq(symlink("/etc/hostname", path), 0);
    snprintf(path, sizeof path, "%s/empty.css", dir);
    spit(path, "");

    ck_assert_int_eq(static_site_new(&site, "/nonexistent-dir"), -1);
    ck_assert_int_eq(static_site_new(&site, dir), 0);
    ck_assert_int_eq(static_site_find(site, "/a.txt", &f), 0);
    ck_assert_uint_eq(f.len, 3);
    ck_assert(memcmp(f.data, "one", 3) == 0);
    ck_assert_str_eq(f.content_type, "text/plain; charset=utf-8");
    memcpy(etag, f.etag, sizeof etag);
    static_file_destroy(&f);
    snprintf(path, sizeof path, "%s/a.txt", dir);
    spit(path, "two!");
    ck_assert_int_eq(static_site_find(site, "/a.txt", &f), 0);
    ck_assert_uint_eq(f.len, 4);
    ck_assert_str_ne(f.etag, etag);
    static_file_destroy(&f);
    ck_assert_int_eq(static_site_find(site, "/sub/", &f), 0);
    ck_assert_uint_eq(f.len, 10);
    static_file_destroy(&f);
    ck_assert_int_eq(static_site_find(site, "/empty.css", &f), 0);
    ck_assert_uint_eq(f.len, 0);
    static_file_destroy(&f);
    ck_assert_int_eq(static_site_find(site, "/link.txt", &f), -1);
    ck_assert_int_eq(static_site_find(site, "/sub", &f), -1); /* a directory */
    ck_assert_int_eq(static_site_find(site, "/missing", &f), -1);
    static_site_free(site);

    /* through the server: a change shows without a restart; 304 on a match */
    {
        const char *args[] = {"--web-root", dir, NULL};
        const char *hdr[2];
        char url[256], et[64], h304[96];
        tsrv_t srv;
        hresp_t r;
        CURL *c = curl_easy_init();
        ck_assert_int_eq(tsrv_start(&srv, args, NULL), 0);
        snprintf(url, sizeof url, "%s/a.txt", srv.base);
        ck_assert_int_eq(http_get(url, &r), CURLE_OK);
        ck_assert_int_eq(r.status, 200);
        ck_assert_str_eq(r.body, "two!");
        ck_assert(hresp_header(&r, "ETag", et, sizeof et));
        hresp_free(&r);
        snprintf(h304, sizeof h304, "If-None-Match: %s", et);
        hdr[0] = h304;
        hdr[1] = NULL;
        http_do(c, "GET", url, NULL, 0, hdr, &r);
        ck_assert_int_eq(r.status, 304);
        hresp_free(&r);
        spit(path, "three");
        http_do(c, "GET", url, NULL, 0, hdr, &r);
        ck_assert_int_eq(r.status, 200);
        ck_assert_str_eq(r.body, "three");
        hresp_free(&r);
        snprintf(url, sizeof url, "%s/", srv.base); /* no index.html at the root */
        ck_assert_int_eq(http_get(url, &r), CURLE_OK);
        ck_assert_int_eq(r.status, 404);
        hresp_free(&r);
        curl_easy_cleanup(c);
        ck_assert_int_eq(tsrv_stop(&srv, SIGTERM, 10000), 0);
    }
    {
        const char *args[] = {"--web-root", "/nonexistent-dir", NULL};
        tsrv_t srv;
        ck_assert_int_eq(tsrv_start(&srv, args, NULL), -1);
    }
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

/* The embedded front end through the server: headers, 304, HEAD, 404, 405. */
START_TEST(static_served_at_root) {
    tsrv_t srv;
    hresp_t r;
    char url[256], v[512], inm[600];
    const char *hdr[2] = {inm, NULL};
    CURL *c = curl_easy_init();
    ck_assert_int_eq(tsrv_start(&srv, NULL, NULL), 0);
    snprintf(url, sizeof url, "%s/", srv.base);
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    ck_assert(strstr(r.body, "<!doctype html>") == r.body);
    ck_assert(hresp_header(&r, "Content-Type", v, sizeof v));
    ck_assert_str_eq(v, "text/html; charset=utf-8");
    ck_assert(hresp_header(&r, "Cache-Control", v, sizeof v));
    ck_assert_str_eq(v, "no-cache");
    ck_assert(hresp_header(&r, "Content-Security-Policy", v, sizeof v));
    ck_assert_str_eq(v, STATIC_CSP);
    ck_assert(hresp_header(&r, "X-Request-Id", v, sizeof v));
    ck_assert(hresp_header(&r, "ETag", v, sizeof v));
    snprintf(inm, sizeof inm, "If-None-Match: %s", v);
    hresp_free(&r);
    http_do(c, "GET", url, NULL, 0, hdr, &r);
    ck_assert_int_eq(r.status, 304);
    ck_assert_uint_eq(r.len, 0);
    hresp_free(&r);
    snprintf(url, sizeof url, "%s/js/app.js", srv.base);
    http_do(c, "HEAD", url, NULL, 0, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(r.len, 0);
    ck_assert(hresp_header(&r, "Content-Type", v, sizeof v));
    ck_assert_str_eq(v, "text/javascript; charset=utf-8");
    hresp_free(&r);
    http_do(c, "POST", url, "x", 1, NULL, &r);
    ck_assert_int_eq(r.status, 405);
    ck_assert(hresp_header(&r, "Allow", v, sizeof v));
    ck_assert_str_eq(v, "GET, HEAD, OPTIONS");
    hresp_free(&r);
    snprintf(url, sizeof url, "%s/missing.js", srv.base);
    http_do(c, "GET", url, NULL, 0, NULL, &r);
    ck_assert_int_eq(r.status, 404);
    ck_assert(hresp_header(&r, "Content-Type", v, sizeof v));
    ck_assert_str_eq(v, "application/problem+json");
    hresp_free(&r);
    /* the static route is counted under "/" in /metrics */
    snprintf(url, sizeof url, "%s/metrics", srv.base);
    http_do(c, "GET", url, NULL, 0, NULL, &r);
    ck_assert_double_eq(
        metrics_value(r.body, "puzzled_http_requests_total{route=\"/\",status=\"200\"}"), 2);
    hresp_free(&r);
    curl_easy_cleanup(c);
    ck_assert_int_eq(tsrv_stop(&srv, SIGTERM, 10000), 0);
}
END_TEST

Suite *static_suite(void);
Suite *static_suite(void) {
    Suite *s = suite_create("static");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, static_etag_matching);
    tcase_add_test(tc, static_content_types);
    tcase_add_test(tc, static_embedded_matches_web);
    tcase_add_test(tc, static_refuses_odd_paths);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, static_web_root_reads_each_time);
    tcase_add_test(tc, static_served_at_root);
    suite_add_tcase(s, tc);
    return s;
}
