"""Pooling layers: ``MaxPool1d``/``2d``/``3d``, ``AvgPool1d``/``2d``/``3d``,
``AdaptiveAvgPool1d``/``2d``/``3d``.

Layer: front end (torch.nn mirror). Input: torch's pooling options. Output: parameterless
modules storing them as torch does (MaxPool and AvgPool2d/3d as given, AvgPool1d as 1-tuples:
torch's reprs follow), whose forward is ``nn.functional``'s pooling. It must not compute
outside forward.
"""

from __future__ import annotations

from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .module import Module


def _single(value: Any) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class _MaxPoolNd(Module):
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
                f", dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """Max over sliding windows of (N, C, L) or (C, L)."""

    def forward(self, input: Tensor):  # noqa: A002
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """Max over sliding windows of (N, C, H, W) or (C, H, W)."""

    def forward(self, input: Tensor):  # noqa: A002
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(Module):
    """Mean over sliding windows of (N, C, L) or (C, L)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(Module):
    """Mean over sliding windows of (N, C, H, W) or (C, H, W)."""

    _function = staticmethod(F.avg_pool2d)

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return self._function(input, self.kernel_size, self.stride, self.padding,
                              self.ceil_mode, self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Mean over ``output_size`` bins of (N, C, L) or (C, L)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Mean over ``output_size`` (H, W) bins of (N, C, H, W) or (C, H, W)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.adaptive_avg_pool2d(input, self.output_size)


class MaxPool3d(_MaxPoolNd):
    """Max over sliding windows of (N, C, D, H, W) or (C, D, H, W)."""

    def forward(self, input: Tensor):  # noqa: A002
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool3d(AvgPool2d):
    """Mean over sliding windows of (N, C, D, H, W) or (C, D, H, W)."""

    _function = staticmethod(F.avg_pool3d)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Mean over ``output_size`` (D, H, W) bins of (N, C, D, H, W) or (C, D, H, W)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.adaptive_avg_pool3d(input, self.output_size)
