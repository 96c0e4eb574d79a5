"""torch.linalg's products and least squares: multi_dot (in the cheapest order), vecdot, cross,
diagonal, matrix_power (negative powers through inv), matmul, lstsq.

Layer: front end, above ``decompositions`` and ``norms``. Input: tensors, eager or traced.
Output: tensors built from ``matmul``, elementwise ops and the decomposition primitives.
lstsq solves through a QR decomposition (m >= n: R^-1 Q^T B; m < n: the minimum-norm solution
Q R^-T B from A^T = Q R) where A has full rank; an eager A of lower rank (but with 'gels',
which assumes full rank, as torch's) gets the minimum-norm solution pinv(A) B, as torch's
'gelsy' and 'gelsd' drivers, and torch's gradient through pinv. Compiled code takes the QR
path (the rank is not known when tracing). ``rank`` and ``singular_values`` come from
``norms.svdvals``.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes

from . import basic as F
from . import products
from ..core import grad_mode
from ..core.apply import apply, as_tensor
from .assorted import cross as torch_cross
from .decompositions import broadcast_batches, inv, type_name
from .manipulation import diagonal as torch_diagonal
from .norms import matrix_rank, pinv, svdvals
from .printing import return_type
from .torch_nodes import named_outputs
from .shapes import reshape, squeeze, unsqueeze
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["multi_dot", "vecdot", "cross", "diagonal", "matrix_power", "matmul", "lstsq"]

LstsqResult = return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))

matmul = F.matmul



def _check_chain(ts: list) -> None:
    n = len(ts)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    for i, t in enumerate(ts):
        end = "first" if i == 0 else "last" if i == n - 1 else ""
        if end and t.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {end} tensor must be 1D or 2D but got "
                               f"{t.ndim}D")
        if not end and t.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
        if t.dtype is not ts[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but "
                               f"tensor 0 is {type_name(ts[0]).lower()} and tensor {i} "
                               f"{type_name(t).lower()}")
    for i in range(n - 1):
        if ts[i].shape[-1] != ts[i + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(ts[i].shape)} and {list(ts[i + 1].shape)} cannot be "
                               f"multiplied")


def _order(dims: list) -> dict:
    """The cheapest parenthesization of the chain of matrices with dims[i] x dims[i + 1]:
    split[(i, j)] = where the product of matrices i..j splits (dynamic programming)."""
    n = len(dims) - 1
    cost = {(i, i): 0 for i in range(n)}
    split: dict = {}
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[(i, j)], split[(i, j)] = min(
                (cost[(i, s)] + cost[(s + 1, j)] + dims[i] * dims[s + 1] * dims[j + 1], s)
                for s in range(i, j))
    return split


def multi_dot(tensors) -> Tensor:
    """The product of a chain of matrices (the first may be a row vector, the last a column
    vector), multiplied in the order that costs the fewest multiplications."""
    ts = [tensor_arg(t) for t in tensors]
    _check_chain(ts)
    first, last = ts[0].ndim == 1, ts[-1].ndim == 1
    mats = list(ts)
    if first:
        mats[0] = unsqueeze(mats[0], 0)
    if last:
        mats[-1] = unsqueeze(mats[-1], 1)
    split = _order([m.shape[0] for m in mats] + [mats[-1].shape[1]])

    def product(i: int, j: int) -> Tensor:
        if i == j:
            return mats[i]
        s = split[(i, j)]
        return F.matmul(product(i, s), product(s + 1, j))
    out = product(0, len(mats) - 1)
    keep = tuple(s for s, drop in zip(out.shape, (first, last)) if not drop)
    return reshape(out, keep)


def vecdot(x, y, *, dim: int = -1) -> Tensor:
    """The dot products ``sum(conj(x) * y)`` of the vectors along ``dim`` (broadcast); two
    vectors: ``vdot`` (torch's ``VdotBackward0``)."""
    x, y = tensor_arg(x), tensor_arg(y)
    if x.dtype is not y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {type_name(x)} and y of type {type_name(y)} instead")
    if x.ndim == 1 and y.ndim == 1 and dim in (-1, 0):
        return products.vdot(x, y)
    return F.sum((apply("conj", x) if x.dtype.is_complex else x) * y, dim)


def cross(input, other, *, dim: int = -1) -> Tensor:  # noqa: A002  (torch's names)
    """The cross products of the 3-vectors along ``dim`` (broadcast)."""
    return torch_cross(input, other, dim)


def diagonal(A, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """The ``offset``-th diagonals of the matrices in dims (dim1, dim2), as the last dim."""
    return torch_diagonal(tensor_arg(A), offset, dim1, dim2)


def matrix_power(A, n: int) -> Tensor:
    """A to the integer power ``n`` (A^-1 to the power -n when n is negative)."""
    a = tensor_arg(A)
    if isinstance(n, int) and n < 0:
        products.matrix_power(a, 0)           # torch's shape checks first
        inverse = inv(a)
        return inverse if n == -1 else products.matrix_power(inverse, -n)   # torch: no copy
    return products.matrix_power(a, n)


def lstsq(A, B, rcond=None, *, driver=None) -> LstsqResult:
    """The least-squares solution X of A X = B (A of full rank; see the module docstring),
    with ``rank`` (driver 'gelsy', the default, 'gelsd', 'gelss') and, for 'gelsd' and
    'gelss', the residuals (m > n) and the singular values."""
    a, b = tensor_arg(A), tensor_arg(B)
    name = "torch.linalg.lstsq"
    if driver not in (None, "gelsy", "gels", "gelsd", "gelss"):
        raise RuntimeError(f"{name}: parameter `driver` should be one of (gels, gelsy, gelsd, "
                           f"gelss)")
    if a.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    vector = b.ndim == a.ndim - 1
    bm = unsqueeze(b, -1) if vector else b
    if bm.ndim < 2 or bm.shape[-2] != a.shape[-2]:
        raise RuntimeError(f"{name}: input.size(-2) should match other.size(-2)")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"{name}: Expected input and other to have the same dtype, but got "
                           f"input's dtype {a.dtype.scalar_type} and other's dtype "
                           f"{b.dtype.scalar_type}")
    if not a.dtype.is_differentiable or a.dtype.real_dtype is dtypes.float16:
        raise RuntimeError("This function doesn't handle types other than float and double")
    m, n = a.shape[-2:]
    detailed = driver in ("gelsd", "gelss")
    rtol = rcond if rcond is not None and rcond > 0 else None
    with grad_mode.no_grad():   # no gradient in torch
        rank = as_tensor(np.zeros(0, np.int64)) if driver == "gels" else \
            matrix_rank(a, rtol=rtol)
    if rank.concrete is not None or driver == "gels":
        deficient = rank.concrete is not None and rank.numel() and bool(
            (rank.concrete < min(m, n)).any())
    else:    # compiled: a guard (a decision that retraces when it changes) on R's diagonal
        deficient = _qr_deficient(a, rtol)

    def body(a, b):   # the solution and the residuals: torch's LinalgLstsqBackward0
        a, bm = broadcast_batches(a, unsqueeze(b, -1) if vector else b)
        # rank-deficient: the minimum-norm solution (gelsy's, gelsd's), differentiated as
        # torch does, through pinv
        x = F.matmul(pinv(a, rtol=rtol), bm) if deficient else _full_rank_solution(a, bm)
        residuals = as_tensor(np.zeros(0), dtype=a.dtype.real_dtype)
        if detailed and m > n:
            r = F.matmul(a, x) - bm
            residuals = F.sum(F.square(F.abs(r) if r.dtype.is_complex else r), -2)
            residuals = squeeze(residuals, -1) if vector else residuals
        return squeeze(x, -1) if vector else x, residuals
    x, residuals = named_outputs("LinalgLstsqBackward0", body, [a, b])
    with grad_mode.no_grad():   # no gradient in torch
        values = svdvals(a) if detailed else as_tensor(np.zeros(0), dtype=a.dtype.real_dtype)
    return LstsqResult(x, residuals, rank, values)


def _qr_deficient(a: Tensor, rtol) -> bool:
    """Whether R of A's QR (A^H's if wide) has a diagonal entry at most rtol (default
    eps * max(m, n), gelsy's) times its largest: rank-deficient, as the SVD rank that decides
    eagerly says for all but borderline matrices. Inside ``symgrad.compile`` the ``bool`` is a
    guard: a call whose matrix decides otherwise traces again, never reusing the other path."""
    m, n = a.shape[-2:]
    if min(m, n) == 0:
        return False
    mh = (lambda t: t.mT.conj()) if a.dtype.is_complex else (lambda t: t.mT)
    x = a if m >= n else mh(a)
    with grad_mode.no_grad():
        r = F.matmul(mh(apply("qr", x, complete=False)), x)
        size = F.abs(r.diagonal(0, -2, -1))
        tol = rtol if rtol is not None else float(np.finfo(a.dtype.real_dtype.np).eps) * max(m, n)
        return bool((size <= size.amax(-1, keepdim=True) * tol).any())


def _full_rank_solution(a: Tensor, b: Tensor) -> Tensor:
    m, n = a.shape[-2:]
    mh = (lambda t: t.mT.conj()) if a.dtype.is_complex else (lambda t: t.mT)
    if m >= n:
        q = apply("qr", a, complete=False)
        r = F.matmul(mh(q), a)               # only its upper triangle is read
        return apply("triangular_solve", r, F.matmul(mh(q), b), upper=True, unitriangular=False)
    q = apply("qr", mh(a), complete=False)
    r = F.matmul(mh(q), mh(a))
    y = apply("triangular_solve", mh(r), b, upper=False, unitriangular=False)
    return F.matmul(q, y)
