"""torch's ``mul`` and ``div``, with its rule for a float16 tensor and a Python number: the
number is not rounded to float16 first, the kernel reads it in float32 (its "opmath" type),
computes in float32 and rounds the result once (``x * 1e5`` is finite where ``1e5`` is not a
float16). Its backward (``MulBackward0``, ``DivBackward0``) multiplies or divides the gradient
by the number the same way.

Composites torch computes with one float16 kernel (``IN_FLOAT32``: its node's name and its
backward's kind) compute in float32 and round once, as that kernel does: ``in_float32``
wraps the composite's body (float16 operands cast to float32, the result cast back) and its
rule. A backward that is a kernel too ("kernel": GELU's, group norm's) computes in float32
and each gradient rounds once; one that is a derivative formula ("formula": addcmul's,
the norm's) runs as given, each of its float16 ops rounding.

Layer: front end. Input: tensors (eager or traced) and Python numbers; a composite's body and
rule. Output: tensors, built by applying registered primitives (``apply``); on every other
operand the plain ``mul`` or ``div`` primitive, with one type test before it.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
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


# torch's ops whose CPU kernel computes float16 in float32 and rounds once, by the name of
# the node torch shows; the value: whether its backward is a kernel too (computed in float32)
# or a derivative formula of float16 ops.
IN_FLOAT32 = {
    "GeluBackward0": "kernel",
    "SiluBackward0": "kernel",
    "SoftplusBackward0": "kernel",
    "MishBackward0": "kernel",
    "HardswishBackward0": "kernel",
    "SoftmaxBackward0": "kernel",
    "LogSoftmaxBackward0": "kernel",
    "NativeLayerNormBackward0": "kernel",
    "NativeGroupNormBackward0": "kernel",
    "AdaptiveAvgPool2DBackward0": "formula",   # (its backward kernel divides and adds in float16)
    "AvgPool2DBackward0": "formula",
    "AddcmulBackward0": "formula",
    "AddcdivBackward0": "formula",
    "LinalgVectorNormBackward0": "formula",
    "AddmmBackward0": "formula",      # gemm: beta * input + alpha * (a @ b), accumulated in
    "AddmvBackward0": "formula",      # float32, rounded once
    "BaddbmmBackward0": "formula",
}


def _wide(t):
    """A float16 tensor as float32 (anything else as it is)."""
    if isinstance(t, Tensor) and t.dtype is dtypes.float16:
        return apply("cast", t, dtype=dtypes.float32)
    return t


def in_float32(torch_name: str, body, rule, rerun) -> tuple:
    """(body, rule) of a composite in ``IN_FLOAT32`` with float16 operands: the body computes
    in float32 and its result rounds once to the dtype of the float16 computation; the rule
    as the table says (``rule`` None: ``rerun(body)``, back-propagating through a body)."""
    def wide_body(*ins):
        out = body(*[_wide(t) for t in ins])
        narrow = dtypes.promote([(t.dtype, dtypes.RANK_TENSOR if t.ndim else
                                  dtypes.RANK_ZERO_DIM) for t in ins if isinstance(t, Tensor)])
        if isinstance(out, Tensor) and narrow is dtypes.float16 and out.dtype is not narrow:
            out = apply("cast", out, dtype=narrow)
        return out
    if IN_FLOAT32[torch_name] == "formula":
        return wide_body, rule or rerun(body)
    if rule is None:
        return wide_body, rerun(wide_body)

    def wide_rule(g, out, ins):
        return rule(_wide(g), _wide(out), [_wide(t) for t in ins])
    return wide_body, wide_rule


__all__ = ["IN_FLOAT32", "div", "in_float32", "in_opmath", "mul"]
