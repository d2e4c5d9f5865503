#!/usr/bin/env python3
"""Traces a PyTorch model's training step into the dnnmem graph CSV (for `dnnmem remat`).

    examples/torch_to_graph.py --model torchvision:resnet18 --input x=16x3x224x224 -o resnet18.train.graph.csv
    examples/torch_to_graph.py --model my_net.py:build --input tok=4x128:int64:0..4095 -o net.csv
    examples/torch_to_graph.py --model my_net.py:build --input x=8x3x64x64 --loss my_net.py:loss -o net.csv

Needs torch (Debian: python3-torch, 1.13; functorch's AOTAutograd) and, for
torchvision:NAME, torchvision (python3-torchvision).

The model. --model FILE.py:FACTORY loads FILE.py (its folder on the import
path) and calls FACTORY() with no arguments: it returns the nn.Module to
train (put it in training mode yourself or not: it is put in train()).
torchvision:NAME is torchvision.models.NAME() (random weights).
torch.manual_seed(0) runs before the factory and before the inputs are
drawn, so the same command writes the same file.

The inputs. --input NAME=SHAPE[:DTYPE][:LO..HI], one per argument of the
model's forward, named as forward names them (passed in forward's order;
those with a default may be left out): SHAPE as 8x3x224x224 (- for a
0-dimensional tensor), DTYPE float32 (default), float16,
bfloat16, float64, int64, int32, int16, int8, uint8 or bool; values uniform
in LO..HI, both included for integers (default 0..1: a valid index into any
table; give 0..VOCAB-1 for what reads them as tokens), normal (0, 1) for
floats without a range. The data never requires a gradient.

The loss. By default the training step is backward from the sum of every
floating-point output of forward (tensors, or tensors in tuples, lists and
dicts) that depends on a parameter: AOTAutograd's joint graph then takes
each such output's incoming gradient (tangents, as large as the output) as
an input row. --loss FILE.py:FN traces FN(output, *inputs) -> a scalar
inside the graph instead (its ops are rows; the one tangent is 4 bytes).

What is written: AOTAutograd's joint forward + backward graph, run once (on
the CPU; --meta: on the meta device, shapes only, no compute: fast, but
torch 1.13's meta lacks convolution backward and some other kernels, which
are then refused naming the op) so every value has a size; one row per
tensor value in the graph's order (a topological one). Parameters and
buffers are left out (resident whatever the schedule); the data inputs and
the tangents are the `input` rows; the joint graph's outputs (forward
outputs, parameter gradients) have output 1. An op with several outputs
(batch norm, convolution backward, max pool with indices...) is one row per
output used, with the op's inputs and a share of its time proportional to
the output's size. Constants the trace lifted (get_attr) are resident, as
parameters are.

Views (--views alias, the default). A view (view, reshape's alias, t,
transpose, permute, expand, slice, select, detach, unbind's and split's
outputs: an op whose schema says its result aliases an argument it does
not write, and _unsafe_view) shares its base's memory, as in PyTorch: it
is no row; an op that reads a view reads the view's root base instead
(the first value up the chain of views that is not one), and a view among
the graph's outputs makes its root base an output. So a base lives while
anything reads it through a view, and a plan of remat holds in PyTorch as
it is counted, given an engine that makes a view where it is read, from
the base's copy live then (views cost no memory and next to no time; a
view kept across a recomputation of its base would hold the old copy).
A view of a parameter reads nothing. --views copy: each view a row of its
own size (its base may die while the view lives), the convention of
../shared/data/models' training graphs (tests/trace_train_graph.py uses
it: the same rows byte for byte); more rows, and peaks above PyTorch's
where views are large (tests/data/torch/real.py's GPT at 8 x 256 tokens:
865 rows and a 790.6 MB peak as copies, 374 and 735.5 MB as aliases).

What the graph leaves to the engine. Dropout is a row like any other: a
recomputed dropout draws a new mask unless the engine replays the RNG
state (torch.utils.checkpoint does). A model's own torch.utils.checkpoint
is traced through (the joint graph is the plain step: remat decides what
to recompute). --meta can trace a different graph than the CPU where
torch 1.13's meta kernels decompose differently (an nn.LSTM(4, 6) and a
linear head: 125 rows on meta, 118 on the CPU; a GRU likewise); the CPU's
is the one that runs. float16 on the CPU: torch 1.13 lacks many half
kernels there (the error says 'Half'): --meta traces it.

Cost model (roofline; the one ../shared/data/models' training graphs use):
CPU 100 GFLOP/s + 20 GB/s + 0.5 us per op; accelerator 6 TFLOP/s on matrix
ops + 200 GB/s + 10 us per op; bytes = the op's tensor inputs (parameters
included) + its outputs; flops = 2*m*n*k for mm/addmm/bmm/baddbmm,
2 * outputs * (Cin/groups * kernel) for a convolution and twice that for
its backward, one per output element elsewhere (the accelerator's time for
those is its memory time); conversion 10 GB/s + 2 us. `time` is the
accelerator's (the training device), `acc_time` inf for ops the accelerator
lacks (views, concat, reductions, softmax, layer norm...). The constants
are options (--cpu-gflops ... as examples/onnx_to_graph.py's).

Exit codes: 0, 1 usage, 2 bad input ("FILE: what": a file that cannot be
read or loaded or exits at import, a factory that raises, exits or returns
no nn.Module, an input that cannot be made, inputs the model refuses, an op
that cannot be run to size its outputs, no floating output to
differentiate). stdout closed by its reader (head): exit 0."""
import contextlib
import errno
import io
import math
import os
import re
import sys

