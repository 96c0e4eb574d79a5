"""Sample generators of the Tensor methods that have no torch function of the same name
(casts, ``to type view expand repeat fill_ copy_ item tolist size new_*``, the random
in-place fills, the bitwise operators and the Python number protocol), and of the torch
functions on dtypes and whole tensors (``allclose equal isclose is_tensor can_cast
promote_types result_type``).

Input: a method's or function's name. Output: its samples (``spec.Sample``); ``TABLE`` maps
ops to generators. (Methods named like a torch function take that function's samples:
``registry``.)
"""

from __future__ import annotations

import functools

from .samples_pointwise import binary, unary
from .spec import ALL_DTYPES, D, Raw, T, calls, over_dtypes

X = T((2, 3))
S0 = T(())
DTYPES = [D(d) for d in ALL_DTYPES]
LEGACY = ("BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
          "IntTensor", "LongTensor", "ShortTensor")
CASTS = ("bool", "byte", "char", "double", "float", "half", "int", "long", "short", "cdouble",
         "cfloat")


def cast(name: str) -> list:
    op = f"Tensor.{name}"
    return over_dtypes(op, lambda dt: (T((2, 3), dt),)) + calls(
        op, (T((16,), "float64", "e", seed=3),), (T((14,), "int64", "e"),), (S0,), (T((0, 3)),),
        (T((16,), "float32", "e", seed=3),))


def to() -> list:
    op = "Tensor.to"
    out = calls(op, *[(X, d) for d in DTYPES])
    out += calls(op, *[(T((2, 3), dt), D("float64")) for dt in ALL_DTYPES])
    out += calls(op, (X, "cpu"), (X, "cpu", D("float32")), (X, T((2,), "int64")),
                 (X, {"dtype": D("float32"), "copy": True}), (X, D("float64"), {"copy": True}),
                 (X, {"device": "cpu", "dtype": D("int64")}), (X, 5), (X, "bad"),
                 (X, D("float64"), True), (T((16,), "float64", "e", seed=3), D("int32")))
    return out


def typed() -> dict:
    out = {}
    out["Tensor.type"] = lambda: calls(
        "Tensor.type", (X,), (X, D("float32")), (X, "torch.LongTensor"), (X, "torch.FloatTensor"),
        (T((2, 3), "int64"), "torch.DoubleTensor"), (X, "bad"), (T((2, 3), "bool"),))
    out["Tensor.type_as"] = lambda: calls("Tensor.type_as", *[(X, T((1,), dt))
                                                              for dt in ALL_DTYPES])
    out["Tensor.view"] = lambda: over_dtypes(
        "Tensor.view", lambda dt: (T((2, 3), dt), 3, 2)) + calls(
        "Tensor.view", (X, -1), (X, (3, 2)), (X, [6]), (X, 4, 2), (X, D("float64")),
        (T((2, 4), "float32"), D("int32")), (X, -1, -1), (S0, 1), (T((0, 3)), -1))
    out["Tensor.view_as"] = lambda: calls("Tensor.view_as", (X, T((3, 2))), (X, T((6,), "int64")),
                                          (X, T((4,))))
    out["Tensor.reshape_as"] = lambda: calls("Tensor.reshape_as", (X, T((3, 2))), (X, T((4,))))
    out["Tensor.expand"] = lambda: over_dtypes(
        "Tensor.expand", lambda dt: (T((3,), dt), 2, 3)) + calls(
        "Tensor.expand", (T((2, 1)), 2, 4), (T((2, 1)), -1, 4), (T((2, 1)), (2, 4)), (X, 3, 3),
        (S0, 2), (X, 2, 2, 3), (T((2, 1)), [2, 4]), (X, -1, -1), (T((2, 1)), 2, 0))
    out["Tensor.expand_as"] = lambda: calls("Tensor.expand_as", (T((3,)), X), (X, T((3,))),
                                            (S0, T((2, 2), "int64")))
    out["Tensor.repeat"] = lambda: over_dtypes(
        "Tensor.repeat", lambda dt: (T((2, 3), dt), 2, 1)) + calls(
        "Tensor.repeat", (X, (2, 2)), (X, 1, 2, 2), (X, 2), (S0, 3), (X, 0, 1), (X, [1, 2]),
        (X, -1, 1), (T((0, 3)), 2, 1))
    return out


