#!/bin/sh
# check_openapi.sh -- every route in server/http/router.c is described in
# openapi.yaml with its method, and openapi.yaml describes no route the server
# does not have.  (A YAML-aware linter would be better; this catches the
# drift that matters: a route added or removed on one side only.)
set -eu
fail=0
routes=$(grep -oE '\{"(GET|POST|PUT|DELETE|PATCH)", "/[^"]*"' server/http/router.c | sed 's/^{//; s/"//g; s/,//')
for r in $(echo "$routes" | tr ' ' '='); do
    method=$(echo "$r" | cut -d= -f1 | tr 'A-Z' 'a-z')
    path=$(echo "$r" | cut -d= -f2)
    block=$(awk -v p="  $path:" '$0 == p {on=1; next} on && /^  [^ ]/ {on=0} on' openapi.yaml)
    if [ -z "$block" ]; then
        echo "check_openapi: $path is routed but not in openapi.yaml" >&2; fail=1; continue
    fi
    echo "$block" | grep -q "^    $method:" || { echo "check_openapi: $method $path is not in openapi.yaml" >&2; fail=1; }
done
for p in $(awk '/^paths:/ {on=1; next} on && /^[^ ]/ {on=0} on && /^  \// {sub(":", ""); print $1}' openapi.yaml); do
    grep -q "\"$p\"" server/http/router.c || { echo "check_openapi: openapi.yaml has $p, the server does not" >&2; fail=1; }
done
[ "$fail" -eq 0 ] && echo "check_openapi: openapi.yaml covers every route"
exit "$fail"
