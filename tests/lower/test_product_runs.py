"""Products run block by block (lower/rows.py, "Products"): a large matrix product that is
cheap per element runs in a row loop with the loops that read it (and those that write its
operands), a GEMM per block, the product of a block in the workspace instead of all of it
in memory.

The size past which a product runs so is lowered here (the fixture ``small_products``) so
that small shapes, quick to check, take that path; and the fusion of contractions of at most
``lower.small_products.SMALL_K`` into their reader (which takes k-means' K = 8 first) is off,
so that these runs are what is tested. Values against NumPy, gradients against
hand-derived NumPy formulas and central differences; the C checked for the run.
"""

import re

import numpy as np
import pytest

import symgrad as sg
from symgrad.lower import rows
from symgrad.lower import small_products as fused_products

RNG = np.random.default_rng(29)


@pytest.fixture(autouse=True)
def unfused(monkeypatch):
    monkeypatch.setenv("SYMGRAD_WARM_START", "0")    # (no record of the other pipeline)
    monkeypatch.setattr(fused_products, "SMALL_K", 0)


@pytest.fixture
def small_products(monkeypatch):
    monkeypatch.setattr(rows, "PRODUCT_MIN", 1 << 14)
    monkeypatch.setattr(rows, "PRODUCT_BLOCK_BYTES", 1 << 14)


def _runs(text: str) -> list:
    """(rows, block, loops) of each product run in the C."""
    return [tuple(map(int, m)) for m in re.findall(
        r"rows \[(\d+)\] in blocks of (\d+): a product and (\d+) loops", text)]


def _cost(P, C):
    """k-means' cost (GradBench's spelling): the nearest centroid's squared distance."""
    d = (P ** 2).sum(1)[None, :] + (C ** 2).sum(1)[:, None] - 2 * C @ P.T
    return d.min(0).values.sum()


def _cost_np(P, C):
    return ((P[None, :, :] - C[:, None, :]) ** 2).sum(2).min(0).sum()


def test_a_product_reduced_over_its_rows_runs_by_its_columns(small_products):
    P, C = RNG.random((1003, 8)), RNG.random((37, 8))   # 1003 columns: a last, short block
    f = sg.compile(_cost)
    np.testing.assert_allclose(f(P, C), _cost_np(P, C), rtol=1e-12)
    (found,) = _runs(f.c_source)
    assert found[0] == 1003 and found[1] < 1003 and found[2] >= 1
    assert found[1] % 8 == 0


def test_the_gradient_through_a_product_run(small_products):
    P, C = RNG.random((600, 4)), RNG.random((30, 4))
    grad = sg.compile(sg.grad(_cost, argnums=1))
    G = grad(P, C)
    # each centroid pulls on the points it is nearest to: d/dC_j = sum over its points of
    # 2 (C_j - P_i)
    nearest = ((P[None] - C[:, None]) ** 2).sum(2).argmin(0)
    expected = np.zeros_like(C)
    for i, j in enumerate(nearest):
        expected[j] += 2 * (C[j] - P[i])
    np.testing.assert_allclose(G, expected, rtol=1e-10, atol=1e-12)
    assert _runs(grad.c_source)


def test_a_batched_product_runs_by_its_batch_with_its_operands_writer(small_products):
    """GMM's shape: centred points (n, k, d) written by a loop, a product per component,
    squares summed over d; the run goes along the components."""
    n, k, d = 300, 12, 6
    x, mu, L = RNG.normal(size=(n, d)), RNG.normal(size=(k, d)), RNG.normal(size=(k, d, d))

    def f(x, mu, L):
        xc = x[:, None, :] - mu[None]
        y = xc * 0.5 + sg.einsum("jab,ijb->ija", L, xc)
        return sg.logsumexp(-(y ** 2).sum(2), 1).sum()

    def f_np(x, mu, L):
        xc = x[:, None, :] - mu[None]
        y = xc * 0.5 + np.einsum("jab,ijb->ija", L, xc)
        s = -(y ** 2).sum(2)
        m = s.max(1, keepdims=True)
        return (np.log(np.exp(s - m).sum(1)) + m[:, 0]).sum()
    g = sg.compile(f)
    np.testing.assert_allclose(g(x, mu, L), f_np(x, mu, L), rtol=1e-12)
    assert any(rows_ == k for rows_, _, _ in _runs(g.c_source))
    grad = sg.compile(sg.grad(f, argnums=1))
    dmu = grad(x, mu, L)
    # the backward's product too: its sum over the points into (k, d) runs by components
    assert len([r for r in _runs(grad.c_source) if r[0] == k]) >= 2
    eps = 1e-6
    for j, a in [(0, 0), (5, 3), (11, 5)]:
        e = np.zeros_like(mu)
        e[j, a] = eps
        fd = (f_np(x, mu + e, L) - f_np(x, mu - e, L)) / (2 * eps)
        np.testing.assert_allclose(dmu[j, a], fd, rtol=1e-6, atol=1e-8)


