"""Advanced indexing and index assignment: values against NumPy's indexing (the same rules),
gradients against hand-derived counts (repeated indices add up) and central differences,
eagerly and compiled; torch's autograd rules for assignment; torch cross-checks when
installed."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from references import central_differences

X = np.arange(24.0).reshape(2, 3, 4)

READS = ["x[[0, 1]]", "x[:, [0, 2]]", "x[:, [0, 2], 1:3]", "x[[0, 1], :, [1, 2]]",
         "x[..., [3, 0]]", "x[[1], [2]]", "x[range(2), [0, 2]]", "x[:, None, [1]]",
         "x[0, [1, 2]]", "x[[[0], [1]], [0, 2]]", "x[[-1]]", "x[1:, [0, 1], ::2]",
         "x[np.array([1, 0, 1])]", "x[x > 10]", "x[x[:, :, 0] > 5]", "x[0, [True, False, True]]"]


@pytest.mark.parametrize("expr", READS)
def test_reads_follow_numpy(expr):
    want = eval(expr, {"x": X, "np": np})
    got = eval(expr, {"x": sg.tensor(X), "np": np})
    assert got.shape == want.shape and np.array_equal(got.numpy(), want)


def test_index_tensors_of_symgrad():
    idx = sg.tensor([2, 0, 2])
    x = sg.tensor(X.reshape(6, 4))
    np.testing.assert_array_equal(x[idx].numpy(), X.reshape(6, 4)[[2, 0, 2]])
    np.testing.assert_array_equal(x[idx, sg.tensor([1, 1, 3])].numpy(),
                                  X.reshape(6, 4)[[2, 0, 2], [1, 1, 3]])


@pytest.mark.parametrize("expr", ["x[[0, 0, 1]]", "x[:, [0, 2, 0]]", "x[x > 10]",
                                  "x[[0, 1], :, [1, 1]]"])
def test_gradient_counts_repeated_indices(expr):
    x = sg.tensor(X, requires_grad=True)
    y = eval(expr, {"x": x})
    y.sum().backward()
    # d sum(x[idx]) / dx = how often each element is selected: index an array of ids
    ids = np.arange(X.size).reshape(X.shape)
    counts = np.bincount(eval(expr.replace("x >", "X >"), {"x": ids, "X": X}).ravel(),
                         minlength=X.size).reshape(X.shape)
    np.testing.assert_array_equal(x.grad.numpy(), counts)
    assert y.grad_fn.name() == "IndexBackward0"


def test_compiled_gather_and_gradient_match_finite_differences():
    rng = np.random.default_rng(0)
    x0 = rng.standard_normal((5, 3))

    def f(x):
        return (sg.sin(x[[4, 0, 4], 1:]) * x[[1, 2, 3]][:, [2, 0]]).sum()

    g = sg.grad(f)
    got = g(sg.tensor(x0))
    fd = central_differences(f, x0)
    np.testing.assert_allclose(np.asarray(got), fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(sg.compile(f)(sg.tensor(x0)).item(), f(sg.tensor(x0)).item(),
                               rtol=1e-12)


def test_compiled_index_arguments_are_checked_in_c():
    f = sg.compile(lambda x, i: x[i].sum())
    x = sg.tensor(X.reshape(6, 4))
    assert f(x, sg.tensor([5, 0])).item() == X.reshape(6, 4)[[5, 0]].sum()
    assert f(x, sg.tensor([-1, 0])).item() == X.reshape(6, 4)[[-1, 0]].sum()
    with pytest.raises(Exception, match="out of|bound|range"):
        f(x, sg.tensor([6, 0]))


@pytest.mark.parametrize("which", ["read", "assign"])
def test_compiled_checks_each_indexed_dim_on_its_own(which):
    """Several index arrays are combined into one linear index for one gather (or scatter),
    which the C checks against the product of the sizes; an index out of its own dim's range
    would land on another row's element (x[0, 4] of a 3 x 3 x is x[1, 1]). Every index that
    NumPy refuses, symgrad refuses; every index it takes gives NumPy's elements."""
    a = np.arange(12.0).reshape(3, 4)

    def read(x, i, j):
        return x[i, j]

    def assign(x, i, j):
        y = x * 1
        y[i, j] = -1.0
        return y

    f = sg.compile(read if which == "read" else assign)
    rng = np.random.default_rng(7)
    checked = refused = 0
    for _ in range(80):
        i = rng.integers(-5, 5, size=2)
        j = rng.integers(-6, 6, size=2)
        try:
            want = read(a, i, j) if which == "read" else assign(a, i, j)
        except IndexError:
            with pytest.raises(IndexError, match="out of range"):
                f(a, i, j)
            refused += 1
            continue
        np.testing.assert_array_equal(np.asarray(f(a, i, j)), want)
        checked += 1
    assert checked >= 5 and refused >= 5
    # the case that used to read another row: each index in [-12, 12) but j out of [-4, 4)
    with pytest.raises(IndexError):
        f(a, np.array([0, 0, 0]), np.array([0, 5, 1]))