import onnx_to_graph
from onnx_to_graph import add_cost_options, check_cost_options  # one cost model's options for both

MATRIX = {'convolution', 'convolution_backward', 'mm', 'addmm', 'bmm', 'baddbmm'}
# ops the accelerator lacks (../shared/data/README.md: concat, split, reshape/view,
# transpose/permute, gather, reductions, softmax, layer norm...)
CPU_ONLY = {'view', '_reshape_alias', '_unsafe_view', 'reshape', 't', 'transpose', 'permute', 'expand',
            'clone', 'slice', 'split', 'split_with_sizes', 'cat', 'unsqueeze', 'squeeze', 'select',
            'sum', 'mean', 'amax', 'amin', 'max', 'min', 'var', 'var_mean', 'embedding', 'gather', 'index',
            'index_select', 'native_layer_norm', '_softmax', '_log_softmax', 'unbind', 'stack',
            'as_strided', 'alias', 'expand_as', 'contiguous', 'flatten'}
# the values each dtype holds (an integer's top one less: torch.randint's bound is exclusive)
INT_RANGE = {'int64': (-2 ** 63, 2 ** 63 - 2), 'int32': (-2 ** 31, 2 ** 31 - 2), 'int16': (-2 ** 15, 2 ** 15 - 1),
             'int8': (-128, 127), 'uint8': (0, 255)}
FLOAT_MAX = {'float16': 65504.0, 'bfloat16': 3.3895313892515355e38, 'float32': 3.4028234663852886e38}
DTYPES = ('float32', 'float16', 'bfloat16', 'float64', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool')


class Bad(Exception):
    """Bad input: the message follows 'FILE: '."""
    def __init__(self, file, what):
        super().__init__(what)
        self.file = file


class Cost:
    """The roofline's constants (per second, per op in seconds). The defaults are
    the shared graphs' (divisions by exact powers of ten give the same doubles as
    their literals, so the rows stay byte for byte)."""
    def __init__(self, cpu_gflops=100.0, cpu_gbps=20.0, cpu_overhead_us=0.5, acc_tflops=6.0, acc_gbps=200.0,
                 acc_overhead_us=10.0, link_gbps=10.0, link_us=2.0):
        self.cpu_flops, self.cpu_bw, self.cpu_op = cpu_gflops * 1e9, cpu_gbps * 1e9, cpu_overhead_us / 1e6
        self.acc_flops, self.acc_bw, self.acc_op = acc_tflops * 1e12, acc_gbps * 1e9, acc_overhead_us / 1e6
        self.xfer_bw, self.xfer_op = link_gbps * 1e9, link_us / 1e6
        self.text = ('CPU %g GFLOP/s + %g GB/s + %g us per op; accelerator %g TFLOP/s on matrix ops + %g GB/s + %g us '
                     'per op; conversion %g GB/s + %g us' % (cpu_gflops, cpu_gbps, cpu_overhead_us, acc_tflops,
                                                             acc_gbps, acc_overhead_us, link_gbps, link_us))


def tensors(v):
    """The tensors in a node's value (a tensor, or a tuple/list/dict of them)."""
    import torch
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, dict):
        v = list(v.values())
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in tensors(x)]
    return []


