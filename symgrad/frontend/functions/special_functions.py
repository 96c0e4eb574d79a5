"""torch.special's Bessel, Airy, error-function and incomplete-gamma functions and orthogonal
polynomials (``i0 i0e i1 i1e erfcx log_ndtr ndtri gammainc gammaincc bessel_j0 ...
modified_bessel_k1 airy_ai spherical_bessel_j0 chebyshev_polynomial_t ... legendre_polynomial_p``),
``torch.i0 igamma igammac`` and their Tensor methods (in place too).

Layer: front end. Input: tensors (the polynomials' ``x`` or ``n`` may be a Python number).
Output: tensors, computed eagerly by the NumPy references of ``ops.bessel``,
``ops.special_more`` and ``ops.polynomials`` (in float64, rounded once to the result's dtype;
the polynomials in the result's dtype, as torch's recurrences overflow in it; float16 i0e in
float16 arithmetic where torch's scalar kernel computes so: ``ops.bessel_half``). One table,
``UNARY``/``BINARY``, says per function its reference, its torch node and its derivative
formula (torch's ``derivatives.yaml``, written with front-end functions so that it
differentiates again); a function torch gives no derivative (the Bessel and Airy functions,
the polynomials) returns a result that does not require grad, as torch's; gammainc's
derivative in its first argument is torch's NotImplementedError.

The result's dtype: the operands' promoted dtype, the default float for integers and bools;
the dtypes torch has no kernel for (complex, and float16/bfloat16 except for i0 i0e i1 i1e)
are refused by ``kernel_dtypes``' rows before anything runs. Compiled code: the polynomials
of an int degree up to 64 and spherical_bessel_j0 compile (``special_traced``: the same
values composed of elementwise ops); the others have no C form yet: inside
``@symgrad.compile`` they raise TracerValueError naming the function.
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes
from ...ops import bessel, bessel_half, polynomials, special_more
from ...ops.registry import broadcast_shapes
from . import basic as F
from . import pointwise as P
from . import special_traced
from .assorted import result_type
from .inplace import update
from .lanes import vector_mask
from ..core.apply import attach_function
from ..core.arguments import tensors_only
from ..core.tensor import Tensor, tracer_error
from ..random.generator import capability

SQRT_2PI = math.sqrt(2.0 * math.pi)


def _eager(x: Tensor, name: str) -> np.ndarray:
    if x.is_traced:
        raise tracer_error(f"argument of {name}()", f"symgrad computes {name} eagerly only (it "
                           "has no compiled C form yet); call it outside @symgrad.compile.")
    return x.concrete


def _float_result(*operands) -> dtypes.DType:
    dt = operands[0].dtype if len(operands) == 1 else result_type(*operands)
    return dt if dt.is_floating else dtypes.DEFAULT_FLOAT


def _tensor(value, dt: dtypes.DType) -> Tensor:
    return Tensor(np.array(value, dtype=dt.np, order="C"), None)   # (0-d stays 0-d)


# ---------------------------------------------------------------- derivative formulas

def _safe(x: Tensor):
    """(|x| > eps, x with eps where it is not): torch's guard of i1's and i1e's 1/x."""
    eps = float(np.finfo(x.dtype.np).eps)
    big = F.gt(F.abs(x), eps)
    return big, F.where(big, x, eps)


def _d_i1(g, out, ins):
    big, safe = _safe(ins[0])
    slope = F.sub(i0(safe), F.mul(out, P.reciprocal(safe)))
    return (F.mul(g, F.where(big, slope, 0.5)),)


def _d_i1e(g, out, ins):
    big, safe = _safe(ins[0])
    slope = F.sub(i0e(safe), F.mul(out, F.add(P.sgn(safe), P.reciprocal(safe))))
    return (F.mul(g, F.where(big, slope, 0.5)),)


def _d_gamma(sign: float):
    def rule(g, out, ins):
        a, x = ins
        if a.requires_grad:
            op = "igamma" if sign > 0 else "igammac"
            raise NotImplementedError(f"the derivative for '{op}: input' is not implemented.")
        density = F.exp(F.sub(F.sub(F.mul(F.sub(a, 1.0), F.log(x)), x), P.lgamma(a)))
        return None, F.mul(g, density) if sign > 0 else F.neg(F.mul(g, density))
    return rule


_RULES = {
    "i0": ("I0Backward0", lambda g, out, ins: (F.mul(g, i1(ins[0])),)),
    "i0e": ("SpecialI0EBackward0", lambda g, out, ins: (
        F.mul(g, F.sub(i1e(ins[0]), F.mul(P.sgn(ins[0]), out))),)),
    "i1": ("SpecialI1Backward0", _d_i1),
    "i1e": ("SpecialI1EBackward0", _d_i1e),
    "erfcx": ("SpecialErfcxBackward0", lambda g, out, ins: (
        F.mul(F.sub(F.mul(F.mul(ins[0], 2.0), out), 2.0 / math.sqrt(math.pi)), g),)),
    "log_ndtr": ("SpecialLogNdtrBackward0", lambda g, out, ins: (F.mul(
        F.div(g, SQRT_2PI), F.exp(F.neg(F.add(out, F.div(F.mul(ins[0], ins[0]), 2.0))))),)),
    "ndtri": ("SpecialNdtriBackward0", lambda g, out, ins: (
        F.mul(F.mul(g, SQRT_2PI), F.exp(F.div(F.mul(out, out), 2.0))),)),
    "gammainc": ("IgammaBackward0", _d_gamma(1.0)),
    "gammaincc": ("IgammacBackward0", _d_gamma(-1.0)),
}

# ---------------------------------------------------------------- the functions

