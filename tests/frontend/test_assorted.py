"""Stacking, atleast_nd, block_diag, kron, cartesian_prod, rot90, vander, unflatten, ravel,
select, broadcasting and dtype questions, the addmm family, mv/vdot/inner/matrix_power,
cross, masked_scatter, and the value-dependent functions (nonzero, argwhere, unique,
unique_consecutive, bincount, histc) with bucketize/searchsorted: values against NumPy,
gradients against central finite differences (eagerly and compiled), torch's values,
gradients and grad_fn names, and clear errors (inside a compiled function too)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import symgrad as sg
from references import central_differences, gradient

RNG = np.random.default_rng(5)
M = RNG.standard_normal((3, 4))
S = RNG.standard_normal((3, 3))
V = RNG.standard_normal(3)
W = RNG.standard_normal(4)
T = RNG.standard_normal((2, 3, 4))
U = RNG.standard_normal((2, 4, 3))
K = np.array([[1, 2, 0], [0, 2, 2], [3, 1, 2]])


def _block_diag(*blocks):
    blocks = [np.atleast_2d(b) for b in blocks]
    out = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)))
    r = c = 0
    for b in blocks:
        out[r:r + b.shape[0], c:c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    return out


def _masked_scatter(x, mask, src):
    out = x.copy()
    out[np.broadcast_to(mask, x.shape)] = src.ravel()[:np.broadcast_to(mask, x.shape).sum()]
    return out


MASK = np.array([True, False, True, True])

VALUE_CASES = [
    ("sg.hstack([m, m[:, :1]])", lambda: np.hstack([M, M[:, :1]])),
    ("sg.hstack((v, w))", lambda: np.hstack([V, W])),
    ("sg.vstack([m, w])", lambda: np.vstack([M, W])),
    ("sg.row_stack([w, w])", lambda: np.vstack([W, W])),
    ("sg.dstack([m, m])", lambda: np.dstack([M, M])),
    ("sg.column_stack([v, m[:, :2], v])", lambda: np.column_stack([V, M[:, :2], V])),
    ("sg.atleast_1d(v[0])", lambda: np.atleast_1d(V[0])),
    ("sg.atleast_2d(v)", lambda: np.atleast_2d(V)),
    ("sg.atleast_3d(m)", lambda: np.atleast_3d(M)),
    ("sg.atleast_3d(v)", lambda: np.atleast_3d(V)),
    ("sg.block_diag(m, v, v[0])", lambda: _block_diag(M, V, V[0])),
    ("sg.kron(m, s)", lambda: np.kron(M, S)),
    ("sg.kron(v, m)", lambda: np.kron(V, M)),
    ("sg.kron(t, s)", lambda: np.kron(T, S)),
    ("sg.cartesian_prod(v, w)", lambda: np.array(list(itertools.product(V, W)))),
    ("sg.rot90(m)", lambda: np.rot90(M)),
    ("sg.rot90(m, 2)", lambda: np.rot90(M, 2)),
    ("m.rot90(-1)", lambda: np.rot90(M, -1)),
    ("sg.rot90(t, 3, [2, 0])", lambda: np.rot90(T, 3, (2, 0))),
    ("sg.vander(v)", lambda: np.vander(V)),
    ("sg.vander(v, 5, increasing=True)", lambda: np.vander(V, 5, increasing=True)),
    ("sg.vander(k[0], 4)", lambda: np.vander(K[0], 4)),
    ("t.unflatten(2, (2, -1))", lambda: T.reshape(2, 3, 2, 2)),
    ("t.ravel()", lambda: T.ravel()),
    ("sg.select(t, 1, -1)", lambda: T[:, -1]),
    ("sg.broadcast_tensors(m, w)[1]", lambda: np.broadcast_arrays(M, W)[1]),
    ("sg.addmm(m[:, :3], m, t[0].t(), beta=0.5, alpha=2)",
     lambda: 0.5 * M[:, :3] + 2 * M @ T[0].T),
    ("sg.addmm(v, m, t[1].t())", lambda: V + M @ T[1].T),
    ("sg.addmv(v, m, w, alpha=-1)", lambda: V - M @ W),
    ("sg.addbmm(s, t, u, beta=0)", lambda: (T @ U).sum(0)),
    ("sg.baddbmm(s, t, u, beta=2)", lambda: 2 * S + T @ U),
    ("sg.mv(m, w)", lambda: M @ W),
    ("m.mv(w)", lambda: M @ W),
    ("sg.vdot(v, v)", lambda: np.vdot(V, V)),
    ("sg.inner(m, t)", lambda: np.inner(M, T)),
    ("sg.inner(v, 2.0)", lambda: np.inner(V, 2.0)),
    ("sg.matrix_power(s, 5)", lambda: np.linalg.matrix_power(S, 5)),
    ("s.matrix_power(0)", lambda: np.eye(3)),
    ("sg.matrix_power(k, 6)", lambda: np.linalg.matrix_power(K, 6)),
    ("sg.matrix_power(sg.stack([s, s.t()]), 3)",
     lambda: np.linalg.matrix_power(np.stack([S, S.T]), 3)),
    ("sg.cross(s, m[:, :3], dim=1)", lambda: np.cross(S, M[:, :3], axis=1)),
    ("sg.cross(s, s.t(), 0)", lambda: np.cross(S, S.T, axis=0)),
    ("sg.masked_scatter(m, sg.tensor(mask), s)", lambda: _masked_scatter(M, MASK, S)),
    ("m.masked_scatter(m > 0, t)", lambda: _masked_scatter(M, M > 0, T)),
]


def _env(lib):
    env = {k: lib.tensor(v) for k, v in (("m", M), ("s", S), ("v", V), ("w", W), ("t", T),
                                         ("u", U), ("k", K))}
    return dict(env, sg=lib, mask=MASK)


@pytest.mark.parametrize("expr,want", VALUE_CASES, ids=[c[0] for c in VALUE_CASES])
def test_values_against_numpy(expr, want):
    got = eval(expr, _env(sg))
    expected = np.asarray(want())
    assert tuple(got.shape) == expected.shape
    assert got.dtype.np == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_compiled_values_equal_eager():
    names = ("m", "s", "v", "w", "t", "u", "k")
    env = _env(sg)
    cases = [c for c, _ in VALUE_CASES]

    def run(*ts):
        local = dict(zip(names, ts), sg=sg, mask=MASK)
        return tuple(eval(c, local) for c in cases)
    args = [env[n] for n in names]
    for case, want, got in zip(cases, run(*args), sg.compile(run)(*args)):
        np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-12, atol=1e-12,
                                   err_msg=case)


GRAD_CASES = [
    "sg.hstack([x, x[:, :2] ** 2])", "sg.vstack([x, x[0]])", "sg.dstack([x, x * 3])",
    "sg.column_stack([x[0], x.t()])", "sg.block_diag(x, x[0] ** 2, x[1, 1])",
    "sg.kron(x[:2, :2], x[1:])", "sg.cartesian_prod(x[0], x[1] ** 2)", "sg.rot90(x, 1)",
    "sg.rot90(x, 3, (1, 0))",
    "sg.addmm(x[:, :2], x, x.t()[:, :2] * x[0, 1], beta=-0.5, alpha=1.5)",
    "sg.addmv(x[0, :3], x, x[1], beta=2)",
    "sg.addbmm(x[:, :3], sg.stack([x, x]), sg.stack([x.t(), x.t() ** 2]))",
    "sg.baddbmm(x[:3, :3], x.unsqueeze(0), x.t().unsqueeze(0))",
    "sg.mv(x, x[2])", "sg.vdot(x[0], x[1])", "sg.inner(x, x[:2])", "sg.matrix_power(x[:, :3], 4)",
    "sg.cross(x[:, :3], x[:, 1:], dim=1)", "sg.masked_scatter(x, x > 0.3, x.t() ** 2)",
    "sg.unflatten(x, 1, (2, 2)).sum(1)", "sg.select(x, 1, 2) * x.ravel()[:3]",
]


@pytest.mark.parametrize("expr", GRAD_CASES)
@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_gradients_against_finite_differences(expr, how):
    x0 = np.round(RNG.standard_normal((3, 4)), 2) + 0.003 * np.arange(12).reshape(3, 4)
    w = RNG.standard_normal(eval(expr, {"sg": sg, "x": sg.tensor(x0)}).shape)

    def f(x):
        return (sg.sin(eval(expr, {"sg": sg, "x": x})) * sg.tensor(w)).sum()
    np.testing.assert_allclose(gradient(f, x0, how), central_differences(f, x0), rtol=1e-6,
                               atol=1e-8)


@pytest.mark.parametrize("expr", ["sg.vander(x[0], 4)", "sg.vander(x[1] * 0, 3)",
                                  "sg.vander(x[0], 2, increasing=True)"])
def test_vander_backward_raises_as_torch(expr):
    """torch cannot differentiate vander (its backward trips over its own in-place steps):
    symgrad computes the value and raises torch's RuntimeError in backward."""
    x = sg.tensor(np.arange(12.0).reshape(3, 4) / 7, requires_grad=True)
    y = eval(expr, {"sg": sg, "x": x})
    np.testing.assert_allclose(y.detach().numpy(), eval(expr.replace("sg.vander", "_np_vander"), {
        "_np_vander": lambda v, n, increasing=False: np.vander(v.detach().numpy(), n,
                                                              increasing=increasing),
        "x": x}))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


