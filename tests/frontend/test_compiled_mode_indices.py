"""Inside compiled functions: ``mode``, ``tril_indices``/``triu_indices``, and ``index_copy``
/ ``index_put`` / ``x[idx] = v`` whose index is an argument (its repeated elements keep the
last value written, as torch's CPU kernels; every write gets its element's gradient, as
torch's backward).

Oracles: torch's outputs stored below (and recomputed when torch is installed), NumPy
(``np.unique``-counted modes, a Python loop of assignments), the eager path, central
differences in float64."""

import numpy as np
import pytest

import symgrad as sg
from tests.references import central_differences

RNG = np.random.default_rng(3)
NAN = float("nan")

# (row, torch.mode(row)) computed by torch 2.13 on the CPU: ties go to the smallest value,
# the index is its last occurrence; -0.0 equals 0.0 (the first of them in the row is kept);
# a NaN equals nothing (torch's sort leaves it where it is in rows this short).
MODES = [
    ([1.0, NAN, NAN, 2.0, 2.0], 2.0, 4),
    ([0.0, -0.0, 1.0, 1.0], -0.0, 1),
    ([3.0, 1.0, 3.0, 1.0], 1.0, 3),
    ([2.0, 2.0, 1.0, 1.0, 1.0, 2.0], 1.0, 4),
    ([5.0, 4.0, 3.0], 3.0, 2),
    ([7.0], 7.0, 0),
]


def _mode_numpy(row: np.ndarray) -> tuple:
    """The smallest of the most frequent values, its last index (rows without NaN)."""
    values, counts = np.unique(row, return_counts=True)
    best = values[np.argmax(counts)]
    return best, int(np.flatnonzero(row == best)[-1])


@pytest.mark.parametrize("row,value,index", MODES)
def test_compiled_mode_of_stored_rows(row, value, index):
    got = sg.compile(lambda x: sg.mode(x))(np.array(row))
    assert np.asarray(got.values).item() == value and int(got.indices) == index
    assert np.signbit(np.asarray(got.values)) == np.signbit(value)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.bool_])
def test_compiled_mode_along_each_dim(dtype):
    x = RNG.integers(0, 3, (3, 4, 6)).astype(dtype)   # (rows of at most 16: torch's order)
    f = sg.compile(lambda x, d, k: sg.mode(x, d, k), static_argnums=(1, 2))
    for dim in range(-3, 3):
        for keepdim in (False, True):
            got = f(x, dim, keepdim)
            eager = sg.mode(sg.tensor(x), dim, keepdim)
            np.testing.assert_array_equal(np.asarray(got.values), eager.values.numpy())
            np.testing.assert_array_equal(np.asarray(got.indices), eager.indices.numpy())
            moved = np.moveaxis(x, dim, -1)
            found = [_mode_numpy(r) for r in moved.reshape(-1, moved.shape[-1])]
            want_i = np.array([i for _, i in found]).reshape(moved.shape[:-1])
            np.testing.assert_array_equal(np.asarray(got.indices).reshape(want_i.shape), want_i)
    zero_d = f(np.array(4.0, dtype=np.float64), 0, False)
    assert float(zero_d.values) == 4.0 and int(zero_d.indices) == 0


def test_compiled_mode_matches_torch_and_its_gradient():
    torch = pytest.importorskip("torch")
    x = RNG.integers(0, 4, (5, 9)).astype(np.float64)
    got = sg.compile(lambda a: a.mode(1))(x)
    want = torch.mode(torch.tensor(x), 1)
    np.testing.assert_array_equal(got.values, want.values.numpy())
    np.testing.assert_array_equal(got.indices, want.indices.numpy())
    for row, value, index in MODES:
        t = torch.mode(torch.tensor(row))
        assert (t.values.item() == value or value != value) and t.indices.item() == index
    xt = torch.tensor(x, requires_grad=True)
    (torch.mode(xt, 1).values * torch.arange(5.0, dtype=torch.float64)).sum().backward()
    g = sg.grad(lambda a: (a.mode(1).values * sg.arange(5.0, dtype=sg.float64)).sum())(x)
    np.testing.assert_array_equal(g, xt.grad.numpy())


