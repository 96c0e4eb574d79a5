"""symgrad.distributions against oracles that need no torch: densities, distribution functions,
entropies and moments from NumPy and the standard library (``statistics.NormalDist``,
``math.erf``) in float64; KL divergences from their closed forms in NumPy and from quadrature
of p log(p/q) on a fine grid; every gradient of ``dist_cases.GRADS`` against central finite
differences in float64; sample moments; the exponential-family (Bregman) entropy and KL
against the closed forms; and the same values inside ``@symgrad.compile``.
"""

from __future__ import annotations

import math
import statistics
import warnings

import numpy as np
import pytest

import symgrad as sg
from dist_cases import GRADS
from symgrad import distributions as D
from symgrad.distributions.exp_family import ExponentialFamily, kl_bregman

F64 = sg.float64
RTOL = 1e-12
LOG2PI = math.log(2 * math.pi)


def t64(x):
    return sg.tensor(np.asarray(x, dtype=np.float64))


def val(x) -> np.ndarray:
    return x.detach().numpy()


@pytest.fixture
def points():
    rng = np.random.default_rng(7)
    return rng.normal(size=5) * 2, rng.uniform(0.3, 2.5, size=5), rng.normal(size=5) * 3


# ---------------------------------------------------------------- univariate densities

def test_normal_against_the_standard_library(points):
    loc, scale, x = points
    d = D.Normal(t64(loc), t64(scale))
    ref = [statistics.NormalDist(m, s) for m, s in zip(loc, scale)]
    np.testing.assert_allclose(val(d.log_prob(t64(x))),
                               [math.log(r.pdf(v)) for r, v in zip(ref, x)], rtol=RTOL)
    np.testing.assert_allclose(val(d.cdf(t64(x))), [r.cdf(v) for r, v in zip(ref, x)],
                               rtol=1e-12, atol=1e-15)
    u = np.array([0.01, 0.2, 0.5, 0.77, 0.999])
    np.testing.assert_allclose(val(d.icdf(t64(u))), [r.inv_cdf(p) for r, p in zip(ref, u)],
                               rtol=1e-9)
    np.testing.assert_allclose(val(d.entropy()), 0.5 * np.log(2 * np.pi * np.e * scale ** 2),
                               rtol=RTOL)
    np.testing.assert_allclose(val(d.variance), scale ** 2, rtol=RTOL)


def test_laplace_exponential_uniform_log_normal_formulas(points):
    loc, scale, x = points
    lap = D.Laplace(t64(loc), t64(scale))
    np.testing.assert_allclose(val(lap.log_prob(t64(x))),
                               -np.log(2 * scale) - np.abs(x - loc) / scale, rtol=RTOL)
    cdf = np.where(x < loc, 0.5 * np.exp((x - loc) / scale),
                   1 - 0.5 * np.exp(-(x - loc) / scale))
    np.testing.assert_allclose(val(lap.cdf(t64(x))), cdf, rtol=1e-12)
    np.testing.assert_allclose(val(lap.icdf(lap.cdf(t64(x)))), x, rtol=1e-9)
    np.testing.assert_allclose(val(lap.entropy()), 1 + np.log(2 * scale), rtol=RTOL)

    rate, y = scale, np.abs(x)
    ex = D.Exponential(t64(rate))
    np.testing.assert_allclose(val(ex.log_prob(t64(y))), np.log(rate) - rate * y, rtol=RTOL)
    np.testing.assert_allclose(val(ex.cdf(t64(y))), 1 - np.exp(-rate * y), rtol=1e-12)
    np.testing.assert_allclose(val(ex.icdf(ex.cdf(t64(y)))), y, rtol=1e-9)
    np.testing.assert_allclose(val(ex.entropy()), 1 - np.log(rate), rtol=RTOL)

    low, high = loc - scale, loc + 2 * scale
    un = D.Uniform(t64(low), t64(high), validate_args=False)
    inside = (x >= low) & (x < high)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        lp = val(un.log_prob(t64(x)))
    np.testing.assert_allclose(lp, np.where(inside, -np.log(high - low), -np.inf), rtol=RTOL)
    np.testing.assert_allclose(val(un.cdf(t64(x))), np.clip((x - low) / (high - low), 0, 1),
                               rtol=RTOL)

    ln = D.LogNormal(t64(loc), t64(scale))
    np.testing.assert_allclose(val(ln.log_prob(t64(y))),
                               -(np.log(y) - loc) ** 2 / (2 * scale ** 2) - np.log(scale)
                               - 0.5 * LOG2PI - np.log(y), rtol=1e-12)
    np.testing.assert_allclose(val(ln.mean), np.exp(loc + scale ** 2 / 2), rtol=RTOL)
    np.testing.assert_allclose(val(ln.variance),
                               (np.exp(scale ** 2) - 1) * np.exp(2 * loc + scale ** 2), rtol=1e-12)
    np.testing.assert_allclose(val(ln.entropy()),
                               loc + 0.5 + 0.5 * np.log(2 * np.pi * scale ** 2), rtol=RTOL)


