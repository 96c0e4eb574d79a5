"""Matrix multiplication: the one primitive that lowers to BLAS.

Layer: ops. Input: nothing. Output: the ``matmul`` OpDef over operands (*batch, M, K) and
(*batch, K, N) with equal batch shapes. The front end turns torch's 1-D, 2-D, broadcast-batched
forms into this one by unsqueeze/expand; here there is exactly one shape to reason about.
"""

from __future__ import annotations

import numpy as np

from . import batching
from .. import dtypes
from .registry import OTHER, OpDef, ShapeError, per_input, register, same_dtype


def _matmul_shape(a, b):
    if len(a) < 2 or len(b) < 2 or len(a) != len(b) or a[:-2] != b[:-2] or a[-1] != b[-2]:
        raise ShapeError(f"matmul: shapes {tuple(a)} and {tuple(b)} cannot be multiplied "
                         f"(expected (..., M, K) @ (..., K, N) with equal batch dims)")
    return tuple(a[:-1]) + (b[-1],)


def _matmul_dtype(a, b, **_):
    """Floating or int64 operands of one dtype (the front end rounds storage types)."""
    d = same_dtype(a, b)
    if d not in (dtypes.float32, dtypes.float64, dtypes.int64, dtypes.complex64,
                 dtypes.complex128):
        raise TypeError(f"matmul computes in float32, float64, complex or int64, got {d.name}")
    return d


def _swap_last(b, t):
    perm = tuple(range(t.ndim - 2)) + (t.ndim - 1, t.ndim - 2)
    return b.op("permute", t, perm=perm)


register(OpDef(
    name="matmul", kind=OTHER, shape=_matmul_shape, dtype=_matmul_dtype, numpy=np.matmul,
    kernel="matmul",
    dependence="matmul",
    batch=batching.matmul,
    vjp=per_input(lambda b, g, out, ins: b.op("matmul", g, _swap_last(b, ins[1])),
                  lambda b, g, out, ins: b.op("matmul", _swap_last(b, ins[0]), g),
                  reads=((1,), (0,))),
    torch_name="MmBackward0"))
