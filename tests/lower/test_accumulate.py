"""Accumulation chains (symgrad/lower/accumulate.py): sums of small windows lowered as in-place
additions into one buffer, checked against NumPy (hand-derived gradients), the interpreter and
the plan itself."""

import numpy as np

import symgrad as sg
from symgrad.ir import consumers, interpret
from symgrad.lower.accumulate import plan_chains
from symgrad.lower.loopir import ElementStmt, LoopKernel

from references import det_by_minors


def test_gradient_of_entry_reads_accumulates_into_the_output():
    n = 5
    x = np.random.default_rng(0).standard_normal(n * n)
    vg = sg.value_and_grad(det_by_minors(n))
    value, grad = vg(x)
    m = x.reshape(n, n)
    np.testing.assert_allclose(value, np.linalg.det(m), rtol=1e-12)
    # d det / d M = det(M) inv(M)^T (Jacobi's formula), derived independently of symgrad
    np.testing.assert_allclose(grad, (np.linalg.det(m) * np.linalg.inv(m).T).ravel(),
                               rtol=1e-10, atol=1e-12)
    program = vg.last_specialization.compiled.program
    steps = [k for k in program.kernels if isinstance(k, ElementStmt) and k.accumulate]
    # The program reads x[...] 325 times, but the reads of one entry are twins (frontend/core/
    # twins.py): their cotangents are summed first, and each entry is written once.
    reads = n * n
    assert len(steps) == reads - 1     # the first read is the chain's base (zeros + it)
    assert {k.target.buffer.role for k in steps} == {"output"}   # straight into the gradient
    assert all(k.target.buffer.size == n * n for k in steps)
    # no kernel loops over the whole gradient once per read
    loops = [k for k in program.kernels if isinstance(k, LoopKernel) and k.shape == (n * n,)]
    assert len(loops) <= 1, loops
    text = vg.c_source
    assert text.count(" += s") == reads - 1


def test_chain_plan_steps_roots_and_breaks():
    def f(x):
        a = x[0] * 2.0 + x[3] * x[1]      # reads: gradient chain of x (4 windows)
        return a

    x = np.arange(1.0, 7.0)
    traced = sg.value_and_grad(f).trace(x)
    g = traced.graph
    nodes = g.nodes()
    chains = plan_chains(nodes, consumers(nodes), set(g.outputs))
    steps = [n for n in nodes if chains.is_step(n)]
    assert steps and all(chains.contribution[n].op == "unslice" for n in steps)
    roots = {chains.root[n] for n in steps}
    assert len(roots) == 1 and next(iter(roots)) in g.outputs
    assert sum(chains.is_first(n) for n in steps) == 1
    # the interpreter agrees with the compiled gradient
    vg = sg.value_and_grad(f)
    value, grad = vg(x)
    want = interpret(traced.graph, [x])
    np.testing.assert_allclose(value, want[0])
    np.testing.assert_array_equal(grad, want[1])
    np.testing.assert_array_equal(grad, [2.0, x[3], 0, x[1], 0, 0])


def test_a_partial_sum_read_elsewhere_ends_its_chain():
    """A partial sum that is also read elsewhere ends its chain there; the gradients stay
    exact either way."""
    def vjp_of_reads(x):
        # writes into x's gradient through slices: the sum below is a chain in the adjoint
        return (x[:1] * 3.0).sum() + (x[1:2] * 5.0).sum() + (x[7:8] * 7.0).sum()

    x = np.arange(10.0)
    graph = sg.grad(vjp_of_reads).trace(x).graph
    nodes = graph.nodes()
    chains = plan_chains(nodes, consumers(nodes), set(graph.outputs))
    assert any(chains.is_step(n) for n in nodes)
    np.testing.assert_array_equal(sg.grad(vjp_of_reads)(x), [3, 5, 0, 0, 0, 0, 0, 7, 0, 0])

    def two_outputs(x):
        partial = (x[:1] * 3.0).sum() + (x[1:2] * 5.0).sum()
        return partial, (x[7:8] * 7.0).sum()

    for i, want in ((0, [3, 5, 0, 0, 0, 0, 0, 0, 0, 0]), (1, [0, 0, 0, 0, 0, 0, 0, 7, 0, 0])):
        got = sg.grad(lambda x: two_outputs(x)[i])(x)
        np.testing.assert_array_equal(got, want)


