"""A loop stores an operand it computes for a ``cat`` alone into the cat's window
(``lower.cat.place_operands``): no copy kernel for it, the same values as NumPy, with
operands read elsewhere, repeated, reshaped, nested cats, a cat that is an output, and the
gradient through it."""

from __future__ import annotations

import numpy as np

import symgrad as sg
from symgrad.lower.loopir import LoopKernel


def _copies(f, *args) -> int:
    """How many kernels of ``f``'s program a cat made (its copies of operands)."""
    program = sg.inspect(f, *args, print_=False).spec.compiled.program
    return sum(1 for k in program.kernels if isinstance(k, LoopKernel) and k.op == "cat")


def test_operands_computed_for_a_cat_are_stored_in_its_window():
    x = np.random.default_rng(0).normal(size=(5, 3))

    def rotation(x):
        a, b = x[:, 0], x[:, 1]
        cols = [sg.cos(a), -sg.sin(a), sg.sin(b) * 2, sg.cos(b) + a]
        return sg.stack(cols, 1).reshape(5, 2, 2) @ x[:, 1:].reshape(5, 2, 1)
    f = sg.compile(rotation)
    a, b = x[:, 0], x[:, 1]
    m = np.stack([np.cos(a), -np.sin(a), 2 * np.sin(b), np.cos(b) + a], 1).reshape(5, 2, 2)
    np.testing.assert_allclose(f(x), m @ x[:, 1:].reshape(5, 2, 1), rtol=1e-13)
    assert _copies(f, x) == 0


def test_operands_read_elsewhere_or_twice_are_copied():
    x = np.random.default_rng(1).normal(size=(4, 6))

    def f(x):
        s = sg.sin(x)
        e = sg.exp(x)
        inner = sg.cat([s, e * 2], 0)
        outer = sg.cat([inner, sg.tanh(x), sg.tanh(x) + 1, s], 0)
        twice = sg.cat([e + 1, e + 1], 1)
        return outer, twice, (outer * 3).sum()
    c = sg.compile(f)
    want = (np.concatenate([np.sin(x), 2 * np.exp(x), np.tanh(x), np.tanh(x) + 1,
                            np.sin(x)], 0), np.concatenate([np.exp(x) + 1] * 2, 1))
    got = c(x)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-13)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-13)
    np.testing.assert_allclose(got[2], 3 * want[0].sum(), rtol=1e-12)
    # copied: s into both cats, tanh(x) (read by + 1 too), e + 1 twice; in place: e * 2
    # (into inner, itself in outer's window), tanh(x) + 1
    assert _copies(c, x) == 5
    g = sg.grad(lambda x: (sg.cat([sg.sin(x), x * x], 1) ** 2).sum())(x)
    np.testing.assert_allclose(g, 2 * np.sin(x) * np.cos(x) + 4 * x ** 3, rtol=1e-12)


def test_a_shift_with_a_boundary_value_is_a_view():
    """``cat([c, y[:-1]])`` with c a constant of one value is a view of y with c outside its
    window (``lower.cat.shift_fill``): no cat kernel; first or last, along any axis, a fill
    of -0.0 keeping its sign, the gradient through it; against NumPy."""
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=50), rng.normal(size=50)
    m = rng.normal(size=(4, 6))

    def f(x, y, m):
        first = x * sg.cat([sg.ones(1, dtype=x.dtype), y[:-1]])
        last = sg.cat([y[2:], sg.full((2,), 2.5, dtype=y.dtype)]) - x
        cols = sg.cat([m[:, 1:], sg.full((4, 1), -0.0, dtype=m.dtype)], 1) * m
        return first, last, cols
    c = sg.compile(f)
    got = c(x, y, m)
    want = (x * np.concatenate([[1.0], y[:-1]]), np.concatenate([y[2:], [2.5, 2.5]]) - x,
            np.concatenate([m[:, 1:], np.full((4, 1), -0.0)], 1) * m)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
    assert _copies(c, x, y, m) == 0
    grad = sg.grad(lambda y: ((x * sg.cat([sg.ones(1, dtype=x.dtype), y[:-1]])) ** 2).sum())(y)
    np.testing.assert_allclose(grad, np.concatenate([2 * x[1:] ** 2 * y[:-1], [0.0]]),
                               rtol=1e-13)


def test_a_flat_cat_stores_any_reshape_of_its_operands_in_place():
    """A 1-D cat of flattened (n, k) results: each is dense in its window, stored there by
    the loop that computes it (no copy); read elsewhere too, it is copied."""
    x = np.random.default_rng(3).normal(size=(6, 4))

    def f(x):
        return sg.cat([(sg.sin(x) * 2).reshape(-1), (x * x + 1).reshape(2, 12).reshape(-1),
                       sg.exp(x[:, 0])], 0)
    c = sg.compile(f)
    want = np.concatenate([(np.sin(x) * 2).ravel(), (x * x + 1).ravel(), np.exp(x[:, 0])])
    np.testing.assert_allclose(c(x), want, rtol=1e-13)
    assert _copies(c, x) == 0

    def g(x):
        s = sg.sin(x) * 2
        return sg.cat([s.reshape(-1), x.reshape(-1)], 0), s
    c = sg.compile(g)
    got = c(x)
    np.testing.assert_allclose(got[0], np.concatenate([(np.sin(x) * 2).ravel(), x.ravel()]),
                               rtol=1e-13)
    assert _copies(c, x) == 2
