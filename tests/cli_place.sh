#!/usr/bin/env bash
# tests/cli_place.sh: the `dnnmem place` command's contract (JSON fields,
# --out, --per-edge, exit codes), with the cost of the --out placement
# recounted here by awk from the graph CSV, independently of the tool.
. "$(dirname "$0")/cli_lib.sh"
# Total time in ns of the placement in an --out file (device column cpu/acc),
# by the issue's rules; $2 = 1 for the per-edge model.
recount() {
  awk -F, -v per_edge="$2" '
    function ns(s) { return int(s * 1000 + 0.5) }
    /^#/ { next }
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
    {
      v = $col["id"]; n = v + 1
      dev[v] = $col["device"]; cpu[v] = $col["cpu_time"]; acc[v] = $col["acc_time"]
      xf[v] = ns($col["xfer"]); out[v] = $col["output"]; ins[v] = $col["inputs"]
    }
    END {
      total = 0
      for (v = 0; v < n; v++) {
        t = dev[v] == "cpu" ? cpu[v] : acc[v]
        if (t == "inf") { print "infeasible"; exit }
        total += ns(t)
        k = split(ins[v], list, " ")
        delete seen
        for (j = 1; j <= k; j++) {
          u = list[j]
          if (u in seen) continue
          seen[u] = 1
          if (dev[u] != dev[v]) { if (per_edge) total += xf[u]; else other[u] = 1 }
        }
      }
      for (v = 0; v < n; v++) {
        if (out[v] == 1 && dev[v] == "acc") { if (per_edge) total += xf[v]; else other[v] = 1 }
        if (!per_edge && (v in other)) total += xf[v]
      }
      printf "%d\n", total
    }' "$1"
}

# onnx-mlir's chain: the element-wise ops stay on the accelerator
"$DNNMEM" place --json --out "$tmp/chain.csv" "$data/place_chain.graph.csv" >"$tmp/chain.json" 2>"$tmp/err"
check "chain exit 0" $? 0
check "chain n" "$(field n "$tmp/chain.json")" 5
check "chain time" "$(field time "$tmp/chain.json")" 20000
check "chain all_acc_time" "$(field all_acc_time "$tmp/chain.json")" 20000
check "chain greedy_time" "$(field greedy_time "$tmp/chain.json")" 24000
check "chain all_cpu_time" "$(field all_cpu_time "$tmp/chain.json")" 24000
check "chain cut (all ACC: no source arcs)" "$(field cut "$tmp/chain.json")" 0
grep -q '"time_ms": ' "$tmp/chain.json" && ok "chain time_ms" || bad "chain time_ms"
check "chain one line" "$(wc -l <"$tmp/chain.json")" 1
check "chain out header" "$(head -1 "$tmp/chain.csv")" "id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs"
check "chain out devices" "$(tail -n +2 "$tmp/chain.csv" | cut -d, -f8 | tr '\n' ' ')" "cpu acc acc acc acc "
check "chain recount" "$(recount "$tmp/chain.csv" 0)" 20000

# one value, three consumers: once per value, three times per edge
"$DNNMEM" place --json "$data/place_fan.graph.csv" >"$tmp/fan.json" 2>"$tmp/err"
check "fan per-value time" "$(field time "$tmp/fan.json")" 21000
check "fan per-value model" "$(field model "$tmp/fan.json")" '"per-value"'
"$DNNMEM" place --per-edge --json "$data/place_fan.graph.csv" >"$tmp/fan2.json" 2>"$tmp/err"
check "fan per-edge time" "$(field time "$tmp/fan2.json")" 27000
check "fan per-edge model" "$(field model "$tmp/fan2.json")" '"per-edge"'

# a real decomposed network: optimum recounted, below every baseline, and
# the same with both flow algorithms
for model in value edge; do
  opt=""; pe=0
  [ $model = edge ] && { opt=--per-edge; pe=1; }
  "$DNNMEM" place $opt --json --out "$tmp/r.csv" "$data/resnet18.dec.graph.csv" >"$tmp/r.json" 2>"$tmp/err"
  check "resnet18.dec per-$model exit 0" $? 0
  t=$(field time "$tmp/r.json")
  check "resnet18.dec per-$model recount" "$(recount "$tmp/r.csv" $pe)" "$t"
  for b in all_acc_time greedy_time all_cpu_time; do
    [ "$t" -le "$(field $b "$tmp/r.json")" ] && ok "resnet18.dec per-$model time <= $b" || bad "resnet18.dec per-$model time > $b"
  done
  "$DNNMEM" place $opt --algo pr --json "$data/resnet18.dec.graph.csv" >"$tmp/r2.json" 2>"$tmp/err"
  check "resnet18.dec per-$model bk == pr" "$(field time "$tmp/r2.json")" "$t"
done
"$DNNMEM" place --json "$data/resnet18.dec.graph.csv" >"$tmp/r.json" 2>"$tmp/err"
check "resnet18.dec n" "$(field n "$tmp/r.json")" 475
check "resnet18.dec time" "$(field time "$tmp/r.json")" 4101263
check "resnet18.dec all_acc_time" "$(field all_acc_time "$tmp/r.json")" 5440887
"$DNNMEM" place "$data/resnet18.dec.graph.csv" >"$tmp/text" 2>&1
check "text output exit 0" $? 0
grep -q "^optimum " "$tmp/text" && ok "text output" || bad "text output"

cli_finish cli_place
[ "$fail" = 0 ]
