#!/bin/sh
# check_layers.sh BUILD_DIR -- keeps the layering honest (run by `make test`).
#
#   solvers/  pure C: no HTTP, JSON or libuv headers; no stdio or other I/O
#             (checked on the objects' undefined symbols, so a call hidden
#             behind a macro is caught too); no mutable globals (no writable
#             data or bss symbols, static or not, in the objects).
#   api/      no HTTP or libuv headers; no mutable globals.
#   server/   may use everything.
set -eu
build=${1:-build}
fail=0
say() { echo "check_layers: $*" >&2; fail=1; }

for f in solvers/*.[ch]; do
    if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](microhttpd|jansson|uv|curl/curl|stdio|pthread)\.h[>"]' "$f"; then
        say "$f includes a header solvers/ must not use"
    fi
    if grep -nE '#[[:space:]]*include[[:space:]]*"(api|server)/' "$f"; then
        say "$f reaches up into api/ or server/"
    fi
done
for f in api/*.[ch]; do
    if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](microhttpd|uv|curl/curl)\.h[>"]' "$f"; then
        say "$f includes an HTTP or libuv header (api/ stays transport-free)"
    fi
    if grep -nE '#[[:space:]]*include[[:space:]]*"server/' "$f"; then
        say "$f reaches up into server/"
    fi
done

# Writable data: nm types B/b (bss), D/d (data), C (common), G/g/S/s (small data).
for o in "$build"/solvers/*.o "$build"/api/*.o; do
    [ -f "$o" ] || continue
    bad=$(nm "$o" | awk '$2 ~ /^[BbDdCGgSs]$/ && $3 !~ /^(__asan|__ubsan|__sancov|\.L)/ {print $3}')
    if [ -n "$bad" ]; then
        say "$o has mutable globals: $bad"
    fi
done

# Solvers may call only these library functions (no I/O, no threads, no env).
allowed=' memset memcpy memmove memcmp malloc calloc realloc free clock_gettime abort __assert_fail __stack_chk_fail qsort strlen '
for o in "$build"/solvers/*.o; do
    [ -f "$o" ] || continue
    for sym in $(nm -u "$o" | awk '{print $2}'); do
        case "$sym" in
            __asan_*|__ubsan_*|__sanitizer_*|_GLOBAL_OFFSET_TABLE_) continue ;;
        esac
        # calls between our own solver objects are fine
        if nm "$build"/solvers/*.o 2>/dev/null | grep -qE " T $sym\$"; then continue; fi
        case "$allowed" in
            *" $sym "*) ;;
            *) say "$o calls $sym, which solvers/ may not use" ;;
        esac
    done
done

[ "$fail" -eq 0 ] && echo "check_layers: solvers/ and api/ are clean"
exit "$fail"
