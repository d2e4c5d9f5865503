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

# the README's engine snippets are lines of examples/engine.c, which make
# builds and which prints what the README says
root=$here/..
awk '/^```c$/{f=1;next}/^```$/{f=0}f' "$root/README.md" | sed 's/^ *//' | grep -v '^$' >"$tmp/snippets"
missing=0
while IFS= read -r line; do
  grep -qF -- "$line" "$root/examples/engine.c" || { missing=$((missing + 1)); echo "  not in engine.c: $line"; }
done <"$tmp/snippets"
[ "$(wc -l <"$tmp/snippets")" -gt 40 ] && [ "$missing" -le 2 ] && ok "README's engine snippets are examples/engine.c" || bad "README snippets: $missing lines not in engine.c"
# the lifetimes are checked before they are planned: a graph not numbered
# inputs first leaves records unwritten (the snippet once planned them anyway)
grep -q "^if (dnnmem_graph_intervals(" "$tmp/snippets" && ok "README checks dnnmem_graph_intervals" ||
  bad "README plans records dnnmem_graph_intervals may not have written"
# the header claims C++: the snippets a C++ engine copies compile there too
if command -v "${CXX:-g++}" >/dev/null; then
  if "${CXX:-g++}" -x c++ -std=c++11 -Wall -Wextra -Werror -I"$root" -c "$root/examples/engine.c" -o "$tmp/engine_cpp.o" \
      2>"$tmp/engine_cpp.err"; then ok "engine.c (the README's snippets) compiles as C++11"
  else bad "engine.c as C++11: $(head -3 "$tmp/engine_cpp.err")"; fi
fi
E=$root/${BUILD:-build}/example_engine
"$E" >"$tmp/engine.out"
check "engine example runs" "$?" 0
check "engine: the plan" "$(sed -n 1p "$tmp/engine.out")" "arena 10485760 bytes, lower bound 10485760 (optimal)"
check "engine: recompute" "$(sed -n 3p "$tmp/engine.out")" "12 steps (3 recomputed), peak 7340032, time 4500 ns, arena 7340032"
check "engine: placement" "$(sed -n 4p "$tmp/engine.out")" "3300 ns (every op the accelerator runs on it: 3800 ns)"
for l in "arena 10485760 bytes, lower bound 10485760 (optimal)" "12 steps (3" "3300 ns (every op the accelerator runs" ; do
  tr '\n' ' ' <"$root/README.md" | grep -qF "$l" && ok "README quotes: $l" || bad "README does not quote: $l"
done
cli_finish cli_demo
[ "$fail" = 0 ]
