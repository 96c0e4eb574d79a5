"""Sample generators of indexing, scatter/gather and searching: ``x[...]`` reads and writes,
``gather scatter scatter_add index_* masked_* take_along_dim``, ``nonzero argwhere unique
searchsorted bucketize bincount histc``.

Input: an op's name. Output: its samples (``spec.Sample``): every dtype of the indexed tensor,
index tensors in range, negative, out of range and of the wrong dtype, broadcasting masks,
values as numbers and as tensors that require grad, and each op's options. Where torch leaves
the result undefined (a scatter with repeated indices) the samples tag it ``dup`` and
``known_differences`` excludes it. ``TABLE`` maps ops to generators.
"""

from __future__ import annotations

from .spec import T, calls, over_dtypes

X = T((2, 3))
X4 = T((2, 4))
S0 = T(())
E = T((0, 3))
I = "int64"   # noqa: E741


def idx(shape, n, kind="idx"):
    return T(shape, I, f"{kind}{n}")


def gather() -> list:
    op = "torch.gather"
    return over_dtypes(op, lambda dt: (T((2, 3), dt), 1, idx((2, 2), 3))) + calls(
        op, (X, 0, idx((1, 3), 2)), (X, -1, idx((2, 5), 3)), (X, 1, idx((2, 2), 4)),
        (X, 1, idx((2, 2), 3, "neg")), (X, 2, idx((2, 2), 3)), (X, 1, T((2, 2), "int32", "idx3")),
        (X, 1, T((2, 2), kind="idx3")), (X, 1, idx((3, 2), 3)), (S0, 0, idx((), 1)),
        (X, 1, idx((0, 2), 3)), (X, 1, idx((2, 2), 3), {"sparse_grad": False}),
        (T((2, 3), grad=False), 1, idx((2, 2), 3), {"out": T((2, 2), grad=False)}))


def scatter(op: str) -> list:
    add = op.endswith("add")
    P = idx((2, 3), 4, "perm")
    out = over_dtypes(op, lambda dt: (T((2, 4), dt), 1, P, T((2, 3), dt)))
    out += calls(op, (X4, 0, idx((1, 4), 2), T((1, 4))), (X4, -1, P, T((2, 3))),
                 (X4, 1, P, T((3, 5))), (X4, 1, idx((2, 3), 5, "perm"), T((2, 3))),
                 (X4, 1, T((2, 3), "int32", "perm4"), T((2, 3))), (X4, 1, P, T((2, 3), "float32")),
                 (X4, 2, P, T((2, 3))), (S0, 0, idx((), 1), T(())),
                 (X4, 1, idx((2, 3), 4), T((2, 3)), {"#": "dup"}),
                 (X4, 1, idx((0, 3), 4), T((0, 3))), (X4, 1, T((2, 3), "int64", "neg4"), T((2, 3))))
    if not add:
        out += calls(op, (X4, 1, P, 2.5), (T((2, 4), I), 1, P, 1.5), (X4, 1, P, T((2, 3)),
                                                                        {"reduce": "add"}),
                     (X4, 1, P, T((2, 3)), {"reduce": "multiply"}), (X4, 1, P, 2.0,
                                                                    {"reduce": "multiply"}),
                     (X4, 1, P, T((2, 3)), {"reduce": "mean"}), (X4, 1, P, {"value": 1.0}),
                     (X4, 1, idx((2, 3), 4), T((2, 3)), {"reduce": "add", "#": "dup"}))
    return out


