"""torch's elementwise math beyond the basics: trigonometric and hyperbolic functions and
their inverses, logarithms in base 2 and 10, erf/erfinv/lgamma/digamma/polygamma, rounding,
division's remainders and rounding modes (``%``, ``//``), the two-operand functions (atan2,
hypot, copysign, xlogy, logaddexp, fmax, lerp, ...), composites torch names (reciprocal,
deg2rad, addcmul, nan_to_num, logit, ...), torch's aliases (arcsin, multiply, greater...) and
the in-place forms of every elementwise method (``exp_``, ``floor_``...).

Layer: front end. Input: tensors (eager or traced) and Python numbers. Output: tensors, built
by applying the primitives of ``ops/pointwise.py`` (so they compile to C and differentiate
twice) or by composing them; where torch shows one grad_fn for a composite it gets one rule.

torch's integer behaviour: rounding an integer tensor returns a copy; ``//`` and ``%`` on
integers stay integers, and dividing by an integer zero raises torch's ZeroDivisionError
eagerly (compiled code, which cannot raise, gives 0 there).
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes
from . import basic as F
from ..core.apply import apply, full, tensor_operands
from ..core.backward_graph import exact
from ..core.grad_mode import is_grad_enabled
from .basic import _unary, composite
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg, tensors_only
from .complexes import complex_sgn
from .lanes import by_lanes
from .underivable import not_implemented, without_derivative

_NUMBER = (int, float, bool)
LN2 = math.log(2.0)



def _binary(name: str):
    """torch.<name>(input, other): Tensor operands only (torch has no Scalar overload: a
    number is its parser's TypeError)."""
    def fn(input, other) -> Tensor:  # noqa: A002
        tensors_only(name, input=input, other=other)
        return apply(name, input, other)
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} of two operands, broadcast (torch.{name})."
    return fn


tan, asin, acos, atan = (_unary(n) for n in ("tan", "asin", "acos", "atan"))
sinh, cosh, asinh, acosh, atanh = (_unary(n) for n in ("sinh", "cosh", "asinh", "acosh", "atanh"))
exp2, log2, log10 = (_unary(n) for n in ("exp2", "log2", "log10"))
erf, erfc, erfinv, lgamma, digamma = (_unary(n) for n in ("erf", "erfc", "erfinv", "lgamma",
                                                          "digamma"))
sinc = _unary("sinc")
atan2, hypot, logaddexp, logaddexp2 = (_binary(n) for n in ("atan2", "hypot", "logaddexp",
                                                           "logaddexp2"))
nextafter, fmax, fmin = (_binary(n) for n in ("nextafter", "fmax", "fmin"))


def copysign(input, other) -> Tensor:  # noqa: A002
    number = isinstance(other, _NUMBER)
    return apply("copysign", input, other, _torch_name="CopysignBackward1" if number else None,
                 _shown=(0,) if number else None)


def xlogy(input, other) -> Tensor:  # noqa: A002
    """``input * log(other)``, 0 where ``input`` is 0; torch's grad_fn for a Python number
    operand is its Scalar overload (XlogyBackward1: number ``input``, 2: number ``other``)."""
    name = "XlogyBackward1" if isinstance(input, _NUMBER) else (
        "XlogyBackward2" if isinstance(other, _NUMBER) else None)
    return apply("xlogy", input, other, _torch_name=name,
                 _shown=tensor_operands(input, other) if name else None)


def polygamma(n: int, input, *, _torch_name: str | None = None) -> Tensor:  # noqa: A002
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    if n < 0:
        raise RuntimeError(f"polygamma(n, x) does not support negative n, got {n!r}")
    return apply("polygamma", float(n), input, _torch_name=_torch_name)


