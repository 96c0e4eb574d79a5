"""Products with a triangular operand multiply its triangle only (``ir.zeros`` finds the
operand's zeros, ``codegen.c.matmul._trmm`` copies the other operand into the output and
calls TRMM), and products of which one triangle is used compute that triangle only
(``ir.reads``, GEMMT): every side and layout against NumPy, float32 and float64, gradients
against NumPy's formulas, and the C that says which BLAS routine runs. Zeros that are not
exact in IEEE arithmetic (a product with a 0/1 mask: 0 * inf is NaN) keep the full GEMM."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad.codegen.c.matmul import TRIANGLE_MIN

R = np.random.default_rng(11)
D = 64
assert D >= TRIANGLE_MIN

# (name, function, its NumPy twin, operand shapes)
CASES = [
    ("lower @ matrix", lambda a, b: sg.tril(a) @ b, lambda a, b: np.tril(a) @ b,
     [(D, D), (D, 100)]),
    ("matrix @ lower", lambda a, b: a @ sg.tril(b), lambda a, b: a @ np.tril(b),
     [(100, D), (D, D)]),
    ("upper @ transposed matrix", lambda a, b: sg.triu(a) @ b.T,
     lambda a, b: np.triu(a) @ b.T, [(D, D), (100, D)]),
    ("matrix @ transposed lower", lambda a, b: a @ sg.tril(b).T,
     lambda a, b: a @ np.tril(b).T, [(100, D), (D, D)]),
    ("strictly lower, batched", lambda a, b: sg.tril(a, -1) @ b,
     lambda a, b: np.tril(a, -1) @ b, [(3, D, D), (3, D, 50)]),
    ("strictly upper of a slice", lambda a, b: sg.triu(a[1:], 1) @ b[:, ::2],
     lambda a, b: np.triu(a[1:], 1) @ b[:, ::2], [(D + 1, D), (D, 80)]),
]


def _calls(c_source: str, routine: str) -> int:
    return c_source.count(f"{routine}(SG_ROW_MAJOR")      # calls, not the declarations


def _gemms(c_source: str, letter: str = "d", prefix: str = "scipy_cblas_") -> int:
    """The GEMM calls besides each TRMM's own (taken when the other operand holds an inf or
    a NaN)."""
    return _calls(c_source, f"{prefix}{letter}gemm") - _calls(c_source, f"{prefix}{letter}trmm")


def _compiled_like_numpy(fn, twin, shapes, dtype, atol32: float = 1e-4):
    """``sg.compile(fn)``, called on random operands of ``shapes``, its result checked
    against NumPy's ``twin``; returns it and its BLAS routines' dtype letter."""
    args = [R.standard_normal(s).astype(dtype) for s in shapes]
    f = sg.compile(fn)
    got = np.asarray(f(*args))
    want = twin(*args)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=2e-5 if dtype is np.float32 else 1e-12,
                               atol=atol32 if dtype is np.float32 else 1e-11)
    return f, "s" if dtype is np.float32 else "d"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, fn, twin, shapes", CASES, ids=[c[0] for c in CASES])
def test_a_triangular_operand_is_multiplied_by_trmm(name, fn, twin, shapes, dtype):
    f, letter = _compiled_like_numpy(fn, twin, shapes, dtype)
    assert _calls(f.c_source, f"scipy_cblas_{letter}trmm") == 1
    assert _gemms(f.c_source, letter) == 0


def test_the_gradient_of_a_triangular_product():
    """loss = sum(W * (tril(A) @ B)): dA = tril(W B^T), dB = tril(A)^T W. dB's product (the
    transposed triangle times W) is a TRMM (the value itself is not needed); dA's is a GEMMT
    (its lower triangle is used)."""
    A, B, W = R.standard_normal((D, D)), R.standard_normal((D, 90)), R.standard_normal((D, 90))
    g = sg.grad(lambda A, B: (W * (sg.tril(A) @ B)).sum(), argnums=(0, 1))
    dA, dB = (np.asarray(x) for x in g(A, B))
    np.testing.assert_allclose(dA, np.tril(W @ B.T), rtol=1e-12, atol=1e-11)
    np.testing.assert_allclose(dB, np.tril(A).T @ W, rtol=1e-12, atol=1e-11)
    assert _calls(g.c_source, "scipy_cblas_dtrmm") == 1
    assert _calls(g.c_source, "scipy_cblas_dgemmt") == 1
    assert _gemms(g.c_source) == 0


def _factor(l, k: int, d: int):
    """GMM's Cholesky factors: strictly lower, filled by index assignment into zeros."""
    cols, rows = sg.triu_indices(d, d, 1)
    L = sg.zeros((k, d, d), dtype=l.dtype)
    L[:, rows, cols] = l
    return L


