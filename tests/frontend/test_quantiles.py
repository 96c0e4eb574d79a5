"""quantile, nanquantile (eager and compiled), nanmedian, mode and kthvalue's ties
(frontend/functions/sorting.py): values against NumPy's
quantile methods and against torch (when installed), gradients against float64 central
differences, torch's errors."""

import math

import numpy as np
import pytest

import symgrad as sg
from tests.references import central_differences, gradient

METHODS = ["linear", "lower", "higher", "midpoint", "nearest"]


@pytest.mark.parametrize("interpolation", METHODS)
def test_quantile_matches_numpy(interpolation):
    rng = np.random.default_rng(1)
    a = rng.normal(size=(4, 7))
    q = np.array([0.0, 0.1, 0.25, 0.5, 0.9, 1.0])
    x = sg.tensor(a)
    got = sg.quantile(x, sg.tensor(q), dim=1, interpolation=interpolation).numpy()
    np.testing.assert_allclose(got, np.quantile(a, q, axis=1, method=interpolation), rtol=1e-14)
    got = sg.quantile(x, 0.3, interpolation=interpolation).item()
    assert got == pytest.approx(np.quantile(a, 0.3, method=interpolation), rel=1e-14)
    kept = sg.quantile(x, sg.tensor(q), dim=0, keepdim=True, interpolation=interpolation)
    assert kept.shape == (6, 1, 7)


def test_nan_handling():
    a = np.array([[1.0, math.nan, 3.0, 7.0], [2.0, 5.0, 1.0, 0.0], [math.nan] * 4])
    x = sg.tensor(a)
    got = sg.quantile(x, 0.4, dim=1).numpy()
    assert math.isnan(got[0]) and math.isnan(got[2]) and got[1] == np.quantile(a[1], 0.4)
    got = sg.nanquantile(x, 0.4, dim=1).numpy()
    np.testing.assert_allclose(got[:2], np.nanquantile(a[:2], 0.4, axis=1))
    assert math.isnan(got[2])
    med = sg.nanmedian(sg.tensor(a[:2]), 1)
    assert med.values.tolist() == [3.0, 1.0] and med.indices.tolist() == [2, 2]
    assert sg.nanmedian(sg.tensor(a[0])).item() == 3.0


def test_quantile_gradient():
    x0 = np.array([0.3, -1.2, 2.5, 0.9, 1.7, -0.4])

    def f(t):
        q = sg.tensor([0.2, 0.5, 0.85], dtype=sg.float64)
        return (sg.quantile(t, q) * sg.tensor([1.0, 2.0, 3.0])).sum()
    np.testing.assert_allclose(gradient(f, x0, "eager"), central_differences(f, x0), atol=1e-8)


def test_mode_picks_the_smallest_most_frequent_and_its_last_index():
    r = sg.tensor([1, 3, 3, 1, 2]).mode()
    assert (r.values.item(), r.indices.item()) == (1, 3)
    r = sg.tensor([[1, 1, 2], [3, 2, 2]]).mode(0)
    assert r.values.tolist() == [1, 1, 2] and r.indices.tolist() == [0, 0, 1]
    r = sg.tensor([[1.0, 1.0, 2.0], [3.0, 2.0, 2.0]]).mode(1, keepdim=True)
    assert r.values.tolist() == [[1.0], [2.0]] and r.indices.tolist() == [[1], [2]]


def test_errors_and_compiled_use():
    x = sg.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"q values must be in the range \[0, 1\]"):
        sg.quantile(x, 1.5)
    with pytest.raises(RuntimeError, match="interpolation must be one of"):
        sg.quantile(x, 0.5, interpolation="cubic")
    with pytest.raises(RuntimeError, match="same dtype"):
        sg.quantile(x, sg.tensor([0.5], dtype=sg.float64))
    with pytest.raises(RuntimeError, match="float or double"):
        sg.quantile(sg.tensor([1, 2]), 0.5)
    with pytest.raises(RuntimeError, match="1D tensor of known values"):
        sg.compile(lambda t: sg.quantile(t, t[:1]))(x)


