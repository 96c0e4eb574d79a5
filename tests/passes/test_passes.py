"""The optimization passes.

Generically: for every pass of ``PIPELINE`` and ``FAST_MATH_PIPELINE`` (and both pipelines
whole), the verifier accepts its output and the NumPy interpreter gives the same values before
and after on a corpus of traced functions. Then golden before/after IR, one test per pass and
per rule: the expected texts below were written by working out what the rule must do, and
each golden test also checks the values on inputs full of signed zeros, Inf and NaN.
"""

import importlib
from fractions import Fraction

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from symgrad import dtypes
from symgrad.ir import Graph, Node, VerificationError, format_graph, interpret, verify
from symgrad.ops import get
from symgrad.passes import FAST_MATH_PIPELINE, PIPELINE
from symgrad.passes.fast_math import apply_fast_math as fast_math
from symgrad.passes.fold_constants import fold_constants
from symgrad.passes.identities import apply_identities
from symgrad.pipeline import optimize


def run_pipeline(graph, passes=PIPELINE):
    return optimize(graph, passes)[0]


simplify = apply_identities

CORPUS = {
    "seed": (lambda x: (3 * (x + 2) ** 2).mean(), [(2, 2)]),
    "logreg": (lambda w, b, x: F.binary_cross_entropy_with_logits(x @ w + b, x[:, :3] * 0.0),
               [(4, 3), (3,), (5, 4)]),
    "identities": (lambda x: (((x * 1.0) / 1.0 - 0.0 + (-(-x)) * -1.0).T.T.reshape(6)  # noqa: B002
                              .reshape(2, 3) ** 2).sum(), [(2, 3)]),
    "mlp": (lambda w1, w2, x: F.cross_entropy(sg.tanh(x @ w1) @ w2, sg.tensor([0, 2, 1])),
            [(4, 5), (5, 3), (3, 4)]),
    "reductions": (lambda x: sg.logsumexp(x, 1).sum() + x.max() * x.prod() + x.norm(),
                   [(3, 4)]),
    # the gradient sums broadcast seeds back over the broadcast dims: sum(expand(1.0))
    "broadcasts": (lambda x, y: ((x + y) * y).sum() + sg.broadcast_to(x, (2, 3, 4)).sum(0)
                   .mean(), [(3, 1), (1, 4)]),
    "fast_math": (lambda x: (sg.log(sg.exp(x)) * 2.0 * 3.0 + 1.0 + 2.0 - x / 3.0
                             + sg.exp(sg.log(x)) / 4.0).sum(), [(2, 3)]),
}

PASSES = list(dict.fromkeys(PIPELINE + FAST_MATH_PIPELINE))   # each pass once, in order
EXACT = set(PIPELINE)        # bit-identical up to the rounding of sum_of_broadcast (see below)


def _graph(name, grad: bool):
    fn, shapes = CORPUS[name]
    rng = np.random.default_rng(7)
    args = [rng.uniform(0.5, 1.5, s) for s in shapes]
    cf = sg.value_and_grad(fn, argnums=tuple(range(len(args)))) if grad else sg.compile(fn)
    return _trace(cf, *args), args


def _trace(cf, *args):
    return cf.trace(*args).graph


def _check_values(before, after, args, exact: bool):
    for a, b in zip(interpret(before, args), interpret(after, args)):
        if exact:
            # sum_of_broadcast turns x + x + ... into n * x. The corpus sums 2 or 3 copies
            # of an input, where (x + x) + x rounds once, as 3 * x does, and 8 copies of the
            # constant 1/12, where both happen to agree: bit for bit here too.
            np.testing.assert_array_equal(a, b)
            _assert_same_zero_signs(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-300)


def _assert_same_zero_signs(a, b):
    """Sign bits agree (so -0.0 stays -0.0), except on NaN: IEEE 754 does not specify the
    sign of a NaN that arithmetic returns (x * -1 keeps it on x86, neg flips it)."""
    if a.dtype.kind == "f":
        keep = ~np.isnan(a)
        assert np.array_equal(np.signbit(a[keep]), np.signbit(b[keep])), (a, b)


@pytest.mark.parametrize("grad", [False, True], ids=["value", "value_and_grad"])
@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("pass_", PASSES, ids=[p.__name__ for p in PASSES])
def test_pass_preserves_values_and_types(name, grad, pass_):
    graph, args = _graph(name, grad)
    verify(graph)
    after = pass_(graph)
    verify(after)
    _check_values(graph, after, args, exact=pass_ in EXACT)


@pytest.mark.parametrize("grad", [False, True], ids=["value", "value_and_grad"])
@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("pipeline", [PIPELINE, FAST_MATH_PIPELINE],
                         ids=["PIPELINE", "FAST_MATH_PIPELINE"])
def test_pipeline_preserves_values_and_types(name, grad, pipeline):
    graph, args = _graph(name, grad)
    after, stages = optimize(graph, pipeline)
    for _, g in stages:
        verify(g)
    verify(after)
    _check_values(graph, after, args, exact=pipeline is PIPELINE)


def test_the_fast_math_corpus_entry_is_only_rewritten_under_fast_math():
    graph, _ = _graph("fast_math", grad=False)
    plain = format_graph(run_pipeline(graph, PIPELINE))
    fast = format_graph(run_pipeline(graph, FAST_MATH_PIPELINE))
    assert " log " in plain and " exp " in plain and " div " in plain
    assert " log " not in fast and " exp " not in fast and " div " not in fast, fast


def test_the_broadcasts_corpus_entry_exercises_the_new_rules():
    graph, _ = _graph("broadcasts", grad=True)
    text = format_graph(run_pipeline(graph, PIPELINE))
    assert "= mul y 3.0" in text                       # sum_of_broadcast of y over 3 rows
    assert "= expand [shape_to=(3,4)] y" in text       # mul_by_one, broadcasting y
    assert "1.0" not in text                           # no seed is left


def test_identities_are_removed_and_counted():
    graph, _ = _graph("identities", grad=False)
    after, stages = optimize(graph, PIPELINE)
    changed = [title.split()[1] for title, _ in stages]     # "after <pass> (a -> b nodes)"
    text = format_graph(after)
    # -(-x) * -1 is one negation, which x + (-x) then subtracts (x - x is not 0: inf, nan)
    assert " neg " not in text and "sub x x" in text, text
    for op in (" permute ", "shape_to=(6,)", "shape_to=(2,3)", " div ", " pow "):
        assert op not in text, text
    assert "apply_identities" in changed and len(after.nodes()) < len(graph.nodes())


