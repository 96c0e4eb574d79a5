"""Sample generators of torch's smaller names: ``addr gcd lcm bitwise_left_shift
bitwise_right_shift`` (and ``<< >>``), the window factories, ``rsub fill detach scalar_tensor
chain_matmul``, the tensor predicates ``is_signed is_same_size is_neg resolve_neg
is_inference``, and torch's top-level spellings of functionals whose argument order is
aten's (``torch.embedding(weight, indices)``, ``torch.batch_norm(...)``, integer
``reduction``...).

Input: an op's name. Output: its samples (``spec.Sample``); ``table()`` maps ops to
generators.
"""

from __future__ import annotations

import functools

from .samples_pointwise import binary
import numpy as np

from .spec import ALL_DTYPES, D, Raw, T, calls, over_dtypes

X = T((2, 3))
I = "int64"   # noqa: E741
INTS = ("int64", "int32", "int16", "int8", "uint8")


def addr() -> list:
    op, v, w = "torch.addr", T((2,)), T((3,))
    return over_dtypes(op, lambda dt: (T((2, 3), dt), T((2,), dt), T((3,), dt))) + calls(
        op, (X, v, w), (T((3,)), v, w), (T(()), v, w), (X, v, w, {"beta": 0.5, "alpha": 2}),
        (X, v, w, {"alpha": 0.3}), (T((2, 3), "float64", "e"), v, w, {"beta": 0}),
        (T((2, 3), I), T((2,), I), T((3,), I), {"alpha": 2}),
        (T((2, 3), I), T((2,), I), T((3,), I), {"alpha": 2.5}),
        (T((2, 3), "float32"), T((2,), "float32"), w), (X, T((2, 1)), w), (X, v, T((4,))),
        (T((0, 3)), T((0,)), w), (X, v, w, {"out": T((2, 3), grad=False)}),
        (T((2, 3), "bool"), T((2,), "bool"), T((3,), "bool")))


def where_method() -> list:
    op, b = "Tensor.where", T((2, 3), "bool")
    return over_dtypes(op, lambda dt: (T((2, 3), dt), b, T((2, 3), dt))) + calls(
        op, (X, b, 0.0), (X, T((3,), "bool"), T((2, 1))), (T((2, 3), I), b, 2.5),
        (X, T((2, 3), "uint8", "idx2"), X), (T((2, 3), "float32"), b, X), (T(()), b, X),
        (T((16,), "float64", "e"), T((16,), "bool"), T((16,), "float64", "e", seed=1)),
        (X, X, X), (X, b, {"other": 1.0}), (T((0, 3)), T((0, 3), "bool"), 1.0))


def integer_binary(op: str) -> list:
    out = binary(op)
    out += calls(op, *[(T((2, 3), dt, "e"), T((2, 3), dt, "i")) for dt in INTS])
    out += calls(op, (T((14,), I, "e"), T((14,), I, "e", seed=2)),
                 (T((2, 3), "int32"), T((2, 3), "int8")))
    return out


def shift(op: str) -> list:
    out = binary(op)
    out += calls(op, *[(T((2, 3), dt, "e"), T((2, 3), dt, "neg9")) for dt in INTS])
    out += calls(op, *[(T((2, 3), dt, "e"), T((2, 3), dt, "idx70")) for dt in INTS])
    out += calls(op, (T((14,), I, "e"), 63), (T((14,), I, "e"), 64), (T((14,), "int32", "e"), 31),
                 (T((2, 3), "uint8", "e"), 7), (T((2, 3), "uint8", "e"), 8), (3, T((2, 3), I)),
                 (T((2, 3), "bool"), 1))
    return out


def window(op: str) -> list:
    out = calls(op, (0,), (1,), (2,), (5,), (8,), (33,), (5, False), (8, False), (33, False),
                (-1,), (2.0,), (5, {"dtype": D("float64")}), (33, {"dtype": D("float64")}),
                (8, {"dtype": D("float16")}), (33, False, {"dtype": D("float16")}),
                (5, {"dtype": D("int64")}), (5, {"requires_grad": True}),
                (5, {"dtype": D("complex64")}), (1, False, {"dtype": D("float16")}))
    if op == "torch.kaiser_window":
        out += calls(op, (8, True, 5.0), (9, False, 0.5, {"dtype": D("float64")}),
                     (6, True, 20.0, {"dtype": D("float16")}))
    if op == "torch.hamming_window":
        out += calls(op, (8, True, 0.3), (8, False, 0.3, 0.4), (33, True, 0.5, 0.5,
                                                                {"dtype": D("float64")}))
    return out


