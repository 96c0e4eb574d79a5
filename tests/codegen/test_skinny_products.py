"""Tall products of a few columns printed as loops over blocks of rows (codegen/c/skinny.py)
instead of BLAS: every element summed over p in order from 0, so the oracle is NumPy summing
the same products in the same order (IEEE operations one by one: the same bits), and the
plain ``blas="none"`` build. Shapes around the selection's bounds (A's size, columns,
contraction length), a remainder of rows past the last block, batched and transposed operands,
float32 (left to BLAS), two threads against one, a gradient through such a product against its
NumPy formula, and a standalone export.
"""

import numpy as np
import pytest

import symgrad as sg
from symgrad.codegen.c import skinny

RNG = np.random.default_rng(73)
MARK = "rows at a time"


def _ordered(a, b):
    """a @ b summed over p from 0, one rounding per product and per sum (the C's order)."""
    acc = np.zeros(a.shape[:-1] + b.shape[-1:], dtype=np.result_type(a, b))
    for p in range(a.shape[-1]):
        acc = acc + a[..., :, p, None] * b[..., p, None, :]
    return acc


def _same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("m,kk,n", [(5120, 16, 12), (4001, 22, 12), (2051, 64, 5),
                                    (5003, 17, 4), (1100, 1024, 6), (1100, 100, 8),
                                    (4003, 22, 9)])
def test_a_skinny_product_is_the_ordered_sum(m, kk, n):
    a, b = RNG.normal(size=(m, kk)), RNG.normal(size=(kk, n))
    f = sg.compile(lambda a, b: a @ b)
    got = f(a, b)
    assert skinny.takes_shape(m, kk, n) and MARK in f.c_source and "dgemm" not in f.c_source
    _same_bits(got, _ordered(a, b))
    np.testing.assert_allclose(got, a @ b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("m,kk,n", [(2000, 22, 12), (6000, 22, 13), (6000, 8, 12),
                                    (6000, 22, 3), (6000, 22, 1), (800, 1025, 6)])
def test_other_shapes_keep_blas(m, kk, n):
    a, b = RNG.normal(size=(m, kk)), RNG.normal(size=(kk, n))
    f = sg.compile(lambda a, b: a @ b)
    got = f(a, b)
    assert not skinny.takes_shape(m, kk, n) and MARK not in f.c_source
    np.testing.assert_allclose(got, a @ b, rtol=1e-12, atol=1e-12)


def test_a_transposed_operand():
    a = RNG.normal(size=(30, 3001))             # read as a.T: column strides
    b = RNG.normal(size=(30, 7))
    f = sg.compile(lambda a, b: a.T @ b)
    got = f(a, b)
    assert MARK in f.c_source
    _same_bits(got, _ordered(np.ascontiguousarray(a.T), b))


def test_float32_keeps_blas():
    a = RNG.normal(size=(10000, 22)).astype(np.float32)
    b = RNG.normal(size=(22, 12)).astype(np.float32)
    f = sg.compile(lambda a, b: a @ b)
    got = f(a, b)
    assert MARK not in f.c_source and got.dtype == np.float32
    np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-4)


def test_a_batched_product():
    a, b = RNG.normal(size=(3, 4100, 20)), RNG.normal(size=(3, 20, 6))
    f = sg.compile(lambda a, b: a @ b)
    got = f(a, b)
    assert MARK in f.c_source
    _same_bits(got, _ordered(a, b))


def test_two_threads_give_the_bits_of_one(thread_count):
    a, b = RNG.normal(size=(40001, 24)), RNG.normal(size=(24, 10))
    sg.set_num_threads(1)
    f = sg.compile(lambda a, b: a @ b)
    one = f(a, b)
    assert MARK in f.c_source and "omp parallel for" in f.c_source
    sg.set_num_threads(2)
    _same_bits(f(a, b), one)
    _same_bits(one, _ordered(a, b))


def test_the_gradient_through_a_skinny_product():
    """loss = sum(w * tanh(A @ B)): dA = (w * (1 - y^2)) @ B.T, dB = A.T @ (w * (1 - y^2))."""
    a, b, w = RNG.normal(size=(4000, 30)), RNG.normal(size=(30, 6)) * 0.2, \
        RNG.normal(size=(4000, 6))
    g = sg.grad(lambda a, b: (sg.tensor(w) * sg.tanh(a @ b)).sum(), argnums=(0, 1))
    da, db = g(a, b)
    assert MARK in g.c_source
    y = np.tanh(a @ b)
    gy = w * (1 - y * y)
    np.testing.assert_allclose(da, gy @ b.T, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(db, a.T @ gy, rtol=1e-10, atol=1e-12)


def test_a_standalone_export_compiles_and_checks_itself(tmp_path):
    import subprocess
    a, b = RNG.normal(size=(4030, 22)), RNG.normal(size=(22, 12))
    f = sg.compile(lambda a, b: a @ b)
    f.export_c(tmp_path, a, b, name="skinny")
    text = (tmp_path / "skinny.c").read_text()
    assert MARK in text and "SG_SIMD(omp simd)" in text
    run = subprocess.run(["make", "-s", "check"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0 and "PASSED" in run.stdout, run.stdout + run.stderr
