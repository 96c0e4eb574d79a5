"""Scans over the same steps fused into one (passes/loop_fusion.py).

Each case counts the scans in the generated C and checks the values: against the same loops
in NumPy (the same operations in the same order: equal to the last bit), derivatives against
eager symgrad (Python running the loops) and central differences in float64. The fusing
cases are also compiled with the pass turned off, so that a count cannot pass without it.
"""

import numpy as np
import pytest

import symgrad as sg
from symgrad.passes import control_flow


def _scans(text: str) -> int:
    return text.count(": scan of ")


@pytest.fixture
def unfused(monkeypatch):
    monkeypatch.setenv("SYMGRAD_WARM_START", "0")    # (no record of the other pipeline)
    monkeypatch.setattr(control_flow, "fuse_scans", lambda graph: graph)


def _flow(p):
    """A fori_loop of static length (a scan): 40 steps of a damped, forced state."""
    x = sg.fori_loop(0, 40, lambda i, x: x * 0.9 + sg.sin(x) * p * 0.1, p * 2)
    return (x * x).sum()


def _flow_np(p):
    x = p * 2
    for _ in range(40):
        x = x * 0.9 + np.sin(x) * p * 0.1
    return (x * x).sum()


P, U = np.array([0.3, -0.7, 1.1]), np.array([1.0, 0.5, -2.0])


def test_forward_mode_through_a_scan_is_one_loop():
    """jvp: the loop of values, the map of its step's derivatives and the loop of tangents
    become one loop carrying values and tangents; no stacked array is left."""
    f = sg.compile(lambda p, u: sg.jvp(_flow, (p,), (u,)))
    value, tangent = f(P, U)
    assert value == _flow_np(P)
    _, eager = sg.jvp(_flow, (sg.tensor(P),), (sg.tensor(U),))
    np.testing.assert_allclose(tangent, np.asarray(eager), rtol=1e-13)
    h = 1e-6
    np.testing.assert_allclose(tangent, (_flow_np(P + h * U) - _flow_np(P - h * U)) / (2 * h),
                               rtol=1e-6)
    assert _scans(f.c_source) == 1
    assert "[40, 3]" not in f.c_source       # no stacked residual


def test_unfused_forward_mode_runs_three_loops(unfused):
    f = sg.compile(lambda p, u: sg.jvp(_flow, (p,), (u,)))
    f(P, U)
    assert _scans(f.c_source) == 3


def test_a_hessian_vector_product_through_a_scan():
    """jvp of grad (forward over reverse): the tangent loops fuse with the loops they
    differentiate; the product matches eager symgrad and the columns of jacrev(grad)."""
    hvp = sg.compile(lambda p, u: sg.jvp(sg.grad(_flow), (p,), (u,))[1])
    got = hvp(P, U)
    eager = np.asarray(sg.jvp(sg.grad(_flow), (sg.tensor(P),), (sg.tensor(U),))[1])
    np.testing.assert_allclose(got, eager, rtol=1e-12)
    H = sg.compile(sg.jacrev(sg.grad(_flow)))(P)
    np.testing.assert_allclose(got, H @ U, rtol=1e-10)
    assert _scans(hvp.c_source) == 2         # forward (values, tangents), reverse (both)


def test_an_unfused_hessian_vector_product_runs_six_loops(unfused):
    hvp = sg.compile(lambda p, u: sg.jvp(sg.grad(_flow), (p,), (u,))[1])
    hvp(P, U)
    assert _scans(hvp.c_source) == 6


def test_a_reverse_map_of_forward_values_fuses():
    """A carry-less scan (a map) runs in the other direction: step t still reads and writes
    only step t, so it joins the forward loop."""
    def run(x):
        _, ys = sg.scan(lambda c, t: (c * 0.5 + t, c * t), x[0] * 0, x)
        _, zs = sg.scan(lambda c, y: (c, sg.exp(y) - 1.0), x[0] * 0, ys, reverse=True)
        return zs
    f = sg.compile(run)
    x = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
    c, want = x[0] * 0, []
    for t in x:
        want.append(np.exp(c * t) - 1.0)
        c = c * 0.5 + t
    np.testing.assert_array_equal(f(x), np.array(want))
    assert _scans(f.c_source) == 1


def test_scans_that_cannot_share_a_loop_stay_apart():
    """A reverse scan with a carry over a forward scan's values (its first step needs the
    forward loop's last), a scan reading another's final carry, and scans of different
    lengths: three pairs, none fused; the values as NumPy's loops give them."""
    def run(x):
        c, ys = sg.scan(lambda c, t: (c * 0.5 + t, c * t), x[0] * 0, x)
        back, _ = sg.scan(lambda a, y: (a * 0.25 + y, a), x[0] * 0, ys, reverse=True)
        after, _ = sg.scan(lambda a, t: (a + t * c, a), c, x)
        short, _ = sg.scan(lambda a, y: (a + y, a), x[0] * 0, ys[:2])
        return back, after, short
    f = sg.compile(run)
    x = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
    c, ys = x[0] * 0, []
    for t in x:
        ys.append(c * t)
        c = c * 0.5 + t
    back = x[0] * 0
    for y in reversed(ys):
        back = back * 0.25 + y
    after = c
    for t in x:
        after = after + t * c
    short = ys[0] + ys[1]
    for got, want in zip(f(x), (back, after, short)):
        np.testing.assert_array_equal(got, want)
    assert _scans(f.c_source) == 4


def test_a_scan_reading_the_others_array_whole_stays_apart():
    """The consumer reads the producer's stacked values step by step and, through its
    closure, the whole array (an invariant operand, known only once the producer ran): no
    fusion (fusing would run the producer twice, once to give the array)."""
    from symgrad.ir.walk import applications
    from symgrad.passes.loop_fusion import fuse_scans

    def run(x):
        _, ys = sg.scan(lambda c, t: (c * 0.5 + t, c * t), x[0] * 0, x)
        d, _ = sg.scan(lambda a, y: (a * 0.5 + y + (ys * a).sum(0) * 0.1, a), x[0] * 0, ys)
        return d
    graph = sg.compile(run).trace(np.ones((4, 3))).graph
    consumer = [a for a in applications(graph, "scan") if a.attrs["xs"] == 1 and
                any(i.op == "scan" for i in a.inputs[2:])]
    assert consumer and consumer[0].inputs[1] is consumer[0].inputs[2]   # (the case meant)
    assert fuse_scans(graph) is graph
    x = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
    c, ys = x[0] * 0, []
    for t in x:
        ys.append(c * t)
        c = c * 0.5 + t
    Y, d = np.array(ys), x[0] * 0
    for y in ys:
        d = d * 0.5 + y + (Y * d).sum(0) * 0.1
    np.testing.assert_allclose(sg.compile(run)(x), d, rtol=1e-14)