def index_ops(op: str) -> list:
    name = op.split(".")[1]
    adds = name in ("index_add", "index_copy")
    v = {"index_select": (), "index_fill": (1.5,)}.get(name, (T((2, 2)),))
    vd = (lambda dt: (T((2, 2), dt),)) if adds else (lambda dt: v)
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), 1, idx((2,), 3, "perm")) + vd(dt))
    iv = {"index_select": (), "index_fill": (-1.0,)}.get(name, (T((2, 3)),))
    out += calls(op, (X, 0, idx((2,), 2, "perm")) + iv, (X, -1, T((2,), I, "neg3")) + v,
                 (X, 1, idx((2,), 4)) + v, (X, 2, idx((2,), 3)) + v,
                 (X, 1, T((2,), "int32", "perm3")) + v, (X, 1, T((2, 2), I, "idx3")) + v,
                 (X, 1, T((2,), kind="idx3")) + v, (X, 1, T((), I, "idx3")) + (
                     (T((2,)),) if adds else v),
                 (S0, 0, idx((1,), 1)) + ((T((1,)),) if adds else v),
                 (X, 1, idx((0,), 3)) + ((T((2, 0)),) if adds else v))
    if adds:
        out += calls(op, (X, 1, idx((4,), 3), T((2, 4)), {"#": "dup"}),
                     (X, 1, idx((2,), 3, "perm"), T((2, 2), "float32")))
    if name == "index_add":
        out += calls(op, (X, 1, idx((2,), 3, "perm"), T((2, 2)), {"alpha": 2}))
    if name == "index_fill":
        out += calls(op, (X, 1, idx((2,), 3, "perm"), T(())), (T((2, 3), I), 1,
                                                                 idx((2,), 3, "perm"), 2.5),
                     (X, 1, idx((2,), 3, "perm"), T((1,))))
    if name == "index_select":
        out += calls(op, (T((2, 3), grad=False), 1, idx((2,), 3, "perm"),
                          {"out": T((2, 2), grad=False)}))
    return out


def masked(op: str) -> list:
    name = op.split(".")[1]
    M = T((2, 3), "bool")
    tail = {"masked_fill": (1.5,), "masked_select": (), "masked_scatter": (T((2, 3)),)}[name]
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), M) + (
        (T((2, 3), dt),) if name == "masked_scatter" else tail))
    out += calls(op, (X, T((3,), "bool")) + tail, (X, T((2, 1), "bool")) + tail,
                 (X, T((2, 3), "uint8")) + tail, (X, T((2, 3), I)) + tail,
                 (X, T((4,), "bool")) + tail, (S0, T((), "bool")) + tail,
                 (E, T((0, 3), "bool")) + tail, (T((3,)), T((2, 3), "bool")) + tail)
    if name == "masked_fill":
        out += calls(op, (X, M, T(())), (X, M, T((1,))), (X, M, T((), "float32")),
                     (T((2, 3), I), M, 2.5), (T((2, 3), "bool"), M, 2), (X, M, float("nan")),
                     (X, M, T((3,))))
    if name == "masked_scatter":
        out += calls(op, (X, M, T((10,))), (X, M, T((2,))), (X, M, T((2, 3), "float32")))
    if name == "masked_select":
        out += calls(op, (T((2, 3), grad=False), M, {"out": T((0,), grad=False)}))
    return out


