"""torch's assorted tensor functions: stacking (hstack, vstack, dstack, column_stack,
row_stack, atleast_1d/2d/3d), building (block_diag, kron, cartesian_prod, vander), reshaping
(rot90, unflatten, ravel, select, broadcast_tensors), dtype questions (broadcast_shapes,
result_type, promote_types, can_cast, is_nonzero), cross and masked_scatter.

Layer: front end, above ``shapes``, ``manipulation`` and ``scans``. Input: tensors (and
shapes, dtypes). Output: tensors built from the movement, elementwise and scan primitives, so
each has a gradient and compiles; torch's grad_fn where torch shows one of its own
(``BlockDiagBackward0``, ``Rot90Backward0``, ``LinalgCrossBackward0``,
``MaskedScatterBackward0``). ``masked_scatter`` places the source's elements with a cumsum of
the mask, so it compiles too (a source too short for the mask is an error eagerly and an
index error from the compiled code).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ... import dtypes
from ...ops.registry import broadcast_shapes as _broadcast
from ...ops.registry import normalize_axes
from ...dims import same_shape
from ...size import Size
from . import basic as F
from ..core.apply import apply, full
from .creation import meshgrid
from .basic import composite
from .inplace import update
from .manipulation import flip
from .scans import cumprod, cumsum
from .shapes import broadcast_to, cat, getitem, reshape, stack, transpose, unsqueeze
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg
from .underivable import MODIFIED, without_derivative



def _seq(tensors: tuple) -> list:
    """f(a, b) and f([a, b]) alike."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return list(tensors[0])
    return list(tensors)


# ---------------------------------------------------------------- at least n dims

def _at_least(tensors: tuple, fn):
    """torch's atleast_nd: one tensor gives a tensor; several (or a sequence), a tuple."""
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        return fn(tensor_arg(tensors[0]))
    return tuple(fn(tensor_arg(t)) for t in _seq(tensors))


def _one_d(x: Tensor) -> Tensor:
    return reshape(x, (1,)) if x.ndim == 0 else x


def _two_d(x: Tensor) -> Tensor:
    if x.ndim == 0:
        return reshape(x, (1, 1))
    return unsqueeze(x, 0) if x.ndim == 1 else x


def _three_d(x: Tensor) -> Tensor:
    if x.ndim == 0:
        return reshape(x, (1, 1, 1))
    if x.ndim == 1:
        return unsqueeze(unsqueeze(x, 0), -1)
    return unsqueeze(x, -1) if x.ndim == 2 else x


def atleast_1d(*tensors):
    return _at_least(tensors, _one_d)


def atleast_2d(*tensors):
    return _at_least(tensors, _two_d)


def atleast_3d(*tensors):
    return _at_least(tensors, _three_d)


# ---------------------------------------------------------------- stacking

def _nonempty(name: str, tensors) -> list:
    tensors = [tensor_arg(t) for t in tensors]
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors) -> Tensor:
    """Concatenated along dim 1 (dim 0 for vectors)."""
    parts = [_one_d(t) for t in _nonempty("hstack", tensors)]
    return cat(parts, 0 if parts[0].ndim == 1 else 1)


def vstack(tensors) -> Tensor:
    """Concatenated along dim 0, vectors as rows."""
    return cat([_two_d(t) for t in _nonempty("vstack", tensors)], 0)


row_stack = vstack


def dstack(tensors) -> Tensor:
    """Concatenated along dim 2 (depth), after ``atleast_3d``."""
    return cat([_three_d(t) for t in _nonempty("dstack", tensors)], 2)


def column_stack(tensors) -> Tensor:
    """Vectors (and scalars) as columns, matrices as they are, concatenated along dim 1."""
    parts = [reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t
             for t in _nonempty("column_stack", tensors)]
    return cat(parts, 1)


# ---------------------------------------------------------------- building

def block_diag(*tensors) -> Tensor:
    """The tensors (0-d, 1-D as a row, 2-D) as blocks along a diagonal, zeros elsewhere."""
    blocks = []
    for i, t in enumerate(tensor_arg(t) for t in tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {t.ndim} dimensions")
        blocks.append(_two_d(t))
    if not blocks:
        return Tensor(np.zeros((1, 0), dtypes.get_default_dtype().np), None)
    target = dtypes.promote([(b.dtype, 2) for b in blocks])
    blocks = [b.to(target) for b in blocks]
    width = sum(b.shape[1] for b in blocks)

    def body(*bs):
        rows, left = [], 0
        for b in bs:
            r, c = b.shape
            pieces = [full(b, 0, (r, left)), b, full(b, 0, (r, width - left - c))]
            rows.append(cat([p for p in pieces if p.shape[1]] or [b], 1))
            left += c
        return cat(rows, 0)
    return composite("BlockDiagBackward0", body, blocks, saves=False, uses_out=False)


def kron(a, b) -> Tensor:
    """The Kronecker product: ``out[i*B + k] = a[i] * b[k]`` along every dim."""
    a, b = tensor_arg(a), tensor_arg(b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    spread_a = reshape(a, tuple(d for s in sa for d in (s, 1)))
    spread_b = reshape(b, tuple(d for s in sb for d in (1, s)))
    prod = spread_a * spread_b
    return apply("reshape", prod, shape_to=tuple(x * y for x, y in zip(sa, sb)),
                 _torch_name="UnsafeViewBackward0")


def cartesian_prod(*tensors) -> Tensor:
    """Every combination of the 1-D tensors' elements, one per row."""
    ts = [tensor_arg(t) for t in _seq(tensors)]
    for i, t in enumerate(ts):
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)} "
                               f"(tensor {i} of cartesian_prod)")
    if len(ts) == 1:
        return ts[0]
    return stack([reshape(g, (-1,)) for g in meshgrid(*ts, indexing="ij")], 1)


