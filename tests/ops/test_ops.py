"""Op-by-op correctness: every op's value and gradient against independently derived answers.

Every expected value here comes from NumPy, never from symgrad: either a NumPy forward written
out by hand (for values, and for central finite differences in float64 of the contracted loss
``sum(w * f(x))``), or a gradient formula derived by hand. Each table case is one op applied
to small inputs chosen away from kinks; the case function takes the namespace as its first
argument (``m`` is ``symgrad`` or ``torch``) so the optional torch cross-check runs the very
same code.

Compiling C costs a few tenths of a second per specialization, so the compiled checks of a
table group share one compiled function per group (a tuple of every case's output, or the
gradient of the sum of every case's contracted loss; each case has its own inputs, so its
gradient is its own).
"""

from __future__ import annotations

import functools
import math
import zlib

import numpy as np
import pytest

import symgrad as sg
from symgrad.ir import interpret

F64, F32 = np.float64, np.float32
_R = np.random.default_rng(20240611)   # all table inputs are drawn once, at import


# ================================================================== input makers

def unif(lo, hi, *shape):
    return _R.uniform(lo, hi, shape)


def away(*shape, lo=0.2, hi=2.0):
    """Values with |x| in [lo, hi] and a random sign: away from kinks at 0."""
    return _R.choice([-1.0, 1.0], shape) * _R.uniform(lo, hi, shape)


def pos(*shape, lo=0.5, hi=2.0):
    return _R.uniform(lo, hi, shape)


def distinct(*shape, spacing=0.3):
    """Pairwise gaps of at least 0.75 * spacing, so max/min have no ties (even after FD)."""
    n = math.prod(shape)
    vals = (_R.permutation(n) - n / 2) * spacing + _R.uniform(0, spacing / 4, n)
    return vals.reshape(shape)


def apart(a, b, gap=0.1):
    """Move a away from b (broadcast) by at least ``gap``: no ties for maximum/minimum."""
    a = np.array(a, dtype=F64)
    d = a - b
    close = np.abs(d) < gap
    return a + np.where(close, np.where(d >= 0, gap, -gap), 0.0)


def untied(*b_shape):
    """Operands a (2, 3) and b (b_shape) for maximum/minimum, at least 0.1 apart everywhere."""
    b = unif(-2, 2, *b_shape)
    return apart(unif(-2, 2, 2, 3), b), b


def avoid(x, points, gap=0.05):
    """Move x away from each of ``points`` (clamp bounds) by at least ``gap``."""
    x = np.array(x, dtype=F64)
    for p in points:
        x = np.where(np.abs(x - p) < gap, p + np.where(x >= p, gap, -gap), x)
    return x


def onehot(t, c):
    return np.eye(c)[t]


# ================================================================== NumPy references

def np_sigmoid(x):
    """1 / (1 + e^-x), written so that neither branch overflows (exact tails at +-1000)."""
    x = np.asarray(x, F64)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def np_softplus(x):
    return np.logaddexp(0.0, x)


def np_logsumexp(x, axis, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def np_softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_log_softmax(x, axis):
    return x - np_logsumexp(x, axis, keepdims=True)


def np_reduce(loss, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda a: a}[reduction](loss)


def np_bce_logits(z, y, reduction="mean", weight=None, pos_weight=None):
    # -w [pw y log s(z) + (1 - y) log(1 - s(z))], with log s(z) = -softplus(-z)
    pw = 1.0 if pos_weight is None else pos_weight
    loss = pw * y * np_softplus(-z) + (1 - y) * np_softplus(z)
    return np_reduce(loss if weight is None else loss * weight, reduction)


def np_bce(p, y, reduction="mean", weight=None):
    loss = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    return np_reduce(loss if weight is None else loss * weight, reduction)


def np_mse(a, b, reduction="mean"):
    return np_reduce((a - b) ** 2, reduction)


def np_nll(logp, t, reduction="mean", weight=None, ignore_index=-100):
    logp = np.atleast_2d(logp)
    t = np.atleast_1d(t)
    keep = t != ignore_index
    safe = np.where(keep, t, 0)
    wt = (np.ones(logp.shape[1]) if weight is None else weight)[safe] * keep
    losses = -logp[np.arange(len(t)), safe] * wt
    if reduction == "none":
        return losses if logp.shape[0] > 1 or t.ndim else losses[0]
    return losses.sum() / wt.sum() if reduction == "mean" else losses.sum()


def np_cross_entropy(x, t, reduction="mean", weight=None, ignore_index=-100):
    if x.ndim == 1:
        out = np_nll(np_log_softmax(x, 0)[None], np.atleast_1d(t), reduction, weight,
                     ignore_index)
        return out.reshape(()) if reduction == "none" else out
    return np_nll(np_log_softmax(x, 1), t, reduction, weight, ignore_index)


# ================================================================== the case tables

class Case:
    """One op application: ``fn(m, *args)`` in symgrad/torch and ``ref(*args)`` in NumPy.

    ``args`` are float64 (differentiated unless listed in ``nodiff``), int64 or bool arrays.
    ``formula(w, *args)`` (optional) gives the hand-derived gradient of sum(w * ref(*args))
    for each differentiated argument.
    """

    def __init__(self, id, fn, ref, *args, nodiff=(), formula=None, group=None):
        self.id = id
        self.fn = fn
        self.ref = ref
        self.args = tuple(np.asarray(a) for a in args)
        self.diff = tuple(i for i, a in enumerate(self.args)
                          if a.dtype.kind == "f" and i not in nodiff)
        self.formula = formula
        self.group = group
        out = np.asarray(ref(*self.args))
        wr = np.random.default_rng(zlib.crc32(id.encode()))
        self.weight = wr.uniform(0.5, 1.5, out.shape) * wr.choice([-1.0, 1.0], out.shape)

    def __repr__(self):
        return self.id

    def loss(self, *args):
        return float(np.sum(self.weight * self.ref(*args)))

    @functools.cached_property
    def fd_grads(self):
        """Central finite differences in float64 of sum(w * ref(args)), per diff argument."""
        eps = 1e-6
        grads = []
        for i in self.diff:
            x = self.args[i].astype(F64)
            g = np.zeros_like(x)
            for idx in np.ndindex(x.shape):
                xp, xm = x.copy(), x.copy()
                xp[idx] += eps
                xm[idx] -= eps
                lp = self.loss(*self._with(i, xp))
                lm = self.loss(*self._with(i, xm))
                g[idx] = (lp - lm) / (2 * eps)
            grads.append(g)
        return grads

    def _with(self, i, x):
        return tuple(x if j == i else a for j, a in enumerate(self.args))

    def cast(self, dtype):
        return tuple(a.astype(dtype) if a.dtype.kind == "f" else a for a in self.args)


GROUPS: dict[str, list[Case]] = {}


def table(group, *cases):
    for c in cases:
        c.group = group
    GROUPS[group] = list(cases)
    return list(cases)


C = Case
s_ = np_sigmoid

ELEMENTWISE = table(
    "elementwise",
    # tensor (op) tensor with broadcasting
    C("add_bcast_row", lambda m, a, b: a + b, np.add, unif(-2, 2, 2, 3), unif(-2, 2, 3)),
    C("add_bcast_outer", lambda m, a, b: m.add(a, b), np.add, unif(-2, 2, 2, 1),
      unif(-2, 2, 1, 3)),
    C("add_0d_tensor", lambda m, a, b: a + b, np.add, unif(-2, 2, 2, 3), unif(-2, 2)),
    C("sub_bcast_row", lambda m, a, b: a - b, np.subtract, unif(-2, 2, 2, 3), unif(-2, 2, 3)),
    C("sub_bcast_outer", lambda m, a, b: m.sub(a, b), np.subtract, unif(-2, 2, 2, 1),
      unif(-2, 2, 1, 3)),
    C("mul_bcast_row", lambda m, a, b: a * b, np.multiply, unif(-2, 2, 2, 3), unif(-2, 2, 3),
      formula=lambda w, a, b: (w * b, (w * a).sum(0))),
    C("mul_bcast_outer", lambda m, a, b: m.mul(a, b), np.multiply, unif(-2, 2, 2, 1),
      unif(-2, 2, 1, 3)),
    C("div_bcast_row", lambda m, a, b: a / b, np.divide, unif(-2, 2, 2, 3), away(3, lo=0.5),
      formula=lambda w, a, b: (w / b, (-w * a / b ** 2).sum(0))),
    C("div_bcast_outer", lambda m, a, b: m.div(a, b), np.divide, unif(-2, 2, 2, 1),
      away(1, 3, lo=0.5)),
    C("pow_tensor_tensor_bcast", lambda m, a, b: a ** b, np.power, pos(2, 3),
      unif(-1.5, 2.5, 3),
      formula=lambda w, a, b: (w * b * a ** (b - 1), (w * a ** b * np.log(a)).sum(0))),
    C("pow_fn_tensor_exponent", lambda m, a, b: m.pow(a, b), np.power, pos(2, 3),
      unif(-1.5, 2.5, 2, 3)),
    # tensor (op) Python scalar, both orders
    C("add_scalar_right", lambda m, x: x + 1.5, lambda x: x + 1.5, unif(-2, 2, 2, 3)),
    C("add_scalar_left", lambda m, x: 1.5 + x, lambda x: 1.5 + x, unif(-2, 2, 2, 3)),
    C("sub_scalar_right", lambda m, x: x - 1.5, lambda x: x - 1.5, unif(-2, 2, 2, 3)),
    C("sub_scalar_left", lambda m, x: 1.5 - x, lambda x: 1.5 - x, unif(-2, 2, 2, 3)),
    C("mul_scalar_right", lambda m, x: x * -2.5, lambda x: x * -2.5, unif(-2, 2, 2, 3)),
    C("mul_scalar_left", lambda m, x: -2.5 * x, lambda x: -2.5 * x, unif(-2, 2, 2, 3)),
    C("mul_int_scalar", lambda m, x: 3 * x, lambda x: 3 * x, unif(-2, 2, 2, 3)),
    C("div_scalar_right", lambda m, x: x / 1.5, lambda x: x / 1.5, unif(-2, 2, 2, 3)),
    C("div_scalar_left", lambda m, x: 1.5 / x, lambda x: 1.5 / x, away(2, 3, lo=0.5),
      formula=lambda w, x: (-1.5 * w / x ** 2,)),
    C("pow_int_scalar", lambda m, x: x ** 3, lambda x: x ** 3, unif(-2, 2, 2, 3),
      formula=lambda w, x: (3 * w * x ** 2,)),
    C("pow_float_scalar", lambda m, x: x ** 2.5, lambda x: x ** 2.5, pos(2, 3)),
    C("pow_negative_scalar", lambda m, x: m.pow(x, -1.5), lambda x: x ** -1.5, pos(2, 3)),
    C("rpow_scalar_base", lambda m, x: 2.0 ** x, lambda x: 2.0 ** x, unif(-2, 2, 2, 3),
      formula=lambda w, x: (w * 2.0 ** x * np.log(2.0),)),
    # unary
    C("neg_operator", lambda m, x: -x, np.negative, unif(-2, 2, 2, 3)),
    C("neg", lambda m, x: m.neg(x), np.negative, unif(-2, 2, 2, 3)),
    C("abs", lambda m, x: m.abs(x), np.abs, away(2, 3)),
    C("exp", lambda m, x: m.exp(x), np.exp, unif(-2, 2, 2, 3),
      formula=lambda w, x: (w * np.exp(x),)),
    C("log", lambda m, x: m.log(x), np.log, pos(2, 3, lo=0.2, hi=3.0),
      formula=lambda w, x: (w / x,)),
    C("log1p", lambda m, x: m.log1p(x), np.log1p, unif(-0.5, 2, 2, 3),
      formula=lambda w, x: (w / (1 + x),)),
    C("expm1", lambda m, x: m.expm1(x), np.expm1, unif(-2, 2, 2, 3),
      formula=lambda w, x: (w * np.exp(x),)),
    C("sqrt", lambda m, x: m.sqrt(x), np.sqrt, pos(2, 3, lo=0.2, hi=3.0),
      formula=lambda w, x: (w / (2 * np.sqrt(x)),)),
    C("rsqrt", lambda m, x: m.rsqrt(x), lambda x: 1 / np.sqrt(x), pos(2, 3),
      formula=lambda w, x: (-0.5 * w * x ** -1.5,)),
    C("square", lambda m, x: m.square(x), np.square, unif(-2, 2, 2, 3)),
    C("sin", lambda m, x: m.sin(x), np.sin, unif(-3, 3, 2, 3),
      formula=lambda w, x: (w * np.cos(x),)),
    C("cos", lambda m, x: m.cos(x), np.cos, unif(-3, 3, 2, 3),
      formula=lambda w, x: (-w * np.sin(x),)),
    C("tanh", lambda m, x: m.tanh(x), np.tanh, unif(-3, 3, 2, 3),
      formula=lambda w, x: (w * (1 - np.tanh(x) ** 2),)),
    C("sigmoid", lambda m, x: m.sigmoid(x), np_sigmoid, unif(-4, 4, 2, 3),
      formula=lambda w, x: (w * s_(x) * (1 - s_(x)),)),
    C("relu", lambda m, x: m.relu(x), lambda x: np.maximum(x, 0), away(2, 3),
      formula=lambda w, x: (w * (x > 0),)),
    C("softplus", lambda m, x: m.nn.functional.softplus(x), np_softplus,
      np.array([-25.0, -3.0, -0.5, 0.7, 2.5, 25.0]),
      formula=lambda w, x: (w * s_(x),)),
    C("sign", lambda m, x: m.sign(x), np.sign, away(2, 3)),
    # selection
    C("where_bool_input", lambda m, c, a, b: m.where(c, a, b), np.where,
      _R.random((2, 3)) < 0.5, unif(-2, 2, 2, 3), unif(-2, 2, 2, 3),
      formula=lambda w, c, a, b: (w * c, w * ~c)),
    C("where_bcast", lambda m, c, a, b: m.where(c, a, b), np.where,
      np.array([[True, False, True], [False, False, True]]), unif(-2, 2, 3),
      unif(-2, 2, 2, 1)),
    C("where_comparison_scalar", lambda m, a, b: m.where(a > b, a * b, 0.0),
      lambda a, b: np.where(a > b, a * b, 0.0), apart(unif(-2, 2, 2, 3), 0.0),
      np.zeros(3)),
    C("maximum", lambda m, a, b: m.maximum(a, b), np.maximum,
      *untied(3)),
    C("minimum", lambda m, a, b: m.minimum(a, b), np.minimum,
      *untied(2, 3)),
    C("max_binary", lambda m, a, b: m.max(a, b), np.maximum,
      *untied(2, 3)),
    C("min_binary", lambda m, a, b: m.min(a, b), np.minimum,
      *untied(3)),
    C("clamp_both", lambda m, x: m.clamp(x, min=-0.5, max=0.5), lambda x: np.clip(x, -0.5, 0.5),
      avoid(unif(-1.5, 1.5, 3, 4), (-0.5, 0.5)),
      formula=lambda w, x: (w * ((x > -0.5) & (x < 0.5)),)),
    C("clamp_min", lambda m, x: x.clamp(min=0.25), lambda x: np.maximum(x, 0.25),
      avoid(unif(-1.5, 1.5, 3, 4), (0.25,))),
    C("clamp_max", lambda m, x: m.clamp(x, max=-0.25), lambda x: np.minimum(x, -0.25),
      avoid(unif(-1.5, 1.5, 3, 4), (-0.25,))),
    C("clamp_tensor_bounds", lambda m, x, lo, hi: m.clamp(x, min=lo, max=hi),
      lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi),
      avoid(unif(-1.5, 1.5, 3, 4), (-0.5, 0.5)), np.full(4, -0.5), np.full(4, 0.5)),
)


