"""Sample generators of products and linear algebra: ``matmul mm bmm dot mv outer einsum
tensordot addmm baddbmm kron cross cdist``, ``det inverse cholesky slogdet``, ``torch.linalg``
and the difference/integration helpers (``diff trapezoid cov corrcoef vander``).

Input: an op's name. Output: its samples (``spec.Sample``): vectors, matrices and batches that
broadcast or do not, empty and 0-d operands, every dtype, mixed dtypes, well-conditioned
(``spd``, ``tri``) and singular (``sing``) matrices, and each op's options. ``TABLE`` maps ops
to generators.
"""

from __future__ import annotations

import functools

from .spec import D, T, calls, over_dtypes

V3, V4 = T((3,)), T((4,))
M23, M34, M33 = T((2, 3)), T((3, 4)), T((3, 3))
B233, B234 = T((2, 3, 3)), T((2, 3, 4))
SPD, SPDB = T((3, 3), kind="spd"), T((2, 3, 3), kind="spd")
TRI, SING = T((3, 3), kind="tri"), T((3, 3), kind="sing")
S0 = T(())
COMPLEXES = ("complex64", "complex128")


def cplx(shape: tuple = (3, 3), kind: str = "", *rest) -> list:
    """One entry per complex dtype: a (shape, kind) tensor, then ``rest``."""
    return [(T(shape, dt, kind),) + rest for dt in COMPLEXES]


def products(op: str, a: T, b: T, *entries) -> list:
    out = over_dtypes(op, lambda dt: (T(a.shape, dt), T(b.shape, dt)))
    out += calls(op, (T(a.shape, "float32"), T(b.shape, "float64")),
                 (T(a.shape, "int64"), T(b.shape, "float32")), *entries)
    return out


def matmul(op: str) -> list:
    return products(op, M23, M34, (V3, V3), (M23, V3), (V3, M34), (T((2, 2, 3)), M34),
                    (B233, B234), (T((2, 1, 2, 3)), T((3, 3, 2))), (M23, M23), (S0, V3),
                    (T((0, 3)), M34), (T((2, 0)), T((0, 3))), (T((1, 2, 3)), T((4, 3, 2))),
                    (T((2, 3), grad=False), T((3, 4), grad=False), {"out": T((2, 4), grad=False)}),
                    (M23, [[1.0], [2.0], [3.0]]))


def addmm_family(op: str, shapes: tuple) -> list:
    a, b, c = (T(s) for s in shapes)
    out = over_dtypes(op, lambda dt: tuple(T(s, dt) for s in shapes))
    out += calls(op, (a, b, c, {"beta": 0.5, "alpha": 2}), (a, b, c, {"beta": 0}),
                 (T(shapes[0], "float32"), b, c), (T(shapes[0][-1:]), b, c), (S0, b, c),
                 (T(shapes[0], "int64"), T(shapes[1], "int64"), T(shapes[2], "int64"),
                  {"alpha": 0.5}), (a, b, T((5,) * len(shapes[2]))),
                 (a, b, c, {"beta": float("nan")}),
                 (T(shapes[0], grad=False), T(shapes[1], grad=False), T(shapes[2], grad=False),
                  {"out": T(shapes[0], grad=False)}))
    return out


def einsum() -> list:
    op = "torch.einsum"
    return over_dtypes(op, lambda dt: ("ij,jk->ik", T((2, 3), dt), T((3, 4), dt))) + calls(
        op, ("ii->i", M33), ("ii", M33), ("i,i->", V3, V3), ("i,j->ij", V3, V4),
        ("bij,bjk->bik", B233, B234), ("...ij,jk", B233, M34), ("ij->ji", M23),
        ("ij,ij->ij", M23, M23), ("ij->", M23), ("ij,jk", [M23, M34]), ("ij,jk->ik", M23, V3),
        ("ij,jk->ik", M23, M34, M34), ("i ,i->", V3, V3), ("ij,jk->ik", T((2, 3), "float32"),
                                                         M34), ("", S0), ("i->", T((0,))),
        ("iij->j", T((2, 2, 3))), ("ab,ab->", M23, T((2, 3), "int64")))


