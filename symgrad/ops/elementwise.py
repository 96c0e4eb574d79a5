"""Elementwise primitives: one block per op, defined by a scalar SymPy expression.

Layer: ops. Input: nothing. Output: registered ``OpDef``s of kind ELEMENTWISE. The expression (a
function of ``sympy`` and the operand symbols x, y, z, built only when asked for) gives the C
text; the NumPy reference is written out independently, so the interpreter is a real oracle for
the C.

VJP rules are written as graph ops (see ``registry``): where torch's convention or stability
demands it (kinks, reuse of the forward output, overflow in the textbook form) they say so; the
others are the derivative of the expression, which tests/ops/test_registry.py checks by running
every rule on SymPy symbols against ``sympy.diff`` of the op's expression. (Deriving them with
SymPy when the op is used would import SymPy, ~0.3-1 s, into every eager backward pass.)

Elementwise ops broadcast their inputs (NumPy rules); the autograd engine sums cotangents back
over broadcast dimensions, once, so rules here return cotangents of the output's shape.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .registry import (ELEMENTWISE, FLOAT, LOGICAL, PROMOTE, WHERE, OpDef, bool_dtype,
                       inexact_dtype, real_dtype,
                       broadcast_shapes, float_dtype, per_input, register, same_dtype)


def _broadcast(*shapes, **_):
    return broadcast_shapes(*shapes)


def elementwise(name: str, scalar, numpy, *, vjp=None, torch: str = "", dtype=float_dtype,
                saves: bool = True, uses_out: bool = False, bool_operands: tuple = (),
                promotion: str = "", doc: str = "", torch_inputs: tuple = (),
                complex_ok: bool = False, holomorphic: bool = True,
                numpy_fast=None) -> OpDef:
    """Register an elementwise op; ``scalar(sympy, x, ...)`` is its expression.
    ``complex_ok``: a floating op also defined on complex numbers (then analytic, so that its
    real VJP rule serves, conjugated: ``holomorphic``)."""
    if not promotion:
        promotion = FLOAT if dtype is float_dtype else PROMOTE
    if complex_ok and dtype is float_dtype:
        dtype = inexact_dtype
    return register(OpDef(
        name=name, kind=ELEMENTWISE, scalar=scalar, bool_operands=bool_operands, numpy=numpy,
        vjp=vjp, dtype=dtype, shape=_broadcast, promotion=promotion,
        torch_name=torch or f"{name.capitalize()}Backward0", saves=saves, uses_out=uses_out,
        doc=doc, torch_inputs=torch_inputs, holomorphic=holomorphic, numpy_fast=numpy_fast))


# ---------------------------------------------------------------- arithmetic

def torch_complex_axpy(x, y, c: float = 1.0, d: float = 0.0) -> np.ndarray:
    """torch's complex ``x + alpha * y`` (alpha = c + di; add: 1, sub: -1), as its CPU kernels
    compute it, vectorized or not: the product by c10's formula, (c yr - d yi) + (c yi + d yr)i,
    then added part by part. Not NumPy's ``x + y``: ``(-0-1j) + (-0+0j)`` has a real part
    -0 + (-0 - 0 * 0) = +0, and an infinite imaginary part of y makes the real part NaN."""
    x, y = np.asarray(x), np.asarray(y)
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), np.result_type(x, y))
    yr, yi = y.real, y.imag
    zero = yr.dtype.type(0)
    if (c, d) == (1.0, 0.0):
        re, im = yr - yi * zero, yr * zero + yi
    elif (c, d) == (-1.0, 0.0):
        re, im = -yr - yi * zero, -yi + yr * zero
    else:
        c, d = yr.dtype.type(c), yr.dtype.type(d)
        re, im = c * yr - d * yi, c * yi + d * yr
    out.real, out.imag = x.real + re, x.imag + im
    return out


def _add(x, y):
    out = np.add(x, y)
    return torch_complex_axpy(x, y) if out.dtype.kind == "c" else out


def _sub(x, y):
    out = np.subtract(x, y)
    return torch_complex_axpy(x, y, -1.0) if out.dtype.kind == "c" else out


# complex + and -: torch's x + 1 * y, x + (-1) * y (``torch_complex_axpy``); the fast path of
# operands of one float dtype calls NumPy's ufuncs directly
elementwise("add", lambda sp, x, y: x + y, _add, vjp=lambda b, g, out, ins: (g, g),
            saves=False, dtype=same_dtype, numpy_fast=np.add)
elementwise("sub", lambda sp, x, y: x - y, _sub,
            vjp=per_input(lambda b, g, out, ins: g, lambda b, g, out, ins: -g),
            saves=False, dtype=same_dtype, numpy_fast=np.subtract)
elementwise("mul", lambda sp, x, y: x * y, np.multiply, dtype=same_dtype,
            vjp=per_input(lambda b, g, out, ins: g * ins[1], lambda b, g, out, ins: g * ins[0],
                          reads=((1,), (0,))))
elementwise("div", lambda sp, x, y: x / y, np.divide, complex_ok=True,
            # torch's form (div_tensor_other_backward): d/dy = -g * ((x / y) / y)
            vjp=per_input(lambda b, g, out, ins: g / ins[1],
                          lambda b, g, out, ins: -g * ((ins[0] / ins[1]) / ins[1]),
                          reads=((1,), (0, 1))))
elementwise("neg", lambda sp, x: -x, np.negative, vjp=lambda b, g, out, ins: (-g,),
            saves=False, dtype=same_dtype)


def _pow_base(b, g, out, ins):
    base, expo = ins
    c = b.constant_value(expo)
    if c is not None:
        # torch's pow_backward for a scalar exponent: grad * (e * x ** (e - 1)), zeros if e = 0
        # (x**0 is constant); the exponent gets no gradient.
        if c == 0:
            return b.full(g, 0.0)
        if c == 2 and not (base.is_traced or g.is_traced):
            return g * (base * 2.0)   # (eager: x ** 1 is x, exactly; the same bits, two ops)
        return g * (expo * b.op("pow", base, expo - 1.0))
    # torch's d/d base is 0 where the exponent is 0 (x**0 is constant), not 0 * 0**-1 = NaN.
    return b.op("where", b.op("eq", expo, 0.0), 0.0, g * (expo * b.op("pow", base, expo - 1.0)))


def _pow_exponent(b, g, out, ins):
    base, expo = ins
    # torch masks the exponent's gradient where base == 0 and exponent >= 0 (log(0) there;
    # a complex exponent: a real one >= 0).
    nonnegative = b.op("ge", expo, 0.0) if not expo.dtype.is_complex else b.op(
        "logical_and", b.op("eq", b.op("imag", expo), 0.0), b.op("ge", b.op("real", expo), 0.0))
    mask = b.op("logical_and", b.op("eq", base, 0.0), nonnegative)
    return b.op("where", mask, 0.0, g * (out * b.op("log", _promoted_base(b, base, expo))))


# Only the exponent's part reads the result (torch saves it for that formula alone: x ** 2's
# result may change in place, its gradient reads x).
_pow_vjp = per_input(_pow_base, _pow_exponent, reads=((0, 1), (0, 1, -1)))


def _promoted_base(b, base, expo):
    """The base in the dtype pow computed in (torch's pow_backward_exponent takes the log of
    ``self`` converted to ``result_type(self, exponent)``: a float16 base with a float32
    exponent, log in float32), where the node saved operands of two dtypes."""
    if base.dtype is expo.dtype or not (base.dtype.is_floating and expo.dtype.is_floating):
        return base
    ranks = [(t.dtype, dtypes.RANK_TENSOR if t.ndim else dtypes.RANK_ZERO_DIM)
             for t in (base, expo)]
    wide = dtypes.promote(ranks)
    return base if wide is base.dtype else b.op("cast", base, dtype=wide)


def _np_pow(a, b):
    """torch's pow: a 0-d exponent (a Python number's, or a constant's) of 0.5 is sqrt(a) and
    of -0.5 is 1 / sqrt(a); of a real float a, 2, 3, -1 and -2 are a * a, a * a * a, 1 / a
    and 1 / (a * a) (``INTEGER_POWERS``); any other exponent C99's pow, elementwise (see
    below)."""
    if type(b) is not np.ndarray or not b.ndim:   # (np.ndim(b), without its dispatch)
        if b == 0.5 or b == -0.5:
            root = np.sqrt(a)
            return root if b == 0.5 else np.reciprocal(root)
        if b in INTEGER_POWERS and a.dtype.kind == "f" and (
                type(b) is a.dtype.type or np.result_type(a, b) == a.dtype):
            return _integer_power(a, int(b))
    out = np.power(a, b)
    if out.dtype.kind == "f":
        # NumPy takes sqrt for an exponent 0.5 it broadcasts (of shape (1,) too), where C's
        # pow gives +0.0 at -0.0 and +inf at -inf (elsewhere both round exactly)
        odd = np.equal(b, 0.5) & ((a == 0) | (a == -np.inf))
        if odd.any():
            out = np.where(odd, np.abs(a), out)
    return out


# The exponents torch's pow of a real float tensor by a number computes by multiplying
# (ATen's pow_tensor_scalar_optimized_kernel), each rounding as written: x * x * x is
# (x * x) * x, two roundings, where C's pow rounds once (they differ in the last bit for about
# a third of float32 values). ``passes.identities.pow_small_integer`` writes them the same way
# into the graph, so compiled C computes what this reference does.
INTEGER_POWERS = (2.0, 3.0, -1.0, -2.0)


def _integer_power(a, e: int):
    square = np.multiply(a, a) if e in (2, 3, -2) else None
    if e == 2:
        return square
    if e == 3:
        return np.multiply(square, a)
    return np.reciprocal(a if e == -1 else square)


def _pow_scalar(sp, x, y):
    return x ** y


# C99's pow: torch's for a tensor exponent (pow_tensor_tensor, even a 0-d one). A Python number
# exponent (a constant of the graph: ``lower`` sees it, ``exprs.pow_template`` prints it) of
# exactly 0.5 is sqrt(x) and of -0.5 is 1 / sqrt(x), as torch's pow_tensor_scalar computes them;
# they differ from pow at x = -0.0 (sqrt: -0.0, 1/sqrt: -inf; pow: +0.0, +inf) and at x = -inf
# (NaN; pow: +inf, +0.0). Gradients keep pow's rule; that of x ** 0.5, 0.5 * x ** -0.5 (a
# constant exponent again), picks up 1 / sqrt too: -inf at x = -0.0 and NaN at -inf, as
# torch's PowBackward0. Eagerly, the NumPy reference tells a Python number's exponent by its
# being 0-d (``frontend.functions.basic.pow`` expands a 0-d tensor exponent).
elementwise("pow", _pow_scalar, _np_pow, vjp=_pow_vjp, torch="PowBackward1", uses_out=True,
            complex_ok=True)


def _maximum_vjp(b, g, out, ins, loses="lt"):
    x, y = ins
    # torch splits the gradient evenly where the operands tie, and masks only the operand that
    # loses: where a comparison is false (NaN) both operands get g, as in torch.
    share = b.op("where", b.op("eq", x, y), g * 0.5, g)
    gx = b.op("where", b.op(loses, x, y), 0.0, share)
    gy = b.op("where", b.op(loses, y, x), 0.0, share)
    return gx, gy


# NaN propagates as in torch: both comparisons fail and x + y is NaN. The second condition
# overlaps the first (>= both ways): written as the strict complement (y > x), SymPy folds it
# into the default branch and maximum(NaN, 0) would print as 0.
elementwise("maximum", lambda sp, x, y: sp.Piecewise((x, x >= y), (y, y >= x), (x + y, True)),
            np.maximum, vjp=_maximum_vjp, dtype=same_dtype)
elementwise("minimum", lambda sp, x, y: sp.Piecewise((x, x <= y), (y, y <= x), (x + y, True)),
            np.minimum, vjp=lambda b, g, out, ins: _maximum_vjp(b, g, out, ins, loses="gt"),
            dtype=same_dtype)

# ---------------------------------------------------------------- transcendental


def _np_sigmoid(a):
    return 1 / (1 + np.exp(-a))


def _np_softplus(a):
    # torch's softplus (beta=1, threshold=20): linear above the threshold.
    return np.where(a > 20, a, np.log1p(np.exp(np.minimum(a, 20))))


def _cfunction(name: str):
    """SymPy's C99 function ``name`` (log1p, expm1: C's own, not log(1 + x) rewritten)."""
    from sympy.codegen import cfunctions
    return getattr(cfunctions, name)


# Rules that read only the output (exp, expm1, sqrt, rsqrt, tanh, sigmoid, relu; tan and exp2
# in ``pointwise``) save nothing else (``saves=False``): torch saves their ``result`` alone, so
# changing the input in place after them is allowed, changing the result is not.
elementwise("exp", lambda sp, x: sp.exp(x), np.exp, vjp=lambda b, g, out, ins: (g * out,),
            uses_out=True, saves=False, complex_ok=True)
# The derivatives of log and log1p in SymPy's form, 1/x and 1/(1 + x), times g (not g / x: the
# rounding differs, and the tests hold the rules to the SymPy derivative).
elementwise("log", lambda sp, x: sp.log(x), np.log,
            vjp=lambda b, g, out, ins: (g * (1.0 / ins[0]),), complex_ok=True)
elementwise("log1p", lambda sp, x: _cfunction("log1p")(x), np.log1p, torch="Log1PBackward0",
            vjp=lambda b, g, out, ins: (g * (1.0 / (1.0 + ins[0])),), complex_ok=True)
elementwise("expm1", lambda sp, x: _cfunction("expm1")(x), np.expm1,
            vjp=lambda b, g, out, ins: (g * (out + 1.0),), uses_out=True, saves=False,
            complex_ok=True)
elementwise("sqrt", lambda sp, x: sp.sqrt(x), np.sqrt,
            vjp=lambda b, g, out, ins: (g / (out * 2.0),), uses_out=True, saves=False,
            complex_ok=True)


# torch's rsqrt is 1 / sqrt(x), and its derivative reuses the output: -0.5 * g * out ** 3
# (out ** 3 computed as out * out * out), RsqrtBackward0.
elementwise("rsqrt", lambda sp, x: 1 / sp.sqrt(x), lambda a: 1.0 / np.sqrt(a),
            vjp=lambda b, g, out, ins: ((g * -0.5) * (out * out * out),), uses_out=True,
            saves=False, complex_ok=True)
elementwise("sin", lambda sp, x: sp.sin(x), np.sin,
            vjp=lambda b, g, out, ins: (g * b.op("cos", ins[0]),), complex_ok=True)
elementwise("cos", lambda sp, x: sp.cos(x), np.cos,
            vjp=lambda b, g, out, ins: (g * -b.op("sin", ins[0]),), complex_ok=True)
elementwise("tanh", lambda sp, x: sp.tanh(x), np.tanh,
            vjp=lambda b, g, out, ins: (g * (1.0 - out * out),), uses_out=True, saves=False,
            complex_ok=True)
# The derivative of 1/(1+exp(-x)) as written is NaN at x = -800; reuse the output instead.
elementwise("sigmoid", lambda sp, x: 1 / (1 + sp.exp(-x)), _np_sigmoid,
            vjp=lambda b, g, out, ins: (g * out * (1.0 - out),), uses_out=True, saves=False,
            complex_ok=True)
elementwise("softplus",
            lambda sp, x: sp.Piecewise((x, x > 20), (_cfunction("log1p")(sp.exp(x)), True)),
            _np_softplus,
            vjp=lambda b, g, out, ins: (b.op("where", b.op("gt", ins[0], 20.0), g,
                                             g * b.op("sigmoid", ins[0])),))
# relu'(0) = 0 as in torch; NaN propagates (NaN < 0 is false), and so does its gradient
# (torch's threshold_backward masks where out <= 0, which NaN is not): relu'(NaN) = 1. Like
# torch's clamp_min(x, 0), relu(-0.0) is -0.0 (only x < 0 is replaced).
elementwise("relu", lambda sp, x: sp.Piecewise((0, x < 0), (x, True)),
            lambda a: np.where(a < 0, 0, a).astype(a.dtype),
            vjp=lambda b, g, out, ins: (b.op("where", b.op("le", out, 0.0), 0.0, g),),
            dtype=same_dtype, uses_out=True, saves=False)
# abs'(x) = sign(x) as in torch: 0 at +-0.0 (a +0.0) and at NaN; of a complex z, |z| is real
# and its gradient (torch's convention) g * sgn(z) = g z / |z|.
elementwise("abs", lambda sp, x: sp.Abs(x), np.abs,
            vjp=lambda b, g, out, ins: (g * b.op("sgn", ins[0]),), dtype=real_dtype,
            promotion=PROMOTE, holomorphic=False)


def _np_sign(a):
    return np.where(a > 0, 1, np.where(a < 0, -1, 0)).astype(a.dtype)


# torch's sign, (x > 0) - (x < 0): +0.0 at -0.0, and 0 at NaN (NumPy's sign gives NaN there).
# It is piecewise constant: torch's gradient is zeros (so x.grad is zeros, not None).
elementwise("sign", lambda sp, x: sp.Piecewise((1, x > 0), (-1, x < 0), (0, True)), _np_sign,
            vjp=lambda b, g, out, ins: (b.full(g, 0.0),), saves=False, dtype=same_dtype)

# ---------------------------------------------------------------- gradient barriers

def _copy(x):
    return np.array(x, copy=True)


# The value itself, with no derivative: what ``x.detach()`` is inside a loop body being traced
# (there the ``scan`` rule differentiates the body's nodes, and a cut must be a node). Its
# derivative is zero by definition (SymPy's of x is 1: tests/ops/test_registry.py knows).
# The graph passes drop it after differentiation (passes.identities).
elementwise("stop_gradient", lambda sp, x: x, _copy,
            vjp=lambda b, g, out, ins: (None,), saves=False, dtype=same_dtype,
            torch="DetachBackward0", doc="x, differentiated as a constant (detach)")


def _no_derivative(b, g, out, ins):
    raise NotImplementedError(NO_DERIVATIVE)   # (a rule runs only for a needed derivative)


NO_DERIVATIVE = (
    "symgrad cannot differentiate through a loop or branch body that applies a custom "
    "autograd.Function or has a tensor hook: compiled loops and branches are differentiated "
    "through their traced graph, which applies neither (the custom backward, the hook). "
    "Write the body without them, or run that loop eagerly (outside symgrad.compile)")
# The value itself, whose derivative is an error: a custom Function's result or a hooked
# tensor inside a loop or branch body (see NO_DERIVATIVE). Dropped by the passes.
elementwise("no_derivative", lambda sp, x: x, _copy, vjp=_no_derivative, saves=False,
            dtype=same_dtype, torch="NotImplemented",
            doc="x, whose derivative raises (a body's custom Function or hook)")

# ---------------------------------------------------------------- comparisons and logic


def _compare(name: str, scalar, numpy) -> None:
    elementwise(name, scalar, numpy, dtype=bool_dtype if name in ("eq", "ne") else
                _ordered(name), torch="")


def _ordered(name: str):
    """The dtype rule of a comparison that orders its operands: none for complex numbers
    (torch's NotImplementedError names its CPU kernel)."""
    def rule(*dtypes, **_):
        for d in dtypes:
            if d.is_complex:
                raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                          f"'{d.scalar_type}'")
        return bool_dtype(*dtypes)
    return rule