def searching() -> dict:
    B = T((5,), kind="sorted")
    B2 = T((2, 5), kind="sorted")
    out = {}
    out["torch.searchsorted"] = lambda: over_dtypes(
        "torch.searchsorted", lambda dt: (T((5,), dt, "sorted"), T((2, 3), dt))) + calls(
        "torch.searchsorted", (B, X, {"right": True}), (B, X, {"side": "right"}),
        (B, X, {"side": "left", "right": True}), (B, X, {"out_int32": True}), (B, 0.5),
        (B, 3), (B2, T((2, 3))), (B2, T((3, 3))), (B, T((4,), "float64", "t")),
        (T((5,), kind="n"), X, {"sorter": idx((5,), 5, "perm")}), (T((0,)), X), (B, T(())),
        (T((5,), "float64", "e"), T((16,), "float64", "e")), (B, T((2, 3), "float32")))
    out["torch.bucketize"] = lambda: over_dtypes(
        "torch.bucketize", lambda dt: (T((2, 3), dt), T((5,), dt, "sorted"))) + calls(
        "torch.bucketize", (X, B, {"right": True}), (X, B, {"out_int32": True}), (0.5, B),
        (X, B2), (T((16,), "float64", "e"), B), (S0, B), (X, T((0,))))
    out["torch.bincount"] = lambda: calls(
        "torch.bincount", (idx((6,), 4),), (idx((6,), 4), T((6,))), (idx((6,), 4), None, 7),
        (idx((6,), 4), {"minlength": 2}), (T((6,), I, "neg3"),), (idx((2, 3), 4),),
        (T((6,), "int32", "idx4"),), (T((6,), "uint8", "idx4"),), (T((6,), kind="idx4"),),
        (idx((0,), 4),), (idx((6,), 4), T((6,), "float32")), (idx((6,), 4), T((5,))),
        (T((6,), "bool"),), (idx((6,), 4), T((6,), I)))
    out["torch.histc"] = lambda: over_dtypes(
        "torch.histc", lambda dt: (T((10,), dt),)) + calls(
        "torch.histc", (X, 4), (X, 4, -1, 1), (X, {"bins": 3, "min": 0, "max": 0}),
        (T((16,), "float64", "e"), 5, -3, 3), (X, 4, 1, -1), (X, 0), (T((0,)), 4),
        (T((2, 3), grad=False), 4, {"out": T((4,), grad=False)}))
    return out


def uniques() -> dict:
    U = T((8,), "float64", "t")
    out = {}
    for name in ("unique", "unique_consecutive"):
        op = f"torch.{name}"
        out[op] = lambda op=op: over_dtypes(op, lambda dt: (T((8,), dt, "t"),)) + calls(
            op, (U, {"return_inverse": True}), (U, {"return_counts": True}),
            (U, {"return_inverse": True, "return_counts": True}), (T((3, 4), "float64", "t"),),
            (T((3, 4), "float64", "t"), {"dim": 0}), (T((3, 4), "float64", "t"), {"dim": 1}),
            (T((3, 4), "float64", "t"), {"dim": 2}), (T(()),), (T((0,)),),
            (T((16,), "float64", "e"),), (T((4, 2), I, "t"), {"dim": 0, "return_counts": True}))
    out["torch.unique"] = (lambda f: lambda: f() + calls(
        "torch.unique", (U, {"sorted": False}), (U, False, True)))(out["torch.unique"])
    return out


def nonzeros() -> dict:
    out = {}
    for name in ("nonzero", "argwhere"):
        op = f"torch.{name}"
        out[op] = lambda op=op: over_dtypes(op, lambda dt: (T((2, 3), dt, "t"),)) + calls(
            op, (T(()),), (T((0, 3)),), (T((16,), "float64", "e"),), (T((2, 2, 2), kind="t"),))
    out["torch.nonzero"] = (lambda f: lambda: f() + calls(
        "torch.nonzero", (T((2, 3), kind="t"), {"as_tuple": True}), (T((), kind="t"),
                                                                    {"as_tuple": True}),
        (T((2, 3), kind="t", grad=False), {"out": T((0, 2), I)})))(out["torch.nonzero"])
    return out


KEYS = [0, -1, 2, (0, 1), (slice(None), 1), slice(1, None), slice(None, None, 2),
        slice(-2, None), (Ellipsis, 0), (None, 0), (slice(None), None), True, False,
        idx((2,), 2), T((2, 2), I, "idx2"), T((2,), I, "neg2"), T((2,), "bool"),
        T((2, 3), "bool"), [0, 1, 0], (idx((2,), 2), idx((2,), 3)), (slice(None), [2, 0]),
        (idx((2,), 2), slice(None), None), T((), I, "idx2"), 5, (0, 5), (0, 1, 2),
        T((2,), "float64", "idx2"), T((2,), "int32", "idx2"), T((2,), "uint8", "t"),
        Ellipsis, None, slice(5, 9), (idx((2,), 2), idx((3,), 3))]


