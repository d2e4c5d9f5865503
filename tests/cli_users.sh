#!/usr/bin/env bash
# tests/cli_users.sh: the tool takes what users have (issue 28): a graph CSV
# with only the columns a command reads, '-' for standard input in every
# file operand, sizes with units (8k, 8KiB, 8M), `best` naming the strategy
# that won, no progress lines unless asked for, and the cover's bound in words.
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
M=$data/mobilenet_v2.intervals.csv

# -- a graph CSV needs only the columns the command reads
printf 'id,size,time,inputs\n0,4096,1,\n1,8192,2,0\n2,4096,3,1\n3,1024,4,0 2\n' >"$tmp/min.graph.csv"
# row order: 0 held until 3 reads it; peak at step 2: 4096 + 8192 + 4096 = 16384
expect "remat reads id,size,time,inputs" 0 '"base_peak": 16384, "base_time": 10000' "$D" remat --budget 16384 --json "$tmp/min.graph.csv"
printf 'id,size,time,inputs,output\n0,4096,1,,0\n1,8192,2,0,1\n' >"$tmp/out.graph.csv"
expect "remat: output optional, read when present" 0 '"base_peak": 12288' "$D" remat --budget 20000 --json "$tmp/out.graph.csv"
printf 'id,size,inputs\n0,4096,\n1,8192,0\n' >"$tmp/notime.graph.csv"
expect "remat names the missing column and what it reads" 2 "notime.graph.csv:1: missing column 'time' \(remat reads id,size,time,inputs\)" "$D" remat --budget 1 "$tmp/notime.graph.csv"
expect "plan of a graph: id,size,inputs" 0 '"arena": 12288, "lower_bound": 12288' "$D" plan --json "$tmp/notime.graph.csv"
expect "share of a graph: id,size,inputs" 0 '"total": 12288' "$D" share --json "$tmp/notime.graph.csv"
expect "cover of a graph: id,size,inputs" 0 '"w": 1' "$D" cover --json "$tmp/notime.graph.csv"
printf 'id,time,inputs\n0,1,\n1,2,0\n' >"$tmp/nosize.graph.csv"
expect "plan names the missing size column" 2 "nosize.graph.csv:1: missing column 'size'" "$D" plan "$tmp/nosize.graph.csv"
expect "place names the missing cpu_time column" 2 "1: missing column 'cpu_time' \(place reads id,cpu_time,acc_time,xfer,inputs\)" "$D" place "$tmp/min.graph.csv"
printf 'id,cpu_time,acc_time,xfer,inputs\n0,10,1,5,\n1,10,1,5,0\n' >"$tmp/place.graph.csv"
# no device/op/output columns: both ops free; all on the accelerator costs 2 us
expect "place reads id,cpu_time,acc_time,xfer,inputs" 0 '"time": 2000,' "$D" place --json "$tmp/place.graph.csv"
expect "plan --inplace needs op" 2 "1: missing column 'op' \(plan --inplace reads" "$D" plan --inplace elementwise "$tmp/notime.graph.csv"
for c in remat place layoutplan; do
  expect "$c --help says which columns it reads" 0 "columns read: id" "$D" $c --help
done
"$D" plan --help | tr '\n' ' ' | grep -q "columns read: id,size,inputs" && ok "plan --help says which columns it reads" || bad "plan --help columns"

# -- '-' is standard input for every file operand
want=$("$D" plan --json "$M" | sed 's/"time_ms": [^,]*//')
got=$("$D" plan --json - <"$M" | sed 's/"time_ms": [^,]*//')
check "plan - reads standard input" "$got" "$want"
expect "share -" 0 '"n": 154' sh -c "\"$D\" share --json - <\"$M\""
expect "cover -" 0 '"groups"' sh -c "\"$D\" cover --json - <\"$M\""
expect "remat -" 0 '"base_peak": 16384' sh -c "\"$D\" remat --budget 16384 --json - <\"$tmp/min.graph.csv\""
expect "place -" 0 '"time": 2000,' sh -c "\"$D\" place --json - <\"$tmp/place.graph.csv\""
expect "flow -" 0 '"flow": 23' sh -c "\"$D\" flow --json - <\"$data/flow_clrs.max\""
expect "layout - reads the layout text" 0 'PE=3 address 13' sh -c "echo '((3:8, 4_PE), (8:1))' | \"$D\" layout - --at 7,5"
expect "layoutplan --candidates -" 0 '"n": 105' sh -c "\"$D\" layoutplan --json --candidates - \"$data/gpt_mini.graph.csv\" <\"$data/gpt_mini.layouts.txt\""
expect "layoutplan: one of GRAPH and F from stdin" 1 "not both" "$D" layoutplan --candidates - -
expect "stdin errors are named <stdin>:LINE" 2 '^<stdin>:3: size: negative' sh -c "printf 'id,lower,upper,size\n0,0,2,4\n1,1,3,-4\n' | \"$D\" plan -"
expect "empty stdin" 2 '^<stdin>:1: empty file' sh -c "\"$D\" plan - </dev/null"