def test_factors_built_by_index_assignment_are_triangular():
    """GradBench's GMM spelling: ``L[:, rows, cols] = l`` into zeros, then the per-component
    products by einsum (a product stored transposed for its reader). Value and gradient
    against NumPy; each of the value's product and the gradient's product with L is a TRMM,
    and the gradient of L (whose lower triangle the index assignment's gradient gathers) is
    a GEMMT."""
    k, n, d = 3, 40, D
    l, X = R.standard_normal((k, d * (d - 1) // 2)), R.standard_normal((n, k, d))
    cols, rows = np.triu_indices(d, 1)
    L = np.zeros((k, d, d))
    L[:, rows, cols] = l
    Y = np.einsum("jab,ijb->ija", L, X)

    def loss(l, X):
        return (sg.einsum("jab,ijb->ija", _factor(l, k, d), X) ** 2).sum()
    f = sg.compile(loss)
    np.testing.assert_allclose(float(f(l, X)), (Y ** 2).sum(), rtol=1e-12)
    assert _calls(f.c_source, "scipy_cblas_dtrmm") == 1
    g = sg.grad(loss, argnums=(0, 1))
    dl, dX = (np.asarray(x) for x in g(l, X))
    dL = 2 * np.einsum("ija,ijb->jab", Y, X)
    np.testing.assert_allclose(dl, dL[:, rows, cols], rtol=1e-11, atol=1e-10)
    np.testing.assert_allclose(dX, 2 * np.einsum("jab,ija->ijb", L, Y), rtol=1e-11,
                               atol=1e-10)
    assert _calls(g.c_source, "scipy_cblas_dtrmm") == 2
    assert _calls(g.c_source, "scipy_cblas_dgemmt") == 1
    assert _gemms(g.c_source) == 0


@pytest.mark.parametrize("name, fn", [
    ("one element above the diagonal",
     lambda a, b: sg.where(sg.as_tensor(np.tril(np.ones((D, D), bool)) |
                                        (np.arange(D)[:, None] == 0) &
                                        (np.arange(D)[None] == 5)), a, 0.0) @ b),
    ("a triangle below TRIANGLE_MIN", lambda a, b: sg.tril(a[:16, :16]) @ b[:16]),
])
def test_other_operands_keep_gemm(name, fn):
    a, b = R.standard_normal((D, D)), R.standard_normal((D, 300))
    f = sg.compile(fn)
    f(a, b)
    assert _calls(f.c_source, "scipy_cblas_dtrmm") == 0
    assert _gemms(f.c_source) == 1


def test_a_masked_product_keeps_its_nans():
    """``a * mask`` is not zero where the mask is when ``a`` is infinite there (0 * inf is
    NaN): the product stays a GEMM and propagates the NaN as NumPy does; ``tril`` (a
    selection) replaces the infinity by an exact zero and is a TRMM."""
    mask = np.tril(np.ones((D, D)))
    a, b = R.standard_normal((D, D)), R.standard_normal((D, 100))
    a[0, 7] = np.inf
    masked = sg.compile(lambda a, b: (a * sg.as_tensor(mask)) @ b)
    got = np.asarray(masked(a, b))
    with np.errstate(invalid="ignore"):
        want = (a * mask) @ b
    assert np.isnan(want[0]).all()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-11, equal_nan=True)
    assert _calls(masked.c_source, "scipy_cblas_dtrmm") == 0
    selected = sg.compile(lambda a, b: sg.tril(a) @ b)
    np.testing.assert_allclose(np.asarray(selected(a, b)), np.tril(a) @ b, rtol=1e-12,
                               atol=1e-11)
    assert _calls(selected.c_source, "scipy_cblas_dtrmm") == 1


# (name, function, its NumPy twin, operand shapes): one triangle of the product is used
USED = [
    ("tril of a product", lambda a, b: sg.tril(a @ b), lambda a, b: np.tril(a @ b),
     [(D, 200), (200, D)]),
    ("strict triu of a product with a transposed operand", lambda a, b: sg.triu(a @ b.T, 1),
     lambda a, b: np.triu(a @ b.T, 1), [(D, 200), (D, 200)]),
    ("lower entries gathered, batched", lambda a, b: (a @ b)[:, 1 + np.arange(D - 1), 0],
     lambda a, b: (a @ b)[:, 1 + np.arange(D - 1), 0], [(2, D, 100), (2, 100, D)]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, fn, twin, shapes", USED, ids=[c[0] for c in USED])
def test_a_product_used_in_one_triangle_is_gemmt(name, fn, twin, shapes, dtype):
    f, letter = _compiled_like_numpy(fn, twin, shapes, dtype, atol32=2e-4)
    assert _calls(f.c_source, f"scipy_cblas_{letter}gemmt") == 1
    assert _gemms(f.c_source, letter) == 0


def test_a_product_also_read_whole_is_gemm():
    """The lower triangle is returned, and the whole product summed: every element is
    used."""
    a, b = R.standard_normal((D, 100)), R.standard_normal((100, D))
    f = sg.compile(lambda a, b: (sg.tril(a @ b), (a @ b).sum()))
    low, total = f(a, b)
    np.testing.assert_allclose(np.asarray(low), np.tril(a @ b), rtol=1e-12, atol=1e-11)
    np.testing.assert_allclose(float(total), (a @ b).sum(), rtol=1e-11)
    assert _calls(f.c_source, "scipy_cblas_dgemmt") == 0
    assert _calls(f.c_source, "scipy_cblas_dgemm") == 1


def test_exported_c_calls_standard_cblas_only(tmp_path):
    """GEMMT is OpenBLAS's extension: C exported for any CBLAS computes the whole product
    (TRMM is standard and stays)."""
    a, b = R.standard_normal((D, D)), R.standard_normal((D, 100))
    f = sg.compile(lambda a, b: (sg.tril(a) @ b, sg.tril(b.T @ b)))
    f(a, b)
    assert _calls(f.c_source, "scipy_cblas_dtrmm") == 1
    assert _calls(f.c_source, "scipy_cblas_dgemmt") == 1
    f.export_c(tmp_path, a, b, name="tri", blas="cblas")
    text = (tmp_path / "tri.c").read_text()
    assert _calls(text, "cblas_dtrmm") == 1
    assert _calls(text, "cblas_dgemmt") == 0 and _gemms(text, prefix="cblas_") == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, fn, twin, shapes", CASES[:4], ids=[c[0] for c in CASES[:4]])
def test_an_inf_or_nan_in_the_other_operand_gives_numpys_nans(name, fn, twin, shapes, dtype):
    """0 * inf is NaN in NumPy's full product: TRMM, which skips the zeros, would leave
    finite values there, so an inf or a NaN in the other operand makes it a GEMM."""
    args = [R.standard_normal(s).astype(dtype) for s in shapes]
    tri = 0 if "@ matrix" in name else 1          # (the triangular operand's position)
    other = args[1 - tri]
    other[10, 4], other[-1, -1] = np.inf, np.nan
    f = sg.compile(fn)
    got = np.asarray(f(*args))
    with np.errstate(invalid="ignore"):
        want = twin(*args)
    assert np.isnan(want).sum() > 2
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=2e-5 if dtype is np.float32 else 1e-12,
                               atol=1e-4 if dtype is np.float32 else 1e-11, equal_nan=True)
    assert _calls(f.c_source, f"scipy_cblas_{'s' if dtype is np.float32 else 'd'}trmm") == 1
    finite = [R.standard_normal(s).astype(dtype) for s in shapes]   # (the same module: TRMM)
    np.testing.assert_allclose(np.asarray(f(*finite)), twin(*finite),
                               rtol=2e-5 if dtype is np.float32 else 1e-12,
                               atol=1e-4 if dtype is np.float32 else 1e-11)
