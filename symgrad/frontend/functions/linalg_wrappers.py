"""torch's linear algebra written on other torch functions: linalg.solve_ex, inv_ex,
cholesky_ex (with the LAPACK ``info``), tensorinv, tensorsolve, vander, and the older torch
spellings torch.qr, torch.pinverse, torch.triangular_solve.

Layer: front end, above ``decompositions``, ``norms``, ``lu`` and ``scans``. Input: tensors.
Output: tensors or torch's named tuples, composed as torch composes them (so grad_fn names and
gradients are those of the parts; the compositions of differentiable primitives compile too,
and so does the ``info`` of an ``_ex`` function: the ``factor_info`` primitive).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..core.apply import apply, as_tensor
from .basic import composite
from .creation import eye
from .decompositions import (broadcast_batches, check_matrix, check_rhs, cholesky_upper, inv,
                             qr, solve, solve_checked, solve_triangular, type_name)
from .manipulation import movedim
from .norms import pinv
from .printing import return_type
from .scans import cumprod
from .shapes import cat, reshape, unsqueeze, flatten
from .torch_nodes import named_outputs
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["solve_ex", "inv_ex", "cholesky_ex", "tensorinv", "tensorsolve", "vander",
           "torch_qr", "pinverse", "triangular_solve"]

SolveExResult = return_type("linalg_solve_ex", ("result", "info"))
InvExResult = return_type("linalg_inv_ex", ("inverse", "info"))
CholeskyExResult = return_type("linalg_cholesky_ex", ("L", "info"))
TorchQRResult = return_type("qr", ("Q", "R"))
TriangularSolveResult = return_type("triangular_solve", ("solution", "cloned_coefficient"))


def _lu_info(a: Tensor) -> Tensor:
    """getrf's info per matrix (int32): 0, or the first zero pivot (1-based)."""
    return apply("factor_info", a, method="lu")


def solve_ex(A, B, *, left: bool = True, check_errors: bool = False) -> SolveExResult:
    """(linalg.solve's X, info): a singular A gives NaN and info > 0 instead of an error."""
    a = tensor_arg(A)
    check_matrix("linalg.solve_ex", a)
    info = _lu_info(a)
    check = "torch.linalg.solve_ex" if check_errors else ""
    return SolveExResult(solve_checked(a, B, left, check, "linalg.solve_ex"), info)


def inv_ex(A, *, check_errors: bool = False) -> InvExResult:
    """(linalg.inv's inverse, info): a singular A gives non-finite values and info > 0."""
    a = tensor_arg(A)
    check_matrix("linalg.inv_ex", a)
    info = _lu_info(a)
    ident = eye(a.shape[-1], dtype=a.dtype).expand(tuple(a.shape))
    return InvExResult(apply("solve", a, ident, check="linalg.inv_ex" if check_errors else "",
                             _torch_name="LinalgInvExBackward0"), info)


def cholesky_ex(A, *, upper: bool = False, check_errors: bool = False) -> CholeskyExResult:
    """(linalg.cholesky's factor, info): a matrix that is not positive-definite gives LAPACK's
    partial factor (the unchecked ``cholesky`` primitive's) and info > 0 (the order of the
    failing leading minor)."""
    a = tensor_arg(A)
    check_matrix("linalg.cholesky_ex", a)
    info = apply("factor_info", a.mH if upper else a, method="cholesky")
    check = "linalg.cholesky_ex" if check_errors else ""
    name = "LinalgCholeskyExBackward0"
    if upper:
        out = cholesky_upper(a, check, name)
    else:
        out = apply("cholesky", a, check=check, _torch_name=name)
    return CholeskyExResult(out, info)


def tensorinv(A, ind: int = 2) -> Tensor:
    """The inverse of A read as a square matrix of its first ``ind`` dims against the rest."""
    a = tensor_arg(A)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    end, start = tuple(a.shape[ind:]), tuple(a.shape[:ind])
    p_end, p_start = math.prod(end), math.prod(start)
    if p_end != p_start:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {p_end} != {p_start}")
    out = inv(reshape(a, (p_end, p_end)))
    if p_end > 1:   # torch's inverse is column-major: its reshape is an alias with strides
        return composite("ReshapeAliasBackward0", lambda t: reshape(t, end + start), [out])
    return reshape(out, end + start)


def tensorsolve(A, B, dims=None) -> Tensor:
    """X with tensordot(A, X, X.ndim) = B."""
    a, b = tensor_arg(A), tensor_arg(B)
    if dims is not None:
        dims = list(dims)
        a = movedim(a, dims, list(range(a.ndim - len(dims), a.ndim)))
    shape = tuple(a.shape[b.ndim:])
    p_res, p_other = math.prod(shape), math.prod(b.shape)
    if p_res != p_other:
        raise RuntimeError(f"Expected self to satisfy the requirement "
                           f"prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), "
                           f"but got {p_res} != {p_other}")
    return reshape(solve(reshape(a, (p_res, p_res)), flatten(b)), shape)


def vander(x, *, N=None) -> Tensor:
    """The Vandermonde matrix of increasing powers x^0 .. x^(N-1) (N defaults to len(x))."""
    t = tensor_arg(x)
    if t.dtype.name == "bool":
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer "
                           f"tensors, but got {type_name(t)}")
    t = unsqueeze(t, -1) if t.ndim == 0 else t
    n = t.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    shape = tuple(t.shape) + (n - 1,)
    powers = cumprod(unsqueeze(t, -1).expand(shape), -1)
    ones = as_tensor(np.ones(tuple(t.shape) + (1,), np.dtype(powers.dtype.np)))
    return cat([ones, powers], -1)


def torch_qr(input, some: bool = True) -> TorchQRResult:  # noqa: A002
    """``torch.qr`` (deprecated, as in torch: it warns): linalg.qr, reduced if ``some``."""
    warnings.warn("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a "
                  "future PyTorch release.", UserWarning, stacklevel=2)
    return TorchQRResult(*qr(input, "reduced" if some else "complete"))


def pinverse(input, rcond: float = 1e-15) -> Tensor:  # noqa: A002
    """``torch.pinverse``: linalg.pinv with atol 0 and rtol ``rcond``."""
    a = tensor_arg(input)
    return pinv(a, atol=0.0, rtol=rcond)


def triangular_solve(b, A, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> TriangularSolveResult:
    """``torch.triangular_solve`` (deprecated, as in torch: it warns): (X, a copy of A) with
    op(A) X = b, op(A) = A^T if ``transpose``; batches broadcast."""
    warnings.warn("torch.triangular_solve is deprecated in favor of "
                  "torch.linalg.solve_triangularand will be removed in a future PyTorch release.",
                  UserWarning, stacklevel=2)
    bt, at = tensor_arg(b), tensor_arg(A)
    for what, t in (("b", bt), ("A", at)):
        if t.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {what} to have at least 2 "
                               f"dimensions, but it has {t.ndim} dimensions instead")
    check_rhs("torch.triangular_solve", at, bt, sizes=False)

    def body(bt, at):
        at, bt = broadcast_batches(at, bt)
        coef = at.mT if transpose else at
        x = solve_triangular(coef, bt, upper=bool(upper) != bool(transpose),
                             unitriangular=bool(unitriangular))
        return x, apply("mul", at, 1)
    return TriangularSolveResult(*named_outputs("TriangularSolveBackward0", body, [bt, at]))


METHODS = {"qr": torch_qr, "pinverse": pinverse, "triangular_solve": triangular_solve}
