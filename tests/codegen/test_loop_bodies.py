"""Loop and branch bodies in the C (codegen/c/module.py ``INLINE_WEIGHT``, codegen/c/control.py
``LOCAL_CARRY``): a small body's function is inlined into its caller, and a loop whose bodies
are all inlined and whose carries are small keeps them in local arrays (registers, once gcc
has inlined the body) instead of the workspace.

Values against the same algorithm written in NumPy (the same operations in the same order:
equal to the last bit), gradients against central differences in float64; the C checked for
the form each case must take, so that a change of the limits shows here.
"""

import re

import numpy as np
import pytest

import symgrad as sg
from symgrad.codegen.c import control, module

INLINE = "static inline __attribute__((always_inline)) int"
TOL, ETA0 = 1e-6, 0.05


def _descent(f, g, x):
    """Gradient descent with a step that doubles after 10 accepted steps and halves on a
    rejected one (GradBench's solver), written with Python ``if``s in a while loop's body:
    four nested ``cond``s a step."""
    norm = sg.linalg.vector_norm

    def step(state):
        x, fx, gx, eta, i, _ = state
        if norm(gx) <= TOL:
            return x, fx, gx, eta, i, False
        if i == 10:
            return x, fx, gx, 2 * eta, 0, True
        xp = x - eta * gx
        if norm(x - xp) <= TOL:
            return x, fx, gx, eta, i, False
        fxp = f(xp)
        if fxp < fx:
            return xp, fxp, g(xp), eta, i + 1, True
        return x, fx, gx, eta / 2, 0, True
    state = (x, f(x), g(x), sg.tensor(ETA0, dtype=x.dtype), 0, True)
    return sg.while_loop(lambda s: s[5], step, state)[0]


def _descent_np(f, g, x):
    fx, gx, eta, i = f(x), g(x), ETA0, 0
    while True:
        if np.sqrt((gx * gx).sum()) <= TOL:
            return x
        if i == 10:
            eta, i = 2 * eta, 0
            continue
        xp = x - eta * gx
        d = x - xp
        if np.sqrt((d * d).sum()) <= TOL:
            return x
        fxp = f(xp)
        if fxp < fx:
            x, fx, gx, i = xp, fxp, g(xp), i + 1
        else:
            eta, i = eta / 2, 0


A = np.array([3.0, 0.5])


def _bowl(x, c):
    return (A * (x - c) ** 2).sum()


def test_a_descent_of_nested_ifs_is_inlined_with_its_carries_in_locals():
    c = np.array([0.7, -1.2])
    f = sg.compile(lambda x, c: _descent(lambda z: _bowl(z, c), sg.grad(lambda z: _bowl(z, c)),
                                         x))
    x0 = np.array([2.0, 2.0])
    got = f(x0, c)
    expected = _descent_np(lambda z: (A * (z - c) * (z - c)).sum(),
                           lambda z: A * (2.0 * (z - c)), x0)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    assert np.abs(got - c).max() < 1e-5
    text = f.c_source
    assert text.count(INLINE) >= 5          # the step and its branches
    assert re.search(r"double cur0\[2\], nxt0\[2\];", text)   # x, in a local array
    assert "*cur0 =" not in text


def test_the_descents_derivative_through_its_loop():
    """Reverse mode through the while loop whose body holds the nested ifs (a tape of small
    carries, local arrays), against central differences of the compiled value."""
    def final(x0, c):
        return _bowl(_descent(lambda z: _bowl(z, c), sg.grad(lambda z: _bowl(z, c)), x0),
                     np.zeros(2))
    value = sg.compile(final)
    grad = sg.compile(sg.grad(final, argnums=1))
    x0, c = np.array([2.0, 2.0]), np.array([0.7, -1.2])
    g = grad(x0, c)
    h = 1e-6
    fd = np.array([(value(x0, c + h * e) - value(x0, c - h * e)) / (2 * h) for e in np.eye(2)])
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("n", [4, 40])
def test_carries_past_the_local_limit_stay_in_the_workspace(n):
    """A loop of 3 carries of n elements: 12 in all are locals, 120 stay pointers into the
    workspace, swapped each step; the same values either way."""
    def run(x):
        def body(i, s):
            a, b, k = s
            return b, a * 0.5 + b * 0.25 + k, k + 1.0
        return sg.fori_loop(0, 25, body, (x, 2 * x, x * 0 + 1.0))
    f = sg.compile(run)
    x = np.linspace(-1.0, 1.0, n)
    a, b, k = x, 2 * x, x * 0 + 1.0
    for _ in range(25):
        a, b, k = b, a * 0.5 + b * 0.25 + k, k + 1.0
    for got, want in zip(f(x), (a, b, k)):
        np.testing.assert_array_equal(got, want)
    local = 3 * n <= control.LOCAL_CARRY
    assert bool(re.search(rf"double cur1\[{n}\], nxt1\[{n}\];", f.c_source)) == local
    assert ("double *sw = cur1;" in f.c_source) != local


