"""Sample generators of the rest of ``torch.nn.functional``: ``linear bilinear embedding
one_hot pad layer_norm batch_norm normalize cosine_similarity dropout fold unfold``.

Input: an op's name. Output: its samples (``spec.Sample``); ``table()`` maps ops to
generators (``samples_nn`` holds activations, losses, convolution and pooling).
"""

from __future__ import annotations

from .spec import T, calls, over_dtypes

X = T((2, 3))
I = "int64"   # noqa: E741


def linear() -> list:
    op, w, b = "F.linear", T((4, 3)), T((4,))
    return over_dtypes(op, lambda dt: (T((2, 3), dt), T((4, 3), dt))) + calls(
        op, (X, w, b), (T((3,)), w, b), (T((2, 2, 3)), w, b), (X, T((3,))), (X, T((3,)), T(())),
        (X, w, T((3,))), (X, T((4, 2))), (T((2, 3), "float32"), w), (X, w, T((4,), "float32")),
        (T((0, 3)), w, b), (X, {"weight": w, "bias": b}), (T(()), T(())))


def bilinear() -> list:
    op = "F.bilinear"
    x1, x2, w, b = T((2, 3)), T((2, 4)), T((5, 3, 4)), T((5,))
    return over_dtypes(op, lambda dt: (T((2, 3), dt), T((2, 4), dt), T((5, 3, 4), dt))) + calls(
        op, (x1, x2, w, b), (T((3,)), T((4,)), w), (x1, T((2, 3)), w), (x1, x2, w, T((4,))),
        (T((2, 3), "float32"), x2, w), (T((0, 3)), T((0, 4)), w, b))


def embedding() -> list:
    op, W = "F.embedding", T((5, 3))
    return calls(
        op, (T((2, 3), I, "idx5"), W), (T((4,), I, "idx5"), W, 0), (T((), I, "idx5"), W),
        (T((4,), I, "idx5"), W, {"padding_idx": -1}), (T((4,), I, "idx7"), W),
        (T((4,), "int32", "idx5"), W), (T((4,), kind="idx5"), W), (T((4,), I, "idx5"),
                                                                   T((5, 3), "float32")),
        (T((4,), I, "idx5"), T((5,))), (T((0,), I), W), (T((4,), I, "neg5"), W),
        (T((6,), I, "t"), W, {"#": "dup"}), (T((4,), I, "idx5"), T((5, 3), I)))


def one_hot() -> list:
    op = "F.one_hot"
    return calls(op, (T((4,), I, "idx3"),), (T((4,), I, "idx3"), 5), (T((2, 2), I, "idx3"), 3),
                 (T((4,), I, "idx3"), 2), (T((4,), I, "neg2"),), (T((), I, "idx3"), 3),
                 (T((4,), "int32", "idx3"), 3), (T((4,), kind="idx3"), 3), (T((0,), I),),
                 (T((0,), I), 3), (T((4,), I, "idx3"), -1), (T((4,), I, "idx3"), 0))


def pad() -> list:
    op, X3 = "F.pad", T((1, 2, 3))
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), (1, 2)))
    out += calls(op, (X, (1, 1, 2, 0)), (X, (-1, 1)), (X, (1,)), (X, (1, 1, 1, 1, 1, 1)),
                 (X, (1, 2), "constant", 1.5), (X, [1, 2]), (T((2, 3), I), (1, 1), "constant",
                                                             2.5),
                 (X3, (1, 2), "reflect"), (X3, (2, 2), "replicate"), (X3, (1, 1), "circular"),
                 (X3, (3, 3), "reflect"), (X, (1, 2), "reflect"), (X, (1, 1), "bad"),
                 (T(()), (1, 1)), (T((0, 3)), (1, 1)), (X, (0, 0)), (X, {"pad": (1, 1),
                                                                         "value": -1.0}),
                 (T((1, 2, 3, 4)), (1, 1, 1, 1), "reflect"), (X, (-3, 0)))
    return out


