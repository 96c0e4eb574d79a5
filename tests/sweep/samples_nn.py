"""Sample generators of ``torch.nn.functional``: activations (with their options and
``inplace=``), losses (every ``reduction``, weights, ``ignore_index``, label smoothing, class
probabilities, mixed float32/float64 operands), convolution and pooling (stride, padding,
dilation, groups, ceil mode, indices), normalization, ``linear bilinear embedding one_hot pad
normalize cosine_similarity dropout fold unfold``.

Input: an op's name. Output: its samples (``spec.Sample``). ``TABLE`` maps ops to generators.
"""

from __future__ import annotations

import functools

from . import samples_nn_more
from .samples_pointwise import unary
from .spec import T, calls, over_dtypes

X = T((2, 3))
REDUCTIONS = ("none", "mean", "sum", "bad")

ACTIVATIONS = {
    "relu": [{"inplace": True}], "relu6": [{"inplace": True}], "silu": [{"inplace": True}],
    "sigmoid": [], "tanh": [],
    "elu": [{"alpha": 0.5}, {"alpha": 2.0, "inplace": True}],
    "gelu": [{"approximate": "tanh"}, {"approximate": "none"}, {"approximate": "bad"}],
    "hardtanh": [{"min_val": -0.5, "max_val": 0.5}, {"min_val": 1.0, "max_val": -1.0},
                 {"inplace": True}],
    "leaky_relu": [{"negative_slope": 0.2}, {"negative_slope": 0.1, "inplace": True}],
    "softplus": [{"beta": 2.0}, {"beta": 0.5, "threshold": 1.0}],
}


def activation(name: str) -> list:
    op = f"F.{name}"
    out = unary(op)
    out += calls(op, *[(X, kw) for kw in ACTIVATIONS[name]])
    out += calls(op, *[(T((16,), "float64", "e"), kw) for kw in ACTIVATIONS[name][:1]])
    if name in ("hardtanh", "leaky_relu"):
        out += calls(op, (X, -1.0, 1.0) if name == "hardtanh" else (X, 0.3))
    return out


def pointwise_loss(name: str) -> list:
    op = f"F.{name}"
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), T((2, 3), dt)))
    out += calls(op, *[(X, X, {"reduction": r}) for r in REDUCTIONS])
    out += calls(op, (X, T((3,))), (X, T((2, 3), "float32")), (T((2, 3), "float32"), X),
                 (X, T((2, 3), grad=False)), (T(()), T(())), (T((0, 3)), T((0, 3))),
                 (T((16,), "float64", "e"), T((16,), "float64", "e")), (X, T((4,))),
                 (X, T((2, 3), "int64")), (X, X, None, None, "sum"), (X, X, True))
    if name in ("smooth_l1_loss", "huber_loss"):
        key = "beta" if name == "smooth_l1_loss" else "delta"
        out += calls(op, (X, X, {key: 0.5}), (X, X, {key: 0.0}), (X, X, {key: -1.0}),
                     (X, X, {key: 2.0, "reduction": "none"}))
    return out


def bce(name: str) -> list:
    op = f"F.{name}"
    logits = name.endswith("logits")
    P = T((2, 3), kind="n" if logits else "01")
    Y = T((2, 3), kind="01")
    out = over_dtypes(op, lambda dt: (T((2, 3), dt, P.kind), T((2, 3), dt, "01")))
    out += calls(op, *[(P, Y, {"reduction": r}) for r in REDUCTIONS])
    out += calls(op, (P, Y, {"weight": T((3,), kind="p")}), (P, T((2, 3), grad=False, kind="01")),
                 (T((2, 3), "float32", P.kind), Y), (P, T((2, 3), "float32", "01")),
                 (P, T((2, 3), "int64", "t")), (P, T((3,), kind="01")), (T((0, 3)), T((0, 3))),
                 (T((16,), "float64", "e"), T((16,), "float64", "01")),
                 (T((2, 3), kind="n"), Y) if not logits else (P, Y, {"pos_weight": T((3,),
                                                                                    kind="p")}))
    return out


def classification(name: str) -> list:
    op = f"F.{name}"
    L = T((4, 3)) if name == "cross_entropy" else T((4, 3), kind="n")
    Y = T((4,), "int64", "idx3")
    out = over_dtypes(op, lambda dt: (T((4, 3), dt), Y))
    out += calls(op, *[(L, Y, {"reduction": r}) for r in REDUCTIONS])
    out += calls(op, (L, Y, {"weight": T((3,), kind="p")}), (L, Y, {"ignore_index": 1}),
                 (L, Y, {"ignore_index": 1, "reduction": "mean", "weight": T((3,), kind="p")}),
                 (L, T((4,), "int64", "idx4")), (L, T((4,), "int64", "neg1")),
                 (L, T((4,), "int32", "idx3")), (L, T((4,), kind="idx3")), (L, T((5,), "int64",
                                                                                 "idx3")),
                 (T((3,)), T((), "int64", "idx3")), (T((2, 3, 5)), T((2, 5), "int64", "idx3")),
                 (T((0, 3)), T((0,), "int64")), (T((4, 3), "float32"), Y),
                 (L, Y, {"weight": T((3,), "float32", "p")}), (L, Y, {"weight": T((2,))}),
                 (L, T((4,), "int64", "t"), {"ignore_index": 0}))
    if name == "cross_entropy":
        out += calls(op, (L, T((4, 3), kind="prob")), (L, T((4, 3), kind="prob"),
                                                       {"label_smoothing": 0.1}),
                     (L, Y, {"label_smoothing": 0.2}), (L, Y, {"label_smoothing": 1.5}),
                     (L, Y, {"label_smoothing": 0.1, "ignore_index": 2,
                             "weight": T((3,), kind="p")}),
                     (L, T((4, 3), "float32", "prob")), (L, T((4, 3), kind="prob"),
                                                         {"reduction": "none"}))
    return out


