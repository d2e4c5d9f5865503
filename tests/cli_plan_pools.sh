#!/usr/bin/env bash
# Command-line tests of 'dnnmem plan --pool': the least-cost plan over pools
# (JSON cost, pools [{name, capacity, cost, arena, bytes}], --out's 'pool'
# column, the SVG's panels), the 'pools' column (preference order, unknown
# names), a record too large for the only pool it may use, usage errors,
# proven infeasibility and its conflict set, plain plan unchanged without
# --pool, and reuse and alias links across pools (in place in SRAM, a view
# kept with its base).
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp
# the two pools most cases use: SRAM (150 or 100 bytes, cost 1) beside
# unbounded DRAM (cost 10); unquoted where used (two options each)
SRAM150="--pool sram=150:1 --pool dram=0:10"
SRAM100="--pool sram=100:1 --pool dram=0:10"

# three 100-byte records in a row under a 50-byte one: 250 bytes live at
# steps 1 and 2, SRAM holds 150: the middle record goes to DRAM, 1250
printf 'id,lower,upper,size\na,0,2,100\nb,1,3,100\nc,2,4,100\nd,0,4,50\n' >"$t/peak.csv"
expect "two pools: the optimum, proven by the bound" 0 \
  '"feasible": true, "cost": 1250, "arena": 250, "lower_bound": 1250, "optimal": true, .*"stop": "proved"' \
  $D plan $SRAM150 --json "$t/peak.csv"
expect "JSON pools with arenas and bytes" 0 \
  '"pools": \[\{"name": "sram", "capacity": 150, "cost": 1, "arena": 150, "bytes": 250\}, \{"name": "dram", "capacity": 0, "cost": 10, "arena": 100, "bytes": 100\}\]' \
  $D plan $SRAM150 --json "$t/peak.csv"
for algo in greedy improve exact; do
  expect "--algo $algo" 0 "\"algo\": \"[a-z]+\", \"feasible\": true, \"cost\": 1250" \
    $D plan $SRAM150 --algo $algo --json "$t/peak.csv"
done
$D plan $SRAM150 --out "$t/out.csv" --svg "$t/out.svg" "$t/peak.csv" >/dev/null
check "--out adds offset and pool" "$(head -1 "$t/out.csv")" "id,lower,upper,size,offset,pool"
check "--out: b in dram" "$(grep '^b,' "$t/out.csv" | cut -d, -f6)" "dram"
check "--out: the others in sram" "$(grep -c ',sram$' "$t/out.csv")" "3"
check "the SVG has a panel per pool" "$(grep -c '<text[^>]*>pool ' "$t/out.svg")" "2"
expect "text names each pool" 0 'pool sram: arena 150 of 150, 250 bytes' $D plan $SRAM150 "$t/peak.csv"
expect "cost defaults to 1" 0 '"pools": \[\{"name": "a", "capacity": 0, "cost": 1,' $D plan --pool a=0 --json "$t/peak.csv"

# the pools column: b may only use dram, c prefers dram but may use sram
printf 'id,lower,upper,size,pools\na,0,2,100,\nb,1,3,100,dram\nc,2,4,100,dram sram\nd,0,4,50,sram\n' >"$t/col.csv"
expect "the pools column" 0 '"cost": 1250' $D plan $SRAM150 --json "$t/col.csv"
printf 'id,lower,upper,size,pools\na,0,2,100,\nb,1,3,100,sram\nc,2,4,100,sram\nd,0,4,50,sram\n' >"$t/onlysram.csv"
expect "only sram where it cannot all fit: proven infeasible (exit 0)" 0 '"feasible": false' \
  $D plan $SRAM150 --json "$t/onlysram.csv"
expect "every pool bounded below the load: proven infeasible" 0 'no plan exists \(proven\)' \
  $D plan --pool sram=90:1 --pool dram=100:10 "$t/peak.csv"
# why not: the three records live together at step 2 alone overflow both pools
printf 'id,lower,upper,size\na,0,2,40\nb,1,3,100\nc,1,4,100\nd,2,5,100\ne,4,6,150\n' >"$t/why.csv"
expect "a conflict set over pools (JSON)" 0 '"feasible": false.*"conflict": \["b", "c", "d"\], "conflict_minimal": true' \
  $D plan --pool sram=150:1 --pool dram=100:10 --json "$t/why.csv"
expect "a conflict set over pools (text)" 0 'conflict: 3 records that alone cannot fit the pools \(minimal' \
  $D plan --pool sram=150:1 --pool dram=100:10 "$t/why.csv"
if $D plan $SRAM150 --json "$t/why.csv" | grep -q '"conflict"'; then bad "no conflict when a plan exists"
else ok "no conflict when a plan exists"; fi

# links: an in-place chain fits a 100-byte SRAM only with both ties
printf 'id,lower,upper,size,reuse,alias\nx,0,2,100,,\nrelu,1,3,100,x,\nsig,2,4,100,relu,\n' >"$t/chain.csv"
expect "in place in SRAM: proven by the links-aware bound" 0 \
  '"cost": 300, "arena": 100, "lower_bound": 300, "optimal": true.*"links": 2, "reused": \[\["relu", "x"\], \["sig", "relu"\]\]' \
  $D plan $SRAM100 --json "$t/chain.csv"
