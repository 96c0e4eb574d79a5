"""Matrix decompositions and solvers: the primitives torch.linalg is built from.

Layer: ops. Input: nothing. Output: registered ``OpDef``s of kind OTHER over batches of
matrices (*batch, rows, cols) whose operands share the batch shape (the front end broadcasts,
as it does for ``matmul``):

- ``solve(A, B, check)``: X = A^-1 B by LU with partial pivoting. ``check`` names the torch
  function whose error a singular A raises (``"linalg.inv"``, ``"torch.linalg.solve"``); with
  ``check=""`` a singular batch element's X is NaN instead (the solves of VJP rules).
- ``slogdet(A)``: (*batch, 2): the sign of det(A), then log|det(A)| (0 and -inf if singular).
- ``det(A)``: (*batch): det(A), the signed product of the LU pivots (exact where they are).
- ``cholesky(A, check)``: the lower factor L of A = L L^H, reading A's lower triangle (one not
  positive-definite, unchecked: LAPACK potf2's partial factor).
- ``triangular_solve(A, B, upper, unitriangular)``: X = A^-1 B reading one triangle of A
  (and not its diagonal if ``unitriangular``); a zero on the diagonal gives inf/NaN.
- ``eigh(A, upper)``: (*batch, n + 1, n): row 0 holds the eigenvalues (ascending), rows 1..n
  the eigenvectors as columns, each signed (complex: multiplied by a phase) so that its
  largest-magnitude entry is real and positive (eager NumPy and compiled C then agree; torch
  gives LAPACK's signs and phases, which no convention reproduces); A's lower (or ``upper``)
  triangle is read.
- ``qr(A, complete)``: the Q of A = Q R (LAPACK's Householder signs); the front end computes
  R = triu(Q^T A), so R's gradient flows through ``matmul`` and this op's Q-only rule.

Every rule is built from these ops, ``matmul``, movement and elementwise ops, so it is
differentiable again. Masks (triangles, the identity) are built from ``cumsum`` of ones: a rule
gets a builder, never arrays. Each op's NumPy reference is the eager implementation; lowering
gives each one a C kernel (``codegen.c.decomp``).
"""

from __future__ import annotations

import numpy as np

from ..errors import LinAlgError
from . import batching
from .factor_info import getrf, potf2, potrf_info
from .registry import OTHER, OpDef, ShapeError, inexact_dtype, register

DECOMPOSITIONS = ("solve", "slogdet", "det", "cholesky", "triangular_solve", "eigh", "qr")


# ---------------------------------------------------------------- shapes, failures

def _matrices(name: str, *shapes, square: bool = True) -> None:
    for s in shapes:
        if len(s) < 2 or (square and s[-1] != s[-2]):
            raise ShapeError(f"{name}: expected batches of {'square ' if square else ''}"
                             f"matrices, got shape {tuple(s)}")
    if len({tuple(s[:-2]) for s in shapes}) > 1:
        raise ShapeError(f"{name}: operands of shapes {', '.join(str(tuple(s)) for s in shapes)}"
                         f" must share their batch dims (the front end broadcasts them)")


def _solve_shape(name: str):
    def shape(a, b, **_):
        _matrices(name, a)
        _matrices(name, a, b, square=False)
        if b[-2] != a[-1]:
            raise ShapeError(f"{name}: A {tuple(a)} and B {tuple(b)} do not fit A X = B")
        return tuple(b)
    return shape


def _square_shape(name: str):
    def shape(a, **_):
        _matrices(name, a)
        return tuple(a)
    return shape


