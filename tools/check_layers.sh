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

# The solver layer's objects: solvers/, and the table of its result codes
# the Makefile generates (build/gen/search_codes.o); the api layer's:
# api/, and its generated list of endpoints.
solver_objs=$(find "$build"/solvers "$build"/gen/search_codes.o -name "*.o" 2>/dev/null)
api_objs=$(ls "$build"/api/*.o "$build"/gen/api_endpoints.o 2>/dev/null)

# Writable data: objects in .data, .bss (and their thread-local and common
# forms).  .data.rel.ro holds const tables of pointers, which a PIE build
# relocates once at load and then maps read-only: those are fine.  The
# sanitizers' own symbols are not ours: ASan's __odr_asan.<name> is the
# byte its runtime marks when it registers a global we export (a const
# table too), to catch the same name defined twice.
for o in $solver_objs $api_objs; do
    [ -f "$o" ] || continue
    bad=$(objdump -t "$o" | awk '{
        for (i = 1; i < NF; i++) if ($i == "O" || $i == "*COM*") break;
        if (i >= NF) next;
        sec = ($i == "*COM*") ? "*COM*" : $(i + 1); name = $NF;
        if (name ~ /^(__asan|__odr_asan|__ubsan|__tsan|__sancov|\.L)/) next;
        if (sec == "*COM*" || (sec ~ /^\.(data|bss|tdata|tbss)(\.|$)/ && sec !~ /^\.data\.rel\.ro/))
            print name
    }' | tr '\n' ' ')
    if [ -n "$bad" ]; then
        say "$o has mutable globals: $bad"
    fi
done

# Solvers may call only these library functions (no I/O, no threads, no env).
allowed=' memset memcpy memmove memcmp bcmp memchr strlen strcmp strncmp strchr malloc calloc realloc free clock_gettime abort __assert_fail __stack_chk_fail qsort '
for o in $solver_objs; do
    [ -f "$o" ] || continue
    for sym in $(nm -u "$o" | awk '{print $2}'); do
        case "$sym" in
            __asan_*|__ubsan_*|__tsan_*|__sanitizer_*|_GLOBAL_OFFSET_TABLE_) continue ;;
            __popcount?i2|__ctz?i2|__clz?i2|__parity?i2) continue ;; # libgcc bit helpers: pure
        esac
        # calls between our own solver objects are fine
        if nm $solver_objs 2>/dev/null | grep -qE " [TDR] $sym\$"; then continue; fi
        case "$allowed" in
            *" $sym "*) ;;
            *) say "$o calls $sym, which solvers/ may not use" ;;
        esac
    done
done

[ "$fail" -eq 0 ] && echo "check_layers: solvers/ and api/ are clean"
exit "$fail"
