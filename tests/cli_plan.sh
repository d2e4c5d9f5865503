#!/usr/bin/env bash
# Command-line tests of 'dnnmem plan' and 'dnnmem share': JSON fields,
# --out and --svg, exit codes 1 (usage) and 2 (bad input, FILE:LINE:).
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp

M=tests/data/mobilenet_v2.intervals.csv
expect "plan best on mobilenet_v2 reaches the bound" 0 '"optimal": true' $D plan --json $M
expect "plan JSON has every field" 0 '"n": 154, "algo": "best", "won_by": "[a-z-]+", "arena": [0-9]+, "lower_bound": [0-9]+, "optimal": (true|false), "time_ms"' $D plan --json $M
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
expect "share JSON" 0 '"n": 154, "algo": "best", "won_by": "[a-z-]+", "objects": [0-9]+, "total": [0-9]+, "lower_bound": [0-9]+' $D share --json $M
for a in greedy-size greedy-size-improved greedy-breadth greedy-order; do
  expect "share --algo $a" 0 "\"algo\": \"$a\"" $D share --algo $a --json $M
done
expect "share --out" 0 '' $D share --out "$t/s.csv" "$t/chain.csv"
if [ "$(sed -n 1p "$t/s.csv")" = "id,lower,upper,size,object" ]; then ok "share --out header"; else bad "share --out header"; fi

cli_finish cli_plan