"""Normalization modules: ``LayerNorm``, ``BatchNorm1d``, ``BatchNorm2d``, ``BatchNorm3d``, and
their shared base ``NormBase`` (torch's ``_NormBase``: instance norm and the lazy norms build on
it).

Layer: front end (torch.nn mirror). Input: feature sizes and torch's options. Output: modules
with torch's parameters (weight ones, bias zeros, by ``symgrad.nn.init``), buffers
(``running_mean``, ``running_var``, ``num_batches_tracked``) and forward (``nn.functional``'s
layer_norm / batch_norm; batch norm uses batch statistics in training mode and updates the
running ones in place). It must not compute outside forward and initialization.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ...frontend.functions.creation import ones, zeros
from ...frontend.core.grad_mode import no_grad
from ...frontend.core.tensor import Tensor
from .. import functional as F
from ..functional.normalization import check_running_stats
from .. import init
from ..parameter import Parameter
from ._common import affine_parameters, new_empty, reset_affine
from .module import Module


class LayerNorm(Module):
    """Standardize over the trailing ``normalized_shape`` dims, then scale and shift."""

    def __init__(self, normalized_shape: Any, eps: float = 1e-5,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        affine_parameters(self, self.normalized_shape, elementwise_affine, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight ones, bias zeros."""
        reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class _BatchNorm(Module):
    """Batch normalization over dim 1 (the channels) of an (N, C, ...) input."""

    _dims: tuple = ()
    _version = 2            # torch's (num_batches_tracked came with version 2)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        for name, wanted in (("weight", affine), ("bias", affine and bias)):
            self.register_parameter(name, Parameter(new_empty((num_features,), device, dtype))
                                    if wanted else None)
        if track_running_stats:
            dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.get_default_dtype()
            self.register_buffer("running_mean", zeros(num_features, dtype=dt))
            self.register_buffer("running_var", ones(num_features, dtype=dt))
            self.register_buffer("num_batches_tracked", zeros((), dtype=dtypes.int64))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """Running mean 0, running variance 1, no batches seen."""
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """The running statistics reset; weight ones, bias zeros."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.ndim not in self._dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in self._dims)} input (got "
                             f"{input.ndim}D input)")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            check_running_stats(input, [self.running_mean, self.running_var,
                                        self.num_batches_tracked])
            with no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:       # a cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if track else None,
                            self.running_var if track else None, self.weight, self.bias,
                            use_batch, factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch norm of (N, C) or (N, C, L) inputs."""

    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch norm of (N, C, H, W) inputs."""

    _dims = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch norm of (N, C, D, H, W) inputs."""

    _dims = (5,)


NormBase = _BatchNorm   # the public name of the base for the modules that extend it