_compare("lt", lambda sp, x, y: sp.StrictLessThan(x, y), np.less)
_compare("le", lambda sp, x, y: sp.LessThan(x, y), np.less_equal)
_compare("gt", lambda sp, x, y: sp.StrictGreaterThan(x, y), np.greater)
_compare("ge", lambda sp, x, y: sp.GreaterThan(x, y), np.greater_equal)
_compare("eq", lambda sp, x, y: sp.Eq(x, y, evaluate=False), np.equal)
_compare("ne", lambda sp, x, y: sp.Ne(x, y, evaluate=False), np.not_equal)

# Bool operands are untyped symbols; logic on them is comparison with 0.
elementwise("logical_and", lambda sp, x, y: sp.And(sp.Ne(x, 0), sp.Ne(y, 0)), np.logical_and,
            dtype=bool_dtype, bool_operands=(0, 1), promotion=LOGICAL)
elementwise("logical_or", lambda sp, x, y: sp.Or(sp.Ne(x, 0), sp.Ne(y, 0)), np.logical_or,
            dtype=bool_dtype, bool_operands=(0, 1), promotion=LOGICAL)
elementwise("logical_not", lambda sp, x: sp.Eq(x, 0), np.logical_not, dtype=bool_dtype,
            bool_operands=(0,), promotion=LOGICAL)


def _where_dtype(c, x, y, **_):
    if c.name != "bool":
        raise TypeError(f"where: condition must be bool, got {c.name}")
    return same_dtype(x, y)


# Each branch's part reads the condition alone (torch saves only it: the branches may change).
_where_vjp = per_input(lambda b, g, out, ins: None,
                       lambda b, g, out, ins: b.op("where", ins[0], g, 0.0),
                       lambda b, g, out, ins: b.op("where", ins[0], 0.0, g),
                       reads=((), (0,), (0,)))


elementwise("where", lambda sp, c, x, y: sp.Piecewise((x, sp.Ne(c, 0)), (y, True)),
            lambda c, x, y: np.where(c, x, y), vjp=_where_vjp, dtype=_where_dtype,
            torch="WhereBackward0", bool_operands=(0,), promotion=WHERE, torch_inputs=(1, 2))
