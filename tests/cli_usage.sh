#!/usr/bin/env bash
# tests/cli_usage.sh: the command line itself: --help of every command (exit
# 0, its usage generated from its option table), usage errors (exit 1,
# "dnnmem CMD: what (try 'dnnmem CMD --help')"), option values checked.
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
IV=$data/cover_chain.csv
GR=$data/place_chain.graph.csv
# every command: the operand it needs, and the options its usage must list
while read -r cmd operand options; do
  expect "$cmd --help" 0 "^usage: dnnmem $cmd \[options\] $operand" "$D" $cmd --help
  "$D" $cmd --help >"$tmp/help" 2>&1
  for o in $options --json --help; do
    grep -qE -- "^  $o( |$)" "$tmp/help" && ok "$cmd --help lists $o" || bad "$cmd --help lists $o"
  done
  expect "$cmd -h" 0 "^usage: dnnmem $cmd " "$D" $cmd -h
  expect "$cmd: no $operand" 1 "^dnnmem $cmd: missing $operand \(try 'dnnmem $cmd --help'\)" "$D" $cmd
  expect "$cmd: unknown option" 1 "^dnnmem $cmd: unknown option '--bogus' \(try" "$D" $cmd --bogus x
  expect "$cmd: two operands" 1 "^dnnmem $cmd: one $operand only" "$D" $cmd x y
  expect "$cmd: --json takes no value" 1 "unknown option '--json=1'" "$D" $cmd --json=1 x
done <<'EOF'
flow FILE.max --algo
cover FILE --out
plan FILE --algo --align --time-limit --nodes --capacity --out --svg
share FILE --algo --out
remat GRAPH --budget --budget-ratio --curve --time-limit --iterations --seed --max-length --no-contraction --baselines --bound --bound-cuts --out
layout LAYOUT --machine --at --dump
place GRAPH --per-edge --algo --out
EOF

# option values: CMD ARGS... | what the message says (ERE)
while IFS='|' read -r args want; do
  # shellcheck disable=SC2086
  expect "usage error: $(trim "$args")" 1 "^dnnmem [a-z]+: $(trim "$want").* \(try 'dnnmem [a-z]+ --help'\)\$" "$D" $args
done <<EOF
plan --algo magic $IV            | unknown --algo 'magic'
plan --out - $IV                 | --out -: standard output carries the summary
plan --svg - $IV                 | --svg -: standard output carries the summary
remat --budget 1 --out - $GR     | --out -: standard output carries the summary
plan --align 3 $IV               | --align must be a power of two
plan --align 0 $IV               | --align must be positive
plan --align x $IV               | --align: 'x' is not an integer
plan --nodes -3 $IV              | --nodes must be positive
plan --capacity 0 $IV            | --capacity must be positive
plan --time-limit abc $IV        | --time-limit: 'abc' is not a number
plan --time-limit 0 $IV          | --time-limit must be positive
plan --svg                       | --svg needs a value \(F\)
share --algo magic $IV           | unknown --algo 'magic'
cover --out                      | --out needs a value
flow --algo xx $data/flow_clrs.max | unknown --algo 'xx' \(bk or pr\)
place --algo xx $GR              | unknown --algo 'xx'
place --per-edge=1 $GR           | --per-edge takes no value
remat --budget -1 $GR            | --budget must be >= 0
remat --budget-ratio x $GR       | --budget-ratio: 'x' is not a number
remat --budget-ratio -0.5 $GR    | --budget-ratio must be positive
remat --budget 1 --budget-ratio 0.5 $GR | give --budget or --budget-ratio, not both
remat --curve --budget 5 $GR     | --curve takes no budget
remat --out $tmp/seq $GR         | --out, --bound and --baselines need --budget
remat --bound $GR                | --out, --bound and --baselines need
remat --bound-cuts 0 --budget 9 $GR | --bound-cuts must be in 1..2147483647
remat --max-length 0 --budget 9 $GR | --max-length must be in 1..268435456
remat --max-length 2 --budget 9 $GR | --max-length 2 is below the 5 nodes
remat --seed x --budget 9 $GR    | --seed: 'x' is not an integer
layout --at x ((8:1))            | --at 'x': expected integers
layout ((8:1)) --at              | --at needs a value
layout --at 1;2 ((8:1))          | --at '1;2': expected integers
EOF

# --flag=VALUE is the same as --flag VALUE
expect "--flag=VALUE" 0 '"algo": "naive"' "$D" plan --algo=naive --json "$IV"
# the tool itself
expect "no command" 1 "^usage: dnnmem <command>" "$D"
expect "unknown command" 1 "unknown command 'frobnicate'" "$D" frobnicate
expect "dnnmem --help" 0 "^usage: dnnmem <command>" "$D" --help
expect "dnnmem --help lists every command" 0 "remat .*recomputation" "$D" --help
expect "dnnmem --version" 0 "^dnnmem [0-9]+\.[0-9]+\.[0-9]+" "$D" --version
# the manual's first line names the version the header defines
v=$("$D" --version | sed -n 's/^dnnmem \([0-9.]*\).*/\1/p')
check "the manual's first line is version $v" "$(sed -n 's/^ *dnnmem\.h - v\([0-9.]*\) - .*/\1/p' "$here/../dnnmem.h" | head -1)" "$v"

cli_finish cli_usage
[ "$fail" = 0 ]
