"""Custom ``autograd.Function``s in captured eager steps (``frontend.core.lazy_custom``): each
program runs with capture off and on (``test_capture.check``) and must observe the same; a
Function whose backward the program could see run (a global written, a print) keeps its step
eager, and its backward runs at every step."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.core import lazy

from test_autograd_api import legendre3
from test_capture import _run, check


Legendre3 = legendre3(sg)   # (the tutorial's P3(x) = (5x^3 - 3x) / 2)


class Clamp(sg.autograd.Function):
    """A ReLU-like clamp below ``low``, with ctx attributes and needs_input_grad."""

    @staticmethod
    def forward(ctx, x, low):
        ctx.low = low
        ctx.save_for_backward(x)
        return x.clamp(min=low)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        grad = g.clone()
        grad[x < ctx.low] = 0
        return (grad if ctx.needs_input_grad[0] else None), None


class ScaledSquare(sg.autograd.Function):
    """The new style: forward without ctx, setup_context after it; once_differentiable."""

    @staticmethod
    def forward(x, scale):
        return scale * x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x, scale)

    @staticmethod
    @sg.autograd.function.once_differentiable
    def backward(ctx, g):
        x, scale = ctx.saved_tensors
        return 2 * scale * x * g, (x * x * g).sum()


_SEEN: list = []


class Noisy(sg.autograd.Function):
    """Its backward writes a global: the program sees it run."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        _SEEN.append(1)
        return g * 2


def _fit(log, fn, steps=8):
    rng = np.random.default_rng(0)
    x = sg.tensor(rng.standard_normal(64).astype(np.float32))
    y = sg.tensor(np.sin(rng.standard_normal(64)).astype(np.float32))
    w = sg.tensor([0.1, -0.2], requires_grad=True)
    s = sg.tensor(0.5, requires_grad=True)
    for _ in range(steps):
        pred = fn(w, s, x)
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        log += [loss.item(), w.grad.numpy().copy(), s.grad.numpy().copy()]
        with sg.no_grad():
            w -= 0.05 * w.grad
            s -= 0.05 * s.grad
        w.grad = None
        s.grad = None


@pytest.mark.parametrize("fn", [
    lambda w, s, x: w[0] + s * Legendre3.apply(w[1] * x),
    lambda w, s, x: Clamp.apply(w[0] + w[1] * x, -0.1) * s,
    lambda w, s, x: ScaledSquare.apply(w[0] + w[1] * x, s),
], ids=["legendre", "ctx-attributes", "new-style"])
def test_a_step_through_a_custom_function_runs_compiled(fn):
    stats = check(lambda log: _fit(log, fn))
    assert stats["replayed"] >= 4, stats


def test_a_backward_the_program_sees_keeps_the_step_eager():
    _SEEN.clear()
    off, _ = _run(lambda log: _fit(log, lambda w, s, x: Noisy.apply(w[0] + w[1] * x) * s),
                  False)
    seen_off = len(_SEEN)
    on, stats = _run(lambda log: _fit(log, lambda w, s, x: Noisy.apply(w[0] + w[1] * x) * s),
                     True)
    assert seen_off == 8 and len(_SEEN) == 16       # its backward ran at every step, both ways
    assert stats["replayed"] == 0, stats
    for a, b in zip(off, on):
        np.testing.assert_array_equal(a, b)


def test_the_node_of_a_replayed_custom_function_is_its_ctx():
    # a kept result's grad_fn made when read: the Function's node, with what its forward
    # left on ctx, released by the backward, as torch's (``y.grad_fn`` is the ctx)
    def program(log):
        w = sg.tensor([0.3, -0.7], requires_grad=True)
        for _ in range(6):
            y = Clamp.apply(w * 2.0, -0.5)
            y.sum().backward()
            log += [type(y.grad_fn).__name__, y.grad_fn.low, y.grad_fn.needs_input_grad,
                    w.grad.numpy().copy()]
            try:    # (freed by the backward, as torch's)
                log.append(len(y.grad_fn.saved_tensors))
            except RuntimeError as e:
                log.append(str(e)[:40])
            w.grad = None
    stats = check(program)
    assert stats["replayed"] >= 2, stats
    on, _ = _run(program, True)
    assert on[0] == "ClampBackward" and on[1] == -0.5 and on[2] == (True, False)
    assert on[4].startswith("Trying to backward through the graph")


def test_a_custom_function_returning_its_input_is_left_eager():
    class Identity(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3.0

    def program(log):
        w = sg.tensor([1.0, 2.0], requires_grad=True)
        for _ in range(5):
            (Identity.apply(w * 1.0) * w).sum().backward()
            log.append(w.grad.numpy().copy())
            w.grad = None
    check(program, replays=False)
    assert lazy.STATE.region is None


def test_a_backward_replaced_between_steps_is_the_one_that_runs():
    # the node is keyed by its backward too: after ``Cls.backward`` is replaced, the steps
    # compiled with the old one are not replayed (the gradients change, as eagerly)
    class Twice(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return g * 2.0

    old = Twice.backward

    def program(log):
        Twice.backward = staticmethod(old)
        w = sg.tensor([1.0, -2.0], requires_grad=True)
        for k in range(12):
            if k == 6:
                Twice.backward = staticmethod(lambda ctx, g: g * 5.0)
            Twice.apply(w * 1.0).sum().backward()
            log.append(w.grad.numpy().copy())
            w.grad = None
    stats = check(program)
    assert stats["replayed"] >= 2, stats
    on, _ = _run(program, True)
    assert [float(g[0]) for g in on] == [2.0] * 6 + [5.0] * 6
