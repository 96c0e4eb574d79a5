"""``group_norm`` of ``torch.nn.functional``: standardize each group of channels of an
(N, C, *) input over the group's channels and positions, then scale and shift per channel.

Layer: front end (torch.nn mirror). Input: a tensor (eager or traced), the number of groups,
an optional per-channel (C,) weight and bias, eps. Output: a tensor of the input's shape that
shows torch's ``NativeGroupNormBackward0``. The forward is torch's CPU kernel's formula: per
group the mean and rstd = 1 / sqrt(var + eps) (the biased variance), then (x - mean) * rstd
without weight and bias, else per channel x * (rstd * w) + (b - rstd * w * mean). The
backward rule is the standardization's, written with the front end's functions (so it
differentiates again and compiles). It must not read or write tensors' arrays.
"""

from __future__ import annotations

import math

from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import composite, mean, rsqrt, sum

_GROUP_AXIS = (2,)


def _check(x: Tensor, groups: int, params: list) -> None:
    if x.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{x.ndim}")
    channels = x.shape[1]
    if groups == 0:      # torch's Python computes channels // num_groups first
        raise ZeroDivisionError("integer division or modulo by zero")
    if groups < 0 or channels % groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(x.shape)} and "
                           f"num_groups={groups}")
    for name, p in zip(("weight", "bias"), params):
        if p is not None and (p.ndim != 1 or p.shape[0] != channels):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape {list(p.shape)} "
                               f"and input of shape {list(x.shape)}")


def _moments(grouped: Tensor, eps: float) -> tuple[Tensor, Tensor]:
    """Each (N, G, 1) group's mean and 1 / sqrt(biased variance + eps)."""
    mu = mean(grouped, _GROUP_AXIS, keepdim=True)
    centered = grouped - mu
    return mu, rsqrt(mean(centered * centered, _GROUP_AXIS, keepdim=True) + eps)


def group_norm(input, num_groups: int, weight=None, bias=None,  # noqa: A002
               eps: float = 1e-5) -> Tensor:
    """Group normalization over ``num_groups`` groups of dim 1's channels."""
    x = as_tensor(input)
    w, b = (None if p is None else as_tensor(p, x.dtype) for p in (weight, bias))
    _check(x, num_groups, [w, b])
    n, c = x.shape[0], x.shape[1]
    span = math.prod(x.shape[2:])
    grouped_shape = (n, num_groups, (c // num_groups) * span)
    channel_shape = (n, c, span)
    has = [p is not None for p in (w, b)]

    def unpack(ins):
        rest = iter(ins[1:])
        wt = next(rest).reshape(1, c, 1) if has[0] else None
        return ins[0], wt, (next(rest).reshape(1, c, 1) if has[1] else None)

    def per_channel(t):
        """(N, G, 1) group statistics spread to (N, C, 1)."""
        return t.expand(n, num_groups, c // num_groups).reshape(n, c, 1)

    def body(*ins):
        a, wt, bs = unpack(ins)
        grouped = a.reshape(grouped_shape)
        if wt is None and bs is None:
            mu, rstd = _moments(grouped, eps)
            return ((grouped - mu) * rstd).reshape(x.shape)
        mu, rstd = (per_channel(t) for t in _moments(grouped, eps))
        scale = rstd if wt is None else rstd * wt
        shift = -scale * mu if bs is None else bs - scale * mu
        return (a.reshape(channel_shape) * scale + shift).reshape(x.shape)

    def rule(g, out, ins):
        a, wt, bs = unpack(ins)
        grouped = a.reshape(grouped_shape)
        mu, rstd = _moments(grouped, eps)
        xhat = (grouped - mu) * rstd
        gc = g.reshape(channel_shape)
        gw = (gc if wt is None else gc * wt).reshape(grouped_shape)
        dx = rstd * (gw - mean(gw, _GROUP_AXIS, keepdim=True)
                     - xhat * mean(gw * xhat, _GROUP_AXIS, keepdim=True))
        grads = [dx.reshape(x.shape)]
        if wt is not None:
            grads.append(sum(gc * xhat.reshape(channel_shape), (0, 2)))
        if bs is not None:
            grads.append(sum(gc, (0, 2)))
        return tuple(grads)
    inputs = [x] + [p for p in (w, b) if p is not None]
    return composite("NativeGroupNormBackward0", body, inputs, rule, uses_out=False)
