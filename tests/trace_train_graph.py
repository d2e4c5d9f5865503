# Training graphs in the dnnmem graph CSV (DESIGN.md), the conventions of
# ../shared/data/README.md: AOTAutograd's joint forward + backward graph
# (Debian python3-torch 1.13, python3-torchvision), run once on the CPU so
# every value has a shape; parameters and buffers left out (resident
# whatever the schedule); the data batch and the incoming gradient
# (tangents) are the input rows; the joint graph's outputs (forward outputs,
# parameter gradients) are the output rows. An op with several outputs
# (batch norm, convolution backward, max pool with indices...) becomes one
# row per output that is used, with the op's inputs and a share of its time
# proportional to the output's size.
#
# Cost model (roofline, the one the shared graphs use; its constants were
# recovered from their rows): CPU 100 GFLOP/s + 20 GB/s + 0.5 us per op;
# accelerator 6 TFLOP/s on matrix ops + 200 GB/s + 10 us per op; bytes =
# the op's tensor inputs (parameters included) + its outputs; flops =
# 2*m*n*k for mm/addmm/bmm/baddbmm, 2 * outputs * (Cin/groups * kernel) for a
# convolution and twice that for its backward, one per output element
# elsewhere (the accelerator's time for those is its memory time);
# conversion 10 GB/s + 2 us. `time` is the accelerator's (the training
# device), `acc_time` inf for ops the accelerator lacks.
# Checked: resnet18 16, mobilenet_v2 8, shufflenet_v2_x1_0 16, vgg16 4,
# resnet50 8, densenet121 4 (NAME BATCH) give ../shared/data/models'
# NAME.train.graph.csv byte for byte in every column.
#
# usage: /usr/bin/python3 tests/trace_train_graph.py [--meta] NAME [BATCH] [OUT.csv]
#   --meta: trace and run on the meta device (shapes only, no compute: fast;
#   torch 1.13's meta lacks convolution backward, so not for conv nets).
#   NAME: a torchvision classification model (resnet18, efficientnet_b0,
#   googlenet, mnasnet1_0, regnet_y_400mf, vit_b_16, ...) or one of the
#   torch.nn builds below (t5_mini: nn.Transformer encoder-decoder; gpt_dec:
#   a causal decoder-only LM, GPT-like, on nn.TransformerEncoderLayer with a
#   causal mask). OUT defaults to tests/data/proxy/NAME.train.graph.csv
#   (a held-out proxy set for remat: outside tests/data/*.train.graph.csv,
#   which make test's test_plan_data reads whole).
import math, sys, torch, torchvision
from functorch.compile import aot_module, default_partition

MATRIX = {'convolution', 'convolution_backward', 'mm', 'addmm', 'bmm', 'baddbmm'}
# ops the accelerator lacks (README: concat, split, reshape/view,
# transpose/permute, gather, reductions, softmax, layer norm...)
CPU_ONLY = {'view', '_reshape_alias', '_unsafe_view', 'reshape', 't', 'transpose', 'permute', 'expand',
            'clone', 'slice', 'split', 'split_with_sizes', 'cat', 'unsqueeze', 'squeeze', 'select',
            'sum', 'mean', 'amax', 'amin', 'max', 'min', 'var', 'var_mean', 'embedding', 'gather', 'index',
            'index_select', 'native_layer_norm', '_softmax', '_log_softmax', 'unbind', 'stack',
            'as_strided', 'alias', 'expand_as', 'contiguous', 'flatten'}
CPU_FLOPS, CPU_BW, CPU_OP = 100e9, 20e9, 0.5e-6
ACC_FLOPS, ACC_BW, ACC_OP = 6e12, 200e9, 10e-6
XFER_BW, XFER_OP = 10e9, 2e-6


class Causal(torch.nn.Module):
    """A GPT-like decoder-only LM: pre-norm self-attention blocks
    (nn.TransformerEncoderLayer) under a causal mask, tied to no encoder."""
    def __init__(self, vocab=4096, d=256, heads=4, layers=4, seq=128):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.zeros(1, seq, d))
        layer = torch.nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, activation='gelu',
                                                 batch_first=True, norm_first=True)
        self.body = torch.nn.TransformerEncoder(layer, layers)
        self.norm = torch.nn.LayerNorm(d)
        self.head = torch.nn.Linear(d, vocab, bias=False)
        self.register_buffer('mask', torch.triu(torch.full((seq, seq), float('-inf')), 1))

    def forward(self, tok):
        x = self.emb(tok) + self.pos
        return self.head(self.norm(self.body(x, mask=self.mask)))


class Seq2Seq(torch.nn.Module):
    """A small T5-like encoder-decoder on nn.Transformer (post-norm, ReLU)."""
    def __init__(self, vocab=4096, d=256, heads=4, layers=3, seq=64):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, d)
        self.tr = torch.nn.Transformer(d, heads, layers, layers, 4 * d, dropout=0.1, batch_first=True)
        self.head = torch.nn.Linear(d, vocab, bias=False)
        self.register_buffer('mask', torch.triu(torch.full((seq, seq), float('-inf')), 1))

    def forward(self, tok):
        src, tgt = tok[:, 0], tok[:, 1]
        return self.head(self.tr(self.emb(src), self.emb(tgt), tgt_mask=self.mask))


