"""Rolling (symgrad/frontend/control/rolling.py): a Python loop that the trace unrolls is made
one ``scan`` before reverse mode, when its steps are identical and their tape is the graph's
own primitive rules; otherwise the program stays unrolled. Either way the numbers are the
unrolled program's to the last bits (the loop sums a parameter's gradient in its own order, and
the C may sum a reduction of the result in another), checked against hand-derived adjoints and
central differences.
"""

import math
import sys
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg
import symgrad.frontend.control.rolling as rolling
BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
from compile_problems import H, rk4_loss  # noqa: E402
from references import (StraightThrough, by_hand, central_differences,  # noqa: E402
                        outputs_in_fresh_interpreters)


def ops_of(fn, *args) -> list:
    return [n.op for n in fn.trace(*args).graph.nodes()]


def unrolled(monkeypatch, make, *args):
    """``make()(*args)`` traced with rolling off, and its graph's ops: the reference the rolled
    program must match."""
    with monkeypatch.context() as m:
        m.setattr(rolling, "MIN_NODES", math.inf)
        fn = make()
        return fn(*args), ops_of(fn, *args)


def same_value(value, ref):
    """The rolled program's value against the unrolled one's: every element is computed by the
    same ops in the same order, but a sum over a result may be added in another order (the C
    vectorizes a reduction or not with what is fused into its loop): the last bits."""
    tol = 1e-5 if value.dtype == np.float32 else 1e-13
    np.testing.assert_allclose(value, ref, rtol=tol, atol=0)


def pendulum(steps):
    """An RK4 integrator of a damped pendulum on a 2-vector state, written as a Python loop
    (``make bench-compile``'s rk4_N)."""
    return rk4_loss(sg, steps)[0]


def pendulum_numpy(u0, p, steps):
    """Value and gradients (d/du0, d/dp) of ``pendulum``, by a hand-written adjoint."""
    def f(u):
        return np.array([u[1], -p[0] * math.sin(u[0]) - p[1] * u[1]])

    def f_vjp(u, w):   # (w^T df/du, w^T df/dp)
        return (np.array([-p[0] * math.cos(u[0]) * w[1], w[0] - p[1] * w[1]]),
                np.array([-math.sin(u[0]) * w[1], -u[1] * w[1]]))

    states, u = [], u0.copy()
    for _ in range(steps):
        k1 = f(u)
        u2 = u + H / 2 * k1
        k2 = f(u2)
        u3 = u + H / 2 * k2
        k3 = f(u3)
        u4 = u + H * k3
        k4 = f(u4)
        states.append((u, u2, u3, u4))
        u = u + H / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    value, gu, gp = float(u @ u), 2 * u, np.zeros(2)
    for u, u2, u3, u4 in reversed(states):
        w1, w2, w3, w4 = H / 6 * gu, H / 3 * gu, H / 3 * gu, H / 6 * gu
        a4, b4 = f_vjp(u4, w4)          # k4 = f(u + H k3)
        w3 = w3 + H * a4
        a3, b3 = f_vjp(u3, w3)          # k3 = f(u + H/2 k2)
        w2 = w2 + H / 2 * a3
        a2, b2 = f_vjp(u2, w2)          # k2 = f(u + H/2 k1)
        w1 = w1 + H / 2 * a2
        a1, b1 = f_vjp(u, w1)
        gu = gu + a1 + a2 + a3 + a4
        gp = gp + b1 + b2 + b3 + b4
    return value, gu, gp


U0, P = np.array([1.0, 0.5]), np.array([9.81, 0.3])


