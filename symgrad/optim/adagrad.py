"""``Adagrad``: each coordinate's step divided by the root of its summed squared gradients.

Layer: front end (torch.optim mirror). Input: parameters and torch's options. Output: the
optimizer; ``step()`` follows torch's single-tensor implementation operation by operation:
``clr = lr / (1 + (step - 1) * lr_decay)`` in Python floats, ``sum += grad * grad`` (fused),
``std = sqrt(sum) + eps``, ``param += (-clr * grad) / std``. As in torch, the state (``step``, a
0-d float tensor, and ``sum``, filled with ``initial_accumulator_value``) is created for every
parameter when the optimizer is, not at its first step. It must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from . import kernels as K
from . import options as O
from .optimizer import Optimizer


class Adagrad(Optimizer):
    """Adagrad (``torch.optim.Adagrad``)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        O.nonnegative(("learning rate", lr), ("lr_decay value", lr_decay),
                      ("weight_decay value", weight_decay),
                      ("initial_accumulator_value value", initial_accumulator_value),
                      ("epsilon value", eps))
        O.not_differentiable("Adagrad", differentiable)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = K.new_step()
                value = K.array(p, "parameter")
                fill = initial_accumulator_value
                if value.dtype.kind == "c":
                    fill = complex(fill, fill)      # torch fills both parts
                state["sum"] = K.state_tensor(value, fill)

    def _update_group(self, group: dict) -> None:
        for p, param, grad in K.stepped(group):
            state = self.state[p]
            step = K.bump(state["step"])
            if group["weight_decay"] != 0:
                grad = K.add_scaled(grad, param, group["weight_decay"])
            state = K.real_state(state, param)      # complex: real pairs from here on
            param, grad = K.real(param), K.real(grad)
            clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
            total = state["sum"]
            K.write(total, K.addcmul(total._value, grad, grad, 1))
            std = K.sqrt(total._value)
            std = std + K.scalar(group["eps"], std)
            K.write(p, K.addcdiv(param, grad, std, -clr))
