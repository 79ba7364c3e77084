#!/bin/sh
# generate.sh -- the generation comparison with qqwing (issue 24): builds
# bench_logic, installs qqwing when it is missing, and prints the table
# (qqwing and puzzled generating 9x9 puzzles of each qqwing level on one
# thread, interleaved, best of 3; then our ratings of qqwing's puzzles).
# Run from the repository root; `make bench-compare` calls it.
set -eu
BUILD=${BUILD:-build}
make --no-print-directory "$BUILD/bench/bench_logic" >/dev/null
if ! command -v qqwing >/dev/null 2>&1; then
    echo "installing qqwing (Debian package)"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq qqwing >/dev/null
fi
exec "./$BUILD/bench/bench_logic" -q "$@"
