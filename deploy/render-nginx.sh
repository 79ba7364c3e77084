#!/bin/sh
# render-nginx.sh [TEMPLATE] -- print nginx.conf for puzzled on stdout.
#
# Fills deploy/nginx.conf.in from environment variables.  The PUZZLED_*
# ones are the replicas' own settings (same names, same defaults as
# `puzzled --help`), so that nginx's limits follow the server's:
#   PUZZLED_MAX_BODY        1048576   -> client_max_body_size (every route but batch)
#   PUZZLED_MAX_BATCH_BODY  16777216  -> client_max_body_size of /v1/sudoku/batch
#   PUZZLED_TIMEOUT_MS      30000     -> proxy_read_timeout = ceil(ms / 1000) + 5 s
#   PUZZLED_HEAD_TIMEOUT_S  5         -> client_header_timeout, client_body_timeout
#   PUZZLED_IDLE_TIMEOUT_S  30        -> keepalive_timeout (clients); the upstream
#                                        keep-alive timeout is half of it
# The front end's own:
#   NGINX_UPSTREAMS   "puzzled-1:8080 puzzled-2:8080 puzzled-3:8080" (host:port ...)
#   NGINX_LISTEN      "8080 [::]:8080"   (one listen directive each)
#   NGINX_WEB_ROOT    /srv/puzzled/web   (a copy of web/)
#   NGINX_REQ_RATE    20r/s   limit_req per client address ...
#   NGINX_REQ_BURST   40      ... with this burst
#   NGINX_CONN_PER_IP 32      limit_conn: requests in progress per client address
#   NGINX_WORKERS     auto
#   NGINX_USER        (empty: nginx's default)  user directive, when run as root
#   NGINX_PID         /var/run/nginx.pid
#   NGINX_ERROR_LOG   /var/log/nginx/error.log
#   NGINX_ACCESS_LOG  /var/log/nginx/access.log
#   NGINX_TEMP_DIR    /var/cache/nginx
#   NGINX_MIME_TYPES  /etc/nginx/mime.types
# POSIX sh and awk only: it runs in a stock nginx image too (deploy/compose.yaml).
set -eu
template=${1:-$(dirname "$0")/nginx.conf.in}

uint() { # name value: the value must be a positive integer
    case "$2" in '' | *[!0-9]*) echo "render-nginx: $1 must be a positive integer, got '$2'" >&2; exit 2 ;; esac
    [ "$2" -gt 0 ] || { echo "render-nginx: $1 must be > 0" >&2; exit 2; }
}
max_body=${PUZZLED_MAX_BODY:-1048576}
max_batch_body=${PUZZLED_MAX_BATCH_BODY:-16777216}
timeout_ms=${PUZZLED_TIMEOUT_MS:-30000}
head_s=${PUZZLED_HEAD_TIMEOUT_S:-5}
idle_s=${PUZZLED_IDLE_TIMEOUT_S:-30}
for v in max_body max_batch_body timeout_ms head_s idle_s; do eval "uint $v \"\$$v\""; done
read_s=$(((timeout_ms + 999) / 1000 + 5))
upstream_idle=$((idle_s / 2))
[ "$upstream_idle" -ge 1 ] || upstream_idle=1

upstreams=${NGINX_UPSTREAMS:-puzzled-1:8080 puzzled-2:8080 puzzled-3:8080}
servers=""
for u in $upstreams; do
    servers="$servers        server $u max_fails=1 fail_timeout=2s;
"
done
[ -n "$servers" ] || { echo "render-nginx: NGINX_UPSTREAMS is empty" >&2; exit 2; }
listen=""
for l in ${NGINX_LISTEN:-8080 [::]:8080}; do
    listen="$listen        listen $l;
"
done
user_line="# user: nginx's default (the master's user, or nobody under root)"
[ -z "${NGINX_USER:-}" ] || user_line="user $NGINX_USER;"

# Multi-line values go through the environment: awk -v would parse them.
RENDER_SERVERS=${servers%?} RENDER_LISTEN=${listen%?} RENDER_USER_LINE=$user_line \
awk \
    -v web_root="${NGINX_WEB_ROOT:-/srv/puzzled/web}" \
    -v req_rate="${NGINX_REQ_RATE:-20r/s}" -v req_burst="${NGINX_REQ_BURST:-40}" \
    -v conn_per_ip="${NGINX_CONN_PER_IP:-32}" -v workers="${NGINX_WORKERS:-auto}" \
    -v pid="${NGINX_PID:-/var/run/nginx.pid}" \
    -v error_log="${NGINX_ERROR_LOG:-/var/log/nginx/error.log}" \
    -v access_log="${NGINX_ACCESS_LOG:-/var/log/nginx/access.log}" \
    -v temp_dir="${NGINX_TEMP_DIR:-/var/cache/nginx}" \
    -v mime="${NGINX_MIME_TYPES:-/etc/nginx/mime.types}" \
    -v max_body="$max_body" -v max_batch_body="$max_batch_body" -v read_s="$read_s" \
    -v head_s="$head_s" -v idle_s="$idle_s" -v upstream_idle="$upstream_idle" '
    function put(name, value) { gsub("@" name "@", value) }
    {
        # Whole-line placeholders carry several lines.
        if ($0 == "@SERVERS@") { print ENVIRON["RENDER_SERVERS"]; next }
        if ($0 == "@LISTEN@") { print ENVIRON["RENDER_LISTEN"]; next }
        if ($0 == "@USER_LINE@") { print ENVIRON["RENDER_USER_LINE"]; next }
        put("WEB_ROOT", web_root); put("REQ_RATE", req_rate); put("REQ_BURST", req_burst)
        put("CONN_PER_IP", conn_per_ip); put("WORKER_PROCESSES", workers); put("PID", pid)
        put("ERROR_LOG", error_log); put("ACCESS_LOG", access_log); put("TEMP_DIR", temp_dir)
        put("MIME_TYPES", mime); put("MAX_BODY", max_body); put("MAX_BATCH_BODY", max_batch_body)
        put("READ_TIMEOUT", read_s); put("HEAD_TIMEOUT", head_s); put("IDLE_TIMEOUT", idle_s)
        put("UPSTREAM_IDLE", upstream_idle)
        if ($0 ~ /@[A-Z_]+@/) { print "render-nginx: unfilled placeholder: " $0 > "/dev/stderr"; bad = 1 }
        print
    }
    END { exit bad }' "$template"
