"""torch's finding and counting functions: nonzero, argwhere, unique, unique_consecutive,
bincount, histc (eager only) and bucketize, searchsorted (eager and compiled).

Layer: front end. Input: tensors. Output: int64 (or counted) tensors with no gradient, as in
torch. The sizes of nonzero's, argwhere's, unique's and bincount's results depend on the
input's values, which a compiled function does not know while it is traced: inside
``@symgrad.compile`` these raise ``TracerValueError`` naming the line and a fixed-shape
alternative (``where``/``masked_fill``, ``scatter_add`` into a tensor of known length);
histc's range defaults to the data's, so it is eager only too. bucketize and searchsorted give
a result of the input's shape: eagerly NumPy's binary search, compiled a count of the
boundaries below each value (a fused comparison and sum, no memory for the pairs; O(n*m) work,
and NaN values count no boundary, where the binary search puts them last).
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
from ...ops.registry import normalize_axes
from . import basic as F
from ..core.tensor import Tensor, tracer_error
from ..core.arguments import tensor_arg
from .underivable import not_implemented, without_derivative
from ..core import grad_mode
from ..core.apply import attach_function, full



def _eager(x: Tensor, name: str, instead: str) -> np.ndarray:
    """``x``'s value; inside a compiled function, an error naming ``instead``."""
    if x.is_traced:
        raise tracer_error(f"{name}() argument: its result's size depends on the values, "
                           f"unknown while tracing; {instead}")
    return x._value


def _long(a) -> Tensor:
    return Tensor(np.array(a, dtype=np.int64, order="C"), None)   # (0-d stays 0-d)


# ---------------------------------------------------------------- nonzero

def nonzero(x, *, as_tuple: bool = False):
    """The indices of the nonzero elements: an (n, ndim) int64 tensor, or one index vector
    per dim with ``as_tuple``."""
    x = tensor_arg(x)
    v = _eager(x, "nonzero", "keep shapes fixed with torch.where(mask, x, 0) or "
               "x.masked_fill(~mask, 0)")
    if as_tuple:
        return tuple(_long(i) for i in np.nonzero(np.atleast_1d(v)))
    if v.ndim == 0:
        return _long(np.zeros((1 if v != 0 else 0, 0)))
    return _long(np.argwhere(v))


def argwhere(x) -> Tensor:
    """``nonzero(x)``: the (n, ndim) indices of the nonzero elements."""
    return nonzero(x)


# ---------------------------------------------------------------- unique

def _unique_flat(v: np.ndarray, return_inverse: bool, return_counts: bool) -> tuple:
    """NumPy's unique, but every NaN is its own value (torch does not merge NaNs)."""
    values, inverse, counts = np.unique(v.reshape(-1), return_inverse=True,
                                        return_counts=True, equal_nan=False)
    return values, inverse.reshape(v.shape), counts


def _result(values, inverse, counts, x: Tensor, return_inverse: bool, return_counts: bool,
            torch_name: str):
    """The values (requiring grad if ``x`` does, with torch's backward function, which has
    no derivative), and the inverse and counts asked for."""
    out = [Tensor(np.ascontiguousarray(values, dtype=x.dtype.np), None)]
    op = {"Unique2Backward0": "_unique2", "UniqueDimBackward0": "unique_dim"}.get(
        torch_name, "unique_consecutive")

    def rule(g, out, ins):
        raise NotImplementedError(f"the derivative for '{op}' is not implemented.")
    out[0] = attach_function(out[0], torch_name, rule, [x], saves=False, uses_out=False)
    if return_inverse:
        out.append(_long(inverse))
    if return_counts:
        out.append(_long(counts))
    return out[0] if len(out) == 1 else tuple(out)


def unique(x, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None):
    """The distinct values (sorted), or distinct slices along ``dim``; with the index of each
    element's value (``return_inverse``) and how often each occurs (``return_counts``)."""
    x = tensor_arg(x)
    v = _eager(x, "unique", "compute it outside the compiled function, or sort with "
               "torch.sort and compare neighbours")
    if dim is None:
        values, inverse, counts = _unique_flat(v, True, True)
    else:
        axis = normalize_axes(dim, x.ndim)[0]
        values, inverse, counts = np.unique(v, return_inverse=True, return_counts=True,
                                            axis=axis)
        inverse = inverse.reshape(-1)
    return _result(values, inverse, counts, x, return_inverse, return_counts,
                   "Unique2Backward0" if dim is None else "UniqueDimBackward0")


