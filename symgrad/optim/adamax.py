"""``Adamax``: Adam with the infinity norm in place of the second moment.

Layer: front end (torch.optim mirror). Input: parameters and torch's options. Output: the
optimizer; ``step()`` follows torch's single-tensor implementation operation by operation:
``exp_avg.lerp_(grad, 1 - beta1)``, ``exp_inf = maximum(beta2 * exp_inf, |grad| + eps)``,
``clr = lr / (1 - beta1 ** step)`` in Python floats, ``param += (-clr * exp_avg) / exp_inf``.
State per parameter: ``step`` (a 0-d float tensor), ``exp_avg``, ``exp_inf``. No square root:
float32 and float64 results equal torch's bit for bit. It must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

import numpy as np

from ..frontend.core.tensor import Tensor
from . import kernels as K
from . import options as O
from .optimizer import Optimizer


class Adamax(Optimizer):
    """Adamax (``torch.optim.Adamax``)."""

    def __init__(self, params: Iterable[Any], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        O.nonnegative(("learning rate", lr), ("epsilon value", eps))
        O.betas(betas)
        O.nonnegative(("weight_decay value", weight_decay))
        O.not_differentiable("Adamax", differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _state(self, p: Tensor) -> dict:
        """The parameter's state, created at its first step as torch creates it."""
        return K.first_state(self.state[p], p, ("exp_avg", "exp_inf"))

    def _update_group(self, group: dict) -> None:
        beta1, beta2 = group["betas"]
        for p, param, grad in K.stepped(group):
            state = self._state(p)
            step = K.bump(state["step"])
            if group["weight_decay"] != 0:
                grad = K.add_scaled(grad, param, group["weight_decay"])
            state = K.real_state(state, param)      # complex: real pairs from here on
            param, grad = K.real(param), K.real(grad)
            exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
            K.write(exp_avg, K.lerp(exp_avg._value, grad, 1 - beta1))
            bound = np.abs(grad) + K.scalar(group["eps"], grad)
            K.write(exp_inf, np.maximum(exp_inf._value * K.scalar(beta2, grad), bound))
            clr = group["lr"] / (1 - beta1 ** step)
            K.write(p, K.addcdiv(param, exp_avg._value, exp_inf._value, -clr))