def nbytes(t):
    return t.numel() * t.element_size()


def op_name(n):
    t = n.target
    s = getattr(t, '__name__', str(t))  # aten.convolution.default -> 'convolution.default'
    return s.split('.')[0]


def floating_sum(y):
    """The default loss: the sum of every floating output that needs a gradient (None if none)."""
    ts = [t for t in tensors(y) if t.is_floating_point() and t.requires_grad]
    if not ts:
        return None
    loss = ts[0].sum()
    for t in ts[1:]:
        loss = loss + t.sum()
    return loss


def joint_graph(model, args, backward_may_fail=False, loss=None):
    """AOTAutograd's joint forward + backward graph of a training step of
    model on args (a tensor or a tuple of them), and its inputs. The loss is
    loss(y) (default: floating_sum); the graph is captured as the step is
    compiled, before backward runs: backward_may_fail tolerates a backward
    the device cannot run (the meta device lacks some kernels). Raises what
    the model raises; NoGradient when nothing is differentiable."""
    from functorch.compile import aot_module, default_partition
    captured = {}

    def part(joint, joint_inputs, **kw):
        captured['g'] = joint
        captured['in'] = joint_inputs
        return default_partition(joint, joint_inputs, **kw)

    if not isinstance(args, (tuple, list)):
        args = (args,)
    m = aot_module(model, fw_compiler=lambda gm, ex: gm, bw_compiler=lambda gm, ex: gm, partition_fn=part)
    y = m(*args)
    total = (loss or floating_sum)(y)
    if total is None or 'g' not in captured:
        raise NoGradient(y)
    try:
        total.backward()
    except Exception as e:
        if not backward_may_fail:
            raise
        print('backward:', type(e).__name__)
    return captured['g'], captured['in']


class NoGradient(Exception):
    """No floating output depends on a parameter (nothing to differentiate)."""
    def __init__(self, y):
        super().__init__('no floating output')
        self.y = y


class Unsized(Exception):
    """A node of the joint graph that cannot be run to size its outputs."""
    def __init__(self, node, err):
        super().__init__(str(err))
        self.node, self.err = node, err


def run_joint(g, inputs):
    """The value of every node: the joint graph run once on its captured inputs."""
    import torch
    vals = {}
    flat = [t for a in inputs for t in (a if isinstance(a, (list, tuple)) else [a])]

    class Record(torch.fx.Interpreter):
        def run_node(self, n):
            try:
                r = super().run_node(n)
            except Exception as e:
                raise Unsized(n, e)
            vals[n] = r
            return r
    with torch.no_grad():
        Record(g).run(*flat)
    return vals


def view_base(n):
    """The node whose storage n's value shares when n is a view (its schema's
    result aliases an argument without writing it: view, t, slice, expand,
    detach, unbind...), else None."""
    import torch
    if n.op == 'call_function' and op_name(n) == '_unsafe_view':
        return n.args[0]  # a view its schema does not declare (autograd's reasons): the storage is shared
    schema = getattr(n.target, '_schema', None) if n.op == 'call_function' else None
    if schema is None or not schema.returns:
        return None
    ai = schema.returns[0].alias_info
    if ai is None or ai.is_write:
        return None
    rset = set(ai.before_set)  # empty for a list of views (unbind, split: Tensor(a)[]); their argument's 'a -> *'
    for i, arg in enumerate(schema.arguments):
        if arg.alias_info is not None and not arg.alias_info.is_write and (
                not rset or set(arg.alias_info.before_set) & rset):
            b = n.args[i] if i < len(n.args) else n.kwargs.get(arg.name)
            return b if isinstance(b, torch.fx.Node) else None
    return None


