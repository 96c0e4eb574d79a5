"""Sample generators of the remaining ``torch.nn.functional`` layers: max pooling with indices
and unpooling, adaptive max and power-average pooling, 3-d and transposed convolutions,
resampling (``interpolate upsample*``, pixel and channel shuffles), the dropout variants,
``instance_norm local_response_norm rms_norm`` and ``embedding_bag``.

Input: an op's name. Output: its samples (``spec.Sample``); ``table()`` maps ops to
generators. Random ops are sampled where their result is fixed (``training=False``, ``p=0``)
and once drawing: both libraries are seeded alike, and symgrad draws torch's streams.
"""

from __future__ import annotations

import functools

from .spec import T, calls, over_dtypes

I = "int64"   # noqa: E741
X1, X2, X3 = T((1, 2, 6)), T((1, 2, 4, 4)), T((1, 2, 3, 3, 3))


def max_pools(op: str) -> list:
    x = X1 if "1d" in op else X2 if "2d" in op else X3
    out = over_dtypes(op, lambda dt: (T(x.shape, dt), 2), ("float32", "float64", "int64"))
    if "adaptive" in op:
        sizes = 4 if "1d" in op else (2, 3) if "2d" in op else (2, 3, 1)
        return out + calls(op, (x, 3), (x, 1), (x, sizes), (x, 0),
                           (T(x.shape[1:]), 2), (T(x.shape, kind="t"), 2))
    return out + calls(op, (x, 2), (x, 3, 1), (x, 2, 2, 1), (x, 2, {"ceil_mode": True}),
                       (x, 2, {"dilation": 2}), (x, 5), (x, 2, 1, 2), (T(x.shape[1:]), 2),
                       (T(x.shape, kind="t"), 2))


def unpools(op: str) -> list:
    if "1d" in op:
        x, idx = T((1, 2, 3)), T((1, 2, 3), I, "perm6")
        return calls(op, (x, idx, 2), (x, idx, 2, 2, 0, (7,)), (x, idx, {"kernel_size": 2}),
                     (x, T((1, 2, 3), I, "perm9"), 2), (x, T((1, 2, 2), I, "perm4"), 2),
                     (T((1, 2, 3), "float32"), idx, 2), (x, T((1, 2, 3), "int32", "perm6"), 2))
    if "3d" in op:   # (a channel's indices distinct: one row of a permutation)
        x, idx = T((1, 2, 1, 1, 8)), T((1, 2, 1, 1, 8), I, "perm64")
        return calls(op, (x, idx, 2), (x, idx, 2, 2, 0, (3, 3, 17)),
                     (x, T((1, 2, 1, 1, 8), I, "perm80"), 2), (x, idx, (2, 2, 2)),
                     (T((2, 1, 1, 8)), T((2, 1, 1, 8), I, "perm64"), 2), (x, idx, 2, 1),
                     (T((1, 2, 2, 2)), T((1, 2, 2, 2), I, "perm16"), 2, 1, 0, (2, 2, 4)),
                     (x, T((1, 2, 1, 1, 8), "float32"), 2), (T((1, 8)), T((1, 8), I, "perm16"), 2))
    x, idx = T((1, 2, 2, 2)), T((1, 2, 2, 2), I, "perm16")
    return calls(op, (x, idx, 2), (x, idx, 2, 2, 0, (5, 5)), (x, T((1, 2, 2, 2), I, "perm40"), 2),
                 (T((2, 2, 2)), T((2, 2, 2), I, "perm16"), 2), (x, idx, (2, 2)))


def lp_pools(op: str) -> list:
    x = T((1, 2, 6), kind="p") if "1d" in op else T((1, 2, 4, 4), kind="p") if "2d" in op \
        else T((1, 2, 4, 4, 4), kind="p")
    return calls(op, (x, 2, 2), (x, 1, 2), (x, 3, 2, 1), (x, 2.5, 2),
                 (x, 2, 3, {"ceil_mode": True}), (T(x.shape), 2, 2),
                 (T(x.shape, "float32", "p"), 2, 2), (x, 2, 7))


def convs(op: str) -> list:
    d = int(op[-2])
    x = {1: X1, 2: X2, 3: X3}[d]
    if "transpose" not in op:
        w = T((3, 2) + (2,) * d)
        return calls(op, (x, w), (x, w, T((3,))), (x, w, None, 2), (x, w, None, 1, 1),
                     (x, w, None, 1, 0, 2), (x, T((4, 1) + (2,) * d), None, 1, 0, 1, 2),
                     (x, T((3, 3) + (2,) * d)), (T(x.shape[1:]), w), (x, w, {"padding": "same"}),
                     (T(x.shape, "float32"), w))
    w = T((2, 3) + (2,) * d)
    return over_dtypes(op, lambda dt: (T(x.shape, dt), T(w.shape, dt)),
                       ("float32", "float64", "int64")) + calls(
        op, (x, w), (x, w, T((3,))), (x, w, None, 2), (x, w, None, 2, 1),
        (x, w, None, 2, 0, 1), (x, T((2, 2) + (2,) * d), None, 1, 0, 0, 2),
        (x, w, None, 1, 0, 0, 1, 2), (T(x.shape[1:]), w), (x, T((3, 3) + (2,) * d)),
        (x, w, None, 2, 0, 3), (T(x.shape, "float32"), w))