def mvlgamma(input, p: int) -> Tensor:  # noqa: A002
    """The multivariate log-gamma of dimension ``p``: p(p-1)/4 ln(pi) + sum_j lgamma(x - j/2)."""
    if not isinstance(p, int) or p < 1:
        raise RuntimeError(f"p has to be greater than or equal to 1, got {p!r}")
    x = tensor_arg(input)
    if x.dtype.is_complex:   # torch's adds an arange of x's dtype, which has no complex kernel
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{x.dtype.scalar_type}\'')
    if not x.dtype.is_floating:
        x = x.to(dtypes.get_default_dtype())

    def body(x):
        total = lgamma(x)
        for j in range(1, p):
            total = F.add(total, lgamma(F.sub(x, j / 2)))
        return F.add(total, p * (p - 1) / 4 * math.log(math.pi))
    return composite("MvlgammaBackward0", body, [x], saves=True, uses_out=False)


# ---------------------------------------------------------------- rounding


def _rounding(name: str):
    def fn(input) -> Tensor:  # noqa: A002
        x = tensor_arg(input)
        if x.dtype.is_floating:
            return apply(name, x)
        if x.dtype is dtypes.bool_:
            raise RuntimeError(f"\"{name}\" not implemented for 'Bool'")
        return x.clone()       # torch: integers are already rounded
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} (torch.{name}); a copy of an integer tensor."
    return fn


floor, ceil, trunc = _rounding("floor"), _rounding("ceil"), _rounding("trunc")
_round_even = _rounding("round")


def round(input, *, decimals: int | None = None) -> Tensor:  # noqa: A001
    """Round half to even; with ``decimals``, to that many decimal places (negative: to tens,
    hundreds...), computed as torch does: nearbyint(x * 10^d) / 10^d."""
    if decimals is None:
        return _round_even(input)
    x = tensor_arg(input)
    if not x.dtype.is_floating:
        raise RuntimeError("round_cpu not implemented for integer tensors with decimals")
    if decimals == 0:       # torch's round.decimals: RoundBackward1 (x * 1 / 1 is x)
        return apply("round", x, _torch_name="RoundBackward1")
    scale = 10.0 ** abs(decimals)

    def body(x):
        if decimals >= 0:
            return F.div(_round_even(F.mul(x, scale)), scale)
        return F.mul(_round_even(F.div(x, scale)), scale)
    return composite("RoundBackward1", body, [x], lambda g, out, ins: (F.mul(g, 0.0),),
                     saves=False, uses_out=False)


def frac(input) -> Tensor:  # noqa: A002
    return apply("frac", input)


def signbit(input) -> Tensor:  # noqa: A002
    return apply("signbit", input)


# ---------------------------------------------------------------- division


def _not_differentiable(name: str):
    def rule(g, out, ins):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return rule


def floor_divide(input, other) -> Tensor:  # noqa: A002
    """``input // other``, rounded toward minus infinity (torch's; not differentiable)."""
    return composite("NotImplemented", lambda a, b: apply("floor_divide", a, b),
                     [tensor_arg(input), tensor_arg(other)], _not_differentiable("floor_divide"))


_TRUE = "true division"   # div's rounding_mode when none is passed (torch: div.Tensor)


def div(input, other, *, rounding_mode: str | None = _TRUE) -> Tensor:  # noqa: A002
    """``input / other``; ``rounding_mode`` "trunc" or "floor" rounds the quotient (then the
    gradient is zero, as torch's), and integers stay integers. Passing ``rounding_mode``,
    None too, is torch's ``div.Tensor_mode`` (DivBackward2)."""
    if rounding_mode is _TRUE:
        return F.div(input, other)
    if rounding_mode is None:
        return apply("div", input, other, _torch_name="DivBackward2")
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                         f"but found '{rounding_mode}'")
    name = "trunc_divide" if rounding_mode == "trunc" else "floor_divide"
    return apply(name, input, other, _torch_name="DivBackward2")


