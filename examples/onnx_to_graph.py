#!/usr/bin/env python3
"""Converts an ONNX model into the dnnmem graph CSV.

    examples/onnx_to_graph.py MODEL.onnx > MODEL.graph.csv
    examples/onnx_to_graph.py --list-dims MODEL.onnx
    examples/onnx_to_graph.py --dim x:0=1 --dim x:3=W --input sr=16000 MODEL.onnx -o OUT.csv

Needs the onnx package (Debian: python3-onnx) and numpy.

Shapes. The converter walks the graph in node order with every input's
shape fixed (--dim) and computes each value's shape itself: the exporter's
value_info is ignored (stale dimensions such as 'unk__0' are common).
Values computable before the run are folded with numpy: Shape, Size,
Gather, Slice, Concat, Unsqueeze, Squeeze, Cast, Reshape, element-wise
arithmetic and comparisons, ConstantOfShape, Range, Expand, Tile,
Transpose, Where, reductions... on constants, so that Reshape, Expand and
Tile targets computed by Shape -> Gather -> Concat chains become known.
Every other op's output shape comes from ONNX's shape inference on that
node alone, its folded inputs given as constants. Folded values, like
initializers (weights) and Constant nodes, stay resident and are not rows,
except those whose shapes follow a dynamic dimension (a causal mask of seq
x seq, positions 0..seq; found by converting again with each --dim + 64,
else - 64, + 1, - 1 where that size is refused, the header saying so when
all are): a runtime computes them at every run, so they are rows, and a
symbolic conversion keeps one structure at every size.
Identity and inlined If outputs are the values they forward (no copy).

If. An If whose condition folds to a constant (with --input NAME=VALUE
binding a scalar graph input, e.g. a sample rate) is replaced by the
branch taken. An If whose condition comes from the data (a detector's
score deciding whether a verifier runs) is replaced by the branch that
--if NODE=then|else names (convert once per branch to plan each case;
the header says which); --if on a condition that folds is refused.
Without --if both branches are planned (either may run; the one not
taken leaves its values unwritten) and each If output is a row of its
own reading both branches' (a copy's time): of their shape where they
agree, else of the larger of the two per axis, sound only when every
size read from it grows with it, which the converter proves as for sizes
from the data (below; else refused naming the node and input) and checks
by converting with each branch alone (--if; more than 4 such Ifs are
refused); outputs of another rank or element type are refused, naming
the If, and so is such an If with --symbol (the fit starts at 512). An
unnamed If is named by its first output (for --if and the messages). The
header says which Ifs are planned so.

Loop and Scan. A Scan, and a Loop whose trip count folds before the run,
are one node: a row per output (the final loop-carried values, the scan
outputs stacked over the steps: Scan's length is its inputs', a Loop's its
trip count, an upper bound when its condition stops it earlier). The body's
values live inside one step and are the node's scratch, not rows (as a
fused kernel's); its FLOPs times the steps are the node's. A Loop that runs
until a condition computed at run time takes its steps as a size from the
data (below); a loop-carried value whose shape changes with the steps, and
any other node with a subgraph, are refused, naming the node.

Sizes from the data. NonZero's count, NonMaxSuppression's selected boxes,
TopK's k computed at run time, Compress's kept slices, Unique's distinct
values (Y's axis, or its length without one; indices and counts as long,
inverse_indices the input's; a constant input's counted exactly), a Loop's steps until
a condition (its trip count missing, computed at run time, or 2^63 - 1 as
torch.jit.script writes a while loop; a constant trip count up to 2^31 is
taken when no bound is given), and the axes onnx cannot infer of an op
shaped by values computed at run time (a Resize to a box's size, a Slice by
box coordinates, an Expand, Pad, Range or ConstantOfShape from the data)
are dimensions the user bounds, named OUTPUT:AXIS after the
first output showing them (the Loop's first scan output, axis 0), as graph
inputs' are INPUT:AXIS: --dim /NonZero_output_0:1=300. Two NonZero nodes
on one mask share the first one's name. Not given, each is refused with
its most where the converter knows it (NonZero, and Unique without an
axis: the input's element count; NonMaxSuppression: batches x classes x
min(max_output_boxes_per_class, boxes); TopK, Slice and Unique: the axis's
length; Compress: the condition's and
the axis's; the others and a Loop: none known), and the ones after it are listed (found with each before at
its most); a bound past the most is refused; --list-dims lists them once
every input dimension is given. A pattern (--dim '*=100', or
'/roi_heads/*=100') bounds every one it matches not named, each clamped to
its most: detection exports have one NonZero per class (SSDlite: 90).
Patterns are tried in the order given, the first matching wins; none
takes a Loop's constant trip count (it needs no bound) unless named.
Downstream, shapes are computed with the bound in place, and sizes read
from it (Shape -> Gather -> ConstantOfShape, a TopK k of min(count, 300),
an If on 'no box found') fold with it; values that follow a bound are rows
(found by converting again with each bound moved by one).
The plan then holds for the arena at the bounds: every run whose counts
are at most the bounds fits, provided the engine places each value at its
planned offset even when the run makes it smaller (and keeps the bytes
from offset to offset + the planned size its own). That holds when the
graph is the same below the bounds and no value grows as a count shrinks,
and the converter proves it rather than samples it: every value folded
from the counts carries, per element, how it moves as they grow (up,
down, constant, unknown; and whether it stays >= 0), through the folding
ops: Shape, Gather, Slice, Concat, (Un)Squeeze, Reshape, Cast keep it;
Add, Max, Min, Floor, Ceil, Mul and Div by a constant > 0 keep it (by one
< 0, or Sub's right side, Neg, Reciprocal of a value > 0, flip it);
Mod, comparisons, Where on a moving condition make it unknown. A size
such a value decides (a Reshape, Expand, Tile, ConstantOfShape, Pad or
Resize target, a TopK k, a Range's limit or start, a Slice's end (>= 0)
or start, a Loop's trip count) and an If condition must grow with the
counts, else refused naming the node and the input ("its size does not
grow with --dim X"; --exact takes the counts as one run's, not bounds).
An If on 'v == 0' for a v that only grows (torchvision's "no box found")
is the exception: the condition false at every count 1 (checked there)
is false whenever every count is >= 1, so the plan covers those runs and
the header says a run with a count at 0 may take the other branch
(convert at 0 for that case). A value's shape is taken to grow with its
inputs' shapes and deciding values (the shape rules are monotone; a
Reshape whose -1 divides by a moving size is the exception the sampling
below covers). Sampled too: converted again at bound - 1, 1 and 0, each
dimension (a pattern's each one) alone up to 4 of them, else all
together, and every count at 1; a value larger there, another graph, or a
conversion refused (also with all of them lowered together) is refused.
A count the model ties to its value (refused moved by one) is held at it,
said in the header. Folded values that move with the counts, of more than
16 elements, are rows (a runtime computes them); a Loop whose body reads
the size of a growing carried value is shaped step by step (up to 64).
A bound may be a symbol (--dim /NonZero_output_0:1=N: fitted up to the
most, as a sequence below a position table); a pattern takes numbers only.
Sizes the model relates (a mask pasted into an image from pieces whose
widths add up to the image's) cannot all be at independent bounds: the
shape error then names the node.

External data. Weights stored in files beside the model are read by the
converter from the model's folder (standard input: the working folder):
small ones are folded as inline ones, large, missing or short ones sized
only; a location outside that folder, a FIFO or device, a negative offset
or a length that is not the tensor's is refused, naming the initializer.

Node order. Rows follow the file's node order when it is topological (as
ONNX requires); graph rewriters such as the float16 converters append
nodes at the end, so a file that is not is run in a topological order
(the file's where it allows) with a note in the header; a cycle is
refused, naming its nodes.

Dimensions. --list-dims prints each dynamic dimension of the inputs with a
short name INPUT:AXIS beside the exporter's name; --dim accepts either.
--dim NAME=VALUE fixes it (VALUE >= 0: 0 for an empty past gives 0-byte
rows; an op a 0 breaks, a Reshape of 0 elements to a -1, is named).
--dim NAME=SYMBOL (an identifier, one or two symbols) keeps it symbolic:
every size becomes a polynomial in the symbols, written as plan reads it
("4096*W^2+512*W+64", "3*H*W/8+8").
The polynomials are found by converting at several values of each symbol
(from 512 on, at multiples of 64, or of 128, 256... where strided ops
make the sizes a polynomial on coarser multiples only) and interpolating
exactly; every further value of the grid (nine in all) and two far
beyond it confirm each fit (a size that is a step function of the symbol,
such as a spectrogram's frame count, is refused when its steps show within
the values probed, not fitted on a plateau; one with longer steps passes).
A model that takes the symbol up to a value only (an index past a learned
position table: BERT's 512 rows, GPT-2's 1024) is fitted below it: the
highest value it converts at is found (a bisection) and a grid of as many
points, on multiples of the largest power of 2 that fits, ends there (one
symbol; a model refused at every value, or with two symbols, is refused).
The CSV header says for which values the fit was probed (every value, or
multiples of L), down to which value and up to the highest one probed (or
"up to N, the most the model takes", N the highest value converted, with
the refusal above it: plan with --symbol S=1..N); a
coefficient < 0 (a dimension such as W - 2) is dropped, which makes that
size an upper bound. Times are those at the first
fitted value. Two symbols: their degrees from one-symbol fits, then an
exact fit on the grid they need, confirmed at one more point.

One row per value in node order: the graph's inputs that are not
initializers or bound (--input) first (op 'input'), then every node output
that is used or is a graph output. A node with several used outputs
becomes one row per output, each with the node's inputs and a share of
its time proportional to the output's size. Columns, as
../shared/data/README.md describes them:

    id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs

size   bytes of the output (elements x the element type's size as
       stored: bfloat16 2, float8 1, int4 half a byte rounded up; 0 for an
       empty tensor), or a polynomial in the symbols.
times  microseconds from a roofline model (the flags below): per op
       max(flops / peak, bytes / bandwidth) + a fixed overhead, bytes being
       the op's inputs (weights included) and output. FLOPs: Conv and
       ConvTranspose 2 x output elements x (input channels / groups) x
       kernel area; MatMul and Gemm 2 x M x N x K (batched); everything else
       one per output element.
device acc for the matrix ops (Conv, ConvTranspose, MatMul, Gemm), always on
       the accelerator; cpu for the ops the accelerator lacks (--cpu-ops:
       shape and layout changes, gathers, reductions, softmax, normalisation);
       any otherwise. acc_time is 'inf' on cpu ops; time is the accelerator
       time where it runs, else the CPU time; graph inputs are on the CPU.
xfer   microseconds to move the value between the devices (--link).
output 1 for the graph's outputs.

Other exporters' ops: ONNX Runtime's fused ops (com.microsoft FusedConv,
FusedGemm as Conv and Gemm) and its quantized ones (QLinearAdd, QLinearConcat,
QLinearGlobalAveragePool, QGemm, DynamicQuantizeMatMul... shaped as their
float op, uint8/int8 or float as their zero point or scale); weights'
DequantizeLinear folds like the weights.
Transformer models saved by ONNX Runtime's optimizer or exported by Optimum
or GenAI's builder: Attention, QAttention, MultiHeadAttention,
GroupQueryAttention, EmbedLayerNormalization, SkipLayerNormalization,
SkipSimplifiedLayerNormalization, SimplifiedLayerNormalization (ONNX
domain), MatMulNBits, FusedMatMul, RotaryEmbedding, Gelu, FastGelu,
BiasGelu, QuickGelu, BiasAdd, each shaped from its inputs and attributes as
ONNX Runtime checks them (num_heads dividing the hidden size, Q/K/V
layouts, past key/value) with every output it returns: present key/value
(past + sequence; GroupQueryAttention's max(total_sequence_length, past),
the total's value folded from the mask's shape, else refused), a layer
norm's sum and statistics, EmbedLayerNormalization's mask_index. Planned
are the graph's values only: what a kernel allocates inside (the scores,
unpacked Q/K/V) is its scratch, not a row. A sequence past a position or
rotary table is refused (the symbolic fit stops below it). Other
com.microsoft ops are refused, naming the node, op and domain.
Opsets past the onnx package's newest (1.12: 17) up to 21: each op by the
newest schema it knows, with own rules for the ops whose inputs changed
(Reduce* axes as an input, Split num_outputs, Pad axes, Resize axes and
keep_aspect_ratio_policy) and the new ones (Gelu, Mish, GroupNormalization,
CenterCropPad, Bitwise*).
Einsum is shaped by the converter (onnx 1.12 infers its rank only): each
subscript's size from the inputs, equal wherever it appears (else refused),
the ellipsis's axes broadcast, the implicit output as numpy's; its FLOPs are
2 per point of the index space (a MatMul's for 'bij,bjk->bik'). So are
OneHot (depth's axis, left unknown by onnx) and STFT (onesided's
frame_length / 2 + 1 bins; onnx gives frame_length, an oversize).
Sequences built in the graph (SequenceConstruct, SplitToSequence with a
known split, SequenceEmpty, then SequenceInsert, SequenceErase,
SequenceAt at known positions, ConcatFromSequence, SequenceLength) are
rows of their elements' bytes (a runtime copies them in); a sequence
input, one carried by a Loop or out of an If on the data, one of a value
moving with the sizes from the data or an If's larger branch (its
elements' sizes are not followed), a position computed at run time, an
op other than these reading one, optionals and SequenceMap are refused,
naming the input or node. STFT's frame_step and frame_length, DFT's axis
and Pad's axes are taken only when constant (they decide a size in no one
direction). A shape decided by a
graph input's values (a Reshape target fed as an input) is refused saying
what binds it: --input for a one-element input, else make it an initializer.
What onnx's shape inference lets through but no runtime runs is refused,
naming the node: a Reshape to another element count, a Conv whose input
channels are not its weight's, a constant Gather index out of range, a
Gemm (QGemm, FusedGemm) whose A and B disagree on K, a LayerNormalization
scale not of the normalized axes, a QLinearAdd/Mul without A's or B's
zero point (ONNX Runtime refuses it at load).

Exit codes: 0, 1 usage, 2 bad input ("FILE: what"; a node named as
"FILE: node NAME (OP): what"). The model may be - (standard input)."""
import argparse
import fnmatch
import os
import re
import sys
from fractions import Fraction

MATRIX_OPS = {"Conv", "ConvTranspose", "MatMul", "Gemm", "MatMulInteger", "QLinearConv", "QLinearMatMul", "FusedConv",
              "FusedGemm", "FusedMatMul", "QGemm", "DynamicQuantizeMatMul", "MatMulIntegerToFloat", "MatMulNBits",
              "Attention", "QAttention", "MultiHeadAttention", "GroupQueryAttention"}
CPU_OPS = {
    "Concat", "Split", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Gather", "GatherElements",
    "GatherND", "Slice", "Expand", "Tile", "Pad", "Shape", "Size", "ReduceMean", "ReduceSum", "ReduceMax",
    "ReduceMin", "ReduceProd", "ReduceL2", "ArgMax", "ArgMin", "Softmax", "LogSoftmax", "LayerNormalization",
    "InstanceNormalization", "GroupNormalization", "TopK", "NonZero", "Where", "ScatterND", "Resize", "CumSum",
    "Einsum", "Range", "ConstantOfShape", "Cast", "Unique", "If",
}
NEWEST_OPSET = 21        # past the onnx package's own: the ops that changed get their own rules below
LOOP_MOST = 1 << 31      # a Loop's constant trip count past this with a condition: a while loop, steps the data's
LOOP_SHAPED = 64         # a Loop whose carried value grows by an amount read from its size: shaped step by step
DATA_FOLD_ROW = 16       # elements: a folded value moving with the sizes from the data, larger, is a row
CHECK_EACH = 4           # data-dependent dimensions lowered one by one up to this many (else together): 3 points each
CHECK_IFS = 4            # Ifs at their larger branch checked branch by branch (2 conversions each); more refused
FOLD_LIMIT = 1 << 20      # elements: larger results are run-time values, not folded
EXTERNAL_READ = FOLD_LIMIT  # elements: external tensors up to this are read (folded as inline ones), larger sized
FIT_FROM = 512            # symbolic sizes are fitted at values from here (small inputs clamp)
CONFIRM_FAR = (5, 17)     # a fit is confirmed beyond its grid at these many steps past it too
MAX_DEGREE = 7            # DNNMEM_PLAN_SYMBOLIC_MAX_TERMS - 1


class Bad(Exception):
    """Bad input: the message follows 'FILE: '."""


class Missing(Bad):
    """Data-dependent dimensions not given (their labels name the body they are in)."""


class Past(Bad):
    """An index past a table at this size (a learned position table of
    fewer rows): a size the model does not take. A symbolic fit works below
    it."""


def node_label(node):
    return "node %s (%s)" % (node.name or (node.output[0] if node.output else "?"), node.op_type)


def if_name(node):
    """The name --if takes for an If: its own, else its first output's (an unnamed If is chosen and checked
    as a named one is)."""
    return node.name or (node.output[0] if node.output else "")


class Usage(Exception):
    pass


class Parser(argparse.ArgumentParser):
    tool = "onnx_to_graph.py"  # named in its messages (torch_to_graph.py's parser is this one, its own name)

    def error(self, message):  # usage errors exit 1 (argparse's default is 2)
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: %s\n" % (self.tool, message))
        sys.exit(1)


def add_cost_options(p):
    """The roofline cost model's options (CPU, accelerator, the link between), shared with torch_to_graph.py."""
    p.add_argument("--cpu-gflops", type=float, default=100.0, help="CPU peak (default 100 GFLOP/s)")
    p.add_argument("--cpu-gbps", type=float, default=20.0, help="CPU memory bandwidth (default 20 GB/s)")
    p.add_argument("--cpu-overhead-us", type=float, default=0.5, help="per op on the CPU (default 0.5 us)")
    p.add_argument("--acc-tflops", type=float, default=6.0,
                   help="accelerator peak on matrix ops (default 6 TFLOP/s; other ops: its bandwidth)")
    p.add_argument("--acc-gbps", type=float, default=200.0, help="accelerator bandwidth (default 200 GB/s)")
    p.add_argument("--acc-overhead-us", type=float, default=10.0, help="dispatch per op (default 10 us)")
    p.add_argument("--link-gbps", type=float, default=10.0, help="conversion bandwidth (default 10 GB/s)")
    p.add_argument("--link-us", type=float, default=2.0, help="conversion latency (default 2 us)")


def check_cost_options(a, error):
    """Rates positive, latencies >= 0, both finite; error(message) exits (a usage error)."""
    for name in ("cpu_gflops", "cpu_gbps", "acc_tflops", "acc_gbps", "link_gbps"):
        v = getattr(a, name)
        if not (v > 0 and v != float("inf")):
            error("--%s must be a positive number (got %g)" % (name.replace("_", "-"), v))
    for name in ("cpu_overhead_us", "acc_overhead_us", "link_us"):
        v = getattr(a, name)
        if not (v >= 0 and v != float("inf")):
            error("--%s must be a number >= 0 (got %g)" % (name.replace("_", "-"), v))


def parse_args(argv):
    p = Parser(description="ONNX model -> dnnmem graph CSV (see the module doc: pydoc examples/onnx_to_graph.py)")
    p.add_argument("model", help="the .onnx file (- reads standard input)")
    p.add_argument("-o", "--out", help="write here instead of stdout (-: stdout)")
    p.add_argument("--list-dims", action="store_true", help="list the inputs' dynamic dimensions and exit")
    p.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE",
                   help="a dynamic dimension (exporter name or INPUT:AXIS; a size from the data OUTPUT:AXIS, or a "
                        "pattern such as '*' for those) = a number >= 0, or a symbol (an identifier) kept in the "
                        "sizes; repeatable")
    p.add_argument("--input", action="append", default=[], metavar="NAME=VALUE",
                   help="bind a scalar graph input to a number (folds an If on it); repeatable")
    p.add_argument("--exact", action="store_true",
                   help="the sizes from the data given with --dim are one run's counts, not bounds: plan that run")
    p.add_argument("--if", action="append", default=[], metavar="NODE=then|else", dest="branch",
                   help="take this branch of the If node NODE whose condition is computed from the data; repeatable")
    add_cost_options(p)
    p.add_argument("--cpu-ops", default=None,
                   help="comma-separated op types the accelerator lacks (default: the list in the doc)")
    a = p.parse_args(argv)
    check_cost_options(a, p.error)
    a.dims, a.symbols = {}, {}
    for d in a.dim:
        name, eq, value = d.rpartition("=")
        if not eq or not name or not value:
            p.error("--dim %r: expected NAME=VALUE or NAME=SYMBOL" % d)
        if re.fullmatch(r"[0-9]+", value):
            a.dims[name] = int(value)  # 0 is refused with the model's name (a bad dimension, exit 2)
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,30}", value):
            if is_pattern(name):
                p.error("--dim %r: a pattern takes a number (each dimension it matches clamped to its most), not "
                        "a symbol" % d)
            a.symbols[name] = value
        else:
            p.error("--dim %r: VALUE must be an integer or a symbol (an identifier of at most 31 bytes)" % d)
    if len(set(a.symbols.values())) > 2:
        p.error("--dim: at most two symbols (plan plans over one or two)")
    a.inputs = {}
    for d in a.input:
        name, eq, value = d.partition("=")
        try:
            a.inputs[name] = float(value) if re.search(r"[.eE]", value) else int(value)
        except ValueError:
            p.error("--input %r: expected NAME=NUMBER" % d)
        if not eq or not name:
            p.error("--input %r: expected NAME=NUMBER" % d)
    a.branches = {}
    for d in a.branch:
        name, eq, value = d.rpartition("=")
        if not eq or not name or value not in ("then", "else"):
            p.error("--if %r: expected NODE=then or NODE=else" % d)
        if a.branches.get(name, value) != value:
            p.error("--if %s: given both branches (convert once per branch)" % name)
        a.branches[name] = value
    a.cpu_ops = set(a.cpu_ops.split(",")) if a.cpu_ops is not None else CPU_OPS
    return a


# ---- the model's dynamic dimensions -------------------------------------------

def dynamic_dims(graph, init):
    """[(short name, input, axis, exporter name or '')] for every input axis
    without a fixed size."""
    out = []
    for vi in graph.input:
        if vi.name in init or not vi.type.HasField("tensor_type"):
            continue
        t = vi.type.tensor_type
        if not t.HasField("shape"):
            continue
        for k, d in enumerate(t.shape.dim):
            if not (d.HasField("dim_value") and d.dim_value > 0):
                out.append(("%s:%d" % (vi.name, k), vi.name, k, d.dim_param if d.HasField("dim_param") else ""))
    return out


def node_outputs(graph):
    """The names of the node outputs of graph and of every subgraph in it."""
    found = set()
    for n in graph.node:
        found.update(n.output)
        for a in n.attribute:
            for sub in ([a.g] if a.type == 5 else list(a.graphs) if a.type == 10 else []):
                found |= node_outputs(sub)
    return found


def input_dim_names(graph, init):
    """The names a --dim may give an input's dynamic dimension: INPUT:AXIS and the exporter's."""
    dyn = dynamic_dims(graph, init)
    return {s for s, _, _, _ in dyn} | {e for _, _, _, e in dyn if e}


def input_shapes(path, graph, init, dims, symbols, bound):
    """Each non-initializer, unbound input's shape: ints, or symbol names."""
    known = input_dim_names(graph, init)
    outputs = None
    for name in list(dims) + list(symbols):  # else a node output's axis (checked after the pass) or a pattern
        if name in known or is_pattern(name):
            continue
        if outputs is None:
            outputs = node_outputs(graph)
        if name.rpartition(":")[0] not in outputs or not re.fullmatch(r"[0-9]+", name.rpartition(":")[2]):
            raise Bad("--dim %s: no such dynamic dimension (the model has: %s%s)"
                      % (name, ", ".join(sorted(known)) or "none", "" if ":" not in name else
                         "; no node output is named '%s'" % name.rpartition(":")[0]))
    for name, v in dims.items():
        if v < 0:  # 0: an empty past (a KV-cache decoder's first step), 0-byte rows; an op it breaks is named
            raise Bad("--dim %s=%d: a dimension must be at least 0" % (name, v))
    shapes = {}
    for vi in graph.input:
        if vi.name in init or vi.name in bound:
            continue
        t = vi.type.tensor_type
        if not vi.type.HasField("tensor_type"):
            raise Bad("input '%s' is not a tensor (sequences and maps are not supported)" % vi.name)
        if not t.HasField("shape"):
            raise Bad("input '%s' has no shape (rank unknown)" % vi.name)
        shape = []
        for k, d in enumerate(t.shape.dim):
            if d.HasField("dim_value") and d.dim_value > 0:
                shape.append(d.dim_value)
                continue
            if d.HasField("dim_value") and d.dim_value < 0:
                raise Bad("input '%s' axis %d: dimension %d (negative)" % (vi.name, k, d.dim_value))
            short, exp = "%s:%d" % (vi.name, k), d.dim_param if d.HasField("dim_param") else ""
            for key in (short, exp):
                if key and key in dims:
                    shape.append(dims[key])
                    break
                if key and key in symbols:
                    shape.append(symbols[key])
                    break
            else:
                raise Bad("input '%s' axis %d (%s) is dynamic: give it with --dim %s=VALUE or --dim %s=SYMBOL "
                          "(--list-dims lists them)" % (vi.name, k, exp or "unnamed", short, short))
        shapes[vi.name] = (shape, t.elem_type)
    return shapes


