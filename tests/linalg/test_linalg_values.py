"""symgrad.linalg's values: against NumPy (eagerly, and compiled C against eager for every
function in one compiled program per dtype), against torch (named-tuple fields, shapes,
dtypes, batched and broadcast operands), conventions (eigenvector signs, Householder signs),
and empty, 1 x 1 and zero-batch inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(11)
A = RNG.standard_normal((2, 4, 4)) + 2 * np.eye(4)          # batched, well conditioned
B = RNG.standard_normal((2, 4, 3))
SPD = A @ np.swapaxes(A, -1, -2) + np.eye(4)
TALL = RNG.standard_normal((2, 5, 3))
RHS = RNG.standard_normal((2, 5, 2))
L = np.linalg.cholesky(SPD)

# (expression over a, b, s (SPD), r (tall), y (tall right-hand sides), l (lower factor);
#  NumPy's answer)
CASES = [
    ("sg.linalg.solve(a, b)", lambda: np.linalg.solve(A, B)),
    ("sg.linalg.solve(a, b[..., 0])", lambda: np.linalg.solve(A, B[..., :1])[..., 0]),
    ("sg.linalg.solve(a[0], b)", lambda: np.linalg.solve(A[0], B)),
    ("sg.linalg.solve(a, b.mT, left=False)",
     lambda: np.swapaxes(np.linalg.solve(np.swapaxes(A, -1, -2), B), -1, -2)),
    ("sg.linalg.inv(a)", lambda: np.linalg.inv(A)),
    ("sg.inverse(a)", lambda: np.linalg.inv(A)),
    ("sg.linalg.det(a)", lambda: np.linalg.det(A)),
    ("a.det()", lambda: np.linalg.det(A)),
    ("sg.linalg.slogdet(a).logabsdet", lambda: np.linalg.slogdet(A)[1]),
    ("sg.linalg.slogdet(-a).sign", lambda: np.linalg.slogdet(-A)[0]),
    ("sg.logdet(s)", lambda: np.log(np.linalg.det(SPD))),
    ("sg.linalg.cholesky(s)", lambda: L),
    ("sg.linalg.cholesky(s, upper=True)", lambda: np.swapaxes(L, -1, -2)),
    ("sg.linalg.solve_triangular(l, b, upper=False)", lambda: np.linalg.solve(L, B)),
    ("sg.linalg.solve_triangular(l.mT, b, upper=True)",
     lambda: np.linalg.solve(np.swapaxes(L, -1, -2), B)),
    ("sg.linalg.solve_triangular(s, b, upper=False, unitriangular=True)",
     lambda: np.linalg.solve(np.tril(SPD, -1) + np.eye(4), B)),
    ("sg.linalg.solve_triangular(l, b.mT, upper=False, left=False)",
     lambda: np.swapaxes(np.linalg.solve(np.swapaxes(L, -1, -2), B), -1, -2)),
    ("sg.cholesky_solve(b, l)", lambda: np.linalg.solve(SPD, B)),
    ("sg.cholesky_inverse(l)", lambda: np.linalg.inv(SPD)),
    ("sg.linalg.qr(r).Q", lambda: np.linalg.qr(TALL)[0]),
    ("sg.linalg.qr(r).R", lambda: np.linalg.qr(TALL)[1]),
    ("sg.linalg.qr(r.mT).R", lambda: np.linalg.qr(np.swapaxes(TALL, -1, -2))[1]),
    ("sg.linalg.qr(r, mode='complete').Q", lambda: np.linalg.qr(TALL, mode="complete")[0]),
    ("sg.linalg.eigh(s).eigenvalues", lambda: np.linalg.eigvalsh(SPD)),
    ("sg.linalg.eigvalsh(a, UPLO='U')", lambda: np.linalg.eigvalsh(A, UPLO="U")),
    ("sg.linalg.svdvals(r)", lambda: np.linalg.svd(TALL, compute_uv=False)),
    ("sg.linalg.svdvals(r.mT)", lambda: np.linalg.svd(TALL, compute_uv=False)),
    ("sg.linalg.pinv(r)", lambda: np.linalg.pinv(TALL)),
    ("sg.linalg.matrix_rank(r)", lambda: np.linalg.matrix_rank(TALL)),
    ("sg.linalg.cond(a)", lambda: np.linalg.cond(A)),
    ("sg.linalg.lstsq(r, y).solution", lambda: np.linalg.pinv(TALL) @ RHS),
    ("sg.linalg.lstsq(r.mT, y[:, :3]).solution",
     lambda: np.linalg.pinv(np.swapaxes(TALL, -1, -2)) @ RHS[:, :3]),
    ("sg.linalg.vector_norm(a)", lambda: np.linalg.norm(A.ravel())),
    ("sg.linalg.vector_norm(a, 1, dim=-1)", lambda: np.abs(A).sum(-1)),
    ("sg.linalg.vector_norm(a, math.inf, dim=(0, 2), keepdim=True)",
     lambda: np.abs(A).max((0, 2), keepdims=True)),
    ("sg.linalg.vector_norm(a, -math.inf, dim=1)", lambda: np.abs(A).min(1)),
    ("sg.linalg.vector_norm(a, 0, dim=1)", lambda: (A != 0).sum(1).astype(float)),
    ("sg.linalg.vector_norm(a, 3.5, dim=1)", lambda: (np.abs(A) ** 3.5).sum(1) ** (1 / 3.5)),
    ("sg.linalg.matrix_norm(r)", lambda: np.linalg.norm(TALL, "fro", axis=(-2, -1))),
    ("sg.linalg.matrix_norm(r, 'nuc')", lambda: np.linalg.norm(TALL, "nuc", axis=(-2, -1))),
    ("sg.linalg.matrix_norm(r, 1)", lambda: np.linalg.norm(TALL, 1, axis=(-2, -1))),
    ("sg.linalg.matrix_norm(r, -1)", lambda: np.linalg.norm(TALL, -1, axis=(-2, -1))),
    ("sg.linalg.matrix_norm(r, math.inf)", lambda: np.linalg.norm(TALL, np.inf, axis=(-2, -1))),
    ("sg.linalg.matrix_norm(r, -math.inf)",
     lambda: np.linalg.norm(TALL, -np.inf, axis=(-2, -1))),
    ("sg.linalg.matrix_norm(r, 2)", lambda: np.linalg.norm(TALL, 2, axis=(-2, -1))),
    ("sg.linalg.matrix_norm(r, -2)", lambda: np.linalg.norm(TALL, -2, axis=(-2, -1))),
    ("sg.linalg.matrix_norm(r, 1, dim=(2, 0))", lambda: np.linalg.norm(TALL, 1, axis=(2, 0))),
    ("sg.linalg.norm(a[0], 'nuc')", lambda: np.linalg.norm(A[0], "nuc")),
    ("sg.linalg.norm(a[0, 0], 1)", lambda: np.linalg.norm(A[0, 0], 1)),
    ("sg.linalg.norm(a, dim=(1, 2))", lambda: np.linalg.norm(A, axis=(1, 2))),
    ("sg.linalg.cross(a[..., :3], b)", lambda: np.cross(A[..., :3], B)),
    ("sg.linalg.vecdot(a, b[..., :1].mT)", lambda: (A * np.swapaxes(B[..., :1], -1, -2)).sum(-1)),
    ("sg.linalg.multi_dot([a[0], b[0], r[0].mT, y[0]])",
     lambda: A[0] @ B[0] @ TALL[0].T @ RHS[0]),
    ("sg.linalg.multi_dot([b[0, :, 0], a[1], b[1, :, 1]])", lambda: B[0, :, 0] @ A[1] @ B[1, :, 1]),
    ("sg.linalg.diagonal(a, offset=-1)", lambda: np.diagonal(A, -1, -2, -1)),
    ("sg.linalg.matrix_power(a, -2)", lambda: np.linalg.matrix_power(np.linalg.inv(A), 2)),
    ("sg.linalg.matrix_power(a, 3)", lambda: np.linalg.matrix_power(A, 3)),
]


def _run(expr: str, dtype=sg.float64, compiled: bool = False):
    arrays = dict(a=A, b=B, s=SPD, r=TALL, y=RHS, l=L)
    names = list(arrays)

    def f(*ts):
        return eval(expr, {"sg": sg, "math": math, **dict(zip(names, ts))})
    ts = [sg.tensor(arrays[n], dtype=dtype) for n in names]
    out = sg.compile(f)(*ts) if compiled else f(*ts)
    return np.asarray(out)


@pytest.mark.parametrize("expr,want", CASES, ids=[c[0] for c in CASES])
def test_values_against_numpy(expr, want):
    np.testing.assert_allclose(_run(expr), want(), rtol=1e-9, atol=1e-11)


FLOAT32 = ["sg.linalg.solve(a, b)", "sg.linalg.det(a)", "sg.linalg.slogdet(a).logabsdet",
           "sg.linalg.cholesky(s)", "sg.linalg.solve_triangular(l.mT, b, upper=True)",
           "sg.linalg.qr(r).Q", "sg.linalg.qr(r.mT).R", "sg.linalg.eigh(s).eigenvectors",
           "sg.linalg.svdvals(r)"]


@pytest.mark.parametrize("dtype", [sg.float64, sg.float32])
def test_compiled_values_equal_eager(dtype):
    """Every case (float32: one per kernel) in one compiled program: the C kernels against
    the NumPy references, in the input's dtype."""
    exprs = [c[0] for c in CASES] if dtype is sg.float64 else FLOAT32
    eager = [_run(e, dtype) for e in exprs]
    compiled = sg.compile(lambda *ts: tuple(
        eval(e, {"sg": sg, "math": math, **dict(zip("absryl", ts))}) for e in exprs))(
        *[sg.tensor(x, dtype=dtype) for x in (A, B, SPD, TALL, RHS, L)])
    tol = dict(rtol=1e-10, atol=1e-12) if dtype is sg.float64 else dict(rtol=2e-4, atol=2e-5)
    for e, want, got in zip(exprs, eager, compiled):
        assert np.asarray(got).dtype == want.dtype, e
        np.testing.assert_allclose(np.asarray(got), want, err_msg=e, **tol)