def test_discrete_formulas():
    p = np.array([0.1, 0.5, 0.93])
    b = D.Bernoulli(t64(p))
    for k in (0.0, 1.0):
        np.testing.assert_allclose(val(b.log_prob(t64(np.full(3, k)))),
                                   np.log(p if k else 1 - p), rtol=1e-12)
    np.testing.assert_allclose(val(b.entropy()), -(p * np.log(p) + (1 - p) * np.log(1 - p)),
                               rtol=1e-12)
    np.testing.assert_allclose(val(D.Bernoulli(logits=t64(np.log(p / (1 - p)))).probs), p,
                               rtol=1e-12)

    w = np.array([[1.0, 2.0, 7.0], [5.0, 0.5, 0.25]])
    probs = w / w.sum(-1, keepdims=True)
    c = D.Categorical(t64(w))
    np.testing.assert_allclose(val(c.log_prob(sg.tensor([2, 1]))),
                               np.log([probs[0, 2], probs[1, 1]]), rtol=1e-12)
    np.testing.assert_allclose(val(c.entropy()), -(probs * np.log(probs)).sum(-1), rtol=1e-12)
    logits = D.Categorical(logits=t64(np.log(w)))
    np.testing.assert_allclose(val(logits.probs), probs, rtol=1e-12)
    oh = D.OneHotCategorical(t64(w))
    np.testing.assert_allclose(val(oh.log_prob(t64(np.eye(3)[[2, 1]]))),
                               np.log([probs[0, 2], probs[1, 1]]), rtol=1e-12)


def _mvn_log_prob(loc, cov, x):
    d = x - loc
    sol = np.linalg.solve(cov, d[..., None])[..., 0]
    return -0.5 * (loc.shape[-1] * LOG2PI + (d * sol).sum(-1) + np.linalg.slogdet(cov)[1])


def test_multivariate_normal_three_ways():
    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 3, 3))
    cov = a @ np.swapaxes(a, -1, -2) + 0.5 * np.eye(3)
    loc = rng.normal(size=(4, 3))
    x = rng.normal(size=(6, 4, 3))
    want = _mvn_log_prob(loc, cov, x)
    for kw in ({"covariance_matrix": t64(cov)},
               {"precision_matrix": t64(np.linalg.inv(cov))},
               {"scale_tril": t64(np.linalg.cholesky(cov))}):
        d = D.MultivariateNormal(t64(loc), **kw)
        np.testing.assert_allclose(val(d.log_prob(t64(x))), want, rtol=1e-10)
        np.testing.assert_allclose(val(d.entropy()), 0.5 * (3 * (1 + LOG2PI) +
                                                            np.linalg.slogdet(cov)[1]),
                                   rtol=1e-10)
        np.testing.assert_allclose(val(d.covariance_matrix), cov, rtol=1e-10)
        np.testing.assert_allclose(val(d.precision_matrix), np.linalg.inv(cov), rtol=1e-8)
        np.testing.assert_allclose(val(d.variance), np.diagonal(cov, axis1=-2, axis2=-1),
                                   rtol=1e-10)


