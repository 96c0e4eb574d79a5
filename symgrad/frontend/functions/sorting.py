"""torch-named sorting: sort, argsort, msort, topk, kthvalue, median, nanmedian, mode,
quantile, nanquantile.

Layer: front end. Input: tensors. Output: values and int64 indices, as torch's named tuples.
The order is found eagerly with NumPy's stable sort (``stable=True`` or not: torch's CPU sort
is stable for these too; NaN sorts last in ascending order, as in torch); the values are then a
``gather`` of the input at those indices, so their gradient is ``gather``'s (the cotangent goes
back to the positions it came from). Inside a compiled function sort, argsort, msort, topk,
kthvalue and median take the order from the ``argsort`` primitive (``ops.sorting``: the same
stable order and NaN placement, computed by the compiled C); kthvalue and median there pick the
first of equal values in that stable order, which may differ from the index torch's selection
(the eager path) finds among ties (the value is the same). mode there counts the runs of equal
values in that order: the smallest of the most frequent values and its last occurrence, as
torch's (whose sort keeps equal values in order in rows of up to 16; beyond, torch may return
another of their indices). nanmedian and the quantiles are built on sort: they compile too.
"""

from __future__ import annotations

import numpy as np

from ...ops.registry import nonempty_axes, normalize_axes
from ..core import grad_mode
from ..core.apply import apply, full
from ... import dtypes
from .basic import composite, gather_along, linear_composite, where
from .pointwise import lerp
from .printing import return_type
from .shapes import cat, squeeze
from .torch_nodes import picked
from ..core.tensor import Tensor, tracer_error

SortResult = return_type("sort")
TopkResult = return_type("topk")
KthResult = return_type("kthvalue")
MedianResult = return_type("median")
ModeResult = return_type("mode")
NanMedianResult = return_type("nanmedian")


def _order(x: Tensor, dim: int, descending: bool) -> tuple[np.ndarray, int]:
    if x.is_traced:
        raise tracer_error("order (sort, argsort, topk, kthvalue, median need the values)")
    axis = normalize_axes(dim, max(x.ndim, 1))[0]
    v = x._value if x.ndim else x._value.reshape(1)
    if descending:
        # stable descending with NaN first, as torch: sort the negated keys (NaN stays NaN)
        keys = -v if x.dtype.is_floating else ~v   # ~v: integers without overflow
        order = np.argsort(keys, axis=axis, kind="stable")
        nan_first = np.isnan(v) if x.dtype.is_floating else None
        if nan_first is not None and nan_first.any():
            order = np.argsort(np.where(np.isnan(v), -np.inf, keys), axis=axis, kind="stable")
            order = _nan_first(v, order, axis)
    else:
        order = np.argsort(v, axis=axis, kind="stable")
    return order.astype(np.int64), axis


def _traced_order(x: Tensor, dim: int, descending: bool, start: int = 0,
                  stop: int | None = None) -> tuple[Tensor, int]:
    """Compiled: positions ``start:stop`` of the stable order along ``dim`` (the ``argsort``
    primitive, sliced along the axis), and the axis. A 0-d ``x`` is sorted as one element."""
    axis = normalize_axes(dim, max(x.ndim, 1))[0]
    src = x if x.ndim else x.reshape(1)
    order = apply("argsort", src, axis=axis, descending=bool(descending))
    if start or stop is not None:
        order = order[(slice(None),) * axis + (slice(start, stop),)]
    return order, axis


def _nan_first(v: np.ndarray, order: np.ndarray, axis: int) -> np.ndarray:
    """Move the NaNs' positions to the front of each sorted row, keeping their order."""
    isnan = np.take_along_axis(np.isnan(v), order, axis)
    moved = np.argsort(~isnan, axis=axis, kind="stable")
    return np.take_along_axis(order, moved, axis)


def _take(x: Tensor, idx: np.ndarray | Tensor, axis: int, torch_name: str,
          keepdim: bool = True) -> Tensor:
    """The values of ``x`` at ``idx`` along ``axis`` (the dim dropped unless ``keepdim``; a
    0-d ``x`` gives a 0-d result), as one node named ``torch_name`` (SortBackward0...)."""
    index = idx if isinstance(idx, Tensor) else Tensor(idx, None)
    shape = tuple(index.shape)
    if not x.ndim:
        shape = ()
    elif not keepdim:
        shape = shape[:axis] + shape[axis + 1:]
    return picked(torch_name, x, index, axis, shape)


def sort(x: Tensor, dim: int = -1, descending: bool = False, stable: bool | None = None):
    """Values sorted along ``dim`` and the indices they came from (``stable`` given: torch's
    ``sort.stable`` overload, whose node is SortBackward1)."""
    name = "SortBackward0" if stable is None else "SortBackward1"
    if x.is_traced:
        order, axis = _traced_order(x, dim, descending)
        return SortResult(_take(x, order, axis, name), order if x.ndim else order.reshape(()))
    order, axis = _order(x, dim, descending)
    idx = order if x.ndim else order.reshape(())
    return SortResult(_take(x, order, axis, name), Tensor(idx, None))


