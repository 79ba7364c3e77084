#!/usr/bin/env bash
# bench/compare/nqueens.sh -- puzzled's N-Queens against public anchors,
# built and run in the same session on the same machine.
#
#   bash bench/compare/nqueens.sh            (make bench-compare runs it)
#   ANCHOR_SRC=/work/.mirror bash bench/compare/nqueens.sh
#
# The anchors (their licences do not let us commit them: they are built into
# build/anchors/ from sources you provide, main() patched there with sed to
# take n from the command line):
#   constellations  suzukiiichiro/N-Queens, 10Bit_CUDA/004GCC_constellation.c
#                   (a C port of NQueensFAF's CPU solver)   gcc -O3 -march=native
#   takaken         suzukiiichiro/N-Queens, 06OpenCL/07_10NQueen.c
#                   (takaken's ver3.1)                      gcc -O2 -march=native
#   somers          BrannonKing/Parallel_Programming_Final_Project,
#                   nqueens_somers.c (Jeff Somers)           gcc -O3 -march=native
#   frozenvoid      FrozenVoid/NQ.c, nq.c and its folders (min-conflicts by
#                   swaps), the author's benchmark flags (gcc -Ofast
#                   -march=native -D...); built a second time without
#                   -DNOSCRAMBLE -DNOPRESOLVED (frozenvoid-modes) for its
#                   other starts: `N t` (its presolved board: the classical
#                   construction, no repair) and `N 1s` (N random swaps of
#                   the identity first: a random permutation)
#
# Sources: $ANCHOR_SRC (default build/anchors/src) holds, per repository,
#   a git directory  $ANCHOR_SRC/<owner>+<name>/repo or $ANCHOR_SRC/<owner>+<name>
#                    (the layout the fetch tool leaves under /work/.mirror), or
#   a checkout       $ANCHOR_SRC/<name> or $ANCHOR_SRC/<owner>/<name>.
# An anchor that is absent is reported, and its rows say "missing"; the
# script never fails for that.
#
# Method: each case runs puzzled and its anchor(s) interleaved (p, a, p, a,
# ...), RUNS times (default 3), timing the whole process; the table shows the
# best wall-clock time of each and their ratio (puzzled / anchor: below 1 is
# faster), then the same for CPU time (user + sys), which a shared, noisy
# machine disturbs less.  Cases: count n = 16 and 17 on one thread (against
# constellations, takaken; Somers at 16), n = 17 on two threads (against the
# single-threaded constellations, and puzzled's own one-thread time),
# min-conflicts at 10^6 and 10^7 queens against FrozenVoid's NQ.c, like for
# like by start:
#   defaults          puzzled's default start (constructed) / FrozenVoid's
#                     (the identity permutation, all queens on one diagonal,
#                     then its own quick swaps)
#   constructed       puzzled start=constructed (the classical solution, 16
#                     rows swapped, then repaired) / FrozenVoid `t` (its
#                     classical construction, nothing left to repair)
#   random            puzzled start=random (a uniform permutation) /
#                     FrozenVoid `1s` (N random transpositions of the
#                     identity: a random permutation), both then repaired
#   greedy            puzzled start=greedy / FrozenVoid's default again: it
#                     has no greedy start, so this row is for scale only
#
# Environment: RUNS (3), BUILD (build), ANCHOR_SRC, QUICK=1 (skips n = 17 and
# 10^7), ONLY=count or ONLY=mc (one half of the cases), CC_ANCHOR (gcc).
set -u

RUNS=${RUNS:-3}
BUILD=${BUILD:-build}
ANCHOR_SRC=${ANCHOR_SRC:-$BUILD/anchors/src}
CC_ANCHOR=${CC_ANCHOR:-gcc}
OUT=$BUILD/anchors
QUICK=${QUICK:-0}
ONLY=${ONLY:-}
want() { [ -z "$ONLY" ] || [ "$ONLY" = "$1" ]; }
mkdir -p "$OUT"

log() { printf '%s\n' "$*" >&2; }

# === Sources ===

# repo_dir OWNER NAME: prints "git DIR" or "tree DIR" for the first source
# found, nothing if none.
repo_dir() {
    local owner=$1 name=$2 d
    for d in "$ANCHOR_SRC/$owner+$name/repo" "$ANCHOR_SRC/$owner+$name"; do
        if [ -d "$d" ] && git --git-dir="$d" rev-parse --verify -q HEAD >/dev/null 2>&1; then
            echo "git $d"
            return
        fi
    done
    for d in "$ANCHOR_SRC/$name" "$ANCHOR_SRC/$owner/$name"; do
        if [ -d "$d" ]; then
            echo "tree $d"
            return
        fi
    done
}

