"""Linear layers: ``Identity``, ``Linear``, ``Bilinear``.

Layer: front end (torch.nn mirror). Input: sizes (and ``device``/``dtype``). Output: modules
whose parameters are initialized as torch's ``reset_parameters`` does, by ``symgrad.nn.init``
(so that after ``manual_seed`` they hold torch's values), and whose forward is
``nn.functional``'s. It must not compute outside forward and initialization.
"""

from __future__ import annotations

import math
from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ._common import kaiming_reset, new_empty
from .module import Module


class Identity(Module):
    """Returns its input (any constructor arguments are ignored, as in torch)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return input


class Linear(Module):
    """y = x @ weight.T + bias; weight (out_features, in_features)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(new_empty((out_features, in_features), device, dtype))
        if bias:
            self.bias = Parameter(new_empty((out_features,), device, dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Kaiming-uniform weight (a = sqrt(5)), bias uniform in +-1/sqrt(fan_in): torch's."""
        kaiming_reset(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """y[k] = x1 @ weight[k] @ x2 + bias[k]; weight (out, in1, in2)."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(new_empty((out_features, in1_features, in2_features), device,
                                          dtype))
        if bias:
            self.bias = Parameter(new_empty((out_features,), device, dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Everything uniform in +-1/sqrt(in1_features): torch's."""
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
