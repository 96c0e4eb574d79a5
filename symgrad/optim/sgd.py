"""``SGD``: stochastic gradient descent with momentum, dampening, Nesterov, weight decay.

Layer: front end (torch.optim mirror). Input: parameters and torch's options. Output: the
optimizer; ``step()`` follows torch's single-tensor ("for-loop") implementation operation by
operation (``grad + wd * param``, ``buf = momentum * buf + (1 - dampening) * grad``,
``param - lr * grad``, with torch's fused multiply-adds, ``kernels.py``), so float32 results
agree with torch's to the last bit or nearly. The momentum buffer lives in
``state[p]["momentum_buffer"]``. It must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from ..frontend.core.tensor import Tensor
from . import kernels as K
from .optimizer import Optimizer


class SGD(Optimizer):
    """Stochastic gradient descent (``torch.optim.SGD``)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        if differentiable:
            raise NotImplementedError("SGD(differentiable=True) is not supported")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        momentum = group["momentum"]
        for p, param, grad in K.stepped(group):
            if group["weight_decay"] != 0:
                grad = K.add_scaled(grad, param, group["weight_decay"])
            if momentum != 0:
                grad = self._momentum(p, grad, group)
            K.write(p, K.add_scaled(param, grad, -group["lr"]))

    def _momentum(self, p: Tensor, grad: Any, group: dict) -> Any:
        """The momentum buffer updated with ``grad``, or the Nesterov step from it."""
        state = self.state[p]
        buf = state.get("momentum_buffer")
        if buf is None:
            buf = state["momentum_buffer"] = Tensor(grad.copy(), None)
        else:
            value = K.array(buf, "momentum buffer") * K.scalar(group["momentum"], grad)
            K.write(buf, K.add_scaled(value, grad, 1 - group["dampening"]))
        if group["nesterov"]:
            return K.add_scaled(grad, buf._value, group["momentum"])
        return buf._value
