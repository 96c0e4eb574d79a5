"""linalg.svd, matrix_exp, the LU family, eig and householder_product beyond what the sweep
checks: gradients against float64 central differences (torch-free), the SVD's gradient under
losses that do not depend on the singular vectors' signs (the sweep leaves U and V to section
(a): their signs are LAPACK's), matrix_exp against an independent oracle (V exp(w) V^T of a
symmetric matrix) on every branch of its degree choice, and ``symgrad.compile``: the composed
ops and the SVD (by eigh) compile, the other LAPACK-backed ones raise an error naming
themselves.
"""

from __future__ import annotations

import numpy as np
import pytest

import symgrad

RNG = np.random.default_rng(7)


def _fd_grad(loss, a: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central differences of the scalar ``loss`` (on NumPy arrays) at ``a``."""
    out = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[i] += h
        down[i] -= h
        out[i] = (loss(up) - loss(down)) / (2 * h)
    return out


def _grad(fn, a: np.ndarray) -> np.ndarray:
    x = symgrad.tensor(a, requires_grad=True)
    fn(x).backward()
    return x.grad.numpy()


def _svd_loss(x, full: bool = False):
    """A loss of U, S, Vh that flipping a singular pair's sign leaves alone."""
    u, s, vh = symgrad.linalg.svd(x, full_matrices=full)
    k = s.shape[-1]
    d = symgrad.tensor(np.linspace(0.5, 1.5, k))
    recon = (u[..., :k] * d) @ vh[..., :k, :]
    w = symgrad.tensor(np.arange(recon.numel(), dtype=np.float64).reshape(tuple(recon.shape)))
    return (recon * w).sum() + (s * symgrad.tensor(np.arange(1.0, k + 1))).sum() + \
        ((u * u) * 0.3).sum()


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 5), (2, 3, 4)])
@pytest.mark.parametrize("full", [False, True])
def test_svd_gradient_matches_finite_differences(shape, full):
    a = RNG.standard_normal(shape)
    got = _grad(lambda x: _svd_loss(x, full), a)
    want = _fd_grad(lambda v: float(_svd_loss(symgrad.tensor(v), full).numpy()), a)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5)])
def test_svd_reconstructs_and_matches_torch_gradient(shape):
    a = RNG.standard_normal(shape)
    u, s, vh = (t.numpy() for t in symgrad.linalg.svd(symgrad.tensor(a), full_matrices=False))
    np.testing.assert_allclose((u * s) @ vh, a, atol=1e-13)
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), atol=1e-13)
    torch = pytest.importorskip("torch")
    x = torch.tensor(a, requires_grad=True)
    tu, ts, tvh = torch.linalg.svd(x, full_matrices=False)
    k = ts.shape[-1]
    d = torch.tensor(np.linspace(0.5, 1.5, k))
    recon = (tu * d) @ tvh
    w = torch.tensor(np.arange(recon.numel(), dtype=np.float64).reshape(tuple(recon.shape)))
    ((recon * w).sum() + (ts * torch.arange(1.0, k + 1, dtype=torch.float64)).sum()
     + ((tu * tu) * 0.3).sum()).backward()
    np.testing.assert_allclose(_grad(_svd_loss, a), x.grad.numpy(), atol=1e-12)


@pytest.mark.parametrize("norm", [1e-17, 1e-9, 1e-5, 0.03, 0.2, 0.9, 4.0, 40.0])
def test_matrix_exp_every_degree_against_eigen_oracle(norm):
    b = RNG.standard_normal((4, 4))
    a = b + b.T
    a *= norm / np.abs(a).sum(0).max()
    w, v = np.linalg.eigh(a)
    want = (v * np.exp(w)) @ v.T
    got = symgrad.linalg.matrix_exp(symgrad.tensor(a)).numpy()
    # torch's degree-8 polynomial is the least accurate (errors of 4e-12 at norm 0.03): so is
    # this one, which matches torch's bit for bit there
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-11 if 3e-4 < norm < 0.05 else 1e-15)