expect "the text counts the links used" 0 'in place: 2 of 2 reuse links used' \
  $D plan $SRAM100 "$t/chain.csv"
# a view barred from SRAM takes its base to DRAM (one class, one pool)
printf 'id,lower,upper,size,alias,pools\nbase,0,3,100,,\nview,1,4,100,base,dram\n' >"$t/view.csv"
expect "a view and its base share a pool" 0 '"cost": 2000, .*"optimal": true' \
  $D plan $SRAM100 --json "$t/view.csv"
$D plan $SRAM100 --out "$t/view_out.csv" "$t/view.csv" >/dev/null
check "--out: both in dram at one offset" "$(cut -d, -f7,8 "$t/view_out.csv" | tail -2 | sort -u)" "0,dram"
G=tests/data/resnet18.graph.csv
if [ -f $G ]; then
  arena=$($D plan --json $G | sed -n 's/.*"arena": \([0-9]*\).*/\1/p')
  plain=$($D plan --pool sram=$((arena / 2)):1 --pool dram=0:10 --json $G | sed -n 's/.*"feasible": true, "cost": \([0-9]*\).*/\1/p')
  inpl=$($D plan --pool sram=$((arena / 2)):1 --pool dram=0:10 --inplace elementwise --json $G | sed -n 's/.*"feasible": true, "cost": \([0-9]*\).*/\1/p')
  if [ -n "$plain" ] && [ -n "$inpl" ] && [ "$inpl" -lt "$plain" ]; then ok "resnet18 in place costs less over pools: $inpl < $plain"
  else bad "resnet18 in place over pools ($inpl vs $plain)"; fi
fi

bad_files <<'CASES'
view and base apart    | csv | plan --pool sram=150:1 --pool dram=0:10 | 3: record 'v' must share the offset of 'b' \(alias\), but no pool both may use takes them | id,lower,upper,size,alias,pools\nb,0,2,100,,sram\nv,1,3,100,b,dram\n
view's pool too small  | csv | plan --pool sram=150:1 --pool dram=64:10 | 3: record 'v' must share the offset of 'b' | id,lower,upper,size,alias,pools\nb,0,2,100,,\nv,1,3,50,b,dram\n
unknown pool name      | csv | plan --pool sram=150:1 --pool dram=0:10 | 3: unknown pool 'hbm'           | id,lower,upper,size,pools\na,0,2,100,\nb,1,3,100,hbm\n
pool listed twice      | csv | plan --pool sram=150:1 --pool dram=0:10 | 2: pool 'sram' listed twice      | id,lower,upper,size,pools\na,0,2,100,sram sram\n
too large for its pool | csv | plan --pool sram=90:1 --pool dram=0:10  | 3: record 'b' \(100 bytes\) fits none of its pools \(sram 90\) | id,lower,upper,size,pools\na,0,2,10,\nb,1,3,100,sram\n
too large for all      | csv | plan --pool sram=90:1 --pool dram=64:10 | 2: record 'a' \(100 bytes\) fits none of its pools \(sram 90, dram 64\) | id,lower,upper,size\na,0,2,100\n
fixed beyond the pool  | csv | plan --pool sram=128:1                  | 2: record 'a' \(64 bytes, fixed offset\) fits none | id,lower,upper,size,offset\na,0,2,64,96\n
CASES

expect "--pool without capacity is a usage error" 1 'expected NAME=CAPACITY' $D plan --pool sram "$t/peak.csv"
expect "a negative cost is a usage error" 1 'negative cost' $D plan --pool sram=10:-1 "$t/peak.csv"
expect "a pool named twice is a usage error" 1 'named twice' $D plan --pool s=10 --pool s=20 "$t/peak.csv"
expect "--capacity with --pool is a usage error" 1 'capacity' $D plan --pool s=10 --capacity 5 "$t/peak.csv"
expect "an unknown --algo with --pool" 1 'unknown --algo' $D plan --pool s=0 --algo bestfit "$t/peak.csv"

# without --pool nothing changes (the pools column is ignored)
check "plain plan unchanged by a pools column" "$($D plan --json "$t/col.csv" | sed 's/"time_ms": [^,]*,//')" \
  "$($D plan --json "$t/peak.csv" | sed 's/"time_ms": [^,]*,//')"

# a real model: SRAM at half the single-arena optimum, every plan checked by the tool
M=tests/data/gpt_mini.graph.csv
if [ -f $M ]; then
  arena=$($D plan --json $M | sed -n 's/.*"arena": \([0-9]*\).*/\1/p')
  expect "gpt_mini: SRAM of half the arena, DRAM x10" 0 '"feasible": true, "cost": [0-9]+' \
    $D plan --pool sram=$((arena / 2)):1 --pool dram=0:10 --json $M
fi
cli_finish cli_plan_pools
