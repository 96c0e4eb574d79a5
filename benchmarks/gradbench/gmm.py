"""GradBench ``gmm``: the log posterior of a Gaussian mixture model with a Wishart prior on
the precision matrices, and its gradient.

Functions: ``objective`` (a scalar) and ``jacobian`` (its gradient with respect to the
independent variables ``alpha`` (k), ``mu`` (k, d), ``q`` (k, d), ``l`` (k, d(d-1)/2),
returned as a dict of those four arrays). Fixed: the data ``x`` (n, d), the Wishart
prior's extra degrees of freedom ``m = 0`` and precision ``gamma = 1``.

Definition (GradBench ``evals/gmm/README.md``, the ADBench GMM with its three fixes): the
precision of component j is Q_j^T Q_j with Q_j lower triangular, exp(q_j) on its diagonal and
l_j below it filled column by column;

    F = sum_i logsumexp_j(alpha_j + sum(q_j) - |Q_j (x_i - mu_j)|^2 / 2)
        - n logsumexp(alpha) - n d log(2 pi) / 2
        + sum_j (m sum(q_j) - gamma^2 (|exp(q_j)|^2 + |l_j|^2) / 2)
        + k (n_w d log(gamma / sqrt 2) - log Gamma_d(n_w / 2)),   n_w = d + m + 1.

Inputs: the eval's own generator (``evals/gmm/run.py``, ``generate``, seed 31337): x ~ N(0, 1),
alpha ~ N(0, 1), mu ~ U(0, 1), q ~ N(0, 1), l ~ N(0, 1), drawn in that order from one
``numpy.random.default_rng(31337)``. The eval's defaults are d in {2, 10, 20, 32, 64}, k in
{5, 10, 25, 50, 100}, n = 1000 (25 configurations). Default subset: the smallest (d=2, k=5),
a middle one (d=20, k=50), and the largest (d=64, k=100); ``full``: all 25.

Each system writes it the natural way: torch eager autograd (``backward`` of the objective,
the triangular factor built by index assignment ``L[:, rows, cols] = l``, the per-component
matrix-vector products by ``einsum``); ``jax.jit`` of the same with ``.at[].set`` and
``jax.grad``; symgrad's ``sg.compile`` and ``sg.grad`` of the torch spelling (the same index
assignment ``L[:, rows, cols] = l``, not a ``gather``).
"""

from __future__ import annotations

import math

import numpy as np

NAME = "gmm"
FUNCTIONS = ("objective", "jacobian")
PARAMS = ("alpha", "mu", "q", "l")

_D = (2, 10, 20, 32, 64)
_K = (5, 10, 25, 50, 100)


def configs(full: bool) -> list[tuple[str, dict]]:
    if full:
        pairs = sorted(((d, k) for d in _D for k in _K), key=lambda v: v[0] * v[1])
    else:
        pairs = [(2, 5), (20, 50), (64, 100)]
    return [(f"d={d},k={k},n=1000", {"d": d, "k": k, "n": 1000}) for d, k in pairs]


