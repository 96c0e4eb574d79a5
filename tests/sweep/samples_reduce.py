"""Sample generators of reductions, scans, sorting and softmax: whole-tensor and along dims
(positive, negative, out of range, tuples, lists, duplicated), ``keepdim``, ``dtype=``, ``out=``,
empty and 0-d inputs, NaN and ties, and each op's options (``correction``, ``p``, ``q`` and
``interpolation``, ``k``/``largest``, ``descending``/``stable``).

Input: an op's name. Output: its samples (``spec.Sample``); ``TABLE`` maps ops to generators.
"""

from __future__ import annotations

import functools

from .samples_pointwise import maker
from .spec import ALL_DTYPES, D, Sample, T

X = T((2, 3))
X3 = T((2, 3, 4))
XE = T((4, 4), "float64", "e")


def whole(S) -> list:
    out = [S(T((2, 3), dt)) for dt in ALL_DTYPES]
    out += [S(T(())), S(T((0,))), S(T((0, 3))), S(T((16,), "float64", "e")),
            S(T((16,), "float32", "e")), S(T((2, 3), "float32", "t")), S(T((2, 3), "int64", "e")),
            S(T((2, 3), "complex128"))]
    return out


def along(S) -> list:
    out = [S(X, 0), S(X, 1), S(X, -1), S(X, dim=-2), S(X, 2), S(X, -3), S(X, 1, True),
           S(X, dim=0, keepdim=True), S(T(()), 0), S(T(()), -1), S(T((0, 3)), 0),
           S(T((0, 3)), 1), S(X3, 1), S(XE, 1), S(T((3, 4), "float64", "t"), 1),
           S(T((2, 3), "int64"), 1), S(T((2, 3), "bool"), 0), S(T((2, 3), "float16"), 1),
           S(T((2, 3), "uint8"), -1), S(X, 1.0), S(X, dim=None)]
    out += [S(T((2, 3), grad=False), 1, out=T((2,), grad=False)),
            S(X, 1, out=T((2,), grad=False))]
    return out


def tuples(S) -> list:
    return [S(X, (0, 1)), S(X, (-1,)), S(X, ()), S(X, [0, 1]), S(X, (0, 0)), S(X3, (0, 2)),
            S(X3, (2, 0), True), S(T(()), (0,)), S(T((0, 3)), (0,))]


def with_dtype(S) -> list:
    return [S(T((2, 3), "int64"), dtype=D("float64")), S(X, dtype=D("float32")),
            S(T((2, 3), "bool"), dtype=D("int32")), S(X, 1, dtype=D("float64")),
            S(T((2, 3), "float32"), dtype=D("int64"))]


def reduction(op: str, dims=True, tupled=True, dtype=False, whole_ok=True) -> list:
    S = maker(op)
    out = whole(S) if whole_ok else [S(X)]
    out += along(S) if dims else []
    out += tuples(S) if tupled else []
    out += with_dtype(S) if dtype else []
    return out


def extras(op: str, rows: list) -> list:
    ns, name = op.split(".", 1)
    return [Sample(ns, name, r[0], r[1] if len(r) > 1 else {}) for r in rows]


def stats(op: str) -> list:
    return reduction(op, dtype=False) + extras(op, [
        ((X, 1), {"unbiased": False}), ((X,), {"dim": 1, "correction": 0}),
        ((X,), {"correction": 2}), ((X, True), {}), ((T((1, 3)), 0), {}),
        ((X,), {"dim": None, "correction": 1.5}), ((X, 1, True, True), {}),
        ((X,), {"unbiased": False, "correction": 0})])


def norm() -> list:
    return reduction("torch.norm", dtype=True) + extras("torch.norm", [
        ((X, 1), {}), ((X, "fro"), {}), ((X, float("inf")), {}), ((X, float("-inf")), {}),
        ((X, 0), {}), ((X, 2, 1), {}), ((X,), {"p": 3, "dim": (0, 1)}), ((X, "nuc"), {}),
        ((X3, "fro", (1, 2)), {}), ((XE, 2, 1), {}), ((X, 0.5, 0, True), {}),
        ((T((2, 3), "float64", "t"), 1), {}), ((T((0, 3)), 2), {})])


def quantile(op: str) -> list:
    S = maker(op)
    Q = T((3,), kind="01")
    out = [S(X, 0.3), S(X, Q), S(X, 0.3, 1), S(X, Q, 1, True), S(X, 0.5, -1), S(X, 1.5),
           S(X, T(()), 0), S(T((16,), "float64", "e"), 0.5), S(T((2, 3), "float32"), 0.25),
           S(T((2, 3), "float16"), 0.25), S(T((2, 3), "int64"), 0.5), S(T((0,)), 0.5),
           S(T(()), 0.5), S(X, Q, dim=0), S(X, T((3,), "float32", "01")), S(XE, 0.5, 1)]
    out += [S(X, 0.4, 1, interpolation=m) for m in ("linear", "lower", "higher", "midpoint",
                                                    "nearest", "bad")]
    out += [S(T((5,), kind="t"), T((4,), kind="01"), interpolation="nearest"),
            S(X, 0.3, 1, out=T((2,), grad=False))]
    return out


def kth() -> list:
    S = maker("torch.kthvalue")
    return [S(X, 1), S(X, 2, 0), S(X, 3, -1, True), S(X, 4), S(X, 0), S(T(()), 1),
            S(T((0, 3)), 1), S(T((16,), "float64", "e"), 3), S(T((3, 4), "float64", "t"), 2, 1),
            S(T((2, 3), "int64"), 2), S(T((2, 3), "bool"), 1), S(T((2, 3), "float16"), 2),
            S(X, 1, dim=0, keepdim=True)]


