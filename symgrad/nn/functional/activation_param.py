"""Activations of ``torch.nn.functional`` with a weight, random slopes or a split: prelu,
rrelu (and rrelu_), glu, softmin and gumbel_softmax.

Layer: front end (torch.nn mirror). Input: tensors and torch's arguments. Output: tensors built
from primitives, each showing torch's grad_fn (``PreluKernelBackward0``,
``RreluWithNoiseBackward0``, ``GluBackward0``, ``SoftmaxBackward0``) with torch's backward
formula. rrelu in training draws one slope per element <= 0 from symgrad's generator exactly
as torch's CPU kernel draws them (a float64 uniform in [lower, upper) per such element, in
row-major order), so after ``manual_seed`` it gives torch's numbers; it reads the input's
values to know which elements draw, so it runs eagerly only (inside ``@symgrad.compile`` it
is an error, as training-mode dropout is: the slopes would be drawn once, at trace time).
gumbel_softmax draws its noise with ``Tensor.exponential_`` (torch's stream too).
"""

from __future__ import annotations

import warnings

import numpy as np

from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import argmax, composite, eq, exp, gt, sum, where
from ...frontend.functions.basic import softmax as _softmax
from ...frontend.functions.creation import arange, empty_like
from ...frontend.functions.inplace import update
from ...frontend.functions.manipulation import narrow
from ...frontend.functions.shapes import cat
from ...frontend.random.generator import generator_or_default
from ...ops.registry import normalize_axes
from .activation import in_dtype, softmax_dim
from .activation_more import floating


# ---------------------------------------------------------------- prelu

def _check_prelu(x: Tensor, w: Tensor) -> None:
    """torch's checks, in its order: same dtype, one weight per channel (dim 1, or 1 channel
    for a 1-d input) unless a single weight, a weight of at most one dim, a floating dtype."""
    if x.dtype is not w.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {x.dtype.scalar_type} and "
                           f"{w.dtype.scalar_type}")
    if w.numel() != 1:
        if x.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = x.shape[1] if x.ndim > 1 else 1
        if channels != w.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {w.numel()} and channel size = {channels}.")
    if w.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {w.ndim}")
    floating(x, "prelu_cpu")


def prelu(input, weight) -> Tensor:  # noqa: A002
    """x where x > 0, else weight * x, one weight per channel (dim 1) or one for all."""
    x, w = as_tensor(input), as_tensor(weight)
    _check_prelu(x, w)
    shape = tuple(w.numel() if (d == 1 and x.ndim > 1) else 1 for d in range(x.ndim))
    sum_axes = tuple(d for d, n in enumerate(shape) if n == 1 and x.shape[d] != 1) \
        if x.ndim != w.ndim else tuple(d for d in range(x.ndim) if w.shape[d] != x.shape[d])

    def spread(b: Tensor) -> Tensor:
        return b.reshape(shape) if x.ndim != w.ndim else b

    def rule(g, out, ins):
        a, b = ins
        wb = spread(b)
        positive = gt(a, 0.0)
        gw = where(positive, 0.0, a * g)
        gw = sum(gw, sum_axes, keepdim=True) if sum_axes else gw
        return where(positive, g, wb * g), gw.reshape(b.shape)
    return composite("PreluKernelBackward0",
                     lambda a, b: where(gt(a, 0.0), a, spread(b) * a), [x, w], rule,
                     uses_out=False)


# ---------------------------------------------------------------- rrelu

def _refuse_traced_rrelu(x: Tensor) -> None:
    if x.is_traced:
        raise RuntimeError(
            "rrelu in training mode inside @symgrad.compile: its random slopes would be drawn "
            "once, when the function is traced, and every call would reuse them (and which "
            "elements draw one depends on values known only when the compiled code runs). "
            "Trace it in eval mode (training=False / model.eval(): the mean slope), or draw "
            "the slopes outside and pass them as an argument (x * where(x <= 0, slopes, 1)).")


