"""torch's indexing by flat (row-major) positions: ``take``, ``put`` (and ``put_``) and
``unravel_index``.

Layer: front end (functions). Input: a tensor and an int64 index tensor of any shape
(negative positions count from the end), for ``put`` the values and ``accumulate``.
Output: ``take``: the elements at the positions, shaped as the index (``TakeBackward0``);
``put``: the tensor with those elements replaced (or, ``accumulate``, added to;
``PutBackward0``); ``unravel_index``: the coordinates of flat positions in a shape, as
torch's Python implementation computes them (floor division by the strides, then the
remainder by the sizes: no bounds check). Positions out of range are torch's IndexError
(checked on eager values). Where a position repeats without ``accumulate``, the last value
written wins, as in torch's CPU loop (traced, where positions are not known: they add up).
"""

from __future__ import annotations

import itertools
import operator

from ... import dtypes
from ..core.apply import apply, as_tensor, full
from ..core.tensor import Tensor
from . import basic as F
from .basic import composite
from .inplace import update
from .manipulation import unbind
from .shapes import reshape, unsqueeze


def _positions(name: str, x: Tensor, index) -> Tensor:
    """The index as flat, non-negative positions into ``x`` (torch's checks)."""
    if not isinstance(index, Tensor):
        raise TypeError(f"{name}(): argument 'index' (position 2) must be Tensor, not "
                        f"{type(index).__name__}")
    if index.dtype is not dtypes.int64:
        raise RuntimeError(f"{name}(): Expected a long tensor for index, but got "
                           f"{index.dtype.scalar_type}")
    n = x.numel()
    if n == 0 and index.numel() > 0:
        raise IndexError(f"{name}(): tried to {name[:-1] if name.endswith('_') else name} "
                         f"from an empty tensor" if name == "take" else
                         f"{name}(): Tried to put elements into an empty tensor")
    values = index.concrete
    if values is not None and values.size:
        bad = values[(values < -n) | (values >= n)]
        if bad.size:
            raise IndexError(f"out of range: tried to access index {int(bad[0])} on a tensor "
                             f"of {n} elements.")
    flat = reshape(index, (-1,))
    return F.where(F.lt(flat, 0), flat + n, flat)


def take(input, index) -> Tensor:  # noqa: A002
    """``input.flatten()[index]``, shaped as ``index``."""
    x = as_tensor(input) if not isinstance(input, Tensor) else input
    flat = _positions("take", x, index)
    shape = tuple(index.shape)

    def body(a):
        return reshape(apply("gather", reshape(a, (-1,)), flat, axis=0), shape) \
            if flat.numel() else full(a, 0, shape)

    def rule(g, out, ins):   # torch's: zeros.put_(index, grad, accumulate=True)
        n = ins[0].numel()
        return (reshape(apply("scatter_add", reshape(g, (-1,)), flat, axis=0, shape_to=(n,)),
                        tuple(ins[0].shape)),)
    return composite("TakeBackward0", body, [x], rule, saves=False, uses_out=False)


def put(input, index, source, accumulate: bool = False) -> Tensor:  # noqa: A002
    """``input`` with the elements at flat ``index`` set to ``source`` (``accumulate``:
    added to)."""
    x = input
    if not isinstance(source, Tensor):
        raise TypeError(f"put(): argument 'source' (position 3) must be Tensor, not "
                        f"{type(source).__name__}")
    flat = _positions("put_", x, index)
    if source.numel() != flat.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, "
                         f"index.numel() = {flat.numel()}")
    if source.dtype is not x.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {x.dtype.scalar_type} and source.dtype = "
                           f"{source.dtype.scalar_type}")
    n, shape = x.numel(), tuple(x.shape)
    target = flat
    if not accumulate and flat.concrete is not None:   # the last write to a place wins
        last = _last_writes(flat.concrete)
        target = apply("gather", flat, as_tensor(last, dtypes.int64), axis=0)
    hit = apply("scatter_add", full(target, 1), target, axis=0, shape_to=(n,)) != 0

    def body(a, s):
        v = reshape(s, (-1,))
        if target is not flat:
            v = apply("gather", v, as_tensor(last, dtypes.int64), axis=0)
        added = apply("scatter_add", v, target, axis=0, shape_to=(n,))
        old = reshape(a, (-1,))
        return reshape(old + added if accumulate else F.where(hit, added, old), shape)

    def rule(g, out, ins):   # torch's: grad.index_put(index, 0) (or grad); grad.take(index)
        g_flat = reshape(g, (-1,))
        kept = g if accumulate else reshape(F.where(hit, 0.0, g_flat), shape)
        return kept, reshape(apply("gather", g_flat, flat, axis=0), tuple(ins[1].shape))
    return composite("PutBackward0", body, [x, source], rule, saves=False, uses_out=False)


def _last_writes(positions) -> list:
    """Which entries of ``positions`` are the last to name their place (torch's CPU loop
    writes them in order)."""
    seen, keep = set(), []
    for k in range(len(positions) - 1, -1, -1):
        if int(positions[k]) not in seen:
            seen.add(int(positions[k]))
            keep.append(k)
    return keep[::-1]


def _put_(self: Tensor, index, source, accumulate: bool = False) -> Tensor:
    return update(self, lambda s: put(s, index, source, accumulate), "put_")


def unravel_index(indices, shape) -> tuple:
    """The coordinates of flat ``indices`` in ``shape``: one int64 tensor per dim."""
    if not isinstance(indices, Tensor):
        indices = as_tensor(indices)
    if not indices.dtype.is_integer:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    if not shape:
        return ()
    strides = list(reversed(list(itertools.accumulate(reversed(shape[1:] + (1,)),
                                                      operator.mul))))
    coords = apply("floor_divide", unsqueeze(indices.to(dtypes.int64), -1),
                   as_tensor(strides, dtypes.int64))
    return unbind(apply("remainder", coords, as_tensor(list(shape), dtypes.int64)), -1)


__all__ = ["take", "put", "unravel_index"]
METHODS = {"take": take, "put": put, "put_": _put_}
