#!/bin/sh
# check_nomem_cover.sh -- the allocation-failure walks (tests/test_nomem.c)
# reach every out-of-memory answer in api/: builds the test binary with
# gcov instrumentation (build/cov), runs the nomem suite, and fails naming
# each line that says API_ENOMEM, api_problem_nomem() or api_response_nomem()
# and never ran.  `make check-nomem-cover`; .ci/run runs it.
set -eu
build=build/cov
make -s BUILD=$build CFLAGS="-O0 -g --coverage" LDFLAGS="--coverage" $build/tests/run_tests
find $build -name '*.gcda' -delete
CK_RUN_SUITE=nomem CK_FORK=no ./$build/tests/run_tests >/dev/null 2>&1
fail=0 sites=0
for src in api/*.c; do
    [ "$src" = api/problem.c ] && continue # the table and the helpers themselves
    # gcov -t: "count: line: source" on stdout; "#####" = never executed
    g=$(gcov -t -o "$build/api" "$src" 2>/dev/null |
        awk -v f="$src" '/^ *-: *0:Source:/ {on = ($0 ~ f "$")} on')
    [ -n "$g" ] || { echo "check_nomem_cover: no coverage for $src" >&2; fail=1; continue; }
    lines=$(printf '%s\n' "$g" | grep -E 'API_ENOMEM|api_problem_nomem\(|api_response_nomem\(' |
        grep -v '^ *-:' || true)
    n=$(printf '%s\n' "$lines" | grep -c . || true)
    sites=$((sites + n))
    missed=$(printf '%s\n' "$lines" | grep '#####' || true)
    if [ -n "$missed" ]; then
        printf '%s\n' "$missed" | sed "s|^|check_nomem_cover: $src never reached: |" >&2
        fail=1
    fi
done
[ "$fail" -eq 0 ] && echo "check_nomem_cover: all $sites out-of-memory sites in api/ reached by the walks"
exit "$fail"