TORCH_CASES = [
    ("torch.hstack([m, m])", "CatBackward0"), ("torch.vstack([v, v])", "CatBackward0"),
    ("torch.column_stack([v, v])", "CatBackward0"), ("torch.atleast_2d(v)", "UnsqueezeBackward0"),
    ("torch.atleast_3d(m)", "UnsqueezeBackward0"),
    ("torch.block_diag(m, v)", "BlockDiagBackward0"), ("torch.kron(m, s)", "UnsafeViewBackward0"),
    ("torch.cartesian_prod(v, w)", "StackBackward0"), ("torch.rot90(m)", "Rot90Backward0"),
    ("torch.rot90(m, 2, (1, 0))", "Rot90Backward0"),
    ("m.unflatten(1, (2, 2))", "ViewBackward0"), ("m.ravel()", "ViewBackward0"),
    ("m.select(1, 2)", "SelectBackward0"), ("torch.broadcast_tensors(m, w)[1]", "ExpandBackward0"),
    ("torch.addmm(s, m, m.t(), beta=0.5, alpha=2)", "AddmmBackward0"),
    ("torch.addmv(v, m, w)", "AddmvBackward0"), ("torch.addbmm(s, t, u)", "AddbmmBackward0"),
    ("torch.baddbmm(s, t, u, alpha=3)", "BaddbmmBackward0"), ("torch.mv(m, w)", "MvBackward0"),
    ("torch.vdot(v, v)", "VdotBackward0"), ("torch.inner(m, m)", None),
    ("torch.matrix_power(s, 3)", "MmBackward0"), ("torch.matrix_power(s, 1)", "CloneBackward0"),
    ("torch.matrix_power(s, 0)", "CopyBackwards"),
    ("torch.cross(s, m[:, 1:], dim=1)", "LinalgCrossBackward0"),
    ("m.masked_scatter(m > 0, t)", "MaskedScatterBackward0"),
    ("m.masked_scatter(torch.tensor([True, False, False, True]), s)", "MaskedScatterBackward0"),
]


