#!/usr/bin/env bash
# examples/torch_to_graph.py (a PyTorch model's training step -> graph CSV)
# where a python3 with torch is present (Debian python3-torch 1.13; CI does
# not install it, a large download: skipped there). The user modules of
# tests/data/torch/tiny.py traced, every size by hand, then remat on the
# result with its sequence and arena recounted by tests/check_remat_plan.py;
# the cost model's options; each bad input exits 2 naming the file (a
# missing file, a factory that raises or returns no module, inputs the
# model refuses, a step the tracer cannot take on the meta device, no
# floating output, a loss that is no scalar), misuse 1. One python process
# for all the cases (torch's import is most of the time), through main().
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp
need_python cli_torch "torch, functorch.compile" python3-torch
ex=$here/../examples
F=$data/torch/tiny.py
"$PY" - "$t" "$ex" "$F" "$data/torch/broken.py" >"$t/cases.txt" 2>&1 <<'PYEOF'
import contextlib, io, sys
t, ex, F, B = sys.argv[1:5]
sys.path.insert(0, ex)
import torch_to_graph
CASES = [  # name, argv (-o is added where the name ends in .csv)
    ('mlp.csv', ['--model', F + ':mlp', '--input', 'x=2x4']),
    ('mse.csv', ['--model', F + ':mlp', '--input', 'x=2x4', '--loss', F + ':mse']),
    ('tok.csv', ['--model', F + ':tokens', '--input', 'tok=2x5:int64:0..9']),
    ('conv.csv', ['--model', F + ':conv', '--input', 'input=1x3x5x5']),
    ('deep.csv', ['--model', F + ':deep', '--input', 'input=64x32']),
    ('sq.csv', ['--model', 'torchvision:squeezenet1_1', '--input', 'x=1x3x64x64']),
    ('tied.csv', ['--model', F + ':tied', '--input', 'tok=2x5:int64:0..9']),
    ('slow.csv', ['--model', F + ':mlp', '--input', 'x=2x4', '--acc-gbps', '0.001', '--cpu-overhead-us', '0']),
    ('missing', ['--model', F.replace('tiny', 'nope') + ':mlp', '--input', 'x=2x4']),
    ('raises', ['--model', F + ':raises', '--input', 'x=2']),
    ('number', ['--model', F + ':number', '--input', 'x=2']),
    ('gone', ['--model', F + ':gone', '--input', 'x=2']),
    ('syntax', ['--model', B + ':f', '--input', 'x=2']),
    ('refused', ['--model', F + ':mlp', '--input', 'x=2x5']),
    ('index', ['--model', F + ':tokens', '--input', 'tok=2x5:int64:0..10']),
    ('unknown_arg', ['--model', F + ':mlp', '--input', 'y=2x4']),
    ('no_arg', ['--model', F + ':mlp']),
    ('no_float', ['--model', F + ':argmax', '--input', 'x=2x4']),
    ('meta_conv', ['--model', F + ':conv', '--input', 'input=1x3x5x5', '--meta']),
    ('loss_shape', ['--model', F + ':mlp', '--input', 'x=2x4', '--loss', F + ':not_scalar']),
    ('torchvision', ['--model', 'torchvision:nosuch', '--input', 'x=1']),
    ('unwritable', ['--model', F + ':mlp', '--input', 'x=2x4', '-o', t + '/no/such/dir.csv']),
    ('u_dtype', ['--model', F + ':mlp', '--input', 'x=2x4:int9']),
    ('u_model', ['--model', 'tiny.py', '--input', 'x=2']),
    ('u_range', ['--model', F + ':tokens', '--input', 'tok=2x5:int64:0..1.5']),
    ('u_twice', ['--model', F + ':mlp', '--input', 'x=2', '--input', 'x=3']),
    ('u_gbps', ['--model', F + ':mlp', '--input', 'x=2', '--acc-gbps', '0']),
    ('u_nomodel', ['--input', 'x=2']),
]
for name, argv in CASES:
    if name.endswith('.csv'):
        argv = argv + ['-o', '%s/%s' % (t, name)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = torch_to_graph.main(argv)
        except SystemExit as e:
            rc = e.code
        except Exception as e:  # what __main__ would turn into 'unexpected': a failure here
            rc = 'raised %s: %s' % (type(e).__name__, e)
    lines = err.getvalue().splitlines()
    print('%s|%s|%d|%d|%s' % (name, rc, len(out.getvalue()), len(lines), lines[-1] if lines else ''))
PYEOF
grep -v '|' "$t/cases.txt" | head -5  # what the cases' python said otherwise (a crash)
# case NAME: "RC|STDOUT_CHARS|STDERR_LINES|LAST_STDERR_LINE"
case_of() { grep "^$1|" "$t/cases.txt" | cut -d'|' -f2-; }
for c in mlp mse tok conv deep sq tied slow; do check "$c: exit 0, nothing said" "$(case_of $c.csv)" "0|0|0|"; done
# rows: NAME=SIZE for the rows named; the output rows as NAME=SIZE
sizes() { awk -F, -v want=" $2 " '!/^#/ && $1 != "id" && index(want, " " $2 " ") { printf "%s%s=%s", s, $2, $4; s = " " }' "$t/$1.csv"; }
outputs() { awk -F, '!/^#/ && $1 != "id" && $10 == 1 { printf "%s%s=%s", s, $2, $4; s = " " }' "$t/$1.csv"; }
rows() { grep -vc '^#\|^id,' "$t/$1.csv"; }
# mlp: x 2x4 floats, the incoming gradient of the 2x2 output, a's weight transposed 4x3, its 2x3 output and
# relu; the output 2x2 and the gradients: b's bias 2, b's weight 2x3, a's bias 3, a's weight 3x4 (floats)
check "mlp: 26 rows" "$(rows mlp)" 26
check "mlp: sizes by hand" "$(sizes mlp 'primals_5 tangents_1 t addmm relu mm_2')" \
  "primals_5=32 tangents_1=16 t=48 addmm=24 relu=24 mm_2=48"
check "mlp: outputs (the forward's, the 4 gradients)" "$(outputs mlp)" "addmm_1=16 view=8 t_5=24 view_1=12 t_8=48"
check "mlp: input rows (parameters left out)" "$(awk -F, '$3 == "input" { print $2 }' "$t/mlp.csv" | tr '\n' ' ')" \
  "primals_5 tangents_1 "
check "mlp: the header names what was traced" \
  "$(grep -c "^# traced by examples/torch_to_graph.py: --model .*tiny.py:mlp, inputs x=2x4:float32, loss the sum of every floating output (their gradients are input rows); torch 1\.13" "$t/mlp.csv")" 1
check "mlp: the header's parameters (a 3x4 + 3, b 2x3 + 2 floats)" "$(grep -o 'resident): .*bytes' "$t/mlp.csv")" \
  "resident): 4 tensors, 92 bytes"
check "mlp: the default cost model in the header" "$(grep -c 'CPU 100 GFLOP/s + 20 GB/s + 0.5 us per op; accelerator 6 TFLOP/s on matrix ops + 200 GB/s + 10 us per op; conversion 10 GB/s + 2 us$' "$t/mlp.csv")" 1
# relu of 2x3 floats: 6 flops, 24 + 24 bytes: accelerator max(6 / 6e12, 48 / 200e9) + 10 us, the CPU 6 / 1e11 +
# 48 / 2e10 + 0.5 us = 0.50246; with 1 MB/s the accelerator's 48 us + 10; no CPU overhead 0.00246
check "mlp: relu's times by hand" "$(grep ',relu,relu,' "$t/mlp.csv" | cut -d, -f5-9)" "10.000,0.502,10.000,any,2.002"
check "--acc-gbps 0.001 --cpu-overhead-us 0: relu's times" "$(grep ',relu,relu,' "$t/slow.csv" | cut -d, -f5-8)" \
  "58.000,0.002,58.000,any"
check "--acc-gbps: the header says so" "$(grep -c '+ 0.001 GB/s' "$t/slow.csv")" 1
# --loss: traced in the graph, one scalar tangent, the loss the forward output
check "mse: one 4-byte tangent" "$(sizes mse tangents_1)" "tangents_1=4"
check "mse: the loss's ops are rows (x[:, :2], the mean)" "$(grep -c ',slice,\|,mean,' "$t/mse.csv")" 3
check "mse: outputs (the scalar loss, the 4 gradients)" "$(outputs mse)" "_reshape_alias=4 view=8 t_5=24 view_1=12 t_8=48"
check "mse: the header names the loss" "$(grep -c 'loss .*tiny.py:mse (traced)' "$t/mse.csv")" 1
# tokens 2x5 int64 into a 10x3 table: 2x5x3 floats out, argmax 2 int64s (an output, no gradient needed), the
# table's gradient 10x3 floats
check "tok: sizes by hand" "$(sizes tok 'primals_2 embedding argmax embedding_dense_backward')" \
  "primals_2=80 embedding=120 argmax=16 embedding_dense_backward=120"
check "tok: the range in the header" "$(grep -c 'inputs tok=2x5:int64:0..9,' "$t/tok.csv")" 1
# a weight tied to another name: AOTAutograd passes it once; the tokens 2x5 int64 and the 2x5x10 logits'
# gradient the input rows (counting the module's names, 2, dropped the tokens)
check "tied: input rows" "$(awk -F, '$3 == "input" { printf "%s=%s ", $2, $4 }' "$t/tied.csv")" "primals_2=80 tangents_1=400 "
check "tied: the header (one tensor)" "$(grep -o 'resident): .*bytes' "$t/tied.csv")" "resident): 1 tensors, 120 bytes"
# conv 3->4 3x3 on 1x3x5x5: output 1x4x3x3, weight gradient 4x3x3x3, bias 4 (one row per output used)
check "conv: sizes by hand" "$(sizes conv 'primals_3 convolution getitem_1 getitem_2')" \
  "primals_3=300 convolution=144 getitem_1=432 getitem_2=16"
check "conv: convolution backward's two used outputs share its time by size" \
  "$(grep ',convolution_backward,' "$t/conv.csv" | cut -d, -f3,5 | tr '\n' ' ')" \
  "convolution_backward,9.650 convolution_backward,0.357 "
# torchvision's: the image 1x3x64x64 floats, the 1000 logits (the tangent as large), the first conv's 64
# channels at 31x31 and its gradients (the last rows): weight 64x3x3x3 and bias 64 floats
check "torchvision:squeezenet1_1: sizes by hand" "$(sizes sq 'primals_53 tangents_1 convolution getitem_82 getitem_83')" \
  "primals_53=49152 tangents_1=4000 convolution=246016 getitem_82=6912 getitem_83=256"
check "torchvision:squeezenet1_1: the header" "$(grep -c '^# dnnmem graph: torchvision.models.squeezenet1_1 ' "$t/sq.csv")" 1
# remat on the traced graphs: exit 0, the plan recounted independently (within the budget when feasible; the
# tiny ones cannot fit half their peak: their lower bound says so); deep: 8 tanh layers on a 64x32 batch
check "deep: 128 rows" "$(rows deep)" 128
for c in mlp conv deep; do
  "$D" remat --plan --budget-ratio 0.5 --iterations 5000 --json --out "$t/$c.plan" "$t/$c.csv" >"$t/$c.json" 2>"$t/$c.err"
  check "$c: remat --plan --budget-ratio 0.5 exits 0" "$?" 0
  f=$(field feasible "$t/$c.json")
  if [ "$f" = true ]; then b=$(field budget "$t/$c.json"); else b=$(field arena "$t/$c.json"); fi
  r=$("$PY" "$here/check_remat_plan.py" "$t/$c.csv" "$t/$c.plan" "$b" "$t/$c.json" 2>&1)
  check "$c: its sequence and arena recounted ($r)" "${r##* }" ok
  check "$c: feasible, or the lower bound above the budget" \
    "$(awk -v f="$f" -v lb="$(field lower_bound "$t/$c.json")" -v b="$(field budget "$t/$c.json")" \
      'BEGIN { print (f == "true" || lb + 0 > b + 0) ? "yes" : f " " lb " " b }')" yes
done
check "deep: fits half its peak" "$(field feasible "$t/deep.json")" true
# bad input: exit 2, nothing on stdout, one line on stderr naming the file
while IFS='|' read -r name want; do
  name=$(trim "$name")
  want=$(trim "$want")
  got=$(case_of "$name")
  if [[ $got =~ ^2\|0\|1\|(.*)$ ]] && [[ ${BASH_REMATCH[1]} =~ $want ]]; then ok "$name: exit 2, $want"
  else bad "$name (got '$got', want 2 and '$want')"; fi
done <<'EOF2'
missing     | ^.*/torch/nope.py: cannot read: No such file or directory$
raises      | ^.*/torch/tiny.py: raises\(\) raised ValueError: no weights here$
number      | ^.*/torch/tiny.py: number\(\) returned 3 \(int\), not an nn.Module$
gone        | ^.*/torch/tiny.py: no factory named gone$
syntax      | ^.*/torch/broken.py: cannot load: SyntaxError: invalid syntax \(line 2\)$
refused     | ^.*/torch/tiny.py: the model refuses the inputs \(x=2x5:float32\): RuntimeError: mat1 and mat2 shapes cannot be multiplied \(2x5 and 4x3\)$
index       | ^.*/torch/tiny.py: the model refuses the inputs \(tok=2x5:int64:0..10\): IndexError: index out of range
unknown_arg | ^.*/torch/tiny.py: forward has no argument y \(it takes x\)$
no_arg      | ^.*/torch/tiny.py: forward's argument x not given \(--input x=SHAPE\)$
no_float    | ^.*/torch/tiny.py: no floating output depends on a parameter: nothing to differentiate \(outputs int64 \[2\]\)$
meta_conv   | ^.*/torch/tiny.py: the model runs but its training step cannot be traced on the meta device \(drop --meta\): NotImplementedError: convolution_backward
loss_shape  | ^.*/torch/tiny.py: the loss returned float32 \[2, 2\], not a floating scalar$
torchvision | ^torchvision: no model nosuch in torchvision.models$
unwritable  | /no/such/dir.csv: cannot write: No such file or directory$
EOF2
# misuse: exit 1, nothing on stdout, the usage's last line names the option
while IFS='|' read -r name want; do
  name=$(trim "$name")
  want=$(trim "$want")
  got=$(case_of "$name")
  if [[ $got =~ ^1\|0\|[0-9]+\|(.*)$ ]] && [[ ${BASH_REMATCH[1]} =~ $want ]]; then ok "$name: exit 1, $want"
  else bad "$name (got '$got', want 1 and '$want')"; fi
done <<'EOF2'
u_dtype   | ^torch_to_graph.py: --input x: dtype 'int9': one of float32,
u_model   | ^torch_to_graph.py: --model FILE.py:FACTORY or torchvision:NAME \(got 'tiny.py'\)$
u_range   | ^torch_to_graph.py: --input tok: range 0..1.5 of an integer dtype: want integers$
u_twice   | ^torch_to_graph.py: --input x given twice$
u_gbps    | ^torch_to_graph.py: --acc-gbps must be a positive number \(got 0\)$
u_nomodel | ^torch_to_graph.py: the following arguments are required: --model$
EOF2
# the script as a user runs it: a bad input exits 2 with one line, never a traceback
"$PY" "$ex/torch_to_graph.py" --model "$F:raises" --input x=2 >"$t/run.out" 2>"$t/run.err"
check "as a program: a factory that raises exits 2, one line, nothing on stdout" \
  "$? $(wc -l <"$t/run.err") $(wc -c <"$t/run.out")" "2 1 0"
cli_finish cli_torch