def test_compiled_mode_gradient_is_the_chosen_elements():
    x = np.array([[1.0, 2.0, 1.0], [3.0, 3.0, 0.5]])
    g = sg.grad(lambda a: (a.mode(1).values * sg.tensor([1.0, 10.0]).double()).sum())(x)
    np.testing.assert_array_equal(g, [[0.0, 0.0, 1.0], [0.0, 10.0, 0.0]])


# ---------------------------------------------------------------- tril/triu_indices

# torch.tril_indices / triu_indices(row, col, offset).tolist(), from torch 2.13
TRIANGLES = [
    ((3, 3, 0), [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]], [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]),
    ((3, 4, 1), [[0, 0, 1, 1, 1, 2, 2, 2, 2], [0, 1, 0, 1, 2, 0, 1, 2, 3]],
     [[0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3]]),
    ((4, 3, -1), [[1, 2, 2, 3, 3, 3], [0, 0, 1, 0, 1, 2]],
     [[0, 0, 0, 1, 1, 1, 2, 2, 3], [0, 1, 2, 0, 1, 2, 1, 2, 2]]),
    ((0, 3, 0), [[], []], [[], []]),
    ((2, 5, -7), [[], []], [[0, 0, 0, 0, 0, 1, 1, 1, 1, 1], [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]]),
]


@pytest.mark.parametrize("args,lower,upper", TRIANGLES)
def test_tril_and_triu_indices(args, lower, upper):
    assert sg.tril_indices(*args).tolist() == lower
    assert sg.triu_indices(*args).tolist() == upper
    assert sg.tril_indices(*args).dtype == sg.int64

    def f(m):
        r, c = sg.tril_indices(*args)
        s, d = sg.triu_indices(*args)
        return m[r, c].sum() + 10 * m[s, d].sum()
    m = RNG.normal(size=args[:2])
    want = sum(m[i, j] for i, j in zip(*lower)) + 10 * sum(m[i, j] for i, j in zip(*upper))
    assert float(sg.compile(f)(m)) == pytest.approx(want, rel=1e-14, abs=1e-14)


def test_tril_indices_errors_and_dtype():
    with pytest.raises(RuntimeError, match="row must be non-negative, got-1"):
        sg.tril_indices(-1, 3)
    with pytest.raises(RuntimeError, match="col must be non-negative, got-2"):
        sg.triu_indices(3, -2)
    with pytest.raises(TypeError, match=r"argument 'row' \(position 1\) must be int, not "
                                        r"float"):
        sg.tril_indices(3.0, 3)
    with pytest.raises(NotImplementedError, match="\"tril_indices\" not implemented for "
                                                  "'Float'"):
        sg.tril_indices(3, 3, dtype=sg.float32)
    assert sg.tril_indices(3, 3, dtype=sg.int32).dtype == sg.int32


def test_tril_indices_match_torch():
    torch = pytest.importorskip("torch")
    for args, lower, upper in TRIANGLES:
        assert torch.tril_indices(*args).tolist() == lower
        assert torch.triu_indices(*args).tolist() == upper


# ---------------------------------------------------------------- index_copy / index_put

def _assign(x: np.ndarray, index: tuple, values: np.ndarray) -> np.ndarray:
    """``x[index] = values`` one write at a time, in order: the last write stays."""
    out = x.copy()
    idx = np.broadcast_arrays(*index)
    values = np.broadcast_to(values, idx[0].shape + out.shape[len(index):])
    for pos in np.ndindex(idx[0].shape):
        out[tuple(int(i[pos]) for i in idx)] = values[pos]
    return out


