#!/usr/bin/env bash
# tests/cli_remat.sh: the remat command (binary in $DNNMEM): one schedule
# within a budget (JSON fields, --out, determinism, --bound, --baselines,
# --time-limit) and, without a budget, the trade-off curve.
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
G=$data/resnet18.train.graph.csv
out=$tmp/out
f() { field "$1" "$out"; }

"$D" remat "$G" --budget-ratio 0.6 --iterations 100000 --out "$tmp/seq" --json >"$out" 2>"$tmp/err"
check "--budget-ratio 0.6 exit 0" $? 0
missing=""
for k in n base_peak peak budget base_time time overhead feasible time_ms lower_bound length \
  recomputations moves moves_per_second checkpoint_peak checkpoint_time; do
  grep -q "\"$k\": " "$out" || missing="$missing $k"
done
check "JSON has every field" "$missing" ""
check "n" "$(f n)" 317
check "60% budget feasible" "$(f feasible)" true
peak=$(f peak); budget=$(f budget); base=$(f base_peak)
[ "$peak" -le "$budget" ] && [ $((budget * 10)) -le $((base * 6)) ] && [ $((budget * 10 + 10)) -ge $((base * 6)) ] &&
  ok "peak <= budget = 0.6 base" || bad "peak $peak budget $budget base $base"
check "--out writes one id per step" "$(wc -l <"$tmp/seq")" "$(f length)"
check "--out computes every node" "$(sort -un "$tmp/seq" | wc -l)" 317
"$D" remat "$G" --budget-ratio 0.6 --iterations 100000 --out "$tmp/seq2" --json >/dev/null 2>&1
cmp -s "$tmp/seq" "$tmp/seq2" && ok "same seed, same sequence" || bad "not deterministic"

# --bound: a lower bound of the extra time, below what was found
"$D" remat "$G" --budget-ratio 0.6 --iterations 100000 --bound --json >"$out" 2>/dev/null
lbx=$(f extra_time_lower_bound); t=$(f time); bt=$(f base_time)
[ -n "$lbx" ] && [ "$lbx" -gt 0 ] && [ "$lbx" -le $((t - bt)) ] && ok "--bound: 0 < $lbx <= extra time $((t - bt))" || bad "--bound: $(cat "$out")"
grep -q '"overhead_lower_bound": ' "$out" && ok "--bound: overhead_lower_bound" || bad "--bound: no overhead_lower_bound"
"$D" remat "$G" --budget 100000000000 --iterations 2000 --bound-cuts 4 --json >"$out" 2>/dev/null
check "--bound-cuts: 0 when the row order fits" "$(f extra_time_lower_bound)" 0

# a generous budget: the row order, no extra time; --baselines
"$D" remat "$G" --budget 100000000000 --iterations 20000 --baselines --json >"$out" 2>/dev/null
check "generous budget keeps base time" "$(f time) $(f feasible)" "$(f base_time) true"
grep -q '"reorder_peak": ' "$out" && ok "--baselines: reorder_peak" || bad "--baselines: $(cat "$out")"

# budget below the lower bound: feasible false, a message
"$D" remat "$G" --budget 1000 --iterations 20000 --json >"$out" 2>"$tmp/err"
[ "$(f feasible)" = false ] && grep -q "lower bound" "$tmp/err" && ok "budget below the lower bound: feasible false" || bad "tiny budget: $(cat "$out" "$tmp/err")"

# --time-limit stops in time
start=$(date +%s%N)
"$D" remat "$G" --budget-ratio 0.4 --time-limit 0.5 --json >"$out" 2>/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 5000 ] && grep -q '"peak"' "$out" && ok "--time-limit 0.5 returns ($ms ms)" || bad "--time-limit took $ms ms"

# no budget: the curve from 1.0 x the base peak down to the lower bound
"$D" remat "$G" --iterations 20000 --json >"$out" 2>"$tmp/err"
check "curve exit 0" $? 0
check "curve one line of JSON" "$(wc -l <"$out")" 1
for k in n base_peak base_time lower_bound curve time_ms; do
  grep -q "\"$k\": " "$out" && ok "curve JSON $k" || bad "curve JSON lacks $k"
done
points=$(grep -o '{"ratio": [^}]*}' "$out")
check "curve points: 1.0 .. 0.4 and the bound" "$(echo "$points" | wc -l)" 8
check "curve starts at the base peak" "$(echo "$points" | head -1 | sed 's/.*"budget": \([0-9]*\).*/\1/')" "$(f base_peak)"
check "curve ends at the lower bound" "$(echo "$points" | tail -1 | sed 's/.*"budget": \([0-9]*\).*/\1/')" "$(f lower_bound)"
echo "$points" | awk '{ match($0, /"budget": [0-9]+/); b = substr($0, RSTART + 10, RLENGTH - 10)
  match($0, /"peak": [0-9]+/); p = substr($0, RSTART + 8, RLENGTH - 8)
  if ($0 ~ /"feasible": true/ && p + 0 > b + 0) exit 1
  if (prev != "" && b + 0 >= prev + 0) exit 1; prev = b }' && ok "curve: budgets fall, feasible peaks fit" || bad "curve points: $points"
echo "$points" | grep -q '"time": [0-9]*, "overhead": [0-9.e-]*, "feasible": \(true\|false\)' && ok "curve point fields" || bad "curve point fields"
"$D" remat "$G" --curve --iterations 20000 --json >"$tmp/out2" 2>/dev/null
cmp -s "$out" "$tmp/out2" || [ "$(sed 's/"time_ms": [^}]*//' "$out")" = "$(sed 's/"time_ms": [^}]*//' "$tmp/out2")" ] && ok "--curve is the default" || bad "--curve differs"
"$D" remat "$G" --iterations 20000 >"$out" 2>&1
grep -qE '^ratio +budget +peak +time +overhead feasible$' "$out" && [ "$(grep -c '% \(yes\|no\)$' "$out")" = 8 ] && grep -q '^bound  *154141184 ' "$out" && ok "curve text table" || bad "curve text: $(cat "$out")"
# default: time-capped, a few seconds for the whole curve
start=$(date +%s%N)
"$D" remat "$data/gpt_mini.train.graph.csv" --json >"$out" 2>/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 10000 ] && grep -q '"curve": \[{"ratio": 1, ' "$out" && ok "default curve in $ms ms" || bad "default curve took $ms ms: $(head -c 300 "$out")"

cli_finish cli_remat
[ "$fail" = 0 ]