def resampling(op: str) -> list:
    if op == "F.interpolate":
        return calls(op, (X1, 9), (X1, {"scale_factor": 2}), (X1, 4, None, "linear"),
                     (X1, 9, None, "linear", True), (X2, (5, 7), None, "bilinear"),
                     (X2, None, 1.5, "bilinear", False), (X2, (6, 6), None, "bicubic"),
                     (X2, 3, None, "area"), (X2, 6, None, "nearest-exact"), (X3, 4),
                     (X3, 4, None, "trilinear"), (X1, 4, None, "bilinear"), (X1,),
                     (X2, {"scale_factor": 0.5, "mode": "bilinear", "antialias": True}),
                     (T((1, 2, 4, 4), "float32"), 8, None, "bilinear"),
                     (T((1, 2, 9, 11)), {"size": (4, 5), "mode": "bicubic", "antialias": True}),
                     (T((1, 2, 5, 4), "float32"), {"size": (3, 9), "mode": "bilinear",
                                                   "antialias": True}),
                     (T((1, 2, 5, 7)), {"size": (8, 3), "mode": "bilinear", "antialias": True,
                                        "align_corners": True}),
                     (T((1, 2, 6, 6), "float32"), {"scale_factor": 0.4, "mode": "bicubic",
                                                   "antialias": True}),
                     (T((1, 2, 4, 4), I), {"scale_factor": 0.5, "mode": "bilinear",
                                           "antialias": True}),
                     (X1, {"scale_factor": 0.5, "mode": "bilinear", "antialias": True}))
    if op == "F.upsample":
        return calls(op, (X1, 9), (X2, (5, 7), None, "bilinear"), (X2, None, 2))
    return calls(op, (X2, 6), (X2, None, 2), (X2, (5, 7)), (X1, 4), (T((1, 2, 4, 4), I), 8))


def shuffles(op: str) -> list:
    if op == "F.channel_shuffle":
        return calls(op, (T((1, 4, 3)), 2), (T((1, 6, 2, 2)), 3), (T((1, 4, 3)), 3),
                     (T((1, 4, 3), I), 2), (T((1, 4, 3)), 0))
    if op == "F.pixel_shuffle":
        return calls(op, (T((1, 8, 2, 3)), 2), (T((2, 1, 9, 2, 2)), 3), (T((1, 8, 2, 3)), 3),
                     (T((1, 4, 2, 2), I), 2), (T((4, 2)), 2), (T((1, 8, 2, 3)), 1))
    return calls(op, (T((1, 2, 4, 6)), 2), (T((2, 1, 1, 6, 3)), 3), (T((1, 2, 4, 6)), 3),
                 (T((1, 2, 4, 4), I), 2), (T((4, 2)), 2))


def dropouts(op: str) -> list:
    x = X3 if op in ("F.dropout3d", "F.feature_alpha_dropout") else X2 if op != "F.dropout1d" \
        else X1
    return calls(op, (x, 0.5, False), (x, 0.0), (x, {"p": 0.3, "training": False}),
                 (x, 1.5), (x, -0.5), (x, 0.5), (T(x.shape, "float32"), 0.0),
                 (T(x.shape, I), 0.5, False), (T(x.shape, "complex128"), 0.5))


def norms(op: str) -> list:
    if op == "F.instance_norm":
        c = T((2,), kind="p")
        return calls(op, (X1,), (X2,), (X2, None, None, c, T((2,))), (X2, {"eps": 1e-3}),
                     (X2, T((2,), grad=False), T((2,), kind="p", grad=False)),
                     (X2, {"use_input_stats": True, "momentum": 0.2}), (T((2, 1, 5)),),
                     (T((1, 2, 1)),), (T((1, 2, 4, 4), "float32"),), (T((1, 2, 4, 4), I),))
    if op == "F.local_response_norm":
        return calls(op, (X1, 2), (X2, 3), (X3, 2), (X2, 2, 1e-3, 0.5, 2.0), (X2, 5),
                     (T((2, 3)), 2), (T((1, 2, 4, 4), "float32"), 2))
    return calls(op, (X1, (6,)), (X2, (4, 4)), (X1, (6,), T((6,))), (X1, [6], None, 1e-3),
                 (X1, (5,)), (T((1, 2, 6), "float32"), (6,)), (T((2, 6), I), (6,)),
                 (X1, (6,), T((6,), "float32")))