def test_an_unrolled_integrator_becomes_one_loop_with_the_same_numbers(monkeypatch):
    steps = 150
    vg = sg.value_and_grad(pendulum(steps), argnums=(0, 1))
    ops = ops_of(vg, U0, P)
    value, (gu, gp) = vg(U0, P)
    (ref_value, (ref_gu, ref_gp)), ref_ops = unrolled(
        monkeypatch, lambda: sg.value_and_grad(pendulum(steps), argnums=(0, 1)), U0, P)
    assert "scan" in ops and "scan" not in ref_ops
    assert len(ops) < len(ref_ops) / 10
    same_value(value, ref_value)
    np.testing.assert_allclose(gu, ref_gu, rtol=1e-13)
    np.testing.assert_allclose(gp, ref_gp, rtol=1e-13)
    want_value, want_gu, want_gp = pendulum_numpy(U0, P, steps)
    np.testing.assert_allclose(value, want_value, rtol=1e-12)
    np.testing.assert_allclose(gu, want_gu, rtol=1e-10)
    np.testing.assert_allclose(gp, want_gp, rtol=1e-10)


def test_gradients_of_the_rolled_loop_match_central_differences():
    loss = pendulum(120)
    g = sg.grad(loss, argnums=1)
    assert "scan" in ops_of(g, U0, P)
    fd = central_differences(lambda p: loss(sg.tensor(U0), p), P)
    np.testing.assert_allclose(g(U0, P), fd, rtol=1e-7)


def scalar_steps(p, steps, step):
    x = p[0]
    for _ in range(steps):
        x = step(x, p)
    return x * x


def test_scalar_steps_with_a_branch_on_the_sign_roll(monkeypatch):
    # where(x > 0, ...) puts a boolean node (no gradient) in every step
    def step(x, p):
        return sg.where(x > 0, x * p[1], x * p[2]) + H * sg.sin(x)

    def loss(p):
        return scalar_steps(p, 1500, step)
    p = np.array([0.7, 0.999, 1.001])
    g = sg.value_and_grad(loss)
    assert "scan" in ops_of(g, p)
    value, grad = g(p)
    # by hand: x' = s x + H sin x with s = p1 or p2 by the sign of x
    want_value, gp = by_hand(
        p, 1500, lambda k, x: x * p[1 if x > 0 else 2] + H * math.sin(x),
        lambda k, x: (p[1 if x > 0 else 2] + H * math.cos(x), {1 if x > 0 else 2: x}))
    np.testing.assert_allclose(value, want_value, rtol=1e-12)
    (ref_value, ref_grad), _ = unrolled(monkeypatch, lambda: sg.value_and_grad(loss), p)
    same_value(value, ref_value)
    np.testing.assert_allclose(grad, gp, rtol=1e-10)
    np.testing.assert_allclose(grad, ref_grad, rtol=1e-12)


def test_a_detached_value_in_each_step_passes_no_gradient(monkeypatch):
    def step(x, p):
        return x * p[1] + sg.sin(x.detach()) * H

    def loss(p):
        return scalar_steps(p, 1500, step)
    p = np.array([0.3, 0.9995])
    g = sg.grad(loss)
    assert "scan" in ops_of(g, p)
    # d x' / d x = p1 only: sin(x) is a constant to the gradient
    _, want = by_hand(p, 1500, lambda k, x: x * p[1] + math.sin(x) * H,
                      lambda k, x: (p[1], {1: x}))
    np.testing.assert_allclose(g(p), want, rtol=1e-10)
    ref, _ = unrolled(monkeypatch, lambda: sg.grad(loss), p)
    np.testing.assert_allclose(g(p), ref, rtol=1e-12)


def test_a_coefficient_that_changes_every_step_is_a_scanned_sequence(monkeypatch):
    # the coefficient depends on the step number: each step's constant is read from a
    # sequence of their exact values
    def loss(p):
        x = p[0]
        for k in range(1200):
            x = x + H * sg.sin(x * (1.0 + k * 1e-3)) * p[1]
        return x * x
    p = np.array([0.4, 0.8])
    g = sg.grad(loss)
    assert "scan" in ops_of(g, p)
    ref, _ = unrolled(monkeypatch, lambda: sg.grad(loss), p)
    np.testing.assert_allclose(g(p), ref, rtol=1e-12)

    def c(k):
        return 1.0 + k * 1e-3
    _, want = by_hand(p, 1200, lambda k, x: x + H * math.sin(x * c(k)) * p[1],
                      lambda k, x: (1 + H * math.cos(x * c(k)) * c(k) * p[1],
                                    {1: H * math.sin(x * c(k))}))
    np.testing.assert_allclose(g(p), want, rtol=1e-10)


