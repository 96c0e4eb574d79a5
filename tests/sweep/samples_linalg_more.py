"""Sample generators of the decompositions beyond ``samples_linalg``: ``svd`` (linalg's and
torch's), ``eig eigvals``, the LU family (``lu_factor lu_factor_ex lu lu_solve lu_unpack``,
torch's ``lu lu_solve``), ``ldl_factor ldl_factor_ex ldl_solve``, ``matrix_exp``, the ``_ex``
functions, ``householder_product orgqr geqrf ormqr``, ``tensorinv tensorsolve vander``,
torch's older ``qr pinverse triangular_solve`` and the functions torch removed (``lstsq solve
eig symeig matrix_rank``: their errors).

Input: an op's name. Output: its samples (``spec.Sample``): square, wide, tall, batched, empty
and 0-d matrices, every dtype, well-conditioned (``spd``, ``tri``) and singular (``sing``)
ones, each op's options and the arguments torch rejects. ``table()`` maps ops to generators.
"""

from __future__ import annotations

import functools

from .spec import T, calls, over_dtypes

V3 = T((3,))
M23, M32, M33, M34 = T((2, 3)), T((3, 2)), T((3, 3)), T((3, 4))
B233, B234 = T((2, 3, 3)), T((2, 3, 4))
SPD, SPDB = T((3, 3), kind="spd"), T((2, 3, 3), kind="spd")
TRI, SING = T((3, 3), kind="tri"), T((3, 3), kind="sing")
S0, E00 = T(()), T((0, 0))
PIV, PIVB = T((3,), "int32", "one3"), T((2, 3), "int32", "one3")
C64, C128 = T((3, 3), "complex64"), T((3, 3), "complex128")
HPD, CB233 = T((3, 3), "complex128", "hpd"), T((2, 3, 3), "complex128")
CPLX = ((C64,), (C128,), (CB233,), (HPD,))   # complex matrices: general, batched, Hermitian


def _square(op: str, *extra) -> list:
    return over_dtypes(op, lambda dt: (T((3, 3), dt),)) + calls(
        op, (B233,), (SPD,), (SING,), (M23,), (S0,), (E00,), (T((2, 0, 0)),), (T((1, 1)),),
        (T((3, 3), "float32"),), *extra)


def _general(op: str, *extra) -> list:
    return _square(op, (M32,), (B234,), (T((0, 3)),), (T((3, 0)),), *extra)


def decompositions() -> dict:
    out = {"linalg.svd": lambda: _general("linalg.svd", (M23, False), (M32, {"full_matrices":
                                                                           False}),
                                          (M33, {"driver": "gesvd"}), *CPLX,
                                          (T((4, 3), "complex128"), False)),
           "torch.svd": lambda: _general("torch.svd", (M32, False), (M23, True, False),
                                         (B234, {"some": False}), *CPLX,
                                         (T((2, 3), "complex128"), True, False))}
    for op in ("linalg.eig", "linalg.eigvals"):
        out[op] = functools.partial(_square, op, *CPLX)
    for op in ("linalg.lu_factor", "linalg.lu_factor_ex", "linalg.lu", "torch.lu"):
        out[op] = functools.partial(_general, op, (M33, {"pivot": False}), (V3,), *CPLX,
                                    (T((4, 3), "complex128"),), (T((3, 4), "complex64"),))
    out["torch.lu"] = functools.partial(_general, "torch.lu", (M33, True, True), (SING, True, True),
                                        *CPLX, (C128, True, True))
    out["linalg.lu_factor_ex"] = functools.partial(_general, "linalg.lu_factor_ex",
                                                   (SING, {"check_errors": True}), *CPLX)
    for op in ("linalg.matrix_exp", "torch.matrix_exp"):
        out[op] = functools.partial(_square, op, (T((3, 3), kind="u"),), (T((2, 2), kind="p"),),
                                    (T((4, 4), "float32", "u"),), *CPLX)
    out["linalg.inv_ex"] = lambda: _square("linalg.inv_ex", (SING, {"check_errors": True}),
                                           *CPLX)
    out["linalg.cholesky_ex"] = lambda: _square(
        "linalg.cholesky_ex", (SPD, {"upper": True}), (M33, {"check_errors": True}), (SPDB,),
        (T((3, 3), "complex64", "hpd"),), (HPD,), (HPD, {"upper": True}),
        (T((2, 3, 3), "complex128", "hpd"),), (C128,), (C128, {"upper": True}),
        (C128, {"check_errors": True}))
    out["linalg.solve_ex"] = lambda: over_dtypes(
        "linalg.solve_ex", lambda dt: (T((3, 3), dt, "spd"), T((3, 2), dt))) + calls(
        "linalg.solve_ex", (M33, V3), (SING, V3), (SING, V3, {"check_errors": True}),
        (M33, M34, {"left": False}), (SPDB, T((3, 1))), (M23, V3), (T((3, 3), "float32"), V3),
        (C64, T((3, 2), "complex64")), (C128, T((3, 2), "complex128")),
        (C128, T((4, 3), "complex128"), {"left": False}), (CB233, T((3,), "complex128")))
    for op in ("linalg.ldl_factor", "linalg.ldl_factor_ex"):
        out[op] = functools.partial(_square, op, (SPD, {"hermitian": True}),
                                    (T((4, 4), kind="t"),), *CPLX[:3],
                                    (T((4, 4), "complex128", "t"),), (HPD, {"hermitian": True}),
                                    (C128, {"hermitian": True}), (T((2, 4, 4), "complex128",
                                                                    "t"), {"hermitian": True}),
                                    (T((3, 3), "complex64"), {"hermitian": True}))
    out["linalg.ldl_factor_ex"] = functools.partial(
        _square, "linalg.ldl_factor_ex", (T((3, 3), kind="t"), {"check_errors": True}),
        *CPLX[:3])
    return out