# (a mask of the wrong shape, the same index with the right one)
_MASKS = [("[m(2)]", "[m(3)]"), ("[m(5)]", "[m(3)]"), ("[:, m(3)]", "[:, m(4)]"),
          ("[:, m(5)]", "[:, m(4)]"), ("[m(2, 3)]", "[m(3, 4)]"), ("[m(4, 4)]", "[m(3, 4)]"),
          ("[..., m(3)]", "[..., m(4)]"), ("[m(4), 1:]", "[m(3), 1:]")]


@pytest.mark.parametrize("wrong, right", _MASKS)
@pytest.mark.parametrize("mode", ["eager", "compiled", "assign"])
def test_a_mask_of_another_shape_than_its_dims_is_refused(wrong, right, mode):
    """A mask's shape must be that of the dims it stands for (torch's rule; NumPy's too): a
    shorter or longer one selected other elements silently. The mask of the right shape at
    the same place selects NumPy's elements."""
    x = np.arange(12.0).reshape(3, 4)

    def masks(make):
        return {"m": lambda *shape: make(np.arange(np.prod(shape)).reshape(shape) % 2 == 0)}

    def run(index):
        def f(t):
            if mode == "assign":
                y = t * 1
                exec(f"y{index} = -1.0", {"y": y, **masks(sg.tensor)})
                return y
            return eval(f"t{index}", {"t": t, **masks(sg.tensor)})
        return np.asarray(sg.compile(f)(x)) if mode == "compiled" else f(sg.tensor(x)).numpy()

    with pytest.raises(IndexError, match="shape of the mask"):
        run(wrong)
    want = x.copy()
    if mode == "assign":
        exec(f"want{right} = -1.0", {"want": want, **masks(np.asarray)})
    else:
        want = eval(f"x{right}", {"x": x, **masks(np.asarray)})
    np.testing.assert_array_equal(run(right), want)


def test_masks_need_values_so_compiled_code_says_what_to_use():
    """A reduction of x[mask] compiles (tests/frontend/test_masked_selection.py); where the
    selection's size is needed, the error says what to use."""
    assert sg.compile(lambda x: x[x > 3].sum())(sg.tensor(X)) == X[X > 3].sum()
    f = sg.compile(lambda x: x[x > 3].reshape(-1, 2).sum())
    with pytest.raises(sg.TracerValueError, match="where"):
        f(sg.tensor(X))


def test_out_of_range_and_float_indices():
    x = sg.tensor(X)
    with pytest.raises(IndexError, match="index 2 is out of bounds for dimension 0 with size 2"):
        x[[0, 2]]
    with pytest.raises(IndexError, match="long, int, byte or bool"):
        x[sg.tensor([0.0])]


WRITES = ["x[[0, 1]] = 7", "x[:, 1] = 5", "x[x > 10] = 0", "x[[0, 1], [1, 2]] = v2",
          "x[0, :, 1] = v3", "x[[0, 1], [1, 2]] += 1", "x[1] = v3.reshape(3, 1)",
          "x[..., 0] = 9", "x[[1, 0]] = x[[0, 1]] * 2", "x[1:, 0] = -1"]


@pytest.mark.parametrize("stmt", WRITES)
def test_assignment_follows_numpy(stmt):
    want, got = X.copy(), sg.tensor(X)
    exec(stmt, {"x": want, "v2": np.array([[1.0], [2.0]]), "v3": np.arange(3.0)})
    exec(stmt, {"x": got, "v2": sg.tensor([[1.0], [2.0]], dtype=sg.float64),
                "v3": sg.arange(3.0, dtype=sg.float64)})
    np.testing.assert_array_equal(got.numpy(), want)