def test_a_value_from_the_middle_of_the_loop_read_after_it_keeps_it_unrolled(monkeypatch):
    def loss(p):
        x, mid = p[0], None
        for k in range(1500):
            x = x * p[1] + H * sg.sin(x)
            if k == 700:
                mid = x
        return x * x + 3.0 * mid
    p = np.array([0.3, 0.9995])
    g = sg.value_and_grad(loss)
    value, grad = g(p)
    (ref_value, ref_grad), _ = unrolled(monkeypatch, lambda: sg.value_and_grad(loss), p)
    same_value(value, ref_value)
    np.testing.assert_allclose(grad, ref_grad, rtol=1e-12)
    fd = central_differences(lambda q: loss(q), p)
    np.testing.assert_allclose(grad, fd, rtol=1e-6)


def test_a_hook_in_the_loop_keeps_its_effect():
    def loss(p):
        x = p[0]
        for k in range(1500):
            x = x * p[1] + H * sg.sin(x)
            if k == 10:
                x.register_hook(lambda g: 2 * g)   # doubles what flows back through step 10
        return x * x
    p = np.array([0.3, 0.9995])
    g = sg.grad(loss)
    assert "scan" not in ops_of(g, p)
    _, want = by_hand(p, 1500, lambda k, x: x * p[1] + H * math.sin(x),
                      lambda k, x: (p[1] + H * math.cos(x), {1: x}), doubled=10)
    np.testing.assert_allclose(g(p), want, rtol=1e-10)


def test_a_custom_function_in_the_loop_keeps_its_own_backward():
    def loss(p):
        x = p[0]
        for _ in range(1500):
            x = x * p[1] + H * StraightThrough.apply(x)
        return x * x
    p = np.array([0.3, 0.9995])
    g = sg.grad(loss)
    assert "scan" not in ops_of(g, p)
    _, want = by_hand(p, 1500, lambda k, x: x * p[1] + H * math.sin(x),
                      lambda k, x: (p[1] + H, {1: x}))   # the custom rule: d sin = 1
    np.testing.assert_allclose(g(p), want, rtol=1e-10)


def test_second_derivatives_through_an_unrolled_loop(monkeypatch):
    def loss(p):
        return scalar_steps(p, 1500, lambda x, p: x * p[1] + H * sg.sin(x))
    p = np.array([0.3, 0.9995])

    def make():
        return sg.grad(lambda q: sg.grad(loss)(q)[1])
    second = make()(p)
    ref, _ = unrolled(monkeypatch, make, p)
    np.testing.assert_allclose(second, ref, rtol=1e-11)
    first = sg.grad(loss)
    fd = central_differences(lambda q: first(q)[1], p, eps=1e-5)
    np.testing.assert_allclose(second, fd, rtol=1e-5)


def test_per_example_gradients_of_an_unrolled_loop(monkeypatch):
    def loss(p, x0):
        x = x0
        for _ in range(600):
            x = x * p[0] + H * sg.tanh(x * p[1])
        return (x * x).sum()
    p = np.array([0.999, 1.3])
    xs = np.linspace(-1, 1, 5).reshape(5, 1)
    got = sg.vmap(sg.grad(loss), in_axes=(None, 0))(p, xs)
    for i in range(5):
        fd = central_differences(lambda q: loss(q, sg.tensor(xs[i])), p)
        np.testing.assert_allclose(got[i], fd, rtol=1e-6)


def test_the_rolled_program_is_the_same_bytes_each_time():
    texts = []
    for _ in range(2):   # (two functions, called from one line: the C names its caller)
        f = sg.value_and_grad(pendulum(100), argnums=(0, 1))
        f(U0, P)
        texts.append(f.last_specialization.compiled.source.text)
    assert "scan" in texts[0] and texts[0] == texts[1]