# -- sizes with units (powers of 1024)
printf 'id,lower,upper,size\n0,0,2,8k\n1,1,3,8K\n2,2,4,8KiB\n3,3,5,1M\n' >"$tmp/units.csv"
# 8192 each, then 1M live with 8192 at step 3: 1048576 + 8192
expect "sizes 8k, 8K, 8KiB, 1M in an intervals CSV" 0 '"arena": 1056768, "lower_bound": 1056768' "$D" plan --json "$tmp/units.csv"
printf 'id,size,time,inputs\n0,1M,1,\n1,2M,1,0\n' >"$tmp/units.graph.csv"
expect "sizes with units in a graph CSV" 0 '"base_peak": 3145728' "$D" remat --budget 3M --json "$tmp/units.graph.csv"
expect "--budget 3M" 0 '"budget": 3145728' "$D" remat --budget 3M --json "$tmp/units.graph.csv"
expect "--capacity 1056768 as 1032K" 0 '"capacity": 1056768, "feasible": true' "$D" plan --capacity 1032K --json "$tmp/units.csv"
expect "--pool sram=1M" 0 '"name": "sram", "capacity": 1048576' "$D" plan --pool sram=1M:1 --pool dram=0:10 --json "$tmp/units.csv"
expect "--align 1k" 0 '"arena": 1056768' "$D" plan --align 1k --json "$tmp/units.csv"
printf 'id,lower,upper,size\n0,0,2,8X\n' >"$tmp/badunit.csv"
expect "an unknown unit is refused with the units" 2 "badunit.csv:2: size: '8X' is not an integer .*8k = 8K = 8KiB = 8192" "$D" share "$tmp/badunit.csv"
expect "a unit past int64" 2 "in the int64 range" sh -c "printf 'id,lower,upper,size\n0,0,2,9000000000000T\n' | \"$D\" plan -"
expect "--budget 3X refused" 1 "'3X' is not an integer number of bytes" "$D" remat --budget 3X "$tmp/units.graph.csv"

# -- best names the strategy that won; other strategies are named as asked
expect "plan best: JSON algo best and won_by" 0 '"algo": "best", "won_by": "pathcover"' "$D" plan --json "$M"
expect "plan best: text" 0 'best \(won by pathcover\)' "$D" plan --algo best "$M"
"$D" plan --algo greedy-size --json "$M" >"$tmp/gs.json"
grep -q '"algo": "greedy-size"' "$tmp/gs.json" && ! grep -q won_by "$tmp/gs.json" && ok "plan greedy-size: no won_by" || bad "plan greedy-size: $(cat "$tmp/gs.json")"
expect "share best: won_by" 0 '"algo": "best", "won_by": "greedy-size-improved"' "$D" share --json "$M"
expect "pools best: won_by" 0 '"algo": "best", "won_by": "improve"' "$D" plan --pool sram=1M:1 --pool dram=0:10 --json "$M"

# -- progress: nothing on a non-terminal stderr unless --progress
"$D" remat --budget-ratio 0.5 --time-limit 2.3 "$data/resnet18.train.graph.csv" >"$tmp/p.out" 2>"$tmp/p.err"
[ ! -s "$tmp/p.err" ] && grep -q feasible "$tmp/p.out" && ok "no progress lines when stderr is not a terminal" || bad "progress: $(cat "$tmp/p.err")"
"$D" remat --budget-ratio 0.5 --time-limit 2.3 --progress "$data/resnet18.train.graph.csv" >"$tmp/p.out" 2>"$tmp/p.err"
grep -q '^dnnmem remat: [0-9]*% of 2.3 s$' "$tmp/p.err" && ! grep -q 'dnnmem remat' "$tmp/p.out" && ok "--progress: lines on stderr only" || bad "--progress: $(cat "$tmp/p.err")"

# -- the cover's bound says what it means
"$D" cover "$data/resnet18.graph.csv" >"$tmp/cover.txt"
tr '\n' ' ' <"$tmp/cover.txt" | grep -q "W = 2 paths cover every edge; LeapMind's bound: the pathcover plan's arena 6422528 <= 2 x W x the largest tensor (3211264) = 12845056 bytes" && ok "cover: the W bound in words" || bad "cover: $(cat "$tmp/cover.txt")"

cli_finish cli_users
[ "$fail" = 0 ]