def test_multivariate_normal_batch_broadcasting():
    """One covariance for a (5, 4) batch of locations, scored at (2, 5, 4) points: the
    solve groups samples per matrix, and each must still meet its own location."""
    rng = np.random.default_rng(5)
    cov = np.array([[[2.0, 0.3], [0.3, 1.0]]] * 4) * np.arange(1, 5)[:, None, None]
    loc = rng.normal(size=(5, 1, 2))
    x = rng.normal(size=(2, 5, 4, 2))
    d = D.MultivariateNormal(t64(loc), t64(cov))
    assert d.batch_shape == (5, 4) and d.event_shape == (2,)
    np.testing.assert_allclose(val(d.log_prob(t64(x))), _mvn_log_prob(loc, cov, x), rtol=1e-10)


# ---------------------------------------------------------------- KL divergences

def _quadrature_kl(p, q, lo, hi, n=400_001):
    x = np.linspace(lo, hi, n)
    lp = val(p.log_prob(t64(x)))
    lq = val(q.log_prob(t64(x)))
    f = np.exp(lp) * (lp - lq)
    return float(np.sum((f[1:] + f[:-1]) / 2 * np.diff(x)))


@pytest.mark.parametrize("p, q, lo, hi", [
    (lambda: D.Normal(0.3, 1.2), lambda: D.Normal(-0.5, 0.7), -15, 15),
    (lambda: D.Laplace(0.3, 1.2), lambda: D.Laplace(-0.5, 0.7), -40, 40),
    (lambda: D.Laplace(0.3, 1.2), lambda: D.Normal(-0.5, 0.7), -40, 40),
    (lambda: D.Normal(0.3, 1.2), lambda: D.Laplace(-0.5, 0.7), -15, 15),
    (lambda: D.Exponential(1.7), lambda: D.Normal(-0.5, 0.7), 0, 30),
    (lambda: D.Exponential(1.7), lambda: D.Exponential(0.4), 0, 30),
    (lambda: D.Uniform(-0.2, 1.3), lambda: D.Normal(-0.5, 0.7), -0.2, 1.3 - 1e-9),
    (lambda: D.Uniform(0.2, 1.3), lambda: D.Exponential(0.8), 0.2, 1.3 - 1e-9),
    (lambda: D.Uniform(0.2, 1.3), lambda: D.Uniform(0.0, 2.0), 0.2, 1.3 - 1e-9),
    (lambda: D.LogNormal(0.2, 0.5), lambda: D.LogNormal(-0.3, 0.9), 1e-9, 40),
], ids=["normal-normal", "laplace-laplace", "laplace-normal", "normal-laplace",
        "exponential-normal", "exponential-exponential", "uniform-normal",
        "uniform-exponential", "uniform-uniform", "lognormal-lognormal"])
def test_kl_against_quadrature(p, q, lo, hi):
    sg.set_default_dtype(F64)
    try:
        pd, qd = p(), q()
        got = float(D.kl_divergence(pd, qd))
        assert got == pytest.approx(_quadrature_kl(pd, qd, lo, hi), rel=1e-6, abs=1e-9)
    finally:
        sg.set_default_dtype(sg.float32)