def vander(x, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix: columns ``x**(N-1), ..., x, 1`` (or increasing powers)."""
    x = tensor_arg(x)
    if x.ndim != 1:
        raise RuntimeError(f"x must be a one-dimensional tensor (got shape "
                           f"{list(x.shape)}).")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError(f"N must be non-negative (got {n}).")
    if not x.dtype.is_floating:
        x = x.to(dtypes.int64)
    if n == 0:
        return full(x, 0, (x.shape[0], 0))
    # torch's construction: running products of [1, x, x, ...] (exact gradient at 0)
    powers = cat([full(x, 1, (x.shape[0], 1)), broadcast_to(unsqueeze(x, 1),
                                                            (x.shape[0], n - 1))], 1)
    if n == 1:
        return cumprod(powers, 1)
    # torch's backward trips over its own in-place steps (it cannot differentiate vander)
    return without_derivative("CopySlices" if increasing else "FlipBackward0", lambda p: (
        cumprod(p, 1) if increasing else flip(cumprod(p, 1), [1])), [powers], MODIFIED)


# ---------------------------------------------------------------- reshaping

def _rot90_dims(x: Tensor, dims) -> tuple:
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if x.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {x.ndim}")
    a, b = (normalize_axes(d, x.ndim)[0] for d in dims)
    if a == b:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = "
                           f"{dims[0]} and dim1 = {dims[1]}")
    return a, b


def rot90(x, k: int = 1, dims=(0, 1)) -> Tensor:
    """Rotated by 90 degrees ``k`` times in the plane ``dims`` (from the first towards the
    second)."""
    x = tensor_arg(x)
    a, b = _rot90_dims(x, dims)
    k %= 4

    def body(v, turns=k):
        if turns == 1:
            return transpose(flip(v, [b]), a, b)
        if turns == 2:
            return flip(v, [a, b])
        if turns == 3:
            return transpose(flip(v, [a]), a, b)
        return F.logical_or(v, v) if v.dtype is dtypes.bool_ else v * 1    # a copy
    return composite("Rot90Backward0", body, [x], lambda g, out, ins: (body(g, (4 - k) % 4),),
                     saves=False, uses_out=False)


def unflatten(x, dim: int, sizes) -> Tensor:
    """Dim ``dim`` split into ``sizes`` (one of which may be -1)."""
    x = tensor_arg(x)
    if not x.ndim:
        raise RuntimeError(f"unflatten got an unexpected error: Dimension specified as {dim} but "
                           f"tensor has no dimensions")
    a = normalize_axes(dim, x.ndim)[0]
    sizes = [int(s) for s in sizes]
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n = x.shape[a]
    if sizes.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in sizes if s != -1)
    if -1 in sizes and known and n % known == 0:
        sizes[sizes.index(-1)] = n // known
    if math.prod(sizes) != n or any(s < 0 for s in sizes):
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size "
                           f"of dim {dim} ({n}) in the input tensor")
    return reshape(x, tuple(x.shape[:a]) + tuple(sizes) + tuple(x.shape[a + 1:]))


def ravel(x) -> Tensor:
    """The elements as a vector (a view)."""
    return reshape(tensor_arg(x), (-1,))


def select(x, dim: int, index: int) -> Tensor:
    """The slice ``index`` of dim ``dim``, with that dim removed (a view)."""
    x = tensor_arg(x)
    if x.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    a = normalize_axes(dim, x.ndim)[0]
    n = x.shape[a]
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(x.shape)} at dimension {dim}")
    return getitem(x, (slice(None),) * a + (index,))


def broadcast_shapes(*shapes) -> Size:
    """The shape the given shapes broadcast to (an int is a 1-D shape)."""
    tuples = []
    for s in shapes:
        s = (s,) if isinstance(s, int) else tuple(int(d) for d in s)
        if any(d < 0 for d in s):
            raise RuntimeError(f"Trying to create tensor with negative dimension: {s}")
        tuples.append(s)
    return Size(_broadcast(*tuples))


def broadcast_tensors(*tensors) -> tuple:
    """The tensors broadcast to their common shape (views)."""
    ts = [tensor_arg(t) for t in _seq(tensors)]
    shape = _broadcast(*(tuple(t.shape) for t in ts))
    # torch returns a tensor already of that shape as it is (no node)
    return tuple(t if same_shape(tuple(t.shape), shape) else broadcast_to(t, shape) for t in ts)


# ---------------------------------------------------------------- dtypes, truth

def _operand(x) -> tuple:
    if isinstance(x, Tensor):
        if x.ndim:
            return x.dtype, dtypes.RANK_TENSOR
        return x.dtype, dtypes.RANK_SCALAR if x._weak else dtypes.RANK_ZERO_DIM
    return dtypes.scalar_dtype(x), dtypes.RANK_SCALAR


def result_type(tensor1, tensor2) -> dtypes.DType:
    """The dtype an arithmetic op of these two operands (tensors or numbers) gives."""
    return dtypes.promote([_operand(tensor1), _operand(tensor2)])


def promote_types(type1, type2) -> dtypes.DType:
    """The smallest dtype both dtypes convert to without losing their kind."""
    return dtypes.promote([(dtypes.as_dtype(type1), dtypes.RANK_TENSOR),
                           (dtypes.as_dtype(type2), dtypes.RANK_TENSOR)])


def can_cast(from_, to) -> bool:
    """torch's casting rule: never to a lower kind (float -> integer, integer -> bool)."""
    return dtypes.can_cast(dtypes.as_dtype(from_), dtypes.as_dtype(to))


def is_nonzero(x) -> bool:
    """Whether the one element of ``x`` is nonzero (RuntimeError for other sizes)."""
    x = tensor_arg(x)
    if x.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if x.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(x.item() != 0)


# ---------------------------------------------------------------- cross, masked_scatter

def _cross_dim(a: Tensor, b: Tensor, dim) -> int:
    if a.ndim != b.ndim:
        raise RuntimeError(f"linalg.cross: inputs must have the same number of dimensions "
                           f"(got shapes {list(a.shape)} and {list(b.shape)}).")
    shape = _broadcast(tuple(a.shape), tuple(b.shape))
    if dim is None:
        found = [d for d, s in enumerate(shape) if s == 3]
        if not found:
            raise RuntimeError("no dimension of size 3 in input")
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated. Please "
                      "either pass the dim explicitly or simply use torch.linalg.cross.",
                      UserWarning, stacklevel=3)
        return found[0]
    d = normalize_axes(dim, a.ndim)[0]
    if a.shape[d] != 3 or b.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{a.shape[d]} and {b.shape[d]}")
    return d


