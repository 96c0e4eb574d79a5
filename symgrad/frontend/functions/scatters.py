"""torch's scatter, scatter_add (and scatter's ``reduce=``) and scatter_reduce: ``x`` with
``src`` (or a value) written, added or reduced at ``index`` along ``dim``.

Layer: front end, above ``basic`` and ``indexing`` (``manipulation`` lists them with the other
indexed writes). Input: tensors, an index tensor, a dim. Output: tensors built from the
``scatter_add`` primitive and ``where`` (differentiable, compiled), with torch's checks;
``reduce=`` has no derivative, as in torch, and ``"multiply"`` is eager only.
"""

from __future__ import annotations

import warnings

import numpy as np

from ... import dtypes
from ...dims import same_shape
from ...ops.registry import normalize_axes
from ..core.apply import apply, as_tensor, full
from ..core.tensor import Tensor
from . import basic as F
from .basic import composite, where
from .inplace import update
from .shapes import cat, transpose, unsqueeze
from .index_checks import along_index, as_vector
from .indexing import index
from .underivable import not_implemented, without_derivative


def _scatter_index(x: Tensor, dim: int, idx: Tensor, src: Tensor, name: str = "Scatter"):
    """The axis, the index, and ``src`` cut to the index's shape (torch reads only that
    part of it), with torch's checks. The gradient of a cut ``src`` is the index's shape in
    torch: unless ``src``'s shape broadcasts to it (then it is summed back), torch's backward
    (node ``name``) refuses it."""
    a = normalize_axes(dim, x.ndim)[0]
    idx = as_tensor(idx)
    if idx.ndim != x.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as self "
                           "tensor")
    idx = along_index("scatter", x, idx, dim)
    if not same_shape(src.shape, idx.shape):
        cut = tuple(slice(0, n) for n in idx.shape)
        if src.requires_grad and not _expandable(src.shape, idx.shape):
            return a, idx, without_derivative(
                "SliceBackward0", lambda t: index(t, cut), [src],
                f"Function {name}Backward0 returned an invalid gradient at index 1 - got "
                f"{list(idx.shape)} but expected shape compatible with {list(src.shape)}")
        src = index(src, cut)
    return a, idx, src


def _expandable(shape: tuple, to: tuple) -> bool:
    """Whether ``shape`` broadcasts to ``to`` (torch's is_expandable_to)."""
    return len(shape) <= len(to) and all(
        n == m or n == 1 for n, m in zip(reversed(shape), reversed(to)))


def _same_dtype(x: Tensor, src) -> Tensor:
    src = as_tensor(src)
    if src.dtype is not x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    return src


@as_vector
def scatter_add(x: Tensor, dim: int, index_: Tensor, src: Tensor) -> Tensor:
    """``x`` plus ``src`` added at ``index`` along ``dim`` (repeated indices add up)."""
    a, idx, src = _scatter_index(x, dim, index_, _same_dtype(x, src), "ScatterAdd")
    return _named("ScatterAddBackward0", lambda v, s: v + apply(
        "scatter_add", s, idx, axis=a, shape_to=tuple(v.shape)), [x, src])


@as_vector
def scatter(x: Tensor, dim: int, index_: Tensor, src=None, value=None, *,
            reduce: str | None = None) -> Tensor:
    """``x`` with the elements at ``index`` along ``dim`` replaced by ``src`` (or ``value``).
    Where an index repeats, torch keeps one of the values (unspecified): here they add up."""
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if src is None:
        src = value
    given = isinstance(src, Tensor)
    if not given:
        src = full(as_tensor(index_), src, dtype=x.dtype)
    a, idx, src = _scatter_index(x, dim, index_, _same_dtype(x, src) if given else src)
    if reduce is not None:
        return without_derivative("NotImplemented", lambda v, s: _reduced(v, a, idx, s, reduce),
                                  [x, src], not_implemented("scatter"))
    hit = apply("scatter_add", full(idx, 1), idx, axis=a, shape_to=tuple(x.shape)) != 0

    def body(v, s):
        return where(hit, apply("scatter_add", s, idx, axis=a, shape_to=tuple(v.shape)), v)
    if given:
        return _named("ScatterBackward0", body, [x, src])
    return _named("ScatterBackward1", lambda v: body(v, src), [x])


