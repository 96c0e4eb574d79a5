"""Work that loops and branches did twice, done once (passes/shared_work.py, ir/structure.py).

Each case counts the loops in the generated C (the work the pass removes) and checks the
values: against the same algorithm in NumPy, the same operations in the same order (equal to
the last bit), and derivatives against central differences in float64. Each count is also
checked with the pass turned off, so that a test cannot pass without it doing its work.
"""

import numpy as np
import pytest

import symgrad as sg
from symgrad.ir.structure import Structure
from symgrad.passes import control_flow


def _loops(text: str) -> int:
    return text.count(": while loop */")


@pytest.fixture
def unshared(monkeypatch):
    """The passes without this module: no operands taken from around, no loops merged (and
    no warm start: a record of the same function compiled with them must not be loaded, nor
    one written without them)."""
    monkeypatch.setenv("SYMGRAD_WARM_START", "0")
    monkeypatch.setattr(control_flow, "into_branches", lambda branches, ins, around:
                        (branches, ins))
    monkeypatch.setattr(control_flow, "merge_loops", lambda graph, structure: graph)


def _flight(x0, k):
    """A loop of data-dependent length: halve-and-shift x until its sum falls below 1."""
    return sg.while_loop(lambda x: x.sum() > 1.0, lambda x: x * 0.5 + k, x0)


def _flight_np(x0, k):
    x = x0
    while x.sum() > 1.0:
        x = x * 0.5 + k
    return x


def _descent(x, k):
    """A while loop whose body decides with a Python ``if`` on the flight's result: the
    ``cond``'s sides trace the flight again."""
    def step(state):
        x, best, n = state
        y = _flight(x, k)
        if y.sum() < best:
            return x * 0.9, y.sum(), n + 1
        return x * 1.1, best, n + 1
    return sg.while_loop(lambda s: s[2] < 6, step, (x, sg.tensor(1e9, dtype=sg.float64), 0))


def _descent_np(x, k):
    best = 1e9
    for _ in range(6):
        y = _flight_np(x, k)
        if y.sum() < best:
            x, best = x * 0.9, y.sum()
        else:
            x = x * 1.1
    return x, best


X0, K = np.array([3.0, 5.0, 2.5]), np.array([0.01, 0.02, 0.03])


def test_a_branch_reads_the_loop_it_was_decided_on():
    """``if f(x) < best: return ..., f(x)``: the side takes f(x) from around, where the
    decision computed it, instead of running the flight again."""
    f = sg.compile(_descent)
    x, best, n = f(X0, K)
    want_x, want_best = _descent_np(X0, K)
    np.testing.assert_array_equal(x, want_x)
    assert best == want_best and n == 6
    assert _loops(f.c_source) == 2              # the descent and one flight in its step


def test_without_sharing_the_branch_runs_the_flight_again(unshared):
    f = sg.compile(_descent)
    np.testing.assert_array_equal(f(X0, K)[0], _descent_np(X0, K)[0])
    assert _loops(f.c_source) == 3


def _landing(k):
    return _flight(np.array([3.0, 5.0, 2.5]), k).sum() ** 2


def _jvp_of_landing(k, u):
    return sg.jvp(_landing, (k,), (u,))


def test_forward_mode_reads_its_values_from_the_loop_of_tangents():
    """jvp through a while loop: the loop carrying (value, tangent) gives the value too, so
    the loop of values alone is gone."""
    f = sg.compile(_jvp_of_landing)
    u = np.array([1.0, -0.5, 2.0])
    value, tangent = f(K, u)
    assert value == _flight_np(X0, K).sum() ** 2
    h = 1e-6
    fd = (_flight_np(X0, K + h * u).sum() ** 2 - _flight_np(X0, K - h * u).sum() ** 2) / (2 * h)
    np.testing.assert_allclose(tangent, fd, rtol=1e-6)
    assert _loops(f.c_source) == 1


def test_without_merging_forward_mode_runs_two_loops(unshared):
    f = sg.compile(_jvp_of_landing)
    f(K, np.ones(3))
    assert _loops(f.c_source) == 2


def test_the_descents_forward_derivative_with_both():
    """jacfwd of the descent's best value: the step's branch shares the flight with the
    decision, and forward mode's loops of values with their loops of tangents."""
    def best(k):
        return _descent(np.array([3.0, 5.0, 2.5]), k)[1]
    f = sg.compile(best)
    g = sg.compile(sg.jacfwd(best))
    h = 1e-7
    fd = np.array([(f(K + h * e) - f(K - h * e)) / (2 * h) for e in np.eye(3)])
    np.testing.assert_allclose(g(K), fd, rtol=1e-5)


def test_loops_that_differ_in_their_step_are_kept_apart():
    """Two flights from the same start with different steps: neither reads the other."""
    def two(k):
        a = sg.while_loop(lambda x: x.sum() > 1.0, lambda x: x * 0.5 + k, k * 10)
        b = sg.while_loop(lambda x: x.sum() > 1.0, lambda x: x * 0.25 + k, k * 10)
        return a, b
    f = sg.compile(two)
    a, b = f(K)
    x = K * 10
    while x.sum() > 1.0:
        x = x * 0.5 + K
    y = K * 10
    while y.sum() > 1.0:
        y = y * 0.25 + K
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, y)
    assert _loops(f.c_source) == 2


def _traced_body(scale):
    """The graph of a while application traced from a fresh function each call."""
    f = sg.compile(lambda x: sg.while_loop(lambda v: v.sum() > 1.0, lambda v: v * scale, x))
    return f.trace(np.ones(3)).graph


def test_two_traces_of_a_loop_have_one_structure():
    s = Structure()
    nodes = []
    for scale in (0.5, 0.5, 0.25):
        g = _traced_body(scale)
        (loop,) = [n for n in g.nodes() if n.op == "while"]
        nodes.append(loop)
    assert nodes[0] is not nodes[1]          # two traces: two graph objects, two nodes
    assert s.attrs(nodes[0]) == s.attrs(nodes[1])
    assert s.attrs(nodes[0]) != s.attrs(nodes[2])
