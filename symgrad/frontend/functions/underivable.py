"""Results torch computes but cannot differentiate: their grad_fn raises in backward (a
missing derivative formula, ``derivative for aten::bincount is not implemented``, or a
backward that trips over its own in-place steps, as vander's and linalg.cond's do).

Layer: front end (function modules wrap a value with it). Input: the value's computation,
its tensor inputs, torch's grad_fn name and backward error. Output: the value, recorded so
that a backward through it raises that error, as torch's does.
"""

from __future__ import annotations

from collections.abc import Callable

from .basic import composite
from ..core.tensor import Tensor

MODIFIED = ("one of the variables needed for gradient computation has been modified by an "
            "inplace operation")


def not_implemented(op: str) -> str:
    """torch's message for an op without a derivative formula."""
    return f"derivative for aten::{op} is not implemented"


def without_derivative(torch_name: str, body: Callable, inputs: list, message: str,
                       error: type = RuntimeError) -> Tensor:
    """``body(*inputs)``, whose backward raises ``error(message)`` (the grad_fn shown is
    ``torch_name``); ``inputs``: tensors (a result that needs no gradient is plain)."""
    def rule(g, out, ins):
        raise error(message)
    return composite(torch_name, body, inputs, rule)