def test_kl_closed_forms_in_numpy():
    p, q = np.array([0.0, 0.3, 1.0, 0.5]), np.array([0.2, 0.0, 0.7, 1.0])
    with np.errstate(all="ignore"):
        t1 = np.where(p == 0, 0.0, np.where(q == 0, np.inf, p * np.log(p / q)))
        t2 = np.where(p == 1, 0.0, np.where(q == 1, np.inf, (1 - p) * np.log((1 - p) / (1 - q))))
    np.testing.assert_allclose(val(D.kl_divergence(D.Bernoulli(t64(p)), D.Bernoulli(t64(q)))),
                               t1 + t2, rtol=1e-12)

    a = np.array([[0.0, 0.3, 0.7], [0.2, 0.2, 0.6]])
    b = np.array([[0.2, 0.3, 0.5], [0.2, 0.0, 0.8]])
    with np.errstate(all="ignore"):
        terms = np.where(a == 0, 0.0, np.where(b == 0, np.inf, a * np.log(a / b)))
    for cls in (D.Categorical, D.OneHotCategorical):
        np.testing.assert_allclose(val(D.kl_divergence(cls(t64(a)), cls(t64(b)))),
                                   terms.sum(-1), rtol=1e-12)

    rng = np.random.default_rng(11)
    m0, m1 = rng.normal(size=(2, 3)), rng.normal(size=3)
    c0 = np.eye(3) * 0.5 + (lambda s: s @ s.T)(rng.normal(size=(3, 3)))
    c1 = np.eye(3) * 0.7 + (lambda s: s @ s.T)(rng.normal(size=(3, 3)))
    d = m1 - m0
    want = 0.5 * (np.trace(np.linalg.solve(c1, c0)) + (d * np.linalg.solve(c1, d.T).T).sum(-1)
                  - 3 + np.linalg.slogdet(c1)[1] - np.linalg.slogdet(c0)[1])
    got = D.kl_divergence(D.MultivariateNormal(t64(m0), t64(c0)),
                          D.MultivariateNormal(t64(m1), scale_tril=t64(np.linalg.cholesky(c1))))
    np.testing.assert_allclose(val(got), want, rtol=1e-10)

    lo, hi = np.array([0.0, 0.0, -1.0]), np.array([1.0, 2.0, 1.0])
    qlo, qhi = np.array([-1.0, 0.5, -1.0]), np.array([2.0, 3.0, 1.0])
    want = np.where((qlo > lo) | (qhi < hi), np.inf, np.log((qhi - qlo) / (hi - lo)))
    np.testing.assert_allclose(val(D.kl_divergence(D.Uniform(t64(lo), t64(hi)),
                                                   D.Uniform(t64(qlo), t64(qhi)))), want)


def test_kl_infinite_where_q_has_no_mass_and_independent_sums():
    assert float(D.kl_divergence(D.Normal(0., 1.), D.Uniform(-1., 1.))) == math.inf
    assert float(D.kl_divergence(D.Laplace(0., 1.), D.Exponential(2.))) == math.inf
    assert float(D.kl_divergence(D.Exponential(2.), D.Uniform(0., 5.))) == math.inf
    assert float(D.kl_divergence(D.Uniform(-1., 1.), D.Exponential(2.))) == math.inf
    p = D.Normal(t64([[0.0, 1.0], [2.0, -1.0]]), t64([[1.0, 2.0], [0.5, 1.5]]))
    q = D.Normal(t64([0.5, 0.0]), t64([1.0, 1.0]))
    both = D.kl_divergence(D.Independent(p, 1), D.Independent(q, 1))
    np.testing.assert_allclose(val(both), val(D.kl_divergence(p, q)).sum(-1), rtol=RTOL)
    assert both.shape == (2,)


def test_exponential_family_bregman_forms_match_the_closed_forms():
    pairs = [(D.Normal(t64([0.3, -1.0]), t64([1.2, 0.4])), D.Normal(t64([1.0, 0.0]),
                                                                    t64([0.5, 2.0]))),
             (D.Bernoulli(t64([0.2, 0.7])), D.Bernoulli(t64([0.6, 0.1]))),
             (D.Exponential(t64([0.5, 3.0])), D.Exponential(t64([2.0, 0.1])))]
    for p, q in pairs:
        np.testing.assert_allclose(val(ExponentialFamily.entropy(p)), val(p.entropy()),
                                   rtol=1e-12)
        np.testing.assert_allclose(val(kl_bregman(p, q)), val(D.kl_divergence(p, q)),
                                   rtol=1e-12)


# ---------------------------------------------------------------- gradients

def _numeric_gradient(fn, values, h=1e-6):
    out = []
    for i, v in enumerate(values):
        v = np.asarray(v, dtype=np.float64)
        g = np.zeros_like(v)
        for k in np.ndindex(v.shape):
            total = []
            for sign in (1, -1):
                moved = [np.asarray(w, dtype=np.float64).copy() for w in values]
                moved[i][k] += sign * h
                sg.manual_seed(0)
                total.append(float(fn(sg, *[t64(w) for w in moved]).sum()))
            g[k] = (total[0] - total[1]) / (2 * h)
        out.append(g)
    return out


# The straight-through estimator's gradient is not the derivative of its (piecewise constant)
# value: it has no finite-difference oracle.
FD_CASES = sorted(k for k in GRADS if k != "one-hot straight-through")


