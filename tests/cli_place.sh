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

# ---- several devices (--devices, --link): the labeling engine ----
# place3.graph.csv, worked by hand: x (input, cpu) -> conv1 -> relu -> conv2
# (output); conv on the npu 5 us, relu on the gpu 2 us; gpu <-> npu costs
# 1 us + 1000 B at 1 GB/s = 2 us, every other pair the xfer column (10 us):
# 5 + 2 + 5 + 10 (x to npu) + 2 + 2 + 10 (the output back) = 36 us.
p3="$data/place3.graph.csv"
"$DNNMEM" place --devices cpu,gpu,npu --link gpu-npu=1:1 --json --out "$tmp/p3.csv" "$p3" >"$tmp/p3.json" 2>"$tmp/err"
check "3 devices exit 0" $? 0
check "3 devices time" "$(field time "$tmp/p3.json")" 36000
check "3 devices lower_bound" "$(field lower_bound "$tmp/p3.json")" 36000
check "3 devices optimal" "$(field optimal "$tmp/p3.json")" true
check "3 devices greedy_time (all on cpu, the first device)" "$(field greedy_time "$tmp/p3.json")" 210000
check "3 devices greedy_op_time" "$(field greedy_op_time "$tmp/p3.json")" 36000
check "3 devices unit" "$(field unit "$tmp/p3.json")" '"ns"'
grep -q '"single_time": {"cpu": 210000, "gpu": 62000, "npu": 60000}' "$tmp/p3.json" && ok "3 devices single_time" || bad "3 devices single_time"
check "3 devices one line" "$(wc -l <"$tmp/p3.json")" 1
check "3 devices out devices" "$(tail -n +2 "$tmp/p3.csv" | cut -d, -f8 | tr '\n' ' ')" "cpu npu gpu npu "
# priority order npu,gpu,cpu: greedy takes the npu where it can, then the
# gpu (x stays on the cpu): here that is the optimum
"$DNNMEM" place --devices npu,gpu,cpu --link gpu-npu=1:1 --json "$p3" >"$tmp/p3b.json" 2>"$tmp/err"
check "priority npu,gpu,cpu greedy_time" "$(field greedy_time "$tmp/p3b.json")" 36000
check "priority npu,gpu,cpu time" "$(field time "$tmp/p3b.json")" 36000
# a slow link one way only: npu -> gpu 11 us + 1 us, gpu -> npu stays 2 us:
# relu then sits on the cpu (5 + 10 + 5 + 10 + 10 + 10 + 10 = 60) or all on
# the gpu (20 + 2 + 20 + 10 + 10 = 62) or npu, gpu, npu (12 + 10 + 12 + 2 + 10 = 46)
"$DNNMEM" place --devices cpu,gpu,npu --link gpu-npu=1:1 --link npu-gpu=11:1 --json "$p3" >"$tmp/p3c.json" 2>"$tmp/err"
check "one-way link time" "$(field time "$tmp/p3c.json")" 46000
"$DNNMEM" place --devices cpu,gpu,npu "$p3" >"$tmp/p3.txt" 2>&1
check "3 devices text exit 0" $? 0
grep -q "^lower bound " "$tmp/p3.txt" && grep -q "^greedy per op " "$tmp/p3.txt" && grep -q "^only npu " "$tmp/p3.txt" &&
  ok "3 devices text" || bad "3 devices text"
# a decomposed network over three devices (the bench's model would need
# time_ columns: here cpu_time twice and acc_time as the npu): recounted
awk -F, 'BEGIN{OFS=","} /^#/ {print; next} !h {h=1; print $0",time_cpu,time_gpu,time_npu"; next}
  {print $0","$6","$6","$7}' "$data/resnet18.dec.graph.csv" >"$tmp/r3.graph.csv"
"$DNNMEM" place --devices cpu,gpu,npu --json --out "$tmp/r3.csv" "$tmp/r3.graph.csv" >"$tmp/r3.json" 2>"$tmp/err"
check "resnet18.dec 3 devices exit 0" $? 0
t=$(field time "$tmp/r3.json"); lb=$(field lower_bound "$tmp/r3.json")
[ "$lb" -le "$t" ] && ok "resnet18.dec 3 devices bound <= time" || bad "resnet18.dec 3 devices bound > time"
for b in greedy_time greedy_op_time; do
  [ "$t" -le "$(field $b "$tmp/r3.json")" ] && ok "resnet18.dec 3 devices time <= $b" || bad "resnet18.dec 3 devices time > $b"
done
# cpu and gpu have the same times and links: the answer is the two-device optimum
check "resnet18.dec 3 devices = 2 devices" "$t" 4101263
# bad input: exit 2 with FILE:LINE
expect "unknown device in --link" 2 "^--link: unknown device 'tpu'" "$DNNMEM" place --devices cpu,gpu --link cpu-tpu=1:1 "$p3"
expect "missing time column" 2 "place3.graph.csv:3: missing column 'time_tpu'" "$DNNMEM" place --devices cpu,tpu "$p3"
printf 'id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs,time_cpu,time_gpu\n0,x,input,4,0,0,inf,cpu,1,0,,0,inf\n1,y,relu,4,1,1,1,any,1,0,0,inf,inf\n' >"$tmp/nowhere.graph.csv"
expect "op allowed nowhere" 2 "nowhere.graph.csv:3: op 'y' runs on none of the devices" "$DNNMEM" place --devices cpu,gpu "$tmp/nowhere.graph.csv"
expect "bad time cell" 2 "bad.graph.csv:2: time_gpu: 'x' is not a finite number" sh -c "sed 's/,0,inf\$/,0,x/' '$tmp/nowhere.graph.csv' >'$tmp/bad.graph.csv'; '$DNNMEM' place --devices cpu,gpu '$tmp/bad.graph.csv'"
expect "bad --link syntax" 1 "expected A-B=LATENCY_US:GB_PER_S" "$DNNMEM" place --devices cpu,gpu --link cpu-gpu "$p3"
expect "bad --link bandwidth" 1 "bandwidth must be GB/s > 0" "$DNNMEM" place --devices cpu,gpu --link cpu-gpu=1:0 "$p3"
expect "--devices twice a name" 1 "named twice" "$DNNMEM" place --devices cpu,cpu "$p3"
expect "--link without --devices" 1 "needs --devices" "$DNNMEM" place --link cpu-gpu=1:1 "$p3"
expect "--per-edge with --devices" 1 "two devices" "$DNNMEM" place --per-edge --devices cpu,gpu "$p3"

cli_finish cli_place
[ "$fail" = 0 ]
