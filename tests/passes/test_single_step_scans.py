"""A scan of one step is its body, inlined (passes/control_flow.py ``_inline_single_steps``).

``fori_loop(0, s, ...)`` with ``s = 1`` (GradBench's ode at s = 1) and its backward were
loops of one step: carries copied in and out, a stacked array per stored value, nothing fused
across the loop's edge. Each case checks the values against the same computation in NumPy,
the gradients against central differences in float64, and that the C has no loop left (with
the pass turned off it has, so the count cannot pass without it).
"""

import numpy as np
import pytest

import symgrad as sg
from symgrad.passes import control_flow

RNG = np.random.default_rng(5)


def _scans(text: str) -> int:
    return text.count(": scan of ")


def _fd(f_np, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f_np(x + d) - f_np(x - d)) / (2 * eps)
    return g


def _rk4(x):
    """One RK4 step of y' = x * (1, y_0, .., y_{n-2}) from y = 0, as a one-step fori_loop."""
    def f(y):
        return x * sg.cat([sg.ones(1, dtype=x.dtype), y[:-1]])

    def step(i, y):
        k1 = f(y)
        k2 = f(y + 0.5 * k1)
        return y + (k1 + k2) * 0.5
    return sg.fori_loop(0, 1, step, sg.zeros_like(x))


def _rk4_np(x):
    def f(y):
        return x * np.concatenate([[1.0], y[:-1]])
    y = np.zeros_like(x)
    k1 = f(y)
    k2 = f(y + 0.5 * k1)
    return y + (k1 + k2) * 0.5


def _stacked(x, w):
    """A one-step scan with a carry, a sequence, an invariant and a stacked value, run
    forwards or backwards."""
    def body(c, xt):
        h = sg.tanh(c * w + xt)
        return h, h * xt
    carry, ys = sg.scan(body, x[0], x[1:], reverse=True)
    return (carry * carry).sum() + (ys * ys).sum()


def _stacked_np(x, w):
    h = np.tanh(x[0] * w + x[1])
    return (h * h).sum() + ((h * x[1]) ** 2).sum()


CASES = [
    ("fori_loop", lambda x: _rk4(x).sum() * 1.0, lambda x: _rk4_np(x).sum(), (7,)),
    ("last element", lambda x: _rk4(x)[-1], lambda x: _rk4_np(x)[-1], (6,)),
    ("reverse scan with ys", lambda x: _stacked(x, 0.7), lambda x: _stacked_np(x, 0.7), (2, 4)),
]


@pytest.mark.parametrize("name,f,f_np,shape", CASES, ids=[c[0] for c in CASES])
def test_one_step_scans_are_inlined(name, f, f_np, shape):
    x = RNG.normal(size=shape)
    value = sg.compile(f)
    assert value(x) == pytest.approx(f_np(x), rel=1e-14)
    grad = sg.grad(f)
    np.testing.assert_allclose(grad(x), _fd(f_np, x), rtol=1e-6, atol=1e-8)
    assert _scans(value.c_source) == 0
    assert _scans(grad.c_source) == 0


def test_nested_one_step_scans_and_a_longer_one():
    """An inner one-step scan in a longer loop's body is inlined there; the outer loop
    stays a loop."""
    def f(x):
        def outer(i, y):
            return sg.fori_loop(0, 1, lambda j, z: sg.sin(z) + x, y)
        return sg.fori_loop(0, 3, outer, x).sum()

    def f_np(x):
        y = x
        for _ in range(3):
            y = np.sin(y) + x
        return y.sum()
    x = RNG.normal(size=5)
    grad = sg.grad(f)
    np.testing.assert_allclose(grad(x), _fd(f_np, x), rtol=1e-6, atol=1e-8)
    assert sg.compile(f)(x) == pytest.approx(f_np(x), rel=1e-14)
    assert 1 <= _scans(grad.c_source) <= 2        # the forward loop and its backward


def test_without_the_pass_the_loops_stay(monkeypatch):
    monkeypatch.setenv("SYMGRAD_WARM_START", "0")    # (no record of the other pipeline)
    monkeypatch.setattr(control_flow, "_inline_single_steps", lambda graph: graph)
    grad = sg.grad(lambda x: _rk4(x)[-1])
    x = RNG.normal(size=6)
    np.testing.assert_allclose(grad(x), _fd(lambda x: _rk4_np(x)[-1], x), rtol=1e-6, atol=1e-8)
    assert _scans(grad.c_source) == 2
