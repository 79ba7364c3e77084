#!/usr/bin/env bash
# test_container.sh -- `make test-container`: build the image from the
# Dockerfile, run it, and check what a user of the image relies on.
#
# Engine: docker when a Docker engine answers (`docker info`), otherwise
# podman (Debian's podman + runc; `make deps-container`).  For podman the
# recipe that works in these unprivileged CI machines: a containers.conf
# with no default ulimits and the cgroupfs manager (CONTAINERS_CONF, unless
# you set your own), the runc runtime, host networking.  The image is built
# with --format docker so that HEALTHCHECK is kept, and --pull=never: the
# base image comes from base_image.sh (debootstrap when no registry answers).
#
# Checks, each one failing the run:
#   - the image builds from what a clean clone holds (the files git tracks);
#   - the container's process runs as a non-root uid;
#   - /healthz, /readyz, a Sudoku solve (solution checked against the givens
#     and the rules) and N-Queens counts answer correctly, one of them asked
#     from inside the container (bash's /dev/tcp: the image has no curl);
#   - the web page is served at / (byte for byte web/index.html);
#   - the image's HEALTHCHECK passes;
#   - SIGTERM with a request in flight: the request gets its full answer and
#     the container exits 0 within the grace period.
# Prints the build time and the image size.
set -euo pipefail
cd "$(dirname "$0")/../.."
tag=${PUZZLED_IMAGE:-localhost/puzzled:test}
grace_ms=8000
fail=0
say() { echo "test-container: $*"; }
bad() { echo "test-container: FAIL: $*" >&2; fail=1; }
py=/usr/bin/python3
[ -x $py ] || py=python3