def test_large_windows_stay_fused_loops():
    """A window over more than half the array is not a step: its gradient stays one fused
    loop reading the window (as before chains existed)."""
    def f(x):
        return (x[1:] * x[:-1]).sum()

    x = np.linspace(-1.0, 1.0, 9)
    vg = sg.value_and_grad(f)
    value, grad = vg(x)
    want = np.zeros_like(x)
    want[1:] += x[:-1]
    want[:-1] += x[1:]
    np.testing.assert_allclose(value, np.sum(x[1:] * x[:-1]), rtol=1e-15)
    np.testing.assert_array_equal(grad, want)
    assert " += " not in vg.c_source and "? in0[" in vg.c_source


def test_windows_of_many_elements_accumulate_with_a_loop():
    """Column blocks of a matrix read through slices: each block adds in place (a loop over
    the block), the first one after zeros."""
    def f(a):
        return (a[:, :1] * 2.0).sum() + (a[:, 3:4] ** 2).sum() + (a[1:2, :] * 0.5).sum()

    a = np.random.default_rng(1).standard_normal((6, 8))
    vg = sg.value_and_grad(f)
    value, grad = vg(a)
    want = np.zeros_like(a)
    want[:, :1] += 2.0
    want[:, 3:4] += 2.0 * a[:, 3:4]
    want[1:2, :] += 0.5
    np.testing.assert_allclose(grad, want, rtol=1e-15)
    np.testing.assert_allclose(value, (a[:, :1] * 2).sum() + (a[:, 3:4] ** 2).sum()
                               + (a[1:2, :] * 0.5).sum(), rtol=1e-14)
    assert " += l0;" in vg.c_source


def _unslice(src, start):
    from symgrad.ir import Node
    return Node("unslice", (("shape_to", (10,)), ("starts", (start,)), ("steps", (1,)),
                            ("stops", (start + 1,))), (src,), sg.float64, (10,))


def test_chain_plan_on_a_graph():
    from symgrad.ir import Graph, Node
    f64 = sg.float64
    p0 = Node("input", (("index", 0), ("name", "p")), (), f64, (10,))
    a = Node("input", (("index", 1), ("name", "a")), (), f64, (1,))
    b = Node("input", (("index", 2), ("name", "b")), (), f64, (1,))
    s1 = Node("add", (), (p0, _unslice(a, 0)), f64, (10,))
    s2 = Node("add", (), (_unslice(b, 3), s1), f64, (10,))       # either operand order
    whole = Graph((p0, a, b), (s2,))
    nodes = whole.nodes()
    chains = plan_chains(nodes, consumers(nodes), set(whole.outputs))
    assert chains.root[s1] is s2 and chains.root[s2] is s2
    assert chains.is_first(s1) and not chains.is_first(s2)
    assert chains.previous[s2] is s1 and chains.contribution[s2].inputs[0] is b
    # s1 read by the caller as well: it ends a chain of its own, s2 starts another
    both = Graph((p0, a, b), (s1, s2))
    nodes = both.nodes()
    chains = plan_chains(nodes, consumers(nodes), set(both.outputs))
    assert chains.root[s1] is s1 and chains.root[s2] is s2 and chains.is_first(s2)
    # and the values, compiled from this graph, against the interpreter
    from symgrad.pipeline import compile_traced
    from symgrad.runtime import Specialization
    from symgrad.tracing import ArgSpec, Traced
    from symgrad.pytree import flatten
    args = [np.arange(10.0), np.array([-2.5]), np.array([4.0])]
    for graph in (whole, both):
        specs = [ArgSpec(n.shape, n.dtype, n.attr("name")) for n in graph.inputs]
        _, tree = flatten(tuple(range(len(graph.outputs))))
        spec = Specialization.of(compile_traced(Traced(graph, specs, tree), "chain",
                                                passes=[]))
        for got, want in zip(spec.run(args), interpret(graph, args)):
            np.testing.assert_array_equal(got, want)
