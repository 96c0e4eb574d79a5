"""How torch-named functions read their arguments, written once: a tensor or anything that
becomes one, and sizes given as ``f(2, 3)`` or ``f((2, 3))``.

Layer: front end (core). Input: call arguments. Output: tensors and size tuples; each caller
then checks its sizes its own way (``reshape`` takes -1, a factory a call-time size, a sampler
refuses negative sizes with torch's message).
"""

from __future__ import annotations

from typing import Any

from .apply import as_tensor
from .deferred import Deferred  # noqa: F401  (what tensor_arg refuses, for the functions)
from .tensor import Tensor


def tensor_arg(x: Any) -> Tensor:
    """``x`` if it is a tensor, else ``as_tensor(x)`` (a number, an array, a list...)."""
    return x if isinstance(x, Tensor) else as_tensor(x)


def size_args(args: tuple) -> tuple:
    """The sizes of ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(torch.Size(...))``, as
    given (not yet checked)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


# What torch's argument parser refuses for a Tensor-only parameter (a Tensor overload alone,
# no Scalar one: atan2, polar, dot, ...). NumPy arrays stay accepted (symgrad's leniency).
_NOT_TENSORS = (bool, int, float, complex, list, tuple)


def tensors_only(fname: str, **named: Any) -> None:
    """torch's TypeError where a Tensor-only parameter gets a Python number or a list: the
    parameters given by keyword in torch's order and with its names (a method's without
    ``self``): ``polar(): argument 'angle' (position 2) must be Tensor, not float``."""
    for position, (param, value) in enumerate(named.items(), 1):
        if isinstance(value, _NOT_TENSORS):
            raise TypeError(f"{fname}(): argument '{param}' (position {position}) must be "
                            f"Tensor, not {type(value).__name__}")


def receiver(x: Any, method: str) -> Tensor:
    """``x`` for a function torch writes as ``x.method()`` (``F.sigmoid``, ``F.softsign``...):
    anything but a tensor is Python's AttributeError, as in torch."""
    if not isinstance(x, Tensor):
        raise AttributeError(f"'{type(x).__name__}' object has no attribute '{method}'")
    return x
