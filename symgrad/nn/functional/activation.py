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

from ...frontend.functions import pointwise
from ...frontend.core.apply import apply, as_tensor
from ...frontend.functions.basic import composite, exp, expm1, ge, gt, le, log1p, logical_or, where
from ...frontend.functions.basic import log_softmax as _log_softmax
from ...frontend.functions.basic import sigmoid as _sigmoid
from ...frontend.functions.basic import softmax as _softmax
from ...frontend.functions.basic import tanh as _tanh
from ...frontend.functions.inplace import update
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
        def body(a):   # bounds of the input's kind: an integer tensor stays one, as torch's
            lo, hi = (min_val, max_val) if a.dtype.is_floating else (int(min_val), int(max_val))
            return where(a < lo, lo, where(a > hi, hi, a))

        def rule(g, out, ins):
            a = ins[0]
            return (where(logical_or(le(a, min_val), ge(a, max_val)), 0.0, g),)
        return composite("HardtanhBackward0", body, [x], rule, uses_out=False)
    return _activation(fn, input, inplace, "hardtanh_")


def relu6(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """min(max(x, 0), 6), as hardtanh(x, 0, 6)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    """x where x > 0, else negative_slope * x (the slope's side at 0)."""
    def fn(x):
        return composite("LeakyReluBackward0",
                         lambda a: where(gt(a, 0.0), a, a * negative_slope), [x],
                         lambda g, out, ins: (where(gt(ins[0], 0.0), g, g * negative_slope),),
                         uses_out=False)
    return _activation(fn, input, inplace, "leaky_relu_")


def elu(input, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """x where x > 0, else alpha * (exp(x) - 1); the gradient at 0 is alpha's side's."""
    def fn(x):
        return composite("EluBackward0",
                         lambda a: where(gt(a, 0.0), a, alpha * expm1(a)), [x],
                         lambda g, out, ins: (where(le(ins[0], 0.0), g * alpha * exp(ins[0]),
                                                    g),),
                         uses_out=False)
    return _activation(fn, input, inplace, "elu_")


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
        return composite("GeluBackward0", body, [x], rule, uses_out=False)
    erf = pointwise.erf

    def rule_exact(g, out, ins):
        a = ins[0]
        cdf = 0.5 * (1.0 + erf(a * _SQRT_HALF))
        return (g * (cdf + a * (_INV_SQRT_2PI * exp(a * a * -0.5))),)
    return composite("GeluBackward0", lambda a: a * 0.5 * (1.0 + erf(a * _SQRT_HALF)), [x],
                     rule_exact, uses_out=False)


def silu(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * sigmoid(x)."""
    def fn(x):
        def rule(g, out, ins):
            s = _sigmoid(ins[0])
            return (g * s * (1.0 + ins[0] * (1.0 - s)),)
        return composite("SiluBackward0", lambda a: a * _sigmoid(a), [x], rule, uses_out=False)
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
    return composite("SoftplusBackward0", body, [x], rule, uses_out=False)


def sigmoid(input) -> Tensor:  # noqa: A002
    """1 / (1 + exp(-x))."""
    return _sigmoid(input)


def tanh(input) -> Tensor:  # noqa: A002
    """The hyperbolic tangent."""
    return _tanh(input)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
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
        dim = _softmax_dim("softmax", x.ndim, _stacklevel)
    return _softmax(x, dim)


def log_softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:  # noqa: A002
    """x - logsumexp(x) along ``dim`` (computed in ``dtype`` if given)."""
    x = as_tensor(input)
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        dim = _softmax_dim("log_softmax", x.ndim, _stacklevel)
    return _log_softmax(x, dim)
