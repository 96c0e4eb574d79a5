"""Maxima and minima of one long row in partial results (codegen/c/extrema.py): the same
extremum as NumPy's, NaN propagated, for every length around the block size, integer and
float dtypes, fused expressions and a max and a min in one loop; the blocked loop is the one
printed."""

import re

import numpy as np
import pytest

import symgrad as sg
from symgrad.codegen.c import extrema

RNG = np.random.default_rng(41)


@pytest.mark.parametrize("n", [extrema.MIN_LENGTH - 1, extrema.MIN_LENGTH,
                               extrema.MIN_LENGTH + 1, 5000 * extrema.PARTS + 31])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_long_maxima_and_minima_match_numpy(n, dtype):
    x = (RNG.normal(size=n) * 1000).astype(dtype)
    f = sg.compile(lambda x: (x.max(), x.min(), (x * 2 - 1).max()))
    got = f(x)
    for g, want in zip(got, (x.max(), x.min(), (x * 2 - 1).max())):
        assert g == want and np.asarray(g).dtype == want.dtype
    assert bool(re.search(r"acc\d*_v\[j\] = ", f.c_source)) == (n >= extrema.MIN_LENGTH)


@pytest.mark.parametrize("where", [0, 7, 40, 1500, 2047, 2048, 2070])
def test_a_nan_anywhere_is_the_maximum_and_the_minimum(where):
    x = RNG.normal(size=2071)
    x[where] = np.nan
    f = sg.compile(lambda x: (x.max(), x.min()))
    assert all(np.isnan(v) for v in f(x))
    x[where] = np.inf
    assert f(x)[0] == np.inf and f(x)[1] == x.min()


def test_infinities_and_one_element_extremes():
    x = np.full(3000, -np.inf)
    f = sg.compile(lambda x: (x.max(), (-x).min()))
    assert f(x)[0] == -np.inf and f(x)[1] == np.inf
    x[2999] = 5.0
    assert f(x)[0] == 5.0
