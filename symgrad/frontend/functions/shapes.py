"""torch-named shape functions: reshape/view, permute/transpose, squeeze/unsqueeze, expand,
cat/stack and basic indexing (ints, slices with steps, None, ...).

Layer: front end. Input: tensors. Output: tensors built from the movement primitives
(``reshape``, ``permute``, ``expand``, ``slice``, ``cat``). Errors follow torch's wording and
name the shapes involved.
"""

from __future__ import annotations

import operator

import math
from typing import Any
from collections.abc import Sequence

import numpy as np

from ... import dtypes
from ...dims import Dim, NotGeneric, as_size, same_shape
from ...ops import OPS
from ...ops.registry import normalize_axes
from ..core import grad_mode, layout, lazy, sources
from ..core.apply import CAPTURING, apply, as_tensor, attach_function, full
from ..core.tensor import Tensor
from ..core.view_links import register_view
from ..core.arguments import size_args


def _sizes(args: tuple) -> tuple:
    """Accept f(2, 3) and f((2, 3)) alike."""
    return tuple(as_size(a) for a in size_args(args))


def _target(x: Tensor, shape: tuple) -> tuple:
    """``shape`` with its -1 worked out, checked against ``x``'s number of elements."""
    total = math.prod(x.shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or total % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {total}")
        shape = tuple(total // known if s == -1 else s for s in shape)
    if math.prod(shape) != total or any(s < 0 for s in shape):
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {total}")
    return shape


def reshape(x: Tensor, *shape: Any) -> Tensor:
    """A view in ``shape`` where torch's strides allow one, else (a transposed or strided
    tensor) a copy, as torch's: changing it in place then leaves ``x`` alone."""
    shape = _target(x, _sizes(shape))
    if layout.view_strides(tuple(x.shape), layout.strides(x), shape) is None:
        copy = _copy(x)
        return apply("reshape", copy, shape_to=shape, _torch_name="UnsafeViewBackward0")
    return _moved(x, "reshape", shape_to=shape)


def view(x: Tensor, *shape: Any) -> Tensor:
    """A view in ``shape``: torch's error where the strides allow none (use reshape);
    ``view(dtype)`` shows the same bytes as another dtype of the same size."""
    if len(shape) == 1 and isinstance(shape[0], (dtypes.DType, str)) and \
            not isinstance(shape[0], int):
        return _bitcast(x, dtypes.as_dtype(shape[0]))
    shape = _target(x, _sizes(shape))
    if layout.view_strides(tuple(x.shape), layout.strides(x), shape) is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride "
                           "(at least one dimension spans across two contiguous subspaces). "
                           "Use .reshape(...) instead.")
    return _moved(x, "reshape", shape_to=shape)


def _copy(x: Tensor) -> Tensor:
    """A row-major copy of ``x`` (torch's ``clone``, CloneBackward0)."""
    out = apply("cast", x, dtype=x.dtype, _torch_name="CloneBackward0") \
        if x.requires_grad else Tensor(x._value.copy(), None) if x.__class__ is Tensor \
        and x._value is not None and not lazy.in_step(x) \
        else apply("cast", x, dtype=x.dtype)   # (traced, pending, a captured step's)
    out._strides = None
    return out


def _bitcast(x: Tensor, dt) -> Tensor:
    if dt.itemsize != x.dtype.itemsize:
        raise RuntimeError(f"view(dtype): symgrad shows a tensor as a dtype of the same size "
                           f"only ({x.dtype.name} is {x.dtype.itemsize} bytes, {dt.name} "
                           f"{dt.itemsize})")
    if x._value is None:
        raise NotGeneric("view(dtype) of a traced tensor")
    return Tensor(np.ascontiguousarray(x._value).view(dt.np), None)


def flatten(x: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if x.ndim == 0:
        return reshape(x, 1)
    (s,) = normalize_axes(start_dim, x.ndim)
    (e,) = normalize_axes(end_dim, x.ndim)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    return reshape(x, x.shape[:s] + (math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:])


def permute(x: Tensor, *dims: Any) -> Tensor:
    dims = _sizes(dims)
    if len(dims) != x.ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {x.ndim} is not equal to len(dims) = {len(dims)}")
    perm = tuple(normalize_axes(d, x.ndim)[0] for d in dims)
    return _moved(x, "permute", perm=perm)


def transpose(x: Tensor, dim0: int, dim1: int) -> Tensor:
    if x.ndim == 0:
        return _new_view(x, "TransposeBackward0")
    (a,) = normalize_axes(dim0, x.ndim)
    (b,) = normalize_axes(dim1, x.ndim)
    perm = list(range(x.ndim))
    perm[a], perm[b] = perm[b], perm[a]
    return _moved(x, "permute", "TransposeBackward0", perm=tuple(perm))


def t(x: Tensor) -> Tensor:
    if x.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    if x.ndim < 2:
        return _moved(x, "reshape", "TBackward0", shape_to=x.shape)
    return _moved(x, "permute", "TBackward0", perm=(1, 0))


def T(x: Tensor) -> Tensor:
    return apply("permute", x, perm=tuple(reversed(range(x.ndim)))) if x.ndim > 1 else x


def unsqueeze(x: Tensor, dim: int) -> Tensor:
    (d,) = normalize_axes(dim, x.ndim + 1)
    return _moved(x, "reshape", "UnsqueezeBackward0", shape_to=x.shape[:d] + (1,) + x.shape[d:])


def squeeze(x: Tensor, dim: Any = None) -> Tensor:
    axes = normalize_axes(dim, x.ndim) if x.ndim else ()
    shape = tuple(s for i, s in enumerate(x.shape) if not (i in axes and s == 1))
    name = "SqueezeBackward0" if dim is None else \
        "SqueezeBackward2" if isinstance(dim, (tuple, list)) else "SqueezeBackward1"
    return _moved(x, "reshape", name, shape_to=shape)


def broadcast_to(x: Tensor, shape: Sequence[int]) -> Tensor:
    shape = tuple(shape)
    lead = len(shape) - x.ndim
    shape = tuple(x.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(shape))
    if same_shape(shape, x.shape):
        return _new_view(x, "ExpandBackward0")
    return apply("expand", x, shape_to=shape)


def _new_view(x: Tensor, torch_name: str) -> Tensor:
    """``x`` itself for an op that leaves it as it is, unless that would show: where ``x``
    takes part in a gradient, torch's result is a new view with a node of its own."""
    if x._requires_grad and grad_mode.is_grad_enabled():
        return apply("reshape", x, shape_to=tuple(x.shape), _torch_name=torch_name)
    return x


def expand(x: Tensor, *sizes: Any) -> Tensor:
    return broadcast_to(x, _sizes(sizes))


def expand_as(x: Tensor, other: Tensor) -> Tensor:
    return broadcast_to(x, other.shape)


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    tensors = [as_tensor(t) for t in tensors]
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    # torch skips 1-D empty tensors in cat
    places = [i for i, t in enumerate(tensors) if not (t.ndim == 1 and t.shape[0] == 0)] or [0]
    kept = [tensors[i] for i in places]
    for i, t in enumerate(kept):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    (axis,) = normalize_axes(dim, kept[0].ndim)
    # torch promotes over every tensor, the skipped empty ones too
    target = dtypes.promote([(t.dtype, 2) for t in tensors])
    kept = [t if t.dtype is target else t.to(target) for t in kept]
    if len(kept) < len(tensors) and grad_mode.is_grad_enabled() and \
            any(t._requires_grad for t in tensors):
        inputs = list(tensors)
        for i, t in zip(places, kept):
            inputs[i] = t
        return _with_skipped(inputs, places, axis)
    return apply("cat", *kept, axis=axis)   # a new tensor, even of one (torch's: no alias)


def _with_skipped(inputs: list, places: list, axis: int) -> Tensor:
    """``cat`` of ``inputs`` at ``places`` whose CatBackward0 has an edge for every operand,
    as torch's: the skipped 1-D empty ones get an empty gradient (their slice of the
    cotangent, in torch's kernel)."""
    with grad_mode.no_grad():
        out = apply("cat", *(inputs[i] for i in places), axis=axis)
    sizes = [inputs[i].shape[axis] if i in places else None for i in range(len(inputs))]

    def rule(g, o, ins):
        cts, start = [], 0
        for t, n in zip(ins, sizes):
            if n is None:
                cts.append(full(t, 0, (0,)))
                continue
            starts = tuple(start if d == axis else 0 for d in range(g.ndim))
            stops = tuple(start + n if d == axis else m for d, m in enumerate(g.shape))
            cts.append(apply("slice", g, starts=starts, stops=stops, steps=(1,) * g.ndim))
            start += n
        return tuple(cts)
    return attach_function(out, "CatBackward0", rule, inputs, saves=False, uses_out=False)


concat = concatenate = cat


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    tensors = [as_tensor(t) for t in tensors]
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0].shape
    for i, t in enumerate(tensors):
        if not same_shape(t.shape, first):
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {first} at "
                               f"entry 0 and {t.shape} at entry {i}")
    (d,) = normalize_axes(dim, len(first) + 1)
    target = dtypes.promote([(t.dtype, 2) for t in tensors])
    parts = [unsqueeze(t if t.dtype is target else t.to(target), d) for t in tensors]
    if len(parts) == 1:
        return apply("reshape", parts[0], shape_to=parts[0].shape, _torch_name="StackBackward0")
    return apply("cat", *parts, axis=d, _torch_name="StackBackward0")