def test_constant_folding_folds_broadcast_scalars():
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
    x = Node("input", (("index", 0), ("name", "x")), (), dtypes.float64, (2,))
    zero = Node("const", (("value", 0.0),), (), dtypes.float64, ())
    g = Graph((x,), (Node("add", (), (x, zero), dtypes.float64, (2,)),))
    # x + 0 is not x for x = -0.0, so it must stay
    assert simplify(g).outputs == g.outputs
    out = interpret(simplify(g), [np.array([-0.0, 1.0])])[0]
    assert not np.signbit(out[0])


def test_verifier_rejects_a_bad_node():
    x = Node("input", (("index", 0), ("name", "x")), (), dtypes.float32, (2, 3))
    bad = Node("sum", (("axes", (0,)),), (x,), dtypes.float32, (3,))  # keepdim says (1, 3)
    with pytest.raises(VerificationError, match="sum: recorded shape"):
        verify(Graph((x,), (bad,)))


# ----------------------------------------------------------------------------- goldens
# Small graphs built node by node (types from the ops' own rules), printed before and after.

F64, I64 = dtypes.float64, dtypes.int64
SPECIALS = np.array([-0.0, 0.0, 0.1, -2.5, 3.0, 1e-310, -1.7e308, np.inf, -np.inf, np.nan])


def _in(name, shape, dtype=F64, index=0):
    return Node("input", (("index", index), ("name", name)), (), dtype, shape)


def _c(value, dtype=F64):
    return Node("const", (("value", value),), (), dtype, ())


def _op(name, *inputs, **attrs):
    op = get(name)
    shape = op.shape(*[i.shape for i in inputs], **attrs)
    dtype = op.dtype(*[i.dtype for i in inputs], **attrs)
    return Node(name, tuple(attrs.items()), inputs, dtype, shape)


def _golden(pass_, graph, before: str, after: str, exact: bool = True) -> Graph:
    """Check the text before and after ``pass_``, the verifier, and the values on inputs
    drawn from SPECIALS (signed zeros, subnormals, huge values, Inf, NaN)."""
    assert format_graph(graph) == before
    out = pass_(graph)
    assert format_graph(out) == after
    verify(out)
    rng = np.random.default_rng(0)
    for _ in range(20):
        args = [rng.choice(SPECIALS, size=i.shape).astype(i.dtype.np) if i.dtype.is_floating
                else rng.integers(-5, 5, size=i.shape) for i in graph.inputs]
        for a, b in zip(interpret(graph, args), interpret(out, args)):
            if exact:
                np.testing.assert_array_equal(a, b)
                _assert_same_zero_signs(a, b)
    return out


def test_golden_fold_constants():
    x = _in("x", (3,))
    graph = Graph((x,), (_op("mul", x, _op("add", _op("expand", _c(2.0), shape_to=(3,)),
                                           _c(1.0))),))
    _golden(fold_constants, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = expand [shape_to=(3,)] 2.0
    b:f64[3] = add a 1.0
    c:f64[3] = mul x b
  in (c) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = expand [shape_to=(3,)] 3.0
    b:f64[3] = mul x a
  in (b) }""")


def test_golden_mul_by_one():
    # x * 1, 1 * x with the one broadcast (as the adjoint's seeds are), and y[1] * ones[3],
    # which is y broadcast (a view, no multiplication)
    x, y = _in("x", (3,)), _in("y", (1,), index=1)
    ones = _op("expand", _c(1.0), shape_to=(3,))
    graph = Graph((x, y), (_op("mul", x, _c(1.0)), _op("mul", ones, x), _op("mul", y, ones)))
    _golden(simplify, graph, """\
{ lambda x:f64[3] y:f64[1] .
    a:f64[3] = mul x 1.0
    b:f64[3] = expand [shape_to=(3,)] 1.0
    c:f64[3] = mul b x
    d:f64[3] = mul y b
  in (a, c, d) }""", """\
{ lambda x:f64[3] y:f64[1] .
    a:f64[3] = expand [shape_to=(3,)] y
  in (x, x, a) }""")


def test_golden_gradient_barrier():
    # detach inside a loop body, a custom Function's result there: the value itself
    x = _in("x", (3,))
    graph = Graph((x,), (_op("mul", _op("stop_gradient", x), _op("no_derivative", x)),))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = stop_gradient x
    b:f64[3] = no_derivative x
    c:f64[3] = mul a b
  in (c) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = mul x x
  in (a) }""")


def test_golden_div_by_one():
    x = _in("x", (3,))
    graph = Graph((x,), (_op("div", x, _c(1.0)),
                         _op("div", x, _op("expand", _c(1.0), shape_to=(3,))),
                         _op("div", _c(1.0), x)))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = div x 1.0
    b:f64[3] = expand [shape_to=(3,)] 1.0
    c:f64[3] = div x b
    d:f64[3] = div 1.0 x
  in (a, c, d) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = div 1.0 x
  in (x, x, a) }""")


def test_golden_sub_zero():
    # x - (+0.0) is x; x - (-0.0) is x + 0.0, which turns -0.0 into +0.0: it stays
    x = _in("x", (3,))
    graph = Graph((x,), (_op("sub", x, _c(0.0)),
                         _op("sub", x, _op("expand", _c(0.0), shape_to=(3,))),
                         _op("sub", x, _c(-0.0)), _op("sub", _c(0.0), x)))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = sub x 0.0
    b:f64[3] = expand [shape_to=(3,)] 0.0
    c:f64[3] = sub x b
    d:f64[3] = sub x -0.0
    e:f64[3] = sub 0.0 x
  in (a, c, d, e) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = sub x -0.0
    b:f64[3] = sub 0.0 x
  in (x, x, a, b) }""")