def protocol() -> dict:
    one = [S0, T((1,)), T((1, 1), "int64"), T((), "bool"), T((), "float32"), X,
           T((0,)), T((), "float64", "e"),
           T((), "int64", "e"), T((), "uint8")]
    out = {}
    for name in ("__bool__", "__float__", "__int__", "__index__", "item", "is_nonzero"):
        out[f"Tensor.{name}"] = lambda n=name: calls(f"Tensor.{n}", *[(t,) for t in one])
    out["torch.is_nonzero"] = lambda: calls("torch.is_nonzero", *[(t,) for t in one])
    for name in ("tolist", "__len__", "dim", "ndimension", "stride", "storage_offset", "numel",
                 "nelement", "element_size", "get_device", "is_pinned", "is_shared",
                 "share_memory_", "pin_memory",
                 "is_contiguous", "is_floating_point", "contiguous", "cpu", "detach", "clone",
                 "detach_", "zero_", "requires_grad_", "retain_grad"):
        out[f"Tensor.{name}"] = lambda n=name: calls(f"Tensor.{n}", *[(T(s, dt),) for dt in
                                                                      ALL_DTYPES for s in
                                                                      [(2, 3)]],
                                                     (S0,), (T((0, 3)),))
    out["Tensor.size"] = lambda: calls("Tensor.size", (X,), (X, 1), (X, -1), (X, 2), (S0,),
                                       (X, {"dim": 0}))
    out["Tensor.requires_grad_"] = lambda: calls(
        "Tensor.requires_grad_", (T((2, 3), grad=False),), (T((2, 3), "int64"),),
        (T((2, 3), grad=False), False), (X, False))
    return out


def fills() -> dict:
    out = {}
    out["Tensor.fill_"] = lambda: over_dtypes(
        "Tensor.fill_", lambda dt: (T((2, 3), dt), 2.5)) + calls(
        "Tensor.fill_", (X, T(())), (X, T((), "float32")), (X, T((1,))), (X, 7), (X, True),
        (T((2, 3), "uint8"), 300), (X, float("nan")), (X, T((2,))), (T((2, 3), "int64"), T(())))
    out["Tensor.copy_"] = lambda: over_dtypes(
        "Tensor.copy_", lambda dt: (X, T((2, 3), dt))) + calls(
        "Tensor.copy_", (X, T((3,))), (X, T(())), (X, T((4,))), (T((2, 3), "int64"), X),
        (T((2, 3), "bool"), T((2, 3), kind="t")), (X, T((2, 3), "float32"), True),
        (T((2, 3), grad=False), T((2, 3))), (T((2, 3), "int64"), T((2, 3), "int64")))
    for name in ("new_zeros", "new_ones", "new_empty"):
        out[f"Tensor.{name}"] = lambda n=name: calls(
            f"Tensor.{n}", *[(T((2,), dt), (2, 3)) for dt in ALL_DTYPES], (X, 2, 3), (X, ()),
            (X, (2,), {"dtype": D("int64")}), (X, (2,), {"requires_grad": True}),
            (X, [2, 3]), (X, (-1,)))
    out["Tensor.new_full"] = lambda: calls(
        "Tensor.new_full", *[(T((2,), dt), (2, 3), 2.5) for dt in ALL_DTYPES],
        (X, (2,), 7), (X, (2,), True, {"dtype": D("int64")}), (X, (), 1.5))
    out["Tensor.new_tensor"] = lambda: calls(
        "Tensor.new_tensor", *[(T((2,), dt), [1.5, 2.0]) for dt in ALL_DTYPES],
        (X, [1, 2]), (X, 2.5), (X, [True]), (X, [1, 2], {"dtype": D("int32")}),
        (X, [1.0], {"requires_grad": True}), (X, T((2,))))
    return out