def fmod(input, other) -> Tensor:  # noqa: A002
    tensors_only("fmod", input=input)   # fmod(Tensor, Tensor) or fmod(Tensor, Scalar)
    number = isinstance(other, _NUMBER)
    return apply("fmod", input, other, _torch_name="FmodBackward0" if number else None,
                 _shown=(0,) if number else None)


def remainder(input, other) -> Tensor:  # noqa: A002
    if isinstance(input, _NUMBER):   # torch's remainder.Scalar_Tensor: no derivative formula
        return without_derivative("NotImplemented", lambda b: apply("remainder", input, b),
                                  [tensor_arg(other)], not_implemented("remainder"))
    number = isinstance(other, _NUMBER)
    return apply("remainder", input, other, _torch_name="RemainderBackward0" if number else None,
                 _shown=(0,) if number else None)


def heaviside(input, values) -> Tensor:  # noqa: A002
    tensors_only("heaviside", input=input, values=values)
    return composite("NotImplemented", lambda a, b: apply("heaviside", a, b),
                     [tensor_arg(input), tensor_arg(values)], _not_differentiable("heaviside"))


# ---------------------------------------------------------------- composites torch names


def reciprocal(input) -> Tensor:  # noqa: A002
    return composite("ReciprocalBackward0", lambda x: F.div(1.0, x), [tensor_arg(input)],
                     exact(lambda g, out, ins: (F.mul(F.neg(g), F.mul(out, out)),)),
                     saves=False)


def _scale(name: str, factor: float, torch_name: str):
    def fn(input) -> Tensor:  # noqa: A002
        return composite(torch_name, lambda x: F.mul(x, factor), [tensor_arg(input)],
                         lambda g, out, ins: (F.mul(g, factor),), saves=False, uses_out=False)
    fn.__name__ = name
    return fn


deg2rad = _scale("deg2rad", math.pi / 180.0, "Deg2RadBackward0")
rad2deg = _scale("rad2deg", 180.0 / math.pi, "Rad2DegBackward0")


def float_power(input, exponent) -> Tensor:  # noqa: A002
    """``input ** exponent`` in float64 (complex128 if either is complex), as torch."""
    wide = float_power_dtype(input, exponent)

    def double(v):
        if isinstance(v, Tensor):
            return v if v.dtype is wide else v.to(wide)
        return v if isinstance(v, complex) else float(v)
    return F.pow(double(input), double(exponent))


def float_power_dtype(input, exponent) -> dtypes.DType:  # noqa: A002
    complex_ = any(v.dtype.is_complex if isinstance(v, Tensor) else isinstance(v, complex)
                   for v in (input, exponent))
    return dtypes.complex128 if complex_ else dtypes.float64


def ldexp(input, other) -> Tensor:  # noqa: A002
    """``input * 2 ** other`` in the operands' promoted floating dtype (a 0-d float64 ``input``
    makes int32 exponents float64, as torch's), one LdexpBackward0 with torch's derivatives:
    ``g * 2 ** other`` (of an integer ``other``, torch's integer power of two: 0 for a negative
    one) and ``g * out * ln 2``."""
    tensors_only("ldexp", input=input, other=other)
    a, e = tensor_arg(input), tensor_arg(other)
    kind = dtypes.promote([(t.dtype, dtypes.RANK_TENSOR if t.ndim else dtypes.RANK_ZERO_DIM)
                           for t in (a, e)])
    if not kind.is_differentiable:
        kind = dtypes.DEFAULT_FLOAT

    def rule(g, out, ins):
        e = ins[1]
        if e.dtype.is_differentiable:
            return F.mul(g, F.pow(2.0, e)), F.mul(F.mul(g, out), LN2)
        return F.mul(g, _power_of_two(e, g.dtype)), None
    return composite("LdexpBackward0", lambda a, b: F.mul(a, F.pow(2.0, b if b.dtype is kind
                                                                      else b.to(kind))),
                     [a, e], rule)


