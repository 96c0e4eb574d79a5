"""GradBench ``kmeans``: the k-means cost and one Newton direction for the centroids.

Given n points P (n x d) and k centroids C (k x d), the cost is f(P, C) = sum_i min_j
|C_j - P_i|^2. Functions: ``cost``, f (a scalar); ``dir``, the Newton direction J / H for the
centroids, where J is the gradient of f with respect to C (k x d) and H its Hessian, which is
diagonal (each centroid's coordinates move its own cluster's squared distances only), so that
the Hessian-vector product with a vector of ones is H's diagonal, k x d; ``dir`` is J / H
elementwise (k x d).

Every system computes the squared distances as GradBench's tools do, all pairs at once as
|P_i|^2 + |C_j|^2 - 2 C P^T (a k x n matrix), then the minimum over the centroids and the
sum. ``dir`` is nested differentiation, each system's own way: torch the gradient with
``create_graph=True`` and a second backward of it against ones (reverse over reverse, J and
H v in one graph); JAX ``jax.jvp`` of ``jax.grad`` with a tangent of ones (forward over
reverse, GradBench's JAX tool); symgrad ``sg.jvp`` of ``sg.grad`` inside ``sg.compile``, the
same composition.

Inputs: the eval's generator (``evals/kmeans/run.py``): ``np.random.seed(31337)``, then for
each (k, n, d) in order of k * n * d (ties in the order k, n, d), P = ``np.random.rand(n,
d)`` and C = the last k points (so no cluster is empty). Its sizes are k in {10, 100, 1000},
n in {1000, 10000}, d in {8, 16}. Default subset: (k, n, d) = (10, 1000, 8), (100, 10000, 8),
(1000, 10000, 8); ``full``: all twelve.
"""

from __future__ import annotations

import numpy as np

from . import replayed

NAME = "kmeans"
FUNCTIONS = ("cost", "dir")

K, N, D = (10, 100, 1000), (1000, 10000), (8, 16)
NOTES = {"cost": "symgrad computes the k x 10,000 distance matrix block by block (a GEMM of "
         "a few dozen points at a time, then their min over the centroids: lower/rows.py's "
         "product runs) when it is 4 MB or more (k = 1000: 80 MB, never stored); the GEMM "
         "of K = 8 runs at ~35 GFLOP/s in OpenBLAS's kernel and the NaN-propagating min "
         "over 10^7 distances takes ~3 ms"}


def _all_sizes() -> list:
    return sorted(((k, n, d) for k in K for n in N for d in D), key=lambda v: v[0] * v[1] * v[2])


def configs(full: bool) -> list[tuple[str, dict]]:
    sizes = _all_sizes() if full else [(10, 1000, 8), (100, 10000, 8), (1000, 10000, 8)]
    return [(f"k={k},n={n},d={d}", {"k": k, "n": n, "d": d}) for k, n, d in sizes]


def inputs(k: int, n: int, d: int) -> dict:
    points = replayed(_all_sizes(), lambda size: np.random.rand(size[1], size[2]), (k, n, d))
    return {"points": points, "centroids": points[-k:].copy()}


# ---------------------------------------------------------------- torch

def torch_impl(inp: dict) -> dict:
    import torch

    def cost(P, C):
        dists = (P ** 2).sum(1)[None, :] + (C ** 2).sum(1)[:, None] - 2 * C @ P.T
        return dists.min(0).values.sum()

    def cost_():
        return cost(torch.from_numpy(inp["points"]), torch.from_numpy(inp["centroids"])).numpy()

    def dir_():
        P = torch.from_numpy(inp["points"])
        C = torch.from_numpy(inp["centroids"]).requires_grad_()
        (J,) = torch.autograd.grad(cost(P, C), C, create_graph=True)
        (H,) = torch.autograd.grad(J, C, torch.ones_like(C))
        return (J / H).detach().numpy()
    return {"cost": cost_, "dir": dir_}


# ---------------------------------------------------------------- JAX

def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp

    def cost(P, C):
        dists = (P ** 2).sum(1)[None, :] + (C ** 2).sum(1)[:, None] - 2 * C @ P.T
        return jnp.min(dists, 0).sum()

    @jax.jit
    def direction(P, C):
        J, H = jax.jvp(lambda c: jax.grad(cost, argnums=1)(P, c), (C,), (jnp.ones_like(C),))
        return J / H

    cost_j = jax.jit(cost)
    P, C = inp["points"], inp["centroids"]
    return {"cost": lambda: np.asarray(cost_j(P, C)), "dir": lambda: np.asarray(direction(P, C))}


# ---------------------------------------------------------------- symgrad

def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg

    def cost(P, C):
        dists = (P ** 2).sum(1)[None, :] + (C ** 2).sum(1)[:, None] - 2 * C @ P.T
        return dists.min(0).values.sum()

    @sg.compile
    def direction(P, C):
        J, H = sg.jvp(lambda c: sg.grad(cost, argnums=1)(P, c), (C,), (sg.ones_like(C),))
        return J / H

    cost_s = sg.compile(cost)
    P, C = inp["points"], inp["centroids"]
    return {"cost": lambda: cost_s(P, C), "dir": lambda: direction(P, C)}