def random_fills() -> dict:
    R = T((3, 4))
    Z, Z64, Z3 = T((3, 4), "complex128"), T((4, 5), "complex64"), T((3,), "complex64")
    table = {
        "uniform_": [(R,), (R, -2.0, 3.0), (R, 1.0, 1.0), (R, 2.0, 1.0), (T((3, 4), "float32"),),
                     (T((3, 4), "int64"),), (R, {"from": 0.5, "to": 0.75})],
        "normal_": [(R,), (R, 2.0, 0.5), (R, 0.0, -1.0), (T((3, 4), "float32"), 1.0, 2.0),
                    (T((3, 4), "int64"),), (R, {"mean": 1.0, "std": 3.0})],
        "random_": [(R,), (R, 10), (R, 2, 5), (T((3, 4), "int64"), 100), (T((3, 4), "uint8"),),
                    (T((3, 4), "bool"),), (R, 5, 2), (T((3, 4), "float32"), 0, 2**25),
                    (T((3, 4), "float16"), 10)],
        "exponential_": [(R,), (R, 2.0), (R, -1.0), (T((3, 4), "float32"), 0.5),
                         (T((3, 4), "int64"),)],
        "geometric_": [(R, 0.3), (R, 1.0), (R, 0.0), (T((3, 4), "int64"), 0.5),
                       (T((3, 4), "float32"), 0.7)],
        "cauchy_": [(R,), (R, 1.0, 2.0), (T((3, 4), "float32"), 0.0, 0.5), (T((3, 4), "int64"),)],
        "log_normal_": [(R,), (R, 0.5, 0.25), (R, 0.0, -1.0), (T((3, 4), "float32"), 1.0, 0.5)],
        "bernoulli_": [(R,), (R, 0.3), (R, T((3, 4), kind="01", grad=False)), (R, 1.5),
                       (T((3, 4), "int64"), 0.5), (T((3, 4), "bool"), 0.5), (R, T((4,), kind="01")),
                       (T((3, 4), "float32"), {"p": 0.2})],
    }
    complex_rows = {
        "uniform_": [(Z,), (Z, -2.0, 3.0), (Z64, -1.0, 1.0), (Z, 2.0, 1.0), (Z3,)],
        "normal_": [(Z,), (Z, 2.0, 0.5), (Z64, 1.0, 2.0), (Z, 0.0, -1.0), (Z3,)],
        "random_": [(Z,), (Z, 10), (Z, 2, 5), (T((0,), "complex128"),)],
        "exponential_": [(Z,), (T((0,), "complex128"),)], "geometric_": [(Z, 0.3)],
        "cauchy_": [(Z64,)], "log_normal_": [(Z,)],
        "bernoulli_": [(Z,), (Z, 0.3), (Z, T((3, 4), kind="01", grad=False))],
    }
    return {f"Tensor.{name}": functools.partial(calls, f"Tensor.{name}", *rows,
                                                *complex_rows[name])
            for name, rows in table.items()}


def bitwise() -> dict:
    out = {}
    for name in ("__and__", "__or__", "__xor__", "__rxor__", "__rand__", "__ror__",
                 "__iand__", "__ior__", "__ixor__"):
        out[f"Tensor.{name}"] = functools.partial(lambda n: [
            s for s in binary(f"Tensor.{n}") if isinstance(s.args[0], T)], name)
    out["Tensor.__invert__"] = lambda: unary("Tensor.__invert__")
    return out