def tensordot() -> list:
    op = "torch.tensordot"
    return over_dtypes(op, lambda dt: (T((2, 3), dt), T((3, 4), dt), 1)) + calls(
        op, (B234, T((3, 4, 2)), 2), (B234, T((4, 3)), ([1, 2], [1, 0])), (M23, M34, 0),
        (M23, M34), (M23, M34, {"dims": ([1], [0])}), (M23, M34, 2), (M23, T((3,)), 3),
        (M23, M34, ((1,), (0,))), (M23, M34, -1), (M23, T((3, 4), "float32"), 1))


def decompositions() -> dict:
    sq = lambda op, extra=(): over_dtypes(op, lambda dt: (T((3, 3), dt, "spd"),)) + calls(
        op, (M33,), (SPDB,), (SING,), (M23,), (S0,), (T((0, 0)),), (T((2, 0, 0)),),
        (T((1, 1)),), (T((3, 3), "float64", "e"),), (TRI,), *extra)
    out = {}
    for op in ("torch.det", "torch.logdet", "torch.slogdet", "torch.inverse", "torch.cholesky",
               "torch.cholesky_inverse", "linalg.det", "linalg.slogdet", "linalg.inv",
               "linalg.cholesky", "linalg.eigh", "linalg.eigvalsh", "linalg.svdvals",
               "linalg.matrix_rank", "linalg.pinv", "linalg.cond", "linalg.qr"):
        out[op] = functools.partial(sq, op)
    hermitian = ("torch.cholesky", "linalg.cholesky", "linalg.eigh", "linalg.eigvalsh")
    for op in out:   # complex matrices: Hermitian positive definite, general, batched
        out[op] = functools.partial(
            sq, op, cplx((3, 3), "hpd") + [(T((2, 3, 3), "complex128", "hpd"),)] +
            ([] if op in hermitian else cplx() + [(T((2, 3, 3), "complex128"),)]))
    out["torch.cholesky"] = functools.partial(sq, "torch.cholesky", [(SPD, True), (SPD, False)]
                                              + cplx((3, 3), "hpd", True))
    hpd = cplx((3, 3), "hpd") + [(T((2, 3, 3), "complex128", "hpd"),)]
    out["linalg.cholesky"] = functools.partial(sq, "linalg.cholesky", [(SPD, {"upper": True})]
                                               + hpd + cplx((3, 3), "hpd", {"upper": True}))
    out["torch.cholesky_inverse"] = functools.partial(
        sq, "torch.cholesky_inverse", [(TRI, True), (TRI, {"upper": False})] +
        cplx((3, 3), "ctri") + cplx((3, 3), "ctri", True) + [(T((2, 3, 3), "complex128",
                                                               "ctri"),)])
    out["linalg.eigh"] = functools.partial(sq, "linalg.eigh", [(SPD, "U"), (SPD, "X")] + hpd +
                                           cplx((3, 3), "hpd", "U") + cplx())
    out["linalg.eigvalsh"] = functools.partial(sq, "linalg.eigvalsh", [(SPD, {"UPLO": "U"})] +
                                               hpd + cplx((3, 3), "hpd", {"UPLO": "U"}))
    out["linalg.qr"] = functools.partial(sq, "linalg.qr", [(M23, "complete"), (T((3, 2)), "r"),
                                                           (M33, "bad"), (T((4, 2)),)] +
                                         cplx() + cplx((4, 2)) + cplx((2, 3)) +
                                         cplx((2, 3), "", "complete") + cplx((3, 2), "", "r") +
                                         [(T((2, 4, 3), "complex128"),)])
    general = hpd + cplx() + [(T((2, 3, 3), "complex128"),)]
    out["linalg.matrix_rank"] = functools.partial(sq, "linalg.matrix_rank", [
        (SPD, {"hermitian": True}), (SING, {"atol": 0.1}), (M33, {"rtol": 0.5})] + general +
        cplx((3, 3), "hpd", {"hermitian": True}) + cplx((3, 2)))
    out["linalg.pinv"] = functools.partial(sq, "linalg.pinv", [
        (SPD, {"hermitian": True}), (SING, {"atol": 0.1}), (T((3, 2)),), (M33, {"rtol": 0.5}),
        (T((2, 3)), {"atol": 0.9})] + general +
        cplx((3, 3), "hpd", {"hermitian": True}) + cplx((3, 2)) + cplx((2, 3)))
    out["linalg.cond"] = functools.partial(sq, "linalg.cond", [
        (M33, p) for p in (1, -1, 2, -2, float("inf"), "fro", "nuc", 3)] + general + [
        (T((3, 3), "complex128"), p) for p in (1, -2, float("inf"), "fro", "nuc")])
    out["linalg.svdvals"] = functools.partial(sq, "linalg.svdvals", [(T((3, 2)),), (B234,)] +
                                              general + cplx((3, 2)) + cplx((2, 4)))
    return out


