/* idle.c -- an idle crowd against puzzled (or nginx in front of it): can it
 * lock the server out?
 *
 *   idle --port P --head-timeout-s S [--conns 2000] [--sources 100]
 *        [--probe-ms 100] [--label NAME]
 *
 * Opens --conns TCP connections to 127.0.0.1:P from --sources loopback
 * addresses (127.0.0.2, 127.0.0.3, ...: a crowd of clients, not one, so a
 * per-address cap is not what saves the server), each sending half a
 * request head and no more.  Half of them are silent after that; the other
 * half trickle one more header byte a second (a slow-loris, which an idle
 * timeout alone never closes).  While they are held, ten normal requests
 * from 127.0.0.1 (GET /v1/nqueens/count?n=8 on a new connection, one every
 * 300 ms) must each answer 200 with count 92 within 1 s, their median
 * within --probe-ms.  (The median: on a shared 2-core machine a single
 * request now and then waits 100-200 ms for a core, crowd or no crowd; a
 * locked-out server does not answer at all.)  Then every held connection
 * must be closed by the other side (EOF or reset, an error answer allowed)
 * no later than S + 1.5 s after it was opened, and none sooner than S - 1 s
 * (a sooner close means a limit turned it away, not the head timeout).
 *
 * Prints what it saw (connections held, probe latencies, close times) and
 * exits 1 on any failure. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 20000
#define PROBES    10

typedef struct held_s {
    int fd;
    int trickle;       /* sends a byte a second */
    int64_t opened;    /* ns */
    int64_t closed;    /* ns, 0 while open */
    int64_t next_byte; /* ns, trickling ones */
} held_t;

static held_t held[MAX_CONNS];
static const char half_head[] = "GET /v1/nqueens/count?n=8 HTTP/1.1\r\nHost: puzzled\r\nX-Slow: ";

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A connected TCP socket from `src` to 127.0.0.1:port, or -1. */
static int dial(const char *src, int port, int nonblock) {
    struct sockaddr_in a = {0}, b = {0};
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (fd < 0) return -1;
    a.sin_family = AF_INET;
    inet_pton(AF_INET, src, &a.sin_addr);
    b.sin_family = AF_INET;
    b.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &b.sin_addr);
    struct timeval tv = {2, 0}; /* a connect the server's backlog never takes: fail, not hang */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        connect(fd, (struct sockaddr *)&b, sizeof b) != 0) {
        close(fd);
        return -1;
    }
    if (nonblock) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

/* One normal request on a new connection; returns its latency in ms, or a
 * negative number when it failed (message on stderr). */
