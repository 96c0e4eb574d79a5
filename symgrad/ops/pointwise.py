"""More elementwise primitives: libm's functions (trigonometric, hyperbolic, logarithms, erf,
lgamma), special functions (digamma, polygamma, zeta, erfinv), rounding, torch's division
remainders, and the two-operand functions torch names (atan2, hypot, copysign, xlogy,
logaddexp, fmax, lerp, ...).

Layer: ops. Input: nothing. Output: registered elementwise ``OpDef``s, as in
``elementwise.py`` (whose docstring says how an op is defined): a SymPy expression for the C,
an independent NumPy reference (``special.py`` where NumPy has none), a VJP rule in torch's
form (``derivatives.yaml``'s formulas, so values round as torch's do) built from ops.

Functions SymPy has no class for are ``scalar_functions``' (rint, trunc, fmod, ...); those
libm lacks are symgrad's C helpers (``codegen/c/helpers.py``). Steps (floor, round, ...) have a
zero gradient, as in torch; ops torch does not differentiate (floor_divide, heaviside, zeta's
first operand) raise torch's error when a gradient reaches them.
"""

from __future__ import annotations

import math

import numpy as np

from . import special
from .elementwise import elementwise
from .registry import FLOAT, PROMOTE, bool_dtype, float_dtype, per_input, same_dtype

LN2, LN10 = math.log(2.0), math.log(10.0)
SQRT_PI = math.sqrt(math.pi)


def _fn(name: str):
    """A function class of ``scalar_functions`` (imports SymPy: expressions only)."""
    from . import scalar_functions
    return getattr(scalar_functions, name)


def _cf(name: str):
    from sympy.codegen import cfunctions
    return getattr(cfunctions, name)


def not_implemented(name: str):
    """A VJP part for an operand torch does not differentiate: raises torch's error."""
    def part(b, g, out, ins, **attrs):
        raise RuntimeError(f"the derivative for '{name}' is not implemented.")
    return part


def _zero(b, g, out, ins, **attrs):
    return b.full(g, 0.0)


def _zeros(b, g, out, ins, **attrs):
    return tuple(b.full(g, 0.0) for _ in ins)


def unary(name, scalar, numpy, vjp, **kw):
    return elementwise(name, scalar, numpy, vjp=lambda b, g, out, ins: (vjp(b, g, out, *ins),),
                       **kw)


# ---------------------------------------------------------------- trigonometric, hyperbolic

unary("tan", lambda sp, x: sp.tan(x), np.tan,
      lambda b, g, out, x: g * (1.0 + out * out), uses_out=True, complex_ok=True, saves=False)
unary("asin", lambda sp, x: sp.asin(x), np.arcsin,
      lambda b, g, out, x: g * (1.0 / b.op("sqrt", -x * x + 1.0)), complex_ok=True)
unary("acos", lambda sp, x: sp.acos(x), np.arccos,
      lambda b, g, out, x: g * -(1.0 / b.op("sqrt", -x * x + 1.0)), complex_ok=True)
unary("atan", lambda sp, x: sp.atan(x), np.arctan,
      lambda b, g, out, x: g / (x * x + 1.0), complex_ok=True)
unary("sinh", lambda sp, x: sp.sinh(x), np.sinh, lambda b, g, out, x: g * b.op("cosh", x),
      complex_ok=True)
unary("cosh", lambda sp, x: sp.cosh(x), np.cosh, lambda b, g, out, x: g * b.op("sinh", x),
      complex_ok=True)
unary("asinh", lambda sp, x: sp.asinh(x), np.arcsinh,
      lambda b, g, out, x: g * (1.0 / b.op("sqrt", x * x + 1.0)), complex_ok=True)


def _acosh_vjp(b, g, out, x):
    """torch's two formulas: rsqrt(x + 1) rsqrt(x - 1) for complex x (the branch), and
    rsqrt(x*x - 1) for real x (finite below -1 too, where acosh itself is NaN)."""
    if x.dtype.is_complex:
        return g * ((1.0 / b.op("sqrt", x + 1.0)) * (1.0 / b.op("sqrt", x - 1.0)))
    return g * (1.0 / b.op("sqrt", x * x - 1.0))


