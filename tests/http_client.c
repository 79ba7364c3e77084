/* http_client.c -- see http_client.h.  The server runs as a child process so
 * that the tests exercise the real binary: its flags, its signal handling,
 * its exit status (and, in sanitizer builds, its leak report at exit). */
#include "tests/http_client.h"

#include "tests/contract/record.h"
#include "tests/test_util.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int tsrv_start(tsrv_t *s, const char *const *args, const char *const *env) {
    const char *bin = getenv("PUZZLED_BIN");
    const char *dir = getenv("PUZZLED_TEST_LOGS");
    const char *argv[40];
    int argc = 0;
    static int seq;

    memset(s, 0, sizeof *s);
    if (bin == NULL) bin = "./build/puzzled";
    if (dir == NULL || *dir == '\0') dir = "/tmp";
    snprintf(s->log_path, sizeof s->log_path, "%s/puzzled-test-%d-%d.log", dir, (int)getpid(),
             seq++);
    argv[argc++] = bin;
    argv[argc++] = "--port";
    argv[argc++] = "0";
    argv[argc++] = "--bind";
    argv[argc++] = "127.0.0.1";
    for (size_t i = 0; args != NULL && args[i] != NULL && argc < 38; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;

    /* A log of the same name may be left from an earlier process with this
     * pid: the "listening" line read below must be this server's. */
    unlink(s->log_path);
    s->pid = fork();
    if (s->pid < 0) return -1;
    if (s->pid == 0) {
        FILE *f = freopen(s->log_path, "w", stderr);
        if (f == NULL) _exit(127);
        for (size_t i = 0; env != NULL && env[i] != NULL; i++)
            putenv((char *)env[i]);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    for (int waited = 0; waited < 10000; waited += 10) {
        char line[1024];
        FILE *f = fopen(s->log_path, "r");
        while (f != NULL && fgets(line, sizeof line, f) != NULL) {
            char *p = strstr(line, "\"msg\":\"listening\"");
            char *q = p ? strstr(line, "\"port\":") : NULL;
            if (q != NULL) {
                s->port = (unsigned)atoi(q + 7);
                snprintf(s->base, sizeof s->base, "http://127.0.0.1:%u", s->port);
                fclose(f);
                return 0;
            }
        }
        if (f) fclose(f);
        if (waitpid(s->pid, NULL, WNOHANG) == s->pid) return -1;
        test_sleep_ms(10);
    }
    return -1;
}

int tsrv_stop(tsrv_t *s, int sig, int wait_ms) {
    int status;
    if (s->pid <= 0) return -1;
    kill(s->pid, sig);
    for (int waited = 0; waited <= wait_ms; waited += 10) {
        if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
            s->pid = 0;
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        test_sleep_ms(10);
    }
    kill(s->pid, SIGKILL);
    waitpid(s->pid, &status, 0);
    s->pid = 0;
    return -1;
}

int tsrv_log_has(const tsrv_t *s, const char *needle) {
    char line[4096];
    int found = 0;
    FILE *f = fopen(s->log_path, "r");
    while (f != NULL && !found && fgets(line, sizeof line, f) != NULL)
        found = strstr(line, needle) != NULL;
    if (f) fclose(f);
    return found;
}

const char *tsrv_log_tail(const tsrv_t *s, char *buf, size_t cap) {
    FILE *f = fopen(s->log_path, "r");
    size_t n = 0;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        long from = end > (long)cap - 1 ? end - ((long)cap - 1) : 0;
        if (end >= 0 && fseek(f, from, SEEK_SET) == 0) n = fread(buf, 1, cap - 1, f);
    }
    if (f) fclose(f);
    buf[n] = '\0';
    return buf;
}

typedef struct grow_s {
    char *p;
    size_t len;
} grow_t;

static size_t grow_write(char *data, size_t size, size_t nmemb, void *cls) {
    grow_t *g = cls;
    size_t n = size * nmemb;
    char *p = realloc(g->p, g->len + n + 1);
    if (p == NULL) return 0;
    memcpy(p + g->len, data, n);
    g->p = p;
    g->len += n;
    g->p[g->len] = '\0';
    return n;
}

CURLcode http_do(CURL *curl, const char *method, const char *url, const char *body, size_t len,
                 const char *const *headers, hresp_t *out) {
    grow_t b = {NULL, 0}, h = {NULL, 0};
    struct curl_slist *hl = NULL;
    CURLcode rc;

    memset(out, 0, sizeof *out);
    for (size_t i = 0; headers != NULL && headers[i] != NULL; i++)
        hl = curl_slist_append(hl, headers[i]);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, NULL);
    curl_easy_setopt(curl, CURLOPT_NOBODY, 0L);
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    if (strcmp(method, "HEAD") == 0) {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (body != NULL) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        if (strcmp(method, "POST") != 0) curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    } else if (strcmp(method, "GET") != 0) {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, grow_write);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, grow_write);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &h);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    if (getenv("PUZZLED_TEST_NO_TIMEOUT") == NULL) curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
    rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
    curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &out->connects);
    curl_easy_getinfo(curl, CURLINFO_TOTAL_TIME, &out->seconds);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, NULL);
    curl_slist_free_all(hl);
    out->curl_rc = rc;
    out->body = b.p ? b.p : calloc(1, 1);
    out->len = b.len;
    out->headers = h.p ? h.p : calloc(1, 1);
    out->hlen = h.len;
    if (contract_enabled()) {
        contract_exchange_t x = {.source = "libcurl", .method = method, .url = url};
        x.req_headers = headers, x.req_body = body, x.req_len = len, x.status = out->status;
        x.resp_headers = out->headers, x.resp_hlen = out->hlen;
        x.body = out->body, x.len = out->len, x.incomplete = rc != CURLE_OK;
        contract_record(&x);
    }
    return rc;
}

CURLcode http_get(const char *url, hresp_t *out) {
    CURL *c = curl_easy_init();
    CURLcode rc = http_do(c, "GET", url, NULL, 0, NULL, out);
    curl_easy_cleanup(c);
    return rc;
}

int hresp_header(const hresp_t *r, const char *name, char *out, size_t cap) {
    size_t nl = strlen(name);
    const char *line = r->headers;
    while (line != NULL && *line != '\0') {
        const char *end = strstr(line, "\r\n");
        if (end == NULL) end = line + strlen(line);
        if ((size_t)(end - line) > nl && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            while (*v == ' ')
                v++;
            size_t n = (size_t)(end - v);
            if (n >= cap) n = cap - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return 1;
        }
        line = *end ? end + 2 : end;
    }
    return 0;
}

void hresp_free(hresp_t *r) {
    free(r->body);
    free(r->headers);
    r->body = r->headers = NULL;
}

double metrics_value(const char *body, const char *series) {
    size_t n = strlen(series);
    for (const char *p = body; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, series, n) == 0 && p[n] == ' ') return atof(p + n + 1);
    }
    return -1;
}

double tsrv_metric(const tsrv_t *s, const char *series) {
    char url[256];
    hresp_t r;
    snprintf(url, sizeof url, "%s/metrics", s->base);
    double v = http_get(url, &r) == CURLE_OK ? metrics_value(r.body, series) : -1;
    hresp_free(&r);
    return v;
}