def graph_rows(g, vals, ndata, cost=None, views='copy'):
    """The graph CSV's rows (without the header) of joint graph g with node
    values vals and the number of primals left out: the primals are the
    parameters and buffers (left out: resident), then the ndata data inputs.
    Counted from the graph, not the module: AOTAutograd passes a tensor
    under two names (a tied weight) once. views 'copy': a view is a value
    of its own size (the shared graphs' convention); 'alias': a view is no
    row, its readers read its root base instead (a view among the outputs
    makes the base one)."""
    import torch
    cost = cost or Cost()
    nodes = list(g.graph.nodes)
    nparams = sum(1 for n in nodes if n.op == 'placeholder' and n.name.startswith('primals')) - ndata
    outnode = [n for n in nodes if n.op == 'output'][0]
    outs = set()
    torch.fx.node.map_arg(outnode.args, lambda a: outs.add(a))
    # rows: data/tangent placeholders, single-tensor nodes, getitems of multi-output ops
    rows, idx, primals = [], {}, 0
    for n in nodes:
        if n.op == 'output':
            continue
        v = vals.get(n)
        if not isinstance(v, torch.Tensor):
            continue  # a tuple (its getitems are the rows), None, a number
        if n.op == 'get_attr':
            continue  # a constant the trace lifted (swin_t's scalars): resident, as parameters are
        if n.op == 'placeholder':
            if n.name.startswith('primals'):
                primals += 1
                if primals <= nparams:
                    continue  # parameters and buffers come first
            idx[n] = len(rows)
            rows.append((n, None))
            continue
        src = n
        if op_name(n) == 'getitem' and isinstance(vals.get(n.args[0]), (list, tuple)):
            src = n.args[0]  # one output of a multi-output op
        idx[n] = len(rows)
        rows.append((n, src))
    # cost of each op (the multi-output op once), shares to its used outputs
    used = {}
    for n, src in rows:
        if src is not None:
            used[src] = used.get(src, 0) + nbytes(vals[n])
    root = {}  # node -> the non-view node whose storage it shares (None: not a view)

    def root_of(a):
        if a not in root:
            multi = op_name(a) == 'getitem' and isinstance(vals.get(a.args[0]), (list, tuple))
            b = view_base(a.args[0] if multi else a)  # unbind's, split's outputs: views of its input
            root[a] = None if b is None else (root_of(b) or b)
        return root[a]
    alias = views == 'alias'
    if alias:  # views are no rows: their readers read the root, a view among the outputs makes it one
        rows = [(n, src) for n, src in rows if root_of(n) is None]
        idx = {n: i for i, (n, _) in enumerate(rows)}
        for n in list(outs):
            if isinstance(n, torch.fx.Node) and root_of(n) in idx:
                outs.add(root_of(n))
    lines = []
    for n, src in rows:
        v = vals[n]
        size = nbytes(v)
        xfer = (size / cost.xfer_bw + cost.xfer_op) * 1e6
        if src is None:
            lines.append('%d,%s,input,%d,0.000,0.000,inf,cpu,%.3f,%d,' % (idx[n], n.name, size, xfer, n in outs))
            continue
        op = op_name(src)
        ins = []
        torch.fx.node.map_arg(src.args, lambda a: ins.append(a))
        torch.fx.node.map_arg(src.kwargs, lambda a: ins.append(a))
        seen, in_bytes = set(), 0
        for a in ins:
            if a not in seen:
                seen.add(a)
                in_bytes += sum(nbytes(t) for t in tensors(vals.get(a)))
        outs_t = tensors(vals[src])
        total = in_bytes + sum(nbytes(t) for t in outs_t)
        if op in ('mm', 'bmm', 'addmm', 'baddbmm'):
            k = 1 if op in ('addmm', 'baddbmm') else 0  # addmm(bias, a, b), baddbmm(bias, a, b)
            a, b = vals[src.args[k]], vals[src.args[k + 1]]
            flops = 2 * a.numel() * b.shape[-1]
        elif op == 'convolution':
            flops = 2 * vals[src].numel() * math.prod(vals[src.args[1]].shape[1:])
        elif op == 'convolution_backward':
            flops = 4 * vals[src.args[0]].numel() * math.prod(vals[src.args[2]].shape[1:])
        else:
            flops = sum(t.numel() for t in outs_t)
        share = size / used[src] if used[src] else 1.0
        cpu = (flops / cost.cpu_flops + total / cost.cpu_bw + cost.cpu_op) * share * 1e6
        if op in MATRIX:
            acc = (flops / cost.acc_flops + total / cost.acc_bw + cost.acc_op) * share * 1e6
        else:
            acc = (max(flops / cost.acc_flops, total / cost.acc_bw) + cost.acc_op) * share * 1e6
        device = 'acc' if op in MATRIX else 'cpu' if op in CPU_ONLY else 'any'
        inputs = set(idx[a] for a in ins if a in idx)
        if alias:
            inputs |= set(idx[root_of(a)] for a in ins if root_of(a) in idx)
        inputs = sorted(inputs)
        lines.append('%d,%s,%s,%d,%.3f,%.3f,%s,%s,%.3f,%d,%s' % (
            idx[n], n.name, op, size, acc, cpu, 'inf' if device == 'cpu' else '%.3f' % acc, device, xfer,
            n in outs, ' '.join(map(str, inputs))))
    return lines, nparams


