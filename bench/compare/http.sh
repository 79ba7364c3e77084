#!/usr/bin/env bash
# bench/compare/http.sh -- puzzled's HTTP path next to nginx, same run.
#
#   bash bench/compare/http.sh            (make bench-compare runs it)
#
# Starts build/puzzled (--threads 2, its log to a file, as in production)
# and a throw-away nginx (Debian's, in a temporary prefix, worker_processes
# auto, access log on) that serves files holding exactly the bytes puzzled
# answers, and drives both with the same wrk parameters (-t1 -c32 -d$SECS s),
# interleaved (the order alternates by round), best of $RUNS:
#
#   small GET     GET /healthz, GET /v1/nqueens/count?n=8
#   POST solves   9x9 Sudoku, 4x4 Killer, a small exact cover (wrk with a
#                 Lua script for method, body and Content-Type)
#
# and prints requests/s for both, the ratio (puzzled / nginx), and CPU time
# per request (user + sys of the server's processes over the run, from
# /proc, divided by the requests wrk counted).  The POST rows also give the
# ratio to puzzled's own small-GET rate of the same run (issue 27's target:
# >= 0.8).  Needs wrk and nginx (Debian packages); says what is missing.
# Environment: RUNS (3), SECS (5), CONNS (32), PUZZLED_BIN.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
RUNS=${RUNS:-3}
SECS=${SECS:-5}
CONNS=${CONNS:-32}
BIN=${PUZZLED_BIN:-build/puzzled}
say() { echo "bench-http: $*"; }

for tool in wrk nginx; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || {
        say "missing: $tool (apt-get install $tool); skipped"
        exit 0
    }
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$BIN" ] || make -s "$BIN" || exit 1

work=$(mktemp -d)
cleanup() {
    [ -n "${ppid:-}" ] && kill "$ppid" 2>/dev/null
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null
    sleep 0.2
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pport=$(free_port)
nport=$(free_port)
"$BIN" --port "$pport" --threads 2 2>"$work/puzzled.log" &
ppid=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$pport/healthz" >/dev/null && break; sleep 0.05; done

sudoku='{"grid":"8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."}'
killer='{"size":4,"cages":[{"sum":3,"cells":[[0,0],[0,1]]},{"sum":7,"cells":[[0,2],[0,3]]},{"sum":7,"cells":[[1,0],[2,0]]},{"sum":5,"cells":[[1,1],[1,2]]},{"sum":3,"cells":[[1,3],[2,3]]},{"sum":5,"cells":[[2,1],[2,2]]},{"sum":3,"cells":[[3,0],[3,1]]},{"sum":7,"cells":[[3,2],[3,3]]}]}'
xcover='{"items":["A","B","C","D","E","F","G"],"options":[["C","E","F"],["A","D","G"],["B","C","F"],["A","D"],["B","G"],["D","E","G"]]}'

# name | method | path | body
cases="healthz|GET|/healthz|
count8|GET|/v1/nqueens/count?n=8|
sudoku9|POST|/v1/sudoku/solve|$sudoku
killer4|POST|/v1/killer/solve|$killer
xcover|POST|/v1/exact-cover/solve|$xcover"

# nginx: every answer as a file (the same bytes as puzzled's); a POST to a
# static file is answered as a GET through error_page 405.
mkdir -p "$work/www" "$work/logs" "$work/tmp"
while IFS='|' read -r name method path body; do
    if [ "$method" = GET ]; then
        curl -fs "http://127.0.0.1:$pport$path" >"$work/www/$name"
    else
        curl -fs -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$pport$path" >"$work/www/$name"
    fi
    printf 'wrk.method = "%s"\nwrk.body = [==[%s]==]\nwrk.headers["Content-Type"] = "application/json"\n' \
        "$method" "$body" >"$work/$name.lua"
done <<EOF
$cases
EOF
cat >"$work/nginx.conf" <<EOF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 4096; }
http {
    access_log $work/logs/access.log;
    client_body_temp_path $work/tmp;
    proxy_temp_path $work/tmp;
    fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp;
    scgi_temp_path $work/tmp;
    default_type application/json;
    server {
        listen 127.0.0.1:$nport;
        root $work/www;
        error_page 405 =200 \$uri; # a POST to a static file: answered as a GET
        location / { }
    }
}
EOF
chmod -R a+rX "$work" # nginx's workers run as another user
"$NGINX" -p "$work" -c "$work/nginx.conf" 2>"$work/logs/start.log" || { say "nginx did not start: $(cat "$work/logs/start.log")"; exit 1; }
sleep 0.3