def solves() -> dict:
    out = {}
    out["linalg.solve"] = lambda: over_dtypes(
        "linalg.solve", lambda dt: (T((3, 3), dt, "spd"), T((3, 2), dt))) + calls(
        "linalg.solve", (M33, V3), (SPDB, T((3, 1))), (SPDB, T((2, 3))), (SING, V3), (M23, V3),
        (M33, T((4,))), (M33, M34, {"left": False}), (T((3, 3), "float32"), V3),
        (T((0, 0)), T((0,))), (M33, T((2, 3, 2))),
        *[(T((3, 3), dt), T((3, 2), dt)) for dt in COMPLEXES],
        (T((3, 3), "complex128"), T((3,), "complex128")),
        (T((2, 3, 3), "complex128"), T((3, 4), "complex128"), {"left": False}),
        (M33, T((3, 2), "complex128")), (T((3, 3), "complex128"), T((3, 2))))
    out["linalg.solve_triangular"] = lambda: calls(
        "linalg.solve_triangular", (TRI, M34, {"upper": False}), (TRI, M34),
        (TRI, M34, {"upper": False, "unitriangular": True}), (TRI, T((4, 3)),
                                                             {"upper": False, "left": False}),
        (T((3, 3), kind="tri"), M34, {"upper": True}), (TRI, V3, {"upper": False}),
        (TRI, T((2, 3, 1)), {"upper": False}), (T((3, 3), "float32", "tri"), M34,
                                                {"upper": False}),
        *[(T((3, 3), dt, "ctri"), T((3, 4), dt), {"upper": False}) for dt in COMPLEXES],
        (T((3, 3), "complex128", "ctri"), T((3, 4), "complex128")),
        (T((3, 3), "complex128", "ctri"), T((3, 4), "complex128"), {"upper": False,
                                                                   "unitriangular": True}),
        (T((3, 3), "complex128", "ctri"), T((4, 3), "complex128"), {"upper": False,
                                                                   "left": False}),
        (T((3, 3), "complex128", "ctri"), M34, {"upper": False}),
        (TRI, T((3, 4), "complex128"), {"upper": False}))
    out["torch.cholesky_solve"] = lambda: calls(
        "torch.cholesky_solve", (M34, TRI), (M34, TRI, True), (T((3, 1)), TRI, False),
        (T((2, 3, 2)), TRI), (V3, TRI), (T((3, 4), "float32"), TRI),
        *[(T((3, 4), dt), T((3, 3), dt, "ctri")) for dt in COMPLEXES],
        (T((3, 4), "complex128"), T((3, 3), "complex128", "ctri"), True),
        (M34, T((3, 3), "complex128", "ctri")))
    out["linalg.lstsq"] = lambda: calls(
        "linalg.lstsq", (M33, M34), (T((4, 2)), T((4, 3))), (T((2, 4)), T((2, 1))), (M33, V3),
        (T((4, 2)), T((4, 3)), {"driver": "gelsd"}), (T((4, 2)), T((4, 3)), None),
        (T((4, 2), "float32"), T((4, 3), "float32")), (SING, M34),
        *[(T((4, 2), dt), T((4, 3), dt)) for dt in COMPLEXES],
        (T((2, 4), "complex128"), T((2, 1), "complex128")),
        (T((3, 3), "complex128"), T((3,), "complex128")),
        (T((4, 2), "complex128"), T((4, 3), "complex128"), {"driver": "gelsd"}),
        (T((4, 2), "complex128"), T((4, 3))))
    return out


