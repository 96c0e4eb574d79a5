"""GradBench ``llsq``: a linear least-squares objective (cmpad's ``llsq_obj``) and its gradient.

With t_i = -1 + 2 i / (n - 1) and s_i = sign(t_i) for i = 0..n-1, and x a vector of m
coefficients,

    y(x) = 1/2 sum_i (s_i - sum_j x_j t_i^j)^2,

the squared residual of fitting a polynomial of degree m - 1 to the sign function. Functions:
``primal``, y(x) (a scalar); ``gradient``, its gradient with respect to x (m values). n is an
input, not differentiated: each system builds t, s and the n x m matrix of powers t_i^j from
it inside the call (JAX with n static, as GradBench's JAX tool; symgrad with n a Python int
argument). Every system writes it vectorized, the way NumPy users do: the powers as the
library's Vandermonde matrix ``vander(t, m, increasing=True)``, the residual as s - T @ x.
(Spelled ``t[:, None] ** arange(m)`` instead, each system spends most of the call in ``pow``:
2.1 million of them at n = 16392.)

Inputs: the eval's generator (``evals/llsq/run.py``): ``np.random.seed(31337)``, then for
each (n, m) in order of n * m, x = ``np.random.rand(m)``. Its sizes are n in {16, 32, ...,
4096, 8196, 16392} (sic) with m = 128. Default subset: n = 16, 4096 and 16392; ``full``: all
eleven.
"""

from __future__ import annotations

import numpy as np

from . import replayed

NAME = "llsq"
FUNCTIONS = ("primal", "gradient")

N = (16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8196, 16392)
M = (128,)


def configs(full: bool) -> list[tuple[str, dict]]:
    sizes = N if full else (16, 4096, 16392)
    return [(f"n={n},m=128", {"n": n, "m": 128}) for n in sizes]


def inputs(n: int, m: int) -> dict:
    sizes = sorted(((a, b) for a in N for b in M), key=lambda v: v[0] * v[1])
    return {"x": replayed(sizes, lambda size: np.random.rand(size[1]), (n, m)), "n": n}


# ---------------------------------------------------------------- torch

def torch_impl(inp: dict) -> dict:
    import torch

    def llsq(x, n):
        t = -1 + torch.arange(n, dtype=x.dtype) * 2 / (n - 1)
        T = torch.vander(t, N=x.shape[0], increasing=True)
        r = torch.sign(t) - T @ x
        return 0.5 * (r * r).sum()

    n = inp["n"]

    def primal():
        return llsq(torch.from_numpy(inp["x"]), n).numpy()

    def gradient():
        x = torch.from_numpy(inp["x"]).requires_grad_()
        (g,) = torch.autograd.grad(llsq(x, n), x)
        return g.numpy()
    return {"primal": primal, "gradient": gradient}


# ---------------------------------------------------------------- JAX

def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp

    def llsq(x, n):
        t = -1 + jnp.arange(n, dtype=x.dtype) * 2 / (n - 1)
        T = jnp.vander(t, x.shape[0], increasing=True)
        r = jnp.sign(t) - T @ x
        return 0.5 * (r * r).sum()

    primal_j = jax.jit(llsq, static_argnums=1)
    gradient_j = jax.jit(jax.grad(llsq), static_argnums=1)
    x, n = inp["x"], inp["n"]
    return {"primal": lambda: np.asarray(primal_j(x, n)),
            "gradient": lambda: np.asarray(gradient_j(x, n))}


# ---------------------------------------------------------------- symgrad

def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg

    def llsq(x, n):
        t = -1 + sg.arange(n, dtype=x.dtype) * 2 / (n - 1)
        T = sg.vander(t, N=x.shape[0], increasing=True)
        r = sg.sign(t) - T @ x
        return 0.5 * (r * r).sum()

    primal_s, gradient_s = sg.compile(llsq), sg.grad(llsq)
    x, n = inp["x"], inp["n"]
    return {"primal": lambda: primal_s(x, n), "gradient": lambda: gradient_s(x, n)}
