# A training script, not a module: it reads its command line at import (torch_to_graph.py refuses it, naming
# the fix).
import argparse
import torch
p = argparse.ArgumentParser()
p.add_argument('--data', required=True)
args = p.parse_args()


def mlp():
    return torch.nn.Linear(4, 3)