@pytest.mark.parametrize("expr,name", TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_values_gradients_and_grad_fns_match_torch(expr, name):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (torch, sg):
        env = {k: lib.tensor(v, requires_grad=True) for k, v in
               (("m", M), ("s", S), ("v", V), ("w", W), ("t", T), ("u", U))}
        out = eval(expr, dict(env, torch=lib))
        (out * out).sum().backward()
        results.append((out.detach().numpy(), [env[k].grad for k in sorted(env)],
                        type(out.grad_fn).__name__))
    (a, ga, na), (b, gb, nb) = results
    np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-12)
    for p, q in zip(ga, gb):
        assert (p is None) == (q is None)
        if p is not None:
            np.testing.assert_allclose(q.numpy(), p.numpy(), rtol=1e-10, atol=1e-12)
    if name is not None:
        assert na == nb == name


def test_dtype_questions_match_torch():
    torch = pytest.importorskip("torch")
    kinds = ("float32", "float64", "int64", "bool")
    for a, b in itertools.product(kinds, repeat=2):
        ta, tb = getattr(torch, a), getattr(torch, b)
        sa, sb = sg.dtypes.from_name(a), sg.dtypes.from_name(b)
        assert sg.promote_types(sa, sb).name == str(torch.promote_types(ta, tb))[6:]
        assert sg.can_cast(sa, sb) == torch.can_cast(ta, tb)
    operands = [lambda lib: lib.ones(2, dtype=lib.float32), lambda lib: lib.tensor(1.0,
                dtype=lib.float64), lambda lib: lib.tensor([1, 2]), lambda lib: 2.5,
                lambda lib: 3, lambda lib: lib.tensor(True)]
    for p, q in itertools.product(operands, repeat=2):
        assert sg.result_type(p(sg), q(sg)).name == str(torch.result_type(p(torch),
                                                                          q(torch)))[6:]
    for shapes in [((2, 1), (3,)), (5, (1, 5)), ((0, 1), (1, 3)), ((),)]:
        assert sg.broadcast_shapes(*shapes) == torch.broadcast_shapes(*shapes)
    assert sg.is_nonzero(sg.tensor([0.5])) and not sg.tensor(0).is_nonzero()