HEADER = 'id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs\n'


def write_graph(path, comments, lines):
    """The graph CSV: '# ' comment lines, the header, the rows (path '-' or None: stdout)."""
    f = open(path, 'w') if path and path != '-' else sys.stdout
    for c in comments:
        f.write('# %s\n' % c)
    f.write(HEADER)
    f.write('\n'.join(lines) + '\n')
    if f is not sys.stdout:
        f.close()
    else:
        f.flush()  # a closed pipe is told here (BrokenPipeError), not at exit


# ---------------------------------------------------------------- the tool ----

class Parser(onnx_to_graph.Parser):
    tool = 'torch_to_graph.py'


def usage(message):
    sys.stderr.write('torch_to_graph.py: %s\n' % message)
    sys.exit(1)


def parse_args(argv):
    p = Parser(description='a PyTorch model\'s training step -> dnnmem graph CSV for remat (see the module doc: '
                           'pydoc examples/torch_to_graph.py)')
    p.add_argument('--model', required=True, metavar='FILE.py:FACTORY|torchvision:NAME',
                   help='a callable of FILE.py returning the nn.Module (called with no arguments), or a torchvision '
                        'model')
    p.add_argument('--input', action='append', default=[], metavar='NAME=SHAPE[:DTYPE][:LO..HI]',
                   help='an argument of forward: shape as 8x3x224x224 (- for a scalar), dtype float32 (default), '
                        'float16, bfloat16, float64, int64, int32, int16, int8, uint8, bool; values uniform in '
                        'LO..HI (integers: both included, default 0..1), floats normal without; repeatable')
    p.add_argument('--loss', metavar='FILE.py:FN',
                   help='FN(output, *inputs) -> a scalar, traced into the graph (default: the sum of every floating '
                        'output, outside the graph: each output\'s incoming gradient is an input row)')
    p.add_argument('--meta', action='store_true',
                   help='trace and run on the meta device (shapes only, no compute: fast; torch 1.13 lacks some '
                        'backward kernels there, convolution\'s among them)')
    p.add_argument('--views', choices=('alias', 'copy'), default='alias',
                   help='alias (default): a view (view, t, slice, expand, detach...) is no row, its readers read '
                        'its base, as PyTorch holds it; copy: a view is a value of its own size (the shared graphs\' '
                        'convention)')
    p.add_argument('-o', '--out', help='write here instead of stdout (-: stdout)')
    add_cost_options(p)
    a = p.parse_args(argv)
    check_cost_options(a, usage)
    if a.model.startswith('torchvision:'):
        if not re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', a.model[12:]):
            usage('--model torchvision:NAME: NAME a torchvision.models function (got %r)' % a.model[12:])
    elif ':' not in a.model or not a.model.rsplit(':', 1)[1]:
        usage('--model FILE.py:FACTORY or torchvision:NAME (got %r)' % a.model)
    if a.loss is not None and (':' not in a.loss or not a.loss.rsplit(':', 1)[1]):
        usage('--loss FILE.py:FN (got %r)' % a.loss)
    a.inputs = [parse_input(s) for s in a.input]
    names = [i[0] for i in a.inputs]
    dup = sorted(set(n for n in names if names.count(n) > 1))
    if dup:
        usage('--input %s given twice' % dup[0])
    return a