def zeros_rows():
    x = pos(3, 4, lo=0.5, hi=1.5) * _R.choice([-1.0, 1.0], (3, 4))
    x[0, 2] = 0.0                 # one zero
    x[1, 0] = x[1, 3] = 0.0       # two zeros
    return x


REDUCE = table(
    "reduce",
    C("sum_all", lambda m, x: m.sum(x), np.sum, unif(-2, 2, 3, 4),
      formula=lambda w, x: (np.full_like(x, w),)),
    C("sum_dim1", lambda m, x: x.sum(1), lambda x: x.sum(1), unif(-2, 2, 3, 4),
      formula=lambda w, x: (np.broadcast_to(w[:, None], x.shape),)),
    C("sum_dims_keepdim", lambda m, x: m.sum(x, (0, 2), keepdim=True),
      lambda x: x.sum((0, 2), keepdims=True), unif(-2, 2, 2, 3, 4)),
    C("sum_mixed_neg_dims", lambda m, x: m.sum(x, (-1, 0)), lambda x: x.sum((0, 2)),
      unif(-2, 2, 2, 3, 4)),
    C("sum_neg_dim_keepdim", lambda m, x: x.sum(-1, keepdim=True),
      lambda x: x.sum(-1, keepdims=True), unif(-2, 2, 2, 3, 4)),
    C("mean_all", lambda m, x: m.mean(x), np.mean, unif(-2, 2, 3, 4),
      formula=lambda w, x: (np.full_like(x, w / x.size),)),
    C("mean_dim0", lambda m, x: x.mean(0), lambda x: x.mean(0), unif(-2, 2, 3, 4)),
    C("mean_dims_keepdim", lambda m, x: m.mean(x, (0, 2), keepdim=True),
      lambda x: x.mean((0, 2), keepdims=True), unif(-2, 2, 2, 3, 4)),
    C("mean_neg_dim", lambda m, x: x.mean(-2), lambda x: x.mean(-2), unif(-2, 2, 2, 3, 4)),
    C("max_all", lambda m, x: m.max(x), np.max, distinct(3, 4),
      formula=lambda w, x: (w * (x == x.max()),)),
    C("max_method_all", lambda m, x: x.max(), np.max, distinct(2, 3, 4)),
    C("max_dim_values", lambda m, x: m.max(x, 1).values, lambda x: x.max(1), distinct(3, 4)),
    C("max_dim_keepdim_values", lambda m, x: m.max(x, -1, keepdim=True)[0],
      lambda x: x.max(-1, keepdims=True), distinct(2, 3, 4)),
    C("amax_dim", lambda m, x: m.amax(x, 1), lambda x: x.max(1), distinct(3, 4)),
    C("amax_dims_keepdim", lambda m, x: m.amax(x, (0, 2), keepdim=True),
      lambda x: x.max((0, 2), keepdims=True), distinct(2, 3, 4)),
    C("min_all", lambda m, x: m.min(x), np.min, distinct(3, 4)),
    C("min_dim_values", lambda m, x: x.min(0).values, lambda x: x.min(0), distinct(3, 4)),
    C("amin_dim_keepdim", lambda m, x: m.amin(x, -1, keepdim=True),
      lambda x: x.min(-1, keepdims=True), distinct(2, 3, 4)),
    C("prod_all", lambda m, x: m.prod(x), np.prod, away(3, 4, lo=0.6, hi=1.4),
      formula=lambda w, x: (w * np.prod(x) / x,)),
    C("prod_dim1", lambda m, x: x.prod(1), lambda x: x.prod(1), away(3, 4, lo=0.6, hi=1.4)),
    C("prod_dim0_keepdim", lambda m, x: m.prod(x, 0, keepdim=True),
      lambda x: x.prod(0, keepdims=True), away(2, 3, 4, lo=0.6, hi=1.4)),
    C("prod_one_zero", lambda m, x: m.prod(x), np.prod,
      np.array([[1.5, -0.7, 0.0], [1.2, 0.9, -1.1]]),
      formula=lambda w, x: (w * np.where(x == 0, np.prod(np.where(x == 0, 1, x)), 0),)),
    C("prod_two_zeros", lambda m, x: m.prod(x), np.prod,
      np.array([[1.5, 0.0, 0.8], [1.2, 0.0, -1.1]]),
      formula=lambda w, x: (np.zeros_like(x),)),
    C("prod_dim_rows_with_zeros", lambda m, x: x.prod(1), lambda x: x.prod(1), zeros_rows()),
    C("norm_all", lambda m, x: m.norm(x), np.linalg.norm, unif(-2, 2, 3, 4),
      formula=lambda w, x: (w * x / np.sqrt((x * x).sum()),)),
    C("norm_dim1", lambda m, x: x.norm(dim=1), lambda x: np.sqrt((x * x).sum(1)),
      unif(-2, 2, 3, 4)),
    C("norm_dims_keepdim", lambda m, x: m.norm(x, dim=(0, 2), keepdim=True),
      lambda x: np.sqrt((x * x).sum((0, 2), keepdims=True)), unif(-2, 2, 2, 3, 4)),
    C("norm_p1", lambda m, x: m.norm(x, p=1), lambda x: np.abs(x).sum(), away(3, 4)),
    C("norm_inf_dim", lambda m, x: m.norm(x, p=float("inf"), dim=0),
      lambda x: np.abs(x).max(0), distinct(3, 4) + 0.1),
    C("logsumexp_dim1", lambda m, x: m.logsumexp(x, 1), lambda x: np_logsumexp(x, 1),
      unif(-3, 3, 3, 4), formula=lambda w, x: (w[:, None] * np_softmax(x, 1),)),
    C("logsumexp_dims", lambda m, x: m.logsumexp(x, (0, 2)),
      lambda x: np_logsumexp(x, (0, 2)), unif(-3, 3, 2, 3, 4)),
    C("logsumexp_keepdim", lambda m, x: x.logsumexp(-1, keepdim=True),
      lambda x: np_logsumexp(x, -1, keepdims=True), unif(-3, 3, 2, 3, 4)),
)


