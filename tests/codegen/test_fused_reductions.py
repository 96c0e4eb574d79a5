"""A float sum fused with a max or a min over the same elements (codegen/c/sumloop.py, inner
nests): the max/min run in the block loop's SIMD lanes beside the sum, so the loop stays
vectorized (its libm calls too). Values against NumPy, NaNs and infinities included; the C
checked for the lanes."""

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(5)


def _max_and_sum(x):
    return x.max() + sg.exp(x - 4.5).sum()


def _max_and_sum_np(x):
    return np.max(x) + np.exp(x - 4.5).sum()


def test_a_max_beside_a_sum_runs_in_lanes():
    f = sg.compile(_max_and_sum)
    x = RNG.normal(size=10_000)
    np.testing.assert_allclose(f(x), _max_and_sum_np(x), rtol=1e-13)
    assert "reduction(max:acc0) reduction(+:acc0_nan) reduction(+:acc1)" in f.c_source


@pytest.mark.parametrize("special", [np.nan, -np.nan, np.inf, -np.inf])
def test_special_values_reach_the_max(special):
    f = sg.compile(_max_and_sum)
    x = RNG.normal(size=10_000)
    x[7_777] = special
    got, want = f(x), _max_and_sum_np(x)
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert got == want or np.isclose(got, want, rtol=1e-13)


def test_rows_min_beside_rows_sum():
    """Kept rows: each row's min and sum in one nest (the min in lanes), against NumPy."""
    f = sg.compile(lambda X: sg.amin(X, 1) * 2.0 + sg.log1p(X * X).sum(1))
    X = RNG.normal(size=(37, 600))
    X[3, 100] = np.nan
    got = f(X)
    want = np.min(X, 1) * 2.0 + np.log1p(X * X).sum(1)
    np.testing.assert_allclose(got, want, rtol=1e-13)
    assert np.isnan(got[3]) and np.isnan(want[3])
    assert "reduction(min:acc0) reduction(+:acc0_nan) reduction(+:acc1)" in f.c_source
