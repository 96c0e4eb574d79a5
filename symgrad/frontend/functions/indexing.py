"""Advanced indexing, torch's (and NumPy's) way: ``x[idx]``, ``x[[0, 2]]``, ``x[range(n), y]``,
``x[mask]``, mixed with slices, and index assignment ``x[...] = v``.

Layer: front end, above ``shapes`` (basic indexing), ``inplace`` (updates) and ``selection``.
Input: a tensor and an index. Output: a tensor built from primitives (``slice``/``reshape``/
``permute``, then one ``gather`` over the indexed dims flattened into one), so its gradient is
``gather``'s (``scatter_add``: repeated indices add up) and it compiles. Boolean masks select a
number of elements known only from the mask's values: eagerly they are index tensors of the
True elements; inside a compiled function ``x[mask]`` (a mask over leading dims) is a lazy
``selection.Selection``, which a reduction consumes (``x[mask].sum()``) and ``y[mask] = s``
writes back; where its size is needed, the error names the line and the alternatives
(``where``, ``masked_fill``).

Placement follows NumPy: the broadcast shape of the index arrays replaces the indexed dims
where they are adjacent, and goes first when slices separate them. Assignment writes through
torch's in-place machinery (``x[1:3] = v`` updates a view; ``x[idx] = v`` replaces the indexed
elements, ``x[[0, 2], 1:3] = v`` those of the view ``x[:, 1:3]``; a leaf that requires grad
raises torch's in-place error). Where an assignment's index repeats an element, the last value
written stays, as torch's CPU kernel leaves it (torch calls the choice unspecified), in a
compiled function too (where the index's values are known only when it runs: a stable sort of
the elements written tells each one's last write).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import dtypes
from ..core import grad_mode, lazy
from ..core.apply import apply, as_tensor, full
from .basic import composite, linear_composite, where
from .inplace import update
from .selection import Selection
from ..core.deferred import Deferred
from ..core.shown import shown_as
from .shapes import (broadcast_to, cat, getitem, permute, plain_windows, reshape, selects_all,
                     sliced)
from ..core.arguments import tensors_only
from .index_checks import copy_shapes
from . import eager_writes
from ..core.pending import PendingTensor
from ..core.tensor import Tensor, tracer_error
from ...dims import same_shape
from ...ops.registry import normalize_axes

_ARRAY = (Tensor, list, range, np.ndarray)


def is_advanced(index: Any) -> bool:
    """Whether ``index`` needs advanced indexing (arrays, lists or masks in it)."""
    if not isinstance(index, tuple):
        return isinstance(index, _ARRAY) or isinstance(index, (bool, np.bool_))
    for i in index:
        if isinstance(i, _ARRAY) or isinstance(i, (bool, np.bool_)):
            return True
    return False


def index(x: Tensor, index: Any) -> Tensor:
    """``x[index]``: basic indexing (a view, ``shapes.getitem``) or advanced indexing. A 0-d
    integer tensor of known value indexes as its number does (torch: a select, a view)."""
    windows = plain_windows(x.shape, index)   # (the common index: ints and slices)
    if windows is not None:
        return sliced(x, windows)
    if index.__class__ is Tensor and x.__class__ is Tensor:
        rows = _eager_rows(x, index)
        if rows is not None:
            return rows
    if isinstance(index, Tensor) and not index.ndim and index.dtype.is_integer \
            and index._value is not None:
        index = int(index._value)
    if not is_advanced(index):
        return getitem(x, index)
    mask = _traced_mask(x, index)
    if mask is not None:      # compiled x[mask]: lazy, until a reduction takes it
        return Selection.of(x, mask)
    items = _spelled_out(x, index)
    if not any(isinstance(i, (Tensor, NewAxis)) for i in items):
        return linear_composite("IndexBackward0", lambda v: getitem(v, tuple(items)), [x])
    lone = [i for i in items if isinstance(i, NewAxis)]
    if len(lone) == 1 and lone[0].keep and not any(isinstance(i, Tensor) for i in items):
        items = [None if i is lone[0] else i for i in items]   # x[True]: a new dim, no gather
        return linear_composite("IndexBackward0", lambda v: getitem(v, tuple(items)), [x])
    return linear_composite("IndexBackward0", lambda v: _gathered(v, items), [x])


_ROW_INDEX = frozenset((dtypes.int64, dtypes.int32, dtypes.int16, dtypes.int8))


def _eager_rows(x: Tensor, index: Tensor) -> Tensor | None:
    """``x[index]`` with an integer index tensor, eagerly, where no gradient is recorded (a
    minibatch's rows): NumPy's ``take`` along dim 0, what the gather computes, without its ~20
    ops. None: the general path (traced, recorded, a mask, a 0-d ``x``)."""
    value, at = x._value, index._value
    if value is None or at is None or index.dtype not in _ROW_INDEX or not x.ndim or \
            x._requires_grad and grad_mode._local.enabled:
        return None
    if lazy.STATE.region is not None:   # (a captured step's ops are recorded)
        return None
    _check_bounds(index, x.shape[0], 0)
    return Tensor(np.take(value, at, axis=0), None)


def _traced_mask(x: Tensor, index: Any) -> Tensor | None:
    """The mask of ``x[mask]`` (or ``x[mask, ...]``, ``x[mask, :]``) when it is a traced bool
    tensor over ``x``'s leading dims (None otherwise: the general path decides)."""
    items = index if isinstance(index, tuple) else (index,)
    mask = items[0]
    if not (isinstance(mask, Tensor) and mask.is_traced and mask.dtype is dtypes.bool_) or \
            not all(i is Ellipsis or isinstance(i, slice) and i == slice(None)
                    for i in items[1:]):
        return None
    if mask.ndim > x.ndim or not same_shape(mask.shape, x.shape[:mask.ndim]):
        raise IndexError(f"The shape of the mask {list(mask.shape)} at index 0 does not match "
                         f"the shape of the indexed tensor {list(x.shape)} at index 0")
    return mask


def setitem(x: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value``, in place (torch's ``CopySlices``)."""
    if isinstance(value, Deferred):
        _write_selection(x, index, value, "index_put_")
        return
    given = isinstance(value, Tensor)
    value = value if given else as_tensor(value, x.dtype)
    windows = plain_windows(x.shape, index)   # (ints and slices: a window of x's buffer)
    if windows is not None and eager_writes.plain(x, value) and \
            eager_writes.set_window(x, tuple(map(slice, *windows[:3])), windows[3], value):
        return
    if not is_advanced(index):
        view = x if selects_all(x, index) else getitem(x, index)
        view.copy_(broadcast_to(value.to(x.dtype), view.shape))
        return
    if _is_whole_mask(x, index) and value.numel() == 1:   # x[mask] = v: shapes stay fixed
        mask, value = index, value.to(x.dtype).reshape(())
        update(x, lambda old: apply("where", mask, value, old, _torch_name="IndexPutBackward0",
                                    _shown=(2, 1)), "index_put_")
        return
    if given and value.dtype is not x.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{x.dtype.scalar_type} for the destination and "
                           f"{value.dtype.scalar_type} for the source.")
    mask = _traced_mask(x, index)
    if mask is not None:      # compiled x[rows] = v: v the same for every row selected
        _write_rows(x, mask, value)
        return
    put(x, _spelled_out(x, index), value)


def _write_rows(x: Tensor, mask: Tensor, value: Tensor) -> None:
    """``x[mask] = value`` in place, ``mask`` traced over leading dims, ``value`` of a shape
    that needs no count (it broadcasts to one selected row)."""
    rest = tuple(x.shape[mask.ndim:])
    if value.ndim > len(rest) + 1 or value.ndim == len(rest) + 1 and value.shape[0] != 1:
        raise Selection.of(x, mask).size_needed(f"an assignment of shape {list(value.shape)}")
    if value.ndim == len(rest) + 1:
        value = value.reshape(tuple(value.shape[1:]))         # (1, *rest): one row
    row = broadcast_to(value.to(x.dtype), rest)
    keep = mask.reshape(tuple(mask.shape) + (1,) * len(rest))
    update(x, lambda old: where(keep, row, old), "index_put_")


def _write_selection(x: Tensor, index: Any, value: Selection, name: str,
                     accumulate: bool = False) -> None:
    """``x[mask] = s`` (``+=`` with ``accumulate``), in place, for ``s`` selected by the same
    ``mask``: the rows it keeps take ``s``'s values."""
    mask = _traced_mask(x, index)
    if mask is None or mask.node is not value.mask.node and mask.reshape(-1).node is not \
            value.mask.node:
        raise value.size_needed("an assignment through another index")
    rows = value.dense.to(x.dtype).reshape(tuple(x.shape))
    keep = mask.reshape(tuple(mask.shape) + (1,) * (x.ndim - mask.ndim))
    update(x, lambda old: where(keep, old + rows if accumulate else rows, old), name)


def put(x: Tensor, items: list, value: Tensor) -> None:
    """``x[items] = value`` in place, ``items`` spelled out (``_spelled_out``): the elements
    of ``x``, or of the view its slices and Nones select, that the index arrays name."""
    y, arrays, _ = _layout(x, items)
    if same_shape(y.shape, x.shape) and not any(i is None for i in items):
        update(x, lambda old: composite("IndexPutBackward0", lambda a, v: _placed(
            a, items, v), [old, value], saves=False, uses_out=False), "index_put_")
        return
    inner: list = [slice(None)] * y.ndim
    for d, t in arrays:
        inner[d] = t
    update(y, lambda old: _placed(old, inner, value), "index_put_")


def _is_whole_mask(x: Tensor, index: Any) -> bool:
    return isinstance(index, Tensor) and index.dtype is dtypes.bool_ and \
        same_shape(index.shape, x.shape)


# ---------------------------------------------------------------- the index, spelled out

def _spelled_out(x: Tensor, index: Any) -> list:
    """One item per dim of ``x`` (plus Nones): ints, slices, None, or int64 index tensors;
    masks become the index tensors of their True elements (eagerly only)."""
    items = list(index) if isinstance(index, tuple) else [index]
    out, masks = [], {}
    for item in items:
        if isinstance(item, (bool, np.bool_)):
            item = Tensor(np.array(bool(item)), None)
        if isinstance(item, (list, range, np.ndarray)):
            item = as_tensor(np.asarray(list(item) if isinstance(item, range) else item))
            if item.dtype.is_floating and item.numel() == 0:
                item = item.to(dtypes.int64)
        if isinstance(item, Tensor) and item.dtype is not dtypes.int64:
            item = _index_tensor(item)
        if isinstance(item, Tensor) and item.dtype is dtypes.bool_:
            parts = _mask_indices(item)
            if item.ndim:
                masks[id(parts[0])] = tuple(item.shape)
            out.extend(parts)
        else:
            out.append(item)
    used = sum(1 for i in out if i is not None and i is not Ellipsis and type(i) is not NewAxis)
    if used > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")
    ellipses = [k for k, i in enumerate(out) if i is Ellipsis]
    if len(ellipses) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if ellipses:
        out[ellipses[0]:ellipses[0] + 1] = [slice(None)] * (x.ndim - used)
    else:
        out += [slice(None)] * (x.ndim - used)
    if masks:
        _check_masks(x, out, masks)
    return out


def _check_masks(x: Tensor, items: list, masks: dict) -> None:
    """Each mask's shape is that of the dims of ``x`` it stands for, as torch requires (the
    index tensors of its True elements alone would take a shorter or longer mask, reading the
    wrong elements). ``masks``: id of a mask's first index tensor -> the mask's shape."""
    dim = 0
    for item in items:
        shape = masks.get(id(item))
        for j, size in enumerate(shape or ()):
            if dim + j >= x.ndim or not same_shape((size,), (x.shape[dim + j],)):
                raise IndexError(f"The shape of the mask {list(shape)} at index {j} does not "
                                 f"match the shape of the indexed tensor {list(x.shape)} at "
                                 f"index {dim + j}")
        if item is not None and type(item) is not NewAxis:
            dim += 1


def _index_tensor(item: Tensor) -> Tensor:
    """An index tensor of another dtype than int64, as torch takes it: int32 as int64, uint8
    as a bool mask (deprecated in torch, still accepted), bool as is, others refused."""
    if item.dtype is dtypes.int32:
        return item.to(dtypes.int64)
    if item.dtype is dtypes.uint8:
        return item.to(dtypes.bool_)
    if item.dtype is not dtypes.bool_:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return item


class NewAxis:
    """A 0-d boolean index (``x[False]``, ``x[0, True]``): a new dim of size 1 where it stands,
    indexed by the array [0] (True) or [] (False), which broadcasts with the other index
    arrays as torch's (and NumPy's) do: ``x[False]`` is empty, of shape [0, *x.shape]."""

    __slots__ = ("keep", "index")

    def __init__(self, keep: bool):
        self.keep = keep
        self.index = Tensor(np.zeros((1 if keep else 0,), np.int64), None)


def _mask_indices(mask: Tensor) -> list:
    """A k-dim boolean mask as k index tensors of its True elements (data-dependent: eager)."""
    if mask.is_traced:
        raise tracer_error("boolean mask index (the number of selected elements depends on "
                           "the mask's values; use symgrad.where(mask, x, 0) or "
                           "x.masked_fill(~mask, 0) to keep shapes fixed)")
    if mask.ndim == 0:
        return [NewAxis(bool(mask.item()))]
    return [Tensor(np.ascontiguousarray(i, np.int64), None) for i in np.nonzero(mask._value)]


# ---------------------------------------------------------------- reading

def _layout(x: Tensor, items: list):
    """Apply the basic part of the index (integers select first, as torch's indexing does:
    ``x[0, :, [0, 1]]`` is ``x[0][:, [0, 1]]``); return the result, the dims of it that the
    arrays index (with their index tensors), and where the arrays' broadcast dims go."""
    basic, arrays, dim = [], [], 0
    for item in items:
        if isinstance(item, Tensor):
            arrays.append((dim, item))
            basic.append(slice(None))
            dim += 1
        elif isinstance(item, NewAxis):
            arrays.append((dim, item.index))
            basic.append(None)
            dim += 1
        else:
            basic.append(item)
            if item is None or isinstance(item, slice):
                dim += 1
    y = getitem(x, tuple(basic))
    positions = [d for d, _ in arrays]
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    return y, arrays, positions[0] if adjacent else 0


def _flat_index(y: Tensor, arrays: list) -> tuple[Tensor, tuple]:
    """The indexed dims' indices combined into one linear index (negatives wrapped), and the
    broadcast shape of the index arrays."""
    try:
        shape = np.broadcast_shapes(*[tuple(t.shape) for _, t in arrays])
    except ValueError:
        shown = ", ".join(str(list(t.shape)) for _, t in arrays)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {shown}") from None
    linear, total = None, math.prod(y.shape[d] for d, _ in arrays)
    for d, t in arrays:
        size = y.shape[d]
        # (an index a captured step computed: wrapped whatever its values, which are not
        # read where it is pending -- the compiled gather checks the bounds)
        unknown = lazy.in_step(t) or t.is_traced
        if t.__class__ is not PendingTensor:
            _check_bounds(t, size, d)
        t = where(t < 0, t + size, t) if unknown or (t._value < 0).any() else t
        if unknown and len(arrays) > 1:
            # The compiled gather checks only the combined index against ``total``: an index
            # out of its own dim's range (x[0, 4] of a 3 x 3 x) would land on another row's
            # element. Send it out of range, where the gather's check raises the IndexError.
            t = where((t >= 0) & (t < size), t, total)
        linear = t if linear is None else linear * size + t
    return broadcast_to(linear, shape), tuple(shape)


def _check_bounds(t: Tensor, size: int, dim: int) -> None:
    if not t.is_traced and t.numel() and (t._value.min() < -size or t._value.max() >= size):
        bad = t._value[(t._value < -size) | (t._value >= size)].flat[0]
        raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def _front(y: Tensor, dims: list) -> tuple[Tensor, tuple]:
    """``y`` with ``dims`` moved to the front and flattened into one; the other dims' sizes."""
    rest = [d for d in range(y.ndim) if d not in dims]
    moved = permute(y, dims + rest) if dims + rest != list(range(y.ndim)) else y
    rest_shape = tuple(y.shape[d] for d in rest)
    return reshape(moved, (math.prod(y.shape[d] for d in dims), math.prod(rest_shape))), \
        rest_shape


def _gathered(x: Tensor, items: list) -> Tensor:
    y, arrays, place = _layout(x, items)
    linear, bshape = _flat_index(y, arrays)
    flat, rest_shape = _front(y, [d for d, _ in arrays])
    n = math.prod(bshape)
    idx = broadcast_to(reshape(linear, (n, 1)), (n, flat.shape[1]))
    out = reshape(apply("gather", flat, idx, axis=0), bshape + rest_shape)
    if place and bshape:   # adjacent array dims go where they were
        k = len(bshape)
        order = list(range(k, k + place)) + list(range(k)) + list(range(k + place, out.ndim))
        out = permute(out, order)
    return out


# ---------------------------------------------------------------- assignment

def index_put(x: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    """torch.index_put: ``x`` with ``x[indices] = values`` (``+=``, repeated elements adding
    up, with ``accumulate``), out of place; ``indices`` a tuple of index tensors (None for
    a whole dim)."""
    tensors_only("index_put", self=x, indices=None, values=values)   # (indices: a tuple)
    items = [slice(None) if i is None else i for i in indices]
    if _traced_mask(x, tuple(items)) is not None:      # x.index_put((mask,), v)
        return _put_masked(x, tuple(items), values, accumulate)
    values = _source(x, values, "Index put requires the source and destination dtypes match, "
                     "got {self} for the destination and {source} for the source.")
    items = _spelled_out(x, tuple(items))
    return composite("IndexPutBackward0",
                     lambda a, v: _placed(a, items, v, accumulate), [x, values])


def _put_masked(x: Tensor, index: tuple, values, accumulate: bool) -> Tensor:
    """``x.index_put((mask,), values)`` with a traced mask, out of place: ``values`` one
    value or selected by the same mask (anything else needs the count)."""
    out = x.clone()
    if isinstance(values, Deferred):
        _write_selection(out, index, values, "index_put_", accumulate)
        return out
    values = _source(x, values, "Index put requires the source and destination dtypes match, "
                     "got {self} for the destination and {source} for the source.")
    if values.numel() != 1:
        raise Selection.of(x, index[0]).size_needed("the values index_put writes")
    mask = index[0].reshape(tuple(index[0].shape) + (1,) * (x.ndim - index[0].ndim))
    value = values.reshape(())
    update(out, lambda old: where(mask, old + value if accumulate else value, old),
           "index_put_")
    return out


def index_copy(x: Tensor, dim: int, index_, source) -> Tensor:
    """torch.index_copy: ``x`` with the slices ``index`` of ``dim`` replaced by ``source``'s."""
    source = _source(x, source, "index_copy_(): self and source expected to have the same "
                     "dtype, but got (self) {self} and (source) {source}")
    (axis,) = normalize_axes(dim, max(x.ndim, 1))
    if not x.ndim:   # torch: a 0-d tensor as a 1-element vector
        one = [reshape(t, (1,)) for t in (x, as_tensor(index_), as_tensor(source))]
        return shown_as(reshape(index_copy(one[0], 0, one[1], one[2]), ()),
                        "IndexCopyBackward0")
    index_ = as_tensor(index_)
    if index_.dtype is not dtypes.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{index_.dtype.scalar_type}")
    copy_shapes(x, axis, index_, source)
    index_ = reshape(index_, (1,)) if not index_.ndim else index_
    items = _spelled_out(x, (slice(None),) * axis + (index_,))
    return composite("IndexCopyBackward0", lambda a, v: _placed(a, items, v), [x, source])


def _source(x: Tensor, source, message: str) -> Tensor:
    source = as_tensor(source)
    if source.dtype is not x.dtype:
        raise RuntimeError(message.format(self=x.dtype.scalar_type,
                                          source=source.dtype.scalar_type))
    return source


def _last_writes(linear: Tensor) -> Tensor | None:
    """Which writes of the index ``linear`` (a column) are each element's last (a bool
    column), as torch's CPU kernels leave it; None when every element is written once."""
    if linear.is_traced:
        return _traced_last_writes(linear)
    flat = linear._value.reshape(-1)
    _, first_from_end = np.unique(flat[::-1], return_index=True)
    if len(first_from_end) == len(flat):
        return None
    keep = np.zeros(len(flat), np.bool_)
    keep[len(flat) - 1 - first_from_end] = True
    return Tensor(keep.reshape(-1, 1), None)


def _traced_last_writes(linear: Tensor) -> Tensor | None:
    """Compiled: the index's values are not known, so every write is checked: in the stable
    order of the elements written (``argsort``), a write is its element's last when the next
    one writes another element."""
    n = linear.shape[0]
    if n < 2:
        return None
    flat = reshape(linear, (n,))
    order = apply("argsort", flat, axis=0, descending=False)
    ordered = apply("gather", flat, order, axis=0)
    ends = cat([ordered[1:] != ordered[:-1], full(ordered[:1], True, dtype=dtypes.bool_)])
    back = apply("scatter_add", ends.to(dtypes.int64), order, axis=0, shape_to=(n,))
    return reshape(back != 0, (n, 1))


def _placed(x: Tensor, items: list, value: Tensor, accumulate: bool = False) -> Tensor:
    """``x`` with the elements ``items`` index replaced by ``value`` (out of place; added to
    them with ``accumulate``)."""
    y, arrays, place = _layout(x, items)
    value = value.to(x.dtype)
    dims = [d for d, _ in arrays]
    linear, bshape = _flat_index(x, arrays)
    flat, rest_shape = _front(x, dims)
    n = math.prod(bshape)
    target = bshape + rest_shape
    if place and bshape:
        k = len(bshape)
        target = tuple(np.array(target)[list(range(k, k + place)) + list(range(k)) +
                                        list(range(k + place, len(target)))])
    v = broadcast_to(value, target)
    if place and bshape:
        k = len(bshape)
        v = permute(v, list(range(place, place + k)) + list(range(place)) +
                    list(range(place + k, v.ndim)))
    v = reshape(v, (n, flat.shape[1]))
    linear = reshape(linear, (n, 1))
    last = None if accumulate else _last_writes(linear)
    if last is not None:   # an element written twice keeps the last value written; the
        # gradient of every write is its element's, as torch's (grad[indices])
        v = composite("IndexPutBackward0", lambda a: where(last, a, 0), [v],
                      lambda g, out, ins: (g,))
    idx = broadcast_to(linear, (n, flat.shape[1]))
    hit = apply("scatter_add", full(idx, 1) if last is None else
                broadcast_to(last.to(dtypes.int64), idx.shape), idx, axis=0,
                shape_to=flat.shape)
    wide = v if v.dtype is not dtypes.bool_ else v.to(dtypes.int64)
    put = apply("scatter_add", wide, idx, axis=0, shape_to=flat.shape).to(v.dtype)
    new = flat + put if accumulate else where(hit != 0, put, flat)
    rest = [d for d in range(x.ndim) if d not in dims]
    unflat = reshape(new, tuple(x.shape[d] for d in dims) + rest_shape)
    inverse = np.argsort(dims + rest).tolist()
    return permute(unflat, inverse) if inverse != list(range(x.ndim)) else unflat
