"""torch's elementwise math, cross-checked against torch 2.13 (skipped without torch): values at
ordinary and special points (zeros of both signs, infinities, NaN, poles), gradients, grad_fn
names, and the dtypes of integer and mixed operands."""

import functools
import math

import numpy as np
import pytest

import symgrad as sg

torch = pytest.importorskip("torch")

INF, NAN = math.inf, math.nan
SPECIAL_POINTS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 1e-30, -7.25, 40.0, INF, -INF, NAN]

UNARY = ["tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2",
         "log2", "log10", "erf", "erfc", "erfinv", "lgamma", "digamma", "sinc", "floor", "ceil",
         "trunc", "round", "frac", "signbit", "reciprocal", "deg2rad", "rad2deg", "logit",
         "sgn", "nan_to_num", "isposinf", "isneginf"]
# pow and float_power of a tensor exponent: C's pow, also where the exponent holds +-0.5 (a
# Python number exponent takes sqrt, see ops/elementwise.py's pow): they differ at -inf and -0.0.
BINARY = ["atan2", "hypot", "copysign", "xlogy", "logaddexp", "logaddexp2", "fmax", "fmin",
          "fmod", "remainder", "floor_divide", "nextafter", "heaviside", "pow", "float_power"]
ORDINARY = BINARY


def _same(got, want, rtol, signed_zeros=True):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-3, equal_nan=True)
    finite = np.isfinite(want) & (want == 0) & signed_zeros
    np.testing.assert_array_equal(np.signbit(got[finite]), np.signbit(want[finite]))


@functools.cache
def _compiled_unary(dtype: str) -> tuple:
    """Every unary op at the special points, compiled once (one C program per dtype)."""
    ops = [getattr(sg, name) for name in UNARY]
    x = sg.tensor(np.array(SPECIAL_POINTS, dtype=dtype))
    return tuple(sg.compile(lambda t: tuple(f(t) for f in ops))(x))


@functools.cache
def _compiled_binary() -> tuple:
    ops = [getattr(sg, name) for name in BINARY]
    return tuple(sg.compile(lambda s, t: tuple(f(s, t) for f in ops))(*_pairs()[2:]))


def _pairs():
    a = np.array(SPECIAL_POINTS * len(SPECIAL_POINTS))
    b = np.repeat(SPECIAL_POINTS, len(SPECIAL_POINTS))
    return a, b, sg.tensor(a), sg.tensor(b)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", UNARY)
def test_unary_at_special_points(name, dtype):
    values = np.array(SPECIAL_POINTS, dtype=dtype)
    want = getattr(torch, name)(torch.tensor(values)).numpy()
    x = sg.tensor(values)
    rtol = 1e-13 if dtype == "float64" else 2e-6
    _same(getattr(sg, name)(x).numpy(), want, rtol)
    _same(_compiled_unary(dtype)[UNARY.index(name)], want, rtol)


@pytest.mark.parametrize("name", BINARY)
def test_binary_at_special_points(name):
    a, b, x, y = _pairs()
    want = getattr(torch, name)(torch.tensor(a), torch.tensor(b)).numpy()
    signed = name not in ("fmax", "fmin")      # C's fmax(0.0, -0.0) may return either
    _same(getattr(sg, name)(x, y).numpy(), want, 1e-13, signed)
    _same(_compiled_binary()[BINARY.index(name)], want, 1e-13, signed)


def test_special_functions_of_order_and_two_operands():
    x = np.array([0.3, 1.0, 2.5, 7.0, -0.5, -3.7, 0.0])
    for n in range(4):
        want = torch.polygamma(n, torch.tensor(x)).numpy()
        finite = np.isfinite(want)
        got = sg.polygamma(n, sg.tensor(x)).numpy()
        # torch's trigamma sums a shorter series than symgrad's (which mpmath confirms): 1e-9
        np.testing.assert_allclose(got[finite], want[finite], rtol=1e-8)
    s, q = np.array([2.0, 3.5, 1.0, 0.5, 4.0]), np.array([1.0, 0.25, 2.0, 1.0, -1.5])
    want = torch.special.zeta(torch.tensor(s), torch.tensor(q)).numpy()
    np.testing.assert_allclose(sg.special.zeta(sg.tensor(s), sg.tensor(q)).numpy(), want,
                               rtol=1e-12, equal_nan=True)


def test_gradients_and_grad_fn_names_match_torch():
    rng = np.random.default_rng(3)
    a, b = rng.uniform(0.1, 0.9, 6), rng.uniform(1.1, 2.0, 6)
    for name in UNARY + ORDINARY + ["polygamma1", "lerp", "addcmul", "addcdiv", "xlog1py"]:
        if name in ("signbit", "isposinf", "isneginf", "floor_divide", "heaviside"):
            continue
        grads = []
        for lib in (torch, sg):
            x = lib.tensor(a, requires_grad=True)
            y = lib.tensor(b, requires_grad=True)
            out = _apply(lib, name, x, y)
            out.backward(lib.tensor(np.linspace(0.5, 1.5, 6)))
            grads.append((type(out.grad_fn).__name__, _numpy(x.grad),
                          None if y.grad is None else _numpy(y.grad)))
        (tname, tx, ty), (sname, sx, sy) = grads
        assert sname == tname, name
        np.testing.assert_allclose(sx, tx, rtol=1e-9, err_msg=name)
        if ty is not None:
            np.testing.assert_allclose(sy, ty, rtol=1e-9, err_msg=name)


def _numpy(t):
    return t.detach().numpy(force=True) if isinstance(t, torch.Tensor) else t.numpy()


def _apply(lib, name, x, y):
    special = {"polygamma1": lambda: lib.polygamma(1, x),
               "lerp": lambda: lib.lerp(x, y, x), "addcmul": lambda: lib.addcmul(x, x, y, value=2),
               "addcdiv": lambda: lib.addcdiv(x, x, y, value=2),
               "xlog1py": lambda: lib.special.xlog1py(x, y)}
    if name in special:
        return special[name]()
    fn = getattr(lib, name)
    return fn(x, y) if name in ORDINARY else fn(x)


def test_integer_and_mixed_dtypes_match_torch():
    ti, si = torch.tensor([7, -7, 3]), sg.tensor([7, -7, 3])
    for expr in (lambda m, t: t // 2, lambda m, t: t % -3, lambda m, t: 2.5 // t,
                 lambda m, t: m.fmod(t, 2), lambda m, t: m.div(t, 2, rounding_mode="floor"),
                 lambda m, t: m.div(t, 2, rounding_mode="trunc"), lambda m, t: m.floor(t),
                 lambda m, t: m.atan2(t, t), lambda m, t: m.erf(t), lambda m, t: t.round(),
                 lambda m, t: m.fmax(t, t * 2), lambda m, t: m.float_power(t, 2)):
        want, got = expr(torch, ti), expr(sg, si)
        assert str(got.dtype).replace("symgrad", "torch") == str(want.dtype)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_round_with_decimals_matches_torch():
    values = np.array([1.2345, -2.5, 125.0, 0.05, 1e10 + 0.5, -0.35])
    for dtype in ("float32", "float64"):
        for d in (-2, -1, 0, 1, 2, 3):
            want = torch.round(torch.tensor(values.astype(dtype)), decimals=d).numpy()
            got = sg.round(sg.tensor(values.astype(dtype)), decimals=d).numpy()
            np.testing.assert_array_equal(got, want)
