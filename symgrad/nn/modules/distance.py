"""Distance modules: ``PairwiseDistance`` and ``CosineSimilarity``.

Layer: front end (torch.nn mirror). Input: the norm order / dim and eps. Output: modules whose
forward(x1, x2) is ``nn.functional``'s (``pairwise_distance``, ``cosine_similarity``), with
torch's attribute names (PairwiseDistance keeps p as ``norm``) and reprs (no options shown).
They hold no parameters. It must not compute outside forward.
"""

from __future__ import annotations

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .module import Module


class PairwiseDistance(Module):
    """The p-norm of x1 - x2 + eps along the last dim."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """The cosine of the angle between x1 and x2 along ``dim``."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