def cross(x, other, dim=None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (broadcast)."""
    x, other = tensor_arg(x), tensor_arg(other)
    d = _cross_dim(x, other, dim)

    def body(a, b):
        def c(v, i):
            return getitem(v, (slice(None),) * d + (i,))
        parts = [c(a, 1) * c(b, 2) - c(a, 2) * c(b, 1), c(a, 2) * c(b, 0) - c(a, 0) * c(b, 2),
                 c(a, 0) * c(b, 1) - c(a, 1) * c(b, 0)]
        return stack(parts, d)
    return composite("LinalgCrossBackward0", body, [x, other])


def masked_scatter(x, mask, source) -> Tensor:
    """``x`` with the elements where ``mask`` (broadcast to ``x``) is True replaced, in
    order, by ``source``'s first elements."""
    x, mask, source = tensor_arg(x), tensor_arg(mask), tensor_arg(source)
    if source.dtype is not x.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{x.dtype.scalar_type} and {source.dtype.scalar_type}")
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {mask.dtype.scalar_type}")
    shape = _broadcast(x.shape, mask.shape)      # out of place: x broadcast too, as torch's
    x = x if same_shape(x.shape, shape) else broadcast_to(x, shape)
    mask = broadcast_to(mask, shape)
    if not mask.is_traced and not source.is_traced:
        ones = int(np.count_nonzero(mask._value))
        if ones > source.numel():
            raise RuntimeError(f"masked_scatter: Number of elements of source < number of ones "
                               f"in mask (source has {source.numel()}, mask {ones})")
    if source.numel() == 0:
        return x
    source = source.to(x.dtype)

    def body(v, s):
        flat = reshape(mask, (-1,))
        at = cumsum(flat, 0) - 1                       # the source element for each True
        at = F.where(F.lt(at, 0), 0, at)
        taken = apply("gather", reshape(s, (-1,)), at, axis=0)
        return F.where(mask, reshape(taken, v.shape), v)
    return composite("MaskedScatterBackward0", body, [x, source], saves=False, uses_out=False)


def masked_scatter_(self: Tensor, mask, source) -> Tensor:
    return update(self, lambda old: masked_scatter(old, mask, source), "masked_scatter_")


__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack",
           "dstack", "column_stack", "block_diag", "kron", "cartesian_prod", "vander", "rot90",
           "unflatten", "ravel", "select", "broadcast_shapes", "broadcast_tensors",
           "result_type", "promote_types", "can_cast", "is_nonzero", "cross", "masked_scatter"]
METHODS = {name: globals()[name] for name in ("kron", "rot90", "unflatten", "ravel", "select",
                                              "is_nonzero", "cross", "masked_scatter")}
METHODS["masked_scatter_"] = masked_scatter_
