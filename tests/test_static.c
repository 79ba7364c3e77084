/* test_static.c -- server/http/static.c: ETag matching, Accept-Encoding,
 * content types, which paths are looked up, the embedded copy of web/ (and
 * its gzip forms) against the files on disk, --web-root (read on every
 * request; symlinked files and directories, FIFOs and hidden files refused,
 * without ever blocking), and both through the real server: 200, 304, HEAD,
 * gzip with Vary, the policies, 404, 405.  (tests/web/ drives the same
 * files in a browser.) */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

/* Whether gzip bytes decompress (gzip -dc) to want. */
static int gunzips_to(const unsigned char *gz, size_t gzlen, const char *want, size_t len) {
    char tmp[] = "/tmp/puzzled-gz-XXXXXX", cmd[96];
    int fd = mkstemp(tmp), same = 0;
    FILE *p;
    char *got = malloc(len + 2);
    size_t n;
    ck_assert_int_ge(fd, 0);
    ck_assert_ptr_nonnull(got);
    ck_assert_int_eq(write(fd, gz, gzlen), (ssize_t)gzlen);
    close(fd);
    snprintf(cmd, sizeof cmd, "gzip -dc < '%s'", tmp);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    n = fread(got, 1, len + 1, p);
    same = pclose(p) == 0 && n == len && memcmp(got, want, len) == 0;
    unlink(tmp);
    free(got);
    return same;
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

START_TEST(static_accept_encoding) {
    ck_assert(static_accepts_gzip("gzip"));
    ck_assert(static_accepts_gzip("gzip, deflate, br, zstd")); /* Chromium's */
    ck_assert(static_accepts_gzip("br;q=1.0, GZIP;q=0.5"));
    ck_assert(static_accepts_gzip("x-gzip"));
    ck_assert(static_accepts_gzip("*"));
    ck_assert(static_accepts_gzip("identity, *;q=0.1"));
    ck_assert(!static_accepts_gzip(NULL));
    ck_assert(!static_accepts_gzip(""));
    ck_assert(!static_accepts_gzip("identity"));
    ck_assert(!static_accepts_gzip("br, deflate"));
    ck_assert(!static_accepts_gzip("gzip;q=0"));
    ck_assert(!static_accepts_gzip("gzip; q=0.000"));
    ck_assert(!static_accepts_gzip("*;q=0"));
    ck_assert(!static_accepts_gzip("*, gzip;q=0")); /* named beats the wildcard */
    ck_assert(!static_accepts_gzip("gzipped, xgzip"));
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
    size_t gzipped = 0;
    ck_assert_int_eq(static_site_new(&site, NULL), 0);
    ck_assert_uint_gt(static_nassets, 3);
    for (size_t i = 0; i < static_nassets; i++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof path, "web%s", static_assets[i].path);
        char *want = slurp(path, &len);
        ck_assert_msg(want != NULL, "%s is embedded but not in web/", path);
        ck_assert_int_eq(static_site_find(site, static_assets[i].path, 0, &f), 0);
        ck_assert_uint_eq(f.len, len);
        ck_assert(memcmp(f.data, want, len) == 0);
        ck_assert_ptr_null(f.owned);
        ck_assert_ptr_null(f.encoding);
        /* the gzip form: smaller, and gunzips to the same bytes */
        static_file_t z;
        ck_assert_int_eq(static_site_find(site, static_assets[i].path, 1, &z), 0);
        if (static_assets[i].gz != NULL) {
            ck_assert_str_eq(z.encoding, "gzip");
            ck_assert_uint_lt(z.len, len);
            ck_assert_str_ne(z.etag, f.etag);
            ck_assert_msg(gunzips_to(z.data, z.len, want, len), "%s: gzip form differs", path);
            gzipped++;
        } else {
            ck_assert_ptr_null(z.encoding);
            ck_assert_str_eq(z.etag, f.etag);
        }
        free(want);
    }
    /* every text file compresses (a few tiny ones may not pay) */
    ck_assert_uint_ge(gzipped * 10, static_nassets * 7);
    ck_assert_int_eq(static_site_find(site, "/", 0, &f), 0);
    ck_assert_str_eq(f.content_type, "text/html; charset=utf-8");
    static_file_t g;
    ck_assert_int_eq(static_site_find(site, "/index.html", 0, &g), 0);
    ck_assert_str_eq(f.etag, g.etag);
    ck_assert_int_eq(static_site_find(site, "/js/app.js", 0, &g), 0);
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
        ck_assert_msg(static_site_find(site, bad[i], 1, &f) == -1, "%s was found", bad[i]);
    memset(longp, 'a', sizeof longp - 1);
    longp[0] = '/';
    longp[sizeof longp - 1] = '\0';
    ck_assert_int_eq(static_site_find(site, longp, 1, &f), -1);
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
    ck_assert_int_eq(static_site_find(site, "/a.txt", 0, &f), 0);
    ck_assert_uint_eq(f.len, 3);
    ck_assert(memcmp(f.data, "one", 3) == 0);
    ck_assert_str_eq(f.content_type, "text/plain; charset=utf-8");
    memcpy(etag, f.etag, sizeof etag);
    static_file_destroy(&f);
    snprintf(path, sizeof path, "%s/a.txt", dir);
    spit(path, "two!");
    ck_assert_int_eq(static_site_find(site, "/a.txt", 0, &f), 0);
    ck_assert_uint_eq(f.len, 4);
    ck_assert_str_ne(f.etag, etag);
    static_file_destroy(&f);
    ck_assert_int_eq(static_site_find(site, "/sub/", 0, &f), 0);
    ck_assert_uint_eq(f.len, 10);
    static_file_destroy(&f);
    ck_assert_int_eq(static_site_find(site, "/empty.css", 0, &f), 0);
    ck_assert_uint_eq(f.len, 0);
    static_file_destroy(&f);
    ck_assert_int_eq(static_site_find(site, "/link.txt", 0, &f), -1);
    ck_assert_int_eq(static_site_find(site, "/sub", 0, &f), -1); /* a directory */
    ck_assert_int_eq(static_site_find(site, "/missing", 0, &f), -1);
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

/* Runs static_site_find(site, path) in a child process and says whether it
 * came back (-1 = refused, 0 = found) within `seconds`, or 1 when it was
 * still blocked then (the child is killed).  A FIFO without a writer blocks
 * a plain open() for ever, so this is how a test can see that it does not:
 * the answer comes back at once or never, whatever the machine's speed. */
static int find_in_child(const static_site_t *site, const char *path, int seconds) {
    pid_t pid = fork();
    int st;
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        static_file_t f;
        _exit(static_site_find(site, path, 0, &f) == 0 ? 0 : 2);
    }
    for (int t = 0; t < seconds * 100; t++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return 1;
}

/* --web-root: a FIFO is refused at once, never read (issue 33: open()
 * before the type check blocked the HTTP thread for ever on a FIFO with no
 * writer); through the server it is a 404 and the next request is answered. */
START_TEST(static_web_root_fifo_never_blocks) {
    char dir[] = "/tmp/puzzled-webroot-XXXXXX";
    char path[256], url[256];
    const char *args[] = {"--web-root", dir, NULL};
    static_site_t *site;
    tsrv_t srv;
    hresp_t r;
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/pipe.js", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/ok.txt", dir);
    spit(path, "fine");
    ck_assert_int_eq(static_site_new(&site, dir), 0);
    ck_assert_msg(find_in_child(site, "/pipe.js", 10) == -1, "a FIFO blocked or was served");
    ck_assert_int_eq(find_in_child(site, "/ok.txt", 10), 0);
    static_site_free(site);

    ck_assert_int_eq(tsrv_start(&srv, args, NULL), 0);
    snprintf(url, sizeof url, "%s/pipe.js", srv.base);
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 404);
    hresp_free(&r);
    snprintf(url, sizeof url, "%s/ok.txt", srv.base);
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "fine");
    hresp_free(&r);
    ck_assert_int_eq(tsrv_stop(&srv, SIGTERM, 10000), 0);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

