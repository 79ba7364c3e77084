#!/bin/sh
# bench_cluster.sh [N] [ROUNDS] -- what cluster mode costs (make bench-cluster).
#
# One N-queens count (default n=18), on this machine, three ways, interleaved
# ROUNDS times (default 3; the best of each is kept, as the machine is shared):
#   sync    one server, embedded store, --threads 2, the synchronous count
#   1x2     one replica in cluster mode, --threads 2, the count as a job
#   3x1     three replicas in cluster mode, --threads 1 each, as a job
# All on the same two cores, so this measures the overhead of going through
# Redis, not a speed-up.  Printed per way: wall time (the job's record:
# created to finished), items per second, the time lost against the
# synchronous count (in total and per item), and what went through Redis
# per subproblem (bytes in + out, commands), and CPU time: the servers' and
# Redis' own (from /proc and INFO), the steadier measure of what the
# coordination costs on a machine shared with other work.
#
# Needs redis-server, curl and python3; starts everything on free loopback
# ports in a temporary directory and stops what it started.
set -eu
cd "$(dirname "$0")/.."
N=${1:-18}
ROUNDS=${2:-3}
BIN=${PUZZLED_BIN:-./build/puzzled}
py=python3
work=$(mktemp -d /tmp/puzzled-bench-cluster.XXXXXX)
# every process started here leaves its pid in $work/*.pid (servers start
# inside $(...), whose variables do not come back)
cleanup() {
    for f in "$work"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
    sleep 0.2
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

free_port() { $py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
json() { $py -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

rport=$(free_port)
redis-server --port "$rport" --bind 127.0.0.1 --dir "$work" --save "" --appendonly no \
    --logfile "$work/redis.log" --daemonize no >/dev/null 2>&1 &
echo "$!" >"$work/redis.pid"
for _ in $(seq 100); do redis-cli -p "$rport" ping >/dev/null 2>&1 && break; sleep 0.05; done
rinfo() { redis-cli -p "$rport" info "$1" | tr -d '\r' | sed -n "s/^$2://p"; }

# start_server NAME ARGS... -> prints its port
start_server() {
    name=$1
    shift
    port=$(free_port)
    "$BIN" --port "$port" "$@" >/dev/null 2>"$work/$name.log" &
    echo "$!" >"$work/$name.pid"
    for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
    echo "$port"
}
# cpu_ticks NAME: user + system clock ticks of the server so far
cpu_ticks() {
    awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$(cat "$work/$1.pid")/stat"
}
stop_server() {
    p=$(cat "$work/$1.pid")
    kill "$p" 2>/dev/null || true
    while kill -0 "$p" 2>/dev/null; do sleep 0.05; done
    rm -f "$work/$1.pid"
}

run_sync() {
    port=$(start_server sync --threads 2 --timeout-ms 600000)
    c0=$(cpu_ticks sync)
    t0=$($py -c 'import time; print(time.time())')
    curl -fs "http://127.0.0.1:$port/v1/nqueens/count?n=$N" >"$work/sync.json"
    t1=$($py -c 'import time; print(time.time())')
    c1=$(cpu_ticks sync)
    stop_server sync
    count=$(json 'd["count"]' <"$work/sync.json")
    items=$(json 'd["stats"]["subproblems"]' <"$work/sync.json")
    $py -c "print('%.3f %s %s %d' % ($t1 - $t0, $items, $count, $c1 - $c0))"
}

# run_cluster WAY NREPLICAS THREADS
run_cluster() {
    way=$1 nrep=$2 thr=$3
    prefix="bench-$way-$$-$(date +%s%N):"
    ports=""
    for i in $(seq "$nrep"); do
        ports="$ports $(start_server "$way$i" --threads "$thr" --redis "redis://127.0.0.1:$rport/0" \
            --redis-prefix "$prefix")"
    done
    first=$(echo $ports | cut -d' ' -f1)
    c0=0
    for i in $(seq "$nrep"); do c0=$((c0 + $(cpu_ticks "$way$i"))); done
    in0=$(rinfo stats total_net_input_bytes) out0=$(rinfo stats total_net_output_bytes)
    cmd0=$(rinfo stats total_commands_processed)
    cpu0=$(redis-cli -p "$rport" info cpu | tr -d '\r' | awk -F: '/used_cpu_(sys|user):/ {s += $2} END {print s}')
    id=$(curl -fs -H 'Prefer: respond-async' "http://127.0.0.1:$first/v1/nqueens/count?n=$N" | json 'd["id"]')
    curl -fsN "http://127.0.0.1:$first/v1/jobs/$id/events" >/dev/null
    curl -fs "http://127.0.0.1:$first/v1/jobs/$id" >"$work/$way.json"
    in1=$(rinfo stats total_net_input_bytes) out1=$(rinfo stats total_net_output_bytes)
    cmd1=$(rinfo stats total_commands_processed)
    cpu1=$(redis-cli -p "$rport" info cpu | tr -d '\r' | awk -F: '/used_cpu_(sys|user):/ {s += $2} END {print s}')
    c1=0
    for i in $(seq "$nrep"); do c1=$((c1 + $(cpu_ticks "$way$i"))); done
    for i in $(seq "$nrep"); do stop_server "$way$i"; done
    $py - "$work/$way.json" "$((in1 - in0 + out1 - out0))" "$((cmd1 - cmd0))" "$cpu0" "$cpu1" "$((c1 - c0))" <<'EOF'
import json, sys
from datetime import datetime
d = json.load(open(sys.argv[1]))
t = lambda s: datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()
wall = t(d["finished"]) - t(d["created"])
by = d["cluster"]["items_by_replica"]
print("%.3f %d %d %s %s %.3f %d %s %s %s" % (wall, d["result"]["stats"]["subproblems"], d["result"]["count"],
      sys.argv[2], sys.argv[3], float(sys.argv[5]) - float(sys.argv[4]), len([v for v in by.values() if v]),
      d["status"], sys.argv[6], d["cluster"]["items"]))
EOF
}

echo "bench_cluster: n=$N, $ROUNDS interleaved rounds, $(nproc) cores, redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/')"
: >"$work/results"
for r in $(seq "$ROUNDS"); do
    echo "sync $(run_sync)" >>"$work/results"
    echo "1x2 $(run_cluster 1x2 1 2)" >>"$work/results"
    echo "3x1 $(run_cluster 3x1 3 1)" >>"$work/results"
    echo "round $r: $(tail -n 3 "$work/results" | awk '{printf "%s %.1f s  ", $1, $2}')"
done
$py - "$work/results" "$(getconf CLK_TCK)" <<'EOF'
import sys
hz = float(sys.argv[2])
rows = [l.split() for l in open(sys.argv[1])]
best = {}
for r in rows:  # best of the rounds by wall time; CPU time is the steadier measure
    if r[0] not in best or float(r[1]) < float(best[r[0]][1]):
        best[r[0]] = r
cpu = {}
for r in rows:  # least CPU time of the rounds, per way (replicas + Redis)
    c = float(r[4]) / hz if r[0] == "sync" else float(r[9]) / hz + float(r[6])
    cpu[r[0]] = min(cpu.get(r[0], c), c)
s = best["sync"]
ts, items, count = float(s[1]), int(s[2]), int(s[3])
nitems = int(best["1x2"][10])
print("%-5s %8s %9s %8s %9s %12s %11s %10s %9s" % ("way", "wall s", "items/s", "cpu s", "cpu lost",
      "lost/item", "bytes/item", "cmds/item", "redis cpu"))
print("%-5s %8.2f %9.1f %8.2f %9s %12s %11s %10s %9s" % ("sync", ts, nitems / ts, cpu["sync"], "-", "-", "-", "-", "-"))
for way in ("1x2", "3x1"):
    w = best[way]
    t, n, c, b, cmds, rcpu = float(w[1]), int(w[2]), int(w[3]), int(w[4]), int(w[5]), float(w[6])
    ok = "" if c == count and w[8] == "done" else "  WRONG"
    lost = cpu[way] - cpu["sync"]
    print("%-5s %8.2f %9.1f %8.2f %8.2fs %10.3fms %11.0f %10.1f %8.2fs%s" % (way, t, nitems / t, cpu[way], lost,
          lost * 1000 / nitems, b / nitems, cmds / nitems, rcpu, ok))
print("(%d items of %d subproblems, count %d; cpu: the servers' and Redis' CPU time, least of the"
      " rounds; replicas that merged items in 3x1: %s)" % (nitems, items, count, best["3x1"][7]))
EOF