def _power_of_two(e: Tensor, dtype) -> Tensor:
    """``2 ** e`` for an integer tensor ``e`` computed as torch's integer ``pow`` (in ``e``'s
    dtype: 0 for a negative exponent, wrapping past its bits), as a ``dtype`` tensor."""
    bits = 8 * e.dtype.itemsize
    p = F.pow(2.0, e.to(dtypes.float64))
    if e.dtype.is_signed:
        p = F.where(F.eq(e, bits - 1), -(2.0 ** (bits - 1)), p)
    return F.where(F.logical_or(F.lt(e, 0), F.ge(e, bits)), 0.0, p).to(dtype)


def lerp(input, end, weight) -> Tensor:  # noqa: A002
    number = isinstance(weight, _NUMBER)
    return apply("lerp", input, end, weight, _torch_name="LerpBackward0" if number else None,
                 _shown=(0, 1) if number else None)


def addcmul(input, tensor1, tensor2, *, value=1) -> Tensor:  # noqa: A002
    """``input + value * tensor1 * tensor2``, rounded as torch: ((value * t1) * t2) + input;
    of integer operands, ``value`` is truncated to an integer (torch's conversion)."""
    input, tensor1, tensor2 = tensor_arg(input), tensor_arg(tensor1), tensor_arg(tensor2)
    if not any(t.dtype.is_differentiable for t in (input, tensor1, tensor2)):
        value = int(value)

    def body(x, a, b):
        return F.add(x, F.mul(a if value == 1 else F.mul(value, a), b))

    def rule(g, out, ins):
        _, a, b = ins
        return g, F.mul(F.mul(g, b), value), F.mul(F.mul(g, a), value)
    return composite("AddcmulBackward0", body,
                     [tensor_arg(input), tensor_arg(tensor1), tensor_arg(tensor2)], rule,
                     uses_out=False)


ADDCDIV_INTEGERS = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
    "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes.")


def addcdiv(input, tensor1, tensor2, *, value=1) -> Tensor:  # noqa: A002
    """``input + value * tensor1 / tensor2``, rounded as torch: ((value * t1) / t2) + input.
    Integer (or bool) ``tensor1`` and ``tensor2`` are torch's error."""
    tensor1, tensor2 = tensor_arg(tensor1), tensor_arg(tensor2)
    if not (tensor1.dtype.is_differentiable or tensor2.dtype.is_differentiable):
        raise RuntimeError(ADDCDIV_INTEGERS)

    def body(x, a, b):
        return F.add(x, F.div(a if value == 1 else F.mul(value, a), b))

    def rule(g, out, ins):
        _, a, b = ins
        return (g, F.mul(g, F.div(value, b)),
                F.div(F.mul(F.mul(F.neg(g), value), a), F.mul(b, b)))
    return composite("AddcdivBackward0", body,
                     [tensor_arg(input), tensor_arg(tensor1), tensor_arg(tensor2)], rule,
                     uses_out=False)


def nan_to_num(input, nan: float = 0.0, posinf: float | None = None,  # noqa: A002
               neginf: float | None = None, *, _inplace: bool = False) -> Tensor:
    """NaN -> ``nan``, +inf -> ``posinf``, -inf -> ``neginf`` (default: the dtype's largest
    and lowest finite values); the gradient passes where the input is finite."""
    x = tensor_arg(input)
    if x.dtype.is_complex:
        return _complex_nan_to_num(x, nan, posinf, neginf, _inplace)
    if not x.dtype.is_floating:
        return x.clone()
    info = dtypes.finfo(x.dtype)
    high = info.max if posinf is None else posinf
    low = info.min if neginf is None else neginf

    def body(x):
        value = F.where(F.isnan(x), full(x, nan), x)
        value = F.where(F.eq(x, math.inf), full(x, high), value)
        return F.where(F.eq(x, -math.inf), full(x, low), value)
    return composite("NanToNumBackward0", body, [x],
                     lambda g, out, ins: (F.where(F.isfinite(ins[0]), g, 0.0),), uses_out=False)


