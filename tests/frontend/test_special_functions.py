"""torch.special's Bessel, Airy, erfcx/log_ndtr/ndtri, incomplete gamma and polynomial
functions (``frontend.functions.special_functions``): values against independent oracles
(mpmath, closed forms, stored torch 2.13 numbers), gradients against float64 central
differences and torch's formulas, twice-differentiable rules, and the refusal inside compile.
The sweep (tests/sweep) compares every sample with torch; this file holds what it does not.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import symgrad
from symgrad.errors import TracerValueError

SP = symgrad.special
XS = np.array([-30.0, -7.5, -2.0, -0.3, 1e-9, 0.4, 1.7, 4.0, 9.0, 26.0, 60.0, 800.0])


def _values(fn, xs):
    return fn(symgrad.tensor(xs, dtype=symgrad.float64)).numpy()


@pytest.mark.parametrize("name, oracle", [
    ("i0e", lambda x: mpmath.besseli(0, x) * mpmath.exp(-abs(x))),
    ("i1e", lambda x: mpmath.besseli(1, x) * mpmath.exp(-abs(x))),
    ("bessel_j0", lambda x: mpmath.besselj(0, x)),
    ("bessel_j1", lambda x: mpmath.besselj(1, x)),
    ("airy_ai", mpmath.airyai),
    ("erfcx", lambda x: mpmath.exp(x * x) * mpmath.erfc(x)),
    ("log_ndtr", lambda x: mpmath.log(mpmath.ncdf(x))),
])
def test_values_against_mpmath(name, oracle):
    got = _values(getattr(SP, name), XS)
    want = np.array([float(oracle(mpmath.mpf(x))) for x in XS])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name, order", [("bessel_y0", 0), ("bessel_y1", 1),
                                         ("modified_bessel_k0", 0), ("modified_bessel_k1", 1)])
def test_second_kind_against_mpmath(name, order):
    xs = XS[XS > 0]
    oracle = mpmath.bessely if name.startswith("bessel") else mpmath.besselk
    want = np.array([float(oracle(order, mpmath.mpf(x))) for x in xs])
    np.testing.assert_allclose(_values(getattr(SP, name), xs), want, rtol=1e-11, atol=1e-15)


def test_edges_as_torch():
    """torch 2.13's values at 0, -0, +-inf, NaN and out of the domain (stored)."""
    x = np.array([0.0, -0.0, -1.5, math.inf, -math.inf, math.nan])
    nan, inf = math.nan, math.inf
    want = {
        "i0": [1.0, 1.0, 1.6467231897728907, nan, nan, nan],
        "i1e": [0.0, 0.0, -0.21903938742092566, 0.0, -0.0, nan],
        "modified_bessel_k0": [inf, inf, nan, 0.0, nan, nan],
        "bessel_y1": [-inf, -inf, nan, nan, nan, nan],
        "spherical_bessel_j0": [1.0, 1.0, 0.6649966577360363, 0.0, 0.0, nan],
        "erfcx": [1.0, 1.0, 18.653886256262734, 0.0, inf, nan],
        "log_ndtr": [-0.6931471805599453, -0.6931471805599453, -2.7059444008238898, -0.0, -inf,
                     nan],
    }
    for name, values in want.items():
        np.testing.assert_allclose(_values(getattr(SP, name), x), values, rtol=1e-13,
                                   err_msg=name)
    p = symgrad.tensor([0.0, 1.0, 0.5, -0.1, 1.1, 1e-300], dtype=symgrad.float64)
    np.testing.assert_allclose(SP.ndtri(p).numpy(), [-inf, inf, 0.0, nan, nan,
                                                     -37.0470962993612], rtol=1e-12)
    a = symgrad.tensor([0.0, 0.0, 1.0, -1.0, 2.0, inf, 1.0, nan, 1e30], dtype=symgrad.float64)
    b = symgrad.tensor([0.0, 1.0, 0.0, 1.0, inf, 1.0, -1.0, 1.0, 1e30], dtype=symgrad.float64)
    np.testing.assert_allclose(SP.gammainc(a, b).numpy(),
                               [nan, 1.0, 0.0, nan, 1.0, 0.0, nan, nan, 0.5], rtol=1e-12)
    np.testing.assert_allclose(SP.gammaincc(a, b).numpy(),
                               [nan, 0.0, 1.0, nan, 0.0, 1.0, nan, nan, 0.5], rtol=1e-12)


def test_polynomials_against_numpy():
    x = np.linspace(-0.95, 0.95, 7)
    for n in (0, 1, 4, 7, 11):
        tn = SP.chebyshev_polynomial_t(symgrad.tensor(x, dtype=symgrad.float64), n).numpy()
        np.testing.assert_allclose(tn, np.polynomial.chebyshev.chebval(x, [0] * n + [1]),
                                   atol=1e-13)
        pn = SP.legendre_polynomial_p(symgrad.tensor(x, dtype=symgrad.float64), n).numpy()
        np.testing.assert_allclose(pn, np.polynomial.legendre.legval(x, [0] * n + [1]),
                                   atol=1e-13)
        hn = SP.hermite_polynomial_h(symgrad.tensor(x, dtype=symgrad.float64), n).numpy()
        np.testing.assert_allclose(hn, np.polynomial.hermite.hermval(x, [0] * n + [1]),
                                   rtol=1e-12, atol=1e-12)
        ln = SP.laguerre_polynomial_l(symgrad.tensor(x, dtype=symgrad.float64), n).numpy()
        np.testing.assert_allclose(ln, np.polynomial.laguerre.lagval(x, [0] * n + [1]),
                                   rtol=1e-12, atol=1e-12)
    assert SP.chebyshev_polynomial_u(symgrad.tensor([0.3]), -1).item() == 0.0
    assert SP.hermite_polynomial_h(symgrad.tensor([0.3], dtype=symgrad.float64), 513).isnan()