def layer_norm() -> list:
    op = "F.layer_norm"
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), (3,)))
    out += calls(op, (X, (3,), T((3,)), T((3,))), (T((2, 3, 4)), (3, 4), T((3, 4)), T((3, 4))),
                 (X, (2, 3)), (X, [3]), (X, 3), (X, (4,)), (X, (3,), T((4,))),
                 (X, (3,), None, None, 0.5), (T((2, 3), "float32"), (3,), T((3,))),
                 (T((0, 3)), (3,)), (T((2, 3), kind="t"), (3,)), (T((2, 1)), (1,)),
                 (T((16,), "float64", "e"), (16,)))
    return out


def group_norm() -> list:
    op, x = "F.group_norm", T((2, 4, 3))
    out = over_dtypes(op, lambda dt: (T((2, 4, 3), dt), 2))
    out += calls(op, (x, 2, T((4,)), T((4,))), (x, 4), (x, 1, None, None, 0.5), (x, 3),
                 (x, 0), (T((2, 4)), 2), (T((2, 4, 2, 2)), 2, T((4,))), (x, 2, T((3,))),
                 (T((0, 4, 3)), 2), (T((2, 4, 3), kind="t"), 2), (T((2, 4, 3), "float32"), 2,
                                                                  T((4,))),
                 (T((1, 2, 8), "float64", "e"), 1))
    return out


def attention() -> list:
    op = "F.scaled_dot_product_attention"
    q, k, v = T((2, 3, 4)), T((2, 5, 4)), T((2, 5, 4))
    out = over_dtypes(op, lambda dt: (T((2, 3, 4), dt), T((2, 5, 4), dt), T((2, 5, 4), dt)))
    out += calls(op, (q, k, v, T((3, 5), "bool")), (q, k, v, T((3, 5))), (q, k, v, None, 0.0,
                                                                          True),
                 (q, k, v, {"scale": 0.5}), (T((2, 2, 3, 4)), T((2, 2, 5, 4)), T((2, 2, 5, 4))),
                 (q, T((2, 5, 3)), v), (q, k, T((2, 5, 6))), (T((3, 4)), T((5, 4)), T((5, 4))),
                 (q, k, v, T((2, 3, 5), "bool")), (T((2, 3, 4), "float32"), k, v),
                 (q, k, v, {"attn_mask": T((3, 5), "bool"), "is_causal": True}),
                 (T((2, 0, 4)), k, v), (q, T((2, 0, 4)), T((2, 0, 4))))
    return out


def multi_head() -> list:
    op = "F.multi_head_attention_forward"
    q = T((3, 2, 4))
    core = (q, T((3, 2, 4)), T((3, 2, 4)), 4, 2, T((12, 4)), T((12,)), None, None, False, 0.0,
            T((4, 4)), T((4,)))
    return calls(op, core, core + ({"need_weights": False},),
                 core + ({"average_attn_weights": False},),
                 core + ({"key_padding_mask": T((2, 3), "bool")},),
                 core + ({"attn_mask": T((3, 3), "bool")},), core + ({"attn_mask": T((3, 3))},),
                 (T((3, 4)), T((3, 4)), T((3, 4))) + core[3:],
                 (q, q, q, 4, 3) + core[5:], core + ({"is_causal": True,
                                                      "attn_mask": T((3, 3), "bool")},),
                 (T((3, 2, 4), "float32"),) + core[1:])


def batch_norm() -> list:
    op = "F.batch_norm"
    x = T((4, 3))
    rm, rv = T((3,), grad=False), T((3,), kind="p", grad=False)
    out = over_dtypes(op, lambda dt: (T((4, 3), dt), None, None, None, None, True))
    out += calls(op, (x, rm, rv), (x, rm, rv, T((3,)), T((3,))),
                 (x, rm, rv, T((3,)), T((3,)), True), (x, rm, rv, None, None, True, 0.5, 1e-3),
                 (x, None, None), (T((4, 3, 5)), rm, rv, None, None, True), (x, T((4,)), rv),
                 (T((1, 3)), rm, rv, None, None, True), (T((4, 3), "float32"), rm, rv),
                 (x, rm, rv, {"training": True, "momentum": None}), (T((2, 3, 2, 2)), rm, rv,
                                                                     T((3,)), None, True))
    return out


