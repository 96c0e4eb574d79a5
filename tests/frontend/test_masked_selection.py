"""``x[mask]`` inside a compiled function, consumed by a reduction (``symgrad.frontend.functions
.selection``): values against NumPy's own selection, gradients against central differences
in float64 (and, when torch is installed, torch's values and gradients); ``y[mask] = f(x[mask])``
and ``index_put((mask,), v)``; the clear error wherever the selection's size is needed."""

import numpy as np
import pytest

import symgrad as sg
from tests.references import central_differences

RNG = np.random.default_rng(17)
X = RNG.normal(size=(5, 4))
SMOOTH = X.copy()
X[1, 2] = 0.0                                  # a log/sqrt's derivative is infinite there

# (name, f(T, x) with T the module: symgrad, or torch, NumPy oracle of the value)
CASES = [
    ("sum", lambda T, x: x[x > 0].sum(), lambda x: x[x > 0].sum()),
    ("torch.sum", lambda T, x: T.sum(x[x > 0]), lambda x: x[x > 0].sum()),
    ("mean", lambda T, x: x[x > 0].mean(), lambda x: x[x > 0].mean()),
    ("torch.mean", lambda T, x: T.mean(x[x < 0]), lambda x: x[x < 0].mean()),
    ("max", lambda T, x: x[x < 0.5].max(), lambda x: x[x < 0.5].max()),
    ("torch.min", lambda T, x: T.min(x[x > 0]), lambda x: x[x > 0].min()),
    ("amax", lambda T, x: T.amax(x[x > -1]), lambda x: x[x > -1].max()),
    ("prod", lambda T, x: x[x.abs() < 0.8].prod(), lambda x: x[np.abs(x) < 0.8].prod()),
    ("std", lambda T, x: x[x > 0].std(), lambda x: x[x > 0].std(ddof=1)),
    ("var", lambda T, x: x[x > 0].var(correction=0), lambda x: x[x > 0].var()),
    ("log", lambda T, x: (x[x > 0].log() * 2).sum(), lambda x: (np.log(x[x > 0]) * 2).sum()),
    ("sqrt", lambda T, x: T.sqrt(x[x > 0]).mean(), lambda x: np.sqrt(x[x > 0]).mean()),
    ("mse", lambda T, x: ((x[x > 0] - x[x > 0] ** 2) ** 2).mean(),
     lambda x: ((x[x > 0] - x[x > 0] ** 2) ** 2).mean()),
    ("logsumexp", lambda T, x: x[x > 0].logsumexp(0),
     lambda x: np.log(np.exp(x[x > 0]).sum())),
    ("norm", lambda T, x: x[x < 0].norm(), lambda x: np.sqrt((x[x < 0] ** 2).sum())),
    ("rows.sum(0)", lambda T, x: (x[x[:, 0] > 0].sum(0) * T.arange(4.0)).sum(),
     lambda x: (x[x[:, 0] > 0].sum(0) * np.arange(4.0)).sum()),
    ("rows.mean(1)", lambda T, x: (x[x[:, 1] > 0].mean(1) ** 2).sum(),
     lambda x: (x[x[:, 1] > 0].mean(1) ** 2).sum()),
    ("rows.max(0)", lambda T, x: x[x[:, 1] > 0].max(0).values.sum(),
     lambda x: x[x[:, 1] > 0].max(0).sum()),
    ("rows.var(0)", lambda T, x: x[x[:, 1] > -2].var(0).sum(),
     lambda x: x[x[:, 1] > -2].var(0, ddof=1).sum()),
    ("shared weight", lambda T, x: (x[x[:, 0] < 1] * T.linspace(0, 1, 4, dtype=T.float64)).sum(),
     lambda x: (x[x[:, 0] < 1] * np.linspace(0, 1, 4)).sum()),
    ("empty mean", lambda T, x: x[x > 100].mean(), lambda x: np.nan),
    ("empty sum", lambda T, x: x[x > 100].sum(), lambda x: 0.0),
]


