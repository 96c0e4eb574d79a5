"""symgrad.linalg at singular and degenerate matrices, where the op sweep's samples do not
reach: det's gradient (the cofactor matrix) where an LU pivot is exactly zero, eager and
compiled; slogdet's sign of a NaN matrix in compiled code; lstsq of a rank-deficient batch;
qr(A, 'r')'s backward error. Oracles: cofactors from explicit minors, NumPy's SVD
least squares and a hand-written pseudo-inverse derivative; torch where it is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

import symgrad as sg
from references import gradient

# singular matrices whose LU (NumPy's and symgrad's C kernel) meets an exactly zero pivot
EXACTLY_SINGULAR = [
    np.array([[1.0, 2.0], [2.0, 4.0]]),                               # rank 1
    np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]),     # rank 2
    np.array([[0.0, 1.0], [0.0, 0.0]]),                               # nilpotent
    np.array([[2.0, -1.0, 0.5], [4.0, -2.0, 1.0], [-6.0, 3.0, -1.5]]),  # rank 1
    np.zeros((3, 3)),
    np.zeros((1, 1)),
]


def cofactors(a: np.ndarray) -> np.ndarray:
    """C_ij = (-1)^(i+j) det(A without row i and column j): det's derivative."""
    n = a.shape[-1]
    if n == 1:
        return np.ones_like(a)
    out = np.empty_like(a)
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(a, i, axis=0), j, axis=1)
            out[i, j] = (-1) ** (i + j) * np.linalg.det(minor)
    return out


@pytest.mark.parametrize("how", ["eager", "compiled"])
@pytest.mark.parametrize("a", EXACTLY_SINGULAR, ids=lambda a: f"{a.shape[0]}x{a.shape[0]}")
def test_det_gradient_is_the_cofactor_matrix_at_singular_matrices(a, how):
    assert np.linalg.det(a) == 0.0   # the case: a zero pivot, no inverse
    g = gradient(lambda x: sg.linalg.det(x), a, how)
    np.testing.assert_allclose(g, cofactors(a), rtol=0, atol=1e-13)


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_det_gradient_of_a_batch_mixing_singular_and_regular(how):
    regular = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.5, 0.0, 4.0]])
    a = np.stack([EXACTLY_SINGULAR[1], regular, EXACTLY_SINGULAR[3]])
    w = np.array([1.0, -2.0, 0.5])
    g = gradient(lambda x: (sg.linalg.det(x) * sg.tensor(w)).sum(), a, how)
    want = np.stack([cofactors(m) * wi for m, wi in zip(a, w)])
    np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-13)


def test_det_gradient_at_singular_matrices_is_torchs_adjugate():
    """torch's det backward with create_graph=True takes its SVD formula (the adjugate) at
    singular matrices. (Its first-order backward gives zeros where an LU pivot is exactly
    zero: the perturbation it applies to the pivot is multiplied by det = 0.)"""
    torch = pytest.importorskip("torch")
    for a in EXACTLY_SINGULAR[:4]:
        x = torch.tensor(a, requires_grad=True)
        (want,) = torch.autograd.grad(torch.linalg.det(x), x, create_graph=True)
        np.testing.assert_allclose(gradient(lambda x: sg.linalg.det(x), a, "eager"),
                                   want.detach().numpy(), atol=1e-13)


def test_det_gradient_of_a_nearly_singular_matrix_uses_one_lu():
    """A rounding-noise pivot cancels between det and the inverse (both from the LU of A^T):
    the cofactors stay accurate (det A = 0 in exact arithmetic, its LU's is ~1e-15)."""
    a = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]]) @ np.array([[1.0, -1.0, 2.0],
                                                                      [0.5, 3.0, 1.0]])
    assert np.linalg.det(a.T) != 0.0   # rank 2: a pivot of rounding noise
    np.testing.assert_allclose(gradient(lambda x: sg.linalg.det(x), a, "eager"), cofactors(a),
                               atol=1e-12)


def test_slogdet_sign_of_a_nan_matrix_is_zero_as_torchs():
    """torch: sign = prod(sign(diag U)) * (-1)^swaps, and sign(NaN) = 0 (stored: -0.0)."""
    a = np.array([[-2.0, 1e30, 0.25], [math.nan, math.inf, -math.inf], [0.0, -0.0, 1.0]])
    eager = sg.linalg.slogdet(sg.tensor(a))
    compiled = sg.compile(lambda x: sg.linalg.slogdet(x))(a)
    for sign, logabs in (eager, compiled):
        assert float(np.asarray(sign)) == 0.0 and math.isnan(float(np.asarray(logabs)))


