"""``ExponentialFamily``: distributions with density exp(<t(x), theta> - F(theta) + k(x)),
whose entropy and KL divergence follow from the log normalizer F by automatic
differentiation (Bregman divergences).

Layer: front end. Input: a subclass's ``_natural_params`` (tensors), ``_log_normalizer`` and
``_mean_carrier_measure``. Output: the base class's ``entropy``, and ``kl_bregman(p, q)``, the
KL divergence of two members of one family (registered for ``ExponentialFamily`` pairs in
``kl``).
"""

from __future__ import annotations

from ..autograd.grad import grad
from .distribution import Distribution
from .utils import sum_rightmost

__all__ = ["ExponentialFamily", "kl_bregman"]


class ExponentialFamily(Distribution):
    """A distribution of an exponential family (see the module's docstring)."""

    @property
    def _natural_params(self) -> tuple:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        raise NotImplementedError

    def entropy(self):
        """F(theta) - <theta, grad F(theta)> - E[k(x)], F's gradient by autograd."""
        params, normalizer, gradients = self.bregman_terms()
        result = -self._mean_carrier_measure + normalizer
        for p, g in zip(params, gradients):
            result = result - (p * g).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result

    def bregman_terms(self):
        """(theta detached and requiring grad, F(theta), grad F(theta)) for ``kl_bregman``."""
        params = [p.detach().requires_grad_() for p in self._natural_params]
        normalizer = self._log_normalizer(*params)
        return params, normalizer, grad(normalizer.sum(), params, create_graph=True)

    def log_normalizer(self, *natural_params):
        """F at the given natural parameters (public for ``kl_bregman``)."""
        return self._log_normalizer(*natural_params)

    @property
    def natural_params(self) -> tuple:
        return self._natural_params


def kl_bregman(p: ExponentialFamily, q: ExponentialFamily):
    """KL(p || q) of two distributions of the same exponential family: F(theta_q) -
    F(theta_p) - <theta_q - theta_p, grad F(theta_p)>."""
    if type(p) is not type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot                             be computed "
                                  "using Bregman divergences")
    p_params, p_normalizer, gradients = p.bregman_terms()
    q_params = q.natural_params
    result = q.log_normalizer(*q_params) - p_normalizer
    for pp, qp, g in zip(p_params, q_params, gradients):
        result = result - sum_rightmost((qp - pp) * g, len(q.event_shape))
    return result
