"""torch.linalg's norms and the functions of singular values: vector_norm, matrix_norm, norm,
svdvals, matrix_rank, cond, pinv.

Layer: front end, above ``decompositions``. Input: tensors, eager or traced. Output: tensors,
differentiable. The singular values of an m x n matrix A are the n + m eigenvalues' largest
min(m, n) of the symmetric matrix [[0, A], [A^T, 0]] (its eigenvalues are +-sigma_i and zeros),
so they come from the ``eigh`` primitive, its C kernel and its gradient: sigma_i's gradient is
u_i v_i^T, as an SVD's. Absolute accuracy is an SVD's (eps * ||A||); the cost is an eigh of
order m + n. pinv uses the same eigenvectors (u_i, v_i are halves of them) and keeps the
singular values above the tolerance.
"""

from __future__ import annotations

import math

import numpy as np

from ...errors import ShapeError
from ...ops.registry import normalize_axes
from . import basic as F
from ..core.apply import apply, full
from .decompositions import check_finite_svd, check_matrix, type_name
from .basic import composite
from .manipulation import flip
from .shapes import broadcast_to, cat, permute, reshape, squeeze, unsqueeze
from .creation import eye, zeros
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg
from .underivable import MODIFIED, without_derivative

__all__ = ["vector_norm", "matrix_norm", "norm", "svdvals", "matrix_rank", "cond", "pinv"]


def _floating(name: str, x: Tensor, dtype) -> Tensor:
    if dtype is not None:
        x = x.to(dtype)
    if not x.dtype.is_differentiable:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                           f"Got {type_name(x)}")
    return x


# ---------------------------------------------------------------- vector norms

