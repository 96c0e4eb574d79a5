"""Provenance (symgrad/ir/provenance.py): at trace time, values of data movement that copy the
same elements into the same places are one node. Checked against NumPy: random programs of
slices, transposes, reshapes, concatenations and broadcasts run eagerly on a matrix of distinct
numbers (so equal arrays means equal provenance) and traced; two traced values are one node
exactly when their eager arrays are equal."""

import numpy as np
import pytest

import symgrad as sg
from symgrad.dims import Dim
from symgrad.dtypes import float64
from symgrad.ir import Node
from symgrad.ir.provenance import LIMIT, Table, Values


def random_program(seed: int, steps: int = 14):
    """A list of (op, operands, arguments) over a pool that starts as [x] (4 x 6)."""
    rng = np.random.default_rng(seed)
    return [(rng.integers(6), rng.integers(0, 1 << 30, size=4)) for _ in range(steps)]


def run(program, x):
    """Apply ``program`` to ``x``'s pool with symgrad ops (eager or traced alike)."""
    pool = [x]
    for kind, (a, b, c, d) in program:
        t = pool[a % len(pool)]
        if kind == 0 and t.ndim >= 1 and t.shape[0] > 1:     # a slice of rows
            lo = b % t.shape[0]
            hi = lo + 1 + c % (t.shape[0] - lo)
            pool.append(t[lo:hi])
        elif kind == 1 and t.ndim == 2:                        # a transpose
            pool.append(t.transpose(0, 1))
        elif kind == 2:                                        # flatten, or split rows
            pool.append(t.reshape(-1) if t.ndim == 2 else t.reshape(1, -1))
        elif kind == 3 and t.ndim >= 1:                        # cat along the last dim
            u = next((u for u in pool[::-1]
                      if u.ndim == t.ndim and u.shape[:-1] == t.shape[:-1]), t)
            pool.append(sg.cat([t, u], dim=-1))
        elif kind == 4 and t.ndim >= 1:                        # one entry, as x[i] reads
            pool.append(t[b % t.shape[0]])
        elif kind == 5 and t.ndim == 1:                        # a broadcast row
            pool.append(t.unsqueeze(0).expand(2, t.shape[0]))
    return pool


@pytest.mark.parametrize("seed", range(40))
def test_one_node_exactly_when_the_values_are_equal(seed):
    program = random_program(seed)
    x = (np.random.default_rng(seed).permutation(24) + 1.0).reshape(4, 6)
    arrays = [t.numpy() for t in run(program, sg.tensor(x))]
    nodes = []

    def f(xt):
        pool = run(program, xt)
        nodes.extend(t._node for t in pool)
        return pool[0].sum()

    sg.compile(f).trace(x)
    assert len(nodes) == len(arrays)
    for i in range(len(nodes)):
        for j in range(i):
            same_value = arrays[i].shape == arrays[j].shape and \
                np.array_equal(arrays[i], arrays[j])
            assert (nodes[i] is nodes[j]) == same_value, (i, j, program)


def test_a_minor_cut_two_ways_is_one_node():
    def f(a):
        m1 = sg.cat([a[1:, :1], a[1:, 2:]], dim=1)      # columns 0, 2, 3 of rows 1..3
        m2 = sg.cat([a[1:, :2], a[1:, 3:]], dim=1)      # columns 0, 1, 3
        twice = sg.cat([m1[:, :1], m1[:, 1:]], dim=1)   # m1 again, another way
        minor1 = sg.cat([m2[1:, :1], m2[1:, 2:]], dim=1)   # rows 2..3, columns 0, 3
        minor2 = sg.cat([m1[1:, :1], m1[1:, 2:]], dim=1)   # the same
        assert twice._node is m1._node
        assert minor1._node is minor2._node
        assert m1._node is not m2._node
        return minor1.sum()

    sg.compile(f).trace(np.arange(16.0).reshape(4, 4))


def test_table_numbers_each_base_once_and_follows_small_values_only():
    table = Table()
    a = table.base("a", (3,))
    b = table.base("b", (3,))
    assert not np.intersect1d(a, b).size             # two bases: disjoint codes
    assert np.array_equal(table.base("a", (3,)), a)  # one base: one numbering
    cat = table.moved("cat", {"axis": 0}, [a, b])
    assert np.array_equal(cat, np.concatenate([a, b]))
    assert table.base("big", (LIMIT + 1,)) is None   # too large to follow
    assert table.moved("expand", {"shape_to": (LIMIT + 1, 3)}, [a]) is None


def test_views_to_call_time_sizes_stay_apart():
    # Two broadcasts of one value to two call-time sizes that happen to be traced at one
    # length: equal at the traced sizes only, so they stay two nodes (and a shape-generic
    # function called with two lengths still gets each right).
    c = Node("const", (("value", 1.5),), (), float64, ())
    n, m = Dim.symbol("n", 3), Dim.symbol("m", 3)
    to_n = Node("expand", (("shape_to", (n,)),), (c,), float64, (n,))
    to_m = Node("expand", (("shape_to", (m,)),), (c,), float64, (m,))
    values = Values()
    assert values.canonical(to_n) is to_n and values.canonical(to_m) is to_m
    assert Table.moved("expand", {"shape_to": (n,)}, [np.array(1)]) is None

    def f(c, a, b):
        return (c.expand_as(a) * a).sum() * 2.0 + (c.expand_as(b) * b).sum()

    g = sg.compile(f, dynamic_dims={"a": 0, "b": 0})
    for size_a, size_b in ((3, 3), (4, 4), (6, 6), (3, 5), (2, 7)):
        a, b = np.arange(size_a) + 1.0, np.arange(size_b) * 2.0
        np.testing.assert_allclose(g(np.array([1.5]), a, b), 1.5 * (2 * a.sum() + b.sum()),
                                   rtol=1e-14)
