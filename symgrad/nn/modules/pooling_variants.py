"""Pooling layers beside the basic ones: ``AdaptiveMaxPool1d``/``2d``/``3d``,
``MaxUnpool1d``/``2d``/``3d``, ``LPPool1d``/``2d``/``3d``, ``FractionalMaxPool2d``/``3d``.

Layer: front end (torch.nn mirror). Input: torch's options. Output: parameterless modules
storing them as torch does (MaxUnpool as tuples, the others as given: torch's reprs follow),
whose forward is ``nn.functional``'s (``forward(input, indices, output_size=None)`` for the
unpooling). It must not compute outside forward.
"""

from __future__ import annotations

from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .module import Module


def _ntuple(value: Any, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Maximum over ``output_size`` bins of (N, C, L) or (C, L)."""

    def forward(self, input: Tensor):  # noqa: A002
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Maximum over ``output_size`` (H, W) bins of (N, C, H, W) or (C, H, W)."""

    def forward(self, input: Tensor):  # noqa: A002
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class _MaxUnpoolNd(Module):
    _dims = 1

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self._dims)
        self.stride = _ntuple(stride if stride is not None else kernel_size, self._dims)
        self.padding = _ntuple(padding, self._dims)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """Partial inverse of MaxPool1d: values put back at their indices, zeros elsewhere."""

    def forward(self, input: Tensor, indices: Tensor,  # noqa: A002
                output_size: Any = None) -> Tensor:
        return F.max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)


class MaxUnpool2d(_MaxUnpoolNd):
    """Partial inverse of MaxPool2d: values put back at their indices, zeros elsewhere."""

    _dims = 2

    def forward(self, input: Tensor, indices: Tensor,  # noqa: A002
                output_size: Any = None) -> Tensor:
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)


class _LPPoolNd(Module):
    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """Power-average pooling of (N, C, L) or (C, L): (sum x ** p) ** (1 / p) per window."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """Power-average pooling of (N, C, H, W) or (C, H, W)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Maximum over ``output_size`` (D, H, W) bins of (N, C, D, H, W) or (C, D, H, W)."""

    def forward(self, input: Tensor):  # noqa: A002
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class MaxUnpool3d(_MaxUnpoolNd):
    """Partial inverse of MaxPool3d: values put back at their indices, zeros elsewhere."""

    _dims = 3

    def forward(self, input: Tensor, indices: Tensor,  # noqa: A002
                output_size: Any = None) -> Tensor:
        return F.max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)


class LPPool3d(_LPPoolNd):
    """Power-average pooling of (N, C, D, H, W) or (C, D, H, W)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.lp_pool3d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)


class _FractionalMaxPoolNd(Module):
    _dims = 2

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Any = None) -> None:
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _ntuple(kernel_size, self._dims)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = None if output_size is None else _ntuple(output_size, self._dims)
        self.output_ratio = None if output_ratio is None else _ntuple(output_ratio, self._dims)
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling "
                             f"ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor):  # noqa: A002
        fn = F.fractional_max_pool2d if self._dims == 2 else F.fractional_max_pool3d
        return fn(input, self.kernel_size, self.output_size, self.output_ratio,
                  self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Max over pseudo-random windows of (N, C, H, W) or (C, H, W) (torch's draws)."""


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Max over pseudo-random windows of (N, C, D, H, W) or (C, D, H, W) (torch's draws)."""

    _dims = 3
