"""Sample generators of the rest of ``torch.nn.functional``'s activations (the shrinks, gated,
randomized and parametric ones, and the in-place ``F.relu_``-style functions) and its margin,
embedding, likelihood and distance losses (``ctc_loss`` included).

Input: an op's name. Output: its samples (``spec.Sample``); ``table()`` maps ops to
generators (``samples_nn`` holds the common activations and losses, convolution, pooling).
"""

from __future__ import annotations

import functools

from .samples_pointwise import unary
from .spec import T, calls, over_dtypes

X = T((2, 3))
I = "int64"   # noqa: E741
REDUCTIONS = ("none", "mean", "sum", "bad")

OPTIONS = {
    "celu": [{"alpha": 0.5}, {"alpha": 0.0}], "hardshrink": [{"lambd": 1.0}, {"lambd": -1.0}],
    "softshrink": [{"lambd": 1.0}, {"lambd": -0.5}], "hardsigmoid": [], "hardswish": [],
    "logsigmoid": [], "mish": [], "selu": [], "softsign": [], "tanhshrink": [],
    "rrelu": [{"training": True}, {"lower": 0.2, "upper": 0.1}, {"lower": 0.1, "upper": 0.5,
                                                                  "training": True}],
    "threshold": [],
}
INPLACE = ("celu_", "elu_", "hardtanh_", "leaky_relu_", "relu_", "rrelu_", "selu_",
           "threshold_")


def activation(name: str) -> list:
    op = f"F.{name}"
    post = (0.5, -1.0) if name == "threshold" else ()
    out = unary(op, post=post)
    out += calls(op, *[(X,) + post + (kw,) for kw in OPTIONS[name]])
    out += calls(op, (T((16,), "float64", "e"),) + post, (X,) + post + ({"inplace": True},))
    if name == "threshold":
        out += calls(op, (X, 0.0, float("nan")), (T((2, 3), I), 1, 5), (X, 1.5, 2))
    return out


def inplace(name: str) -> list:
    op = f"F.{name}"
    post = (0.5, -1.0) if name == "threshold_" else ()
    out = over_dtypes(op, lambda dt: (T((2, 3), dt),) + post)
    out += calls(op, (T(()),) + post, (T((16,), "float64", "e"),) + post,
                 (X,) + post + ({"#": "leaf"},))
    return out


def gated() -> dict:
    out = {}
    out["F.glu"] = lambda: over_dtypes("F.glu", lambda dt: (T((2, 4), dt),)) + calls(
        "F.glu", (T((2, 4)), 0), (X,), (T((4, 2)), 0), (T(()),), (T((2, 4)), 2), (T((0, 4)),))
    out["F.softmin"] = lambda: over_dtypes("F.softmin", lambda dt: (T((2, 3), dt), 1)) + calls(
        "F.softmin", (X, 0), (X,), (X, 1, 3, None), (X, {"dim": 1, "dtype": None}), (X, 2),
        (T((16,), "float64", "e"), 0), (T(()), 0))
    out["F.gumbel_softmax"] = lambda: calls(
        "F.gumbel_softmax", (X,), (X, 0.5), (X, 1.0, True), (X, {"dim": 0}),
        (T((2, 3), "float32"),), (X, 0.0), (T((2, 3), I),), (T((0, 3)),))
    out["F.prelu"] = lambda: over_dtypes("F.prelu", lambda dt: (T((2, 3), dt), T((1,), dt))) + \
        calls("F.prelu", (X, T((3,))), (T((2, 3, 4)), T((3,))), (X, T((2,))), (X, T(())),
              (T((16,), "float64", "e"), T((1,))), (T((3,)), T((1,))), (X, T((1,), "float32")))
    return out


