"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv3d``, and their shared base ``ConvNd`` (the
transposed convolutions of ``conv_transpose`` build on it too).

Layer: front end (torch.nn mirror). Input: channel counts, kernel size and torch's options
(stride, padding as ints, tuples or 'valid'/'same', dilation, groups, bias, padding_mode,
device, dtype). Output: modules with torch's attributes, parameter shapes, repr and
initialization (kaiming-uniform weight, uniform bias, drawn by ``symgrad.nn.init`` in torch's
order, so that after ``manual_seed`` they hold torch's values), whose forward is
``nn.functional``'s conv (after ``F.pad`` for a non-zeros ``padding_mode``). It must not
compute outside forward and initialization.
"""

from __future__ import annotations

from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from ..parameter import Parameter
from ._common import kaiming_reset, new_empty
from .module import Module

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ntuple(value: Any, n: int) -> tuple:
    """torch's ``_single``/``_pair``: an int repeated, a sequence as a tuple."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _check_options(in_channels: int, out_channels: int, groups: int, padding: Any,
                   stride: tuple, padding_mode: str) -> None:
    if groups <= 0:
        raise ValueError("groups must be a positive integer")
    if in_channels % groups != 0:
        raise ValueError("in_channels must be divisible by groups")
    if out_channels % groups != 0:
        raise ValueError("out_channels must be divisible by groups")
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                             f"{{'same', 'valid'}}")
        if padding == "same" and any(s != 1 for s in stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
    if padding_mode not in _PADDING_MODES:
        raise ValueError(f"padding_mode must be one of {set(_PADDING_MODES)}, but got "
                         f"padding_mode='{padding_mode}'")


class _ConvNd(Module):
    """What the convolutions share: options, parameters, initialization, repr (a transposed
    one's weight is (in, out / groups, *kernel))."""

    _dims = 0
    _transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        n = self._dims
        stride = _ntuple(stride, n)
        _check_options(in_channels, out_channels, groups, padding, stride, padding_mode)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = stride
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.transposed = self._transposed
        self.output_padding = (0,) * n
        self.groups = groups
        self.padding_mode = padding_mode
        channels = (in_channels, out_channels // groups) if self._transposed else \
            (out_channels, in_channels // groups)
        self.weight = Parameter(new_empty(channels + self.kernel_size, device, dtype))
        if bias:
            self.bias = Parameter(new_empty((out_channels,), device, dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Kaiming-uniform weight (a = sqrt(5)), bias uniform in +-1/sqrt(fan_in): torch's."""
        kaiming_reset(self.weight, self.bias)

    def _mode_padding(self) -> list:
        """F.pad's list for a non-zeros padding_mode (last dim first; 'same': odd one after)."""
        if self.padding == "valid":
            return [0, 0] * self._dims
        if self.padding == "same":
            totals = [d * (k - 1) for k, d in zip(self.kernel_size, self.dilation)]
            return [p for t in reversed(totals) for p in (t // 2, t - t // 2)]
        return [p for p in reversed(self.padding) for _ in range(2)]

    def _conv_forward(self, input: Tensor, weight: Tensor,  # noqa: A002
                      bias: Tensor | None) -> Tensor:
        conv = (F.conv1d, F.conv2d, F.conv3d)[self._dims - 1]
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._mode_padding(), mode=self.padding_mode)
            return conv(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return self._conv_forward(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        n = self._dims
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,) * n:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """1-D convolution over (N, C_in, L) or (C_in, L); weight (C_out, C_in/groups, k)."""

    _dims = 1


class Conv2d(_ConvNd):
    """2-D convolution over (N, C_in, H, W) or (C_in, H, W); weight (C_out, C_in/groups, kH,
    kW)."""

    _dims = 2


class Conv3d(_ConvNd):
    """3-D convolution over (N, C_in, D, H, W) or (C_in, D, H, W); weight (C_out,
    C_in/groups, kD, kH, kW)."""

    _dims = 3


ConvNd = _ConvNd    # the public name of the base (torch's _ConvNd) for the modules that extend it
