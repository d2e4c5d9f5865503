# Fixtures of tests/cli_torch.sh (examples/torch_to_graph.py): small user
# modules whose rows are counted by hand there, and broken factories.
import torch


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 3)
        self.b = torch.nn.Linear(3, 2)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


def mlp():
    return MLP()


class Tokens(torch.nn.Module):
    """An embedding read by integer tokens, two outputs (one integer)."""
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(10, 3)

    def forward(self, tok):
        e = self.emb(tok)
        return e, tok.argmax(-1)


def tokens():
    return Tokens()


def mse(y, x):
    """A user's loss for mlp: y against the first two features of x."""
    return ((y - x[:, :2]) ** 2).mean()


def not_scalar(y, x):
    return y


class Argmax(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 3)

    def forward(self, x):
        return self.a(x).argmax(-1)


def argmax():
    return Argmax()


def conv():
    return torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU())


def raises():
    raise ValueError('no weights here')


def number():
    return 3


table = 7


def deep():
    """Eight tanh layers on a batch: activations outweigh the weights (remat has room)."""
    return torch.nn.Sequential(*[m for _ in range(8) for m in (torch.nn.Linear(32, 32), torch.nn.Tanh())])


class Tied(torch.nn.Module):
    """A language-model head sharing the embedding's table (one tensor under two names)."""
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(10, 3)
        self.head = torch.nn.Linear(3, 10, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, tok):
        return self.head(self.emb(tok))


def tied():
    return Tied()


class Two(torch.nn.Module):
    """Two arguments of different shapes: cli_torch.sh gives them in reverse order (forward's order counts)."""
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 3)

    def forward(self, x, shift):
        return self.a(x) + shift


def two():
    return Two()


class DictOut(torch.nn.Module):
    """Outputs in a dict: one with a gradient, one without (x * x: its input twice, a float the default loss
    leaves out)."""
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 3)

    def forward(self, x):
        return {'y': self.a(x), 'sq': x * x}


def dictout():
    return DictOut()


class Viewed(torch.nn.Module):
    """A 2x64 value read later only through a 2x1 slice of it (sin's backward reads the slice): with views as
    aliases the whole base lives until then."""
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 64)

    def forward(self, x):
        return torch.sin(self.a(x)[:, :1])


def viewed():
    return Viewed()


class KwOnly(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 3)

    def forward(self, x, *, scale=1.0):
        return self.a(x) * scale


def kwonly():
    return KwOnly()


def leaves():
    """A factory that exits (a script's habit)."""
    import sys
    sys.exit('no data here')


def half():
    """The MLP in float16: torch 1.13's CPU lacks half matrix kernels (the tool hints --meta)."""
    return MLP().half()


class PassIn(torch.nn.Module):
    """Returns its input as well: the input row is an output."""
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 3)

    def forward(self, x):
        return self.a(x), x


def passin():
    return PassIn()


class Halves(torch.nn.Module):
    """A value split in two (chunk: split's list of views) multiplied together."""
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 4)

    def forward(self, x):
        a, b = self.a(x).chunk(2, 1)
        return a * b


def halves():
    return Halves()