def unique_consecutive(x, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None):
    """Each run of equal consecutive values (or slices along ``dim``) reduced to one."""
    x = tensor_arg(x)
    v = _eager(x, "unique_consecutive", "compute it outside the compiled function")
    axis = None if dim is None else normalize_axes(dim, x.ndim)[0]
    items = v.reshape(-1) if axis is None else np.moveaxis(v, axis, 0)
    n = items.shape[0]
    if n == 0:
        starts = np.zeros(0, np.int64)
    else:
        rest = items[1:] != items[:-1]
        changed = rest if axis is None else rest.reshape(n - 1, -1).any(axis=1)
        starts = np.concatenate([[0], np.nonzero(changed)[0] + 1])
    values = items[starts] if axis is None else np.moveaxis(items[starts], 0, axis)
    inverse = np.cumsum(np.isin(np.arange(n), starts)) - 1
    counts = np.diff(np.append(starts, n))
    if axis is None:
        inverse = inverse.reshape(v.shape)
    return _result(values, inverse, counts, x, return_inverse, return_counts,
                   "UniqueConsecutiveBackward0")


# ---------------------------------------------------------------- counting

def bincount(x, weights=None, minlength: int = 0) -> Tensor:
    """How often each non-negative integer occurs in the 1-D ``x`` (or the sum of its
    ``weights``), for 0 .. max(x) (at least ``minlength`` bins)."""
    x = tensor_arg(x)
    v = _eager(x, "bincount", "with a known number of bins n, use "
               "torch.zeros(n).scatter_add(0, x, weights)")
    if x.ndim != 1 or not x.dtype.is_integer or (v.size and v.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return _long(np.bincount(v, minlength=minlength))
    w = tensor_arg(weights)
    wv = _eager(w, "bincount", "use scatter_add into a tensor of known length")
    if w.shape != x.shape:
        raise RuntimeError(f"weights should be 1-d and have the same length as input "
                           f"(weights shape {list(w.shape)}, input {list(x.shape)})")
    dtype = w.dtype if w.dtype.is_floating else dtypes.float64
    counts = np.bincount(v, weights=wv.astype(np.float64), minlength=minlength)
    return without_derivative("NotImplemented", lambda _: Tensor(counts.astype(dtype.np), None),
                              [w], not_implemented("bincount"))


def _histc_range(v: np.ndarray, lo: float, hi: float) -> tuple:
    if lo == hi and v.size:
        lo, hi = float(v.min()), float(v.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    return lo, hi


def histc(x, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """A histogram of ``bins`` equal bins over [min, max] (the data's range if they are
    equal); elements outside are ignored."""
    x = tensor_arg(x)
    if not x.dtype.is_floating:
        kernel = "aminmax_cpu" if x.dtype.is_complex else "histogram_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{x.dtype.scalar_type}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histc: bins must be > 0, but got {bins} for dimension 0")
    v = _eager(x, "histc", "compute it outside the compiled function").reshape(-1)
    lo, hi = _histc_range(v, float(min), float(max))
    kept = v[(v >= lo) & (v <= hi)]
    t = x.dtype.np.type
    pos = ((kept - t(lo)) * t(bins) / (t(hi) - t(lo))).astype(np.int64)
    pos = np.minimum(pos, bins - 1)
    return Tensor(np.bincount(pos, minlength=bins).astype(x.dtype.np), None)


# ---------------------------------------------------------------- searching

def _side(right: bool, side) -> bool:
    """Whether to search on the right (``side="right"`` or ``right=True``)."""
    if side is None:
        return bool(right)
    if side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got "
                           f"{side}")
    if right and side == "left":
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                           "got side of left while right was True")
    return side == "right"


def _bisect(seq, values, right: bool, ops):
    """torch's binary search (``cus_lower_bound``/``cus_upper_bound``): over [start, end),
    mid = start + (end - start) / 2, go right where ``!(seq[mid] >= v)`` (``right``:
    ``!(seq[mid] > v)``). Every value takes the same number of halvings (a finished search
    no longer moves), so NaNs and unsorted rows land where torch's do. ``ops``: NumPy's
    (eager) or the front end's (traced) take, where, comparisons, full."""
    n = seq.shape[-1]
    start, end = ops.full(values, 0), ops.full(values, n)
    for _ in range(int(n).bit_length()):
        mid = start + (end - start) // 2
        at = ops.take(seq, ops.minimum(mid, n - 1))
        go = ops.lnot(at > values) if right else ops.lnot(at >= values)
        active = start < end
        start = ops.where(ops.land(active, go), mid + 1, start)
        end = ops.where(ops.land(active, ops.lnot(go)), mid, end)
    return start