def topk() -> list:
    S = maker("torch.topk")
    out = [S(X, 2), S(X, 1, 0), S(X, 2, -1, False), S(X, 2, largest=False, sorted=False),
           S(X, 4), S(X, 0), S(X, -1), S(T(()), 1), S(T((0, 3)), 0),
           S(T((16,), "float64", "e"), 5), S(T((3, 4), "float64", "t"), 2, 1)]
    out += [S(T((2, 3), dt), 2) for dt in ALL_DTYPES]
    return out


def sort(op: str) -> list:
    S = maker(op)
    out = [S(X), S(X, 0), S(X, -1), S(X, 1, True), S(X, descending=True), S(X, dim=0,
                                                                               stable=True),
           S(X, 2), S(T(())), S(T((0, 3))), S(T((16,), "float64", "e")),
           S(T((16,), "float64", "e"), descending=True), S(T((3, 4), "float64", "t"), 1),
           S(T((3, 4), "float64", "t"), stable=True), S(X3, 1)]
    out += [S(T((2, 3), dt)) for dt in ALL_DTYPES]
    return out


def scan(op: str, dtype=True) -> list:
    S = maker(op)
    out = [S(X, 0), S(X, 1), S(X, -1), S(X, 2), S(X, dim=-2), S(T(()), 0), S(T((0, 3)), 1),
           S(T((16,), "float64", "e"), 0), S(T((3, 4), "float64", "t"), 1), S(X3, 2),
           S(X), S(T((2, 3), grad=False), 1, out=T((2, 3), grad=False)),
           S(X, 1, out=T((2, 3), grad=False))]
    out += [S(T((2, 3), dt), 1) for dt in ALL_DTYPES]
    if dtype:
        out += [S(T((2, 3), "int64"), 1, dtype=D("float64")), S(X, 0, dtype=D("float32"))]
    return out


def softmax(op: str, dim_optional=False) -> list:
    S = maker(op)
    out = [S(X, 1), S(X, 0), S(X, -1), S(X, 2), S(T(()), 0), S(T((0, 3)), 1), S(X3, -2),
           S(T((16,), "float64", "e"), 0), S(T((4, 4), "float64", "e"), 1),
           S(X, 1, dtype=D("float64")), S(T((2, 3), "float32"), 1, dtype=D("float64")),
           S(T((2, 3), "int64"), 1, dtype=D("float32"))]
    out += [S(T((2, 3), dt), 1) for dt in ALL_DTYPES]
    if dim_optional:
        out += [S(X), S(T((3,)))]
    return out


def median(op: str) -> list:
    S = maker(op)
    out = whole(S) + [S(X, 0), S(X, 1), S(X, -1, True), S(X, 2), S(T(()), 0), S(T((0, 3)), 1),
                      S(XE, 1), S(T((3, 4), "float64", "t"), 1), S(T((2, 3), "int64"), 1),
                      S(T((5, 2), "float64", "e"), 0), S(X, dim=0, keepdim=True)]
    return out


def table() -> dict:
    R = functools.partial
    out = {}
    for name in ("sum", "nansum", "prod", "mean", "nanmean"):
        out[f"torch.{name}"] = R(reduction, f"torch.{name}", tupled=name != "prod", dtype=True)
    for name in ("amax", "amin", "all", "any", "count_nonzero", "aminmax"):
        out[f"torch.{name}"] = R(reduction, f"torch.{name}")
    for name in ("max", "min", "argmax", "argmin"):
        out[f"torch.{name}"] = R(reduction, f"torch.{name}", tupled=False)
    out["torch.logsumexp"] = R(reduction, "torch.logsumexp", whole_ok=False)
    out["special.logsumexp"] = R(reduction, "special.logsumexp", whole_ok=False)
    for name in ("std", "var", "std_mean", "var_mean"):
        out[f"torch.{name}"] = R(stats, f"torch.{name}")
    out["torch.norm"] = norm
    out["torch.quantile"] = R(quantile, "torch.quantile")
    out["torch.nanquantile"] = R(quantile, "torch.nanquantile")
    out["torch.kthvalue"] = kth
    out["torch.topk"] = topk
    out["torch.sort"] = R(sort, "torch.sort")
    out["torch.argsort"] = R(sort, "torch.argsort")
    out["torch.msort"] = lambda: [Sample("torch", "msort", (T((3, 2), dt),))
                                  for dt in ALL_DTYPES] + [
        Sample("torch", "msort", (T(()),)), Sample("torch", "msort", (T((16,), kind="e"),))]
    for name in ("cumsum", "cumprod"):
        out[f"torch.{name}"] = R(scan, f"torch.{name}")
    for name in ("cummax", "cummin", "logcumsumexp"):
        out[f"torch.{name}"] = R(scan, f"torch.{name}", dtype=False)
    for op in ("torch.softmax", "torch.log_softmax", "special.softmax", "special.log_softmax"):
        out[op] = R(softmax, op)
    out["F.softmax"] = R(softmax, "F.softmax", True)
    out["F.log_softmax"] = R(softmax, "F.log_softmax", True)
    for name in ("median", "nanmedian", "mode"):
        out[f"torch.{name}"] = R(median, f"torch.{name}")
    return out