def getitem() -> list:
    op = "Tensor.__getitem__"
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), (0, slice(1, None))))
    out += calls(op, *[(X, k) for k in KEYS])
    out += calls(op, (T(()), ()), (T(()), None), (T(()), Ellipsis), (T(()), 0), (E, 0),
                 (E, slice(None)), (T((2, 3, 4)), (Ellipsis, 1, slice(None, None, 2))),
                 (T((2, 3, 4)), (idx((2,), 2), slice(None), idx((2,), 4))))
    return out


def setitem() -> list:
    op = "Tensor.__setitem__"
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), (0, slice(1, None)), 1))
    values = [2.5, T(()), T((3,)), T((2, 3)), T((3,), "float32"), T((2,), "int64"), T((4,))]
    for key in (0, (slice(None), 1), T((2, 3), "bool"), idx((2,), 2, "perm"), slice(1, None),
                (Ellipsis, 0)):
        out += calls(op, *[(X, key, v) for v in values])
    out += calls(op, (X, idx((3,), 2), T((3, 3)), {"#": "dup"}), (T((2, 3), I), 0, 2.5),
                 (T((2, 3), "bool"), 0, 2), (X, 5, 1.0), (T((2, 3), "uint8"), 0, -1),
                 (X, 0, 1.0, {"#": "leaf"}), (X, T((2, 3), "bool"), T((2,))),
                 (X, (0, 1), T((), "float64")), (T((), grad=False), (), T(())))
    return out


def index_put() -> list:
    op, P = "torch.index_put", (idx((2,), 2, "perm"), idx((2,), 3, "perm"))
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), P, T((2,), dt)))
    out += calls(op, (X, P, T(())), (X, P, T((2,)), True), (X, (idx((2,), 2, "perm"),), T((3,))),
                 (X, (T((2, 3), "bool"),), T(())), (X, (idx((4,), 2), idx((4,), 3)), T((4,)),
                                                    {"accumulate": True}),
                 (X, (idx((4,), 2), idx((4,), 3)), T((4,)), {"#": "dup"}), (X, P, T((3,))),
                 (X, (idx((2,), 4),), T((3,))), (X, P, T((2,), "float32")), (X, P, 2.5),
                 (X, [idx((2,), 2, "perm")], T((3,))), (X, (T((2,), "int32", "perm2"),), T((3,))))
    return out


def take_along() -> list:
    op = "torch.take_along_dim"
    return over_dtypes(op, lambda dt: (T((2, 3), dt), idx((2, 2), 3), 1)) + calls(
        op, (X, idx((4,), 6)), (X, idx((1, 3), 2), 0), (X, idx((2, 1), 3), -1),
        (X, idx((2, 2), 3), 2), (X, idx((2, 2), 4), 1), (X, idx((3, 2), 3), 1),
        (X, T((2, 2), "int32", "idx3"), 1), (S0, idx((), 1)),
        (T((2, 3), grad=False), idx((2, 2), 3), 1, {"out": T((2, 2), grad=False)}))


def table() -> dict:
    out = {"torch.gather": gather, "torch.take_along_dim": take_along,
           "Tensor.__getitem__": getitem, "Tensor.__setitem__": setitem}
    for name in ("scatter", "scatter_add"):
        out[f"torch.{name}"] = lambda n=name: scatter(f"torch.{n}")
    out["torch.index_put"] = index_put
    for name in ("index_select", "index_add", "index_fill", "index_copy"):
        out[f"torch.{name}"] = lambda n=name: index_ops(f"torch.{n}")
    for name in ("masked_fill", "masked_select", "masked_scatter"):
        out[f"torch.{name}"] = lambda n=name: masked(f"torch.{n}")
    out.update(searching())
    out.update(uniques())
    out.update(nonzeros())
    return out