def kl_div() -> list:
    op = "F.kl_div"
    A, B = T((2, 3)), T((2, 3), kind="prob")
    out = over_dtypes(op, lambda dt: (T((2, 3), dt), T((2, 3), dt, "prob")))
    out += calls(op, *[(A, B, {"reduction": r}) for r in REDUCTIONS + ("batchmean",)])
    out += calls(op, (A, T((2, 3)), {"log_target": True}), (A, T((2, 3), "float32", "prob")),
                 (A, T((16,), "float64", "e")), (T((0, 3)), T((0, 3))), (A, T((3,), kind="prob")))
    return out


def conv(nd: int) -> list:
    op = f"F.conv{nd}d"
    sp = (5,) * nd
    x, w, b = T((1, 2) + sp), T((3, 2) + (2,) * nd), T((3,))
    out = over_dtypes(op, lambda dt: (T((1, 2) + sp, dt), T((3, 2) + (2,) * nd, dt)))
    out += calls(op, (x, w, b), (x, w, b, 2), (x, w, None, 1, 1), (x, w, b, 1, "same"),
                 (x, w, b, 1, "valid"), (x, w, b, 1, 0, 2), (x, T((4, 1) + (2,) * nd), None, 1, 0,
                                                             1, 2),
                 (x, T((3, 1) + (2,) * nd), None, 1, 0, 1, 2), (T((2,) + sp), w),
                 (x, T((3, 3) + (2,) * nd)), (T((1, 2) + (1,) * nd), w), (x, w, T((4,))),
                 (x, T((3, 2) + (2,) * nd, "float32")), (x, w, b, 2, "same"),
                 (x, w, b, {"stride": (1,) * nd, "padding": (1,) * nd}), (x, w, b, 0),
                 (T((0, 2) + sp), w), (x, w, b, 1, -1))
    return out


def pool(name: str) -> list:
    op = f"F.{name}"
    nd = int(name[-2])
    sp = (5,) * nd
    x = T((1, 2) + sp)
    out = over_dtypes(op, lambda dt: (T((1, 2) + sp, dt), 2))
    if name.startswith("adaptive"):
        return out + calls(op, (x, 3), (x, 1), (x, 5), (x, 7), (x, (2,) * nd), (T((2,) + sp), 2),
                           (x, 0), (T((1, 2) + (0,) * nd), 2), (x, None) if nd == 2 else (x, -1))
    out += calls(op, (x, 2, 1), (x, 3, 2, 1), (x, 2, {"ceil_mode": True}), (x, 2, 2, 1),
                 (x, 3, 1, 2), (T((2,) + sp), 2), (x, 6), (x, 0), (x, (2,) * nd),
                 (T((1, 2) + (3,) * nd, kind="t"), 2, 1), (T((1, 2) + sp, "float64", "e"), 2))
    if name.startswith("max"):
        out += calls(op, (x, 2, {"return_indices": True}), (x, 2, 1, 0, 2),
                     (x, 3, 2, 1, 1, True, True))
    else:
        out += calls(op, (x, 3, 2, 1, False, False), (x, 3, 2, 1, True, False),
                     *([(x, 2, {"divisor_override": 3})] if nd >= 2 else []))
    return out


def table() -> dict:
    out = {}
    for name in ACTIVATIONS:
        out[f"F.{name}"] = functools.partial(activation, name)
    for name in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
        out[f"F.{name}"] = functools.partial(pointwise_loss, name)
    for name in ("binary_cross_entropy", "binary_cross_entropy_with_logits"):
        out[f"F.{name}"] = functools.partial(bce, name)
    for name in ("cross_entropy", "nll_loss"):
        out[f"F.{name}"] = functools.partial(classification, name)
    out["F.kl_div"] = kl_div
    out["F.conv1d"] = functools.partial(conv, 1)
    out["F.conv2d"] = functools.partial(conv, 2)
    for name in ("avg_pool1d", "avg_pool2d", "max_pool1d", "max_pool2d", "adaptive_avg_pool1d",
                 "adaptive_avg_pool2d", "avg_pool3d", "max_pool3d", "adaptive_avg_pool3d"):
        out[f"F.{name}"] = functools.partial(pool, name)
    out.update(samples_nn_more.table())
    return out

