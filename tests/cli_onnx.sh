#!/usr/bin/env bash
# examples/onnx_to_graph.py (ONNX model -> graph CSV) where a python3 with
# the onnx package (Debian python3-onnx) is present; skipped otherwise. A
# small model built here with onnx.helper: every row checked by hand
# (shape inference, the op classes, initializers and constants left out),
# then plan and place read the result; bad inputs exit 2, misuse 1.
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp
PY=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import onnx' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
  echo "skipped: no python3 with the onnx package (apt-get install python3-onnx)"
  cli_finish cli_onnx
  exit 0
fi
"$PY" - "$t/tiny.onnx" <<'PYEOF'
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 8, 8])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
w = numpy_helper.from_array(np.zeros((4, 3, 3, 3), np.float32), "w")
m = numpy_helper.from_array(np.zeros((256, 10), np.float32), "m")
shape = numpy_helper.from_array(np.array([0, -1], np.int64), "shape")
nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c"], ["r"]),
         helper.make_node("Add", ["r", "c"], ["s"]),
         helper.make_node("Reshape", ["s", "shape"], ["f"]),
         helper.make_node("MatMul", ["f", "m"], ["y"])]
g = helper.make_graph(nodes, "tiny", [x], [y], [w, m, shape])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
PYEOF
C=examples/onnx_to_graph.py
if "$PY" $C --dim batch=2 -o "$t/tiny.csv" "$t/tiny.onnx" && [ -s "$t/tiny.csv" ]; then ok "converts with --dim"; else bad "converts with --dim"; fi
check "rows: id,name,op,size,device,output,inputs" \
  "$(tail -n +4 "$t/tiny.csv" | cut -d, -f1-4,8,10,11 | tr '\n' ';')" \
  "0,x,input,1536,cpu,0,;1,c,conv,2048,acc,0,0;2,r,relu,2048,any,0,1;3,s,add,2048,any,0,1 2;4,f,reshape,2048,cpu,0,3;5,y,matmul,80,acc,1,4;"
check "conv: memory-bound, 4016 bytes at 200 GB/s + 10 us dispatch" "$(sed -n 5p "$t/tiny.csv" | cut -d, -f7)" "10.020"
check "reshape: no accelerator time" "$(sed -n 8p "$t/tiny.csv" | cut -d, -f7)" "inf"
expect "plan reads it" 0 '"n": 6, .*"arena": 6144, "lower_bound": 6144, "optimal": true' $D plan --json "$t/tiny.csv"
expect "place reads it" 0 '"n": 6, .*"time": [0-9]+' $D place --json "$t/tiny.csv"
expect "a symbolic dimension without --dim" 2 "tiny.onnx: value 'x': dimension 'batch' is not known: give it with --dim batch=VALUE" \
  "$PY" $C "$t/tiny.onnx"
printf 'not onnx' >"$t/bad.onnx"
expect "not an ONNX file" 2 'bad.onnx: not a readable ONNX model' "$PY" $C "$t/bad.onnx"
expect "--dim malformed" 2 'expected NAME=VALUE' "$PY" $C --dim batch "$t/tiny.onnx"
cli_finish cli_onnx