work=$(mktemp -d /tmp/puzzled-container.XXXXXX)
name=puzzled-test-$$
engine=()
cleanup() {
    if [ ${#engine[@]} -gt 0 ]; then "${engine[@]}" rm -f "$name" >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# ---- the engine ------------------------------------------------------------
if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    engine=(docker)
    build_flags=()
elif command -v podman >/dev/null 2>&1; then
    if [ -z "${CONTAINERS_CONF:-}" ]; then
        cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
EOF
        export CONTAINERS_CONF=$work/containers.conf
    fi
    engine=(podman)
    command -v runc >/dev/null 2>&1 && engine+=(--runtime runc)
    build_flags=(--pull=never --format docker)
else
    say "no container engine: neither a running Docker engine nor podman (make deps-container)" >&2
    exit 1
fi
say "engine: ${engine[*]}"

# ---- the image -------------------------------------------------------------
tests/container/base_image.sh "${engine[@]}"
mkdir -p "$work/ctx"
git ls-files -z | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -C "$work/ctx" -xf -
start=$(date +%s%N)
if ! "${engine[@]}" build "${build_flags[@]}" --network host -t "$tag" "$work/ctx" >"$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log" >&2
    bad "the image does not build from the tracked files"
    exit 1
fi
build_s=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { print (b - a) / 1e9 }')
size=$("${engine[@]}" image inspect --format '{{.Size}}' "$tag")
say "image $tag built in $(printf '%.1f' "$build_s") s; size $((size / 1000000)) MB ($size bytes)"
hc=$("${engine[@]}" image inspect --format '{{json .Config.Healthcheck}}' "$tag" 2>/dev/null || true)
case "$hc" in *--healthcheck*) ;; *) bad "the image has no HEALTHCHECK (built without --format docker?): $hc" ;; esac

# ---- run it ----------------------------------------------------------------
port=$($py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
"${engine[@]}" run -d --name "$name" --network host \
    -e PUZZLED_PORT="$port" -e PUZZLED_GRACE_MS=$grace_ms "$tag" >/dev/null 2>"$work/run.err" ||
    { cat "$work/run.err" >&2; bad "the container does not start"; exit 1; }
for _ in $(seq 100); do
    curl -fs "$base/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fs "$base/healthz" | grep -q '"ok"' || { "${engine[@]}" logs "$name" >&2; bad "/healthz does not answer ok"; exit 1; }
curl -fs "$base/readyz" >/dev/null || bad "/readyz is not 200"

# Non-root: the server process itself (pid 1 in the container), every uid.
uids=$("${engine[@]}" exec "$name" sh -c 'grep ^Uid: /proc/1/status' 2>/dev/null | cut -f2-)
say "container process uids (real effective saved fs): $uids"
for u in $uids; do [ "$u" != 0 ] || bad "the container process runs as root ($uids)"; done
[ -n "$uids" ] || bad "cannot read the container process's uid"

# N-Queens counts from the host, and one from inside the container.
for nc in 1:1 6:4 8:92 10:724 12:14200; do
    n=${nc%%:*} want=${nc#*:}
    got=$(curl -fs "$base/v1/nqueens/count?n=$n" | $py -c 'import json,sys; d=json.load(sys.stdin); print(d["count"] if d["status"]=="complete" else d["status"])')
    [ "$got" = "$want" ] || bad "count n=$n: want $want, got $got"
done
inside=$("${engine[@]}" exec "$name" bash -c "exec 3<>/dev/tcp/127.0.0.1/$port &&
    printf 'GET /v1/nqueens/count?n=9 HTTP/1.0\r\nHost: x\r\n\r\n' >&3 && cat <&3" 2>&1 || true)
case "$inside" in
    *'HTTP/1.'?' 200'*'"count":352'*) say "from inside the container: count n=9 = 352" ;;
    *) bad "count n=9 from inside the container: $inside" ;;
esac

# A Sudoku solve: the solution keeps every given and obeys the rules.
puzzle='8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..'
curl -fs -H 'Content-Type: application/json' -d "{\"grid\":\"$puzzle\",\"max_solutions\":2}" \
    "$base/v1/sudoku/solve" >"$work/sudoku.json" || bad "sudoku solve failed"
$py - "$puzzle" "$work/sudoku.json" <<'EOF' || bad "the Sudoku answer is wrong"
import json, sys
p, d = sys.argv[1], json.load(open(sys.argv[2]))
s = d.get("solution", "")
assert d["status"] == "solved" and d["unique"] is True, d
assert len(s) == 81 and all(c in "123456789" for c in s), s
assert all(a == "." or a == b for a, b in zip(p, s)), "a given was changed"
units = [[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)] \
      + [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
assert all(sorted(s[i] for i in u) == list("123456789") for u in units), "a unit repeats a digit"
print("test-container: sudoku solved, unique, givens kept, every unit 1-9")
EOF

# The web page (the front end, issue 25).
curl -fs -D "$work/web.h" -o "$work/web.html" "$base/" || bad "GET / failed"
grep -qi '^content-type: text/html' "$work/web.h" || bad "GET / is not text/html: $(grep -i content-type "$work/web.h")"
cmp -s "$work/web.html" web/index.html || bad "GET / is not web/index.html"
if [ "$fail" != 1 ]; then
    say "the web page is served at /"
fi

# The image's own health check.
if [ "${engine[0]}" = podman ]; then
    "${engine[@]}" healthcheck run "$name" 2>"$work/hc.err" || { cat "$work/hc.err" >&2; bad "podman healthcheck run failed"; }
    status=$("${engine[@]}" inspect --format '{{.State.Health.Status}}' "$name" 2>/dev/null || true)
    # podman 4.3 has no State.Health alias on every version: fall back to Healthcheck.
    [ -n "$status" ] || status=$("${engine[@]}" inspect --format '{{.State.Healthcheck.Status}}' "$name" 2>/dev/null || true)
else
    for _ in $(seq 40); do
        status=$(docker inspect --format '{{.State.Health.Status}}' "$name")
        [ "$status" = starting ] || break
        sleep 0.5
    done
fi
[ "$status" = healthy ] && say "health check: healthy" || bad "health check status: $status"

# SIGTERM with a request in flight, long by construction: a page of 30-queens
# solutions a trillion solutions in, which no machine reaches before the
# request's deadline (3 s), so it is certainly running when the signal goes
# (as soon as /metrics shows it) and ends at its deadline, within the grace
# period.  Its answer must be whole (status timeout, its statistics), it
# must have run past the signal (elapsed_ms says so), and the container
# must exit 0 within the grace period.
t_req=$(date +%s%N)
curl -s -o "$work/inflight.json" \
    "$base/v1/nqueens/solutions?n=30&offset=1000000000000&limit=1&timeout_ms=3000" &
curl_pid=$!
for _ in $(seq 200); do
    curl -fs "$base/metrics" | grep -q '^puzzled_jobs_inflight [1-9]' && break
    sleep 0.01
done
t_sig=$(date +%s%N)
"${engine[@]}" kill --signal TERM "$name" >/dev/null
code=$("${engine[@]}" wait "$name" 2>/dev/null | tail -n1)
t_exit=$(date +%s%N)
wait $curl_pid || true
stop_ms=$(((t_exit - t_sig) / 1000000))
sig_after_ms=$(((t_sig - t_req) / 1000000))
[ "$code" = 0 ] || bad "exit status after SIGTERM: $code"
[ "$stop_ms" -le $((grace_ms + 1000)) ] || bad "stopped ${stop_ms} ms after SIGTERM; the grace period is ${grace_ms} ms"
$py - "$work/inflight.json" "$sig_after_ms" <<'EOF' || bad "the in-flight request did not get its full answer"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "timeout" and d["returned"] == 0 and d["stats"]["nodes"] > 0, d
assert d["stats"]["elapsed_ms"] >= 2900, "it did not run to its deadline: %s ms" % d["stats"]["elapsed_ms"]
assert d["stats"]["elapsed_ms"] > int(sys.argv[2]), "the request had ended before SIGTERM: %s ms" % d["stats"]["elapsed_ms"]
print("test-container: in-flight request answered %s after %.0f ms (SIGTERM came at %s ms)"
      % (d["status"], d["stats"]["elapsed_ms"], sys.argv[2]))
EOF
say "SIGTERM: exit status $code after $stop_ms ms (grace $grace_ms ms)"
"${engine[@]}" logs "$name" >"$work/container.log" 2>&1 || true
grep -q '"listening"' "$work/container.log" || bad "no 'listening' line in the container's log"

if [ "$fail" != 0 ]; then
    echo "--- container log" >&2
    tail -n 30 "$work/container.log" >&2
    exit 1
fi
# Each build that changed leaves its build stage behind as a dangling image
# (the layer cache of the next build): drop those older than a day.
"${engine[@]}" image prune -f --filter until=24h >/dev/null 2>&1 || true
say "ok (build $(printf '%.1f' "$build_s") s, image $((size / 1000000)) MB)"
