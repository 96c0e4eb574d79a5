"""Regression tests for the bugs the differential fuzzer (tests/fuzzing) found, each with the
minimal program it shrank to (or the public-API form of it), checked against NumPy formulas.
"""

import numpy as np
import pytest

import symgrad as sg
from symgrad.ops import ShapeError


def _both(fn, *args):
    """fn compiled and eagerly, as NumPy arrays."""
    eager = fn(*[sg.tensor(a) for a in args])
    return np.asarray(sg.compile(fn)(*args)), eager.detach().numpy()


# ------------------------------------------------------------------ GCC 12 SLP miscompile
# Fuzzed: the gradient of x0 @ x1, batched, through the pipeline without passes. The C was
# right; GCC 12.2 at -O3 -march=native (AVX-512) vectorized the small matmul reading a
# temporary that the loop before had stored as zmm vectors with an in-lane vpermilpd, and used
# the low half of the result: the last row of each batch came out wrong. Fixed by compiling
# with -fno-tree-slp-vectorize (symgrad.compiler.DEFAULT_OPT_FLAGS).

def test_batched_matmul_gradient_after_a_fused_loop():
    def loss(x0, x1, w0):
        return ((x0 @ x1) * (w0 * 2.0)).sum()

    rng = np.random.default_rng(0)
    x0 = rng.uniform(-2.0, 2.0, size=(2, 3, 2))
    x1 = rng.uniform(-2.0, 2.0, size=(2, 4))
    w0 = rng.uniform(-1.0, 1.0, size=(2, 3, 4))
    value, (g0, g1) = sg.value_and_grad(loss, argnums=(0, 1))(x0, x1, w0)
    c = 2.0 * w0                       # d loss / d (x0 @ x1)
    np.testing.assert_allclose(value, np.sum((x0 @ x1) * c), rtol=1e-12)
    np.testing.assert_allclose(g0, c @ x1.T, rtol=1e-12)
    np.testing.assert_allclose(g1, np.einsum("bik,bij->kj", x0, c), rtol=1e-12)


def test_batched_matmul_gradient_without_passes():
    from fuzzing.check import trace_of, without_passes

    def loss(x0, x1, w0):
        return ((x0 @ x1) * w0).sum()

    rng = np.random.default_rng(0)
    args = [rng.uniform(-2.0, 2.0, size=(2, 3, 2)), rng.uniform(-2.0, 2.0, size=(2, 4)),
            rng.uniform(-1.0, 1.0, size=(2, 3, 4))]
    vg = sg.value_and_grad(loss, argnums=(0, 1))
    _, g0, g1 = without_passes(trace_of(vg, args), "bmm_no_passes").run(args)
    x0, x1, w0 = args
    np.testing.assert_allclose(g0, w0 @ x1.T, rtol=1e-12)
    np.testing.assert_allclose(g1, np.einsum("bik,bij->kj", x0, w0), rtol=1e-12)


# ------------------------------------------------------------------ reductions over nothing
# Fuzzed: log_softmax of a float32 tensor of shape (0,) raised NumPy's "zero-size array to
# reduction operation maximum" eagerly (the max it shifts by), while compiled C returned the
# empty result; amax over a size-0 dim gave -inf compiled but raised NumPy's message eagerly,
# and argmax there returned index 0. torch: softmax & co. of no elements are empty, logsumexp
# over nothing is log(0) = -inf, an extremum of nothing is an error.

def test_log_softmax_of_size_zero():
    x = np.zeros((0,), np.float32)
    for out in _both(lambda x: sg.log_softmax(x, 0), x):
        assert out.shape == (0,) and out.dtype == np.float32


@pytest.mark.parametrize("dim", [0, 1])
def test_softmax_family_over_a_size_zero_dim(dim):
    x = np.zeros((0, 3))
    for fn in (lambda x: sg.softmax(x, dim), lambda x: sg.log_softmax(x, dim)):
        for out in _both(fn, x):
            assert out.shape == (0, 3) and out.dtype == np.float64
    with np.errstate(divide="ignore"):
        expected = np.log(np.exp(x).sum(axis=dim))        # log(0) = -inf, or empty
    for out in _both(lambda x: sg.logsumexp(x, dim), x):
        np.testing.assert_array_equal(out, expected)