/* --web-root: a symlinked directory is refused like a symlinked file (issue
 * 33: it was followed, out of the root), wherever it is on the path; the
 * root itself may be a link (the operator chose it).  Files are served as
 * they are, never gzip. */
START_TEST(static_web_root_refuses_linked_dirs) {
    char dir[] = "/tmp/puzzled-webroot-XXXXXX";
    char out[] = "/tmp/puzzled-outside-XXXXXX";
    char path[256], link[256], url[256];
    const char *args[] = {"--web-root", dir, NULL};
    static_site_t *site;
    static_file_t f;
    tsrv_t srv;
    hresp_t r;
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_ptr_nonnull(mkdtemp(out));
    snprintf(path, sizeof path, "%s/secret.txt", out);
    spit(path, "outside");
    snprintf(path, sizeof path, "%s/real", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/real/ok.txt", dir);
    spit(path, "inside");
    snprintf(link, sizeof link, "%s/linked", dir);
    ck_assert_int_eq(symlink(out, link), 0);
    snprintf(link, sizeof link, "%s/real/up", dir);
    ck_assert_int_eq(symlink(dir, link), 0);

    ck_assert_int_eq(static_site_new(&site, dir), 0);
    ck_assert_int_eq(static_site_find(site, "/real/ok.txt", 1, &f), 0);
    ck_assert_uint_eq(f.len, 6);
    ck_assert_ptr_null(f.encoding);
    static_file_destroy(&f);
    ck_assert_int_eq(static_site_find(site, "/linked/secret.txt", 0, &f), -1);
    ck_assert_int_eq(static_site_find(site, "/real/up/real/ok.txt", 0, &f), -1);
    ck_assert_int_eq(static_site_find(site, "/linked/", 0, &f), -1);
    static_site_free(site);

    snprintf(link, sizeof link, "%s/root-link", out);
    ck_assert_int_eq(symlink(dir, link), 0);
    ck_assert_int_eq(static_site_new(&site, link), 0);
    ck_assert_int_eq(static_site_find(site, "/real/ok.txt", 0, &f), 0);
    static_file_destroy(&f);
    static_site_free(site);

    ck_assert_int_eq(tsrv_start(&srv, args, NULL), 0);
    snprintf(url, sizeof url, "%s/linked/secret.txt", srv.base);
    ck_assert_int_eq(http_get(url, &r), CURLE_OK);
    ck_assert_int_eq(r.status, 404);
    hresp_free(&r);
    ck_assert_int_eq(tsrv_stop(&srv, SIGTERM, 10000), 0);
    snprintf(path, sizeof path, "rm -rf '%s' '%s'", dir, out);
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
    ck_assert(hresp_header(&r, "Permissions-Policy", v, sizeof v));
    ck_assert_str_eq(v, STATIC_PERMISSIONS);
    ck_assert(hresp_header(&r, "Vary", v, sizeof v));
    ck_assert_str_eq(v, "Accept-Encoding");
    ck_assert(!hresp_header(&r, "Content-Encoding", v, sizeof v));
    ck_assert(hresp_header(&r, "ETag", v, sizeof v));
    snprintf(inm, sizeof inm, "If-None-Match: %s", v);
    hresp_free(&r);
    http_do(c, "GET", url, NULL, 0, hdr, &r);
    ck_assert_int_eq(r.status, 304);
    ck_assert_uint_eq(r.len, 0);
    hresp_free(&r);
    {
        /* gzip when asked for: the build's bytes, with their own ETag */
        const char *gz[] = {"Accept-Encoding: gzip, deflate", NULL};
        const char *gz304[] = {"Accept-Encoding: gzip", inm, NULL};
        char etag[64];
        http_do(c, "GET", url, NULL, 0, gz, &r);
        ck_assert_int_eq(r.status, 200);
        ck_assert(hresp_header(&r, "Content-Encoding", v, sizeof v));
        ck_assert_str_eq(v, "gzip");
        ck_assert(hresp_header(&r, "Vary", v, sizeof v));
        ck_assert_str_eq(v, "Accept-Encoding");
        ck_assert(hresp_header(&r, "Content-Type", v, sizeof v));
        ck_assert_str_eq(v, "text/html; charset=utf-8");
        ck_assert_uint_gt(r.len, 2);
        ck_assert(memcmp(r.body, "\x1f\x8b", 2) == 0);
        ck_assert(hresp_header(&r, "ETag", etag, sizeof etag));
        ck_assert_str_ne(etag, inm + strlen("If-None-Match: "));
        hresp_free(&r);
        /* the plain form's ETag does not validate the gzip form */
        http_do(c, "GET", url, NULL, 0, gz304, &r);
        ck_assert_int_eq(r.status, 200);
        hresp_free(&r);
    }
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
        metrics_value(r.body, "puzzled_http_requests_total{route=\"/\",status=\"200\"}"), 4);
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
    tcase_add_test(tc, static_accept_encoding);
    tcase_add_test(tc, static_content_types);
    tcase_add_test(tc, static_embedded_matches_web);
    tcase_add_test(tc, static_refuses_odd_paths);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, static_web_root_reads_each_time);
    tcase_add_test(tc, static_web_root_fifo_never_blocks);
    tcase_add_test(tc, static_web_root_refuses_linked_dirs);
    tcase_add_test(tc, static_served_at_root);
    suite_add_tcase(s, tc);
    return s;
}
