"""``Flatten`` and ``Unflatten``: reshape modules.

Layer: front end (torch.nn mirror). Input: the dims to merge or split. Output: modules whose
forward reshapes (a view, as torch's). It must not compute anything else.
"""

from __future__ import annotations

import math
from typing import Any

from ...frontend.functions.shapes import flatten
from ...frontend.core.tensor import Tensor
from ...ops.registry import normalize_axes
from .module import Module


class Flatten(Module):
    """Merge dims start_dim..end_dim into one (by default all but the batch dim)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size`` (one entry may be -1)."""

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        self.dim = dim
        self.unflattened_size = tuple(unflattened_size)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        (d,) = normalize_axes(self.dim, input.ndim)
        sizes = list(self.unflattened_size)
        if -1 in sizes:
            known = math.prod(s for s in sizes if s != -1)
            sizes[sizes.index(-1)] = input.shape[d] // known if known else 0
        if math.prod(sizes) != input.shape[d]:
            raise RuntimeError(f"unflatten: Provided sizes {list(self.unflattened_size)} don't "
                               f"multiply up to the size of dim {self.dim} "
                               f"({input.shape[d]}) in the input tensor")
        return input.reshape(tuple(input.shape[:d]) + tuple(sizes) + tuple(input.shape[d + 1:]))

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
