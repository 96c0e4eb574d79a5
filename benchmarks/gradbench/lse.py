"""GradBench ``lse``: LogSumExp of a vector and its gradient.

Functions: ``primal``, LSE(x) = a + log(sum_i exp(x_i - a)) with a = max(x) (the shifted form
that cannot overflow), a scalar; ``gradient``, its gradient with respect to x (the softmax of
x), a vector of x's size. As the eval asks, LSE is written from its parts (a max, a sum of
exponentials, a log), not a library ``logsumexp`` with a hand-written derivative; the
gradient is each system's reverse mode of that expression.

Inputs: the eval's generator (``evals/lse/run.py``): ``np.random.seed(31337)``, then for each
size in turn x = ``np.random.rand(n)`` (uniform on [0, 1)), so a size's x depends on the sizes
drawn before it; ``inputs`` replays the stream. The eval's sizes are n = 2500 * 2^j, j = 0..9
(2,500 to 1,280,000). Default subset: n = 5,000, 160,000 and 1,280,000; ``full``: all ten.
"""

from __future__ import annotations

import numpy as np

from . import replayed

NAME = "lse"
FUNCTIONS = ("primal", "gradient")

SIZES = tuple(2500 * 2 ** j for j in range(10))
# The gradient's entry at the maximum carries 1 - sum(softmax), zero but for rounding: one ulp
# of 1 (1.1e-16) there is n * 1.1e-16 relative to the gradient's scale 1/n (1.4e-10 at the
# largest n), whichever way each system rounds the sum; within the default 1e-8.


def configs(full: bool) -> list[tuple[str, dict]]:
    sizes = SIZES if full else (5000, 160000, 1280000)
    return [(f"n={n}", {"n": n}) for n in sizes]


def inputs(n: int) -> dict:
    return {"x": replayed(SIZES, np.random.rand, n)}


# ---------------------------------------------------------------- torch

def torch_impl(inp: dict) -> dict:
    import torch

    def lse(x):
        a = x.max()
        return a + torch.log(torch.exp(x - a).sum())

    def primal():
        return lse(torch.from_numpy(inp["x"])).numpy()

    def gradient():
        x = torch.from_numpy(inp["x"]).requires_grad_()
        (g,) = torch.autograd.grad(lse(x), x)
        return g.numpy()
    return {"primal": primal, "gradient": gradient}


# ---------------------------------------------------------------- JAX

def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp

    def lse(x):
        a = jnp.max(x)
        return a + jnp.log(jnp.sum(jnp.exp(x - a)))

    primal_j, gradient_j = jax.jit(lse), jax.jit(jax.grad(lse))
    x = inp["x"]
    return {"primal": lambda: np.asarray(primal_j(x)),
            "gradient": lambda: np.asarray(gradient_j(x))}


# ---------------------------------------------------------------- symgrad

def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg

    def lse(x):
        a = x.max()
        return a + sg.log(sg.exp(x - a).sum())

    primal_s, gradient_s = sg.compile(lse), sg.grad(lse)
    x = inp["x"]
    return {"primal": lambda: primal_s(x), "gradient": lambda: gradient_s(x)}
