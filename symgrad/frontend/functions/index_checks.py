"""torch's checks of an index or dim argument (gather, scatter, index_add, index_select, an
extremum over no elements), with its exception classes and messages: where symgrad's own
primitives would raise another class, or say it in their terms; and a 0-d input taken
as the 1-element vector torch takes it as (``as_vector``).

Layer: front end (function modules call it before applying a primitive). Input: an index
tensor, the size of the dim it indexes, the function's name. Output: nothing, or torch's
error. Bounds are checked on eager indices only (a traced index is checked by the generated
code).
"""

from __future__ import annotations

import functools

import numpy as np

from ... import dtypes
from ...errors import ShapeError
from ...ops.registry import normalize_axes
from ..core.shown import shown_as
from ..core.tensor import Tensor


def in_bounds(idx: Tensor, size: int, dim: int) -> None:
    """torch's RuntimeError for an index outside ``[-size, size)`` (gather, scatter,
    index_add, index_select accept no negative index either: outside ``[0, size)``)."""
    value = idx._value
    if value is None or not value.size:
        return
    low, high = int(value.min()), int(value.max())
    if low < 0 or high >= size:
        bad = low if low < 0 else high
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def integer_index(name: str, idx: Tensor, int32: bool = True) -> None:
    """torch's RuntimeError for an index tensor of a dtype its kernel does not take: int64
    (and int32 where ``int32``)."""
    if idx.dtype is dtypes.int64 or int32 and idx.dtype is dtypes.int32:
        return
    wanted = "int32/int64" if int32 else "int64"
    raise RuntimeError(f"{name}(): Expected dtype {wanted} for index but got: "
                       f"{idx.dtype.scalar_type}")


def vector_index(name: str, idx: Tensor) -> None:
    """torch's IndexError for an index that is not a vector (index_add, index_copy...)."""
    if idx.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector, but got dim: {idx.ndim} "
                         f"with type: {idx.dtype.scalar_type} and size: {list(idx.shape)}")


def copy_shapes(x: Tensor, axis: int, idx: Tensor, source: Tensor) -> None:
    """torch's index_copy_ checks of the index and the source's shape against ``x`` (dim
    ``axis``): a vector index, a source of x's dimensionality (or a 0-d one for one index),
    the same slices, as many indices as source slices, and indices in bounds."""
    name, n = "index_copy_()", idx.numel()
    if idx.ndim > 1:
        raise IndexError(f"{name}: Index should have dimension 1 or 0 (got {idx.ndim})")
    if source.ndim == 0 and n != 1:
        raise IndexError(f"{name}: When source is scalar, index should have one element "
                         f"(got {n})")
    if source.ndim != x.ndim and source.ndim and x.ndim:
        raise IndexError(f"{name}: When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.ndim}), "
                         f"destination dimensionality ({x.ndim})")
    mine, theirs = list(x.shape), list(source.shape)
    for sizes in (mine, theirs):
        if sizes:
            del sizes[axis]
    if mine != theirs:
        raise RuntimeError(f"{name}: Source/destination tensor must have same slice shapes. "
                           f"Destination slice shape: {' '.join(map(str, mine))} at dimension "
                           f"{axis} and source slice shape: {' '.join(map(str, theirs))} at "
                           f"dimension 0.")
    if source.ndim and n != source.shape[axis]:
        raise IndexError(f"{name}: Number of indices ({n}) should be equal to source.size(dim) "
                         f"({source.shape[axis]})")
    value = idx._value
    if value is not None and value.size:
        size = x.shape[axis] if x.ndim else 1
        bad = value[(value < 0) | (value >= size)]
        if bad.size:
            raise IndexError(f"{name}: index {int(bad[0])} is out of bounds for dimension "
                             f"{axis} with size {size}")


def fill_index(idx: Tensor, size: int, dim: int) -> np.ndarray:
    """index_fill's index as an array, after torch's checks: a vector or a scalar, in
    ``[-size, size)``."""
    if idx.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    picked = np.asarray(idx.numpy()).reshape(-1)
    bad = picked[(picked < -size) | (picked >= size)]
    if bad.size:
        raise IndexError(f"index {int(bad[0])} is out of bounds for dimension {dim} with size "
                         f"{size}")
    return picked


def along_index(name: str, x: Tensor, idx: Tensor, dim: int) -> Tensor:
    """The index of gather/index_select/index_add along ``dim`` of ``x`` as the primitives take
    it (int64), after torch's checks of its dtype (int32 or int64) and bounds."""
    integer_index(name, idx)
    if idx.dtype is dtypes.int32:
        idx = idx.to(dtypes.int64)
    if x.ndim:
        in_bounds(idx, x.shape[normalize_axes(dim, x.ndim)[0]], dim)
    return idx


def dim_given(name: str, x, dim) -> tuple:
    """``(x, dim)`` of an extremum (``()`` for all dims: None). Of all of no elements, it is
    torch's RuntimeError (over an empty dim given, the primitive's IndexError)."""
    dim = None if dim == () else dim
    if dim is None and isinstance(x, Tensor) and 0 in x.shape:
        raise ShapeError(f"{name}(): expected reduction dim {list(x.shape).index(0)} to have "
                         f"non-zero size (input shape {tuple(x.shape)}): torch's 'Expected "
                         f"reduction dim to be specified for input.numel() == 0'")
    return x, dim


def as_vector(fn):
    """``fn(x, dim, ...)`` of a 0-d ``x`` as torch computes it: on ``x`` as a 1-element vector
    (``dim`` 0 or -1), 0-d tensor arguments as vectors too, the result 0-d again, its node
    shown as the op's own (torch's kernels take the 0-d tensor as it is: IndexSelectBackward0,
    not a reshape's)."""
    def one(a):
        return a.reshape((1,)) if isinstance(a, Tensor) and not a.ndim else a

    @functools.wraps(fn)
    def wrapper(x, dim, *args, **kwargs):
        if not isinstance(x, Tensor) or x.ndim:
            return fn(x, dim, *args, **kwargs)
        normalize_axes(dim, 1)
        out = fn(x.reshape((1,)), 0, *map(one, args), **{k: one(v) for k, v in kwargs.items()})
        if out.grad_fn is None:
            return out.reshape(())
        return shown_as(out.reshape(()), type(out.grad_fn).__name__, out)
    return wrapper
