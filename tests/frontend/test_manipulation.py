"""flip/roll/repeat/split/diagonal/triangles/scatter...: values against NumPy's own functions,
gradients against central finite differences (eagerly and compiled), torch's results and
gradients when torch is installed."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from references import central_differences, gradient

X = np.arange(24.0).reshape(2, 3, 4)
M = np.arange(12.0).reshape(3, 4)
V = np.arange(1.0, 4.0)


def _scatter_add_np(m, idx, src):
    out = m.copy()
    for i in range(idx.shape[0]):
        for j in range(idx.shape[1]):
            out[i, idx[i, j]] += src[i, j]
    return out


NUMPY_CASES = [
    ("sg.flip(x, [0, 2])", lambda: np.flip(X, (0, 2))),
    ("sg.roll(x, (1, -2), (0, 2))", lambda: np.roll(X, (1, -2), (0, 2))),
    ("sg.roll(x, 5)", lambda: np.roll(X, 5)),
    ("x.repeat(2, 1, 3)", lambda: np.tile(X, (2, 1, 3))),
    ("sg.tile(m, (2,))", lambda: np.tile(M, (1, 2))),
    ("x.narrow(2, 1, 2)", lambda: X[:, :, 1:3]),
    ("sg.diagonal(x, 0, 1, 2)", lambda: np.diagonal(X, 0, 1, 2)),
    ("sg.diagonal(m, 1)", lambda: np.diagonal(M, 1)),
    ("sg.diagonal(m, -1)", lambda: np.diagonal(M, -1)),
    ("sg.diag(v, 1)", lambda: np.diag(V, 1)),
    ("sg.diag(v, -2)", lambda: np.diag(V, -2)),
    ("sg.diag_embed(m)", lambda: np.stack([np.diag(r) for r in M])),
    ("sg.trace(m)", lambda: np.trace(M)),
    ("sg.tril(x)", lambda: np.tril(X)),
    ("sg.triu(m, 1)", lambda: np.triu(M, 1)),
    ("sg.outer(v, v)", lambda: np.outer(V, V)),
    ("x.index_select(2, sg.tensor([3, 0, 3]))", lambda: X[:, :, [3, 0, 3]]),
    ("x.masked_fill(x > 5, -1.0)", lambda: np.where(X > 5, -1.0, X)),
    ("x.masked_select(x > 20)", lambda: X[X > 20]),
    ("sg.movedim(x, 0, -1)", lambda: np.moveaxis(X, 0, -1)),
    ("m.repeat_interleave(2, dim=0)", lambda: np.repeat(M, 2, axis=0)),
    ("sg.scatter_add(m, 1, sg.tensor([[0, 1], [2, 2], [3, 0]]), sg.ones(3, 2, dtype=sg.float64))",
     lambda: _scatter_add_np(M, np.array([[0, 1], [2, 2], [3, 0]]), np.ones((3, 2)))),
    ("m.index_add(0, sg.tensor([0, 2, 0]), sg.ones(3, 4, dtype=sg.float64), alpha=2)",
     lambda: M + np.array([[4.0] * 4, [0.0] * 4, [2.0] * 4])),
]


@pytest.mark.parametrize("expr,want", NUMPY_CASES, ids=[c[0] for c in NUMPY_CASES])
def test_values_against_numpy(expr, want):
    got = eval(expr, {"sg": sg, "x": sg.tensor(X), "m": sg.tensor(M), "v": sg.tensor(V)})
    np.testing.assert_array_equal(got.numpy(), want())


def test_pieces_against_numpy():
    x = sg.tensor(X)
    for got, want in zip(x.split([1, 3], 2), np.split(X, [1], 2)):
        np.testing.assert_array_equal(got.numpy(), want)
    assert [p.shape[2] for p in x.split(3, dim=2)] == [3, 1]
    assert [p.shape[2] for p in x.chunk(3, 2)] == [2, 2]
    for got, want in zip(x.unbind(1), [X[:, i] for i in range(3)]):
        np.testing.assert_array_equal(got.numpy(), want)
    for got, want in zip(sg.tensor_split(x, 3, dim=2), np.array_split(X, 3, 2)):
        np.testing.assert_array_equal(got.numpy(), want)


def test_scatter_replaces_and_in_place_forms():
    m = sg.tensor(M)
    out = sg.scatter(m, 0, sg.tensor([[2, 1, 0, 0]]), sg.zeros(1, 4, dtype=sg.float64))
    want = M.copy()
    want[2, 0] = want[1, 1] = want[0, 2] = want[0, 3] = 0
    np.testing.assert_array_equal(out.numpy(), want)
    m.masked_fill_(m > 9, 0.0)
    m.index_fill_(1, sg.tensor([0]), -1.0)
    want = np.where(M > 9, 0.0, M)
    want[:, 0] = -1
    np.testing.assert_array_equal(m.numpy(), want)


GRAD_CASES = ["sg.flip(x, [0, 1])", "sg.roll(x, (1, 2), (0, 1))", "x.repeat(2, 3)",
              "sg.diagonal(x, 1)", "sg.diag_embed(x)", "sg.tril(x, -1)", "sg.triu(x)",
              "sg.trace(x[:, :4])", "x.index_select(1, sg.tensor([4, 0, 4]))",
              "sg.scatter_add(x, 1, sg.tensor([[0, 0], [1, 4], [2, 2], [3, 1]]), x[:, 1:3])",
              "x.index_add(0, sg.tensor([1, 1]), x[:2] * x[2:], alpha=0.5)",
              "x.masked_fill(x > 0.5, 2.0)", "sg.outer(x[0], x[1])",
              "sg.cat(x.chunk(2, 1)[::-1], 1)"]


@pytest.mark.parametrize("expr", GRAD_CASES)
@pytest.mark.parametrize("compiled", [False, True])
def test_gradients_against_finite_differences(expr, compiled):
    rng = np.random.default_rng(3)
    x0 = rng.standard_normal((4, 5))
    w = rng.standard_normal(eval(expr, {"sg": sg, "x": sg.tensor(x0)}).shape)

    def f(x):
        return (sg.sin(eval(expr, {"sg": sg, "x": x})) * sg.tensor(w)).sum()

    got = gradient(f, x0, "compiled" if compiled else "eager")
    fd = central_differences(f, x0)
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-8)


def test_second_derivative_through_flip_and_roll():
    x0 = np.array([0.5, 1.0, 2.0])
    x = sg.tensor(x0, requires_grad=True)
    # flip gives [x2, x1, x0], roll by one [x0, x2, x1]: y = x0^3 + 2 x2^3 + 3 x1^3
    y = (sg.roll(sg.flip(x, [0]), 1, 0) ** 3 * sg.tensor([1.0, 2.0, 3.0])).sum()
    y.backward(create_graph=True)
    g = x.grad
    np.testing.assert_allclose(g.detach().numpy(), np.array([3.0, 9.0, 6.0]) * x0 ** 2)
    x.grad = None
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.array([6.0, 18.0, 12.0]) * x0)


def test_errors_name_the_problem():
    x = sg.tensor(M)
    with pytest.raises(RuntimeError, match="exceeds dimension size"):   # torch: RuntimeError
        x.narrow(1, 3, 2)
    with pytest.raises(RuntimeError, match="sum exactly to 4"):
        x.split([1, 2], 1)
    with pytest.raises(RuntimeError, match="only supports boolean masks"):
        x.masked_fill(sg.ones(3, 4), 0.0)
    with pytest.raises(RuntimeError, match="expected a matrix"):
        sg.trace(sg.tensor(X))
    # a masked selection a reduction consumes compiles; one whose size is needed does not
    total = sg.compile(lambda a: a.masked_select(a > 1).sum())(x)
    np.testing.assert_allclose(np.asarray(total), M[M > 1].sum())
    with pytest.raises(sg.TracerValueError, match="masked_fill|where"):
        sg.compile(lambda a: a.masked_select(a > 1) * 2)(x)


TORCH_CASES = [c for c, _ in NUMPY_CASES] + [
    "sg.diag(v)", "sg.diag(m)", "sg.tril(m, -1)", "sg.roll(x, 1, 2)", "x.flip(1)",
    "sg.scatter(m, 0, sg.tensor([[2, 1, 0, 0]]), sg.zeros(1, 4, dtype=sg.float64))",
    "m.index_fill(1, sg.tensor([1, 3]), -5.0)"]


@pytest.mark.parametrize("expr", TORCH_CASES)
def test_values_and_gradients_match_torch(expr):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (torch, sg):
        env = {"sg": lib, "x": lib.tensor(X, requires_grad=True),
               "m": lib.tensor(M, requires_grad=True), "v": lib.tensor(V, requires_grad=True)}
        out = eval(expr, env)
        (out * out).sum().backward()
        results.append((out.detach().numpy(), [env[k].grad for k in ("x", "m", "v")],
                        type(out.grad_fn).__name__ if out.grad_fn else None))
    (a, ga, na), (b, gb, nb) = results
    assert a.shape == b.shape and np.array_equal(a, b)
    for p, q in zip(ga, gb):
        assert (p is None) == (q is None)
        if p is not None:
            assert np.array_equal(p.numpy(), q.numpy())


def test_gather_and_take_along_dim_take_torchs_argument_order():
    m = sg.tensor(M)
    np.testing.assert_array_equal(sg.gather(m, 1, sg.tensor([[0], [3], [1]])).numpy(),
                                  np.take_along_axis(M, np.array([[0], [3], [1]]), 1))
    np.testing.assert_array_equal(m.gather(0, sg.tensor([[2, 1, 0, 0]])).numpy(),
                                  np.take_along_axis(M, np.array([[2, 1, 0, 0]]), 0))
    # take_along_dim broadcasts the other dims, or works on the flattened tensor
    np.testing.assert_array_equal(sg.take_along_dim(m, sg.tensor([[0, 2]]), 1).numpy(),
                                  M[:, [0, 2]])
    np.testing.assert_array_equal(sg.take_along_dim(m, sg.tensor([5, 0])).numpy(),
                                  M.ravel()[[5, 0]])


def test_cat_of_one_tensor_is_a_new_tensor():
    """torch.cat([x]) copies: writing into the result leaves x alone (it used to be x)."""
    x = sg.ones(3)
    for y in (sg.cat([x]), sg.cat([sg.zeros(0), x]), sg.concat([x], dim=-1)):
        assert y is not x
        y[0] = 5.0
        assert x.tolist() == [1.0, 1.0, 1.0] and y.tolist() == [5.0, 1.0, 1.0]


def test_index_select_in_a_compiled_function_rejects_a_negative_index_as_torch_does():
    """torch's index_select takes no negative index (eager symgrad knows the values and raises);
    traced, the index is unknown until the call: a negative one must not wrap to the last rows
    (it did, through advanced indexing), but fail as an index out of range does."""
    x = np.arange(12.0).reshape(4, 3)
    f = sg.compile(lambda x, i: sg.index_select(x, 0, i) * 2.0)
    np.testing.assert_array_equal(f(x, np.array([3, 0, 3])), x[[3, 0, 3]] * 2.0)
    for bad in ([0, -1], [4], [-5, 1]):
        with pytest.raises(IndexError, match="out of range"):
            f(x, np.array(bad))
    g = sg.grad(lambda x, i: (sg.index_select(x, 1, i) ** 2).sum())
    np.testing.assert_array_equal(g(x, np.array([2, 2])), np.where(np.arange(3) == 2, 4 * x, 0))
    with pytest.raises(IndexError, match="out of range"):
        g(x, np.array([-1]))
    with pytest.raises(RuntimeError, match="out of bounds"):
        sg.index_select(sg.tensor(x), 0, sg.tensor([-1]))