# ---------------------------------------------------------------- value-dependent results

F = np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
R = np.array([3, 1, 3, 2, 1, 1, 5])
Q = np.array([[1, 2], [1, 2], [0, 5], [1, 2]])
H = np.array([1.0, 2.0, 1.0, 7.0, 8.0, -1.0, 2.5, 3.0])
SEQ = np.array([-1.0, 0.0, 0.5, 2.0, 2.0, 3.0])
ROWS = np.array([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])


def _runs(a, axis=None):
    """unique_consecutive written out: (values, inverse, counts)."""
    items = list(a.ravel()) if axis is None else [tuple(r) for r in a]
    values, inverse, counts = [], [], []
    for item in items:
        if not values or item != values[-1]:
            values.append(item)
            counts.append(0)
        counts[-1] += 1
        inverse.append(len(values) - 1)
    return np.array(values), np.array(inverse), np.array(counts)


EAGER_CASES = [
    ("sg.nonzero(f)", lambda: np.argwhere(F)),
    ("f.nonzero(as_tuple=True)[1]", lambda: np.nonzero(F)[1]),
    ("sg.argwhere(f > 0)", lambda: np.argwhere(F > 0)),
    ("sg.nonzero(sg.tensor(3.0))", lambda: np.zeros((1, 0), np.int64)),
    ("sg.unique(r)", lambda: np.unique(R)),
    ("sg.unique(r, return_inverse=True)[1]", lambda: np.unique(R, return_inverse=True)[1]),
    ("r.unique(return_counts=True)[1]", lambda: np.unique(R, return_counts=True)[1]),
    ("sg.unique(q, dim=0, return_inverse=True, return_counts=True)[0]",
     lambda: np.unique(Q, axis=0)),
    ("sg.unique(q, dim=0, return_inverse=True, return_counts=True)[2]",
     lambda: np.unique(Q, axis=0, return_counts=True)[1]),
    ("sg.unique_consecutive(r)", lambda: _runs(R)[0]),
    ("sg.unique_consecutive(r, return_inverse=True, return_counts=True)[1]",
     lambda: _runs(R)[1]),
    ("sg.unique_consecutive(r, return_counts=True)[1]", lambda: _runs(R)[2]),
    ("sg.unique_consecutive(q, dim=0, return_counts=True)[1]", lambda: _runs(Q, 0)[2]),
    ("sg.bincount(r)", lambda: np.bincount(R)),
    ("sg.bincount(r, minlength=9)", lambda: np.bincount(R, minlength=9)),
    ("sg.bincount(r, weights=h[:7])", lambda: np.bincount(R, weights=H[:7])),
    ("sg.histc(h, bins=4, min=0, max=8)", lambda: np.histogram(H[(H >= 0) & (H <= 8)], 4,
                                                               (0, 8))[0].astype(float)),
    ("sg.histc(h, 5)", lambda: np.histogram(H, 5)[0].astype(float)),
    ("sg.bucketize(h, seq)", lambda: np.searchsorted(SEQ, H, side="left")),
    ("sg.bucketize(h, seq, right=True)", lambda: np.searchsorted(SEQ, H, side="right")),
    ("sg.searchsorted(seq, h.reshape(2, 4), side='right')",
     lambda: np.searchsorted(SEQ, H.reshape(2, 4), side="right")),
    ("sg.searchsorted(rows, sg.tensor([[3.0, 7.0], [0.0, 4.0]]))",
     lambda: np.array([[1, 3], [0, 1]])),
    (("sg.searchsorted(sg.tensor([5.0, 1.0, 3.0]), sg.tensor([3.0, 4.0]), "
      "sorter=sg.tensor([1, 2, 0]))"), lambda: np.array([1, 2])),
]


