#!/bin/sh
# check_dockerfile.sh BINARY -- `make test` runs no container engine (that is
# `make test-container`, tests/container/), so keep the Dockerfile honest by
# reading it against what can be checked without one:
#   - the build stage installs through `make deps-build` (one package list,
#     the Makefile's DEB_BUILD_PKGS, with no test-only package in it);
#   - every library the binary links directly (ELF NEEDED) comes from a
#     package the runtime stage installs (or libc6, which the base image has);
#   - the runtime stage runs as a numeric non-root uid, on 0.0.0.0:8080, with a
#     HEALTHCHECK through `puzzled --healthcheck`, and copies the binary that
#     `make` builds.
set -eu
bin=${1:-build/puzzled}
df=Dockerfile
fail=0
say() { echo "check_dockerfile: $*" >&2; fail=1; }

grep -q '^FROM debian:bookworm-slim AS build' $df || say "build stage is not debian:bookworm-slim"
grep -q 'make deps-build' $df || say "build stage does not install through make deps-build"
build_pkgs=$(make -s -p -n -f Makefile 2>/dev/null | sed -n 's/^DEB_BUILD_PKGS := //p' | head -n1)
[ -n "$build_pkgs" ] || say "cannot read DEB_BUILD_PKGS from the Makefile"
for p in check libcurl4-openssl-dev clang-format; do
    case " $build_pkgs " in *" $p "*) say "DEB_BUILD_PKGS holds the test-only package $p" ;; esac
done
grep -q 'COPY --from=build /src/build/puzzled ' $df || say "runtime stage does not copy build/puzzled"
user=$(sed -n 's/^USER \([0-9][0-9]*\).*/\1/p' $df | tail -n1)
[ -n "$user" ] && [ "$user" -ne 0 ] || say "runtime stage does not switch to a numeric non-root uid"
grep -q 'PUZZLED_BIND=0.0.0.0' $df || say "runtime does not listen on 0.0.0.0"
grep -q 'PUZZLED_PORT=8080' $df || say "runtime does not listen on port 8080"
grep -q '^EXPOSE 8080' $df || say "port 8080 not exposed"
grep -q 'HEALTHCHECK.*' $df && grep -q '"--healthcheck"' $df || say "no HEALTHCHECK through --healthcheck"

runtime_pkgs=$(sed -n '/AS runtime/,$p' $df | grep -o 'install -y --no-install-recommends [a-z0-9. -]*' |
               sed 's/install -y --no-install-recommends //')
[ -n "$runtime_pkgs" ] || say "no runtime packages found"
for lib in $(objdump -p "$bin" | awk '/NEEDED/ {print $2}'); do
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64|x86_64|aarch64/ {print $NF; exit}')
    [ -n "$path" ] || path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
    pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || true)
    pkg=$(echo "$pkg" | head -n1 | cut -d: -f1)
    case "$pkg" in
        libc6|libgcc-s1) continue ;;
        '') say "cannot tell which package ships $lib" ; continue ;;
    esac
    case " $runtime_pkgs " in
        *" $pkg "*) ;;
        *) say "$bin needs $lib from $pkg, which the runtime stage does not install" ;;
    esac
done
[ "$fail" -eq 0 ] && echo "check_dockerfile: build and runtime stages match the binary"
exit "$fail"
