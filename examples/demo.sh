#!/usr/bin/env bash
# make demo: the main job of dnnmem.h on bundled real models.
set -eu
D=${1:-build/dnnmem}
out=build/demo
mkdir -p $out
json() { sed -E "s/.*\"$2\": \"?([^,\"}]*)\"?.*/\1/" <<<"$1"; }

echo "== Arena planning: mobilenet_v2 training graph (615 tensors, tests/data)"
F=tests/data/mobilenet_v2.train.intervals.csv
naive=$(json "$($D plan --algo naive --json $F)" arena)
printf '%-16s %14s %10s %10s %9s\n' strategy "arena (bytes)" "/ bound" "/ naive" "ms"
for a in naive greedy-size greedy-breadth sorted-height pathcover bestfit greedy-tflm best; do
  j=$($D plan --algo $a --json $F)
  arena=$(json "$j" arena)
  bound=$(json "$j" lower_bound)
  awk -v a="$a" -v x="$arena" -v b="$bound" -v n="$naive" -v t="$(json "$j" time_ms)" \
    'BEGIN { printf "%-16s %14s %10.4f %10.4f %9.2f\n", a, x, x / b, x / n, t }'
done
echo "lower bound (most bytes live at once): $bound"
echo
echo "== Inference graph mobilenet_v2 (154 tensors): best plan and its picture"
$D plan --svg $out/mobilenet_v2.svg tests/data/mobilenet_v2.intervals.csv
$D plan --algo sorted-height --svg $out/mobilenet_v2.sorted-height.svg tests/data/mobilenet_v2.intervals.csv
echo "wrote $out/mobilenet_v2.svg and $out/mobilenet_v2.sorted-height.svg (a heuristic above the bound, for contrast)"
echo
echo "== Shared objects (GPU textures), mobilenet_v2"
$D share tests/data/mobilenet_v2.intervals.csv
echo
echo "== Path-cover grouping and the W bound, resnet18 graph"
$D cover tests/data/resnet18.graph.csv
echo
echo "== TensorLayout: where does element (7,5) live?"
for l in '((4_PE, 3:8), (8:1))' '((3:8, 4_PE), (8:1))' '((2_PE:2, 6:4), (2_PE:1, 4:1))'; do
  printf '%-34s ' "$l"
  $D layout "$l" --at 7,5 | tail -1
done
printf '%-34s ' '(10,7)/((3:7, 4_PE), (7:1))'
$D layout '(10,7)/((3:7, 4_PE), (7:1))' --at 10,0 | tail -1
echo
echo "== CPU/accelerator placement by min cut: resnet18 decomposed graph (475 ops)"
j=$($D place --json tests/data/resnet18.dec.graph.csv)
awk -v t="$(json "$j" time)" -v a="$(json "$j" all_acc_time)" -v g="$(json "$j" greedy_time)" -v c="$(json "$j" all_cpu_time)" 'BEGIN {
  printf "all supported ops on the accelerator (onnx-mlir default) %9.3f ms\n", a / 1e6
  printf "each op on its faster device                             %9.3f ms\n", g / 1e6
  printf "all on the CPU where possible                            %9.3f ms\n", c / 1e6
  printf "min-cut optimum                                          %9.3f ms (%.1f%% below the default)\n", t / 1e6, 100 * (a - t) / a }'
echo
echo "== Recompute annealing: resnet18 training graph into half its peak"
$D remat --budget-ratio 0.5 --bound tests/data/resnet18.train.graph.csv
echo
echo "== ... and mobilenet_v2, where the bound proves 10% extra time impossible (5 s)"
$D remat --budget-ratio 0.5 --bound --time-limit 5 tests/data/mobilenet_v2.train.graph.csv 2>/dev/null
echo
echo "== ... and without a budget: the memory/time trade-off of gpt_mini (a few seconds)"
$D remat tests/data/gpt_mini.train.graph.csv
echo
echo "== Exact planning: minimalloc's instance C, proven optimal"
$D plan --algo exact tests/data/minimalloc_C.1048576.csv
