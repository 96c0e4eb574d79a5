"""The table of the activations, losses and distances added after ``nn_cases.py``: each case is
a function of a namespace ``m`` (symgrad or torch), its inputs, which inputs are
differentiated, and a NumPy reference written by hand from the function's definition (loops
where torch's kernel loops), never from symgrad's code. Inputs keep away from kinks, so central
differences of the reference are valid gradients. Groups share one compiled function in the
tests.
"""

from __future__ import annotations

import math

import numpy as np
from nn_cases import Case, away, unif

_R = np.random.default_rng(20260712)

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def F(m):
    return m.nn.functional


def signs(*shape):
    return np.where(_R.uniform(size=shape) > 0.5, 1.0, -1.0)


def _logsig(x):
    return -np.logaddexp(0.0, -x)


def _reduce(loss, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda a: a}[reduction](loss)


X = away(4, 6)
X_SHRINK = away(4, 6, points=(-0.6, 0.6))
X_HARD = away(4, 6, points=(-3.0, 3.0), lo=-5, hi=5)
X_THRESH = away(4, 6, points=(0.3,))
W6 = unif(0.1, 0.5, 6)
Y = _R.standard_normal((4, 6))
Z = _R.standard_normal((4, 6))
PM = signs(4, 6)
S4 = signs(4)
T4 = np.array([2, 0, 5, 1])
ML = np.array([[0, 3, -1, 1, 1, 2], [5, -1, 0, 0, 0, 0], [4, 1, 0, 3, 2, 5], [2, 2, -1, 0, 0, 0]])
V = unif(0.2, 1.5, 4, 6)


def _prelu_np(x, w):
    wb = w.reshape([1, -1] + [1] * (x.ndim - 2)) if x.ndim > 1 and w.size > 1 else w
    return np.where(x > 0, x, wb * x)


def _glu_np(x, axis):
    a, b = np.split(x, 2, axis=axis)
    return a / (1.0 + np.exp(-b))


def _softmin_np(x, axis):
    e = np.exp(-x - (-x).max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


ACTIVATIONS = [
    Case("celu", lambda m, x: F(m).celu(x), lambda x: np.where(x > 0, x, np.expm1(x)), [X],
         group="act"),
    Case("celu_alpha", lambda m, x: F(m).celu(x, 0.3),
         lambda x: np.where(x > 0, x, 0.3 * np.expm1(x / 0.3)), [X], group="act"),
    Case("selu", lambda m, x: F(m).selu(x),
         lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)), [X], group="act"),
    Case("mish", lambda m, x: F(m).mish(x), lambda x: x * np.tanh(np.logaddexp(0.0, x)), [X],
         group="act"),
    Case("hardswish", lambda m, x: F(m).hardswish(x),
         lambda x: x * np.clip(x + 3, 0, 6) / 6, [X_HARD], group="act", second=False),
    Case("hardsigmoid", lambda m, x: F(m).hardsigmoid(x),
         lambda x: np.clip(x + 3, 0, 6) / 6, [X_HARD], group="act", second=False),
    Case("logsigmoid", lambda m, x: F(m).logsigmoid(x), _logsig, [X], group="act"),
    Case("softsign", lambda m, x: F(m).softsign(x), lambda x: x / (1 + np.abs(x)), [X],
         group="act"),
    Case("tanhshrink", lambda m, x: F(m).tanhshrink(x), lambda x: x - np.tanh(x), [X],
         group="act"),
    Case("softshrink", lambda m, x: F(m).softshrink(x, 0.6),
         lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.6, 0), [X_SHRINK], group="act",
         second=False),
    Case("hardshrink", lambda m, x: F(m).hardshrink(x, 0.6),
         lambda x: np.where(np.abs(x) > 0.6, x, 0.0), [X_SHRINK], group="act", second=False),
    Case("threshold", lambda m, x: F(m).threshold(x, 0.3, -2.0),
         lambda x: np.where(x > 0.3, x, -2.0), [X_THRESH], group="act", second=False),
    Case("prelu_shared", lambda m, x, w: F(m).prelu(x, w), _prelu_np, [X, np.array([0.2])],
         diff=(0, 1), group="act", second=False),
    Case("prelu_channels", lambda m, x, w: F(m).prelu(x, w), _prelu_np, [X, W6], diff=(0, 1),
         group="act", second=False),
    Case("prelu_3d", lambda m, x, w: F(m).prelu(x.reshape(2, 3, 4), w),
         lambda x, w: _prelu_np(x.reshape(2, 3, 4), w), [X, W6[:3]], diff=(0, 1), group="act",
         second=False),
    Case("rrelu_eval", lambda m, x: F(m).rrelu(x, 0.1, 0.3),
         lambda x: np.where(x >= 0, x, 0.2 * x), [X], group="act", second=False),
    Case("glu_last", lambda m, x: F(m).glu(x), lambda x: _glu_np(x, -1), [X], group="act"),
    Case("glu_dim0", lambda m, x: F(m).glu(x, 0), lambda x: _glu_np(x, 0), [X], group="act"),
    Case("softmin", lambda m, x: F(m).softmin(x, 1), lambda x: _softmin_np(x, 1), [X],
         group="act"),
    Case("elu_inplace", lambda m, x: F(m).elu_(x * 1.0, 0.7),
         lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)), [X], group="act"),
    Case("celu_inplace", lambda m, x: F(m).celu_(x * 1.0, 0.5),
         lambda x: np.where(x > 0, x, 0.5 * np.expm1(x / 0.5)), [X], group="act"),
    Case("selu_inplace", lambda m, x: F(m).selu_(x * 1.0),
         lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)), [X], group="act"),
    Case("leaky_relu_inplace", lambda m, x: F(m).leaky_relu_(x * 1.0, 0.2),
         lambda x: np.where(x > 0, x, 0.2 * x), [X], group="act", second=False),
    Case("threshold_inplace", lambda m, x: F(m).threshold_(x * 1.0, 0.3, 1.5),
         lambda x: np.where(x > 0.3, x, 1.5), [X_THRESH], group="act", second=False),
]