def test_golden_mul_by_minus_one():
    # both products become the same neg node (interning: CSE)
    x = _in("x", (3,))
    graph = Graph((x,), (_op("mul", x, _c(-1.0)),
                         _op("mul", _op("expand", _c(-1.0), shape_to=(3,)), x)))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = mul x -1.0
    b:f64[3] = expand [shape_to=(3,)] -1.0
    c:f64[3] = mul b x
  in (a, c) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = neg x
  in (a, a) }""")


def test_golden_double_negation():
    x = _in("x", (3,))
    n2 = _op("neg", _op("neg", x))
    graph = Graph((x,), (n2, _op("neg", n2)))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = neg x
    b:f64[3] = neg a
    c:f64[3] = neg b
  in (b, c) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = neg x
  in (x, a) }""")


def test_golden_pow_small_integer():
    x = _in("x", (3,))
    graph = Graph((x,), tuple(_op("pow", x, _c(e)) for e in (1.0, 2.0, 3.0, -1.0, -2.0, 2.5)))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = pow x 1.0
    b:f64[3] = pow x 2.0
    c:f64[3] = pow x 3.0
    d:f64[3] = pow x -1.0
    e:f64[3] = pow x -2.0
    f:f64[3] = pow x 2.5
  in (a, b, c, d, e, f) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = mul x x
    b:f64[3] = mul a x
    c:f64[3] = expand [shape_to=(3,)] 1.0
    d:f64[3] = div c x
    e:f64[3] = div c a
    f:f64[3] = pow x 2.5
  in (x, a, b, d, e, f) }""")


def test_golden_negation_out_of_product():
    x, u = _in("x", (3,)), _in("u", (3,))
    graph = Graph((x, u), (_op("add", _op("mul", _op("neg", u), x), _op("mul", u, _op("neg", x))),))
    _golden(simplify, graph, """\
{ lambda x:f64[3] u:f64[3] .
    a:f64[3] = neg u
    b:f64[3] = mul a x
    c:f64[3] = neg x
    d:f64[3] = mul u c
    e:f64[3] = add b d
  in (e) }""", """\
{ lambda x:f64[3] u:f64[3] .
    a:f64[3] = mul u x
    b:f64[3] = neg a
    c:f64[3] = mul b 2.0
  in (c) }""")


def test_golden_subtract_negation():
    x, y = _in("x", (3,)), _in("y", (2, 3))
    graph = Graph((x, y), (_op("add", x, _op("neg", y)), _op("add", _op("neg", x), y),
                           _op("sub", y, _op("neg", x))))
    _golden(simplify, graph, """\
{ lambda x:f64[3] y:f64[2,3] .
    a:f64[2,3] = neg y
    b:f64[2,3] = add x a
    c:f64[3] = neg x
    d:f64[2,3] = add c y
    e:f64[2,3] = sub y c
  in (b, d, e) }""", """\
{ lambda x:f64[3] y:f64[2,3] .
    a:f64[2,3] = sub x y
    b:f64[2,3] = sub y x
    c:f64[2,3] = add y x
  in (a, b, c) }""")


def test_golden_double():
    x = _in("x", (3,))
    graph = Graph((x,), (_op("add", x, x),))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = add x x
  in (a) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = mul x 2.0
  in (a) }""")