def rsub() -> list:
    op = "torch.rsub"
    return binary(op) + calls(op, (X, X, {"alpha": 2}), (X, 3, {"alpha": 0.5}),
                              (T((2, 3), I), T((2, 3), I), {"alpha": 2}),
                              (T((2, 3), "bool"), True), (T((2, 3), I), 2, {"alpha": 0.5}))


def fills() -> dict:
    out = {}
    out["torch.fill"] = lambda: over_dtypes("torch.fill", lambda dt: (T((2, 3), dt), 2.5)) + \
        calls("torch.fill", (X, T(())), (X, T((), "float32")), (X, T((1,))), (X, 7), (X, True),
              (T((2, 3), I), 2.5), (T((2, 3), "uint8"), 300), (T((2, 3), I), T(())),
              (T((0, 3)), 1.0), (T(()), -1.0), (2.0, 1.0))
    out["torch.detach"] = lambda: over_dtypes("torch.detach", lambda dt: (T((2, 3), dt),)) + \
        calls("torch.detach", (T(()),), (T((0, 3)),), (2.0,))
    out["torch.scalar_tensor"] = lambda: calls(
        "torch.scalar_tensor", (3,), (2.5,), (True,), (3, {"dtype": D("int64")}),
        (2.5, {"dtype": D("float64")}), (1e40, {"dtype": D("float16")}),
        (2.5, {"requires_grad": True}), (T(()),), *[(1, {"dtype": D(d)}) for d in ALL_DTYPES])
    out["torch.chain_matmul"] = lambda: calls(
        "torch.chain_matmul", (T((2, 3)), T((3, 4))), (T((2, 3)), T((3, 4)), T((4, 2))),
        (T((2, 3)),), (T((2, 3)), T((4, 2))), (T((2, 3)), T((3,))),
        (T((2, 3), "float32"), T((3, 2), "float32")), (T((2, 3), I), T((3, 2), I)))
    return out


def predicates() -> dict:
    out = {}
    for name in ("is_signed", "is_neg", "resolve_neg", "is_inference"):
        op = f"torch.{name}"
        out[op] = functools.partial(lambda op: over_dtypes(op, lambda dt: (T((2, 3), dt),)) + calls(
            op, (T(()),), (T((0,)),), (T((2,), "complex64"),), (2,)), op)
    out["torch.is_same_size"] = lambda: calls(
        "torch.is_same_size", (X, T((2, 3), I)), (X, T((3, 2))), (X, T((3,))), (T(()), T(())),
        (X, 2), (T((0, 3)), T((0, 3))))
    return out


def norms() -> dict:
    x, w = T((2, 3, 4)), T((3,))
    rm, rv = T((3,), grad=False), T((3,), "float64", "p", grad=False)
    return {
        "torch.batch_norm": lambda: calls(
            "torch.batch_norm", (x, w, T((3,)), rm, rv, True, 0.1, 1e-5, True),
            (x, w, T((3,)), rm, rv, False, 0.1, 1e-5, True),
            (x, None, None, None, None, True, 0.1, 1e-5, False),
            (T((2, 3)), w, None, rm, rv, False, 0.1, 1e-3, False), (x, w, None, rm, rv),
            (T((2, 3, 4), "float32"), T((3,), "float32"), None, None, None, True, 0.1, 1e-5,
             True)),
        "torch.instance_norm": lambda: calls(
            "torch.instance_norm", (x, w, T((3,)), None, None, True, 0.1, 1e-5, True),
            (x, None, None, rm, rv, True, 0.1, 1e-5, False),
            (x, None, None, rm, rv, False, 0.1, 1e-5, False), (x, w, None, None, None)),
        "torch.layer_norm": lambda: calls(
            "torch.layer_norm", (X, (3,)), (X, (3,), T((3,)), T((3,))), (X, [3], None, None, 0.5),
            (X, (3,), None, None, 1e-5, False), (X, (4,)), (T((0, 3)), (3,)),
            (T((2, 3), "float32"), (3,), T((3,), "float32"))),
        "torch.group_norm": lambda: calls(
            "torch.group_norm", (T((2, 4, 3)), 2), (T((2, 4, 3)), 2, T((4,)), T((4,))),
            (T((2, 4, 3)), 4, None, None, 0.5, False), (T((2, 4, 3)), 3),
            (T((2, 4, 3), "float32"), 1)),
    }