@pytest.mark.parametrize("interpolation", METHODS)
def test_compiled_quantiles_equal_eager(interpolation):
    rng = np.random.default_rng(4)
    a = rng.normal(size=(3, 9))
    a[1, 4] = math.nan
    a[2, :] = a[2, 0]                                    # a tied row
    q = sg.tensor([0.0, 0.3, 0.5, 1.0], dtype=sg.float64)

    def f(t):
        return (sg.quantile(t, q, dim=1, interpolation=interpolation),
                sg.nanquantile(t, q, dim=1, keepdim=True, interpolation=interpolation),
                sg.quantile(t, 0.7, interpolation=interpolation))
    eager, compiled = f(sg.tensor(a)), sg.compile(f)(sg.tensor(a))
    for e, c in zip(eager, compiled):
        np.testing.assert_array_equal(np.asarray(c), e.numpy())


def test_compiled_quantile_gradient():
    x0 = np.array([0.3, -1.2, 2.5, 0.9, 1.7, -0.4])

    def f(t):
        return (sg.quantile(t, sg.tensor([0.2, 0.5, 0.85], dtype=sg.float64))
                * sg.tensor([1.0, 2.0, 3.0])).sum()
    np.testing.assert_allclose(gradient(f, x0, "compiled"), central_differences(f, x0),
                               atol=1e-8)


def test_against_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    a = rng.normal(size=(3, 5))
    a[1, 2] = math.nan
    for interpolation in METHODS:
        for fn in ("quantile", "nanquantile"):
            q = torch.tensor([0.1, 0.6], dtype=torch.float64)
            want = getattr(torch, fn)(torch.tensor(a), q, dim=1, keepdim=True,
                                      interpolation=interpolation).numpy()
            got = getattr(sg, fn)(sg.tensor(a), sg.tensor([0.1, 0.6], dtype=sg.float64), dim=1,
                                  keepdim=True, interpolation=interpolation).numpy()
            np.testing.assert_allclose(got, want, rtol=1e-14, equal_nan=True)
    ints = rng.integers(0, 3, size=(4, 6))
    for dim in (0, 1):
        want, got = torch.tensor(ints).mode(dim), sg.tensor(ints).mode(dim)
        assert got.values.tolist() == want.values.tolist()
        assert got.indices.tolist() == want.indices.tolist()
    t = torch.tensor(a[0], requires_grad=True)
    s = sg.tensor(a[0], requires_grad=True)
    torch.quantile(t, torch.tensor([0.3, 0.7], dtype=torch.float64)).sum().backward()
    sg.quantile(s, sg.tensor([0.3, 0.7], dtype=sg.float64)).sum().backward()
    np.testing.assert_allclose(s.grad.numpy(), t.grad.numpy(), rtol=1e-14)


def test_kthvalue_ties_resolve_to_torchs_index():
    """Among equal values, the index torch's quickselect lands on (not the stable sort's):
    checked against torch on random rows with many ties and NaN, along either dim."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    for _ in range(200):
        shape = tuple(int(v) for v in rng.integers(1, 9, 2))
        a = rng.integers(0, 4, shape).astype(float)
        if rng.random() < 0.3:
            a.flat[0] = math.nan
        dim = int(rng.integers(0, 2))
        k = int(rng.integers(1, shape[dim] + 1))
        want, got = torch.tensor(a).kthvalue(k, dim), sg.tensor(a).kthvalue(k, dim)
        np.testing.assert_array_equal(got.indices.numpy(), want.indices.numpy())
        np.testing.assert_array_equal(got.values.numpy(), want.values.numpy())


def test_kthvalue_of_a_known_row():
    r = sg.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]).kthvalue(2)
    assert (r.values.item(), r.indices.item()) == (1.0, 1)     # torch's (a stable sort: 1)
    r = sg.tensor([3.0, 1.0, 2.0, 1.0, 5.0]).kthvalue(2)
    assert (r.values.item(), r.indices.item()) == (1.0, 3)
    assert sg.tensor(5.0).kthvalue(1).indices.shape == ()


def test_compiled_nanmedian_equals_eager():
    a = np.array([[1.0, math.nan, 3.0, 7.0], [2.0, 5.0, 1.0, 0.0], [math.nan] * 4])

    def f(t):
        r = sg.nanmedian(t, 1)
        return r.values, r.indices, sg.nanmedian(t[:2])
    eager, compiled = f(sg.tensor(a)), sg.compile(f)(sg.tensor(a))
    for e, c in zip(eager, compiled):
        np.testing.assert_array_equal(np.asarray(c), e.numpy())
    assert eager[0].tolist()[:2] == [3.0, 1.0] and eager[1].tolist()[:2] == [2, 2]
