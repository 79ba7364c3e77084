#!/usr/bin/env python3
"""heads.py -- request heads that a proxy and a server could frame two ways
(request smuggling), sent through nginx and straight at a replica:

    heads.py NGINX_PORT REPLICA_PORT REPLICA_LOG...

Each head goes out with a second request behind it on the same connection.
Both nginx and the replica must answer it with one 4xx/501 and close the
connection (the request behind it never answered); nginx must refuse it
itself (the replicas' logs hold none of the request ids sent through it)
and the replica must refuse it too (its log holds every id sent straight at
it, with its status).  A clean chunked body and an HTTP/1.0 request without
Host go through both.  Prints one line per head; exits 1 on a mismatch.
"""
import os
import socket
import sys

BEHIND = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"
POST = b"POST /v1/nqueens/count HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
CHUNKED = b"7\r\n{\"n\":8}\r\n0\r\n\r\n"

# name, head lines after the request line's first header, body, the
# replica's own status (nginx may choose another 4xx/501)
CASES = [
    ("both Transfer-Encoding and Content-Length", POST + b"Transfer-Encoding: chunked\r\nContent-Length: 7\r\n", CHUNKED, 400),
    ("Transfer-Encoding: gzip", POST + b"Transfer-Encoding: gzip\r\n", b"{\"n\":8}", 501),
    ("two Content-Length", POST + b"Content-Length: 7\r\nContent-Length: 7\r\n", b"{\"n\":8}", 400),
    ("HTTP/1.1 without Host", b"GET /healthz HTTP/1.1\r\n", b"", 400),
    ("two Host", b"GET /healthz HTTP/1.1\r\nHost: t\r\nHost: u\r\n", b"", 400),
    ("obs-fold", b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Note: a\r\n b\r\n", b"", 400),
    ("space before the colon", POST + b"Transfer-Encoding : chunked\r\nContent-Length: 7\r\n", b"{\"n\":8}", 400),
]
GOOD = [
    ("chunked body", POST + b"Transfer-Encoding: chunked\r\n", CHUNKED),
    ("HTTP/1.0 without Host", b"GET /healthz HTTP/1.0\r\n", b""),
]


def talk(port, head, rid, body):
    """Sends head (+ X-Request-Id), body and a second request; returns the
    status codes answered and whether the server closed the connection."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(5)
    s.sendall(head + b"X-Request-Id: " + rid.encode() + b"\r\n\r\n" + body + BEHIND)
    out, closed = b"", False
    try:
        while True:
            d = s.recv(65536)
            if not d:
                closed = True
                break
            out += d
    except socket.timeout:
        pass
    s.close()
    codes = [int(line.split(b" ")[1]) for line in out.split(b"\r\n") if line.startswith(b"HTTP/1.1 ")]
    return codes, closed


def main():
    nginx, replica, logs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    tag = "heads-%d" % os.getpid()
    bad = 0
    for i, (name, head, body, want) in enumerate(CASES):
        via, via_closed = talk(nginx, head, "%s-nginx-%d" % (tag, i), body)
        own, own_closed = talk(replica, head, "%s-direct-%d" % (tag, i), body)
        ok = (len(via) == 1 and via[0] in (400, 501) and via_closed and own == [want] and own_closed)
        print("heads: %-42s nginx %s, replica %s%s" % (name, via, own, "" if ok else "  <-- FAIL"))
        bad |= not ok
    for i, (name, head, body) in enumerate(GOOD):
        via, _ = talk(nginx, head + b"Connection: close\r\n", "%s-good-%d" % (tag, i), body)
        own, _ = talk(replica, head + b"Connection: close\r\n", "%s-good-%d" % (tag, i), body)
        ok = via == [200] and own == [200]
        print("heads: %-42s nginx %s, replica %s%s" % (name, via, own, "" if ok else "  <-- FAIL"))
        bad |= not ok
    text = "".join(open(f, encoding="utf-8", errors="replace").read() for f in logs)
    leaked = [i for i in range(len(CASES)) if '"request_id":"%s-nginx-%d"' % (tag, i) in text]
    seen = [i for i in range(len(CASES)) if '"request_id":"%s-direct-%d"' % (tag, i) in text]
    if leaked:
        print("heads: FAIL: nginx passed these to a replica: %s" % [CASES[i][0] for i in leaked])
        bad = 1
    if len(seen) != len(CASES):
        print("heads: FAIL: the replica's log lacks the refused heads it answered (%d of %d)" % (len(seen), len(CASES)))
        bad = 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
