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