# torch accepts dim 0 / -1 on a 0-d tensor: the reduction is over nothing.
ZERO_DIM = table(
    "zero_dim",
    C("zero_dim_sum_dim0", lambda m, x: x.sum(0), lambda x: x, unif(-2, 2)),
    C("zero_dim_sum_keepdim", lambda m, x: m.sum(x, -1, keepdim=True), lambda x: x,
      unif(-2, 2)),
    C("zero_dim_mean_dim0", lambda m, x: x.mean(0), lambda x: x, unif(-2, 2)),
    C("zero_dim_prod_dim0", lambda m, x: m.prod(x, 0), lambda x: x, unif(-2, 2)),
    C("zero_dim_amax_dim0", lambda m, x: m.amax(x, 0), lambda x: x, unif(-2, 2)),
    C("zero_dim_max_dim0", lambda m, x: m.max(x, 0).values, lambda x: x, unif(-2, 2)),
    C("zero_dim_min_dim0", lambda m, x: x.min(-1).values, lambda x: x, unif(-2, 2)),
    C("zero_dim_logsumexp", lambda m, x: m.logsumexp(x, 0), lambda x: x, unif(-2, 2)),
    C("zero_dim_norm", lambda m, x: m.norm(x, dim=0), np.abs, away()),
    C("zero_dim_softmax", lambda m, x: m.softmax(x, 0) * x, lambda x: x, unif(-2, 2)),
    C("zero_dim_log_softmax", lambda m, x: m.log_softmax(x, 0) + x, lambda x: x, unif(-2, 2)),
    C("zero_dim_sum_all", lambda m, x: x.sum(), lambda x: x, unif(-2, 2)),
    C("zero_dim_mul_vector", lambda m, x, v: x * v, np.multiply, unif(-2, 2), unif(-2, 2, 3)),
)


def _mm_formula(w, a, b):
    return (w @ b.T, a.T @ w)


LINALG = table(
    "linalg",
    C("matmul_1d_1d", lambda m, a, b: m.matmul(a, b), np.matmul, unif(-2, 2, 4),
      unif(-2, 2, 4), formula=lambda w, a, b: (w * b, w * a)),
    C("matmul_1d_2d", lambda m, a, b: m.matmul(a, b), np.matmul, unif(-2, 2, 4),
      unif(-2, 2, 4, 3), formula=lambda w, a, b: (b @ w, np.outer(a, w))),
    C("matmul_2d_1d", lambda m, a, b: m.matmul(a, b), np.matmul, unif(-2, 2, 3, 4),
      unif(-2, 2, 4), formula=lambda w, a, b: (np.outer(w, b), a.T @ w)),
    C("matmul_2d_2d", lambda m, a, b: m.matmul(a, b), np.matmul, unif(-2, 2, 2, 4),
      unif(-2, 2, 4, 3), formula=_mm_formula),
    C("matmul_operator", lambda m, a, b: a @ b, np.matmul, unif(-2, 2, 3, 4),
      unif(-2, 2, 4, 2), formula=_mm_formula),
    C("matmul_batched", lambda m, a, b: m.matmul(a, b), np.matmul, unif(-2, 2, 2, 3, 4),
      unif(-2, 2, 2, 4, 5),
      formula=lambda w, a, b: (w @ b.transpose(0, 2, 1), a.transpose(0, 2, 1) @ w)),
    C("matmul_batch_broadcast", lambda m, a, b: a @ b, np.matmul, unif(-2, 2, 2, 1, 3, 4),
      unif(-2, 2, 3, 4, 2),
      formula=lambda w, a, b: ((w @ b.transpose(0, 2, 1)).sum(1, keepdims=True),
                               (a.transpose(0, 1, 3, 2) @ w).sum(0))),
    C("matmul_batch_2d", lambda m, a, b: m.matmul(a, b), np.matmul, unif(-2, 2, 2, 3, 4),
      unif(-2, 2, 4, 5)),
    C("matmul_1d_3d", lambda m, a, b: m.matmul(a, b), np.matmul, unif(-2, 2, 4),
      unif(-2, 2, 2, 4, 3)),
    C("matmul_3d_1d", lambda m, a, b: m.matmul(a, b), np.matmul, unif(-2, 2, 2, 3, 4),
      unif(-2, 2, 4)),
    C("mm", lambda m, a, b: m.mm(a, b), np.matmul, unif(-2, 2, 3, 4), unif(-2, 2, 4, 2),
      formula=_mm_formula),
    C("mm_method", lambda m, a, b: a.mm(b), np.matmul, unif(-2, 2, 1, 4), unif(-2, 2, 4, 1)),
    C("dot", lambda m, a, b: m.dot(a, b), np.dot, unif(-2, 2, 5), unif(-2, 2, 5),
      formula=lambda w, a, b: (w * b, w * a)),
    C("bmm", lambda m, a, b: m.bmm(a, b), np.matmul, unif(-2, 2, 2, 3, 4),
      unif(-2, 2, 2, 4, 2)),
)


def _cat_formula(axis, sizes):
    def formula(w, *xs):
        return tuple(np.split(w, np.cumsum(sizes)[:-1], axis=axis))
    return formula


MOVEMENT = table(
    "movement",
    C("transpose", lambda m, x: m.transpose(x, 0, 2), lambda x: x.transpose(2, 1, 0),
      unif(-2, 2, 2, 3, 4), formula=lambda w, x: (w.transpose(2, 1, 0),)),
    C("transpose_neg_dims", lambda m, x: x.transpose(-1, -2), lambda x: np.swapaxes(x, -1, -2),
      unif(-2, 2, 2, 3, 4)),
    C("T_2d", lambda m, x: x.T, lambda x: x.T, unif(-2, 2, 3, 4),
      formula=lambda w, x: (w.T,)),
    C("t_2d", lambda m, x: m.t(x), lambda x: x.T, unif(-2, 2, 3, 4)),
    C("permute", lambda m, x: x.permute(2, 0, 1), lambda x: x.transpose(2, 0, 1),
      unif(-2, 2, 2, 3, 4), formula=lambda w, x: (w.transpose(1, 2, 0),)),
    C("permute_fn_neg_dims", lambda m, x: m.permute(x, (-1, 0, -2)),
      lambda x: x.transpose(2, 0, 1), unif(-2, 2, 2, 3, 4)),
    C("reshape", lambda m, x: x.reshape(4, 6), lambda x: x.reshape(4, 6), unif(-2, 2, 2, 3, 4),
      formula=lambda w, x: (w.reshape(x.shape),)),
    C("reshape_infer", lambda m, x: m.reshape(x, (3, -1)), lambda x: x.reshape(3, -1),
      unif(-2, 2, 2, 3, 4)),
    C("reshape_flat", lambda m, x: x.reshape(-1), lambda x: x.reshape(-1),
      unif(-2, 2, 2, 3, 4)),
    C("view", lambda m, x: x.view(6, 4), lambda x: x.reshape(6, 4), unif(-2, 2, 2, 3, 4)),
    C("flatten", lambda m, x: m.flatten(x, 1), lambda x: x.reshape(2, 12),
      unif(-2, 2, 2, 3, 4)),
    C("unsqueeze_0", lambda m, x: m.unsqueeze(x, 0), lambda x: x[None], unif(-2, 2, 3, 4)),
    C("unsqueeze_mid", lambda m, x: x.unsqueeze(1), lambda x: x[:, None], unif(-2, 2, 3, 4)),
    C("unsqueeze_neg", lambda m, x: x.unsqueeze(-1), lambda x: x[..., None], unif(-2, 2, 3, 4)),
    C("squeeze_all", lambda m, x: m.squeeze(x), np.squeeze, unif(-2, 2, 2, 1, 3, 1)),
    C("squeeze_dim", lambda m, x: x.squeeze(1), lambda x: x.squeeze(1), unif(-2, 2, 2, 1, 3, 1)),
    C("squeeze_neg_dim", lambda m, x: x.squeeze(-1), lambda x: x.squeeze(-1),
      unif(-2, 2, 2, 1, 3, 1)),
    C("expand", lambda m, x: x.expand(3, 2, 5, 4),
      lambda x: np.broadcast_to(x, (3, 2, 5, 4)), unif(-2, 2, 2, 1, 4),
      formula=lambda w, x: (w.sum((0, 2))[:, None, :],)),
    C("expand_minus_one", lambda m, x: x.expand(-1, 3, -1),
      lambda x: np.broadcast_to(x, (2, 3, 4)), unif(-2, 2, 2, 1, 4)),
    C("broadcast_to", lambda m, x: m.broadcast_to(x, (2, 3, 4)),
      lambda x: np.broadcast_to(x, (2, 3, 4)), unif(-2, 2, 4)),
    C("cat_dim0", lambda m, a, b, c: m.cat([a, b, c]), lambda *xs: np.concatenate(xs, 0),
      unif(-2, 2, 2, 3), unif(-2, 2, 1, 3), unif(-2, 2, 3, 3),
      formula=_cat_formula(0, (2, 1, 3))),
    C("cat_dim1", lambda m, a, b: m.cat((a, b), dim=1), lambda *xs: np.concatenate(xs, 1),
      unif(-2, 2, 2, 3), unif(-2, 2, 2, 2), formula=_cat_formula(1, (3, 2))),
    C("cat_neg_dim", lambda m, a, b: m.cat([a, b], -1), lambda *xs: np.concatenate(xs, -1),
      unif(-2, 2, 2, 2, 1), unif(-2, 2, 2, 2, 3)),
    C("stack_dim0", lambda m, a, b, c: m.stack([a, b, c]), lambda *xs: np.stack(xs, 0),
      unif(-2, 2, 2, 3), unif(-2, 2, 2, 3), unif(-2, 2, 2, 3)),
    C("stack_mid", lambda m, a, b: m.stack([a, b], 1), lambda *xs: np.stack(xs, 1),
      unif(-2, 2, 2, 3), unif(-2, 2, 2, 3)),
    C("stack_neg", lambda m, a, b: m.stack([a, b], dim=-1), lambda *xs: np.stack(xs, -1),
      unif(-2, 2, 2, 3), unif(-2, 2, 2, 3),
      formula=lambda w, a, b: (w[..., 0], w[..., 1])),
)


