"""Elementwise primitives: one block per op, defined from a SymPy scalar expression.

Input: nothing. Output: registered ``OpDef``s of kind ELEMENTWISE. The expression (in symbols
x, y, z) gives the C text; the NumPy reference is written out independently so the interpreter
is a real oracle for the C. VJPs are derived from the expression with SymPy where that is
sound (``derived``), and written by hand where torch's convention or stability demands it
(kinks, reuse of the forward output, overflow in the derived form).

Elementwise ops broadcast their inputs (NumPy rules); the autodiff pass reduces cotangents
back over broadcast dimensions, once, so rules here return cotangents of the output's shape.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from sympy.codegen.cfunctions import expm1 as sp_expm1, log1p as sp_log1p

from .registry import (ELEMENTWISE, OpDef, bind, bool_dtype, broadcast_shapes, float_dtype,
                       register, same_dtype)
from .sympy_graph import to_graph

x, y, z = sp.symbols("x y z", real=True)
SYMBOLS = (x, y, z)


def derived(expr: sp.Expr, nargs: int):
    """A VJP rule from SymPy's derivative of ``expr``, rebuilt as graph nodes."""
    partials = [sp.diff(expr, s) for s in SYMBOLS[:nargs]]

    def vjp(g, out, inputs):
        env = dict(zip(SYMBOLS, inputs))
        return tuple(g * to_graph(d, env) for d in partials)
    return vjp


def elementwise(name: str, expr: sp.Expr, numpy, nargs: int, *, vjp="derive", torch: str = "",
                dtype=float_dtype, saves: bool = True, uses_out: bool = False,
                symbols: tuple = SYMBOLS, doc: str = "") -> OpDef:
    rule = derived(expr, nargs) if vjp == "derive" else vjp
    return register(OpDef(
        name=name, kind=ELEMENTWISE, expr=expr, symbols=symbols[:nargs], numpy=numpy, vjp=rule,
        dtype=dtype,
        shape=lambda *shapes, **_: broadcast_shapes(*shapes),
        torch_name=torch or f"{name.capitalize()}Backward0", saves=saves, uses_out=uses_out,
        doc=doc))


# ---------------------------------------------------------------- arithmetic

elementwise("add", x + y, np.add, 2, vjp=lambda g, out, ins: (g, g), saves=False,
            dtype=same_dtype)
elementwise("sub", x - y, np.subtract, 2, vjp=lambda g, out, ins: (g, -g), saves=False,
            dtype=same_dtype)
elementwise("mul", x * y, np.multiply, 2, dtype=same_dtype,
            vjp=lambda g, out, ins: (g * ins[1], g * ins[0]))
elementwise("div", x / y, np.divide, 2,
            # torch's form: d/dy = -g * x / (y * y)
            vjp=lambda g, out, ins: (g / ins[1], -g * ins[0] / (ins[1] * ins[1])))
elementwise("neg", -x, np.negative, 1, vjp=lambda g, out, ins: (-g,), saves=False,
            dtype=same_dtype)


def _pow_vjp(g, out, ins):
    base, expo = ins
    # torch's d/d base is 0 where the exponent is 0 (x**0 is constant), not 0 * 0**-1 = NaN.
    d_base = bind("where", bind("eq", expo, 0.0), 0.0,
                  g * expo * bind("pow", base, expo - 1.0))
    # torch masks the exponent's gradient where base == 0 and exponent >= 0 (log(0) there).
    mask = bind("logical_and", bind("eq", base, 0.0), bind("ge", expo, 0.0))
    d_expo = bind("where", mask, 0.0, g * out * bind("log", base))
    return d_base, d_expo


def _np_pow(a, b):
    """NumPy's power, except sqrt(a) where b == 0.5 and 1 / sqrt(a) where b == -0.5 (see
    below). np.power alone would not do: it takes sqrt for an exponent 0.5 only when the
    exponent is a broadcast scalar, and never rsqrt."""
    out = np.power(a, b)
    half, minus_half = np.equal(b, 0.5), np.equal(b, -0.5)
    if half.any() or minus_half.any():
        root = np.sqrt(a)
        out = np.where(half, root, np.where(minus_half, np.reciprocal(root), out))
    return out


