"""torch's remaining shape functions: ``Tensor.unfold`` (sliding windows with torch's strides),
``swapdims``, ``vsplit hsplit dsplit``, ``split_with_sizes``, ``unsafe_split unsafe_chunk
unsafe_split_with_sizes``, ``sum_to_size``, ``diagflat``, ``narrow_copy`` and the ``*_copy``
functions (one table: a view function, its outputs copied).

Layer: front end (functions), above ``shapes``, ``manipulation`` and ``strided``. Input: tensors,
eager or traced, and torch's arguments (checked with torch's messages). Output: tensors composed
of existing ops, showing torch's grad_fn names. ``unfold`` gathers its windows (a copy here, not
a view: writing into it does not reach its base) and reports the strides and storage offset
torch's view has. A ``*_copy`` function returns fresh tensors whose grad_fn is the view's name
with ``_copy`` appended, as torch's generated copy variants.
"""

from __future__ import annotations

import numpy as np

from ..core import grad_mode, layout
from ..core.apply import apply, attach_function, register_view
from ..core.tensor import Tensor
from .assorted import select
from .basic import composite
from .basic import sum as sum_along
from .complexes import view_as_complex, view_as_real
from .manipulation import (chunk, diag_embed, diagonal, narrow, split,
                           swapaxes, tensor_split, unbind)
from .shapes import expand, permute, reshape, squeeze, t, transpose, unsqueeze, view
from .strided import as_strided
from .torch_nodes import named_outputs, named_view
from .windows import windows
from .underivable import without_derivative


def _dim(x: Tensor, dim: int) -> int:
    """``dim`` counted from 0, with torch's message when out of range."""
    n = max(x.ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


# ---------------------------------------------------------------- sliding windows

def unfold(x: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """The windows of ``size`` elements every ``step`` along ``dimension``: that dim becomes
    the window count and a last dim of ``size`` is added (UnfoldBackward0; torch's strides)."""
    d = _dim(x, dimension)
    n = x.shape[d] if x.ndim else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    out = composite("UnfoldBackward0", lambda v: windows(v, d, size, step), [x], saves=False,
                    uses_out=False)
    register_view(out, x, "unfold", {"dim": d, "size": size, "step": step})
    if x.ndim:
        st = layout.strides(x)
        out._strides = st[:d] + (st[d] * step,) + st[d + 1:] + (st[d],)
    else:
        out._strides = (1,)
    offset = layout.storage_offset(x)
    if offset:
        layout.set_storage_offset(out, offset)
    return out


# ---------------------------------------------------------------- splits

def swapdims(x: Tensor, dim0: int, dim1: int) -> Tensor:
    return swapaxes(x, dim0, dim1)


def _split_dims(name: str, x: Tensor, least: int, dim: int, sections) -> tuple:
    """torch's vsplit/hsplit/dsplit: tensor_split along ``dim``; an int must divide it."""
    if x.ndim < least:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension"
                           f"{'s' if least == 0 else ''}, but got a tensor with {x.ndim} "
                           f"dimensions!")
    if isinstance(sections, int):
        n = x.shape[dim]
        if sections == 0 or n % sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but "
                               f"the size of the dimension {n} is not divisible by the "
                               f"split_size {sections}!")
    return tensor_split(x, sections if isinstance(sections, int) else list(sections), dim)


def vsplit(x: Tensor, indices_or_sections) -> tuple:
    return _split_dims("vsplit", x, 2, 0, indices_or_sections)


def hsplit(x: Tensor, indices_or_sections) -> tuple:
    return _split_dims("hsplit", x, 1, 1 if x.ndim > 1 else 0, indices_or_sections)


def dsplit(x: Tensor, indices_or_sections) -> tuple:
    return _split_dims("dsplit", x, 3, 2, indices_or_sections)


def split_with_sizes(x: Tensor, split_sizes, dim: int = 0) -> tuple:
    return split(x, list(split_sizes), dim)


def _unsafe(torch_name: str, pieces):
    """A split whose pieces share one node named ``torch_name`` (torch's unsafe variants:
    the same values, no view tracking)."""
    def fn(x: Tensor, *args, **kwargs) -> tuple:
        outs = named_outputs(torch_name, lambda v: pieces(v, *args, **kwargs), [x],
                             saves=False)
        for o in outs:   # no view tracking: in-place updates allowed (``view_links``)
            o._creation = None
        return outs
    fn.__name__ = torch_name
    return fn


unsafe_split = _unsafe("UnsafeSplitBackward0", split)
unsafe_chunk = _unsafe("UnsafeSplitBackward0", chunk)
unsafe_split_with_sizes = _unsafe("UnsafeSplitWithSizesBackward0", split_with_sizes)
unsafe_split.__name__, unsafe_chunk.__name__ = "unsafe_split", "unsafe_chunk"
unsafe_split_with_sizes.__name__ = "unsafe_split_with_sizes"


# ---------------------------------------------------------------- sums, diagonals, copies

def sum_to_size(x: Tensor, *size) -> Tensor:
    """``x`` summed down to ``size`` (a shape ``size`` broadcasts to ``x``'s): the leading
    dims and the dims of size 1 in ``size`` are summed (torch's ``sum_to``)."""
    size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    size = tuple(int(n) for n in size)
    lead = x.ndim - len(size)
    if lead < 0 or any(n != 1 and n != m for n, m in zip(size, x.shape[lead:])):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size "
                           f"{{{list(x.shape)}}}.")
    if not size:                     # torch's sum_to of no shape: the whole sum
        return sum_along(x)
    dims = list(range(lead)) + [lead + i for i, n in enumerate(size)
                                if n == 1 and x.shape[lead + i] != 1]
    if not dims:
        return x if not lead else view(x, size)
    out = sum_along(x, dims, keepdim=True)
    return view(out, size) if lead else out


