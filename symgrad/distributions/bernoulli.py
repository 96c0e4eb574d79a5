"""``Bernoulli(probs=...)`` / ``Bernoulli(logits=...)``: 1 with probability ``probs``, else 0.

Layer: front end. Input: ``probs`` in [0, 1] or log-odds ``logits`` (a tensor or a number).
Output: the distribution: ``sample`` (``torch.bernoulli`` of the expanded probabilities:
torch's numbers after ``manual_seed``), ``log_prob`` and ``entropy`` as binary cross
entropies with logits (as torch computes them), moments, ``enumerate_support``; the parameter
not given is computed on first use.
"""

from __future__ import annotations

import math

from ..frontend.core.grad_mode import no_grad
from ..frontend.functions.basic import exp, log1p, where
from ..frontend.functions.creation import arange
from ..frontend.functions.pointwise import logit
from ..frontend.random.sampling import bernoulli
from ..nn.functional.loss import binary_cross_entropy_with_logits
from ..size import Size
from . import constraints
from .exp_family import ExponentialFamily
from .utils import NUMBER, broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Bernoulli"]


class Bernoulli(ExponentialFamily):
    """The Bernoulli distribution of ``probs`` (or ``logits``: exactly one of them)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        if probs is not None:
            self.probs = param
        else:
            self.logits = param
        self._param = param
        batch_shape = Size() if isinstance(given, NUMBER) else param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Bernoulli, _instance)
        batch_shape = Size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = new._param = self.probs.expand(batch_shape)
        if "logits" in self.__dict__:
            new.logits = new._param = self.logits.expand(batch_shape)
        return self._expanded(new, batch_shape)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        return where(self.probs == 0.5, math.nan, mode)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self) -> Size:
        return self._param.size()

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand: bool = True):
        values = arange(2, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + tuple(self._batch_shape))
        return values

    @property
    def _natural_params(self) -> tuple:
        return (logit(self.probs),)

    def _log_normalizer(self, x):
        return log1p(exp(x))