def test_logsumexp_over_a_size_zero_dim_and_its_gradient():
    x = np.zeros((2, 0))
    value, grad = sg.value_and_grad(lambda x: sg.logsumexp(x, 1).sum())(x)
    assert value == -np.inf
    assert grad.shape == (2, 0)


@pytest.mark.parametrize("name, fn", [
    ("amax", lambda x: x.amax(0)),
    ("amin", lambda x: sg.amin(x, 0)),
    ("max", lambda x: x.max()),
    ("max(dim)", lambda x: x.max(0).values),
    ("argmax", lambda x: x.argmax(0)),
    ("argmin", lambda x: x.argmin(dim=0)),
    ("inf-norm", lambda x: x.norm(p=float("inf"))),
], ids=lambda v: v if isinstance(v, str) else "")
def test_extrema_over_a_size_zero_dim_are_errors(name, fn):
    x = np.zeros((0, 3))
    for run in (lambda: sg.compile(fn)(x), lambda: fn(sg.tensor(x))):
        with pytest.raises(ShapeError, match=r"reduction dim 0 to have non-zero size "
                                             r"\(input shape \(0, 3\)\)"):
            run()


def test_extrema_over_a_nonempty_dim_of_an_empty_tensor():
    x = np.zeros((0, 3))
    for out in _both(lambda x: x.amax(1), x):
        assert out.shape == (0,)
    for out in _both(lambda x: x.argmax(1), x):
        assert out.shape == (0,) and out.dtype == np.int64


# ------------------------------------------------------------------ cat's dtype
# Fuzzed: sg.cat([x0, x1, x0]) of float32 (2,) and an empty float64 (0,) was float32: cat skips
# 1-D empty tensors (as torch does) and left them out of the type promotion too; torch (and
# NumPy) promote over every tensor.

def test_cat_promotes_over_skipped_empty_tensors():
    x0 = np.array([0.25, -1.5], np.float32)
    x1 = np.zeros((0,), np.float64)
    expected = np.concatenate([x0, x1, x0])
    assert expected.dtype == np.float64
    for out in _both(lambda a, b: sg.cat([a, b, a], dim=0), x0, x1):
        assert out.dtype == np.float64
        np.testing.assert_array_equal(out, expected)
    for out in _both(lambda a, b: sg.cat([a, b]), x0, x1):   # one tensor left: cast only
        np.testing.assert_array_equal(out, x0.astype(np.float64))
        assert out.dtype == np.float64


# ------------------------------------------------------------------ in-place ops
# Fuzzed: value_and_grad of x0.clone().mul_(x0) raised "modified by an inplace operation ...
# needed by CloneBackward0": clone's backward was recorded as reading its output. torch's
# reads nothing (and neither does mean's).

def test_in_place_update_of_a_clone():
    def loss(x):
        return x.clone().mul_(x).sum() + x.mean().mul_(2.0)

    x = np.array([0.5, -1.25, 2.0])
    value, grad = sg.value_and_grad(loss)(x)
    np.testing.assert_allclose(value, np.sum(x * x) + 2 * np.mean(x), rtol=1e-15)
    np.testing.assert_allclose(grad, 2 * x + 2 / 3, rtol=1e-15)
    t = sg.tensor(x, requires_grad=True)
    loss(t).backward()
    np.testing.assert_allclose(t.grad.numpy(), 2 * x + 2 / 3, rtol=1e-15)


# Then the fuzzer's view_inplace statements (found by reasoning first, then by the fuzzer
# with the fix reverted): an in-place op on a view (y[0].mul_(2), y.T.add_(1),
# y.reshape(-1).sub_(x)) changed the tensor it views eagerly (NumPy views) but not at trace
# time (the view was rebound, the base kept its old node): compiled results were silently
# wrong, and eager gradients too (the base's history did not record the update).

