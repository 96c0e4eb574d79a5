"""torch.linalg's solvers and decompositions: solve, inv, det, slogdet, cholesky, cholesky_solve,
solve_triangular, qr, eigh, eigvalsh, and torch's det, logdet, slogdet, inverse, cholesky.

Layer: front end, above ``functional``, ``shapes`` and ``manipulation``. Input: tensors, eager or
traced. Output: tensors built from the primitives of ``ops.decomp`` (their NumPy references
eagerly, C kernels compiled; their rules give gradients of any order), with torch's argument
checks and messages. Leading dims are batches, broadcast where torch broadcasts them (solve's
A and B). A singular matrix where torch raises (inv, solve) or one not positive-definite
(cholesky) raises ``LinAlgError``: eagerly with torch's message, naming the batch element and
the diagonal element or minor; compiled, the same error without those numbers.
"""

from __future__ import annotations

import warnings

import numpy as np

from ... import dtypes
from ...errors import LinAlgError
from ...ops.registry import broadcast_shapes
from ..core.apply import apply, as_tensor
from ..core.halfprec import REAL_INPUT_COMPLEX_GRAD
from .creation import eye
from .basic import log, matmul, where
from .manipulation import tril, triu
from .potri import cholesky_inverse_nonfinite
from .printing import return_type
from .shapes import broadcast_to, squeeze, unsqueeze
from .basic import composite
from .torch_nodes import named_outputs
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["LinAlgError", "solve", "inv", "det", "slogdet", "logdet", "cholesky",
           "solve_triangular", "cholesky_solve", "cholesky_inverse", "qr", "eigh", "eigvalsh",
           "inverse", "torch_cholesky", "torch_slogdet", "cholesky_upper", "cholesky_rule",
           "check_finite_svd"]

SlogdetResult = return_type("linalg_slogdet", ("sign", "logabsdet"))
TorchSlogdetResult = return_type("slogdet", ("sign", "logabsdet"))
QRResult = return_type("linalg_qr", ("Q", "R"))
EighResult = return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))

def type_name(t: Tensor) -> str:
    """The name torch's messages give ``t``'s dtype (``Float``, ``Long``...)."""
    return t.dtype.scalar_type


# ---------------------------------------------------------------- checks


def check_matrix(name: str, a: Tensor, what: str = "A", square: bool = True) -> None:
    """torch's checks of a batch of (square) float or complex matrices."""
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor {what} must have at least 2 dimensions.")
    if square and a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: {what} must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")
    if not a.dtype.is_differentiable:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                           f"Got {type_name(a)}")


def check_finite_svd(a: Tensor) -> None:
    """torch's error for the SVD of a matrix holding NaN or infinity (eagerly: LAPACK's
    gesdd does not converge; symgrad's eigh of [[0, A], [A^H, 0]] would name eigh)."""
    values = a.concrete
    if values is not None and values.size and not np.isfinite(values).all():
        raise LinAlgError("linalg.svd: The algorithm failed to converge because the input "
                          "matrix contained non-finite values.")


def check_rhs(name: str, a: Tensor, b: Tensor, sizes: bool = True) -> None:
    """torch's checks of the right-hand side ``b`` of a solve with the (factored) square
    matrices ``a``: the same dtype and (``sizes``) as many rows as ``a`` has columns."""
    if b.dtype is not a.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{type_name(b)} and A of type {type_name(a)} instead.")
    if sizes and b.shape[-2] != a.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is "
                           f"{a.shape[-1]} by {a.shape[-1]} but each b matrix is "
                           f"{b.shape[-2]} by {b.shape[-1]}")


def _same_dtype(name: str, a: Tensor, b: Tensor) -> None:
    if a.dtype is not b.dtype:
        raise RuntimeError(f"{name}: Expected A and B to have the same dtype, but found A of "
                           f"type {type_name(a)} and B of type {type_name(b)} instead")


def _fits(name: str, a: Tensor, b: Tensor, left: bool) -> None:
    """B's matrices fit the equation AX = B (XA = B if not ``left``)."""
    if b.shape[-2 if left else -1] != a.shape[-1]:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation {eq} "
                           f"({a.shape[-2]}x{a.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})")


def _mt(x: Tensor) -> Tensor:
    return x.mT


def _mh(x: Tensor) -> Tensor:
    return x.mT.conj() if x.dtype.is_complex else x.mT