def _index_case(id, index, formula=False):
    def scatter(w, x):
        out = np.zeros_like(x)
        out[index] = w
        return (out,)
    return C(id, lambda m, x: x[index], lambda x: x[index], unif(-2, 2, 4, 5, 3),
             formula=scatter if formula else None)


COLON = slice(None)
INDEXING = table(
    "indexing",
    _index_case("index_int", 1, formula=True),
    _index_case("index_neg_int", -1),
    _index_case("index_slice", slice(1, 3)),
    _index_case("index_step", slice(None, None, 2), formula=True),
    _index_case("index_start_step_2d", (slice(1, None, 2), slice(None, None, 3)),
                formula=True),
    _index_case("index_none", None),
    _index_case("index_ellipsis_int", (Ellipsis, 1)),
    _index_case("index_none_between", (COLON, None, 2)),
    _index_case("index_neg_slices", (slice(-3, -1), slice(1, -1)), formula=True),
    _index_case("index_int_neg_int", (0, -1)),
    _index_case("index_all_ints", (2, 1, 0)),
    _index_case("index_ellipsis_none", (Ellipsis, None)),
    _index_case("index_slice_ellipsis_step", (slice(1, None), Ellipsis, slice(None, None, 2))),
    _index_case("index_clipped_bounds", (slice(-100, 2), slice(1, 100))),
    _index_case("index_mixed", (slice(None, None, 3), -2, None, slice(0, 2))),
)


_T = np.array([1, 0, 4, 2])
_PROBS = np_softmax(unif(-2, 2, 4, 5), 1)


def _ce_formula(w, x, t):
    return (w * (np_softmax(x, 1) - onehot(t, x.shape[1])) / len(t),)


NN = table(
    "nn",
    C("bce_with_logits_mean", lambda m, z, y: m.nn.functional.binary_cross_entropy_with_logits(
        z, y), np_bce_logits, unif(-4, 4, 3, 4), unif(0, 1, 3, 4),
      formula=lambda w, z, y: (w * (s_(z) - y) / z.size, -w * z / z.size)),
    C("bce_with_logits_sum", lambda m, z, y: m.nn.functional.binary_cross_entropy_with_logits(
        z, y, reduction="sum"), lambda z, y: np_bce_logits(z, y, "sum"),
      unif(-4, 4, 3, 4), (_R.random((3, 4)) < 0.5).astype(F64)),
    C("bce_with_logits_none", lambda m, z, y: m.nn.functional.binary_cross_entropy_with_logits(
        z, y, reduction="none"), lambda z, y: np_bce_logits(z, y, "none"),
      unif(-4, 4, 3, 4), unif(0, 1, 3, 4)),
    C("bce_with_logits_weight", lambda m, z, y, wt: m.nn.functional
      .binary_cross_entropy_with_logits(z, y, weight=wt),
      lambda z, y, wt: np_bce_logits(z, y, weight=wt), unif(-4, 4, 3, 4), unif(0, 1, 3, 4),
      pos(4), nodiff=(2,)),
    C("bce_with_logits_pos_weight", lambda m, z, y, pw: m.nn.functional
      .binary_cross_entropy_with_logits(z, y, pos_weight=pw),
      lambda z, y, pw: np_bce_logits(z, y, pos_weight=pw), unif(-4, 4, 3, 4),
      unif(0, 1, 3, 4), pos(4), nodiff=(2,)),
    C("bce_mean", lambda m, p, y: m.nn.functional.binary_cross_entropy(p, y), np_bce,
      unif(0.05, 0.95, 3, 4), unif(0, 1, 3, 4),
      formula=lambda w, p, y: (w * (p - y) / (p * (1 - p)) / p.size,
                               w * (np.log(1 - p) - np.log(p)) / p.size)),
    C("bce_sum", lambda m, p, y: m.nn.functional.binary_cross_entropy(p, y, reduction="sum"),
      lambda p, y: np_bce(p, y, "sum"), unif(0.05, 0.95, 3, 4), unif(0, 1, 3, 4)),
    C("bce_none", lambda m, p, y: m.nn.functional.binary_cross_entropy(p, y, reduction="none"),
      lambda p, y: np_bce(p, y, "none"), unif(0.05, 0.95, 3, 4), unif(0, 1, 3, 4)),
    C("bce_weight", lambda m, p, y, wt: m.nn.functional.binary_cross_entropy(p, y, weight=wt),
      lambda p, y, wt: np_bce(p, y, weight=wt), unif(0.05, 0.95, 3, 4), unif(0, 1, 3, 4),
      pos(3, 4), nodiff=(2,)),
    C("mse_mean", lambda m, a, b: m.nn.functional.mse_loss(a, b), np_mse, unif(-2, 2, 3, 4),
      unif(-2, 2, 3, 4), formula=lambda w, a, b: (2 * w * (a - b) / a.size,
                                                  -2 * w * (a - b) / a.size)),
    C("mse_sum", lambda m, a, b: m.nn.functional.mse_loss(a, b, reduction="sum"),
      lambda a, b: np_mse(a, b, "sum"), unif(-2, 2, 3, 4), unif(-2, 2, 3, 4)),
    C("mse_none", lambda m, a, b: m.nn.functional.mse_loss(a, b, reduction="none"),
      lambda a, b: np_mse(a, b, "none"), unif(-2, 2, 3, 4), unif(-2, 2, 3, 4)),
    C("cross_entropy_mean", lambda m, x, t: m.nn.functional.cross_entropy(x, t),
      np_cross_entropy, unif(-3, 3, 4, 5), _T, formula=_ce_formula),
    C("cross_entropy_sum", lambda m, x, t: m.nn.functional.cross_entropy(x, t, reduction="sum"),
      lambda x, t: np_cross_entropy(x, t, "sum"), unif(-3, 3, 4, 5), _T),
    C("cross_entropy_none", lambda m, x, t: m.nn.functional.cross_entropy(
        x, t, reduction="none"), lambda x, t: np_cross_entropy(x, t, "none"),
      unif(-3, 3, 4, 5), _T),
    C("cross_entropy_weight", lambda m, x, t, wt: m.nn.functional.cross_entropy(x, t, wt),
      lambda x, t, wt: np_cross_entropy(x, t, weight=wt), unif(-3, 3, 4, 5), _T, pos(5),
      nodiff=(2,)),
    C("cross_entropy_ignore_index", lambda m, x, t: m.nn.functional.cross_entropy(x, t),
      np_cross_entropy, unif(-3, 3, 4, 5), np.array([3, -100, 0, 3])),
    C("cross_entropy_1d", lambda m, x, t: m.nn.functional.cross_entropy(x, t),
      np_cross_entropy, unif(-3, 3, 5), np.array(2)),
    C("cross_entropy_probs", lambda m, x, p: m.nn.functional.cross_entropy(x, p),
      lambda x, p: np.mean(-(p * np_log_softmax(x, 1)).sum(1)), unif(-3, 3, 4, 5), _PROBS,
      formula=lambda w, x, p: (w * (np_softmax(x, 1) * p.sum(1, keepdims=True) - p) / 4,
                               -w * np_log_softmax(x, 1) / 4)),
    C("cross_entropy_probs_none", lambda m, x, p: m.nn.functional.cross_entropy(
        x, p, reduction="none"), lambda x, p: -(p * np_log_softmax(x, 1)).sum(1),
      unif(-3, 3, 4, 5), _PROBS),
    C("cross_entropy_probs_weight", lambda m, x, p, wt: m.nn.functional.cross_entropy(
        x, p, weight=wt), lambda x, p, wt: np.mean(-(wt * p * np_log_softmax(x, 1)).sum(1)),
      unif(-3, 3, 4, 5), _PROBS, pos(5), nodiff=(2,)),
    C("cross_entropy_ignore_index_weight", lambda m, x, t, wt: m.nn.functional.cross_entropy(
        x, t, weight=wt, ignore_index=1), lambda x, t, wt: np_cross_entropy(
        x, t, weight=wt, ignore_index=1), unif(-3, 3, 4, 5), _T, pos(5), nodiff=(2,)),
    C("nll_loss_1d", lambda m, lp, t: m.nn.functional.nll_loss(lp, t), np_nll,
      unif(-3, 0, 5), np.array(3)),
    C("nll_loss_mean", lambda m, lp, t: m.nn.functional.nll_loss(lp, t), np_nll,
      unif(-3, 0, 4, 5), _T,
      formula=lambda w, lp, t: (-w * onehot(t, lp.shape[1]) / len(t),)),
    C("nll_loss_sum", lambda m, lp, t: m.nn.functional.nll_loss(lp, t, reduction="sum"),
      lambda lp, t: np_nll(lp, t, "sum"), unif(-3, 0, 4, 5), _T),
    C("nll_loss_none", lambda m, lp, t: m.nn.functional.nll_loss(lp, t, reduction="none"),
      lambda lp, t: np_nll(lp, t, "none"), unif(-3, 0, 4, 5), _T),
    C("nll_loss_weight", lambda m, lp, t, wt: m.nn.functional.nll_loss(lp, t, weight=wt),
      lambda lp, t, wt: np_nll(lp, t, weight=wt), unif(-3, 0, 4, 5), _T, pos(5),
      nodiff=(2,)),
    C("log_softmax_dim1", lambda m, x: m.nn.functional.log_softmax(x, dim=1),
      lambda x: np_log_softmax(x, 1), unif(-3, 3, 3, 4),
      formula=lambda w, x: (w - np_softmax(x, 1) * w.sum(1, keepdims=True),)),
    C("log_softmax_dim0", lambda m, x: m.log_softmax(x, 0), lambda x: np_log_softmax(x, 0),
      unif(-3, 3, 3, 4)),
    C("softmax_last", lambda m, x: m.nn.functional.softmax(x, dim=-1),
      lambda x: np_softmax(x, -1), unif(-3, 3, 3, 4),
      formula=lambda w, x: (np_softmax(x, -1) * (w - (w * np_softmax(x, -1)).sum(
          -1, keepdims=True)),)),
    C("softmax_mid_3d", lambda m, x: m.softmax(x, 1), lambda x: np_softmax(x, 1),
      unif(-3, 3, 2, 3, 4)),
    C("F_relu", lambda m, x: m.nn.functional.relu(x), lambda x: np.maximum(x, 0), away(3, 4)),
    C("F_sigmoid", lambda m, x: m.nn.functional.sigmoid(x), np_sigmoid, unif(-4, 4, 3, 4)),
    C("F_tanh", lambda m, x: m.nn.functional.tanh(x), np.tanh, unif(-3, 3, 3, 4)),
)

ALL_CASES = [c for cases in GROUPS.values() for c in cases]
assert len({c.id for c in ALL_CASES}) == len(ALL_CASES), "case ids must be unique"
FORMULA_CASES = [c for c in ALL_CASES if c.formula is not None]


