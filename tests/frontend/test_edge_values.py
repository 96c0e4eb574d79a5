"""torch's values at edges the op sweep does not reach: zeta and trigamma at their edges in
compiled C (the sweep runs eagerly), float16 times a Python number through the backward, and
an in-place comparison's gradients with an integer receiver. Expectations are torch 2.13's
(written here), and torch itself when it is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

import symgrad as sg

INF, NAN = math.inf, math.nan
# (s, q) -> torch.special.zeta(s, q) in float64 (torch 2.13)
ZETA = [((1.0, NAN), INF), ((NAN, 0.0), INF), ((NAN, -1.0), INF), ((3.0, INF), NAN),
        ((INF, 0.5), INF), ((INF, 1.0), 1.0), ((INF, 2.0), NAN), ((1e30, 2.5), NAN),
        ((1e30, 1.0), 1.0), ((3.0, -INF), INF), ((2.0, 2.5), 0.4903577561002349)]
# x -> torch.polygamma(1, x) in float64 (torch 2.13): finite at the negative integers
TRIGAMMA = [(0.0, INF), (-1.0, 6.580790147320947e+32), (-2.0, 1.6451975368302367e+32),
            (-INF, NAN), (INF, 0.0), (-7.0, 1.3430183974124383e+31)]


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_zeta_and_trigamma_at_their_edges(how):
    s = sg.tensor([p[0][0] for p in ZETA], dtype=sg.float64)
    q = sg.tensor([p[0][1] for p in ZETA], dtype=sg.float64)
    x = sg.tensor([p[0] for p in TRIGAMMA], dtype=sg.float64)

    def f(s, q, x):
        return sg.special.zeta(s, q), sg.polygamma(1, x)
    run = sg.compile(f) if how == "compiled" else f
    zeta, trigamma = (np.asarray(v) for v in run(s, q, x))
    np.testing.assert_allclose(zeta, [p[1] for p in ZETA], rtol=1e-13, equal_nan=True)
    np.testing.assert_allclose(trigamma, [p[1] for p in TRIGAMMA], rtol=1e-13, equal_nan=True)


def test_float16_times_a_number_computes_in_float32_forward_and_backward():
    x = sg.tensor([0.1, -0.05736, 3.0], dtype=sg.float16, requires_grad=True)
    y = x * 1e5
    z = x / 1e5
    assert y.grad_fn.name() == "MulBackward0" and z.grad_fn.name() == "DivBackward0"
    assert y.tolist() == [10000.0, -5736.0, INF]            # torch 2.13's
    assert z.tolist() == [1.0132789611816406e-06, -5.960464477539062e-07,
                          2.9981136322021484e-05]
    (y.sum() + z.sum()).backward()
    assert x.grad.tolist() == [INF, INF, INF]               # 1e5 + 1e-5 rounds to inf


def test_in_place_comparison_with_an_integer_receiver_records_torch_node():
    other = sg.tensor([0.5, 2.0, -1.0], requires_grad=True)
    x = sg.tensor([0, 2, 3], dtype=sg.int32)
    x.lt_(other)
    assert x.requires_grad and x.grad_fn.name() == "LtBackward1"
    assert x.tolist() == [1, 0, 0]
    y = sg.tensor([1.0, 2.0, 3.0], requires_grad=True).clone()
    y.ge_(other)
    (y * 2).sum().backward()
    assert other.grad.tolist() == [0.0, 0.0, 0.0]


def test_against_torch():
    torch = pytest.importorskip("torch")
    x = torch.tensor([0.1, -0.05736, 3.0], dtype=torch.float16, requires_grad=True)
    ((x * 1e5).sum() + (x / 1e5).sum()).backward()
    xs = sg.tensor([0.1, -0.05736, 3.0], dtype=sg.float16, requires_grad=True)
    ((xs * 1e5).sum() + (xs / 1e5).sum()).backward()
    assert xs.grad.tolist() == x.grad.tolist()
    for (s, q), want in ZETA:
        got = torch.special.zeta(torch.tensor(s, dtype=torch.float64),
                                 torch.tensor(q, dtype=torch.float64)).item()
        assert got == want or (math.isnan(got) and math.isnan(want)) \
            or abs(got - want) <= 1e-13 * abs(want)
    for v, want in TRIGAMMA:
        got = torch.polygamma(1, torch.tensor(v, dtype=torch.float64)).item()
        assert got == want or (math.isnan(got) and math.isnan(want))