@pytest.mark.parametrize("name,f,oracle", CASES, ids=[c[0] for c in CASES])
def test_reductions_of_a_selection_compile(name, f, oracle):
    got = float(sg.compile(lambda x: f(sg, x))(X))
    want = oracle(X)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15, equal_nan=True)
    eager = f(sg, sg.tensor(X)).item()
    np.testing.assert_allclose(got, eager, rtol=1e-14, equal_nan=True)
    if name.startswith("empty"):
        return
    g = sg.grad(lambda x: f(sg, x))
    assert not np.isnan(g(X)).any()       # no 0 * inf from the element not selected at 0
    fd = central_differences(lambda x: f(sg, x), SMOOTH)     # (away from the masks' edges)
    np.testing.assert_allclose(g(SMOOTH), fd, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name,f,oracle", CASES, ids=[c[0] for c in CASES])
def test_reductions_of_a_selection_match_torch(name, f, oracle):
    torch = pytest.importorskip("torch")
    xt = torch.tensor(X, requires_grad=True)
    want = f(torch, xt)
    got, g = sg.value_and_grad(lambda x: f(sg, x))(X)
    np.testing.assert_allclose(float(got), want.item(), rtol=1e-14, atol=1e-15,
                               equal_nan=True)
    if want.requires_grad:
        want.backward()
        np.testing.assert_allclose(g, xt.grad.numpy(), rtol=1e-13, atol=1e-15)


def test_max_over_dim_0_gives_the_index_among_the_selected():
    f = sg.compile(lambda x: x[x[:, 2] > -0.5].max(0))
    got = f(X)
    rows = X[X[:, 2] > -0.5]
    np.testing.assert_array_equal(got.values, rows.max(0))
    np.testing.assert_array_equal(got.indices, rows.argmax(0))
    mins = sg.compile(lambda x: x[x[:, 2] > -0.5].min(0, keepdim=True))(X)
    np.testing.assert_array_equal(mins.indices, rows.argmin(0)[None])


def test_integer_and_bool_selections():
    k = RNG.integers(-3, 4, (4, 5))
    got = sg.compile(lambda k: (k[k > 0].sum(), k[k > 0].max(), k[k < 0].min(),
                                (k[k != 0] > 1).any(), k[k > 0].count_nonzero(),
                                k[k > 5].max()))(k)
    assert int(got[0]) == k[k > 0].sum() and int(got[1]) == k[k > 0].max()
    assert int(got[2]) == k[k < 0].min() and bool(got[3]) == (k[k != 0] > 1).any()
    assert int(got[4]) == (k > 0).sum()
    assert int(got[5]) == np.iinfo(np.int64).min          # empty: the identity (torch raises)


def test_assigning_a_selection_back_through_its_mask():
    def f(x):
        y = x.clone()
        m = x > 0
        y[m] = x[m].sqrt() * 2
        y[x < -1] += 1.0
        z = x.index_put((x < 0,), x[x < 0] * 3, accumulate=True)
        return y.sum() + (z * z).sum() + x.index_put((m,), sg.tensor(7.0).double()).sum()
    want = X.copy()
    want[X > 0] = np.sqrt(X[X > 0]) * 2
    want[X < -1] += 1.0
    z = X.copy()
    z[X < 0] += X[X < 0] * 3
    pinned = X.copy()
    pinned[X > 0] = 7.0
    expected = want.sum() + (z * z).sum() + pinned.sum()
    assert float(sg.compile(f)(X)) == pytest.approx(expected, rel=1e-14)
    assert not np.isnan(sg.grad(f)(X)).any()
    g = sg.grad(f)(SMOOTH)
    np.testing.assert_allclose(g, central_differences(f, SMOOTH), rtol=1e-6, atol=1e-7)


def test_assigning_one_row_to_the_rows_a_mask_selects():
    def f(x):
        y, z = x.clone(), x.clone()
        y[x[:, 0] > -0.5] = 0.5
        z[x[:, 1] < 0, :] = sg.arange(4.0, dtype=sg.float64).reshape(1, 4)
        return y, z
    y, z = sg.compile(f)(X)
    want_y, want_z = X.copy(), X.copy()
    want_y[X[:, 0] > -0.5] = 0.5
    want_z[X[:, 1] < 0, :] = np.arange(4.0)
    np.testing.assert_array_equal(y, want_y)
    np.testing.assert_array_equal(z, want_z)
    with pytest.raises(sg.TracerValueError, match=r"assignment of shape \[2, 4\]"):
        sg.compile(lambda x: x.clone().__setitem__(x[:, 0] > 0, sg.ones(2, 4).double()))(X)


def test_where_the_size_is_needed_the_error_names_the_line_and_the_alternatives():
    uses = {
        "shape": lambda x: x[x > 0].shape,
        "return": lambda x: x[x > 0],
        "view": lambda x: x[x > 0].reshape(-1).sum(),
        "matmul": lambda x: (x[x[:, 0] > 0] @ x[0]).sum(),
        "other mask": lambda x: (x[x > 0] + x[x < 0]).sum(),
        "numel": lambda x: x + x[x > 0].numel(),
    }
    for what, f in uses.items():
        with pytest.raises(sg.TracerValueError) as info:
            sg.compile(f)(X)
        text = str(info.value)
        assert "test_masked_selection.py:" in text, what
        assert "symgrad.where(mask, x, 0)" in text or "different masks" in text, what


def test_eager_masks_are_unchanged():
    x = sg.tensor(X)
    assert x[x > 0].shape == ((X > 0).sum(),)
    np.testing.assert_array_equal(x[x > 0].numpy(), X[X > 0])


def test_compiled_masked_select_then_backward():
    """masked_select of a traced mask is x[mask] (lazy until the sum): its gradient is the
    mask, broadcast to x's shape (a (3,) mask over (2, 3) rows counts each row)."""
    x0 = np.array([[0.3, -0.7, 1.2], [0.5, 0.9, -0.2]])
    w0 = np.array([[0.2, 0.6, 0.8], [0.1, 0.7, 0.3]])

    def grad(x, w):
        x.requires_grad_()
        sg.masked_select(x * 1.0, w > 0.5).sum().backward()
        return x.grad
    np.testing.assert_array_equal(sg.compile(grad)(x0, w0), (w0 > 0.5).astype(float))
    np.testing.assert_array_equal(sg.compile(grad)(x0, w0[0]),
                                  np.broadcast_to(w0[0] > 0.5, x0.shape).astype(float))
