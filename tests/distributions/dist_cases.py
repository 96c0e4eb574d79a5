"""The distributions' cases, each a function of a torch-like module ``t`` (torch, or symgrad
standing in for it) run after ``t.manual_seed(0)``: what it returns (tensors, shapes, reprs,
or the exception raised) must be what torch returns.

``CASES``: name -> (function, how exact): "bits" (the same bits: samples drawn with torch's
generator and arithmetic that needs no libm), "ulps" (a few ulps: symgrad's log, exp, log1p
are correctly rounded where torch's vectorized ones may differ in the last bit). ``GRADS``:
name -> (function of ``t`` and leaf tensors, the leaves' values): the gradients of the sum of
its result. ``python dist_cases.py --store`` writes torch's results into ``torch_values.json``
(what the tests compare with when torch is absent).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

STORED = Path(__file__).resolve().parent / "torch_values.json"


def D(t):
    return t.distributions


def _normal(t):
    return D(t).Normal(t.tensor([0., 1., 2.]), t.tensor([1., 2., 3.]))


def _cat(t):
    return D(t).Categorical(logits=t.tensor([[0.1, 0.2, 0.7], [3., 0., -1.]]))


def _mvn(t):
    return D(t).MultivariateNormal(t.tensor([1., 2.]), t.tensor([[2., 0.5], [0.5, 1.]]))


def _batched_tril(t):
    L = t.tensor([[[2., 0.], [0.5, 1.]]]).expand(3, 2, 2)
    return L * t.tensor([1., 2., 3.]).view(3, 1, 1)


def _both(t, ctor, p, q):
    return D(t).kl_divergence(ctor(t, *p), ctor(t, *q))


CASES = {
    # Normal
    "normal sample": (lambda t: _normal(t).sample((5,)), "bits"),
    "normal sample broadcast": (lambda t: D(t).Normal(t.zeros(4, 3), t.ones(3)).sample((7,)),
                                "bits"),
    "normal rsample": (lambda t: _normal(t).rsample((4,)), "bits"),
    "normal rsample numbers": (lambda t: D(t).Normal(0., 1.).rsample((20,)), "bits"),
    "normal rsample float64": (lambda t: D(t).Normal(t.zeros(20, dtype=t.float64), 2.)
                               .rsample((3,)), "bits"),
    "normal log_prob": (lambda t: _normal(t).log_prob(t.tensor([[0.3, -1., 5.]])), "ulps"),
    "normal cdf": (lambda t: _normal(t).cdf(t.tensor([0.3, -1., 5.])), "ulps"),
    "normal icdf": (lambda t: _normal(t).icdf(t.tensor([0.3, 0.01, 0.99])), "ulps"),
    "normal entropy perplexity": (lambda t: [_normal(t).entropy(), _normal(t).perplexity()],
                                  "ulps"),
    "normal moments": (lambda t: [_normal(t).mean, _normal(t).mode, _normal(t).variance,
                                  _normal(t).stddev], "bits"),
    "normal number params": (lambda t: [D(t).Normal(0., 1.).log_prob(t.tensor(0.5)),
                                        D(t).Normal(1, t.tensor([2.], dtype=t.float64)).loc],
                             "ulps"),
    # Bernoulli
    "bernoulli sample": (lambda t: D(t).Bernoulli(t.tensor([0.1, 0.5, 0.9])).sample((6,)),
                         "bits"),
    "bernoulli logits sample": (lambda t: D(t).Bernoulli(logits=t.tensor([-1., 0.5, 3.]))
                                .sample((6,)), "bits"),
    "bernoulli log_prob": (lambda t: [
        D(t).Bernoulli(t.tensor([0.1, 0.5, 0.9])).log_prob(t.tensor([1., 0., 1.])),
        D(t).Bernoulli(logits=t.tensor([-1., 0.5, 3.])).log_prob(t.tensor([[1.], [0.]]))],
        "ulps"),
    "bernoulli entropy": (lambda t: D(t).Bernoulli(t.tensor([0.1, 0.5, 0.9])).entropy(),
                          "ulps"),
    "bernoulli moments": (lambda t: [D(t).Bernoulli(t.tensor([0.1, 0.5, 0.9])).mode,
                                     D(t).Bernoulli(t.tensor([0.1, 0.5, 0.9])).variance],
                          "bits"),
    "bernoulli logits from probs": (lambda t: D(t).Bernoulli(t.tensor([0.1, 0.5, 0., 1.]))
                                    .logits, "ulps"),
    "bernoulli enumerate_support": (lambda t: [
        D(t).Bernoulli(t.tensor([[0.1, 0.5, 0.9]])).enumerate_support(),
        D(t).Bernoulli(t.tensor([[0.1, 0.5, 0.9]])).enumerate_support(expand=False)], "bits"),
    # Categorical, OneHotCategorical
    "categorical sample": (lambda t: D(t).Categorical(t.tensor([0.1, 0.2, 0.7]))
                           .sample((10,)), "bits"),
    "categorical sample batch": (lambda t: _cat(t).sample((4, 2)), "bits"),
    "categorical log_prob": (lambda t: _cat(t).log_prob(t.tensor([[0, 2], [1, 1], [2, 0]])),
                             "ulps"),
    "categorical entropy": (lambda t: D(t).Categorical(
        t.tensor([[0.1, 0.2, 0.7], [0.5, 0.5, 0.]])).entropy(), "ulps"),
    "categorical probs logits": (lambda t: [_cat(t).probs, D(t).Categorical(
        t.tensor([[1., 2., 7.], [5., 5., 0.]])).logits], "ulps"),
    "categorical moments": (lambda t: [_cat(t).mode, _cat(t).mean, _cat(t).variance,
                                       _cat(t).enumerate_support(), _cat(t).param_shape],
                            "bits"),
    "one-hot sample": (lambda t: D(t).OneHotCategorical(t.tensor([0.1, 0.2, 0.7]))
                       .sample((4,)), "bits"),
    "one-hot log_prob": (lambda t: D(t).OneHotCategorical(t.tensor([0.1, 0.2, 0.7]))
                         .log_prob(t.tensor([[0., 0., 1.], [1., 0., 0.]])), "ulps"),
    "one-hot moments": (lambda t: [
        D(t).OneHotCategorical(t.tensor([0.1, 0.2, 0.7])).mode,
        D(t).OneHotCategorical(t.tensor([0.1, 0.2, 0.7])).variance,
        D(t).OneHotCategorical(t.tensor([[0.1, 0.2, 0.7]])).enumerate_support()], "bits"),
    "one-hot straight-through": (lambda t: D(t).OneHotCategoricalStraightThrough(
        logits=t.tensor([0.1, 0.2, 0.7])).rsample((3,)), "bits"),
    # Uniform
    "uniform rsample": (lambda t: D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 3.]))
                        .rsample((4,)), "bits"),
    "uniform values": (lambda t: [
        D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 3.])).log_prob(t.tensor([0.5, 3.])),
        D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 3.])).cdf(t.tensor([0.5, 2.])),
        D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 3.])).icdf(t.tensor([0.5, 0.25])),
        D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 3.])).entropy()], "ulps"),
    "uniform moments": (lambda t: [D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 3.])).mean,
                                   D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 3.])).stddev,
                                   D(t).Uniform(0., 2.).variance, D(t).Uniform(0., 2.).mode],
                        "bits"),
    # Laplace, Exponential, LogNormal
    "laplace rsample": (lambda t: D(t).Laplace(t.tensor([0., 1.]), t.tensor([1., 0.5]))
                        .rsample((5,)), "ulps"),
    "laplace rsample float64": (lambda t: D(t).Laplace(t.tensor([0., 1.], dtype=t.float64), 2.)
                                .rsample((5,)), "ulps"),
    "laplace values": (lambda t: [
        D(t).Laplace(t.tensor([0., 1.]), t.tensor([1., 0.5])).log_prob(t.tensor([0.3, 2.])),
        D(t).Laplace(t.tensor([0., 1.]), t.tensor([1., 0.5])).cdf(t.tensor([0.3, 2.])),
        D(t).Laplace(t.tensor([0., 1.]), t.tensor([1., 0.5])).icdf(t.tensor([0.3, 0.9])),
        D(t).Laplace(t.tensor([0., 1.]), t.tensor([1., 0.5])).entropy(),
        D(t).Laplace(t.tensor([0., 1.]), t.tensor([1., 0.5])).stddev], "ulps"),
    "exponential rsample": (lambda t: D(t).Exponential(t.tensor([1., 0.5, 3.]))
                            .rsample((4,)), "bits"),
    "exponential rsample float64": (lambda t: D(t).Exponential(
        t.tensor([1., 0.5, 3.], dtype=t.float64)).rsample((4,)), "bits"),
    "exponential values": (lambda t: [
        D(t).Exponential(t.tensor([1., 0.5, 3.])).log_prob(t.tensor([0.3, 2., 0.])),
        D(t).Exponential(t.tensor([1., 0.5, 3.])).cdf(t.tensor([0.3, 2., 0.])),
        D(t).Exponential(t.tensor([1., 0.5, 3.])).icdf(t.tensor([0.3, 0.2, 0.])),
        D(t).Exponential(t.tensor([1., 0.5, 3.])).entropy(),
        D(t).Exponential(t.tensor([1., 0.5, 3.])).variance], "ulps"),
    "log-normal sample": (lambda t: [
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).rsample((3,)),
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).sample((3,))], "ulps"),
    "log-normal values": (lambda t: [
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).log_prob(t.tensor([0.3, 2.])),
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).cdf(t.tensor([0.3, 2.])),
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).icdf(t.tensor([0.3, 0.9])),
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).mean,
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).mode,
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).variance,
        D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 0.5])).entropy()], "ulps"),
    # MultivariateNormal
    "mvn rsample covariance": (lambda t: _mvn(t).rsample((5,)), "bits"),
    "mvn rsample precision": (lambda t: D(t).MultivariateNormal(
        t.tensor([1., 2.]), precision_matrix=t.tensor([[2., 0.5], [0.5, 1.]])).rsample((5,)),
        "ulps"),
    "mvn sample scale_tril batch": (lambda t: D(t).MultivariateNormal(
        t.zeros(3, 2), scale_tril=t.tensor([[2., 0.], [0.5, 1.]])).sample((2,)), "bits"),
    "mvn log_prob": (lambda t: _mvn(t).log_prob(t.tensor([[0., 0.], [1., 3.]])), "ulps"),
    "mvn log_prob batch": (lambda t: D(t).MultivariateNormal(
        t.zeros(3, 2), scale_tril=_batched_tril(t)).log_prob(t.randn(4, 3, 2)), "ulps"),
    "mvn log_prob one L": (lambda t: D(t).MultivariateNormal(
        t.zeros(3, 2), scale_tril=t.tensor([[[2., 0.], [0.5, 1.]]])).log_prob(
        t.randn(4, 3, 2)), "ulps"),
    "mvn log_prob float64": (lambda t: D(t).MultivariateNormal(
        t.zeros(3, dtype=t.float64), t.tensor([[2., 0.5, 0.], [0.5, 1., 0.2], [0., 0.2, 3.]],
                                              dtype=t.float64)).log_prob(
        t.randn(5, 3, dtype=t.float64)), "ulps"),
    "mvn entropy": (lambda t: D(t).MultivariateNormal(
        t.zeros(3, 2), t.tensor([[2., 0.5], [0.5, 1.]])).entropy(), "ulps"),
    "mvn matrices": (lambda t: [_mvn(t).precision_matrix, _mvn(t).scale_tril,
                                D(t).MultivariateNormal(t.zeros(2), precision_matrix=t.tensor(
                                    [[2., 0.5], [0.5, 1.]])).covariance_matrix,
                                _mvn(t).variance], "ulps"),
    # Independent
    "independent": (lambda t: [
        D(t).Independent(D(t).Normal(t.zeros(3, 2), t.ones(3, 2)), 1).log_prob(t.randn(3, 2)),
        D(t).Independent(D(t).Normal(t.zeros(3, 2), t.ones(3, 2)), 2).entropy(),
        D(t).Independent(D(t).Normal(t.zeros(3, 2), t.ones(3, 2)), 1).rsample((2,))], "ulps"),
    # KL divergences
    "kl normal normal": (lambda t: _both(t, lambda t, *a: D(t).Normal(*a),
                                         (t.tensor([0., 1.]), t.tensor([1., 2.])),
                                         (t.tensor([0.5, -1.]), t.tensor([3., 0.2]))), "ulps"),
    "kl bernoulli": (lambda t: D(t).kl_divergence(
        D(t).Bernoulli(t.tensor([0., 0.3, 1., 0.5])),
        D(t).Bernoulli(t.tensor([0.2, 0., 0.7, 1.]))), "ulps"),
    "kl categorical": (lambda t: D(t).kl_divergence(
        D(t).Categorical(t.tensor([[0., 0.3, 0.7], [0.2, 0.2, 0.6]])),
        D(t).Categorical(t.tensor([[0.2, 0.3, 0.5], [0.2, 0., 0.8]]))), "ulps"),
    "kl one-hot": (lambda t: D(t).kl_divergence(
        D(t).OneHotCategorical(t.tensor([0.1, 0.3, 0.6])),
        D(t).OneHotCategorical(logits=t.tensor([0.2, 0.3, 0.5]))), "ulps"),
    "kl uniform": (lambda t: D(t).kl_divergence(
        D(t).Uniform(t.tensor([0., 0., -1.]), t.tensor([1., 2., 1.])),
        D(t).Uniform(t.tensor([-1., 0.5, -1.]), t.tensor([2., 3., 1.]))), "ulps"),
    "kl mvn": (lambda t: D(t).kl_divergence(_mvn(t), D(t).MultivariateNormal(
        t.zeros(3, 2), scale_tril=t.tensor([[1., 0.], [0.3, 2.]]))), "ulps"),
    "kl laplace": (lambda t: D(t).kl_divergence(
        D(t).Laplace(t.tensor([0., 1.]), t.tensor([1., 2.])),
        D(t).Laplace(t.tensor([0.5, -1.]), t.tensor([3., 0.2]))), "ulps"),
    "kl exponential": (lambda t: D(t).kl_divergence(D(t).Exponential(t.tensor([1., 2.])),
                                                    D(t).Exponential(t.tensor([3., 0.2]))),
                       "ulps"),
    "kl mixed pairs": (lambda t: [
        D(t).kl_divergence(D(t).Exponential(t.tensor([1., 2.])),
                           D(t).Normal(t.tensor([0.5, -1.]), t.tensor([3., 0.2]))),
        D(t).kl_divergence(D(t).Laplace(t.tensor([0., 1.]), t.tensor([1., 2.])),
                           D(t).Normal(t.tensor([0.5, -1.]), t.tensor([3., 0.2]))),
        D(t).kl_divergence(D(t).Normal(t.tensor([0., 1.]), t.tensor([1., 2.])),
                           D(t).Laplace(t.tensor([0.5, -1.]), t.tensor([3., 0.2]))),
        D(t).kl_divergence(D(t).Uniform(t.tensor([0., 1.]), t.tensor([1., 2.])),
                           D(t).Normal(t.tensor([0.5, -1.]), t.tensor([3., 0.2]))),
        D(t).kl_divergence(D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 2.])),
                           D(t).Exponential(t.tensor([0.5, 1.]))),
        D(t).kl_divergence(D(t).Normal(t.tensor([0., 1.]), t.tensor([1., 2.])),
                           D(t).Uniform(t.tensor([0., -1.]), t.tensor([1., 2.]))),
        D(t).kl_divergence(D(t).Laplace(0., 1.), D(t).Exponential(1.)),
        D(t).kl_divergence(D(t).Exponential(2.), D(t).Uniform(0., 1.))], "ulps"),
    "kl independent and log-normal": (lambda t: [
        D(t).kl_divergence(D(t).Independent(D(t).Normal(t.zeros(3, 2), t.ones(3, 2)), 1),
                           D(t).Independent(D(t).Normal(t.ones(3, 2), t.ones(3, 2) * 2), 1)),
        D(t).kl_divergence(D(t).LogNormal(t.tensor([0., 1.]), t.tensor([1., 2.])),
                           D(t).LogNormal(t.tensor([0.5, -1.]), t.tensor([3., 0.2])))], "ulps"),
    "kl normal bernoulli": (lambda t: D(t).kl_divergence(D(t).Normal(0., 1.),
                                                         D(t).Bernoulli(0.3)), "bits"),
    "kl uniform laplace": (lambda t: D(t).kl_divergence(D(t).Uniform(0., 1.),
                                                        D(t).Laplace(0., 1.)), "bits"),
    "kl mvn event shapes": (lambda t: D(t).kl_divergence(
        D(t).MultivariateNormal(t.zeros(2), t.eye(2)),
        D(t).MultivariateNormal(t.zeros(3), t.eye(3))), "bits"),
    "kl independent ndims": (lambda t: D(t).kl_divergence(
        D(t).Independent(D(t).Normal(t.zeros(3, 2), 1.), 1),
        D(t).Independent(D(t).Normal(t.zeros(3, 2), 1.), 2)), "bits"),
    # validation errors
    "error normal scale": (lambda t: D(t).Normal(t.tensor([0., 1.]), t.tensor([1., -2.])),
                           "bits"),
    "error normal scale number": (lambda t: D(t).Normal(0., -1.), "bits"),
    "error normal nan loc": (lambda t: D(t).Normal(t.tensor([float("nan")]), 1.), "bits"),
    "error bernoulli probs": (lambda t: D(t).Bernoulli(t.tensor([0.1, 1.5])), "bits"),
    "error probs and logits": (lambda t: D(t).Bernoulli(0.1, 0.2), "bits"),
    "error categorical simplex": (lambda t: D(t).Categorical(t.tensor([0.1, -0.2])), "bits"),
    "error categorical 0-d": (lambda t: D(t).Categorical(t.tensor(0.1)), "bits"),
    "error categorical logits 0-d": (lambda t: D(t).Categorical(logits=t.tensor(0.1)), "bits"),
    "error uniform bounds": (lambda t: D(t).Uniform(t.tensor([0., 2.]), t.tensor([1., 1.])),
                             "bits"),
    "error mvn not positive definite": (lambda t: D(t).MultivariateNormal(
        t.zeros(2), t.tensor([[1., 2.], [2., 1.]])), "bits"),
    "error mvn not symmetric": (lambda t: D(t).MultivariateNormal(
        t.zeros(2), t.tensor([[1., 0.5], [0., 1.]])), "bits"),
    "error mvn scale_tril": (lambda t: D(t).MultivariateNormal(
        t.zeros(2), scale_tril=t.tensor([[1., 0.5], [0., 1.]])), "bits"),
    "error mvn two matrices": (lambda t: D(t).MultivariateNormal(
        t.zeros(2), t.eye(2), scale_tril=t.eye(2)), "bits"),
    "error mvn 0-d loc": (lambda t: D(t).MultivariateNormal(t.tensor(0.), t.eye(2)), "bits"),
    "error mvn 1-d matrix": (lambda t: D(t).MultivariateNormal(t.zeros(2), t.ones(2)), "bits"),
    "error mvn 1-d scale_tril": (lambda t: D(t).MultivariateNormal(
        t.zeros(2), scale_tril=t.ones(2)), "bits"),
    "error value outside support": (lambda t: D(t).Exponential(t.tensor([1., 2.])).log_prob(
        t.tensor([-1., 2.])), "bits"),
    "error 0-d value outside support": (lambda t: D(t).Exponential(1.).log_prob(
        t.tensor(-1.)), "bits"),
    "error value shape": (lambda t: D(t).Normal(t.zeros(3), 1.).log_prob(t.zeros(2)), "bits"),
    "error value event shape": (lambda t: D(t).MultivariateNormal(t.zeros(3), t.eye(3))
                                .log_prob(t.zeros(2)), "bits"),
    "error value not a tensor": (lambda t: D(t).Normal(t.zeros(3), 1.).log_prob(1.0), "bits"),
    "error bernoulli value": (lambda t: D(t).Bernoulli(t.tensor([0.3])).log_prob(
        t.tensor([0.5])), "bits"),
    "error categorical value": (lambda t: D(t).Categorical(t.tensor([0.3, 0.7])).log_prob(
        t.tensor([2])), "bits"),
    "error one-hot value": (lambda t: D(t).OneHotCategorical(t.tensor([0.3, 0.7])).log_prob(
        t.tensor([1., 1.])), "bits"),
    "error independent ndims": (lambda t: D(t).Independent(D(t).Normal(t.zeros(3), 1.), 2),
                                "bits"),
    "error broadcast_all": (lambda t: D(t).Normal(t.zeros(3), [1.]), "bits"),
    "error no kl": (lambda t: D(t).kl_divergence(D(t).Categorical(t.ones(2)),
                                                 D(t).Normal(0., 1.)), "bits"),
    "no validation": (lambda t: [
        D(t).Normal(0., -1., validate_args=False).log_prob(t.tensor(0.5)),
        D(t).Exponential(1., validate_args=False).log_prob(t.tensor(-1.)),
        D(t).Uniform(0., 1., validate_args=False).log_prob(t.tensor([2., 0.5]))], "ulps"),
    # shapes, reprs, flags
    "reprs": (lambda t: [
        str(D(t).Normal(0., 1.)), repr(D(t).Normal(t.zeros(3), 1.)),
        repr(D(t).Bernoulli(t.tensor([0.3]))), repr(D(t).Independent(D(t).Normal(t.zeros(3), 1.),
                                                                       1)),
        repr(D(t).MultivariateNormal(t.zeros(2), t.eye(2))),
        repr(D(t).Categorical(logits=t.zeros(3))), repr(D(t).Uniform(0., 1.)),
        repr(D(t).LogNormal(0., 1.)), repr(D(t).Uniform(0., 1.).support),
        repr(D(t).Independent(D(t).Normal(t.zeros(3), 1.), 1).support),
        repr(D(t).Categorical(t.ones(3)).support), repr(D(t).Normal.arg_constraints),
        repr(D(t).MultivariateNormal.arg_constraints), repr(D(t).Bernoulli.support),
        repr(D(t).OneHotCategorical.support), repr(D(t).Exponential.support),
        repr(D(t).LogNormal(0., 1.).support), repr(D(t).transforms.ExpTransform().inv),
        repr(D(t).Uniform(t.zeros(2), 1.))], "bits"),
    "shapes": (lambda t: [str(s) for s in [
        D(t).Normal(t.zeros(3, 1), t.ones(2)).batch_shape,
        D(t).MultivariateNormal(t.zeros(4, 1, 2), t.eye(2).expand(3, 2, 2)).batch_shape,
        D(t).MultivariateNormal(t.zeros(4, 1, 2), t.eye(2).expand(3, 2, 2)).rsample((5,)).shape,
        D(t).Independent(D(t).Normal(t.zeros(3, 2), 1.), 1).event_shape,
        D(t).Normal(0., 1.).expand((4, 2)).batch_shape,
        D(t).Normal(0., 1.).expand((4, 2)).sample((3,)).shape,
        D(t).Categorical(t.ones(5, 3)).expand((2, 5)).sample().shape,
        D(t).MultivariateNormal(t.zeros(2), t.eye(2)).expand((3,)).rsample((2,)).shape,
        D(t).OneHotCategorical(t.ones(5, 3)).sample((2,)).shape,
        D(t).OneHotCategorical(t.ones(5, 3)).event_shape,
        D(t).LogNormal(t.zeros(2), 1.).expand((3, 2)).batch_shape,
        D(t).Bernoulli(t.ones(2, 1) / 2).expand((3, 2, 2)).sample().shape,
        D(t).Uniform(0., 1.).sample((2, 3)).shape,
        D(t).Independent(D(t).Bernoulli(t.ones(4, 3) / 2), 2).sample().shape,
        D(t).Normal(t.zeros(3), 1.).log_prob(t.zeros(2, 1, 3)).shape]], "bits"),
    "flags": (lambda t: [str(x) for x in [
        D(t).Normal.has_rsample, D(t).Bernoulli.has_rsample, D(t).Categorical.has_rsample,
        D(t).Independent(D(t).Normal(t.zeros(3), 1.), 1).has_rsample,
        D(t).Independent(D(t).Bernoulli(t.ones(3) / 2), 1).has_enumerate_support,
        D(t).Independent(D(t).Bernoulli(t.ones(3) / 2), 0).has_enumerate_support,
        D(t).Categorical.has_enumerate_support, D(t).Categorical.support.is_discrete,
        D(t).Uniform.support.event_dim, D(t).constraints.is_dependent(D(t).Uniform.support),
        D(t).constraints.is_dependent(D(t).Normal.support),
        D(t).Independent(D(t).Normal(t.zeros(3), 1.), 1).support.event_dim,
        D(t).MultivariateNormal.support.event_dim, D(t).LogNormal(0., 1.).has_rsample]],
        "bits"),
    "expand": (lambda t: [
        D(t).Normal(t.tensor([0., 1.]), 2.).expand((3, 2)).log_prob(t.tensor([[0.5, 1.]])),
        D(t).Categorical(logits=t.tensor([0.1, 0.2])).expand((3,)).log_prob(t.tensor([0, 1, 1])),
        D(t).MultivariateNormal(t.zeros(2), t.eye(2)).expand((2,)).covariance_matrix,
        D(t).Bernoulli(logits=t.tensor(0.3)).expand((2,)).probs,
        D(t).Independent(D(t).Normal(t.zeros(2), 1.), 1).expand((3,)).sample(),
        D(t).Exponential(2.).expand((3,)).rsample()], "ulps"),
    "dtypes and broadcasting": (lambda t: [
        D(t).Independent(D(t).MultivariateNormal(t.zeros(4, 3, 2), t.eye(2)), 1).log_prob(
            t.randn(5, 4, 3, 2)),
        str(D(t).Independent(D(t).MultivariateNormal(t.zeros(4, 3, 2), t.eye(2)), 1)
            .expand((2, 4)).sample().shape),
        D(t).Categorical(logits=t.randn(3, 4)).log_prob(t.tensor([[0], [3]])),
        D(t).Normal(t.zeros(2), 1., validate_args=False).log_prob(0.5),
        D(t).Uniform(0, 2).rsample((3,)),
        D(t).MultivariateNormal(t.zeros(3, 2), precision_matrix=t.tensor(
            [[2., 0.5], [0.5, 1.]]).expand(3, 2, 2) * t.tensor([1., 2., 3.]).view(3, 1, 1))
        .log_prob(t.zeros(2)),
        D(t).Normal(t.zeros(2), 1.).log_prob(t.tensor([0.5, 1.], dtype=t.float64)),
        D(t).Normal(t.zeros(2), 1.).log_prob(t.tensor([1, 2])),
        D(t).Categorical(t.ones(3)).log_prob(t.tensor([1., 2.])),
        D(t).LogNormal(t.zeros(2), 1.).expand((3, 2)).log_prob(t.ones(2))], "ulps"),
    # transforms, TransformedDistribution
    "transforms": (lambda t: _transforms(t, D(t).transforms, t.tensor([-1.5, 0.2, 3.]),
                                         t.tensor([0.2, 0.5, 0.9])), "ulps"),
    "transformed distribution": (lambda t: _transformed(t, D(t)), "ulps"),
}


def _transforms(t, T, x, u):
    compose = T.ComposeTransform([T.AffineTransform(1., -2.), T.ExpTransform()])
    vector = T.AffineTransform(t.tensor([1., 2., 3.]), t.tensor([0.5, -1., 2.]), event_dim=1)
    return [T.ExpTransform()(x), T.ExpTransform().inv(u),
            T.ExpTransform().log_abs_det_jacobian(x, x.exp()), T.AffineTransform(1., 2.)(x),
            T.AffineTransform(1., -2.).inv(x),
            T.AffineTransform(1., -2.).log_abs_det_jacobian(x, x),
            vector.log_abs_det_jacobian(x, vector(x)), T.SigmoidTransform()(x),
            T.SigmoidTransform().inv(u), T.SigmoidTransform().log_abs_det_jacobian(x, u),
            T.TanhTransform()(x), T.TanhTransform().inv(u),
            T.TanhTransform().log_abs_det_jacobian(x, u), T.SoftplusTransform()(x),
            T.SoftplusTransform().inv(u), T.AbsTransform()(x), compose(x), compose.inv(u),
            compose.log_abs_det_jacobian(x, compose(x)), repr(compose), repr(compose.domain),
            repr(compose.codomain), repr(vector.domain), str(compose.sign),
            str(T.AffineTransform(0., -2.).sign), str(T.ExpTransform() == T.ExpTransform()),
            str(T.AffineTransform(0., 2.) == T.AffineTransform(0., 2.)),
            str(compose.inv.inv is compose), repr(T.identity_transform)]


def _transformed(t, D):
    T = D.transforms
    chain = [T.AffineTransform(1., -2.), T.ExpTransform()]
    d = D.TransformedDistribution(D.Normal(t.zeros(3), 1.), chain)
    v = D.TransformedDistribution(D.Normal(t.zeros(2, 3), 1.), T.AffineTransform(
        t.tensor([1., 2., 3.]), t.tensor([0.5, 1., 2.]), event_dim=1))
    y = t.tensor([0.5, 2., 7.])
    return [d.rsample((2,)), d.log_prob(y), d.cdf(y), d.icdf(t.tensor([0.1, 0.5, 0.9])),
            str(d.batch_shape), str(d.event_shape), repr(d.support), str(v.batch_shape),
            str(v.event_shape), v.log_prob(t.tensor([1., 2., 3.])), repr(v.support),
            d.expand((2, 3)).sample(), str(v.expand((4, 2)).batch_shape)]


def _normal_loss(t, m, s):
    return D(t).Normal(m, s).rsample((4,)) ** 2


GRADS = {
    "normal rsample": (_normal_loss, [[0., 1., 2.], [1., 2., 3.]]),
    "normal log_prob": (lambda t, m, s: D(t).Normal(m, s).log_prob(t.tensor([0.5, -1., 4.])),
                        [[0., 1., 2.], [1., 2., 3.]]),
    "normal entropy": (lambda t, m, s: D(t).Normal(m, s).entropy(), [[0., 1.], [1., 2.]]),
    "normal cdf": (lambda t, m, s: D(t).Normal(m, s).cdf(t.tensor([0.5, -1., 4.])),
                   [[0., 1., 2.], [1., 2., 3.]]),
    "normal icdf": (lambda t, m, s: D(t).Normal(m, s).icdf(t.tensor([0.5, 0.1, 0.8])),
                    [[0., 1., 2.], [1., 2., 3.]]),
    # (a float64 value: a float32 one makes the log-probability float32, as in torch, and
    # float64 central differences of it meaningless)
    "bernoulli log_prob probs": (lambda t, p: D(t).Bernoulli(p).log_prob(
        t.tensor([1., 0., 1.], dtype=t.float64)), [[0.2, 0.5, 0.9]]),
    "bernoulli log_prob logits": (lambda t, p: D(t).Bernoulli(logits=p).log_prob(
        t.tensor([1., 0., 1.], dtype=t.float64)), [[-2., 0.5, 0.9]]),
    "bernoulli entropy": (lambda t, p: D(t).Bernoulli(logits=p).entropy(), [[-2., 0.5, 0.9]]),
    "categorical log_prob": (lambda t, p: D(t).Categorical(logits=p).log_prob(
        t.tensor([0, 2])), [[[0.1, 0.2, 0.7], [3., 0., -1.]]]),
    "categorical log_prob probs": (lambda t, p: D(t).Categorical(probs=p).log_prob(
        t.tensor([0, 2])), [[[0.1, 0.2, 0.7], [3., 1., 1.]]]),
    "categorical entropy": (lambda t, p: D(t).Categorical(logits=p).entropy(),
                            [[[0.1, 0.2, 0.7], [3., 0., -1.]]]),
    "one-hot straight-through": (lambda t, p: D(t).OneHotCategoricalStraightThrough(
        logits=p).rsample((3,)) * t.tensor([1., 2., 3.]), [[[0.1, 0.2, 0.7], [3., 0., -1.]]]),
    "uniform rsample": (lambda t, a, b: D(t).Uniform(a, b).rsample((3,)) ** 2,
                        [[0., -1.], [1., 3.]]),
    "uniform log_prob": (lambda t, a, b: D(t).Uniform(a, b).log_prob(t.tensor([0.5, 0.])),
                         [[0., -1.], [1., 3.]]),
    "laplace rsample": (lambda t, a, b: D(t).Laplace(a, b).rsample((5,)) ** 2,
                        [[0., -1.], [1., 3.]]),
    "laplace log_prob": (lambda t, a, b: D(t).Laplace(a, b).log_prob(t.tensor([0.5, 0.])),
                         [[0., -1.], [1., 3.]]),
    "exponential rsample": (lambda t, r: D(t).Exponential(r).rsample((5,)) ** 2, [[1., 3.]]),
    "exponential log_prob": (lambda t, r: D(t).Exponential(r).log_prob(t.tensor([0.5, 2.])),
                             [[1., 3.]]),
    "log-normal rsample": (lambda t, m, s: D(t).LogNormal(m, s).rsample((4,)),
                           [[0., 1.], [1., 0.5]]),
    "log-normal log_prob": (lambda t, m, s: D(t).LogNormal(m, s).log_prob(
        t.tensor([0.5, 2.])), [[0., 1.], [1., 0.5]]),
    "mvn rsample": (lambda t, m, c: D(t).MultivariateNormal(m, c @ c.mT + t.eye(2))
                    .rsample((4,)) ** 2, [[1., 2.], [[1., 0.5], [0.3, 1.]]]),
    "mvn log_prob scale_tril": (lambda t, m, L: D(t).MultivariateNormal(
        m, scale_tril=L.tril()).log_prob(t.tensor([[0., 1.], [2., -1.]])),
        [[1., 2.], [[1., 0.], [0.3, 2.]]]),
    "mvn log_prob precision": (lambda t, m, c: D(t).MultivariateNormal(
        m, precision_matrix=c @ c.mT + t.eye(2)).log_prob(t.tensor([[0., 1.], [2., -1.]])),
        [[1., 2.], [[1., 0.5], [0.3, 1.]]]),
    "mvn entropy": (lambda t, m, c: D(t).MultivariateNormal(m, c @ c.mT + t.eye(2)).entropy(),
                    [[1., 2.], [[1., 0.5], [0.3, 1.]]]),
    "kl normal": (lambda t, a, b: D(t).kl_divergence(D(t).Normal(a, b), D(t).Normal(b, a + 3)),
                  [[0., 1.], [1., 2.]]),
    "kl bernoulli": (lambda t, a, b: D(t).kl_divergence(D(t).Bernoulli(a),
                                                        D(t).Bernoulli(logits=b)),
                     [[0.3, 0.8], [1., -2.]]),
    "kl categorical": (lambda t, a, b: D(t).kl_divergence(D(t).Categorical(logits=a),
                                                          D(t).Categorical(probs=b)),
                       [[0.3, 0.8, 0.], [1., 2., 0.5]]),
    "kl mvn": (lambda t, a, b: D(t).kl_divergence(
        D(t).MultivariateNormal(a, b @ b.mT + t.eye(2)),
        D(t).MultivariateNormal(a * 2, scale_tril=b.tril() + t.eye(2))),
        [[0.3, 0.8], [[1., 0.5], [0.3, 1.]]]),
    "kl uniform": (lambda t, a, b: D(t).kl_divergence(D(t).Uniform(a, b),
                                                      D(t).Uniform(a - 1, b + 2)),
                   [[0.3, 0.8], [1., 2.]]),
    "kl laplace normal": (lambda t, a, b: D(t).kl_divergence(D(t).Laplace(a, b),
                                                             D(t).Normal(b, a + 3)),
                          [[0., 1.], [1., 2.]]),
    "kl independent": (lambda t, a, b: D(t).kl_divergence(
        D(t).Independent(D(t).Normal(a, b), 1), D(t).Independent(D(t).Normal(b, a + 3), 1)),
        [[0., 1.], [1., 2.]]),
}


# ---------------------------------------------------------------- running a case

def encode(x):
    """A case's result as JSON-able data: tensors as (dtype, shape, values), exceptions as
    (type, message), anything else as its str."""
    if isinstance(x, (list, tuple)) and not type(x).__name__ == "Size":
        return [encode(v) for v in x]
    if hasattr(x, "detach"):
        a = x.detach().numpy()
        return {"dtype": str(x.dtype), "shape": list(a.shape),
                "values": [float(v) if np.isfinite(v) else str(float(v))
                           for v in a.astype(float).ravel()]}
    if isinstance(x, BaseException):
        return {"error": type(x).__name__, "message": str(x)}
    return str(x)


def run(t, fn, seed: int = 0):
    t.manual_seed(seed)
    try:
        return encode(fn(t))
    except Exception as e:   # noqa: BLE001  (the exception is the result)
        return encode(e)


def grads(t, fn, values, dtype=None):
    """The gradients of ``fn(t, *leaves).sum()`` with respect to the leaves (float32 unless
    ``dtype``), after ``manual_seed(0)``."""
    t.manual_seed(0)
    leaves = [t.tensor(v, dtype=dtype or t.float32, requires_grad=True) for v in values]
    fn(t, *leaves).sum().backward()
    return [encode(p.grad) for p in leaves]


def store() -> None:
    import torch
    data = {"cases": {k: run(torch, f) for k, (f, _) in CASES.items()},
            "grads": {k: grads(torch, f, v) for k, (f, v) in GRADS.items()}}
    lines = [f"{json.dumps(section)}: {{\n" + ",\n".join(
        f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(data[section].items())) + "}"
        for section in ("cases", "grads")]
    STORED.write_text("{" + ",\n".join(lines + [f'"torch": "{torch.__version__}"']) + "}\n")


if __name__ == "__main__" and sys.argv[1:] == ["--store"]:
    store()