def lu_solves() -> dict:
    out = {}
    out["linalg.lu_solve"] = lambda: calls(
        "linalg.lu_solve", (SPD, PIV, M34), (SPD, PIV, M34, {"adjoint": True}),
        (SPD, PIV, T((4, 3)), {"left": False}), (SPD, PIV, T((4, 3)), {"left": False,
                                                                      "adjoint": True}),
        (SPDB, PIVB, T((2, 3, 2))), (SPD, PIV, T((2, 3, 2))), (SPD, PIV, V3),
        (SPD, PIV, T((2, 2))), (SPD, PIV, T((3, 2), "float32")),
        (HPD, PIV, T((3, 4), "complex128")), (HPD, PIV, T((3, 4), "complex128"),
                                              {"adjoint": True}),
        (HPD, PIV, T((4, 3), "complex128"), {"left": False}),
        (HPD, PIV, T((4, 3), "complex128"), {"left": False, "adjoint": True}),
        (HPD, PIV, M34))
    out["linalg.ldl_solve"] = lambda: calls(
        "linalg.ldl_solve", (SPD, PIV, M34), (SPDB, PIVB, T((2, 3, 2))), (SPD, PIV, V3),
        (SPD, PIV, T((2, 2))), (SPD, PIV, T((3, 2), "float32")), (SPD, PIV, M34,
                                                                  {"hermitian": True}),
        (C128, PIV, T((3, 4), "complex128")), (C64, PIV, T((3, 2), "complex64")),
        (C128, PIV, M34), (C128, PIV, T((3, 4), "complex128"), {"hermitian": True}),
        (CB233, PIVB, T((2, 3, 2), "complex128"), {"hermitian": True}),
        (T((3, 3), "complex64", "t"), PIV, T((3, 2), "complex64"), {"hermitian": True}))
    out["torch.lu_solve"] = lambda: calls(
        "torch.lu_solve", (M34, SPD, PIV), (T((2, 3, 2)), SPDB, PIVB), (V3, SPD, PIV),
        (T((3, 4), "complex128"), HPD, PIV), (T((3, 4), "complex64"), T((3, 3), "complex64",
                                                                        "hpd"), PIV))
    out["torch.lu_unpack"] = lambda: calls(
        "torch.lu_unpack", (SPD, PIV), (SPD, PIV, False), (SPD, PIV, True, False),
        (SPDB, PIVB), (M34, PIV), (T((4, 3)), PIV), (SPD, T((3,), "int64", "one3")),
        (HPD, PIV), (T((3, 4), "complex64"), PIV))
    return out


