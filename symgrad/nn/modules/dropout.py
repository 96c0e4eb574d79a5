"""Dropout layers: ``Dropout``, ``Dropout1d``, ``Dropout2d``, ``Dropout3d``, ``AlphaDropout``,
``FeatureAlphaDropout``: zero (or, for the alpha ones, saturate) elements or whole channels at
random while training (``nn.functional``'s dropouts).

Layer: front end (torch.nn mirror). Input: the drop probability (and ``inplace``). Output:
modules that drop with torch's generator in training mode and pass their input through in
evaluation mode. They must not draw numbers themselves (``symgrad.frontend.random.sampling``
and ``nn.functional.dropout_variants`` do).
"""

from __future__ import annotations

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .module import Module


class _DropoutNd(Module):
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Each element zeroed with probability ``p``, the rest scaled by 1 / (1 - p)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Whole channels of (N, C, L) or (C, L) zeroed with probability ``p``."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Whole channels of (N, C, H, W) zeroed with probability ``p``."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Whole channels of (N, C, D, H, W) or (C, D, H, W) zeroed with probability ``p``."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """SELU's dropout: mean and variance kept (``F.alpha_dropout``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """SELU's dropout of whole channels (``F.feature_alpha_dropout``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.feature_alpha_dropout(input, self.p, self.training)