def activations() -> dict:
    e16 = T((16,), "float64", "e")
    return {
        "torch.selu": lambda: over_dtypes("torch.selu", lambda dt: (T((2, 3), dt),)) + calls(
            "torch.selu", (e16,), (T(()),), (X, True)),
        "torch.celu": lambda: over_dtypes("torch.celu", lambda dt: (T((2, 3), dt),)) + calls(
            "torch.celu", (e16,), (X, 0.5), (X, 0), (X, {"alpha": 2.0})),
        "torch.threshold": lambda: over_dtypes(
            "torch.threshold", lambda dt: (T((2, 3), dt), 0.5, -1.0)) + calls(
            "torch.threshold", (e16, 0.0, 2.0), (X, 0.5), (T((2, 3), I), 1, 7)),
        "torch.rrelu": lambda: calls(
            "torch.rrelu", (X,), (e16,), (X, 0.1, 0.3), (X, 0.3, 0.1), (T((2, 3), I),),
            (T((2, 3), "float32"), 0.2, 0.2, False)),
    }


def pools() -> dict:
    x = T((1, 2, 6))
    out = {}
    for name in ("max_pool1d", "max_pool1d_with_indices"):
        op = f"torch.{name}"
        out[op] = functools.partial(lambda op: calls(
            op, (x, 2), (x, 3, 1), (x, 2, [], 1), (x, 2, 2, 0, 2), (x, 4, 2, 0, 1, True),
            (T((2, 6)), 2), (x, 0), (x, 2, {"stride": 1}), (T((1, 2, 6), "float32"), 2),
            (T((1, 2, 6), I), 2)), op)
    x2 = T((1, 2, 4, 5))
    out["torch.max_pool2d"] = lambda: calls(
        "torch.max_pool2d", (x2, 2), (x2, (2, 3), 1), (x2, 2, [], 1), (x2, 3, 2, 1, 1, True),
        (T((2, 4, 5)), 2))
    out["torch.adaptive_max_pool1d"] = lambda: calls(
        "torch.adaptive_max_pool1d", (x, 3), (x, 4), (x, [2]), (T((2, 6)), 2), (x, 0),
        (T((1, 2, 6), "float32"), 1))
    return out