UNARY = {
    "i0": bessel.i0, "i0e": bessel.i0e, "i1": bessel.i1, "i1e": bessel.i1e,
    "erfcx": special_more.erfcx, "log_ndtr": special_more.log_ndtr,
    "ndtri": special_more.ndtri, "bessel_j0": bessel.j0, "bessel_j1": bessel.j1,
    "bessel_y0": bessel.y0, "bessel_y1": bessel.y1, "modified_bessel_i0": bessel.i0,
    "modified_bessel_i1": bessel.i1, "modified_bessel_k0": bessel.k0,
    "modified_bessel_k1": bessel.k1, "scaled_modified_bessel_k0": bessel.k0e,
    "scaled_modified_bessel_k1": bessel.k1e, "airy_ai": bessel.airy_ai,
    "spherical_bessel_j0": bessel.spherical_j0,
}

# Their asymptotic forms' phase, x - (n/2 + 1/4) pi (Airy's: 2/3 (-x)^1.5 + pi/4), is rounded
# in the result's dtype (torch's float32 kernels round it in float32: at |x| ~ 1e9 that is most
# of the value; an integer input's is the default float's).
PHASED = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "airy_ai")


# The functions whose float16 kernel's scalar lambda computes in float16 arithmetic (torch's
# ``calc_i0e<Half>``; i0, i1, i1e convert to float32 first): the elements torch's vector loop
# computes (in float32, AVX2/AVX-512 builds) take the reference, the others the float16 one.
IN_HALF = {"i0e": bessel_half.i0e}


def _half_lanes(scalar, x16: np.ndarray, value: np.ndarray) -> np.ndarray:
    build = capability()
    mask = False if build == "default" else vector_mask(x16.shape, 2, 2, build)
    if mask is True:
        return value
    half = scalar(x16)
    return half if mask is False else np.where(mask, value, half)


def _with_rule(name: str, out: Tensor, inputs: list) -> Tensor:
    entry = _RULES.get(name)
    if entry is None or not any(t.requires_grad for t in inputs):
        return out
    return attach_function(out, entry[0], entry[1], inputs, saves=True, uses_out=True)


def _unary(name: str):
    reference = UNARY[name]

    def fn(input) -> Tensor:  # noqa: A002
        tensors_only(f"special_{name}", input=input)
        dt = _float_result(input)
        if input.is_traced and name == "spherical_bessel_j0":   # a short compiled form
            return special_traced.spherical_j0(input.to(dt))
        v = _eager(input, name).astype(dt.np).astype(np.float64)   # as torch: x in dt first
        extra = (dt.computes_in.np,) if name in PHASED else ()
        value = reference(v.reshape(-1), *extra).reshape(v.shape)
        if name in IN_HALF and dt is dtypes.float16:
            value = _half_lanes(IN_HALF[name], v.astype(np.float16), value)
        return _with_rule(name, _tensor(value, dt), [input])
    fn.__name__ = name
    fn.__doc__ = f"torch.special.{name}, elementwise (eager only)."
    return fn


def _operands(name: str, x, n, numbers: bool) -> tuple:
    """(x, n) as tensors: torch's Scalar overloads take a number for one of them."""
    if numbers:
        if not isinstance(x, Tensor) and not isinstance(n, Tensor):
            tensors_only(name, x=x)
        return tuple(a if isinstance(a, Tensor) else _tensor(a, dtypes.scalar_dtype(a))
                     for a in (x, n))
    tensors_only(name, input=x, other=n)
    return x, n


def _polynomial(name: str):
    def fn(x, n) -> Tensor:
        dt = _float_result(x, n)
        x_, n_ = _operands(f"special_{name}", x, n, numbers=True)
        if x_.is_traced and not isinstance(n, Tensor):   # an int degree: a short compiled form
            traced = special_traced.polynomial(name, x_.to(dt), n)
            if traced is not None:
                return traced
        value = polynomials.evaluate(name, _eager(x_, name), _eager(n_, name), dt.computes_in.np)
        return _tensor(value, dt)
    fn.__name__ = name
    fn.__doc__ = f"torch.special.{name}(x, n): the polynomial of degree n at x (eager only)."
    return fn


def _incomplete_gamma(name: str, torch_name: str):
    reference = getattr(special_more, name)

    def fn(input, other) -> Tensor:  # noqa: A002
        a, x = _operands(torch_name, input, other, numbers=False)
        dt = _float_result(a, x)
        broadcast_shapes(a.shape, x.shape)   # torch's error for shapes that do not
        va, vx = np.broadcast_arrays(*(_eager(t, name).astype(dt.np).astype(np.float64)
                                       for t in (a, x)))
        value = reference(va.reshape(-1), vx.reshape(-1)).reshape(va.shape)
        return _with_rule(name, _tensor(value, dt), [a, x])
    fn.__name__ = torch_name
    return fn


i0, i0e, i1, i1e = (_unary(n) for n in ("i0", "i0e", "i1", "i1e"))
gammainc, gammaincc = _incomplete_gamma("gammainc", "igamma"), _incomplete_gamma("gammaincc",
                                                                                  "igammac")
POLYNOMIALS = {name: _polynomial(name) for name in polynomials.POLYNOMIALS}
SPECIAL = {**{name: _unary(name) for name in UNARY}, "gammainc": gammainc,
           "gammaincc": gammaincc, **POLYNOMIALS}
igamma, igammac = gammainc, gammaincc
FUNCTIONS = {"i0": i0, "igamma": igamma, "igammac": igammac}


def _inplace(fn, name: str):
    def method(self, *args):
        return update(self, lambda s: fn(s, *args), name)
    method.__name__ = name
    return method


METHODS = {**FUNCTIONS, **{f"{k}_": _inplace(fn, f"{k}_") for k, fn in FUNCTIONS.items()}}
