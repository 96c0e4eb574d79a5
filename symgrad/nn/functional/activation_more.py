"""More elementwise activations of ``torch.nn.functional``: celu, selu, threshold, hardshrink,
softshrink, hardsigmoid, hardswish, mish, logsigmoid, softsign, tanhshrink, and the in-place
forms torch names with a trailing underscore (``relu_ elu_ leaky_relu_ hardtanh_ threshold_
celu_ selu_``; ``rrelu_`` is with rrelu).

Layer: front end (torch.nn mirror). Input: tensors (eager or traced) and torch's arguments;
``inplace=True`` updates the input through the front end's in-place rules and returns it.
Output: tensors built from primitives. Where torch shows one grad_fn (``CeluBackward0``,
``HardswishBackward0``...) the activation is a composite whose forward follows torch's CPU
kernel's arithmetic (its constants rounded to the tensor's dtype, its order of operations)
and whose backward rule is torch's formula, picking torch's side at each kink; in place, the
name is torch's in-place node's (``CeluBackward1``: its rule reads the result). softsign and
tanhshrink are plain compositions, as torch's are. Integer inputs raise torch's
NotImplementedError naming the kernel. It must not read or write tensors' arrays.
"""

from __future__ import annotations

import numpy as np

from ...frontend.core.apply import as_tensor
from ...frontend.core.arguments import receiver
from ...frontend.core.conversions import check_fits
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import (abs, composite, exp, ge, gt, isinf, le, log1p,
                                         logical_and, logical_or, lt, minimum, tanh, where)
from ...frontend.functions.inplace import update
from ...frontend.functions.lanes import by_lanes
from .activation import elu, elu_kernel, hardtanh, in_dtype, leaky_relu, relu

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def floating(input, kernel: str) -> Tensor:  # noqa: A002
    """``input`` as a tensor, which must be floating: torch's CPU kernels of these activations
    have no integer version (NotImplementedError naming the kernel)."""
    x = as_tensor(input)
    if not x.dtype.is_floating:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype.scalar_type}\'')
    return x


def _maybe_inplace(fn, input, inplace: bool, name: str, kernel: str) -> Tensor:  # noqa: A002
    x = floating(input, kernel)
    return update(x, fn, name) if inplace else fn(x)


# ---------------------------------------------------------------- the ELU family

