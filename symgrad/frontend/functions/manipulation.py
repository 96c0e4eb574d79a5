"""torch-named tensor manipulation: reorder (flip, roll, movedim), repeat (repeat, tile), cut
(narrow, chunk, split, unbind), matrices (diagonal, diag, diag_embed, trace, tril, triu,
outer), and indexed reads and writes (index_select, masked_fill, masked_select, index_add,
scatter and scatter_add from ``scatters``, and their in-place forms).

Layer: front end, above ``shapes``, ``functional`` and ``indexing``. Input: tensors. Output:
tensors built from the movement primitives, ``gather``/``scatter_add`` and ``where``, so every
function here has a gradient, can be differentiated again and compiles (``masked_select`` as
``x[mask]`` does: until a reduction). Where torch shows one grad_fn (``FlipBackward0``...), it
is a composite with a backward rule built from the same functions.
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes
from ...ops.registry import broadcast_shapes, normalize_axes
from ..core.apply import apply, as_tensor, full
from ..core.arguments import tensors_only
from ..core.conversions import check_fits
from ..core.shown import shown_as
from .creation import arange
from .basic import composite, linear_composite, sum, where
from .strided import clone
from .indexing import index, index_copy, index_put
from .inplace import update
from .shapes import broadcast_to, cat, permute, reshape, stack, unsqueeze
from .torch_nodes import named_outputs, named_view
from ..core.tensor import Tensor
from .index_checks import along_index, as_vector, fill_index, vector_index
from .scatters import scatter, scatter_add


def _dim(x: Tensor, dim: int) -> int:
    return normalize_axes(dim, x.ndim)[0] if x.ndim else normalize_axes(dim, 1)[0]


def _along(x: Tensor, dim: int, idx: Tensor) -> Tensor:
    """``x`` indexed along ``dim`` by the 1-D int64 ``idx``."""
    return index(x, (slice(None),) * dim + (idx,))


# ---------------------------------------------------------------- reorder

def flip(x: Tensor, dims) -> Tensor:
    """The elements of ``dims`` in reverse order."""
    dims = [dims] if isinstance(dims, int) else list(dims)
    if x.ndim:
        axes = list(normalize_axes(dims, x.ndim))   # (a repeated dim is torch's error)
    else:   # a 0-d tensor: dims 0 / -1 accepted, nothing to reverse
        axes = [d for d in dims if _dim(x, d) is None]

    def body(v):
        for a in axes:
            if v.shape[a] > 1:
                v = _along(v, a, arange(v.shape[a] - 1, -1, -1))
        return v
    return composite("FlipBackward0", body, [x], lambda g, out, ins: (body(g),),
                     saves=False, uses_out=False)


def fliplr(x: Tensor) -> Tensor:
    if x.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(x, [1])


def flipud(x: Tensor) -> Tensor:
    if x.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(x, [0])


def roll(x: Tensor, shifts, dims=None) -> Tensor:
    """Elements shifted along ``dims`` (the flattened tensor if None), wrapping around."""
    if dims is None:   # the flattened tensor's roll: still one RollBackward0
        return composite("RollBackward0",
                         lambda v: reshape(roll(reshape(v, -1), shifts, 0), v.shape), [x])
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(dims)}")

    def body(v, sign=1):
        for s, d in zip(shifts, dims):
            a = _dim(v, d)
            n = v.shape[a]
            k = (sign * s) % n if n else 0
            if k:
                v = cat([_narrow(v, a, n - k, k), _narrow(v, a, 0, n - k)], a)
        return v
    return composite("RollBackward0", body, [x], lambda g, out, ins: (body(g, -1),),
                     saves=False, uses_out=False)


def movedim(x: Tensor, source, destination) -> Tensor:
    """``source`` dims moved to the positions ``destination``, the others in order."""
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [_dim(x, d) for d in src]
    dst = [_dim(x, d) for d in dst]
    if not x.ndim:   # torch: an alias of a 0-d tensor
        return shown_as(permute(x, []), "AliasBackward0", x)
    order = [None] * x.ndim
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(x.ndim) if d not in src)
    return permute(x, [o if o is not None else next(rest) for o in order])


moveaxis = movedim


def swapaxes(x: Tensor, axis0: int, axis1: int) -> Tensor:
    return x.transpose(axis0, axis1)


# ---------------------------------------------------------------- repeat

def repeat(x: Tensor, *sizes) -> Tensor:
    """``x`` tiled ``sizes[i]`` times along each dim (new leading dims for extra sizes)."""
    sizes = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) \
        else tuple(sizes)
    if len(sizes) < x.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")

    def tiled(a):
        v = reshape(a, (1,) * (len(sizes) - a.ndim) + tuple(a.shape))
        shape = v.shape
        inter = reshape(v, tuple(d for s in shape for d in (1, s)))
        wide = broadcast_to(inter, tuple(d for r, s in zip(sizes, shape) for d in (r, s)))
        # a new tensor, as torch's (not a view of x: writing into it leaves x alone)
        return clone(reshape(wide, tuple(r * s for r, s in zip(sizes, shape))))
    return linear_composite("RepeatBackward0", tiled, [x])


def tile(x: Tensor, dims) -> Tensor:
    dims = tuple(dims)
    return repeat(x, (1,) * (x.ndim - len(dims)) + dims)


def repeat_interleave(x: Tensor, repeats=None, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """Each element repeated ``repeats`` times along ``dim`` (flattened if None); ``repeats`` a
    tensor: element i ``repeats[i]`` times (eager); ``repeat_interleave(r)``: the indices
    0, 1, ... each repeated ``r[i]`` times."""
    if repeats is None:
        counts = as_tensor(x)
        return as_tensor(np.repeat(np.arange(counts.shape[0]), counts.numpy()))
    if isinstance(repeats, Tensor):   # torch: index_select at the repeated indices
        if dim is None:
            x, dim = reshape(x, -1), 0
        a = _dim(x, dim)
        counts = repeats.numpy()
        if repeats.numel() == 1 and repeats.ndim <= 1:   # one count for every slice
            counts = np.full(x.shape[a], counts.reshape(()))
        if counts.ndim != 1 or len(counts) != x.shape[a] or (counts < 0).any():
            raise RuntimeError("repeats must have the same size as input along dim, and be "
                               "a non-negative 1-D tensor")
        out = _along(x, a, as_tensor(np.repeat(np.arange(x.shape[a]), counts)))
        return shown_as(out, "IndexSelectBackward0", x)
    if dim is None:
        x, dim = reshape(x, -1), 0
    a = _dim(x, dim)
    v = unsqueeze(x, a + 1)
    shape = list(v.shape)
    shape[a + 1] = repeats
    out = list(x.shape)
    out[a] *= repeats
    return reshape(clone(broadcast_to(v, shape)), out)   # torch's steps: ViewBackward0


# ---------------------------------------------------------------- cut

def _narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    """The slice ``start:start + length`` of ``dim``: one slice node, always (torch's)."""
    starts = tuple(start if d == dim else 0 for d in range(x.ndim))
    stops = tuple(start + length if d == dim else n for d, n in enumerate(x.shape))
    return apply("slice", x, starts=starts, stops=stops, steps=(1,) * x.ndim,
                 _torch_name="SliceBackward0")


def _pieces(x: Tensor, dim: int, sizes: list, torch_name: str) -> tuple:
    """The consecutive pieces of ``sizes`` along ``dim``: views of ``x`` sharing one node
    (SplitBackward0...), whose rule concatenates their cotangents (zeros where none)."""
    starts = np.cumsum([0] + sizes[:-1]).tolist()

    def body(v):
        return tuple(_narrow(v, dim, s, k) for s, k in zip(starts, sizes))

    def rule(gs, ins):
        v = ins[0]
        parts = [full(v, 0, tuple(v.shape[:dim]) + (k,) + tuple(v.shape[dim + 1:]))
                 if g is None else g for g, k in zip(gs, sizes)]
        return (cat(parts, dim),)
    return named_outputs(torch_name, body, [x], rule, saves=False, multi_views=True)


def narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    """The ``length`` elements of ``dim`` from ``start`` (a view)."""
    a = _dim(x, dim)
    n = x.shape[a]
    if not -n <= start <= n:
        raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but got "
                         f"{start})")
    start = start + n if start < 0 else start
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > n:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return _narrow(x, a, start, length)


