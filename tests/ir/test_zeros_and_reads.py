"""The structural analyses behind triangular products (``ir.zeros``, ``ir.reads``), checked
for soundness on random programs of the ops they look through: every element ``KnownZeros``
calls zero is exactly zero when the graph runs (on inputs with infinities and NaNs), and
poisoning every element ``UsedElements`` calls unused (NaN) changes no output. Also: the
analyses are not vacuous (they find the triangles of tril, triu and index assignments)."""

from __future__ import annotations

import numpy as np

import symgrad as sg
from symgrad.ir import consumers
from symgrad.ir.interpret import constant, numpy_node
from symgrad.ir.reads import UsedElements
from symgrad.ir.zeros import KnownZeros


def _step(rng, pool):
    """One random op on the pool's tensors (symgrad's own functions, traced)."""
    t = pool[rng.integers(len(pool))]
    kind = rng.integers(12)
    if t.ndim != 2:
        return t.reshape(t.shape[0], -1) if t.ndim > 2 else t.reshape(1, -1)
    r, c = t.shape
    if kind == 0:
        return sg.tril(t, int(rng.integers(-2, 3)))
    if kind == 1:
        return sg.triu(t, int(rng.integers(-2, 3)))
    if kind == 2:
        return t.T
    if kind == 3:
        return t.reshape(c, r)
    if kind == 4 and r > 1:
        lo = int(rng.integers(r - 1))
        return t[lo:lo + 1 + int(rng.integers(r - lo - 1))]
    if kind == 5:
        mask = rng.random((r, c)) < 0.6
        return sg.where(sg.as_tensor(mask), t, 0.0)
    if kind == 6:                              # index assignment into zeros
        z = sg.zeros((r, c), dtype=t.dtype)
        rows = rng.integers(r, size=4)
        cols = rng.integers(c, size=4)
        z[rows, cols] = t[rows, cols] * 2.0
        return z
    if kind == 7:
        u = pool[rng.integers(len(pool))]
        if u.shape == t.shape:
            return (t + u) if rng.random() < 0.5 else (t - u)
        return -t
    if kind == 8:
        u = pool[rng.integers(len(pool))]
        return t * u if u.shape == t.shape else abs(t)
    if kind == 9:
        return sg.nn.functional.pad(t, (int(rng.integers(3)), 1, 0, int(rng.integers(2))))
    if kind == 10:
        return sg.cat([t, t[:1]], 0)
    return t[:, rng.integers(c, size=c)]       # a gather of columns at a constant index


def _program(seed: int):
    def f(x, y):
        rng = np.random.default_rng(seed)
        pool = [x, y]
        for _ in range(9):
            pool.append(_step(rng, pool))
        return tuple(p @ p.T if p.ndim == 2 and rng.random() < 0.3 else p for p in pool[-3:])
    return f


def _evaluate(graph, args, poison=None) -> dict:
    env = dict(zip(graph.inputs, args))
    for n in graph.nodes():
        if n not in env:
            env[n] = constant(n) if n.op == "const" else \
                numpy_node(n, [env[i] for i in n.inputs])
        if poison is not None and n is poison[0]:
            env[n] = np.where(poison[1], env[n], np.nan)
    return env


def _inputs(rng):
    x, y = rng.standard_normal((5, 6)), rng.standard_normal((6, 6))
    x[rng.integers(5), rng.integers(6)] = np.inf
    y[rng.integers(6), rng.integers(6)] = np.nan
    return [x, y]


def test_known_zeros_are_zero_and_unused_elements_change_nothing():
    found = {"zeros": 0, "unused": 0}
    for seed in range(60):
        rng = np.random.default_rng(1000 + seed)
        args = _inputs(rng)
        graph = sg.inspect(_program(seed), *args, print_=False).optimized_graph
        zeros, nodes = KnownZeros(), graph.nodes()
        used = UsedElements(consumers(nodes), set(graph.values))
        with np.errstate(all="ignore"):
            env = _evaluate(graph, args)
            outputs = [env[v] for v in graph.values]
            for n in nodes:
                maybe = zeros.of(n)
                if maybe is not None:
                    assert (env[n][~maybe] == 0).all(), (n.op, seed)
                    found["zeros"] += int((~maybe).sum())
                mask = used.of(n)
                if mask is None or n.dtype.np.kind != "f":
                    continue
                found["unused"] += int((~mask).sum())
                poisoned = _evaluate(graph, args, (n, mask))
                for v, want in zip(graph.values, outputs):
                    np.testing.assert_array_equal(poisoned[v], want, err_msg=f"{n.op} {seed}")
    # (not vacuous: the programs' tril, triu, masks, pads and index assignments)
    assert found["zeros"] > 5000 and found["unused"] > 2000, found


def test_the_analyses_find_triangles():
    a = np.ones((6, 6))
    graph = sg.inspect(lambda a: (sg.tril(a) @ a, sg.triu(a @ a.T, 1)), a,
                       print_=False).optimized_graph
    products = [n for n in graph.nodes() if n.op == "matmul"]
    zeros = KnownZeros()
    used = UsedElements(consumers(graph.nodes()), set(graph.values))
    assert sorted(filter(None, (zeros.triangle(p.inputs[0]) for p in products))) == ["lower"]
    assert sorted(filter(None, (used.triangle(p) for p in products))) == ["upper"]