def getitem(x: Tensor, index: Any) -> Tensor:
    """Basic indexing: ints, slices (positive steps), None and Ellipsis."""
    return sliced(x, plain_windows(x.shape, index) or _windows(x, index))


def sliced(x: Tensor, windows: tuple) -> Tensor:
    """``x`` cut by ``windows`` (``_windows``' result): a slice, then a reshape where an int
    drops a dim or a None adds one."""
    starts, stops, steps, out_shape, cut, has_int, last = windows
    out = x
    # (a slice keeps every dim: only an int, which drops one, or a None, which adds one,
    # needs a reshape after it; a slice of slices alone is its own result)
    reshaped = has_int or len(out_shape) != x.ndim
    if _direct(x):
        return _eager_sliced(x, starts, stops, steps, out_shape, cut, reshaped)
    if cut:
        inner = "SelectBackward0" if has_int else "SliceBackward0"
        out = apply("slice", x, starts=starts, stops=stops, steps=steps,
                    _torch_name=inner if reshaped else last)
    if reshaped or out is x:   # torch's result is a new tensor, an alias at least
        out = apply("reshape", out, shape_to=out_shape, _torch_name=last)
    return out


def _windows(x: Tensor, index: Any) -> tuple:
    """(starts, stops, steps, the result's shape, whether anything is cut, whether an int
    selects, the grad_fn torch shows) of basic index ``index`` of ``x``."""
    given, index = index, _full_index(x, index)
    starts, stops, steps, out_shape = [], [], [], []
    dim = 0
    for item in index:
        if item is None:
            out_shape.append(1)
            continue
        start, stop, step, kept = _window(item, x.shape[dim], dim)
        starts.append(start)
        stops.append(stop)
        steps.append(step)
        if kept is not None:
            out_shape.append(kept)
        dim += 1
    sliced = not same_shape(tuple(starts), (0,) * x.ndim) or \
        not same_shape(tuple(stops), x.shape) or bool(set(steps) - {1})
    has_int = any(not isinstance(i, slice) and i is not None for i in index)
    return (tuple(starts), tuple(stops), tuple(steps), tuple(out_shape), sliced, has_int,
            _last_step(x, given))


