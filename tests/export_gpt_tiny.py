#!/usr/bin/env python3
"""Writes tests/data/gpt_tiny_seq.symbolic.csv: a GPT (2 blocks, d 64, 4
heads, context 8192, random weights) exported by torch's own ONNX exporter
at opset 17 with dynamic batch and seq, then examples/onnx_to_graph.py
--dim batch=2 --dim seq=W. Its causal mask (seq x seq) comes from the
run-time length: sizes up to W^2. Needs torch (Debian python3-torch 1.13)
and onnx; not run by the tests (the CSV is committed)."""
import os
import subprocess
import sys
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as Fn


class Block(nn.Module):
    def __init__(s, d=64, h=4):
        super().__init__()
        s.h, s.ln1, s.ln2 = h, nn.LayerNorm(d), nn.LayerNorm(d)
        s.qkv, s.proj, s.fc, s.fc2 = nn.Linear(d, 3 * d), nn.Linear(d, d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(s, x):
        b, t, d = x.shape
        q, k, v = (z.view(b, t, s.h, d // s.h).transpose(1, 2) for z in s.qkv(s.ln1(x)).split(d, dim=2))
        a = (q @ k.transpose(-2, -1)) / (d // s.h) ** 0.5
        a = a.masked_fill(torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1), float("-inf")).softmax(-1)
        x = x + s.proj((a @ v).transpose(1, 2).reshape(b, t, d))
        return x + s.fc2(Fn.gelu(s.fc(s.ln2(x))))


class GPT(nn.Module):
    def __init__(s, vocab=500, d=64, n=2, ctx=8192):
        super().__init__()
        s.wte, s.wpe = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
        s.blocks, s.ln, s.head = nn.ModuleList(Block(d) for _ in range(n)), nn.LayerNorm(d), nn.Linear(d, vocab, False)

    def forward(s, ids):
        x = s.wte(ids) + s.wpe(torch.arange(ids.shape[1]).unsqueeze(0))
        for blk in s.blocks:
            x = blk(x)
        return s.head(s.ln(x))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    torch.manual_seed(0)
    with tempfile.TemporaryDirectory() as d:
        model = os.path.join(d, "gpt_tiny.onnx")
        torch.onnx.export(GPT().eval(), (torch.randint(0, 500, (2, 16)),), model, opset_version=17,
                          input_names=["ids"], output_names=["logits"],
                          dynamic_axes={"ids": {0: "batch", 1: "seq"}})
        out = os.path.join(root, "tests", "data", "gpt_tiny_seq.symbolic.csv")
        return subprocess.call([sys.executable, os.path.join(root, "examples", "onnx_to_graph.py"),
                                "--dim", "batch=2", "--dim", "seq=W", model, "-o", out])


if __name__ == "__main__":
    sys.exit(main())