class Patchify(torch.nn.Module):
    """ViT's 16x16 stride-16 patch conv as reshape + linear (also tests/trace_vit_train.py's)."""
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3 * 16 * 16, 768)

    def forward(self, x):
        b = x.shape[0]
        x = x.reshape(b, 3, 14, 16, 14, 16).permute(0, 2, 4, 1, 3, 5).reshape(b, 14, 14, 768)
        return self.lin(x).permute(0, 3, 1, 2)


def build(name, batch):
    torch.manual_seed(0)
    if name == 'gpt_dec':
        return Causal(), torch.randint(0, 4096, (batch, 128))
    if name == 't5_mini':
        return Seq2Seq(), torch.randint(0, 4096, (batch, 2, 64))
    kw = {'aux_logits': False, 'init_weights': False} if name in ('googlenet', 'inception_v3') else {}
    model = getattr(torchvision.models, name)(**kw)
    if name == 'vit_b_16':
        model.conv_proj = Patchify()
    side = 299 if name == 'inception_v3' else 224
    return model, torch.randn(batch, 3, side, side)


def tensors(v):
    """The tensors in a node's value (a tensor, or a tuple/list of them)."""
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in tensors(x)]
    return []


def nbytes(t):
    return t.numel() * t.element_size()


def op_name(n):
    t = n.target
    s = getattr(t, '__name__', str(t))  # aten.convolution.default -> 'convolution.default'
    return s.split('.')[0]


def joint_graph(model, x, backward_may_fail=False):
    """AOTAutograd's joint forward + backward graph of a training step on x,
    and its inputs. The graph is captured as the step is compiled, before
    backward runs: backward_may_fail tolerates a backward the device cannot
    run (the meta device lacks some kernels)."""
    captured = {}

    def part(joint, joint_inputs, **kw):
        captured['g'] = joint
        captured['in'] = joint_inputs
        return default_partition(joint, joint_inputs, **kw)

    m = aot_module(model, fw_compiler=lambda gm, ex: gm, bw_compiler=lambda gm, ex: gm, partition_fn=part)
    y = m(x)
    try:
        y.sum().backward()
    except Exception as e:
        if not backward_may_fail:
            raise
        print('backward:', type(e).__name__)
    return captured['g'], captured['in']


def main():
    args = sys.argv[1:]
    meta = '--meta' in args
    args = [a for a in args if a != '--meta']
    name = args[0]
    batch = int(args[1]) if len(args) > 1 else 8
    out = args[2] if len(args) > 2 else 'tests/data/proxy/%s.train.graph.csv' % name
    model, x = build(name, batch)
    if meta:
        model, x = model.to('meta'), x.to('meta')
    model.train()
    g, inputs = joint_graph(model, x)
    # the value of every node: run the joint graph once on the captured inputs
    vals = {}
    flat = [t for a in inputs for t in (a if isinstance(a, (list, tuple)) else [a])]

    class Record(torch.fx.Interpreter):
        def run_node(self, n):
            r = super().run_node(n)
            vals[n] = r
            return r
    with torch.no_grad():
        Record(g).run(*flat)
    nodes = list(g.graph.nodes)
    nparams = sum(1 for _ in model.parameters()) + sum(1 for _ in model.buffers())
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
    lines = []
    for n, src in rows:
        v = vals[n]
        size = nbytes(v)
        xfer = (size / XFER_BW + XFER_OP) * 1e6
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
        cpu = (flops / CPU_FLOPS + total / CPU_BW + CPU_OP) * share * 1e6
        if op in MATRIX:
            acc = (flops / ACC_FLOPS + total / ACC_BW + ACC_OP) * share * 1e6
        else:
            acc = (max(flops / ACC_FLOPS, total / ACC_BW) + ACC_OP) * share * 1e6
        device = 'acc' if op in MATRIX else 'cpu' if op in CPU_ONLY else 'any'
        inputs = sorted(set(idx[a] for a in ins if a in idx))
        lines.append('%d,%s,%s,%d,%.3f,%.3f,%s,%s,%.3f,%d,%s' % (
            idx[n], n.name, op, size, acc, cpu, 'inf' if device == 'cpu' else '%.3f' % acc, device, xfer,
            n in outs, ' '.join(map(str, inputs))))
    with open(out, 'w') as f:
        f.write('# dnnmem graph: %s (training: forward+backward joint graph); %d values\n' % (name, len(rows)))
        f.write('# sizes: bytes from running the joint graph (batch %d); times: microseconds from the cost model '
                'in tests/trace_train_graph.py\n' % batch)
        f.write('id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs\n')
        f.write('\n'.join(lines) + '\n')
    print('%s: %d values (%d primals, %d parameters and buffers left out) -> %s' % (name, len(rows), primals,
                                                                                 nparams, out))


if __name__ == '__main__':
    main()
