"""einsum/tensordot against NumPy's einsum, their gradients against finite differences
(eager and compiled), and against torch when installed."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from references import central_differences

rng = np.random.default_rng(0)
A, B = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4, 5))
M, v, W = rng.standard_normal((4, 4)), rng.standard_normal(4), rng.standard_normal((3, 4, 4))
P, Q = rng.standard_normal((2, 4)), rng.standard_normal((2, 4))

CASES = [("bij,bjk->bik", [A, B]), ("ij,jk", [A[0], B[0]]), ("i,i->", [v, v]),
         ("i,j->ij", [v, v]), ("ii->i", [M]), ("ii", [M]), ("ij->ji", [M]),
         ("...ij,...jk->...ik", [A, B]), ("bi,aij,bj->ba", [P, W, Q]), ("ijk->", [A]),
         ("bij->bj", [A]), ("i,ij,j", [v, M, v]), ("...i,...i->...", [A, A]),
         ("bij,jk->bik", [A, M])]


@pytest.mark.parametrize("eq,ops", CASES, ids=[c[0] for c in CASES])
def test_einsum_against_numpy(eq, ops):
    got = sg.einsum(eq, *[sg.tensor(o) for o in ops]).numpy()
    want = np.einsum(eq, *ops)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_tensordot_against_numpy():
    np.testing.assert_allclose(sg.tensordot(sg.tensor(A), sg.tensor(B[0]), 1).numpy(),
                               np.tensordot(A, B[0], 1), rtol=1e-12)
    np.testing.assert_allclose(
        sg.tensordot(sg.tensor(A), sg.tensor(A), ([1, 2], [1, 2])).numpy(),
        np.tensordot(A, A, ([1, 2], [1, 2])), rtol=1e-12)


@pytest.mark.parametrize("compiled", [False, True])
def test_bilinear_gradient_against_finite_differences(compiled):
    def f(w):
        return sg.tanh(sg.einsum("bi,aij,bj->ba", sg.tensor(P), w, sg.tensor(Q))).sum()

    if compiled:
        got = np.asarray(sg.grad(f)(sg.tensor(W)))
    else:
        w = sg.tensor(W, requires_grad=True)
        f(w).backward()
        got = w.grad.numpy()
    fd = central_differences(f, W)
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-9)


def test_equation_errors():
    with pytest.raises(RuntimeError, match="number of subscripts"):
        sg.einsum("ij,jk->ik", sg.ones(2, 3), sg.ones(3))
    with pytest.raises(RuntimeError, match="more operands"):
        sg.einsum("ij->i", sg.ones(2, 3), sg.ones(3))


@pytest.mark.parametrize("eq,ops", CASES, ids=[c[0] for c in CASES])
def test_einsum_matches_torch(eq, ops):
    torch = pytest.importorskip("torch")
    ts = [torch.tensor(o, requires_grad=True) for o in ops]
    ss = [sg.tensor(o, requires_grad=True) for o in ops]
    a, b = torch.einsum(eq, *ts), sg.einsum(eq, *ss)
    (a * a).sum().backward()
    (b * b).sum().backward()
    np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-12, atol=1e-12)
    for t, s in zip(ts, ss):
        np.testing.assert_allclose(s.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)