def split(x: Tensor, split_size_or_sections, dim: int = 0) -> tuple:
    """Pieces of ``split_size`` along ``dim`` (the last may be smaller), or of the given
    sizes."""
    a = _dim(x, dim)
    n = x.shape[a]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step <= 0 and n:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {n}")
        sizes = [min(step, n - s) for s in range(0, n, step)] if n else [0]
        return _pieces(x, a, sizes, "SplitBackward0")
    else:
        sizes = list(split_size_or_sections)
        if builtins_sum(sizes) != n:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} "
                               f"(input tensor's size at dimension {a}), but got "
                               f"split_sizes={sizes}")
    return _pieces(x, a, sizes, "SplitWithSizesBackward0")


def builtins_sum(values) -> int:
    total = 0
    for v in values:
        total += v
    return total


def chunk(x: Tensor, chunks: int, dim: int = 0) -> tuple:
    """At most ``chunks`` pieces of equal size (the last may be smaller)."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    n = x.shape[_dim(x, dim)]
    if n == 0:   # torch: ``chunks`` empty pieces
        return split(x, [0] * chunks, dim)
    return split(x, max(1, math.ceil(n / chunks)), dim)


def tensor_split(x: Tensor, sections, dim: int = 0) -> tuple:
    """``sections`` pieces whose sizes differ by at most one (or split at given indices)."""
    a = _dim(x, dim)
    n = x.shape[a]
    if isinstance(sections, Tensor):
        sections = sections.tolist()
    if isinstance(sections, int):
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        q, r = divmod(n, sections)
        sizes = [q + 1] * r + [q] * (sections - r)
        starts = np.cumsum([0] + sizes[:-1]).tolist()
        return tuple(_narrow(x, a, s, k) for s, k in zip(starts, sizes))

    def bound(i: int) -> int:   # a slice bound: negative counts from the end
        i = int(i)
        return min(max(i + n if i < 0 else i, 0), n)
    bounds = [0] + [bound(i) for i in sections] + [n]
    return tuple(_narrow(x, a, s, max(e - s, 0)) for s, e in zip(bounds, bounds[1:]))


def unbind(x: Tensor, dim: int = 0) -> tuple:
    """The slices along ``dim``, with ``dim`` removed."""
    a = _dim(x, dim)

    def body(v):
        return tuple(index(v, (slice(None),) * a + (i,)) for i in range(v.shape[a]))

    def rule(gs, ins):
        v = ins[0]
        zero = full(v, 0, tuple(v.shape[:a]) + tuple(v.shape[a + 1:]))
        return (stack([zero if g is None else g for g in gs], a),)
    return named_outputs("UnbindBackward0", body, [x], rule, saves=False, multi_views=True)


# ---------------------------------------------------------------- matrices

def diagonal(x: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal of the (dim1, dim2) planes, as the last dim (a view: DiagonalBackward0)."""
    a, b = _dim(x, dim1), _dim(x, dim2)
    if a == b:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return named_view("DiagonalBackward0", lambda v: _diagonal(v, offset, a, b), x)


