#!/bin/sh
# check_includes.sh DIR... -- no circle in the #include graph (run by
# `make test` on server/ and api/).
#
# A node is a module: a .c/.h pair named alike (server/jobs/jobs.c and
# server/jobs/jobs.h are one node).  A file that includes "x/y.h" makes an
# edge from its module to x/y, when x/y is a module of the DIRs checked
# (system and other layers' headers are not followed: the layers have their
# own check, check_layers.sh).  A circle means two modules that each need
# the other, so neither can be read, tested or moved alone.
#
# The same for rooms: the folders inside a DIR (server/http, server/jobs)
# may depend on each other one way only.  (The DIR's own files, such as
# server/main.c, which wires the rooms together, are no room.)
#
# Each circle found is printed as a path and the check fails.
set -eu
[ $# -gt 0 ] || set -- server
files=$(find "$@" -name '*.[ch]' | LC_ALL=C sort)
[ -n "$files" ] || { echo "check_includes: no sources under $*" >&2; exit 1; }
# shellcheck disable=SC2086
awk -v tops="$*" -v files="$(echo $files)" '
BEGIN {
    ntop = split(tops, top, " "); for (i = 1; i <= ntop; i++) sub(/\/$/, "", top[i])
    nf = split(files, f, " "); for (i = 1; i <= nf; i++) { m = f[i]; sub(/\.[ch]$/, "", m); node[m] = 1 }
}
FNR == 1 { mod = FILENAME; sub(/\.[ch]$/, "", mod) }
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0
    sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc); sub(/\.h$/, "", inc)
    if (inc != mod && !((mod, inc) in seen)) { seen[mod, inc] = 1; out[mod] = out[mod] " " inc }
}
function dir(m) { sub(/\/[^\/]*$/, "", m); return m }
function is_room(d,    i) {
    for (i = 1; i <= ntop; i++) if (index(d, top[i] "/") == 1) return 1
    return 0
}
# Depth-first over graph g (out_g), colouring: 1 on the current path, 2
# done.  A grey successor closes a circle: the path from it to here.
function visit(g, m,    k, i, next_, list) {
    colour[g, m] = 1; path[++depth] = m
    k = split(g == "module" ? out[m] : rout[m], list, " ")
    for (i = 1; i <= k; i++) {
        next_ = list[i]
        if (g == "module" && !(next_ in node)) continue
        if (colour[g, next_] == 1) report(g, next_)
        else if (colour[g, next_] == 0) visit(g, next_)
    }
    depth--; colour[g, m] = 2
}
function report(g, m,    i, s) {
    for (i = depth; i > 0 && path[i] != m; i--) {}
    s = path[i]
    for (i++; i <= depth; i++) s = s " -> " path[i]
    print "check_includes: " g " circle: " s " -> " m > "/dev/stderr"
    bad = 1
}
END {
    for (m in node) {
        k = split(out[m], list, " ")
        for (i = 1; i <= k; i++) {
            a = dir(m); b = dir(list[i])
            if (!(list[i] in node) || a == b || !is_room(a) || !is_room(b)) continue
            room[a] = room[b] = 1
            if (!((a, b) in rseen)) { rseen[a, b] = 1; rout[a] = rout[a] " " b }
        }
    }
    for (m in node) colour["module", m] = 0
    for (m in node) if (colour["module", m] == 0) visit("module", m)
    for (r in room) colour["room", r] = 0
    for (r in room) if (colour["room", r] == 0) visit("room", r)
    n = 0; for (m in node) n++
    nr = 0; for (r in room) nr++
    if (!bad) printf "check_includes: %d modules, %d rooms, no circle\n", n, nr
    exit bad
}' $files
