"""torch.linalg.ldl_factor, ldl_factor_ex and ldl_solve: the LDL^T factorization of symmetric
matrices with Bunch-Kaufman pivoting, as LAPACK's ``sytrf`` stores it, and its solver.

Layer: front end, above ``torch_nodes`` and ``underivable``. Input: tensors of (batches of)
real or complex symmetric matrices, or complex Hermitian ones (``hermitian=True``: LAPACK's
``hetf2``/``hetrs``, A = L D L^H), their lower triangles read (complex pivoting by |Re| + |Im|,
as LAPACK's), eager. Output: torch's named tuples:
LD (L's multipliers below the diagonal, D's 1x1 and 2x2 blocks on it; zeros above), int32
pivots (1-based; a 2x2 block's two entries negative), info; ldl_solve's X. The algorithm is
LAPACK's unblocked ``sytf2`` and ``sytrs`` (so are torch's on small matrices). Neither has a
derivative in torch: their grad_fn is ``NotImplemented`` and a backward raises torch's error.
Inside ``symgrad.compile`` they raise (the pivots depend on the values).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.apply import as_tensor
from .decompositions import check_matrix, check_rhs
from .printing import return_type
from .torch_nodes import named_outputs
from .underivable import not_implemented, without_derivative
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["ldl_factor", "ldl_factor_ex", "ldl_solve"]

LDLFactorResult = return_type("linalg_ldl_factor", ("LD", "pivots"))
LDLFactorExResult = return_type("linalg_ldl_factor_ex", ("LD", "pivots", "info"))
ALPHA = (1.0 + math.sqrt(17.0)) / 8.0


def _size(x):
    """LAPACK's magnitude for pivoting: |x|, or |Re x| + |Im x| (``cabs1``) if complex."""
    return np.abs(x.real) + np.abs(x.imag) if np.iscomplexobj(x) else np.abs(x)


def _choose(a: np.ndarray, k: int, hermitian: bool = False) -> tuple:
    """Bunch-Kaufman's choice at column k: (pivot row kp, block size, zero column); a
    Hermitian matrix's diagonal counts by its real part."""
    n = a.shape[0]
    diag = (lambda x: abs(x.real)) if hermitian else _size
    absakk = diag(a[k, k])
    imax, colmax = k, 0.0
    if k < n - 1:
        imax = k + 1 + int(np.argmax(_size(a[k + 1:, k])))
        colmax = _size(a[imax, k])
    if not max(absakk, colmax) > 0:
        return k, 1, True
    if absakk >= ALPHA * colmax:
        return k, 1, False
    rowmax = float(np.max(_size(a[imax, k:imax])))
    if imax < n - 1:
        rowmax = max(rowmax, float(np.max(_size(a[imax + 1:, imax]))))
    if absakk >= ALPHA * colmax * (colmax / rowmax):
        return k, 1, False
    if diag(a[imax, imax]) >= ALPHA * rowmax:
        return imax, 1, False
    return imax, 2, False


def _interchange(a: np.ndarray, k: int, kk: int, kp: int, step: int) -> None:
    """Swap rows and columns kk and kp of the trailing lower triangle."""
    a[kp + 1:, [kk, kp]] = a[kp + 1:, [kp, kk]]
    seg = a[kk + 1:kp, kk].copy()
    a[kk + 1:kp, kk] = a[kp, kk + 1:kp]
    a[kp, kk + 1:kp] = seg
    a[[kk, kp], [kk, kp]] = a[[kp, kk], [kp, kk]]
    if step == 2:
        a[[k + 1, kp], k] = a[[kp, k + 1], k]


def _update(a: np.ndarray, k: int, step: int) -> None:
    n = a.shape[0]
    if step == 1:
        if k < n - 1:
            r1 = 1.0 / a[k, k]   # LAPACK's: a rank-one update by -r1, then a scaling by r1
            x = a[k + 1:, k].copy()
            a[k + 1:, k + 1:] += np.tril(np.outer(x, -r1 * x))
            a[k + 1:, k] = x * r1
        return
    if k < n - 2:
        d21 = a[k + 1, k]
        d11, d22 = a[k + 1, k + 1] / d21, a[k, k] / d21
        d21 = (1.0 / (d11 * d22 - 1.0)) / d21
        wk = d21 * (d11 * a[k + 2:, k] - a[k + 2:, k + 1])
        wkp1 = d21 * (d22 * a[k + 2:, k + 1] - a[k + 2:, k])
        rest = a[k + 2:, k + 2:] - np.outer(a[k + 2:, k], wk) - np.outer(a[k + 2:, k + 1], wkp1)
        a[k + 2:, k + 2:] = np.tril(rest) + np.triu(a[k + 2:, k + 2:], 1)
        a[k + 2:, k], a[k + 2:, k + 1] = wk, wkp1