def by_id(cases):
    return pytest.mark.parametrize("case", cases, ids=[c.id for c in cases])


# ================================================================== running cases

def eager_forward(case, dtype):
    ts = [sg.tensor(a) for a in case.cast(dtype)]
    return ts, case.fn(sg, *ts)


def eager_grads(case, args=None):
    args = case.args if args is None else args
    ts = [sg.tensor(a, dtype=sg.float64, requires_grad=True) if i in case.diff
          else sg.tensor(a) for i, a in enumerate(args)]
    out = case.fn(sg, *ts)
    (out * case.weight).sum().backward()
    return [np.asarray(ts[i].grad) for i in case.diff]


def _split(case, args):
    return (tuple(a for i, a in enumerate(args) if i in case.diff),
            tuple(a for i, a in enumerate(args) if i not in case.diff))


def _merge(case, diff, rest):
    d, r = iter(diff), iter(rest)
    return [next(d) if i in case.diff else next(r) for i in range(len(case.args))]


@functools.cache
def compiled_forward(group, dtype):
    """One compiled function returning every case's output; (function, args, outputs)."""
    cases = GROUPS[group]

    def forward(args):
        return tuple(c.fn(sg, *a) for c, a in zip(cases, args))
    forward.__name__ = f"forward_{group}"
    cf = sg.compile(forward)
    args = [c.cast(dtype) for c in cases]
    return cf, (args,), dict(zip((c.id for c in cases), cf(args)))


def _group_loss(group):
    """The sum of every case's sum(w * f(args)), over (diff args, other args) per case."""
    cases = GROUPS[group]

    def total_loss(diff, rest):
        total = 0.0
        for c, d, r in zip(cases, diff, rest):
            total = total + (c.fn(sg, *_merge(c, d, r)) * c.weight).sum()
        return total
    total_loss.__name__ = f"loss_{group}"
    return total_loss


def _group_args(group, dtype):
    diff, rest = zip(*(_split(c, c.cast(dtype)) for c in GROUPS[group]))
    return list(diff), list(rest)


@functools.cache
def compiled_grads(group, dtype=F64):
    """sg.grad of the group's loss w.r.t. the float args: each case's own gradient."""
    g = sg.grad(_group_loss(group))
    args = _group_args(group, dtype)
    grads = g(*args)
    return g, args, {c.id: list(gr) for c, gr in zip(GROUPS[group], grads)}


def hvp_direction(case):
    r = np.random.default_rng(zlib.crc32(b"v" + case.id.encode()))
    return [r.standard_normal(case.args[i].shape) for i in case.diff]


@functools.cache
def compiled_hvps(group):
    """Hessian-vector products by reverse over reverse: sg.grad of sum(grad(loss) * v)."""
    cases = GROUPS[group]
    grad_loss = sg.grad(_group_loss(group))
    vs = [hvp_direction(c) for c in cases]

    def directional(diff, rest):
        grads = grad_loss(diff, rest)
        total = 0.0
        for gs, v in zip(grads, vs):
            for g, vi in zip(gs, v):
                total = total + (g * vi).sum()
        return total
    directional.__name__ = f"hvp_{group}"
    h = sg.grad(directional)
    args = _group_args(group, F64)
    return h, args, {c.id: list(hv) for c, hv in zip(cases, h(*args))}


def assert_grads(actual, expected, case, rtol=1e-6, atol=1e-7):
    assert len(actual) == len(expected)
    for i, (a, e) in zip(case.diff, zip(actual, expected)):
        a = np.asarray(a)
        assert a.shape == case.args[i].shape, f"grad of arg {i}: shape {a.shape}"
        assert a.dtype == F64
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, err_msg=f"grad of arg {i}")


def assert_value(actual, case, dtype):
    expected = np.asarray(case.ref(*[a.astype(F64) if a.dtype.kind == "f" else a
                                     for a in case.cast(dtype)]))
    actual = np.asarray(actual)
    assert actual.shape == expected.shape
    assert actual.dtype == dtype
    if dtype == F64:
        np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=1e-13)
    else:
        np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


# ================================================================== 1. gradients vs FD

@by_id(ALL_CASES)
def test_eager_grad_matches_finite_differences(case):
    assert_grads(eager_grads(case), case.fd_grads, case)


@by_id(ALL_CASES)
def test_compiled_grad_matches_finite_differences(case):
    _, _, grads = compiled_grads(case.group)
    assert_grads(grads[case.id], case.fd_grads, case)


@by_id(ALL_CASES)
def test_compiled_hessian_vector_product_matches_fd_of_gradient(case):
    """Every VJP rule differentiated again: H v against central differences (along v) of the
    eager gradient, itself checked against finite differences of NumPy above."""
    _, _, hvps = compiled_hvps(case.group)
    v = hvp_direction(case)
    eps = 1e-5

    def shifted(sign):
        args = list(case.args)
        for i, vi in zip(case.diff, v):
            args[i] = args[i] + sign * eps * vi
        return eager_grads(case, args)
    expected = [(p - m) / (2 * eps) for p, m in zip(shifted(1), shifted(-1))]
    assert_grads(hvps[case.id], expected, case, rtol=1e-5, atol=1e-6)


