/* healthcheck.c -- a minimal HTTP/1.0 client for one GET.  HTTP/1.0 makes the
 * server close the connection after answering, so reading until EOF (or the
 * first line) is all the parsing needed. */
#include "server/healthcheck.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int healthcheck_run(const config_t *cfg) {
    struct sockaddr_storage ss;
    socklen_t len;
    struct timeval tv = {3, 0};
    char buf[256];
    const char *req =
        "GET /healthz HTTP/1.0\r\nHost: localhost\r\nUser-Agent: puzzled-healthcheck\r\n\r\n";
    size_t got = 0;
    int fd, ok = 1;

    memset(&ss, 0, sizeof ss);
    if (strchr(cfg->bind, ':') != NULL) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)cfg->port);
        if (strcmp(cfg->bind, "::") == 0)
            a->sin6_addr = in6addr_loopback;
        else
            inet_pton(AF_INET6, cfg->bind, &a->sin6_addr);
        len = sizeof *a;
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET;
        a->sin_port = htons((uint16_t)cfg->port);
        if (strcmp(cfg->bind, "0.0.0.0") == 0)
            a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        else
            inet_pton(AF_INET, cfg->bind, &a->sin_addr);
        len = sizeof *a;
    }
    fd = socket(ss.ss_family, SOCK_STREAM, 0);
    if (fd < 0) return 1;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&ss, len) != 0) goto done;
    if (send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req)) goto done;
    while (got < sizeof buf - 1) {
        ssize_t r = recv(fd, buf + got, sizeof buf - 1 - got, 0);
        if (r <= 0) break;
        got += (size_t)r;
        if (memchr(buf, '\n', got) != NULL) break;
    }
    buf[got] = '\0';
    /* "HTTP/1.x 200 ..." */
    if (got >= 12 && strncmp(buf, "HTTP/1.", 7) == 0 && strncmp(buf + 8, " 200", 4) == 0) ok = 0;
done:
    close(fd);
    return ok;
}