def vector_norm(x, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The ``ord``-norm of the elements over ``dim`` (all of them if None): 2, 1, inf, -inf,
    0 (the count of nonzeros) or any real p (sum |x|^p)^(1/p)."""
    x = _floating("linalg.vector_norm", tensor_arg(x), dtype)
    if isinstance(ord, str):
        raise TypeError("linalg_vector_norm(): argument 'ord' must be Number, not str")
    axes = normalize_axes(dim, x.ndim)
    if ord == 0:    # the count of nonzeros: torch's gradient is None (undefined)
        return composite("LinalgVectorNormBackward0", lambda a: F.sum(
            F.ne(a, 0.0).to(x.dtype), axes, keepdim), [x], lambda g, out, ins: (None,))
    body = {2: lambda a: F.norm(a, 2, axes, keepdim),
            1: lambda a: F.sum(F.abs(a), axes, keepdim),
            math.inf: lambda a: F.amax(F.abs(a), axes, keepdim),
            -math.inf: lambda a: F.amin(F.abs(a), axes, keepdim)}.get(ord)
    if body is not None:
        empty = [a for a in axes if x.shape[a] == 0]
        if ord in (math.inf, -math.inf) and empty:
            raise ShapeError(f"linalg.vector_norm cannot compute the {ord} norm on an empty "
                             f"dimension because the operation does not have an identity: "
                             f"expected reduction dim {empty[0]} to have non-zero size (input "
                             f"shape {tuple(x.shape)})")
        return composite("LinalgVectorNormBackward0", body, [x])
    return _p_norm(x, float(ord), axes, keepdim)


def _p_norm(x: Tensor, p: float, axes: tuple, keepdim: bool) -> Tensor:
    """(sum |x|^p)^(1/p) over ``axes``, with torch's gradient g sign(x) |x|^(p-1) /
    norm^(p-1) (0 where the norm is 0)."""
    kept = tuple(1 if d in axes else n for d, n in enumerate(x.shape))

    def body(a):
        out = F.pow(F.sum(F.pow(F.abs(a), p), axes, True), 1.0 / p)
        return out if keepdim else _drop(out, axes)

    def rule(g, out, ins):
        a = ins[0]
        g, out = reshape(g, kept), reshape(out, kept)
        scale = F.where(F.eq(out, 0.0), 0.0, g / F.pow(out, p - 1))
        return (apply("sgn", a) * F.pow(F.abs(a), p - 1) * scale,)
    return composite("LinalgVectorNormBackward0", body, [x], rule)


def _drop(x: Tensor, axes: tuple) -> Tensor:
    return reshape(x, tuple(s for d, s in enumerate(x.shape) if d not in axes))


# ---------------------------------------------------------------- singular values

def _singular(a: Tensor) -> tuple[Tensor, Tensor]:
    """(eigenvalues, eigenvectors) of [[0, A], [A^H, 0]] for each matrix of ``a``."""
    check_finite_svd(a)
    m, n = a.shape[-2:]
    batch = tuple(a.shape[:-2])
    top = cat([full(a, 0.0, batch + (m, m)), a], -1)
    adjoint = a.mT.conj() if a.dtype.is_complex else a.mT
    bottom = cat([adjoint, full(a, 0.0, batch + (n, n))], -1)
    both = apply("eigh", cat([top, bottom], -2), upper=False)
    lam = both[..., 0, :]
    return (lam.real if lam.dtype.is_complex else lam), both[..., 1:, :]


def svdvals(A) -> Tensor:
    """The singular values of each matrix, in descending order."""
    a = tensor_arg(A)
    check_matrix("linalg.svd", a, square=False)
    k = min(a.shape[-2:])

    def body(a):
        lam, _ = _singular(a)
        return F.abs(flip(lam[..., lam.shape[-1] - k:], [-1]))
    return composite("LinalgSvdBackward0", body, [a])


def matrix_rank(A, *, atol=None, rtol=None, hermitian: bool = False, tol=None) -> Tensor:
    """The number of singular values above max(atol, rtol * largest) (int64); by default
    rtol = eps * max(m, n)."""
    a = tensor_arg(A)
    check_matrix("linalg.matrix_rank", a, square=False)
    s = svdvals(a)
    return F.sum(F.gt(s, _tolerance(a, s, tol if tol is not None else atol, rtol)), -1)


def _tolerance(a: Tensor, s: Tensor, atol, rtol):
    """max(atol, rtol * sigma_max) per matrix, as a (*, 1) tensor."""
    m, n = a.shape[-2:]
    if rtol is None:
        rtol = 0.0 if atol is not None else float(np.finfo(a.dtype.np).eps) * max(m, n)
    top = F.amax(s, -1, True) if s.shape[-1] else full(s, 0.0, s.shape[:-1] + (1,))
    return F.maximum(top * rtol, full(s, 0.0 if atol is None else atol, ()))


def cond(A, p=None) -> Tensor:
    """The condition number: sigma_max / sigma_min (p None or 2), its inverse (p = -2), or
    norm(A, p) * norm(A^-1, p) for the other matrix norms."""
    a = tensor_arg(A)
    check_matrix("linalg.cond", a, square=p not in (None, 2, -2))
    if a.numel() == 0:   # torch's: zeros (no gradient), NumPy leaves it undefined
        return zeros(tuple(a.shape[:-2]), dtype=a.dtype.real_dtype)
    if p in (None, 2, -2):   # as torch: divide the (*, 1) ends, then squeeze
        s = svdvals(a)
        big, small = s[..., :1], s[..., s.shape[-1] - 1:]
        return squeeze(big / small if p != -2 else small / big, -1)
    if p == "nuc":   # torch's: from the singular values, sum(s) * sum(1 / s)
        s = svdvals(a)
        return F.sum(s, -1) * F.sum(1.0 / s, -1)
    # torch's backward for these norms trips over its own in-place steps
    return without_derivative("NanToNumBackward0", lambda m: _cond_by_inverse(m, p), [a],
                              MODIFIED)


def _cond_by_inverse(a: Tensor, p) -> Tensor:
    """torch's norm(A, p) * norm(inv_ex(A), p): a matrix whose LU has a zero pivot (info > 0)
    gets an inverse of inf, so a condition number of inf (as a NaN result: nan_to_num)."""
    singular = F.gt(apply("factor_info", a, method="lu"), 0)
    mask = unsqueeze(unsqueeze(singular, -1), -1)
    ident = broadcast_to(eye(a.shape[-1], dtype=a.dtype), tuple(a.shape))
    safe = F.where(mask, ident, a)   # the singular ones: no error, no NaN in their norms
    out = matrix_norm(a, p) * matrix_norm(apply("solve", safe, ident, check=""), p)
    return F.where(F.logical_or(singular, F.isnan(out)), math.inf, out)


def pinv(A, *, atol=None, rtol=None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse: sum of v_i u_i^T / sigma_i over the singular values
    above the tolerance (by default rtol = eps * max(m, n))."""
    a = tensor_arg(A)
    check_matrix("linalg.pinv", a, square=False)
    return composite("LinalgPinvBackward0", lambda a: _pinv(a, atol, rtol), [a], _pinv_rule,
                     holomorphic=False)


def _pinv_rule(g: Tensor, out: Tensor, ins: list) -> tuple:
    """torch's pinv backward: the derivative of the pseudo-inverse at constant rank, from
    P = A^+ alone (singular values cut by the tolerance stay cut, where differentiating the
    truncated sum would not): gA = -P^H G P^H + (I - A P) G^H P P^H + P^H P G^H (I - P A)."""
    a, p = ins[0], out
    ph, gh = p.mH, g.mH
    k = F.matmul(p, gh)
    phk = F.matmul(ph, k)
    ga = -F.matmul(k, p).mH + F.matmul(F.matmul(gh - F.matmul(a, k), p), ph)
    return (ga + phk - F.matmul(F.matmul(phk, p), a),)


def _pinv(a: Tensor, atol, rtol) -> Tensor:
    m, n = a.shape[-2:]
    k = min(m, n)
    lam, vec = _singular(a)
    s = flip(lam[..., m + n - k:], [-1])
    top = flip(vec[..., m + n - k:], [-1])
    u, v = top[..., :m, :], top[..., m:, :]
    keep = F.gt(s, _tolerance(a, s, atol, rtol))
    weight = F.where(keep, 2.0 / F.where(keep, s, 1.0), 0.0)
    return F.matmul(v * unsqueeze(weight, -2), u.mT.conj() if u.dtype.is_complex else u.mT)


# ---------------------------------------------------------------- matrix norms

def _two_dims(name: str, x: Tensor, dim) -> tuple[int, int]:
    if not isinstance(dim, (tuple, list)) or len(dim) != 2:
        raise RuntimeError(f"{name}: dim must be a 2-tuple. Got {dim}")
    d0, d1 = (normalize_axes(d, x.ndim)[0] for d in dim)
    if d0 == d1:
        raise RuntimeError(f"{name}: dims must be different. Got ({dim[0]}, {dim[1]})")
    return d0, d1


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:
    """The ``ord`` norm of the matrices in dims ``dim``: 'fro', 'nuc', 1 / -1 (max / min
    column sum of |A|), inf / -inf (rows), 2 / -2 (largest / smallest singular value)."""
    a = _floating("linalg.matrix_norm", tensor_arg(A), dtype)
    if a.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    d0, d1 = _two_dims("linalg.matrix_norm", a, dim)
    if ord == "fro":
        return F.norm(a, 2, (d0, d1), keepdim)
    if ord in (1, -1, math.inf, -math.inf):
        inner, outer = (d0, d1) if abs(ord) == 1 else (d1, d0)
        pick = F.amax if ord > 0 else F.amin
        # torch's order: the sum over one dim, then amax/amin over the other (AmaxBackward0)
        outer -= not keepdim and inner < outer
        return pick(F.sum(F.abs(a), inner, keepdim), outer, keepdim)
    if ord in ("nuc", 2, -2):
        rest = [d for d in range(a.ndim) if d not in (d0, d1)]
        s = svdvals(permute(a, rest + [d0, d1]))
        value = F.sum(s, -1) if ord == "nuc" else (F.amax(s, -1) if ord == 2 else
                                                   F.amin(s, -1))
        if keepdim:
            for d in sorted((d0, d1)):
                value = unsqueeze(value, d)
        return value
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


def _check_dims(dim, fname: str) -> None:
    """torch's argument parser on an int-list ``dim`` (torch.norm wraps an int in a list):
    a bool or a float in it is a TypeError."""
    dims = [dim] if isinstance(dim, int) else dim
    if not isinstance(dims, (list, tuple)):
        raise TypeError(f"{fname}(): argument 'dim' (position 3) must be tuple of ints, not "
                        f"{type(dim).__name__}")
    for i, d in enumerate(dims):
        if isinstance(d, (bool, float)):
            raise TypeError(f"{fname}(): argument 'dim' (position 3) must be tuple of ints, "
                            f"but found element of type {type(d).__name__} at pos {i}")


def torch_norm(input, p="fro", dim=None, keepdim: bool = False, dtype=None) -> Tensor:  # noqa: A002
    """torch.norm / Tensor.norm: "fro" (and 2) the 2-norm of the elements over ``dim`` (all
    of them if None), "nuc" the nuclear norm of the matrices in ``dim``, a number p the
    vector p-norm (0, inf, -inf and fractional p included)."""
    if dim is not None and p != "nuc":
        _check_dims(dim, "linalg_vector_norm")
    if p == "nuc":
        return matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim,
                           dtype=dtype)
    if isinstance(p, str) and p != "fro":
        raise RuntimeError(f"norm(): unsupported norm type {p!r}")
    return vector_norm(input, 2 if p == "fro" else p, dim, keepdim, dtype=dtype)


def norm(A, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """torch.linalg.norm: a vector norm over one dim (or all elements when neither ord nor
    dim is given), a matrix norm over two dims (or of a 2-D input given ``ord``)."""
    a = tensor_arg(A)
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dims)}")
        if len(dims) == 2:
            return matrix_norm(a, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
        return vector_norm(a, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
    if ord is None:
        return vector_norm(a, 2, None, keepdim, dtype=dtype)
    if a.ndim == 2:
        return matrix_norm(a, ord, (-2, -1), keepdim, dtype=dtype)
    if a.ndim == 1 and not isinstance(ord, str):
        return vector_norm(a, ord, None, keepdim, dtype=dtype)
    raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be "
                       f"1D or 2D. Got {a.ndim}D.")