def failure_message(check: str, batch: int | None = None, index: int | None = None) -> str:
    """torch's message for a failed ``check`` ("linalg.inv", "torch.linalg.solve",
    "linalg.cholesky"); ``batch``/``index`` (0-based batch element, 1-based diagonal element
    or minor order) when known, as in eager mode; compiled code knows neither."""
    where = "" if batch is None else f"(Batch element {batch}): "
    if "eigh" in check:
        what = ("The algorithm failed to converge because the input matrix is ill-conditioned "
                "or has too many repeated eigenvalues.")
    elif "cholesky" in check:
        order = "some order" if index is None else f"order {index}"
        what = (f"The factorization could not be completed because the input is not "
                f"positive-definite (the leading minor of {order} is not positive-definite).")
    elif "inv" in check:
        element = "A diagonal element" if index is None else f"The diagonal element {index}"
        what = (f"{element} is zero, the inversion could not be completed because the input "
                f"matrix is singular.")
    else:
        what = "The solver failed because the input matrix is singular."
    return f"{check}: {where}{what}"


def _batches(a: np.ndarray):
    """(flat batch number, batch index) of every matrix in ``a``."""
    return enumerate(np.ndindex(a.shape[:-2]))


def _raise(check: str, a: np.ndarray, k: int, index: int):
    raise LinAlgError(failure_message(check, k if a.ndim > 2 else None, index))


# ---------------------------------------------------------------- helpers for rules

def _t(b, x):
    perm = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
    return b.op("permute", x, perm=perm)


def _h(b, x):
    """The conjugate transpose (the transpose of a real ``x``)."""
    return b.op("conj", _t(b, x)) if x.dtype.is_complex else _t(b, x)


def _mm(b, x, y):
    return b.op("matmul", x, y)


def _index_grid(b, like, n: int, m: int):
    """Row numbers (n, 1) and column numbers (1, m), both counting from 1."""
    real = like.dtype.real_dtype
    rows = b.op("cumsum", b.full(like, 1.0, (n, 1), real), axis=0)
    cols = b.op("cumsum", b.full(like, 1.0, (1, m), real), axis=1)
    return rows, cols


def _keep(b, x, compare: str):
    """``x`` where row ``compare`` column holds ("ge": the lower triangle, "gt": strictly
    lower, "le", "lt": upper), zero elsewhere."""
    rows, cols = _index_grid(b, x, x.shape[-2], x.shape[-1])
    return b.op("where", b.op(compare, rows, cols), x, b.full(x, 0.0, ()))


def _eye_mask(b, like, n: int):
    rows, cols = _index_grid(b, like, n, n)
    return b.op("eq", rows, cols)


def _rows(b, x, start: int, stop: int):
    """``x[..., start:stop, :]``."""
    starts = (0,) * (x.ndim - 2) + (start, 0)
    stops = tuple(x.shape[:-2]) + (stop, x.shape[-1])
    return b.op("slice", x, starts=starts, stops=stops, steps=(1,) * x.ndim)


# ---------------------------------------------------------------- solve

def _with_nan(a: np.ndarray) -> np.ndarray:
    """Which matrices of ``a`` hold a NaN: LAPACK (torch's MKL) factors them into NaN without
    an error, where NumPy's OpenBLAS calls them singular; their results are NaN."""
    return np.isnan(a).any(axis=(-2, -1))


def _np_solve(a, b, *, check):
    nan = _with_nan(a)
    if nan.any():    # solved with an identity in their place, then NaN
        out = _np_solve(np.where(nan[..., None, None], np.eye(a.shape[-1]), a), b, check=check)
        return np.where(nan[..., None, None], _NAN[out.dtype.kind], out)
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        pass
    out = np.full(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:], np.nan,
                  dtype=np.result_type(a, b))
    for k, i in _batches(a):
        try:
            out[i] = np.linalg.solve(a[i], b[i])
        except np.linalg.LinAlgError:
            if check:
                _raise(check, a, k, int(getrf(a[i])[2]) or a.shape[-1])
    return out


def _solve_vjp(b, g, out, ins, *, check):
    gb = b.op("solve", _t(b, ins[0]), g, check="")
    return -_mm(b, gb, _t(b, out)), gb