unary("acosh", lambda sp, x: sp.acosh(x), np.arccosh, _acosh_vjp, complex_ok=True)
unary("atanh", lambda sp, x: sp.atanh(x), np.arctanh,
      lambda b, g, out, x: g * (1.0 / (1.0 - x * x)), complex_ok=True)

# ---------------------------------------------------------------- exponentials, logarithms

unary("exp2", lambda sp, x: _cf("exp2")(x), np.exp2,
      lambda b, g, out, x: g * out * LN2, uses_out=True, complex_ok=True, saves=False)
unary("log2", lambda sp, x: _cf("log2")(x), np.log2, lambda b, g, out, x: g / (x * LN2),
      complex_ok=True)
unary("log10", lambda sp, x: _cf("log10")(x), np.log10, lambda b, g, out, x: g / (x * LN10),
      complex_ok=True)

# ---------------------------------------------------------------- special functions

unary("erf", lambda sp, x: sp.erf(x), special.erf,
      lambda b, g, out, x: 2.0 / SQRT_PI * b.op("exp", -(x * x)) * g)
unary("erfc", lambda sp, x: sp.erfc(x), special.erfc,
      lambda b, g, out, x: -2.0 / SQRT_PI * b.op("exp", -(x * x)) * g)
unary("erfinv", lambda sp, x: sp.erfinv(x), special.erfinv,
      lambda b, g, out, x: 0.5 * SQRT_PI * b.op("exp", out * out) * g, uses_out=True)
unary("lgamma", lambda sp, x: sp.loggamma(x), special.lgamma,
      lambda b, g, out, x: g * b.op("digamma", x))
unary("digamma", lambda sp, x: sp.digamma(x), special.digamma,
      lambda b, g, out, x: g * b.op("polygamma", 1.0, x))
# The order n is an operand (a constant): d/dx polygamma(n, x) = polygamma(n + 1, x).
elementwise("polygamma", lambda sp, x, y: sp.polygamma(x, y), special.polygamma,
            vjp=per_input(not_implemented("polygamma"),
                          lambda b, g, out, ins: g * b.op("polygamma", ins[0] + 1.0, ins[1])))
# Hurwitz zeta(x, q); torch differentiates only in q.
elementwise("zeta", lambda sp, x, y: sp.zeta(x, y), special.zeta, torch="SpecialZetaBackward0",
            vjp=per_input(not_implemented("zeta"),
                          lambda b, g, out, ins: g * -ins[0] * b.op("zeta", ins[0] + 1.0, ins[1])))


def _np_sinc(a):
    """torch's kernel: 1 at 0, else sin(pi a) / (pi a); float16 computes in float32 (its opmath
    type) and rounds once; complex values take complex.h's sin and a complex quotient."""
    with np.errstate(all="ignore"):
        wide = a.astype(np.float32) if a.dtype == np.float16 else a
        product = np.pi * wide
        return np.where(wide == 0, 1.0, np.sin(product) / product).astype(a.dtype)


def _sinc_vjp(b, g, out, x):
    """torch's sinc_backward: g (pi x cos(pi x) - sin(pi x)) / (x x pi), 0 where x x pi is 0
    (x is 0, or its square underflows); complex x: the same, conjugated (``holomorphic``)."""
    product = x * math.pi
    square = x * x * math.pi
    d = (product * b.op("cos", product) - b.op("sin", product)) / square
    return b.op("where", b.op("eq", square, 0.0), 0.0, g * d)


# torch's normalized sinc, sin(pi x) / (pi x), 1 at 0.
unary("sinc", lambda sp, x: sp.Piecewise((1, sp.Eq(x, 0)), (sp.sin(sp.pi * x) / (sp.pi * x), True)),
      _np_sinc, _sinc_vjp, complex_ok=True)


def _np_entr(a):
    with np.errstate(all="ignore"):
        value = np.where(a > 0, -a * np.log(a), np.where(a == 0, 0.0, -np.inf))
        return np.where(np.isnan(a), a, value).astype(a.dtype)


