"""seed: mean(3 * (x + 2)**2), float32, gradient w.r.t. x (the first autograd tutorial)."""

from __future__ import annotations

import numpy as np

from . import Size

NAME = "seed"
DTYPE = "float32"
X64 = False
SIZES = [Size("(2,2)", {"shape": (2, 2)}, x=4),
         Size("(1000,1000)", {"shape": (1000, 1000)}, x=1e6)]
TARGET = {"(2,2)": "3us", "(1000,1000)": "half_fastest"}
GRAD_ARGS = (0,)
SKIP_QUICK: tuple = ()


def inputs(size: Size) -> list:
    rng = np.random.default_rng(0)
    return [rng.standard_normal(size.params["shape"]).astype(np.float32)]


def numpy(args):
    def f(x):
        u = x + np.float32(2)
        value = np.mean(np.float32(3) * u * u)
        return value, (u * np.float32(6 / x.size),)
    return f


def symgrad(args):
    import symgrad as sg

    def seed(x):
        return (3 * (x + 2) ** 2).mean()
    return sg.value_and_grad(seed, argnums=(0,))


def torch(args):
    import torch

    def f(x):
        xt = torch.from_numpy(x).requires_grad_()
        out = (3 * (xt + 2) ** 2).mean()
        out.backward()
        return out.detach().numpy(), (xt.grad.numpy(),)
    return f


def jax(args):
    from systems import jax_value_and_grad
    return jax_value_and_grad(lambda x: (3 * (x + 2) ** 2).mean(), (0,), X64)


def pytensor(args):
    import pytensor.tensor as pt
    from systems import pytensor_value_and_grad
    x = pt.matrix("x", dtype="float32")
    return pytensor_value_and_grad([x], (3 * (x + 2) ** 2).mean(), [x])


def casadi(args):
    import casadi as ca
    from systems import casadi_value_and_grad
    rows, cols = args[0].shape
    x = ca.MX.sym("x", cols, rows)                 # column-major view of the C-order array
    cost = ca.sum1(ca.sum2(3 * (x + 2) ** 2)) / (rows * cols)
    return casadi_value_and_grad("seed", [x], cost, [x], [args[0].shape])