def norms() -> dict:
    out = {}
    v = "linalg.vector_norm"
    out[v] = lambda: over_dtypes(v, lambda dt: (T((2, 3), dt),)) + calls(
        v, *[(M23, o) for o in (1, 0, 3, 0.5, float("inf"), float("-inf"), -1)],
        (M23, 2, 1), (M23, 2, (0, 1), True), (M23, {"dim": -1, "keepdim": True}),
        (M23, {"dtype": D("float32")}), (T((2, 3), "float32"), {"dtype": D("float64")}),
        (T((16,), "float64", "e"),), (T((16,), "float64", "e"), 0), (S0,), (T((0, 3)),),
        (T((0, 3)), float("inf")), (T((0, 3)), 2, 1), (T((4,), "float64", "t"), 1))
    m = "linalg.matrix_norm"
    out[m] = lambda: over_dtypes(m, lambda dt: (T((2, 3), dt),)) + calls(
        m, *[(M23, o) for o in ("fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf"), 3)],
        (B234, "fro", (0, 2)), (M23, "fro", (0, 1), True), (T((3,)),), (T((0, 3)),),
        (SING, "nuc"), (T((3, 3), "float64", "t"), 1),
        *[(T((2, 3), "complex128"), o) for o in ("fro", "nuc", 1, -1, 2, -2, float("inf"))],
        (T((2, 3), "complex64"), "nuc"), (T((2, 3, 4), "complex128"), 2))
    n = "linalg.norm"
    out[n] = lambda: over_dtypes(n, lambda dt: (T((2, 3), dt),)) + calls(
        n, (V3,), (V3, 1), (M23, "fro"), (M23, "nuc"), (M23, 2), (M23, 2, 1), (M23, None, 1),
        (M23, float("inf"), (0, 1)), (B234, None, (1, 2)), (B234, 2, (0, 1, 2)), (S0,),
        (T((0, 3)),), (M23, {"keepdim": True}), (T((16,), "float64", "e"),),
        (T((2, 3), "complex128"), "nuc"), (T((2, 3), "complex128"), 2),
        (T((2, 3), "complex64"), -2))
    return out


def helpers() -> dict:
    out = {}
    D = "torch.diff"
    out[D] = lambda: over_dtypes(D, lambda dt: (T((2, 5), dt),)) + calls(
        D, (M23, 2), (M23, 1, 0), (M23, 1, -1, T((2, 1))), (M23, 1, -1, None,
                                                                          T((2, 2))),
        (M23, 0), (M23, 5), (S0,), (T((0, 3)),), (T((2, 3), "bool"),), (M23, 1, 2),
        (M23, {"prepend": T((2, 3), "float32")}), (M23, -1))
    for name in ("trapezoid", "trapz", "cumulative_trapezoid"):
        op = f"torch.{name}"
        out[op] = lambda op=op: over_dtypes(op, lambda dt: (T((2, 5), dt),)) + calls(
            op, (M23, T((3,), kind="sorted")), (M23, {"dx": 0.5}), (M23, {"dim": 0}),
            (M23, T((2, 3), kind="sorted")), (M23, T((4,))), (S0,), (T((0,)),),
            (M23, {"x": T((3,)), "dim": -1}), (M23, 2.0))
    out["torch.cov"] = lambda: over_dtypes("torch.cov", lambda dt: (T((2, 5), dt),)) + calls(
        "torch.cov", (V3,), (M23, {"correction": 0}), (M23, {"correction": 2}),
        (T((2, 4)), {"fweights": T((4,), "int64", "idx3")}),
        (T((2, 4)), {"aweights": T((4,), kind="p")}), (T((2, 4)), {"fweights": T((4,))}),
        (T((2, 1)),), (S0,), (T((0, 3)),), (T((2, 3, 1)),),
        (T((2, 4)), {"fweights": T((4,), "int64", "idx3"), "aweights": T((4,), kind="p")}))
    out["torch.corrcoef"] = lambda: over_dtypes("torch.corrcoef",
                                                lambda dt: (T((2, 5), dt),)) + calls(
        "torch.corrcoef", (V3,), (T((2, 1)),), (S0,), (T((3, 4), "float64", "t"),))
    out["torch.vander"] = lambda: over_dtypes("torch.vander", lambda dt: (T((3,), dt),)) + calls(
        "torch.vander", (V3, 4), (V3, {"N": 2, "increasing": True}), (V3, 0), (S0,), (M23,),
        (T((0,)),), (V3, -1))
    return out


