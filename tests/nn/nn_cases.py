"""The nn.functional test table: each case is a function of a namespace ``m`` (symgrad or
torch), its inputs, which inputs are differentiated, and a NumPy reference written out by
hand from the function's definition (never from symgrad's code). Inputs keep away from kinks
(|x| > 0.1 from a kink), so central differences of the reference are valid gradients.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from collections.abc import Callable

import numpy as np

_R = np.random.default_rng(20260611)


def unif(lo, hi, *shape):
    return _R.uniform(lo, hi, shape)


def away(*shape, points=(0.0,), lo=-2.0, hi=2.0, gap=0.15):
    """Uniform values moved at least ``gap`` away from each of ``points`` (kinks)."""
    x = unif(lo, hi, *shape)
    for p in points:
        x = np.where(np.abs(x - p) < gap, p + np.where(x >= p, gap, -gap), x)
    return x


def probs(*shape, axis=-1):
    e = np.exp(unif(-1, 1, *shape))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax_np(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def erf_np(x):
    return np.vectorize(math.erf)(x)


@dataclass
class Case:
    id: str
    fn: Callable            # fn(m, *args) -> tensor
    ref: Callable           # ref(*float64 arrays) -> array
    args: list              # float64 arrays (floating) or int64 arrays
    diff: tuple = (0,)      # indices of the differentiated args
    group: str = "misc"
    second: bool = True     # whether to check second derivatives
    weight: np.ndarray = field(init=False)

    def __post_init__(self):
        r = np.random.default_rng(zlib.crc32(self.id.encode()))
        out = np.asarray(self.ref(*self.args))
        self.weight = r.uniform(0.5, 1.5, out.shape)

    def cast(self, dtype):
        return [a.astype(dtype) if a.dtype.kind == "f" else a for a in self.args]


def F(m):
    return m.nn.functional


X34 = away(3, 4)
T4 = np.array([2, 0, 3, 1])


def _huber_np(d, delta):
    z = np.abs(d)
    return np.where(z < delta, 0.5 * d * d, delta * (z - 0.5 * delta))


def _smooth_l1_np(d, beta):
    z = np.abs(d)
    return np.where(z < beta, 0.5 * d * d / beta, z - 0.5 * beta)


def _layer_norm_np(x, axes, w=None, b=None, eps=1e-5):
    mu = x.mean(axis=axes, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mu) / np.sqrt(var + eps)
    return (y if w is None else y * w) + (0 if b is None else b)


def _ce_np(x, t, w=None, ignore=-100, smoothing=0.0):
    """Class-index cross entropy, mean reduction, from its definition."""
    logp = log_softmax_np(x, 1)
    c = x.shape[1]
    w = np.ones(c) if w is None else w
    keep = t != ignore
    safe = np.where(keep, t, 0)
    nll = -logp[np.arange(len(t)), safe] * w[safe] * keep
    smooth = -(logp * w).sum(1) * keep
    denom = (w[safe] * keep).sum()
    return (1 - smoothing) * nll.sum() / denom + smoothing / c * smooth.sum() / denom


def _pad_index(n, lo, hi, mode):
    pos = np.arange(-lo, n + hi)
    if mode == "reflect":
        pos = np.abs(pos)
        return np.where(pos > n - 1, 2 * (n - 1) - pos, pos)
    if mode == "replicate":
        return np.clip(pos, 0, n - 1)
    return pos % n


def _pad_np(x, lo, hi, mode):
    """Pad the last dim of x by (lo, hi) reading elements as ``mode`` says."""
    return x[..., _pad_index(x.shape[-1], lo, hi, mode)]


ACTIVATIONS = [
    Case("relu", lambda m, x: F(m).relu(x), lambda x: np.maximum(x, 0), [X34], second=False),
    Case("relu6", lambda m, x: F(m).relu6(x), lambda x: np.clip(x, 0, 6),
         [away(3, 4, points=(0, 6), lo=-2, hi=8)], second=False),
    Case("hardtanh", lambda m, x: F(m).hardtanh(x, -1.0, 1.5), lambda x: np.clip(x, -1, 1.5),
         [away(3, 4, points=(-1, 1.5), lo=-3, hi=3)], second=False),
    Case("leaky_relu", lambda m, x: F(m).leaky_relu(x, 0.2),
         lambda x: np.where(x > 0, x, 0.2 * x), [X34], second=False),
    Case("elu", lambda m, x: F(m).elu(x, alpha=0.7),
         lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)), [X34]),
    Case("gelu_tanh", lambda m, x: F(m).gelu(x, approximate="tanh"),
         lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
         [unif(-3, 3, 3, 4)]),
    Case("gelu", lambda m, x: F(m).gelu(x), lambda x: 0.5 * x * (1 + erf_np(x / math.sqrt(2))),
         [unif(-3, 3, 3, 4)]),
    Case("silu", lambda m, x: F(m).silu(x), lambda x: x / (1 + np.exp(-x)),
         [unif(-4, 4, 3, 4)]),
    Case("softplus_beta", lambda m, x: F(m).softplus(x, beta=2.0, threshold=3.0),
         lambda x: np.where(2 * x > 3, x, np.log1p(np.exp(2 * x)) / 2),
         [away(3, 4, points=(1.5,), lo=-3, hi=3)]),
    Case("softplus", lambda m, x: F(m).softplus(x), lambda x: np.log1p(np.exp(x)),
         [unif(-4, 4, 3, 4)]),
    Case("sigmoid", lambda m, x: F(m).sigmoid(x), lambda x: 1 / (1 + np.exp(-x)), [X34]),
    Case("log_softmax_dim0", lambda m, x: F(m).log_softmax(x, 0),
         lambda x: log_softmax_np(x, 0), [X34]),
]
for _c in ACTIVATIONS:
    _c.group = "activations"

LOSSES = [
    Case("mse_sum", lambda m, x, y: F(m).mse_loss(x, y, reduction="sum"),
         lambda x, y: ((x - y) ** 2).sum(), [unif(-2, 2, 3, 4), unif(-2, 2, 3, 4)], (0, 1)),
    Case("mse_weighted", lambda m, x, y, w: F(m).mse_loss(x, y, weight=w),
         lambda x, y, w: (w * (x - y) ** 2).sum() / w.sum(),
         [unif(-2, 2, 3, 4), unif(-2, 2, 3, 4), unif(0.5, 2, 3, 4)], (0, 1)),
    Case("l1_mean", lambda m, x, y: F(m).l1_loss(x, y), lambda x, y: np.abs(x - y).mean(),
         [X34 + 1.0, np.ones((3, 4))], (0, 1), second=False),
    Case("l1_none", lambda m, x, y: F(m).l1_loss(x, y, reduction="none"),
         lambda x, y: np.abs(x - y), [X34 + 1.0, np.ones((3, 4))], (0, 1), second=False),
    Case("smooth_l1", lambda m, x, y: F(m).smooth_l1_loss(x, y, beta=0.5),
         lambda x, y: _smooth_l1_np(x - y, 0.5).mean(),
         [away(3, 4, points=(-0.5, 0.5)), np.zeros((3, 4))], (0, 1)),
    Case("smooth_l1_beta0", lambda m, x, y: F(m).smooth_l1_loss(x, y, beta=0.0,
                                                                reduction="sum"),
         lambda x, y: np.abs(x - y).sum(), [X34, np.zeros((3, 4))], (0, 1), second=False),
    Case("huber", lambda m, x, y: F(m).huber_loss(x, y, delta=0.7, reduction="sum"),
         lambda x, y: _huber_np(x - y, 0.7).sum(),
         [away(3, 4, points=(-0.7, 0.7)), np.zeros((3, 4))], (0, 1)),
    Case("huber_weighted", lambda m, x, y, w: F(m).huber_loss(x, y, delta=0.7, weight=w),
         lambda x, y, w: (w * _huber_np(x - y, 0.7)).mean(),
         [away(3, 4, points=(-0.7, 0.7)), np.zeros((3, 4)), unif(0.5, 2, 3, 4)], (0, 1)),
    Case("kl_div_batchmean", lambda m, x, t: F(m).kl_div(x, t, reduction="batchmean"),
         lambda x, t: (t * (np.log(t) - x)).sum() / x.shape[0],
         [log_softmax_np(unif(-1, 1, 3, 4), 1), probs(3, 4)], (0, 1)),
    Case("kl_div_log_target", lambda m, x, t: F(m).kl_div(x, t, reduction="sum",
                                                          log_target=True),
         lambda x, t: (np.exp(t) * (t - x)).sum(),
         [log_softmax_np(unif(-1, 1, 3, 4), 1), np.log(probs(3, 4))], (0, 1)),
    Case("bce_logits", lambda m, x, y: F(m).binary_cross_entropy_with_logits(x, y),
         lambda x, y: (np.log1p(np.exp(x)) - x * y).mean(), [X34, unif(0, 1, 3, 4)], (0, 1)),
]
for _c in LOSSES:
    _c.group = "losses"

CLASSIFICATION = [
    Case("cross_entropy_weight_ignore",
         lambda m, x, t, w: F(m).cross_entropy(x, t, weight=w, ignore_index=3),
         lambda x, t, w: _ce_np(x, t, w, ignore=3),
         [unif(-2, 2, 4, 5), T4, unif(0.5, 2, 5)]),
    Case("cross_entropy_smoothing",
         lambda m, x, t: F(m).cross_entropy(x, t, label_smoothing=0.2),
         lambda x, t: _ce_np(x, t, smoothing=0.2), [unif(-2, 2, 4, 5), T4]),
    Case("cross_entropy_smoothing_weight_ignore",
         lambda m, x, t, w: F(m).cross_entropy(x, t, weight=w, ignore_index=0,
                                               label_smoothing=0.3),
         lambda x, t, w: _ce_np(x, t, w, ignore=0, smoothing=0.3),
         [unif(-2, 2, 4, 5), T4, unif(0.5, 2, 5)]),
    Case("cross_entropy_smoothing_none",
         lambda m, x, t: F(m).cross_entropy(x, t, label_smoothing=0.1, reduction="none"),
         lambda x, t: np.array([_ce_np(x[i:i + 1], t[i:i + 1], smoothing=0.1)
                                for i in range(len(t))]),
         [unif(-2, 2, 4, 5), T4]),
    Case("cross_entropy_probs_smoothing",
         lambda m, x, p: F(m).cross_entropy(x, p, label_smoothing=0.25),
         lambda x, p: -(log_softmax_np(x, 1) * (p * 0.75 + 0.25 / 5)).sum() / 4,
         [unif(-2, 2, 4, 5), probs(4, 5)], (0, 1)),
    Case("cross_entropy_probs_weight_sum",
         lambda m, x, p, w: F(m).cross_entropy(x, p, weight=w, reduction="sum"),
         lambda x, p, w: -(log_softmax_np(x, 1) * p * w).sum(),
         [unif(-2, 2, 4, 5), probs(4, 5), unif(0.5, 2, 5)], (0, 1)),
    Case("cross_entropy_kdim",
         lambda m, x, t: F(m).cross_entropy(x, t),
         lambda x, t: -np.take_along_axis(log_softmax_np(x, 1), t[:, None], 1).mean(),
         [unif(-2, 2, 2, 3, 4), np.array([[0, 2, 1, 1], [2, 2, 0, 1]])]),
    Case("nll_loss_kdim_none",
         lambda m, x, t: F(m).nll_loss(x, t, reduction="none"),
         lambda x, t: -np.take_along_axis(x, t[:, None], 1)[:, 0],
         [unif(-2, 0, 2, 3, 4), np.array([[0, 2, 1, 1], [2, 2, 0, 1]])], second=False),
]
for _c in CLASSIFICATION:
    _c.group = "classification"

NORMALIZATION = [
    Case("layer_norm_affine",
         lambda m, x, w, b: F(m).layer_norm(x, (3, 4), w, b),
         lambda x, w, b: _layer_norm_np(x, (1, 2), w, b),
         [unif(-2, 2, 2, 3, 4), unif(0.5, 1.5, 3, 4), unif(-1, 1, 3, 4)], (0, 1, 2)),
    Case("layer_norm_plain", lambda m, x: F(m).layer_norm(x, (5,), eps=1e-3),
         lambda x: _layer_norm_np(x, (1,), eps=1e-3), [unif(-2, 2, 3, 5)]),
    Case("batch_norm_training",
         lambda m, x, w, b: F(m).batch_norm(x, None, None, w, b, training=True),
         lambda x, w, b: _layer_norm_np(x, (0, 2), w[:, None], b[:, None]),
         [unif(-2, 2, 4, 3, 2), unif(0.5, 1.5, 3), unif(-1, 1, 3)], (0, 1, 2)),
    Case("batch_norm_eval",
         lambda m, x, rm, rv, w: F(m).batch_norm(x, rm, rv, w),
         lambda x, rm, rv, w: (x - rm) / np.sqrt(rv + 1e-5) * w,
         [unif(-2, 2, 4, 3), unif(-1, 1, 3), unif(0.5, 2, 3), unif(0.5, 1.5, 3)], (0, 3)),
    Case("normalize", lambda m, x: F(m).normalize(x),
         lambda x: x / np.sqrt((x * x).sum(1, keepdims=True)), [unif(-2, 2, 3, 4)]),
    Case("normalize_p3_dim0", lambda m, x: F(m).normalize(x, p=3.0, dim=0),
         lambda x: x / (np.abs(x) ** 3).sum(0, keepdims=True) ** (1 / 3), [X34]),
    Case("cosine_similarity", lambda m, a, b: F(m).cosine_similarity(a, b),
         lambda a, b: (a * b).sum(1) / np.sqrt((a * a).sum(1) * (b * b).sum(1)),
         [unif(-2, 2, 3, 4), unif(-2, 2, 3, 4)], (0, 1)),
]
for _c in NORMALIZATION:
    _c.group = "normalization"

LAYERS = [
    Case("linear_bias", lambda m, x, w, b: F(m).linear(x, w, b),
         lambda x, w, b: x @ w.T + b, [unif(-1, 1, 4, 3), unif(-1, 1, 5, 3), unif(-1, 1, 5)],
         (0, 1, 2)),
    Case("linear_3d", lambda m, x, w, b: F(m).linear(x, w, b),
         lambda x, w, b: x @ w.T + b,
         [unif(-1, 1, 2, 4, 3), unif(-1, 1, 5, 3), unif(-1, 1, 5)], (0, 1, 2)),
    Case("linear_nobias", lambda m, x, w: F(m).linear(x, w), lambda x, w: x @ w.T,
         [unif(-1, 1, 4, 3), unif(-1, 1, 5, 3)], (0, 1)),
    Case("bilinear", lambda m, a, b, w, c: F(m).bilinear(a, b, w, c),
         lambda a, b, w, c: np.einsum("ni,kij,nj->nk", a, w, b) + c,
         [unif(-1, 1, 4, 3), unif(-1, 1, 4, 2), unif(-1, 1, 5, 3, 2), unif(-1, 1, 5)],
         (0, 1, 2, 3)),
    Case("embedding", lambda m, i, w: F(m).embedding(i, w),
         lambda i, w: w[i], [np.array([[0, 1, 3], [3, 1, 2]]), unif(-1, 1, 4, 3)], (1,)),
    Case("pad_constant", lambda m, x: F(m).pad(x, (1, 2, 0, 1), value=0.5),
         lambda x: np.pad(x, ((0, 0), (0, 1), (1, 2)), constant_values=0.5),
         [unif(-1, 1, 2, 3, 4)]),
    Case("pad_crop", lambda m, x: F(m).pad(x, (-1, 2)),
         lambda x: np.pad(x[..., 1:], ((0, 0), (0, 2))), [unif(-1, 1, 3, 4)]),
    Case("pad_reflect", lambda m, x: F(m).pad(x, (2, 1), mode="reflect"),
         lambda x: _pad_np(x, 2, 1, "reflect"), [unif(-1, 1, 2, 3, 4)]),
    Case("pad_replicate", lambda m, x: F(m).pad(x, (1, 3), mode="replicate"),
         lambda x: _pad_np(x, 1, 3, "replicate"), [unif(-1, 1, 2, 3, 4)]),
    Case("pad_circular", lambda m, x: F(m).pad(x, (2, 1), mode="circular"),
         lambda x: _pad_np(x, 2, 1, "circular"), [unif(-1, 1, 2, 3, 4)]),
]
for _c in LAYERS:
    _c.group = "layers"

ALL = ACTIVATIONS + LOSSES + CLASSIFICATION + NORMALIZATION + LAYERS
GROUPS = {}
for _c in ALL:
    GROUPS.setdefault(_c.group, []).append(_c)