def parse_input(s):
    m = re.fullmatch(r'([A-Za-z_][A-Za-z0-9_]*)=(-|\d+(?:x\d+)*)'  # NAME=SHAPE
                     r'((?::[A-Za-z0-9]+)?)((?::-?[0-9.eE+-]+\.\.-?[0-9.eE+-]+)?)', s)  # :DTYPE, :LO..HI
    if not m:
        usage('--input %r: want NAME=SHAPE[:DTYPE][:LO..HI] (as x=8x3x224x224 or tok=4x128:int64:0..4095)' % s)
    name, shape, dtype, rng = m.group(1), m.group(2), m.group(3)[1:] or 'float32', m.group(4)[1:]
    if dtype not in DTYPES:
        usage('--input %s: dtype %r: one of %s' % (name, dtype, ', '.join(DTYPES)))
    dims = [] if shape == '-' else [int(d) for d in shape.split('x')]
    lo = hi = None
    if rng:
        try:
            lo, hi = (float(v) for v in rng.split('..'))
        except ValueError:
            usage('--input %s: range %r: want LO..HI' % (name, rng))
        integer = not dtype.startswith(('float', 'bfloat'))
        if not (math.isfinite(lo) and math.isfinite(hi)):
            usage('--input %s: range %s: want finite numbers' % (name, rng))
        if integer and (lo != int(lo) or hi != int(hi)):
            usage('--input %s: range %s of an integer dtype: want integers' % (name, rng))
        if not lo <= hi or (dtype == 'bool' and not 0 <= lo <= hi <= 1):
            usage('--input %s: range %s is empty%s' % (name, rng, ' or not in 0..1' if dtype == 'bool' else ''))
        if dtype in INT_RANGE and not INT_RANGE[dtype][0] <= lo <= hi <= INT_RANGE[dtype][1]:
            usage('--input %s: range %s is past %s (%d..%d)' % (name, rng, dtype, *INT_RANGE[dtype]))
        if dtype in FLOAT_MAX and max(-lo, hi) > FLOAT_MAX[dtype]:
            usage('--input %s: range %s is past %s (magnitude at most %g)' % (name, rng, dtype, FLOAT_MAX[dtype]))
    return name, dims, dtype, lo, hi


def first_line(e):
    return '%s: %s' % (type(e).__name__, ((str(e).strip().splitlines() or [''])[0])[:300])


def half_hint(e, meta):
    """float16 on the CPU: torch 1.13 lacks the kernel (its message names 'Half'); meta has it."""
    return ' (float16 on the CPU: try --meta)' if not meta and "'Half'" in str(e) else ''


def load_callable(spec, what):
    """FILE.py:NAME -> (FILE, the callable); Bad naming the file otherwise."""
    import importlib.util
    path, name = spec.rsplit(':', 1)
    if not os.path.isfile(path):
        raise Bad(path, 'cannot read: %s' % os.strerror(errno.EISDIR if os.path.isdir(path) else errno.ENOENT))
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    modname = '_torch_to_graph_' + re.sub(r'\W', '_', os.path.splitext(os.path.basename(path))[0])
    argv, said = sys.argv, io.StringIO()
    try:
        sys.argv = [path]  # a command line read at import is empty, not the tool's
        s = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(s)
        sys.modules[modname] = mod
        with contextlib.redirect_stderr(said):  # argparse's usage, said only if the file exits
            s.loader.exec_module(mod)
    except SystemExit as e:
        last = (said.getvalue().strip().splitlines() or [''])[-1][:200]
        said = io.StringIO()  # told in the one line below
        raise Bad(path, 'cannot load: it exits at import (SystemExit: %s%s): put its script part under '
                        'if __name__ == "__main__"' % (e.code, '; it said "%s"' % last if last else ''))
    except SyntaxError as e:
        raise Bad(path, 'cannot load: SyntaxError: %s (line %s)' % (e.msg, e.lineno))
    except OSError as e:
        raise Bad(path, 'cannot read: %s' % e.strerror)
    except Exception as e:
        raise Bad(path, 'cannot load: %s' % first_line(e))
    finally:
        sys.argv = argv
        sys.stderr.write(said.getvalue())
    f = getattr(mod, name, None)
    if f is None:
        raise Bad(path, 'no %s named %s' % (what, name))
    if not callable(f):
        raise Bad(path, '%s is not callable (%s)' % (name, type(f).__name__))
    return path, f


def make_model(spec):
    """--model: (file named in messages, label, the nn.Module)."""
    import torch
    if spec.startswith('torchvision:'):
        name = spec[12:]
        try:
            import torchvision
        except ImportError:
            raise Bad('torchvision', 'not installed (Debian: apt-get install python3-torchvision)')
        f = getattr(torchvision.models, name, None)
        if f is None or not callable(f) or isinstance(f, type(torchvision)):
            raise Bad('torchvision', 'no model %s in torchvision.models' % name)
        path, label = 'torchvision', 'torchvision.models.%s' % name
    else:
        path, f = load_callable(spec, 'factory')
        label = spec
    torch.manual_seed(0)
    try:
        model = f()
    except SystemExit as e:
        raise Bad(path, '%s() exits (SystemExit: %s): a factory returns the model' % (spec.rsplit(':', 1)[1], e.code))
    except Exception as e:
        raise Bad(path, '%s() raised %s' % (spec.rsplit(':', 1)[1], first_line(e)))
    if not isinstance(model, torch.nn.Module):
        raise Bad(path, '%s() returned %s (%s), not an nn.Module' % (spec.rsplit(':', 1)[1], repr(model)[:40],
                                                                      type(model).__name__))
    return path, label, model