# -x ln x, 0 at 0, -inf below; NaN stays NaN.
unary("entr", lambda sp, x: sp.Piecewise((-x * sp.log(x), x > 0), (0, sp.Eq(x, 0)),
                                         (-sp.oo, x < 0), (x, True)),
      _np_entr, lambda b, g, out, x: g * -(1.0 + b.op("log", x)), torch="SpecialEntrBackward0")

# ---------------------------------------------------------------- rounding (steps: zero gradient)


def _step(name, scalar, numpy, dtype=same_dtype, promotion=PROMOTE):
    elementwise(name, scalar, numpy, vjp=lambda b, g, out, ins: (b.full(g, 0.0),),
                saves=False, dtype=dtype, promotion=promotion)


_step("floor", lambda sp, x: sp.floor(x), np.floor)
_step("ceil", lambda sp, x: sp.ceiling(x), np.ceil)
_step("trunc", lambda sp, x: _fn("Trunc")(x), np.trunc)
_step("round", lambda sp, x: _fn("Rint")(x), np.rint)   # half to even, as torch
_step("signbit", lambda sp, x: sp.StrictLessThan(_fn("Copysign")(1, x), 0), np.signbit,
      dtype=bool_dtype, promotion=FLOAT)
elementwise("frac", lambda sp, x: x - _fn("Trunc")(x), lambda a: a - np.trunc(a),
            vjp=lambda b, g, out, ins: (g,), saves=False, dtype=float_dtype, promotion=PROMOTE)

# ---------------------------------------------------------------- division's remainders


def _np_floor_divide(a, b):
    """torch's floor division (NumPy's floor_divide computes the same for floats)."""
    if a.dtype.kind in "iu" and np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")
    with np.errstate(all="ignore"):
        return np.floor_divide(a, b)


def _np_remainder(a, b):
    """torch's remainder: fmod, moved to the divisor's sign (NumPy's also signs zeros)."""
    if a.dtype.kind in "iu":
        if np.any(np.asarray(b) == 0):
            raise RuntimeError("ZeroDivisionError")
        return np.remainder(a, b)
    with np.errstate(all="ignore"):
        mod = np.fmod(a, b)
        return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod).astype(mod.dtype)


def _np_fmod(a, b):
    if a.dtype.kind in "iu" and np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")
    return np.fmod(a, b)


def _quotient_vjp(rounding: str):
    """d/db of a - b * q(a / b) with q rounding: -g * q (torch's)."""
    def part(b, g, out, ins):
        return -g * b.op(rounding, ins[0], ins[1])
    return per_input(lambda b, g, out, ins: g, part, reads=((), (0, 1)))


elementwise("fmod", lambda sp, x, y: _fn("Fmod")(x, y), _np_fmod, dtype=same_dtype,
            promotion=PROMOTE, vjp=_quotient_vjp("trunc_divide"), torch="FmodBackward1")
elementwise("remainder", lambda sp, x, y: _fn("Remainder")(x, y), _np_remainder,
            dtype=same_dtype, promotion=PROMOTE, vjp=_quotient_vjp("floor_divide"),
            torch="RemainderBackward1")
# A step: zero gradient, as torch.div(rounding_mode="floor"); torch.floor_divide and // are
# not differentiable at all (the front end says so).
elementwise("floor_divide", lambda sp, x, y: _fn("FloorDiv")(x, y), _np_floor_divide,
            dtype=same_dtype, promotion=PROMOTE, torch="DivBackward2", vjp=_zeros, saves=False)
# a / b rounded toward zero (torch.div(rounding_mode="trunc")): a step, zero gradient.
def _np_trunc_divide(a, b):
    if a.dtype.kind in "iu":
        if np.any(np.asarray(b) == 0):
            raise RuntimeError("ZeroDivisionError")
        return (a - np.fmod(a, b)) // b
    with np.errstate(all="ignore"):
        return np.trunc(np.divide(a, b)).astype(np.result_type(a, b))


elementwise("trunc_divide", lambda sp, x, y: _fn("TruncDiv")(x, y), _np_trunc_divide,
            vjp=_zeros, saves=False, dtype=same_dtype, promotion=PROMOTE, torch="DivBackward2")