# ---------------------------------------------------------------- losses

def _poisson_full_np(x, y):
    safe = np.where(y > 1, y, 2.0)
    stirling = np.where(y > 1, safe * np.log(safe) - safe + 0.5 * np.log(2 * math.pi * safe), 0)
    return np.mean(x - y * np.log(x + 1e-8) + stirling)


def _gaussian_np(x, y, v, eps=1e-6, full=False):
    v = np.maximum(v, eps)
    constant = 0.5 * math.log(2 * math.pi) if full else 0.0
    return np.mean(0.5 * (np.log(v) + (x - y) ** 2 / v) + constant)


def _mlsm_np(x, y, w=None):
    loss = -(y * _logsig(x) + (1 - y) * _logsig(-x))
    loss = loss if w is None else loss * w
    return loss.mean(axis=-1)


def _cosine_emb_np(a, b, y, margin, reduction):
    cos = (a * b).sum(-1) / np.sqrt(((a * a).sum(-1) + 1e-12) * ((b * b).sum(-1) + 1e-12))
    return _reduce(np.where(y == 1, 1 - cos, np.maximum(0, cos - margin)), reduction)


def _multi_margin_np(x, t, p=1, margin=1.0, w=None, reduction="mean"):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        for d in range(x.shape[1]):
            z = margin - x[i, t[i]] + x[i, d]
            if d != t[i] and z > 0:
                out[i] += z ** p * (1.0 if w is None else w[t[i]])
    return _reduce(out / x.shape[1], reduction)


def _multilabel_margin_np(x, t, reduction="mean"):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        labels = []
        for j in t[i]:
            if j < 0:
                break
            labels.append(j)
        for j in labels:
            for d in range(x.shape[1]):
                if d not in labels:
                    out[i] += max(0.0, 1 - (x[i, j] - x[i, d]))
    return _reduce(out / x.shape[1], reduction)