def _slopes(x: Tensor, lower: float, upper: float) -> Tensor:
    """torch's noise: for each element <= 0, in row-major order, a float64 uniform
    ``u * (upper - lower) + lower`` (the bounds first rounded to the dtype's compute type)
    rounded to the dtype; 1 elsewhere."""
    values = np.asarray(x.concrete).ravel()
    draws = values <= 0
    gen = generator_or_default(None)
    with gen.lock:
        u = gen.uniform(int(draws.sum()), True)
    noise = np.ones(values.shape, x.dtype.np)
    lo, hi = in_dtype(lower, x.dtype), in_dtype(upper, x.dtype)
    noise[draws] = (u * (hi - lo) + lo).astype(x.dtype.computes_in.np)
    return as_tensor(noise.reshape(x.shape))


def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
          training: bool = False, inplace: bool = False) -> Tensor:
    """x where x > 0, else x times a slope: drawn uniformly from [lower, upper) per element
    in training, the mean (lower + upper) / 2 in eval."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    x = floating(input, "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu")
    name = "RreluWithNoiseBackward1" if inplace else "RreluWithNoiseBackward0"
    if training:
        _refuse_traced_rrelu(x)
        noise = _slopes(x, lower, upper)
        random = upper - lower > 1e-6

        def train(a):
            slope = (lower + upper) / 2

            def rule(g, out, ins):
                return (g * noise if random else where(gt(ins[0], 0.0), g, g * slope),)
            return composite(name, lambda t: t * noise, [a], rule, uses_out=False)
        return update(x, train, "rrelu_") if inplace else train(x)
    slope = (lower + upper) / 2

    def evaluate(a):
        def rule(g, out, ins):
            return (where(gt(out if inplace else ins[0], 0.0), g, g * slope),)
        return composite(name, lambda t: where(gt(t, 0.0), t, t * slope), [a], rule)
    return update(x, evaluate, "rrelu_") if inplace else evaluate(x)


def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
           training: bool = False) -> Tensor:
    """rrelu in place (``RreluWithNoiseBackward1``)."""
    return rrelu(input, lower, upper, training, inplace=True)


# ---------------------------------------------------------------- glu

def glu(input, dim: int = -1) -> Tensor:  # noqa: A002
    """a * sigmoid(b), a and b the halves of ``input`` along ``dim``."""
    x = as_tensor(input)
    if x.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    (axis,) = normalize_axes(dim, x.ndim)
    if x.shape[axis] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {axis} is size "
                           f"{x.shape[axis]}")
    floating(x, "glu_cpu")
    half = x.shape[axis] // 2

    def halves(a):
        return narrow(a, axis, 0, half), narrow(a, axis, half, half)

    def body(a):
        first, second = halves(a)
        return first * (1.0 / (1.0 + exp(-second)))

    def rule(g, out, ins):
        first, second = halves(ins[0])
        sig = 1.0 / (1.0 + exp(-second))
        return (cat([sig * g, (1.0 - sig) * sig * first * g], axis),)
    return composite("GluBackward0", body, [x], rule, uses_out=False)


# ---------------------------------------------------------------- softmin, gumbel_softmax

def softmin(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:  # noqa: A002
    """softmax(-x) along ``dim`` (computed in ``dtype`` if given)."""
    x = as_tensor(input)
    if dim is None:
        dim = softmax_dim("softmin", x.ndim, _stacklevel)
    negated = -x
    return _softmax(negated if dtype is None else negated.to(dtype), dim)


def gumbel_softmax(logits, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """softmax((logits + g) / tau) with g = -log(Exponential(1)) noise (Gumbel(0, 1)); with
    ``hard``, the one-hot of its argmax, differentiated as the soft sample
    (``y_hard - y_soft.detach() + y_soft``)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    x = as_tensor(logits)
    gumbels = -(empty_like(x).exponential_().log())
    y_soft = _softmax((x + gumbels) / tau, dim)
    if not hard:
        return y_soft
    (axis,) = normalize_axes(dim, x.ndim)
    index = argmax(y_soft, axis, keepdim=True)
    positions = arange(x.shape[axis]).reshape([-1] + [1] * (x.ndim - axis - 1))
    y_hard = where(eq(positions, index), 1.0, 0.0).to(x.dtype)
    return y_hard - y_soft.detach() + y_soft