def broadcast_batches(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """``a`` and ``b`` with their batch dims (all but the last two) broadcast together."""
    batch = broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    return (broadcast_to(a, batch + tuple(a.shape[-2:])),
            broadcast_to(b, batch + tuple(b.shape[-2:])))


def _identity_like(a: Tensor) -> Tensor:
    return broadcast_to(eye(a.shape[-1], dtype=a.dtype), tuple(a.shape))


# ---------------------------------------------------------------- solve, inv

def solve(A, B, *, left: bool = True) -> Tensor:
    """X with A X = B (X A = B if not ``left``); B is a batch of vectors when it is 1-D or
    has A's shape without its last dim."""
    return solve_checked(A, B, left, "torch.linalg.solve")


def solve_checked(A, B, left: bool, check: str, name: str = "linalg.solve") -> Tensor:
    """``solve`` whose singular A raises ``check``'s error (NaN if ``check`` is empty)."""
    a, b = tensor_arg(A), tensor_arg(B)
    check_matrix(name, a)
    _same_dtype(name, a, b)
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and tuple(b.shape) == tuple(a.shape[:-1]))
    bm = unsqueeze(b, -1) if vector else b
    if bm.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 1 dimensions.")
    _fits(name, a, bm, left)

    def body(a, b):
        a, bm = broadcast_batches(a, unsqueeze(b, -1) if vector else b)
        if left:
            x = apply("solve", a, bm, check=check)
        else:
            x = _mt(apply("solve", _mt(a), _mt(bm), check=check))
        return squeeze(x, -1) if vector else x
    if left and not vector and tuple(a.shape[:-2]) == tuple(b.shape[:-2]):
        return body(a, b)   # one primitive, LinalgSolveExBackward0 already
    return composite("LinalgSolveExBackward0", body, [a, b])


def inv(A) -> Tensor:
    """The inverse of each square matrix (LinAlgError if one is singular)."""
    a = tensor_arg(A)
    check_matrix("linalg.inv", a)
    return apply("solve", a, _identity_like(a), check="linalg.inv",
                 _torch_name="LinalgInvExBackward0")


def inverse(A) -> Tensor:
    """``torch.inverse``: ``linalg.inv``."""
    return inv(A)


# ---------------------------------------------------------------- determinants

def _slogdet(name: str, A) -> tuple[Tensor, Tensor]:
    a = tensor_arg(A)
    check_matrix(name, a)
    return named_outputs("LinalgSlogdetBackward0", _slogdet_parts, [a])


def _slogdet_parts(a: Tensor) -> tuple[Tensor, Tensor]:
    both = apply("slogdet", a)
    logabs = both[..., 1]
    return both[..., 0], (logabs.real if logabs.dtype.is_complex else logabs)


def slogdet(A) -> SlogdetResult:
    """(sign, log|det|) of each square matrix; (0, -inf) for a singular one."""
    return SlogdetResult(*_slogdet("linalg.slogdet", A))


def torch_slogdet(A) -> TorchSlogdetResult:
    """``torch.slogdet``."""
    return TorchSlogdetResult(*_slogdet("linalg.slogdet", A))


def det(A) -> Tensor:
    """The determinant of each square matrix (the signed product of its LU pivots)."""
    a = tensor_arg(A)
    check_matrix("linalg.det", a)
    return apply("det", a)


def logdet(A) -> Tensor:
    """``torch.logdet``: log(det), NaN for a negative determinant, -inf for a zero one; as
    torch computes it: log|det| where the sign is not -1 (WhereBackward0), log(sign) + log|det|
    for complex matrices."""
    sign, logabs = _slogdet("linalg.slogdet", A)
    if sign.dtype.is_complex:
        return log(sign) + logabs
    # torch's: where(sign == -1, nan, logabsdet), WhereBackward0 (no gradient where NaN)
    return where(sign == -1.0, float("nan"), logabs)


# ---------------------------------------------------------------- cholesky, triangles

def cholesky(A, *, upper: bool = False) -> Tensor:
    """L with A = L L^T from A's lower triangle (U with A = U^T U from its upper one)."""
    return _cholesky("linalg.cholesky", A, upper)


def _cholesky(name: str, A, upper: bool) -> Tensor:
    a = tensor_arg(A)
    check_matrix(name, a)
    torch_name = "CholeskyBackward0" if name == "cholesky" else "LinalgCholeskyExBackward0"
    if upper:
        return cholesky_upper(a, name, torch_name)
    return apply("cholesky", a, check=name, _torch_name=torch_name)


