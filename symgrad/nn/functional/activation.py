"""Activations of ``torch.nn.functional``: relu, relu6, hardtanh, leaky_relu, elu, gelu, silu,
softplus, sigmoid, tanh, softmax and log_softmax (with torch's implicit-dim rule).

Layer: front end (torch.nn mirror). Input: tensors (eager or traced) and torch's arguments;
``inplace=True`` updates the input through the front end's in-place rules and returns it.
Output: tensors built from primitives. Each activation torch shows one grad_fn for
(``GeluBackward0``, ``EluBackward0``...) is a composite whose backward rule is torch's formula
written with the front end's functions, so it picks torch's side at kinks, can be
differentiated again and compiles. The exact GELU needs ``erf`` from
``symgrad.frontend.functions.pointwise``. It must not read or write tensors' arrays.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ... import dtypes
from ...frontend.functions import pointwise
from ...frontend.core.apply import apply, as_tensor
from ...frontend.core.arguments import receiver
from ...frontend.functions.basic import (composite, eq, exp, expm1, ge, gt, le, log1p, logical_and,
                                         logical_or, lt, where)
from ...frontend.functions.basic import log_softmax as _log_softmax
from ...frontend.functions.basic import sigmoid as _sigmoid
from ...frontend.functions.basic import softmax as _softmax
from ...frontend.functions.basic import tanh as _tanh
from ...frontend.functions.inplace import update
from ...frontend.functions.lanes import by_lanes
from ...frontend.core.tensor import Tensor

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_K_BETA = math.sqrt(2.0 / math.pi)     # the tanh approximation's constants (torch's)
_K_KAPPA = 0.044715


def _activation(fn, input, inplace: bool, name: str) -> Tensor:  # noqa: A002
    """``fn(input)``, or ``input`` updated in place with it (torch's ``relu_`` & co.)."""
    x = as_tensor(input)
    return update(x, fn, name) if inplace else fn(x)


def relu(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """max(x, 0); relu'(0) = 0."""
    return _activation(lambda a: apply("relu", a), input, inplace, "relu_")


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0,  # noqa: A002
             inplace: bool = False) -> Tensor:
    """x clamped to [min_val, max_val]; the gradient is 0 at and beyond the bounds."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")

    def fn(x):
        if x.dtype is dtypes.uint8 and (min_val < 0 or max_val < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")

        def body(a):   # bounds of the input's kind: an integer tensor stays one, as torch's
            lo, hi = (min_val, max_val) if a.dtype.is_floating else (int(min_val), int(max_val))
            return where(a < lo, lo, where(a > hi, hi, a))

        def rule(g, out, ins):   # at NaN: torch's scalar loop passes g, its vector one 0
            a = ins[0]
            return (by_lanes(a, 1, where(logical_and(gt(a, min_val), lt(a, max_val)), g, 0.0),
                             where(logical_or(le(a, min_val), ge(a, max_val)), 0.0, g)),)
        return composite("HardtanhBackward0", body, [x], rule, uses_out=False, pure=True)
    return _activation(fn, input, inplace, "hardtanh_")


def relu6(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """min(max(x, 0), 6), as hardtanh(x, 0, 6)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    """x where x > 0, else negative_slope * x (the slope's side at 0). In place, torch's
    ``LeakyReluBackward1`` reads the result, and refuses a negative slope in the backward."""
    def fn(x):
        if inplace:
            return composite("LeakyReluBackward1",
                             lambda a: where(gt(a, 0.0), a, a * negative_slope), [x],
                             lambda g, out, ins: _leaky_from_result(g, out, negative_slope),
                             pure=True)
        return composite("LeakyReluBackward0",
                         lambda a: where(gt(a, 0.0), a, a * negative_slope), [x],
                         lambda g, out, ins: (where(gt(ins[0], 0.0), g, g * negative_slope),),
                         uses_out=False, pure=True)
    return _activation(fn, input, inplace, "leaky_relu_")


def _leaky_from_result(g, out, negative_slope: float):
    if negative_slope < 0:
        raise RuntimeError("In-place leakyReLu backward calculation is triggered with a negative "
                           "slope which is not supported. This is caused by calling in-place "
                           "forward function with a negative slope, please call out-of-place "
                           "version instead. File an issue at https://github.com/pytorch/pytorch "
                           "if you do require supporting in-place leakRelu backward calculation "
                           "with negative slope")
    return (where(gt(out, 0.0), g, g * negative_slope),)


def in_dtype(value: float, dtype) -> float:
    """``value`` rounded to ``dtype`` as a Python float (torch's ``Scalar.to<scalar_t>()``
    of a kernel's constant; float16 computes in float32)."""
    return float(np.asarray(value, np.float64).astype(dtype.computes_in.np))


def rounded(fn, t: Tensor) -> Tensor:
    """``fn(t)`` correctly rounded to float32 (computed in float64) for a float32 ``t``: what
    torch's vectorized float32 exp and expm1 give (NumPy's float32 ones are an ulp off in a
    third of cases, which the in-place ELU's backward, ``out + alpha``, magnifies)."""
    return fn(t.to(dtypes.float64)).to(t.dtype) if t.dtype is dtypes.float32 else fn(t)


def elu_kernel(x: Tensor, alpha: float, scale: float, input_scale: float, names: tuple,
               inplace: bool, grad_input_scale: float | None = None) -> Tensor:
    """torch's ELU kernel, behind elu, selu and celu: ``expm1(x * input_scale) * (alpha *
    scale)`` where x <= 0, else ``x * scale`` (the constants rounded to the dtype as torch's
    kernel rounds them), with torch's backward from the input (``names[0]``) or, in place, from
    the result (``names[1]``); ``grad_input_scale`` is the backward's input scale where it
    differs. The negative branch reads min(x, 0): no overflow where it is not taken."""
    neg_coef = in_dtype(in_dtype(alpha, x.dtype) * in_dtype(scale, x.dtype), x.dtype)
    pos_coef, in_scale = in_dtype(scale, x.dtype), in_dtype(input_scale, x.dtype)
    g_scale = in_dtype(input_scale if grad_input_scale is None else grad_input_scale, x.dtype)

    def times(t, c):
        return t if c == 1.0 else t * c

    def body(a):
        negative = le(a, 0.0)
        return where(negative, rounded(expm1, times(where(negative, a, 0.0), in_scale)) *
                     neg_coef, times(a, pos_coef))

    def sides(g, t, negative):   # at NaN: torch's scalar loop takes the positive side, its
        positive = times(g, pos_coef)   # vector loop the negative one
        return (by_lanes(t, 2, where(gt(t, 0.0), positive, negative),
                         where(le(t, 0.0), negative, positive)),)

    def from_input(g, out, ins):
        a = ins[0]
        return sides(g, a, times(g, g_scale) * neg_coef * rounded(exp, times(a, g_scale)))

    def from_result(g, out, ins):
        return sides(g, out, times(g, g_scale) * (out + neg_coef))
    if inplace:
        return composite(names[1], body, [x], from_result, saves=False)
    return composite(names[0], body, [x], from_input, uses_out=False)


def elu(input, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """x where x > 0, else alpha * (exp(x) - 1); the gradient at 0 is alpha's side's."""
    return _activation(lambda x: elu_kernel(x, alpha, 1.0, 1.0, ("EluBackward0", "EluBackward1"),
                                            inplace), input, inplace, "elu_")


def gelu(input, approximate: str = "none") -> Tensor:  # noqa: A002
    """x * Phi(x) (``approximate='none'``, with erf) or torch's tanh approximation."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    x = as_tensor(input)
    if approximate == "tanh":
        def body(a):
            return 0.5 * a * (1.0 + _tanh(_K_BETA * (a + _K_KAPPA * (a * a * a))))

        def rule(g, out, ins):
            a = ins[0]
            t = _tanh(_K_BETA * (a + _K_KAPPA * (a * a * a)))
            inner = _K_BETA * (1.0 + 3.0 * _K_KAPPA * (a * a))
            return (g * (0.5 * (1.0 + t) + 0.5 * a * (1.0 - t * t) * inner),)
        return composite("GeluBackward0", body, [x], rule, uses_out=False, pure=True)
    erf = pointwise.erf

    def rule_exact(g, out, ins):
        a = ins[0]
        cdf = 0.5 * (1.0 + erf(a * _SQRT_HALF))
        return (g * (cdf + a * (_INV_SQRT_2PI * exp(a * a * -0.5))),)
    return composite("GeluBackward0", _gelu_exact, [x], rule_exact, uses_out=False, pure=True)


def _gelu_exact(a: Tensor) -> Tensor:
    """x * (1 + erf(x / sqrt 2)) / 2; torch's vector loop for float32 and float16 (every
    contiguous input of two elements or more) gives NaN at +inf, its scalar one inf."""
    y = a * 0.5 * (1.0 + pointwise.erf(a * _SQRT_HALF))
    shape = tuple(a.shape)
    if a.dtype.computes_in is dtypes.float32 and all(type(s) is int for s in shape) \
            and math.prod(shape) >= 2:
        return where(eq(a, math.inf), math.nan, y)
    return y


def silu(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * sigmoid(x)."""
    def fn(x):
        def rule(g, out, ins):
            s = _sigmoid(ins[0])
            return (g * s * (1.0 + ins[0] * (1.0 - s)),)
        return composite("SiluBackward0", lambda a: a * _sigmoid(a), [x], rule, uses_out=False,
                         pure=True)
    return _activation(fn, input, inplace, "silu_")


def softplus(input, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold."""
    x = as_tensor(input)
    if beta == 1.0 and threshold == 20.0:
        return apply("softplus", x)

    def body(a):
        return where(gt(a * beta, threshold), a, log1p(exp(a * beta)) / beta)

    def rule(g, out, ins):
        a = ins[0]
        return (where(gt(a * beta, threshold), g, g * _sigmoid(a * beta)),)
    return composite("SoftplusBackward0", body, [x], rule, uses_out=False, pure=True)


def sigmoid(input) -> Tensor:  # noqa: A002
    """1 / (1 + exp(-x))."""
    return _sigmoid(receiver(input, "sigmoid"))


def tanh(input) -> Tensor:  # noqa: A002
    """The hyperbolic tangent."""
    return _tanh(receiver(input, "tanh"))


def softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """torch's implicit softmax dim (0 for 0-, 1- and 3-d inputs, else 1), with its warning."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  f"to include dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:  # noqa: A002
    """exp(x) / sum(exp(x)) along ``dim`` (computed in ``dtype`` if given)."""
    x = as_tensor(input)
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        dim = softmax_dim("softmax", x.ndim, _stacklevel)
    return _softmax(x, dim)


def log_softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:  # noqa: A002
    """x - logsumexp(x) along ``dim`` (computed in ``dtype`` if given)."""
    x = as_tensor(input)
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        dim = softmax_dim("log_softmax", x.ndim, _stacklevel)
    return _log_softmax(x, dim)