def losses() -> dict:
    a, b = T((4,)), T((4,))
    y = T((4,), kind="pm1", grad=False)
    out = {
        "torch.kl_div": lambda: calls(
            "torch.kl_div", (T((2, 3)), T((2, 3), "float64", "prob", grad=False)),
            (T((2, 3)), T((2, 3), "float64", "p"), 0), (T((2, 3)), T((2, 3)), 2,
                                                       {"log_target": True}),
            (T((2, 3)), T((2, 3), "float64", "p"), "mean")),
        "torch.margin_ranking_loss": lambda: calls(
            "torch.margin_ranking_loss", (a, b, y), (a, b, y, 0.5, 0), (a, b, y, 0.0, 2),
            (a, b, y, 0.1, 1)),
        "torch.hinge_embedding_loss": lambda: calls(
            "torch.hinge_embedding_loss", (a, y), (a, y, 0.5, 0), (a, y, 1.0, 2)),
        "torch.cosine_embedding_loss": lambda: calls(
            "torch.cosine_embedding_loss", (T((4, 3)), T((4, 3)), y), (T((4, 3)), T((4, 3)), y,
                                                                      0.2, 0),
            (T((4, 3)), T((4, 3)), y, 0.0, 2)),
        "torch.triplet_margin_loss": lambda: calls(
            "torch.triplet_margin_loss", (T((4, 3)), T((4, 3)), T((4, 3))),
            (T((4, 3)), T((4, 3)), T((4, 3)), 0.5, 1.0, 1e-6, True, 0),
            (T((4, 3)), T((4, 3)), T((4, 3)), 1.0, 2.0, 1e-6, False, 2)),
        "torch.poisson_nll_loss": lambda: calls(
            "torch.poisson_nll_loss", (a, T((4,), "float64", "p"), True, False, 1e-8, 1),
            (T((4,), "float64", "p"), T((4,), "float64", "p"), False, True, 1e-8, 0),
            (a, T((4,), "float64", "p"), True, True, 1e-8, 2), (a, b)),
        "torch.binary_cross_entropy_with_logits": lambda: calls(
            "torch.binary_cross_entropy_with_logits", (a, T((4,), "float64", "01")),
            (a, T((4,), "float64", "01"), T((4,), "float64", "p")),
            (a, T((4,), "float64", "01"), None, T((4,), "float64", "p"), 0),
            (a, T((4,), "float64", "01"), None, None, 2)),
    }
    out["torch.ctc_loss"] = lambda: calls(
        "torch.ctc_loss", (T((5, 2, 4), "float64", "n"), T((2, 2), I, "one3"), [5, 5], [2, 2]),
        (T((5, 2, 4), "float64", "n"), T((2, 2), I, "one3"), [5, 4], [2, 1], 0, 0),
        (T((5, 2, 4), "float64", "n"), T((2, 2), I, "one3"), [5, 5], [2, 2], 0, 2, True))
    return out


def dropouts() -> dict:
    out = {}
    for name in ("alpha_dropout", "feature_alpha_dropout", "alpha_dropout_",
                 "feature_alpha_dropout_", "dropout_", "feature_dropout", "feature_dropout_"):
        op = f"torch.{name}"
        out[op] = functools.partial(lambda op: calls(
            op, (T((2, 3, 4)), 0.5, False), (T((2, 3, 4)), 0.0, True), (T((2, 3, 4)), 1.0, True),
            (T((2, 3, 4)), 1.5, False), (T((2, 3, 4)), 0.5),
            (T((2, 3, 4), "complex128"), 0.5, True)), op)
    out["torch.native_dropout"] = lambda: calls(
        "torch.native_dropout", (T((2, 3, 4)), 0.5, False), (T((2, 3, 4)), 0.0, True),
        (T((2, 3, 4)), 1.0, True), (T((2, 3, 4)), 0.3, True), (T((2, 3, 4)), 0.3, None),
        (T((2, 3, 4)), 1.5, True), (T((0,)), 0.5, True), (T((2, 3, 4), "float32"), 0.5, True),
        (T((2, 3, 4), "complex128"), 0.5, True))
    return out


def flat_index() -> dict:
    x, i = T((2, 3)), T((4,), I, "neg6")
    return {
        "torch.take": lambda: over_dtypes("torch.take", lambda dt: (T((2, 3), dt), i)) + calls(
            "torch.take", (x, T((2, 2), I, "idx6")), (x, T((), I, "idx6")), (x, T((6,), I, "t")),
            (x, T((2,), "int32", "idx6")), (x, T((3,), I, "idx9")), (T((0,)), T((0,), I)),
            (T((0,)), T((1,), I, "idx1")), (T(()), T((2,), I, "neg1")), (x, [0, 1])),
        "torch.put": lambda: over_dtypes("torch.put", lambda dt: (T((2, 3), dt), i,
                                                                  T((4,), dt))) + calls(
            "torch.put", (x, T((6,), I, "t"), T((6,)), True), (x, T((2, 2), I, "idx6"), T((4,))),
            (x, i, T((2, 2))), (x, i, T((3,))), (x, i, T((4,), "float32")),
            (x, T((3,), I, "idx9"), T((3,))), (x, T((0,), I), T((0,))),
            (x, T((4,), "int32", "idx6"), T((4,))), (x, i, T((4,)), {"accumulate": True}),
            (T(()), T((1,), I, "neg1"), T((1,))), (x, i, 1.0)),
        "torch.unravel_index": lambda: calls(
            "torch.unravel_index", (T((5,), I, "neg6"), (2, 3)), (T((2, 2), I, "idx24"), (2, 3, 4)),
            (T((), I, "idx6"), (2, 3)), (T((3,), "int32", "idx6"), (2, 3)), (T((3,), I, "idx6"), 6),
            (T((3,), I, "idx9"), (2, 3)), (T((3,)), (2, 3)), (T((3,), I, "idx6"), (2, -3)),
            (T((3,), I, "idx6"), ()), (T((0,), I), (2, 3)), (T((3,), "uint8", "idx6"), [2, 3])),
    }


