"""symgrad.linalg's errors: torch's messages for bad shapes, dtypes and arguments (checked
against torch's own text), LinAlgError for singular and non-positive-definite matrices (eager:
torch's message with the batch and diagonal element; compiled: the same error without them),
and NaN where torch gives no error and no number (an unchecked solve of a singular matrix)."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad.ops.factor_info import potf2
from symgrad.frontend.core.apply import apply

SQ = np.arange(9.0).reshape(3, 3) + np.eye(3)
WIDE = np.ones((2, 3))
SINGULAR = np.array([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]])
NOT_PD = np.array([[[4.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 1.0]]])

# expressions over w (2 x 3), s (3 x 3), v (3,), i (int64 3 x 3), f (float32 3 x 3)
MESSAGES = [
    "L.solve(w, v)", "L.inv(w)", "L.det(w)", "L.slogdet(w)", "L.cholesky(w)", "L.eigh(w)",
    "L.eigvalsh(w)", "L.inv(v)", "L.qr(v)", "L.solve(s, v[:2])", "L.solve(s, w)",
    "L.solve(s, w.mT, left=False)", "L.solve(s, f)", "L.det(i)", "L.inv(i)",
    "L.solve_triangular(s, v, upper=True)", "L.solve_triangular(s, w, upper=True)",
    "L.solve_triangular(w, s, upper=True)", "L.eigh(s, UPLO='X')", "L.qr(s, mode='x')",
    "L.matrix_norm(v)", "L.matrix_norm(s, ord=3)", "L.matrix_norm(s, dim=(1, 1))",
    "L.vector_norm(i)", "L.norm(s[None], ord=2)", "L.multi_dot([s])",
    "L.multi_dot([s[None], s])", "L.multi_dot([s, s[None]])", "L.multi_dot([s, v, s])",
    "L.multi_dot([s, f])", "L.multi_dot([w, w])", "L.vecdot(s, f)", "L.cross(w[:, :2], w[:, :2])",
    "L.lstsq(v, v)", "L.lstsq(w, s)", "L.svdvals(v)", "L.matrix_power(w, 2)",
    "T.cholesky_solve(v, s)", "T.cholesky_solve(s, f)", "T.cholesky_solve(w, s)",
]


def _arrays(module):
    return {"w": module.tensor(WIDE), "s": module.tensor(SQ), "v": module.tensor(SQ[0]),
            "i": module.tensor(SQ.astype(np.int64)),
            "f": module.tensor(SQ.astype(np.float32))}


def _error(expr: str, module):
    try:
        eval(expr, {"L": module.linalg, "T": module, **_arrays(module)})
    except Exception as e:      # noqa: BLE001  (the test compares whatever each raises)
        return e
    raise AssertionError(f"{expr} raised nothing")


@pytest.mark.parametrize("expr", MESSAGES)
def test_argument_errors_are_torchs(expr):
    torch = pytest.importorskip("torch")
    want, got = _error(expr, torch), _error(expr, sg)
    assert str(got) == str(want)
    assert isinstance(got, RuntimeError) == isinstance(want, RuntimeError)


def test_argument_errors_are_raised_while_tracing():
    with pytest.raises(RuntimeError, match="A must be batches of square matrices, but they "
                                           "are 2 by 3 matrices"):
        sg.compile(sg.linalg.det)(sg.tensor(WIDE))


SINGULAR_CASES = [("L.inv(z)", SINGULAR), ("L.solve(z, z[..., 0])", SINGULAR),
                  ("L.inv(z[1])", SINGULAR), ("L.cholesky(z)", NOT_PD),
                  ("L.cholesky(z[1], upper=True)", NOT_PD), ("T.inverse(z)", SINGULAR),
                  ("L.cholesky(z * float('nan'))", NOT_PD)]


@pytest.mark.parametrize("expr,z", SINGULAR_CASES, ids=[c[0] for c in SINGULAR_CASES])
def test_singular_and_indefinite_matrices_raise_torchs_linalg_error(expr, z):
    torch = pytest.importorskip("torch")
    with pytest.raises(torch.linalg.LinAlgError) as want:
        eval(expr, {"L": torch.linalg, "T": torch, "z": torch.tensor(z)})
    with pytest.raises(sg.linalg.LinAlgError) as got:
        eval(expr, {"L": sg.linalg, "T": sg, "z": sg.tensor(z)})
    assert str(got.value) == str(want.value)
    assert isinstance(got.value, RuntimeError)


def test_compiled_code_raises_linalg_error_without_the_element_numbers():
    cases = [(sg.linalg.inv, SINGULAR, "linalg.inv: A diagonal element is zero, the inversion "
                                       "could not be completed because the input matrix is "
                                       "singular."),
             (sg.linalg.cholesky, NOT_PD, "linalg.cholesky: The factorization could not be "
                                          "completed because the input is not positive-definite"
                                          " (the leading minor of some order is not "
                                          "positive-definite).")]
    for fn, z, message in cases:
        f = sg.compile(fn)
        np.testing.assert_allclose(np.asarray(f(sg.tensor(z[:1]))), fn(sg.tensor(z[:1])).numpy())
        with pytest.raises(sg.linalg.LinAlgError) as e:
            f(sg.tensor(z))
        assert message in str(e.value)


def test_unchecked_failures_give_nan_and_determinants_zero():
    """Where torch raises nothing (det, slogdet, the solves inside gradients), a singular
    matrix gives 0, (0, -inf) or NaN, eagerly and compiled alike; the unchecked Cholesky
    gives LAPACK's partial factor (potf2's: cholesky_ex's with check_errors=False)."""
    def f(z):
        return (sg.linalg.det(z), sg.linalg.slogdet(z).logabsdet,
                apply("solve", z, z, check=""), apply("cholesky", z, check=""))
    for out in (f(sg.tensor(SINGULAR)), sg.compile(f)(sg.tensor(SINGULAR))):
        det, logabs, x, chol = (np.asarray(t) for t in out)
        np.testing.assert_array_equal(det, [1.0, 0.0])
        np.testing.assert_array_equal(logabs, [0.0, -np.inf])
        np.testing.assert_allclose(x[0], np.eye(2))
        assert np.isnan(x[1]).all()
        np.testing.assert_array_equal(chol[1], potf2(SINGULAR[1]))


def test_vector_norm_rejects_string_orders_with_a_type_error():
    with pytest.raises(TypeError, match="argument 'ord' must be Number, not str"):
        sg.linalg.vector_norm(sg.tensor(SQ), "fro")