LOSSES = [
    Case("soft_margin_mean", lambda m, x, y: F(m).soft_margin_loss(x, y),
         lambda x, y: np.mean(np.log1p(np.exp(-y * x))), [X, PM], group="loss"),
    Case("soft_margin_none", lambda m, x, y: F(m).soft_margin_loss(x, y, reduction="none"),
         lambda x, y: np.log1p(np.exp(-y * x)), [X, PM], group="loss"),
    Case("poisson_log", lambda m, x, y: F(m).poisson_nll_loss(x, y),
         lambda x, y: np.mean(np.exp(x) - y * x), [X, np.abs(Y)], diff=(0, 1), group="loss"),
    Case("poisson_full", lambda m, x, y: F(m).poisson_nll_loss(x, y, log_input=False, full=True),
         _poisson_full_np, [V, 3 * np.abs(Y) + 0.05], diff=(0, 1), group="loss"),
    Case("gaussian", lambda m, x, y, v: F(m).gaussian_nll_loss(x, y, v), _gaussian_np,
         [X, Y, V], diff=(0, 1, 2), group="loss"),
    Case("gaussian_full_shared", lambda m, x, y, v: F(m).gaussian_nll_loss(
        x, y, v[:, 0], full=True, eps=0.1, reduction="sum"),
         lambda x, y, v: 24 * _gaussian_np(x, y, v[:, :1], 0.1, True), [X, Y, V],
         diff=(0, 1, 2), group="loss"),
    Case("multilabel_soft_margin", lambda m, x, y: F(m).multilabel_soft_margin_loss(x, y),
         lambda x, y: _mlsm_np(x, y).mean(), [X, (Y > 0) * 1.0], diff=(0, 1), group="loss"),
    Case("multilabel_soft_margin_w", lambda m, x, y, w: F(m).multilabel_soft_margin_loss(
        x, y, weight=w, reduction="none"), _mlsm_np, [X, (Y > 0) * 1.0, W6],
         diff=(0, 1, 2), group="loss"),
    Case("hinge_embedding", lambda m, x, y: F(m).hinge_embedding_loss(x, y, margin=0.5),
         lambda x, y: np.mean(np.where(y == 1, x, np.maximum(0, 0.5 - x))),
         [away(4, 6, points=(0.5,)), PM], group="loss", second=False),
    Case("margin_ranking", lambda m, a, b, y: F(m).margin_ranking_loss(a, b, y, 0.1,
                                                                        reduction="sum"),
         lambda a, b, y: np.sum(np.maximum(0, -y * (a - b) + 0.1)), [X[:, 0], Y[:, 0], S4],
         diff=(0, 1, 2), group="loss", second=False),
    Case("cosine_embedding", lambda m, a, b, y: F(m).cosine_embedding_loss(a, b, y, -0.5),
         lambda a, b, y: _cosine_emb_np(a, b, y, -0.5, "mean"), [X, Y, S4], diff=(0, 1),
         group="loss"),
    Case("cosine_embedding_1d", lambda m, a, b, y: F(m).cosine_embedding_loss(
        a[0], b[0], y[0], reduction="none"),
         lambda a, b, y: _cosine_emb_np(a[0], b[0], y[0], 0.0, "none"), [X, Y, S4],
         diff=(0, 1), group="loss"),
    Case("multi_margin", lambda m, x, t: F(m).multi_margin_loss(x, t),
         lambda x, t: _multi_margin_np(x, t), [X, T4], group="loss", second=False),
    Case("multi_margin_p2_w", lambda m, x, t, w: F(m).multi_margin_loss(
        x, t, p=2, margin=0.7, weight=w, reduction="none"),
         lambda x, t, w: _multi_margin_np(x, t, 2, 0.7, w, "none"), [X, T4, W6], group="loss",
         second=False),
    Case("multilabel_margin", lambda m, x, t: F(m).multilabel_margin_loss(x, t),
         lambda x, t: _multilabel_margin_np(x, t), [X, ML], group="loss", second=False),
    Case("multilabel_margin_none", lambda m, x, t: F(m).multilabel_margin_loss(
        x, t, reduction="none"), lambda x, t: _multilabel_margin_np(x, t, "none"), [X, ML],
         group="loss", second=False),
]


# ---------------------------------------------------------------- distances

