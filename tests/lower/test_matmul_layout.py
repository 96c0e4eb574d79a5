"""A matrix product read only through a permute is stored in that permute's layout
(lower/matmul.py): einsum's ``jab,ijb->ija`` computes (j, a, i) and is read as (i, j, a).
Values against NumPy's einsum (BLAS sizes, the loop below them, float32, batched, and a
gradient against central differences); the C checked for the transposed GEMM call."""

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(3)


@pytest.mark.parametrize("dtype, n, k, d", [(np.float64, 50, 6, 8), (np.float32, 40, 3, 16),
                                            (np.float64, 4, 2, 3)])
def test_the_permuted_product_matches_numpy(dtype, n, k, d):
    L = RNG.normal(size=(k, d, d)).astype(dtype)
    x = RNG.normal(size=(n, k, d)).astype(dtype)
    f = sg.compile(lambda L, x: sg.einsum("jab,ijb->ija", L, x) * 2.0 + 1.0)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(f(L, x), np.einsum("jab,ijb->ija", L, x) * 2 + 1, rtol=tol,
                               atol=tol)


def test_blas_writes_the_transposed_product_in_place():
    L, x = RNG.normal(size=(6, 8, 8)), RNG.normal(size=(200, 6, 8))
    f = sg.compile(lambda L, x: (sg.einsum("jab,ijb->ija", L, x) ** 2).sum(2))
    np.testing.assert_allclose(f(L, x), (np.einsum("jab,ijb->ija", L, x) ** 2).sum(2),
                               rtol=1e-12)
    text = f.last_specialization.source.text
    # the batch's (i, a) block written row by row with the reader's leading dimension, 6 * 8
    # (the product x L^T, L copied untransposed first: codegen/c/matmul.py's _untranspose)
    assert "gemm(SG_ROW_MAJOR, SG_NO_TRANS, SG_NO_TRANS, 200, 8, 8" in text
    assert "sg_bt[p*8 + j] = sg_b[j*8 + p];" in text
    assert ", 48);" in text


def test_the_gradient_through_it():
    L, x = RNG.normal(size=(3, 4, 4)), RNG.normal(size=(5, 3, 4))
    g = sg.grad(lambda L, x: sg.tanh(sg.einsum("jab,ijb->ija", L, x)).sum())(L, x)
    fd = np.zeros_like(L)
    for idx in np.ndindex(L.shape):
        e = np.zeros_like(L)
        e[idx] = 1e-6
        fd[idx] = (np.tanh(np.einsum("jab,ijb->ija", L + e, x)).sum()
                   - np.tanh(np.einsum("jab,ijb->ija", L - e, x)).sum()) / 2e-6
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