def test_eigenvectors_reconstruct_and_follow_the_sign_convention():
    for how in ("eager", "compiled"):
        f = sg.linalg.eigh if how == "eager" else sg.compile(lambda x: tuple(sg.linalg.eigh(x)))
        w, v = (np.asarray(t) for t in f(sg.tensor(SPD)))
        np.testing.assert_allclose(v @ (w[..., None] * np.swapaxes(v, -1, -2)), SPD, atol=1e-12)
        np.testing.assert_allclose(np.swapaxes(v, -1, -2) @ v, np.broadcast_to(np.eye(4), v.shape),
                                   atol=1e-13)
        big = np.take_along_axis(v, np.abs(v).argmax(-2)[..., None, :], -2)
        assert (big > 0).all(), how
        assert (np.diff(w, axis=-1) > 0).all()


def test_qr_is_orthonormal_upper_triangular_in_every_mode():
    for m, n in ((5, 3), (3, 5), (4, 4)):
        x = RNG.standard_normal((2, m, n))
        for mode in ("reduced", "complete", "r"):
            q, r = sg.linalg.qr(sg.tensor(x), mode=mode)
            r = r.numpy()
            np.testing.assert_array_equal(r, np.triu(r))
            if mode == "r":
                assert q.shape == (0,)
                continue
            q = q.numpy()
            k = q.shape[-1]
            assert k == (m if mode == "complete" else min(m, n))
            np.testing.assert_allclose(q @ r, x, atol=1e-13)
            np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q,
                                       np.broadcast_to(np.eye(k), (2, k, k)), atol=1e-13)