def pair_losses() -> dict:
    out = {}
    y = T((4,), kind="pm1")
    rows = {
        "cosine_embedding_loss": ((T((4, 3)), T((4, 3)), y), [{"margin": 0.5}],
                                  [(T((3,)), T((3,)), T((), kind="pm1")),
                                   (T((4, 3)), T((4, 3)), T((4,), I, "pm1"))]),
        "margin_ranking_loss": ((T((4,)), T((4,)), y), [{"margin": 0.5}],
                                [(T((4,)), T((4,)), T((4,), I, "pm1")), (T((4,)), T(()), y)]),
        "hinge_embedding_loss": ((T((4,)), y), [{"margin": 0.5}, {"margin": -1.0}],
                                 [(T((4,)), T((4,), I, "pm1")),
                                  (T((2, 2)), T((2, 2), kind="pm1")),
                                  (T((4,), I), T((4,), I, "pm1"), {"reduction": "sum"}),
                                  (T((4,), I), T((4,), I, "pm1"), {"reduction": "none"})]),
        "soft_margin_loss": ((T((4,)), y), [], [(T((4,)), T((4,), I, "pm1")), (T((4,)), T((3,)))]),
        "multilabel_soft_margin_loss": ((T((2, 3)), T((2, 3), kind="01")),
                                        [{"weight": T((3,), kind="p")}],
                                        [(T((3,)), T((3,), kind="01")), (X, T((2, 3), I, "idx2"))]),
    }
    for name, (base, options, more) in rows.items():
        op = f"F.{name}"
        out[op] = functools.partial(lambda o, b, opts, m: over_dtypes(
            o, lambda dt: tuple(T(t.shape, dt, t.kind) for t in b)) + calls(
            o, *[b + ({"reduction": r},) for r in REDUCTIONS], *[b + (kw,) for kw in opts],
            *m, (T((16,), "float64", "e"),) + tuple(T((16,), t.dtype, t.kind) for t in b[1:]),
            tuple(T(t.shape, "float32", t.kind) if i == 0 else t for i, t in enumerate(b))),
            op, base, options, more)
    return out


def class_losses() -> dict:
    out = {}
    L, Y = T((4, 3)), T((4,), I, "idx3")
    out["F.multi_margin_loss"] = lambda: over_dtypes(
        "F.multi_margin_loss", lambda dt: (T((4, 3), dt), Y)) + calls(
        "F.multi_margin_loss", *[(L, Y, {"reduction": r}) for r in REDUCTIONS],
        (L, Y, 2), (L, Y, 1, 0.5), (L, Y, {"weight": T((3,), kind="p")}), (L, Y, 3),
        (T((3,)), T((), I, "idx3")), (L, T((4,), I, "idx4")), (L, T((4,), "int32", "idx3")))
    out["F.multilabel_margin_loss"] = lambda: calls(
        "F.multilabel_margin_loss", (L, T((4, 3), I, "neg1")), (L, T((4, 3), I, "perm3")),
        *[(L, T((4, 3), I, "neg1"), {"reduction": r}) for r in REDUCTIONS],
        (T((3,)), T((3,), I, "neg1")), (L, T((4, 3), I, "idx4")), (L, T((4, 3))))
    return out


def likelihood() -> dict:
    out = {}
    X2, P = T((2, 3)), T((2, 3), kind="p")
    out["F.gaussian_nll_loss"] = lambda: over_dtypes(
        "F.gaussian_nll_loss", lambda dt: (T((2, 3), dt), T((2, 3), dt), T((2, 3), dt, "p"))) + \
        calls("F.gaussian_nll_loss", *[(X2, X2, P, {"reduction": r}) for r in REDUCTIONS],
              (X2, X2, P, True), (X2, X2, T((2, 1), kind="p")), (X2, X2, T((2,), kind="p")),
              (X2, X2, 0.5), (X2, X2, T((2, 3))), (X2, X2, P, {"eps": 0.1}),
              (X2, T((2, 3), "float32"), P))
    out["F.poisson_nll_loss"] = lambda: over_dtypes(
        "F.poisson_nll_loss", lambda dt: (T((2, 3), dt), T((2, 3), dt, "p"))) + calls(
        "F.poisson_nll_loss", *[(X2, P, {"reduction": r}) for r in REDUCTIONS],
        (P, P, False), (X2, P, True, True), (P, P, False, True), (X2, P, {"eps": 0.1}),
        (T((16,), "float64", "e"), T((16,), kind="p")), (X2, T((2, 3), I, "p")))
    out["F.ctc_loss"] = lambda: ctc()
    return out


