"""torch's smaller names added to symgrad (gcd, shifts, take, put, addr, isin, windows, the
top-level in-place and functional spellings) inside ``symgrad.compile``: each against a NumPy
oracle (the eager values are compared with torch by the op sweep, tests/sweep)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import symgrad as sg

A = np.array([[0.5, -1.25, 2.0], [3.0, -0.75, 1.5]])


def _compiled(fn, *args):
    return np.asarray(sg.compile(fn)(*args))


def test_gcd_lcm_and_shifts_compile_to_numpys_integer_arithmetic():
    a = np.array([12, -18, 0, 7, 30000, -5], dtype=np.int16)   # (int16: Euclid's 26 steps)
    b = np.array([8, 12, 0, 0, 6, 3], dtype=np.int16)
    got = _compiled(lambda x, y: sg.gcd(x, y) * 100 + sg.lcm(x, y), sg.tensor(a), sg.tensor(b))
    assert np.array_equal(got, np.gcd(a, b) * 100 + np.lcm(a, b))
    a = np.array([12, -18, 0, 7, 2**40, -5], dtype=np.int64)
    counts = np.array([0, 1, 5, 63, 64, -1], dtype=np.int64)
    left = np.where((counts >= 0) & (counts < 64), np.left_shift(a, counts % 64), 0)
    right = np.where((counts >= 0) & (counts < 64), np.right_shift(a, counts % 64),
                     np.where(a < 0, -1, 0))
    got = _compiled(lambda x, c: (x << c) ^ (x >> c), sg.tensor(a), sg.tensor(counts))
    assert np.array_equal(got, left ^ right)


def test_take_put_and_addr_compile_with_their_gradients():
    idx = sg.tensor([0, -1, 4])
    got = _compiled(lambda x: sg.take(x, idx) * 2, sg.tensor(A))
    assert np.array_equal(got, A.ravel()[[0, 5, 4]] * 2)
    src = sg.tensor([1.0, 2.0, 3.0], dtype=sg.float64)
    got = _compiled(lambda x: sg.put(x, idx, src, accumulate=True), sg.tensor(A))
    want = A.ravel().copy()
    np.add.at(want, [0, 5, 4], [1.0, 2.0, 3.0])
    assert np.array_equal(got, want.reshape(2, 3))
    v1, v2 = np.array([1.5, -2.0]), np.array([0.25, 1.0, -3.0])

    def addr_grad(x):
        return sg.grad(lambda m: sg.addr(m, sg.tensor(v1), sg.tensor(v2), beta=0.5,
                                         alpha=2.0).square().sum())(x)
    out = 0.5 * A + (2.0 * v1)[:, None] * v2
    assert np.allclose(_compiled(addr_grad, sg.tensor(A)), 2 * out * 0.5)


def test_scatter_and_index_reduce_compile_with_their_gradients():
    idx = np.array([[0, 1, 0], [2, 2, 1]])
    src = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])

    def f(x):
        def loss(m):
            r = sg.scatter_reduce(m, 1, sg.tensor(idx), sg.tensor(src), "amax")
            return (r * sg.arange(6.0, dtype=sg.float64).reshape(2, 3)).sum()
        return sg.grad(loss)(x)
    x = np.array([[2.0, -1.0, 0.0], [0.0, 5.0, 0.5]])
    want = np.maximum(x, [[3.0, -2.0, 0.0], [0.0, 5.0, 4.0]])   # row maxima with the input
    grad = np.where(x == want, np.arange(6.0).reshape(2, 3), 0.0)
    assert np.array_equal(_compiled(f, sg.tensor(x)), grad)
    got = _compiled(lambda m: sg.index_reduce(m, 0, sg.tensor([1, 1]), sg.tensor(A), "mean"),
                    sg.tensor(A))
    assert np.allclose(got, [A[0], (A[1] + A[0] + A[1]) / 3])


def test_isin_combinations_and_windows_compile():
    x = sg.tensor(A)
    got = _compiled(lambda a: sg.isin(a, a[0]), x)
    assert np.array_equal(got, np.isin(A, A[0]))
    got = _compiled(lambda a: sg.combinations(a[1], 2).sum(1), x)
    assert np.allclose(got, [A[1, 0] + A[1, 1], A[1, 0] + A[1, 2], A[1, 1] + A[1, 2]])
    got = _compiled(lambda a: a + sg.hann_window(3, dtype=sg.float64), x)
    assert np.allclose(got, A + (0.5 - 0.5 * np.cos(2 * math.pi * np.arange(3) / 3)))


def test_top_level_spellings_compile():
    x = sg.tensor(A)
    got = _compiled(lambda a: sg.exp_(a * 1) + sg.layer_norm(a, (3,)) + sg.rsub(a, 2.0), x)
    mean, var = A.mean(1, keepdims=True), A.var(1, keepdims=True)
    assert np.allclose(got, np.exp(A) + (A - mean) / np.sqrt(var + 1e-5) + (2.0 - A))
    got = _compiled(lambda a: sg.embedding(a, sg.tensor([1, 0, 1])), x)
    assert np.array_equal(got, A[[1, 0, 1]])
    got = _compiled(lambda a: sg.kl_div(a, a.exp(), 2), x)   # aten's reduction 2: sum
    assert np.allclose(got, (np.exp(A) * (A - A)).sum())


def test_top_level_names_match_torch_where_it_is_installed():
    torch = pytest.importorskip("torch")
    for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window"):
        for length, periodic in ((8, True), (9, False)):
            mine = getattr(sg, name)(length, periodic, dtype=sg.float16).numpy()
            theirs = getattr(torch, name)(length, periodic, dtype=torch.float16).numpy()
            assert np.array_equal(mine, theirs), name
    assert torch.kl_div(torch.zeros(2), torch.ones(2)).shape == sg.kl_div(
        sg.zeros(2), sg.ones(2)).shape   # the binding's default reduction: none
