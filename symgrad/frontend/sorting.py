"""torch-named sorting: sort, argsort, msort, topk, kthvalue, median.

Layer: front end. Input: tensors. Output: values and int64 indices, as torch's named tuples.
The order is found eagerly with NumPy's stable sort (``stable=True`` or not: torch's CPU sort
is stable for these too; NaN sorts last in ascending order, as in torch); the values are then a
``gather`` of the input at those indices, so their gradient is ``gather``'s (the cotangent goes
back to the positions it came from). Inside a compiled function the order depends on the
input's values, which are not known while tracing: these raise an error naming the line
(compiled sorting is future work).
"""

from __future__ import annotations

import numpy as np

from ..ops.registry import normalize_axes
from .functional import gather_along
from .printing import return_type
from .shapes import squeeze
from .tensor import Tensor, tracer_error

SortResult = return_type("sort")
TopkResult = return_type("topk")
KthResult = return_type("kthvalue")
MedianResult = return_type("median")


def _order(x: Tensor, dim: int, descending: bool) -> tuple[np.ndarray, int]:
    if x.is_traced:
        raise tracer_error("order (sort, argsort, topk, kthvalue, median need the values)")
    axis = normalize_axes(dim, max(x.ndim, 1))[0]
    v = x._value if x.ndim else x._value.reshape(1)
    if descending:
        # stable descending with NaN first, as torch: sort the negated keys (NaN stays NaN)
        keys = -v if x.dtype.category else ~v
        order = np.argsort(keys, axis=axis, kind="stable")
        nan_first = np.isnan(v) if x.dtype.is_floating else None
        if nan_first is not None and nan_first.any():
            order = np.argsort(np.where(np.isnan(v), -np.inf, keys), axis=axis, kind="stable")
            order = _nan_first(v, order, axis)
    else:
        order = np.argsort(v, axis=axis, kind="stable")
    return order.astype(np.int64), axis


def _nan_first(v: np.ndarray, order: np.ndarray, axis: int) -> np.ndarray:
    """Move the NaNs' positions to the front of each sorted row, keeping their order."""
    isnan = np.take_along_axis(np.isnan(v), order, axis)
    moved = np.argsort(~isnan, axis=axis, kind="stable")
    return np.take_along_axis(order, moved, axis)


def _take(x: Tensor, idx: np.ndarray, axis: int) -> Tensor:
    src = x if x.ndim else x.reshape(1)
    out = gather_along(src, Tensor(idx, None), axis)
    return out if x.ndim else out.reshape(())


def sort(x: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    """Values sorted along ``dim`` and the indices they came from."""
    order, axis = _order(x, dim, descending)
    idx = order if x.ndim else order.reshape(())
    return SortResult(_take(x, order, axis), Tensor(idx, None))


def argsort(x: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    order, _ = _order(x, dim, descending)
    return Tensor(order if x.ndim else order.reshape(()), None)


def msort(x: Tensor) -> Tensor:
    return sort(x, 0).values


def topk(x: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    """The ``k`` largest (or smallest) values along ``dim``, in order, and their indices."""
    axis = normalize_axes(dim, max(x.ndim, 1))[0]
    n = x.shape[axis] if x.ndim else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    order, axis = _order(x, dim, largest)
    idx = np.take(order, np.arange(k), axis=axis)
    return TopkResult(_take(x, idx, axis), Tensor(idx, None))


def kthvalue(x: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """The ``k``-th smallest value along ``dim`` (1-based) and its index."""
    axis = normalize_axes(dim, max(x.ndim, 1))[0]
    n = x.shape[axis] if x.ndim else 1
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {axis}")
    order, axis = _order(x, dim, False)
    idx = np.take(order, [k - 1], axis=axis)
    values, indices = _take(x, idx, axis), Tensor(idx, None)
    if not keepdim and x.ndim:
        values, indices = squeeze(values, axis), squeeze(indices, axis)
    return KthResult(values, indices)


def median(x: Tensor, dim: int | None = None, keepdim: bool = False):
    """The lower median (torch's: the ``(n-1)//2``-th smallest), over all elements or along
    ``dim`` with its index."""
    if dim is None:
        flat = x.reshape(-1)
        return kthvalue(flat, (flat.shape[0] - 1) // 2 + 1, 0).values
    n = x.shape[normalize_axes(dim, max(x.ndim, 1))[0]] if x.ndim else 1
    r = kthvalue(x, (n - 1) // 2 + 1, dim, keepdim)
    return MedianResult(r.values, r.indices)


__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "median"]
METHODS = {name: globals()[name] for name in __all__}