def test_grad_of_single_op_function_and_value_and_grad():
    """The per-function transforms, without grouping: sg.grad and sg.value_and_grad."""
    x = unif(-2, 2, 3, 4)
    w = unif(-1, 1, 3, 4)
    g = sg.grad(lambda x: (sg.tanh(x) * w).sum())(x)
    np.testing.assert_allclose(g, w * (1 - np.tanh(x) ** 2), rtol=1e-12)
    a, b = unif(-2, 2, 2, 4), unif(-2, 2, 4, 3)
    val, (ga, gb) = sg.value_and_grad(lambda a, b: (a @ b).sum(), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(val, (a @ b).sum(), rtol=1e-12)
    np.testing.assert_allclose(ga, np.ones((2, 3)) @ b.T, rtol=1e-12)
    np.testing.assert_allclose(gb, a.T @ np.ones((2, 3)), rtol=1e-12)


# ================================================================== 2. hand-derived formulas

@by_id(FORMULA_CASES)
def test_eager_grad_matches_hand_formula(case):
    assert_grads(eager_grads(case), case.formula(case.weight, *case.args), case, rtol=1e-10,
                 atol=1e-12)


@by_id(FORMULA_CASES)
def test_compiled_grad_matches_hand_formula(case):
    _, _, grads = compiled_grads(case.group)
    assert_grads(grads[case.id], case.formula(case.weight, *case.args), case, rtol=1e-10,
                 atol=1e-12)


# ================================================================== 3. values and dtypes

DTYPES = pytest.mark.parametrize("dtype", [F32, F64], ids=["f32", "f64"])


@DTYPES
@by_id(ALL_CASES)
def test_eager_value_matches_numpy(case, dtype):
    _, out = eager_forward(case, dtype)
    assert isinstance(out, sg.Tensor)
    assert_value(out, case, dtype)


@DTYPES
@by_id(ALL_CASES)
def test_compiled_value_matches_numpy(case, dtype):
    _, _, outs = compiled_forward(case.group, dtype)
    assert isinstance(outs[case.id], np.ndarray)
    assert_value(outs[case.id], case, dtype)


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_with_dim_return_values_and_indices(name):
    x = distinct(3, 4)
    npf, argf = (np.max, np.argmax) if name == "max" else (np.min, np.argmin)
    for keepdim in (False, True):
        res = getattr(sg, name)(sg.tensor(x), 1, keepdim=keepdim)
        vals, idx = res
        assert res.values is vals and res.indices is idx
        assert idx.dtype is sg.int64
        np.testing.assert_array_equal(np.asarray(vals), npf(x, 1, keepdims=keepdim))
        np.testing.assert_array_equal(np.asarray(idx), argf(x, 1, keepdims=keepdim))
    vals, idx = sg.compile(lambda x: tuple(getattr(sg, name)(x, 0)))(x)
    np.testing.assert_array_equal(vals, npf(x, 0))
    assert idx.dtype == np.int64
    np.testing.assert_array_equal(idx, argf(x, 0))
    # a 0-d tensor is its own extremum, at index 0
    z = np.array(1.5)
    for out in (getattr(sg, name)(sg.tensor(z), 0), sg.compile(
            lambda z: tuple(getattr(sg, name)(z, -1, keepdim=True)))(z)):
        vals, idx = (np.asarray(o) for o in out)
        assert vals.shape == idx.shape == ()
        assert vals == 1.5 and idx == 0 and idx.dtype == np.int64


def test_dtype_promotion_follows_torch():
    x32 = unif(-2, 2, 2, 3).astype(F32)
    x64 = unif(-2, 2, 2, 3)
    i64 = np.array([[1, -2, 3], [4, 5, -6]], np.int64)
    s64 = np.array(1.25)       # 0-d float64

    # eager
    assert (sg.tensor(x32) * 2.5).dtype is sg.float32
    assert (2.5 * sg.tensor(x32)).dtype is sg.float32
    assert (sg.tensor(x32) * sg.tensor(s64)).dtype is sg.float32
    assert (sg.tensor(i64) * 2.5).dtype is sg.float32
    assert (sg.tensor(i64) * 2).dtype is sg.int64
    assert (sg.tensor(i64) / sg.tensor(i64)).dtype is sg.float32
    assert (sg.tensor(x32) + sg.tensor(x64)).dtype is sg.float64
    assert (sg.tensor(i64) + sg.tensor(s64)).dtype is sg.float64
    np.testing.assert_array_equal(np.asarray(sg.tensor(x32) * 2.5), x32 * F32(2.5))
    np.testing.assert_allclose(np.asarray(sg.tensor(i64) * 2.5), i64 * 2.5, rtol=0)
    np.testing.assert_array_equal(np.asarray(sg.tensor(x32) + sg.tensor(x64)),
                                  x32.astype(F64) + x64)

    # compiled: Python scalars, 0-d arrays and arrays as runtime arguments
    f = sg.compile(lambda a, b: a * b)
    out = f(x32, 2.5)
    assert out.dtype == F32
    np.testing.assert_array_equal(out, x32 * F32(2.5))
    out = f(x32, s64)
    assert out.dtype == F32
    np.testing.assert_array_equal(out, x32 * F32(1.25))
    out = sg.compile(lambda a, b: a + b)(x32, x64)
    assert out.dtype == F64
    np.testing.assert_array_equal(out, x32.astype(F64) + x64)
    out = sg.compile(lambda a: a * 2.5)(x32)
    assert out.dtype == F32
    out = sg.compile(lambda i: i * 2.5)(i64)
    assert out.dtype == F32
    np.testing.assert_array_equal(out, (i64 * 2.5).astype(F32))
    out = sg.compile(lambda a: (a * 2, a / 2))(i64)
    assert out[0].dtype == np.int64 and out[1].dtype == F32
    np.testing.assert_array_equal(out[0], i64 * 2)
    np.testing.assert_array_equal(out[1], (i64 / 2).astype(F32))


def test_python_float_argument_promotes_like_a_python_scalar():
    """A Python float passed to a compiled function promotes like the same float in eager
    code (torch: int64 tensor * 2.5 is float32; a float32 0-d tensor * 2.5 stays float32)."""
    i64 = np.array([[1, -2, 3], [4, 5, -6]], np.int64)
    z32 = np.array(1.5, F32)
    f = sg.compile(lambda a, b: a * b)
    assert f.fn(sg.tensor(i64), 2.5).dtype is sg.float32          # eager: the same function
    assert f.fn(sg.tensor(z32), 2.5).dtype is sg.float32
    out = f(i64, 2.5)
    assert out.dtype == F32
    np.testing.assert_array_equal(out, (i64 * 2.5).astype(F32))
    out = f(z32, 2.5)
    assert out.dtype == F32 and out == F32(3.75)


def test_gradients_of_float32_inputs_are_float32():
    x = unif(-2, 2, 3, 4).astype(F32)
    g = sg.grad(lambda x: (sg.sigmoid(x) * 3.0).sum())(x)
    assert g.dtype == F32
    s = np_sigmoid(x.astype(F64))
    np.testing.assert_allclose(g, 3 * s * (1 - s), rtol=1e-5)
    t = sg.tensor(x, requires_grad=True)
    (sg.sigmoid(t) * 3.0).sum().backward()
    assert t.grad.dtype is sg.float32
    np.testing.assert_allclose(np.asarray(t.grad), 3 * s * (1 - s), rtol=1e-5)


# ================================================================== 4. C vs the interpreter

def assert_ulp_close(actual, expected, ulps=8):
    """Equal up to a few units in the last place of the array's scale."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    if expected.dtype.kind != "f":
        np.testing.assert_array_equal(actual, expected)
        return
    eps = np.finfo(expected.dtype).eps
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(np.isfinite(actual), finite)
    np.testing.assert_array_equal(actual[~finite], expected[~finite])
    scale = max(np.abs(expected[finite]).max(initial=0.0), 1.0)
    np.testing.assert_allclose(actual[finite], expected[finite], rtol=ulps * eps,
                               atol=ulps * eps * scale)


def assert_c_matches_interpreter(cf, args, ulps=8):
    """The C of a specialization against the NumPy interpreter on its optimized graph, and on
    the graph as traced (so a pass that changed a value would show too)."""
    spec, leaves = cf.specialize(*args)
    got = spec.run(leaves)
    graphs = (("optimized", spec.compiled.graph), ("traced", spec.compiled.traced.graph))
    inputs = list(leaves) + spec.captured.values()   # (the arrays the cases close over)
    for which, graph in graphs:
        want = interpret(graph, inputs)
        assert len(got) == len(want)
        for i, (a, e) in enumerate(zip(got, want)):
            try:
                assert_ulp_close(a, e, ulps)
            except AssertionError as err:
                raise AssertionError(f"output {i} of {spec.name} ({which} graph): {err}") \
                    from None


@pytest.mark.parametrize("group", list(GROUPS))
@pytest.mark.parametrize("kind", ["forward_f32", "forward_f64", "grad_f32", "grad_f64",
                                  "hvp_f64"])
def test_c_matches_interpreter_on_table_groups(group, kind):
    if kind == "hvp_f64":
        cf, args, _ = compiled_hvps(group)
    elif kind.startswith("grad"):
        cf, args, _ = compiled_grads(group, F32 if kind == "grad_f32" else F64)
    else:
        cf, args, _ = compiled_forward(group, F32 if kind == "forward_f32" else F64)
    assert_c_matches_interpreter(cf, args)


def _mlp_loss(w1, b1, w2, x, y):
    h = sg.tanh(x @ w1 + b1)
    return sg.nn.functional.mse_loss(h @ w2, y)


INTERP_CORPUS = [
    ("mlp_value_and_grad", sg.value_and_grad(_mlp_loss, argnums=(0, 1, 2)),
     (unif(-1, 1, 4, 3), unif(-1, 1, 3), unif(-1, 1, 3, 2), unif(-1, 1, 5, 4),
      unif(-1, 1, 5, 2))),
    ("softmax_chain_f32", sg.compile(lambda x: sg.softmax(sg.exp(x) * x, 1).sum(0)),
     (unif(-2, 2, 3, 4).astype(F32),)),
    ("second_derivative", sg.grad(sg.grad(lambda x: sg.sin(x) * x ** 3)), (0.7,)),
    ("indexing_and_cat", sg.compile(lambda x: sg.cat([x[1:, ::2], x[:-1, 1::2] * 2], 1).T),
     (unif(-2, 2, 4, 5),)),
    ("reductions_mixed", sg.compile(lambda x: (x.max(1).values, x.argmin(0), x.prod(),
                                               sg.logsumexp(x, 0), x.norm(dim=1))),
     (unif(-2, 2, 3, 4).astype(F32),)),
    ("cross_entropy_grad_f32", sg.grad(lambda x, t: sg.nn.functional.cross_entropy(x, t)),
     (unif(-3, 3, 4, 5).astype(F32), _T)),
    ("integer_math", sg.compile(lambda i: (i * 3 - 1, (i > 2).sum(), i.sum(0))),
     (np.array([[1, 5, -2], [3, 0, 7]], np.int64),)),
]


@pytest.mark.parametrize("name,cf,args", INTERP_CORPUS, ids=[c[0] for c in INTERP_CORPUS])
def test_c_matches_interpreter_on_corpus(name, cf, args):
    cf(*args)
    assert_c_matches_interpreter(cf, args)


# ================================================================== 5. kinks: torch's conventions

def both_grads(f, *arrays, argnums=0):
    """(eager, compiled) gradients of scalar f at float64 arrays."""
    nums = (argnums,) if isinstance(argnums, int) else argnums
    ts = [sg.tensor(a, dtype=sg.float64, requires_grad=i in nums) for i, a in enumerate(arrays)]
    f(*ts).backward()
    eager = [np.asarray(ts[i].grad) for i in nums]
    compiled = sg.grad(f, argnums=argnums)(*arrays)
    compiled = [compiled] if isinstance(argnums, int) else list(compiled)
    return eager, compiled


def check_kink(f, arrays, expected, argnums=0):
    eager, compiled = both_grads(f, *arrays, argnums=argnums)
    for mode, grads in (("eager", eager), ("compiled", compiled)):
        for g, e in zip(grads, expected):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(e, F64), err_msg=mode)


def test_relu_gradient_at_zero_is_zero():
    check_kink(lambda x: sg.relu(x).sum(), [np.array([-1.0, 0.0, 2.0])], [[0.0, 0.0, 1.0]])


def test_abs_gradient_at_zero_is_zero():
    check_kink(lambda x: sg.abs(x).sum(), [np.array([-1.0, 0.0, 2.0])], [[-1.0, 0.0, 1.0]])


def test_max_over_all_with_ties_splits_gradient_evenly():
    x = np.array([[1.0, 3.0, 3.0], [0.0, 3.0, -1.0]])
    third = 1.0 / 3.0
    expected = [[[0, third, third], [0, third, 0]]]
    check_kink(lambda x: sg.max(x), [x], expected)
    check_kink(lambda x: x.amax(), [x], expected)
    check_kink(lambda x: -sg.min(-x), [x], expected)
    # amax over a dim: each row shares its own gradient among its ties
    check_kink(lambda x: (sg.amax(x, 1) * sg.tensor([2.0, 4.0], dtype=sg.float64)).sum(), [x],
               [[[0, 1, 1], [0, 4, 0]]])


def test_max_with_dim_sends_gradient_to_the_returned_index():
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
    # torch returns the first maximal index of each row: 1 and 0
    vals, idx = sg.max(sg.tensor(x), 1)
    np.testing.assert_array_equal(np.asarray(idx), [1, 0])
    np.testing.assert_array_equal(np.asarray(vals), [3.0, 2.0])
    check_kink(lambda x: sg.max(x, 1).values.sum(), [x], [[[0, 1, 0], [1, 0, 0]]])
    check_kink(lambda x: sg.min(x, 1).values.sum(), [x], [[[1, 0, 0], [0, 0, 1]]])


def test_maximum_minimum_at_a_tie_give_half_to_each():
    a = np.array([1.0, 2.0, 3.0])
    b = np.array([1.0, 0.0, 5.0])
    check_kink(lambda a, b: sg.maximum(a, b).sum(), [a, b],
               [[0.5, 1.0, 0.0], [0.5, 0.0, 1.0]], argnums=(0, 1))
    check_kink(lambda a, b: sg.minimum(a, b).sum(), [a, b],
               [[0.5, 0.0, 1.0], [0.5, 1.0, 0.0]], argnums=(0, 1))


def test_clamp_passes_gradient_at_bounds_inclusive():
    x = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    check_kink(lambda x: sg.clamp(x, -1.0, 1.0).sum(), [x], [[0, 1, 1, 1, 0]])
    check_kink(lambda x: sg.clamp(x, min=-1.0).sum(), [x], [[0, 1, 1, 1, 1]])
    check_kink(lambda x: x.clamp(max=1.0).sum(), [x], [[1, 1, 1, 1, 0]])


def test_sqrt_gradient_at_zero_is_inf():
    check_kink(lambda x: sg.sqrt(x).sum(), [np.array([0.0, 4.0])], [[np.inf, 0.25]])


def test_norm_gradient_at_zero_vector_is_zero():
    check_kink(lambda x: sg.norm(x), [np.zeros(3)], [np.zeros(3)])
    x = np.array([[0.0, 0.0], [3.0, 4.0]])
    check_kink(lambda x: sg.norm(x, dim=1).sum(), [x], [[[0, 0], [0.6, 0.8]]])


def test_pow_at_zero_base_follows_torch():
    # d/dx x**0 is 0 (torch masks exponent == 0); d/dy 0**y is 0 where y >= 0 (not 0 * -inf)
    x = np.array([0.0, 0.0, 2.0])
    check_kink(lambda x: (x ** 0.0).sum(), [x], [[0.0, 0.0, 0.0]])
    y = np.array([2.0, 0.0, 3.0])
    check_kink(lambda x, y: (x ** y).sum(), [x, y],
               [[0.0, 0.0, 12.0], [0.0, 0.0, 8 * np.log(2.0)]], argnums=(0, 1))


NAN_X = np.array([np.nan, -1.5, 0.5, 2.0])


def test_nan_propagates_through_values_like_torch():
    x = NAN_X
    def f(x):
        return (sg.relu(x), sg.abs(x), sg.sigmoid(x), sg.maximum(x, 0.0), sg.minimum(x, 0.0),
                x.clamp(-1.0, 1.0), x.max(), x.amax(0), x.min(), sg.logsumexp(x, 0),
                sg.softmax(x, 0), x.sum(), x.prod())
    expected = (np.where(x > 0, x, np.where(np.isnan(x), x, 0.0)), np.abs(x), np_sigmoid(x),
                np.maximum(x, 0.0), np.minimum(x, 0.0), np.clip(x, -1.0, 1.0), np.nan, np.nan,
                np.nan, np.nan, np.full(4, np.nan), np.nan, np.nan)
    for mode, outs in (("eager", f(sg.tensor(x))), ("compiled", sg.compile(f)(x))):
        for i, (o, e) in enumerate(zip(outs, expected)):
            np.testing.assert_allclose(np.asarray(o), e, rtol=1e-15, atol=0,
                                       err_msg=f"{mode} output {i}")   # NaN == NaN here


def test_nan_gradients_follow_torch():
    # torch's formulas: relu masks where out <= 0 (NaN is not): g passes; clamp passes g where
    # min <= x <= max (NaN is not): 0; maximum/minimum mask the operand that loses (a NaN
    # comparison loses nowhere): g to both.
    x = NAN_X
    check_kink(lambda x: sg.relu(x).sum(), [x], [[1.0, 0.0, 1.0, 1.0]])
    check_kink(lambda x: sg.clamp(x, -1.0, 1.0).sum(), [x], [[0.0, 0.0, 1.0, 0.0]])
    check_kink(lambda x: sg.clamp(x, min=-1.0).sum(), [x], [[0.0, 0.0, 1.0, 1.0]])
    check_kink(lambda x: sg.clamp(x, max=1.0).sum(), [x], [[0.0, 1.0, 1.0, 0.0]])
    b = np.array([1.0, np.nan, 0.5, 3.0])
    check_kink(lambda a, b: sg.maximum(a, b).sum(), [x, b],
               [[1.0, 1.0, 0.5, 0.0], [1.0, 1.0, 0.5, 1.0]], argnums=(0, 1))
    check_kink(lambda a, b: sg.minimum(a, b).sum(), [x, b],
               [[1.0, 1.0, 0.5, 1.0], [1.0, 1.0, 0.5, 0.0]], argnums=(0, 1))


# ================================================================== 6. stability at extremes

def _stable_fns(xs, y, rows):
    F = sg.nn.functional
    return (sg.sigmoid(xs[0]), F.softplus(xs[1]),
            F.binary_cross_entropy_with_logits(xs[2], y, reduction="none"),
            sg.logsumexp(rows, 1))


def _stable_expected(x, y, rows):
    """Values and analytic gradients (for a unit cotangent), from the exact limits."""
    s = np_sigmoid(x)
    p = np_softmax(rows, 1)
    values = (s, np_softplus(x), np.maximum(x, 0) - x * y + np.log1p(np.exp(-np.abs(x))),
              np_logsumexp(rows, 1))
    grads = (s * (1 - s), s, s - y, p)
    return values, grads


STABLE_X = np.array([-1000.0, -80.0, -1.0, 0.0, 1.0, 80.0, 1000.0])
STABLE_Y = np.array([1.0, 0.0, 0.25, 0.5, 1.0, 1.0, 0.0])
STABLE_ROWS = np.array([[1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1002.0],
                        [80.0, 79.0, -80.0]])


@DTYPES
@pytest.mark.parametrize("mode", ["eager", "compiled"])
def test_stable_at_extremes(dtype, mode):
    x, y, rows = STABLE_X.astype(dtype), STABLE_Y.astype(dtype), STABLE_ROWS.astype(dtype)
    if mode == "eager":
        xs = [sg.tensor(x, requires_grad=True) for _ in range(3)]
        r = sg.tensor(rows, requires_grad=True)
        outs = _stable_fns(xs, sg.tensor(y), r)
        sum(o.sum() for o in outs).backward()
        values = [np.asarray(o.detach()) for o in outs]
        grads = [np.asarray(t.grad) for t in xs + [r]]
    else:
        def loss(xs, rows, y):
            outs = _stable_fns(xs, y, rows)
            return sum(o.sum() for o in outs), outs
        (_, values), grads = sg.value_and_grad(loss, argnums=(0, 1), has_aux=True)(
            [x, x, x], rows, y)
        grads = list(grads[0]) + [grads[1]]
    want_values, want_grads = _stable_expected(x.astype(F64), y.astype(F64), rows.astype(F64))
    # atol: sigmoid'(80) = e^-80 = 1.8e-35 computed as s * (1 - s) with s rounded to 1 is 0
    # (torch's formula too); everything of size 1e-30 or more must be exact to rtol.
    tol = {"rtol": 1e-5 if dtype == F32 else 1e-12, "atol": 1e-30}
    names = ["sigmoid", "softplus", "bce_with_logits", "logsumexp"]
    for name, v, g, wv, wg in zip(names, values, grads, want_values, want_grads):
        v, g = np.asarray(v), np.asarray(g)
        assert v.dtype == dtype and g.dtype == dtype, name
        assert np.all(np.isfinite(v)) and np.all(np.isfinite(g)), name
        np.testing.assert_allclose(v, wv, err_msg=f"{name} value", **tol)
        gtol = tol
        if name == "logsumexp" and dtype == F32:
            # exp(x - lse(x)) (torch's rule too) inherits lse's rounding: half an ulp of
            # 1000.4 in float32 is 3.1e-5, a relative error of 3.1e-5 in every gradient.
            gtol = {**tol, "rtol": 1e-4}
        np.testing.assert_allclose(g, wg, err_msg=f"{name} grad", **gtol)


@DTYPES
@pytest.mark.parametrize("mode", ["eager", "compiled"])
def test_log_softmax_and_cross_entropy_at_large_logits(dtype, mode):
    """log_softmax([1000, 0, -1000]) is [0, -1000, -2000] exactly and a row of equal -1000s is
    -log 3 to the dtype's precision (no rounding at the logits' magnitude)."""
    z = np.array([[1000.0, 0.0, -1000.0], [-1000.0, -1000.0, -1000.0]]).astype(dtype)
    t = np.array([2, 0])

    def fns(z, t):
        return (sg.log_softmax(z, 1), sg.nn.functional.cross_entropy(z, t, reduction="sum"))
    if mode == "eager":
        zt = sg.tensor(z, requires_grad=True)
        lsm, ce = fns(zt, sg.tensor(t))
        ce.backward()
        lsm, ce, g = np.asarray(lsm.detach()), np.asarray(ce.detach()), np.asarray(zt.grad)
    else:
        (ce, (lsm,)), g = sg.value_and_grad(lambda z, t: (fns(z, t)[1], fns(z, t)[:1]),
                                            has_aux=True)(z, t)
    third = np.log(3.0)
    want_lsm = np.array([[0.0, -1000.0, -2000.0], [-third, -third, -third]])
    want_g = np.array([[1.0, 0.0, -1.0], [1 / 3 - 1, 1 / 3, 1 / 3]])
    rtol = 2 * np.finfo(dtype).eps
    assert lsm.dtype == ce.dtype == g.dtype == dtype
    np.testing.assert_allclose(lsm, want_lsm, rtol=rtol)
    np.testing.assert_allclose(ce, 2000.0 + third, rtol=rtol)
    np.testing.assert_allclose(g, want_g, rtol=4 * rtol, atol=4 * rtol)


# ================================================================== 7. second derivatives

def fd_scalar(f, x, eps=1e-5):
    return (f(x + eps) - f(x - eps)) / (2 * eps)


def _sig(x):
    return np_sigmoid(x)


# (name, f, hand-derived f') : second derivatives are checked against FD of f'
SCALAR_FUNCS = [
    ("sin_x_cubed", lambda x: sg.sin(x) * x ** 3,
     lambda x: np.cos(x) * x ** 3 + 3 * x ** 2 * np.sin(x)),
    ("gaussian", lambda x: sg.exp(-x * x), lambda x: -2 * x * np.exp(-x * x)),
    ("log1p_square", lambda x: sg.log1p(x * x), lambda x: 2 * x / (1 + x * x)),
    ("tanh_squared", lambda x: sg.tanh(x) ** 2,
     lambda x: 2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
    ("sigmoid", sg.sigmoid, lambda x: _sig(x) * (1 - _sig(x))),
    ("softplus", lambda x: sg.nn.functional.softplus(x), _sig),
    ("rational", lambda x: x / (1 + x * x), lambda x: (1 - x * x) / (1 + x * x) ** 2),
    ("sqrt_cos", lambda x: sg.sqrt(1 + x * x) * sg.cos(x),
     lambda x: x / np.sqrt(1 + x * x) * np.cos(x) - np.sqrt(1 + x * x) * np.sin(x)),
]


@pytest.mark.parametrize("name,f,df", SCALAR_FUNCS, ids=[s[0] for s in SCALAR_FUNCS])
def test_second_derivative_scalar(name, f, df):
    d1, d2 = sg.grad(f), sg.grad(sg.grad(f))
    for x in (-1.3, 0.4, 2.1):
        np.testing.assert_allclose(d1(x), df(x), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(d2(x), fd_scalar(df, x), rtol=1e-7, atol=1e-9)


def test_second_derivatives_of_pow_in_both_arguments():
    def f(x, y):
        return x ** y
    fx = sg.grad(f, argnums=0)
    fy = sg.grad(f, argnums=1)
    hx = sg.grad(lambda x, y: fx(x, y), argnums=(0, 1))
    hy = sg.grad(lambda x, y: fy(x, y), argnums=(0, 1))
    for x, y in ((1.7, 2.3), (0.6, -1.2)):
        lx = np.log(x)
        fxx, fxy = hx(x, y)
        fyx, fyy = hy(x, y)
        np.testing.assert_allclose(fxx, y * (y - 1) * x ** (y - 2), rtol=1e-12)
        np.testing.assert_allclose(fxy, x ** (y - 1) * (1 + y * lx), rtol=1e-12)
        np.testing.assert_allclose(fyx, x ** (y - 1) * (1 + y * lx), rtol=1e-12)
        np.testing.assert_allclose(fyy, x ** y * lx ** 2, rtol=1e-12)


def _mlp_grad_w1(w1, b1, w2, x, y):
    """Hand-derived d/dW1 of mean((tanh(x W1 + b1) W2 - y)^2)."""
    h = np.tanh(x @ w1 + b1)
    r = h @ w2 - y
    do = 2 * r / r.size
    return x.T @ ((do @ w2.T) * (1 - h * h))


_MLP = (unif(-1, 1, 3, 4), unif(-1, 1, 4), unif(-1, 1, 4, 2), unif(-1, 1, 5, 3),
        unif(-1, 1, 5, 2))
_CE_T = np.array([2, 0])

# (name, f of a vector, hand-derived gradient, point)
VECTOR_FUNCS = [
    ("logsumexp", lambda x: sg.logsumexp(x, 0), lambda x: np_softmax(x, 0), unif(-2, 2, 4)),
    ("norm", lambda x: sg.norm(x), lambda x: x / np.linalg.norm(x), unif(-2, 2, 4)),
    ("prod", lambda x: sg.prod(x), lambda x: np.prod(x) / x, away(4, lo=0.5)),
    ("bce_with_logits", lambda x: sg.nn.functional.binary_cross_entropy_with_logits(
        x, sg.tensor([0.0, 1.0, 0.3, 0.8], dtype=sg.float64)),
     lambda x: (np_sigmoid(x) - np.array([0.0, 1.0, 0.3, 0.8])) / 4, unif(-3, 3, 4)),
    ("cross_entropy", lambda x: sg.nn.functional.cross_entropy(x.reshape(2, 3), _CE_T),
     lambda x: ((np_softmax(x.reshape(2, 3), 1) - onehot(_CE_T, 3)) / 2).reshape(-1),
     unif(-2, 2, 6)),
    ("mlp_loss_w1", lambda w1: _mlp_loss(w1.reshape(3, 4), *_MLP[1:]),
     lambda w1: _mlp_grad_w1(w1.reshape(3, 4), *_MLP[1:]).reshape(-1), _MLP[0].reshape(-1)),
]


@pytest.mark.parametrize("name,f,df,x", VECTOR_FUNCS, ids=[v[0] for v in VECTOR_FUNCS])
def test_hessian_vector_product(name, f, df, x):
    v = np.random.default_rng(zlib.crc32(name.encode())).standard_normal(x.shape)
    grad_f = sg.grad(f)
    np.testing.assert_allclose(grad_f(x), df(x), rtol=1e-11, atol=1e-13)
    hvp = sg.grad(lambda x: (grad_f(x) * v).sum())(x)
    eps = 1e-5
    expected = (df(x + eps * v) - df(x - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hvp, expected, rtol=1e-6, atol=1e-8)


def test_hessian_vector_product_softmax_closed_form():
    """logsumexp's Hessian is diag(s) - s s^T: H v = s * v - s (s . v)."""
    x, v = unif(-2, 2, 5), unif(-1, 1, 5)
    hvp = sg.grad(lambda x: (sg.grad(lambda z: sg.logsumexp(z, 0))(x) * v).sum())(x)
    s = np_softmax(x, 0)
    np.testing.assert_allclose(hvp, s * v - s * (s @ v), rtol=1e-11, atol=1e-14)


