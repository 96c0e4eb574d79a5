"""``NAdam``: Adam with Nesterov momentum (Dozat's momentum schedule).

Layer: front end (torch.optim mirror). Input: parameters and torch's options. Output: the
optimizer; ``step()`` follows torch's single-tensor implementation operation by operation:
``mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))`` in Python floats, ``mu_product *=
mu_t`` in the state's float32 (a 0-d tensor, as torch keeps it), Adam's moments
(``lerp_``, fused ``addcmul_``), ``denom = sqrt(exp_avg_sq / bias_correction2) + eps``, then two
``addcdiv_`` steps: the gradient's, ``-lr (1 - mu_t) / (1 - mu_product)``, and the moment's,
``-lr mu_{t+1} / (1 - mu_product mu_{t+1})``. Weight decay is L2 or, with
``decoupled_weight_decay``, ``param *= 1 - lr * wd``. State per parameter: ``step``,
``mu_product``, ``exp_avg``, ``exp_avg_sq``. It must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from ..frontend.core.tensor import Tensor
from . import kernels as K
from . import options as O
from .optimizer import Optimizer


class NAdam(Optimizer):
    """NAdam (``torch.optim.NAdam``)."""

    def __init__(self, params: Iterable[Any], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        O.nonnegative(("learning rate", lr), ("epsilon value", eps))
        O.betas(betas)
        O.nonnegative(("weight_decay value", weight_decay),
                      ("momentum_decay value", momentum_decay))
        O.not_differentiable("NAdam", differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _state(self, p: Tensor) -> dict:
        """The parameter's state, created at its first step as torch creates it."""
        return K.first_state(self.state[p], p, ("exp_avg", "exp_avg_sq"), mu_product=1.0)

    def _update_group(self, group: dict) -> None:
        for p, param, grad in K.stepped(group):
            state = K.real_state(self._state(p), param)     # complex: real pairs
            self._update(p, K.real(param), K.real(grad), state, group)

    @staticmethod
    def _update(p: Tensor, param: Any, grad: Any, state: dict, group: dict) -> None:
        """One step of one parameter."""
        beta1, beta2 = group["betas"]
        lr, decay = group["lr"], group["momentum_decay"]
        step = K.bump(state["step"])
        bias_correction2 = 1 - beta2 ** step
        if group["weight_decay"] != 0:
            if group["decoupled_weight_decay"]:
                param = param * K.scalar(1 - lr * group["weight_decay"], param)
            else:
                grad = K.add_scaled(grad, param, group["weight_decay"])
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
        mu_product = state["mu_product"]
        K.write(mu_product, mu_product._value * K.scalar(mu, mu_product._value))
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        K.write(exp_avg, K.lerp(exp_avg._value, grad, 1 - beta1))
        K.write(exp_avg_sq, K.addcmul(exp_avg_sq._value * K.scalar(beta2, grad), grad, grad,
                                      1 - beta2))
        denom = K.sqrt(exp_avg_sq._value / K.scalar(bias_correction2, grad))
        denom = denom + K.scalar(group["eps"], denom)
        product = float(mu_product._value)
        param = K.addcdiv(param, grad, denom, -lr * (1.0 - mu) / (1.0 - product))
        param = K.addcdiv(param, exp_avg._value, denom,
                          (-lr * mu_next) / (1.0 - product * mu_next))
        K.write(p, param)
