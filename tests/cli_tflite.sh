#!/usr/bin/env bash
# examples/tflite_to_graph.py (.tflite -> the intervals CSV of TensorFlow
# Lite Micro's planned buffers) on small models built here with the
# flatbuffers Builder (Debian python3-flatbuffers; skipped without it):
# every row checked by hand against its allocator's rules (constants,
# variables, empty tensors and omitted inputs left out; scopes of a plain
# graph and of an IF's two subgraphs; a subgraph never called at [-1, -1];
# offline-planned offsets as fixed offsets; dynamic dimensions noted, a
# placeholder past the batch warned about), then plan --algo greedy-tflm
# and best read the result (greedy-tflm's offsets worked by hand with its
# rule; these expected rows and offsets were also checked against its own
# GreedyMemoryPlanner built from its source, outside make test). Then the
# committed fixtures of tests/data/tflite (make_fixtures.py writes them):
# weights past the flatbuffer or in an external file, tensors no operator
# uses, WHILE / CALL_ONCE / resource variables, and broken files. Bad files
# exit 2 with "FILE: what" and no traceback; misuse 1.
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp
need_python cli_tflite flatbuffers python3-flatbuffers
"$PY" - "$t" "$data/tflite" <<'PYEOF'
import struct, sys
import flatbuffers
out = sys.argv[1]
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[2])
from make_fixtures import vec_i32, vec_off  # the committed fixtures' vectors

# field numbers of the published schema (schema.fbs), as the reader uses them

def tensor(b, shape, ttype, buf, variable=False, signature=None):
    sh = vec_i32(b, shape)
    sig = vec_i32(b, signature) if signature else None
    b.StartObject(8)
    b.PrependUOffsetTRelativeSlot(0, sh, 0)
    if sig:
        b.PrependUOffsetTRelativeSlot(7, sig, 0)
    b.PrependInt8Slot(1, ttype, 0)
    b.PrependUint32Slot(2, buf, 0)
    b.PrependBoolSlot(5, variable, False)
    return b.EndObject()

def operator(b, code, ins, outs, options=None):
    i, o = vec_i32(b, ins), vec_i32(b, outs)
    b.StartObject(5)
    b.PrependUint32Slot(0, code, 0)
    b.PrependUOffsetTRelativeSlot(1, i, 0)
    b.PrependUOffsetTRelativeSlot(2, o, 0)
    if options:
        b.PrependUint8Slot(3, options[0], 0)
        b.PrependUOffsetTRelativeSlot(4, options[1], 0)
    return b.EndObject()

def two_ints(b, x, y):  # IfOptions / WhileOptions
    b.StartObject(2)
    b.PrependInt32Slot(0, x, 0)
    b.PrependInt32Slot(1, y, 0)
    return b.EndObject()

def subgraph(b, tensors, ins, outs, ops):
    t = vec_off(b, [tensor(b, *x) for x in tensors])
    o = vec_off(b, [operator(b, *x) for x in ops])
    i, u = vec_i32(b, ins), vec_i32(b, outs)
    b.StartObject(4)
    b.PrependUOffsetTRelativeSlot(0, t, 0)
    b.PrependUOffsetTRelativeSlot(1, i, 0)
    b.PrependUOffsetTRelativeSlot(2, u, 0)
    b.PrependUOffsetTRelativeSlot(3, o, 0)
    return b.EndObject()

def model(path, codes, subgraphs, buffers, version=3, metadata=None, ident=b"TFL3"):
    b = flatbuffers.Builder(1024)
    cs = []
    for c in codes:
        b.StartObject(4)
        b.PrependInt8Slot(0, min(c, 127), 0)
        b.PrependInt32Slot(3, c, 0)
        cs.append(b.EndObject())
    sgs = [subgraph(b, *s) if not callable(s) else s(b) for s in subgraphs]
    bufs = []
    for data in buffers:
        d = b.CreateByteVector(data) if data else None
        b.StartObject(1)
        if d:
            b.PrependUOffsetTRelativeSlot(0, d, 0)
        bufs.append(b.EndObject())
    metas = []
    for name, buf in metadata or []:
        n = b.CreateString(name)
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(0, n, 0)
        b.PrependUint32Slot(1, buf, 0)
        metas.append(b.EndObject())
    c, s, u = vec_off(b, cs), vec_off(b, sgs), vec_off(b, bufs)
    m = vec_off(b, metas) if metadata else None
    b.StartObject(7)
    b.PrependUint32Slot(0, version, 0)
    b.PrependUOffsetTRelativeSlot(1, c, 0)
    b.PrependUOffsetTRelativeSlot(2, s, 0)
    b.PrependUOffsetTRelativeSlot(4, u, 0)
    if m:
        b.PrependUOffsetTRelativeSlot(6, m, 0)
    b.Finish(b.EndObject(), file_identifier=ident)
    open(path, "wb").write(b.Output())

