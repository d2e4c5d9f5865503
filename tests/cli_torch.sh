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
import contextlib, errno, io, sys
t, ex, F, B = sys.argv[1:5]
R, S, A = (F.replace('tiny.py', n) for n in ('real.py', 'script.py', 'argv.py'))
sys.path.insert(0, ex)
import torch_to_graph
try:
    import torchvision  # noqa: F401
    TV = True
except ImportError:
    TV = False
print('has_torchvision|%s' % TV)


class Closed(io.StringIO):  # a stdout whose reader is gone (head), or a full disk
    def __init__(self, err):
        super().__init__()
        self.err = err

    def write(self, s):
        raise self.err


COPY = ['--views', 'copy']
CASES = [  # name, argv (-o is added where the name ends in .csv)
    ('mlp.csv', ['--model', F + ':mlp', '--input', 'x=2x4'] + COPY),
    ('mlpa.csv', ['--model', F + ':mlp', '--input', 'x=2x4']),
    ('mlpm.csv', ['--model', F + ':mlp', '--input', 'x=2x4', '--meta'] + COPY),
    ('mse.csv', ['--model', F + ':mlp', '--input', 'x=2x4', '--loss', F + ':mse'] + COPY),
    ('tok.csv', ['--model', F + ':tokens', '--input', 'tok=2x5:int64:0..9']),
    ('conv.csv', ['--model', F + ':conv', '--input', 'input=1x3x5x5'] + COPY),
    ('conva.csv', ['--model', F + ':conv', '--input', 'input=1x3x5x5', '--acc-tflops', '0.000001']),
    ('deep.csv', ['--model', F + ':deep', '--input', 'input=64x32'] + COPY),
    ('sq.csv', ['--model', 'torchvision:squeezenet1_1', '--input', 'x=1x3x64x64']),
    ('tied.csv', ['--model', F + ':tied', '--input', 'tok=2x5:int64:0..9']),
    ('slow.csv', ['--model', F + ':mlp', '--input', 'x=2x4', '--acc-gbps', '0.001', '--cpu-overhead-us', '0'] + COPY),
    ('two.csv', ['--model', F + ':two', '--input', 'shift=3', '--input', 'x=2x4']),
    ('dict.csv', ['--model', F + ':dictout', '--input', 'x=2x4']),
    ('viewc.csv', ['--model', F + ':viewed', '--input', 'x=2x4'] + COPY),
    ('viewa.csv', ['--model', F + ':viewed', '--input', 'x=2x4']),
    ('halves.csv', ['--model', F + ':halves', '--input', 'x=2x4']),
    ('argv.csv', ['--model', A + ':mlp', '--input', 'input=2x4']),
    ('pipe', ['--model', F + ':mlp', '--input', 'x=2x4']),
    ('full', ['--model', F + ':mlp', '--input', 'x=2x4']),
    ('loss_model', ['--model', F + ':mlp', '--input', 'x=2x5', '--loss', R + ':next_token']),
    ('script', ['--model', S + ':mlp', '--input', 'x=2x4']),
    ('leaves', ['--model', F + ':leaves', '--input', 'x=2']),
    ('kwonly', ['--model', F + ':kwonly', '--input', 'x=2x4', '--input', 'scale=-']),
    ('huge', ['--model', F + ':mlp', '--input', 'x=100000000000x4']),
    ('half', ['--model', F + ':half', '--input', 'x=2x4:float16']),
    ('passin.csv', ['--model', F + ':passin', '--input', 'x=2x4']),
    ('u_uint8', ['--model', F + ':tokens', '--input', 'tok=2x5:uint8:0..300']),
    ('u_inf', ['--model', F + ':tokens', '--input', 'tok=2x5:int64:0..1e999']),
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
    if not TV and 'torchvision:' in ' '.join(argv):
        continue  # the checks of these skip too
    if name.endswith('.csv'):
        argv = argv + ['-o', '%s/%s' % (t, name)]
    out, err = io.StringIO(), io.StringIO()
    if name in ('pipe', 'full'):
        out = Closed(BrokenPipeError(errno.EPIPE, 'Broken pipe') if name == 'pipe' else
                     OSError(errno.ENOSPC, 'No space left on device'))
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
TV=$(case_of has_torchvision)  # True: torchvision:NAME is checked (python3-torchvision)
for c in mlp mlpa mlpm mse tok conv conva deep tied slow two dict viewc viewa halves argv passin $([ "$TV" = True ] && echo sq); do
  check "$c: exit 0, nothing said" "$(case_of $c.csv)" "0|0|0|"
done
[ "$TV" = True ] || echo "cli_torch: torchvision not installed: its cases skipped (apt-get install python3-torchvision)"
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
# each row's inputs (ids), in order: a's weight transposed (2) and x (0) into addmm (3), relu (4) and its
# detaches, b's weight transposed (7) into addmm_1 (8) with relu; backward from the tangent (1): mm (10), t_3 (11)
# and mm_1 (12) with relu, the bias gradient sum_1 (14, 1-D) and its view, threshold_backward (19) from mm and the
# last detach, a's weight gradient from x (mm_2, 21), a's bias gradient (sum_2 of 19, 1-D)
check "mlp: the inputs column whole" "$(awk -F, '!/^#/ && $1 != "id" { printf "%s|", $11 }' "$t/mlp.csv")" \
  "|||0 2|3|4|5||4 7|7|1 9|1|4 11|12|1|14|13|6|17|10 18|19|0 20|21|19|23|22|"
check "mlp: the device column whole (matrix ops acc, views and reductions cpu)" \
  "$(awk -F, '!/^#/ && $1 != "id" && $3 != "input" { printf "%s=%s ", $3, $8 }' "$t/mlp.csv")" \
  "t=cpu addmm=acc relu=any detach=any detach=any t=cpu addmm=acc t=cpu mm=acc t=cpu mm=acc t=cpu sum=cpu view=cpu t=cpu detach=any detach=any threshold_backward=any t=cpu mm=acc t=cpu sum=cpu view=cpu t=cpu "
check "mlp --meta: the same rows as on the CPU" "$(diff <(grep -v '^#' "$t/mlp.csv") <(grep -v '^#' "$t/mlpm.csv") && echo same)" same
# the default, views as aliases: no row for t, detach, view (15 of 26); their readers read the root (mm_1 and
# mm_2 read the tangent where they read its transpose t_3, mm reads it through t_2 of a weight: nothing);
# a view among the outputs (t_5 of mm_1, view of sum_1...) makes its root an output
check "mlp (views as aliases): rows by hand" "$(awk -F, '!/^#/ && $1 != "id" { printf "%s,%s,%s,%s,%s|", $2, $4, $8, $10, $11 }' "$t/mlpa.csv")" \
  "primals_5,32,cpu,0,|tangents_1,16,cpu,0,|addmm,24,acc,0,0|relu,24,any,0,2|addmm_1,16,acc,1,3|mm,24,acc,0,1|mm_1,24,acc,1,1 3|sum_1,8,cpu,1,1|threshold_backward,24,any,0,3 5|mm_2,48,acc,1,0 8|sum_2,12,cpu,1,8|"
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
# views as aliases: the logits are mm's 20x10 seen as 2x5x10 (_unsafe_view: a view its schema does not declare),
# so mm is the output; the tangent's reshapes and transposes are no rows
check "tied (views as aliases): rows by hand" "$(awk -F, '!/^#/ && $1 != "id" { printf "%s,%s,%s,%s|", $2, $4, $10, $11 }' "$t/tied.csv")" \
  "primals_2,80,0,|tangents_1,400,0,|embedding,120,0,0|mm,400,1,2|mm_1,120,0,1 2|mm_2,120,0,1|embedding_dense_backward,120,0,0 5|add,120,1,4 6|"
check "tied: the header (one tensor)" "$(grep -o 'resident): .*bytes' "$t/tied.csv")" "resident): 1 tensors, 120 bytes"
# conv 3->4 3x3 on 1x3x5x5: output 1x4x3x3, weight gradient 4x3x3x3, bias 4 (one row per output used)
check "conv: sizes by hand" "$(sizes conv 'primals_3 convolution getitem_1 getitem_2')" \
  "primals_3=300 convolution=144 getitem_1=432 getitem_2=16"
check "conv: the inputs column whole (relu's 4 detaches, then threshold_backward, both gradients from it and x)" \
  "$(awk -F, '!/^#/ && $1 != "id" { printf "%s|", $11 }' "$t/conv.csv")" "||0|2|3|4|5|6|1 7|0 8|0 8|"
check "conv (views as aliases): the inputs column whole" "$(awk -F, '!/^#/ && $1 != "id" { printf "%s|", $11 }' "$t/conva.csv")" \
  "||0|2|1 3|0 4|0 4|"
# --acc-tflops 1e-6 (1 MFLOP/s): convolution 2 * 36 outputs * 27 = 1944 flops, 1944 us + 892 bytes / 200 GB/s
# + 10 us; its backward twice that per output: 3888 + 1324 bytes + 10 us shared 432 : 16
check "conv: flops at 1 MFLOP/s (convolution, its backward's two outputs)" \
  "$(grep ',convolution' "$t/conva.csv" | cut -d, -f2,5 | tr '\n' ' ')" \
  "convolution,1954.004 getitem_1,3758.792 getitem_2,139.215 "
check "conv: convolution backward's two used outputs share its time by size" \
  "$(grep ',convolution_backward,' "$t/conv.csv" | cut -d, -f3,5 | tr '\n' ' ')" \
  "convolution_backward,9.650 convolution_backward,0.357 "
# torchvision's: the image 1x3x64x64 floats, the 1000 logits (the tangent as large), the first conv's 64
# channels at 31x31 and its gradients (the last rows): weight 64x3x3x3 and bias 64 floats
[ "$TV" = True ] && check "torchvision:squeezenet1_1: sizes by hand" "$(sizes sq 'primals_53 tangents_1 convolution getitem_82 getitem_83')" \
  "primals_53=49152 tangents_1=4000 convolution=246016 getitem_82=6912 getitem_83=256"
[ "$TV" = True ] && check "torchvision:squeezenet1_1: the header" "$(grep -c '^# dnnmem graph: torchvision.models.squeezenet1_1 ' "$t/sq.csv")" 1
# remat on the traced graphs: exit 0, the plan recounted independently (within the budget when feasible; the
# tiny ones cannot fit half their peak: their lower bound says so); deep: 8 tanh layers on a 64x32 batch
check "deep: 128 rows" "$(rows deep)" 128
# 64x32 @ 32x32 + 32: 131072 flops / 6 TFLOP/s + (128 + 8192 + 4096 + 8192 bytes) / 200 GB/s + 10 us
check "deep: the first addmm's time (its flops count)" "$(grep ',addmm,addmm,' "$t/deep.csv" | cut -d, -f5,8)" "10.125,acc"
# forward(x, shift) given as --input shift=3 --input x=2x4: passed in forward's order (x the first row); the
# 1-D shift read by add
check "two: input rows in forward's order" "$(awk -F, '$3 == "input" { printf "%s=%s ", $2, $4 }' "$t/two.csv")" \
  "primals_3=32 primals_4=12 tangents_1=24 "
check "two: add reads shift and addmm" "$(grep ',add,add,' "$t/two.csv" | cut -d, -f11)" "1 3"
# dict outputs: y (with its tangent), x * x (a float without gradient: its tangent too, AOTAutograd's); mul
# reads x twice, its bytes once: 8 / 1e11 + (32 + 32) / 2e10 + 0.5 us
check "dict: outputs" "$(outputs dict)" "addmm=24 mul=32 mm=48 sum_1=12"
check "dict: x * x counts x once" "$(grep ',mul,mul,' "$t/dict.csv" | cut -d, -f6,11)" "0.503,0"
# a view whose base would otherwise die early: sin(addmm(x)[:, :1]); sin's backward reads the slice (cos). As
# copies cos reads the 8-byte slice and the 512-byte addmm dies at once; as aliases cos reads addmm, held.
check "viewed (views as copies): cos reads the slice" "$(grep ',cos,cos,' "$t/viewc.csv" | cut -d, -f11) $(sizes viewc 'addmm slice_2')" \
  "5 addmm=512 slice_2=8"
check "viewed (views as aliases): no slice rows, cos reads addmm" \
  "$(grep -c ',slice,' "$t/viewa.csv") $(grep ',cos,cos,' "$t/viewa.csv" | cut -d, -f11)" "0 2"
# chunk's two halves (split's list of views, its schema's Tensor(a)[]): no rows, the muls read addmm (2)
check "halves (views as aliases): rows by hand" "$(awk -F, '!/^#/ && $1 != "id" { printf "%s,%s,%s|", $2, $4, $11 }' "$t/halves.csv")" \
  "primals_3,32,|tangents_1,16,|addmm,32,0|mul,16,2|mul_1,16,1 2|mul_2,16,1 2|cat,32,4 5|mm,64,0 6|sum_1,16,6|"
check "viewed: the header says how views are counted" "$(grep -c 'views: aliases' "$t/viewa.csv") $(grep -c 'views: copies' "$t/viewc.csv")" "1 1"
check "an input returned by forward is an output row" "$(awk -F, '$3 == "input" { printf "%s=%s ", $2, $10 }' "$t/passin.csv")" \
  "primals_3=1 tangents_1=0 tangents_2=0 "
check "a module that parses its command line at import: it sees none (argv)" "$(rows argv)" 5
check "stdout closed by its reader: main raises BrokenPipeError (the program exits 0)" \
  "$(case_of pipe | cut -d'|' -f1)" "raised BrokenPipeError: [Errno 32] Broken pipe"
for c in mlp mlpa conv deep; do
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
  [ "$name" = torchvision ] && [ "$TV" != True ] && continue
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
full        | ^stdout: cannot write: No space left on device$
loss_model  | ^.*/torch/tiny.py: the model refuses the inputs \(x=2x5:float32\): RuntimeError: mat1 and mat2 shapes cannot be multiplied
script      | ^.*/torch/script.py: cannot load: it exits at import \(SystemExit: 2; it said ".*error: the following arguments are required: --data"\): put its script part under if __name__ == "__main__"$
leaves      | ^.*/torch/tiny.py: leaves\(\) exits \(SystemExit: no data here\): a factory returns the model$
kwonly      | ^.*/torch/tiny.py: forward's keyword-only argument scale: not supported
huge        | ^.*/torch/tiny.py: cannot make input x: RuntimeError: .*can't allocate memory
half        | ^.*/torch/tiny.py: the model refuses the inputs \(x=2x4:float16\): RuntimeError: .*'Half' \(float16 on the CPU: try --meta\)$
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
u_uint8   | ^torch_to_graph.py: --input tok: range 0..300 is past uint8 \(0..255\)$
u_inf     | ^torch_to_graph.py: --input tok: range 0..1e999: want finite numbers$
EOF2
# the script as a user runs it, into a reader that stops at once (head -c 0): stdout's broken pipe is no error
# (exit 0, nothing said; before: "None: cannot write: Broken pipe", exit 2), never a traceback
env -u PYTHONUNBUFFERED "$PY" "$ex/torch_to_graph.py" --model "$F:mlp" --input x=2x4 2>"$t/run.err" | head -c 0  # buffered, as a user runs it
check "as a program, stdout closed by its reader: exit 0, nothing on stderr" "${PIPESTATUS[0]} $(wc -c <"$t/run.err")" "0 0"
cli_finish cli_torch