def cholesky_upper(a: Tensor, check: str, torch_name: str) -> Tensor:
    """U with A = U^H U from A's upper triangle: L^H for the L of A^H. A complex A takes
    torch's rule (``cholesky_rule``): its gradient is not Hermitian, so it is not the
    conjugate transpose of the lower factor's."""
    rule = (lambda g, out, ins: cholesky_rule(g, out, True)) if a.dtype.is_complex else None
    return composite(torch_name, lambda a: _mh(apply("cholesky", _mh(a), check=check)), [a],
                     rule, saves=False, holomorphic=False if rule else None)


def cholesky_rule(g: Tensor, out: Tensor, upper: bool) -> tuple:
    """torch's cholesky_backward: L^-H Phi L^-1, Phi = (X + tril(X, -1)^H) / 2 with
    X = tril(L^H gL) (any lower triangular L, the partial factor of a failed one included;
    L = U^H, gL = gU^H if ``upper``)."""
    ell, gl = (_mh(out), _mh(g)) if upper else (out, g)
    ga = tril(matmul(_mh(ell), gl))
    ga = (ga + _mh(tril(ga, -1))) * 0.5
    ga = solve_triangular(_mh(ell), ga, upper=True)
    return (solve_triangular(ell, ga, upper=False, left=False),)


def torch_cholesky(A, upper: bool = False) -> Tensor:
    """``torch.cholesky`` (deprecated in torch, as here: it warns)."""
    warnings.warn("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be "
                  "removed in a future PyTorch release.", UserWarning, stacklevel=2)
    return _cholesky("cholesky", A, upper)


SOLVER_DTYPES = (dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128)


def solve_triangular(A, B, *, upper: bool, left: bool = True,
                     unitriangular: bool = False) -> Tensor:
    """X with A X = B (X A = B if not ``left``) reading only A's upper or lower triangle (and
    not its diagonal, taken as ones, if ``unitriangular``)."""
    a, b = tensor_arg(A), tensor_arg(B)
    name = "linalg.solve_triangular"
    if a.dtype not in SOLVER_DTYPES:     # torch dispatches its kernel on A's dtype
        raise NotImplementedError(f'"triangular_solve_cpu" not implemented for '
                                  f"'{a.dtype.scalar_type}'")
    check_matrix(name, a)
    if b.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    _fits(name, a, b, left)
    if b.dtype is not a.dtype:   # torch copies B into a result of A's dtype (copy_'s cast)
        if a.dtype.is_complex and not b.dtype.is_complex and b.requires_grad:
            return composite("LinalgSolveTriangularBackward0", lambda a, b: solve_triangular(
                a, b, upper=upper, left=left, unitriangular=unitriangular), [a, b.to(a.dtype)],
                _complex_into_real, holomorphic=False)
        b = b.to(a.dtype)
    a, b = broadcast_batches(a, b)
    if left:
        return apply("triangular_solve", a, b, upper=bool(upper),
                     unitriangular=bool(unitriangular))
    return composite("LinalgSolveTriangularBackward0", lambda a, b: _mt(apply(
        "triangular_solve", _mt(a), _mt(b), upper=not upper,
        unitriangular=bool(unitriangular))), [a, b])


def _complex_into_real(g, out, ins):
    """torch's backward of a complex solve_triangular whose B is real: B's gradient would be
    complex, which torch's engine refuses."""
    raise RuntimeError(REAL_INPUT_COMPLEX_GRAD)


def cholesky_solve(B, L, upper: bool = False) -> Tensor:
    """``torch.cholesky_solve``: X with A X = B, given A's Cholesky factor L (A = L L^T), or
    U (A = U^T U) if ``upper``."""
    b, f = tensor_arg(B), tensor_arg(L)
    name = "cholesky_solve"
    if b.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {b.ndim} dimensions "
                           f"instead")
    if f.ndim < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {f.ndim} dimensions "
                           f"instead")
    check_matrix(name, f, "A")
    check_rhs(name, f, b)
    f, b = broadcast_batches(f, b)

    def body(rhs, factor):
        low = _mh(factor) if upper else factor     # A = L L^H
        y = apply("triangular_solve", low, rhs, upper=False, unitriangular=False)
        return apply("triangular_solve", _mh(low), y, upper=True, unitriangular=False)

    def rule(g, out, ins):   # torch's: the whole factor, not its triangle, in the gradient
        grad_b = cholesky_solve(g, ins[1], upper)
        common = matmul(grad_b, _mh(out))
        common = common + _mh(common)
        return grad_b, (-matmul(ins[1], common) if upper else -matmul(common, ins[1]))
    return composite("CholeskySolveBackward0", body, [b, f], rule, holomorphic=False)


