#!/bin/sh
# bench/compare/killer.sh -- puzzled's Killer solvers next to sigh's
# Interactive Sudoku Solver (under node) and CaDiCaL, in the same run.
#
#   bench/compare/killer.sh            (from anywhere; make bench-compare runs it)
#
# Puzzles: those of killers_curated.jsonl whose id contains FILTER (default
# "sigh-": the tarek, Mathemagic, HS and wecoc killers of sigh's lists).
# Two questions, each its own table: the first solution, and uniqueness (a
# solution and the proof that there is no other).  Columns, each the best of
# REPS rounds, the programs interleaved within a round:
#   puzzled 1t   bench_killer -M auto on one thread (what the service runs
#                with threads 1: advanced, both value orders in turns)
#   puzzled 2t   bench_killer -j 2, as the service runs threads 2 (9x9: the
#                two value orders on two threads, or for uniqueness 16
#                subtrees of one order; from 16x16 the race of learning and
#                advanced); with METRIC=cpu half the process's CPU time (both
#                threads busy to the end: the time two free cores would
#                take), else the wall clock
#   learning     bench_killer -M learning, one thread
#   ISS          sigh's solver core under node, one thread: its constraint
#                text (bench_killer -k) parsed, built (its optimizer) and
#                solved, as a user waits for all of it; the harness is
#                written to build/anchors/killer/iss_killer.mjs
#   CaDiCaL      on bench_killer -c's CNF (the direct encoding plus one
#                variable per cage combination), solved; for uniqueness
#                solved again with the model's cell values excluded (UNSAT
#                = unique); CADICAL_REPS rounds (default 1: it is the
#                slowest by far, and its run-to-run spread is not the point)
# Then the medians and worsts per family, and, unless OLD is empty, the
# ordinary killers (janko 9x9 and 6x6, the course's rmit killers but the
# 16x16) on this build and on the build of git ref OLD (default main),
# interleaved, best of REPS: median and worst per file, first solution.
#
# Anchors are looked for, never required: ISS from ISS_SRC (a directory
# holding its js/), else build/anchors/killer/iss (kept from an earlier run),
# else the git mirror the search tools' fetch leaves
# (/work/.mirror/sigh+Interactive-Sudoku-Solver/repo, or ISS_GIT), copied
# with git archive; nothing of it is committed.  CaDiCaL is the Debian
# package `cadical`.  A missing one gets "-" in its column and a line saying
# how to get it.
#
# Environment: DATA (collections, default ../shared/data), FILTER, REPS (3),
# CADICAL_REPS (1), CAP (seconds a solve, 60), METRIC (wall or cpu: on a
# machine loaded past its cores the wall clock measures the others too;
# cpu = the process's CPU time; the 2-thread column stays wall), OLD (git
# ref, "" to skip), BIG=1 adds rmit-killer_1616 to the tables with BIGCAP
# (seconds, default 600).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
data=${DATA:-$root/../shared/data}/killer
filter=${FILTER:-sigh-}
reps=${REPS:-3}
creps=${CADICAL_REPS:-1}
cap=${CAP:-60}
metric=${METRIC:-wall}
old=${OLD-main}
out=build/anchors/killer
bench=build/bench/bench_killer

if [ ! -f "$data/killers_curated.jsonl" ]; then
    echo "killer.sh: $data/killers_curated.jsonl is missing: nothing to compare (see ../shared/data/README.md)"
    exit 0
fi
make --no-print-directory -s "$bench" || { echo "killer.sh: cannot build $bench" >&2; exit 2; }
rm -rf "$out/cnf" "$out/iss_in" "$out/res"
mkdir -p "$out/cnf" "$out/iss_in" "$out/res"
grep "\"id\": *\"[^\"]*$filter" "$data/killers_curated.jsonl" > "$out/set.jsonl"
if [ "${BIG:-0}" = 1 ]; then
    grep '"id": *"rmit-killer_1616"' "$data/killers_curated.jsonl" >> "$out/set.jsonl"
fi
./$bench -i "$out/set.jsonl" -c "$out/cnf" > /dev/null
./$bench -i "$out/set.jsonl" -k "$out/iss_in" > /dev/null
ids=$(sed -n 's/.*"id": *"\([^"]*\)".*/\1/p' "$out/set.jsonl")
bigcap=${BIGCAP:-600}
capms=$((cap * 1000))
[ "${BIG:-0}" = 1 ] && capms=$((bigcap * 1000))
pflag=
[ "$metric" = cpu ] && pflag=-P