# ---------------------------------------------------------------- two operands


def _atan2_vjp(b, g, out, ins):
    """torch's: 1 / (y^2 + x^2), taken as 0 where it is infinite (at the origin, and where
    the squares underflow), so that the gradient there is a signed zero, not NaN."""
    y, x = ins
    recip = 1.0 / (y * y + x * x)
    recip = b.op("where", b.op("eq", b.op("abs", recip), math.inf), 0.0, recip)
    return g * x * recip, g * -y * recip


elementwise("atan2", lambda sp, x, y: sp.atan2(x, y), np.arctan2, vjp=_atan2_vjp)
elementwise("hypot", lambda sp, x, y: _cf("hypot")(x, y), np.hypot,
            vjp=per_input(lambda b, g, out, ins: g * ins[0] / out,
                          lambda b, g, out, ins: g * ins[1] / out), uses_out=True)


def _copysign_vjp(b, g, out, ins):
    x = ins[0]
    ratio = b.op("where", b.op("eq", x, 0.0), 0.0, out / x)
    return g * ratio


elementwise("copysign", lambda sp, x, y: _fn("Copysign")(x, y), np.copysign,
            vjp=per_input(_copysign_vjp, _zero), uses_out=True, torch="CopysignBackward0")
# torch passes the gradient to x where x != y (nextafter moves it by one ulp; where x == y
# it returns y) and zeros to y.
elementwise("nextafter", lambda sp, x, y: _fn("Nextafter")(x, y), np.nextafter,
            vjp=per_input(lambda b, g, out, ins: b.op("where", b.op("ne", ins[0], ins[1]), g,
                                                     0.0), _zero),
            torch="NextafterBackward0")


def _np_xlogy(x, y, log=np.log):
    with np.errstate(all="ignore"):
        value = np.where(x == 0, 0.0, x * log(y))
        return np.where(np.isnan(y), np.nan, value).astype(np.result_type(x, y))


def _xlogy_scalar(log):
    return lambda sp, x, y: sp.Piecewise((sp.nan, _cf("isnan")(y)), (0, sp.Eq(x, 0)),
                                         (x * log(sp, y), True))


def _xlogy_vjp(log_name: str, pole: float):
    """torch's: d/dx = log(y) masked where x == 0 and y <= pole; d/dy = x / (y - pole)."""
    def dx(b, g, out, ins):
        x, y = ins
        mask = b.op("logical_and", b.op("eq", x, 0.0), b.op("le", y, pole))
        return b.op("where", mask, 0.0, b.op(log_name, g, y))
    return per_input(dx, lambda b, g, out, ins: g * ins[0] / (ins[1] - pole))


elementwise("xlogy", _xlogy_scalar(lambda sp, y: sp.log(y)), _np_xlogy,
            vjp=_xlogy_vjp("xlogy", 0.0))
elementwise("xlog1py", _xlogy_scalar(lambda sp, y: _cf("log1p")(y)),
            lambda x, y: _np_xlogy(x, y, np.log1p), vjp=_xlogy_vjp("xlog1py", -1.0),
            torch="SpecialXlog1PyBackward0")


def _logaddexp_scalar(base: str):
    def scalar(sp, x, y):
        if base == "e":
            tail = _cf("log1p")(sp.exp(-sp.Abs(x - y)))
        else:
            tail = _cf("log1p")(_cf("exp2")(-sp.Abs(x - y))) * sp.Float(1.0 / LN2)
        both_inf = sp.And(sp.Eq(x, y), _fn("IsInf")(x))
        return sp.Piecewise((x, both_inf), (sp.Max(x, y) + tail, True))
    return scalar


