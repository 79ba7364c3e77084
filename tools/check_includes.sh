#!/bin/sh
# check_includes.sh [DIR...] -- no circle in the #include graph (run by
# `make test` on server/ and api/).
#
# A node is a module: a .c/.h pair named alike (server/jobs/jobs.c and
# server/jobs/jobs.h are one node).  A file that includes "x/y.h" makes an
# edge from its module to x/y, when x/y is a module of the DIRs checked
# (system and other layers' headers are not followed: the layers have their
# own check, check_layers.sh).  A circle means two modules that each need
# the other, so neither can be read, tested or moved alone; each circle
# found is printed as a path and the check fails.
set -eu
[ $# -gt 0 ] || set -- server
files=$(find "$@" -name '*.[ch]' | LC_ALL=C sort)
[ -n "$files" ] || { echo "check_includes: no sources under $*" >&2; exit 1; }
# shellcheck disable=SC2086
awk '
FNR == 1 { mod = FILENAME; sub(/\.[ch]$/, "", mod); node[mod] = 1 }
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0
    sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc); sub(/\.h$/, "", inc)
    if (inc != mod && !((mod, inc) in seen)) { seen[mod, inc] = 1; out[mod] = out[mod] " " inc }
}
# Depth-first, colouring: 1 on the current path, 2 done.  A grey successor
# closes a circle: the path from it to here.
function visit(m,    k, i, next_, list) {
    colour[m] = 1; path[++depth] = m
    k = split(out[m], list, " ")
    for (i = 1; i <= k; i++) {
        next_ = list[i]
        if (!(next_ in node)) continue
        if (colour[next_] == 1) report(next_)
        else if (colour[next_] == 0) visit(next_)
    }
    depth--; colour[m] = 2
}
function report(m,    i, s) {
    for (i = depth; i > 0 && path[i] != m; i--) {}
    s = path[i]
    for (i++; i <= depth; i++) s = s " -> " path[i]
    print "check_includes: circle: " s " -> " m > "/dev/stderr"
    bad = 1
}
END {
    for (m in node) colour[m] = 0
    for (m in node) if (colour[m] == 0) visit(m)
    n = 0; for (m in node) n++
    if (!bad) printf "check_includes: %d modules, no circle\n", n
    exit bad
}' $files