RANK_ONE = np.outer([1.0, -2.0, 0.5], [3.0, 1.0, -1.0])
REGULAR = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.5, 0.0, 4.0]])
RHS = np.array([[1.0, 0.5], [-1.0, 2.0], [0.25, 1.0]])
GX = np.array([[1.0, -1.0], [0.5, 2.0], [1.5, 0.25]])   # the solution's cotangent


def _pinv_derivative(a: np.ndarray, ga: np.ndarray) -> np.ndarray:
    """The cotangent of A for a cotangent ``ga`` of pinv(A), at constant rank (Golub and
    Pereyra): d A+ = -A+ dA A+ + A+ A+^T dA^T (I - A A+) + (I - A+ A) dA^T A+^T A+."""
    p = np.linalg.pinv(a)
    m, n = a.shape
    return (-p.T @ ga @ p.T + (np.eye(m) - a @ p) @ ga.T @ p @ p.T
            + p.T @ p @ ga.T @ (np.eye(n) - p @ a))


def test_lstsq_of_a_rank_deficient_batch_is_the_minimum_norm_solution():
    a = np.stack([RANK_ONE, REGULAR])
    b = np.stack([RHS, RHS])
    sa, sb = sg.tensor(a, requires_grad=True), sg.tensor(b, requires_grad=True)
    out = sg.linalg.lstsq(sa, sb)
    assert out.rank.tolist() == [1, 3]
    for k in range(2):
        want = np.linalg.lstsq(a[k], b[k], rcond=None)[0]   # NumPy's SVD: minimum norm
        np.testing.assert_allclose(out.solution.detach().numpy()[k], want, atol=1e-12)
    (out.solution * sg.tensor(np.stack([GX, GX]))).sum().backward()
    for k in range(2):   # X = A+ B: gB = A+^T gX, gA through pinv with gA+ = gX B^T
        p = np.linalg.pinv(a[k])
        np.testing.assert_allclose(sb.grad.numpy()[k], p.T @ GX, atol=1e-12)
        np.testing.assert_allclose(sa.grad.numpy()[k], _pinv_derivative(a[k], GX @ RHS.T),
                                   atol=1e-11)


def test_lstsq_of_a_rank_deficient_matrix_matches_torch():
    torch = pytest.importorskip("torch")
    got, want = [], []
    for m, out in ((sg, got), (torch, want)):
        a = m.tensor(RANK_ONE, requires_grad=True)
        b = m.tensor(RHS, requires_grad=True)
        x = m.linalg.lstsq(a, b).solution
        (x * m.tensor(GX)).sum().backward()
        out += [x.detach().numpy(), a.grad.numpy(), b.grad.numpy()]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, atol=1e-12)


def test_qr_r_mode_backward_raises_torchs_error():
    r = sg.linalg.qr(sg.tensor(RHS, requires_grad=True), mode="r").R
    with pytest.raises(RuntimeError, match="The derivative of linalg.qr depends on Q, which is "
                                           "not computed when mode='r'"):
        r.sum().backward()


def test_cond_of_empty_matrices_is_zero_without_gradient():
    for shape in ((0, 0), (2, 0, 0)):
        for p in (None, "fro", 1):
            c = sg.linalg.cond(sg.zeros(shape, dtype=sg.float64, requires_grad=True), p)
            assert c.shape == shape[:-2] and not c.requires_grad
            assert not c.numpy().any()


def test_cdist_p0_gradient_is_zeros_compiled():
    x0, y0 = np.array([[1.0, 2.0], [0.0, 1.0]]), np.array([[1.0, 0.0], [3.0, 1.0], [0.0, 0.0]])
    g = sg.grad(lambda x, y: sg.cdist(x, y, 0.0).sum(), argnums=(0, 1))(x0, y0)
    assert [np.asarray(t).tolist() for t in g] == [np.zeros_like(x0).tolist(),
                                                   np.zeros_like(y0).tolist()]


