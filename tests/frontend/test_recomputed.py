"""A program that recomputes values, replayed over its distinct values before reverse mode
(symgrad/frontend/control/rolling.py, ``RECOMPUTED``), and the check that allows it
(symgrad/frontend/core/faithful.py, ``_ByValue``): a view the trace made an earlier node of the
same value stands for it only when neither the tape's moves nor the node's cut a gradient on
the way. Gradients are checked against Jacobi's formula and hand-derived derivatives; where a
detach sits on one side only, the tape's answer (torch's) must win."""

import numpy as np
import pytest

import symgrad as sg
import symgrad.frontend.control.rolling as rolling
from test_twins import det_by_slices, jacobi


@pytest.fixture
def replays(monkeypatch):
    """Replay every trace (the thresholds down to nothing), and
    count the replays."""
    monkeypatch.setattr(rolling, "MIN_REPEATS", 0)
    monkeypatch.setattr(rolling, "RECOMPUTED", 0)
    count = []
    run = rolling._Replay.run

    def counted(self, runs):
        count.append(len(runs))
        return run(self, runs)
    monkeypatch.setattr(rolling._Replay, "run", counted)
    return count


@pytest.mark.parametrize("n", [3, 5])
def test_a_cofactor_determinant_is_replayed_and_keeps_its_gradient(replays, n):
    x = np.random.default_rng(n).standard_normal((n, n))
    value, grad = sg.value_and_grad(det_by_slices)(x)
    assert replays == [0]          # replayed once, with no loop to roll
    want_value, want_grad = jacobi(x.ravel(), n)
    np.testing.assert_allclose(value, want_value, rtol=1e-12)
    np.testing.assert_allclose(grad.ravel(), want_grad, rtol=1e-9, atol=1e-12)


def test_the_replay_is_the_graph_of_the_distinct_values(replays):
    x = np.random.default_rng(7).standard_normal((5, 5))
    replayed = sg.value_and_grad(det_by_slices).trace(x)
    rolling.RECOMPUTED = float("inf")   # (restored by monkeypatch)
    taped = sg.value_and_grad(det_by_slices).trace(x)
    # the forward is the same graph; the backward walks each value once either way
    assert len(replayed.graph.nodes()) <= len(taped.graph.nodes())


def _detached_on_the_tapes_side(x, y):
    c = y[1:3]                         # y[1], y[2] with their gradient
    u = sg.cat([x, y.detach()])        # [x0, x1, y0, y1, y2], y's part detached
    a = u[3:5]                         # y[1], y[2] again: made c's node, no gradient
    return c, a


def _detached_on_the_nodes_side(x, y):
    u = sg.cat([x, y.detach()])
    c = u[3:5]                         # y[1], y[2], detached: the node is this slice
    a = y[1:3]                         # the same value, with its gradient, made c's node
    return c, a


@pytest.mark.parametrize("views, want_gy", [
    (_detached_on_the_tapes_side, [0.0, 2.0, 2.0]),     # only c's reads carry: 2 each
    (_detached_on_the_nodes_side, [0.0, 10.0, 10.0]),   # only a's reads carry: 10 each
])
def test_a_detach_on_one_side_of_equal_views_keeps_the_tapes_gradient(replays, views,
                                                                       want_gy):
    def f(x, y):
        c, a = views(x, y)
        out = c * 2.0 + a * 10.0
        return out[0] + out[1]             # (no composite: the views alone decide)

    x, y = np.array([0.5, -1.0]), np.array([1.0, 2.0, 3.0])
    value, (gx, gy) = sg.value_and_grad(f, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(value, 12 * (y[1] + y[2]))
    np.testing.assert_array_equal(gx, [0.0, 0.0])
    np.testing.assert_array_equal(gy, want_gy)


def test_a_hook_in_a_recomputing_program_changes_its_own_cotangent_only(replays):
    def f(x):
        total = None
        for k in range(3):
            m = x[1:, :2]                  # the same value three times
            if k == 1:
                m.register_hook(lambda g: g * 0.5)
            t = (m * m).sum() * (k + 1.0)
            total = t if total is None else total + t
        return total

    x = np.arange(1.0, 10.0).reshape(3, 3)
    value, grad = sg.value_and_grad(f)(x)
    assert replays == []               # a hook: the tape is differentiated as recorded
    want = np.zeros_like(x)
    want[1:, :2] = 2 * (1 + 2 * 0.5 + 3) * x[1:, :2]   # the second term's cotangent halved
    np.testing.assert_allclose(grad, want)
    np.testing.assert_allclose(value, 6 * (x[1:, :2] ** 2).sum())


def test_a_pooled_pad_is_replayed_with_its_whole_gradient(replays):
    """``avg_pool2d`` of a padded tensor: its middle window is the unpadded tensor, one node
    with a view another function made (see test_rolling's local_response_norm loop)."""
    from symgrad.nn.functional.pooling import avg_pool2d
    from references import central_differences

    w = np.cos(np.arange(6.0)).reshape(1, 1, 2, 3)

    def loss(x):
        padded = sg.nn.functional.pad((x * x).reshape(1, 1, 2, 3), (0, 0, 1, 1))
        return (avg_pool2d(padded, (3, 1), stride=1) * sg.tensor(w)).sum()

    x0 = np.random.default_rng(3).standard_normal((1, 2, 3))
    np.testing.assert_allclose(sg.grad(loss)(x0), central_differences(loss, x0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("detached_first", [False, True])
def test_an_exact_rule_given_one_node_with_and_without_a_gradient_is_taped(
        replays, detached_first):
    """``linear(x, x.detach(), b)``: ``linear``'s rule is exact, and its two operands are one
    node, one read with a gradient and one without; the node cannot tell which is which. It
    dropped x's gradient (or doubled it, the other way round): refused, the tape decides."""
    F = sg.nn.functional

    def f(x, b):
        y = F.linear(x.detach(), x, b) if detached_first else F.linear(x, x.detach(), b)
        return (y * y).sum()

    x, b = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([0.5, -0.5])
    _, (gx, _) = sg.value_and_grad(f, argnums=(0, 1))(x, b)
    y = x @ x.T + b                      # the same value either way
    want = (2 * y).T @ x if detached_first else (2 * y) @ x   # the constant copy held fixed
    np.testing.assert_allclose(gx, want, rtol=1e-13)
