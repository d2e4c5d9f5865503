#!/usr/bin/env bash
# tests/cli_remat.sh: the remat subcommand (binary in $DNNMEM).
set -u
D=${DNNMEM:-build/dnnmem}
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
G=tests/data/resnet18.train.graph.csv

# JSON fields; field value as text
field() { sed -E "s/.*\"$1\": ([^,}]*).*/\1/" "$tmp/out"; }

if "$D" remat "$G" --budget-ratio 0.6 --iterations 100000 --out "$tmp/seq" --json >"$tmp/out" 2>"$tmp/err"; then
  ok "remat --budget-ratio 0.6 exits 0"
else
  bad "remat --budget-ratio 0.6 exits 0"; cat "$tmp/err"
fi
missing=""
for f in n base_peak peak budget base_time time overhead feasible time_ms moves_per_second; do
  grep -q "\"$f\": " "$tmp/out" || missing="$missing $f"
done
[ -z "$missing" ] && ok "JSON has every field" || bad "JSON lacks:$missing"
[ "$(field n)" = 317 ] && ok "n = 317" || bad "n = $(field n)"
[ "$(field feasible)" = true ] && ok "60% budget feasible" || bad "60% budget not feasible: $(cat "$tmp/out")"
peak=$(field peak); budget=$(field budget); base=$(field base_peak)
[ "$peak" -le "$budget" ] && [ $((budget * 10)) -le $((base * 6)) ] && [ $((budget * 10 + 10)) -ge $((base * 6)) ] &&
  ok "peak <= budget = 0.6 base" || bad "peak $peak budget $budget base $base"
[ "$(wc -l <"$tmp/seq")" = "$(field length)" ] && ok "--out writes one id per step" || bad "--out has $(wc -l <"$tmp/seq") lines"
# every node appears in the sequence
[ "$(sort -un "$tmp/seq" | wc -l)" = 317 ] && ok "--out computes every node" || bad "--out misses nodes"

# deterministic for a seed
"$D" remat "$G" --budget-ratio 0.6 --iterations 100000 --out "$tmp/seq2" --json >/dev/null 2>&1
cmp -s "$tmp/seq" "$tmp/seq2" && ok "same seed, same sequence" || bad "not deterministic"

# --bound: a lower bound of the extra time, below what was found
"$D" remat "$G" --budget-ratio 0.6 --iterations 100000 --bound --json >"$tmp/out" 2>/dev/null
lbx=$(field extra_time_lower_bound); t=$(field time); bt=$(field base_time)
[ -n "$lbx" ] && [ "$lbx" -gt 0 ] && [ "$lbx" -le $((t - bt)) ] && ok "--bound: 0 < $lbx <= extra time $((t - bt))" || bad "--bound: $(cat "$tmp/out")"
"$D" remat "$G" --budget 100000000000 --iterations 2000 --bound --json >"$tmp/out" 2>/dev/null
[ "$(field extra_time_lower_bound)" = 0 ] && ok "--bound: 0 when the row order fits" || bad "--bound generous: $(cat "$tmp/out")"
"$D" remat "$G" --budget-ratio 0.6 --bound-cuts 0 >/dev/null 2>&1; [ $? = 1 ] && ok "--bound-cuts 0: exit 1" || bad "--bound-cuts 0: not exit 1"

# a generous budget: the row order, no extra time
"$D" remat "$G" --budget 100000000000 --iterations 20000 --json >"$tmp/out" 2>/dev/null
[ "$(field time)" = "$(field base_time)" ] && [ "$(field feasible)" = true ] && ok "generous budget keeps base time" || bad "generous budget: $(cat "$tmp/out")"

# budget below the lower bound: feasible false, a message
"$D" remat "$G" --budget 1000 --iterations 20000 --json >"$tmp/out" 2>"$tmp/err"
[ "$(field feasible)" = false ] && grep -q "lower bound" "$tmp/err" && ok "budget below the lower bound: feasible false" || bad "tiny budget: $(cat "$tmp/out" "$tmp/err")"

# --time-limit stops in time
start=$(date +%s%N)
"$D" remat "$G" --budget-ratio 0.4 --time-limit 0.5 --json >"$tmp/out" 2>/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 5000 ] && grep -q '"peak"' "$tmp/out" && ok "--time-limit 0.5 returns ($ms ms)" || bad "--time-limit took $ms ms"

# --curve
"$D" remat "$G" --curve --iterations 20000 --json >"$tmp/out" 2>/dev/null
[ "$(grep -o '"ratio"' "$tmp/out" | wc -l)" -ge 5 ] && ok "--curve lists budgets" || bad "--curve: $(cat "$tmp/out")"

# usage errors: exit 1
"$D" remat "$G" >/dev/null 2>&1; [ $? = 1 ] && ok "no budget: exit 1" || bad "no budget: not exit 1"
"$D" remat "$G" --budget-ratio x >/dev/null 2>&1; [ $? = 1 ] && ok "bad ratio: exit 1" || bad "bad ratio: not exit 1"
"$D" remat --budget 5 >/dev/null 2>&1; [ $? = 1 ] && ok "no graph: exit 1" || bad "no graph: not exit 1"
"$D" remat "$G" --budget 0 --budget-ratio 0.5 >/dev/null 2>&1; [ $? = 1 ] && ok "both budgets: exit 1" || bad "both budgets: not exit 1"
"$D" remat "$G" --budget 5 --frobnicate >/dev/null 2>&1; [ $? = 1 ] && ok "unknown option: exit 1" || bad "unknown option: not exit 1"
"$D" remat --help >/dev/null 2>&1; [ $? = 0 ] && ok "--help exits 0" || bad "--help"

# bad input: exit 2 with FILE:LINE:
H="id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs"
printf '%s\n0,a,input,4,1,1,1,any,0,0,\n1,b,relu,-4,1,1,1,any,0,1,0\n' "$H" >"$tmp/neg.csv"
"$D" remat "$tmp/neg.csv" --budget 10 --json >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "neg.csv:3:" "$tmp/err" && ok "negative size: exit 2 FILE:LINE" || bad "negative size: $(cat "$tmp/err")"
printf '%s\n0,a,input,4,1,1,1,any,0,0,\n1,b,relu,4,1,1,1,any,0,1,5\n' "$H" >"$tmp/id.csv"
"$D" remat "$tmp/id.csv" --budget 10 --json >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "id.csv:3:" "$tmp/err" && ok "unknown input id: exit 2 FILE:LINE" || bad "unknown id: $(cat "$tmp/err")"
printf '%s\n0,a,input,4,1,1,1,any,0,0,1\n1,b,relu,4,1,1,1,any,0,1,0\n' "$H" >"$tmp/cyc.csv"
"$D" remat "$tmp/cyc.csv" --budget 10 --json >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "cyc.csv:2:" "$tmp/err" && ok "cycle (forward input): exit 2 FILE:LINE" || bad "cycle: $(cat "$tmp/err")"
printf '%s\n0,a,input,4,-1,1,1,any,0,0,\n' "$H" >"$tmp/time.csv"
"$D" remat "$tmp/time.csv" --budget 10 --json >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "time.csv:2:" "$tmp/err" && ok "negative time: exit 2 FILE:LINE" || bad "negative time: $(cat "$tmp/err")"
"$D" remat "$tmp/nonexistent.csv" --budget 10 >/dev/null 2>&1; [ $? = 2 ] && ok "missing file: exit 2" || bad "missing file"

echo "cli_remat: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
