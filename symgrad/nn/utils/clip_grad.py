"""Gradient clipping: ``clip_grad_norm_`` and ``clip_grad_value_`` (torch.nn.utils).

Layer: front end (torch.nn mirror). Input: parameters (a tensor or an iterable) whose ``.grad``
is set. Output: the gradients scaled or clamped in place, unrecorded; clip_grad_norm_ returns
the total norm as torch does (the norm of the per-gradient norms). It must not touch the
parameters themselves.
"""

from __future__ import annotations

import math
from typing import Any
from collections.abc import Iterable

from ...frontend.functions.basic import clamp, isfinite, norm
from ...frontend.core.grad_mode import no_grad
from ...frontend.functions.shapes import stack
from ...frontend.core.tensor import Tensor, tensor


def _grads(parameters: Any) -> list:
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    return [p._grad for p in params if p._grad is not None]


def clip_grad_norm_(parameters: Iterable[Tensor] | Tensor, max_norm: float,
                    norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: Any = None) -> Tensor:
    """Scale the gradients so that their joint ``norm_type``-norm is at most ``max_norm``;
    return that norm before clipping."""
    grads = _grads(parameters)
    if not grads:
        return tensor(0.0)
    p = math.inf if norm_type in ("inf", math.inf) else float(norm_type)
    with no_grad():
        total = norm(stack([norm(g, p) for g in grads]), p)
        if error_if_nonfinite and not bool(isfinite(total)):
            raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                               f"`parameters` is non-finite, so it cannot be clipped. To "
                               f"disable this error and scale the gradients by the non-finite "
                               f"norm anyway, set `error_if_nonfinite=False`")
        coef = clamp(max_norm / (total + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype))
    return total


def clip_grad_value_(parameters: Iterable[Tensor] | Tensor, clip_value: float,
                     foreach: Any = None) -> None:
    """Clamp every gradient element to [-clip_value, clip_value], in place."""
    with no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)
