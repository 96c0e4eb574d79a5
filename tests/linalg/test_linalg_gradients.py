"""symgrad.linalg's gradients: against float64 central finite differences eagerly, one
compiled program of every case's gradient against eager, second derivatives (Hessian-vector
products) against torch eagerly and compiled, and the documented conventions (symmetric
gradients of eigh and cholesky, finite eigenvalue gradients at repeated eigenvalues).

Every case is a function of one (2, 4, 3) input ``x``: square matrices are made from its first
three rows (``sq``), symmetric ones as ``sq + sq^T`` and positive-definite ones as
``sq sq^T + 3 I``, so one compiled program can hold every case."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from references import central_differences, gradient

RNG = np.random.default_rng(5)
X0 = RNG.standard_normal((2, 4, 3))
CONSTANTS = {"c": RNG.standard_normal((2, 3, 2)),           # right-hand sides
             "k": RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3),  # a square matrix
             "y": RNG.standard_normal((2, 4, 2))}           # least-squares targets


class Constants:
    """The constants as tensors of module ``m`` (symgrad or torch): ``k.c``, ``k.k``..."""

    def __init__(self, m):
        for name, value in CONSTANTS.items():
            setattr(self, name, m.tensor(value))


def sq(m, x):
    return x[..., :3, :] + 2 * m.eye(3, dtype=x.dtype)


def spd(m, x):
    s = sq(m, x)
    return s @ s.mT + 3 * m.eye(3, dtype=x.dtype)


def sym(m, x):
    s = sq(m, x)
    return s + s.mT


# (name, body(m, x, k): m is the module (symgrad or torch), k the Constants)
CASES = [
    ("solve A", lambda m, x, k: m.linalg.solve(sq(m, x), k.c)),
    ("solve B", lambda m, x, k: m.linalg.solve(k.k, x[..., :3, :])),
    ("solve left=False", lambda m, x, k: m.linalg.solve(sq(m, x), k.c.mT, left=False)),
    ("inv", lambda m, x, k: m.linalg.inv(sq(m, x))),
    ("det", lambda m, x, k: m.linalg.det(sq(m, x))),
    ("slogdet", lambda m, x, k: m.linalg.slogdet(sq(m, x)).logabsdet),
    ("logdet", lambda m, x, k: m.logdet(spd(m, x))),
    ("cholesky", lambda m, x, k: m.linalg.cholesky(spd(m, x))),
    ("cholesky upper", lambda m, x, k: m.linalg.cholesky(spd(m, x), upper=True)),
    ("solve_triangular upper", lambda m, x, k: m.linalg.solve_triangular(sq(m, x), k.c,
                                                                         upper=True)),
    ("solve_triangular unit right", lambda m, x, k: m.linalg.solve_triangular(
        sq(m, x), k.c.mT, upper=False, left=False, unitriangular=True)),
    ("cholesky_solve", lambda m, x, k: m.cholesky_solve(k.c, m.linalg.cholesky(spd(m, x)))),
    ("qr Q tall", lambda m, x, k: m.linalg.qr(x).Q),
    ("qr R tall", lambda m, x, k: m.linalg.qr(x).R),
    ("qr Q wide", lambda m, x, k: m.linalg.qr(x.mT).Q),
    ("qr R wide", lambda m, x, k: m.linalg.qr(x.mT).R),
    ("eigvalsh", lambda m, x, k: m.linalg.eigvalsh(sym(m, x))),
    ("eigh vectors", lambda m, x, k: m.linalg.eigh(sym(m, x)).eigenvectors ** 2),
    ("svdvals", lambda m, x, k: m.linalg.svdvals(x)),
    ("nuclear norm", lambda m, x, k: m.linalg.matrix_norm(x, "nuc")),
    ("spectral norm", lambda m, x, k: m.linalg.matrix_norm(x.mT, 2)),
    ("pinv", lambda m, x, k: m.linalg.pinv(x)),
    ("lstsq", lambda m, x, k: m.linalg.lstsq(x, k.y).solution),
    ("lstsq wide", lambda m, x, k: m.linalg.lstsq(x.mT, k.y[:, :3]).solution),
    ("vector_norm 3", lambda m, x, k: m.linalg.vector_norm(x, 3, dim=-1)),
    ("matrix_norm 1", lambda m, x, k: m.linalg.matrix_norm(x, 1)),
    ("matrix_power -2", lambda m, x, k: m.linalg.matrix_power(sq(m, x), -2)),
    ("multi_dot", lambda m, x, k: m.linalg.multi_dot([x[0], x[1].mT, x[0]])),
]
IDS = [c[0] for c in CASES]
WEIGHTS = {name: RNG.standard_normal(tuple(body(sg, sg.tensor(X0), Constants(sg)).shape))
           for name, body in CASES}


def _loss(name: str, body, m=sg):
    w = m.tensor(WEIGHTS[name])
    return lambda x: (body(m, x, Constants(m)) * w).sum()


# One case per kernel and rule: compiled below in one program (compiling costs seconds).
COMPILED = ["solve A", "det", "slogdet", "cholesky", "solve_triangular unit right",
            "qr Q wide", "qr R tall", "eigh vectors", "svdvals", "lstsq"]
COMPILED_TWICE = ["solve A", "det", "cholesky", "qr R tall", "eigh vectors"]


def _total(names: list):
    def f(x):
        return sum(_loss(name, body)(x) for name, body in CASES if name in names)
    return f


@pytest.mark.parametrize("name,body", CASES, ids=IDS)
def test_gradients_against_finite_differences(name, body):
    f = _loss(name, body)
    np.testing.assert_allclose(gradient(f, X0, "eager"), central_differences(f, X0),
                               rtol=1e-6, atol=1e-7)


def test_compiled_gradients_equal_eager():
    """One compiled program: the gradient of the sum of the COMPILED cases' losses."""
    want = sum(gradient(_loss(name, body), X0, "eager") for name, body in CASES
               if name in COMPILED)
    np.testing.assert_allclose(gradient(_total(COMPILED), X0, "compiled"), want, rtol=1e-10,
                               atol=1e-10)