def test_two_chains_advanced_in_one_loop(monkeypatch):
    def loss(p):
        x, y = p[0], p[1]
        for _ in range(800):
            x, y = x + H * sg.cos(y) * p[2], y - H * sg.sin(x)
        return x * y
    p = np.array([0.2, 0.4, 1.1])
    g = sg.value_and_grad(loss)
    value, grad = g(p)
    (ref_value, ref_grad), _ = unrolled(monkeypatch, lambda: sg.value_and_grad(loss), p)
    same_value(value, ref_value)
    np.testing.assert_allclose(grad, ref_grad, rtol=1e-11)
    np.testing.assert_allclose(grad, central_differences(loss, p), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_an_in_place_update_in_each_step(monkeypatch, dtype):
    def loss(p):
        u = p * 1.0
        for _ in range(700):
            a = u[0] * p[2] + H * sg.sin(u[1])
            v = u.clone()
            v[0] = a
            v[1] = u[1] - H * a
            u = v
        return (u * u).sum()
    p = np.array([0.3, 0.2, 0.9995], dtype=dtype)
    g = sg.value_and_grad(loss)
    value, grad = g(p)
    (ref_value, ref_grad), _ = unrolled(monkeypatch, lambda: sg.value_and_grad(loss), p)
    same_value(value, ref_value)
    tol = 1e-11 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(grad, ref_grad, rtol=tol)


def test_the_rolled_program_is_the_same_bytes_in_fresh_interpreters():
    """Same program, same C, whatever the string-hash seed (the search for runs walks dicts
    and sets of nodes)."""
    code = ("import sys, numpy as np, symgrad as sg\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "from compile_problems import rk4_loss\n"
            "f = sg.value_and_grad(rk4_loss(sg, 60)[0], argnums=(0, 1))\n"
            "print(sg.inspect(f, np.array([1.0, 0.5]), np.array([9.81, 0.3]), "
            "print_=False).c_source)\n")
    texts = outputs_in_fresh_interpreters(code, str(BENCH))
    assert len(texts) == 1 and "scan" in texts.pop()


def test_a_recurrence_over_the_rows_of_a_sequence(monkeypatch):
    # xs[t] is a window that moves one row per step: the loop scans the rows
    rng = np.random.default_rng(0)
    steps, width = 200, 4
    w = rng.normal(size=(width, width)) * 0.4
    u = rng.normal(size=(width, 2))
    xs = rng.normal(size=(steps, 2))

    def loss(w, u, xs):
        h = sg.zeros(width, dtype=sg.float64)
        for t in range(steps):
            h = sg.tanh(w @ h + u @ xs[t])
        return (h * h).sum()

    def make():
        return sg.value_and_grad(loss, argnums=(0, 1, 2))
    g = make()
    assert "scan" in ops_of(g, w, u, xs)
    value, grads = g(w, u, xs)
    (ref_value, ref_grads), ref_ops = unrolled(monkeypatch, make, w, u, xs)
    assert "scan" not in ref_ops
    same_value(value, ref_value)
    for a, b in zip(grads, ref_grads):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)
    # by hand: h' = tanh(w h + u x_t), backwards over the stored states
    hs, h = [], np.zeros(width)
    for t in range(steps):
        hs.append(h)
        h = np.tanh(w @ h + u @ xs[t])
    np.testing.assert_allclose(value, h @ h, rtol=1e-12)
    gh, gw, gu, gx = 2 * h, np.zeros_like(w), np.zeros_like(u), np.zeros_like(xs)
    for t in reversed(range(steps)):
        a = np.tanh(w @ hs[t] + u @ xs[t])
        gz = gh * (1 - a * a)
        gw += np.outer(gz, hs[t])
        gu += np.outer(gz, xs[t])
        gx[t] = u.T @ gz
        gh = w.T @ gz
    for got, want in zip(grads, (gw, gu, gx)):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-13)