_SLICE, _RESHAPE = OPS["slice"].numpy, OPS["reshape"].numpy


def _direct(x: Tensor) -> bool:
    """Whether a view of ``x`` may be made without ``apply``: eager, plain, no node to record
    (no grad, no trace running), no captured step open (its ops are recorded, a composite's
    body too, which runs under no_grad)."""
    return x.__class__ is Tensor and not CAPTURING[0] and x._value is not None and \
        not (x._requires_grad and grad_mode._local.enabled) and sources.current() is None \
        and lazy.STATE.region is None


def _moved(x: Tensor, name: str, torch_name: str | None = None, **attrs) -> Tensor:
    """``apply(name, x, **attrs)`` for a movement op whose attributes are checked; for ``x``
    with no node to record (``_direct``), the view ``apply`` makes, without its rules: the
    same values (NumPy's view), links and version counter."""
    if _direct(x):
        out = Tensor(OPS[name].numpy(x._value, **attrs), None)
        register_view(out, x, name, attrs)
        return out
    return apply(name, x, _torch_name=torch_name, **attrs)


def _eager_sliced(x: Tensor, starts, stops, steps, out_shape, cut: bool,
                  reshaped: bool) -> Tensor:
    """``sliced`` of an eager tensor with no node to record (no grad, no trace, not a captured
    step's result): the views ``apply`` makes -- the same values (NumPy views of ``x``'s
    array), links and version counter -- without its rules (the windows are checked)."""
    out = x
    if cut:
        attrs = {"starts": starts, "steps": steps, "stops": stops}   # (apply's sorted order)
        out = Tensor(_SLICE(x._value, **attrs), None)
        register_view(out, x, "slice", attrs)
    if reshaped or out is x:
        base, attrs = out, {"shape_to": out_shape}
        out = Tensor(_RESHAPE(base._value, **attrs), None)
        register_view(out, base, "reshape", attrs)
    return out


