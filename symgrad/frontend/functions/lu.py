"""The LU decomposition with partial pivoting: torch.linalg.lu_factor, lu_factor_ex, lu,
lu_solve, torch.lu, torch.lu_unpack, torch.lu_solve.

Layer: front end, above ``decompositions``, ``manipulation`` and ``basic``. Input: tensors of
(batches of) float or complex matrices, eager. Output: torch's named tuples: LU packed as
LAPACK's ``getrf`` packs it (L's strict lower triangle, unit diagonal implied, and U), 1-based
int32 row pivots; gradients by torch's formulas (``linalg_lu_backward`` for P L U; a packed LU's
through L and U; lu_solve and lu_unpack through triangular solves and masks, so they are
differentiable again). The factorization is LAPACK's unblocked right-looking algorithm (the first
largest |a| of a column is its pivot); inside ``symgrad.compile`` it raises (the pivots depend on
the values).
"""

from __future__ import annotations

import warnings

import numpy as np

from . import basic as F
from ...ops.factor_info import getrf
from ..core.apply import as_tensor
from .basic import composite
from .decompositions import broadcast_batches, check_matrix, solve_triangular, type_name
from .manipulation import tril, triu
from .printing import return_type
from .shapes import cat
from .torch_nodes import named_outputs
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["lu_factor", "lu_factor_ex", "lu", "lu_solve", "lu_unpack", "torch_lu",
           "torch_lu_solve"]

LUFactorResult = return_type("linalg_lu_factor", ("LU", "pivots"))
LUFactorExResult = return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
LUResult = return_type("linalg_lu", ("P", "L", "U"))
LUUnpackResult = return_type("lu_unpack", ("P", "L", "U"))
LUWithInfoResult = return_type("_lu_with_info", ("LU", "pivots", "info"))


def permutation(piv: np.ndarray, m: int, dtype) -> np.ndarray:
    """The permutation matrices P (*, m, m) of 1-based row swaps ``piv``: A = P L U."""
    batch = piv.shape[:-1]
    perm = np.array(np.broadcast_to(np.arange(m), batch + (m,)))
    for c in range(piv.shape[-1]):
        p = piv[..., c].astype(np.int64) - 1
        at_c = perm[..., c].copy()
        perm[..., c] = np.take_along_axis(perm, p[..., None], -1)[..., 0]
        np.put_along_axis(perm, p[..., None], at_c[..., None], axis=-1)
    out = np.zeros(batch + (m, m), dtype)
    np.put_along_axis(out, perm[..., None, :], 1, axis=-2)
    return out


def _check(name: str, a: Tensor, pivot: bool) -> None:
    if a.ndim < 2:
        raise RuntimeError(f"torch.lu_factor: Expected tensor with 2 or more dimensions. Got "
                           f"size: {list(a.shape)} instead")
    if not a.dtype.is_differentiable:
        raise NotImplementedError(f'"lu_cpu" not implemented for \'{type_name(a)}\'')
    if not pivot:
        raise RuntimeError(f"{name}: LU without pivoting is not implemented on the CPU")
    if a.concrete is None:
        raise NotImplementedError(f"{name} is not supported inside symgrad.compile (its pivots "
                                  f"depend on the values): compute it eagerly")


def _unpack(lu: Tensor) -> tuple:
    """(L, U) of a packed LU, differentiable (masks)."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    ell = tril(lu[..., :, :k], -1) + as_tensor(np.eye(m, k, dtype=np.dtype(lu.dtype.np)))
    return ell, triu(lu[..., :k, :])


def _mh(x: Tensor) -> Tensor:
    return x.mT.conj() if x.dtype.is_complex else x.mT


def lu_rule(p: Tensor, ell: Tensor, u: Tensor, gl, gu) -> Tensor:
    """torch's linalg_lu_backward: gA from the cotangents of L and U (None if undefined)."""
    m, n = ell.shape[-2], u.shape[-1]
    k = min(m, n)
    gl = ell * 0.0 if gl is None else gl
    gu = u * 0.0 if gu is None else gu
    if m == n:
        ga = tril(F.matmul(_mh(ell), gl), -1) + triu(F.matmul(gu, _mh(u)))
        ga = solve_triangular(_mh(u), ga, upper=False, left=False)
        ga = solve_triangular(_mh(ell), ga, upper=True, unitriangular=True)
    elif m < n:
        u1, gu1, gu2 = u[..., :, :k], gu[..., :, :k], gu[..., :, k:]
        ga = F.matmul(_mh(ell), gl) - F.matmul(triu(gu), _mh(u))
        ga = solve_triangular(_mh(u1), tril(ga, -1), upper=False, left=False)
        ga = cat([ga + triu(gu1), gu2], -1)
        ga = solve_triangular(_mh(ell), ga, upper=True, unitriangular=True)
    else:
        l1, gl1, gl2 = ell[..., :k, :], gl[..., :k, :], gl[..., k:, :]
        ga = F.matmul(gu, _mh(u)) - F.matmul(_mh(ell), tril(gl, -1))
        ga = solve_triangular(_mh(l1), triu(ga), upper=True, unitriangular=True)
        ga = cat([ga + tril(gl1, -1), gl2], -2)
        ga = solve_triangular(_mh(u), ga, upper=False, left=False)
    return F.matmul(p, ga)


