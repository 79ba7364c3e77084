#!/bin/sh
# check_bench_killer.sh BENCH -- the Killer benchmark's loader and tables on
# a file of its own: 70 copies of a 4x4 killer with the symbols 10..40 (so
# the sums are the symbols' and the loader keeps a symbol list per puzzle),
# each solved by both methods, checked by the bench against the rules, the
# cages and the file's solution.  70 > 64 makes the loader grow its array
# of puzzles at least once, and each puzzle's symbol pointer must stay
# valid across the move (it once pointed into the freed array).
set -eu
bench=$1
f=$(mktemp)
trap 'rm -f "$f"' EXIT
# solution 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1 (times 10); these two-cell
# cages leave it the only one (checked by enumerating all 288 4x4 grids)
cages='[{"sum":30,"cells":[[0,0],[0,1]]},{"sum":40,"cells":[[0,2],[1,2]]},{"sum":60,"cells":[[0,3],[1,3]]},{"sum":70,"cells":[[1,0],[1,1]]},{"sum":60,"cells":[[2,0],[3,0]]},{"sum":40,"cells":[[2,1],[3,1]]},{"sum":70,"cells":[[2,2],[2,3]]},{"sum":30,"cells":[[3,2],[3,3]]}]'
sol='[[10,20,30,40],[30,40,10,20],[20,10,40,30],[40,30,20,10]]'
i=0
while [ "$i" -lt 70 ]; do
    printf '{"id":"k%02d","size":4,"symbols":[10,20,30,40],"cages":%s,"givens":{},"solution":%s}\n' "$i" "$cages" "$sol"
    i=$((i + 1))
done >"$f"
out=$("$bench" -i "$f" -t 1000 -T 1000)
for m in backtracking advanced; do
    line=$(echo "$out" | grep "^$f  *$m ") || { echo "check_bench_killer: no $m line" >&2; echo "$out" >&2; exit 1; }
    # solved stop multi bad
    echo "$line" | awk '{ exit !($3 == "70/70" && $4 == 0 && $5 == 0 && $6 == 0) }' || {
        echo "check_bench_killer: $m did not solve all 70 as the file says:" >&2; echo "$out" >&2; exit 1; }
done
echo "check_bench_killer: 70 of 70 by both methods"