def _hvp(f, x0, u, how):
    """d/dx <grad f(x), u> at x0, symgrad's way (eager create_graph, or compiled grad)."""
    if how == "compiled":
        return np.asarray(sg.grad(lambda x: (sg.grad(f)(x) * sg.tensor(u)).sum())(
            sg.tensor(x0)))
    x = sg.tensor(x0, requires_grad=True)
    (g,) = sg.autograd.grad(f(x), x, create_graph=True)
    (h,) = sg.autograd.grad((g * sg.tensor(u)).sum(), x)
    return h.numpy()


U = RNG.standard_normal(X0.shape)


@pytest.mark.parametrize("name,body", CASES, ids=IDS)
def test_second_derivatives_match_torch(name, body):
    torch = pytest.importorskip("torch")
    x = torch.tensor(X0, requires_grad=True)
    (g,) = torch.autograd.grad(_loss(name, body, torch)(x), x, create_graph=True)
    if not g.requires_grad:        # linear in x: no second derivative
        return
    (want,) = torch.autograd.grad((g * torch.tensor(U)).sum(), x)
    np.testing.assert_allclose(_hvp(_loss(name, body), X0, U, "eager"),
                               want.numpy(force=True), rtol=1e-8, atol=1e-9)


def test_compiled_second_derivatives_equal_eager():
    """One compiled program: the Hessian-vector product of the COMPILED_TWICE cases' sum."""
    want = sum(_hvp(_loss(name, body), X0, U, "eager") for name, body in CASES
               if name in COMPILED_TWICE)
    np.testing.assert_allclose(_hvp(_total(COMPILED_TWICE), X0, U, "compiled"), want,
                               rtol=1e-9, atol=1e-9)


def test_symmetric_input_gradients_are_symmetric_as_torchs():
    """eigh and cholesky read one triangle but, as torch, return the symmetric gradient."""
    s0 = np.asarray(spd(sg, sg.tensor(X0)))
    for f in (lambda s: (sg.linalg.eigvalsh(s) ** 2).sum(),
              lambda s: (sg.linalg.cholesky(s) * sg.tensor(s0)).sum()):
        g = gradient(f, s0, "eager")
        np.testing.assert_allclose(g, np.swapaxes(g, -1, -2), atol=1e-12)


def test_eigenvalue_gradients_are_finite_at_repeated_eigenvalues():
    torch = pytest.importorskip("torch")
    a = np.diag([1.0, 1.0, 2.0]) + 0.0
    want = torch.autograd.functional.jacobian(torch.linalg.eigvalsh, torch.tensor(a))
    for how in ("eager", "compiled"):
        for i in range(3):
            g = gradient(lambda s: sg.linalg.eigvalsh(s)[i], a, how)
            np.testing.assert_allclose(g, want[i].numpy(), atol=1e-12)


def test_float32_gradients_compile():
    x0 = X0.astype(np.float32)
    f = _loss("eigvalsh", CASES[IDS.index("eigvalsh")][1])
    g = sg.grad(f)(sg.tensor(x0))
    assert np.asarray(g).dtype == np.float32
    np.testing.assert_allclose(np.asarray(g), gradient(f, X0, "eager"), rtol=1e-3, atol=1e-4)


def test_qr_complete_of_a_tall_matrix_is_not_differentiable_as_in_torch():
    x = sg.tensor(X0, requires_grad=True)
    q = sg.linalg.qr(x, mode="complete").Q
    with pytest.raises(NotImplementedError, match="mode='complete' and nrows > ncols"):
        q.sum().backward()