# ================================================================== 8. shape and dtype errors

def both_modes_raise(fn, args, exc, match):
    with pytest.raises(exc, match=match):
        fn(*[sg.tensor(a) for a in args])
    with pytest.raises(exc, match=match):
        sg.compile(fn)(*args)


def test_broadcast_mismatch_names_the_shapes():
    both_modes_raise(lambda a, b: a + b, (np.ones((2, 3)), np.ones(4)), sg.ShapeError,
                     r"\(2, 3\) and \(4,\) cannot be broadcast")
    both_modes_raise(lambda a, b: sg.maximum(a, b), (np.ones((2, 3)), np.ones((3, 2))),
                     sg.ShapeError, r"\(2, 3\) and \(3, 2\)")


def test_matmul_inner_dimension_mismatch_names_the_shapes():
    both_modes_raise(lambda a, b: a @ b, (np.ones((2, 3)), np.ones((4, 5))), RuntimeError,
                     r"\(2x3 and 4x5\)")
    both_modes_raise(lambda a, b: sg.matmul(a, b), (np.ones(3), np.ones(4)), RuntimeError,
                     r"cannot be multiplied|inconsistent|3.*4")
    both_modes_raise(lambda a, b: sg.dot(a, b), (np.ones(3), np.ones(4)), RuntimeError,
                     r"\[3\].*\[4\]")