register(OpDef(
    name="solve", kind=OTHER, shape=_solve_shape("solve"), dtype=inexact_dtype, numpy=_np_solve,
    kernel="decomp",
    dependence="matrix",
    batch=batching.leading,
    vjp=_solve_vjp, uses_out=True, torch_name="LinalgSolveExBackward0",
    doc="X = A^-1 B (LU with partial pivoting); a singular A raises `check`'s error"))


# ---------------------------------------------------------------- slogdet

def _slogdet_shape(a):
    _matrices("slogdet", a)
    return tuple(a[:-2]) + (2,)


_NAN = {"f": np.nan, "c": complex(np.nan, np.nan)}


def _np_slogdet(a):
    sign, logabs = np.linalg.slogdet(a)
    nan = _with_nan(a) | np.isnan(logabs)   # torch's sign of a NaN pivot: 0 (real), NaN
    sign = np.where(nan, _NAN["c"] if np.iscomplexobj(a) else 0.0, sign)
    return np.stack([sign, np.where(nan, np.nan, logabs)], axis=-1)


def _np_det(a):
    return np.where(_with_nan(a), _NAN[np.result_type(a).kind], np.linalg.det(a))


def _inverse_transposed(b, a, adjoint: bool = False):
    """A^-T (A^-H if ``adjoint``; NaN for a singular A)."""
    eye = b.op("cast", _eye_mask(b, a, a.shape[-1]), dtype=a.dtype)
    at = _h(b, a) if adjoint else _t(b, a)
    return b.op("solve", at, b.op("expand", eye, shape_to=a.shape), check="")


def _per_matrix(b, x):
    """(*batch) -> (*batch, 1, 1), to scale each matrix."""
    return b.op("reshape", x, shape_to=tuple(x.shape) + (1, 1))


def _last(b, x, i: int):
    """``x[..., i]``."""
    starts = (0,) * (x.ndim - 1) + (i,)
    stops = tuple(x.shape[:-1]) + (i + 1,)
    part = b.op("slice", x, starts=starts, stops=stops, steps=(1,) * x.ndim)
    return b.op("reshape", part, shape_to=tuple(x.shape[:-1]))


def _slogdet_vjp(b, g, out, ins):
    # d log|det A| = Re tr(A^-1 dA), d sign = sign i Im tr(A^-1 dA): the cotangent is
    # w A^-H with w = g_logabsdet + i Im(g_sign conj(sign)) (torch's convention; a real
    # sign has no gradient: w = g_logabsdet).
    a = ins[0]
    gl = _last(b, g, 1)
    if a.dtype.is_complex:
        along = b.op("imag", _last(b, g, 0) * b.op("conj", _last(b, out, 0)))
        gl = b.op("complex", b.op("real", gl), along)
    return (_inverse_transposed(b, a, adjoint=True) * _per_matrix(b, gl),)


register(OpDef(
    name="slogdet", kind=OTHER, shape=_slogdet_shape, dtype=inexact_dtype, numpy=_np_slogdet,
    kernel="decomp",
    dependence="matrix",
    batch=batching.leading,
    vjp=_slogdet_vjp, uses_out=True, holomorphic=False, torch_name="LinalgSlogdetBackward0",
    doc="(sign, log|det|) of square matrices, in the last dim"))


def _det_shape(a):
    _matrices("det", a)
    return tuple(a[:-2])