# C99's pow, except that an exponent of exactly 0.5 computes sqrt(x) and -0.5 computes
# 1 / sqrt(x), as torch does for x ** 0.5 and x ** -0.5 (and NumPy's ** for 0.5). They differ
# from pow at x = -0.0 (sqrt: -0.0, 1/sqrt: -inf; pow: +0.0, +inf) and at x = -inf (NaN; pow:
# +inf, +0.0). Gradients keep pow's rule; that of x ** 0.5, 0.5 * x ** -0.5, picks up 1 / sqrt
# too: -inf at x = -0.0 and NaN at -inf, as torch's PowBackward0. With a literal exponent the C
# compiler folds the test away and the loop vectorizes with sqrt. A known difference: symgrad
# tests the exponent's value, so a tensor exponent equal to +-0.5 gets sqrt as well, where
# torch calls pow for any tensor exponent (even a 0-d one).
_HALF = sp.Rational(1, 2)
elementwise("pow", sp.Piecewise((sp.sqrt(x), sp.Eq(y, _HALF)), (1 / sp.sqrt(x), sp.Eq(y, -_HALF)),
                                (x ** y, True)),
            _np_pow, 2, vjp=_pow_vjp, torch="PowBackward1", uses_out=True)


def _maximum_vjp(g, out, ins, loses="lt"):
    a, b = ins
    # torch splits the gradient evenly where the operands tie, and masks only the operand that
    # loses: where a comparison is false (NaN) both operands get g, as in torch.
    share = bind("where", bind("eq", a, b), g * 0.5, g)
    ga = bind("where", bind(loses, a, b), 0.0, share)
    gb = bind("where", bind(loses, b, a), 0.0, share)
    return ga, gb


# NaN propagates as in torch: both comparisons fail and x + y is NaN. The second condition
# overlaps the first (>= both ways): written as the strict complement (y > x), SymPy folds it
# into the default branch and maximum(NaN, 0) would print as 0.
elementwise("maximum", sp.Piecewise((x, x >= y), (y, y >= x), (x + y, True)), np.maximum, 2,
            vjp=_maximum_vjp, dtype=same_dtype)
elementwise("minimum", sp.Piecewise((x, x <= y), (y, y <= x), (x + y, True)), np.minimum, 2,
            vjp=lambda g, out, ins: _maximum_vjp(g, out, ins, loses="gt"), dtype=same_dtype)

# ---------------------------------------------------------------- transcendental


def _np_sigmoid(a):
    return 1 / (1 + np.exp(-a))


def _np_softplus(a):
    # torch's softplus (beta=1, threshold=20): linear above the threshold.
    return np.where(a > 20, a, np.log1p(np.exp(np.minimum(a, 20))))


elementwise("exp", sp.exp(x), np.exp, 1, vjp=lambda g, out, ins: (g * out,), uses_out=True)
elementwise("log", sp.log(x), np.log, 1)
elementwise("log1p", sp_log1p(x), np.log1p, 1, torch="Log1PBackward0")
elementwise("expm1", sp_expm1(x), np.expm1, 1, vjp=lambda g, out, ins: (g * (out + 1.0),),
            uses_out=True)
elementwise("sqrt", sp.sqrt(x), np.sqrt, 1, vjp=lambda g, out, ins: (g / (out * 2.0),),
            uses_out=True)
elementwise("sin", sp.sin(x), np.sin, 1)
elementwise("cos", sp.cos(x), np.cos, 1)
elementwise("tanh", sp.tanh(x), np.tanh, 1, vjp=lambda g, out, ins: (g * (1.0 - out * out),),
            uses_out=True)
# The derived derivative of 1/(1+exp(-x)) is NaN at x = -800; reuse the output instead.
elementwise("sigmoid", 1 / (1 + sp.exp(-x)), _np_sigmoid, 1,
            vjp=lambda g, out, ins: (g * out * (1.0 - out),), uses_out=True)