static double probe(int port) {
    char buf[4096];
    size_t got = 0;
    const char *req =
        "GET /v1/nqueens/count?n=8 HTTP/1.1\r\nHost: puzzled\r\nConnection: close\r\n\r\n";
    struct timeval tv = {2, 0};
    int64_t t0 = now_ns();
    int fd = dial("127.0.0.1", port, 0);
    if (fd < 0) {
        fprintf(stderr, "idle: probe: cannot connect: %s\n", strerror(errno));
        return -1;
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req)) {
        close(fd);
        return -1;
    }
    for (;;) {
        ssize_t r = recv(fd, buf + got, sizeof buf - 1 - got, 0);
        if (r <= 0) break;
        got += (size_t)r;
        buf[got] = '\0';
        char *body = strstr(buf, "\r\n\r\n");
        if (body != NULL && strchr(body + 4, '}') != NULL) break;
    }
    double ms = (double)(now_ns() - t0) / 1e6;
    close(fd);
    buf[got] = '\0';
    if (strncmp(buf, "HTTP/1.1 200", 12) != 0 || strstr(buf, "\"count\":92") == NULL) {
        fprintf(stderr, "idle: probe: no right answer after %.1f ms: '%.120s'\n", ms, buf);
        return -1;
    }
    return ms;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int port = 0, conns = 2000, sources = 100, head_s = 0, fail = 0, opened = 0;
    double probe_ms = 100;
    const char *label = "target";
    struct rlimit rl;

    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--port") == 0)
            port = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--conns") == 0)
            conns = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--sources") == 0)
            sources = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--head-timeout-s") == 0)
            head_s = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--probe-ms") == 0)
            probe_ms = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--label") == 0)
            label = argv[i + 1];
        else {
            fprintf(stderr, "idle: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (port <= 0 || head_s <= 0 || conns < 1 || conns > MAX_CONNS || sources < 1 ||
        sources > 250) {
        fprintf(stderr, "usage: idle --port P --head-timeout-s S [--conns N] [--sources 1..250] "
                        "[--probe-ms MS] [--label NAME]\n");
        return 2;
    }
    /* Room for the crowd: raise the soft descriptor limit to the hard one. */
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }

    /* === The crowd: half a request head each ============================ */
    int64_t t_start = now_ns();
    for (int i = 0; i < conns; i++) {
        char src[32];
        snprintf(src, sizeof src, "127.0.0.%d", 2 + i % sources);
        held[i].fd = dial(src, port, 1);
        if (held[i].fd < 0) {
            fprintf(stderr, "idle: %s: connection %d from %s failed: %s\n", label, i, src,
                    strerror(errno));
            fail = 1;
            break;
        }
        held[i].opened = now_ns();
        held[i].trickle = i % 2;
        held[i].next_byte = held[i].opened + 1000000000;
        if (send(held[i].fd, half_head, sizeof half_head - 1, MSG_NOSIGNAL) < 0)
            held[i].closed = now_ns();
        opened++;
    }
    printf("idle: %s: %d half-request connections from %d addresses opened in %.0f ms\n", label,
           opened, sources, (double)(now_ns() - t_start) / 1e6);

    /* === Normal requests while the crowd waits, and the closes =========== */
    struct pollfd *pfd = calloc((size_t)opened, sizeof *pfd);
    double lat[PROBES];
    int probes = 0, early = 0, late = 0, left = opened;
    int64_t next_probe = now_ns() + 200000000;
    int64_t deadline =
        held[opened ? opened - 1 : 0].opened + (int64_t)(head_s * 1000 + 1500) * 1000000;
    int64_t too_soon = (int64_t)(head_s * 1000 - 1000) * 1000000;
    int64_t too_late = (int64_t)(head_s * 1000 + 1500) * 1000000;
    while (left > 0 || probes < PROBES) {
        int64_t now = now_ns();
        if (probes < PROBES && now >= next_probe) {
            lat[probes] = probe(port);
            if (lat[probes] < 0 || lat[probes] > 1000) {
                fprintf(stderr, "idle: %s: FAIL: normal request %d: %.1f ms\n", label, probes + 1,
                        lat[probes]);
                fail = 1;
            }
            probes++;
            next_probe = now_ns() + 300000000;
            continue;
        }
        if (now > deadline && probes >= PROBES) break;
        for (int i = 0; i < opened; i++) {
            pfd[i].fd = held[i].closed ? -1 : held[i].fd;
            pfd[i].events = POLLIN;
            pfd[i].revents = 0;
            if (held[i].closed || !held[i].trickle || now < held[i].next_byte) continue;
            if (send(held[i].fd, "a", 1, MSG_NOSIGNAL) < 0) {
                held[i].closed = now;
                left--;
            }
            held[i].next_byte += 1000000000;
        }
        if (poll(pfd, (nfds_t)opened, 50) < 0 && errno != EINTR) break;
        now = now_ns();
        for (int i = 0; i < opened; i++) {
            char buf[1024];
            if (pfd[i].fd < 0 || pfd[i].revents == 0 || held[i].closed) continue;
            ssize_t r = recv(held[i].fd, buf, sizeof buf, 0);
            if (r > 0) continue; /* an error answer (408, 400): the close follows */
            if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            held[i].closed = now;
            left--;
            if (now - held[i].opened < too_soon) early++;
            if (now - held[i].opened > too_late) late++;
        }
    }

    /* === Figures ========================================================= */
    int64_t *closes = calloc((size_t)opened + 1, sizeof *closes);
    int nclosed = 0, still = 0;
    for (int i = 0; i < opened; i++) {
        if (held[i].closed)
            closes[nclosed++] = held[i].closed - held[i].opened;
        else
            still++;
        close(held[i].fd);
    }
    qsort(closes, (size_t)nclosed, sizeof *closes, cmp_i64);
    printf("idle: %s: normal requests while held:", label);
    for (int i = 0; i < probes; i++)
        printf(" %.1f", lat[i]);
    double sorted[PROBES];
    memcpy(sorted, lat, sizeof sorted);
    for (int i = 1; i < probes; i++)
        for (int k = i; k > 0 && (sorted[k] < sorted[k - 1] || sorted[k - 1] < 0); k--) {
            double t = sorted[k];
            sorted[k] = sorted[k - 1];
            sorted[k - 1] = t;
        }
    double median = probes > 0 ? sorted[probes / 2] : -1;
    printf(" ms; median %.1f (limit %.0f)\n", median, probe_ms);
    if (probes < PROBES || median < 0 || median > probe_ms) {
        fprintf(stderr,
                "idle: %s: FAIL: %d of %d normal requests ran, median %.1f ms (limit %.0f)\n",
                label, probes, PROBES, median, probe_ms);
        fail = 1;
    }
    if (nclosed > 0)
        printf("idle: %s: %d closed by the other side after %.2f s (first) / %.2f s (median) / "
               "%.2f s (last); "
               "head timeout %d s\n",
               label, nclosed, (double)closes[0] / 1e9, (double)closes[nclosed / 2] / 1e9,
               (double)closes[nclosed - 1] / 1e9, head_s);
    if (late > 0) {
        fprintf(stderr, "idle: %s: FAIL: %d connections closed later than %.1f s\n", label, late,
                head_s + 1.5);
        fail = 1;
    }
    if (still > 0) {
        fprintf(stderr,
                "idle: %s: FAIL: %d connections still open %.1f s after the last was opened\n",
                label, still, head_s + 1.5);
        fail = 1;
    }
    if (early > 0) {
        fprintf(stderr,
                "idle: %s: FAIL: %d connections closed within %d s, before the head timeout "
                "(a connection limit turned them away)\n",
                label, early, head_s - 1);
        fail = 1;
    }
    free(closes);
    free(pfd);
    printf("idle: %s: %s\n", label, fail ? "FAILED" : "ok");
    return fail;
}