@pytest.mark.parametrize("name", FD_CASES)
def test_gradient_against_central_differences_in_float64(name):
    fn, values = GRADS[name]
    sg.manual_seed(0)
    leaves = [sg.tensor(np.asarray(v, np.float64), requires_grad=True) for v in values]
    fn(sg, *leaves).sum().backward()
    for leaf, numeric in zip(leaves, _numeric_gradient(fn, values)):
        got = np.zeros(leaf.shape) if leaf.grad is None else val(leaf.grad)   # not used: 0
        np.testing.assert_allclose(got, numeric, rtol=1e-6, atol=1e-7, err_msg=name)


def test_rsample_is_differentiable_and_sample_is_not():
    loc = sg.tensor([0.5, -1.0], requires_grad=True)
    d = D.Normal(loc, 2.0)
    assert d.rsample().requires_grad and not d.sample().requires_grad
    sg.manual_seed(0)
    d.rsample((3,)).sum().backward()
    np.testing.assert_array_equal(val(loc.grad), [3.0, 3.0])


# ---------------------------------------------------------------- samples

def test_sample_moments():
    sg.manual_seed(1)
    n = 40_000
    checks = [(D.Normal(t64([1.0, -2.0]), t64([0.5, 3.0])), 1),
              (D.Laplace(t64([1.0]), t64([2.0])), 1), (D.Exponential(t64([0.5, 4.0])), 1),
              (D.Uniform(t64([-1.0]), t64([3.0])), 1), (D.LogNormal(t64([0.0]), t64([0.5])), 1),
              (D.Bernoulli(t64([0.2, 0.9])), 1)]
    for d, _ in checks:
        x = val(d.sample((n,)))
        sd = np.sqrt(val(d.variance))
        np.testing.assert_array_less(np.abs(x.mean(0) - val(d.mean)), 5 * sd / np.sqrt(n),
                                     err_msg=repr(d))
        np.testing.assert_allclose(x.std(0), sd, rtol=0.05, err_msg=repr(d))
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    x = val(D.MultivariateNormal(t64([1.0, 2.0]), t64(cov)).sample((n,)))
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.06)
    counts = np.bincount(val(D.Categorical(t64([0.1, 0.2, 0.7])).sample((n,))), minlength=3)
    np.testing.assert_allclose(counts / n, [0.1, 0.2, 0.7], atol=0.01)


def test_support_of_samples():
    sg.manual_seed(2)
    assert set(np.unique(val(D.Bernoulli(t64([0.3, 0.5])).sample((100,))))) <= {0.0, 1.0}
    u = val(D.Uniform(t64([2.0]), t64([2.5])).sample((1000,)))
    assert u.min() >= 2.0 and u.max() < 2.5
    oh = val(D.OneHotCategorical(t64([0.2, 0.3, 0.5])).sample((50,)))
    assert np.all(oh.sum(-1) == 1) and set(np.unique(oh)) == {0.0, 1.0}
    assert val(D.Exponential(3.0).sample((500,))).min() >= 0


# ---------------------------------------------------------------- compiled

def test_log_prob_entropy_and_kl_compile():
    def loss(m, s, x, logits, k):
        d = D.Normal(m, s)
        c = D.Categorical(logits=logits)
        return (d.log_prob(x).sum() + D.kl_divergence(d, D.Normal(0.0, 1.0)).sum()
                + d.entropy().sum() + c.log_prob(k).sum() + c.entropy().sum())
    args = (np.array([0.0, 1.0]), np.array([1.0, 2.0]), np.array([0.5, 0.3]),
            np.array([[0.1, 0.2, 0.7], [3.0, 0.0, -1.0]]), np.array([2, 0]))
    eager = float(loss(*[sg.tensor(a) for a in args]))
    assert float(sg.compile(loss)(*args)) == pytest.approx(eager, rel=1e-14)
    gm, gs = sg.grad(loss, argnums=(0, 1))(*args)
    m, s = t64(args[0]).requires_grad_(), t64(args[1]).requires_grad_()
    loss(m, s, *[sg.tensor(a) for a in args[2:]]).backward()
    np.testing.assert_allclose(gm, val(m.grad), rtol=1e-12)
    np.testing.assert_allclose(gs, val(s.grad), rtol=1e-12)
