"""Batched products of a short contraction as sums of products (passes/small_products.py):
their loop fuses with the loops around them; and two lowering pieces that lets it: a
reshape of a strided view stays a view where strides can express it (lower/loopir.py,
``View.reshaped``), and a 2-D product of a short contraction fuses into a reader that walks
its rows along several nested dims (lower/small_products.py, vmap's tangents and rows).

Values against NumPy's matmul (another summation order: to rounding), gradients against
central differences, the C checked for the products gone; ``View.reshaped`` against NumPy's
own no-copy reshape on random strided, permuted and broadcast arrays.
"""

import importlib

import numpy as np
import pytest

import symgrad as sg
from references import central_differences
from symgrad import dtypes
from symgrad.lower.loopir import Buffer, View

small_products = importlib.import_module("symgrad.passes.small_products")  # (not the function)
RNG = np.random.default_rng(29)


def _skin(T, p):
    """A 3 x 4 transform per tangent and vertex, times the vertex's homogeneous position."""
    return (T @ p[..., :, None])[..., 0]


@pytest.mark.parametrize("shape", [(7, 2000), (3, 5000)])
def test_a_large_batched_small_product_is_a_fused_sum_of_products(shape):
    T = RNG.normal(size=shape + (12,))
    p = RNG.normal(size=(shape[1], 4))
    f = sg.compile(lambda T, p: sg.sin(_skin(sg.cos(T).reshape(*shape, 3, 4), p)) * 2.0)
    want = np.sin(_skin(np.cos(T).reshape(*shape, 3, 4), p)) * 2.0
    np.testing.assert_allclose(f(T, p), want, rtol=1e-13, atol=1e-14)
    text = f.c_source
    assert ": matmul [" not in text and "sum over axes" in text
    assert "cos(" in text[text.index("sum over axes"):]     # cos computed in the sum's loop


def test_small_batches_stay_products():
    T, p = RNG.normal(size=(5, 30, 3, 4)), RNG.normal(size=(30, 4))
    f = sg.compile(_skin)
    np.testing.assert_allclose(f(T, p), _skin(T, p), rtol=1e-13)
    assert ": matmul [" in f.c_source and 5 * 30 * 3 < small_products.SMALL_MIN


def test_gradients_through_the_sum_of_products(monkeypatch):
    monkeypatch.setattr(small_products, "SMALL_MIN", 1)
    T, p = RNG.normal(size=(4, 6, 2, 3)), RNG.normal(size=(6, 3))
    w = RNG.normal(size=(4, 6, 2))
    loss = sg.grad(lambda T, p: (_skin(T, p) * sg.tensor(w)).sum(), argnums=(0, 1))
    got = loss(T, p)
    assert ": matmul [" not in loss.c_source
    fds = (central_differences(lambda t: (_skin(t.numpy(), p) * w).sum(), T),
           central_differences(lambda t: (_skin(T, t.numpy()) * w).sum(), p))
    for g, fd in zip(got, fds):
        np.testing.assert_allclose(g, fd, rtol=1e-7, atol=1e-8)   # (differences of sums)


def test_a_rotation_of_tangents_fuses_into_their_reader():
    """(tangents x rows, 3) @ (3, 3): K = 3, read by a loop over (tangents, rows, 3), both of
    its outer dims along the product's rows (nested): computed in that loop, no GEMM."""
    V, R, c = RNG.normal(size=(6, 500, 3)), RNG.normal(size=(3, 3)), RNG.normal(size=(500, 3))

    def f(V, R, c):
        return ((V.reshape(-1, 3) @ R).reshape(6, 500, 3) + c) * 3.0
    g = sg.compile(f)
    np.testing.assert_allclose(g(V, R, c), ((V.reshape(-1, 3) @ R).reshape(6, 500, 3) + c) * 3,
                               rtol=1e-13, atol=1e-12)      # (values ~10: their rounding)
    assert ": matmul [" not in g.c_source and "mm0_0 = " in g.c_source


def _strided_arrays():
    a = np.arange(6000.0).reshape(10, 20, 30)
    for _ in range(300):
        steps = RNG.integers(1, 3, size=3)
        stops = [int(RNG.integers(1, n // s + 1)) * s for n, s in zip((10, 20, 30), steps)]
        x = a[tuple(slice(0, e, s) for e, s in zip(stops, steps))].transpose(RNG.permutation(3))
        if RNG.random() < 0.3:
            x = np.broadcast_to(x[:, :1], (x.shape[0], 3) + x.shape[2:])
        yield a, x


def _factorizations(size: int):
    for _ in range(6):
        dims, rest = [], size
        while rest > 1:
            d = int(RNG.choice([d for d in range(2, rest + 1) if rest % d == 0]))
            dims += [d] + ([1] if RNG.random() < 0.3 else [])
            rest //= d
        yield tuple(dims) or (1,)


def test_a_reshape_is_a_view_exactly_where_numpy_needs_no_copy():
    buf = Buffer("temp", 0, dtypes.float64, 6000)
    views = copies = 0
    for a, x in _strided_arrays():
        v = View(buf, 0, x.shape, tuple(s // 8 for s in x.strides))
        for shape in _factorizations(x.size):
            r = v.reshaped(shape)
            try:
                y = x.view()
                y.shape = shape           # (NumPy's reshape without a copy, or an error)
            except AttributeError:
                y = None
            assert (r is None) == (y is None), (x.shape, x.strides, shape)
            if r is None:
                copies += 1
                continue
            views += 1
            got = [a.ravel()[r.offset + sum(i * s for i, s in zip(ix, r.strides))]
                   for ix in np.ndindex(shape)]
            np.testing.assert_array_equal(np.reshape(got, shape), x.reshape(shape))
    assert views > 150 and copies > 150