def test_index_put_with_repeated_traced_indices_keeps_the_last_write():
    x = RNG.normal(size=(4, 3))
    rows, cols = np.array([1, 3, 1, 1, 0]), np.array([2, 0, 2, 2, 1])
    v = RNG.normal(size=5)
    f = sg.compile(lambda x, r, c, v: x.index_put((r, c), v))
    np.testing.assert_array_equal(f(x, rows, cols, v), _assign(x, (rows, cols), v))
    acc = sg.compile(lambda x, r, c, v: x.index_put((r, c), v, accumulate=True))(x, rows, cols,
                                                                                    v)
    want = x.copy()
    np.add.at(want, (rows, cols), v)
    np.testing.assert_allclose(acc, want, rtol=1e-15)
    g = sg.compile(lambda x, r, v: x.index_put((r,), v))(x, np.array([2, 2, 0]),
                                                          RNG.normal(size=(3, 3)))
    assert g.shape == (4, 3)


def test_index_copy_and_setitem_with_repeated_traced_indices():
    x = RNG.normal(size=(2, 5))
    src = RNG.normal(size=(2, 4))
    idx = np.array([1, 4, 1, -1])
    f = sg.compile(lambda x, i, s: x.index_copy(1, i, s))
    want = x.copy()
    for k, i in enumerate(idx):
        want[:, i] = src[:, k]
    np.testing.assert_array_equal(f(x, idx, src), want)

    def setitem(x, i, s):
        y = x.clone()
        y[0, i] = s[0]
        return y
    np.testing.assert_array_equal(sg.compile(setitem)(x, idx, src),
                                  _assign(x, (np.zeros(4, int), idx), src[0]))


def test_index_put_gradients_give_every_write_its_elements_gradient():
    x, v = RNG.normal(size=6), RNG.normal(size=4)
    idx = np.array([1, 4, 1, 1])
    weights = np.arange(1.0, 7.0)

    def loss(x, v):
        return (x.index_put((sg.tensor(idx),), v) * sg.tensor(weights)).sum()
    gx, gv = sg.grad(loss, argnums=(0, 1))(x, v)
    np.testing.assert_array_equal(gv, weights[idx])             # torch's grad[indices]
    np.testing.assert_array_equal(gx, np.where(np.isin(np.arange(6), idx), 0.0, weights))
    fd = central_differences(lambda a: loss(a, sg.tensor(v)), x)
    np.testing.assert_allclose(gx, fd, atol=1e-8)
    traced = sg.grad(lambda x, v, i: (x.index_put((i,), v) * sg.tensor(weights)).sum(),
                     argnums=(0, 1))(x, v, idx)
    np.testing.assert_array_equal(traced[0], gx)
    np.testing.assert_array_equal(traced[1], gv)


def test_index_put_and_copy_match_torch():
    torch = pytest.importorskip("torch")
    x = RNG.normal(size=(3, 5))
    src = RNG.normal(size=(3, 4))
    idx = np.array([2, 0, 2, 4])
    got = sg.compile(lambda x, i, s: x.index_copy(1, i, s))(x, idx, src)
    want = torch.tensor(x).index_copy(1, torch.tensor(idx), torch.tensor(src))
    np.testing.assert_array_equal(got, want.numpy())
    rows = np.array([2, 0, 2, 1])                 # row 2 written twice
    xt, vt = torch.tensor(x, requires_grad=True), torch.tensor(src[0], requires_grad=True)
    (xt.index_put((torch.tensor(rows),), vt[:, None].expand(4, 5)) *
     torch.arange(15.0, dtype=torch.float64).reshape(3, 5)).sum().backward()
    gx, gv = sg.grad(lambda x, v, i: (x.index_put((i,), v[:, None].expand(4, 5)) *
                                      sg.arange(15.0, dtype=sg.float64).reshape(3, 5)).sum(),
                     argnums=(0, 1))(x, src[0], rows)
    np.testing.assert_array_equal(gx, xt.grad.numpy())
    np.testing.assert_array_equal(gv, vt.grad.numpy())
