"""torch's factories over existing data or a layout: ``asarray``, ``frombuffer``,
``empty_strided``.

Layer: front end (functions, factories). Input: ``asarray``: a tensor, a NumPy array, a
Python number or nested list (``dtype``, ``copy``, ``requires_grad``); ``frombuffer``: an
object with the buffer protocol (``dtype``, ``count``, ``offset``); ``empty_strided``: sizes
and strides. Output: tensors with torch's aliasing rules: ``asarray`` returns a tensor
itself (or shares a NumPy array's memory) unless ``copy=True`` or another dtype is asked
(``copy=False`` then is torch's ValueError), and a tensor keeps its ``requires_grad`` unless
one is given; ``frombuffer`` shares the buffer's memory; ``empty_strided`` is a zero-filled
view with the given strides (torch leaves its values uninitialised).
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
from ...devices import check as check_device
from ..core.tensor import Tensor
from .creation import as_tensor, empty, from_numpy, tensor
from .strided import as_strided


def asarray(obj, *, dtype=None, device=None, copy: bool | None = None,
            requires_grad: bool | None = None) -> Tensor:
    """``obj`` as a tensor, sharing its memory where torch does."""
    check_device(device)
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    if isinstance(obj, (Tensor, np.ndarray)):
        have = obj.dtype if isinstance(obj, Tensor) else dtypes.as_dtype(obj.dtype)
        if copy is False and dt is not None and dt is not have:
            raise ValueError(f"can't alias tensor with dtype '{have.scalar_type}' into dtype "
                             f"'{dt.scalar_type}'.")
    if isinstance(obj, Tensor):
        out = obj if dt is None or dt is obj.dtype else obj.to(dt)
        if copy and out is obj:
            out = obj.clone()
        if requires_grad is not None and requires_grad != out.requires_grad:
            out = out.detach().requires_grad_(requires_grad)
        return out
    if isinstance(obj, np.ndarray) and not copy:
        out = from_numpy(obj) if dt is None or dt is have else as_tensor(obj, dtype=dt)
    else:
        out = tensor(obj, dtype=dt)
    return out.requires_grad_(True) if requires_grad else out


def frombuffer(buffer, *, dtype, count: int = -1, offset: int = 0,
               requires_grad: bool = False) -> Tensor:
    """A 1-d tensor over ``buffer``'s bytes (shared): ``count`` elements (-1: all) from byte
    ``offset``."""
    dt = dtypes.as_dtype(dtype)
    size = memoryview(buffer).nbytes
    item = dt.itemsize
    if count == 0 or size == 0:
        if count == 0 or size == 0 and count == -1:
            raise ValueError(f"both buffer length ({size}) and count ({count}) must not be 0")
    if not 0 <= offset <= size - 1:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({size} bytes) minus 1")
    if count < 0:
        if (size - offset) % item:
            raise ValueError(f"buffer length ({size - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({item})")
        count = (size - offset) // item
    elif size - offset < count * item:
        raise ValueError(f"requested buffer length ({count} * {item} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({size} bytes)")
    out = from_numpy(np.frombuffer(buffer, dtype=dt.np, count=count, offset=offset))
    return out.requires_grad_(True) if requires_grad else out


def empty_strided(size, stride, *, dtype=None, layout=None, device=None,
                  requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A tensor of ``size`` whose strides are ``stride`` (zeros here)."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: "
                           f"{list(size)}")
    needed = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride))
    out = as_strided(empty(needed, dtype=dtype, device=device), size, stride).detach()
    return out.requires_grad_(True) if requires_grad else out


__all__ = ["asarray", "frombuffer", "empty_strided"]