def sytf2(m: np.ndarray) -> tuple:
    """(LD, pivots, info) of one symmetric matrix (its lower triangle)."""
    a = np.tril(np.array(m, copy=True))
    n = a.shape[0]
    piv = np.zeros(n, np.int32)
    info, k = 0, 0
    while k < n:
        kp, step, zero = _choose(a, k)
        if zero:
            info = info or k + 1
        else:
            kk = k + step - 1
            if kp != kk:
                _interchange(a, k, kk, kp, step)
            _update(a, k, step)
        piv[k:k + step] = kp + 1 if step == 1 else -(kp + 1)
        k += step
    return np.tril(a), piv, info


def _interchange_hermitian(a: np.ndarray, k: int, kk: int, kp: int, step: int) -> None:
    """``hetf2``'s swap of rows and columns kk and kp: the segment between them conjugated."""
    a[kp + 1:, [kk, kp]] = a[kp + 1:, [kp, kk]]
    seg = a[kk + 1:kp, kk].copy()
    a[kk + 1:kp, kk] = a[kp, kk + 1:kp].conj()
    a[kp, kk + 1:kp] = seg.conj()
    a[kp, kk] = np.conj(a[kp, kk])
    a[kk, kk], a[kp, kp] = a[kp, kp].real, a[kk, kk].real
    if step == 2:
        a[k, k] = a[k, k].real
        a[[k + 1, kp], k] = a[[kp, k + 1], k]


def _update_hermitian(a: np.ndarray, k: int, step: int) -> None:
    """``hetf2``'s update of the trailing lower triangle (its diagonal kept real)."""
    n = a.shape[0]
    if step == 1:
        r1 = 1.0 / a[k, k].real
        x = a[k + 1:, k].copy()
        a[k + 1:, k + 1:] -= np.tril(np.outer(r1 * x, x.conj()))
        a[k + 1:, k] = x * r1
    elif k < n - 2:
        d = math.hypot(a[k + 1, k].real, a[k + 1, k].imag)
        d11, d22 = a[k + 1, k + 1].real / d, a[k, k].real / d
        tt = 1.0 / (d11 * d22 - 1.0)
        d21 = a[k + 1, k] / d
        d = tt / d
        wk = d * (d11 * a[k + 2:, k] - d21 * a[k + 2:, k + 1])
        wkp1 = d * (d22 * a[k + 2:, k + 1] - np.conj(d21) * a[k + 2:, k])
        rest = a[k + 2:, k + 2:] - (np.outer(a[k + 2:, k], wk.conj()) +
                                    np.outer(a[k + 2:, k + 1], wkp1.conj()))
        a[k + 2:, k + 2:] = np.tril(rest) + np.triu(a[k + 2:, k + 2:], 1)
        a[k + 2:, k], a[k + 2:, k + 1] = wk, wkp1
    idx = np.arange(k + step, n)
    a[idx, idx] = a[idx, idx].real


def hetf2(m: np.ndarray) -> tuple:
    """(LD, pivots, info) of one complex Hermitian matrix (its lower triangle), LAPACK's
    ``hetf2``: A = L D L^H, D Hermitian with 1x1 (real) and 2x2 blocks."""
    a = np.tril(np.array(m, copy=True))
    n = a.shape[0]
    piv = np.zeros(n, np.int32)
    info, k = 0, 0
    while k < n:
        kp, step, zero = _choose(a, k, hermitian=True)
        kk = k + step - 1
        if zero:
            info = info or k + 1
            a[k, k] = a[k, k].real
        elif kp != kk:
            _interchange_hermitian(a, k, kk, kp, step)
        else:
            a[k:k + step, k:k + step][np.diag_indices(step)] = \
                a[k:k + step, k:k + step].diagonal().real
        if not zero:
            _update_hermitian(a, k, step)
        piv[k:k + step] = kp + 1 if step == 1 else -(kp + 1)
        k += step
    return np.tril(a), piv, info


def _factor(a: Tensor, hermitian: bool = False) -> tuple:
    values = a.concrete
    ld, piv = np.zeros_like(values), np.zeros(values.shape[:-1], np.int32)
    info = np.zeros(values.shape[:-2], np.int32)
    factor = hetf2 if hermitian and a.dtype.is_complex else sytf2
    for i in np.ndindex(values.shape[:-2]):
        ld[i], piv[i], info[i] = factor(values[i])
    return as_tensor(ld, dtype=a.dtype), as_tensor(piv), as_tensor(info)