@pytest.mark.parametrize("expr,want", EAGER_CASES, ids=[c[0] for c in EAGER_CASES])
def test_value_dependent_functions_against_numpy(expr, want):
    env = {"sg": sg, "f": sg.tensor(F), "r": sg.tensor(R), "q": sg.tensor(Q),
           "h": sg.tensor(H), "seq": sg.tensor(SEQ), "rows": sg.tensor(ROWS)}
    got, expected = eval(expr, env), np.asarray(want())
    assert got.dtype.np == expected.dtype and tuple(got.shape) == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("expr", [c for c, _ in EAGER_CASES])
def test_value_dependent_functions_match_torch(expr):
    torch = pytest.importorskip("torch")
    got = []
    for lib in (torch, sg):
        env = {"sg": lib, "f": lib.tensor(F), "r": lib.tensor(R), "q": lib.tensor(Q),
               "h": lib.tensor(H), "seq": lib.tensor(SEQ), "rows": lib.tensor(ROWS)}
        got.append(eval(expr, env).numpy())
    np.testing.assert_array_equal(got[1], got[0])


def test_searching_compiles_and_agrees_with_the_eager_binary_search():
    f = sg.compile(lambda s, x, rows: (sg.bucketize(x, s), sg.searchsorted(s, x, right=True),
                                       sg.searchsorted(rows, sg.stack([x[:3], x[3:6]]))))
    seq, h, rows = sg.tensor(SEQ), sg.tensor(H), sg.tensor(ROWS)
    want = (sg.bucketize(h, seq), sg.searchsorted(seq, h, right=True),
            sg.searchsorted(rows, sg.stack([h[:3], h[3:6]])))
    for got, w in zip(f(seq, h, rows), want):
        np.testing.assert_array_equal(np.asarray(got), w.numpy())


@pytest.mark.parametrize("call,alternative", [
    ("sg.nonzero(a > 0)", "torch.where"), ("sg.argwhere(a)", "masked_fill"),
    ("sg.unique(a)", "outside the compiled function"),
    ("sg.unique_consecutive(a)", "outside the compiled function"),
    ("sg.bincount(a.long())", "scatter_add"), ("sg.histc(a)", "outside the compiled"),
])
def test_value_dependent_functions_inside_compile_name_the_alternative(call, alternative):
    with pytest.raises(sg.TracerValueError, match=alternative):
        sg.compile(lambda a: eval(call, {"sg": sg, "a": a}))(sg.tensor(F))


