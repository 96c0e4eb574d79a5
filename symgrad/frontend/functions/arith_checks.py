"""torch's checks of the operands of arithmetic before it computes: no subtraction of bools,
``alpha`` of add/sub of the result's kind.

Layer: front end (below the function modules that call it). Input: the operands of an op
(tensors or Python numbers). Output: nothing, or torch's RuntimeError with torch's message.
"""

from __future__ import annotations

from ... import dtypes
from ..core.tensor import Tensor


def _is_bool(x) -> bool:
    return x.dtype.is_bool if isinstance(x, Tensor) else type(x) is bool


def sub_check(a, b) -> None:
    """torch refuses to subtract bools (a bool tensor or a Python bool, either side)."""
    if _is_bool(a) or _is_bool(b):
        if _is_bool(a) and _is_bool(b):
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not "
                           "supported. If you are trying to invert a mask, use the `~` or "
                           "`logical_not()` operator instead.")


def alpha_check(a, b, alpha) -> None:
    """torch's rules for add/sub's ``alpha``: of the result's kind (no float alpha for
    integer results, no bool alpha but for bool results, no complex alpha for real ones)."""
    if not isinstance(alpha, (int, float, complex)):
        return
    kind = dtypes.promote([(x.dtype, dtypes.RANK_TENSOR if x.ndim else dtypes.RANK_ZERO_DIM)
                           if isinstance(x, Tensor) else (dtypes.scalar_dtype(x),
                                                          dtypes.RANK_SCALAR) for x in (a, b)])
    if type(alpha) is bool and not kind.is_bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if not kind.is_differentiable and not isinstance(alpha, int):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if isinstance(alpha, complex) and not kind.is_complex:
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")