def embedding_bag() -> list:
    op, W = "F.embedding_bag", T((5, 3))
    idx = T((6,), I, "idx5")
    return calls(
        op, (T((2, 3), I, "idx5"), W), (T((2, 3), I, "idx5"), W, {"mode": "sum"}),
        (T((2, 3), I, "idx5"), W, {"mode": "max"}), (idx, W, T((3,), I, "idx1")),
        (T((2, 3), I, "idx5"), W, {"per_sample_weights": T((2, 3)), "mode": "sum"}),
        (T((2, 3), I, "idx5"), W, {"padding_idx": 0}), (T((2, 3), I, "idx7"), W),
        (T((2, 3), I, "idx5"), W, {"mode": "bad"}), (T((2, 3), "int32", "idx5"), W),
        (T((2, 3), I, "idx5"), W, {"max_norm": 1.0}), (idx, W),
        (idx, W, T((2,), I, "idx1"), {"include_last_offset": True}))


def sampling(op: str) -> list:
    """affine_grid's 2-D and 3-D maps; grid_sample over modes, paddings and align_corners,
    grids reaching outside [-1, 1] (``n``: in [-2, 2])."""
    if op == "F.affine_grid":
        th2, th3 = T((2, 2, 3)), T((1, 3, 4))
        return calls(op, (th2, (2, 3, 4, 5)), (th2, (2, 3, 4, 5), True),
                     (th2, (2, 1, 1, 3), False), (th3, (1, 2, 3, 4, 2), False),
                     (th3, (1, 2, 3, 4, 2), True), (T((2, 2, 3), "float32"), (2, 1, 3, 3)),
                     (th2, (2, 3, 4)), (T((2, 3, 3)), (2, 3, 4, 5)),
                     (T((2, 2, 3), I), (2, 3, 4, 5)), (th2, [2, 3, 0, 5]))
    x, g = T((2, 3, 4, 5)), T((2, 3, 4, 2))
    out = calls(op, *[(x, g, m, p, a) for m in ("bilinear", "nearest", "bicubic")
                      for p in ("zeros", "border", "reflection") for a in (False, True)])
    return out + calls(op, (x, g), (T((2, 3, 4, 5), "float32"), T((2, 3, 4, 2), "float32")),
                       (x, T((2, 3, 4, 2), kind="u"), {"align_corners": True}),
                       (x, T((2, 3, 4, 2), "float32")), (x, g, "area"), (x, g, "bilinear", "bad"),
                       (x, T((2, 3, 4, 3))), (T((1, 1, 2, 2)), T((1, 5, 5, 2), kind="u")),
                       (x, g, {"mode": "bicubic", "padding_mode": "border"}))


def fractional(op: str) -> list:
    """Windows from explicit samples and from torch's draws (seeded alike), sizes or ratios,
    unbatched input, and torch's refusals."""
    nd = 3 if "3d" in op else 2
    x = T((2, 3) + (5, 6, 7)[-nd:])
    u = T((2, 3, nd), kind="01")
    return calls(op, (x, 2, (3,) * nd), (x, 2, None, (0.5,) * nd), (x, 2, (2,) * nd, None,
                 True), (x, 2, {"output_size": 3, "_random_samples": u}),
                 (T((3,) + (5, 6, 7)[-nd:]), 2, 2), (T(x.shape, "float32"), (2,) * nd, 3),
                 (x, 2), (x, 6, 2), (x, 2, 3, {"_random_samples": T((2, 3, nd), "float32")}),
                 (T(x.shape, kind="t"), 2, 3, {"return_indices": True, "_random_samples": u}))


def table() -> dict:
    out = {}
    groups = {
        max_pools: ("max_pool1d_with_indices", "max_pool2d_with_indices",
                    "adaptive_max_pool1d", "adaptive_max_pool1d_with_indices",
                    "adaptive_max_pool2d", "adaptive_max_pool2d_with_indices",
                    "max_pool3d_with_indices", "adaptive_max_pool3d",
                    "adaptive_max_pool3d_with_indices"),
        unpools: ("max_unpool1d", "max_unpool2d", "max_unpool3d"),
        lp_pools: ("lp_pool1d", "lp_pool2d", "lp_pool3d"),
        convs: ("conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"),
        resampling: ("interpolate", "upsample", "upsample_bilinear", "upsample_nearest"),
        shuffles: ("pixel_shuffle", "pixel_unshuffle", "channel_shuffle"),
        dropouts: ("alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d",
                   "dropout3d"),
        norms: ("instance_norm", "local_response_norm", "rms_norm"),
        sampling: ("affine_grid", "grid_sample"),
        fractional: ("fractional_max_pool2d", "fractional_max_pool2d_with_indices",
                     "fractional_max_pool3d", "fractional_max_pool3d_with_indices")}
    for make, names in groups.items():
        for name in names:
            out[f"F.{name}"] = functools.partial(make, f"F.{name}")
    out["F.embedding_bag"] = embedding_bag
    return out
