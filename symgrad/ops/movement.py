"""Movement primitives: reshape, permute, expand, slice and its adjoint unslice, cat.

Layer: ops. Input: nothing. Output: registered ``OpDef``s. Lowering turns
reshape/permute/expand/slice and step-1 unslice into views (an offset, strides and a window over
the same buffer: ``view=True``) where it can, so they cost no loop. The four of kind MOVEMENT
are also torch views in the front end (in-place writes through them reach their base); unslice
makes a new tensor.
"""

from __future__ import annotations

import math

import numpy as np

from ..dims import span
from . import batching
from .registry import MOVEMENT, OTHER, OpDef, ShapeError, register, same_dtype


def _reshape_shape(shape, *, shape_to):
    if math.prod(shape) != math.prod(shape_to):
        raise ShapeError(f"shape {tuple(shape_to)} is invalid for input of size "
                         f"{math.prod(shape)} (shape {tuple(shape)})")
    return tuple(shape_to)


register(OpDef(
    name="reshape", kind=MOVEMENT, view=True, shape=_reshape_shape, dtype=same_dtype, saves=False,
    batch=batching.reshape,
    numpy=lambda a, *, shape_to: (a.reshape(shape_to) if type(a) is np.ndarray
                                  else np.reshape(a, shape_to)),
    vjp=lambda b, g, out, ins, *, shape_to: (b.op("reshape", g, shape_to=ins[0].shape),),
    torch_name="ViewBackward0"))


def _permute_shape(shape, *, perm):
    if sorted(perm) != list(range(len(shape))):
        raise ShapeError(f"permute: {tuple(perm)} is not a permutation of the "
                         f"{len(shape)} dims of a tensor of shape {tuple(shape)}")
    return tuple(shape[p] for p in perm)


def inverse_permutation(perm) -> tuple:
    """The permutation that undoes ``perm``."""
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


register(OpDef(
    name="permute", kind=MOVEMENT, view=True, shape=_permute_shape, dtype=same_dtype, saves=False,
    batch=batching.permute,
    numpy=lambda a, *, perm: (a.transpose(perm) if type(a) is np.ndarray
                              else np.transpose(a, perm)),
    vjp=lambda b, g, out, ins, *, perm: (
        b.op("permute", g, perm=inverse_permutation(perm)),),
    torch_name="PermuteBackward0"))


def _expand_shape(shape, *, shape_to):
    if len(shape_to) < len(shape):
        raise ShapeError(f"expand: the target shape {tuple(shape_to)} has fewer dimensions "
                         f"than the tensor's shape {tuple(shape)}")
    lead = len(shape_to) - len(shape)
    for i, s in enumerate(shape):
        if s != 1 and s != shape_to[lead + i]:
            raise ShapeError(f"The expanded size of the tensor ({shape_to[lead + i]}) must "
                             f"match the existing size ({s}) at non-singleton dimension "
                             f"{lead + i}.  Target sizes: {list(shape_to)}.  Tensor sizes: "
                             f"{list(shape)}")   # (torch's words)
    return tuple(shape_to)


# The VJP returns the cotangent at the output's shape: the autograd engine sums it back over the
# broadcast dimensions, the one place where that happens.
register(OpDef(
    name="expand", kind=MOVEMENT, view=True, shape=_expand_shape, dtype=same_dtype, saves=False,
    batch=batching.expand,
    numpy=lambda a, *, shape_to: np.broadcast_to(a, shape_to),
    vjp=lambda b, g, out, ins, *, shape_to: (g,), torch_name="ExpandBackward0"))


def _slice_shape(shape, *, starts, stops, steps):
    return tuple(span(a, b, c) for a, b, c in zip(starts, stops, steps))


def _np_slice(a, *, starts, stops, steps):
    return a[tuple(slice(*t) for t in zip(starts, stops, steps))]


register(OpDef(
    name="slice", kind=MOVEMENT, view=True, shape=_slice_shape, dtype=same_dtype, saves=False,
    batch=batching.window,
    numpy=_np_slice,
    vjp=lambda b, g, out, ins, **at: (b.op("unslice", g, shape_to=ins[0].shape, **at),),
    torch_name="SliceBackward0", doc="a[start:stop:step] per axis (steps > 0, bounds clipped)"))


def _np_unslice(a, *, shape_to, starts, stops, steps):
    out = np.zeros(shape_to, a.dtype)
    out[tuple(slice(*t) for t in zip(starts, stops, steps))] = a
    return out


register(OpDef(
    name="unslice", kind=OTHER, dependence="index", batch=batching.window, view=True, saves=False,
    shape=lambda shape, *, shape_to, **_: tuple(shape_to), dtype=same_dtype,
    numpy=_np_unslice,
    vjp=lambda b, g, out, ins, *, shape_to, **at: (b.op("slice", g, **at),),
    torch_name="SliceBackwardBackward0", doc="zeros of shape_to with the input at a slice"))


def _cat_shape(*shapes, axis):
    first = shapes[0]
    for s in shapes[1:]:
        if len(s) != len(first) or any(a != b for i, (a, b) in enumerate(zip(s, first))
                                       if i != axis):
            raise ShapeError(f"cat: sizes of tensors must match except in dimension {axis}; "
                             f"got {tuple(first)} and {tuple(s)}")
    return tuple(sum(s[axis] for s in shapes) if i == axis else d for i, d in enumerate(first))


def _cat_vjp(b, g, out, ins, *, axis):
    cts, offset = [], 0
    for x in ins:
        starts = tuple(offset if i == axis else 0 for i in range(g.ndim))
        stops = tuple(offset + x.shape[axis] if i == axis else d for i, d in enumerate(g.shape))
        cts.append(b.op("slice", g, starts=starts, stops=stops, steps=(1,) * g.ndim))
        offset += x.shape[axis]
    return tuple(cts)


register(OpDef(
    name="cat", kind=OTHER, batch=batching.leading, shape=_cat_shape, dtype=same_dtype, saves=False,
    kernel="cat",
    dependence="index",
    numpy=lambda *arrays, axis: np.concatenate(arrays, axis=axis), vjp=_cat_vjp,
    torch_name="CatBackward0"))