def argsort(x: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    if x.is_traced:
        order, _ = _traced_order(x, dim, descending)
        return order if x.ndim else order.reshape(())
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
    k = k if x.ndim else 1   # torch's topk of a 0-d tensor: its value, for k 0 or 1
    if x.is_traced:
        idx, axis = _traced_order(x, dim, largest, 0, k)
        return TopkResult(_take(x, idx, axis, "TopkBackward0"), idx)
    order, axis = _order(x, dim, largest)
    idx = np.take(order, np.arange(k), axis=axis)
    values = _take(x, idx, axis, "TopkBackward0")
    if values.shape == () and idx.size == 1:     # a 0-d input: 0-d indices, as torch's
        idx = idx.reshape(())
    return TopkResult(values, Tensor(idx, None))


def _above(a, b) -> bool:
    """a > b, NaN above every number (the order torch's selection uses)."""
    return (a != a and b == b) or a > b


def _select(row: list, k: int) -> int:
    """The position in ``row`` of its ``k``-th smallest value (0-based) as found by a
    median-of-three quickselect with Hoare partitioning, the selection torch's CPU kthvalue
    runs: which of several equal values it lands on is that algorithm's (checked against
    torch on thousands of rows with ties)."""
    arr, pos = list(row), list(range(len(row)))

    def swap(i, j):
        arr[i], arr[j], pos[i], pos[j] = arr[j], arr[i], pos[j], pos[i]

    lo, hi = 0, len(arr) - 1
    while hi > lo + 1:
        mid = lo + (hi - lo) // 2
        swap(mid, lo + 1)
        for a, b in ((lo + 1, hi), (lo, hi), (lo + 1, lo)):   # the pivot: median of three
            if _above(arr[a], arr[b]):
                swap(a, b)
        i, j, pivot = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while _above(pivot, arr[i]):
                i += 1
            j -= 1
            while _above(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        lo, hi = (i if j <= k else lo), (j - 1 if j >= k else hi)
    if hi == lo + 1 and _above(arr[lo], arr[hi]):
        swap(lo, hi)
    return pos[k]


def _kth_indices(x: Tensor, k: int, axis: int) -> np.ndarray:
    """Index of the k-th smallest along ``axis``, kept as a size-1 dim: from the stable sort,
    except in slices holding equal values, where torch's selection decides which one."""
    v = x._value if x.ndim else x._value.reshape(1)
    order, _ = _order(x, axis, False)
    idx = np.take(order, [k - 1], axis=axis)
    rows = np.moveaxis(v, axis, -1).reshape(-1, v.shape[axis])
    out = np.moveaxis(idx, axis, -1).reshape(-1)
    for r, row in enumerate(rows):
        if len(np.unique(row)) < len(row):
            out[r] = _select(row.tolist(), k - 1)
    shape = np.moveaxis(idx, axis, -1).shape
    return np.moveaxis(out.reshape(shape), -1, axis)


def kthvalue(x: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """The ``k``-th smallest value along ``dim`` (1-based) and its index (among equal values,
    the one torch's selection algorithm finds; in compiled code, the first in the stable
    order: the same value, maybe another of the equal values' indices)."""
    axis = normalize_axes(dim, max(x.ndim, 1))[0]
    n = x.shape[axis] if x.ndim else 1
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {axis}")
    if x.is_traced:
        idx, _ = _traced_order(x, axis, False, k - 1, k)
        indices = idx if x.ndim else idx.reshape(())
    else:
        idx = _kth_indices(x, k, axis)
        indices = Tensor(idx if x.ndim else idx.reshape(()), None)
    values = _take(x, idx, axis, "KthvalueBackward0", keepdim)
    if not keepdim and x.ndim:
        indices = squeeze(indices, axis)
    return KthResult(values, indices)


def median(x: Tensor, dim: int | None = None, keepdim: bool = False):
    """The lower median (torch's: the ``(n-1)//2``-th smallest), over all elements or along
    ``dim`` with its index (among equal values, as ``kthvalue``: in compiled code the first
    in the stable order); NaN where there is one, at the first NaN's index, as torch."""
    if dim is None and not x.numel():
        return _nan_of_none("MedianBackward0", x)
    if dim is None:
        flat = x.reshape(-1)
        at = _median_index(flat, 0)
        return composite("MedianBackward0",
                         lambda v: gather_along(v.reshape(-1), at, 0).reshape(()), [x],
                         _evenly, holomorphic=False)
    src = x if x.ndim else x.reshape(1)
    axis = normalize_axes(dim, src.ndim)[0]
    at = _median_index(src, axis)
    if not x.ndim or not keepdim:
        shape = x.shape if not x.ndim else squeeze(at, axis).shape
    else:
        shape = at.shape
    values = linear_composite("MedianBackward1", lambda v: gather_along(
        v if v.ndim else v.reshape(1), at, axis).reshape(shape), [x])
    return MedianResult(values, at.reshape(shape))


def _evenly(g: Tensor, out: Tensor, ins: list) -> tuple:
    """The median of all elements' rule, torch's: the cotangent shared evenly among the
    elements equal to the median (the NaNs, if it is NaN)."""
    x = ins[0]
    hit = where(out.isnan(), x.isnan(), x == out)
    return (where(hit, g / hit.sum(), full(g, 0, ())),)


def _nan_of_none(torch_name: str, x: Tensor) -> Tensor:
    """The median of no elements: NaN, as torch's (its gradient: the empty one)."""
    return composite(torch_name, lambda v: v.sum() + float("nan"), [x])


def _median_index(x: Tensor, axis: int) -> Tensor:
    """The index of the lower median along ``axis`` (kept, size 1), or of the first NaN."""
    r = kthvalue(x, (x.shape[axis] - 1) // 2 + 1, axis, keepdim=True)
    nan = x.isnan()
    first_nan = nan.to(dtypes.int64).argmax(axis, keepdim=True)
    return where(nan.any(axis, keepdim=True), first_nan, r.indices)


def nanmedian(x: Tensor, dim: int | None = None, keepdim: bool = False):
    """The lower median of the values that are not NaN (NaN if all are): the sort puts NaN
    last, so it is the sorted value at (valid - 1) // 2. Tensor ops: it compiles."""
    if dim is None and not x.numel():
        return _nan_of_none("NanmedianBackward0", x)
    src = x.reshape(-1) if dim is None else (x if x.ndim else x.reshape(1))
    axis = 0 if dim is None else normalize_axes(dim, src.ndim)[0]
    with grad_mode.no_grad():
        ordered = sort(src, axis)
    valid = src.isnan().logical_not().sum(axis, keepdim=True)
    k = (valid - 1).clamp(min=0) // 2
    indices = gather_along(ordered.indices, k, axis)
    if dim is None:
        return composite("NanmedianBackward0", lambda v: gather_along(
            v.reshape(-1), indices, 0).reshape(()), [x], _evenly, holomorphic=False)
    values = _take(x, indices, axis, "NanmedianBackward1", keepdim)
    if not x.ndim:
        return NanMedianResult(values, indices.reshape(()))
    if not keepdim:
        indices = squeeze(indices, axis)
    return NanMedianResult(values, indices)


def _mode_index(row: np.ndarray) -> int:
    """Index of the most frequent value (the smallest among ties), its last occurrence."""
    values, counts = np.unique(row, return_counts=True)
    best = values[np.argmax(counts)]                    # argmax: the first, i.e. smallest
    return int(np.flatnonzero(row == best)[-1])


def _traced_mode_index(x: Tensor, axis: int) -> Tensor:
    """Compiled: ``_mode_index`` along ``axis`` (kept, size 1) from the stable order: the
    sorted values' runs of equal values (NaN equal to nothing), the first longest run (the
    smallest value), its last position (the last occurrence: the order is stable)."""
    order, _ = _traced_order(x, axis, False)
    with grad_mode.no_grad():
        ordered = gather_along(x if x.ndim else x.reshape(1), order, axis).movedim(axis, -1)
        starts = cat([full(ordered[..., :1], True, dtype=dtypes.bool_),
                      ordered[..., 1:] != ordered[..., :-1]], -1)
        run = starts.to(dtypes.int64).cumsum(-1) - 1          # each position's run number
        counts = apply("scatter_add", full(run, 1), run, axis=run.ndim - 1,
                       shape_to=tuple(run.shape))               # each run's length
        longest = counts.argmax(-1, keepdim=True)               # the first: smallest value
        last = gather_along(counts.cumsum(-1) - 1, longest, -1)  # its last sorted position
    return gather_along(order.movedim(axis, -1), last, -1).movedim(-1, axis)


def mode(x: Tensor, dim: int = -1, keepdim: bool = False):
    """The most frequent value along ``dim`` (the smallest if several are) and the index of
    its last occurrence, as torch's CPU mode (whose sort is stable up to 16 values: beyond,
    among equal values torch may return another's index, the value being the same)."""
    axis = normalize_axes(dim, max(x.ndim, 1))[0]
    nonempty_axes("mode", x.shape, (axis,) if x.ndim else ())
    if not x.numel():   # no rows: empty values and indices
        shape = tuple(1 if d == axis and keepdim else n for d, n in enumerate(x.shape)
                      if d != axis or keepdim)
        return ModeResult(composite("ModeBackward0", lambda v: v.sum(axis, keepdim), [x]),
                          Tensor(np.zeros(shape, np.int64), None))
    if x.is_traced:
        idx = _traced_mode_index(x, axis)
        indices = idx if x.ndim else idx.reshape(())
    else:
        v = x._value if x.ndim else x._value.reshape(1)
        idx = np.expand_dims(np.apply_along_axis(_mode_index, axis, v), axis).astype(np.int64)
        indices = Tensor(idx if x.ndim else idx.reshape(()), None)
    values = _take(x, idx, axis, "ModeBackward0", keepdim)
    if not keepdim and x.ndim:
        indices = squeeze(indices, axis)
    return ModeResult(values, indices)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _q_values(x: Tensor, q) -> np.ndarray:
    """The quantile levels as float64 (checked: torch's errors). q is data, not a traced
    value: it decides the output's shape."""
    if isinstance(q, Tensor) and q.dtype is not x.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if isinstance(q, Tensor) and (q.ndim > 1 or q.is_traced):
        raise RuntimeError("quantile() q must be a scalar or 1D tensor"
                           + (" of known values" if q.ndim <= 1 else ""))
    qv = np.asarray(q._value if isinstance(q, Tensor) else q, dtype=np.float64).reshape(-1)
    if np.any((qv < 0) | (qv > 1)) or np.any(np.isnan(qv)):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    return qv


def _positions(ranks: Tensor, interpolation: str):
    """The lower and upper sorted positions (int64) of the quantiles at ``ranks``, and the
    weight between them (None: no interpolation), computed as torch does."""
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    lower = ranks.long()
    if interpolation not in ("linear", "midpoint"):
        return lower, lower, None
    weight = full(ranks, 0.5) if interpolation == "midpoint" else ranks - lower
    return lower, ranks.ceil().long(), weight


def _quantile(x: Tensor, q, dim, keepdim: bool, interpolation: str, ignore_nan: bool):
    """Sort, then interpolate between the sorted values at the ranks q * (n - 1), n the count
    of values (not NaN, for nanquantile): tensor ops throughout, so it compiles."""
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"quantile() interpolation must be one of {', '.join(_INTERPOLATIONS)}"
                           f". Got {interpolation}")
    if not x.dtype.is_floating:
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if not x.numel():
        raise RuntimeError("quantile() input tensor must be non-empty")
    qv = _q_values(x, q)
    flat = dim is None
    src = x.reshape(-1) if flat else (x if x.ndim else x.reshape(1))
    axis = 0 if flat else normalize_axes(dim, src.ndim)[0]
    ordered = sort(src, axis).values.movedim(axis, -1)             # NaN last
    nans = src.isnan().sum(axis)                                    # int64 per slice
    n = ordered.shape[-1]
    levels = q if isinstance(q, Tensor) else Tensor(qv.astype(x.dtype.np), None)
    levels = levels.reshape((-1,) + (1,) * nans.ndim)
    if ignore_nan:   # ranks among the values that are not NaN (0 if all are)
        ranks = levels * (nans.neg() + (n - 1)).to(x.dtype)
        ranks = where(ranks < 0, 0.0, ranks)
    else:            # any NaN in a slice: its quantiles are NaN (the last sorted value)
        ranks = where(nans > 0, float(n - 1), levels * float(n - 1))
    # in the input's dtype, as torch computes them: then q gets its gradient (the weight's)
    lower, upper, weight = _positions(ranks, interpolation)
    rows = ordered.unsqueeze(0).expand((len(qv),) + tuple(ordered.shape))
    out = gather_along(rows, lower.unsqueeze(-1), rows.ndim - 1)
    if weight is not None:
        above = gather_along(rows, upper.unsqueeze(-1), rows.ndim - 1)
        out = lerp(out, above, weight.unsqueeze(-1))
    if not keepdim:
        kept = tuple(ordered.shape[:-1])
    else:
        kept = tuple(1 if flat or i == axis else n for i, n in enumerate(x.shape))
    lead = (len(qv),) if isinstance(q, Tensor) and q.ndim else ()
    return apply("reshape", out, shape_to=lead + kept, _torch_name="SqueezeBackward4")


def quantile(x: Tensor, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear"):
    """The ``q``-th quantiles (a number or a 1-D tensor, prepended as the first dim) along
    ``dim`` or of all elements, interpolated as torch (NaN in a slice makes it NaN)."""
    return _quantile(x, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(x: Tensor, q, dim=None, keepdim: bool = False, *,
                interpolation: str = "linear"):
    """``quantile`` of the values that are not NaN."""
    return _quantile(x, q, dim, keepdim, interpolation, ignore_nan=True)


__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "mode",
           "quantile", "nanquantile"]
METHODS = {name: globals()[name] for name in __all__}
