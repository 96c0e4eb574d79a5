"""``Adam`` and ``AdamW``: adaptive moment estimation, with L2 or decoupled weight decay.

Layer: front end (torch.optim mirror). Input: parameters and torch's options. Output: the
optimizers; ``step()`` follows torch's single-tensor implementation operation by operation
(``exp_avg.lerp_(grad, 1 - beta1)``, ``exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2)``,
bias corrections in Python floats, ``param.addcdiv_(exp_avg, denom, -step_size)``, with
torch's fused multiply-adds, ``kernels.py``). State per parameter: ``step`` (a float32 tensor,
as torch keeps it), ``exp_avg``, ``exp_avg_sq`` and, with amsgrad, ``max_exp_avg_sq``. torch
takes square roots with MKL's vector math, within an ulp of NumPy's correctly rounded ones
but not always equal: results agree to a few ulps, not bit for bit (with torch's square
roots substituted, 100 steps agree bit for bit). It must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

import numpy as np

from ..frontend.core.tensor import Tensor
from . import kernels as K
from .optimizer import Optimizer


class Adam(Optimizer):
    """Adam (``torch.optim.Adam``); ``decoupled_weight_decay=True`` is AdamW."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None, decoupled_weight_decay: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if differentiable:
            raise NotImplementedError(f"{type(self).__name__}(differentiable=True) is not "
                                      f"supported")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def _state(self, p: Tensor, amsgrad: bool) -> dict:
        """The parameter's state, created at its first step as torch creates it."""
        buffers = ("exp_avg", "exp_avg_sq") + ("max_exp_avg_sq",) * bool(amsgrad)
        return K.first_state(self.state[p], p, buffers)

    def _update_group(self, group: dict) -> None:
        beta1, beta2 = group["betas"]
        for p, param, grad in K.stepped(group):
            state = self._state(p, group["amsgrad"])
            step_t = state["step"]
            K.write(step_t, step_t._value + step_t._value.dtype.type(1))
            if group["weight_decay"] != 0:
                if group["decoupled_weight_decay"]:
                    param = param * K.scalar(1 - group["lr"] * group["weight_decay"], param)
                else:
                    grad = K.add_scaled(grad, param, group["weight_decay"])
            state = K.real_state(state, param)      # complex: real pairs from here on
            param, grad = K.real(param), K.real(grad)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            K.write(exp_avg, K.lerp(exp_avg._value, grad, 1 - beta1))
            K.write(exp_avg_sq, K.addcmul(exp_avg_sq._value * K.scalar(beta2, grad), grad,
                                          grad, 1 - beta2))
            step = step_t.item()
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            step_size = group["lr"] / bias_correction1
            second = exp_avg_sq._value
            if group["amsgrad"]:
                most = state["max_exp_avg_sq"]
                K.write(most, np.maximum(most._value, second))
                second = most._value
            denom = np.sqrt(second) / K.scalar(bias_correction2 ** 0.5, param)
            denom = denom + K.scalar(group["eps"], param)
            K.write(p, K.addcdiv(param, exp_avg._value, denom, -step_size))


class AdamW(Adam):
    """Adam with decoupled weight decay (``torch.optim.AdamW``): param *= 1 - lr * wd."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None,
                 capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
