"""``Adadelta``: steps scaled by the ratio of running root mean squares of updates and
gradients.

Layer: front end (torch.optim mirror). Input: parameters and torch's options. Output: the
optimizer; ``step()`` follows torch's single-tensor implementation operation by operation:
``square_avg = rho * square_avg + (1 - rho) * grad * grad`` (fused), ``std = sqrt(square_avg +
eps)``, ``delta = sqrt(acc_delta + eps) / std * grad``, ``acc_delta = rho * acc_delta + (1 -
rho) * delta * delta`` (fused), ``param -= lr * delta`` (fused). State per parameter: ``step``
(a 0-d float tensor), ``square_avg``, ``acc_delta``. It must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from ..frontend.core.tensor import Tensor
from . import kernels as K
from . import options as O
from .optimizer import Optimizer


class Adadelta(Optimizer):
    """Adadelta (``torch.optim.Adadelta``)."""

    def __init__(self, params: Iterable[Any], lr: float = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        O.nonnegative(("learning rate", lr))
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        O.nonnegative(("epsilon value", eps), ("weight_decay value", weight_decay))
        O.not_differentiable("Adadelta", differentiable)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _state(self, p: Tensor) -> dict:
        """The parameter's state, created at its first step as torch creates it."""
        return K.first_state(self.state[p], p, ("square_avg", "acc_delta"))

    def _update_group(self, group: dict) -> None:
        rho = group["rho"]
        for p, param, grad in K.stepped(group):
            state = self._state(p)
            K.bump(state["step"])
            if group["weight_decay"] != 0:
                grad = K.add_scaled(grad, param, group["weight_decay"])
            state = K.real_state(state, param)      # complex: real pairs, but for param
            grad = K.real(grad)
            square_avg, acc_delta = state["square_avg"], state["acc_delta"]
            K.write(square_avg, K.addcmul(square_avg._value * K.scalar(rho, grad), grad, grad,
                                          1 - rho))
            eps = K.scalar(group["eps"], grad)
            std = K.sqrt(square_avg._value + eps)
            delta = K.sqrt(acc_delta._value + eps) / std * grad
            K.write(acc_delta, K.addcmul(acc_delta._value * K.scalar(rho, grad), delta, delta,
                                         1 - rho))
            if param.dtype.kind == "c":
                delta = K.as_complex(delta, param.dtype)
            K.write(p, K.add_scaled(param, delta, -group["lr"]))
