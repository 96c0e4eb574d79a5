"""A matrix product of a short contraction fused into its one reader (lower/small_products.py),
and reductions over outer dims run in tiles of their inner row (codegen/c/tiles.py).

Values against NumPy (a different summation order than the fused loop's: to rounding);
gradients against central differences in float64; which kernels the C has (the product gone,
its transposed operand copied, the tiles); and the tiles bit for bit against the untiled loop
(NaN and infinities included), the pass and the tiles turned off by monkeypatching.
"""

import re

import numpy as np
import pytest

import symgrad as sg
from symgrad.codegen.c import tiles
from symgrad.lower import small_products

RNG = np.random.default_rng(17)
TILED = re.compile(r"for \(int64_t b = (0|sg_lo);")     # (the tiles' loop, maybe threaded)


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setenv("SYMGRAD_WARM_START", "0")    # (no record of another pipeline's code)
    return monkeypatch


def _cost(P, C):
    dists = (P ** 2).sum(1)[None, :] + (C ** 2).sum(1)[:, None] - 2 * C @ P.T
    return dists.min(0).values.sum()


def _cost_np(P, C):
    dists = (P ** 2).sum(1)[None, :] + (C ** 2).sum(1)[:, None] - 2 * C @ P.T
    return dists.min(0).sum()


def _fused(text: str) -> bool:
    return "mm0_0 = " in text and ": matmul [" not in text


@pytest.mark.parametrize("k,n,d", [(100, 2000, 8), (37, 1001, 3), (5, 300, 2)])
def test_k_means_distances_fuse_into_the_min(k, n, d):
    P, C = RNG.random((n, d)), RNG.random((k, d))
    f = sg.compile(_cost)
    assert f(P, C) == pytest.approx(_cost_np(P, C), rel=1e-12)
    assert _fused(f.c_source)
    assert "transpose -> " in f.c_source           # P.T's rows, copied to unit stride
    # the min's row of points in tiles, once it and its values pass the L1 cache
    assert bool(TILED.search(f.c_source)) == (n * 8 * (d + 2) > tiles.L1_BYTES)


def test_the_gradient_through_a_fused_product():
    P, C = RNG.random((200, 3)), RNG.random((12, 3))
    g = sg.grad(_cost, argnums=1)
    got = g(P, C)
    want = np.zeros_like(C)
    for idx in np.ndindex(C.shape):
        e = np.zeros_like(C)
        e[idx] = 1e-6
        want[idx] = (_cost_np(P, C + e) - _cost_np(P, C - e)) / 2e-6
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name,f,f_np", [
    ("elementwise", lambda a, b, z: sg.relu(a @ b) * 2 + z[None, :],
     lambda a, b, z: np.maximum(a @ b, 0) * 2 + z[None, :]),
    ("transposed", lambda a, b, z: (a @ b).T * z[:, None],
     lambda a, b, z: (a @ b).T * z[:, None]),
    ("row sums", lambda a, b, z: sg.exp(a @ b).sum(1), lambda a, b, z: np.exp(a @ b).sum(1)),
    ("column max", lambda a, b, z: (a @ b + z[None, :]).amax(0),
     lambda a, b, z: (a @ b + z[None, :]).max(0)),
])
def test_readers_of_a_small_product(name, f, f_np, dtype):
    a, b = RNG.normal(size=(64, 4)).astype(dtype), RNG.normal(size=(4, 300)).astype(dtype)
    z = RNG.normal(size=300).astype(dtype)
    cf = sg.compile(f)
    got = cf(a, b, z)
    assert got.dtype == dtype
    tol = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(got, f_np(a, b, z), rtol=tol, atol=tol)
    assert _fused(cf.c_source)


@pytest.mark.parametrize("name,f", [
    ("two readers", lambda a, b: (a @ b).sum(0) + (a @ b).amax(1).sum()),
    ("a long contraction", lambda a, b: sg.relu(sg.cat([a, a, a[:, :1]], 1) @
                                                sg.cat([b, b, b[:1]], 0)).sum(0)),
    ("a broadcast reader", lambda a, b: ((a @ b)[:, None, :] * a[:, :3, None]).sum(1)),
])
def test_products_left_to_blas_or_their_loop(name, f):
    a, b = RNG.normal(size=(64, 4)), RNG.normal(size=(4, 300))
    eager = f(sg.tensor(a), sg.tensor(b)).numpy()
    cf = sg.compile(f)
    np.testing.assert_allclose(cf(a, b), eager, rtol=1e-12, atol=1e-12)
    assert not _fused(cf.c_source)


def test_a_padded_read_of_a_product_is_not_fused():
    """The gradient of ``x[1:] @ w`` pads ``g @ w.T`` with a zero row: its reader reads the
    product through a window, and the fill outside it is no product (fused, the loop read
    before the product's buffer and wrote what it found into row 0)."""
    f = sg.grad(lambda x, w: sg.sum((x[1:] @ w) ** 2))
    x, w = RNG.uniform(-1, 1, (6, 4)), RNG.uniform(-1, 1, (4, 3))
    got = f(x, w)
    want = np.zeros_like(x)
    want[1:] = 2 * (x[1:] @ w) @ w.T
    np.testing.assert_array_equal(got[0], 0.0)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    padded = f.c_source.split("unslice -> out0")[1].split("/* k")[0]
    assert "mm0_" not in padded, padded


def test_integer_products_are_not_fused():
    a, b = RNG.integers(-9, 9, (40, 3)), RNG.integers(-9, 9, (3, 500))
    cf = sg.compile(lambda a, b: (a @ b).amax(0))
    np.testing.assert_array_equal(cf(a, b), (a @ b).max(0))
    assert not _fused(cf.c_source)


def test_without_the_pass_the_product_stays(fresh):
    fresh.setattr(small_products, "SMALL_K", 0)
    P, C = RNG.random((500, 8)), RNG.random((40, 8))
    f = sg.compile(_cost)
    assert f(P, C) == pytest.approx(_cost_np(P, C), rel=1e-12)
    assert not _fused(f.c_source)


@pytest.mark.parametrize("op", ["amin", "amax"])     # (sums have their own blocks: sumloop)
def test_tiles_give_the_bits_of_the_plain_loop(fresh, op):
    """A reduction over the rows of a broadcast sum (the tiled shape), with NaN, +-inf and
    -0.0 among the values: tiled and untiled, the same bits (each element reduced in the
    same order)."""
    u, v = RNG.normal(size=(300, 1)), RNG.normal(size=(1, 5000))
    u[[3, 100], 0] = [np.nan, -np.inf]
    v[0, [7, 4000, 4001]] = [np.inf, np.nan, -0.0]

    def f(u, v):
        return getattr(sg.tanh(u + v) * v, op)(0)
    tiled = sg.compile(f)
    got = tiled(u, v)
    assert TILED.search(tiled.c_source)
    fresh.setattr(tiles, "L1_BYTES", 1 << 60)
    plain = sg.compile(f)
    want = plain(u, v)
    assert not TILED.search(plain.c_source)
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
    with np.errstate(invalid="ignore"):                   # (inf + -inf: NaN, as in the C)
        want = getattr(np, op)(np.tanh(u + v) * v, 0)
    np.testing.assert_allclose(got, want, rtol=1e-12)
