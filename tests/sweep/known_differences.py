"""What the sweep does not hold against symgrad: (a) what torch itself leaves undefined, each
rule with its reason, and (b) symgrad's open differences from torch, one line per sample
pattern: the team's to-do list, which only shrinks.

Input: a sample and its differences (``compare.differences``). Output: ``split_undefined``
(the differences kept, the ones (a) excludes) and ``open_differences()`` (pattern -> the
aspects (b) lists). ``test_sweep`` fails on a difference (b) does not list and on a listed one
that matches now: delete its line (or run ``python tests/sweep/store.py --known`` to rewrite
(b) from a full run with torch).
"""

from __future__ import annotations

import fnmatch
import functools

import numpy as np

from .spec import T, salt_of

# ---------------------------------------------------------------- (a) undefined in torch


def ties(sample, diffs=None) -> bool:
    """The first tensor argument holds a repeated value (NaNs count): where sort-like ops pick
    an index torch does not specify."""
    for position, arg in enumerate(sample.args, 1):
        if isinstance(arg, T):
            data = arg.data(salt_of(f"{position}:{arg.render()}")).ravel()
            data = data.astype(np.complex128 if data.dtype.kind == "c" else np.float64)
            nans = np.isnan(data).sum()
            return nans > 1 or len(np.unique(data[~np.isnan(data)])) < data.size - nans
    return False


HIDDEN_INDEX = ("torch.msort", "torch.quantile", "torch.nanquantile", "Tensor.msort",
                "Tensor.quantile", "Tensor.nanquantile")


def tie_gradient(sample, diffs) -> bool:
    """Ties, and the index that picks which repeated value gets the gradient is one torch does
    not specify: it differs (``value[1]``), or the op sorts internally and returns none."""
    return ties(sample) and ("value[1]" in diffs or sample.op in HIDDEN_INDEX)


def to_integer(sample, diffs=None) -> bool:
    """A cast of NaN, infinity or an out-of-range float to an integer dtype (C leaves it
    undefined; torch gives whatever the CPU's conversion gives)."""
    text = sample.pattern
    return ":e" in text and any(k in text for k in (
        "long", "int", "short", "char", "byte", "int64", "int32", "uint8", "LongTensor"))


SORTLIKE = ("torch.sort", "torch.argsort", "torch.msort", "torch.topk", "torch.kthvalue",
            "torch.median", "torch.nanmedian", "torch.mode", "torch.cummax", "torch.cummin",
            "torch.quantile", "torch.nanquantile", "Tensor.sort", "Tensor.argsort",
            "Tensor.msort", "Tensor.topk", "Tensor.kthvalue", "Tensor.median",
            "Tensor.nanmedian", "Tensor.mode", "Tensor.cummax", "Tensor.cummin",
            "Tensor.quantile", "Tensor.nanquantile")

# (ops, which samples, which aspects, why): fnmatch patterns (a tuple of ops: any of them),
# or a predicate of the sample and its differences.
UNDEFINED = [
    (("torch.empty", "torch.empty_like", "Tensor.new_empty"), "*", "value[[]*",
     "uninitialised memory (symgrad zero-fills it, on purpose)"),
    (("Tensor.new",), "Tensor.new(*, [0-9]*", "value[[]*",
     "Tensor.new(*sizes) is uninitialised memory"),
    ("torch.*Tensor", "torch.*Tensor([0-9(]*", "value[[]*",
     "torch.FloatTensor(*sizes) and the other legacy types: uninitialised memory"),
    (SORTLIKE, ties, "value[[]1]", "the index of a repeated value is unspecified "
                                   "(sort with stable=False, topk, kthvalue, median, mode...)"),
    (SORTLIKE, tie_gradient, "grad[[]*", "the gradient goes to the unspecified index of a "
                                         "repeated value"),
    (("torch.argsort", "Tensor.argsort"), ties, "value[[]0]",
     "argsort's order of repeated values is unspecified without stable=True"),
    (("torch.topk", "Tensor.topk"), "*sorted=False*", "value[[]*",
     "topk(sorted=False) returns the k values in an unspecified order"),
    (("torch.topk", "Tensor.topk"), "*sorted=False*", "grad[[]*",
     "topk(sorted=False): the gradient's order follows the unspecified one"),
    (("torch.unique", "Tensor.unique"), "*sorted=False*", "value[[]*",
     "unique(sorted=False) returns the values in an unspecified order"),
    ("*", "*#dup*", "value[[]*", "repeated indices in a scatter or an index write: torch keeps "
                                 "an unspecified one of the written values"),
    ("*", "*#dup*", "grad[[]*", "repeated indices: the gradient follows the unspecified winner"),
    (("linalg.eigh",), "*", "value[[]1]", "eigenvectors are defined up to sign"),
    (("linalg.eigh",), "*", "grad[[]*", "the gradient through eigenvectors depends on their "
                                        "sign"),
    ("*", to_integer, "value[[]*", "casting NaN, infinity or out-of-range floats to an integer "
                                   "is undefined (C); torch gives the CPU's conversion"),
    (("torch.take_along_dim", "Tensor.take_along_dim"), "*(f64[[]2,3], i64[[]2,2]:idx4, 1)*",
     "error:extra", "an index past the dim's size: torch's take_along_dim does not check it "
                    "(what it reads is unspecified: it wraps here); symgrad raises gather's "
                    "IndexError"),
]