NAN, INF = math.nan, math.inf
# (factor, upper, torch 2.13's cholesky_inverse): LAPACK's potri never multiplies the
# triangle's structural zeros, so NaN and infinity reach fewer elements than two solves give
NONFINITE = [
    ([[-2.0, 1e30, 0.25], [NAN, INF, -INF], [0.0, -0.0, 1.0]], False,
     [[NAN, NAN, NAN], [NAN, 0.0, 0.0], [NAN, 0.0, 1.0]]),
    ([[-2.0, NAN, 0.0], [1e30, INF, -0.0], [0.25, -INF, 1.0]], True,
     [[NAN, NAN, NAN], [NAN, 0.0, 0.0], [NAN, 0.0, 1.0]]),
    ([[2.0, 0.0, 0.0], [INF, 3.0, 0.0], [1.0, NAN, 1.0]], False,
     [[NAN, NAN, NAN], [NAN, NAN, NAN], [NAN, NAN, 1.0]]),
    ([[4.0, 0.0, 0.0], [1.0, INF, 0.0], [-1.0, 2.0, 0.5]], False,
     [[0.3125, 0.0, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 4.0]]),
    ([[4.0, 1.0, -1.0], [0.0, INF, 2.0], [0.0, 0.0, 0.5]], True,
     [[0.3125, 0.0, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 4.0]]),
]


@pytest.mark.parametrize("factor,upper,want", NONFINITE)
def test_cholesky_inverse_of_nonfinite_factors_follows_lapacks_order(factor, upper, want):
    got = sg.cholesky_inverse(sg.tensor(np.array(factor)), upper=upper).numpy()
    np.testing.assert_allclose(got, np.array(want), rtol=1e-15, atol=0)


def test_cholesky_inverse_of_nonfinite_factors_matches_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    for _ in range(60):
        n = int(rng.integers(1, 6))
        m = rng.standard_normal((n, n))
        m[rng.random((n, n)) < 0.25] = rng.choice([INF, -INF, NAN, 0.0])
        np.fill_diagonal(m, np.where(np.diag(m) == 0, 1.5, np.diag(m)))
        for upper in (False, True):
            want = torch.cholesky_inverse(torch.tensor(m), upper=upper).numpy()
            got = sg.cholesky_inverse(sg.tensor(m), upper=upper).numpy()
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("factor,message", [
    ([[1.0, 0.0], [1.0, 0.0]], "cholesky_inverse: The diagonal element 2 is zero"),
    ([[[1.0, 0.0], [1.0, 2.0]], [[0.0, 0.0], [1.0, 2.0]]],
     r"cholesky_inverse: \(Batch element 1\): The diagonal element 1 is zero"),
])
def test_cholesky_inverse_of_a_zero_diagonal_raises_torchs_error(factor, message):
    """torch's message (LAPACK's trtri meets the zero), stored from torch 2.13."""
    with pytest.raises(RuntimeError, match=message + ", the inversion could not be completed "
                                                     "because the input matrix is singular"):
        sg.cholesky_inverse(sg.tensor(np.array(factor)))


# The `_ex` functions' LAPACK info, eagerly and compiled. The batch, by hand: an identity
# (info 0), a zero second column (LU: the second pivot is the first zero, 2; Cholesky: the
# second leading minor is not positive-definite, 2), and a negative first entry (Cholesky:
# 1; LU: nonsingular, 0), in float64 and complex128 (an imaginary entry above the diagonal,
# which the lower Cholesky does not read and the upper one does).
INFO_BATCH = np.stack([np.eye(3), np.diag([1.0, 0.0, 2.0]), np.diag([-1.0, 1.0, 1.0])])
INFO_WANT = {"inv_ex": [0, 2, 0], "solve_ex": [0, 2, 0], "cholesky_ex": [0, 2, 1],
             "cholesky_ex_upper": [0, 2, 1]}
INFO_FUNCTIONS = {
    "inv_ex": lambda a: sg.linalg.inv_ex(a).info,
    "solve_ex": lambda a: sg.linalg.solve_ex(a, a[..., :1]).info,
    "cholesky_ex": lambda a: sg.linalg.cholesky_ex(a).info,
    "cholesky_ex_upper": lambda a: sg.linalg.cholesky_ex(a, upper=True).info}