def _view_programs():
    def row(x, c):
        y = x.clone()
        y[0].mul_(c)                  # y[0] *= c
        return y

    def transposed(x, c):
        y = x.clone()
        y.T[1:].add_(c[:, None])      # columns 1: get c added along rows
        return y

    def reshaped(x, c):
        y = x.clone()
        y.reshape(6)[::2].sub_(c[0])
        return y

    def base_then_view(x, c):
        y = x.clone()
        z = y[:, 1]                   # a view: sees the update of y below
        y.mul_(c[1])
        return z * 1.0

    def view_of_view(x, c):
        y = x.clone()
        y[1][::2].clamp_(max=c[1])
        return y

    return [row, transposed, reshaped, base_then_view, view_of_view]


def _view_expected(name, x, c):
    y = x.copy()
    if name == "row":
        y[0] *= c
    elif name == "transposed":
        y.T[1:] += c[:, None]
    elif name == "reshaped":
        y.reshape(6)[::2] -= c[0]
    elif name == "base_then_view":
        return x[:, 1] * c[1]
    else:
        y[1][::2] = np.minimum(y[1][::2], c[1])
    return y


@pytest.mark.parametrize("fn", _view_programs(), ids=lambda f: f.__name__)
def test_in_place_update_through_a_view(fn):
    x = np.arange(6.0).reshape(2, 3) - 2.5
    c = np.array([1.5, 0.5, -2.0])
    if fn.__name__ == "transposed":
        c = c[:2]
    expected = _view_expected(fn.__name__, x, c)
    for out in _both(fn, x, c):
        np.testing.assert_array_equal(out, expected)


def test_gradient_through_an_in_place_update_of_a_view():
    def loss(x, c):
        y = x * 1.0
        y[0].mul_(c)                  # y = [x0 * c, x1]
        return (y * y).sum()

    x = np.array([[0.5, -1.0], [2.0, 1.5]])
    c = np.array([3.0, -0.5])
    expected = np.stack([2 * x[0] * c * c, 2 * x[1]])
    (gx, gc) = sg.grad(loss, argnums=(0, 1))(x, c)
    np.testing.assert_allclose(gx, expected, rtol=1e-15)
    np.testing.assert_allclose(gc, 2 * x[0] ** 2 * c, rtol=1e-15)
    tx, tc = sg.tensor(x, requires_grad=True), sg.tensor(c, requires_grad=True)
    loss(tx, tc).backward()
    np.testing.assert_allclose(tx.grad.numpy(), expected, rtol=1e-15)
    np.testing.assert_allclose(tc.grad.numpy(), 2 * x[0] ** 2 * c, rtol=1e-15)


def test_detached_alias_sees_in_place_updates_when_compiled():
    def fn(x):
        y = x * 2.0
        d = y.detach()
        y.add_(1.0)
        return d

    x = np.array([1.0, -0.5])
    for out in _both(fn, x):
        np.testing.assert_array_equal(out, 2 * x + 1)


@pytest.mark.parametrize("fn, match", [
    (lambda x: x.clone()[None].expand(2, 3).add_(1.0), "more than one element"),
    (lambda x: x[1:].add_(1.0), "a view of a leaf Variable that requires grad"),
], ids=["expanded view", "view of a leaf"])
def test_in_place_update_of_a_view_errors(fn, match):
    x = np.ones(3)
    with pytest.raises(RuntimeError, match=match):
        sg.grad(lambda x: fn(x).sum())(x)
    with pytest.raises(RuntimeError, match=match):
        fn(sg.tensor(x, requires_grad=True))


def test_in_place_on_views_matches_torch():
    torch = pytest.importorskip("torch")
    x = np.arange(6.0).reshape(2, 3) - 2.5
    c = np.array([1.5, 0.5, -2.0])
    for fn in _view_programs():
        cc = c[:2] if fn.__name__ == "transposed" else c
        want = fn(torch.tensor(x), torch.tensor(cc)).numpy()
        for out in _both(fn, x, cc):
            np.testing.assert_array_equal(out, want)