def test_matrix_exp_batch_and_gradient():
    b = RNG.standard_normal((3, 3, 3))
    a = (b + b.mT) * np.array([0.01, 0.5, 3.0])[:, None, None]
    got = symgrad.matrix_exp(symgrad.tensor(a)).numpy()
    for i in range(3):   # a batch takes degree 18 with scaling for every matrix: accurate
        w, v = np.linalg.eigh(a[i])
        np.testing.assert_allclose(got[i], (v * np.exp(w)) @ v.T, rtol=1e-13, atol=1e-15)
    w = RNG.standard_normal((3, 3))
    loss = lambda x: (symgrad.linalg.matrix_exp(x) * symgrad.tensor(w)).sum()
    b = a[2]
    np.testing.assert_allclose(_grad(loss, b), _fd_grad(lambda v: float(loss(
        symgrad.tensor(v)).numpy()), b), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4)])
def test_lu_reconstructs_and_gradient(shape):
    a = RNG.standard_normal(shape)
    p, ell, u = (t.numpy() for t in symgrad.linalg.lu(symgrad.tensor(a)))
    np.testing.assert_allclose(p @ ell @ u, a, atol=1e-14)
    assert np.all(np.abs(np.tril(ell, -1)) <= 1.0)   # partial pivoting
    w1, w2 = RNG.standard_normal(ell.shape), RNG.standard_normal(u.shape)

    def loss(x):
        _, lo, up = symgrad.linalg.lu(x)
        return (lo * symgrad.tensor(w1)).sum() + (up * symgrad.tensor(w2)).sum()
    np.testing.assert_allclose(_grad(loss, a), _fd_grad(lambda v: float(loss(
        symgrad.tensor(v)).numpy()), a), rtol=1e-6, atol=1e-7)


def test_lu_factor_solve_and_singular_info():
    a, b = RNG.standard_normal((3, 3)), RNG.standard_normal((3, 2))
    lu, piv = symgrad.linalg.lu_factor(symgrad.tensor(a))
    x = symgrad.linalg.lu_solve(lu, piv, symgrad.tensor(b)).numpy()
    np.testing.assert_allclose(a @ x, b, atol=1e-13)
    xt = symgrad.linalg.lu_solve(lu, piv, symgrad.tensor(b), adjoint=True).numpy()
    np.testing.assert_allclose(a.T @ xt, b, atol=1e-13)
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    _, _, info = symgrad.linalg.lu_factor_ex(symgrad.tensor(singular))
    assert int(info) == 2
    with pytest.raises(RuntimeError, match=r"U\[2,2\] is zero"):
        symgrad.linalg.lu_factor(symgrad.tensor(singular))


def test_eig_and_eigvals_gradient():
    a = RNG.standard_normal((4, 4))
    lam, v = (t.numpy() for t in symgrad.linalg.eig(symgrad.tensor(a)))
    np.testing.assert_allclose(a @ v, v * lam, atol=1e-12)

    def loss(x):
        e = symgrad.linalg.eigvals(x)
        return (e.real * symgrad.tensor([1.0, 2.0, 3.0, 4.0])).sum() + (e.imag * 0.5).sum()
    np.testing.assert_allclose(_grad(loss, a), _fd_grad(lambda m: float(loss(
        symgrad.tensor(m)).numpy()), a), rtol=1e-5, atol=1e-6)


def test_householder_product_compiles_and_lapack_ops_name_themselves():
    a, tau = RNG.standard_normal((4, 3)), RNG.random(3)
    eager = symgrad.linalg.householder_product(symgrad.tensor(a), symgrad.tensor(tau)).numpy()
    compiled = symgrad.compile(symgrad.linalg.householder_product)
    np.testing.assert_allclose(np.asarray(compiled(symgrad.tensor(a), symgrad.tensor(tau))),
                               eager, atol=1e-14)
    q = np.eye(4)[:, :3]
    for i in (2, 1, 0):   # the oracle: H_0 H_1 H_2 applied to the first columns of I
        v = np.concatenate([np.zeros(i), [1.0], a[i + 1:, i]])
        q = q - tau[i] * np.outer(v, v @ q)
    np.testing.assert_allclose(eager, q, atol=1e-14)
    for fn, name in ((lambda x: symgrad.linalg.svd(x[:2]), "linalg.svd"),
                     (symgrad.matrix_exp, "matrix_exp"),
                     (symgrad.linalg.lu_factor, "linalg.lu_factor"),
                     (symgrad.linalg.eig, "linalg.eig")):
        with pytest.raises(Exception, match=name):
            symgrad.compile(fn)(symgrad.tensor(RNG.standard_normal((3, 3))))


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 5), (2, 3, 4)])
def test_svd_compiles_with_its_gradient(shape):
    """Compiled, U S Vh come from the eigh primitive: a sign-invariant loss and its gradient
    agree with the eager (LAPACK) ones."""
    a = RNG.standard_normal(shape)
    value = np.asarray(symgrad.compile(_svd_loss)(symgrad.tensor(a)))
    np.testing.assert_allclose(value, _svd_loss(symgrad.tensor(a)).numpy(), rtol=1e-12)
    grad = np.asarray(symgrad.compile(symgrad.grad(_svd_loss))(symgrad.tensor(a)))
    np.testing.assert_allclose(grad, _grad(_svd_loss, a), rtol=1e-10, atol=1e-12)


