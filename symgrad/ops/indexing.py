"""Integer-indexed primitives: gather, its adjoint scatter_add, and argmax/argmin.

Layer: ops. Input: nothing. Output: registered ``OpDef``s. Indices are int64; the generated C checks
every index against its bound and reports an error instead of touching memory it must not.
"""

from __future__ import annotations

import numpy as np

from ..dtypes import int64
from . import batching
from .registry import OTHER, OpDef, ShapeError, nonempty_axes, per_input, register


def _check_index(idx_dtype):
    if idx_dtype is not int64:
        raise TypeError(f"index tensor must be int64, got {idx_dtype.name}")


def _gather_shape(x, idx, *, axis):
    if len(x) != len(idx) or any(i > s for d, (s, i) in enumerate(zip(x, idx)) if d != axis):
        raise ShapeError(f"gather: index shape {tuple(idx)} does not fit input shape {tuple(x)} "
                         f"along dims other than {axis}")
    return tuple(idx)


def _gather_dtype(x, idx, **_):
    _check_index(idx)
    return x


def _np_gather(x, idx, *, axis):
    if idx.size and (idx.min() < 0 or idx.max() >= x.shape[axis]):
        raise IndexError(f"gather: index out of range for dimension {axis} of size "
                         f"{x.shape[axis]}")
    sub = x[tuple(slice(0, n) if d != axis else slice(None) for d, n in enumerate(idx.shape))]
    return np.take_along_axis(sub, idx, axis=axis)


register(OpDef(
    name="gather", kind=OTHER, shape=_gather_shape, dtype=_gather_dtype, numpy=_np_gather,
    kernel="index",
    dependence="gather",
    batch=batching.leading,
    # (x's values are not read, only its shape: x may change in place after the gather, as
    # after torch's, which saves the index alone; max/min(dim) are gathers)
    vjp=per_input(lambda b, g, out, ins, *, axis: b.op("scatter_add", g, ins[1], axis=axis,
                                                      shape_to=ins[0].shape),
                  lambda b, g, out, ins, *, axis: None, reads=((1,), ())),
    torch_name="GatherBackward0", doc="out[..i..] = x[..idx[..i..]..] along axis"))


def _scatter_shape(src, idx, *, axis, shape_to):
    if tuple(src) != tuple(idx):
        raise ShapeError(f"scatter_add: source shape {tuple(src)} must equal index shape "
                         f"{tuple(idx)}")
    return tuple(shape_to)


def _np_scatter_add(src, idx, *, axis, shape_to):
    if idx.size and (idx.min() < 0 or idx.max() >= shape_to[axis]):
        raise IndexError(f"scatter_add: index out of range for dimension {axis} of size "
                         f"{shape_to[axis]}")
    out = np.zeros(shape_to, src.dtype)
    grids = list(np.indices(idx.shape, sparse=True))
    grids[axis] = idx
    np.add.at(out, tuple(grids), src)
    return out


register(OpDef(
    name="scatter_add", kind=OTHER, dependence="scatter", shape=_scatter_shape, dtype=_gather_dtype,
    kernel="index",
    batch=batching.leading,
    numpy=_np_scatter_add,
    vjp=lambda b, g, out, ins, *, axis, shape_to: (
        b.op("gather", g, ins[1], axis=axis), None),
    torch_name="ScatterAddBackward0", doc="zeros(shape_to) with src added at idx along axis"))


def _arg_shape(name, shape, axis):
    nonempty_axes(name, shape, (axis,))
    return tuple(1 if d == axis else s for d, s in enumerate(shape))


def _arg_dtype(x, **_):
    return int64


for _name, _np_fn in (("argmax", np.argmax), ("argmin", np.argmin)):
    register(OpDef(
        name=_name, kind=OTHER, batch=batching.leading, dtype=_arg_dtype, vjp=None,
        kernel="index",
        dependence="none",
        shape=lambda shape, *, axis, _n=_name: _arg_shape(_n, shape, axis),
        numpy=lambda a, *, axis, _f=_np_fn: _f(a, axis=axis, keepdims=True).astype(np.int64),
        doc="index of the first extremum along axis (kept as a size-1 dim)"))
