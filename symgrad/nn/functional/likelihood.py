"""Negative log-likelihood losses of ``torch.nn.functional`` for a Poisson and a Gaussian
target: ``poisson_nll_loss`` and ``gaussian_nll_loss``.

Layer: front end (torch.nn mirror). Input: tensors (eager or traced) and torch's keyword
arguments. Output: the loss tensor, composed of primitives as torch composes it (so its
grad_fns are torch's: ``SubBackward0``, ``AddBackward0``, ``MulBackward0``, then the
reduction's), operands promoting as torch's do. gaussian_nll_loss checks that the variance
is not negative by reading it eagerly (a traced variance is not checked: its values are known
only when the compiled code runs); like torch, it floors the variance at ``eps`` without
letting the floor change the gradient.
"""

from __future__ import annotations

from ... import dtypes

import math

from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import clamp, composite, exp, le, log, where
from ...frontend.functions.creation import ones_like
from ...frontend.functions.shapes import unsqueeze
from .loss import check_reduction, legacy_reduction, reduce_loss

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def poisson_nll_loss(input, target, log_input: bool = True, full: bool = False,  # noqa: A002
                     size_average=None, eps: float = 1e-8, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """exp(x) - y x (``log_input``), or x - y log(x + eps); with ``full``, plus Stirling's
    term y log y - y + log(2 pi y) / 2 where y > 1."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    x, y = as_tensor(input), as_tensor(target)
    loss = exp(x) - y * x if log_input else x - y * log(x + eps)
    if full:
        stirling = y * log(y) - y + 0.5 * log((2 * math.pi) * y)
        loss = loss + where(le(y, 1), 0.0, stirling)
    return reduce_loss(loss, reduction)


def _variance(var, x: Tensor) -> Tensor:
    """``var`` as a tensor shaped to broadcast against ``x`` (torch's checks and messages:
    one fewer trailing dim, or one mismatched dim of size 1, is a shared variance)."""
    if isinstance(var, (int, float)) and not isinstance(var, bool):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        return var * ones_like(x)
    v = as_tensor(var)
    if not v.is_traced and v.numel() and bool((v.concrete < 0).any()):
        raise ValueError("var has negative entry/entries")
    if tuple(v.shape) == tuple(x.shape):
        return v
    if tuple(x.shape[:-1]) == tuple(v.shape):
        return unsqueeze(v, -1)
    if x.ndim == v.ndim and sum(b for a, b in zip(x.shape, v.shape) if a != b) == 1:
        return v
    raise ValueError("var is of incorrect size")


def gaussian_nll_loss(input, target, var, full: bool = False, eps: float = 1e-6,  # noqa: A002
                      reduction: str = "mean") -> Tensor:
    """(log(max(var, eps)) + (x - y)^2 / max(var, eps)) / 2, plus log(2 pi) / 2 with
    ``full``; the gradient to ``var`` passes the floor as torch's (it clamps under no_grad)."""
    x, y = as_tensor(input), as_tensor(target)
    v = _variance(var, x)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not valid")
    if not v.dtype.is_differentiable:   # torch clamps var in place: no float into integers
        raise dtypes.cast_error(dtypes.float32, v.dtype)
    v = composite("CloneBackward0", lambda a: clamp(a, min=eps), [v],
                  lambda g, out, ins: (g,), saves=False, uses_out=False)
    loss = 0.5 * (log(v) + (x - y) ** 2 / v)
    if full:
        loss = loss + _HALF_LOG_2PI
    return reduce_loss(loss, reduction)