# fetch_file OWNER NAME PATH DEST: copies one file of the repository.
fetch_file() {
    local kind dir
    read -r kind dir <<<"$(repo_dir "$1" "$2")"
    case "${kind:-}" in
        git) git --git-dir="$dir" show "HEAD:$3" >"$4" 2>/dev/null ;;
        tree) [ -f "$dir/$3" ] && cp "$dir/$3" "$4" ;;
        *) return 1 ;;
    esac
}

# fetch_tree OWNER NAME DEST: copies the whole repository (files only).
fetch_tree() {
    local kind dir
    read -r kind dir <<<"$(repo_dir "$1" "$2")"
    mkdir -p "$3"
    case "${kind:-}" in
        git) git --git-dir="$dir" archive HEAD | tar -x -C "$3" ;;
        tree) cp -R "$dir/." "$3/" ;;
        *) return 1 ;;
    esac
}

# === Building the anchors ===

declare -A BIN
missing=()

build_constellations() {
    local d=$OUT/constellations
    mkdir -p "$d"
    fetch_file suzukiiichiro N-Queens 10Bit_CUDA/004GCC_constellation.c "$d/orig.c" || return 1
    # main() loops size = min..targetN: make both argv[1]
    sed -e 's/int min=4;/int min=atoi(argv[1]);/' -e 's/int targetN=18;/int targetN=min;/' \
        "$d/orig.c" >"$d/constellations.c"
    grep -q 'atoi(argv\[1\])' "$d/constellations.c" || return 1
    $CC_ANCHOR -O3 -march=native -w "$d/constellations.c" -o "$d/constellations" || return 1
    BIN[constellations]=$d/constellations
}

build_takaken() {
    local d=$OUT/takaken
    mkdir -p "$d"
    fetch_file suzukiiichiro N-Queens 06OpenCL/07_10NQueen.c "$d/orig.c" || return 1
    # main(void) loops SIZE = MINSIZE..MAXSIZE: one size, from argv[1]
    sed -e 's/^int main(void)/#include <stdlib.h>\nint main(int argc, char **argv)/' \
        -e 's/for (SIZE=MINSIZE; SIZE<=MAXSIZE; SIZE++)/(void)argc; for (SIZE=atoi(argv[1]); SIZE<=atoi(argv[1]); SIZE++)/' \
        "$d/orig.c" >"$d/takaken.c"
    grep -q 'SIZE=atoi(argv\[1\])' "$d/takaken.c" || return 1
    $CC_ANCHOR -O2 -march=native -w "$d/takaken.c" -o "$d/takaken" || return 1
    BIN[takaken]=$d/takaken
}

build_somers() {
    local d=$OUT/somers
    mkdir -p "$d"
    fetch_file BrannonKing Parallel_Programming_Final_Project nqueens_somers.c "$d/somers.c" ||
        return 1
    # reads the board size from argv[1] already
    $CC_ANCHOR -O3 -march=native -w "$d/somers.c" -o "$d/somers" || return 1
    BIN[somers]=$d/somers
}

build_frozenvoid() {
    local d=$OUT/frozenvoid
    rm -rf "$d" && mkdir -p "$d"
    fetch_tree FrozenVoid NQ.c "$d" || return 1
    [ -f "$d/nq.c" ] || return 1
    (cd "$d" && $CC_ANCHOR nq.c -Ofast -march=native -w -DSILENCE -DNOFILEINPUT -DNOFILEOUTPUT \
        -DNOSCRAMBLE -DNOPRINTBOARD -DNOINTEGRITY -DNOVERIFIER -DNOPRESOLVED -DNDEBUG -DNOSYNTAX \
        -o nq_bench) || return 1
    BIN[frozenvoid]=$d/nq_bench
    # the same without -DNOSCRAMBLE -DNOPRESOLVED: its `t` and `1s` starts
    (cd "$d" && $CC_ANCHOR nq.c -Ofast -march=native -w -DSILENCE -DNOFILEINPUT -DNOFILEOUTPUT \
        -DNOPRINTBOARD -DNOINTEGRITY -DNOVERIFIER -DNDEBUG -DNOSYNTAX -o nq_modes) || return 1
    BIN[frozenvoid-modes]=$d/nq_modes
}

