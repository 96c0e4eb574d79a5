"""The benchmark problems of issue 4: one module per problem, one function per system.

Every problem module defines

    NAME, DTYPE, X64    its name, its floating dtype, whether JAX needs x64
    TARGET              the kind of speed target (a key of report.TARGETS) per size label
    SIZES               a list of ``Size`` (label, parameters, quick?, plot x value)
    inputs(size)        the arguments, a list of NumPy arrays made from a fixed seed
    GRAD_ARGS           indices of the arguments the gradient is taken with respect to
    numpy(args)         the hand-written NumPy value and gradient: the reference for all
    symgrad(args), torch(args), jax(args), pytensor(args), casadi(args)
                        each returns ``fn`` with ``fn(*args) -> (value, (grad, ...))``,
                        NumPy arrays in and out; building ``fn`` plus its first call is what
                        the harness times as the cold start.

A system function may set ``fn.variant`` to say how it ran (e.g. CasADi's generated C or its
virtual machine); ``SKIP_QUICK`` names systems too slow to compile for ``--quick``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

NAMES = ("seed", "logreg", "mlp", "elementwise", "rosenbrock", "nbody", "ode")
SYSTEMS = ("symgrad", "numpy", "torch", "jax", "pytensor", "casadi")
# The Python module each system needs; a system whose module is missing is "not installed".
SYSTEM_MODULES = {"symgrad": "symgrad", "numpy": "numpy", "torch": "torch", "jax": "jax",
                  "pytensor": "pytensor", "casadi": "casadi"}


@dataclass(frozen=True)
class Size:
    label: str                    # as printed in the tables
    params: dict = field(default_factory=dict)
    quick: bool = True            # run it under --quick
    x: float = 0.0                # its place on the plot's x axis (number of elements)


def load(name: str):
    return importlib.import_module(f"problems.{name}")


def size_of(module, label: str) -> Size:
    for s in module.SIZES:
        if s.label == label:
            return s
    raise KeyError(f"{module.NAME} has no size {label!r}: {[s.label for s in module.SIZES]}")