def _diagonal(x: Tensor, offset: int, a: int, b: int) -> Tensor:
    rest = [d for d in range(x.ndim) if d not in (a, b)]
    v = permute(x, rest + [a, b])
    n, m = x.shape[a], x.shape[b]
    length = max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))
    lead = tuple(x.shape[d] for d in rest)
    flat = reshape(v, lead + (n * m,))
    if length == 0:
        return index(flat, (Ellipsis, slice(0, 0)))
    start = offset if offset >= 0 else -offset * m
    return index(flat, (Ellipsis, slice(start, start + (length - 1) * (m + 1) + 1, m + 1)))


def diag_embed(x: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Matrices (in the last two dims) with ``x``'s last dim on their ``offset``-th
    diagonal, zeros elsewhere."""
    if (dim1, dim2) != (-2, -1):   # the matrices built in the last two dims, then moved
        d1, d2 = (normalize_axes(d, x.ndim + 1, "dim")[0] for d in (dim1, dim2))
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return shown_as(movedim(diag_embed(x, offset), (-2, -1), (d1, d2)), "DiagEmbedBackward0")
    k = abs(offset)
    n = x.shape[-1] + k
    mask = as_tensor(np.eye(n, k=offset, dtype=bool))

    def body(v):
        padded = cat([v, full(v, 0, v.shape[:-1] + (k,))], -1) if k else v
        # element (r, c) of the k-th diagonal holds v[r] above the main diagonal, v[c] below
        along = unsqueeze(padded, -1) if offset >= 0 else unsqueeze(padded, -2)
        return where(mask, broadcast_to(along, v.shape[:-1] + (n, n)), full(v, 0, ()))
    return composite("DiagEmbedBackward0", body, [x],
                     lambda g, out, ins: (_diagonal(g, offset, g.ndim - 2, g.ndim - 1),),
                     saves=False, uses_out=False)


def diag(x: Tensor, diagonal: int = 0) -> Tensor:
    """A 1-D ``x`` as a square matrix's diagonal; a 2-D ``x``'s diagonal as a 1-D tensor."""
    if x.ndim == 1:
        return diag_embed(x, diagonal)
    if x.ndim == 2:   # torch's diagonal_copy: not a view
        return composite("DiagonalBackward0_copy", lambda v: _diagonal(v, diagonal, 0, 1), [x])
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {x.ndim}D")


def trace(x: Tensor) -> Tensor:
    """The sum of a matrix's diagonal."""
    if x.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
    return linear_composite("TraceBackward0", lambda v: sum(_diagonal(v, 0, 0, 1)), [x])


def _triangle(x: Tensor, diagonal: int, lower: bool, name: str) -> Tensor:
    if x.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    n, m = x.shape[-2:]
    i, j = np.arange(n)[:, None], np.arange(m)[None, :]
    keep = as_tensor(j - i <= diagonal if lower else j - i >= diagonal)
    zero = full(x, 0, ())
    return composite(f"{name.capitalize()}Backward0", lambda v: where(keep, v, zero), [x],
                     lambda g, out, ins: (where(keep, g, full(g, 0, ())),),
                     saves=False, uses_out=False)


def tril(x: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle (on and below the ``diagonal``-th diagonal); zeros above."""
    return _triangle(x, diagonal, True, "tril")


def triu(x: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle (on and above the ``diagonal``-th diagonal); zeros below."""
    return _triangle(x, diagonal, False, "triu")


def outer(a: Tensor, b: Tensor) -> Tensor:
    """``a[i] * b[j]`` of two vectors."""
    tensors_only("outer", input=a, vec2=b)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"outer: expected 1-D tensors, got {a.ndim}-D and {b.ndim}-D")
    return unsqueeze(a, 1) * unsqueeze(b, 0)


ger = outer


# ---------------------------------------------------------------- indexed reads and writes

@as_vector
def index_select(x: Tensor, dim: int, index_: Tensor) -> Tensor:
    """The slices of ``dim`` at the 1-D ``index``, in its order."""
    index_ = as_tensor(index_)
    if index_.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    index_ = along_index("index_select", x, index_, dim)
    a, flat = _dim(x, dim), reshape(index_, -1)
    if flat._value is None and type(x.shape[a]) is int:
        # (traced: torch rejects a negative index, which the indexing below would wrap; sent
        # out of range, it is the compiled gather's IndexError)
        flat = where(flat < 0, x.shape[a], flat)
    return linear_composite("IndexSelectBackward0", lambda v: _along(v, a, flat), [x])


def masked_fill(x: Tensor, mask: Tensor, value) -> Tensor:
    """``value`` where ``mask`` (broadcast to ``x``) is True, ``x`` elsewhere."""
    mask = as_tensor(mask)
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype.name}")
    if isinstance(value, (int, float)):
        check_fits(value, x.dtype)
    value = as_tensor(value, x.dtype) if not isinstance(value, Tensor) else value.to(x.dtype)
    if value.ndim:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.ndim} dimension(s).")
    grad = value._requires_grad
    out = apply("where", mask, value, x, _torch_name="MaskedFillBackward1" if grad else
                "MaskedFillBackward0", _shown=(2, 1) if grad else (2,))
    return out     # out of place, x broadcast to the mask's shape too (torch's expand_outplace)


