"""nbody: sum over i < j of 1 / |r_i - r_j|, r (N, 3) float64, gradient w.r.t. r.

Array systems form all pairwise differences by broadcasting and keep the upper triangle with a
constant mask m (1 above the diagonal): where(m, 1/sqrt(d2 + (1 - m)), 0), so that the diagonal
never divides by zero. Each system holds m as a constant of its own kind (a NumPy array closed
over, a tensor, a PyTensor constant, a CasADi DM).
"""

from __future__ import annotations

import numpy as np

from . import Size

NAME = "nbody"
DTYPE = "float64"
X64 = True
SIZES = [Size("N=64", {"n": 64}, x=64),
         Size("N=512", {"n": 512}, quick=False, x=512)]
TARGET = {s.label: "half_fastest" for s in SIZES}
GRAD_ARGS = (0,)
SKIP_QUICK: tuple = ()


def inputs(size: Size) -> list:
    return [np.random.default_rng(5).standard_normal((size.params["n"], 3))]


def mask(n: int) -> np.ndarray:
    return np.triu(np.ones((n, n)), 1)


def numpy(args):
    """By hand: d/dr_i of 1/|r_i - r_j| is -(r_i - r_j)/|r_i - r_j|^3, so with the symmetric
    matrix w_ij = |r_i - r_j|^-3 (0 on the diagonal), grad_i = -(sum_j w_ij) r_i + (w @ r)_i."""
    def f(r):
        d = r[:, None, :] - r[None, :, :]
        d2 = np.einsum("ijk,ijk->ij", d, d)
        np.fill_diagonal(d2, 1.0)
        inv = 1 / np.sqrt(d2)
        np.fill_diagonal(inv, 0.0)
        value = inv.sum() / 2           # inv is exactly symmetric
        w = inv * inv * inv
        return value, (w @ r - w.sum(1)[:, None] * r,)
    return f


def symgrad(args):
    import symgrad as sg
    m = mask(args[0].shape[0])

    def nbody(r):
        d = r[:, None, :] - r[None, :, :]
        d2 = (d * d).sum(-1)
        return sg.where(m > 0, 1 / sg.sqrt(d2 + (1 - m)), 0.0).sum()
    return sg.value_and_grad(nbody, argnums=(0,))


def torch(args):
    import torch
    m = torch.from_numpy(mask(args[0].shape[0]))

    def f(r):
        rt = torch.from_numpy(r).requires_grad_()
        d = rt[:, None, :] - rt[None, :, :]
        d2 = (d * d).sum(-1)
        out = torch.where(m > 0, 1 / torch.sqrt(d2 + (1 - m)), 0.0).sum()
        out.backward()
        return out.detach().numpy(), (rt.grad.numpy(),)
    return f


def jax(args):
    import jax.numpy as jnp
    from systems import jax_value_and_grad
    m = mask(args[0].shape[0])

    def loss(r):
        d = r[:, None, :] - r[None, :, :]
        d2 = (d * d).sum(-1)
        return jnp.where(m > 0, 1 / jnp.sqrt(d2 + (1 - m)), 0.0).sum()
    return jax_value_and_grad(loss, (0,), X64)


def pytensor(args):
    import pytensor.tensor as pt
    from systems import pytensor_value_and_grad
    m = pt.constant(mask(args[0].shape[0]))
    r = pt.matrix("r", dtype="float64")
    d = r[:, None, :] - r[None, :, :]
    d2 = (d * d).sum(-1)
    cost = pt.switch(m > 0, 1 / pt.sqrt(d2 + (1 - m)), 0.0).sum()
    return pytensor_value_and_grad([r], cost, [r])


def casadi(args):
    """CasADi matrices are 2-D: r is the (3, N) column-major view, each coordinate's
    differences an N x N matrix."""
    import casadi as ca
    from systems import casadi_value_and_grad
    n = args[0].shape[0]
    m = ca.DM(mask(n))
    rT = ca.MX.sym("rT", 3, n)
    d2 = 0
    for c in range(3):
        row = rT[c, :]
        diff = ca.repmat(row.T, 1, n) - ca.repmat(row, n, 1)
        d2 = d2 + diff * diff
    cost = ca.sum1(ca.sum2(ca.if_else(m > 0, 1 / ca.sqrt(d2 + (1 - m)), 0)))
    return casadi_value_and_grad("nbody", [rT], cost, [rT], [(n, 3)])
