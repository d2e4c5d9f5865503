#!/usr/bin/env bash
# tests/cli_flow.sh: the `dnnmem flow` command's contract (DIMACS reading,
# JSON fields, exit codes). The binary is $DNNMEM.
. "$(dirname "$0")/cli_lib.sh"
for algo in bk pr; do
  "$DNNMEM" flow --algo $algo --json "$data/flow_clrs.max" >"$tmp/$algo.json" 2>"$tmp/err"
  check "clrs $algo exit 0" $? 0
  check "clrs $algo n" "$(field n "$tmp/$algo.json")" 6
  check "clrs $algo m" "$(field m "$tmp/$algo.json")" 9
  check "clrs $algo flow" "$(field flow "$tmp/$algo.json")" 23
  check "clrs $algo source_side" "$(field source_side "$tmp/$algo.json")" 4
  grep -q '"time_ms": ' "$tmp/$algo.json" && ok "clrs $algo time_ms" || bad "clrs $algo time_ms"
  check "clrs $algo one line" "$(wc -l <"$tmp/$algo.json")" 1
done
"$DNNMEM" flow "$data/flow_clrs.max" >"$tmp/text" 2>&1
check "default algo exit 0" $? 0
grep -q "max flow 23" "$tmp/text" && ok "text output" || bad "text output ($(cat "$tmp/text"))"

# a random-ish grid written here: both algorithms agree
{
  echo "p max 402 1920"; echo "n 401 s"; echo "n 402 t"
  k=0
  for ((v = 1; v <= 400; v++)); do
    c=$(( (v * 7919) % 41 - 20 ))
    if [ $c -gt 0 ]; then echo "a 401 $v $c"; else echo "a $v 402 $((-c))"; fi
    x=$(( (v - 1) % 20 )); y=$(( (v - 1) / 20 ))
    if [ $x -lt 19 ]; then echo "a $v $((v + 1)) $(( (v * 31) % 17 ))"; echo "a $((v + 1)) $v $(( (v * 13) % 11 ))"; fi
    if [ $y -lt 19 ]; then echo "a $v $((v + 20)) $(( (v * 17) % 13 ))"; echo "a $((v + 20)) $v $(( (v * 7) % 19 ))"; fi
  done
} >"$tmp/grid.max"
"$DNNMEM" flow --algo bk --json "$tmp/grid.max" >"$tmp/g1" 2>"$tmp/err"
check "grid bk exit 0" $? 0
"$DNNMEM" flow --algo pr --json "$tmp/grid.max" >"$tmp/g2" 2>"$tmp/err"
check "grid pr exit 0" $? 0
check "grid bk == pr" "$(field flow "$tmp/g1")" "$(field flow "$tmp/g2")"
check "grid m" "$(field m "$tmp/g1")" 1920

cli_finish cli_flow
[ "$fail" = 0 ]