@pytest.mark.parametrize("call,error,match", [
    ("sg.hstack([])", RuntimeError, "non-empty TensorList"),
    ("sg.block_diag(t)", RuntimeError, "Input 0 has 3 dimensions"),
    ("sg.cartesian_prod(v, m)", RuntimeError, r"1D vector, but got shape \[3, 4\]"),
    ("sg.rot90(v)", RuntimeError, "total dims >= 2, but got total dims = 1"),
    ("sg.rot90(m, 1, (0, 0))", RuntimeError, "rotation dims to be different"),
    ("sg.rot90(m, 1, (0, 1, 2))", RuntimeError, "rotation dims == 2"),
    ("sg.vander(m)", RuntimeError, r"one-dimensional tensor \(got shape \[3, 4\]\)"),
    ("sg.vander(v, -1)", RuntimeError, "N must be non-negative"),
    ("m.unflatten(1, (3, 2))", RuntimeError,
     r"sizes \[3, 2\] don't multiply up to the size of dim 1 \(4\)"),
    ("m.select(1, 4)", IndexError, r"index 4 out of range .* size \[3, 4\] at dimension 1"),
    ("sg.broadcast_shapes((2, 3), (4,))", RuntimeError, "cannot be broadcast"),
    ("sg.is_nonzero(v)", RuntimeError, "more than one value is ambiguous"),
    ("sg.addmm(s, v, m)", RuntimeError, r"mat1 must be a matrix, got 1-D tensor of shape \[3\]"),
    ("sg.addmm(v[:2], s, m)", RuntimeError,
     r"input of shape \[2\] does not broadcast to .* \[3, 4\]"),
    ("sg.addmv(v, m, v)", RuntimeError, r"size mismatch, got input \(3\), mat \(3x4\), vec \(3\)"),
    ("sg.baddbmm(s, t, u[:1])", RuntimeError, "same number of batches, got 2 and 1"),
    ("sg.mv(m, m)", RuntimeError, "vector \\+ matrix @ vector expected, got 1, 2, 2"),
    ("sg.vdot(v, w)", RuntimeError, r"expected tensor \[3\] and src \[4\]"),
    ("sg.inner(m, v)", RuntimeError, r"last dimension must match .* \[3, 4\] and \[3\]"),
    ("sg.matrix_power(m, 2)", RuntimeError, "square matrices, but they are 3 by 4 matrices"),
    ("sg.cross(m, m, dim=1)", RuntimeError, "dimension 1 must have length 3. Got 4 and 4"),
    ("sg.cross(s, v)", RuntimeError, "same number of dimensions"),
    ("sg.masked_scatter(m, m > -9, s)", RuntimeError, "source has 9, mask 12"),
    ("sg.masked_scatter(m, m, s)", RuntimeError, "only supports boolean masks"),
    ("sg.bincount(sg.tensor([1, -1]))", RuntimeError, "non-negative integral"),
    ("sg.bincount(r, weights=v)", RuntimeError, r"\(weights shape \[3\], input \[7\]\)"),
    ("sg.histc(r)", NotImplementedError, "\"histogram_cpu\" not implemented for 'Long'"),
    ("sg.searchsorted(m, w)", RuntimeError,
     r"boundaries tensor \[3, 4\] and input value tensor \[4\]"),
    ("sg.searchsorted(v, w, right=True, side='left')", RuntimeError, "can't be set to opposites"),
    ("sg.bucketize(w, m)", RuntimeError, r"must be 1 dimension, but got dim\(2\)"),
])
def test_errors_name_the_argument_and_shapes(call, error, match):
    env = dict(_env(sg), r=sg.tensor(R))
    with pytest.raises(error, match=match):
        eval(call, env)


def test_where_with_one_argument_is_nonzero_as_tuple():
    x = np.array([[0.0, 1.5], [2.0, 0.0], [0.0, -3.0]])
    rows, cols = sg.where(sg.tensor(x) != 0)
    want_rows, want_cols = np.nonzero(x)
    np.testing.assert_array_equal(rows.numpy(), want_rows)
    np.testing.assert_array_equal(cols.numpy(), want_cols)
    picked = sg.where(sg.tensor(x) > 0, sg.tensor(x), 0.0)
    np.testing.assert_array_equal(picked.numpy(), np.where(x > 0, x, 0.0))
    with pytest.raises(TypeError, match="one argument"):
        sg.where(sg.tensor(x) > 0, sg.tensor(x))