def _pnorm_np(d, p, axis=-1):
    a = np.abs(d)
    if p == 0:
        return (a != 0).sum(axis).astype(d.dtype)
    if p == np.inf:
        return a.max(axis)
    return (a ** p).sum(axis) ** (1.0 / p)


def _pdist_np(x, p):
    i, j = np.triu_indices(x.shape[0], 1)
    return _pnorm_np(x[i] - x[j], p)


def _cos_np(a, b):
    return (a * b).sum(-1) / np.maximum(np.sqrt((a * a).sum(-1) * (b * b).sum(-1)), 1e-8)


def _triplet_np(a, pos, neg, margin=1.0, p=2, swap=False, reduction="mean"):
    dp = _pnorm_np(a - pos + 1e-6, p)
    dn = _pnorm_np(a - neg + 1e-6, p)
    if swap:
        dn = np.minimum(dn, _pnorm_np(pos - neg + 1e-6, p))
    return _reduce(np.maximum(0, margin + dp - dn), reduction)


DISTANCES = [
    Case("pairwise_p2", lambda m, a, b: F(m).pairwise_distance(a, b),
         lambda a, b: _pnorm_np(a - b + 1e-6, 2), [X, Y], diff=(0, 1), group="dist"),
    Case("pairwise_p1_keepdim", lambda m, a, b: F(m).pairwise_distance(a, b, 1, keepdim=True),
         lambda a, b: _pnorm_np(a - b + 1e-6, 1)[:, None], [X, Y], diff=(0, 1), group="dist",
         second=False),
    Case("pairwise_p3_broadcast", lambda m, a, b: F(m).pairwise_distance(a[0], b, 3.0, 1e-3),
         lambda a, b: _pnorm_np(a[0] - b + 1e-3, 3), [X, Y], diff=(0, 1), group="dist"),
    Case("pairwise_p1_5", lambda m, a, b: F(m).pairwise_distance(a, b, 1.5),
         lambda a, b: _pnorm_np(a - b + 1e-6, 1.5), [X, Y], diff=(0, 1), group="dist"),
    Case("pairwise_pinf", lambda m, a, b: F(m).pairwise_distance(a, b, math.inf),
         lambda a, b: _pnorm_np(a - b + 1e-6, np.inf), [X, Y], diff=(0, 1), group="dist",
         second=False),
    Case("pdist_p2", lambda m, x: F(m).pdist(x), lambda x: _pdist_np(x, 2), [X], group="dist"),
    Case("pdist_p1", lambda m, x: F(m).pdist(x, 1), lambda x: _pdist_np(x, 1), [X],
         group="dist", second=False),
    Case("pdist_p3", lambda m, x: F(m).pdist(x.reshape(6, 4), 3),
         lambda x: _pdist_np(x.reshape(6, 4), 3), [X], group="dist"),
    Case("pdist_pinf", lambda m, x: F(m).pdist(x, math.inf), lambda x: _pdist_np(x, np.inf),
         [X], group="dist", second=False),
    Case("triplet", lambda m, a, p, n: F(m).triplet_margin_loss(a, p, n, margin=2.0),
         lambda a, p, n: _triplet_np(a, p, n, 2.0), [X, Y, Z], diff=(0, 1, 2), group="dist"),
    Case("triplet_p1_swap", lambda m, a, p, n: F(m).triplet_margin_loss(
        a, p, n, margin=3.0, p=1, swap=True, reduction="none"),
         lambda a, p, n: _triplet_np(a, p, n, 3.0, 1, True, "none"), [X, Y, Z],
         diff=(0, 1, 2), group="dist", second=False),
    Case("triplet_with_distance", lambda m, a, p, n: F(m).triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda u, v: 1.0 - F(m).cosine_similarity(u, v),
        margin=1.5, reduction="sum"),
         lambda a, p, n: np.sum(np.maximum(0, 1.5 + (1 - _cos_np(a, p)) - (1 - _cos_np(a, n)))),
         [X, Y, Z], diff=(0, 1, 2), group="dist"),
]


ALL = ACTIVATIONS + LOSSES + DISTANCES
GROUPS = {g: [c for c in ALL if c.group == g] for g in ("act", "loss", "dist")}
