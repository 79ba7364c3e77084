#!/bin/sh
# check_dockerfile.sh BINARY -- no container engine runs here, so keep the
# Dockerfile honest by reading it against what we can check:
#   - the build stage installs through `make deps` (one package list);
#   - every library the binary links directly (ELF NEEDED) comes from a
#     package the runtime stage installs (or libc6, which the base image has);
#   - the runtime stage runs as a non-root user, on 0.0.0.0:8080, with a
#     HEALTHCHECK through `puzzled --healthcheck`, and copies the binary that
#     `make` builds.
set -eu
bin=${1:-build/puzzled}
df=Dockerfile
fail=0
say() { echo "check_dockerfile: $*" >&2; fail=1; }

grep -q '^FROM debian:bookworm-slim AS build' $df || say "build stage is not debian:bookworm-slim"
grep -q 'make deps' $df || say "build stage does not install through make deps"
grep -q 'COPY --from=build /src/build/puzzled ' $df || say "runtime stage does not copy build/puzzled"
grep -q '^USER puzzled' $df || say "runtime stage does not switch to a non-root user"
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