@pytest.mark.parametrize("name", sorted(INFO_FUNCTIONS))
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_ex_info_is_lapacks_eagerly_and_compiled(name, dtype):
    a = INFO_BATCH.astype(dtype)
    if dtype == "complex128":
        a[1, 0, 2] = 1j
    f = INFO_FUNCTIONS[name]
    eager = f(sg.tensor(a)).numpy()
    compiled = np.asarray(sg.compile(f)(sg.tensor(a)))
    assert eager.dtype == compiled.dtype == np.int32
    assert eager.tolist() == compiled.tolist() == INFO_WANT[name]


# A matrix holding NaN: LAPACK (torch's MKL) factors it into NaN without an error (NumPy's
# OpenBLAS calls it singular: det 0, inv raising); the SVD and eigh do not converge.
NAN_MATRIX = np.array([[np.nan, 1.0], [1.0, 1.0]])


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_nan_matrices_give_nan_as_lapack_does(dtype):
    a = sg.tensor(NAN_MATRIX.astype(dtype))
    nan = complex(np.nan, np.nan) if dtype == "complex128" else np.nan
    ones = sg.ones(2, 1, dtype=a.dtype)
    for value in (sg.linalg.det(a), sg.linalg.inv(a), sg.linalg.solve(a, ones),
                  sg.linalg.inv_ex(a).inverse):
        np.testing.assert_array_equal(value.numpy(), np.full(value.shape, nan))
    sign, logabs = sg.linalg.slogdet(a)
    assert np.isnan(logabs.item())
    np.testing.assert_array_equal(sign.numpy(), np.array(0.0 if dtype == "float64" else nan))
    assert sg.linalg.inv_ex(a).info.item() == 0
    np.testing.assert_array_equal(np.asarray(sg.compile(sg.linalg.det)(a)), np.array(nan))


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_svd_and_eigh_of_a_nan_matrix_raise(dtype):
    a = sg.tensor(NAN_MATRIX.astype(dtype))
    for f in (sg.linalg.svdvals, sg.linalg.pinv, lambda x: sg.linalg.matrix_norm(x, 2)):
        with pytest.raises(sg.linalg.LinAlgError, match="linalg.svd: .* non-finite values"):
            f(a)
        with pytest.raises(sg.linalg.LinAlgError, match="failed to converge"):
            sg.compile(f)(a)
    with pytest.raises(sg.linalg.LinAlgError, match="linalg.eigh: The algorithm failed"):
        sg.compile(sg.linalg.eigvalsh)(a)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_ex_of_an_indefinite_matrix_gives_lapacks_partial_factor(upper):
    """potf2 stops at the failing pivot (left on the diagonal: 1 - 2 * 2 = -3), A's lower
    triangle beyond it: torch 2.13 gives [[1, 0], [2, -3]] (its transpose if upper)."""
    a = sg.tensor([[1.0, 2.0], [2.0, 1.0]])
    want = np.array([[1.0, 0.0], [2.0, -3.0]])
    want = want.T if upper else want
    f = lambda x: sg.linalg.cholesky_ex(x, upper=upper)       # noqa: E731
    for got in (f(a), sg.compile(f)(a)):
        np.testing.assert_array_equal(np.asarray(got.L), want)
        assert int(np.asarray(got.info)) == 2


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_compiled_lstsq_of_a_rank_deficient_matrix_is_the_minimum_norm_solution(dtype):
    """Compiled lstsq decides by a guard on R's diagonal: a rank-deficient A (its second
    column a multiple of the first) takes the pinv path as eagerly, and the same compiled
    function goes back to the QR path for a full-rank A, each equal to eager."""
    deficient = {"float64": np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]),
                 "complex128": np.array([[1, 1j], [2, 2j], [3, 3j]])}[dtype]
    full = deficient + np.array([[0, 1], [0, -1], [0, 0.5]])
    b = np.ones((3, 1), dtype)
    f = sg.compile(lambda a, b: sg.linalg.lstsq(a, b).solution)
    for a in (deficient, full, deficient):
        eager = sg.linalg.lstsq(sg.tensor(a), sg.tensor(b)).solution.numpy()
        np.testing.assert_allclose(np.asarray(f(a, b)), eager, rtol=1e-10, atol=1e-12)
    # the minimum-norm solution: pinv(A) b, which is orthogonal to A's null space
    np.testing.assert_allclose(np.asarray(f(deficient, b)), np.linalg.pinv(deficient) @ b,
                               rtol=1e-10, atol=1e-12)
