"""Test problems shared by several test files, each with its hand-derived NumPy oracle."""

import numpy as np

import symgrad as sg


def elementwise(x, y):
    """The elementwise problem: one fused loop for its value and both gradients."""
    return sg.sum(sg.sin(x) * sg.exp(-x * x) + sg.tanh(x * y) + sg.log1p(y * y))


def elementwise_numpy(x, y):
    """Hand-derived value and gradients (d/dx, d/dy) of ``elementwise``."""
    s, e, th = np.sin(x), np.exp(-x * x), np.tanh(x * y)
    value = np.sum(s * e + th + np.log1p(y * y))
    sech2 = 1 - th * th
    dx = (np.cos(x) - 2 * x * s) * e + y * sech2
    dy = x * sech2 + 2 * y / (1 + y * y)
    return value, dx, dy


def rosenbrock(x):
    """Rosenbrock's function (tensors or arrays)."""
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def rosenbrock_hessian(x: np.ndarray) -> np.ndarray:
    """By hand: f = sum_i 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2, tridiagonal."""
    n = len(x)
    h = np.zeros((n, n))
    i = np.arange(n - 1)
    h[i, i] += 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    h[i + 1, i + 1] += 200
    h[i, i + 1] = h[i + 1, i] = -400 * x[:-1]
    return h


def chain_ode_step(x, y, h, cat, ones):
    """One RK4 step of GradBench's chain ODE, y_0' = x_0, y_i' = x_i y_{i-1}, of tensors
    (``sg.cat``, ``sg.ones``) or arrays (``np.concatenate``, ``np.ones``): each stage reads
    the one before it shifted by one element, ``x * cat([1, s[:-1]])``."""
    def f(v):
        return x * cat([ones(1), v[:-1]])
    k1 = f(y)
    k2 = f(y + h / 2 * k1)
    k3 = f(y + h / 2 * k2)
    k4 = f(y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def chain_ode(x, steps: int, h: float):
    """``steps`` of ``chain_ode_step`` from y = 0 in a ``fori_loop`` (tensors)."""
    ones = lambda n: sg.ones(n, dtype=x.dtype)    # noqa: E731
    return sg.fori_loop(0, steps, lambda i, y: chain_ode_step(x, y, h, sg.cat, ones),
                        sg.zeros_like(x))


def chain_ode_numpy(x: np.ndarray, steps: int, h: float, y=None) -> np.ndarray:
    """``chain_ode`` in NumPy (from ``y``, zeros unless given)."""
    y = np.zeros_like(x) if y is None else y
    for _ in range(steps):
        y = chain_ode_step(x, y, h, np.concatenate, np.ones)
    return y


def central_differences(f, x0: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """The gradient of the scalar ``f(tensor)`` at the float64 array ``x0``, by central
    differences (the independent oracle for gradients)."""
    fd = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        d = np.zeros_like(x0)
        d[i] = eps
        fd[i] = (f(sg.tensor(x0 + d)).item() - f(sg.tensor(x0 - d)).item()) / (2 * eps)
    return fd


def gradient(f, x0: np.ndarray, how: str) -> np.ndarray:
    """The gradient of the scalar ``f(tensor)`` at ``x0`` as symgrad computes it: eagerly
    (``backward``) or compiled (``symgrad.grad``)."""
    if how == "compiled":
        return np.asarray(sg.grad(f)(sg.tensor(x0)))
    x = sg.tensor(x0, requires_grad=True)
    f(x).backward()
    return x.grad.numpy()


def det_by_minors(n):
    """GradBench's det layout: the cofactor determinant of a flat n*n vector, entries read one
    by one; every minor is recomputed once per path down to it (n! leaf reads on the tape,
    2**n distinct minors)."""
    def det(x):
        def minor(i, cols):
            if len(cols) == 1:
                return x[i * n + cols[0]]
            total = None
            for k, j in enumerate(cols):
                term = x[i * n + j] * minor(i + 1, cols[:k] + cols[k + 1:])
                total = term if total is None else (total + term if k % 2 == 0 else total - term)
            return total
        return minor(0, tuple(range(n)))
    return det


def outputs_in_fresh_interpreters(code: str, *argv: str) -> set:
    """The distinct standard outputs of ``python -c code *argv`` run under two string-hash
    seeds: one element when the output does not depend on the order of dicts and sets."""
    import os
    import subprocess
    import sys
    texts = set()
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        texts.add(subprocess.run([sys.executable, "-c", code, *argv], env=env,
                                 capture_output=True, text=True, check=True).stdout)
    return texts


def by_hand(p, steps, step, partials, doubled=None):
    """Value and gradient of ``x_N ** 2`` where ``x_0 = p[0]``, ``x_{k+1} = step(k, x_k)``, by
    a hand-written adjoint: ``partials(k, x)`` is ``(d step / d x, {i: d step / d p[i]})``;
    ``doubled``: the step after which a hook doubles the gradient."""
    xs, x = [], p[0]
    for k in range(steps):
        xs.append(x)
        x = step(k, x)
    value, gx, gp = x * x, 2 * x, np.zeros(len(p))
    for k in reversed(range(steps)):
        if k == doubled:
            gx = 2 * gx
        dx, dp = partials(k, xs[k])
        for i, d in dp.items():
            gp[i] += gx * d
        gx = gx * dx
    gp[0] += gx
    return value, gp


class StraightThrough(sg.autograd.Function):
    """sin forward, the identity's gradient backward (a straight-through estimator): a rule of
    the user's that no graph node carries."""

    @staticmethod
    def forward(ctx, x):
        return sg.sin(x)

    @staticmethod
    def backward(ctx, g):
        return g