# ---- one pass over the graph at fixed dimensions --------------------------------

class Value:
    """A value of the pass: a shape and element type; const when folded;
    row when it is a run-time value (an input or a node output); known: a
    row's values where they fold (a causal mask kept as a row), to check
    what reads them as a fixed conversion does."""
    __slots__ = ("shape", "elem", "const", "row", "known", "src", "dirs", "axes", "zero_test", "seq")

    def __init__(self, shape, elem, const=None, row=None):
        self.shape, self.elem, self.const, self.row = [int(d) for d in shape], elem, const, row
        self.known = None
        self.src = frozenset()  # a folded value's rows it was read from (a count: the NonZero that makes it)
        # how it moves as the sizes from the data grow (UP, DOWN, NONNEG bits; None: it does not): dirs per
        # element of const (or known), axes per axis of shape; zero_test: 'v == 0' for v UP and NONNEG
        self.dirs, self.axes, self.zero_test = None, None, None
        self.seq = None  # a sequence's elements [(shape, elem)] (its shape [] then, its bytes theirs)

    def rows(self):
        """The rows a reader of this value depends on."""
        return self.src | ({self.row} if self.row is not None else set())


def np_dtype(onnx, elem):
    try:
        return onnx.helper.tensor_dtype_to_np_dtype(elem) if hasattr(onnx.helper, "tensor_dtype_to_np_dtype") \
            else onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem]
    except (KeyError, ValueError):
        return None


# Bits per element by TensorProto.DataType, as stored: not numpy's type for
# it (onnx maps BFLOAT16 and the FLOAT8 types to float32 and INT4 to int8).
ELEM_BITS = {1: 32, 2: 8, 3: 8, 4: 16, 5: 16, 6: 32, 7: 64, 9: 8, 10: 16, 11: 64, 12: 32, 13: 64, 14: 64, 15: 128,
             16: 16, 17: 8, 18: 8, 19: 8, 20: 8, 21: 4, 22: 4, 23: 4}
ELEM_NAMES = {0: "UNDEFINED", 8: "STRING"}


def elem_bytes(elem, count):
    """Bytes of count elements (sub-byte types packed, rounded up), or None."""
    bits = ELEM_BITS.get(elem)
    return None if bits is None else (count * bits + 7) // 8


def subgraph_inputs(node):
    """The names a node's subgraphs (If branches, Loop bodies) read: values
    of the enclosing graph when nothing inside computes them."""
    names = set()
    for a in node.attribute:
        for g in ([a.g] if a.type == 5 else list(a.graphs) if a.type == 10 else []):
            inner = {o for n in g.node for o in n.output} | {t.name for t in g.initializer} | {i.name for i in g.input}
            for n in g.node:
                names.update(i for i in list(n.input) + sorted(subgraph_inputs(n)) if i and i not in inner)
    return names