def _complex_nan_to_num(z: Tensor, nan, posinf, neginf, inplace: bool) -> Tensor:
    """nan_to_num of the real and imaginary parts; torch differentiates only its in-place
    form (the gradient passes where both parts are finite)."""
    if z.requires_grad and not inplace and is_grad_enabled():
        raise RuntimeError("nan_to_num does not support automatic differentiation for outputs "
                           "with complex dtype.")

    def body(z):
        parts = (nan_to_num(apply(p, z), nan, posinf, neginf) for p in ("real", "imag"))
        return apply("complex", *parts)
    return composite("NanToNumBackward0", body, [z],
                     lambda g, out, ins: (F.where(F.isfinite(ins[0]), g, 0.0),),
                     uses_out=False, holomorphic=False)


def logit(input, eps: float | None = None) -> Tensor:  # noqa: A002
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when ``eps`` is given; torch's
    gradient: NaN outside [0, 1] without eps, zero outside [eps, 1 - eps] with it."""
    x = tensor_arg(input)
    if x.dtype.is_bool:     # as the integers 0 and 1 (a bool's 1 - p is no subtraction here)
        x = x.to(dtypes.int64)

    def body(x):
        p = x if eps is None else F.clamp(x, eps, 1.0 - eps)
        return F.log(F.div(p, F.sub(1.0, p)))

    def rule(g, out, ins):
        return (_logit_grad(g, ins[0], eps),)
    return composite("LogitBackward0", body, [x], rule, uses_out=False)


def _logit_grad(g: Tensor, x: Tensor, eps: float | None) -> Tensor:
    """torch's logit backward: g / (x (1 - x)); NaN outside [0, 1] without eps, 0 outside
    [eps, 1 - eps] (in x's dtype) with it. torch's scalar loop gives g * inf at 0 and 1
    (+inf at -0.0 too) and NaN at NaN with eps; its vector loop the quotient and 0."""
    quotient = F.div(g, F.mul(x, F.sub(1.0, x)))
    scalar = F.where(F.logical_or(F.eq(x, 0.0), F.eq(x, 1.0)), F.mul(g, math.inf), quotient)
    if eps is None:
        lo, hi, fill = 0.0, 1.0, math.nan
    else:
        kind = x.dtype.computes_in.np if x.dtype.is_floating else np.dtype(np.float64)
        lo, hi, fill = float(np.asarray(eps, kind)), float(1 - np.asarray(eps, kind)), 0.0
    return by_lanes(x, 2, F.where(F.logical_and(F.ge(x, lo), F.le(x, hi)), quotient, fill),
                    F.where(F.logical_or(F.lt(x, lo), F.gt(x, hi)), fill, scalar))


def entr(input) -> Tensor:  # noqa: A002
    return apply("entr", input)


def xlog1py(input, other) -> Tensor:  # noqa: A002
    return apply("xlog1py", input, other, **_scalar_overload("SpecialXlog1Py", input, other))


def zeta(input, other) -> Tensor:  # noqa: A002
    return apply("zeta", input, other, **_scalar_overload("SpecialZeta", input, other))


def _scalar_overload(kind: str, input, other) -> dict:  # noqa: A002
    """The node torch shows for a two-operand function with a Python number among its
    operands: its ``self_scalar`` overload (<kind>Backward1) or ``other_scalar`` one
    (<kind>Backward2), with edges for the tensors only; {} for two tensors."""
    if isinstance(input, _NUMBER):
        return {"_torch_name": f"{kind}Backward1", "_shown": (1,)}
    if isinstance(other, _NUMBER):
        return {"_torch_name": f"{kind}Backward2", "_shown": (0,)}
    return {}


def ndtr(input) -> Tensor:  # noqa: A002
    """The standard normal CDF, as torch: (1 + erf(x / sqrt(2))) * 0.5."""
    return mul_number(F.add(erf(F.mul(input, math.sqrt(0.5))), 1.0), 0.5)


def mul_number(a: Tensor, number) -> Tensor:
    """``a * number`` as ATen's C++ composites write it: ``mul.Scalar``, whose node is
    MulBackward1 (one edge); Python's ``a * 0.5`` wraps the number (MulBackward0)."""
    return apply("mul", a, number, _torch_name="MulBackward1", _shown=(0,))


def div_number(a: Tensor, number) -> Tensor:
    """``a / number`` as ATen's C++ composites write it: ``div.Scalar``, DivBackward1."""
    return apply("div", a, number, _torch_name="DivBackward1", _shown=(0,))


def positive(input) -> Tensor:  # noqa: A002
    x = tensor_arg(input)
    if x.dtype is dtypes.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return x


def sgn(input) -> Tensor:  # noqa: A002
    """torch.sgn: z / |z| (0 at 0) of a complex tensor, the sign of a real one."""
    x = tensor_arg(input)
    if x.dtype.is_complex:
        return complex_sgn(x)
    return apply("sign", x, _torch_name="SgnBackward0")


def isposinf(input) -> Tensor:  # noqa: A002
    return F.eq(input, math.inf)


def isneginf(input) -> Tensor:  # noqa: A002
    return F.eq(input, -math.inf)


def isreal(input) -> Tensor:  # noqa: A002
    x = tensor_arg(input)
    if x.dtype.is_complex:
        return F.eq(apply("imag", x), 0.0)
    return full(x, True, dtype=dtypes.bool_)


def logical_xor(input, other) -> Tensor:  # noqa: A002
    return F.ne(F.ne(input, 0), F.ne(other, 0))


ALIASES = {
    "arcsin": asin, "arccos": acos, "arctan": atan, "arcsinh": asinh, "arccosh": acosh,
    "arctanh": atanh, "arctan2": atan2, "fix": trunc, "absolute": F.abs, "negative": F.neg,
    "multiply": F.mul, "subtract": F.sub, "divide": div, "true_divide": F.div,
    "greater": F.gt, "greater_equal": F.ge, "less": F.lt, "less_equal": F.le,
    "not_equal": F.ne, "clip": F.clamp,
}

FUNCTIONS = {
    "tan": tan, "asin": asin, "acos": acos, "atan": atan, "sinh": sinh, "cosh": cosh,
    "asinh": asinh, "acosh": acosh, "atanh": atanh, "exp2": exp2, "log2": log2,
    "log10": log10, "erf": erf, "erfc": erfc, "erfinv": erfinv, "lgamma": lgamma,
    "digamma": digamma, "polygamma": polygamma, "mvlgamma": mvlgamma, "sinc": sinc,
    "atan2": atan2, "hypot": hypot, "xlogy": xlogy, "logaddexp": logaddexp,
    "logaddexp2": logaddexp2, "nextafter": nextafter, "fmax": fmax, "fmin": fmin,
    "copysign": copysign, "floor": floor, "ceil": ceil, "trunc": trunc, "round": round,
    "frac": frac, "signbit": signbit, "floor_divide": floor_divide, "div": div, "fmod": fmod,
    "remainder": remainder, "heaviside": heaviside, "reciprocal": reciprocal,
    "deg2rad": deg2rad, "rad2deg": rad2deg, "float_power": float_power, "ldexp": ldexp,
    "lerp": lerp, "addcmul": addcmul, "addcdiv": addcdiv, "nan_to_num": nan_to_num,
    "logit": logit, "positive": positive, "sgn": sgn, "isposinf": isposinf,
    "isneginf": isneginf, "isreal": isreal, "logical_xor": logical_xor, **ALIASES,
}

__all__ = sorted(FUNCTIONS)  # noqa: PLE0605  (a list, made from the table)
globals().update(ALIASES)