def cofactors(b, a):
    """The cofactor matrix of each matrix of ``a``: det(A) A^-T, the derivative of det, a
    polynomial in A defined at singular matrices too (rank n - 1: the rank-one adj(A)^T;
    lower rank: zeros). det(A^T) and A^-T come from one LU (of A^T, as in torch), so the
    tiny pivot of a nearly singular A cancels between them. Where a pivot is exactly zero
    (det == 0: no A^-1), it is the cofactor matrix of A + delta I, delta = n eps max|A| (n eps
    if A is zero), within O(delta) of A's. Built of ``det``, ``solve`` and masks, so it is
    differentiable again (but not accurate again at a singular A: the second derivative's
    terms cancel at the size 1/delta)."""
    n = a.shape[-1]
    at = _t(b, a)
    det = b.op("det", at)
    if n == 0:
        return _inverse_transposed(b, a) * _per_matrix(b, det)
    zero = b.op("eq", det, 0.0)
    scale = b.op("reshape", b.op("max", b.op("abs", a), axes=(a.ndim - 2, a.ndim - 1)),
                 shape_to=tuple(a.shape[:-2]))
    scale = b.op("where", b.op("eq", scale, 0.0), b.full(scale, 1.0, ()), scale)
    eps = float(np.finfo(np.dtype(a.dtype.np)).eps) * n
    delta = b.op("where", zero, scale * eps, b.full(scale, 0.0, ()))
    eye = b.op("cast", _eye_mask(b, a, n), dtype=a.dtype)
    shifted = at + eye * _per_matrix(b, delta)
    det = b.op("where", zero, b.op("det", shifted), det)
    inverse = b.op("solve", shifted, b.op("expand", eye, shape_to=a.shape), check="")
    return inverse * _per_matrix(b, det)


register(OpDef(
    name="det", kind=OTHER, shape=_det_shape, dtype=inexact_dtype, numpy=_np_det,
    kernel="decomp",
    dependence="matrix",
    batch=batching.leading,
    vjp=lambda b, g, out, ins: (cofactors(b, ins[0]) * _per_matrix(b, g),),
    torch_name="LinalgDetBackward0",
    doc="det(A) as the signed product of the LU pivots (0 if one is zero)"))


# ---------------------------------------------------------------- cholesky

def _np_cholesky(a, *, check):
    try:
        out = np.linalg.cholesky(a)
        if not np.isnan(out).any():
            return out
    except np.linalg.LinAlgError:
        pass
    out = np.full(a.shape, np.nan, dtype=a.dtype)
    for k, i in _batches(a):
        try:
            out[i] = np.linalg.cholesky(a[i])
            if np.isnan(out[i]).any():
                raise np.linalg.LinAlgError
        except np.linalg.LinAlgError:
            if check:
                _raise(check, a, k, int(potrf_info(a[i])) or a.shape[-1])
            out[i] = potf2(a[i])     # LAPACK's partial factor
    return out


def _cholesky_vjp(b, g, out, ins, *, check):
    # torch's rule (its convention for complex A): gA = L^-H Phi L^-1 with
    # Phi = (X + tril(X, -1)^H) / 2, X = tril(L^H gL): Hermitian, as A is.
    low = out
    x = _keep(b, _mm(b, _h(b, low), g), "ge")
    phi = (x + _h(b, _keep(b, x, "gt"))) * 0.5
    up = _h(b, low)
    y = b.op("triangular_solve", up, phi, upper=True, unitriangular=False)
    return (_h(b, b.op("triangular_solve", up, _h(b, y), upper=True, unitriangular=False)),)


register(OpDef(
    name="cholesky", kind=OTHER, shape=_square_shape("cholesky"), dtype=inexact_dtype,
    kernel="decomp",
    dependence="matrix",
    batch=batching.leading,
    numpy=_np_cholesky, vjp=_cholesky_vjp, saves=False, uses_out=True, holomorphic=False,
    torch_name="LinalgCholeskyExBackward0",
    doc="the lower Cholesky factor from A's lower triangle; not positive-definite: `check`'s "
        "error (if check is empty, LAPACK's partial factor, as potf2 leaves it)"))


# ---------------------------------------------------------------- triangular_solve

