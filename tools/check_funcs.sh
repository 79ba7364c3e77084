#!/bin/sh
# check_funcs.sh [-l LIMIT] [-a] [FILE...] -- no function in solvers/ or api/
# is longer than LIMIT lines (default 120, run by `make test`) unless the
# comment just above it says why it must be one piece, in a sentence that
# starts with "One piece:", e.g.
#
#   /* ... What the function does.
#    * One piece: the trail marks of the whole search live in its locals. */
#
# -a lists every function over LIMIT with its length (marked or not) and
# fails on nothing: for planning a split.  Without FILE arguments it first
# checks itself on three made-up functions (one line over the limit, the
# same with a reason, one at the limit), then reads every .c and .h under
# solvers/ and api/.
#
# It reads the sources as text, which is enough because `make format-check`
# keeps them clang-formatted: a definition starts at column 0 (its
# signature may go on over indented lines), its signature ends in ") {"
# and holds no "=" or ";", and its body ends at the first line that is a
# lone "}".  A function is counted from its signature's first line to that
# closing brace.  Struct and enum bodies (up to a "}" at column 0) and
# initialisers (an "=", up to the ";") are not functions; preprocessor
# lines, with their continuations, are skipped.  `ctags --fields=+ne`
# finds the same functions with the same lengths.
set -eu
limit=120
all=0
while [ $# -gt 0 ]; do
    case $1 in
    -l) limit=$2; shift 2 ;;
    -a) all=1; shift ;;
    --) shift; break ;;
    -*) echo "usage: check_funcs.sh [-l LIMIT] [-a] [FILE...]" >&2; exit 2 ;;
    *) break ;;
    esac
done
check() {
awk -v limit="$limit" -v all="$all" '
function reset_comment() { cstart = 0; cend = 0; ctext = "" }
FNR == 1 { state = 0; reset_comment(); incont = 0 }
{
    line = $0
    code = line  # without a trailing comment, for the shape tests
    sub(/[ \t]*\/\*.*\*\/[ \t]*$/, "", code)
    # preprocessor lines and their backslash continuations
    if (incont) { incont = (line ~ /\\$/); next }
    if (state == 0 && line ~ /^[ \t]*#/) { incont = (line ~ /\\$/); reset_comment(); next }

    if (state == 0) {
        # block comments at column 0: remember the last one, with its text
        if (incomment) {
            ctext = ctext " " line
            if (line ~ /\*\//) { incomment = 0; cend = FNR }
            next
        }
        if (line ~ /^\/\*/) {  # (comments right after each other count as one)
            if (cend != FNR - 1) ctext = ""
            cstart = FNR; ctext = ctext " " line
            if (line ~ /\*\//) cend = FNR; else incomment = 1
            next
        }
        if (line ~ /^[A-Za-z_]/) {
            sig = code; sstart = FNR
            # the comment counts only when it ends right above the signature
            hascomment = (cend == FNR - 1)
            comment = hascomment ? ctext : ""
            reset_comment()
            if (code ~ /;[ \t]*$/) next  # a declaration, or a one-line initialiser
            if (code ~ /\) *\{.*}[ \t]*$/ && code !~ /=.*\{/) { checked++; next }  # a one-line body
            if (code ~ /\) *\{$/ && code !~ /=/) { state = 2; next }
            if (code ~ /=/) { state = 4; next }  # an initialiser: up to its ";"
            if (code ~ /\{$/) { state = 3; next }  # a struct, union or enum body
            state = 1  # the signature goes on
            next
        }
        if (line !~ /^[ \t]*$/) reset_comment()
        next
    }
    if (state == 1) {  # an indented continuation of a signature
        sig = sig " " code
        if (code ~ /;[ \t]*$/) { state = 0; next }
        if (code ~ /\) *\{$/ && sig !~ /=/) { state = 2; next }
        if (sig ~ /=/) { state = 4; next }
        if (code ~ /\{$/) { state = 3; next }
        next
    }
    if (state == 4) {  # an initialiser over several lines
        if (code ~ /;[ \t]*$/) state = 0
        next
    }
    if (state == 3) {  # a type body or an initialiser: up to its closing line at column 0
        if (code ~ /^}/) state = 0
        next
    }
    # state 2: a function body
    if (code == "}") {
        len = FNR - sstart + 1
        name = sig
        sub(/[ \t]*\(.*/, "", name)
        n = split(name, w, /[ \t*]+/)
        name = w[n]
        marked = (comment ~ /One piece: [^ ]/)
        if (len > limit) {
            if (all) printf "%s:%d: %s %d lines%s\n", FILENAME, sstart, name, len, marked ? " (one piece)" : ""
            else if (!marked) {
                printf "check_funcs: %s:%d: %s is %d lines (over %d); split it, or say why it must be one piece in its comment (\"One piece: ...\")\n", FILENAME, sstart, name, len, limit > "/dev/stderr"
                bad++
            }
        }
        checked++
        state = 0
    }
}
END {
    if (bad) exit 1
    if (!all) printf "check_funcs: %d functions, none over %d lines without a reason\n", checked, limit
}' "$@"
}

if [ $# -eq 0 ]; then
    # First the checker on itself, so that a change to it (or to the
    # formatting) cannot make it pass everything: a function one line over
    # the limit fails, the same with a reason passes, one at the limit passes.
    t=$(mktemp -d)
    trap 'rm -rf "$t"' EXIT
    body() { i=2; while [ "$i" -lt "$1" ]; do echo "    x++;"; i=$((i + 1)); done; }
    { echo "/* too long */"; echo "static int f(int x) {"; body $((limit + 1)); echo "}"; } >"$t/long.c"
    { echo "/* too long.  One piece: a test."; echo " * of the marker. */";
      echo "static int f(int x,"; echo "             int y) {"; body $limit; echo "}"; } >"$t/marked.c"
    { echo "static int f(int x) {"; body $limit; echo "}"; } >"$t/limit.c"
    mode=$all
    all=0
    if check "$t/long.c" 2>/dev/null || ! check "$t/marked.c" >/dev/null || ! check "$t/limit.c" >/dev/null; then
        echo "check_funcs: the checker fails its own test" >&2
        exit 1
    fi
    all=$mode
    set -- $(find solvers api -name '*.[ch]' | sort)
fi
check "$@"