def masked_select(x: Tensor, mask: Tensor) -> Tensor:
    """The elements where ``mask`` (broadcast with ``x``) is True, as a 1-D tensor (eager)."""
    mask = as_tensor(mask)
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    if not x.ndim and not mask.ndim:
        x, mask = reshape(x, (1,)), reshape(mask, (1,))
    shape = broadcast_shapes(tuple(x.shape), tuple(mask.shape))
    if mask.is_traced:   # compiled: x[mask], lazy until a reduction takes it, with its gradient
        return index(broadcast_to(x, shape), broadcast_to(mask, shape))
    return linear_composite("MaskedSelectBackward0",
                  lambda v: index(broadcast_to(v, shape), broadcast_to(mask, shape)), [x])


def index_add(x: Tensor, dim: int, index_: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    """``x`` with ``alpha * source``'s slices added at the slices ``index`` of ``dim``."""
    a = _dim(x, dim)
    vector_index("index_add_", as_tensor(index_))
    index_ = reshape(along_index("index_add_", x, as_tensor(index_), dim), -1)
    source = as_tensor(source)
    if source.ndim != x.ndim and (x.ndim == 0 or max(x.ndim, source.ndim) > 1):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(x.shape)} "
                           f"source.shape = {list(source.shape)}")
    if source.dtype is not x.dtype:
        raise RuntimeError(f"index_add_(): self ({x.dtype.scalar_type}) and source "
                           f"({source.dtype.scalar_type}) must have the same scalar type")
    view = [1] * x.ndim
    view[a] = index_.shape[0]
    idx = broadcast_to(reshape(index_, view), source.shape)

    def body(v, s):
        s = s * alpha if alpha != 1 else s
        return v + apply("scatter_add", s, idx, axis=a, shape_to=tuple(v.shape))
    return linear_composite("IndexAddBackward0", body, [x, source])