EMPTY_EXPRS = ["sg.linalg.inv(e)", "sg.linalg.det(e)", "sg.linalg.slogdet(e).logabsdet",
               "sg.linalg.slogdet(e).sign", "sg.linalg.cholesky(e)", "sg.linalg.eigvalsh(e)",
               "sg.linalg.eigh(e).eigenvectors", "sg.linalg.qr(e).Q", "sg.linalg.svdvals(e)",
               "sg.linalg.solve(e, e)"]


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 3, 3), (1, 1)])
def test_empty_and_one_by_one_matrices(shape):
    torch = pytest.importorskip("torch")
    x = np.full(shape, 2.0)
    exprs = EMPTY_EXPRS + ["sg.linalg.qr(e, mode='complete').R"]
    compiled = sg.compile(lambda e: tuple(eval(s, {"sg": sg, "e": e}) for s in exprs))(
        sg.tensor(x))
    for s, got in zip(exprs, compiled):
        want = eval(s.replace("sg.", "torch."), {"torch": torch, "e": torch.tensor(x)}).numpy()
        eager = eval(s, {"sg": sg, "e": sg.tensor(x)}).numpy()
        for value in (eager, np.asarray(got)):
            assert value.shape == want.shape, s
            np.testing.assert_allclose(value, want, atol=1e-12, err_msg=s)


