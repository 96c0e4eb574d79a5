"""torch's in-place view methods and writes through views: ``t_ transpose_ swapdims_
swapaxes_ squeeze_ unsqueeze_ as_strided_`` (the tensor itself takes the view's shape and
strides), ``resize_``/``resize_as_``, ``fill_diagonal_`` and the out-of-place scatters into a
view, ``diagonal_scatter select_scatter slice_scatter``.

Layer: front end (functions), above ``inplace``, ``shapes`` and ``strided``. Input: a tensor
and torch's arguments (checked with torch's messages). Output: the same tensor updated (the
in-place methods), or a new tensor (the scatters, composed of clone and a copy into a view
of it, showing torch's grad_fn). A tensor that changes shape in place gets new storage here:
it no longer shows the tensor it viewed, if any (torch's keeps sharing it). ``resize_`` keeps
what the old storage held beyond the new size for a later growth, as torch's storage does;
elements never written (torch: uninitialized memory) are zeros here.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from ...formats import channels_last
from ...size import Size
from ..core import grad_mode, layout, lazy_updates
from ..core.apply import apply, as_tensor
from ..core.tensor import Tensor
from .assorted import select
from .basic import composite
from .inplace import update, update_resizing
from .manipulation import diagonal
from .shapes import squeeze, t, transpose, unsqueeze
from .strided import as_strided, clone

# ---------------------------------------------------------------- views taken in place

# method -> (the view, torch's node for it in place)
IN_PLACE_VIEWS = {"t_": (t, "TBackward1"), "transpose_": (transpose, "TransposeBackward1"),
                  "swapdims_": (transpose, "TransposeBackward1"),
                  "swapaxes_": (transpose, "TransposeBackward1"),
                  "squeeze_": (squeeze, "SqueezeBackward3"),
                  "unsqueeze_": (unsqueeze, "UnsqueezeBackward1"),
                  "as_strided_": (as_strided, "AsStridedBackward1")}


def _view_in_place(name: str):
    view, torch_name = IN_PLACE_VIEWS[name]

    def method(self: Tensor, *args, **kwargs) -> Tensor:
        node = _squeeze_node(args, kwargs) if name == "squeeze_" else torch_name
        if grad_mode.is_grad_enabled() and self._requires_grad and self.grad_fn is None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in "
                               "an in-place operation.")
        with grad_mode.no_grad():
            shown = view(self, *args, **kwargs)      # its shape, strides and offset
        strides, offset = layout.strides(shown), layout.storage_offset(shown)
        update_resizing(self, lambda old: composite(
            node, lambda v: view(v, *args, **kwargs), [old], saves=False,
            uses_out=False), name)
        self._strides = strides
        if offset:
            layout.set_storage_offset(self, offset)
        return self
    method.__name__ = name
    return method


def _squeeze_node(args: tuple, kwargs: dict) -> str:
    """torch's overloads of squeeze_: no dim (3), one dim (4), several (5)."""
    dims = args[0] if args else kwargs.get("dim")
    return "SqueezeBackward3" if dims is None else \
        "SqueezeBackward5" if isinstance(dims, (tuple, list)) else "SqueezeBackward4"


# ---------------------------------------------------------------- resizing

# What a resize left of a tensor's storage beyond its size: id -> (weak reference, elements)
_KEPT: dict = {}


def _storage_values(x: Tensor) -> np.ndarray:
    """The elements of the storage ``x`` shows, from its first one on (1-D)."""
    kept = _KEPT.get(id(x))
    if kept is not None and kept[0]() is x:
        return kept[1]
    root = x
    while root._view is not None:
        root = root._view[0]
    where = layout.offsets(tuple(root.shape), layout.strides(root)).reshape(-1)
    flat = np.zeros(int(where.max()) + 1 if where.size else 0, root.dtype.np)
    flat[where] = np.asarray(root._value).reshape(-1)
    return flat[layout.storage_offset(x):]


def _sizes(size: tuple) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for n in size:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"resize_(): argument 'size' (position 1) must be tuple of ints, "
                            f"not {type(n).__name__}")
    return tuple(size)


