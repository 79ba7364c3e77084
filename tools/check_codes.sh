#!/bin/sh
# check_codes.sh -- one error-code space per layer, every code named (run by
# `make test`):
#   - every solver code (#define X_E... (-N) or SEARCH_* under solvers/) has
#     its line in a code table of solvers/ (search.c's search_codes, or its
#     puzzle's <puzzle>_codes), and every API_E* code its line in
#     api/problem.c's table;
#   - no two codes share a value, and api/ codes stay in their block (<= -100).
set -eu
fail=0
say() { echo "check_codes: $*" >&2; fail=1; }

defs=$( (find solvers -name '*.h' -exec cat {} +; cat api/problem.h) |
    sed -n 's/^#define[[:space:]]\{1,\}\([A-Z0-9_]*\)[[:space:]]\{1,\}(\(-[0-9]\{1,\}\)).*/\1 \2/p')
[ -n "$defs" ] || say "found no codes at all"
while read -r name value; do
    case "$name" in
        API_*)
            grep -q "PROBLEM_KIND($name," api/problem.c || say "$name has no line in api/problem.c"
            [ "$value" -le -100 ] || say "$name = $value is outside the api/ block (<= -100)" ;;
        *)
            grep -rq --include='*.c' "SEARCH_CODE($name," solvers || say "$name has no line in a code table of solvers/"
            [ "$value" -gt -100 ] || say "$name = $value is inside the api/ block" ;;
    esac
done <<EOF_DEFS
$defs
EOF_DEFS
dups=$(echo "$defs" | awk '{print $2}' | sort | uniq -d | tr '\n' ' ')
[ -z "$dups" ] || say "codes used twice: $dups"
[ "$fail" -eq 0 ] && echo "check_codes: $(echo "$defs" | wc -l) codes, each named once"
exit "$fail"
