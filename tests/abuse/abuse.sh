#!/usr/bin/env bash
# abuse.sh -- the attacks of the shared-service issue, all at once, for
# ABUSE_SECONDS (default 60), against one server with its default budgets
# and --threads 2.  What must hold:
#
#   - the server's peak RSS stays under RSS_BUDGET_MB (default 512: what the
#     README promises for the default budgets), sampled every 50 ms;
#   - the work budget's use never passes its limit (its peak, /metrics);
#   - no answer is a 5xx other than 503 (the budgets' and the queue's
#     refusals), and the server still answers a count afterwards;
#   - once the load is gone and the jobs are cancelled, the idle RSS comes
#     back within 10% of what it was before (plus 4 MB: a heap is never
#     exactly the same twice).
#
# The mix: 3 async counts of n=27 (hours each) for the whole run; 4 loops
# of POST /v1/nqueens/count {"n":27,"timeout_ms":2000} (the 26-byte body
# that once built 4.5 million subproblems); async 10^7-queen boards (a
# result past --max-job-result) and synchronous ones (output=summary);
# loops of 25x25 Sudokus by best-first (64 MiB arenas); 12 MB batch bodies;
# reads of a 1 MB kept job result; and wrk on a small GET with 64
# connections.  Needs curl and wrk (make test-abuse installs wrk).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${PUZZLED_BIN:-./build/puzzled}
secs=${ABUSE_SECONDS:-60}
budget_mb=${RSS_BUDGET_MB:-512}
work=$(mktemp -d)
logs=${PUZZLED_TEST_LOGS:-$work}
pids=()
fail=0
say() { echo "test-abuse: $*"; }
bad() { echo "test-abuse: FAIL: $*" >&2; fail=1; }
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -n "${srv:-}" ] && kill -TERM "$srv" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" --port 0 --threads 2 >"$logs/abuse-server.log" 2>&1 &
srv=$!
for _ in $(seq 100); do
    port=$(grep -o '"msg":"listening"[^}]*"port":[0-9]*' "$logs/abuse-server.log" 2>/dev/null | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { cat "$logs/abuse-server.log" >&2; bad "the server did not start"; exit 1; }
base=http://127.0.0.1:$port
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$srv/status"; }
metric() { curl -fs "$base/metrics" | awk -v s="$1" '$1 == s {print $2}'; }

# Warm up every path once, so that threads, arenas and pools exist, then
# let the server settle: that is the idle size to come back to.
g25=$(printf '.%.0s' $(seq 625))
curl -fs "$base/v1/nqueens/count?n=12" >/dev/null
curl -fs -H 'Content-Type: application/json' "$base/v1/sudoku/solve" -d "{\"grid\":\"$g25\"}" >/dev/null
curl -fs "$base/v1/nqueens/solve?n=100000&method=minconflicts&output=summary" >/dev/null
sleep 3
idle0=$(rss_kb)
say "idle RSS before: $((idle0 / 1024)) MB"

# The peak, sampled.
( peak=0; while kill -0 "$srv" 2>/dev/null; do
      r=$(awk '/^VmRSS/ {print $2}' "/proc/$srv/status" 2>/dev/null || echo 0)
      [ "${r:-0}" -gt "$peak" ] && peak=$r && echo "$peak" >"$work/peak"
      sleep 0.05
  done ) &
pids+=($!)

codes="$work/codes"
: >"$codes"
loop() { # loop NAME curl-args...: repeats a request until the end, keeping its status
    local name=$1; shift
    while [ "$(date +%s)" -lt "$end" ]; do
        c=$(curl -s -o /dev/null -m 120 -w '%{http_code}' "$@" || echo 000)
        echo "$name $c" >>"$codes"
    done
}

ids=()
# a 1 MB result to read back many times at once
big=$(curl -fs -H 'Prefer: respond-async' "$base/v1/nqueens/solutions?n=14&limit=1000&offset=0" | grep -o '"id":"[^"]*"' | cut -d'"' -f4)
ids+=("$big")
for _ in $(seq 600); do
    curl -fs "$base/v1/jobs/$big" | grep -q '"status":"done"' && break
    sleep 0.1
done
for _ in 1 2 3; do
    id=$(curl -fs -H 'Prefer: respond-async' "$base/v1/nqueens/count?n=27" | grep -o '"id":"[^"]*"' | cut -d'"' -f4)
    ids+=("$id")
done
for i in $(seq 0 49); do printf '%s\n' '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'; done >"$work/line50"
for i in $(seq 3000); do cat "$work/line50"; done >"$work/batch.txt" # 150,000 lines, 12 MB

end=$(($(date +%s) + secs))
for _ in 1 2 3 4; do
    loop post27 -H 'Content-Type: application/json' -d '{"n":27,"timeout_ms":2000}' "$base/v1/nqueens/count" &
    pids+=($!)
done
( while [ "$(date +%s)" -lt "$end" ]; do # jobs made in a loop, as an attacker would
      out=$(curl -s -m 120 -w ' %{http_code}' -H 'Prefer: respond-async' \
                "$base/v1/nqueens/solve?n=10000000&method=minconflicts" || echo ' 000')
      echo "asyncboard ${out##* }" >>"$codes"
      echo "$out" | grep -o '"id":"[^"]*"' | cut -d'"' -f4 >>"$work/ids" || true
      sleep 0.2
  done ) &
pids+=($!)
loop board "$base/v1/nqueens/solve?n=10000000&method=minconflicts&output=summary" &
pids+=($!)
for _ in 1 2 3; do
    loop bestfirst -H 'Content-Type: application/json' -d "{\"grid\":\"$g25\",\"method\":\"best-first\",\"max_solutions\":100}" "$base/v1/sudoku/solve" &
    pids+=($!)
done
for _ in 1 2; do
    loop batch -H 'Content-Type: text/plain' --data-binary "@$work/batch.txt" "$base/v1/sudoku/batch?timeout_ms=2000" &
    pids+=($!)
done
for _ in 1 2 3 4; do
    loop result "$base/v1/jobs/$big/result" &
    pids+=($!)
done
wrk -t2 -c64 -d"${secs}s" "$base/v1/nqueens/count?n=8" >"$work/wrk.txt" 2>&1 || bad "wrk failed"
sleep 1
for p in "${pids[@]:1}"; do wait "$p" 2>/dev/null || true; done

# The end: cancel the jobs (a DELETE cancels a live job, a second one
# deletes its record), wait for the pool to empty and the heap to be trimmed.
for id in "${ids[@]}" $(cat "$work/ids" 2>/dev/null); do curl -s -o /dev/null -X DELETE "$base/v1/jobs/$id"; done
for _ in $(seq 300); do
    [ "$(metric puzzled_jobs_inflight)" = 0 ] && [ "$(metric puzzled_http_requests_active)" -le 1 ] && break
    sleep 0.1
done
for id in "${ids[@]}" $(cat "$work/ids" 2>/dev/null); do curl -s -o /dev/null -X DELETE "$base/v1/jobs/$id"; done
sleep 3
idle1=$(rss_kb)
peak=$(cat "$work/peak" 2>/dev/null || echo 0)
wpeak=$(metric 'puzzled_memory_peak_bytes{budget="work"}')
wlimit=$(metric 'puzzled_memory_budget_bytes{budget="work"}')
wused=$(metric 'puzzled_memory_used_bytes{budget="work"}')
refused=$(metric 'puzzled_memory_refused_total{budget="work"}')
say "$(grep -c . "$codes") scripted requests: $(cut -d' ' -f2 "$codes" | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
say "wrk: $(grep -E 'Requests/sec|Non-2xx' "$work/wrk.txt" | tr -s ' ' | tr '\n' ' ')"
say "peak RSS $((peak / 1024)) MB (budget ${budget_mb} MB); work budget peak $((wpeak / 1048576)) of $((wlimit / 1048576)) MiB, $refused charges refused; idle RSS after: $((idle1 / 1024)) MB (before: $((idle0 / 1024)) MB)"

[ "$peak" -gt 0 ] && [ "$peak" -le $((budget_mb * 1024)) ] || bad "peak RSS $((peak / 1024)) MB is over ${budget_mb} MB"
[ "$wpeak" -le "$wlimit" ] || bad "the work budget's use passed its limit"
[ "$wused" = 0 ] || bad "$wused bytes of the work budget are still charged at rest"
if [ "$idle1" -gt $((idle0 + idle0 / 10 + 4096)) ]; then
    bad "idle RSS did not come back: $((idle1 / 1024)) MB against $((idle0 / 1024)) MB"
    echo "test-abuse: the largest resident mappings now:" >&2
    awk '/^[0-9a-f]+-/ {m = $0} /^Rss:/ {print $2, m}' "/proc/$srv/smaps" | sort -rn | head -8 >&2
fi
if grep -Ev ' (200|202|400|413|422|503|000)$' "$codes" >"$work/odd"; then
    bad "unexpected answers: $(sort "$work/odd" | uniq -c | head -5 | tr '\n' ';')"
fi
grep -q 'Non-2xx' "$work/wrk.txt" && bad "wrk saw non-2xx answers"
[ "$(curl -fs "$base/v1/nqueens/count?n=9" | grep -o '"count":[0-9]*')" = '"count":352' ] || bad "the server does not answer a count afterwards"
kill -TERM "$srv"
wait "$srv" && rc=0 || rc=$?
srv=
[ "$rc" = 0 ] || bad "exit status $rc after SIGTERM"
[ "$fail" = 0 ] && say "passed"
exit "$fail"
