"""Gradient barriers in loop and branch bodies (ops.elementwise's stop_gradient and
no_derivative): a compiled loop or branch is differentiated through its body's graph, so what
only the tape knows must be a node. A ``detach`` in a body is a ``stop_gradient`` (the
gradient is torch's); a custom ``autograd.Function`` or a tensor hook in a body makes the
derivative an error that says so (never a silently different gradient), while the forward
still compiles. Gradients are checked against hand-written adjoints (finite differences see
through a detach) and, where nothing is detached, central differences."""

import math

import numpy as np
import pytest

import symgrad as sg
from references import StraightThrough, by_hand, central_differences

H = 0.01
P = np.array([0.3, 0.9995])


def detached_step(x, p):
    return x * p[1] + sg.sin(x.detach()) * H


def want_detached(steps):
    """d x' / d x = p1 only: sin(x) is a constant to the gradient."""
    return by_hand(P, steps, lambda k, x: x * P[1] + math.sin(x) * H,
                   lambda k, x: (P[1], {1: x}))


def test_a_detach_in_a_fori_loop_body_cuts_the_gradient():
    def loss(p):
        x = sg.fori_loop(0, 300, lambda i, x: detached_step(x, p), p[0])
        return x * x
    value, grad = sg.value_and_grad(loss)(P)
    want_value, want_grad = want_detached(300)
    np.testing.assert_allclose(value, want_value, rtol=1e-12)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-10)


@pytest.mark.parametrize("how", ["data", "function"])
def test_data_and_the_function_spelling_cut_it_too(how):
    def loss(p):
        def step(i, x):
            y = x.data if how == "data" else sg.detach(x)
            return x * p[1] + sg.sin(y) * H
        x = sg.fori_loop(0, 200, step, p[0])
        return x * x
    np.testing.assert_allclose(sg.grad(loss)(P), want_detached(200)[1], rtol=1e-10)


def test_a_detach_in_a_scan_body_with_a_sequence():
    xs = np.linspace(-1.0, 1.0, 50)

    def loss(p, xs):
        def step(c, x):
            return c * p[1] + sg.tanh(c.detach() * x) * H, c
        c, _ = sg.scan(step, p[0], xs)
        return c * c
    _, want = by_hand(P, 50, lambda k, c: c * P[1] + math.tanh(c * xs[k]) * H,
                      lambda k, c: (P[1], {1: c}))
    np.testing.assert_allclose(sg.grad(loss)(P, xs), want, rtol=1e-10)


def test_a_straight_through_estimator_in_a_branch():
    # y = x + (round(x) - x).detach(): the value of round(x), the gradient of x
    def loss(p):
        def through(x):
            return x + (sg.round(x * 4) / 4 - x).detach()
        y = sg.cond(p[0] > 0, through, lambda x: x * 2.0, p[0] * p[1])
        return y * y
    p = np.array([0.37, 1.3])
    value, grad = sg.value_and_grad(loss)(p)
    y = round(p[0] * p[1] * 4) / 4
    np.testing.assert_allclose(value, y * y, rtol=1e-12)
    np.testing.assert_allclose(grad, [2 * y * p[1], 2 * y * p[0]], rtol=1e-12)


def test_per_example_gradients_with_a_detach_in_the_loop():
    def loss(p, x0):
        x = sg.fori_loop(0, 100, lambda i, x: x * p[1] + sg.sin(x.detach()) * H, x0 * p[0])
        return x * x
    x0s = np.array([0.5, 1.0, 2.0])
    got = sg.vmap(sg.grad(loss), in_axes=(None, 0))(P, x0s)
    for g, x0 in zip(got, x0s):
        q = np.array([P[0] * x0, P[1]])
        _, want = by_hand(q, 100, lambda k, x: x * P[1] + math.sin(x) * H,
                          lambda k, x: (P[1], {1: x}))
        np.testing.assert_allclose(g, [want[0] * x0, want[1]], rtol=1e-10)


def test_symgrads_own_detaches_in_a_body_still_differentiate():
    # logsumexp and cosine_similarity detach inside (a max, a norm): the one to shift the
    # exponent (its gradient cancels), the other torch's clamp; away from the clamp both
    # gradients are the plain derivative, which central differences see
    def loss(w):
        def step(i, v):
            return v + H * sg.nn.functional.cosine_similarity(v, w, dim=0) * \
                sg.logsumexp(v * w, 0)
        return sg.fori_loop(0, 40, step, w * 0.5).sum()
    w = np.array([0.3, -0.7, 1.1])
    np.testing.assert_allclose(sg.grad(loss)(w), central_differences(loss, w), rtol=1e-6)


def custom_loss(p):
    x = sg.fori_loop(0, 50, lambda i, x: x * p[1] + StraightThrough.apply(x) * H, p[0])
    return x * x


def hooked_loss(p):
    def body(i, x):
        y = x * p[1]
        y.register_hook(lambda g: 2 * g)
        return y + sg.sin(x) * H
    x = sg.fori_loop(0, 5, body, p[0])
    return x * x


@pytest.mark.parametrize("loss", [custom_loss, hooked_loss], ids=["custom", "hook"])
def test_a_rule_the_body_graph_cannot_apply_makes_the_derivative_an_error(loss):
    with pytest.raises(NotImplementedError, match="custom autograd.Function or has a tensor"):
        sg.grad(loss)(P)
    if loss is custom_loss:   # the forward compiles, and computes what it computes eagerly
        np.testing.assert_allclose(sg.compile(loss)(P), loss(sg.tensor(P)).item(), rtol=1e-13)
    # eagerly, the custom rule and the hook apply (torch's semantics)
    x = sg.tensor(P, requires_grad=True)
    loss(x).backward()
    assert np.all(np.isfinite(x.grad.numpy()))


def test_the_barriers_leave_no_trace_in_the_c():
    def loss(p):
        x = sg.fori_loop(0, 30, lambda i, x: detached_step(x, p), p[0])
        return x * x
    f = sg.value_and_grad(loss)
    f(P)
    assert "stop_gradient" not in f.c_source
