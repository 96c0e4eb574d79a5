"""Strides: where torch would store each element of a tensor, as metadata.

Layer: front end, above ``tensor``. Input: a tensor (eager or traced) and the chain of views
that made it (``Tensor._view``: reshape, permute, expand, slice of a base, or an alias).
Output: torch's ``stride()``, ``storage_offset()``, ``is_contiguous()`` and the rules that
depend on them: whether ``view`` can show a tensor in a new shape (``view_strides``), and the
layout torch gives the result of an elementwise op (``elementwise_strides``).

symgrad's values are NumPy arrays (or graph nodes) whose own memory layout is an
implementation detail; the layout torch would use is computed here from torch's rules, the
same way eagerly and at trace time, so that a program branching on ``is_contiguous()`` or
relying on ``view`` raising takes the same path in both. A tensor that is not a view has the
layout it was created with: contiguous, unless an elementwise op or a ``clone`` kept the
layout of a non-contiguous operand, as torch's TensorIterator does (``Tensor._strides``); a
view's layout follows from its base's and is cached there once computed (a base's layout
never changes: in-place updates write values only).

Shapes with call-time sizes (shape-generic traces) are taken as contiguous: their strides are
not numbers, and nothing in such a trace can depend on them.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from ...dims import Dim
from ...size import contiguous_strides
from .tensor import Tensor


def _numeric(shape: tuple) -> bool:
    return Dim not in map(type, shape)    # (Dim has no subclasses: a C loop, no generator)


def strides(t: Tensor) -> tuple:
    """``t.stride()``: its own layout's, or from its base's through the view that made it."""
    if t._strides is not None:
        return t._strides
    if t._view is None or not _numeric(t.shape):
        return contiguous_strides(t.shape)
    base, op, attrs = t._view
    got = _through_view(base, op, attrs, t.shape)
    t._strides = got
    return got


# The offsets given explicitly (``as_strided``): id -> (weak reference, offset); an entry
# leaves with its tensor (tensors compare elementwise, so they cannot be dictionary keys).
_OFFSETS: dict = {}


def set_storage_offset(t: Tensor, offset: int) -> None:
    key = id(t)
    _OFFSETS[key] = (weakref.ref(t, lambda _: _OFFSETS.pop(key, None)), offset)


def storage_offset(t: Tensor) -> int:
    """``t.storage_offset()``: the position of its first element in its root's storage."""
    given = _OFFSETS.get(id(t))
    if given is not None and given[0]() is t:
        return given[1]
    if t._view is None:
        return 0
    base, op, attrs = t._view
    below = storage_offset(base)
    if op == "slice":
        return below + sum(start * s for start, s in zip(attrs["starts"], strides(base)))
    if op in REAL_UNITS:      # a part of complex storage: counted in real numbers
        return 2 * below + (op == "imag")
    return below


REAL_UNITS = ("real", "imag", "view_as_real")   # views of complex storage as real numbers


def _through_view(base: Tensor, op: str, attrs: dict, shape: tuple) -> tuple:
    old = strides(base)
    if op == "alias":
        return old
    if op in REAL_UNITS:
        return tuple(2 * s for s in old) + ((1,) if op == "view_as_real" else ())
    if op == "permute":
        return tuple(old[d] for d in attrs["perm"])
    if op == "expand":
        lead = len(shape) - base.ndim
        return (0,) * lead + tuple(0 if n != m else s for n, m, s in
                                   zip(base.shape, shape[lead:], old))
    if op == "slice":
        return tuple(s * step for s, step in zip(old, attrs["steps"]))
    got = view_strides(tuple(base.shape), old, tuple(shape))   # reshape
    return got if got is not None else contiguous_strides(shape)


def view_strides(shape: tuple, old: tuple, new_shape: tuple) -> tuple | None:
    """The strides showing a tensor of ``shape`` and strides ``old`` as ``new_shape`` without
    copying, or None if no such strides exist (torch's rule for ``view``). The old dims are
    taken in chunks whose elements are evenly spaced; each chunk must be made of whole new
    dims (size-1 new dims fit anywhere)."""
    if not (_numeric(shape) and _numeric(new_shape)):
        return contiguous_strides(new_shape)
    if not shape:
        return (1,) * len(new_shape)
    if math.prod(shape) == 0:
        return tuple(old) if tuple(shape) == tuple(new_shape) else \
            contiguous_strides(new_shape)
    out = [0] * len(new_shape)
    d = len(new_shape) - 1
    unit, chunk, filled = old[-1], 1, 1
    for k in range(len(shape) - 1, -1, -1):
        chunk *= shape[k]
        if k > 0 and (shape[k - 1] == 1 or old[k - 1] == chunk * unit):
            continue               # dim k-1 continues this evenly spaced chunk
        while d >= 0 and (filled < chunk or new_shape[d] == 1):
            out[d] = filled * unit
            filled *= new_shape[d]
            d -= 1
        if filled != chunk:
            return None
        if k > 0:
            unit, chunk, filled = old[k - 1], 1, 1
    return tuple(out) if d == -1 else None


def is_contiguous(t: Tensor) -> bool:
    return contiguous_in(tuple(t.shape), strides(t))


def contiguous_in(shape: tuple, st: tuple) -> bool:
    """Row-major: each dim of more than one element steps over the dims after it."""
    return not _numeric(shape) or _row_major(shape, st)


def _row_major(shape: tuple, st: tuple) -> bool:
    """``contiguous_in`` of a shape of numbers."""
    if 0 in shape:
        return True
    step = 1
    for n, s in zip(reversed(shape), reversed(st)):
        if n != 1:
            if s != step:
                return False
            step *= n
    return True


