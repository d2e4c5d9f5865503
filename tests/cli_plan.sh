#!/usr/bin/env bash
# Command-line tests of 'dnnmem plan' and 'dnnmem share': JSON fields,
# --out and --svg, exit codes 1 (usage) and 2 (bad input, FILE:LINE:).
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp

M=tests/data/mobilenet_v2.intervals.csv
expect "plan best on mobilenet_v2 reaches the bound" 0 '"optimal": true' $D plan --json $M
expect "plan JSON has every field" 0 '"n": 154, "algo": "[a-z-]+", "arena": [0-9]+, "lower_bound": [0-9]+, "optimal": (true|false), "time_ms"' $D plan --json $M
for a in naive greedy-size greedy-breadth sorted-height pathcover bestfit; do
  expect "plan --algo $a" 0 "\"algo\": \"$a\"" $D plan --algo $a --json $M
done
printf 'id,lower,upper,size\n' >"$t/chain.csv"
for i in 0 1 2 3 4 5 6 7; do echo "$i,$i,$((i + 2)),100" >>"$t/chain.csv"; done
expect "pathcover alternates on the chain" 0 '"arena": 200' $D plan --algo pathcover --json "$t/chain.csv"
expect "sorted-height staircases on the chain" 0 '"arena": 800' $D plan --algo sorted-height --json "$t/chain.csv"
expect "--out writes offsets" 0 '' $D plan --algo pathcover --out "$t/o.csv" "$t/chain.csv"
if [ "$(sed -n 2p "$t/o.csv")" = "0,0,2,100,0" ] && [ "$(sed -n 3p "$t/o.csv")" = "1,1,3,100,100" ]; then ok "--out rows"; else bad "--out rows"; head -3 "$t/o.csv"; fi
expect "--svg writes a picture" 0 '' $D plan --svg "$t/p.svg" $M
if grep -q '<svg' "$t/p.svg" && [ "$(grep -c '<rect' "$t/p.svg")" -ge 155 ]; then ok "svg has a rectangle per record"; else bad "svg content"; fi
expect "--align 256" 0 '"arena"' $D plan --align 256 --json $M
printf '# a graph\nid,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs\n0,x,input,64,0,0,inf,cpu,1,0,\n1,a,relu,64,1,1,1,any,1,0,0\n2,b,relu,64,1,1,1,any,1,1,1\n' >"$t/g.csv"
expect "plan reads a graph CSV" 0 '"n": 3, .*"arena": 128' $D plan --json "$t/g.csv"
expect "share JSON" 0 '"n": 154, "algo": "[a-z-]+", "objects": [0-9]+, "total": [0-9]+, "lower_bound": [0-9]+' $D share --json $M
for a in greedy-size greedy-size-improved greedy-breadth greedy-order; do
  expect "share --algo $a" 0 "\"algo\": \"$a\"" $D share --algo $a --json $M
done
expect "share --out" 0 '' $D share --out "$t/s.csv" "$t/chain.csv"
if [ "$(sed -n 1p "$t/s.csv")" = "id,lower,upper,size,object" ]; then ok "share --out header"; else bad "share --out header"; fi

# minimalloc's gaps column, a UTF-8 byte order mark, an underflowing time
printf 'id,lower,upper,size,gaps\n0,0,10,100,2-5 6-8@0:50\n1,3,7,100,\n' >"$t/gaps.csv"
expect "gaps are read (idle and windowed)" 0 '"arena": 200, "lower_bound": 200' $D plan --json "$t/gaps.csv"
printf 'id,lower,upper,size,gaps\n0,0,10,100,2-x\n' >"$t/badgap.csv"
expect "malformed gap" 2 "badgap.csv:2: gap '2-x'" $D plan "$t/badgap.csv"
printf '\xef\xbb\xbfid,lower,upper,size\n0,0,2,5\n' >"$t/bom.csv"
expect "byte order mark skipped" 0 '"arena": 5' $D plan --json "$t/bom.csv"
printf '# g\nid,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs\n0,x,input,8,1e-400,0,inf,cpu,1,0,\n' >"$t/tiny.csv"
expect "underflowing time reads as 0" 0 '"n": 1' $D plan --json "$t/tiny.csv"

# bad input: exit 2 with FILE:LINE
printf 'id,lower,upper,size\n0,0,2,10\n1,1,3,-4\n' >"$t/neg.csv"
expect "negative size" 2 "neg.csv:3: " $D plan "$t/neg.csv"
printf 'id,lower,upper,size\n0,5,5,10\n' >"$t/empty.csv"
expect "upper <= lower" 2 "empty.csv:2: .*upper <= lower" $D plan "$t/empty.csv"
printf 'id,lower,upper,size\n0,0,2,ten\n' >"$t/nan.csv"
expect "not a number" 2 "nan.csv:2: size: 'ten' is not an integer" $D plan "$t/nan.csv"
printf 'id,lower,size\n0,0,10\n' >"$t/col.csv"
expect "missing column" 2 "col.csv:1: missing column 'upper'" $D plan "$t/col.csv"
printf 'id,lower,upper,size\n7,0,2,10\n7,1,3,10\n' >"$t/dup.csv"
expect "duplicate id" 2 "dup.csv:3: duplicate id '7'" $D plan "$t/dup.csv"
printf 'id,lower,upper,size\n,0,2,10\n' >"$t/noid.csv"
expect "missing id" 2 "noid.csv:2: missing id" $D plan "$t/noid.csv"
printf 'id,lower,upper,size\n0,0,2,9223372036854775807\n1,1,3,9223372036854775807\n' >"$t/big.csv"
expect "sizes overflow" 2 "big.csv: integer overflow" $D plan "$t/big.csv"
printf 'id,lower,upper,size,alignment\n0,0,2,10,3\n' >"$t/al.csv"
expect "alignment not a power of two" 2 "al.csv:2: alignment" $D plan "$t/al.csv"
printf 'id,lower,upper,size,offset\n0,0,4,10,0\n1,1,3,10,5\n' >"$t/fix.csv"
expect "fixed offsets collide" 2 "fix.csv: fixed offsets collide" $D plan "$t/fix.csv"
printf 'id,lower,upper,size\n0,0,2,10,5\n' >"$t/fields.csv"
expect "extra field" 2 "fields.csv:2: 5 fields, the header has 4" $D plan "$t/fields.csv"
expect "missing file" 2 "nosuch.csv: cannot open" $D plan "$t/nosuch.csv"
expect "unknown algo" 1 "unknown --algo" $D plan --algo magic $M
expect "unknown option" 1 "unknown option" $D plan --frobnicate $M
expect "no file" 1 "missing FILE" $D plan
expect "bad --align" 1 "power of two" $D plan --align 3 $M
expect "share unknown algo" 1 "unknown --algo" $D share --algo magic $M
expect "plan --help" 0 "usage: dnnmem plan" $D plan --help
expect "unknown command" 1 "unknown command" $D frobnicate

cli_finish cli_plan