def normalize() -> list:
    op = "F.normalize"
    return over_dtypes(op, lambda dt: (T((2, 3), dt),)) + calls(
        op, (X, 1.0), (X, 2.0, 0), (X, float("inf"), -1), (X, 0.0), (X, {"eps": 10.0}),
        (T((2, 3), kind="t"),), (T((0, 3)),), (T(()),), (X, 2, 2), (T((16,), "float64", "e"), 2,
                                                                    0))


def cosine() -> list:
    op = "F.cosine_similarity"
    return over_dtypes(op, lambda dt: (T((2, 3), dt), T((2, 3), dt))) + calls(
        op, (X, T((3,))), (X, X, 0), (X, X, -1, 0.5), (T((2, 3), kind="t"), T((2, 3), kind="t")),
        (X, T((2, 3), "float32")), (T((3,)), T((3,))), (X, T((4,))), (T((0, 3)), T((0, 3))),
        (X, X, 2), (T((16,), "float64", "e"), T((16,), "float64", "e"), 0))


def dropout(op: str) -> list:
    out = over_dtypes(op, lambda dt: (T((3, 4), dt),))
    out += calls(op, (T((3, 4)), 0.3), (T((3, 4)), 0.0), (T((3, 4)), 1.0), (T((3, 4)), 1.5),
                 (T((3, 4)), -0.1), (T((3, 4)), 0.5, False), (T((3, 4)), {"p": 0.2,
                                                                           "training": True}),
                 (T((0, 4)), 0.5), (T(()), 0.5), (T((3, 4), "float32"), 0.5),
                 (T((3, 4)), 0.5, True, True), (T((3, 4), "complex128"), 0.5),
                 (T((3, 4), "complex64"), 1.0))
    return out


def folds() -> dict:
    out = {}
    out["F.unfold"] = lambda: over_dtypes("F.unfold", lambda dt: (T((1, 2, 4, 4), dt), 2)) + calls(
        "F.unfold", (T((1, 2, 4, 4)), 2, 1, 0, 2), (T((1, 2, 4, 4)), (2, 3), 1, 1),
        (T((1, 2, 4, 4)), 2, {"stride": 2}), (T((2, 4, 4)), 2), (T((1, 2, 4)), 2),
        (T((1, 2, 4, 4)), 5), (T((1, 2, 4, 4)), 0))
    out["F.fold"] = lambda: over_dtypes("F.fold", lambda dt: (T((1, 8, 9), dt), (4, 4), 2)) + calls(
        "F.fold", (T((1, 8, 9)), 4, 2), (T((1, 8, 4)), (4, 4), 2, {"stride": 2}),
        (T((8, 9)), (4, 4), 2), (T((1, 8, 9)), (4, 4), 3), (T((1, 8, 9)), (5, 5), 2),
        (T((1, 8, 16)), (4, 4), 2, 1, 1))
    return out


def table() -> dict:
    out = {"F.linear": linear, "F.bilinear": bilinear, "F.embedding": embedding,
           "F.one_hot": one_hot, "F.pad": pad, "F.layer_norm": layer_norm,
           "F.batch_norm": batch_norm, "F.normalize": normalize, "F.cosine_similarity": cosine,
           "F.dropout": lambda: dropout("F.dropout"),
           "torch.dropout": lambda: dropout("torch.dropout")}
    out.update(folds())
    out.update({"F.group_norm": group_norm, "F.scaled_dot_product_attention": attention,
                "F.multi_head_attention_forward": multi_head})
    return out