def test_reshape_to_wrong_size_names_the_sizes():
    both_modes_raise(lambda x: x.reshape(4, 2), (np.ones((2, 3)),), RuntimeError,
                     r"shape '\[4, 2\]' is invalid for input of size 6")
    both_modes_raise(lambda x: x.view(-1, 4), (np.ones((2, 3)),), RuntimeError,
                     r"invalid for input of size 6")


def test_cat_and_stack_of_mismatched_shapes_name_the_shapes():
    both_modes_raise(lambda a, b: sg.cat([a, b], 0), (np.ones((2, 3)), np.ones((2, 4))),
                     sg.ShapeError, r"\(2, 3\) and \(2, 4\)")
    both_modes_raise(lambda a, b: sg.stack([a, b]), (np.ones((2, 3)), np.ones((3, 2))),
                     RuntimeError, r"torch.Size\(\[2, 3\]\).*torch.Size\(\[3, 2\]\)")


def test_index_out_of_range_names_the_index_and_size():
    both_modes_raise(lambda x: x[4], (np.ones((4, 2)),), IndexError,
                     r"index 4 is out of bounds for dimension 0 with size 4")
    both_modes_raise(lambda x: x[:, -3], (np.ones((4, 2)),), IndexError,
                     r"index -3 is out of bounds for dimension 1 with size 2")
    both_modes_raise(lambda x: x.sum(2), (np.ones((4, 2)),), IndexError,
                     r"dim.*2.*out of range")
    both_modes_raise(lambda x: x[0, 0, 0], (np.ones((4, 2)),), IndexError,
                     r"too many indices for tensor of dimension 2")


def test_class_target_out_of_range_is_an_index_error():
    x = unif(-1, 1, 3, 4)
    t = np.array([0, 4, 1])
    F = sg.nn.functional
    with pytest.raises(IndexError, match="out of range"):
        F.cross_entropy(sg.tensor(x), sg.tensor(t))
    with pytest.raises(IndexError, match="out of range"):
        sg.compile(lambda x, t: F.cross_entropy(x, t))(x, t)


def test_dtype_errors_are_clear():
    with pytest.raises(RuntimeError, match="expected target dtype to be Long or Byte, but got "
                                           "Double"):
        sg.nn.functional.nll_loss(sg.tensor(np.ones((2, 3))), sg.tensor(np.ones(2)))
    with pytest.raises(RuntimeError, match="floating point"):
        sg.tensor(np.array([1, 2]), requires_grad=True)
    with pytest.raises(TypeError, match="int64"):
        sg.grad(lambda i: i.sum())(np.array([1, 2]))


# ================================================================== 9. torch cross-check

@by_id(ALL_CASES)
def test_torch_agrees_on_values_and_grads(case):
    torch = pytest.importorskip("torch")
    tts = []
    for i, a in enumerate(case.args):
        t = torch.tensor(a)
        if i in case.diff:
            t.requires_grad_(True)
        tts.append(t)
    out = case.fn(torch, *tts)
    ts = [sg.tensor(a, dtype=sg.float64, requires_grad=True) if i in case.diff
          else sg.tensor(a) for i, a in enumerate(case.args)]
    mine = case.fn(sg, *ts)
    np.testing.assert_allclose(np.asarray(mine.detach()), out.detach().numpy(), rtol=1e-12,
                               atol=1e-13)
    (out * torch.tensor(case.weight)).sum().backward()
    (mine * case.weight).sum().backward()
    for i in case.diff:
        np.testing.assert_allclose(np.asarray(ts[i].grad), tts[i].grad.numpy(), rtol=1e-10,
                                   atol=1e-12, err_msg=f"grad of arg {i}")


TORCH_KINKS = [
    ("relu_at_0", lambda m, x: m.relu(x).sum(), [np.array([-1.0, 0.0, 2.0])]),
    ("abs_at_0", lambda m, x: m.abs(x).sum(), [np.array([-1.0, 0.0, 2.0])]),
    ("max_ties", lambda m, x: m.max(x), [np.array([[1.0, 3.0, 3.0], [0.0, 3.0, -1.0]])]),
    ("amax_dim_ties", lambda m, x: m.amax(x, 1).sum(),
     [np.array([[1.0, 3.0, 3.0], [0.0, 3.0, -1.0]])]),
    ("max_dim_ties", lambda m, x: m.max(x, 1).values.sum(),
     [np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])]),
    ("maximum_tie", lambda m, a, b: m.maximum(a, b).sum(),
     [np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 5.0])]),
    ("clamp_bounds", lambda m, x: m.clamp(x, -1.0, 1.0).sum(),
     [np.array([-2.0, -1.0, 0.0, 1.0, 2.0])]),
    ("sqrt_at_0", lambda m, x: m.sqrt(x).sum(), [np.array([0.0, 4.0])]),
    ("norm_at_0", lambda m, x: m.norm(x), [np.zeros(3)]),
    ("pow_zero_exponent", lambda m, x: (x ** 0.0).sum(), [np.array([0.0, 2.0])]),
    ("pow_zero_base", lambda m, x, y: (x ** y).sum(), [np.array([0.0, 0.0]),
                                                       np.array([2.0, 0.0])]),
    ("prod_two_zeros", lambda m, x: m.prod(x), [np.array([1.5, 0.0, 0.0, 2.0])]),
    ("relu_nan", lambda m, x: m.relu(x).sum(), [NAN_X]),
    ("clamp_nan", lambda m, x: m.clamp(x, -1.0, 1.0).sum(), [NAN_X]),
    ("clamp_min_nan", lambda m, x: m.clamp(x, min=-1.0).sum(), [NAN_X]),
    ("maximum_nan", lambda m, a, b: m.maximum(a, b).sum(),
     [NAN_X, np.array([1.0, np.nan, 0.5, 3.0])]),
    ("minimum_nan", lambda m, a, b: m.minimum(a, b).sum(),
     [NAN_X, np.array([1.0, np.nan, 0.5, 3.0])]),
    ("sign_zero_grad", lambda m, x: (m.sign(x) * x).sum(), [np.array([-2.0, 0.0, 3.0])]),
]


@pytest.mark.parametrize("name,fn,arrays", TORCH_KINKS, ids=[k[0] for k in TORCH_KINKS])
def test_torch_agrees_at_kinks(name, fn, arrays):
    torch = pytest.importorskip("torch")
    tts = [torch.tensor(a, requires_grad=True) for a in arrays]
    fn(torch, *tts).backward()
    ts = [sg.tensor(a, dtype=sg.float64, requires_grad=True) for a in arrays]
    fn(sg, *ts).backward()
    for t, tt in zip(ts, tts):
        np.testing.assert_array_equal(np.asarray(t.grad), tt.grad.numpy())
