"""The decomposition primitives (ops.decomp) and their C kernels (lower.decomp, codegen.c.decomp):
each op's compiled C against its NumPy reference with transposed and broadcast operands (read
in place, not copied), the kernels' C text (self-contained: no LAPACK or BLAS), one kernel and
its scratch per node, and the negative status a checked kernel returns."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.core.apply import apply
from symgrad.lower.decomp import DecompKernel
from symgrad.ops import OPS
from symgrad.ops.decomp import DECOMPOSITIONS, signed_columns
from symgrad.ops.registry import OTHER

RNG = np.random.default_rng(3)
A = RNG.standard_normal((2, 4, 4)) + 3 * np.eye(4)
B = RNG.standard_normal((4, 3))
SPD = A @ np.swapaxes(A, -1, -2)
R = RNG.standard_normal((2, 3, 5))
# complex operands: the same shapes, Hermitian positive-definite HPD
CA = A + 1j * RNG.standard_normal(A.shape)
CB = B + 1j * RNG.standard_normal(B.shape)
HPD = CA @ np.swapaxes(CA, -1, -2).conj()
CR = R + 1j * RNG.standard_normal(R.shape)
OPERANDS = {False: (A, B, SPD, R), True: (CA, CB, HPD, CR)}


def _ops(a, b, s, r):
    """Every primitive, with transposed (a.mT, r.mT) and broadcast (b.expand) operands."""
    bb = b.expand(2, 4, 3)
    return (apply("solve", a.mT, bb, check="torch.linalg.solve"),
            apply("slogdet", a.mT), apply("det", a),
            apply("cholesky", s, check="linalg.cholesky"),
            apply("triangular_solve", a.mT, bb, upper=True, unitriangular=False),
            apply("triangular_solve", a, bb, upper=False, unitriangular=True),
            apply("eigh", a, upper=True), apply("eigh", s.mT, upper=False),
            apply("qr", r.mT, complete=False), apply("qr", r, complete=True))


def _want(a, b, spd, r):
    """NumPy's (LAPACK's) results for ``_ops`` (complex: a.mT is a transpose, no conjugate)."""
    at = np.swapaxes(a, -1, -2)
    up = np.triu(at)
    unit = np.tril(a, -1) + np.eye(4)
    w, v = np.linalg.eigh(a, UPLO="U")
    ws, vs = np.linalg.eigh(np.swapaxes(spd, -1, -2))
    return (np.linalg.solve(at, b), np.stack(np.linalg.slogdet(at), -1), np.linalg.det(a),
            np.linalg.cholesky(spd), np.linalg.solve(up, b), np.linalg.solve(unit, b),
            np.concatenate([w[:, None], signed_columns(v)], 1),
            np.concatenate([ws[:, None], signed_columns(vs)], 1),
            np.linalg.qr(np.swapaxes(r, -1, -2))[0], np.linalg.qr(r, mode="complete")[0])


def test_every_primitive_is_registered_with_a_reference_and_a_rule():
    for name in DECOMPOSITIONS:
        op = OPS[name]
        assert op.kind == OTHER and op.numpy is not None and op.vjp is not None, name


@pytest.mark.parametrize("dtype", [sg.float64, sg.float32, sg.complex128, sg.complex64])
def test_kernels_match_the_numpy_references_with_strided_and_broadcast_operands(dtype):
    """(Complex: the eigenvectors' phases by ``signed_columns``' convention, QR's as
    LAPACK's zgeqrf, LU's pivots by |Re| + |Im| as LAPACK's izamax.)"""
    operands = OPERANDS[dtype.is_complex]
    args = [sg.tensor(x, dtype=dtype) for x in operands]
    eager = _ops(*args)
    compiled = sg.compile(_ops)(*args)
    double = dtype in (sg.float64, sg.complex128)
    tol = dict(rtol=1e-11, atol=1e-12) if double else dict(rtol=1e-4, atol=1e-5)
    for e, c, want in zip(eager, compiled, _want(*operands)):
        np.testing.assert_allclose(e.numpy(), want, **tol)
        np.testing.assert_allclose(np.asarray(c), want, **tol)
        assert np.asarray(c).dtype == dtype.np


def test_one_self_contained_kernel_per_node_and_no_copies():
    args = [sg.tensor(x) for x in (A, B, SPD, R)]
    ins = sg.inspect(sg.compile(_ops), *args, print_=False)
    kernels = ins.spec.compiled.program.kernels
    decomp = [k for k in kernels if isinstance(k, DecompKernel)]
    assert [k.kind for k in decomp] == ["solve", "slogdet", "det", "cholesky",
                                        "triangular_solve", "triangular_solve", "eigh", "eigh",
                                        "qr", "qr"]
    assert len(kernels) == len(decomp)       # transposes and broadcasts are views: no copies
    scratch = {k.kind: [v.buffer.size for v in k.scratch] for k in decomp}
    assert scratch == {"solve": [16], "slogdet": [16], "det": [16], "cholesky": [],
                       "triangular_solve": [], "eigh": [16], "qr": [15, 3]}
    c = ins.c_source
    assert "scipy_" not in c and "lapack" not in c.lower() and "#undef A_" in c
    assert c.count("LU factorization with partial pivoting") == 3
    assert "cyclic Jacobi sweeps" in c and "Householder QR" in c


def test_a_checked_kernel_returns_a_negative_status():
    f = sg.compile(lambda a: apply("solve", a, a, check="linalg.inv"))
    c = sg.inspect(f, sg.tensor(A), print_=False).c_source
    assert "return -1;" in c
    with pytest.raises(sg.linalg.LinAlgError, match="linalg.inv"):
        f(sg.tensor(np.zeros((2, 4, 4))))
