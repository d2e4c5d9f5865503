# ViT-B/16 training intervals (tests/data/vit_b_16.train.intervals.csv):
# AOTAutograd's joint graph (Debian python3-torch 1.13, python3-torchvision),
# traced on the meta device (no compute: shapes only), the patch embedding
# (16x16 stride-16 conv, which meta cannot differentiate) as the same
# reshape + linear. Parameters and buffers left out (resident); value i
# lives from step i to its last consumer + 1, graph outputs to the end.
# usage: /usr/bin/python3 tests/trace_vit_train.py BATCH OUT.csv   (batch 8)
import os, sys, torch, torchvision
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples'))
from trace_train_graph import Patchify  # the 16x16 stride-16 conv as reshape + linear (meta has no conv backward)
from torch_to_graph import joint_graph  # examples/torch_to_graph.py's (its folder put on the path above)
batch = int(sys.argv[1]) if len(sys.argv) > 1 else 8
out = sys.argv[2]
model = torchvision.models.vit_b_16()
model.conv_proj = Patchify()
model = model.to("meta")
model.train()
x = torch.randn(batch, 3, 224, 224, device="meta")
g, _ = joint_graph(model, x, backward_may_fail=True)
nodes = [n for n in g.graph.nodes]
nparams = sum(1 for n in nodes if n.op == 'placeholder' and n.name.startswith('primals')) - 1  # the data last
# values: every node with a tensor result except parameter primals and output
idx = {}
vals = []
primal_count = 0
for n in nodes:
    if n.op == 'output':
        continue
    tm = n.meta.get('tensor_meta') or n.meta.get('val')
    if tm is None or not hasattr(tm, 'shape'):
        continue
    if n.op == 'placeholder' and n.name.startswith('primals'):
        primal_count += 1
        if primal_count <= nparams:  # parameters/buffers come first
            continue
    size = 4
    for d in tm.shape: size *= int(d)
    idx[n] = len(vals)
    vals.append([n, size])
last = [i for i in range(len(vals))]
outnode = [n for n in nodes if n.op == 'output'][0]
for i, (n, s) in enumerate(vals):
    for u in n.users:
        if u in idx: last[i] = max(last[i], idx[u])
T = len(vals)
outs = set()
def walk(a):
    if isinstance(a, torch.fx.Node): outs.add(a)
    elif isinstance(a, (list, tuple)):
        for b in a: walk(b)
walk(outnode.args)
with open(out, 'w') as f:
    f.write('id,lower,upper,size\n')
    for i, (n, s) in enumerate(vals):
        up = T if n in outs else last[i] + 1
        f.write('%d,%d,%d,%d\n' % (i, i, up, s))
print(len(vals), 'values', primal_count, 'primals', nparams, 'params')