def _np_triangular_solve(a, b, *, upper, unitriangular):
    n = a.shape[-1]
    x = np.array(np.broadcast_to(b, np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) +
                                 b.shape[-2:]), dtype=np.result_type(a, b))
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        rest = slice(i + 1, n) if upper else slice(0, i)
        s = x[..., i, :] - np.einsum("...q,...qk->...k", a[..., i, rest], x[..., rest, :])
        x[..., i, :] = s if unitriangular else s / a[..., i, i, None]
    return x


def _triangular_solve_vjp(b, g, out, ins, *, upper, unitriangular):
    a = ins[0]
    gb = b.op("triangular_solve", _t(b, a), g, upper=not upper, unitriangular=unitriangular)
    ga = -_mm(b, gb, _t(b, out))
    keep = ("lt" if unitriangular else "le") if upper else ("gt" if unitriangular else "ge")
    return _keep(b, ga, keep), gb


register(OpDef(
    name="triangular_solve", kind=OTHER, shape=_solve_shape("triangular_solve"),
    kernel="decomp",
    dependence="matrix",
    batch=batching.leading,
    dtype=inexact_dtype,
    numpy=_np_triangular_solve, vjp=_triangular_solve_vjp, uses_out=True,
    torch_name="LinalgSolveTriangularBackward0",
    doc="X = A^-1 B reading A's lower (or upper) triangle, its diagonal taken as ones if "
        "unitriangular"))


# ---------------------------------------------------------------- eigh

def _eigh_shape(a, *, upper):
    _matrices("eigh", a)
    return tuple(a[:-2]) + (a[-1] + 1, a[-1])


def signed_columns(v: np.ndarray) -> np.ndarray:
    """The columns of ``v`` signed (complex ones: multiplied by a phase) so that each one's
    largest-magnitude entry (the first of equal ones) is real and positive."""
    if v.shape[-1] == 0 or v.shape[-2] == 0:
        return v
    at = np.argmax(np.abs(v), axis=-2)[..., None, :]
    big = np.take_along_axis(v, at, axis=-2)
    if not np.iscomplexobj(v):
        return np.where(big < 0, -v, v)
    size = np.abs(big)
    out = v * np.where(size > 0, big.conj() / np.where(size > 0, size, 1), 1)
    np.put_along_axis(out, at, np.where(size > 0, size, big), axis=-2)
    return out


def _np_eigh(a, *, upper):
    try:
        w, v = np.linalg.eigh(a, UPLO="U" if upper else "L")
    except np.linalg.LinAlgError:     # LAPACK did not converge (a NaN in A): torch raises
        raise LinAlgError(failure_message("linalg.eigh")) from None
    return np.concatenate([w[..., None, :].astype(v.dtype), signed_columns(v)], axis=-2)


def _check_phase(vhgv) -> None:
    """torch's error (eagerly) when a loss of complex eigenvectors depends on their phases:
    the diagonal of V^H gV is not real (within torch's 1e-2)."""
    values = getattr(vhgv, "concrete", None)
    if values is not None and not np.allclose(np.diagonal(values, 0, -2, -1).imag, 0.0,
                                              rtol=1e-2, atol=1e-2):
        raise RuntimeError("linalg_eigh_backward: The eigenvectors in the complex case are "
                           "specified up to multiplication by e^{i phi}. The specified loss "
                           "function depends on this quantity, so it is ill-defined.")


