#!/bin/sh
# big.sh -- puzzled's cdcl method against CaDiCaL on the big shared Sudokus,
# in the same run, interleaved, best of 3 (bench/bench_big.c does the work).
#
#   bench/compare/big.sh [bench_big options]      (from the repository root)
#
# Default: the nine minimal 25x25 of A. Frisch (../shared/data/big), solution
# and uniqueness proof on both sides, puzzled on 2 threads (a portfolio),
# CaDiCaL (Debian package `cadical`) on its own direct CNF, solved, then solved
# again with the model excluded.  Then the 36x36 with several solutions
# (uniqueness disproved: a second solution found).  Prints per-puzzle times
# and the ratio (CaDiCaL time / puzzled time: above 1, puzzled is faster).
# Says what is missing instead of failing: no data, no cadical.
# Environment: DATA (default ../shared/data), REPS (3), THREADS (2),
# TIMEOUT (seconds per solve, 120).
set -eu
cd "$(dirname "$0")/../.."
DATA=${DATA:-../shared/data}
REPS=${REPS:-3}
THREADS=${THREADS:-2}
TIMEOUT=${TIMEOUT:-120}
BENCH=build/bench/bench_big

if [ ! -f "$DATA/big/big_sudoku.jsonl" ]; then
    echo "big.sh: $DATA/big/big_sudoku.jsonl is missing: no big Sudoku to compare (see ../shared/data/README.md)"
    exit 0
fi
make --no-print-directory -s "$BENCH"
cad=""
if command -v cadical >/dev/null 2>&1; then
    cad=cadical
else
    echo "big.sh: cadical is not installed (Debian package cadical; apt-get install cadical): puzzled alone"
fi
set -- -d "$DATA" -r "$REPS" -j "$THREADS" -T "$TIMEOUT" -q "$@"
[ -n "$cad" ] || set -- "$@" -C
echo "== 25x25 minimal (A. Frisch), solution + uniqueness"
./"$BENCH" "$@"
echo "== 36x36 with several solutions, solution + a second one"
./"$BENCH" "$@" -f gen-36x36-f50
