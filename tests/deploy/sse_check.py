#!/usr/bin/env python3
"""sse_check.py -- does nginx pass a job's event stream on as it comes?

  sse_check.py serve PORT     a stand-in replica: GET .../events answers
                              text/event-stream (without the server's
                              X-Accel-Buffering: no, so that nginx's own
                              configuration is what is tested): one
                              "progress" event, 1.2 s of silence, then
                              "done", and closes; anything else is 404
  sse_check.py fetch URL      reads the stream through nginx: the progress
                              event must arrive within 0.6 s, the whole
                              stream last at least 1 s, and arrive
                              uncompressed (Accept-Encoding: gzip is sent)

test_deploy.sh checks the events location of deploy/nginx.conf.in with this
stream of known timing; the load (load.c) covers the server's real stream.
"""
import http.client
import socketserver
import sys
import time
import urllib.parse


class Replica(socketserver.StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline().decode("latin-1")
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        path = line.split(" ")[1] if line.count(" ") >= 2 else ""
        if not path.endswith("/events"):
            self.wfile.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                         b"Connection: close\r\n\r\n")
        self.wfile.write(b'event: progress\ndata: {"fraction":0.5}\n\n')
        self.wfile.flush()
        time.sleep(1.2)
        self.wfile.write(b'event: done\ndata: {"status":"done"}\n\n')
        self.wfile.flush()


def serve(port):
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    with socketserver.ThreadingTCPServer(("127.0.0.1", port), Replica) as srv:
        srv.serve_forever()


def fetch(url):
    u = urllib.parse.urlsplit(url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
    t0 = time.monotonic()
    c.request("GET", u.path, headers={"Accept": "text/event-stream", "Accept-Encoding": "gzip"})
    r = c.getresponse()
    first, body = None, b""
    while True:
        chunk = r.read1(4096)
        if not chunk:
            break
        body += chunk
        if first is None and b"event: progress" in body:
            first = time.monotonic() - t0
    total = time.monotonic() - t0
    problems = []
    if r.status != 200:
        problems.append("status %d" % r.status)
    if r.getheader("Content-Encoding"):
        problems.append("compressed: %s" % r.getheader("Content-Encoding"))
    if r.getheader("X-Accel-Buffering"):
        problems.append("X-Accel-Buffering reached the client")
    if not r.getheader("X-Request-Id"):
        problems.append("no X-Request-Id")
    if first is None or first > 0.6:
        problems.append("the first event came after %s s (buffered)" % first)
    if total < 1.0 or b"event: done" not in body:
        problems.append("the stream ended after %.2f s without its done event" % total)
    if problems:
        print("sse_check: FAIL: " + "; ".join(problems), file=sys.stderr)
        return 1
    print("test-deploy: events stream through nginx: first event after %.0f ms, done after %.0f ms, "
          "uncompressed" % (first * 1000, total * 1000))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "serve":
        serve(int(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "fetch":
        sys.exit(fetch(sys.argv[2]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
