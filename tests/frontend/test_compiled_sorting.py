"""Sorting inside ``symgrad.compile`` (the ``argsort`` primitive and its C merge sort): sort,
argsort, msort, topk, kthvalue and median give the eager results bit for bit (ties in stable
order, NaN last ascending and first descending) along every axis of 2-D and 3-D float32,
float64 and int64 inputs; kthvalue/median indices are the stable order's (eager ones where no
value repeats); gradients through the values against float64 central differences; torch's
results when it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from tests.references import central_differences, gradient

SHAPES = [(37, 18), (5, 34, 17)]      # rows longer than the C's insertion runs (16) merge


def _data(rng, shape, dtype):
    """Small integers (many ties); floats also get NaN and infinities (no -0.0: kthvalue's
    eager and compiled picks among equal values could differ in the sign of a zero)."""
    a = rng.integers(-4, 5, size=shape).astype(dtype)
    if a.dtype.kind == "f":
        a[rng.random(shape) < 0.15] = np.nan
        a[rng.random(shape) < 0.05] = np.inf
        a[rng.random(shape) < 0.05] = -np.inf
    return a


def _all(t, axis, k, descending):
    """Every sorting function along ``axis``, as a flat tuple (compiled functions return one)."""
    s = t.sort(dim=axis, descending=descending)
    top = t.topk(k, dim=axis, largest=descending)
    kth = t.kthvalue(k, dim=axis, keepdim=descending)
    med = t.median(dim=axis)
    return (s.values, s.indices, t.argsort(dim=axis, descending=descending), top.values,
            top.indices, kth.values, kth.indices, med.values, med.indices)


def _everything(t):
    out = [t.msort(), t.median()]
    for axis in range(t.ndim):
        for descending in (False, True):
            out += _all(t, axis, min(3, t.shape[axis]), descending)
    return tuple(out)


def _same(a, b):
    """Bit-identical arrays: dtype, shape and bytes (NaN payloads, signs of zeros)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    assert a.tobytes() == b.tobytes(), (a, b)


def _stable_kth(a, axis, k, keepdim):
    """The index of the k-th smallest in the stable order (NaN last): compiled kthvalue's."""
    idx = np.take(np.argsort(a, axis=axis, kind="stable"), [k - 1], axis=axis)
    return idx if keepdim else np.squeeze(idx, axis)