# ---------------------------------------------------------------- qr, eigh

def qr(A, mode: str = "reduced") -> QRResult:
    """Q (orthonormal columns) and R (upper triangular) with A = Q R; ``mode`` 'reduced'
    (k = min(m, n) columns of Q), 'complete' (Q square) or 'r' (R only; Q empty)."""
    a = tensor_arg(A)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           f"'reduced' (default), 'r', or 'complete'")
    check_matrix("linalg.qr", a, square=False)

    def body(a):
        q = apply("qr", a, complete=mode == "complete")
        r = triu(matmul(_mh(q), a))
        if mode == "r":
            q = as_tensor([], dtype=a.dtype)
        return q, r
    rule = None if mode != "r" else _qr_r_rule
    return QRResult(*named_outputs("LinalgQrBackward0", body, [a], rule))


def _qr_r_rule(gs, ins):
    """torch's backward of qr(A, 'r'): an error (Q was not kept)."""
    raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                       "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                       "differentiate through linalg.qr.")


def _check_uplo(UPLO) -> bool:
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO in ("U", "u")


def eigh(A, UPLO: str = "L") -> EighResult:
    """Eigenvalues (ascending) and orthonormal eigenvectors (columns) of the symmetric matrices
    in A's lower (UPLO='L') or upper triangle. An eigenvector's sign is a convention: here its
    largest-magnitude entry is positive."""
    a = tensor_arg(A)
    upper = _check_uplo(UPLO)
    check_matrix("linalg.eigh", a)

    def body(a):
        both = apply("eigh", a, upper=upper)
        return _real(both[..., 0, :]), both[..., 1:, :]
    return EighResult(*named_outputs("LinalgEighBackward0", body, [a]))


def eigvalsh(A, UPLO: str = "L") -> Tensor:
    """The eigenvalues (ascending) of the symmetric matrices in one triangle of A."""
    a = tensor_arg(A)
    upper = _check_uplo(UPLO)
    check_matrix("linalg.eigh", a)
    return composite("LinalgEighBackward0",
                     lambda a: _real(apply("eigh", a, upper=upper)[..., 0, :]), [a])


def _real(x: Tensor) -> Tensor:
    """The eigenvalues row of a complex ``eigh`` result as real numbers."""
    return x.real if x.dtype.is_complex else x


def cholesky_inverse(L, upper: bool = False) -> Tensor:
    """``torch.cholesky_inverse``: A^-1 given A's Cholesky factor L (or U if ``upper``), with
    torch's backward formula. An eager factor holding NaN or infinity takes LAPACK's order
    (``potri``), which spreads them to fewer elements than two solves would; one with a zero
    on its diagonal raises torch's error (compiled: infinities, no error)."""
    f = tensor_arg(L)
    check_matrix("cholesky_inverse", f)
    _check_diagonal("cholesky_inverse", f)

    def rule(g, out, ins):   # torch's: the whole of L, not only its triangle, in the gradient
        common = matmul(out, matmul(g + _mh(g), out))
        return (-matmul(ins[0], common) if upper else -matmul(common, ins[0]),)

    def body(a):
        if a.concrete is not None and not np.isfinite(a.concrete).all():
            return as_tensor(cholesky_inverse_nonfinite(a.concrete, upper), dtype=a.dtype)
        return cholesky_solve(_identity_like(a), a, upper)
    return composite("CholeskyInverseBackward0", body, [f], rule, holomorphic=False)


def _check_diagonal(name: str, f: Tensor) -> None:
    """torch's error (LAPACK's trtri) for an eager triangular factor with a zero on its
    diagonal, naming the first batch element and diagonal element (1-based) that has one."""
    values = f.concrete
    if values is None or not values.size:
        return
    zero = (np.diagonal(values, axis1=-2, axis2=-1) == 0).reshape(-1, values.shape[-1])
    if zero.any():
        k = int(np.argmax(zero.any(-1)))
        where = f"(Batch element {k}): " if f.ndim > 2 else ""
        raise LinAlgError(f"{name}: {where}The diagonal element {int(np.argmax(zero[k])) + 1} "
                          f"is zero, the inversion could not be completed because the input "
                          f"matrix is singular.")


METHODS = {"det": det, "logdet": logdet, "slogdet": torch_slogdet, "inverse": inverse,
           "cholesky": torch_cholesky, "cholesky_solve": cholesky_solve,
           "cholesky_inverse": cholesky_inverse}
