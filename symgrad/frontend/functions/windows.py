"""The sliding windows of a dim (``Tensor.unfold``) as primitives: the windows of a tensor,
and the tensor with new values written into its windows.

Layer: front end (functions), above ``core.apply`` only (``inplace`` and ``views_more`` use
it). Input: a tensor and the window attributes ``dim``, ``size``, ``step`` (checked by the
caller). Output: tensors built with gather, reshape, permute, scatter_add and where (so
differentiable, eagerly and traced): the windows (``dim`` becomes the window count, a last dim
of ``size`` is added), or the base with its windows replaced. Windows that overlap share
elements, and writing them is refused: torch writes such memory once per window in turn.
"""

from __future__ import annotations

import numpy as np

from ..core.apply import apply
from ..core.tensor import Tensor


def _picks(n: int, size: int, step: int) -> tuple:
    count = (n - size) // step + 1
    return count, (np.arange(count)[:, None] * step + np.arange(size)[None, :]).reshape(-1)


def _index(shape: tuple, dim: int, picks: np.ndarray) -> Tensor:
    view = [1] * len(shape)
    view[dim] = picks.size
    wide = list(shape)
    wide[dim] = picks.size
    return Tensor(np.ascontiguousarray(np.broadcast_to(picks.reshape(view), wide)), None)


def windows(x: Tensor, dim: int, size: int, step: int) -> Tensor:
    """The windows of ``size`` elements every ``step`` along ``dim`` (0-d: one element)."""
    wide = apply("reshape", x, shape_to=(1,)) if x.ndim == 0 else x
    shape = tuple(wide.shape)
    count, picks = _picks(shape[dim], size, step)
    got = apply("gather", wide, _index(shape, dim, picks), axis=dim)
    if x.ndim == 0:
        return got
    split = shape[:dim] + (count, size) + shape[dim + 1:]
    perm = tuple(k for k in range(len(split)) if k != dim + 1) + (dim + 1,)
    return apply("permute", apply("reshape", got, shape_to=split), perm=perm)


def into_windows(base: Tensor, dim: int, size: int, step: int, value: Tensor) -> Tensor:
    """``base`` with ``value`` (its windows' shape) written into its windows (CopySlices)."""
    shape = tuple(base.shape) or (1,)
    count, picks = _picks(shape[dim], size, step)
    if step < size and count > 1:
        raise NotImplementedError("writing into overlapping windows of unfold (step < size) "
                                  "is not supported by symgrad: torch writes each shared "
                                  "element once per window")
    if base.ndim == 0:
        return apply("reshape", value, shape_to=(), _torch_name="CopySlices")
    split = shape[:dim] + (count, size) + shape[dim + 1:]
    order = tuple(k for k in range(len(split)) if k != dim + 1) + (dim + 1,)
    back = tuple(int(i) for i in np.argsort(order))
    flat = apply("reshape", apply("permute", value, perm=back),
                 shape_to=shape[:dim] + (count * size,) + shape[dim + 1:])
    spread = apply("scatter_add", flat, _index(shape, dim, picks), axis=dim, shape_to=shape)
    hit = np.zeros(shape[dim], np.bool_)
    hit[picks] = True
    view = [1] * len(shape)
    view[dim] = -1
    mask = Tensor(np.broadcast_to(hit.reshape(view), shape).copy(), None)
    return apply("where", mask, spread, base, _torch_name="CopySlices")


__all__ = ["windows", "into_windows"]