def _named(torch_name: str, body, inputs: list) -> Tensor:
    """``body(*inputs)`` as one node named as torch's (the bodies are linear in their inputs:
    the rule reads no value)."""
    return composite(torch_name, body, inputs, saves=False, uses_out=False)


def _reduced(x: Tensor, axis: int, idx: Tensor, src: Tensor, reduce: str) -> Tensor:
    """scatter's ``reduce=``: ``src`` added to (``"add"``) or multiplying (``"multiply"``) the
    elements of ``x`` at ``idx`` along ``axis``, repeated indices in turn (eager for
    ``"multiply"``)."""
    if reduce == "add":
        return x + apply("scatter_add", src, idx, axis=axis, shape_to=tuple(x.shape))
    if x.is_traced or src.is_traced or idx.is_traced:
        raise NotImplementedError("scatter(reduce='multiply') of traced tensors is not "
                                  "supported yet; use scatter_reduce(..., 'prod')")
    out, where_ = x._value.copy(), list(np.indices(idx.shape, sparse=True))
    where_[axis] = idx._value
    np.multiply.at(out, tuple(where_), src._value)
    return Tensor(out, None)


# ---------------------------------------------------------------- scatter_reduce

_REDUCE = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "amax", "amin": "amin",
           "max": "amax", "min": "amin"}


