"""``solve`` and ``eigh`` through LAPACK (codegen.c.decomp.calls_lapack) from their orders in
``LAPACK_MIN`` on: against NumPy with transposed, broadcast and batched operands, float64 and
float32; a singular matrix (checked: LinAlgError; unchecked: NaN) and NaN input as the loops
give them; the eigenvectors signed as below the threshold; the gradient through LAPACK's
eigh and solve against central differences; exported C keeps the loops."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad.codegen.c.decomp import LAPACK_MIN
from symgrad.frontend.core.apply import apply
from symgrad.ops.decomp import signed_columns

N_SOLVE, N_EIGH = LAPACK_MIN["solve"] + 4, LAPACK_MIN["eigh"] + 3
RNG = np.random.default_rng(11)


def _matrix(n: int, batch: tuple = ()) -> np.ndarray:
    return RNG.standard_normal(batch + (n, n)) + n ** 0.5 * np.eye(n)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_solve_through_lapack_matches_numpy(dtype):
    a = _matrix(N_SOLVE, (2,)).astype(dtype)
    b = RNG.standard_normal((N_SOLVE, 3)).astype(dtype)
    v = RNG.standard_normal(N_SOLVE).astype(dtype)

    def f(a, b, v):
        return (sg.linalg.solve(a.mT, b.expand(2, N_SOLVE, 3)), sg.linalg.solve(a[0], v),
                sg.linalg.solve(a, b[:, :1]))
    compiled = sg.compile(f)
    got = compiled(a, b, v)
    at = np.swapaxes(a, -1, -2).astype(np.float64)
    want = (np.linalg.solve(at, b), np.linalg.solve(a[0].astype(np.float64), v),
            np.linalg.solve(a.astype(np.float64), b[:, :1]))
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == np.float64 else dict(rtol=2e-3, atol=1e-4)
    for g, w in zip(got, want):
        assert g.dtype == dtype
        np.testing.assert_allclose(g, w, **tol)
    letter = "d" if dtype == np.float64 else "s"
    assert compiled.c_source.count(f"info = scipy_LAPACKE_{letter}gesv(") == 3


def test_solve_through_lapack_singular_and_nan():
    a = _matrix(N_SOLVE)
    singular = a.copy()
    singular[:, 3] = 0.0
    b = RNG.standard_normal(N_SOLVE)
    checked = sg.compile(lambda a, b: sg.linalg.solve(a, b))
    with pytest.raises(sg.linalg.LinAlgError):
        checked(singular, b)
    unchecked = sg.compile(lambda a, b: apply("solve", a, b[:, None]))
    assert np.isnan(unchecked(singular, b)).all()
    with_nan = a.copy()
    with_nan[5, 7] = np.nan
    assert np.isnan(checked(with_nan, b)).all()
    assert np.allclose(checked(a, b), np.linalg.solve(a, b), rtol=1e-10)   # after failures


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_eigh_through_lapack_matches_numpy_with_the_same_signs(dtype):
    a = _matrix(N_EIGH, (3,))
    s = (a @ np.swapaxes(a, -1, -2)).astype(dtype)
    compiled = sg.compile(lambda s: (sg.linalg.eigh(s), sg.linalg.eigh(s.mT, UPLO="U")))
    (w, v), (wu, vu) = compiled(s)
    tol = dict(rtol=1e-10, atol=1e-10) if dtype == np.float64 else dict(rtol=1e-4, atol=1e-4)
    for vals, vecs, uplo in ((w, v, "L"), (wu, vu, "U")):
        ref = np.swapaxes(s, -1, -2) if uplo == "U" else s
        want_w, want_v = np.linalg.eigh(ref.astype(np.float64), UPLO=uplo)
        np.testing.assert_allclose(vals, want_w, **tol)
        np.testing.assert_allclose(vecs, signed_columns(want_v), **tol)
    letter = "d" if dtype == np.float64 else "s"
    assert compiled.c_source.count(f"if (scipy_LAPACKE_{letter}syevd(") == 2
    bad = s.copy()
    bad[1, 2, 2] = np.inf
    with pytest.raises(sg.linalg.LinAlgError):
        compiled(bad)


def _central(fn, x: np.ndarray, entries, h: float = 1e-6) -> np.ndarray:
    """d fn / d x at the flat ``entries`` of x, by central differences."""
    out = []
    for i in entries:
        e = np.zeros(x.size)
        e[i] = h
        out.append((fn(x + e.reshape(x.shape)) - fn(x - e.reshape(x.shape))) / (2 * h))
    return np.array(out)


def test_gradients_through_lapack_match_central_differences():
    n = max(N_SOLVE, N_EIGH)
    a = _matrix(n)
    b = RNG.standard_normal(n)
    weights = sg.tensor(RNG.standard_normal(n))

    def loss(a):
        s = a + a.mT
        w, v = sg.linalg.eigh(s)
        return (w * weights).sum() + (v[:, 0] ** 2 * weights).sum() + \
            (sg.linalg.solve(a, b) * weights).sum()
    grad = sg.grad(loss)(a)
    assert "LAPACKE" in sg.inspect(sg.grad(loss), a, print_=False).c_source
    f = sg.compile(loss)
    cols = RNG.choice(n * n, 12, replace=False)
    fd = _central(lambda x: float(f(x)), a, cols)
    np.testing.assert_allclose(grad.ravel()[cols], fd, rtol=1e-5, atol=1e-6)


def test_exported_c_keeps_the_loops(tmp_path):
    a = _matrix(N_SOLVE)
    b = RNG.standard_normal(N_SOLVE)
    f = sg.compile(lambda a, b: (sg.linalg.solve(a, b), sg.linalg.eigh(a + a.mT)[0]))
    f.export_c(tmp_path / "out", a, b, blas="cblas")
    text = "".join(p.read_text() for p in (tmp_path / "out").glob("*.c"))
    assert "LAPACKE" not in text and "cyclic Jacobi sweeps" in text