F32, I8, BOOL, STRING = 0, 9, 6, 5
FC, RELU, ADD, RESHAPE, IF, WHILE = 9, 19, 0, 22, 118, 119
weights = bytes(64)
# a plain graph: x -> FC(w) -> y -> RELU -> z; ADD(z, y, state) -> s; RESHAPE -> out
plain_tensors = [([1, 4], F32, 0), ([4, 4], F32, 1), ([1, 4], F32, 0), ([1, 3], I8, 0),
                 ([1, 8], F32, 0, True), ([1, 5], F32, 0), ([5], F32, 0), ([0], F32, 0)]
plain_ops = [(0, [0, 1, -1], [2]), (1, [2], [3]), (2, [3, 2, 4, 7], [5]), (3, [5], [6])]
plain = (plain_tensors, [0], [6], plain_ops)
model(out + "/plain.tflite", [FC, RELU, ADD, RESHAPE], [plain], [b"", weights])
offsets = [64, -1, -1, -1, 128, -1, -1, -1]
meta = struct.pack("<%di" % (3 + len(offsets)), 0, 0, len(offsets), *offsets)
model(out + "/offline.tflite", [FC, RELU, ADD, RESHAPE], [plain], [b"", weights, meta],
      metadata=[("OfflineMemoryAllocation", 2)])
# IF: subgraph 0 calls 1 (then) and 2 (else); subgraph 3 is never called
main = lambda b: subgraph(b, [([1], BOOL, 0), ([4], F32, 0), ([4], F32, 0)], [0, 1], [2],
                          [(0, [0, 1], [2], (92, two_ints(b, 1, 2)))])
then = ([([4], F32, 0), ([4], F32, 0)], [0], [1], [(1, [0, 0], [1])])
other = ([([4], F32, 0), ([4], F32, 0), ([4], F32, 0)], [0], [2], [(2, [0], [1]), (2, [1], [2])])
unused = ([([2], F32, 0)], [], [], [])
model(out + "/if.tflite", [IF, ADD, RELU], [main, then, other, unused], [b""])
# bad ones
model(out + "/v2.tflite", [FC, RELU, ADD, RESHAPE], [plain], [b"", weights], version=2)
model(out + "/ident.tflite", [FC, RELU, ADD, RESHAPE], [plain], [b"", weights], ident=b"TFL2")
loop = lambda b: subgraph(b, [([4], F32, 0)], [0], [0], [(0, [0], [0], (93, two_ints(b, 0, 0)))])
model(out + "/loop.tflite", [WHILE], [loop], [b""])
model(out + "/string.tflite", [RELU], [([([4], STRING, 0), ([4], F32, 0)], [0], [1], [(0, [0], [1])])], [b""])
model(out + "/dynamic.tflite", [RELU], [([([-1, 4], F32, 0), ([4], F32, 0)], [0], [1], [(0, [0], [1])])], [b""])
model(out + "/noopts.tflite", [IF], [([([4], F32, 0)], [0], [0], [(0, [0], [0])])], [b""])
model(out + "/range.tflite", [RELU], [([([4], F32, 0)], [0], [0], [(0, [0], [5])])], [b""])
# dynamic dimensions (shape_signature -1) at the exporter's placeholder
# sizes: openWakeWord's melspectrogram.tflite has [1, 1] for [-1, -1]
model(out + "/dynsig.tflite", [RELU], [([([1, 1], F32, 0, False, [-1, -1]), ([1, 1], F32, 0, False, [-1, -1])], [0], [1],
                                        [(0, [0], [1])])], [b""])
model(out + "/batchsig.tflite", [RELU], [([([1, 4], F32, 0, False, [-1, 4]), ([1, 4], F32, 0, False, [-1, 4])], [0], [1],
                                          [(0, [0], [1])])], [b""])