def scatter_reduce(x: Tensor, dim: int, index_: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """``x`` with the ``src`` elements at ``index`` along ``dim`` reduced into it (``sum prod
    mean amax amin``; with ``x``'s own value unless ``include_self=False``; a place no index
    names keeps its value). One composite, ``ScatterReduceBackward0``: each place reduces
    the row of its candidates, so the gradients are the reductions' own (ties of amax/amin
    share, as torch's formula does; prod's is zero-aware)."""
    if reduce not in _REDUCE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    if x.ndim == 0:     # as a 1-element vector (torch: dim 0 or -1)
        normalize_axes(dim, 0)
        one = scatter_reduce(x.reshape(1), 0, as_tensor(index_).reshape(1),
                             as_tensor(src).reshape(1), reduce, include_self=include_self)
        return apply("reshape", one, shape_to=(), _torch_name="ScatterReduceBackward0")
    a, idx, src = _scatter_index(x, dim, index_, _same_dtype(x, src), "ScatterReduce")
    how = _REDUCE[reduce]
    rule = _legacy_name(reduce) if how != reduce else None   # ("max": forward only)
    return composite("ScatterReduceBackward0", lambda v, s: _reduce_into(
        v, a, idx, s, how, include_self).to(v.dtype), [x, src], rule)


def _legacy_name(reduce: str):
    def rule(g, out, ins):
        raise RuntimeError(f"Expected 'reduce' argument to be one of 'sum', 'prod', 'mean', "
                           f"'amax', 'amin' but got {reduce}.")
    return rule


def _reduce_into(v: Tensor, a: int, idx: Tensor, s: Tensor, how: str, include_self: bool):
    cut = tuple(slice(None) if d == a else slice(0, n) for d, n in enumerate(idx.shape))
    whole = all(d == a or n == v.shape[d] for d, n in enumerate(idx.shape))
    mine = v if whole else index(v, cut)
    last = v.ndim - 1
    own, got, at = (transpose(t, a, last) for t in (mine, s, idx))   # the dim last
    m = own.shape[-1] if own.ndim else 1
    places = as_tensor(np.arange(m).reshape(m, 1))
    mask = F.eq(unsqueeze(at, -2), places)                           # (..., m, n)
    hit = F.gt(F.sum(mask.to(dtypes.int64), -1), 0)
    res = _reduced_rows(own, unsqueeze(got, -2), mask, hit, how, include_self)
    res = transpose(res, a, last)
    if whole:
        return res
    out = v * 1
    out[cut] = res
    return out


def _reduced_rows(own, cand, mask, hit, how: str, include_self: bool) -> Tensor:
    """Each place's reduction of its candidates (``cand`` where ``mask``) and its own value."""
    dt = own.dtype
    if how in ("sum", "mean"):
        total = F.sum(where(mask, cand, 0), -1)
        if how == "sum":
            return own + total if include_self else where(hit, total, own)
        count = F.sum(mask.to(dt), -1) + (1 if include_self else 0)
        numer = own + total if include_self else total
        safe = where(F.gt(count, 0), count, 1)
        mean = numer / safe if dt.is_floating else apply("floor_divide", numer, safe)
        return where(F.gt(count, 0), mean, own)
    fill = {"prod": 1, "amax": _lowest(dt), "amin": _highest(dt)}[how]
    rows = where(mask, cand, fill)
    if include_self:
        rows = cat([rows, unsqueeze(own, -1)], -1)
    r = {"prod": lambda t: F.prod(t, -1), "amax": lambda t: F.amax(t, -1),
         "amin": lambda t: F.amin(t, -1)}[how](rows)
    return r if include_self else where(hit, r, own)


def _lowest(dt):
    return -np.inf if dt.is_floating else int(np.iinfo(dt.np).min) if not dt.is_bool else 0


def _highest(dt):
    return np.inf if dt.is_floating else int(np.iinfo(dt.np).max) if not dt.is_bool else 1


def index_reduce(x: Tensor, dim: int, index_: Tensor, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    """``source``'s slices along ``dim`` reduced into ``x``'s slices at ``index`` (``prod
    mean amax amin``): scatter_reduce's rows with a 1-d index (``IndexReduceBackward0``)."""
    warnings.warn("index_reduce() is in beta and the API may change at any time.",
                  UserWarning, stacklevel=2)
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    idx, src = as_tensor(index_), as_tensor(source)
    a = normalize_axes(dim, max(x.ndim, 1))[0]
    if idx.ndim > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: "
                         f"{idx.ndim} with type: {idx.dtype.scalar_type} and size: "
                         f"{list(idx.shape)}")
    if src.ndim and idx.numel() != src.shape[a]:
        raise RuntimeError(f"index_reduce_(): Number of indices ({idx.numel()}) should be "
                           f"equal to source.size(dim): ({src.shape[a]}), for dim: {dim}")
    if src.dtype is not x.dtype:
        raise RuntimeError(f"index_reduce_(): self ({x.dtype.scalar_type}) and source "
                           f"({src.dtype.scalar_type}) must have the same scalar type")
    values = idx.concrete
    if values is not None and values.size and (values.min() < 0 or
                                               values.max() >= max(x.shape[a:a + 1] or (1,))):
        raise IndexError("index out of range in self")
    shape = [1] * max(src.ndim, 1)
    shape[a] = idx.numel()
    spread = idx.to(dtypes.int64).reshape(tuple(shape)).expand(tuple(src.shape) or (1,))

    def body(v, s):
        flat = v.ndim == 0
        v1, s1 = (v.reshape(1), s.reshape(1)) if flat else (v, s)
        out = _reduce_into(v1, a, spread, s1, reduce, include_self).to(v.dtype)
        return out.reshape(()) if flat else out
    return composite("IndexReduceBackward0", body, [x, src])


def _index_reduce_(self: Tensor, dim: int, index_: Tensor, source: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    return update(self, lambda v: index_reduce(v, dim, index_, source, reduce,
                                               include_self=include_self), "index_reduce_")


def _scatter_reduce_(self: Tensor, dim: int, index_: Tensor, src: Tensor, reduce: str, *,
                     include_self: bool = True) -> Tensor:
    return update(self, lambda v: scatter_reduce(v, dim, index_, src, reduce,
                                                 include_self=include_self), "scatter_reduce_")


__all__ = ["scatter_reduce", "index_reduce"]
METHODS = {"scatter_reduce": scatter_reduce, "scatter_reduce_": _scatter_reduce_,
           "index_reduce": index_reduce, "index_reduce_": _index_reduce_}
