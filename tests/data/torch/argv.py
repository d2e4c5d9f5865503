# A module that parses its command line at import with every option optional: imported by torch_to_graph.py
# it sees no arguments (not the tool's), so it loads.
import argparse
import torch
args = argparse.ArgumentParser().parse_args()


def mlp():
    return torch.nn.Linear(4, 3)