def _no_derivative(op: str):
    def rule(gs, ins):
        raise RuntimeError(not_implemented(op))
    return rule


def _check(name: str, a: Tensor) -> None:
    check_matrix(name, a)
    if a.concrete is None:
        raise NotImplementedError(f"{name} is not supported inside symgrad.compile (its "
                                  f"pivots depend on the values)")


def ldl_factor_ex(A, *, hermitian: bool = False, check_errors: bool = False) -> LDLFactorExResult:
    """(LD, pivots, info): info > 0 where D has a zero block (the factor is still given)."""
    a = tensor_arg(A)
    _check("torch.linalg.ldl_factor_ex", a)
    ld, piv, info = named_outputs("NotImplemented", lambda a: _factor(a, hermitian), [a],
                                  _no_derivative("linalg_ldl_factor_ex"))
    if check_errors and info.concrete.any():
        _raise_unknown("torch.linalg.ldl_factor_ex", info.concrete)
    return LDLFactorExResult(ld, piv, info)


def _raise_unknown(name: str, info: np.ndarray) -> None:
    code = int(info.reshape(-1)[np.flatnonzero(info.reshape(-1))[0]])
    raise RuntimeError(f"{name}: Unknown error code: {code}.")


def ldl_factor(A, *, hermitian: bool = False) -> LDLFactorResult:
    """(LD, pivots); a zero block of D raises (torch's internal error for it)."""
    ld, piv, info = ldl_factor_ex(A, hermitian=hermitian)
    if info.concrete.any():
        _raise_unknown("torch.linalg.ldl_factor", info.concrete)
    return LDLFactorResult(ld, piv)


def _forward(a: np.ndarray, piv: np.ndarray, b: np.ndarray, herm: bool = False) -> None:
    """Solve L D Y = P^T B in place (LAPACK's sytrs, lower, first half; ``herm``: hetrs's,
    D Hermitian)."""
    n, k = a.shape[0], 0
    cj = np.conj if herm else (lambda x: x)
    while k < n:
        if piv[k] > 0:
            kp = piv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            b[k + 1:] -= np.outer(a[k + 1:, k], b[k])
            b[k] = b[k] * (1.0 / a[k, k].real) if herm else b[k] / a[k, k]
            k += 1
            continue
        kp = -piv[k] - 1
        b[[k + 1, kp]] = b[[kp, k + 1]]
        b[k + 2:] -= np.outer(a[k + 2:, k], b[k]) + np.outer(a[k + 2:, k + 1], b[k + 1])
        akm1k = a[k + 1, k]
        akm1, ak = a[k, k] / cj(akm1k), a[k + 1, k + 1] / akm1k
        denom = akm1 * ak - 1.0
        bkm1, bk = b[k] / cj(akm1k), b[k + 1] / akm1k
        b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
        k += 2


def _backward(a: np.ndarray, piv: np.ndarray, b: np.ndarray, herm: bool = False) -> None:
    """Solve L^T P^T X = Y (L^H if ``herm``) in place (sytrs's second half)."""
    k = a.shape[0] - 1
    a = a.conj() if herm else a
    while k >= 0:
        step = 1 if piv[k] > 0 else 2
        b[k] -= a[k + 1:, k] @ b[k + 1:]
        if step == 2:
            b[k - 1] -= a[k + 1:, k - 1] @ b[k + 1:]
        kp = abs(int(piv[k])) - 1
        b[[k, kp]] = b[[kp, k]]
        k -= step


def ldl_solve(LD, pivots, B, *, hermitian: bool = False) -> Tensor:
    """X with A X = B, A given as ldl_factor's (LD, pivots)."""
    ld, piv, b = tensor_arg(LD), tensor_arg(pivots), tensor_arg(B)
    name = "torch.linalg.ldl_solve"
    check_matrix(name, ld, "LD")
    if b.ndim < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got "
                         "-2)")
    check_rhs(name, ld, b)
    _check(name, ld)

    def body(ld, b):
        batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
        lds = np.broadcast_to(ld.concrete, batch + tuple(ld.shape[-2:]))
        pivs = np.broadcast_to(piv.concrete, batch + tuple(piv.shape[-1:]))
        x = np.array(np.broadcast_to(b.concrete, batch + tuple(b.shape[-2:])), copy=True)
        herm = bool(hermitian) and ld.dtype.is_complex
        for i in np.ndindex(batch):
            _forward(lds[i], pivs[i], x[i], herm)
            _backward(lds[i], pivs[i], x[i], herm)
        return as_tensor(x, dtype=b.dtype)
    return without_derivative("NotImplemented", body, [ld, b], not_implemented("linalg_ldl_solve"))