def applies(rule_part, value: str, sample, diffs) -> bool:
    if callable(rule_part):
        return bool(rule_part(sample, diffs))
    if isinstance(rule_part, tuple):
        return value in rule_part
    return fnmatch.fnmatchcase(value, rule_part)


def split_undefined(sample, diffs: dict) -> tuple:
    """(kept, excluded): the differences in what torch defines, and those (a) excludes
    (aspect -> reason)."""
    kept, excluded = {}, {}
    for aspect, detail in diffs.items():
        for ops, which, aspects, reason in UNDEFINED:
            if applies(ops, sample.op, sample, diffs) and fnmatch.fnmatchcase(aspect, aspects) \
                    and applies(which, sample.pattern, sample, diffs):
                excluded[aspect] = reason
                break
        else:
            kept[aspect] = detail
    return kept, excluded


# ---------------------------------------------------------------- (b) open in symgrad

BEGIN, END = "# --- open differences: begin", "# --- open differences: end"


@functools.cache
def open_differences() -> dict:
    """pattern -> the aspects ``OPEN`` lists for it."""
    out = {}
    for line in OPEN.strip().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        op, pattern, aspects = (part.strip() for part in line.split(" | ")[:3])
        out[pattern] = set(aspects.split())
    return out


# One line per sample: op | sample pattern | the aspects that differ | what differs (the
# first). Written by ``python tests/sweep/store.py --known`` from a full run against torch;
# delete a line when its sample matches torch.
# --- open differences: begin
OPEN = """
F.adaptive_avg_pool1d | F.adaptive_avg_pool1d(f64[1,2,5], 0) | grad:error | grad:error: symgrad no error, torch RuntimeError
F.adaptive_avg_pool2d | F.adaptive_avg_pool2d(f16[1,2,5,5], 2) | value[0] | value[0]: at 0: symgrad 0.088623, torch 0.088806
F.adaptive_avg_pool2d | F.adaptive_avg_pool2d(f64[1,2,5,5], 0) | grad:error | grad:error: symgrad no error, torch RuntimeError
F.adaptive_max_pool1d | F.adaptive_max_pool1d(f64[1,2,6], 0) | error:extra | error:extra: symgrad raises IndexError: argmax(): expected reduction dim 4 to have non-zero size (input shape (1, 2, 1,
F.adaptive_max_pool1d_with_indices | F.adaptive_max_pool1d_with_indices(f64[1,2,6], 0) | error:extra | error:extra: symgrad raises IndexError: argmax(): expected reduction dim 4 to have non-zero size (input shape (1, 2, 1,
F.adaptive_max_pool2d | F.adaptive_max_pool2d(f64[1,2,4,4], 0) | error:extra | error:extra: symgrad raises IndexError: argmax(): expected reduction dim 4 to have non-zero size (input shape (1, 2, 0,
F.adaptive_max_pool2d_with_indices | F.adaptive_max_pool2d_with_indices(f64[1,2,4,4], 0) | error:extra | error:extra: symgrad raises IndexError: argmax(): expected reduction dim 4 to have non-zero size (input shape (1, 2, 0,
F.avg_pool1d | F.avg_pool1d(i64[1,2,5], 2) | error:extra | error:extra: symgrad raises RuntimeError: avg_pool of int64 tensors is not supported
F.avg_pool2d | F.avg_pool2d(f16[1,2,5,5], 2) | value[0] | value[0]: at 1: symgrad -0.14624, torch -0.146
F.avg_pool2d | F.avg_pool2d(i64[1,2,5,5], 2) | error:extra | error:extra: symgrad raises RuntimeError: avg_pool of int64 tensors is not supported
F.celu | F.celu(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch nan
F.celu_ | F.celu_(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch nan
F.cosine_similarity | F.cosine_similarity(f16[2,3], f16[2,3]) | value[0] | value[0]: at 0: symgrad 0.075989, torch 0.075806
F.elu | F.elu(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch nan
F.elu | F.elu(f64[16]:e, alpha=0.5) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch nan
F.elu_ | F.elu_(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch nan
F.embedding_bag | F.embedding_bag(i64[2,3]:idx5, f64[5,3], max_norm=1.0) | error:extra | error:extra: symgrad raises RuntimeError: embedding_bag: max_norm, scale_grad_by_freq and sparse are not supported
F.embedding_bag | F.embedding_bag(i64[6]:idx5, f64[5,3], i64[2]:idx1, include_last_offset=True) | grad[0] value[0] | grad[0]: value at 2: symgrad 0.0, torch 0.5
F.gelu | F.gelu(f16[16]:e) | value[0] | value[0]: at 8: symgrad inf, torch nan
F.gelu | F.gelu(f16[2,3]) | value[0] | value[0]: at 0: symgrad -0.099854, torch -0.099731
F.gelu | F.gelu(f32[16]:e) | value[0] | value[0]: at 9: symgrad inf, torch nan
F.group_norm | F.group_norm(f16[2,4,3], 2) | value[0] | value[0]: at 17: symgrad 0.24182, torch 0.24133
F.hardshrink | F.hardshrink(f32[16]:e) | grad[0] | grad[0]: value at 8: symgrad 1.25, torch 0.0
F.hardshrink | F.hardshrink(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch 0.0
F.hardswish | F.hardswish(f32[16]:e) | grad[0] | grad[0]: value at 8: symgrad nan, torch 1.25
F.hardtanh | F.hardtanh(f32[16]:e) | grad[0] | grad[0]: value at 8: symgrad 1.25, torch 0.0
F.hardtanh | F.hardtanh(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch 0.0
F.hardtanh | F.hardtanh(f64[16]:e, min_val=-0.5, max_val=0.5) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch 0.0
F.hardtanh_ | F.hardtanh_(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch 0.0
F.interpolate | F.interpolate(f64[1,2,4,4], scale_factor=0.5, mode='bilinear', antialias=True) | error:extra | error:extra: symgrad raises RuntimeError: interpolate(antialias=True) is not supported by symgrad
F.margin_ranking_loss | F.margin_ranking_loss(i32[4], i32[4], i32[4]:pm1) | error:extra | error:extra: symgrad raises RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating poin
F.margin_ranking_loss | F.margin_ranking_loss(i64[4], i64[4], i64[4]:pm1) | error:extra | error:extra: symgrad raises RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating poin
F.margin_ranking_loss | F.margin_ranking_loss(u8[4], u8[4], u8[4]:pm1) | error:extra | error:extra: symgrad raises RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating poin
F.normalize | F.normalize(f64[2,3], 0.0) | error:extra | error:extra: symgrad raises ZeroDivisionError: float division by zero
F.pad | F.pad(f64[1,2,3], (1, 1), 'circular') | grad_fn[0] | grad_fn[0]: symgrad IndexSelectBackward0, torch CopySlices
F.relu6 | F.relu6(f32[16]:e) | grad[0] | grad[0]: value at 8: symgrad 1.25, torch 0.0
F.relu6 | F.relu6(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch 0.0
F.scaled_dot_product_attention | F.scaled_dot_product_attention(f16[2,3,4], f16[2,5,4], f16[2,5,4]) | value[0] | value[0]: at 19: symgrad -0.020798, torch -0.02063
F.scaled_dot_product_attention | F.scaled_dot_product_attention(f64[2,0,4], f64[2,5,4], f64[2,5,4]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch AddBackward0
F.scaled_dot_product_attention | F.scaled_dot_product_attention(f64[2,2,3,4], f64[2,2,5,4], f64[2,2,5,4]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ScaledDotProductFlashAttentionForCpuBackward0
F.scaled_dot_product_attention | F.scaled_dot_product_attention(f64[2,3,4], f64[2,0,4], f64[2,0,4]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch AddBackward0
F.selu | F.selu(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.838726727872, torch nan
F.selu_ | F.selu_(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.838726727872, torch nan
F.softshrink | F.softshrink(f32[16]:e) | grad[0] | grad[0]: value at 8: symgrad 1.25, torch 0.0
F.softshrink | F.softshrink(f64[16]:e) | grad[0] | grad[0]: value at 10: symgrad 1.75, torch 0.0
F.upsample_nearest | F.upsample_nearest(i64[1,2,4,4], 8) | error:missing | error:missing: torch raises RuntimeError: "upsample_nearest2d_channels_last" not implemented for 'Long'
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], False) | shape[0] | shape[0]: symgrad [0, 1, 3], torch [0, 2, 3]
Tensor.__imul__ | Tensor.__imul__(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 5: symgrad -1.21728516, torch -1.21679688
Tensor.__ipow__ | Tensor.__ipow__(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 4: symgrad 0.178466782, torch 0.178536728
Tensor.__rpow__ | Tensor.__rpow__(f64[16]:e, -0.0) | grad[0] value[0] | grad[0]: value at 2: symgrad inf, torch -inf
Tensor.addbmm | Tensor.addbmm(f16[3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 6: symgrad 0.55371, torch 0.55273
Tensor.addbmm_ | Tensor.addbmm_(f16[3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 6: symgrad 0.55371, torch 0.55273
Tensor.addbmm_ | Tensor.addbmm_(f64[4], f64[2,3,3], f64[2,3,4]) | error:extra | error:extra: symgrad raises RuntimeError: output with shape [4] doesn't match the broadcast shape [3, 4] (addbmm_)
Tensor.addbmm_ | Tensor.addbmm_(f64[], f64[2,3,3], f64[2,3,4]) | error:extra | error:extra: symgrad raises RuntimeError: output with shape [] doesn't match the broadcast shape [3, 4] (addbmm_)
Tensor.addcmul | Tensor.addcmul(f16[2,3]:n, f16[2,3]:n, f16[2,3]:n) | value[0] | value[0]: at 1: symgrad -0.16357, torch -0.16321
Tensor.addcmul_ | Tensor.addcmul_(f16[2,3]:n, f16[2,3]:n, f16[2,3]:n) | value[0] | value[0]: at 1: symgrad -0.16357, torch -0.16321
Tensor.arctan2 | Tensor.arctan2(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -1.44688332, torch -1.44717598
Tensor.arctan2_ | Tensor.arctan2_(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 5: symgrad 2.97868729, torch 2.97729802
Tensor.atan2 | Tensor.atan2(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -1.44688332, torch -1.44717598
Tensor.atan2_ | Tensor.atan2_(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 5: symgrad 2.97868729, torch 2.97729802
Tensor.baddbmm | Tensor.baddbmm(f16[2,3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 2: symgrad 0.45605, torch 0.45654
Tensor.baddbmm_ | Tensor.baddbmm_(f16[2,3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 2: symgrad 0.45605, torch 0.45654
Tensor.bernoulli_ | Tensor.bernoulli_(f64[3,4], f64[4]:01) | grad[1] | grad[1]: symgrad none, torch a gradient
Tensor.cholesky_inverse | Tensor.cholesky_inverse(f64[3,3]:e) | value[0] | value[0]: at 4: symgrad nan, torch 0.0
Tensor.cumprod | Tensor.cumprod(f64[16]:e, 0) | grad[0] | grad[0]: value at 10: symgrad -inf, torch nan
Tensor.cumprod_ | Tensor.cumprod_(f64[16]:e, 0) | grad[0] | grad[0]: value at 10: symgrad -inf, torch nan
Tensor.det | Tensor.det(f64[3,3]:sing) | grad[0] | grad[0]: value at 0: symgrad nan, torch 3.231353942695e-17
Tensor.diag_embed | Tensor.diag_embed(f64[2,3], -1, 0, 2) | grad_fn[0] | grad_fn[0]: symgrad PermuteBackward0, torch DiagEmbedBackward0
Tensor.fill_ | Tensor.fill_(i64[2,3], f64[]) | grad_fn[0] requires_grad[0] | grad_fn[0]: symgrad None, torch FillBackward3
Tensor.hypot_ | Tensor.hypot_(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 3: symgrad 1.32023168, torch 1.31978524
Tensor.index_copy | Tensor.index_copy(f64[], 0, i64[1]:idx1, f64[1]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexCopyBackward0
Tensor.index_copy_ | Tensor.index_copy_(f64[], 0, i64[1]:idx1, f64[1]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexCopyBackward0
Tensor.index_fill | Tensor.index_fill(f64[], 0, i64[1]:idx1, 1.5) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexFillBackward0
Tensor.index_fill_ | Tensor.index_fill_(f64[], 0, i64[1]:idx1, 1.5) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexFillBackward0
Tensor.index_select | Tensor.index_select(f64[], 0, i64[1]:idx1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexSelectBackward0
Tensor.inverse | Tensor.inverse(f64[3,3]:sing) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
Tensor.ldexp | Tensor.ldexp(c64[2,3], f64[3]) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.ldexp_ | Tensor.ldexp_(c64[2,3], f64[3]) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.ldexp_ | Tensor.ldexp_(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 4: symgrad 3.23543239, torch 3.23632812
Tensor.logaddexp | Tensor.logaddexp(c128[2,3], c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "logaddexp_cpu" not implemented for 'ComplexDouble'
Tensor.logaddexp | Tensor.logaddexp(c64[2,3], f64[3]) | error:extra | error:extra: symgrad raises RuntimeError: "logaddexp_cpu" not implemented for 'ComplexDouble'
Tensor.logaddexp2 | Tensor.logaddexp2(f16[2,3], f16[2,3]) | value[0] | value[0]: at 0: symgrad 0.024414, torch 0.024658
Tensor.logcumsumexp | Tensor.logcumsumexp(f64[16]:e, 0) | grad[0] | grad[0]: value at 12: symgrad 0.0, torch nan
Tensor.logdet | Tensor.logdet(f64[3,3]:sing) | grad[0] value[0] | grad[0]: value at 0: symgrad nan, torch 0.0
Tensor.logit | Tensor.logit(f32[16]:e) | grad[0] | grad[0]: value at 12: symgrad -inf, torch inf
Tensor.logit | Tensor.logit(f64[16]:e, 1e-06) | grad[0] | grad[0]: value at 10: symgrad nan, torch 0.0
Tensor.logit_ | Tensor.logit_(f32[16]:e) | grad[0] | grad[0]: value at 12: symgrad -inf, torch inf
Tensor.logit_ | Tensor.logit_(f64[16]:e, 1e-06) | grad[0] | grad[0]: value at 10: symgrad nan, torch 0.0
Tensor.matrix_power | Tensor.matrix_power(f64[3,3]:sing, -1) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
Tensor.mode | Tensor.mode(f64[4,4]:e, 1) | value[0] | value[0]: at 1: symgrad -inf, torch nan
Tensor.movedim | Tensor.movedim(f64[], 0, 0) | grad_fn[0] | grad_fn[0]: symgrad PermuteBackward0, torch AliasBackward0
Tensor.mul_ | Tensor.mul_(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 5: symgrad -1.21728516, torch -1.21679688
Tensor.multiply_ | Tensor.multiply_(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 5: symgrad -1.21728516, torch -1.21679688
Tensor.new | Tensor.new(f64[2,3], f64[2]) | grad[1] grad_fn[0] requires_grad[0] | grad[1]: symgrad none, torch a gradient
Tensor.pow_ | Tensor.pow_(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 4: symgrad 0.178466782, torch 0.178536728
Tensor.prod | Tensor.prod(f32[16]:e) | grad[0] | grad[0]: value at 0: symgrad nan, torch 0.0
Tensor.prod | Tensor.prod(f64[16]:e) | grad[0] | grad[0]: value at 0: symgrad nan, torch 0.0
Tensor.random_ | Tensor.random_(u8[3,4]) | value[0] | value[0]: at 0: symgrad 32, torch 172
Tensor.repeat_interleave | Tensor.repeat_interleave(f64[2,3], i64[2]:idx3, 0) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
Tensor.repeat_interleave | Tensor.repeat_interleave(f64[2,3], i64[3]:idx3, 1) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
Tensor.scatter | Tensor.scatter(f64[], 0, i64[]:idx1, f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ScatterBackward0
Tensor.scatter_ | Tensor.scatter_(f64[], 0, i64[]:idx1, f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ScatterBackward0
Tensor.scatter_add | Tensor.scatter_add(f64[], 0, i64[]:idx1, f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ScatterAddBackward0
Tensor.scatter_add_ | Tensor.scatter_add_(f64[], 0, i64[]:idx1, f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ScatterAddBackward0
Tensor.sgn | Tensor.sgn(c128[8]:e) | value[0] | value[0]: at 1: symgrad nan, torch -0.0
Tensor.sgn_ | Tensor.sgn_(c128[8]:e) | value[0] | value[0]: at 1: symgrad nan, torch -0.0
Tensor.sinc | Tensor.sinc(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexDouble'
Tensor.sinc | Tensor.sinc(c128[8]:e) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexDouble'
Tensor.sinc | Tensor.sinc(c64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexFloat'
Tensor.sinc_ | Tensor.sinc_(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexDouble'
Tensor.sinc_ | Tensor.sinc_(c128[8]:e) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexDouble'
Tensor.sinc_ | Tensor.sinc_(c64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexFloat'
Tensor.slogdet | Tensor.slogdet(f64[3,3]:e) | value[0] | value[0]: at 0: symgrad -1.0, torch -0.0
Tensor.slogdet | Tensor.slogdet(f64[3,3]:sing) | grad[0] value[0] value[1] | grad[0]: value at 0: symgrad nan, torch -2.69956263069e+16
Tensor.square | Tensor.square(c128[8]:e) | grad[0] | grad[0]: value at 0: symgrad inf, torch nan
Tensor.square_ | Tensor.square_(c128[8]:e) | grad[0] | grad[0]: value at 0: symgrad inf, torch nan
Tensor.std | Tensor.std(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.223488137026, torch -inf
Tensor.stride | Tensor.stride(f64[0,3]) | value[0] value[1] | value[0]: symgrad 3, torch 0
Tensor.var | Tensor.var(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.6246378342071, torch -inf
Tensor.xlogy_ | Tensor.xlogy_(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 5: symgrad -3.57457995, torch -3.5731461
linalg.cond | linalg.cond(f32[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[0,0]) | error:extra | error:extra: symgrad raises IndexError: index 0 is out of bounds for dimension 0 with size 0
linalg.cond | linalg.cond(f64[1,1]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[2,0,0]) | error:extra | error:extra: symgrad raises IndexError: index 0 is out of bounds for dimension 1 with size 0
linalg.cond | linalg.cond(f64[2,3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3], -2) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3], 2) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3]:sing) | grad[0] grad_fn[0] value[0] | grad[0]: value at 2: symgrad -1.063001859849e+29, torch 1.569605815044e+30
linalg.cond | linalg.cond(f64[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3]:tri) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.det | linalg.det(f64[3,3]:sing) | grad[0] | grad[0]: value at 0: symgrad nan, torch 3.231353942695e-17
linalg.inv | linalg.inv(f64[3,3]:sing) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
linalg.lstsq | linalg.lstsq(f64[3,3]:sing, f64[3,4]) | grad[0] grad[1] value[0] | grad[0]: value at 7: symgrad -1.52436577499e+38, torch -0.1217013623461
linalg.matrix_norm | linalg.matrix_norm(f64[3,3]:sing, 'nuc') | grad[0] | grad[0]: value at 4: symgrad -0.005397437626346, torch -0.9092645789493
linalg.matrix_power | linalg.matrix_power(f64[3,3]:sing, -1) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
linalg.qr | linalg.qr(f64[3,3]:sing) | grad[0] | grad[0]: value at 2: symgrad 129.4452409245, torch 4.167406487425
linalg.slogdet | linalg.slogdet(f64[3,3]:e) | value[0] | value[0]: at 0: symgrad -1.0, torch -0.0
linalg.slogdet | linalg.slogdet(f64[3,3]:sing) | grad[0] value[0] value[1] | grad[0]: value at 0: symgrad nan, torch -2.69956263069e+16
linalg.solve | linalg.solve(f64[3,3]:sing, f64[3]) | error:extra | error:extra: symgrad raises RuntimeError: torch.linalg.solve: The solver failed because the input matrix is singular.
linalg.solve_triangular | linalg.solve_triangular(f32[3,3]:tri, f64[3,4], upper=False) | error:extra | error:extra: symgrad raises RuntimeError: linalg.solve_triangular: Expected A and B to have the same dtype, but found A of
linalg.svdvals | linalg.svdvals(f64[3,3]:sing) | grad[0] | grad[0]: value at 4: symgrad -0.01582236881365, torch -1.378734656641
special.logit | special.logit(f32[16]:e) | grad[0] | grad[0]: value at 12: symgrad -inf, torch inf
special.sinc | special.sinc(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexDouble'
special.sinc | special.sinc(c128[8]:e) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexDouble'
special.sinc | special.sinc(c64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexFloat'
special.zeta | special.zeta(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -15.6373892, torch -15.6468086
torch.addbmm | torch.addbmm(f16[3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 6: symgrad 0.55371, torch 0.55273
torch.addcmul | torch.addcmul(f16[2,3]:n, f16[2,3]:n, f16[2,3]:n) | value[0] | value[0]: at 1: symgrad -0.16357, torch -0.16321
torch.arctan2 | torch.arctan2(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -1.44688332, torch -1.44717598
torch.atan2 | torch.atan2(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -1.44688332, torch -1.44717598
torch.baddbmm | torch.baddbmm(f16[2,3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 2: symgrad 0.45605, torch 0.45654
torch.cat | torch.cat([f64[0], f64[0]]) | grad[1] | grad[1]: symgrad none, torch a gradient
torch.cat | torch.cat([f64[2,3], f64[0]]) | grad[1] | grad[1]: symgrad none, torch a gradient
torch.cdist | torch.cdist(f64[2,3], f64[4,3], 0.0) | grad[0] grad[1] | grad[0]: symgrad none, torch a gradient
torch.cholesky_inverse | torch.cholesky_inverse(f64[3,3]:e) | value[0] | value[0]: at 4: symgrad nan, torch 0.0
torch.complex | torch.complex(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises unreadable result: TypeError
torch.complex | torch.complex(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises unreadable result: TypeError
torch.concat | torch.concat([f64[0], f64[0]]) | grad[1] | grad[1]: symgrad none, torch a gradient
torch.concat | torch.concat([f64[2,3], f64[0]]) | grad[1] | grad[1]: symgrad none, torch a gradient
torch.concatenate | torch.concatenate([f64[0], f64[0]]) | grad[1] | grad[1]: symgrad none, torch a gradient
torch.concatenate | torch.concatenate([f64[2,3], f64[0]]) | grad[1] | grad[1]: symgrad none, torch a gradient
torch.cumprod | torch.cumprod(f64[16]:e, 0) | grad[0] | grad[0]: value at 10: symgrad -inf, torch nan
torch.det | torch.det(f64[3,3]:sing) | grad[0] | grad[0]: value at 0: symgrad nan, torch 3.231353942695e-17
torch.diag_embed | torch.diag_embed(f64[2,3], -1, 0, 2) | grad_fn[0] | grad_fn[0]: symgrad PermuteBackward0, torch DiagEmbedBackward0
torch.einsum | torch.einsum('', f64[]) | grad_fn[0] | grad_fn[0]: symgrad None, torch PermuteBackward0
torch.einsum | torch.einsum('i,j->ij', f64[3], f64[4]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MulBackward0
torch.einsum | torch.einsum('ii->i', f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad DiagonalBackward0, torch PermuteBackward0
torch.einsum | torch.einsum('ij,ij->ij', f64[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MulBackward0
torch.float_power | torch.float_power(i64[2,3], i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: the output given to float_power has dtype Float but the operation's result requi
torch.hstack | torch.hstack([f64[0], f64[0]]) | grad[1] | grad[1]: symgrad none, torch a gradient
torch.hstack | torch.hstack([f64[2,3], f64[0]]) | grad[1] | grad[1]: symgrad none, torch a gradient
torch.index_copy | torch.index_copy(f64[], 0, i64[1]:idx1, f64[1]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexCopyBackward0
torch.index_fill | torch.index_fill(f64[], 0, i64[1]:idx1, 1.5) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexFillBackward0
torch.index_select | torch.index_select(f64[], 0, i64[1]:idx1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexSelectBackward0
torch.inverse | torch.inverse(f64[3,3]:sing) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
torch.ldexp | torch.ldexp(c64[2,3], f64[3]) | grad:error | grad:error: symgrad no error, torch RuntimeError
torch.logaddexp | torch.logaddexp(c128[2,3], c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "logaddexp_cpu" not implemented for 'ComplexDouble'
torch.logaddexp | torch.logaddexp(c64[2,3], f64[3]) | error:extra | error:extra: symgrad raises RuntimeError: "logaddexp_cpu" not implemented for 'ComplexDouble'
torch.logaddexp2 | torch.logaddexp2(f16[2,3], f16[2,3]) | value[0] | value[0]: at 0: symgrad 0.024414, torch 0.024658
torch.logcumsumexp | torch.logcumsumexp(f64[16]:e, 0) | grad[0] | grad[0]: value at 12: symgrad 0.0, torch nan
torch.logdet | torch.logdet(f64[3,3]:sing) | grad[0] value[0] | grad[0]: value at 0: symgrad nan, torch 0.0
torch.logit | torch.logit(f32[16]:e) | grad[0] | grad[0]: value at 12: symgrad -inf, torch inf
torch.logit | torch.logit(f64[16]:e, 1e-06) | grad[0] | grad[0]: value at 10: symgrad nan, torch 0.0
torch.matrix_power | torch.matrix_power(f64[3,3]:sing, -1) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
torch.mode | torch.mode(f64[4,4]:e, 1) | value[0] | value[0]: at 1: symgrad -inf, torch nan
torch.movedim | torch.movedim(f64[], 0, 0) | grad_fn[0] | grad_fn[0]: symgrad PermuteBackward0, torch AliasBackward0
torch.polar | torch.polar(f16[2,3], 100000.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.prod | torch.prod(f32[16]:e) | grad[0] | grad[0]: value at 0: symgrad nan, torch 0.0
torch.prod | torch.prod(f64[16]:e) | grad[0] | grad[0]: value at 0: symgrad nan, torch 0.0
torch.rand | torch.rand((2, 3), out=f64[2,3]~g) | value[0] | value[0]: at 3: symgrad 0.1320304870605, torch 0.920747684122
torch.repeat_interleave | torch.repeat_interleave(f64[2,3], i64[2]:idx3, 0) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
torch.repeat_interleave | torch.repeat_interleave(f64[2,3], i64[3]:idx3, 1) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
torch.scatter | torch.scatter(f64[], 0, i64[]:idx1, f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ScatterBackward0
torch.scatter_add | torch.scatter_add(f64[], 0, i64[]:idx1, f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ScatterAddBackward0
torch.searchsorted | torch.searchsorted(f64[5]:e, f64[16]:e) | value[0] | value[0]: at 14: symgrad 5, torch 2
torch.sgn | torch.sgn(c128[8]:e) | value[0] | value[0]: at 1: symgrad nan, torch -0.0
torch.sinc | torch.sinc(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexDouble'
torch.sinc | torch.sinc(c128[8]:e) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexDouble'
torch.sinc | torch.sinc(c64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: "sinc_cpu" not implemented for 'ComplexFloat'
torch.slogdet | torch.slogdet(f64[3,3]:e) | value[0] | value[0]: at 0: symgrad -1.0, torch -0.0
torch.slogdet | torch.slogdet(f64[3,3]:sing) | grad[0] value[0] value[1] | grad[0]: value at 0: symgrad nan, torch -2.69956263069e+16
torch.square | torch.square(c128[8]:e) | grad[0] | grad[0]: value at 0: symgrad inf, torch nan
torch.std | torch.std(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.223488137026, torch -inf
torch.std_mean | torch.std_mean(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.05682147035931, torch -inf
torch.typename | torch.typename(torch.float32) | value[0] | value[0]: symgrad 'symgrad.dtypes.DType', torch 'torch.dtype'
torch.var | torch.var(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.6246378342071, torch -inf
torch.var_mean | torch.var_mean(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.4579711675404, torch -inf
torch.view_as_complex | torch.view_as_complex(f16[2]) | error:class | error:class: symgrad RuntimeError, torch unreadable result: TypeError
torch.view_as_complex | torch.view_as_complex(f16[3,2]) | error:class | error:class: symgrad RuntimeError, torch unreadable result: TypeError
"""
# --- open differences: end
