"""symgrad.optim.lr_scheduler: the torch.optim.lr_scheduler mirror.

Layer: front end (torch.optim mirror). Input: an optimizer and each schedule's options.
Output: the schedulers, which set each parameter group's ``lr`` (and, for the cyclical ones,
its momentum) at every ``step()`` with torch's formulas in torch's order, so the Python
floats equal torch's: ``base.py`` (``LRScheduler``, warnings), ``decay.py`` (``StepLR
MultiStepLR ExponentialLR ConstantLR LinearLR PolynomialLR``), ``lambdas.py`` (``LambdaLR
MultiplicativeLR``), ``cosine.py`` (``CosineAnnealingLR CosineAnnealingWarmRestarts``),
``cyclic.py`` (``CyclicLR OneCycleLR``), ``plateau.py`` (``ReduceLROnPlateau``),
``composite.py`` (``SequentialLR ChainedScheduler``).
"""

from .base import EPOCH_DEPRECATION_WARNING, LRScheduler  # noqa: F401
from .composite import ChainedScheduler, SequentialLR  # noqa: F401
from .cosine import CosineAnnealingLR, CosineAnnealingWarmRestarts  # noqa: F401
from .cyclic import CyclicLR, OneCycleLR  # noqa: F401
from .decay import (ConstantLR, ExponentialLR, LinearLR, MultiStepLR,  # noqa: F401
                    PolynomialLR, StepLR)
from .lambdas import LambdaLR, MultiplicativeLR  # noqa: F401
from .plateau import ReduceLROnPlateau  # noqa: F401

_LRScheduler = LRScheduler          # torch's old name, still exported
