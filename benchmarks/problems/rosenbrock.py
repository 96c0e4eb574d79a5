"""rosenbrock: sum(100*(x[1:] - x[:-1]**2)**2 + (1 - x[:-1])**2), float64, gradient w.r.t. x."""

from __future__ import annotations

import numpy as np

from . import Size

NAME = "rosenbrock"
DTYPE = "float64"
X64 = True
SIZES = [Size("N=100", {"n": 100}, x=100),
         Size("N=1e6", {"n": 10 ** 6}, quick=False, x=1e6)]
TARGET = {"N=100": "3us", "N=1e6": "half_fastest"}
GRAD_ARGS = (0,)
SKIP_QUICK: tuple = ()


def inputs(size: Size) -> list:
    return [np.random.default_rng(4).uniform(-2, 2, size.params["n"])]


def numpy(args):
    def f(x):
        head = x[:-1]
        a = x[1:] - head * head
        b = 1 - head
        value = np.sum(100 * a * a + b * b)
        g = np.zeros_like(x)
        g[1:] = 200 * a
        g[:-1] -= 400 * head * a + 2 * b
        return value, (g,)
    return f


def symgrad(args):
    import symgrad as sg

    def rosenbrock(x):
        return sg.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    return sg.value_and_grad(rosenbrock, argnums=(0,))


def torch(args):
    import torch

    def f(x):
        xt = torch.from_numpy(x).requires_grad_()
        out = torch.sum(100 * (xt[1:] - xt[:-1] ** 2) ** 2 + (1 - xt[:-1]) ** 2)
        out.backward()
        return out.detach().numpy(), (xt.grad.numpy(),)
    return f


def jax(args):
    import jax.numpy as jnp
    from systems import jax_value_and_grad
    return jax_value_and_grad(
        lambda x: jnp.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2), (0,), X64)


def pytensor(args):
    import pytensor.tensor as pt
    from systems import pytensor_value_and_grad
    x = pt.vector("x", dtype="float64")
    cost = pt.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    return pytensor_value_and_grad([x], cost, [x])


def casadi(args):
    import casadi as ca
    from systems import casadi_value_and_grad
    n = args[0].shape[0]
    x = ca.MX.sym("x", n)
    cost = ca.sum1(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    return casadi_value_and_grad("rosenbrock", [x], cost, [x], [(n,)])
