"""``GroupNorm``: group normalization of (N, C, *) inputs (``nn.functional.group_norm``).

Layer: front end (torch.nn mirror). Input: the number of groups and of channels, eps,
``affine``, ``bias``. Output: a module with torch's parameters (weight ones, bias zeros, by
``symgrad.nn.init``), messages and repr. It must not compute outside forward and
initialization.
"""

from __future__ import annotations

from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from ._common import affine_parameters, reset_affine
from .module import Module


class GroupNorm(Module):
    """Standardize each of ``num_groups`` groups of channels, then scale and shift each
    channel."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        affine_parameters(self, (num_channels,), affine, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight ones, bias zeros."""
        reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")