# Fuzzed: v2.clone().copy_(0.5) kept v2's history: d/dx0 of copy_(constant) was w0, not 0
# (an update whose new value does not require grad left the old grad_fn in place).

def test_copy_of_a_constant_cuts_the_gradient_to_the_old_value():
    def loss(x, c):
        y = (-x).clone().copy_(0.5)
        z = (x * 2.0).copy_(c)        # the gradient goes to c, none to x
        return (y * 3.0).sum() + (z * z).sum()

    x, c = np.array([1.0, -2.0]), np.array([0.25, 4.0])
    value, (gx, gc) = sg.value_and_grad(loss, argnums=(0, 1))(x, c)
    np.testing.assert_allclose(value, 3.0 * 0.5 * 2 + np.sum(c * c), rtol=1e-15)
    np.testing.assert_array_equal(gx, np.zeros(2))
    np.testing.assert_allclose(gc, 2 * c, rtol=1e-15)
    tx, tc = sg.tensor(x, requires_grad=True), sg.tensor(c, requires_grad=True)
    loss(tx, tc).backward()
    np.testing.assert_array_equal(tx.grad.numpy(), np.zeros(2))
    np.testing.assert_allclose(tc.grad.numpy(), 2 * c, rtol=1e-15)


# ------------------------------------------------------------------ int64 arithmetic
# Found by the fuzzer with int64 inputs and torch's typing rules in its model: an int64 tensor
# to a Python int power was float32 (so 4097 ** 2 rounded to 16785408), and fill_/copy_ of a
# float into an int64 tensor raised "can't be cast" where torch truncates.

def test_int64_to_a_python_int_power_is_exact_int64():
    x = np.array([-2, 0, 3, 4097], np.int64)
    for fn, e in ((lambda x: x ** 2, 2), (lambda x: sg.pow(x, 3), 3), (lambda x: x.pow(5), 5),
                  (lambda x: x ** 0, 0)):
        for out in _both(fn, x):
            assert out.dtype == np.int64
            np.testing.assert_array_equal(out, x ** e)           # NumPy: exact int64
    for run in (lambda: sg.compile(lambda x: x ** -1)(x), lambda: sg.tensor(x) ** -1):
        with pytest.raises(RuntimeError, match="Integers to negative integer powers"):
            run()


def test_fill_and_copy_cast_into_int64_like_torch():
    x = np.array([-2, 0, 3], np.int64)
    f = np.array([0.5, -1.7, 2.9])
    for out in _both(lambda x, f: x.clone().fill_(-1.5), x, f):
        np.testing.assert_array_equal(out, np.full(3, -1, np.int64))    # truncated
        assert out.dtype == np.int64
    for out in _both(lambda x, f: x.clone().copy_(f), x, f):
        np.testing.assert_array_equal(out, f.astype(np.int64))
        assert out.dtype == np.int64
    with pytest.raises(RuntimeError, match="can.t be cast to the desired output type Long"):
        sg.tensor(x).add_(sg.tensor(f))              # arithmetic in place still refuses


# Fuzzed (campaign, gradient checks): an in-place update of a tensor that does not require
# grad by one that does (c.clone().mul_(w)) raised "modified by an inplace operation ...
# needed by MulBackward0": the rule for w saves the old c, which was not snapshotted.

def test_in_place_update_by_a_tensor_that_requires_grad():
    def loss(w, c):
        y = c * 1.0                   # does not require grad
        y.mul_(w)
        return (y * y).sum()

    w, c = np.array([0.5, -2.0]), np.array([1.5, 3.0])
    expected = 2 * w * c * c
    np.testing.assert_allclose(sg.grad(loss)(w, c), expected, rtol=1e-15)
    tw = sg.tensor(w, requires_grad=True)
    loss(tw, sg.tensor(c)).backward()
    np.testing.assert_allclose(tw.grad.numpy(), expected, rtol=1e-15)