def test_windows_that_do_not_move_by_one_row_stay_unrolled():
    # two rows a step (xs[2t:2t + 2]): not a one-wide window; correct all the same
    xs = np.random.default_rng(1).normal(size=(600, 1))

    def loss(p, xs):
        x = p[0]
        for t in range(300):
            x = x * p[1] + H * sg.sin(xs[2 * t:2 * t + 2].sum() * x)
        return x * x
    p = np.array([0.3, 0.9995])
    g = sg.grad(loss)
    assert "scan" not in ops_of(g, p, xs)
    np.testing.assert_allclose(g(p, xs), central_differences(lambda q: loss(q, xs), p),
                               rtol=1e-6)


def test_a_linear_layer_in_a_time_loop(monkeypatch):
    # nn.functional.linear is a composite (torch's AddmmBackward0) whose rule is marked exact
    rng = np.random.default_rng(2)
    w, b, u = rng.normal(size=(5, 5)) * 0.3, rng.normal(size=5) * 0.1, rng.normal(size=(5, 2))
    xs = rng.normal(size=(150, 1, 2))
    F = sg.nn.functional

    def loss(w, b, xs):
        h = sg.zeros((1, 5), dtype=sg.float64)
        for t in range(150):
            h = sg.tanh(F.linear(h, w, b) + F.linear(xs[t], sg.tensor(u))) / (1.0 + h * h)
        return (h * h).sum()

    def make():
        return sg.value_and_grad(loss, argnums=(0, 1))
    g = make()
    assert "scan" in ops_of(g, w, b, xs)
    value, grads = g(w, b, xs)
    (ref_value, ref_grads), _ = unrolled(monkeypatch, make, w, b, xs)
    same_value(value, ref_value)
    for a, r in zip(grads, ref_grads):
        np.testing.assert_allclose(a, r, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(grads[1], central_differences(lambda q: loss(w, q, xs), b),
                               rtol=1e-6)


def test_a_composite_whose_body_reads_a_value_of_its_input_again():
    """``local_response_norm`` pads its squares and ``avg_pool2d`` cuts windows of them: the
    middle window is the unpadded squares themselves, one node with the reshape another
    function made. Taken for an input the pool detached, it lost a third of the gradient of
    every step of a rolled loop (gradients off by 12 and 273); it is differentiated as taped."""
    import symgrad.nn.functional as F

    def loss(x, p):
        h = x
        for _ in range(80):        # 1.7k forward nodes: a loop rolling would look at
            h = F.local_response_norm(h * p[0] + p[1], 3, alpha=0.5, beta=0.7)
        return (h * h).sum()

    x0 = np.random.default_rng(0).standard_normal((1, 3, 2))
    p0 = np.array([1.1, 0.1])
    _, (gx, gp) = sg.value_and_grad(loss, argnums=(0, 1))(x0, p0)
    np.testing.assert_allclose(
        gx, central_differences(lambda x: loss(sg.tensor(x), sg.tensor(p0)), x0),
        rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(
        gp, central_differences(lambda p: loss(sg.tensor(x0), sg.tensor(p)), p0),
        rtol=1e-6, atol=1e-8)


def test_a_loop_reading_one_value_with_and_without_its_gradient(monkeypatch):
    """``linear(h.detach(), h, b)`` in each step: one node read twice by an exact rule, once
    without a gradient. Rolled, the detached read carried a gradient too (x's off by 2x): the
    loop stays unrolled and matches the tape."""
    F = sg.nn.functional

    def f(x, b):
        h = x
        for _ in range(200):
            h = h + 0.1 * sg.tanh(F.linear(h.detach(), h, b))
        return (h * h).sum()

    x, b = np.array([[0.1, 0.2], [0.3, -0.4]]), np.array([0.5, -0.5])
    value, (gx, gb) = sg.value_and_grad(f, argnums=(0, 1))(x, b)
    (ref_value, (ref_gx, ref_gb)), _ = unrolled(
        monkeypatch, lambda: sg.value_and_grad(f, argnums=(0, 1)), x, b)
    same_value(value, ref_value)
    np.testing.assert_allclose(gx, ref_gx, rtol=1e-12)
    np.testing.assert_allclose(gb, ref_gb, rtol=1e-12)
