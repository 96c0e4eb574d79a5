"""Run a torch program with symgrad standing in for torch: ``python as_torch.py prog.py``.

Every ``import torch`` / ``import torch.nn as nn`` / ``from torch.autograd import Function``
of the program finds symgrad's module of the same name: the program runs unmodified.
"""

import importlib
import runpy
import sys

import symgrad

ALIASES = ["nn", "nn.functional", "nn.init", "optim", "autograd", "cuda", "backends", "linalg",
           "special", "utils", "utils.data", "distributions", "serialization", "fft"]

sys.modules["torch"] = symgrad
for name in ALIASES:
    try:
        sys.modules[f"torch.{name}"] = importlib.import_module(f"symgrad.{name}")
    except ImportError:
        pass
for name in list(sys.modules):   # the submodules of those (torch.optim.lr_scheduler...)
    if name.startswith("symgrad.") and name.split(".", 1)[1].split(".")[0] in \
            {a.split(".")[0] for a in ALIASES}:
        sys.modules["torch." + name.split(".", 1)[1]] = sys.modules[name]

sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