def householder() -> dict:
    out = {}
    for op in ("linalg.householder_product", "torch.orgqr"):
        out[op] = functools.partial(
            calls, op, (T((4, 3)), V3), (T((4, 3)), T((2,))), (T((2, 4, 3)), T((2, 3))),
            (M34, V3), (T((4, 3)), T((4,))), (T((4, 3)), T((2, 2))), (V3, T((1,))),
            (T((4, 3), "float32"), V3), (T((4, 3), "float32"), T((3,), "float32")),
            (T((4, 3), "complex128"), T((3,), "complex128")),
            (T((4, 3), "complex64"), T((2,), "complex64")),
            (T((2, 3, 3), "complex128"), T((2, 3), "complex128")), (T((4, 3), "complex128"), V3))
    out["torch.geqrf"] = lambda: _general("torch.geqrf", *CPLX, (T((4, 3), "complex64"),),
                                          (T((2, 4), "complex128"),))
    out["torch.ormqr"] = lambda: calls(
        "torch.ormqr", (T((4, 3)), V3, T((4, 2))), (T((4, 3)), V3, T((2, 4)), False),
        (T((4, 3)), V3, T((4, 2)), True, True), (T((4, 3)), V3, T((2, 4)), False, True),
        (T((2, 4, 3)), T((2, 3)), T((2, 4, 2))), (T((4, 3)), V3, M32), (T((4, 3)), V3, V3),
        (T((4, 3)), T((4,)), T((4, 2))), (M34, V3, M32),
        *[(T((4, 3), "complex128"), T((3,), "complex128"), T((4, 2), "complex128"), *o)
          for o in ((), (True, True), (False,), (False, True))],
        (T((4, 3), "complex64"), T((3,), "complex64"), T((4, 2), "complex64"), True, True))
    return out


def reshaped_and_older() -> dict:
    out = {}
    out["linalg.tensorinv"] = lambda: calls(
        "linalg.tensorinv", (T((4, 2, 2)), 1), (T((2, 2, 4)),), (T((2, 3, 6)),), (M33, 1),
        (T((4, 6)), 1), (T((4, 2, 2)), 0), (T((2, 2, 2, 2)), {"ind": 2}),
        (T((4, 2, 2), "complex128"), 1))
    out["linalg.tensorsolve"] = lambda: calls(
        "linalg.tensorsolve", (T((2, 3, 6)), M23), (T((6, 2, 3)), T((6,)), (0,)),
        (T((2, 3, 6)), M32), (T((2, 3, 2, 3)), M23), (M33, V3),
        (T((2, 3, 6), "complex128"), T((2, 3), "complex128")))
    out["linalg.vander"] = lambda: over_dtypes("linalg.vander", lambda dt: (T((3,), dt),)) + calls(
        "linalg.vander", (M23,), (V3, {"N": 5}), (V3, {"N": 1}), (S0,), (T((0,)),), (T((1,)),),
        (T((3,), "int64", "i"), {"N": 4}))
    out["torch.qr"] = lambda: _general("torch.qr", (T((4, 3)), False), (M33, {"some": False}),
                                       *CPLX, (T((4, 3), "complex128"), False))
    out["torch.pinverse"] = lambda: _general("torch.pinverse", (T((4, 3)), 0.5),
                                             (SING, {"rcond": 0.1}), *CPLX,
                                             (T((4, 3), "complex128"),))
    out["torch.triangular_solve"] = lambda: calls(
        "torch.triangular_solve", (M34, TRI), (M34, TRI, False), (M34, TRI, True, True),
        (M34, TRI, False, False, True), (T((2, 3, 2)), TRI), (M34, T((2, 3, 3), kind="tri")),
        (V3, TRI), (M34, V3), (T((3, 4), "float32"), TRI), (M34, T((3, 3), "float32", "tri")),
        (T((3, 4), "complex128"), T((3, 3), "complex128", "ctri"), False),
        (T((3, 4), "complex64"), T((3, 3), "complex64", "ctri"), False, True),
        (T((3, 4), "complex128"), T((3, 3), "complex128", "ctri"), False, False, True),
        (M34, T((3, 3), "complex128", "ctri"), False))
    return out


def removed() -> dict:
    """torch's functions removed in 1.9 that still raise their message."""
    return {"torch.lstsq": lambda: calls("torch.lstsq", (M33, M33)),
            "torch.solve": lambda: calls("torch.solve", (M33, M33)),
            "torch.eig": lambda: calls("torch.eig", (M33,), (M33, True)),
            "torch.symeig": lambda: calls("torch.symeig", (M33,), (M33, True)),
            "torch.matrix_rank": lambda: calls("torch.matrix_rank", (M33,))}


def table() -> dict:
    return {**decompositions(), **lu_solves(), **householder(), **reshaped_and_older(),
            **removed()}
