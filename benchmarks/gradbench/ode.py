"""GradBench ``ode``: a chain ODE integrated by Runge-Kutta (cmpad's ``an_ode``), and its
gradient.

The ODE, for y in R^n with parameters x in R^n: y_0' = x_0 and y_i' = x_i y_{i-1} for i > 0,
from y(0) = 0 to t = 2 in s classical RK4 steps of size h = 2 / s (k1 = f(y), k2 = f(y + h/2
k1), k3 = f(y + h/2 k2), k4 = f(y + h k3), y += h/6 (k1 + 2 k2 + 2 k3 + k4)). Functions:
``primal``, y(2) (n values); ``gradient``, the gradient of its last element y_{n-1}(2) with
respect to x (n values). s is an input, not differentiated.

Each system writes f(y) = x * (1, y_0, ..., y_{n-2}) as a concatenation, and the steps as its
loop: torch a Python ``for`` loop (eager, the tape grows with s), JAX ``lax.fori_loop`` with s
static (``static_argnums``; GradBench's JAX tool uses ``lax.scan``), symgrad ``sg.fori_loop``
with s a Python int of the function (static too: a scan). symgrad can also take s as a runtime
argument (one compile for every s: a while loop), but its gradient is then 3.7x slower at
n = 100000, s = 100 (325 ms against 88 ms).

Inputs: the eval's generator (``evals/ode/run.py``): ``np.random.seed(31337)``, then for each
(n, s) in order of n * s, x = ``np.random.rand(n)``. Its sizes are n in {1000, 10000, 100000}
and s in {1, 10, 100}. Default subset: (n, s) = (1000, 1), (10000, 10), (100000, 100);
``full``: all nine.
"""

from __future__ import annotations

import numpy as np

from . import replayed

NAME = "ode"
FUNCTIONS = ("primal", "gradient")

N = (1000, 10000, 100000)
S = (1, 10, 100)
TF = 2.0


def configs(full: bool) -> list[tuple[str, dict]]:
    pairs = [(n, s) for n in N for s in S] if full else list(zip(N, S))
    return [(f"n={n},s={s}", {"n": n, "s": s}) for n, s in pairs]


def inputs(n: int, s: int) -> dict:
    sizes = sorted(((a, b) for a in N for b in S), key=lambda v: v[0] * v[1])
    return {"x": replayed(sizes, lambda size: np.random.rand(size[0]), (n, s)), "s": s}


def rk4_step(f, y, h):
    """One classical Runge-Kutta step; only arithmetic, so every system's arrays fit."""
    k1 = f(y)
    k2 = f(y + h / 2 * k1)
    k3 = f(y + h / 2 * k2)
    k4 = f(y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


# ---------------------------------------------------------------- torch

def torch_impl(inp: dict) -> dict:
    import torch

    def ode(x, s):
        one = torch.ones(1, dtype=x.dtype)
        y = torch.zeros_like(x)
        for _ in range(s):
            y = rk4_step(lambda y: x * torch.cat([one, y[:-1]]), y, TF / s)
        return y

    s = inp["s"]

    def primal():
        return ode(torch.from_numpy(inp["x"]), s).numpy()

    def gradient():
        x = torch.from_numpy(inp["x"]).requires_grad_()
        (g,) = torch.autograd.grad(ode(x, s)[-1], x)
        return g.numpy()
    return {"primal": primal, "gradient": gradient}


# ---------------------------------------------------------------- JAX

def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp

    def ode(x, s):
        def f(y):
            return x * jnp.concatenate([jnp.ones(1, x.dtype), y[:-1]])
        return jax.lax.fori_loop(0, s, lambda i, y: rk4_step(f, y, TF / s), jnp.zeros_like(x))

    primal_j = jax.jit(ode, static_argnums=1)
    gradient_j = jax.jit(jax.grad(lambda x, s: ode(x, s)[-1]), static_argnums=1)
    x, s = inp["x"], inp["s"]
    return {"primal": lambda: np.asarray(primal_j(x, s)),
            "gradient": lambda: np.asarray(gradient_j(x, s))}


# ---------------------------------------------------------------- symgrad

def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg

    def ode(x, s):
        def f(y):
            return x * sg.cat([sg.ones(1, dtype=x.dtype), y[:-1]])
        return sg.fori_loop(0, s, lambda i, y: rk4_step(f, y, TF / s), sg.zeros_like(x))

    x, s = inp["x"], inp["s"]
    primal_s = sg.compile(lambda x: ode(x, s))
    gradient_s = sg.grad(lambda x: ode(x, s)[-1])
    return {"primal": lambda: primal_s(x), "gradient": lambda: gradient_s(x)}
