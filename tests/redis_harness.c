/* redis_harness.c -- see redis_harness.h. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "tests/redis_harness.h"

#include <arpa/inet.h>
#include <ftw.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *tredis_bin(void) {
    const char *b = getenv("REDIS_SERVER");
    return b && *b ? b : "redis-server";
}

int tredis_available(void) {
    const char *bin = tredis_bin(), *path = getenv("PATH");
    char buf[1024];
    if (strchr(bin, '/') != NULL) return access(bin, X_OK) == 0;
    while (path != NULL && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, bin);
        if (access(buf, X_OK) == 0) return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

static unsigned tredis_free_port(void) {
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    unsigned port = 0;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0) close(fd);
    return port;
}

static void tredis_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static redisContext *tredis_connect(const tredis_t *r) {
    struct timeval tv = {1, 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", (int)r->port, tv);
    if (c == NULL || c->err) {
        if (c) redisFree(c);
        return NULL;
    }
    if (r->password[0]) {
        redisReply *a = redisCommand(c, "AUTH %s", r->password);
        if (a) freeReplyObject(a);
    }
    return c;
}

static int tredis_spawn(tredis_t *r) {
    char port[16], log[300];
    snprintf(port, sizeof port, "%u", r->port);
    snprintf(log, sizeof log, "%s/redis.log", r->dir);
    r->pid = fork();
    if (r->pid < 0) return -1;
    if (r->pid == 0) {
        const char *argv[32];
        int n = 0;
        argv[n++] = tredis_bin();
        argv[n++] = "--port";
        argv[n++] = port;
        argv[n++] = "--bind";
        argv[n++] = "127.0.0.1";
        argv[n++] = "--dir";
        argv[n++] = r->dir;
        argv[n++] = "--logfile";
        argv[n++] = log;
        argv[n++] = "--save";
        argv[n++] = "";
        argv[n++] = "--appendonly";
        argv[n++] = "yes";
        argv[n++] = "--daemonize";
        argv[n++] = "no";
        if (r->password[0]) {
            argv[n++] = "--requirepass";
            argv[n++] = r->password;
        }
        argv[n] = NULL;
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    for (int waited = 0; waited < 10000; waited += 20) {
        redisContext *c = tredis_connect(r);
        if (c != NULL) {
            redisReply *p = redisCommand(c, "PING");
            int ok = p != NULL && p->type == REDIS_REPLY_STATUS;
            if (p) freeReplyObject(p);
            redisFree(c);
            if (ok) return 0;
        }
        if (waitpid(r->pid, NULL, WNOHANG) == r->pid) {
            r->pid = 0;
            return -1;
        }
        tredis_sleep_ms(20);
    }
    return -1;
}

int tredis_start(tredis_t *r, const char *password) {
    const char *base = getenv("PUZZLED_TEST_LOGS");
    char abs[200];
    memset(r, 0, sizeof *r);
    /* absolute: redis-server changes into --dir before it opens its log */
    if (base == NULL || *base == '\0' || realpath(base, abs) == NULL)
        snprintf(abs, sizeof abs, "/tmp");
    snprintf(r->dir, sizeof r->dir, "%s/puzzled-redis-XXXXXX", abs);
    if (mkdtemp(r->dir) == NULL) return -1;
    if (password != NULL) snprintf(r->password, sizeof r->password, "%s", password);
    for (int attempt = 0; attempt < 5; attempt++) { /* a port taken meanwhile: another */
        r->port = tredis_free_port();
        if (r->port != 0 && tredis_spawn(r) == 0) {
            snprintf(r->url, sizeof r->url, "redis://%s%s%s127.0.0.1:%u/0",
                     r->password[0] ? ":" : "", r->password, r->password[0] ? "@" : "", r->port);
            return 0;
        }
        if (r->pid > 0) tredis_stop(r, SIGKILL);
    }
    return -1;
}

void tredis_stop(tredis_t *r, int sig) {
    if (r->pid <= 0) return;
    kill(r->pid, sig);
    waitpid(r->pid, NULL, 0);
    r->pid = 0;
}

int tredis_restart(tredis_t *r) {
    for (int attempt = 0; attempt < 50; attempt++) { /* the port may linger a moment */
        if (tredis_spawn(r) == 0) return 0;
        tredis_sleep_ms(100);
    }
    return -1;
}

static int tredis_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void tredis_destroy(tredis_t *r) {
    tredis_stop(r, SIGKILL);
    if (r->dir[0]) nftw(r->dir, tredis_rm, 16, FTW_DEPTH | FTW_PHYS);
    r->dir[0] = '\0';
}

/* Runs one command; the reply (freeReplyObject()), or NULL. */
static redisReply *tredis_vcmd(const tredis_t *r, const char *fmt, va_list ap) {
    redisContext *c = tredis_connect(r);
    if (c == NULL) return NULL;
    redisReply *rep = redisvCommand(c, fmt, ap);
    redisFree(c);
    return rep;
}

long long tredis_int(const tredis_t *r, const char *fmt, ...) {
    va_list ap;
    long long v = -1;
    va_start(ap, fmt);
    redisReply *rep = tredis_vcmd(r, fmt, ap);
    va_end(ap);
    if (rep != NULL && rep->type == REDIS_REPLY_INTEGER)
        v = rep->integer;
    else if (rep != NULL && rep->type == REDIS_REPLY_ARRAY && rep->elements > 0 &&
             rep->element[0]->type == REDIS_REPLY_INTEGER)
        v = rep->element[0]->integer;
    if (rep) freeReplyObject(rep);
    return v;
}

long long tredis_len(const tredis_t *r, const char *fmt, ...) {
    va_list ap;
    long long v = -1;
    va_start(ap, fmt);
    redisReply *rep = tredis_vcmd(r, fmt, ap);
    va_end(ap);
    if (rep != NULL && rep->type == REDIS_REPLY_ARRAY) v = (long long)rep->elements;
    if (rep) freeReplyObject(rep);
    return v;
}

void tredis_prefix(char *out, size_t cap) {
    static int seq;
    snprintf(out, cap, "t%d-%d:", (int)getpid(), seq++);
}