@lazy_updates.updates
def resize_(self: Tensor, *size, memory_format=None) -> Tensor:
    """``self`` with ``size``: the first elements of its storage (more storage, zeros, where
    it grows); torch refuses a tensor that requires grad."""
    size = _sizes(size)
    if self._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{min(size)}: {list(size)}")
    if memory_format is channels_last and len(size) != 4:
        raise RuntimeError("required rank 4 tensor to use channels_last format")
    if self._value is None:
        raise NotImplementedError("resize_ of a traced tensor is not supported by symgrad")
    if tuple(self.shape) == size and memory_format is None:
        return self
    flat = _storage_values(self)
    n = math.prod(size)
    if n > flat.size:
        flat = np.concatenate([flat, np.zeros(n - flat.size, flat.dtype)])
    strides = layout.channels_last_strides(size) if memory_format is channels_last else None
    self._value = flat[:n].reshape(size).copy() if strides is None else \
        flat[layout.offsets(size, strides)].copy()
    self.shape, self._view, self._strides = tuple.__new__(Size, size), None, strides
    key = id(self)
    _KEPT[key] = (weakref.ref(self, lambda _: _KEPT.pop(key, None)), flat)
    self._vc[0] += 1
    return self


def resize_as_(self: Tensor, other: Tensor, memory_format=None) -> Tensor:
    return resize_(self, tuple(other.shape), memory_format=memory_format)


# ---------------------------------------------------------------- diagonals

def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Set the elements whose indices are all equal to ``fill_value``; ``wrap``: a tall
    matrix's diagonal starts again after each N + 1 rows (torch's step in the storage)."""
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    shape = tuple(self.shape)
    mask = np.zeros(math.prod(shape), np.bool_)
    step = sum(math.prod(shape[k + 1:]) for k in range(len(shape)))
    count = min(shape)
    if wrap and self.ndim == 2 and shape[0] > shape[1] + 1:
        count = -(-mask.size // step)
    mask[np.arange(count) * step] = True
    where_at = Tensor(mask.reshape(shape), None)
    return update(self, lambda s: apply("where", where_at, as_tensor(fill_value, s.dtype), s,
                                        _torch_name="CopySlices"), "fill_diagonal_")


# ---------------------------------------------------------------- scatters into views

def _scatter_into(torch_name: str, x, src, view) -> Tensor:
    """``x`` with ``view(x)`` replaced by ``src`` (of that view's shape), as a new tensor."""
    x, src = as_tensor(x), as_tensor(src)
    with grad_mode.no_grad():
        shown = view(x)
    if tuple(src.shape) != tuple(shown.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size "
                           f"= {list(src.shape)}, slice size = {list(shown.shape)}")

    if grad_mode.is_grad_enabled() and not x.dtype.is_differentiable and (
            x._requires_grad or src._requires_grad):
        raise RuntimeError(f"Autograd not support dtype: {x.dtype.scalar_type}")

    def body(a, b):
        out = clone(a)
        view(out).copy_(b)
        return out
    out = composite(torch_name, body, [x, src], saves=False, uses_out=False)
    return out if out._requires_grad else Tensor(out._value, out._node)   # (version 0)


def diagonal_scatter(input, src, offset: int = 0, dim1: int = 0,  # noqa: A002
                     dim2: int = 1) -> Tensor:
    return _scatter_into("DiagonalScatterBackward0", input, src,
                         lambda v: diagonal(v, offset, dim1, dim2))


def select_scatter(input, src, dim: int, index: int) -> Tensor:  # noqa: A002
    return _scatter_into("SelectScatterBackward0", input, src,
                         lambda v: select(v, dim, index))


def slice_scatter(input, src, dim: int = 0, start=None, end=None,  # noqa: A002
                  step: int = 1) -> Tensor:
    def view(v):
        d = dim % max(v.ndim, 1)
        return v[(slice(None),) * d + (slice(start, end, step),)]
    return _scatter_into("SliceScatterBackward0", input, src, view)


__all__ = ["diagonal_scatter", "select_scatter", "slice_scatter"]
METHODS = {name: _view_in_place(name) for name in IN_PLACE_VIEWS}
METHODS.update(resize_=resize_, resize_as_=resize_as_, fill_diagonal_=fill_diagonal_,
               diagonal_scatter=diagonal_scatter, select_scatter=select_scatter,
               slice_scatter=slice_scatter)