def make_inputs(path, model, given, device):
    """The forward arguments in forward's order, from the --input specs."""
    import inspect
    import torch
    try:
        params = list(inspect.signature(model.forward).parameters.values())
    except (TypeError, ValueError):
        params = None
    by_name = {g[0]: g for g in given}
    if params is not None and not any(p.kind == p.VAR_POSITIONAL for p in params):
        names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        kwonly = [p.name for p in params if p.kind == p.KEYWORD_ONLY and (p.name in by_name or p.default is p.empty)]
        if kwonly:
            raise Bad(path, 'forward\'s keyword-only argument %s: not supported (inputs are passed by position; '
                            'wrap the model in a module whose forward takes it positionally)' % kwonly[0])
        unknown = [n for n in by_name if n not in names]
        if unknown:
            raise Bad(path, 'forward has no argument %s (it takes %s)' % (unknown[0], ', '.join(names) or 'none'))
        order = []
        for p in params:
            if p.name in by_name:
                order.append(by_name[p.name])
            elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty:
                raise Bad(path, 'forward\'s argument %s not given (--input %s=SHAPE)' % (p.name, p.name))
            elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and any(
                    q.name in by_name for q in params[params.index(p) + 1:]):
                raise Bad(path, 'forward\'s argument %s has a default but a later one is given: give %s too'
                          % (p.name, p.name))
    else:
        order = list(given)  # forward(*args): in the order given
    if not order:
        raise Bad(path, 'no input given (--input NAME=SHAPE for each argument of forward)')
    torch.manual_seed(0)
    out = []
    for name, dims, dtype, lo, hi in order:
        dt = getattr(torch, dtype)
        try:  # on meta directly: no memory for a large input
            if dtype.startswith(('float', 'bfloat')):
                t = torch.randn(dims, dtype=dt, device=device) if lo is None else \
                    torch.rand(dims, dtype=dt, device=device) * (hi - lo) + lo
            else:
                t = torch.randint(int(lo or 0), int(hi if hi is not None else 1) + 1, dims, dtype=dt, device=device)
        except (RuntimeError, MemoryError, OverflowError, ValueError) as e:
            raise Bad(path, 'cannot make input %s: %s' % (name, first_line(e)))
        out.append(t)
    return order, out


def describe(y):
    import torch
    ts = tensors(y)
    if not ts:
        return 'no tensor output (a %s)' % type(y).__name__
    return 'outputs %s' % ', '.join('%s %s%s' % (str(t.dtype).replace('torch.', ''), list(t.shape),
                                                 '' if t.requires_grad or not t.is_floating_point() else
                                                 ' (no gradient)') for t in ts[:6]) + \
        (' and %d more' % (len(ts) - 6) if len(ts) > 6 else '')


MODEL = ['torch_to_graph.py']  # the file being traced: the catch-all below names it


