"""ir.walk: one skeleton for the four walkers (the NumPy interpreter, the guards' evaluator,
replay on tensors, vmap's batched replay), each control-flow application applied once; and
the printed IR shows every value an application produces."""

import numpy as np

import symgrad as sg
from symgrad.ir import Application, format_graph, interpret, walk


def _scanned(x):
    def step(c, u):
        return c * u + 1.0, (c * 2.0, c - u)
    c, (a, b) = sg.scan(step, x, sg.stack([x, x * 0.5, x + 1.0]))
    return b.sum()             # only one of the application's three values is read


def test_an_application_is_applied_once_and_every_binder_is_printed():
    x = np.array([0.5, -1.0])
    graph = sg.compile(_scanned).trace(x).graph
    scans = [n for n in graph.nodes() if n.op == "scan"]
    assert scans and {n.attr("index") for n in scans} <= {0, 1, 2}
    app = Application.of(scans[0])
    assert app.arity == 3 and "index" not in app.attrs and app.inputs == scans[0].inputs
    calls = []

    def application(a, ins):
        calls.append(a.key)
        return [f"v{k}" for k in range(a.arity)]
    env = walk(graph.nodes(), {i: "in" for i in graph.inputs}, lambda n, ins: n.op,
               application, lambda n: "const")
    assert len(calls) == 1
    assert all(env[n] == f"v{n.attr('index')}" for n in scans)
    line = next(t for t in format_graph(graph).splitlines() if "= scan" in t)
    assert len(line.split(" = ")[0].split()) == 3, line     # three binders, "_" if unread
    # and the interpreter (on the same skeleton) computes what NumPy does
    c, want = x.copy(), 0.0
    for u in (x, x * 0.5, x + 1.0):
        want += (c - u).sum()
        c = c * u + 1.0
    np.testing.assert_allclose(interpret(graph, [x])[0], want, rtol=1e-14)