def _factor(a: Tensor) -> tuple:
    lu, piv, info = getrf(a.concrete)
    return as_tensor(lu, dtype=a.dtype), as_tensor(piv), as_tensor(info)


def _factor_rule(gs, ins):
    a = ins[0]
    lu_, piv, _ = _factor_recorded(a)
    if gs[0] is None:
        return (None,)
    ell, u = _unpack(lu_)
    p = as_tensor(permutation(piv.concrete, a.shape[-2], np.dtype(a.dtype.np)))
    return (lu_rule(p, ell, u, tril(gs[0][..., :, :ell.shape[-1]], -1),
                    triu(gs[0][..., :u.shape[-2], :])),)


def _factor_recorded(a: Tensor) -> tuple:
    return named_outputs("LinalgLuFactorExBackward0", _factor, [a], _factor_rule)


def lu_factor_ex(A, *, pivot: bool = True, check_errors: bool = False) -> LUFactorExResult:
    """(LU, pivots, info) without raising for a singular matrix (info > 0 then)."""
    a = tensor_arg(A)
    _check("linalg.lu_factor_ex", a, pivot)
    out = _factor_recorded(a)
    if check_errors:
        _raise_singular("torch.linalg.lu_factor_ex", out[2].concrete)
    return LUFactorExResult(*out)


def _raise_singular(name: str, info: np.ndarray) -> None:
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat)
    if bad.size:
        where = f"(Batch element {bad[0]}): " if info.ndim else ""
        i = int(flat[bad[0]])
        raise RuntimeError(f"{name}: {where}U[{i},{i}] is zero and using it on lu_solve would "
                           f"result in a division by zero. If you still want to perform the "
                           f"factorization, consider calling linalg.lu(A, pivot) or "
                           f"linalg.lu_factor_ex(A, pivot)")


def lu_factor(A, *, pivot: bool = True) -> LUFactorResult:
    """(LU, pivots); a singular matrix raises torch's error."""
    a = tensor_arg(A)
    _check("linalg.lu_factor", a, pivot)
    lu_, piv, info = _factor_recorded(a)
    _raise_singular("torch.linalg.lu_factor", info.concrete)
    return LUFactorResult(lu_, piv)


def torch_lu(A, pivot: bool = True, get_infos: bool = False):
    """``torch.lu`` (deprecated, as in torch: it warns): (LU, pivots[, infos])."""
    warnings.warn("torch.lu is deprecated in favor of torch.linalg.lu_factor / "
                  "torch.linalg.lu_factor_ex and will be removed in a future PyTorch release.",
                  UserWarning, stacklevel=2)
    out = _lu_with_info(A, pivot)
    return out if get_infos else tuple(out[:2])


def _lu_with_info(A, pivot: bool) -> LUWithInfoResult:
    a = tensor_arg(A)
    _check("linalg.lu_factor", a, pivot)
    return LUWithInfoResult(*_factor_recorded(a))


def _plu(a: Tensor) -> tuple:
    lu_, piv, _ = getrf(a.concrete)
    dtype = np.dtype(a.dtype.np)
    p = permutation(piv, a.shape[-2], dtype)
    m, n = a.shape[-2:]
    k = min(m, n)
    ell = np.tril(lu_[..., :, :k], -1) + np.eye(m, k, dtype=dtype)
    return (as_tensor(p, dtype=a.dtype), as_tensor(ell, dtype=a.dtype),
            as_tensor(np.triu(lu_[..., :k, :]), dtype=a.dtype))


def _plu_rule(gs, ins):
    p, ell, u = lu(ins[0])
    if gs[1] is None and gs[2] is None:
        return (None,)
    return (lu_rule(p.detach(), ell, u, gs[1], gs[2]),)


