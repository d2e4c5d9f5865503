# Training graphs of the proxy sets in the dnnmem graph CSV: the builds
# below (and torchvision's models) traced by examples/torch_to_graph.py's
# functions (AOTAutograd's joint forward + backward graph, Debian
# python3-torch 1.13; the conventions of ../shared/data/README.md, views
# counted as copies as there (graph_rows' views='copy'); the roofline cost
# model of examples/torch_to_graph.py, documented in its module doc), with
# these files' header.
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
#   causal mask; the second proxy set's bert_mid, llama_dec, bart_small,
#   mobilevit_xxs, deit_s: see tests/data/proxy2/README.md; the third set's
#   gpt_mid, bert_long, t5_mid: tests/data/proxy3/README.md). OUT defaults to
#   tests/data/proxy/NAME.train.graph.csv (a held-out proxy set for remat:
#   outside tests/data/*.train.graph.csv, which make test's test_plan_data
#   reads whole).
import math, os, sys, torch, torchvision
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples'))
from torch_to_graph import graph_rows, joint_graph, run_joint, write_graph  # the one tracer


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


class Bert(torch.nn.Module):
    """A BERT-like masked LM (the second proxy set): token + position + segment
    embeddings, embedding norm, post-norm GELU encoder (nn.TransformerEncoder),
    MLM head (dense, GELU, norm, decoder)."""
    def __init__(self, vocab=8192, d=512, heads=8, layers=8, seq=256):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.zeros(1, seq, d))
        self.seg = torch.nn.Embedding(2, d)
        self.register_buffer('segs', (torch.arange(seq) >= seq // 2).long().unsqueeze(0))
        self.norm = torch.nn.LayerNorm(d)
        self.drop = torch.nn.Dropout(0.1)
        layer = torch.nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, activation='gelu', batch_first=True)
        self.body = torch.nn.TransformerEncoder(layer, layers)
        self.head = torch.nn.Sequential(torch.nn.Linear(d, d), torch.nn.GELU(), torch.nn.LayerNorm(d),
                                        torch.nn.Linear(d, vocab))

    def forward(self, tok):
        x = self.drop(self.norm(self.emb(tok) + self.pos + self.seg(self.segs)))
        return self.head(self.body(x))


class RMSNorm(torch.nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps, self.weight = eps, torch.nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class LlamaBlock(torch.nn.Module):
    """Pre-norm (RMSNorm) causal self-attention with rotary positions, then a SwiGLU MLP; no biases."""
    def __init__(self, d, heads, hidden):
        super().__init__()
        self.heads = heads
        self.n1, self.n2 = RMSNorm(d), RMSNorm(d)
        self.qkv = torch.nn.Linear(d, 3 * d, bias=False)
        self.o = torch.nn.Linear(d, d, bias=False)
        self.gate = torch.nn.Linear(d, hidden, bias=False)
        self.up = torch.nn.Linear(d, hidden, bias=False)
        self.down = torch.nn.Linear(hidden, d, bias=False)

    def forward(self, x, cos, sin, mask):
        b, s, d = x.shape
        q, k, v = self.qkv(self.n1(x)).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)

        def rope(t):
            t1, t2 = t.chunk(2, -1)
            return t * cos + torch.cat((-t2, t1), -1) * sin
        att = rope(q) @ rope(k).transpose(-2, -1) / math.sqrt(d // self.heads) + mask
        x = x + self.o((att.softmax(-1) @ v).transpose(1, 2).reshape(b, s, d))
        h = self.n2(x)
        return x + self.down(torch.nn.functional.silu(self.gate(h)) * self.up(h))


class Llama(torch.nn.Module):
    """A Llama-like decoder-only LM written in torch.nn: RMSNorm, rotary positions, SwiGLU, untied head."""
    def __init__(self, vocab=8192, d=288, heads=6, layers=6, hidden=768, seq=256):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, d)
        self.blocks = torch.nn.ModuleList(LlamaBlock(d, heads, hidden) for _ in range(layers))
        self.norm = RMSNorm(d)
        self.head = torch.nn.Linear(d, vocab, bias=False)
        hd = d // heads
        ang = torch.arange(seq).float()[:, None] * 10000.0 ** (-torch.arange(0, hd, 2).float() / hd)
        ang = torch.cat((ang, ang), -1)
        self.register_buffer('cos', ang.cos())
        self.register_buffer('sin', ang.sin())
        self.register_buffer('mask', torch.triu(torch.full((seq, seq), float('-inf')), 1))

    def forward(self, tok):
        x = self.emb(tok)
        for blk in self.blocks:
            x = blk(x, self.cos, self.sin, self.mask)
        return self.head(self.norm(x))


class Bart(torch.nn.Module):
    """A BART-like encoder-decoder on nn.Transformer: pre-norm, GELU, learned positions, a source
    longer than the target, the embedding shared by both sides (the LM head untied: the
    parameter count below counts a tied weight once, AOTAutograd twice)."""
    def __init__(self, vocab=8192, d=384, heads=6, layers=4, src=128, tgt=64):
        super().__init__()
        self.src = src
        self.emb = torch.nn.Embedding(vocab, d)
        self.pos_src = torch.nn.Parameter(torch.zeros(1, src, d))
        self.pos_tgt = torch.nn.Parameter(torch.zeros(1, tgt, d))
        self.tr = torch.nn.Transformer(d, heads, layers, layers, 4 * d, dropout=0.1, activation='gelu',
                                       batch_first=True, norm_first=True)
        self.head = torch.nn.Linear(d, vocab, bias=False)
        self.register_buffer('mask', torch.triu(torch.full((tgt, tgt), float('-inf')), 1))

    def forward(self, tok):
        s = self.emb(tok[:, :self.src]) + self.pos_src
        t = self.emb(tok[:, self.src:]) + self.pos_tgt
        return self.head(self.tr(s, t, tgt_mask=self.mask))


def conv_bn(cin, cout, k=1, stride=1, groups=1, act=True):
    return torch.nn.Sequential(torch.nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                               torch.nn.BatchNorm2d(cout), torch.nn.SiLU() if act else torch.nn.Identity())


class MV2(torch.nn.Module):
    """MobileNetV2's inverted residual (SiLU), as MobileViT uses it."""
    def __init__(self, cin, cout, stride, expand=4):
        super().__init__()
        h = cin * expand
        self.res = stride == 1 and cin == cout
        self.body = torch.nn.Sequential(conv_bn(cin, h), conv_bn(h, h, 3, stride, h), conv_bn(h, cout, act=False))

    def forward(self, x):
        return x + self.body(x) if self.res else self.body(x)


class MobileViTBlock(torch.nn.Module):
    """Local 3x3 + 1x1 convs, 2x2 patches unfolded into sequences for pre-norm transformer layers
    (SiLU FF), folded back, projected, concatenated with the input and fused by a 3x3 conv."""
    def __init__(self, c, d, layers):
        super().__init__()
        self.local = torch.nn.Sequential(conv_bn(c, c, 3), torch.nn.Conv2d(c, d, 1, bias=False))
        layer = torch.nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.1, activation=torch.nn.functional.silu,
                                                 batch_first=True, norm_first=True)
        self.body = torch.nn.TransformerEncoder(layer, layers, norm=torch.nn.LayerNorm(d))
        self.proj = conv_bn(d, c)
        self.fuse = conv_bn(2 * c, c, 3)

    def forward(self, x):
        y = self.local(x)
        b, d, h, w = y.shape
        y = y.reshape(b, d, h // 2, 2, w // 2, 2).permute(0, 3, 5, 2, 4, 1).reshape(b * 4, h * w // 4, d)
        y = self.body(y).reshape(b, 2, 2, h // 2, w // 2, d).permute(0, 5, 3, 1, 4, 2).reshape(b, d, h, w)
        return self.fuse(torch.cat((x, self.proj(y)), 1))


def mobilevit_xxs():
    """MobileViT-XXS-like (Mehta and Rastegari's channel and depth plan, 256x256 input)."""
    return torch.nn.Sequential(
        conv_bn(3, 16, 3, 2), MV2(16, 16, 1, 2),
        MV2(16, 24, 2, 2), MV2(24, 24, 1, 2), MV2(24, 24, 1, 2),
        MV2(24, 48, 2, 2), MobileViTBlock(48, 64, 2),
        MV2(48, 64, 2, 2), MobileViTBlock(64, 80, 4),
        MV2(64, 80, 2, 2), MobileViTBlock(80, 96, 3),
        conv_bn(80, 320), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(320, 1000))


def build(name, batch):
    torch.manual_seed(0)
    if name == 'bert_mid':
        return Bert(), torch.randint(0, 8192, (batch, 256))
    if name == 'llama_dec':
        return Llama(), torch.randint(0, 8192, (batch, 256))
    if name == 'bart_small':
        return Bart(), torch.randint(0, 8192, (batch, 128 + 64))
    if name == 'mobilevit_xxs':
        return mobilevit_xxs(), torch.randn(batch, 3, 256, 256)
    if name == 'deit_s':  # ViT-S/16 (DeiT-S): 12 blocks, d 384, 6 heads, its 16x16 patch conv kept
        return torchvision.models.VisionTransformer(224, 16, 12, 6, 384, 1536), torch.randn(batch, 3, 224, 224)
    if name == 'gpt_dec':
        return Causal(), torch.randint(0, 4096, (batch, 128))
    if name == 'gpt_mid':  # the third proxy set's: wider, longer and deeper than gpt_dec
        return Causal(8192, 512, 8, 6, 256), torch.randint(0, 8192, (batch, 256))
    if name == 'bert_long':  # the third proxy set's: a narrower bert_mid on 512-token sequences
        return Bert(8192, 384, 6, 6, 512), torch.randint(0, 8192, (batch, 512))
    if name == 't5_mid':  # the third proxy set's: t5_mini with d 384, 6 heads, 4+4 layers, seq 128
        return Seq2Seq(8192, 384, 6, 4, 128), torch.randint(0, 8192, (batch, 2, 128))
    if name == 't5_mini':
        return Seq2Seq(), torch.randint(0, 4096, (batch, 2, 64))
    kw = {'aux_logits': False, 'init_weights': False} if name in ('googlenet', 'inception_v3') else {}
    model = getattr(torchvision.models, name)(**kw)
    if name == 'vit_b_16':
        model.conv_proj = Patchify()
    side = 299 if name == 'inception_v3' else 224
    return model, torch.randn(batch, 3, side, side)


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
    lines, nparams = graph_rows(g, run_joint(g, inputs), 1, views='copy')  # the shared graphs' convention
    write_graph(out, ['dnnmem graph: %s (training: forward+backward joint graph); %d values' % (name, len(lines)),
                      'sizes: bytes from running the joint graph (batch %d); times: microseconds from the cost model '
                      'of examples/torch_to_graph.py' % batch], lines)
    print('%s: %d values (%d parameters and buffers left out) -> %s' % (name, len(lines), nparams, out))


if __name__ == '__main__':
    main()
