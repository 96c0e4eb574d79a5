"""The sorting primitive: ``argsort``, the order of the values along one axis.

Layer: ops. Input: nothing. Output: a registered ``OpDef`` of kind OTHER:

- ``argsort(x, axis, descending)``: int64, of ``x``'s shape: along ``axis``, the positions of
  ``x``'s values in sorted order. The sort is stable (equal values keep their order, as torch's
  CPU sort with ``stable=True``); a NaN sorts after every number in ascending order and before
  every number in descending order (torch's placement), NaNs among themselves in their order.
  ``-0.0`` and ``0.0`` are equal (their order is their positions').

The front end's sort, topk, kthvalue and median take the values as a ``gather`` of the input at
these indices, whose gradient is ``gather``'s: this op has none (an integer output). Lowering
gives it one C kernel, a stable merge sort of each row's indices (``lower.sorting``,
``codegen.c.sorting``).
"""

from __future__ import annotations

import numpy as np

from ..dtypes import int64
from . import batching
from .registry import OTHER, OpDef, ShapeError, register


def _argsort_shape(s, *, axis, descending):
    if not 0 <= axis < len(s):
        raise ShapeError(f"argsort: axis {axis} is out of range for a tensor of shape "
                         f"{tuple(s)} (the front end gives a non-negative axis of an input of "
                         f"at least one dimension)")
    return tuple(s)


def _descending_order(a: np.ndarray, axis: int) -> np.ndarray:
    """Stable descending order, NaN first: ascending order of keys that reverse the values'
    (the bitwise complement for integers and bools: no overflow at the smallest integer,
    and it reverses unsigned integers too)."""
    if a.dtype.kind != "f":
        return np.argsort(~a, axis=axis, kind="stable")
    nan = np.isnan(a)
    order = np.argsort(np.where(nan, -np.inf, -a), axis=axis, kind="stable")
    # the NaNs (tied with -inf's negation) to the front of each row, keeping their order
    moved = np.argsort(~np.take_along_axis(nan, order, axis), axis=axis, kind="stable")
    return np.take_along_axis(order, moved, axis)


def _np_argsort(a, *, axis, descending):
    a = np.asarray(a)
    order = _descending_order(a, axis) if descending else \
        np.argsort(a, axis=axis, kind="stable")       # NumPy's sort puts NaN last
    return order.astype(np.int64)


register(OpDef(
    name="argsort", kind=OTHER, dependence="none", shape=_argsort_shape, dtype=lambda d, **_: int64,
    kernel="sorting",
    batch=batching.leading,
    numpy=_np_argsort, vjp=None,
    doc="positions of the values in stable sorted order along axis (NaN last ascending, "
        "first descending)"))
