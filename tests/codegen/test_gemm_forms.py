"""GEMM calls whose second operand is stored transposed (``codegen.c.matmul._untranspose``):
small products copy it untransposed first (OpenBLAS runs the column-major TN form of such a
call on its slow packed path), large ones and shapes OpenBLAS's small kernels take call BLAS
with it as stored. Either way the product equals NumPy's up to rounding."""

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(7)


def _product_c(shape_a, shape_b, dtype=np.float64):
    a = RNG.standard_normal(shape_a).astype(dtype)
    b = RNG.standard_normal(shape_b).astype(dtype)
    f = sg.compile(lambda x, y: x @ y.transpose(-1, -2))
    got = f(a, b)
    want = a.astype(np.float64) @ np.swapaxes(b, -1, -2).astype(np.float64)
    return got, want, f.c_source


@pytest.mark.parametrize("dtype,rtol", [(np.float64, 1e-12), (np.float32, 1e-4)])
@pytest.mark.parametrize("shape_a,shape_b", [
    ((1000, 20), (20, 20)),          # GradBench GMM's products at d = 20
    ((1000, 8), (8, 8)),
    ((500, 40), (50, 40)),
    ((4, 300, 16), (4, 24, 16)),     # batched: one copy a matrix
])
def test_small_products_copy_the_transposed_operand(shape_a, shape_b, dtype, rtol):
    got, want, c = _product_c(shape_a, shape_b, dtype)
    assert got.dtype == dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * np.abs(want).max())
    assert "sg_bt[" in c and "SG_NO_TRANS, SG_NO_TRANS" in c


@pytest.mark.parametrize("shape_a,shape_b", [
    ((200, 200), (200, 200)),        # above the small kernels' work: BLAS packs either way
    ((30, 64), (40, 64)),            # C of 1,200 elements, K >= 32: the TN kernel takes it
    ((1000, 20), (300, 20)),         # the copy would exceed its stack array
])
def test_other_products_read_the_operand_as_stored(shape_a, shape_b):
    got, want, c = _product_c(shape_a, shape_b)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())
    assert "sg_bt[" not in c and "SG_TRANS" in c


def test_gradient_through_the_copied_operand():
    """grad of sum(tanh(a @ b)) w.r.t. a is (1 - tanh^2) @ b^T: the backward product with a
    transposed operand, against the NumPy formula and central differences."""
    a, b = RNG.standard_normal((600, 16)), RNG.standard_normal((16, 24))
    g = sg.grad(lambda x, y: sg.tanh(x @ y).sum(), argnums=(0, 1))
    ga, gb = g(a, b)
    s = 1 - np.tanh(a @ b) ** 2
    np.testing.assert_allclose(ga, s @ b.T, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(gb, a.T @ s, rtol=1e-12, atol=1e-13)
    h, (i, j) = 1e-6, (123, 5)
    up, down = a.copy(), a.copy()
    up[i, j] += h
    down[i, j] -= h
    fd = (np.tanh(up @ b).sum() - np.tanh(down @ b).sum()) / (2 * h)
    assert abs(ga[i, j] - fd) < 1e-7
