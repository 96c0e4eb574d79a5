"""The ``info`` of a LAPACK factorization, as a primitive: whether (and where) each matrix's
LU or Cholesky factorization fails, so that ``linalg.solve_ex``, ``inv_ex``, ``cholesky_ex``
and ``lu_factor_ex`` report it inside ``symgrad.compile`` too.

Layer: ops. Input: nothing. Output: the registered ``factor_info(A, method)`` (kind OTHER,
int32 of A's batch shape, no gradient): for ``method="lu"`` getrf's info, the 1-based column of
the first exactly-zero pivot of LU with partial pivoting (0 if none); for ``"cholesky"``
potrf's, the order of the first leading minor that is not positive-definite, reading A's lower
triangle (the front end passes A^H for the upper one). Its NumPy reference is below (``getrf``
also serves the eager LU functions); lowering gives it the decomposition kernels' C
(``codegen.c.decomp``: the LU or Cholesky loop, then the status it stopped with).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from . import batching
from .registry import OTHER, OpDef, ShapeError, register

__all__ = ["getrf", "potf2", "potrf_info"]


def getrf(a: np.ndarray) -> tuple:
    """(LU, 1-based int32 pivots, int32 info) of each matrix of ``a`` (*, m, n): LAPACK's
    partial pivoting (the largest |Re| + |Im| for complex, as izamax); info is the 1-based
    index of the first exactly-zero pivot (0 if none)."""
    lu = np.array(a, copy=True)
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    piv = np.zeros(batch + (k,), np.int32)
    info = np.zeros(batch, np.int32)
    rows = np.broadcast_to(np.arange(m), batch + (m,))
    cplx = np.iscomplexobj(lu)
    for c in range(k):
        column = lu[..., c:, c]   # LAPACK's i?amax: |Re| + |Im| for complex
        size = np.abs(column.real) + np.abs(column.imag) if cplx else np.abs(column)
        p = c + np.argmax(size, axis=-1)
        piv[..., c] = p + 1
        order = rows.copy()
        order[..., c] = p
        np.put_along_axis(order, p[..., None], c, axis=-1)
        lu = np.take_along_axis(lu, order[..., None], axis=-2)
        pivot = lu[..., c, c]
        zero = pivot == 0
        info = np.where((info == 0) & zero, c + 1, info).astype(np.int32)
        safe = np.where(zero, 1, pivot)[..., None]
        below = lu[..., c + 1:, c]
        lu[..., c + 1:, c] = np.where(zero[..., None], below, below / safe)
        lu[..., c + 1:, c + 1:] -= lu[..., c + 1:, c, None] * lu[..., c, None, c + 1:]
    return lu, piv, info


def potrf_info(a: np.ndarray) -> np.ndarray:
    """potrf's info of each matrix of ``a`` (*, n, n), from its lower triangle: LAPACK's
    unblocked Cholesky, column by column, the first column whose pivot is not > 0 (0 if none)."""
    n = a.shape[-1]
    low = np.zeros(a.shape, np.result_type(a, np.float64))
    info = np.zeros(a.shape[:-2], np.int32)
    for j in range(n):
        row = low[..., j, :j]
        d = a[..., j, j].real - np.sum((row * row.conj()).real, axis=-1)
        info = np.where((info == 0) & ~(d > 0), j + 1, info).astype(np.int32)
        ljj = np.sqrt(np.where(d > 0, d, 1.0))
        low[..., j, j] = ljj
        rest = a[..., j + 1:, j] - np.einsum("...ip,...p->...i", low[..., j + 1:, :j], row.conj())
        low[..., j + 1:, j] = rest / ljj[..., None]
    return info


def potf2(m: np.ndarray) -> np.ndarray:
    """LAPACK's unblocked lower Cholesky (potf2) of one matrix, stopped at the first pivot
    that is not positive: that pivot's value on the diagonal, A's values in the columns not
    reached, lower triangle only (what torch returns with check_errors=False)."""
    a = np.array(m, copy=True)
    for j in range(a.shape[-1]):
        ajj = (a[j, j] - a[j, :j] @ a[j, :j].conj()).real   # complex: the real diagonal
        if not ajj > 0:
            a[j, j] = ajj
            break
        a[j, j] = np.sqrt(ajj)
        a[j + 1:, j] = (a[j + 1:, j] - a[j + 1:, :j] @ a[j, :j].conj()) / a[j, j]
    return np.tril(a)


def _shape(a, *, method):
    if len(a) < 2 or a[-1] != a[-2]:
        raise ShapeError(f"factor_info: expected batches of square matrices, got shape {tuple(a)}")
    return tuple(a[:-2])


def _np_factor_info(a, *, method):
    if a.size == 0:
        return np.zeros(a.shape[:-2], np.int32)
    return getrf(a)[2] if method == "lu" else potrf_info(a)


register(OpDef(
    name="factor_info", kind=OTHER, shape=_shape, dtype=lambda d, **_: dtypes.int32,
    numpy=_np_factor_info, kernel="decomp", dependence="matrix", batch=batching.leading,
    doc="LAPACK's info of A's LU (getrf) or Cholesky (potrf, lower triangle) factorization"))