cpu_of() { # total user+sys ticks of pids
    local t=0
    for p in "$@"; do
        [ -r "/proc/$p/stat" ] || continue
        t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat")))
        for c in $(ls "/proc/$p/task" 2>/dev/null); do :; done
    done
    echo "$t"
}
nginx_pids() { echo "$(cat "$work/nginx.pid") $(pgrep -P "$(cat "$work/nginx.pid")" | tr '\n' ' ')"; }
hz=$(getconf CLK_TCK)

# run_wrk URL LUA PIDS... -> "reqs_per_s cpu_us_per_req"
run_wrk() {
    local url=$1 lua=$2
    shift 2
    local c0 c1 out rps reqs
    c0=$(cpu_of "$@")
    out=$(wrk -t1 -c"$CONNS" -d"${SECS}s" -s "$lua" "$url" 2>&1)
    c1=$(cpu_of "$@")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    reqs=$(echo "$out" | awk '/requests in/ {print $1}')
    if echo "$out" | grep -q "Non-2xx"; then rps=0; fi
    [ -n "${HTTP_DEBUG:-}" ] && echo "$out" >&2
    awk -v r="$rps" -v n="$reqs" -v d="$((c1 - c0))" -v hz="$hz" \
        'BEGIN { printf "%s %.2f\n", r, (n > 0 ? d * 1e6 / hz / n : 0) }'
}

declare -A best_p best_n cpu_p cpu_n
for r in $(seq "$RUNS"); do
    while IFS='|' read -r name method path body; do
        for who in $( [ $((r % 2)) = 1 ] && echo "p n" || echo "n p"); do
            if [ "$who" = p ]; then
                res=$(run_wrk "http://127.0.0.1:$pport$path" "$work/$name.lua" "$ppid")
            else
                res=$(run_wrk "http://127.0.0.1:$nport/$name" "$work/$name.lua" $(nginx_pids))
            fi
            rps=${res% *}
            cpu=${res#* }
            key=$name
            if [ "$who" = p ]; then
                if awk -v a="$rps" -v b="${best_p[$key]:-0}" 'BEGIN{exit !(a>b)}'; then best_p[$key]=$rps; cpu_p[$key]=$cpu; fi
            else
                if awk -v a="$rps" -v b="${best_n[$key]:-0}" 'BEGIN{exit !(a>b)}'; then best_n[$key]=$rps; cpu_n[$key]=$cpu; fi
            fi
        done
    done <<EOF
$cases
EOF
done

printf '\nHTTP, wrk -t1 -c%s -d%ss, best of %s, interleaved (puzzled --threads 2; nginx worker_processes auto)\n' "$CONNS" "$SECS" "$RUNS"
printf '%-10s %12s %12s %7s %12s %12s %7s %10s %10s\n' case "puzzled r/s" "nginx r/s" ratio "puzzled us" "nginx us" "cpu x" "vs GET" "cpu vs GET"
small=${best_p[count8]:-0}
small_cpu=${cpu_p[count8]:-0}
while IFS='|' read -r name method path body; do
    p=${best_p[$name]:-0}
    n=${best_n[$name]:-0}
    awk -v name="$name" -v p="$p" -v n="$n" -v cp="${cpu_p[$name]:-0}" -v cn="${cpu_n[$name]:-0}" \
        -v small="$small" -v small_cpu="$small_cpu" \
        -v post="$([ "$method" = POST ] && echo 1 || echo 0)" 'BEGIN {
        printf "%-10s %12.0f %12.0f %7.2f %12.1f %12.1f %7.2f %10s %10s\n", name, p, n,
               (n > 0 ? p / n : 0), cp, cn, (cn > 0 ? cp / cn : 0),
               (post && small > 0 ? sprintf("%.2f", p / small) : "-"),
               (post && cp > 0 ? sprintf("%.2f", small_cpu / cp) : "-") }'
done <<EOF
$cases
EOF
echo "(ratio: puzzled / nginx requests/s, target >= 0.9 on small GETs; cpu x: CPU per request,"
echo " puzzled / nginx, target <= 1.3; vs GET: a POST's rate / puzzled's count8 rate, target >= 0.8;"
echo " cpu vs GET: count8's CPU per request / the POST's, the rate ratio of a server with its own cores:"
echo " wrk shares these two cores with puzzled, so the rates move 20-30% from run to run)"