for a in constellations takaken somers frozenvoid; do
    if "build_$a" >"$OUT/$a.log" 2>&1; then
        log "anchor $a: ${BIN[$a]}"
    else
        log "anchor $a: missing (no source under $ANCHOR_SRC, or it did not build: $OUT/$a.log)"
        missing+=("$a")
    fi
done

PZ_COUNT=$BUILD/bench/bench_nqueens
PZ_BOARD=$BUILD/bench/bench_nqueens_board
if [ ! -x "$PZ_COUNT" ] || [ ! -x "$PZ_BOARD" ]; then
    make -s "$PZ_COUNT" "$PZ_BOARD" >&2 || { log "cannot build puzzled's benches"; exit 1; }
fi

# === Timing ===

# run_timed OUTFILE CMD...: runs CMD, prints "wall cpu" (seconds).
run_timed() {
    local out=$1 tf
    shift
    tf=$(mktemp)
    { TIMEFORMAT='%R %U %S'; time "$@" >"$out" 2>&1; } 2>"$tf"
    local w u s
    read -r w u s <"$tf"
    rm -f "$tf"
    awk -v w="$w" -v u="$u" -v s="$s" 'BEGIN { printf "%.3f %.3f\n", w, u + s }'
}

# min A B: the smaller (either may be empty)
fmin() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "") print b; else if (b == "" || a + 0 <= b + 0) print a; else print b }'; }

declare -A BEST_W BEST_C
note_run() { # KEY "wall cpu"
    local w c
    read -r w c <<<"$2"
    BEST_W[$1]=$(fmin "${BEST_W[$1]:-}" "$w")
    BEST_C[$1]=$(fmin "${BEST_C[$1]:-}" "$c")
}

# check OUTFILE WHAT PATTERN: warns when an output lacks the expected answer
check() { grep -q -- "$3" "$1" || log "warning: $2 did not print '$3' (see $1)"; }

OUTDIR=$OUT/runs
mkdir -p "$OUTDIR"

# count_case N THREADS ANCHORS...: interleaved runs of puzzled and each anchor
count_case() {
    local n=$1 thr=$2 r a key
    shift 2
    local want
    want=$(awk -v n="$n" 'BEGIN { split("1 0 0 2 10 4 40 92 352 724 2680 14200 73712 365596 2279184 14772512 95815104 666090624", v, " "); print v[n] }')
    for r in $(seq 1 "$RUNS"); do
        key="pz count $n $thr"
        note_run "$key" "$(run_timed "$OUTDIR/pz.$n.$thr.$r" "$PZ_COUNT" count "$n" "$thr")"
        check "$OUTDIR/pz.$n.$thr.$r" "puzzled n=$n" " ok "
        for a in "$@"; do
            [ -n "${BIN[$a]:-}" ] || continue
            key="$a count $n"
            [ -n "${DONE[$key]:-}" ] && continue
            note_run "$key" "$(run_timed "$OUTDIR/$a.$n.$r" "${BIN[$a]}" "$n")"
            check "$OUTDIR/$a.$n.$r" "$a n=$n" "$want"
        done
    done
    for a in "$@"; do DONE["$a count $n"]=1; done
}
declare -A DONE

# mc_case N: each start of puzzled's min-conflicts and FrozenVoid's, all
# interleaved, RUNS times
mc_case() {
    local n=$1 r st mode
    for r in $(seq 1 "$RUNS"); do
        for st in constructed random greedy; do
            note_run "pz mc $n $st" "$(run_timed "$OUTDIR/pz.mc.$n.$st.$r" "$PZ_BOARD" mc "$st" "$n")"
            check "$OUTDIR/pz.mc.$n.$st.$r" "puzzled mc $st $n" " ok"
        done
        if [ -n "${BIN[frozenvoid]:-}" ]; then
            note_run "frozenvoid mc $n" "$(run_timed "$OUTDIR/fv.$n.$r" "${BIN[frozenvoid]}" "$n")"
            check "$OUTDIR/fv.$n.$r" "frozenvoid $n" "Solved"
            for mode in t 1s; do
                note_run "frozenvoid mc $n $mode" \
                    "$(run_timed "$OUTDIR/fv.$n.$mode.$r" "${BIN[frozenvoid-modes]}" "$n" "$mode")"
                check "$OUTDIR/fv.$n.$mode.$r" "frozenvoid $n $mode" "Solved"
            done
        fi
    done
}