# === the anchors ===========================================================
. bench/compare/lib/iss.sh
find_iss "$out" killer.sh
cat > "$out/iss_killer.mjs" <<'EOF'
// iss_killer.mjs -- times sigh's Interactive Sudoku Solver on files of its
// constraint text (written by bench/compare/killer.sh; not part of puzzled).
//   node iss_killer.mjs ISS_ROOT MAX_SOLUTIONS FILE.iss ...
// Prints per file: the file, wall ms, CPU ms (parse, build and solve: what
// a user waits for), solutions found (up to MAX_SOLUTIONS), exhausted 0/1.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
globalThis.self = globalThis;
globalThis.VERSION_PARAM = '';
const [root, maxsol, ...files] = process.argv.slice(2);
const url = (p) => pathToFileURL(root + p).href;
const { SudokuParser } = await import(url('/js/sudoku_parser.js'));
const { SudokuBuilder } = await import(url('/js/solver/sudoku_builder.js'));
for (const f of files) {
  const text = readFileSync(f, 'utf8').trim();
  const c0 = process.cpuUsage(), t0 = performance.now();
  const solver = SudokuBuilder.build(SudokuBuilder.resolveConstraint(SudokuParser.parseText(text)));
  const internal = solver._internalSolver;
  let count = 0;
  internal.run({ maxSolutions: +maxsol }, () => { count++; });
  const exhausted = internal.state === internal.constructor.STATE_EXHAUSTED ? 1 : 0;
  const wall = performance.now() - t0, cu = process.cpuUsage(c0);
  console.log(`${f} ${wall.toFixed(3)} ${((cu.user + cu.system) / 1000).toFixed(3)} ${count} ${exhausted}`);
}
EOF
cad=
if command -v cadical > /dev/null 2>&1; then
    cad=cadical
else
    echo "killer.sh: cadical is not installed (Debian package cadical): its column is empty"
fi

# === one round of each program =============================================
# Each appends "id ms ok" lines to $out/res/PROG.MODE (ok 1: the answer is
# right for the mode: a checked solution, or for uniqueness a proof).
puzzled() { # puzzled() PROG MODE DIVISOR ARGS...
    prog=$1 mode=$2 div=$3
    shift 3
    u=
    [ "$mode" = unique ] && u=-u
    ./$bench -i "$out/set.jsonl" -a -v -T "$capms" $u "$@" |
        awk -v d="$div" '/^  [a-z]+ +[^ ]+ +[0-9.]+ ms/ {print $2, $3 / d, ($8 == 0) ? 1 : 0}' >> "$out/res/$prog.$mode"
}
iss_round() { # iss_round MODE
    [ -n "$iss" ] || return 0
    n=1
    [ "$1" = unique ] && n=2
    files=
    for id in $ids; do files="$files $out/iss_in/$id.iss"; done
    # shellcheck disable=SC2086
    timeout $((cap * 40 + 60)) node "$out/iss_killer.mjs" "$iss" "$n" $files 2>/dev/null |
        awk -v m="$metric" -v n="$n" '{f = $1; sub(/.*\//, "", f); sub(/\.iss$/, "", f);
            ok = n == 1 ? ($4 == 1) : ($4 == 2 || ($4 == 1 && $5 == 1));
            print f, (m == "cpu") ? $3 : $2, ok}' >> "$out/res/iss.$1"
}
cad_run() { # cad_run CNF OUT: CaDiCaL's answer to OUT, its time (ms; METRIC) on stdout
    if [ "$metric" = cpu ] && [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%U %S' -o "$2.t" timeout "$cap" "$cad" -q "$1" > "$2" 2>/dev/null
        awk 'END {printf "%d\n", ($1 + $2) * 1000}' "$2.t" # (after "Command exited with ...")
    else
        t0=$(date +%s%N)
        timeout "$cap" "$cad" -q "$1" > "$2" 2>/dev/null
        t1=$(date +%s%N)
        echo $(((t1 - t0) / 1000000))
    fi
}
cad_one() { # cad_one ID MODE: prints "ID ms ok"
    cnf=$out/cnf/$1.cnf
    ms=$(cad_run "$cnf" "$out/cnf/$1.out")
    ok=0
    if grep -q '^s SATISFIABLE' "$out/cnf/$1.out"; then
        ok=1
        if [ "$2" = unique ]; then
            n=$(grep "\"id\": *\"$1\"" "$out/set.jsonl" | sed -n 's/.*"size": *\([0-9]*\).*/\1/p')
            block=$(awk -v nv=$((n * n * n)) '/^v / {for (i = 2; i <= NF; i++) if ($i > 0 && $i <= nv) printf "-%d ", $i} END {print "0"}' "$out/cnf/$1.out")
            awk -v b="$block" 'NR == 1 {print $1, $2, $3, $4 + 1; next} {print} END {print b}' "$cnf" > "$out/cnf/$1.u.cnf"
            ms=$((ms + $(cad_run "$out/cnf/$1.u.cnf" "$out/cnf/$1.u.out")))
            grep -q '^s UNSATISFIABLE' "$out/cnf/$1.u.out" || ok=0
        fi
    fi
    echo "$1 $ms $ok"
}
cad_round() { # cad_round MODE
    [ -n "$cad" ] || return 0
    for id in $ids; do cad_one "$id" "$1"; done >> "$out/res/cadical.$1"
}

echo "killer.sh: $(echo "$ids" | wc -w) puzzles (id contains \"$filter\"), best of $reps ($metric; CaDiCaL $creps), cap ${cap} s"
for mode in first unique; do
    r=1
    while [ "$r" -le "$reps" ]; do
        puzzled p1 "$mode" 1 -M auto $pflag
        if [ "$metric" = cpu ]; then
            puzzled p2 "$mode" 2 -j 2 -P
        else
            puzzled p2 "$mode" 1 -j 2
        fi
        puzzled lcg "$mode" 1 -M learning $pflag
        iss_round "$mode"
        [ "$r" -le "$creps" ] && cad_round "$mode"
        r=$((r + 1))
    done
done

# === the tables ============================================================
table() { # table MODE TITLE
    echo
    echo "== $2 (ms; best of rounds; + = stopped or wrong in some round, - = no run)"
    printf '%-30s %11s %11s %11s %11s %11s %8s\n' puzzle "puzzled 1t" "puzzled 2t" learning ISS CaDiCaL "ISS/2t"
    for id in $ids; do
        line=$id
        for p in p1 p2 lcg iss cadical; do
            v=$(awk -v id="$id" '$1 == id {if ($3 == 1 && (best == "" || $2 < best)) best = $2; if ($3 != 1) bad = 1}
                END {if (best == "") print "-"; else printf "%.1f%s\n", best, bad ? "+" : ""}' "$out/res/$p.$1" 2>/dev/null)
            line="$line ${v:--}"
        done
        echo "$line"
    done | awk '{r = ($5 != "-" && $3 != "-" && $3 + 0 > 0) ? sprintf("%.1f", $5 / $3) : "-";
        printf "%-30s %11s %11s %11s %11s %11s %8s\n", $1, $2, $3, $4, $5, $6, r}' | tee "$out/res/table.$1"
    echo "-- per family: median / worst"
    for fam in tarek mathemagic hs extreme; do
        awk -v f="$fam" 'index($1, f) {n++; for (c = 2; c <= 6; c++) {v[c, n] = ($c == "-") ? -1 : $c + 0}}
            END {if (n == 0) exit; printf "%-30s", f " (" n ")";
                for (c = 2; c <= 6; c++) {m = 0; for (i = 1; i <= n; i++) a[i] = v[c, i];
                    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) {t = a[i]; a[i] = a[j]; a[j] = t}
                    if (a[1] < 0) printf " %11s", "-"; else printf " %5.0f/%-5.0f", a[int((n + 1) / 2)], a[n]}
                printf "\n"}' "$out/res/table.$1"
    done
}
table first "first solution"
table unique "uniqueness: a solution and the proof there is no other"