def lu(A, *, pivot: bool = True) -> LUResult:
    """(P, L, U) with A = P L U: P a permutation, L unit lower m x k, U upper k x n."""
    a = tensor_arg(A)
    _check("linalg.lu", a, pivot)
    p, ell, u = named_outputs("LinalgLuBackward0", _plu, [a], _plu_rule)
    return LUResult(p.detach(), ell, u)


def lu_unpack(LU_data, LU_pivots, unpack_data: bool = True,
              unpack_pivots: bool = True) -> LUUnpackResult:
    """(P, L, U) of a packed LU; empty tensors for the parts not asked for."""
    lu_, piv = tensor_arg(LU_data), tensor_arg(LU_pivots)
    if piv.dtype.name != "int32":
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor "
                           "of torch.int32 dtype.")
    empty = as_tensor(np.zeros(0, np.dtype(lu_.dtype.np)))
    p = (as_tensor(permutation(piv.concrete, lu_.shape[-2], np.dtype(lu_.dtype.np)))
         if unpack_pivots else empty)
    if not unpack_data:   # torch's: empty L and U on a node whose backward fails
        ell, u = named_outputs("LuUnpackBackward0", lambda t: (empty * 1.0, empty * 1.0), [lu_],
                               _unpack_nothing)
        return LUUnpackResult(p, ell, u)
    ell, u = named_outputs("LuUnpackBackward0", _unpack, [lu_])
    return LUUnpackResult(p, ell, u)


def _unpack_nothing(gs, ins):
    raise RuntimeError("tril: input tensor must have at least 2 dimensions")


def lu_solve(LU, pivots, B, *, left: bool = True, adjoint: bool = False) -> Tensor:
    """X with A X = B (A^H X = B if ``adjoint``; X A = B if not ``left``), A = P L U given as
    lu_factor's (LU, pivots)."""
    lu_, piv, b = tensor_arg(LU), tensor_arg(pivots), tensor_arg(B)
    name = "linalg.lu_solve"
    check_matrix(name, lu_, "LU")
    if b.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    if lu_.dtype is not b.dtype:
        raise RuntimeError(f"{name}: Expected LU and B to have the same dtype, but found LU of "
                           f"type {type_name(lu_)} and B of type {type_name(b)} instead")
    if b.shape[-2 if left else -1] != lu_.shape[-1]:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation {eq} "
                           f"({lu_.shape[-2]}x{lu_.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})")
    p = as_tensor(permutation(piv.concrete, lu_.shape[-1], np.dtype(lu_.dtype.np)))

    def body(lu_, b):
        lu_, b = broadcast_batches(lu_, b)
        ell, u = _unpack(lu_)
        pb = p
        if not left:    # X A = B is A^T X^T = B^T (A^H X^H = B^H with adjoint)
            b = _mh(b) if adjoint else b.mT
            return _mh(_left(pb, ell, u, b, not adjoint, True)) if adjoint else \
                _left(pb, ell, u, b, True, False).mT
        return _left(pb, ell, u, b, adjoint, lu_.dtype.is_complex)
    return composite("LinalgLuSolveBackward0", body, [lu_, b])


def _left(p, ell, u, b, adjoint: bool, conj: bool) -> Tensor:
    """A^-1 B (A = P L U), or A^-H B (A^-T B if not ``conj``) if ``adjoint``."""
    if not adjoint:
        y = solve_triangular(ell, F.matmul(p.mT, b), upper=False, unitriangular=True)
        return solve_triangular(u, y, upper=True)
    tr = _mh if conj else (lambda x: x.mT)
    y = solve_triangular(tr(u), b, upper=False)
    y = solve_triangular(tr(ell), y, upper=True, unitriangular=True)
    return F.matmul(p, y)


def torch_lu_solve(b, LU_data, LU_pivots) -> Tensor:
    """``torch.lu_solve`` (deprecated, as in torch: it warns): linalg.lu_solve(LU, pivots, b)."""
    warnings.warn("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be "
                  "removed in a future PyTorch release.", UserWarning, stacklevel=2)
    return lu_solve(LU_data, LU_pivots, b)


def _lu_method(self: Tensor, pivot: bool = True, get_infos: bool = False) -> tuple:
    """``Tensor.lu``: torch.lu's results as a plain tuple (without its warning)."""
    out = tuple(_lu_with_info(self, pivot))
    return out if get_infos else out[:2]


METHODS = {"lu": _lu_method, "lu_solve": torch_lu_solve}
