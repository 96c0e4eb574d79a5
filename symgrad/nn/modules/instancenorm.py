"""Instance normalization layers: ``InstanceNorm1d``, ``InstanceNorm2d``, ``InstanceNorm3d``.

Layer: front end (torch.nn mirror). Input: the channel count and torch's options (affine and
track_running_stats off by default). Output: modules built on ``normalization.NormBase``
(torch's parameters, buffers, initialization and repr) whose forward is
``nn.functional.instance_norm`` on batched input, or on an unbatched one with a batch dim
added and removed, using the input's statistics in training mode or without running ones. As
torch, they check the channel count (an error when affine, a warning otherwise) and do not
count ``num_batches_tracked``. It must not compute outside forward and initialization.
"""

from __future__ import annotations

import warnings
from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .normalization import NormBase


class _InstanceNorm(NormBase):
    _dims: tuple = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _apply_instance_norm(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        self._check_input_dim(input)
        unbatched = self._dims[0]
        feature_dim = input.ndim - unbatched
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You "
                          f"can silence this warning by not passing in num_features, which is "
                          f"not used because affine=False", stacklevel=2)
        if input.ndim == unbatched:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance norm of (N, C, L) or (C, L) inputs."""

    _dims = (2, 3)


class InstanceNorm2d(_InstanceNorm):
    """Instance norm of (N, C, H, W) or (C, H, W) inputs."""

    _dims = (3, 4)


class InstanceNorm3d(_InstanceNorm):
    """Instance norm of (N, C, D, H, W) or (C, D, H, W) inputs."""

    _dims = (4, 5)