def whole_compare() -> dict:
    out = {}
    for name in ("allclose", "isclose", "equal"):
        op = f"torch.{name}"
        rows = [(T((2, 3), seed=5), T((2, 3), seed=5), {"#": "same"}), (X, T((3,))), (X, T((4,))),
                (T((16,), "float64", "e", seed=4), T((16,), "float64", "e", seed=4)),
                (T((2, 3), "int64", seed=1), T((2, 3), "float64", seed=1)),
                (T((2, 3), "int64"), T((2, 3), "int64")), (S0, T(())), (T((0,)), T((0,))),
                (T((2, 3), "float32"), X), (T((2, 3), "bool"), T((2, 3), "bool"))]
        if name != "equal":
            rows += [(X, X, {"rtol": 0.5}), (X, X, {"atol": 2.0}),
                     (T((16,), "float64", "e", seed=4), T((16,), "float64", "e", seed=4),
                      {"equal_nan": True}), (X, X, 1e-5, 1e-8, True), (X, X, {"rtol": -1.0})]
        out[op] = functools.partial(lambda o, r: over_dtypes(o, lambda dt: (
            T((2, 3), dt, seed=2), T((2, 3), dt, seed=2))) + calls(o, *r), op, rows)
    return out


def dtype_functions() -> dict:
    pairs = [(a, b) for a in ALL_DTYPES for b in ALL_DTYPES]
    out = {}
    out["torch.promote_types"] = lambda: calls("torch.promote_types",
                                               *[(D(a), D(b)) for a, b in pairs])
    out["torch.can_cast"] = lambda: calls("torch.can_cast", *[(D(a), D(b)) for a, b in pairs])
    out["torch.result_type"] = lambda: calls(
        "torch.result_type", *[(T((2,), a), T((2,), b)) for a, b in pairs[::3]],
        (T((2,), "int64"), 2.5), (T((2,), "float16"), 2.5), (T((2,), "uint8"), -1),
        (T((), "float64"), T((2,), "float32")), (2, 2.5), (T((2,), "bool"), True),
        (T((2,), "int32"), T((), "int64")))
    out["torch.is_tensor"] = lambda: calls("torch.is_tensor", (X,), ([1.0],), (2.5,),
                                           (Raw("torch.Size([2])", lambda lib: lib["torch"].Size(
                                               [2])),))
    for name in ("is_floating_point", "is_complex", "is_conj"):
        out[f"torch.{name}"] = functools.partial(over_dtypes, f"torch.{name}",
                                                 lambda dt: (T((2,), dt),),
                                                 ALL_DTYPES + ("complex64", "complex128"))
    out["torch.typename"] = lambda: over_dtypes("torch.typename", lambda dt: (T((2,), dt),)) + \
        calls("torch.typename", (2.5,), ([1],), (Raw("torch.float32", lambda lib: lib[
            "torch"].float32),))
    for name in LEGACY:
        out[f"torch.{name}"] = functools.partial(calls, f"torch.{name}", ([1.5, -2.0, 3.0],),
                                                 ([[1, 2], [3, 4]],), ([True, False],), (2, 3),
                                                 ((2, 3),), (), ([],), (T((2,), "int64"),),
                                                 ([300.0],), ([-1],))
    out["Tensor.new"] = lambda: calls(
        "Tensor.new", (X, [1.0, 2.0]), (T((2,), "int64"), [1.5, 2.0]), (X, (2, 3)), (X, 2, 3),
        (X,), (X, T((2,))), (T((2,), "bool"), [1, 0]), (X, [1.0], {"dtype": D("int64")}))
    return out


def polygamma_method() -> dict:
    return {"Tensor.polygamma": lambda: calls("Tensor.polygamma", *[(T((2, 3), kind="p"), n)
                                                                    for n in (0, 1, 2)],
                                              (T((2, 3), "int64", "p"), 1), (X, -1)),
            "Tensor.polygamma_": lambda: calls("Tensor.polygamma_", *[(T((2, 3), kind="p"), n)
                                                                      for n in (0, 1, 2)],
                                               (T((2, 3), "int64", "p"), 1),
                                               (T((2, 3), kind="p"), 1, {"#": "leaf"}))}


def table() -> dict:
    out = {f"Tensor.{name}": functools.partial(cast, name) for name in CASTS}
    out["Tensor.to"] = to
    for part in (typed, protocol, fills, random_fills, bitwise, whole_compare, dtype_functions,
                 polygamma_method):
        out.update(part())
    return out