# an audio model's samples: rank 1, [1] for [-1] (a length, not a batch)
model(out + "/audio1d.tflite", [RELU], [([([1], F32, 0, False, [-1]), ([1], F32, 0, False, [-1])], [0], [1],
                                         [(0, [0], [1])])], [b""])
data = open(out + "/plain.tflite", "rb").read()
open(out + "/half.tflite", "wb").write(data[:len(data) // 2])
open(out + "/short.tflite", "wb").write(data[:6])
open(out + "/text.tflite", "wb").write(b"this is not a model, only some text\n" * 3)
open(out + "/model.onnx", "wb").write(b"\x08\x07\x12\x07pytorch\x1a\x061.13.0" + bytes(40))  # ModelProto's first fields
import zipfile
with zipfile.ZipFile(out + "/bundle.task", "w") as z:
    z.write(out + "/plain.tflite", "plain.tflite")
# MediaPipe's own pose_landmarker_full.task starts with two zero bytes before
# its first entry; a .tflite with metadata has its associated files (labels)
# as a zip appended after the flatbuffer, and is a model
zipped = open(out + "/bundle.task", "rb").read()
open(out + "/padded.task", "wb").write(b"\0\0" + zipped)
open(out + "/labels.tflite", "wb").write(data + zipped)
PYEOF
C=examples/tflite_to_graph.py
rows() { grep -v '^#' "$1" | tr '\n' ';'; }
if "$PY" $C -o "$t/plain.csv" "$t/plain.tflite"; then ok "converts a plain graph"; else bad "converts a plain graph"; fi
# x [0,1], y [1,3], z [2,3] (3 bytes -> 16), s [3,4] (20 -> 32), out [4,4]; w constant, state variable, empty left out
check "plain: rows" "$(rows "$t/plain.csv")" \
  "id,lower,upper,size,tensor;0,0,2,16,0:0;1,1,4,16,0:2;2,2,4,16,0:3;3,3,5,32,0:5;4,4,5,32,0:6;"
# greedy-tflm: 32s last-added first (4 at 0, 3 at 32), then 16s: 2 at 0, 1 at 16, 0 at 0
expect "greedy-tflm plans it" 0 '"n": 5, "algo": "greedy-tflm", "arena": 64, "lower_bound": 64' \
  $D plan --algo greedy-tflm --json --out "$t/plain.out.csv" "$t/plain.csv"
check "greedy-tflm: its offsets" "$(grep -v '^#' "$t/plain.out.csv" | awk -F, 'NR>1{printf "%s ", $NF}')" "0 16 0 32 0 "
expect "best plans it" 0 '"n": 5, .*"arena": 64' $D plan --json "$t/plain.csv"
check "its header: counts, singular and plural" "$(sed -n 2p "$t/plain.csv")" \
  "# 1 subgraph, 8 tensors, 5 planned buffers"
"$PY" $C -o "$t/labels.csv" "$t/labels.tflite"
check "a .tflite with associated files appended (a zip): converts as the model" "$(rows "$t/labels.csv")" \
  "$(rows "$t/plain.csv")"
expect "- with a bad model: <stdin> named, as the ONNX converter and the tool name it" 2 \
  '^<stdin>: not a flatbuffer' sh -c "printf 'not a model at all' | \"$PY\" $C -"
expect "stdout without -o, - for stdin" 0 '^1,1,4,16,0:2$' sh -c "\"$PY\" $C - <\"$t/plain.tflite\""

"$PY" $C -o "$t/offline.csv" "$t/offline.tflite"
check "offline offsets: the offset column, the variable kept" "$(rows "$t/offline.csv")" \
  "id,lower,upper,size,offset,tensor;0,0,2,16,64,0:0;1,1,4,16,,0:2;2,2,4,16,,0:3;3,-1,4,32,128,0:4;4,3,5,32,,0:5;5,4,5,32,,0:6;"
expect "greedy-tflm keeps them" 0 '"n": 6, "algo": "greedy-tflm", "arena": 160' \
  $D plan --algo greedy-tflm --json --out "$t/offline.out.csv" "$t/offline.csv"
check "greedy-tflm: offline first, then around them" \
  "$(grep -v '^#' "$t/offline.out.csv" | awk -F, 'NR>1{printf "%s ", $5}')" "64 16 0 128 32 0 "

"$PY" $C -o "$t/if.csv" "$t/if.tflite"
# scopes: inputs 0; IF's op 1; then-subgraph entered at 2 (its op 3), else at 4 (ops 5, 6)
check "IF: both subgraphs inside its scope, the unused one at [-1, -1]" "$(rows "$t/if.csv")" \
  "id,lower,upper,size,tensor;0,0,7,16,0:0;1,0,7,16,0:1;2,1,7,16,0:2;3,2,4,16,1:0;4,3,4,16,1:1;5,4,6,16,2:0;6,5,7,16,2:1;7,6,7,16,2:2;8,-1,0,16,3:0;"
expect "IF: the subgraph never invoked noted" 0 \
  '^# 1 buffer \(16 bytes\) no operator it runs reads or writes \(tensor 3:0 first\)' cat "$t/if.csv"
expect "IF: plan reads it" 0 '"n": 9, .*"arena": 80' $D plan --algo greedy-tflm --json "$t/if.csv"

# dynamic dimensions: sized as the file gives them (as TensorFlow Lite Micro
# does), noted; past the batch a placeholder: a warning on stderr too
"$PY" $C -o "$t/dynsig.csv" "$t/dynsig.tflite" 2>"$t/dynsig.err"
check "dynamic past the batch: rows at the file's shape" \
  "$(grep -v '^#' "$t/dynsig.csv" | tr '\n' ';')" "id,lower,upper,size,tensor;0,0,2,16,0:0;1,1,2,16,0:1;"
check "dynamic past the batch: a warning naming the tensor" \
  "$(grep -c "^$t/dynsig.tflite: warning: 2 tensors have a dynamic dimension other than a leading batch axis \
(tensor 0:0: shape \[1, 1\], shape_signature \[-1, -1\])" "$t/dynsig.err")" 1
expect "dynamic past the batch: noted in the file" 0 \
  '^# warning: 2 tensors have a dynamic dimension other than a leading batch axis' cat "$t/dynsig.csv"
"$PY" $C -o "$t/audio1d.csv" "$t/audio1d.tflite" 2>"$t/audio1d.err"
check "a rank-1 [-1] (a length, not a batch): a warning" \
  "$(grep -c "^$t/audio1d.tflite: warning: 2 tensors have a dynamic dimension other than a leading batch axis \
(tensor 0:0: shape \[1\], shape_signature \[-1\])" "$t/audio1d.err")" 1
"$PY" $C -o "$t/batchsig.csv" "$t/batchsig.tflite" 2>"$t/batchsig.err"
check "a dynamic batch: no warning" "$(wc -c <"$t/batchsig.err" | tr -d ' ')" 0
expect "a dynamic batch: noted" 0 \
  '^# 2 tensors have a dynamic dimension \(-1 in shape_signature\), sized as the file.s shape gives them.*tensor 0:0: \[1, 4\] for \[-1, 4\]' cat "$t/batchsig.csv"

"$PY" -c 'import struct, runpy, sys
def boom(*a, **k): raise RuntimeError("first line\nsecond line")
struct.unpack_from = boom
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")' $C "$t/plain.tflite" >/dev/null 2>"$t/bug.err"
check "a converter bug: FILE: unexpected ..., its first line only" "$(cat "$t/bug.err")" \
  "$t/plain.tflite: unexpected RuntimeError: first line (a converter bug: please report it with the model)"
expect "--help" 0 'usage: tflite_to_graph.py' "$PY" $C --help
expect "no model" 1 'usage:' "$PY" $C
expect "unknown option" 1 'unknown option --fast' "$PY" $C --fast "$t/plain.tflite"
expect "-o without a file" 1 '-o needs a file' "$PY" $C "$t/plain.tflite" -o
expect "a missing file" 2 "nope.tflite: No such file" "$PY" $C "$t/nope.tflite"
while IFS='|' read -r name file want; do
  expect "$name" 2 "^$t/$file: $want" "$PY" $C "$t/$file"
  if grep -q Traceback "$tmp/expect.out"; then bad "$name: a traceback"; fi
done <<EOF
too short|short.tflite|not a flatbuffer: 6 bytes, too short
not a flatbuffer|text.tflite|not a flatbuffer: the root offset [0-9]+ is outside the file
truncated|half.tflite|truncated or corrupt
wrong identifier|ident.tflite|not a TensorFlow Lite model: file identifier 'TFL2', expected 'TFL3'
schema version|v2.tflite|schema version 2, this reader knows 3
a subgraph calling itself|loop.tflite|subgraph 0 invokes itself \(recursion through 0 -> 0\): not supported
a control-flow op without its options|noopts.tflite|subgraph 0 operator 0: a control-flow operator without IfOptions
a type its allocator refuses|string.tflite|subgraph 0 tensor 0: type STRING
a dynamic shape|dynamic.tflite|subgraph 0 tensor 0: dimension -1 \(dynamic\)
a tensor index out of range|range.tflite|subgraph 0: operator 0 output: tensor 5 out of range
an ONNX model|model.onnx|not a TensorFlow Lite model \(no 'TFL3' identifier; it starts like a protobuf: an ONNX model\? convert it with examples/onnx_to_graph.py\)
a zip archive (a MediaPipe .task)|bundle.task|a zip archive, not a .tflite \(a MediaPipe .task bundle\? unzip it
a zip after two zero bytes (MediaPipe's pose_landmarker_full.task)|padded.task|a zip archive, not a .tflite
EOF
# the committed fixtures (tests/data/tflite/make_fixtures.py writes them):
# constructs of published models and broken files
T=$data/tflite
# weights TensorFlow Lite reads from past the flatbuffer or from another
# file: TensorFlow Lite Micro reads only buffer->data(), so it plans them as
# arena buffers, read but never written: [-1, last use]
"$PY" $C -o "$t/offset.csv" "$T/offset.tflite" 2>"$t/offset.err"
check "a weight past the flatbuffer (Buffer.offset/size): an arena buffer from -1, as its allocator plans it" \
  "$(rows "$t/offset.csv")" "id,lower,upper,size,tensor;0,0,2,16,0:0;1,-1,2,64,0:1;2,1,2,16,0:2;"
expect "a weight past the flatbuffer: greedy-tflm plans all three" 0 '"n": 3, "algo": "greedy-tflm", "arena": 96' \
  $D plan --algo greedy-tflm --json "$t/offset.csv"
warn="TensorFlow Lite Micro reads constants only from inside the flatbuffer, so it plans it as an arena buffer, as \
here, and the model would compute on uninitialised weights there; it runs on TensorFlow Lite (LiteRT), not on \
TensorFlow Lite Micro$"
check "a weight past the flatbuffer: one warning naming it" "$(grep -c "^$T/offset.tflite: warning: 1 constant tensor \
(tensor 0:1 first) has its data stored past the flatbuffer (Buffer.offset/size, as converters write models over 2 GB): \
$warn" "$t/offset.err")/$(wc -l <"$t/offset.err" | tr -d ' ')" 1/1
check "a weight past the flatbuffer: the warning in the file" \
  "$(grep -c "^# warning: 1 constant tensor (tensor 0:1 first) has its data stored past" "$t/offset.csv")" 1
# its row is read but never written (-1 to its last use): not one no operator uses
check "a weight past the flatbuffer: not noted as a tensor no operator uses" \
  "$(grep -c 'no operator it runs reads or writes' "$t/offset.csv")" 0
"$PY" $C -o "$t/external.csv" "$T/external.tflite" 2>"$t/external.err"
check "a weight in an external file (Tensor.external_buffer): an arena buffer" "$(rows "$t/external.csv")" \
  "id,lower,upper,size,tensor;0,0,2,16,0:0;1,-1,2,64,0:1;2,1,2,16,0:2;"
check "a weight in an external file: a warning" "$(grep -c "^$T/external.tflite: warning: 1 constant tensor \
(tensor 0:1 first) has its data in an external file (Tensor.external_buffer): $warn" "$t/external.err")" 1
"$PY" $C -o "$t/two.csv" "$T/two_warnings.tflite" 2>"$t/two.err"
check "a weight past the flatbuffer and one in an external file: both warned about, in order" \
  "$(sed 's/ has its data \([a-z]*\) .*/ \1/' "$t/two.err" | tr '\n' ';')" \
  "$T/two_warnings.tflite: warning: 1 constant tensor (tensor 0:1 first) stored;\
$T/two_warnings.tflite: warning: 1 constant tensor (tensor 0:2 first) in;"
check "two warnings: both in the file" "$(grep -c '^# warning: 1 constant tensor' "$t/two.csv")" 2
# TensorFlow Lite reads past the flatbuffer only at an offset > 1 (0 and 1:
# none) with a size > 0, never for buffer 0, and buffer->data() first
for f in offset_one offset_empty buf0_offset stale_off; do
  "$PY" $C -o "$t/$f.csv" "$T/$f.tflite" 2>"$t/$f.err"
  check "$f: no warning" "$(wc -c <"$t/$f.err" | tr -d ' ')" 0
done
check "offset 1 (none): a buffer, no warning" "$(rows "$t/offset_one.csv")" "$(rows "$t/offset.csv")"
check "size 0 past the flatbuffer: a buffer, no warning" "$(rows "$t/offset_empty.csv")" "$(rows "$t/offset_one.csv")"
check "buffer 0 with an offset: activations stay buffers" "$(rows "$t/buf0_offset.csv")" \
  "id,lower,upper,size,tensor;0,0,2,16,0:0;1,1,2,16,0:2;"
check "offsets past the end on a buffer no tensor reads it past the flatbuffer: converts" "$(rows "$t/stale_off.csv")" \
  "id,lower,upper,size,tensor;0,0,2,16,0:0;1,1,2,16,0:2;"
"$PY" $C -o "$t/unused.csv" "$T/unused.tflite"
check "tensors no operator uses (an Edge TPU model's): at [-1, -1], as its allocator plans them" \
  "$(rows "$t/unused.csv")" \
  "id,lower,upper,size,tensor;0,0,2,32,0:0;1,-1,0,256,0:1;2,-1,0,512,0:2;3,-1,0,128,0:3;4,1,2,32,0:4;"
expect "tensors no operator uses: noted with their bytes" 0 \
  '^# 3 buffers \(896 bytes\) no operator it runs reads or writes \(tensor 0:1 first\), live at once' \
  cat "$t/unused.csv"
expect "tensors no operator uses: the arena holds them all at once" 0 '"arena": 896, "lower_bound": 896' \
  $D plan --algo greedy-tflm --json "$t/unused.csv"
"$PY" $C -o "$t/while.csv" "$T/while.tflite"
# scopes: input 0; CALL_ONCE op 1, its init entered at 2 (VAR_HANDLE 3, ASSIGN 4); VAR_HANDLE 5,
# READ_VARIABLE 6; WHILE 7: cond entered at 8 (LESS 9), body at 10 (ADD 11); outputs 11
check "WHILE and CALL_ONCE: cond, body, init inside their scopes; resource handles 4 bytes" "$(rows "$t/while.csv")" \
  "id,lower,upper,size,tensor;0,0,12,16,0:0;1,5,7,16,0:1;2,6,12,16,0:2;3,7,12,16,0:3;4,8,10,16,1:0;5,8,9,16,1:1;\
6,9,10,16,1:3;7,10,12,16,2:0;8,10,12,16,2:1;9,11,12,16,2:2;10,3,5,16,3:0;"
expect "WHILE: greedy-tflm plans it" 0 '"n": 11, "algo": "greedy-tflm", "arena": 96, "lower_bound": 96' \
  $D plan --algo greedy-tflm --json "$t/while.csv"
"$PY" $C -o "$t/int_max.csv" "$T/int_max.tflite"
check "the largest tensor its planner takes (2^31 - 16 bytes): converts" "$(rows "$t/int_max.csv")" \
  "id,lower,upper,size,tensor;0,0,2,2147483632,0:0;1,1,2,2147483632,0:1;"
# under timeout 10: a walk that is not bounded fails here rather than hangs
"$PY" $C -o "$t/offline_neg_const.csv" "$T/offline_neg_const.tflite"
check "a negative offline offset on a constant (not planned): converts" "$(rows "$t/offline_neg_const.csv")" \
  "id,lower,upper,size,offset,tensor;0,0,2,16,,0:0;1,1,2,16,,0:2;"
"$PY" $C -o "$t/if_none.csv" "$T/if_none.tflite"
# scopes: inputs 0; IF 1; then entered at 2 (its op 3); no else entered
check "an IF with else_subgraph_index -1: then entered only, as its allocator does" "$(rows "$t/if_none.csv")" \
  "id,lower,upper,size,tensor;0,0,4,16,0:0;1,0,4,16,0:1;2,1,4,16,0:2;3,2,4,16,1:0;4,3,4,16,1:1;"
"$PY" $C -o "$t/rank470_zero.csv" "$T/rank470_zero.tflite"
check "470 dimensions, a 0 last: empty, not planned" "$(rows "$t/rank470_zero.csv")" \
  "id,lower,upper,size,tensor;0,1,2,16,0:1;"
"$PY" $C -o "$t/bigconst.csv" "$T/bigconst.tflite"
check "a constant of 2^30 float32 (4 GB): not planned, converts" "$(rows "$t/bigconst.csv")" \
  "id,lower,upper,size,tensor;0,0,2,16,0:0;1,1,2,16,0:2;"
while IFS='|' read -r name file want; do
  expect "$name" 2 "^$T/$file: $want" timeout 10 "$PY" $C "$T/$file"
  if grep -q Traceback "$tmp/expect.out"; then bad "$name: a traceback"; fi
done <<EOF
a buffer offset past the end|offset_past.tflite|subgraph 0 tensor 1: buffer 1: 64 bytes at byte 4448, past the end of the file \(416 bytes\)
0 bytes at an offset past the end|offset_past0.tflite|subgraph 0 tensor 1: buffer 1: 0 bytes at byte 4432, past the end of the file \(400 bytes\)
an external_buffer naming none|external_range.tflite|subgraph 0 tensor 1: external_buffer 1 names no ExternalBuffer
a cycle through subgraphs|cycle.tflite|subgraph 1 invokes itself \(recursion through 0 -> 1 -> 2 -> 1\): not supported
a huge dimension|huge.tflite|subgraph 0 tensor 0: shape \[2147483647, (2147483647, ){2}2147483647\], more than 2\^31 - 1 elements: past
470 dimensions of 2^31 - 1|rank470.tflite|subgraph 0 tensor 0: shape \[(2147483647, ){3}\.\.\.(, 2147483647){3}\] \(rank 470\), more than
IFs calling the next twice, 40 deep|fanout.tflite|subgraph 22 operator 0: more than 3000000 steps .*through 0 -> 1 -> 2 -> \.\.\. -> 20 -> 21 -> 22, each
2^16 walks of an operator reading 256 tensors|wide.tflite|subgraph 2 operator 0: more than 3000000 steps .*through 0 -> 1 -> 2,
2^16 walks of a subgraph with 128 inputs and outputs|wide_in.tflite|subgraph 2 operator 0: more than 3000000 steps
a non-empty intermediate in a subgraph never invoked|intermediate.tflite|subgraph 1 operator 0: intermediate tensor 2 has 16 bytes
one byte more (2^31 aligned)|int_past.tflite|subgraph 0 tensor 0: shape \[2147483633\], 2147483633 bytes, more than 2\^31 - 1 once rounded up to 16: past
a negative offline offset|offline_neg.tflite|OfflineMemoryAllocation: offset -5 for subgraph 0 tensor 0: negative
EOF
# 800 random corruptions of the small models and of the fixtures with
# control flow, offsets, external buffers, tensors no operator uses (bytes
# changed, cut short, words overwritten): each converts or is a BadFile,
# never another exception (under a timeout: never a hang either)
crashes=$(timeout 120 "$PY" - "$t" "$T" <<'PYEOF'
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("conv", "examples/tflite_to_graph.py")
conv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(conv)
seeds = [open(sys.argv[1] + "/" + f, "rb").read() for f in ("plain.tflite", "offline.tflite", "if.tflite")]
seeds += [open(sys.argv[2] + "/" + f, "rb").read() for f in ("while.tflite", "offset.tflite", "external.tflite",
                                                             "unused.tflite", "two_warnings.tflite")]
crashes = 0
for it in range(800):
    r = random.Random(it)
    d = bytearray(seeds[it % len(seeds)])
    for _ in range(r.randint(1, 6)):
        i = r.randrange(len(d))
        k = r.random()
        if k < 0.6:
            d[i] = r.randrange(256)
        elif k < 0.7:
            d = d[:max(i, 1)]
        else:
            d[i:i + 4] = bytes(r.randrange(256) for _ in range(4))
    try:
        conv.convert(bytes(d))
    except (conv.BadFile, RecursionError):
        pass
    except Exception as e:
        crashes += 1
        sys.stderr.write("mutant %d: %r\n" % (it, e))
print(crashes)
PYEOF
)
check "800 corrupted models: no exception but its messages" "$crashes" 0
cli_finish cli_tflite
