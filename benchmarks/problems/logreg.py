"""logreg: mean binary cross-entropy with logits of x @ w + b, float32, gradient w.r.t. w, b."""

from __future__ import annotations

import numpy as np

from . import Size

NAME = "logreg"
DTYPE = "float32"
X64 = False
SIZES = [Size("(1,5), 3 out", {"n": 1, "d": 5, "k": 3}, x=15),
         Size("(1024,256), 10 out", {"n": 1024, "d": 256, "k": 10}, x=1024 * 256)]
TARGET = {"(1,5), 3 out": "3us", "(1024,256), 10 out": "fastest"}
GRAD_ARGS = (0, 1)                  # args: w, b, x, y
SKIP_QUICK: tuple = ()


def inputs(size: Size) -> list:
    n, d, k = size.params["n"], size.params["d"], size.params["k"]
    rng = np.random.default_rng(1)
    x = rng.standard_normal((n, d)).astype(np.float32)
    y = (rng.random((n, k)) > 0.5).astype(np.float32)
    w = (rng.standard_normal((d, k)) / np.sqrt(d)).astype(np.float32)
    b = rng.standard_normal(k).astype(np.float32)
    return [w, b, x, y]


def numpy(args):
    def f(w, b, x, y):
        z = x @ w + b
        value = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
        g = (1 / (1 + np.exp(-z)) - y) / np.float32(z.size)
        return value, (x.T @ g, g.sum(0))
    return f


def symgrad(args):
    import symgrad as sg
    import symgrad.nn.functional as F

    def logreg(w, b, x, y):
        return F.binary_cross_entropy_with_logits(x @ w + b, y)
    return sg.value_and_grad(logreg, argnums=(0, 1))


def torch(args):
    import torch
    import torch.nn.functional as F

    def f(w, b, x, y):
        wt = torch.from_numpy(w).requires_grad_()
        bt = torch.from_numpy(b).requires_grad_()
        out = F.binary_cross_entropy_with_logits(torch.from_numpy(x) @ wt + bt,
                                                 torch.from_numpy(y))
        out.backward()
        return out.detach().numpy(), (wt.grad.numpy(), bt.grad.numpy())
    return f


def jax(args):
    import jax.numpy as jnp
    from systems import jax_value_and_grad

    def loss(w, b, x, y):
        z = x @ w + b
        return jnp.mean(jnp.maximum(z, 0) - z * y + jnp.log1p(jnp.exp(-jnp.abs(z))))
    return jax_value_and_grad(loss, (0, 1), X64)


def pytensor(args):
    import pytensor.tensor as pt
    from systems import pytensor_value_and_grad
    w, x, y = (pt.matrix(n, dtype="float32") for n in "wxy")
    b = pt.vector("b", dtype="float32")
    z = x @ w + b
    cost = pt.mean(pt.maximum(z, 0) - z * y + pt.log1p(pt.exp(-abs(z))))
    return pytensor_value_and_grad([w, b, x, y], cost, [w, b])


def casadi(args):
    import casadi as ca
    from systems import casadi_value_and_grad
    w, b, x, _ = args
    (n, d), k = x.shape, w.shape[1]
    wT, xT, yT = ca.MX.sym("wT", k, d), ca.MX.sym("xT", d, n), ca.MX.sym("yT", k, n)
    bs = ca.MX.sym("b", k)
    zT = ca.mtimes(wT, xT) + ca.repmat(bs, 1, n)
    cost = ca.sum1(ca.sum2(ca.fmax(zT, 0) - zT * yT + ca.log1p(ca.exp(-ca.fabs(zT))))) / (n * k)
    return casadi_value_and_grad("logreg", [wT, bs, xT, yT], cost, [wT, bs], [w.shape, b.shape])