def test_the_operands_writer_passes_a_scatter_to_join(small_products):
    """GMM's spelling: L built by index assignment (a scatter, lowered between the centred
    points' loop and the product); the centred points' loop moves past it into the run."""
    n, k, d = 200, 10, 5
    x, mu = RNG.normal(size=(n, d)), RNG.normal(size=(k, d))
    l = RNG.normal(size=(k, d * (d - 1) // 2))  # noqa: E741

    def f(x, mu, l):  # noqa: E741
        cols, rows_ = sg.triu_indices(d, d, 1)
        L = sg.zeros((k, d, d), dtype=l.dtype)
        L[:, rows_, cols] = l
        xc = x[:, None, :] - mu[None]
        return ((xc + sg.einsum("jab,ijb->ija", L, xc)) ** 2).sum(2).sum(0)

    def f_np(x, mu, l):  # noqa: E741
        cols, rows_ = np.triu_indices(d, 1)
        L = np.zeros((k, d, d))
        L[:, rows_, cols] = l
        xc = x[:, None, :] - mu[None]
        return ((xc + np.einsum("jab,ijb->ija", L, xc)) ** 2).sum(2).sum(0)
    g = sg.compile(f)
    np.testing.assert_allclose(g(x, mu, l), f_np(x, mu, l), rtol=1e-12)
    run = g.c_source.split("a product and")[1].split("\n    /* k")[0]
    assert re.search(r"/\* k\d+\.1: sub -> ", run)      # the centred points, per block
    assert "scatter" not in run


def test_a_product_run_gives_the_same_numbers_on_threads(small_products, monkeypatch,
                                                         thread_count):
    monkeypatch.setattr(rows, "PRODUCT_BLOCK_BYTES", 1 << 16)   # (blocks worth a BLAS call)
    P, C = RNG.random((2000, 8)), RNG.random((50, 8))
    f = sg.compile(_cost)
    sg.set_num_threads(1)
    one = f(P, C)
    sg.set_num_threads(2)
    two = f(P, C)
    np.testing.assert_array_equal(one, two)
    assert _runs(f.c_source)
    # the run's GEMMs on one thread, the count restored after it
    run = f.c_source.split("a product and")[1]
    assert run.index("sg_blas_threads(1);") < run.index("gemm") < \
        run.index("sg_blas_threads(nthreads);")


def test_a_run_takes_blocks_of_columns_where_a_block_of_rows_would_be_a_few(small_products):
    """40 rows of 2,000 columns: a block of 16 KB holds 1 row, too few for a GEMM, and 51
    columns: the run goes along the columns (the distances are an output, stored anyway)."""
    P, C = RNG.random((2000, 8)), RNG.random((40, 8))
    f = sg.compile(lambda P, C: (P ** 2).sum(1)[None, :] + (C ** 2).sum(1)[:, None]
                   - 2 * C @ P.T)
    np.testing.assert_allclose(f(P, C), ((P[None] - C[:, None]) ** 2).sum(2), rtol=1e-9,
                               atol=1e-12)
    (found,) = _runs(f.c_source)
    assert found[0] == 2000 and found[1] >= rows.GEMM_ROWS


def test_a_product_read_after_the_run_is_no_product_run(small_products):
    """The product is an output too: it is stored whole anyway, so it stays one GEMM."""
    A, B = RNG.random((200, 4)), RNG.random((4, 300))
    f = sg.compile(lambda A, B: ((A @ B), sg.exp(A @ B).sum(1)))
    prod, s = f(A, B)
    np.testing.assert_allclose(prod, A @ B, rtol=1e-13)
    np.testing.assert_allclose(s, np.exp(A @ B).sum(1), rtol=1e-12)
    assert not _runs(f.c_source)


def test_small_products_stay_one_gemm():
    """Below the size (the default one): no product run."""
    P, C = RNG.random((100, 8)), RNG.random((10, 8))
    f = sg.compile(_cost)
    np.testing.assert_allclose(f(P, C), _cost_np(P, C), rtol=1e-12)
    assert not _runs(f.c_source)


def test_deep_products_stay_one_gemm(small_products, monkeypatch):
    """Past the contraction length the GEMM's work dwarfs its stores: no product run."""
    monkeypatch.setattr(rows, "PRODUCT_K", 4)
    P, C = RNG.random((1000, 8)), RNG.random((30, 8))
    f = sg.compile(_cost)
    np.testing.assert_allclose(f(P, C), _cost_np(P, C), rtol=1e-12)
    assert not _runs(f.c_source)
    P4, C4 = P[:, :4].copy(), C[:, :4].copy()
    g = sg.compile(_cost)
    np.testing.assert_allclose(g(P4, C4), _cost_np(P4, C4), rtol=1e-12)
    assert _runs(g.c_source)
