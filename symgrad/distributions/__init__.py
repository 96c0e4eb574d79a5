"""symgrad.distributions: the torch.distributions mirror: ``Distribution``, ``Normal``,
``Bernoulli``, ``Categorical``, ``OneHotCategorical``, ``Uniform``, ``MultivariateNormal``,
``Independent``, ``Laplace``, ``Exponential``, ``LogNormal``, ``TransformedDistribution``,
``kl_divergence``/``register_kl``, ``constraints`` and the elementwise ``transforms``.

Layer: front end (it imports only the front end and below). Samples come from symgrad's
generator, which reproduces torch's CPU streams: after ``manual_seed(s)`` a program draws the
numbers torch draws, in the same order. ``rsample`` is differentiable (reparameterization);
``log_prob``, ``entropy``, ``cdf`` and the KL divergences are built from the front end's
functions, so they have gradients with respect to the parameters, eagerly and inside
``@symgrad.compile`` (where sampling follows ``frontend.random``'s rule: drawn once, at trace
time, with a warning).
"""

from . import constraints, kl, transforms  # noqa: F401
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .transformed_distribution import TransformedDistribution
from .transforms import *  # noqa: F401,F403  (its __all__: ExpTransform, AffineTransform...)
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "ExponentialFamily",
           "Independent", "Laplace", "LogNormal", "MultivariateNormal", "Normal",
           "OneHotCategorical", "OneHotCategoricalStraightThrough", "TransformedDistribution",
           "Uniform", "kl_divergence", "register_kl"] + transforms.__all__