def channels_last_strides(shape: tuple) -> tuple:
    """torch.channels_last for a 4-D (N, C, H, W) tensor: C fastest, then W, H, N."""
    n, c, h, w = (max(s, 1) for s in shape)
    return (h * w * c, 1, w * c, c)


def dense(shape: tuple, st: tuple) -> bool:
    """Whether the elements fill a block of memory exactly once (some order of the dims is
    row-major): torch's non-overlapping and dense."""
    if not _numeric(shape):
        return True
    dims = sorted((s, n) for n, s in zip(shape, st) if n != 1)
    step = 1
    for s, n in dims:
        if s != step:
            return False
        step *= n
    return True


def preserve(out: Tensor, like: Tensor) -> Tensor:
    """torch's ``preserve_format`` for ``out``, a new tensor made like ``like``
    (``zeros_like``, ``rand_like``...): ``like``'s strides where they are dense."""
    shape, st = tuple(like.shape), strides(like)
    if _numeric(shape) and dense(shape, st) and not contiguous_in(shape, st):
        out._strides = st
    return out


def permuted_strides(shape: tuple, order: list) -> tuple:
    """Dense strides with the dims laid out in ``order`` (fastest-moving first)."""
    out, step = [0] * len(shape), 1
    for d in order:
        out[d] = step
        step *= max(shape[d], 1)
    return tuple(out)


def elementwise_strides(operands: list, shape: tuple) -> tuple | None:
    # why not split: torch's TensorIterator rule as one read (its cases in its order)
    """The layout torch's TensorIterator gives the result of an elementwise op on
    ``operands`` (tensors broadcast to ``shape``); None for row-major. Operands of the
    result's shape that are all row-major give row-major; all dense with equal strides give
    those; otherwise the dims are ordered by the operands' strides, the first operand that
    tells two dims apart deciding (broadcast dims tell nothing)."""
    if len(shape) < 2 or not _numeric(shape):
        return None
    if _orders_all(operands[0], shape):
        return None
    laid = [(t, strides(t)) for t in operands if t.ndim]
    if 1 not in shape:
        # Operands broadcast from one value (every stride 0 once broadcast: the gradient of
        # a sum or a mean, a scalar expanded) never decide the order below, and no dense
        # operand set holds one; with them, row-major operands give row-major, as alone.
        # (Not where the result has a dim of size 1: there the order compares the strides
        # operands keep for their size-1 dims, as torch's does, and a row-major operand
        # may then order the dims otherwise.)
        # (An operand that is neither: the test below would fail too.)
        for t, s in laid:
            if not (contiguous_in(t.shape, s) or not any(
                    _broadcast_strides(tuple(t.shape), s, shape))):
                break
        else:
            return None
    elif all(contiguous_in(tuple(t.shape), s) for t, s in laid):
        return None
    if all(tuple(t.shape) == tuple(shape) for t, _ in laid):
        first = laid[0][1]
        if all(dense(shape, s) for _, s in laid) and all(s == first for _, s in laid):
            return first
    wide = [_broadcast_strides(tuple(t.shape), s, shape) for t, s in laid]
    order = list(range(len(shape) - 1, -1, -1))
    for i in range(1, len(order)):            # insertion sort of the dims, fastest first
        j = i
        for k in range(i - 1, -1, -1):
            cmp = _compare(order[k], order[j], wide, shape)
            if cmp > 0:
                order[k], order[j] = order[j], order[k]
                j = k
            elif cmp < 0:
                break
    out = permuted_strides(shape, order)
    return None if contiguous_in(shape, out) else out


def _orders_all(first: Tensor, shape: tuple) -> bool:
    """Whether ``elementwise_strides`` is row-major because its first operand says so at once:
    row-major, of the result's shape, no dim of size 1 (every two dims told apart by it)."""
    return first._strides is None and first._view is None and 1 not in shape and \
        tuple(first.shape) == shape


def _broadcast_strides(shape: tuple, st: tuple, to: tuple) -> tuple:
    lead = len(to) - len(shape)
    return (0,) * lead + tuple(0 if n == 1 and m != 1 else s
                               for n, m, s in zip(shape, to[lead:], st))


def _compare(d0: int, d1: int, wide: list, shape: tuple) -> int:
    """Whether dim d0 should move faster than d1 (-1: it should, 1: it should not, 0: no
    operand says), by the first operand whose strides differ there."""
    for st in wide:
        a, b = st[d0], st[d1]
        if a == 0 or b == 0:
            continue
        if a != b:
            return -1 if a < b else 1
        if shape[d0] > shape[d1]:
            return 1
    return 0


def offsets(shape: tuple, st: tuple) -> np.ndarray:
    """Each element's place in memory, ``sum(i_k * stride_k)``, as an int64 array."""
    where = np.zeros(shape, np.int64)
    for d, (n, s) in enumerate(zip(shape, st)):
        where = where + (np.arange(n, dtype=np.int64) * s).reshape(
            (n,) + (1,) * (len(shape) - d - 1))
    return where


def memory_order(t: Tensor) -> np.ndarray | None:
    """The order torch's kernels visit ``t``'s elements in: memory order. None for a
    row-major tensor; else the row-major positions of its elements sorted by their place in
    memory (what random fills follow, so that ``x.T.uniform_()`` draws torch's values)."""
    shape = tuple(t.shape)
    if not _numeric(shape) or is_contiguous(t):
        return None
    return np.argsort(offsets(shape, strides(t)).ravel(), kind="stable")
