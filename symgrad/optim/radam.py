"""``RAdam``: Adam with the variance of its adaptive learning rate rectified.

Layer: front end (torch.optim mirror). Input: parameters and torch's options. Output: the
optimizer; ``step()`` follows torch's single-tensor implementation operation by operation:
Adam's moments (``lerp_``, fused ``addcmul_``), ``exp_avg / bias_correction1``, the length of
the approximated simple moving average ``rho_t`` in Python floats, and while ``rho_t <= 5``
plain momentum steps ``param -= exp_avg_hat * lr``; after, ``param -= exp_avg_hat * lr *
adaptive * rect`` where ``adaptive = reciprocal(sqrt(exp_avg_sq) + eps) * sqrt(bias_correction2)``
(torch divides a number by a tensor so). Weight decay is L2 or decoupled. State per parameter:
``step``, ``exp_avg``, ``exp_avg_sq``. It must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

import numpy as np

from ..frontend.core.tensor import Tensor
from . import kernels as K
from . import options as O
from .optimizer import Optimizer


class RAdam(Optimizer):
    """RAdam (``torch.optim.RAdam``)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None:
        O.nonnegative(("learning rate", lr), ("epsilon value", eps))
        O.betas(betas)
        O.nonnegative(("weight_decay value", weight_decay))
        O.not_differentiable("RAdam", differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _state(self, p: Tensor) -> dict:
        """The parameter's state, created at its first step as torch creates it."""
        return K.first_state(self.state[p], p, ("exp_avg", "exp_avg_sq"))

    def _update_group(self, group: dict) -> None:
        for p, param, grad in K.stepped(group):
            state = K.real_state(self._state(p), param)     # complex: real pairs
            self._update(p, K.real(param), K.real(grad), state, group)

    @staticmethod
    def _update(p: Tensor, param: Any, grad: Any, state: dict, group: dict) -> None:
        """One step of one parameter."""
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        step = K.bump(state["step"])
        if group["weight_decay"] != 0:
            if group["decoupled_weight_decay"]:
                param = param * K.scalar(1 - lr * group["weight_decay"], param)
            else:
                grad = K.add_scaled(grad, param, group["weight_decay"])
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        K.write(exp_avg, K.lerp(exp_avg._value, grad, 1 - beta1))
        K.write(exp_avg_sq, K.addcmul(exp_avg_sq._value * K.scalar(beta2, grad), grad, grad,
                                      1 - beta2))
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        corrected = exp_avg._value / K.scalar(bias_correction1, grad)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        update = corrected * K.scalar(lr, grad)
        if rho_t > 5.0:
            root = K.sqrt(exp_avg_sq._value)
            root = root + K.scalar(group["eps"], root)
            adaptive = np.reciprocal(root) * K.scalar(bias_correction2 ** 0.5, root)
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            update = update * adaptive * K.scalar(rect, grad)
        K.write(p, K.add_scaled(param, update, -1.0))
