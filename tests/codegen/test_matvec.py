"""Matrix-vector products call GEMV, not GEMM with one column (``codegen.c.matmul._gemv``):
every shape class -- a matrix times a vector, a vector times a matrix, either operand stored
transposed, a strided vector, a batch -- against NumPy, float32 and float64, and the C that
says which BLAS routine runs."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg

R = np.random.default_rng(5)

# (name, function, operand shapes): every product is large enough for BLAS (>= 8192 flops)
CASES = [
    ("matrix @ vector", lambda V, x: V @ x, [(300, 64), (64,)]),
    ("transposed matrix @ vector", lambda V, r: V.T @ r, [(300, 64), (300,)]),
    ("vector @ matrix", lambda r, V: r @ V, [(300,), (300, 64)]),
    ("vector @ transposed matrix", lambda x, V: x @ V.T, [(64,), (300, 64)]),
    ("matrix @ column", lambda V, x: V @ x[:, None], [(300, 64), (64,)]),
    ("row @ matrix", lambda r, V: r[None, :] @ V, [(300,), (300, 64)]),
    ("strided vector", lambda V, x: V @ x[::2], [(300, 64), (128,)]),
    ("batched", lambda V, x: V @ x[..., None], [(3, 300, 64), (3, 64)]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, fn, shapes", CASES, ids=[c[0] for c in CASES])
def test_matrix_vector_products_are_gemv_and_numpys(name, fn, shapes, dtype):
    args = [R.standard_normal(s).astype(dtype) for s in shapes]
    f = sg.compile(fn)
    got = np.asarray(f(*args))
    want = fn(*args)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=2e-5 if dtype is np.float32 else 1e-12,
                               atol=1e-4 if dtype is np.float32 else 1e-11)
    letter = "s" if dtype is np.float32 else "d"
    assert f"scipy_cblas_{letter}gemv(SG_ROW_MAJOR" in f.c_source      # (a call, not the
    assert f"scipy_cblas_{letter}gemm(SG_ROW_MAJOR" not in f.c_source  # declaration)


def test_the_gradient_of_a_least_squares_loss_uses_gemv():
    """llsq's shape: V (n, m) times x, then its transpose times the residual."""
    V, x, y = R.standard_normal((400, 32)), R.standard_normal(32), R.standard_normal(400)
    g = sg.grad(lambda x: ((V @ x - y) ** 2).sum())
    got = np.asarray(g(x))
    np.testing.assert_allclose(got, 2 * V.T @ (V @ x - y), rtol=1e-12, atol=1e-10)
    assert g.c_source.count("scipy_cblas_dgemv(SG_ROW_MAJOR") == 2


def test_a_broadcast_vector_is_read_from_a_copy():
    """An expanded vector (stride 0, which BLAS does not take) is copied first by the lowering
    (``Capabilities.gemm_operand``); the product is then GEMV as any other."""
    V, s = R.standard_normal((300, 64)), R.standard_normal(1)
    f = sg.compile(lambda V, s: V @ s.expand(64)[:, None])
    np.testing.assert_allclose(np.asarray(f(V, s)), V @ np.repeat(s, 64)[:, None], rtol=1e-12)
    assert "scipy_cblas_dgemv(SG_ROW_MAJOR" in f.c_source