def sets() -> dict:
    ints, f = T((2, 3), I, "idx5"), T((4,), I, "idx5")
    return {
        "torch.isin": lambda: over_dtypes("torch.isin", lambda dt: (T((2, 3), dt), T((4,), dt)))
        + calls("torch.isin", (ints, f), (ints, f, {"invert": True}), (ints, 3), (3, f),
                (ints, T((4,), "float64", "i")), (T((2, 3), "float64", "i"), f),
                (T((16,), "float64", "e"), T((16,), "float64", "e", seed=3)), (ints, T((0,), I)),
                (T((0,), I), f), (ints, T((2, 2), I, "idx5")), (ints, f, {"assume_unique": True}),
                (T((2,), "complex64"), f), (2, 3), (T((), I, "idx5"), f)),
        "torch.combinations": lambda: over_dtypes("torch.combinations",
                                                  lambda dt: (T((4,), dt),)) + calls(
            "torch.combinations", (T((4,)), 3), (T((4,)), 0), (T((4,)), 5), (T((4,)), 1),
            (T((4,)), 2, True), (T((3,)), {"r": 3, "with_replacement": True}), (T((2, 2)),),
            (T((4,)), -1), (T((0,)),), (T(()),)),
    }


def _buffer(n: int) -> Raw:
    data = bytes(range(1, n + 1))
    return Raw(f"bytearray({n})", lambda lib: bytearray(data))


def _array(dtype: str) -> Raw:
    return Raw(f"np.{dtype}[2,2]", lambda lib: np.arange(4, dtype=dtype).reshape(2, 2) / 3
               if dtype.startswith("float") else np.arange(4, dtype=dtype).reshape(2, 2))


def buffers() -> dict:
    return {
        "torch.asarray": lambda: over_dtypes("torch.asarray", lambda dt: (T((2, 3), dt),)) + calls(
            "torch.asarray", ([1, 2],), ([1.0, 2],), ([[1, 2], [3, 4]],), (3,), (2.5,), (True,),
            ([1, 2], {"dtype": D("float32")}), (X, {"copy": True}), (X, {"dtype": D("float32")}),
            (X, {"dtype": D("float32"), "copy": False}), (X, {"requires_grad": False}),
            (T((2, 3), grad=False), {"requires_grad": True}), (_array("float64"),),
            (_array("int32"),), (_array("float64"), {"dtype": D("float32")}),
            (_array("float64"), {"dtype": D("float32"), "copy": False}), ([],),
            (2.5, {"requires_grad": True}), ([[1], [2, 3]],), (_array("uint8"), {"copy": True})),
        "torch.frombuffer": lambda: calls(
            "torch.frombuffer", *[(_buffer(8), {"dtype": D(d)}) for d in ALL_DTYPES],
            (_buffer(8), {"dtype": D("int32"), "count": 1, "offset": 4}),
            (_buffer(7), {"dtype": D("int32")}), (_buffer(0), {"dtype": D("int32")}),
            (_buffer(8), {"dtype": D("int16"), "count": 5}),
            (_buffer(8), {"dtype": D("uint8"), "offset": 8}),
            (_buffer(8), {"dtype": D("float32"), "requires_grad": True})),
        "torch.empty_strided": lambda: calls(
            "torch.empty_strided", ((2, 3), (1, 2)), ((2, 3), (3, 1), {"dtype": D("int64")}),
            ((0, 3), (3, 1)), ((), ()), ((2, 3), (1,)), ((2, 3), (1, 2), {"requires_grad": True}),
            ([2, 2], [0, 1]), ((2, -1), (1, 1)), *[((2,), (1,), {"dtype": D(d)})
                                                    for d in ALL_DTYPES]),
    }