def _central(fn, x, eps=1e-6):
    plus = fn(symgrad.tensor(x + eps, dtype=symgrad.float64)).numpy()
    minus = fn(symgrad.tensor(x - eps, dtype=symgrad.float64)).numpy()
    return (plus - minus) / (2 * eps)


@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e", "erfcx", "log_ndtr"])
def test_gradients_against_central_differences(name):
    fn = getattr(SP, name)
    x = np.array([-2.5, -0.7, 0.3, 1.1, 3.2])
    t = symgrad.tensor(x, dtype=symgrad.float64, requires_grad=True)
    fn(t).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), _central(fn, x), rtol=1e-7, atol=1e-9)


def test_ndtri_and_gammainc_gradients():
    p = np.array([0.01, 0.3, 0.5, 0.9])
    t = symgrad.tensor(p, dtype=symgrad.float64, requires_grad=True)
    SP.ndtri(t).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), _central(SP.ndtri, p), rtol=1e-7)
    a = symgrad.tensor([0.5, 2.0, 7.0], dtype=symgrad.float64)
    x = np.array([0.3, 2.5, 6.0])
    tx = symgrad.tensor(x, dtype=symgrad.float64, requires_grad=True)
    SP.gammainc(a, tx).sum().backward()
    np.testing.assert_allclose(tx.grad.numpy(), _central(lambda v: SP.gammainc(a, v), x),
                               rtol=1e-7)


def test_derivatives_torch_has_not():
    x = symgrad.tensor([0.5, 1.5], dtype=symgrad.float64, requires_grad=True)
    for fn in (SP.bessel_j0, SP.airy_ai, SP.modified_bessel_k1):
        out = fn(x)
        assert not out.requires_grad and out.grad_fn is None
    assert not SP.chebyshev_polynomial_t(x, 3).requires_grad
    with pytest.raises(NotImplementedError, match="the derivative for 'igamma: input' is not "
                                                  "implemented."):
        SP.gammainc(x, symgrad.tensor([1.0, 2.0], dtype=symgrad.float64)).sum().backward()


def test_twice_differentiable():
    """i0's gradient is i1, whose own gradient is a recorded node again."""
    x = symgrad.tensor([0.7, 2.0], dtype=symgrad.float64, requires_grad=True)
    (g,) = symgrad.autograd.grad(SP.i0(x).sum(), x, create_graph=True)
    (h,) = symgrad.autograd.grad(g.sum(), x)
    v = x.detach().numpy()
    i0, i1 = (np.array([float(mpmath.besseli(n, a)) for a in v]) for n in (0, 1))
    np.testing.assert_allclose(h.numpy(), i0 - i1 / v, rtol=1e-12)


def test_tensor_methods_and_inplace():
    x = symgrad.tensor([0.5, 2.0])
    np.testing.assert_allclose(x.i0().numpy(), SP.i0(x).numpy())
    y = x.clone()
    y.igamma_(symgrad.tensor([1.0, 1.0]))
    # P(1/2, 1) = erf(1), P(2, 1) = 1 - 2/e
    np.testing.assert_allclose(y.numpy(), [math.erf(1.0), 1 - 2 / math.e], rtol=1e-6)


def test_refused_inside_compile():
    @symgrad.compile
    def f(x):
        return SP.i0e(x) + 1.0

    with pytest.raises(TracerValueError, match="i0e eagerly only"):
        f(symgrad.ones(3))
    with pytest.raises(NotImplementedError, match="\"erfcx_cpu\" not implemented for 'Half'"):
        SP.erfcx(symgrad.ones(2, dtype=symgrad.float16))


def test_against_torch_live():
    torch = pytest.importorskip("torch")
    x = np.linspace(-6.0, 6.0, 25)
    for name in ("i0", "i1e", "erfcx", "log_ndtr", "bessel_j0", "bessel_y1", "airy_ai",
                 "scaled_modified_bessel_k0"):
        got = getattr(SP, name)(symgrad.tensor(x, dtype=symgrad.float64)).numpy()
        want = getattr(torch.special, name)(torch.tensor(x)).numpy()
        # torch's rational approximations of J, Y and Ai are good to ~1e-7 absolute only
        loose = name.startswith("bessel") or name == "airy_ai"
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-6 if loose else 1e-12,
                                   err_msg=name)


def test_short_forms_compile():
    """Polynomials of an int degree and spherical_bessel_j0 compile to the eager values."""
    x = symgrad.tensor([-1.0, -0.3, 0.0, 0.2, 0.99, 1.0, 1.7, -2.5], dtype=symgrad.float64)
    for name in ("chebyshev_polynomial_t", "chebyshev_polynomial_w",
                 "shifted_chebyshev_polynomial_v", "hermite_polynomial_he",
                 "laguerre_polynomial_l", "legendre_polynomial_p"):
        for n in (0, 3, 9):
            fn = getattr(SP, name)
            compiled = symgrad.compile(lambda t, fn=fn, n=n: fn(t, n))
            np.testing.assert_allclose(np.asarray(compiled(x)), fn(x, n).numpy(), rtol=1e-12,
                                       atol=1e-12, err_msg=f"{name} {n}")
    compiled = symgrad.compile(lambda t: SP.spherical_bessel_j0(t))
    np.testing.assert_allclose(np.asarray(compiled(x)), SP.spherical_bessel_j0(x).numpy(),
                               rtol=1e-14)