def _eigh_vjp(b, g, out, ins, *, upper):
    # torch's rule: gA = V (skew(V^H gV) / (l_j - l_i) + diag(g_l)) V^H, skew(X) =
    # (X - X^H) / 2 (torch's convention for complex A). On the diagonal and between repeated
    # eigenvalues (a zero gap) the quotient is taken as 0: eigenvalue gradients stay finite
    # at repeated eigenvalues, with no 0/0 in this rule or its own derivative. (torch gives
    # inf/NaN there when eigenvectors are differentiated, where the derivative does not
    # exist.) The mask reads the eigenvalues only, never ``g``: the rule is linear in ``g``,
    # which forward mode (its transpose) needs.
    n = out.shape[-1]
    lam, v = _rows(b, out, 0, 1), _rows(b, out, 1, n + 1)
    gl, gv = _rows(b, g, 0, 1), _rows(b, g, 1, n + 1)
    if out.dtype.is_complex:
        lam, gl = b.op("real", lam), b.op("cast", b.op("real", gl), dtype=out.dtype)
    vtgv = _mm(b, _h(b, v), gv)
    if out.dtype.is_complex:
        _check_phase(vtgv)
    skew = (vtgv - _h(b, vtgv)) * 0.5
    gap = lam - _t(b, lam)
    eye = _eye_mask(b, out, n)
    flat = b.op("logical_or", eye, b.op("eq", gap, 0.0))
    if out.dtype.is_complex:
        gap = b.op("cast", gap, dtype=out.dtype)
    inner = b.op("where", flat, b.full(skew, 0.0, ()),
                 skew / b.op("where", flat, b.full(gap, 1.0, ()), gap))
    inner = inner + b.op("where", eye, gl, b.full(gl, 0.0, ()))
    return (_mm(b, _mm(b, v, inner), _h(b, v)),)


register(OpDef(
    name="eigh", kind=OTHER, shape=_eigh_shape, dtype=inexact_dtype, numpy=_np_eigh,
    kernel="decomp",
    dependence="matrix",
    batch=batching.leading,
    vjp=_eigh_vjp, saves=False, uses_out=True, holomorphic=False,
    torch_name="LinalgEighBackward0",
    doc="eigenvalues (row 0, ascending) and eigenvectors (rows 1..n, as columns) of the "
        "symmetric matrix in A's lower (or upper) triangle"))


# ---------------------------------------------------------------- qr

def _qr_shape(a, *, complete):
    _matrices("qr", a, square=False)
    m, n = a[-2:]
    return tuple(a[:-1]) + (m if complete else min(m, n),)


def _np_qr(a, *, complete):
    return np.linalg.qr(a, mode="complete" if complete else "reduced")[0]


def _qr_vjp(b, g, out, ins, *, complete):
    # With A = Q R, R = Q^H A (the front end's), M = Q^H gQ and k = min(m, n): the first k
    # columns of A get [gQ - Q sym(M)] R_k^-H, sym(M) = triu(M, 1) + triu(M, 1)^H + Re diag(M)
    # (torch's convention for complex A: LAPACK's R has a real diagonal); Q does not depend
    # on the others.
    a = ins[0]
    m, n = a.shape[-2:]
    if complete and m > n:
        raise NotImplementedError("The QR decomposition is not differentiable when "
                                  "mode='complete' and nrows > ncols.")
    k = min(m, n)
    a1 = _t(b, _rows(b, _t(b, a), 0, k)) if n > k else a
    r1 = _mm(b, _h(b, out), a1)
    mq = _mm(b, _h(b, out), g)
    rows, cols = _index_grid(b, mq, k, k)
    sym = b.op("where", b.op("le", rows, cols), mq, _h(b, mq))
    if mq.dtype.is_complex:
        sym = b.op("where", b.op("eq", rows, cols), (mq + _h(b, mq)) * 0.5, sym)
    y = g - _mm(b, out, sym)
    ga = _h(b, b.op("triangular_solve", r1, _h(b, y), upper=True, unitriangular=False))
    if n > k:
        ga = b.op("cat", ga, b.full(a, 0.0, tuple(a.shape[:-1]) + (n - k,)), axis=a.ndim - 1)
    return (ga,)


register(OpDef(
    name="qr", kind=OTHER, shape=_qr_shape, dtype=inexact_dtype, numpy=_np_qr, vjp=_qr_vjp,
    holomorphic=False,
    kernel="decomp",
    dependence="matrix",
    batch=batching.leading,
    uses_out=True, torch_name="LinalgQrBackward0",
    doc="Q of the QR decomposition (m x min(m, n), or m x m if complete)"))
