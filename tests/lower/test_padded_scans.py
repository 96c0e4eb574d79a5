"""Scans read padded operands in place (lower/cumulative.py, codegen/c/cumulative.py): a
cumprod of ``cat([ones, x])`` (``vander``'s powers, ``prod``'s gradient) reads the padding's
fill outside the window instead of a copy written first. Values against NumPy."""

import re

import numpy as np

import symgrad as sg

RNG = np.random.default_rng(31)


def test_vander_powers_are_read_padded_by_their_cumprod():
    t = RNG.uniform(-1, 1, 300)
    f = sg.compile(lambda t: sg.vander(t, N=9, increasing=True))
    np.testing.assert_allclose(f(t), np.vander(t, 9, increasing=True), rtol=1e-14)
    assert "cumprod along axis 1" in f.c_source
    assert not re.search(r"/\* k\d+: cat ->", f.c_source)


def test_padded_scans_both_ways_and_in_float32():
    x = RNG.normal(size=(5, 7)).astype(np.float32)

    def f(x):
        ones = sg.ones((5, 2), dtype=x.dtype)
        padded = sg.cat([ones * 3.0, x, ones], 1)            # fills 3 and 1 around x
        return sg.cumsum(padded, 1), sg.cumprod(padded.flip(1), 1).flip(1)
    got_sum, got_prod = sg.compile(f)(x)
    padded = np.concatenate([np.full((5, 2), 3.0, np.float32), x, np.ones((5, 2), np.float32)],
                            1)
    np.testing.assert_allclose(got_sum, np.cumsum(padded.astype(np.float64), 1), rtol=1e-6)
    want = np.cumprod(padded[:, ::-1].astype(np.float64), 1)[:, ::-1]
    np.testing.assert_allclose(got_prod, want, rtol=1e-5)


def test_the_gradient_of_prod_reads_its_shifted_operands_padded():
    x = RNG.uniform(0.5, 1.5, (4, 6))
    g = sg.compile(sg.grad(lambda x: x.prod(1).sum()))
    want = np.prod(x, 1, keepdims=True) / x
    np.testing.assert_allclose(g(x), want, rtol=1e-13)
    assert not re.search(r"/\* k\d+: cat ->", g.c_source)