def selu(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """scale * (x where x > 0, else alpha * (exp(x) - 1)): torch's ELU kernel with SELU's
    constants (grad_fn ``EluBackward0``, or ``EluBackward1`` in place)."""
    return _maybe_inplace(
        lambda x: elu_kernel(x, SELU_ALPHA, SELU_SCALE, 1.0, ("EluBackward0", "EluBackward1"),
                             inplace), input, inplace, "selu_", "elu_cpu")


def celu(input, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """x where x > 0, else alpha * (exp(x / alpha) - 1), as torch's ELU kernel with input
    scale 1 / alpha; the backward's scale is ``1.0 / float(alpha)`` (alpha rounded to float32
    first, as torch's derivative formula does)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    grad_scale = 1.0 / float(np.float32(alpha))
    return _maybe_inplace(
        lambda x: elu_kernel(x, alpha, 1.0, 1.0 / alpha, ("CeluBackward0", "CeluBackward1"),
                             inplace, grad_scale), input, inplace, "celu_", "elu_cpu")


# ---------------------------------------------------------------- thresholds and shrinkage

def _threshold_scalar(value: float, dtype):
    """A threshold kernel's scalar in the tensor's dtype (an integer tensor truncates it,
    refusing what does not fit, as torch's checked conversion)."""
    if dtype.is_integer:
        check_fits(value, dtype)
    return int(value) if not dtype.is_floating else in_dtype(value, dtype)


def _threshold(input, threshold: float, value: float, inplace: bool = False) -> Tensor:  # noqa: A002
    """``value`` where x <= threshold, else x (any dtype, as torch's kernel); the gradient is
    0 where x <= threshold. In place, torch's ``ThresholdBackward1`` (from the input too)."""
    x = as_tensor(input)
    limit, fill = _threshold_scalar(threshold, x.dtype), _threshold_scalar(value, x.dtype)
    name = "ThresholdBackward1" if inplace else "ThresholdBackward0"

    def fn(a):
        return composite(name, lambda t: where(le(t, limit), fill, t), [a],
                         lambda g, out, ins: (where(le(ins[0], limit), 0.0, g),), uses_out=False)
    return update(x, fn, "threshold_") if inplace else fn(x)


threshold = _threshold      # (the function's own argument is called threshold, as torch's)


def hardshrink(input, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """0 where -lambd <= x <= lambd, else x; the gradient is 0 there too."""
    x = floating(input, "hardshrink_cpu")
    lam = in_dtype(lambd, x.dtype)

    def inside(a):
        return logical_and(ge(a, -lam), le(a, lam))
    return composite("HardshrinkBackward0", lambda a: where(inside(a), 0.0, a), [x],
                     lambda g, out, ins: (shrink_grad(g, ins[0], lam),), uses_out=False)


def shrink_grad(g: Tensor, a: Tensor, lam: float) -> Tensor:
    """The shrinks' backward: 0 where -lam <= a <= lam, else g; at NaN torch's scalar loop
    gives g, its vector loop 0."""
    return by_lanes(a, 1, where(logical_or(lt(a, -lam), gt(a, lam)), g, 0.0),
                    where(logical_and(ge(a, -lam), le(a, lam)), 0.0, g))


def softshrink(input, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """x - lambd above lambd, x + lambd below -lambd, x * 0 between (a zero of x's sign, NaN
    kept, as torch's kernel); lambd >= 0 (torch's check)."""
    x = floating(input, "softshrink_check")
    top = np.finfo(x.dtype.np).max
    if not 0 <= lambd <= top:
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype "
                           f"{x.dtype.scalar_type}, but found {lambd:g}")
    lam = in_dtype(lambd, x.dtype)

    def body(a):
        signed_zero = where(isinf(a), 0.0, a) * 0.0        # (inf * 0 would warn; unused)
        return where(gt(a, lam), a - lam, where(lt(a, -lam), a + lam, signed_zero))

    def rule(g, out, ins):
        return (shrink_grad(g, ins[0], lam),)
    return composite("SoftshrinkBackward0", body, [x], rule, uses_out=False)


# ---------------------------------------------------------------- hard sigmoid and swish

def _relu6_plus3(a: Tensor) -> Tensor:
    """min(max(x + 3, 0), 6), NaN kept (torch's kernels' clamp)."""
    t = a + 3.0
    return where(gt(t, 6.0), 6.0, where(lt(t, 0.0), 0.0, t))


def hardsigmoid(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """min(max(x + 3, 0), 6) / 6; the gradient is g / 6 strictly inside (-3, 3), where torch's
    kernel multiplies by 1/6 rounded to float32 (in float64 too)."""
    def fn(x):
        sixth = in_dtype(float(np.float32(1.0) / np.float32(6.0)), x.dtype)

        def rule(g, out, ins):
            a = ins[0]
            return (where(logical_and(gt(a, -3.0), lt(a, 3.0)), g * sixth, 0.0),)
        return composite("HardsigmoidBackward0", lambda a: _relu6_plus3(a) / 6.0, [x], rule,
                         uses_out=False)
    return _maybe_inplace(fn, input, inplace, "hardsigmoid_", "hardsigmoid_cpu")


def hardswish(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * min(max(x + 3, 0), 6) / 6; gradient 0 up to -3, g * (x / 3 + 1/2) strictly between,
    g from 3 on (torch's sides at -3 and 3)."""
    def fn(x):
        def rule(g, out, ins):   # at NaN: torch's scalar loop gives g, its vector loop NaN
            a = ins[0]
            inner = g * (a / 3.0 + 0.5)
            return (by_lanes(a, 2, where(le(a, -3.0), 0.0, where(ge(a, 3.0), g, inner)),
                             where(le(a, -3.0), 0.0, where(lt(a, 3.0), inner, g))),)
        return composite("HardswishBackward0", lambda a: a * _relu6_plus3(a) / 6.0, [x], rule,
                         uses_out=False)
    return _maybe_inplace(fn, input, inplace, "hardswish_", "hardswish_cpu")


# ---------------------------------------------------------------- smooth ones

def _sigmoid(a: Tensor) -> Tensor:
    return 1.0 / (1.0 + exp(-a))


def mish(input, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * tanh(softplus(x)), softplus as log1p(exp(x)) (no threshold, as torch's kernel)."""
    def fn(x):
        def rule(g, out, ins):
            a = ins[0]
            t = tanh(log1p(exp(a)))
            return (g * (t + a * _sigmoid(a) * (1.0 - t * t)),)
        return composite("MishBackward0", lambda a: a * tanh(log1p(exp(a))), [x], rule,
                         uses_out=False)
    return _maybe_inplace(fn, input, inplace, "mish_", "mish_cpu")


def logsigmoid(input) -> Tensor:  # noqa: A002
    """log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)): finite at +-1000."""
    x = floating(input, "log_sigmoid_cpu")

    def rule(g, out, ins):
        a = ins[0]
        b = exp(-abs(a))
        q = b / (1.0 + b)
        return (where(lt(a, 0.0), 1.0 - q, q) * g,)
    return composite("LogSigmoidBackward0", lambda a: minimum(a, 0.0) - log1p(exp(-abs(a))),
                     [x], rule, uses_out=False, pure=True)


def softsign(input) -> Tensor:  # noqa: A002
    """x / (|x| + 1), as torch composes it (grad_fn ``DivBackward0``)."""
    x = receiver(input, "abs")
    return x / (abs(x) + 1)


def tanhshrink(input) -> Tensor:  # noqa: A002
    """x - tanh(x), as torch composes it (grad_fn ``SubBackward0``)."""
    x = receiver(input, "tanh")
    return x - tanh(x)


# ---------------------------------------------------------------- in-place forms

def relu_(input) -> Tensor:  # noqa: A002
    """relu in place."""
    return relu(input, inplace=True)


def elu_(input, alpha: float = 1.0) -> Tensor:  # noqa: A002
    """elu in place (``EluBackward1``)."""
    return elu(input, alpha, inplace=True)


def leaky_relu_(input, negative_slope: float = 0.01) -> Tensor:  # noqa: A002
    """leaky_relu in place (``LeakyReluBackward1``)."""
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    """hardtanh in place."""
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input, threshold: float, value: float) -> Tensor:  # noqa: A002
    """threshold in place (``ThresholdBackward1``)."""
    return _threshold(input, threshold, value, inplace=True)


def celu_(input, alpha: float = 1.0) -> Tensor:  # noqa: A002
    """celu in place (``CeluBackward1``)."""
    return celu(input, alpha, inplace=True)


def selu_(input) -> Tensor:  # noqa: A002
    """selu in place (``EluBackward1``)."""
    return selu(input, inplace=True)