def plain_windows(shape: tuple, index: Any) -> tuple | None:
    """``_windows`` in one pass for the common index: ints in range and slices of positive
    int steps (or none), in a tuple or alone, of a tensor of static sizes. None for anything
    else (None, ``...``, call-time sizes, an index out of range, a numpy integer): the
    general path decides, and raises where it must. (Once per ``x[...]`` of a traced program:
    most of a recursive program's trace, ~2x as fast as the general path.)"""
    lone = type(index) is not tuple
    items = (index,) if lone else index
    if len(items) > len(shape):
        return None
    starts, stops, steps, out_shape = [], [], [], []
    sliced = has_int = False
    last = "AliasBackward0"
    for dim, size in enumerate(shape):
        if type(size) is not int:
            return None
        item = items[dim] if dim < len(items) else _WHOLE
        kind = type(item)
        if kind is int:
            if not -size <= item < size:
                return None
            start = item % size
            starts.append(start)
            stops.append(start + 1)
            steps.append(1)
            sliced = sliced or size != 1
            has_int = True
            last = "SelectBackward0"
            continue
        if kind is not slice or item.step is not None and (type(item.step) is not int
                                                           or item.step <= 0):
            return None
        start, stop, step = item.indices(size)
        kept = len(range(start, stop, step))
        starts.append(start)
        stops.append(stop if stop > start else start)
        steps.append(step)
        out_shape.append(kept)
        if start != 0 or step != 1 or kept != size:
            sliced = True
        # torch skips a slice of a whole dim in a tuple (``_last_step``); a lone one is applied
        if item is not _WHOLE and (lone or not (
                _whole_from(item) and (item.stop is None or _at_least(item.stop, size)))):
            last = "SliceBackward0"
    return (tuple(starts), tuple(stops), tuple(steps), tuple(out_shape), sliced, has_int,
            last)


_WHOLE = slice(None)


_STEP = {int: "SelectBackward0", slice: "SliceBackward0", type(None): "UnsqueezeBackward0"}


