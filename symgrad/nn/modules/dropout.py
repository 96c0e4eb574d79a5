"""``Dropout``: zero elements at random while training (``nn.functional.dropout``).

Layer: front end (torch.nn mirror). Input: the drop probability. Output: a module that drops
with torch's generator in training mode and passes its input through in evaluation mode. It
must not draw numbers itself (``symgrad.frontend.random.sampling`` does).
"""

from __future__ import annotations

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .module import Module


class Dropout(Module):
    """Each element zeroed with probability ``p``, the rest scaled by 1 / (1 - p)."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
