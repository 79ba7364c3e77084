#!/usr/bin/env bash
# test_compose.sh -- `make test-compose`: deploy/compose.yaml brought up for
# real, with `docker compose` when a Docker engine answers, otherwise
# podman-compose (Debian's podman-compose, with the dnsname CNI plugin so
# that nginx finds the replicas by name; `make deps-container`).
#
# Checks: the project builds and starts (nginx + three replicas, under a
# project name of its own and a free host port); through nginx a count
# answers right and six requests reach all three replicas (nginx's log
# names the upstream of each); the web root answers; `stop` ends every
# replica with exit status 0 (SIGTERM, graceful).  Then the project is
# removed (containers and network; the images stay as a cache).
set -euo pipefail
cd "$(dirname "$0")/../.."
py=/usr/bin/python3
[ -x $py ] || py=python3
fail=0
say() { echo "test-compose: $*"; }
bad() { echo "test-compose: FAIL: $*" >&2; fail=1; }
project=ctest$$
work=$(mktemp -d /tmp/puzzled-compose.XXXXXX)

if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
    compose=(docker compose -p "$project" -f deploy/compose.yaml)
    engine=(docker)
elif command -v podman-compose >/dev/null 2>&1; then
    if [ -z "${CONTAINERS_CONF:-}" ]; then
        # As in test_container.sh, and runc as the runtime: podman-compose
        # calls podman without flags of ours.
        printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n' \
            >"$work/containers.conf"
        export CONTAINERS_CONF=$work/containers.conf
    fi
    compose=(podman-compose -p "$project" -f deploy/compose.yaml)
    engine=(podman)
else
    say "neither docker compose nor podman-compose (make deps-container)" >&2
    exit 1
fi
cleanup() {
    "${compose[@]}" down >/dev/null 2>&1 || true
    "${engine[@]}" network rm "${project}_default" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# The Dockerfiles start FROM debian:bookworm-slim: make sure it is there.
tests/container/base_image.sh "${engine[@]}"
port=$($py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export NGINX_PUBLISHED_PORT=$port
base=http://127.0.0.1:$port
start=$(date +%s)
if ! "${compose[@]}" up -d --build >"$work/up.log" 2>&1; then
    tail -n 30 "$work/up.log" >&2
    bad "compose up failed"
    exit 1
fi
# podman-compose 1.0.3 reports a failed container start but exits 0: the
# answers below are what count.
for _ in $(seq 150); do
    curl -fs "$base/healthz" >/dev/null 2>&1 && break
    sleep 0.2
done
say "up in $(($(date +%s) - start)) s (${compose[0]}), nginx on :$port"
got=$(curl -fs "$base/v1/nqueens/count?n=10" | $py -c 'import json,sys; print(json.load(sys.stdin).get("count"))' || true)
[ "$got" = 724 ] || { grep -iE 'error|exit code: [1-9]' "$work/up.log" | tail -n 10 >&2; bad "count n=10 through nginx: $got"; }
for _ in 1 2 3 4 5 6; do curl -fs -o /dev/null "$base/v1/nqueens/count?n=6" || bad "a request through nginx failed"; done
sleep 0.5
nginx_c=$("${engine[@]}" ps --format '{{.Names}}' | grep "$project" | grep nginx | head -n1)
ups=$("${engine[@]}" logs "$nginx_c" 2>/dev/null | grep '"uri":"/v1/nqueens/count?n=6"' |
      $py -c 'import json,sys; print(len({json.loads(l)["upstream"] for l in sys.stdin}))')
[ "$ups" = 3 ] || bad "six requests reached $ups replicas, not 3"
[ "$fail" = 1 ] || say "through nginx: count n=10 = 724; six requests over $ups replicas"
# cluster mode: a job through nginx, its record in the shared store
job=$(curl -fs -H 'Prefer: respond-async' "$base/v1/nqueens/count?n=12" |
      $py -c 'import json,sys; print(json.load(sys.stdin)["id"])' || true)
got=""
for _ in $(seq 300); do
    got=$(curl -fs "$base/v1/jobs/$job" | $py -c 'import json,sys; d=json.load(sys.stdin); print(d["status"], d.get("result", {}).get("count"), "cluster" in d)' || true)
    case "$got" in done*|failed*|cancelled*|timeout*) break ;; esac
    sleep 0.2
done
[ "$got" = "done 14200 True" ] || bad "async count n=12 through nginx (cluster mode): $got"
code=$(curl -s -o /dev/null -w '%{http_code}' "$base/")
[ "$code" = 200 ] || bad "GET / through nginx: $code"

"${compose[@]}" stop >"$work/stop.log" 2>&1 || bad "compose stop failed"
for c in $("${engine[@]}" ps -a --format '{{.Names}}' | grep "$project" | grep puzzled); do
    rc=$("${engine[@]}" inspect --format '{{.State.ExitCode}}' "$c")
    [ "$rc" = 0 ] || bad "$c exited $rc on stop"
done
[ "$fail" = 0 ] || exit 1
say "ok (replicas stopped with exit status 0)"
