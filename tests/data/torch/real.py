# Models not in the shared data, written as a user would, for the real check
# of examples/torch_to_graph.py (notes/REAL-realtorch.md): a small UNet and a
# GPT-like decoder with its attention written out (no nn.Transformer).
import math
import torch
import torch.nn.functional as F


def block(cin, cout):
    return torch.nn.Sequential(torch.nn.Conv2d(cin, cout, 3, padding=1, bias=False), torch.nn.BatchNorm2d(cout),
                               torch.nn.ReLU(inplace=True), torch.nn.Conv2d(cout, cout, 3, padding=1, bias=False),
                               torch.nn.BatchNorm2d(cout), torch.nn.ReLU(inplace=True))


class UNet(torch.nn.Module):
    """Ronneberger et al.'s UNet at a quarter of the width, 4 levels: max pool down, transposed conv up, skip
    concatenations; a 1x1 head to the classes."""
    def __init__(self, cin=3, classes=2, w=16):
        super().__init__()
        self.down = torch.nn.ModuleList([block(cin, w), block(w, 2 * w), block(2 * w, 4 * w), block(4 * w, 8 * w)])
        self.mid = block(8 * w, 16 * w)
        self.up = torch.nn.ModuleList([torch.nn.ConvTranspose2d(c * 2, c, 2, 2) for c in (8 * w, 4 * w, 2 * w, w)])
        self.dec = torch.nn.ModuleList([block(c * 2, c) for c in (8 * w, 4 * w, 2 * w, w)])
        self.head = torch.nn.Conv2d(w, classes, 1)

    def forward(self, x):
        skips = []
        for d in self.down:
            x = d(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.mid(x)
        for u, d, s in zip(self.up, self.dec, reversed(skips)):
            x = d(torch.cat((s, u(x)), 1))
        return self.head(x)


def unet():
    return UNet()


class Attention(torch.nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.qkv, self.o = heads, torch.nn.Linear(d, 3 * d), torch.nn.Linear(d, d)

    def forward(self, x, mask):
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads) + mask
        return self.o((F.dropout(att.softmax(-1), 0.1, self.training) @ v).transpose(1, 2).reshape(b, s, d))


class Block(torch.nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.n1, self.n2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
        self.att = Attention(d, heads)
        self.ff = torch.nn.Sequential(torch.nn.Linear(d, 4 * d), torch.nn.GELU(), torch.nn.Linear(4 * d, d))

    def forward(self, x, mask):
        x = x + self.att(self.n1(x), mask)
        return x + self.ff(self.n2(x))


class GPT(torch.nn.Module):
    """A GPT-2-like decoder (pre-norm, learned positions, GELU, tied head) with attention written out."""
    def __init__(self, vocab=8192, d=384, heads=6, layers=6, seq=256):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.zeros(1, seq, d))
        self.blocks = torch.nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.norm = torch.nn.LayerNorm(d)
        self.register_buffer('mask', torch.triu(torch.full((seq, seq), float('-inf')), 1))

    def forward(self, tok):
        x = self.emb(tok) + self.pos[:, :tok.shape[1]]
        for blk in self.blocks:
            x = blk(x, self.mask[:tok.shape[1], :tok.shape[1]])
        return self.norm(x) @ self.emb.weight.t()


def gpt():
    return GPT()


def next_token(logits, tok):
    """The language-model loss: cross entropy of each position against the next token."""
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), tok[:, 1:].reshape(-1))
