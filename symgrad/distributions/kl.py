"""``kl_divergence(p, q)`` and ``register_kl(P, Q)``: KL divergences found by the types of the
two distributions, the most specific registered pair winning (torch's lookup, with its
warning when the two orders of specificity disagree).

Layer: front end. Input: two distributions. Output: KL(p || q), a tensor of their batch
shape; ``NotImplementedError`` for a pair nothing is registered for. The pairs torch has
among this package's distributions are registered here: the formulas are in ``kl_pairs``
(and ``kl_multivariate_normal``, ``kl_bregman`` next to their families); the ones that
recurse into their base distributions are below.
"""

from __future__ import annotations

import warnings

from . import kl_pairs as K
from .bernoulli import Bernoulli
from .categorical import Categorical
from .exp_family import ExponentialFamily, kl_bregman
from .exponential import Exponential
from .independent import Independent
from .laplace import Laplace
from .multivariate_normal import MultivariateNormal, kl_multivariate_normal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform
from .utils import sum_rightmost

__all__ = ["kl_divergence", "register_kl"]

_REGISTRY: dict = {}   # (type_p, type_q) -> function: what register_kl was given
_FOUND: dict = {}      # (type(p), type(q)) -> the function dispatch chose (or NotImplemented)


def register_kl(type_p, type_q):
    """A decorator registering ``fn(p, q)`` as KL(p || q) for distributions of these types
    (and their subclasses, unless a more specific pair is registered)."""
    for t, which in ((type_p, "type_p"), (type_q, "type_q")):
        if not isinstance(t, type):
            raise TypeError(f"Expected {which} to be a Distribution subclass but got {t}")

    def decorator(fn):
        _REGISTRY[type_p, type_q] = fn
        _FOUND.clear()
        return fn
    return decorator


def _precedes(a: tuple, b: tuple) -> bool:
    """``a <= b`` in the lexicographic order of subclassing (a's first differing type is a
    subclass of b's)."""
    for x, y in zip(a, b):
        if not issubclass(x, y):
            return False
        if x is not y:
            break
    return True


def _most_specific(pairs: list) -> tuple:
    best = pairs[0]
    for pair in pairs[1:]:
        if pair != best and _precedes(pair, best):
            best = pair
    return best


def _dispatch(type_p, type_q):
    """The function of the most specific registered pair both types fall under, read left
    to right and right to left; a RuntimeWarning when the two readings differ."""
    matches = [pair for pair in _REGISTRY
               if issubclass(type_p, pair[0]) and issubclass(type_q, pair[1])]
    if not matches:
        return NotImplemented
    left_p, left_q = _most_specific(matches)
    right_q, right_p = _most_specific([(q, p) for p, q in matches])
    left, right = _REGISTRY[left_p, left_q], _REGISTRY[right_p, right_q]
    if left is not right:
        warnings.warn(f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
                      f"Please register_kl({left_p.__name__}, {right_q.__name__})",
                      RuntimeWarning, stacklevel=3)
    return left


def kl_divergence(p, q):
    """KL(p || q) = E_p[log p(x) - log q(x)], batched over the batch shape."""
    key = (type(p), type(q))
    if key not in _FOUND:
        _FOUND[key] = _dispatch(*key)
    fn = _FOUND[key]
    if fn is NotImplemented:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type "
                                  f"{p.__class__.__name__} and q type {q.__class__.__name__}")
    return fn(p, q)


def kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


def kl_transformed_transformed(p, q):
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


_BUILTIN = [
    (Bernoulli, Bernoulli, K.bernoulli_bernoulli),
    (Categorical, Categorical, K.categorical_categorical),
    (Exponential, Exponential, K.exponential_exponential),
    (ExponentialFamily, ExponentialFamily, kl_bregman),
    (Laplace, Laplace, K.laplace_laplace),
    (MultivariateNormal, MultivariateNormal, kl_multivariate_normal),
    (Normal, Normal, K.normal_normal),
    (OneHotCategorical, OneHotCategorical, K.categorical_categorical),
    (TransformedDistribution, TransformedDistribution, kl_transformed_transformed),
    (Uniform, Uniform, K.uniform_uniform),
    (Exponential, Uniform, K.infinite),
    (Exponential, Normal, K.exponential_normal),
    (Laplace, Exponential, K.infinite),
    (Laplace, Uniform, K.infinite),
    (Laplace, Normal, K.laplace_normal),
    (Normal, Exponential, K.infinite),
    (Normal, Uniform, K.infinite),
    (Normal, Laplace, K.normal_laplace),
    (Uniform, Exponential, K.uniform_exponential),
    (Uniform, Normal, K.uniform_normal),
    (Independent, Independent, kl_independent_independent),
]
for _p, _q, _fn in _BUILTIN:
    register_kl(_p, _q)(_fn)
