"""torch's memory-layout surface: ``stride()``, ``storage_offset()``, ``is_contiguous()``,
``contiguous()``, ``clone(memory_format=)``, ``as_strided`` (the memory formats are
``formats``'s).

Layer: front end, above ``core.layout`` (the stride model) and ``shapes``. Input: tensors.
Output: what torch reports about their layout, and tensors laid out as asked. A layout is
metadata here (see ``core.layout``): values are the same whatever it is, and only what torch
lets a program observe of it is modelled -- strides, contiguity, which reshapes are views.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...formats import channels_last, contiguous_format, memory_format, preserve_format
from ..core import layout, lazy
from ..core.apply import apply, attach_function
from ..core.tensor import Tensor
from .basic import gather_along
from .basic import where as where_
from .shapes import reshape


def stride(self: Tensor, dim: int | None = None):
    """The strides (elements) torch would give this tensor, or the one of ``dim``."""
    st = layout.strides(self)
    if dim is None:
        return st
    if not -max(self.ndim, 1) <= dim < max(self.ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(self.ndim, 1)}, {max(self.ndim, 1) - 1}], but got {dim})")
    return st[dim] if self.ndim else 1


def storage_offset(self: Tensor) -> int:
    return layout.storage_offset(self)


def is_contiguous(self: Tensor, memory_format: memory_format = contiguous_format) -> bool:
    """Row-major (or, for ``channels_last``, channels fastest) in torch's layout."""
    if memory_format is channels_last:
        return self.ndim == 4 and _in_format(self, channels_last)
    return layout.is_contiguous(self)


def _in_format(t: Tensor, fmt: memory_format) -> bool:
    want = layout.channels_last_strides(tuple(t.shape))
    return all(n == 1 or a == b for n, a, b in zip(t.shape, layout.strides(t), want))


def contiguous(self: Tensor, memory_format: memory_format = contiguous_format) -> Tensor:
    """The tensor itself if laid out so already, else a copy that is (CloneBackward0)."""
    if is_contiguous(self, memory_format):
        return self
    return clone(self, memory_format=memory_format)


def clone(x: Tensor, *, memory_format: memory_format = preserve_format) -> Tensor:
    """A copy (not a view); its backward passes the cotangent through and reads nothing, so
    the copy may be changed in place (``x.clone().mul_(x)``). Its layout is ``x``'s where that
    is dense (``preserve_format``), else row-major, or the format asked for."""
    # (a captured step's result, pending or recorded: a copy op of the step, the same
    # node torch shows; its value is not read)
    step = lazy.in_step(x)
    out = apply("cast", x, dtype=x.dtype, _torch_name="CloneBackward0") if step else \
        Tensor(x._value.copy(), None) if x._value is not None else Tensor(None, x._node)
    shape = tuple(x.shape)
    if memory_format is channels_last and x.ndim == 4:
        out._strides = layout.channels_last_strides(shape)
    elif memory_format is preserve_format:
        st = layout.strides(x)
        if layout.dense(shape, st) and not layout.contiguous_in(shape, st):
            out._strides = st
    if step:
        return out
    return attach_function(out, "CloneBackward0", lambda g, o, ins: (g,), [x], saves=False,
                           uses_out=False)


def as_strided(x: Tensor, size: Any, stride: Any, storage_offset: int | None = None) -> Tensor:
    """The elements of ``x``'s storage at ``offset + sum(i_k * stride_k)``, as torch's
    ``as_strided`` shows them (a copy here, not a view: changing it in place does not reach
    ``x``). The storage is that of the tensor ``x`` views, laid out as torch would."""
    size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(stride)}")
    root, st, base_offset = _storage(x)
    offset = base_offset if storage_offset is None else int(storage_offset)
    where = layout.offsets(size, stride) + offset
    extent = root.numel()
    if where.size and (where.min() < 0 or where.max() >= extent):
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                           f"offset {offset}, and itemsize {x.dtype.itemsize} requiring a "
                           f"storage size of {(int(where.max()) + 1) * x.dtype.itemsize} are "
                           f"out of bounds for storage of size {extent * x.dtype.itemsize}")
    picked = _read(x, root, st, where.reshape(-1))
    out = apply("reshape", picked, shape_to=size, _torch_name="AsStridedBackward0")
    out._strides = stride
    layout.set_storage_offset(out, offset)
    return out


def _storage(x: Tensor) -> tuple:
    """The tensor whose storage ``x`` shows (the root of its views), that root's strides, and
    ``x``'s offset into it."""
    root = x
    while root._view is not None:
        root = root._view[0]
    return root, layout.strides(root), layout.storage_offset(x)


def _read(x: Tensor, root: Tensor, st: tuple, where: np.ndarray) -> Tensor:
    """The storage elements at ``where``, read from the tensor whose gradient they take: the
    root of ``x``'s views, unless a view on the way was made a leaf (``requires_grad_()`` on
    a view of a tensor that does not require grad), whose elements then give theirs."""
    holder = x
    while holder._view is not None and not (holder._requires_grad and holder.grad_fn is None):
        holder = holder._view[0]
    if holder is not root:
        own = layout.offsets(tuple(holder.shape), layout.strides(holder)).reshape(-1)
        slot = np.full(root.numel(), -1, np.int64)
        slot[own + layout.storage_offset(holder)] = np.arange(own.size)
        inside = slot[where]
        if (inside >= 0).any():
            own_values = gather_along(reshape(holder, -1), Tensor(np.maximum(inside, 0), None), 0)
            if (inside >= 0).all():
                return own_values
            rest = gather_along(_flat_storage(root, st), Tensor(where, None), 0)
            return where_(Tensor(inside >= 0, None), own_values, rest)
    return gather_along(_flat_storage(root, st), Tensor(where, None), 0)


def _flat_storage(root: Tensor, st: tuple) -> Tensor:
    """``root``'s elements in storage order (1-D)."""
    flat = reshape(root, -1)
    if layout.contiguous_in(tuple(root.shape), st):
        return flat
    order = layout.offsets(tuple(root.shape), st).reshape(-1)
    slots = np.empty_like(order)
    slots[order] = np.arange(order.size)
    return gather_along(flat, Tensor(slots, None), 0)


__all__ = ["as_strided"]
METHODS = {"stride": stride, "storage_offset": storage_offset, "is_contiguous": is_contiguous,
           "contiguous": contiguous, "clone": clone, "as_strided": as_strided}
