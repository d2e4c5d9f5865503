import torch
def f(:
    pass