def scaling() -> dict:
    x = T((3, 4))
    return {
        "torch.renorm": lambda: over_dtypes("torch.renorm", lambda dt: (T((3, 4), dt), 2, 0, 1.0))
        + calls("torch.renorm", (x, 1, 1, 0.5), (x, 3.0, -1, 2.0), (x, float("inf"), 0, 0.5),
                (x, 2, 0, 100.0), (x, 2, 0, 0.0), (x, -1, 0, 1.0), (x, 0, 0, 1.0),
                (x, 2, 0, -1.0), (T((4,)), 2, 0, 1.0), (T((2, 3, 4)), 2, 1, 1.0), (x, 2, 2, 1.0),
                (T((0, 4)), 2, 0, 1.0), (T((3, 4), "float64", "e"), 2, 0, 1.0),
                (x, {"p": 2, "dim": 0, "maxnorm": 1.0})),
        "torch.frexp": lambda: over_dtypes("torch.frexp", lambda dt: (T((2, 3), dt),)) + calls(
            "torch.frexp", (T((16,), "float64", "e"),), (T((16,), "float32", "e"),),
            (T((16,), "float16", "e"),), (T(()),), (T((0,)),), (T((2, 3), "float64", "p"),),
            (T((2,), "complex64"),), (X, {"out": (T((2, 3), grad=False),
                                                   T((2, 3), "int32"))})),
    }


def scatter_reduce() -> list:
    op, x = "torch.scatter_reduce", T((2, 4))
    dup, perm = T((2, 3), I, "idx4"), T((2, 3), I, "perm4")
    out = over_dtypes(op, lambda dt: (T((2, 4), dt), 1, dup, T((2, 3), dt), "sum"))
    for how in ("sum", "prod", "mean", "amax", "amin"):
        out += calls(op, (x, 1, dup, T((2, 3)), how), (x, 1, dup, T((2, 3)), how,
                                                       {"include_self": False}),
                     (T((2, 4), I), 1, dup, T((2, 3), I), how),
                     (T((2, 4), I), 1, dup, T((2, 3), I), how, {"include_self": False}),
                     (T((2, 4), "float64", "t"), 0, T((1, 4), I, "idx2"),
                      T((1, 4), "float64", "t"), how))
    out += calls(op, (x, 1, perm, T((2, 3)), "max"), (x, 1, perm, T((2, 3)), "bad"),
                 (x, 1, perm, T((2, 3), "float32"), "sum"), (x, 1, T((2, 3), "int32", "idx4"),
                                                             T((2, 3)), "sum"),
                 (x, -1, T((1, 2), I, "idx4"), T((2, 3)), "amax"), (x, 2, perm, T((2, 3)), "sum"),
                 (x, 1, T((2, 3), I, "idx9"), T((2, 3)), "sum"), (T(()), 0, T((), I, "idx1"),
                                                                  T(()), "prod"),
                 (x, 1, T((0, 3), I), T((0, 3)), "mean"),
                 (T((2, 4), "float64", "e"), 1, dup, T((2, 3), "float64", "e"), "amin"),
                 (x, 1, dup, T((2, 3)), {"reduce": "mean", "include_self": False}))
    return out


def index_reduce() -> list:
    op, x, i = "torch.index_reduce", T((3, 4)), T((3,), I, "idx4")
    out = over_dtypes(op, lambda dt: (T((3, 4), dt), 1, i, T((3, 3), dt), "amax"))
    for how in ("prod", "mean", "amax", "amin"):
        out += calls(op, (x, 1, i, T((3, 3)), how), (x, 0, T((2,), I, "idx3"), T((2, 4)), how,
                                                      {"include_self": False}),
                     (T((3, 4), I), 1, i, T((3, 3), I), how, {"include_self": False}))
    out += calls(op, (x, 1, i, T((3, 3)), "sum"), (x, 1, T((3,), "int32", "idx4"), T((3, 3)),
                                                   "mean"),
                 (x, 1, T((3,), I, "idx9"), T((3, 3)), "mean"), (x, 1, T((1,), I), T((3, 3)),
                                                                 "mean"),
                 (x, 1, T((1, 3), I, "idx4"), T((3, 3)), "mean"),
                 (x, 1, i, T((3, 3), "float32"), "mean"), (x, -1, i, T((3, 3)), "prod"),
                 (T((3, 4), "float64", "e"), 1, i, T((3, 3), "float64", "e"), "amax"))
    return out