def _np_logaddexp_complex(a, b):
    """torch's complex logaddexp: log1p(exp(lo - hi)) + hi, lo and hi ordered by real part; a
    NaN part anywhere is NaN + NaN i; both real parts -inf: lo; both +inf: log(exp + exp)."""
    dtype = np.result_type(a, b)
    a, b = np.broadcast_arrays(np.asarray(a, dtype), np.asarray(b, dtype))
    nan_a, nan_b = np.isnan(a.real) | np.isnan(a.imag), np.isnan(b.real) | np.isnan(b.imag)
    a_low = a.real < b.real
    lo = np.where(nan_b, b, np.where(nan_a | a_low, a, b))
    hi = np.where(nan_b, b, np.where(nan_a | ~a_low, a, b))
    with np.errstate(all="ignore"):
        value = np.log1p(np.exp(lo - hi)) + hi
        both_inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
        value = np.where(both_inf, np.where(lo.real < 0, lo, np.log(np.exp(lo) + np.exp(hi))),
                         value)
    value = np.where(nan_a | nan_b, np.array(complex(np.nan, np.nan), dtype), value)
    return value.astype(dtype)


def _np_logaddexp(base):
    def numpy(a, b):
        if base == "e" and np.result_type(a, b).kind == "c":
            return _np_logaddexp_complex(a, b)
        with np.errstate(all="ignore"):
            m = np.maximum(a, b)
            if base == "e":
                value = m + np.log1p(np.exp(-np.abs(a - b)))
            else:
                value = m + np.log1p(np.exp2(-np.abs(a - b))) * (1.0 / LN2)
            return np.where(np.isinf(a) & (a == b), a, value).astype(np.result_type(a, b))
    return numpy


def _logaddexp_vjp(power: str):
    def part(first: int):
        def rule(b, g, out, ins):
            other, this = ins[1 - first], ins[first]
            return g / (1.0 + b.op(power, other - this))
        return rule
    return per_input(part(0), part(1))


elementwise("logaddexp", _logaddexp_scalar("e"), _np_logaddexp("e"),
            vjp=_logaddexp_vjp("exp"), complex_ok=True)
elementwise("logaddexp2", _logaddexp_scalar("2"), _np_logaddexp("2"),
            vjp=_logaddexp_vjp("exp2"))


def _fmax_vjp(keep: str):
    """torch's: the gradient goes to x where (x keep y) or y is NaN, else to y; no split."""
    def rule(b, g, out, ins):
        x, y = ins
        to_x = b.op("logical_or", b.op(keep, x, y), b.op("ne", y, y))
        return b.op("where", to_x, g, 0.0), b.op("where", to_x, 0.0, g)
    return rule


# C's fmax/fmin: NaN only if both are.
elementwise("fmax", lambda sp, x, y: sp.Max(x, y), np.fmax, vjp=_fmax_vjp("ge"),
            dtype=same_dtype, promotion=PROMOTE)
elementwise("fmin", lambda sp, x, y: sp.Min(x, y), np.fmin, vjp=_fmax_vjp("le"),
            dtype=same_dtype, promotion=PROMOTE)


def _np_heaviside(x, values):
    return np.where(x == 0, values, (x > 0).astype(x.dtype)).astype(np.result_type(x, values))


elementwise("heaviside", lambda sp, x, y: sp.Piecewise((y, sp.Eq(x, 0)), (1, x > 0), (0, True)),
            _np_heaviside, dtype=same_dtype, promotion=PROMOTE, torch="NotImplemented",
            vjp=per_input(not_implemented("heaviside"), not_implemented("heaviside")))


def _np_lerp(start, end, weight):
    with np.errstate(all="ignore"):
        low = start + weight * (end - start)
        high = end - (end - start) * (1.0 - weight)
        return np.where(np.abs(weight) < 0.5, low, high).astype(np.result_type(start, end))


# torch's two-sided form: exact at weight 0 and at weight 1.
elementwise("lerp", lambda sp, x, y, z: sp.Piecewise((x + z * (y - x), sp.Abs(z) < 0.5),
                                                     (y - (y - x) * (1 - z), True)),
            _np_lerp, torch="LerpBackward1",
            vjp=per_input(lambda b, g, out, ins: g * (1.0 - ins[2]),
                          lambda b, g, out, ins: g * ins[2],
                          lambda b, g, out, ins: g * (ins[1] - ins[0]),
                          reads=((2,), (2,), (0, 1))))
