"""torch's scatter and scatter_add (and scatter's ``reduce=``): ``x`` with ``src`` (or a value)
written or added at ``index`` along ``dim``.

Layer: front end, above ``basic`` and ``indexing`` (``manipulation`` lists them with the other
indexed writes). Input: tensors, an index tensor, a dim. Output: tensors built from the
``scatter_add`` primitive and ``where`` (differentiable, compiled), with torch's checks;
``reduce=`` has no derivative, as in torch, and ``"multiply"`` is eager only.
"""

from __future__ import annotations

import numpy as np

from ...dims import same_shape
from ...ops.registry import normalize_axes
from ..core.apply import apply, as_tensor, full
from ..core.tensor import Tensor
from .basic import composite, where
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
