"""The grad_fn names of a backward that builds a graph (``create_graph=True``), which the op
sweep does not look at: ``x.grad.grad_fn`` is torch's CopyBackwards (its edges: none, and the
node computing the gradient), and that node is named as torch's (TanhBackwardBackward0 where
torch computes the gradient with one op, MulBackward0 where its formula ends in a product).
The names were printed by torch 2.13 and are checked against torch live when it is installed;
second derivatives through the renamed nodes are checked against central differences."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as SF

CASES = {
    "pow2": (lambda m, F, x, y: (x ** 2).sum(), "MulBackward0"),
    "pow3": (lambda m, F, x, y: (x ** 3).sum(), "MulBackward0"),
    "mul": (lambda m, F, x, y: (x * y).sum(), "MulBackward0"),
    "square": (lambda m, F, x, y: m.square(x).sum(), "MulBackward0"),
    "rsqrt": (lambda m, F, x, y: m.rsqrt(x).sum(), "MulBackward0"),
    "sin": (lambda m, F, x, y: m.sin(x).sum(), "MulBackward0"),
    "exp": (lambda m, F, x, y: m.exp(x).sum(), "MulBackward0"),
    "tanh": (lambda m, F, x, y: m.tanh(x).sum(), "TanhBackwardBackward0"),
    "sigmoid": (lambda m, F, x, y: m.sigmoid(x).sum(), "SigmoidBackwardBackward0"),
    "relu": (lambda m, F, x, y: m.relu(x).sum(), "ThresholdBackwardBackward0"),
    "mse": (lambda m, F, x, y: F.mse_loss(x, y), "MseLossBackwardBackward0"),
    "softplus": (lambda m, F, x, y: F.softplus(x).sum(), "SoftplusBackwardBackward0"),
    "log_softmax": (lambda m, F, x, y: F.log_softmax(x, 0).sum(),
                    "LogSoftmaxBackwardDataBackward0"),
    "softmax": (lambda m, F, x, y: (F.softmax(x, 0) * y).sum(), "SoftmaxBackwardDataBackward0"),
    "x_times_x": (lambda m, F, x, y: (x * x).sum(), "AddBackward0"),
}
X, Y = [0.5, 1.5, 2.0], [0.3, -0.7, 1.1]


def _names(m, F, case: str) -> tuple:
    x = m.tensor(X, dtype=m.float64, requires_grad=True)
    y = m.tensor(Y, dtype=m.float64, requires_grad=True)
    CASES[case][0](m, F, x, y).backward(create_graph=True)
    fn = x.grad.grad_fn
    return (type(fn).__name__,
            tuple(None if n is None else type(n).__name__ for n, _ in fn.next_functions))


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradient_of_a_graph_building_backward_is_a_copy_of_torchs_node(case):
    assert _names(sg, SF, case) == ("CopyBackwards", (None, CASES[case][1]))


@pytest.mark.parametrize("case", sorted(CASES))
def test_names_match_torch(case):
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF
    assert _names(sg, SF, case) == _names(torch, TF, case)


def test_second_accumulation_adds_and_autograd_grad_shows_the_node():
    x = sg.tensor(X, dtype=sg.float64, requires_grad=True)
    sg.tanh(x).sum().backward(create_graph=True)
    sg.tanh(x).sum().backward(create_graph=True)
    assert type(x.grad.grad_fn).__name__ == "AddBackward0"
    (g,) = sg.autograd.grad(sg.sigmoid(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "SigmoidBackwardBackward0"


FIRST = {   # f'(x) for the renamed nodes, whose own derivative is checked
    "tanh": lambda x: 1 - np.tanh(x) ** 2,
    "sigmoid": lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2,
    "softplus": lambda x: 1 / (1 + np.exp(-x)),
    "relu": lambda x: (x > 0).astype(float),
}


@pytest.mark.parametrize("case", sorted(FIRST))
def test_second_derivatives_through_renamed_nodes(case):
    points = np.array([-1.3, -0.2, 0.4, 1.7])
    x = sg.tensor(points, dtype=sg.float64, requires_grad=True)
    (g,) = sg.autograd.grad(CASES[case][0](sg, SF, x, None), x, create_graph=True)
    assert np.allclose(np.asarray(g.detach()), FIRST[case](points), rtol=1e-12, atol=0)
    (h,) = sg.autograd.grad(g.sum(), x)
    eps = 1e-6
    want = (FIRST[case](points + eps) - FIRST[case](points - eps)) / (2 * eps)
    assert np.allclose(np.asarray(h), want, rtol=1e-6, atol=1e-8)


def test_mse_second_derivative_and_its_target_edge():
    x = sg.tensor(X, dtype=sg.float64, requires_grad=True)
    y = sg.tensor(Y, dtype=sg.float64, requires_grad=True)
    gx, gy = sg.autograd.grad(SF.mse_loss(x, y), (x, y), create_graph=True)
    assert type(gy.grad_fn).__name__ == "MseLossBackwardBackward0"
    assert np.allclose(np.asarray(gx.detach()), 2 * (np.array(X) - np.array(Y)) / 3)
    hx, hy = sg.autograd.grad((gx * gx).sum(), (x, y))
    d = 2 * (np.array(X) - np.array(Y)) / 3      # d/dx sum(gx^2) = 2 gx * 2/3, d/dy = -that
    assert np.allclose(np.asarray(hx), 2 * d * 2 / 3)
    assert np.allclose(np.asarray(hy), -2 * d * 2 / 3)