def test_qr_of_matrices_with_no_rows_or_columns():
    for shape, mode in (((0, 3), "reduced"), ((3, 0), "complete"), ((3, 0), "reduced")):
        q, r = sg.compile(lambda x: tuple(sg.linalg.qr(x, mode=mode)))(sg.tensor(np.ones(shape)))
        k = shape[0] if mode == "complete" else min(shape)
        np.testing.assert_array_equal(np.asarray(q), np.eye(shape[0], k))
        assert np.asarray(r).shape == (k, shape[1])


def test_matches_torch_with_named_fields():
    torch = pytest.importorskip("torch")
    cases = ["L.solve(a, b)", "L.inv(a)", "L.det(a)", "L.slogdet(a)", "T.slogdet(a)",
             "T.logdet(s)", "L.cholesky(s)", "L.qr(r)", "L.qr(r, mode='complete')",
             "L.eigvalsh(s)", "L.solve_triangular(l, b, upper=False)",
             "T.cholesky_solve(b, l)", "L.lstsq(r, y)", "L.lstsq(r, y, driver='gelsd')",
             "L.matrix_norm(r, 'nuc')", "L.norm(r)", "L.svdvals(r)", "L.matrix_rank(r)",
             "L.vector_norm(a, 3, dim=1)", "a.inverse()", "a.slogdet()", "s.logdet()",
             "L.multi_dot([a[0], b[0], r[0].mT])", "L.pinv(r)"]
    arrays = dict(a=A, b=B, s=SPD, r=TALL, y=RHS, l=L)
    for case in cases:
        want = eval(case, {"L": torch.linalg, "T": torch,
                           **{k: torch.tensor(v) for k, v in arrays.items()}})
        got = eval(case, {"L": sg.linalg, "T": sg, **{k: sg.tensor(v) for k, v in arrays.items()}})
        if isinstance(want, tuple):
            assert type(got).__name__ == type(want).__name__
            assert got._fields == type(want).__match_args__, case
        for w, g in zip(want, got) if isinstance(want, tuple) else [(want, got)]:
            assert tuple(g.shape) == tuple(w.shape) and g.dtype.name == str(w.dtype)[6:], case
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-10, atol=1e-12,
                                       err_msg=case)


def test_broadcast_batches_and_float32_match_torch():
    torch = pytest.importorskip("torch")
    a = RNG.standard_normal((3, 1, 4, 4)).astype(np.float32) + 3 * np.eye(4, dtype=np.float32)
    b = RNG.standard_normal((2, 4, 5)).astype(np.float32)
    for fn in ("solve", "solve_triangular"):
        kw = {"upper": True} if fn == "solve_triangular" else {}
        want = getattr(torch.linalg, fn)(torch.tensor(a), torch.tensor(b), **kw).numpy()

        def f(x, y):
            return getattr(sg.linalg, fn)(x, y, **kw)
        for run in (f, sg.compile(f)):
            got = np.asarray(run(sg.tensor(a), sg.tensor(b)))
            assert got.shape == (3, 2, 4, 5) and got.dtype == np.float32
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_tensor_methods_and_torch_level_functions():
    a = sg.tensor(A)
    np.testing.assert_allclose(a.det().numpy(), sg.linalg.det(a).numpy())
    np.testing.assert_allclose(sg.det(a).numpy(), np.linalg.det(A))
    np.testing.assert_allclose(a.inverse().numpy(), np.linalg.inv(A), atol=1e-12)
    assert a.slogdet()._fields == ("sign", "logabsdet")
    np.testing.assert_allclose(sg.slogdet(a).sign.numpy(), np.linalg.slogdet(A)[0])
    with pytest.warns(UserWarning, match="torch.cholesky is deprecated"):
        np.testing.assert_allclose(sg.tensor(SPD).cholesky().numpy(), L)
    np.testing.assert_allclose(sg.tensor(B).cholesky_solve(sg.tensor(L)).numpy(),
                               np.linalg.solve(SPD, B), atol=1e-12)
    np.testing.assert_allclose(sg.linalg.matmul(a, a).numpy(), A @ A)
    out = sg.empty(2, 4, 4, dtype=sg.float64)
    assert sg.linalg.inv(a, out=out) is out
    np.testing.assert_allclose(out.numpy(), np.linalg.inv(A), atol=1e-12)
    np.testing.assert_allclose(sg.linalg.det(input=a).numpy(), np.linalg.det(A))
