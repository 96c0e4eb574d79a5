"""More loss modules: ``SoftMarginLoss``, ``PoissonNLLLoss``, ``GaussianNLLLoss``,
``MultiLabelSoftMarginLoss``, ``HingeEmbeddingLoss``, ``MarginRankingLoss``,
``CosineEmbeddingLoss``, ``TripletMarginLoss``, ``TripletMarginWithDistanceLoss``,
``MultiMarginLoss``, ``MultiLabelMarginLoss``, ``CTCLoss``.

Layer: front end (torch.nn mirror). Input: torch's options (``reduction``, the deprecated
``size_average``/``reduce``, ``margin``, ``p``, class ``weight`` registered as a buffer as
torch does, a ``distance_function`` kept as a child module when it is one). Output: modules
whose forward is ``nn.functional``'s loss, with torch's constructor checks and reprs. It must
not compute outside forward.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from ..functional.loss import legacy_reduction
from .distance import PairwiseDistance
from .module import Module


class _Reduced(Module):
    """A loss with torch's ``reduction`` (the deprecated arguments resolved as torch does)."""

    def __init__(self, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = legacy_reduction(size_average, reduce, reduction)


class _Margin(_Reduced):
    def __init__(self, margin: float, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin


class SoftMarginLoss(_Reduced):
    """log(1 + exp(-y x)): two-class logistic loss with +-1 targets."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class PoissonNLLLoss(_Reduced):
    """Negative log likelihood of a Poisson target."""

    def __init__(self, log_input: bool = True, full: bool = False, size_average: Any = None,
                 eps: float = 1e-8, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                  eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Reduced):
    """Negative log likelihood of a Gaussian target with predicted variance."""

    def __init__(self, *, full: bool = False, eps: float = 1e-6,
                 reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var) -> Tensor:  # noqa: A002
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                   reduction=self.reduction)


class MultiLabelSoftMarginLoss(_Reduced):
    """Per-class logistic loss averaged over the classes."""

    def __init__(self, weight: Tensor | None = None, size_average: Any = None,
                 reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight,
                                             reduction=self.reduction)


class HingeEmbeddingLoss(_Margin):
    """x where y = 1, max(0, margin - x) where y = -1."""

    def __init__(self, margin: float = 1.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.hinge_embedding_loss(input, target, margin=self.margin,
                                      reduction=self.reduction)


class MarginRankingLoss(_Margin):
    """max(0, -y (x1 - x2) + margin)."""

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin,
                                     reduction=self.reduction)


class CosineEmbeddingLoss(_Margin):
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1."""

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin,
                                       reduction=self.reduction)


class TripletMarginLoss(_Margin):
    """max(0, margin + d(a, p) - d(a, n)) with the pairwise p-distance."""

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(margin, size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got "
                             f"{margin} instead")
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                     eps=self.eps, swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Margin):
    """The triplet margin loss with any distance (default: ``PairwiseDistance()``)."""

    def __init__(self, *, distance_function: Callable | None = None, margin: float = 1.0,
                 swap: bool = False, reduction: str = "mean") -> None:
        super().__init__(margin, None, None, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater "
                             f"than 0, got {margin} instead")
        self.distance_function = distance_function if distance_function is not None \
            else PairwiseDistance()
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction)


class MultiMarginLoss(_Reduced):
    """Multi-class hinge loss (p = 1 or 2) with optional class weights."""

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                 size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got "
                             f"{weight.dim()}D instead")
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin,
                                   weight=self.weight, reduction=self.reduction)


class MultiLabelMarginLoss(_Reduced):
    """Multi-class multi-label hinge loss (targets listed before the first -1)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class CTCLoss(_Reduced):
    """Connectionist temporal classification loss (eager only: a dynamic program)."""

    def __init__(self, blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths,
                target_lengths) -> Tensor:
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                          self.reduction, self.zero_infinity)