def test_assignment_autograd_rules():
    w = sg.tensor(X, requires_grad=True)
    y = w * 1
    y[[0, 1], [1, 2]] = w[0, 0, 0] * 3      # the written value's gradient flows to w[0,0,0]
    y[:, 0] = 0                              # overwritten elements get no gradient
    (y * y).sum().backward()
    want = 2 * X.copy()
    want[[0, 1], [1, 2]] = 0
    want[:, 0] = 0
    want[0, 0, 0] += 2 * 3 * (3 * X[0, 0, 0]) * 8    # 8 elements hold 3*w000 (2 rows x 4)
    np.testing.assert_allclose(w.grad.numpy(), want)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        w[0] = 1
    with sg.no_grad():
        w[0] = 1
    assert w[0].sum().item() == 12


def test_compiled_assignment():
    def f(x, i):
        y = x * 2
        y[i] = 0
        y[:, 0] = 1
        return y

    x, i = sg.tensor(X.reshape(6, 4)), sg.tensor([0, 3])
    want = 2 * X.reshape(6, 4)
    want[[0, 3]] = 0
    want[:, 0] = 1
    np.testing.assert_array_equal(np.asarray(sg.compile(f)(x, i)), want)
    np.testing.assert_array_equal(f(x, i).numpy(), want)


def test_mask_assignment_compiles_with_a_scalar():
    def f(x):
        y = x.clone()
        y[x > 3] = 0
        return y

    np.testing.assert_array_equal(np.asarray(sg.compile(f)(sg.tensor(X))),
                                  np.where(X > 3, 0, X))


@pytest.mark.parametrize("expr", READS[:13] + ["x[x > 10]"])
def test_reads_and_gradients_match_torch(expr):
    torch = pytest.importorskip("torch")
    xt, xs = torch.tensor(X, requires_grad=True), sg.tensor(X, requires_grad=True)
    yt = eval(expr, {"x": xt, "np": np})
    ys = eval(expr, {"x": xs, "np": np})
    (yt * yt).sum().backward()
    (ys * ys).sum().backward()
    assert np.array_equal(yt.detach().numpy(), ys.detach().numpy())
    assert np.array_equal(xt.grad.numpy(), xs.grad.numpy())


def test_the_plain_index_path_agrees_with_the_general_one():
    """``x[...]``'s one-pass path for ints and slices (``shapes.plain_windows``) gives what
    the general path gives (windows, the result's shape, whether anything is cut, the grad_fn
    torch shows), or steps aside, on 3,000 random indices: ints in and out of range, negative,
    slices with and without bounds, steps, bounds past the size, whole slices, lone items."""
    from symgrad.frontend.functions import shapes
    rng = np.random.default_rng(5)

    def bound():
        return None if rng.random() < 0.3 else int(rng.integers(-6, 7))

    def item(size):
        r = rng.random()
        if r < 0.35:
            return int(rng.integers(-size - 1, size + 1))
        if r < 0.45:
            return slice(None)
        step = None if rng.random() < 0.6 else int(rng.integers(1, 4))
        return slice(bound(), bound(), step)
    took = 0
    for _ in range(3000):
        shape = tuple(int(s) for s in rng.integers(1, 5, size=rng.integers(0, 4)))
        x = sg.zeros(shape)
        items = tuple(item(shape[d]) for d in range(int(rng.integers(0, len(shape) + 1))))
        index = items[0] if len(items) == 1 and rng.random() < 0.5 else items
        fast = shapes.plain_windows(x.shape, index)
        try:
            general = shapes._windows(x, index)
        except IndexError:
            assert fast is None, index   # out of range: the general path raises
            continue
        if fast is not None:
            took += 1
            assert fast == general, (shape, index)
    assert took > 2000


@pytest.mark.parametrize("index", [lambda k, j: (slice(None), slice(k, j)),
                                   lambda k, j: (Ellipsis, slice(k, None)),
                                   lambda k, j: (slice(None), slice(0, j), slice(k, None, 1))])
def test_compiled_slices_bounded_by_python_int_arguments(index):
    """Python int arguments of a compiled function are traced numbers; slices bounded by them
    read their values (and a call with other values gives other windows)."""
    x0 = np.arange(60.0).reshape(3, 4, 5)
    f = sg.compile(lambda x, k, j: x[index(k, j)])
    for k, j in [(1, 3), (2, 4), (0, 2)]:
        np.testing.assert_array_equal(f(x0, k, j), x0[index(k, j)])