def ctc() -> list:
    op = "F.ctc_loss"
    lp = T((6, 2, 4))   # (T, N, C): log-probabilities need not be normalized here
    tg, ln = T((2, 3), I, "one3"), [6, 6]
    return calls(op, (lp, tg, [6, 5], [3, 2]), (lp, tg, ln, [3, 3], {"reduction": "sum"}),
                 (lp, tg, ln, [3, 3], {"reduction": "none"}), (lp, T((5,), I, "one3"), ln, [3, 2]),
                 (lp, T((2, 3), I, "idx3"), ln, [3, 3], {"blank": 3}), (lp, tg, [2, 2], [3, 3]),
                 (lp, tg, [2, 2], [3, 3], {"zero_infinity": True}),
                 (lp, tg, T((2,), I, "one6"), T((2,), I, "one3")),
                 (T((6, 2, 4), "float32"), tg, ln, [3, 3]), (T((6, 4)), T((3,), I, "one3"), [6],
                                                              [3]))


def distances() -> dict:
    out = {}
    out["F.pairwise_distance"] = lambda: over_dtypes(
        "F.pairwise_distance", lambda dt: (T((2, 3), dt), T((2, 3), dt))) + calls(
        "F.pairwise_distance", *[(X, T((2, 3)), p) for p in (1.0, 0.0, 3.0, float("inf"))],
        (X, T((3,))), (X, X, 2.0, 1e-6, True), (T((3,)), T((3,))), (X, T((4,))),
        (T((2, 3), kind="t"), T((2, 3), kind="t")))
    out["F.pdist"] = lambda: over_dtypes("F.pdist", lambda dt: (T((4, 3), dt),)) + calls(
        "F.pdist", *[(T((4, 3)), p) for p in (1.0, 0.0, 3.0, float("inf"), -1.0)],
        (T((1, 3)),), (T((3,)),), (T((4, 3), kind="t"),), (T((0, 3), grad=False),))
    # (torch 2.13's backward of pdist on a (0, 3) input that requires grad segfaults)
    a, p, n = T((4, 3)), T((4, 3)), T((4, 3))
    out["F.triplet_margin_loss"] = lambda: over_dtypes(
        "F.triplet_margin_loss", lambda dt: (T((4, 3), dt), T((4, 3), dt), T((4, 3), dt))) + \
        calls("F.triplet_margin_loss", *[(a, p, n, {"reduction": r}) for r in REDUCTIONS],
              (a, p, n, 0.5, 1.0), (a, p, n, {"swap": True}), (T((3,)), T((3,)), T((3,))),
              (a, p, T((4, 2))), (a, p, n, 1.0, float("inf")))
    out["F.triplet_margin_with_distance_loss"] = lambda: calls(
        "F.triplet_margin_with_distance_loss", (a, p, n), (a, p, n, {"margin": 0.5}),
        (a, p, n, {"swap": True}), *[(a, p, n, {"reduction": r}) for r in REDUCTIONS],
        (T((3,)), T((3,)), T((3,))))
    return out


def table() -> dict:
    out = {f"F.{name}": functools.partial(activation, name) for name in OPTIONS}
    out.update({f"F.{name}": functools.partial(inplace, name) for name in INPLACE})
    for part in (gated, pair_losses, class_losses, likelihood, distances):
        out.update(part())
    for name in ("clamp_min", "clamp_max"):
        out[f"torch.{name}"] = functools.partial(
            lambda n: unary(f"torch.{n}", post=(0.0,)) + calls(
                f"torch.{n}", (X, T((3,))), (X, T((2, 3))), (T((2, 3), I), 0.5),
                (T((16,), "float64", "e"), 0.0), (X, float("nan"))), name)
    return out