def topological(nodes):
    """(the nodes in a topological order, how many nodes read a value the
    file computes after them): the file's order
    when it is one (ONNX requires it, but graph rewriters such as the float16
    converters append nodes at the end and ONNX Runtime sorts them itself);
    else Kahn's order, the earliest node in the file first among the ready
    ones. A cycle is refused, naming its nodes."""
    import heapq
    nodes = list(nodes)
    producer = {}
    for k, n in enumerate(nodes):
        for o in n.output:
            if o:
                producer.setdefault(o, k)
    needs = []
    for k, n in enumerate(nodes):
        names = set(i for i in n.input if i) | subgraph_inputs(n)
        if any(producer.get(i) == k for i in names):
            raise Bad("the graph has a cycle: %s reads its own output" % node_label(n))
        needs.append({producer[i] for i in names if i in producer})
    if all(j < k for k, d in enumerate(needs) for j in d):
        return nodes, 0
    users = [[] for _ in nodes]
    for k, d in enumerate(needs):
        for j in d:
            users[j].append(k)
    waiting = [len(d) for d in needs]
    ready = [k for k, w in enumerate(waiting) if w == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        k = heapq.heappop(ready)
        order.append(k)
        for u in users[k]:
            waiting[u] -= 1
            if waiting[u] == 0:
                heapq.heappush(ready, u)
    if len(order) < len(nodes):
        stuck = [k for k in range(len(nodes)) if waiting[k] > 0]
        k = stuck[0]  # follow unfinished producers back until one repeats: a cycle
        path = []
        while k not in path:
            path.append(k)
            k = min(j for j in needs[k] if waiting[j] > 0)
        cycle = path[path.index(k):]
        raise Bad("the graph has a cycle: %s (each needs the next one's output)"
                  % " -> ".join(node_label(nodes[j]) for j in cycle + [k]))
    return [nodes[k] for k in order], sum(1 for k, d in enumerate(needs) if any(j > k for j in d))


class Pass:
    def __init__(self, onnx, np, path, model, input_values, bound):
        self.onnx, self.np, self.path, self.model = onnx, np, path, model
        self.base = os.path.dirname(os.path.abspath(path)) if path != "-" else os.getcwd()  # external data's folder
        self.opsets = {o.domain: o.version for o in model.opset_import}
        self.opset = self.opsets.get("", self.opsets.get("ai.onnx", 1))
        self.values = {}
        self.rows = []  # [name, op, size, node, input rows, input bytes, flops]
        self.branches = {}  # --if: If node name -> 'then' or 'else'
        self.ifs = set()  # the If nodes met
        self.no_fold = set()  # values computed at run time though foldable: their shapes follow a dynamic dimension
        self.folded = {}  # name -> shape of every folded node output
        self.dims = {}  # the dimensions the pass is at
        self.data = {}  # data-dependent dimension met -> (node label, most or None, why, value, the --dim used)
        self.alias = {}  # (op, input) -> the name of the data-dependent dimension it shares (NonZero twice on one mask)
        self.missing = []  # data-dependent dimensions not given: (name, node label, most, why)
        self.shift = set()  # patterns whose dimensions are each moved by one (finding what follows them)
        self.clamp = False  # a bound past its most is taken at its most (checking below another bound)
        self.collect = False  # --list-dims: a dimension not given is taken at its most (else 1), not refused
        self.exact = EXACT[0]  # --exact: the sizes from the data are one run's, not bounds (no direction is needed)
        self.data_calls = 0  # data_dim's calls: a node making one has a shape that grows with it
        self.tied = set()  # --dims the model refuses moved by one (tied to a constant): held when checking below
        self.zero_ifs = []  # the Ifs on 'v == 0' (v only grows): (node label, condition) planned at the bound
        self.if_max = []  # the Ifs on a run-time condition whose branches' outputs differ: planned at the larger
        self.declared = None  # name -> the element type the model declares (read when an op's output needs it)
        g = model.graph
        self.weights = {t.name for t in g.initializer}  # a weight not read (external data) is not a run-time value
        self.context = []  # the Loops and Scans whose body the pass is in: a data-dependent dimension's label
        for t in g.initializer:
            self.initializer(t)
        for name, v in bound.items():
            self.put_const(name, v)
        for vi in g.input:
            if vi.name in self.values:
                continue
            shape, elem = input_values[vi.name]
            self.values[vi.name] = Value(shape, elem, row=len(self.rows))
            self.rows.append([vi.name, "input", self.bytes(shape, elem, vi.name), None, [], 0, 0])

    def initializer(self, t):
        """A weight: its values, or only its shape when they are stored
        outside the model (external data) and too many to fold; a small
        external tensor is read from its file beside the model."""
        onnx = self.onnx
        if any(d < 0 for d in t.dims):
            raise Bad("initializer '%s': dimension %d in its shape %s (negative)"
                      % (t.name, min(t.dims), list(t.dims)))
        n = prod(t.dims)
        if t.data_location == onnx.TensorProto.EXTERNAL:
            data = self.external(t, elem_bytes(t.data_type, n), n <= EXTERNAL_READ)
            if data is not None:
                t.raw_data = data
                t.data_location = onnx.TensorProto.DEFAULT
                del t.external_data[:]
            if t.data_location == onnx.TensorProto.EXTERNAL or not (t.raw_data or n == 0):
                if elem_bytes(t.data_type, n) is None:
                    raise Bad("initializer '%s': element type %s has no fixed size"
                              % (t.name, ELEM_NAMES.get(t.data_type, t.data_type)))
                self.values[t.name] = Value(list(t.dims), t.data_type)
                return
        if np_dtype(onnx, t.data_type) is None and t.raw_data and len(t.raw_data) == elem_bytes(t.data_type, n):
            self.values[t.name] = Value(list(t.dims), t.data_type)  # float8, int4 to this onnx: sized, not folded
            return
        try:
            arr = onnx.numpy_helper.to_array(t)
        except (ValueError, TypeError, KeyError) as e:  # data of the wrong length for its shape, an unknown type
            raise Bad("initializer '%s' (shape %s, type %s): its data does not fit it: %s"
                      % (t.name, list(t.dims), ELEM_NAMES.get(t.data_type, t.data_type), e))
        self.put_const(t.name, arr, t.data_type)  # bfloat16, float8, int4: numpy holds them wider

    def external(self, t, size, read):
        """The bytes of an external tensor (read: small enough to fold), or
        None when they are not read or cannot be (a missing file, one cut
        short: the weight is sized only). A location outside the model's
        folder, a file that is not a regular one (a FIFO, a device), an offset
        < 0 or a length that is not the tensor's are refused."""
        info = {e.key: e.value for e in t.external_data}
        where = "initializer '%s': external data" % t.name
        loc = info.get("location", "")
        base = os.path.realpath(self.base)
        path = os.path.realpath(os.path.join(base, loc))
        if not loc or os.path.commonpath([base, path]) != base or path == base:
            raise Bad("%s at '%s': not a file inside the model's folder" % (where, loc))
        try:
            offset = int(info.get("offset", "0"))
            length = int(info["length"]) if "length" in info else None
        except ValueError:
            raise Bad("%s: offset '%s' or length '%s' is not an integer"
                      % (where, info.get("offset", ""), info.get("length", "")))
        if offset < 0 or (length is not None and size is not None and length != size):
            raise Bad("%s: offset %d, length %s for a tensor of %s bytes" % (where, offset, length, size))
        try:
            st = os.stat(path)
        except OSError:
            return None  # missing: its shape only (an op that needs its values names it)
        import stat
        if not stat.S_ISREG(st.st_mode):
            raise Bad("%s at '%s': not a regular file" % (where, loc))
        if not read or size is None:
            return None
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                data = f.read(size)
        except OSError:
            return None
        return data if len(data) == size else None  # a file cut short: its shape only

    def put_const(self, name, arr, elem=None):
        """A folded value; elem: its ONNX type when numpy's for it is wider."""
        arr = self.np.asarray(arr)
        self.values[name] = Value(arr.shape, elem or self.elem_of(name, arr), const=arr)

    def elem_of(self, name, arr):
        """The ONNX type numpy's type of arr stands for."""
        try:
            return self.onnx.helper.np_dtype_to_tensor_dtype(arr.dtype) \
                if hasattr(self.onnx.helper, "np_dtype_to_tensor_dtype") \
                else self.onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[arr.dtype]
        except (KeyError, ValueError, TypeError):
            raise Bad("constant '%s': element type %s is not an ONNX tensor type" % (name, arr.dtype))

    def bytes(self, shape, elem, what):
        n = 1
        for d in shape:
            n *= d
        size = elem_bytes(elem, n)
        if size is None:
            raise Bad("value '%s': element type %s has no fixed size (strings and unknown types are not supported)"
                      % (what, ELEM_NAMES.get(elem, elem)))
        if size >= 1 << 62:
            raise Bad("value '%s': shape %s is %d bytes, past what a plan holds (2^62)" % (what, list(shape), size))
        return size

    def declared_elem(self, node, name):
        """The element type of an output typed apart from the inputs (MultiHeadAttention's qk): the one the
        model declares for it (graph outputs, value_info: their types, not their shapes), else float32 (the
        widest it may have); a type its schema does not allow is refused."""
        if self.declared is None:
            self.declared = declared_elems(self.model.graph)
        elem = self.declared.get(name, 0)
        if elem and elem not in (1, 10, 16):  # float, float16, bfloat16
            raise Bad("%s: output '%s' is declared of element type %d: the op gives float, float16 or bfloat16"
                      % (node_label(node), name, elem))
        return elem or 1

    def get(self, node, name):
        if name not in self.values:
            raise Bad("%s: input '%s' is not computed before it (not in topological order, or missing)"
                      % (node_label(node), name))
        return self.values[name]

    def run(self, graph, top=False):
        if not top:  # a branch's own constants
            for t in graph.initializer:
                self.initializer(t)
        for node in topological(graph.node)[0]:
            self.node(node)

    def node(self, node):
        op = node.op_type
        for x in node.attribute:  # a corrupted attribute type: named here, not met by every reader below
            try:
                self.onnx.helper.get_attribute_value(x)
            except ValueError:
                raise Bad("%s: attribute '%s' has an unknown type (%d)" % (node_label(node), x.name, x.type))
            if x.name in POSITIVE_ATTRS and x.type in (2, 7):  # INT, INTS: onnx 1.12's shape inference divides by them
                vals = list(x.ints) if x.type == 7 else [x.i]
                if any(v < 1 for v in vals):
                    many = x.type == 7
                    raise Bad("%s: attribute '%s' is %s: %s be >= 1" % (
                        node_label(node), x.name, vals if many else vals[0], "each must" if many else "it must"))
        subgraphs = [x for x in node.attribute if x.type in (5, 10)]  # GRAPH, GRAPHS
        if op == "If" and node.domain in ("", "ai.onnx"):
            return self.inline_if(node)
        if op in ("Loop", "Scan") and node.domain in ("", "ai.onnx"):
            return self.loop(node)
        if subgraphs:
            raise Bad("%s: a node with a subgraph (its body runs a run-time number of times) is not supported; "
                      "export the model without it (e.g. unrolled) or fold it with onnx-simplifier" % node_label(node))
        ins = [self.get(node, i) if i else None for i in node.input]
        if ins and ins[0] is None and op not in ("Optional", "OptionalHasElement"):  # only these may omit it
            raise Bad("%s: its first input is missing (an empty name)" % node_label(node))
        self.check_required(node, ins)
        if op == "Identity":
            self.values[node.output[0]] = ins[0]
            return
        seq = next((i for i, v in zip(node.input, ins) if v is not None and v.seq is not None), None)
        if node.domain in ("", "ai.onnx") and op in SEQUENCE_OPS:
            return self.sequence(node, ins)
        if seq is not None:
            raise Bad("%s: input '%s' is a sequence: only the sequence ops (SequenceAt, ConcatFromSequence...) read "
                      "one here" % (self.label(node), seq))
        if op == "Constant":
            v = node.attribute[0].t if node.attribute and node.attribute[0].name == "value" else None
            return self.put_const(node.output[0], self.constant(node), v.data_type if v is not None else None)
        self.check_grows(node, ins)
        calls = self.data_calls
        known = None
        if self.no_fold.intersection(node.output):  # a row, but evaluated as when folded: its readers are checked
            folded = None
            kins = [self.as_known(v) if v is not None and v.const is None and v.known is not None else v for v in ins]
            known = self.fold(node, kins)
        else:
            folded = self.fold(node, ins)
        moving = [v for v in ins if v is not None and (v.dirs is not None or v.axes is not None)]
        dirs, zero = fold_dirs(self.np, self, op, kins if known is not None else ins, known or folded or [],
                               {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute}) \
            if moving and (folded is not None or known is not None) else ([None] * len(node.output), False)
        zero = zero or op == "Cast" and ins[0].zero_test
        # its shape grows with the sizes from the data when an input's does or a value deciding it moves
        shaped = bool(moving) and (any(v is not None and v.axes is not None for v in ins) or any(
            k < len(ins) and ins[k] is not None and ins[k].dirs is not None for k in SHAPE_INPUTS.get(op, ()))) \
            or self.data_calls != calls
        if folded is not None:
            # numpy computed bfloat16 (float8, int4) as a wider type: the result of that type is of the input's
            wide = {self.elem_of(i, v.const): v.elem for i, v in zip(node.input, ins)
                    if v is not None and v.const is not None}
            wide = {k: e for k, e in wide.items() if k != e}
            to = [x.i for x in node.attribute if x.name == "to"] if op == "Cast" else []
            # a size read from a value the data shapes is known when its node has run: its readers depend on it
            src = frozenset().union(*(v.src if v.const is not None else v.rows() if op in ("Shape", "Size") and
                                      (self.data or v.axes is not None) else () for v in ins if v is not None))
            for k, (name, arr) in enumerate(zip(node.output, folded)):
                if name:
                    self.put_const(name, arr, to[0] if to else wide.get(self.elem_of(name, arr)))
                    v = self.values[name]
                    v.src = src
                    v.dirs = dirs[k] if k < len(dirs) else None
                    v.axes = self.out_axes(node, ins, list(arr.shape), k) if shaped and op not in ("Shape", "Size") \
                        else None
                    v.zero_test = zero if k == 0 else None
                    self.folded[name] = arr.shape
            return
        if node.domain in ("", "ai.onnx") and op in DATA_OPS:
            shapes = self.data_shapes(node, ins)
        else:
            shapes = self.infer(node, ins)
        self.check_inputs(node, ins, shapes)
        deps = sorted(set().union(*(v.rows() for v in ins if v is not None)))
        in_shapes = [v.shape if v is not None else None for v in ins]
        in_bytes = sum(self.bytes(v.shape, v.elem, "input") for v in ins if v is not None)
        attrs = {x.name: self.onnx.helper.get_attribute_value(x) for x in node.attribute}
        for name, got in zip(node.output, shapes):
            if not name or got is None:  # an optional output no rule gives (unused downstream, else refused)
                continue
            shape, elem = got
            if any(d < 0 for d in shape):
                raise Bad("%s: output '%s' would have the shape %s: the inputs (%s) are too small for it"
                          % (node_label(node), name, shape, ", ".join(str(v.shape) for v in ins if v is not None)))
            self.values[name] = Value(shape, elem, row=len(self.rows))
            k = list(node.output).index(name)
            if known is not None and k < len(known) and list(known[k].shape) == list(shape):
                self.values[name].known = known[k]
                self.values[name].dirs = dirs[k] if k < len(dirs) else None
            if self.data_calls != calls:
                self.values[name].axes = [UP | NONNEG] * len(shape)
            elif shaped:
                self.values[name].axes = self.out_axes(node, ins, shape, k)
            flops = flops_of(op, in_shapes, shape, attrs, [g[0] if g else None for g in shapes])
            self.rows.append([name, op, self.bytes(shape, elem, name), node, deps, in_bytes, flops])

    def data_dim(self, node, out, axis, most, why, alias=None, optional=False):
        """The bound of output out's axis, a size the data decides (NonZero's count, NonMaxSuppression's
        selected boxes, TopK's k from data, a Loop's steps until a condition): the --dim named out:axis, or a
        --dim pattern matching it (clamped to most); above most (None: unknown) it is refused. alias: the
        same count under another node (NonZero twice on one mask): one name for both."""
        key = "%s:%d" % (out, axis)
        if alias is not None:
            key = self.alias.setdefault(alias, key)
        used, v = None, None
        if key in self.dims:
            used, v = key, self.dims[key]
            if most is not None and v > most and self.clamp:  # below another bound: this one can be no more
                v = most
            elif most is not None and v > most:
                raise Past("%s: --dim %s=%d is past the most it can make, %d (%s)"
                           % (node_label(node), key, v, most, why))
        elif not optional:  # a pattern leaves a size that needs no bound (a Loop's constant trip count) alone
            for pat in self.dims:
                if is_pattern(pat) and fnmatch.fnmatchcase(key, pat):
                    used, v = pat, self.dims[pat] if most is None else min(self.dims[pat], most)
                    if pat in self.shift:  # each dimension it gives moved by one from its own (dim_dependent)
                        v = v - 1 if v >= 1 else v + 1 if most is None or most > v else v
                    break
        if used is None and optional:  # not given: its most (a Loop's constant trip count)
            v = most
        elif used is None:
            if not any(m[0] == key for m in self.missing):
                self.missing.append((key, self.label(node), most, why))
            if most is None and not self.collect:
                raise Missing(missing_text(self.missing))
            v = most if most is not None else 1
        if key not in self.data:  # an alias keeps the first node's
            self.data[key] = (self.label(node), most, why, v, used)
        self.data_calls += 1
        return v

    def out_axes(self, node, ins, shape, k=0):
        """How each axis of a node's output k (of shape) moves with the sizes from the data (None: none moves):
        from its inputs' axes and the values deciding it, by the op's shape rule where it is a simple one (a
        Gather, Concat, Transpose, an element-wise op...), else every axis taken to grow."""
        op, r = node.op_type, len(shape)
        grow = [UP | NONNEG] * r
        ax = [v.axes if v is not None and v.axes is not None else [0] * len(v.shape) if v is not None else None
              for v in ins]
        vd = [v is not None and v.dirs is not None for v in ins]
        attrs = {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute}
        if node.domain not in ("", "ai.onnx") or not ins or ins[0] is None:
            return grow
        out = None
        try:
            if op == "Gather" and not vd[0]:
                a = attrs.get("axis", 0) % max(len(ins[0].shape), 1)
                out = ax[0][:a] + ax[1] + ax[0][a + 1:]
            elif op == "Concat":
                out = [0] * r
                for x in ax:
                    if x is not None and len(x) == r:
                        out = [o | y for o, y in zip(out, x)]
            elif op == "Gemm" and len(ins) > 1 and len(ax[0]) == 2 and len(ax[1]) == 2:
                out = [ax[0][1 if attrs.get("transA", 0) else 0], ax[1][0 if attrs.get("transB", 0) else 1]]
            elif op == "MatMul" and len(ins) > 1 and len(ax[0]) >= 2 and len(ax[1]) >= 2:
                batch = [0] * (r - 2)
                for x in (ax[0][:-2], ax[1][:-2]):
                    x = [0] * (r - 2 - len(x)) + list(x)
                    batch = [o | y for o, y in zip(batch, x)]
                out = batch + [ax[0][-2], ax[1][-1]]
            elif op == "Conv" and len(ins) > 1 and len(ax[0]) == r and len(ax[1]) == r:
                spatial = 0
                for x in ax[0][2:] + ax[1][2:]:
                    spatial |= x
                out = [ax[0][0], ax[1][0]] + [spatial] * (r - 2)
            elif op == "Transpose":
                perm = attrs.get("perm") or list(range(r))[::-1]
                out = [ax[0][p] for p in perm]
            elif op in ("Unsqueeze", "Squeeze", "Slice", "Expand", "Tile") and any(vd[1:]):
                out = None  # a value deciding it moves: each axis taken to grow (that value is checked to)
            elif op == "ConstantOfShape":
                d = ins[0].dirs if ins[0].dirs is not None else self.np.zeros(r, self.np.int8)
                out = [int(x) & UNKNOWN for x in self.np.asarray(d).reshape(-1)]
            elif op == "Unsqueeze":
                axes = _axes(attrs, [None] + [_vals(v) if v is not None else None for v in ins[1:]])
                axes = sorted(a % r for a in axes)
                it = iter(ax[0])
                out = [0 if j in axes else next(it) for j in range(r)]
            elif op == "Squeeze" and len(ins[0].shape) > r:
                rin = len(ins[0].shape)
                axes = _axes(attrs, [None] + [_vals(v) if v is not None else None for v in ins[1:]])
                axes = [j for j in range(rin) if ins[0].shape[j] == 1] if axes is None else [a % rin for a in axes]
                out = [x for j, x in enumerate(ax[0]) if j not in axes]
            elif op == "Reshape" and ins[1] is not None and _vals(ins[1]) is not None:
                t = [int(x) for x in self.np.asarray(_vals(ins[1])).reshape(-1)]
                td = [int(x) & UNKNOWN for x in self.np.asarray(_dirs(self.np, ins[1])).reshape(-1)]
                copied = [j for j, d in enumerate(t) if d == 0 and not attrs.get("allowzero", 0)]
                moves = any(x & UNKNOWN for x in ax[0])
                # the -1: the input's elements over the others' (its bytes are the input's whatever it is, but a
                # size read from it grows only when the input only grows and the others stay)
                rest = UNKNOWN if any(td[j] for j in range(len(t)) if t[j] != -1) and (moves or any(td)) else \
                    0 if not moves else UP if all(not (x & DOWN) for x in ax[0]) and \
                    not any(ax[0][j] & UNKNOWN for j in copied if j < len(ax[0])) else UNKNOWN
                out = [ax[0][j] if j in copied else rest if d == -1 else td[j] for j, d in enumerate(t)]
            elif list(ins[0].shape) == list(shape) and op not in SHAPE_INPUTS:
                out = list(ax[0])  # an element-wise op: each axis as the inputs' broadcast to it
                for x in ax[1:]:
                    if x is not None and len(x) <= r:
                        x = [0] * (r - len(x)) + list(x)
                        out = [o | y for o, y in zip(out, x)]
        except (TypeError, IndexError, ValueError, ZeroDivisionError):
            out = None
        if out is None or len(out) != r:
            return grow
        out = [(x & UNKNOWN) | (NONNEG if x & UNKNOWN else 0) for x in out]
        return out if any(out) else None

    def as_known(self, v):
        """A row whose values fold (kept a row: its shape follows a dimension) as a constant of them."""
        k = Value(v.shape, v.elem, const=v.known)
        k.dirs, k.axes = v.dirs, v.axes
        return k

    def bounds_text(self):
        given = sorted({"--dim %s=%d" % (u, self.dims[u]) for _, _, _, _, u in self.data.values()
                        if u is not None and u in self.dims})
        ifs = ["the larger branch output of %s" % ", ".join(sorted({x[0] for x in self.if_max})[:3])] \
            if self.if_max else []
        return ", ".join(given + ifs) or "the sizes computed from the data"

    def if_choice(self):
        """The If to name in '--if NODE=then': the one planned at its larger branch, else NODE."""
        names = {x[1] for x in self.if_max}
        return names.pop() if len(names) == 1 else "NODE"

    def check_grows(self, node, ins):
        """A size decided by a value that moves with the sizes from the data: refused unless it only grows with
        them (a Slice's start only falls, staying >= 0; its end only grows, >= 0), so that the plan at the
        bounds holds below them (the values' directions are proven, not sampled: fold_dirs)."""
        if self.exact or node.domain not in ("", "ai.onnx"):
            return
        np = self.np
        for k in SHAPE_INPUTS.get(node.op_type, ()):
            v = ins[k] if k < len(ins) else None
            if v is None or v.dirs is None:
                continue
            d, vals = v.dirs, _vals(v)
            op = node.op_type
            with np.errstate(all="ignore"):
                if (op, k) in CONST_INPUTS:
                    bad, how = d != 0, "moves (only a constant one is taken here: %s)" % CONST_INPUTS[op, k]
                elif op in DIR_AXES or op == "Slice" and k >= 3 or op == "Range" and k == 2:
                    bad, how = (d & UNKNOWN) != 0, "moves (only a constant one is taken here)"
                elif op == "Slice" and k == 1 or op == "Range" and k == 0:  # a start: it may fall
                    bad = ((d & UP) != 0) | ((d & UNKNOWN) != 0) & (np.asarray(vals) < 0)
                    how = "may grow or fall below 0 (a start: the size then falls)"
                elif op == "Slice" and k == 2:
                    bad, how = ((d & DOWN) != 0) | ((d & UNKNOWN) != 0) & ((d & NONNEG) == 0), \
                        "may shrink or be negative below the bound (an index from the end)"
                else:
                    bad, how = (d & DOWN) != 0, "may shrink" if not (d & UP).any() else "moves either way"
            if op in ("Slice", "Range") and not bad.any() and (d & UNKNOWN).any():
                step = ins[4] if op == "Slice" and len(ins) > 4 else ins[2] if op == "Range" else None
                if step is not None and (step.const is None or (np.asarray(step.const) <= 0).any()):
                    bad, how = d & UNKNOWN, "moves, with a step that is not a constant > 0"
            if bad.any() and not self.data:  # moved by an If's larger branch only (Pass.both_branches)
                raise Bad("%s: input %d ('%s') is computed from the larger branch output of %s and %s as it grows "
                          "(%s): its size does not grow with it, so a plan at the larger branch need not hold for "
                          "the other; choose the branch with --if %s=then (or =else) and convert once per branch"
                          % (self.label(node), k, node.input[k], ", ".join(sorted({x[0] for x in self.if_max})[:3]),
                             how, "values %s" % np.asarray(vals).reshape(-1)[:4].tolist(),
                             self.if_choice()))
            if bad.any():
                raise Bad("%s: input %d ('%s') is computed from sizes the data decides and %s as they grow (%s): "
                          "its size does not grow with %s, so a plan at the bound need not hold below it; plan "
                          "one run at its exact counts with --exact (not a bound)%s"
                          % (self.label(node), k, node.input[k], how,
                             "values %s" % np.asarray(vals).reshape(-1)[:4].tolist(), self.bounds_text(),
                             "; or choose that If's branch with --if NODE=then (or =else)" if self.if_max else ""))

    def label(self, node):
        return "".join("%s: in its body, " % c for c in self.context) + node_label(node)

    def data_shapes(self, node, ins):
        """[(shape, elem)] of an op whose output size the data decides, its count a data_dim; TopK with a k
        known before the run is inferred as any op."""
        op, np = node.op_type, self.np
        attrs = {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute}
        name = next((o for o in node.output if o), None)
        if name is None:
            return [None] * len(node.output)
        x = ins[0]
        if op == "NonZero":  # [rank, count]; a scalar as one element (ONNX Runtime's)
            n = self.data_dim(node, name, 1, prod(x.shape), "the input's element count", ("NonZero", node.input[0]))
            return [([max(len(x.shape), 1), n], self.onnx.TensorProto.INT64)]
        if op == "NonMaxSuppression":  # selected_indices [count, 3]: (batch, class, box) per box kept
            if len(ins) < 2 or ins[1] is None or len(x.shape) != 3 or len(ins[1].shape) != 3 or \
                    x.shape[2] != 4 or ins[1].shape[0] != x.shape[0] or ins[1].shape[2] != x.shape[1]:
                raise Bad("%s: boxes %s and scores %s: expected [batches, boxes, 4] and [batches, classes, boxes]"
                          % (node_label(node), x.shape, ins[1].shape if len(ins) > 1 and ins[1] else None))
            per = ins[2] if len(ins) > 2 else None
            per_class = x.shape[1]
            if per is None or per.const is not None and per.const.size == 1:
                k = int(per.const.reshape(-1)[0]) if per is not None else 0  # missing: 0, none kept
                per_class = max(0, min(k, x.shape[1]))
                what = "batches %d x classes %d x min(max_output_boxes_per_class %d, boxes %d)" % (
                    x.shape[0], ins[1].shape[1], k, x.shape[1])
            else:
                what = "batches %d x classes %d x boxes %d" % (x.shape[0], ins[1].shape[1], x.shape[1])
            most = x.shape[0] * ins[1].shape[1] * per_class
            n = self.data_dim(node, name, 0, most, what) if most else 0
            return [([n, 3], self.onnx.TensorProto.INT64)]
        if op == "Compress":  # the kept slices: at most the condition's length, and the axis's
            cond = ins[1] if len(ins) > 1 else None
            if cond is None or len(cond.shape) != 1:
                raise Bad("%s: its condition must be 1-D" % node_label(node))
            axis = attrs.get("axis")
            r = len(x.shape)
            if axis is not None and not -r <= axis < r:
                raise Bad("%s: axis %d for an input of shape %s" % (node_label(node), axis, x.shape))
            length = prod(x.shape) if axis is None else x.shape[axis % r]
            if cond.const is not None:
                n = int(np.count_nonzero(cond.const.reshape(-1)[:length]))
            else:
                n = self.data_dim(node, name, 0 if axis is None else axis % r, min(length, cond.shape[0]),
                                  "the %s's length and the condition's" % ("input" if axis is None else "axis"))
            return [([n] if axis is None else x.shape[:axis % r] + [n] + x.shape[axis % r + 1:], x.elem)]
        if op == "Unique":  # Y, indices, counts: one per distinct value (slice along axis), at most the input's
            axis = attrs.get("axis")
            r = len(x.shape)
            if axis is not None and not -r <= axis < r:
                raise Bad("%s: axis %d for an input of shape %s" % (node_label(node), axis, x.shape))
            ax = None if axis is None else axis % r
            length = prod(x.shape) if ax is None else x.shape[ax]
            if x.const is not None and x.dirs is None:  # known before the run: its exact count
                n = int(np.unique(x.const, axis=ax).shape[0 if ax is None else ax])
            else:
                n = self.data_dim(node, name, (ax or 0) if name == node.output[0] else 0, length,
                                  "the input's element count" if ax is None else "the length of the input's axis %d"
                                  % ax, ("Unique", node.input[0], ax)) if length else 0
            int64 = self.onnx.TensorProto.INT64
            y = [n] if ax is None else x.shape[:ax] + [n] + x.shape[ax + 1:]
            return [(y, x.elem), ([n], int64), ([length], int64), ([n], int64)][:len(node.output)]
        # TopK: k a value computed at run time (a k known before is any op's)
        if self.opset < 10 or len(ins) < 2 or ins[1] is None or ins[1].const is not None:
            return self.infer(node, ins)
        r = len(x.shape)
        axis = attrs.get("axis", -1)
        if not -r <= axis < r:
            raise Bad("%s: axis %d for an input of shape %s" % (node_label(node), axis, x.shape))
        n = self.data_dim(node, name, axis % r, x.shape[axis % r], "the length of the input's axis %d" % (axis % r))
        shape = x.shape[:axis % r] + [n] + x.shape[axis % r + 1:]
        return [(shape, x.elem), (shape, self.onnx.TensorProto.INT64)][:len(node.output)]

    def body_outputs(self, node, body, shapes):
        """The shapes of body's outputs with its inputs of shapes [(shape, elem)]: the body run once as a
        branch is, its values then dropped (they live inside the node's step: its scratch, not rows). Returns
        ([(shape, elem)], the body's FLOPs)."""
        if len(body.input) != len(shapes):
            raise Bad("%s: its body has %d inputs, the node gives it %d" % (node_label(node), len(body.input),
                                                                                len(shapes)))
        saved, n_rows, folded = dict(self.values), len(self.rows), dict(self.folded)
        self.context.append(node_label(node))
        try:
            for vi, s in zip(body.input, shapes):
                v = self.values[vi.name] = Value(s[0], s[1])  # sized, not folded: a value of each step
                v.axes = s[2] if len(s) > 2 and s[2] and any(s[2]) else None  # the outer value's moving axes
            self.run(body)
            outs = []
            for o in body.output:
                v = self.get(node, o.name)
                if v.seq is not None:
                    raise Bad("output '%s' is a sequence (a list carried or built step by step): not supported"
                              % o.name)
                outs.append((list(v.shape), v.elem))
            flops = sum(r[6] for r in self.rows[n_rows:])
        except Missing:  # its labels name the body
            raise
        except Bad as e:  # a body node's own message, after the node's name (once: Pass.label may have put it)
            if str(e).startswith("%s: in its body, " % node_label(node)):
                raise
            raise type(e)("%s: in its body, %s" % (node_label(node), e))
        finally:
            self.context.pop()
            self.values, self.folded = saved, folded
            del self.rows[n_rows:]
        return outs, flops

    def loop(self, node):
        """Loop with a trip count known before the run, and Scan: one row per output (the final loop-carried
        values, the scan outputs stacked over the steps); the body's values are the step's scratch, not rows.
        A Loop's condition may stop it earlier: the trip count's sizes are an upper bound."""
        attrs = {a.name: a for a in node.attribute}
        if "body" not in attrs or attrs["body"].type != 5:
            raise Bad("%s: no body (a graph attribute)" % node_label(node))
        body = attrs["body"].g
        ins = [self.get(node, i) if i else None for i in node.input]
        seq = next((i for i, v in zip(node.input, ins) if v is not None and v.seq is not None), None)
        if seq is not None:
            raise Bad("%s: input '%s' is a sequence (carried or scanned): not supported" % (node_label(node), seq))
        val = {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute if a.type in (2, 7)}
        if node.op_type == "Scan":
            if self.opset < 9:
                raise Bad("%s: Scan of opset 8 (a sequence_lens input, a batch axis) is not supported"
                          % node_label(node))
            m = val.get("num_scan_inputs", 0)
            n = len(ins) - m
            if m < 1 or n < 0 or any(v is None for v in ins):
                raise Bad("%s: num_scan_inputs %d for %d inputs (every input given)" % (node_label(node), m, len(ins)))
            shapes, lengths = [(v.shape, v.elem, v.axes) for v in ins[:n]], set()
            in_axes = list(val.get("scan_input_axes", [0] * m))
            if len(in_axes) != m:
                raise Bad("%s: %d scan_input_axes for %d scan inputs" % (node_label(node), len(in_axes), m))
            for v, ax in zip(ins[n:], in_axes):
                r = len(v.shape)
                if not -r <= ax < r:
                    raise Bad("%s: scan axis %d of a scan input of shape %s" % (node_label(node), ax, v.shape))
                lengths.add(v.shape[ax % r])
                shapes.append((v.shape[:ax % r] + v.shape[ax % r + 1:], v.elem,
                               v.axes[:ax % r] + v.axes[ax % r + 1:] if v.axes else None))
            if len(lengths) != 1:
                raise Bad("%s: scan inputs of lengths %s (one length for all)" % (node_label(node), sorted(lengths)))
            steps = lengths.pop()
            outs, flops = self.body_outputs(node, body, shapes)
            carried, scans = outs[:n], outs[n:]
            for k, (v, (shape, _)) in enumerate(zip(ins[:n], carried)):
                if list(v.shape) != shape:
                    raise Bad("%s: state %d is %s in and %s out of the body" % (node_label(node), k, v.shape, shape))
            out_axes = list(val.get("scan_output_axes", [0] * len(scans)))
        else:
            trip = ins[0] if ins else None
            if trip is not None and trip.elem != 7:  # ONNX types M int64 (ONNX Runtime refuses another at load)
                raise Bad("%s: its trip count '%s' is of element type %d: it must be int64"
                          % (node_label(node), node.input[0], trip.elem))
            known = trip is not None and trip.const is not None and trip.const.size == 1
            if known and trip.dirs is not None and (trip.dirs & DOWN).any() and not self.exact:
                raise Bad("%s: its trip count '%s' is computed from sizes the data decides and may shrink as they "
                          "grow: its size does not grow with %s, so a plan at the bound need not hold below it; plan "
                          "one run at its exact counts with --exact" % (self.label(node), node.input[0],
                                                                       self.bounds_text()))
            calls = self.data_calls
            steps = max(int(trip.const.reshape(-1)[0]), 0) if known else None  # a negative M runs no step
            carried_in = ins[2:]
            if any(v is None for v in carried_in):
                raise Bad("%s: a loop-carried input is missing" % node_label(node))
            shapes = [([], 7), ([], 9)] + [(v.shape, v.elem, v.axes) for v in carried_in]
            outs, flops = self.body_outputs(node, body, shapes)
            if len(outs) < 1 + len(carried_in):
                raise Bad("%s: its body has %d outputs for the condition and %d loop-carried values"
                          % (node_label(node), len(outs), len(carried_in)))
            carried, scans = outs[1:1 + len(carried_in)], outs[1 + len(carried_in):]
            stops = self.loop_stops(node, body, ins)
            if steps is None and not stops:
                raise Bad("%s: no trip count and a condition that is never computed at run time: it never stops"
                          % node_label(node))
            names = [o for o in node.output[len(carried_in):] if o]
            if stops and (steps is None or names or steps > LOOP_MOST):  # a while loop: its steps unknown
                # a run-time trip count (or none, or a while loop's 2^63 - 1) and a condition that stops it: the
                # steps are the data's, a bound given as the first scan output's axis 0 (a trip count up to
                # LOOP_MOST: that count when no bound is given, as a Loop that runs its count)
                why = "a Loop's steps: its trip count %s and its condition computed at run time" % (
                    "is missing" if trip is None else "is computed at run time" if steps is None else
                    "is %d" % steps)
                if names:
                    steps = self.data_dim(node, names[0], 0, steps if steps is not None and steps <= LOOP_MOST
                                          else None, why, optional=steps is not None and steps <= LOOP_MOST)
                else:  # nothing sized by the steps: the time counts one
                    steps = None
            carried = self.loop_growth(node, body, carried_in, carried, scans, steps)
            steps = 1 if steps is None else steps
            out_axes = [0] * len(scans)
        if len(out_axes) != len(scans):
            raise Bad("%s: %d scan_output_axes for %d scan outputs" % (node_label(node), len(out_axes), len(scans)))
        results = list(carried)
        for (shape, elem), ax in zip(scans, out_axes):
            r = len(shape) + 1
            if not -r <= ax < r:
                raise Bad("%s: scan output axis %d for a rank %d output" % (node_label(node), ax, r))
            results.append((shape[:ax % r] + [steps] + shape[ax % r:], elem))
        if len(node.output) > len(results):
            raise Bad("%s: %d outputs; its body gives %d" % (node_label(node), len(node.output), len(results)))
        names = set(i for i in node.input if i) | subgraph_inputs(node)
        deps = sorted(set().union(*(self.values[i].rows() for i in names if i in self.values)))
        in_bytes = sum(self.bytes(v.shape, v.elem, "input") for v in ins if v is not None)
        first = True
        grows = node.op_type == "Loop" and self.data_calls != calls or any(
            v is not None and (v.dirs is not None or v.axes is not None) for v in ins)
        for name, (shape, elem) in zip(node.output, results):
            if not name:
                continue
            self.values[name] = Value(shape, elem, row=len(self.rows))
            self.values[name].axes = [UP | NONNEG] * len(shape) if grows else None
            self.rows.append([name, node.op_type, self.bytes(shape, elem, name), node, deps, in_bytes,
                              flops * steps if first else 0])
            first = False

    def loop_growth(self, node, body, carried_in, carried, scans, steps):
        """The final loop-carried values' shapes: each the same as in, or growing along one axis by the same
        amount at every step (torch.jit.script's append in a loop: [0, 3, 17], [1, 3, 17]...; checked on a
        second step), then in + steps x that; any other change is refused. steps: None when unknown."""
        def delta(a, b):
            diff = [k for k in range(len(a)) if a[k] != b[k]] if len(a) == len(b) else None
            return (diff[0], b[diff[0]] - a[diff[0]]) if diff and len(diff) == 1 and b[diff[0]] > a[diff[0]] else None
        grows = [k for k, (v, (shape, _)) in enumerate(zip(carried_in, carried)) if list(v.shape) != shape]
        if not grows:
            return carried
        # a step that reads the size of what grows may grow by another amount at each step: shaped step by step
        seen, reads = {body.input[2 + k].name for k in grows if 2 + k < len(body.input)}, None
        for n in body.node:
            if any(i in seen for i in n.input):
                seen.update(o for o in n.output if o)
                if n.op_type in ("Shape", "Size") and reads is None:
                    reads = node_label(n)
        if reads is not None:
            if steps is None or steps > LOOP_SHAPED:
                raise Bad("%s: loop-carried value %d grows and its body reads its size (%s): it may grow by another "
                          "amount at each step; shaped step by step up to %d steps only (here %s)"
                          % (node_label(node), grows[0], reads, LOOP_SHAPED, steps if steps is not None else
                             "known at run time only"))
            cur, most = [(list(v.shape), v.elem) for v in carried_in], [list(v.shape) for v in carried_in]
            for _ in range(steps):
                outs, _ = self.body_outputs(node, body, [([], 7), ([], 9)] + cur)
                cur = outs[1:1 + len(carried_in)]
                if outs[1 + len(carried_in):] != scans or any(len(c[0]) != len(m) for c, m in zip(cur, most)):
                    raise Bad("%s: its scan outputs or a loop-carried value's rank change from step to step"
                              % node_label(node))
                most = [[max(a, b) for a, b in zip(c[0], m)] for c, m in zip(cur, most)]
            return [(m, c[1]) for m, c in zip(most, carried)]  # a run stopping earlier: no value larger
        d = {k: delta(carried_in[k].shape, carried[k][0]) for k in grows}
        linear = all(d.values())
        if linear:
            second, _ = self.body_outputs(node, body, [([], 7), ([], 9)] + [(shape, elem) for shape, elem in carried])
            linear = second[1 + len(carried):] == scans and all(
                delta(carried[k][0], second[1 + k][0]) == d[k] if k in d else second[1 + k] == carried[k]
                for k in range(len(carried)))
        if not linear:
            k = grows[0]
            raise Bad("%s: loop-carried value %d is %s in and %s out of the body (a shape that changes with the "
                      "steps other than by one amount along one axis is not supported)"
                      % (node_label(node), k, carried_in[k].shape, carried[k][0]))
        if steps is None:
            raise Bad("%s: loop-carried value %d grows at each step and the steps are known at run time only, with "
                      "no scan output to bound them" % (node_label(node), grows[0]))
        out = list(carried)
        for k in grows:
            shape = list(carried_in[k].shape)
            shape[d[k][0]] += d[k][1] * steps
            out[k] = (shape, carried[k][1])
        return out

    def loop_stops(self, node, body, ins):
        """Whether a Loop's condition is computed at run time: the body's condition output is not its
        condition input passed through (Identity) nor a constant, or the node's condition input is."""
        cond_in = ins[1] if len(ins) > 1 else None
        if cond_in is not None and cond_in.const is None:
            return True
        if len(body.output) < 1 or len(body.input) < 2:
            return False
        name, made = body.output[0].name, {o: n for n in body.node for o in n.output}
        while name in made and made[name].op_type == "Identity" and made[name].input:
            name = made[name].input[0]
        if name == body.input[1].name:
            return False
        n = made.get(name)
        return not (n is not None and n.op_type == "Constant" or name in {t.name for t in body.initializer})

    def check_required(self, node, ins):
        """An input the op's schema requires, left out or named '', or an output it requires left out: a
        broken file (the folders read them); a LayerNormalization axis onnx's shape inference cannot take."""
        if node.domain not in ("", "ai.onnx"):
            return
        if node.op_type == "LayerNormalization" and ins and ins[0] is not None:
            r = len(ins[0].shape)
            axis = [x.i for x in node.attribute if x.name == "axis"] or [-1]
            if r == 0 or not -r <= axis[0] < r:  # onnx's shape inference dies of SIGSEGV on either
                raise Bad("%s: axis %d for input '%s' of shape %s: expected %s"
                          % (node_label(node), axis[0], node.input[0], ins[0].shape,
                             "an input of rank >= 1" if r == 0 else "-%d..%d" % (r, r - 1)))
        onnx = self.onnx
        try:
            schema = onnx.defs.get_schema(node.op_type, min(self.opset, onnx.defs.onnx_opset_version()), "")
        except Exception:  # an op onnx does not know: its rule or refusal comes later
            return
        single = onnx.defs.OpSchema.FormalParameterOption.Single
        for k, f in enumerate(schema.inputs):
            if f.option == single and (k >= len(ins) or ins[k] is None):
                raise Bad("%s: its input %d ('%s') is required and missing" % (node_label(node), k, f.name))
        for k, f in enumerate(schema.outputs):  # an Identity or Constant without its output: nothing to forward
            if f.option == single and k >= len(node.output):
                raise Bad("%s: its output %d ('%s') is required and missing (the node reads %s)"
                          % (node_label(node), k, f.name, ", ".join("'%s'" % i for i in node.input) or "nothing"))

    def check_inputs(self, node, ins, shapes):
        """What onnx's shape inference lets through and no runtime runs: a broken file, else a silent wrong size."""
        op = node.op_type if node.domain in ("", "ai.onnx") else None
        attrs = {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute}
        if op == "Reshape" and shapes and shapes[0] is not None and ins[0] is not None:
            n, m = prod(ins[0].shape), prod(shapes[0][0])
            if n != m:
                raise Bad("%s: reshapes %s (%d elements) into %s (%d elements)"
                          % (node_label(node), ins[0].shape, n, shapes[0][0], m))
        w = {"Conv": 1, "ConvInteger": 1, "QLinearConv": 3}.get(op)
        if w is not None and len(ins) > w and ins[0] is not None and ins[w] is not None and \
                len(ins[0].shape) > 1 and len(ins[w].shape) > 1:
            group = attrs.get("group", 1)
            if ins[0].shape[1] != ins[w].shape[1] * group:
                raise Bad("%s: input '%s' has %d channels, its weight '%s' %s with group %d takes %d"
                          % (node_label(node), node.input[0], ins[0].shape[1], node.input[w], ins[w].shape, group,
                             ins[w].shape[1] * group))
        if op == "LayerNormalization" and ins[0] is not None and ins[0].shape:  # ONNX Runtime checks at run time
            r = len(ins[0].shape)
            axis = attrs.get("axis", -1)
            n = prod(ins[0].shape[axis % r:]) if -r <= axis < r else None
            for k in (1, 2):
                if n is not None and k < len(ins) and ins[k] is not None and prod(ins[k].shape) != n:
                    raise Bad("%s: %s '%s' %s has %d elements, the normalized axes %s of the input %d"
                              % (node_label(node), ("scale", "bias")[k - 1], node.input[k], ins[k].shape,
                                 prod(ins[k].shape), ins[0].shape[axis % r:], n))
        gemm = {"Gemm": 1}.get(op) if op else {"QGemm": 3, "FusedGemm": 1}.get(node.op_type) \
            if node.domain == "com.microsoft" else None
        if gemm is not None and len(ins) > gemm and ins[0] is not None and ins[gemm] is not None and \
                len(ins[0].shape) == 2 and len(ins[gemm].shape) == 2:  # onnx's Gemm inference leaves K unchecked
            ka = ins[0].shape[0 if attrs.get("transA", 0) else 1]
            kb = ins[gemm].shape[1 if attrs.get("transB", 0) else 0]
            if ka != kb:
                raise Bad("%s: A '%s' %s (transA %d) has K = %d, B '%s' %s (transB %d) K = %d"
                          % (node_label(node), node.input[0], ins[0].shape, attrs.get("transA", 0), ka,
                             node.input[gemm], ins[gemm].shape, attrs.get("transB", 0), kb))
        idx = None if len(ins) < 2 or ins[1] is None else ins[1].const if ins[1].const is not None else ins[1].known
        if op == "Gather" and ins[0] is not None and idx is not None and idx.size and ins[0].shape:
            axis = attrs.get("axis", 0)
            d = ins[0].shape[axis if axis >= 0 else axis + len(ins[0].shape)] if -len(ins[0].shape) <= axis < len(
                ins[0].shape) else None
            idx = self.np.asarray(idx)
            if d is not None and idx.dtype.kind in "iu" and (int(idx.min()) < -d or int(idx.max()) >= d):
                bad = int(idx.max()) if int(idx.max()) >= d else int(idx.min())
                raise Past("%s: index %d is out of bounds for axis %d of '%s' %s"
                           % (node_label(node), bad, axis, node.input[0], ins[0].shape))

    def scalar_inputs(self, v):
        """The one-element graph inputs the run-time value v depends on."""
        seen, todo, found = set(), [v.row] if v.row is not None else [], []
        while todo:
            r = todo.pop()
            if r in seen:
                continue
            seen.add(r)
            name, op, _, _, deps = self.rows[r][:5]
            if op == "input" and prod(self.values[name].shape) == 1:
                found.append(name)
            todo.extend(deps)
        return sorted(found)

    def sequence(self, node, ins):
        """The sequence ops on sequences whose elements are known (SequenceConstruct, SplitToSequence,
        SequenceEmpty, then SequenceInsert/Erase/At, ConcatFromSequence, SequenceLength): a sequence is a row of
        its elements' bytes (a runtime copies them in), SequenceAt and ConcatFromSequence make tensors of their
        own. Positions must be known before the run (else an element of another shape could be read); optionals
        and SequenceMap are refused."""
        op, np = node.op_type, self.np
        attrs = {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute}
        what = lambda text: Bad("%s: %s" % (self.label(node), text))
        if op in ("Optional", "OptionalGetElement", "OptionalHasElement", "SequenceMap"):
            raise what("an optional or SequenceMap (a maybe-absent value, a body per element): not supported; "
                       "export with tensors only (torch: return a tuple, or a tensor and a flag)")
        if op not in ("SequenceConstruct", "SequenceEmpty", "SplitToSequence") and (not ins or ins[0] is None or
                                                                                     ins[0].seq is None):
            raise what("input '%s' is not a sequence the converter knows (a graph input's or a Loop's: their "
                       "elements are not known before the run)" % (node.input[0] if node.input else "?"))

        moving = next((i for i, v in zip(node.input, ins) if v is not None and v.seq is None and
                       (v.axes is not None or v.dirs is not None)), None) \
            if not self.exact else None
        if moving is not None:  # a sequence keeps its elements' shapes, not how they move: refused (review30o)
            raise what("input '%s' is computed from %s and moves as it grows: a sequence of it is not supported "
                       "(its elements' sizes are not followed); plan one run at its exact counts with --exact%s"
                       % (moving, self.bounds_text(), "; or choose that If's branch with --if %s=then (or =else)"
                          % self.if_choice() if self.if_max else ""))

        def pos(k, n, most, default):
            if k >= len(ins) or ins[k] is None:
                return default
            v = ins[k]
            if v.const is None or v.const.size != 1 or v.dirs is not None:
                raise what("position '%s' is computed at run time (the element read must be known: bind it with "
                           "--input, or export with a constant index)" % node.input[k])
            i = int(v.const.reshape(-1)[0])
            if not -n <= i <= most:
                raise what("position %d in a sequence of %d" % (i, n))
            return i + n if i < 0 else i

        def sequence_row(elems, elem):
            out = node.output[0]
            size = sum(self.bytes(sh, e, out) for sh, e in elems)
            v = self.values[out] = Value([], elem, row=len(self.rows))
            v.seq = elems
            deps = sorted(set().union(*(x.rows() for x in ins if x is not None)))
            self.rows.append([out, op, size, node, deps, sum(self.bytes(x.shape, x.elem, "input") for x in ins
                                                             if x is not None and x.seq is None) + size,
                              sum(prod(sh) for sh, _ in elems)])

        if op == "SequenceConstruct":
            if not ins or any(v is None for v in ins) or len({v.elem for v in ins}) != 1:
                raise what("its inputs must be tensors of one element type (%s)" % [v.elem if v else None for v in ins])
            return sequence_row([(list(v.shape), v.elem) for v in ins], ins[0].elem)
        if op == "SequenceEmpty":
            return sequence_row([], attrs.get("dtype", self.onnx.TensorProto.FLOAT))
        if op == "SplitToSequence":
            x, r = ins[0], len(ins[0].shape)
            axis = attrs.get("axis", 0)
            if not -r <= axis < r:
                raise what("axis %d for an input of shape %s" % (axis, x.shape))
            axis %= r
            d = x.shape[axis]
            sp = ins[1] if len(ins) > 1 else None
            if sp is not None and (sp.const is None or sp.dirs is not None):
                raise what("its split '%s' is computed at run time" % node.input[1])
            if sp is None:
                parts = [1] * d
            elif sp.const.ndim == 0:
                c = int(sp.const.reshape(-1)[0])
                if c < 1:
                    raise what("split %d (chunks of at least 1)" % c)
                parts = [c] * (d // c) + ([d % c] if d % c else [])
            else:
                parts = [int(c) for c in sp.const.reshape(-1)]
                if any(c < 0 for c in parts) or sum(parts) != d:
                    raise what("split %s for an axis of %d" % (parts, d))
            squeeze = sp is None and not attrs.get("keepdims", 1)
            elems = [(x.shape[:axis] + ([] if squeeze else [c]) + x.shape[axis + 1:], x.elem) for c in parts]
            return sequence_row(elems, x.elem)
        s, n = ins[0], len(ins[0].seq)
        if op == "SequenceLength":
            return self.put_const(node.output[0], np.array(n, np.int64))
        if op == "SequenceInsert":
            t = ins[1] if len(ins) > 1 else None
            if t is None or t.seq is not None or t.elem != s.elem:
                raise what("it inserts a tensor of the sequence's element type")
            k = pos(2, n, n, n)
            return sequence_row(s.seq[:k] + [(list(t.shape), t.elem)] + s.seq[k:], s.elem)
        if op == "SequenceErase":
            if n == 0:
                raise what("erasing from an empty sequence")
            k = pos(1, n, n - 1, n - 1)
            return sequence_row(s.seq[:k] + s.seq[k + 1:], s.elem)
        if op == "SequenceAt":
            if n == 0:
                raise what("reading from an empty sequence")
            shape, elem = s.seq[pos(1, n, n - 1, None if len(ins) > 1 else 0)]
        else:  # ConcatFromSequence
            if n == 0:
                raise what("concatenating an empty sequence")
            new, shapes = attrs.get("new_axis", 0), [sh for sh, _ in s.seq]
            r = len(shapes[0]) + (1 if new else 0)
            axis = attrs.get("axis")
            if axis is None or not -r <= axis < r:
                raise what("axis %s for elements of rank %d" % (axis, len(shapes[0])))
            axis %= r
            if new:
                if any(sh != shapes[0] for sh in shapes):
                    raise what("elements of shapes %s stacked (new_axis: one shape)" % shapes[:4])
                shape = shapes[0][:axis] + [n] + shapes[0][axis:]
            else:
                if any(len(sh) != len(shapes[0]) or sh[:axis] + sh[axis + 1:] != shapes[0][:axis] + shapes[0][axis + 1:]
                       for sh in shapes):
                    raise what("elements of shapes %s differ off axis %d" % (shapes[:4], axis))
                shape = shapes[0][:axis] + [sum(sh[axis] for sh in shapes)] + shapes[0][axis + 1:]
            elem = s.elem
        out = node.output[0]
        self.values[out] = Value(shape, elem, row=len(self.rows))
        self.rows.append([out, op, self.bytes(shape, elem, out), node, sorted(set().union(*(
            x.rows() for x in ins if x is not None))), self.bytes(shape, elem, out), prod(shape)])

    def bind_hint(self, v):
        """What makes a run-time value deciding a shape known before the run: the scalar graph inputs it is
        computed from (--input binds them), or the graph input it is (not one element: no option binds it)."""
        if v.row is None:
            return ""
        name, op = self.rows[v.row][:2]
        if op == "input" and prod(v.shape) != 1:
            return " (graph input '%s' of %d elements: --input binds one-element inputs only; make it an " \
                   "initializer, a constant, to convert)" % (name, prod(v.shape))
        scalars = self.scalar_inputs(v)
        return "; bind the scalar input it depends on (%s) with --input %s=VALUE" % (", ".join(scalars), scalars[0]) \
            if scalars else ""

    def constant(self, node):
        a = node.attribute[0] if node.attribute else None
        if a is None:
            raise Bad("%s: no value" % node_label(node))
        v = self.onnx.helper.get_attribute_value(a)
        np = self.np
        if a.name == "value":
            return self.onnx.numpy_helper.to_array(v)
        if a.name == "value_float":
            return np.array(v, np.float32)
        if a.name == "value_floats":
            return np.array(v, np.float32)
        if a.name == "value_int":
            return np.array(v, np.int64)
        if a.name == "value_ints":
            return np.array(v, np.int64)
        raise Bad("%s: a '%s' constant is not supported" % (node_label(node), a.name))

    def inline_if(self, node):
        if not node.input or not node.input[0]:
            raise Bad("%s: no condition input" % node_label(node))
        cond = self.get(node, node.input[0])
        name = if_name(node)
        chosen = self.branches.get(name) if name else None
        if name:
            self.ifs.add(name)
        if chosen is not None and cond.const is not None and cond.const.size == 1 and cond.dirs is None:
            raise Bad("%s: --if %s=%s, but the condition '%s' folds before the run (to the %s branch): drop that --if"
                      % (node_label(node), name, chosen, node.input[0],
                         "then" if bool(cond.const.reshape(-1)[0]) else "else"))
        if chosen is None and cond.const is None and cond.known is None:
            return self.both_branches(node, cond)
        if chosen is None and (cond.const is None or cond.const.size != 1):
            scalars = self.scalar_inputs(cond)
            raise Bad("%s: the condition '%s' is computed at run time; %s, or choose the branch with --if %s=then "
                      "(or =else)" % (node_label(node), node.input[0],
                                      "bind the scalar input it depends on (%s) with --input NAME=VALUE"
                                      % ", ".join(scalars) if scalars else
                                      "it depends on the data (no scalar graph input to bind)",
                                      name or "NODE"))
        if chosen is None and cond.dirs is not None and not self.exact:
            if not cond.zero_test:
                raise Bad("%s: the condition '%s' is computed from sizes the data decides and may change as they "
                          "grow (%s): a plan at the bound need not hold below it; choose the branch with --if %s="
                          "then (or =else), or plan one run at its exact counts with --exact"
                          % (self.label(node), node.input[0], self.bounds_text(), name or "NODE"))
            self.zero_ifs.append((self.label(node), node.input[0], bool(cond.const.reshape(-1)[0])))
        if chosen is None:
            chosen = "then" if bool(cond.const.reshape(-1)[0]) else "else"
        attrs = {x.name: x.g for x in node.attribute if x.type == 5}
        if chosen + "_branch" not in attrs:
            raise Bad("%s: no %s_branch (a graph attribute)" % (node_label(node), chosen))
        branch = attrs[chosen + "_branch"]
        self.run(branch)
        for out, b in zip(node.output, branch.output):
            if out:
                self.values[out] = self.get(node, b.name)

    def both_branches(self, node, cond):
        """An If whose condition is computed at run time (no --if): both branches are planned (either may run;
        the other's values are not written, their bytes left unused). Each output is a row of its own (the
        branch taken writes it), reading both branches' and the condition: of their shape where the two agree,
        else of the larger of the two per axis, those axes then moving as a size from the data does, so that
        every size read from them is proven to grow with them (Pass.check_grows), else refused; outputs of
        another rank or element type are refused (no one shape covers both)."""
        attrs = {x.name: x.g for x in node.attribute if x.type == 5}
        outs = []
        for b in ("then", "else"):
            if b + "_branch" not in attrs:
                raise Bad("%s: no %s_branch (a graph attribute)" % (node_label(node), b))
            branch = attrs[b + "_branch"]
            if len(branch.output) < len(node.output):
                raise Bad("%s: its %s branch has %d outputs for the node's %d"
                          % (node_label(node), b, len(branch.output), len(node.output)))
            self.run(branch)
            outs.append([self.get(node, o.name) for o in branch.output])
        label = self.label(node)
        IF_SCALARS[id(node)] = self.scalar_inputs(cond)  # the header names them: bound, the If folds
        why = "choose the branch with --if %s=then (or =else) and convert once per branch" % (if_name(node) or "NODE")
        for k, out in enumerate(node.output):
            vt, ve = outs[0][k], outs[1][k]
            if not out:
                continue
            if (vt.seq is not None or ve.seq is not None) and vt is not ve:
                raise Bad("%s: output '%s' is a sequence (the condition '%s' is computed at run time, so both branches "
                          "are planned): not supported; %s" % (label, out, node.input[0], why))
            if vt is ve or vt.const is not None and ve.const is not None and vt.elem == ve.elem and \
                    vt.shape == ve.shape and self.np.array_equal(vt.const, ve.const) and vt.dirs is None and \
                    ve.dirs is None and vt.axes is None and ve.axes is None:
                self.values[out] = vt  # one value whichever branch runs
                continue
            if vt.elem != ve.elem or len(vt.shape) != len(ve.shape):
                raise Bad("%s: output '%s' is %s in the then branch and %s in the else branch (the condition '%s' "
                          "is computed at run time, so both are planned): no one shape covers both; %s"
                          % (label, out, self.type_text(vt), self.type_text(ve), node.input[0], why))
            shape = [max(a, b) for a, b in zip(vt.shape, ve.shape)]
            ax = [((vt.axes[j] if vt.axes else 0) | (ve.axes[j] if ve.axes else 0) |
                   (UP | NONNEG if vt.shape[j] != ve.shape[j] else 0)) for j in range(len(shape))]
            if shape != vt.shape or shape != ve.shape:
                if self.exact:
                    raise Bad("%s: output '%s' is %s in the then branch and %s in the else branch: --exact takes one "
                              "run, so %s" % (label, out, self.type_text(vt), self.type_text(ve), why))
                if SYMBOLIC[0]:  # the fit's points start at 512: a branch larger only below them goes unseen
                    raise Bad("%s: output '%s' is %s in the then branch and %s in the else branch: with --symbol "
                              "the larger of the two is not proven at every size; %s"
                              % (label, out, self.type_text(vt), self.type_text(ve), why))
                self.if_max.append((label, if_name(node), node))
            size = self.bytes(shape, vt.elem, out)
            v = self.values[out] = Value(shape, vt.elem, row=len(self.rows))
            v.axes = ax if any(ax) else None
            deps = sorted(cond.rows() | vt.rows() | ve.rows())
            self.rows.append([out, "If", size, node, deps, size, prod(shape)])

    def type_text(self, v):
        return "%s %s" % (self.onnx.TensorProto.DataType.Name(v.elem).lower()
                          if v.elem in self.onnx.TensorProto.DataType.values() else v.elem, v.shape)

    # -- folding --------------------------------------------------------------
    def fold(self, node, ins):
        """The outputs as numpy arrays when computable before the run, else None."""
        op = node.op_type
        if node.domain not in ("", "ai.onnx"):
            return None
        np = self.np
        if op in ("Shape", "Size"):
            x = ins[0]
            if op == "Size":
                return [np.array(int(np.prod(x.shape, dtype=np.int64)), np.int64)]
            attrs = {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute}
            r = len(x.shape)
            s, e = attrs.get("start", 0), attrs.get("end", r)
            s, e = max(0, min(r, s + r if s < 0 else s)), max(0, min(r, e + r if e < 0 else e))
            return [np.array(x.shape[s:e], np.int64)]
        if op not in FOLDERS or any(v is not None and v.const is None for v in ins):
            return None
        if op in BROADCASTING:  # two large constants can broadcast to more than memory holds: not folded
            try:
                if prod(np.broadcast_shapes(*(tuple(v.shape) for v in ins if v is not None))) > FOLD_LIMIT:
                    return None
            except ValueError:
                pass  # the folder names the mismatch
        attrs = {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute}
        try:
            with np.errstate(all="ignore"):
                out = FOLDERS[op](np, self, [v.const if v is not None else None for v in ins], attrs)
        except (ValueError, IndexError, TypeError, ZeroDivisionError, OverflowError, MemoryError) as e:
            past = isinstance(e, IndexError) and not isinstance(e, ValueError)  # numpy's AxisError is both
            raise (Past if past else Bad)("%s: cannot be evaluated on its constant inputs %s: %s"
                                          % (node_label(node), [list(v.shape) if v else None for v in ins], e))
        if out is None:
            return None
        out = [np.asarray(o) for o in (out if isinstance(out, list) else [out])]
        if any(o.size > FOLD_LIMIT for o in out):
            return None
        return out

    def elem_of_attr_to(self, to):
        dt = np_dtype(self.onnx, to)
        if dt is None:
            raise ValueError("unsupported type %d" % to)
        return dt

    # -- shapes of the other ops ----------------------------------------------------
    def infer_quant(self, node, ins):
        """An ONNX Runtime quantized op: the shape of its float op (CONTRIB_QUANT) on the quantized inputs."""
        onnx = self.onnx
        op, which, elem_from = CONTRIB_QUANT[node.op_type]
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        if which is None:  # QLinearConcat: Y_scale, Y_zero_point, then (X, scale, zero point) per input
            if len(node.input) < 5 or (len(node.input) - 2) % 3:
                raise Bad("%s: %d inputs: Y_scale, Y_zero_point, then (X, scale, zero point) for each input"
                          % (node_label(node), len(node.input)))
            which = tuple(range(2, len(node.input), 3))
        if any(k >= len(ins) or ins[k] is None for k in which):
            raise Bad("%s: an input it needs is missing" % node_label(node))
        if node.op_type in ("QLinearAdd", "QLinearMul") and any(k >= len(ins) or ins[k] is None for k in (2, 5)):
            raise Bad("%s: A's or B's zero point (input 2, 5) is missing: ONNX Runtime refuses that at load (its type "
                      "inference reads them; give a zero point of 0 or 128)" % node_label(node))
        if attrs.get("channels_last", 0) and node.op_type in ("QLinearAveragePool", "QLinearGlobalAveragePool"):
            x = ins[0].shape  # NHWC: the channels last
            if node.op_type == "QLinearAveragePool":
                raise Bad("%s: channels_last=1 is not supported" % node_label(node))
            if len(x) < 3:
                raise Bad("%s: input '%s' %s has no spatial axis (channels_last=1 needs N, spatial axes, C)"
                          % (node_label(node), node.input[0], x))
            return [([x[0]] + [1] * (len(x) - 2) + [x[-1]], ins[0].elem)]
        if elem_from < len(ins) and ins[elem_from] is not None:
            elem = ins[elem_from].elem
        elif node.op_type not in ("QGemm", "QuantizeLinear"):  # the scale that types the output: required
            raise Bad("%s: its input %d (the scale its output's type is) is missing" % (node_label(node), elem_from))
        else:  # QGemm without a zero point: float
            elem = onnx.TensorProto.UINT8 if node.op_type == "QuantizeLinear" else onnx.TensorProto.FLOAT
        x = ins[which[0]]
        if op == "Identity":
            return [(x.shape, elem)] + [None] * (len(node.output) - 1)
        plain = onnx.NodeProto()
        plain.CopyFrom(node)
        plain.op_type, plain.domain = op, ""
        del plain.input[:]
        plain.input.extend(node.input[k] for k in which)
        known = onnx.defs.get_schema(op, onnx.defs.onnx_opset_version(), "").attributes
        del plain.attribute[:]
        plain.attribute.extend(a for a in node.attribute if a.name in known and a.name not in ("alpha", "beta"))
        # float stand-ins: the float op's type constraints, the quantized op's shapes
        floats = [Value(ins[k].shape, onnx.TensorProto.FLOAT) for k in which]
        out = self.infer(plain, floats)
        return [(out[0][0], elem)] + [None] * (len(node.output) - 1)

    def infer(self, node, ins):
        onnx, np = self.onnx, self.np
        helper = onnx.helper
        supported = onnx.defs.onnx_opset_version()
        newer = self.opset > supported and node.domain in ("", "ai.onnx")
        if node.domain in ("", "ai.onnx") and node.op_type in OWN_RULES:
            try:
                got = OWN_RULES[node.op_type](np, node, ins, {a.name: helper.get_attribute_value(a)
                                                              for a in node.attribute})
            except (ValueError, IndexError, TypeError) as e:
                raise Bad("%s: inputs %s: %s" % (node_label(node), [v.shape if v else None for v in ins], e))
            if got is not None:
                return got + [None] * (len(node.output) - len(got))
        if newer and node.op_type in NEWER_RULES:
            try:
                got = NEWER_RULES[node.op_type](np, node, ins,
                                                {a.name: helper.get_attribute_value(a) for a in node.attribute})
            except (ValueError, IndexError, TypeError, ZeroDivisionError) as e:
                raise Bad("%s: cannot compute its shape from inputs %s: %s"
                          % (node_label(node), [v.shape if v else None for v in ins], e))
            if got is not None:  # None: the op as onnx's newest schema has it
                return got + [None] * (len(node.output) - len(got))
        if node.domain == "com.microsoft" and node.op_type in CONTRIB_RULES or \
                node.domain in ("", "ai.onnx") and node.op_type == "SimplifiedLayerNormalization":
            try:
                got = CONTRIB_RULES[node.op_type](node, ins, {a.name: helper.get_attribute_value(a)
                                                              for a in node.attribute})
            except TablePast as e:
                raise Past("%s: %s" % (node_label(node), e))
            except ValueError as e:
                raise Bad("%s: %s" % (node_label(node), e))
            if len(node.output) > len(got):
                raise Bad("%s: %d outputs; the op has %d" % (node_label(node), len(node.output), len(got)))
            return [(g[0], self.declared_elem(node, name)) if name and g[1] is None else g
                    for name, g in zip(node.output, got)]
        if node.domain == "com.microsoft" and node.op_type in CONTRIB_QUANT:
            return self.infer_quant(node, ins)
        if node.domain == "com.microsoft" and node.op_type in CONTRIB_AS:  # FusedConv: a Conv with an activation
            plain = onnx.NodeProto()
            plain.CopyFrom(node)
            plain.op_type, plain.domain = CONTRIB_AS[node.op_type], ""
            del plain.attribute[:]
            plain.attribute.extend(a for a in node.attribute if not a.name.startswith("activation"))
            del plain.input[3 if node.op_type == "FusedConv" else len(node.input):]
            node, ins = plain, ins[:len(plain.input)]
        if newer:  # the same op in the newest opset onnx knows: its attributes only
            try:
                known = onnx.defs.get_schema(node.op_type, supported, "").attributes
            except Exception:
                raise Bad("%s: the op is newer than onnx %s knows (opset %d > %d)"
                          % (node_label(node), onnx.__version__, self.opset, supported))
            copy = onnx.NodeProto()
            copy.CopyFrom(node)
            del copy.attribute[:]
            copy.attribute.extend(a for a in node.attribute if a.name in known)
            node = copy
        inputs, inits, names = [], [], []
        for i, v in zip(node.input, ins):
            if v is None or i in names:
                continue
            names.append(i)
            if v.const is not None and v.const.size <= 4096 and self.elem_of(i, v.const) == v.elem:
                inits.append(onnx.numpy_helper.from_array(np.asarray(v.const), i))
            else:
                inputs.append(helper.make_tensor_value_info(i, v.elem, v.shape))
        if 0 < self.model.ir_version < 4:  # IR 3: shape inference reads an initializer only if it is an input too
            inputs += [helper.make_tensor_value_info(t.name, t.data_type, t.dims) for t in inits]
        g = helper.make_graph([node], "one", inputs, [], inits)
        opsets = [helper.make_opsetid(o.domain, min(o.version, supported) if o.domain in ("", "ai.onnx") else o.version)
                  for o in self.model.opset_import]
        m = helper.make_model(g, opset_imports=opsets)
        m.ir_version = self.model.ir_version or m.ir_version
        shown = ", ".join("%s %s" % (i, list(v.shape) if v is not None else "-") for i, v in zip(node.input, ins))
        try:
            r = onnx.shape_inference.infer_shapes(m, strict_mode=True, data_prop=True)
        except Exception as e:  # onnx's own errors: the node is wrong for its inputs
            first = (str(e).strip().splitlines() or [type(e).__name__])[-1]
            raise Bad("%s: shape inference fails on inputs %s: %s%s" % (
                node_label(node), shown, first[:300], "" if not self.data else
                " (with sizes from the data at their bounds, %s...: sizes the model relates, such as pieces that add "
                "up to an image, cannot each be at a bound)" % ", ".join(list(self.data)[-2:])))
        found = {vi.name: vi for vi in list(r.graph.value_info) + list(r.graph.output)}
        result = []
        for o in node.output:
            if not o:
                result.append(None)
                continue
            vi = found.get(o)
            t = vi.type.tensor_type if vi is not None and vi.type.HasField("tensor_type") else None
            run_time = [k for k in SHAPE_INPUTS.get(node.op_type, ()) if node.domain in ("", "ai.onnx") and
                        k < len(ins) and ins[k] is not None and ins[k].const is None and
                        node.input[k] not in self.weights]
            if node.op_type == "Slice" and run_time and o == node.output[0]:  # onnx leaves even its rank unknown
                r, axes = len(ins[0].shape), None
                if len(ins) > 3 and ins[3] is not None and ins[3].const is not None:
                    axes = {int(a) % r for a in ins[3].const.reshape(-1) if -r <= int(a) < r}
                why = "from the values of input '%s'%s" % (node.input[run_time[0]], self.bind_hint(ins[run_time[0]]))
                result.append(([d if axes is not None and k not in axes else self.data_dim(node, o, k, d, why)
                                for k, d in enumerate(ins[0].shape)], ins[0].elem))
                continue
            if t is not None and t.HasField("shape") and t.elem_type and run_time:
                # a shape from values computed at run time (a mask resized to a box's size): each axis onnx
                # leaves unknown a data-dependent dimension; a Slice's at most the input's axis
                most = lambda k: ins[0].shape[k] if node.op_type == "Slice" and k < len(ins[0].shape) else None
                why = "from the values of input '%s'%s" % (node.input[run_time[0]], self.bind_hint(ins[run_time[0]]))
                result.append(([d.dim_value if d.HasField("dim_value") else self.data_dim(node, o, k, most(k), why)
                                for k, d in enumerate(t.shape.dim)], t.elem_type))
                continue
            if t is None or not t.HasField("shape") or not t.elem_type or \
                    any(not d.HasField("dim_value") for d in t.shape.dim):
                why = "no shape rule for this op" if vi is None or t is None or not t.HasField("shape") else \
                    "its output depends on the data (or on an input not folded)"
                run_time = [k for k in SHAPE_INPUTS.get(node.op_type, ())
                            if k < len(ins) and ins[k] is not None and ins[k].const is None]
                if run_time and node.domain in ("", "ai.onnx"):
                    k = run_time[0]
                    why = "it depends on the values of input '%s', %s" % (
                        node.input[k], "computed at run time" + self.bind_hint(ins[k]) if ins[k].row is not None
                        else "a weight whose external data file could not be read")
                if node.domain not in ("", "ai.onnx"):
                    why = "op domain '%s' is not ONNX's (no shape rule)" % node.domain
                raise Bad("%s: the shape of output '%s' is unknown (%s); inputs: %s"
                          % (node_label(node), o, why, shown))
            result.append(([d.dim_value for d in t.shape.dim], t.elem_type))
        return result


# Attributes a zero or negative value of makes a broken file, not a model: onnx 1.12's shape inference divides
# by a zero stride (the process dies of SIGFPE) or makes up a size for the others.
POSITIVE_ATTRS = {"strides", "dilations", "kernel_shape", "group", "pooled_shape", "blocksize", "output_height",
                  "output_width"}

# The inputs whose values (not only shapes) give an op's output shape.
SHAPE_INPUTS = {"Reshape": (1,), "Expand": (1,), "Tile": (1,), "Slice": (1, 2, 3, 4), "Resize": (1, 2, 3),
                "Upsample": (1,), "Pad": (1, 3), "ConstantOfShape": (0,), "Range": (0, 1, 2), "OneHot": (1,),
                "TopK": (1,), "Unsqueeze": (1,), "Squeeze": (1,), "Split": (1,), "ReduceSum": (1,),
                "ReduceMean": (1,), "ReduceMax": (1,), "ReduceMin": (1,), "ReduceProd": (1,), "CenterCropPad": (1,),
                "HannWindow": (0,), "HammingWindow": (0,), "BlackmanWindow": (0,), "DFT": (1, 2), "STFT": (1, 3),
                "MaxUnpool": (2,),
                "MelWeightMatrix": (0, 1), "NonMaxSuppression": (2,)}


# Ops making or reading a sequence or an optional: Pass.sequence (optionals and SequenceMap refused by name).
SEQUENCE_OPS = {"SequenceConstruct", "SequenceEmpty", "SequenceInsert", "SequenceErase", "SequenceAt",
                "SequenceLength", "SplitToSequence", "ConcatFromSequence", "SequenceMap", "Optional",
                "OptionalGetElement", "OptionalHasElement"}
CPU_OPS |= SEQUENCE_OPS  # a runtime keeps sequences on the host

# The ops whose output size the data decides: each count a data-dependent dimension (Pass.data_dim).
DATA_OPS = {"NonZero", "NonMaxSuppression", "TopK", "Compress", "Unique"}


def is_pattern(name):
    return any(c in name for c in "*?[")


def missing_text(missing):
    """The refusal for the data-dependent dimensions not given (the first, then the ones found after it with
    each before at its most)."""
    key, label, most, why = missing[0]
    text = "%s: the size of output '%s' axis %s depends on the data: give the most a run makes with --dim %s=N " \
           "(a plan at N then holds for every run up to N: what it decides is proven to grow with it, else " \
           "refused)" % (label, key.rsplit(":", 1)[0], key.rsplit(":", 1)[1], key)
    text += ", N at most %d (%s)" % (most, why) if most is not None else " (%s: no most known before the run)" % why
    if len(missing) > 1:
        text += "; %d more after it (each before at its most): %s%s; a pattern gives several (--dim '*=N': each one " \
                "not named, clamped to its most)" % (
                    len(missing) - 1, ", ".join("%s (at most %s)" % (k, m if m is not None else "?")
                                                for k, _, m, _ in missing[1:6]), ", ..." if len(missing) > 6 else "")
    return text


def _axes(attrs, ins, k=1):
    if "axes" in attrs:
        return list(attrs["axes"])
    return [int(a) for a in ins[k].reshape(-1)] if len(ins) > k and ins[k] is not None else None


def _slice(np, p, ins, attrs):
    x = ins[0]
    if "starts" in attrs:
        starts, ends, axes, steps = attrs["starts"], attrs["ends"], attrs.get("axes"), None
    else:
        starts, ends = ins[1].reshape(-1), ins[2].reshape(-1)
        axes = ins[3].reshape(-1) if len(ins) > 3 and ins[3] is not None else None
        steps = ins[4].reshape(-1) if len(ins) > 4 and ins[4] is not None else None
    axes = list(range(len(starts))) if axes is None else [int(a) for a in axes]
    idx = [slice(None)] * x.ndim
    for k, ax in enumerate(axes):
        step = int(steps[k]) if steps is not None else 1
        s, e = int(starts[k]), int(ends[k])
        big = 1 << 62
        idx[ax] = slice(None if (step < 0 and s >= big) else max(min(s, big), -big),
                        None if (step < 0 and e <= -big) else max(min(e, big), -big), step)
    return x[tuple(idx)]


def _unsqueeze(np, p, ins, attrs):
    x, axes = ins[0], _axes(attrs, ins)
    r = x.ndim + len(axes)
    for a in sorted(a + r if a < 0 else a for a in axes):
        x = np.expand_dims(x, a)
    return x


def _squeeze(np, p, ins, attrs):
    axes = _axes(attrs, ins)
    return np.squeeze(ins[0], axis=tuple(axes) if axes is not None else None)


def _reshape(np, p, ins, attrs):
    x, shape = ins[0], [int(d) for d in ins[1].reshape(-1)]
    if not attrs.get("allowzero", 0):
        shape = [x.shape[k] if d == 0 else d for k, d in enumerate(shape)]
    return x.reshape(shape)


def _div(np, p, ins, attrs):
    a, b = ins
    if np.issubdtype(a.dtype, np.integer):
        return (np.trunc(a / b)).astype(a.dtype)
    return a / b


def _range(np, p, ins, attrs):
    s, l, d = (x.reshape(-1)[0] for x in ins)
    n = max(int(np.ceil((l - s) / d)), 0)
    if n > FOLD_LIMIT:  # a run-time value: not built here (2^40 elements would not fit in memory)
        return None
    return (s + d * np.arange(n)).astype(ins[0].dtype)


def _const_of_shape(np, p, ins, attrs):
    v = attrs.get("value")
    fill = p.onnx.numpy_helper.to_array(v).reshape(-1) if v is not None else np.zeros(1, np.float32)
    shape = [int(d) for d in ins[0].reshape(-1)]
    if int(np.prod(shape, dtype=np.int64)) > FOLD_LIMIT:
        return None
    return np.full(shape, fill[0], fill.dtype)


def _expand(np, p, ins, attrs):
    shape = np.broadcast_shapes(ins[0].shape, tuple(int(d) for d in ins[1].reshape(-1)))
    if int(np.prod(shape, dtype=np.int64)) > FOLD_LIMIT:
        return None
    return np.broadcast_to(ins[0], shape).copy()


def _reduce(fn):
    def f(np, p, ins, attrs):
        axes = _axes(attrs, ins)
        if axes is None and attrs.get("noop_with_empty_axes", 0):
            return ins[0]
        return getattr(np, fn)(ins[0], axis=tuple(axes) if axes else None, keepdims=bool(attrs.get("keepdims", 1)))
    return f


def _gather(np, p, ins, attrs):
    return np.take(ins[0], ins[1].astype(np.int64), axis=attrs.get("axis", 0), mode="raise")


def _split(np, p, ins, attrs):
    axis = attrs.get("axis", 0)
    sizes = attrs.get("split") or (list(ins[1]) if len(ins) > 1 and ins[1] is not None else None)
    if sizes is None:
        return None  # the count of outputs is the node's: left to shape inference
    return np.split(ins[0], np.cumsum(sizes)[:-1], axis=axis)


def _dequantize(np, p, ins, attrs):
    """(x - zero point) x scale: weights of quantized models, folded like the weights."""
    x, scale = ins[0], ins[1]
    zero = ins[2] if len(ins) > 2 and ins[2] is not None else np.zeros_like(scale, dtype=x.dtype)
    if scale.ndim == 1 and x.ndim > 1:  # per axis
        shape = [1] * x.ndim
        shape[attrs.get("axis", 1)] = -1
        scale, zero = scale.reshape(shape), zero.reshape(shape)
    return ((x.astype(np.int32) - zero.astype(np.int32)) * scale).astype(scale.dtype)


FOLDERS = {
    "Gather": _gather,
    "Slice": _slice,
    "Concat": lambda np, p, ins, a: np.concatenate([x for x in ins if x is not None], axis=a.get("axis", 0)),
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Cast": lambda np, p, ins, a: ins[0].astype(p.elem_of_attr_to(a["to"])),
    "Reshape": _reshape,
    "Flatten": lambda np, p, ins, a: ins[0].reshape(
        int(np.prod(ins[0].shape[:a.get("axis", 1)], dtype=np.int64)), -1),
    "Transpose": lambda np, p, ins, a: np.transpose(ins[0], a.get("perm")),
    "Add": lambda np, p, ins, a: ins[0] + ins[1],
    "Sub": lambda np, p, ins, a: ins[0] - ins[1],
    "Mul": lambda np, p, ins, a: ins[0] * ins[1],
    "Div": _div,
    "Mod": lambda np, p, ins, a: np.fmod(ins[0], ins[1]) if a.get("fmod", 0) else np.mod(ins[0], ins[1]),
    "Neg": lambda np, p, ins, a: -ins[0],
    "Abs": lambda np, p, ins, a: np.abs(ins[0]),
    "Floor": lambda np, p, ins, a: np.floor(ins[0]),
    "Ceil": lambda np, p, ins, a: np.ceil(ins[0]),
    "Sqrt": lambda np, p, ins, a: np.sqrt(ins[0]),
    "Reciprocal": lambda np, p, ins, a: np.reciprocal(ins[0]),  # torchvision's resize scale: 1 / min(H, W)
    "Pow": lambda np, p, ins, a: np.power(ins[0], ins[1]).astype(ins[0].dtype),
    "Min": lambda np, p, ins, a: np.minimum.reduce(ins),
    "Max": lambda np, p, ins, a: np.maximum.reduce(ins),
    "Equal": lambda np, p, ins, a: np.equal(ins[0], ins[1]),
    "Less": lambda np, p, ins, a: np.less(ins[0], ins[1]),
    "Greater": lambda np, p, ins, a: np.greater(ins[0], ins[1]),
    "LessOrEqual": lambda np, p, ins, a: np.less_equal(ins[0], ins[1]),
    "GreaterOrEqual": lambda np, p, ins, a: np.greater_equal(ins[0], ins[1]),
    "Not": lambda np, p, ins, a: np.logical_not(ins[0]),
    "And": lambda np, p, ins, a: np.logical_and(ins[0], ins[1]),
    "Or": lambda np, p, ins, a: np.logical_or(ins[0], ins[1]),
    "Where": lambda np, p, ins, a: np.where(ins[0], ins[1], ins[2]),
    "ConstantOfShape": _const_of_shape,
    "Range": _range,
    "Expand": _expand,
    "Tile": lambda np, p, ins, a: None if ins[0].size * int(np.prod([max(int(r), 0) for r in ins[1].reshape(-1)],
                                                                    dtype=object)) > FOLD_LIMIT else
    np.tile(ins[0], [int(r) for r in ins[1].reshape(-1)]),
    "ReduceProd": _reduce("prod"),
    "ReduceSum": _reduce("sum"),
    "ReduceMin": _reduce("min"),
    "ReduceMax": _reduce("max"),
    "Split": _split,
    "DequantizeLinear": _dequantize,
}


# How a folded value moves as the sizes from the data grow (each bounded by a --dim, from 0 to its bound): bits
# per element of its values (and per axis of a value's shape). UP: it may grow, DOWN: it may shrink (both:
# unknown; neither: it stays); NONNEG: it is >= 0 at every run below the bounds. Proven through the ops below,
# so that a size decided by such a value (a shape input, a Slice's starts and ends, a TopK's k, a Loop's trip
# count) is known to grow with the bounds; any other is refused. A value's shape is taken to grow when its
# inputs' shapes and the values deciding it do (the ops' shape rules are monotone; Reshape's -1 and an index
# wrapping below 0 are the exceptions: the second kept non-negative here, the first checked by sampling).
UP, DOWN, NONNEG = 1, 2, 4
UNKNOWN = UP | DOWN
MOVES_SHAPE = {"Gather", "Slice", "Concat", "Unsqueeze", "Squeeze", "Reshape", "Flatten", "Transpose", "Expand",
               "Tile", "Split", "Cast", "Identity"}  # their values are their first (Concat: every) input's, moved
# inputs deciding a size in no one direction (review30o): a value that moves at all is refused
CONST_INPUTS = {("STFT", 1): "frames fall as the step grows", ("STFT", 3): "frames fall and bins grow with it",
                ("DFT", 2): "which axis", ("Pad", 3): "which axes"}
DIR_AXES = {"Unsqueeze", "Squeeze", "Split", "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
            "ReduceL2"}  # a value deciding which axes (not how long): only a constant one is taken


def _flip(d):
    return ((d & UP) << 1) | ((d & DOWN) >> 1)  # >= 0 no more


def _vals(v):
    return v.const if v.const is not None else v.known


def _dirs(np, v):
    """v's dirs, an int8 array of its values' shape (zeros: it stays)."""
    return v.dirs if v.dirs is not None else np.zeros(np.shape(_vals(v)), np.int8)


def _nonneg(np, d, vals):
    """Per element: >= 0 at every run below (a constant one: its value)."""
    with np.errstate(all="ignore"):
        return np.where((d & UNKNOWN) != 0, (d & NONNEG) != 0, np.asarray(vals) >= 0)


def _pack(np, moves, nonneg):
    moves = np.asarray(moves, np.int8) & UNKNOWN
    out = (moves | np.where((moves != 0) & np.asarray(nonneg, bool), NONNEG, 0)).astype(np.int8)
    return out if (out & UNKNOWN).any() else None


def fold_dirs(np, p, op, ins, outs, attrs):
    """The dirs of a folded node's outputs (a list, None where one stays) and whether the first is a zero test
    ('v == 0' for a v that only grows and is >= 0: torchvision's If on no box found)."""
    none = [None] * len(outs)
    if op in ("Shape", "Size"):
        axes = ins[0].axes
        if axes is None:
            return none, False
        if op == "Size":
            grow = all(not (a & DOWN) for a in axes)
            return [np.array(UP | NONNEG if grow else UNKNOWN, np.int8)], False
        r = len(axes)
        s, e = attrs.get("start", 0), attrs.get("end", r)
        s, e = max(0, min(r, s + r if s < 0 else s)), max(0, min(r, e + r if e < 0 else e))
        return [_pack(np, np.array(axes[s:e], np.int8), True)], False
    moving = [k for k, v in enumerate(ins) if v is not None and v.dirs is not None]
    if not moving:
        return none, False
    everywhere = lambda: [np.full(np.shape(o), UNKNOWN, np.int8) for o in outs]
    if op in MOVES_SHAPE:
        first = range(len(ins)) if op == "Concat" else [0]
        if any(k not in first for k in moving):  # the indices, the target shape... move: anything may
            return everywhere(), False
        if op == "Cast" and attrs.get("to") == 9:  # to bool: x != 0
            return everywhere(), False
        if op in ("Cast", "Identity"):
            return [ins[0].dirs], False
        got = FOLDERS[op](np, p, [_dirs(np, v) if k in first and v is not None else _vals(v) if v is not None
                                  else None for k, v in enumerate(ins)], attrs)
        got = got if isinstance(got, list) else [got]
        return [None if g is None or not (np.asarray(g) & UNKNOWN).any() else np.asarray(g, np.int8)
                for g in got], False
    vals = [np.asarray(_vals(v)) if v is not None else None for v in ins]
    ds = [_dirs(np, v) if v is not None else None for v in ins]
    try:
        shape = np.broadcast_shapes(*(np.shape(x) for x in vals if x is not None))
    except ValueError:
        return everywhere(), False
    b = lambda x: np.broadcast_to(x, shape)
    if op in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Sum", "Mean") or \
            op in ("Neg", "Abs", "Floor", "Ceil", "Sqrt", "Reciprocal", "Relu"):
        d = [b(x) & UNKNOWN for x in ds if x is not None]
        nn = [b(_nonneg(np, x, v)) for x, v in zip(ds, vals) if x is not None]
        unk = np.full(shape, UNKNOWN, np.int8)
        if op in ("Add", "Sum", "Mean", "Max", "Min"):
            moves = np.bitwise_or.reduce(d) if len(d) > 1 else d[0]
            nonneg = np.logical_or.reduce(nn) if op == "Max" else np.logical_and.reduce(nn)
        elif op == "Sub":
            moves, nonneg = d[0] | _flip(d[1]), False
        elif op == "Neg":
            moves, nonneg = _flip(d[0]), False
        elif op in ("Floor", "Ceil", "Sqrt", "Relu"):
            moves, nonneg = d[0], nn[0] if op != "Relu" else True
        elif op == "Abs":
            moves, nonneg = np.where(nn[0], d[0], unk), True
        elif op == "Reciprocal":  # 1 / x falls as x > 0 grows
            moves, nonneg = np.where(nn[0], _flip(d[0]), unk), nn[0]
        elif op == "Mul":
            a, c, va, vc = d[0], d[1], b(vals[0]), b(vals[1])
            both = (a != 0) & (c != 0)
            with np.errstate(all="ignore"):
                moves = np.where(both, np.where(nn[0] & nn[1], a | c, unk),
                                 np.where(a != 0, np.where(vc > 0, a, np.where(vc < 0, _flip(a), 0)),
                                          np.where(va > 0, c, np.where(va < 0, _flip(c), 0))))
            nonneg = nn[0] & nn[1]
        else:  # Div: by a constant > 0 it moves as the dividend; a constant >= 0 by a value >= 0, against it
            a, c, va, vc = d[0], d[1], b(vals[0]), b(vals[1])
            with np.errstate(all="ignore"):
                moves = np.where(c == 0, np.where(vc > 0, a, np.where(vc < 0, _flip(a), unk)),
                                 np.where((a == 0) & (va >= 0) & nn[1], _flip(c), unk))
            nonneg = nn[0] & nn[1]
        return [_pack(np, moves, nonneg)], False
    if op == "Where":
        c, x, y = (b(ds[k]) if ds[k] is not None else np.zeros(shape, np.int8) for k in range(3))
        moves = np.where(b(vals[0]).astype(bool), x, y) & UNKNOWN | np.where(c & UNKNOWN, UNKNOWN, 0)
        return [_pack(np, moves, np.where(b(vals[0]).astype(bool), b(_nonneg(np, x, vals[1])),
                                          b(_nonneg(np, y, vals[2]))))], False
    if op in ("ReduceSum", "ReduceProd", "ReduceMax", "ReduceMin") and len(moving) == 1 and moving[0] == 0:
        d = ds[0] & UNKNOWN
        nn = _nonneg(np, ds[0], vals[0]).all()
        moves = np.bitwise_or.reduce(d.reshape(-1)) if d.size else 0
        if op in ("ReduceSum", "ReduceProd") and not nn:
            moves = UNKNOWN
        return [_pack(np, np.full(np.shape(outs[0]), moves, np.int8), nn)], False
    zero = False
    if op == "Equal" and len(ins) == 2 and len(moving) == 1:
        k = moving[0]
        d, other = ds[k], vals[1 - k]
        zero = not (d & DOWN).any() and bool(_nonneg(np, d, vals[k]).all()) and other.size >= 1 and \
            not other.any() and np.size(outs[0]) == 1
        # a value >= 0 against a constant < 0 (torch's Expand: Where(shape == -1, 1, shape)) is never equal
        with np.errstate(all="ignore"):
            never = b(_nonneg(np, d, vals[k])) & (b(vals[1 - k]) < 0) & ((b(ds[1 - k]) & UNKNOWN) == 0)
        moves = np.where(((b(d) & UNKNOWN) == 0) | never, 0, UNKNOWN)
        return [_pack(np, moves, True)], zero
    return everywhere(), zero


BROADCASTING = {"Add", "Sub", "Mul", "Div", "Mod", "Pow", "Min", "Max", "Equal", "Less", "Greater", "LessOrEqual",
                "GreaterOrEqual", "And", "Or", "Where"}


# Output shapes of the ops whose inputs or attributes changed after opset
# 17 (ONNX 1.12's newest): [(shape, element type)] per output.
def _reduce_shape(np, node, ins, a):
    x = ins[0]
    axes = [int(v) for v in ins[1].const.reshape(-1)] if len(ins) > 1 and ins[1] is not None and \
        ins[1].const is not None else a.get("axes")
    if len(ins) > 1 and ins[1] is not None and ins[1].const is None:
        raise ValueError("its axes are computed at run time")
    r = len(x.shape)
    if not axes:
        if a.get("noop_with_empty_axes", 0):
            return [(x.shape, x.elem)]
        axes = range(r)
    axes = {k + r if k < 0 else k for k in axes}
    keep = a.get("keepdims", 1)
    shape = [1 if k in axes else d for k, d in enumerate(x.shape) if keep or k not in axes]
    return [(shape, x.elem if node.op_type not in ("ArgMax", "ArgMin") else 7)]


def _split_shape(np, node, ins, a):
    x = ins[0]
    if "num_outputs" in a and a["num_outputs"] != len(node.output):
        raise ValueError("num_outputs is %d, the node has %d outputs" % (a["num_outputs"], len(node.output)))
    axis = a.get("axis", 0) % len(x.shape)
    if len(ins) > 1 and ins[1] is not None and "num_outputs" in a:
        raise ValueError("both a split input and num_outputs")
    if len(ins) > 1 and ins[1] is not None:
        if ins[1].const is None:
            raise ValueError("its split sizes are computed at run time")
        sizes = [int(v) for v in ins[1].const.reshape(-1)]
    else:
        n = a.get("num_outputs", len(node.output))
        chunk = -(-x.shape[axis] // n)
        sizes = [min(chunk, max(0, x.shape[axis] - k * chunk)) for k in range(n)]
    return [(x.shape[:axis] + [d] + x.shape[axis + 1:], x.elem) for d in sizes]


def _pad_shape(np, node, ins, a):
    x = ins[0]
    if ins[1] is None or ins[1].const is None or (len(ins) > 3 and ins[3] is not None and ins[3].const is None):
        raise ValueError("its pads are computed at run time")
    pads = [int(v) for v in ins[1].const.reshape(-1)]
    r = len(x.shape)
    axes = [int(v) % r for v in ins[3].const.reshape(-1)] if len(ins) > 3 and ins[3] is not None else list(range(r))
    shape = list(x.shape)
    for k, ax in enumerate(axes):
        shape[ax] += pads[k] + pads[k + len(axes)]
    return [(shape, x.elem)]


def _axes_of(a, r, n, what):
    """Resize 18's and CenterCropPad's axes (all when absent), checked as ONNX Runtime does at load: each in
    [-r, r), none twice, one value per axis (n values given), else a broken file (a made-up size)."""
    axes = [int(k) for k in a.get("axes", range(r))]
    bad = [k for k in axes if not -r <= k < r]
    if bad:
        raise ValueError("axis %d is out of range for rank %d" % (bad[0], r))
    axes = [k % r for k in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("axes %s name an axis twice" % list(a["axes"]))
    if n != len(axes):
        raise ValueError("%d %s for %d %s" % (n, what, len(axes), "axes" if "axes" in a else "dimensions (its rank)"))
    return axes


def _resize_shape(np, node, ins, a):
    """Resize 18+: axes and keep_aspect_ratio_policy (onnx 1.12's Resize has neither): else None, its own rule."""
    import math
    x = ins[0]
    r = len(x.shape)
    policy = a.get("keep_aspect_ratio_policy", b"stretch")
    policy = policy.decode() if isinstance(policy, bytes) else policy
    if policy not in ("stretch", "not_larger", "not_smaller"):
        raise ValueError("keep_aspect_ratio_policy '%s' is none of stretch, not_larger, not_smaller" % policy)
    # an empty scales (older exporters' placeholder beside sizes) is no scales
    scales, sizes = (ins[k] if len(ins) > k and ins[k] is not None and
                     (ins[k].const is None or ins[k].const.size) else None for k in (2, 3))
    if (scales is None) == (sizes is None):
        raise ValueError("both scales and sizes" if scales is not None else "neither scales nor sizes (non-empty)")
    given = sizes if sizes is not None else scales
    if given.const is None:
        if "axes" not in a and policy == "stretch":
            return None  # onnx's rule names it
        raise ValueError("its %s are computed at run time" % ("sizes" if sizes is not None else "scales"))
    values = given.const.reshape(-1)
    axes = _axes_of(a, r, len(values), "sizes" if sizes is not None else "scales")
    if "axes" not in a and policy == "stretch":
        return None
    shape = list(x.shape)
    if sizes is not None:
        want = [int(v) for v in values]
        if policy != "stretch":  # one scale for every axis, the sizes a bound on the output
            pick = min if policy == "not_larger" else max
            f = pick(Fraction(w, x.shape[ax]) for w, ax in zip(want, axes))  # exact: k + 1/2 rounds up
            g = pick(np.float32(w) / np.float32(x.shape[ax]) for w, ax in zip(want, axes))  # ONNX Runtime's float
            # the larger of the two: ONNX Runtime's float32 lands one above the exact size at some sizes past 1000
            want = [max(int((f * x.shape[ax] + Fraction(1, 2)) // 1),
                        int(math.floor(float(g * np.float32(x.shape[ax])) + 0.5))) for ax in axes]
        for w, ax in zip(want, axes):
            shape[ax] = w
    else:
        if a.get("coordinate_transformation_mode", b"") in (b"tf_crop_and_resize", "tf_crop_and_resize"):
            raise ValueError("tf_crop_and_resize with axes is not supported")
        for f, ax in zip(values.astype(np.float32), axes):
            shape[ax] = int(np.floor(np.float32(x.shape[ax]) * f))
    return [(shape, x.elem)]


def _same_shape(np, node, ins, a):
    return [(ins[0].shape, ins[0].elem)]


FLOAT_ELEMS = {1, 10, 11, 16, 17, 18, 19, 20}  # TensorProto's float, float16, double, bfloat16, float8s


def _bitwise_shape(np, node, ins, a):
    """BitwiseAnd/Or/Xor/Not: integers of one type (ONNX Runtime refuses a float or two types at load)."""
    elems = {v.elem for v in ins if v is not None}
    if elems & FLOAT_ELEMS:
        raise ValueError("a floating-point input (bitwise ops take integers)")
    if len(elems) > 1:
        raise ValueError("inputs of different element types %s" % sorted(elems))
    return _same_shape(np, node, ins, a) if node.op_type == "BitwiseNot" else _broadcast_shape(np, node, ins, a)


def _mish_shape(np, node, ins, a):
    if ins[0].elem not in FLOAT_ELEMS:
        raise ValueError("input of element type %d (Mish takes floats)" % ins[0].elem)
    return _same_shape(np, node, ins, a)


def _group_norm_shape(np, node, ins, a):
    """GroupNormalization 18: X, scale, bias; num_groups >= 1 dividing the channels (else no runtime runs it)."""
    x, g = ins[0], a.get("num_groups")
    if len(ins) < 3 or ins[1] is None or ins[2] is None:
        raise ValueError("its scale and bias inputs are required")
    if len(x.shape) < 2:
        raise ValueError("input of rank %d has no channel axis" % len(x.shape))
    if g is None or g < 1 or x.shape[1] % g:
        raise ValueError("num_groups %s does not divide its %d channels" % (g, x.shape[1]))
    return _same_shape(np, node, ins, a)


def _broadcast_shape(np, node, ins, a):
    return [(list(np.broadcast_shapes(*(tuple(v.shape) for v in ins if v is not None))), ins[0].elem)]


def _center_crop_pad_shape(np, node, ins, a):
    x = ins[0]
    if ins[1] is None or ins[1].const is None:
        raise ValueError("its shape is computed at run time")
    want = [int(d) for d in ins[1].const.reshape(-1)]
    axes = _axes_of(a, len(x.shape), len(want), "sizes in its shape")
    shape = list(x.shape)
    for d, ax in zip(want, axes):
        shape[ax] = d
    return [(shape, x.elem)]


def _einsum_shape(np, node, ins, a):
    """Einsum: each subscript's size from the inputs (equal wherever it appears), the ellipsis's axes broadcast
    (numpy's rule); the output's subscripts as written after '->', else the ellipsis then the subscripts that
    appear once, in alphabetical order (onnx 1.12's shape inference gives the rank only)."""
    eq = a.get("equation")
    eq = (eq.decode() if isinstance(eq, bytes) else eq or "").replace(" ", "")
    if not eq:
        raise ValueError("no equation")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    xs = [v for v in ins if v is not None]
    if len(terms) != len(xs) or len(xs) != len(ins):
        raise ValueError("equation '%s' has %d terms for %d inputs" % (eq, len(terms), len(ins)))
    size, ell = {}, []
    for t, v in zip(terms, xs):
        if t.count("...") > 1 or "." in t.replace("...", ""):
            raise ValueError("term '%s': a stray '.' or a second ellipsis" % t)
        letters = t.replace("...", "")
        if not all(c.isalpha() for c in letters):
            raise ValueError("term '%s': subscripts are letters" % t)
        r = len(v.shape)
        if ("..." in t and r < len(letters)) or ("..." not in t and r != len(letters)):
            raise ValueError("term '%s' for an input of rank %d" % (t, r))
        head, _, tail = t.partition("...") if "..." in t else (t, "", "")
        dims = dict(zip(head, v.shape[:len(head)]))
        for c, d in zip(tail, v.shape[r - len(tail):] if tail else []):
            if dims.get(c, d) != d:
                raise ValueError("subscript '%s' is %d and %d in term '%s'" % (c, dims[c], d, t))
            dims[c] = d
        for c in head:
            if dims[c] != v.shape[head.index(c)]:
                raise ValueError("subscript '%s' repeated with two sizes in term '%s'" % (c, t))
        for c, d in dims.items():
            if size.setdefault(c, d) != d:
                raise ValueError("subscript '%s' is %d in one input and %d in another" % (c, size[c], d))
        if "..." in t:
            ell.append(tuple(v.shape[len(head):r - len(tail)]))
    ellipsis = list(np.broadcast_shapes(*ell)) if ell else []
    if arrow:
        if rhs.count("...") > 1 or "." in rhs.replace("...", "") or "..." in rhs and not ell:
            raise ValueError("output '%s': an ellipsis not in the inputs or a stray '.'" % rhs)
        out = rhs.replace("...", "")
        if any(c not in size for c in out) or len(set(out)) != len(out):
            raise ValueError("output '%s': a subscript not in the inputs, or repeated" % rhs)
        head, _, tail = rhs.partition("...") if "..." in rhs else (rhs, "", "")
        shape = [size[c] for c in head] + (ellipsis if "..." in rhs else []) + [size[c] for c in tail]
    else:
        once = sorted(c for c in size if lhs.count(c) == 1)
        shape = ellipsis + [size[c] for c in once]
    return [(shape, xs[0].elem)]


NEWER_RULES = {op: _reduce_shape for op in ("ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
                                             "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare")}
NEWER_RULES.update(Split=_split_shape, Pad=_pad_shape, Resize=_resize_shape, CenterCropPad=_center_crop_pad_shape,
                   BitwiseAnd=_bitwise_shape, BitwiseOr=_bitwise_shape, BitwiseXor=_bitwise_shape,
                   BitwiseNot=_bitwise_shape, Mish=_mish_shape, GroupNormalization=_group_norm_shape, Gelu=_same_shape)


def _stft_shape(np, node, ins, a):
    """STFT 17: [batch, frames, bins, 2], frames (length - frame_length) // frame_step + 1, bins frame_length // 2 +
    1 when onesided (the default; onnx 1.12 gives frame_length bins), the frame length frame_length's or the
    window's; None (onnx's own path, which names what is computed at run time) when a value is not known."""
    sig, step = ins[0], ins[1] if len(ins) > 1 else None
    win, fl = ins[2] if len(ins) > 2 else None, ins[3] if len(ins) > 3 else None
    if step is None or step.const is None or fl is not None and fl.const is None:
        return None
    if len(sig.shape) != 3 or sig.shape[2] not in (1, 2):
        raise ValueError("signal %s: expected [batch, length, 1 (real) or 2 (complex)]" % sig.shape)
    length = int(fl.const.reshape(-1)[0]) if fl is not None else win.shape[0] if win is not None and \
        len(win.shape) == 1 else None
    if length is None:
        raise ValueError("no frame_length and no 1-D window")
    if win is not None and win.shape != [length]:
        raise ValueError("window %s for a frame_length of %d" % (win.shape, length))
    hop = int(step.const.reshape(-1)[0])
    if hop < 1 or not 1 <= length <= sig.shape[1]:
        raise ValueError("frame_step %d, frame_length %d for a signal of length %d" % (hop, length, sig.shape[1]))
    onesided = a.get("onesided", 1)
    if onesided and sig.shape[2] == 2:
        raise ValueError("onesided on a complex signal")
    return [([sig.shape[0], (sig.shape[1] - length) // hop + 1, length // 2 + 1 if onesided else length, 2],
             sig.elem)]


def _onehot_shape(np, node, ins, a):
    """OneHot: the indices' shape with depth inserted at axis (onnx 1.12 leaves that axis unknown), of the values'
    type; None (onnx's path) when depth is not known before the run."""
    idx, depth, vals = ins[0], ins[1] if len(ins) > 1 else None, ins[2] if len(ins) > 2 else None
    if depth is None or depth.const is None:
        return None
    if depth.const.size != 1 or int(depth.const.reshape(-1)[0]) < 1:
        raise ValueError("depth %s: one value >= 1" % depth.const.reshape(-1)[:4].tolist())
    if vals is None or prod(vals.shape) != 2:
        raise ValueError("values must be [off, on]")
    r, axis = len(idx.shape), a.get("axis", -1)
    if not -(r + 1) <= axis <= r:
        raise ValueError("axis %d for indices of rank %d" % (axis, r))
    axis %= r + 1
    return [(idx.shape[:axis] + [int(depth.const.reshape(-1)[0])] + idx.shape[axis:], vals.elem)]


# Ops whose shape onnx's inference leaves unknown or wrong (Einsum: the rank only; OneHot: its new axis; STFT:
# onesided ignored): the converter's rule (None from it: onnx's own path).
OWN_RULES = {"Einsum": _einsum_shape, "STFT": _stft_shape, "OneHot": _onehot_shape}

# ONNX Runtime's fused ops that are a standard op plus an activation (the transformer ones: CONTRIB_RULES).
CONTRIB_AS = {"FusedConv": "Conv", "FusedGemm": "Gemm"}
# ONNX Runtime's quantized ops (quantize_static's QOperator format, quantize_dynamic): the float op whose
# shape they have, which of their inputs give it (the others are scales and zero points), and which input's
# element type the output has (a zero point's, a scale's; without it float, uint8 for QuantizeLinear): a
# QLinearAdd is an Add of inputs 0 and 3, uint8 or int8; a DynamicQuantizeMatMul a MatMul, float as b_scale.
CONTRIB_QUANT = {"QLinearAdd": ("Add", (0, 3), 0), "QLinearMul": ("Mul", (0, 3), 0),
                 "QLinearConcat": ("Concat", None, 2), "QLinearAveragePool": ("AveragePool", (0,), 0),
                 "QGemm": ("Gemm", (0, 3), 8), "DynamicQuantizeMatMul": ("MatMul", (0, 1), 2),
                 "MatMulIntegerToFloat": ("MatMul", (0, 1), 2), "QuantizeLinear": ("Identity", (0,), 2),
                 "DequantizeLinear": ("Identity", (0,), 1), "QLinearLeakyRelu": ("Identity", (0,), 0),
                 "QLinearSigmoid": ("Identity", (0,), 0), "QLinearSoftmax": ("Identity", (0,), 0),
                 "QLinearGlobalAveragePool": ("GlobalAveragePool", (0,), 0)}


# ---- ONNX Runtime's contrib ops (com.microsoft) --------------------------------
# Models saved by ONNX Runtime's transformer optimizer, or exported by Optimum
# or for transformers.js, carry fused transformer ops. Each rule gives every
# output the kernel returns (the graph's values: what is planned); scratch the
# kernel allocates inside (scores, a packed Q/K/V) is not a graph value. Shapes
# as ONNX Runtime's contrib-op schemas and kernels check them (1.20).
class TablePast(ValueError):
    """An index past a table (a position embedding of fewer rows than the sequence)."""


def _ms_in(node, ins, k, ranks, what):
    """Input k's shape, of one of the ranks (None: any), or an error naming it."""
    if k >= len(ins) or ins[k] is None:
        raise ValueError("its input %d (%s) is required and missing" % (k, what))
    s = ins[k].shape
    if ranks is not None and len(s) not in ranks:
        raise ValueError("input '%s' (%s) has shape %s: expected rank %s"
                         % (node.input[k], what, s, " or ".join(str(r) for r in ranks)))
    return s


def _ms_opt(ins, k):
    return ins[k] if k < len(ins) else None


def _ms_heads(a, name="num_heads"):
    n = a.get(name)
    if n is None:
        raise ValueError("attribute '%s' is required" % name)
    if n < 1:
        raise ValueError("attribute '%s' is %d: it must be >= 1" % (name, n))
    return n


def _ms_div(hidden, heads, what):
    if hidden % heads:
        raise ValueError("%s %d is not divisible by num_heads %d" % (what, hidden, heads))
    return hidden // heads


def _ms_same(node, ins, a):
    """Gelu, FastGelu, BiasGelu, QuickGelu, BiasAdd, BiasDropout, RotaryEmbedding: shaped as the input; a bias
    (a vector of the last axis) checked."""
    x = _ms_in(node, ins, 0, None, "input")
    bias = {"FastGelu": 1, "BiasGelu": 1, "BiasAdd": 1, "BiasDropout": 1}.get(node.op_type)
    if bias is not None and _ms_opt(ins, bias) is not None:
        b = ins[bias].shape
        if not x or len(b) != 1 or b[0] != x[-1]:
            raise ValueError("bias '%s' has shape %s: expected [%s] (the input's last axis)"
                             % (node.input[bias], b, x[-1] if x else "?"))
    if node.op_type == "BiasAdd":
        _ms_in(node, ins, 1, (1,), "bias")
        if _ms_in(node, ins, 2, None, "skip") != x:
            raise ValueError("skip '%s' has shape %s, the input %s" % (node.input[2], ins[2].shape, x))
    if node.op_type == "BiasGelu":
        _ms_in(node, ins, 1, (1,), "bias")
    if node.op_type == "RotaryEmbedding":
        _ms_in(node, ins, 0, (3, 4), "input")
        for k, what in ((1, "position_ids"), (2, "cos_cache"), (3, "sin_cache")):
            _ms_in(node, ins, k, None, what)
    out = [(x, ins[0].elem)]
    if node.op_type == "BiasDropout":  # the mask
        out.append((x, 9))
    return out


def _ms_skip_ln(node, ins, a):
    """SkipLayerNormalization (input, skip, gamma, beta, bias) and SkipSimplifiedLayerNormalization (no beta):
    output, mean, inv_std_var (float, the last axis 1) and input_skip_bias_sum (the residual the next one reads)."""
    x = _ms_in(node, ins, 0, (2, 3), "input")
    s = _ms_in(node, ins, 1, (2, 3), "skip")
    h = x[-1]
    if s[-1] != h or (s != x and s[-2] != x[-2]) or (len(s) == 3 and s[0] not in (1, x[0])) or \
            (len(x) == 2 and s != x):  # a skip broadcast only over a rank-3 input's batch (ONNX Runtime's check)
        raise ValueError("skip '%s' has shape %s, the input %s" % (node.input[1], s, x))
    params = [(2, "gamma")] + ([(3, "beta"), (4, "bias")] if node.op_type == "SkipLayerNormalization" else
                               [(3, "bias")])
    for k, what in params:
        if k == 2 or _ms_opt(ins, k) is not None:
            g = _ms_in(node, ins, k, (1,), what)
            if g[0] != h:
                raise ValueError("%s '%s' has shape %s: expected [%d] (the hidden size)" % (what, node.input[k], g, h))
    stat = (x[:-1] + [1], 1)
    return [(x, ins[0].elem), stat, stat, (x, ins[0].elem)]


def _ms_simplified_ln(node, ins, a):
    """SimplifiedLayerNormalization (ONNX Runtime's RMS norm, in the ONNX domain): Y as the scale's type,
    inv_std_var (float) with the axes from axis on of size 1."""
    x = _ms_in(node, ins, 0, None, "X")
    sc = _ms_in(node, ins, 1, None, "scale")
    r = len(x)
    axis = a.get("axis", -1)
    if not -r <= axis < r:
        raise ValueError("axis %d is out of range for rank %d" % (axis, r))
    axis %= r
    if prod(sc) != prod(x[axis:]):
        raise ValueError("scale '%s' has shape %s: expected %s (the normalized axes)" % (node.input[1], sc, x[axis:]))
    return [(x, ins[1].elem), (x[:axis] + [1] * (r - axis), 1)]


def _ms_embed_ln(node, ins, a):
    """EmbedLayerNormalization: output (batch, sequence, hidden), mask_index (batch) int32, embedding_sum."""
    ids = _ms_in(node, ins, 0, (2,), "input_ids")
    word = _ms_in(node, ins, 2, (2,), "word_embedding")
    pos = _ms_in(node, ins, 3, (2,), "position_embedding")
    h = word[1]
    b, s = ids
    for k, what in ((1, "segment_ids"), (7, "mask")):
        if _ms_opt(ins, k) is not None and ins[k].shape != ids:
            raise ValueError("%s '%s' has shape %s, input_ids %s" % (what, node.input[k], ins[k].shape, ids))
    for k, what in ((3, "position_embedding"), (4, "segment_embedding")):
        if _ms_opt(ins, k) is not None and (len(ins[k].shape) != 2 or ins[k].shape[1] != h):
            raise ValueError("%s '%s' has shape %s: expected [rows, %d] (word_embedding's hidden size)"
                             % (what, node.input[k], ins[k].shape, h))
    if (_ms_opt(ins, 1) is None) != (_ms_opt(ins, 4) is None):
        raise ValueError("segment_ids and segment_embedding go together (one is missing)")
    for k, what in ((5, "gamma"), (6, "beta")):
        if k == 5 or _ms_opt(ins, k) is not None:
            g = _ms_in(node, ins, k, (1,), what)
            if g[0] != h:
                raise ValueError("%s '%s' has shape %s: expected [%d] (the hidden size)" % (what, node.input[k], g, h))
    if _ms_opt(ins, 8) is None and pos[0] < s:
        raise TablePast("sequence %d is past position_embedding '%s' of %d rows" % (s, node.input[3], pos[0]))
    out = (ids + [h], ins[2].elem)
    return [out, ([b], 6), out]


def _ms_attention(node, ins, a):
    """Attention (input, weights, bias, mask_index, past, attention_bias, past_sequence_length) and QAttention
    (input, weight, bias, input_scale, weight_scale, mask_index, input and weight zero points, past): output
    (batch, sequence, v_hidden), present (2, batch, heads, past + sequence, head size)."""
    q8 = node.op_type == "QAttention"
    x = _ms_in(node, ins, 0, (3,), "input")
    w = _ms_in(node, ins, 1, (2,), "weights")
    n = _ms_heads(a)
    if w[0] != x[2]:
        raise ValueError("weights '%s' %s take an input hidden size of %d, the input %s has %d"
                         % (node.input[1], w, w[0], x, x[2]))
    sizes = list(a.get("qkv_hidden_sizes") or [])
    if sizes:
        if len(sizes) != 3 or sizes[0] != sizes[1] or sum(sizes) != w[1] or min(sizes) < 1:
            raise ValueError("qkv_hidden_sizes %s: three sizes, q's = k's, their sum the weights' %d columns"
                             % (sizes, w[1]))
    else:
        if w[1] % 3:
            raise ValueError("weights '%s' %s: %d columns are not 3 x hidden" % (node.input[1], w, w[1]))
        sizes = [w[1] // 3] * 3
    _ms_div(sizes[0], n, "the hidden size")
    hv = _ms_div(sizes[2], n, "the value hidden size")
    bias = _ms_in(node, ins, 2, (1,), "bias") if q8 else (ins[2].shape if _ms_opt(ins, 2) is not None else None)
    if bias is not None and bias != [w[1]]:
        raise ValueError("bias '%s' has shape %s: expected [%d]" % (node.input[2], bias, w[1]))
    if q8:
        _ms_in(node, ins, 3, None, "input_scale")
        _ms_in(node, ins, 4, None, "weight_scale")
    past = _ms_opt(ins, 8 if q8 else 4)
    p = 0
    if past is not None:
        if sizes[1] != sizes[2]:
            raise ValueError("a past with qkv_hidden_sizes %s: k's and v's must be equal" % sizes)
        ps = past.shape
        if len(ps) != 5 or ps[0] != 2 or ps[1] != x[0] or ps[2] != n or ps[4] != hv:
            raise ValueError("past '%s' has shape %s: expected [2, %d, %d, past, %d]"
                             % (node.input[8 if q8 else 4], ps, x[0], n, hv))
        p = ps[3]
    elem = ins[2].elem if q8 else ins[0].elem  # QAttention: float, as its bias
    present = past.shape if past is not None and a.get("past_present_share_buffer", 0) else [2, x[0], n, p + x[1], hv]
    return [([x[0], x[1], sizes[2]], elem), (present, elem)]


def _ms_mha(node, ins, a):
    """MultiHeadAttention: query (B, S, D), or Q/K/V packed (B, S, N, 3, H); key (B, L, D), K/V packed
    (B, L, N, 2, H) or projected (B, N, L, H); value (B, L, Dv) or (B, N, L, Hv); bias, key_padding_mask,
    attention_bias, past_key (B, N, P, H), past_value (B, N, P, Hv). Outputs: output (B, S, Dv), present_key
    (B, N, P + L, H), present_value (B, N, P + L, Hv), qk (B, N, S, P + L)."""
    n = _ms_heads(a)
    q = _ms_in(node, ins, 0, (3, 5), "query")
    k, v = _ms_opt(ins, 1), _ms_opt(ins, 2)
    b, s = q[0], q[1]
    if len(q) == 5:
        if q[2] != n or q[3] != 3 or k is not None or v is not None:
            raise ValueError("packed query '%s' %s: expected [batch, sequence, %d, 3, head size] and no key or value"
                             % (node.input[0], q, n))
        h = hv = q[4]
        kv = s
    else:
        h = _ms_div(q[2], n, "the query's hidden size")
        if k is None:
            raise ValueError("its input 1 (key) is required with an unpacked query (rank 3) and missing")
        ks = k.shape
        if len(ks) == 5:
            if ks[0] != b or ks[2] != n or ks[3] != 2 or ks[4] != h or v is not None:
                raise ValueError("packed key/value '%s' %s: expected [%d, kv sequence, %d, 2, %d] and no value"
                                 % (node.input[1], ks, b, n, h))
            kv, hv = ks[1], h
        elif len(ks) in (3, 4):
            if v is None:
                raise ValueError("its input 2 (value) is required with key '%s' and missing" % node.input[1])
            vs = v.shape
            if len(vs) != len(ks):
                raise ValueError("key '%s' %s and value '%s' %s: not of one layout"
                                 % (node.input[1], ks, node.input[2], vs))
            if len(ks) == 3:
                if ks[0] != b or ks[2] != q[2] or vs[0] != b or vs[1] != ks[1]:
                    raise ValueError("key '%s' %s and value '%s' %s for query %s: expected [%d, kv sequence, %d]"
                                     % (node.input[1], ks, node.input[2], vs, q, b, q[2]))
                kv, hv = ks[1], _ms_div(vs[2], n, "the value's hidden size")
            else:
                if ks[:2] != [b, n] or ks[3] != h or vs[:3] != ks[:3]:
                    raise ValueError("key '%s' %s and value '%s' %s: expected [%d, %d, kv sequence, %d]"
                                     % (node.input[1], ks, node.input[2], vs, b, n, h))
                kv, hv = ks[2], vs[3]
        else:
            raise ValueError("key '%s' has shape %s: expected rank 3, 4 or 5" % (node.input[1], ks))
    p = 0
    pk, pv = _ms_opt(ins, 6), _ms_opt(ins, 7)
    if (pk is None) != (pv is None):
        raise ValueError("past_key and past_value go together (one is missing)")
    if pk is not None:
        if len(pk.shape) != 4 or pk.shape[:2] != [b, n] or pk.shape[3] != h or \
                len(pv.shape) != 4 or pv.shape[:3] != pk.shape[:3] or pv.shape[3] != hv:
            raise ValueError("past_key '%s' %s, past_value '%s' %s: expected [%d, %d, past, %d] and [%d, %d, past, %d]"
                             % (node.input[6], pk.shape, node.input[7], pv.shape, b, n, h, b, n, hv))
        if hv != h:  # ONNX Runtime: "Input 'past_value' dimension 3 should be same as head_size"
            raise ValueError("past_value '%s' %s: its head size %d is not the key's %d (with a past they are equal)"
                             % (node.input[7], pv.shape, hv, h))
        p = pk.shape[2]
    elem = ins[0].elem
    t = p + kv
    # qk is typed apart from the query (float, float16 or bfloat16; CUDA's kernel writes float for a float16
    # query): None, the type the model declares for it, else float (the widest)
    return [([b, s, n * hv], elem), ([b, n, t, h], elem), ([b, n, t, hv], elem), ([b, n, s, t], None)]


def _ms_gqa(node, ins, a):
    """GroupQueryAttention: query (B, S, N x H), or Q/K/V packed (B, S, (N + 2 kv_num_heads) x H) without key
    and value; key, value (B, S, kv_num_heads x H); past_key, past_value (B, kv_num_heads, P, H); seqlens_k;
    total_sequence_length (a scalar whose value is needed: present's length is max(it, P)). Outputs: output
    (B, S, N x H), present_key and present_value (B, kv_num_heads, max(total, P), H)."""
    n, kvn = _ms_heads(a), _ms_heads(a, "kv_num_heads")
    if n % kvn:
        raise ValueError("num_heads %d is not a multiple of kv_num_heads %d" % (n, kvn))
    q = _ms_in(node, ins, 0, (3,), "query")
    b, s = q[0], q[1]
    k, v = _ms_opt(ins, 1), _ms_opt(ins, 2)
    if (k is None) != (v is None):
        raise ValueError("key and value go together (one is missing)")
    if k is None:
        h = _ms_div(q[2], n + 2 * kvn, "the packed query's hidden size (num_heads + 2 x kv_num_heads heads)")
    else:
        h = _ms_div(q[2], n, "the query's hidden size")
        if k.shape != [b, s, kvn * h] or v.shape != k.shape:
            raise ValueError("key '%s' %s, value '%s' %s: expected [%d, %d, %d] (kv_num_heads x head size)"
                             % (node.input[1], k.shape, node.input[2], v.shape, b, s, kvn * h))
    pk, pv = _ms_opt(ins, 3), _ms_opt(ins, 4)
    p = 0
    if (pk is None) != (pv is None):
        raise ValueError("past_key and past_value go together (one is missing)")
    if pk is not None:
        if len(pk.shape) != 4 or pk.shape[:2] != [b, kvn] or pk.shape[3] != h or pv.shape != pk.shape:
            raise ValueError("past_key '%s' %s, past_value '%s' %s: expected [%d, %d, past, %d]"
                             % (node.input[3], pk.shape, node.input[4], pv.shape, b, kvn, h))
        p = pk.shape[2]
    for kk, what in ((5, "seqlens_k"), (6, "total_sequence_length")):
        _ms_in(node, ins, kk, None, what)
        if ins[kk].elem != 6:  # ONNX Runtime refuses another type at load
            raise ValueError("%s '%s' is of element type %d: it must be int32" % (what, node.input[kk], ins[kk].elem))
    tv = ins[6].const if ins[6].const is not None else ins[6].known
    if tv is None or tv.size != 1:
        raise ValueError("the present key/value's length is the value of input 'total_sequence_length' ('%s'), "
                         "computed at run time from the data (not from a shape)" % node.input[6])
    total = int(tv.reshape(-1)[0])
    if total < s:
        raise ValueError("total_sequence_length %d is less than the sequence %d" % (total, s))
    if a.get("do_rotary", 0):
        for kk, what in ((7, "cos_cache"), (8, "sin_cache")):
            rows = _ms_in(node, ins, kk, (2,), what)[0]
            if rows < total:  # positions past the table (ONNX Runtime checks it)
                raise TablePast("total_sequence_length %d is past %s '%s' of %d rows"
                                % (total, what, node.input[kk], rows))
    t = max(total, p)
    elem = ins[0].elem
    return [([b, s, n * h], elem), ([b, kvn, t, h], elem), ([b, kvn, t, h], elem)]


def _ms_matmul_nbits(node, ins, a):
    """MatMulNBits: A (..., K) times a blocked N-bit B (N, ceil(K / block_size), block_size x bits / 8): (..., N)."""
    x = _ms_in(node, ins, 0, None, "A")
    w = _ms_in(node, ins, 1, None, "B")
    kk, nn, bits, bs = a.get("K"), a.get("N"), a.get("bits", 4), a.get("block_size")
    if kk is None or nn is None or bs is None:
        raise ValueError("attributes K, N and block_size are required")
    if kk < 1 or nn < 1 or bits not in (2, 3, 4, 5, 6, 7, 8) or bs < 16 or bs & (bs - 1):
        raise ValueError("K %d, N %d, bits %d, block_size %d: K, N >= 1, bits 2..8, block_size a power of 2 >= 16"
                         % (kk, nn, bits, bs))
    if not x or x[-1] != kk:
        raise ValueError("A '%s' has shape %s: its last axis must be K = %d" % (node.input[0], x, kk))
    blocks = -(-kk // bs)
    blob = bs * bits // 8
    if w != [nn, blocks, blob]:  # ONNX Runtime 1.20 refuses a 2-D B at load
        raise ValueError("B '%s' has shape %s: expected [%d, %d, %d] (N, K / block_size, block_size x bits / 8)"
                         % (node.input[1], w, nn, blocks, blob))
    _ms_in(node, ins, 2, None, "scales")
    return [(x[:-1] + [nn], ins[0].elem)]


def _ms_fused_matmul(node, ins, a):
    """FusedMatMul: a MatMul of A and B, each transposed on its last two axes first when transA, transB."""
    if a.get("transBatchA", 0) or a.get("transBatchB", 0):
        raise ValueError("transBatchA or transBatchB is set: not supported")
    x, y = list(_ms_in(node, ins, 0, None, "A")), list(_ms_in(node, ins, 1, None, "B"))
    if not x or not y:
        raise ValueError("a scalar input (MatMul takes vectors or matrices)")
    for s, t in ((x, "transA"), (y, "transB")):
        if a.get(t, 0) and len(s) >= 2:
            s[-2], s[-1] = s[-1], s[-2]
    xa, yb = [1] + x if len(x) == 1 else x, y + [1] if len(y) == 1 else y
    if xa[-1] != yb[-2]:
        raise ValueError("A %s and B %s (after transA %d, transB %d): K %d is not %d"
                         % (ins[0].shape, ins[1].shape, a.get("transA", 0), a.get("transB", 0), xa[-1], yb[-2]))
    ba, bb = xa[:-2], yb[:-2]
    ba, bb = [1] * (len(bb) - len(ba)) + ba, [1] * (len(ba) - len(bb)) + bb
    if any(i != j and 1 not in (i, j) for i, j in zip(ba, bb)):
        raise ValueError("A %s and B %s: batch axes that do not broadcast" % (ins[0].shape, ins[1].shape))
    batch = [j if i == 1 else i for i, j in zip(ba, bb)]
    return [(batch + xa[-2:-1] * (len(x) > 1) + yb[-1:] * (len(y) > 1), ins[0].elem)]


CONTRIB_RULES = {"FusedMatMul": _ms_fused_matmul, "Gelu": _ms_same, "FastGelu": _ms_same, "BiasGelu": _ms_same,
                 "QuickGelu": _ms_same, "BiasAdd": _ms_same, "BiasDropout": _ms_same, "RotaryEmbedding": _ms_same,
                 "SkipLayerNormalization": _ms_skip_ln, "SkipSimplifiedLayerNormalization": _ms_skip_ln,
                 "SimplifiedLayerNormalization": _ms_simplified_ln, "EmbedLayerNormalization": _ms_embed_ln,
                 "Attention": _ms_attention, "QAttention": _ms_attention, "MultiHeadAttention": _ms_mha,
                 "GroupQueryAttention": _ms_gqa, "MatMulNBits": _ms_matmul_nbits}


def prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def attention_length(op, in_shapes, out_shapes):
    """The length an attention op's queries attend over (past + the new keys): its present key's, else from
    the inputs (GroupQueryAttention's total_sequence_length, a value, taken as past + sequence there)."""
    if len(out_shapes) > 1 and out_shapes[1]:
        return out_shapes[1][-2]
    at = lambda k: in_shapes[k] if k < len(in_shapes) and in_shapes[k] else None
    x = in_shapes[0]
    if op in ("Attention", "QAttention"):
        past = at(8 if op == "QAttention" else 4)
        return x[1] + (past[3] if past and len(past) == 5 else 0)
    key, past = (at(1), at(6)) if op == "MultiHeadAttention" else (None, at(3))
    kv = x[1] if key is None or len(key) < 3 else key[2] if len(key) == 4 else key[1]  # (B, N, L, H): L third
    return kv + (past[2] if past and len(past) == 4 else 0)


def flops_of(op, in_shapes, out_shape, attrs, out_shapes=()):
    out = prod(out_shape)
    if op in ("Conv", "ConvTranspose", "QLinearConv", "FusedConv"):
        w = in_shapes[1] if len(in_shapes) > 1 and in_shapes[1] else None
        if w and len(w) >= 2:
            groups = attrs.get("group", 1)
            cin = w[1] if op != "ConvTranspose" else w[0] // groups
            return 2 * out * cin * prod(w[2:])
    if op in ("MatMul", "Gemm", "MatMulInteger", "QLinearMatMul", "FusedGemm", "FusedMatMul", "QGemm",
              "DynamicQuantizeMatMul", "MatMulIntegerToFloat", "MatMulNBits"):
        a = in_shapes[0] if in_shapes and in_shapes[0] else None
        if a:
            k = a[-1] if not (op in ("Gemm", "FusedGemm", "QGemm", "FusedMatMul") and attrs.get("transA", 0)) else a[-2]
            return 2 * out * k
    if op == "Einsum" and len(in_shapes) > 1 and all(x is not None for x in in_shapes):
        # a contraction: 2 per point of its index space (each subscript's size, the ellipsis's broadcast axes)
        eq = attrs.get("equation")
        terms = (eq.decode() if isinstance(eq, bytes) else eq or "").replace(" ", "").split("->")[0].split(",")
        if len(terms) == len(in_shapes):
            size, ell = {}, []
            for t, sh in zip(terms, in_shapes):
                head, dots, tail = t.partition("...")
                rest = sh[len(sh) - len(tail):] if tail else []
                size.update(zip(head, sh))
                size.update(zip(tail, rest))
                if dots:
                    ell.append(sh[len(head):len(sh) - len(tail)])
            width = max((len(e) for e in ell), default=0)
            batch = prod(max([e[len(e) - width + k] if len(e) - width + k >= 0 else 1 for e in ell])
                         for k in range(width))
            return 2 * (len(in_shapes) - 1) * batch * prod(size.values())
    if op in ("Attention", "QAttention", "MultiHeadAttention", "GroupQueryAttention"):
        if len(out_shape) != 3:  # present key/value, qk: the time goes with the output
            return 0
        x, w = in_shapes[0], in_shapes[1] if len(in_shapes) > 1 else None
        proj = 2 * prod(x[:-1]) * x[-1] * w[1] if op in ("Attention", "QAttention") and w and len(w) == 2 else 0
        # scores and context, about sequence x (past + kv sequence) x hidden each
        return proj + 4 * out * attention_length(op, in_shapes, out_shapes)
    return out


# ---- the graph CSV -------------------------------------------------------------

def dim_dependent(onnx, np, path, model, dims, bound, branches, keys):
    """(names, first pass, second pass, note): the values a pass at dims
    folds whose shapes follow the dynamic dimensions keys (a causal mask of
    seq x seq, positions 0..seq): their shapes at dims and at each key moved
    (+64, else -64, +1, -1: a model at its maximum context refuses the larger
    sizes) differ, whether the moved pass folds them or computes them (past
    the fold limit). A runtime computes them at every run (the shapes are not
    known before), so they are rows, and a symbolic conversion keeps one
    structure at every size. note: why none could be checked, or None."""
    first = convert_at(onnx, np, path, model, dims, bound, branches, want_pass=True)
    if not keys:
        return data_folded(first), first, None, None
    data = {}  # a data-dependent --dim moves by one, within 0..its most (a pattern: each dimension it gives)
    for key, (label, most, why, v, used) in first.data.items():
        if used in keys and used not in data:
            data[used] = dims[used] if is_pattern(used) else dims[used] - 1 if dims[used] > 1 or \
                most is not None and v >= most > 0 else dims[used] + 1
    # the data's all moved, else the patterns only (a bound the model relates to a constant, 17 keypoints, may
    # not move) with a note
    fixed = [k for k in data if not is_pattern(k)]
    for stay in ([], fixed) if fixed and len(fixed) < len(data) else ([],):
        for delta in (64, -64, 1, -1) if set(keys) - set(data) else (0,):
            moved = {k: v if k in stay else data[k] if k in data else v + delta if k in keys else v
                     for k, v in dims.items()}
            if any(moved[k] < (0 if k in data else 1) for k in keys):
                continue
            try:
                second = convert_at(onnx, np, path, model, moved, bound, branches, want_pass=True, clamp=True,
                                    collect=True,  # a count moved from 0 may reach a branch with more
                                    shift={k for k in data if is_pattern(k) and k not in stay})
            except Bad:
                continue
            names = {n for n, sh in first.folded.items() if n in second.values and second.values[n].shape != list(sh)}
            names |= data_folded(first)
            first.tied = set(stay)  # held at their values below the bounds (check_below)
            return names, first, second, None if not stay else (
                "values folded before the run were not checked against %s: the conversion is refused with them "
                "moved by one (the others were)" % ", ".join(stay))
    return data_folded(first), first, None, (
        "values folded before the run were not checked against %s: the conversion is refused at %s +-64 and +-1 "
        "(they may follow it and be missing from the rows)" % (", ".join(keys), ", ".join(keys)))


def data_folded(p):
    """The values pass p folds that move with the sizes from the data (their values or their shapes), of more
    than DATA_FOLD_ROW elements: a runtime computes them at every run, so they are rows (their values still
    known, so that the shapes they decide fold)."""
    return {n for n, sh in p.folded.items() if n in p.values and prod(sh) > DATA_FOLD_ROW and
            (p.values[n].dirs is not None or p.values[n].axes is not None)}


def convert_at(onnx, np, path, model, dims, bound, branches=None, no_fold=(), want_pass=False, clamp=False,
               collect=False, shift=(), lowered=()):
    """The rows at fixed dimensions: [name, op, size, node, deps, input
    bytes, flops, is output], unused rows dropped, ids renumbered (want_pass:
    the pass itself)."""
    g = model.graph
    init = {t.name for t in g.initializer}
    p = Pass(onnx, np, path, model, input_shapes(path, g, init, dims, {}, bound), bound)
    p.branches = branches or {}
    p.no_fold = set(no_fold)
    p.dims = dims
    p.clamp, p.collect, p.shift = clamp, collect, set(shift)
    p.run(g, top=True)
    if not collect:
        check_dim_names(g, init, {k: v for k, v in dims.items() if k not in lowered}, p)  # a name mistyped first
        if p.missing:
            raise Missing(missing_text(p.missing))
    return p if want_pass else rows_of(p)


def check_dim_names(g, init, dims, p):
    """Every --dim is an input's dynamic dimension, a data-dependent one the pass met, or a pattern matching
    one; else refused, listing the model's."""
    known = input_dim_names(g, init)
    for name in dims:
        if name in known or name in p.data or is_pattern(name) and any(fnmatch.fnmatchcase(k, name) for k in p.data):
            continue
        raise Bad("--dim %s: no such dynamic dimension (the model has: %s%s)"
                  % (name, ", ".join(sorted(known)) or "no input one",
                     "; computed from the data: %s" % ", ".join(sorted(p.data)[:8]) + (", ..." if len(p.data) > 8
                                                                                        else "") if p.data else ""))


def check_below(onnx, np, path, model, dims, bound, branches, no_fold, rows, p, symbolic=()):
    """The data-dependent dimensions of pass p at their bounds (rows): the header's notes. A plan at the
    bounds holds for every run below them when the graph is the same there and no value is larger: proven by
    the pass (every size a value computed from them decides grows with them: Pass.check_grows; an If on
    'v == 0' for a v that only grows is the exception, its other branch the runs where v is 0) and checked
    by sampling too: converting again with each dimension (a pattern's each one) at its bound - 1, at 1 and
    at 0, each alone when there are up to CHECK_EACH, else all together, and at 1 all together; a value
    larger there, the graph changed (but at 0 after such an If), or a conversion refused there (also when
    retried with all of them lowered together) is refused."""
    if not p.data:
        return []
    if p.exact:
        return ["sizes computed from the data at exactly the counts given (--exact: %s): the plan is that run's, "
                "not a bound's" % ", ".join("%s = %d" % (k, d[3]) for k, d in list(p.data.items())[:8])]
    given = {}  # each dimension lowered alone (a pattern's each one): name -> its value at the bound
    shown = {}
    for key, (label, most, why, v, used) in p.data.items():
        if used is not None and used not in symbolic:  # a symbol's (symbolic) is the fit's: not a bound
            if used not in p.tied:
                given[key] = v
            shown.setdefault(used, []).append("%s = %d%s" % (key, v, " (its most)" if v == most else ""))
    if not given:
        return []
    text = "; ".join("--dim %s=%d: %s" % (u, dims[u], ", ".join(ks[:4]) + (" and %d more" % (len(ks) - 4)
                                                                          if len(ks) > 4 else ""))
                     for u, ks in shown.items())
    zero_ok = bool(p.zero_ifs)
    notes = ["sizes computed from the data planned at the bounds given (%s): every size decided by a value computed "
             "from them is proven to grow with them, so the plan holds for every run %s (each value at its offset "
             "even when a run makes it smaller)%s%s" % (
                 text, "with each of them from 1 up to its bound" if zero_ok else "up to them",
                 "; a run with one at 0 may take the other branch of %s (on 'no value': not planned here, convert "
                 "at 0 for that case)" % ", ".join(sorted({x[0] for x in p.zero_ifs})[:3]) if zero_ok else "",
                 "; sampled too at bound - 1, 1 and 0" if len(given) <= CHECK_EACH else
                 "; sampled too with all of them at bound - 1, 1 and 0")]
    if p.tied:
        notes.append("%s held at the values given below the bounds: the model takes no other (refused moved by one); "
                     "the plan is for runs at those values" % ", ".join(sorted(p.tied)))
    at_fns = (lambda b: b - 1, lambda b: min(b - 1, 1), lambda b: 0)
    points = []
    for group in [[u] for u in given] if len(given) <= CHECK_EACH else [list(given)]:
        for at in at_fns:
            point = {u: at(given[u]) for u in group}
            if all(v >= 0 for v in point.values()) and point not in [q for q, _ in points]:
                points.append((point, at))
    ones = {u: min(given[u], 1) for u in given}  # an If on 'v == 0' false there is false whenever every count >= 1
    if ones not in [q for q, _ in points]:
        points.append((ones, at_fns[1]))
    def convert_lowered(point):
        # a row at the bound stays one below it (a value past the fold limit there may fold when smaller)
        lower = dict(dims)
        lower.update(point)
        return convert_at(onnx, np, path, model, lower, bound, branches, set(no_fold) | {r[0] for r in rows},
                          clamp=True, lowered=set(point))

    for point, at_fn in points:
        try:
            low = convert_lowered(point)
        except Bad as e:
            if zero_ok and any(v == 0 for v in point.values()):  # outside the runs the plan is for
                notes.append("at %s (a run the If on 'no value' may take elsewhere) the conversion is refused: %s"
                             % (_point_text(point), str(e)[:160]))
                continue
            if len(point) == len(given):
                raise Bad("the check below the bounds is refused at %s: %s" % (_point_text(point), e))
            together = {u: max(at_fn(given[u]), 0) for u in given}  # all lowered as it is
            try:
                low = convert_lowered(together)
            except Bad as e2:
                raise Bad("the check below the bounds is refused at %s (%s), and with all of them lowered with it "
                          "(%s)" % (_point_text(point), str(e)[:200], str(e2)[:200]))
            point = together
            if not any("lowered together" in n for n in notes):
                notes.append("checked below the bounds with all of them lowered together where one alone is refused "
                             "(the model relates them: %s)" % str(e)[:120])
        at = _point_text(point)
        b = ", ".join("--dim %s=%d" % (k, given[k]) for k in point)
        same = [(r[0], r[1], r[4]) for r in low] == [(r[0], r[1], r[4]) for r in rows]
        if not same and zero_ok and any(v == 0 for v in point.values()):  # an If on 'no box found': another plan
            notes.append("at %s the graph is another (%d values: the If on an empty count, %s, takes its other "
                         "branch): not planned here, convert at 0 for that case"
                         % (at, len(low), ", ".join(sorted({x[0] for x in p.zero_ifs}))[:200]))
            continue
        if not same:
            k = next((i for i, (x, y) in enumerate(zip(low, rows)) if (x[0], x[1], x[4]) != (y[0], y[1], y[4])),
                     min(len(low), len(rows)))
            raise Bad("%s: the graph changes below the bound (at %s: %d values, %d at the bound; first differing: "
                      "'%s'): a plan at the bound does not hold for every run; convert once per case"
                      % (b, at, len(low), len(rows), (low[k] if k < len(low) else rows[k])[0]))
        for x, y in zip(low, rows):
            if x[2] > y[2]:
                raise Bad("%s: value '%s' is %d bytes at %s and %d at the bound: it shrinks as the bound grows, so a "
                          "plan at the bound does not hold below it" % (b, x[0], x[2], at, y[2]))
    return notes


def both_if_notes(rows):
    """The header's notes on the Ifs planned with both branches (their output rows' op is If)."""
    found = {}
    for r in rows:
        if r[1] == "If":
            found.setdefault(id(r[3]), (r[3], []))[1].append(r[0])
    return ["%s: both branches planned (its condition '%s' is computed at run time: either may run, the other "
            "leaves its values unwritten); %s %s a row of its own, the larger of the branches' per axis (%s--if %s="
            "then or =else plans one)" % (node_label(n), n.input[0], "output " + ", ".join("'%s'" % o for o in v[:4]) +
                                          (" ..." if len(v) > 4 else ""), "is" if len(v) == 1 else "are",
                                          "--input %s=VALUE or " % IF_SCALARS[id(n)][0] if IF_SCALARS.get(id(n))
                                          else "", if_name(n) or "NODE")
            for n, v in found.values()]


def check_ifs(onnx, np, path, model, dims, bound, branches, no_fold, rows, p):
    """The Ifs of pass p planned at the larger of their branches' outputs: each branch converted alone (--if);
    a value larger there than planned, or a conversion refused there, is refused (the second line behind the
    proof that every size read from them grows with them), and so are more than CHECK_IFS such Ifs (unchecked).
    Rows are matched by node and name: sibling branches may both name a value 't'."""
    names = sorted({x[1] for x in p.if_max})
    if not names:
        return []
    if len(names) > CHECK_IFS or not all(names):
        raise Bad("%d Ifs on a run-time condition have branches whose outputs differ (%s): planned at the larger of "
                  "each, which is checked by converting each branch alone for up to %d of them; choose the branches "
                  "with --if NODE=then (or =else) and convert once per case"
                  % (len(names), ", ".join(names[:6]) + (" ..." if len(names) > 6 else ""), CHECK_IFS))
    planned = {(id(r[3]), r[0]): r[2] for r in rows}
    for name in names:
        for b in ("then", "else"):
            one = dict(branches)
            one[name] = b
            try:
                low = convert_at(onnx, np, path, model, dims, bound, one, no_fold)
            except Bad as e:
                raise Bad("If %s planned at the larger of its branches, but converted with its %s branch alone (--if "
                          "%s=%s) it is refused: %s" % (name, b, name, b, str(e)[:300]))
            for r in low:
                if (id(r[3]), r[0]) in planned and r[2] > planned[(id(r[3]), r[0])]:
                    raise Bad("If %s: value '%s' is %d bytes with its %s branch alone and %d planned with both: a "
                              "size read from its outputs does not grow with them; choose the branch with --if %s="
                              "then (or =else)" % (name, r[0], r[2], b, planned[(id(r[3]), r[0])], name))
    return ["%s: each branch alone (--if) makes no value larger than planned" % ", ".join("If %s" % n for n in names)]


def _point_text(point):
    items = list(point.items())
    return ", ".join("%s = %d" % kv for kv in items[:4]) + (" and %d more" % (len(items) - 4) if len(items) > 4
                                                             else "")


def declared_elems(graph):
    """name -> the element type graph and its subgraphs declare for it (graph outputs, value_info)."""
    found = {}
    for vi in list(graph.value_info) + list(graph.output):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
            found[vi.name] = vi.type.tensor_type.elem_type
    for n in graph.node:
        for a in n.attribute:
            for sub in ([a.g] if a.type == 5 else list(a.graphs) if a.type == 10 else []):
                found.update(declared_elems(sub))
    return found


def all_ifs(graph):
    """The names of the If nodes of graph and of every subgraph in it."""
    found = set()
    for n in graph.node:
        if n.op_type == "If" and if_name(n):
            found.add(if_name(n))
        for a in n.attribute:
            for sub in ([a.g] if a.type == 5 else list(a.graphs) if a.type == 10 else []):
                found |= all_ifs(sub)
    return found


def rows_of(p):
    """The rows of a pass made by convert_at (see there)."""
    g = p.model.graph
    for name in p.branches:
        if name not in p.ifs:
            every = all_ifs(g)
            if name in every:
                raise Bad("--if %s: that If node is not reached (it sits in a branch not taken)" % name)
            raise Bad("--if %s: no If node of that name (the model's: %s)" % (name, ", ".join(sorted(every)) or "none"))
    outputs = set()
    for o in g.output:
        v = p.values.get(o.name)
        if v is None:
            raise Bad("graph output '%s' is not computed" % o.name)
        if v.row is None:
            raise Bad("graph output '%s' is a constant (folded before the run): nothing to plan for it" % o.name)
        outputs.add(v.row)
    used = set(outputs)
    for r in p.rows:
        used.update(r[4])
    keep = [i for i in range(len(p.rows)) if i in used or p.rows[i][1] == "input"]
    new = {old: k for k, old in enumerate(keep)}
    rows = []
    for old in keep:
        name, op, size, node, deps, in_bytes, flops = p.rows[old]
        rows.append([name, op, size, node, [new[d] for d in deps], in_bytes, flops, old in outputs])
    return rows


def times(a, rows, onnx):
    """Per row (time, cpu, acc, device, xfer) from the roofline model; the
    outputs of one node share its time by size (the used ones)."""
    link = lambda size: size / (a.link_gbps * 1e3) + a.link_us  # bytes / (GB/s) in us
    by_node = {}
    for r in rows:
        if r[3] is not None:
            by_node.setdefault(id(r[3]), []).append(r)
    result = []
    for r in rows:
        name, op, size, node, deps, in_bytes, flops, is_out = r
        if node is None:
            result.append((0.0, 0.0, None, "cpu", link(size)))
            continue
        siblings = by_node[id(node)]
        total_out = sum(s[2] for s in siblings)
        flops = sum(s[6] for s in siblings)  # one output for the matrix ops; elements for the others
        moved = in_bytes + total_out
        cpu = max(flops / (a.cpu_gflops * 1e3), moved / (a.cpu_gbps * 1e3)) + a.cpu_overhead_us
        if op in MATRIX_OPS:
            device, acc = "acc", max(flops / (a.acc_tflops * 1e6), moved / (a.acc_gbps * 1e3)) + a.acc_overhead_us
        elif op in a.cpu_ops:
            device, acc = "cpu", None
        else:
            device, acc = "any", moved / (a.acc_gbps * 1e3) + a.acc_overhead_us
        share = size / total_out if total_out else 1.0
        t_cpu, t_acc = cpu * share, acc * share if acc is not None else None
        result.append((t_acc if t_acc is not None else t_cpu, t_cpu, t_acc, device, link(size)))
    return result


# ---- symbolic sizes --------------------------------------------------------------

def interpolate(xs, ys):
    """The coefficients (Fractions, low to high) of the polynomial through
    the points (Newton's divided differences, exact)."""
    n = len(xs)
    coef = [Fraction(y) for y in ys]
    for j in range(1, n):
        for i in range(n - 1, j - 1, -1):
            coef[i] = (coef[i] - coef[i - 1]) / (xs[i] - xs[i - j])
    poly = [Fraction(0)] * n
    for i in range(n - 1, -1, -1):  # Newton form to monomials
        poly = [(-xs[i]) * poly[0] + coef[i]] + [poly[k - 1] - xs[i] * poly[k] for k in range(1, n)]
    while len(poly) > 1 and poly[-1] == 0:
        poly.pop()
    return poly


def poly_at(c, x):
    v = Fraction(0)
    for k in reversed(range(len(c))):
        v = v * x + c[k]
    return v


def poly_text(c2, names):
    """c2[(i, j)] non-negative Fraction coefficients of names[0]^i names[1]^j
    as plan reads them ("3*H*W/8+64")."""
    terms = []
    for (i, j) in sorted(c2, key=lambda t: (-(t[0] + t[1]), -t[0], -t[1])):
        v = Fraction(c2[(i, j)])
        if v == 0:
            continue
        factors = [nm if e == 1 else "%s^%d" % (nm, e) for e, nm in zip((i, j), names) if e]
        text = "*".join(([str(v.numerator)] if v.numerator != 1 or not factors else []) + factors)
        terms.append(text + ("/%d" % v.denominator if v.denominator != 1 else ""))
    return "+".join(terms) or "0"


class Symbolic:
    """Converts at several values of the symbols and fits each size."""

    def __init__(self, onnx, np, path, model, a, bound):
        self.onnx, self.np, self.path, self.model, self.a, self.bound = onnx, np, path, model, a, bound
        self.names = sorted(set(a.symbols.values()), key=list(a.symbols.values()).index)
        self.tops = {}  # axis: (highest value converted, the refusal above it) when the model takes no more
        self.prepare(FIT_FROM)

    def prepare(self, value):
        """The rows that follow the symbols (dim_dependent at value), the cache emptied."""
        onnx, np, path, model, a, bound = self.onnx, self.np, self.path, self.model, self.a, self.bound
        self.cache, self.structure = {}, None
        dims = dict(a.dims)
        dims.update({k: value for k in a.symbols})
        self.note, self.first_failed = None, False
        inputs = input_dim_names(model.graph, {t.name for t in model.graph.initializer})
        try:  # the symbols and the data's fixed dimensions (a value following those is computed at every run)
            self.no_fold, first, second, self.note = dim_dependent(onnx, np, path, model, dims, bound, a.branches,
                                                                   list(a.symbols) + [k for k in a.dims
                                                                                      if k not in inputs])
        except Bad:
            self.no_fold, first, second = set(), None, None  # the fit reports the failure at its own points
            self.first_failed = True
        for p in (first, second) if not self.no_fold else ():  # the passes made: points of the fit
            # the moved pass moved the data's fixed bounds too (and clamped, collected): not a point of the fit
            if p is not None and (p is first or not p.shift and not any(p.dims[k] != dims[k] for k in a.dims)):
                point = tuple(next(p.dims[k] for k, sym in a.symbols.items() if sym == n) for n in self.names)
                try:
                    self.store(point, rows_of(p))
                except Bad:
                    pass  # at() says it at that point

    def at(self, point):
        """Rows at symbol values point (a tuple in self.names' order)."""
        if point not in self.cache:
            dims = dict(self.a.dims)
            for key, sym in self.a.symbols.items():
                dims[key] = point[self.names.index(sym)]
            try:
                rows = convert_at(self.onnx, self.np, self.path, self.model, dims, self.bound, self.a.branches,
                                  self.no_fold)
            except Bad as e:  # kept with its point: a later call says where too
                self.cache[point] = type(e)("at %s: %s (the fit converts at sizes up from 512: convert at fixed "
                                            "sizes with --dim)" % (self.where(point), e))
                self.cache[point].point, self.cache[point].reason = point, "at %s: %s" % (self.where(point), e)
                raise self.cache[point]
            self.store(point, rows)
        if isinstance(self.cache[point], Bad):
            raise self.cache[point]
        return self.cache[point]

    def store(self, point, rows):
        shape = [(r[0], r[1], r[4], r[7]) for r in rows]
        if self.structure is None:
            self.structure = shape
        if shape != self.structure:
            self.cache[point] = Bad("at %s: the graph changes with %s (an If or a data-dependent op on it): fix it "
                                    "with --dim" % (self.where(point), " and ".join(self.names)))
        else:
            self.cache[point] = rows

    def where(self, point):
        return ", ".join("%s = %d" % (n, v) for n, v in zip(self.names, point))

    def sizes(self, point):
        return [r[2] for r in self.at(point)]

    def matches(self, fits, pt, xs):
        """Whether the fits give the sizes at xs; a point refused does not
        match (the first refusal kept: the reason when no fit is found)."""
        try:
            return all(all(poly_at(c, x) == v for c, v in zip(fits, self.sizes(pt(x)))) for x in xs)
        except Bad as e:
            self.refused = self.refused or e
            return False

    def fit_1d(self, axis, other):
        """(per row the coefficients in the symbol axis, the other symbol at
        other; first fitted value; step; least value the fit holds from;
        highest value probed)."""
        def pt(x):
            p = [other] * len(self.names)
            p[axis] = x
            return tuple(p)
        self.refused = None
        for step in (64, 128, 256, 512, 1024, 2048, 4096):  # strided ops: sizes are polynomials on multiples
            start = max(step, FIT_FROM)
            got = self.grid(pt, start, step)
            if got is not None:
                return got
        if isinstance(self.refused, Past) and len(self.names) == 1:  # a size the model does not take: below it
            return self.below(axis, pt)
        raise self.refused or Bad("a size is not a polynomial of degree <= %d in %s (fitted on multiples of 64 up to "
                             "4096 from %d): convert at fixed values with --dim"
                             % (MAX_DEGREE, self.names[axis], FIT_FROM))

    def grid(self, pt, start, step, extra=()):
        """fit_1d's answer on the grid from start by step (extra: more
        points to confirm), or None (a refusal kept in self.refused)."""
        xs = [start + step * k for k in range(MAX_DEGREE + 2)]
        try:
            # the fewest points that every further one of the grid and two far ones confirm: one
            # further point let a step function (STFT frames, floor((W - 512) / 160) + 1) pass as a
            # constant on its first plateau
            far = [start + step * (MAX_DEGREE + 2 + k) for k in CONFIRM_FAR]
            for n in range(1, MAX_DEGREE + 2):
                fits = [interpolate(xs[:n], col) for col in zip(*(self.sizes(pt(x)) for x in xs[:n]))]
                if self.matches(fits, pt, xs[n:] + far + list(extra)):
                    break
            else:
                return None
        except Bad as e:  # the first failure is the one to report (the smallest values)
            self.refused = self.refused or e
            return None
        exact = step
        for s in (step // 2, step // 4, step // 8, 32, 16, 8, 4, 2, 1):  # a finer step still fits?
            if 0 < s < exact and exact % s == 0:
                if not self.matches(fits, pt, [start + s, start + step + 3 * s, start + 5 * step + 7 * s]):
                    break
                exact = s
        low, k = start, 1  # down from start: start - exact, - 2 exact, - 4 exact... while they fit
        while start - k * exact >= exact and self.matches(fits, pt, [start - k * exact]):
            low, k = start - k * exact, 2 * k
        if start - k * exact < exact <= low - exact and self.matches(fits, pt, [exact]):
            low = exact
        return fits, start, exact, low, max([far[-1]] + list(extra))

    def below(self, axis, pt):
        """fit_1d below the least value refused as past what the model takes
        (an index past a position table): the highest value it converts at
        (a bisection), then a grid as fit_1d's (as many points, the far ones
        as far in steps) ending there."""
        first = self.refused
        lo, hi = 0, first.point[axis]
        for p, r in self.cache.items():  # the values converted below the refusal
            if not isinstance(r, Bad) and lo < p[axis] < hi:
                lo = p[axis]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            try:
                self.at(pt(mid))
                lo = mid
            except Past as e:
                hi, first = mid, e
        if lo == 0:  # refused at every size: the reason at the least one
            raise Bad("%s (the fit found no value it converts at)" % first.reason)
        top, span = lo, MAX_DEGREE + 2 + CONFIRM_FAR[-1]
        step = 1
        while (2 * step) * (span + 1) <= top:  # the coarsest power of 2 (strided ops) whose grid fits below top
            step *= 2
        if step * (span + 1) > top:
            raise Bad("%s (a fit needs %s up to %d at least: convert at fixed sizes with --dim)"
                      % (first, self.names[axis], span + 1))
        start = top // step * step - span * step
        if self.first_failed:  # the rows following the symbols were not found at FIT_FROM: found at start
            self.prepare(start)
        self.refused = None
        got = self.grid(pt, start, step, [top])
        if got is None:
            raise self.refused or Bad("a size is not a polynomial of degree <= %d in %s (fitted on multiples of %d "
                                      "from %d up to %d, the most the model takes): convert at fixed values with --dim"
                                      % (MAX_DEGREE, self.names[axis], step, start, top))
        self.tops[axis] = (top, first.reason)
        return got

    def rows(self):
        """(rows at the first fitted point, sizes as text, notes)."""
        notes = []
        if len(self.names) == 1:
            fits, start, step, low, high = self.fit_1d(0, None)
            c2 = [{(i, 0): c for i, c in enumerate(f)} for f in fits]
            first = (start,)
            ranges = [(step, low, high)]
        else:
            fh, sh, eh, lh, hh = self.fit_1d(0, FIT_FROM)
            fw, sw, ew, lw, hw = self.fit_1d(1, FIT_FROM)
            dh = max(len(f) for f in fh) - 1
            dw = max(len(f) for f in fw) - 1
            step_h, step_w = max(eh, 64), max(ew, 64)
            hs = [sh + step_h * k for k in range(dh + 1)]
            ws = [sw + step_w * k for k in range(dw + 1)]
            c2 = []
            grid = {(h, w): self.sizes((h, w)) for h in hs for w in ws}
            for r in range(len(fh)):  # per H value a polynomial in W, then each W coefficient in H
                inner = [interpolate(ws, [grid[(h, w)][r] for w in ws]) for h in hs]
                coef = {}
                for j in range(dw + 1):
                    for i, c in enumerate(interpolate(hs, [f[j] if j < len(f) else 0 for f in inner])):
                        if c:
                            coef[(i, j)] = c
                c2.append(coef)
            check = (sh + step_h * (dh + 1), sw + step_w * (dw + 1))
            for r, (coef, v) in enumerate(zip(c2, self.sizes(check))):
                if sum(c * check[0] ** i * check[1] ** j for (i, j), c in coef.items()) != v:
                    raise Bad("the size of '%s' is not a polynomial in %s and %s of degree <= %d"
                              % (self.at(check)[r][0], self.names[0], self.names[1], MAX_DEGREE))
            first = (sh, sw)
            ranges = [(eh, lh, hh), (ew, lw, hw)]
        texts, rounded = [], 0
        for coef in c2:  # negative coefficients dropped: an upper bound for values >= 0
            texts.append(poly_text({k: c for k, c in coef.items() if c > 0}, self.names))
            rounded += any(c < 0 for c in coef.values())
        for axis, (n, (step, low, high)) in enumerate(zip(self.names, ranges)):
            probed = "values" if step == 1 else "multiples of %d" % step
            if axis in self.tops:  # the fit holds up to the most the model takes
                top, reason = self.tops[axis]
                notes.append("%s: sizes fitted from %d on; they match the conversion at the %s probed, from %d up to "
                             "%d, the most the model takes (refused %s)" % (n, first[axis], probed, low, top, reason))
            else:
                notes.append("%s: sizes fitted from %d on; they match the conversion at the %s probed, from %d up to "
                             "%d (not checked past it)" % (n, FIT_FROM, probed, low, high))
        if rounded:
            notes.append("%d sizes with a negative coefficient dropped (upper bounds)" % rounded)
        if self.note:
            notes.append(self.note)
        notes.append("times at %s" % ", ".join("%s = %d" % (n, v) for n, v in zip(self.names, first)))
        self.first = first
        return self.at(first), texts, notes


ZIP = "a zip archive, not an ONNX model (unzip it: each .onnx inside converts)"


def is_zip(path, data):
    """A zip whatever its first bytes: MediaPipe's .task bundles start with two zero bytes before the first entry."""
    import io
    import zipfile
    try:
        return zipfile.is_zipfile(io.BytesIO(data) if path == "-" else path)
    except OSError:
        return False


def load(onnx, path):
    import warnings
    warnings.simplefilter("ignore")  # protobuf's warnings on a bad file: the error below says it
    data = b""  # open() itself can fail (a symlink loop, a name too long): nothing read
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read(8)
        if data[4:8] == b"TFL3":
            raise Bad("a TensorFlow Lite model, not ONNX: convert it with examples/tflite_to_graph.py")
        if data[:4] == b"PK\x03\x04":
            raise Bad(ZIP)
        model = onnx.load_model_from_string(data) if path == "-" else \
            onnx.load(path, load_external_data=False)  # weights stored outside: their shapes are enough
    except Bad:
        raise
    except FileNotFoundError:
        raise Bad("cannot open: no such file")
    except IsADirectoryError:
        raise Bad("cannot open: a directory")
    except Exception as e:  # protobuf's DecodeError and others: not a model
        if is_zip(path, data):
            raise Bad(ZIP)
        first = (str(e).splitlines() or [type(e).__name__])[0]
        raise Bad("not a readable ONNX model (%s)" % (first or type(e).__name__))
    if not model.HasField("graph") or len(model.graph.node) == 0 and len(model.graph.input) == 0:
        raise Bad(ZIP if is_zip(path, data) else "not an ONNX model (no graph)")
    check_names(model.graph)
    supported = onnx.defs.onnx_opset_version()
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx") and o.version > NEWEST_OPSET:
            raise Bad("opset %d is newer than this converter handles (up to %d with onnx %s)"
                      % (o.version, NEWEST_OPSET, onnx.__version__))
        if o.domain in ("", "ai.onnx") and o.version > supported and supported < 17:  # old onnx: no rules for it
            raise Bad("opset %d is newer than this onnx package (%s) knows (up to %d): upgrade onnx"
                      % (o.version, onnx.__version__, supported))
    return model


def check_names(graph):
    """Refuses a name that is not UTF-8 text (protobuf then gives bytes)."""
    def text(x, what):
        if not isinstance(x, str):
            raise Bad("%s: the name %r is not UTF-8 text" % (what, x))
    for vi in list(graph.input) + list(graph.output):  # value_info is not read
        text(vi.name, "a graph input or output")
    for t in graph.initializer:
        text(t.name, "initializer")
    for n in graph.node:
        text(n.name, "a node")
        what = "node %s (%s)" % (n.name or (n.output[0] if n.output and isinstance(n.output[0], str) else "?"),
                                 n.op_type if isinstance(n.op_type, str) else "?")
        for x in list(n.input) + list(n.output) + [n.op_type, n.domain]:
            text(x, what)
        for a in n.attribute:
            text(a.name, what)
            for sub in ([a.g] if a.type == 5 else list(a.graphs) if a.type == 10 else []):
                check_names(sub)


def bound_inputs(np, onnx, model, inputs):
    g = model.graph
    by_name = {vi.name: vi for vi in g.input}
    out = {}
    for name, v in inputs.items():
        if name not in by_name:
            raise Bad("--input %s: no such graph input (inputs: %s)" % (name, ", ".join(by_name)))
        t = by_name[name].type.tensor_type
        dims = [d.dim_value for d in t.shape.dim] if t.HasField("shape") else []
        if any(d != 1 for d in dims):
            raise Bad("--input %s: the input has shape %s; only a scalar (or one element) can be bound"
                      % (name, dims))
        dt = np_dtype(onnx, t.elem_type)
        if dt is None:
            raise Bad("--input %s: element type %d is not supported" % (name, t.elem_type))
        out[name] = np.array(v, dt).reshape([1] * len(dims))
    return out


MODEL = ["onnx_to_graph.py"]  # the model converted: the catch-all below names it
EXACT = [False]  # --exact: the sizes from the data are one run's (read by every pass)
SYMBOLIC = [False]  # --symbol: sizes fitted as formulas (an If planned at its larger branch refused: both_branches)
IF_SCALARS = {}  # id(If node) -> the scalar graph inputs its run-time condition depends on (Pass.both_branches)


def main(argv):
    a = parse_args(argv)
    MODEL[0] = "<stdin>" if a.model == "-" else a.model
    EXACT[0] = a.exact
    SYMBOLIC[0] = bool(a.symbols)
    IF_SCALARS.clear()  # one model's Ifs (main may run again in one process)
    try:
        import numpy as np
        import onnx
        import onnx.shape_inference  # noqa: F401
        import onnx.numpy_helper  # noqa: F401
        import onnx.external_data_helper  # noqa: F401
    except ImportError:
        sys.stderr.write("onnx_to_graph.py needs numpy and the onnx package (Debian: apt-get install python3-onnx)\n")
        return 1
    try:
        model = load(onnx, a.model)
        g = model.graph
        init = {t.name for t in g.initializer}
        if a.list_dims:
            dyn = dynamic_dims(g, init)
            for short, inp, axis, exp in dyn:
                print("%-16s %s" % (short, exp or "(unnamed)"))
            given = set(a.dims) | set(a.symbols)
            if all(short in given or exp in given for short, _, _, exp in dyn):  # the data's, from a pass
                dims = dict(a.dims)
                dims.update({k: FIT_FROM for k in a.symbols})
                p = Pass(onnx, np, a.model, model, input_shapes(a.model, g, init, dims, {}, bound_inputs(
                    np, onnx, model, a.inputs)), bound_inputs(np, onnx, model, a.inputs))
                p.branches, p.dims, p.collect, p.clamp = a.branches, dims, True, True
                p.run(g, top=True)
                for key, (label, most, why, v, used) in p.data.items():
                    print("%-16s computed from the data: %s, %s (%s)%s"
                          % (key, label, "at most %d" % most if most is not None else "no most known", why,
                             "" if used is not None else ", not given" if most is not None else ", not given (1 here)"))
                dyn = dyn or p.data
            elif any(n.op_type in DATA_OPS | {"Loop"} for n in g.node):
                print("(sizes computed from the data: give every dimension above with --dim to list them)")
            if not dyn:
                print("(no dynamic dimensions)")
            return 0
        bound = bound_inputs(np, onnx, model, a.inputs)
        if a.symbols:
            sym = Symbolic(onnx, np, a.model, model, a, bound)
            rows, sizes, notes = sym.rows()
            inputs = input_dim_names(g, init)
            if any(k not in inputs for k in a.dims):  # the data's fixed bounds: checked at the first point
                dims = dict(a.dims)
                dims.update({k: sym.first[sym.names.index(v)] for k, v in a.symbols.items()})
                p = convert_at(onnx, np, a.model, model, dims, bound, a.branches, sym.no_fold, want_pass=True)
                notes = check_below(onnx, np, a.model, model, dims, bound, a.branches, sym.no_fold, rows_of(p), p,
                                    set(a.symbols)) + notes
        else:
            keys = list(a.dims)  # the inputs' and the data's (checked by the pass)
            no_fold, first, _, note = dim_dependent(onnx, np, a.model, model, a.dims, bound, a.branches, keys)
            rows = convert_at(onnx, np, a.model, model, a.dims, bound, a.branches, no_fold) if no_fold else \
                rows_of(first)  # nothing moved: the first pass's rows are the conversion's
            sizes, notes = None, [note] if note else []
            notes += check_below(onnx, np, a.model, model, a.dims, bound, a.branches, no_fold, rows, first)
            notes += check_ifs(onnx, np, a.model, model, a.dims, bound, a.branches, no_fold, rows, first)
        notes += ["If %s: %s branch (--if)" % (name, a.branches[name]) for name in sorted(a.branches)]
        notes += both_if_notes(rows)
        moved = topological(g.node)[1]
        if moved:
            notes.append("the file's nodes are not in a topological order (%d read a value computed after them): rows "
                         "in a topological order, the file's where it allows" % moved)
    except Bad as e:
        sys.stderr.write("%s: %s\n" % ("<stdin>" if a.model == "-" else a.model, e))
        return 2
    t = times(a, rows, onnx)
    try:
        out = open(a.out, "w") if a.out and a.out != "-" else sys.stdout
    except OSError as e:
        sys.stderr.write("%s: cannot write: %s\n" % (a.out, e.strerror))
        return 2
    out.write("# dnnmem graph: %s; %d values\n" % (g.name or a.model, len(rows)))
    out.write("# converted by examples/onnx_to_graph.py (sizes from its shape propagation; times in "
              "microseconds from its roofline model)\n")
    for note in notes:
        out.write("# %s\n" % note)
    out.write("id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs\n")
    for i, (r, (time, cpu, acc, device, xfer)) in enumerate(zip(rows, t)):
        vname, op, size, deps, is_out = r[0], r[1], r[2], r[4], r[7]
        safe = "".join(c if c.isalnum() or c in "_.-/:" else "_" for c in vname) or "v%d" % i
        out.write("%d,%s,%s,%s,%.3f,%.3f,%s,%s,%.3f,%d,%s\n" % (
            i, safe, op.lower(), sizes[i] if sizes else size, time, cpu, "inf" if acc is None else "%.3f" % acc,
            device, xfer, 1 if is_out else 0, " ".join(str(d) for d in deps)))
    if out is not sys.stdout:
        out.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # a reader such as head stopped early
        sys.stderr.close()
        sys.exit(0)
    except RecursionError:
        sys.stderr.write("%s: the model nests subgraphs too deeply\n" % MODEL[0])
        sys.exit(2)
    except Exception as e:  # never a traceback: name what went wrong, on one line
        sys.stderr.write("%s: unexpected %s: %s (a converter bug: please report it with the model)\n"
                         % (MODEL[0], type(e).__name__, (str(e).strip().splitlines() or [""])[0][:200]))
        sys.exit(2)