def table() -> dict:
    out = {}
    for op in ("torch.matmul", "linalg.matmul"):
        out[op] = functools.partial(matmul, op)
    out["torch.mm"] = lambda: products("torch.mm", M23, M34, (V3, M34), (B233, M34), (M23, M23),
                                       (T((0, 3)), M34), (M23, T((3, 4), grad=False),
                                                           {"out": T((2, 4), grad=False)}))
    out["torch.bmm"] = lambda: products("torch.bmm", B233, B234, (M23, M34), (B233, T((3, 3, 4))),
                                        (T((2, 0, 3)), B234))
    for name in ("dot", "vdot", "inner", "outer", "ger", "kron"):
        out[f"torch.{name}"] = functools.partial(
            products, f"torch.{name}", V3, V3, (V3, V4), (S0, S0), (M23, V3), (M23, M34),
            (T((0,)), T((0,))), (V3, 2.0))
    out["torch.mv"] = lambda: products("torch.mv", M23, V3, (M23, V4), (V3, V3), (B233, V3),
                                       (T((0, 3)), V3))
    out["torch.addmm"] = lambda: addmm_family("torch.addmm", ((2, 4), (2, 3), (3, 4)))
    out["torch.addmv"] = lambda: addmm_family("torch.addmv", ((2,), (2, 3), (3,)))
    out["torch.addbmm"] = lambda: addmm_family("torch.addbmm", ((3, 4), (2, 3, 3), (2, 3, 4)))
    out["torch.baddbmm"] = lambda: addmm_family("torch.baddbmm", ((2, 3, 4), (2, 3, 3),
                                                                  (2, 3, 4)))
    out["torch.einsum"] = einsum
    out["torch.tensordot"] = tensordot
    for op in ("torch.cross", "linalg.cross"):
        out[op] = functools.partial(products, op, T((2, 3)), T((2, 3)), (T((3, 2)), T((3, 2)), 0),
                                    (T((2, 3)), T((3,))), (T((2, 4)), T((2, 4))),
                                    (T((3, 3)), T((3, 3)), {"dim": 0}), (V3, V3))
    out["torch.cdist"] = lambda: products("torch.cdist", T((2, 3)), T((4, 3)), *[
        (T((2, 3)), T((4, 3)), p) for p in (1.0, 0.0, 3.0, float("inf"), 0.5, -1.0)],
        (T((2, 2, 3)), T((2, 4, 3))), (T((2, 3)), T((4, 2))), (T((0, 3)), T((4, 3))),
        (T((2, 3), kind="t"), T((2, 3), kind="t")))
    out["torch.dist"] = lambda: products("torch.dist", M23, M23, *[
        (M23, T((3,)), p) for p in (1, 0, 3, float("inf"), 0.5)], (M23, T((4,))))
    for op in ("torch.matrix_power", "linalg.matrix_power"):
        out[op] = functools.partial(lambda o: over_dtypes(o, lambda dt: (T((3, 3), dt), 2))
                                    + calls(o, *[(M33, n) for n in (0, 1, 3, -1, -2)],
                                            (SING, -1), (M23, 2), (B233, 2), (S0, 2),
                                            *cplx((3, 3), "", 3), *cplx((3, 3), "", -2),
                                            (T((2, 3, 3), "complex128"), -1)), op)
    out["linalg.multi_dot"] = lambda: calls(
        "linalg.multi_dot", ([M23, M34],), ([V3, M34, V4],), ([M23, M34, T((4, 2))],),
        ([M23],), ([M23, M23],), ([T((2, 3), "float32"), M34],))
    out["linalg.vecdot"] = lambda: products("linalg.vecdot", M23, M23, (M23, V3),
                                            (M23, M23, {"dim": 0}), (M23, V4))
    out["linalg.diagonal"] = lambda: over_dtypes("linalg.diagonal",
                                                 lambda dt: (T((3, 3), dt),)) + calls(
        "linalg.diagonal", (B233, {"offset": 1}), (B233, {"dim1": 0, "dim2": 2}), (V3,))
    out.update(decompositions())
    out.update(solves())
    out.update(norms())
    out.update(helpers())
    return out
