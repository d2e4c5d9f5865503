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

# usage errors: exit 1
"$DNNMEM" flow >/dev/null 2>&1
check "no file exit 1" $? 1
"$DNNMEM" flow --algo xx "$data/flow_clrs.max" >/dev/null 2>&1
check "bad algo exit 1" $? 1
"$DNNMEM" flow --bogus "$data/flow_clrs.max" >/dev/null 2>&1
check "unknown option exit 1" $? 1
"$DNNMEM" flow --help >/dev/null 2>&1
check "help exit 0" $? 0

# bad input: exit 2 with FILE:LINE:, nothing on stdout
bad_case() { # name, line, file text
  printf '%b' "$3" >"$tmp/$1.max"
  "$DNNMEM" flow --json "$tmp/$1.max" >"$tmp/out" 2>"$tmp/err"
  check "$1 exit 2" $? 2
  if [ "$2" = 0 ]; then grep -q "$1.max: " "$tmp/err" && ok "$1 message" || bad "$1 message ($(cat "$tmp/err"))"
  else grep -q "$1.max:$2: " "$tmp/err" && ok "$1 FILE:LINE" || bad "$1 FILE:LINE ($(cat "$tmp/err"))"; fi
  check "$1 no stdout" "$(wc -c <"$tmp/out")" 0
}
bad_case negative 4 'p max 3 2\nn 1 s\nn 3 t\na 1 2 -5\na 2 3 1\n'
bad_case range 5 'p max 3 2\nn 1 s\nn 3 t\na 1 2 5\na 2 4 1\n'
bad_case zero_id 2 'p max 3 1\nn 0 s\n'
bad_case before_p 1 'a 1 2 3\np max 3 1\n'
bad_case not_max 2 'c x\np min 3 1\n'
bad_case garbage 3 'p max 3 1\nn 1 s\nx\n'
bad_case too_many 6 'p max 3 2\nn 1 s\nn 3 t\na 1 2 1\na 2 3 1\na 1 3 1\n'
bad_case too_few 5 'p max 3 3\nn 1 s\nn 3 t\na 1 2 1\na 2 3 1\n'
bad_case no_sink 0 'p max 3 1\nn 1 s\na 1 3 1\n'
bad_case two_sources 3 'p max 3 1\nn 1 s\nn 2 s\nn 3 t\na 1 3 1\n'
bad_case not_int 4 'p max 3 1\nn 1 s\nn 3 t\na 1 3 1.5\n'
bad_case big_cap 4 'p max 3 1\nn 1 s\nn 3 t\na 1 3 99999999999999999999\n'
bad_case overflow 0 'p max 3 2\nn 1 s\nn 3 t\na 1 2 9223372036854775807\na 1 3 1\n'
bad_case same_st 0 'p max 3 1\nn 1 s\nn 1 t\na 1 3 1\n'
"$DNNMEM" flow "$tmp/missing.max" >/dev/null 2>&1
check "missing file exit 2" $? 2

cli_finish cli_flow
[ "$fail" = 0 ]