# === ordinary killers, this build against OLD ==============================
[ -n "$old" ] || exit 0
if ! git rev-parse --verify -q "$old^{commit}" > /dev/null; then
    echo "killer.sh: no git ref '$old': the old-against-new table is skipped"
    exit 0
fi
oldsrc=$out/old-src
rm -rf "$oldsrc"
mkdir -p "$oldsrc"
git archive "$old" | tar -x -C "$oldsrc"
if ! make --no-print-directory -s -C "$oldsrc" build/bench/bench_killer > /dev/null 2>&1; then
    echo "killer.sh: the build of $old failed: the old-against-new table is skipped"
    exit 0
fi
grep '"id": *"rmit-' "$data/killers_curated.jsonl" | grep -v 'rmit-killer_1616' > "$out/course.jsonl"
echo
echo "== ordinary killers, first solution, advanced on one thread (what auto runs on them): $old against this build (wall ms, median / worst, best of $reps)"
printf '%-26s %17s %17s\n' file "$old" "this build"
for f in janko_killer_9x9.jsonl janko_killer_6x6.jsonl course; do
    in=$data/$f
    [ "$f" = course ] && in=$out/course.jsonl
    [ -f "$in" ] || continue
    rm -f "$out/res/ord.old" "$out/res/ord.new"
    r=1
    while [ "$r" -le "$reps" ]; do
        for which in old new; do
            b=./$bench
            [ "$which" = old ] && b=$oldsrc/build/bench/bench_killer
            $b -i "$in" -a -T 5000 | awk '$2 == "advanced" {print $7, $8}' >> "$out/res/ord.$which"
        done
        r=$((r + 1))
    done
    o=$(sort -n "$out/res/ord.old" | head -1)
    w=$(sort -n -k2 "$out/res/ord.old" | head -1 | awk '{print $2}')
    no=$(sort -n "$out/res/ord.new" | head -1)
    nw=$(sort -n -k2 "$out/res/ord.new" | head -1 | awk '{print $2}')
    printf '%-26s %8s /%8s %8s /%8s\n' "$f" "${o%% *}" "$w" "${no%% *}" "$nw"
done
