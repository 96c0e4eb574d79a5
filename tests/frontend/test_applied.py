"""A trace's applications already made (symgrad/frontend/core/apply.py, ``_applied``): an op
applied again to the same nodes with the same attributes is a lookup, not a new computation of
its shape, dtype and node. What each call still does for itself, and must: its own tensor and
backward function (with the grad_fn name its caller asked for), its own view links, a constant
read at its current version, and nothing across traces. Gradients are checked against
hand-derived formulas."""

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.core import sources


def test_a_recomputed_value_is_one_node_and_each_call_its_own_tensor_and_function():
    seen = {}

    def f(x):
        a, b = x[1:, :2], x[1:, :2]
        p, q = a * a, b * b
        seen.update(a=a, b=b, p=p, q=q)
        return (p + q).sum()

    x = np.arange(1.0, 10.0).reshape(3, 3)
    value, grad = sg.value_and_grad(f)(x)
    assert seen["a"].node is seen["b"].node and seen["p"].node is seen["q"].node
    assert seen["a"] is not seen["b"] and seen["a"].grad_fn is not seen["b"].grad_fn
    want = np.zeros_like(x)
    want[1:, :2] = 4 * x[1:, :2]          # d/dx of 2 * sum(x[1:, :2]**2)
    np.testing.assert_allclose(value, 2 * (x[1:, :2] ** 2).sum())
    np.testing.assert_array_equal(grad, want)


def test_the_same_node_keeps_each_callers_grad_fn_name():
    names = {}

    def f(x):
        r = x.reshape(1, 3)                # a reshape to (1, 3): ViewBackward0
        s = sg.stack([x])                  # the same reshape node: StackBackward0
        names.update(r=r.grad_fn.name(), s=s.grad_fn.name(), same=r.node is s.node)
        return (r * s).sum()

    x = np.array([1.0, -2.0, 0.5])
    value, grad = sg.value_and_grad(f)(x)
    assert names == {"r": "ViewBackward0", "s": "StackBackward0", "same": True}
    np.testing.assert_allclose(value, (x * x).sum())
    np.testing.assert_allclose(grad, 2 * x)


def test_a_constant_changed_in_place_is_read_at_its_new_value():
    def f(x):
        c = sg.ones(3, dtype=sg.float64)   # eager inside the trace: a constant
        first = x + c                      # (add saves nothing: c may change after it)
        c.add_(1.0)                        # the constant is now 2: a new node
        second = x + c
        return (first * second).sum()      # sum((x + 1)(x + 2)): gradient 2x + 3

    x = np.array([1.0, 2.0, -3.0])
    value, grad = sg.value_and_grad(f)(x)
    np.testing.assert_allclose(value, ((x + 1) * (x + 2)).sum())
    np.testing.assert_allclose(grad, 2 * x + 3)


def test_a_saved_constant_changed_in_place_still_raises_torchs_error():
    def f(x):
        c = sg.ones(3, dtype=sg.float64)
        first = x * c                      # mul saves c
        c.add_(1.0)
        return (first * (x * c)).sum()

    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        sg.value_and_grad(f)(np.array([1.0, 2.0, -3.0]))


def test_keyword_order_does_not_change_the_node_or_the_gradient():
    from symgrad.frontend.core.apply import apply
    nodes = []

    def f(x):
        a = apply("slice", x, starts=(1,), stops=(3,), steps=(1,))
        b = apply("slice", x, steps=(1,), stops=(3,), starts=(1,))
        nodes.extend([a.node, b.node])
        return (a * b).sum()

    x = np.array([3.0, 1.0, 2.0, 5.0])
    _, grad = sg.value_and_grad(f)(x)
    assert nodes[0] is nodes[1]
    np.testing.assert_allclose(grad, [0.0, 2.0, 4.0, 0.0])


def test_a_view_changed_in_place_after_a_recomputed_read_reaches_its_base():
    def f(x):
        y = x * 1.0
        a = y[0:2]
        b = y[0:2]                         # the same node as a, its own view of y
        b.mul_(3.0)                        # writes through to y, and so to a
        return (a * a).sum() + y[2]        # 9 (x0^2 + x1^2) + x2

    x = np.array([1.0, 2.0, 4.0])
    value, grad = sg.value_and_grad(f)(x)
    np.testing.assert_allclose(value, 9 * (x[0] ** 2 + x[1] ** 2) + x[2])
    np.testing.assert_allclose(grad, [18 * x[0], 18 * x[1], 1.0])


def test_a_trace_keeps_one_entry_per_distinct_application():
    sizes = []

    def f(x):
        total = None
        for _ in range(50):                # the same four applications, 50 times
            t = (x[0] * x[1]).sin()
            total = t if total is None else total + t
        sizes.append(len(sources.current().applied))
        return total

    sg.value_and_grad(f)(np.array([0.3, 0.7]))
    # x[0] and x[1] (a slice and a reshape each), the product, the sine, 49 distinct sums
    assert sizes == [4 + 2 + 49]


@pytest.mark.parametrize("order", [0, 1])
def test_nothing_carries_over_between_traces(order):
    def f(x, k: int):
        return (x[1:] * x[:-1]).sum() * k

    x = np.array([1.0, 2.0, 3.0])
    g = sg.value_and_grad(f)
    for k in ((2, 5) if order == 0 else (5, 2)):
        value, grad = g(x, k)
        np.testing.assert_allclose(value, k * (x[1:] * x[:-1]).sum())
        np.testing.assert_allclose(grad, k * np.array([2.0, 4.0, 2.0]))
