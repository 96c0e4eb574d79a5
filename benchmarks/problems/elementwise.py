"""elementwise: sum(sin(x)*exp(-x*x) + tanh(x*y) + log1p(y*y)), float64, gradient w.r.t. x, y."""

from __future__ import annotations

import numpy as np

from . import Size

NAME = "elementwise"
DTYPE = "float64"
X64 = True
SIZES = [Size("N=1e3", {"n": 10 ** 3}, x=1e3),
         Size("N=1e5", {"n": 10 ** 5}, x=1e5),
         Size("N=1e7", {"n": 10 ** 7}, quick=False, x=1e7)]
TARGET = {s.label: "half_fastest" for s in SIZES}
GRAD_ARGS = (0, 1)
SKIP_QUICK: tuple = ()


def inputs(size: Size) -> list:
    rng = np.random.default_rng(3)
    n = size.params["n"]
    return [rng.uniform(-2, 2, n), rng.uniform(-2, 2, n)]


def numpy(args):
    def f(x, y):
        s, e, th = np.sin(x), np.exp(-x * x), np.tanh(x * y)
        y2 = y * y
        value = np.sum(s * e + th + np.log1p(y2))
        sech2 = 1 - th * th
        dx = (np.cos(x) - 2 * x * s) * e + y * sech2
        dy = x * sech2 + 2 * y / (1 + y2)
        return value, (dx, dy)
    return f


def symgrad(args):
    import symgrad as sg

    def elementwise(x, y):
        return sg.sum(sg.sin(x) * sg.exp(-x * x) + sg.tanh(x * y) + sg.log1p(y * y))
    return sg.value_and_grad(elementwise, argnums=(0, 1))


def torch(args):
    import torch

    def f(x, y):
        xt = torch.from_numpy(x).requires_grad_()
        yt = torch.from_numpy(y).requires_grad_()
        out = torch.sum(torch.sin(xt) * torch.exp(-xt * xt) + torch.tanh(xt * yt)
                        + torch.log1p(yt * yt))
        out.backward()
        return out.detach().numpy(), (xt.grad.numpy(), yt.grad.numpy())
    return f


def jax(args):
    import jax.numpy as jnp
    from systems import jax_value_and_grad

    def loss(x, y):
        return jnp.sum(jnp.sin(x) * jnp.exp(-x * x) + jnp.tanh(x * y) + jnp.log1p(y * y))
    return jax_value_and_grad(loss, (0, 1), X64)


def pytensor(args):
    import pytensor.tensor as pt
    from systems import pytensor_value_and_grad
    x, y = pt.vector("x", dtype="float64"), pt.vector("y", dtype="float64")
    cost = pt.sum(pt.sin(x) * pt.exp(-x * x) + pt.tanh(x * y) + pt.log1p(y * y))
    return pytensor_value_and_grad([x, y], cost, [x, y])


def casadi(args):
    import casadi as ca
    from systems import casadi_value_and_grad
    n = args[0].shape[0]
    x, y = ca.MX.sym("x", n), ca.MX.sym("y", n)
    cost = ca.sum1(ca.sin(x) * ca.exp(-x * x) + ca.tanh(x * y) + ca.log1p(y * y))
    return casadi_value_and_grad("elementwise", [x, y], cost, [x, y], [(n,), (n,)])