def _median_index(a, axis):
    """torch's median index: the first NaN's where the slice has one, else the lower median's
    (the stable order's, in compiled code)."""
    kth = _stable_kth(a, axis, (a.shape[axis] - 1) // 2 + 1, False)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    return np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), kth)


@pytest.mark.parametrize("shape", SHAPES, ids=["2d", "3d"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_compiled_matches_eager(shape, dtype):
    rng = np.random.default_rng(len(shape) * 10 + np.dtype(dtype).itemsize)
    a = _data(rng, shape, dtype)
    x = sg.tensor(a)
    got = sg.compile(_everything)(x)
    want = _everything(x)
    assert len(got) == len(want)
    _same(got[0], want[0].numpy())                     # msort
    _same(got[1], want[1].numpy())                     # median of all elements (a value)
    at = 2
    for axis in range(a.ndim):
        for descending in (False, True):
            k = min(3, a.shape[axis])
            g, w = got[at:at + 9], [t.numpy() for t in want[at:at + 9]]
            at += 9
            for j in (0, 1, 2, 3, 4, 5, 7):            # values, and the orders' indices
                _same(g[j], w[j])
            _same(g[6], _stable_kth(a, axis, k, descending))
            _same(g[8], _median_index(a, axis))


def test_long_rows_and_bool():
    """Rows of 1000 (seven merge passes) with many ties and NaN; bool keys."""
    rng = np.random.default_rng(7)
    a = _data(rng, (2, 1000), np.float64)
    b = rng.random((3, 50)) < 0.5

    def f(t, m):
        return (t.sort(descending=False), t.sort(descending=True), t.argsort(dim=0),
                m.sort(), m.sort(descending=True), m.argsort(dim=0, descending=True))
    got = sg.compile(f)(sg.tensor(a), sg.tensor(b))
    want = f(sg.tensor(a), sg.tensor(b))
    for g, w in zip(got, want):
        for gi, wi in zip(g if isinstance(g, tuple) else (g,), w if isinstance(w, tuple)
                          else (w,)):
            _same(gi, wi.numpy())


def test_small_and_degenerate_shapes():
    """One element along the axis, a 0-d input, k = 0 and k = n, a broadcast operand."""
    a = np.array([[2.0], [1.0], [np.nan]])

    def f(t, s):
        return (t.sort(0).indices, t.sort(1).values, t.topk(0, dim=0).values,
                t.topk(3, dim=0, largest=False).indices, s.sort().values, s.argsort(),
                t.expand(3, 4).sort(1, descending=True).indices, t.median(0).indices)
    got = sg.compile(f)(sg.tensor(a), sg.tensor(5.0))
    want = f(sg.tensor(a), sg.tensor(5.0))
    for g, w in zip(got, want):
        _same(g, w.numpy())


def test_kthvalue_matches_eager_without_ties():
    a = np.random.default_rng(3).normal(size=(6, 21))

    def f(t):
        return t.kthvalue(4, 1), t.median(0), t.median(1, keepdim=True)
    got = sg.compile(f)(sg.tensor(a))
    want = f(sg.tensor(a))
    for g, w in zip(got, want):
        _same(g.values, w.values.numpy())
        _same(g.indices, w.indices.numpy())


def _loss(t):
    w = sg.tensor(np.linspace(-1.0, 2.0, 20).reshape(4, 5))
    s = t.sort(dim=1, descending=True).values * w
    top = t.topk(3, dim=0, largest=False).values * w[:3]
    return s.sum() + (top * top).sum() + t.kthvalue(2, 1).values.sum() + t.median()


def test_gradients_match_central_differences():
    x0 = np.random.default_rng(5).normal(size=(4, 5))       # no ties: differentiable
    fd = central_differences(_loss, x0)
    got = gradient(_loss, x0, "compiled")
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got, gradient(_loss, x0, "eager"), rtol=1e-14, atol=1e-14)


def test_against_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(11)
    a = _data(rng, (6, 40), np.float64)
    c = rng.normal(size=(6, 40))                             # no ties: every index defined

    def f(t, u):
        return (t.sort(1), t.sort(0, descending=True), u.topk(5, 1), u.topk(4, 0, largest=False),
                u.kthvalue(7, 1), u.median(0), t.msort())
    got = sg.compile(f)(sg.tensor(a), sg.tensor(c))
    ta, tc = torch.from_numpy(a), torch.from_numpy(c)
    want = (torch.sort(ta, stable=True, dim=1),
            torch.sort(ta, stable=True, dim=0, descending=True),
            torch.topk(tc, 5, 1), torch.topk(tc, 4, 0, largest=False), torch.kthvalue(tc, 7, 1),
            torch.median(tc, 0), torch.msort(ta))
    for g, w in zip(got[:-1], want[:-1]):
        _same(g.values, w.values.numpy())
        _same(g.indices, w.indices.numpy())
    _same(got[-1], want[-1].numpy())


def test_descending_integer_sort_does_not_overflow():
    """Descending keys of integers are ~v (-v overflows at INT64_MIN; uint8 wraps)."""
    for values, dtype, want in (([5, -2**63, 0], sg.int64, [5, 0, -2**63]),
                                ([0, 1, 2], sg.uint8, [2, 1, 0])):
        x = sg.tensor(values, dtype=dtype)
        assert x.sort(descending=True).values.tolist() == want
        assert np.asarray(sg.compile(lambda t: t.sort(descending=True).values)(x)).tolist() \
            == want
