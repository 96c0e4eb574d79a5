"""symgrad.linalg on complex matrices: gradients of real losses against central finite
differences in the real and imaginary parts (torch's convention: dL/dRe + i dL/dIm, so no torch
is needed), complex second derivatives of a solve against torch, and the compiled behaviour
(compiled gradients and second derivatives equal eager ones, complex64 too).

The sweep (tests/sweep) compares values and first gradients with torch sample by sample; this
file checks what it does not: the convention itself, independently of torch."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(11)
N = 3
Z0 = RNG.standard_normal((N, N)) + 1j * RNG.standard_normal((N, N))
B0 = RNG.standard_normal((N, 2)) + 1j * RNG.standard_normal((N, 2))
W = RNG.standard_normal((N, N)) + 1j * RNG.standard_normal((N, N))   # loss weights


def _hpd(z):
    return z @ z.mH + N * sg.eye(N, dtype=sg.complex128)


def _weighted(x):
    """A real loss of a complex (or real) tensor that depends on every part of it."""
    w = sg.tensor(W[:x.shape[-2], :x.shape[-1]] if x.ndim >= 2 else W[0, :x.shape[-1]])
    return (x * w).real.sum() + (x.abs() ** 2).sum() * 0.25 if x.dtype.is_complex else \
        (x * w.real).sum() + (x * x).sum() * 0.25


LOSSES = {
    "solve": lambda z: _weighted(sg.linalg.solve(z, sg.tensor(B0))),
    "solve_left_false": lambda z: _weighted(sg.linalg.solve(z, sg.tensor(B0.T), left=False)),
    "inv": lambda z: _weighted(sg.linalg.inv(z)),
    "det": lambda z: _weighted(sg.linalg.det(z)[None]),
    "slogdet_sign": lambda z: _weighted(sg.linalg.slogdet(z).sign[None]),
    "slogdet_logabs": lambda z: _weighted(sg.linalg.slogdet(z).logabsdet[None]),
    "cholesky": lambda z: _weighted(sg.linalg.cholesky(_hpd(z))),
    "cholesky_upper": lambda z: _weighted(sg.linalg.cholesky(_hpd(z), upper=True)),
    "qr_r": lambda z: _weighted(sg.linalg.qr(z).R),
    "qr_q_abs": lambda z: _weighted(sg.linalg.qr(z).Q.abs()),
    "eigvalsh": lambda z: _weighted(sg.linalg.eigvalsh(_hpd(z))),
    "solve_triangular": lambda z: _weighted(sg.linalg.solve_triangular(
        z + 4 * sg.eye(N, dtype=sg.complex128), sg.tensor(B0), upper=False)),
    "cholesky_solve": lambda z: _weighted(sg.cholesky_solve(
        sg.tensor(B0), sg.linalg.cholesky(_hpd(z)))),
    "pinv": lambda z: _weighted(sg.linalg.pinv(z)),
    "matrix_norm_nuc": lambda z: sg.linalg.matrix_norm(z, "nuc"),
    "lstsq": lambda z: _weighted(sg.linalg.lstsq(sg.cat([z, z.mT * 0.5]), sg.tensor(
        np.vstack([B0, B0 * 1j]))).solution),
}


def _value(loss, z: np.ndarray) -> float:
    with sg.no_grad():
        return float(loss(sg.tensor(z)).item())


def _central(loss, z: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """dL/dRe + i dL/dIm by central differences."""
    out = np.zeros_like(z)
    for i in np.ndindex(z.shape):
        for step in (1.0, 1j):
            e = np.zeros_like(z)
            e[i] = step * h
            out[i] += step * (_value(loss, z + e) - _value(loss, z - e)) / (2 * h)
    return out


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradient_matches_central_differences(name):
    loss = LOSSES[name]
    z = sg.tensor(Z0, requires_grad=True)
    loss(z).backward()
    np.testing.assert_allclose(z.grad.numpy(), _central(loss, Z0), rtol=1e-6, atol=1e-7)


def test_the_real_loss_of_a_complex_solve_splits_into_its_parts():
    """The gradient of Re(sum(X)) for X = A^-1 B: its real and imaginary parts are the
    derivatives along Re(A) and Im(A) (torch's convention, not their conjugate), and it is
    -A^-H 1 X^H (1: ones)."""
    loss = lambda z: sg.linalg.solve(z, sg.tensor(B0)).real.sum()
    z = sg.tensor(Z0, requires_grad=True)
    loss(z).backward()
    g = z.grad.numpy()
    numeric = _central(loss, Z0)
    np.testing.assert_allclose(g.real, numeric.real, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(g.imag, numeric.imag, rtol=1e-6, atol=1e-7)
    a_inv_h = np.linalg.inv(Z0).conj().T
    x = np.linalg.solve(Z0, B0)
    np.testing.assert_allclose(g, -a_inv_h @ np.ones((N, 2)) @ x.conj().T, rtol=1e-10)


def test_second_derivative_of_a_complex_solve_matches_torch():
    torch = pytest.importorskip("torch")
    grads = []
    for m in (sg, torch):
        z = m.tensor(Z0, requires_grad=True)
        x = m.linalg.solve(z, m.tensor(B0))
        (g,) = m.autograd.grad((x * x.conj()).real.sum(), z, create_graph=True)
        (h,) = m.autograd.grad((g * m.tensor(W)).real.sum(), z)
        grads.append(h.detach().numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-9, atol=1e-12)


def test_eigh_of_a_phase_dependent_loss_raises_torchs_error():
    z = sg.tensor(Z0, requires_grad=True)
    vectors = sg.linalg.eigh(_hpd(z)).eigenvectors
    with pytest.raises(RuntimeError, match="specified up to multiplication by e\\^\\{i phi\\}"):
        vectors.real.sum().backward()


def _total(z):
    return sum(loss(z) for loss in LOSSES.values())


def test_compiled_gradients_equal_eager():
    """One compiled program (compiling costs seconds): the gradient of every loss's sum,
    through the complex C kernels (LU, Cholesky, triangular solve, Householder, Jacobi)."""
    z = sg.tensor(Z0, requires_grad=True)
    _total(z).backward()
    compiled = np.asarray(sg.compile(sg.grad(_total))(sg.tensor(Z0)))
    np.testing.assert_allclose(compiled, z.grad.numpy(), rtol=1e-10, atol=1e-12)


TWICE = ("solve", "det", "cholesky", "qr_r", "eigvalsh")


def test_compiled_second_derivatives_equal_eager():
    """d/dz <grad L(z), U>, L the sum of the TWICE losses: compiled and eager."""
    u = sg.tensor(W.conj())
    loss = lambda z: sum(LOSSES[name](z) for name in TWICE)
    z = sg.tensor(Z0, requires_grad=True)
    (g,) = sg.autograd.grad(loss(z), z, create_graph=True)
    (want,) = sg.autograd.grad((g * u).real.sum(), z)
    hvp = sg.compile(sg.grad(lambda z: (sg.grad(loss)(z) * u).real.sum()))
    np.testing.assert_allclose(np.asarray(hvp(sg.tensor(Z0))), want.numpy(), rtol=1e-9,
                               atol=1e-10)


def _single(z):
    """A real loss through every complex kernel, its constants in z's dtype."""
    b, eye = sg.tensor(B0).to(z.dtype), sg.eye(N, dtype=z.dtype)
    h = z @ z.mH + N * eye
    return (sg.linalg.solve(z, b).abs() ** 2).sum() + sg.linalg.det(z).abs() \
        + sg.linalg.slogdet(z).logabsdet + sg.linalg.qr(z).R.abs().sum() \
        + sg.linalg.eigvalsh(h).sum() + sg.linalg.cholesky(h).real.sum() \
        + sg.linalg.solve_triangular(z + 4 * eye, b, upper=True).imag.sum() \
        + sg.linalg.svdvals(z).sum()


def test_compiled_complex64_follows_complex128():
    f = sg.compile(sg.grad(_single))
    low = np.asarray(f(sg.tensor(Z0, dtype=sg.complex64)))
    assert low.dtype == np.complex64
    np.testing.assert_allclose(low, np.asarray(f(sg.tensor(Z0))), rtol=2e-4, atol=2e-4)
    z = sg.tensor(Z0, requires_grad=True)
    _single(z).backward()
    np.testing.assert_allclose(np.asarray(f(sg.tensor(Z0))), z.grad.numpy(), rtol=1e-10)


def test_compiled_complex_matrix_power_and_frobenius_norm_match_numpy():
    f = sg.compile(lambda z: sg.linalg.matrix_power(z, 3) * sg.linalg.matrix_norm(z))
    out = np.asarray(f(sg.tensor(Z0)))
    np.testing.assert_allclose(out, np.linalg.matrix_power(Z0, 3) * np.linalg.norm(Z0),
                               rtol=1e-12)