class _NumpyOps:
    full = staticmethod(lambda like, v: np.full(np.shape(like), v, np.int64))
    minimum, where = staticmethod(np.minimum), staticmethod(np.where)
    lnot, land = staticmethod(np.logical_not), staticmethod(np.logical_and)

    def __init__(self, seq):
        self.take = (lambda s, i: s[i]) if seq.ndim == 1 else (
            lambda s, i: np.take_along_axis(s, i, -1))


class _TensorOps:
    full = staticmethod(lambda like, v: full(like, v, dtype=dtypes.int64))
    minimum, where = staticmethod(F.minimum), staticmethod(F.where)
    lnot, land = staticmethod(F.logical_not), staticmethod(F.logical_and)

    def __init__(self, seq):
        self.take = (lambda s, i: F.gather(s, 0, i.reshape(-1)).reshape(tuple(i.shape))) \
            if seq.ndim == 1 else (lambda s, i: F.gather(s, -1, i))


def _check_rows(seq: Tensor, values: Tensor) -> None:
    if seq.ndim > 1 and (values.ndim != seq.ndim or values.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           f"the first N-1 dimensions of boundaries tensor and input value "
                           f"tensor must match, but we got boundaries tensor "
                           f"{list(seq.shape)} and input value tensor {list(values.shape)}")


def _search(seq: Tensor, values: Tensor, right: bool) -> Tensor:
    _check_rows(seq, values)
    if seq.is_traced or values.is_traced:
        with grad_mode.no_grad():
            return _bisect(seq, values, right, _TensorOps(seq))
    s, v = seq._value, values._value
    if s.ndim == 1 and bool(np.all(s[1:] >= s[:-1])):   # sorted, no NaN: one answer
        return _long(np.searchsorted(s, v, side="right" if right else "left"))
    return _long(_bisect(s, v, right, _NumpyOps(s)))   # (comparisons with NaN do not warn)


def searchsorted(sorted_sequence, values, *, out_int32: bool = False, right: bool = False,
                 side=None, sorter=None) -> Tensor:
    """Where each value would be inserted to keep ``sorted_sequence`` (sorted along its last
    dim, per row for the leading dims) sorted: the first such place, or the last if
    ``right``."""
    seq = tensor_arg(sorted_sequence)
    if not isinstance(values, Tensor):   # a Python number: a 0-d result, as torch's
        if seq.ndim != 1:
            raise RuntimeError("torch.searchsorted(): input value can be a scalar only when "
                               "boundaries tensor dimension is 1, but we got boundaries "
                               f"tensor dim({seq.ndim})")
        values = tensor_arg(values).to(seq.dtype) if isinstance(values, (int, float)) else values
    vals = tensor_arg(values)
    if sorter is not None:
        seq = F.gather(seq, -1, tensor_arg(sorter))
    if seq.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           "more, but got a 0-d tensor")
    return _index_dtype(_search(seq, vals, _side(right, side)), out_int32)


def _index_dtype(found: Tensor, out_int32: bool) -> Tensor:
    return found.to(dtypes.int32) if out_int32 else found


def bucketize(input, boundaries, *, out_int32: bool = False,
              right: bool = False) -> Tensor:
    """The bucket of each element given the sorted 1-D ``boundaries``: i with
    boundaries[i-1] < x <= boundaries[i] (``right``: boundaries[i-1] <= x < boundaries[i])."""
    b = tensor_arg(boundaries)
    if b.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({b.ndim})")
    return _index_dtype(_search(b, tensor_arg(input), bool(right)), out_int32)


def where(condition, input=None, other=None):  # noqa: A002  (torch's names)
    """torch.where: ``where(condition, input, other)`` picks elementwise; the one-argument
    ``where(condition)`` is ``nonzero(condition, as_tuple=True)`` (eager only: its shape
    depends on the data)."""
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("where() expects either one argument (condition) or three "
                        "(condition, input, other)")
    return F.where(condition, input, other)


__all__ = ["where", "nonzero", "argwhere", "unique", "unique_consecutive", "bincount", "histc",
           "searchsorted", "bucketize"]
METHODS = {name: globals()[name] for name in ("nonzero", "argwhere", "unique",
                                              "unique_consecutive", "bincount", "histc")}
