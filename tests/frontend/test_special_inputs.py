"""Values and gradients at special inputs (NaN, infinities, zeros) beyond the sweep's samples:
torch's vector loop and scalar tail at NaN for sizes the sweep does not draw, prod's and
cumprod's zero-aware backward on several rows and along a dim, logcumsumexp's NaNs at -inf,
searchsorted's binary search eagerly and compiled, var's backward with an empty dim, and
compiled gradients agreeing with eager ones. Each against stored values torch gave (or a
hand-derived oracle) and, when torch is installed, against torch live."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.functions.lanes import vector_mask
from symgrad.frontend.random.generator import capability

NAN, INF = float("nan"), float("inf")


def _same(a, b) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


def _grad(lib, fn, data, dtype="float64", create=False):
    x = lib.tensor(np.asarray(data), dtype=getattr(lib, dtype), requires_grad=True)
    y = fn(lib, x)
    w = lib.tensor((1 + np.arange(y.numel()) % 7 * 0.25).reshape(tuple(y.shape)),
                   dtype=y.dtype)
    (g,) = lib.autograd.grad((y * w).sum(), x, create_graph=create)
    return g.detach().numpy()


# ---------------------------------------------------------------- vector loop and scalar tail

def test_vector_mask_steps():
    """A step is ``vectors`` vectors of 64 bytes (AVX-512) or 32 (AVX2, default build)."""
    assert vector_mask((33,), 4, 2, "avx512").tolist() == [True] * 32 + [False]
    assert vector_mask((31,), 4, 2, "avx512") is False
    assert vector_mask((16,), 8, 2, "avx512") is True
    assert vector_mask((9,), 8, 1, "avx512").tolist() == [True] * 8 + [False]
    assert vector_mask((2, 5), 8, 1, "avx2").ravel().tolist() == [True] * 8 + [False] * 2
    assert vector_mask((3,), 8, 1, "default") is False


ACTIVATIONS = {   # name: (function, loop step in vectors, gradient at NaN: vector, scalar)
    "hardtanh": (lambda lib, x: lib.nn.functional.hardtanh(x), 1, 0.0, 1.0),
    "hardshrink": (lambda lib, x: lib.nn.functional.hardshrink(x), 1, 0.0, 1.0),
    "softshrink": (lambda lib, x: lib.nn.functional.softshrink(x), 1, 0.0, 1.0),
    "relu6": (lambda lib, x: lib.nn.functional.relu6(x), 1, 0.0, 1.0),
    "elu": (lambda lib, x: lib.nn.functional.elu(x), 2, NAN, 1.0),
    "hardswish": (lambda lib, x: lib.nn.functional.hardswish(x), 2, NAN, 1.0),
    "logit_eps": (lambda lib, x: lib.logit(x, 1e-6), 2, 0.0, NAN),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nan_gradient_by_lane(name, dtype):
    """The gradient at a NaN: the vector lambda's in the whole steps, the scalar one's in the
    tail (the oracle: this machine's loop layout, from the capability torch would use)."""
    fn, vectors, in_vector, in_scalar = ACTIVATIONS[name]
    itemsize = 4 if dtype == "float32" else 8
    step = (64 if capability() == "avx512" else 32) // itemsize * vectors
    for n in (1, 7, 16, 17, 33, 40):
        for p in sorted({0, n // 2, n - 1}):
            data = np.full(n, 0.25)
            data[p] = NAN
            got = _grad(sg, fn, data, dtype)[p]
            weight = 1 + p % 7 * 0.25
            want = (in_vector if p < n - n % step else in_scalar) * weight
            assert _same(got, want), (n, p, got, want)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_nan_gradient_by_lane_torch(name):
    torch = pytest.importorskip("torch")
    fn = ACTIVATIONS[name][0]
    for dtype in ("float32", "float64"):
        for n in (8, 16, 31, 33, 64, 70):
            data = np.full(n, 0.25)
            data[::5] = NAN
            data[1::7] = INF
            data[2::9] = -INF
            assert _same(_grad(sg, fn, data, dtype), _grad(torch, fn, data, dtype)), (dtype, n)


def test_gelu_float32_infinity():
    """float32 GELU at +inf: NaN from torch's vector loop (two elements or more), inf alone."""
    f = sg.nn.functional.gelu
    assert np.isnan(f(sg.tensor([INF, 0.0])).numpy()[0])
    assert f(sg.tensor([INF])).numpy()[0] == INF
    assert f(sg.tensor([INF, 0.0], dtype=sg.float64)).numpy()[0] == INF


# ---------------------------------------------------------------- zero-aware backward

PROD_CASES = [   # (data, dim, torch's first-order gradient with the weights of _grad)
    ([[1.0, 2, 0], [3, 0, 0]], None, [[0, 0, 0], [0, 0, 0]]),
    ([[1.0, 2, 0], [3, 0, 0]], 0, [[3, 0, 0], [1, 2.5, 0]]),
    ([[1.0, 2, 0], [3, 0, 0]], 1, [[0, 0, 2], [0, 0, 0]]),
    ([0.0, 2, 3, INF], None, [INF, NAN, NAN, 0]),
    ([[0.0, 2, INF], [4, 5, 6]], 0, [[4, 6.25, 9], [0, 2.5, INF]]),
]


@pytest.mark.parametrize("case", range(len(PROD_CASES)))
def test_prod_zeros(case):
    data, dim, want = PROD_CASES[case]

    def fn(lib, x):
        return x.prod() if dim is None else x.prod(dim)
    assert _same(_grad(sg, fn, data), want)
    torch = pytest.importorskip("torch")
    for create in (False, True):
        assert _same(_grad(sg, fn, data, create=create), _grad(torch, fn, data, create=create))


CUMPROD_CASES = [   # (data, torch's first-order gradient along the last dim)
    ([[1.0, 0, 2, 3], [4, 5, 6, 7]], [[1, 14.75, 0, 0], [298.25, 237, 190, 120]]),
    ([[1.0, 0, 2, 0], [0, 5, 0, 7]], [[1, 4.25, 0, 0], [13.25, 0, 0, 0]]),
    ([1.0, 2, 0, NAN, 3], [3.5, 1.25, NAN, 0, 0]),
    ([INF, 0, 2, 3], [NAN, INF, 0, 0]),
]


@pytest.mark.parametrize("case", range(len(CUMPROD_CASES)))
def test_cumprod_zeros(case):
    data, want = CUMPROD_CASES[case]

    def fn(lib, x):
        return x.cumprod(-1)
    assert _same(_grad(sg, fn, data), want)
    torch = pytest.importorskip("torch")
    assert _same(_grad(sg, fn, data), _grad(torch, fn, data))


def test_compiled_gradients_agree_with_eager():
    """symgrad.grad of prod and cumprod (finite inputs, with and without zeros) gives the
    eager backward's numbers."""
    weights = sg.tensor([1.0, 2.0, 3.0])

    def f(x):
        return (x.prod(0) * weights).sum() + (x.cumprod(1) * weights).sum()
    for a in (np.array([[1.0, 2, 0], [3, 0, 0]]), np.array([[1.0, 2, 3], [4, 5, 6]])):
        x = sg.tensor(a, requires_grad=True)
        f(x).backward()
        assert _same(np.asarray(sg.grad(f)(a)), x.grad.numpy())


def _central(fn, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """d fn / d x by central differences in float64 (fn returns an array)."""
    cols = []
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        cols.append((np.asarray(fn(x + e)) - np.asarray(fn(x - e))) / (2 * h))
    return np.moveaxis(np.array(cols), 0, -1).reshape(np.shape(fn(x)) + x.shape)


@pytest.mark.parametrize("zeros", [(), ((0, 1),), ((0, 1), (0, 2)), ((0, 1), (1, 3))])
def test_compiled_prod_derivatives_choose_one_side(zeros):
    """The compiled prod gradient decides per call, as torch does, with a ``cond`` (the C runs
    one side): first and second derivatives with no, one and two zeros, along a dim and of
    all elements, and per row under vmap (rows with and without zeros), against central
    differences of the compiled function."""
    x = np.random.default_rng(len(zeros)).normal(size=(3, 4))
    for z in zeros:
        x[z] = 0.0
    weights = sg.tensor([1.0, -2.0, 3.0])
    for fn in (lambda v: (v.prod(1) * weights).sum(), lambda v: v.prod() * 2.0):
        grad = sg.grad(fn)
        assert np.allclose(grad(x), _central(sg.compile(fn), x), atol=1e-6)
        assert np.allclose(sg.hessian(fn)(x), _central(grad, x), atol=1e-5)
    per_row = sg.vmap(sg.grad(lambda r: r.prod()))(x)
    assert np.allclose(per_row, [np.diag(_central(lambda r: r.prod(keepdims=True) * np.ones(
        r.size), r)) for r in x], atol=1e-6)
    ir = sg.inspect(sg.grad(lambda v: v.prod(1).sum()), x).optimized_ir
    assert " = cond " in ir and "cumprod [axis=1 reverse=True]" in ir


LCSE_CASES = [   # (data, torch's gradient with the weights of _grad)
    ([-INF, 1.0, 2.0], [NAN, 1.653412132055, 1.096587867945]),
    ([1.0, -INF, 2.0], [2.653412132055, 0.0, 1.096587867945]),
    ([-INF, -INF, 2.0], [NAN, NAN, 1.5]),
    ([1.0, -INF, NAN], [NAN, NAN, NAN]),
    ([INF, -INF, 1.0], [NAN, 0.0, 0.0]),
]


@pytest.mark.parametrize("case", range(len(LCSE_CASES)))
def test_logcumsumexp_infinities(case):
    data, want = LCSE_CASES[case]

    def fn(lib, x):
        return x.logcumsumexp(0)
    got = _grad(sg, fn, data)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(np.nan_to_num(got), np.nan_to_num(want), rtol=1e-11)
    torch = pytest.importorskip("torch")
    assert _same(got, _grad(torch, fn, data))


# ---------------------------------------------------------------- searchsorted, var

SEARCH_CASES = [   # (boundaries, values, right, torch's result)
    ([0.5, -0.5, 2.5, -1.5, 1e-8], [1.0, NAN, -INF, 0.0], False, [2, 5, 0, 2]),
    ([1.0, 2, NAN, 4], [0.0, 2, 3, 4, 5, NAN], False, [3, 3, 3, 3, 4, 4]),
    ([1.0, 2, NAN, 4], [0.0, 2, 3, 4, 5, NAN], True, [3, 3, 3, 4, 4, 4]),
    ([[1.0, 1, 2, 3], [3, 2, 1, 0]], [[1.0, 2.5], [1.0, 2.5]], True, [[2, 3], [4, 4]]),
]


@pytest.mark.parametrize("case", range(len(SEARCH_CASES)))
def test_searchsorted_binary_search(case):
    seq, values, right, want = SEARCH_CASES[case]
    s, v = np.asarray(seq), np.asarray(values)
    assert sg.searchsorted(sg.tensor(s), sg.tensor(v), right=right).numpy().tolist() == want
    compiled = sg.compile(lambda a, b: sg.searchsorted(a, b, right=right))
    assert np.asarray(compiled(s, v)).tolist() == want
    torch = pytest.importorskip("torch")
    assert torch.searchsorted(torch.tensor(s), torch.tensor(v), right=right).tolist() == want


@pytest.mark.parametrize("correction", [0, 1, 2])
def test_var_empty_dim_backward(correction):
    """dim=() reduces every element; torch's backward divides 2 by 1 - correction there."""
    data = np.array([[1.0, 2, 3], [4, 5, 7]])
    centered = data - data.mean()
    want = (2.0 / (1 - correction) if correction != 1 else INF) * centered
    with np.errstate(invalid="ignore"):
        want = np.where(centered == 0, NAN, want) if correction == 1 else want

    def fn(lib, x):
        return x.var((), correction=correction)
    got = _grad(sg, fn, data)
    assert _same(got, want)
    torch = pytest.importorskip("torch")
    assert _same(got, _grad(torch, fn, data))
