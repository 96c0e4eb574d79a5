"""Banded loops (lower/band.py, codegen/c/band.py): a loop whose last index enters only
through equality tests of an arange constant (a dense Hessian's or Jacobian's identity
columns) computes its values off the band once per row and exactly at each index a test hits.

Values against hand-derived NumPy formulas, bit for bit against the same loop unbanded
(non-finite inputs and signed zeros included), and the C checked for the banded kernel.
"""

import numpy as np
import pytest

import symgrad as sg
from references import rosenbrock, rosenbrock_hessian
from symgrad.lower import band

RNG = np.random.default_rng(41)


def test_a_dense_hessian_is_computed_off_its_band_once_per_row():
    x = RNG.normal(size=300)
    h = sg.compile(sg.hessian(rosenbrock))
    H = h(x)
    want = rosenbrock_hessian(x)
    np.testing.assert_allclose(H, want, rtol=1e-14, atol=1e-12)
    assert np.count_nonzero(H) == 3 * x.size - 2
    assert "banded: 4 tests of the last index" in h.c_source


def test_banded_loops_give_the_plain_loops_numbers_bit_for_bit(monkeypatch):
    """Non-finite values and zeros of either sign in the inputs: the banded loop and the
    plain one (the band off) agree in every bit."""
    def f(x):
        return (sg.exp(x[:-2] * x[2:]) + sg.sin(x[1:-1]) ** 2).sum()

    def g(x):
        return sg.sin(x) * sg.flip(x, [0]) + x[0]
    n = 120
    x = RNG.normal(size=n)
    inputs = [x, np.where(np.arange(n) == 3, np.inf, x), np.where(np.arange(n) == 5, np.nan, x),
              -0.0 * np.abs(x)]
    transforms = [sg.hessian(rosenbrock), sg.hessian(f), sg.jacfwd(g)]
    got = [[np.asarray(t(v)) for v in inputs] for t in transforms]
    # (the second's loops read shifted products along the row: not banded)
    assert "banded" in transforms[0].c_source and "banded" in transforms[2].c_source
    monkeypatch.setattr(band, "BAND_MIN", 10 ** 9)          # every loop plain
    monkeypatch.setenv("SYMGRAD_WARM_START", "0")
    for t, row in zip([sg.hessian(rosenbrock), sg.hessian(f), sg.jacfwd(g)], got):
        for v, mine in zip(inputs, row):
            plain = np.asarray(t(v))
            assert "banded" not in t.c_source
            assert plain.tobytes() == mine.tobytes()


@pytest.mark.parametrize("n", [64, 65, 200])
def test_a_jacobian_of_an_elementwise_function_is_its_diagonal(n):
    x = RNG.uniform(0.5, 2.0, size=n)
    J = sg.jacfwd(lambda x: sg.log(x) * x)(x)
    np.testing.assert_allclose(J, np.diag(np.log(x) + 1), rtol=1e-15, atol=0)
    J = sg.jacrev(lambda x: sg.sqrt(x) * x[0])(x)
    want = np.diag(x[0] / (2 * np.sqrt(x)))
    want[:, 0] += np.sqrt(x)
    np.testing.assert_allclose(J, want, rtol=1e-14, atol=0)
