"""torch's ``mul`` and ``div``, with its rule for a float16 tensor and a Python number: the
number is not rounded to float16 first, the kernel reads it in float32 (its "opmath" type),
computes in float32 and rounds the result once (``x * 1e5`` is finite where ``1e5`` is not a
float16). Its backward (``MulBackward0``, ``DivBackward0``) multiplies or divides the gradient
by the number the same way.

Layer: front end. Input: tensors (eager or traced) and Python numbers. Output: tensors, built
by applying registered primitives (``apply``); on every other operand the plain ``mul`` or
``div`` primitive, with one type test before it.
"""

from __future__ import annotations

import numpy as np

from ..core import grad_mode
from ..core.apply import apply, attach_function
from ..core.tensor import Tensor

_NUMBERS = (int, float)
_FLOAT16_MAX = 65504.0


def mul(a, b) -> Tensor:
    if type(b) in _NUMBERS and isinstance(a, Tensor) and a.dtype.is_storage:
        return in_opmath("mul", a, b)
    return apply("mul", a, b)


def div(a, b) -> Tensor:
    if type(b) in _NUMBERS and isinstance(a, Tensor) and a.dtype.is_storage:
        return in_opmath("div", a, b)
    return apply("div", a, b)


def _widened(name: str, t: Tensor, number) -> Tensor:
    """``t`` (float16) ``name`` ``number`` computed in float32, rounded to ``t``'s dtype."""
    wide = apply("cast", t, dtype=t.dtype.computes_in)
    return apply("cast", apply(name, wide, number), dtype=t.dtype)


def in_opmath(name: str, a: Tensor, number) -> Tensor:
    """``a`` (a storage float dtype: float16) ``name`` a Python number, as torch's kernel: the
    plain primitive where the number is a float16 already (the same result), else computed in
    float32, with torch's node and its backward computed the same way."""
    if not a.dtype.is_floating or number != number or (
            abs(number) <= _FLOAT16_MAX and float(np.float16(number)) == number):
        return apply(name, a, number)
    with grad_mode.no_grad():
        out = _widened(name, a, number)
    return attach_function(out, name.capitalize() + "Backward0",
                           lambda g, o, ins: (_widened(name, g, number),), [a],
                           saves=False, uses_out=False)


__all__ = ["div", "in_opmath", "mul"]