log "running: RUNS=$RUNS, interleaved (this takes a few minutes)"
if want count; then
    count_case 16 1 constellations takaken somers
    [ "$QUICK" = 1 ] || count_case 17 1 constellations takaken
    [ "$QUICK" = 1 ] || count_case 17 2 constellations
fi
if want mc; then
    mc_case 1000000
    [ "$QUICK" = 1 ] || mc_case 10000000
fi

# === Table ===

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
secs() { if [ -n "$1" ]; then printf '%s s' "$1"; else printf 'missing'; fi; }

row() { # CASE PUZZLED_KEY ANCHOR ANCHOR_KEY
    local pw=${BEST_W[$2]:-} pc=${BEST_C[$2]:-} aw="" ac=""
    if [ -n "${BIN[$3]:-}" ]; then
        aw=${BEST_W[$4]:-}
        ac=${BEST_C[$4]:-}
    fi
    printf '| %-28s | %10s | %-16s %10s | %5s | %10s | %10s | %5s |\n' "$1" "$(secs "$pw")" "$3" \
        "$(secs "$aw")" "$(ratio "$pw" "$aw")" "$(secs "$pc")" "$(secs "$ac")" "$(ratio "$pc" "$ac")"
}

echo
echo "N-Queens, puzzled vs anchors: best of $RUNS interleaved runs, whole process ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '| %-28s | %10s | %-27s | %5s | %10s | %10s | %5s |\n' case "puzzled" "anchor (wall)" ratio \
    "puzzled" "anchor" ratio
printf '| %-28s | %10s | %-27s | %5s | %10s | %10s | %5s |\n' "" "wall" "" "" "CPU" "CPU" "CPU"
echo "|------------------------------|------------|-----------------------------|-------|------------|------------|-------|"
if want count; then
row "count n=16, 1 thread" "pz count 16 1" constellations "constellations count 16"
row "count n=16, 1 thread" "pz count 16 1" takaken "takaken count 16"
row "count n=16, 1 thread" "pz count 16 1" somers "somers count 16"
fi
if want count && [ "$QUICK" != 1 ]; then
    row "count n=17, 1 thread" "pz count 17 1" constellations "constellations count 17"
    row "count n=17, 1 thread" "pz count 17 1" takaken "takaken count 17"
    row "count n=17, 2 threads" "pz count 17 2" constellations "constellations count 17"
fi
for n in 1000000 10000000; do
    want mc || break
    [ "$QUICK" = 1 ] && [ "$n" = 10000000 ] && continue
    e=$([ "$n" = 1000000 ] && echo 6 || echo 7)
    row "mc 10^$e, defaults" "pz mc $n constructed" frozenvoid "frozenvoid mc $n"
    row "mc 10^$e, constructed start" "pz mc $n constructed" frozenvoid-modes "frozenvoid mc $n t"
    row "mc 10^$e, random permutation" "pz mc $n random" frozenvoid-modes "frozenvoid mc $n 1s"
    row "mc 10^$e, greedy / FV default" "pz mc $n greedy" frozenvoid "frozenvoid mc $n"
done
if want count && [ "$QUICK" != 1 ]; then
    span=$(cat "$OUTDIR"/pz.17.2.* 2>/dev/null | sed -n 's/.* span=\([0-9.]*\).*/\1/p' | sort -n | head -1)
    echo
    echo "two threads at n=17: the busier worker used $(secs "$span") of CPU, against $(secs "${BEST_C[pz count 17 1]:-}") for the whole count on one thread (the wall time two idle cores would take; $(ratio "${BEST_C[pz count 17 1]:-}" "$span")x speed-up)"
    echo "two threads at n=17: speed-up $(ratio "${BEST_W[pz count 17 1]:-}" "${BEST_W[pz count 17 2]:-}") (one-thread wall / two-thread wall; 2.00 is perfect, and needs two idle cores), CPU $(secs "${BEST_C[pz count 17 2]:-}") for two threads vs $(secs "${BEST_C[pz count 17 1]:-}") for one"
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "missing anchors: ${missing[*]} (sources under $ANCHOR_SRC; see the head of $0)"
fi
exit 0
