#!/usr/bin/env bash
# tests/cli_demo.sh: make demo's script (examples/demo.sh) runs, prints no
# line twice, no progress line among its tables, and names what best chose.
. "$(dirname "$0")/cli_lib.sh"
D=$(cd "$(dirname "$DNNMEM")" && pwd)/$(basename "$DNNMEM")
(cd "$here/.." && bash examples/demo.sh "$D") >"$tmp/demo.out" 2>"$tmp/demo.err"
rc=$?
check "demo exits 0" "$rc" 0
dups=$(grep -v '^$' "$tmp/demo.out" | sort | uniq -d)
check "demo prints no line twice" "$dups" ""
! grep -q 'dnnmem remat:' "$tmp/demo.out" "$tmp/demo.err" && ok "demo: no progress lines" || bad "demo: progress lines"
grep -q 'best (won by pathcover): arena 9633792' "$tmp/demo.out" && ok "demo: best names the winner" || bad "demo: best"
grep -q "W = 2 paths cover every edge" "$tmp/demo.out" && ok "demo: the W bound in words" || bad "demo: W"
cli_finish cli_demo
[ "$fail" = 0 ]