elementwise("softplus", sp.Piecewise((x, x > 20), (sp_log1p(sp.exp(x)), True)), _np_softplus, 1,
            vjp=lambda g, out, ins: (bind("where", bind("gt", ins[0], 20.0), g,
                                          g * bind("sigmoid", ins[0])),))
# relu'(0) = 0 as in torch; NaN propagates (NaN < 0 is false), and so does its gradient
# (torch's threshold_backward masks where out <= 0, which NaN is not): relu'(NaN) = 1. Like
# torch's clamp_min(x, 0), relu(-0.0) is -0.0 (only x < 0 is replaced).
elementwise("relu", sp.Piecewise((0, x < 0), (x, True)), lambda a: np.where(a < 0, 0, a)
            .astype(a.dtype), 1,
            vjp=lambda g, out, ins: (bind("where", bind("le", out, 0.0), 0.0, g),),
            dtype=same_dtype, uses_out=True)
# abs'(x) = sign(x) as in torch: 0 at +-0.0 (a +0.0) and at NaN.
elementwise("abs", sp.Abs(x), np.abs, 1, vjp=lambda g, out, ins: (g * bind("sign", ins[0]),),
            dtype=same_dtype)


def _zeros_like(g):
    """Zeros of g's shape and dtype, built from primitives (not g * 0, which is NaN at inf)."""
    return bind("expand", bind("cast", 0.0, dtype=g.dtype), shape_to=g.shape)


def _np_sign(a):
    return np.where(a > 0, 1, np.where(a < 0, -1, 0)).astype(a.dtype)


# torch's sign, (x > 0) - (x < 0): +0.0 at -0.0, and 0 at NaN (NumPy's sign gives NaN there).
# It is piecewise constant: torch's gradient is zeros (so x.grad is zeros, not None).
elementwise("sign", sp.Piecewise((1, x > 0), (-1, x < 0), (0, True)), _np_sign, 1,
            vjp=lambda g, out, ins: (_zeros_like(g),),
            saves=False, dtype=same_dtype)

# ---------------------------------------------------------------- comparisons and logic


def _compare(name: str, expr, numpy) -> None:
    elementwise(name, expr, numpy, 2, vjp=None, dtype=bool_dtype, torch="")


_compare("lt", sp.StrictLessThan(x, y), np.less)
_compare("le", sp.LessThan(x, y), np.less_equal)
_compare("gt", sp.StrictGreaterThan(x, y), np.greater)
_compare("ge", sp.GreaterThan(x, y), np.greater_equal)
_compare("eq", sp.Eq(x, y, evaluate=False), np.equal)
_compare("ne", sp.Ne(x, y, evaluate=False), np.not_equal)

_bx, _by = sp.symbols("x y")   # untyped symbols stand for bool operands
elementwise("logical_and", sp.And(sp.Ne(_bx, 0), sp.Ne(_by, 0)), np.logical_and, 2, vjp=None,
            dtype=bool_dtype, symbols=(_bx, _by))
elementwise("logical_or", sp.Or(sp.Ne(_bx, 0), sp.Ne(_by, 0)), np.logical_or, 2, vjp=None,
            dtype=bool_dtype, symbols=(_bx, _by))
elementwise("logical_not", sp.Eq(_bx, 0), np.logical_not, 1, vjp=None, dtype=bool_dtype,
            symbols=(_bx,))


def _where_dtype(c, a, b, **_):
    if c.name != "bool":
        raise TypeError(f"where: condition must be bool, got {c.name}")
    return same_dtype(a, b)


def _where_vjp(g, out, ins):
    return None, bind("where", ins[0], g, 0.0), bind("where", ins[0], 0.0, g)


elementwise("where", sp.Piecewise((y, sp.Ne(_bx, 0)), (z, True)),
            lambda c, a, b: np.where(c, a, b), 3, vjp=_where_vjp, dtype=_where_dtype,
            torch="WhereBackward0", symbols=(_bx, y, z))