def gradient() -> list:
    op, x = "torch.gradient", T((5,))
    coords = T((5,), "float64", "sorted", grad=False)
    return over_dtypes(op, lambda dt: (T((3, 4), dt),)) + calls(
        op, (x, {"spacing": 2.0}), (x, {"edge_order": 2}), (x, {"spacing": (coords,)}),
        (x, {"spacing": [coords], "edge_order": 2}), (T((3, 4)), {"dim": 1}),
        (T((3, 4)), {"dim": [0, 1], "spacing": [1.5, 0.5]}), (T((3, 4)), {"dim": -1,
                                                                          "edge_order": 2}),
        (T((1,)),), (T((2,)), {"edge_order": 2}), (x, {"edge_order": 3}),
        (T((3, 4)), {"spacing": [1.0]}), (T((16,), "float64", "e"),),
        (T((3, 4), I), {"spacing": 2}), (T((2, 5)), {"dim": 1, "spacing": (coords,)}))


def histogram() -> list:
    op, x = "torch.histogram", T((2, 5))
    return over_dtypes(op, lambda dt: (T((2, 5), dt), 4)) + calls(
        op, (x,), (x, 3, {"range": (-1.0, 1.0)}), (x, 3, {"weight": T((2, 5), grad=False)}),
        (x, 4, {"density": True}), (x, T((4,), "float64", "sorted", grad=False)),
        (x, T((4,), "float64", "sorted", grad=False), {"density": True}),
        (T((3,), "float64", "t"), 3), (T((0,)), 3), (x, 0), (x, 3, {"range": (2.0, 1.0)}),
        (T((16,), "float64", "e"), 3, {"range": (-2.0, 2.0)}), (T((2, 5), "float32"), 7),
        (T((4,), "float64", "t", grad=False), 2), (x, {"bins": 2}))


def embedding() -> list:
    op, W = "torch.embedding", T((5, 3))
    return calls(op, (W, T((2, 3), I, "idx5")), (W, T((4,), I, "idx5"), 0),
                 (W, T((4,), I, "idx5"), -1), (W, T((4,), I, "idx5"), 2, False, False),
                 (W, T((4,), I, "idx7")), (W, T((4,), "int32", "idx5")), (W, T((0,), I)),
                 (T((5, 3), "float32"), T((4,), I, "idx5")), (T((5,)), T((4,), I, "idx5")))


def table() -> dict:
    out = {"torch.addr": addr, "torch.rsub": rsub, "Tensor.where": where_method,
           "torch.scatter_reduce": scatter_reduce, "torch.index_reduce": index_reduce,
           "torch.gradient": gradient, "torch.histogram": histogram,
           "torch.embedding": embedding}
    for name in ("gcd", "lcm"):
        out[f"torch.{name}"] = functools.partial(integer_binary, f"torch.{name}")
    for name in ("bitwise_left_shift", "bitwise_right_shift"):
        out[f"torch.{name}"] = functools.partial(shift, f"torch.{name}")
    for name in ("__lshift__", "__rshift__", "__rlshift__", "__rrshift__", "__ilshift__",
                 "__irshift__"):
        out[f"Tensor.{name}"] = functools.partial(lambda n: [
            s for s in shift(f"Tensor.{n}") if isinstance(s.args[0], T)
            and "out" not in s.kwargs], name)
    for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window",
                 "kaiser_window"):
        out[f"torch.{name}"] = functools.partial(window, f"torch.{name}")
    for part in (fills, predicates, norms, activations, pools, losses, dropouts, flat_index,
                 sets, buffers, scaling):
        out.update(part())
    return out