def test_ldl_two_by_two_pivots_and_solve():
    """A 2x2 Bunch-Kaufman block (the sweep's samples have 1x1 pivots only): torch's
    factor, stored, and solves against NumPy's."""
    a = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]])
    ld, piv = symgrad.linalg.ldl_factor(symgrad.tensor(a))
    np.testing.assert_array_equal(ld.numpy(), [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0],
                                               [1.5, 0.5, -3.0]])   # torch 2.13's
    np.testing.assert_array_equal(piv.numpy(), [-3, -3, 3])
    b = RNG.standard_normal((3, 2))
    np.testing.assert_allclose(symgrad.linalg.ldl_solve(ld, piv, symgrad.tensor(b)).numpy(),
                               np.linalg.solve(a, b), atol=1e-14)
    for n in (4, 5, 6):
        m = RNG.standard_normal((n, n))
        m = m + m.T
        m[np.diag_indices(n)] *= 0.01   # small diagonals: 2x2 blocks
        ld, piv = symgrad.linalg.ldl_factor(symgrad.tensor(m))
        b = RNG.standard_normal((n, 3))
        np.testing.assert_allclose(symgrad.linalg.ldl_solve(ld, piv, symgrad.tensor(b)).numpy(),
                                   np.linalg.solve(m, b), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 5)])
def test_complex_svd_phase_invariant_gradient_and_phase_error(shape):
    a = RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)
    u, s, vh = (t.numpy() for t in symgrad.linalg.svd(symgrad.tensor(a), full_matrices=False))
    np.testing.assert_allclose((u * s) @ vh, a, atol=1e-13)

    def loss(lib, x):
        u, s, vh = lib.linalg.svd(x, full_matrices=False)
        w = lib.tensor(np.arange(u.numel()).reshape(tuple(u.shape)) * 0.1)
        return ((u.real ** 2 + u.imag ** 2) * w).sum() + (s * s).sum() + \
            ((u * s.to(u.dtype)) @ vh).real.sum()
    x = symgrad.tensor(a, requires_grad=True)
    loss(symgrad, x).backward()
    y = symgrad.tensor(a, requires_grad=True)   # a loss of U's phase: torch's error
    with pytest.raises(RuntimeError, match="svd_backward: The singular vectors in the complex"):
        symgrad.linalg.svd(y)[0].real.sum().backward()
    torch = pytest.importorskip("torch")
    t = torch.tensor(a, requires_grad=True)
    loss(torch, t).backward()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), atol=1e-12)


def test_householder_product_gradient_torch_formula_against_finite_differences():
    a, tau = RNG.standard_normal((5, 3)), RNG.random(2)
    w = RNG.standard_normal((5, 3))

    def loss_a(m):
        return (symgrad.linalg.householder_product(m, symgrad.tensor(tau)) *
                symgrad.tensor(w)).sum()

    def loss_t(t):
        return (symgrad.linalg.householder_product(symgrad.tensor(a), t) *
                symgrad.tensor(w)).sum()
    np.testing.assert_allclose(_grad(loss_a, a), _fd_grad(lambda m: float(loss_a(
        symgrad.tensor(m)).numpy()), a), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(_grad(loss_t, tau), _fd_grad(lambda t: float(loss_t(
        symgrad.tensor(t)).numpy()), tau), rtol=1e-6, atol=1e-8)
