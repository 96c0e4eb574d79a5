"""Every optimization pass, generically: the verifier accepts its output and the NumPy
interpreter gives the same values before and after, on a corpus of traced functions."""

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from symgrad.interpret import interpret
from symgrad.ir import Node, format_graph
from symgrad.passes import PIPELINE, run_pipeline
from symgrad.passes.fold_constants import fold_constants
from symgrad.passes.simplify import simplify
from symgrad.verify import VerificationError, verify

CORPUS = {
    "seed": (lambda x: (3 * (x + 2) ** 2).mean(), [(2, 2)]),
    "logreg": (lambda w, b, x: F.binary_cross_entropy_with_logits(x @ w + b, x[:, :3] * 0.0),
               [(4, 3), (3,), (5, 4)]),
    "identities": (lambda x: (((x * 1.0) / 1.0 - 0.0 + (-(-x)) * -1.0).T.T.reshape(6)
                              .reshape(2, 3) ** 2).sum(), [(2, 3)]),
    "mlp": (lambda w1, w2, x: F.cross_entropy(sg.tanh(x @ w1) @ w2, sg.tensor([0, 2, 1])),
            [(4, 5), (5, 3), (3, 4)]),
    "reductions": (lambda x: sg.logsumexp(x, 1).sum() + x.max() * x.prod() + x.norm(),
                   [(3, 4)]),
}


def _graph(name, grad: bool):
    fn, shapes = CORPUS[name]
    rng = np.random.default_rng(7)
    args = [rng.uniform(0.5, 1.5, s) for s in shapes]
    cf = sg.value_and_grad(fn, argnums=tuple(range(len(args)))) if grad else sg.compile(fn)
    from symgrad.api import CompiledFunction
    statics, tree, leaves, names, rebuild = CompiledFunction._split(cf, tuple(args), {})
    from symgrad.trace import leaf_spec, trace
    traced = trace(cf.fn, [leaf_spec(v, n) for v, n in zip(leaves, names)], rebuild, cf.name)
    return traced.graph, args


@pytest.mark.parametrize("grad", [False, True], ids=["value", "value_and_grad"])
@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("pass_", PIPELINE, ids=[p.__name__ for p in PIPELINE])
def test_pass_preserves_values_and_types(name, grad, pass_):
    graph, args = _graph(name, grad)
    verify(graph)
    after = pass_(graph)
    verify(after)
    for a, b in zip(interpret(graph, args), interpret(after, args)):
        np.testing.assert_array_equal(a, b)     # the passes only do exact rewrites


def test_identities_are_removed_and_counted():
    graph, args = _graph("identities", grad=False)
    changed = []
    after = run_pipeline(graph, on_change=lambda n, b, a: changed.append(n))
    text = format_graph(after)
    assert text.count(" neg ") == 1           # -(-x) * -1 is one negation
    for op in (" permute ", "shape_to=(6,)", "shape_to=(2,3)", " div ", " pow "):
        assert op not in text, text
    assert "simplify" in changed and len(after.nodes()) < len(graph.nodes())


def test_constant_folding_folds_broadcast_scalars():
    from symgrad import dtypes
    from symgrad.ir import Graph
    x = Node("input", (("index", 0), ("name", "x")), (), dtypes.float32, (3,))
    one = Node("const", (("value", 1.0),), (), dtypes.float32, ())
    ones = Node("expand", (("shape_to", (3,)),), (one,), dtypes.float32, (3,))
    three = Node("const", (("value", 3.0),), (), dtypes.float32, ())
    third = Node("div", (), (ones, three), dtypes.float32, (3,))
    g = Graph((x,), (Node("mul", (), (x, third), dtypes.float32, (3,)),))
    folded = fold_constants(g)
    consts = [n.attr("value") for n in folded.nodes() if n.op == "const"]
    assert consts == [float(np.float32(1) / np.float32(3))]
    assert "div" not in format_graph(folded)


def test_simplify_keeps_signed_zero_semantics():
    from symgrad import dtypes
    from symgrad.ir import Graph
    x = Node("input", (("index", 0), ("name", "x")), (), dtypes.float64, (2,))
    zero = Node("const", (("value", 0.0),), (), dtypes.float64, ())
    g = Graph((x,), (Node("add", (), (x, zero), dtypes.float64, (2,)),))
    # x + 0 is not x for x = -0.0, so it must stay
    assert simplify(g).outputs == g.outputs
    out = interpret(simplify(g), [np.array([-0.0, 1.0])])[0]
    assert not np.signbit(out[0])


def test_verifier_rejects_a_bad_node():
    from symgrad import dtypes
    from symgrad.ir import Graph
    x = Node("input", (("index", 0), ("name", "x")), (), dtypes.float32, (2, 3))
    bad = Node("sum", (("axes", (0,)),), (x,), dtypes.float32, (3,))  # keepdim says (1, 3)
    with pytest.raises(VerificationError, match="sum: recorded shape"):
        verify(Graph((x,), (bad,)))