def test_golden_pow_small_integer_zero():
    x = _in("x", (3,))
    graph = Graph((x,), (_op("pow", x, _c(0.0)),))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:f64[3] = pow x 0.0
  in (a) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = expand [shape_to=(3,)] 1.0
  in (a) }""")


def test_golden_outer_product():
    a, b = _in("a", (2, 4, 1)), _in("b", (2, 1, 3))
    graph = Graph((a, b), (_op("matmul", a, b),))
    _golden(simplify, graph, """\
{ lambda a:f64[2,4,1] b:f64[2,1,3] .
    c:f64[2,4,3] = matmul a b
  in (c) }""", """\
{ lambda a:f64[2,4,1] b:f64[2,1,3] .
    c:f64[2,4,3] = mul a b
  in (c) }""", exact=False)


def test_golden_extremum_at_its_index():
    # over a leading axis: the reduction (the compiled one keeps the first of equal values,
    # as the gather does: tests/codegen); over the last axis the gather stays
    x = _in("x", (3, 4))
    lead, last = _op("argmin", x, axis=0), _op("argmax", x, axis=1)
    graph = Graph((x,), (_op("gather", x, lead, axis=0), _op("gather", x, last, axis=1)))
    _golden(simplify, graph, """\
{ lambda x:f64[3,4] .
    a:i64[1,4] = argmin [axis=0] x
    b:f64[1,4] = gather [axis=0] x a
    c:i64[3,1] = argmax [axis=1] x
    d:f64[3,1] = gather [axis=1] x c
  in (b, d) }""", """\
{ lambda x:f64[3,4] .
    a:f64[1,4] = min [axes=(0,)] x
    b:i64[3,1] = argmax [axis=1] x
    c:f64[3,1] = gather [axis=1] x b
  in (a, c) }""", exact=False)


def test_golden_gather_in_the_index_shape():
    # advanced indexing's gather (rows flattened, the index a column broadcast over the
    # rest) in the shape of its index and the rest: the same elements, read in place
    x, i = _in("x", (6, 2)), _in("i", (4, 3), I64, 1)
    lin = _op("remainder", i, _c(6, I64))
    col = _op("expand", _op("reshape", lin, shape_to=(12, 1)), shape_to=(12, 2))
    graph = Graph((x, i), (_op("reshape", _op("gather", x, col, axis=0), shape_to=(4, 3, 2)),))
    _golden(simplify, graph, """\
{ lambda x:f64[6,2] i:i64[4,3] .
    a:i64[4,3] = remainder i 6
    b:i64[12,1] = reshape [shape_to=(12,1)] a
    c:i64[12,2] = expand [shape_to=(12,2)] b
    d:f64[12,2] = gather [axis=0] x c
    e:f64[4,3,2] = reshape [shape_to=(4,3,2)] d
  in (e) }""", """\
{ lambda x:f64[6,2] i:i64[4,3] .
    a:f64[6,1,2] = reshape [shape_to=(6,1,2)] x
    b:f64[6,3,2] = expand [shape_to=(6,3,2)] a
    c:i64[4,3] = remainder i 6
    d:i64[4,3,1] = reshape [shape_to=(4,3,1)] c
    e:i64[4,3,2] = expand [shape_to=(4,3,2)] d
    f:f64[4,3,2] = gather [axis=0] b e
  in (f) }""")


def test_golden_identity_movement():
    x = _in("x", (2, 3))
    graph = Graph((x,), (_op("reshape", x, shape_to=(2, 3)), _op("expand", x, shape_to=(2, 3)),
                         _op("cast", x, dtype=F64), _op("permute", x, perm=(0, 1))))
    _golden(simplify, graph, """\
{ lambda x:f64[2,3] .
    a:f64[2,3] = reshape [shape_to=(2,3)] x
    b:f64[2,3] = expand [shape_to=(2,3)] x
    c:f64[2,3] = cast [dtype=float64] x
    d:f64[2,3] = permute [perm=(0,1)] x
  in (a, b, c, d) }""", """\
{ lambda x:f64[2,3] .
  in (x, x, x, x) }""")


def test_golden_reshape_chain():
    # the second chain ends at x's own shape: reshape_chain, then identity_movement
    x = _in("x", (2, 3))
    flat = _op("reshape", x, shape_to=(6,))
    graph = Graph((x,), (_op("reshape", flat, shape_to=(3, 2)),
                         _op("reshape", flat, shape_to=(2, 3))))
    _golden(simplify, graph, """\
{ lambda x:f64[2,3] .
    a:f64[6] = reshape [shape_to=(6,)] x
    b:f64[3,2] = reshape [shape_to=(3,2)] a
    c:f64[2,3] = reshape [shape_to=(2,3)] a
  in (b, c) }""", """\
{ lambda x:f64[2,3] .
    a:f64[3,2] = reshape [shape_to=(3,2)] x
  in (a, x) }""")


def test_golden_permute_chain():
    # (1,2,0) then (2,0,1) is the identity; (1,2,0) then (1,0,2) is (2,1,0)
    x = _in("x", (2, 3, 4))
    p = _op("permute", x, perm=(1, 2, 0))
    graph = Graph((x,), (_op("permute", p, perm=(2, 0, 1)), _op("permute", p, perm=(1, 0, 2))))
    _golden(simplify, graph, """\
{ lambda x:f64[2,3,4] .
    a:f64[3,4,2] = permute [perm=(1,2,0)] x
    b:f64[2,3,4] = permute [perm=(2,0,1)] a
    c:f64[4,3,2] = permute [perm=(1,0,2)] a
  in (b, c) }""", """\
{ lambda x:f64[2,3,4] .
    a:f64[4,3,2] = permute [perm=(2,1,0)] x
  in (x, a) }""")


def test_golden_slice_of_slice():
    # x[2::2][1::2] is x[4::4]: elements 4 and 8
    x = _in("x", (10,))
    inner = _op("slice", x, starts=(2,), steps=(2,), stops=(10,))
    graph = Graph((x,), (_op("slice", inner, starts=(1,), steps=(2,), stops=(4,)),))
    _golden(simplify, graph, """\
{ lambda x:f64[10] .
    a:f64[4] = slice [starts=(2,) steps=(2,) stops=(10,)] x
    b:f64[2] = slice [starts=(1,) steps=(2,) stops=(4,)] a
  in (b) }""", """\
{ lambda x:f64[10] .
    a:f64[2] = slice [starts=(4,) steps=(4,) stops=(9,)] x
  in (a) }""")


def test_golden_slice_of_cat():
    # columns 4:6 of [x | y] are columns 1:3 of y; columns 0:3 are x; 2:5 straddle both
    x, y = _in("x", (2, 3)), _in("y", (2, 4), index=1)
    c = _op("cat", x, y, axis=1)
    graph = Graph((x, y), tuple(_op("slice", c, starts=(0, lo), steps=(1, 1), stops=(2, hi))
                                for lo, hi in ((4, 6), (0, 3), (2, 5))))
    _golden(simplify, graph, """\
{ lambda x:f64[2,3] y:f64[2,4] .
    a:f64[2,7] = cat [axis=1] x y
    b:f64[2,2] = slice [starts=(0,4) steps=(1,1) stops=(2,6)] a
    c:f64[2,3] = slice [starts=(0,0) steps=(1,1) stops=(2,3)] a
    d:f64[2,3] = slice [starts=(0,2) steps=(1,1) stops=(2,5)] a
  in (b, c, d) }""", """\
{ lambda x:f64[2,3] y:f64[2,4] .
    a:f64[2,2] = slice [starts=(0,1) steps=(1,1) stops=(2,3)] y
    b:f64[2,7] = cat [axis=1] x y
    c:f64[2,3] = slice [starts=(0,2) steps=(1,1) stops=(2,5)] b
  in (a, x, c) }""")


def test_golden_transpose_of_transpose_from_the_front_end():
    # (larger than ir.provenance.LIMIT: the trace itself gives a small x.T.T as x)
    graph = _trace(sg.compile(lambda x: x.T.T), np.ones((2, 1024)))
    _golden(simplify, graph, """\
{ lambda x:f64[2,1024] .
    a:f64[1024,2] = permute [perm=(1,0)] x
    b:f64[2,1024] = permute [perm=(1,0)] a
  in (b) }""", """\
{ lambda x:f64[2,1024] .
  in (x) }""")


def test_golden_fold_constants_small_arrays():
    # jacfwd's identity seed (eq of two broadcast aranges) and a column sliced from it fold
    # to constant arrays; 81 elements (> SMALL) do not, nor do broadcasts of an array
    def arange(n):
        return Node("const", (("value", np.arange(n)),), (), I64, (n,))

    def outer_eq(a, n):
        return _op("eq", _op("expand", _op("reshape", a, shape_to=(n, 1)), shape_to=(n, n)),
                   _op("expand", _op("reshape", a, shape_to=(1, n)), shape_to=(n, n)))
    x = _in("x", (3, 3))
    eye = _op("cast", outer_eq(arange(3), 3), dtype=F64)
    first = _op("slice", eye, starts=(0, 0), stops=(3, 1), steps=(1, 1))
    graph = Graph((x,), (_op("mul", x, eye),
                         _op("mul", x, _op("expand", first, shape_to=(3, 3))),
                         outer_eq(arange(9), 9)))
    _golden(fold_constants, graph, """\
{ lambda x:f64[3,3] .
    a:i64[3] = const [value=[0 1 2]]
    b:i64[3,1] = reshape [shape_to=(3,1)] a
    c:i64[3,3] = expand [shape_to=(3,3)] b
    d:i64[1,3] = reshape [shape_to=(1,3)] a
    e:i64[3,3] = expand [shape_to=(3,3)] d
    f:bool[3,3] = eq c e
    g:f64[3,3] = cast [dtype=float64] f
    h:f64[3,3] = mul x g
    i:f64[3,1] = slice [starts=(0,0) stops=(3,1) steps=(1,1)] g
    j:f64[3,3] = expand [shape_to=(3,3)] i
    k:f64[3,3] = mul x j
    l:i64[9] = const [value=[0 1 2 3 4 5 ...]]
    m:i64[9,1] = reshape [shape_to=(9,1)] l
    n:i64[9,9] = expand [shape_to=(9,9)] m
    o:i64[1,9] = reshape [shape_to=(1,9)] l
    p:i64[9,9] = expand [shape_to=(9,9)] o
    q:bool[9,9] = eq n p
  in (h, k, q) }""", """\
{ lambda x:f64[3,3] .
    a:f64[3,3] = const [value=[1.0 0.0 0.0 0.0 1.0 0.0 ...]]
    b:f64[3,3] = mul x a
    c:f64[3,1] = const [value=[1.0 0.0 0.0]]
    d:f64[3,3] = expand [shape_to=(3,3)] c
    e:f64[3,3] = mul x d
    f:i64[9] = const [value=[0 1 2 3 4 5 ...]]
    g:i64[9,1] = reshape [shape_to=(9,1)] f
    h:i64[9,9] = expand [shape_to=(9,9)] g
    i:i64[1,9] = reshape [shape_to=(1,9)] f
    j:i64[9,9] = expand [shape_to=(9,9)] i
    k:bool[9,9] = eq h j
  in (b, e, k) }""")


def test_golden_fold_constants_moves_of_a_scalar():
    # the adjoint's seed expand(reshape(1.0)) and any move of a broadcast constant become
    # one expand of the 0-d constant (the reshape is then dead and dropped), so that the
    # seed's division by 12 folds too
    x = _in("x", (3,))
    two = _op("expand", _c(2.0), shape_to=(2, 3))
    seed = _op("expand", _op("reshape", _c(1.0), shape_to=(1,)), shape_to=(3,))
    graph = Graph((x,), (seed, _op("permute", two, perm=(1, 0)),
                         _op("reshape", two, shape_to=(6,)), _op("div", seed, _c(12.0))))
    _golden(fold_constants, graph, """\
{ lambda x:f64[3] .
    a:f64[1] = reshape [shape_to=(1,)] 1.0
    b:f64[3] = expand [shape_to=(3,)] a
    c:f64[2,3] = expand [shape_to=(2,3)] 2.0
    d:f64[3,2] = permute [perm=(1,0)] c
    e:f64[6] = reshape [shape_to=(6,)] c
    f:f64[3] = div b 12.0
  in (b, d, e, f) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = expand [shape_to=(3,)] 1.0
    b:f64[3,2] = expand [shape_to=(3,2)] 2.0
    c:f64[6] = expand [shape_to=(6,)] 2.0
    d:f64[3] = expand [shape_to=(3,)] 0.08333333333333333
  in (a, b, c, d) }""")


def test_golden_sum_of_broadcast():
    # over a missing leading dim (x), over a size-1 dim (y), and over a size-1 dim while
    # another broadcast dim is kept (z): the kept one is expanded after the multiplication
    x, y, z = _in("x", (3,)), _in("y", (2, 1), index=1), _in("z", (1, 3), index=2)
    graph = Graph((x, y, z), (
        _op("sum", _op("expand", x, shape_to=(4, 3)), axes=(0,)),
        _op("sum", _op("expand", y, shape_to=(2, 5)), axes=(1,)),
        _op("sum", _op("expand", z, shape_to=(2, 4, 3)), axes=(1,))))
    _golden(simplify, graph, """\
{ lambda x:f64[3] y:f64[2,1] z:f64[1,3] .
    a:f64[4,3] = expand [shape_to=(4,3)] x
    b:f64[1,3] = sum [axes=(0,)] a
    c:f64[2,5] = expand [shape_to=(2,5)] y
    d:f64[2,1] = sum [axes=(1,)] c
    e:f64[2,4,3] = expand [shape_to=(2,4,3)] z
    f:f64[2,1,3] = sum [axes=(1,)] e
  in (b, d, f) }""", """\
{ lambda x:f64[3] y:f64[2,1] z:f64[1,3] .
    a:f64[1,3] = reshape [shape_to=(1,3)] x
    b:f64[1,3] = mul a 4.0
    c:f64[2,1] = mul y 5.0
    d:f64[1,1,3] = reshape [shape_to=(1,1,3)] z
    e:f64[1,1,3] = mul d 4.0
    f:f64[2,1,3] = expand [shape_to=(2,1,3)] e
  in (b, c, f) }""", exact=False)   # a correctly rounded n*x, not x+x+...: see below


def test_golden_sum_of_broadcast_leaves_other_sums():
    # a sum over an axis x really has, over that and a broadcast one, and an integer sum
    x, i = _in("x", (3,)), _in("i", (3,), I64, index=1)
    wide = _op("expand", x, shape_to=(4, 3))
    graph = Graph((x, i), (_op("sum", wide, axes=(1,)), _op("sum", wide, axes=(0, 1)),
                           _op("sum", _op("expand", i, shape_to=(4, 3)), axes=(0,))))
    text = """\
{ lambda x:f64[3] i:i64[3] .
    a:f64[4,3] = expand [shape_to=(4,3)] x
    b:f64[4,1] = sum [axes=(1,)] a
    c:f64[1,1] = sum [axes=(0,1)] a
    d:i64[4,3] = expand [shape_to=(4,3)] i
    e:i64[1,3] = sum [axes=(0,)] d
  in (b, c, e) }"""
    _golden(simplify, graph, text, text)


def test_sum_of_broadcast_is_the_correctly_rounded_sum():
    # ten copies of 0.1 add up to 0.9999999999999999 one by one; the exact sum
    # 10 * 0.1000000000000000055... rounds to 1.0, which is what the rewrite computes
    x = _in("x", (1,))
    graph = Graph((x,), (_op("sum", _op("expand", x, shape_to=(10,)), axes=(0,)),))
    after = simplify(graph)
    assert format_graph(after) == """\
{ lambda x:f64[1] .
    a:f64[1] = mul x 10.0
  in (a) }"""
    repeated = 0.0
    for _ in range(10):
        repeated += 0.1
    assert repeated == 0.9999999999999999
    assert interpret(after, [np.array([0.1])])[0][0] == float(Fraction(0.1) * 10) == 1.0
    rng = np.random.default_rng(1)
    for v in rng.normal(size=200):
        assert interpret(after, [np.array([v])])[0][0] == float(Fraction(v) * 10)


def test_golden_where_same_branches():
    # where(c, s, s) is s; the comparison it read is dead and dropped by the rebuild (DCE)
    x = _in("x", (3,))
    s = _op("sin", x)
    graph = Graph((x,), (_op("where", _op("gt", x, _c(0.0)), s, s),))
    _golden(simplify, graph, """\
{ lambda x:f64[3] .
    a:bool[3] = gt x 0.0
    b:f64[3] = sin x
    c:f64[3] = where a b b
  in (c) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = sin x
  in (a) }""")


def test_golden_where_constant_condition():
    # the chosen branch is broadcast to the result's shape when it is narrower (y)
    x, y = _in("x", (3,)), _in("y", (1,), index=1)
    true, false = _c(True, dtypes.bool_), _c(False, dtypes.bool_)
    graph = Graph((x, y), (_op("where", true, x, y), _op("where", false, x, y),
                           _op("where", _op("expand", false, shape_to=(3,)), y, x)))
    _golden(simplify, graph, """\
{ lambda x:f64[3] y:f64[1] .
    a:f64[3] = where True x y
    b:f64[3] = where False x y
    c:bool[3] = expand [shape_to=(3,)] False
    d:f64[3] = where c y x
  in (a, b, d) }""", """\
{ lambda x:f64[3] y:f64[1] .
    a:f64[3] = expand [shape_to=(3,)] y
  in (x, a, x) }""")


def test_every_rule_has_a_golden_test_and_a_docstring():
    goldens = [name for name in globals() if name.startswith("test_golden_")]
    for module in ("symgrad.passes.identities", "symgrad.passes.fast_math"):
        module = importlib.import_module(module)
        for rule in module.RULES:
            assert any(rule.__name__ in name for name in goldens), rule.__name__
            assert rule.__doc__, f"{rule.__name__} says nothing about (in)exactness"


# ----------------------------------------------------------------------------- CSE and DCE

def test_golden_cse_the_backward_of_tanh_reuses_the_forward_tanh():
    vg = sg.value_and_grad(lambda x: sg.tanh(x).sum())
    graph = _trace(vg, np.ones(3))
    after = _golden(lambda g: run_pipeline(g, PIPELINE), graph, """\
{ lambda x:f64[3] .
    a:f64[3] = tanh x
    b:f64[1] = sum [axes=(0,)] a
    c:f64[] = reshape [shape_to=()] b
    d:f64[1] = reshape [shape_to=(1,)] 1.0
    e:f64[3] = expand [shape_to=(3,)] d
    f:f64[3] = mul a a
    g:f64[3] = sub 1.0 f
    h:f64[3] = mul e g
  in (c, h) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = tanh x
    b:f64[1] = sum [axes=(0,)] a
    c:f64[] = reshape [shape_to=()] b
    d:f64[3] = mul a a
    e:f64[3] = sub 1.0 d
  in (c, e) }""")
    assert [n.op for n in after.nodes()].count("tanh") == 1
    x = np.array([-0.5, 0.0, 2.0])
    value, g = vg(x)
    np.testing.assert_allclose(value, np.tanh(x).sum(), rtol=1e-15)
    np.testing.assert_allclose(g, 1 - np.tanh(x) ** 2, rtol=1e-15)


def test_cse_by_interning_one_node_for_a_repeated_expression():
    graph = _trace(sg.compile(lambda x: sg.tanh(x) * sg.tanh(x)), np.ones(3))
    assert format_graph(graph) == """\
{ lambda x:f64[3] .
    a:f64[3] = tanh x
    b:f64[3] = mul a a
  in (b) }"""


def test_golden_dce_grad_only_drops_forward_values():
    # the forward's sin and sum are not needed for the gradient: the traced adjoint graph
    # (rebuilt from its outputs) has none; the seed multiplication folds away; C has no
    # (1.0)* left
    g = sg.grad(lambda x: sg.sin(x).sum())
    graph = _trace(g, np.ones(3))
    after = _golden(lambda gr: run_pipeline(gr, PIPELINE), graph, """\
{ lambda x:f64[3] .
    a:f64[1] = reshape [shape_to=(1,)] 1.0
    b:f64[3] = expand [shape_to=(3,)] a
    c:f64[3] = cos x
    d:f64[3] = mul b c
  in (d) }""", """\
{ lambda x:f64[3] .
    a:f64[3] = cos x
  in (a) }""")
    assert "sin" not in format_graph(after)
    rep = sg.inspect(g, np.ones(3), print_=False)
    assert " sin " in rep.traced_ir                 # the forward had it
    assert rep.optimized_ir == format_graph(after)
    assert "(1.0)*" not in rep.c_source
    x = np.array([0.3, -1.0, 2.0])
    np.testing.assert_allclose(g(x), np.cos(x), rtol=1e-15)


# ----------------------------------------------------------------------------- fast math

def test_golden_log_of_exp_and_exp_of_log():
    x = _in("x", (3,))
    graph = Graph((x,), (_op("log", _op("exp", x)), _op("exp", _op("log", x))))
    before = """\
{ lambda x:f64[3] .
    a:f64[3] = exp x
    b:f64[3] = log a
    c:f64[3] = log x
    d:f64[3] = exp c
  in (b, d) }"""
    assert format_graph(simplify(graph)) == before       # not an exact identity
    _golden(fast_math, graph, before, """\
{ lambda x:f64[3] .
  in (x, x) }""", exact=False)
    # value-changing: exp(log(-1)) is NaN, the rewrite gives -1; log(exp(1000)) is Inf
    args = [np.array([-1.0, 1000.0, 0.5])]
    before_v, after_v = interpret(graph, args), interpret(fast_math(graph), args)
    assert np.isnan(before_v[1][0]) and after_v[1][0] == -1.0
    assert np.isinf(before_v[0][1]) and after_v[0][1] == 1000.0


def test_golden_add_zero():
    x = _in("x", (3,))
    graph = Graph((x,), (_op("add", x, _c(0.0)), _op("add", _c(-0.0), x)))
    before = """\
{ lambda x:f64[3] .
    a:f64[3] = add x 0.0
    b:f64[3] = add -0.0 x
  in (a, b) }"""
    assert format_graph(simplify(graph)) == before
    after = _golden(fast_math, graph, before, """\
{ lambda x:f64[3] .
  in (x, x) }""", exact=False)
    assert np.signbit(interpret(after, [np.array([-0.0, 1.0, 2.0])])[0][0])   # was +0.0


def test_golden_reassociate_mul():
    x = _in("x", (3,))
    b = _op("mul", _op("mul", x, _c(2.0)), _c(3.0))
    graph = Graph((x,), (b, _op("mul", _c(0.5), b)))
    before = """\
{ lambda x:f64[3] .
    a:f64[3] = mul x 2.0
    b:f64[3] = mul a 3.0
    c:f64[3] = mul 0.5 b
  in (b, c) }"""
    assert format_graph(simplify(graph)) == before
    _golden(fast_math, graph, before, """\
{ lambda x:f64[3] .
    a:f64[3] = mul x 6.0
    b:f64[3] = mul x 3.0
  in (a, b) }""", exact=False)


def test_golden_reassociate_add():
    # 0.1 + 0.2 folds to 0.30000000000000004; (x + 1) + -1 becomes x + 0, then x (add_zero)
    x = _in("x", (3,))
    graph = Graph((x,), (_op("add", _op("add", x, _c(0.1)), _c(0.2)),
                         _op("add", _op("add", x, _c(1.0)), _c(-1.0))))
    before = """\
{ lambda x:f64[3] .
    a:f64[3] = add x 0.1
    b:f64[3] = add a 0.2
    c:f64[3] = add x 1.0
    d:f64[3] = add c -1.0
  in (b, d) }"""
    assert format_graph(simplify(graph)) == before
    after = _golden(fast_math, graph, before, """\
{ lambda x:f64[3] .
    a:f64[3] = add x 0.30000000000000004
  in (a, x) }""", exact=False)
    args = [np.array([1e-20, 0.0, 0.0])]
    assert interpret(graph, args)[1][0] == 0.0 and interpret(after, args)[1][0] == 1e-20


def test_golden_div_by_const():
    # by 4 the reciprocal is exact, by 3 it is rounded; never by 0, never c / x
    x = _in("x", (3,))
    graph = Graph((x,), (_op("div", x, _c(4.0)), _op("div", x, _c(3.0)),
                         _op("div", x, _c(0.0)), _op("div", _c(2.0), x)))
    before = """\
{ lambda x:f64[3] .
    a:f64[3] = div x 4.0
    b:f64[3] = div x 3.0
    c:f64[3] = div x 0.0
    d:f64[3] = div 2.0 x
  in (a, b, c, d) }"""
    assert format_graph(simplify(graph)) == before
    _golden(fast_math, graph, before, """\
{ lambda x:f64[3] .
    a:f64[3] = mul x 0.25
    b:f64[3] = mul x 0.3333333333333333
    c:f64[3] = div x 0.0
    d:f64[3] = div 2.0 x
  in (a, b, c, d) }""", exact=False)


def test_fast_math_compiles_log_exp_away():
    def f(x):
        return sg.log(sg.exp(x)) * 2.0

    x = np.array([-1.5, 0.25, 3.0])
    fast, plain = sg.compile(f, fast_math=True), sg.compile(f)
    assert fast.fast_math and not plain.fast_math
    fast_ir = sg.inspect(fast, x, print_=False).optimized_ir
    plain_ir = sg.inspect(plain, x, print_=False).optimized_ir
    assert " log " not in fast_ir and " exp " not in fast_ir, fast_ir
    assert " log " in plain_ir and " exp " in plain_ir, plain_ir
    np.testing.assert_array_equal(fast(x), x * 2.0)            # what is left: one multiply
    # NumPy's exp and log (and the C's, possibly vectorized) each round: a few ulps apart
    np.testing.assert_allclose(fast(x), np.log(np.exp(x)) * 2.0, rtol=1e-14)
    np.testing.assert_allclose(plain(x), np.log(np.exp(x)) * 2.0, rtol=1e-14)


def test_fast_math_results_stay_close_to_ieee():
    def f(x, y):
        return ((sg.log(sg.exp(x)) * 3.0 * 0.7 + 1.0 + 0.1) / 3.0 * sg.exp(sg.log(y))
                + x / 7.0).sum()

    rng = np.random.default_rng(3)
    x, y = rng.uniform(-2, 2, (4, 5)), rng.uniform(0.5, 2, (4, 5))
    for make in (sg.compile, lambda fn, **kw: sg.value_and_grad(fn, argnums=(0, 1), **kw),
                 lambda fn, **kw: sg.grad(fn, argnums=(0, 1), **kw)):
        fast, plain = make(f, fast_math=True), make(f)
        assert fast.fast_math and not plain.fast_math
        a, b = fast(x, y), plain(x, y)
        for u, v in zip(_leaves(a), _leaves(b)):
            np.testing.assert_allclose(u, v, rtol=1e-12, atol=0)
        assert fast.c_source != plain.c_source


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        return [x for t in tree for x in _leaves(t)]
    return [np.asarray(tree)]


def test_fast_math_flag_is_kept_through_decorators_and_transforms():
    @sg.compile(fast_math=True)
    def f(x):
        return sg.exp(sg.log(x)).sum()

    assert f.fast_math
    assert sg.grad(f).fast_math and sg.value_and_grad(f).fast_math
    assert not sg.grad(f.fn).fast_math
    rep = sg.inspect(sg.grad(f), np.ones(3), print_=False)
    assert any(title.startswith("after apply_fast_math (") for title, _ in rep.passes), rep.passes


# ----------------------------------------------------------------------------- inspect

def test_inspect_names_the_pass_and_its_node_counts():
    # x * 1.0 goes (the trace gives the double transpose of a small value as the value):
    # x, 1.0, mul, sum, reshape (5) become x, sum, reshape (3); fold_constants finds nothing,
    # so it has no stage
    rep = sg.inspect(lambda x: (x * 1.0).T.T.sum(), np.ones((2, 3)), print_=False)
    assert [title for title, _ in rep.passes] == ["after apply_identities (5 -> 3 nodes)"]
    assert rep.passes[0][1] == """\
{ lambda x:f64[2,3] .
    a:f64[1,1] = sum [axes=(0,1)] x
    b:f64[] = reshape [shape_to=()] a
  in (b) }"""
    assert "===== after apply_identities (5 -> 3 nodes) =====\n{ lambda x:f64[2,3] ." in str(rep)


def test_with_inputs_interns_as_node_does():
    """``ir.with_inputs``, the rewrites' way to remake a node over rewritten inputs, gives the
    node ``Node(op, attrs, inputs, dtype, shape)`` gives, whichever of the two makes it first,
    also for attributes that need a key (a ``Size``, -0.0 and 0.0, True and 1)."""
    from symgrad.ir import with_inputs
    from symgrad.size import Size
    f64 = dtypes.float64
    x, y, z = (Node("input", (("index", k), ("name", n)), (), f64, (2, 3))
               for k, n in enumerate("xyz"))
    made = [Node("neg", (), (x,), f64, (2, 3)), Node("mul", (), (x, y), f64, (2, 3)),
            Node("reshape", (("shape_to", Size((6,))),), (x,), f64, (6,)),
            Node("scaled", (("by", -0.0),), (x,), f64, (2, 3)),
            Node("scaled", (("by", 0.0),), (x,), f64, (2, 3)),
            Node("flagged", (("on", True), ("at", (1, 2))), (x,), f64, (2, 3)),
            Node("flagged", (("on", 1), ("at", (1, 2))), (x,), f64, (2, 3))]
    assert len(set(made)) == len(made)
    for n in made:
        first = tuple(y if i is x else z for i in n.inputs)
        assert with_inputs(n, first) is Node(n.op, n.attrs, first, n.dtype, n.shape)
        second = tuple(z if i is x else x for i in n.inputs)
        remade = Node(n.op, n.attrs, second, n.dtype, n.shape)
        assert with_inputs(n, second) is remade
        assert with_inputs(remade, n.inputs) is n


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_a_rebuild_that_changes_nothing_is_the_full_rebuild(name):
    """``rewrite.rebuild`` skips the walk when the node function changes nothing: its graph is
    the one the walk makes (nodes, order and the side table of lines, in its order)."""
    from symgrad.passes import rewrite
    graph, _ = _graph(name, True)
    fast = rewrite.rebuild(graph, lambda n: n)
    full = rewrite._rebuild(graph, graph.nodes(), set(), lambda n: n, None)
    assert fast.outputs == full.outputs == graph.outputs
    assert fast.nodes() == full.nodes()
    assert list(fast.locs.items()) == list(full.locs.items())


def test_golden_one_hot_product_one_hot_sum():
    # M = -one_hot(a, l): column i holds -a[i] at row l[i]; M @ B adds -a[i] B[i] into row
    # l[i], sum(M, 1) adds -a[i]: scatters of n rows, no k x n matrix
    a, b = _in("a", (1, 5)), _in("b", (5, 2))
    lt = _op("argmin", _in("x", (3, 5)), axis=0)
    m = _op("neg", _op("scatter_add", a, lt, axis=0, shape_to=(3, 5)))
    graph = Graph((a, b, lt.inputs[0]), (_op("matmul", m, b), _op("sum", m, axes=(1,))))
    _golden(simplify, graph, """\
{ lambda a:f64[1,5] b:f64[5,2] x:f64[3,5] .
    c:i64[1,5] = argmin [axis=0] x
    d:f64[3,5] = scatter_add [axis=0 shape_to=(3,5)] a c
    e:f64[3,5] = neg d
    f:f64[3,2] = matmul e b
    g:f64[3,1] = sum [axes=(1,)] e
  in (f, g) }""", """\
{ lambda a:f64[1,5] b:f64[5,2] x:f64[3,5] .
    c:f64[5,1] = reshape [shape_to=(5,1)] a
    d:f64[5,2] = mul c b
    e:i64[1,5] = argmin [axis=0] x
    f:i64[5,1] = reshape [shape_to=(5,1)] e
    g:i64[5,2] = expand [shape_to=(5,2)] f
    h:f64[3,2] = scatter_add [axis=0 shape_to=(3,2)] d g
    i:f64[3,2] = neg h
    j:f64[3,1] = scatter_add [axis=0 shape_to=(3,1)] c f
    k:f64[3,1] = neg j
  in (i, k) }""", exact=False)


def test_one_hot_rules_keep_k_means_newton_step():
    """k-means' Newton direction (jvp of grad): the gradient of min(0).values is a one-hot
    matrix, multiplied by the points and summed; with the scatters, each centroid's step is
    still minus its offset from its cluster's mean (J = 2 (count C - sum P), H = 2 count)."""
    rng = np.random.default_rng(3)
    points = rng.random((400, 3))
    centroids = points[-6:].copy()

    def cost(p, c):
        dists = (p ** 2).sum(1)[None, :] + (c ** 2).sum(1)[:, None] - 2 * c @ p.T
        return dists.min(0).values.sum()
    step = sg.compile(lambda p, c: sg.jvp(lambda c: sg.grad(cost, argnums=1)(p, c), (c,),
                                           (sg.ones_like(c),)))
    J, H = step(points, centroids)
    nearest = ((points[:, None, :] - centroids[None]) ** 2).sum(2).argmin(1)
    count = np.bincount(nearest, minlength=6)[:, None]
    sums = np.zeros_like(centroids)
    np.add.at(sums, nearest, points)
    np.testing.assert_allclose(J, 2 * (count * centroids - sums), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(H, np.broadcast_to(2.0 * count, H.shape), rtol=1e-14)
    assert "matmul [6, 400] @" not in step.c_source and "scatter_add" in step.c_source