@as_vector
def index_fill(x: Tensor, dim: int, index_: Tensor, value) -> Tensor:
    """``value`` in the slices ``index`` of ``dim``."""
    a = _dim(x, dim)
    if as_tensor(index_).dtype is not dtypes.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    hit = np.zeros(x.shape[a], bool)
    hit[fill_index(as_tensor(index_), x.shape[a], a)] = True
    view = [1] * x.ndim
    view[a] = x.shape[a]
    mask = reshape(as_tensor(hit), view)
    if isinstance(value, Tensor):
        return linear_composite("IndexFillBackward1", lambda v, w: masked_fill(v, mask, w),
                                [x, value])
    return linear_composite("IndexFillBackward0", lambda v: masked_fill(v, mask, value), [x])


def _inplace(fn, name: str):
    def method(self: Tensor, *args, **kwargs) -> Tensor:
        return update(self, lambda old: fn(old, *args, **kwargs), name)
    method.__name__ = name
    method.__doc__ = f"In-place ``{fn.__name__}``."
    return method


__all__ = ["flip", "fliplr", "flipud", "roll", "movedim", "moveaxis", "swapaxes", "tile",
           "repeat_interleave", "narrow", "split", "chunk", "tensor_split", "unbind",
           "diagonal", "diag", "diag_embed", "trace", "tril", "triu", "outer", "ger",
           "index_select", "masked_fill", "masked_select", "scatter", "scatter_add",
           "index_add", "index_fill", "index_put", "index_copy"]

METHODS = {name: globals()[name] for name in __all__ if name not in ("ger",)}
METHODS.update(repeat=repeat, masked_fill_=_inplace(masked_fill, "masked_fill_"),
               scatter_=_inplace(scatter, "scatter_"),
               scatter_add_=_inplace(scatter_add, "scatter_add_"),
               index_add_=_inplace(index_add, "index_add_"),
               index_fill_=_inplace(index_fill, "index_fill_"),
               index_put_=_inplace(index_put, "index_put_"),
               index_copy_=_inplace(index_copy, "index_copy_"),
               tril_=_inplace(tril, "tril_"), triu_=_inplace(triu, "triu_"))