def diagflat(x: Tensor, offset: int = 0) -> Tensor:
    """A square matrix with the flattened ``x`` on its ``offset`` diagonal."""
    return diag_embed(reshape(x, -1), offset)


def narrow_copy(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    """``narrow``'s elements in new storage (NarrowCopyBackward0), with torch's checks of its
    own (a dim out of range is a RuntimeError, a negative length overruns)."""
    if not -max(x.ndim, 1) <= dim < max(x.ndim, 1):
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
                           "but got false.  (Could this error message be improved?  If so, "
                           "please report an enhancement request to PyTorch.)")
    n = x.shape[dim] if x.ndim else 1
    begin = start + n if -n <= start < 0 else start
    if 0 <= begin <= n and length < 0:
        raise RuntimeError(f"start ({begin}) + length ({length}) exceeds dimension size ({n}).")
    return composite("NarrowCopyBackward0", lambda v: _fresh(narrow(v, dim, start, length)),
                     [x], saves=False, uses_out=False)


def _fresh(o: Tensor) -> Tensor:
    """``o``'s values in new, row-major storage; the gradient passes to ``o``."""
    copy = Tensor(None if o._value is None else np.array(o._value), o._node)
    if not (grad_mode.is_grad_enabled() and o._requires_grad):
        return copy
    name = f"{o.grad_fn.name() if o.grad_fn is not None else 'AliasBackward0'}_copy"
    return attach_function(copy, name, lambda g, out, ins: (g,), [o], saves=False,
                           uses_out=False)


def _copy_variant(name: str, view_fn):
    """torch's ``<view>_copy``: ``view_fn``'s outputs as fresh tensors."""
    def fn(*args, **kwargs):
        out = view_fn(*args, **kwargs)
        many = isinstance(out, (tuple, list))
        outs = tuple(out) if many else (out,)
        if grad_mode.is_grad_enabled() and any(o.dtype.is_complex and o._requires_grad
                                               for o in outs):
            raise RuntimeError(f"{name} does not support automatic differentiation for "
                               f"outputs with complex dtype.")
        copies = tuple(_fresh(o) for o in outs)
        return copies if many else copies[0]
    fn.__name__ = name
    return fn


def _slice(x: Tensor, dim: int = 0, start=None, end=None, step: int = 1) -> Tensor:
    """torch's ``slice`` (``start:end:step`` along ``dim``, bounds clamped): SliceBackward0."""
    d = _dim(x, dim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    n = x.shape[d]
    lo, hi, _ = slice(start, end, step).indices(n)
    hi = max(hi, lo)
    starts = tuple(lo if k == d else 0 for k in range(x.ndim))
    stops = tuple(hi if k == d else m for k, m in enumerate(x.shape))
    steps = tuple(step if k == d else 1 for k in range(x.ndim))
    return apply("slice", x, starts=starts, stops=stops, steps=steps,
                 _torch_name="SliceBackward0")


def _alias(x: Tensor) -> Tensor:
    return named_view("AliasBackward0", lambda v: v, x)


def detach_copy(x: Tensor) -> Tensor:
    """A copy of ``x``: torch records a node with no derivative (NotImplemented) on it."""
    return without_derivative("NotImplemented", lambda v: _fresh(v), [x],
                              "derivative for aten::detach_copy is not implemented")


# the copy variants of torch's views, each the view's outputs copied
view_copy = _copy_variant("view_copy", view)
permute_copy = _copy_variant("permute_copy", permute)
transpose_copy = _copy_variant("transpose_copy", transpose)
unsqueeze_copy = _copy_variant("unsqueeze_copy", unsqueeze)
squeeze_copy = _copy_variant("squeeze_copy", squeeze)
diagonal_copy = _copy_variant("diagonal_copy", diagonal)
expand_copy = _copy_variant("expand_copy", expand)
select_copy = _copy_variant("select_copy", select)
slice_copy = _copy_variant("slice_copy", _slice)
t_copy = _copy_variant("t_copy", t)
unbind_copy = _copy_variant("unbind_copy", unbind)
split_copy = _copy_variant("split_copy", split)
split_with_sizes_copy = _copy_variant("split_with_sizes_copy", split_with_sizes)
alias_copy = _copy_variant("alias_copy", _alias)
unfold_copy = _copy_variant("unfold_copy", unfold)
view_as_real_copy = _copy_variant("view_as_real_copy", view_as_real)
view_as_complex_copy = _copy_variant("view_as_complex_copy", view_as_complex)
as_strided_copy = _copy_variant("as_strided_copy", as_strided)

__all__ = ["swapdims", "vsplit", "hsplit", "dsplit", "split_with_sizes", "unsafe_split",
           "unsafe_chunk", "unsafe_split_with_sizes", "diagflat", "narrow_copy", "detach_copy",
           "view_copy", "permute_copy", "transpose_copy", "unsqueeze_copy", "squeeze_copy",
           "diagonal_copy", "expand_copy", "select_copy", "slice_copy", "t_copy", "unbind_copy",
           "split_copy", "split_with_sizes_copy", "alias_copy", "unfold_copy",
           "view_as_real_copy", "view_as_complex_copy", "as_strided_copy"]
METHODS = {name: globals()[name] for name in (
    "unfold", "swapdims", "vsplit", "hsplit", "dsplit", "split_with_sizes", "unsafe_split",
    "unsafe_chunk", "sum_to_size", "diagflat", "narrow_copy")}
