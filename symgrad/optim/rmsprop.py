"""``RMSprop``: gradients divided by a running root mean square, with optional momentum,
centering and weight decay.

Layer: front end (torch.optim mirror). Input: parameters and torch's options. Output: the
optimizer; ``step()`` follows torch's single-tensor implementation operation by operation:
``square_avg = alpha * square_avg + (1 - alpha) * grad * grad`` (the last product fused),
centered: ``grad_avg.lerp_(grad, 1 - alpha)`` and ``avg = sqrt(square_avg - grad_avg**2)``,
else ``avg = sqrt(square_avg)``; ``avg += eps``; with momentum ``buf = momentum * buf + grad /
avg`` and ``param -= lr * buf`` (fused), else ``param += (-lr * grad) / avg``. State per
parameter: ``step`` (a 0-d float tensor), ``square_avg``, ``momentum_buffer`` (momentum > 0),
``grad_avg`` (centered). It must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from ..frontend.core.tensor import Tensor
from . import kernels as K
from . import options as O
from .optimizer import Optimizer


class RMSprop(Optimizer):
    """RMSprop (``torch.optim.RMSprop``)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        O.nonnegative(("learning rate", lr), ("epsilon value", eps),
                      ("momentum value", momentum), ("weight_decay value", weight_decay),
                      ("alpha value", alpha))
        O.not_differentiable("RMSprop", differentiable)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _state(self, p: Tensor, group: dict) -> dict:
        """The parameter's state, created at its first step as torch creates it."""
        buffers = ("square_avg",) + ("momentum_buffer",) * (group["momentum"] > 0) \
            + ("grad_avg",) * bool(group["centered"])
        return K.first_state(self.state[p], p, buffers)

    def _update_group(self, group: dict) -> None:
        alpha = group["alpha"]
        for p, param, grad in K.stepped(group):
            state = self._state(p, group)
            K.bump(state["step"])
            if group["weight_decay"] != 0:
                grad = K.add_scaled(grad, param, group["weight_decay"])
            state = K.real_state(state, param)      # complex: real pairs from here on
            param, grad = K.real(param), K.real(grad)
            square_avg = state["square_avg"]
            K.write(square_avg, K.addcmul(square_avg._value * K.scalar(alpha, grad), grad,
                                          grad, 1 - alpha))
            if group["centered"]:
                grad_avg = state["grad_avg"]
                K.write(grad_avg, K.lerp(grad_avg._value, grad, 1 - alpha))
                avg = K.sqrt(K.addcmul(square_avg._value, grad_avg._value, grad_avg._value,
                                       -1))
            else:
                avg = K.sqrt(square_avg._value)
            avg = avg + K.scalar(group["eps"], avg)
            if group["momentum"] > 0:
                buf = state["momentum_buffer"]
                value = buf._value * K.scalar(group["momentum"], grad)
                K.write(buf, K.addcdiv(value, grad, avg, 1))
                K.write(p, K.add_scaled(param, buf._value, -group["lr"]))
            else:
                K.write(p, K.addcdiv(param, grad, avg, -group["lr"]))
