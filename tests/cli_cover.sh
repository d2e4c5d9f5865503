#!/usr/bin/env bash
# tests/cli_cover.sh: the `dnnmem cover` command's contract (JSON fields, --out,
# exit codes). The binary is $DNNMEM; run from the repository root or anywhere.
. "$(dirname "$0")/cli_lib.sh"
# intervals CSV: LeapMind's chain alternates between two groups
"$DNNMEM" cover --json "$data/cover_chain.csv" >"$tmp/chain.json" 2>"$tmp/err"
check "chain exit 0" $? 0
check "chain n" "$(field n "$tmp/chain.json")" 5
check "chain groups" "$(field groups "$tmp/chain.json")" 2
check "chain overlap_max" "$(field overlap_max "$tmp/chain.json")" 2
grep -q '"time_ms": ' "$tmp/chain.json" && ok "chain time_ms" || bad "chain time_ms"
check "chain one line of JSON" "$(wc -l <"$tmp/chain.json")" 1

# --out: the input rows plus a group column
"$DNNMEM" cover --out "$tmp/groups.csv" "$data/cover_chain.csv" >/dev/null 2>&1
check "out exit 0" $? 0
check "out header" "$(head -1 "$tmp/groups.csv")" "id,lower,upper,size,group"
check "out groups" "$(tail -n +2 "$tmp/groups.csv" | cut -d, -f5 | tr '\n' ' ')" "0 1 0 1 0 "

# graph CSV: groups == overlap_max on a real network
"$DNNMEM" cover --json "$data/resnet18.graph.csv" >"$tmp/g.json" 2>"$tmp/err"
check "graph exit 0" $? 0
check "graph n" "$(field n "$tmp/g.json")" 70
g=$(field groups "$tmp/g.json")
check "graph groups == overlap_max" "$g" "$(field overlap_max "$tmp/g.json")"

# graph CSV: W (LeapMind: 2 for ResNet) and the bound arena <= 2 W max_size
check "resnet18 w" "$(field w "$tmp/g.json")" 2
check "resnet18 max_size" "$(field max_size "$tmp/g.json")" 3211264
check "resnet18 bound" "$(field bound "$tmp/g.json")" $((2 * 2 * 3211264))
check "resnet18 bound_holds" "$(field bound_holds "$tmp/g.json")" true
a=$(field pathcover_arena "$tmp/g.json")
[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$a" -le $((4 * 3211264)) ] && ok "resnet18 pathcover_arena <= bound" || bad "resnet18 pathcover_arena ($a)"
"$DNNMEM" cover --json "$data/gpt_mini.graph.csv" >"$tmp/gm.json" 2>"$tmp/err"
check "gpt_mini exit 0" $? 0
check "gpt_mini w" "$(field w "$tmp/gm.json")" 4
check "gpt_mini bound_holds" "$(field bound_holds "$tmp/gm.json")" true
grep -q '"w"' "$tmp/chain.json" && bad "intervals have no w" || ok "intervals have no w"
"$DNNMEM" cover "$data/resnet18.graph.csv" >"$tmp/text" 2>&1
grep -q "W = 2" "$tmp/text" && ok "text output names W" || bad "text output names W"

"$DNNMEM" cover --out "$tmp/g.csv" "$data/resnet18.graph.csv" >/dev/null 2>&1
check "graph --out exit 0" $? 0
check "graph --out rows" "$(wc -l <"$tmp/g.csv")" 71
check "graph --out header" "$(head -1 "$tmp/g.csv")" "id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs,group"
check "graph --out groups used" "$(tail -n +2 "$tmp/g.csv" | awk -F, '{print $NF}' | sort -u | wc -l)" "$g"

cli_finish cli_cover
[ "$fail" = 0 ]
