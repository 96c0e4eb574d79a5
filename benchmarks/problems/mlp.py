"""mlp: 784-256-10 tanh MLP, softmax cross-entropy with int64 class targets, batch 256,
float32, gradient w.r.t. all weights and biases."""

from __future__ import annotations

import numpy as np

from . import Size

NAME = "mlp"
DTYPE = "float32"
X64 = False
SIZES = [Size("784-256-10, batch 256", {"batch": 256, "d": 784, "h": 256, "k": 10},
              x=256 * 784)]
TARGET = {"784-256-10, batch 256": "fastest"}
GRAD_ARGS = (0, 1, 2, 3)            # args: W1, b1, W2, b2, x, t
SKIP_QUICK = ("pytensor",)


def inputs(size: Size) -> list:
    p = size.params
    rng = np.random.default_rng(2)
    W1 = (rng.standard_normal((p["d"], p["h"])) / np.sqrt(p["d"])).astype(np.float32)
    b1 = (0.1 * rng.standard_normal(p["h"])).astype(np.float32)
    W2 = (rng.standard_normal((p["h"], p["k"])) / np.sqrt(p["h"])).astype(np.float32)
    b2 = (0.1 * rng.standard_normal(p["k"])).astype(np.float32)
    x = rng.random((p["batch"], p["d"])).astype(np.float32)
    t = rng.integers(0, p["k"], p["batch"]).astype(np.int64)
    return [W1, b1, W2, b2, x, t]


def numpy(args):
    def f(W1, b1, W2, b2, x, t):
        h = np.tanh(x @ W1 + b1)
        z = h @ W2 + b2
        zmax = z.max(1, keepdims=True)
        e = np.exp(z - zmax)
        s = e.sum(1, keepdims=True)
        rows = np.arange(len(t))
        value = np.mean(np.log(s[:, 0]) + zmax[:, 0] - z[rows, t])
        dz = e / s                              # softmax - onehot, over the batch
        dz[rows, t] -= 1
        dz /= np.float32(len(t))
        da = (dz @ W2.T) * (1 - h * h)
        return value, (x.T @ da, da.sum(0), h.T @ dz, dz.sum(0))
    return f


def symgrad(args):
    import symgrad as sg
    import symgrad.nn.functional as F

    def mlp(W1, b1, W2, b2, x, t):
        h = sg.tanh(x @ W1 + b1)
        return F.cross_entropy(h @ W2 + b2, t)
    return sg.value_and_grad(mlp, argnums=(0, 1, 2, 3))


def torch(args):
    import torch
    import torch.nn.functional as F

    def f(W1, b1, W2, b2, x, t):
        ps = [torch.from_numpy(p).requires_grad_() for p in (W1, b1, W2, b2)]
        h = torch.tanh(torch.from_numpy(x) @ ps[0] + ps[1])
        out = F.cross_entropy(h @ ps[2] + ps[3], torch.from_numpy(t))
        out.backward()
        return out.detach().numpy(), tuple(p.grad.numpy() for p in ps)
    return f


def jax(args):
    import jax
    import jax.numpy as jnp
    from systems import jax_value_and_grad

    def loss(W1, b1, W2, b2, x, t):
        z = jnp.tanh(x @ W1 + b1) @ W2 + b2
        logp = jax.nn.log_softmax(z, axis=1)
        return -jnp.mean(jnp.take_along_axis(logp, t[:, None], axis=1))
    return jax_value_and_grad(loss, (0, 1, 2, 3), X64)


def pytensor(args):
    import pytensor.tensor as pt
    from pytensor.tensor.special import log_softmax
    from systems import pytensor_value_and_grad
    W1, W2, x = (pt.matrix(n, dtype="float32") for n in ("W1", "W2", "x"))
    b1, b2 = (pt.vector(n, dtype="float32") for n in ("b1", "b2"))
    t = pt.vector("t", dtype="int64")
    z = pt.tanh(x @ W1 + b1) @ W2 + b2
    cost = -pt.mean(log_softmax(z, axis=1)[pt.arange(t.shape[0]), t])
    return pytensor_value_and_grad([W1, b1, W2, b2, x, t], cost, [W1, b1, W2, b2])


def casadi(args):
    """Transposed (column-major) layout; the targets become a one-hot matrix per call (CasADi
    has no gather) and log-sum-exp is taken without the max shift (no overflow here)."""
    import casadi as ca
    from systems import casadi_value_and_grad
    W1, b1, W2, b2, x, _ = args
    (B, d), h, k = x.shape, W1.shape[1], W2.shape[1]
    W1T, W2T = ca.MX.sym("W1T", h, d), ca.MX.sym("W2T", k, h)
    b1s, b2s = ca.MX.sym("b1", h), ca.MX.sym("b2", k)
    xT, onehotT = ca.MX.sym("xT", d, B), ca.MX.sym("onehotT", k, B)
    zT = ca.mtimes(W2T, ca.tanh(ca.mtimes(W1T, xT) + ca.repmat(b1s, 1, B))) + ca.repmat(b2s, 1, B)
    cost = (ca.sum2(ca.log(ca.sum1(ca.exp(zT)))) - ca.sum1(ca.sum2(zT * onehotT))) / B
    eye = np.eye(k)

    def prepare(W1, b1, W2, b2, x, t):
        return W1, b1, W2, b2, x, eye[t]
    return casadi_value_and_grad("mlp", [W1T, b1s, W2T, b2s, xT, onehotT], cost,
                                 [W1T, b1s, W2T, b2s],
                                 [W1.shape, b1.shape, W2.shape, b2.shape], prepare)
