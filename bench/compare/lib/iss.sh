# shellcheck shell=sh
# bench/compare/lib/iss.sh -- sourced by the compare scripts that run sigh's
# Interactive Sudoku Solver (killer.sh, constraints.sh); not run by itself
# (make bench-compare runs bench/compare/*.sh only).
#
# find_iss OUT NAME: sets `iss` to the absolute path of a copy of ISS (a
# directory holding its js/): ISS_SRC, else OUT/iss kept from an earlier
# run, else the git mirror the search tools' fetch leaves
# (/work/.mirror/sigh+Interactive-Sudoku-Solver/repo, or ISS_GIT) copied
# into OUT/iss with git archive; nothing of it is committed.  Empty, with a
# line from NAME saying how to get it, when there is none or no node.
find_iss() {
    iss=
    if [ -n "${ISS_SRC:-}" ] && [ -d "${ISS_SRC}/js" ]; then
        iss=$(cd "$ISS_SRC" && pwd)
    elif [ -d "$1/iss/js" ]; then
        iss=$(cd "$1/iss" && pwd)
    else
        git_dir=${ISS_GIT:-/work/.mirror/sigh+Interactive-Sudoku-Solver/repo}
        if [ -d "$git_dir" ] && mkdir -p "$1/iss" &&
            git --git-dir="$git_dir" archive HEAD js lib data | tar -x -C "$1/iss"; then
            iss=$(cd "$1/iss" && pwd)
        else
            rm -rf "$1/iss"
        fi
    fi
    if [ -z "$iss" ]; then
        echo "$2: no copy of sigh's Interactive Sudoku Solver (fetch github:sigh/Interactive-Sudoku-Solver, or set ISS_SRC): its column is empty"
    elif ! command -v node > /dev/null 2>&1; then
        echo "$2: node is not installed: the ISS column is empty"
        iss=
    fi
}
