"""The compile pipeline (symgrad/pipeline.py): what a ``Compiled`` record keeps and remakes."""

from __future__ import annotations

import numpy as np

import symgrad as sg
from symgrad import pipeline
from symgrad.codegen.c.module import generate


def _det3_gradient():
    def det(a):
        total = 0.0
        for j in range(3):
            cols = [c for c in range(3) if c != j]
            minor = a[1, cols[0]] * a[2, cols[1]] - a[1, cols[1]] * a[2, cols[0]]
            total = total + (-1) ** j * a[0, j] * minor
        return total
    return sg.value_and_grad(det), np.arange(9.0).reshape(3, 3) ** 1.5


def test_program_and_stages_are_remade_identically_on_demand():
    vg, a = _det3_gradient()
    spec, _ = vg.specialize(a)
    c = spec.compiled
    # The loop IR is not kept; made again, it generates the very C that was built.
    remade = generate(c.program, vg.name, title=f"{vg.name}: compiled by symgrad",
                      target=pipeline.target())
    assert remade.text == spec.c_source
    assert c.program is c.program            # made once, then kept
    # The IR after each pass, made again, ends at the optimized graph.
    titles = [t for t, _ in c.stages]
    assert titles and all(t.startswith("after ") for t in titles)
    assert c.stages[-1][1].outputs == c.graph.outputs
    assert pipeline.optimize(c.traced.graph, c.passes)[0].outputs == c.graph.outputs


def test_each_graph_names_the_lines_of_its_own_nodes_only():
    vg, a = _det3_gradient()
    c = vg.specialize(a)[0].compiled
    for _, graph in [("optimized", c.graph), *c.stages]:
        nodes = set(graph.nodes())
        assert set(graph.locs) <= nodes
        # every computed node of the optimized program still says which line made it
        computed = [n for n in nodes if n.op not in ("input", "const")]
        assert sum(n in graph.locs for n in computed) >= 0.9 * len(computed)
    value, grad = vg(a)
    np.testing.assert_allclose(value, np.linalg.det(a), rtol=1e-12)
    np.testing.assert_allclose(grad, np.linalg.det(a) * np.linalg.inv(a).T, rtol=1e-10)