def inputs(d: int, k: int, n: int, m: int = 0, gamma: float = 1.0,
           seed: int = 31337) -> dict:
    """The eval's ``generate``: the same draws in the same order (one row at a time there;
    a Generator's stream is the same drawn as one array)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    alpha = rng.normal(size=k)
    mu = rng.uniform(size=(k, d))
    q = rng.normal(size=(k, d))
    l = rng.normal(size=(k, d * (d - 1) // 2))  # noqa: E741  (the eval's name)
    return {"x": x, "m": m, "gamma": gamma, "alpha": alpha, "mu": mu, "q": q, "l": l}


def _constants(inp: dict) -> tuple[float, float]:
    """The parts of F that depend on no variable: -n d log(2 pi) / 2, and the Wishart
    normalisation summed over the k components."""
    n, d = inp["x"].shape
    k, m, gamma = inp["alpha"].shape[0], inp["m"], inp["gamma"]
    nw = d + m + 1
    log_mvgamma = d * (d - 1) / 4 * math.log(math.pi) + sum(
        math.lgamma(0.5 * nw + (1 - j) / 2) for j in range(1, d + 1))
    wishart = k * (nw * d * math.log(gamma / math.sqrt(2)) - log_mvgamma)
    return -0.5 * n * d * math.log(2 * math.pi), wishart


# ---------------------------------------------------------------- torch

def torch_impl(inp: dict) -> dict:
    import torch
    const, wishart = _constants(inp)
    m, gamma = inp["m"], inp["gamma"]
    d = inp["x"].shape[1]
    cols, rows = torch.triu_indices(d, d, 1)          # below the diagonal, column by column

    def objective_t(x, alpha, mu, q, l):  # noqa: E741
        n, k = x.shape[0], alpha.shape[0]
        sum_qs = q.sum(1)
        Qdiags = torch.exp(q)
        L = torch.zeros((k, d, d), dtype=l.dtype)
        L[:, rows, cols] = l
        xc = x[:, None, :] - mu[None]                               # (n, k, d)
        Lxc = Qdiags * xc + torch.einsum("jab,ijb->ija", L, xc)
        beta = alpha + sum_qs - 0.5 * (Lxc ** 2).sum(2)             # (n, k)
        prior = (m * sum_qs - 0.5 * gamma ** 2 * ((Qdiags ** 2).sum(1) + (l ** 2).sum(1))).sum()
        return (const + torch.logsumexp(beta, 1).sum() - n * torch.logsumexp(alpha, 0)
                + prior + wishart)

    def tensors(grad):
        x = torch.from_numpy(inp["x"])
        return [x] + [torch.tensor(inp[p], requires_grad=grad) for p in PARAMS]

    def objective():
        with torch.no_grad():
            return objective_t(*tensors(False)).numpy()

    def jacobian():
        args = tensors(True)
        objective_t(*args).backward()
        return {p: a.grad.numpy() for p, a in zip(PARAMS, args[1:])}
    return {"objective": objective, "jacobian": jacobian}


# ---------------------------------------------------------------- JAX

def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp
    from jax.scipy.special import logsumexp
    jax.config.update("jax_enable_x64", True)
    const, wishart = _constants(inp)
    m, gamma = inp["m"], inp["gamma"]
    d = inp["x"].shape[1]
    cols, rows = np.triu_indices(d, 1)

    def objective_j(alpha, mu, q, l, x):  # noqa: E741
        n, k = x.shape[0], alpha.shape[0]
        sum_qs = q.sum(1)
        Qdiags = jnp.exp(q)
        L = jnp.zeros((k, d, d), l.dtype).at[:, rows, cols].set(l)
        xc = x[:, None, :] - mu[None]
        Lxc = Qdiags * xc + jnp.einsum("jab,ijb->ija", L, xc)
        beta = alpha + sum_qs - 0.5 * (Lxc ** 2).sum(2)
        prior = (m * sum_qs - 0.5 * gamma ** 2 * ((Qdiags ** 2).sum(1) + (l ** 2).sum(1))).sum()
        return (const + logsumexp(beta, 1).sum() - n * logsumexp(alpha, 0)
                + prior + wishart)

    obj = jax.jit(objective_j)
    grad = jax.jit(jax.grad(objective_j, argnums=(0, 1, 2, 3)))
    args = [inp[p] for p in PARAMS] + [inp["x"]]

    def objective():
        return np.asarray(obj(*args))

    def jacobian():
        return {p: np.asarray(g) for p, g in zip(PARAMS, grad(*args))}
    return {"objective": objective, "jacobian": jacobian}


# ---------------------------------------------------------------- symgrad

def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg
    const, wishart = _constants(inp)
    m, gamma = inp["m"], inp["gamma"]

    def objective_s(alpha, mu, q, l, x):  # noqa: E741
        (n, d), k = x.shape, alpha.shape[0]
        cols, rows = sg.triu_indices(d, d, 1)
        sum_qs = q.sum(1)
        Qdiags = sg.exp(q)
        L = sg.zeros((k, d, d), dtype=l.dtype)
        L[:, rows, cols] = l
        xc = x[:, None, :] - mu[None]
        Lxc = Qdiags * xc + sg.einsum("jab,ijb->ija", L, xc)
        beta = alpha + sum_qs - 0.5 * (Lxc ** 2).sum(2)
        prior = (m * sum_qs - 0.5 * gamma ** 2 * ((Qdiags ** 2).sum(1) + (l ** 2).sum(1))).sum()
        return (const + sg.logsumexp(beta, 1).sum() - n * sg.logsumexp(alpha, 0)
                + prior + wishart)

    obj = sg.compile(objective_s)
    grad = sg.grad(objective_s, argnums=(0, 1, 2, 3))
    args = [inp[p] for p in PARAMS] + [inp["x"]]

    def objective():
        return obj(*args)

    def jacobian():
        return dict(zip(PARAMS, grad(*args)))
    return {"objective": objective, "jacobian": jacobian}