def test_a_body_with_a_hot_loop_is_a_function_of_its_own():
    """A scan whose step works on 20,000 elements: its body is not inlined (a call per step
    costs nothing beside it), and its carries stay in the workspace."""
    def run(x):
        return sg.lax.scan(lambda c, _: (sg.sin(c) * 0.5 + c, c.sum()), x, None, length=4)
    f = sg.compile(run)
    x = np.linspace(0.0, 1.0, 20_000)
    c, ys = x, []
    for _ in range(4):
        ys.append(c.sum())
        c = np.sin(c) * 0.5 + c
    got_c, got_ys = f(x)
    np.testing.assert_allclose(got_c, c, rtol=1e-14)
    np.testing.assert_allclose(got_ys, ys, rtol=1e-12)
    assert INLINE not in f.c_source
    assert "double *sw = cur0;" in f.c_source


def test_the_inlining_bound_counts_the_bodies_a_body_inlines(monkeypatch):
    """With a bound below the descent's step and its branches, the innermost branches are
    inlined and the step is not (so its loop keeps its carries in the workspace)."""
    monkeypatch.setattr(module, "INLINE_WEIGHT", 60)
    c = np.array([0.7, -1.2])
    f = sg.compile(lambda x, c: _descent(lambda z: _bowl(z, c), sg.grad(lambda z: _bowl(z, c)),
                                         x))
    x0 = np.array([2.0, 2.0])
    expected = _descent_np(lambda z: (A * (z - c) * (z - c)).sum(),
                           lambda z: A * (2.0 * (z - c)), x0)
    np.testing.assert_allclose(f(x0, c), expected, rtol=1e-12, atol=1e-12)
    text = f.c_source
    assert 0 < text.count(INLINE) < text.count("the body of a loop or a branch")
    assert "double *sw = cur0;" in text


def test_an_empty_carry_beside_local_ones():
    """A carry of no elements (no local array: C has none of size 0) beside a local one, and
    the gradient of a loop whose only carry is empty (found by the fuzzer: the empty carry's
    workspace pointer was left undeclared)."""
    f = sg.compile(lambda a, b: sg.fori_loop(0, 3, lambda i, c: (c[0] * 2, c[1] + 1.0), (a, b)))
    empty, counted = f(np.zeros((2, 0)), np.ones(3))
    assert empty.shape == (2, 0)
    np.testing.assert_array_equal(counted, np.full(3, 4.0))
    assert re.search(r"double cur1\[3\], nxt1\[3\];", f.c_source)

    def loss(x, w):
        return (sg.fori_loop(0, 0, lambda i, c: c * 0.5 + sg.sin(c + x) * 0.25, x) * w).sum()
    value, (g,) = sg.value_and_grad(loss, argnums=(0,))(np.zeros((2, 0), np.float32),
                                                         np.zeros((2, 0), np.float32))
    assert value == 0.0 and g.shape == (2, 0) and g.dtype == np.float32


@pytest.mark.parametrize("steps", [0, 1, 2, 7])
def test_the_first_step_reads_the_initial_carries_where_they_are(steps):
    """Carries in the workspace start at their init operands (an argument, a constant, a
    value computed before the loop) with no copy; the init is only read, whatever the number
    of steps (none: the result is the init), and the buffers then alternate."""
    n = 1000

    def run(x, w):
        def body(i, s):
            a, b, c = s
            return a * 0.5 + b, b - 0.25 * a, c * 1.5 + a
        return sg.fori_loop(0, steps, body, (x, sg.zeros_like(x), w * 2.0))
    f = sg.compile(run)
    x, w = np.linspace(-1.0, 1.0, n), np.cos(np.arange(n) * 0.1)
    x0, w0 = x.copy(), w.copy()
    a, b, c = x, np.zeros(n), w * 2.0
    for _ in range(steps):
        a, b, c = a * 0.5 + b, b - 0.25 * a, c * 1.5 + a
    for _ in range(2):          # (a second call: the constants and arguments untouched)
        for got, want in zip(f(x, w), (a, b, c)):
            np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(w, w0)
    if steps == 7:        # (fewer steps are unrolled)
        assert "double *cur0 = (double *)(in0)" in f.c_source
        assert not re.search(r"cur\d\[e\] = ", f.c_source)       # no copy starts the loop


def test_a_final_carry_nothing_reads_is_not_copied_out():
    """A gradient through a scan reads its forward loop's stacked values, not its final
    carry: that carry's copy out of the loop is left out; the gradient is right."""
    n = 300
    w = np.sin(np.arange(n) * 0.3)

    def loss(x):
        def body(c, _):
            return sg.sin(c) * 0.5 + c * 0.75, c
        _, ys = sg.lax.scan(body, x, None, length=5)
        return (ys * sg.tensor(w)).sum()
    g = sg.grad(loss)
    x = np.linspace(0.1, 1.0, n)
    got = g(x)
    copies_out = re.findall(r"\(\w+\)\[e\] = cur\d\[e\];", g.c_source)
    want = np.zeros(n)
    eps = 1e-6
    for i in range(n):
        e = np.zeros(n)
        e[i] = eps
        plus, minus = x + e, x - e
        vals = []
        for c in (plus, minus):
            total = 0.0
            for _ in range(5):
                total += (c * w).sum()
                c = np.sin(c) * 0.5 + c * 0.75
            vals.append(total)
        want[i] = (vals[0] - vals[1]) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
    # forward loop: no copy out; the reverse loop: its gradient's carry only
    assert len(copies_out) == 1, copies_out