def main(argv):
    a = parse_args(argv)
    import warnings
    warnings.filterwarnings('ignore')  # functorch's "experimental" notes and such: stderr is for errors
    try:
        import torch
        import functorch.compile  # noqa: F401
    except ImportError:
        sys.stderr.write('torch_to_graph.py needs torch with functorch (Debian: apt-get install python3-torch)\n')
        return 1
    cost = Cost(a.cpu_gflops, a.cpu_gbps, a.cpu_overhead_us, a.acc_tflops, a.acc_gbps, a.acc_overhead_us,
                a.link_gbps, a.link_us)
    try:
        path, label, model = make_model(a.model)
        MODEL[0] = path
        loss = None
        if a.loss:
            lpath, fn = load_callable(a.loss, 'loss function')

            def loss_module(m):
                class WithLoss(torch.nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.model = m

                    def forward(self, *xs):
                        y = self.model(*xs)  # the model's own errors are the model's
                        try:
                            r = fn(y, *xs)
                        except Exception as e:
                            raise LossError(e)
                        if not isinstance(r, torch.Tensor) or r.numel() != 1 or not r.is_floating_point():
                            raise LossError(None, r)
                        return r.reshape(())
                return WithLoss()
        device = 'meta' if a.meta else 'cpu'
        order, args = make_inputs(path, model, a.inputs, device)
        model = model.to(device)
        model.train()
        traced = loss_module(model) if a.loss else model
        shown = ', '.join('%s=%s:%s' % (n, 'x'.join(map(str, d)) or '-', t) + (
            ':%g..%g' % (lo, hi) if lo is not None else '') for n, d, t, lo, hi in order)
        try:
            g, inputs = joint_graph(traced, tuple(args))
        except NoGradient as e:
            raise Bad(path, 'no floating output depends on a parameter: nothing to differentiate (%s)'
                      % describe(e.y))
        except LossError as e:
            raise Bad(lpath, e.what())
        except Exception as e:
            try:  # the model run alone tells a refusal of the inputs from an op the tracer cannot take
                with torch.no_grad():
                    model(*args)
            except Exception as e2:
                raise Bad(path, 'the model refuses the inputs (%s): %s%s'
                          % (shown, first_line(e2), half_hint(e2, a.meta)))
            raise Bad(path, 'the model runs but its training step cannot be traced%s: %s%s'
                      % (' on the meta device (drop --meta)' if a.meta else '', first_line(e), half_hint(e, a.meta)))
        try:
            vals = run_joint(g, inputs)
        except Unsized as e:
            raise Bad(path, 'node %s (aten.%s) cannot be run to size its outputs%s: %s%s'
                      % (e.node.name, op_name(e.node), ' on the meta device (drop --meta)' if a.meta else '',
                         first_line(e.err), half_hint(e.err, a.meta)))
        lines, _ = graph_rows(g, vals, len(args), cost, a.views)
    except Bad as e:
        sys.stderr.write('%s: %s\n' % (e.file, e))
        return 2
    pbytes = sum(nbytes(p) for p in model.parameters()) + sum(nbytes(b) for b in model.buffers())
    comments = [
        '%s (training: forward+backward joint graph); %d values' % (label, len(lines)),
        'traced by examples/torch_to_graph.py: --model %s, inputs %s, loss %s; torch %s, AOTAutograd\'s joint '
        'graph run once %s' % (a.model, shown, a.loss + ' (traced)' if a.loss else
                               'the sum of every floating output (their gradients are input rows)',
                               torch.__version__, 'on the meta device (shapes only)' if a.meta else 'on the CPU'),
        'parameters and buffers left out (resident): %d tensors, %d bytes' % (
            sum(1 for _ in model.parameters()) + sum(1 for _ in model.buffers()), pbytes),
        'sizes: bytes of each value; times: microseconds from the roofline model: %s' % cost.text,
        'views: aliases (a view, as t, slice, detach, is no row: its readers read the value it views)' if a.views ==
        'alias' else 'views: copies (each view a value of its own size, as the shared graphs count them)']
    comments[0] = 'dnnmem graph: ' + comments[0]
    try:
        write_graph(a.out, comments, lines)
    except BrokenPipeError:
        raise  # a reader such as head stopped early: not an error (below)
    except OSError as e:
        sys.stderr.write('%s: cannot write: %s\n' % (a.out if a.out and a.out != '-' else 'stdout', e.strerror))
        return 2
    return 0


class LossError(Exception):
    def __init__(self, err, value=None):
        super().__init__('loss')
        self.err, self.value = err, value

    def what(self):
        if self.err is not None:
            return 'the loss raised %s' % first_line(self.err)
        v = self.value
        import torch
        return 'the loss returned %s, not a floating scalar' % (
            '%s %s' % (str(v.dtype).replace('torch.', ''), list(v.shape)) if isinstance(v, torch.Tensor)
            else 'a %s' % type(v).__name__)


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # a reader such as head stopped early: what it read is what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
        sys.exit(0)
    except RecursionError:
        sys.stderr.write('%s: the model nests too deeply\n' % MODEL[0])
        sys.exit(2)
    except Exception as e:  # never a traceback: name what went wrong, on one line
        sys.stderr.write('%s: unexpected %s (a tracer bug: please report it with the model)\n'
                         % (MODEL[0], first_line(e)))
        sys.exit(2)
