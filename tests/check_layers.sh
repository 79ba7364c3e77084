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

for f in $(find solvers -name "*.[ch]"); do
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

# Writable data: objects in .data, .bss (and their thread-local and common
# forms).  .data.rel.ro holds const tables of pointers, which a PIE build
# relocates once at load and then maps read-only: those are fine.
for o in $(find "$build"/solvers -name "*.o" 2>/dev/null) "$build"/api/*.o; do
    [ -f "$o" ] || continue
    bad=$(objdump -t "$o" | awk '{
        for (i = 1; i < NF; i++) if ($i == "O" || $i == "*COM*") break;
        if (i >= NF) next;
        sec = ($i == "*COM*") ? "*COM*" : $(i + 1); name = $NF;
        if (name ~ /^(__asan|__odr_asan|__ubsan|__tsan|__sancov|\.L)/) next; # the sanitizers own bookkeeping
        if (sec == "*COM*" || (sec ~ /^\.(data|bss|tdata|tbss)(\.|$)/ && sec !~ /^\.data\.rel\.ro/))
            print name
    }' | tr '\n' ' ')
    if [ -n "$bad" ]; then
        say "$o has mutable globals: $bad"
    fi
done

# Solvers may call only these library functions (no I/O, no threads, no env).
allowed=' memset memcpy memmove memcmp bcmp memchr strlen strcmp strncmp strchr malloc calloc realloc free clock_gettime abort __assert_fail __stack_chk_fail qsort '
for o in $(find "$build"/solvers -name "*.o" 2>/dev/null); do
    [ -f "$o" ] || continue
    for sym in $(nm -u "$o" | awk '{print $2}'); do
        case "$sym" in
            __asan_*|__ubsan_*|__tsan_*|__sanitizer_*|_GLOBAL_OFFSET_TABLE_) continue ;;
            __popcount?i2|__ctz?i2|__clz?i2|__parity?i2) continue ;; # libgcc bit helpers: pure
        esac
        # calls between our own solver objects are fine
        if nm $(find "$build"/solvers -name "*.o") 2>/dev/null | grep -qE " T $sym\$"; then continue; fi
        case "$allowed" in
            *" $sym "*) ;;
            *) say "$o calls $sym, which solvers/ may not use" ;;
        esac
    done
done

[ "$fail" -eq 0 ] && echo "check_layers: solvers/ and api/ are clean"
exit "$fail"
