#!/usr/bin/env python3
"""Converts an ONNX model into the dnnmem graph CSV.

    examples/onnx_to_graph.py MODEL.onnx > MODEL.graph.csv
    examples/onnx_to_graph.py --dim batch=1 --dim seq=128 MODEL.onnx -o OUT.csv

Needs the onnx package (Debian: python3-onnx). Shapes come from ONNX's own
shape inference; a dimension it leaves symbolic (a dynamic batch or
sequence length) must be given with --dim NAME=VALUE.

One row per value, in the graph's node order (ONNX requires it to be
topological): the graph's inputs that are not initializers first (op
'input'), then every node output that is used or is a graph output. A node
with several used outputs becomes one row per output, each with the node's
inputs and a share of its time proportional to the output's size.
Initializers (weights) and Constant nodes are not values: they stay resident
and do not appear as inputs. Columns, as ../shared/data/README.md describes
them:

    id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs

size   bytes of the output (elements x the element type's size).
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

Exit codes: 0, 1 usage, 2 bad input ("FILE: what")."""
import argparse
import sys

MATRIX_OPS = {"Conv", "ConvTranspose", "MatMul", "Gemm", "MatMulInteger", "QLinearConv", "QLinearMatMul"}
CPU_OPS = {
    "Concat", "Split", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Gather", "GatherElements",
    "GatherND", "Slice", "Expand", "Tile", "Pad", "Shape", "Size", "ReduceMean", "ReduceSum", "ReduceMax",
    "ReduceMin", "ReduceProd", "ReduceL2", "ArgMax", "ArgMin", "Softmax", "LogSoftmax", "LayerNormalization",
    "InstanceNormalization", "GroupNormalization", "TopK", "NonZero", "Where", "ScatterND", "Resize", "CumSum",
    "Einsum", "Range", "ConstantOfShape", "Cast",
}


def fail(path, what):
    sys.stderr.write("%s: %s\n" % (path, what))
    sys.exit(2)


def parse_args(argv):
    p = argparse.ArgumentParser(description="ONNX model -> dnnmem graph CSV (see the module doc)")
    p.add_argument("model")
    p.add_argument("-o", "--out", help="write here instead of stdout")
    p.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE",
                   help="value of a symbolic dimension (repeatable)")
    p.add_argument("--cpu-gflops", type=float, default=100.0, help="CPU peak (default 100 GFLOP/s)")
    p.add_argument("--cpu-gbps", type=float, default=20.0, help="CPU memory bandwidth (default 20 GB/s)")
    p.add_argument("--cpu-overhead-us", type=float, default=0.5, help="per op on the CPU (default 0.5 us)")
    p.add_argument("--acc-tflops", type=float, default=6.0,
                   help="accelerator peak on matrix ops (default 6 TFLOP/s; other ops: its bandwidth)")
    p.add_argument("--acc-gbps", type=float, default=200.0, help="accelerator bandwidth (default 200 GB/s)")
    p.add_argument("--acc-overhead-us", type=float, default=10.0, help="dispatch per op (default 10 us)")
    p.add_argument("--link-gbps", type=float, default=10.0, help="conversion bandwidth (default 10 GB/s)")
    p.add_argument("--link-us", type=float, default=2.0, help="conversion latency (default 2 us)")
    p.add_argument("--cpu-ops", default=None,
                   help="comma-separated op types the accelerator lacks (default: the list in the doc)")
    a = p.parse_args(argv)
    for name in ("cpu_gflops", "cpu_gbps", "acc_tflops", "acc_gbps", "link_gbps"):
        if not getattr(a, name) > 0:
            p.error("--%s must be positive" % name.replace("_", "-"))
    for name in ("cpu_overhead_us", "acc_overhead_us", "link_us"):
        if getattr(a, name) < 0:
            p.error("--%s must not be negative" % name.replace("_", "-"))
    dims = {}
    for d in a.dim:
        name, eq, value = d.partition("=")
        if not eq or not name or not value.isdigit() or int(value) < 1:
            p.error("--dim %r: expected NAME=VALUE with VALUE >= 1" % d)
        dims[name] = int(value)
    a.dims = dims
    a.cpu_ops = set(a.cpu_ops.split(",")) if a.cpu_ops is not None else CPU_OPS
    return a


def elem_size(onnx, elem_type):
    mapping = onnx.helper.tensor_dtype_to_np_dtype(elem_type) if hasattr(onnx.helper, "tensor_dtype_to_np_dtype") \
        else onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type]
    return mapping.itemsize


def shape_of(path, value_info, dims):
    """The static shape of a ValueInfo, symbolic dimensions from dims."""
    t = value_info.type.tensor_type
    if not t.HasField("shape"):
        fail(path, "value '%s' has no inferred shape" % value_info.name)
    shape = []
    for d in t.shape.dim:
        if d.HasField("dim_value") and d.dim_value > 0:
            shape.append(d.dim_value)
        elif d.HasField("dim_param") and d.dim_param in dims:
            shape.append(dims[d.dim_param])
        else:
            what = d.dim_param if d.HasField("dim_param") else "?"
            fail(path, "value '%s': dimension '%s' is not known: give it with --dim %s=VALUE"
                 % (value_info.name, what, what if what != "?" else "NAME"))
    return shape


def prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def flops_of(node, in_shapes, out_shape, attrs):
    out = prod(out_shape)
    if node.op_type in ("Conv", "ConvTranspose", "QLinearConv"):
        w = in_shapes[1] if len(in_shapes) > 1 and in_shapes[1] else None
        if w and len(w) >= 2:
            groups = attrs.get("group", 1)
            cin = w[1] if node.op_type != "ConvTranspose" else w[0] // groups
            return 2 * out * cin * prod(w[2:])
    if node.op_type in ("MatMul", "Gemm", "MatMulInteger", "QLinearMatMul"):
        a = in_shapes[0] if in_shapes and in_shapes[0] else None
        if a:
            k = a[-1] if not (node.op_type == "Gemm" and attrs.get("transA", 0)) else a[0]
            return 2 * out * k
    return out


def convert(a):
    try:
        import onnx
        from onnx import shape_inference
    except ImportError:
        sys.stderr.write("onnx_to_graph.py needs the onnx package (Debian: apt-get install python3-onnx)\n")
        sys.exit(1)
    try:
        model = onnx.load(a.model)
        model = shape_inference.infer_shapes(model)
    except Exception as e:  # onnx raises many kinds; all mean bad input here
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        fail(a.model, "not a readable ONNX model: %s" % first)
    g = model.graph
    init = {t.name: t for t in g.initializer}
    infos = {vi.name: vi for vi in list(g.input) + list(g.value_info) + list(g.output)}
    consts = set(init)
    used = set()
    for node in g.node:
        if node.op_type == "Constant":
            consts.update(node.output)
        used.update(i for i in node.input if i)
    outputs = {o.name for o in g.output}

    def size_of(name):
        if name in init:
            t = init[name]
            return prod(t.dims) * elem_size(onnx, t.data_type)
        if name not in infos:
            fail(a.model, "value '%s' has no inferred type" % name)
        vi = infos[name]
        return prod(shape_of(a.model, vi, a.dims)) * elem_size(onnx, vi.type.tensor_type.elem_type)

    def dims_of(name):
        if name in init:
            return list(init[name].dims)
        return shape_of(a.model, infos[name], a.dims) if name in infos else None

    rows, ids = [], {}
    link = lambda size: size / (a.link_gbps * 1e3) + a.link_us  # bytes / (GB/s) in us
    for vi in g.input:
        if vi.name in init:
            continue
        size = size_of(vi.name)
        ids[vi.name] = len(rows)
        rows.append([vi.name, "input", size, 0.0, 0.0, None, "cpu", link(size), vi.name in outputs, []])
    for node in g.node:
        if node.op_type == "Constant":
            continue
        outs = [o for o in node.output if o and (o in used or o in outputs)]
        if not outs:
            continue
        attrs = {x.name: onnx.helper.get_attribute_value(x) for x in node.attribute}
        ins = [i for i in node.input if i]
        in_bytes = sum(size_of(i) for i in ins)
        in_shapes = [dims_of(i) for i in ins]
        out_sizes = [size_of(o) for o in outs]
        total_out = sum(out_sizes) or 1
        flops = flops_of(node, in_shapes, dims_of(outs[0]), attrs) if node.op_type in MATRIX_OPS else \
            sum(prod(dims_of(o)) for o in outs)
        moved = in_bytes + sum(out_sizes)
        cpu = max(flops / (a.cpu_gflops * 1e3), moved / (a.cpu_gbps * 1e3)) + a.cpu_overhead_us
        if node.op_type in MATRIX_OPS:
            device, acc = "acc", max(flops / (a.acc_tflops * 1e6), moved / (a.acc_gbps * 1e3)) + a.acc_overhead_us
        elif node.op_type in a.cpu_ops:
            device, acc = "cpu", None
        else:
            device, acc = "any", moved / (a.acc_gbps * 1e3) + a.acc_overhead_us
        deps = sorted({ids[i] for i in ins if i not in consts and i in ids})
        for o, size in zip(outs, out_sizes):
            share = size / total_out
            t_cpu, t_acc = cpu * share, acc * share if acc is not None else None
            ids[o] = len(rows)
            rows.append([o, node.op_type, size, t_acc if t_acc is not None else t_cpu, t_cpu, t_acc, device,
                         link(size), o in outputs, deps])
    for name in outputs:
        if name not in ids:
            fail(a.model, "graph output '%s' is not computed by a node (a constant or an input)" % name)
    return model.graph.name or a.model, rows


def main(argv):
    a = parse_args(argv)
    name, rows = convert(a)
    out = open(a.out, "w") if a.out else sys.stdout
    out.write("# dnnmem graph: %s; %d values\n" % (name, len(rows)))
    out.write("# converted by examples/onnx_to_graph.py (sizes from ONNX shape inference; times in microseconds "
              "from its roofline model)\n")
    out.write("id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs\n")
    for i, (vname, op, size, time, cpu, acc, device, xfer, is_out, deps) in enumerate(rows):
        safe = "".join(c if c.isalnum() or c in "_.-/:" else "_" for c in vname) or "v%d" % i
        out.write("%d,%s,%s,%d,%.3f,%.3f,%s,%s,%.3f,%d,%s\n" % (
            i, safe, op.lower(), size, time, cpu, "inf" if acc is None else "%.3f" % acc, device, xfer,
            1 if is_out else 0, " ".join(str(d) for d in deps)))
    if a.out:
        out.close()


if __name__ == "__main__":
    main(sys.argv[1:])
