"""``Normal(loc, scale)``: the Gaussian distribution, torch's formulas in torch's order.

Layer: front end. Input: ``loc`` and ``scale`` (tensors or numbers, broadcast together).
Output: the distribution: ``sample`` (``torch.normal`` of the expanded parameters: torch's
numbers after ``manual_seed``), ``rsample`` (``loc + eps * scale``, eps from ``normal_``),
``log_prob``, ``cdf``, ``icdf``, ``entropy``, moments, its natural parameters.
"""

from __future__ import annotations

import math

from ..frontend.core.grad_mode import no_grad
from ..frontend.functions.basic import log
from ..frontend.functions.pointwise import erf, erfinv
from ..frontend.random.sampling import normal
from ..size import Size
from . import constraints
from .exp_family import ExponentialFamily
from .utils import NUMBER, broadcast_all, standard_normal

__all__ = ["Normal"]

_LOG_SQRT_2PI = math.log(math.sqrt(2 * math.pi))
_ENTROPY_CONSTANT = 0.5 + 0.5 * math.log(2 * math.pi)


class Normal(ExponentialFamily):
    """The normal distribution of mean ``loc`` and standard deviation ``scale``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        numbers = isinstance(loc, NUMBER) and isinstance(scale, NUMBER)
        super().__init__(Size() if numbers else self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Normal, _instance)
        batch_shape = Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        return self._expanded(new, batch_shape)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - _LOG_SQRT_2PI

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) * self.scale.reciprocal() / math.sqrt(2)
        return 0.5 * (1 + erf(z))

    def icdf(self, value):
        return self.loc + self.scale * erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return _ENTROPY_CONSTANT + log(self.scale)

    @property
    def _natural_params(self) -> tuple:
        return (self.loc / self.scale.pow(2), -0.5 * self.scale.pow(2).reciprocal())

    def _log_normalizer(self, x, y):
        return -0.25 * x.pow(2) / y + 0.5 * log(-math.pi / y)