def _last_step(x: Tensor, index: Any) -> str:
    """The grad_fn torch's ``x[index]`` shows: its last step's, torch applying the items in
    order (an int selects, a slice slices, None unsqueezes), skipping a slice of a whole dim
    in a tuple (0 to at least the size, step 1; a lone slice is always applied);
    AliasBackward0 if no step is left."""
    if not isinstance(index, tuple):
        return _STEP.get(type(index), "SelectBackward0") if index is not Ellipsis \
            else "AliasBackward0"
    last, dim = "AliasBackward0", 0
    for item in index:
        if item is Ellipsis:
            dim = x.ndim - sum(1 for i in index if i is not None and i is not Ellipsis) + dim
            continue
        if isinstance(item, slice) and _whole_from(item) \
                and (item.stop is None or dim < x.ndim and _at_least(item.stop, x.shape[dim])):
            dim += 1
            continue
        last = _STEP.get(type(item), "SelectBackward0")
        dim += item is not None
    return last


def selects_all(x: Tensor, index: Any) -> bool:
    """Whether basic index ``index`` takes all of ``x`` as it is (``...``, ``()``, whole
    slices): where torch's ``x[index] = v`` writes into ``x`` itself, not a view of it."""
    return _last_step(x, index if isinstance(index, tuple) else (index,)) == "AliasBackward0"


def _whole_from(item: slice) -> bool:
    """Whether slice ``item`` starts at 0 with step 1 (bounds may be traced Python numbers,
    whose value the window reads anyway: ``operator.index``, not ``==``, which traces)."""
    return (item.start is None or operator.index(item.start) == 0) and \
        (item.step is None or operator.index(item.step) == 1)


def _at_least(stop, size) -> bool:
    return not isinstance(size, Dim) and int(stop.__index__()) >= size


def _full_index(x: Tensor, index: Any) -> tuple:
    """``index`` as a tuple with one item per dim of ``x`` (plus the Nones): the Ellipsis, or
    the missing trailing dims, spelled out as full slices."""
    if not isinstance(index, tuple):
        index = (index,)
    n_ell = used = 0   # (one loop, not three generator expressions: once per x[...])
    for i in index:
        if isinstance(i, (Tensor, list)):
            raise NotImplementedError("indexing with tensors or lists (advanced indexing) is "
                                      "not supported yet; use gather / take_along_dim")
        if i is Ellipsis:
            n_ell += 1
        elif i is not None:
            used += 1
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if used > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")
    if n_ell:
        k = index.index(Ellipsis)
        return index[:k] + (slice(None),) * (x.ndim - used) + index[k + 1:]
    return index + (slice(None),) * (x.ndim - used)


def _window(item: Any, size: int, dim: int) -> tuple:
    """(start, stop, step, kept size or None for an int) of one dim's index item."""
    if isinstance(size, Dim):
        return _call_time_window(item, size, dim)
    if isinstance(item, slice):
        start, stop, step = item.indices(size) if (item.step or 1) > 0 else (0, 0, 0)
        if step <= 0:
            raise ValueError("step must be greater than zero")
        return start, max(stop, start), step, len(range(start, stop, step))
    try:
        i = int(item.__index__())
    except AttributeError:
        raise TypeError(f"invalid index {item!r} of type {type(item).__name__}; "
                        "expected an int, a slice, None or ...") from None
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
    i %= size
    return i, i + 1, 1, None


def _call_time_window(item: Any, size: Dim, dim: int) -> tuple:
    """``_window`` of a dim whose size is known at call time (dims.Dim): unit-step slices and
    ints, with bounds clamped as Python clamps them (each comparison a size guard)."""
    def bound(b, default):
        if b is None:
            return default
        b = int(b.__index__())
        b = b if b >= 0 else size + b
        return 0 if b < 0 else size if b > size else b
    if isinstance(item, slice):
        if (item.step or 1) != 1:
            raise NotGeneric(f"a slice with step {item.step} of a call-time size")
        start, stop = bound(item.start, 0), bound(item.stop, size)
        stop = stop if stop >= start else start
        return start, stop, 1, stop - start
    i = item if isinstance(item, Dim) else int(item.__index__())   # (x[x.shape[0] - 1])
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
    i = i if i >= 0 else size + i
    return i, i + 1, 1, None
